/* X.bin.inputs: the vec4 each texel was last stored with (docs/file-formats.md).
 *
 *   0   8 bytes  "STEXINP1"
 *   8   u32      scalar type of the values: 0 f32, 1 u32, 2 i32
 *   12  u32      width, 16 u32 height, 20 u32 depth
 *   24  records, x fastest then y then z, 20 bytes each:
 *       u32 flags (bit 0: the texel was stored), u32 x 4 the channels' bits
 * All integers little-endian. */
#include "io/io_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define INPUTS_MAGIC "STEXINP1"
#define INPUTS_HEADER 24u
#define INPUTS_RECORD 20u

stex_status stex_inputs_init(stex_inputs *in, stex_scalar_type scalar, uint32_t width,
                             uint32_t height, uint32_t depth)
{
    memset(in, 0, sizeof *in);
    stex_status st = io_check_dims("inputs", width, height, depth);
    if (st)
        return STEX_INVALID_ARGUMENT;
    uint64_t n = (uint64_t)width * height * depth;
    if (n * INPUTS_RECORD > STEX_IO_MAX_BYTES)
        return stex_fail(STEX_INVALID_ARGUMENT, "inputs: %ux%ux%u texels is too many", width,
                         height, depth);
    in->values = calloc((size_t)n, sizeof *in->values);
    in->stored = calloc((size_t)n, 1);
    if (!in->values || !in->stored) {
        stex_inputs_free(in);
        return stex_fail(STEX_OUT_OF_MEMORY, "inputs: out of memory");
    }
    in->scalar = scalar;
    in->width = width;
    in->height = height;
    in->depth = depth;
    return STEX_OK;
}

void stex_inputs_free(stex_inputs *in)
{
    if (!in)
        return;
    free(in->values);
    free(in->stored);
    memset(in, 0, sizeof *in);
}

void stex_inputs_set(stex_inputs *in, uint32_t x, uint32_t y, uint32_t z, const stex_vec4 *v)
{
    if (!in || x >= in->width || y >= in->height || z >= in->depth)
        return;
    size_t i = ((size_t)z * in->height + y) * in->width + x;
    in->values[i] = *v;
    in->stored[i] = 1;
}

stex_status io_add_inputs(io_batch *b, const char *path, const stex_inputs *in, char sha[65])
{
    if (!in || !in->values)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': no inputs", path ? path : "");
    io_tmpfile *t;
    stex_status st = io_batch_open(b, path, &t);
    if (st)
        return st;
    uint8_t head[INPUTS_HEADER];
    memcpy(head, INPUTS_MAGIC, 8);
    io_put32(head + 8, (uint32_t)in->scalar);
    io_put32(head + 12, in->width);
    io_put32(head + 16, in->height);
    io_put32(head + 20, in->depth);
    st = io_write_bytes(t, head, sizeof head);
    size_t n = (size_t)in->width * in->height * in->depth;
    for (size_t i = 0; !st && i < n; i++) {
        uint8_t rec[INPUTS_RECORD];
        io_put32(rec, in->stored[i] ? 1u : 0u);
        for (int c = 0; c < 4; c++)
            io_put32(rec + 4 + 4 * c, in->values[i].u[c]);
        st = io_write_bytes(t, rec, sizeof rec);
    }
    if (!st && sha) {
        io_sha256 copy = t->sha;
        io_sha256_hex(&copy, sha);
    }
    return st;
}

stex_status stex_write_inputs(const char *path, const stex_inputs *in)
{
    io_batch b = {0};
    stex_status st = io_add_inputs(&b, path, in, NULL);
    if (st) {
        io_batch_abort(&b);
        return st;
    }
    return io_batch_commit(&b);
}

stex_status stex_read_inputs(const char *path, stex_inputs *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *buf;
    size_t size;
    stex_status st = io_read_file(path, &buf, &size, STEX_IO_MAX_BYTES + INPUTS_HEADER);
    if (st)
        return st;
    const char *why = NULL;
    uint32_t scalar = 0, w = 0, h = 0, d = 0;
    if (size < INPUTS_HEADER || memcmp(buf, INPUTS_MAGIC, 8))
        why = "not a stex inputs file (magic STEXINP1 missing)";
    else {
        scalar = io_le32(buf + 8);
        w = io_le32(buf + 12);
        h = io_le32(buf + 16);
        d = io_le32(buf + 20);
        if (scalar > STEX_SCALAR_I32)
            why = "unknown scalar type (0 f32, 1 u32, 2 i32)";
    }
    if (!why && io_check_dims(path, w, h, d)) {
        free(buf);
        return STEX_FILE_FORMAT_ERROR;
    }
    if (!why && (uint64_t)(size - INPUTS_HEADER) != (uint64_t)w * h * d * INPUTS_RECORD)
        why = "the number of records does not match width x height x depth (truncated?)";
    if (!why && stex_inputs_init(out, (stex_scalar_type)scalar, w, h, d))
        why = "out of memory";
    if (why) {
        free(buf);
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: %s", path, why);
    }
    io_sha256_of(buf, size, out->sha256);
    const uint8_t *p = buf + INPUTS_HEADER;
    size_t n = (size_t)w * h * d;
    for (size_t i = 0; i < n; i++, p += INPUTS_RECORD) {
        uint32_t flags = io_le32(p);
        if (flags > 1) {
            stex_inputs_free(out);
            free(buf);
            return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: record %zu has unknown flags 0x%x",
                             path, i, flags);
        }
        out->stored[i] = (uint8_t)flags;
        for (int c = 0; c < 4; c++)
            out->values[i].u[c] = io_le32(p + 4 + 4 * c);
    }
    free(buf);
    return STEX_OK;
}
