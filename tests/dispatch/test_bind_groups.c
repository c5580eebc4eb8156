/*
 * Bind groups 0..3 and uniform buffers, against WebGPU's rules:
 * - a kernel reads and writes bindings of @group(1), (2) and (3) by
 *   STEX_BINDING(group, binding), every way a dispatch runs (threads, race
 *   detection), with results computed here from the inputs;
 * - createPipelineLayout / createBindGroup / setBindGroup refuse what WebGPU
 *   refuses (maxBindGroups, a missing group, a group made for another index,
 *   offset alignment, minBindingSize, maxUniformBufferBindingSize, dynamic
 *   offsets: count, alignment, range), naming the rule;
 * - dynamic offsets select the range a dispatch sees;
 * - a race and a shader error on a far group name @group(g) @binding(b).
 */
#include "dtest.h"

enum { W = 37, H = 11 }; /* partial workgroups in x and y */

#define SCALE STEX_BINDING(1, 0)  /* var<uniform> scale : vec2<u32> (mul, add) */
#define SRC STEX_BINDING(2, 5)    /* var<storage, read> src : array<u32> */
#define DST STEX_BINDING(3, 1)    /* texture_storage_2d<r32uint, write> */

static void far_kernel(const stex_invocation *inv)
{
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    stex_uvec2 size = stex_textureDimensions_2d(inv, DST);
    if (x >= size.x || y >= size.y)
        return;
    uint32_t mul = stex_buffer_load_u32(inv, SCALE, 0), add = stex_buffer_load_u32(inv, SCALE, 1);
    uint32_t v = stex_buffer_load_u32(inv, SRC, (uint64_t)y * W + x) * mul + add;
    stex_textureStore_2d(inv, DST, x, y, stex_u32x4(v, 0, 0, 1));
}

typedef struct rig {
    stex_device *d;
    stex_pipeline *p;
    stex_buffer *scale, *src;
    stex_texture *dst;
    stex_texture_view *view;
    stex_bind_group *g1, *g2, *g3;
} rig;

static stex_layout_entry entry_in(uint32_t group, stex_layout_entry e)
{
    e.group = group;
    return e;
}

static void rig_make(rig *r, stex_kernel_fn kernel, bool dynamic)
{
    memset(r, 0, sizeof *r);
    r->d = dt_device();
    stex_layout_entry e[] = {
        entry_in(3, dt_storage_entry(1, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32UINT,
                                     STEX_VIEW_DIMENSION_2D)),
        entry_in(1, dt_buffer_entry(0, STEX_BINDING_UNIFORM_BUFFER)),
        entry_in(2, dt_buffer_entry(5, STEX_BINDING_READ_ONLY_STORAGE_BUFFER)),
    };
    e[1].buffer.min_binding_size = 8;
    e[1].buffer.has_dynamic_offset = dynamic;
    stex_pipeline_desc pd = {.kernel = kernel, .workgroup_size = {8, 4, 1}, .entries = e,
                             .entry_count = 3};
    DT_OK(stex_pipeline_create(r->d, &pd, &r->p));
    r->scale = dt_buffer(r->d, 512, STEX_BUFFER_USAGE_UNIFORM | STEX_BUFFER_USAGE_COPY_DST);
    const uint32_t s[2] = {3, 1000}, s2[2] = {5, 7};
    DT_OK(stex_queue_write_buffer(r->scale, 0, s, sizeof s));
    DT_OK(stex_queue_write_buffer(r->scale, 256, s2, sizeof s2)); /* for dynamic offset 256 */
    r->src = dt_buffer(r->d, W * H * 4, STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST);
    uint32_t in[W * H];
    for (uint32_t i = 0; i < W * H; i++)
        in[i] = i * 2654435761u;
    DT_OK(stex_queue_write_buffer(r->src, 0, in, sizeof in));
    r->dst = dt_texture(r->d, STEX_TEXTURE_DIMENSION_2D, W, H, 1, STEX_FORMAT_R32UINT, 1);
    r->view = dt_view(r->dst, NULL);
    stex_bind_group_entry b1 = {.binding = 0, .buffer = r->scale, .size = 8};
    stex_bind_group_entry b2 = {.binding = 5, .buffer = r->src};
    stex_bind_group_entry b3 = {.binding = 1, .view = r->view};
    DT_OK(stex_bind_group_create_in_group(r->p, 1, &b1, 1, &r->g1));
    DT_OK(stex_bind_group_create_in_group(r->p, 2, &b2, 1, &r->g2));
    DT_OK(stex_bind_group_create_in_group(r->p, 3, &b3, 1, &r->g3));
}

