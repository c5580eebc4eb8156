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

    /* the picture: each texel in its verdict's colour (docs/file-formats.md),
     * 64 pixels a texel (4 texels scaled to 256) */
    char png[512];
    path_in(png, sizeof png, "bad.png");
    r = run_stex("compare '%s' '%s' --diff '%s'", golden, rb, png);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "wrote"));
    cli_free(&r);
    stex_image pic;
    assert_int_equal(stex_read_png(png, &pic), STEX_OK);
    static const uint8_t colour[4][3] = {
        {255, 64, 0},  /* 3 ULP outside: the 2-15 units colour */
        {255, 0, 255}, /* a NaN where none may be */
        {40, 40, 40},  /* inside */
        {40, 80, 255}, /* unconstrained */
    };
    for (uint32_t x = 0; x < 4; x++)
        assert_memory_equal(stex_image_texel(&pic, x * 64 + 32, 32, 0), colour[x], 3);
    stex_image_free(&pic);

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

/* Companions that do not belong together. */
static void test_refused(void **state)
{
    (void)state;
    char rb[512], alw[600], keep[600];
    readback("ok.bin", (float[4]){q_lo, q_lo, q_lo, 0}, rb, sizeof rb);
    cli_result r;
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

/* ---- stex run ... --golden allowed ---- */

/* The f32 `steps` floats from f (toward +inf when steps > 0). */
static float step_float(float f, int steps)
{
    for (; steps > 0; steps--)
        f = nextafterf(f, INFINITY);
    for (; steps < 0; steps++)
        f = nextafterf(f, -INFINITY);
    return f;
}

/* The f32 words of a golden's data (rows of 256 bytes). */
static float word_at(const uint8_t *data, uint32_t x, uint32_t y)
{
    float f;
    memcpy(&f, data + (size_t)y * 256 + x * 4, 4);
    return f;
}

/* A readback: the golden's bytes with texel (x, 0)'s first word replaced. */
static void perturbed(const char *golden_bin, const char *name, uint32_t x, float v, char *path,
                      size_t n)
{
    size_t size;
    uint8_t *bytes = slurp(golden_bin, &size);
    assert_non_null(bytes);
    memcpy(bytes + x * 4, &v, 4);
    path_in(path, n, name);
    spit(path, bytes, size);
    free(bytes);
}

static int compare_code(const char *golden_bin, const char *readback)
{
    cli_result r = run_stex("compare '%s' '%s'", golden_bin, readback);
    int code = r.code;
    if (code > 1)
        fail_msg("compare: %s", r.err);
    cli_free(&r);
    return code;
}

/* A shader of our own: r = 1 / (2x + 3) in r32float (no quotient exact).
 * WGSL allows a quotient within 2.5 ULP of the exact value: the correctly
 * rounded one and 2 floats either side are inside whatever the device; 6
 * floats away are outside under any reading (the CTS's rounds each end of
 * the 2.5 ULP interval outward once more, which reaches 4 at most). */
static void test_run_wgsl(void **state)
{
    (void)state;
    char wgsl[512], bin[512], rb[512];
    path_in(wgsl, sizeof wgsl, "q.wgsl");
    path_in(bin, sizeof bin, "q.bin");
    const char *src =
        "@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;\n"
        "@compute @workgroup_size(8, 1)\n"
        "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
        "  let q = 1.0 / f32(2u * id.x + 3u);\n"
        "  textureStore(out, vec2<i32>(id.xy), vec4<f32>(q, 0.0, 0.0, 1.0));\n"
        "}\n";
    spit(wgsl, src, strlen(src));
    cli_result r = run_stex("run '%s' --size 8x1 --out '%s' --golden allowed --json", wgsl, bin);
    CLI_EXPECT(r, 0, NULL);
    json_error_t e;
    json_t *o = json_loads(r.out, 0, &e);
    assert_non_null(o);
    json_t *a = json_array_get(json_object_get(o, "allowed"), 0);
    assert_non_null(a);
    assert_int_equal(json_integer_value(json_object_get(a, "values")), 8);
    assert_int_equal(json_integer_value(json_object_get(a, "unconstrained")), 0);
    /* 2.5 ULP either side: at least 4 ULP wide, at most 8 (each end rounded
     * outward twice) */
    json_int_t w = json_integer_value(json_object_get(a, "median_width"));
    assert_true(w >= 4 && w <= 8);
    json_t *files = json_object_get(o, "files");
    bool lists_allowed = false;
    for (size_t i = 0; i < json_array_size(files); i++)
        lists_allowed |= strstr(json_string_value(json_array_get(files, i)), ".allowed") != NULL;
    assert_true(lists_allowed);
    json_decref(o);
    cli_free(&r);
    size_t n;
    uint8_t *data = slurp(bin, &n);
    for (uint32_t x = 0; x < 8; x++) {
        float q = (float)(1.0 / (2 * x + 3)); /* the correctly rounded quotient */
        assert_true(word_at(data, x, 0) >= step_float(q, -2) &&
                    word_at(data, x, 0) <= step_float(q, 2));
        for (int k = -2; k <= 2; k++) {
            perturbed(bin, "in.bin", x, step_float(q, k), rb, sizeof rb);
            if (compare_code(bin, rb) != 0)
                fail_msg("x = %u: 1/%u %+d ULP refused", x, 2 * x + 3, k);
        }
        perturbed(bin, "out.bin", x, step_float(q, x % 2 ? 6 : -6), rb, sizeof rb);
        if (compare_code(bin, rb) != 1)
            fail_msg("x = %u: 1/%u 6 ULP away accepted", x, 2 * x + 3);
    }
    free(data);
}

/* rgba8unorm: 0.5 stored is 127.5 codes, which WebGPU lets round either
 * way; the alpha 1.0 is exactly 255. */
static void test_run_unorm(void **state)
{
    (void)state;
    char wgsl[512], bin[512], rb[512];
    path_in(wgsl, sizeof wgsl, "half.wgsl");
    path_in(bin, sizeof bin, "half.bin");
    const char *src =
        "@group(0) @binding(0) var out : texture_storage_2d<rgba8unorm, write>;\n"
        "@compute @workgroup_size(1)\n"
        "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
        "  textureStore(out, vec2<i32>(id.xy), vec4<f32>(0.5, 0.0, 1.0, 1.0));\n"
        "}\n";
    spit(wgsl, src, strlen(src));
    cli_result r = run_stex("run '%s' --size 1x1 --out '%s' --golden allowed", wgsl, bin);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "wrote"));
    assert_non_null(strstr(r.out, "+ .allowed"));
    cli_free(&r);
    static const struct { uint8_t texel[4]; int want; } cases[] = {
        {{127, 0, 255, 255}, 0}, {{128, 0, 255, 255}, 0}, {{126, 0, 255, 255}, 1},
        {{129, 0, 255, 255}, 1}, {{128, 1, 255, 255}, 1}, {{128, 0, 255, 254}, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t row[256] = {0};
        memcpy(row, cases[i].texel, 4);
        path_in(rb, sizeof rb, "half-rb.bin");
        spit(rb, row, sizeof row);
        if (compare_code(bin, rb) != cases[i].want)
            fail_msg("case %zu: expected exit %d", i, cases[i].want);
    }
}

