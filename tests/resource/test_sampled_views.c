/* Sampled textures of every kind at the resource layer, against the rules
 * of WebGPU and Vulkan worked out by hand for small cases: textureLoad on
 * mip levels, layers, 3d slices and samples; the depth and stencil
 * decoders; the texture queries; and the SPEC precision's sampling rules
 * (cube face selection and seamless edges, comparison functions, gather
 * order, offsets, mip selection, gradients, base-clamp-to-edge). */
#include <math.h>

#include "rtest.h"

static stex_texture *make(stex_device *d, stex_texture_dimension dim, uint32_t w, uint32_t h,
                          uint32_t layers, uint32_t mips, uint32_t samples, stex_format f)
{
    stex_texture_desc td = {.dimension = dim, .size = {w, h, layers}, .format = f,
                            .mip_level_count = mips, .sample_count = samples,
                            .usage = STEX_USAGE_TEXTURE_BINDING |
                                     (samples > 1 ? STEX_USAGE_RENDER_ATTACHMENT : 0)};
    stex_texture *t = NULL;
    if (stex_texture_create(d, &td, &t))
        fail_msg("createTexture: %s", stex_last_error());
    return t;
}

static stex_texture_view *view(stex_texture *t, stex_view_dimension dim)
{
    stex_view_desc vd = {.dimension = dim};
    stex_texture_view *v = NULL;
    if (stex_texture_create_view(t, &vd, &v))
        fail_msg("createView: %s", stex_last_error());
    return v;
}

/* r32uint texels numbered: value = 1000 * mip + 100 * layer + 10 * y + x (+ 5000 * sample) */
static void number_texels(stex_texture *t, uint32_t samples)
{
    const stex_texture_desc *td = stex_texture_get_desc(t);
    for (uint32_t m = 0; m < td->mip_level_count; m++)
        for (uint32_t s = 0; s < samples; s++) {
            stex_extent3d e = stex_texture_mip_size(t, m);
            size_t n = (size_t)e.width * e.height * e.depth_or_array_layers;
            uint32_t *v = malloc(n * 4);
            size_t k = 0;
            for (uint32_t z = 0; z < e.depth_or_array_layers; z++)
                for (uint32_t y = 0; y < e.height; y++)
                    for (uint32_t x = 0; x < e.width; x++)
                        v[k++] = 5000 * s + 1000 * m + 100 * z + 10 * y + x;
            assert_int_equal(stex_texture_set_texels(t, m, s, v, n * 4), STEX_OK);
            free(v);
        }
}

static uint32_t load(const stex_texture_view *v, int64_t x, int64_t y, int64_t z, int64_t lv,
                     int64_t s, bool *in)
{
    stex_vec4 r;
    *in = stex_view_fetch(v, NULL, x, y, z, lv, s, &r);
    return r.u[0];
}

