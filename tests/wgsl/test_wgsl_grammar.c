/* Statements, blankspace, literals, directives and the expression grammar
 * as the WebGPU CTS's shader,validation tests (at 3314e410, named beside
 * each case) expect from the WGSL spec: continuing blocks (a nested loop or
 * switch may break, a name may be hidden, no 'continue' may skip a
 * declaration the continuing block uses), the switch's common type, matrix
 * products with AbstractInt vectors, WGSL's blankspace and line breaks,
 * numeric literals, operators that need parentheses (8.19), names that hide
 * builtins, directives, @diagnostic's places, a for loop's update,
 * 'discard' in a vertex shader, struct members, @id and const_assert's
 * operands (wgsl_cases.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include <string.h>

#include "wgsl_cases.h"

/* statement,continuing:placement and statement,continue:placement: each
 * in a fragment shader that declares `var a = 0;` */
#define FRAG(body)                                                                       \
    "fn b() -> i32 { return 1; }\n@fragment fn frag() -> @location(0) vec4f {\n"       \
    "  var a = 0;\n  " body "\n  return vec4f(1);\n}\n"
static const wgsl_case CONTINUING[] = {
    {"continuing:placement:stmt=\"continuing_continue_nested\"",
     FRAG("loop { if a == 4 { break; } continuing { loop { if a == 4 { break; } continue; } } }"),
     NULL},
    {"continuing:placement:stmt=\"continuing_for_break\"",
     FRAG("loop { if a == 4 { break; } continuing { for(;;) { break; } } }"), NULL},
    {"continuing:placement:stmt=\"continuing_while_break\"",
     FRAG("loop { if a == 4 { break; } continuing { while true { break; } } }"), NULL},
    {"continuing:placement:stmt=\"continuing_var\"",
     FRAG("loop { if a == 4 { break; } continuing { var a = b(); } }"), NULL},
    {"continuing:placement:stmt=\"continuing_const\"",
     FRAG("loop { if a == 4 { break; } continuing { const a = 1; } }"), NULL},
    {"continuing:placement:stmt=\"continuing_loop\"",
     FRAG("loop { if a == 4 { break; } continuing { loop { break; } } }"), NULL},
    {"continuing:placement:stmt=\"continuing_switch_break\"",
     FRAG("loop { if a == 4 { break; } continuing { switch 2 { default: { break; } } } }"), NULL},
    {"continuing:placement:stmt=\"continuing_loop_nested_continuing\"",
     FRAG("loop { if a == 4 { break; } continuing { loop { if a == 4 { break; } "
          "continuing { } } } }"), NULL},
    {"continuing:placement:stmt=\"continuing_break\"", FRAG("loop { continuing { break; } }"),
     "[break-statement]"},
    {"continuing:placement:stmt=\"continuing_continue\"",
     FRAG("loop { if a == 4 { break; } continuing { continue; } }"), "[continue-statement]"},
    {"continue:placement:stmt=\"continuing_nested_loop_continue\"",
     FRAG("loop { if false { break; } continuing { loop { if false { break; } continue; } } }"),
     NULL},
    {"continue:placement:stmt=\"loop_continue_before_decl_used_in_continuing\"",
     FRAG("loop { continue; let cond = false; continuing { break if cond; } }"),
     "[continue-statement]"},
    {"continue:placement:stmt=\"loop_nested_continue_before_decl_used_in_continuing\"",
     FRAG("loop { if false { continue; } let cond = false; continuing { break if cond; } }"),
     "[continue-statement]"},
    {"continue:placement:stmt=\"loop_continue_after_decl_used_in_continuing\"",
     FRAG("loop { let cond = false; continue; continuing { break if cond; } }"), NULL},
};

/* statement,switch: an AbstractInt selector or case value takes the
 * concrete type of the others */
#define SWITCH(sel, a, b)                                                                  \
    "fn f() -> bool {\n  switch " sel " {\n    case " a ": { return true; }\n    case " b \
    ": { return true; }\n    default: { return false; }\n  }\n}\n"
