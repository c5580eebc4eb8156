/*
 * `stex run KERNEL` runs the kernel's WGSL and run file (src/kernels/wgsl)
 * through the interpreter; `--executor c` its hand-written C version.  The
 * two are independent implementations of one lesson program, so their
 * outputs must be the same bytes: for every race-free kernel under every
 * profile, in-order and shuffled schedules, one and two threads.  The racy
 * difundir has no single outcome: by default the interpreter runs 32 lanes
 * in lock step, the C kernel one invocation after another, both legal
 * orders.  It gives the C version's bytes where the two orders agree: one
 * lane at a time (--subgroup-size 1), workgroups and invocations in order,
 * one thread.  Elsewhere the race detector's verdict is compared: its counts
 * and the texels it flags do not depend on the order (docs/engine.md).  Then `stex race`
 * on a user's run file names both accesses' WGSL lines, and bad input gets
 * exit 2 and a message naming the file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "stex/stex.h"

static const char *const PROFILES[] = {"spec", "lavapipe", "nvidia"};
static const char *const SCHEDULES[] = {"--schedule in-order", "--seed 5"};

static void test_run_same_bytes(void **state)
{
    (void)state;
    for (size_t i = 0; i < stex_kernel_count(); i++) {
        const stex_kernel *k = stex_kernel_at(i);
        for (int p = 0; p < 3; p++)
            for (int s = 0; s < 2; s++)
                for (int t = 1; t <= 2; t++) {
                    /* racy: only where both executors run the same order */
                    if (k->racy && (s || t > 1))
                        continue;
                    char cp[512], wp[512];
                    snprintf(cp, sizeof cp, "%s/c.bin", cli_dir);
                    snprintf(wp, sizeof wp, "%s/w.bin", cli_dir);
                    /* 20x12: partial workgroups at both edges; 2 iterations */
                    const char *opts = "--size 20x12 --iterations 2";
                    /* (--force: the scratch files hold the last profile's bytes) */
                    cli_result r = run_stex("run %s %s --profile %s %s --threads %d --executor c "
                                            "--out '%s' --force", k->name, opts, PROFILES[p],
                                            SCHEDULES[s], t, cp);
                    CLI_EXPECT(r, 0, NULL);
                    cli_free(&r);
                    r = run_stex("run %s %s --profile %s %s --threads %d --out '%s' --force --json%s",
                                 k->name, opts, PROFILES[p], SCHEDULES[s], t, wp,
                                 k->racy ? " --subgroup-size 1" : "");
                    CLI_EXPECT(r, 0, NULL);
                    if (!strstr(r.out, "\"executor\": \"wgsl\""))
                        fail_msg("%s: the default executor is not wgsl: %s", k->name, r.out);
                    cli_free(&r);
                    if (!same_file(cp, wp))
                        fail_msg("%s, profile %s, %s, %d thread(s): the WGSL and C outputs "
                                 "differ", k->name, PROFILES[p], SCHEDULES[s], t);
                }
    }
}

/* `key` and its value in a one-line JSON text: a scalar up to the next ','
 * or '}', or an object up to its closing brace. */
static void json_field(const char *json, const char *key, char *out, size_t n)
{
    const char *at = strstr(json, key);
    if (!at) {
        out[0] = '\0';
        return;
    }
    const char *end = at + strlen(key);
    if (*end == '{') {
        end = strchr(end, '}');
        end = end ? end + 1 : at + strlen(at);
    } else {
        end += strcspn(end, ",}");
    }
    size_t len = (size_t)(end - at);
    snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), at);
}

