/* Functions and statements as the WebGPU CTS's shader,validation tests
 * (at 3314e410, named beside each case) expect from the WGSL spec: the
 * behaviour analysis of statements (WGSL 9.8: no statement without a way
 * out, a function returning a value cannot fall off its end, a continuing
 * block leaves through neither 'return' nor 'continue'), the types a
 * function may take and return (11.1), and types that are no values
 * (wgsl_cases.h), and alias analysis (WGSL "Alias Analysis"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <string.h>

#include "wgsl_cases.h"
#include "wgsl_fixture.h"
#include "wgsl_resources.h"

/* statement,statement_behavior:invalid_statements: each body in
 * `fn foo() { BODY; }`; the loops that never end were accepted (an
 * interpreter would spin on them), as was 'return' in a continuing block. */
#define FOO(body) "fn foo() {\n  " body ";\n}\n"
static const wgsl_case INVALID_STATEMENTS[] = {
    {"invalid_statements:body=\"break\"", FOO("break"), "[break-statement]"},
    {"invalid_statements:body=\"break_if\"", FOO("break if true"), "[break-if]"},
    {"invalid_statements:body=\"continue\"", FOO("continue"), "[continue-statement]"},
    {"invalid_statements:body=\"loop1\"", FOO("loop { }"), "[behaviors]"},
    {"invalid_statements:body=\"loop2\"", FOO("loop { continuing { } }"), "[behaviors]"},
    {"invalid_statements:body=\"loop3\"", FOO("loop { continue; continuing { } }"), "[behaviors]"},
    {"invalid_statements:body=\"loop4\"", FOO("loop { continuing { break; } }"), "[break-statement]"},
    {"invalid_statements:body=\"loop5\"", FOO("loop { continuing { continue; } }"), "[behaviors]"},
    {"invalid_statements:body=\"loop6\"", FOO("loop { continuing { return; } }"), "[behaviors]"},
    {"invalid_statements:body=\"loop7\"", FOO("loop { continue; break; }"), "[behaviors]"},
    {"invalid_statements:body=\"loop8\"", FOO("loop { continuing { break if true; return; } }"), "[break-if]"},
    {"invalid_statements:body=\"for1\"", FOO("for (;;) { }"), "[behaviors]"},
    {"invalid_statements:body=\"for2\"", FOO("for (var i = 0; ; i++) { }"), "[behaviors]"},
    {"invalid_statements:body=\"for3\"", FOO("for (;; break) { }"), "[syntax]"},
    {"invalid_statements:body=\"for4\"", FOO("for (;; continue ) { }"), "[syntax]"},
    {"invalid_statements:body=\"for5\"", FOO("for (;; return ) { }"), "[syntax]"},
    {"invalid_statements:body=\"for6\"", FOO("for (;;) { continue; break; }"), "[behaviors]"},
    {"invalid_statements:body=\"switch1\"", FOO("switch (1) { case 1 { } }"), "[switch-statement]"},
    {"invalid_statements:body=\"sequence1\"", FOO("return; loop { }"), "[behaviors]"},
    {"invalid_statements:body=\"compound1\"", FOO("{ loop { } }"), "[behaviors]"},
};

/* statement,statement_behavior:valid_statements */
#define VALID(body) "var<private> v : i32;\nfn bar() { }\nfn foo() {\n  " body ";\n}\n"
static const wgsl_case VALID_STATEMENTS[] = {
    {"valid_statements:body=\"empty\"", VALID(""), NULL},
    {"valid_statements:body=\"const_assert\"", VALID("const_assert true"), NULL},
    {"valid_statements:body=\"let\"", VALID("let x = 1"), NULL},
    {"valid_statements:body=\"var1\"", VALID("var x = 1"), NULL},
    {"valid_statements:body=\"var2\"", VALID("var x : i32"), NULL},
    {"valid_statements:body=\"assign\"", VALID("v = 1"), NULL},
    {"valid_statements:body=\"phony_assign\"", VALID("_ = 1"), NULL},
    {"valid_statements:body=\"compound_assign\"", VALID("v += 1"), NULL},
    {"valid_statements:body=\"return\"", VALID("return"), NULL},
    {"valid_statements:body=\"discard\"", VALID("discard"), NULL},
    {"valid_statements:body=\"function_call1\"", VALID("bar()"), NULL},
    {"valid_statements:body=\"function_call2\"", VALID("workgroupBarrier()"), NULL},
    {"valid_statements:body=\"if1\"", VALID("if true { } else { }"), NULL},
    {"valid_statements:body=\"if2\"", VALID("if true { }"), NULL},
    {"valid_statements:body=\"break1\"", VALID("loop { break; }"), NULL},
    {"valid_statements:body=\"break2\"", VALID("loop { if false { break; } }"), NULL},
    {"valid_statements:body=\"break_if\"", VALID("loop { continuing { break if false; } }"), NULL},
    {"valid_statements:body=\"continue1\"", VALID("loop { continue; continuing { break if true; } }"), NULL},
    {"valid_statements:body=\"loop1\"", VALID("loop { break; }"), NULL},
    {"valid_statements:body=\"loop2\"", VALID("loop { break; continuing { } }"), NULL},
    {"valid_statements:body=\"loop3\"", VALID("loop { continue; continuing { break if true; } }"), NULL},
    {"valid_statements:body=\"loop4\"", VALID("loop { break; continue; }"), NULL},
    {"valid_statements:body=\"for1\"", VALID("for (; true; ) { }"), NULL},
    {"valid_statements:body=\"for2\"", VALID("for (;;) { break; }"), NULL},
    {"valid_statements:body=\"for3\"", VALID("for (;true;) { continue; }"), NULL},
    {"valid_statements:body=\"while1\"", VALID("while true { }"), NULL},
    {"valid_statements:body=\"while2\"", VALID("while true { continue; }"), NULL},
    {"valid_statements:body=\"while3\"", VALID("while true { continue; break; }"), NULL},
    {"valid_statements:body=\"switch1\"", VALID("switch 1 { default { } }"), NULL},
    {"valid_statements:body=\"switch2\"", VALID("switch 1 { case 1 { } default { } }"), NULL},
    {"valid_statements:body=\"switch3\"", VALID("switch 1 { default { break; } }"), NULL},
    {"valid_statements:body=\"switch4\"", VALID("switch 1 { default { } case 1 { break; } }"), NULL},
    {"valid_statements:body=\"sequence1\"", VALID("return; let x = 1"), NULL},
    {"valid_statements:body=\"sequence2\"", VALID("if true { } let x = 1"), NULL},
    {"valid_statements:body=\"sequence3\"", VALID("switch 1 { default { break; return; } }"), NULL},
    {"valid_statements:body=\"compound1\"", VALID("{ }"), NULL},
    {"valid_statements:body=\"compound2\"", VALID("{ loop { break; } if true { return; } }"), NULL},
};

