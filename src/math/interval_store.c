/*
 * math/interval_store.c - what textureStore of a set of values leaves in a
 * texel channel, under every conversion WebGPU allows: the rules of
 * stex_texel_allowed (convert/allowed.c), applied to a set.
 *
 *   unorm/snorm  codes: either integer next to x * S; x <= 0 (unorm) or
 *                x <= -1 (snorm: -S or -S - 1) and x >= 1 clamp; NaN: 0 or
 *                +-S.  textureLoad reads k / S (correctly rounded, or as
 *                k * f32(1 / S), which a measured device does; snorm's
 *                -S - 1 reads -1)
 *   f16, ufloat  either neighbour (rounded either way); a subnormal may
 *                flush to zero; past the largest finite value the largest
 *                or infinity; NaN any NaN; ufloat negatives 0
 *   f32          the same value; a subnormal may flush; NaN any NaN
 *   integers     clamped to the channel; 32-bit ones unchanged
 *
 * It lives in the math layer beside stex_ival (convert lies below math)
 * and reads only convert's and format's public tables.
 */
#include "math/interval_internal.h"

#include <string.h>

#include "stex/convert.h"

typedef stex_ival iv;

/* channels the format stores, in R, G, B, A order */
static unsigned stored_channels(const stex_format_info *fi)
{
    return fi->packing == STEX_PACKING_BGRA || fi->packing == STEX_PACKING_RGB10A2 ? 4
                                                                                   : fi->channels;
}

/* a small float channel (mb mantissa bits, 5 exponent bits) as a grid */
static iv_fmt small_fmt(unsigned mb)
{
    iv_fmt F = stex_iv_f16;
    F.type = 'x';
    F.p = (int)mb + 1;
    F.max = ldexp(2.0 - ldexp(1.0, -(int)mb), 15);
    F.min_sub = ldexp(1.0, -14 - (int)mb);
    return F;
}

/* ---- unorm / snorm ---- */

typedef struct norm {
    unsigned n;     /* channel bits */
    bool is_snorm;
    double S;       /* 2^m - 1, m = n or n - 1 */
} norm;

static norm norm_of(const stex_format_info *fi, unsigned c)
{
    norm N = {fi->bits[c], fi->type == STEX_CHANNEL_SNORM, 0};
    N.S = ldexp(1.0, (int)(N.is_snorm ? N.n - 1 : N.n)) - 1;
    return N;
}

static double code_lo(const norm *N, double x)
{
    if (x >= 1)
        return N->S;
    if (N->is_snorm ? x <= -1 : x <= 0)
        return N->is_snorm ? -N->S - 1 : 0;
    return floor(x * N->S); /* exact: 24 + 16 bits */
}

static double code_hi(const norm *N, double x)
{
    if (x >= 1)
        return N->S;
    if (N->is_snorm ? x <= -1 : x <= 0)
        return N->is_snorm ? -N->S : 0;
    return ceil(x * N->S);
}

/* the values textureLoad reads for codes [klo, khi] */
static iv norm_values(const norm *N, double klo, double khi)
{
    const iv_fmt *F = &stex_iv_f32;
    double lo, hi;
    if (klo <= -N->S) {
        lo = -1.0;
    } else {
        lo = fmin(stex_iv_floor(F, klo / N->S), (float)klo * (1.0f / (float)N->S));
        lo = stex_iv_floor(F, nextafter(lo, -INFINITY)); /* klo / S in double errs */
    }
    if (khi <= -N->S) {
        hi = -1.0;
    } else {
        hi = fmax(stex_iv_ceil(F, khi / N->S), (float)khi * (1.0f / (float)N->S));
        hi = stex_iv_ceil(F, nextafter(hi, INFINITY));
    }
    return stex_iv_make(lo, hi);
}

static iv store_norm(const norm *N, iv v)
{
    double kmin = N->is_snorm ? -N->S - 1 : 0;
    if (v.flags & (STEX_IVAL_ANY | STEX_IVAL_NO_NUMBER)) /* NaN: 0 or +-S; any: every code */
        return norm_values(N, kmin, N->S);
    double klo = code_lo(N, v.lo), khi = code_hi(N, v.hi);
    if (v.flags & STEX_IVAL_NAN)
        klo = fmin(klo, N->is_snorm ? kmin : 0), khi = N->S;
    return norm_values(N, klo, khi);
}

/* ---- floats ---- */

static iv store_float(const iv_fmt *F, bool has_sign, iv v)
{
    uint32_t nan = v.flags & (STEX_IVAL_NAN | STEX_IVAL_ANY);
    if (v.flags & STEX_IVAL_ANY) {
        v.lo = has_sign ? -INFINITY : 0;
        v.hi = INFINITY;
    } else if (v.flags & STEX_IVAL_NO_NUMBER) {
        return (iv){NAN, NAN, STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER};
    }
    double lo = has_sign ? v.lo : fmax(v.lo, 0), hi = has_sign ? v.hi : fmax(v.hi, 0);
    /* either neighbour; past the largest finite value it or infinity
     * (stex_iv_floor / _ceil round so in the extended reals) */
    iv r = stex_iv_flush_in(F, stex_iv_make(stex_iv_floor(F, lo), stex_iv_ceil(F, hi)));
    r.flags = nan ? STEX_IVAL_NAN : 0;
    return r;
}

/* ---- integers ---- */

