/*
 * convert/profile.h - the table of choices a device profile makes.
 *
 * WebGPU and WGSL leave some conversions open (tie rounding, NaN, f16
 * overflow, decode precision...).  A profile is one constant instance of
 * struct stex_profile; the one converter (scalar.c, texel.c, pack.c) reads
 * its fields and never tests which profile it runs.  The three instances and
 * the source of every value are in profile.c; docs/profiles.md explains them.
 */
#ifndef STEX_CONVERT_PROFILE_H
#define STEX_CONVERT_PROFILE_H

#include <stdint.h>

#include "stex/convert.h"

/* f32 -> unorm/snorm integer: how x*S (S = 2^m - 1) becomes an integer. */
typedef enum stex_norm_round {
    /* round half to even on the exact real product x*S */
    STEX_NORM_ROUND_EXACT_EVEN,
    /* round half up on the exact product: floor(0.5 + x*S) (WGSL pack text) */
    STEX_NORM_ROUND_EXACT_HALF_UP,
    /* the product is rounded to f32 first, then half to even (lavapipe) */
    STEX_NORM_ROUND_F32_EVEN,
    /* |x| truncated to m+4 fractional bits, Y - (Y >> m) rounded half down
     * at 4 guard bits: q = (Y - (Y >> m) + 7) >> 4 (NVIDIA textureStore) */
    STEX_NORM_ROUND_FIXED4_HALF_DOWN
} stex_norm_round;

/* What a NaN becomes in a unorm/snorm channel. */
typedef enum stex_norm_nan {
    STEX_NORM_NAN_ZERO,     /* 0 */
    STEX_NORM_NAN_MAX,      /* +S (255, 127...) */
    STEX_NORM_NAN_MIN       /* the lowest code: 0 for unorm, -S (or -(S+1)) for snorm */
} stex_norm_nan;

/* What -1.0 (and anything below) becomes in snorm. */
typedef enum stex_snorm_min {
    STEX_SNORM_MIN_SYMMETRIC,   /* -S = -(2^(n-1) - 1): -127 for 8 bits */
    STEX_SNORM_MIN_FULL         /* -(S + 1): -128 for 8 bits */
} stex_snorm_min;

typedef struct stex_norm_rules {
    stex_norm_round round;
    stex_norm_nan nan_unorm;
    stex_norm_nan nan_snorm;
    stex_snorm_min snorm_min;
} stex_norm_rules;

/* f32 -> small float (f16, ufloat11, ufloat10). */
typedef enum stex_float_round {
    STEX_FLOAT_ROUND_EVEN,   /* IEEE round to nearest, ties to even */
    STEX_FLOAT_ROUND_ZERO    /* truncate toward zero */
} stex_float_round;

typedef enum stex_float_overflow {
    STEX_FLOAT_OVERFLOW_INF,       /* finite values past the range -> +-inf */
    STEX_FLOAT_OVERFLOW_SATURATE   /* -> +-largest finite (65504 for f16) */
} stex_float_overflow;

typedef enum stex_float_subnormal {
    STEX_FLOAT_SUBNORMAL_KEEP,     /* produce subnormal results */
    STEX_FLOAT_SUBNORMAL_FLUSH     /* subnormal results become signed zero */
} stex_float_subnormal;

/* f32 NaN -> small float NaN.  payload = the top mantissa bits that fit. */
typedef enum stex_float_nan {
    STEX_FLOAT_NAN_QUIET_PAYLOAD,  /* sign | exp | quiet bit | payload */
    STEX_FLOAT_NAN_KEEP_PAYLOAD,   /* sign | exp | payload, payload 0 -> 1 (not quieted) */
    STEX_FLOAT_NAN_CANONICAL_SIGNED, /* sign | exp | quiet bit */
    STEX_FLOAT_NAN_ALL_ONES        /* exp | all mantissa bits, sign clear (0x7fff) */
} stex_float_nan;

