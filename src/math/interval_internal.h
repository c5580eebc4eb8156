/*
 * math/interval_internal.h - the interval files' shared parts: one float
 * type's grid (f32 or f16) with its accuracy constants from WGSL's tables,
 * directed rounding onto that grid, and the operations the files build on
 * each other (interval_round.c < interval.c < interval_arith.c <
 * interval_builtin.c < interval_eval.c; interval_store.c beside them).
 *
 * Inside these files a float set is an stex_ival whose lo/hi are plain
 * doubles (a zero's sign is ignored, as WGSL allows); iv_finish and the
 * public functions put -0.0 / +0.0 at a zero end.
 */
#ifndef STEX_MATH_INTERVAL_INTERNAL_H
#define STEX_MATH_INTERVAL_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "stex/interval.h"

/* One float type and the numbers WGSL's accuracy tables give it. */
typedef struct iv_fmt {
    char type;          /* 'f' f32, 'h' f16 */
    int p;              /* significand bits, the hidden one included: 24, 11 */
    int emin;           /* exponent of the least normal: -126, -14 */
    double max;         /* largest finite value */
    double min_normal;  /* 2^emin */
    double min_sub;     /* 2^(emin - p + 1) */
    int div_exp;        /* x / y: 2.5 ULP for |y| in [2^-div_exp, 2^div_exp] (126, 14) */
    double sincos_abs;  /* sin, cos: absolute error on [-pi, pi] (2^-11, 2^-7) */
    double exp_ulp;     /* exp, exp2: exp_ulp + 2 * |x| ULP (3, 1) */
    double log_abs;     /* log, log2: absolute error on [0.5, 2] (2^-21, 2^-7) */
    double atan_ulp;    /* atan, atan2 (4096, 5) */
    double asin_abs, acos_abs; /* (6.81e-5, 6.77e-5; f16 3.91e-3 both) */
} iv_fmt;

extern const iv_fmt stex_iv_f32, stex_iv_f16;

/* exact a + b = s + t (Knuth's two-sum), for the rounding functions below */
static inline double stex_iv_two_sum(double a, double b, double *t)
{
    double s = a + b, bb = s - a;
    *t = (a - (s - bb)) + (b - bb);
    return s;
}

/* ---- the grid (interval_round.c) ---- */

/* The largest grid value <= x and the least >= x, in the extended reals:
 * past the largest finite value they give max or infinity as rounding does. */
double stex_iv_floor(const iv_fmt *F, double x);
double stex_iv_ceil(const iv_fmt *F, double x);
/* Neighbours on the grid (zero's neighbours are +-min_sub). */
double stex_iv_next_up(const iv_fmt *F, double x);
double stex_iv_next_down(const iv_fmt *F, double x);
/* The exact value s + t, where only t's sign matters (|t| below half a
 * double ulp of s, as two-sum and the residuals of / and sqrt give),
 * rounded down and up onto the grid. */
double stex_iv_rd(const iv_fmt *F, double s, double t);
double stex_iv_ru(const iv_fmt *F, double s, double t);
/* WGSL's ULP at m, an upper bound of it for every x with least_normal <=
 * |x| <= m: the spacing below m when m is a power of two, else the spacing
 * at m; below the least normal the least normal (a flushing device's ULP,
 * as the CTS takes it). */
double stex_iv_ulp(const iv_fmt *F, double m);

/* ---- sets (interval.c) ---- */

stex_ival stex_iv_make(double lo, double hi);
stex_ival stex_iv_any_float(void);
stex_ival stex_iv_any_int(char type);
/* An argument the Finite Math Assumption lets a device treat any way: a
 * NaN, an infinity, or unconstrained. */
bool stex_iv_wild(const stex_ival *v);
/* The argument as an operation may read it: a set holding a subnormal
 * also holds zero (WGSL: inputs may be flushed). */
stex_ival stex_iv_flush_in(const iv_fmt *F, stex_ival v);
/* A result from the real range [lo, hi] of grid values (already rounded):
 * past the finite range the value is indeterminate (stex_iv_any_float);
 * subnormal ends may flush to zero; zero ends signed -0.0 / +0.0. */
stex_ival stex_iv_finish(const iv_fmt *F, double lo, double hi);
/* Correctly rounded: every grid value next to the exact range
 * [slo + tlo, shi + thi] (t as in stex_iv_rd). */
stex_ival stex_iv_rounded(const iv_fmt *F, double slo, double tlo, double shi, double thi);
/* Within an absolute error e of a real range known to lie in [lo, hi]. */
stex_ival stex_iv_abs_err(const iv_fmt *F, double lo, double hi, double e);
/* Within n ULP of a real range known to lie in [lo, hi]. */
stex_ival stex_iv_ulp_err(const iv_fmt *F, double lo, double hi, double n);
/* A real range from a function computed in double (the C library's, within
 * one double ulp): [lo, hi] widened by a few double ulps. */
void stex_iv_widen(double *lo, double *hi);
stex_ival stex_iv_hull(stex_ival a, stex_ival b);
bool stex_iv_has_zero(const stex_ival *v);

/* ---- f32 / f16 arithmetic (interval_arith.c) ---- */

stex_ival stex_iv_add(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_sub(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_mul(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_div(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_rem(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_neg(const iv_fmt *F, stex_ival a);
stex_ival stex_iv_const(const iv_fmt *F, double c); /* a literal: its two neighbours */
stex_ival stex_iv_floor_fn(const iv_fmt *F, stex_ival a);
stex_ival stex_iv_ceil_fn(const iv_fmt *F, stex_ival a);
stex_ival stex_iv_trunc_fn(const iv_fmt *F, stex_ival a);
stex_ival stex_iv_round_fn(const iv_fmt *F, stex_ival a);
stex_ival stex_iv_min(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_max(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_clamp(const iv_fmt *F, stex_ival x, stex_ival lo, stex_ival hi);
/* bool results of a < b and a == b */
stex_ival stex_iv_lt(const iv_fmt *F, stex_ival a, stex_ival b);
stex_ival stex_iv_eq(const iv_fmt *F, stex_ival a, stex_ival b);
/* float -> integer ('i' or 'u': clamped, truncated); integer -> float (rounded) */
stex_ival stex_iv_to_int(const iv_fmt *F, stex_ival a, char to);
stex_ival stex_iv_from_int(const iv_fmt *F, stex_ival a);
/* the same value in another float type (f16 -> f32 exact; f32 -> f16 rounded) */
stex_ival stex_iv_convert(const iv_fmt *to, const iv_fmt *from, stex_ival a);

/* ---- builtins (interval_builtin.c): out[] as the overload's results ---- */

/* the id of a float builtin of this file by its math.def name ("sin",
 * "pow", ...), -1 if none; then its results for arguments in[] */
int stex_iv_builtin_id(const char *op);
void stex_iv_builtin(const iv_fmt *F, int id, const stex_ival *in, stex_ival *out);

#endif
