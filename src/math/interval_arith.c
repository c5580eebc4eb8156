/*
 * math/interval_arith.c - f32 and f16 arithmetic on sets: the operators,
 * the exactly defined builtins (floor, min, clamp...), comparisons and
 * conversions, by WGSL's "Floating Point Accuracy" table.
 *
 * Every operation first applies the Finite Math Assumption (an infinite,
 * NaN or unconstrained argument makes the result indeterminate: any) and
 * lets subnormal arguments flush (a set holding one also holds zero); its
 * exact result range is then rounded outward by stex_iv_finish's rules.
 * Outward rounding of each step also covers a fused `a * b + c`: the fused
 * result lies between the step-wise rounded-down and rounded-up ones.
 */
#include "math/interval_internal.h"

#define WILD1(a) (stex_iv_wild(&(a)))
#define WILD2(a, b) (WILD1(a) || WILD1(b))

/* Does v hold a subnormal of F, or a zero?  min, max and clamp's rules for
 * subnormal arguments count zero in: a device that flushes its inputs sees
 * a subnormal and a zero as equal (0 < 2^-149 is false there), so
 * min(0, 2^-149) may return either, as the CTS accepts. */
static bool has_subnormal(const iv_fmt *F, const stex_ival *v)
{
    return !(v->hi <= -F->min_normal || v->lo >= F->min_normal);
}

stex_ival stex_iv_add(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a), b = stex_iv_flush_in(F, b);
    double tl, th, sl = stex_iv_two_sum(a.lo, b.lo, &tl), sh = stex_iv_two_sum(a.hi, b.hi, &th);
    return stex_iv_rounded(F, sl, tl, sh, th);
}

stex_ival stex_iv_neg(const iv_fmt *F, stex_ival a)
{
    if (WILD1(a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    return stex_iv_finish(F, -a.hi, -a.lo);
}

stex_ival stex_iv_sub(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_float();
    b = stex_iv_flush_in(F, b);
    return stex_iv_add(F, a, (stex_ival){-b.hi, -b.lo, 0});
}

stex_ival stex_iv_mul(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a), b = stex_iv_flush_in(F, b);
    /* products of two f32 (48 significant bits) are exact in double */
    double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi}, lo = p[0], hi = p[0];
    for (int i = 1; i < 4; i++) {
        lo = p[i] < lo ? p[i] : lo;
        hi = p[i] > hi ? p[i] : hi;
    }
    return stex_iv_rounded(F, lo, 0, hi, 0);
}

stex_ival stex_iv_div(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a), b = stex_iv_flush_in(F, b);
    /* 2.5 ULP only for |y| in [2^-e, 2^e]; outside, the accuracy is undefined */
    double ymin = F->type == 'f' ? 0x1p-126 : ldexp(1.0, -F->div_exp);
    double ymax = F->type == 'f' ? 0x1p126 : ldexp(1.0, F->div_exp);
    bool pos = b.lo >= ymin && b.hi <= ymax, neg = b.hi <= -ymin && b.lo >= -ymax;
    if (!pos && !neg)
        return stex_iv_any_float();
    /* a / b is monotone in each argument over the box: extremes at corners.
     * q = a / b rounded, and the exact residual a - q * b says which side of
     * q the quotient lies */
    double lo = INFINITY, hi = -INFINITY, xs[2] = {a.lo, a.hi}, ys[2] = {b.lo, b.hi};
    int nx = a.lo == a.hi ? 1 : 2, ny = b.lo == b.hi ? 1 : 2; /* a point has one corner */
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            double q = xs[i] / ys[j], r = fma(-q, ys[j], xs[i]), t = ys[j] > 0 ? r : -r;
            double d = stex_iv_rd(F, q, t), u = stex_iv_ru(F, q, t);
            lo = d < lo ? d : lo;
            hi = u > hi ? u : hi;
        }
    return stex_iv_ulp_err(F, lo, hi, 2.5);
}

stex_ival stex_iv_const(const iv_fmt *F, double c)
{
    return stex_iv_make(stex_iv_floor(F, c), stex_iv_ceil(F, c));
}

typedef double (*real_fn)(double);

/* a monotone non-decreasing exact function whose results are grid values */
static stex_ival monotone(const iv_fmt *F, stex_ival a, real_fn f)
{
    if (WILD1(a))
        return stex_iv_any_float();
    a = stex_iv_flush_in(F, a);
    return stex_iv_finish(F, f(a.lo), f(a.hi));
}

stex_ival stex_iv_floor_fn(const iv_fmt *F, stex_ival a)
{
    return monotone(F, a, floor);
}

stex_ival stex_iv_ceil_fn(const iv_fmt *F, stex_ival a)
{
    return monotone(F, a, ceil);
}

stex_ival stex_iv_trunc_fn(const iv_fmt *F, stex_ival a)
{
    return monotone(F, a, trunc);
}

stex_ival stex_iv_round_fn(const iv_fmt *F, stex_ival a)
{
    return monotone(F, a, nearbyint); /* ties to even, the default rounding mode */
}

stex_ival stex_iv_rem(const iv_fmt *F, stex_ival a, stex_ival b)
{
    /* inherited from x - y * trunc(x / y) */
    stex_ival q = stex_iv_trunc_fn(F, stex_iv_div(F, a, b));
    return stex_iv_sub(F, a, stex_iv_mul(F, b, q));
}

/* WGSL: if both arguments are subnormal, min and max may return either */
static stex_ival either_subnormal(const iv_fmt *F, stex_ival r, stex_ival a, stex_ival b)
{
    if (has_subnormal(F, &a) && has_subnormal(F, &b))
        r = stex_iv_hull(r, stex_iv_hull(a, b));
    return r;
}

