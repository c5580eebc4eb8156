/* `stex run FILE.json` and `stex race FILE.json`: a run file names only
 * files inside its own folder unless --allow-paths DIR allows another; the
 * files the command line itself names (a WGSL file, --out) are the user's
 * and stay free.  And run's and race's numeric options given hostile
 * values: each a usage error naming the option, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_exec.h"

static char run_dir[400], other[400];

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* run_dir/NAME.json: a buffer's contents from `input`, its bytes written to `output`. */
static void make_run(char *path, size_t n, const char *name, const char *input, const char *output)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"buffers\": {\"b\": {\"size\": 16, \"usage\": [\"COPY_SRC\"], \"contents\": {\"file\": \"%s\"}}},"
             " \"outputs\": [{\"buffer\": \"b\", \"format\": \"r32uint\", \"size\": [2, 2], \"file\": \"%s\"}]}",
             input, output);
    snprintf(path, n, "%s/%s.json", run_dir, name);
    write_text(path, text);
}

static void test_run_file_paths(void **state)
{
    (void)state;
    char json[600], path[600];
    /* reading the file above the run file's folder: refused, named */
    make_run(json, sizeof json, "up", "../outside.bin", "out.npy");
    cli_result r = run_stex("run '%s'", json);
    CLI_EXPECT(r, 2, "$.buffers.b.contents.file: file '../outside.bin' is outside the run file's folder");
    assert_non_null(strstr(r.err, "--allow-paths DIR"));
    cli_free(&r);
    r = run_stex("race '%s' --runs 2", json);
    CLI_EXPECT(r, 2, "through '..'");
    cli_free(&r);
    /* allowed: it runs, and its output lands inside */
    r = run_stex("run '%s' --allow-paths '%s'", json, cli_dir);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    snprintf(path, sizeof path, "%s/out.npy", run_dir);
    assert_int_equal(access(path, F_OK), 0);
    r = run_stex("race '%s' --runs 2 --allow-paths '%s' --allow-paths '%s'", json, other, cli_dir);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* writing above the folder: refused before anything runs, nothing written */
    make_run(json, sizeof json, "down", "inside.bin", "../other/x.bin");
    r = run_stex("run '%s'", json);
    CLI_EXPECT(r, 2, "$.outputs[0].file: file '../other/x.bin' is outside");
    cli_free(&r);
    snprintf(path, sizeof path, "%s/x.bin", other);
    assert_int_not_equal(access(path, F_OK), 0);
    r = run_stex("run '%s' --allow-paths '%s'", json, other);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_int_equal(access(path, F_OK), 0);
    /* through a link in the folder */
    make_run(json, sizeof json, "link", "up-link/outside.bin", "out.npy");
    r = run_stex("run '%s'", json);
    CLI_EXPECT(r, 2, "through a symbolic link");
    cli_free(&r);
}

/* --allow-paths: a folder that exists, for run files only. */
static void test_allow_paths_option(void **state)
{
    (void)state;
    char json[600];
    make_run(json, sizeof json, "plain", "inside.bin", "plain.npy");
    cli_result r = run_stex("run '%s' --allow-paths '%s/none'", json, cli_dir);
    CLI_EXPECT(r, 2, "--allow-paths: '");
    assert_non_null(strstr(r.err, "/none' is not a folder"));
    cli_free(&r);
    r = run_stex("run '%s' --allow-paths ''", json);
    CLI_EXPECT(r, 2, "--allow-paths: '' is not a folder");
    cli_free(&r);
    r = run_stex("run '%s' --allow-paths '%s'", json, json);
    CLI_EXPECT(r, 2, "is not a folder");
    cli_free(&r);
    r = run_stex("run decaer --allow-paths /tmp");
    CLI_EXPECT(r, 2, "--allow-paths: only for a run file");
    cli_free(&r);
    r = run_stex("race decaer --allow-paths /tmp");
    CLI_EXPECT(r, 2, "--allow-paths: only for a run file");
    cli_free(&r);
}

