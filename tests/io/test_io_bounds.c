/* Allowed goldens at the library's level: the bounds file X.bin.allowed
 * written with X.bin and its sidecar ("golden": "allowed"), read back only
 * with the companions that belong to it, every broken rule of the format
 * refused by name; and a readback judged against bounds built here from
 * the WGSL and WebGPU rules (a rounding either way, division's 2.5 ULP, the
 * sign of zero, NaN, snorm's two codes of -1), with distances counted by
 * stepping floats with nextafterf. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "io_test.h"
#include "stex/io.h"

static char dir[256];

static void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A one-texel image of format f whose channel bytes are `bytes`. */
static void one_texel(stex_image *img, const char *format, const void *bytes)
{
    stex_format f = stex_format_from_name(format);
    assert_int_equal(stex_image_init(img, f, 1, 1, 1), STEX_OK);
    memcpy(img->data, bytes, stex_format_get(f)->bytes);
}

/* ---- the file ---- */

/* A 3x2 rgba8unorm golden's bounds: texel (1,0)'s r is 0.5 stored (127.5
 * codes: WebGPU lets the conversion round either way, [127, 128]), texel
 * (2,1) is unconstrained for a reason. */
static void sample_bounds(stex_bounds *b, stex_image *img)
{
    assert_int_equal(stex_bounds_init(b, STEX_FORMAT_RGBA8UNORM, 3, 2, 1), STEX_OK);
    assert_int_equal(stex_image_init(img, STEX_FORMAT_RGBA8UNORM, 3, 2, 1), STEX_OK);
    *stex_bounds_at(b, 1, 0, 0, 0) = (stex_bound){127, 128, 0, 0};
    stex_image_texel(img, 1, 0, 0)[0] = 128;
    uint32_t why = stex_bounds_reason(b, "line 12: loop exit depends on a float");
    assert_int_equal(why, 1);
    assert_int_equal(stex_bounds_reason(b, "line 12: loop exit depends on a float"), 1);
    for (unsigned c = 0; c < 4; c++)
        *stex_bounds_at(b, 2, 1, 0, c) = (stex_bound){0, 0, STEX_BOUND_ANY, why};
}

static void test_round_trip(void **state)
{
    (void)state;
    stex_bounds b, back;
    stex_image img, g;
    sample_bounds(&b, &img);
    char path[512], side[600], alw[600];
    path_in(path, sizeof path, "g.bin");
    snprintf(side, sizeof side, "%s.json", path);
    snprintf(alw, sizeof alw, "%s.allowed", path);
    stex_io_meta meta = {.kernel = "t", .profile = "spec", .bounds = &b};
    assert_int_equal(stex_write_bin(path, &img, &meta), STEX_OK);
    char *text = slurp_text(side);
    assert_non_null(strstr(text, "\"golden\": \"allowed\""));
    assert_non_null(strstr(text, "\"allowed_sha256\""));
    free(text);
    stex_io_meta_read m;
    assert_int_equal(stex_read_allowed_golden(path, &back, &g, &m), STEX_OK);
    assert_true(m.allowed);
    assert_int_equal(back.format, STEX_FORMAT_RGBA8UNORM);
    assert_int_equal(back.width * back.height * back.depth * back.channels, 24);
    assert_memory_equal(back.v, b.v, 24 * sizeof *b.v);
    assert_int_equal(back.nreasons, 1);
    assert_string_equal(back.reasons[0], "line 12: loop exit depends on a float");
    assert_memory_equal(g.data, img.data, img.size);
    stex_bounds_free(&back);
    stex_image_free(&g);

    /* a bounds file from another run is refused by the sidecar's hash */
    stex_bound keep = *stex_bounds_at(&b, 1, 0, 0, 0);
    stex_bounds_at(&b, 1, 0, 0, 0)->hi = 129;
    assert_int_equal(stex_write_bounds(alw, &b), STEX_OK);
    assert_int_equal(stex_read_allowed_golden(path, &back, NULL, NULL), STEX_FILE_FORMAT_ERROR);
    assert_non_null(strstr(stex_last_error(), "does not belong to"));
    *stex_bounds_at(&b, 1, 0, 0, 0) = keep;

    /* an exact golden written over it takes the stale bounds away */
    assert_int_equal(stex_write_bin(path, &img, &(stex_io_meta){.kernel = "t"}), STEX_OK);
    assert_int_equal(access(alw, F_OK), -1);
    assert_int_equal(stex_read_allowed_golden(path, &back, NULL, NULL), STEX_FILE_FORMAT_ERROR);
    assert_non_null(strstr(stex_last_error(), "is an exact golden"));

    /* bounds of another size than the image: nothing written */
    stex_image small;
    assert_int_equal(stex_image_init(&small, STEX_FORMAT_RGBA8UNORM, 2, 2, 1), STEX_OK);
    meta.bounds = &b;
    assert_int_equal(stex_write_bin(path, &small, &meta), STEX_INVALID_ARGUMENT);
    assert_int_equal(access(alw, F_OK), -1);
    stex_image_free(&small);
    stex_bounds_free(&b);
    stex_image_free(&img);
}

