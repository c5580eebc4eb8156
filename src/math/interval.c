/*
 * math/interval.c - sets of word values (stex/interval.h): points, joins,
 * membership, width, text; and how a float result set is finished under
 * WGSL's rules (overflow, flushing, a zero's sign).
 */
#include "math/interval_internal.h"

#include <stdio.h>

#include "math/ops.h"

static const iv_fmt *fmt_of(char type)
{
    return type == 'h' ? &stex_iv_f16 : type == 'f' ? &stex_iv_f32 : NULL;
}

static double int_min(char type)
{
    return type == 'i' ? -2147483648.0 : 0.0;
}

static double int_max(char type)
{
    return type == 'i' ? 2147483647.0 : type == 'b' ? 1.0 : 4294967295.0;
}

/* zero ends as -0.0 (lo) and +0.0 (hi): "either zero" */
static stex_ival signed_zeros(stex_ival v)
{
    if (v.lo == 0)
        v.lo = -0.0;
    if (v.hi == 0)
        v.hi = 0.0;
    return v;
}

stex_ival stex_iv_make(double lo, double hi)
{
    return signed_zeros((stex_ival){lo, hi, 0});
}

stex_ival stex_iv_any_float(void)
{
    return (stex_ival){-INFINITY, INFINITY, STEX_IVAL_ANY | STEX_IVAL_NAN};
}

stex_ival stex_iv_any_int(char type)
{
    return (stex_ival){int_min(type), int_max(type), STEX_IVAL_ANY};
}

stex_ival stex_ival_any(char type)
{
    return fmt_of(type) ? stex_iv_any_float() : stex_iv_any_int(type);
}

bool stex_iv_wild(const stex_ival *v)
{
    return (v->flags & (STEX_IVAL_ANY | STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER)) || isinf(v->lo) ||
           isinf(v->hi) || isnan(v->lo) || isnan(v->hi);
}

bool stex_iv_has_zero(const stex_ival *v)
{
    return v->lo <= 0 && v->hi >= 0;
}

stex_ival stex_iv_hull(stex_ival a, stex_ival b)
{
    if (a.flags & STEX_IVAL_NO_NUMBER)
        return (stex_ival){b.lo, b.hi, b.flags | a.flags};
    if (b.flags & STEX_IVAL_NO_NUMBER)
        return (stex_ival){a.lo, a.hi, a.flags | b.flags};
    stex_ival r = {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, a.flags | b.flags};
    return signed_zeros(r);
}

stex_ival stex_iv_flush_in(const iv_fmt *F, stex_ival v)
{
    if (v.lo > 0 && v.lo < F->min_normal)
        v.lo = -0.0;
    if (v.hi < 0 && v.hi > -F->min_normal)
        v.hi = 0.0;
    return v;
}

stex_ival stex_iv_finish(const iv_fmt *F, double lo, double hi)
{
    if (!(lo >= -F->max && hi <= F->max)) /* an infinity (or NaN): indeterminate */
        return stex_iv_any_float();
    return stex_iv_flush_in(F, stex_iv_make(lo, hi));
}

stex_ival stex_iv_rounded(const iv_fmt *F, double slo, double tlo, double shi, double thi)
{
    return stex_iv_finish(F, stex_iv_rd(F, slo, tlo), stex_iv_ru(F, shi, thi));
}

void stex_iv_widen(double *lo, double *hi)
{
    /* the C library's double functions err by less than an ulp; four is room */
    double dl = fabs(*lo) * 0x1p-50 + 0x1p-1060, dh = fabs(*hi) * 0x1p-50 + 0x1p-1060;
    *lo -= dl;
    *hi += dh;
}

/* The grid values next to the real range [lo - e, hi + e] of allowed
 * results, the two ends exact (two-sum): an allowed result is itself
 * rounded either way to the type, as the CTS builds its intervals (a
 * device it accepts may return the value just outside an absolute or ULP
 * bound).  An allowed result past the finite range rounds to the largest
 * value or to infinity ("If an allowed result is outside the finite range
 * of the result type, then the rules in
 * [[#floating-point-rounding-and-overflow]] apply"), and an infinity is an
 * indeterminate value at run time. */
static stex_ival allowed_reals(const iv_fmt *F, double lo, double hi, double e)
{
    double tl, th, sl = stex_iv_two_sum(lo, -e, &tl), sh = stex_iv_two_sum(hi, e, &th);
    if (!(sl >= -F->max && sh <= F->max))
        return stex_iv_any_float();
    return stex_iv_finish(F, stex_iv_rd(F, sl, tl), stex_iv_ru(F, sh, th));
}

stex_ival stex_iv_abs_err(const iv_fmt *F, double lo, double hi, double e)
{
    if (isnan(lo) || isnan(hi))
        return stex_iv_any_float();
    return allowed_reals(F, lo, hi, e);
}

