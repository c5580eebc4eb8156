/*
 * math/lavapipe.c - lavapipe's inexact builtins, operation by operation as
 * Mesa 25.0 (NIR + gallivm) and LLVM 15 compute them on an x86 host with
 * SSE4.1/AVX2/FMA.  Every storage row of lavapipe/wgslexpr.tsv replays
 * bit-exactly (tests/math/test_replay.c).
 *
 * Where each piece comes from (the models are written from the algorithms'
 * descriptions; the arithmetic below is this file's own):
 *  - gallivm (lp_bld_arit.c): exp2 (clamp to [-126.99999, 128], floor split,
 *    degree-5 minimax polynomial in the fraction, exponent built from bits),
 *    log2 (exponent field + (m-1)/(m+1) series, degree-4 polynomial, edge
 *    cases selected), sin/cos (cephes: 4/pi scaling, j = (j+1) & ~1, three-part
 *    Cody-Waite reduction, two polynomials, sign from bits, clamp to [-1, 1]),
 *    pow = exp2(log2(x) * y) with x == 0 -> 0, rsqrt = 1 / sqrt(x).  Its
 *    polynomial steps use llvm.fmuladd, which LLVM fuses on an FMA host.
 *  - NIR / SPIR-V (vtn_glsl450.c, nir_builtin_builder.c): exp = exp2(x *
 *    log2(e)), log = log2(x) * ln(2), tan = sin / cos, atan, atan2, asin,
 *    acos, sinh, cosh, tanh, asinh, acosh, atanh as expressions of those.
 *    NIR's ffma is split into a multiply and an add on lavapipe (WGSL's
 *    fma() rounds twice there), so these steps round twice.
 *  - x86: cvttss2si gives 0x80000000 out of range; minss/maxss return the
 *    second operand when one is NaN; a NaN operand propagates quieted (the
 *    first one), an invalid operation gives 0xffc00000.  The helpers below
 *    make those choices explicit, so the models give the same bits on any
 *    host.
 */
#include "math/ops.h"

#define DEFAULT_NAN 0xffc00000u /* x86: inf - inf, 0 * inf, sqrt(-1) */

static float quiet(float x)
{
    return m_float(m_bits(x) | 0x00400000u);
}

/* x86 SSE arithmetic: the first NaN operand, quieted; a new NaN is DEFAULT_NAN. */
static float x_res(float r)
{
    return isnan(r) ? m_float(DEFAULT_NAN) : r;
}

static float x_add(float a, float b)
{
    return isnan(a) ? quiet(a) : isnan(b) ? quiet(b) : x_res(a + b);
}

static float x_sub(float a, float b)
{
    return isnan(a) ? quiet(a) : isnan(b) ? quiet(b) : x_res(a - b);
}

static float x_mul(float a, float b)
{
    return isnan(a) ? quiet(a) : isnan(b) ? quiet(b) : x_res(a * b);
}

static float x_div(float a, float b)
{
    return isnan(a) ? quiet(a) : isnan(b) ? quiet(b) : x_res(a / b);
}

static float x_sqrt(float a)
{
    return isnan(a) ? quiet(a) : x_res(sqrtf(a));
}

/* llvm.fmuladd on an FMA host: one rounding */
static float x_fma(float a, float b, float c)
{
    if (isnan(a) || isnan(b) || isnan(c))
        return isnan(a) ? quiet(a) : isnan(b) ? quiet(b) : quiet(c);
    return x_res(fmaf(a, b, c));
}

/* NIR's ffma on lavapipe: a multiply, then an add */
static float n_ffma(float a, float b, float c)
{
    return x_add(x_mul(a, b), c);
}

/* minss / maxss: a < b ? a : b (the second operand when either is NaN) */
static float x_min(float a, float b)
{
    return a < b ? a : b;
}

static float x_max(float a, float b)
{
    return a > b ? a : b;
}

/* cvttss2si: truncation; NaN and out of range give INT32_MIN */
static int32_t x_cvtt(float x)
{
    if (!(x > -2147483904.0f && x < 2147483648.0f))
        return INT32_MIN;
    return (int32_t)x;
}