/* statement,statement_behavior:{invalid,valid}_functions: a function that
 * returns a value has the behaviour {Return} ('fn foo() -> bool { }' was
 * accepted) */
static const wgsl_case FUNCTIONS[] = {
    {"invalid_functions:function=\"next_for_type\"", "fn foo() -> bool { }\n", "[behaviors]"},
    {"invalid_functions:function=\"next_return_for_type\"", "fn foo() -> bool { if true { return true; } }\n", "[behaviors]"},
    {"valid_functions:function=\"empty\"", "fn foo() { }\n", NULL},
    {"valid_functions:function=\"next_return\"", "fn foo() { if true { return; } }\n", NULL},
    {"valid_functions:function=\"unreachable_code_after_return_with_value\"", "fn foo() -> bool { return false; _ = 0; }\n", NULL},
    {"valid_functions:function=\"no_final_return\"", "fn foo() -> bool { if true { return true; } else { return false; } }\n", NULL},
    {"valid_functions:function=\"no_final_return_unreachable_code\"", "fn foo() -> bool { if true { return true; } else { return false; } _ = 0; _ = 1; }\n", NULL},
    {"a loop that returns", "fn foo() -> u32 { loop { if true { return 1u; } } }\n", NULL},
    {"a switch that returns", "fn foo() -> u32 { switch 1 { default { return 1u; } } }\n",
     NULL},
    {"a while that returns", "fn foo() -> u32 { while true { return 1u; } }\n",
     "[behaviors]"},
};

/* WGSL "Alias Analysis": a call may not hand a function two ways to one
 * variable (two pointer arguments with the same root identifier, or a
 * pointer into a module-scope variable the callee also names) where one of
 * them is written, by the callee or a function it calls.  The first six are
 * the spec's own example (its f6 and f7 called as statements); the rest
 * from functions,alias_analysis.  Each refusal was accepted. */
#define F_PTRS "fn f1(p1 : ptr<function, i32>, p2 : ptr<function, i32>) { *p1 = *p2; }\n" \
               "fn f2(p1 : ptr<function, i32>, p2 : ptr<function, i32>) { f1(p1, p2); }\n"
