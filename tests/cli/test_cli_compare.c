/* stex compare end to end: a golden against itself, one flipped texel, the
 * allowed tolerance against another device's rounding, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "stex/stex.h"

static char golden[512];

static void test_self_and_flip(void **state)
{
    (void)state;
    char bin[512], npy[512], flip[512], diff[512];
    path_in(bin, sizeof bin, "flip.bin");
    path_in(npy, sizeof npy, "g.npy");
    path_in(flip, sizeof flip, "flip.bin");
    path_in(diff, sizeof diff, "diff.png");
    cli_result r = run_stex("compare '%s' '%s'", golden, golden);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "equal"));
    cli_free(&r);
    /* the same texels as .npy compare equal to the .bin */
    r = run_stex("run generar --size 24x10 --out '%s'", npy);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s'", golden, npy);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* one texel flipped in a raw copy (no sidecar: takes the golden's layout) */
    size_t n;
    uint8_t *bytes = slurp(golden, &n);
    uint32_t bpr = 256; /* 24 rgba8unorm texels fit one 256-byte row */
    bytes[7 * bpr + 13 * 4 + 1] ^= 0x04;
    spit(flip, bytes, n);
    free(bytes);
    r = run_stex("compare '%s' '%s' --json --diff '%s'", golden, flip, diff);
    CLI_EXPECT(r, 1, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    assert_true(json_is_false(json_object_get(j, "equal")));
    assert_int_equal(json_integer_value(json_object_get(j, "mismatches")), 1);
    assert_int_equal(json_integer_value(json_object_get(j, "max_diff")), 4);
    json_t *m = json_array_get(json_object_get(j, "first_mismatches"), 0);
    assert_int_equal(json_integer_value(json_object_get(m, "x")), 13);
    assert_int_equal(json_integer_value(json_object_get(m, "y")), 7);
    json_decref(j);
    cli_free(&r);
    stex_image d;
    assert_int_equal(stex_read_png(diff, &d), STEX_OK);
    assert_int_equal(d.width, 24 * 10); /* a small texture: 256 / 24 = 10 pixels a texel */
    assert_int_equal(d.height, 10 * 10);
    const uint8_t *red = stex_image_texel(&d, 13 * 10 + 9, 7 * 10, 0),
                  *grey = stex_image_texel(&d, 0, 0, 0);
    assert_true(red[0] == 255 && red[2] == 0);
    assert_true(grey[0] == grey[1] && grey[1] == grey[2] && grey[0] < 100);
    stex_image_free(&d);
    /* within ulp:4, not within ulp:3 */
    r = run_stex("compare '%s' '%s' --tolerance ulp:4", golden, flip);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance ulp:3", golden, flip);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "(13, 7, 0)"));
    cli_free(&r);
    /* explicit raw layout */
    r = run_stex("compare '%s' '%s' --format rgba8unorm --size 24x10 --bytes-per-row 256", flip,
                 flip);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    remove(npy), remove(flip), remove(diff);
}

/* Ties rounded the nvidia way pass `allowed` against a spec golden; a value
 * two codes away does not. */
static void test_allowed(void **state)
{
    (void)state;
    const uint32_t w = 32, h = 8;
    stex_format f = STEX_FORMAT_RGBA8UNORM;
    stex_image g, a;
    stex_inputs in;
    assert_int_equal(stex_image_init(&g, f, w, h, 1), STEX_OK);
    assert_int_equal(stex_image_init(&a, f, w, h, 1), STEX_OK);
    assert_int_equal(stex_inputs_init(&in, STEX_SCALAR_F32, w, h, 1), STEX_OK);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t k = (y * w + x) % 255;
            stex_vec4 v = {.f = {(float)((k + 0.5) / 255.0), 0.5f, 1.5f, -0.3f}};
            stex_inputs_set(&in, x, y, 0, &v);
            stex_encode_texel(stex_profile_get(STEX_PROFILE_SPEC), f, &v,
                              stex_image_texel(&g, x, y, 0));
            stex_encode_texel(stex_profile_get(STEX_PROFILE_NVIDIA), f, &v,
                              stex_image_texel(&a, x, y, 0));
        }
    char gp[512], ip[520], ap[512];
    path_in(gp, sizeof gp, "tie.bin");
    snprintf(ip, sizeof ip, "%s.inputs", gp);
    path_in(ap, sizeof ap, "tie-nvidia.bin");
    stex_io_meta with_inputs = {.inputs = &in}; /* tie.bin.inputs, its hash in the sidecar */
    assert_int_equal(stex_write_bin(gp, &g, &with_inputs), STEX_OK);
    assert_int_equal(access(ip, F_OK), 0);
    assert_int_equal(stex_write_bin(ap, &a, NULL), STEX_OK);
    cli_result r = run_stex("compare '%s' '%s'", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, ap);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image_texel(&a, 5, 3, 0)[1] += 2;
    assert_int_equal(stex_write_bin(ap, &a, NULL), STEX_OK);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, ap);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "(5, 3, 0)"));
    cli_free(&r);
    /* allowed without recorded inputs: a usage error naming the file */
    remove(ip);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, ap);
    CLI_EXPECT(r, 2, "tie.bin.inputs");
    cli_free(&r);
    stex_image_free(&g);
    stex_image_free(&a);
    stex_inputs_free(&in);
}

