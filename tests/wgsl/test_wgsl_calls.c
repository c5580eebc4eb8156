/* Calls and operators as the WebGPU CTS's shader,validation,expression
 * tests (at 3314e410, named beside each case) expect from the WGSL spec:
 * @must_use, phony assignments, builtins' parameter counts, the compute
 * stage's barriers, bool operands of '^', and the errors a const right
 * operand makes of '/', '%' and shifts (wgsl_cases.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "wgsl_cases.h"

/* WGSL 9.6 and the builtins' declarations: a call statement may not call a
 * @must_use function - every value constructor and builtin that returns a
 * value (the atomics excepted: atomicLoad and the read-modify-writes are
 * not @must_use), and a user function declared so; a phony assignment or a
 * let uses the value. */
#define ATOMIC "@group(0) @binding(0) var<storage, read_write> a : atomic<u32>;\n"
static const wgsl_case MUST_USE[] = {
    {"call,builtin,atan2:must_use:use=false", "fn f() { atan2(1, 2); }\n",
     "[function-call-statement]"},
    {"call,builtin,atan2:must_use:use=true", "fn f() { _ = atan2(1, 2); }\n", NULL},
    {"call,builtin,ceil:must_use:use=false", "fn f() { ceil(1.0f); }\n",
     "[function-call-statement]"},
    {"call,builtin,bitcast:must_use:case=bitcast<u32>(1i);use=false",
     "fn foo() {\n  bitcast<u32>(1i);\n}\n", "[function-call-statement]"},
    {"value constructor (@must_use in WGSL 17.1)", "fn foo() {\n  vec2f();\n}\n",
     "[function-call-statement]"},
    {"call,builtin,atomicAdd (not @must_use)", ATOMIC
     "fn f() {\n  atomicAdd(&a, 1u);\n  atomicLoad(&a);\n}\n", NULL},
    {"functions,restrictions: a user @must_use function", "@must_use fn g() -> u32 { return 1u; }\n"
     "fn f() {\n  g();\n}\n", "[function-call-statement]"},
    {"a user function without @must_use", "fn g() -> u32 { return 1u; }\nfn f() {\n  g();\n  "
     "let v = g();\n}\n", NULL},
};

static void test_must_use(void **s)
{
    (void)s;
    WGSL_CHECK(MUST_USE);
}

/* call,builtin,barriers:no_return_value: '_ = e' needs a value (WGSL 9.2.2),
 * which a call of a function without a return type is not. */
static const wgsl_case PHONY[] = {
    {"assign=true;rhs=bar", "fn bar() {}\nfn foo() {\n  _ =  bar();\n}\n", "[phony-assignment]"},
    {"assign=true;rhs=workgroupBarrier", "fn foo() {\n  _ =  workgroupBarrier();\n}\n",
     "[phony-assignment]"},
    {"assign=false;rhs=workgroupBarrier", "fn foo() {\n  workgroupBarrier();\n}\n", NULL},
};

static void test_phony_needs_a_value(void **s)
{
    (void)s;
    WGSL_CHECK(PHONY);
}

/* call,builtin,*:parameters:test=too_many_params and too_few: each numeric
 * builtin takes the parameters its declaration lists (WGSL 17.5, 17.6). */
static const wgsl_case ARITY[] = {
    {"asin:parameters:test=too_many_params", "fn f() { _ = asin(1, 2); }\n",
     "[builtin-functions]"},
    {"atan2:parameters:test=too_many_params", "fn f() { _ = atan2(1, 2, 3); }\n",
     "[builtin-functions]"},
    {"clamp with two arguments", "fn f() { _ = clamp(1, 2); }\n", "[builtin-functions]"},
    {"insertBits with its four", "fn f() { _ = insertBits(1u, 2u, 3u, 4u); }\n", NULL},
    {"mix with its three", "fn f() { _ = mix(1.0, 2.0, 0.5); }\n", NULL},
};