/* A run file whose output is a buffer read as r32float texels: each word
 * (x + 1) / 9 (2.5 ULP; none exact), written beside the .bin as for a
 * texture. */
static void test_run_file_buffer(void **state)
{
    (void)state;
    char dir_json[512], wgsl[512], bin[512], rb[512];
    path_in(wgsl, sizeof wgsl, "sev.wgsl");
    path_in(dir_json, sizeof dir_json, "sev.json");
    path_in(bin, sizeof bin, "sev.bin");
    const char *src =
        "@group(0) @binding(0) var<storage, read_write> v : array<f32>;\n"
        "@compute @workgroup_size(8)\n"
        "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
        "  v[id.x] = f32(id.x + 1u) / 9.0;\n"
        "}\n";
    spit(wgsl, src, strlen(src));
    const char *run =
        "{\"shaderModules\": {\"m\": {\"file\": \"sev.wgsl\"}},\n"
        " \"buffers\": {\"b\": {\"size\": 32, \"usage\": [\"STORAGE\", \"COPY_SRC\"]}},\n"
        " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},\n"
        " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\", \"group\": 0},\n"
        "   \"entries\": [{\"binding\": 0, \"resource\": {\"buffer\": \"b\"}}]}},\n"
        " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"],\n"
        "   \"workgroupCount\": [1, 1, 1]}}],\n"
        " \"outputs\": [{\"buffer\": \"b\", \"format\": \"r32float\", \"size\": [8, 1],\n"
        "   \"file\": \"sev.bin\"}]}\n";
    spit(dir_json, run, strlen(run));
    cli_result r = run_stex("run '%s' --golden allowed", dir_json);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "allowed: b: 8 values"));
    cli_free(&r);
    for (uint32_t x = 0; x < 8; x++) {
        float q = (float)((x + 1) / 9.0);
        perturbed(bin, "b-in.bin", x, step_float(q, 2), rb, sizeof rb);
        if (compare_code(bin, rb) != 0)
            fail_msg("word %u: %u/9 + 2 ULP refused", x, x + 1);
        perturbed(bin, "b-out.bin", x, step_float(q, -6), rb, sizeof rb);
        if (compare_code(bin, rb) != 1)
            fail_msg("word %u: %u/9 - 6 ULP accepted", x, x + 1);
    }
}

