/* stex race and stex demo end to end: the racy kernel gives several outputs
 * and races, its fix gives one output and none; the picture has the promised
 * shape; the demo finishes in time and writes its picture where told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
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
    /* run | run | heat map with 4-pixel gaps, drawn 4x for a 32-texel width */
    assert_int_equal(img.width, (3 * 32 + 8) * 4);
    assert_int_equal(img.height, 32 * 4);
    stex_image_free(&img);
    remove(png);
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
        cmocka_unit_test(test_race_progress_on_tty),
        cmocka_unit_test(test_race_errors),   cmocka_unit_test(test_demo),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