/* stex run --record-allowed writes the inputs beside the golden; a run under
 * another profile then passes `allowed` against it. */
static void test_record_allowed(void **state)
{
    (void)state;
    char gp[512], np[512], ip[520];
    path_in(gp, sizeof gp, "rec.bin");
    path_in(np, sizeof np, "rec-nvidia.bin");
    snprintf(ip, sizeof ip, "%s.inputs", gp);
    cli_result r = run_stex("run generar --size 40x12 --record-allowed --out '%s'", gp);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_inputs in;
    assert_int_equal(stex_read_inputs(ip, &in), STEX_OK);
    assert_int_equal(in.width, 40);
    for (size_t i = 0; i < 40 * 12; i++)
        assert_int_equal(in.stored[i], 1); /* generar stores every texel */
    stex_inputs_free(&in);
    r = run_stex("run generar --size 40x12 --profile nvidia --out '%s'", np);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --tolerance allowed", gp, np);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    char side[600];
    snprintf(side, sizeof side, "%s.json", np);
    remove(np), remove(side), remove(ip);
    snprintf(side, sizeof side, "%s.json", gp);
    remove(gp), remove(side);
}


/* --json mismatches carry the decoded channel values beside the bytes;
 * NaN and infinities as strings (JSON numbers cannot hold them). */
static void test_json_values(void **state)
{
    (void)state;
    char g[512], a[512];
    path_in(g, sizeof g, "special.bin");
    path_in(a, sizeof a, "special-actual.bin");
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_R32FLOAT, 4, 1, 1), STEX_OK);
    const float gv[4] = {1.5f, INFINITY, NAN, -2.0f}, av[4] = {1.5f, 2.0f, 3.0f, -INFINITY};
    memcpy(img.data, gv, sizeof gv);
    assert_int_equal(stex_write_bin(g, &img, NULL), STEX_OK);
    memcpy(img.data, av, sizeof av);
    assert_int_equal(stex_write_bin(a, &img, NULL), STEX_OK);
    stex_image_free(&img);
    cli_result r = run_stex("compare '%s' '%s' --json", g, a);
    CLI_EXPECT(r, 1, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("stdout is not JSON: %s", r.out);
    json_t *m = json_object_get(j, "first_mismatches");
    assert_int_equal(json_array_size(m), 3);
    static const char *const want_g[3] = {"inf", "NaN", NULL},
                             *const want_a[3] = {NULL, NULL, "-inf"};
    static const double num_g[3] = {0, 0, -2}, num_a[3] = {2, 3, 0};
    for (size_t i = 0; i < 3; i++) {
        json_t *e = json_array_get(m, i);
        assert_int_equal(json_integer_value(json_object_get(e, "x")), (json_int_t)i + 1);
        json_t *gvals = json_object_get(e, "golden_values"), *avals = json_object_get(e, "actual_values");
        assert_int_equal(json_array_size(gvals), 1);
        assert_int_equal(json_array_size(avals), 1);
        if (want_g[i])
            assert_string_equal(json_string_value(json_array_get(gvals, 0)), want_g[i]);
        else
            assert_true(json_number_value(json_array_get(gvals, 0)) == num_g[i]);
        if (want_a[i])
            assert_string_equal(json_string_value(json_array_get(avals, 0)), want_a[i]);
        else
            assert_true(json_number_value(json_array_get(avals, 0)) == num_a[i]);
    }
    json_decref(j);
    cli_free(&r);
    /* an rgba8unorm pair: four normalised channels (128 and 127 of 255) */
    r = run_stex("run generar --size 2x2 --threads 1 --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run generar --size 2x2 --threads 1 --profile nvidia --out '%s'", a);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --json", g, a);
    CLI_EXPECT(r, 1, NULL);
    j = json_loads(r.out, 0, &je);
    json_t *e = json_array_get(json_object_get(j, "first_mismatches"), 0);
    json_t *gvals = json_object_get(e, "golden_values");
    assert_int_equal(json_array_size(gvals), 4);
    assert_true(fabs(json_number_value(json_array_get(gvals, 1)) - 128.0 / 255) < 1e-6);
    assert_true(fabs(json_number_value(json_array_get(json_object_get(e, "actual_values"), 1)) -
                     127.0 / 255) < 1e-6);
    json_decref(j);
    cli_free(&r);
    remove(g), remove(a);
}

