/*
 * math/f16.c - WGSL's f16 operations and builtins (`enable f16`) under a
 * profile's rules.
 *
 * An f16 travels as the low 16 bits of a word.  Every operation widens its
 * operands to f32 (exactly), computes with the profile's f32 rules of
 * math/f32.c and rounds the result to f16, to nearest-even.  For + - * /
 * and sqrt that is the correctly rounded binary16 result whatever the
 * profile: binary32 carries more than 2 * 11 + 2 significant bits, so
 * rounding twice gives what rounding once would.  Builtins made of several
 * operations (mix, smoothstep, %, fract, degrees...) round every step to
 * f16, as f16 arithmetic does, and read the same choices of the profile as
 * their f32 forms (rules.h).
 *
 * The profile's f16 rule decides the rest:
 *  - STEX_RULE_F16_IEEE (spec): fma, and a*b+c where the profile contracts,
 *    round once (exactly, below); the transcendentals are correctly rounded
 *    to f16 (correct.c);
 *  - STEX_RULE_F16_VIA_F32: fma is the profile's f32 fma rounded to f16 (or
 *    a multiply and an add each rounded to f16, where the profile does not
 *    fuse); sin, exp... are the profile's f32 functions rounded to f16.
 */
#include "math/ops.h"

/* ---- binary16 <-> binary32 / binary64 ---- */

float stex_m_h2f(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3ffu;
    if (e == 31)  /* inf, NaN: payload kept, not quieted */
        return m_float(sign | 0x7f800000u | (m << 13));
    if (e == 0)   /* zero, subnormal: m * 2^-24, exact in f32 */
        return m_float(sign | m_bits(ldexpf((float)m, -24)));
    return m_float(sign | ((e + 112u) << 23) | (m << 13));
}

/* The significand of |a| (finite, below 65520) in f16 units: the value is
 * q * 2^*shift with q before rounding. */
static double h_units(double a, int *shift)
{
    if (a < 0x1p-14) {       /* subnormal range: units of 2^-24 */
        *shift = -24;
        return a * 0x1p24;
    }
    int e;
    double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    *shift = e - 11;
    return ldexp(m, 11);     /* in [1024, 2048) */
}

uint32_t stex_m_d2h(double x)
{
    uint32_t sign = signbit(x) ? 0x8000u : 0;
    if (isnan(x)) {
        uint64_t u;
        memcpy(&u, &x, sizeof u);
        return sign | 0x7e00u | (uint32_t)((u >> 42) & 0x3ffu); /* quieted, top payload bits */
    }
    double a = fabs(x);
    if (a >= 65520.0)        /* 65504 + half an ulp: the tie rounds to even = inf */
        return sign | 0x7c00u;
    int shift;
    double q = nearbyint(h_units(a, &shift)); /* nearest-even: stex never changes the mode */
    if (shift == -24)
        return sign | (uint32_t)q;            /* 1024 is the smallest normal's encoding */
    if (q == 2048.0)
        q = 1024.0, shift++;
    return sign | ((uint32_t)(shift + 11 - 1 + 15) << 10) | ((uint32_t)q - 1024u);
}

uint32_t stex_m_f2h(float x)
{
    if (isnan(x)) /* f32 payload's top 10 bits, quieted */
        return ((m_bits(x) >> 16) & 0x8000u) | 0x7e00u | ((m_bits(x) >> 13) & 0x3ffu);
    return stex_m_d2h((double)x);
}

/* Whether a (finite, of f16 range) lies exactly halfway between two f16s. */
static int h_tie(double a)
{
    a = fabs(a);
    if (a >= 65520.0 || a == 0.0)
        return 0;
    int shift;
    double q = h_units(a, &shift);
    return q - floor(q) == 0.5;
}

/* ---- the operations ---- */

#define H(x) stex_m_h2f(x)
#define F2H(x) stex_m_f2h(x)

/* fma rounded once to f16: the product of two f16s is exact in double; the
 * sum's rounding error is recovered exactly (2Sum) and decides the one case
 * where rounding the double sum to f16 could go wrong: a double sum exactly
 * halfway between two f16s whose exact value is not. */
