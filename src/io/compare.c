/* Comparing a readback with a golden: per-channel distance in the format's
 * units (LSB for normalised and integer channels, ULP for float channels),
 * under a tolerance: exact bytes, ulp:N, or any value the spec allows for the
 * input recorded beside the golden. */
#include "io/io_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

bool stex_tolerance_parse(const char *s, stex_tolerance *out)
{
    if (!s)
        return false;
    if (!strcmp(s, "exact")) {
        *out = (stex_tolerance){STEX_TOLERANCE_EXACT, 0};
        return true;
    }
    if (!strcmp(s, "allowed")) {
        *out = (stex_tolerance){STEX_TOLERANCE_ALLOWED, 0};
        return true;
    }
    if (!strncmp(s, "ulp:", 4) && s[4] >= '0' && s[4] <= '9') {
        char *end;
        errno = 0;
        unsigned long n = strtoul(s + 4, &end, 10);
        if (errno || *end || n > UINT32_MAX)
            return false;
        *out = (stex_tolerance){STEX_TOLERANCE_ULP, (uint32_t)n};
        return true;
    }
    return false;
}

/* A float channel's bits as a signed integer that counts ULPs: adjacent
 * floats differ by 1, +0 and -0 are both 0.  Sets *nan for NaN. */
static int64_t float_order(const stex_format_info *fi, uint64_t code, unsigned bits, bool *nan)
{
    bool has_sign = fi->type == STEX_CHANNEL_FLOAT;
    unsigned ebits = bits == 32 ? 8 : 5;
    unsigned mbits = bits - ebits - (has_sign ? 1u : 0u);
    uint64_t mag_mask = ((uint64_t)1 << (ebits + mbits)) - 1;
    uint64_t mag = code & mag_mask;
    uint64_t exp_all = (((uint64_t)1 << ebits) - 1) << mbits;
    *nan = (mag & exp_all) == exp_all && (mag & (((uint64_t)1 << mbits) - 1));
    bool neg = has_sign && ((code >> (bits - 1)) & 1);
    return neg ? -(int64_t)mag : (int64_t)mag;
}

static bool is_float(const stex_format_info *fi)
{
    return fi->type == STEX_CHANNEL_FLOAT || fi->type == STEX_CHANNEL_UFLOAT;
}

stex_channel_diff stex_channel_compare(stex_format f, const uint8_t *golden, const uint8_t *actual,
                                       unsigned c)
{
    stex_channel_diff r = {STEX_CHANNEL_EQUAL, 0, 0, 0};
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || c >= 4 || !fi->bits[c])
        return r;
    unsigned bits = fi->bits[c];
    uint64_t mask = bits >= 32 ? 0xffffffffu : ((uint64_t)1 << bits) - 1;
    int64_t cg = io_channel_code(fi, golden, c), ca = io_channel_code(fi, actual, c);
    r.golden_code = (uint32_t)((uint64_t)cg & mask);
    r.actual_code = (uint32_t)((uint64_t)ca & mask);
    if (r.golden_code == r.actual_code)
        return r;
    r.verdict = STEX_CHANNEL_DISTANCE;
    if (!is_float(fi)) {
        r.diff = (uint64_t)(cg > ca ? cg - ca : ca - cg);
        return r;
    }
    bool ng, na;
    int64_t og = float_order(fi, r.golden_code, bits, &ng);
    int64_t oa = float_order(fi, r.actual_code, bits, &na);
    if (ng && na)
        r.verdict = STEX_CHANNEL_NAN_PAYLOAD;
    else if (ng || na)
        r.verdict = STEX_CHANNEL_NAN_VS_NUMBER, r.diff = UINT64_MAX;
    else if (og == oa)
        r.verdict = STEX_CHANNEL_SIGN_OF_ZERO; /* only +0 and -0 share an order */
    else
        r.diff = (uint64_t)(og > oa ? og - oa : oa - og);
    return r;
}

/* Every channel of a texel pair; returns the largest distance. */
static uint64_t texel_channels(const stex_format_info *fi, const uint8_t *g, const uint8_t *a,
                               stex_channel_diff ch[4])
{
    uint64_t worst = 0;
    for (unsigned c = 0; c < 4; c++) {
        ch[c] = stex_channel_compare(fi->format, g, a, c);
        worst = ch[c].diff > worst ? ch[c].diff : worst;
    }
    return worst;
}