static float fabs_bits(float x)
{
    return m_float(m_bits(x) & 0x7fffffffu);
}

/* gallivm's polynomial: even and odd coefficients in x^2 separately (Horner
 * from the highest), then odd * x + even; every step a fused multiply-add. */
static float lp_poly(float x, const float *c, int n)
{
    float x2 = x_mul(x, x), even = 0.0f, odd = 0.0f;
    int have_even = 0, have_odd = 0;
    for (int i = n - 1; i >= 0; i--) {
        if (i % 2 == 0) {
            even = have_even ? x_fma(x2, even, c[i]) : c[i];
            have_even = 1;
        } else {
            odd = have_odd ? x_fma(x2, odd, c[i]) : c[i];
            have_odd = 1;
        }
    }
    return have_odd ? x_fma(odd, x, even) : even;
}

/* 2^x on [0, 1): degree-5 minimax fit, constant term pinned to 1 (gallivm
 * EXP_POLY_DEGREE 5; double coefficients rounded to f32) */
static const float EXP2_POLY[6] = {
    1.0f, (float)0.693153073200168932794, (float)0.240153617044375388211,
    (float)0.0558263180532956664775, (float)0.00898934009049466391101,
    (float)0.00187757667519147912699,
};

/* log2((1 + sqrt(z)) / (1 - sqrt(z))) / sqrt(z) on [0, 1/9): degree 4
 * (gallivm LOG_POLY_DEGREE 4) */
static const float LOG2_POLY[5] = {
    (float)2.88539009343309178325, (float)0.961791550404184197881,
    (float)0.577440339438736392009, (float)0.403343858251329912514,
    (float)0.406718052498846252698,
};

static float lp_exp2(float x)
{
    x = x_min(128.0f, x);       /* NaN: the second operand, x itself */
    x = x_max(-126.99999f, x);
    float ipart = floorf(x);
    float fpart = x_sub(x, ipart);
    uint32_t bits = ((uint32_t)x_cvtt(ipart) + 127u) << 23; /* wraps like the vector code */
    return x_mul(m_float(bits), lp_poly(fpart, EXP2_POLY, 6));
}

static float lp_log2(float x)
{
    uint32_t i = m_bits(x);
    float logexp = (float)((int32_t)((i & 0x7f800000u) >> 23) - 127);
    float mant = m_float((i & 0x007fffffu) | 0x3f800000u);
    float y = x_div(x_sub(mant, 1.0f), x_add(mant, 1.0f));
    float z = x_mul(y, y);
    float res = x_fma(y, lp_poly(z, LOG2_POLY, 5), logexp);
    if (isnan(x) || x < 0.0f)   /* measured: NaN inputs give 0x7fc00000 too */
        return m_float(0x7fc00000u);
    if (x == 0.0f)
        return -INFINITY;
    if (x >= INFINITY)
        return INFINITY;
    return res;
}

/* cephes-style sin/cos (gallivm lp_build_sin_or_cos) */
static float lp_sincos(float a, int cosine)
{
    uint32_t ai = m_bits(a);
    float x = fabs_bits(a);
    int32_t j = x_cvtt(x_mul(x, (float)1.27323954473516)); /* 4/pi */
    uint32_t j1 = (uint32_t)j + 1u;
    uint32_t j2 = j1 & ~1u;
    float y = (float)(int32_t)j2;
    uint32_t sel = cosine ? j2 - 2u : j2;
    uint32_t sign = cosine ? (4u & ~sel) << 29 : (ai ^ (j1 << 29)) & 0x80000000u;

    /* x - y * pi/4 in three parts */
    float r = x_fma(y, -0.78515625f, x);
    r = x_fma(y, (float)-2.4187564849853515625e-4, r);
    r = x_fma(y, (float)-3.77489497744594108e-8, r);
    float z = x_mul(r, r);

    float c = x_fma(z, (float)2.443315711809948e-5, (float)-1.388731625493765e-3);
    c = x_fma(c, z, (float)4.166664568298827e-2);
    c = x_mul(x_mul(c, z), z);
    c = x_add(x_sub(c, x_mul(z, 0.5f)), 1.0f);

    float s = x_fma(z, (float)-1.9515295891e-4, (float)8.3321608736e-3);
    s = x_fma(s, z, (float)-1.6666654611e-1);
    s = x_fma(x_mul(s, z), r, r);

    float v = m_float(m_bits((sel & 2u) == 0 ? s : c) ^ sign);
    v = x_min(x_max(-1.0f, v), 1.0f);   /* a NaN becomes 1 (measured: cos(FLT_MAX)) */
    if ((ai & 0x7f800000u) == 0x7f800000u)
        return m_float(0x7fc00000u);
    return v;
}

