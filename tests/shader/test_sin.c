/*
 * stex_sin (stex/wgsl_math.h), WGSL's sin, against double-precision sin:
 *
 *   ulp        max error <= 0.5004 ulp of the exact value (documented:
 *              0.50037, measured over every f32 below 2^20) over every 257th
 *              f32 in [-pi, pi], every 4099th below 2^20, and every argument
 *              generar computes at the sizes and times its tests use;
 *              sin(-x) == -sin(x) bit for bit;
 *   WGSL       absolute error <= 2^-11 on [-pi, pi] (and <= 3e-8, documented);
 *   special    +-0 keep their sign, NaN -> NaN, +-inf -> NaN, |x| >= 2^20
 *              is the C library's sinf (within [-1, 1]), just below 2^20 is
 *              the polynomial's;
 *
 *   vector     stex_sin_n (several lanes per instruction) equals stex_sin bit
 *              for bit through every variant this machine runs (scalar,
 *              SSE2, AVX2): every 251st f32 pattern in batches of every
 *              length 0..67 at every alignment, the special values and the
 *              2^20 boundary, out aliasing x;
 *
 * `--exhaustive` (suite exhaustive) instead checks all 2^32 f32 patterns:
 * below 2^20 the ulp bound and the symmetry, at and above it sinf; and
 * stex_sin_n against stex_sin on every pattern through every variant.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "math/sin_n.h"
#include "stex/wgsl_math.h"

#define ULP_BOUND 0.5004   /* the header documents 0.50037 */
#define ABS_BOUND 3e-8     /* the header documents 2.99e-8 on [-pi, pi] */
#define WGSL_ABS_BOUND 0x1p-11
#define PI_F_BITS 0x40490fdbu /* the f32 nearest pi (just below it) */
#define LIMIT_BITS 0x49800000u /* 2^20 */

static float fb(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* The spacing of f32 at the exact value y (subnormal spacing below 2^-126). */
static double ulp_at(double y)
{
    int e;
    frexp(fabs(y), &e); /* |y| in [2^(e-1), 2^e) */
    int ex = e - 1 < -126 ? -126 : e - 1;
    return ldexp(1.0, ex - 23);
}

typedef struct sweep_stats {
    double max_ulp, max_abs_pi; /* max_abs_pi: over the arguments in [-pi, pi] */
    uint32_t worst;
    unsigned long long count, not_cr, asym;
} sweep_stats;

static void check_one(float x, sweep_stats *s)
{
    float y = stex_sin(x);
    double ref = sin((double)x);
    double e = fabs((double)y - ref) / ulp_at(ref);
    if (e > s->max_ulp) {
        s->max_ulp = e;
        s->worst = bf(x);
    }
    if (fabsf(x) <= fb(PI_F_BITS) && fabs((double)y - ref) > s->max_abs_pi)
        s->max_abs_pi = fabs((double)y - ref);
    s->not_cr += y != (float)ref;
    float m = -stex_sin(-x);
    s->asym += bf(m) != bf(y);
    s->count++;
}

static void merge(sweep_stats *into, const sweep_stats *s)
{
    if (s->max_ulp > into->max_ulp) {
        into->max_ulp = s->max_ulp;
        into->worst = s->worst;
    }
    if (s->max_abs_pi > into->max_abs_pi)
        into->max_abs_pi = s->max_abs_pi;
    into->count += s->count;
    into->not_cr += s->not_cr;
    into->asym += s->asym;
}

/* Every stride-th non-negative pattern in [lo, hi] and its negation. */
static sweep_stats sweep(uint32_t lo, uint32_t hi, uint32_t stride)
{
    sweep_stats all = {0};
#pragma omp parallel
    {
        sweep_stats s = {0};
#pragma omp for schedule(dynamic, 4096)
        for (long long b = lo; b <= (long long)hi; b += stride) {
            check_one(fb((uint32_t)b), &s);
            check_one(fb((uint32_t)b | 0x80000000u), &s);
        }
#pragma omp critical(merge)
        merge(&all, &s);
    }
    return all;
}

static void assert_stats(const char *what, const sweep_stats *s)
{
    print_message("%s: %llu values, max %.6f ulp at %a, max |error| on [-pi, pi] %.3g, "
                  "%llu differ from (float)sin((double)x)\n", what, s->count, s->max_ulp,
                  (double)fb(s->worst), s->max_abs_pi, s->not_cr);
    if (s->max_ulp > ULP_BOUND)
        fail_msg("%s: stex_sin(%a) is %.6f ulp from sin, bound %.4f", what,
                 (double)fb(s->worst), s->max_ulp, ULP_BOUND);
    if (s->max_abs_pi > WGSL_ABS_BOUND)
        fail_msg("%s: absolute error %.3g on [-pi, pi], WGSL allows 2^-11", what, s->max_abs_pi);
    if (s->max_abs_pi > ABS_BOUND)
        fail_msg("%s: absolute error %.3g on [-pi, pi], documented %.3g", what, s->max_abs_pi,
                 ABS_BOUND);
    if (s->asym)
        fail_msg("%s: %llu values with stex_sin(-x) != -stex_sin(x)", what, s->asym);
}

static void test_ulp_pi(void **state)
{
    (void)state;
    sweep_stats s = sweep(0, PI_F_BITS, 257);
    assert_stats("every 257th f32 in [-pi, pi]", &s);
}

static void test_ulp_below_limit(void **state)
{
    (void)state;
    sweep_stats s = sweep(0, LIMIT_BITS - 1, 4099);
    assert_stats("every 4099th f32 with |x| < 2^20", &s);
    /* the last values on the polynomial path */
    s = sweep(LIMIT_BITS - 100000, LIMIT_BITS - 1, 1);
    assert_stats("the 100000 f32 below 2^20", &s);
}

/* The arguments generar's three sin calls compute (src/kernels/generar.c),
 * in f32 as the kernel does, at the sizes and times tests/kernels uses. */
static void test_generar_arguments(void **state)
{
    (void)state;
    static const struct { uint32_t w, h; float t; } runs[] = {
        {4096, 4096, 0.75f}, {512, 512, 0.0f}, {512, 512, 0.75f}, {100, 37, 123.25f}, {100, 60, 0.5f}};
    sweep_stats all = {0};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        uint32_t w = runs[r].w, h = runs[r].h;
        float t = runs[r].t;
        for (uint32_t x = 0; x < w; x++)
            check_one((float)x / (float)w * 12.0f + t, &all);
        for (uint32_t y = 0; y < h; y++)
            check_one((float)y / (float)h * 12.0f + t * 1.3f, &all);
        if (w == h && (w & (w - 1)) == 0) {
            /* x/w + y/w is exact: (x + y)/w, so x + y stands for all pairs */
            for (uint32_t d = 0; d < w + h - 1; d++)
                check_one(((float)d / (float)w) * 8.0f - t, &all);
        } else {
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++)
                    check_one(((float)x / (float)w + (float)y / (float)h) * 8.0f - t, &all);
        }
    }
    assert_stats("generar's arguments", &all);
}

