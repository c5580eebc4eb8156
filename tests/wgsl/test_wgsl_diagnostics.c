/* Diagnostics: position, rule and message of errors, several per run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
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

/* Recursion through other functions (WGSL 11: no cycles in the call
 * graph; CTS functions,restrictions:no_indirect_recursion) is refused at
 * the call that closes the cycle, whether or not an entry point reaches
 * it; a chain of calls without a cycle is fine. */
static void test_indirect_recursion(void **s)
{
    (void)s;
    const char *src = "fn a(x : u32) -> u32 { return b(x); }\n"
                      "fn b(x : u32) -> u32 { if (x == 0u) { return 0u; } return c(x - 1u); }\n"
                      "fn c(x : u32) -> u32 { return a(x); }\n"
                      "@compute @workgroup_size(1) fn main() { _ = a(3u); }\n";
    const char *want[] = {"t.wgsl:3:31: error: 'c' calls 'a', which calls it back ('a' -> 'b' "
                          "-> 'c' -> 'a'): recursion is not allowed in WGSL [recursion]"};
    expect(src, want, 1);
    const char *alone = "fn a() -> u32 { return b(); }\nfn b() -> u32 { return a(); }\n";
    const char *want2[] = {"t.wgsl:2:24: error: 'b' calls 'a', which calls it back ('a' -> 'b' -> "
                           "'a'): recursion is not allowed in WGSL [recursion]"};
    expect(alone, want2, 1);
    stex_wgsl_module *m;
    assert_int_equal(stex_wgsl_module_create("fn c() -> u32 { return 1u; }\n"
                                             "fn b() -> u32 { return c() + c(); }\n"
                                             "fn a() -> u32 { return b() + c(); }\n", "t.wgsl", &m),
                     STEX_OK);
    stex_wgsl_module_destroy(m);
}

/* A pointer type names a variable some address space could declare
 * (WGSL "Reference and pointer types"; CTS types,pointer): the access mode
 * only for storage, and read or read_write there; a store type that
 * address space holds. */
static void test_pointer_types(void **s)
{
    (void)s;
    const char *src = "alias p1 = ptr<function, u32, read_write>;\n"
                      "alias p2 = ptr<storage, u32, write>;\n"
                      "alias p3 = ptr<private, atomic<u32>>;\n"
                      "alias p4 = ptr<workgroup, array<i32>>;\n"
                      "alias p5 = ptr<uniform, array<i32>>;\n"
                      "alias p6 = ptr<function, sampler>;\n"
                      "alias ok1 = ptr<storage, array<u32>, read_write>;\n"
                      "alias ok2 = ptr<workgroup, atomic<u32>>;\n"
                      "alias ok3 = ptr<storage, u32>;\n";
    const char *want[] = {
        "t.wgsl:1:31: error: an access mode is written only for ptr<storage, T, access>; "
        "ptr<function, T> always has its address space's [ref-ptr-types]",
        "t.wgsl:2:30: error: a pointer into the storage address space is read or read_write "
        "[ref-ptr-types]",
        "t.wgsl:3:25: error: ptr<private, atomic<u32>> points at what no var<private> holds: "
        "var<private> holds a constructible type [ref-ptr-types]",
        "t.wgsl:4:27: error: ptr<workgroup, array<i32>> points at what no var<workgroup> "
        "holds: var<workgroup> holds a plain type of a fixed footprint [ref-ptr-types]",
        "t.wgsl:5:25: error: ptr<uniform, array<i32>> points at what no var<uniform> holds: it "
        "holds a runtime-sized array (var<uniform> needs a fixed size) [ref-ptr-types]",
        "t.wgsl:6:26: error: ptr<function, sampler> points at what no var<function> holds: a "
        "function-scope var holds a constructible type [ref-ptr-types]"};
    expect(src, want, 6);
}

/* WGSL identifiers are Unicode's (UAX #31): XID_Start or '_', then
 * XID_Continue.  Valid: Spanish ñ, Greek, CJK, a combining acute accent
 * after a letter (XID_Continue).  Invalid: the euro sign (no identifier
 * character), a combining accent first (XID_Continue, not XID_Start), a
 * byte that is not UTF-8. */
