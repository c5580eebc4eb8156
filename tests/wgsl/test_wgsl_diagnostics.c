/* Diagnostics: position, rule and message of errors, several per run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"

static void expect(const char *src, const char *const *want, size_t n)
{
    stex_wgsl_module *m;
    assert_int_equal(stex_wgsl_module_create(src, "t.wgsl", &m), STEX_VALIDATION_ERROR);
    const char *text = stex_wgsl_module_diagnostics(m);
    for (size_t i = 0; i < n; i++)
        if (!strstr(text, want[i]))
            fail_msg("missing '%s' in:\n%s", want[i], text);
    assert_int_equal(stex_wgsl_module_error_count(m), n);
    stex_wgsl_module_destroy(m);
}

static void test_syntax_errors_recover(void **s)
{
    (void)s;
    const char *src = "fn f() {\n  let a = 1 +;\n  let b = (2;\n}\nfn g() -> i32 { return 1 }\n";
    const char *want[] = {"t.wgsl:2:14: error: expected an expression, found ';' [syntax]",
                          "t.wgsl:3:13: error: expected ')', found ';' [syntax]",
                          "t.wgsl:5:26: error: expected ';', found '}' [syntax]"};
    expect(src, want, 3);
}

static void test_type_errors(void **s)
{
    (void)s;
    const char *src = "fn f() {\n  let a : u32 = -1;\n  var b : f32 = 1u;\n  let c = undefined_name;\n}\n";
    const char *want[] = {"t.wgsl:2:17: error: the initializer is out of range of u32 [conversion-rank]",
                          "t.wgsl:3:17: error: the initializer has type u32 where f32 is expected [type-mismatch]",
                          "t.wgsl:4:11: error: unknown identifier 'undefined_name' [identifier]"};
    expect(src, want, 3);
}

static void test_recursion_and_caret(void **s)
{
    (void)s;
    const char *src = "fn f(x : i32) -> i32 {\n  return f(x);\n}\n";
    const char *want[] = {"t.wgsl:2:10: error: function 'f' calls itself (recursion is not "
                          "allowed in WGSL) [recursion]\n    return f(x);\n           ^\n"};
    expect(src, want, 1);
}

static void test_valid_module(void **s)
{
    (void)s;
    stex_wgsl_module *m;
    const char *src = "const N = 4u;\n@group(0) @binding(0) var<storage, read_write> b : array<u32>;\n"
                      "@compute @workgroup_size(N * 2u) fn main(@builtin(local_invocation_index) i : u32) {\n"
                      "  var x = array<u32, N>(1u, 2u, 3u, 4u);\n  b[i] = x[i % N] << 1u;\n}\n";
    assert_int_equal(stex_wgsl_module_create(src, "t.wgsl", &m), STEX_OK);
    assert_string_equal(stex_wgsl_module_diagnostics(m), "");
    const stex_wgsl_entry_point *e = stex_wgsl_entry_point_find(m, "main");
    assert_non_null(e);
    assert_int_equal(e->workgroup_size[0], 8);
    assert_int_equal(e->entry_count, 1);
    assert_int_equal(e->entries[0].type, STEX_BINDING_STORAGE_BUFFER);
    assert_int_equal(e->entries[0].buffer.min_binding_size, 4);
    stex_wgsl_module_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax_errors_recover), cmocka_unit_test(test_type_errors),
        cmocka_unit_test(test_recursion_and_caret), cmocka_unit_test(test_valid_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
