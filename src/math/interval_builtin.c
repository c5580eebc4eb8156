/*
 * math/interval_builtin.c - WGSL's float builtins on sets, one rule each
 * from the accuracy table ("Accuracy of concrete floating point built-in
 * functions"): an absolute error, an ULP count, correctly rounded, or
 * inherited from an expression (then evaluated here on sets, each step by
 * its own rule, as the spec says).  A rule given over an input range
 * leaves the result indeterminate outside it (stex_iv_any_float).
 *
 * The exact value of a transcendental is the C library's double result
 * widened by a few double ulps (stex_iv_widen): far below an f32 ulp.
 */
#include "math/interval_internal.h"

#include <string.h>

typedef stex_ival iv;

static iv pt(double v)
{
    return stex_iv_make(v, v);
}

static bool wild(const iv *a)
{
    return stex_iv_wild(a);
}

/* Bounds that f(x) is known to keep, from points where it is exactly a
 * power of two or zero (exp2 of an integer, exp(0), log(1), log2 of a
 * power of two): the widened C library value is clamped into them, so a
 * value that lies just below a power of two is never widened across it
 * (where WGSL's ULP doubles), and exact values stay exact. */
static void anchors(double (*f)(double), double x, double *lo, double *hi)
{
    int e;
    *lo = -INFINITY, *hi = INFINITY;
    if (f == exp2 && fabs(x) < 1000) {
        *lo = ldexp(1.0, (int)floor(x)), *hi = ldexp(1.0, (int)ceil(x));
    } else if (f == exp) {
        *lo = x >= 0 ? 1 : 0, *hi = x <= 0 ? 1 : INFINITY;
    } else if (f == log2 && x > 0) {
        double m = frexp(x, &e); /* x = m 2^e, m in [0.5, 1) */
        *lo = e - 1, *hi = m == 0.5 ? e - 1 : e;
    } else if (f == log && x > 0) {
        *lo = x >= 1 ? 0 : -INFINITY, *hi = x <= 1 ? 0 : INFINITY;
    }
}

/* f monotone non-decreasing: [f(lo), f(hi)] as a widened real range */
static void range_up(double (*f)(double), iv a, double *lo, double *hi)
{
    double al, ah, bl, bh;
    *lo = f(a.lo), *hi = f(a.hi);
    stex_iv_widen(lo, hi);
    anchors(f, a.lo, &al, &ah);
    anchors(f, a.hi, &bl, &bh);
    *lo = fmax(*lo, al), *hi = fmin(*hi, bh);
}

static iv sin_cos(const iv_fmt *F, iv a, bool is_cos)
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    /* the stated accuracy holds on [-pi, pi] (no f32 or f16 lies between
     * the double M_PI and pi, so comparing with M_PI is exact) */
    if (a.lo < -M_PI || a.hi > M_PI)
        return stex_iv_any_float();
    double lo, hi;
    if (is_cos) {
        double cl = cos(a.lo), ch = cos(a.hi);
        lo = fmin(cl, ch);
        hi = a.lo <= 0 && a.hi >= 0 ? 1.0 : fmax(cl, ch);
    } else {
        double sl = sin(a.lo), sh = sin(a.hi);
        lo = fmin(sl, sh), hi = fmax(sl, sh);
        if (a.lo <= M_PI_2 + 1e-9 && a.hi >= M_PI_2 - 1e-9)
            hi = 1.0;
        if (a.lo <= -M_PI_2 + 1e-9 && a.hi >= -M_PI_2 - 1e-9)
            lo = -1.0;
    }
    stex_iv_widen(&lo, &hi);
    return stex_iv_abs_err(F, lo, hi, F->sincos_abs);
}

static iv exp_any(const iv_fmt *F, iv a, double (*f)(double))
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    double lo, hi, m = fmax(fabs(a.lo), fabs(a.hi));
    range_up(f, a, &lo, &hi);
    return stex_iv_ulp_err(F, lo, hi, F->exp_ulp + 2 * m); /* 3 + 2|x| ULP (f16: 1 + 2|x|) */
}