static void test_load_levels_layers_samples(void **state)
{
    (void)state;
    stex_device *d = rtest_device(STEX_PROFILE_SPEC);
    bool in;
    /* a 2d-array of 5x4x3 with 3 levels: level 1 is 2x2, level 2 1x1 */
    stex_texture *a = make(d, STEX_TEXTURE_DIMENSION_2D, 5, 4, 3, 3, 1, STEX_FORMAT_R32UINT);
    number_texels(a, 1);
    stex_texture_view *va = view(a, STEX_VIEW_DIMENSION_2D_ARRAY);
    assert_int_equal(load(va, 4, 3, 2, 0, 0, &in), 234);
    assert_true(in);
    assert_int_equal(load(va, 1, 1, 1, 1, 0, &in), 1111);
    assert_int_equal(load(va, 0, 0, 2, 2, 0, &in), 2200);
    load(va, 2, 0, 0, 1, 0, &in); /* x = 2 is outside level 1's width 2 */
    assert_false(in);
    load(va, 0, 0, 3, 0, 0, &in); /* layer 3 of 3 */
    assert_false(in);
    load(va, 0, 0, 0, 3, 0, &in); /* level 3 of 3 */
    assert_false(in);
    load(va, 0, 0, -1, 0, 0, &in);
    assert_false(in);
    /* a view of levels 1..2 and layers 1..2: counted from its bases */
    stex_view_desc sub = {.dimension = STEX_VIEW_DIMENSION_2D_ARRAY, .base_mip_level = 1,
                          .base_array_layer = 1};
    stex_texture_view *vs = NULL;
    assert_int_equal(stex_texture_create_view(a, &sub, &vs), STEX_OK);
    assert_int_equal(load(vs, 1, 0, 1, 0, 0, &in), 1201);
    assert_int_equal(stex_view_num_levels(vs), 2);
    assert_int_equal(stex_view_num_layers(vs), 2);
    stex_extent3d e;
    assert_true(stex_view_level_dimensions(vs, 0, &e));
    assert_int_equal(e.width, 2);
    assert_int_equal(e.height, 2);
    assert_false(stex_view_level_dimensions(vs, 2, &e));
    /* 3d: z is a depth that halves with the level */
    stex_texture *t3 = make(d, STEX_TEXTURE_DIMENSION_3D, 4, 4, 4, 2, 1, STEX_FORMAT_R32UINT);
    number_texels(t3, 1);
    stex_texture_view *v3 = view(t3, STEX_VIEW_DIMENSION_3D);
    assert_int_equal(load(v3, 3, 2, 1, 0, 0, &in), 123);
    assert_int_equal(load(v3, 1, 1, 1, 1, 0, &in), 1111);
    load(v3, 0, 0, 2, 1, 0, &in);
    assert_false(in);
    assert_true(stex_view_level_dimensions(v3, 1, &e));
    assert_int_equal(e.depth_or_array_layers, 2);
    /* 1d */
    stex_texture *t1 = make(d, STEX_TEXTURE_DIMENSION_1D, 6, 1, 1, 1, 1, STEX_FORMAT_R32UINT);
    number_texels(t1, 1);
    stex_texture_view *v1 = view(t1, STEX_VIEW_DIMENSION_1D);
    assert_int_equal(load(v1, 5, 0, 0, 0, 0, &in), 5);
    load(v1, 6, 0, 0, 0, 0, &in);
    assert_false(in);
    /* multisampled: 4 samples per texel, a sample index instead of a level */
    stex_texture *ms = make(d, STEX_TEXTURE_DIMENSION_2D, 3, 2, 1, 1, 4, STEX_FORMAT_R32UINT);
    number_texels(ms, 4);
    stex_texture_view *vm = view(ms, STEX_VIEW_DIMENSION_2D);
    assert_int_equal(stex_view_num_samples(vm), 4);
    assert_int_equal(load(vm, 2, 1, 0, 0, 3, &in), 15012);
    assert_int_equal(load(vm, 0, 0, 0, 0, 1, &in), 5000);
    load(vm, 0, 0, 0, 0, 4, &in);
    assert_false(in);
    assert_int_equal(stex_view_num_samples(v1), 1);
    /* set_texels: the level's exact size, an existing level and sample */
    uint32_t six[6] = {0};
    assert_int_equal(stex_texture_set_texels(ms, 0, 4, six, 24), STEX_VALIDATION_ERROR);
    assert_int_equal(stex_texture_set_texels(ms, 1, 0, six, 24), STEX_VALIDATION_ERROR);
    assert_int_equal(stex_texture_set_texels(ms, 0, 0, six, 20), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "needs 24"));
    stex_texture_view *views[] = {va, vs, v3, v1, vm};
    for (size_t i = 0; i < 5; i++)
        stex_texture_view_destroy(views[i]);
    stex_texture *texs[] = {a, t3, t1, ms};
    for (size_t i = 0; i < 4; i++)
        stex_texture_destroy(texs[i]);
    rtest_release(d);
}