static void test_builtin_parameter_counts(void **s)
{
    (void)s;
    WGSL_CHECK(ARITY);
}

/* call,builtin,barriers:only_in_compute: the barriers (WGSL 17.11) and
 * workgroupUniformLoad (17.12) belong to the compute stage, also when a
 * helper that a vertex or fragment entry point calls reaches them. */
#define HELPER(CALL) "fn bar() {}\n\nfn foo() {\n  " CALL ";\n}\n"
static const wgsl_case BARRIERS[] = {
    {"entry_point=vertex;call=workgroupBarrier",
     "@vertex\nfn main() -> @builtin(position) vec4f {\n  foo();\n  return vec4f();\n}\n"
     HELPER("workgroupBarrier()"), "[shader-stage]"},
    {"entry_point=fragment;call=storageBarrier", "@fragment\nfn main() {\n  foo();\n}\n"
     HELPER("storageBarrier()"), "[shader-stage]"},
    {"entry_point=compute_and_fragment;call=textureBarrier",
     "@compute @workgroup_size(1)\nfn main1() {\n  foo();\n}\n\n@fragment\nfn main2() {\n  "
     "foo();\n}\n" HELPER("textureBarrier()"), "[shader-stage]"},
    {"entry_point=compute;call=workgroupBarrier",
     "@compute @workgroup_size(1)\nfn main() {\n  foo();\n}\n" HELPER("workgroupBarrier()"),
     NULL},
    {"entry_point=fragment;call=bar", "@fragment\nfn main() {\n  foo();\n}\n" HELPER("bar()"),
     NULL},
    {"workgroupUniformLoad from a fragment shader", "var<workgroup> w : u32;\n@fragment\n"
     "fn main() {\n  _ = workgroupUniformLoad(&w);\n}\n", "[shader-stage]"},
};

static void test_barriers_only_in_compute(void **s)
{
    (void)s;
    WGSL_CHECK(BARRIERS);
}

/* binary,and_or_xor:scalar_vector: '&' and '|' take bool operands, '^'
 * does not (WGSL 8.9). */
static const wgsl_case BOOL_XOR[] = {
    {"lhs=bool;rhs=bool;op=xor", "const lhs = false;\nconst rhs = false;\nconst foo = lhs ^ rhs;\n",
     "[bit-expr]"},
    {"lhs=vec2<bool>;op=xor;compound_assignment=true",
     "fn f() {\n  var foo = vec2(false, false);\n  foo ^= vec2(false, false);\n}\n", "[bit-expr]"},
    {"lhs=bool;rhs=bool;op=and", "const foo = false & true;\n", NULL},
    {"lhs=u32;rhs=u32;op=xor", "const foo = 1u ^ 3u;\n", NULL},
};

static void test_bool_xor(void **s)
{
    (void)s;
    WGSL_CHECK(BOOL_XOR);
}

/* binary,div_rem:scalar_vector(_out_of_range) and
 * binary,bitwise_shift:partial_eval_errors: an integer '/' or '%' whose
 * right operand is a const-expression with a zero component, or a shift
 * by a const-expression of 32 or more, is a shader-creation error even
 * when the left operand is a run-time value (WGSL 8.7, 8.9). */
static const wgsl_case PARTIAL_EVAL[] = {
    {"div_rem:lhs=abstract-int;rhs=abstract-int;compound_assignment=true;rhs_value=0",
     "fn f() {\n  var v = 0;\n  v /= 0;\n}\n", "[arithmetic]"},
    {"div_rem:scalar_vector_out_of_range:lhs=vec2<i32>;leftRuntime=true;stage=constant",
     "var<private> left = vec2(i32(42), i32(1));\nconst right = vec2(i32(0), i32(1));\n"
     "fn f() { _ = left / right; }\n", "[arithmetic]"},
    {"div_rem:op=rem;rhs_value=0", "fn f() {\n  var v = 7u;\n  v %= 0u;\n}\n", "[arithmetic]"},
    {"div_rem:rhs_value=1", "fn f() {\n  var v = 0;\n  v /= 1;\n}\n", NULL},
    {"bitwise_shift:partial_eval_errors:op=>>;type=u32;value=32",
     "fn foo() -> u32 {\n  var v : u32 = 0;\n  return v >> 32u;\n}\n", "[arithmetic]"},
    {"bitwise_shift:partial_eval_errors:op=<<;type=i32;value=31",
     "fn foo() -> i32 {\n  var v : i32 = 0;\n  return v << 31u;\n}\n", NULL},
    {"float division by a const 0 (no error: f32 has infinity)",
     "fn f() -> f32 {\n  var v = 1.0;\n  return v / 0.0;\n}\n", NULL},
};

