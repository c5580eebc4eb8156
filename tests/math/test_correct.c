/* Profile `spec`'s inexact builtins are correctly rounded: for every f32
 * input (every 65521st pattern by default; all 2^32 with --exhaustive, the
 * `exhaustive` suite) the result must equal the exact function's value
 * rounded to the nearest f32.
 *
 * The library rounds glibc's double function to f32 and falls back to glibc's
 * long double function near a tie.  The references do not trust either
 * method where it could be wrong (the long double table below is repeated
 * here on purpose: a test does not call the code it checks):
 *  - MPFR, the function's value at 128 bits rounded to binary32 with its
 *    subnormals (mpfr_subnormalize): for a sparser stride of every function,
 *    and wherever the second reference cannot decide;
 *  - glibc's long double (x87, 64-bit significand) function, accurate to a
 *    few units of 2^-64 relative, fast enough for all 2^32 inputs; where its
 *    value lies within 2^-58 relative of a halfway point between two f32s,
 *    MPFR decides instead.
 * Two-argument functions (pow, atan2): the same over a strided grid of
 * pairs plus the WGSL corner values.
 *
 * The exhaustive run (`--exhaustive [fn,fn...]`, all functions or the named
 * ones) shares the inputs out over OpenMP threads, and for an odd or even
 * function checks the negative half against the positive half: round to
 * nearest is symmetric, so f(-x) is correctly rounded exactly when it is
 * the mirror of a correctly rounded f(x). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <mpfr.h>

#include "stex/math.h"

static int exhaustive;

static long double ref1(stex_math_fn fn, long double x, long double y)
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

/* f(x[, y]) correctly rounded to binary32 by MPFR. */
static float mpfr_ref(stex_math_fn fn, float x, float y)
{
    mpfr_t a, b, r, f;
    mpfr_inits2(128, a, b, r, (mpfr_ptr)0);
    mpfr_set_flt(a, x, MPFR_RNDN); /* exact */
    mpfr_set_flt(b, y, MPFR_RNDN);
    switch (fn) {
    case STEX_MATH_SIN_F32: mpfr_sin(r, a, MPFR_RNDN); break;
    case STEX_MATH_COS_F32: mpfr_cos(r, a, MPFR_RNDN); break;
    case STEX_MATH_TAN_F32: mpfr_tan(r, a, MPFR_RNDN); break;
    case STEX_MATH_EXP_F32: mpfr_exp(r, a, MPFR_RNDN); break;
    case STEX_MATH_EXP2_F32: mpfr_exp2(r, a, MPFR_RNDN); break;
    case STEX_MATH_LOG_F32: mpfr_log(r, a, MPFR_RNDN); break;
    case STEX_MATH_LOG2_F32: mpfr_log2(r, a, MPFR_RNDN); break;
    case STEX_MATH_SQRT_F32: mpfr_sqrt(r, a, MPFR_RNDN); break;
    case STEX_MATH_INVERSESQRT_F32: mpfr_rec_sqrt(r, a, MPFR_RNDN); break;
    case STEX_MATH_TANH_F32: mpfr_tanh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ATAN_F32: mpfr_atan(r, a, MPFR_RNDN); break;
    case STEX_MATH_ASIN_F32: mpfr_asin(r, a, MPFR_RNDN); break;
    case STEX_MATH_ACOS_F32: mpfr_acos(r, a, MPFR_RNDN); break;
    case STEX_MATH_SINH_F32: mpfr_sinh(r, a, MPFR_RNDN); break;
    case STEX_MATH_COSH_F32: mpfr_cosh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ASINH_F32: mpfr_asinh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ACOSH_F32: mpfr_acosh(r, a, MPFR_RNDN); break;
    case STEX_MATH_ATANH_F32: mpfr_atanh(r, a, MPFR_RNDN); break;
    case STEX_MATH_POW_F32: mpfr_pow(r, a, b, MPFR_RNDN); break;
    case STEX_MATH_ATAN2_F32: mpfr_atan2(r, a, b, MPFR_RNDN); break;
    default: mpfr_set_nan(r);
    }
    /* binary32: 24 bits, exponents of MPFR's [0.5, 1) convention -148..128 */
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
    mpfr_init2(f, 24);
    int t = mpfr_set(f, r, MPFR_RNDN);
    t = mpfr_check_range(f, t, MPFR_RNDN);
    mpfr_subnormalize(f, t, MPFR_RNDN);
    float out = mpfr_get_flt(f, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clears(a, b, r, f, (mpfr_ptr)0);
    return out;
}

/* 1 if v is too close to an f32 halfway point for the reference to decide */
static int undecidable(long double v)
{
    if (!isfinite(v) || v == 0)
        return 0;
    int e;
    long double m = frexpl(fabsl(v), &e);
    int bits = e < -125 ? 24 - (-125 - e) : 24;
    if (bits < 1)
        bits = 1;
    long double s = ldexpl(m, bits);
    return fabsl(s - floorl(s) - 0.5L) < 0x1p-34L; /* 2^-58 relative */
}

typedef struct tally {
    unsigned long checked, wrong, undecided; /* undecided: long double could not, MPFR did */
} tally;

/* out: stex's result for (x, y); by_mpfr: MPFR is the reference; else long
 * double, MPFR where it cannot decide */
static void check_one(stex_math_fn fn, float x, float y, uint32_t out, bool by_mpfr, tally *t)
{
    if (isnan(x) || isnan(y))
        return; /* NaN results: the rule tests cover them */
    long double v = ref1(fn, x, y);
    if (isnan(v))
        return;
    float want;
    if (by_mpfr || undecidable(v)) {
        t->undecided += !by_mpfr;
        want = mpfr_ref(fn, x, y);
    } else
        want = (float)v;
    uint32_t wb;
    memcpy(&wb, &want, 4);
    t->checked++;
    if (wb != out && t->wrong++ < 5)
        fprintf(stderr, "%s(%a, %a): stex %08x, correctly rounded %08x\n",
                stex_math_fn_get(fn)->op, x, y, out, wb);
}

static void check(const stex_profile *p, stex_math_fn fn, float x, float y, bool by_mpfr,
                  tally *t)
{
    uint32_t in[2], out;
    memcpy(&in[0], &x, 4);
    memcpy(&in[1], &y, 4);
    stex_math_eval(p, fn, in, &out);
    check_one(fn, x, y, out, by_mpfr, t);
}

static const stex_math_fn UNARY[] = {
    STEX_MATH_SIN_F32, STEX_MATH_COS_F32, STEX_MATH_TAN_F32, STEX_MATH_EXP_F32,
    STEX_MATH_EXP2_F32, STEX_MATH_LOG_F32, STEX_MATH_LOG2_F32, STEX_MATH_SQRT_F32,
    STEX_MATH_INVERSESQRT_F32, STEX_MATH_TANH_F32, STEX_MATH_ATAN_F32, STEX_MATH_ASIN_F32,
    STEX_MATH_ACOS_F32, STEX_MATH_SINH_F32, STEX_MATH_COSH_F32, STEX_MATH_ASINH_F32,
    STEX_MATH_ACOSH_F32, STEX_MATH_ATANH_F32,
};

/* `--exhaustive sin,cos`: only the named functions (NULL: all) */
static const char *only;

static bool selected(stex_math_fn fn)
{
    if (!only)
        return true;
    const char *op = stex_math_fn_get(fn)->op;
    size_t n = strlen(op);
    for (const char *s = only; (s = strstr(s, op)); s += n)
        if ((s == only || s[-1] == ',') && (s[n] == ',' || s[n] == 0))
            return true;
    return false;
}

/* +1: f(-x) = f(x); -1: f(-x) = -f(x); 0: neither.  Round-to-nearest is
 * symmetric, so where the exact function is, the correctly rounded one is
 * too: a negative input needs no reference once its positive twin passed. */
static int symmetry(stex_math_fn fn)
{
    switch (fn) {
    case STEX_MATH_COS_F32: case STEX_MATH_COSH_F32: return 1;
    case STEX_MATH_SIN_F32: case STEX_MATH_TAN_F32: case STEX_MATH_TANH_F32:
    case STEX_MATH_ATAN_F32: case STEX_MATH_ASIN_F32: case STEX_MATH_SINH_F32:
    case STEX_MATH_ASINH_F32: case STEX_MATH_ATANH_F32: return -1;
    default: return 0;
    }
}

#define CHUNK 4096u

/* Every f32 input, on every thread: the positive half (and, for functions
 * without a symmetry, the negative half) against the references; the
 * negative half of a symmetric function against its positive twin. */
static void exhaust(const stex_profile *p, stex_math_fn fn, tally *total)
{
    const int sym = symmetry(fn);
    unsigned long checked = 0, wrong = 0, undecided = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : checked, wrong, undecided)
    for (uint64_t base = 0; base < 0x80000000u; base += CHUNK) {
        float xs[CHUNK], r[CHUNK];
        uint32_t pos[CHUNK], neg[CHUNK];
        for (int half = 0; half < 2; half++) {
            for (uint32_t i = 0; i < CHUNK; i++) {
                uint32_t b = ((uint32_t)base + i) | (half ? 0x80000000u : 0u);
                memcpy(&xs[i], &b, 4);
            }
            stex_math_f32_unary(p, fn, CHUNK, xs, r);
            memcpy(half ? neg : pos, r, sizeof r);
        }
        tally t = {0};
        for (uint32_t i = 0; i < CHUNK; i++) {
            float x, xn;
            uint32_t b = (uint32_t)base + i, bn = b | 0x80000000u;
            memcpy(&x, &b, 4);
            memcpy(&xn, &bn, 4);
            check_one(fn, x, 0.0f, pos[i], false, &t);
            if (!sym)
                check_one(fn, xn, 0.0f, neg[i], false, &t);
            else if (!isnan(x) && (pos[i] & 0x7fffffffu) <= 0x7f800000u) {
                uint32_t want = sym > 0 ? pos[i] : pos[i] ^ 0x80000000u;
                t.checked++;
                if (neg[i] != want && t.wrong++ < 5)
                    fprintf(stderr, "%s(%a): stex %08x, its positive twin gives %08x\n",
                            stex_math_fn_get(fn)->op, xn, neg[i], pos[i]);
            }
        }
        checked += t.checked;
        wrong += t.wrong;
        undecided += t.undecided;
    }
    total->checked += checked;
    total->wrong += wrong;
    total->undecided += undecided;
}