static void test_unicode_identifiers(void **s)
{
    (void)s;
    stex_wgsl_module *m;
    const char *ok = "override tama\u00f1o : u32 = 3u;\nconst \u03bb = 2u;\n"
                     "const \u6570 = 5u;\nconst cafe\u0301 = 7u;\n"
                     "@group(0) @binding(0) var<storage, read_write> v : array<u32>;\n"
                     "@compute @workgroup_size(1) fn main() { v[0] = tama\u00f1o * \u03bb + \u6570 + cafe\u0301; }\n";
    assert_int_equal(stex_wgsl_module_create(ok, "t.wgsl", &m), STEX_OK);
    assert_int_equal(stex_wgsl_override_count(m), 1);
    assert_string_equal(stex_wgsl_override_at(m, 0)->name, "tama\u00f1o");
    stex_wgsl_module_destroy(m);
    const char *euro[] = {"t.wgsl:1:8: error: unexpected character U+20AC"};
    expect("const a\u20ac = 1;\n", euro, 1);
    const char *mark[] = {"t.wgsl:1:7: error: unexpected character U+0301"};
    expect("const \u0301a = 1;\n", mark, 1);
    const char *bad[] = {"t.wgsl:1:8: error: the source is not valid UTF-8 here [tokens]"};
    expect("const a\xff = 1;\n", bad, 1);
}

/* WGSL: a module must not contain a reserved word anywhere, and a keyword
 * is never a name (spec "Reserved Words", "Keyword Summary"). */
static void test_reserved_words_and_keywords(void **s)
{
    (void)s;
    const char *reserved[] = {"t.wgsl:1:14: error: 'target' is a reserved word (WGSL keeps it "
                              "for future use) [reserved-words]",
                              "t.wgsl:2:28: error: 'Self' is a reserved word"};
    expect("var<private> target : i32;\nfn f() -> i32 { return 1 + Self; }\n", reserved, 2);
    const char *keyword[] = {"t.wgsl:1:14: error: 'alias' is a keyword and cannot be a name "
                             "[identifiers]",
                             "t.wgsl:2:6: error: 'loop' is a keyword and cannot be a parameter "
                             "name [identifiers]"};
    expect("var<private> alias : i32;\nfn g(loop : i32) {}\n", keyword, 2);
    /* near misses are names: a keyword's prefix, another case */
    stex_wgsl_module *m;
    assert_int_equal(stex_wgsl_module_create("var<private> aliased : i32;\nvar<private> Loop : i32;\n"
                                             "var<private> self_test : i32;\n", "t.wgsl", &m),
                     STEX_OK);
    stex_wgsl_module_destroy(m);
}

/* A module-scope struct or alias shadows a predeclared type name (WGSL's
 * predeclared names are not keywords): then the name means the declaration,
 * and the generator's template form is gone. */
