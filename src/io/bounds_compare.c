/* A readback against an allowed golden's bounds: each value inside its
 * [lo, hi] passes, a value outside is listed with its distance to the
 * nearest allowed value (ULP for float channels, LSB otherwise), and an
 * unconstrained value passes and is counted under its reason. */
#include "io/io_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static bool is_float(const stex_format_info *fi)
{
    return fi->type == STEX_CHANNEL_FLOAT || fi->type == STEX_CHANNEL_UFLOAT;
}

/* Units between two orders; -0 and +0 (orders -1 and 0) are one number. */
static uint64_t units_between(const stex_format_info *fi, int64_t a, int64_t b)
{
    if (a > b) {
        int64_t t = a;
        a = b, b = t;
    }
    uint64_t d = (uint64_t)(b - a);
    return fi->type == STEX_CHANNEL_FLOAT && a < 0 && b >= 0 ? d - 1 : d;
}

uint64_t stex_bound_width(stex_format f, unsigned c, const stex_bound *b)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || !b || c >= 4 || !fi->bits[c] || (b->flags & (STEX_BOUND_ANY | STEX_BOUND_ONLY_NAN)))
        return UINT64_MAX;
    return units_between(fi, io_code_order(fi, c, b->lo), io_code_order(fi, c, b->hi));
}

stex_bound_verdict stex_bound_check(stex_format f, unsigned c, const stex_bound *b,
                                    const uint8_t *texel, stex_bound_miss *miss)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || c >= 4 || !fi->bits[c])
        return STEX_BOUND_INSIDE;
    unsigned bits = fi->bits[c];
    uint32_t code = (uint32_t)((uint64_t)io_channel_code(fi, texel, c) &
                               (bits >= 32 ? 0xffffffffu : ((uint64_t)1 << bits) - 1));
    stex_bound_miss m = {.channel = c, .code = code, .nearest = b->lo, .bound = *b};
    if (b->flags & STEX_BOUND_ANY)
        m.verdict = STEX_BOUND_UNCONSTRAINED;
    else if (io_code_is_nan(fi, c, code))
        m.verdict = b->flags & STEX_BOUND_NAN ? STEX_BOUND_INSIDE : STEX_BOUND_NAN_OUTSIDE;
    else if (b->flags & STEX_BOUND_ONLY_NAN)
        m.verdict = STEX_BOUND_NUMBER_OUTSIDE;
    else {
        int64_t o = io_code_order(fi, c, code), lo = io_code_order(fi, c, b->lo),
                hi = io_code_order(fi, c, b->hi);
        if (o < lo)
            m.verdict = STEX_BOUND_OUTSIDE, m.distance = units_between(fi, o, lo);
        else if (o > hi)
            m.verdict = STEX_BOUND_OUTSIDE, m.nearest = b->hi, m.distance = units_between(fi, o, hi);
    }
    if (m.verdict == STEX_BOUND_NAN_OUTSIDE || m.verdict == STEX_BOUND_NUMBER_OUTSIDE)
        m.distance = UINT64_MAX;
    if (miss)
        *miss = m;
    return m.verdict;
}

/* Counts an unconstrained value under its reason, keeping the list's
 * first STEX_BOUNDS_REASONS_LISTED reasons (sorted at the end). */
static void count_reason(stex_bounds_result *r, uint32_t reason)
{
    for (uint32_t i = 0; i < r->reasons_listed; i++)
        if (r->by_reason[i].reason == reason) {
            r->by_reason[i].values++;
            return;
        }
    if (r->reasons_listed < STEX_BOUNDS_REASONS_LISTED)
        r->by_reason[r->reasons_listed++] = (stex_reason_count){reason, 1};
}

static void sort_reasons(stex_bounds_result *r)
{
    for (uint32_t i = 1; i < r->reasons_listed; i++)
        for (uint32_t j = i; j > 0 && r->by_reason[j].values > r->by_reason[j - 1].values; j--) {
            stex_reason_count t = r->by_reason[j];
            r->by_reason[j] = r->by_reason[j - 1];
            r->by_reason[j - 1] = t;
        }
}

