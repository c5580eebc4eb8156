/*
 * math/rules.c - the three profiles' arithmetic choices, with the source of
 * every value ("measured" = fitted to every storage row of the device's
 * wgslexpr.tsv and replayed by tests/math/test_replay.c), and the
 * out-of-bounds policy query.
 */
#include "math/rules.h"

/* spec: IEEE-754 binary32 with WGSL's definitions; where WGSL leaves a
 * choice, the IEEE-754 recommendation or the simplest safe rule. */
static const stex_math_rules rules_spec = {
    .flush_subnormals = false,       /* WGSL allows flushing; IEEE keeps them */
    .nan_canonical = false,          /* IEEE 6.2.3: a NaN operand passes through, quieted */
    .default_nan = 0x7fc00000u,      /* a new NaN: the positive quiet NaN */
    .contract = false,               /* a*b+c rounds twice; fma() once */
    .fma_fused = true,
    .minmax = STEX_RULE_MINMAX_IEEE,
    .smoothstep = STEX_RULE_SMOOTH_TT_FIRST,
    .ldexp = STEX_RULE_LDEXP_EXACT,
    .rem = STEX_RULE_REM_EXACT,      /* x - y*trunc(x/y) in real numbers: exact */
    .clamp = STEX_RULE_CLAMP_MIN_MAX,
    .step = STEX_RULE_STEP_LE,       /* WGSL: 1.0 if edge <= x */
    .mix = STEX_RULE_MIX_TWO_PRODUCTS,
    .frexp = STEX_RULE_FREXP_EXACT,
    .nan_to_i32 = 0,                 /* NaN -> 0 */
    .approx = NULL,                  /* everything correctly rounded */
    .f16 = STEX_RULE_F16_IEEE,       /* binary16, transcendentals correctly rounded */
    /* WGSL 14.4: an out-of-bounds load may return 0 and a store be dropped */
    .const_eval = STEX_CONST_WGSL,
    .oob_fixed = STEX_OOB_ZERO,
    .oob_runtime = STEX_OOB_ZERO,
    .oob_function = STEX_OOB_ZERO,
    .oob_byte_wrap = false,
};

/* lavapipe: Mesa 25.0.7 / LLVM 15 (x86 SSE semantics) */
static const stex_math_rules rules_lavapipe = {
    .flush_subnormals = false,       /* measured: 1780/1780 subnormal inputs, all results kept */
    .nan_canonical = false,          /* measured: the first NaN operand, quieted */
    .default_nan = 0xffc00000u,      /* measured: x86's default NaN (inf - inf) */
    .contract = false,               /* measured: 509/509 probe rows unfused */
    .fma_fused = false,              /* measured: fma() too, 509/509 rows */
    .minmax = STEX_RULE_MINMAX_SELECT, /* measured: min(-0, +0) = +0, sNaN kept */
    .smoothstep = STEX_RULE_SMOOTH_T_LAST, /* measured: 3237/3237 finite rows */
    .ldexp = STEX_RULE_LDEXP_TWO_POWERS, /* measured: ldexp(2^-149, 255) = 2^105 */
    .rem = STEX_RULE_REM_ROUNDED,        /* measured: f32 x - y*trunc(x/y) in 8464/8464 */
    .clamp = STEX_RULE_CLAMP_MIN_MAX,
    .step = STEX_RULE_STEP_NOT_LT,   /* measured: step(0, NaN) = 1 */
    .mix = STEX_RULE_MIX_TWO_PRODUCTS, /* measured: 4096/4096 */
    .frexp = STEX_RULE_FREXP_FIELD,  /* measured: 0x00000001 -> 0x3f000001, -126 */
    .nan_to_i32 = 0x80000000u,       /* measured: cvttss2si's "integer indefinite" */
    .approx = &stex_math_approx_lavapipe,
    /* measured (tests/data/f16expr-lavapipe.tsv.gz): every f16 operation is
     * the f32 one rounded to f16; fma and a*b+c round twice in f16 */
    .f16 = STEX_RULE_F16_VIA_F32,
    .f16_convert_nan_canonical = true, /* measured: f16(0x7fd0e508) = 0x7e00 */
    .f16_nir_lowering = true,        /* measured: see f16_models.h for what is left */
    .f16_nan_to_int_low = true,      /* measured: i32(NaN) = -65504, u32(NaN) = 0 */
    .const_eval = STEX_CONST_TINT,  /* measured through Dawn: tests/math/test_const.c */
    .matmul = STEX_MATMUL_FMA_FROM_LAST, /* measured: tests/data/difftest/regress/mat4x2-times-vec4-rounding.wgsl */
    /* measured: tests/data/difftest/regress/nir-*.wgsl, one per rule */
    .rewrite = STEX_FLOAT_REWRITE_NIR,
    .oob_fixed = STEX_OOB_CLAMP,     /* measured: index 4, 100, 2^32-1 -> element 3 */
    .oob_runtime = STEX_OOB_ZERO,    /* measured: 0, write dropped */
    .oob_function = STEX_OOB_CLAMP,  /* measured */
    .oob_byte_wrap = true,           /* measured: 0x40000000, 0x80000000 -> element 0 */
};