static uint32_t fma_once(float a, float b, float c)
{
    double p = (double)a * (double)b, s = p + (double)c;
    if (!isfinite(s))
        return stex_m_d2h(s);
    double bv = s - p, err = (p - (s - bv)) + ((double)c - bv);
    if (err != 0.0 && h_tie(s))
        s = nextafter(s, err > 0 ? INFINITY : -INFINITY);
    return stex_m_d2h(s);
}

static uint32_t h_add(const stex_math_rules *r, uint32_t a, uint32_t b)
{
    return F2H(stex_m_add(r, H(a), H(b)));
}

static uint32_t h_sub(const stex_math_rules *r, uint32_t a, uint32_t b)
{
    return F2H(stex_m_sub(r, H(a), H(b)));
}

static uint32_t h_mul(const stex_math_rules *r, uint32_t a, uint32_t b)
{
    return F2H(stex_m_mul(r, H(a), H(b)));
}

static uint32_t h_div(const stex_math_rules *r, uint32_t a, uint32_t b)
{
    return F2H(stex_m_div(r, H(a), H(b)));
}

/* fma(a, b, c) where the profile fuses; a multiply and an add otherwise */
static uint32_t h_fma(const stex_math_rules *r, bool fused, uint32_t a, uint32_t b, uint32_t c)
{
    if (!fused)
        return h_add(r, h_mul(r, a, b), c);
    float fa = H(a), fb = H(b), fc = H(c);
    if (r->f16 == STEX_RULE_F16_IEEE && !isnan(fa) && !isnan(fb) && !isnan(fc) &&
        !isnan(fmaf(fa, fb, fc)))
        return fma_once(fa, fb, fc);
    return F2H(stex_m_fma(r, fa, fb, fc));
}

static uint32_t h_mul_add(const stex_math_rules *r, uint32_t a, uint32_t b, uint32_t c)
{
    return h_fma(r, r->contract && r->fma_fused, a, b, c);
}

/* One f32 operation of the table on widened operands, rounded to f16. */
static uint32_t h_f32(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn32,
                      uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t in[3] = {m_bits(H(a)), m_bits(H(b)), m_bits(H(c))}, out[2];
    stex_m_eval_f32(r, p, fn32, in, out);
    return F2H(m_float(out[0]));
}

static int h_isnan(uint32_t h)
{
    return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
}

static int h_lt(uint32_t a, uint32_t b)
{
    return H(a) < H(b);
}

/* min and max select an operand, its bits unchanged.  Under the select rule
 * (measured on lavapipe for f16) a NaN first operand gives the second
 * (also when both are NaN), a NaN second gives the first, ties the second;
 * otherwise the f32 rule decides which operand it is. */
static uint32_t h_pick(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn32,
                       uint32_t a, uint32_t b)
{
    if (r->minmax == STEX_RULE_MINMAX_SELECT) {
        if (h_isnan(a) || h_isnan(b))
            return h_isnan(a) ? b : a;
        int lt = fn32 == STEX_MATH_MIN_F32 ? H(a) < H(b) : H(a) > H(b);
        return lt ? a : b;
    }
    uint32_t v = h_f32(r, p, fn32, a, b, 0);
    return h_isnan(v) ? v : v == a || (H(v) == H(a) && v != b) ? a : b;
}

static uint32_t h_min(const stex_math_rules *r, const stex_profile *p, uint32_t a, uint32_t b)
{
    return h_pick(r, p, STEX_MATH_MIN_F32, a, b);
}

static uint32_t h_max(const stex_math_rules *r, const stex_profile *p, uint32_t a, uint32_t b)
{
    return h_pick(r, p, STEX_MATH_MAX_F32, a, b);
}

/* The builtins NIR writes as expressions of others, where the profile
 * lowers them in f16 (`f16_nir_lowering`, lavapipe): the expressions of
 * math/lavapipe.c with every step rounded to f16, over the f32 models of
 * exp2, log2, sqrt, sin and cos rounded to f16.  *done = 0 for the others. */
