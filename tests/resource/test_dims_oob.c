/* conformance/lavapipe dims.json and oob.json replayed at the view level:
 * textureDimensions / textureNumLayers of each view, and which stores land
 * (control coordinates) or are discarded (out of bounds, memory untouched).
 * The shader-level replay of the same files is the shader layer's. */
#include <jansson.h>

#include "rtest.h"

static json_t *load_json(const char *name)
{
    json_error_t err;
    json_t *j = json_load_file(rtest_data(name), 0, &err);
    if (!j)
        fail_msg("%s: %s (line %d)", rtest_data(name), err.text, err.line);
    return j;
}

static stex_texture_dimension dim_of(const char *wgsl)
{
    if (strstr(wgsl, "_1d"))
        return STEX_TEXTURE_DIMENSION_1D;
    if (strstr(wgsl, "_3d"))
        return STEX_TEXTURE_DIMENSION_3D;
    return STEX_TEXTURE_DIMENSION_2D;
}

static uint32_t get_u32(json_t *obj, const char *key, uint32_t dflt)
{
    json_t *v = json_object_get(obj, key);
    return json_is_integer(v) ? (uint32_t)json_integer_value(v) : dflt;
}

static void test_dims(void **state)
{
    (void)state;
    json_t *root = load_json("lavapipe-dims.json");
    stex_device *dev = rtest_device(STEX_PROFILE_LAVAPIPE);
    json_t *cases = json_object_get(root, "cases");
    assert_true(json_array_size(cases) >= 27);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c) {
        const char *name = json_string_value(json_object_get(c, "case"));
        const char *wgsl = json_string_value(json_object_get(c, "wgsl"));
        json_t *size = json_object_get(c, "texture_size"), *view = json_object_get(c, "view");
        json_t *expect = json_object_get(c, "expected");
        assert_true(json_is_true(json_object_get(c, "match"))); /* the device agreed with the expectation */
        stex_texture_desc td = {.dimension = dim_of(wgsl), .format = STEX_FORMAT_R32FLOAT,
                                .usage = STEX_USAGE_STORAGE_BINDING};
        td.size.width = (uint32_t)json_integer_value(json_array_get(size, 0));
        td.size.height = json_array_size(size) > 1 ? (uint32_t)json_integer_value(json_array_get(size, 1)) : 1;
        td.size.depth_or_array_layers = json_array_size(size) > 2 ? (uint32_t)json_integer_value(json_array_get(size, 2)) : 1;
        stex_view_desc vd = {0};
        vd.base_mip_level = get_u32(view, "baseMipLevel", 0);
        vd.mip_level_count = get_u32(view, "mipLevelCount", 0);
        vd.base_array_layer = get_u32(view, "baseArrayLayer", 0);
        vd.array_layer_count = get_u32(view, "arrayLayerCount", 0);
        const char *vdim = json_string_value(json_object_get(view, "dimension"));
        if (vdim)
            assert_true(stex_view_dimension_from_name(vdim, &vd.dimension));
        td.mip_level_count = vd.base_mip_level + 1; /* the least the case needs */
        stex_texture *t;
        stex_texture_view *v;
        RTEST_CHECK_OK(stex_texture_create(dev, &td, &t));
        RTEST_CHECK_OK(stex_texture_create_view(t, &vd, &v));
        stex_extent3d e = stex_view_dimensions(v);
        uint32_t got[3] = {e.width, e.height, 0};
        if (strstr(wgsl, "_array"))
            got[2] = stex_view_num_layers(v);
        else if (strstr(wgsl, "_3d"))
            got[2] = e.depth_or_array_layers;
        for (size_t k = 0; k < json_array_size(expect); k++) {
            uint32_t want = (uint32_t)json_integer_value(json_array_get(expect, k));
            if (got[k] != want)
                fail_msg("dims.json \"%s\" (%s): component %zu is %u, lavapipe returned %u", name, wgsl, k,
                         got[k], want);
        }
        /* components a WGSL type lacks are 1 */
        if (json_array_size(expect) < 2)
            assert_int_equal(e.height, 1);
        if (!strstr(wgsl, "_3d"))
            assert_int_equal(e.depth_or_array_layers, 1);
        stex_texture_view_destroy(v);
        stex_texture_destroy(t);
    }
    rtest_release(dev);
    json_decref(root);
}

