/*
 * math/f32.c - f32 arithmetic and the f32 builtins, under a profile's rules.
 *
 * Every function reads its operands through m_in (flushing where the
 * profile flushes) and writes its result through m_out (canonical NaN,
 * flushing); NaN operands are handled first so that the C operators below
 * only ever see numbers and the NaN that comes out is the profile's choice,
 * not the host CPU's.
 */
#include "math/ops.h"

#include <float.h>

#define TINY 0x1p-126 /* the smallest normal f32 */

static float quiet(float x)
{
    return m_float(m_bits(x) | 0x00400000u);
}

float stex_m_nan2(const stex_math_rules *r, float a, float b)
{
    if (r->nan_canonical)
        return m_float(r->default_nan);
    if (isnan(a))
        return quiet(a);
    if (isnan(b))
        return quiet(b);
    return m_float(r->default_nan);
}

static float nan3(const stex_math_rules *r, float a, float b, float c)
{
    if (!r->nan_canonical && !isnan(a) && !isnan(b) && isnan(c))
        return quiet(c);
    return stex_m_nan2(r, a, b);
}

/* A result computed in double (exactly, or rounded once to double): where
 * the profile flushes, tininess is detected after rounding (IEEE 754-2019
 * 7.5): the value rounded to 24 bits with an unbounded exponent is compared
 * with 2^-126, so 2^-126 * (1 - 2^-24) flushes and 2^-126 * (1 - 2^-46) does
 * not. */
static float round_tiny(const stex_math_rules *r, double d)
{
    if (r->flush_subnormals && fabs(d) < TINY &&
        fabs(ldexp((double)(float)ldexp(d, 64), -64)) < TINY)
        return copysignf(0.0f, (float)d);
    return (float)d;
}

float stex_m_add(const stex_math_rules *r, float a, float b)
{
    a = m_in(r, a), b = m_in(r, b);
    float s = a + b;
    if (isnan(s)) /* a NaN operand, or inf - inf */
        return stex_m_nan2(r, a, b);
    /* a sum below 2^-126 is exact, so flushing the rounded sum is the same */
    return m_out(r, s);
}

float stex_m_sub(const stex_math_rules *r, float a, float b)
{
    a = m_in(r, a), b = m_in(r, b);
    float s = a - b;
    if (isnan(s))
        return stex_m_nan2(r, a, b);
    return m_out(r, s);
}

float stex_m_mul(const stex_math_rules *r, float a, float b)
{
    a = m_in(r, a), b = m_in(r, b);
    double p = (double)a * (double)b; /* exact: 24 x 24 bits fit in 53 */
    if (isnan(p))
        return stex_m_nan2(r, a, b);
    return round_tiny(r, p);
}

float stex_m_div(const stex_math_rules *r, float a, float b)
{
    stex_math_f2 approx = r->approx ? r->approx->binary[STEX_MATH_DIV_F32] : NULL;
    a = m_in(r, a), b = m_in(r, b);
    if (isnan(a) || isnan(b))
        return stex_m_nan2(r, a, b);
    float q = approx ? approx(a, b) : a / b; /* IEEE: correctly rounded */
    if (isnan(q))
        return stex_m_nan2(r, a, b);
    return m_out(r, q);
}

float stex_m_fma(const stex_math_rules *r, float a, float b, float c)
{
    a = m_in(r, a), b = m_in(r, b), c = m_in(r, c);
    if (isnan(a) || isnan(b) || isnan(c))
        return nan3(r, a, b, c);
    float f = fmaf(a, b, c);
    if (isnan(f))
        return stex_m_nan2(r, a, b);
    if (r->flush_subnormals && f != 0.0f && fabsf(f) <= FLT_MIN)
        /* the double fma is the exact value rounded once to 53 bits: enough
         * to round it again to 24 (no double-rounding tie is that close to
         * a 24-bit boundary in this range: the exact value has at most 72
         * significant bits above 2^-300) */
        return round_tiny(r, fma((double)a, (double)b, (double)c));
    return m_out(r, f);
}

float stex_m_mul_add(const stex_math_rules *r, float a, float b, float c)
{
    if (r->contract && r->fma_fused)
        return stex_m_fma(r, a, b, c);
    return stex_m_add(r, stex_m_mul(r, a, b), c);
}

