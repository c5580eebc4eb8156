/*
 * math/interval_round.c - directed rounding onto the f32 or f16 grid,
 * computed in double.
 *
 * A grid value of either type is a double, and so is every product of two
 * of them; sums and quotients are carried as s + t (two-sum, and the
 * residual of a division or a square root, exact through fma), where t
 * only says on which side of s the exact value lies.  That is enough to
 * round the exact value down and up: double has 29 more significant bits
 * than f32, so s + t never crosses a grid value that s does not touch.
 */
#include "math/interval_internal.h"

#include <string.h>

const iv_fmt stex_iv_f32 = {'f', 24, -126, 0x1.fffffep127, 0x1p-126, 0x1p-149,
                            126, 0x1p-11, 3.0, 0x1p-21, 4096.0, 6.81e-5, 6.77e-5};
const iv_fmt stex_iv_f16 = {'h', 11, -14, 65504.0, 0x1p-14, 0x1p-24,
                            14, 0x1p-7, 1.0, 0x1p-7, 5.0, 3.91e-3, 3.91e-3};

/* ilogb and ldexp(1, e) by the bits of a normal double (every grid value
 * of f32 and f16 is one): the libm calls cost more than the rest */
static inline int exponent_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, 8);
    int e = (int)(u >> 52 & 0x7ff);
    return e && e != 0x7ff ? e - 1023 : ilogb(x);
}

static inline double two_to(int e)
{
    if (e < -1022 || e > 1023)
        return ldexp(1.0, e);
    uint64_t u = (uint64_t)(e + 1023) << 52;
    double x;
    memcpy(&x, &u, 8);
    return x;
}

/* the spacing of grid values in the binade of x > 0 (the upper one at a power of two) */
static double quantum(const iv_fmt *F, double x)
{
    int e = exponent_of(x);
    return two_to((e < F->emin ? F->emin : e) - (F->p - 1));
}

static double floor_abs(const iv_fmt *F, double x) /* x >= 0, finite */
{
    if (x == 0)
        return 0;
    double q = quantum(F, x);
    return floor(x / q) * q;
}

static double ceil_abs(const iv_fmt *F, double x)
{
    if (x == 0)
        return 0;
    double q = quantum(F, x);
    return ceil(x / q) * q;
}

double stex_iv_floor(const iv_fmt *F, double x)
{
    if (isnan(x) || isinf(x))
        return x;
    if (F->type == 'f') { /* f32: the host's conversion (to nearest), one step down if above */
        float r = (float)x;
        if ((double)r <= x)
            return r;
        uint32_t u; /* the f32 below r, by its bits (r is not -inf: r > x) */
        memcpy(&u, &r, 4);
        u += u >> 31 ? 1u : UINT32_MAX;
        memcpy(&r, &u, 4);
        return r;
    }
    double r = x >= 0 ? floor_abs(F, x) : -ceil_abs(F, -x);
    if (r > F->max)
        return F->max;
    if (r < -F->max)
        return -INFINITY;
    return r;
}

double stex_iv_ceil(const iv_fmt *F, double x)
{
    return -stex_iv_floor(F, -x);
}

double stex_iv_next_up(const iv_fmt *F, double x)
{
    if (isnan(x) || x == INFINITY)
        return x;
    if (x == -INFINITY)
        return -F->max;
    if (x >= F->max)
        return INFINITY;
    if (x < 0)
        return -stex_iv_next_down(F, -x);
    if (x == 0)
        return F->min_sub;
    return x + quantum(F, x);
}

double stex_iv_next_down(const iv_fmt *F, double x)
{
    if (isnan(x) || x == -INFINITY)
        return x;
    if (x == INFINITY)
        return F->max;
    if (x <= -F->max)
        return -INFINITY;
    if (x <= 0)
        return -stex_iv_next_up(F, -x);
    int e = exponent_of(x);
    if (x == two_to(e) && e > F->emin)
        return x - two_to(e - F->p); /* the spacing below a power of two */
    return x - quantum(F, x);
}

double stex_iv_rd(const iv_fmt *F, double s, double t)
{
    double r = stex_iv_floor(F, s);
    return r == s && t < 0 ? stex_iv_next_down(F, r) : r;
}

double stex_iv_ru(const iv_fmt *F, double s, double t)
{
    double r = stex_iv_ceil(F, s);
    return r == s && t > 0 ? stex_iv_next_up(F, r) : r;
}

double stex_iv_ulp(const iv_fmt *F, double m)
{
    m = fabs(m);
    if (isinf(m) || m > F->max)
        m = F->max;
    /* below the least normal a device that flushes has no values but zero:
     * its ULP there is the least normal (the CTS's ULP in flush mode) */
    if (m < F->min_normal)
        return F->min_normal;
    if (m == F->min_normal)
        return F->min_sub;
    int e = exponent_of(m);
    if (m == two_to(e))
        return two_to(e - F->p);
    return quantum(F, m);
}
