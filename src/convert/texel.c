/* One texel <-> bytes, for every encodable format of stex/formats.def.
 *
 * encode_generic/decode_generic read a format's row (channel type, bits,
 * packing); the X-macro below stamps one small function per format that calls
 * them with that row as constants, so the compiler specialises each and the
 * per-texel path is a direct call with no table walk, allocation or lock. */
#include "convert/scalar.h"
#include "convert/srgb.h"
#include "common/error.h"
#include "stex/convert.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE void put_le(uint8_t *o, uint32_t v, unsigned nbytes)
{
    for (unsigned i = 0; i < nbytes; i++)
        o[i] = (uint8_t)(v >> (8 * i));
}

ALWAYS_INLINE uint32_t get_le(const uint8_t *o, unsigned nbytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < nbytes; i++)
        v |= (uint32_t)o[i] << (8 * i);
    return v;
}

/* u32/i32 into an n-bit integer channel (n < 32), by the profile's rule. */
ALWAYS_INLINE uint32_t uint_fit(stex_int_range r, uint32_t v, unsigned n)
{
    uint32_t max = (1u << n) - 1;
    if (r == STEX_INT_WRAP)
        return v & max;
    return v > max ? max : v;
}

ALWAYS_INLINE uint32_t sint_fit(stex_int_range r, int32_t v, unsigned n)
{
    int32_t hi = (int32_t)((1u << (n - 1)) - 1), lo = -hi - 1;
    uint32_t mask = (1u << n) - 1;
    if (r == STEX_INT_CLAMP)
        v = v > hi ? hi : v < lo ? lo : v;
    return (uint32_t)v & mask;
}

/* One channel's stored code (n bits, right-aligned). */
ALWAYS_INLINE uint32_t encode_channel(const stex_profile *p, stex_channel_type t, unsigned n,
                                      const stex_vec4 *in, unsigned c)
{
    switch (t) {
    case STEX_CHANNEL_UNORM: return stex_norm_to_unorm(&p->store_norm, in->f[c], n);
    case STEX_CHANNEL_SNORM:
        return (uint32_t)stex_norm_to_snorm(&p->store_norm, in->f[c], n) & ((1u << n) - 1);
    case STEX_CHANNEL_UINT: return n == 32 ? in->u[c] : uint_fit(p->store_int, in->u[c], n);
    case STEX_CHANNEL_SINT: return n == 32 ? in->u[c] : sint_fit(p->store_int, in->i[c], n);
    case STEX_CHANNEL_FLOAT:
        return n == 32 ? in->u[c] : stex_float_to_small(&p->store_f16, in->u[c], 10, true);
    case STEX_CHANNEL_UFLOAT:
        return stex_float_to_small(&p->store_ufloat, in->u[c], n - 5, false);
    }
    return 0;
}

/* rgb10a2unorm's alpha: 2 bits, directly or from the 10-bit conversion. */
ALWAYS_INLINE uint32_t encode_alpha2(const stex_profile *p, float a)
{
    if (p->alpha2 == STEX_ALPHA2_FROM_10BIT)
        return (stex_norm_to_unorm(&p->store_norm, a, 10) + 128) / 320;
    return stex_norm_to_unorm(&p->store_norm, a, 2);
}

