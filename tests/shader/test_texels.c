/* Every texel a kernel stores lands where the layout layer says it lives
 * (stex_view_texel), and every texel a kernel loads is the one C's layout
 * holds - over 1d, 2d, 2d-array layer ranges, 3d and mip views, macro-tiled
 * and small textures.  This guards the engine's split form of the tiled
 * address (docs/engine.md). */
#include "../dispatch/dtest.h"

typedef struct tex_case {
    const char *name;
    stex_texture_dimension tdim;
    stex_view_dimension vdim;
    uint32_t w, h, d, mips;
    stex_format format;
    stex_view_desc view;
} tex_case;

static const tex_case cases[] = {
    {"2d 37x11 rgba8uint", STEX_TEXTURE_DIMENSION_2D, STEX_VIEW_DIMENSION_2D, 37, 11, 1, 1,
     STEX_FORMAT_RGBA8UINT, {0}},
    {"2d 300x200 r32uint (macro-tiles)", STEX_TEXTURE_DIMENSION_2D, STEX_VIEW_DIMENSION_2D, 300, 200,
     1, 1, STEX_FORMAT_R32UINT, {0}},
    {"2d 1000x3 rgba32uint", STEX_TEXTURE_DIMENSION_2D, STEX_VIEW_DIMENSION_2D, 1000, 3, 1, 1,
     STEX_FORMAT_RGBA32UINT, {0}},
    {"2d-array 13x7x4, layers 1..3, rgba16uint", STEX_TEXTURE_DIMENSION_2D,
     STEX_VIEW_DIMENSION_2D_ARRAY, 13, 7, 4, 1, STEX_FORMAT_RGBA16UINT,
     {.dimension = STEX_VIEW_DIMENSION_2D_ARRAY, .base_array_layer = 1, .array_layer_count = 3}},
    {"2d view of layer 2 of 3", STEX_TEXTURE_DIMENSION_2D, STEX_VIEW_DIMENSION_2D, 21, 9, 3, 1,
     STEX_FORMAT_RGBA32SINT, {.dimension = STEX_VIEW_DIMENSION_2D, .base_array_layer = 2,
                             .array_layer_count = 1}},
    {"3d 9x7x5 mip 1", STEX_TEXTURE_DIMENSION_3D, STEX_VIEW_DIMENSION_3D, 9, 7, 5, 2,
     STEX_FORMAT_R32UINT, {.base_mip_level = 1, .mip_level_count = 1}},
    {"3d 40x30x6", STEX_TEXTURE_DIMENSION_3D, STEX_VIEW_DIMENSION_3D, 40, 30, 6, 1,
     STEX_FORMAT_R32SINT, {0}},
    {"1d 37 r32uint", STEX_TEXTURE_DIMENSION_1D, STEX_VIEW_DIMENSION_1D, 37, 1, 1, 1,
     STEX_FORMAT_R32UINT, {0}},
    {"2d 64x64 mip 2 r8uint", STEX_TEXTURE_DIMENSION_2D, STEX_VIEW_DIMENSION_2D, 64, 64, 1, 3,
     STEX_FORMAT_R8UINT, {.base_mip_level = 2, .mip_level_count = 1}},
};

typedef struct kp {
    stex_view_dimension dim;
    stex_scalar_type scalar;
    bool store;
    uint32_t w, h, d;
} kp;

static stex_value value_at(const kp *p, uint32_t x, uint32_t y, uint32_t z)
{
    uint32_t t = x + p->w * (y + p->h * z) + 1;
    stex_value v = {p->scalar, {.u = {t & 0xff, (t >> 8) & 0xff, t, x ^ y ^ z}}};
    return v;
}

/* store: each invocation stores its value; load: loads its texel into buffer binding 1 */
static void texel_kernel(const stex_invocation *inv)
{
    const kp *p = inv->params;
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1],
             z = inv->global_invocation_id[2];
    if (x >= p->w || y >= p->h || z >= p->d)
        return;
    if (p->store) {
        stex_value v = value_at(p, x, y, z);
        switch (p->dim) {
        case STEX_VIEW_DIMENSION_1D: stex_textureStore_1d(inv, 0, x, v); break;
        case STEX_VIEW_DIMENSION_2D: stex_textureStore_2d(inv, 0, x, y, v); break;
        case STEX_VIEW_DIMENSION_2D_ARRAY: stex_textureStore_2d_array(inv, 0, x, y, z, v); break;
        default: stex_textureStore_3d(inv, 0, x, y, z, v);
        }
        return;
    }
    stex_value v;
    switch (p->dim) {
    case STEX_VIEW_DIMENSION_1D: v = stex_textureLoad_1d(inv, 0, x); break;
    case STEX_VIEW_DIMENSION_2D: v = stex_textureLoad_2d(inv, 0, x, y); break;
    case STEX_VIEW_DIMENSION_2D_ARRAY: v = stex_textureLoad_2d_array(inv, 0, x, y, z); break;
    default: v = stex_textureLoad_3d(inv, 0, x, y, z);
    }
    stex_buffer_store_vec4(inv, 1, x + p->w * (y + (uint64_t)p->h * z), v.v);
}

