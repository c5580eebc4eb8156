/* Hostile WGSL, one finding each: every input that crashed, hung or was
 * wrongly accepted gets the error naming its rule (WGSL's, or the limit Dawn
 * stops at: Dawn's messages are quoted beside each), and the largest input
 * Dawn accepts still compiles. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"
#include "wgsl_text.h"

static stex_device *dev;
static stex_adapter *adapter;

static const char MAIN[] = "@compute @workgroup_size(1) fn main() { ";

/* The module's diagnostics hold `want` (its only error unless several). */
static void refused(const char *src, const char *want)
{
    stex_wgsl_module *m = NULL;
    assert_int_equal(stex_wgsl_module_create(src, "t.wgsl", &m), STEX_VALIDATION_ERROR);
    const char *d = stex_wgsl_module_diagnostics(m);
    if (!strstr(d, want))
        fail_msg("missing '%s' in:\n%.2000s", want, d);
    stex_wgsl_module_destroy(m);
}

static void accepted(const char *src)
{
    stex_wgsl_module *m = NULL;
    if (stex_wgsl_module_create(src, "t.wgsl", &m))
        fail_msg("refused:\n%.2000s", stex_wgsl_module_diagnostics(m));
    stex_wgsl_module_destroy(m);
}

/* `let y = <open>^n 1 <close>^n;` in main */
static char *nested(const char *open, const char *close, unsigned n)
{
    text t = {0};
    add(&t, "fn f(x : i32) -> i32 { return x; }\n%s let y = ", MAIN);
    repeat(&t, open, n);
    add(&t, "1");
    repeat(&t, close, n);
    add(&t, "; _ = y; }\n");
    return t.s;
}

static const char NEST[] = "nested more than 127 levels deep (blocks, else-if chains, parentheses, "
                           "calls, template lists, index brackets and unary operators count "
                           "together) [limits]";

/* The reproducers (SIGSEGV before): 2,540 nested calls, 4,100 abs(...),
 * 21,000 '!', 44,000 parentheses, 31,000 blocks.  Dawn: "maximum parser
 * recursive depth reached", at the same column for each (one more here:
 * MAIN ends in a space). */
static void test_deep_nesting_refused(void **s)
{
    (void)s;
    char *src = nested("f(", ")", 2540);
    refused(src, "t.wgsl:2:304: error: nested more than 127 levels deep");
    free(src);
    src = nested("abs(", ")", 4100);
    refused(src, NEST);
    free(src);
    src = nested("(", ")", 44000);
    refused(src, "t.wgsl:2:177: error: nested more than 127 levels deep");
    free(src);
    text t = {0};
    add(&t, "%s let y = ", MAIN);
    repeat(&t, "!", 21000);
    add(&t, "true; _ = y; }\n");
    refused(t.s, "t.wgsl:1:177: error: nested more than 127 levels deep");
    t.n = 0;
    add(&t, "%s", MAIN);
    repeat(&t, "{", 31000);
    repeat(&t, "}", 31000);
    add(&t, "}\n");
    refused(t.s, "t.wgsl:1:168: error: nested more than 127 levels deep");
    /* an else-if chain is a nesting too (Dawn: "statement nesting depth /
     * chaining length exceeds limit of 127") */
    t.n = 0;
    add(&t, "%s var x = 1; if x == 0 {}", MAIN);
    for (unsigned i = 0; i < 3000; i++)
        add(&t, " else if x == %u {}", i);
    add(&t, " }\n");
    refused(t.s, NEST);
    free(t.s);
}

/* 126 levels inside a function's body (127 with it) is what Dawn accepts:
 * so does stex, and WGSL requires 127 nested brace-enclosed statements. */
static void test_deepest_nesting_accepted(void **s)
{
    (void)s;
    const char *kinds[][2] = {{"f(", ")"}, {"abs(", ")"}, {"(", ")"}, {"- ", ""}};
    for (size_t k = 0; k < 4; k++) {
        char *src = nested(kinds[k][0], kinds[k][1], 126);
        accepted(src);
        free(src);
        src = nested(kinds[k][0], kinds[k][1], 127);
        refused(src, NEST);
        free(src);
    }
    text t = {0};
    add(&t, "%s", MAIN);
    repeat(&t, "{", 126);
    repeat(&t, "}", 126);
    add(&t, "}\n");
    accepted(t.s);
    t.n = 0; /* 127 nested template lists at module scope: Dawn's deepest */
    add(&t, "var<private> a : ");
    repeat(&t, "array<", 127);
    add(&t, "u32");
    repeat(&t, ", 1>", 127);
    add(&t, ";\n%s _ = a; }\n", MAIN);
    accepted(t.s);
    t.n = 0;
    add(&t, "var<private> a : ");
    repeat(&t, "array<", 128);
    add(&t, "u32");
    repeat(&t, ", 1>", 128);
    add(&t, ";\n%s _ = a; }\n", MAIN);
    refused(t.s, NEST);
    free(t.s);
}

