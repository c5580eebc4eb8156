/* Readback pairs whose differences are known from the encoding alone,
 * shared by the comparison tests of the io layer and of `stex compare`. */
#ifndef STEX_TESTS_IO_COMPARE_PAIRS_H
#define STEX_TESTS_IO_COMPARE_PAIRS_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "stex/stex.h"

/* The f32 pairs the summary tests judge, each with a difference known
 * from the encoding alone: bit patterns k apart are k ULP apart (same
 * sign), +0 and -0 differ in the sign bit only, two quiet NaNs in their
 * payload. */
static const struct f32_pair {
    uint32_t golden, actual;
    stex_channel_verdict verdict;
    uint64_t ulp;
} F32_PAIRS[] = {
    {0x3f800000, 0x3f800000, STEX_CHANNEL_EQUAL, 0},         /* 1.0 both */
    {0x3f800000, 0x3f800001, STEX_CHANNEL_DISTANCE, 1},      /* 1.0 vs next */
    {0x40490fdb, 0x40490fda, STEX_CHANNEL_DISTANCE, 1},      /* pi vs previous */
    {0x3f800000, 0x3f800003, STEX_CHANNEL_DISTANCE, 3},
    {0x00000000, 0x80000000, STEX_CHANNEL_SIGN_OF_ZERO, 0},  /* +0 vs -0 */
    {0x7fc00000, 0x7fc00001, STEX_CHANNEL_NAN_PAYLOAD, 0},
    {0x40000000, 0x7fc00000, STEX_CHANNEL_NAN_VS_NUMBER, UINT64_MAX},
    {0x3f800000, 0x3f8003e8, STEX_CHANNEL_DISTANCE, 1000},
    {0x00000001, 0x80000001, STEX_CHANNEL_DISTANCE, 2},      /* +-smallest subnormal */
};
#define F32_N (sizeof F32_PAIRS / sizeof F32_PAIRS[0])

static inline float f32_of(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* An r32float golden and readback of F32_PAIRS, one texel each. */
static inline bool make_f32_pair(stex_image *g, stex_image *a)
{
    if (stex_image_init(g, STEX_FORMAT_R32FLOAT, F32_N, 1, 1) ||
        stex_image_init(a, STEX_FORMAT_R32FLOAT, F32_N, 1, 1))
        return false;
    for (uint32_t x = 0; x < F32_N; x++) {
        memcpy(stex_image_texel(g, x, 0, 0), &F32_PAIRS[x].golden, 4);
        memcpy(stex_image_texel(a, x, 0, 0), &F32_PAIRS[x].actual, 4);
    }
    return true;
}

/* What a comparison of the pairs under ulp:tol must find, worked out from
 * F32_PAIRS: the histogram (bucket k holds 2^(k-1) <= d < 2^k, 0 the
 * 0-unit kinds, STEX_COMPARE_NAN_BUCKET a NaN against a number), how many
 * differ and were accepted, the largest ULP and absolute differences. */
typedef struct f32_expect {
    uint64_t bucket[STEX_COMPARE_BUCKETS], beyond[STEX_COMPARE_BUCKETS];
    uint64_t differing, accepted, max_ulp;
    uint64_t sign_of_zero, nan_payload, nan_vs_number;
    double max_abs;
} f32_expect;

static inline void f32_pairs_expect(uint64_t tol, f32_expect *e)
{
    memset(e, 0, sizeof *e);
    for (size_t i = 0; i < F32_N; i++) {
        const struct f32_pair *p = &F32_PAIRS[i];
        if (p->verdict == STEX_CHANNEL_EQUAL)
            continue;
        e->differing++;
        e->sign_of_zero += p->verdict == STEX_CHANNEL_SIGN_OF_ZERO;
        e->nan_payload += p->verdict == STEX_CHANNEL_NAN_PAYLOAD;
        e->nan_vs_number += p->verdict == STEX_CHANNEL_NAN_VS_NUMBER;
        uint64_t d = p->verdict == STEX_CHANNEL_DISTANCE ? p->ulp : 0;
        unsigned k = p->verdict == STEX_CHANNEL_NAN_VS_NUMBER ? STEX_COMPARE_NAN_BUCKET
                     : d == 0                                ? 0
                                                             : (unsigned)floor(log2((double)d)) + 1;
        bool ok = p->verdict != STEX_CHANNEL_NAN_VS_NUMBER && d <= tol;
        e->bucket[k]++;
        e->beyond[k] += !ok;
        e->accepted += ok;
        if (p->verdict == STEX_CHANNEL_DISTANCE) {
            double ad = fabs((double)f32_of(p->golden) - (double)f32_of(p->actual));
            e->max_ulp = d > e->max_ulp ? d : e->max_ulp;
            e->max_abs = ad > e->max_abs ? ad : e->max_abs;
        }
    }
}

#endif
