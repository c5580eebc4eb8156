/* The spec profile's corner cases, one line each with the rule that decides
 * it (WGSL/WebGPU text, seed 001, IEEE-754), plus the places where the
 * device profiles are known to differ (conformance READMEs).  Every expected
 * value is worked out by hand from the rule, not taken from the code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stex/convert.h"

#define SPEC STEX_PROFILE_SPEC
#define LAVA STEX_PROFILE_LAVAPIPE
#define NV STEX_PROFILE_NVIDIA

typedef struct store_case {
    stex_profile_id profile;
    const char *format;
    uint32_t in[4];       /* channel bit patterns (f32, u32 or i32) */
    const char *bytes;    /* memory order */
    const char *rule;
} store_case;

static const store_case store_cases[] = {
    {SPEC, "rgba8unorm", {0x3fc00000, 0xbe99999a, 0x3f000000, 0x3f800000}, "ff0080ff",
     "seed 001: 1.5 -> 255, -0.3 -> 0; 0.5*255 = 127.5 ties to even 128"},
    {SPEC, "rgba8unorm", {0x7fc00000, 0x7f800000, 0xff800000, 0x80000000}, "00ff0000",
     "NaN -> 0 (spec profile); +inf clamps to 1, -inf and -0 to 0"},
    {SPEC, "rgba8unorm", {0x3e800000, 0x3f400000, 0x3eaaaaab, 0x3dcccccd}, "40bf551a",
     "63.75 -> 64, 191.25 -> 191, 85.0000025 -> 85, 25.50000038 -> 26 (nearest)"},
    {SPEC, "rgba8snorm", {0xbf800000, 0xc0000000, 0x3f800000, 0x3f000000}, "81817f40",
     "seed 001: [-1,1] -> [-127,127], never -128; 63.5 ties to even 64"},
    {SPEC, "rgba8snorm", {0xbf000000, 0x7fc00000, 0xff800000, 0x00000001}, "c0008100",
     "-63.5 ties to even -64; NaN -> 0; -inf -> -127; 2^-149 -> 0"},
    {SPEC, "bgra8unorm", {0x3f800000, 0x00000000, 0x3f000000, 0x3f800000}, "8000ffff",
     "bgra8unorm lies in memory as B, G, R, A"},
    {SPEC, "r16unorm", {0x3f000000, 0, 0, 0}, "0080", "32767.5 ties to even 32768"},
    {SPEC, "r16snorm", {0xbf800000, 0, 0, 0}, "0180", "-1 -> -32767 (0x8001)"},
    {SPEC, "rgba16float", {0x3f801000, 0x3f803000, 0x477fe000, 0x477fef00}, "003c023cff7bff7b",
     "IEEE RNE: 1+2^-11 -> 1.0, 1+3*2^-11 -> 1+2^-9 (even); 65504 and 65519 -> 65504"},
    {SPEC, "rgba16float", {0x477ff000, 0xff800000, 0x33800000, 0x33000000}, "007c00fc01000000",
     "seed 001: past 65504 (65520 ties up) -> inf; -inf; 2^-24 -> 0x0001; 2^-25 ties to 0"},
    {SPEC, "rgba16float", {0x33c00000, 0x80000000, 0x7fc12345, 0x7fa00000}, "02000080097e007f",
     "3*2^-25 ties to even 0x0002; -0 -> 0x8000; NaN quiet with payload: 0x7e09, sNaN -> 0x7f00"},
    {SPEC, "rgba16float", {0x7f800001, 0xffc00000, 0x387fc000, 0x38800000}, "007e00feff030004",
     "sNaN payload 1 -> 0x7e00; -qNaN -> 0xfe00; 2^-14-2^-24 -> 0x03ff; 2^-14 -> 0x0400"},
    {SPEC, "r32float", {0x7f800001, 0, 0, 0}, "0100807f", "f32 stores keep every bit (sNaN)"},
    {SPEC, "rg32float", {0x00000001, 0x80000000, 0x3f800000, 0x3f800000}, "0100000000000080",
     "f32 subnormals and -0 kept; b, a dropped"},
    {SPEC, "rgba8uint", {256, 0xffffffff, 255, 0}, "ffffff00", "WGSL: 8-bit uint clamps"},
    {SPEC, "rgba8sint", {128, (uint32_t)-129, 0x80000000, 127}, "7f80807f", "8-bit sint clamps"},
    {SPEC, "rgba16sint", {32768, (uint32_t)-32769, (uint32_t)-1, 0}, "ff7f0080ffff0000",
     "16-bit sint clamps"},
    {SPEC, "r32sint", {(uint32_t)-1, 0, 0, 0}, "ffffffff", "32-bit integers unchanged"},
    {SPEC, "rgb10a2uint", {1024, 5, 1023, 4}, "ff17f0ff",
     "clamp to 1023 and 3; r | g<<10 | b<<20 | a<<30 little-endian"},
    {SPEC, "rgb10a2unorm", {0x3f000000, 0, 0, 0x3f000000}, "00020080",
     "511.5 -> 512, alpha 1.5 -> 2 (ties to even)"},
    {SPEC, "rg11b10ufloat", {0x3f800000, 0xbf800000, 0x47800000, 0}, "c00300f8",
     "ufloat11 1.0 = 0x3c0; negative -> 0; 65536 past ufloat10's 64512 -> inf 0x3e0"},
    /* where the devices differ (the conformance READMEs) */
    {LAVA, "rgba8unorm", {0x7fc00000, 0x3c20a0a1, 0, 0}, "ff020000",
     "lavapipe: NaN -> 255; f32(0x3c20a0a1 * 255) = 2.5 exactly, ties to even 2"},
    {SPEC, "rgba8unorm", {0x3c20a0a1, 0, 0, 0}, "03000000",
     "exact product 0x3c20a0a1 * 255 = 2.5 + 95/2^30: nearest is 3"},
    {LAVA, "rgba16float", {0x477fef00, 0x477ff000, 0x3f803000, 0x7f800001}, "ff7bff7b013c007e",
     "lavapipe: RTZ, 65519/65520 -> 65504 (saturate); 1+3*2^-11 -> 0x3c01; sNaN quieted"},
    {NV, "rgba8unorm", {0x3f000000, 0x7fc00000, 0x3f800000, 0}, "7f00ff00",
     "NVIDIA: 0.5 -> 127 (half down at 4 guard bits); NaN -> 0"},
    {NV, "rgba16float", {0x7f800001, 0x7fa00000, 0x477ff000, 0x3f803000}, "017c007dff7b013c",
     "NVIDIA: sNaN not quieted (payload 0 -> 1: 0x7c01; 0x7fa00000 -> 0x7d00); RTZ, saturate"},
    {NV, "rgb10a2unorm", {0, 0, 0, 0x3f000000}, "00000040",
     "NVIDIA: alpha (q10 + 128) / 320 with q10(0.5) = 511 -> 1 (spec: 2)"},
};

