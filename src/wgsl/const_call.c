/* Builtin function calls in const- and override-expressions, one scalar
 * (one component) at a time.
 *
 * Concrete overloads (f32, i32, u32) are the math layer's const evaluation
 * (stex_math_eval_const: the spec profile's correctly rounded answers, and
 * WGSL's shader-creation errors: a domain error, a non-finite result,
 * offset + count past the width...), so a const-expression has, bit for bit,
 * the value stex_math_eval_const gives.  The few integer overloads the math
 * table leaves out (max, abs of u32) are exact and written here.
 *
 * AbstractInt overloads (abs, clamp, max, min, sign) are exact in 64 bits;
 * an overflow is an error.  AbstractFloat overloads are evaluated in double
 * (WGSL: at least f32's accuracy) with the same domain rules as f32, and a
 * result that is not finite is an error. */
#include "wgsl/lower.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stex/math.h"

static const char *scalar_name(wg_type_kind k)
{
    switch (k) {
    case TY_I32: return "i32";
    case TY_U32: return "u32";
    case TY_F32: return "f32";
    case TY_F16: return "f16";
    default: return "bool";
    }
}

bool wg_const_word(wg_ctx *x, const char *name, wg_type_kind k, const wg_cword *in, uint32_t n,
                   wg_cword *out, uint32_t nout, wg_loc loc)
{
    /* the signature: every argument of kind k except ldexp's exponent (i32)
     * and extractBits' / insertBits' offset and count (u32) */
    char sig[64] = "";
    for (uint32_t i = 0; i < n; i++) {
        const char *t = scalar_name(k);
        if (!strcmp(name, "ldexp") && i == 1)
            t = "i32";
        if ((!strcmp(name, "extractBits") && i >= 1) || (!strcmp(name, "insertBits") && i >= 2))
            t = "u32";
        strcat(sig, i ? "," : "");
        strcat(sig, t);
    }
    strcat(sig, "->");
    strcat(sig, !strcmp(name, "frexp") ? "f32,i32" : !strcmp(name, "modf") ? "f32,f32"
                                                                             : scalar_name(k));
    uint32_t w[4] = {0}, r[4] = {0};
    for (uint32_t i = 0; i < n && i < 4; i++)
        w[i] = in[i].u;
    stex_math_fn fn;
    if (stex_math_fn_find(name, sig, &fn)) {
        if (stex_math_eval_const(x->const_rule, fn, false, w, r) != STEX_OK) {
            WG_ERR(x, loc, "const-eval", "%s in a const-expression: %s", name, stex_last_error());
            return false;
        }
        wg_f32_results(x, fn, r);
        for (uint32_t i = 0; i < nout; i++)
            out[i].u = r[i];
        return true;
    }
    /* integer overloads the math table leaves out: exact */
    if (!strcmp(name, "max") && k == TY_I32) {
        out[0].u = (int32_t)w[0] > (int32_t)w[1] ? w[0] : w[1];
        return true;
    }
    if (!strcmp(name, "max") && k == TY_U32) {
        out[0].u = w[0] > w[1] ? w[0] : w[1];
        return true;
    }
    if (!strcmp(name, "abs") && k == TY_U32) {
        out[0].u = w[0];
        return true;
    }
    WG_ERR(x, loc, "builtin-functions", "%s has no overload (%s)", name, sig);
    return false;
}

static bool aint_word(wg_ctx *x, const char *name, const wg_cword *a, wg_cword *out, wg_loc loc)
{
    bool bad = false;
    if (!strcmp(name, "add")) {
        bad = __builtin_add_overflow(a[0].i, a[1].i, &out->i);
    } else if (!strcmp(name, "sub")) {
        bad = __builtin_sub_overflow(a[0].i, a[1].i, &out->i);
    } else if (!strcmp(name, "mul")) {
        bad = __builtin_mul_overflow(a[0].i, a[1].i, &out->i);
    } else if (!strcmp(name, "abs")) {
        /* WGSL: abs of the most negative value is that value */
        out->i = a[0].i < 0 && a[0].i != INT64_MIN ? -a[0].i : a[0].i;
    } else if (!strcmp(name, "sign")) {
        out->i = (a[0].i > 0) - (a[0].i < 0);
    } else if (!strcmp(name, "min")) {
        out->i = a[0].i < a[1].i ? a[0].i : a[1].i;
    } else if (!strcmp(name, "max")) {
        out->i = a[0].i > a[1].i ? a[0].i : a[1].i;
    } else if (!strcmp(name, "clamp")) {
        if (a[1].i > a[2].i) {
            WG_ERR(x, loc, "const-eval", "clamp called with 'low' (%lld) greater than 'high' "
                   "(%lld)", (long long)a[1].i, (long long)a[2].i);
            return false;
        }
        out->i = a[0].i < a[1].i ? a[1].i : a[0].i > a[2].i ? a[2].i : a[0].i;
    } else {
        WG_ERR(x, loc, "builtin-functions", "%s has no abstract-int overload", name);
        return false;
    }
    if (bad) {
        WG_ERR(x, loc, "const-eval", "%s in a const-expression: the value overflows an "
               "abstract-int", name);
        return false;
    }
    return true;
}

