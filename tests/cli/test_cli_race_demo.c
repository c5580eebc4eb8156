/* stex race and stex demo end to end: the racy kernel gives several outputs
 * and races, its fix gives one output and none; the picture has the promised
 * shape; the demo finishes in time and writes its picture where told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <time.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "stex/stex.h"

static json_t *parse(const cli_result *r)
{
    json_error_t je;
    json_t *j = json_loads(r->out, 0, &je);
    if (!j)
        fail_msg("stdout is not JSON: %s", r->out);
    return j;
}

static void test_race_difundir(void **state)
{
    (void)state;
    char png[512];
    snprintf(png, sizeof png, "%s/race.png", cli_dir);
    cli_result r = run_stex("race difundir --size 32x32 --runs 8 --threads 2 --png '%s' --json",
                            png);
    CLI_EXPECT(r, 0, NULL);
    json_t *j = parse(&r);
    /* the detector's verdict: every interior texel is read by a neighbour in
     * another invocation that writes it: races exist whatever the schedule */
    json_t *races = json_object_get(j, "races");
    assert_true(json_integer_value(json_object_get(races, "read_write")) > 0);
    assert_int_equal(json_integer_value(json_object_get(j, "runs")), 8);
    json_int_t distinct = json_integer_value(json_object_get(j, "distinct_outputs"));
    assert_true(distinct >= 1 && distinct <= 8);
    json_int_t sum = 0;
    json_t *outs = json_object_get(j, "outputs");
    for (size_t i = 0; i < json_array_size(outs); i++)
        sum += json_integer_value(json_object_get(json_array_get(outs, i), "runs"));
    assert_int_equal(sum, 8);
    assert_int_equal((json_int_t)json_array_size(outs), distinct);
    /* every texel that differs between runs is one the detector flagged */
    assert_int_equal(json_integer_value(json_object_get(j, "texels_differing")),
                     json_integer_value(json_object_get(j, "differing_and_flagged")));
    json_decref(j);
    cli_free(&r);
    stex_image img;
    assert_int_equal(stex_read_png(png, &img), STEX_OK);
    /* run | run | heat map with 4-texel gaps, drawn 4x for a 32-texel width,
     * and a caption band under them */
    assert_int_equal(img.width, (3 * 32 + 8) * 4);
    assert_true(img.height > 32 * 4);
    stex_image_free(&img);
    remove(png);
}


/* The texels of `stex run difundir --variant hot --executor E` at SIZE,
 * seed S of the interleaved schedule (stex race's default), one thread:
 * what stex race's run with that seed and executor gives (r32float). */
static float *hot_run(const char *size, uint64_t seed, const char *executor, uint32_t *w,
                      uint32_t *h, double *heat)
{
    char bin[512];
    snprintf(bin, sizeof bin, "%s/hot-%llu.bin", cli_dir, (unsigned long long)seed);
    cli_result r = run_stex("run difundir --variant hot --size %s --threads 1 --seed %llu "
                            "--schedule interleaved --executor %s --out '%s'", size, (unsigned long long)seed, executor,
                            bin);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image img;
    assert_int_equal(stex_read_bin(bin, &img, NULL), STEX_OK);
    float *v = malloc((size_t)img.width * img.height * sizeof *v);
    *heat = 0;
    for (uint32_t y = 0; y < img.height; y++)
        for (uint32_t x = 0; x < img.width; x++) {
            memcpy(&v[y * img.width + x], stex_image_texel(&img, x, y, 0), 4);
            *heat += v[y * img.width + x];
        }
    *w = img.width;
    *h = img.height;
    stex_image_free(&img);
    remove(bin);
    return v;
}

/* Item 15: both runs on one intensity scale (each pixel is its texel's value
 * on the shared [min, max]), captions under them, --scale, each run's total
 * heat in the report. */
