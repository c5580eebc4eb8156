/* PNG pictures of readbacks (libpng).  Layers are stacked vertically.
 *
 * Samples, by the format's channel type (docs/file-formats.md):
 *   8-bit unorm/uint          8-bit, as stored
 *   8-bit snorm/sint          8-bit, code + 128 (offset binary)
 *   16-bit unorm/uint         16-bit, as stored
 *   16-bit snorm/sint         16-bit, code + 32768
 *   rgb10a2unorm/uint         16-bit, each channel scaled to 0..65535 exactly
 *   float, ufloat, 32-bit int 8-bit, through a range: R,G,B share one, A has
 *                             its own; the range is [0,1] if every finite
 *                             value lies in it, else [min,max] of the finite
 *                             values; NaN and -inf -> 0, +inf -> 255
 * Channels: 1 -> grey, 2 -> RGB with B = 0, 3 -> RGB, 4 -> RGBA; bgra8unorm
 * is written as RGBA. */
#include "io/io_internal.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

typedef struct png_err_ctx {
    char msg[512];
    bool write_failed; /* msg is io_write_bytes's "cannot write 'X': why" */
} png_err_ctx;

static void on_png_error(png_structp png, png_const_charp msg)
{
    png_err_ctx *ctx = png_get_error_ptr(png);
    snprintf(ctx->msg, sizeof ctx->msg, "%s", msg);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* warnings (bad CRC in ancillary chunks...) are not errors */
}

/* Decoded value of a float-like channel (f16, f32, ufloat 11/10), or a
 * 32-bit integer channel, as a double. */
static double half_to_double(uint32_t h)
{
    int e = (h >> 10) & 31;
    double m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static double ufloat_to_double(uint32_t code, unsigned mbits)
{
    int e = (int)(code >> mbits) & 31;
    double m = code & ((1u << mbits) - 1);
    if (e == 31)
        return m ? NAN : INFINITY;
    if (e == 0)
        return ldexp(m, -14 - (int)mbits);
    return ldexp(m + (double)(1u << mbits), e - 15 - (int)mbits);
}

static double channel_value(const stex_format_info *fi, const uint8_t *t, unsigned c)
{
    int64_t code = io_channel_code(fi, t, c);
    if (fi->type == STEX_CHANNEL_UFLOAT)
        return ufloat_to_double((uint32_t)code, fi->bits[c] - 5);
    if (fi->type == STEX_CHANNEL_FLOAT) {
        if (fi->bits[c] == 16)
            return half_to_double((uint32_t)code);
        float f;
        uint32_t u = (uint32_t)code;
        memcpy(&f, &u, 4);
        return f;
    }
    return (double)code;
}

typedef enum sample_rule { RULE_AS_IS8, RULE_OFFSET8, RULE_AS_IS16, RULE_OFFSET16, RULE_SCALE16, RULE_RANGE8 } sample_rule;

static sample_rule rule_of(const stex_format_info *fi)
{
    bool is_signed = fi->type == STEX_CHANNEL_SNORM || fi->type == STEX_CHANNEL_SINT;
    if (fi->type == STEX_CHANNEL_FLOAT || fi->type == STEX_CHANNEL_UFLOAT || fi->bits[0] == 32)
        return RULE_RANGE8;
    if (fi->packing == STEX_PACKING_RGB10A2)
        return RULE_SCALE16;
    if (fi->bits[0] == 8)
        return is_signed ? RULE_OFFSET8 : RULE_AS_IS8;
    return is_signed ? RULE_OFFSET16 : RULE_AS_IS16;
}

typedef struct range { double lo, hi; } range;

static range find_range(const stex_image *img, const stex_format_info *fi, bool alpha)
{
    double lo = INFINITY, hi = -INFINITY;
    unsigned c0 = alpha ? 3 : 0, c1 = alpha ? 4 : (fi->channels < 3 ? fi->channels : 3);
    for (uint32_t z = 0; z < img->depth; z++)
        for (uint32_t y = 0; y < img->height; y++)
            for (uint32_t x = 0; x < img->width; x++)
                for (unsigned c = c0; c < c1; c++) {
                    double v = channel_value(fi, stex_image_texel(img, x, y, z), c);
                    if (isfinite(v)) {
                        lo = v < lo ? v : lo;
                        hi = v > hi ? v : hi;
                    }
                }
    range r = {0, 1};
    if (lo > hi || (lo >= 0 && hi <= 1))
        return r;
    r.lo = lo;
    r.hi = hi > lo ? hi : lo + 1;
    return r;
}

static unsigned to8(double v, range r)
{
    if (isnan(v))
        return 0;
    double s = (v - r.lo) / (r.hi - r.lo) * 255.0;
    if (!(s > 0))
        return 0;
    if (s >= 255)
        return 255;
    return (unsigned)lrint(s);
}

/* libpng's output goes through io_write_bytes, so that a full disk or a file
 * size limit is reported with the reason (strerror) and the file's name. */
static void png_write_data(png_structp png, png_bytep data, size_t n)
{
    io_tmpfile *t = png_get_io_ptr(png);
    if (io_write_bytes(t, data, n)) {
        png_err_ctx *ctx = png_get_error_ptr(png);
        ctx->write_failed = true;
        png_error(png, stex_last_error());
    }
}

static void png_flush_data(png_structp png) { (void)png; }

/* Writes rows (already in PNG sample layout) through libpng. */
static stex_status write_png_rows(io_batch *b, const char *path, uint32_t w, uint32_t h,
                                  int bit_depth, int color_type, uint8_t **rows)
{
    io_tmpfile *t;
    stex_status st = io_batch_open(b, path, &t);
    if (st)
        return st;
    png_err_ctx ctx = {"", false};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error,
                                              on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        return stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        if (ctx.write_failed)
            return stex_fail(STEX_IO_ERROR, "%s", ctx.msg);
        return stex_fail(STEX_IO_ERROR, "cannot write '%s': libpng: %s", path, ctx.msg);
    }
    png_set_write_fn(png, t, png_write_data, png_flush_data);
    png_set_IHDR(png, info, w, h, bit_depth, color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 3);
    png_write_info(png, info);
    if (bit_depth == 16)
        png_set_swap(png); /* rows hold little-endian samples; PNG is big-endian */
    png_write_image(png, rows);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return STEX_OK;
}

