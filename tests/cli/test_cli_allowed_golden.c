/* Allowed goldens end to end (issue 27): `stex compare GOLDEN READBACK` on
 * a golden whose sidecar says "golden": "allowed" judges the readback
 * against X.bin.allowed - another device's legal results pass, a value
 * outside is listed with its distance to the nearest allowed value, the
 * unconstrained values are counted by reason - in text and JSON; the
 * bounds here are built from WGSL's rules (division within 2.5 ULP, a
 * unorm conversion rounding either way), not from stex's output. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "stex/stex.h"

static char golden[512];   /* r32float 4x1: 1/3 at x = 0..2, unconstrained at x = 3 */
static float q_lo, q_hi;   /* 1/3 within 2.5 ULP: the rounded 1/3 and 2 floats either side */

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* A raw readback (no sidecar) of the golden's layout with the given words. */
static void readback(const char *name, const float v[4], char *path, size_t n)
{
    path_in(path, n, name);
    uint8_t row[256] = {0};
    memcpy(row, v, 16);
    spit(path, row, sizeof row);
}

static void make_golden(void)
{
    snprintf(golden, sizeof golden, "%s/third.bin", cli_dir);
    float q = 1.0f / 3.0f;
    q_lo = nextafterf(nextafterf(q, 0), 0);
    q_hi = nextafterf(nextafterf(q, 1), 1);
    stex_image img;
    stex_bounds b;
    if (stex_image_init(&img, STEX_FORMAT_R32FLOAT, 4, 1, 1) ||
        stex_bounds_init(&b, STEX_FORMAT_R32FLOAT, 4, 1, 1))
        exit(1);
    for (uint32_t x = 0; x < 3; x++) {
        memcpy(stex_image_texel(&img, x, 0, 0), &q, 4);
        *stex_bounds_at(&b, x, 0, 0, 0) = (stex_bound){bits_of(q_lo), bits_of(q_hi), 0, 0};
    }
    uint32_t why = stex_bounds_reason(&b, "line 7: loop exit depends on a float");
    *stex_bounds_at(&b, 3, 0, 0, 0) = (stex_bound){0, 0, STEX_BOUND_ANY, why};
    stex_io_meta meta = {.kernel = "third", .profile = "spec", .bounds = &b};
    if (stex_write_bin(golden, &img, &meta)) {
        fprintf(stderr, "cannot write %s: %s\n", golden, stex_last_error());
        exit(1);
    }
    stex_bounds_free(&b);
    stex_image_free(&img);
}

/* Another device rounded the other way, and x = 3 holds anything. */
static void test_inside(void **state)
{
    (void)state;
    char rb[512];
    readback("other.bin", (float[4]){q_lo, q_hi, 1.0f / 3.0f, NAN}, rb, sizeof rb);
    cli_result r = run_stex("compare '%s' '%s'", golden, rb);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "inside the allowed golden: 4 values of 4 r32float texels"));
    assert_non_null(strstr(r.out, "unconstrained: 1 value (any bits pass)"));
    assert_non_null(strstr(r.out, "line 7: loop exit depends on a float"));
    cli_free(&r);
    /* --tolerance compares with X.bin, the profile's own output: exact fails */
    r = run_stex("compare '%s' '%s' --tolerance exact", golden, rb);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "MISMATCH"));
    cli_free(&r);
}

/* Three ULP past the top and a NaN where none is allowed. */
static void test_outside(void **state)
{
    (void)state;
    char rb[512];
    float far = q_hi;
    for (int i = 0; i < 3; i++)
        far = nextafterf(far, 1);
    readback("bad.bin", (float[4]){far, NAN, q_lo, 0}, rb, sizeof rb);
    cli_result r = run_stex("compare '%s' '%s'", golden, rb);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "OUTSIDE the allowed golden: 2 of 4 values"));
    assert_non_null(strstr(r.out, "largest distance to the nearest allowed value: 3 ULP"));
    assert_non_null(strstr(r.out, "(0, 0, 0) r: "));
    assert_non_null(strstr(r.out, "; 3 ULP"));
    assert_non_null(strstr(r.out, "(1, 0, 0) r: NaN"));
    assert_non_null(strstr(r.out, "NaN, none allowed"));
    cli_free(&r);

    r = run_stex("compare '%s' '%s' --json", golden, rb);
    CLI_EXPECT(r, 1, NULL);
    json_error_t e;
    json_t *o = json_loads(r.out, 0, &e);
    assert_non_null(o);
    assert_false(json_is_true(json_object_get(o, "inside")));
    assert_string_equal(json_string_value(json_object_get(o, "golden")), "allowed");
    assert_int_equal(json_integer_value(json_object_get(o, "outside")), 2);
    assert_int_equal(json_integer_value(json_object_get(o, "unconstrained")), 1);
    assert_true(json_is_null(json_object_get(o, "max_distance"))); /* the NaN has none */
    json_t *first = json_object_get(o, "first_outside");
    assert_int_equal(json_array_size(first), 2);
    json_t *m0 = json_array_get(first, 0), *m1 = json_array_get(first, 1);
    assert_int_equal(json_integer_value(json_object_get(m0, "distance")), 3);
    char hex[16];
    snprintf(hex, sizeof hex, "0x%08x", bits_of(q_hi));
    assert_string_equal(json_string_value(json_object_get(m0, "nearest_bits")), hex);
    /* %.9g gives back the very float */
    assert_true((float)json_real_value(json_array_get(json_object_get(m0, "allowed"), 0)) == q_lo);
    assert_string_equal(json_string_value(json_object_get(m1, "verdict")), "nan_outside");
    assert_true(json_is_null(json_object_get(m1, "distance")));
    json_t *why = json_array_get(json_object_get(o, "unconstrained_by_reason"), 0);
    assert_string_equal(json_string_value(json_object_get(why, "reason")),
                        "line 7: loop exit depends on a float");
    json_decref(o);
    cli_free(&r);
}

/* Companions that do not belong together, and what an allowed golden
 * cannot do. */
static void test_refused(void **state)
{
    (void)state;
    char rb[512], alw[600], keep[600];
    readback("ok.bin", (float[4]){q_lo, q_lo, q_lo, 0}, rb, sizeof rb);
    cli_result r = run_stex("compare '%s' '%s' --diff '%s/d.png'", golden, rb, cli_dir);
    CLI_EXPECT(r, 2, "--diff: no picture is drawn against an allowed golden");
    cli_free(&r);
    snprintf(alw, sizeof alw, "%s.allowed", golden);
    snprintf(keep, sizeof keep, "%s.keep", golden);
    assert_int_equal(rename(alw, keep), 0);
    size_t n;
    uint8_t *bytes = slurp(keep, &n);
    bytes[48] ^= 1; /* texel 0's lo, one ULP lower: another run's bounds */
    spit(alw, bytes, n);
    free(bytes);
    r = run_stex("compare '%s' '%s'", golden, rb);
    CLI_EXPECT(r, 2, "does not belong to");
    cli_free(&r);
    assert_int_equal(remove(alw), 0);
    r = run_stex("compare '%s' '%s'", golden, rb);
    CLI_EXPECT(r, 2, ".allowed");
    cli_free(&r);
    assert_int_equal(rename(keep, alw), 0);
    r = run_stex("compare '%s' '%s'", golden, rb);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    make_golden();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inside),
        cmocka_unit_test(test_outside),
        cmocka_unit_test(test_refused),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
