/*
 * math/correct.c - the correctly rounded f32 builtins of profile `spec`: the
 * f32 nearest the exact value of the function.
 *
 * Two steps.  The C library's double function (error below 2^-51 relative:
 * glibc's bound of at most ~1 ulp of double) is rounded to f32 directly
 * unless it lies within 2^-46 relative of a point halfway between two f32s,
 * where its own error could push it across; only then is the long double
 * function (64-bit significand, error ~2^-62) asked.  That the long double
 * result never sits closer than its error to a halfway point, for any f32
 * input, is what the `exhaustive` suite checks against MPFR
 * (tests/math/test_correct.c); docs/profiles.md says how.
 */
#include "math/ops.h"

#include <stdint.h>
#include <string.h>

/* True if d (finite, of f32 range) is too near a halfway point between two
 * f32s for rounding it to be trusted: the 29 bits below the f32 significand
 * are within 2^(29-46+..) of 1000...0. */
static int near_halfway(double d)
{
    if (!isfinite(d) || d == 0.0)
        return 0;
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    if ((bits >> 52 & 0x7ff) >= 1023 - 126) {
        /* |d| >= 2^-126 (frexp's e >= -125): the 29 significand bits below
         * the f32 ones are frac * 2^29 exactly, and |frac - 1/2| < 2^-21 is
         * |low - 2^28| < 2^8 - the test below without frexp and ldexp */
        int64_t low = (int64_t)(bits & ((1ull << 29) - 1));
        int64_t off = low - (1ll << 28);
        return (off < 0 ? -off : off) < 256;
    }
    int e;
    double m = frexp(fabs(d), &e);   /* m in [0.5, 1) */
    int shift = 24;                  /* f32 significand bits */
    if (e < -125)                    /* f32 subnormal: fewer bits */
        shift = 24 - (-125 - e);
    if (shift < 1)
        shift = 1;
    double scaled = ldexp(m, shift); /* f32 ulps */
    double frac = scaled - floor(scaled);
    return fabs(frac - 0.5) < 0x1p-21;   /* 2^-21 ulp = 2^-45..-46 relative */
}

static double eval_d(stex_math_fn fn, double x, double y)
{
    switch (fn) {
    case STEX_MATH_SIN_F32: return sin(x);
    case STEX_MATH_COS_F32: return cos(x);
    case STEX_MATH_TAN_F32: return tan(x);
    case STEX_MATH_EXP_F32: return exp(x);
    case STEX_MATH_EXP2_F32: return exp2(x);
    case STEX_MATH_LOG_F32: return log(x);
    case STEX_MATH_LOG2_F32: return log2(x);
    case STEX_MATH_SQRT_F32: return sqrt(x);
    case STEX_MATH_INVERSESQRT_F32: return 1.0 / sqrt(x);
    case STEX_MATH_TANH_F32: return tanh(x);
    case STEX_MATH_ATAN_F32: return atan(x);
    case STEX_MATH_ASIN_F32: return asin(x);
    case STEX_MATH_ACOS_F32: return acos(x);
    case STEX_MATH_SINH_F32: return sinh(x);
    case STEX_MATH_COSH_F32: return cosh(x);
    case STEX_MATH_ASINH_F32: return asinh(x);
    case STEX_MATH_ACOSH_F32: return acosh(x);
    case STEX_MATH_ATANH_F32: return atanh(x);
    case STEX_MATH_POW_F32: return pow(x, y);
    case STEX_MATH_ATAN2_F32: return atan2(x, y);
    default: return NAN;
    }
}

static long double eval_ld(stex_math_fn fn, long double x, long double y)
{
    switch (fn) {
    case STEX_MATH_SIN_F32: return sinl(x);
    case STEX_MATH_COS_F32: return cosl(x);
    case STEX_MATH_TAN_F32: return tanl(x);
    case STEX_MATH_EXP_F32: return expl(x);
    case STEX_MATH_EXP2_F32: return exp2l(x);
    case STEX_MATH_LOG_F32: return logl(x);
    case STEX_MATH_LOG2_F32: return log2l(x);
    case STEX_MATH_SQRT_F32: return sqrtl(x);
    case STEX_MATH_INVERSESQRT_F32: return 1.0L / sqrtl(x);
    case STEX_MATH_TANH_F32: return tanhl(x);
    case STEX_MATH_ATAN_F32: return atanl(x);
    case STEX_MATH_ASIN_F32: return asinl(x);
    case STEX_MATH_ACOS_F32: return acosl(x);
    case STEX_MATH_SINH_F32: return sinhl(x);
    case STEX_MATH_COSH_F32: return coshl(x);
    case STEX_MATH_ASINH_F32: return asinhl(x);
    case STEX_MATH_ACOSH_F32: return acoshl(x);
    case STEX_MATH_ATANH_F32: return atanhl(x);
    case STEX_MATH_POW_F32: return powl(x, y);
    case STEX_MATH_ATAN2_F32: return atan2l(x, y);
    default: return NAN;
    }
}

static float round_ld(long double v)
{
    /* long double -> f32 in one rounding (x87 rounds to the destination) */
    return (float)v;
}

float stex_m_correct2(stex_math_fn fn, float x, float y)
{
    if (fn == STEX_MATH_SQRT_F32)
        return sqrtf(x); /* IEEE: correctly rounded */
    double d = eval_d(fn, x, y);
    if (!near_halfway(d))
        return (float)d;
    return round_ld(eval_ld(fn, x, y));
}

float stex_m_correct1(stex_math_fn fn, float x)
{
    return stex_m_correct2(fn, x, 0.0f);
}

/* A double whose rounding to f16 (nearest even) is the f16 nearest the
 * exact value (profile spec's f16 transcendentals): the double function,
 * unless it lies within 2^-40 relative of a
 * point halfway between two f16s (glibc's double functions err by about
 * 2^-52), where the long double function decides.  tests/math/test_f16.c
 * checks every f16 input against MPFR. */
static int near_halfway_f16(double d, double tol)
{
    if (!isfinite(d) || d == 0.0 || fabs(d) >= 65520.0)
        return 0;
    int e;
    double m = frexp(fabs(d), &e);
    double scaled = e < -13 ? ldexp(fabs(d), 24) : ldexp(m, 11); /* f16 ulps */
    double frac = scaled - floor(scaled);
    return fabs(frac - 0.5) <= tol;
}

double stex_m_correct_f16(stex_math_fn fn32, float x, float y)
{
    if (fn32 == STEX_MATH_SQRT_F32)
        return sqrt((double)x); /* correctly rounded double; rounding twice is innocuous */
    double d = eval_d(fn32, x, y);
    if (!near_halfway_f16(d, 0x1p-29))
        return d;
    /* l (within ~2^-62 of the exact value) rounded to double could land on
     * the halfway point itself: then step towards l, so the f16 rounding
     * sees on which side it lies */
    long double l = eval_ld(fn32, x, y);
    double dl = (double)l;
    if ((long double)dl != l && near_halfway_f16(dl, 0.0))
        dl = nextafter(dl, l > dl ? INFINITY : -INFINITY);
    return dl;
}
