/* Comparison: distances in the format's units, the three tolerances, and the
 * `allowed` tolerance accepting another device's legal rounding. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "compare_pairs.h"
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

static void test_channel_compare(void **state)
{
    (void)state;
    for (size_t i = 0; i < F32_N; i++) {
        stex_channel_diff d = stex_channel_compare(
            STEX_FORMAT_R32FLOAT, (const uint8_t *)&F32_PAIRS[i].golden,
            (const uint8_t *)&F32_PAIRS[i].actual, 0);
        if (d.verdict != F32_PAIRS[i].verdict || (d.verdict == STEX_CHANNEL_DISTANCE &&
                                                 d.diff != F32_PAIRS[i].ulp))
            fail_msg("pair %zu (%08x vs %08x): verdict %d diff %llu", i, F32_PAIRS[i].golden,
                     F32_PAIRS[i].actual, d.verdict, (unsigned long long)d.diff);
        assert_int_equal(d.golden_code, F32_PAIRS[i].golden);
        assert_int_equal(d.actual_code, F32_PAIRS[i].actual);
        /* a difference without a distance is never "0 units" of one */
        if (d.verdict == STEX_CHANNEL_SIGN_OF_ZERO || d.verdict == STEX_CHANNEL_NAN_PAYLOAD)
            assert_int_equal(d.diff, 0);
    }
    /* f16: 1.0 (0x3c00) against -0 (0x8000) and -0 against +0 */
    const uint8_t one[2] = {0x00, 0x3c}, nz[2] = {0x00, 0x80}, pz[2] = {0, 0};
    assert_int_equal(stex_channel_compare(STEX_FORMAT_R16FLOAT, one, nz, 0).diff, 0x3c00);
    assert_int_equal(stex_channel_compare(STEX_FORMAT_R16FLOAT, nz, pz, 0).verdict,
                     STEX_CHANNEL_SIGN_OF_ZERO);
    /* bgra8unorm: R is byte 2, whatever the memory order */
    const uint8_t b1[4] = {1, 2, 3, 4}, b2[4] = {1, 2, 9, 4};
    stex_channel_diff r = stex_channel_compare(STEX_FORMAT_BGRA8UNORM, b1, b2, 0);
    assert_int_equal(r.verdict, STEX_CHANNEL_DISTANCE);
    assert_int_equal(r.diff, 6);
    assert_int_equal(r.golden_code, 3);
    assert_int_equal(r.actual_code, 9);
    assert_int_equal(stex_channel_compare(STEX_FORMAT_BGRA8UNORM, b1, b2, 2).verdict,
                     STEX_CHANNEL_EQUAL);
    /* a channel the format lacks is equal */
    assert_int_equal(stex_channel_compare(STEX_FORMAT_R32FLOAT, b1, b2, 3).verdict,
                     STEX_CHANNEL_EQUAL);
}

/* The summary: counts, the histogram (bucket k holds 2^(k-1) <= d < 2^k),
 * the per-channel largest differences and what ulp:3 accepted. */
static void test_compare_summary(void **state)
{
    (void)state;
    stex_image g, a;
    assert_true(make_f32_pair(&g, &a));
    stex_compare_result r;
    assert_int_equal(stex_compare(&g, &a, (stex_tolerance){STEX_TOLERANCE_ULP, 3}, NULL, &r),
                     STEX_MISMATCH);
    f32_expect e;
    f32_pairs_expect(3, &e);
    assert_int_equal(r.texels, F32_N);
    assert_int_equal(r.differing, e.differing);
    assert_int_equal(r.tolerated, e.accepted);
    assert_int_equal(r.mismatches, e.differing - e.accepted);
    assert_int_equal(r.channels, 1);
    for (unsigned k = 0; k < STEX_COMPARE_BUCKETS; k++)
        if (r.histogram[k].texels != e.bucket[k] || r.histogram[k].beyond != e.beyond[k])
            fail_msg("bucket %u: %llu texels, %llu beyond; expected %llu, %llu", k,
                     (unsigned long long)r.histogram[k].texels,
                     (unsigned long long)r.histogram[k].beyond,
                     (unsigned long long)e.bucket[k], (unsigned long long)e.beyond[k]);
    const stex_channel_summary *c = &r.channel[0];
    assert_int_equal(c->differing, e.differing);
    assert_int_equal(c->max_diff, e.max_ulp);
    assert_true(c->max_abs == e.max_abs);
    assert_true(e.max_abs == 1000.0 / 8388608.0); /* 1000 ULP above 1.0: 1000 x 2^-23 */
    assert_int_equal(c->sign_of_zero, 1);
    assert_int_equal(c->nan_payload, 1);
    assert_int_equal(c->nan_vs_number, 1);
    assert_int_equal(r.channel[1].differing, 0);
    /* the listed mismatches carry each channel's verdict and bits */
    assert_int_equal(r.listed, 2);
    assert_int_equal(r.first[0].channel[0].verdict, STEX_CHANNEL_NAN_VS_NUMBER);
    assert_int_equal(r.first[1].channel[0].diff, 1000);
    assert_int_equal(r.first[1].channel[0].actual_code, 0x3f8003e8);
    stex_image_free(&g);
    stex_image_free(&a);
}

/* A bgra8unorm readback (a canvas's) taken as rgba8unorm: R and B bytes
 * swap places; formats without four 8-bit channels of one kind refuse. */
