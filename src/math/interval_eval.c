/*
 * math/interval_eval.c - stex_ival_eval: every overload of stex/math.def on
 * sets of arguments.
 *
 * Floats go to interval_arith.c and interval_builtin.c under f32's or
 * f16's grid.  Integer operations are exact: on points they are the
 * spec profile's (every profile computes integers alike); on wider sets
 * the monotone ones take their ends, the rest every combination of
 * arguments when there are few, else the whole type.  Packing builds on
 * the float rules per component, then lists the packed words.
 */
#include "math/interval_internal.h"

#include <pthread.h>
#include <string.h>

#include "common/error.h"
#include "math/ops.h"

typedef stex_ival iv;

enum { MAX_COMBOS = 4096 };

static const iv_fmt *fmt_of(char t)
{
    return t == 'h' ? &stex_iv_f16 : &stex_iv_f32;
}

static bool is_point(const iv *v)
{
    return stex_ival_is_point('i', v);
}

static uint32_t int_bits(char t, double v)
{
    return t == 'i' ? (uint32_t)(int32_t)v : (uint32_t)v;
}

static double int_value(char t, uint32_t bits)
{
    return t == 'i' ? (double)(int32_t)bits : t == 'b' ? (double)(bits != 0) : (double)bits;
}

static bool in_range(char t, double lo, double hi)
{
    return t == 'i' ? lo >= -2147483648.0 && hi <= 2147483647.0 : lo >= 0 && hi <= 4294967295.0;
}

/* the integer results of fn on every combination of the integer arguments
 * (their sets at most MAX_COMBOS combinations), joined; false if too many */
static bool enumerate(stex_math_fn fn, const char *it, int nin, const char *ot, int nout,
                      const iv *in, iv *out)
{
    double count = 1;
    for (int i = 0; i < nin; i++) {
        if (in[i].flags & STEX_IVAL_ANY)
            return false;
        count *= in[i].hi - in[i].lo + 1;
    }
    if (count > MAX_COMBOS)
        return false;
    const stex_profile *spec = stex_profile_get(STEX_PROFILE_SPEC);
    double cur[8];
    for (int i = 0; i < nin; i++)
        cur[i] = in[i].lo;
    for (int o = 0; o < nout; o++)
        out[o] = (iv){INFINITY, -INFINITY, 0};
    for (;;) {
        uint32_t a[8], r[8];
        for (int i = 0; i < nin; i++)
            a[i] = int_bits(it[i], cur[i]);
        stex_math_eval(spec, fn, a, r);
        for (int o = 0; o < nout; o++) {
            double v = int_value(ot[o], r[o]);
            out[o].lo = v < out[o].lo ? v : out[o].lo;
            out[o].hi = v > out[o].hi ? v : out[o].hi;
        }
        int i = 0;
        while (i < nin && cur[i] == in[i].hi)
            cur[i] = in[i].lo, i++;
        if (i == nin)
            return true;
        cur[i] += 1;
    }
}

/* integer operations whose result is monotone in each argument */
static bool int_monotone(stex_math_fn fn, char t, const iv *in, iv *out)
{
    double lo, hi;
    switch (fn) {
    case STEX_MATH_ADD_I32: case STEX_MATH_ADD_U32:
        lo = in[0].lo + in[1].lo, hi = in[0].hi + in[1].hi;
        break;
    case STEX_MATH_SUB_I32: case STEX_MATH_SUB_U32:
        lo = in[0].lo - in[1].hi, hi = in[0].hi - in[1].lo;
        break;
    case STEX_MATH_NEG_I32:
        lo = -in[0].hi, hi = -in[0].lo;
        break;
    case STEX_MATH_NOT_I32:
        lo = -in[0].hi - 1, hi = -in[0].lo - 1;
        break;
    case STEX_MATH_MIN_I32: case STEX_MATH_MIN_U32:
        lo = fmin(in[0].lo, in[1].lo), hi = fmin(in[0].hi, in[1].hi);
        break;
    case STEX_MATH_CLAMP_I32: case STEX_MATH_CLAMP_U32: /* min(max(e, low), high) */
        lo = fmin(fmax(in[0].lo, in[1].lo), in[2].lo);
        hi = fmin(fmax(in[0].hi, in[1].hi), in[2].hi);
        break;
    case STEX_MATH_I32_TO_U32: case STEX_MATH_U32_TO_I32:
        lo = in[0].lo, hi = in[0].hi;
        break;
    default:
        return false;
    }
    /* a result past the type wraps: then any word */
    *out = in_range(t, lo, hi) ? (iv){lo, hi, 0} : stex_iv_any_int(t);
    return true;
}

