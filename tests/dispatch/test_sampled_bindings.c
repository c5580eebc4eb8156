/*
 * Texture and sampler bindings against WebGPU's rules:
 * - GPUTextureBindingLayout: a multisampled entry is 2d and never "float";
 * - createBindGroup: the view's dimension, sample count and format (and
 *   aspect) must fit the entry's viewDimension, multisampled and sampleType
 *   (the texture format capabilities tables; r32float is filterable only
 *   with float32-filterable); a sampler fits its GPUSamplerBindingType;
 * - the builtins a C kernel calls on them: textureLoad's out-of-bounds
 *   policies, textureDimensions with a level, textureNumLevels,
 *   textureNumSamples, textureNumLayers of a cube array.
 */
#include <math.h>

#include "dtest.h"

static void nop(const stex_invocation *inv) { (void)inv; }

static stex_device *device_with(uint32_t features)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    stex_adapter *a = NULL;
    stex_device *d = NULL;
    DT_OK(stex_adapter_create(&ad, &a));
    stex_device_desc dd = {.required_features = features};
    DT_OK(stex_device_create(a, &dd, &d));
    for (size_t i = 0; i < sizeof dt_adapters_ / sizeof dt_adapters_[0]; i++)
        if (!dt_adapters_[i].d) {
            dt_adapters_[i].d = d;
            dt_adapters_[i].a = a;
            break;
        }
    return d;
}

static stex_pipeline *one_entry(stex_device *d, stex_layout_entry e, stex_status *st)
{
    e.visibility = STEX_STAGE_COMPUTE;
    stex_pipeline_desc pd = {.kernel = nop, .entries = &e, .entry_count = 1};
    stex_pipeline *p = NULL;
    *st = stex_pipeline_create(d, &pd, &p);
    return p;
}

static void test_layout_rules(void **state)
{
    (void)state;
    stex_device *d = device_with(0);
    stex_status st;
    stex_pipeline *p;
    /* multisampled: not "float" (the default), 2d only */
    p = one_entry(d, (stex_layout_entry){.type = STEX_BINDING_TEXTURE, .texture_multisampled = true}, &st);
    assert_int_equal(st, STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "multisampled"));
    p = one_entry(d, (stex_layout_entry){.type = STEX_BINDING_TEXTURE, .texture_multisampled = true,
                                         .texture_sample_type = STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT,
                                         .texture_view_dimension = STEX_VIEW_DIMENSION_CUBE}, &st);
    assert_int_equal(st, STEX_VALIDATION_ERROR);
    p = one_entry(d, (stex_layout_entry){.type = STEX_BINDING_TEXTURE, .texture_multisampled = true,
                                         .texture_sample_type = STEX_SAMPLE_TYPE_UINT}, &st);
    assert_int_equal(st, STEX_OK);
    stex_pipeline_destroy(p);
    /* sampleType belongs to texture entries; enums in range */
    p = one_entry(d, (stex_layout_entry){.type = STEX_BINDING_SAMPLER,
                                         .texture_sample_type = STEX_SAMPLE_TYPE_DEPTH}, &st);
    assert_int_equal(st, STEX_VALIDATION_ERROR);
    p = one_entry(d, (stex_layout_entry){.type = STEX_BINDING_TEXTURE,
                                         .texture_sample_type = (stex_texture_sample_type)9}, &st);
    assert_int_equal(st, STEX_TYPE_ERROR);
    p = one_entry(d, (stex_layout_entry){.type = STEX_BINDING_SAMPLER,
                                         .sampler_type = (stex_sampler_binding_type)7}, &st);
    assert_int_equal(st, STEX_TYPE_ERROR);
    (void)p;
    dt_release(d);
}

typedef struct fit_case {
    stex_format format;
    stex_texture_aspect aspect;
    stex_texture_sample_type type;
    bool ok;
} fit_case;

static stex_status bind_view(stex_device *d, stex_layout_entry e, stex_texture_desc td,
                             stex_view_desc vd)
{
    stex_status st;
    stex_pipeline *p = one_entry(d, e, &st);
    DT_OK(st);
    stex_texture *t = NULL;
    DT_OK(stex_texture_create(d, &td, &t));
    stex_texture_view *v = NULL;
    DT_OK(stex_texture_create_view(t, &vd, &v));
    stex_bind_group *g = NULL;
    st = stex_bind_group_create(p, (stex_bind_group_entry[]){{.binding = 0, .view = v}}, 1, &g);
    stex_bind_group_destroy(g);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    stex_pipeline_destroy(p);
    return st;
}