static void test_race_agrees(void **state)
{
    (void)state;
    const char *keys[] = {"\"races\": ", "\"flagged_texels\": ", "\"input_heat\": "};
    for (size_t i = 0; i < stex_kernel_count(); i++) {
        const stex_kernel *k = stex_kernel_at(i);
        for (int t = 1; t <= 2; t++) {
            cli_result w = run_stex("race %s --size 16x16 --iterations 2 --runs 3 --threads %d "
                                    "--json", k->name, t);
            cli_result c = run_stex("race %s --size 16x16 --iterations 2 --runs 3 --threads %d "
                                    "--executor c --json", k->name, t);
            CLI_EXPECT(w, 0, NULL);
            CLI_EXPECT(c, 0, NULL);
            for (int f = 0; f < 3; f++) {
                char a[256], b[256];
                json_field(w.out, keys[f], a, sizeof a);
                json_field(c.out, keys[f], b, sizeof b);
                if (!a[0] || strcmp(a, b))
                    fail_msg("%s, %d thread(s): wgsl %s, c %s", k->name, t, a, b);
            }
            /* a race-free kernel: one output, the same as the C version's */
            if (!k->racy) {
                char a[256], b[256];
                json_field(w.out, "\"distinct_outputs\": ", a, sizeof a);
                json_field(c.out, "\"distinct_outputs\": ", b, sizeof b);
                assert_string_equal(a, "\"distinct_outputs\": 1");
                assert_string_equal(b, "\"distinct_outputs\": 1");
                json_field(w.out, "\"hash\": ", a, sizeof a);
                json_field(c.out, "\"hash\": ", b, sizeof b);
                assert_string_equal(a, b);
            } else if (!strstr(w.out, "\"total\": 512,") ||
                       !strstr(w.out, "\"flagged_texels\": 256")) {
                /* every texel is written by one invocation while a neighbour reads it:
                 * 256 racing locations a dispatch, two dispatches */
                fail_msg("difundir: %s", w.out);
            }
            cli_free(&w);
            cli_free(&c);
        }
    }
}

static void write_file(const char *name, const char *text, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", cli_dir, name);
    spit(path, text, strlen(text));
}

/* Every invocation reads texel (0, 0) (line 5) that invocation (0, 0)
 * writes (line 6): one read-write race, the two sites in the report. */
static const char RACY_WGSL[] =
    "@group(0) @binding(0) var t : texture_storage_2d<r32float, read_write>;\n"
    "\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
    "  let v = textureLoad(t, vec2<i32>(0, 0)).r;\n"
    "  textureStore(t, vec2<i32>(id.xy), vec4<f32>(v + 1.0, 0.0, 0.0, 0.0));\n"
    "}\n";

static const char RACY_RUN[] =
    "{\"shaderModules\": {\"m\": {\"file\": \"racy.wgsl\"}},\n"
    " \"textures\": {\"t\": {\"size\": [16, 16], \"format\": \"r32float\",\n"
    "                      \"usage\": [\"STORAGE_BINDING\", \"COPY_SRC\"]}},\n"
    " \"views\": {\"v\": {\"texture\": \"t\"}},\n"
    " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},\n"
    " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\", \"group\": 0},\n"
    "                        \"entries\": [{\"binding\": 0, \"resource\": \"v\"}]}},\n"
    " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"],\n"
    "                                     \"workgroupCount\": [2, 2, 1]}}],\n"
    " \"outputs\": [{\"texture\": \"t\", \"file\": \"never.bin\"}]}\n";

static void test_race_run_file(void **state)
{
    (void)state;
    char wgsl[512], run[512], never[512], png[512];
    write_file("racy.wgsl", RACY_WGSL, wgsl, sizeof wgsl);
    write_file("racy.json", RACY_RUN, run, sizeof run);
    path_in(never, sizeof never, "never.bin");
    path_in(png, sizeof png, "race.png");
    cli_result r = run_stex("race '%s' --runs 4 --threads 1 --png '%s'", run, png);
    CLI_EXPECT(r, 0, NULL);
    if (!strstr(r.out, "1 racing location (read-write 1, write-write 0)") ||
        !strstr(r.out, "t (@group(0) @binding(0)) texel (0, 0)") ||
        !strstr(r.out, "  write at ") || !strstr(r.out, "racy.wgsl:6:") ||
        !strstr(r.out, "  read  at ") || !strstr(r.out, "racy.wgsl:5:"))
        fail_msg("the race report does not name both lines: %s", r.out);
    cli_free(&r);
    assert_true(access(png, F_OK) == 0);
    assert_true(access(never, F_OK) != 0); /* a study writes no outputs */
    /* the same shader as a WGSL file: the same race */
    r = run_stex("race '%s' --size 16x16 --runs 2 --json", wgsl);
    CLI_EXPECT(r, 0, NULL);
    if (!strstr(r.out, "\"races\": {\"total\": 1, \"write_write\": 0, \"read_write\": 1,"))
        fail_msg("%s", r.out);
    cli_free(&r);
}

