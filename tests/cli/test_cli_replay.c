/* Self-describing goldens (issue 12, items 12 and 16), through the built stex
 * binary: the sidecar records the run that made the golden, `stex run
 * --replay` makes it again byte for byte (or says why it may not), refuses a
 * record it cannot honour, and `--dump-input` writes the exact input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "io/sha256.h"
#include "stex/stex.h"

static json_t *load_json(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s", path, e.text);
    return j;
}

/* Sets the sidecar's run record's `key` to `value` (stolen); NULL value:
 * removes the whole run record. */
static void edit_run(const char *side, const char *key, json_t *value)
{
    json_t *j = load_json(side);
    if (value)
        json_object_set_new(json_object_get(j, "run"), key, value);
    else
        json_object_del(j, "run");
    assert_int_equal(json_dump_file(j, side, JSON_INDENT(2)), 0);
    json_decref(j);
}

static void expect_out(const cli_result *r, const char *text)
{
    if (!strstr(r->out, text))
        fail_msg("expected stdout to contain '%s', got:\n%s", text, r->out);
}

/* The sidecar records every option, the WGSL hash and the version; a
 * one-thread replay of a racy kernel gives the same bytes. */
static void test_record_and_replay(void **state)
{
    (void)state;
    char g[512], gs[600], again[512];
    path_in(g, sizeof g, "hot.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    path_in(again, sizeof again, "again.bin");
    cli_result r = run_stex("run difundir --size 24x20 --variant hot --iterations 3 --seed 5 "
                            "--threads 1 --visibility snapshot --profile lavapipe --executor c "
                            "--out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);

    json_t *j = load_json(gs), *run = json_object_get(j, "run");
    assert_true(json_is_object(run));
    assert_string_equal(json_string_value(json_object_get(run, "kernel")), "difundir");
    assert_int_equal(strlen(json_string_value(json_object_get(run, "wgsl_sha256"))), 64);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(run, "size"), 0)), 24);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(run, "size"), 1)), 20);
    assert_string_equal(json_string_value(json_object_get(run, "profile")), "lavapipe");
    assert_string_equal(json_string_value(json_object_get(run, "schedule")), "shuffled");
    assert_int_equal(json_integer_value(json_object_get(run, "seed")), 5);
    assert_int_equal(json_integer_value(json_object_get(run, "threads")), 1);
    assert_true(json_is_null(json_object_get(run, "subgroup_size"))); /* the C kernel */
    assert_string_equal(json_string_value(json_object_get(run, "executor")), "c");
    assert_string_equal(json_string_value(json_object_get(run, "visibility")), "snapshot");
    assert_string_equal(json_string_value(json_object_get(run, "oob_load")), "zero");
    assert_int_equal(json_integer_value(json_object_get(run, "iterations")), 3);
    assert_string_equal(json_string_value(json_object_get(run, "variant")), "hot");
    assert_true(json_is_null(json_object_get(run, "input")));
    assert_true(json_is_true(json_object_get(run, "deterministic")));
    assert_string_equal(json_string_value(json_object_get(j, "stex_version")), STEX_VERSION);
    json_decref(j);

    /* the WGSL hash is the hash of what --print-wgsl prints */
    r = run_stex("run difundir --print-wgsl");
    CLI_EXPECT(r, 0, NULL);
    char printed[65];
    io_sha256_of(r.out, strlen(r.out), printed);
    j = load_json(gs);
    const char *h = json_string_value(json_object_get(json_object_get(j, "run"), "wgsl_sha256"));
    if (strcmp(printed, h))
        fail_msg("wgsl_sha256 %s is not the SHA-256 of --print-wgsl's text, %s", h, printed);
    json_decref(j);
    cli_free(&r);

    r = run_stex("run --replay '%s' --out '%s'", gs, again);
    CLI_EXPECT(r, 0, NULL);
    expect_out(&r, "byte-identical");
    cli_free(&r);
    assert_true(same_file(g, again));

    /* the replay's own sidecar records the same run, so it replays too */
    char agains[600];
    snprintf(agains, sizeof agains, "%s.json", again);
    r = run_stex("run --replay '%s' --json", agains);
    CLI_EXPECT(r, 0, NULL);
    expect_out(&r, "\"identical\": true");
    expect_out(&r, "\"deterministic\": true");
    cli_free(&r);
}