static stex_status eval_int(stex_math_fn fn, const char *it, int nin, const char *ot, int nout,
                            const iv *in, iv *out)
{
    for (int i = 0; i < nin; i++)
        if ((in[i].flags & STEX_IVAL_ANY) || it[i] == 'f' || it[i] == 'h')
            goto any;
    bool points = true;
    for (int i = 0; i < nin; i++)
        points &= is_point(&in[i]);
    /* points: exact (wrapping as WGSL's integers do); sets: by their ends
     * where monotone, else every combination */
    if (!points && nout == 1 && int_monotone(fn, ot[0], in, out))
        return STEX_OK;
    if (enumerate(fn, it, nin, ot, nout, in, out))
        return STEX_OK;
any:
    for (int o = 0; o < nout; o++)
        out[o] = stex_ival_any(ot[o]);
    return STEX_OK;
}

/* ---- packing ---- */

/* The integer code of one normalized component: WGSL says floor(0.5 +
 * S * clamp(e)) with the intermediate correctly rounded.  Both devices
 * measured round S * clamp(e) to f32 and then to the nearest integer, ties
 * to even (0.3 * 65535 = 19660.5008 is 19660.5 in f32, packed as 19660;
 * 0.5 * 32767 as 16384, -0.5 as -16384), as WebGPU's texel conversion
 * allows: so a code nearest to the intermediate, ties either way. */
static iv norm_code(iv e, double S, bool is_snorm)
{
    const iv_fmt *F = &stex_iv_f32;
    iv c = stex_iv_clamp(F, e, stex_iv_make(is_snorm ? -1 : 0, is_snorm ? -1 : 0), stex_iv_make(1, 1));
    iv m = stex_iv_mul(F, c, stex_iv_make(S, S));
    if (stex_iv_wild(&m))
        return stex_iv_any_int('i');
    return (iv){ceil(m.lo - 0.5) + 0.0, floor(m.hi + 0.5) + 0.0, 0};
}

/* the codes a component set may have: up to max of them into codes[] */
typedef struct codes {
    uint32_t v[64];
    int n;
} codes;

static bool int_codes(iv k, unsigned bits, codes *c)
{
    c->n = 0;
    if ((k.flags & STEX_IVAL_ANY) || k.hi - k.lo >= 64)
        return false;
    for (double x = k.lo; x <= k.hi; x++)
        c->v[c->n++] = (uint32_t)(int32_t)x & ((1u << bits) - 1);
    return true;
}

static bool f16_codes(iv h, codes *c)
{
    c->n = 0;
    if (stex_iv_wild(&h))
        return false;
    for (double x = h.lo; x <= h.hi; x = stex_iv_next_up(&stex_iv_f16, x)) {
        if (c->n >= 62) /* room for this value and the other zero */
            return false;
        uint32_t b = stex_m_d2h(x);
        c->v[c->n++] = b;
        if (x == 0)
            c->v[c->n++] = b ^ 0x8000u; /* the other zero */
    }
    return true;
}