static void rig_free(rig *r)
{
    stex_bind_group_destroy(r->g1);
    stex_bind_group_destroy(r->g2);
    stex_bind_group_destroy(r->g3);
    stex_texture_view_destroy(r->view);
    stex_texture_destroy(r->dst);
    stex_buffer_destroy(r->scale);
    stex_buffer_destroy(r->src);
    stex_pipeline_destroy(r->p);
    dt_release(r->d);
}

static void check_output(const rig *r, uint32_t mul, uint32_t add)
{
    uint8_t *out = dt_readback(r->dst, W, H, 1, 4);
    for (uint32_t i = 0; i < W * H; i++) {
        uint32_t got;
        memcpy(&got, out + 4 * i, 4);
        if (got != i * 2654435761u * mul + add)
            fail_msg("texel %u: got %u, want %u", i, got, i * 2654435761u * mul + add);
    }
    free(out);
}

static void test_far_groups_every_way(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, far_kernel, false);
    stex_bound_group set[4] = {{NULL, NULL, 0}, {r.g1, NULL, 0}, {r.g2, NULL, 0}, {r.g3, NULL, 0}};
    for (int threads = 1; threads <= 2; threads++)
        for (int race = 0; race <= 1; race++) {
            stex_race_detector *rd = NULL;
            if (race)
                DT_OK(stex_race_detector_create(NULL, &rd));
            stex_dispatch_options o = {.threads = threads, .races = rd,
                                       .schedule = STEX_SCHEDULE_SHUFFLED, .seed = 9};
            DT_OK(stex_dispatch_bound(r.p, set, 4, (W + 7) / 8, (H + 3) / 4, 1, &o));
            check_output(&r, 3, 1000);
            if (rd) {
                assert_int_equal(stex_race_count(rd, STEX_RACE_ANY), 0);
                stex_race_detector_destroy(rd);
            }
        }
    rig_free(&r);
}

static void test_dynamic_offsets_select_the_range(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, far_kernel, true);
    uint32_t off = 256;
    stex_bound_group set[4] = {{NULL, NULL, 0}, {r.g1, &off, 1}, {r.g2, NULL, 0}, {r.g3, NULL, 0}};
    DT_OK(stex_dispatch_bound(r.p, set, 4, (W + 7) / 8, (H + 3) / 4, 1, NULL));
    check_output(&r, 5, 7);
    off = 0;
    DT_OK(stex_dispatch_bound(r.p, set, 4, (W + 7) / 8, (H + 3) / 4, 1, NULL));
    check_output(&r, 3, 1000);

    off = 100; /* not a multiple of minUniformBufferOffsetAlignment */
    assert_int_equal(stex_dispatch_bound(r.p, set, 4, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "minUniformBufferOffsetAlignment"));
    off = 512; /* 512 + 8 > the buffer's 512 bytes */
    assert_int_equal(stex_dispatch_bound(r.p, set, 4, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "outside the buffer"));
    set[1].dynamic_offset_count = 0;
    assert_int_equal(stex_dispatch_bound(r.p, set, 4, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "hasDynamicOffset"));
    rig_free(&r);
}