static uint32_t h_nir(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn32,
                      uint32_t a, uint32_t b, int *done);

/* A primitive (exp2, log2, sqrt, sin, cos): a NaN operand comes back
 * quieted, a new NaN is the profile's */
static uint32_t h_prim(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn32,
                       uint32_t a)
{
    uint32_t v = h_isnan(a) ? a : h_f32(r, p, fn32, a, 0, 0);
    return h_isnan(v) ? F2H(stex_m_nan2(r, H(a), H(a))) : v;
}

static uint32_t h_nir1(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn32,
                       uint32_t a)
{
    int done;
    uint32_t v = h_nir(r, p, fn32, a, 0, &done);
    return done ? v : h_prim(r, p, fn32, a);
}

#define H_ONE 0x3c00u
#define H_HALF 0x3800u

/* NIR's ffma as lavapipe runs it in f16: a multiply and an add, each rounded */
static uint32_t h_ffma(const stex_math_rules *r, uint32_t a, uint32_t b, uint32_t c)
{
    return h_add(r, h_mul(r, a, b), c);
}

/* nir_atan in f16: |u| <= 1 after one reciprocal, the odd polynomial by
 * Horner in u^2 (coefficients rounded to f16), pi/2 bias, x's sign */
static uint32_t h_nir_atan(const stex_math_rules *r, uint32_t v)
{
    static const float C[6] = {
        -0.0121323213173444f, 0.0536813784310406f, -0.1173503194786851f,
        0.1938924977115610f, -0.3326756418091246f, 0.9999793128310355f,
    };
    int small = fabsf(H(v)) <= 1.0f;
    uint32_t u = small ? v : h_div(r, H_ONE, v);
    uint32_t u2 = h_mul(r, u, u), q = F2H(C[0]);
    for (int i = 1; i < 6; i++)
        q = h_ffma(r, q, u2, F2H(C[i]));
    uint32_t t = h_ffma(r, u & 0x7fffu, q, small ? 0 : F2H((float)-M_PI_2));
    return (t & 0x7fffu) | (v & 0x8000u);
}

/* vtn's build_asin in f16 (math/lavapipe.c has the f32 form) */
static uint32_t h_nir_asin(const stex_math_rules *r, const stex_profile *p, uint32_t x,
                           float p0, float p1, int piecewise)
{
    uint32_t ax = x & 0x7fffu;
    uint32_t tail = h_ffma(r, ax, h_ffma(r, ax, h_ffma(r, ax, F2H(p1), F2H(p0)),
                                         F2H((float)M_PI_4 - 1.0f)), F2H((float)M_PI_2));
    uint32_t outer = h_sub(r, F2H((float)M_PI_2),
                           h_mul(r, h_prim(r, p, STEX_MATH_SQRT_F32, h_sub(r, H_ONE, ax)), tail));
    uint32_t sg = H(x) != 0.0f ? (x & 0x8000u) | H_ONE : 0;
    uint32_t r0 = h_mul(r, sg, outer);
    if (!piecewise)
        return r0;
    uint32_t x2 = h_mul(r, x, x);
    uint32_t q = h_mul(r, x2, h_ffma(r, x2, h_ffma(r, x2, F2H(-8.6563630030e-03f),
                                                   F2H(-4.2743422091e-02f)), F2H(1.6666586697e-01f)));
    uint32_t d = h_ffma(r, x2, F2H(-7.0662963390e-01f), H_ONE);
    uint32_t r1 = h_ffma(r, x, h_div(r, q, d), x);
    return fabsf(H(x)) < 0.5f ? r1 : r0;
}