/* every word made of one code per component (field width `bits`), joined */
static iv pack_codes(const codes *c, int n, unsigned bits)
{
    double total = 1;
    for (int i = 0; i < n; i++)
        total *= c[i].n;
    if (total > MAX_COMBOS)
        return stex_iv_any_int('u');
    iv r = {INFINITY, -INFINITY, 0};
    int idx[4] = {0, 0, 0, 0};
    for (;;) {
        uint32_t w = 0;
        for (int i = 0; i < n; i++)
            w |= c[i].v[idx[i]] << (bits * (unsigned)i);
        r.lo = fmin(r.lo, w), r.hi = fmax(r.hi, w);
        int i = 0;
        while (i < n && idx[i] == c[i].n - 1)
            idx[i] = 0, i++;
        if (i == n)
            return r;
        idx[i]++;
    }
}

static iv pack_norm(const iv *in, int n, unsigned bits, bool is_snorm)
{
    double S = is_snorm ? (double)((1u << (bits - 1)) - 1) : (double)((1u << bits) - 1);
    codes c[4];
    for (int i = 0; i < n; i++)
        if (!int_codes(norm_code(in[i], S, is_snorm), bits, &c[i]))
            return stex_iv_any_int('u');
    return pack_codes(c, n, bits);
}

static iv pack_f16(const iv *in)
{
    codes c[2];
    for (int i = 0; i < 2; i++) {
        /* converted to binary16 (rounded either way, may flush); outside
         * f16's finite range the word is indeterminate */
        iv h = stex_iv_convert(&stex_iv_f16, &stex_iv_f32, in[i]);
        if (!f16_codes(h, &c[i]))
            return stex_iv_any_int('u');
    }
    return pack_codes(c, 2, 16);
}

static void unpack_norm(const iv *in, int n, unsigned bits, bool is_snorm, iv *out)
{
    if (!is_point(&in[0])) {
        for (int i = 0; i < n; i++)
            out[i] = stex_iv_any_float();
        return;
    }
    uint32_t w = (uint32_t)in[0].lo;
    double S = is_snorm ? (double)((1u << (bits - 1)) - 1) : (double)((1u << bits) - 1);
    for (int i = 0; i < n; i++) {
        uint32_t k = (w >> (bits * (unsigned)i)) & ((1u << bits) - 1);
        double v = is_snorm ? (double)((int32_t)(k << (32 - bits)) >> (32 - bits)) : (double)k;
        v = fmax(v / S, -1.0);
        double lo = v, hi = v;
        stex_iv_widen(&lo, &hi);
        out[i] = stex_iv_ulp_err(&stex_iv_f32, lo, hi, 3); /* 3 ULP */
    }
}

/* f16 halves as a set of values: exact, an intermediate subnormal may flush */
static void halves(const iv *in, const iv_fmt *to, iv *out)
{
    if (!is_point(&in[0])) {
        out[0] = out[1] = stex_iv_any_float();
        return;
    }
    uint32_t w = (uint32_t)in[0].lo;
    for (int i = 0; i < 2; i++) {
        iv h = stex_ival_of_bits('h', w >> (16 * i));
        out[i] = stex_iv_wild(&h) ? stex_iv_any_float()
                                  : stex_iv_flush_in(&stex_iv_f16, stex_iv_finish(to, h.lo, h.hi));
    }
}

static iv bitcast_f32_to_int(iv a)
{
    if (stex_iv_wild(&a))
        return stex_iv_any_int('i');
    a = stex_iv_flush_in(&stex_iv_f32, a); /* a bit reinterpretation may flush */
    /* a float's bits as i32 grow with its value when positive, and count
     * up from -2^31 with its magnitude when negative; -0.0 is -2^31 */
    double mag_lo = (double)(m_bits((float)fabs(a.lo)));
    double mag_hi = (double)(m_bits((float)fabs(a.hi)));
    if (a.lo > 0)
        return (iv){mag_lo, mag_hi, 0};
    if (a.hi < 0)
        return (iv){-2147483648.0 + mag_hi, -2147483648.0 + mag_lo, 0};
    return (iv){-2147483648.0, mag_hi, 0};
}

static iv bitcast_to_f32(iv a)
{
    if (!is_point(&a))
        return stex_iv_any_float();
    iv r = stex_ival_of_bits('f', (uint32_t)(int64_t)a.lo);
    return (r.flags & STEX_IVAL_NO_NUMBER) ? r : stex_iv_flush_in(&stex_iv_f32, r);
}

