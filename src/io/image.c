/* stex_image: a readback in copyTextureToBuffer's layout, and the
 * per-format facts the writers and the comparison share. */
#include "io/io_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

stex_status io_check_format(stex_format f, const char *what)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || f == STEX_FORMAT_UNDEFINED)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: no texel format given", what);
    if (fi->kind != STEX_KIND_COLOR || fi->packing == STEX_PACKING_OPAQUE)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "%s: format '%s' has no texel layout stex can read or write "
                         "(depth, stencil and compressed formats are not storage formats)",
                         what, fi->name);
    return STEX_OK;
}

stex_status io_check_dims(const char *what, uint32_t w, uint32_t h, uint32_t d)
{
    if (w == 0 || h == 0 || d == 0)
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: size %ux%ux%u has a zero dimension", what, w,
                         h, d);
    if (w > STEX_IO_MAX_DIMENSION || h > STEX_IO_MAX_DIMENSION || d > STEX_IO_MAX_DEPTH)
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: size %ux%ux%u is beyond the limits stex accepts in a file "
                         "(width, height <= %u, depth <= %u)",
                         what, w, h, d, STEX_IO_MAX_DIMENSION, STEX_IO_MAX_DEPTH);
    return STEX_OK;
}

uint32_t stex_copy_bytes_per_row(stex_format f, uint32_t width)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi)
        return 0;
    uint64_t row = (uint64_t)width * fi->bytes;
    row = (row + 255) & ~(uint64_t)255;
    return row > UINT32_MAX ? 0 : (uint32_t)row;
}

stex_status stex_image_init(stex_image *img, stex_format f, uint32_t width, uint32_t height,
                            uint32_t depth)
{
    memset(img, 0, sizeof *img);
    stex_status st = io_check_format(f, "image");
    if (st)
        return st;
    st = io_check_dims("image", width, height, depth);
    if (st)
        return st == STEX_FILE_FORMAT_ERROR ? STEX_INVALID_ARGUMENT : st;
    uint32_t bpr = stex_copy_bytes_per_row(f, width);
    uint64_t size = (uint64_t)bpr * height * depth;
    if (size > STEX_IO_MAX_BYTES)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "image: %ux%ux%u %s needs %llu bytes, more than the %llu stex handles",
                         width, height, depth, stex_format_name(f), (unsigned long long)size,
                         (unsigned long long)STEX_IO_MAX_BYTES);
    img->data = calloc((size_t)size, 1);
    if (!img->data)
        return stex_fail(STEX_OUT_OF_MEMORY, "image: out of memory (%llu bytes)",
                         (unsigned long long)size);
    img->format = f;
    img->width = width;
    img->height = height;
    img->depth = depth;
    img->bytes_per_row = bpr;
    img->rows_per_image = height;
    img->size = (size_t)size;
    return STEX_OK;
}

void stex_image_free(stex_image *img)
{
    if (!img)
        return;
    free(img->data);
    memset(img, 0, sizeof *img);
}

uint8_t *stex_image_texel(const stex_image *img, uint32_t x, uint32_t y, uint32_t z)
{
    if (!img || !img->data || x >= img->width || y >= img->height || z >= img->depth)
        return NULL;
    const stex_format_info *fi = stex_format_get(img->format);
    size_t off = ((size_t)z * img->rows_per_image + y) * img->bytes_per_row + (size_t)x * fi->bytes;
    return img->data + off;
}

stex_status stex_image_from_texture(stex_texture *t, uint32_t mip, stex_image *out)
{
    memset(out, 0, sizeof *out);
    if (!t)
        return stex_fail(STEX_INVALID_ARGUMENT, "readback: NULL texture");
    const stex_texture_desc *td = stex_texture_get_desc(t);
    if (!(td->usage & STEX_USAGE_COPY_SRC))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "readback: copyTextureToBuffer needs the texture's usage to include "
                         "COPY_SRC (usage is 0x%x)", td->usage);
    stex_extent3d sz = stex_texture_mip_size(t, mip);
    if (sz.height == 0)
        sz.height = 1;
    if (sz.depth_or_array_layers == 0)
        sz.depth_or_array_layers = 1;
    stex_status st = stex_image_init(out, td->format, sz.width, sz.height, sz.depth_or_array_layers);
    if (st)
        return st;
    stex_buffer *buf;
    stex_buffer_desc bd = {.size = out->size,
                           .usage = STEX_BUFFER_USAGE_COPY_DST | STEX_BUFFER_USAGE_MAP_READ,
                           .label = "stex readback"};
    st = stex_buffer_create(stex_texture_device(t), &bd, &buf);
    if (st) {
        stex_image_free(out);
        return st;
    }
    stex_copy_texture src = {.texture = t, .mip_level = mip};
    stex_copy_layout layout = {.bytes_per_row = out->bytes_per_row,
                               .rows_per_image = out->rows_per_image};
    st = stex_copy_texture_to_buffer(&src, buf, &layout, sz);
    if (st == STEX_OK)
        memcpy(out->data, stex_buffer_data(buf), out->size);
    else
        stex_image_free(out);
    stex_buffer_destroy(buf);
    return st;
}