/* nir_atan2 in f16 */
/* measured: every threshold in [2048, 32768] fits the rows */
#define H_SCALE_AT 16384.0f
static uint32_t h_nir_atan2(const stex_math_rules *r, uint32_t y, uint32_t x)
{
    int flip = 0.0f >= H(x);
    uint32_t s = flip ? x & 0x7fffu : y, t = flip ? y : x & 0x7fffu;
    /* huge denominators scaled by 1/4 first, so that 1/t stays normal */
    uint32_t scale = fabsf(H(t)) >= H_SCALE_AT ? 0x3400u : H_ONE;
    uint32_t rcp = h_div(r, H_ONE, h_mul(r, t, scale));
    uint32_t q = h_mul(r, h_mul(r, s, scale), rcp) & 0x7fffu;
    uint32_t tn = fabsf(H(x)) == fabsf(H(y)) ? H_ONE : q; /* NaN: never equal */
    uint32_t arc = h_ffma(r, flip ? H_ONE : 0, F2H((float)M_PI_2), h_nir_atan(r, tn));
    float m = h_isnan(rcp) ? H(y) : h_isnan(y) ? H(rcp) : H(y) < H(rcp) ? H(y) : H(rcp);
    return m < 0.0f ? arc ^ 0x8000u : arc;
}

static uint32_t h_nir(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn32,
                      uint32_t a, uint32_t b, int *done)
{
    *done = 1;
    switch (fn32) {
    case STEX_MATH_EXP_F32: /* exp2(x * log2(e)) */
        return h_prim(r, p, STEX_MATH_EXP2_F32, h_mul(r, a, 0x3dc5u));
    case STEX_MATH_LOG_F32: /* log2(x) * ln(2) */
        return h_mul(r, h_prim(r, p, STEX_MATH_LOG2_F32, a), 0x398cu);
    case STEX_MATH_TAN_F32: /* sin / cos */
        return h_div(r, h_prim(r, p, STEX_MATH_SIN_F32, a),
                     h_prim(r, p, STEX_MATH_COS_F32, a));
    case STEX_MATH_INVERSESQRT_F32: /* 1 / sqrt */
        return h_div(r, H_ONE, h_prim(r, p, STEX_MATH_SQRT_F32, a));
    case STEX_MATH_SINH_F32: /* (e^x - e^-x) * 0.5 */
        return h_mul(r, h_sub(r, h_nir1(r, p, STEX_MATH_EXP_F32, a),
                              h_nir1(r, p, STEX_MATH_EXP_F32, a ^ 0x8000u)), H_HALF);
    case STEX_MATH_COSH_F32: /* (e^x + e^-x) * 0.5 (measured: cosh(NaN) has e^x's NaN) */
        return h_mul(r, h_add(r, h_nir1(r, p, STEX_MATH_EXP_F32, a),
                              h_nir1(r, p, STEX_MATH_EXP_F32, a ^ 0x8000u)), H_HALF);
    case STEX_MATH_TANH_F32: { /* on x clamped to [-10, 10]; x where !(0 < |x|) */
        if (!(0.0f < fabsf(H(a))))
            return a;
        uint32_t c = H(a) > -10.0f ? a : 0xc900u;
        c = H(c) < 10.0f ? c : 0x4900u;
        uint32_t ep = h_nir1(r, p, STEX_MATH_EXP_F32, c);
        uint32_t en = h_nir1(r, p, STEX_MATH_EXP_F32, c ^ 0x8000u);
        return h_div(r, h_sub(r, ep, en), h_add(r, ep, en));
    }
    case STEX_MATH_ASINH_F32: { /* sign(x) * log(|x| + sqrt(x*x + 1)) */
        uint32_t rt = h_prim(r, p, STEX_MATH_SQRT_F32, h_add(r, h_mul(r, a, a), H_ONE));
        uint32_t sg = H(a) != 0.0f ? (a & 0x8000u) | H_ONE : 0;
        return h_mul(r, sg, h_nir1(r, p, STEX_MATH_LOG_F32, h_add(r, a & 0x7fffu, rt)));
    }
    case STEX_MATH_ACOSH_F32: /* log(x + sqrt(x*x - 1)) */
        return h_nir1(r, p, STEX_MATH_LOG_F32,
                      h_add(r, a, h_prim(r, p, STEX_MATH_SQRT_F32,
                                         h_add(r, h_mul(r, a, a), 0xbc00u))));
    case STEX_MATH_ATANH_F32: /* log((x + 1) / (1 - x)) * 0.5 */
        return h_mul(r, h_nir1(r, p, STEX_MATH_LOG_F32,
                               h_div(r, h_add(r, a, H_ONE), h_sub(r, H_ONE, a))), H_HALF);
    case STEX_MATH_ATAN_F32: return h_nir_atan(r, a);
    case STEX_MATH_ASIN_F32: return h_nir_asin(r, p, a, 0.086566724f, -0.03102955f, 1);
    case STEX_MATH_ACOS_F32:
        return h_sub(r, F2H((float)M_PI_2), h_nir_asin(r, p, a, 0.08132463f, -0.02363318f, 0));
    case STEX_MATH_ATAN2_F32: return h_nir_atan2(r, a, b);
    case STEX_MATH_POW_F32: { /* exp2(log2(x) * y); x == 0 gives 0 */
        uint32_t v = h_f32(r, p, STEX_MATH_EXP2_F32,
                           h_mul(r, h_prim(r, p, STEX_MATH_LOG2_F32, a), b), 0, 0);
        return H(a) == 0.0f ? 0 : v;
    }
    default:
        *done = 0;
        return 0;
    }
}

