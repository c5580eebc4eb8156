/*
 * convert/scalar.h - the scalar conversions every texel path is built from,
 * each driven by a rule struct of convert/profile.h.  Inline, so that the
 * per-format encoders of texel.c specialise them; exact integer arithmetic
 * wherever a rounding decision is made (no dependence on the FPU's mode or
 * on the compiler contracting a multiply-add).
 */
#ifndef STEX_CONVERT_SCALAR_H
#define STEX_CONVERT_SCALAR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "convert/profile.h"

static inline uint32_t stex_f32_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static inline float stex_bits_f32(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* How a non-negative magnitude is rounded to an integer. */
enum { STEX_MAG_EVEN, STEX_MAG_HALF_UP, STEX_MAG_HALF_DOWN, STEX_MAG_TRUNC };

/* round(v * 2^-sh) for an integer v < 2^41, exactly, in the given tie mode.
 * Branch-free: the tie decisions depend on the data and would mispredict. */
static inline uint32_t stex_round_shift(uint64_t v, unsigned sh, int mode)
{
    sh = sh > 63 ? 63 : sh; /* v < 2^41: any shift past 41 leaves 0 and rem < half */
    uint64_t q = v >> sh, rem = v & ((UINT64_C(1) << sh) - 1);
    uint64_t half = (UINT64_C(1) << sh) >> 1, up;
    switch (mode) {
    case STEX_MAG_EVEN: up = (rem > half) | ((rem == half) & q & (sh != 0)); break;
    case STEX_MAG_HALF_UP: up = (rem >= half) & (sh != 0); break;
    case STEX_MAG_HALF_DOWN: up = rem > half; break;
    default: up = 0; break;
    }
    return (uint32_t)(q + (up & 1));
}

/* round(|x| * S) for S = 2^m - 1 and 0 <= |x| <= 1 (bits of |x| given). */
static inline uint32_t stex_norm_magnitude(stex_norm_round round, uint32_t ax, unsigned m,
                                           int neg)
{
    uint32_t e = ax >> 23, man = ax & 0x7fffff;
    uint64_t M = e ? (man | 0x800000u) : man;
    unsigned sh = 150 - (e ? e : 1); /* |x| = M * 2^-sh; e <= 127 so sh >= 23 */
    uint64_t S = (UINT64_C(1) << m) - 1;
    switch (round) {
    case STEX_NORM_ROUND_EXACT_EVEN:
        return stex_round_shift(M * S, sh, STEX_MAG_EVEN);
    case STEX_NORM_ROUND_EXACT_HALF_UP:
        /* floor(0.5 + x*S): ties go up in value, i.e. down in magnitude below 0 */
        return stex_round_shift(M * S, sh, neg ? STEX_MAG_HALF_DOWN : STEX_MAG_HALF_UP);
    case STEX_NORM_ROUND_F32_EVEN: {
        /* the f32 product, rounded to nearest even as IEEE multiply does */
        uint64_t P = M * S; /* exact product = P * 2^-sh, < 2^40 */
        unsigned top = 63 - (unsigned)__builtin_clzll(P | 1); /* P's highest bit */
        unsigned drop = top > 23 ? top - 23 : 0;              /* keep 24 significant bits */
        /* IEEE rounding of P to 24 bits (subnormal products are < 1 ulp of
         * the integer grid and round to 0 below anyway) */
        P = (uint64_t)stex_round_shift(P, drop, STEX_MAG_EVEN) << drop;
        return stex_round_shift(P, sh, STEX_MAG_EVEN);
    }
    case STEX_NORM_ROUND_FIXED4_HALF_DOWN: {
        unsigned s2 = sh - (m + 4); /* Y = floor(|x| * 2^(m+4)); sh >= 23 > m + 4 */
        uint64_t Y = M >> (s2 > 63 ? 63 : s2);
        return (uint32_t)((Y - (Y >> m) + 7) >> 4);
    }
    }
    return 0;
}

/* f32 -> m-bit unorm, S = 2^m - 1. */
static inline uint32_t stex_norm_to_unorm(const stex_norm_rules *r, float x, unsigned m)
{
    uint32_t S = (1u << m) - 1, u = stex_f32_bits(x);
    if ((u & 0x7fffffff) > 0x7f800000) /* NaN: rare, so a predictable branch */
        return r->nan_unorm == STEX_NORM_NAN_MAX ? S : 0;
    /* clamp to [0, 1] on the bit pattern (negatives, -0, -inf -> 0; >= 1,
     * +inf -> 1.0); without branches, as in-range and clamped values mix */
    u = (int32_t)u < 0 ? 0 : u;
    u = u > 0x3f800000 ? 0x3f800000 : u;
    return stex_norm_magnitude(r->round, u, m, 0);
}

/* f32 -> n-bit snorm (m = n - 1 magnitude bits, S = 2^m - 1). */
static inline int32_t stex_norm_to_snorm(const stex_norm_rules *r, float x, unsigned n)
{
    unsigned m = n - 1;
    int32_t S = (int32_t)((1u << m) - 1);
    int32_t lo = r->snorm_min == STEX_SNORM_MIN_FULL ? -S - 1 : -S;
    uint32_t u = stex_f32_bits(x), ax = u & 0x7fffffff;
    if (ax > 0x7f800000)
        return r->nan_snorm == STEX_NORM_NAN_MAX ? S : r->nan_snorm == STEX_NORM_NAN_MIN ? lo : 0;
    bool neg = u >> 31, sat = ax >= 0x3f800000;
    ax = sat ? 0x3f800000 : ax;
    int32_t q = (int32_t)stex_norm_magnitude(r->round, ax, m, neg); /* S when saturated */
    q = neg ? -q : q;
    return neg && sat ? lo : q;
}

/* f32 -> small float with 5 exponent bits and `mb` mantissa bits (f16: 10,
 * ufloat11: 6, ufloat10: 5); `has_sign` false for the unsigned ones. */
static inline uint32_t stex_float_to_small(const stex_float_rules *r, uint32_t u, unsigned mb,
                                           bool has_sign)
{
    uint32_t sign = has_sign ? (u >> 31) << (mb + 5) : 0;
    uint32_t e = (u >> 23) & 0xff, man = u & 0x7fffff;
    uint32_t inf = 0x1fu << mb, maxfin = inf - 1, quiet = 1u << (mb - 1);
    if (e == 0xff && man) { /* NaN; the unsigned formats drop its sign */
        uint32_t payload = man >> (23 - mb);
        switch (r->nan) {
        case STEX_FLOAT_NAN_QUIET_PAYLOAD: return sign | inf | quiet | payload;
        case STEX_FLOAT_NAN_KEEP_PAYLOAD: return sign | inf | (payload ? payload : 1);
        case STEX_FLOAT_NAN_CANONICAL_SIGNED: return sign | inf | quiet;
        case STEX_FLOAT_NAN_ALL_ONES: return inf | (quiet * 2 - 1);
        }
    }
    if (!has_sign && (u >> 31))
        return 0;              /* negative (and -inf) -> 0 */
    if (e == 0xff)
        return sign | inf;     /* +-inf */
    if (e == 0)
        return sign;           /* f32 subnormals are far below the smallest f16 */
    int E = (int)e - 127;
    uint32_t q;
    if (E > 15) {
        q = inf;               /* past every finite value: overflow below */
    } else {
        uint64_t sig = man | 0x800000u; /* |x| = sig * 2^(E-23) */
        unsigned sh;
        uint32_t base;
        if (E >= -14) {        /* normal result: keep mb mantissa bits */
            sh = 23 - mb;
            base = (uint32_t)(E + 15) << mb;
            sig = man;
        } else {               /* subnormal result: quantum 2^(-14-mb) */
            sh = (unsigned)(9 - (int)mb - E); /* (-14 - mb) - (E - 23) */
            base = 0;
        }
        q = base + stex_round_shift(sig, sh, 
                                   r->round == STEX_FLOAT_ROUND_EVEN ? STEX_MAG_EVEN : STEX_MAG_TRUNC);
        if (r->subnormal == STEX_FLOAT_SUBNORMAL_FLUSH && q < (1u << mb))
            q = 0;
    }
    if (q >= inf)
        q = r->overflow == STEX_FLOAT_OVERFLOW_INF ? inf : maxfin;
    return sign | q;
}

/* small float -> f32 bits. */
static inline uint32_t stex_small_to_float(stex_nan_decode nan, uint32_t h, unsigned mb,
                                           bool has_sign)
{
    uint32_t sign = has_sign ? ((h >> (mb + 5)) & 1) << 31 : 0;
    uint32_t e = (h >> mb) & 0x1f, man = h & ((1u << mb) - 1);
    if (e == 0x1f) {
        if (!man)
            return sign | 0x7f800000;
        switch (nan) {
        case STEX_NAN_DECODE_QUIET: return sign | 0x7fc00000 | (man << (23 - mb));
        case STEX_NAN_DECODE_KEEP: return sign | 0x7f800000 | (man << (23 - mb));
        case STEX_NAN_DECODE_CANONICAL: return 0x7fffe000;
        }
    }
    if (e == 0) { /* subnormal: man * 2^(-14-mb), exact in f32 */
        float v = (float)man * stex_bits_f32((uint32_t)(127 - 14 - (int)mb) << 23);
        return sign | stex_f32_bits(v);
    }
    return sign | ((e + 112) << 23) | (man << (23 - mb));
}

/* k -> f32 for an m-bit unorm (or snorm magnitude), S = 2^m - 1. */
static inline float stex_unorm_value(stex_norm_decode d, int32_t k, unsigned m)
{
    uint32_t S = (1u << m) - 1;
    if (d == STEX_NORM_DECODE_MUL_RECIP)
        return (float)k * (1.0f / (float)S);
    /* k * (1/S) in double is within 2^-51 of k/S, and k/S is never within
     * 2^-40 (relative) of an f32 rounding boundary: correctly rounded */
    return (float)((double)k * (1.0 / (double)S));
}

static inline float stex_snorm_value(stex_norm_decode d, stex_snorm_min_decode min, int32_t k,
                                     unsigned n)
{
    int32_t S = (int32_t)((1u << (n - 1)) - 1);
    if (k < -S && min == STEX_SNORM_MIN_DECODE_RAW)
        return stex_unorm_value(d, k, n - 1);
    if (k <= -S)
        return -1.0f; /* -S and -(S+1) both read -1.0 */
    return stex_unorm_value(d, k, n - 1);
}

#endif
