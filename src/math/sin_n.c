/* stex_sin_n: stex_sin (stex/wgsl_math.h) for n arguments at once, bit for
 * bit.  The polynomial path is the scalar one's operation for operation -
 * the same double multiplications and additions in the same order, one
 * rounding each (no FMA: this file is compiled without contraction, C11's
 * default in GCC, and the AVX2 variant does not enable FMA), the same final
 * rounding to f32 - run on 2 (SSE2) or 4 (AVX2) lanes; lanes with |x| >= 2^20,
 * inf or NaN are then redone by stex_sin itself (the C library's sinf).  The
 * AVX2 variant is chosen at run time (__builtin_cpu_supports); other
 * machines run the scalar loop.  tests/shader/test_sin.c compares every path
 * with stex_sin over a strided sweep and, in the `exhaustive` suite, over
 * every f32. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "math/sin_n.h"
#include "stex/wgsl_math.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define SIN_N_X86 1
#include <immintrin.h>
#endif

#define C1 0x1.921fb5441d5f6p+1
#define C3 -0x1.4abbce4eb4293p+2
#define C5 0x1.466bbfa61c7c1p+1
#define C7 -0x1.32d10c97ca95ap-1
#define C9 0x1.500f205279d25p-4
#define C11 -0x1.cc1d056bf2201p-8
#define IPI_HI 0x1.45f306dp-2
#define IPI_LO 0x1.9391054a7f09dp-31
#define SHIFTER 0x1.8p52

static void sin_n_scalar(size_t n, const float *x, float *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = stex_sin(x[i]);
}

/* Lanes the polynomial must not serve: |x| >= 2^20, inf, NaN. */
static inline int big(float x)
{
    uint32_t ix;
    memcpy(&ix, &x, sizeof ix);
    return (ix & 0x7fffffffu) >= 0x49800000u;
}

#ifdef SIN_N_X86
/* Two lanes: the steps of stex_sin, one intrinsic per statement there. */
static inline __m128d sin2_sse2(__m128d xd)
{
    __m128d y = _mm_mul_pd(xd, _mm_set1_pd(IPI_HI));
    __m128d yl = _mm_mul_pd(xd, _mm_set1_pd(IPI_LO));
    __m128d ks = _mm_add_pd(y, _mm_set1_pd(SHIFTER));
    __m128d kd = _mm_sub_pd(ks, _mm_set1_pd(SHIFTER));
    __m128d f = _mm_sub_pd(y, kd);
    f = _mm_add_pd(f, yl);
    __m128d fs = _mm_xor_pd(f, _mm_castsi128_pd(_mm_slli_epi64(_mm_castpd_si128(ks), 63)));
    __m128d w = _mm_mul_pd(f, f);
    __m128d w2 = _mm_mul_pd(w, w);
    __m128d w4 = _mm_mul_pd(w2, w2);
    __m128d p01 = _mm_add_pd(_mm_mul_pd(_mm_set1_pd(C3), w), _mm_set1_pd(C1));
    __m128d p23 = _mm_add_pd(_mm_mul_pd(_mm_set1_pd(C7), w), _mm_set1_pd(C5));
    __m128d p45 = _mm_add_pd(_mm_mul_pd(_mm_set1_pd(C11), w), _mm_set1_pd(C9));
    p23 = _mm_mul_pd(p23, w2);
    p45 = _mm_mul_pd(p45, w4);
    __m128d p = _mm_add_pd(p01, p23);
    p = _mm_add_pd(p, p45);
    return _mm_mul_pd(p, fs);
}