static void test_partial_evaluation(void **s)
{
    (void)s;
    WGSL_CHECK(PARTIAL_EVAL);
}

/* call,builtin,clamp:low_high / mismatched / values, insertBits and
 * extractBits:count_offset, ldexp:partial_values: a builtin's constant
 * arguments are checked though another is a run-time value - clamp's low
 * at most its high, offset + count at most 32, ldexp's e2 at most bias + 1
 * (128 for f32) - and clamp takes no scalar bounds for a vector (WGSL
 * 17.5: clamp(e: T, low: T, high: T); only mix has a scalar blend). */
#define RUNTIME "fn foo() {\n  var v : f32;\n  var e : u32;\n  var nb : u32;\n  var w : vec3f;\n"
static const wgsl_case BUILTIN_PARTIAL[] = {
    {"clamp:low_high:type=f32;lowStage=constant;highStage=constant;low=1;high=0",
     RUNTIME "  let tmp = clamp(v, 1.0f, 0.0f);\n}\n", "[const-eval]"},
    {"clamp:low_high:low=1;high=1", RUNTIME "  let tmp = clamp(v, 1.0f, 1.0f);\n}\n", NULL},
    {"clamp:low_high:lowStage=runtime", RUNTIME "  let tmp = clamp(v, v, 0.0f);\n}\n", NULL},
    {"clamp:values:stage=constant;type=f16", "enable f16;\n"
     "const v  = clamp(-65504.0h, -63.96875h, -65504.0h);\n", "[const-eval]"},
    {"clamp:mismatched:e=vec2<abstract-int>", "const v  = clamp(vec2(1, 1), 0, 2);\n",
     "[builtin-functions]"},
    {"insertBits:count_offset:offset=2;count=31", RUNTIME
     "  let tmp = insertBits(e, nb, 2u, 31u);\n}\n", "[const-eval]"},
    {"extractBits:count_offset:offset=1;count=31", RUNTIME
     "  let tmp = extractBits(e, 1u, 31u);\n}\n", NULL},
    {"ldexp:partial_values:typeA=f32;value=129", RUNTIME "  let tmp = ldexp(v, i32(129));\n}\n",
     "[const-eval]"},
    {"ldexp:partial_values:typeA=f32;value=128", RUNTIME "  let tmp = ldexp(v, 128);\n}\n", NULL},
    {"mix(vec3f, vec3f, f32)", RUNTIME "  let tmp = mix(w, w, 0.5);\n}\n", NULL},
};

static void test_builtin_partial_evaluation(void **s)
{
    (void)s;
    WGSL_CHECK(BUILTIN_PARTIAL);
}

/* expression,binary,short_circuiting_and_or:invalid_rhs_const: a const
 * left operand that decides '&&' or '||' leaves the right one unevaluated,
 * so its values raise no const-expression error (each was refused); its
 * types, and an array type's element count, still must be right
 * (invalid_array_count_on_rhs). */
