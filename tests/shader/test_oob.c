/* Out-of-bounds textureStore and textureLoad, replayed from the lavapipe
 * measurements (tests/data/lavapipe-oob.json, written by peer/tests/oob.mjs):
 * every store case must leave exactly the bytes the device left (read back
 * through copyTextureToBuffer), every load case must return the device's
 * bits under the ZERO policy; the other two policies are checked against
 * their definitions. */
#include <jansson.h>

#include "../dispatch/dtest.h"

typedef enum shape { SHAPE_1D, SHAPE_2D, SHAPE_2D_ARRAY, SHAPE_3D } shape;

typedef struct probe {
    shape s;
    bool store;
    bool sampled;
    int64_t c[3];
    stex_value value;
} probe;

/* One invocation: the store or load of the case; loads go to buffer binding 1. */
static void probe_kernel(const stex_invocation *inv)
{
    const probe *p = inv->params;
    if (p->store) {
        switch (p->s) {
        case SHAPE_1D: stex_textureStore_1d(inv, 0, p->c[0], p->value); break;
        case SHAPE_2D: stex_textureStore_2d(inv, 0, p->c[0], p->c[1], p->value); break;
        case SHAPE_2D_ARRAY:
            stex_textureStore_2d_array(inv, 0, p->c[0], p->c[1], p->c[2], p->value);
            break;
        case SHAPE_3D: stex_textureStore_3d(inv, 0, p->c[0], p->c[1], p->c[2], p->value); break;
        }
        return;
    }
    stex_value v = {STEX_SCALAR_F32, {.u = {0, 0, 0, 0}}};
    if (p->sampled)
        v.v = stex_textureLoad_level_2d(inv, 0, p->c[0], p->c[1], p->c[2]);
    else
        switch (p->s) {
        case SHAPE_1D: v = stex_textureLoad_1d(inv, 0, p->c[0]); break;
        case SHAPE_2D: v = stex_textureLoad_2d(inv, 0, p->c[0], p->c[1]); break;
        case SHAPE_2D_ARRAY: v = stex_textureLoad_2d_array(inv, 0, p->c[0], p->c[1], p->c[2]); break;
        case SHAPE_3D: v = stex_textureLoad_3d(inv, 0, p->c[0], p->c[1], p->c[2]); break;
        }
    for (int i = 0; i < 4; i++)
        stex_buffer_store_u32(inv, 1, (uint64_t)i, v.v.u[i]);
}

static json_t *load_oob(void)
{
    json_error_t err;
    json_t *root = json_load_file(dt_data("lavapipe-oob.json"), 0, &err);
    if (!root)
        fail_msg("lavapipe-oob.json: %s (line %d)", err.text, err.line);
    return root;
}

static shape shape_of(const char *name, const char *wgsl)
{
    const char *s = wgsl ? wgsl : name;
    if (strstr(s, "2d-array") || strstr(s, "2d_array"))
        return SHAPE_2D_ARRAY;
    if (strstr(s, "3d"))
        return SHAPE_3D;
    if (strstr(s, "1d"))
        return SHAPE_1D;
    return SHAPE_2D;
}

static const stex_view_dimension view_dim[] = {STEX_VIEW_DIMENSION_1D, STEX_VIEW_DIMENSION_2D,
                                               STEX_VIEW_DIMENSION_2D_ARRAY, STEX_VIEW_DIMENSION_3D};

