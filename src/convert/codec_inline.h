/*
 * Internal: the hot formats' conversions written out inline, bit-exact with
 * the converter (tests/convert/test_fast_codec.c checks them), for the
 * inline builtins of src/shader/fast.h and the pack builtins.
 */
#ifndef STEX_CONVERT_CODEC_INLINE_H
#define STEX_CONVERT_CODEC_INLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/inline.h"

/* Inline codecs, chosen once per dispatch from the format and the profile's
 * rules (src/convert/fast.c); every other pair calls enc / dec.
 * tests/convert/test_fast_codec.c checks them against the converter. */
enum { STEX__CODEC_CALL = 0, STEX__CODEC_RGBA8UNORM, STEX__CODEC_BGRA8UNORM,
       STEX__CODEC_RGBA16FLOAT /* stores only */ };
/* unorm8 store rules, as convert/profile.h's stex_norm_round */
enum { STEX__UNORM8_EXACT_EVEN = 0, STEX__UNORM8_EXACT_HALF_UP, STEX__UNORM8_F32_EVEN,
       STEX__UNORM8_FIXED4 };


/* f32 -> unorm8 code by one of the rules (bit-exact with the converter). */
STEX__ALWAYS_INLINE uint32_t stex__unorm8_encode(uint32_t round, uint32_t nan, float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return nan;
    /* clamp on the bit pattern, without branches (in-range and clamped values
     * mix): negatives, -0, -inf -> 0; past 1, +inf -> 1 */
    u = (int32_t)u < 0 ? 0 : u;
    u = u > 0x3f800000u ? 0x3f800000u : u;
    memcpy(&x, &u, 4);
    if (round == STEX__UNORM8_FIXED4) { /* floor(x * 2^12) is exact */
        uint32_t y = (uint32_t)(x * 4096.0f);
        return (y - (y >> 8) + 7) >> 4;
    }
    if (round == STEX__UNORM8_F32_EVEN) {
        float p = x * 255.0f; /* the f32 product, rounded */
        STEX__OPAQUE(p); /* kept apart from the add below (no FMA contraction) */
        float t = p + 8388608.0f; /* + 2^23: rounds to an integer, ties to even */
        memcpy(&u, &t, 4);
        return u & 0x1ff;
    }
    /* x * 255 is exact in f64 */
    double t = (double)x * 255.0;
    if (round == STEX__UNORM8_EXACT_HALF_UP)
        return (uint32_t)(t + 0.5); /* floor(0.5 + x*S), exact below 2^-21 too */
    t += 4503599627370496.0; /* + 2^52: ties to even */
    uint64_t w;
    memcpy(&w, &t, 8);
    return (uint32_t)w & 0x1ff;
}

/* Four channels to four unorm8 codes (r in the low byte), the rule a
 * constant in each case so every channel's code is straight-line. */
STEX__ALWAYS_INLINE uint32_t stex__unorm8x4_by(uint32_t round, uint32_t nan, const float f[4])
{
    return stex__unorm8_encode(round, nan, f[0]) | stex__unorm8_encode(round, nan, f[1]) << 8
           | stex__unorm8_encode(round, nan, f[2]) << 16
           | stex__unorm8_encode(round, nan, f[3]) << 24;
}
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <emmintrin.h>
/* The unorm8 codes (0..255, one per 32-bit lane) of four floats at p on one
 * SSE2 vector: stex__unorm8_encode's clamps and products, lane by lane (the
 * converter's exactness argument holds per lane); nanv: the NaN code in
 * every lane.  Also the row encoders' core (convert/unorm8_row.c). */