static void coords_of(json_t *arr, int64_t c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (size_t k = 0; k < json_array_size(arr) && k < 3; k++)
        c[k] = (int64_t)json_integer_value(json_array_get(arr, k));
}

/* "vec4<u32>(0xdeadbeefu, 0u, 0u, 0u)" or "vec4<f32>(1.0, ...)" */
static stex_vec4 parse_value(const char *s)
{
    stex_vec4 v = {{0}};
    bool is_f = strstr(s, "<f32>") != NULL;
    const char *p = strchr(s, '(');
    for (int k = 0; k < 4 && p; k++) {
        p++;
        if (is_f)
            v.f[k] = strtof(p, NULL);
        else
            v.u[k] = (uint32_t)strtoul(p, NULL, 0);
        p = strchr(p, ',');
    }
    return v;
}

static void make(stex_device *dev, json_t *group, const char *sizekey, stex_texture **t, stex_texture_view **v,
                 stex_format *fmt)
{
    const char *name = json_string_value(json_object_get(group, "name"));
    *fmt = stex_format_from_name(json_string_value(json_object_get(group, "format")));
    assert_int_not_equal(*fmt, STEX_FORMAT_UNDEFINED);
    json_t *size = json_object_get(group, sizekey);
    stex_texture_desc td = {.format = *fmt, .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_TEXTURE_BINDING};
    td.size.width = (uint32_t)json_integer_value(json_array_get(size, 0));
    td.size.height = json_array_size(size) > 1 ? (uint32_t)json_integer_value(json_array_get(size, 1)) : 1;
    td.size.depth_or_array_layers = json_array_size(size) > 2 ? (uint32_t)json_integer_value(json_array_get(size, 2)) : 1;
    stex_view_desc vd = {0};
    if (strstr(name, "1d")) {
        td.dimension = STEX_TEXTURE_DIMENSION_1D;
    } else if (strstr(name, "3d")) {
        td.dimension = STEX_TEXTURE_DIMENSION_3D;
    } else if (strstr(name, "2d-array")) {
        vd.dimension = STEX_VIEW_DIMENSION_2D_ARRAY;
    }
    if (strstr(name, "sampled"))
        td.usage = STEX_USAGE_TEXTURE_BINDING;
    RTEST_CHECK_OK(stex_texture_create(dev, &td, t));
    RTEST_CHECK_OK(stex_texture_create_view(*t, &vd, v));
    /* prefill: texel t = x + W * (y + H * layer) gets 0x01000000 + t in every word */
    const stex_format_info *fi = stex_format_get(*fmt);
    for (uint32_t z = 0; z < td.size.depth_or_array_layers; z++)
        for (uint32_t y = 0; y < td.size.height; y++)
            for (uint32_t x = 0; x < td.size.width; x++) {
                uint32_t word = 0x01000000u + x + td.size.width * (y + td.size.height * z);
                uint8_t *p = stex_texture_memory(*t) + stex_texture_texel_offset(*t, 0, x, y, z);
                for (uint32_t b = 0; b < fi->bytes; b += 4)
                    memcpy(p + b, &word, fi->bytes < 4 ? fi->bytes : 4);
            }
}