/* One file's batch: the temporary renamed into place, or nothing. */
static stex_status commit_or_abort(io_batch *b, stex_status st)
{
    if (st) {
        io_batch_abort(b);
        return st;
    }
    return io_batch_commit(b);
}

stex_status stex_write_png_rgba8(const char *path, const uint8_t *rgba, uint32_t width,
                                 uint32_t height)
{
    if (!rgba || !width || !height || width > STEX_IO_MAX_DIMENSION ||
        height > STEX_IO_MAX_DIMENSION * 4)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': bad picture size %ux%u",
                         path ? path : "", width, height);
    uint8_t **rows = malloc(sizeof *rows * height);
    if (!rows)
        return stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
    for (uint32_t y = 0; y < height; y++)
        rows[y] = (uint8_t *)rgba + (size_t)y * width * 4;
    io_batch b = {0};
    stex_status st = write_png_rows(&b, path, width, height, 8, PNG_COLOR_TYPE_RGBA, rows);
    free(rows);
    return commit_or_abort(&b, st);
}

/* The PNG samples of one pixel (out_ch of them, 8- or 16-bit values). */
static void pixel_samples(const stex_format_info *fi, sample_rule rule, const uint8_t *t,
                          unsigned out_ch, range rgb, range alpha, uint32_t *s)
{
    for (unsigned c = 0; c < out_ch; c++) {
        s[c] = 0;
        if (c >= fi->channels)
            continue;
        int64_t code = io_channel_code(fi, t, c);
        switch (rule) {
        case RULE_AS_IS8:
        case RULE_AS_IS16:
            s[c] = (uint32_t)code;
            break;
        case RULE_OFFSET8:
            s[c] = (uint32_t)(code + 128);
            break;
        case RULE_OFFSET16:
            s[c] = (uint32_t)(code + 32768);
            break;
        case RULE_SCALE16: {
            uint32_t max = (1u << fi->bits[c]) - 1;
            s[c] = (uint32_t)(((uint64_t)code * 65535 + max / 2) / max);
            break;
        }
        case RULE_RANGE8:
            s[c] = to8(channel_value(fi, t, c), c == 3 ? alpha : rgb);
            break;
        }
    }
}

typedef struct png_plan {
    const stex_format_info *fi;
    sample_rule rule;
    int depth;
    unsigned out_ch;
    range rgb, alpha;
} png_plan;

static png_plan plan_for(const stex_image *img)
{
    png_plan p;
    p.fi = stex_format_get(img->format);
    p.rule = rule_of(p.fi);
    p.depth = (p.rule == RULE_AS_IS16 || p.rule == RULE_OFFSET16 || p.rule == RULE_SCALE16) ? 16 : 8;
    p.out_ch = p.fi->channels == 1 ? 1 : p.fi->channels == 4 ? 4 : 3;
    p.rgb = p.alpha = (range){0, 1};
    if (p.rule == RULE_RANGE8) {
        p.rgb = find_range(img, p.fi, false);
        if (p.fi->channels == 4)
            p.alpha = find_range(img, p.fi, true);
    }
    return p;
}

