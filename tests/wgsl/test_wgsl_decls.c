/* Declarations: what each address space, stage and initializer allows.
 * Every case is a module of the WebGPU CTS's webgpu:shader,validation,decl
 * tests (at 3314e410, named beside it) with the verdict the CTS expects
 * from the WGSL spec, which Dawn gives (wgsl_cases.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_cases.h"
#include "wgsl_fixture.h"

/* decl,var:module_scope_types / function_scope_types and
 * decl,override:array_size: an array whose count is an override-expression
 * is a type like any other - an alias may name it - but only a
 * var<workgroup>'s store type (or a ptr<workgroup>'s): neither constructible
 * nor host-shareable, and never inside another array or a struct. */
#define SIZES "const array_size_const = 4;\noverride array_size_override = 4;\n" \
              "alias MyType = array<vec4u, array_size_override>;\n"
static const wgsl_case OVERRIDE_SIZED[] = {
    {"var:module_scope_types:kind=comment", SIZES "// array<vec4u, array_size_override>;\n", NULL},
    {"var:module_scope_types:kind=workgroup", SIZES
     "var<workgroup> foo : array<vec4u, array_size_override>;\n", NULL},
    {"var:module_scope_types:kind=workgroup;via_alias", SIZES "var<workgroup> foo : MyType;\n",
     NULL},
    {"var:module_scope_types:kind=private;via_alias", SIZES "var<private> foo : MyType;\n",
     "[array-types]"},
    {"var:module_scope_types:kind=storage_rw;via_alias", SIZES
     "@group(0) @binding(0) var<storage, read_write> foo : MyType;\n", "[array-types]"},
    {"var:module_scope_types:kind=uniform;via_alias", SIZES
     "@group(0) @binding(0) var<uniform> foo : MyType;\n", "[array-types]"},
    {"var:function_scope_types:kind=comment", SIZES "fn foo() {\n  // MyType;\n}\n", NULL},
    {"var:function_scope_types:kind=var;via_alias", SIZES "fn foo() {\n  var foo : MyType;\n}\n",
     "[array-types]"},
    {"override:array_size:workgroup_ptr_param", "override size = 1;\n"
     "fn f(a: ptr<workgroup, array<u32, size>>) {}\n", NULL},
    {"override:array_size:workgroup_ptr_let", "override size = 1;\n"
     "var<workgroup> a: array<u32, size>;\nfn f() { let a = &a; }\n", NULL},
    {"override:array_size:private_ptr_param", "override size = 1;\n"
     "fn f(a: ptr<private, array<u32, size>>) {}\n", "[ref-ptr-types]"},
    {"override:array_size:array_in_array", "override size = 1;\n"
     "var<workgroup> a: array<array<u32, size>, 4>;\n", "[array-types]"},
    {"override:array_size:array_in_struct", "override size = 1;\n"
     "struct S { a: array<u32, size> };\n", "[struct-types]"},
    {"override:array_size:construct_array", "override size = 1;\n"
     "fn a() -> u32 { return array<u32, size>()[0]; }\n", "[value-constructor]"},
    {"override:array_size:array_in_array;stage=const", "const size = 1;\n"
     "var<workgroup> a: array<array<u32, size>, 4>;\n", NULL},
};

static void test_override_sized_arrays(void **s)
{
    (void)s;
    WGSL_CHECK(OVERRIDE_SIZED);
}

/* decl,var:module_scope_types kind=workgroup: WGSL 6.4.1, the workgroup
 * address space holds types with a fixed footprint - no runtime-sized
 * array, at the top or as a struct's last member. */