typedef struct load_case {
    stex_profile_id profile;
    const char *format;
    const char *bytes;
    uint32_t want[4];     /* f32/u32/i32 bits */
    const char *rule;
} load_case;

static const load_case load_cases[] = {
    {SPEC, "rgba8unorm", "03ff8000", {0x3c40c0c1, 0x3f800000, 0x3f008081, 0},
     "k / 255 correctly rounded: 3 -> 0x3c40c0c1, 128 -> 0x3f008081"},
    {LAVA, "rgba8unorm", "03ff8000", {0x3c40c0c2, 0x3f800000, 0x3f008081, 0},
     "lavapipe: k * f32(1/255): 3 -> 0x3c40c0c2 (peer README)"},
    {SPEC, "rgba8snorm", "80817f00", {0xbf800000, 0xbf800000, 0x3f800000, 0},
     "snorm -128 and -127 read -1.0"},
    {SPEC, "r32uint", "07000000", {7, 0, 0, 1}, "missing channels read 0, 0, 1"},
    {SPEC, "rg32sint", "ffffffff02000000", {0xffffffff, 2, 0, 1}, "i32 kept; b, a = 0, 1"},
    {SPEC, "r16float", "0100", {0x33800000, 0, 0, 0x3f800000}, "0x0001 = 2^-24 exactly"},
    {SPEC, "r16float", "017c", {0x7fc02000, 0, 0, 0x3f800000}, "NaN widened and quieted"},
    {NV, "r16float", "017c", {0x7f802000, 0, 0, 0x3f800000},
     "NVIDIA: 0x7c01 -> 0x7f802000, not quieted"},
    {SPEC, "rgba16float", "00fc0080ff7b0000", {0xff800000, 0x80000000, 0x477fe000, 0},
     "-inf, -0, 65504 exact"},
    {SPEC, "rgb10a2unorm", "ff030040", {0x3f800000, 0, 0, 0x3eaaaaab},
     "1023 -> 1.0; alpha 1 -> 1/3 correctly rounded"},
    {SPEC, "rg11b10ufloat", "c00300f8", {0x3f800000, 0, 0x7f800000, 0x3f800000},
     "ufloat11 0x3c0 = 1.0, ufloat10 0x3e0 = inf; a = 1"},
    {SPEC, "bgra8unorm", "0000ff00", {0x3f800000, 0, 0, 0}, "memory B, G, R, A: byte 2 is red"},
};

