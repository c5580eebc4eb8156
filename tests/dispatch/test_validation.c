/* createComputePipeline, createBindGroup and dispatchWorkgroups validation:
 * each row breaks one WebGPU rule and must be refused with
 * STEX_VALIDATION_ERROR and a message naming it; the valid control next to
 * it must pass (so a row cannot pass by refusing everything). */
#include "dtest.h"

static void nop(const stex_invocation *inv) { (void)inv; }

typedef struct wg_case {
    uint32_t wg[3];
    uint32_t wg_memory;
    bool ok;
    const char *rule;
} wg_case;

static const wg_case wg_cases[] = {
    {{256, 1, 1}, 0, true, NULL},
    {{1, 256, 1}, 0, true, NULL},
    {{1, 1, 64}, 0, true, NULL},
    {{16, 16, 1}, 0, true, NULL},
    {{0, 0, 0}, 0, true, NULL}, /* 0 = 1 */
    {{257, 1, 1}, 0, false, "maxComputeWorkgroupSizeX"},
    {{1, 257, 1}, 0, false, "maxComputeWorkgroupSizeY"},
    {{1, 1, 65}, 0, false, "maxComputeWorkgroupSizeZ"},
    {{16, 16, 2}, 0, false, "maxComputeInvocationsPerWorkgroup"},
    {{128, 2, 2}, 0, false, "maxComputeInvocationsPerWorkgroup"},
    {{8, 8, 1}, 16384, true, NULL},
    {{8, 8, 1}, 16388, false, "maxComputeWorkgroupStorageSize"},
};

static void test_workgroup_size_limits(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    for (size_t i = 0; i < sizeof wg_cases / sizeof wg_cases[0]; i++) {
        const wg_case *c = &wg_cases[i];
        stex_pipeline_desc pd = {.kernel = nop, .workgroup_size = {c->wg[0], c->wg[1], c->wg[2]},
                                 .workgroup_memory_size = c->wg_memory};
        stex_pipeline *p = NULL;
        stex_status st = stex_pipeline_create(dev, &pd, &p);
        if (c->ok && st)
            fail_msg("@workgroup_size(%u, %u, %u): refused: %s", c->wg[0], c->wg[1], c->wg[2],
                     stex_last_error());
        if (!c->ok && (st != STEX_VALIDATION_ERROR || !strstr(stex_last_error(), c->rule)))
            fail_msg("@workgroup_size(%u, %u, %u) wg memory %u: status %s, message \"%s\", "
                     "expected a validation error naming %s", c->wg[0], c->wg[1], c->wg[2],
                     c->wg_memory, stex_status_name(st), stex_last_error(), c->rule);
        if (!c->ok)
            assert_null(p);
        stex_pipeline_destroy(p);
    }
    dt_release(dev);
}

static void test_layout_entries(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    struct {
        stex_layout_entry e[2];
        uint32_t n;
        bool ok;
        const char *rule;
    } cases[] = {
        {{dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0)}, 1, true, NULL},
        {{dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0),
          dt_storage_entry(0, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, 0)}, 2, false, "twice"},
        {{dt_storage_entry(0, STEX_ACCESS_READ_ONLY, STEX_FORMAT_BGRA8UNORM, 0)}, 1, false, ""},
        {{dt_storage_entry(0, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM,
                           STEX_VIEW_DIMENSION_CUBE)}, 1, false, ""},
        {{dt_storage_entry(0, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM_SRGB, 0)}, 1, false, ""},
        {{dt_buffer_entry(1000, STEX_BINDING_STORAGE_BUFFER)}, 1, false, "maxBindingsPerBindGroup"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_pipeline_desc pd = {.kernel = nop, .entries = cases[i].e, .entry_count = cases[i].n};
        stex_pipeline *p = NULL;
        stex_status st = stex_pipeline_create(dev, &pd, &p);
        if (cases[i].ok != (st == STEX_OK))
            fail_msg("layout case %zu: status %s (%s)", i, stex_status_name(st), stex_last_error());
        if (!cases[i].ok && (st != STEX_VALIDATION_ERROR || !strstr(stex_last_error(), cases[i].rule)))
            fail_msg("layout case %zu: %s \"%s\", expected a validation error naming \"%s\"", i,
                     stex_status_name(st), stex_last_error(), cases[i].rule);
        stex_pipeline_destroy(p);
    }
    /* visibility without COMPUTE */
    stex_layout_entry e = dt_storage_entry(0, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, 0);
    e.visibility = STEX_STAGE_FRAGMENT;
    stex_pipeline *p = NULL;
    stex_pipeline_desc pd = {.kernel = nop, .entries = &e, .entry_count = 1};
    assert_int_equal(stex_pipeline_create(dev, &pd, &p), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "COMPUTE"));
    dt_release(dev);
}

