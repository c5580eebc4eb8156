/* The inline codecs of stex/shader.h (rgba8unorm and bgra8unorm textureStore
 * and textureLoad, pack4x8unorm, unpack4x8unorm) against the converter they
 * shortcut, under every profile: the converter is what the conformance
 * vectors check, so any difference here is a bug of the fast path.
 *
 *   encode  every 4099th f32 pattern plus, for each code k, the values
 *           around k/255 and the ties (k + 1/2)/255 (+-4 ulps), zeros,
 *           infinities, NaNs, subnormals, values past 1 and below 0
 *   decode  every code in every channel position
 *   pack    the same floats through the profile's pack rule
 *   unpack  every code
 *   rgba16float store (the inline f16 path for normal results): the same
 *           floats plus every f16 value, the ties between neighbours and
 *           +-2 ulps around them, across the normal/subnormal edge and 65504 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "convert/fast.h"
#include "convert/profile.h"
#include "convert/scalar.h"
#include "shader/fast.h"

static unsigned long long failures;

#define CHECK(cond, ...)                                  \
    do {                                                  \
        if (!(cond)) {                                    \
            if (failures++ < 20) {                        \
                fprintf(stderr, "FAIL: " __VA_ARGS__);    \
                fputc('\n', stderr);                      \
            }                                             \
        }                                                 \
    } while (0)

static const stex_format FORMATS[] = {STEX_FORMAT_RGBA8UNORM, STEX_FORMAT_BGRA8UNORM};

static float values[1 << 21];
static size_t nvalues;

static void add(float x)
{
    if (nvalues < sizeof values / sizeof values[0])
        values[nvalues++] = x;
}

static void add_bits(uint32_t u)
{
    add(stex_bits_f32(u));
}

static void make_values(void)
{
    for (uint64_t u = 0; u <= 0xffffffffu; u += 4099)
        add_bits((uint32_t)u);
    static const uint32_t special[] = {0, 0x80000000u, 1, 0x807fffffu, 0x00800000u, 0x3f800000u,
                                       0x3f800001u, 0x3f7fffffu, 0xbf800000u, 0x7f800000u,
                                       0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u,
                                       0xff800001u, 0x7fffffffu, 0x7f7fffffu, 0xff7fffffu};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        add_bits(special[i]);
    for (uint32_t h = 0; h < 0x7c00; h += 3) { /* f16 values and their ties */
        uint32_t e = h >> 10, m = h & 0x3ff; /* normal: exponent e - 15 */
        if (!e)
            continue;
        uint32_t u = ((e + 112) << 23) | (m << 13);
        for (int d = -2; d <= 2; d++) {
            add_bits(u + (uint32_t)d);
            add_bits((u | 0x1000u) + (uint32_t)d);          /* the tie above */
            add_bits((u | 0x80000000u) + (uint32_t)d);
        }
    }
    for (int d = -300; d <= 300; d++) { /* 2^-14 and 65504 .. 65520 */
        add_bits(0x38800000u + (uint32_t)d);
        add_bits(0x477fe000u + (uint32_t)d);
    }
    for (int k = 0; k <= 255; k++)
        for (int half = 0; half < 2; half++) {
            float c = (float)((k + 0.5 * half) / 255.0);
            uint32_t u = stex_f32_bits(c);
            for (int d = -4; d <= 4; d++)
                add_bits(u + (uint32_t)d);
            add((float)(k + 0.5 * half) * (1.0f / 255.0f));
        }
}

static void check_texel(const stex_profile *p, stex_format f, const stex_fast_binding *b)
{
    for (size_t i = 0; i < nvalues; i++) {
        stex_vec4 v = {.f = {values[i], values[(i + 1) % nvalues], values[(i + 7) % nvalues],
                             values[(i + 13) % nvalues]}};
        uint8_t want[16] = {0}, got[16] = {0};
        stex_encode_texel(p, f, &v, want);
        stex__encode_fast(p, b, &v, got);
        for (int c = 0; c < 4; c++) { /* the one-channel form, vector or not */
            uint32_t q = stex__unorm8_encode(b->u8_round, b->u8_nan, v.f[c]);
            uint8_t w = f == STEX_FORMAT_BGRA8UNORM && c != 3 ? want[2 - c] : want[c];
            CHECK(q == w, "%s %s channel %a: converter %u, stex__unorm8_encode %u",
                  stex_profile_name(p->id), stex_format_name(f), v.f[c], w, q);
        }
        CHECK(!memcmp(want, got, 4),
              "%s %s encode (%a, %a, %a, %a): converter %02x %02x %02x %02x, inline %02x %02x "
              "%02x %02x", stex_profile_name(p->id), stex_format_name(f), v.f[0], v.f[1], v.f[2],
              v.f[3], want[0], want[1], want[2], want[3], got[0], got[1], got[2], got[3]);
    }
    for (int k = 0; k < 256; k++)
        for (int c = 0; c < 4; c++) {
            uint8_t in[4] = {(uint8_t)(k * 37 + 11), (uint8_t)(255 - k), (uint8_t)(k ^ 0x5a),
                             (uint8_t)(k * 7)};
            in[c] = (uint8_t)k;
            stex_vec4 want, got;
            stex_decode_texel(p, f, in, &want);
            got = stex__decode_fast(p, b, in);
            CHECK(!memcmp(&want, &got, 16),
                  "%s %s decode %02x %02x %02x %02x: converter (%a, %a, %a, %a), inline (%a, "
                  "%a, %a, %a)", stex_profile_name(p->id), stex_format_name(f), in[0], in[1], in[2],
                  in[3], want.f[0], want.f[1], want.f[2], want.f[3], got.f[0], got.f[1],
                  got.f[2], got.f[3]);
        }
}