static const wgsl_case WORKGROUP[] = {
    {"type=array<vec4u>", "var<workgroup> foo : array<vec4u>;\n", "[address-space]"},
    {"type=array<vec4u>;via_alias", "alias MyType = array<vec4u>;\nvar<workgroup> foo : MyType;\n",
     "[address-space]"},
    {"type=array<vec4<bool>>", "var<workgroup> foo : array<vec4<bool>>;\n", "[address-space]"},
    {"type=S_array_vec4u", "struct S_array_vec4u { a : array<u32> }\n"
     "var<workgroup> foo : S_array_vec4u;\n", "[address-space]"},
    {"type=S_array_vec4u_4", "struct S_array_vec4u_4 { a : array<vec4u, 4> }\n"
     "var<workgroup> foo : S_array_vec4u_4;\n", NULL},
    {"type=array<vec4<bool>, 4>", "var<workgroup> foo : array<vec4<bool>, 4>;\n", NULL},
};

static void test_workgroup_fixed_footprint(void **s)
{
    (void)s;
    WGSL_CHECK(WORKGROUP);
}

/* decl,var:initializer_kind, decl,override:initializer and decl,let:module_scope:
 * a var<private>'s initializer is a const- or override-expression, an
 * override's an override-expression; neither names a variable or calls a
 * user function; `let` is not a module-scope declaration. */
#define INIT_DECLS "const my_const_42u = 42u;\noverride my_override_42u : u32;\n" \
                   "var<private> another_private_var = 42u;\n" \
                   "fn user_func() -> u32 {\n  return 42u;\n}\n"
static const wgsl_case INITIALIZERS[] = {
    {"initializer=my_override_42u", INIT_DECLS "var<private> foo : u32 = my_override_42u;\n",
     NULL},
    {"initializer=vec4u(1, 2, 3, 4)[my_override_42u / 20]", INIT_DECLS
     "var<private> foo : u32 = vec4u(1, 2, 3, 4)[my_override_42u / 20];\n", NULL},
    {"initializer=another_private_var", INIT_DECLS
     "var<private> foo : u32 = another_private_var;\n", "[const-expr]"},
    {"initializer=vec4u(1, 2, 3, 4)[another_private_var / 20]", INIT_DECLS
     "var<private> foo : u32 = vec4u(1, 2, 3, 4)[another_private_var / 20];\n", "[const-expr]"},
    {"initializer=user_func()", INIT_DECLS "var<private> foo : u32 = user_func();\n",
     "[const-expr]"},
    {"initializer=my_override_42u + another_private_var (stex's own: both at once)", INIT_DECLS
     "var<private> foo : u32 = my_override_42u + another_private_var;\n", "[const-expr]"},
    {"override:initializer:init_runtime_expr", "var<private> x = 2;\noverride y = x;\n",
     "[const-expr]"},
    {"override:initializer:override_expr", "override x = 1;\noverride y = x + 2;\n", NULL},
    {"let:module_scope", "let x = 0;\n", "[let-decls]"},
};

static void test_initializers(void **s)
{
    (void)s;
    WGSL_CHECK(INITIALIZERS);
}

/* The var<private> initialized from an override without a default holds the
 * pipeline's value, and (my_override / 20) picks vec4u's element 2 when the
 * value is 42 (WebGPU: the constant converted to u32). */
static void test_private_from_override_runs(void **s)
{
    (void)s;
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(
        "override my_override_42u : u32;\n"
        "var<private> v : u32 = my_override_42u;\n"
        "var<private> w : u32 = vec4u(1, 2, 3, 4)[my_override_42u / 20];\n"
        "@group(0) @binding(0) var<storage, read_write> out : array<u32, 2>;\n"
        "@compute @workgroup_size(1) fn main() {\n  out[0] = v;\n  out[1] = w;\n}\n",
        "p.wgsl");
    stex_wgsl_override c = {.name = "my_override_42u", .value = 42};
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(dev, m, "main", &(stex_wgsl_options){.overrides = &c,
                                  .override_count = 1}, &p))
        fail_msg("%s", stex_last_error());
    stex_buffer *b;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 8,
                         .usage = STEX_BUFFER_USAGE_STORAGE}, &b), STEX_OK);
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, &(stex_bind_group_entry){.binding = 0,
                         .buffer = b}, 1, &g), STEX_OK);
    assert_int_equal(stex_dispatch(p, g, 1, 1, 1, &(stex_dispatch_options){.threads = 1}),
                     STEX_OK);
    uint32_t out[2];
    memcpy(out, stex_buffer_data(b), sizeof out);
    assert_int_equal(out[0], 42);
    assert_int_equal(out[1], 3);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(b);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

