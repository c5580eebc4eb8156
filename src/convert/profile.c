/* The three profiles: one constant table of choices each, with the source of
 * every value (docs/profiles.md says the same at more length). */
#include "convert/profile.h"

#include <string.h>

/* spec: the WebGPU/WGSL rules; where they leave a choice, the lessons' (seed
 * 001) or the IEEE-754 default. */
static const stex_profile profile_spec = {
    .id = STEX_PROFILE_SPEC,
    .store_norm = {
        /* WebGPU defers to the float->normalized rule "round to nearest"; the
         * exact real product and ties-to-even are the IEEE default rounding */
        .round = STEX_NORM_ROUND_EXACT_EVEN,
        /* NaN -> 0 (D3D's and the brief's rule; the spec leaves NaN open) */
        .nan_unorm = STEX_NORM_NAN_ZERO,
        .nan_snorm = STEX_NORM_NAN_ZERO,
        /* seed 001: "[-1, 1] se mapea a [-127, 127]" */
        .snorm_min = STEX_SNORM_MIN_SYMMETRIC,
    },
    /* IEEE-754 convertFormat: round to nearest even, overflow -> inf (seed 001:
     * "se convierten a infinito"), subnormals kept, sNaN quieted with the
     * payload's top bits kept (IEEE-754 6.2.3) - what F16C's vcvtps2ph does */
    .store_f16 = {STEX_FLOAT_ROUND_EVEN, STEX_FLOAT_OVERFLOW_INF,
                  STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_QUIET_PAYLOAD},
    /* the same family for the unsigned 11/10-bit floats (negatives -> 0) */
    .store_ufloat = {STEX_FLOAT_ROUND_EVEN, STEX_FLOAT_OVERFLOW_INF,
                     STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_QUIET_PAYLOAD},
    /* a 2-bit unorm channel converts like any other */
    .alpha2 = STEX_ALPHA2_DIRECT,
    /* WGSL textureStore: 8/16-bit integer channels saturate */
    .store_int = STEX_INT_CLAMP,
    /* unorm k reads k / S; f32 result correctly rounded */
    .load_norm = STEX_NORM_DECODE_EXACT,
    /* Vulkan/WebGPU: snorm decodes as max(k / S, -1), so -128 reads -1.0 */
    .load_snorm_min = STEX_SNORM_MIN_DECODE_MINUS_ONE,
    /* f16 -> f32 widening is exact; NaNs come back quiet (IEEE convertFormat) */
    .load_f16_nan = STEX_NAN_DECODE_QUIET,
    /* the sRGB EOTF (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4) of
     * c = k / 255, correctly rounded */
    .load_srgb = STEX_SRGB_DECODE_EXACT,
    .filter = {.snorm8_widen16 = 0, .f16_nan = STEX_NAN_DECODE_QUIET},
    .pack_norm = {
        /* WGSL 17.9: floor(0.5 + S * min(1, max(lo, e))) - half up */
        .round = STEX_NORM_ROUND_EXACT_HALF_UP,
        /* WGSL max(lo, NaN) returns lo (the non-NaN operand): 0 and -S */
        .nan_unorm = STEX_NORM_NAN_MIN,
        .nan_snorm = STEX_NORM_NAN_MIN,
        .snorm_min = STEX_SNORM_MIN_SYMMETRIC,
    },
    /* WGSL pack2x16float: "converted to an IEEE-754 binary16 value"; out of
     * range is indeterminate, so the IEEE default (inf) */
    .pack_f16 = {STEX_FLOAT_ROUND_EVEN, STEX_FLOAT_OVERFLOW_INF,
                 STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_QUIET_PAYLOAD},
    /* WGSL unpack4x8unorm: v / 255 */
    .unpack_norm = STEX_NORM_DECODE_EXACT,
    .unpack_f16_nan = STEX_NAN_DECODE_QUIET,
};

/* lavapipe: Mesa 25.0.7 / LLVM 15, conformance/lavapipe (vectors.tsv,
 * analysis.txt).  "measured" = fitted to every vector; "assumed" = the format
 * or path is not available there, so the nearest measured rule is reused. */
