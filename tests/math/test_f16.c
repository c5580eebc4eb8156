/* Profile `spec`'s f16 arithmetic is IEEE binary16, round to nearest even,
 * subnormals kept, never contracted, and its transcendentals are correctly
 * rounded to f16.  The reference is MPFR: the exact (or 128-bit) value,
 * rounded to binary16 here by scaling to f16 units and rounding to an
 * integer (ties to even), so no part of it shares code with the library.
 *  - every one-argument function over all 65,536 f16 inputs;
 *  - + - * / fma pow atan2 over a dense grid of pairs (every 61st pattern
 *    against every 67th, plus the special values);
 *  - conversions: f16 -> f32 (all inputs, exact), f32 -> f16 (every 4099th
 *    f32 pattern and every halfway point between f16s), i32/u32 -> f16,
 *    f16 -> i32/u32 (all inputs, WGSL's truncation with saturation);
 *  - bitcast between vec2<f16> and u32 (WGSL: component 0 is the low half). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <mpfr.h>

#include "stex/math.h"

static const stex_profile *spec(void) { return stex_profile_get(STEX_PROFILE_SPEC); }

static int h_isnan(uint32_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu); }

/* An f16 bit pattern's value, exactly, into x. */
static void h_value(mpfr_t x, uint32_t h)
{
    uint32_t e = (h >> 10) & 31u, m = h & 0x3ffu;
    if (e == 31)
        m ? mpfr_set_nan(x) : mpfr_set_inf(x, 1);
    else if (e == 0)
        mpfr_set_ui_2exp(x, m, -24, MPFR_RNDN);
    else
        mpfr_set_ui_2exp(x, 1024 + m, (long)e - 25, MPFR_RNDN);
    if (h & 0x8000u)
        mpfr_neg(x, x, MPFR_RNDN);
}

/* x rounded to binary16 (nearest, ties to even, subnormals, overflow to inf)
 * as a bit pattern; NaN as 0x7e00 (the caller compares NaN-ness only). */
static uint32_t h_round(const mpfr_t x)
{
    if (mpfr_nan_p(x))
        return 0x7e00u;
    uint32_t sign = mpfr_signbit(x) ? 0x8000u : 0;
    if (mpfr_inf_p(x))
        return sign | 0x7c00u;
    if (mpfr_zero_p(x))
        return sign;
    mpfr_t a;
    mpfr_init2(a, mpfr_get_prec(x) + 64);
    mpfr_abs(a, x, MPFR_RNDN);
    long ex = mpfr_get_exp(a);          /* a in [2^(ex-1), 2^ex) */
    long unit = ex - 1 < -14 ? -24 : ex - 1 - 10; /* the f16 ulp there */
    mpfr_mul_2si(a, a, -unit, MPFR_RNDN); /* exact */
    mpfr_rint(a, a, MPFR_RNDN);          /* ties to even */
    unsigned long q = mpfr_get_ui(a, MPFR_RNDN);
    mpfr_clear(a);
    if (unit == -24)
        return sign | (uint32_t)q;       /* 1024: the smallest normal */
    if (q == 2048)
        q = 1024, unit++;
    long field = unit + 10 + 15;
    if (field >= 31)
        return sign | 0x7c00u;
    return sign | (uint32_t)(field << 10) | (uint32_t)(q - 1024);
}

static uint32_t eval1(stex_math_fn fn, uint32_t a)
{
    uint32_t in[1] = {a}, out[2] = {0};
    assert_int_equal(stex_math_eval(spec(), fn, in, out), STEX_OK);
    return out[0];
}

static uint32_t eval3(stex_math_fn fn, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t in[3] = {a, b, c}, out[2] = {0};
    assert_int_equal(stex_math_eval(spec(), fn, in, out), STEX_OK);
    return out[0];
}