stex_status stex_compare_bounds(const stex_bounds *b, const stex_image *a, stex_bounds_result *res)
{
    memset(res, 0, sizeof *res);
    if (!b || !b->v || !a || !a->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "compare: the bounds or the readback is empty");
    if (b->format != a->format)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "compare: the bounds are of %s texels but the readback is %s",
                         stex_format_name(b->format), stex_format_name(a->format));
    if (b->width != a->width || b->height != a->height || b->depth != a->depth)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "compare: the bounds are %ux%ux%u but the readback is %ux%ux%u",
                         b->width, b->height, b->depth, a->width, a->height, a->depth);
    const stex_format_info *fi = stex_format_get(a->format);
    res->unit = is_float(fi) ? "ULP" : "LSB";
    const stex_bound *v = b->v;
    for (uint32_t z = 0; z < a->depth; z++)
        for (uint32_t y = 0; y < a->height; y++)
            for (uint32_t x = 0; x < a->width; x++) {
                const uint8_t *t = stex_image_texel(a, x, y, z);
                bool out = false;
                res->texels++;
                for (unsigned c = 0; c < b->channels; c++, v++) {
                    stex_bound_miss m;
                    res->values++;
                    switch (stex_bound_check(a->format, c, v, t, &m)) {
                    case STEX_BOUND_INSIDE:
                        res->inside++;
                        continue;
                    case STEX_BOUND_UNCONSTRAINED:
                        res->unconstrained++;
                        count_reason(res, v->reason);
                        continue;
                    default:
                        break;
                    }
                    out = true;
                    res->outside++;
                    if (m.distance == UINT64_MAX)
                        res->max_distance_unbounded = true;
                    else if (m.distance > res->max_distance)
                        res->max_distance = m.distance;
                    if (res->listed < STEX_COMPARE_LISTED) {
                        m.x = x, m.y = y, m.z = z;
                        res->first[res->listed++] = m;
                    }
                }
                res->outside_texels += out;
            }
    sort_reasons(res);
    return res->outside ? STEX_MISMATCH : STEX_OK;
}

/* The diff picture's colours against bounds, least severe first: a texel
 * takes its worst channel's.  As stex_write_diff_png's where they mean the
 * same (docs/file-formats.md). */
enum { BP_INSIDE, BP_FREE, BP_ZERO, BP_1, BP_16, BP_256, BP_4096, BP_HUGE, BP_NAN, BP_COUNT };
static const struct {
    uint8_t rgb[3];
    const char *label; /* %s: the unit */
} BOUND_PAINT[BP_COUNT] = {
    [BP_INSIDE] = {{40, 40, 40}, "inside"},
    [BP_FREE] = {{40, 80, 255}, "unconstrained (anything passes)"},
    [BP_ZERO] = {{0, 224, 224}, "outside: sign of zero"},
    [BP_1] = {{255, 0, 0}, "outside: 1 %s"},
    [BP_16] = {{255, 64, 0}, "outside: 2-15 %s"},
    [BP_256] = {{255, 128, 0}, "outside: 16-255 %s"},
    [BP_4096] = {{255, 192, 0}, "outside: 256-4095 %s"},
    [BP_HUGE] = {{255, 255, 0}, "outside: 4096 %s or more"},
    [BP_NAN] = {{255, 0, 255}, "outside: NaN where none may be"},
};

static unsigned bound_paint(stex_bound_verdict v, uint64_t d)
{
    switch (v) {
    case STEX_BOUND_INSIDE:
        return BP_INSIDE;
    case STEX_BOUND_UNCONSTRAINED:
        return BP_FREE;
    case STEX_BOUND_OUTSIDE:
        return d == 0 ? BP_ZERO : d == 1 ? BP_1 : d < 16 ? BP_16 : d < 256 ? BP_256
               : d < 4096 ? BP_4096 : BP_HUGE;
    default:
        return BP_NAN;
    }
}

stex_status stex_write_bounds_diff_png(const char *path, const stex_bounds *b,
                                       const stex_image *actual)
{
    stex_bounds_result r;
    stex_status st = stex_compare_bounds(b, actual, &r);
    if (st && st != STEX_MISMATCH)
        return st;
    const stex_format_info *fi = stex_format_get(b->format);
    uint32_t w = b->width, h = b->height * b->depth;
    uint8_t *paint = malloc((size_t)w * h);
    if (!paint)
        return stex_fail(STEX_OUT_OF_MEMORY, "diff picture: out of memory");
    io_legend_row rows[BP_COUNT];
    memset(rows, 0, sizeof rows);
    const stex_bound *v = b->v;
    for (uint32_t z = 0; z < b->depth; z++)
        for (uint32_t y = 0; y < b->height; y++)
            for (uint32_t x = 0; x < w; x++) {
                const uint8_t *t = stex_image_texel(actual, x, y, z);
                unsigned worst = BP_INSIDE;
                for (unsigned c = 0; c < b->channels; c++, v++) {
                    stex_bound_miss m;
                    stex_bound_verdict verdict = stex_bound_check(b->format, c, v, t, &m);
                    unsigned k = bound_paint(verdict, m.distance);
                    worst = k > worst ? k : worst;
                }
                paint[((size_t)z * b->height + y) * w + x] = (uint8_t)worst;
                rows[worst].count++;
            }
    for (unsigned k = 0; k < BP_COUNT; k++) {
        memcpy(rows[k].rgb, BOUND_PAINT[k].rgb, 3);
        snprintf(rows[k].label, sizeof rows[k].label, BOUND_PAINT[k].label,
                 is_float(fi) ? "ULP" : "LSB");
    }
    st = io_write_paint_png(path, paint, w, h, rows, BP_COUNT);
    free(paint);
    return st;
}
