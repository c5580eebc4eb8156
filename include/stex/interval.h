/*
 * stex/interval.h - the set of values ANY conformant WebGPU device may
 * produce for a WGSL operation, as an interval (WGSL "Floating Point
 * Accuracy" and "Differences from IEEE-754"; WebGPU's texel conversions).
 *
 * stex_math_eval gives what one profile's device computes; stex_ival_eval
 * gives every value the spec allows, whichever device runs the shader:
 * correctly rounded operations rounded either way, subnormal inputs and
 * results flushed or kept, the sign of a zero ignored, `a * b + c` fused or
 * not, each builtin's ULP or absolute error on its domain, and any value at
 * all where the spec makes the result indeterminate (overflow, infinities
 * and NaNs under the Finite Math Assumption, inputs outside a builtin's
 * stated accuracy range).  No profile is read.
 *
 *     stex_ival in[2] = {stex_ival_of_bits('f', 0x3f800000),   // 1.0
 *                        stex_ival_of_bits('f', 0x40400000)};  // 3.0
 *     stex_ival q;
 *     stex_ival_eval(STEX_MATH_DIV_F32, in, &q);   // 1/3 within 2.5 ULP
 *     stex_ival_contains_bits('f', &q, 0x3eaaaaab);            // true
 *
 * Every function is pure and safe from any thread.
 */
#ifndef STEX_INTERVAL_H
#define STEX_INTERVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/format.h"
#include "stex/math.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A set of values one 32-bit word may hold.
 *
 * f32 and f16 words ('f', 'h'): every value of the type in [lo, hi], plus
 * any NaN when STEX_IVAL_NAN is set.  lo and hi are values of the type
 * (f16 ones widened exactly), possibly infinite.  WGSL lets a zero behave
 * as either sign, so a set holding a zero holds both: lo = -0.0 and
 * hi = +0.0 is "zero".  STEX_IVAL_NO_NUMBER: only NaN (lo, hi unused).
 * i32, u32 and bool words ('i', 'u', 'b'): every integer in [lo, hi]
 * (exact in a double); a known value has lo == hi.
 * STEX_IVAL_ANY: unconstrained - any bits at all; lo = -inf, hi = +inf
 * (integers: the type's range) and STEX_IVAL_NAN are set too, so code that
 * reads only lo/hi stays sound.  stex_ival_eval sets it where WGSL makes
 * the result an indeterminate value; an executor sets it for a value that
 * depends on a choice it does not follow (and keeps the reason). */
typedef struct stex_ival {
    double lo, hi;
    uint32_t flags;
} stex_ival;

#define STEX_IVAL_NAN       0x1u /* a NaN may be held */
#define STEX_IVAL_NO_NUMBER 0x2u /* only NaN */
#define STEX_IVAL_ANY       0x4u /* any bits */

/* The point of one word's bits (type letters as stex_math_word_types:
 * 'f' f32, 'h' f16 in the low half, 'i', 'u', 'b').  A NaN gives
 * STEX_IVAL_NO_NUMBER | STEX_IVAL_NAN; a zero of either sign, both zeros. */
STEX_API stex_ival stex_ival_of_bits(char type, uint32_t bits);
/* The point of a value (a float rounded to the type outward if it is not
 * one of its values: then two neighbours; integers must be exact). */
STEX_API stex_ival stex_ival_of_value(char type, double v);
/* Unconstrained: every word of the type (STEX_IVAL_ANY). */
STEX_API stex_ival stex_ival_any(char type);

/* One value (a zero counts as one value; NaN never does). */
STEX_API bool stex_ival_is_point(char type, const stex_ival *v);
/* Every value of the type, NaN included (STEX_IVAL_ANY or the full range). */
STEX_API bool stex_ival_is_any(char type, const stex_ival *v);
/* Is this word's value in v?  A NaN word iff STEX_IVAL_NAN; a zero word
 * iff 0 is in [lo, hi]; a word with any bits iff STEX_IVAL_ANY. */
STEX_API bool stex_ival_contains_bits(char type, const stex_ival *v, uint32_t bits);
/* The smallest set holding both (the union's hull). */
STEX_API stex_ival stex_ival_join(char type, stex_ival a, stex_ival b);
/* The width of v: for floats (hi - lo) in WGSL's ULP at the larger of
 * |lo| and |hi| (0 for a point, 1 for two neighbours); hi - lo for
 * integers; INFINITY when unbounded or STEX_IVAL_ANY. */
STEX_API double stex_ival_width_ulps(char type, const stex_ival *v);
/* "[lo, hi]" ("1.5", "[-0x1p-149, 0x1p-149] or NaN", "any"), %.9g-style
 * for f32; returns what snprintf returns. */
STEX_API int stex_ival_format(char type, const stex_ival *v, char *buf, size_t size);

/* Every value a conformant device may give for fn (an overload of
 * stex/math.def) on arguments anywhere in in[]: in[] holds the overload's
 * in_words sets, out[] receives out_words (vectors flattened, word types as
 * stex_math_word_types of its signature).  Point arguments give the spec's
 * allowance for one expression; wider ones a sound hull over them.
 * Returns STEX_INVALID_ARGUMENT for an out-of-range fn or NULL pointers. */
STEX_API stex_status stex_ival_eval(stex_math_fn fn, const stex_ival *in, stex_ival *out);

/* Storage.  The set of values textureLoad may return from channel c of a
 * texel of format f after textureStore wrote any value of v there, under
 * every conversion WebGPU allows (the rules of stex_texel_allowed: unorm
 * and snorm round to either neighbour, f16 and the small floats round
 * either way and may flush subnormals, past the largest finite value the
 * largest or infinity, integers clamped, NaN as any NaN or 0 / +-S for
 * normalized channels).  v's type is the format's sampled type: f32 for
 * float, unorm and snorm formats, i32 or u32 for sint and uint ones.  An
 * unused channel (c >= the format's channels) gives the point 0 (1 for
 * alpha, as textureLoad reads it).  A format without a texel encoder gives
 * stex_ival_any('f'); STEX_IVAL_ANY in v gives stex_ival_any of the
 * channel's value type (an unconstrained value stays unconstrained). */
STEX_API stex_ival stex_ival_store(stex_format f, unsigned c, stex_ival v);
/* The codes (the channel's bits, right-aligned, as stex_texel_allowed reads
 * them) of the least and the greatest value of stored, a result of
 * stex_ival_store: unorm/snorm/integers as their integer codes, floats as
 * their bits.  For a set holding NaN or ANY the codes of its numbers; for
 * only NaN the canonical NaN code in both. */
STEX_API void stex_ival_channel_codes(stex_format f, unsigned c, stex_ival stored,
                                      uint32_t *lo_code, uint32_t *hi_code);

#ifdef __cplusplus
}
#endif
#endif