static void test_bind_groups(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_texture *tf = dt_texture(dev, 0, 8, 8, 1, STEX_FORMAT_R32FLOAT, 2);
    stex_texture *t8 = dt_texture(dev, 0, 8, 8, 1, STEX_FORMAT_RGBA8UNORM, 1);
    stex_texture_desc nd = {.size = {8, 8, 1}, .format = STEX_FORMAT_R32FLOAT,
                            .usage = STEX_USAGE_TEXTURE_BINDING};
    stex_texture *tn;
    DT_OK(stex_texture_create(dev, &nd, &tn));
    stex_view_desc mip0 = {.mip_level_count = 1};
    stex_texture_view *vf = dt_view(tf, &mip0), *vf2 = dt_view(tf, NULL), *v8 = dt_view(t8, NULL);
    stex_texture_view *vn = dt_view(tn, NULL);
    stex_buffer *sb = dt_buffer(dev, 1024, STEX_BUFFER_USAGE_STORAGE);
    stex_buffer *ub = dt_buffer(dev, 1024, STEX_BUFFER_USAGE_UNIFORM);
    stex_layout_entry e[2] = {dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0),
                              dt_buffer_entry(1, STEX_BINDING_STORAGE_BUFFER)};
    stex_pipeline_desc pd = {.kernel = nop, .entries = e, .entry_count = 2};
    stex_pipeline *p;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    struct {
        const char *what;
        stex_bind_group_entry be[3];
        uint32_t n;
        const char *rule; /* NULL: valid */
    } cases[] = {
        {"valid", {{.binding = 0, .view = vf}, {.binding = 1, .buffer = sb}}, 2, NULL},
        {"valid, buffer range", {{.binding = 0, .view = vf}, {.binding = 1, .buffer = sb,
                                  .offset = 256, .size = 512}}, 2, NULL},
        {"missing entry", {{.binding = 0, .view = vf}}, 1, "no entry"},
        {"extra entry", {{.binding = 0, .view = vf}, {.binding = 1, .buffer = sb},
                         {.binding = 2, .buffer = sb}}, 3, "not in"},
        {"duplicate", {{.binding = 0, .view = vf}, {.binding = 0, .view = vf}}, 2, "twice"},
        {"format differs", {{.binding = 0, .view = v8}, {.binding = 1, .buffer = sb}}, 2, ""},
        {"two mip levels", {{.binding = 0, .view = vf2}, {.binding = 1, .buffer = sb}}, 2, ""},
        {"no STORAGE_BINDING", {{.binding = 0, .view = vn}, {.binding = 1, .buffer = sb}}, 2, ""},
        {"buffer lacks STORAGE", {{.binding = 0, .view = vf}, {.binding = 1, .buffer = ub}}, 2,
         "STORAGE"},
        {"unaligned offset", {{.binding = 0, .view = vf}, {.binding = 1, .buffer = sb,
                              .offset = 4}}, 2, "minStorageBufferOffsetAlignment"},
        {"range past the end", {{.binding = 0, .view = vf}, {.binding = 1, .buffer = sb,
                                .offset = 512, .size = 1024}}, 2, "outside"},
        {"size not a multiple of 4", {{.binding = 0, .view = vf}, {.binding = 1, .buffer = sb,
                                      .size = 6}}, 2, "multiple of 4"},
        {"view where a buffer goes", {{.binding = 0, .view = vf}, {.binding = 1, .view = vf}}, 2,
         "GPUBuffer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_bind_group *g = NULL;
        stex_status st = stex_bind_group_create(p, cases[i].be, cases[i].n, &g);
        if (!cases[i].rule && st)
            fail_msg("%s: refused: %s", cases[i].what, stex_last_error());
        if (cases[i].rule && (st != STEX_VALIDATION_ERROR || !strstr(stex_last_error(), cases[i].rule)))
            fail_msg("%s: %s \"%s\", expected a validation error naming \"%s\"", cases[i].what,
                     stex_status_name(st), stex_last_error(), cases[i].rule);
        stex_bind_group_destroy(g);
    }
    stex_pipeline_destroy(p);
    stex_texture_view_destroy(vf);
    stex_texture_view_destroy(vf2);
    stex_texture_view_destroy(v8);
    stex_texture_view_destroy(vn);
    stex_texture_destroy(tf);
    stex_texture_destroy(t8);
    stex_texture_destroy(tn);
    stex_buffer_destroy(sb);
    stex_buffer_destroy(ub);
    dt_release(dev);
}

