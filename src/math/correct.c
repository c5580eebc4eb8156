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

/* sin (cosine = 0) or cos of f32 x, 0 < |x| < 2^20, in double with a
 * relative error below 2^-50 - glibc's sin and cos do no better, and the
 * halfway test above tolerates 2^-46 - at a fraction of their cost.
 * Reduction by pi/2 in three parts (Cody and Waite): P1 and P2 have 33
 * significant bits, so k * P1 and k * P2 are exact for k < 2^21 and
 * x - k * P1 is exact (Sterbenz); the last part's rounding errs by about
 * 2^-98 absolute, far below the smallest |r| an f32 below 2^20 leaves.
 * Then Taylor polynomials on |r| <= pi/4 (+ a hair): the first omitted
 * terms are below 2^-62 relative.  The exhaustive suite's sin and cos
 * runs check every input against MPFR. */
typedef double sc_v2d __attribute__((vector_size(16)));
typedef int64_t sc_v2l __attribute__((vector_size(16)));

/* The evaluation for a vector of lanes (GCC's and Clang's vector
 * extensions), written once for two lanes (SSE2 on x86) and eight (AVX2):
 * the same IEEE operations in the same order either way. */
#define SINCOS_CORE(VD, VL, OUT)                                                                \
    const double P1 = 0x1.921fb54400000p+0, P2 = 0x1.0b4611a600000p-34,                   \
                 P3 = 0x1.3198a2e037073p-69, TWO_OVER_PI = 0x1.45f306dc9c883p-1,           \
                 SHIFTER = 0x1.8p52;                                                       \
    VD ks = x * TWO_OVER_PI + SHIFTER; /* k in the low significand bits */                 \
    VD k = ks - SHIFTER;               /* the nearest integer to x * 2/pi */               \
    VD r = ((x - k * P1) - k * P2) - k * P3, r2 = r * r;                                   \
    /* Horner's rule for both polynomials, a step of each in turn so that   \
     * the CPU overlaps the two chains: s = r + r * su, c = 1 + cv */         \
    VD su = r2 * (1.0 / 355687428096000.0), cv = r2 * (-1.0 / 6402373705728000.0);        \
    cv = r2 * (1.0 / 20922789888000.0 + cv);                                                 \
    su = r2 * (-1.0 / 1307674368000.0 + su), cv = r2 * (-1.0 / 87178291200.0 + cv);          \
    su = r2 * (1.0 / 6227020800.0 + su), cv = r2 * (1.0 / 479001600.0 + cv);                \
    su = r2 * (-1.0 / 39916800.0 + su), cv = r2 * (-1.0 / 3628800.0 + cv);                   \
    su = r2 * (1.0 / 362880.0 + su), cv = r2 * (1.0 / 40320.0 + cv);                         \
    su = r2 * (-1.0 / 5040.0 + su), cv = r2 * (-1.0 / 720.0 + cv);                           \
    su = r2 * (1.0 / 120.0 + su), cv = r2 * (1.0 / 24.0 + cv);                               \
    su = r2 * (-1.0 / 6.0 + su), cv = r2 * (-0.5 + cv);                                      \
    VD s = r + r * su, c = 1.0 + cv;                                                         \
    /* sin(x) = s, c, -s, -c in quadrants q = 0..3; cos(x) is sin(x + pi/2) */             \
    VL q = ((VL)ks + cosine) & 3, odd = -(q & 1);                                          \
    VL v = ((VL)s & ~odd) | ((VL)c & odd);                                                 \
    OUT = (VD)(v ^ ((q & 2) << 62))

static inline sc_v2d sincos_core(sc_v2d x, int cosine)
{
    sc_v2d out;
    SINCOS_CORE(sc_v2d, sc_v2l, out);
    return out;
}

static double sincos_small(float xf, int cosine)
{
    if (xf == 0.0f)
        return cosine ? 1.0 : (double)xf; /* sin(-0) = -0 */
    return sincos_core((sc_v2d){xf, 0.0}, cosine)[0];
}

/* Lane j of a vector's result d: its f32 into out, or its bit in the
 * returned mask (to redo: not served, or near_halfway's normal case says
 * too near a tie; a result below 2^-126 is redone too).  A lane to redo
 * keeps out as it was: out may be the argument. */
static inline uint64_t sincos_put(double d, int ok, float *out)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    int64_t off = (int64_t)(bits & ((1ull << 29) - 1)) - (1ll << 28);
    if (!ok || (bits >> 52 & 0x7ff) < 1023 - 126 || (off < 256 && off > -256))
        return 1;
    *out = (float)d;
    return 0;
}

/* Whether x is served (0 < |x| < 2^20), and x or a harmless 0. */
static inline int sincos_arg(float x, double *arg)
{
    int ok = fabsf(x) < 0x1p20f && x != 0.0f;
    *arg = ok ? x : 0.0;
    return ok;
}

/* The n-lane loop, for a vector of W lanes. */
#define SINCOS_LANES(VD, W, CORE)                                                            \
    uint64_t bad = 0;                                                                      \
    for (size_t i = 0; i < n; i += W) {                                                    \
        VD x;                                                                              \
        int ok[W];                                                                         \
        for (size_t j = 0; j < W; j++) {                                                   \
            double arg;                                                                    \
            ok[j] = sincos_arg(i + j < n ? a[i + j] : 0.0f, &arg);                         \
            x[j] = arg;                                                                    \
        }                                                                                  \
        VD v = CORE(x, cosine);                                                            \
        for (size_t j = 0; j < W && i + j < n; j++)                                        \
            bad |= sincos_put(v[j], ok[j], &out[i + j]) << (i + j);                        \
    }                                                                                      \
    return bad