static const wgsl_case SWITCHES[] = {
    {"switch:condition_type_match_case_type:cond_type=\"abstract-int\";case_type=\"u32\"",
     SWITCH("1", "2u", "3"), NULL},
    {"switch:case_types_match:case_a_type=\"u32\";case_b_type=\"u32\"", SWITCH("1", "1u", "2u"),
     NULL},
    {"switch:case_types_match:case_a_type=\"u32\";case_b_type=\"abstract-int\"",
     SWITCH("1", "1u", "2"), NULL},
    {"switch:case_types_match:case_a_type=\"abstract-int\";case_b_type=\"u32\"",
     SWITCH("1", "1", "2u"), NULL},
    {"switch:case_types_match:case_a_type=\"i32\";case_b_type=\"u32\"", SWITCH("1", "1i", "2u"),
     "[type-mismatch]"},
};

/* expression,matrix,mul: an AbstractInt vector times a matrix */
#define MAIN(body) "@compute @workgroup_size(1)\nfn main() {\n  " body "\n}\n"
static const wgsl_case MATRIX_PRODUCTS[] = {
    {"matrix,mul:mat_by_vec:ty1=\"f\";ty2=\"\"", MAIN("let foo = mat2x2f() * vec2(0, 0);"), NULL},
    {"matrix,mul:mat_by_vec:ty1=\"\";ty2=\"\"", MAIN("let foo = mat2x2(0, 0, 0, 0) * vec2(0, 0);"),
     NULL},
    {"matrix,mul:vec_by_mat:ty1=\"f\";ty2=\"\"", MAIN("let foo = vec2(0, 0) * mat2x2f();"), NULL},
    {"matrix,mul:overflow_vec_abstract:rhs=1;c=2;r=2",
     MAIN("const foo = mat2x2(1.7976931348623157e+308, 1.7976931348623157e+308, 0, 0) * "
          "vec2(1);"), NULL},
    {"matrix,mul:mat_by_vec:ty1=\"f\";ty2=\"\" (3 columns, 2 components)",
     MAIN("let foo = mat3x2f() * vec2(0, 0);"), "[type-mismatch]"},
};

/* parse,blankspace:blankspace and parse,comments:line_comment_terminators */
static const wgsl_case BLANKSPACE[] = {
    {"blankspace:blankspace=[\"%C2%85\",\"next_line\"]", "const\xc2\x85ident : i32 = 0;", NULL},
    {"blankspace:blankspace=[\"%E2%80%8E\",\"left_to_right_mark\"]",
     "const\xe2\x80\x8eident : i32 = 0;", NULL},
    {"blankspace:blankspace=[\"%E2%80%8F\",\"right_to_left_mark\"]",
     "const\xe2\x80\x8fident : i32 = 0;", NULL},
    {"blankspace:blankspace=[\"%E2%80%A8\",\"line_separator\"]",
     "const\xe2\x80\xa8ident : i32 = 0;", NULL},
    {"blankspace:blankspace=[\"%E2%80%A9\",\"paragraph_separator\"]",
     "const\xe2\x80\xa9ident : i32 = 0;", NULL},
    {"comments:line_comment_terminators:blankspace=[\"%5Cu000b\",\"vertical_tab\"]",
     "// Line comment\vconst invalid_outside_comment = should_fail", "[syntax]"},
    {"comments:line_comment_terminators:blankspace=[\"%5Cf\",\"form_feed\"]",
     "// Line comment\fconst invalid_outside_comment = should_fail", "[syntax]"},
    {"comments:line_comment_terminators:blankspace=[\"%5Cr\",\"carriage_return\"]",
     "// Line comment\rconst invalid_outside_comment = should_fail", "[syntax]"},
    {"comments:line_comment_terminators:blankspace=[\"%C2%85\",\"next_line\"]",
     "// Line comment\xc2\x85" "const invalid_outside_comment = should_fail", "[syntax]"},
    {"comments:line_comment_terminators:blankspace=[\"%E2%80%A8\",\"line_separator\"]",
     "// Line comment\xe2\x80\xa8" "const invalid_outside_comment = should_fail", "[syntax]"},
    {"comments:line_comment_terminators:blankspace=[\"%E2%80%A9\",\"paragraph_separator\"]",
     "// Line comment\xe2\x80\xa9" "const invalid_outside_comment = should_fail", "[syntax]"},
    {"comments:line_comment_terminators:blankspace=[\" \",\"space\"]",
     "// Line comment const invalid_outside_comment = should_fail", NULL},
};