int64_t io_channel_code(const stex_format_info *fi, const uint8_t *t, unsigned c)
{
    unsigned bits = fi->bits[c];
    if (c >= 4 || bits == 0)
        return 0;
    uint64_t raw = 0;
    switch (fi->packing) {
    case STEX_PACKING_BGRA:
    case STEX_PACKING_SRGB_BGRA: {
        static const unsigned byte_of[4] = {2, 1, 0, 3};
        raw = t[byte_of[c]];
        break;
    }
    case STEX_PACKING_RGB10A2:
    case STEX_PACKING_RG11B10:
    case STEX_PACKING_RGB9E5: {
        uint32_t w = io_le32(t);
        unsigned shift = 0;
        for (unsigned i = 0; i < c; i++)
            shift += fi->bits[i];
        raw = (w >> shift) & ((1u << bits) - 1u);
        break;
    }
    default: {
        unsigned off = 0;
        for (unsigned i = 0; i < c; i++)
            off += fi->bits[i] / 8;
        for (unsigned b = 0; b < bits / 8; b++)
            raw |= (uint64_t)t[off + b] << (8 * b);
        break;
    }
    }
    if ((fi->type == STEX_CHANNEL_SNORM || fi->type == STEX_CHANNEL_SINT) &&
        (raw >> (bits - 1)) & 1)
        return (int64_t)raw - ((int64_t)1 << bits);
    return (int64_t)raw;
}

/* Float channels: 32 bits are f32 (8 exponent bits), 16 f16, 11 and 10
 * the unsigned floats of rg11b10ufloat (5 exponent bits, no sign). */
static unsigned exponent_bits(unsigned bits) { return bits == 32 ? 8 : 5; }

static bool is_float_channel(const stex_format_info *fi)
{
    return fi->type == STEX_CHANNEL_FLOAT || fi->type == STEX_CHANNEL_UFLOAT;
}

bool io_code_is_nan(const stex_format_info *fi, unsigned c, uint32_t code)
{
    if (!is_float_channel(fi) || c >= 4 || !fi->bits[c])
        return false;
    unsigned bits = fi->bits[c], ebits = exponent_bits(bits);
    unsigned mbits = bits - ebits - (fi->type == STEX_CHANNEL_FLOAT ? 1u : 0u);
    uint64_t mag = code & (((uint64_t)1 << (ebits + mbits)) - 1);
    return mag > ((((uint64_t)1 << ebits) - 1) << mbits);
}

int64_t io_code_order(const stex_format_info *fi, unsigned c, uint32_t code)
{
    unsigned bits = c < 4 ? fi->bits[c] : 0;
    if (!bits)
        return 0;
    uint64_t raw = bits >= 32 ? code : code & (((uint64_t)1 << bits) - 1);
    switch (fi->type) {
    case STEX_CHANNEL_FLOAT: {
        uint64_t sign = (uint64_t)1 << (bits - 1);
        /* -0 sits just below +0 */
        return raw & sign ? -(int64_t)(raw & (sign - 1)) - 1 : (int64_t)raw;
    }
    case STEX_CHANNEL_SNORM: {
        int64_t v = raw >> (bits - 1) ? (int64_t)raw - ((int64_t)1 << bits) : (int64_t)raw;
        int64_t least = -(((int64_t)1 << (bits - 1)) - 1);
        return v < least ? least : v;   /* -128 and -127 are both -1.0 */
    }
    case STEX_CHANNEL_SINT:
        return raw >> (bits - 1) ? (int64_t)raw - ((int64_t)1 << bits) : (int64_t)raw;
    default:
        return (int64_t)raw;
    }
}

void stex_texel_set_code(stex_format f, uint8_t *t, unsigned c, uint32_t code)
{
    const stex_format_info *fi = stex_format_get(f);
    unsigned bits = fi && c < 4 ? fi->bits[c] : 0;
    if (!bits)
        return;
    uint64_t raw = bits >= 32 ? code : code & (((uint64_t)1 << bits) - 1);
    switch (fi->packing) {
    case STEX_PACKING_BGRA:
    case STEX_PACKING_SRGB_BGRA: {
        static const unsigned byte_of[4] = {2, 1, 0, 3};
        t[byte_of[c]] = (uint8_t)raw;
        break;
    }
    case STEX_PACKING_RGB10A2:
    case STEX_PACKING_RG11B10:
    case STEX_PACKING_RGB9E5: {
        unsigned shift = 0;
        for (unsigned i = 0; i < c; i++)
            shift += fi->bits[i];
        uint32_t mask = ((1u << bits) - 1u) << shift;
        io_put32(t, (io_le32(t) & ~mask) | (uint32_t)raw << shift);
        break;
    }
    default: {
        unsigned off = 0;
        for (unsigned i = 0; i < c; i++)
            off += fi->bits[i] / 8;
        for (unsigned b = 0; b < bits / 8; b++)
            t[off + b] = (uint8_t)(raw >> (8 * b));
        break;
    }
    }
}