static iv store_int(const stex_format_info *fi, unsigned c, iv v)
{
    unsigned n = fi->bits[c];
    bool is_signed = fi->type == STEX_CHANNEL_SINT;
    double lo = is_signed ? -ldexp(1.0, (int)n - 1) : 0;
    double hi = is_signed ? ldexp(1.0, (int)n - 1) - 1 : ldexp(1.0, (int)n) - 1;
    if (v.flags & (STEX_IVAL_ANY | STEX_IVAL_NO_NUMBER))
        return (iv){lo, hi, 0};
    return (iv){fmin(fmax(v.lo, lo), hi), fmin(fmax(v.hi, lo), hi), 0};
}

stex_ival stex_ival_store(stex_format f, unsigned c, stex_ival v)
{
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || !stex_encoder(f) || c > 3 || fi->packing == STEX_PACKING_SRGB ||
        fi->packing == STEX_PACKING_SRGB_BGRA || fi->packing == STEX_PACKING_RGB9E5 ||
        fi->packing == STEX_PACKING_OPAQUE)
        return stex_iv_any_float();
    bool is_int = fi->type == STEX_CHANNEL_UINT || fi->type == STEX_CHANNEL_SINT;
    char vt = fi->type == STEX_CHANNEL_SINT ? 'i' : fi->type == STEX_CHANNEL_UINT ? 'u' : 'f';
    if (c >= stored_channels(fi)) { /* textureLoad reads 0, 0, 1 for what is absent */
        double one = c == 3 ? 1 : 0;
        return is_int ? (iv){one, one, 0} : stex_iv_make(one, one);
    }
    if (v.flags & STEX_IVAL_ANY) /* unconstrained stays so (its reason with it) */
        return stex_ival_any(vt);
    switch (fi->type) {
    case STEX_CHANNEL_UNORM:
    case STEX_CHANNEL_SNORM: {
        norm N = norm_of(fi, c);
        return store_norm(&N, v);
    }
    case STEX_CHANNEL_FLOAT:
        return store_float(fi->bits[c] == 32 ? &stex_iv_f32 : &stex_iv_f16, true, v);
    case STEX_CHANNEL_UFLOAT: {
        iv_fmt F = small_fmt(fi->bits[c] - 5u);
        return store_float(&F, false, v);
    }
    default:
        return fi->bits[c] == 32 ? v : store_int(fi, c, v);
    }
}

/* ---- codes ---- */

static uint32_t float_code(const stex_format_info *fi, unsigned c, double x)
{
    if (fi->type == STEX_CHANNEL_FLOAT && fi->bits[c] == 32) {
        float y = (float)x;
        uint32_t u;
        memcpy(&u, &y, sizeof u);
        return u;
    }
    unsigned mb = fi->type == STEX_CHANNEL_FLOAT ? 10 : fi->bits[c] - 5u;
    uint32_t sign = fi->type == STEX_CHANNEL_FLOAT && signbit(x) ? 1u << (mb + 5) : 0;
    double a = fabs(x);
    if (isinf(a))
        return sign | (0x1fu << mb);
    if (a < ldexp(1.0, -14)) /* subnormal: a / 2^(-14 - mb) */
        return sign | (uint32_t)ldexp(a, 14 + (int)mb);
    int e;
    double m = frexp(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    uint32_t man = (uint32_t)ldexp(m * 2 - 1, (int)mb);
    return sign | ((uint32_t)(e - 1 + 15) << mb) | man;
}

static uint32_t nan_code(const stex_format_info *fi, unsigned c)
{
    if (fi->type == STEX_CHANNEL_FLOAT && fi->bits[c] == 32)
        return 0x7fc00000u;
    unsigned mb = fi->type == STEX_CHANNEL_FLOAT ? 10 : fi->bits[c] - 5u;
    return (0x1fu << mb) | (1u << (mb - 1));
}

void stex_ival_channel_codes(stex_format f, unsigned c, stex_ival stored, uint32_t *lo_code,
                             uint32_t *hi_code)
{
    const stex_format_info *fi = stex_format_get(f);
    uint32_t lo = 0, hi = 0;
    if (fi && c < 4 && c < stored_channels(fi)) {
        unsigned n = fi->bits[c];
        uint32_t mask = n >= 32 ? 0xffffffffu : (1u << n) - 1;
        switch (fi->type) {
        case STEX_CHANNEL_UNORM:
        case STEX_CHANNEL_SNORM: {
            norm N = norm_of(fi, c);
            /* the code nearest each bound; -1.0 is -S and -S - 1 */
            double kl = stored.lo <= -1 ? -N.S - 1 : nearbyint(stored.lo * N.S);
            double kh = nearbyint(stored.hi * N.S);
            lo = (uint32_t)(int32_t)kl & mask, hi = (uint32_t)(int32_t)kh & mask;
            break;
        }
        case STEX_CHANNEL_FLOAT:
        case STEX_CHANNEL_UFLOAT:
            if (stored.flags & STEX_IVAL_NO_NUMBER)
                lo = hi = nan_code(fi, c);
            else
                lo = float_code(fi, c, stored.lo), hi = float_code(fi, c, stored.hi);
            break;
        default:
            lo = (uint32_t)(int64_t)stored.lo & mask, hi = (uint32_t)(int64_t)stored.hi & mask;
            break;
        }
    }
    if (lo_code)
        *lo_code = lo;
    if (hi_code)
        *hi_code = hi;
}
