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

uint64_t stex_texel_diff(stex_format f, const uint8_t *a, const uint8_t *b)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi)
        return UINT64_MAX;
    uint64_t worst = 0;
    for (unsigned c = 0; c < 4; c++) {
        if (!fi->bits[c])
            continue;
        int64_t ca = io_channel_code(fi, a, c), cb = io_channel_code(fi, b, c);
        uint64_t d;
        if (is_float(fi)) {
            uint64_t mask = fi->bits[c] == 32 ? 0xffffffffu : ((1u << fi->bits[c]) - 1);
            bool na, nb;
            int64_t oa = float_order(fi, (uint64_t)ca & mask, fi->bits[c], &na);
            int64_t ob = float_order(fi, (uint64_t)cb & mask, fi->bits[c], &nb);
            if (na || nb)
                d = na && nb ? 0 : UINT64_MAX;
            else
                d = (uint64_t)(oa > ob ? oa - ob : ob - oa);
        } else {
            d = (uint64_t)(ca > cb ? ca - cb : cb - ca);
        }
        worst = d > worst ? d : worst;
    }
    return worst;
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
                           uint32_t z, uint64_t *diff)
{
    *diff = 0;
    if (!memcmp(g, a, fi->bytes))
        return TEXEL_EQUAL;
    *diff = stex_texel_diff(fi->format, g, a);
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

stex_status stex_compare(const stex_image *golden, const stex_image *actual, stex_tolerance tol,
                         const stex_inputs *inputs, stex_compare_result *res)
{
    memset(res, 0, sizeof *res);
    stex_status st = check_comparable(golden, actual, tol, inputs);
    if (st)
        return st;
    const stex_format_info *fi = stex_format_get(golden->format);
    res->unit = is_float(fi) ? "ULP" : "LSB";
    for (uint32_t z = 0; z < golden->depth; z++)
        for (uint32_t y = 0; y < golden->height; y++)
            for (uint32_t x = 0; x < golden->width; x++) {
                const uint8_t *g = stex_image_texel(golden, x, y, z);
                const uint8_t *a = stex_image_texel(actual, x, y, z);
                uint64_t d;
                texel_verdict v = judge(fi, g, a, tol, inputs, x, y, z, &d);
                res->texels++;
                if (v == TEXEL_EQUAL)
                    continue;
                res->differing++;
                if (d == UINT64_MAX)
                    res->max_diff_unbounded = true;
                else if (d > res->max_diff)
                    res->max_diff = d;
                if (v != TEXEL_MISMATCH)
                    continue;
                if (res->listed < STEX_COMPARE_LISTED) {
                    stex_mismatch *m = &res->first[res->listed++];
                    m->x = x, m->y = y, m->z = z, m->diff = d;
                    memcpy(m->golden, g, fi->bytes);
                    memcpy(m->actual, a, fi->bytes);
                }
                res->mismatches++;
            }
    if (res->mismatches)
        return stex_fail(STEX_MISMATCH, "compare: %llu of %llu texels differ beyond the tolerance",
                         (unsigned long long)res->mismatches, (unsigned long long)res->texels);
    return STEX_OK;
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
    uint8_t *rgba = malloc((size_t)w * h * 4);
    if (!rgba)
        return stex_fail(STEX_OUT_OF_MEMORY, "diff picture: out of memory");
    for (uint32_t z = 0; z < golden->depth; z++)
        for (uint32_t y = 0; y < golden->height; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint64_t d;
                texel_verdict v = judge(fi, stex_image_texel(golden, x, y, z),
                                        stex_image_texel(actual, x, y, z), tol, inputs, x, y, z, &d);
                uint8_t *p = rgba + (((size_t)z * golden->height + y) * w + x) * 4;
                p[3] = 255;
                if (v == TEXEL_EQUAL) {
                    p[0] = p[1] = p[2] = 40;
                } else if (v == TEXEL_TOLERATED) {
                    p[0] = 40, p[1] = 80, p[2] = 255;
                } else {
                    /* red for 1 unit, towards yellow as the distance grows */
                    double lg = d == UINT64_MAX ? 64 : log2((double)d + 1);
                    double gch = lg * 24;
                    p[0] = 255, p[1] = (uint8_t)(gch > 255 ? 255 : gch), p[2] = 0;
                }
            }
    /* a small texture is scaled up (whole pixels per texel) until the
     * picture is about 256 pixels on its longer side, so one texel shows */
    uint32_t longer = w > h ? w : h, k = longer >= 256 ? 1 : 256 / longer;
    uint8_t *big = rgba;
    if (k > 1 && !(big = malloc((size_t)w * k * h * k * 4))) {
        free(rgba);
        return stex_fail(STEX_OUT_OF_MEMORY, "diff picture: out of memory");
    }
    for (uint32_t y = 0; k > 1 && y < h * k; y++)
        for (uint32_t x = 0; x < w * k; x++)
            memcpy(big + ((size_t)y * w * k + x) * 4, rgba + ((size_t)(y / k) * w + x / k) * 4, 4);
    st = stex_write_png_rgba8(path, big, w * k, h * k);
    if (big != rgba)
        free(big);
    free(rgba);
    return st;
}