static void test_errors(void **state)
{
    (void)state;
    char missing[512], bad[512], none[512], wgsl[512];
    path_in(missing, sizeof missing, "missing.json");
    cli_result r = run_stex("race '%s'", missing);
    CLI_EXPECT(r, 2, "missing.json");
    cli_free(&r);
    write_file("bad.json", "{\"steps\": [", bad, sizeof bad);
    r = run_stex("race '%s' --runs 2", bad);
    CLI_EXPECT(r, 2, "malformed JSON");
    cli_free(&r);
    r = run_stex("race '%s' --executor c", bad);
    CLI_EXPECT(r, 2, "--executor: not for a run file");
    cli_free(&r);
    /* a run file without outputs: nothing to compare */
    write_file("racy.wgsl", RACY_WGSL, wgsl, sizeof wgsl);
    write_file("none.json",
               "{\"shaderModules\": {\"m\": {\"file\": \"racy.wgsl\"}}, \"steps\": []}", none,
               sizeof none);
    r = run_stex("race '%s' --runs 2", none);
    CLI_EXPECT(r, 2, "no \"outputs\"");
    cli_free(&r);
    /* a shader the device refuses: exit 1, the diagnostic with its line */
    char broken[512], brokenw[512];
    write_file("broken.wgsl",
               "@group(0) @binding(0) var t : texture_storage_2d<r32float, write>;\n"
               "@compute @workgroup_size(8, 8)\n"
               "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
               "  let a : f32 = id.x;\n"
               "}\n", brokenw, sizeof brokenw);
    write_file("broken.json",
               "{\"shaderModules\": {\"m\": {\"file\": \"broken.wgsl\"}},\n"
               " \"pipelines\": {\"p\": {\"layout\": \"auto\",\n"
               "                       \"compute\": {\"module\": \"m\"}}}}\n",
               broken, sizeof broken);
    r = run_stex("race '%s' --runs 2", broken);
    CLI_EXPECT(r, 1, "broken.wgsl:4:");
    cli_free(&r);
    r = run_stex("race decaer --executor rust");
    CLI_EXPECT(r, 2, "unknown executor 'rust'");
    cli_free(&r);
    r = run_stex("run difundir --size 8x8 --executor c --subgroup-size 1");
    CLI_EXPECT(r, 2, "--subgroup-size: for the WGSL executor only");
    cli_free(&r);
    r = run_stex("race difundir --size 8x8 --executor c --max-steps 100");
    CLI_EXPECT(r, 2, "for the WGSL executor only");
    cli_free(&r);
    r = run_stex("run decaer --size 8x8 --executor c --json");
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "\"executor\": \"c\""));
    cli_free(&r);
}

/* A golden of the racy kernel made one lane at a time records its sub-group
 * width, and the replay (WGSL again, that width) gives the same bytes,
 * which are the C version's (in order, one thread). */
static void test_replay_subgroup(void **state)
{
    (void)state;
    char g[512], gs[600], c[512];
    path_in(g, sizeof g, "sg1.bin");
    path_in(c, sizeof c, "sg1-c.bin");
    snprintf(gs, sizeof gs, "%s.json", g);
    cli_result r = run_stex("run difundir --size 16x8 --threads 1 --subgroup-size 1 --out '%s'",
                            g);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    char *side = cli_slurp_text(gs);
    if (!strstr(side, "\"subgroup_size\": 1") || !strstr(side, "\"executor\": \"wgsl\""))
        fail_msg("the sidecar does not record the executor and width: %s", side);
    free(side);
    r = run_stex("run --replay '%s'", gs);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "byte-identical"));
    cli_free(&r);
    r = run_stex("run difundir --size 16x8 --threads 1 --executor c --out '%s'", c);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_true(same_file(g, c));
}