#define PRIV_XY "var<private> x : i32;\nvar<private> y : i32;\n"
static const wgsl_case ALIASING[] = {
    {"spec: f3, written through a subfunction",
     F_PTRS "fn f3() { var a : i32 = 0; f2(&a, &a); }\n", "[alias-analysis]"},
    {"spec: f3 with two variables", F_PTRS "fn f3() { var a : i32; var b : i32; f2(&a, &b); }\n",
     NULL},
    {"spec: f5, both only read",
     "fn f4(p1 : ptr<function, i32>, p2 : ptr<function, i32>) -> i32 { return *p1 + *p2; }\n"
     "fn f5() { var a : i32 = 0; let b = f4(&a, &a); }\n", NULL},
    {"spec: f8, the global written by name",
     "var<private> x : i32 = 0;\nfn f6(p : ptr<private, i32>) { x = *p; }\n"
     "fn f8() { f6(&x); }\n", "[alias-analysis]"},
    {"spec: f8, the global read both ways",
     "var<private> x : i32 = 0;\nfn f7(p : ptr<private, i32>) -> i32 { return x + *p; }\n"
     "fn f8() { let b = f7(&x); }\n", NULL},
    {"spec: f8, through a let and a callee of the callee",
     "var<private> x : i32 = 0;\nfn w() { let q = &x; *q = 1; }\n"
     "fn f6(p : ptr<private, i32>) -> i32 { w(); return *p; }\n"
     "fn f8() { _ = f6(&x); }\n", "[alias-analysis]"},
    {"two_pointers:address_space=\"private\";aliased=true;a_use=\"assign\";b_use=\"no_access\"",
     PRIV_XY "fn callee(pa : ptr<private, i32>, pb : ptr<private, i32>) -> i32 {\n"
     "  *pa = 42; { let p = &*&*pb; } return 0; }\nfn caller() { callee(&x, &x); }\n", NULL},
    {"two_pointers:address_space=\"private\";aliased=true;a_use=\"increment\";b_use=\"return\"",
     PRIV_XY "fn callee(pa : ptr<private, i32>, pb : ptr<private, i32>) -> i32 {\n"
     "  (*pa)++; { return *pb; } return 0; }\nfn caller() { callee(&x, &x); }\n",
     "[alias-analysis]"},
    {"two_pointers:address_space=\"private\";aliased=false;a_use=\"assign\";b_use=\"assign\"",
     PRIV_XY "fn callee(pa : ptr<private, i32>, pb : ptr<private, i32>) {\n"
     "  *pa = 42; *pb = 42; }\nfn caller() { callee(&x, &y); }\n", NULL},
    {"two_pointers_to_array_elements:address_space=\"function\";index=1;aliased=true",
     "fn callee(pa : ptr<function, i32>, pb : ptr<function, i32>) { *pa = 42; _ = *pb; }\n"
     "fn caller() { var x : array<i32, 4>; callee(&x[1], &x[0]); }\n", "[alias-analysis]"},
    {"two_pointers_to_struct_members_indirect:address_space=\"function\";member=\"b\";"
     "a_use=\"compound_assign_lhs\";b_use=\"no_access\"",
     "struct S { a : i32, b : i32 }\n"
     "fn callee(pa : ptr<function, i32>, pb : ptr<function, i32>) { *pa += 1; }\n"
     "fn access(pa : ptr<function, S>, pb : ptr<function, S>) { callee(&(*pa).b, &(*pb).a); }\n"
     "fn caller() { var x : S; var y : S; access(&x, &y); access(&x, &x); }\n", NULL},
    {"two_pointers_to_struct_members_indirect, both written",
     "struct S { a : i32, b : i32 }\n"
     "fn callee(pa : ptr<function, i32>, pb : ptr<function, i32>) { *pa += 1; *pb = 0; }\n"
     "fn access(pa : ptr<function, S>, pb : ptr<function, S>) { callee(&pa.b, &(*pb).a); }\n"
     "fn caller() { var x : S; access(&x, &x); }\n", "[alias-analysis]"},
    {"one_pointer_one_module_scope:address_space=\"workgroup\";a_use=\"binary_lhs\";"
     "b_use=\"compound_assign_lhs\"",
     "var<workgroup> x : i32;\nvar<workgroup> y : i32;\n"
     "fn callee(pb : ptr<workgroup, i32>) -> i32 { _ = x + 1; *pb += 1; return 0; }\n"
     "fn caller() { callee(&x); callee(&y); }\n", "[alias-analysis]"},
    {"subcalls:address_space=\"private\";aliased=true;a_use=\"assign\";b_use=\"binary_lhs\"",
     PRIV_XY "fn sub_assign(p : ptr<private, i32>) { *p = 42; }\n"
     "fn sub_read(p : ptr<private, i32>) -> i32 { return *p + 1; }\n"
     "fn callee(pa : ptr<private, i32>, pb : ptr<private, i32>) -> i32 {\n"
     "  let new_pa = &*pa; let new_pb = &*pb; sub_assign(new_pa); _ = sub_read(new_pb);"
     " return 0; }\nfn caller() { callee(&x, &x); }\n", "[alias-analysis]"},
    {"two_atomic_pointers:builtin_a=\"atomicAdd\";builtin_b=\"atomicLoad\";"
     "address_space=\"workgroup\";aliased=true",
     "var<workgroup> x : atomic<i32>;\n"
     "fn callee(pa : ptr<workgroup, atomic<i32>>, pb : ptr<workgroup, atomic<i32>>) {\n"
     "  var i : i32; i += atomicAdd(pa, 42); i += atomicLoad(pb); }\n"
     "fn caller() { callee(&x, &x); }\n", "[alias-analysis]"},
    {"two_atomic_pointers:builtin_a=\"atomicLoad\";builtin_b=\"atomicLoad\";aliased=true",
     "var<workgroup> x : atomic<i32>;\n"
     "fn callee(pa : ptr<workgroup, atomic<i32>>, pb : ptr<workgroup, atomic<i32>>) {\n"
     "  var i : i32; i += atomicLoad(pa); i += atomicLoad(pb); }\n"
     "fn caller() { callee(&x, &x); }\n", NULL},
    {"one_atomic_pointer_one_module_scope:builtin_a=\"atomicLoad\";builtin_b=\"atomicStore\"",
     "var<workgroup> x : atomic<i32>;\n"
     "fn callee(p : ptr<workgroup, atomic<i32>>) {\n"
     "  var i : i32; i += atomicLoad(p); atomicStore(&x, 42); }\n"
     "fn caller() { callee(&x); }\n", "[alias-analysis]"},
    {"workgroup_uniform_load:use=\"workgroupUniformLoad\";aliased=true",
     "var<workgroup> x : i32;\n"
     "fn callee(pa : ptr<workgroup, i32>, pb : ptr<workgroup, i32>) -> i32 {\n"
     "  var v : i32; v = workgroupUniformLoad(pa); return v + workgroupUniformLoad(pb); }\n"
     "fn caller() { callee(&x, &x); }\n", NULL},
    {"aliasing_inside_function:address_space=\"private\"",
     "var<private> v : i32;\n"
     "fn foo() { var v : i32; let p1 = &v; let p2 = &v; *p1 = 42; *p2 = 42; }\n", NULL},
    {"a local that hides the global the callee writes",
     "var<private> x : i32;\nfn g(p : ptr<function, i32>) { x = 1; *p = 2; }\n"
     "fn h() { var x : i32; g(&x); }\n", NULL},
};

static void test_alias_analysis(void **s)
{
    (void)s;
    WGSL_CHECK(ALIASING);
}

static void test_statement_behaviour(void **s)
{
    (void)s;
    WGSL_CHECK(INVALID_STATEMENTS);
    WGSL_CHECK(VALID_STATEMENTS);
    WGSL_CHECK(FUNCTIONS);
}

/* functions,restrictions:function_return_types and function_parameter_types:
 * a return type is constructible; a parameter is constructible, a pointer, a
 * texture or a sampler (each of these was accepted) */
