/*
 * math/nvidia_lib.c - the library functions NVIDIA's driver builds from
 * its arithmetic units (nvidia.c) for the builtins no unit computes, and
 * the nvidia profile's table of approximations.  atan, atan2, asin, acos
 * and tanh are each a fixed sequence of flushing f32 FMAs around a rational
 * or polynomial kernel; the sequences and constants below reproduce every
 * row that tools/nvprobe measured on an H100 (tests/data/nvprobe) and
 * nvidia/wgslexpr.tsv's rows of these builtins.
 */
#include "math/nvidia_units.h"
#include "math/ops.h"

#define PI_2 0x1.921fb6p+0f /* f32(pi / 2) */
#define PI 0x1.921fb6p+1f   /* f32(pi) */

static float nv_fma(float a, float b, float c)
{
    return stex_nv_ftz(fmaf(stex_nv_ftz(a), stex_nv_ftz(b), stex_nv_ftz(c)));
}

/* |r| with a's sign bit */
static float with_sign_of(float r, float a)
{
    return m_float((m_bits(r) & 0x7fffffffu) | (m_bits(a) & 0x80000000u));
}

/* atan(t) for t in [0, 1]: t + t^3 P(t^2) / Q(t^2), the quotient through
 * the reciprocal unit */
static float atan_kernel(float t)
{
    float z = stex_nv_mul(t, t);
    float p = nv_fma(nv_fma(z, -0x1.a58fd4p-1f, -0x1.6b3106p+2f), z, -0x1.a4320ep+2f);
    float n = stex_nv_mul(stex_nv_mul(p, z), t);
    float q = nv_fma(nv_fma(stex_nv_add(z, 0x1.6abb8p+3f), z, 0x1.cd7acp+4f), z, 0x1.3b259p+4f);
    return nv_fma(n, stex_nv_rcp(q), t);
}

/* atan: above 1 through the reciprocal, pi/2 - atan(1/|x|) (probe atan:
 * 4,096 rows of every kind) */
static float nv_atan(float a)
{
    float ax = fabsf(stex_nv_ftz(a));
    if (isnan(ax))
        return a;
    float r = ax > 1.0f ? stex_nv_add(PI_2, -atan_kernel(stex_nv_rcp(ax))) : atan_kernel(ax);
    return with_sign_of(r, a);
}

/* mn / mx for 0 <= mn <= mx: a full-range quotient, both scaled by 1/4
 * when the divisor's reciprocal would flush */
static float div_full(float mn, float mx)
{
    if (mx > 0x1p+126f) {
        mn *= 0.25f;
        mx *= 0.25f;
    }
    return stex_nv_div(stex_nv_ftz(mn), mx);
}

/* atan2(y, x): the kernel on min / max of the magnitudes, then the octant;
 * both zero or both infinite are read off the signs */
static float nv_atan2(float y, float x)
{
    float ay = fabsf(stex_nv_ftz(y)), ax = fabsf(stex_nv_ftz(x));
    bool xneg = signbit(x);
    if (ax == 0.0f && ay == 0.0f)
        return with_sign_of(xneg ? PI : 0.0f, y);
    if (isinf(ax) && isinf(ay))
        return with_sign_of(xneg ? 0x1.2d97c8p+1f : 0x1.921fb6p-1f, y);
    if (isnan(ax) || isnan(ay))
        return ax + ay;
    float t = atan_kernel(div_full(fminf(ay, ax), fmaxf(ay, ax)));
    if (ay > ax)
        t = stex_nv_add(PI_2, -t);
    if (xneg)
        t = stex_nv_add(PI, -t);
    return with_sign_of(t, y);
}

/* asin(t) - t = t^3 P(t^2) for t in [0, 0.57]; above, asin(x) = pi/2 -
 * 2 asin(sqrt((1 - x) / 2)).  *big says which was taken. */
static float asin_kernel(float ax, bool *big)
{
    *big = ax > 0x1.23d70ap-1f;
    float t = *big ? stex_nv_sqrt(stex_nv_mul(0.5f, stex_nv_add(1.0f, -ax))) : ax;
    float z = stex_nv_mul(t, t);
    float p = nv_fma(nv_fma(nv_fma(nv_fma(0x1.a7f282p-5f, z, 0x1.29a5d2p-6f), z, 0x1.7f083ep-5f), z,
                        0x1.329252p-4f), z, 0x1.555728p-3f);
    return nv_fma(stex_nv_mul(p, z), t, t);
}

