/*
 * stex/math.h - WGSL's f32, i32 and u32 operations and builtins, evaluated
 * as a named device profile computes them.
 *
 * WGSL fixes integer arithmetic exactly but leaves f32 arithmetic loose:
 * whether a*b+c is fused, whether subnormals survive, which NaN comes out,
 * how precise sin or `/` is, what an out-of-bounds index reads.  Each
 * profile of convert.h (spec, lavapipe, nvidia) makes those choices in one
 * table of choices (src/math/rules.c), read by one set of functions here.
 * Every executor - the C kernels through these functions, a future WGSL
 * interpreter through stex_math_eval - calls this layer, so a golden made
 * under `nvidia` is what the H200 computes.
 *
 *     const stex_profile *p = stex_profile_get(STEX_PROFILE_NVIDIA);
 *     float y = stex_math_mul_f32(p, 0x1p-149f, 0.98f);      // 0: flushed
 *     stex_math_fn fn;
 *     stex_math_fn_find("sin", "f32->f32", &fn);
 *     uint32_t in = 0x3f800000, out;
 *     stex_math_eval(p, fn, &in, &out);                       // the H200's sin(1)
 *
 * Every function is pure: values in, values out, no hidden state, safe
 * from any thread.  The _n forms run n lanes of one operation at once.
 *
 * Failure: stex_math_eval returns STEX_INVALID_ARGUMENT for a NULL profile
 * or an out-of-range fn (nothing written).  The typed helpers take a valid
 * profile (stex_profile_get's); with NULL they use spec.
 */
#ifndef STEX_MATH_H
#define STEX_MATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/convert.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One value per overload of stex/math.def: STEX_MATH_ADD_F32, ... */
typedef enum stex_math_fn {
#define X(id, op, sig, expr, nin, nout) STEX_MATH_##id,
#include "stex/math.def"
#undef X
    STEX_MATH_FN_COUNT
} stex_math_fn;

typedef struct stex_math_fn_info {
    const char *op;        /* "add", "inverseSqrt", "convert", ... */
    const char *sig;       /* "f32,f32->f32", as the conformance files' type column */
    const char *expr;      /* the WGSL expression over a, b, c, d */
    unsigned in_words;     /* 32-bit words of arguments (vectors flattened) */
    unsigned out_words;    /* 32-bit words of results */
} stex_math_fn_info;

STEX_API const stex_math_fn_info *stex_math_fn_get(stex_math_fn fn);  /* NULL if out of range */
/* The overload named by op and signature; false if there is none. */
STEX_API bool stex_math_fn_find(const char *op, const char *sig, stex_math_fn *out);
/* The scalar type of each 32-bit word of a type list ("vec2<f32>,i32", or
 * a signature, read up to its "->"): 'f' f32, 'h' f16, 'i' i32, 'u' u32,
 * 'b' bool, one letter per word (vectors flattened); returns the count. */
STEX_API int stex_math_word_types(const char *types, char *out, int max);

/* Loads what p's arithmetic reads for fn before it is first needed: the
 * nvidia profile's measured tables of exp2, sqrt, log2 and sin (inflated
 * once per process, ~0.4 s, 44 MiB), for any float builtin but the exact
 * ones (add, mul, abs, min, compares, conversions...).  Nothing for the
 * other profiles.  A WGSL pipeline calls it at creation, so the first
 * dispatch does not pay for the tables.  Safe from any thread. */
STEX_API void stex_math_prepare(const stex_profile *p, stex_math_fn fn);
/* How many of p's tables are in memory so far (0 for a profile without). */
STEX_API unsigned stex_math_tables_loaded(const stex_profile *p);

/* Evaluates fn on bit patterns: in[] holds info->in_words words (f32 as
 * bits, i32 as two's complement, bool 0/1), out[] receives out_words. */
STEX_API stex_status stex_math_eval(const stex_profile *p, stex_math_fn fn,
                                    const uint32_t *in, uint32_t *out);

/* How a WGSL front end evaluates const-expressions (shader-creation time).
 * WGSL's rules: exact arithmetic, builtins correctly rounded, every value
 * representable.  Dawn's front end (Tint), as measured through Dawn on both
 * devices, departs from them: its fma() and f32 `%` round each step, pack
 * builtins round half away from zero, pack2x16float truncates, its builtins
 * are the C library's float functions, and a module keeps one constant per
 * value compared with ==, so the first f32 zero a module makes, +0 or -0,
 * is every later one (the WGSL front end models that part, per module).
 * The lavapipe and nvidia profiles model Dawn on those devices, so they use
 * the Tint rule. */
typedef enum stex_const_rule {
    STEX_CONST_WGSL,   /* WGSL's rules (the spec profile) */
    STEX_CONST_TINT,   /* Dawn's front end (the lavapipe and nvidia profiles) */
} stex_const_rule;

STEX_API stex_const_rule stex_math_const_rule(const stex_profile *p); /* NULL: spec */

/* How a matrix product (m * v, v * m, m * m) sums each component's products
 * at run time; WGSL leaves the order and fusing open. */
typedef enum stex_matmul_rule {
    STEX_MATMUL_SUM,           /* each product rounded, added first to last
                                * (spec, nvidia) */
    STEX_MATMUL_FMA_FROM_LAST, /* the last product, then fma(a[k], b[k], sum) for
                                * k from the last but one down to the first, as
                                * the profile's fma() (Mesa's SPIR-V translation
                                * emits ffma; lavapipe rounds it twice) */
} stex_matmul_rule;