static void test_every_texel(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    const stex_profile *prof = stex_device_profile(dev);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tex_case *c = &cases[i];
        stex_texture *t = dt_texture(dev, c->tdim, c->w, c->h, c->d, c->format, c->mips);
        stex_texture_view *v = dt_view(t, &c->view);
        stex_extent3d ext = stex_view_dimensions(v);
        kp p = {c->vdim, stex_format_get(c->format)->scalar, true, ext.width,
                c->vdim == STEX_VIEW_DIMENSION_1D ? 1 : ext.height,
                c->vdim == STEX_VIEW_DIMENSION_3D ? ext.depth_or_array_layers
                : c->vdim == STEX_VIEW_DIMENSION_2D_ARRAY ? stex_view_num_layers(v) : 1};
        uint64_t n = (uint64_t)p.w * p.h * p.d;
        stex_buffer *out = dt_buffer(dev, n * 16, STEX_BUFFER_USAGE_STORAGE);
        stex_layout_entry e[2] = {dt_storage_entry(0, STEX_ACCESS_READ_WRITE, c->format, c->vdim),
                                  dt_buffer_entry(1, STEX_BINDING_STORAGE_BUFFER)};
        stex_pipeline_desc pd = {.kernel = texel_kernel, .workgroup_size = {8, 8, 1}, .entries = e,
                                 .entry_count = 2};
        stex_pipeline *pl;
        stex_bind_group *g;
        DT_OK(stex_pipeline_create(dev, &pd, &pl));
        stex_bind_group_entry be[2] = {{.binding = 0, .view = v}, {.binding = 1, .buffer = out}};
        DT_OK(stex_bind_group_create(pl, be, 2, &g));
        stex_dispatch_options o = {.params = &p, .schedule = STEX_SCHEDULE_SHUFFLED, .seed = 1};
        DT_OK(stex_dispatch(pl, g, (p.w + 7) / 8, (p.h + 7) / 8, p.d, &o));
        const uint32_t bpp = stex_format_get(c->format)->bytes;
        for (uint32_t z = 0; z < p.d; z++)
            for (uint32_t y = 0; y < p.h; y++)
                for (uint32_t x = 0; x < p.w; x++) {
                    stex_value want = value_at(&p, x, y, z);
                    uint8_t bytes[16];
                    DT_OK(stex_encode_texel(prof, c->format, &want.v, bytes));
                    const uint8_t *at = stex_view_texel(v, x, y, z);
                    if (!at || memcmp(at, bytes, bpp))
                        fail_msg("%s: textureStore at (%u, %u, %u) is not where stex_view_texel "
                                 "says", c->name, x, y, z);
                }
        /* now C writes other values, and the kernel reads them back */
        for (uint32_t z = 0; z < p.d; z++)
            for (uint32_t y = 0; y < p.h; y++)
                for (uint32_t x = 0; x < p.w; x++) {
                    stex_value w = value_at(&p, (x * 7 + 3) % p.w, y, z);
                    assert_true(stex_view_store(v, NULL, x, y, z, &w.v));
                }
        p.store = false;
        DT_OK(stex_dispatch(pl, g, (p.w + 7) / 8, (p.h + 7) / 8, p.d, &o));
        const stex_vec4 *got = (const stex_vec4 *)stex_buffer_data(out);
        for (uint32_t z = 0; z < p.d; z++)
            for (uint32_t y = 0; y < p.h; y++)
                for (uint32_t x = 0; x < p.w; x++) {
                    stex_vec4 want;
                    assert_true(stex_view_load(v, NULL, x, y, z, &want));
                    if (memcmp(&got[x + p.w * (y + (uint64_t)p.h * z)], &want, 16))
                        fail_msg("%s: textureLoad at (%u, %u, %u) read another texel than "
                                 "stex_view_load", c->name, x, y, z);
                }
        stex_bind_group_destroy(g);
        stex_pipeline_destroy(pl);
        stex_buffer_destroy(out);
        stex_texture_view_destroy(v);
        stex_texture_destroy(t);
    }
    dt_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_texel)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
