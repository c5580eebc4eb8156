/*
 * convert/srgb.c - sRGB codes to linear values, one 256-entry table per
 * rule, filled once.
 *
 * EXACT: the sRGB EOTF of c = k / 255 (c / 12.92 up to 0.04045, else
 * ((c + 0.055) / 1.055)^2.4) rounded once to f32; computed in double,
 * which tests/convert/test_srgb.c checks against MPFR for every code.
 *
 * LLVMPIPE: Mesa's llvmpipe does not compute the curve: codes up to 15
 * are k * f32(1 / (12.6 * 255)), the others a cubic in k with f32
 * coefficients, evaluated as odd and even halves in x^2 with fused
 * multiply-adds (what its JIT emits on a CPU with FMA).  Measured through
 * Dawn on lavapipe for all 256 codes (tests/data/lavapipe-srgb-decode.json).
 */
#include "convert/srgb.h"

#include <math.h>
#include <pthread.h>

static float table[2][256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static float llvmpipe(uint32_t k)
{
    const float x = (float)k;
    if (x <= 15.0f)
        return x * (1.0f / (12.6f * 255.0f));
    const float c0 = 0.0023f, c1 = 0.0030f / 255.0f, c2 = 0.6935f / (255.0f * 255.0f),
                c3 = 0.3012f / (255.0f * 255.0f * 255.0f);
    float x2 = x * x;
    float odd = fmaf(c3, x2, c1), even = fmaf(c2, x2, c0);
    return fmaf(odd, x, even);
}

static void fill(void)
{
    for (uint32_t k = 0; k < 256; k++) {
        double c = (double)k / 255.0;
        table[STEX_SRGB_DECODE_EXACT][k] =
            (float)(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4));
        table[STEX_SRGB_DECODE_LLVMPIPE][k] = llvmpipe(k);
    }
}

float stex_srgb_value(stex_srgb_decode d, uint32_t k)
{
    pthread_once(&once, fill);
    return table[d == STEX_SRGB_DECODE_LLVMPIPE][k & 255];
}
