/* Pipeline-overridable constants through the C API (stex/wgsl.h): overrides
 * without a default, override-expressions over them, @id keys, WebGPU's
 * conversion of each value "to WGSL type" ([EnforceRange] i32/u32, a
 * finite f32, bool) and its errors, and an override-expression that fails
 * at pipeline creation.  Expected values follow from the WGSL source and
 * the WebGPU rules, computed here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

static stex_device *dev;

static const char SRC[] =
    "override n : u32;\n"                                   /* no default */
    "@id(9) override gain : f32;\n"                         /* no default, key \"9\" */
    "override flag : bool = false;\n"
    "@id(4) override bias : i32 = -3;\n"
    "override half_n = n / 2u;\n"                           /* depends on n */
    "override scaled = gain * f32(half_n);\n"
    "var<workgroup> tile : array<u32, n>;\n"
    "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
    "@compute @workgroup_size(n)\n"
    "fn main(@builtin(local_invocation_index) i : u32) {\n"
    "  tile[i] = i * 10u;\n"
    "  workgroupBarrier();\n"
    "  out[i] = tile[n - 1u - i];\n"
    "  if (i == 0u) {\n"
    "    out[n] = bitcast<u32>(scaled);\n"
    "    out[n + 1u] = select(0u, 1u, flag);\n"
    "    out[n + 2u] = bitcast<u32>(bias);\n"
    "    out[n + 3u] = half_n;\n"
    "  }\n"
    "}\n";

/* Creates the pipeline with the constants; on success runs one workgroup
 * and copies 16 words of out. */
static stex_status pipeline(const stex_wgsl_module *m, const stex_wgsl_override *c, uint32_t nc,
                            uint32_t out[16])
{
    stex_pipeline *p;
    stex_wgsl_options o = {.overrides = c, .override_count = nc};
    stex_status st = stex_wgsl_pipeline_create(dev, m, "main", &o, &p);
    if (st)
        return st;
    stex_buffer *b;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 64,
                         .usage = STEX_BUFFER_USAGE_STORAGE}, &b), STEX_OK);
    stex_bind_group_entry be = {.binding = 0, .buffer = b};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, &be, 1, &g), STEX_OK);
    if (stex_dispatch(p, g, 1, 1, 1, &(stex_dispatch_options){.threads = 1}))
        fail_msg("dispatch: %s", stex_last_error());
    memcpy(out, stex_buffer_data(b), 64);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(b);
    return STEX_OK;
}

static stex_wgsl_module *module(void)
{
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(SRC, "ov.wgsl", &m))
        fail_msg("an override without a default is valid WGSL:\n%s",
                 stex_wgsl_module_diagnostics(m));
    return m;
}

static void test_reflection(void **state)
{
    (void)state;
    stex_wgsl_module *m = module();
    assert_int_equal(stex_wgsl_override_count(m), 6);
    const stex_wgsl_override_info *n = stex_wgsl_override_at(m, 0), *g = stex_wgsl_override_at(m, 1);
    const stex_wgsl_override_info *b = stex_wgsl_override_at(m, 3), *h = stex_wgsl_override_at(m, 4);
    assert_string_equal(n->type, "u32");
    assert_false(n->has_default);
    assert_int_equal(n->id, -1);
    assert_string_equal(g->type, "f32");
    assert_false(g->has_default);
    assert_int_equal(g->id, 9);
    assert_true(b->has_default);
    assert_true(b->default_value == -3.0);
    assert_true(h->has_default && isnan(h->default_value)); /* depends on n */
    /* the workgroup size n decides is unknown until a pipeline gives n */
    assert_int_equal(stex_wgsl_entry_point_at(m, 0)->workgroup_size[0], 0);
    /* and so is the size of tile: reflection says its count is a lower bound */
    assert_true(stex_wgsl_entry_point_at(m, 0)->workgroup_memory_by_override);
    assert_int_equal(stex_wgsl_entry_point_at(m, 0)->workgroup_memory_size, 4);
    stex_wgsl_module *fixed;
    assert_int_equal(stex_wgsl_module_create("override k : u32 = 3u;\n"
                                             "var<workgroup> t : array<u32, k>;\n"
                                             "@compute @workgroup_size(1)\n"
                                             "fn main() { t[0] = 1u; }\n", "k.wgsl", &fixed),
                     STEX_OK);
    assert_false(stex_wgsl_entry_point_at(fixed, 0)->workgroup_memory_by_override);
    assert_int_equal(stex_wgsl_entry_point_at(fixed, 0)->workgroup_memory_size, 12);
    stex_wgsl_module_destroy(fixed);
    uint32_t wg[3];
    stex_wgsl_override c[2] = {{"n", 5}, {"9", 1}};
    stex_wgsl_options o = {.overrides = c, .override_count = 2};
    assert_int_equal(stex_wgsl_workgroup_size(m, "main", &o, wg), STEX_OK);
    assert_int_equal(wg[0], 5);
    stex_wgsl_module_destroy(m);
}

