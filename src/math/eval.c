/*
 * math/eval.c - evaluation on bit patterns, the n-lane forms and the typed helpers kernels call.
 */
#include "math/ops.h"

#include <string.h>

#include "common/error.h"

stex_status stex_math_eval(const stex_profile *p, stex_math_fn fn,
                           const uint32_t *in, uint32_t *out)
{
    if (!p)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_math_eval: the profile is NULL");
    if ((unsigned)fn >= STEX_MATH_FN_COUNT)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_math_eval: fn %d is not an overload of stex/math.def", (int)fn);
    const stex_math_rules *r = stex_math_rules_of(p);
    if (stex_m_eval_f32(r, p, fn, in, out) || stex_m_eval_int(r, p, fn, in, out) ||
        stex_m_eval_f16(r, p, fn, in, out))
        return STEX_OK;
    return stex_fail(STEX_INVALID_ARGUMENT, "stex_math_eval: %s %s is not implemented",
                     stex_math_fn_get(fn)->op, stex_math_fn_get(fn)->sig);
}

/* the n-lane forms: one lookup, then a loop the compiler may unroll */
static stex_status check_sig(const stex_profile *p, stex_math_fn fn, const char *sig)
{
    /* the same literal is usually one object (merged constants): no strcmp */
    const char *have = (unsigned)fn < STEX_MATH_FN_COUNT ? stex_math_fn_get(fn)->sig : NULL;
    if (!p || !have || (have != sig && strcmp(have, sig)))
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_math_f32_*: fn must be an overload with signature %s", sig);
    return STEX_OK;
}

stex_status stex_math_f32_unary(const stex_profile *p, stex_math_fn fn, size_t n,
                                const float *a, float *out)
{
    stex_status st = check_sig(p, fn, "f32->f32");
    if (st)
        return st;
    const stex_math_rules *r = stex_math_rules_of(p);
    if ((fn == STEX_MATH_SIN_F32 || fn == STEX_MATH_COS_F32) && !r->flush_subnormals &&
        !(r->approx && r->approx->unary[fn])) {
        /* the correctly rounded sin and cos, 64 lanes at a time: what
         * stex_m_eval_f32's approx1 gives for a finite argument below 2^20
         * (no NaN in or out, nothing to flush); the lanes it leaves go the
         * whole way */
        for (size_t i0 = 0; i0 < n; i0 += 64) {
            size_t m = n - i0 < 64 ? n - i0 : 64;
            uint64_t redo = 0;
            stex_m_correct_sincos_n(fn, m, a + i0, out + i0, &redo);
            for (; redo; redo &= redo - 1) {
                size_t i = i0 + (size_t)__builtin_ctzll(redo);
                uint32_t in = m_bits(a[i]), o;
                stex_m_eval_f32(r, p, fn, &in, &o);
                out[i] = m_float(o);
            }
        }
        return STEX_OK;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t in = m_bits(a[i]), o;
        stex_m_eval_f32(r, p, fn, &in, &o);
        out[i] = m_float(o);
    }
    return STEX_OK;
}

stex_status stex_math_f32_binary(const stex_profile *p, stex_math_fn fn, size_t n,
                                 const float *a, const float *b, float *out)
{
    stex_status st = check_sig(p, fn, "f32,f32->f32");
    if (st)
        return st;
    const stex_math_rules *r = stex_math_rules_of(p);
    for (size_t i = 0; i < n; i++) {
        uint32_t in[2] = {m_bits(a[i]), m_bits(b[i])}, o;
        stex_m_eval_f32(r, p, fn, in, &o);
        out[i] = m_float(o);
    }
    return STEX_OK;
}

stex_status stex_math_f32_ternary(const stex_profile *p, stex_math_fn fn, size_t n,
                                  const float *a, const float *b, const float *c,
                                  float *out)
{
    stex_status st = check_sig(p, fn, "f32,f32,f32->f32");
    if (st)
        return st;
    const stex_math_rules *r = stex_math_rules_of(p);
    for (size_t i = 0; i < n; i++) {
        uint32_t in[3] = {m_bits(a[i]), m_bits(b[i]), m_bits(c[i])}, o;
        stex_m_eval_f32(r, p, fn, in, &o);
        out[i] = m_float(o);
    }
    return STEX_OK;
}

float stex_math_add_f32(const stex_profile *p, float a, float b)
{
    return stex_m_add(stex_math_rules_of(p), a, b);
}

float stex_math_sub_f32(const stex_profile *p, float a, float b)
{
    return stex_m_sub(stex_math_rules_of(p), a, b);
}

float stex_math_mul_f32(const stex_profile *p, float a, float b)
{
    return stex_m_mul(stex_math_rules_of(p), a, b);
}

float stex_math_div_f32(const stex_profile *p, float a, float b)
{
    return stex_m_div(stex_math_rules_of(p), a, b);
}

float stex_math_mul_add_f32(const stex_profile *p, float a, float b, float c)
{
    return stex_m_mul_add(stex_math_rules_of(p), a, b, c);
}

float stex_math_fma_f32(const stex_profile *p, float a, float b, float c)
{
    return stex_m_fma(stex_math_rules_of(p), a, b, c);
}

/* The builtins a profile may compute from measured tables (the nvidia
 * profile's exp2, log2, sqrt, sin and what is made of them); the rest are
 * exact or computed without tables. */
static bool reads_tables(const char *op)
{
    static const char *const ops[] = {"exp", "exp2", "log", "log2", "pow", "sin", "cos", "tan",
                                      "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "asin",
                                      "acos", "atan", "atan2", "sqrt", "inverseSqrt"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcmp(op, ops[i]))
            return true;
    return false;
}

void stex_math_prepare(const stex_profile *p, stex_math_fn fn)
{
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    const stex_math_rules *r = p ? stex_math_rules_of(p) : NULL;
    if (info && r && r->approx && r->approx->prepare && reads_tables(info->op))
        r->approx->prepare();
}

unsigned stex_math_tables_loaded(const stex_profile *p)
{
    const stex_math_rules *r = p ? stex_math_rules_of(p) : NULL;
    return r && r->approx && r->approx->loaded ? r->approx->loaded() : 0;
}