#define RTA "struct R { a : array<u32> }\n"
static const wgsl_case SIGNATURES[] = {
    {"function_return_types:type=\"ptr\"",
     "fn foo() -> ptr<function, u32> { loop { } }\n", "[function-restriction]"},
    {"function_return_types:type=\"atomic\"", "fn foo() -> atomic<u32> { loop { } }\n",
     "[function-restriction]"},
    {"function_return_types:type=\"runtime array\"",
     "fn foo() -> array<u32> { loop { } }\n", "[function-restriction]"},
    {"function_return_types:type=\"struct with runtime array\"",
     RTA "fn foo() -> R { loop { } }\n", "[function-restriction]"},
    {"function_return_types:type=\"sampler\"", "fn foo() -> sampler { loop { } }\n",
     "[function-restriction]"},
    {"function_return_types:type=\"texture\"", "fn foo() -> texture_2d<f32> { loop { } }\n",
     "[function-restriction]"},
    {"function_return_types:type=\"array of u32\"",
     "fn foo() -> array<u32, 4> { return array<u32, 4>(); }\n", NULL},
    {"function_parameter_types:type=\"atomic\"", "fn foo(p : atomic<u32>) { }\n",
     "[function-restriction]"},
    {"function_parameter_types:type=\"array of atomics\"",
     "fn foo(p : array<atomic<u32>, 2>) { }\n", "[function-restriction]"},
    {"function_parameter_types:type=\"runtime array\"", "fn foo(p : array<u32>) { }\n",
     "[function-restriction]"},
    {"function_parameter_types:type=\"struct with runtime array\"",
     RTA "fn foo(p : R) { }\n", "[function-restriction]"},
    {"function_parameter_types:type=\"texture\"", "fn foo(p : texture_2d<f32>) { }\n", NULL},
    {"function_parameter_types:type=\"sampler\"", "fn foo(p : sampler) { }\n", NULL},
    {"function_parameter_types:type=\"ptr\"", "fn foo(p : ptr<function, u32>) { }\n", NULL},
    /* stex offers unrestricted_pointer_parameters: a uniform pointer too (was refused) */
    {"function_parameter_types:case=\"ptr8\"", "fn foo(p : ptr<uniform, u32>) { }\n", NULL},
    /* function_parameter_matching:decl="ptr7"/"ptr10"/"ptr11": a pointer
     * argument's access mode is part of its type (each was accepted) */
    {"function_parameter_matching:decl=\"ptr7\";arg=\"ptr9\"",
     "struct H { a : i32, b : u32 }\n@group(1) @binding(0) var<storage> ro : H;\n"
     "fn bar(p : ptr<storage, u32, read_write>) { }\nfn foo() { bar(&ro.b); }\n",
     "[type-mismatch]"},
    {"function_parameter_matching:decl=\"ptr11\";arg=\"ptr10\"",
     "struct H { a : i32, b : u32 }\n@group(1) @binding(1) var<storage, read_write> rw : H;\n"
     "fn bar(p : ptr<storage, H, read>) { }\nfn foo() { bar(&rw); }\n", "[type-mismatch]"},
    {"function_parameter_matching:decl=\"ptr6\";arg=\"ptr9\"",
     "struct H { a : i32, b : u32 }\n@group(1) @binding(0) var<storage> ro : H;\n"
     "fn bar(p : ptr<storage, u32, read>) { }\nfn foo() { bar(&ro.b); }\n", NULL},
    {"a uniform pointer argument",
     "@group(0) @binding(0) var<uniform> u : vec4u;\n"
     "fn foo(p : ptr<uniform, vec4u>) -> u32 { return (*p).x; }\n"
     "@compute @workgroup_size(1) fn main() { _ = foo(&u); }\n", NULL},
};

/* Declarations Dawn refuses too (each was accepted): functions,restrictions:
 * param_names_must_differ and must_use_requires_return:ret=false,
 * types,struct:structures:case="empty". */
static const wgsl_case DECLARATIONS[] = {
    {"param_names_must_differ:p1=\"a\";p2=\"a\"", "fn f(a : u32, a : u32) { }\n",
     "[function-declaration]"},
    {"param_names_must_differ:p1=\"a\";p2=\"b\"", "fn f(a : u32, b : u32) { }\n", NULL},
    {"must_use_requires_return:ret=false", "@must_use fn g() { }\n", "[must-use]"},
    {"must_use_requires_return:ret=true", "@must_use fn g() -> u32 { return 1u; }\n", NULL},
    {"structures:case=\"empty\"", "struct S { }\n", "[struct-types]"},
};

static void test_signature_types(void **s)
{
    (void)s;
    WGSL_CHECK(SIGNATURES);
    WGSL_CHECK(DECLARATIONS);
}

/* A texture type named as a call is no value constructor (WGSL 8.x: only
 * constructible types construct); a texture builtin without its texture
 * argument was accepted without an error. */
static const wgsl_case NOT_VALUES[] = {
    {"texture_2d<f32>()", "fn foo() { _ = texture_2d<f32>(); }\n", "[value-constructor]"},
    {"texture_depth_2d()", "fn foo() { var t = texture_depth_2d(); }\n",
     "[value-constructor]"},
    {"texture_storage_2d<r32float, write>()",
     "const t : texture_storage_2d<r32float, write> = texture_storage_2d<r32float, write>();\n",
     "[value-constructor]"},
    {"textureDimensions()", "fn foo() { _ = textureDimensions(); }\n",
     "[texture-builtin-functions]"},
};

static void test_types_that_are_no_values(void **s)
{
    (void)s;
    WGSL_CHECK(NOT_VALUES);
}

/* functions,restrictions:function_attributes (WGSL 12: each attribute's
 * places): a function takes the stage attributes, @workgroup_size with
 * @compute, @must_use and @diagnostic; a parameter or result of a function
 * that is no entry point takes none.  Each refused case was accepted. */