/* Each broken rule of the format, made by patching a good file's bytes. */
static void test_reader_refuses(void **state)
{
    (void)state;
    stex_bounds b;
    stex_image img;
    sample_bounds(&b, &img);
    char path[512], bad[512];
    path_in(path, sizeof path, "b.allowed");
    path_in(bad, sizeof bad, "bad.allowed");
    assert_int_equal(stex_write_bounds(path, &b), STEX_OK);
    size_t n;
    uint8_t *good = slurp(path, &n);
    /* 48-byte header, 24 records of 12 bytes, one reason */
    assert_int_equal(n, 48 + 24 * 12 + 4 + strlen(b.reasons[0]));
    enum { r1 = 48 + 4 * 12 }; /* texel (1,0) channel r: lo 127, hi 128 */
    static const struct {
        size_t at;
        uint8_t byte;
        long cut;      /* bytes cut from the end (0: none) */
        const char *why;
    } cases[] = {
        {0, 'X', 0, "magic STEXBND1 missing"},
        {8, 'z', 0, "do not name a WebGPU texture format"},
        {r1, 200, 0, "lo lies above hi"},
        {r1 + 8, 0x08, 0, "unknown flags"},
        {r1 + 8, 0x02, 0, "'only NaN' (flag 2) without"},
        {r1 + 9, 0x02, 0, "reason number is past"},
        {r1 + 1, 0x01, 0, "a code wider than its channel"},
        {44, 9, 0, "the reasons are truncated"},
        {0, 0, 3, "the reasons are truncated"},
        {0, 0, 40 + 200, "fewer records than"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *p = malloc(n + 1);
        memcpy(p, good, n);
        if (!cases[i].cut)
            p[cases[i].at] = cases[i].byte;
        spit(bad, p, n - (size_t)cases[i].cut);
        free(p);
        stex_bounds back;
        stex_status st = stex_read_bounds(bad, &back);
        if (st != STEX_FILE_FORMAT_ERROR || !strstr(stex_last_error(), cases[i].why))
            fail_msg("case %zu: status %d, '%s' (expected '%s')", i, st, stex_last_error(),
                     cases[i].why);
        assert_null(back.v);
    }
    /* trailing bytes */
    uint8_t *p = malloc(n + 1);
    memcpy(p, good, n);
    p[n] = 0;
    spit(bad, p, n + 1);
    free(p);
    stex_bounds back;
    assert_int_equal(stex_read_bounds(bad, &back), STEX_FILE_FORMAT_ERROR);
    assert_non_null(strstr(stex_last_error(), "bytes follow the last reason"));
    /* a NaN as a bound: f32 lo = 0x7fc00000 */
    stex_bounds f;
    assert_int_equal(stex_bounds_init(&f, STEX_FORMAT_R32FLOAT, 1, 1, 1), STEX_OK);
    f.v[0] = (stex_bound){0x7fc00000u, 0x7fc00000u, 0, 0};
    assert_int_equal(stex_write_bounds(bad, &f), STEX_INVALID_ARGUMENT);
    assert_non_null(strstr(stex_last_error(), "NaN"));
    stex_bounds_free(&f);
    free(good);
    stex_bounds_free(&b);
    stex_image_free(&img);
}

/* ---- the comparison ---- */

/* Counts the floats from a up to b (a <= b) by stepping. */
static uint64_t steps(float a, float b)
{
    uint64_t n = 0;
    while (a < b)
        a = nextafterf(a, INFINITY), n++;
    return n;
}

static void test_float_bounds(void **state)
{
    (void)state;
    /* 1/3 under WGSL's division accuracy (2.5 ULP): every f32 within 2.5
     * ULP of the exact 1/3, i.e. 2 floats either side of the rounded one
     * (1/3 lies between two floats, the rounded one within half an ULP). */
    float q = 1.0f / 3.0f, lo = q, hi = q;
    for (int i = 0; i < 2; i++)
        lo = nextafterf(lo, 0), hi = nextafterf(hi, 1);
    stex_bound b = {f32_bits(lo), f32_bits(hi), 0, 0};
    assert_int_equal(stex_bound_width(STEX_FORMAT_R32FLOAT, 0, &b), steps(lo, hi));
    float above = hi;
    for (int i = 0; i < 3; i++)
        above = nextafterf(above, 1);
    float vals[] = {q, lo, hi, above, nextafterf(lo, 0), -q};
    stex_bound_verdict want[] = {STEX_BOUND_INSIDE, STEX_BOUND_INSIDE, STEX_BOUND_INSIDE,
                                 STEX_BOUND_OUTSIDE, STEX_BOUND_OUTSIDE, STEX_BOUND_OUTSIDE};
    /* -q to lo: q's own steps to 0 (twice: down and up) plus the one +-0 */
    uint64_t dist[] = {0, 0, 0, 3, 1, steps(0, q) + steps(0, lo)};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        uint32_t u = f32_bits(vals[i]);
        stex_bound_miss m;
        stex_bound_verdict v = stex_bound_check(STEX_FORMAT_R32FLOAT, 0, &b, (uint8_t *)&u, &m);
        if (v != want[i] || m.distance != dist[i])
            fail_msg("%.9g: verdict %d distance %llu, expected %d, %llu", (double)vals[i], v,
                     (unsigned long long)m.distance, want[i], (unsigned long long)dist[i]);
        if (v == STEX_BOUND_OUTSIDE)
            assert_int_equal(m.nearest, vals[i] > hi ? b.hi : b.lo);
    }
}