static void test_values(void **state)
{
    (void)state;
    stex_wgsl_module *m = module();
    uint32_t out[16];
    /* n = 6 invocations; scaled = 1.25 * f32(6 / 2); flag = true; bias by @id */
    stex_wgsl_override c[4] = {{"n", 6}, {"9", 1.25}, {"flag", 0.5}, {"4", 7}};
    assert_int_equal(pipeline(m, c, 4, out), STEX_OK);
    for (uint32_t i = 0; i < 6; i++)
        assert_int_equal(out[i], (5 - i) * 10);
    float scaled = 3.75f;
    uint32_t sb;
    memcpy(&sb, &scaled, 4);
    assert_int_equal(out[6], sb);
    assert_int_equal(out[7], 1);
    assert_int_equal(out[8], 7);
    assert_int_equal(out[9], 3);
    /* WebGPU's conversions: [EnforceRange] truncates toward zero; bool is
     * value != 0 with NaN false; defaults stay where no value is given */
    stex_wgsl_override d[4] = {{"n", 4.9}, {"9", 0.1}, {"flag", NAN}, {"4", -2147483648.9}};
    assert_int_equal(pipeline(m, d, 4, out), STEX_OK);
    assert_int_equal(out[0], 30);       /* n = 4 */
    float g = (float)0.1 * 2.0f;        /* f32(0.1) * f32(4 / 2) */
    memcpy(&sb, &g, 4);
    assert_int_equal(out[4], sb);
    assert_int_equal(out[5], 0);
    assert_int_equal(out[6], 0x80000000u);
    stex_wgsl_override e[2] = {{"n", 2}, {"9", 3.4028235e38}}; /* rounds to FLT_MAX */
    assert_int_equal(pipeline(m, e, 2, out), STEX_OK);
    stex_wgsl_module_destroy(m);
}

static void expect_refused(const stex_wgsl_module *m, const stex_wgsl_override *c, uint32_t nc,
                           const char *text)
{
    uint32_t out[16];
    stex_status st = pipeline(m, c, nc, out);
    if (st != STEX_VALIDATION_ERROR || !strstr(stex_last_error(), text))
        fail_msg("status %d, %s\nexpected: %s", (int)st, stex_last_error(), text);
}