#define ATTR_FN(a) a "\nfn b(foo : i32) -> i32 { return 1; }\n"
#define ATTR_PARAM(a) "fn b(" a " foo : i32) -> i32 { return 1; }\n"
#define ATTR_RET(a) "fn b(foo : i32) -> " a " i32 { return 1; }\n"
static const wgsl_case ATTRIBUTES[] = {
    {"function_attributes:case=\"align\";placement=\"func\"", ATTR_FN("@align(4)"), "[attributes]"},
    {"function_attributes:case=\"binding\";placement=\"func\"", ATTR_FN("@binding(5)"), "[attributes]"},
    {"function_attributes:case=\"id\";placement=\"func\"", ATTR_FN("@id(1)"), "[attributes]"},
    {"function_attributes:case=\"size\";placement=\"func\"", ATTR_FN("@size(10)"), "[attributes]"},
    {"function_attributes:case=\"workgroup_size\";placement=\"func\"",
     ATTR_FN("@workgroup_size(1)"), "[attributes]"},
    {"function_attributes:case=\"must_use\";placement=\"func\"", ATTR_FN("@must_use"), NULL},
    {"function_attributes:case=\"diagnostic\";placement=\"func\"",
     ATTR_FN("@diagnostic(off, derivative_uniformity)"), NULL},
    {"function_attributes:case=\"location\";placement=\"param\"", ATTR_PARAM("@location(0)"),
     "[attributes]"},
    {"function_attributes:case=\"builtin\";placement=\"param\"",
     ATTR_PARAM("@builtin(position)"), "[attributes]"},
    {"function_attributes:case=\"must_use\";placement=\"param\"", ATTR_PARAM("@must_use"),
     "[attributes]"},
    {"function_attributes:case=\"invariant\";placement=\"ret\"", ATTR_RET("@invariant"),
     "[attributes]"},
    {"function_attributes:case=\"group\";placement=\"ret\"", ATTR_RET("@group(1)"),
     "[attributes]"},
    {"an attribute given twice", "@group(0) @group(0) @binding(0) var<storage> v : u32;\n",
     "[attributes]"},
    {"@id on a var", "@id(1) @group(0) @binding(0) var<storage> v : u32;\n", "[attributes]"},
    {"@align on a const", "@align(4) const c = 1u;\n", "[attributes]"},
    {"two stages", "@compute @vertex @workgroup_size(1) fn m() { }\n", "[attributes]"},
    {"@must_use on an entry point", "@must_use @compute @workgroup_size(1) fn m() { }\n",
     "[attributes]"},
    {"@builtin on a compute entry point's parameter",
     "@compute @workgroup_size(1) fn m(@builtin(local_invocation_index) i : u32) { }\n", NULL},
    {"@align and @size on members", "struct S { @align(16) @size(32) a : u32 }\n", NULL},
};

/* functions,restrictions:vertex_returns_position and entry_point_call_target
 * (WGSL 13.3.1: a vertex shader returns @builtin(position); an entry point's
 * inputs and outputs are built-in values or have a @location; an entry point
 * is no call target).  Each refused case was accepted. */
#define POS_STRUCTS "struct P { @builtin(position) pos : vec4f }\nstruct N { @location(0) x : vec4f }\n"
static const wgsl_case ENTRY_IO[] = {
    {"vertex_returns_position:case=\"bare_position\"",
     "@vertex fn main() -> @builtin(position) vec4f { return vec4f(); }\n", NULL},
    {"vertex_returns_position:case=\"nested_position\"",
     POS_STRUCTS "@vertex fn main() -> P { return P(); }\n", NULL},
    {"vertex_returns_position:case=\"no_bare_position\"",
     "@vertex fn main() -> vec4f { return vec4f(); }\n", "[entry-point-io]"},
    {"vertex_returns_position:case=\"no_nested_position\"",
     POS_STRUCTS "@vertex fn main() -> N { return N(); }\n", "[entry-point-io]"},
    {"function_attributes:case=\"fragment\";placement=\"func\"",
     "@fragment fn b(foo : i32) -> i32 { return 1; }\n", "[entry-point-io]"},
    {"a fragment shader's located input and output",
     "@fragment fn b(@location(0) @interpolate(flat) foo : i32) -> @location(0) vec4f "
     "{ return vec4f(f32(foo)); }\n", NULL},
    {"entry_point_call_target:stage=\"@vertex\";entry_point=\"with\"",
     "@vertex fn bar() -> @builtin(position) vec4f { return vec4f(); }\n"
     "fn foo() { let tmp = bar(); }\n", "[call]"},
    {"entry_point_call_target:stage=\"@fragment\";entry_point=\"with\"",
     "@fragment fn bar() { }\nfn foo() { bar(); }\n", "[call]"},
};

/* The shader interface's tables (WGSL 13.3.1): which stage reads or writes
 * each built-in value and at what type; a @location's types, its
 * interpolation and no two alike on a side; @interpolate's sampling per
 * type; @invariant on the position alone.  Names are the CTS queries'
 * (webgpu:shader,validation,shader_io,...); each refused case was accepted. */