/* MPFR's value of a one- or two-argument function, at 160 bits */
static void ref(stex_math_fn fn, mpfr_t r, const mpfr_t a, const mpfr_t b)
{
    switch (fn) {
    case STEX_MATH_SIN_F16: mpfr_sin(r, a, MPFR_RNDN); break;
    case STEX_MATH_COS_F16: mpfr_cos(r, a, MPFR_RNDN); break;
    case STEX_MATH_TAN_F16: mpfr_tan(r, a, MPFR_RNDN); break;
    case STEX_MATH_EXP_F16: mpfr_exp(r, a, MPFR_RNDN); break;
    case STEX_MATH_EXP2_F16: mpfr_exp2(r, a, MPFR_RNDN); break;
    case STEX_MATH_LOG_F16: mpfr_log(r, a, MPFR_RNDN); break;
    case STEX_MATH_LOG2_F16: mpfr_log2(r, a, MPFR_RNDN); break;
    case STEX_MATH_SQRT_F16: mpfr_sqrt(r, a, MPFR_RNDN); break;
    case STEX_MATH_INVERSESQRT_F16: mpfr_rec_sqrt(r, a, MPFR_RNDN); break;
    case STEX_MATH_TANH_F16: mpfr_tanh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ATAN_F16: mpfr_atan(r, a, MPFR_RNDN); break;
    case STEX_MATH_ASIN_F16: mpfr_asin(r, a, MPFR_RNDN); break;
    case STEX_MATH_ACOS_F16: mpfr_acos(r, a, MPFR_RNDN); break;
    case STEX_MATH_SINH_F16: mpfr_sinh(r, a, MPFR_RNDN); break;
    case STEX_MATH_COSH_F16: mpfr_cosh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ASINH_F16: mpfr_asinh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ACOSH_F16: mpfr_acosh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ATANH_F16: mpfr_atanh(r, a, MPFR_RNDN); break;
    case STEX_MATH_POW_F16: mpfr_pow(r, a, b, MPFR_RNDN); break;
    case STEX_MATH_ATAN2_F16: mpfr_atan2(r, a, b, MPFR_RNDN); break;
    case STEX_MATH_ADD_F16: mpfr_add(r, a, b, MPFR_RNDN); break;  /* exact at 160 bits */
    case STEX_MATH_SUB_F16: mpfr_sub(r, a, b, MPFR_RNDN); break;
    case STEX_MATH_MUL_F16: mpfr_mul(r, a, b, MPFR_RNDN); break;
    case STEX_MATH_DIV_F16: mpfr_div(r, a, b, MPFR_RNDN); break;  /* 160 bits: innocuous */
    default: fail_msg("no reference for fn %d", (int)fn);
    }
}

/* Compares stex with the reference: equal bits, or both NaN. */
static int same(uint32_t got, uint32_t want)
{
    return got == want || (h_isnan(got) && h_isnan(want));
}

static void test_unary_exhaustive(void **state)
{
    (void)state;
    static const stex_math_fn fns[] = {
        STEX_MATH_SIN_F16, STEX_MATH_COS_F16, STEX_MATH_TAN_F16, STEX_MATH_EXP_F16,
        STEX_MATH_EXP2_F16, STEX_MATH_LOG_F16, STEX_MATH_LOG2_F16, STEX_MATH_SQRT_F16,
        STEX_MATH_INVERSESQRT_F16, STEX_MATH_TANH_F16, STEX_MATH_ATAN_F16, STEX_MATH_ASIN_F16,
        STEX_MATH_ACOS_F16, STEX_MATH_SINH_F16, STEX_MATH_COSH_F16, STEX_MATH_ASINH_F16,
        STEX_MATH_ACOSH_F16, STEX_MATH_ATANH_F16};
    mpfr_t a, r;
    mpfr_inits2(160, a, r, (mpfr_ptr)0);
    unsigned bad = 0;
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        for (uint32_t h = 0; h < 0x10000u; h++) {
            h_value(a, h);
            ref(fns[f], r, a, a);
            uint32_t want = h_round(r), got = eval1(fns[f], h);
            if (fns[f] == STEX_MATH_INVERSESQRT_F16 && h == 0x8000u)
                want = 0xfc00u; /* IEEE 754 rSqrt(-0) = -inf (MPFR's rec_sqrt gives +inf) */
            if (!same(got, want) && bad++ < 10)
                fprintf(stderr, "%s(%04x): stex %04x, exact %04x\n",
                        stex_math_fn_get(fns[f])->op, h, got, want);
        }
    }
    mpfr_clears(a, r, (mpfr_ptr)0);
    assert_int_equal(bad, 0);
}

/* the grid: every 61st pattern x every 67th, with zeros, ones, infinities and a NaN */
static uint32_t grid(uint32_t k, uint32_t step)
{
    static const uint32_t special[] = {0x0000, 0x8000, 0x0001, 0x3c00, 0xbc00, 0x7bff, 0x7c00,
                                       0xfc00, 0x7e00, 0x4000, 0x3800, 0x03ff};
    return k < 12 ? special[k] : ((k - 12) * step) & 0xffffu;
}