static float lp_sin(float a) { return lp_sincos(a, 0); }
static float lp_cos(float a) { return lp_sincos(a, 1); }
static float lp_tan(float a) { return x_div(lp_sin(a), lp_cos(a)); }
static float lp_rsqrt(float a) { return x_div(1.0f, x_sqrt(a)); }
static float lp_exp(float a) { return lp_exp2(x_mul(a, (float)1.4426950408889634)); }
static float lp_log(float a) { return x_mul(lp_log2(a), (float)0.69314718055994529); }

static float lp_pow(float x, float y)
{
    float r = lp_exp2(x_mul(lp_log2(x), y));
    return x == 0.0f ? 0.0f : r;
}

/* NIR's fsign on gallivm: +-1 from the sign bit, 0 where x == 0 (NaN: +-1) */
static float n_sign(float x)
{
    float one = m_float((m_bits(x) & 0x80000000u) | 0x3f800000u);
    return x != 0.0f ? one : 0.0f;
}

/* NIR's fmin on gallivm: a NaN operand is ignored */
static float n_min(float a, float b)
{
    return isnan(b) ? a : x_min(a, b);
}

/* nir_atan: |u| <= 1 after one reciprocal, odd degree-11 polynomial by
 * Horner in u^2, pi/2 bias, sign copied from the argument */
static float lp_atan(float v)
{
    static const float C[6] = {
        -0.0121323213173444f, 0.0536813784310406f, -0.1173503194786851f,
        0.1938924977115610f, -0.3326756418091246f, 0.9999793128310355f,
    };
    int small = fabs_bits(v) <= 1.0f;
    float u = small ? v : x_div(1.0f, v);
    float u2 = x_mul(u, u);
    float p = C[0];
    for (int i = 1; i < 6; i++)
        p = n_ffma(p, u2, C[i]);
    float t = n_ffma(fabs_bits(u), p, small ? 0.0f : (float)-M_PI_2);
    return m_float((m_bits(t) & 0x7fffffffu) | (m_bits(v) & 0x80000000u));
}

/* nir_atan2(y, x): rotate the left half-plane, scale huge denominators,
 * atan of |s/t| (1 where |x| == |y|), sign from min(y, 1/t) */
static float lp_atan2(float y, float x)
{
    int flip = 0.0f >= x;
    float s = flip ? fabs_bits(x) : y;
    float t = flip ? y : fabs_bits(x);
    float scale = fabs_bits(t) >= 1e18f ? 0.25f : 1.0f;
    float rcp = x_div(1.0f, x_mul(t, scale));
    /* |s*scale| * |rcp|, which LLVM folds to |s*scale*rcp| (the NaN's sign) */
    float q = fabs_bits(x_mul(x_mul(s, scale), rcp));
    float tn = fabs_bits(x) == fabs_bits(y) ? 1.0f : q;
    float arc = n_ffma(flip ? 1.0f : 0.0f, (float)M_PI_2, lp_atan(tn));
    return n_min(y, rcp) < 0.0f ? m_float(m_bits(arc) ^ 0x80000000u) : arc;
}

/* vtn's build_asin: sign(x) * (pi/2 - sqrt(1 - |x|) * tail(|x|)), and for
 * asin a rational approximation below |x| = 0.5 */