static void test_depth_and_stencil(void **state)
{
    (void)state;
    stex_device *d = rtest_device(STEX_PROFILE_SPEC);
    uint8_t b[4];
    /* depth16unorm: round(d * 65535), ties to even; read back c / 65535 */
    assert_true(stex_depth_encode(STEX_FORMAT_DEPTH16UNORM, 0.5f, b));
    assert_int_equal(b[0] | b[1] << 8, 32768); /* 32767.5 -> 32768 (even) */
    assert_false(stex_depth_encode(STEX_FORMAT_DEPTH16UNORM, 1.5f, b));
    assert_false(stex_depth_encode(STEX_FORMAT_DEPTH32FLOAT, NAN, b));
    assert_false(stex_depth_encode(STEX_FORMAT_R32FLOAT, 0.5f, b));
    stex_texture *t16 = make(d, STEX_TEXTURE_DIMENSION_2D, 2, 1, 1, 1, 1, STEX_FORMAT_DEPTH16UNORM);
    uint16_t codes[2] = {32768, 65535};
    assert_int_equal(stex_texture_set_texels(t16, 0, 0, codes, 4), STEX_OK);
    stex_texture_view *v16 = view(t16, STEX_VIEW_DIMENSION_2D);
    stex_vec4 r;
    assert_true(stex_view_fetch(v16, NULL, 0, 0, 0, 0, 0, &r));
    assert_true(r.f[0] == 32768.0f / 65535.0f);
    assert_true(r.f[1] == 0 && r.f[2] == 0 && r.f[3] == 1);
    assert_true(stex_view_fetch(v16, NULL, 1, 0, 0, 0, 0, &r));
    assert_true(r.f[0] == 1.0f);
    /* depth24plus-stencil8: depth in bits 0..23, stencil in 24..31; an aspect view each */
    stex_texture *ds = make(d, STEX_TEXTURE_DIMENSION_2D, 1, 1, 1, 1, 1,
                            STEX_FORMAT_DEPTH24PLUS_STENCIL8);
    uint32_t word = 0x7f000000u | 8388608u; /* stencil 127, depth 2^23 */
    assert_int_equal(stex_texture_set_texels(ds, 0, 0, &word, 4), STEX_OK);
    stex_view_desc dv = {.aspect = STEX_ASPECT_DEPTH_ONLY}, sv = {.aspect = STEX_ASPECT_STENCIL_ONLY};
    stex_texture_view *vd = NULL, *vsn = NULL;
    assert_int_equal(stex_texture_create_view(ds, &dv, &vd), STEX_OK);
    assert_int_equal(stex_texture_create_view(ds, &sv, &vsn), STEX_OK);
    assert_true(stex_view_fetch(vd, NULL, 0, 0, 0, 0, 0, &r));
    assert_true(r.f[0] == 8388608.0f / 16777215.0f);
    assert_true(stex_view_fetch(vsn, NULL, 0, 0, 0, 0, 0, &r));
    assert_int_equal(r.u[0], 127);
    assert_int_equal(r.u[3], 1);
    /* the aspect must exist in the format */
    stex_view_desc bad = {.aspect = STEX_ASPECT_STENCIL_ONLY};
    stex_texture_view *none = NULL;
    assert_int_equal(stex_texture_create_view(t16, &bad, &none), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "aspect stencil-only"));
    stex_texture_view_destroy(v16);
    stex_texture_view_destroy(vd);
    stex_texture_view_destroy(vsn);
    stex_texture_destroy(t16);
    stex_texture_destroy(ds);
    rtest_release(d);
}

/* ---- sampling, SPEC precision ---- */

static stex_sampler *sampler(stex_device *d, stex_sampler_desc sd)
{
    sd.precision = STEX_FILTER_PRECISION_SPEC;
    stex_sampler *s = NULL;
    if (stex_sampler_create(d, &sd, &s))
        fail_msg("createSampler: %s", stex_last_error());
    return s;
}

static float sample(const stex_texture_view *v, const stex_sampler *s, stex_sample_args a)
{
    stex_vec4 r;
    stex_view_sample(v, s, NULL, &a, &r);
    return r.f[0];
}

/* r32float texels from a list */
static void fill(stex_texture *t, uint32_t mip, const float *v, size_t n)
{
    assert_int_equal(stex_texture_set_texels(t, mip, 0, v, n * 4), STEX_OK);
}

