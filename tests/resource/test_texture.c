/* Textures and views: store/load round trips for every dimension, size and
 * storage format against the converter; bytes land at the layout's offset;
 * out-of-bounds stores are discarded; mip levels and layers are separate. */
#include "rtest.h"

typedef struct dim_case {
    stex_texture_dimension dim;
    stex_view_dimension view;
    uint32_t layers;
    const char *name;
} dim_case;

static const dim_case dims[] = {
    {STEX_TEXTURE_DIMENSION_1D, STEX_VIEW_DIMENSION_1D, 1, "1d"},
    {STEX_TEXTURE_DIMENSION_2D, STEX_VIEW_DIMENSION_2D, 1, "2d"},
    {STEX_TEXTURE_DIMENSION_2D, STEX_VIEW_DIMENSION_2D_ARRAY, 3, "2d-array"},
    {STEX_TEXTURE_DIMENSION_3D, STEX_VIEW_DIMENSION_3D, 3, "3d"},
};
static const uint32_t sizes[][2] = {{1, 1}, {7, 3}, {13, 7}, {64, 64}, {1000, 3}, {8192, 1}};

static uint32_t mix(uint32_t v)
{
    v ^= v >> 16;
    v *= 0x7feb352du;
    v ^= v >> 15;
    v *= 0x846ca68bu;
    return v ^ (v >> 16);
}

/* A value of the format's WGSL type for texel number k. */
static stex_vec4 value_for(const stex_format_info *fi, uint32_t k)
{
    stex_vec4 v;
    for (int c = 0; c < 4; c++) {
        uint32_t r = mix(k * 4u + (uint32_t)c + 1u);
        if (fi->scalar == STEX_SCALAR_F32)
            v.f[c] = (float)((int32_t)(r % 8001u) - 4000) / 1000.0f; /* [-4, 4] */
        else
            v.u[c] = r;
    }
    return v;
}

static void run_case(stex_device *dev, const dim_case *dc, uint32_t w, uint32_t h,
                     const stex_format_info *fi, const stex_profile *prof)
{
    if (dc->dim == STEX_TEXTURE_DIMENSION_1D)
        h = 1;
    stex_texture_desc td = {.dimension = dc->dim, .size = {w, h, dc->layers}, .format = fi->format,
                            .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC};
    stex_texture *t = NULL;
    stex_status st = stex_texture_create(dev, &td, &t);
    if (dc->dim == STEX_TEXTURE_DIMENSION_3D && w > 2048) {
        /* maxTextureDimension3D is 2048: refused by the device's validation */
        assert_int_equal(st, STEX_VALIDATION_ERROR);
        return;
    }
    if (st)
        fail_msg("%s %s %ux%u: createTexture: %s", dc->name, fi->name, w, h, stex_last_error());
    stex_view_desc vd = {.dimension = dc->view};
    stex_texture_view *v = NULL;
    RTEST_CHECK_OK(stex_texture_create_view(t, &vd, &v));
    stex_extent3d e = stex_view_dimensions(v);
    uint32_t depth = dc->view == STEX_VIEW_DIMENSION_2D_ARRAY ? stex_view_num_layers(v) : e.depth_or_array_layers;
    assert_int_equal(e.width, w);
    assert_int_equal(e.height, h);
    assert_int_equal(depth, dc->layers);
    /* store every texel, then check all of them (a later store must not
     * clobber an earlier one) */
    for (uint32_t z = 0, k = 0; z < depth; z++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++, k++) {
                stex_vec4 val = value_for(fi, k);
                if (!stex_view_store(v, prof, x, y, z, &val))
                    fail_msg("%s %s %ux%u: store at (%u,%u,%u) refused", dc->name, fi->name, w, h, x, y, z);
            }
    uint8_t *mem = stex_texture_memory(t);
    for (uint32_t z = 0, k = 0; z < depth; z++)
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++, k++) {
                stex_vec4 val = value_for(fi, k), want, got;
                uint8_t bytes[16];
                RTEST_CHECK_OK(stex_encode_texel(prof, fi->format, &val, bytes));
                RTEST_CHECK_OK(stex_decode_texel(prof, fi->format, bytes, &want));
                size_t off = stex_texture_texel_offset(t, 0, x, y, z);
                assert_true(off != SIZE_MAX);
                if (memcmp(mem + off, bytes, fi->bytes))
                    fail_msg("%s %s %ux%u (%u,%u,%u) profile %s: memory at %zu differs from the encoded bytes",
                             dc->name, fi->name, w, h, x, y, z, stex_profile_name(stex_profile_id_of(prof)), off);
                assert_ptr_equal(stex_view_texel(v, x, y, z), mem + off);
                assert_true(stex_view_load(v, prof, x, y, z, &got));
                if (memcmp(&want, &got, sizeof got))
                    fail_msg("%s %s %ux%u (%u,%u,%u): load %08x %08x %08x %08x, expected %08x %08x %08x %08x",
                             dc->name, fi->name, w, h, x, y, z, got.u[0], got.u[1], got.u[2], got.u[3],
                             want.u[0], want.u[1], want.u[2], want.u[3]);
            }
    /* out of bounds: refused, memory untouched */
    size_t size = stex_texture_memory_size(t);
    uint8_t *before = malloc(size);
    memcpy(before, mem, size);
    const int64_t oob[][3] = {{-1, 0, 0}, {0, -1, 0}, {0, 0, -1}, {w, 0, 0}, {0, h, 0}, {0, 0, depth},
                              {INT64_MIN, 0, 0}, {(int64_t)UINT32_MAX + 1, 0, 0}, {4294967295LL, 0, 0}};
    for (size_t i = 0; i < sizeof oob / sizeof *oob; i++) {
        stex_vec4 val = value_for(fi, 7), got;
        assert_false(stex_view_store(v, prof, oob[i][0], oob[i][1], oob[i][2], &val));
        assert_false(stex_view_load(v, prof, oob[i][0], oob[i][1], oob[i][2], &got));
        assert_null(stex_view_texel(v, oob[i][0], oob[i][1], oob[i][2]));
    }
    assert_memory_equal(before, mem, size);
    assert_true(stex_texture_texel_offset(t, 0, w, 0, 0) == SIZE_MAX);
    assert_true(stex_texture_texel_offset(t, 1, 0, 0, 0) == SIZE_MAX);
    free(before);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
}