static void test_errors(void **state)
{
    (void)state;
    stex_wgsl_module *m = module();
    /* missing values: each override without a default that the entry point uses */
    stex_wgsl_override only_n[1] = {{"n", 4}};
    expect_refused(m, only_n, 1, "ov.wgsl:2:17: error: override 'gain' has no default value and "
                                 "the pipeline's constants give none (key \"9\") "
                                 "[pipeline-constants]");
    expect_refused(m, NULL, 0, "override 'n' has no default value");
    /* a key is the @id when there is one: the name is not an alias */
    stex_wgsl_override by_name[2] = {{"n", 4}, {"gain", 1}};
    expect_refused(m, by_name, 2, "constants[\"gain\"]: ov.wgsl has no override with this key");
    stex_wgsl_override twice[3] = {{"n", 4}, {"9", 1}, {"n", 5}};
    expect_refused(m, twice, 3, "override 'n' is given twice [pipeline-constants]");
    /* values not representable in the override's type */
    stex_wgsl_override neg[2] = {{"n", -1}, {"9", 1}};
    expect_refused(m, neg, 2, "constants[\"n\"]: -1 is not a value of u32");
    stex_wgsl_override big[2] = {{"n", 4294967296.0}, {"9", 1}};
    expect_refused(m, big, 2, "4294967296 is not a value of u32");
    stex_wgsl_override i32big[3] = {{"n", 4}, {"9", 1}, {"4", 2147483648.0}};
    expect_refused(m, i32big, 3, "constants[\"4\"]: 2147483648 is not a value of i32");
    stex_wgsl_override inf[2] = {{"n", 4}, {"9", INFINITY}};
    expect_refused(m, inf, 2, "constants[\"9\"]: inf is not a finite f32");
    stex_wgsl_override over[2] = {{"n", 4}, {"9", 3.5e38}};
    expect_refused(m, over, 2, "3.5e+38 is not a finite f32");
    stex_wgsl_override tie[2] = {{"n", 4}, {"9", 3.4028235677973366e38}}; /* halfway: to inf */
    expect_refused(m, tie, 2, "is not a finite f32");
    /* an override-expression failing at pipeline creation, and a size of 0 */
    stex_wgsl_override zero[2] = {{"n", 0}, {"9", 1}};
    expect_refused(m, zero, 2, "@workgroup_size must be at least 1");
    stex_wgsl_module_destroy(m);

    static const char DIV[] =
        "override d : i32;\n"
        "override q = 100 / d;\n"
        "@group(0) @binding(0) var<storage, read_write> out : array<i32>;\n"
        "@compute @workgroup_size(1)\nfn main() { out[0] = q; }\n";
    assert_int_equal(stex_wgsl_module_create(DIV, "div.wgsl", &m), STEX_OK);
    stex_wgsl_override d0[1] = {{"d", 0}};
    expect_refused(m, d0, 1, "div.wgsl:2:18: error:");
    stex_wgsl_module_destroy(m);

    /* a const-expression (const, const_assert) cannot name an override, with
     * or without a default; an override needs a type or an initializer */
    static const struct { const char *src, *where, *rule; } BAD[] = {
        {"override k : u32;\nconst c = k + 1u;\n@compute @workgroup_size(1)\nfn main() { _ = c; }\n",
         "b.wgsl:2:13: error:", "[const-expr]"},
        {"override k : f32 = 1.5;\nconst c = k * 2.0;\n@compute @workgroup_size(1)\n"
         "fn main() { _ = c; }\n", "b.wgsl:2:13: error:", "[const-expr]"}, /* a default too */
        {"override k = 3u;\n@compute @workgroup_size(1)\nfn main() {\n  const c = k;\n"
         "  _ = c;\n}\n", "b.wgsl:4:13: error:", "[const-expr]"},
        {"override k = 3u;\nconst_assert k > 0u;\n@compute @workgroup_size(1)\n"
         "fn main() { _ = k; }\n", "b.wgsl:2:16: error:", "[const-assert]"},
        {"override k : u32;\nconst_assert k > 0u;\n@compute @workgroup_size(1)\n"
         "fn main() { _ = k; }\n", "b.wgsl:2:16: error:", "[const-assert]"},
        {"@id(1) override j : u32 = 1u;\n@id(1) override k : u32 = 2u;\n"
         "@compute @workgroup_size(1)\nfn main() { _ = j + k; }\n", "b.wgsl:2:5: error:",
         "[override-decls]"},                                     /* @ids are unique */
        {"@id(65536) override k : u32 = 1u;\n@compute @workgroup_size(1)\n"
         "fn main() { _ = k; }\n", "b.wgsl:1:5: error:", "[override-decls]"},
        {"override k;\n@compute @workgroup_size(1)\nfn main() { _ = k; }\n",
         "b.wgsl:1:", "[override-decls]"},
        {"override k : vec2f;\n@compute @workgroup_size(1)\nfn main() { _ = k; }\n",
         "b.wgsl:1:", "[override-decls]"},
        /* an array sized by an override-expression is a var<workgroup>'s type only */
        {"override k : u32 = 4u;\nvar<private> p : array<f32, k>;\n@compute @workgroup_size(1)\n"
         "fn main() { _ = p[0]; }\n", "b.wgsl:2:29: error:", "[array-types]"},
        {"override k : u32 = 4u;\n@compute @workgroup_size(1)\nfn main() {\n"
         "  var f : array<u32, k>;\n  _ = f[0];\n}\n", "b.wgsl:4:22: error:", "[array-types]"},
        {"override k : u32 = 4u;\n@group(0) @binding(0) var<storage, read_write> s : array<f32, k>;\n"
         "@compute @workgroup_size(1)\nfn main() { s[0] = 1.0; }\n", "b.wgsl:2:", "[array-types]"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        stex_status st = stex_wgsl_module_create(BAD[i].src, "b.wgsl", &m);
        const char *diag = stex_wgsl_module_diagnostics(m);
        if (st != STEX_VALIDATION_ERROR || !strstr(diag, BAD[i].where) ||
            !strstr(diag, BAD[i].rule))
            fail_msg("%s\nexpected %s ... %s, got:\n%s", BAD[i].src, BAD[i].where, BAD[i].rule,
                     diag);
        stex_wgsl_module_destroy(m);
    }
}

/* An override-expression is evaluated at pipeline creation (WGSL 8.x), so an
 * override's default decides nothing while the module is checked: a
 * division by an override that is 0 by default, an index or array count
 * from one, are errors only where a pipeline's value makes them so - and a
 * short-circuit that skips them skips the error too.  Cases from the CTS
 * (webgpu:shader,validation,expression,binary,short_circuiting_and_or,
 * types,array:valid:case="override_zero",
 * expression,access,array:early_eval_errors); each module was refused at
 * creation, and each index case's pipeline created. */
static void test_errors_at_pipeline(void **state)
{
    (void)state;
    static const char SHORT[] =
        "override cond : bool;\noverride zero_i32 = 0i;\n"
        "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
        "@compute @workgroup_size(1)\nfn main() {\n"
        "  let foo = cond && (1 / zero_i32) == 0;\n  out[0] = select(0u, 1u, foo);\n}\n";
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(SHORT, "sc.wgsl", &m))
        fail_msg("%s", stex_wgsl_module_diagnostics(m));
    uint32_t out[16];
    stex_wgsl_override off[1] = {{"cond", 0}}, on[1] = {{"cond", 1}};
    assert_int_equal(pipeline(m, off, 1, out), STEX_OK); /* false && ...: never divides */
    assert_int_equal(out[0], 0);
    expect_refused(m, on, 1, "sc.wgsl:6:24: error: integer division by zero");
    stex_wgsl_override nonzero[2] = {{"cond", 1}, {"zero_i32", 5}};
    assert_int_equal(pipeline(m, nonzero, 2, out), STEX_OK); /* 1 / 5 == 0 */
    assert_int_equal(out[0], 1);
    stex_wgsl_module_destroy(m);

    static const char COUNT[] = "override x = 0;\nalias T = array<u32, x>;\n";
    if (stex_wgsl_module_create(COUNT, "zero.wgsl", &m))
        fail_msg("%s", stex_wgsl_module_diagnostics(m));
    stex_wgsl_module_destroy(m);

    static const char INDEX[] =
        "override x : i32;\n"
        "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
        "fn y() -> u32 {\n  let tmp = array(1, 2, 3)[x];\n  return 0u;\n}\n"
        "@compute @workgroup_size(1)\nfn main() { out[0] = y(); }\n";
    assert_int_equal(stex_wgsl_module_create(INDEX, "ix.wgsl", &m), STEX_OK);
    stex_wgsl_override neg[1] = {{"x", -1}}, pos[1] = {{"x", 3}}, in[1] = {{"x", 2}};
    expect_refused(m, neg, 1, "ix.wgsl:4:28: error: index -1 is out of bounds");
    expect_refused(m, pos, 1, "ix.wgsl:4:28: error: index 3 is out of bounds");
    assert_int_equal(pipeline(m, in, 1, out), STEX_OK);
    stex_wgsl_module_destroy(m);

    /* reflection still gives a default's workgroup size */
    static const char SIZE[] =
        "override w = 16u;\n@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
        "@compute @workgroup_size(w)\nfn main() { out[0] = w; }\n";
    assert_int_equal(stex_wgsl_module_create(SIZE, "ws.wgsl", &m), STEX_OK);
    const stex_wgsl_entry_point *ep = stex_wgsl_entry_point_find(m, "main");
    assert_non_null(ep);
    assert_int_equal(ep->workgroup_size[0], 16);
    assert_false(ep->workgroup_memory_by_override);
    stex_wgsl_module_destroy(m);
}

