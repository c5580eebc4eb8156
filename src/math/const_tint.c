/*
 * math/const_tint.c - const-expressions as Dawn's front end (Tint)
 * evaluates them: the STEX_CONST_TINT rule of the lavapipe and nvidia
 * profiles, whose reference devices are reached through Dawn.
 *
 * Tint evaluates an f32 const-expression with the host's float arithmetic:
 * every step of a composite builtin (fma, %, mix, smoothstep, degrees,
 * inverseSqrt...) is one rounded f32 operation that must stay finite, the
 * transcendental builtins are the C library's float functions (sinf,
 * coshf, ...), the pack builtins compute floor(0.5 + scale * v) in f32 and
 * pack2x16float truncates to f16.  Each formula here was read in Tint's
 * evaluator, but modf's, measured through Dawn (fract is e - trunc(e):
 * modf(-4.0).fract is +0, where C's modf and the run time keep e's sign;
 * regress/const-modf-fract-zero.wgsl); tests/math/test_const.c replays
 * the rows measured through Dawn under this rule, every one bit for bit.  Because the builtins are
 * the C library's, their last bit is the host libm's (glibc here, as for
 * the Dawn that was measured).
 *
 * The operations not listed fall back to the WGSL rule: where Tint's
 * formula is exact (floor, fract, frexp, ldexp, min, clamp...), the two
 * rules agree.
 */
#include <stdio.h>

#include "math/const_tint.h"

#include "common/error.h"

static stex_status overflow(const char *what)
{
    return stex_fail(STEX_SHADER_ERROR, "%s cannot be represented as 'f32' (Dawn's front end "
                     "computes it in f32 steps, each of which must be finite)", what);
}

/* One checked f32 step: Tint's Checked* operations fail on a result that is
 * not finite. */
#define STEP(v, expr, what)                                                                    \
    do {                                                                                       \
        (v) = (expr);                                                                          \
        if (!isfinite(v))                                                                      \
            return overflow(what);                                                             \
    } while (0)

/* f32 -> f16 bits, truncating the mantissa (Tint's f16 quantisation);
 * false past f16's largest finite value, 65504. */
static bool f16_truncate(float v, uint32_t *bits)
{
    float a = fabsf(v);
    uint32_t sign = signbit(v) ? 0x8000u : 0u;
    if (a > 65504.0f)
        return false;
    if (a < 0x1p-24f) {
        *bits = sign;
    } else if (a < 0x1p-14f) {
        *bits = sign | (uint32_t)floor((double)a * 0x1p24); /* subnormal: exact product */
    } else {
        uint32_t u = m_bits(a);
        uint32_t e = (u >> 23) - 127 + 15, mant = (u & 0x7fffffu) >> 13;
        *bits = sign | e << 10 | mant;
    }
    return true;
}

/* floor(0.5 + scale * clamp(v, lo, 1)) in f32, as an unsigned or signed code */
static int32_t pack_code(float v, float lo, float scale)
{
    float c = fminf(fmaxf(v, lo), 1.0f);
    float s = scale * c;
    return (int32_t)floorf(0.5f + s);
}

static uint32_t pack_norm(const uint32_t *in, int n, float lo, float scale, unsigned bits)
{
    uint32_t r = 0, mask = (1u << bits) - 1u;
    for (int i = 0; i < n; i++)
        r |= ((uint32_t)pack_code(m_float(in[i]), lo, scale) & mask) << (bits * (unsigned)i);
    return r;
}

static float (*const unary_libm[STEX_MATH_FN_COUNT])(float) = {
    [STEX_MATH_SIN_F32] = sinf,     [STEX_MATH_COS_F32] = cosf,     [STEX_MATH_TAN_F32] = tanf,
    [STEX_MATH_EXP_F32] = expf,     [STEX_MATH_EXP2_F32] = exp2f,   [STEX_MATH_LOG_F32] = logf,
    [STEX_MATH_LOG2_F32] = log2f,   [STEX_MATH_SQRT_F32] = sqrtf,   [STEX_MATH_TANH_F32] = tanhf,
    [STEX_MATH_ATAN_F32] = atanf,   [STEX_MATH_ASIN_F32] = asinf,   [STEX_MATH_ACOS_F32] = acosf,
    [STEX_MATH_SINH_F32] = sinhf,   [STEX_MATH_COSH_F32] = coshf,   [STEX_MATH_ASINH_F32] = asinhf,
    [STEX_MATH_ACOSH_F32] = acoshf, [STEX_MATH_ATANH_F32] = atanhf,
};