static void test_shadowing_predeclared_types(void **s)
{
    (void)s;
    stex_wgsl_module *m;
    const char *ok = "struct vec2 { a : i32 }\nalias array = u32;\n"
                     "@group(0) @binding(0) var<storage, read_write> o : array;\n"
                     "@compute @workgroup_size(1) fn main() { var v : vec2; v.a = 3; o = u32(v.a); }\n";
    assert_int_equal(stex_wgsl_module_create(ok, "t.wgsl", &m), STEX_OK);
    stex_wgsl_module_destroy(m);
    const char *gone[] = {"t.wgsl:2:18: error: 'vec2' takes no template arguments [type]"};
    expect("struct vec2 { a : i32 }\nfn f() { var v : vec2<f32>; }\n", gone, 1);
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

/* Uniformity (WGSL 14.2): one case per source; want NULL = valid. */
#define HEAD "var<workgroup> tile : array<u32, 64>;\n" \
             "var<workgroup> flag : u32;\n" \
             "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n" \
             "@group(0) @binding(1) var<uniform> n : u32;\n" \
             "@compute @workgroup_size(64)\n" \
             "fn main(@builtin(local_invocation_id) lid : vec3<u32>,\n" \
             "        @builtin(workgroup_id) wid : vec3<u32>) {\n"
typedef struct uni_case {
    const char *body;
    const char *want; /* a piece of the one diagnostic, or NULL for a valid module */
} uni_case;

static const uni_case UNI[] = {
    /* the spec's first example: a barrier under a branch on the invocation id */
    {"  if (lid.x == 0u) {\n    workgroupBarrier();\n  }\n}\n",
     "t.wgsl:9:5: error: workgroupBarrier must only be called from uniform control flow: "
     "control flow is non-uniform from line 8:3, which depends on local_invocation_id "
     "[uniformity]"},
    /* uniform conditions: a uniform buffer, the workgroup id, constants */
    {"  if (n > 4u && wid.x == 1u) {\n    workgroupBarrier();\n  }\n"
     "  for (var i = 0u; i < n; i++) {\n    tile[lid.x] = i;\n    workgroupBarrier();\n  }\n}\n",
     NULL},
    /* a value derived from the id, through a let and a var */
    {"  let a = lid.x * 2u;\n  var b = 1u;\n  b = b + a;\n  if (b > 3u) {\n"
     "    storageBarrier();\n  }\n}\n", "t.wgsl:12:5: error: storageBarrier must only"},
    /* after a return some invocations took */
    {"  if (lid.x >= n) {\n    return;\n  }\n  workgroupBarrier();\n}\n",
     "t.wgsl:11:3: error: workgroupBarrier must only be called from uniform control flow: "
     "control flow is non-uniform from line 9:5, which depends on a 'return' taken by only "
     "some invocations"},
    /* a return every invocation takes keeps the rest uniform */
    {"  if (n == 0u) {\n    return;\n  }\n  workgroupBarrier();\n}\n", NULL},
    /* after a break some invocations took: inside the loop it is non-uniform;
     * after the loop every invocation is back (the loop's behaviour is {Next}:
     * WGSL 14.2.8; Dawn accepts it, wgslexpr's
     * validate.workgroupBarrier_after_loop_with_nonuniform_break) */
    {"  loop {\n    if (lid.x == 3u) {\n      break;\n    }\n    workgroupBarrier();\n  }\n}\n",
     "t.wgsl:12:5: error: workgroupBarrier must only"},
    {"  for (var i = 0u; i < 4u; i++) {\n    if (tile[i] == 0u) { break; }\n  }\n"
     "  workgroupBarrier();\n}\n", NULL},
    /* ... but a return in the loop is still felt after it */
    {"  for (var i = 0u; i < 4u; i++) {\n    if (tile[i] == 0u) { return; }\n  }\n"
     "  workgroupBarrier();\n}\n", "t.wgsl:11:3: error: workgroupBarrier must only"},
    /* a break in a switch leaves the switch only; in a loop it is felt in the
     * rest of the loop */
    {"  loop {\n    switch (lid.x) {\n      case 0u: { break; }\n      default: {}\n    }\n"
     "    workgroupBarrier();\n    break;\n  }\n}\n", NULL},
    {"  loop {\n    switch (n) {\n      case 0u: { if (lid.x == 0u) { continue; } }\n"
     "      default: {}\n    }\n    workgroupBarrier();\n    break;\n  }\n}\n",
     "t.wgsl:13:5: error: workgroupBarrier must only"},
    /* a loop whose condition differs between invocations */
    {"  var i = 0u;\n  while (i < lid.x) {\n    workgroupBarrier();\n    i++;\n  }\n}\n",
     "t.wgsl:10:5: error: workgroupBarrier must only"},
    /* a variable made non-uniform on a later iteration (the taints settle) */
    {"  var k = 0u;\n  for (var i = 0u; i < 4u; i++) {\n    if (k == 1u) {\n"
     "      workgroupBarrier();\n    }\n    k = lid.x;\n  }\n}\n",
     "t.wgsl:11:7: error: workgroupBarrier must only"},
    /* workgroup memory and atomics are non-uniform; workgroupUniformLoad is not */
    {"  if (tile[0] == 1u) {\n    workgroupBarrier();\n  }\n}\n",
     "which depends on a read of a var<workgroup>"},
    {"  if (workgroupUniformLoad(&flag) == 1u) {\n    workgroupBarrier();\n  }\n}\n", NULL},
    {"  if (lid.x == 0u) {\n    let v = workgroupUniformLoad(&flag);\n  }\n}\n",
     "t.wgsl:9:13: error: workgroupUniformLoad must only be called from uniform control flow"},
    /* a switch on the id; && whose left side is non-uniform */
    {"  switch (lid.x) {\n    case 0u: { workgroupBarrier(); }\n    default: {}\n  }\n}\n",
     "t.wgsl:9:16: error: workgroupBarrier must only"},
    {"  if (lid.x == 0u && workgroupUniformLoad(&flag) == 0u) {\n  }\n}\n",
     "t.wgsl:8:22: error: workgroupUniformLoad must only"},
};

static const char UNI_FN[] =
    "fn sync(x : u32) {\n  if (x == 0u) {\n    workgroupBarrier();\n  }\n}\n"
    "@compute @workgroup_size(8)\n"
    "fn main(@builtin(local_invocation_index) i : u32, @builtin(workgroup_id) w : vec3<u32>) {\n"
    "  sync(w.x);\n  sync(i);\n}\n";

static void test_uniformity(void **s)
{
    (void)s;
    for (size_t i = 0; i < sizeof UNI / sizeof UNI[0]; i++) {
        char src[2048];
        snprintf(src, sizeof src, "%s%s", HEAD, UNI[i].body);
        stex_wgsl_module *m;
        stex_status st = stex_wgsl_module_create(src, "t.wgsl", &m);
        const char *text = stex_wgsl_module_diagnostics(m);
        if (!UNI[i].want && st != STEX_OK)
            fail_msg("case %zu: expected valid, got:\n%s", i, text);
        if (UNI[i].want && (st != STEX_VALIDATION_ERROR || !strstr(text, UNI[i].want) ||
                            stex_wgsl_module_error_count(m) != 1))
            fail_msg("case %zu: expected one error with '%s', got:\n%s", i, UNI[i].want, text);
        stex_wgsl_module_destroy(m);
    }
    /* through a function: its parameter's uniformity at each call */
    const char *want[] = {"t.wgsl:3:5: error: workgroupBarrier must only be called from uniform "
                          "control flow (in function 'sync', called at line 9): control flow is "
                          "non-uniform from line 2:3, which depends on local_invocation_index"};
    expect(UNI_FN, want, 1);
}

/* WGSL 1: a module may hold vertex and fragment entry points beside the
 * compute ones; stex checks them (they are not run). The fragment stage's
 * builtins - implicit-derivative sampling, dpdx and its kin, discard - are
 * valid there and in helpers only they call, and errors wherever a compute
 * or vertex entry point reaches them (the spec's stage rules). */
static const char GRAPHICS[] =
    "struct VOut { @builtin(position) pos : vec4<f32>, @location(0) uv : vec2<f32> };\n"
    "@vertex fn vs(@builtin(vertex_index) i : u32) -> VOut {\n"
    "  var o : VOut;\n"
    "  o.pos = vec4<f32>(f32(i & 1u), 0.0, 0.0, 1.0);\n"
    "  o.uv = o.pos.xy;\n"
    "  return o;\n"
    "}\n"
    "@group(0) @binding(0) var t : texture_2d<f32>;\n"
    "@group(0) @binding(1) var s : sampler;\n"
    "@group(0) @binding(3) var d : texture_depth_2d;\n"
    "@group(0) @binding(4) var sc : sampler_comparison;\n"
    "fn shade(uv : vec2<f32>) -> vec4<f32> {\n"
    "  return textureSampleBias(t, s, uv, 0.5) * fwidth(uv.x);\n"
    "}\n"
    "@fragment fn fs(@location(0) uv : vec2<f32>) -> @location(0) vec4<f32> {\n"
    "  if (uv.x < 0.0) { discard; }\n"
    "  let depth : f32 = textureSampleCompare(d, sc, uv, 0.5);\n"
    "  return textureSample(t, s, uv) * dpdx(uv.x) + shade(dpdyFine(uv)) * depth;\n"
    "}\n"
    "@group(0) @binding(2) var<storage, read_write> o : array<u32>;\n"
    "@compute @workgroup_size(1) fn main() { o[0] = 1u; }\n";

static void test_graphics_entry_points(void **s)
{
    (void)s;
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(GRAPHICS, "t.wgsl", &m))
        fail_msg("%s", stex_wgsl_module_diagnostics(m));
    /* only the compute entry point is one stex runs */
    assert_int_equal(stex_wgsl_entry_point_count(m), 1);
    stex_wgsl_module_destroy(m);
    /* a compute entry point that reaches them: each is an error where it stands */
    const char *src =
        "@group(0) @binding(0) var t : texture_2d<f32>;\n"
        "@group(0) @binding(1) var s : sampler;\n"
        "@group(0) @binding(2) var<storage, read_write> o : array<f32>;\n"
        "fn helper(v : f32) -> f32 { return dpdx(v); }\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  o[0] = textureSample(t, s, vec2<f32>(0.5)).x + helper(1.0);\n"
        "  if (o[1] > 0.0) { discard; }\n"
        "}\n";
    const char *want[] = {
        "t.wgsl:6:10: error: textureSample computes derivatives and may only be called from a "
        "fragment shader",
        "t.wgsl:6:50: error: 'helper' calls dpdx (line 4, column 36), which only a fragment "
        "shader may call [shader-stage]",
        "t.wgsl:7:21: error: 'discard' is only allowed in fragment shaders [discard-statement]"};
    expect(src, want, 3);
    /* a vertex entry point that reaches them (textureSample:only_in_fragment,
     * derivatives:only_in_fragment and discard:placement with a vertex entry
     * point were accepted) */
    const char *vsrc =
        "@group(0) @binding(0) var t : texture_2d<f32>;\n"
        "@group(0) @binding(1) var s : sampler;\n"
        "fn foo() { _ = textureSample(t, s, vec2f(0)); }\n"
        "@vertex fn main() -> @builtin(position) vec4f {\n"
        "  foo();\n"
        "  if (dpdy(1.0) > 0.0) { discard; }\n"
        "  return vec4f();\n"
        "}\n";
    const char *vwant[] = {
        "t.wgsl:5:3: error: 'foo' calls textureSample (line 3, column 16), which only a "
        "fragment shader may call [shader-stage]",
        "t.wgsl:6:7: error: dpdy is a derivative and may only be called from a fragment shader",
        "t.wgsl:6:26: error: 'discard' is only allowed in fragment shaders [discard-statement]"};
    expect(vsrc, vwant, 3);
}