/* A module with many overrides, every one given (half by @id, half by
 * name): pipeline creation finds each constant's override in about
 * n log n, so a caller's 20,000 constants are no hang (a pairwise search
 * took minutes under the sanitizers).  The bound is a hang guard, generous
 * for a slow machine, not a speed measurement. */
static void test_many_overrides(void **state)
{
    (void)state;
    enum { N = 20000 };
    size_t cap = (size_t)N * 48 + 256, at = 0;
    char *src = malloc(cap);
    assert_non_null(src);
    for (uint32_t i = 0; i < N; i++)
        at += (size_t)snprintf(src + at, cap - at, i % 2 ? "@id(%u) override o%u: u32;\n"
                                                           : "override o%u: u32;\n", i, i);
    snprintf(src + at, cap - at, "@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n"
             "@compute @workgroup_size(1) fn main() { out[0] = o0 + o%u; }\n", N - 1);
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(src, "many.wgsl", &m))
        fail_msg("%s", stex_wgsl_module_diagnostics(m));
    stex_wgsl_override *c = calloc(N, sizeof *c);
    char (*keys)[16] = calloc(N, sizeof *keys);
    assert_true(c && keys);
    for (uint32_t i = 0; i < N; i++) {
        snprintf(keys[i], sizeof keys[i], i % 2 ? "%u" : "o%u", i);
        c[i] = (stex_wgsl_override){keys[i], (double)i};
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint32_t out[16];
    assert_int_equal(pipeline(m, c, N, out), STEX_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_int_equal(out[0], N - 1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (s > 10.0)
        fail_msg("pipeline creation with %d constants took %.1f s", N, s);
    /* a key given twice is still found out */
    c[N - 1] = (stex_wgsl_override){"o0", 1.0};
    stex_pipeline *p;
    stex_wgsl_options o = {.overrides = c, .override_count = N};
    assert_int_equal(stex_wgsl_pipeline_create(dev, m, "main", &o, &p), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "given twice"));
    free(keys);
    free(c);
    free(src);
    stex_wgsl_module_destroy(m);
}

static int setup(void **state)
{
    (void)state;
    stex_adapter *a;
    dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_adapter_destroy(a);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stex_device_destroy(dev);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reflection),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_errors_at_pipeline),
        cmocka_unit_test(test_many_overrides),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
