/*
 * math/const.c - WGSL const-expression evaluation (shader-creation time).
 *
 * WGSL evaluates a const-expression exactly as the runtime would in the
 * spec profile (IEEE binary32, subnormals kept, correctly rounded builtins),
 * but every value must be representable: an f32 argument or result that is
 * infinite or NaN, an integer division by zero, a shift past the bit width,
 * a builtin called outside its domain... is a shader-creation error.  The
 * messages follow Tint's wording (Dawn) without its formatted values.
 * AbstractFloat expressions are evaluated in f64 and converted to f32 last.
 *
 * That is the STEX_CONST_WGSL rule.  STEX_CONST_TINT (const_tint.c) is Dawn's
 * front end's arithmetic: its own f32 formulas for some operations.  (Its
 * handling of -0 belongs to a module, not to one operation: the WGSL front
 * end models it, wg_f32_const in wgsl/lower.c.)
 * tests/math/test_const.c replays the const rows measured through Dawn: under
 * the Tint rule every row matches; under WGSL's it lists, by name, where
 * Dawn departs from WGSL.
 */
#include <stdarg.h>
#include <stdio.h>

#include "math/const_tint.h"
#include "math/ops.h"

#include "common/error.h"

static stex_status shader_error(const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return stex_fail(STEX_SHADER_ERROR, "%s", msg);
}

static const char *result_type(const char *sig)
{
    const char *r = strstr(sig, "->");
    return r ? r + 2 : "";
}

static stex_status check_domain(stex_const_rule rule, stex_math_fn fn, const uint32_t *in)
{
    float a = m_float(in[0]);
    int32_t ia = (int32_t)in[0], ib = (int32_t)in[1];
    switch (fn) {
    case STEX_MATH_SQRT_F32:
        return a < 0.0f ? shader_error("sqrt must be called with a value >= 0") : STEX_OK;
    case STEX_MATH_INVERSESQRT_F32:
        return a <= 0.0f ? shader_error("inverseSqrt must be called with a value > 0")
                         : STEX_OK;
    case STEX_MATH_LOG_F32:
        return a <= 0.0f ? shader_error("log must be called with a value > 0") : STEX_OK;
    case STEX_MATH_LOG2_F32:
        return a <= 0.0f ? shader_error("log2 must be called with a value > 0") : STEX_OK;
    case STEX_MATH_ASIN_F32:
    case STEX_MATH_ACOS_F32:
        return fabsf(a) > 1.0f
                   ? shader_error("%s must be called with a value in the range [-1 .. 1] "
                                  "(inclusive)", fn == STEX_MATH_ASIN_F32 ? "asin" : "acos")
                   : STEX_OK;
    case STEX_MATH_ACOSH_F32:
        return a < 1.0f ? shader_error("acosh must be called with a value >= 1.0") : STEX_OK;
    case STEX_MATH_ATANH_F32:
        return fabsf(a) >= 1.0f ? shader_error("atanh must be called with a value in the "
                                               "range (-1 .. 1) (exclusive)")
                                : STEX_OK;
    case STEX_MATH_POW_F32: {
        float b = m_float(in[1]);
        /* pow(x, y) is exp2(y * log2(x)): x < 0, and 0^y for y <= 0, have no value */
        if (a < 0.0f || (a == 0.0f && b <= 0.0f))
            return shader_error("'pow(a, b)' cannot be represented as 'f32'");
        return STEX_OK;
    }
    case STEX_MATH_CLAMP_F32:
        return m_float(in[1]) > m_float(in[2])
                   ? shader_error("clamp called with 'low' greater than 'high'")
                   : STEX_OK;
    case STEX_MATH_SMOOTHSTEP_F32: {
        float lo = m_float(in[0]), hi = m_float(in[1]), x = m_float(in[2]);
        if (lo == hi)
            return shader_error("smoothstep called with 'low' equal to 'high'");
        /* every intermediate value must be finite too */
        if (!isfinite(hi - lo) || !isfinite(x - lo))
            return shader_error("'high - low' cannot be represented as 'f32'");
        return STEX_OK;
    }
    case STEX_MATH_PACK2X16FLOAT:
        if (rule == STEX_CONST_TINT)
            return STEX_OK; /* truncates: past 65504 is an error (const_tint.c) */
        for (int i = 0; i < 2; i++)
            if (fabsf(m_float(in[i])) >= 65520.0f) /* rounds past f16's 65504 */
                return shader_error("value cannot be represented as 'f16'");
        return STEX_OK;
    case STEX_MATH_LDEXP_F32:
        return ib > 128 ? shader_error("e2 must be less than or equal to 128") : STEX_OK;
    case STEX_MATH_DIV_I32: case STEX_MATH_REM_I32:
    case STEX_MATH_DIV_U32: case STEX_MATH_REM_U32:
        if (in[1] == 0)
            return shader_error("integer division by zero is invalid");
        if ((fn == STEX_MATH_DIV_I32 || fn == STEX_MATH_REM_I32) && ia == INT32_MIN && ib == -1)
            return shader_error("'-2147483648 %s -1' cannot be represented as 'i32'",
                                fn == STEX_MATH_DIV_I32 ? "/" : "%");
        return STEX_OK;
    case STEX_MATH_SHL_I32: case STEX_MATH_SHL_U32:
        if (in[1] >= 32)
            return shader_error("shift left value must be less than the bit width of the lhs, "
                                "which is 32");
        if (fn == STEX_MATH_SHL_U32 && in[1] > 0 && (in[0] >> (32 - in[1])) != 0)
            return shader_error("'%u << %u' cannot be represented as 'u32'", in[0], in[1]);
        if (fn == STEX_MATH_SHL_I32) {
            /* the bits shifted out and the new sign bit must all equal the old sign */
            uint32_t top = in[1] ? in[0] >> (31 - in[1]) : 0;
            uint32_t all = in[1] ? (2u << in[1]) - 1u : 0;
            if (in[1] && top != 0 && top != all)
                return shader_error("shift left operation results in sign change");
        }
        return STEX_OK;
    case STEX_MATH_SHR_I32: case STEX_MATH_SHR_U32:
        return in[1] >= 32 ? shader_error("shift right value must be less than the bit width "
                                          "of the lhs, which is 32")
                           : STEX_OK;
    case STEX_MATH_CLAMP_I32:
        return (int32_t)in[1] > (int32_t)in[2]
                   ? shader_error("clamp called with 'low' (%d) greater than 'high' (%d)",
                                  (int32_t)in[1], (int32_t)in[2])
                   : STEX_OK;
    case STEX_MATH_CLAMP_U32:
        return in[1] > in[2] ? shader_error("clamp called with 'low' (%u) greater than "
                                            "'high' (%u)", in[1], in[2])
                             : STEX_OK;
    case STEX_MATH_EXTRACTBITS_U32: case STEX_MATH_EXTRACTBITS_I32:
        return (uint64_t)in[1] + in[2] > 32
                   ? shader_error("'offset' + 'count' must be less than or equal to the bit "
                                  "width of 'e'")
                   : STEX_OK;
    case STEX_MATH_INSERTBITS_U32: case STEX_MATH_INSERTBITS_I32:
        return (uint64_t)in[2] + in[3] > 32
                   ? shader_error("'offset' + 'count' must be less than or equal to the bit "
                                  "width of 'e'")
                   : STEX_OK;
    default:
        return STEX_OK;
    }
}