static void test_sample_type_fits_format(void **state)
{
    (void)state;
    /* WebGPU's texture format capabilities: which sampleType a format binds as */
    static const fit_case cases[] = {
        {STEX_FORMAT_RGBA8UNORM, 0, STEX_SAMPLE_TYPE_FLOAT, true},
        {STEX_FORMAT_RGBA8UNORM, 0, STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT, true},
        {STEX_FORMAT_RGBA8UNORM, 0, STEX_SAMPLE_TYPE_SINT, false},
        {STEX_FORMAT_RGBA8UNORM, 0, STEX_SAMPLE_TYPE_DEPTH, false},
        {STEX_FORMAT_R32FLOAT, 0, STEX_SAMPLE_TYPE_FLOAT, false}, /* no float32-filterable */
        {STEX_FORMAT_R32FLOAT, 0, STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT, true},
        {STEX_FORMAT_R32UINT, 0, STEX_SAMPLE_TYPE_UINT, true},
        {STEX_FORMAT_R32UINT, 0, STEX_SAMPLE_TYPE_FLOAT, false},
        {STEX_FORMAT_RGBA16SINT, 0, STEX_SAMPLE_TYPE_SINT, true},
        {STEX_FORMAT_RGBA16SINT, 0, STEX_SAMPLE_TYPE_UINT, false},
        {STEX_FORMAT_DEPTH32FLOAT, 0, STEX_SAMPLE_TYPE_DEPTH, true},
        {STEX_FORMAT_DEPTH32FLOAT, 0, STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT, true},
        {STEX_FORMAT_DEPTH32FLOAT, 0, STEX_SAMPLE_TYPE_FLOAT, false},
        {STEX_FORMAT_DEPTH16UNORM, 0, STEX_SAMPLE_TYPE_DEPTH, true},
        {STEX_FORMAT_DEPTH24PLUS_STENCIL8, STEX_ASPECT_ALL, STEX_SAMPLE_TYPE_DEPTH, false},
        {STEX_FORMAT_DEPTH24PLUS_STENCIL8, STEX_ASPECT_DEPTH_ONLY, STEX_SAMPLE_TYPE_DEPTH, true},
        {STEX_FORMAT_DEPTH24PLUS_STENCIL8, STEX_ASPECT_STENCIL_ONLY, STEX_SAMPLE_TYPE_UINT, true},
        {STEX_FORMAT_DEPTH24PLUS_STENCIL8, STEX_ASPECT_STENCIL_ONLY, STEX_SAMPLE_TYPE_DEPTH, false},
        {STEX_FORMAT_STENCIL8, 0, STEX_SAMPLE_TYPE_UINT, true},
    };
    stex_device *d = device_with(0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const fit_case *c = &cases[i];
        stex_layout_entry e = {.type = STEX_BINDING_TEXTURE, .texture_sample_type = c->type};
        stex_texture_desc td = {.size = {2, 2, 1}, .format = c->format,
                                .usage = STEX_USAGE_TEXTURE_BINDING};
        stex_status st = bind_view(d, e, td, (stex_view_desc){.aspect = c->aspect});
        if ((st == STEX_OK) != c->ok)
            fail_msg("%s aspect %s as %s: %s (%s)", stex_format_name(c->format),
                     stex_texture_aspect_name(c->aspect), stex_sample_type_name(c->type),
                     stex_status_name(st), stex_last_error());
    }
    /* the "must select one aspect" rule is named */
    bind_view(d, (stex_layout_entry){.type = STEX_BINDING_TEXTURE,
                                     .texture_sample_type = STEX_SAMPLE_TYPE_DEPTH},
              (stex_texture_desc){.size = {2, 2, 1}, .format = STEX_FORMAT_DEPTH24PLUS_STENCIL8,
                                  .usage = STEX_USAGE_TEXTURE_BINDING},
              (stex_view_desc){0});
    assert_non_null(strstr(stex_last_error(), "must select one aspect"));
    dt_release(d);
    /* with float32-filterable, r32float is "float" too */
    d = device_with(STEX_FEATURE_FLOAT32_FILTERABLE);
    DT_OK(bind_view(d, (stex_layout_entry){.type = STEX_BINDING_TEXTURE},
                    (stex_texture_desc){.size = {2, 2, 1}, .format = STEX_FORMAT_R32FLOAT,
                                        .usage = STEX_USAGE_TEXTURE_BINDING},
                    (stex_view_desc){0}));
    dt_release(d);
}