static const stex_profile profile_lavapipe = {
    .id = STEX_PROFILE_LAVAPIPE,
    .store_norm = {
        .round = STEX_NORM_ROUND_F32_EVEN,    /* measured: roundHalfEven(f32(x*S)) */
        .nan_unorm = STEX_NORM_NAN_MAX,       /* measured: NaN -> 255 */
        .nan_snorm = STEX_NORM_NAN_MAX,       /* measured: NaN -> 127 */
        .snorm_min = STEX_SNORM_MIN_SYMMETRIC, /* measured: -1, -inf -> 0x81 */
    },
    /* measured (rgba16float): round toward zero, 65520.. -> 0x7bff, only inf
     * stores inf, subnormals produced, NaN -> sign|0x7e00|(m >> 13) */
    .store_f16 = {STEX_FLOAT_ROUND_ZERO, STEX_FLOAT_OVERFLOW_SATURATE,
                  STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_QUIET_PAYLOAD},
    /* assumed: rg11b10ufloat is tier1, lavapipe lacks it; its f16 path reused */
    .store_ufloat = {STEX_FLOAT_ROUND_ZERO, STEX_FLOAT_OVERFLOW_SATURATE,
                     STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_QUIET_PAYLOAD},
    .alpha2 = STEX_ALPHA2_DIRECT,             /* assumed (tier1 format) */
    .store_int = STEX_INT_CLAMP,              /* measured: 256 -> 255, -129 -> -128 */
    .load_norm = STEX_NORM_DECODE_MUL_RECIP,  /* measured: 0 mismatches of 256 */
    .load_snorm_min = STEX_SNORM_MIN_DECODE_MINUS_ONE, /* measured: 0x80 -> -1.0 */
    .load_f16_nan = STEX_NAN_DECODE_QUIET,    /* measured: 2046/2046 quieted */
    /* measured (tests/data/lavapipe-srgb-decode.json): llvmpipe's
     * lp_build_srgb_to_linear, 256 of 256 codes */
    .load_srgb = STEX_SRGB_DECODE_LLVMPIPE,
    /* filtered NaNs are dominated by neighbour contamination (0 * inf) on
     * lavapipe; a lone texel is taken to filter as it loads */
    .filter = {.snorm8_widen16 = 0, .f16_nan = STEX_NAN_DECODE_QUIET},
    .pack_norm = {
        .round = STEX_NORM_ROUND_F32_EVEN,    /* measured, ties to even */
        .nan_unorm = STEX_NORM_NAN_MIN,       /* measured: NaN -> 0 */
        .nan_snorm = STEX_NORM_NAN_MIN,       /* measured: NaN -> -127 / -32767 */
        .snorm_min = STEX_SNORM_MIN_SYMMETRIC,
    },
    /* measured: nearest even, 65520 -> inf, NaN -> sign|0x7e00 */
    .pack_f16 = {STEX_FLOAT_ROUND_EVEN, STEX_FLOAT_OVERFLOW_INF,
                 STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_CANONICAL_SIGNED},
    /* measured (wgslexpr.tsv): unpack4x8unorm(0x7c) = 0x3ef8f8f9, the
     * correctly rounded 124/255, unlike its textureLoad */
    .unpack_norm = STEX_NORM_DECODE_EXACT,
    .unpack_f16_nan = STEX_NAN_DECODE_QUIET,   /* measured: 0x7e00 -> 0x7fc00000 */
};