/* A flat left-associative sum: the parser loops, but every pass over the
 * tree recursed once per term (SIGSEGV at 7,900 terms).  Dawn refuses more
 * than 513 terms ("reached max expression depth of 512"); so does stex. */
static void test_flat_chain(void **s)
{
    (void)s;
    for (unsigned terms = 513; terms <= 7900; terms += 7900 - 513) {
        text t = {0};
        add(&t, "const c = 1");
        repeat(&t, "+1", terms - 1);
        add(&t, ";\n%s var x = 1; let y = x", MAIN);
        repeat(&t, "+x", terms - 1);
        add(&t, "; _ = y; _ = c; }\n");
        if (terms == 513)
            accepted(t.s);
        else
            refused(t.s, "an expression more than 512 levels deep (operators, calls, indexing "
                         "and member accesses stacked in one expression) [limits]");
        free(t.s);
    }
}

/* array<array<u32, 65536>, 65536> is 2^34 bytes: its word count wrapped to
 * 0 in 32 bits (SIGSEGV reading a const of it; memory overwritten through
 * a var<private>).  Dawn: "array byte size (0x400000000) must not exceed
 * 0xffffffff bytes". */
static void test_array_size_in_64_bits(void **s)
{
    (void)s;
    static const char *const want =
        "array<array<u32, 65536>, 65536> is 17179869184 bytes; an array may hold at most "
        "0xffffffff bytes [limits]";
    refused("const a = array<array<u32, 65536>, 65536>();\n"
            "@compute @workgroup_size(1) fn main() { let x = a[1][2]; _ = x; }\n", want);
    refused("var<private> a : array<array<u32, 65536>, 65536>;\n"
            "@compute @workgroup_size(1) fn main() { a[1][2] = 3u; let x = a[1][2]; _ = x; }\n",
            want);
    refused("var<workgroup> a : array<u32, 4294967296>;\n"
            "@compute @workgroup_size(1) fn main() { a[1] = 3u; }\n",
            "array<u32, 4294967296> is 17179869184 bytes");
    /* a struct's members add up in 64 bits too */
    refused("struct S { a : array<u32, 1073741823>, b : array<u32, 1073741823> }\n"
            "@group(0) @binding(0) var<storage> s : S;\n"
            "@compute @workgroup_size(1) fn main() { _ = s.a[0]; }\n",
            "struct S is more than 0xffffffff bytes [limits]");
    /* values live in registers: at most 65535 words (Dawn: "array count
     * (1048576) must be less than 65536") */
    refused("var<private> a : array<u32, 1048576>;\n"
            "@compute @workgroup_size(1) fn main() { a[1] = 3u; }\n",
            "a value of more than 65535 words (256 KiB): stex holds no larger value in "
            "registers [limits]");
    refused("const a = array<u32, 1048576>();\n"
            "@compute @workgroup_size(1) fn main() { let x = a[5]; _ = x; }\n",
            "a value of more than 65535 words");
    /* a storage buffer's fixed-size array is memory, not a value: fine */
    accepted("@group(0) @binding(0) var<storage, read_write> b : array<u32, 16777216>;\n"
             "@compute @workgroup_size(1) fn main() { b[16777215] = 1u; }\n");
}

/* `const c_i = c_(i-1) + 1;`: each declaration was checked in a context of
 * its own, re-analysing the chain below it, through a linear name lookup
 * (1,000 consts 2.8 s, 4,000 131 s; Dawn 1.3 s); and each link recursed. */