uint64_t stex_texel_diff(stex_format f, const uint8_t *a, const uint8_t *b)
{
    const stex_format_info *fi = stex_format_get(f);
    stex_channel_diff ch[4];
    return fi ? texel_channels(fi, a, b, ch) : UINT64_MAX;
}

/* The histogram bucket of a differing texel's distance (stex/io.h). */
static unsigned bucket_of(uint64_t d)
{
    if (d == UINT64_MAX)
        return STEX_COMPARE_NAN_BUCKET;
    unsigned k = 0;
    while (d && k < 32)
        d >>= 1, k++;
    return k;
}

static bool is_bgra_or_rgba8(const stex_format_info *fi)
{
    return fi && fi->kind == STEX_KIND_COLOR && fi->bytes == 4 && fi->channels == 4 &&
           fi->bits[0] == 8 && fi->bits[1] == 8 && fi->bits[2] == 8 && fi->bits[3] == 8;
}

static bool is_srgb(const stex_format_info *fi)
{
    return fi->packing == STEX_PACKING_SRGB || fi->packing == STEX_PACKING_SRGB_BGRA;
}

stex_status stex_image_swap_rb(stex_image *img, stex_format as)
{
    const stex_format_info *from = img ? stex_format_get(img->format) : NULL,
                           *to = stex_format_get(as);
    if (!img || !img->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "swizzle: the image is empty");
    if (!is_bgra_or_rgba8(from) || !is_bgra_or_rgba8(to) || from->type != to->type ||
        is_srgb(from) != is_srgb(to))
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "swizzle: B and R swap places only between formats of four 8-bit "
                         "channels of one type (bgra8unorm and rgba8unorm, their -srgb forms, "
                         "rgba8uint...); not %s as %s", from ? from->name : "?",
                         to ? to->name : "?");
    for (uint32_t z = 0; z < img->depth; z++)
        for (uint32_t y = 0; y < img->height; y++)
            for (uint32_t x = 0; x < img->width; x++) {
                uint8_t *t = stex_image_texel(img, x, y, z), b = t[0];
                t[0] = t[2], t[2] = b;
            }
    img->format = as;
    return STEX_OK;
}

typedef enum texel_verdict { TEXEL_EQUAL, TEXEL_TOLERATED, TEXEL_MISMATCH } texel_verdict;

static stex_status check_comparable(const stex_image *g, const stex_image *a, stex_tolerance tol,
                                    const stex_inputs *in)
{
    if (!g || !a || !g->data || !a->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "compare: an image is empty");
    if (g->format != a->format)
        return stex_fail(STEX_INVALID_ARGUMENT, "compare: the golden is %s but the readback is %s",
                         stex_format_name(g->format), stex_format_name(a->format));
    if (g->width != a->width || g->height != a->height || g->depth != a->depth)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "compare: the golden is %ux%ux%u but the readback is %ux%ux%u", g->width,
                         g->height, g->depth, a->width, a->height, a->depth);
    if (tol.kind == STEX_TOLERANCE_ALLOWED) {
        if (!in || !in->values)
            return stex_fail(STEX_INVALID_ARGUMENT,
                             "compare: tolerance 'allowed' needs the store inputs recorded beside "
                             "the golden (stex run --record-allowed writes X.bin.inputs)");
        if (in->width != g->width || in->height != g->height || in->depth != g->depth)
            return stex_fail(STEX_INVALID_ARGUMENT,
                             "compare: the recorded inputs are %ux%ux%u but the images are %ux%ux%u",
                             in->width, in->height, in->depth, g->width, g->height, g->depth);
        if (in->scalar != stex_format_get(g->format)->scalar)
            return stex_fail(STEX_INVALID_ARGUMENT,
                             "compare: the recorded inputs are not of %s's value type",
                             stex_format_name(g->format));
    }
    return STEX_OK;
}