/* nvidia: H200, driver 580.159, Dawn on Vulkan */
static const stex_math_rules rules_nvidia = {
    .flush_subnormals = true,        /* measured: 0x00000001 * 0.98 -> 0, inputs too */
    .nan_canonical = true,           /* measured: every NaN result 0x7fffffff */
    .default_nan = 0x7fffffffu,
    /* measured: min, max, clamp and ceil see and return subnormals */
    .keeps_subnormals = {[STEX_MATH_MIN_F32] = true, [STEX_MATH_MAX_F32] = true,
                         [STEX_MATH_CLAMP_F32] = true, [STEX_MATH_CEIL_F32] = true,
                         [STEX_MATH_FLOOR_F32] = true},
    .contract = true,                /* measured: 254/254 probe rows fused, also via `let` */
    .fma_fused = true,
    .minmax = STEX_RULE_MINMAX_IEEE,
    .smoothstep = STEX_RULE_SMOOTH_TT_FIRST, /* measured: 2048/2048 */
    .ldexp = STEX_RULE_LDEXP_EXACT,
    /* measured: -1 % 1 = -0, -2^-126 % 0 = 0xffffffff, -0 % 0 = 0x7fffffff */
    .rem = STEX_RULE_REM_ROUNDED_SIGN_OF_X,
    .clamp = STEX_RULE_CLAMP_MIN_MAX,
    .step = STEX_RULE_STEP_NOT_LT,   /* measured: step(0, NaN) = 1 */
    .mix = STEX_RULE_MIX_LERP,
    .frexp = STEX_RULE_FREXP_EXACT,  /* subnormals are flushed first */
    .nan_to_i32 = 0x80000000u,       /* measured */
    .approx = &stex_math_approx_nvidia,
    /* NOT measured (docs/profiles.md, "f16"): the f32 operations rounded to
     * f16, NaN to integers as Dawn on lavapipe */
    .f16 = STEX_RULE_F16_VIA_F32,
    .f16_nan_to_int_low = true,
    .const_eval = STEX_CONST_TINT,  /* measured through Dawn: tests/math/test_const.c */
    .matmul = STEX_MATMUL_SUM,
    /* measured: tests/data/nvprobe (tools/nvprobe), one probe per rule */
    .rewrite = STEX_FLOAT_REWRITE_NVIDIA,
    .oob_fixed = STEX_OOB_CLAMP,     /* measured, reads and writes */
    .oob_runtime = STEX_OOB_ZERO,    /* measured */
    .oob_function = STEX_OOB_CLAMP,  /* measured */
    .oob_byte_wrap = true,           /* measured: 0x40000000, 0x80000000 -> element 0 */
};

static const stex_math_rules *const rules[STEX_PROFILE_COUNT] = {
    [STEX_PROFILE_SPEC] = &rules_spec,
    [STEX_PROFILE_LAVAPIPE] = &rules_lavapipe,
    [STEX_PROFILE_NVIDIA] = &rules_nvidia,
};

bool stex_math_f32_is_ieee(const stex_profile *p)
{
    const stex_math_rules *r = stex_math_rules_of(p);
    return r && !r->flush_subnormals && !r->nan_canonical && !r->contract;
}

stex_const_rule stex_math_const_rule(const stex_profile *p)
{
    return stex_math_rules_of(p)->const_eval;
}

stex_matmul_rule stex_math_matmul_rule(const stex_profile *p)
{
    return stex_math_rules_of(p)->matmul;
}

stex_float_rewrite_rule stex_math_float_rewrite_rule(const stex_profile *p)
{
    return stex_math_rules_of(p)->rewrite;
}

const char *stex_const_rule_name(stex_const_rule rule)
{
    return rule == STEX_CONST_TINT ? "tint" : rule == STEX_CONST_WGSL ? "wgsl" : "?";
}

const stex_math_rules *stex_math_rules_of(const stex_profile *p)
{
    return rules[stex_profile_id_of(p)]; /* NULL profile: spec */
}

stex_oob_action stex_math_oob(const stex_profile *p, stex_array_kind kind,
                              uint32_t count, uint32_t element_bytes,
                              uint32_t index, uint32_t *index_out)
{
    const stex_math_rules *r = stex_math_rules_of(p);
    *index_out = index;
    if (index < count)
        return STEX_OOB_IN_BOUNDS;
    stex_oob_action a = kind == STEX_ARRAY_FIXED ? r->oob_fixed
                      : kind == STEX_ARRAY_RUNTIME ? r->oob_runtime : r->oob_function;
    if (a == STEX_OOB_CLAMP) {
        *index_out = count ? count - 1 : 0;
        return count ? STEX_OOB_CLAMP : STEX_OOB_ZERO;
    }
    if (kind == STEX_ARRAY_RUNTIME && r->oob_byte_wrap && element_bytes) {
        /* Dawn checks the byte offset index * size, computed in 32 bits */
        uint32_t byte = index * element_bytes;
        if (byte / element_bytes < count && byte % element_bytes == 0) {
            *index_out = byte / element_bytes;
            return STEX_OOB_WRAPPED;
        }
    }
    return STEX_OOB_ZERO;
}
