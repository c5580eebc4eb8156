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

/* The special-function unit's exp2 and log2 (MUFU.EX2 / MUFU.LG2), modelled
 * as correctly rounded with flushed inputs and results: the hardware's own
 * interpolation (1-2 ulp) is not modelled, so these are approximate. */
static float ex2(float x)
{
    return ftz(stex_m_correct1(STEX_MATH_EXP2_F32, ftz(x)));
}

static float lg2(float x)
{
    return ftz(stex_m_correct1(STEX_MATH_LOG2_F32, ftz(x)));
}

static float f_mul(float a, float b)
{
    return ftz(ftz(a) * ftz(b));
}

static float f_add(float a, float b)
{
    return ftz(ftz(a) + ftz(b));
}

/* MUFU.SIN / MUFU.COS take revolutions: x * f32(1/(2 pi)) rounded to f32,
 * whose fraction the unit reads as a fixed-point number; 25 fraction bits,
 * truncated, fit best (sin: 562 of 2048 rows exact, against 184 for the
 * correctly rounded value).  An integer number of revolutions (|t| >= 2^23)
 * gives sin 0 and cos 1, as the device does for huge x. */
static float sincos_rev(float x, int cosine)
{
    if (!isfinite(x))
        return NAN;
    float t = f_mul(x, (float)(1.0 / (2.0 * M_PI)));
    long double f = (long double)t - truncl((long double)t);
    f = truncl(f * 0x1p25L) / 0x1p25L;
    const long double two_pi = 6.283185307179586476925286766559005768L;
    return ftz((float)(cosine ? cosl(f * two_pi) : sinl(f * two_pi)));
}

static float nv_sin(float x) { return sincos_rev(x, 0); }
static float nv_cos(float x) { return sincos_rev(x, 1); }

/* tan as sin / cos with the device's division (x * 1/y) */
static float nv_tan(float x) { return div_recip(nv_sin(x), nv_cos(x)); }

/* exp, log, pow, sinh, cosh through exp2/log2, as GLSL.std.450 compilers
 * expand them: exp(x) = ex2(x * log2 e), log(x) = lg2(x) * ln 2,
 * pow(x, y) = ex2(lg2(x) * y), sinh/cosh = (e^x -+ e^-x) * 0.5 */
static float nv_exp(float x) { return ex2(f_mul(x, (float)M_LOG2E)); }
static float nv_log(float x) { return f_mul(lg2(x), (float)M_LN2); }
static float nv_pow(float x, float y) { return ex2(f_mul(lg2(x), y)); }
static float nv_sinh(float x) { return f_mul(f_add(nv_exp(x), -nv_exp(-x)), 0.5f); }
static float nv_cosh(float x) { return f_mul(f_add(nv_exp(x), nv_exp(-x)), 0.5f); }

const stex_math_approx stex_math_approx_nvidia = {
    .source = "fitted to nvidia/wgslexpr.tsv (every other case measured on an H200); "
              "exp2/log2/sin/cos approximate (MUFU tables not modelled)",
    .unary = {
        [STEX_MATH_EXP2_F32] = ex2,     [STEX_MATH_LOG2_F32] = lg2,
        [STEX_MATH_SIN_F32] = nv_sin,   [STEX_MATH_COS_F32] = nv_cos,
        [STEX_MATH_TAN_F32] = nv_tan,   [STEX_MATH_EXP_F32] = nv_exp,
        [STEX_MATH_LOG_F32] = nv_log,   [STEX_MATH_SINH_F32] = nv_sinh,
        [STEX_MATH_COSH_F32] = nv_cosh,
    },
    .binary = {[STEX_MATH_DIV_F32] = div_recip, [STEX_MATH_POW_F32] = nv_pow},
};
