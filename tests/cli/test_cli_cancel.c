/* Stopping stex's work: `--timeout SECONDS` on run and race (exit 124), and
 * SIGINT / SIGTERM sent to a running stex (exit 130 / 143), each within a
 * fraction of a second even inside a shader's endless loop, with the
 * message on stderr and every output left as it was (an existing golden
 * byte for byte; no new file). */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_exec.h"

/* Every invocation loops until n wraps around at 2^32 and i is 1000, which
 * no local index of an 8x8 workgroup is: an endless loop.  The step limit
 * is lifted (--max-steps 2^64 - 1), so only a stop ends it. */
static const char ENDLESS[] =
    "@group(0) @binding(0) var out_tex : texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id : vec3<u32>,\n"
    "        @builtin(local_invocation_index) i : u32) {\n"
    "  var n = 0u;\n"
    "  loop {\n"
    "    n = n + 1u;\n"
    "    if (n == 0u && i == 1000u) { break; }\n"
    "  }\n"
    "  textureStore(out_tex, vec2<i32>(id.xy), vec4<f32>(1.0));\n"
    "}\n";
static const char QUICK[] =
    "@group(0) @binding(0) var out_tex : texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
    "  textureStore(out_tex, vec2<i32>(id.xy), vec4<f32>(0.25, 0.5, 0.75, 1.0));\n"
    "}\n";
#define NO_LIMIT "--max-steps 18446744073709551615"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void write_file(const char *name, const char *text, char *path, size_t n)
{
    path_in(path, n, name);
    spit(path, text, strlen(text));
}

static bool exists(const char *path) { return access(path, F_OK) == 0; }

/* --timeout 1 on an endless shader: stops in about a second, exit 124,
 * the message, no output file (not even the sidecar). */
static void test_timeout_wgsl(void **state)
{
    (void)state;
    char shader[512], out[512], side[600];
    write_file("endless.wgsl", ENDLESS, shader, sizeof shader);
    path_in(out, sizeof out, "never.bin");
    snprintf(side, sizeof side, "%s.json", out);
    double t0 = now_s();
    cli_result r = run_stex("run '%s' --size 16x16 --out '%s' --timeout 1 " NO_LIMIT, shader, out);
    double took = now_s() - t0;
    CLI_EXPECT(r, 124, "stex: timeout: the work ran longer than --timeout 1 s");
    cli_free(&r);
    assert_true(took >= 1.0 && took < 2.5);
    assert_false(exists(out));
    assert_false(exists(side));

    /* race takes it too (several runs: the first one stops them all) */
    t0 = now_s();
    r = run_stex("race '%s' --size 16x16 --timeout 0.5 " NO_LIMIT, shader);
    took = now_s() - t0;
    CLI_EXPECT(r, 124, "--timeout 0.5 s");
    cli_free(&r);
    assert_true(took >= 0.5 && took < 2.0);

    /* a timeout that does not run out changes nothing */
    char quick[512], q[512];
    write_file("quick.wgsl", QUICK, quick, sizeof quick);
    path_in(q, sizeof q, "quick.bin");
    r = run_stex("run '%s' --size 16x16 --out '%s' --timeout 30", quick, q);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_true(exists(q));

    /* a value that is not a number of seconds: a usage error */
    r = run_stex("run '%s' --timeout 0", quick);
    CLI_EXPECT(r, 2, "--timeout 0: not a number of seconds");
    cli_free(&r);
    r = run_stex("run '%s' --timeout abc", quick);
    CLI_EXPECT(r, 2, "--timeout abc");
    cli_free(&r);
}

/* Starts `stex run SHADER --size 16x16 --out OUT NO_LIMIT` with stderr into
 * err_path; returns its pid. */
static pid_t start_stex(const char *shader, const char *out, const char *err_path)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        close(fd);
        execl(stex_bin(), stex_bin(), "run", shader, "--size", "16x16", "--out", out,
              "--max-steps", "18446744073709551615", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* A signal mid-run: the process exits promptly with 128 + the signal's
 * number and "stex: interrupted", and the golden it would have replaced
 * is byte for byte the one before. */
static void signal_leaves_golden(int sig, int want_code, const char *want_name)
{
    char shader[512], quick[512], golden[512], keep[512], err[512];
    write_file("endless.wgsl", ENDLESS, shader, sizeof shader);
    write_file("quick.wgsl", QUICK, quick, sizeof quick);
    path_in(golden, sizeof golden, "golden.bin");
    path_in(keep, sizeof keep, "golden-before.bin");
    path_in(err, sizeof err, "signal.err");
    cli_result r = run_stex("run '%s' --size 16x16 --out '%s'", quick, golden);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    size_t n;
    uint8_t *before = slurp(golden, &n);
    assert_non_null(before);
    spit(keep, before, n);
    free(before);

    pid_t pid = start_stex(shader, golden, err);
    struct timespec t = {0, 600 * 1000 * 1000}; /* well inside the endless loop */
    nanosleep(&t, NULL);
    double sent = now_s();
    assert_int_equal(kill(pid, sig), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    double took = now_s() - sent;
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), want_code);
    print_message("%s: stopped %.3f s after the signal\n", want_name, took);
    assert_true(took < 1.0);
    char *text = cli_slurp_text(err);
    char want[64];
    snprintf(want, sizeof want, "stex: interrupted (%s)", want_name);
    if (!strstr(text, want))
        fail_msg("stderr: %s", text);
    free(text);
    assert_true(same_file(golden, keep));
}

static void test_sigint(void **state)
{
    (void)state;
    signal_leaves_golden(SIGINT, 130, "SIGINT");
}

static void test_sigterm(void **state)
{
    (void)state;
    signal_leaves_golden(SIGTERM, 143, "SIGTERM");
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeout_wgsl),
        cmocka_unit_test(test_sigint),
        cmocka_unit_test(test_sigterm),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
