/*
 * The lavapipe hashes (tests/data/lavapipe-kernels.json, measured on Mesa's
 * lavapipe through Dawn) reached through `stex run KERNEL` as a user runs
 * it: the default executor, the kernel's WGSL and run file on the
 * interpreter, under the lavapipe profile, at the harness's sizes.  The
 * .bin files hold the copyTextureToBuffer bytes; at these sizes a row is a
 * multiple of 256 bytes, so they are the tightly packed texels the harness
 * hashed.  The racy difundir matches lavapipe's sequential SIMD8 model when
 * the interpreter runs 8 lanes in lock step on one thread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>

#include "../kernels/sha256.h"
#include "cli_exec.h"

static json_t *conformance(void)
{
    static json_t *root;
    if (!root) {
        const char *dir = getenv("STEX_TEST_DATA");
        char path[512];
        assert_non_null(dir);
        snprintf(path, sizeof path, "%s/lavapipe-kernels.json", dir);
        assert_non_null(root = json_load_file(path, 0, NULL));
    }
    return root;
}

/* conformance()'s string at a dotted path ("blur.output_sha256"). */
static const char *measured(const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *j = conformance();
    for (char *save = NULL, *part = strtok_r(buf, ".", &save); part && j;
         part = strtok_r(NULL, ".", &save))
        j = json_is_array(j) ? json_array_get(j, strtoul(part, NULL, 10))
                             : json_object_get(j, part);
    if (!json_is_string(j))
        fail_msg("lavapipe-kernels.json has no string at %s", path);
    return json_string_value(j);
}

/* `stex run ARGS --out X.bin` on the default executor: the SHA-256 of X.bin. */
static void run_hash(char hex[65], const char *fmt, ...)
{
    char args[1024], bin[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    path_in(bin, sizeof bin, "out.bin");
    cli_result r = run_stex("run %s --profile lavapipe --out '%s' --json", args, bin);
    CLI_EXPECT(r, 0, NULL);
    if (!strstr(r.out, "\"executor\": \"wgsl\""))
        fail_msg("stex run %s: not the WGSL executor: %s", args, r.out);
    cli_free(&r);
    size_t n;
    uint8_t *p = slurp(bin, &n);
    assert_non_null(p);
    sha256_hex(p, n, hex);
    free(p);
}

static void expect_hash(const char *what, const char *path, const char *hex)
{
    if (strcmp(hex, measured(path)))
        fail_msg("%s: sha256 %s, lavapipe's %s", what, hex, measured(path));
}

static void test_self_check(void **state)
{
    (void)state;
    const char *why = sha256_self_check();
    if (why)
        fail_msg("%s", why);
}

static void test_decaer_blur_histogram(void **state)
{
    (void)state;
    char hex[65], dump[512];
    run_hash(hex, "decaer --threads 2");
    expect_hash("decaer 256x256", "decaer.output_sha256", hex);
    path_in(dump, sizeof dump, "source.bin");
    run_hash(hex, "blur --threads 2 --dump-input '%s'", dump);
    expect_hash("blur 64x64", "blur.output_sha256", hex);
    size_t n;
    uint8_t *src = slurp(dump, &n); /* 64 rgba8unorm texels a row: 256 bytes, no padding */
    assert_non_null(src);
    sha256_hex(src, n, hex);
    free(src);
    expect_hash("blur's source", "blur.source_sha256", hex);
    run_hash(hex, "histogram --threads 2");
    expect_hash("histogram 64x64", "histogram.output_sha256", hex);
}

static void test_difundir(void **state)
{
    (void)state;
    static const struct { const char *variant; unsigned dispatches; } x[] = {
        {"hot", 1}, {"hot", 10}, {"random", 1}, {"random", 10}};
    for (int e = 0; e < 4; e++) {
        char hex[65], path[128], what[96];
        snprintf(what, sizeof what, "difundir-pingpong %s x%u", x[e].variant, x[e].dispatches);
        run_hash(hex, "difundir-pingpong --variant %s --iterations %u --threads 2",
                 x[e].variant, x[e].dispatches);
        snprintf(path, sizeof path, "difundir.experiments.%d.pingpong.sha256", e);
        expect_hash(what, path, hex);
        snprintf(what, sizeof what, "difundir %s x%u, 8 lanes", x[e].variant, x[e].dispatches);
        run_hash(hex, "difundir --variant %s --iterations %u --threads 1 --subgroup-size 8",
                 x[e].variant, x[e].dispatches);
        snprintf(path, sizeof path,
                 "difundir.experiments.%d.racy.sequential_simd8_model_sha256", e);
        expect_hash(what, path, hex);
    }
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_check),
        cmocka_unit_test(test_decaer_blur_histogram),
        cmocka_unit_test(test_difundir),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
