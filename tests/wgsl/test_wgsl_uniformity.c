/* WGSL's uniformity analysis (WGSL 14.2): modules that must be accepted
 * or refused.  Every case is one of the WebGPU CTS's
 * webgpu:shader,validation,uniformity,uniformity cases (at 3314e410, named
 * beside it) built from the same module template, with the verdict the CTS
 * expects from the spec (which Dawn gives); the rule each family exercises
 * heads it.  A refused module is checked for the rule its error names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "../io/io_test.h"

typedef struct uni_case {
    const char *cts;  /* the CTS case it comes from */
    const char *code; /* what the template's hole gets */
    const char *rule; /* NULL: valid; else the rule of the expected error, "[rule]" */
} uni_case;

/* Each case's code put into template tmpl (one %s), compiled. */
static void check(const char *tmpl, const uni_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char src[4096];
        snprintf(src, sizeof src, tmpl, c[i].code);
        stex_wgsl_module *m = NULL;
        stex_status st = stex_wgsl_module_create(src, "t.wgsl", &m);
        const char *text = m ? stex_wgsl_module_diagnostics(m) : "";
        if (!c[i].rule && st)
            fail_msg("%s: valid, refused:\n%s\n%s", c[i].cts, src, text);
        if (c[i].rule && !st)
            fail_msg("%s: invalid, accepted:\n%s", c[i].cts, src);
        if (c[i].rule && !strstr(text, c[i].rule))
            fail_msg("%s: refused without '%s':\n%s", c[i].cts, c[i].rule, text);
        stex_wgsl_module_destroy(m);
    }
}

/* uniformity:pointers.  WGSL "Pointer Desugaring": a let of pointer type
 * stands for its initializer, with the indices' values taken where it is
 * declared.  So a pointer's address is uniform only if every index on its
 * way is, through chains of pointers (workgroupUniformLoad's argument:
 * "address"), and a load through it is non-uniform when an index is
 * ("contents"). */
#define ADDRESS "\n  let tmp = workgroupUniformLoad(ptr);\n"
#define CONTENTS "\n  if test_val > 0 {\n    workgroupBarrier();\n  }\n"
static const char POINTERS[] =
    "var<workgroup> wg_scalar : u32;\n"
    "var<workgroup> wg_array : array<u32, 16>;\n"
    "var<workgroup> wg_atomic : atomic<u32>;\n"
    "struct Inner { x : array<u32, 4> }\n"
    "struct Middle { x : array<Inner, 4> }\n"
    "struct Outer { x : array<Middle, 4> }\n"
    "var<workgroup> wg_struct : Outer;\n"
    "@group(0) @binding(0) var<storage> uniform_value : u32;\n"
    "@group(0) @binding(1) var<storage, read_write> nonuniform_value : u32;\n"
    "@compute @workgroup_size(16, 1, 1)\n"
    "fn main(@builtin(local_invocation_id) lid : vec3<u32>,\n"
    "        @builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  var func_scalar : u32;\n"
    "  var func_array : array<u32, 16>;\n"
    "  var func_struct : Outer;\n"
    "  %s}\n";
#define CHAIN(A, B, C)                                                   \
    "let p1 = &func_struct.x;\n  let p2 = &(*p1)[" A "];\n"             \
    "  let p3 = &(*p2).x;\n  let p4 = &(*p3)[" B "];\n"                 \
    "  let p5 = &(*p4).x;\n  let p6 = &(*p5)[" C "];\n  let test_val = *p6;" CONTENTS