static float rem(const stex_math_rules *r, float a, float b)
{
    a = m_in(r, a), b = m_in(r, b);
    float m;
    if (isnan(a) || isnan(b)) {
        m = stex_m_nan2(r, a, b);
    } else if (r->rem == STEX_RULE_REM_EXACT) {
        m = fmodf(a, b); /* exact: the real x - y*trunc(x/y) is an f32 */
    } else {
        /* a - b*t, fused where the profile contracts */
        float t = truncf(stex_m_div(r, a, b));
        m = r->contract ? stex_m_fma(r, -b, t, a) : stex_m_sub(r, a, stex_m_mul(r, b, t));
    }
    m = isnan(m) ? stex_m_nan2(r, a, b) : m_out(r, m);
    if (r->rem == STEX_RULE_REM_ROUNDED_SIGN_OF_X && (m == 0.0f || isnan(m)))
        m = m_float((m_bits(m) & 0x7fffffffu) | (a < 0.0f ? 0x80000000u : 0));
    return m;
}

/* min and max return the other operand when one is NaN (WGSL 17.5). */
static float fmin_(const stex_math_rules *r, float a, float b)
{
    if (r->minmax == STEX_RULE_MINMAX_SELECT)
        return isnan(b) ? a : isnan(a) ? b : a < b ? a : b;
    if (isnan(a) && isnan(b))
        return stex_m_nan2(r, a, b);
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b) /* -0 and +0: the negative one */
        return m_float(m_bits(a) | m_bits(b));
    return b < a ? b : a;
}

static float fmax_(const stex_math_rules *r, float a, float b)
{
    if (r->minmax == STEX_RULE_MINMAX_SELECT)
        return isnan(b) ? a : isnan(a) ? b : a > b ? a : b;
    if (isnan(a) && isnan(b))
        return stex_m_nan2(r, a, b);
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b)
        return m_float(m_bits(a) & m_bits(b));
    return b > a ? b : a;
}

static float step(const stex_math_rules *r, float edge, float x)
{
    if (r->step == STEX_RULE_STEP_LE)
        return edge <= x ? 1.0f : 0.0f;
    return x < edge ? 0.0f : 1.0f;
}

static void frexp_(const stex_math_rules *r, float x, uint32_t out[2])
{
    uint32_t u = m_bits(x), field = (u >> 23) & 0xffu;
    if (r->frexp == STEX_RULE_FREXP_FIELD && x != 0.0f) {
        out[0] = field == 0xff ? u : (u & 0x807fffffu) | 0x3f000000u;
        out[1] = field - 126u; /* a subnormal: -126 */
        return;
    }
    if (x == 0.0f || isinf(x) || isnan(x)) {
        /* frexp(inf) = inf, exp 0: C's answer (WGSL leaves it open) */
        out[0] = m_bits(isnan(x) ? stex_m_nan2(r, x, x) : x);
        out[1] = 0;
        return;
    }
    int e;
    out[0] = m_bits(frexpf(x, &e));
    out[1] = (uint32_t)e;
}

static float pow2_bits(int32_t k) /* 2^k built from exponent bits; k = -127 gives 0 */
{
    return m_float((uint32_t)(k + 127) << 23);
}

static float ldexp_(const stex_math_rules *r, float a, int32_t e)
{
    if (isnan(a))
        return stex_m_nan2(r, a, a);
    if (r->ldexp == STEX_RULE_LDEXP_TWO_POWERS) {
        e = e < -254 ? -254 : e > 254 ? 254 : e;
        int32_t h = e >> 1; /* arithmetic shift: floor(e / 2) */
        return stex_m_mul(r, stex_m_mul(r, a, pow2_bits(h)), pow2_bits(e - h));
    }
    return round_tiny(r, ldexp((double)a, e < -400 ? -400 : e > 400 ? 400 : e));
}

/* An inexact builtin: the profile's model, or the correctly rounded value. */
static float approx1(const stex_math_rules *r, stex_math_fn fn, float a)
{
    stex_math_f1 f = r->approx ? r->approx->unary[fn] : NULL;
    if (f)
        return m_out(r, f(a));
    if (isnan(a))
        return stex_m_nan2(r, a, a);
    float v = stex_m_correct1(fn, a);
    return isnan(v) ? stex_m_nan2(r, a, a) : m_out(r, v); /* a new NaN */
}