static void test_binary_grid(void **state)
{
    (void)state;
    static const stex_math_fn fns[] = {STEX_MATH_ADD_F16, STEX_MATH_SUB_F16, STEX_MATH_MUL_F16,
                                       STEX_MATH_DIV_F16, STEX_MATH_POW_F16, STEX_MATH_ATAN2_F16};
    mpfr_t a, b, r;
    mpfr_inits2(160, a, b, r, (mpfr_ptr)0);
    unsigned bad = 0, n = 0;
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++)
        for (uint32_t i = 0; i < 12 + 0x10000u / 61; i++)
            for (uint32_t j = 0; j < 12 + 0x10000u / 67; j++) {
                uint32_t x = grid(i, 61), y = grid(j, 67);
                h_value(a, x);
                h_value(b, y);
                ref(fns[f], r, a, b);
                uint32_t want = h_round(r), got = eval3(fns[f], x, y, 0);
                if (h_isnan(x) || h_isnan(y))
                    want = 0x7e00u; /* a NaN operand gives NaN (WGSL's pow is exp2(y log2 x)) */
                n++;
                if (!same(got, want) && bad++ < 10)
                    fprintf(stderr, "%s(%04x, %04x): stex %04x, exact %04x\n",
                            stex_math_fn_get(fns[f])->op, x, y, got, want);
            }
    mpfr_clears(a, b, r, (mpfr_ptr)0);
    assert_true(n > 6 * 1000000u);
    assert_int_equal(bad, 0);
}

/* fma rounds once; a * b + c rounds twice (spec never contracts) */
static void test_fma(void **state)
{
    (void)state;
    mpfr_t a, b, c, r, p;
    mpfr_inits2(160, a, b, c, r, p, (mpfr_ptr)0);
    unsigned bad = 0;
    for (uint32_t i = 0; i < 12 + 0x10000u / 509; i++)
        for (uint32_t j = 0; j < 12 + 0x10000u / 521; j++)
            for (uint32_t k = 0; k < 12 + 0x10000u / 2039; k++) {
                uint32_t x = grid(i, 509), y = grid(j, 521), z = grid(k, 2039);
                h_value(a, x), h_value(b, y), h_value(c, z);
                mpfr_fma(r, a, b, c, MPFR_RNDN); /* exact at 160 bits */
                uint32_t want = h_round(r), got = eval3(STEX_MATH_FMA_F16, x, y, z);
                if (!same(got, want) && bad++ < 10)
                    fprintf(stderr, "fma(%04x, %04x, %04x): stex %04x, exact %04x\n", x, y, z,
                            got, want);
                mpfr_mul(p, a, b, MPFR_RNDN);
                uint32_t prod = h_round(p);
                h_value(p, prod);
                mpfr_add(r, p, c, MPFR_RNDN);
                want = h_round(r);
                got = eval3(STEX_MATH_MUL_ADD_F16, x, y, z);
                if (!same(got, want) && bad++ < 10)
                    fprintf(stderr, "%04x * %04x + %04x: stex %04x, rounded twice %04x\n", x, y,
                            z, got, want);
            }
    mpfr_clears(a, b, c, r, p, (mpfr_ptr)0);
    assert_int_equal(bad, 0);
}