ALWAYS_INLINE void encode_generic(const stex_profile *p, stex_channel_type t, stex_packing pk,
                                  unsigned ch, const unsigned bits[4], const stex_vec4 *in,
                                  uint8_t *out)
{
    switch (pk) {
    case STEX_PACKING_PLAIN:
        for (unsigned c = 0; c < ch; c++)
            put_le(out + c * (bits[c] / 8), encode_channel(p, t, bits[c], in, c), bits[c] / 8);
        break;
    case STEX_PACKING_BGRA: /* memory order B, G, R, A */
        for (unsigned c = 0; c < 4; c++)
            out[c == 3 ? 3 : 2 - c] = (uint8_t)encode_channel(p, t, 8, in, c);
        break;
    case STEX_PACKING_RGB10A2: {
        uint32_t a = t == STEX_CHANNEL_UNORM ? encode_alpha2(p, in->f[3])
                                             : encode_channel(p, t, 2, in, 3);
        put_le(out, encode_channel(p, t, 10, in, 0) | encode_channel(p, t, 10, in, 1) << 10 |
                        encode_channel(p, t, 10, in, 2) << 20 | a << 30, 4);
        break;
    }
    case STEX_PACKING_RG11B10:
        put_le(out, encode_channel(p, t, 11, in, 0) | encode_channel(p, t, 11, in, 1) << 11 |
                        encode_channel(p, t, 10, in, 2) << 22, 4);
        break;
    case STEX_PACKING_OPAQUE:
    case STEX_PACKING_SRGB: /* no encoder: not storage formats */
    case STEX_PACKING_SRGB_BGRA:
    case STEX_PACKING_RGB9E5:
        break;
    }
}

/* One channel's value from its n-bit code.  `filtered`: as a linear filter
 * sees it (stex_decode_texel_filtered) rather than as textureLoad returns it. */
ALWAYS_INLINE void decode_channel(const stex_profile *p, stex_channel_type t, unsigned n,
                                  uint32_t k, stex_vec4 *out, unsigned c, bool filtered)
{
    switch (t) {
    case STEX_CHANNEL_UNORM: out->f[c] = stex_unorm_value(p->load_norm, (int32_t)k, n); break;
    case STEX_CHANNEL_SNORM: {
        int32_t s = (int32_t)(k << (32 - n)) >> (32 - n); /* sign-extend */
        if (filtered && n == 8 && p->filter.snorm8_widen16 && s > -127) {
            /* NVIDIA's filter widens snorm8 to snorm16: |k| * (258 + 1/128)
             * rounded half to even - the 7 magnitude bits replicated into 15,
             * except that 64 gives 16512, not 16513 (measured: -64) */
            int32_t a = s < 0 ? -s : s, w = 258 * a + (a > 64);
            out->f[c] =
                stex_snorm_value(p->load_norm, p->load_snorm_min, s < 0 ? -w : w, 16);
        } else {
            out->f[c] = stex_snorm_value(p->load_norm, p->load_snorm_min, s, n);
        }
        break;
    }
    case STEX_CHANNEL_UINT: out->u[c] = k; break;
    case STEX_CHANNEL_SINT:
        out->i[c] = n == 32 ? (int32_t)k : (int32_t)(k << (32 - n)) >> (32 - n);
        break;
    case STEX_CHANNEL_FLOAT:
        out->u[c] = n == 32 ? k
                            : stex_small_to_float(filtered ? p->filter.f16_nan : p->load_f16_nan,
                                                  k, 10, true);
        break;
    case STEX_CHANNEL_UFLOAT:
        out->u[c] = stex_small_to_float(filtered ? p->filter.f16_nan : p->load_f16_nan, k,
                                        n - 5, false);
        break;
    }
}