/* An inexact builtin: correctly rounded to f16, or the profile's f32 one. */
static uint32_t h_approx(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn32,
                         uint32_t a, uint32_t b)
{
    int done = 0;
    uint32_t v = r->f16_nir_lowering ? h_nir(r, p, fn32, a, b, &done) : 0;
    if (done) /* NaNs went through the expression's steps */
        return v;
    if (h_isnan(a) || h_isnan(b)) /* the first NaN operand, quieted */
        return F2H(stex_m_nan2(r, H(a), H(b)));
    v = r->f16 == STEX_RULE_F16_VIA_F32 ? h_f32(r, p, fn32, a, b, 0)
                                        : stex_m_d2h(stex_m_correct_f16(fn32, H(a), H(b)));
    return h_isnan(v) ? F2H(stex_m_nan2(r, H(a), H(b))) : v; /* a new NaN */
}

/* x % y: WGSL's x - y * trunc(x / y), by the profile's rule */
static uint32_t h_rem(const stex_math_rules *r, const stex_profile *p, uint32_t a, uint32_t b)
{
    if (r->rem == STEX_RULE_REM_EXACT || h_isnan(a) || h_isnan(b))
        return h_f32(r, p, STEX_MATH_REM_F32, a, b, 0); /* fmod: exact in f16 too */
    uint32_t t = F2H(truncf(H(h_div(r, a, b))));
    uint32_t m = r->contract ? h_fma(r, true, b ^ 0x8000u, t, a) : h_sub(r, a, h_mul(r, b, t));
    if (r->rem == STEX_RULE_REM_ROUNDED_SIGN_OF_X && (H(m) == 0.0f || h_isnan(m)))
        m = (m & 0x7fffu) | (H(a) < 0.0f ? 0x8000u : 0);
    return m;
}

static uint32_t h_smoothstep(const stex_math_rules *r, const stex_profile *p, uint32_t lo,
                             uint32_t hi, uint32_t x)
{
    /* t = clamp((x - low) / (high - low), 0, 1); t * t * (3 - 2 * t), in f16 */
    uint32_t t = h_div(r, h_sub(r, x, lo), h_sub(r, hi, lo));
    t = h_min(r, p, h_max(r, p, t, 0x0000u), 0x3c00u);
    uint32_t v = h_mul_add(r, 0xc000u /* -2 */, t, 0x4200u /* 3 */);
    if (r->smoothstep == STEX_RULE_SMOOTH_T_LAST)
        return h_mul(r, t, h_mul(r, t, v));
    return h_mul(r, h_mul(r, t, t), v);
}

static uint32_t h_mix(const stex_math_rules *r, uint32_t a, uint32_t b, uint32_t t)
{
    if (r->mix == STEX_RULE_MIX_LERP)
        return h_mul_add(r, t, h_sub(r, b, a), a);
    return h_mul_add(r, b, t, h_mul(r, a, h_sub(r, 0x3c00u, t)));
}