/* log and log2: absolute error on [0.5, 2], 3 ULP elsewhere; x > 0 */
static iv log_any(const iv_fmt *F, iv a, double (*f)(double))
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    if (!(a.lo > 0))
        return stex_iv_any_float(); /* log(0) is -inf, log(x < 0) NaN */
    iv r = {0, 0, STEX_IVAL_NO_NUMBER};
    double lo, hi;
    if (a.lo <= 2.0 && a.hi >= 0.5) {
        range_up(f, (iv){fmax(a.lo, 0.5), fmin(a.hi, 2.0), 0}, &lo, &hi);
        r = stex_iv_abs_err(F, lo, hi, F->log_abs);
    }
    if (a.lo < 0.5) {
        range_up(f, (iv){a.lo, fmin(a.hi, 0.5), 0}, &lo, &hi);
        r = stex_iv_hull(r, stex_iv_ulp_err(F, lo, hi, 3));
    }
    if (a.hi > 2.0) {
        range_up(f, (iv){fmax(a.lo, 2.0), a.hi, 0}, &lo, &hi);
        r = stex_iv_hull(r, stex_iv_ulp_err(F, lo, hi, 3));
    }
    r.flags &= ~STEX_IVAL_NO_NUMBER;
    return r;
}

static iv inverse_sqrt(const iv_fmt *F, iv a)
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    if (!(a.lo > 0))
        return stex_iv_any_float(); /* 1/sqrt(0) is inf, sqrt(x < 0) NaN */
    double lo = 1 / sqrt(a.hi), hi = 1 / sqrt(a.lo);
    stex_iv_widen(&lo, &hi);
    /* x in [2^k, 2^(k+1)): 1 / sqrt(x) in [2^-ceil((k+1)/2), 2^-floor(k/2)],
     * exact at x = 4^j; the widened value is clamped into that */
    int el, eh;
    frexp(a.hi, &eh), frexp(a.lo, &el);
    int kh = eh - 1, kl = el - 1;
    lo = fmax(lo, ldexp(1.0, -(int)ceil((kh + 1) / 2.0)));
    hi = fmin(hi, ldexp(1.0, -(int)floor(kl / 2.0)));
    if (kh % 2 == 0 && a.hi == ldexp(1.0, kh)) /* a.hi = 4^j: exactly 2^-j */
        lo = ldexp(1.0, -kh / 2);
    return stex_iv_ulp_err(F, lo, hi, 2);
}

static iv sqrt_iv(const iv_fmt *F, iv a)
{
    return stex_iv_div(F, pt(1), inverse_sqrt(F, a)); /* inherited from 1.0 / inverseSqrt(x) */
}

static iv atan_iv(const iv_fmt *F, iv a)
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    double lo, hi;
    range_up(atan, a, &lo, &hi);
    return stex_iv_ulp_err(F, lo, hi, F->atan_ulp);
}

static iv atan2_iv(const iv_fmt *F, iv y, iv x)
{
    if (wild(&y) || wild(&x))
        return stex_iv_any_float();
    x = stex_iv_flush_in(F, x), y = stex_iv_flush_in(F, y);
    /* the ULP bound holds for |x| in [2^-e, 2^e] (e as division's) and y
     * finite and normal: on that box atan2 is monotone in each argument */
    double xmin = ldexp(1.0, -F->div_exp), xmax = ldexp(1.0, F->div_exp);
    bool xok = (x.lo >= xmin && x.hi <= xmax) || (x.hi <= -xmin && x.lo >= -xmax);
    bool yok = y.lo >= F->min_normal || y.hi <= -F->min_normal;
    if (!xok || !yok)
        return stex_iv_any_float();
    double lo = INFINITY, hi = -INFINITY, ys[2] = {y.lo, y.hi}, xs[2] = {x.lo, x.hi};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double v = atan2(ys[i], xs[j]);
            lo = fmin(lo, v), hi = fmax(hi, v);
        }
    stex_iv_widen(&lo, &hi);
    return stex_iv_ulp_err(F, lo, hi, F->atan_ulp);
}

/* 1 - x * x, the square root of which asin and acos inherit */
static iv one_minus_sq(const iv_fmt *F, iv x)
{
    return sqrt_iv(F, stex_iv_sub(F, pt(1), stex_iv_mul(F, x, x)));
}

/* asin, acos: the worse of an absolute error and the inherited atan2 form */
static iv asin_acos(const iv_fmt *F, iv a, bool is_acos)
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    if (a.lo < -1 || a.hi > 1)
        return stex_iv_any_float(); /* outside the domain [-1, 1] */
    double lo, hi;
    if (is_acos) {
        lo = acos(a.hi), hi = acos(a.lo);
    } else {
        lo = asin(a.lo), hi = asin(a.hi);
    }
    stex_iv_widen(&lo, &hi);
    iv r = stex_iv_abs_err(F, lo, hi, is_acos ? F->acos_abs : F->asin_abs);
    iv s = one_minus_sq(F, a);
    return stex_iv_hull(r, is_acos ? atan2_iv(F, s, a) : atan2_iv(F, a, s));
}