static const uni_case POINTER_CASES[] = {
    {"pointers:case=\"address_uniform_value\"",
     "let ptr = &wg_array[uniform_value];" ADDRESS, NULL},
    {"pointers:case=\"address_nonuniform_value\"",
     "let ptr = &wg_array[nonuniform_value];" ADDRESS, "[uniformity]"},
    {"pointers:case=\"address_uniform_chain\"",
     "let p1 = &wg_struct.x;\n  let p2 = &(*p1)[uniform_value];\n  let p3 = &(*p2).x;\n"
     "  let ptr = &(*p3)[uniform_value];" ADDRESS, NULL},
    {"pointers:case=\"address_nonuniform_chain1\"",
     "let p1 = &wg_struct.x;\n  let p2 = &(*p1)[nonuniform_value];\n  let p3 = &(*p2).x;\n"
     "  let ptr = &(*p3)[uniform_value];" ADDRESS, "[uniformity]"},
    {"pointers:case=\"address_nonuniform_chain2\"",
     "let p1 = &wg_struct.x;\n  let p2 = &(*p1)[uniform_value];\n  let p3 = &(*p2).x;\n"
     "  let ptr = &(*p3)[nonuniform_value];" ADDRESS, "[uniformity]"},
    {"pointers:case=\"wg_uniform_load_atomic_is_uniform\"", "let ptr = &wg_atomic;" ADDRESS,
     NULL},
    {"pointers:case=\"contents_scalar_uniform2\"",
     "func_scalar = nonuniform_value;\n  let ptr = &func_scalar;\n  func_scalar = 0;\n"
     "  let test_val = *ptr;" CONTENTS, NULL},
    {"pointers:case=\"contents_scalar_alias_nonuniform4\"",
     "let p = &func_scalar;\n  func_scalar = nonuniform_value;\n  let test_val = *p;" CONTENTS,
     "[uniformity]"},
    {"pointers:case=\"contents_array_uniform_index\"",
     "let ptr = &func_array[uniform_value];\n  let test_val = *ptr;" CONTENTS, NULL},
    {"pointers:case=\"contents_array_nonuniform_index1\"",
     "let ptr = &func_array[nonuniform_value];\n  let test_val = *ptr;" CONTENTS,
     "[uniformity]"},
    {"pointers:case=\"contents_array_nonuniform_index2\"",
     "let ptr = &func_array[lid.x];\n  let test_val = *ptr;" CONTENTS, "[uniformity]"},
    {"pointers:case=\"contents_struct_nonuniform1\"",
     "let p1 = &func_struct.x[nonuniform_value].x[uniform_value].x[uniform_value];\n"
     "  let test_val = *p1;" CONTENTS, "[uniformity]"},
    {"pointers:case=\"contents_struct_nonuniform3\"",
     "let p1 = &func_struct.x[uniform_value].x[uniform_value].x[lid.y];\n"
     "  let test_val = *p1;" CONTENTS, "[uniformity]"},
    {"pointers:case=\"contents_struct_chain_uniform\"",
     CHAIN("uniform_value", "uniform_value", "uniform_value"), NULL},
    {"pointers:case=\"contents_struct_chain_nonuniform1\"",
     CHAIN("nonuniform_value", "uniform_value", "uniform_value"), "[uniformity]"},
    {"pointers:case=\"contents_struct_chain_nonuniform2\"",
     CHAIN("uniform_value", "gid.x", "uniform_value"), "[uniformity]"},
    {"pointers:case=\"contents_struct_chain_nonuniform3\"",
     CHAIN("uniform_value", "uniform_value", "lid.y"), "[uniformity]"},
};

static void test_pointers(void **s)
{
    (void)s;
    check(POINTERS, POINTER_CASES, sizeof POINTER_CASES / sizeof POINTER_CASES[0]);
}

/* uniformity:function_variables.  WGSL "Function-scope Variable Value
 * Analysis": a function-scope variable's value at a statement is the join
 * of the assignments that reach it: a full assignment replaces the value on
 * its path (so both branches of an if, every case of a switch, a loop's
 * body before its break leave only their values), paths that do not reach
 * the statement (after a return or break) bring nothing, and statically
 * unreachable code is not analysed ("Uniformity Rules for Statements").
 * The case's textureSample needs uniform control flow. */
#define FRAG_HEAD                                                              \
    "struct block { x : u32, y : u32 }\n"                                      \
    "@group(1) @binding(0) var t : texture_2d<f32>;\n"                         \
    "@group(1) @binding(1) var s : sampler;\n"                                 \
    "var<private> nonuniform_cond : bool = true;\n"                            \
    "const uniform_cond : bool = true;\n"                                      \
    "const uniform_val : u32 = 0;\n"
#define SAMPLE "let tmp = textureSample(t, s, vec2f(0, 0));"
static const char FUNCTION_VARIABLES[] =
    FRAG_HEAD
    "@group(0) @binding(0) var<storage> uniform_value : array<u32, 4>;\n"
    "@group(0) @binding(1) var<storage, read_write> nonuniform_value : array<u32, 4>;\n"
    "@fragment fn main() {\n"
    "  %s\n"
    "}\n";
/* the CTS's `var x : u32 INIT;`, its assignment, and its check */
#define NO_INIT "var x : u32;\n  "
#define UNIFORM_INIT "var x : u32 = uniform_value[3];\n  "
#define NONUNIFORM_INIT "var x : u32 = nonuniform_value[3];\n  "
#define IF_X "\n  if x > 0 {\n    " SAMPLE "\n  }"
#define IN_CONTINUING(BODY)                                                     \
    "loop {\n    " BODY "\n    continuing {\n      if x > 0 {\n        " SAMPLE \
    "\n      }\n      break if uniform_cond;\n    }\n  }"
