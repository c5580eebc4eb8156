/* X.bin.allowed: the bounds of an allowed golden (docs/file-formats.md).
 *
 *   0   8 bytes  "STEXBND1"
 *   8   24 bytes the format's WebGPU name, NUL-padded
 *   32  u32      width, 36 u32 height, 40 u32 depth
 *   44  u32      number of reasons
 *   48  records, x fastest then y then z, the format's channels innermost,
 *       12 bytes each: u32 lo code, u32 hi code, u32 flags | reason << 8
 *   then each reason: u32 byte length, its UTF-8 text (no NUL)
 * All integers little-endian. */
#include "io/io_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define BOUNDS_MAGIC "STEXBND1"
#define BOUNDS_HEADER 48u
#define BOUNDS_RECORD 12u
#define BOUNDS_NAME 24u
#define BOUNDS_MAX_REASONS (1u << 24)   /* the reason's 24 bits of a record */
#define BOUNDS_MAX_REASON_TEXT 4096u

stex_status stex_bounds_init(stex_bounds *b, stex_format f, uint32_t width, uint32_t height,
                             uint32_t depth)
{
    memset(b, 0, sizeof *b);
    stex_status st = io_check_format(f, "bounds");
    if (st || (st = io_check_dims("bounds", width, height, depth)))
        return STEX_INVALID_ARGUMENT;
    const stex_format_info *fi = stex_format_get(f);
    uint64_t n = (uint64_t)width * height * depth * fi->channels;
    if (n * BOUNDS_RECORD > STEX_IO_MAX_BYTES)
        return stex_fail(STEX_INVALID_ARGUMENT, "bounds: %ux%ux%u %s texels is too many", width,
                         height, depth, fi->name);
    b->v = calloc((size_t)n, sizeof *b->v);
    if (!b->v)
        return stex_fail(STEX_OUT_OF_MEMORY, "bounds: out of memory");
    b->format = f;
    b->width = width;
    b->height = height;
    b->depth = depth;
    b->channels = fi->channels;
    return STEX_OK;
}

void stex_bounds_free(stex_bounds *b)
{
    if (!b)
        return;
    for (uint32_t i = 0; i < b->nreasons; i++)
        free(b->reasons[i]);
    free(b->reasons);
    free(b->v);
    memset(b, 0, sizeof *b);
}

stex_bound *stex_bounds_at(const stex_bounds *b, uint32_t x, uint32_t y, uint32_t z, unsigned c)
{
    if (!b || !b->v || x >= b->width || y >= b->height || z >= b->depth || c >= b->channels)
        return NULL;
    return &b->v[(((size_t)z * b->height + y) * b->width + x) * b->channels + c];
}

uint32_t stex_bounds_reason(stex_bounds *b, const char *text)
{
    if (!b || !text)
        return 0;
    for (uint32_t i = 0; i < b->nreasons; i++)
        if (!strcmp(b->reasons[i], text))
            return i + 1;
    if (b->nreasons + 1 >= BOUNDS_MAX_REASONS)
        return 0;
    char **r = realloc(b->reasons, (b->nreasons + 1) * sizeof *r);
    if (!r)
        return 0;
    b->reasons = r;
    size_t n = strlen(text);
    n = n > BOUNDS_MAX_REASON_TEXT ? BOUNDS_MAX_REASON_TEXT : n;
    if (!(r[b->nreasons] = malloc(n + 1)))
        return 0;
    memcpy(r[b->nreasons], text, n);
    r[b->nreasons][n] = '\0';
    return ++b->nreasons;
}

/* The rules a bound obeys, whoever wrote it; NULL when it does. */
static const char *bound_broken(const stex_bounds *b, unsigned c, const stex_bound *v)
{
    if (v->flags & ~STEX_BOUND_FLAGS)
        return "unknown flags (known: 1 NaN allowed, 2 only NaN, 4 unconstrained)";
    if ((v->flags & STEX_BOUND_ONLY_NAN) && !(v->flags & STEX_BOUND_NAN))
        return "'only NaN' (flag 2) without 'NaN allowed' (flag 1)";
    if (v->reason > b->nreasons)
        return "its reason number is past the file's reasons";
    if (v->flags & (STEX_BOUND_ANY | STEX_BOUND_ONLY_NAN))
        return NULL;
    const stex_format_info *fi = stex_format_get(b->format);
    unsigned bits = fi->bits[c];
    if (bits < 32 && ((v->lo | v->hi) >> bits))
        return "a code wider than its channel";
    if (io_code_is_nan(fi, c, v->lo) || io_code_is_nan(fi, c, v->hi))
        return "lo or hi is a NaN (NaNs are flag 1, never a bound)";
    if (io_code_order(fi, c, v->lo) > io_code_order(fi, c, v->hi))
        return "lo lies above hi";
    return NULL;
}

static stex_status check_all(const stex_bounds *b, const char *path)
{
    size_t n = (size_t)b->width * b->height * b->depth * b->channels;
    for (size_t i = 0; i < n; i++) {
        const char *why = bound_broken(b, (unsigned)(i % b->channels), &b->v[i]);
        if (why) {
            size_t t = i / b->channels;
            return stex_fail(STEX_FILE_FORMAT_ERROR,
                             "%s: the bound of texel (%zu, %zu, %zu) channel %c breaks the bounds "
                             "file's rule: %s", path, t % b->width, t / b->width % b->height,
                             t / b->width / b->height, "rgba"[i % b->channels], why);
        }
    }
    return STEX_OK;
}