/* The harness's fills (peer/tests/oob.mjs prefill / loadFill). */
static void fill(uint8_t *data, stex_format f, uint32_t n, bool for_load)
{
    for (uint32_t t = 0; t < n; t++) {
        uint32_t w;
        switch (f) {
        case STEX_FORMAT_RGBA8UNORM:
            if (for_load) {
                const uint8_t b[4] = {(uint8_t)(t + 1), 0x40, 0x80, 0xc0};
                memcpy(data + t * 4, b, 4);
            } else {
                const uint8_t b[4] = {(uint8_t)t, 0x11, 0x22, 0x33};
                memcpy(data + t * 4, b, 4);
            }
            break;
        case STEX_FORMAT_R32FLOAT:
            w = dt_f2u((float)t + 0.5f);
            memcpy(data + t * 4, &w, 4);
            break;
        case STEX_FORMAT_RGBA32FLOAT:
            for (uint32_t c = 0; c < 4; c++) {
                w = dt_f2u((float)((c + 1) * 1000 + t) + 0.5f);
                memcpy(data + t * 16 + c * 4, &w, 4);
            }
            break;
        case STEX_FORMAT_RGBA32UINT:
            for (uint32_t c = 0; c < 4; c++) {
                w = ((c + 1) << 24) + t + 7;
                memcpy(data + t * 16 + c * 4, &w, 4);
            }
            break;
        default:
            w = 0x01000000u + t;
            memcpy(data + t * 4, &w, 4);
        }
    }
}

typedef struct rig {
    stex_device *dev;
    stex_texture *tex;
    stex_texture_view *view;
    stex_buffer *out;
    stex_pipeline *pipe;
    stex_bind_group *group;
    uint32_t w, h, d, bpp;
} rig;