static void test_declaration_chains(void **s)
{
    (void)s;
    static const char *const forms[] = {"const c%u = c%u + 1;\n", "override c%u = c%u + 1;\n",
                                        "alias c%u = c%u;\n"};
    for (size_t f = 0; f < 3; f++) {
        text t = {0};
        add(&t, f == 2 ? "alias c0 = u32;\n" : f == 1 ? "override c0 = 1;\n" : "const c0 = 1;\n");
        unsigned n = 10000;
        for (unsigned i = 1; i < n; i++)
            add(&t, forms[f], i, i - 1);
        if (f == 2)
            add(&t, "var<private> v : c%u;\n%s _ = v; }\n", n - 1, MAIN);
        else
            add(&t, "%s _ = c%u; }\n", MAIN, n - 1);
        clock_t t0 = clock();
        accepted(t.s);
        double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        if (secs > 20) /* was cubic: 4,000 took 131 s; now about 0.2 s (10x under ASan) */
            fail_msg("%zu: a chain of %u took %.1f s", f, n, secs);
        free(t.s);
    }
    /* the chain's value is right */
    stex_wgsl_module *m = fixture_module(
        "const c0 = 1;\nconst c1 = c0 + c0;\nconst c2 = c1 + c1;\noverride o : i32 = c2 * 2;\n"
        "@compute @workgroup_size(1) fn main() { _ = o; }\n", "t.wgsl");
    assert_int_equal(stex_wgsl_override_count(m), 1);
    assert_true(stex_wgsl_override_at(m, 0)->default_value == 8);
    stex_wgsl_module_destroy(m);
}

/* Invalid WGSL that was accepted; Dawn's message beside each. */
static void test_invalid_accepted_before(void **s)
{
    (void)s;
    /* Dawn: "array count (-1) must be greater than 0" */
    refused("@compute @workgroup_size(1) fn main() { var a : array<u32, -1>; _ = a; }\n",
            "t.wgsl:1:60: error: an array's element count must be greater than 0, not -1 "
            "[array-types]");
    refused("@group(-1) @binding(0) var<storage> b : u32;\n"
            "@compute @workgroup_size(1) fn main() { _ = b; }\n",
            "@group and @binding must be 0..65535 (non-negative, as WGSL requires; stex holds "
            "each in 16 bits) [resource-interface]");
    /* Dawn: "duplicate switch case '1'" (1:71 and 1:79) */
    refused("@compute @workgroup_size(1) fn main() { var x = 1; switch x { case 1, 1: {} "
            "default: {} } }\n",
            "t.wgsl:1:71: error: duplicate switch case value 1 (also at line 1, column 68) "
            "[switch-statement]");
    refused("@compute @workgroup_size(1) fn main() { var x = 1u; switch x { case 1u: {} "
            "case 2u, 1: {} default: {} } }\n", "duplicate switch case value 1");
    /* Dawn: "'1 << 64' cannot be represented as 'abstract-int'" */
    refused("const a = 1 << 64;\n@compute @workgroup_size(1) fn main() { _ = a; }\n",
            "t.wgsl:1:13: error: '1 << 64' overflows AbstractInt: by 64 or more only 0 "
            "shifts [arithmetic]");
    refused("const a = -1 << 64;\n@compute @workgroup_size(1) fn main() { _ = a; }\n",
            "'-1 << 64' overflows AbstractInt");
    /* the CTS (binary,bitwise_shift:shift_left_abstract) expects 0 << 64 ..
     * 0 << 256 to be 0: nothing but zeros is shifted out */
    accepted("const a = 0 << 64;\nconst b = 0 << 256;\nconst_assert a == 0 && b == 0;\n"
             "@compute @workgroup_size(1) fn main() { _ = a; _ = b; }\n");
    /* Dawn: "shift left operation results in sign change" */
    refused("const a = 1 << 63;\n@compute @workgroup_size(1) fn main() { _ = a; }\n",
            "'1 << 63' overflows AbstractInt (the sign changes or set bits are shifted out) in "
            "a const-expression [arithmetic]");
    refused("const a = 3 << 62;\n@compute @workgroup_size(1) fn main() { _ = a; }\n",
            "'3 << 62' overflows AbstractInt");
    accepted("const a = -1 << 63;\nconst b = 1 << 62;\nconst_assert a < 0 && b > 0;\n"
             "@compute @workgroup_size(1) fn main() { _ = a; _ = b; }\n");
    /* SIGFPE in module creation once (a pointer has no size) */
    refused("var<workgroup> foo : ptr<function, u32>;\n"
            "@compute @workgroup_size(1) fn main() { }\n",
            "t.wgsl:1:16: error: var<workgroup> cannot hold ptr<function, u32> [var-decls]");
    /* WGSL's limits that Dawn enforces too ("function declares 256
     * parameters, maximum is 255") */
    text t = {0};
    add(&t, "fn f(");
    for (unsigned i = 0; i < 256; i++)
        add(&t, "%sp%u : u32", i ? ", " : "", i);
    add(&t, ") {}\n%s }\n", MAIN);
    refused(t.s, "function 'f' declares 256 parameters; the limit is 255 [limits]");
    t.n = 0;
    add(&t, "struct S {");
    for (unsigned i = 0; i < 1024; i++)
        add(&t, " m%u : u32,", i);
    add(&t, " }\n%s }\n", MAIN);
    refused(t.s, "struct 'S' declares 1024 members; the limit is 1023 [limits]");
    t.n = 0;
    add(&t, "%s var x = 1; switch x { case 0", MAIN);
    for (unsigned i = 1; i < 1022; i++)
        add(&t, ", %u", i);
    add(&t, ": {} default: {} } }\n");
    accepted(t.s); /* 1022 values and default: 1023 selectors */
    t.n = 0;
    add(&t, "%s var x = 1; switch x { case 0", MAIN);
    for (unsigned i = 1; i < 1024; i++)
        add(&t, ", %u", i);
    add(&t, ": {} default: {} } }\n");
    refused(t.s, "a switch statement with more than 1023 case selectors (default included) "
                 "[limits]");
    free(t.s);
}