/* parse,literal: digits in a mantissa and after an exponent; a
 * hexadecimal float's suffix only after its exponent */
#define LITERAL(v) "@compute @workgroup_size(1)\nfn main() {\n  var test = " v ";\n}\n"
#define LITERAL_F16(v) "enable f16;\n" LITERAL(v)
static const wgsl_case LITERALS[] = {
    {"literal:abstract_float:val=\"1.ef\"", LITERAL("1.ef"), "[literal]"},
    {"literal:abstract_float:val=\"1.e%2Bf\"", LITERAL("1.e+f"), "[literal]"},
    {"literal:abstract_float:val=\"0x.p2\"", LITERAL("0x.p2"), "[literal]"},
    {"literal:abstract_float:val=\"0x1p\"", LITERAL("0x1p"), "[literal]"},
    {"literal:abstract_float:val=\"1.1eh\"", LITERAL_F16("1.1eh"), "[literal]"},
    {"literal:abstract_float:val=\"1.1e%2Bh\"", LITERAL_F16("1.1e+h"), "[literal]"},
    {"literal:abstract_float:val=\"0xf.h\"", LITERAL_F16("0xf.h"), "[literal]"},
    {"literal:abstract_float:val=\"0x3h\"", LITERAL_F16("0x3h"), "[literal]"},
    {"literal:abstract_float:val=\"0x3p+2h\"", LITERAL_F16("0x3p+2h"), NULL},
    {"literal:abstract_float:val=\"0x3.2p+2h\"", LITERAL_F16("0x3.2p+2h"), NULL},
    {"literal:abstract_float:val=\"0x1P+4f\"", LITERAL("0x1P+4f"), NULL},
    {"literal:abstract_float:val=\"0xE.fp+2\"", LITERAL("0xE.fp+2"), NULL},
    {"literal:abstract_float:val=\"2.e+4f\"", LITERAL("2.e+4f"), NULL},
    {"literal:abstract_int:val=\"0x3f\"", LITERAL("0x3f"), NULL},
};

/* expression,precedence: WGSL's grammar, not C's ladder */
#define EXPR(e) "var<private> a : u32;\nvar<private> b : u32;\nvar<private> c : u32;\n" \
                "fn foo() {\n  let foo = " e ";\n}\n"
#define BOOLS(e) "var<private> a : bool;\nvar<private> b : bool;\nvar<private> c : bool;\n" \
                 "fn foo() {\n  let foo = " e ";\n}\n"
