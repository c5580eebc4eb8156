/* Functions and statements as the WebGPU CTS's shader,validation tests
 * (at 3314e410, named beside each case) expect from the WGSL spec: the
 * behaviour analysis of statements (WGSL 9.8: no statement without a way
 * out, a function returning a value cannot fall off its end, a continuing
 * block leaves through neither 'return' nor 'continue'), the types a
 * function may take and return (11.1), and types that are no values
 * (wgsl_cases.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "wgsl_cases.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statement_behaviour),
        cmocka_unit_test(test_signature_types),
        cmocka_unit_test(test_types_that_are_no_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
