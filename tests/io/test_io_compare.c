/* Comparison: distances in the format's units, the three tolerances, and the
 * `allowed` tolerance accepting another device's legal rounding. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "io_test.h"
#include "stex/stex.h"

static void test_tolerance_parse(void **state)
{
    (void)state;
    static const struct { const char *s; bool ok; stex_tolerance_kind kind; uint32_t n; } cases[] = {
        {"exact", true, STEX_TOLERANCE_EXACT, 0},  {"allowed", true, STEX_TOLERANCE_ALLOWED, 0},
        {"ulp:0", true, STEX_TOLERANCE_ULP, 0},    {"ulp:3", true, STEX_TOLERANCE_ULP, 3},
        {"ulp:4294967295", true, STEX_TOLERANCE_ULP, 4294967295u},
        {"ulp:4294967296", false, 0, 0},           {"ulp:", false, 0, 0},
        {"ulp:-1", false, 0, 0},                   {"ulp:1x", false, 0, 0},
        {"Exact", false, 0, 0},                    {"", false, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_tolerance t = {99, 99};
        bool ok = stex_tolerance_parse(cases[i].s, &t);
        if (ok != cases[i].ok)
            fail_msg("'%s': parse %d, expected %d", cases[i].s, ok, cases[i].ok);
        if (ok && (t.kind != cases[i].kind || t.ulp != cases[i].n))
            fail_msg("'%s': kind %d n %u", cases[i].s, t.kind, t.ulp);
    }
}

/* Distances worked out by hand from the formats' bit layouts. */
static void test_texel_diff(void **state)
{
    (void)state;
    static const struct {
        const char *format;
        uint8_t a[16], b[16];
        uint64_t want;
        const char *why;
    } cases[] = {
        {"rgba8unorm", {0x10, 0, 0, 0}, {0x13, 0, 0, 0}, 3, "3 LSB in r"},
        {"rgba8unorm", {0, 0, 0, 0xff}, {0, 0, 0, 0x00}, 255, "alpha counts"},
        {"rgba8snorm", {0x7f}, {0x81}, 254, "127 vs -127"},
        {"rgba8sint", {0x80}, {0x7f}, 255, "-128 vs 127"},
        {"r16float", {0x00, 0x3c}, {0x01, 0x3c}, 1, "1.0 vs next f16"},
        {"r16float", {0x00, 0x00}, {0x00, 0x80}, 0, "+0 vs -0"},
        {"r16float", {0x01, 0x00}, {0x01, 0x80}, 2, "smallest subnormals of both signs"},
        {"r16float", {0xff, 0x7b}, {0x00, 0x7c}, 1, "65504 vs inf"},
        {"r16float", {0x01, 0x7e}, {0x00, 0x7e}, 0, "two NaNs"},
        {"r16float", {0x01, 0x7e}, {0x00, 0x3c}, UINT64_MAX, "NaN vs 1.0"},
        {"r32float", {0x00, 0x00, 0x80, 0x3f}, {0x01, 0x00, 0x80, 0x3f}, 1, "1.0f vs next"},
        {"r32float", {0x00, 0x00, 0x80, 0x3f}, {0x00, 0x00, 0x80, 0xbf}, 2130706432ull,
         "1.0 vs -1.0: 2 x 0x3f800000"},
        {"rg32uint", {0, 0, 0, 0, 5, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, 5, "g channel"},
        {"rgb10a2unorm", {0xff, 0x03, 0, 0}, {0xfc, 0x03, 0, 0}, 3, "r 1023 vs 1020"},
        {"rgb10a2unorm", {0, 0, 0, 0xc0}, {0, 0, 0, 0x00}, 3, "a 3 vs 0"},
        {"rg11b10ufloat", {0xc0, 0x03, 0, 0}, {0xc1, 0x03, 0, 0}, 1, "r 1.0 vs next"},
        {"rg11b10ufloat", {0, 0, 0, 0x80}, {0, 0, 0, 0x7c}, 16, "b: 0x200 vs 0x1f0 is 16 codes"},
        {"bgra8unorm", {1, 2, 3, 4}, {1, 2, 9, 4}, 6, "byte 2 is r"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t d = stex_texel_diff(stex_format_from_name(cases[i].format), cases[i].a, cases[i].b);
        uint64_t want = cases[i].want;
        if (d != want)
            fail_msg("%s (%s): diff %llu, expected %llu", cases[i].format, cases[i].why,
                     (unsigned long long)d, (unsigned long long)want);
    }
}

static void make(stex_image *img, const char *format, uint32_t w, uint32_t h, uint64_t seed)
{
    assert_int_equal(stex_image_init(img, stex_format_from_name(format), w, h, 1), STEX_OK);
    uint32_t bpp = stex_format_get(img->format)->bytes;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            for (uint32_t b = 0; b < bpp; b++)
                stex_image_texel(img, x, y, 0)[b] = (uint8_t)(rng_next(&seed) & 0x3f);
}

static void test_compare_exact_and_ulp(void **state)
{
    (void)state;
    stex_image g, a;
    make(&g, "rgba8unorm", 9, 7, 1);
    make(&a, "rgba8unorm", 9, 7, 1);
    stex_compare_result r;
    stex_tolerance exact = {STEX_TOLERANCE_EXACT, 0}, ulp1 = {STEX_TOLERANCE_ULP, 1};
    assert_int_equal(stex_compare(&g, &a, exact, NULL, &r), STEX_OK);
    assert_int_equal(r.texels, 63);
    assert_int_equal(r.mismatches, 0);
    /* one texel, one bit */
    stex_image_texel(&a, 4, 5, 0)[2] ^= 1;
    assert_int_equal(stex_compare(&g, &a, exact, NULL, &r), STEX_MISMATCH);
    assert_int_equal(r.mismatches, 1);
    assert_int_equal(r.listed, 1);
    assert_int_equal(r.first[0].x, 4);
    assert_int_equal(r.first[0].y, 5);
    assert_int_equal(r.max_diff, 1);
    assert_string_equal(r.unit, "LSB");
    assert_int_equal(stex_compare(&g, &a, ulp1, NULL, &r), STEX_OK);
    assert_int_equal(r.differing, 1);
    stex_image_texel(&a, 0, 0, 0)[0] += 2;
    assert_int_equal(stex_compare(&g, &a, ulp1, NULL, &r), STEX_MISMATCH);
    assert_int_equal(r.mismatches, 1);
    assert_int_equal(r.max_diff, 2);
    stex_image_free(&a);
    /* sizes and formats that differ cannot be compared */
    make(&a, "rgba8unorm", 9, 6, 1);
    assert_int_equal(stex_compare(&g, &a, exact, NULL, &r), STEX_INVALID_ARGUMENT);
    assert_non_null(strstr(stex_last_error(), "9x7x1"));
    stex_image_free(&a);
    make(&a, "rgba8uint", 9, 7, 1);
    assert_int_equal(stex_compare(&g, &a, exact, NULL, &r), STEX_INVALID_ARGUMENT);
    stex_image_free(&a);
    /* ALLOWED without inputs is a usage error */
    assert_int_equal(stex_compare(&g, &g, (stex_tolerance){STEX_TOLERANCE_ALLOWED, 0}, NULL, &r),
                     STEX_INVALID_ARGUMENT);
    stex_image_free(&g);
}

/* Values k/255 + 1/510 are exact ties between two unorm8 codes: the spec
 * profile rounds them to even, the nvidia profile rounds them down.  Both are
 * legal; `allowed` accepts either and rejects a value two codes away. */
static void test_compare_allowed(void **state)
{
    (void)state;
    const uint32_t w = 16, h = 16;
    stex_format f = STEX_FORMAT_RGBA8UNORM;
    stex_image g, a;
    stex_inputs in;
    assert_int_equal(stex_image_init(&g, f, w, h, 1), STEX_OK);
    assert_int_equal(stex_image_init(&a, f, w, h, 1), STEX_OK);
    assert_int_equal(stex_inputs_init(&in, STEX_SCALAR_F32, w, h, 1), STEX_OK);
    const stex_profile *spec = stex_profile_get(STEX_PROFILE_SPEC);
    const stex_profile *nv = stex_profile_get(STEX_PROFILE_NVIDIA);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t k = (y * w + x) % 255;
            float tie = (float)((k + 0.5) / 255.0);
            stex_vec4 v = {.f = {tie, 0.5f, (float)k / 255.0f, 1.0f}};
            stex_inputs_set(&in, x, y, 0, &v);
            assert_int_equal(stex_encode_texel(spec, f, &v, stex_image_texel(&g, x, y, 0)), STEX_OK);
            assert_int_equal(stex_encode_texel(nv, f, &v, stex_image_texel(&a, x, y, 0)), STEX_OK);
        }
    stex_compare_result r;
    stex_tolerance exact = {STEX_TOLERANCE_EXACT, 0}, allowed = {STEX_TOLERANCE_ALLOWED, 0};
    /* the two devices really differ here (0.5: 128 vs 127, lessons and README) */
    assert_int_equal(stex_compare(&g, &a, exact, &in, &r), STEX_MISMATCH);
    assert_true(r.mismatches > 0);
    assert_int_equal(stex_compare(&g, &a, allowed, &in, &r), STEX_OK);
    assert_int_equal(r.mismatches, 0);
    /* two codes off is no rounding anyone may do */
    uint8_t *t = stex_image_texel(&a, 3, 2, 0);
    t[2] = (uint8_t)(t[2] + 2);
    assert_int_equal(stex_compare(&g, &a, allowed, &in, &r), STEX_MISMATCH);
    assert_int_equal(r.mismatches, 1);
    assert_int_equal(r.first[0].x, 3);
    assert_int_equal(r.first[0].y, 2);
    t[2] = (uint8_t)(t[2] - 2);
    /* a texel never stored must keep its bytes exactly */
    in.stored[0] = 0;
    stex_image_texel(&a, 0, 0, 0)[0] ^= 1;
    assert_int_equal(stex_compare(&g, &a, allowed, &in, &r), STEX_MISMATCH);
    stex_inputs_free(&in);
    stex_image_free(&g);
    stex_image_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tolerance_parse),
        cmocka_unit_test(test_texel_diff),
        cmocka_unit_test(test_compare_exact_and_ulp),
        cmocka_unit_test(test_compare_allowed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