static void test_round_trips(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    uint32_t features = stex_device_features(dev);
    size_t n = 0;
    for (int f = 1; f < STEX_FORMAT_COUNT; f++) {
        if (!stex_format_supports_storage((stex_format)f, features))
            continue;
        const stex_format_info *fi = stex_format_get((stex_format)f);
        for (size_t d = 0; d < sizeof dims / sizeof *dims; d++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                /* alternate profiles: the device's, then lavapipe's explicitly */
                const stex_profile *p = (n++ % 2) ? stex_profile_get(STEX_PROFILE_LAVAPIPE) : NULL;
                run_case(dev, &dims[d], sizes[s][0], sizes[s][1], fi, p ? p : stex_device_profile(dev));
            }
    }
    assert_true(n >= 17 * 4 * 6); /* at least the core formats + bgra8unorm */
    rtest_release(dev);
}

/* Mip levels and layers are separate memory; a view sees only its own. */
static void test_levels_and_layers(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_texture_desc td = {.size = {37, 11, 5}, .format = STEX_FORMAT_R32UINT, .mip_level_count = 3,
                            .usage = STEX_USAGE_STORAGE_BINDING};
    stex_texture *t;
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &t));
    stex_extent3d m1 = stex_texture_mip_size(t, 1), m2 = stex_texture_mip_size(t, 2);
    assert_int_equal(m1.width, 18);
    assert_int_equal(m1.height, 5);
    assert_int_equal(m1.depth_or_array_layers, 5);
    assert_int_equal(m2.width, 9);
    assert_int_equal(m2.height, 2);
    /* views: level 1, layers 2..3 */
    stex_view_desc vd = {.dimension = STEX_VIEW_DIMENSION_2D_ARRAY, .base_mip_level = 1, .mip_level_count = 1,
                         .base_array_layer = 2, .array_layer_count = 2};
    stex_texture_view *v;
    RTEST_CHECK_OK(stex_texture_create_view(t, &vd, &v));
    stex_extent3d e = stex_view_dimensions(v);
    assert_int_equal(e.width, 18);
    assert_int_equal(e.height, 5);
    assert_int_equal(stex_view_num_layers(v), 2);
    stex_vec4 val = {.u = {0xabcdef01u, 0, 0, 0}};
    assert_true(stex_view_store(v, NULL, 17, 4, 1, &val));
    assert_false(stex_view_store(v, NULL, 0, 0, 2, &val)); /* layer 4 of the texture, outside the view */
    /* exactly one word of the whole memory is non-zero: level 1, layer 3, (17, 4) */
    uint8_t *mem = stex_texture_memory(t);
    size_t off = stex_texture_texel_offset(t, 1, 17, 4, 3);
    for (size_t i = 0; i < stex_texture_memory_size(t); i += 4) {
        uint32_t word;
        memcpy(&word, mem + i, 4);
        assert_int_equal(word, i == off ? 0xabcdef01u : 0);
    }
    stex_view_access a;
    stex_view_get_access(v, &a);
    assert_ptr_equal(stex_view_access_texel(&a, 17, 4, 1), mem + off);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(dev);
}

/* Creation goes through the device's validation. */
static void test_validation(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_texture *t = (stex_texture *)&t;
    stex_texture_desc bad = {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM_SRGB,
                             .usage = STEX_USAGE_STORAGE_BINDING};
    assert_int_equal(stex_texture_create(dev, &bad, &t), STEX_VALIDATION_ERROR);
    assert_null(t);
    assert_true(strstr(stex_last_error(), "rgba8unorm-srgb") != NULL);
    stex_texture_desc ok = {.size = {4, 4, 2}, .format = STEX_FORMAT_RGBA8UNORM, .usage = STEX_USAGE_STORAGE_BINDING};
    RTEST_CHECK_OK(stex_texture_create(dev, &ok, &t));
    stex_texture_view *v = NULL;
    stex_view_desc vd = {.dimension = STEX_VIEW_DIMENSION_2D_ARRAY, .base_array_layer = 2};
    assert_int_not_equal(stex_texture_create_view(t, &vd, &v), STEX_OK); /* layer range beyond the texture */
    assert_null(v);
    stex_texture_destroy(t);
    rtest_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_levels_and_layers),
        cmocka_unit_test(test_validation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
