/*
 * math/nvidia.c - models of the NVIDIA H200's approximations (division,
 * sqrt, inverseSqrt, transcendentals), fitted to nvidia/wgslexpr.tsv.
 * Inputs arrive flushed; results are flushed and NaNs canonicalised by the
 * caller (math/f32.c).  How close each model comes is in docs/profiles.md
 * and asserted by tests/math/replay_models.h.
 */
#include "math/ops.h"

/* flush-to-zero of an f32 result (the caller flushes too; the models need
 * it between steps) */
static float ftz(float x)
{
    return m_is_subnormal(x) ? m_float(m_bits(x) & 0x80000000u) : x;
}

/* x / y as x * (1/y): the reciprocal rounded to f32 and flushed, then one
 * multiply rounded to 24 bits and flushed if below 2^-126 (so
 * 0x00800001 / 0x3f800001 = 0x00800000 but 0x00ffffff / 2 = 0). */
static float div_recip(float x, float y)
{
    double p = (double)x * (double)ftz(1.0f / y); /* exact */
    if (fabs(p) < 0x1p-126 && fabs(ldexp((double)(float)ldexp(p, 64), -64)) < 0x1p-126)
        return copysignf(0.0f, (float)p);
    return (float)p;
}

const stex_math_approx stex_math_approx_nvidia = {
    .source = "fitted to nvidia/wgslexpr.tsv (every other case measured on an H200)",
    .binary = {[STEX_MATH_DIV_F32] = div_recip},
};