static void test_oob_stores(void **state)
{
    (void)state;
    json_t *root = load_json("lavapipe-oob.json");
    stex_device *dev = rtest_device(STEX_PROFILE_LAVAPIPE);
    size_t gi, ci, n = 0;
    json_t *g, *c;
    json_array_foreach(json_object_get(root, "store"), gi, g) {
        const char *name = json_string_value(json_object_get(g, "name"));
        stex_vec4 value = parse_value(json_string_value(json_object_get(g, "wgsl_value")));
        json_array_foreach(json_object_get(g, "cases"), ci, c) {
            stex_texture *t;
            stex_texture_view *v;
            stex_format fmt;
            make(dev, g, "texture", &t, &v, &fmt);
            size_t size = stex_texture_memory_size(t);
            uint8_t *before = malloc(size);
            memcpy(before, stex_texture_memory(t), size);
            int64_t xyz[3];
            coords_of(json_object_get(c, "coord"), xyz);
            bool control = json_is_true(json_object_get(c, "control"));
            bool stored = stex_view_store(v, NULL, xyz[0], xyz[1], xyz[2], &value);
            if (stored != control)
                fail_msg("oob.json \"%s\" coord (%lld, %lld, %lld): store %s, lavapipe %s", name, (long long)xyz[0],
                         (long long)xyz[1], (long long)xyz[2], stored ? "landed" : "discarded",
                         control ? "stored" : "discarded it");
            json_t *changed = json_object_get(c, "changed");
            /* compare with the device: which texel changed, and to what bytes */
            if (json_array_size(changed) == 1) {
                int64_t txyz[3];
                coords_of(json_object_get(json_array_get(changed, 0), "texel"), txyz);
                size_t off = stex_texture_texel_offset(t, 0, (uint32_t)txyz[0], (uint32_t)txyz[1], (uint32_t)txyz[2]);
                const char *after = json_string_value(json_object_get(json_array_get(changed, 0), "after"));
                uint32_t bpp = stex_format_get(fmt)->bytes;
                for (uint32_t b = 0; b < bpp; b++) {
                    unsigned byte;
                    sscanf(after + 2 * b, "%2x", &byte);
                    assert_int_equal(stex_texture_memory(t)[off + b], byte);
                    stex_texture_memory(t)[off + b] = before[off + b];
                }
            } else {
                assert_true(json_is_true(json_object_get(c, "unchanged")));
            }
            assert_memory_equal(before, stex_texture_memory(t), size); /* nothing else moved */
            free(before);
            stex_texture_view_destroy(v);
            stex_texture_destroy(t);
            n++;
        }
    }
    assert_true(n >= 90);
    rtest_release(dev);
    json_decref(root);
}

static void test_oob_loads(void **state)
{
    (void)state;
    json_t *root = load_json("lavapipe-oob.json");
    stex_device *dev = rtest_device(STEX_PROFILE_LAVAPIPE);
    size_t gi, ci;
    json_t *g, *c;
    json_array_foreach(json_object_get(root, "load"), gi, g) {
        const char *name = json_string_value(json_object_get(g, "name"));
        const char *call = json_string_value(json_object_get(g, "call"));
        stex_texture *t;
        stex_texture_view *v;
        stex_format fmt;
        make(dev, g, "size", &t, &v, &fmt);
        bool sampled = strstr(name, "sampled") != NULL, level_arg = strstr(call, "p.z)") && sampled;
        uint32_t w = stex_view_dimensions(v).width, h = stex_view_dimensions(v).height;
        json_array_foreach(json_object_get(g, "cases"), ci, c) {
            int64_t xyz[3];
            coords_of(json_object_get(c, "coord"), xyz);
            bool control = json_is_true(json_object_get(c, "control"));
            stex_vec4 out;
            bool ok = sampled ? stex_view_load_level(v, NULL, xyz[0], xyz[1], 0, level_arg ? xyz[2] : 0, &out)
                              : stex_view_load(v, NULL, xyz[0], xyz[1], xyz[2], &out);
            if (ok != control)
                fail_msg("oob.json \"%s\" coord (%lld, %lld, %lld): load %s, lavapipe %s", name, (long long)xyz[0],
                         (long long)xyz[1], (long long)xyz[2], ok ? "in bounds" : "out of bounds",
                         control ? "read the texel" : "returned the zero texel");
            if (control && fmt == STEX_FORMAT_R32UINT) {
                /* the prefill is the same as the device's: 0x01000000 + t */
                uint32_t tix = (uint32_t)(xyz[0] + w * (xyz[1] + h * xyz[2]));
                const char *bits = json_string_value(json_array_get(json_object_get(c, "value_bits"), 0));
                assert_int_equal(out.u[0], 0x01000000u + tix);
                assert_int_equal(out.u[0], (uint32_t)strtoul(bits, NULL, 16));
            }
        }
        stex_texture_view_destroy(v);
        stex_texture_destroy(t);
    }
    rtest_release(dev);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dims),
        cmocka_unit_test(test_oob_stores),
        cmocka_unit_test(test_oob_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