/* nvidia: H200, driver 580.159, Dawn on Vulkan, conformance/nvidia. */
static const stex_profile profile_nvidia = {
    .id = STEX_PROFILE_NVIDIA,
    .store_norm = {
        /* measured (8, 10, 16 bits): Y = floor(|x| 2^(m+4)),
         * q = (Y - (Y >> m) + 7) >> 4; 0.5 -> 127 */
        .round = STEX_NORM_ROUND_FIXED4_HALF_DOWN,
        .nan_unorm = STEX_NORM_NAN_ZERO,      /* measured */
        .nan_snorm = STEX_NORM_NAN_ZERO,      /* measured */
        .snorm_min = STEX_SNORM_MIN_SYMMETRIC, /* measured: never -2^(n-1) */
    },
    /* measured: truncation, > 65504 -> 0x7bff, inf stays, subnormals kept,
     * NaN -> sign|0x7c00|(m >> 13) with payload 0 -> 1 (not quieted) */
    .store_f16 = {STEX_FLOAT_ROUND_ZERO, STEX_FLOAT_OVERFLOW_SATURATE,
                  STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_KEEP_PAYLOAD},
    /* measured (rg11b10ufloat): the same path, sign dropped */
    .store_ufloat = {STEX_FLOAT_ROUND_ZERO, STEX_FLOAT_OVERFLOW_SATURATE,
                     STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_KEEP_PAYLOAD},
    .alpha2 = STEX_ALPHA2_FROM_10BIT,         /* measured: a = (q10 + 128) / 320 */
    .store_int = STEX_INT_CLAMP,              /* measured */
    .load_norm = STEX_NORM_DECODE_EXACT,      /* measured: 8 and 16 bits */
    .load_snorm_min = STEX_SNORM_MIN_DECODE_MINUS_ONE, /* measured: 0x80 -> -1.0 */
    .load_f16_nan = STEX_NAN_DECODE_KEEP,     /* measured: 0x7c01 -> 0x7f802000 */
    .load_srgb = STEX_SRGB_DECODE_NVIDIA,     /* measured: 256 of 256 codes (a table) */
    /* measured (sample-linear at texel centres): snorm8 filters as snorm16
     * with replicated bits; every f16 NaN filters to 0x7fffe000 */
    .filter = {.snorm8_widen16 = 1, .f16_nan = STEX_NAN_DECODE_CANONICAL},
    .pack_norm = {
        .round = STEX_NORM_ROUND_F32_EVEN,    /* measured: pack4x8unorm(0.5) = 128 */
        .nan_unorm = STEX_NORM_NAN_ZERO,      /* measured */
        .nan_snorm = STEX_NORM_NAN_MAX,       /* measured: +127 / +32767 */
        .snorm_min = STEX_SNORM_MIN_SYMMETRIC,
    },
    /* measured: nearest even, overflow -> inf, every NaN -> 0x7fff */
    .pack_f16 = {STEX_FLOAT_ROUND_EVEN, STEX_FLOAT_OVERFLOW_INF,
                 STEX_FLOAT_SUBNORMAL_KEEP, STEX_FLOAT_NAN_ALL_ONES},
    /* measured (wgslexpr.tsv): k * f32(1/S), unpack4x8unorm(0x7c) = 0x3ef8f8fa,
     * unlike its textureLoad; NaNs come out 0x7fffffff (the math layer's
     * canonical NaN, applied on top of this widening) */
    .unpack_norm = STEX_NORM_DECODE_MUL_RECIP,
    .unpack_f16_nan = STEX_NAN_DECODE_KEEP,
};

static const stex_profile *const profiles[STEX_PROFILE_COUNT] = {
    [STEX_PROFILE_SPEC] = &profile_spec,
    [STEX_PROFILE_LAVAPIPE] = &profile_lavapipe,
    [STEX_PROFILE_NVIDIA] = &profile_nvidia,
};

static const char *const profile_names[STEX_PROFILE_COUNT] = {
#define NAME_(id, name, summary) [STEX_PROFILE_##id] = name,
    STEX_PROFILES(NAME_)
#undef NAME_
};

static const char *const profile_summaries[STEX_PROFILE_COUNT] = {
#define SUMMARY_(id, name, summary) [STEX_PROFILE_##id] = summary,
    STEX_PROFILES(SUMMARY_)
#undef SUMMARY_
};

const stex_profile *stex_profile_get(stex_profile_id id)
{
    if ((unsigned)id >= STEX_PROFILE_COUNT)
        return NULL;
    return profiles[id];
}

stex_profile_id stex_profile_id_of(const stex_profile *p)
{
    return p ? p->id : STEX_PROFILE_SPEC;
}

const char *stex_profile_name(stex_profile_id id)
{
    return (unsigned)id < STEX_PROFILE_COUNT ? profile_names[id] : "?";
}

const char *stex_profile_summary(stex_profile_id id)
{
    return (unsigned)id < STEX_PROFILE_COUNT ? profile_summaries[id] : "?";
}

bool stex_profile_from_name(const char *name, stex_profile_id *out)
{
    for (int i = 0; name && i < STEX_PROFILE_COUNT; i++)
        if (strcmp(name, profile_names[i]) == 0) {
            if (out)
                *out = (stex_profile_id)i;
            return true;
        }
    return false;
}