/* `override n : u32 = 4000000000u` was reported as 65535 (the workgroup
 * size clamped to 16 bits); the pipeline must refuse it by the device's
 * limits, and the value itself reach the shader whole. */
static void test_override_u32_whole(void **s)
{
    (void)s;
    stex_wgsl_module *m = fixture_module(
        "override n : u32 = 4000000000u;\n"
        "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
        "@compute @workgroup_size(1) fn main() { out[0] = n; }\n"
        "@compute @workgroup_size(n) fn wide() { out[0] = n; }\n", "t.wgsl");
    assert_true(stex_wgsl_override_at(m, 0)->default_value == 4000000000.0);
    const stex_wgsl_entry_point *wide = stex_wgsl_entry_point_find(m, "wide");
    assert_non_null(wide);
    assert_int_equal(wide->workgroup_size[0], 4000000000u);
    stex_pipeline *p = NULL;
    assert_int_equal(stex_wgsl_pipeline_create(dev, m, "wide", NULL, &p), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "@workgroup_size x = 4000000000 exceeds "
                                              "maxComputeWorkgroupSizeX"));
    stex_wgsl_override c = {"n", 4000000000.0};
    stex_wgsl_options o = {.overrides = &c, .override_count = 1};
    assert_int_equal(stex_wgsl_pipeline_create(dev, m, "main", &o, &p), STEX_OK);
    stex_buffer *b;
    stex_buffer_desc bd = {.size = 16, .usage = STEX_BUFFER_USAGE_STORAGE};
    assert_int_equal(stex_buffer_create(dev, &bd, &b), STEX_OK);
    stex_bind_group_entry be = {.binding = 0, .buffer = b};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, &be, 1, &g), STEX_OK);
    assert_int_equal(stex_dispatch(p, g, 1, 1, 1, &(stex_dispatch_options){.threads = 1}),
                     STEX_OK);
    uint32_t v;
    memcpy(&v, stex_buffer_data(b), 4);
    assert_int_equal(v, 4000000000u);
    stex_bind_group_destroy(g);
    stex_buffer_destroy(b);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    refused("@compute @workgroup_size(4000000000) fn main() { }\n",
            "@workgroup_size value 4000000000 is not an i32 [workgroup-size]");
}

/* A NUL inside the text: the NUL-terminated API ends the module there
 * (the Node provider silently truncated); the length-taking one refuses it
 * as WGSL does ("must not include a null code point"; Dawn: invalid
 * character). */
static void test_nul_byte(void **s)
{
    (void)s;
    static const char src[] = "@compute @workgroup_size(1)\nfn main() {\0 loop {} }\n";
    stex_wgsl_module *m = NULL;
    assert_int_equal(stex_wgsl_module_create_n(NULL, src, sizeof src - 1, "t.wgsl", &m),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_wgsl_module_diagnostics(m),
                           "t.wgsl:2:12: error: the text contains a NUL byte (U+0000), which "
                           "WGSL forbids [textual-structure]"));
    stex_wgsl_module_destroy(m);
    /* without a NUL the two calls agree */
    static const char ok[] = "@compute @workgroup_size(1) fn main() { }\n";
    assert_int_equal(stex_wgsl_module_create_n(NULL, ok, sizeof ok - 1, "t.wgsl", &m), STEX_OK);
    stex_wgsl_module_destroy(m);
}

/* A module past STEX_WGSL_MAX_SOURCE_BYTES is refused unread. */
static void test_module_size_limit(void **s)
{
    (void)s;
    size_t n = STEX_WGSL_MAX_SOURCE_BYTES + 1u;
    char *big = malloc(n);
    assert_non_null(big);
    memset(big, ' ', n);
    stex_wgsl_module *m = NULL;
    assert_int_equal(stex_wgsl_module_create_n(NULL, big, n, "t.wgsl", &m),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_wgsl_module_diagnostics(m),
                           "the module is 16777217 bytes; stex takes at most 16777216 bytes "
                           "(16 MiB) of WGSL text [limits]"));
    stex_wgsl_module_destroy(m);
    free(big);
}

