/*
 * math/int.c - i32 and u32 operations, conversions, bit and packing
 * builtins.  Integer arithmetic is fully defined by WGSL (two's complement
 * wrap, x / 0 = x, x % 0 = 0, MIN / -1 = MIN, shifts by the amount & 31), and
 * both measured devices follow it; only f32 -> integer NaN and the float
 * packing rounding (the convert layer's profile) differ.
 */
#include "math/ops.h"

static int32_t s(uint32_t u)
{
    return (int32_t)u; /* two's complement (C23; every C11 target stex runs on) */
}

static uint32_t div_i32(uint32_t a, uint32_t b)
{
    if (b == 0 || (a == 0x80000000u && b == 0xffffffffu))
        return a;
    return (uint32_t)(s(a) / s(b));
}

static uint32_t rem_i32(uint32_t a, uint32_t b)
{
    if (b == 0 || (a == 0x80000000u && b == 0xffffffffu))
        return 0;
    return (uint32_t)(s(a) % s(b));
}

static uint32_t min_i32(uint32_t a, uint32_t b) { return s(a) < s(b) ? a : b; }
static uint32_t max_i32(uint32_t a, uint32_t b) { return s(a) > s(b) ? a : b; }
static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }
static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }

/* f32 -> i32/u32: truncate, saturate to the range (whose ends, as f32, are
 * -2^31 and 2^31 - 128, 0 and 2^32 - 256: WGSL 15.7.6); NaN by the profile. */
static uint32_t f32_to_i32(const stex_math_rules *r, float x)
{
    if (isnan(x))
        return r->nan_to_i32;
    if (x >= 2147483520.0f)
        return 0x7fffff80u;
    if (x <= -2147483648.0f)
        return 0x80000000u;
    return (uint32_t)(int32_t)x;
}

static uint32_t f32_to_u32(float x)
{
    if (isnan(x) || x <= 0.0f)
        return 0;
    if (x >= 4294967040.0f)
        return 0xffffff00u;
    return (uint32_t)x;
}

static uint32_t reverse(uint32_t v)
{
    uint32_t r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((v >> i) & 1u) << (31 - i);
    return r;
}

static uint32_t clz(uint32_t v) { return v ? (uint32_t)__builtin_clz(v) : 32; }
static uint32_t ctz(uint32_t v) { return v ? (uint32_t)__builtin_ctz(v) : 32; }

/* WGSL firstLeadingBit: for i32, the first bit that differs from the sign. */
static uint32_t first_leading(uint32_t v, int is_signed)
{
    if (is_signed && (v & 0x80000000u))
        v = ~v;
    return v ? 31 - clz(v) : 0xffffffffu;
}

/* extractBits/insertBits: o = min(offset, 32), c = min(count, 32 - o). */
static uint32_t mask(uint32_t c) { return c >= 32 ? 0xffffffffu : (1u << c) - 1; }

static uint32_t extract(uint32_t e, uint32_t off, uint32_t cnt, int is_signed)
{
    uint32_t o = off < 32 ? off : 32, c = cnt < 32 - o ? cnt : 32 - o;
    if (c == 0)
        return 0;
    uint32_t v = o < 32 ? (e >> o) & mask(c) : 0;
    if (is_signed && c < 32 && (v >> (c - 1)) & 1u)
        v |= ~mask(c);
    return v;
}

static uint32_t insert(uint32_t e, uint32_t n, uint32_t off, uint32_t cnt)
{
    uint32_t o = off < 32 ? off : 32, c = cnt < 32 - o ? cnt : 32 - o;
    if (c == 0)
        return e;
    uint32_t m = mask(c) << o;
    return (e & ~m) | ((n << o) & m);
}

static uint32_t dot4(uint32_t a, uint32_t b, int is_signed)
{
    uint32_t sum = 0;
    for (int i = 0; i < 32; i += 8) {
        uint32_t x = (a >> i) & 0xffu, y = (b >> i) & 0xffu;
        if (is_signed)
            sum += (uint32_t)((int32_t)(int8_t)x * (int32_t)(int8_t)y);
        else
            sum += x * y;
    }
    return sum;
}

