/* stex__unorm8_row (convert/unorm8_row.h): the inline codec's unorm8 store
 * rules lane by lane, on 4 or 8 texels of one channel per instruction.  Each
 * lane does what stex__unorm8_encode does to one value - the NaN test, the
 * clamps on the bit pattern, then the rule's product and rounding (the same
 * f32 or f64 operations, each rounded once: this file is compiled without
 * FMA contraction, C11's default in GCC, and the AVX2 variant does not
 * enable FMA) - so the codes are the same bit for bit.  tests/convert/
 * test_unorm8_row.c compares every variant with the scalar codec. */
#include "convert/unorm8_row.h"

#include "convert/codec_inline.h"
#include "convert/fast.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define ROW_X86 1
#include <immintrin.h>
#endif

static void row_scalar(uint32_t round, uint32_t nan, size_t n, const float *r, const float *g,
                       const float *b, const float *a, uint32_t *out)
{
    for (size_t i = 0; i < n; i++) {
        const float f[4] = {r[i], g[i], b[i], a[i]};
        out[i] = stex__unorm8_encode(round, nan, f[0]) | stex__unorm8_encode(round, nan, f[1]) << 8
                 | stex__unorm8_encode(round, nan, f[2]) << 16
                 | stex__unorm8_encode(round, nan, f[3]) << 24;
    }
}

static void codes_scalar(uint32_t round, uint32_t nan, size_t n, const float *x, uint32_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = stex__unorm8_encode(round, nan, x[i]);
}

#ifdef ROW_X86
/* Four codes of one channel (SSE2): the inline codec's own core. */
#define codes4 stex__unorm8_codes_sse2

STEX__ALWAYS_INLINE void row_sse2_by(uint32_t round, uint32_t nan, size_t n, const float *r,
                                     const float *g, const float *b, const float *a,
                                     uint32_t *out)
{
    const __m128i nanv = _mm_set1_epi32((int)nan);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i w = _mm_or_si128(
            _mm_or_si128(codes4(round, nanv, r + i), _mm_slli_epi32(codes4(round, nanv, g + i), 8)),
            _mm_or_si128(_mm_slli_epi32(codes4(round, nanv, b + i), 16),
                         _mm_slli_epi32(codes4(round, nanv, a + i), 24)));
        _mm_storeu_si128((__m128i *)(void *)(out + i), w);
    }
    row_scalar(round, nan, n - i, r + i, g + i, b + i, a + i, out + i);
}

STEX__ALWAYS_INLINE void codes_sse2_by(uint32_t round, uint32_t nan, size_t n, const float *x,
                                       uint32_t *out)
{
    const __m128i nanv = _mm_set1_epi32((int)nan);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        _mm_storeu_si128((__m128i *)(void *)(out + i), codes4(round, nanv, x + i));
    codes_scalar(round, nan, n - i, x + i, out + i);
}

static void codes_sse2(uint32_t round, uint32_t nan, size_t n, const float *x, uint32_t *out)
{
    switch (round) {
    case STEX__UNORM8_F32_EVEN: codes_sse2_by(STEX__UNORM8_F32_EVEN, nan, n, x, out); break;
    case STEX__UNORM8_FIXED4: codes_sse2_by(STEX__UNORM8_FIXED4, nan, n, x, out); break;
    case STEX__UNORM8_EXACT_HALF_UP: codes_sse2_by(STEX__UNORM8_EXACT_HALF_UP, nan, n, x, out); break;
    default: codes_sse2_by(STEX__UNORM8_EXACT_EVEN, nan, n, x, out);
    }
}

static void row_sse2(uint32_t round, uint32_t nan, size_t n, const float *r, const float *g,
                     const float *b, const float *a, uint32_t *out)
{
    switch (round) { /* the rule a constant in each loop */
    case STEX__UNORM8_F32_EVEN: row_sse2_by(STEX__UNORM8_F32_EVEN, nan, n, r, g, b, a, out); break;
    case STEX__UNORM8_FIXED4: row_sse2_by(STEX__UNORM8_FIXED4, nan, n, r, g, b, a, out); break;
    case STEX__UNORM8_EXACT_HALF_UP:
        row_sse2_by(STEX__UNORM8_EXACT_HALF_UP, nan, n, r, g, b, a, out);
        break;
    default: row_sse2_by(STEX__UNORM8_EXACT_EVEN, nan, n, r, g, b, a, out);
    }
}