/* Calls that multiply when inlined (f_i calls f_(i-1) twice: 2^40 calls),
 * loops nested 120 deep (the uniformity analysis walked 2^depth times), a
 * flood of errors: each ends quickly. */
static void test_work_bounded(void **s)
{
    (void)s;
    text t = {0};
    add(&t, "fn f0() -> i32 { return 1; }\n");
    for (unsigned i = 1; i < 40; i++)
        add(&t, "fn f%u() -> i32 { return f%u() + f%u(); }\n", i, i - 1, i - 1);
    add(&t, "%s _ = f39(); }\n", MAIN);
    refused(t.s, "more than 131072 function calls inlined while the module's functions are "
                 "checked (each call site lowers the callee again) [limits]");
    t.n = 0;
    add(&t, "%s", MAIN);
    repeat(&t, "loop { ", 120);
    repeat(&t, "break; } ", 120);
    add(&t, "}\n");
    clock_t t0 = clock();
    accepted(t.s);
    assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 10);
    t.n = 0;
    repeat(&t, "$ ", 200000);
    refused(t.s, "more than 1000 errors; the rest are not reported [limits]");
    free(t.s);
}

/* Compiles on a thread of a small stack: deep input is a [limits] error
 * there, never a stack overflow (a Node.js or OpenMP thread). */
typedef struct small {
    const char *src;
    stex_status st;
    char diag[256];
} small;

static void *compile_small(void *arg)
{
    small *a = arg;
    stex_wgsl_module *m = NULL;
    a->st = stex_wgsl_module_create(a->src, "t.wgsl", &m);
    snprintf(a->diag, sizeof a->diag, "%s", stex_wgsl_module_diagnostics(m));
    stex_wgsl_module_destroy(m);
    return NULL;
}

static void test_small_stack_thread(void **s)
{
    (void)s;
    /* a chain of functions each calling the next inside 100 parentheses */
    text t = {0};
    add(&t, "fn f0() -> i32 { return 1; }\n");
    for (unsigned i = 1; i < 400; i++) {
        add(&t, "fn f%u() -> i32 { return ", i);
        repeat(&t, "(", 100);
        add(&t, "f%u()", i - 1);
        repeat(&t, ")", 100);
        add(&t, "; }\n");
    }
    add(&t, "%s _ = f399(); }\n", MAIN);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1u << 20); /* 1 MiB */
    small a = {.src = t.s};
    pthread_t th;
    assert_int_equal(pthread_create(&th, &attr, compile_small, &a), 0);
    pthread_join(th, NULL);
    assert_int_equal(a.st, STEX_VALIDATION_ERROR);
    assert_non_null(strstr(a.diag, "nested too deeply for the stack of the thread compiling it"));
    pthread_attr_destroy(&attr);
    free(t.s);
}

/* stex_wgsl_expression_length: where `stex eval`'s one expression ends. */
static void test_expression_length(void **s)
{
    (void)s;
    size_t n = 99;
    assert_int_equal(stex_wgsl_expression_length("a); loop {} _ = (a", &n), STEX_OK);
    assert_int_equal(n, 1);
    assert_int_equal(stex_wgsl_expression_length("max(a, vec2(1, 2).x) + 3  ", &n), STEX_OK);
    assert_int_equal(n, 24);
    assert_int_equal(stex_wgsl_expression_length("(a", &n), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "expected ')', found end of file [syntax]"));
    assert_int_equal(stex_wgsl_expression_length("", &n), STEX_VALIDATION_ERROR);
    assert_int_equal(stex_wgsl_expression_length("; loop {}", &n), STEX_VALIDATION_ERROR);
}

static int setup(void **state)
{
    (void)state;
    dev = fixture_device(STEX_PROFILE_SPEC, &adapter);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stex_device_destroy(dev);
    stex_adapter_destroy(adapter);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deep_nesting_refused),
        cmocka_unit_test(test_deepest_nesting_accepted),
        cmocka_unit_test(test_flat_chain),
        cmocka_unit_test(test_array_size_in_64_bits),
        cmocka_unit_test(test_declaration_chains),
        cmocka_unit_test(test_invalid_accepted_before),
        cmocka_unit_test(test_override_u32_whole),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_module_size_limit),
        cmocka_unit_test(test_work_bounded),
        cmocka_unit_test(test_small_stack_thread),
        cmocka_unit_test(test_expression_length),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