static void test_groups_must_be_set_as_the_layout_says(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, far_kernel, false);
    stex_bound_group set[4] = {{NULL, NULL, 0}, {r.g1, NULL, 0}, {NULL, NULL, 0}, {r.g3, NULL, 0}};
    assert_int_equal(stex_dispatch_bound(r.p, set, 4, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "@group(2)"));
    set[2].group = r.g3; /* made for @group(3) */
    assert_int_equal(stex_dispatch_bound(r.p, set, 4, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "index 2"));
    set[2].group = r.g2;
    stex_bound_group five[5] = {set[0], set[1], set[2], set[3], {NULL, NULL, 0}};
    assert_int_equal(stex_dispatch_bound(r.p, five, 5, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxBindGroups"));
    /* stex_dispatch sets only @group(0): this layout needs more */
    assert_int_equal(stex_dispatch(r.p, r.g1, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    /* a group the layout lacks has an empty bind group layout, as an 'auto'
     * layout's getBindGroupLayout(0) is on Dawn when the shader uses only
     * higher groups: an empty bind group is valid, set or not */
    stex_bind_group *g = NULL, *empty = NULL;
    DT_OK(stex_bind_group_create_in_group(r.p, 0, NULL, 0, &empty));
    set[0].group = empty;
    DT_OK(stex_dispatch_bound(r.p, set, 4, 1, 1, 1, NULL));
    DT_OK(stex_check_dispatch(r.p, set, 4, 1, 1, 1));
    stex_bind_group_destroy(empty);
    stex_bind_group_entry one = {.binding = 0, .buffer = r.src};
    assert_int_equal(stex_bind_group_create_in_group(r.p, 0, &one, 1, &g), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "not in the bind group layout"));
    assert_int_equal(stex_bind_group_create_in_group(r.p, 4, NULL, 0, &g), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxBindGroups"));
    rig_free(&r);
}

static void test_layout_and_buffer_rules(void **state)
{
    (void)state;
    stex_device *d = dt_device();
    stex_pipeline *p = NULL;
    stex_layout_entry e = entry_in(4, dt_buffer_entry(0, STEX_BINDING_UNIFORM_BUFFER));
    stex_pipeline_desc pd = {.kernel = far_kernel, .entries = &e, .entry_count = 1};
    assert_int_equal(stex_pipeline_create(d, &pd, &p), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxBindGroups"));

    /* 13 uniform buffers: maxUniformBuffersPerShaderStage is 12 */
    stex_layout_entry many[13];
    for (uint32_t i = 0; i < 13; i++)
        many[i] = entry_in(i % 4, dt_buffer_entry(i, STEX_BINDING_UNIFORM_BUFFER));
    pd.entries = many;
    pd.entry_count = 13;
    assert_int_equal(stex_pipeline_create(d, &pd, &p), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxUniformBuffersPerShaderStage"));

    /* the same binding number in two groups is two bindings */
    stex_layout_entry two[2] = {entry_in(0, dt_buffer_entry(0, STEX_BINDING_UNIFORM_BUFFER)),
                                entry_in(1, dt_buffer_entry(0, STEX_BINDING_UNIFORM_BUFFER))};
    two[0].buffer.min_binding_size = 16;
    pd.entries = two;
    pd.entry_count = 2;
    DT_OK(stex_pipeline_create(d, &pd, &p));
    stex_buffer *u = dt_buffer(d, 70000, STEX_BUFFER_USAGE_UNIFORM);
    stex_bind_group *g = NULL;
    stex_bind_group_entry be = {.binding = 0, .buffer = u, .offset = 128, .size = 16};
    assert_int_equal(stex_bind_group_create(p, &be, 1, &g), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "minUniformBufferOffsetAlignment"));
    be.offset = 256, be.size = 8;
    assert_int_equal(stex_bind_group_create(p, &be, 1, &g), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "minBindingSize"));
    be.offset = 0, be.size = 0; /* the whole 70000 bytes */
    assert_int_equal(stex_bind_group_create_in_group(p, 1, &be, 1, &g), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxUniformBufferBindingSize"));
    be.size = 65536;
    DT_OK(stex_bind_group_create_in_group(p, 1, &be, 1, &g));
    stex_bind_group_destroy(g);
    stex_buffer_destroy(u);
    stex_pipeline_destroy(p);
    dt_release(d);
}

/* A race between workgroups on @group(3) @binding(1): every invocation
 * stores to texel (0, 0). */
static void racy_kernel(const stex_invocation *inv)
{
    stex_textureStore_2d(inv, DST, 0, 0, stex_u32x4(inv->local_invocation_index, 0, 0, 1));
}

static void unbound_kernel(const stex_invocation *inv)
{
    (void)stex_buffer_load_u32(inv, STEX_BINDING(2, 9), 0);
}

static void uniform_store_kernel(const stex_invocation *inv)
{
    stex_buffer_store_u32(inv, SCALE, 0, 1);
}

static void uniform_length_kernel(const stex_invocation *inv)
{
    (void)stex_arrayLength(inv, SCALE, 4);
}

/* arrayLength of the runtime-sized array<u32> filling @group(2) @binding(5) */
static void length_kernel(const stex_invocation *inv)
{
    stex_textureStore_2d(inv, DST, 0, 0, stex_u32x4(stex_arrayLength(inv, SRC, 4), 0, 0, 1));
}

static void test_far_groups_named_in_races_and_errors(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, racy_kernel, false);
    stex_bound_group set[4] = {{NULL, NULL, 0}, {r.g1, NULL, 0}, {r.g2, NULL, 0}, {r.g3, NULL, 0}};
    stex_race_detector *rd = NULL;
    DT_OK(stex_race_detector_create(NULL, &rd));
    stex_dispatch_options o = {.races = rd, .threads = 2};
    DT_OK(stex_dispatch_bound(r.p, set, 4, 2, 1, 1, &o));
    assert_true(stex_race_count(rd, STEX_RACE_WRITE_WRITE) == 1);
    assert_int_equal(stex_race_get(rd, 0)->binding, DST);
    char text[4096] = {0};
    FILE *f = fmemopen(text, sizeof text - 1, "w");
    DT_OK(stex_race_report_text(rd, f));
    fclose(f);
    assert_non_null(strstr(text, "texture @group(3) @binding(1) texel (0, 0)"));
    stex_race_detector_destroy(rd);
    rig_free(&r);

    rig_make(&r, unbound_kernel, false);
    stex_bound_group set2[4] = {{NULL, NULL, 0}, {r.g1, NULL, 0}, {r.g2, NULL, 0}, {r.g3, NULL, 0}};
    assert_int_equal(stex_dispatch_bound(r.p, set2, 4, 1, 1, 1, NULL), STEX_SHADER_ERROR);
    assert_non_null(strstr(stex_last_error(), "@group(2) @binding(9)"));
    rig_free(&r);

    rig_make(&r, uniform_store_kernel, false);
    stex_bound_group set3[4] = {{NULL, NULL, 0}, {r.g1, NULL, 0}, {r.g2, NULL, 0}, {r.g3, NULL, 0}};
    assert_int_equal(stex_dispatch_bound(r.p, set3, 4, 1, 1, 1, NULL), STEX_SHADER_ERROR);
    assert_non_null(strstr(stex_last_error(), "@group(1) @binding(0), which is var<uniform>"));
    rig_free(&r);

    rig_make(&r, uniform_length_kernel, false);
    stex_bound_group set4[4] = {{NULL, NULL, 0}, {r.g1, NULL, 0}, {r.g2, NULL, 0}, {r.g3, NULL, 0}};
    assert_int_equal(stex_dispatch_bound(r.p, set4, 4, 1, 1, 1, NULL), STEX_SHADER_ERROR);
    assert_non_null(strstr(stex_last_error(), "runtime-sized arrays only in var<storage>"));
    rig_free(&r);

    rig_make(&r, length_kernel, false);
    stex_bound_group set5[4] = {{NULL, NULL, 0}, {r.g1, NULL, 0}, {r.g2, NULL, 0}, {r.g3, NULL, 0}};
    DT_OK(stex_dispatch_bound(r.p, set5, 4, 1, 1, 1, NULL));
    uint8_t *out = dt_readback(r.dst, W, H, 1, 4);
    uint32_t n;
    memcpy(&n, out, 4);
    assert_int_equal(n, W * H); /* the bound range's bytes / 4 */
    free(out);
    rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_groups_every_way),
        cmocka_unit_test(test_dynamic_offsets_select_the_range),
        cmocka_unit_test(test_groups_must_be_set_as_the_layout_says),
        cmocka_unit_test(test_layout_and_buffer_rules),
        cmocka_unit_test(test_far_groups_named_in_races_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