/* Eight codes of one channel (AVX2): codes4's operations, eight lanes. */
#define AVX2 __attribute__((target("avx2"), always_inline)) static inline
AVX2 __m256i codes8(uint32_t round, __m256i nanv, const float *p)
{
    __m256i s = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i isnan = _mm256_cmpgt_epi32(_mm256_and_si256(s, _mm256_set1_epi32(0x7fffffff)),
                                       _mm256_set1_epi32(0x7f800000));
    s = _mm256_andnot_si256(_mm256_srai_epi32(s, 31), s);
    s = _mm256_min_epi32(s, _mm256_set1_epi32(0x3f800000)); /* s >= 0 here: signed min clamps */
    __m256 x = _mm256_castsi256_ps(s);
    __m256i q;
    if (round == STEX__UNORM8_FIXED4) {
        __m256i y = _mm256_cvttps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(4096.0f)));
        q = _mm256_srli_epi32(_mm256_add_epi32(_mm256_sub_epi32(y, _mm256_srli_epi32(y, 8)),
                                               _mm256_set1_epi32(7)), 4);
    } else if (round == STEX__UNORM8_F32_EVEN) {
        __m256 pr = _mm256_mul_ps(x, _mm256_set1_ps(255.0f));
        STEX__OPAQUE(pr);
        __m256 t = _mm256_add_ps(pr, _mm256_set1_ps(8388608.0f));
        q = _mm256_and_si256(_mm256_castps_si256(t), _mm256_set1_epi32(0x1ff));
    } else {
        __m256d lo = _mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x)), _mm256_set1_pd(255.0));
        __m256d hi = _mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1)),
                                   _mm256_set1_pd(255.0));
        __m128i ql, qh;
        if (round == STEX__UNORM8_EXACT_HALF_UP) {
            ql = _mm256_cvttpd_epi32(_mm256_add_pd(lo, _mm256_set1_pd(0.5)));
            qh = _mm256_cvttpd_epi32(_mm256_add_pd(hi, _mm256_set1_pd(0.5)));
        } else { /* + 2^52, then the low word of each lane */
            const __m256i lows = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
            lo = _mm256_add_pd(lo, _mm256_set1_pd(4503599627370496.0));
            hi = _mm256_add_pd(hi, _mm256_set1_pd(4503599627370496.0));
            ql = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(lo), lows));
            qh = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(hi), lows));
            ql = _mm_and_si128(ql, _mm_set1_epi32(0x1ff));
            qh = _mm_and_si128(qh, _mm_set1_epi32(0x1ff));
        }
        q = _mm256_inserti128_si256(_mm256_castsi128_si256(ql), qh, 1);
    }
    return _mm256_blendv_epi8(q, nanv, isnan);
}

AVX2 void row_avx2_by(uint32_t round, uint32_t nan, size_t n, const float *r, const float *g,
                      const float *b, const float *a, uint32_t *out)
{
    const __m256i nanv = _mm256_set1_epi32((int)nan);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i w = _mm256_or_si256(
            _mm256_or_si256(codes8(round, nanv, r + i),
                            _mm256_slli_epi32(codes8(round, nanv, g + i), 8)),
            _mm256_or_si256(_mm256_slli_epi32(codes8(round, nanv, b + i), 16),
                            _mm256_slli_epi32(codes8(round, nanv, a + i), 24)));
        _mm256_storeu_si256((__m256i *)(void *)(out + i), w);
    }
    row_scalar(round, nan, n - i, r + i, g + i, b + i, a + i, out + i);
}

AVX2 void codes_avx2_by(uint32_t round, uint32_t nan, size_t n, const float *x, uint32_t *out)
{
    const __m256i nanv = _mm256_set1_epi32((int)nan);
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_si256((__m256i *)(void *)(out + i), codes8(round, nanv, x + i));
    codes_scalar(round, nan, n - i, x + i, out + i);
}

__attribute__((target("avx2"))) static void codes_avx2(uint32_t round, uint32_t nan, size_t n,
                                                       const float *x, uint32_t *out)
{
    switch (round) {
    case STEX__UNORM8_F32_EVEN: codes_avx2_by(STEX__UNORM8_F32_EVEN, nan, n, x, out); break;
    case STEX__UNORM8_FIXED4: codes_avx2_by(STEX__UNORM8_FIXED4, nan, n, x, out); break;
    case STEX__UNORM8_EXACT_HALF_UP: codes_avx2_by(STEX__UNORM8_EXACT_HALF_UP, nan, n, x, out); break;
    default: codes_avx2_by(STEX__UNORM8_EXACT_EVEN, nan, n, x, out);
    }
}

__attribute__((target("avx2"))) static void row_avx2(uint32_t round, uint32_t nan, size_t n,
                                                     const float *r, const float *g,
                                                     const float *b, const float *a,
                                                     uint32_t *out)
{
    switch (round) {
    case STEX__UNORM8_F32_EVEN: row_avx2_by(STEX__UNORM8_F32_EVEN, nan, n, r, g, b, a, out); break;
    case STEX__UNORM8_FIXED4: row_avx2_by(STEX__UNORM8_FIXED4, nan, n, r, g, b, a, out); break;
    case STEX__UNORM8_EXACT_HALF_UP:
        row_avx2_by(STEX__UNORM8_EXACT_HALF_UP, nan, n, r, g, b, a, out);
        break;
    default: row_avx2_by(STEX__UNORM8_EXACT_EVEN, nan, n, r, g, b, a, out);
    }
}
#endif

static void unrow_scalar(const float *value, size_t n, const uint32_t *w, float *r, float *g,
                         float *b, float *a)
{
    for (size_t i = 0; i < n; i++) { /* by memcpy: the outputs may be u32 words */
        memcpy(&r[i], &value[w[i] & 0xff], 4);
        memcpy(&g[i], &value[w[i] >> 8 & 0xff], 4);
        memcpy(&b[i], &value[w[i] >> 16 & 0xff], 4);
        memcpy(&a[i], &value[w[i] >> 24], 4);
    }
}