static uint32_t h_pow2_bits(int32_t k) /* 2^k from f16 exponent bits; k = -15 gives 0 */
{
    return (uint32_t)(k + 15) << 10;
}

/* ldexp: x * 2^e rounded once, or (the two-powers rule) e clamped to
 * [-30, 30] and x multiplied by two powers of two built from bits, each
 * product rounded to f16: the f16 form of the f32 rule */
static uint32_t h_ldexp(const stex_math_rules *r, uint32_t a, int32_t e)
{
    if (h_isnan(a))
        return F2H(stex_m_nan2(r, H(a), H(a)));
    if (r->ldexp == STEX_RULE_LDEXP_TWO_POWERS) {
        e = e < -30 ? -30 : e > 30 ? 30 : e;
        int32_t h = e >> 1; /* arithmetic shift: floor(e / 2) */
        return h_mul(r, h_mul(r, a, h_pow2_bits(h)), h_pow2_bits(e - h));
    }
    return stex_m_d2h(ldexp((double)H(a), e < -100 ? -100 : e > 100 ? 100 : e));
}

/* frexp: normalised, or (the field rule) from the f16 bit fields: exp =
 * field - 14 (a subnormal reads -14), fract = sign | 0x3800 | mantissa; inf
 * and NaN unchanged with exp 17 */
static void h_frexp(const stex_math_rules *r, const stex_profile *p, uint32_t a, uint32_t out[2])
{
    uint32_t field = (a >> 10) & 31u;
    if (r->frexp == STEX_RULE_FREXP_FIELD && (a & 0x7fffu)) {
        out[0] = field == 31 ? a : (a & 0x83ffu) | 0x3800u;
        out[1] = field - 14u;
        return;
    }
    uint32_t in = m_bits(H(a)), o[2];
    stex_m_eval_f32(r, p, STEX_MATH_FREXP_F32, &in, o); /* every f16 is a normal f32 */
    out[0] = F2H(m_float(o[0]));
    out[1] = o[1];
}

/* f16 -> i32 / u32: WGSL clamps to the values both types hold, [-65504,
 * 65504] (u32: from 0), before truncating; a NaN is the profile's choice */
static uint32_t h_to_int(const stex_math_rules *r, const stex_profile *p, uint32_t a,
                         stex_math_fn fn32)
{
    float x = H(a);
    if (!isnan(x) || r->f16_nan_to_int_low) /* a NaN fails both compares: the low end */
        x = !(x > -65504.0f) ? -65504.0f : x > 65504.0f ? 65504.0f : x;
    uint32_t w = m_bits(x), out;
    stex_m_eval_int(r, p, fn32, &w, &out);
    return out;
}

/* 180/pi and pi/180 rounded to f16 */
#define H_DEGREES 0x5329u
#define H_RADIANS 0x2478u