static float build_asin(float x, float p0, float p1, int piecewise)
{
    float ax = fabs_bits(x);
    float tail = n_ffma(ax, n_ffma(ax, n_ffma(ax, p1, p0), (float)M_PI_4 - 1.0f),
                        (float)M_PI_2);
    /* NIR's a - b*c, ffma(-b, c, a): split, then the negation folded into a
     * subtraction by LLVM (a NaN product keeps its sign) */
    float outer = x_sub((float)M_PI_2, x_mul(x_sqrt(x_sub(1.0f, ax)), tail));
    float r0 = x_mul(n_sign(x), outer);
    if (!piecewise)
        return r0;
    const float pS0 = 1.6666586697e-01f, pS1 = -4.2743422091e-02f;
    const float pS2 = -8.6563630030e-03f, qS1 = -7.0662963390e-01f;
    float x2 = x_mul(x, x);
    float p = x_mul(x2, n_ffma(x2, n_ffma(x2, pS2, pS1), pS0));
    float q = n_ffma(x2, qS1, 1.0f);
    float r1 = n_ffma(x, x_div(p, q), x);
    return ax < 0.5f ? r1 : r0;
}

static float lp_asin(float x) { return build_asin(x, 0.086566724f, -0.03102955f, 1); }

static float lp_acos(float x)
{
    return x_sub((float)M_PI_2, build_asin(x, 0.08132463f, -0.02363318f, 0));
}

static float neg(float x) { return m_float(m_bits(x) ^ 0x80000000u); }

static float lp_sinh(float x) { return x_mul(x_sub(lp_exp(x), lp_exp(neg(x))), 0.5f); }
/* the sum's operands as LLVM ordered them (measured: cosh(NaN) has e^-x's NaN) */
static float lp_cosh(float x) { return x_mul(x_add(lp_exp(neg(x)), lp_exp(x)), 0.5f); }

/* (e^x - e^-x) / (e^x + e^-x) on x clamped to [-10, 10]; x itself where
 * !(0 < |x|) (zeros and NaN: vtn's x * 1.0 is folded away, a signalling NaN
 * comes back unchanged) */
static float lp_tanh(float x)
{
    float c = x_min(x_max(x, -10.0f), 10.0f);
    if (!(0.0f < fabs_bits(x)))
        return x;
    float ep = lp_exp(c), en = lp_exp(neg(c));
    return x_div(x_sub(ep, en), x_add(ep, en));
}

static float lp_asinh(float x)
{
    float r = x_sqrt(n_ffma(x, x, 1.0f));
    return x_mul(n_sign(x), lp_log(x_add(fabs_bits(x), r)));
}

static float lp_acosh(float x) { return lp_log(x_add(x, x_sqrt(n_ffma(x, x, -1.0f)))); }

static float lp_atanh(float x)
{
    return x_mul(lp_log(x_div(x_add(x, 1.0f), x_sub(1.0f, x))), 0.5f);
}

const stex_math_approx stex_math_approx_lavapipe = {
    .source = "Mesa 25.0.7 NIR + gallivm (lp_bld_arit.c) on LLVM 15 with FMA; "
              "bit-exact on every lavapipe/wgslexpr.tsv storage row",
    .unary = {
        [STEX_MATH_SIN_F32] = lp_sin,     [STEX_MATH_COS_F32] = lp_cos,
        [STEX_MATH_TAN_F32] = lp_tan,     [STEX_MATH_EXP_F32] = lp_exp,
        [STEX_MATH_EXP2_F32] = lp_exp2,   [STEX_MATH_LOG_F32] = lp_log,
        [STEX_MATH_LOG2_F32] = lp_log2,   [STEX_MATH_INVERSESQRT_F32] = lp_rsqrt,
        [STEX_MATH_TANH_F32] = lp_tanh,   [STEX_MATH_ATAN_F32] = lp_atan,
        [STEX_MATH_ASIN_F32] = lp_asin,   [STEX_MATH_ACOS_F32] = lp_acos,
        [STEX_MATH_SINH_F32] = lp_sinh,   [STEX_MATH_COSH_F32] = lp_cosh,
        [STEX_MATH_ASINH_F32] = lp_asinh, [STEX_MATH_ACOSH_F32] = lp_acosh,
        [STEX_MATH_ATANH_F32] = lp_atanh,
    },
    .binary = {[STEX_MATH_POW_F32] = lp_pow, [STEX_MATH_ATAN2_F32] = lp_atan2},
};
