/* The formats stex decodes but never encodes (not storage formats).
 *
 * rgb9e5ufloat: every exponent with every mantissa in each channel, against
 * WebGPU's (Vulkan's) definition m * 2^(e - 15 - 9) computed in double.
 *
 * The -srgb formats' decode (texture loads and the texel a filter sees),
 * per profile, against independent expectations: under spec every code's
 * sRGB EOTF correctly rounded by MPFR; under lavapipe the bits Dawn on
 * lavapipe returned (tests/data/lavapipe-srgb-decode.json), under nvidia
 * what the H200 returned (nvidia-srgb-decode.json); alpha as the
 * profile's unorm8; bgra8unorm-srgb the same with its bytes swapped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include <cmocka.h>
#include <jansson.h>
#include <mpfr.h>

#include "stex/convert.h"

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

/* The sRGB EOTF of k / 255 rounded once to f32 (MPFR, 200 bits). */
static float eotf(uint32_t k)
{
    mpfr_t c, t;
    mpfr_inits2(200, c, t, (mpfr_ptr)0);
    mpfr_set_ui(c, k, MPFR_RNDN);
    mpfr_div_ui(c, c, 255, MPFR_RNDN);
    if (mpfr_cmp_d(c, 0.04045) <= 0) { /* 0.04045 is not a double; no code lies near it */
        mpfr_div_d(t, c, 12.92, MPFR_RNDN);
    } else {
        mpfr_t a, e;
        mpfr_inits2(200, a, e, (mpfr_ptr)0);
        mpfr_set_str(a, "0.055", 10, MPFR_RNDN);
        mpfr_add(t, c, a, MPFR_RNDN);
        mpfr_set_str(a, "1.055", 10, MPFR_RNDN);
        mpfr_div(t, t, a, MPFR_RNDN);
        mpfr_set_str(e, "2.4", 10, MPFR_RNDN);
        mpfr_pow(t, t, e, MPFR_RNDN);
        mpfr_clears(a, e, (mpfr_ptr)0);
    }
    float r = mpfr_get_flt(t, MPFR_RNDN);
    mpfr_clears(c, t, (mpfr_ptr)0);
    return r;
}

/* Decodes code k of format f in every channel (alpha too) under p, both
 * as textureLoad and as a filter sees it; the two must agree. */
static stex_vec4 decode(const stex_profile *p, stex_format f, uint32_t k)
{
    uint8_t px[4] = {(uint8_t)k, (uint8_t)k, (uint8_t)k, (uint8_t)k};
    stex_vec4 v, w;
    assert_int_equal(stex_decode_texel(p, f, px, &v), STEX_OK);
    assert_int_equal(stex_decode_texel_filtered(p, f, px, &w), STEX_OK);
    assert_memory_equal(&v, &w, sizeof v);
    return v;
}

static void test_spec_is_the_eotf(void **s)
{
    (void)s;
    const stex_profile *p = stex_profile_get(STEX_PROFILE_SPEC);
    for (uint32_t k = 0; k < 256; k++) {
        stex_vec4 v = decode(p, STEX_FORMAT_RGBA8UNORM_SRGB, k);
        for (int c = 0; c < 3; c++)
            if (bits_of(v.f[c]) != bits_of(eotf(k)))
                fail_msg("code %u channel %d: %08x, the EOTF correctly rounded is %08x", k, c,
                         bits_of(v.f[c]), bits_of(eotf(k)));
        assert_int_equal(bits_of(v.f[3]), bits_of((float)((double)k / 255.0))); /* exact k/255 */
    }
}

/* Every code of both formats under profile id as file (measured) says. */
static void as_measured(stex_profile_id id, const char *file)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", file);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root)
        fail_msg("%s: %s", path, err.text);
    const stex_profile *p = stex_profile_get(id);
    const char *formats[] = {"rgba8unorm-srgb", "bgra8unorm-srgb"};
    for (int i = 0; i < 2; i++) {
        json_t *fmt = json_object_get(json_object_get(root, "formats"), formats[i]);
        json_t *rgb = json_object_get(fmt, "rgb"), *alpha = json_object_get(fmt, "alpha");
        assert_int_equal(json_array_size(rgb), 256);
        for (uint32_t k = 0; k < 256; k++) {
            uint32_t want = (uint32_t)strtoul(json_string_value(json_array_get(rgb, k)), NULL, 16);
            uint32_t want_a = (uint32_t)strtoul(json_string_value(json_array_get(alpha, k)), NULL, 16);
            stex_vec4 v = decode(p, stex_format_from_name(formats[i]), k);
            for (int c = 0; c < 3; c++)
                if (bits_of(v.f[c]) != want)
                    fail_msg("%s code %u: %08x, the device returned %08x (%s)", formats[i], k,
                             bits_of(v.f[c]), want, file);
            assert_int_equal(bits_of(v.f[3]), want_a);
        }
    }
    json_decref(root);
}

static void test_lavapipe_as_measured(void **s)
{
    (void)s;
    as_measured(STEX_PROFILE_LAVAPIPE, "lavapipe-srgb-decode.json");
}

static void test_nvidia_as_measured(void **s)
{
    (void)s;
    as_measured(STEX_PROFILE_NVIDIA, "nvidia-srgb-decode.json");
}

/* bgra8unorm-srgb: byte 0 is blue, byte 2 red, under every profile. */
static void test_bgra_order(void **s)
{
    (void)s;
    for (int id = 0; id < STEX_PROFILE_COUNT; id++) {
        const stex_profile *p = stex_profile_get((stex_profile_id)id);
        uint8_t px[4] = {200, 100, 50, 25};
        stex_vec4 a, b;
        uint8_t swapped[4] = {50, 100, 200, 25};
        assert_int_equal(stex_decode_texel(p, STEX_FORMAT_BGRA8UNORM_SRGB, px, &a), STEX_OK);
        assert_int_equal(stex_decode_texel(p, STEX_FORMAT_RGBA8UNORM_SRGB, swapped, &b), STEX_OK);
        assert_memory_equal(&a, &b, sizeof a);
        assert_true(a.f[2] > a.f[1] && a.f[1] > a.f[0]); /* blue, byte 0 = 200, is the brightest */
    }
}

static void test_rgb9e5_exact(void **s)
{
    (void)s;
    for (int id = 0; id < STEX_PROFILE_COUNT; id++) {
        const stex_profile *p = stex_profile_get((stex_profile_id)id);
        for (uint32_t e = 0; e < 32; e++)
            for (uint32_t m = 0; m < 512; m++) {
                /* channel c holds m, the others m ^ 0x155 and 511 - m */
                uint32_t ms[3] = {m, m ^ 0x155u, 511u - m};
                uint32_t w = ms[0] | ms[1] << 9 | ms[2] << 18 | e << 27;
                uint8_t px[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
                stex_vec4 v;
                assert_int_equal(stex_decode_texel(p, STEX_FORMAT_RGB9E5UFLOAT, px, &v), STEX_OK);
                for (int c = 0; c < 3; c++) {
                    double want = (double)ms[c] * pow(2.0, (double)e - 24.0);
                    if ((double)v.f[c] != want)
                        fail_msg("e %u m %u channel %d: %.9g, expected %.9g", e, ms[c], c,
                                 (double)v.f[c], want);
                }
                assert_true(v.f[3] == 1.0f); /* no alpha: 1 */
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rgb9e5_exact),
        cmocka_unit_test(test_spec_is_the_eotf),
        cmocka_unit_test(test_lavapipe_as_measured),
        cmocka_unit_test(test_nvidia_as_measured),
        cmocka_unit_test(test_bgra_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
