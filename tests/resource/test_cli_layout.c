/* `stex layout`: exit codes, and its JSON agrees with the library's layout
 * and cache-line model. */
#include <jansson.h>
#include <sys/wait.h>

#include "rtest.h"

/* Runs `stex ARGS`, returns the exit status and (if out) the stdout text. */
static int run(const char *args, char **out)
{
    const char *bin = getenv("STEX_BIN");
    if (!bin)
        fail_msg("STEX_BIN is not set");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t k;
    while ((k = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += k;
        if (cap - n < 2)
            buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    int st = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_exit_codes(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run("layout --help", &out), 0);
    assert_non_null(strstr(out, "examples:"));
    free(out);
    assert_int_equal(run("layout rgba8unorm 16x16", &out), 0);
    assert_non_null(strstr(out, "0.00   0.01   0.04"));
    free(out);
    assert_int_equal(run("layout nosuchformat 16x16", NULL), 2);
    assert_int_equal(run("layout rgba8unorm 0x16", NULL), 2);
    assert_int_equal(run("layout rgba8unorm", NULL), 2);
    assert_int_equal(run("layout rgba8unorm 16x16 --line-size 0", NULL), 2);
    assert_int_equal(run("layout rgba8unorm 16x16 --bogus", NULL), 2);
}

static void test_json_matches_library(void **state)
{
    (void)state;
    char *out;
    assert_int_equal(run("layout rgba16float 40x24 --json --line-size 64 --grid 40", &out), 0);
    json_error_t err;
    json_t *j = json_loads(out, 0, &err);
    if (!j)
        fail_msg("stex layout --json is not JSON: %s\n%s", err.text, out);
    free(out);
    stex_level_layout l, lin;
    RTEST_CHECK_OK(stex_level_layout_tiled(&l, 40, 24, 1, 8));
    RTEST_CHECK_OK(stex_level_layout_linear(&lin, 40, 24, 1, 8));
    json_t *grid = json_object_get(j, "grid");
    assert_int_equal(json_array_size(grid), 24);
    for (uint32_t y = 0; y < 24; y++)
        for (uint32_t x = 0; x < 40; x++) {
            json_t *cell = json_array_get(json_array_get(grid, y), x);
            uint64_t off = (uint64_t)json_integer_value(json_object_get(cell, "offset"));
            assert_int_equal(off, stex_level_offset(&l, x, y, 0));
            assert_int_equal(json_integer_value(json_object_get(cell, "block")) * 64 * 8 +
                                 json_integer_value(json_object_get(cell, "index")) * 8,
                             off);
        }
    stex_line_stats st, sl;
    RTEST_CHECK_OK(stex_cache_lines_stencil(&l, 64, stex_stencil_3x3, 9, 8, 8, &st));
    RTEST_CHECK_OK(stex_cache_lines_stencil(&lin, 64, stex_stencil_3x3, 9, 8, 8, &sl));
    double t = json_real_value(json_object_get(json_object_get(j, "tiled_lines"), "lines_per_invocation"));
    double li = json_real_value(json_object_get(json_object_get(j, "linear_lines"), "lines_per_invocation"));
    assert_true(t > st.lines_per_invocation - 1e-3 && t < st.lines_per_invocation + 1e-3);
    assert_true(li > sl.lines_per_invocation - 1e-3 && li < sl.lines_per_invocation + 1e-3);
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_json_matches_library),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