static void test_swap_rb(void **state)
{
    (void)state;
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_BGRA8UNORM, 3, 2, 1), STEX_OK);
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 3; x++) {
            uint8_t *t = stex_image_texel(&img, x, y, 0);
            t[0] = (uint8_t)(10 * x + y), t[1] = 100, t[2] = 200, t[3] = 255; /* B G R A */
        }
    stex_vec4 before, after;
    const stex_profile *spec = stex_profile_get(STEX_PROFILE_SPEC);
    assert_int_equal(stex_decode_texel(spec, img.format, stex_image_texel(&img, 2, 1, 0), &before),
                     STEX_OK);
    assert_int_equal(stex_image_swap_rb(&img, STEX_FORMAT_RGBA8UNORM), STEX_OK);
    assert_int_equal(img.format, STEX_FORMAT_RGBA8UNORM);
    const uint8_t *t = stex_image_texel(&img, 2, 1, 0);
    assert_int_equal(t[0], 200);
    assert_int_equal(t[2], 21);
    /* the same colour, read as textureLoad reads each format */
    assert_int_equal(stex_decode_texel(spec, img.format, t, &after), STEX_OK);
    assert_memory_equal(&before, &after, sizeof before);
    assert_int_equal(stex_image_swap_rb(&img, STEX_FORMAT_RGBA8UNORM_SRGB), STEX_INVALID_ARGUMENT);
    assert_int_equal(stex_image_swap_rb(&img, STEX_FORMAT_RGBA8UINT), STEX_INVALID_ARGUMENT);
    stex_image_free(&img);
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_R32FLOAT, 2, 2, 1), STEX_OK);
    assert_int_equal(stex_image_swap_rb(&img, STEX_FORMAT_R32FLOAT), STEX_INVALID_ARGUMENT);
    stex_image_free(&img);
}

/* The diff picture's colours (docs/file-formats.md), and its legend: below
 * the texels, one 11-pixel row per colour from 4 pixels down, a 9x9 swatch
 * at x = 4 framed in light grey, white text from x = 19. */
static void test_diff_legend(void **state)
{
    (void)state;
    static const uint8_t colour[9][3] = {
        {40, 40, 40},   {40, 80, 255},  {0, 224, 224}, {255, 0, 0},  {255, 64, 0},
        {255, 128, 0},  {255, 192, 0},  {255, 255, 0}, {255, 0, 255},
    };
    stex_image g, a;
    assert_true(make_f32_pair(&g, &a));
    char dir[64], path[128];
    scratch_make(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/diff.png", dir);
    assert_int_equal(stex_write_diff_png(path, &g, &a, (stex_tolerance){STEX_TOLERANCE_ULP, 1},
                                         NULL), STEX_OK);
    stex_image d;
    assert_int_equal(stex_read_png(path, &d), STEX_OK);
    const uint32_t k = 256 / F32_N; /* pixels a texel: 9 texels scaled to ~256 */
    /* each texel's colour under ulp:1 and under exact, from F32_PAIRS'
     * distances: 1 ULP and the two 0-unit kinds are within ulp:1; 2 and 3
     * ULP are in 2-15, 1000 in 256-4095 */
    static const unsigned want_ulp1[F32_N] = {0, 1, 1, 4, 1, 1, 8, 6, 4},
                          want_exact[F32_N] = {0, 3, 3, 4, 2, 2, 8, 6, 4};
    for (int pass = 0; pass < 2; pass++) {
        const unsigned *want = pass ? want_exact : want_ulp1;
        for (uint32_t x = 0; x < F32_N; x++) {
            const uint8_t *p = stex_image_texel(&d, x * k + k / 2, k / 2, 0);
            if (memcmp(p, colour[want[x]], 3))
                fail_msg("pass %d, texel %u: %u,%u,%u, expected colour %u", pass, x, p[0], p[1],
                         p[2], want[x]);
        }
        if (pass)
            break;
        stex_image_free(&d);
        assert_int_equal(stex_write_diff_png(path, &g, &a, (stex_tolerance){STEX_TOLERANCE_EXACT, 0},
                                             NULL), STEX_OK);
        assert_int_equal(stex_read_png(path, &d), STEX_OK);
    }
    assert_true(d.height == k + 4 + 9 * 11 + 4);
    for (unsigned row = 0; row < 9; row++) {
        uint32_t top = k + 4 + row * 11;
        const uint8_t *frame = stex_image_texel(&d, 4, top, 0);
        const uint8_t *fill = stex_image_texel(&d, 8, top + 4, 0);
        assert_true(frame[0] == 160 && frame[1] == 160 && frame[2] == 160);
        if (memcmp(fill, colour[row], 3))
            fail_msg("legend row %u: swatch %u,%u,%u", row, fill[0], fill[1], fill[2]);
        unsigned ink = 0;
        for (uint32_t y = top + 1; y < top + 8; y++)
            for (uint32_t x = 19; x < d.width; x++) {
                const uint8_t *p = stex_image_texel(&d, x, y, 0);
                ink += p[0] == 255 && p[1] == 255 && p[2] == 255;
            }
        if (ink < 20)
            fail_msg("legend row %u has no text (%u white pixels)", row, ink);
    }
    stex_image_free(&d);
    stex_image_free(&g);
    stex_image_free(&a);
    scratch_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tolerance_parse),
        cmocka_unit_test(test_texel_diff),
        cmocka_unit_test(test_compare_exact_and_ulp),
        cmocka_unit_test(test_compare_allowed),
        cmocka_unit_test(test_channel_compare),
        cmocka_unit_test(test_compare_summary),
        cmocka_unit_test(test_swap_rb),
        cmocka_unit_test(test_diff_legend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