#define VS_RET " -> @builtin(position) vec4f { return vec4f(); }\n"
static const wgsl_case SHADER_INTERFACE[] = {
    {"builtins:stage_inout:name=\"global_invocation_id\";target_stage=\"fragment\"",
     "@fragment fn main(@builtin(global_invocation_id) v : vec3<u32>) { }\n",
     "[builtin-values]"},
    {"builtins:stage_inout:name=\"vertex_index\";target_stage=\"vertex\"",
     "@vertex fn main(@builtin(vertex_index) v : u32)" VS_RET, NULL},
    {"builtins:stage_inout:name=\"frag_depth\";target_io=\"in\"",
     "@fragment fn main(@builtin(frag_depth) v : f32) { }\n", "[builtin-values]"},
    {"builtins:stage_inout:name=\"position\";stage=\"vertex\";target_io=\"in\"",
     "@vertex fn main(@builtin(position) p : vec4f)" VS_RET, "[builtin-values]"},
    {"builtins:type:name=\"front_facing\";target_type=\"u32\"",
     "@fragment fn main(@builtin(front_facing) v : u32) { }\n", "[builtin-values]"},
    {"builtins:type:name=\"sample_mask\" (in and out)",
     "@fragment fn main(@builtin(sample_mask) m : u32) -> @builtin(sample_mask) u32 "
     "{ return m; }\n", NULL},
    {"builtins:duplicates:first=\"p1\";second=\"p2\"",
     "@fragment fn main(@builtin(sample_mask) a : u32, @builtin(sample_mask) b : u32) { }\n",
     "[entry-point-io]"},
    {"builtins:duplicates:first=\"s1a\";second=\"p2\"",
     "struct S { @builtin(sample_mask) a : u32 }\n"
     "@fragment fn main(s : S, @builtin(sample_mask) b : u32) { }\n", "[entry-point-io]"},
    {"builtins:nesting:target_stage=\"fragment\"",
     "struct Inner { @builtin(frag_depth) value : f32 }\nstruct Outer { inner : Inner }\n"
     "@fragment fn main() -> Outer { return Outer(); }\n", "[entry-point-io]"},
    {"locations:type:type=\"bool\"",
     "@fragment fn main(@location(0) @interpolate(flat, either) v : bool) { }\n",
     "[entry-point-io]"},
    {"locations:type:type=\"mat2x2f\"",
     "@fragment fn main(@location(0) @interpolate(flat, either) v : mat2x2f) { }\n",
     "[entry-point-io]"},
    {"locations:type:type=\"MyAlias\"",
     "alias MyAlias = i32;\n"
     "@fragment fn main(@location(0) @interpolate(flat, either) v : MyAlias) { }\n", NULL},
    {"locations:out_of_order:case=\"struct_override\"",
     "struct S { @location(1) x : f32, @location(0) y : f32 }\n"
     "@fragment fn main(@location(0) p1 : S) { }\n", "[entry-point-io]"},
    {"locations:out_of_order:case=\"struct_random_overlap\"",
     "struct S { @location(16) x : f32, @location(4) y : f32 }\n"
     "struct T { @location(13) x : f32, @location(4) y : f32 }\n"
     "@fragment fn main(p1 : S, p2 : T) { }\n", "[entry-point-io]"},
    {"locations:duplicates:first=\"p1\";second=\"rb\" (one input, one output)",
     "@fragment fn main(@location(0) a : f32) -> @location(0) vec4f { return vec4f(a); }\n",
     NULL},
    {"locations:validation:attr=\"negative\"",
     "@vertex fn main(@location(-1) res : f32)" VS_RET, "[attribute-location]"},
    {"locations:validation:attr=\"f32_literal\"",
     "@vertex fn main(@location(1.0) res : f32)" VS_RET, "[const-expr]"},
    {"locations:validation:attr=\"override_expr\"",
     "override z = 7;\noverride y = 8;\n@vertex fn main(@location(z + y) res : f32)" VS_RET,
     "[const-expr]"},
    {"interpolate:type_and_sampling:type=\"flat\";sampling=\"center\"",
     "@fragment fn main(@location(0) @interpolate(flat, center) v : f32) { }\n",
     "[attributes]"},
    {"interpolate:type_and_sampling:type=\"center\"",
     "@fragment fn main(@location(0) @interpolate(center) v : f32) { }\n", "[attributes]"},
    {"interpolate:type_and_sampling:type=\"perspective\";sampling=\"sample\"",
     "@fragment fn main(@location(0) @interpolate(perspective, sample) v : f32) { }\n", NULL},
    {"interpolate:require_location:attribute=\"@builtin(position)\"",
     "@fragment fn main(@builtin(position) @interpolate(flat, either) v : vec4f) { }\n",
     "[attributes]"},
    {"interpolate:integral_types:stage=\"fragment\";attribute=\"\"",
     "@fragment fn main(@location(0) v : vec2<i32>) { }\n", "[entry-point-io]"},
    {"interpolate:integral_types:attribute=\"@interpolate(linear)\"",
     "@fragment fn main(@location(0) @interpolate(linear) v : u32) { }\n", "[entry-point-io]"},
    {"an integer vertex input needs no interpolation",
     "@vertex fn main(@location(0) v : u32)" VS_RET, NULL},
    {"invariant:not_valid_on_user_defined_io:use_invariant=true",
     "struct O { @location(0) @invariant l : vec4f, @builtin(position) p : vec4f }\n"
     "@vertex fn main() -> O { return O(); }\n", "[attributes]"},
    {"invariant:valid_only_with_position_in_non_entry_point_struct:has_position=false",
     "struct A { @invariant a : vec4f }\n", "[attributes]"},
    {"invariant:valid_only_with_position_in_non_entry_point_struct:has_position=true",
     "struct A { @invariant @builtin(position) a : vec4f }\n", NULL},
    {"invariant:parsing:attr=\"empty_parens\"",
     "struct O { @builtin(position) @invariant() p : vec4f }\n"
     "@vertex fn main() -> O { return O(); }\n", "[attributes]"},
    {"pipeline_stage:compute_parsing:val=\"@compute()\"",
     "@compute() @workgroup_size(1) fn main() { }\n", "[attributes]"},
    {"workgroup_size:workgroup_size:attr=\"mix_ux\"",
     "@compute @workgroup_size(1u, 1i, 1i) fn main() { }\n", "[workgroup-size]"},
    {"workgroup_size: u32 with abstract integers",
     "@compute @workgroup_size(1u, 1, 1) fn main() { }\n", NULL},
};

/* texture_external (WGSL 6.5.7): a type a function may take, with its own
 * overloads of textureDimensions, textureLoad (no level) and
 * textureSampleBaseClampToEdge.  Every module naming it was refused
 * (functions,restrictions:function_parameter_matching and
 * function_return_types declare one). */
#define EXT "@group(0) @binding(0) var t : texture_external;\n" \
            "@group(0) @binding(1) var s : sampler;\n"