static uint64_t sincos_lanes2(int cosine, size_t n, const float *a, float *out)
{
    SINCOS_LANES(sc_v2d, 2, sincos_core);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SINCOS_AVX2 1
typedef double sc_v8d __attribute__((vector_size(64)));
typedef int64_t sc_v8l __attribute__((vector_size(64)));
/* Eight lanes: each operation is two AVX2 ones side by side (or one
 * AVX-512 one), so the CPU overlaps four chains of dependent steps. */
__attribute__((target("avx2"))) static inline void sincos_core8(const sc_v8d *in, int cosine,
                                                                sc_v8d *out)
{
    sc_v8d x = *in; /* through pointers: 64-byte vectors are no AVX2 argument */
    SINCOS_CORE(sc_v8d, sc_v8l, *out);
}
/* Eight lanes as two four-lane AVX2 vectors stepped together, whose chains
 * of dependent multiplications and additions are independent, so the CPU
 * overlaps them (each lane's operations are the two-lane form's).  The arguments come
 * in and the results go out as vectors too: eight scalar stores read back
 * as one vector cannot be forwarded and stall every step.  sincos_arg and
 * sincos_put's tests, lane for lane, in vector form. */
__attribute__((target("avx2"))) static unsigned sincos8(int cosine, const float *a, float *out)
{
    const __m256 lim = _mm256_set1_ps(0x1p20f);
    const __m256 abs_bits = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256i low29 = _mm256_set1_epi64x((1ll << 29) - 1), half = _mm256_set1_epi64x(1ll << 28);
    const __m256i e_min = _mm256_set1_epi64x(1023 - 126), e_bits = _mm256_set1_epi64x(0x7ff);
    const __m256i near_lo = _mm256_set1_epi64x(-256), near_hi = _mm256_set1_epi64x(256);
    __m256 xf = _mm256_loadu_ps(a), ax = _mm256_and_ps(xf, abs_bits);
    /* served: 0 < |x| < 2^20 (false for NaN); the rest compute on 0 */
    __m256 ok = _mm256_and_ps(_mm256_cmp_ps(ax, lim, _CMP_LT_OQ),
                              _mm256_cmp_ps(ax, _mm256_setzero_ps(), _CMP_NEQ_OQ));
    xf = _mm256_and_ps(xf, ok);
    union { sc_v8d v; __m256d h[2]; } x8, v8;
    x8.h[0] = _mm256_cvtps_pd(_mm256_castps256_ps128(xf));
    x8.h[1] = _mm256_cvtps_pd(_mm256_extractf128_ps(xf, 1));
    sincos_core8(&x8.v, cosine, &v8.v);
    const __m256d *v = v8.h;
    unsigned redo = ~(unsigned)_mm256_movemask_ps(ok) & 0xffu;
    __m128 f[2];
    for (int h = 0; h < 2; h++) {
        __m256i bits = _mm256_castpd_si256(v[h]);
        __m256i e = _mm256_and_si256(_mm256_srli_epi64(bits, 52), e_bits);
        __m256i off = _mm256_sub_epi64(_mm256_and_si256(bits, low29), half);
        __m256i no = _mm256_or_si256(
            _mm256_cmpgt_epi64(e_min, e), /* below 2^-126 */
            _mm256_and_si256(_mm256_cmpgt_epi64(off, near_lo),
                             _mm256_cmpgt_epi64(near_hi, off))); /* too near a tie */
        redo |= (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(no)) << (4 * h);
        f[h] = _mm256_cvtpd_ps(v[h]);
    }
    /* a lane to redo keeps out as it was (out may be a) */
    __m256 keep = _mm256_castsi256_ps(_mm256_cmpgt_epi32(
        _mm256_and_si256(_mm256_set1_epi32((int)redo), _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),
        _mm256_setzero_si256()));
    __m256 res = _mm256_set_m128(f[1], f[0]);
    _mm256_storeu_ps(out, _mm256_blendv_ps(res, _mm256_loadu_ps(out), keep));
    return redo;
}

/* n lanes, eight at a time; the last few through a padded copy. */
__attribute__((target("avx2"))) static uint64_t sincos_lanes4(int cosine, size_t n,
                                                              const float *a, float *out)
{
    uint64_t bad = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        bad |= (uint64_t)sincos8(cosine, a + i, out + i) << i;
    if (i < n) {
        float ta[8] = {0}, to[8] = {0};
        memcpy(ta, a + i, (n - i) * sizeof *ta);
        memcpy(to, out + i, (n - i) * sizeof *to);
        unsigned redo = sincos8(cosine, ta, to) & ((1u << (n - i)) - 1);
        memcpy(out + i, to, (n - i) * sizeof *to);
        bad |= (uint64_t)redo << i;
    }
    return bad;
}
#else
#define SINCOS_AVX2 0
#endif

int stex_m_correct_sincos_n(stex_math_fn fn, size_t n, const float *a, float *out,
                            uint64_t *redo)
{
    if (n > 64 || (fn != STEX_MATH_SIN_F32 && fn != STEX_MATH_COS_F32))
        return 0;
    int cosine = fn == STEX_MATH_COS_F32;
#if SINCOS_AVX2
    if (__builtin_cpu_supports("avx2")) { /* a read of the CPU model libgcc fills once */
        *redo = sincos_lanes4(cosine, n, a, out);
        return 1;
    }
#endif
    *redo = sincos_lanes2(cosine, n, a, out);
    return 1;
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
    double d;
    if ((fn == STEX_MATH_SIN_F32 || fn == STEX_MATH_COS_F32) && fabsf(x) < 0x1p20f)
        d = sincos_small(x, fn == STEX_MATH_COS_F32);
    else
        d = eval_d(fn, x, y);
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
