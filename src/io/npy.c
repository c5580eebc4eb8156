/* .npy files (numpy format version 1.0): the texels without row padding, as
 * an array of shape (depth, height, width, channels).  Texel bytes are
 * written verbatim, so channels keep memory order (bgra8unorm is B,G,R,A) and
 * packed formats (rgb10a2*, rg11b10ufloat) are one '<u4' channel. */
#include "io/io_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static const char magic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

const char *stex_npy_dtype(stex_format f, uint32_t *channels)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || f == STEX_FORMAT_UNDEFINED || fi->kind != STEX_KIND_COLOR ||
        fi->packing == STEX_PACKING_OPAQUE)
        return NULL;
    if (fi->packing == STEX_PACKING_RGB10A2 || fi->packing == STEX_PACKING_RG11B10 ||
        fi->packing == STEX_PACKING_RGB9E5) {
        if (channels)
            *channels = 1;
        return "<u4";
    }
    if (channels)
        *channels = fi->channels;
    bool is_signed = fi->type == STEX_CHANNEL_SNORM || fi->type == STEX_CHANNEL_SINT;
    bool is_float = fi->type == STEX_CHANNEL_FLOAT;
    switch (fi->bits[0]) {
    case 8:
        return is_signed ? "|i1" : "|u1";
    case 16:
        return is_float ? "<f2" : is_signed ? "<i2" : "<u2";
    case 32:
        return is_float ? "<f4" : is_signed ? "<i4" : "<u4";
    default:
        return NULL;
    }
}

stex_status io_add_npy(io_batch *b, const char *path, const stex_image *img)
{
    if (!img || !img->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': empty image", path ? path : "");
    uint32_t ch;
    const char *dtype = stex_npy_dtype(img->format, &ch);
    if (!dtype)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': format '%s' has no .npy dtype", path,
                         stex_format_name(img->format));
    char dict[256];
    int n = snprintf(dict, sizeof dict,
                     "{'descr': '%s', 'fortran_order': False, 'shape': (%u, %u, %u, %u), }", dtype,
                     img->depth, img->height, img->width, ch);
    /* Magic, version, header length and header fill a multiple of 64 bytes,
     * the header ends with a newline (numpy's own layout). */
    size_t total = 10 + (size_t)n + 1;
    total = (total + 63) & ~(size_t)63;
    size_t hlen = total - 10;
    uint8_t head[10 + 256 + 64];
    memcpy(head, magic, 6);
    head[6] = 1;
    head[7] = 0;
    io_put16(head + 8, (uint16_t)hlen);
    memcpy(head + 10, dict, (size_t)n);
    memset(head + 10 + n, ' ', hlen - (size_t)n - 1);
    head[total - 1] = '\n';

    io_tmpfile *t;
    stex_status st = io_batch_open(b, path, &t);
    if (st)
        return st;
    st = io_write_bytes(t, head, total);
    const stex_format_info *fi = stex_format_get(img->format);
    size_t row = (size_t)img->width * fi->bytes;
    for (uint32_t z = 0; !st && z < img->depth; z++)
        for (uint32_t y = 0; !st && y < img->height; y++)
            st = io_write_bytes(t, stex_image_texel(img, 0, y, z), row);
    return st;
}

stex_status stex_write_npy(const char *path, const stex_image *img)
{
    io_batch b = {0};
    stex_status st = io_add_npy(&b, path, img);
    if (st) {
        io_batch_abort(&b);
        return st;
    }
    return io_batch_commit(&b);
}

/* ---- reading: a tiny parser for the header's Python dict literal ---- */

typedef struct npy_header {
    char descr[8];
    int fortran; /* -1 missing */
    int ndim;
    uint64_t shape[8];
} npy_header;

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static const char *parse_quoted(const char *p, const char *end, char *dst, size_t cap)
{
    if (p >= end || (*p != '\'' && *p != '"'))
        return NULL;
    char q = *p++;
    size_t n = 0;
    while (p < end && *p != q) {
        if (n + 1 >= cap)
            return NULL;
        dst[n++] = *p++;
    }
    if (p >= end)
        return NULL;
    dst[n] = '\0';
    return p + 1;
}

/* The shape tuple after its '(': non-negative integers separated by commas,
 * a trailing comma allowed (and needed for one element, as in Python). */