static void test_cube_faces(void **state)
{
    (void)state;
    stex_device *d = rtest_device(STEX_PROFILE_SPEC);
    /* a 1x1 cube: face f holds f + 1 */
    stex_texture *t = make(d, STEX_TEXTURE_DIMENSION_2D, 1, 1, 6, 1, 1, STEX_FORMAT_R32FLOAT);
    const float faces[6] = {1, 2, 3, 4, 5, 6};
    fill(t, 0, faces, 6);
    stex_texture_view *v = view(t, STEX_VIEW_DIMENSION_CUBE);
    stex_sampler *nearest = sampler(d, (stex_sampler_desc){0});
    /* Vulkan's table: the major axis picks +x, -x, +y, -y, +z, -z */
    const float dirs[6][3] = {{2, 1, -1}, {-2, 1, 1}, {0.5f, 3, 0}, {0, -3, 1}, {1, 1, 2}, {0, 0, -1}};
    for (int f = 0; f < 6; f++)
        assert_true(sample(v, nearest, (stex_sample_args){.coord = {dirs[f][0], dirs[f][1],
                                                                    dirs[f][2]}}) == f + 1);
    /* ties: z before y before x */
    assert_true(sample(v, nearest, (stex_sample_args){.coord = {1, 1, 1}}) == 5);
    assert_true(sample(v, nearest, (stex_sample_args){.coord = {1, -1, 0.5f}}) == 4);
    /* seamless: on +z at s = 0.75 the footprint's right column is +x's texel:
     * 0.75 * 5 + 0.25 * 1 */
    stex_sampler *linear = sampler(d, (stex_sampler_desc){.mag_filter = STEX_FILTER_LINEAR,
                                                          .min_filter = STEX_FILTER_LINEAR});
    assert_true(sample(v, linear, (stex_sample_args){.coord = {0.5f, 0, 1}}) == 4.0f);
    /* a 2x2 cube: the face's orientation.  +x: s from -z, t from -y */
    stex_texture *t2 = make(d, STEX_TEXTURE_DIMENSION_2D, 2, 2, 6, 1, 1, STEX_FORMAT_R32FLOAT);
    float texels[24];
    for (int i = 0; i < 24; i++)
        texels[i] = (float)i; /* face f, (x, y): 4f + 2y + x */
    fill(t2, 0, texels, 24);
    stex_texture_view *v2 = view(t2, STEX_VIEW_DIMENSION_CUBE);
    /* +x, direction (1, -0.5, -0.5): sc = 0.5, tc = 0.5 -> s = t = 0.75 -> (1, 1) */
    assert_true(sample(v2, nearest, (stex_sample_args){.coord = {1, -0.5f, -0.5f}}) == 3);
    /* -y, (0.5, -1, -0.5): sc = x = 0.5, tc = -z = 0.5 -> (1, 1) of face 3 */
    assert_true(sample(v2, nearest, (stex_sample_args){.coord = {0.5f, -1, -0.5f}}) == 15);
    /* -z, (0.5, 0.5, -1): sc = -x = -0.5, tc = -y = -0.5 -> (0, 0) of face 5 */
    assert_true(sample(v2, nearest, (stex_sample_args){.coord = {0.5f, 0.5f, -1}}) == 20);
    /* a cube array: array index 1 is the second cube; out of range clamps */
    stex_texture *ta = make(d, STEX_TEXTURE_DIMENSION_2D, 1, 1, 12, 1, 1, STEX_FORMAT_R32FLOAT);
    float twelve[12];
    for (int i = 0; i < 12; i++)
        twelve[i] = (float)(10 * (i / 6) + i % 6);
    fill(ta, 0, twelve, 12);
    stex_texture_view *va = view(ta, STEX_VIEW_DIMENSION_CUBE_ARRAY);
    assert_true(sample(va, nearest, (stex_sample_args){.coord = {0, 1, 0}, .array_index = 1}) == 12);
    assert_true(sample(va, nearest, (stex_sample_args){.coord = {0, 1, 0}, .array_index = 7}) == 12);
    assert_true(sample(va, nearest, (stex_sample_args){.coord = {0, 1, 0}, .array_index = -1}) == 2);
    stex_texture_view_destroy(v);
    stex_texture_view_destroy(v2);
    stex_texture_view_destroy(va);
    stex_texture_destroy(t);
    stex_texture_destroy(t2);
    stex_texture_destroy(ta);
    stex_sampler_destroy(nearest);
    stex_sampler_destroy(linear);
    rtest_release(d);
}