static iv exp_e(const iv_fmt *F, iv a)
{
    return exp_any(F, a, exp);
}

static iv sinh_cosh(const iv_fmt *F, iv a, bool is_cosh)
{
    /* (exp(x) -+ exp(-x)) * 0.5 */
    iv p = exp_e(F, a), m = exp_e(F, stex_iv_neg(F, a));
    iv s = is_cosh ? stex_iv_add(F, p, m) : stex_iv_sub(F, p, m);
    return stex_iv_mul(F, s, pt(0.5));
}

static iv log_e(const iv_fmt *F, iv a)
{
    return log_any(F, a, log);
}

static iv tanh_iv(const iv_fmt *F, iv a)
{
    if (wild(&a))
        return stex_iv_any_float();
    /* the worse of absolute error 1e-5 and sinh(x) / cosh(x) */
    iv f = stex_iv_flush_in(F, a);
    double lo, hi;
    range_up(tanh, f, &lo, &hi);
    iv r = stex_iv_abs_err(F, lo, hi, 1.0e-5);
    return stex_iv_hull(r, stex_iv_div(F, sinh_cosh(F, a, false), sinh_cosh(F, a, true)));
}

static iv frac_hull(const iv_fmt *F, iv a, double lo1)
{
    /* values with |v| in [lo1, 1) on a's sides of zero */
    double one_minus = stex_iv_next_down(F, 1.0);
    double lo = a.lo < 0 ? -one_minus : lo1, hi = a.hi > 0 ? one_minus : -lo1;
    return stex_iv_make(lo, hi);
}

static void frexp_iv(const iv_fmt *F, iv a, iv *fr, iv *ex)
{
    bool sub = a.lo < F->min_normal && a.hi > -F->min_normal && !(a.lo == 0 && a.hi == 0);
    if (wild(&a) || sub) { /* subnormal, NaN or infinite: indeterminate */
        *fr = stex_iv_any_float(), *ex = stex_iv_any_int('i');
        return;
    }
    if (a.lo == 0 && a.hi == 0) {
        *fr = pt(0), *ex = (iv){0, 0, 0};
        return;
    }
    int el, eh;
    frexp(fmin(fabs(a.lo), fabs(a.hi)), &el);
    frexp(fmax(fabs(a.lo), fabs(a.hi)), &eh);
    *ex = (iv){el, eh, 0};
    *fr = el == eh ? stex_iv_make(ldexp(a.lo, -el), ldexp(a.hi, -el)) : frac_hull(F, a, 0.5);
}

static void modf_iv(const iv_fmt *F, iv a, iv *fr, iv *whole)
{
    if (wild(&a)) {
        *fr = *whole = stex_iv_any_float();
        return;
    }
    *whole = stex_iv_trunc_fn(F, a);
    iv f = stex_iv_flush_in(F, a);
    if (whole->lo == whole->hi)
        *fr = stex_iv_finish(F, f.lo - whole->lo, f.hi - whole->lo); /* exact */
    else
        *fr = stex_iv_flush_in(F, frac_hull(F, f, 0));
}

static iv ldexp_iv(const iv_fmt *F, iv x, iv e)
{
    int bias = F->type == 'h' ? 15 : 127;
    if (wild(&x) || (e.flags & STEX_IVAL_ANY) || e.hi > bias + 1)
        return stex_iv_any_float(); /* e2 > bias + 1: indeterminate */
    x = stex_iv_flush_in(F, x);
    /* x * 2^e is monotone in each argument: corners; exponents past the
     * grid's reach are clamped (the result is already 0 or min_sub away) */
    double lo = INFINITY, hi = -INFINITY, xs[2] = {x.lo, x.hi};
    double es[2] = {fmax(e.lo, -400), fmax(e.hi, -400)};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            double v = ldexp(xs[i], (int)es[j]);
            lo = fmin(lo, v), hi = fmax(hi, v);
        }
    iv r = stex_iv_rounded(F, lo, 0, hi, 0);
    if (e.lo + bias <= 0) /* "the result may be zero if e2 + bias <= 0" */
        r = stex_iv_hull(r, pt(0));
    return r;
}