/* derivative_uniformity (WGSL 2.3.2, 14.2): each case's severity and
 * position as Dawn's getCompilationInfo gave them for the same text (type,
 * lineNum, linePos; `webgpu` 0.6.2).  Where Dawn stops at a function's first
 * uniformity error, stex may report more: `first` is Dawn's. */
#define SAMPLER_DECLS "@group(0) @binding(0) var t : texture_2d<f32>;\n" \
                      "@group(0) @binding(1) var s : sampler;\n"
#define FRAG_IF(ATTR, BODY_ATTR)                                                          \
    SAMPLER_DECLS ATTR "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n" \
    "  if (uv.x > 0.5) " BODY_ATTR "{ return textureSample(t, s, uv); }\n"                   \
    "  return vec4f(0);\n}\n"

typedef struct deriv_case {
    const char *name, *src;
    int severity; /* -1: valid, nothing reported */
    uint32_t line, col;
} deriv_case;

static const deriv_case DERIV[] = {
    {"non-uniform if", FRAG_IF("", ""), STEX_WGSL_ERROR, 4, 28},
    {"directive off", "diagnostic(off, derivative_uniformity);\n" FRAG_IF("", ""), -1, 0, 0},
    {"directive warning", "diagnostic(warning, derivative_uniformity);\n" FRAG_IF("", ""),
     STEX_WGSL_WARNING, 5, 28},
    {"directive error", "diagnostic(error, derivative_uniformity);\n" FRAG_IF("", ""),
     STEX_WGSL_ERROR, 5, 28},
    {"@diagnostic(info) on the function",
     FRAG_IF("@diagnostic(info, derivative_uniformity) ", ""), STEX_WGSL_INFO, 4, 28},
    {"@diagnostic(warning) on the block",
     FRAG_IF("", "@diagnostic(warning, derivative_uniformity) "), STEX_WGSL_WARNING, 4, 72},
    {"struct input",
     "struct In { @builtin(position) pos : vec4f, @location(0) uv : vec2f };\n" SAMPLER_DECLS
     "@fragment fn main(i : In) -> @location(0) vec4f {\n"
     "  if (i.uv.x > 0.5) { return textureSample(t, s, i.uv); }\n  return vec4f(0);\n}\n",
     STEX_WGSL_ERROR, 5, 30},
    {"after a non-uniform return", SAMPLER_DECLS
     "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n"
     "  if (uv.x > 0.5) { return vec4f(1); }\n  return textureSample(t, s, uv);\n}\n",
     STEX_WGSL_ERROR, 5, 10},
    {"in a called function", SAMPLER_DECLS
     "fn g(uv: vec2f) -> vec4f { return textureSample(t, s, uv); }\n"
     "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n"
     "  if (uv.x > 0.5) { return g(uv); }\n  return vec4f(0);\n}\n", STEX_WGSL_ERROR, 3, 35},
    {"off on the called function", SAMPLER_DECLS
     "@diagnostic(off, derivative_uniformity) fn g(uv : vec2f) -> vec4f {\n"
     "  return textureSample(t, s, uv);\n}\n"
     "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n"
     "  if (uv.x > 0.5) { return g(uv); }\n  return vec4f(0);\n}\n", -1, 0, 0},
    {"fwidth", "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n"
     "  var r = 0.0;\n  if (uv.x > 0.5) { r = dpdx(uv.x) + fwidth(uv.y); }\n"
     "  return vec4f(r);\n}\n", STEX_WGSL_ERROR, 3, 38},
    {"textureSampleCompare in a switch",
     "@group(0) @binding(2) var d : texture_depth_2d;\n"
     "@group(0) @binding(3) var sc : sampler_comparison;\n"
     "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n"
     "  var r = vec4f(0);\n"
     "  switch (i32(uv.y)) { case 0: { r.x = textureSampleCompare(d, sc, uv, 0.5); } "
     "default: {} }\n"
     "  return r;\n}\n", STEX_WGSL_ERROR, 5, 40},
    {"uniform condition", SAMPLER_DECLS "@group(0) @binding(2) var<uniform> k : f32;\n"
     "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n"
     "  if (k > 0.5) { return textureSample(t, s, uv); }\n  return vec4f(0);\n}\n", -1, 0, 0},
    {"after discard (helper invocations keep derivatives)",
     "@fragment fn main(@location(0) uv : vec2f) -> @location(0) vec4f {\n"
     "  if (uv.x > 0.5) { discard; }\n  return vec4f(dpdx(uv.x));\n}\n", -1, 0, 0},
    {"a barrier is not a derivative",
     "diagnostic(warning, derivative_uniformity);\n"
     "@group(0) @binding(0) var<storage, read_write> b : array<u32>;\n"
     "@compute @workgroup_size(1) fn main(@builtin(local_invocation_index) i : u32) {\n"
     "  if (b[i] > 0) { workgroupBarrier(); }\n}\n", STEX_WGSL_ERROR, 4, 19},
};