/* The dispatches of a --print-run: "bind group/pipeline [x, y, z]" each. */
static void dispatches_of(const char *args, char out[][64], size_t *n, json_t **root)
{
    cli_result r = run_stex("run %s --print-run", args);
    CLI_EXPECT(r, 0, NULL);
    json_error_t e;
    json_t *j = json_loads(r.out, 0, &e);
    if (!j)
        fail_msg("--print-run is not JSON (%s): %s", e.text, r.out);
    cli_free(&r);
    json_t *steps = json_object_get(j, "steps");
    *n = json_array_size(steps);
    for (size_t i = 0; i < *n && i < 8; i++) {
        json_t *d = json_object_get(json_array_get(steps, i), "dispatchWorkgroups");
        json_t *c = json_object_get(d, "workgroupCount");
        snprintf(out[i], 64, "%s/%s [%lld, %lld, %lld]",
                 json_string_value(json_array_get(json_object_get(d, "bindGroups"), 0)),
                 json_string_value(json_object_get(d, "pipeline")),
                 (long long)json_integer_value(json_array_get(c, 0)),
                 (long long)json_integer_value(json_array_get(c, 1)),
                 (long long)json_integer_value(json_array_get(c, 2)));
    }
    *root = j;
}

/* How the options map onto a kernel's run file (docs/kernels.md): the size
 * into every texture and buffer, ceil(size / 8) workgroups of 8x8, the
 * iterations into the steps the lesson's program submits. */
static void test_print_run(void **state)
{
    (void)state;
    char d[8][64];
    size_t n;
    json_t *j;
    /* the ping-pong alternates: a -> b, b -> a, a -> b */
    dispatches_of("difundir-pingpong --size 20x12 --iterations 3", d, &n, &j);
    assert_int_equal(n, 3);
    assert_string_equal(d[0], "a_to_b/difundir [3, 2, 1]");
    assert_string_equal(d[1], "b_to_a/difundir [3, 2, 1]");
    assert_string_equal(d[2], "a_to_b/difundir [3, 2, 1]");
    json_t *size = json_object_get(json_object_get(json_object_get(j, "textures"), "b"), "size");
    assert_int_equal(json_integer_value(json_array_get(size, 0)), 20);
    assert_int_equal(json_integer_value(json_array_get(size, 1)), 12);
    json_decref(j);
    /* blur: the source is blurred once, later iterations blur the result */
    dispatches_of("blur --size 17x9 --iterations 2", d, &n, &j);
    assert_int_equal(n, 4);
    assert_string_equal(d[0], "source_to_tmp/blur [3, 2, 1]");
    assert_string_equal(d[1], "tmp_to_out/blur [3, 2, 1]");
    assert_string_equal(d[2], "out_to_tmp/blur [3, 2, 1]");
    assert_string_equal(d[3], "tmp_to_out/blur [3, 2, 1]");
    json_decref(j);
    /* histogram: the harness's 262144 points, 64 an invocation group, each
     * iteration accumulating, one present at the end; dims = the size */
    dispatches_of("histogram --size 64x32 --iterations 2", d, &n, &j);
    assert_int_equal(n, 3);
    assert_string_equal(d[0], "acumular/acumular [4096, 1, 1]");
    assert_string_equal(d[1], "acumular/acumular [4096, 1, 1]");
    assert_string_equal(d[2], "presentar/presentar [8, 4, 1]");
    json_t *buffers = json_object_get(j, "buffers");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(buffers, "puntos"), "size")),
                     262144 * 8);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(buffers, "acumulador"),
                                                        "size")), 64 * 32 * 4);
    json_t *dims = json_object_get(json_object_get(json_object_get(buffers, "dims"), "contents"),
                                   "u32");
    assert_int_equal(json_integer_value(json_array_get(dims, 0)), 64);
    assert_int_equal(json_integer_value(json_array_get(dims, 1)), 32);
    json_decref(j);
    cli_result r = run_stex("run examples/run/decaer.json --print-run");
    CLI_EXPECT(r, 2, "--print-run: not for a run file");
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_same_bytes),
        cmocka_unit_test(test_race_agrees),
        cmocka_unit_test(test_race_run_file),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_replay_subgroup),
        cmocka_unit_test(test_print_run),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