/* The sign of zero, NaN and infinity: rules, not distances. */
static void test_zero_nan_inf(void **state)
{
    (void)state;
    const uint32_t pz = 0, nz = 0x80000000u, dmin = 1, ndmin = 0x80000001u, nan = 0x7fc00001u,
                   inf = 0x7f800000u, maxf = 0x7f7fffffu;
    static const char *fmt = "r32float";
    struct {
        stex_bound b;
        uint32_t v;
        stex_bound_verdict want;
        uint64_t dist;
        const char *why;
    } cases[] = {
        {{pz, pz, 0, 0}, nz, STEX_BOUND_OUTSIDE, 0, "-0 where only +0 is allowed"},
        {{nz, pz, 0, 0}, nz, STEX_BOUND_INSIDE, 0, "either zero"},
        {{nz, pz, 0, 0}, pz, STEX_BOUND_INSIDE, 0, "either zero"},
        {{ndmin, dmin, 0, 0}, pz, STEX_BOUND_INSIDE, 0, "a flushed subnormal"},
        {{dmin, dmin, 0, 0}, 0x80000002u, STEX_BOUND_OUTSIDE, 3, "-2d to +d: -d, 0, +d"},
        {{pz, dmin, STEX_BOUND_NAN, 0}, nan, STEX_BOUND_INSIDE, 0, "NaN allowed"},
        {{pz, dmin, 0, 0}, nan, STEX_BOUND_NAN_OUTSIDE, UINT64_MAX, "NaN not allowed"},
        {{0, 0, STEX_BOUND_NAN | STEX_BOUND_ONLY_NAN, 0}, 0xffc00000u, STEX_BOUND_INSIDE, 0,
         "only NaN, any NaN"},
        {{0, 0, STEX_BOUND_NAN | STEX_BOUND_ONLY_NAN, 0}, pz, STEX_BOUND_NUMBER_OUTSIDE,
         UINT64_MAX, "a number where only NaN"},
        {{maxf, inf, 0, 0}, inf, STEX_BOUND_INSIDE, 0, "overflow may be inf"},
        {{maxf, maxf, 0, 0}, inf, STEX_BOUND_OUTSIDE, 1, "inf one step past max"},
        {{0, 0, STEX_BOUND_ANY, 0}, nan, STEX_BOUND_UNCONSTRAINED, 0, "anything"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_bound_miss m;
        stex_bound_verdict v = stex_bound_check(stex_format_from_name(fmt), 0, &cases[i].b,
                                                (uint8_t *)&cases[i].v, &m);
        if (v != cases[i].want || (v != STEX_BOUND_INSIDE && m.distance != cases[i].dist))
            fail_msg("%s: verdict %d distance %llu", cases[i].why, v,
                     (unsigned long long)m.distance);
    }
}

/* Normalised, integer, packed and half-float channels: each in its own units. */
static void test_other_formats(void **state)
{
    (void)state;
    static const struct {
        const char *format;
        unsigned c;
        stex_bound b;
        uint8_t texel[16];
        stex_bound_verdict want;
        uint64_t dist;
        const char *why;
    } cases[] = {
        /* 0.5 * 255 = 127.5: either rounding */
        {"rgba8unorm", 0, {127, 128, 0, 0}, {128}, STEX_BOUND_INSIDE, 0, "127.5 up"},
        {"rgba8unorm", 0, {127, 128, 0, 0}, {126}, STEX_BOUND_OUTSIDE, 1, "one below"},
        {"rgba8unorm", 3, {255, 255, 0, 0}, {0, 0, 0, 250}, STEX_BOUND_OUTSIDE, 5, "alpha"},
        {"bgra8unorm", 0, {10, 10, 0, 0}, {0, 0, 13, 0}, STEX_BOUND_OUTSIDE, 3, "r is byte 2"},
        /* WebGPU: snorm -128 reads as -1.0, as -127 does */
        {"rgba8snorm", 0, {0x81, 0x81, 0, 0}, {0x80}, STEX_BOUND_INSIDE, 0, "-128 is -1.0"},
        {"rgba8snorm", 0, {0x81, 0x83, 0, 0}, {0x7f}, STEX_BOUND_OUTSIDE, 252, "127 vs -125"},
        {"r32sint", 0, {0xfffffffdu, 2, 0, 0}, {0xfb, 0xff, 0xff, 0xff}, STEX_BOUND_OUTSIDE, 2,
         "-5 against [-3, 2]"},
        {"r32uint", 0, {7, 9, 0, 0}, {12}, STEX_BOUND_OUTSIDE, 3, "12 against [7, 9]"},
        /* f16: 1.0 is 0x3c00; [1.0, 1.0 + 2 ULP], 1.0 + 5 ULP is 3 past */
        {"r16float", 0, {0x3c00, 0x3c02, 0, 0}, {0x05, 0x3c}, STEX_BOUND_OUTSIDE, 3, "f16"},
        {"r16float", 0, {0x3c00, 0x3c02, 0, 0}, {0x00, 0x7c}, STEX_BOUND_OUTSIDE,
         0x7c00 - 0x3c02, "f16 inf"},
        /* rg11b10ufloat: r is bits 0..10; 1.0 = 0x3c0 */
        {"rg11b10ufloat", 0, {0x3c0, 0x3c1, 0, 0}, {0xc3, 0x03}, STEX_BOUND_OUTSIDE, 2,
         "unsigned 11-bit float"},
        {"rgba16uint", 1, {3, 3, 0, 0}, {0, 0, 3, 0}, STEX_BOUND_INSIDE, 0, "g"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_bound_miss m;
        stex_bound_verdict v = stex_bound_check(stex_format_from_name(cases[i].format),
                                                cases[i].c, &cases[i].b, cases[i].texel, &m);
        if (v != cases[i].want || (v != STEX_BOUND_INSIDE && m.distance != cases[i].dist))
            fail_msg("%s (%s): verdict %d distance %llu, expected %d %llu", cases[i].format,
                     cases[i].why, v, (unsigned long long)m.distance, cases[i].want,
                     (unsigned long long)cases[i].dist);
    }
    stex_bound w = {0x81, 0x83, 0, 0};
    assert_int_equal(stex_bound_width(STEX_FORMAT_RGBA8SNORM, 0, &w), 2);
    w = (stex_bound){0x80000001u, 1, 0, 0}; /* -d .. +d: -d, 0, +d */
    assert_int_equal(stex_bound_width(STEX_FORMAT_R32FLOAT, 0, &w), 2);
    w.flags = STEX_BOUND_ANY;
    assert_int_equal(stex_bound_width(STEX_FORMAT_R32FLOAT, 0, &w), UINT64_MAX);
}

/* A whole image: counts, the first values outside, reasons by count. */
static void test_compare_image(void **state)
{
    (void)state;
    stex_bounds b;
    stex_image img;
    sample_bounds(&b, &img);
    uint32_t other = stex_bounds_reason(&b, "line 3: index depends on a float");
    *stex_bounds_at(&b, 0, 1, 0, 2) = (stex_bound){0, 0, STEX_BOUND_ANY, other};
    stex_bounds_result r;
    assert_int_equal(stex_compare_bounds(&b, &img, &r), STEX_OK);
    assert_int_equal(r.texels, 6);
    assert_int_equal(r.values, 24);
    assert_int_equal(r.unconstrained, 5);
    assert_int_equal(r.inside, 19);
    assert_int_equal(r.reasons_listed, 2);
    assert_int_equal(r.by_reason[0].reason, 1);
    assert_int_equal(r.by_reason[0].values, 4);
    assert_int_equal(r.by_reason[1].reason, other);
    /* texel (1,0) r = 130: 2 LSB above 128; (0,0) a = 9: 9 above 0 */
    stex_image_texel(&img, 1, 0, 0)[0] = 130;
    stex_image_texel(&img, 0, 0, 0)[3] = 9;
    stex_image_texel(&img, 2, 1, 0)[1] = 77; /* unconstrained: still passes */
    assert_int_equal(stex_compare_bounds(&b, &img, &r), STEX_MISMATCH);
    assert_int_equal(r.outside, 2);
    assert_int_equal(r.outside_texels, 2);
    assert_int_equal(r.max_distance, 9);
    assert_string_equal(r.unit, "LSB");
    assert_int_equal(r.listed, 2);
    assert_int_equal(r.first[0].x, 0);
    assert_int_equal(r.first[0].channel, 3);
    assert_int_equal(r.first[1].x, 1);
    assert_int_equal(r.first[1].nearest, 128);
    assert_int_equal(r.first[1].distance, 2);
    /* another size or format cannot be compared */
    stex_image other_img;
    one_texel(&other_img, "rgba8unorm", (uint8_t[4]){0});
    assert_int_equal(stex_compare_bounds(&b, &other_img, &r), STEX_INVALID_ARGUMENT);
    stex_image_free(&other_img);
    stex_bounds_free(&b);
    stex_image_free(&img);
}

static int setup(void **state)
{
    (void)state;
    scratch_make(dir, sizeof dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    scratch_remove(dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),     cmocka_unit_test(test_reader_refuses),
        cmocka_unit_test(test_float_bounds),   cmocka_unit_test(test_zero_nan_inf),
        cmocka_unit_test(test_other_formats),  cmocka_unit_test(test_compare_image),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