static iv to_bool(iv a)
{
    if (stex_iv_wild(&a))
        return stex_iv_any_int('b');
    /* bool(x) is x != 0.0, a comparison, whose argument may flush (NVIDIA
     * measured: bool(-0x1p-149) is false) */
    a = stex_iv_flush_in(&stex_iv_f32, a);
    bool can_false = a.lo <= 0 && a.hi >= 0, can_true = !(a.lo == 0 && a.hi == 0);
    return (iv){can_false ? 0 : 1, can_true ? 1 : 0, 0};
}

/* the operators and conversions of one float type; false if fn is another kind */
static bool eval_float_op(stex_math_fn fn, const iv_fmt *F, const iv *in, iv *out)
{
    const iv_fmt *F32 = &stex_iv_f32, *F16 = &stex_iv_f16;
    switch (fn) {
    case STEX_MATH_ADD_F32: case STEX_MATH_ADD_F16: *out = stex_iv_add(F, in[0], in[1]); return true;
    case STEX_MATH_SUB_F32: case STEX_MATH_SUB_F16: *out = stex_iv_sub(F, in[0], in[1]); return true;
    case STEX_MATH_MUL_F32: case STEX_MATH_MUL_F16: *out = stex_iv_mul(F, in[0], in[1]); return true;
    case STEX_MATH_DIV_F32: case STEX_MATH_DIV_F16: *out = stex_iv_div(F, in[0], in[1]); return true;
    case STEX_MATH_REM_F32: case STEX_MATH_REM_F16: *out = stex_iv_rem(F, in[0], in[1]); return true;
    case STEX_MATH_NEG_F32: case STEX_MATH_NEG_F16: *out = stex_iv_neg(F, in[0]); return true;
    case STEX_MATH_LT_F32: case STEX_MATH_LT_F16: *out = stex_iv_lt(F, in[0], in[1]); return true;
    case STEX_MATH_EQ_F32: case STEX_MATH_EQ_F16: *out = stex_iv_eq(F, in[0], in[1]); return true;
    /* a * b + c, fused or not, and fma (inherited from x * y + z): outward
     * rounding of both steps holds every one of them */
    case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32: case STEX_MATH_MUL_ADD_LET_F32:
    case STEX_MATH_FMA_F32: case STEX_MATH_MUL_ADD_F16: case STEX_MATH_ADD_MUL_F16:
    case STEX_MATH_FMA_F16:
        *out = stex_iv_add(F, stex_iv_mul(F, in[0], in[1]), in[2]);
        return true;
    /* a * b - c and c - a * b (the nvidia profile's contractions), the same way */
    case STEX_MATH_MUL_SUB_F32: *out = stex_iv_sub(F, stex_iv_mul(F, in[0], in[1]), in[2]); return true;
    case STEX_MATH_SUB_MUL_F32: *out = stex_iv_sub(F, in[2], stex_iv_mul(F, in[0], in[1])); return true;
    case STEX_MATH_NEG_MUL_SUB_F32:
        *out = stex_iv_sub(F, stex_iv_neg(F, stex_iv_mul(F, in[0], in[1])), in[2]);
        return true;
    case STEX_MATH_RECIP_F32: *out = stex_iv_div(F, (iv){1.0, 1.0, 0}, in[0]); return true;
    case STEX_MATH_F32_TO_I32: *out = stex_iv_to_int(F32, in[0], 'i'); return true;
    case STEX_MATH_F32_TO_U32: *out = stex_iv_to_int(F32, in[0], 'u'); return true;
    case STEX_MATH_F16_TO_I32: *out = stex_iv_to_int(F16, in[0], 'i'); return true;
    case STEX_MATH_F16_TO_U32: *out = stex_iv_to_int(F16, in[0], 'u'); return true;
    case STEX_MATH_F32_TO_BOOL: case STEX_MATH_F16_TO_BOOL: *out = to_bool(in[0]); return true;
    case STEX_MATH_I32_TO_F32: case STEX_MATH_U32_TO_F32: *out = stex_iv_from_int(F32, in[0]); return true;
    case STEX_MATH_I32_TO_F16: case STEX_MATH_U32_TO_F16: *out = stex_iv_from_int(F16, in[0]); return true;
    case STEX_MATH_F16_TO_F32: *out = stex_iv_convert(F32, F16, in[0]); return true;
    case STEX_MATH_F32_TO_F16: *out = stex_iv_convert(F16, F32, in[0]); return true;
    case STEX_MATH_BITCAST_U32_F32: *out = bitcast_to_f32(in[0]); return true;
    case STEX_MATH_BITCAST_F32_I32: *out = bitcast_f32_to_int(in[0]); return true;
    case STEX_MATH_BITCAST_U32_VEC2_F16: halves(in, F16, out); return true;
    case STEX_MATH_BITCAST_VEC2_F16_U32: {
        codes c[2];
        bool ok = f16_codes(in[0], &c[0]) && f16_codes(in[1], &c[1]);
        *out = ok ? pack_codes(c, 2, 16) : stex_iv_any_int('u');
        return true;
    }
    case STEX_MATH_PACK2X16FLOAT: *out = pack_f16(in); return true;
    case STEX_MATH_PACK2X16UNORM: *out = pack_norm(in, 2, 16, false); return true;
    case STEX_MATH_PACK2X16SNORM: *out = pack_norm(in, 2, 16, true); return true;
    case STEX_MATH_PACK4X8UNORM: *out = pack_norm(in, 4, 8, false); return true;
    case STEX_MATH_PACK4X8SNORM: *out = pack_norm(in, 4, 8, true); return true;
    case STEX_MATH_UNPACK2X16FLOAT: halves(in, F32, out); return true;
    case STEX_MATH_UNPACK2X16UNORM: unpack_norm(in, 2, 16, false, out); return true;
    case STEX_MATH_UNPACK2X16SNORM: unpack_norm(in, 2, 16, true, out); return true;
    case STEX_MATH_UNPACK4X8UNORM: unpack_norm(in, 4, 8, false, out); return true;
    case STEX_MATH_UNPACK4X8SNORM: unpack_norm(in, 4, 8, true, out); return true;
    default: return false;
    }
}