static float approx2(const stex_math_rules *r, stex_math_fn fn, float a, float b)
{
    stex_math_f2 f = r->approx ? r->approx->binary[fn] : NULL;
    if (f)
        return m_out(r, f(a, b));
    if (isnan(a) || isnan(b))
        return stex_m_nan2(r, a, b);
    float v = stex_m_correct2(fn, a, b);
    return isnan(v) ? stex_m_nan2(r, a, b) : m_out(r, v);
}

static float smoothstep(const stex_math_rules *r, float lo, float hi, float x)
{
    /* WGSL: t = clamp((x - low) / (high - low), 0, 1); t * t * (3 - 2 * t) */
    float t = stex_m_div(r, stex_m_sub(r, x, lo), stex_m_sub(r, hi, lo));
    t = fmin_(r, fmax_(r, t, 0.0f), 1.0f);
    float v = stex_m_mul_add(r, -2.0f, t, 3.0f);
    if (r->smoothstep == STEX_RULE_SMOOTH_T_LAST)
        return stex_m_mul(r, t, stex_m_mul(r, t, v));
    return stex_m_mul(r, stex_m_mul(r, t, t), v);
}

static float mix(const stex_math_rules *r, float a, float b, float t)
{
    if (r->mix == STEX_RULE_MIX_LERP)
        return stex_m_mul_add(r, t, stex_m_sub(r, b, a), a);
    return stex_m_mul_add(r, b, t, stex_m_mul(r, a, stex_m_sub(r, 1.0f, t)));
}