static void test_dimension_samples_usage(void **state)
{
    (void)state;
    stex_device *d = device_with(0);
    stex_texture_desc cube = {.size = {4, 4, 6}, .format = STEX_FORMAT_RGBA8UNORM,
                              .usage = STEX_USAGE_TEXTURE_BINDING};
    stex_layout_entry want_cube = {.type = STEX_BINDING_TEXTURE,
                                   .texture_view_dimension = STEX_VIEW_DIMENSION_CUBE};
    DT_OK(bind_view(d, want_cube, cube, (stex_view_desc){.dimension = STEX_VIEW_DIMENSION_CUBE}));
    assert_int_equal(bind_view(d, want_cube, cube, (stex_view_desc){0}), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "\"2d-array\" does not match the layout's \"cube\""));
    /* sampleCount 4 needs multisampled, and the reverse */
    stex_texture_desc ms = {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM, .sample_count = 4,
                            .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_RENDER_ATTACHMENT};
    stex_layout_entry want_ms = {.type = STEX_BINDING_TEXTURE, .texture_multisampled = true,
                                 .texture_sample_type = STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT};
    DT_OK(bind_view(d, want_ms, ms, (stex_view_desc){0}));
    assert_int_equal(bind_view(d, (stex_layout_entry){.type = STEX_BINDING_TEXTURE}, ms,
                               (stex_view_desc){0}), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "sampleCount is 4"));
    cube.usage = STEX_USAGE_COPY_DST;
    assert_int_equal(bind_view(d, want_cube, cube,
                               (stex_view_desc){.dimension = STEX_VIEW_DIMENSION_CUBE}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "TEXTURE_BINDING"));
    dt_release(d);
}

static stex_status bind_sampler(stex_device *d, stex_sampler_binding_type type,
                                stex_sampler_desc sd)
{
    stex_status st;
    stex_pipeline *p = one_entry(d, (stex_layout_entry){.type = STEX_BINDING_SAMPLER,
                                                        .sampler_type = type}, &st);
    DT_OK(st);
    stex_sampler *s = NULL;
    DT_OK(stex_sampler_create(d, &sd, &s));
    stex_bind_group *g = NULL;
    st = stex_bind_group_create(p, (stex_bind_group_entry[]){{.binding = 0, .sampler = s}}, 1, &g);
    stex_bind_group_destroy(g);
    stex_sampler_destroy(s);
    stex_pipeline_destroy(p);
    return st;
}

static void test_sampler_binding_types(void **state)
{
    (void)state;
    stex_device *d = device_with(0);
    stex_sampler_desc plain = {0}, linear = {.min_filter = STEX_FILTER_LINEAR},
                      cmp = {.compare = STEX_COMPARE_LESS};
    DT_OK(bind_sampler(d, STEX_SAMPLER_BINDING_UNDEFINED, linear)); /* "filtering" takes any */
    DT_OK(bind_sampler(d, STEX_SAMPLER_BINDING_NON_FILTERING, plain));
    assert_int_equal(bind_sampler(d, STEX_SAMPLER_BINDING_NON_FILTERING, linear),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "non-filtering"));
    DT_OK(bind_sampler(d, STEX_SAMPLER_BINDING_COMPARISON, cmp));
    assert_int_equal(bind_sampler(d, STEX_SAMPLER_BINDING_COMPARISON, plain),
                     STEX_VALIDATION_ERROR);
    assert_int_equal(bind_sampler(d, STEX_SAMPLER_BINDING_FILTERING, cmp), STEX_VALIDATION_ERROR);
    dt_release(d);
}

/* ---- the builtins from a C kernel ---- */

#define TEX 0
#define CUBES 1
#define MS 2
#define OUT 3

/* out[0..3] = textureLoad(TEX, (x, 0), level) with x = 1 + 4 * invocation (in
 * bounds for invocation 0 only), then the queries */
static void probe(const stex_invocation *inv)
{
    uint32_t i = inv->global_invocation_id[0];
    stex_value v = stex_textureLoad_sampled(inv, TEX, STEX_VIEW_DIMENSION_2D, 1 + 4 * i, 0, 0, 0);
    for (int c = 0; c < 4; c++)
        stex_buffer_store_u32(inv, OUT, 8 * i + c, v.v.u[c]);
    if (i)
        return;
    stex_uvec3 d1 = stex_textureDimensions_level(inv, TEX, 1);
    stex_buffer_store_u32(inv, OUT, 4, d1.x * 100 + d1.y);
    stex_buffer_store_u32(inv, OUT, 5, stex_textureNumLevels(inv, TEX));
    stex_buffer_store_u32(inv, OUT, 6, stex_textureNumLayers(inv, CUBES));
    stex_buffer_store_u32(inv, OUT, 7, stex_textureNumSamples(inv, MS));
}