/* A golden of the WGSL executor records it (and its sub-group width), and
 * its replay runs the WGSL again: the same bytes. */
static void test_replay_wgsl_executor(void **state)
{
    (void)state;
    char g[512], gs[600];
    path_in(g, sizeof g, "wgsl.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    cli_result r = run_stex("run box3x3-buffer --size 20x12 --executor wgsl --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    json_t *j = load_json(gs), *run = json_object_get(j, "run");
    assert_string_equal(json_string_value(json_object_get(run, "executor")), "wgsl");
    assert_int_equal(json_integer_value(json_object_get(run, "subgroup_size")), 64);
    json_decref(j);
    r = run_stex("run --replay '%s' --json", gs);
    CLI_EXPECT(r, 0, NULL);
    expect_out(&r, "\"executor\": \"wgsl\"");
    expect_out(&r, "\"identical\": true");
    cli_free(&r);
    edit_run(gs, "executor", json_string("fpga"));
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 2, "\"executor\"");
    cli_free(&r);
}

/* A record that does not describe the golden's bytes: the replay differs
 * and says so (exit 1). */
static void test_replay_differs(void **state)
{
    (void)state;
    char a[512], as[600], b[512], bs[600];
    path_in(a, sizeof a, "seed7.bin");
    snprintf(as, sizeof as, "%s.json", a);
    path_in(b, sizeof b, "seed8.bin");
    snprintf(bs, sizeof bs, "%s.json", b);
    cli_result r = run_stex("run difundir --size 16x16 --seed 7 --threads 1 --out '%s'", a);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run difundir --size 16x16 --seed 8 --threads 1 --out '%s'", b);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_false(same_file(a, b));
    edit_run(bs, "seed", json_integer(7)); /* seed8.bin's bytes, seed 7's record */
    r = run_stex("run --replay '%s'", bs);
    CLI_EXPECT(r, 1, NULL);
    expect_out(&r, "DIFFERS");
    cli_free(&r);
}

/* Several threads on a racy kernel: the replay says it may differ, and why;
 * a race-free kernel on several threads is deterministic. */
static void test_replay_not_deterministic(void **state)
{
    (void)state;
    char g[512], gs[600];
    path_in(g, sizeof g, "racy.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    cli_result r = run_stex("run difundir --size 16x16 --seed 2 --threads 2 --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    json_t *j = load_json(gs);
    assert_true(json_is_false(json_object_get(json_object_get(j, "run"), "deterministic")));
    json_decref(j);
    r = run_stex("run --replay '%s'", gs);
    if (r.code != 0 && r.code != 1)
        fail_msg("exit %d: %s", r.code, r.err);
    expect_out(&r, "may differ");
    expect_out(&r, "racy");
    expect_out(&r, "2 threads");
    cli_free(&r);

    r = run_stex("run decaer --size 16x16 --threads 2 --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 0, NULL);
    expect_out(&r, "byte-identical");
    if (strstr(r.out, "may differ"))
        fail_msg("a race-free kernel's replay is deterministic: %s", r.out);
    cli_free(&r);
}

/* Records the replay cannot honour are refused with a message. */
static void test_replay_refused(void **state)
{
    (void)state;
    char g[512], gs[600];
    path_in(g, sizeof g, "refused.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    cli_result r = run_stex("run decaer --size 16x16 --out '%s'", g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);

    edit_run(gs, "kernel", json_string("no-such-kernel"));
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 2, "kernel 'no-such-kernel', which this stex does not have");
    cli_free(&r);

    edit_run(gs, "kernel", json_string("decaer"));
    edit_run(gs, "wgsl_sha256", json_string("00000000000000000000000000000000"
                                            "00000000000000000000000000000000"));
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 2, "WGSL is not the one the golden was made from");
    cli_free(&r);

    edit_run(gs, NULL, NULL);
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 2, "no \"run\" record");
    cli_free(&r);

    /* the options come from the sidecar */
    r = run_stex("run --replay '%s' --threads 4", gs);
    CLI_EXPECT(r, 2, "--threads: the replay takes every option");
    cli_free(&r);
    r = run_stex("run --replay '%s'", g);
    CLI_EXPECT(r, 2, "X.bin.json");
    cli_free(&r);
}