/* A domain error of an AbstractFloat builtin (the f32 rules of WGSL 17.5), or NULL. */
static const char *afloat_domain(const char *name, const double *a)
{
    if (!strcmp(name, "sqrt") && a[0] < 0)
        return "sqrt must be called with a value >= 0";
    if (!strcmp(name, "inverseSqrt") && a[0] <= 0)
        return "inverseSqrt must be called with a value > 0";
    if ((!strcmp(name, "log") || !strcmp(name, "log2")) && a[0] <= 0)
        return "log and log2 must be called with a value > 0";
    if ((!strcmp(name, "asin") || !strcmp(name, "acos")) && fabs(a[0]) > 1)
        return "asin and acos must be called with a value in [-1, 1]";
    if (!strcmp(name, "acosh") && a[0] < 1)
        return "acosh must be called with a value >= 1";
    if (!strcmp(name, "atanh") && fabs(a[0]) >= 1)
        return "atanh must be called with a value in (-1, 1)";
    if (!strcmp(name, "pow") && (a[0] < 0 || (a[0] == 0 && a[1] <= 0)))
        return "pow(x, y) has no value for x < 0, or x = 0 and y <= 0";
    if (!strcmp(name, "clamp") && a[1] > a[2])
        return "clamp called with 'low' greater than 'high'";
    if (!strcmp(name, "smoothstep") && a[0] == a[1])
        return "smoothstep called with 'low' equal to 'high'";
    return NULL;
}

/* One AbstractFloat result; NAN for a name this table does not hold. */
static double afloat_value(const char *name, const double *a, double *second)
{
    static const struct { const char *n; double (*f)(double); } U[] = {
        {"sin", sin}, {"cos", cos}, {"tan", tan}, {"asin", asin}, {"acos", acos},
        {"atan", atan}, {"sinh", sinh}, {"cosh", cosh}, {"tanh", tanh}, {"asinh", asinh},
        {"acosh", acosh}, {"atanh", atanh}, {"exp", exp}, {"exp2", exp2}, {"log", log},
        {"log2", log2}, {"sqrt", sqrt}, {"abs", fabs}, {"floor", floor}, {"ceil", ceil},
        {"trunc", trunc}, {"round", nearbyint}};
    for (size_t i = 0; i < sizeof U / sizeof U[0]; i++)
        if (!strcmp(name, U[i].n))
            return U[i].f(a[0]);
    if (!strcmp(name, "add")) return a[0] + a[1];
    if (!strcmp(name, "sub")) return a[0] - a[1];
    if (!strcmp(name, "mul")) return a[0] * a[1];
    if (!strcmp(name, "div")) return a[0] / a[1];
    if (!strcmp(name, "neg")) return -a[0];
    if (!strcmp(name, "inverseSqrt")) return 1.0 / sqrt(a[0]);
    if (!strcmp(name, "fract")) return a[0] - floor(a[0]);
    if (!strcmp(name, "sign")) return (a[0] > 0) - (a[0] < 0);
    if (!strcmp(name, "saturate")) return fmin(fmax(a[0], 0.0), 1.0);
    if (!strcmp(name, "degrees")) return a[0] * (180.0 / M_PI);
    if (!strcmp(name, "radians")) return a[0] * (M_PI / 180.0);
    if (!strcmp(name, "pow")) return pow(a[0], a[1]);
    if (!strcmp(name, "atan2")) return atan2(a[0], a[1]);
    if (!strcmp(name, "min")) return fmin(a[0], a[1]);
    if (!strcmp(name, "max")) return fmax(a[0], a[1]);
    if (!strcmp(name, "step")) return a[1] >= a[0] ? 1.0 : 0.0;
    if (!strcmp(name, "ldexp")) return ldexp(a[0], (int)fmax(fmin(a[1], 4096), -4096));
    if (!strcmp(name, "clamp")) return fmin(fmax(a[0], a[1]), a[2]);
    if (!strcmp(name, "mix")) return a[0] * (1.0 - a[2]) + a[1] * a[2];
    if (!strcmp(name, "fma")) return fma(a[0], a[1], a[2]);
    if (!strcmp(name, "smoothstep")) {
        double t = fmin(fmax((a[2] - a[0]) / (a[1] - a[0]), 0.0), 1.0);
        return t * t * (3.0 - 2.0 * t);
    }
    if (!strcmp(name, "frexp")) {
        int e;
        double f = frexp(a[0], &e);
        *second = e;
        return f;
    }
    if (!strcmp(name, "modf"))
        return modf(a[0], second);
    return NAN;
}

bool wg_const_abstract_word(wg_ctx *x, const char *name, bool is_int, const wg_cword *in,
                            uint32_t n, wg_cword *out, wg_loc loc)
{
    if (is_int)
        return aint_word(x, name, in, out, loc);
    double a[4] = {0, 0, 0, 0}, second = 0;
    for (uint32_t i = 0; i < n && i < 4; i++)
        a[i] = in[i].f;
    const char *bad = afloat_domain(name, a);
    if (bad) {
        WG_ERR(x, loc, "const-eval", "%s in a const-expression: %s", name, bad);
        return false;
    }
    double v = afloat_value(name, a, &second);
    if (x->const_rule == STEX_CONST_TINT && !strcmp(name, "modf"))
        v = a[0] - second; /* Dawn's front end: +0 for a negative whole number (const_tint.c) */
    if (!isfinite(v)) {
        WG_ERR(x, loc, "const-eval", "%s in a const-expression: the value is not a finite "
               "abstract-float", name);
        return false;
    }
    out[0].f = v;
    if (!strcmp(name, "frexp"))
        out[1].i = (int64_t)second;
    else if (!strcmp(name, "modf"))
        out[1].f = second;
    return true;
}
