/* createView (WebGPU spec "createView", "resolving GPUTextureViewDescriptor
 * defaults") and the views bound to storage-texture entries (spec
 * "createBindGroup"; lesson 003: exact format, one mip level). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stex/device.h"

#define ST STEX_USAGE_STORAGE_BINDING
#define TB STEX_USAGE_TEXTURE_BINDING
#define F(x) STEX_FORMAT_##x
#define D(x) STEX_VIEW_DIMENSION_##x
#define TD(x) STEX_TEXTURE_DIMENSION_##x

static stex_device *dev;

static int setup(void **state)
{
    (void)state;
    stex_adapter *a;
    if (stex_adapter_create(NULL, &a) || stex_device_create(a, NULL, &dev))
        return -1;
    stex_adapter_destroy(a);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stex_device_destroy(dev);
    return 0;
}

static const stex_format srgb_view[] = {F(RGBA8UNORM_SRGB)};

/* Resolution of defaults: expected values written from the spec's algorithm. */
static void test_resolve(void **state)
{
    (void)state;
    static const struct {
        const char *why;
        stex_texture_desc tex;
        stex_view_desc view, want;
    } cases[] = {
        {"2d, one layer -> 2d", {.size = {4, 4, 1}, .format = F(R32FLOAT), .mip_level_count = 3, .usage = ST},
         {0}, {F(R32FLOAT), D(2D), 0, 3, 0, 1, ST, STEX_ASPECT_ALL}},
        {"2d, layers -> 2d-array of all layers", {.size = {4, 4, 5}, .format = F(R32FLOAT), .usage = ST},
         {.base_array_layer = 2}, {F(R32FLOAT), D(2D_ARRAY), 0, 1, 2, 3, ST, STEX_ASPECT_ALL}},
        {"2d view of a layered texture: 1 layer", {.size = {4, 4, 5}, .format = F(R32FLOAT), .usage = ST},
         {.dimension = D(2D), .base_array_layer = 4}, {F(R32FLOAT), D(2D), 0, 1, 4, 1, ST, STEX_ASPECT_ALL}},
        {"cube: 6 layers", {.size = {4, 4, 12}, .format = F(R32FLOAT), .usage = TB},
         {.dimension = D(CUBE)}, {F(R32FLOAT), D(CUBE), 0, 1, 0, 6, TB, STEX_ASPECT_ALL}},
        {"1d", {.dimension = TD(1D), .size = {8, 1, 1}, .format = F(R32FLOAT), .usage = ST},
         {0}, {F(R32FLOAT), D(1D), 0, 1, 0, 1, ST, STEX_ASPECT_ALL}},
        {"3d: one layer, depth is not layers", {.dimension = TD(3D), .size = {4, 4, 8}, .format = F(R32FLOAT), .mip_level_count = 2, .usage = ST},
         {.base_mip_level = 1}, {F(R32FLOAT), D(3D), 1, 1, 0, 1, ST, STEX_ASPECT_ALL}},
        {"explicit usage kept", {.size = {4, 4, 1}, .format = F(R32FLOAT), .usage = ST | TB},
         {.usage = TB}, {F(R32FLOAT), D(2D), 0, 1, 0, 1, TB, STEX_ASPECT_ALL}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stex_view_desc got = stex_view_desc_resolve(&cases[i].tex, &cases[i].view);
        const stex_view_desc *w = &cases[i].want;
        if (got.format != w->format || got.dimension != w->dimension ||
            got.base_mip_level != w->base_mip_level || got.mip_level_count != w->mip_level_count ||
            got.base_array_layer != w->base_array_layer ||
            got.array_layer_count != w->array_layer_count || got.usage != w->usage)
            fail_msg("%s: got %s %s mips %u+%u layers %u+%u usage %u", cases[i].why,
                     stex_format_name(got.format), stex_view_dimension_name(got.dimension),
                     got.base_mip_level, got.mip_level_count, got.base_array_layer,
                     got.array_layer_count, got.usage);
        /* Resolving is idempotent. */
        stex_view_desc again = stex_view_desc_resolve(&cases[i].tex, &got);
        assert_memory_equal(&again, &got, sizeof got);
    }
    /* NULL view = all defaults. */
    stex_texture_desc t = {.size = {4, 4, 1}, .format = F(R32FLOAT), .usage = ST};
    assert_int_equal(stex_view_desc_resolve(&t, NULL).dimension, D(2D));
}

static const struct view_case {
    const char *why;
    stex_texture_desc tex;
    stex_view_desc view;
    stex_status want;
    const char *msg;
} view_cases[] = {
    {"default view", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, {0}, STEX_OK, ""},
    {"2d-array of a 2-layer texture", {.size = {4, 4, 2}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(2D_ARRAY)}, STEX_OK, ""},
    {"2d-array of 1 layer", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(2D_ARRAY)}, STEX_OK, ""},
    {"cube of 6 square layers", {.size = {4, 4, 6}, .format = F(RGBA8UNORM), .usage = TB}, {.dimension = D(CUBE)}, STEX_OK, ""},
    {"cube-array of 12", {.size = {4, 4, 12}, .format = F(RGBA8UNORM), .usage = TB}, {.dimension = D(CUBE_ARRAY)}, STEX_OK, ""},
    {"one mip of three", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .mip_level_count = 3, .usage = ST}, {.base_mip_level = 2, .mip_level_count = 1}, STEX_OK, ""},
    {"srgb view listed in viewFormats", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = TB, .view_formats = srgb_view, .view_format_count = 1}, {.format = F(RGBA8UNORM_SRGB)}, STEX_OK, ""},
    {"srgb view of a storage texture with view usage TEXTURE_BINDING", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST | TB, .view_formats = srgb_view, .view_format_count = 1}, {.format = F(RGBA8UNORM_SRGB), .usage = TB}, STEX_OK, ""},
    {"view format enum out of range", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, {.format = (stex_format)777}, STEX_TYPE_ERROR, "not a GPUTextureFormat"},
    {"view dimension enum out of range", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = (stex_view_dimension)77}, STEX_TYPE_ERROR, "not a GPUTextureViewDimension"},
    {"view format not the texture's", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, {.format = F(RGBA8UINT)}, STEX_VALIDATION_ERROR, "format rgba8uint is neither the texture's format rgba8unorm nor one of its viewFormats"},
    {"srgb view not in viewFormats", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = TB}, {.format = F(RGBA8UNORM_SRGB)}, STEX_VALIDATION_ERROR, "nor one of its viewFormats"},
    {"srgb view inherits STORAGE_BINDING", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST, .view_formats = srgb_view, .view_format_count = 1}, {.format = F(RGBA8UNORM_SRGB)}, STEX_VALIDATION_ERROR, "STORAGE_BINDING but view format rgba8unorm-srgb cannot be a storage texture"},
    {"view usage beyond the texture's", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = TB}, {.usage = ST}, STEX_VALIDATION_ERROR, "usage STORAGE_BINDING is not a subset of the texture's usage TEXTURE_BINDING"},
    {"baseMipLevel past the end", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .mip_level_count = 3, .usage = ST}, {.base_mip_level = 3}, STEX_VALIDATION_ERROR, "baseMipLevel 3 is not below the texture's mipLevelCount 3"},
    {"mip range past the end", {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .mip_level_count = 3, .usage = ST}, {.base_mip_level = 1, .mip_level_count = 3}, STEX_VALIDATION_ERROR, "mip levels [1, 4) are outside the texture's 3 levels"},
    {"2d view of a 1d texture", {.dimension = TD(1D), .size = {4, 1, 1}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(2D)}, STEX_VALIDATION_ERROR, "dimension 2d is not allowed on a 1d texture"},
    {"2d-array view of a 3d texture", {.dimension = TD(3D), .size = {4, 4, 4}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(2D_ARRAY)}, STEX_VALIDATION_ERROR, "dimension 2d-array is not allowed on a 3d texture"},
    {"3d view of a 2d texture", {.size = {4, 4, 4}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(3D)}, STEX_VALIDATION_ERROR, "dimension 3d is not allowed on a 2d texture"},
    {"baseArrayLayer past the end", {.size = {4, 4, 2}, .format = F(RGBA8UNORM), .usage = ST}, {.base_array_layer = 2}, STEX_VALIDATION_ERROR, "baseArrayLayer 2 is not below the texture's 2 array layers"},
    {"layer range past the end", {.size = {4, 4, 2}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(2D_ARRAY), .base_array_layer = 1, .array_layer_count = 2}, STEX_VALIDATION_ERROR, "array layers [1, 3) are outside the texture's 2 layers"},
    {"2d view with 2 layers", {.size = {4, 4, 2}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(2D), .array_layer_count = 2}, STEX_VALIDATION_ERROR, "a 2d view has exactly 1 array layer"},
    {"cube of 4 layers", {.size = {4, 4, 4}, .format = F(RGBA8UNORM), .usage = TB}, {.dimension = D(CUBE)}, STEX_VALIDATION_ERROR, "array layers [0, 6) are outside"},
    {"cube with 5 layers", {.size = {4, 4, 6}, .format = F(RGBA8UNORM), .usage = TB}, {.dimension = D(CUBE), .array_layer_count = 5}, STEX_VALIDATION_ERROR, "a cube view needs exactly 6 array layers"},
    {"cube-array of 8", {.size = {4, 4, 8}, .format = F(RGBA8UNORM), .usage = TB}, {.dimension = D(CUBE_ARRAY)}, STEX_VALIDATION_ERROR, "needs a multiple of 6 array layers"},
    {"cube of a non-square texture", {.size = {4, 8, 6}, .format = F(RGBA8UNORM), .usage = TB}, {.dimension = D(CUBE)}, STEX_VALIDATION_ERROR, "needs a square texture, got 4x8"},
};