static float nv_asin(float a)
{
    bool big;
    float k = asin_kernel(fabsf(stex_nv_ftz(a)), &big);
    float r = big ? nv_fma(-2.0f, k, PI_2) : k;
    return isnan(r) ? r : with_sign_of(r, a);
}

static float nv_acos(float a)
{
    bool big;
    a = stex_nv_ftz(a);
    float k = asin_kernel(fabsf(a), &big);
    float m = big ? stex_nv_mul(2.0f, k) : stex_nv_add(PI_2, -k);
    return a < 0.0f ? stex_nv_add(PI, -m) : m;
}

/* tanh: from 0.6 up 1 - 2 / (e^2x + 1) through exp2 and the reciprocal (1
 * from 9.01), below an odd polynomial */
static float nv_tanh(float a)
{
    a = stex_nv_ftz(a);
    float ax = fabsf(a);
    if (ax >= 0x1.333334p-1f) {
        float e = stex_nv_ex2(stex_nv_mul(ax, 0x1.715476p+1f));
        float s = nv_fma(stex_nv_rcp(stex_nv_add(1.0f, e)), -2.0f, 1.0f);
        return with_sign_of(ax >= 0x1.205968p+3f ? 1.0f : s, a);
    }
    float z = stex_nv_mul(a, a);
    float p = nv_fma(nv_fma(nv_fma(nv_fma(0x1.01e104p-6f, z, -0x1.ac795cp-5f), z, 0x1.10b282p-3f), z,
                        -0x1.5553dap-2f), z, 0.0f);
    return nv_fma(p, a, a);
}

/* log(1 + x): x + 1 rounded toward zero picks the power of two e that
 * brings 1 + x near 1 (the bits of x shifted by e, plus 4 * 2^-e / 4 - 1),
 * a polynomial on what remains, plus e ln 2 */
static float log1p_kernel(float x)
{
    uint32_t xb = m_bits(x);
    uint32_t e = (m_bits(stex_nv_add_rz((double)x, 1.0)) - 0x3f400000u) & 0xff800000u;
    float m = stex_nv_ftz(m_float(xb - e));
    float u = stex_nv_add(m, nv_fma(0.25f, stex_nv_ftz(m_float(0x40800000u - e)), -1.0f));
    float ef = stex_nv_mul((float)(int32_t)e, 0x1p-23f);
    static const float C[] = {0x1.b00024p-4f, -0x1.0ef1c0p-3f, 0x1.28c8eap-3f, -0x1.54d1bap-3f,
                              0x1.995f3cp-3f, -0x1.000084p-2f, 0x1.5555ccp-2f, -0.5f};
    float p = -0x1.737ef0p-5f;
    for (unsigned k = 0; k < sizeof C / sizeof C[0]; k++)
        p = nv_fma(p, u, C[k]);
    float r = nv_fma(ef, 0x1.62e430p-1f, nv_fma(stex_nv_mul(p, u), u, u));
    if (xb >= 0x7f800000u) { /* +inf, NaN or negative */
        if ((int32_t)xb > (int32_t)0xbf800000u)
            r = nv_fma(x, INFINITY, INFINITY);
        if (x == 0.0f)
            r = -0.0f;
    }
    return r;
}

/* asinh(x) = log1p(x + x^2 / (1 + sqrt(1 + x^2))), computed through 1/x;
 * beyond 2^126 log(x) + ln 2 */
static float nv_asinh(float a)
{
    float ax = fabsf(stex_nv_ftz(a)), t;
    if (ax > 0x1p+126f) {
        t = stex_nv_add(0x1.62e430p-1f, stex_nv_mul(0x1.62e430p-1f, stex_nv_lg2(ax)));
    } else {
        float r = stex_nv_div(1.0f, ax);
        float d = stex_nv_add(r, stex_nv_sqrt(nv_fma(r, r, 1.0f)));
        t = log1p_kernel(nv_fma(ax, stex_nv_rcp(d), ax));
    }
    return isnan(ax) ? t : with_sign_of(t, a);
}

/* atanh(x) = log1p(2x / (1 - x)) / 2 */
static float nv_atanh(float a)
{
    float ax = fabsf(stex_nv_ftz(a));
    float t = stex_nv_mul(stex_nv_mul(stex_nv_rcp(stex_nv_add(1.0f, -ax)), 2.0f), ax);
    if (ax > 0x1p+126f)
        t = -2.0f;
    float r = stex_nv_mul(0.5f, log1p_kernel(t));
    return isnan(ax) ? r : with_sign_of(r, a);
}

/* a * b rounded toward zero (FMUL.RZ; the product of two f32 values is
 * exact in a double) */