static void test_derivative_uniformity(void **s)
{
    (void)s;
    for (size_t i = 0; i < sizeof DERIV / sizeof DERIV[0]; i++) {
        const deriv_case *c = &DERIV[i];
        stex_wgsl_module *m;
        stex_status st = stex_wgsl_module_create(c->src, "t.wgsl", &m);
        const char *text = stex_wgsl_module_diagnostics(m);
        size_t n = stex_wgsl_module_diagnostic_count(m);
        if (c->severity < 0) {
            if (st != STEX_OK || n)
                fail_msg("%s: expected valid and silent, got:\n%s", c->name, text);
        } else {
            stex_wgsl_diagnostic g = {0};
            bool found = false;
            for (size_t k = 0; !found && stex_wgsl_module_diagnostic_at(m, k, &g); k++)
                found = (int)g.severity == c->severity && g.line == c->line &&
                        g.column == c->col && !strcmp(g.rule, c->severity == STEX_WGSL_ERROR &&
                                                      strstr(c->name, "barrier")
                                                          ? "uniformity" : "derivative_uniformity");
            if (!found || (st == STEX_OK) != (c->severity != STEX_WGSL_ERROR))
                fail_msg("%s: expected severity %d at %u:%u, got:\n%s", c->name, c->severity,
                         c->line, c->col, text);
        }
        stex_wgsl_module_destroy(m);
    }
}

