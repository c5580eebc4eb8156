/* binary16 helpers for the tests' own references (independent of src/convert). */
#ifndef STEX_TESTS_F16_H
#define STEX_TESTS_F16_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline float t_f16_to_f32(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24)
              : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

/* f32 -> f16 of a finite value, round toward zero or to nearest even;
 * overflow saturates (rtz) or gives inf (rne).  Exact: works on the double. */
static inline uint16_t t_f32_to_f16(float f, bool rne)
{
    uint16_t sign = signbit(f) ? 0x8000 : 0;
    double a = fabs((double)f);
    if (isnan(f))
        return sign | 0x7e00;
    if (a >= 65520.0 || isinf(f))
        return sign | (rne || isinf(f) ? 0x7c00 : 0x7bff);
    if (a == 0.0)
        return sign;
    int e;
    frexp(a, &e);                       /* a = m * 2^e, m in [0.5, 1) */
    int q = e - 11 < -24 ? -24 : e - 11; /* ulp exponent: 10 fraction bits, subnormals 2^-24 */
    double units = ldexp(a, -q);         /* exact: a has 24 significant bits */
    double k = rne ? nearbyint(units) : floor(units); /* nearbyint: ties to even */
    uint32_t ki = (uint32_t)k;
    /* re-normalise: ki * 2^q as f16 */
    uint16_t bits;
    if (q == -24 && ki < 1024)
        bits = (uint16_t)ki;                        /* subnormal */
    else {
        int qq = q;
        while (ki >= 2048) { ki >>= 1; qq++; }      /* only after rounding up to 2^n */
        int exp = qq + 25;                          /* value = ki * 2^qq, ki in [1024, 2048) */
        if (exp >= 31)
            return sign | (rne ? 0x7c00 : 0x7bff);
        bits = (uint16_t)((exp << 10) | (ki & 1023));
    }
    return sign | bits;
}

/* Distance in f16 units in the last place (same sign assumed; else the sum). */
static inline unsigned t_f16_ulps(uint16_t a, uint16_t b)
{
    int ia = (a & 0x8000) ? -(int)(a & 0x7fff) : (int)(a & 0x7fff);
    int ib = (b & 0x8000) ? -(int)(b & 0x7fff) : (int)(b & 0x7fff);
    return (unsigned)abs(ia - ib);
}

#endif