static float mul_rz(float a, float b)
{
    double p = (double)stex_nv_ftz(a) * (double)stex_nv_ftz(b);
    float f = (float)p;
    if (fabs((double)f) > fabs(p))
        f = nextafterf(f, 0.0f);
    return stex_nv_ftz(f);
}

/* log(x) for the large arguments of acosh: the mantissa brought near 1
 * (split at 2/3), a polynomial in it minus 1, plus the exponent's ln 2 */
static float log_kernel(float x)
{
    float i = 0.0f;
    if (x < 0x1p-126f) {
        x = stex_nv_mul(x, 0x1p+23f);
        i = -23.0f;
    }
    uint32_t e = (m_bits(x) - 0x3f2aaaabu) & 0xff800000u;
    float fe = nv_fma((float)(int32_t)e, 0x1p-23f, i);
    float u = stex_nv_add(m_float(m_bits(x) - e), -1.0f);
    static const float C[] = {0x1.2073ecp-3f, -0x1.f19b98p-4f, 0x1.1e52aap-3f, -0x1.55b172p-3f,
                              0x1.99da16p-3f, -0x1.fffe44p-3f, 0x1.5554f0p-2f, -0.5f};
    float p = -0x1.0aa04ep-3f;
    for (unsigned k = 0; k < sizeof C / sizeof C[0]; k++)
        p = nv_fma(p, u, C[k]);
    float r = nv_fma(fe, 0x1.62e430p-1f, nv_fma(stex_nv_mul(p, u), u, u));
    if (m_bits(x) >= 0x7f800000u) /* +inf, NaN or negative */
        r = nv_fma(x, INFINITY, INFINITY);
    return x == 0.0f ? -INFINITY : r;
}

/* acosh(x) = log1p(t + sqrt(t x + t)) with t = x - 1 (t x rounded toward
 * zero); from t = 2^23 on, log(t) + ln 2 */
static float nv_acosh(float a)
{
    a = stex_nv_ftz(a);
    float t = stex_nv_add(a, -1.0f);
    if (m_bits(t) > 0x4b000000u)
        return stex_nv_add(0x1.62e430p-1f, log_kernel(t));
    float s = stex_nv_sqrt(stex_nv_add(mul_rz(a, t), t));
    return log1p_kernel(stex_nv_add(t, s));
}

const stex_math_approx stex_math_approx_nvidia = {
    .prepare = stex_nv_prepare,
    .loaded = stex_nv_loaded,
    .source = "fitted to nvidia/wgslexpr.tsv (every other case measured on an H200); "
              "exp2, sqrt, inverseSqrt from per-mantissa tables measured on the H200 (tests/data/nvsweep); "
              "log2 from per-mantissa tables of [1, 2) and [0.5, 1) plus the exponent rounded toward zero; "
              "sin/cos from a first-quadrant table of 2^23 entries after the device's reduction; "
              "atan, atan2, asin, acos, tanh and the inverse hyperbolics as the driver's FMA sequences (tests/data/nvprobe)",
    .unary = {
        [STEX_MATH_EXP2_F32] = stex_nv_ex2,   [STEX_MATH_LOG2_F32] = stex_nv_lg2,
        [STEX_MATH_SIN_F32] = stex_nv_sin,    [STEX_MATH_COS_F32] = stex_nv_cos,
        [STEX_MATH_TAN_F32] = stex_nv_tan,    [STEX_MATH_EXP_F32] = stex_nv_exp,
        [STEX_MATH_LOG_F32] = stex_nv_log,    [STEX_MATH_SINH_F32] = stex_nv_sinh,
        [STEX_MATH_COSH_F32] = stex_nv_cosh,
        [STEX_MATH_SQRT_F32] = stex_nv_sqrt,  [STEX_MATH_INVERSESQRT_F32] = stex_nv_rsqrt,
        [STEX_MATH_ATAN_F32] = nv_atan,       [STEX_MATH_ASIN_F32] = nv_asin,
        [STEX_MATH_ACOS_F32] = nv_acos,       [STEX_MATH_TANH_F32] = nv_tanh,
        [STEX_MATH_ASINH_F32] = nv_asinh,     [STEX_MATH_ATANH_F32] = nv_atanh,
        [STEX_MATH_ACOSH_F32] = nv_acosh,
    },
    .binary = {[STEX_MATH_DIV_F32] = stex_nv_div, [STEX_MATH_POW_F32] = stex_nv_pow,
               [STEX_MATH_ATAN2_F32] = nv_atan2},
};