STEX_API stex_matmul_rule stex_math_matmul_rule(const stex_profile *p); /* NULL: spec */

/* Whether the profile's shader compiler rewrites run-time f32 arithmetic
 * with operands it knows to be constant before the program runs.  WGSL
 * allows it (15.7.5: an implementation may reassociate operations; a
 * zero's sign may be ignored, and an infinity or NaN at run time is an
 * indeterminate value); the WGSL interpreter applies the rewrites to the
 * bytecode (src/wgsl/opt_lavapipe.c). */
typedef enum stex_float_rewrite_rule {
    STEX_FLOAT_REWRITE_NONE,   /* every operation as written (spec) */
    STEX_FLOAT_REWRITE_NIR,    /* Mesa NIR's algebraic rules on inexact float
                                * operations: x * 0 = +0, x + 0 = x, fma(0, x, c)
                                * = c, mix(a, b, 0) = a... (lavapipe) */
    STEX_FLOAT_REWRITE_NVIDIA, /* NVIDIA's compiler: a sum or difference with a
                                * product operand fused wherever the product
                                * comes from, x / sqrt(y) = x * inverseSqrt(y)
                                * (src/wgsl/opt_nvidia.c; nvidia) */
} stex_float_rewrite_rule;

STEX_API stex_float_rewrite_rule stex_math_float_rewrite_rule(const stex_profile *p); /* NULL: spec */
STEX_API const char *stex_const_rule_name(stex_const_rule rule);       /* "wgsl", "tint" */

/* fn as a WGSL const-expression under rule: its value, or STEX_SHADER_ERROR
 * (message in stex_last_error()) where the rule makes it an error: an f32
 * argument or result not finite, integer division by zero, shifts past the
 * width, builtins outside their domain...
 * abstract: AbstractFloat arguments (evaluated in f64, converted to f32). */
STEX_API stex_status stex_math_eval_const(stex_const_rule rule, stex_math_fn fn, bool abstract,
                                          const uint32_t *in, uint32_t *out);

/* n lanes of one f32 -> f32 (unary), f32,f32 -> f32 (binary) or
 * f32,f32,f32 -> f32 (ternary) operation; out may alias an input.  Returns
 * STEX_INVALID_ARGUMENT if fn has another signature. */
STEX_API stex_status stex_math_f32_unary(const stex_profile *p, stex_math_fn fn, size_t n,
                                         const float *a, float *out);
STEX_API stex_status stex_math_f32_binary(const stex_profile *p, stex_math_fn fn, size_t n,
                                          const float *a, const float *b, float *out);
STEX_API stex_status stex_math_f32_ternary(const stex_profile *p, stex_math_fn fn, size_t n,
                                           const float *a, const float *b, const float *c,
                                           float *out);

/* The f32 operators, for kernels written in C.  mul_add is `a * b + c` as
 * the profile compiles it (one rounding where the device contracts). */
/* True when the profile's f32 + - * / are IEEE-754's: subnormals kept, a NaN
 * operand passed through quieted (as the host's SSE arithmetic does), so a
 * kernel may use the host's operators instead of the calls below. */
STEX_API bool stex_math_f32_is_ieee(const stex_profile *p);
STEX_API float stex_math_add_f32(const stex_profile *p, float a, float b);
STEX_API float stex_math_sub_f32(const stex_profile *p, float a, float b);
STEX_API float stex_math_mul_f32(const stex_profile *p, float a, float b);
STEX_API float stex_math_div_f32(const stex_profile *p, float a, float b);
STEX_API float stex_math_mul_add_f32(const stex_profile *p, float a, float b, float c);
STEX_API float stex_math_fma_f32(const stex_profile *p, float a, float b, float c);

/* f16 (binary16) bits, as they travel in a word's low half: the nearest f16
 * to v (ties to even; NaN quieted) into *bits, false if v is finite but
 * rounds past f16's largest finite value (WGSL: a const-expression error);
 * and an f16's value, exactly. */
STEX_API bool stex_math_f16_from_double(double v, uint32_t *bits);
STEX_API float stex_math_f16_to_float(uint32_t bits);

/* Out-of-bounds indices into buffers and arrays (WGSL 13.4.3 lets an
 * implementation clamp, read 0 / drop the write, or fault in other ways). */
typedef enum stex_array_kind {
    STEX_ARRAY_FIXED,          /* storage/uniform array<T, N> */
    STEX_ARRAY_RUNTIME,        /* storage array<T> (runtime-sized) */
    STEX_ARRAY_FUNCTION,       /* function- or private-address-space array<T, N> */
} stex_array_kind;

typedef enum stex_oob_action {
    STEX_OOB_IN_BOUNDS,        /* the element at *index_out (unchanged) */
    STEX_OOB_CLAMP,            /* the element at *index_out = count - 1 */
    STEX_OOB_ZERO,             /* reads 0, writes dropped */
    STEX_OOB_WRAPPED,          /* the byte offset wrapped past 2^32: element *index_out */
} stex_oob_action;

/* Where `array[index]` goes under profile p: count elements of
 * element_bytes each; index as the shader's u32 (an i32 index passed as
 * its bits, negative values being huge).  *index_out receives the element
 * accessed (undefined for STEX_OOB_ZERO). */
STEX_API stex_oob_action stex_math_oob(const stex_profile *p, stex_array_kind kind,
                                       uint32_t count, uint32_t element_bytes,
                                       uint32_t index, uint32_t *index_out);

#ifdef __cplusplus
}
#endif
#endif