stex_status stex_m_const_tint(stex_math_fn fn, const uint32_t *in, uint32_t *out, bool *handled)
{
    float a = m_float(in[0]), b = m_float(in[1]), c = m_float(in[2]), v, t, u;
    const float pi = (float)M_PI;
    *handled = true;
    if (unary_libm[fn]) {
        out[0] = m_bits(unary_libm[fn](a));
        return STEX_OK;
    }
    switch (fn) {
    case STEX_MATH_POW_F32:   out[0] = m_bits(powf(a, b)); return STEX_OK;
    case STEX_MATH_ATAN2_F32: out[0] = m_bits(atan2f(a, b)); return STEX_OK;
    case STEX_MATH_INVERSESQRT_F32:
        v = 1.0f / sqrtf(a);
        break;
    case STEX_MATH_FMA_F32: /* the product rounded, then the sum */
        STEP(u, a * b, "fma's product");
        v = u + c;
        break;
    case STEX_MATH_REM_F32: /* x - y * trunc(x / y), every step in f32 */
        if (b == 0.0f)
            return stex_fail(STEX_SHADER_ERROR, "f32 %% by zero cannot be represented as 'f32'");
        v = a - b * truncf(a / b);
        break;
    case STEX_MATH_DEGREES_F32: v = a * (180.0f / pi); break;
    case STEX_MATH_RADIANS_F32: v = a * (pi / 180.0f); break;
    case STEX_MATH_MIX_F32: /* a * (1 - t) + b * t */
        STEP(t, 1.0f - c, "mix's 1 - t");
        STEP(u, a * t, "mix's a * (1 - t)");
        STEP(t, b * c, "mix's b * t");
        v = u + t;
        break;
    case STEX_MATH_SMOOTHSTEP_F32: /* t = clamp((x - lo) / (hi - lo), 0, 1); t * t * (3 - 2t) */
        STEP(u, c - a, "smoothstep's x - low");
        STEP(t, b - a, "smoothstep's high - low");
        STEP(t, u / t, "smoothstep's (x - low) / (high - low)");
        t = fminf(fmaxf(t, 0.0f), 1.0f);
        v = t * t * (3.0f - 2.0f * t);
        break;
    case STEX_MATH_STEP_F32:
        v = b < a ? 0.0f : 1.0f;
        break;
    case STEX_MATH_PACK2X16FLOAT: {
        uint32_t lo, hi;
        if (!f16_truncate(a, &lo) || !f16_truncate(b, &hi))
            return stex_fail(STEX_SHADER_ERROR, "value cannot be represented as 'f16' "
                             "(largest finite: 65504)");
        out[0] = lo | hi << 16;
        return STEX_OK;
    }
    case STEX_MATH_PACK2X16UNORM: out[0] = pack_norm(in, 2, 0.0f, 65535.0f, 16); return STEX_OK;
    case STEX_MATH_PACK2X16SNORM: out[0] = pack_norm(in, 2, -1.0f, 32767.0f, 16); return STEX_OK;
    case STEX_MATH_PACK4X8UNORM:  out[0] = pack_norm(in, 4, 0.0f, 255.0f, 8); return STEX_OK;
    case STEX_MATH_PACK4X8SNORM:  out[0] = pack_norm(in, 4, -1.0f, 127.0f, 8); return STEX_OK;
    case STEX_MATH_MODF_F32: /* fract is e - trunc(e): +0 for a negative whole number */
        out[0] = m_bits(a - truncf(a));
        out[1] = m_bits(truncf(a));
        return STEX_OK;
    case STEX_MATH_MODF_F16: { /* the same, exact on the widened value */
        float h = stex_m_h2f(in[0] & 0xffffu);
        out[0] = stex_m_f2h(h - truncf(h));
        out[1] = stex_m_f2h(truncf(h));
        return STEX_OK;
    }
    default:
        *handled = false;
        return STEX_OK;
    }
    out[0] = m_bits(v);
    return STEX_OK;
}