static uint32_t pack4x8(const uint32_t *v, int mode)
{
    uint32_t w = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t x = v[i];
        if (mode == 1) /* pack4xI8Clamp: clamp(e, -128, 127) */
            x = (uint32_t)(s(x) < -128 ? -128 : s(x) > 127 ? 127 : s(x));
        else if (mode == 2) /* pack4xU8Clamp */
            x = x > 255 ? 255 : x;
        w |= (x & 0xffu) << (8 * i);
    }
    return w;
}

int stex_m_eval_int(const stex_math_rules *r, const stex_profile *p, stex_math_fn fn,
                    const uint32_t *in, uint32_t *out)
{
    uint32_t a = in[0];
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    uint32_t b = info->in_words > 1 ? in[1] : 0;
    uint32_t c = info->in_words > 2 ? in[2] : 0;
    uint32_t d = info->in_words > 3 ? in[3] : 0;
    float fa = m_in(r, m_float(a));
    float v[4];

    switch (fn) {
    case STEX_MATH_ADD_I32: case STEX_MATH_ADD_U32: *out = a + b; break;
    case STEX_MATH_SUB_I32: case STEX_MATH_SUB_U32: *out = a - b; break;
    case STEX_MATH_MUL_I32: case STEX_MATH_MUL_U32: *out = a * b; break;
    case STEX_MATH_DIV_I32: *out = div_i32(a, b); break;
    case STEX_MATH_REM_I32: *out = rem_i32(a, b); break;
    case STEX_MATH_DIV_U32: *out = b ? a / b : a; break;
    case STEX_MATH_REM_U32: *out = b ? a % b : 0; break;
    case STEX_MATH_SHL_I32: case STEX_MATH_SHL_U32: *out = a << (b & 31); break;
    case STEX_MATH_SHR_I32: *out = (uint32_t)(s(a) >> (b & 31)); break; /* arithmetic */
    case STEX_MATH_SHR_U32: *out = a >> (b & 31); break;
    case STEX_MATH_MIN_I32: *out = min_i32(a, b); break;
    case STEX_MATH_MIN_U32: *out = min_u32(a, b); break;
    case STEX_MATH_CLAMP_I32: *out = min_i32(max_i32(a, b), c); break;
    case STEX_MATH_CLAMP_U32: *out = min_u32(max_u32(a, b), c); break;
    case STEX_MATH_NEG_I32: *out = 0u - a; break;
    case STEX_MATH_ABS_I32: *out = s(a) < 0 ? 0u - a : a; break; /* abs(MIN) = MIN */
    case STEX_MATH_SIGN_I32: *out = (uint32_t)((s(a) > 0) - (s(a) < 0)); break;
    case STEX_MATH_NOT_I32: *out = ~a; break;
    case STEX_MATH_F32_TO_I32: *out = f32_to_i32(r, fa); break;
    case STEX_MATH_F32_TO_U32: *out = f32_to_u32(fa); break;
    case STEX_MATH_F32_TO_BOOL: *out = fa != 0.0f; break; /* NaN is true */
    case STEX_MATH_I32_TO_F32: *out = m_bits((float)s(a)); break; /* nearest even */
    case STEX_MATH_U32_TO_F32: *out = m_bits((float)a); break;
    case STEX_MATH_I32_TO_U32: case STEX_MATH_U32_TO_I32:
    case STEX_MATH_BITCAST_U32_F32: case STEX_MATH_BITCAST_F32_I32:
        *out = a; /* bits unchanged, NaN payloads included */
        break;
    case STEX_MATH_COUNTONEBITS_U32: case STEX_MATH_COUNTONEBITS_I32:
        *out = (uint32_t)__builtin_popcount(a);
        break;
    case STEX_MATH_REVERSEBITS_U32: case STEX_MATH_REVERSEBITS_I32: *out = reverse(a); break;
    case STEX_MATH_COUNTLEADINGZEROS_U32: case STEX_MATH_COUNTLEADINGZEROS_I32:
        *out = clz(a);
        break;
    case STEX_MATH_COUNTTRAILINGZEROS_U32: case STEX_MATH_COUNTTRAILINGZEROS_I32:
        *out = ctz(a);
        break;
    case STEX_MATH_FIRSTLEADINGBIT_U32: *out = first_leading(a, 0); break;
    case STEX_MATH_FIRSTLEADINGBIT_I32: *out = first_leading(a, 1); break;
    case STEX_MATH_FIRSTTRAILINGBIT_U32: case STEX_MATH_FIRSTTRAILINGBIT_I32:
        *out = a ? ctz(a) : 0xffffffffu;
        break;
    case STEX_MATH_EXTRACTBITS_U32: *out = extract(a, b, c, 0); break;
    case STEX_MATH_EXTRACTBITS_I32: *out = extract(a, b, c, 1); break;
    case STEX_MATH_INSERTBITS_U32: case STEX_MATH_INSERTBITS_I32:
        *out = insert(a, b, c, d);
        break;
    case STEX_MATH_DOT4U8PACKED: *out = dot4(a, b, 0); break;
    case STEX_MATH_DOT4I8PACKED: *out = dot4(a, b, 1); break;
    case STEX_MATH_PACK4XI8: case STEX_MATH_PACK4XU8: *out = pack4x8(in, 0); break;
    case STEX_MATH_PACK4XI8CLAMP: *out = pack4x8(in, 1); break;
    case STEX_MATH_PACK4XU8CLAMP: *out = pack4x8(in, 2); break;
    case STEX_MATH_UNPACK4XI8:
        for (int i = 0; i < 4; i++)
            out[i] = (uint32_t)(int32_t)(int8_t)(a >> (8 * i));
        break;
    case STEX_MATH_UNPACK4XU8:
        for (int i = 0; i < 4; i++)
            out[i] = (a >> (8 * i)) & 0xffu;
        break;
    /* float packing: the convert layer's rules for the profile */
    case STEX_MATH_PACK2X16FLOAT: case STEX_MATH_PACK2X16UNORM: case STEX_MATH_PACK2X16SNORM:
    case STEX_MATH_PACK4X8UNORM: case STEX_MATH_PACK4X8SNORM:
        for (unsigned i = 0; i < info->in_words; i++)
            v[i] = m_float(in[i]);
        *out = fn == STEX_MATH_PACK2X16FLOAT ? stex_pack2x16float(p, v)
             : fn == STEX_MATH_PACK2X16UNORM ? stex_pack2x16unorm(p, v)
             : fn == STEX_MATH_PACK2X16SNORM ? stex_pack2x16snorm(p, v)
             : fn == STEX_MATH_PACK4X8UNORM ? stex_pack4x8unorm(p, v)
             : stex_pack4x8snorm(p, v);
        break;
    case STEX_MATH_UNPACK2X16FLOAT: stex_unpack2x16float(p, a, v); goto unpacked;
    case STEX_MATH_UNPACK2X16UNORM: stex_unpack2x16unorm(p, a, v); goto unpacked;
    case STEX_MATH_UNPACK2X16SNORM: stex_unpack2x16snorm(p, a, v); goto unpacked;
    case STEX_MATH_UNPACK4X8UNORM: stex_unpack4x8unorm(p, a, v); goto unpacked;
    case STEX_MATH_UNPACK4X8SNORM: stex_unpack4x8snorm(p, a, v); goto unpacked;
    unpacked:
        for (unsigned i = 0; i < info->out_words; i++)
            out[i] = m_bits(isnan(v[i]) && r->nan_canonical ? m_float(r->default_nan) : v[i]);
        break;
    default:
        return 0;
    }
    return 1;
}