static void test_builtins_from_a_kernel(void **state)
{
    (void)state;
    stex_device *d = device_with(0);
    stex_texture_desc td = {.size = {4, 3, 1}, .format = STEX_FORMAT_RGBA8UNORM,
                            .mip_level_count = 2, .usage = STEX_USAGE_TEXTURE_BINDING};
    stex_texture *t = NULL, *c = NULL, *m = NULL;
    DT_OK(stex_texture_create(d, &td, &t));
    uint8_t texels[48];
    for (int i = 0; i < 48; i++)
        texels[i] = (uint8_t)(i * 5 + 1); /* no texel is all zero */
    DT_OK(stex_texture_set_texels(t, 0, 0, texels, 48));
    stex_texture_desc cd = {.size = {2, 2, 12}, .format = STEX_FORMAT_RGBA8UNORM,
                            .usage = STEX_USAGE_TEXTURE_BINDING};
    DT_OK(stex_texture_create(d, &cd, &c));
    stex_texture_desc md = {.size = {2, 2, 1}, .format = STEX_FORMAT_R32UINT, .sample_count = 4,
                            .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_RENDER_ATTACHMENT};
    DT_OK(stex_texture_create(d, &md, &m));
    stex_texture_view *vt = dt_view(t, NULL), *vm = dt_view(m, NULL);
    stex_texture_view *vc = dt_view(c, &(stex_view_desc){.dimension = STEX_VIEW_DIMENSION_CUBE_ARRAY});
    stex_buffer *out = dt_buffer(d, 64, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e[4] = {
        {.binding = TEX, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_TEXTURE},
        {.binding = CUBES, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_TEXTURE,
         .texture_view_dimension = STEX_VIEW_DIMENSION_CUBE_ARRAY},
        {.binding = MS, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_TEXTURE,
         .texture_multisampled = true, .texture_sample_type = STEX_SAMPLE_TYPE_UINT},
        dt_buffer_entry(OUT, STEX_BINDING_STORAGE_BUFFER)};
    stex_pipeline_desc pd = {.kernel = probe, .workgroup_size = {2, 1, 1}, .entries = e,
                             .entry_count = 4};
    stex_pipeline *p = NULL;
    DT_OK(stex_pipeline_create(d, &pd, &p));
    stex_bind_group *g = NULL;
    DT_OK(stex_bind_group_create(p, (stex_bind_group_entry[]){{.binding = TEX, .view = vt},
                                                              {.binding = CUBES, .view = vc},
                                                              {.binding = MS, .view = vm},
                                                              {.binding = OUT, .buffer = out}},
                                 4, &g));
    const stex_oob_load policies[] = {STEX_OOB_LOAD_ZERO, STEX_OOB_LOAD_ZERO_ALPHA_ONE,
                                      STEX_OOB_LOAD_RANDOM_TEXEL};
    for (int k = 0; k < 3; k++) {
        stex_dispatch_options o = {.oob_load = policies[k], .seed = 7};
        DT_OK(stex_dispatch(p, g, 1, 1, 1, &o));
        const uint32_t *w = (const uint32_t *)(const void *)stex_buffer_data(out);
        /* in bounds: texel (1, 0) = bytes 4..7 */
        for (int ch = 0; ch < 4; ch++)
            assert_true(dt_f2u(texels[4 + ch] / 255.0f) == w[ch] ||
                        fabsf(*(const float *)(const void *)&w[ch] - texels[4 + ch] / 255.0f) < 1e-6f);
        assert_int_equal(w[4], 201); /* level 1: 2x1 */
        assert_int_equal(w[5], 2);
        assert_int_equal(w[6], 2);   /* 12 layers: 2 cubes */
        assert_int_equal(w[7], 4);
        const float *oob = (const float *)(const void *)&w[8]; /* x = 5: out of bounds */
        if (policies[k] == STEX_OOB_LOAD_ZERO)
            assert_true(oob[0] == 0 && oob[1] == 0 && oob[2] == 0 && oob[3] == 0);
        else if (policies[k] == STEX_OOB_LOAD_ZERO_ALPHA_ONE)
            assert_true(oob[0] == 0 && oob[1] == 0 && oob[2] == 0 && oob[3] == 1);
        else { /* some texel of the texture, exactly */
            bool found = false;
            for (int i = 0; i < 12 && !found; i++) {
                bool same = true;
                for (int ch = 0; ch < 4; ch++)
                    same &= fabsf(oob[ch] - texels[4 * i + ch] / 255.0f) < 1e-6f;
                found = same;
            }
            assert_true(found);
        }
    }
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(out);
    stex_texture_view_destroy(vt);
    stex_texture_view_destroy(vc);
    stex_texture_view_destroy(vm);
    stex_texture_destroy(t);
    stex_texture_destroy(c);
    stex_texture_destroy(m);
    dt_release(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout_rules),
        cmocka_unit_test(test_sample_type_fits_format),
        cmocka_unit_test(test_dimension_samples_usage),
        cmocka_unit_test(test_sampler_binding_types),
        cmocka_unit_test(test_builtins_from_a_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