ALWAYS_INLINE void decode_generic(const stex_profile *p, stex_channel_type t, stex_packing pk,
                                  unsigned ch, const unsigned bits[4], const uint8_t *in,
                                  stex_vec4 *out, bool filtered)
{
    /* channels the format lacks read 0, 0, 1 in the value type */
    out->u[1] = out->u[2] = 0;
    if (t == STEX_CHANNEL_UINT || t == STEX_CHANNEL_SINT)
        out->u[3] = 1;
    else
        out->f[3] = 1.0f;
    switch (pk) {
    case STEX_PACKING_PLAIN:
        for (unsigned c = 0; c < ch; c++)
            decode_channel(p, t, bits[c], get_le(in + c * (bits[c] / 8), bits[c] / 8), out, c,
                           filtered);
        break;
    case STEX_PACKING_BGRA:
        for (unsigned c = 0; c < 4; c++)
            decode_channel(p, t, 8, in[c == 3 ? 3 : 2 - c], out, c, filtered);
        break;
    case STEX_PACKING_RGB10A2: {
        uint32_t w = get_le(in, 4);
        for (unsigned c = 0; c < 3; c++)
            decode_channel(p, t, 10, (w >> (10 * c)) & 0x3ff, out, c, filtered);
        decode_channel(p, t, 2, w >> 30, out, 3, filtered);
        break;
    }
    case STEX_PACKING_RG11B10: {
        uint32_t w = get_le(in, 4);
        decode_channel(p, t, 11, w & 0x7ff, out, 0, filtered);
        decode_channel(p, t, 11, (w >> 11) & 0x7ff, out, 1, filtered);
        decode_channel(p, t, 10, w >> 22, out, 2, filtered);
        break;
    }
    case STEX_PACKING_SRGB:
    case STEX_PACKING_SRGB_BGRA: { /* r, g, b through the profile's curve, alpha unorm */
        const float *srgb = stex_srgb_table(p->load_srgb);
        for (unsigned c = 0; c < 3; c++)
            out->f[c] = srgb[in[pk == STEX_PACKING_SRGB ? c : 2 - c]];
        decode_channel(p, t, 8, in[3], out, 3, filtered);
        break;
    }
    case STEX_PACKING_RGB9E5: { /* m * 2^(e - 15 - 9): exact in f32, no profile choice */
        uint32_t w = get_le(in, 4);
        float scale = stex_bits_f32(((w >> 27) + 127 - 24) << 23); /* 2^(e - 24), normal */
        for (unsigned c = 0; c < 3; c++)
            out->f[c] = (float)((w >> (9 * c)) & 0x1ff) * scale;
        break;
    }
    case STEX_PACKING_OPAQUE:
        break;
    }
}

