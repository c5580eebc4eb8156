/* textureDimensions / textureNumLayers through a kernel, replayed from the
 * lavapipe measurements (tests/data/lavapipe-dims.json, peer/tests/dims.mjs):
 * whole textures, mip-level views, layer ranges, every access mode. */
#include <jansson.h>

#include "../dispatch/dtest.h"

static void dims_kernel(const stex_invocation *inv)
{
    const stex_view_dimension *dim = inv->params;
    uint32_t out[3] = {0, 0, 0};
    switch (*dim) {
    case STEX_VIEW_DIMENSION_1D:
        out[0] = stex_textureDimensions_1d(inv, 0);
        break;
    case STEX_VIEW_DIMENSION_2D: {
        stex_uvec2 s = stex_textureDimensions_2d(inv, 0);
        out[0] = s.x;
        out[1] = s.y;
        break;
    }
    case STEX_VIEW_DIMENSION_2D_ARRAY: {
        stex_uvec2 s = stex_textureDimensions_2d(inv, 0);
        out[0] = s.x;
        out[1] = s.y;
        out[2] = stex_textureNumLayers(inv, 0);
        break;
    }
    default: {
        stex_uvec3 s = stex_textureDimensions_3d(inv, 0);
        out[0] = s.x;
        out[1] = s.y;
        out[2] = s.z;
    }
    }
    for (uint64_t i = 0; i < 3; i++)
        stex_buffer_store_u32(inv, 1, i, out[i]);
}

static uint32_t geti(json_t *o, const char *k, uint32_t dflt)
{
    json_t *v = json_object_get(o, k);
    return v ? (uint32_t)json_integer_value(v) : dflt;
}

static void test_dims_match_lavapipe(void **state)
{
    (void)state;
    json_error_t err;
    json_t *root = json_load_file(dt_data("lavapipe-dims.json"), 0, &err);
    if (!root)
        fail_msg("lavapipe-dims.json: %s", err.text);
    stex_device *dev = dt_device();
    size_t i, n = 0;
    json_t *c;
    json_array_foreach(json_object_get(root, "cases"), i, c) {
        const char *wgsl = json_string_value(json_object_get(c, "wgsl"));
        json_t *size = json_object_get(c, "texture_size"), *view = json_object_get(c, "view");
        stex_access a;
        assert_true(stex_access_from_name(json_string_value(json_object_get(c, "access")), &a));
        stex_view_dimension vdim = strstr(wgsl, "_1d<") ? STEX_VIEW_DIMENSION_1D
                                   : strstr(wgsl, "_3d<") ? STEX_VIEW_DIMENSION_3D
                                   : strstr(wgsl, "_2d_array<") ? STEX_VIEW_DIMENSION_2D_ARRAY
                                                                : STEX_VIEW_DIMENSION_2D;
        stex_texture_dimension tdim = vdim == STEX_VIEW_DIMENSION_1D ? STEX_TEXTURE_DIMENSION_1D
                                      : vdim == STEX_VIEW_DIMENSION_3D ? STEX_TEXTURE_DIMENSION_3D
                                                                      : STEX_TEXTURE_DIMENSION_2D;
        uint32_t w = (uint32_t)json_integer_value(json_array_get(size, 0));
        uint32_t h = json_array_size(size) > 1 ? (uint32_t)json_integer_value(json_array_get(size, 1)) : 1;
        uint32_t d = json_array_size(size) > 2 ? (uint32_t)json_integer_value(json_array_get(size, 2)) : 1;
        uint32_t base_mip = geti(view, "baseMipLevel", 0);
        stex_texture *t = dt_texture(dev, tdim, w, h, d, STEX_FORMAT_R32FLOAT, base_mip + 1);
        stex_view_desc vd = {.dimension = json_object_get(view, "dimension") ? vdim
                                                                             : STEX_VIEW_DIMENSION_UNDEFINED,
                             .base_mip_level = base_mip, .mip_level_count = 1,
                             .base_array_layer = geti(view, "baseArrayLayer", 0),
                             .array_layer_count = geti(view, "arrayLayerCount", 0)};
        stex_texture_view *v = dt_view(t, &vd);
        stex_buffer *out = dt_buffer(dev, 16, STEX_BUFFER_USAGE_STORAGE);
        stex_layout_entry e[2] = {dt_storage_entry(0, a, STEX_FORMAT_R32FLOAT, vdim),
                                  dt_buffer_entry(1, STEX_BINDING_STORAGE_BUFFER)};
        stex_pipeline_desc pd = {.kernel = dims_kernel, .entries = e, .entry_count = 2};
        stex_pipeline *p;
        DT_OK(stex_pipeline_create(dev, &pd, &p));
        stex_bind_group *g;
        stex_bind_group_entry be[2] = {{.binding = 0, .view = v}, {.binding = 1, .buffer = out}};
        DT_OK(stex_bind_group_create(p, be, 2, &g));
        stex_dispatch_options o = {.params = &vdim};
        DT_OK(stex_dispatch(p, g, 1, 1, 1, &o));
        const uint32_t *got = (const uint32_t *)stex_buffer_data(out);
        json_t *want = json_object_get(c, "expected");
        assert_true(json_equal(want, json_object_get(c, "got"))); /* the device agreed */
        for (size_t k = 0; k < json_array_size(want); k++)
            if (got[k] != (uint32_t)json_integer_value(json_array_get(want, k)))
                fail_msg("%s (%s, view %s): component %zu is %u, lavapipe %u",
                         json_string_value(json_object_get(c, "case")), wgsl,
                         json_dumps(view, JSON_COMPACT), k, got[k],
                         (uint32_t)json_integer_value(json_array_get(want, k)));
        stex_bind_group_destroy(g);
        stex_pipeline_destroy(p);
        stex_buffer_destroy(out);
        stex_texture_view_destroy(v);
        stex_texture_destroy(t);
        n++;
    }
    assert_int_equal(n, 27);
    dt_release(dev);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_dims_match_lavapipe)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