/* decl,const:no_indirect_recursion_via_struct_attribute: a struct member's
 * @location is a const-expression like its @align and @size, so a const
 * that constructs the struct may not be the member's location. */
#define LOC_STRUCT(T) "struct S {\n  @location(" T ") a : i32\n}\nconst a = 4;\nconst b = S(4).a;\n"
static const wgsl_case LOCATIONS[] = {
    {"target=a;attribute=location", LOC_STRUCT("a"), NULL},
    {"target=b;attribute=location", LOC_STRUCT("b"), "[module-scope-cycle]"},
    {"target=b;attribute=align", "struct S {\n  @align(b) a : i32\n}\nconst a = 4;\n"
     "const b = S(4).a;\n", "[module-scope-cycle]"},
};

static void test_struct_location_is_evaluated(void **s)
{
    (void)s;
    WGSL_CHECK(LOCATIONS);
}

/* decl,var:shader_stage and decl,var:binding_collisions: a @vertex or
 * @fragment entry point is checked like a compute one, though stex never
 * runs it - var<workgroup> is the compute stage's alone, a vertex shader
 * writes no storage, and the resources one entry point uses have distinct
 * binding points (two entry points, or a helper none calls, may share). */
#define VERTEX(DECL) DECL "\n@vertex\nfn main() -> @builtin(position) vec4f {\n" \
                     "  _ = v;\n  return vec4f();\n}\n"
#define FRAGMENT(DECL) DECL "\n@fragment\nfn main() {\n  _ = v;\n}\n"
#define COMPUTE(DECL) DECL "\n@compute @workgroup_size(1)\nfn main() {\n  _ = v;\n}\n"
#define WO "@group(0) @binding(0) var v : texture_storage_2d<r32uint, write>;"
#define RW "@group(0) @binding(0) var v : texture_storage_2d<r32uint, read_write>;"
#define SRW "@group(0) @binding(0) var<storage, read_write> v : u32;"
#define WG "var<workgroup> v : u32;"
#define SAMPLER "@group(0) @binding(0) var v : sampler;"
#define COLLIDE(A, B, SPLIT) "@group(" A ") @binding(0) var<uniform> a : vec4f;\n" \
    "@group(" B ") @binding(0) var<uniform> b : vec4f;\n@fragment\nfn main1() {\n  _ = a;\n" \
    SPLIT "  _ = b;\n}\n"
#define APART "}\n@fragment\nfn main2() {\n"
static const wgsl_case STAGES[] = {
    {"stage=vertex;kind=handle_wo", VERTEX(WO), "[shader-stage]"},
    {"stage=vertex;kind=handle_rw", VERTEX(RW), "[shader-stage]"},
    {"stage=vertex;kind=storage_rw", VERTEX(SRW), "[shader-stage]"},
    {"stage=vertex;kind=workgroup", VERTEX(WG), "[shader-stage]"},
    {"stage=vertex;kind=handle_ro", VERTEX(SAMPLER), NULL},
    {"stage=fragment;kind=workgroup", FRAGMENT(WG), "[shader-stage]"},
    {"stage=fragment;kind=handle_wo", FRAGMENT(WO), NULL},
    {"stage=fragment;kind=handle_rw", FRAGMENT(RW), NULL},
    {"stage=fragment;kind=storage_rw", FRAGMENT(SRW), NULL},
    {"stage=compute;kind=workgroup", COMPUTE(WG), NULL},
    {"stage=compute;kind=storage_rw", COMPUTE(SRW), NULL},
    {"binding_collisions:a_group=0;b_group=0;b_use=same", COLLIDE("0", "0", ""),
     "[resource-interface]"},
    {"binding_collisions:a_group=1;b_group=1;b_use=same", COLLIDE("1", "1", ""),
     "[resource-interface]"},
    {"binding_collisions:a_group=0;b_group=1;b_use=same", COLLIDE("0", "1", ""), NULL},
    {"binding_collisions:a_group=0;b_group=0;b_use=different", COLLIDE("0", "0", APART), NULL},
    {"binding_collision_unused_helper", "@group(0) @binding(0) var<uniform> a : vec4f;\n"
     "@group(0) @binding(0) var<uniform> b : vec4f;\nfn foo() {\n  _ = a;\n  _ = b;\n}\n", NULL},
};