typedef struct stex_float_rules {
    stex_float_round round;
    stex_float_overflow overflow;
    stex_float_subnormal subnormal;
    stex_float_nan nan;
} stex_float_rules;

/* An sRGB-encoded 8-bit code k -> linear f32 (texture loads and filtering
 * of the -srgb formats). */
typedef enum stex_srgb_decode {
    STEX_SRGB_DECODE_EXACT,    /* the sRGB EOTF of k / 255, correctly rounded */
    STEX_SRGB_DECODE_LLVMPIPE, /* llvmpipe's: k / 12.6 / 255 up to 15, else a cubic in k */
    STEX_SRGB_DECODE_NVIDIA    /* the H200's table, as measured */
} stex_srgb_decode;

/* unorm/snorm k -> f32. */
typedef enum stex_norm_decode {
    STEX_NORM_DECODE_EXACT,       /* the correctly rounded f32 of k / S */
    STEX_NORM_DECODE_MUL_RECIP    /* f32(k * f32(1 / S)) */
} stex_norm_decode;

/* What the one code below -S (-128 for 8 bits) reads as. */
typedef enum stex_snorm_min_decode {
    STEX_SNORM_MIN_DECODE_MINUS_ONE,  /* max(k / S, -1): -1.0 */
    STEX_SNORM_MIN_DECODE_RAW         /* k / S: -128/127 */
} stex_snorm_min_decode;

/* small-float NaN -> f32 NaN (payload shifted into the top mantissa bits). */
typedef enum stex_nan_decode {
    STEX_NAN_DECODE_QUIET,       /* sign | 0x7fc00000 | payload */
    STEX_NAN_DECODE_KEEP,        /* sign | 0x7f800000 | payload (signalling stays) */
    STEX_NAN_DECODE_CANONICAL    /* 0x7fffe000 whatever the input (a filter's NaN) */
} stex_nan_decode;

/* Integers wider than the channel. */
typedef enum stex_int_range {
    STEX_INT_CLAMP,   /* saturate to the channel's range */
    STEX_INT_WRAP     /* keep the low bits */
} stex_int_range;

/* rgb10a2unorm's 2-bit alpha. */
typedef enum stex_alpha2 {
    STEX_ALPHA2_DIRECT,        /* the unorm rule with m = 2 */
    STEX_ALPHA2_FROM_10BIT     /* a = (q10 + 128) / 320 with q10 the 10-bit result */
} stex_alpha2;

/* What a linear filter sees for one texel (textureSampleLevel at an exact
 * texel centre with weight 1 on it), where it differs from textureLoad. */
typedef struct stex_filter_rules {
    /* snorm8 widened to snorm16 as |k| * (258 + 1/128) rounded half to even
     * (bit replication but for 64), then decoded as snorm16 (NVIDIA); false:
     * the texel decodes as for a load */
    int snorm8_widen16;
    stex_nan_decode f16_nan;   /* NaN as filtered */
} stex_filter_rules;

struct stex_profile {
    stex_profile_id id;
    /* textureStore */
    stex_norm_rules store_norm;
    stex_float_rules store_f16;
    stex_float_rules store_ufloat;   /* rg11b10ufloat; no sign bit */
    stex_alpha2 alpha2;
    stex_int_range store_int;
    /* textureLoad */
    stex_norm_decode load_norm;
    stex_snorm_min_decode load_snorm_min;
    stex_nan_decode load_f16_nan;    /* also ufloat NaNs */
    stex_srgb_decode load_srgb;      /* r, g, b of the -srgb formats */
    /* filtered sample of one texel (stex_decode_texel_filtered) */
    stex_filter_rules filter;
    /* WGSL pack/unpack builtins */
    stex_norm_rules pack_norm;
    stex_float_rules pack_f16;
    stex_norm_decode unpack_norm;
    stex_nan_decode unpack_f16_nan;
};

#endif