static texel_verdict judge(const stex_format_info *fi, const uint8_t *g, const uint8_t *a,
                           stex_tolerance tol, const stex_inputs *in, uint32_t x, uint32_t y,
                           uint32_t z, stex_channel_diff ch[4], uint64_t *diff)
{
    *diff = 0;
    if (!memcmp(g, a, fi->bytes))
        return TEXEL_EQUAL;
    *diff = texel_channels(fi, g, a, ch);
    switch (tol.kind) {
    case STEX_TOLERANCE_ULP:
        return *diff <= tol.ulp ? TEXEL_TOLERATED : TEXEL_MISMATCH;
    case STEX_TOLERANCE_ALLOWED: {
        size_t i = ((size_t)z * in->height + y) * in->width + x;
        if (!in->stored[i])
            return TEXEL_MISMATCH; /* never stored: the initial value, exactly */
        return stex_texel_allowed(fi->format, &in->values[i], a) ? TEXEL_TOLERATED
                                                              : TEXEL_MISMATCH;
    }
    default:
        return TEXEL_MISMATCH;
    }
}

/* |golden - actual| of channel c as textureLoad returns the two (spec
 * profile): what assert_allclose calls the absolute difference. */
static double abs_difference(const stex_format_info *fi, const uint8_t *g, const uint8_t *a,
                             unsigned c)
{
    const stex_profile *spec = stex_profile_get(STEX_PROFILE_SPEC);
    stex_vec4 vg, va;
    if (stex_decode_texel(spec, fi->format, g, &vg) || stex_decode_texel(spec, fi->format, a, &va))
        return 0;
    if (fi->scalar == STEX_SCALAR_U32)
        return fabs((double)vg.u[c] - (double)va.u[c]);
    if (fi->scalar == STEX_SCALAR_I32)
        return fabs((double)vg.i[c] - (double)va.i[c]);
    return fabs((double)vg.f[c] - (double)va.f[c]);
}

/* A differing texel into the per-channel summary. */
static void summarise(stex_compare_result *res, const stex_format_info *fi, const uint8_t *g,
                      const uint8_t *a, const stex_channel_diff ch[4])
{
    for (unsigned c = 0; c < 4; c++) {
        stex_channel_summary *s = &res->channel[c];
        switch (ch[c].verdict) {
        case STEX_CHANNEL_EQUAL:
            continue;
        case STEX_CHANNEL_SIGN_OF_ZERO:
            s->sign_of_zero++;
            break;
        case STEX_CHANNEL_NAN_PAYLOAD:
            s->nan_payload++;
            break;
        case STEX_CHANNEL_NAN_VS_NUMBER:
            s->nan_vs_number++;
            break;
        case STEX_CHANNEL_DISTANCE: {
            double d = abs_difference(fi, g, a, c);
            s->max_diff = ch[c].diff > s->max_diff ? ch[c].diff : s->max_diff;
            s->max_abs = d > s->max_abs ? d : s->max_abs;
            break;
        }
        }
        s->differing++;
    }
}

stex_status stex_compare(const stex_image *golden, const stex_image *actual, stex_tolerance tol,
                         const stex_inputs *inputs, stex_compare_result *res)
{
    memset(res, 0, sizeof *res);
    stex_status st = check_comparable(golden, actual, tol, inputs);
    if (st)
        return st;
    const stex_format_info *fi = stex_format_get(golden->format);
    res->unit = is_float(fi) ? "ULP" : "LSB";
    res->channels = fi->channels;
    for (uint32_t z = 0; z < golden->depth; z++)
        for (uint32_t y = 0; y < golden->height; y++)
            for (uint32_t x = 0; x < golden->width; x++) {
                const uint8_t *g = stex_image_texel(golden, x, y, z);
                const uint8_t *a = stex_image_texel(actual, x, y, z);
                uint64_t d;
                stex_channel_diff ch[4];
                texel_verdict v = judge(fi, g, a, tol, inputs, x, y, z, ch, &d);
                res->texels++;
                if (v == TEXEL_EQUAL)
                    continue;
                res->differing++;
                summarise(res, fi, g, a, ch);
                stex_compare_bucket *b = &res->histogram[bucket_of(d)];
                b->texels++;
                if (d == UINT64_MAX)
                    res->max_diff_unbounded = true;
                else if (d > res->max_diff)
                    res->max_diff = d;
                if (v != TEXEL_MISMATCH) {
                    res->tolerated++;
                    continue;
                }
                b->beyond++;
                if (res->listed < STEX_COMPARE_LISTED) {
                    stex_mismatch *m = &res->first[res->listed++];
                    m->x = x, m->y = y, m->z = z, m->diff = d;
                    memcpy(m->golden, g, fi->bytes);
                    memcpy(m->actual, a, fi->bytes);
                    memcpy(m->channel, ch, sizeof m->channel);
                }
                res->mismatches++;
            }
    if (res->mismatches)
        return stex_fail(STEX_MISMATCH, "compare: %llu of %llu texels differ beyond the tolerance",
                         (unsigned long long)res->mismatches, (unsigned long long)res->texels);
    return STEX_OK;
}