stex_status io_add_bounds(io_batch *batch, const char *path, const stex_bounds *b, char sha[65])
{
    if (!b || !b->v)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': no bounds", path ? path : "");
    stex_status st = check_all(b, path);
    if (st)
        return stex_fail(STEX_INVALID_ARGUMENT, "write %s", stex_last_error());
    io_tmpfile *t;
    if ((st = io_batch_open(batch, path, &t)))
        return st;
    uint8_t head[BOUNDS_HEADER] = {0};
    memcpy(head, BOUNDS_MAGIC, 8);
    snprintf((char *)head + 8, BOUNDS_NAME, "%s", stex_format_name(b->format));
    io_put32(head + 32, b->width);
    io_put32(head + 36, b->height);
    io_put32(head + 40, b->depth);
    io_put32(head + 44, b->nreasons);
    st = io_write_bytes(t, head, sizeof head);
    size_t n = (size_t)b->width * b->height * b->depth * b->channels;
    for (size_t i = 0; !st && i < n; i++) {
        uint8_t rec[BOUNDS_RECORD];
        io_put32(rec, b->v[i].lo);
        io_put32(rec + 4, b->v[i].hi);
        io_put32(rec + 8, b->v[i].flags | b->v[i].reason << 8);
        st = io_write_bytes(t, rec, sizeof rec);
    }
    for (uint32_t i = 0; !st && i < b->nreasons; i++) {
        uint8_t len[4];
        io_put32(len, (uint32_t)strlen(b->reasons[i]));
        if (!(st = io_write_bytes(t, len, 4)))
            st = io_write_bytes(t, b->reasons[i], strlen(b->reasons[i]));
    }
    if (!st && sha) {
        io_sha256 copy = t->sha;
        io_sha256_hex(&copy, sha);
    }
    return st;
}

stex_status stex_write_bounds(const char *path, const stex_bounds *b)
{
    io_batch batch = {0};
    stex_status st = io_add_bounds(&batch, path, b, NULL);
    if (st) {
        io_batch_abort(&batch);
        return st;
    }
    return io_batch_commit(&batch);
}

/* The header's fields; NULL or the rule broken. */
static const char *read_header(const uint8_t *buf, size_t size, stex_format *f, uint32_t dims[3],
                               uint32_t *nreasons)
{
    if (size < BOUNDS_HEADER || memcmp(buf, BOUNDS_MAGIC, 8))
        return "not a stex bounds file (magic STEXBND1 missing)";
    char name[BOUNDS_NAME + 1];
    memcpy(name, buf + 8, BOUNDS_NAME);
    name[BOUNDS_NAME] = '\0';
    if ((*f = stex_format_from_name(name)) == STEX_FORMAT_UNDEFINED)
        return "bytes 8..31 do not name a WebGPU texture format";
    for (int i = 0; i < 3; i++)
        dims[i] = io_le32(buf + 32 + 4 * i);
    *nreasons = io_le32(buf + 44);
    if (*nreasons >= BOUNDS_MAX_REASONS)
        return "more reasons than a record's 24 bits can number";
    return NULL;
}

/* The reasons after the records; NULL or the rule broken. */
static const char *read_reasons(stex_bounds *b, uint32_t n, const uint8_t *p, const uint8_t *end)
{
    for (uint32_t i = 0; i < n; i++) {
        if (end - p < 4)
            return "the reasons are truncated";
        uint32_t len = io_le32(p);
        p += 4;
        if (len > BOUNDS_MAX_REASON_TEXT || (size_t)(end - p) < len)
            return len > BOUNDS_MAX_REASON_TEXT ? "a reason is longer than 4096 bytes"
                                                : "the reasons are truncated";
        if (memchr(p, '\0', len))
            return "a reason holds a NUL byte";
        char *text = malloc(len + 1);
        char **r = text ? realloc(b->reasons, (b->nreasons + 1) * sizeof *r) : NULL;
        if (!r) {
            free(text);
            return "out of memory";
        }
        memcpy(text, p, len);
        text[len] = '\0';
        b->reasons = r;
        b->reasons[b->nreasons++] = text;
        p += len;
    }
    return p == end ? NULL : "bytes follow the last reason";
}

stex_status stex_read_bounds(const char *path, stex_bounds *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *buf;
    size_t size;
    stex_status st = io_read_file(path, &buf, &size, STEX_IO_MAX_BYTES + (1u << 26));
    if (st)
        return st;
    stex_format f = STEX_FORMAT_UNDEFINED;
    uint32_t d[3] = {0, 0, 0}, nreasons = 0;
    const char *why = read_header(buf, size, &f, d, &nreasons);
    if (!why && (io_check_format(f, path) || io_check_dims(path, d[0], d[1], d[2]))) {
        free(buf);
        return STEX_FILE_FORMAT_ERROR;
    }
    uint64_t n = why ? 0 : (uint64_t)d[0] * d[1] * d[2] * stex_format_get(f)->channels;
    if (!why && (size - BOUNDS_HEADER) / BOUNDS_RECORD < n)
        why = "fewer records than width x height x depth x channels (truncated?)";
    if (!why && stex_bounds_init(out, f, d[0], d[1], d[2]))
        why = "out of memory";
    const uint8_t *p = buf + BOUNDS_HEADER;
    for (size_t i = 0; !why && i < n; i++, p += BOUNDS_RECORD) {
        uint32_t fr = io_le32(p + 8);
        out->v[i] = (stex_bound){io_le32(p), io_le32(p + 4), fr & 0xffu, fr >> 8};
    }
    if (!why)
        why = read_reasons(out, nreasons, p, buf + size);
    if (why) {
        free(buf);
        stex_bounds_free(out);
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: %s", path, why);
    }
    io_sha256_of(buf, size, out->sha256);
    free(buf);
    if ((st = check_all(out, path)))
        stex_bounds_free(out);
    return st;
}