static void test_views(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof view_cases / sizeof *view_cases; i++) {
        const struct view_case *c = &view_cases[i];
        if (stex_validate_texture(dev, &c->tex) != STEX_OK)
            fail_msg("%s: the texture itself is invalid: %s", c->why, stex_last_error());
        stex_clear_error();
        stex_status st = stex_validate_view(dev, &c->tex, &c->view);
        if (st != c->want || !strstr(stex_last_error(), c->msg)) {
            print_error("%s: want %s \"%s\", got %s \"%s\"\n", c->why, stex_status_name(c->want),
                        c->msg, stex_status_name(st), stex_last_error());
            bad++;
        }
    }
    assert_int_equal(bad, 0);
    stex_texture_desc t = {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST};
    assert_int_equal(stex_validate_view(dev, &t, NULL), STEX_OK);
    assert_int_equal(stex_validate_view(NULL, &t, NULL), STEX_INVALID_ARGUMENT);
    assert_int_equal(stex_validate_view(dev, NULL, NULL), STEX_INVALID_ARGUMENT);
}

/* The aspects of the depth-stencil formats (spec "aspect" of a format:
 * depth24plus-stencil8 and depth32float-stencil8 have both; the CTS's
 * texture,in_pass_encoder subresources_and_binding_types_combination_for_aspect
 * views each aspect of depth32float-stencil8). */