/* per overload, worked out once: word types, its float type, its builtin */
typedef struct fn_shape {
    char it[8], ot[8];
    int nin, nout;
    const iv_fmt *F;
    int builtin; /* stex_iv_builtin_id, -1 if none */
} fn_shape;

static fn_shape shapes[STEX_MATH_FN_COUNT];
static pthread_once_t shapes_once = PTHREAD_ONCE_INIT;

static void shapes_init(void)
{
    for (int fn = 0; fn < STEX_MATH_FN_COUNT; fn++) {
        const stex_math_fn_info *info = stex_math_fn_get((stex_math_fn)fn);
        fn_shape *s = &shapes[fn];
        s->nin = stex_math_word_types(info->sig, s->it, 8);
        s->nout = stex_math_word_types(strstr(info->sig, "->") + 2, s->ot, 8);
        /* the float type of the overload: its result's, else its first float argument's */
        char ft = 'f';
        for (int i = s->nin - 1; i >= 0; i--)
            ft = s->it[i] == 'f' || s->it[i] == 'h' ? s->it[i] : ft;
        if (s->ot[0] == 'h' || (s->ot[0] == 'f' && ft != 'h'))
            ft = s->ot[0];
        s->F = fmt_of(ft);
        bool float_result = s->ot[0] == 'f' || s->ot[0] == 'h';
        s->builtin = float_result ? stex_iv_builtin_id(info->op) : -1;
    }
}

/* ---- the executor's commonest case: f32 + - * and a * b + c on sets whose
 * ends are zeros or normal numbers, with results of the same kind.  The
 * general path gives the same sets; this one skips its steps (flushing,
 * overflow, the grid's arithmetic) by using the host's f32 arithmetic. ---- */