stex_status stex_image_render_rgba8(const stex_image *img, uint8_t **rgba)
{
    *rgba = NULL;
    if (!img || !img->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "render: empty image");
    stex_status st = io_check_format(img->format, "render");
    if (st)
        return st;
    png_plan p = plan_for(img);
    size_t n = (size_t)img->width * img->height * img->depth;
    uint8_t *out = malloc(n * 4);
    if (!out)
        return stex_fail(STEX_OUT_OF_MEMORY, "render: out of memory");
    uint8_t *d = out;
    for (uint32_t z = 0; z < img->depth; z++)
        for (uint32_t y = 0; y < img->height; y++)
            for (uint32_t x = 0; x < img->width; x++, d += 4) {
                uint32_t s[4];
                pixel_samples(p.fi, p.rule, stex_image_texel(img, x, y, z), p.out_ch, p.rgb,
                              p.alpha, s);
                unsigned shift = p.depth == 16 ? 8 : 0;
                for (unsigned c = 0; c < 3; c++)
                    d[c] = (uint8_t)(s[p.out_ch == 1 ? 0 : c] >> shift);
                d[3] = p.out_ch == 4 ? (uint8_t)(s[3] >> shift) : 255;
            }
    *rgba = out;
    return STEX_OK;
}

stex_status io_add_png(io_batch *b, const char *path, const stex_image *img)
{
    if (!img || !img->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': empty image", path ? path : "");
    stex_status st = io_check_format(img->format, "write png");
    if (st)
        return st;
    uint64_t ph = (uint64_t)img->height * img->depth;
    if (ph > 0x7fffffff)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': picture too tall", path);
    png_plan p = plan_for(img);
    int color = p.out_ch == 1 ? PNG_COLOR_TYPE_GRAY : p.out_ch == 3 ? PNG_COLOR_TYPE_RGB
                                                                    : PNG_COLOR_TYPE_RGBA;
    size_t row_bytes = (size_t)img->width * p.out_ch * (size_t)(p.depth / 8);
    uint8_t *pix = malloc(row_bytes * ph);
    uint8_t **rows = malloc(sizeof *rows * ph);
    if (!pix || !rows) {
        free(pix);
        free(rows);
        return stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
    }
    for (uint32_t z = 0; z < img->depth; z++)
        for (uint32_t y = 0; y < img->height; y++) {
            size_t py = (size_t)z * img->height + y;
            uint8_t *dst = pix + py * row_bytes;
            rows[py] = dst;
            for (uint32_t x = 0; x < img->width; x++) {
                uint32_t s[4];
                pixel_samples(p.fi, p.rule, stex_image_texel(img, x, y, z), p.out_ch, p.rgb,
                              p.alpha, s);
                for (unsigned c = 0; c < p.out_ch; c++) {
                    if (p.depth == 16)
                        io_put16(dst, (uint16_t)s[c]), dst += 2;
                    else
                        *dst++ = (uint8_t)s[c];
                }
            }
        }
    st = write_png_rows(b, path, img->width, (uint32_t)ph, p.depth, color, rows);
    free(pix);
    free(rows);
    return st;
}

stex_status stex_write_png(const char *path, const stex_image *img)
{
    io_batch b = {0};
    return commit_or_abort(&b, io_add_png(&b, path, img));
}

stex_status stex_read_png(const char *path, stex_image *out)
{
    memset(out, 0, sizeof *out);
    FILE *f;
    stex_status st = io_open_regular(path, &f);
    if (st)
        return st;
    uint8_t sig[8];
    if (fread(sig, 1, 8, f) != 8 || png_sig_cmp(sig, 0, 8)) {
        fclose(f);
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: not a PNG file (bad signature)", path);
    }
    png_err_ctx ctx = {"", false};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, on_png_error,
                                             on_png_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        return stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    uint8_t **volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        free(rows);
        stex_image_free(out);
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: bad PNG: %s", path, ctx.msg);
    }
    /* the size is checked here, by stex, so that the message can say it */
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_set_chunk_malloc_max(png, 8u << 20);
    png_init_io(png, f);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w > STEX_IO_MAX_DIMENSION || h > STEX_IO_MAX_DIMENSION ||
        (uint64_t)w * h * 4 > STEX_IO_MAX_BYTES) {
        png_destroy_read_struct(&png, &info, NULL);
        fclose(f);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: %lux%lu pixels is more than stex reads (width and height at most "
                         "%u, and at most %llu bytes as rgba8unorm)", path, (unsigned long)w,
                         (unsigned long)h, STEX_IO_MAX_DIMENSION,
                         (unsigned long long)STEX_IO_MAX_BYTES);
    }
    int ct = png_get_color_type(png, info);
    png_set_expand(png);
    png_set_strip_16(png);
    if (ct == PNG_COLOR_TYPE_GRAY || ct == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(ct & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4)
        png_error(png, "unexpected row size after conversion to RGBA8");
    if (stex_image_init(out, STEX_FORMAT_RGBA8UNORM, w, h, 1))
        png_error(png, "out of memory or bad size");
    rows = malloc(sizeof *rows * h);
    if (!rows)
        png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++)
        rows[y] = stex_image_texel(out, 0, y, 0);
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    fclose(f);
    return STEX_OK;
}