#define UNREACHABLE "loop {\n    break;\n    x = nonuniform_value[0];\n  }" IF_X
#define NONESCAPING "if uniform_cond {\n    x = nonuniform_value[0];\n    return;\n  }" IF_X
static const uni_case FUNCTION_VARIABLE_CASES[] = {
    {"function_variables:case=\"unreachable_nonuniform\";init=\"no_init\"", NO_INIT UNREACHABLE,
     NULL},
    {"function_variables:case=\"unreachable_nonuniform\";init=\"uniform\"",
     UNIFORM_INIT UNREACHABLE, NULL},
    {"function_variables:case=\"unreachable_nonuniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT UNREACHABLE, "[derivative_uniformity]"},
    {"function_variables:case=\"if_else_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT "if uniform_cond {\n    x = uniform_value[0];\n  } else {\n"
                     "    x = uniform_value[1];\n  }" IF_X, NULL},
    {"function_variables:case=\"if_else_nonuniform\";init=\"uniform\"",
     UNIFORM_INIT "if nonuniform_cond {\n    x = uniform_value[0];\n  } else {\n"
                  "    x = uniform_value[1];\n  }" IF_X, "[derivative_uniformity]"},
    {"function_variables:case=\"if_unreachable_else_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT "if uniform_cond {\n    x = uniform_value[0];\n  } else {\n"
                     "    return;\n  }" IF_X, NULL},
    {"function_variables:case=\"if_unreachable_then_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT "if uniform_cond {\n    return;\n  } else {\n"
                     "    x = uniform_value[0];\n  }" IF_X, NULL},
    {"function_variables:case=\"if_nonescaping_nonuniform\";init=\"no_init\"",
     NO_INIT NONESCAPING, NULL},
    {"function_variables:case=\"if_nonescaping_nonuniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT NONESCAPING, "[derivative_uniformity]"},
    {"function_variables:case=\"loop_body_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT "loop {\n    x = uniform_value[0];\n    continuing {\n"
                     "      break if uniform_cond;\n    }\n  }" IF_X, NULL},
    {"function_variables:case=\"loop_continuing_from_body_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT IN_CONTINUING("x = uniform_value[0];"), NULL},
    {"function_variables:case=\"loop_continuing_from_body_split3\";init=\"nonuniform\"",
     NONUNIFORM_INIT IN_CONTINUING("if uniform_cond {\n      x = uniform_value[0];\n"
                                   "    } else {\n      x = uniform_value[1];\n    }"), NULL},
    {"function_variables:case=\"loop_in_loop_with_continue_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT IN_CONTINUING("loop {\n      x = nonuniform_value[0];\n"
                                   "      if nonuniform_cond {\n        break;\n      }\n"
                                   "      continue;\n    }\n    x = uniform_value[0];"),
     NULL},
    {"function_variables:case=\"after_loop_with_uniform_break_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT "loop {\n    if uniform_cond {\n      x = uniform_value[0];\n"
                     "      break;\n    }\n  }" IF_X, NULL},
    {"function_variables:case=\"after_switch_all_uniform\";init=\"nonuniform\"",
     NONUNIFORM_INIT "switch uniform_val {\n    case 0 {\n      x = uniform_value[0];\n"
                     "    }\n    case 1, 2 {\n      x = uniform_value[1];\n    }\n"
                     "    default {\n      x = uniform_value[2];\n    }\n  }" IF_X, NULL},
    {"function_variables:case=\"for_loop_uniform_body_no_condition\";init=\"nonuniform\"",
     NONUNIFORM_INIT "for (var i = 0; ; i += 1) {\n    x = uniform_value[0];\n"
                     "    if uniform_cond {\n      break;\n    }\n  }" IF_X, NULL},
    {"function_variables:case=\"for_loop_uniform_init\";init=\"nonuniform\"",
     NONUNIFORM_INIT "for (x = uniform_value[0]; uniform_cond; ) {\n  }" IF_X, NULL},
};

/* The same rules with a struct variable: a member's store is a partial
 * assignment and keeps the rest (case nested1, whose arrays hold blocks). */
static const char FUNCTION_VARIABLES_BLOCK[] =
    FRAG_HEAD
    "@group(0) @binding(0) var<storage> uniform_value : array<block, 4>;\n"
    "@group(0) @binding(1) var<storage, read_write> nonuniform_value : array<block, 4>;\n"
    "@fragment fn main() {\n"
    "  %s\n"
    "  for (; uniform_cond; ) {\n"
    "    if uniform_cond {\n"
    "      x = uniform_value[0];\n"
    "      break;\n"
    "      x.y = nonuniform_value[0].y;\n"
    "    } else {\n"
    "      if uniform_cond {\n"
    "        continue;\n"
    "      }\n"
    "      x = uniform_value[1];\n"
    "    }\n"
    "  }\n"
    "  if x.x > 0 {\n"
    "    " SAMPLE "\n"
    "  }\n"
    "}\n";
static const uni_case NESTED_CASES[] = {
    {"function_variables:case=\"nested1\";init=\"no_init\"", "var x : block;", NULL},
    {"function_variables:case=\"nested1\";init=\"uniform\"", "var x : block = uniform_value[3];",
     NULL},
    {"function_variables:case=\"nested1\";init=\"nonuniform\"",
     "var x : block = nonuniform_value[3];", "[derivative_uniformity]"},
};

static void test_function_variables(void **s)
{
    (void)s;
    check(FUNCTION_VARIABLES, FUNCTION_VARIABLE_CASES,
          sizeof FUNCTION_VARIABLE_CASES / sizeof FUNCTION_VARIABLE_CASES[0]);
    check(FUNCTION_VARIABLES_BLOCK, NESTED_CASES, sizeof NESTED_CASES / sizeof NESTED_CASES[0]);
}

/* uniformity:function_pointer_parameters.  "Pointer Desugaring": a
 * ptr<function> parameter is the caller's variable; a store through `*p` is
 * a full assignment of it, so what the callee stores is its value after the
 * call (not joined with the value before). */
static const char POINTER_PARAMETERS[] =
    "@group(0) @binding(0) var t : texture_2d<f32>;\n"
    "@group(0) @binding(1) var s : sampler;\n"
    "const uniform_cond = true;\n"
    "var<private> nonuniform_cond = true;\n"
    "@group(1) @binding(0) var<storage> uniform_values : array<u32, 4>;\n"
    "@group(1) @binding(1) var<storage, read_write> nonuniform_values : array<u32, 4>;\n"
    "%s\n"
    "  if x > 0 {\n"
    "    " SAMPLE "\n"
    "  }\n"
    "}\n";
#define MAIN "@fragment fn main(@builtin(position) pos : vec4f) {\n  "
static const uni_case POINTER_PARAMETER_CASES[] = {
    {"function_pointer_parameters:case=\"pointer_store_uniform_value\"",
     "fn foo(p : ptr<function, u32>) {\n  *p = uniform_values[0];\n}\n" MAIN
     "var x = nonuniform_values[0];\n  foo(&x);", NULL},
    {"function_pointer_parameters:case=\"pointer_store_nonuniform_value\"",
     "fn foo(p : ptr<function, u32>) {\n  *p = nonuniform_values[0];\n}\n" MAIN
     "var x = uniform_values[0];\n  foo(&x);", "[derivative_uniformity]"},
    {"function_pointer_parameters:case=\"pointer_depends_on_nonpointer_param_uniform\"",
     "fn foo(p : ptr<function, u32>, x : u32) {\n  *p = x;\n}\n" MAIN
     "var x = nonuniform_values[0];\n  foo(&x, uniform_values[0]);", NULL},
    {"function_pointer_parameters:case=\"pointer_depends_on_nonpointer_param_nonuniform\"",
     "fn foo(p : ptr<function, u32>, x : u32) {\n  *p = x;\n}\n" MAIN
     "var x = uniform_values[0];\n  foo(&x, nonuniform_values[0]);", "[derivative_uniformity]"},
    {"function_pointer_parameters:case=\"pointer_depends_on_pointer_param_uniform\"",
     "fn foo(p : ptr<function, u32>, q : ptr<function, u32>) {\n  *p = *q;\n}\n" MAIN
     "var x = nonuniform_values[0];\n  var y = uniform_values[0];\n  foo(&x, &y);", NULL},
    {"function_pointer_parameters:case=\"nonuniform_conditional_call_assign_uniform\"",
     "fn foo(p : ptr<function, u32>) {\n  *p = uniform_values[0];\n}\n" MAIN
     "var x = uniform_values[1];\n  if nonuniform_cond {\n    foo(&x);\n  }",
     "[derivative_uniformity]"},
};

static void test_pointer_parameters(void **s)
{
    (void)s;
    check(POINTER_PARAMETERS, POINTER_PARAMETER_CASES,
          sizeof POINTER_PARAMETER_CASES / sizeof POINTER_PARAMETER_CASES[0]);
}

/* uniformity:subgroups,parameters.  "Uniformity Rules for Function Calls":
 * subgroupShuffleUp's and subgroupShuffleDown's delta and
 * subgroupShuffleXor's mask must be uniform values (rule
 * subgroup_uniformity, which a diagnostic filter may turn off, WGSL 2.3). */
static const char SUBGROUP[] =
    "enable subgroups;\n"
    "var<private> non_uniform : u32 = 0;\n"
    "@group(0) @binding(0) var<storage> uniform : u32;\n"
    "%s";
#define SHUFFLE(ATTR, OP, OPERAND) \
    ATTR "@compute @workgroup_size(16, 1, 1)\nfn main() {\n  let x = " OP "(non_uniform, " \
    OPERAND ");\n}\n"
#define OFF "@diagnostic(off, subgroup_uniformity) "
#define SHUFFLE_CASES(OP)                                                                    \
    {"subgroups,parameters:op=\"" OP "\";uniform=false", SHUFFLE("", OP, "non_uniform"),     \
     "[subgroup_uniformity]"},                                                               \
    {"subgroups,parameters:op=\"" OP "\";uniform=true", SHUFFLE("", OP, "uniform"), NULL},   \
    {"subgroups,parameters:op=\"" OP "\";uniform=false, filtered off",                      \
     SHUFFLE(OFF, OP, "non_uniform"), NULL}
static const uni_case SUBGROUP_CASES[] = {
    SHUFFLE_CASES("subgroupShuffleUp"),
    SHUFFLE_CASES("subgroupShuffleDown"),
    SHUFFLE_CASES("subgroupShuffleXor"),
};

static void test_subgroup_operands(void **s)
{
    (void)s;
    check(SUBGROUP, SUBGROUP_CASES, sizeof SUBGROUP_CASES / sizeof SUBGROUP_CASES[0]);
}

/* A loop's 'continuing' block sees the names its body declared (WGSL
 * "Continuing Statement"), with the values the body left in them: here a
 * var of the body holds a read_write storage value, so the barrier in
 * 'continuing' is in non-uniform control flow.  Not a CTS case: Dawn
 * (webgpu 0.6.2) refuses this module the same way. */
static const char CONTINUING_NAMES[] =
    "@group(0) @binding(0) var<storage, read_write> buf : array<u32, 4>;\n"
    "@compute @workgroup_size(4)\n"
    "fn main(@builtin(local_invocation_index) i : u32) {\n"
    "  loop {\n"
    "    var v = %s;\n"
    "    continuing {\n"
    "      if v > 0 {\n"
    "        workgroupBarrier();\n"
    "      }\n"
    "      break if true;\n"
    "    }\n"
    "  }\n"
    "}\n";
static const uni_case CONTINUING_CASES[] = {
    {"continuing reads the body's var (read_write storage)", "buf[i]", "[uniformity]"},
    {"continuing reads the body's var (a constant)", "3u", NULL},
};

static void test_continuing_sees_body_names(void **s)
{
    (void)s;
    check(CONTINUING_NAMES, CONTINUING_CASES, sizeof CONTINUING_CASES / sizeof CONTINUING_CASES[0]);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* tests/data/uniformity: modules beyond the CTS's cases, each with the
 * verdict Dawn gave it on its second line ("// Dawn ...: valid" or
 * "refused [rule]"). */
static void test_dawn_verdicts(void **s)
{
    (void)s;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/uniformity", getenv("STEX_TEST_DATA"));
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name), cases = 0;
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        const char *nm = ents[i]->d_name;
        size_t len = strlen(nm);
        if (len > 5 && !strcmp(nm + len - 5, ".wgsl")) {
            char path[2048];
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            char *src = slurp_text(path);
            assert_non_null(src);
            const char *verdict = strstr(src, "// Dawn ");
            const char *rule = verdict ? strstr(verdict, "refused ") : NULL;
            const char *eol = verdict ? strchr(verdict, '\n') : NULL;
            if (!verdict || !eol)
                fail_msg("%s: no \"// Dawn ...\" line", nm);
            char want[64] = "";
            if (rule && rule < eol)
                snprintf(want, sizeof want, "%.*s", (int)(eol - rule - 8), rule + 8);
            /* the file is the whole module: a template without a hole */
            const uni_case c = {nm, src, want[0] ? want : NULL};
            check("%s", &c, 1);
            free(src);
            cases++;
        }
        free(ents[i]);
    }
    free(ents);
    assert_true(cases > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pointers),
        cmocka_unit_test(test_function_variables),
        cmocka_unit_test(test_pointer_parameters),
        cmocka_unit_test(test_subgroup_operands),
        cmocka_unit_test(test_continuing_sees_body_names),
        cmocka_unit_test(test_dawn_verdicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