/* Returns 1 if fn is an f16 operation (out written). */
int stex_m_eval_f16(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn,
                    const uint32_t *in, uint32_t *out)
{
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    uint32_t a = in[0] & 0xffffu;
    uint32_t b = info->in_words > 1 ? in[1] & 0xffffu : 0;
    uint32_t c = info->in_words > 2 ? in[2] & 0xffffu : 0;
    uint32_t v;

    switch (fn) {
    case STEX_MATH_ADD_F16: v = h_add(r, a, b); break;
    case STEX_MATH_SUB_F16: v = h_sub(r, a, b); break;
    case STEX_MATH_MUL_F16: v = h_mul(r, a, b); break;
    case STEX_MATH_DIV_F16: v = h_div(r, a, b); break;
    case STEX_MATH_REM_F16: v = h_rem(r, p, a, b); break;
    /* sign-bit operations in binary16; the f32 ones (NaNs quieted) otherwise */
    case STEX_MATH_NEG_F16:
        v = r->f16 == STEX_RULE_F16_IEEE ? a ^ 0x8000u : h_f32(r, p, STEX_MATH_NEG_F32, a, 0, 0);
        break;
    case STEX_MATH_ABS_F16:
        v = r->f16 == STEX_RULE_F16_IEEE ? a & 0x7fffu : h_f32(r, p, STEX_MATH_ABS_F32, a, 0, 0);
        break;
    case STEX_MATH_LT_F16: out[0] = (uint32_t)h_lt(a, b); return 1;
    case STEX_MATH_EQ_F16: out[0] = H(a) == H(b); return 1;
    case STEX_MATH_MUL_ADD_F16: case STEX_MATH_ADD_MUL_F16: v = h_mul_add(r, a, b, c); break;
    case STEX_MATH_FMA_F16: v = h_fma(r, r->fma_fused, a, b, c); break;
    case STEX_MATH_SIN_F16: v = h_approx(r, p, STEX_MATH_SIN_F32, a, 0); break;
    case STEX_MATH_COS_F16: v = h_approx(r, p, STEX_MATH_COS_F32, a, 0); break;
    case STEX_MATH_TAN_F16: v = h_approx(r, p, STEX_MATH_TAN_F32, a, 0); break;
    case STEX_MATH_EXP_F16: v = h_approx(r, p, STEX_MATH_EXP_F32, a, 0); break;
    case STEX_MATH_EXP2_F16: v = h_approx(r, p, STEX_MATH_EXP2_F32, a, 0); break;
    case STEX_MATH_LOG_F16: v = h_approx(r, p, STEX_MATH_LOG_F32, a, 0); break;
    case STEX_MATH_LOG2_F16: v = h_approx(r, p, STEX_MATH_LOG2_F32, a, 0); break;
    case STEX_MATH_SQRT_F16: v = h_approx(r, p, STEX_MATH_SQRT_F32, a, 0); break;
    case STEX_MATH_INVERSESQRT_F16: v = h_approx(r, p, STEX_MATH_INVERSESQRT_F32, a, 0); break;
    case STEX_MATH_TANH_F16: v = h_approx(r, p, STEX_MATH_TANH_F32, a, 0); break;
    case STEX_MATH_ATAN_F16: v = h_approx(r, p, STEX_MATH_ATAN_F32, a, 0); break;
    case STEX_MATH_ASIN_F16: v = h_approx(r, p, STEX_MATH_ASIN_F32, a, 0); break;
    case STEX_MATH_ACOS_F16: v = h_approx(r, p, STEX_MATH_ACOS_F32, a, 0); break;
    case STEX_MATH_SINH_F16: v = h_approx(r, p, STEX_MATH_SINH_F32, a, 0); break;
    case STEX_MATH_COSH_F16: v = h_approx(r, p, STEX_MATH_COSH_F32, a, 0); break;
    case STEX_MATH_ASINH_F16: v = h_approx(r, p, STEX_MATH_ASINH_F32, a, 0); break;
    case STEX_MATH_ACOSH_F16: v = h_approx(r, p, STEX_MATH_ACOSH_F32, a, 0); break;
    case STEX_MATH_ATANH_F16: v = h_approx(r, p, STEX_MATH_ATANH_F32, a, 0); break;
    case STEX_MATH_POW_F16: v = h_approx(r, p, STEX_MATH_POW_F32, a, b); break;
    case STEX_MATH_ATAN2_F16: v = h_approx(r, p, STEX_MATH_ATAN2_F32, a, b); break;
    /* exact in f16: the f32 result of a widened f16 is an f16 */
    case STEX_MATH_FLOOR_F16: v = h_f32(r, p, STEX_MATH_FLOOR_F32, a, 0, 0); break;
    case STEX_MATH_CEIL_F16: v = h_f32(r, p, STEX_MATH_CEIL_F32, a, 0, 0); break;
    case STEX_MATH_ROUND_F16: v = h_f32(r, p, STEX_MATH_ROUND_F32, a, 0, 0); break;
    case STEX_MATH_TRUNC_F16: v = h_f32(r, p, STEX_MATH_TRUNC_F32, a, 0, 0); break;
    case STEX_MATH_SIGN_F16: v = h_f32(r, p, STEX_MATH_SIGN_F32, a, 0, 0); break;
    case STEX_MATH_STEP_F16: v = h_f32(r, p, STEX_MATH_STEP_F32, a, b, 0); break;
    case STEX_MATH_MIN_F16: v = h_min(r, p, a, b); break;
    case STEX_MATH_MAX_F16: v = h_max(r, p, a, b); break;
    case STEX_MATH_CLAMP_F16: v = h_min(r, p, h_max(r, p, a, b), c); break;
    case STEX_MATH_SATURATE_F16: v = h_min(r, p, h_max(r, p, a, 0x0000u), 0x3c00u); break;
    case STEX_MATH_FRACT_F16:
        v = h_isnan(a) ? h_f32(r, p, STEX_MATH_FRACT_F32, a, 0, 0)
                       : h_sub(r, a, F2H(floorf(H(a))));
        break;
    case STEX_MATH_DEGREES_F16: v = h_mul(r, a, H_DEGREES); break;
    case STEX_MATH_RADIANS_F16: v = h_mul(r, a, H_RADIANS); break;
    case STEX_MATH_SMOOTHSTEP_F16: v = h_smoothstep(r, p, a, b, c); break;
    case STEX_MATH_MIX_F16: v = h_mix(r, a, b, c); break;
    case STEX_MATH_LDEXP_F16: v = h_ldexp(r, a, (int32_t)in[1]); break;
    case STEX_MATH_FREXP_F16: h_frexp(r, p, a, out); out[0] &= 0xffffu; return 1;
    case STEX_MATH_MODF_F16: {
        uint32_t w = m_bits(H(a)), o[2];
        stex_m_eval_f32(r, p, STEX_MATH_MODF_F32, &w, o); /* exact: both parts are f16s */
        out[0] = F2H(m_float(o[0]));
        out[1] = F2H(m_float(o[1]));
        return 1;
    }
    /* conversions: the f32 ones on the widened value (every f16 is an f32) */
    /* IEEE 754 5.4.2: converting a signalling NaN gives a quiet one */
    case STEX_MATH_F16_TO_F32:
        out[0] = m_bits(H(a)) | (h_isnan(a) ? 0x00400000u : 0);
        return 1;
    case STEX_MATH_F16_TO_I32: out[0] = h_to_int(r, p, a, STEX_MATH_F32_TO_I32); return 1;
    case STEX_MATH_F16_TO_U32: out[0] = h_to_int(r, p, a, STEX_MATH_F32_TO_U32); return 1;
    case STEX_MATH_F16_TO_BOOL: out[0] = H(a) != 0.0f; return 1; /* NaN is true */
    case STEX_MATH_F32_TO_F16:
        v = F2H(m_float(in[0]));
        if (h_isnan(v) && r->f16_convert_nan_canonical)
            v = (v & 0x8000u) | 0x7e00u;
        break;
    /* an integer rounded once (an i32 has more bits than f32 keeps: no f32 step) */
    case STEX_MATH_I32_TO_F16: v = stex_m_d2h((double)(int32_t)in[0]); break;
    case STEX_MATH_U32_TO_F16: v = stex_m_d2h((double)in[0]); break;
    case STEX_MATH_BITCAST_U32_VEC2_F16:
        out[0] = in[0] & 0xffffu;
        out[1] = in[0] >> 16;
        return 1;
    case STEX_MATH_BITCAST_VEC2_F16_U32: out[0] = (in[0] & 0xffffu) | (in[1] << 16); return 1;
    default:
        return 0;
    }
    out[0] = v & 0xffffu;
    return 1;
}

bool stex_math_f16_from_double(double v, uint32_t *bits)
{
    *bits = stex_m_d2h(v);
    return !isfinite(v) || (*bits & 0x7c00u) != 0x7c00u;
}

float stex_math_f16_to_float(uint32_t bits)
{
    return stex_m_h2f(bits & 0xffffu);
}