#ifdef ROW_X86
/* Eight texels' channels at once: one table gather per channel - or, for
 * the two tables the converter makes (stex__unorm8_values), their own
 * arithmetic, which gives every entry bit for bit: k / 255 correctly
 * rounded is one IEEE division, f32(k * f32(1/255)) one multiplication
 * (tests/convert/test_unorm8_row.c checks every code of every channel). */
__attribute__((target("avx2"))) static void unrow_avx2(const float *value, size_t n,
                                                       const uint32_t *w, float *r, float *g,
                                                       float *b, float *a)
{
    const __m256i byte = _mm256_set1_epi32(0xff);
    size_t i = 0;
    int kind = stex__unorm8_values_kind(value);
    if (kind >= 0) {
        const __m256 s = _mm256_set1_ps(kind == 0 ? 255.0f : 1.0f / 255.0f);
        float *out[4] = {r, g, b, a};
        for (; i + 8 <= n; i += 8) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(w + i));
            for (int c = 0; c < 4; c++) {
                __m256 k = _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(v, 8 * c), byte));
                _mm256_storeu_ps(out[c] + i, kind == 0 ? _mm256_div_ps(k, s) : _mm256_mul_ps(k, s));
            }
        }
    }
    for (; i + 8 <= n; i += 8) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(w + i));
        _mm256_storeu_ps(r + i, _mm256_i32gather_ps(value, _mm256_and_si256(v, byte), 4));
        _mm256_storeu_ps(g + i, _mm256_i32gather_ps(
                                    value, _mm256_and_si256(_mm256_srli_epi32(v, 8), byte), 4));
        _mm256_storeu_ps(b + i, _mm256_i32gather_ps(
                                    value, _mm256_and_si256(_mm256_srli_epi32(v, 16), byte), 4));
        _mm256_storeu_ps(a + i, _mm256_i32gather_ps(value, _mm256_srli_epi32(v, 24), 4));
    }
    unrow_scalar(value, n - i, w + i, r + i, g + i, b + i, a + i);
}
#endif

void stex__unorm8_unrow_level(int level, const float *value, size_t n, const uint32_t *w,
                              float *r, float *g, float *b, float *a)
{
#ifdef ROW_X86
    if (level >= 3 && stex__unorm8_row_best() >= 3) {
        unrow_avx2(value, n, w, r, g, b, a);
        return;
    }
#endif
    (void)level;
    unrow_scalar(value, n, w, r, g, b, a);
}

void stex__unorm8_unrow(const float *value, size_t n, const uint32_t *w, float *r, float *g,
                        float *b, float *a)
{
#ifdef ROW_X86
    if (__builtin_cpu_supports("avx2")) {
        unrow_avx2(value, n, w, r, g, b, a);
        return;
    }
#endif
    unrow_scalar(value, n, w, r, g, b, a);
}

int stex__unorm8_row_best(void)
{
#ifdef ROW_X86
    return __builtin_cpu_supports("avx2") ? 3 : 2;
#else
    return 1;
#endif
}

void stex__unorm8_row_level(int level, uint32_t round, uint32_t nan, size_t n, const float *r,
                            const float *g, const float *b, const float *a, uint32_t *out)
{
    int best = stex__unorm8_row_best();
    level = level > best ? best : level;
#ifdef ROW_X86
    if (level >= 3) {
        row_avx2(round, nan, n, r, g, b, a, out);
        return;
    }
    if (level == 2) {
        row_sse2(round, nan, n, r, g, b, a, out);
        return;
    }
#endif
    row_scalar(round, nan, n, r, g, b, a, out);
}

void stex__unorm8_codes_level(int level, uint32_t round, uint32_t nan, size_t n, const float *x,
                              uint32_t *out)
{
    int best = stex__unorm8_row_best();
    level = level > best ? best : level;
#ifdef ROW_X86
    if (level >= 3) {
        codes_avx2(round, nan, n, x, out);
        return;
    }
    if (level == 2) {
        codes_sse2(round, nan, n, x, out);
        return;
    }
#endif
    codes_scalar(round, nan, n, x, out);
}

void stex__unorm8_codes(uint32_t round, uint32_t nan, size_t n, const float *x, uint32_t *out)
{
#ifdef ROW_X86
    if (__builtin_cpu_supports("avx2"))
        codes_avx2(round, nan, n, x, out);
    else
        codes_sse2(round, nan, n, x, out);
#else
    codes_scalar(round, nan, n, x, out);
#endif
}

void stex__unorm8_row(uint32_t round, uint32_t nan, size_t n, const float *r, const float *g,
                      const float *b, const float *a, uint32_t *out)
{
#ifdef ROW_X86
    if (__builtin_cpu_supports("avx2"))
        row_avx2(round, nan, n, r, g, b, a, out);
    else
        row_sse2(round, nan, n, r, g, b, a, out);
#else
    row_scalar(round, nan, n, r, g, b, a, out);
#endif
}