static float bits_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void test_conversions(void **state)
{
    (void)state;
    mpfr_t a;
    mpfr_init2(a, 160);
    unsigned bad = 0;
    for (uint32_t h = 0; h < 0x10000u; h++) {
        h_value(a, h);
        /* f16 -> f32: exact (a NaN stays a NaN, quieted) */
        float f = bits_f(eval1(STEX_MATH_F16_TO_F32, h));
        if (h_isnan(h) ? !isnan(f) || !(f_bits(f) & 0x00400000u) : f != mpfr_get_flt(a, MPFR_RNDN) ||
            !!signbit(f) != !!(h & 0x8000u))
            bad++;
        /* f16 -> i32 / u32: toward zero, clamped to the values both types
         * hold ([-65504, 65504], u32 from 0: WGSL's conversion rule); NaN -> 0
         * (spec's choice, as for f32) */
        int32_t wi = 0;
        uint32_t wu = 0;
        if (!h_isnan(h)) {
            mpfr_trunc(a, a);
            if (mpfr_cmp_si(a, 65504) > 0)
                mpfr_set_si(a, 65504, MPFR_RNDN);
            if (mpfr_cmp_si(a, -65504) < 0)
                mpfr_set_si(a, -65504, MPFR_RNDN);
            wi = (int32_t)mpfr_get_si(a, MPFR_RNDZ);
            wu = wi < 0 ? 0 : (uint32_t)wi;
        }
        if (eval1(STEX_MATH_F16_TO_I32, h) != (uint32_t)wi ||
            eval1(STEX_MATH_F16_TO_U32, h) != wu) {
            if (bad++ < 10)
                fprintf(stderr, "i32/u32(%04x): stex %08x %08x, WGSL %08x %08x\n", h,
                        eval1(STEX_MATH_F16_TO_I32, h), eval1(STEX_MATH_F16_TO_U32, h),
                        (uint32_t)wi, wu);
        }
        if (eval1(STEX_MATH_F16_TO_BOOL, h) != ((h & 0x7fffu) != 0))
            bad++;
    }
    /* f32 -> f16: a sweep of patterns, and each halfway point with its neighbours */
    for (uint64_t u = 0; u < 0x100000000ull; u += 4099) {
        float f = bits_f((uint32_t)u);
        mpfr_set_flt(a, f, MPFR_RNDN);
        uint32_t want = h_round(a), got = eval1(STEX_MATH_F32_TO_F16, (uint32_t)u);
        if (!same(got, want) && bad++ < 10)
            fprintf(stderr, "f16(%08x): stex %04x, exact %04x\n", (uint32_t)u, got, want);
    }
    for (uint32_t h = 0; h < 0x7bffu; h++) {
        for (int d = -1; d <= 1; d++) {
            mpfr_t lo;
            mpfr_init2(lo, 160);
            h_value(a, h);
            h_value(lo, h + 1);
            mpfr_add(a, a, lo, MPFR_RNDN);
            mpfr_div_2ui(a, a, 1, MPFR_RNDN); /* the halfway point, exact */
            mpfr_clear(lo);
            uint32_t u = f_bits(mpfr_get_flt(a, MPFR_RNDN)) + (uint32_t)d;
            mpfr_set_flt(a, bits_f(u), MPFR_RNDN);
            uint32_t want = h_round(a), got = eval1(STEX_MATH_F32_TO_F16, u);
            if (got != want && bad++ < 10)
                fprintf(stderr, "f16(%08x): stex %04x, exact %04x\n", u, got, want);
        }
    }
    /* i32 / u32 -> f16: rounded once (65519 -> 65504, 65520 -> inf) */
    for (int64_t i = -70000; i <= 70000; i += 7) {
        mpfr_set_si(a, (long)i, MPFR_RNDN);
        uint32_t want = h_round(a);
        if (eval1(STEX_MATH_I32_TO_F16, (uint32_t)(int32_t)i) != want && bad++ < 10)
            fprintf(stderr, "f16(%lldi) wrong\n", (long long)i);
        if (i >= 0 && eval1(STEX_MATH_U32_TO_F16, (uint32_t)i) != want && bad++ < 10)
            fprintf(stderr, "f16(%lldu) wrong\n", (long long)i);
    }
    assert_int_equal(eval1(STEX_MATH_I32_TO_F16, 65519), 0x7bffu);
    assert_int_equal(eval1(STEX_MATH_I32_TO_F16, 65520), 0x7c00u);
    assert_int_equal(eval1(STEX_MATH_U32_TO_F16, 0xffffffffu), 0x7c00u);
    assert_int_equal(eval1(STEX_MATH_I32_TO_F16, 2049), 0x6800u); /* tie to even: 2048 */
    assert_int_equal(eval1(STEX_MATH_I32_TO_F16, 2051), 0x6802u); /* tie to even: 2052 */
    mpfr_clear(a);
    assert_int_equal(bad, 0);
}

static void test_bitcast(void **state)
{
    (void)state;
    uint32_t in = 0xbc003c00u, out[2];
    assert_int_equal(stex_math_eval(spec(), STEX_MATH_BITCAST_U32_VEC2_F16, &in, out), STEX_OK);
    assert_int_equal(out[0], 0x3c00u); /* 1.0h: the low half is component 0 */
    assert_int_equal(out[1], 0xbc00u); /* -1.0h */
    uint32_t v[2] = {0x7c01u, 0x8001u}, w;
    assert_int_equal(stex_math_eval(spec(), STEX_MATH_BITCAST_VEC2_F16_U32, v, &w), STEX_OK);
    assert_int_equal(w, 0x80017c01u);    /* a signalling NaN's bits unchanged */
}

/* WGSL const-expressions of f16: an argument or result past f16's finite
 * range is a shader-creation error */
static void test_const(void **state)
{
    (void)state;
    uint32_t in[2] = {0x7b53u /* 60000 */, 0x4000u /* 2 */}, out[2];
    assert_int_equal(stex_math_eval_const(STEX_CONST_WGSL, STEX_MATH_MUL_F16, false, in, out), STEX_SHADER_ERROR);
    in[0] = 0x7c00u; /* inf */
    assert_int_equal(stex_math_eval_const(STEX_CONST_WGSL, STEX_MATH_ADD_F16, false, in, out), STEX_SHADER_ERROR);
    in[0] = 0x4000u;
    /* sqrt(2) = 1.41421...: 1448.15 units of 2^-10, so significand 1448: 0x3da8 */
    assert_int_equal(stex_math_eval_const(STEX_CONST_WGSL, STEX_MATH_SQRT_F16, false, in, out), STEX_OK);
    assert_int_equal(out[0], 0x3da8u);
    in[0] = 0xbc00u; /* sqrt(-1): NaN */
    assert_int_equal(stex_math_eval_const(STEX_CONST_WGSL, STEX_MATH_SQRT_F16, false, in, out), STEX_SHADER_ERROR);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unary_exhaustive),
        cmocka_unit_test(test_binary_grid),
        cmocka_unit_test(test_fma),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_bitcast),
        cmocka_unit_test(test_const),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