/* AbstractFloat: the expression in f64, then f32(...) */
static stex_status eval_abstract(stex_const_rule rule, stex_math_fn fn, const uint32_t *in,
                                 uint32_t *out)
{
    double a = m_float(in[0]), b = m_float(in[1]), c = m_float(in[2]), v;
    switch (fn) {
    case STEX_MATH_FMA_F32: /* Tint: the product rounded to f64, then the sum */
        v = rule == STEX_CONST_TINT ? a * b + c : fma(a, b, c);
        break;
    case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32: case STEX_MATH_MUL_ADD_LET_F32:
        v = a * b + c;
        break;
    case STEX_MATH_MUL_SUB_F32: v = a * b - c; break;
    case STEX_MATH_SUB_MUL_F32: v = c - a * b; break;
    case STEX_MATH_NEG_MUL_SUB_F32: v = -(a * b) - c; break;
    default:
        return stex_fail(STEX_INVALID_ARGUMENT, "const: %s %s has no AbstractFloat form here",
                         stex_math_fn_get(fn)->op, stex_math_fn_get(fn)->sig);
    }
    if (!isfinite(v))
        return shader_error("value %s cannot be represented as 'abstract-float'",
                            isnan(v) ? "nan" : "inf");
    float f = (float)v;
    if (!isfinite(f))
        return shader_error("value %.17g cannot be represented as 'f32'", v);
    out[0] = m_bits(f);
    return STEX_OK;
}

stex_status stex_math_eval_const(stex_const_rule rule, stex_math_fn fn, bool abstract,
                                 const uint32_t *in_, uint32_t *out)
{
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    if (!info)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_math_eval_const: fn %d is not an "
                         "overload of stex/math.def", (int)fn);
    if (rule != STEX_CONST_WGSL && rule != STEX_CONST_TINT)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_math_eval_const: rule %d is neither "
                         "STEX_CONST_WGSL nor STEX_CONST_TINT", (int)rule);
    char types[16];
    int n = stex_math_word_types(info->sig, types, 16);
    uint32_t in[16] = {0};
    memcpy(in, in_, (size_t)info->in_words * sizeof *in);
    for (int i = 0; i < n; i++) {
        float v = types[i] == 'h' ? stex_m_h2f(in[i] & 0xffffu) : m_float(in[i]);
        if ((types[i] == 'f' || types[i] == 'h') && !isfinite(v))
            return shader_error("value %s cannot be represented as '%s'", isnan(v) ? "nan" : "inf",
                                types[i] == 'h' ? "f16" : "f32");
    }
    const char *rt = result_type(info->sig);
    char rtypes[16];
    int nr = stex_math_word_types(rt, rtypes, 16);
    stex_status st;
    if (abstract) {
        st = eval_abstract(rule, fn, in, out);
    } else {
        st = check_domain(rule, fn, in);
        if (st != STEX_OK)
            return st;
        bool done = false;
        if (rule == STEX_CONST_TINT && (st = stex_m_const_tint(fn, in, out, &done)) != STEX_OK)
            return st;
        if (!done)
            st = stex_math_eval(stex_profile_get(STEX_PROFILE_SPEC), fn, in, out);
        if (st != STEX_OK)
            return st;
        /* every f32 result must be finite */
        for (int i = 0; i < nr && i < (int)info->out_words; i++) {
            if (rtypes[i] == 'f' && !isfinite(m_float(out[i])))
                return shader_error("'%s' cannot be represented as 'f32'", info->expr);
            if (rtypes[i] == 'h' && !isfinite(stex_m_h2f(out[i] & 0xffffu)))
                return shader_error("'%s' cannot be represented as 'f16'", info->expr);
        }
    }
    return st;
}