static void sin_n_sse2(size_t n, const float *x, float *out)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 v = _mm_loadu_ps(x + i);
        __m128d lo = sin2_sse2(_mm_cvtps_pd(v));
        __m128d hi = sin2_sse2(_mm_cvtps_pd(_mm_movehl_ps(v, v)));
        _mm_storeu_ps(out + i, _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi)));
        /* |x| >= 2^20, inf, NaN (stex_sin's compare of the bits): those lanes
         * again through stex_sin, from v (out may alias x) */
        __m128i bits = _mm_and_si128(_mm_castps_si128(v), _mm_set1_epi32(0x7fffffff));
        if (_mm_movemask_epi8(_mm_cmpgt_epi32(bits, _mm_set1_epi32(0x497fffff)))) {
            float in[4];
            _mm_storeu_ps(in, v);
            for (int j = 0; j < 4; j++)
                if (big(in[j]))
                    out[i + (size_t)j] = stex_sin(in[j]);
        }
    }
    sin_n_scalar(n - i, x + i, out + i);
}

__attribute__((target("avx2"))) static inline __m256d sin4_avx2(__m256d xd)
{
    __m256d y = _mm256_mul_pd(xd, _mm256_set1_pd(IPI_HI));
    __m256d yl = _mm256_mul_pd(xd, _mm256_set1_pd(IPI_LO));
    __m256d ks = _mm256_add_pd(y, _mm256_set1_pd(SHIFTER));
    __m256d kd = _mm256_sub_pd(ks, _mm256_set1_pd(SHIFTER));
    __m256d f = _mm256_sub_pd(y, kd);
    f = _mm256_add_pd(f, yl);
    __m256d fs = _mm256_xor_pd(
        f, _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_castpd_si256(ks), 63)));
    __m256d w = _mm256_mul_pd(f, f);
    __m256d w2 = _mm256_mul_pd(w, w);
    __m256d w4 = _mm256_mul_pd(w2, w2);
    __m256d p01 = _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(C3), w), _mm256_set1_pd(C1));
    __m256d p23 = _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(C7), w), _mm256_set1_pd(C5));
    __m256d p45 = _mm256_add_pd(_mm256_mul_pd(_mm256_set1_pd(C11), w), _mm256_set1_pd(C9));
    p23 = _mm256_mul_pd(p23, w2);
    p45 = _mm256_mul_pd(p45, w4);
    __m256d p = _mm256_add_pd(p01, p23);
    p = _mm256_add_pd(p, p45);
    return _mm256_mul_pd(p, fs);
}

__attribute__((target("avx2"))) static void sin_n_avx2(size_t n, const float *x, float *out)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        __m256d lo = sin4_avx2(_mm256_cvtps_pd(_mm256_castps256_ps128(v)));
        __m256d hi = sin4_avx2(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)));
        _mm256_storeu_ps(out + i, _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo)));
        __m256i bits = _mm256_and_si256(_mm256_castps_si256(v), _mm256_set1_epi32(0x7fffffff));
        if (_mm256_movemask_epi8(_mm256_cmpgt_epi32(bits, _mm256_set1_epi32(0x497fffff)))) {
            float in[8];
            _mm256_storeu_ps(in, v);
            for (int j = 0; j < 8; j++)
                if (big(in[j]))
                    out[i + (size_t)j] = stex_sin(in[j]);
        }
    }
    sin_n_sse2(n - i, x + i, out + i);
}
#endif

int stex__sin_n_levels(void)
{
#ifdef SIN_N_X86
    return __builtin_cpu_supports("avx2") ? 3 : 2;
#else
    return 1;
#endif
}

void stex__sin_n_level(int level, size_t n, const float *x, float *out)
{
#ifdef SIN_N_X86
    if (level >= 3) {
        sin_n_avx2(n, x, out);
        return;
    }
    if (level == 2) {
        sin_n_sse2(n, x, out);
        return;
    }
#endif
    (void)level;
    sin_n_scalar(n, x, out);
}

void stex_sin_n(size_t n, const float *x, float *out)
{
#ifdef SIN_N_X86
    if (__builtin_cpu_supports("avx2"))
        sin_n_avx2(n, x, out);
    else
        sin_n_sse2(n, x, out);
#else
    sin_n_scalar(n, x, out);
#endif
}