static void check_f16_store(const stex_profile *p)
{
    stex_fast_codec c = stex__fast_codec(p, STEX_FORMAT_RGBA16FLOAT);
    CHECK(c.enc == STEX__CODEC_RGBA16FLOAT, "%s rgba16float: no inline store",
          stex_profile_name(p->id));
    stex_fast_binding b = {.enc_codec = c.enc, .f16_even = c.f16_even,
                           .enc = stex_encoder(STEX_FORMAT_RGBA16FLOAT)};
    size_t inline_hits = 0;
    for (size_t i = 0; i < nvalues; i++) {
        stex_vec4 v = {.f = {values[i], values[(i + 1) % nvalues], values[(i + 7) % nvalues],
                             values[(i + 13) % nvalues]}};
        uint8_t want[16] = {0}, got[16] = {0};
        uint64_t h;
        inline_hits += stex__f16x4_normal(c.f16_even, v.f, &h);
        stex_encode_texel(p, STEX_FORMAT_RGBA16FLOAT, &v, want);
        stex__encode_fast(p, &b, &v, got);
        CHECK(!memcmp(want, got, 8), "%s rgba16float encode (%a, %a, %a, %a): converter "
              "%02x%02x %02x%02x %02x%02x %02x%02x, inline %02x%02x %02x%02x %02x%02x %02x%02x",
              stex_profile_name(p->id), v.f[0], v.f[1], v.f[2], v.f[3], want[1], want[0],
              want[3], want[2], want[5], want[4], want[7], want[6], got[1], got[0], got[3],
              got[2], got[5], got[4], got[7], got[6]);
    }
    CHECK(inline_hits > nvalues / 20, "%s rgba16float: the inline path took only %zu of %zu",
          stex_profile_name(p->id), inline_hits, nvalues);
}

static void check_pack(const stex_profile *p)
{
    uint32_t round, nan;
    stex__unorm8_rule(&p->pack_norm, &round, &nan);
    for (size_t i = 0; i < nvalues; i++) {
        float x = values[i];
        uint32_t want = stex_norm_to_unorm(&p->pack_norm, x, 8);
        uint32_t got = stex__unorm8_encode(round, nan, x);
        CHECK(want == got, "%s pack4x8unorm channel %a: converter %u, inline %u",
              stex_profile_name(p->id), x, want, got);
        float v[4] = {x, values[(i + 3) % nvalues], values[(i + 5) % nvalues], 0.25f};
        uint32_t w = 0;
        for (int c = 0; c < 4; c++)
            w |= stex_norm_to_unorm(&p->pack_norm, v[c], 8) << (8 * c);
        CHECK(stex__unorm8x4(round, nan, v) == w, "%s inline pack4x8unorm(%a, %a, %a, 0.25): "
              "%08x, expected %08x", stex_profile_name(p->id), v[0], v[1], v[2],
              stex__unorm8x4(round, nan, v), w);
        CHECK(stex_pack4x8unorm(p, v) == w, "%s stex_pack4x8unorm(%a, %a, %a, 0.25): %08x, "
              "expected %08x", stex_profile_name(p->id), v[0], v[1], v[2], stex_pack4x8unorm(p, v), w);
    }
    const float *t = stex__unorm8_values(p->unpack_norm);
    for (int k = 0; k < 256; k++) {
        float want = stex_unorm_value(p->unpack_norm, k, 8), out[4];
        CHECK(stex_f32_bits(t[k]) == stex_f32_bits(want), "%s unpack4x8unorm code %d: table %a, "
              "converter %a", stex_profile_name(p->id), k, t[k], want);
        stex_unpack4x8unorm(p, (uint32_t)k << 16, out);
        CHECK(stex_f32_bits(out[2]) == stex_f32_bits(want) && out[0] == 0.0f,
              "%s stex_unpack4x8unorm code %d: %a, expected %a", stex_profile_name(p->id), k, out[2],
              want);
    }
}

int main(void)
{
    make_values();
    for (int id = 0; id < STEX_PROFILE_COUNT; id++) {
        const stex_profile *p = stex_profile_get((stex_profile_id)id);
        for (size_t i = 0; i < sizeof FORMATS / sizeof FORMATS[0]; i++) {
            stex_fast_codec c = stex__fast_codec(p, FORMATS[i]);
            CHECK(c.enc != STEX__CODEC_CALL && c.dec != STEX__CODEC_CALL,
                  "%s %s: no inline codec", stex_profile_name(p->id), stex_format_name(FORMATS[i]));
            stex_fast_binding b = {.enc_codec = c.enc, .dec_codec = c.dec,
                                   .u8_round = c.u8_round, .u8_nan = c.u8_nan,
                                   .u8_value = c.u8_value, .enc = stex_encoder(FORMATS[i]),
                                   .dec = stex_decoder(FORMATS[i])};
            check_texel(p, FORMATS[i], &b);
        }
        check_pack(p);
        check_f16_store(p);
    }
    printf("%zu values x %d profiles: %llu failures\n", nvalues, (int)STEX_PROFILE_COUNT,
           failures);
    return failures ? 1 : 0;
}