static void test_errors(void **state)
{
    (void)state;
    char small[512], trunc[512], noside[512];
    path_in(small, sizeof small, "small.bin");
    path_in(trunc, sizeof trunc, "trunc.bin");
    path_in(noside, sizeof noside, "noside.bin");
    cli_result r = run_stex("run generar --size 8x8 --out '%s'", small);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    size_t n;
    uint8_t *bytes = slurp(golden, &n);
    spit(noside, bytes, n);
    char side[600], tside[600];
    snprintf(side, sizeof side, "%s.json", golden);
    snprintf(tside, sizeof tside, "%s.json", trunc);
    spit(trunc, bytes, n / 2);
    free(bytes);
    bytes = slurp(side, &n);
    spit(tside, bytes, n);
    free(bytes);
    static const struct { const char *fmt; int code; const char *msg; } cases[] = {
        {"compare '%s' '%s'", 2, "24x10x1"},        /* GOLDEN vs small: sizes differ */
        {"compare '%s' '%s'", 2, "truncated"},      /* GOLDEN vs trunc */
        {"compare '%s' /nonexistent.bin", 2, "/nonexistent.bin"},
        {"compare '%s'", 2, "two files"},
        {"compare '%s' '%s' --tolerance ulp:x", 2, "exact, ulp:N"},
        {"compare '%s' '%s' --tolerance close", 2, "allowed"},
        {"compare '%s' '%s' --format rgba9unorm", 2, "rgba9unorm"},
        {"compare '%s' '%s' --bytes-per-row 100 --format r8unorm --size 4x4", 2, "256"},
        {"compare '%s' '%s' --size 4x4", 2, "--format"},
        {"compare '%s' '%s' --diff d.jpg", 2, ".png"},
        {"compare '%s' x.txt", 2, ".bin, .npy or .png"},
    };
    const char *second[] = {small, trunc, NULL, NULL, golden, golden, golden, golden, golden,
                            golden, NULL};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result rr = second[i] ? run_stex(cases[i].fmt, golden, second[i])
                                  : run_stex(cases[i].fmt, golden);
        if (rr.code != cases[i].code || !strstr(rr.err, cases[i].msg))
            fail_msg("case %zu (%s): exit %d, stderr '%s'; expected %d and '%s'", i, cases[i].fmt,
                     rr.code, rr.err, cases[i].code, cases[i].msg);
        cli_free(&rr);
    }
    /* a raw .bin as GOLDEN needs its layout */
    r = run_stex("compare '%s' '%s'", noside, golden);
    CLI_EXPECT(r, 2, "--format");
    cli_free(&r);
    r = run_stex("compare '%s' '%s' --format rgba8unorm --size 24x10", noside, golden);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    char sside[600];
    snprintf(sside, sizeof sside, "%s.json", small);
    remove(small), remove(sside), remove(trunc), remove(tside), remove(noside);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    snprintf(golden, sizeof golden, "%s/golden.bin", cli_dir);
    cli_result r = run_stex("run generar --size 24x10 --out '%s'", golden);
    if (r.code != 0) {
        fprintf(stderr, "cannot make the golden: %s\n", r.err);
        return 1;
    }
    cli_free(&r);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_and_flip),
        cmocka_unit_test(test_allowed),
        cmocka_unit_test(test_record_allowed),
        cmocka_unit_test(test_json_values),
        cmocka_unit_test(test_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