static const char *parse_shape(const char *p, const char *end, npy_header *h, const char **why)
{
    h->ndim = 0;
    for (;;) {
        p = skip_ws(p, end);
        if (p < end && *p == ')')
            break;
        if (p >= end || !isdigit((unsigned char)*p))
            return *why = "'shape' holds something other than non-negative integers", NULL;
        uint64_t v = 0;
        while (p < end && isdigit((unsigned char)*p)) {
            if (v > (UINT64_MAX - 9) / 10)
                return *why = "a 'shape' dimension is absurdly large", NULL;
            v = v * 10 + (uint64_t)(*p++ - '0');
        }
        if (h->ndim >= 8)
            return *why = "'shape' has more than 8 dimensions", NULL;
        h->shape[h->ndim++] = v;
        p = skip_ws(p, end);
        if (p < end && *p == ',')
            p++;
        else if (p >= end || *p != ')')
            return *why = "'shape' is not a tuple: its numbers must be separated by commas", NULL;
        else if (h->ndim == 1)
            return *why = "'shape' (N) is a number, not a tuple: write (N,)", NULL;
    }
    return p + 1;
}

/* The header: a Python dict literal with exactly the keys 'descr',
 * 'fortran_order' and 'shape', entries separated by commas (a trailing one
 * allowed), then only spaces and the final newline.  No NUL anywhere. */
static bool parse_header(const char *p, const char *end, npy_header *h, const char **why)
{
    memset(h, 0, sizeof *h);
    h->fortran = -1;
    h->ndim = -1;
    if (memchr(p, '\0', (size_t)(end - p)))
        return *why = "the header holds a NUL byte", false;
    p = skip_ws(p, end);
    if (p >= end || *p++ != '{')
        return *why = "the header is not a Python dict", false;
    for (;;) {
        p = skip_ws(p, end);
        if (p < end && *p == '}')
            break;
        char key[32];
        p = parse_quoted(p, end, key, sizeof key);
        if (!p)
            return *why = "a key of the header dict is not a short quoted string", false;
        p = skip_ws(p, end);
        if (p >= end || *p++ != ':')
            return *why = "missing ':' in the header dict", false;
        p = skip_ws(p, end);
        if (!strcmp(key, "descr")) {
            if (h->descr[0])
                return *why = "the header dict has 'descr' twice", false;
            p = parse_quoted(p, end, h->descr, sizeof h->descr);
            if (!p)
                return *why = "'descr' is not a simple dtype string (structured dtypes are not "
                              "texels)", false;
        } else if (!strcmp(key, "fortran_order")) {
            if (h->fortran >= 0)
                return *why = "the header dict has 'fortran_order' twice", false;
            if (end - p >= 4 && !strncmp(p, "True", 4))
                h->fortran = 1, p += 4;
            else if (end - p >= 5 && !strncmp(p, "False", 5))
                h->fortran = 0, p += 5;
            else
                return *why = "'fortran_order' is neither True nor False", false;
        } else if (!strcmp(key, "shape")) {
            if (h->ndim >= 0)
                return *why = "the header dict has 'shape' twice", false;
            if (p >= end || *p++ != '(')
                return *why = "'shape' is not a tuple", false;
            if (!(p = parse_shape(p, end, h, why)))
                return false;
        } else {
            return *why = "the header dict has an unknown key", false;
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',')
            p++;
        else if (p >= end || *p != '}')
            return *why = "the header dict's entries must be separated by commas", false;
    }
    p = skip_ws(p + 1, end);
    if (p != end)
        return *why = "something other than spaces follows the header dict", false;
    if (!h->descr[0] || h->fortran < 0 || h->ndim < 0)
        return *why = "the header lacks 'descr', 'fortran_order' or 'shape'", false;
    /* a one-byte type has no byte order: numpy writes '|u1', others '<u1' */
    if ((h->descr[0] == '<' || h->descr[0] == '>' || h->descr[0] == '=') &&
        (!strcmp(h->descr + 1, "u1") || !strcmp(h->descr + 1, "i1") ||
         !strcmp(h->descr + 1, "b1")))
        h->descr[0] = '|';
    return true;
}

/* The default format for a dtype and channel count. */
static stex_format infer_format(const char *descr, uint64_t ch)
{
    static const struct { const char *descr; const char *names[5]; } table[] = {
        {"|u1", {NULL, "r8unorm", "rg8unorm", NULL, "rgba8unorm"}},
        {"|i1", {NULL, "r8snorm", "rg8snorm", NULL, "rgba8snorm"}},
        {"<u2", {NULL, "r16uint", "rg16uint", NULL, "rgba16uint"}},
        {"<i2", {NULL, "r16sint", "rg16sint", NULL, "rgba16sint"}},
        {"<f2", {NULL, "r16float", "rg16float", NULL, "rgba16float"}},
        {"<u4", {NULL, "r32uint", "rg32uint", NULL, "rgba32uint"}},
        {"<i4", {NULL, "r32sint", "rg32sint", NULL, "rgba32sint"}},
        {"<f4", {NULL, "r32float", "rg32float", NULL, "rgba32float"}},
    };
    if (ch > 4)
        return STEX_FORMAT_UNDEFINED;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].descr, descr) && table[i].names[ch])
            return stex_format_from_name(table[i].names[ch]);
    return STEX_FORMAT_UNDEFINED;
}