#define PRECEDENCE "[operator-precedence-associativity]"
static const wgsl_case PRECEDENCES[] = {
    {"precedence:binary_requires_parentheses:op1=\"mul\";op2=\"shl\"", EXPR("a * b << c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"shl\";op2=\"add\"", EXPR("a << b + c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"shl\";op2=\"shr\"", EXPR("a << b >> c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"add\";op2=\"bin_and\"", EXPR("a + b & c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"bin_and\";op2=\"mul\"", EXPR("a & b * c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"bin_and\";op2=\"bin_or\"", EXPR("a & b | c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"bin_xor\";op2=\"eq\"", EXPR("a ^ b == c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"lt\";op2=\"lt\"", EXPR("a < b < c"),
     PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"eq\";op2=\"ne\"", EXPR("a == b != c"),
     PRECEDENCE},
    {"precedence:mixed_logical_requires_parentheses:op1=\"log_and\";op2=\"log_or\";parens="
     "\"none\"", BOOLS("a && b || c"), PRECEDENCE},
    {"precedence:binary_requires_parentheses:op1=\"mul\";op2=\"add\"", EXPR("a * b + c"), NULL},
    {"precedence:binary_requires_parentheses:op1=\"sub\";op2=\"lt\"", EXPR("a - b < c"), NULL},
    {"precedence:binary_requires_parentheses:op1=\"shl\";op2=\"le\"", EXPR("a << b <= c"), NULL},
    {"precedence:binary_requires_parentheses:op1=\"bin_or\";op2=\"bin_or\"", EXPR("a | b | c"),
     NULL},
    {"precedence:binary_requires_parentheses:op1=\"lt\";op2=\"log_and\"",
     "var<private> a : u32;\nvar<private> b : u32;\nvar<private> c : bool;\n"
     "fn foo() {\n  let foo = a < b && c;\n}\n", NULL},
    {"precedence:mixed_logical_requires_parentheses:op1=\"log_and\";op2=\"log_or\";parens="
     "\"left\"", BOOLS("(a && b) || c"), NULL},
    {"precedence (parenthesised mixes)", EXPR("(a & b) | ((a * b) << c) | (a - b)"), NULL},
    {"precedence (x--2: x - -2)", MAIN("let x = 3;\n  let foo = x--2 * x;"), NULL},
};

/* parse,shadow_builtins: a declaration hides the builtin of its name */
#define SHADOW_FN(decl, use)                                                                \
    decl "\n@compute @workgroup_size(1)\nfn main() {\n  " use "\n}\n"
static const wgsl_case SHADOWS[] = {
    {"shadow_builtins:shadow_hides_builtin:inject=\"function\"",
     SHADOW_FN("", "let abs = 4;\n  _ = abs(1);"), "[function-calls]"},
    {"shadow_builtins:shadow_hides_builtin:inject=\"module\"",
     SHADOW_FN("var<private> abs : i32;", "_ = abs(1);"), "[function-calls]"},
    {"shadow_builtins:shadow_hides_builtin:inject=\"sibling\"",
     "fn sibling() { let abs = 4; }\n" SHADOW_FN("", "_ = abs(1);"), NULL},
    {"shadow_builtins:shadow_hides_builtin_f16:inject=\"module\"",
     "enable f16;\n" SHADOW_FN("var<private> f16 : i32;", "_ = f16(2);"), "[function-calls]"},
    {"shadow_builtins:shadow_hides_builtin_handle_type:inject=\"module\"",
     "var<private> texture_1d : f32;\n@group(0) @binding(0) var t : texture_1d<f32>;\n",
     "[type]"},
    {"shadow_builtins:shadow_hides_builtin_atomic_type:inject=\"module\"",
     "var<private> atomic : i32;\nvar<workgroup> val : atomic<i32>;\n", "[type]"},
    {"shadow_builtins:shadow_hides_builtin_atomic_type:inject=\"function\"",
     "var<workgroup> val : atomic<i32>;\nfn func() { let atomic = 4; }\n", NULL},
    {"shadow_builtins:shadow_hides_access_mode:inject=\"module\"",
     "var<private> read : i32;\n@group(0) @binding(0) var<storage, read> a : i32;\n",
     "[access-mode]"},
    {"shadow_builtins:shadow_hides_access_mode:inject=\"function\"",
     "@group(0) @binding(0) var<storage, read> a : i32;\nfn f() { let read = 4; }\n", NULL},
};

/* parse,enable, parse,requires and parse,diagnostic: directives first,
 * known names, filters in their places */
static const wgsl_case DIRECTIVES[] = {
    {"enable:enable:case=\"decl_before\"", "alias i = i32;\nenable f16;", "[directives]"},
    {"enable:enable:case=\"const_assert_before\"", "const_assert 1 == 1;\nenable f16;",
     "[directives]"},
    {"enable:enable:case=\"parens\"", "enable(f16);", "[syntax]"},
    {"enable:enable:case=\"unknown\"", "enable unknown;", "[enable-extensions]"},
    {"enable:enable:case=\"multiple_entries\"", "enable f16, f16, f16;", NULL},
    {"enable:enable:case=\"requires_before\"",
     "requires readonly_and_readwrite_storage_textures;\nenable f16;", NULL},
    {"requires:requires:case=\"decl_before\"",
     "alias i = i32;\nrequires readonly_and_readwrite_storage_textures;", "[directives]"},
    {"requires:requires:case=\"parens\"", "requires(readonly_and_readwrite_storage_textures);",
     "[syntax]"},
    {"requires:requires:case=\"unknown\"", "requires unknown;", "[language-extensions]"},
    {"diagnostic:valid_locations:type=\"attribute\";location=\"module\"",
     "@diagnostic(info, derivative_uniformity);", "[syntax]"},
    {"diagnostic:invalid_locations:type=\"attribute\";location=\"function_var\"",
     "fn foo() { @diagnostic(info, derivative_uniformity) var x = 0; }", "[diagnostic]"},
    {"diagnostic:invalid_locations:type=\"attribute\";location=\"function_let\"",
     "fn foo() { @diagnostic(info, derivative_uniformity) let x = 0; }", "[diagnostic]"},
    {"diagnostic:conflicting_directive:s1=\"off\";s2=\"info\"",
     "diagnostic(off, derivative_uniformity);\ndiagnostic(info, derivative_uniformity);",
     "[diagnostic]"},
    {"diagnostic:conflicting_directive:s1=\"off\";s2=\"off\"",
     "diagnostic(off, derivative_uniformity);\ndiagnostic(off, derivative_uniformity);", NULL},
    {"diagnostic:duplicate_attribute_same_location:loc=\"loop_body\";same_rule=true",
     "fn foo() { loop @diagnostic(off, derivative_uniformity) "
     "@diagnostic(off, derivative_uniformity) { break; } }", "[diagnostic]"},
    {"diagnostic:duplicate_attribute_same_location:loc=\"switch_body\";same_rule=true",
     "fn foo() { switch 0 @diagnostic(off, derivative_uniformity) "
     "@diagnostic(info, derivative_uniformity) { default { } } }", "[diagnostic]"},
    {"diagnostic:duplicate_attribute_same_location:loc=\"compound\";same_rule=false",
     "fn foo() { @diagnostic(off, derivative_uniformity) "
     "@diagnostic(info, another_diagnostic_rule) { } }", NULL},
};

/* parse,semicolon:after_member, parse,attribute:expressions and
 * statement,const_assert:parse */
static const wgsl_case DECLARATIONS[] = {
    {"semicolon:after_member:", "struct S { x : i32; }", "[syntax]"},
    {"semicolon:after_member: (no semicolon)", "struct S { x : i32 }", NULL},
    {"attribute:expressions:value=\"override\";attribute=\"id\"",
     "override a_override : i32 = 2;\n@id(a_override) override my_id : i32 = 4;\n",
     "[override-decls]"},
    {"attribute:expressions:value=\"const\";attribute=\"id\"",
     "const a_const = -2 + 10;\n@id(a_const) override my_id : i32 = 4;\n", NULL},
    {"const_assert:parse:case=\"not_a_boolean\"", "const_assert 42;", "[const-assert]"},
};

/* statement,for:parse and statement,discard:placement */
static const wgsl_case FOR_AND_DISCARD[] = {
    {"for:parse:test=\"cont_var\"", "fn f() { for (;;var i = 1) { break; } }", "[for-statement]"},
    {"for:parse:test=\"cont_let_type\"", "fn f() { for (;;let i : u32 = 1) { break; } }",
     "[for-statement]"},
    {"discard:placement:place=\"vertex\"",
     "@vertex fn vtx() -> @builtin(position) vec4f {\n  discard;\n  return vec4f(1);\n}\n",
     "[discard-statement]"},
    {"discard:placement:place=\"subvert\"",
     "fn subvert() { discard; }\n"
     "@vertex fn vtx() -> @builtin(position) vec4f {\n  subvert();\n  return vec4f(1);\n}\n",
     "[shader-stage]"},
    {"discard:placement:place=\"subfrag\"",
     "fn subfrag() { discard; }\n"
     "@fragment fn frag() -> @location(0) vec4f {\n  subfrag();\n  return vec4f(1);\n}\n", NULL},
};

static void test_statements(void **s)
{
    (void)s;
    WGSL_CHECK(CONTINUING);
    WGSL_CHECK(SWITCHES);
    WGSL_CHECK(FOR_AND_DISCARD);
}

static void test_tokens(void **s)
{
    (void)s;
    WGSL_CHECK(BLANKSPACE);
    WGSL_CHECK(LITERALS);
}

static void test_expressions(void **s)
{
    (void)s;
    WGSL_CHECK(MATRIX_PRODUCTS);
    WGSL_CHECK(PRECEDENCES);
    WGSL_CHECK(SHADOWS);
}

static void test_directives(void **s)
{
    (void)s;
    WGSL_CHECK(DIRECTIVES);
    WGSL_CHECK(DECLARATIONS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statements),
        cmocka_unit_test(test_tokens),
        cmocka_unit_test(test_expressions),
        cmocka_unit_test(test_directives),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