/* --in files are recorded by hash; a replay refuses another file. */
static void test_replay_input_file(void **state)
{
    (void)state;
    char in[512], g[512], gs[600], other[512];
    path_in(in, sizeof in, "photo.png");
    path_in(other, sizeof other, "other.png");
    path_in(g, sizeof g, "blurred.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    cli_result r = run_stex("run generar --size 16x16 --out '%s'", in);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run generar --size 17x16 --out '%s'", other);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run blur --in '%s' --threads 1 --out '%s'", in, g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    json_t *j = load_json(gs), *input = json_object_get(json_object_get(j, "run"), "input");
    assert_string_equal(json_string_value(json_object_get(input, "path")), in);
    assert_int_equal(strlen(json_string_value(json_object_get(input, "sha256"))), 64);
    json_decref(j);
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 0, NULL);
    expect_out(&r, "byte-identical");
    cli_free(&r);
    /* another picture: refused by its hash */
    r = run_stex("run --replay '%s' --in '%s'", gs, other);
    CLI_EXPECT(r, 2, "is not the file the golden was made from");
    cli_free(&r);
    remove(in);
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 2, "photo.png', which is not there");
    cli_free(&r);
}

/* Item 16: --dump-input writes the exact input texture. */
static void test_dump_input(void **state)
{
    (void)state;
    char d[512], png[512], npy[512];
    path_in(d, sizeof d, "input.bin");
    path_in(png, sizeof png, "in.png");
    path_in(npy, sizeof npy, "in.npy");
    cli_result r = run_stex("run difundir --variant hot --size 9x7 --dump-input '%s'", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image img;
    assert_int_equal(stex_read_bin(d, &img, NULL), STEX_OK);
    assert_int_equal(img.format, STEX_FORMAT_R32FLOAT);
    assert_int_equal(img.width, 9);
    assert_int_equal(img.height, 7);
    for (uint32_t y = 0; y < 7; y++)
        for (uint32_t x = 0; x < 9; x++) {
            float v;
            memcpy(&v, stex_image_texel(&img, x, y, 0), 4);
            if (v != (x == 4 && y == 3 ? 1000.0f : 0.0f))
                fail_msg("texel (%u, %u) = %g", x, y, (double)v);
        }
    stex_image_free(&img);

    /* --in's texels, as the kernel takes them */
    r = run_stex("run generar --size 12x10 --out '%s'", png);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run blur --in '%s' --dump-input '%s'", png, npy);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image a, b;
    assert_int_equal(stex_read_png(png, &a), STEX_OK);
    assert_int_equal(stex_read_npy(npy, STEX_FORMAT_UNDEFINED, &b), STEX_OK);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    stex_image_free(&a);
    stex_image_free(&b);

    r = run_stex("run generar --dump-input '%s'", d);
    CLI_EXPECT(r, 2, "kernel generar takes no input image");
    cli_free(&r);
    r = run_stex("run decaer --dump-input '%s'", png);
    CLI_EXPECT(r, 2, "must end in .bin or .npy");
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_and_replay),
        cmocka_unit_test(test_replay_wgsl_executor),
        cmocka_unit_test(test_replay_differs),
        cmocka_unit_test(test_replay_not_deterministic),
        cmocka_unit_test(test_replay_refused),
        cmocka_unit_test(test_replay_input_file),
        cmocka_unit_test(test_dump_input),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
