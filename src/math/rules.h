/*
 * math/rules.h - the table of choices a profile makes for arithmetic.
 *
 * One constant struct per profile (rules.c), read by every function of the
 * math layer; no function tests which profile it runs.  docs/profiles.md
 * gives each choice with its source.
 */
#ifndef STEX_MATH_RULES_H
#define STEX_MATH_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "stex/math.h"

/* f32 -> f32 and (f32, f32) -> f32 implementations of the inexact builtins;
 * NULL entries mean "correctly rounded" (math/correct.c). */
typedef float (*stex_math_f1)(float);
typedef float (*stex_math_f2)(float, float);

typedef struct stex_math_approx {
    const char *source;                      /* where the model comes from */
    stex_math_f1 unary[STEX_MATH_FN_COUNT];  /* indexed by fn: sin, exp, sqrt... */
    stex_math_f2 binary[STEX_MATH_FN_COUNT]; /* pow, atan2, div */
    /* Loads the tables the model reads (NULL: none): run where the cost
     * is not counted as a dispatch's (stex_math_prepare). */
    void (*prepare)(void);
    unsigned (*loaded)(void); /* how many tables are in memory */
} stex_math_approx;

/* f32 `%`. */
typedef enum stex_math_rem {
    STEX_RULE_REM_EXACT,       /* x - y*trunc(x/y) in real numbers = C's fmod */
    STEX_RULE_REM_ROUNDED,     /* the same formula in f32 ops, each rounded
                                * (the product fused where the profile contracts) */
    STEX_RULE_REM_ROUNDED_SIGN_OF_X, /* ROUNDED, but a zero or NaN result is
                                * negative iff x < 0 (OpFRem: the sign of x) */
} stex_math_rem;

/* clamp(e, lo, hi) for f32 */
typedef enum stex_math_clamp {
    STEX_RULE_CLAMP_MIN_MAX,   /* min(max(e, lo), hi): WGSL's definition */
} stex_math_clamp;

/* step(edge, x) */
typedef enum stex_math_step {
    STEX_RULE_STEP_LE,         /* edge <= x ? 1 : 0 (NaN -> 0): WGSL's words */
    STEX_RULE_STEP_NOT_LT,     /* x < edge ? 0 : 1 (NaN -> 1) */
} stex_math_step;

/* mix(a, b, t) */
typedef enum stex_math_mix {
    STEX_RULE_MIX_TWO_PRODUCTS, /* a*(1-t) + b*t: WGSL's definition */
    STEX_RULE_MIX_LERP,         /* a + t*(b-a) */
} stex_math_mix;

/* min and max of two numbers (a NaN operand is ignored by every profile) */
typedef enum stex_math_minmax {
    STEX_RULE_MINMAX_IEEE,      /* -0 < +0 (IEEE 754-2019 minimum/maximumNumber) */
    STEX_RULE_MINMAX_SELECT,    /* a < b ? a : b (x86 minss): the second on ties,
                                 * both NaN -> the first, unchanged */
} stex_math_minmax;

/* smoothstep's polynomial, once t is clamped */
typedef enum stex_math_smooth {
    STEX_RULE_SMOOTH_TT_FIRST,  /* (t * t) * (3 - 2t): WGSL's text, left to right */
    STEX_RULE_SMOOTH_T_LAST,    /* t * (t * (3 - 2t)) */
} stex_math_smooth;

/* ldexp(x, e) */
typedef enum stex_math_ldexp {
    STEX_RULE_LDEXP_EXACT,      /* x * 2^e rounded once */
    STEX_RULE_LDEXP_TWO_POWERS, /* e clamped to [-254, 254], x * 2^(e>>1) * 2^(e-(e>>1)),
                                 * each power built from exponent bits (2^-127 -> 0):
                                 * NIR's lowering */
} stex_math_ldexp;

/* frexp of a subnormal, inf and NaN */
typedef enum stex_math_frexp {
    STEX_RULE_FREXP_EXACT,      /* normalised: fract in [0.5, 1) */
    STEX_RULE_FREXP_FIELD,      /* bit fields: exp = field - 126 (a subnormal reads
                                 * field 1), fract = sign | 0x3f000000 | mantissa;
                                 * inf and NaN unchanged with exp 129 */
} stex_math_frexp;

/* f16 arithmetic (enable f16): how each f16 operation is computed.  Both
 * rules widen the operands to f32 (exactly) and round every operation's
 * result to f16, to nearest-even; composite builtins (mix, smoothstep, %,
 * fract...) round every step.  They differ where one f32 operation rounded
 * to f16 is not the f16 answer (math/f16.c). */
typedef enum stex_math_f16 {
    STEX_RULE_F16_IEEE,     /* binary16: fma and a*b+c (where contracted) round
                             * once, transcendentals correctly rounded to f16 */
    STEX_RULE_F16_VIA_F32,  /* the profile's f32 operation rounded to f16: its
                             * fma (rounded twice more where it does not fuse),
                             * its approximations of sin, exp... */
} stex_math_f16;

typedef struct stex_math_rules {
    /* Subnormal f32 inputs read as zero and results whose exact value lies
     * below 2^-126 become zero (tininess before rounding). */
    bool flush_subnormals;
    /* Every NaN computed is default_nan; otherwise a NaN operand is passed
     * through quieted (the first one) and only new NaNs are default_nan. */
    bool nan_canonical;
    uint32_t default_nan;
    /* Ops that keep subnormals although the profile flushes (pure bit
     * selections on the device: min, max, clamp...). */
    bool keeps_subnormals[STEX_MATH_FN_COUNT];
    /* a*b+c (also written c+a*b, or through a `let`) rounds once. */
    bool contract;
    /* fma(a, b, c) rounds once (lavapipe rounds twice). */
    bool fma_fused;
    stex_math_rem rem;
    stex_math_clamp clamp;
    stex_math_step step;
    stex_math_mix mix;
    stex_math_frexp frexp;
    stex_math_minmax minmax;
    stex_math_smooth smoothstep;
    stex_math_ldexp ldexp;
    /* i32(NaN); u32(NaN) is 0 everywhere */
    uint32_t nan_to_i32;
    /* sqrt, inverseSqrt, `/`, transcendentals */
    const stex_math_approx *approx;
    /* f16 */
    stex_math_f16 f16;
    /* exp, log, tan, inverseSqrt, sinh, cosh, tanh, asinh, acosh, atanh
     * and pow are NIR's expressions of exp2, log2, sqrt, sin and cos, every
     * step rounded to f16 (else: the f32 function rounded once) */
    bool f16_nir_lowering;
    /* f16(x) of an f32 NaN is sign | 0x7e00 (else its payload's top bits are kept) */
    bool f16_convert_nan_canonical;
    /* i32(x) and u32(x) of an f16 NaN: -65504 and 0, as a clamp to
     * [-65504, 65504] written with two compares gives (else as from f32) */
    bool f16_nan_to_int_low;
    /* const-expressions: WGSL's rules or Dawn's front end (math/const.c) */
    stex_const_rule const_eval;
    stex_matmul_rule matmul;        /* matrix products at run time */
    stex_float_rewrite_rule rewrite; /* the compiler's rewrites of f32 arithmetic */
    /* buffer and array indices past the end */
    stex_oob_action oob_fixed, oob_runtime, oob_function;
    bool oob_byte_wrap;  /* a runtime-array byte offset past 2^32 wraps */
} stex_math_rules;

const stex_math_rules *stex_math_rules_of(const stex_profile *p);

extern const stex_math_approx stex_math_approx_lavapipe;
extern const stex_math_approx stex_math_approx_nvidia;

#endif