stex_status stex_read_npy(const char *path, stex_format f, stex_image *out)
{
    memset(out, 0, sizeof *out);
    uint8_t *buf;
    size_t size;
    stex_status st = io_read_file(path, &buf, &size, STEX_IO_MAX_BYTES + 65536 + 16);
    if (st)
        return st;
    const char *why = NULL;
    size_t hlen = 0, hstart = 0;
    npy_header h;
    if (size < 10 || memcmp(buf, magic, 6))
        why = "not a .npy file (the magic bytes \\x93NUMPY are missing)";
    else if (buf[6] == 1) {
        hlen = io_le16(buf + 8);
        hstart = 10;
    } else if ((buf[6] == 2 || buf[6] == 3) && size >= 12) {
        hlen = io_le32(buf + 8);
        hstart = 12;
    } else
        why = "unsupported .npy version (1.0, 2.0 and 3.0 are read)";
    if (!why && (hlen > 65536 || hstart + hlen > size))
        why = "truncated header";
    if (!why)
        parse_header((const char *)buf + hstart, (const char *)buf + hstart + hlen, &h, &why);
    if (!why && h.fortran)
        why = "fortran_order True is not supported (save with C order)";
    uint64_t dims[4] = {1, 1, 1, 1}; /* D, H, W, C */
    if (!why) {
        if (h.ndim == 4)
            memcpy(dims, h.shape, sizeof dims);
        else if (h.ndim == 3)
            memcpy(dims + 1, h.shape, 3 * sizeof dims[0]);
        else if (h.ndim == 2)
            memcpy(dims + 1, h.shape, 2 * sizeof dims[0]);
        else
            why = "shape must be (depth, height, width, channels), (height, width, channels) or "
                  "(height, width)";
    }
    if (why) {
        free(buf);
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: %s", path, why);
    }
    if (dims[0] == 0 || dims[1] == 0 || dims[2] == 0 || dims[3] == 0 ||
        dims[2] > STEX_IO_MAX_DIMENSION || dims[1] > STEX_IO_MAX_DIMENSION ||
        dims[0] > STEX_IO_MAX_DEPTH || dims[3] > 4) {
        free(buf);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: shape (%llu, %llu, %llu, %llu) is not a texture (each of width, "
                         "height >= 1 and <= %u, depth 1..%u, channels 1..4)",
                         path, (unsigned long long)dims[0], (unsigned long long)dims[1],
                         (unsigned long long)dims[2], (unsigned long long)dims[3],
                         STEX_IO_MAX_DIMENSION, STEX_IO_MAX_DEPTH);
    }
    if (f == STEX_FORMAT_UNDEFINED) {
        f = infer_format(h.descr, dims[3]);
        if (f == STEX_FORMAT_UNDEFINED) {
            free(buf);
            return stex_fail(STEX_FILE_FORMAT_ERROR,
                             "%s: dtype '%s' with %llu channels is no texel format; give the "
                             "format explicitly", path, h.descr, (unsigned long long)dims[3]);
        }
    }
    uint32_t want_ch;
    const char *want = stex_npy_dtype(f, &want_ch);
    if (!want) {
        free(buf);
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: format '%s' has no .npy form", path,
                         stex_format_name(f));
    }
    bool same = !strcmp(want, h.descr); /* ('<u1' was read as '|u1') */
    if (!same || want_ch != dims[3]) {
        free(buf);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: holds dtype '%s' with %llu channels, but %s needs '%s' with %u", path,
                         h.descr, (unsigned long long)dims[3], stex_format_name(f), want, want_ch);
    }
    /* The data must be exactly what the shape says, checked before any
     * allocation so that a lying header costs nothing. */
    const stex_format_info *fi = stex_format_get(f);
    uint64_t row = dims[2] * fi->bytes;
    uint64_t need = row * dims[1] * dims[0];
    size_t have = size - hstart - hlen;
    if (have != need) {
        free(buf);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: shape (%llu, %llu, %llu, %llu) of %s needs %llu data bytes, the file "
                         "has %zu%s", path, (unsigned long long)dims[0], (unsigned long long)dims[1],
                         (unsigned long long)dims[2], (unsigned long long)dims[3], h.descr,
                         (unsigned long long)need, have, have < need ? " (truncated)" : "");
    }
    st = stex_image_init(out, f, (uint32_t)dims[2], (uint32_t)dims[1], (uint32_t)dims[0]);
    if (st) {
        free(buf);
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: %s", path, stex_last_error());
    }
    const uint8_t *src = buf + hstart + hlen;
    for (uint32_t z = 0; z < out->depth; z++)
        for (uint32_t y = 0; y < out->height; y++, src += row)
            memcpy(stex_image_texel(out, 0, y, z), src, (size_t)row);
    free(buf);
    return STEX_OK;
}