/* Where WGSL bounds no error the value is unconstrained, named by its
 * line: a quotient whose divisor lies outside [2^-126, 2^126] (1 / 0 at
 * x = 0), sin of an argument outside [-pi, pi] (100, 200, 300). */
static void test_run_unconstrained(void **state)
{
    (void)state;
    char wgsl[512], bin[512];
    path_in(wgsl, sizeof wgsl, "any.wgsl");
    path_in(bin, sizeof bin, "any.bin");
    const char *src =
        "@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;\n"
        "@compute @workgroup_size(4, 1)\n"
        "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
        "  let y = 1.0 / f32(id.x);\n"
        "  let s = sin(f32(id.x) * 100.0);\n"
        "  textureStore(out, vec2<i32>(id.xy), vec4<f32>(y + s, 0.0, 0.0, 1.0));\n"
        "}\n";
    spit(wgsl, src, strlen(src));
    cli_result r = run_stex("run '%s' --size 4x1 --out '%s' --golden allowed --json", wgsl, bin);
    CLI_EXPECT(r, 0, NULL);
    json_error_t e;
    json_t *o = json_loads(r.out, 0, &e);
    json_t *a = json_array_get(json_object_get(o, "allowed"), 0);
    assert_int_equal(json_integer_value(json_object_get(a, "unconstrained")), 4);
    json_t *why = json_object_get(a, "by_reason");
    assert_int_equal(json_array_size(why), 2);
    const char *r0 = json_string_value(json_object_get(json_array_get(why, 0), "reason"));
    const char *r1 = json_string_value(json_object_get(json_array_get(why, 1), "reason"));
    assert_non_null(strstr(r0, "any.wgsl:5")); /* sin: three texels, listed first */
    assert_int_equal(json_integer_value(json_object_get(json_array_get(why, 0), "values")), 3);
    assert_non_null(strstr(r1, "any.wgsl:4")); /* the division by 0 */
    json_decref(o);
    cli_free(&r);
    /* the readback's unconstrained values pass whatever they hold, counted */
    char rb[512];
    perturbed(bin, "any-rb.bin", 2, NAN, rb, sizeof rb);
    r = run_stex("compare '%s' '%s'", bin, rb);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "unconstrained: 4 values"));
    assert_non_null(strstr(r.out, "any.wgsl:5"));
    cli_free(&r);
}

/* What --golden allowed refuses, each by its rule (%s: a scratch file). */
static void test_run_refused(void **state)
{
    (void)state;
    char bin[512], png[512];
    path_in(bin, sizeof bin, "r.bin");
    path_in(png, sizeof png, "r.png");
    static const struct { const char *args; bool png; const char *why; } cases[] = {
        {"run decaer --size 8x8 --out '%s' --golden fuzzy", false, "--golden: 'fuzzy' is not"},
        {"run decaer --size 8x8 --out '%s' --golden allowed --executor c", false,
         "drop --executor c"},
        {"run decaer --size 8x8 --out '%s' --golden allowed --record-allowed", false,
         "give one of them"},
        {"run decaer --size 8x8 --out '%s' --golden allowed", true, "needs a .bin output"},
        {"run decaer --size 8x8 --out '%s' --golden allowed --race-check", false,
         "bounds do not cover"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1024];
        snprintf(args, sizeof args, cases[i].args, cases[i].png ? png : bin);
        cli_result r = run_stex("%s", args);
        if (r.code != 2 || !strstr(r.err, cases[i].why))
            fail_msg("'%s': exit %d, %s", args, r.code, r.err);
        cli_free(&r);
    }
    assert_int_equal(access(bin, F_OK), -1); /* nothing written */
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    make_golden();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inside),
        cmocka_unit_test(test_outside),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_run_wgsl),
        cmocka_unit_test(test_run_unorm),
        cmocka_unit_test(test_run_file_buffer),
        cmocka_unit_test(test_run_unconstrained),
        cmocka_unit_test(test_run_refused),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