static void test_compare_functions(void **state)
{
    (void)state;
    stex_device *d = rtest_device(STEX_PROFILE_SPEC);
    stex_texture *t = make(d, STEX_TEXTURE_DIMENSION_2D, 2, 1, 1, 1, 1, STEX_FORMAT_DEPTH32FLOAT);
    const float depth[2] = {0.5f, 0.25f};
    fill(t, 0, depth, 2);
    stex_texture_view *v = view(t, STEX_VIEW_DIMENSION_2D);
    /* reference OP texel (WebGPU: "the provided value passes if ..."), at
     * texel 0 (D = 0.5) for references 0.25, 0.5, 0.75 */
    static const struct { stex_compare_function f; float pass[3]; } table[] = {
        {STEX_COMPARE_NEVER, {0, 0, 0}},         {STEX_COMPARE_LESS, {1, 0, 0}},
        {STEX_COMPARE_EQUAL, {0, 1, 0}},         {STEX_COMPARE_LESS_EQUAL, {1, 1, 0}},
        {STEX_COMPARE_GREATER, {0, 0, 1}},       {STEX_COMPARE_NOT_EQUAL, {1, 0, 1}},
        {STEX_COMPARE_GREATER_EQUAL, {0, 1, 1}}, {STEX_COMPARE_ALWAYS, {1, 1, 1}}};
    const float refs[3] = {0.25f, 0.5f, 0.75f};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        stex_sampler *s = sampler(d, (stex_sampler_desc){.compare = table[i].f});
        for (int k = 0; k < 3; k++) {
            stex_sample_args a = {.fn = STEX_SAMPLE_COMPARE_LEVEL, .coord = {0.25f, 0.5f},
                                  .depth_ref = refs[k]};
            if (sample(v, s, a) != table[i].pass[k])
                fail_msg("%s, ref %g", stex_compare_function_name(table[i].f), refs[k]);
        }
        stex_sampler_destroy(s);
    }
    /* linear: the comparisons are filtered (ref 0.4: texel 0 passes "less", texel 1 not) */
    stex_sampler *pcf = sampler(d, (stex_sampler_desc){.compare = STEX_COMPARE_LESS,
                                                       .mag_filter = STEX_FILTER_LINEAR});
    stex_sample_args a = {.fn = STEX_SAMPLE_COMPARE_LEVEL, .coord = {0.5f, 0.5f}, .depth_ref = 0.4f};
    assert_true(sample(v, pcf, a) == 0.5f);
    /* gatherCompare: the four comparisons, footprint order (i0,j1) (i1,j1) (i1,j0) (i0,j0) */
    a.fn = STEX_SAMPLE_GATHER_COMPARE;
    stex_vec4 r;
    stex_view_sample(v, pcf, NULL, &a, &r);
    assert_true(r.f[0] == 1 && r.f[1] == 0 && r.f[2] == 0 && r.f[3] == 1);
    stex_sampler_destroy(pcf);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(d);
}