#define SC_CONSTS "const thirty_one = 31u;\nconst zero_i32 = 0i;\nconst one_f32 = 1.0f;\n"
static const wgsl_case SHORT_CIRCUIT[] = {
    {"invalid_rhs_const:op=\"&&\";rhs=\"overflow\";short_circuit=true",
     SC_CONSTS "fn f() { let foo = false && i32(1<<thirty_one) < 0; }\n", NULL},
    {"invalid_rhs_const:op=\"&&\";rhs=\"div_zero_i32\";short_circuit=true",
     SC_CONSTS "fn f() { let foo = false && (1 / zero_i32) == 0; }\n", NULL},
    {"invalid_rhs_const:op=\"||\";rhs=\"div_zero_f32\";short_circuit=true",
     SC_CONSTS "fn f() { let foo = true || (one_f32 / 0) == 0; }\n", NULL},
    {"invalid_rhs_const:op=\"||\";rhs=\"builtin\";short_circuit=true",
     SC_CONSTS "fn f() { let foo = true || sqrt(-one_f32) == 0; }\n", NULL},
    {"invalid_rhs_const:op=\"&&\";rhs=\"div_zero_i32\";short_circuit=false",
     SC_CONSTS "fn f() { let foo = true && (1 / zero_i32) == 0; }\n", "[arithmetic]"},
    {"invalid_rhs_const:op=\"||\";rhs=\"builtin\";short_circuit=false",
     SC_CONSTS "fn f() { let foo = false || sqrt(-one_f32) == 0; }\n", "[const-eval]"},
    {"invalid_array_count_on_rhs:op=\"&&\";rhs=\"sqrt_neg1\";control=false",
     "const value = 1;\nfn f() { let foo = false && array<bool, u32(sqrt(value - 2))>()[0]; }\n",
     "[const-eval]"},
    {"a skipped operand's types", "fn f() { let foo = false && (1u + 1i) == 0; }\n",
     "[type-mismatch]"},
};

static void test_short_circuit_leaves_values_unevaluated(void **s)
{
    (void)s;
    WGSL_CHECK(SHORT_CIRCUIT);
}

/* expression,call,builtin,{cross,distance,faceForward}:args:arg="good" and
 * values:type=vec3<abstract-int>: abstract integers convert to abstract
 * floats for the float-only vector builtins (cross(vec3(0), vec3(1)) had no
 * overload). */
static const wgsl_case VECTOR_ABSTRACT_INT[] = {
    {"cross:args:arg=\"good\"", "fn f() { _ = cross(vec3(0), vec3(1)); }\n", NULL},
    {"distance:args:arg=\"good\"", "fn f() { _ = distance(vec3(0), vec3(1)); }\n", NULL},
    {"distance:values:type=\"abstract-int\"",
     "fn f() { _ = distance(-9223372036854775807 - 1, 4); }\n", NULL},
    {"faceForward:values:type=\"vec2<abstract-int>\"",
     "fn f() { _ = faceForward(vec2(1, 2), vec2(3, 4), vec2(5, 6)); }\n", NULL},
    {"length, normalize, reflect, refract of abstract ints",
     "fn f() { _ = length(vec2(3, 4)); _ = normalize(vec2(3, 4));\n"
     "  _ = reflect(vec2(1, 2), vec2(0, 1)); _ = refract(vec2(1, 2), vec2(0, 1), 1); }\n", NULL},
    {"cross of booleans", "fn f() { _ = cross(vec3(true), vec3(false)); }\n",
     "[builtin-functions]"},
};

static void test_vector_builtins_of_abstract_ints(void **s)
{
    (void)s;
    WGSL_CHECK(VECTOR_ABSTRACT_INT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_must_use),
        cmocka_unit_test(test_phony_needs_a_value),
        cmocka_unit_test(test_builtin_parameter_counts),
        cmocka_unit_test(test_barriers_only_in_compute),
        cmocka_unit_test(test_bool_xor),
        cmocka_unit_test(test_partial_evaluation),
        cmocka_unit_test(test_builtin_partial_evaluation),
        cmocka_unit_test(test_short_circuit_leaves_values_unevaluated),
        cmocka_unit_test(test_vector_builtins_of_abstract_ints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