static void test_unary(void **state)
{
    (void)state;
    const stex_profile *p = stex_profile_get(STEX_PROFILE_SPEC);
    uint64_t step = exhaustive ? 1 : 65521;
    int bad = 0;
    for (size_t k = 0; k < sizeof UNARY / sizeof UNARY[0]; k++) {
        if (!selected(UNARY[k]))
            continue;
        tally t = {0};
        time_t start = time(NULL);
        if (exhaustive)
            exhaust(p, UNARY[k], &t);
        for (uint64_t u = 0; !exhaustive && u <= 0xffffffffu; u += step) {
            float x;
            uint32_t b = (uint32_t)u;
            memcpy(&x, &b, 4);
            check(p, UNARY[k], x, 0.0f, false, &t);
        }
        tally m = {0}; /* MPFR alone, every 1048573rd pattern */
        for (uint64_t u = 17; u <= 0xffffffffu; u += 1048573) {
            float x;
            uint32_t b = (uint32_t)u;
            memcpy(&x, &b, 4);
            check(p, UNARY[k], x, 0.0f, true, &m);
        }
        printf("  %-12s checked %lu (+%lu against MPFR alone), not correctly rounded %lu, "
               "decided by MPFR %lu (%lds)\n", stex_math_fn_get(UNARY[k])->op, t.checked,
               m.checked, t.wrong + m.wrong, t.undecided, (long)(time(NULL) - start));
        fflush(stdout);
        bad |= m.wrong != 0;
        bad |= t.wrong != 0;
    }
    assert_false(bad);
}