static void test_gather_offsets_levels(void **state)
{
    (void)state;
    stex_device *d = rtest_device(STEX_PROFILE_SPEC);
    /* 4x4 r32float, 3 levels; level m texel (x, y) = 100 m + 10 y + x */
    stex_texture *t = make(d, STEX_TEXTURE_DIMENSION_2D, 4, 4, 1, 3, 1, STEX_FORMAT_R32FLOAT);
    for (uint32_t m = 0; m < 3; m++) {
        uint32_t n = 4 >> m;
        float v[16];
        for (uint32_t y = 0; y < n; y++)
            for (uint32_t x = 0; x < n; x++)
                v[y * n + x] = (float)(100 * m + 10 * y + x);
        fill(t, m, v, n * n);
    }
    stex_texture_view *v = view(t, STEX_VIEW_DIMENSION_2D);
    stex_sampler *s = sampler(d, (stex_sampler_desc){0});
    /* gather at the centre of texels (1,1)-(2,2): (1,2) (2,2) (2,1) (1,1) */
    stex_vec4 r;
    stex_sample_args g = {.fn = STEX_SAMPLE_GATHER, .coord = {0.5f, 0.5f}};
    stex_view_sample(v, s, NULL, &g, &r);
    assert_true(r.f[0] == 21 && r.f[1] == 22 && r.f[2] == 12 && r.f[3] == 11);
    /* an offset moves the footprint by whole texels */
    g.offset[0] = -1;
    g.offset[1] = 1;
    stex_view_sample(v, s, NULL, &g, &r);
    assert_true(r.f[0] == 30 && r.f[1] == 31 && r.f[2] == 21 && r.f[3] == 20);
    /* nearest with an offset, clamped at the edge */
    stex_sample_args n = {.coord = {0.9f, 0.1f}, .offset = {2, -3}};
    assert_true(sample(v, s, n) == 3); /* x = 3 + 2 clamps to 3, y = 0 - 3 to 0 */
    /* mipmapFilter nearest, Vulkan's rounding: ceil(lod + 0.5) - 1, .5 down */
    const float lods[] = {0.49f, 0.5f, 0.51f, 1.5f, 1.51f, 9};
    const float want[] = {0, 0, 100, 100, 200, 200};
    for (int i = 0; i < 6; i++) {
        stex_sample_args a = {.coord = {0.1f, 0.1f}, .level = lods[i]};
        if (sample(v, s, a) != want[i])
            fail_msg("lod %g: %g, want %g", lods[i], sample(v, s, a), want[i]);
    }
    /* lodMinClamp / lodMaxClamp */
    stex_sampler *cl = sampler(d, (stex_sampler_desc){.lod_min_clamp = 1, .lod_max_clamp = 1});
    assert_true(sample(v, cl, (stex_sample_args){.coord = {0.1f, 0.1f}}) == 100);
    /* gradients: ddx = (0.5, 0) is 2 texels of level 0 -> lod 1 */
    stex_sample_args gr = {.fn = STEX_SAMPLE_GRAD, .coord = {0.1f, 0.1f}, .ddx = {0.5f, 0},
                           .ddy = {0, 0.25f}};
    assert_true(sample(v, s, gr) == 100);
    gr.ddx[0] = 1; /* 4 texels -> lod 2 */
    assert_true(sample(v, s, gr) == 200);
    /* linear mip blend at lod 0.25, texel centre (0, 0): 0.75 * 0 + 0.25 * 100 */
    stex_sampler *tri = sampler(d, (stex_sampler_desc){.mag_filter = STEX_FILTER_LINEAR,
                                                       .min_filter = STEX_FILTER_LINEAR,
                                                       .mipmap_filter = STEX_FILTER_LINEAR});
    /* (level 1 at u = 0.125: c = 0.25 * 2 - 0.5 = 0 -> texel 0 exactly) */
    assert_true(sample(v, tri, (stex_sample_args){.coord = {0.125f, 0.125f}, .level = 0.25f}) ==
                25.0f);
    /* base-clamp-to-edge: u = -3 clamps to half a texel, even with repeat */
    stex_sampler *rep = sampler(d, (stex_sampler_desc){.address_mode_u = STEX_ADDRESS_REPEAT,
                                                       .mag_filter = STEX_FILTER_LINEAR});
    stex_sample_args bc = {.fn = STEX_SAMPLE_BASE_CLAMP_TO_EDGE, .coord = {-3, 0.125f}};
    assert_true(sample(v, rep, bc) == 0);
    stex_sampler_destroy(s);
    stex_sampler_destroy(cl);
    stex_sampler_destroy(tri);
    stex_sampler_destroy(rep);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(d);
}