static void test_special_values(void **state)
{
    (void)state;
    /* zeros keep their sign */
    assert_int_equal(bf(stex_sin(0.0f)), 0x00000000u);
    assert_int_equal(bf(stex_sin(-0.0f)), 0x80000000u);
    /* tiny and subnormal: sin(x) rounds to x */
    static const uint32_t tiny[] = {0x00000001u, 0x007fffffu, 0x00800000u, 0x39800000u};
    for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
        assert_int_equal(bf(stex_sin(fb(tiny[i]))), tiny[i]);
        assert_int_equal(bf(stex_sin(fb(tiny[i] | 0x80000000u))), tiny[i] | 0x80000000u);
    }
    /* NaN (quiet, signalling, any payload, either sign) and infinities give NaN */
    static const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                    0x7fffffffu, 0x7fa5a5a5u, 0xffffffffu};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++)
        assert_true(isnan(stex_sin(fb(nans[i]))));
    assert_true(isnan(stex_sin(INFINITY)));
    assert_true(isnan(stex_sin(-INFINITY)));
    /* a few exact-ish values */
    assert_true(stex_sin(fb(0x3fc90fdbu)) == 1.0f);  /* f32(pi/2) */
    assert_true(stex_sin(-fb(0x3fc90fdbu)) == -1.0f);
    assert_true(fabsf(stex_sin(fb(PI_F_BITS))) < 1e-7f); /* f32(pi): -8.74e-8 */
    assert_true(stex_sin(fb(PI_F_BITS)) == (float)sin((double)fb(PI_F_BITS)));
    /* at and above 2^20 the C library's sinf, bit for bit, within [-1, 1] */
    static const float big[] = {0x1p20f, -0x1p20f, 0x1.000002p20f, 1e10f, -1e10f, 12345678.0f,
                                0x1p24f, 0x1p63f, 3e38f, FLT_MAX, -FLT_MAX};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        float y = stex_sin(big[i]);
        assert_int_equal(bf(y), bf(sinf(big[i])));
        assert_true(y >= -1.0f && y <= 1.0f);
    }
    for (uint32_t b = LIMIT_BITS; b < 0x7f800000u; b += 65521) {
        float y = stex_sin(fb(b));
        if (bf(y) != bf(sinf(fb(b))) || !(y >= -1.0f && y <= 1.0f))
            fail_msg("stex_sin(%a) = %a, sinf gives %a", (double)fb(b), (double)y,
                     (double)sinf(fb(b)));
    }
    /* just below 2^20 is still the polynomial: within the bound */
    float below = fb(LIMIT_BITS - 1);
    double ref = sin((double)below);
    assert_true(fabs((double)stex_sin(below) - ref) / ulp_at(ref) <= ULP_BOUND);
}

/* stex_sin_n through variant `level` on patterns first, first + stride, ...
 * (up to `last`), in batches of n; the number of results unlike stex_sin. */