STEX__ALWAYS_INLINE __m128i stex__unorm8_codes_sse2(uint32_t round, __m128i nanv, const float *p)
{
    __m128i s = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i isnan = _mm_cmpgt_epi32(_mm_and_si128(s, _mm_set1_epi32(0x7fffffff)),
                                    _mm_set1_epi32(0x7f800000));     /* -1 in NaN lanes */
    s = _mm_andnot_si128(_mm_srai_epi32(s, 31), s);                  /* negatives, -0 -> 0 */
    __m128i big = _mm_cmpgt_epi32(s, _mm_set1_epi32(0x3f800000));    /* past 1, +inf -> 1 */
    s = _mm_or_si128(_mm_andnot_si128(big, s), _mm_and_si128(big, _mm_set1_epi32(0x3f800000)));
    __m128 x = _mm_castsi128_ps(s);
    __m128i q;
    if (round == STEX__UNORM8_FIXED4) {
        __m128i y = _mm_cvttps_epi32(_mm_mul_ps(x, _mm_set1_ps(4096.0f)));
        q = _mm_srli_epi32(_mm_add_epi32(_mm_sub_epi32(y, _mm_srli_epi32(y, 8)),
                                         _mm_set1_epi32(7)), 4);
    } else if (round == STEX__UNORM8_F32_EVEN) {
        __m128 pr = _mm_mul_ps(x, _mm_set1_ps(255.0f));
        STEX__OPAQUE(pr);
        __m128 t = _mm_add_ps(pr, _mm_set1_ps(8388608.0f));
        q = _mm_and_si128(_mm_castps_si128(t), _mm_set1_epi32(0x1ff));
    } else { /* x * 255 is exact in f64: two lanes per register */
        __m128d lo = _mm_mul_pd(_mm_cvtps_pd(x), _mm_set1_pd(255.0));
        __m128d hi = _mm_mul_pd(_mm_cvtps_pd(_mm_movehl_ps(x, x)), _mm_set1_pd(255.0));
        if (round == STEX__UNORM8_EXACT_HALF_UP) {
            q = _mm_unpacklo_epi64(_mm_cvttpd_epi32(_mm_add_pd(lo, _mm_set1_pd(0.5))),
                                   _mm_cvttpd_epi32(_mm_add_pd(hi, _mm_set1_pd(0.5))));
        } else { /* + 2^52 rounds to an integer, ties to even: the low words hold it */
            lo = _mm_add_pd(lo, _mm_set1_pd(4503599627370496.0));
            hi = _mm_add_pd(hi, _mm_set1_pd(4503599627370496.0));
            q = _mm_castps_si128(_mm_shuffle_ps(_mm_castpd_ps(lo), _mm_castpd_ps(hi),
                                                _MM_SHUFFLE(2, 0, 2, 0)));
            q = _mm_and_si128(q, _mm_set1_epi32(0x1ff));
        }
    }
    return _mm_or_si128(_mm_andnot_si128(isnan, q), _mm_and_si128(isnan, nanv));
}

/* The four conversions of a texel on one SSE2 vector, the codes packed to
 * bytes with two saturating packs. */
STEX__ALWAYS_INLINE uint32_t stex__unorm8x4_sse2(uint32_t round, uint32_t nan, const float f[4])
{
    __m128i q = stex__unorm8_codes_sse2(round, _mm_set1_epi32((int)nan), f);
    q = _mm_packs_epi32(q, q); /* codes are 0..255: both packs are exact */
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(q, q));
}
#define stex__unorm8x4_by stex__unorm8x4_sse2
#endif
STEX__ALWAYS_INLINE uint32_t stex__unorm8x4(uint32_t round, uint32_t nan, const float f[4])
{
    switch (round) {
    case STEX__UNORM8_F32_EVEN: return stex__unorm8x4_by(STEX__UNORM8_F32_EVEN, nan, f);
    case STEX__UNORM8_FIXED4: return stex__unorm8x4_by(STEX__UNORM8_FIXED4, nan, f);
    case STEX__UNORM8_EXACT_HALF_UP: return stex__unorm8x4_by(STEX__UNORM8_EXACT_HALF_UP, nan, f);
    default: return stex__unorm8x4_by(STEX__UNORM8_EXACT_EVEN, nan, f);
    }
}

/* A 4-byte store into texture or buffer memory, aligned (texel offsets are
 * multiples of the texel size, buffer offsets of 256).  Typed as uint32_t,
 * not bytes: a byte store may alias anything, so the compiler would reload
 * every engine pointer after each one; this store cannot change a pointer,
 * so a workgroup loop keeps them in registers. */
STEX__ALWAYS_INLINE void stex__store32(uint8_t *p, uint32_t w)
{
    *(uint32_t *)(void *)p = w;
}

STEX__ALWAYS_INLINE void stex__put_le32(uint8_t *p, uint32_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    stex__store32(p, w); /* one store */
#else
    p[0] = (uint8_t)w, p[1] = (uint8_t)(w >> 8), p[2] = (uint8_t)(w >> 16), p[3] = (uint8_t)(w >> 24);
#endif
}

/* Four f32 to f16 when every result is zero or a normal f16 (|x| in
 * [2^-14, 65504]): then the profiles' roundings - to nearest even, or toward
 * zero - are a few integer operations on the bits.  Anything else (an f16
 * subnormal, overflow, infinity, NaN: where profiles differ) returns false
 * and the converter decides. */
STEX__ALWAYS_INLINE bool stex__f16x4_normal(uint32_t even, const float f[4], uint64_t *out)
{
    uint32_t u[4];
    memcpy(u, f, 16);
    uint64_t r = 0;
    bool ok = true;
    for (int c = 0; c < 4; c++) {
        uint32_t a = u[c] & 0x7fffffffu;
        ok &= (a - 0x38800000u <= 0x477fe000u - 0x38800000u) | (a == 0);
        uint32_t h = (a >> 13) - (112u << 10); /* rebias 127 -> 15, truncated */
        uint32_t rest = a & 0x1fffu;
        if (even) /* past half, or a tie with an odd result: up (a carry is exact) */
            h += (rest > 0x1000u) | ((rest == 0x1000u) & h);
        h = a ? h : 0;
        r |= (uint64_t)((h & 0x7fffu) | ((u[c] >> 16) & 0x8000u)) << (16 * c);
    }
    *out = r;
    return ok;
}

#endif
