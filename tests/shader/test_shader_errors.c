/* Calls WGSL rejects at shader creation: each one must do nothing (the
 * texture keeps its bytes), make the dispatch return STEX_SHADER_ERROR and
 * name the rule.  One table row per rule. */
#include "../dispatch/dtest.h"

static void k_store_wrong_type(const stex_invocation *inv)   /* u32 into r32float */
{
    stex_textureStore_2d(inv, 0, 1, 1, stex_u32x4(7, 0, 0, 0));
}
static void k_store_i32_into_uint(const stex_invocation *inv) /* i32 into r32uint */
{
    stex_textureStore_2d(inv, 1, 1, 1, stex_i32x4(7, 0, 0, 0));
}
static void k_load_write_only(const stex_invocation *inv)
{
    stex_value v = stex_textureLoad_2d(inv, 2, 0, 0);
    stex_textureStore_2d(inv, 2, 0, 0, v);
}
static void k_store_read_only(const stex_invocation *inv)
{
    stex_textureStore_2d(inv, 3, 0, 0, stex_f32x4(1, 1, 1, 1));
}
static void k_store_wrong_dim(const stex_invocation *inv)   /* 3d overload on a 2d texture */
{
    stex_textureStore_3d(inv, 0, 0, 0, 0, stex_f32x4(1, 0, 0, 0));
}
static void k_load_wrong_dim(const stex_invocation *inv)
{
    (void)stex_textureLoad_1d(inv, 0, 0);
}
static void k_numlayers_2d(const stex_invocation *inv)
{
    stex_buffer_store_u32(inv, 4, 0, stex_textureNumLayers(inv, 0));
}
static void k_dims_3d_on_2d(const stex_invocation *inv)
{
    stex_buffer_store_u32(inv, 4, 0, stex_textureDimensions_3d(inv, 0).x);
}
static void k_unbound(const stex_invocation *inv)
{
    stex_textureStore_2d(inv, 9, 0, 0, stex_f32x4(1, 0, 0, 0));
}
static void k_buffer_store_read_only(const stex_invocation *inv)
{
    stex_buffer_store_u32(inv, 5, 0, 1);
}
static void k_atomic_on_read_only(const stex_invocation *inv)
{
    stex_atomicAdd(inv, 5, 0, 1);
}
static void k_barrier_without_flag(const stex_invocation *inv)
{
    stex_workgroupBarrier(inv);
}

typedef struct err_case {
    const char *name;
    stex_kernel_fn kernel;
    const char *rule; /* a phrase the message must hold */
} err_case;

static const err_case cases[] = {
    {"vec4<u32> stored into r32float", k_store_wrong_type, "requires vec4<f32>"},
    {"vec4<i32> stored into r32uint", k_store_i32_into_uint, "requires vec4<u32>"},
    {"textureLoad on write-only", k_load_write_only, "write-only"},
    {"textureStore on read-only", k_store_read_only, "access write or read_write"},
    {"3d textureStore on a 2d binding", k_store_wrong_dim, "no textureStore overload"},
    {"1d textureLoad on a 2d binding", k_load_wrong_dim, "no textureLoad overload"},
    {"textureNumLayers on texture_storage_2d", k_numlayers_2d, "textureNumLayers"},
    {"vec3 textureDimensions on texture_storage_2d", k_dims_3d_on_2d, "textureDimensions"},
    {"binding not in the layout", k_unbound, "not bound"},
    {"store to var<storage, read>", k_buffer_store_read_only, "read_write"},
    {"atomicAdd on var<storage, read>", k_atomic_on_read_only, "atomic"},
    {"barrier in a pipeline without uses_barriers", k_barrier_without_flag, "uses_barriers"},
};

static void test_shader_errors(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    const uint32_t W = 4, H = 4;
    stex_texture *tf = dt_texture(dev, 0, W, H, 1, STEX_FORMAT_R32FLOAT, 1);
    stex_texture *tu = dt_texture(dev, 0, W, H, 1, STEX_FORMAT_R32UINT, 1);
    stex_texture *tw = dt_texture(dev, 0, W, H, 1, STEX_FORMAT_RGBA8UNORM, 1);
    stex_texture *tr = dt_texture(dev, 0, W, H, 1, STEX_FORMAT_RGBA8UNORM, 1);
    uint8_t init[4 * 4 * 4];
    for (size_t i = 0; i < sizeof init; i++)
        init[i] = (uint8_t)(i * 7 + 1);
    stex_texture *all[4] = {tf, tu, tw, tr};
    for (int i = 0; i < 4; i++)
        dt_upload(all[i], init, W, H, 1, 4);
    stex_texture_view *v[4];
    for (int i = 0; i < 4; i++)
        v[i] = dt_view(all[i], NULL);
    stex_buffer *out = dt_buffer(dev, 64, STEX_BUFFER_USAGE_STORAGE);
    stex_buffer *ro = dt_buffer(dev, 64, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e[6] = {
        dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0),
        dt_storage_entry(1, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32UINT, 0),
        dt_storage_entry(2, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM, 0),
        dt_storage_entry(3, STEX_ACCESS_READ_ONLY, STEX_FORMAT_RGBA8UNORM, 0),
        dt_buffer_entry(4, STEX_BINDING_STORAGE_BUFFER),
        dt_buffer_entry(5, STEX_BINDING_READ_ONLY_STORAGE_BUFFER),
    };
    stex_bind_group_entry be[6] = {{.binding = 0, .view = v[0]}, {.binding = 1, .view = v[1]},
                                   {.binding = 2, .view = v[2]}, {.binding = 3, .view = v[3]},
                                   {.binding = 4, .buffer = out}, {.binding = 5, .buffer = ro}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_pipeline_desc pd = {.kernel = cases[i].kernel, .workgroup_size = {2, 2, 1},
                                 .entries = e, .entry_count = 6};
        stex_pipeline *p;
        stex_bind_group *g;
        DT_OK(stex_pipeline_create(dev, &pd, &p));
        DT_OK(stex_bind_group_create(p, be, 6, &g));
        for (int threads = 1; threads <= 2; threads++) {
            stex_dispatch_options o = {.threads = threads, .schedule = STEX_SCHEDULE_SHUFFLED,
                                       .seed = 5};
            stex_status st = stex_dispatch(p, g, 2, 2, 1, &o);
            if (st != STEX_SHADER_ERROR)
                fail_msg("%s: status %s, expected a shader-creation error", cases[i].name,
                         stex_status_name(st));
            if (!strstr(stex_last_error(), cases[i].rule))
                fail_msg("%s: message \"%s\" does not name the rule (\"%s\")", cases[i].name,
                         stex_last_error(), cases[i].rule);
            /* the message names the smallest offending invocation, whatever the schedule */
            if (!strstr(stex_last_error(), "workgroup (0, 0, 0), local invocation (0, 0, 0)"))
                fail_msg("%s: message \"%s\" does not name invocation 0", cases[i].name,
                         stex_last_error());
        }
        for (int k = 0; k < 4; k++) {
            uint8_t *got = dt_readback(all[k], W, H, 1, 4);
            if (memcmp(got, init, sizeof init))
                fail_msg("%s: texture %d changed though the call was rejected", cases[i].name, k);
            free(got);
        }
        stex_bind_group_destroy(g);
        stex_pipeline_destroy(p);
    }
    for (int i = 0; i < 4; i++) {
        stex_texture_view_destroy(v[i]);
        stex_texture_destroy(all[i]);
    }
    stex_buffer_destroy(out);
    stex_buffer_destroy(ro);
    dt_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_shader_errors)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