static const wgsl_case EXTERNAL[] = {
    {"function_parameter_matching:decl=\"u32\"",
     EXT "fn bar(p : u32) { }\nfn foo() { bar(1u); }\n", NULL},
    {"an external texture parameter",
     EXT "fn dims(p : texture_external) -> vec2u { return textureDimensions(p); }\n"
     "fn foo() -> vec4f { return textureLoad(t, dims(t) / 2u) + "
     "textureSampleBaseClampToEdge(t, s, vec2f(0.5)); }\n", NULL},
    {"textureLoad with a level", EXT "fn foo() -> vec4f { return textureLoad(t, vec2i(), 0); }\n",
     "[texture-builtin-functions]"},
    {"textureNumLevels", EXT "fn foo() -> u32 { return textureNumLevels(t); }\n",
     "[texture-builtin-functions]"},
    {"textureSampleLevel", EXT "fn foo() -> vec4f { return textureSampleLevel(t, s, vec2f(), 0.0); }\n",
     "[texture-builtin-functions]"},
    {"textureDimensions with a level", EXT "fn foo() -> vec2u { return textureDimensions(t, 0); }\n",
     "[texture-builtin-functions]"},
    {"function_return_types:case=\"texture_external\"",
     EXT "fn foo() -> texture_external { return t; }\n", "[function-restriction]"},
};

/* A texture or sampler parameter used by a builtin inside the function
 * (WGSL 11.1 lets a function take them): refused while the function was
 * checked alone, where its parameter was no handle. */
static const wgsl_case HANDLE_PARAMS[] = {
    {"textureDimensions of a parameter",
     "fn f(tt : texture_2d<f32>) -> vec2u { return textureDimensions(tt); }\n", NULL},
    {"textureSampleLevel through parameters",
     "fn f(tt : texture_2d<f32>, ss : sampler) -> vec4f "
     "{ return textureSampleLevel(tt, ss, vec2f(0.5), 0.0); }\n", NULL},
    {"textureStore to a parameter",
     "fn f(o : texture_storage_2d<rgba8unorm, write>) { textureStore(o, vec2i(), vec4f()); }\n",
     NULL},
};

/* Attribute values WGSL allows that stex refused: a group beyond the API's
 * maxBindGroups (shader_io,group:group:attr="const_expr", @group(7); the
 * pipeline is what maxBindGroups refuses) and a member's @size up to i32's
 * largest (shader_io,size:size:attr="large"). */
static const wgsl_case ATTRIBUTE_VALUES[] = {
    {"group:attr=\"const_expr\"",
     "const z = 5;\nconst y = 2;\n@group(z + y) @binding(1) var<uniform> u : vec4f;\n", NULL},
    {"size:attr=\"large\"", "struct S { @size(2147483647) a : f32 }\n", NULL},
    {"@size past i32", "struct S { @size(2147483648) a : f32 }\n", "[attribute-size]"},
    /* each was accepted: an override is no const-expression, and each
     * attribute takes its own number of arguments */
    {"group:attr=\"override_expr\"",
     "override z = 5;\n@group(z) @binding(1) var<uniform> u : vec4f;\n", "[const-expr]"},
    {"expressions:value=\"override\";attribute=\"binding\"",
     "override z = 5;\n@group(0) @binding(z) var<uniform> u : vec4f;\n", "[const-expr]"},
    {"group:attr=\"multiple_values\"", "@group(1, 2) @binding(1) var<uniform> u : vec4f;\n",
     "[attributes]"},
    {"size:attr=\"no_value\"", "struct S { @size() a : f32 }\n", "[attributes]"},
    {"size:attr=\"missing_parens\"", "struct S { @size a : f32 }\n", "[attributes]"},
    {"@workgroup_size of four", "@compute @workgroup_size(1, 1, 1, 1) fn m() { }\n",
     "[attributes]"},
    {"@invariant(1)", "struct S { @builtin(position) @invariant(1) p : vec4f }\n",
     "[attributes]"},
};

static void test_attributes_and_entry_points(void **s)
{
    (void)s;
    WGSL_CHECK(ATTRIBUTES);
    WGSL_CHECK(ATTRIBUTE_VALUES);
    WGSL_CHECK(ENTRY_IO);
    WGSL_CHECK(SHADER_INTERFACE);
}

static void test_texture_parameters(void **s)
{
    (void)s;
    WGSL_CHECK(EXTERNAL);
    WGSL_CHECK(HANDLE_PARAMS);
}

/* A compute pipeline that uses a texture_external: valid WGSL, refused at
 * pipeline creation with a message that names the variable (stex has no
 * GPUExternalTexture); the same module's other entry point runs. */