enum { VBATCH = 4096 };
static unsigned long long vector_mismatches(int level, uint64_t first, uint64_t last,
                                           uint64_t stride, size_t n, size_t offset)
{
    unsigned long long bad = 0;
    float in[VBATCH + 8], out[VBATCH + 8];
    size_t batch = n ? VBATCH / n * n : 0;
    if (!batch)
        return 0;
    uint64_t b = first;
    while (b <= last) {
        size_t m = 0;
        for (; m < batch && b <= last; m++, b += stride)
            in[offset + m] = fb((uint32_t)b);
        for (size_t i = 0; i < m; i += n) /* batches of n (the last one shorter) */
            stex__sin_n_level(level, m - i < n ? m - i : n, in + offset + i, out + offset + i);
        for (size_t i = 0; i < m; i++) {
            uint32_t want = bf(stex_sin(in[offset + i])), got = bf(out[offset + i]);
            if (want != got && bad++ < 5)
                print_message("level %d: stex_sin_n(%a) = %a, stex_sin gives %a\n", level,
                              (double)in[offset + i], (double)fb(got), (double)fb(want));
        }
    }
    return bad;
}

static void test_vector_matches_scalar(void **state)
{
    (void)state;
    int levels = stex__sin_n_levels();
    print_message("stex_sin_n variants on this machine: %d (1 scalar, 2 SSE2, 3 AVX2)\n", levels);
    unsigned long long bad = 0;
    for (int level = 1; level <= levels; level++) {
        /* every 251st pattern (both signs, NaNs, infinities), batch lengths 0..67 */
        for (size_t n = 1; n <= 67; n++)
            bad += vector_mismatches(level, n * 7, 0xffffffffull, 251 * 67, n, n % 8);
        bad += vector_mismatches(level, 0, 0xffffffffull, 251, 64, 0);
        /* around 2^20 and the infinities, both signs: lanes of both paths in one batch */
        static const uint32_t around[] = {LIMIT_BITS, LIMIT_BITS | 0x80000000u, 0x7f800000u,
                                          0xff800000u};
        for (size_t i = 0; i < sizeof around / sizeof around[0]; i++)
            for (size_t n = 1; n <= 17; n++)
                bad += vector_mismatches(level, around[i] - 40, around[i] + 40, 1, n, 0);
        /* out aliasing x */
        float v[37];
        for (int i = 0; i < 37; i++)
            v[i] = i % 5 == 0 ? fb(LIMIT_BITS + (uint32_t)i) : (float)i * 0.37f - 5.0f;
        float w[37];
        memcpy(w, v, sizeof v);
        stex__sin_n_level(level, 37, v, v);
        for (int i = 0; i < 37; i++)
            bad += bf(v[i]) != bf(stex_sin(w[i]));
    }
    /* and the public entry point */
    float x[19], y[19];
    for (int i = 0; i < 19; i++)
        x[i] = (float)i * 1.7f - 11.0f;
    stex_sin_n(19, x, y);
    for (int i = 0; i < 19; i++)
        bad += bf(y[i]) != bf(stex_sin(x[i]));
    assert_int_equal(bad, 0);
}

/* All 2^32 patterns (a minute or two on 2 cores). */
static int run_exhaustive(void)
{
    sweep_stats s = sweep(0, LIMIT_BITS - 1, 1);
    printf("every f32 with |x| < 2^20: %llu values, max %.6f ulp at %a, max |error| on [-pi, pi] "
           "%.3g, %llu differ from (float)sin((double)x), %llu asymmetric\n", s.count, s.max_ulp,
           (double)fb(s.worst), s.max_abs_pi, s.not_cr, s.asym);
    unsigned long long bad_big = 0;
#pragma omp parallel for schedule(dynamic, 65536) reduction(+ : bad_big)
    for (long long b = LIMIT_BITS; b <= 0x7fffffffLL; b++) {
        for (int sign = 0; sign < 2; sign++) {
            float x = fb((uint32_t)b | (sign ? 0x80000000u : 0));
            float y = stex_sin(x), z = sinf(x);
            bad_big += isnan(x) || isinf(x) ? !isnan(y) : bf(y) != bf(z);
        }
    }
    printf("|x| >= 2^20, inf, NaN: %llu values unlike sinf / not NaN\n", bad_big);
    unsigned long long bad_vec = 0;
    for (int level = 1; level <= stex__sin_n_levels(); level++) {
        unsigned long long bad = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : bad)
        for (long long chunk = 0; chunk < 1LL << 12; chunk++) /* 2^20 patterns each */
            bad += vector_mismatches(level, (uint64_t)chunk << 20, ((uint64_t)chunk << 20) + 0xfffff,
                                     1, 64, 0);
        printf("stex_sin_n variant %d: %llu of 2^32 patterns unlike stex_sin\n", level, bad);
        bad_vec += bad;
    }
    int ok = s.max_ulp <= ULP_BOUND && s.max_abs_pi <= ABS_BOUND && !s.asym && !bad_big
             && !bad_vec;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--exhaustive"))
        return run_exhaustive();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ulp_pi),
        cmocka_unit_test(test_ulp_below_limit),
        cmocka_unit_test(test_generar_arguments),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_vector_matches_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