stex_ival stex_iv_min(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_float();
    stex_ival r = stex_iv_make(fmin(a.lo, b.lo), fmin(a.hi, b.hi));
    a = stex_iv_flush_in(F, a), b = stex_iv_flush_in(F, b);
    r = stex_iv_hull(r, stex_iv_make(fmin(a.lo, b.lo), fmin(a.hi, b.hi)));
    return stex_iv_flush_in(F, either_subnormal(F, r, a, b));
}

stex_ival stex_iv_max(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_float();
    stex_ival r = stex_iv_make(fmax(a.lo, b.lo), fmax(a.hi, b.hi));
    a = stex_iv_flush_in(F, a), b = stex_iv_flush_in(F, b);
    r = stex_iv_hull(r, stex_iv_make(fmax(a.lo, b.lo), fmax(a.hi, b.hi)));
    return stex_iv_flush_in(F, either_subnormal(F, r, a, b));
}

static double median(double x, double y, double z)
{
    return fmax(fmin(x, y), fmin(fmax(x, y), z));
}

/* no flags and every end zero or a finite normal: flushing changes nothing */
static bool plain(const iv_fmt *F, const stex_ival *v)
{
    double a = fabs(v->lo), b = fabs(v->hi);
    return !v->flags && (a == 0 || (a >= F->min_normal && a <= F->max)) &&
           (b == 0 || (b >= F->min_normal && b <= F->max));
}

stex_ival stex_iv_clamp(const iv_fmt *F, stex_ival x, stex_ival lo, stex_ival hi)
{
    /* plain sets with low <= high at both ends: min(max(x, low), high) and
     * the median agree; with no zero in x or high, no subnormal rule of min,
     * max or clamp applies (pack's clamp(e, 0.0, 1.0) of a nonzero e) */
    if (plain(F, &x) && plain(F, &lo) && plain(F, &hi) && !has_subnormal(F, &x) &&
        !has_subnormal(F, &hi) && lo.lo <= hi.lo && lo.hi <= hi.hi)
        return stex_iv_make(fmin(fmax(x.lo, lo.lo), hi.lo), fmin(fmax(x.hi, lo.hi), hi.hi));
    if (WILD2(x, lo) || WILD1(hi))
        return stex_iv_any_float();
    /* min(max(x, low), high) or the median of the three (they differ when low > high) */
    stex_ival r = stex_iv_min(F, stex_iv_max(F, x, lo), hi);
    stex_ival xf = stex_iv_flush_in(F, x), lf = stex_iv_flush_in(F, lo), hf = stex_iv_flush_in(F, hi);
    r = stex_iv_hull(r, stex_iv_make(median(xf.lo, lf.lo, hf.lo), median(xf.hi, lf.hi, hf.hi)));
    r = stex_iv_hull(r, stex_iv_make(median(x.lo, lo.lo, hi.lo), median(x.hi, lo.hi, hi.hi)));
    /* "If x and either low or high are subnormal, the result may be any of the subnormal values" */
    if (has_subnormal(F, &x) && (has_subnormal(F, &lo) || has_subnormal(F, &hi))) {
        double s = F->min_normal - F->min_sub;
        r = stex_iv_hull(r, stex_iv_make(-s, s));
    }
    return stex_iv_flush_in(F, r);
}

static stex_ival bools(bool can_false, bool can_true)
{
    return (stex_ival){can_false ? 0 : 1, can_true ? 1 : 0, 0};
}

stex_ival stex_iv_lt(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_int('b');
    a = stex_iv_flush_in(F, a), b = stex_iv_flush_in(F, b);
    return bools(a.hi >= b.lo, a.lo < b.hi);
}

stex_ival stex_iv_eq(const iv_fmt *F, stex_ival a, stex_ival b)
{
    if (WILD2(a, b))
        return stex_iv_any_int('b');
    a = stex_iv_flush_in(F, a), b = stex_iv_flush_in(F, b);
    bool overlap = a.lo <= b.hi && b.lo <= a.hi;
    bool same = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
    return bools(!same, overlap);
}

/* WGSL: clamp into the values of T that the float type holds, then truncate */
static double to_int1(const iv_fmt *F, double x, char to)
{
    double lo = to == 'i' ? -2147483648.0 : 0.0;
    double hi = to == 'i' ? 2147483647.0 : 4294967295.0;
    hi = stex_iv_floor(F, hi); /* 2147483520 and 4294967040 for f32 */
    x = trunc(x);
    return x < lo ? lo : x > hi ? hi : x;
}

stex_ival stex_iv_to_int(const iv_fmt *F, stex_ival a, char to)
{
    if (WILD1(a))
        return stex_iv_any_int(to);
    double lo = to_int1(F, a.lo, to), hi = to_int1(F, a.hi, to);
    return (stex_ival){lo + 0.0, hi + 0.0, 0};
}

stex_ival stex_iv_from_int(const iv_fmt *F, stex_ival a)
{
    if (a.flags & STEX_IVAL_ANY)
        return stex_iv_finish(F, stex_iv_floor(F, a.lo), stex_iv_ceil(F, a.hi));
    /* either neighbour of a value the type does not hold; past the finite
     * range an infinity, which the Finite Math Assumption makes any value */
    return stex_iv_finish(F, stex_iv_floor(F, a.lo), stex_iv_ceil(F, a.hi));
}

stex_ival stex_iv_convert(const iv_fmt *to, const iv_fmt *from, stex_ival a)
{
    (void)from;
    if (WILD1(a))
        return stex_iv_any_float();
    return stex_iv_finish(to, stex_iv_floor(to, a.lo), stex_iv_ceil(to, a.hi));
}