static void test_race_picture_one_scale(void **state)
{
    (void)state;
    char png[512];
    snprintf(png, sizeof png, "%s/scale.png", cli_dir);
    cli_result r = run_stex("race difundir --variant hot --size 32x32 --runs 2 --seed 3 "
                            "--threads 1 --scale 3 --png '%s' --json", png);
    CLI_EXPECT(r, 0, NULL);
    json_t *j = parse(&r);
    cli_free(&r);
    uint32_t w, h;
    double heat_a, heat_b;
    float *a = hot_run("32x32", 3, "wgsl", &w, &h, &heat_a);
    float *b = hot_run("32x32", 4, "wgsl", &w, &h, &heat_b);
    /* the report's heat is each run's sum of texels; the input holds 1000 */
    json_t *heat = json_object_get(j, "heat_per_run");
    assert_int_equal(json_array_size(heat), 2);
    assert_true(fabs(json_number_value(json_array_get(heat, 0)) - heat_a) < 1e-3 * heat_a);
    assert_true(fabs(json_number_value(json_array_get(heat, 1)) - heat_b) < 1e-3 * heat_b);
    assert_true(json_number_value(json_object_get(j, "input_heat")) == 1000.0);
    json_decref(j);

    float lo = a[0], hi = a[0];
    for (size_t i = 0; i < (size_t)w * h; i++) {
        lo = fminf(lo, fminf(a[i], b[i]));
        hi = fmaxf(hi, fmaxf(a[i], b[i]));
    }
    stex_image img;
    assert_int_equal(stex_read_png(png, &img), STEX_OK);
    assert_int_equal(img.width, (3 * 32 + 8) * 3);
    assert_true(img.height > 32 * 3); /* the caption band */
    int max_px[2] = {0, 0};
    for (int panel = 0; panel < 2; panel++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                const float *v = panel ? b : a;
                int want = (int)lround((v[y * w + x] - lo) / (hi - lo) * 255);
                const uint8_t *p = stex_image_texel(&img, panel * (w + 4) * 3 + x * 3 + 1,
                                                    y * 3 + 1, 0);
                if (abs(p[0] - want) > 1)
                    fail_msg("panel %d texel (%u, %u): pixel %d, on the shared scale %d", panel,
                             x, y, p[0], want);
                max_px[panel] = p[0] > max_px[panel] ? p[0] : max_px[panel];
            }
    /* the two runs peak differently: only the brighter one reaches white */
    assert_true((max_px[0] == 255) != (max_px[1] == 255));
    /* the caption: light text on the band under the panels */
    int lit = 0;
    for (uint32_t y = 32 * 3; y < img.height; y++)
        for (uint32_t x = 0; x < img.width; x++)
            lit += stex_image_texel(&img, x, y, 0)[0] > 200;
    assert_true(lit > 100);
    stex_image_free(&img);
    free(a);
    free(b);

    r = run_stex("race difundir --variant hot --size 32x32 --runs 2 --seed 3 --threads 1");
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "total heat"));
    assert_non_null(strstr(r.out, "the input holds 1000"));
    assert_non_null(strstr(r.out, "not conserved"));
    cli_free(&r);
    /* heat means nothing for a reduction or any other shader (issue 25) */
    r = run_stex("race '%s/race-shaders/reduce.json' --runs 2 --threads 1",
                 getenv("STEX_TEST_DATA") ? getenv("STEX_TEST_DATA") : "tests/data");
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "distinct outputs"));
    assert_null(strstr(r.out, "heat"));
    cli_free(&r);
    r = run_stex("race decaer --size 16x16 --runs 2 --threads 1");
    CLI_EXPECT(r, 0, NULL);
    assert_null(strstr(r.out, "total heat"));
    cli_free(&r);
    remove(png);
}