static void test_graphics_stages(void **s)
{
    (void)s;
    WGSL_CHECK(STAGES);
}

/* shader_io,locations:type:use_struct=true with a texture or sampler type
 * (the module crashed the process, SIGFPE in the struct's layout): a
 * struct's members are plain types (WGSL 6.2.10) - no texture, sampler or
 * pointer. */
static const wgsl_case STRUCT_MEMBERS[] = {
    {"locations:type:use_struct=true;type=texture_2d<f32>",
     "struct S {\n  @location(0) @interpolate(flat, either) value : texture_2d<f32>,\n}\n"
     "@fragment fn main(s : S) {}\n", "[struct-types]"},
    {"types,struct: a sampler member", "struct S { a : sampler }\n", "[struct-types]"},
    {"types,struct: a pointer member", "struct S { p : ptr<function, u32> }\n",
     "[struct-types]"},
    {"types,struct: an atomic and a runtime-sized array",
     "struct S { n : atomic<u32>, a : array<u32> }\n", NULL},
};

static void test_struct_member_types(void **s)
{
    (void)s;
    WGSL_CHECK(STRUCT_MEMBERS);
}

/* An array of pointers (the module crashed the process, SIGFPE in the
 * element's stride): an array's element is a plain type (WGSL 6.2.9), in
 * every place a type is written. */
static const wgsl_case ARRAY_ELEMENTS[] = {
    {"types,array: a pointer element", "var<private> a : array<ptr<function, u32>, 2>;\n",
     "[array-types]"},
    {"types,array: a runtime-sized array of pointers",
     "var<workgroup> a : array<ptr<workgroup, u32>>;\n", "[array-types]"},
    {"types,array: a let's pointer array",
     "fn f() { let x : array<ptr<private, u32>, 2> = array(); }\n", "[array-types]"},
    {"types,array: a sampler element", "var<private> a : array<sampler, 2>;\n",
     "[array-types]"},
    {"types,array: a struct ending in a runtime-sized array (crashed)",
     "struct R { a : array<u32> }\nvar<private> x : array<R, 2>;\n", "[array-types]"},
    {"types,struct: a struct ending in a runtime-sized array as a member (Dawn: cannot be "
     "nested)", "struct R { a : array<u32> }\nstruct Q { m : R }\n", "[runtime-sized-array]"},
    {"types,array: atomics and nested arrays",
     "var<workgroup> a : array<array<atomic<u32>, 2>, 2>;\n", NULL},
};

static void test_array_element_types(void **s)
{
    (void)s;
    WGSL_CHECK(ARRAY_ELEMENTS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_override_sized_arrays),
        cmocka_unit_test(test_workgroup_fixed_footprint),
        cmocka_unit_test(test_initializers),
        cmocka_unit_test(test_private_from_override_runs),
        cmocka_unit_test(test_struct_location_is_evaluated),
        cmocka_unit_test(test_graphics_stages),
        cmocka_unit_test(test_struct_member_types),
        cmocka_unit_test(test_array_element_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