static void hex(const uint8_t *b, unsigned n, char *out)
{
    for (unsigned i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

static void test_store_corners(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof store_cases / sizeof *store_cases; i++) {
        const store_case *c = &store_cases[i];
        stex_format f = stex_format_from_name(c->format);
        stex_vec4 v;
        uint8_t b[16];
        char got[40];
        memcpy(v.u, c->in, sizeof v.u);
        assert_int_equal(stex_encode_texel(stex_profile_get(c->profile), f, &v, b), STEX_OK);
        hex(b, stex_format_get(f)->bytes, got);
        if (strcmp(got, c->bytes)) {
            fprintf(stderr, "[%s] %s in %08x %08x %08x %08x: expected %s, got %s (%s)\n",
                    stex_profile_name(c->profile), c->format, c->in[0], c->in[1], c->in[2],
                    c->in[3], c->bytes, got, c->rule);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

static void test_load_corners(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof load_cases / sizeof *load_cases; i++) {
        const load_case *c = &load_cases[i];
        stex_format f = stex_format_from_name(c->format);
        uint8_t b[16] = {0};
        for (unsigned k = 0; k < stex_format_get(f)->bytes; k++)
            sscanf(c->bytes + 2 * k, "%2hhx", &b[k]);
        stex_vec4 v;
        assert_int_equal(stex_decode_texel(stex_profile_get(c->profile), f, b, &v), STEX_OK);
        unsigned nch = stex_format_get(f)->channels;
        for (unsigned ch = 0; ch < 4; ch++) {
            uint32_t want = c->want[ch];
            if (ch >= nch && ch < 3)
                want = 0;
            if (v.u[ch] != want) {
                fprintf(stderr, "[%s] %s bytes %s channel %c: expected %08x, got %08x (%s)\n",
                        stex_profile_name(c->profile), c->format, c->bytes, "rgba"[ch], want,
                        v.u[ch], c->rule);
                bad++;
            }
        }
    }
    assert_int_equal(bad, 0);
}

static float fb(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void test_pack_builtins(void **state)
{
    (void)state;
    const stex_profile *spec = stex_profile_get(SPEC), *lava = stex_profile_get(LAVA),
                       *nv = stex_profile_get(NV);
    /* WGSL 17.9.2: floor(0.5 + 255 * min(1, max(0, e))); max(0, NaN) = 0 */
    float u[4] = {0.5f, fb(0x7fc00000), -1.0f, 1.5f};
    assert_int_equal(stex_pack4x8unorm(spec, u), 0xff000080);
    /* WGSL 17.9.1: floor(0.5 + 127 * clamp): -63.5 -> -63 (half up), NaN -> -127 */
    float s[4] = {-0.5f, fb(0x7fc00000), 0.5f, -1.0f};
    assert_int_equal(stex_pack4x8snorm(spec, s), 0x814081c1);
    /* lavapipe: ties to even (-63.5 -> -64), NaN -> -127 */
    assert_int_equal(stex_pack4x8snorm(lava, s), 0x814081c0);
    /* NVIDIA: NaN -> +127; -63.5 -> -64 */
    assert_int_equal(stex_pack4x8snorm(nv, s), 0x81407fc0);
    /* NVIDIA: pack4x8unorm(0.5) = 128 while textureStore stores 127 */
    float half[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    assert_int_equal(stex_pack4x8unorm(nv, half), 0x80808080);
    assert_int_equal(stex_f32_to_unorm(nv, 0.5f, 8), 127);
    /* pack2x16float: RNE; 65520 -> inf; NaN per profile */
    float h[2] = {fb(0x3f801000), 65520.0f};
    assert_int_equal(stex_pack2x16float(spec, h), 0x7c003c00);
    float hn[2] = {fb(0xffc00000), fb(0x7f800001)};
    assert_int_equal(stex_pack2x16float(lava, hn), 0x7e00fe00); /* sign | 0x7e00 */
    assert_int_equal(stex_pack2x16float(nv, hn), 0x7fff7fff);   /* 0x7fff */
    float p16[2] = {0.5f, -1.0f};
    assert_int_equal(stex_pack2x16unorm(spec, p16), 0x00008000); /* 32767.5 -> 32768, -1 -> 0 */
    assert_int_equal(stex_pack2x16snorm(spec, p16), 0x80014000); /* 16383.5 -> 16384 up */
    /* unpack: v / 255 (spec) */
    float out[4];
    stex_unpack4x8unorm(spec, 0x00ff8003, out);
    uint32_t ob[4];
    memcpy(ob, out, sizeof ob);
    assert_int_equal(ob[0], 0x3c40c0c1);
    assert_int_equal(ob[1], 0x3f008081);
    assert_int_equal(ob[2], 0x3f800000);
    stex_unpack4x8snorm(spec, 0x0000817f, out);
    assert_true(out[0] == 1.0f && out[1] == -1.0f);
    float o2[2];
    stex_unpack2x16float(spec, 0xfc003c00, o2);
    assert_true(o2[0] == 1.0f && o2[1] == -INFINITY);
}

static void test_profiles_and_errors(void **state)
{
    (void)state;
    stex_profile_id id;
    assert_true(stex_profile_from_name("nvidia", &id));
    assert_int_equal(id, NV);
    assert_false(stex_profile_from_name("amd", &id));
    assert_null(stex_profile_get(STEX_PROFILE_COUNT));
    assert_string_equal(stex_profile_name(LAVA), "lavapipe");
    assert_int_equal(stex_profile_id_of(stex_profile_get(NV)), NV);
    stex_vec4 v = {.f = {0, 0, 0, 0}};
    uint8_t b[16];
    /* depth and compressed formats have no texel encoding; the -srgb
     * formats decode (test_decode_only.c) but never encode: not storage formats */
    assert_null(stex_encoder(STEX_FORMAT_DEPTH32FLOAT));
    assert_null(stex_encoder(STEX_FORMAT_RGBA8UNORM_SRGB));
    assert_non_null(stex_decoder(STEX_FORMAT_RGBA8UNORM_SRGB));
    assert_int_equal(stex_encode_texel(stex_profile_get(SPEC), STEX_FORMAT_RGBA8UNORM_SRGB, &v, b),
                     STEX_INVALID_ARGUMENT);
    assert_int_equal(stex_encode_texel(stex_profile_get(SPEC), STEX_FORMAT_DEPTH32FLOAT, &v, b),
                     STEX_INVALID_ARGUMENT);
    assert_non_null(strstr(stex_last_error(), "depth32float"));
    assert_int_equal(stex_encode_texel(NULL, STEX_FORMAT_RGBA8UNORM, &v, b), STEX_INVALID_ARGUMENT);
    /* every storage format has both directions */
    for (int f = STEX_FORMAT_UNDEFINED + 1; f < STEX_FORMAT_COUNT; f++) {
        const stex_format_info *fi = stex_format_get((stex_format)f);
        if (fi->storage != STEX_TIER_NEVER) {
            assert_non_null(stex_encoder((stex_format)f));
            assert_non_null(stex_decoder((stex_format)f));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_corners),
        cmocka_unit_test(test_load_corners),
        cmocka_unit_test(test_pack_builtins),
        cmocka_unit_test(test_profiles_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