static bool plain_f32(double x)
{
    double a = fabs(x);
    return a == 0 || (a >= 0x1p-126 && a <= 0x1.fffffep127);
}

static bool plain_set(const iv *v)
{
    return !v->flags && plain_f32(v->lo) && plain_f32(v->hi);
}

/* the next f32 above a finite r (its bits one step on) */
static float step_up(float r)
{
    uint32_t u = m_bits(r);
    if ((u & 0x7fffffffu) == 0)
        return 0x1p-149f;
    return m_float(u >> 31 ? u - 1 : u + 1);
}

/* the f32 values just below and above r + side (side: the sign of the rest) */
static float down(float r, double side)
{
    return side < 0 ? -step_up(-r) : r;
}

static float up(float r, double side)
{
    return side > 0 ? step_up(r) : r;
}

static bool plain_result(double lo, double hi, iv *out)
{
    if (!plain_f32(lo) || !plain_f32(hi))
        return false;
    *out = stex_iv_make(lo, hi);
    return true;
}

static bool fast_add(iv a, iv b, iv *out)
{
    if (!plain_set(&a) || !plain_set(&b))
        return false;
    float x[2] = {(float)a.lo, (float)a.hi}, y[2] = {(float)b.lo, (float)b.hi}, e[2];
    float r[2];
    for (int i = 0; i < 2; i++) { /* two-sum: r + e is the exact sum */
        r[i] = x[i] + y[i];
        float bb = r[i] - x[i];
        e[i] = (x[i] - (r[i] - bb)) + (y[i] - bb);
        if (r[i] == 0 && e[i] != 0)
            return false;
    }
    return plain_result(down(r[0], e[0]), up(r[1], e[1]), out);
}

static bool fast_mul(iv a, iv b, iv *out)
{
    if (!plain_set(&a) || !plain_set(&b))
        return false;
    double x[2] = {a.lo, a.hi}, y[2] = {b.lo, b.hi}, lo = INFINITY, hi = -INFINITY;
    int ni = a.lo == a.hi ? 1 : 2, nj = b.lo == b.hi ? 1 : 2;
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double p = x[i] * y[j]; /* exact: 48 bits */
            float r = (float)p;
            if (r == 0 && p != 0)
                return false;
            double d = down(r, p - (double)r), u = up(r, p - (double)r);
            lo = d < lo ? d : lo;
            hi = u > hi ? u : hi;
        }
    return plain_result(lo, hi, out);
}

static bool fast_path(stex_math_fn fn, const iv *in, iv *out)
{
    iv t;
    switch (fn) {
    case STEX_MATH_ADD_F32:
        return fast_add(in[0], in[1], out);
    case STEX_MATH_SUB_F32:
        return fast_add(in[0], (iv){-in[1].hi, -in[1].lo, in[1].flags}, out);
    case STEX_MATH_MUL_F32:
        return fast_mul(in[0], in[1], out);
    case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32: case STEX_MATH_MUL_ADD_LET_F32:
    case STEX_MATH_FMA_F32:
        return fast_mul(in[0], in[1], &t) && fast_add(t, in[2], out);
    default:
        return false;
    }
}

stex_status stex_ival_eval(stex_math_fn fn, const stex_ival *in, stex_ival *out)
{
    if (in && out && fast_path(fn, in, out))
        return STEX_OK;
    if ((unsigned)fn >= STEX_MATH_FN_COUNT || !in || !out)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_ival_eval: fn %d is not an overload of stex/math.def or an "
                         "argument is NULL", (int)fn);
    pthread_once(&shapes_once, shapes_init);
    const fn_shape *s = &shapes[fn];
    if (eval_float_op(fn, s->F, in, out))
        return STEX_OK;
    if (s->builtin >= 0) {
        stex_iv_builtin(s->F, s->builtin, in, out);
        return STEX_OK;
    }
    return eval_int(fn, s->it, s->nin, s->ot, s->nout, in, out);
}