stex_ival stex_iv_ulp_err(const iv_fmt *F, double lo, double hi, double n)
{
    if (isnan(lo) || isnan(hi))
        return stex_iv_any_float();
    /* |v - x| <= n ULP(x) for some x in [lo, hi]; ULP grows with |x| but
     * for the values below the least normal (stex_iv_ulp), so the larger of
     * the ULP at the larger end and, when the range reaches below the least
     * normal, the least normal bounds it over the range. */
    double u = stex_iv_ulp(F, fmax(fabs(lo), fabs(hi)));
    if (lo < F->min_normal && hi > -F->min_normal) /* ULP is the least normal there */
        u = fmax(u, F->min_normal);
    return allowed_reals(F, lo, hi, n * u);
}

/* ---- the public functions ---- */

stex_ival stex_ival_of_bits(char type, uint32_t bits)
{
    double v;
    switch (type) {
    case 'f': v = m_float(bits); break;
    case 'h': v = stex_m_h2f(bits & 0xffffu); break;
    case 'i': v = (int32_t)bits; break;
    case 'b': v = bits != 0; break;
    default: v = bits; break;
    }
    if (isnan(v))
        return (stex_ival){NAN, NAN, STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER};
    return fmt_of(type) ? stex_iv_make(v, v) : (stex_ival){v, v, 0};
}

stex_ival stex_ival_of_value(char type, double v)
{
    const iv_fmt *F = fmt_of(type);
    if (isnan(v))
        return (stex_ival){NAN, NAN, STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER};
    if (!F)
        return (stex_ival){v, v, 0};
    return stex_iv_make(stex_iv_floor(F, v), stex_iv_ceil(F, v));
}

bool stex_ival_is_point(char type, const stex_ival *v)
{
    (void)type;
    return !(v->flags & (STEX_IVAL_ANY | STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER)) && v->lo == v->hi;
}

bool stex_ival_is_any(char type, const stex_ival *v)
{
    if (v->flags & STEX_IVAL_ANY)
        return true;
    if (fmt_of(type))
        return (v->flags & STEX_IVAL_NAN) && v->lo == -INFINITY && v->hi == INFINITY;
    return v->lo <= int_min(type) && v->hi >= int_max(type);
}

bool stex_ival_contains_bits(char type, const stex_ival *v, uint32_t bits)
{
    if (v->flags & STEX_IVAL_ANY)
        return true;
    stex_ival p = stex_ival_of_bits(type, bits);
    if (p.flags & STEX_IVAL_NO_NUMBER)
        return (v->flags & STEX_IVAL_NAN) != 0;
    if (v->flags & STEX_IVAL_NO_NUMBER)
        return false;
    return p.lo >= v->lo && p.lo <= v->hi;
}

stex_ival stex_ival_join(char type, stex_ival a, stex_ival b)
{
    (void)type;
    return stex_iv_hull(a, b);
}

double stex_ival_width_ulps(char type, const stex_ival *v)
{
    const iv_fmt *F = fmt_of(type);
    if (v->flags & (STEX_IVAL_ANY | STEX_IVAL_NO_NUMBER))
        return v->flags & STEX_IVAL_ANY ? INFINITY : 0;
    if (!F)
        return v->hi - v->lo;
    if (isinf(v->lo) || isinf(v->hi))
        return INFINITY;
    /* in WGSL's ULP at the larger magnitude (the spacing below it at a power
     * of two), so that two neighbours are 1 apart on either side of one */
    double m = fmax(fabs(v->lo), fabs(v->hi));
    return (v->hi - v->lo) / stex_iv_ulp(F, m);
}

static int put_value(char type, double x, char *buf, size_t size)
{
    if (!fmt_of(type))
        return snprintf(buf, size, "%.0f", x);
    if (x == 0)
        return snprintf(buf, size, "0");
    return snprintf(buf, size, type == 'f' ? "%.9g" : "%.5g", x);
}

int stex_ival_format(char type, const stex_ival *v, char *buf, size_t size)
{
    char a[40], b[40];
    if (v->flags & STEX_IVAL_ANY)
        return snprintf(buf, size, "any");
    if (v->flags & STEX_IVAL_NO_NUMBER)
        return snprintf(buf, size, "NaN");
    const char *nan = v->flags & STEX_IVAL_NAN ? " or NaN" : "";
    put_value(type, v->lo, a, sizeof a);
    if (v->lo == v->hi)
        return snprintf(buf, size, "%s%s", a, nan);
    put_value(type, v->hi, b, sizeof b);
    return snprintf(buf, size, "[%s, %s]%s", a, b, nan);
}