/* A run that lost the hot texel entirely is labelled degenerate. */
static void test_race_degenerate(void **state)
{
    (void)state;
    uint32_t w, h;
    double heat;
    /* the C version's seed 1 of the hot variant at 64x64 ends all zero (its
     * invocations, run one after another, carry the heat off) */
    free(hot_run("64x64", 1, "c", &w, &h, &heat));
    assert_true(heat == 0);
    cli_result r = run_stex("race difundir --variant hot --size 64x64 --runs 3 --threads 1 "
                            "--executor c --json");
    CLI_EXPECT(r, 0, NULL);
    json_t *j = parse(&r);
    json_t *first = json_array_get(json_object_get(j, "outputs"), 0);
    assert_int_equal(json_integer_value(json_object_get(first, "first_seed")), 1);
    assert_true(json_is_true(json_object_get(first, "degenerate")));
    assert_true(json_number_value(json_object_get(first, "total_heat")) == 0);
    json_decref(j);
    cli_free(&r);
    r = run_stex("race difundir --variant hot --size 64x64 --runs 3 --threads 1 --executor c");
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "(first seed 1) - degenerate: every texel the same"));
    cli_free(&r);
}

/* --frames: one frame per dispatch of the first run, one scale for all. */
static void test_race_frames(void **state)
{
    (void)state;
    char png[512];
    snprintf(png, sizeof png, "%s/frames.png", cli_dir);
    cli_result r = run_stex("race difundir --variant hot --size 16x16 --runs 1 --iterations 10 "
                            "--threads 1 --scale 2 --frames '%s'", png);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "one frame per dispatch"));
    cli_free(&r);
    stex_image img;
    assert_int_equal(stex_read_png(png, &img), STEX_OK);
    /* 8 frames a row: two rows for 10 */
    assert_int_equal(img.width, (8 * 16 + 7 * 4) * 2);
    assert_true(img.height > (2 * 16 + 4) * 2);
    /* frame 1 holds the peak (white); the heat spreads, so frame 10 is dimmer */
    int peak[2] = {0, 0};
    for (int f = 0; f < 2; f++) {
        uint32_t x0 = f ? (1 * (16 + 4)) * 2 : 0, y0 = f ? (16 + 4) * 2 : 0;
        for (uint32_t y = 0; y < 32; y++)
            for (uint32_t x = 0; x < 32; x++) {
                int v = stex_image_texel(&img, x0 + x, y0 + y, 0)[0];
                peak[f] = v > peak[f] ? v : peak[f];
            }
    }
    assert_int_equal(peak[0], 255);
    assert_true(peak[1] < 128);
    stex_image_free(&img);
    remove(png);
    /* one dispatch: a frame at the end of each workgroup's phase (issue 25:
     * it was one frame) - 16x16 is 4 workgroups of 8x8 without barriers,
     * so 4 frames and the dispatch done, in one row */
    r = run_stex("race difundir --variant hot --size 16x16 --runs 1 --iterations 1 "
                 "--threads 1 --scale 8 --frames '%s'", png);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "a frame at the end of each barrier phase"));
    cli_free(&r);
    assert_int_equal(stex_read_png(png, &img), STEX_OK);
    assert_int_equal(img.width, (5 * 16 + 4 * 4) * 8);
    stex_image_free(&img);
    remove(png);
    r = run_stex("race difundir --scale 0 --png '%s'", png);
    CLI_EXPECT(r, 2, "--scale");
    cli_free(&r);
    /* pictures too large are refused before anything runs */
    r = run_stex("race difundir --iterations 65 --frames '%s'", png);
    CLI_EXPECT(r, 2, "--frames: at most 64 dispatches");
    cli_free(&r);
    r = run_stex("race difundir --size 2048x2048 --scale 64 --png '%s'", png);
    CLI_EXPECT(r, 2, "the picture would be");
    cli_free(&r);
    assert_int_equal(access(png, F_OK), -1);
}

static void test_race_pingpong(void **state)
{
    (void)state;
    cli_result r = run_stex("race difundir-pingpong --size 32x32 --runs 6 --json");
    CLI_EXPECT(r, 0, NULL);
    json_t *j = parse(&r);
    assert_int_equal(json_integer_value(json_object_get(j, "distinct_outputs")), 1);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "races"), "total")), 0);
    assert_int_equal(json_integer_value(json_object_get(j, "texels_differing")), 0);
    json_decref(j);
    cli_free(&r);
    /* piped: no progress bar on stderr */
    r = run_stex("race difundir-pingpong --size 16x16 --runs 3");
    CLI_EXPECT(r, 0, NULL);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "distinct outputs: 1"));
    cli_free(&r);
}