static void test_3d_and_array(void **state)
{
    (void)state;
    stex_device *d = rtest_device(STEX_PROFILE_SPEC);
    /* 2x2x2: texel (x, y, z) = 4z + 2y + x; at the centre the mean, 3.5 */
    stex_texture *t = make(d, STEX_TEXTURE_DIMENSION_3D, 2, 2, 2, 1, 1, STEX_FORMAT_R32FLOAT);
    const float v8[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    fill(t, 0, v8, 8);
    stex_texture_view *v = view(t, STEX_VIEW_DIMENSION_3D);
    stex_sampler *lin = sampler(d, (stex_sampler_desc){.mag_filter = STEX_FILTER_LINEAR});
    assert_true(sample(v, lin, (stex_sample_args){.coord = {0.5f, 0.5f, 0.5f}}) == 3.5f);
    /* w mirror-repeat: w = 1.25 mirrors to 0.75 -> nearest z = 1 */
    stex_sampler *mir = sampler(d, (stex_sampler_desc){.address_mode_w = STEX_ADDRESS_MIRROR_REPEAT});
    assert_true(sample(v, mir, (stex_sample_args){.coord = {0.1f, 0.1f, 1.25f}}) == 4);
    assert_true(sample(v, mir, (stex_sample_args){.coord = {0.1f, 0.1f, 1.75f}}) == 0);
    /* an offset on the third axis */
    assert_true(sample(v, mir, (stex_sample_args){.coord = {0.1f, 0.1f, 0.1f},
                                                  .offset = {0, 1, 1}}) == 6);
    /* 2d-array: the array index picks the layer, clamped */
    stex_texture *a = make(d, STEX_TEXTURE_DIMENSION_2D, 1, 1, 3, 1, 1, STEX_FORMAT_R32FLOAT);
    const float l3[3] = {7, 8, 9};
    fill(a, 0, l3, 3);
    stex_texture_view *va = view(a, STEX_VIEW_DIMENSION_2D_ARRAY);
    assert_true(sample(va, lin, (stex_sample_args){.coord = {0.3f, 0.3f}, .array_index = 2}) == 9);
    assert_true(sample(va, lin, (stex_sample_args){.coord = {0.3f, 0.3f}, .array_index = 5,
                                                   .offset = {1, 0}}) == 9);
    stex_sampler_destroy(lin);
    stex_sampler_destroy(mir);
    stex_texture_view_destroy(v);
    stex_texture_view_destroy(va);
    stex_texture_destroy(t);
    stex_texture_destroy(a);
    rtest_release(d);
}

static void test_sampler_rules(void **state)
{
    (void)state;
    stex_device *d = rtest_device(STEX_PROFILE_SPEC);
    stex_sampler *s = NULL;
    /* maxAnisotropy > 1 needs every filter linear */
    stex_sampler_desc an = {.max_anisotropy = 4, .mag_filter = STEX_FILTER_LINEAR,
                            .min_filter = STEX_FILTER_LINEAR};
    assert_int_equal(stex_sampler_create(d, &an, &s), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxAnisotropy"));
    an.mipmap_filter = STEX_FILTER_LINEAR;
    assert_int_equal(stex_sampler_create(d, &an, &s), STEX_OK);
    assert_int_equal(stex_sampler_get_desc(s)->max_anisotropy, 4);
    stex_sampler_destroy(s);
    stex_sampler_desc bad = {.compare = (stex_compare_function)9};
    assert_int_equal(stex_sampler_create(d, &bad, &s), STEX_TYPE_ERROR);
    stex_sampler_desc zero = {0};
    assert_int_equal(stex_sampler_create(d, &zero, &s), STEX_OK);
    assert_int_equal(stex_sampler_get_desc(s)->max_anisotropy, 1); /* WebGPU's default */
    stex_sampler_destroy(s);
    rtest_release(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_levels_layers_samples),
        cmocka_unit_test(test_depth_and_stencil),
        cmocka_unit_test(test_cube_faces),
        cmocka_unit_test(test_compare_functions),
        cmocka_unit_test(test_gather_offsets_levels),
        cmocka_unit_test(test_3d_and_array),
        cmocka_unit_test(test_sampler_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