/* Warnings leave a module valid and are listed with it: a statement after
 * a return (Dawn: "code is unreachable", a warning, 1:49), an unknown rule
 * in a filter (Dawn: a warning at the rule, 1:17); a filter turns the
 * first off; a bad severity is an error (Dawn: 1:12). */
static void test_warnings(void **s)
{
    (void)s;
    static const struct {
        const char *src, *want;
        stex_status st;
    } cases[] = {
        {"@compute @workgroup_size(1) fn main() { return; let x = 1; }\n",
         "t.wgsl:1:49: warning: code is unreachable [chromium.unreachable_code]", STEX_OK},
        {"@compute @workgroup_size(1) fn main() { loop { break; let y = 2; } }\n",
         "t.wgsl:1:55: warning: code is unreachable", STEX_OK},
        {"diagnostic(off, derivative_uniformty);\n@compute @workgroup_size(1) fn main() {}\n",
         "t.wgsl:1:17: warning: unrecognized diagnostic rule 'derivative_uniformty' (did you "
         "mean 'derivative_uniformity'?)", STEX_OK},
        {"diagnostic(off, chromium.unreachable_code);\n"
         "@compute @workgroup_size(1) fn main() { return; let x = 1; }\n", "", STEX_OK},
        {"diagnostic(loud, derivative_uniformity);\n@compute @workgroup_size(1) fn main() {}\n",
         "t.wgsl:1:12: error: a diagnostic filter's severity is error, warning, info or off",
         STEX_VALIDATION_ERROR},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_wgsl_module *m;
        stex_status st = stex_wgsl_module_create(cases[i].src, "t.wgsl", &m);
        const char *text = stex_wgsl_module_diagnostics(m);
        if (st != cases[i].st || (*cases[i].want ? !strstr(text, cases[i].want) : *text != 0))
            fail_msg("case %zu: expected status %d and '%s', got %d:\n%s", i, cases[i].st,
                     cases[i].want, st, text);
        stex_wgsl_module_destroy(m);
    }
}