/* The diff picture's colours, one per kind of texel, and the legend's
 * words for each (docs/file-formats.md). */
enum { PAINT_EQUAL, PAINT_TOLERATED, PAINT_BITS, PAINT_1, PAINT_16, PAINT_256, PAINT_4096,
       PAINT_HUGE, PAINT_NAN, PAINTS };
static const struct {
    uint8_t rgb[3];
    const char *label;  /* %s: the unit */
} PAINT[PAINTS] = {
    [PAINT_EQUAL] = {{40, 40, 40}, "equal"},
    [PAINT_TOLERATED] = {{40, 80, 255}, NULL /* "within TOLERANCE" */},
    [PAINT_BITS] = {{0, 224, 224}, "beyond: bits only (sign of 0, NaN)"},
    [PAINT_1] = {{255, 0, 0}, "beyond: 1 %s"},
    [PAINT_16] = {{255, 64, 0}, "beyond: 2-15 %s"},
    [PAINT_256] = {{255, 128, 0}, "beyond: 16-255 %s"},
    [PAINT_4096] = {{255, 192, 0}, "beyond: 256-4095 %s"},
    [PAINT_HUGE] = {{255, 255, 0}, "beyond: 4096 %s or more"},
    [PAINT_NAN] = {{255, 0, 255}, "beyond: NaN against a number"},
};

static unsigned paint_of(texel_verdict v, uint64_t d)
{
    if (v == TEXEL_EQUAL)
        return PAINT_EQUAL;
    if (v == TEXEL_TOLERATED)
        return PAINT_TOLERATED;
    if (d == UINT64_MAX)
        return PAINT_NAN;
    return d == 0 ? PAINT_BITS : d == 1 ? PAINT_1 : d < 16 ? PAINT_16 : d < 256 ? PAINT_256
           : d < 4096 ? PAINT_4096 : PAINT_HUGE;
}

static void tolerance_text(stex_tolerance tol, char *buf, size_t n)
{
    if (tol.kind == STEX_TOLERANCE_ULP)
        snprintf(buf, n, "differ, within ulp:%u", tol.ulp);
    else if (tol.kind == STEX_TOLERANCE_ALLOWED)
        snprintf(buf, n, "differ, allowed");
    else
        snprintf(buf, n, "differ, within exact (none can)");
}

stex_status stex_write_diff_png(const char *path, const stex_image *golden,
                                const stex_image *actual, stex_tolerance tol,
                                const stex_inputs *inputs)
{
    stex_status st = check_comparable(golden, actual, tol, inputs);
    if (st)
        return st;
    const stex_format_info *fi = stex_format_get(golden->format);
    uint32_t w = golden->width, h = golden->height * golden->depth;
    uint8_t *paint = malloc((size_t)w * h);
    if (!paint)
        return stex_fail(STEX_OUT_OF_MEMORY, "diff picture: out of memory");
    io_legend_row rows[PAINTS];
    memset(rows, 0, sizeof rows);
    for (uint32_t z = 0; z < golden->depth; z++)
        for (uint32_t y = 0; y < golden->height; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint64_t d;
                stex_channel_diff ch[4];
                texel_verdict v = judge(fi, stex_image_texel(golden, x, y, z),
                                        stex_image_texel(actual, x, y, z), tol, inputs, x, y, z,
                                        ch, &d);
                unsigned k = paint_of(v, d);
                paint[((size_t)z * golden->height + y) * w + x] = (uint8_t)k;
                rows[k].count++;
            }
    for (unsigned k = 0; k < PAINTS; k++) {
        memcpy(rows[k].rgb, PAINT[k].rgb, 3);
        if (k == PAINT_TOLERATED)
            tolerance_text(tol, rows[k].label, sizeof rows[k].label);
        else
            snprintf(rows[k].label, sizeof rows[k].label, PAINT[k].label,
                     is_float(fi) ? "ULP" : "LSB");
    }
    st = io_write_paint_png(path, paint, w, h, rows, PAINTS);
    free(paint);
    return st;
}