static void test_dispatch_counts_and_scope(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_texture *t = dt_texture(dev, 0, 8, 8, 1, STEX_FORMAT_R32FLOAT, 1);
    stex_texture_view *v = dt_view(t, NULL);
    stex_layout_entry e[2] = {dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0),
                              dt_storage_entry(1, STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32FLOAT, 0)};
    stex_pipeline_desc pd = {.kernel = nop, .entries = e, .entry_count = 1};
    stex_pipeline *p, *p2;
    stex_bind_group *g, *g2;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    DT_OK(stex_bind_group_create(p, (stex_bind_group_entry[]){{.binding = 0, .view = v}}, 1, &g));
    DT_OK(stex_dispatch(p, g, 65535, 1, 1, NULL));
    DT_OK(stex_dispatch(p, g, 0, 5, 5, NULL)); /* empty: nothing to run */
    const uint32_t bad[3][3] = {{65536, 1, 1}, {1, 65536, 1}, {1, 1, 70000}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(stex_dispatch(p, g, bad[i][0], bad[i][1], bad[i][2], NULL),
                         STEX_VALIDATION_ERROR);
        assert_non_null(strstr(stex_last_error(), "maxComputeWorkgroupsPerDimension"));
    }
    /* the same texture as read_write storage and as read-only storage: usage conflict */
    pd.entry_count = 2;
    DT_OK(stex_pipeline_create(dev, &pd, &p2));
    DT_OK(stex_bind_group_create(p2, (stex_bind_group_entry[]){{.binding = 0, .view = v},
                                                               {.binding = 1, .view = v}}, 2, &g2));
    assert_int_equal(stex_dispatch(p2, g2, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "usage scope"));
    /* sampled view of mips 0..1 and a storage view of mip 1: overlap; of mip 0 only: fine */
    stex_texture *tm = dt_texture(dev, 0, 8, 8, 1, STEX_FORMAT_R32FLOAT, 2);
    stex_view_desc m1 = {.base_mip_level = 1, .mip_level_count = 1}, m0 = {.mip_level_count = 1};
    stex_texture_view *vall = dt_view(tm, NULL), *v0 = dt_view(tm, &m0), *v1 = dt_view(tm, &m1);
    stex_layout_entry e3[2] = {dt_storage_entry(0, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, 0),
                               {.binding = 1, .visibility = STEX_STAGE_COMPUTE,
                                .type = STEX_BINDING_TEXTURE,
                                .texture_sample_type = STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT}};
    stex_pipeline_desc pd3 = {.kernel = nop, .entries = e3, .entry_count = 2};
    stex_pipeline *p3;
    DT_OK(stex_pipeline_create(dev, &pd3, &p3));
    stex_texture_view *sampled[2] = {vall, v0};
    for (int i = 0; i < 2; i++) {
        stex_bind_group *g3;
        DT_OK(stex_bind_group_create(p3, (stex_bind_group_entry[]){{.binding = 0, .view = v1},
                                     {.binding = 1, .view = sampled[i]}}, 2, &g3));
        stex_status st = stex_dispatch(p3, g3, 1, 1, 1, NULL);
        if (i == 0)
            assert_int_equal(st, STEX_VALIDATION_ERROR);
        else
            assert_int_equal(st, STEX_OK);
        stex_bind_group_destroy(g3);
    }
    stex_pipeline_destroy(p3);
    stex_texture_view_destroy(vall);
    stex_texture_view_destroy(v0);
    stex_texture_view_destroy(v1);
    stex_texture_destroy(tm);
    /* a bind group made for another pipeline */
    assert_int_equal(stex_dispatch(p, g2, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    stex_bind_group_destroy(g);
    stex_bind_group_destroy(g2);
    stex_pipeline_destroy(p);
    stex_pipeline_destroy(p2);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    dt_release(dev);
}

/* Explicit layouts (shared_layout): a bind group made for one pipeline's
 * group serves another shared pipeline whose group at the index used has
 * equal entries - at any index, defaults written out or left out alike -
 * and no pipeline whose entries there differ, nor an 'auto' one. */
static void test_shared_layouts(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_buffer *buf;
    DT_OK(stex_buffer_create(dev, &(stex_buffer_desc){.size = 256, .usage = STEX_BUFFER_USAGE_STORAGE}, &buf));
    const stex_layout_entry sb = {.binding = 1, .visibility = STEX_STAGE_COMPUTE,
                                  .type = STEX_BINDING_STORAGE_BUFFER};
    stex_layout_entry in_g0[1] = {sb}, in_g2[1] = {sb}, other[1] = {sb}, both[2] = {sb, sb};
    in_g2[0].group = 2;
    other[0].type = STEX_BINDING_READ_ONLY_STORAGE_BUFFER;
    both[1].group = 1, both[1].binding = 3;
    struct { const stex_layout_entry *e; uint32_t n; bool shared; } L[] = {
        {in_g0, 1, true}, {in_g2, 1, true}, {other, 1, true}, {in_g0, 1, false}, {both, 2, true}};
    stex_pipeline *p[5];
    for (int i = 0; i < 5; i++) {
        stex_pipeline_desc pd = {.kernel = nop, .entries = L[i].e, .entry_count = L[i].n,
                                 .shared_layout = L[i].shared};
        DT_OK(stex_pipeline_create(dev, &pd, &p[i]));
    }
    stex_bind_group *g;
    DT_OK(stex_bind_group_create(p[0], (stex_bind_group_entry[]){{.binding = 1, .buffer = buf}}, 1, &g));
    stex_bound_group at0[1] = {{g, NULL, 0}}, at2[3] = {{NULL, NULL, 0}, {NULL, NULL, 0}, {g, NULL, 0}};
    DT_OK(stex_dispatch_bound(p[0], at0, 1, 1, 1, 1, NULL));
    DT_OK(stex_dispatch_bound(p[1], at2, 3, 1, 1, 1, NULL)); /* the same entries at @group(2) */
    assert_int_equal(stex_dispatch_bound(p[2], at0, 1, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "another pipeline's layout"));
    /* the encoder's check: the same verdicts, counts included */
    DT_OK(stex_check_dispatch(p[1], at2, 3, 1, 1, 1));
    assert_int_equal(stex_check_dispatch(p[2], at0, 1, 1, 1, 1), STEX_VALIDATION_ERROR);
    assert_int_equal(stex_check_dispatch(p[0], at0, 1, 70000, 1, 1), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxComputeWorkgroupsPerDimension"));
    assert_int_equal(stex_dispatch_bound(p[3], at0, 1, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_int_equal(stex_dispatch(p[3], g, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    /* p[4]: group 0 equal, group 1 needs a group of its own */
    stex_bind_group *g1;
    DT_OK(stex_bind_group_create_in_group(p[4], 1, (stex_bind_group_entry[]){{.binding = 3, .buffer = buf}}, 1, &g1));
    stex_bound_group two[2] = {{g, NULL, 0}, {g1, NULL, 0}}, swapped[2] = {{g1, NULL, 0}, {g, NULL, 0}};
    DT_OK(stex_dispatch_bound(p[4], two, 2, 1, 1, 1, NULL));
    assert_int_equal(stex_dispatch_bound(p[4], swapped, 2, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    stex_bind_group_destroy(g1);
    stex_bind_group_destroy(g);
    for (int i = 0; i < 5; i++)
        stex_pipeline_destroy(p[i]);
    stex_buffer_destroy(buf);
    dt_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workgroup_size_limits),
        cmocka_unit_test(test_layout_entries),
        cmocka_unit_test(test_bind_groups),
        cmocka_unit_test(test_dispatch_counts_and_scope),
        cmocka_unit_test(test_shared_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