static void rig_make(rig *r, stex_device *dev, const char *name, const char *wgsl, stex_format f,
                     json_t *size, stex_access access, bool sampled, bool for_load)
{
    memset(r, 0, sizeof *r);
    r->dev = dev;
    shape s = shape_of(name, wgsl);
    r->w = (uint32_t)json_integer_value(json_array_get(size, 0));
    r->h = json_array_size(size) > 1 ? (uint32_t)json_integer_value(json_array_get(size, 1)) : 1;
    r->d = json_array_size(size) > 2 ? (uint32_t)json_integer_value(json_array_get(size, 2)) : 1;
    r->bpp = stex_format_get(f)->bytes;
    stex_texture_dimension td = s == SHAPE_1D ? STEX_TEXTURE_DIMENSION_1D
                                : s == SHAPE_3D ? STEX_TEXTURE_DIMENSION_3D
                                                : STEX_TEXTURE_DIMENSION_2D;
    r->tex = dt_texture(dev, td, r->w, r->h, r->d, f, 1);
    uint8_t *data = malloc((size_t)r->w * r->h * r->d * r->bpp);
    fill(data, f, r->w * r->h * r->d, for_load);
    dt_upload(r->tex, data, r->w, r->h, r->d, r->bpp);
    free(data);
    stex_view_desc vd = {.dimension = view_dim[s]};
    r->view = dt_view(r->tex, &vd);
    r->out = dt_buffer(dev, 256, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e[2] = {dt_storage_entry(0, access, f, view_dim[s]),
                              dt_buffer_entry(1, STEX_BINDING_STORAGE_BUFFER)};
    if (sampled) {
        memset(&e[0], 0, sizeof e[0]);
        e[0].visibility = STEX_STAGE_COMPUTE;
        e[0].type = STEX_BINDING_TEXTURE;
    }
    stex_pipeline_desc pd = {.kernel = probe_kernel, .workgroup_size = {1, 1, 1}, .entries = e,
                             .entry_count = 2};
    DT_OK(stex_pipeline_create(dev, &pd, &r->pipe));
    stex_bind_group_entry be[2] = {{.binding = 0, .view = r->view}, {.binding = 1, .buffer = r->out}};
    DT_OK(stex_bind_group_create(r->pipe, be, 2, &r->group));
}

static void rig_free(rig *r)
{
    stex_bind_group_destroy(r->group);
    stex_pipeline_destroy(r->pipe);
    stex_buffer_destroy(r->out);
    stex_texture_view_destroy(r->view);
    stex_texture_destroy(r->tex);
}

static void coords_of(json_t *coord, int64_t c[3])
{
    c[0] = c[1] = c[2] = 0;
    for (size_t i = 0; i < json_array_size(coord) && i < 3; i++)
        c[i] = (int64_t)json_integer_value(json_array_get(coord, i));
}

static void hex_to_bytes(const char *hex, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned v = 0;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
}

/* The value each config stores (its "wgsl_value"). */
static stex_value store_value(stex_format f, const char *wgsl_value)
{
    if (f == STEX_FORMAT_RGBA8UNORM) {
        assert_string_equal(wgsl_value, "vec4<f32>(1.0, 0.0, 1.0, 1.0)");
        return stex_f32x4(1, 0, 1, 1);
    }
    if (f == STEX_FORMAT_R32FLOAT) {
        assert_string_equal(wgsl_value, "vec4<f32>(-7.0, 0.0, 0.0, 0.0)");
        return stex_f32x4(-7, 0, 0, 0);
    }
    assert_string_equal(wgsl_value, "vec4<u32>(0xdeadbeefu, 0u, 0u, 0u)");
    return stex_u32x4(0xdeadbeefu, 0, 0, 0);
}

static void test_oob_stores_match_lavapipe(void **state)
{
    (void)state;
    json_t *root = load_oob();
    stex_device *dev = dt_device();
    size_t idx, k, cases = 0;
    json_t *cfg, *c;
    json_array_foreach(json_object_get(root, "store"), idx, cfg) {
        const char *name = json_string_value(json_object_get(cfg, "name"));
        stex_format f = stex_format_from_name(json_string_value(json_object_get(cfg, "format")));
        stex_access a;
        assert_true(stex_access_from_name(json_string_value(json_object_get(cfg, "access")), &a));
        stex_value v = store_value(f, json_string_value(json_object_get(cfg, "wgsl_value")));
        json_array_foreach(json_object_get(cfg, "cases"), k, c) {
            rig r;
            rig_make(&r, dev, name, NULL, f, json_object_get(cfg, "texture"), a, false, false);
            probe p = {.s = shape_of(name, NULL), .store = true, .value = v};
            coords_of(json_object_get(c, "coord"), p.c);
            stex_dispatch_options o = {.params = &p, .threads = 1};
            DT_OK(stex_dispatch(r.pipe, r.group, 1, 1, 1, &o));
            size_t n = (size_t)r.w * r.h * r.d * r.bpp;
            uint8_t *got = dt_readback(r.tex, r.w, r.h, r.d, r.bpp);
            uint8_t *want = malloc(n);
            const char *hex = json_string_value(json_object_get(c, "readback_hex"));
            assert_int_equal(strlen(hex), 2 * n);
            hex_to_bytes(hex, want, n);
            for (size_t b = 0; b < n; b++)
                if (got[b] != want[b])
                    fail_msg("%s, textureStore at (%lld, %lld, %lld): byte %zu (texel %zu) is "
                             "%02x, lavapipe left %02x", name, (long long)p.c[0],
                             (long long)p.c[1], (long long)p.c[2], b, b / r.bpp, got[b], want[b]);
            free(got);
            free(want);
            rig_free(&r);
            cases++;
        }
    }
    assert_true(cases >= 100);
    dt_release(dev);
    json_decref(root);
}

static uint32_t hexword(json_t *s)
{
    return (uint32_t)strtoul(json_string_value(s), NULL, 16);
}

static void run_load(rig *r, probe *p, stex_oob_load policy, uint64_t seed, uint32_t out[4])
{
    stex_dispatch_options o = {.params = p, .threads = 1, .oob_load = policy, .seed = seed};
    DT_OK(stex_dispatch(r->pipe, r->group, 1, 1, 1, &o));
    memcpy(out, stex_buffer_data(r->out), 16);
}

static void test_oob_loads(void **state)
{
    (void)state;
    json_t *root = load_oob();
    stex_device *dev = dt_device();
    size_t idx, k, checked = 0, random_differs = 0;
    json_t *cfg, *c;
    json_array_foreach(json_object_get(root, "load"), idx, cfg) {
        const char *name = json_string_value(json_object_get(cfg, "name"));
        const char *wgsl = json_string_value(json_object_get(cfg, "wgsl"));
        stex_format f = stex_format_from_name(json_string_value(json_object_get(cfg, "format")));
        bool sampled = strstr(wgsl, "texture_2d<f32>") != NULL;
        stex_access a = strstr(wgsl, "read_write") ? STEX_ACCESS_READ_WRITE : STEX_ACCESS_READ_ONLY;
        rig r;
        rig_make(&r, dev, name, wgsl, f, json_object_get(cfg, "size"), a, sampled, true);
        stex_scalar_type scalar = stex_format_get(f)->scalar;
        /* every in-bounds texel's value: what RANDOM_TEXEL may return */
        size_t n = (size_t)r.w * r.h * r.d;
        uint32_t(*all)[4] = calloc(n, sizeof *all);
        for (size_t t = 0; t < n; t++) {
            probe p = {.s = shape_of(name, wgsl), .sampled = sampled,
                       .c = {(int64_t)(t % r.w), (int64_t)(t / r.w % r.h), (int64_t)(t / (r.w * r.h))}};
            run_load(&r, &p, STEX_OOB_LOAD_ZERO, 0, all[t]);
        }
        json_array_foreach(json_object_get(cfg, "cases"), k, c) {
            probe p = {.s = shape_of(name, wgsl), .sampled = sampled};
            coords_of(json_object_get(c, "coord"), p.c);
            uint32_t got[4];
            run_load(&r, &p, STEX_OOB_LOAD_ZERO, 0, got);
            json_t *bits = json_object_get(c, "value_bits");
            for (int i = 0; i < 4; i++)
                if (got[i] != hexword(json_array_get(bits, (size_t)i)))
                    fail_msg("%s, textureLoad(%lld, %lld, %lld) component %d: %08x, lavapipe %08x",
                             name, (long long)p.c[0], (long long)p.c[1], (long long)p.c[2], i,
                             got[i], hexword(json_array_get(bits, (size_t)i)));
            checked++;
            if (json_is_true(json_object_get(c, "control")))
                continue;
            /* ZERO_ALPHA_ONE: (0, 0, 0, 1) in the texel type */
            run_load(&r, &p, STEX_OOB_LOAD_ZERO_ALPHA_ONE, 0, got);
            uint32_t one = sampled || scalar == STEX_SCALAR_F32 ? 0x3f800000u : 1u;
            assert_int_equal(got[0], 0);
            assert_int_equal(got[1], 0);
            assert_int_equal(got[2], 0);
            assert_int_equal(got[3], one);
            /* RANDOM_TEXEL: some in-bounds texel, the same for the same seed */
            uint32_t r1[4], r2[4], r3[4];
            run_load(&r, &p, STEX_OOB_LOAD_RANDOM_TEXEL, 11, r1);
            run_load(&r, &p, STEX_OOB_LOAD_RANDOM_TEXEL, 11, r2);
            run_load(&r, &p, STEX_OOB_LOAD_RANDOM_TEXEL, 12, r3);
            assert_memory_equal(r1, r2, sizeof r1);
            bool member = false;
            for (size_t t = 0; t < n && !member; t++)
                member = memcmp(all[t], r1, sizeof r1) == 0;
            if (!member)
                fail_msg("%s: RANDOM_TEXEL load at (%lld, %lld, %lld) returned %08x %08x %08x "
                         "%08x, no texel holds that", name, (long long)p.c[0], (long long)p.c[1],
                         (long long)p.c[2], r1[0], r1[1], r1[2], r1[3]);
            random_differs += memcmp(r1, r3, sizeof r1) != 0;
        }
        free(all);
        rig_free(&r);
    }
    assert_true(checked >= 100);
    assert_true(random_differs > 0); /* the seed does choose */
    dt_release(dev);
    json_decref(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oob_stores_match_lavapipe),
        cmocka_unit_test(test_oob_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