static void test_binary(void **state)
{
    (void)state;
    const stex_profile *p = stex_profile_get(STEX_PROFILE_SPEC);
    static const float corners[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 0x1p-149f, 0x1p-126f,
                                    3.0f, 0x1.fffffep127f, INFINITY, -INFINITY, 10.0f, 0.1f};
    const stex_math_fn fns[] = {STEX_MATH_POW_F32, STEX_MATH_ATAN2_F32};
    uint64_t step = exhaustive ? 4099 : 262139;
    int bad = 0;
    for (int k = 0; k < 2; k++) {
        if (!selected(fns[k]))
            continue;
        tally t = {0};
        for (uint64_t u = 0; u <= 0xffffffffu; u += step) {
            float x;
            uint32_t b = (uint32_t)u;
            memcpy(&x, &b, 4);
            for (size_t j = 0; j < sizeof corners / sizeof corners[0]; j++) {
                check(p, fns[k], x, corners[j], false, &t);
                check(p, fns[k], corners[j], x, false, &t);
            }
            /* a second strided argument, decorrelated from the first */
            uint32_t b2 = (uint32_t)(u * 2654435761u);
            float y;
            memcpy(&y, &b2, 4);
            check(p, fns[k], x, y, false, &t);
            check(p, fns[k], x, y, true, &t); /* and MPFR alone on the same pair */
        }
        printf("  %-12s checked %lu, not correctly rounded %lu, decided by MPFR %lu\n",
               stex_math_fn_get(fns[k])->op, t.checked, t.wrong, t.undecided);
        bad |= t.wrong != 0;
    }
    assert_false(bad);
}

int main(int argc, char **argv)
{
    exhaustive = argc > 1 && !strcmp(argv[1], "--exhaustive");
    if (exhaustive && argc > 2)
        only = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unary),
        cmocka_unit_test(test_binary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