static void test_aspects(void **state)
{
    (void)state;
    stex_adapter *a;
    stex_device *d;
    stex_device_desc dd = {.required_features = STEX_FEATURE_DEPTH32FLOAT_STENCIL8};
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, &dd, &d), STEX_OK);
    static const struct { stex_format f; bool depth, stencil; } fmts[] = {
        {F(DEPTH32FLOAT_STENCIL8), true, true}, {F(DEPTH24PLUS_STENCIL8), true, true},
        {F(DEPTH32FLOAT), true, false}, {F(STENCIL8), false, true}};
    for (size_t i = 0; i < sizeof fmts / sizeof *fmts; i++) {
        stex_texture_desc t = {.size = {4, 4, 1}, .format = fmts[i].f, .usage = TB};
        assert_int_equal(stex_validate_texture(d, &t), STEX_OK);
        stex_view_desc depth = {.aspect = STEX_ASPECT_DEPTH_ONLY};
        stex_view_desc stencil = {.aspect = STEX_ASPECT_STENCIL_ONLY};
        if ((stex_validate_view(d, &t, &depth) == STEX_OK) != fmts[i].depth ||
            (stex_validate_view(d, &t, &stencil) == STEX_OK) != fmts[i].stencil)
            fail_msg("%s: %s", stex_format_name(fmts[i].f), stex_last_error());
    }
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