/* Returns 1 if fn is an f32-argument builtin handled here (out written). */
int stex_m_eval_f32(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn,
                    const uint32_t *in, uint32_t *out)
{
    (void)p;
    stex_math_rules keep;
    if (r->flush_subnormals && r->keeps_subnormals[fn]) {
        keep = *r;
        keep.flush_subnormals = false;
        r = &keep;
    }
    float a = m_in(r, m_float(in[0]));
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    float b = info->in_words > 1 ? m_in(r, m_float(in[1])) : 0.0f;
    float c = info->in_words > 2 ? m_in(r, m_float(in[2])) : 0.0f;
    float v;

    switch (fn) {
    case STEX_MATH_ADD_F32: v = stex_m_add(r, a, b); break;
    case STEX_MATH_SUB_F32: v = stex_m_sub(r, a, b); break;
    case STEX_MATH_MUL_F32: v = stex_m_mul(r, a, b); break;
    case STEX_MATH_DIV_F32: v = stex_m_div(r, a, b); break;
    case STEX_MATH_REM_F32: out[0] = m_bits(rem(r, a, b)); return 1; /* NaN signed */
    case STEX_MATH_NEG_F32: v = m_out(r, m_float(m_bits(a) ^ 0x80000000u)); break;
    case STEX_MATH_LT_F32: out[0] = a < b; return 1;
    case STEX_MATH_EQ_F32: out[0] = a == b; return 1;
    case STEX_MATH_MUL_ADD_F32:
    case STEX_MATH_ADD_MUL_F32:
    case STEX_MATH_MUL_ADD_LET_F32: v = stex_m_mul_add(r, a, b, c); break;
    /* a * b - c and c - a * b: fused where the profile contracts */
    case STEX_MATH_MUL_SUB_F32:
        v = r->contract && r->fma_fused ? stex_m_fma(r, a, b, -c)
                                        : stex_m_sub(r, stex_m_mul(r, a, b), c);
        break;
    case STEX_MATH_RECIP_F32: v = stex_m_div(r, 1.0f, a); break; /* 1.0 / a */
    case STEX_MATH_NEG_MUL_SUB_F32: /* fma(-a, b, -c) */
        v = r->contract && r->fma_fused ? stex_m_fma(r, -a, b, -c)
                                        : stex_m_sub(r, -stex_m_mul(r, a, b), c);
        break;
    case STEX_MATH_SUB_MUL_F32:
        v = r->contract && r->fma_fused ? stex_m_fma(r, -a, b, c)
                                        : stex_m_sub(r, c, stex_m_mul(r, a, b));
        break;
    case STEX_MATH_FMA_F32:
        v = r->fma_fused ? stex_m_fma(r, a, b, c) : stex_m_add(r, stex_m_mul(r, a, b), c);
        break;
    case STEX_MATH_SIN_F32: case STEX_MATH_COS_F32: case STEX_MATH_TAN_F32:
    case STEX_MATH_EXP_F32: case STEX_MATH_EXP2_F32: case STEX_MATH_LOG_F32:
    case STEX_MATH_LOG2_F32: case STEX_MATH_SQRT_F32: case STEX_MATH_INVERSESQRT_F32:
    case STEX_MATH_TANH_F32: case STEX_MATH_ATAN_F32: case STEX_MATH_ASIN_F32:
    case STEX_MATH_ACOS_F32: case STEX_MATH_SINH_F32: case STEX_MATH_COSH_F32:
    case STEX_MATH_ASINH_F32: case STEX_MATH_ACOSH_F32: case STEX_MATH_ATANH_F32:
        v = approx1(r, fn, a);
        break;
    case STEX_MATH_POW_F32: case STEX_MATH_ATAN2_F32:
        v = approx2(r, fn, a, b);
        break;
    case STEX_MATH_FLOOR_F32: v = isnan(a) ? stex_m_nan2(r, a, a) : floorf(a); break;
    case STEX_MATH_CEIL_F32: v = isnan(a) ? stex_m_nan2(r, a, a) : ceilf(a); break;
    case STEX_MATH_TRUNC_F32: v = isnan(a) ? stex_m_nan2(r, a, a) : truncf(a); break;
    /* round half to even: the default rounding mode, which stex never changes */
    case STEX_MATH_ROUND_F32: v = isnan(a) ? stex_m_nan2(r, a, a) : nearbyintf(a); break;
    case STEX_MATH_FRACT_F32: {
        /* x - floor(x), floor seeing x as the profile's floor does (nvidia:
         * unflushed, so fract(-2^-149) = 0 - (-1) = 1; tests/data/nvprobe) */
        float x = r->flush_subnormals && r->keeps_subnormals[STEX_MATH_FLOOR_F32] ? m_float(in[0]) : a;
        v = isnan(a) ? stex_m_nan2(r, a, a) : stex_m_sub(r, a, floorf(x));
        break;
    }
    case STEX_MATH_ABS_F32: v = m_out(r, m_float(m_bits(a) & 0x7fffffffu)); break;
    case STEX_MATH_SIGN_F32: v = a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : 0.0f; break;
    case STEX_MATH_SATURATE_F32: v = fmin_(r, fmax_(r, a, 0.0f), 1.0f); break;
    /* the constants rounded to f32, then one f32 multiply */
    case STEX_MATH_DEGREES_F32: v = stex_m_mul(r, a, (float)(180.0 / M_PI)); break;
    case STEX_MATH_RADIANS_F32: v = stex_m_mul(r, a, (float)(M_PI / 180.0)); break;
    case STEX_MATH_FREXP_F32: frexp_(r, a, out); return 1;
    case STEX_MATH_MODF_F32: {
        float whole = isnan(a) ? stex_m_nan2(r, a, a) : truncf(a);
        /* fract carries e's sign (C's modf; both devices): modf(-1) = (-0, -1) */
        float fract = isinf(a) ? 0.0f : stex_m_sub(r, a, whole);
        fract = copysignf(fract, a);
        out[0] = m_bits(m_out(r, fract));
        out[1] = m_bits(m_out(r, whole));
        return 1;
    }
    case STEX_MATH_MIN_F32: v = fmin_(r, a, b); break;
    case STEX_MATH_MAX_F32: v = fmax_(r, a, b); break;
    case STEX_MATH_STEP_F32: v = step(r, a, b); break;
    case STEX_MATH_LDEXP_F32: v = ldexp_(r, a, (int32_t)in[1]); break;
    case STEX_MATH_CLAMP_F32: v = fmin_(r, fmax_(r, a, b), c); break;
    case STEX_MATH_SMOOTHSTEP_F32: v = smoothstep(r, a, b, c); break;
    case STEX_MATH_MIX_F32: v = mix(r, a, b, c); break;
    default:
        return 0;
    }
    out[0] = m_bits(m_out(r, v));
    return 1;
}