static iv step_iv(const iv_fmt *F, iv edge, iv x)
{
    if (wild(&edge) || wild(&x))
        return stex_iv_any_float();
    edge = stex_iv_flush_in(F, edge), x = stex_iv_flush_in(F, x);
    bool can1 = edge.lo <= x.hi, can0 = edge.hi > x.lo; /* 1.0 if edge <= x */
    return stex_iv_make(can0 ? 0 : 1, can1 ? 1 : 0);
}

static iv abs_iv(const iv_fmt *F, iv a)
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    if (a.lo >= 0)
        return stex_iv_finish(F, a.lo, a.hi);
    if (a.hi <= 0)
        return stex_iv_finish(F, -a.hi, -a.lo);
    return stex_iv_finish(F, 0, fmax(-a.lo, a.hi));
}

static double sign1(double x)
{
    return x > 0 ? 1 : x < 0 ? -1 : 0;
}

static iv sign_iv(const iv_fmt *F, iv a)
{
    if (wild(&a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    return stex_iv_make(sign1(a.lo), sign1(a.hi));
}

static iv mix_iv(const iv_fmt *F, iv x, iv y, iv z)
{
    /* inherited from x * (1.0 - z) + y * z; devices compute x + (y - x) * z
     * (SPIR-V's FMix; NVIDIA measured: mix(MAX, -MAX, 0) is NaN there), and
     * the CTS accepts both forms, so both are allowed */
    iv l = stex_iv_mul(F, x, stex_iv_sub(F, pt(1), z));
    iv precise = stex_iv_add(F, l, stex_iv_mul(F, y, z));
    iv fmix = stex_iv_add(F, x, stex_iv_mul(F, stex_iv_sub(F, y, x), z));
    return stex_iv_hull(precise, fmix);
}

static iv smoothstep_iv(const iv_fmt *F, iv e0, iv e1, iv x)
{
    /* inherited from t * t * (3.0 - 2.0 * t), t = clamp((x - e0) / (e1 - e0), 0.0, 1.0) */
    iv t = stex_iv_div(F, stex_iv_sub(F, x, e0), stex_iv_sub(F, e1, e0));
    t = stex_iv_clamp(F, t, pt(0), pt(1));
    iv tt = stex_iv_mul(F, t, t);
    return stex_iv_mul(F, tt, stex_iv_sub(F, pt(3), stex_iv_mul(F, pt(2), t)));
}

static iv asinh_acosh(const iv_fmt *F, iv x, double one)
{
    /* log(x + sqrt(x * x +- 1.0)) */
    iv s = sqrt_iv(F, stex_iv_add(F, stex_iv_mul(F, x, x), pt(one)));
    return log_e(F, stex_iv_add(F, x, s));
}

static iv atanh_iv(const iv_fmt *F, iv x)
{
    /* log((1.0 + x) / (1.0 - x)) * 0.5 */
    iv q = stex_iv_div(F, stex_iv_add(F, pt(1), x), stex_iv_sub(F, pt(1), x));
    return stex_iv_mul(F, log_e(F, q), pt(0.5));
}

static iv pow_iv(const iv_fmt *F, iv x, iv y)
{
    /* exp2(y * log2(x)) */
    return exp_any(F, stex_iv_mul(F, y, log_any(F, x, log2)), exp2);
}

/* the builtins of this file: one id each, and the name math.def gives it */
#define IV_BUILTINS(X) \
  X(SIN, "sin") X(COS, "cos") X(TAN, "tan") X(EXP, "exp") X(EXP2, "exp2") X(LOG, "log") \
  X(LOG2, "log2") X(SQRT, "sqrt") X(INVERSE_SQRT, "inverseSqrt") X(TANH, "tanh") \
  X(ATAN, "atan") X(ATAN2, "atan2") X(ASIN, "asin") X(ACOS, "acos") X(SINH, "sinh") \
  X(COSH, "cosh") X(ASINH, "asinh") X(ACOSH, "acosh") X(ATANH, "atanh") X(POW, "pow") \
  X(FLOOR, "floor") X(CEIL, "ceil") X(ROUND, "round") X(TRUNC, "trunc") X(FRACT, "fract") \
  X(ABS, "abs") X(SIGN, "sign") X(SATURATE, "saturate") X(DEGREES, "degrees") \
  X(RADIANS, "radians") X(FREXP, "frexp") X(MODF, "modf") X(MIN, "min") X(MAX, "max") \
  X(STEP, "step") X(LDEXP, "ldexp") X(CLAMP, "clamp") X(SMOOTHSTEP, "smoothstep") \
  X(MIX, "mix")

enum {
#define X(id, name) B_##id,
    IV_BUILTINS(X)
#undef X
};

static const char *const NAMES[] = {
#define X(id, name) name,
    IV_BUILTINS(X)
#undef X
};

int stex_iv_builtin_id(const char *op)
{
    for (int i = 0; i < (int)(sizeof NAMES / sizeof NAMES[0]); i++)
        if (!strcmp(NAMES[i], op))
            return i;
    return -1;
}

void stex_iv_builtin(const iv_fmt *F, int id, const iv *in, iv *out)
{
    iv a = in[0];
    switch (id) {
    case B_SIN:
    case B_COS:
        out[0] = sin_cos(F, a, id == B_COS);
        break;
    case B_TAN:
        /* sin(x) / cos(x) */
        out[0] = stex_iv_div(F, sin_cos(F, a, false), sin_cos(F, a, true));
        break;
    case B_EXP:
        out[0] = exp_e(F, a);
        break;
    case B_EXP2:
        out[0] = exp_any(F, a, exp2);
        break;
    case B_LOG:
        out[0] = log_e(F, a);
        break;
    case B_LOG2:
        out[0] = log_any(F, a, log2);
        break;
    case B_SQRT:
        out[0] = sqrt_iv(F, a);
        break;
    case B_INVERSE_SQRT:
        out[0] = inverse_sqrt(F, a);
        break;
    case B_TANH:
        out[0] = tanh_iv(F, a);
        break;
    case B_ATAN:
        out[0] = atan_iv(F, a);
        break;
    case B_ATAN2:
        out[0] = atan2_iv(F, a, in[1]);
        break;
    case B_ASIN:
    case B_ACOS:
        out[0] = asin_acos(F, a, id == B_ACOS);
        break;
    case B_SINH:
    case B_COSH:
        out[0] = sinh_cosh(F, a, id == B_COSH);
        break;
    case B_ASINH:
        out[0] = asinh_acosh(F, a, 1.0);
        break;
    case B_ACOSH:
        out[0] = asinh_acosh(F, a, -1.0);
        break;
    case B_ATANH:
        out[0] = atanh_iv(F, a);
        break;
    case B_POW:
        out[0] = pow_iv(F, a, in[1]);
        break;
    case B_FLOOR:
        out[0] = stex_iv_floor_fn(F, a);
        break;
    case B_CEIL:
        out[0] = stex_iv_ceil_fn(F, a);
        break;
    case B_ROUND:
        out[0] = stex_iv_round_fn(F, a);
        break;
    case B_TRUNC:
        out[0] = stex_iv_trunc_fn(F, a);
        break;
    case B_FRACT:
        /* x - floor(x) */
        out[0] = stex_iv_sub(F, a, stex_iv_floor_fn(F, a));
        break;
    case B_ABS:
        out[0] = abs_iv(F, a);
        break;
    case B_SIGN:
        out[0] = sign_iv(F, a);
        break;
    case B_SATURATE:
        out[0] = stex_iv_clamp(F, a, pt(0), pt(1));
        break;
    case B_DEGREES:
        /* x * 57.295779513082322865 */
        out[0] = stex_iv_mul(F, a, stex_iv_const(F, 57.295779513082322865));
        break;
    case B_RADIANS:
        /* x * 0.017453292519943295474 */
        out[0] = stex_iv_mul(F, a, stex_iv_const(F, 0.017453292519943295474));
        break;
    case B_FREXP:
        frexp_iv(F, a, &out[0], &out[1]);
        break;
    case B_MODF:
        modf_iv(F, a, &out[0], &out[1]);
        break;
    case B_MIN:
        out[0] = stex_iv_min(F, a, in[1]);
        break;
    case B_MAX:
        out[0] = stex_iv_max(F, a, in[1]);
        break;
    case B_STEP:
        out[0] = step_iv(F, a, in[1]);
        break;
    case B_LDEXP:
        out[0] = ldexp_iv(F, a, in[1]);
        break;
    case B_CLAMP:
        out[0] = stex_iv_clamp(F, a, in[1], in[2]);
        break;
    case B_SMOOTHSTEP:
        out[0] = smoothstep_iv(F, a, in[1], in[2]);
        break;
    case B_MIX:
        out[0] = mix_iv(F, a, in[1], in[2]);
        break;
    default:
        break;
    }
}