/* On a terminal (script(1) provides one) the progress bar shows. */
static void test_race_progress_on_tty(void **state)
{
    (void)state;
    if (system("command -v script >/dev/null 2>&1") != 0) {
        printf("script(1) not found: progress bar on a terminal not checked\n");
        return;
    }
    char cmd[2048], out[512];
    snprintf(out, sizeof out, "%s/tty.txt", cli_dir);
    snprintf(cmd, sizeof cmd,
             "script -qec \"'%s' race difundir-pingpong --size 8x8 --runs 3\" /dev/null > '%s'",
             stex_bin(), out);
    assert_int_equal(system(cmd), 0);
    char *text = cli_slurp_text(out);
    assert_non_null(strstr(text, "run 2/3 ["));
    assert_non_null(strstr(text, "distinct outputs: 1"));
    free(text);
    remove(out);
}

static void test_race_errors(void **state)
{
    (void)state;
    static const struct { const char *args; const char *msg; } cases[] = {
        {"race", "missing KERNEL"},
        {"race nosuch", "unknown kernel"},
        {"race difundir --runs 0", "--runs"},
        {"race difundir --runs many", "--runs"},
        {"race difundir --png out.gif", ".png"},
        {"race difundir --size 0x0", "--size"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = run_stex("%s", cases[i].args);
        if (r.code != 2 || !strstr(r.err, cases[i].msg))
            fail_msg("`stex %s`: exit %d, stderr '%s'; expected 2 and '%s'", cases[i].args, r.code,
                     r.err, cases[i].msg);
        cli_free(&r);
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_demo(void **state)
{
    (void)state;
    double t0 = now_s();
    cli_result r = run_stex("demo --out-dir '%s'", cli_dir);
    double s = now_s() - t0;
    CLI_EXPECT(r, 0, NULL);
    static const char *const expect[] = {
        "rgba8unorm", "texture-formats-tier2", "65520", "lavapipe", "nvidia", "rgba8uint",
        "r32float", "bgra8unorm read-only", "cube", "VERTEX", "readonly_and_readwrite_storage_textures",
        "distinct outputs", "race detector", "stex-demo-race.png",
    };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        if (!strstr(r.out, expect[i]))
            fail_msg("demo output lacks '%s'", expect[i]);
    cli_free(&r);
    char png[512];
    snprintf(png, sizeof png, "%s/stex-demo-race.png", cli_dir);
    stex_image img;
    assert_int_equal(stex_read_png(png, &img), STEX_OK);
    stex_image_free(&img);
    remove(png);
    /* 10 s is the promise on 2 cores; sanitizer builds get more room */
    const char *asan = getenv("ASAN_OPTIONS");
    (void)asan;
    if (s > 30.0)
        fail_msg("stex demo took %.1f s", s);
    printf("stex demo: %.2f s\n", s);
    /* a named path, and an unwritable directory */
    snprintf(png, sizeof png, "%s/named.png", cli_dir);
    r = run_stex("demo --png '%s' --runs 3", png);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_int_equal(access(png, F_OK), 0);
    remove(png);
    r = run_stex("demo --out-dir /nonexistent-stex-dir");
    CLI_EXPECT(r, 2, "/nonexistent-stex-dir");
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_difundir), cmocka_unit_test(test_race_pingpong),
        cmocka_unit_test(test_race_picture_one_scale), cmocka_unit_test(test_race_degenerate),
        cmocka_unit_test(test_race_frames),
        cmocka_unit_test(test_race_progress_on_tty),
        cmocka_unit_test(test_race_errors),   cmocka_unit_test(test_demo),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
