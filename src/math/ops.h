/*
 * math/ops.h - the math layer's internal functions, each reading the rules
 * of one profile.  f32 values travel as float; helpers for their bits.
 */
#ifndef STEX_MATH_OPS_H
#define STEX_MATH_OPS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "math/rules.h"

static inline uint32_t m_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static inline float m_float(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline int m_is_subnormal(float x)
{
    return (m_bits(x) & 0x7f800000u) == 0 && (m_bits(x) & 0x007fffffu) != 0;
}

/* An input as the profile reads it (subnormals to signed zero under flushing). */
static inline float m_in(const stex_math_rules *r, float x)
{
    if (r->flush_subnormals && m_is_subnormal(x))
        return m_float(m_bits(x) & 0x80000000u);
    return x;
}

/* A result as the profile writes it: NaN canonicalised, subnormals flushed. */
static inline float m_out(const stex_math_rules *r, float x)
{
    if (isnan(x))
        return r->nan_canonical ? m_float(r->default_nan) : x;
    return m_in(r, x);
}

/* The NaN an operation returns when an operand is NaN or it invents one. */
float stex_m_nan2(const stex_math_rules *r, float a, float b);

/* f32 arithmetic (inputs and results as the profile treats them) */
float stex_m_add(const stex_math_rules *r, float a, float b);
float stex_m_sub(const stex_math_rules *r, float a, float b);
float stex_m_mul(const stex_math_rules *r, float a, float b);
float stex_m_div(const stex_math_rules *r, float a, float b);
float stex_m_fma(const stex_math_rules *r, float a, float b, float c);
float stex_m_mul_add(const stex_math_rules *r, float a, float b, float c);

/* correctly rounded builtins (math/correct.c): the f32 nearest the exact value */
float stex_m_correct1(stex_math_fn fn, float x);
float stex_m_correct2(stex_math_fn fn, float x, float y);
/* Correctly rounded sin or cos of n <= 64 lanes at once: returns 0 (nothing
 * done) for another fn or more lanes; else writes out[i] and sets bit i of
 * *redo for each lane it could not decide (|x| >= 2^20, inf, NaN, 0, or too
 * near a halfway point), leaving out[i] as it was: the caller computes those
 * the whole way (out may be a). */
int stex_m_correct_sincos_n(stex_math_fn fn, size_t n, const float *a, float *out,
                            uint64_t *redo);

/* f16 (math/f16.c): binary16 bits <-> f32 (widening exact, NaN payload kept
 * unquieted; narrowing to nearest-even, a NaN quieted with its payload's top
 * bits), and the correctly rounded f16 builtins (math/correct.c) */
float stex_m_h2f(uint32_t h);
uint32_t stex_m_f2h(float x);
uint32_t stex_m_d2h(double x);
double stex_m_correct_f16(stex_math_fn fn32, float x, float y); /* round it with stex_m_d2h */

/* evaluation by group (f32.c: f32 results; int.c: the rest) */
int stex_m_eval_f32(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn,
                    const uint32_t *in, uint32_t *out);
int stex_m_eval_f16(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn,
                    const uint32_t *in, uint32_t *out);
int stex_m_eval_int(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn,
                    const uint32_t *in, uint32_t *out);

#endif
