/* `stex validate` through the built binary: verdicts, exit codes, messages,
 * usage errors naming the argument and the accepted values, --json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_run.h"

#define MAXARGS 12
static const struct {
    const char *args[MAXARGS];
    int exit;
    const char *out, *err; /* substrings expected in stdout / stderr */
} cases[] = {
    /* valid: "ok", exit 0 */
    {{"validate", "--format", "r32float", "--access", "read-write"}, 0, "ok\n", ""},
    {{"validate", "--format", "rgba8unorm"}, 0, "ok\n", ""},
    {{"validate", "--format", "rgba8unorm", "--access", "read_write", "--features", "texture-formats-tier2"}, 0, "ok", ""},
    {{"validate", "--format", "rgba8unorm", "--access", "read-only", "--visibility", "vertex,fragment"}, 0, "ok", ""},
    {{"validate", "--format", "bgra8unorm", "--features", "bgra8unorm-storage", "--visibility", "compute,fragment"}, 0, "ok", ""},
    {{"validate", "--format", "r8unorm", "--view", "3d", "--features", "texture-formats-tier1"}, 0, "ok", ""},
    {{"validate", "--format", "r16float", "--access", "read-write", "--features", "all"}, 0, "ok", ""},
    /* refused: exit 1, kind and rule on stdout */
    {{"validate", "--format", "rgba8unorm", "--access", "read-write"}, 1, "validation error: createBindGroupLayout: format rgba8unorm does not support storage access read-write: it needs feature texture-formats-tier2", ""},
    {{"validate", "--format", "rgba8unorm", "--view", "cube"}, 1, "validation error: createBindGroupLayout: storageTexture.viewDimension cube is not allowed", ""},
    {{"validate", "--format", "rgba8unorm", "--view", "cube-array", "--access", "read-only"}, 1, "viewDimension cube-array", ""},
    {{"validate", "--format", "rgba8unorm", "--visibility", "compute,vertex"}, 1, "visible to VERTEX", ""},
    {{"validate", "--format", "r32float", "--access", "read-only", "--no-language-feature"}, 1, "readonly_and_readwrite_storage_textures", ""},
    {{"validate", "--format", "r16unorm"}, 1, "type error: createBindGroupLayout: storageTexture.format r16unorm requires feature texture-formats-tier1", ""},
    {{"validate", "--format", "bgra8unorm", "--access", "read", "--features", "bgra8unorm-storage"}, 1, "may only be bound write-only", ""},
    {{"validate", "--format", "bgra8unorm"}, 1, "needs feature bgra8unorm-storage", ""},
    {{"validate", "--format", "depth32float"}, 1, "depth32float is not a storage format", ""},
    {{"validate", "--format", "r8snorm", "--access", "read-write", "--features", "all"}, 1, "read-write is allowed only for", ""},
    /* usage errors: exit 2, the argument and the accepted values on stderr */
    {{"validate"}, 2, "", "--format is required"},
    {{"validate", "--format", "rgba8"}, 2, "", "--format: unknown format 'rgba8'; accepted values: rgba8unorm"},
    {{"validate", "--format", "r32float", "--access", "rw"}, 2, "", "--access: unknown value 'rw'; accepted values: write-only, read-only, read-write"},
    {{"validate", "--format", "r32float", "--view", "2darray"}, 2, "", "--view: unknown value '2darray'; accepted values: 1d, 2d, 2d-array, 3d, cube, cube-array"},
    {{"validate", "--format", "r32float", "--visibility", "compute,geometry"}, 2, "", "--visibility: unknown value 'geometry'; accepted values: compute, fragment, vertex"},
    {{"validate", "--format", "r32float", "--features", "texture-formats-tier3"}, 2, "", "--features: unknown feature 'texture-formats-tier3'; the features are: all, bgra8unorm-storage"},
    {{"validate", "--format", "r32float", "extra"}, 2, "", "unexpected argument 'extra'"},
    {{"validate", "--format", "r32float", "--bogus"}, 2, "", "--bogus"},
    {{"validate", "--format"}, 2, "", "--format"},
    {{"validate", "--help"}, 0, "examples:", ""},
};

static void test_cases(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cli_result r = cli_run(cases[i].args);
        assert_non_null(r.out);
        if (r.status != cases[i].exit || !strstr(r.out, cases[i].out) ||
            !strstr(r.err, cases[i].err)) {
            char cmd[512] = "stex";
            for (const char *const *a = cases[i].args; *a; a++)
                snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), " %s", *a);
            print_error("%s: want exit %d, stdout ~ \"%s\", stderr ~ \"%s\"; got exit %d, "
                        "stdout \"%s\", stderr \"%s\"\n", cmd, cases[i].exit, cases[i].out,
                        cases[i].err, r.status, r.out, r.err);
            bad++;
        }
        cli_free(&r);
    }
    assert_int_equal(bad, 0);
}

static void test_json(void **state)
{
    (void)state;
    const char *args[] = {"validate", "--format", "rgba8unorm", "--access", "read-write",
                          "--features", "texture-formats-tier1", "--json", NULL};
    cli_result r = cli_run(args);
    assert_int_equal(r.status, 1);
    json_error_t e;
    json_t *j = json_loads(r.out, 0, &e);
    if (!j)
        fail_msg("not JSON (%s): %s", e.text, r.out);
    assert_string_equal(json_string_value(json_object_get(j, "result")), "validation error");
    assert_string_equal(json_string_value(json_object_get(j, "access")), "read-write");
    assert_string_equal(json_string_value(json_object_get(j, "view_dimension")), "2d");
    assert_non_null(strstr(json_string_value(json_object_get(j, "message")), "texture-formats-tier2"));
    /* Implied features are listed: tier1 -> rg11b10ufloat-renderable. */
    json_t *f = json_object_get(j, "features");
    bool rg11 = false;
    size_t i;
    json_t *v;
    json_array_foreach(f, i, v) rg11 |= !strcmp(json_string_value(v), "rg11b10ufloat-renderable");
    assert_true(rg11);
    json_decref(j);
    cli_free(&r);

    const char *ok[] = {"validate", "--format", "r32float", "--json", NULL};
    r = cli_run(ok);
    assert_int_equal(r.status, 0);
    j = json_loads(r.out, 0, &e);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "result")), "ok");
    assert_string_equal(json_string_value(json_object_get(j, "access")), "write-only");
    json_decref(j);
    cli_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