static void test_external_texture_pipeline(void **s)
{
    (void)s;
    stex_adapter *a;
    stex_device *d = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(
        EXT "@group(0) @binding(2) var<storage, read_write> o : array<u32>;\n"
        "@compute @workgroup_size(1) fn uses() { o[0] = textureDimensions(t).x; }\n"
        "@compute @workgroup_size(1) fn plain() { o[0] = 1u; }\n", "ext.wgsl");
    stex_pipeline *p = NULL;
    assert_int_equal(stex_wgsl_pipeline_create(d, m, "uses", NULL, &p), STEX_TYPE_ERROR);
    assert_null(p);
    if (!strstr(stex_last_error(), "ext.wgsl:1:27: entry point 'uses' uses texture_external 't'"))
        fail_msg("%s", stex_last_error());
    assert_int_equal(stex_wgsl_pipeline_create(d, m, "plain", NULL, &p), STEX_OK);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    /* @group(7): a valid module; the pipeline breaks maxBindGroups (4) */
    m = fixture_module("@group(7) @binding(0) var<storage, read_write> o : array<u32>;\n"
                       "@compute @workgroup_size(1) fn main() { o[0] = 1u; }\n", "g7.wgsl");
    assert_int_equal(stex_wgsl_pipeline_create(d, m, NULL, NULL, &p), STEX_VALIDATION_ERROR);
    if (!strstr(stex_last_error(), "maxBindGroups"))
        fail_msg("%s", stex_last_error());
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* Runs the module's entry point `main` once over 2 x 2 workgroups with a
 * resource made for each binding (wgsl_resources.h); the bytes of the
 * resource at @binding(0) in out (size bytes). */
static void run_main(const char *src, uint8_t *out, size_t size)
{
    stex_adapter *a;
    stex_device *d = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(src, "run.wgsl");
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(d, m, "main", NULL, &p))
        fail_msg("%s", stex_last_error());
    const stex_wgsl_entry_point *ep = stex_wgsl_entry_point_find(m, "main");
    resource r[4];
    stex_bind_group_entry be[4];
    assert_true(ep->entry_count <= 4);
    for (uint32_t i = 0; i < ep->entry_count; i++)
        make_resource(d, &ep->entries[i], &r[i], &be[i]);
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, ep->entry_count, &g), STEX_OK);
    assert_int_equal(stex_dispatch(p, g, 2, 2, 1, NULL), STEX_OK);
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        size_t n;
        const uint8_t *bytes = resource_bytes(&r[i], &n);
        if (ep->entries[i].binding == 0) {
            assert_true(n >= size);
            memcpy(out, bytes, size);
        }
    }
    stex_bind_group_destroy(g);
    for (uint32_t i = 0; i < ep->entry_count; i++)
        free_resource(&r[i]);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* A texture handed to a function works in its builtins as in the caller's
 * (WGSL 11.1): the storage texture's stores were silently dropped (the
 * argument became a register and the callee's calls on it nothing), and a
 * sampled texture's textureDimensions gave no value. */
static void test_texture_arguments_run(void **s)
{
    (void)s;
    static const char direct[] =
        "@group(0) @binding(0) var o : texture_storage_2d<rgba8unorm, write>;\n"
        "@compute @workgroup_size(4, 4) fn main(@builtin(global_invocation_id) g : vec3u) {\n"
        "  textureStore(o, g.xy, vec4f(f32(textureDimensions(o).x) / 255.0, f32(g.x) / 255.0, "
        "f32(g.y) / 255.0, 1.0));\n}\n";
    static const char helper[] =
        "@group(0) @binding(0) var o : texture_storage_2d<rgba8unorm, write>;\n"
        "fn put(t : texture_storage_2d<rgba8unorm, write>, p : vec2u) {\n"
        "  textureStore(t, p, vec4f(f32(textureDimensions(t).x) / 255.0, f32(p.x) / 255.0, "
        "f32(p.y) / 255.0, 1.0));\n}\n"
        "@compute @workgroup_size(4, 4) fn main(@builtin(global_invocation_id) g : vec3u) "
        "{ put(o, g.xy); }\n";
    uint8_t want[8 * 8 * 4], got[8 * 8 * 4];
    run_main(direct, want, sizeof want);
    run_main(helper, got, sizeof got);
    /* the texel the invocation at (7, 7) stored: (8, 7, 7, 255) in any layout */
    bool found = false;
    for (size_t i = 0; i < sizeof want; i += 4)
        found |= want[i] == 8 && want[i + 1] == 7 && want[i + 2] == 7 && want[i + 3] == 255;
    assert_true(found);
    assert_memory_equal(got, want, sizeof want);
    static const char sampled[] =
        "@group(0) @binding(0) var<storage, read_write> out : array<u32, 4>;\n"
        "@group(0) @binding(1) var t : texture_2d<f32>;\n"
        "fn dims(tt : texture_2d<f32>) -> vec2u { return textureDimensions(tt, 0); }\n"
        "@compute @workgroup_size(1) fn main() { out[0] = dims(t).x; out[1] = dims(t).y; }\n";
    uint32_t words[2];
    run_main(sampled, (uint8_t *)words, sizeof words);
    assert_int_equal(words[0], 8); /* wgsl_resources.h's textures are 8 x 8 */
    assert_int_equal(words[1], 8);
}

/* An abstract integer shifted by a run-time u32 is an i32 (WGSL 8.9: the
 * shift amount is u32 whatever the left operand; only the left operand
 * becomes concrete).  `1 << n` was refused ("'<<' cannot take i32 and
 * void"): the amount was converted to i32 with it.  The values are WGSL's:
 * the amount is taken modulo 32, >> on i32 copies the sign. */
static void test_abstract_shift_by_runtime_amount(void **s)
{
    (void)s;
    static const char src[] =
        "@group(0) @binding(0) var<storage, read_write> out : array<i32, 9>;\n"
        "@compute @workgroup_size(1) fn main(@builtin(workgroup_id) w : vec3u) {\n"
        "  let n = w.x + 2u * w.y;\n"
        "  out[n] = 1 << (n + 29u);\n"
        "  out[4u + n] = vec2(-8, 5)[0] >> n;\n"
        "  let v = vec2(1, 3) << vec2(n);\n"
        "  if (n == 1u) { out[8] = v.x + v.y; }\n"
        "}\n";
    int32_t got[9];
    run_main(src, (uint8_t *)got, sizeof got);
    const int32_t want[9] = {1 << 29, 1 << 30, INT32_MIN, 1, -8, -4, -2, -1, (1 << 1) + (3 << 1)};
    assert_memory_equal(got, want, sizeof want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statement_behaviour),
        cmocka_unit_test(test_alias_analysis),
        cmocka_unit_test(test_signature_types),
        cmocka_unit_test(test_types_that_are_no_values),
        cmocka_unit_test(test_attributes_and_entry_points),
        cmocka_unit_test(test_texture_parameters),
        cmocka_unit_test(test_external_texture_pipeline),
        cmocka_unit_test(test_texture_arguments_run),
        cmocka_unit_test(test_abstract_shift_by_runtime_amount),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
