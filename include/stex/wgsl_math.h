/*
 * stex/wgsl_math.h - WGSL's inexact math builtins as kernels call them.
 *
 * stex_sin(x) is WGSL's `sin` for f32.  WGSL lets a device's sin have an
 * absolute error of 2^-11 inside [-pi, pi] (and says nothing outside it);
 * stex's is far tighter, so a kernel's output stays within a documented
 * tolerance of any conforming device and almost always equals what a
 * correctly rounded sinf gives.  Unlike the C library's sinf (glibc picks an
 * FMA or an SSE2 variant at run time, other libraries round differently),
 * below 2^20 its result depends on neither the machine nor the libm:
 *
 *   |x| < 2^20   max error 0.50037 ulp of the exact sin, measured once
 *                over every f32 with |x| < 2^20 against double-precision sin;
 *                tests/shader/test_sin.c repeats the check strided (and
 *                exhaustively in the `exhaustive` suite).  So never more than
 *                1 ulp from the correctly rounded result (it differs from
 *                (float)sin((double)x) for 0.005% of them); sin(-x) == -sin(x)
 *                exactly; sin(+-0) = +-0.  Max absolute error on [-pi, pi]:
 *                2.99e-8 (WGSL allows 2^-11 = 4.9e-4).
 *   otherwise    (|x| >= 2^20, +-inf, NaN) the C library's sinf(x): NaN for
 *                NaN and +-inf, a sane value in [-1, 1] for large finite x.
 *
 * Method, branch-free below the bound, no table, no libm call:
 *   1. reduce in units of pi: y = x * (1/pi) with 1/pi split in two doubles,
 *      IPI_HI having 29 significant bits so x * IPI_HI is exact for every
 *      f32 x (Cody-Waite, applied to the multiplier instead of the period);
 *   2. k = nearest integer to y (add and subtract 1.5 * 2^52, which leaves k
 *      in the low mantissa bits: k's parity is the shifted double's lowest
 *      bit), f = (x * IPI_HI - k) + x * IPI_LO, |f| <= 1/2 + 2^-10; the
 *      subtraction is exact and f's absolute error is below 2^-62 + 2^-53|f|
 *      for |x| < 2^20;
 *   3. sin(x) = (-1)^k sin(pi f), sin(pi f) = f * P(f^2) with P of degree 5
 *      (an odd polynomial of degree 11): the minimax fit of sin(pi f)/f on
 *      |f| <= 0.501 for relative error, derived for this file by a Remez
 *      exchange; its relative error is 2^-35.4;
 *   4. P evaluated by Estrin's scheme (3 independent pairs, a dependency
 *      chain of 5 operations instead of Horner's 10); the sign of f flipped
 *      for odd k off that chain;
 *   5. everything evaluated in double (the same cost as float on x86-64, and
 *      a float evaluation would err by ~1 ulp) and rounded to f32 once.
 *   The range test comes last: tested first, with the fallback call ahead
 *   of the polynomial, GCC 12 compiled a loop of three calls ~25% slower.
 *
 * Determinism: every step is written one operation per statement, so a
 * compiler that contracts only within an expression (clang's default
 * -ffp-contract=on; GCC in ISO C mode, -std=c11, does not contract at all)
 * emits no FMA and the result is the same everywhere.  A compiler that
 * contracts across statements (GCC's -ffp-contract=fast in GNU mode on an
 * FMA target) changes the double intermediate by a few 2^-53 relative: the
 * bound above still holds, and the f32 result can differ from the
 * uncontracted one only where the exact sin lies within ~2^-28 ulp of a
 * rounding tie.
 */
#ifndef STEX_WGSL_MATH_H
#define STEX_WGSL_MATH_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stex/api.h"

/* Below this magnitude stex_sin uses its polynomial path; at and above it
 * (and for inf and NaN) the C library's sinf. */
#define STEX_SIN_POLY_LIMIT 0x1p20f

#if defined(__GNUC__)
#define STEX_WGSL_UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define STEX_WGSL_UNLIKELY(c) (c)
#endif

static inline float stex_sin(float x)
{
    /* Remez minimax coefficients: sin(pi f) ~ f * P(f^2), |f| <= 0.501. */
    const double C1 = 0x1.921fb5441d5f6p+1;
    const double C3 = -0x1.4abbce4eb4293p+2;
    const double C5 = 0x1.466bbfa61c7c1p+1;
    const double C7 = -0x1.32d10c97ca95ap-1;
    const double C9 = 0x1.500f205279d25p-4;
    const double C11 = -0x1.cc1d056bf2201p-8;
    const double IPI_HI = 0x1.45f306dp-2;          /* 1/pi truncated to 29 bits */
    const double IPI_LO = 0x1.9391054a7f09dp-31;   /* 1/pi - IPI_HI, > 0 */
    const double SHIFTER = 0x1.8p52;

    uint32_t ix;
    memcpy(&ix, &x, sizeof ix);

    double xd = x;
    double y = xd * IPI_HI;  /* exact */
    double yl = xd * IPI_LO;
    double ks = y + SHIFTER; /* round to nearest: k sits in the low mantissa bits */
    double kd = ks - SHIFTER;
    double f = y - kd;       /* exact */
    f = f + yl;              /* x/pi - k */

    /* (-1)^k f: f's sign flipped when k is odd, for the final product only */
    uint64_t kbits, fbits;
    memcpy(&kbits, &ks, sizeof kbits);
    memcpy(&fbits, &f, sizeof fbits);
    fbits ^= kbits << 63;
    double fs;
    memcpy(&fs, &fbits, sizeof fs);

    double w = f * f;
    double w2 = w * w;
    double w4 = w2 * w2;
    double p01 = C3 * w;
    p01 = p01 + C1;
    double p23 = C7 * w;
    p23 = p23 + C5;
    double p45 = C11 * w;
    p45 = p45 + C9;
    p23 = p23 * w2;
    p45 = p45 * w4;
    double p = p01 + p23;
    p = p + p45;
    p = p * fs;

    if (STEX_WGSL_UNLIKELY((ix & 0x7fffffffu) >= 0x49800000u)) /* |x| >= 2^20, inf, NaN */
        return sinf(x);
    return (float)p;
}

#undef STEX_WGSL_UNLIKELY

/* out[i] = stex_sin(x[i]) for i < n, bit for bit, several arguments per
 * instruction (AVX2 where the machine has it, SSE2 otherwise on x86-64; a
 * scalar loop elsewhere): for kernels that compute many sines at once, such
 * as generar's workgroup function.  out may alias x. */
#ifdef __cplusplus
extern "C" {
#endif
STEX_API void stex_sin_n(size_t n, const float *x, float *out);
#ifdef __cplusplus
}
#endif

#endif
