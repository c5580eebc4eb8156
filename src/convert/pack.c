/* WGSL pack/unpack builtins (WGSL 17.9, 17.10).  They use the profile's pack
 * rules, which are not always its textureStore rules: NVIDIA packs 0.5 to 128
 * but stores it as 127. */
#include "convert/fast.h"
#include "convert/scalar.h"
#include "stex/convert.h"

/* pack4x8unorm with the rounding rule a constant, so that the converter's
 * switch folds away (the other rules stay the profile's). */
static inline __attribute__((always_inline)) uint32_t pack_unorm8x4(const stex_norm_rules *r,
                                                                    stex_norm_round round,
                                                                    const float v[4])
{
    stex_norm_rules k = *r;
    k.round = round;
    uint32_t w = 0;
    for (unsigned i = 0; i < 4; i++)
        w |= stex_norm_to_unorm(&k, v[i], 8) << (8 * i);
    return w;
}

uint32_t stex_pack4x8unorm(const stex_profile *p, const float v[4])
{
    const stex_norm_rules *r = &p->pack_norm;
    switch (r->round) {
    case STEX_NORM_ROUND_EXACT_EVEN: return pack_unorm8x4(r, STEX_NORM_ROUND_EXACT_EVEN, v);
    case STEX_NORM_ROUND_EXACT_HALF_UP: return pack_unorm8x4(r, STEX_NORM_ROUND_EXACT_HALF_UP, v);
    case STEX_NORM_ROUND_F32_EVEN: return pack_unorm8x4(r, STEX_NORM_ROUND_F32_EVEN, v);
    case STEX_NORM_ROUND_FIXED4_HALF_DOWN:
        return pack_unorm8x4(r, STEX_NORM_ROUND_FIXED4_HALF_DOWN, v);
    }
    return 0;
}

uint32_t stex_pack4x8snorm(const stex_profile *p, const float v[4])
{
    uint32_t w = 0;
    for (unsigned i = 0; i < 4; i++)
        w |= ((uint32_t)stex_norm_to_snorm(&p->pack_norm, v[i], 8) & 0xff) << (8 * i);
    return w;
}

uint32_t stex_pack2x16unorm(const stex_profile *p, const float v[2])
{
    return stex_norm_to_unorm(&p->pack_norm, v[0], 16) |
           stex_norm_to_unorm(&p->pack_norm, v[1], 16) << 16;
}

uint32_t stex_pack2x16snorm(const stex_profile *p, const float v[2])
{
    return ((uint32_t)stex_norm_to_snorm(&p->pack_norm, v[0], 16) & 0xffff) |
           ((uint32_t)stex_norm_to_snorm(&p->pack_norm, v[1], 16) & 0xffff) << 16;
}

uint32_t stex_pack2x16float(const stex_profile *p, const float v[2])
{
    return stex_float_to_small(&p->pack_f16, stex_f32_bits(v[0]), 10, true) |
           stex_float_to_small(&p->pack_f16, stex_f32_bits(v[1]), 10, true) << 16;
}

void stex_unpack4x8unorm(const stex_profile *p, uint32_t w, float out[4])
{
    const float *t = stex__unorm8_values(p->unpack_norm); /* stex_unorm_value of each code */
    for (unsigned i = 0; i < 4; i++)
        out[i] = t[(w >> (8 * i)) & 0xff];
}

void stex_unpack4x8snorm(const stex_profile *p, uint32_t w, float out[4])
{
    for (unsigned i = 0; i < 4; i++)
        out[i] = stex_snorm_value(p->unpack_norm, STEX_SNORM_MIN_DECODE_MINUS_ONE, (int8_t)(w >> (8 * i)), 8);
}

void stex_unpack2x16unorm(const stex_profile *p, uint32_t w, float out[2])
{
    out[0] = stex_unorm_value(p->unpack_norm, (int32_t)(w & 0xffff), 16);
    out[1] = stex_unorm_value(p->unpack_norm, (int32_t)(w >> 16), 16);
}

void stex_unpack2x16snorm(const stex_profile *p, uint32_t w, float out[2])
{
    out[0] = stex_snorm_value(p->unpack_norm, STEX_SNORM_MIN_DECODE_MINUS_ONE, (int16_t)w, 16);
    out[1] = stex_snorm_value(p->unpack_norm, STEX_SNORM_MIN_DECODE_MINUS_ONE, (int16_t)(w >> 16), 16);
}

void stex_unpack2x16float(const stex_profile *p, uint32_t w, float out[2])
{
    out[0] = stex_bits_f32(stex_small_to_float(p->unpack_f16_nan, w & 0xffff, 10, true));
    out[1] = stex_bits_f32(stex_small_to_float(p->unpack_f16_nan, w >> 16, 10, true));
}