/* Columns count code points (WGSL counts characters): Dawn's linePos for
 * the 1.5 after "let \u00e9\u00e9" is 40 (UTF-16 units, one each); after two
 * characters past U+FFFF it is 42 (two units each), where the code points
 * are 40 again.  The caret stands under the column. */
static void test_columns_count_code_points(void **s)
{
    (void)s;
    const char *bmp[] = {"t.wgsl:1:40: error: the initializer has type abstract-float where "
                         "i32 is expected [type-mismatch]\n"
                         "  fn f() { let \u00e9\u00e9: i32 = 1; let y: i32 = 1.5; }\n"
                         "                                         ^\n"};
    expect("fn f() { let \u00e9\u00e9: i32 = 1; let y: i32 = 1.5; }\n", bmp, 1);
    const char *astral[] = {"t.wgsl:1:40: error"};
    expect("fn f() { let \U00020000\U00020001: i32 = 1; let y: i32 = 1.5; }\n", astral, 1);
    const char *tab[] = {"t.wgsl:2:10: error: unknown identifier 'q'"
                         " [identifier]\n  \tlet \u03bb = q;\n  \t        ^\n"};
    expect("fn f() {\n\tlet \u03bb = q;\n}\n", tab, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_syntax_errors_recover), cmocka_unit_test(test_type_errors),
        cmocka_unit_test(test_recursion_and_caret), cmocka_unit_test(test_indirect_recursion),
        cmocka_unit_test(test_pointer_types), cmocka_unit_test(test_valid_module),
        cmocka_unit_test(test_uniformity), cmocka_unit_test(test_graphics_entry_points),
        cmocka_unit_test(test_unicode_identifiers),
        cmocka_unit_test(test_reserved_words_and_keywords),
        cmocka_unit_test(test_shadowing_predeclared_types),
        cmocka_unit_test(test_derivative_uniformity), cmocka_unit_test(test_warnings),
        cmocka_unit_test(test_columns_count_code_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