/* `stex run FILE.wgsl`: its run file is made from the command line, whose
 * names - the shader above the current folder, an absolute --out - are
 * the user's own. */
static void test_command_line_names_free(void **state)
{
    (void)state;
    char shader[600], out[600];
    snprintf(shader, sizeof shader, "%s/fill.wgsl", other);
    write_text(shader, "@group(0) @binding(0) var t: texture_storage_2d<rgba8unorm, write>;\n"
                       "@compute @workgroup_size(8, 8) fn main(@builtin(global_invocation_id) g: vec3u) {\n"
                       "  textureStore(t, g.xy, vec4f(1.0));\n}\n");
    snprintf(out, sizeof out, "%s/fill.png", other);
    cli_result r = run_stex("run '%s' --size 8x8 --out '%s'", shader, out);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_int_equal(access(out, F_OK), 0);
    r = run_stex("race '%s' --size 8x8 --runs 2", shader);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* and the built-in kernels (their files live in the binary) */
    snprintf(out, sizeof out, "%s/decaer.bin", other);
    r = run_stex("run decaer --size 16x16 --out '%s'", out);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
}

/* Hostile numbers for run's and race's options: usage errors (exit 2)
 * naming the option, before anything runs. */
static void test_hostile_option_values(void **state)
{
    (void)state;
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"run decaer --threads 0", "--threads: expected 1..1024, got '0'"},
        {"run decaer --threads -1", "--threads: '-1' is not a decimal integer"},
        {"run decaer --threads 99999999999", "--threads: 99999999999 is larger than 4294967295"},
        {"run decaer --threads ''", "--threads: '' is not a decimal integer"},
        {"run decaer --seed 18446744073709551616", "--seed: '18446744073709551616' is too large"},
        {"run decaer --size 0x0", "--size: expected W, WxH or WxHxL"},
        {"run decaer --size 4294967296x1", "--size: expected W, WxH or WxHxL"},
        {"run decaer --size 4294967295x4294967295", "over maxTextureDimension2D"},
        {"run decaer --iterations 100001", "--iterations: expected 1..100000"},
        {"run decaer --max-steps 1e9", "--max-steps: '1e9' is not a decimal integer"},
        {"run decaer --subgroup-size 65", "--subgroup-size: expected 1..64"},
        {"race decaer --runs 0", "--runs: expected 1..100000"},
        {"race decaer --runs 4294967296", "--runs: 4294967296 is larger than"},
        {"race decaer --scale 0", "--scale: expected 1..64"},
        {"race decaer --size 8192x8192 --png x.png --scale 64", "over what stex draws"},
        {"store rgba8unorm 1 2 3 99999999999999999999999 --profile ''", "--profile"},
        {"compare a.bin b.bin --bytes-per-row 0", "--bytes-per-row: 0 is not a row pitch"},
        {"compare a.bin b.bin --tolerance ulp:-1", "--tolerance: 'ulp:-1' is not a tolerance"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cli_result r = run_stex("%s", cases[i].args);
        if (r.code != 2 || !strstr(r.err, cases[i].message))
            fail_msg("stex %s: exit %d, stderr: %s\nwanted: %s", cases[i].args, r.code, r.err,
                     cases[i].message);
        cli_free(&r);
    }
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    snprintf(run_dir, sizeof run_dir, "%s/run", cli_dir);
    snprintf(other, sizeof other, "%s/other", cli_dir);
    mkdir(run_dir, 0755);
    mkdir(other, 0755);
    char path[600], link[600];
    snprintf(path, sizeof path, "%s/outside.bin", cli_dir);
    write_text(path, "0123456789abcdef");
    snprintf(path, sizeof path, "%s/inside.bin", run_dir);
    write_text(path, "fedcba9876543210");
    snprintf(link, sizeof link, "%s/up-link", run_dir);
    if (symlink(cli_dir, link) != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_file_paths),
        cmocka_unit_test(test_allow_paths_option),
        cmocka_unit_test(test_command_line_names_free),
        cmocka_unit_test(test_hostile_option_values),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