static const struct bind_case {
    const char *why;
    stex_storage_texture_layout entry;
    stex_texture_desc tex;
    stex_view_desc view;
    stex_status want;
    const char *msg;
} bind_cases[] = {
    {"r32float read-write", {STEX_ACCESS_READ_WRITE, F(R32FLOAT), 0}, {.size = {4, 4, 1}, .format = F(R32FLOAT), .usage = ST}, {0}, STEX_OK, ""},
    {"mip level 1 only", {0, F(RGBA8UNORM), 0}, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .mip_level_count = 2, .usage = ST}, {.base_mip_level = 1, .mip_level_count = 1}, STEX_OK, ""},
    {"2d-array layout, 2d-array view", {0, F(RGBA8UNORM), D(2D_ARRAY)}, {.size = {4, 4, 6}, .format = F(RGBA8UNORM), .usage = ST}, {0}, STEX_OK, ""},
    {"3d layout, 3d view", {0, F(R32FLOAT), D(3D)}, {.dimension = TD(3D), .size = {4, 4, 4}, .format = F(R32FLOAT), .usage = ST}, {0}, STEX_OK, ""},
    {"1d layout, 1d view", {0, F(R32FLOAT), D(1D)}, {.dimension = TD(1D), .size = {4, 1, 1}, .format = F(R32FLOAT), .usage = ST}, {0}, STEX_OK, ""},
    {"format differs", {0, F(RGBA8UNORM), 0}, {.size = {4, 4, 1}, .format = F(RGBA8UINT), .usage = ST}, {0}, STEX_VALIDATION_ERROR, "view format rgba8uint is not the layout's storageTexture.format rgba8unorm"},
    {"no STORAGE_BINDING", {0, F(RGBA8UNORM), 0}, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = TB}, {0}, STEX_VALIDATION_ERROR, "usage TEXTURE_BINDING does not include STORAGE_BINDING"},
    {"view usage without STORAGE_BINDING", {0, F(RGBA8UNORM), 0}, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = TB | ST}, {.usage = TB}, STEX_VALIDATION_ERROR, "does not include STORAGE_BINDING"},
    {"two mip levels", {0, F(RGBA8UNORM), 0}, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .mip_level_count = 2, .usage = ST}, {.mip_level_count = 2}, STEX_VALIDATION_ERROR, "exactly one mip level, got mipLevelCount 2"},
    {"all levels by default", {0, F(RGBA8UNORM), 0}, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .mip_level_count = 3, .usage = ST}, {0}, STEX_VALIDATION_ERROR, "got mipLevelCount 3"},
    {"layout 2d, view 2d-array", {0, F(RGBA8UNORM), 0}, {.size = {4, 4, 2}, .format = F(RGBA8UNORM), .usage = ST}, {.dimension = D(2D_ARRAY)}, STEX_VALIDATION_ERROR, "view dimension 2d-array does not match the layout's storageTexture.viewDimension 2d"},
    {"layout 2d-array, view 2d", {0, F(RGBA8UNORM), D(2D_ARRAY)}, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, {0}, STEX_VALIDATION_ERROR, "view dimension 2d does not match"},
};

static void test_bindings(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof bind_cases / sizeof *bind_cases; i++) {
        const struct bind_case *c = &bind_cases[i];
        if (stex_validate_texture(dev, &c->tex) || stex_validate_view(dev, &c->tex, &c->view) ||
            stex_validate_storage_texture_layout(dev, STEX_STAGE_COMPUTE, &c->entry))
            fail_msg("%s: texture, view or layout invalid: %s", c->why, stex_last_error());
        stex_view_desc v = stex_view_desc_resolve(&c->tex, &c->view);
        stex_clear_error();
        stex_status st = stex_validate_storage_binding(dev, &c->entry, &c->tex, &v);
        if (st != c->want || !strstr(stex_last_error(), c->msg)) {
            print_error("%s: want %s \"%s\", got %s \"%s\"\n", c->why, stex_status_name(c->want),
                        c->msg, stex_status_name(st), stex_last_error());
            bad++;
        }
    }
    assert_int_equal(bad, 0);
    stex_storage_texture_layout e = {0, F(R32FLOAT), 0};
    assert_int_equal(stex_validate_storage_binding(dev, &e, NULL, NULL), STEX_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_bindings),
        cmocka_unit_test(test_aspects),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