/* One encoder and decoder per encodable format; OPAQUE rows get none. */
#define DEFINE_PLAIN(id, type, ch, br, bg, bb, ba, packing)                                       \
    static void enc_##id(const stex_profile *p, const stex_vec4 *in, uint8_t *out)                \
    {                                                                                             \
        static const unsigned bits[4] = {br, bg, bb, ba};                                         \
        encode_generic(p, STEX_CHANNEL_##type, STEX_PACKING_##packing, ch, bits, in, out);        \
    }                                                                                             \
    static void dec_##id(const stex_profile *p, const uint8_t *in, stex_vec4 *out)                \
    {                                                                                             \
        static const unsigned bits[4] = {br, bg, bb, ba};                                         \
        decode_generic(p, STEX_CHANNEL_##type, STEX_PACKING_##packing, ch, bits, in, out, false); \
    }
#define DEFINE_BGRA DEFINE_PLAIN
#define DEFINE_SRGB(id, type, ch, br, bg, bb, ba, packing)                                        \
    static void dec_##id(const stex_profile *p, const uint8_t *in, stex_vec4 *out)                \
    {                                                                                             \
        static const unsigned bits[4] = {br, bg, bb, ba};                                         \
        decode_generic(p, STEX_CHANNEL_##type, STEX_PACKING_##packing, ch, bits, in, out, false); \
    }
#define DEFINE_SRGB_BGRA DEFINE_SRGB
#define DEFINE_RGB9E5 DEFINE_SRGB
#define DEFINE_RGB10A2 DEFINE_PLAIN
#define DEFINE_RG11B10 DEFINE_PLAIN
#define DEFINE_OPAQUE(...)
#define X(id, name, kind, type, ch, br, bg, bb, ba, bytes, packing, ...) \
    DEFINE_##packing(id, type, ch, br, bg, bb, ba, packing)
#include "stex/formats.def"
#undef X

#define ENC_PLAIN(id) enc_##id
#define ENC_BGRA ENC_PLAIN
#define ENC_RGB10A2 ENC_PLAIN
#define ENC_RG11B10 ENC_PLAIN
#define ENC_OPAQUE(id) NULL
#define ENC_SRGB(id) NULL
#define ENC_SRGB_BGRA(id) NULL
#define ENC_RGB9E5(id) NULL
#define DEC_PLAIN(id) dec_##id
#define DEC_BGRA DEC_PLAIN
#define DEC_RGB10A2 DEC_PLAIN
#define DEC_RG11B10 DEC_PLAIN
#define DEC_OPAQUE(id) NULL
#define DEC_SRGB DEC_PLAIN
#define DEC_SRGB_BGRA DEC_PLAIN
#define DEC_RGB9E5 DEC_PLAIN

static const stex_encode_fn encoders[STEX_FORMAT_COUNT] = {
#define X(id, name, kind, type, ch, br, bg, bb, ba, bytes, packing, ...) \
    [STEX_FORMAT_##id] = ENC_##packing(id),
#include "stex/formats.def"
#undef X
};

static const stex_decode_fn decoders[STEX_FORMAT_COUNT] = {
#define X(id, name, kind, type, ch, br, bg, bb, ba, bytes, packing, ...) \
    [STEX_FORMAT_##id] = DEC_##packing(id),
#include "stex/formats.def"
#undef X
};

stex_encode_fn stex_encoder(stex_format f)
{
    return (unsigned)f < STEX_FORMAT_COUNT ? encoders[f] : NULL;
}

stex_decode_fn stex_decoder(stex_format f)
{
    return (unsigned)f < STEX_FORMAT_COUNT ? decoders[f] : NULL;
}

/* decoding: the format needs a decoder (the -srgb formats have one but no
 * encoder: they are never storage formats) */
static stex_status check(const char *what, const stex_profile *p, stex_format f, const void *a,
                         const void *b, bool decoding)
{
    if (!p)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: the profile is NULL", what);
    if (!a || !b)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: NULL value or byte pointer", what);
    if (!(decoding ? (void *)stex_decoder(f) : (void *)stex_encoder(f)))
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "%s: format %s has no texel %s in stex (depth, stencil and compressed "
                         "formats have none; the -srgb formats decode only)",
                         what, stex_format_name(f), decoding ? "decoding" : "encoding");
    return STEX_OK;
}

stex_status stex_encode_texel(const stex_profile *p, stex_format f, const stex_vec4 *in,
                              uint8_t *out)
{
    stex_status st = check("stex_encode_texel", p, f, in, out, false);
    if (!st)
        encoders[f](p, in, out);
    return st;
}

stex_status stex_decode_texel(const stex_profile *p, stex_format f, const uint8_t *in,
                              stex_vec4 *out)
{
    stex_status st = check("stex_decode_texel", p, f, in, out, true);
    if (!st)
        decoders[f](p, in, out);
    return st;
}

stex_status stex_decode_texel_filtered(const stex_profile *p, stex_format f, const uint8_t *in,
                                       stex_vec4 *out)
{
    stex_status st = check("stex_decode_texel_filtered", p, f, in, out, true);
    if (st)
        return st;
    const stex_format_info *fi = stex_format_get(f);
    const unsigned bits[4] = {fi->bits[0], fi->bits[1], fi->bits[2], fi->bits[3]};
    decode_generic(p, fi->type, fi->packing, fi->channels, bits, in, out, true);
    return STEX_OK;
}

/* The scalar entry points of convert.h. */
uint32_t stex_f32_to_unorm(const stex_profile *p, float x, unsigned n)
{
    return stex_norm_to_unorm(&p->store_norm, x, n);
}

int32_t stex_f32_to_snorm(const stex_profile *p, float x, unsigned n)
{
    return stex_norm_to_snorm(&p->store_norm, x, n);
}

float stex_unorm_to_f32(const stex_profile *p, uint32_t k, unsigned n)
{
    return stex_unorm_value(p->load_norm, (int32_t)k, n);
}

float stex_snorm_to_f32(const stex_profile *p, int32_t k, unsigned n)
{
    return stex_snorm_value(p->load_norm, p->load_snorm_min, k, n);
}

uint16_t stex_f32_to_f16(const stex_profile *p, float x)
{
    return (uint16_t)stex_float_to_small(&p->store_f16, stex_f32_bits(x), 10, true);
}

float stex_f16_to_f32(const stex_profile *p, uint16_t h)
{
    return stex_bits_f32(stex_small_to_float(p->load_f16_nan, h, 10, true));
}
