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
    /* p[4]: group 0 equal, group 1 needs a group of its own (of another
     * buffer: two writable bindings of one range alias) */
    stex_bind_group *g1;
    stex_buffer *buf2;
    DT_OK(stex_buffer_create(dev, &(stex_buffer_desc){.size = 256, .usage = STEX_BUFFER_USAGE_STORAGE}, &buf2));
    DT_OK(stex_bind_group_create_in_group(p[4], 1, (stex_bind_group_entry[]){{.binding = 3, .buffer = buf2}}, 1, &g1));
    stex_bound_group two[2] = {{g, NULL, 0}, {g1, NULL, 0}}, swapped[2] = {{g1, NULL, 0}, {g, NULL, 0}};
    DT_OK(stex_dispatch_bound(p[4], two, 2, 1, 1, 1, NULL));
    assert_int_equal(stex_dispatch_bound(p[4], swapped, 2, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    stex_bind_group_destroy(g1);
    stex_bind_group_destroy(g);
    for (int i = 0; i < 5; i++)
        stex_pipeline_destroy(p[i]);
    stex_buffer_destroy(buf2);
    stex_buffer_destroy(buf);
    dt_release(dev);
}

/* n entries of one kind from binding `first` on, visible to `vis`. */
static uint32_t add_entries(stex_layout_entry *e, uint32_t at, uint32_t n, stex_binding_type t,
                            uint32_t vis)
{
    for (uint32_t i = 0; i < n; i++, at++) {
        if (t == STEX_BINDING_STORAGE_TEXTURE)
            e[at] = dt_storage_entry(at, STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32FLOAT, 0);
        else if (t == STEX_BINDING_TEXTURE || t == STEX_BINDING_SAMPLER)
            e[at] = (stex_layout_entry){.binding = at, .type = t};
        else
            e[at] = dt_buffer_entry(at, t);
        e[at].visibility = vis;
    }
    return at;
}

typedef struct slot_case {
    stex_binding_type t;
    uint32_t compute, fragment, both, vertex; /* entries visible to C, F, C|F, V */
    const char *limit;                        /* NULL: valid */
} slot_case;

/* WebGPU's "exceeds the binding slot limits" counts per shader stage: an
 * entry visible to COMPUTE|FRAGMENT uses a slot in each, one visible to
 * FRAGMENT alone none of COMPUTE's (default limits: 4 storage textures,
 * 8 storage buffers, 16 sampled textures, 16 samplers, 12 uniform buffers
 * per stage; 8 / 4 storage buffers / textures in the vertex and fragment
 * stages). */
static const slot_case slot_cases[] = {
    {STEX_BINDING_STORAGE_TEXTURE, 4, 4, 0, 0, NULL},
    {STEX_BINDING_STORAGE_TEXTURE, 2, 2, 2, 0, NULL},
    {STEX_BINDING_STORAGE_TEXTURE, 3, 0, 2, 0, "maxStorageTexturesPerShaderStage"},
    {STEX_BINDING_STORAGE_TEXTURE, 0, 3, 2, 0, "maxStorageTexturesInFragmentStage"},
    {STEX_BINDING_STORAGE_TEXTURE, 4, 0, 0, 5, "maxStorageTexturesInVertexStage"},
    {STEX_BINDING_READ_ONLY_STORAGE_BUFFER, 8, 8, 0, 0, NULL},
    {STEX_BINDING_STORAGE_BUFFER, 5, 0, 4, 0, "maxStorageBuffersPerShaderStage"},
    {STEX_BINDING_STORAGE_BUFFER, 0, 5, 4, 0, "maxStorageBuffersInFragmentStage"},
    {STEX_BINDING_READ_ONLY_STORAGE_BUFFER, 8, 0, 0, 9, "maxStorageBuffersInVertexStage"},
    {STEX_BINDING_TEXTURE, 16, 16, 0, 16, NULL},
    {STEX_BINDING_TEXTURE, 10, 0, 7, 0, "maxSampledTexturesPerShaderStage"},
    {STEX_BINDING_SAMPLER, 8, 8, 8, 0, NULL},
    {STEX_BINDING_SAMPLER, 0, 9, 8, 0, "maxSamplersPerShaderStage"},
    {STEX_BINDING_UNIFORM_BUFFER, 12, 12, 0, 12, NULL},
    {STEX_BINDING_UNIFORM_BUFFER, 0, 0, 6, 7, NULL},
    {STEX_BINDING_UNIFORM_BUFFER, 6, 0, 7, 0, "maxUniformBuffersPerShaderStage"},
};

static void test_binding_slot_limits_per_stage(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    const stex_limits *l = stex_device_limits(dev);
    assert_int_equal(l->max_storage_buffers_in_vertex_stage, 8);
    assert_int_equal(l->max_storage_buffers_in_fragment_stage, 8);
    assert_int_equal(l->max_storage_textures_in_vertex_stage, 4);
    assert_int_equal(l->max_storage_textures_in_fragment_stage, 4);
    for (size_t i = 0; i < sizeof slot_cases / sizeof *slot_cases; i++) {
        const slot_case *c = &slot_cases[i];
        stex_layout_entry e[64];
        uint32_t n = add_entries(e, 0, c->compute, c->t, STEX_STAGE_COMPUTE);
        n = add_entries(e, n, c->fragment, c->t, STEX_STAGE_FRAGMENT);
        n = add_entries(e, n, c->both, c->t, STEX_STAGE_COMPUTE | STEX_STAGE_FRAGMENT);
        n = add_entries(e, n, c->vertex, c->t, STEX_STAGE_VERTEX);
        /* an explicit layout may have entries the compute stage never sees */
        stex_pipeline_desc pd = {.kernel = nop, .entries = e, .entry_count = n,
                                 .shared_layout = true};
        stex_pipeline *p = NULL;
        stex_clear_error();
        stex_status st = stex_pipeline_create(dev, &pd, &p);
        if (!c->limit) {
            if (st)
                fail_msg("case %zu: %s", i, stex_last_error());
            stex_pipeline_destroy(p);
            continue;
        }
        if (st != STEX_VALIDATION_ERROR || !strstr(stex_last_error(), c->limit))
            fail_msg("case %zu: want %s, got %s: %s", i, c->limit, stex_status_name(st),
                     stex_last_error());
    }
    dt_release(dev);
}

/* The vertex and fragment storage limits are requestable; a core device
 * has them equal to the all-stages ones (WebGPU's "a new device" steps). */
static void test_stage_storage_limits(void **state)
{
    (void)state;
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.limits = (stex_limits){0};
    ad.limits.max_storage_buffers_per_shader_stage = 10;
    ad.limits.max_storage_textures_in_fragment_stage = 6;
    stex_adapter *a;
    stex_device *d;
    DT_OK(stex_adapter_create(&ad, &a));
    const stex_limits *al = stex_adapter_limits(a);
    assert_int_equal(al->max_storage_buffers_in_fragment_stage, 10);
    assert_int_equal(al->max_storage_buffers_in_vertex_stage, 10);
    assert_int_equal(al->max_storage_textures_per_shader_stage, 6);
    assert_int_equal(al->max_storage_textures_in_vertex_stage, 6);
    stex_device_desc dd = {0};
    dd.required_limits.max_storage_buffers_in_fragment_stage = 11; /* better than the adapter's */
    assert_int_equal(stex_device_create(a, &dd, &d), STEX_TYPE_ERROR);
    assert_non_null(strstr(stex_last_error(), "max_storage_buffers_in_fragment_stage"));
    dd.required_limits.max_storage_buffers_in_fragment_stage = 9;
    dd.required_limits.max_storage_textures_in_vertex_stage = 5;
    DT_OK(stex_device_create(a, &dd, &d));
    const stex_limits *l = stex_device_limits(d);
    assert_int_equal(l->max_storage_buffers_per_shader_stage, 9);
    assert_int_equal(l->max_storage_buffers_in_vertex_stage, 9);
    assert_int_equal(l->max_storage_buffers_in_fragment_stage, 9);
    assert_int_equal(l->max_storage_textures_per_shader_stage, 5);
    assert_int_equal(l->max_storage_textures_in_fragment_stage, 5);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* Expects stex_check_dispatch (what finish() checks) and stex_dispatch_bound
 * to agree: OK, or a validation error whose message has `rule`. */
static void expect_scope(const stex_pipeline *p, const stex_bound_group *set, uint32_t n,
                         const char *rule)
{
    for (int run = 0; run < 2; run++) {
        stex_clear_error();
        stex_status st = run ? stex_dispatch_bound(p, set, n, 1, 1, 1, NULL)
                             : stex_check_dispatch(p, set, n, 1, 1, 1);
        if (!rule && st)
            fail_msg("%s: %s", run ? "dispatch" : "check", stex_last_error());
        if (rule && (st != STEX_VALIDATION_ERROR || !strstr(stex_last_error(), rule)))
            fail_msg("%s: want \"%s\", got %s: %s", run ? "dispatch" : "check", rule,
                     stex_status_name(st), stex_last_error());
    }
}

/* WebGPU's "Encoder bind groups alias a writable resource" (checked by
 * dispatchWorkgroups' validation, so reported at finish()): two writable
 * storage bindings of overlapping ranges of one buffer, or of one texture
 * subresource, are refused; disjoint ranges are the usage scope storage
 * exception.  Dawn refuses the same ("Writable storage buffer binding
 * aliasing found"). */
static void test_writable_aliasing(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_buffer *b = dt_buffer(dev, 1024, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e[2] = {dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER),
                              dt_buffer_entry(1, STEX_BINDING_STORAGE_BUFFER)};
    e[1].buffer.has_dynamic_offset = true;
    stex_pipeline_desc pd = {.kernel = nop, .entries = e, .entry_count = 2};
    stex_pipeline *p;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    stex_bind_group *g;
    DT_OK(stex_bind_group_create(p, (stex_bind_group_entry[]){
        {.binding = 0, .buffer = b, .offset = 0, .size = 512},
        {.binding = 1, .buffer = b, .offset = 0, .size = 256}}, 2, &g));
    const char *alias = "alias a writable resource";
    const uint32_t offsets[] = {0, 256, 512, 768};
    const char *want[] = {alias, alias, NULL, NULL}; /* [0, 512) against [off, off + 256) */
    for (int i = 0; i < 4; i++) {
        stex_bound_group set = {g, &offsets[i], 1};
        expect_scope(p, &set, 1, want[i]);
    }
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);

    /* dispatchWorkgroupsIndirect's buffer is "input" in the same usage scope:
     * no writable binding of it, whatever the ranges (the CTS's
     * buffer_usage_in_one_compute_pass_with_one_dispatch, usage1 indirect) */
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    DT_OK(stex_bind_group_create(p, (stex_bind_group_entry[]){
        {.binding = 0, .buffer = b, .offset = 0, .size = 256},
        {.binding = 1, .buffer = b, .offset = 256, .size = 256}}, 2, &g));
    stex_buffer *ind = dt_buffer(dev, 16, STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_INDIRECT);
    stex_bound_group one = {g, &offsets[0], 1};
    assert_int_equal(stex_check_dispatch_indirect(p, &one, 1, b), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "indirect buffer"));
    DT_OK(stex_check_dispatch_indirect(p, &one, 1, ind));
    stex_buffer_destroy(ind);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);

    /* writable and read-only storage of one buffer: the usage scope, any ranges */
    e[1] = dt_buffer_entry(1, STEX_BINDING_READ_ONLY_STORAGE_BUFFER);
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    DT_OK(stex_bind_group_create(p, (stex_bind_group_entry[]){
        {.binding = 0, .buffer = b, .offset = 0, .size = 256},
        {.binding = 1, .buffer = b, .offset = 512, .size = 256}}, 2, &g));
    expect_scope(p, &(stex_bound_group){g, NULL, 0}, 1, "usage scope");
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);

    /* two write-only storage textures: one subresource refused, two mips fine */
    stex_texture *t = dt_texture(dev, 0, 8, 8, 1, STEX_FORMAT_R32FLOAT, 2);
    stex_view_desc m0 = {.mip_level_count = 1}, m1 = {.base_mip_level = 1, .mip_level_count = 1};
    stex_texture_view *v0 = dt_view(t, &m0), *v0b = dt_view(t, &m0), *v1 = dt_view(t, &m1);
    stex_layout_entry te[2] = {dt_storage_entry(0, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, 0),
                               dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0)};
    te[1].group = 1;
    stex_pipeline_desc tpd = {.kernel = nop, .entries = te, .entry_count = 2};
    DT_OK(stex_pipeline_create(dev, &tpd, &p));
    stex_texture_view *second[2] = {v0b, v1};
    for (int i = 0; i < 2; i++) {
        stex_bind_group *g0, *g1;
        DT_OK(stex_bind_group_create_in_group(p, 0, &(stex_bind_group_entry){.binding = 0, .view = v0},
                                              1, &g0));
        DT_OK(stex_bind_group_create_in_group(p, 1, &(stex_bind_group_entry){.binding = 0,
                                              .view = second[i]}, 1, &g1));
        stex_bound_group set[2] = {{g0, NULL, 0}, {g1, NULL, 0}};
        expect_scope(p, set, 2, i ? NULL : alias);
        stex_bind_group_destroy(g0);
        stex_bind_group_destroy(g1);
    }
    stex_pipeline_destroy(p);
    stex_texture_view_destroy(v0);
    stex_texture_view_destroy(v0b);
    stex_texture_view_destroy(v1);
    stex_texture_destroy(t);
    stex_buffer_destroy(b);
    dt_release(dev);
}

/* An 'auto' layout whose @group(2) and @group(3) have equal entries: a bind
 * group made for either serves at both indices of that pipeline (Dawn
 * makes one layout of them; the CTS's default_bind_group_layouts_never_match,
 * compute_pass, swap=true), never another 'auto' pipeline's. */
static void test_auto_equal_groups(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_layout_entry e[2] = {dt_buffer_entry(0, STEX_BINDING_UNIFORM_BUFFER),
                              dt_buffer_entry(0, STEX_BINDING_UNIFORM_BUFFER)};
    e[0].group = 2, e[1].group = 3;
    stex_pipeline_desc pd = {.kernel = nop, .entries = e, .entry_count = 2};
    stex_pipeline *p, *q;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    DT_OK(stex_pipeline_create(dev, &pd, &q));
    stex_buffer *u = dt_buffer(dev, 16, STEX_BUFFER_USAGE_UNIFORM);
    stex_bind_group *g2, *g3;
    stex_bind_group_entry be = {.binding = 0, .buffer = u};
    DT_OK(stex_bind_group_create_in_group(p, 2, &be, 1, &g2));
    DT_OK(stex_bind_group_create_in_group(p, 3, &be, 1, &g3));
    stex_bound_group swapped[4] = {{NULL, NULL, 0}, {NULL, NULL, 0}, {g3, NULL, 0}, {g2, NULL, 0}};
    DT_OK(stex_check_dispatch(p, swapped, 4, 1, 1, 1));
    DT_OK(stex_dispatch_bound(p, swapped, 4, 1, 1, 1, NULL));
    assert_int_equal(stex_check_dispatch(q, swapped, 4, 1, 1, 1), STEX_VALIDATION_ERROR);
    stex_bind_group_destroy(g2);
    stex_bind_group_destroy(g3);
    stex_buffer_destroy(u);
    stex_pipeline_destroy(q);
    stex_pipeline_destroy(p);
    dt_release(dev);
}

/* createBindGroupLayout: visibility has only GPUShaderStage bits, and an
 * entry VERTEX sees is no writable storage buffer (the spec's
 * createBindGroupLayout rules; the CTS's createBindGroupLayout visibility
 * and visibility,VERTEX_shader_stage_buffer_type). */
static void test_vertex_visibility(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    static const struct { stex_binding_type t; uint32_t vis; bool ok; } cases[] = {
        {STEX_BINDING_STORAGE_BUFFER, STEX_STAGE_VERTEX, false},
        {STEX_BINDING_STORAGE_BUFFER, STEX_STAGE_VERTEX | STEX_STAGE_COMPUTE, false},
        {STEX_BINDING_STORAGE_BUFFER, STEX_STAGE_FRAGMENT | STEX_STAGE_COMPUTE, true},
        {STEX_BINDING_READ_ONLY_STORAGE_BUFFER, STEX_STAGE_VERTEX, true},
        {STEX_BINDING_UNIFORM_BUFFER, STEX_STAGE_VERTEX, true},
        {STEX_BINDING_UNIFORM_BUFFER, 8, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stex_layout_entry e = dt_buffer_entry(0, cases[i].t);
        e.visibility = cases[i].vis;
        stex_pipeline_desc pd = {.kernel = nop, .entries = &e, .entry_count = 1,
                                 .shared_layout = true};
        stex_pipeline *p = NULL;
        stex_status st = stex_pipeline_create(dev, &pd, &p);
        if (cases[i].ok != (st == STEX_OK))
            fail_msg("case %zu: %s", i, st ? stex_last_error() : "accepted");
        if (!cases[i].ok)
            assert_int_equal(st, STEX_VALIDATION_ERROR);
        stex_pipeline_destroy(p);
    }
    dt_release(dev);
}

/* createBindGroup: each resource must be "valid to use with" the device
 * (the CTS's binding_resources,device_mismatch and sampler,device_mismatch),
 * and a buffer range given as size 0 is empty (buffer_offset_and_size_for_
 * bind_groups_match: "resides inside the buffer and has non-zero size"). */
static void test_bind_group_resources(void **state)
{
    (void)state;
    stex_device *dev = dt_device(), *other = dt_device();
    stex_buffer *mine = dt_buffer(dev, 256, STEX_BUFFER_USAGE_STORAGE);
    stex_buffer *theirs = dt_buffer(other, 256, STEX_BUFFER_USAGE_STORAGE);
    stex_sampler *s = NULL;
    DT_OK(stex_sampler_create(other, &(stex_sampler_desc){0}, &s));
    stex_layout_entry e[2] = {dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER),
                              {.binding = 1, .visibility = STEX_STAGE_COMPUTE,
                               .type = STEX_BINDING_SAMPLER}};
    stex_pipeline_desc pd = {.kernel = nop, .entries = e, .entry_count = 1};
    stex_pipeline *p, *ps;
    stex_bind_group *g = NULL;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    assert_int_equal(stex_bind_group_create(p, &(stex_bind_group_entry){.binding = 0, .buffer = theirs},
                                            1, &g), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "another device"));
    assert_int_equal(stex_bind_group_create(p, &(stex_bind_group_entry){.binding = 0, .buffer = mine,
                                            .size = STEX_BINDING_SIZE_ZERO}, 1, &g),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "empty"));
    DT_OK(stex_bind_group_create(p, &(stex_bind_group_entry){.binding = 0, .buffer = mine}, 1, &g));
    stex_bind_group_destroy(g);
    pd.entries = &e[1];
    DT_OK(stex_pipeline_create(dev, &pd, &ps));
    assert_int_equal(stex_bind_group_create(ps, &(stex_bind_group_entry){.binding = 1, .sampler = s},
                                            1, &g), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "another device"));
    stex_pipeline_destroy(ps);
    stex_pipeline_destroy(p);
    stex_sampler_destroy(s);
    stex_buffer_destroy(theirs);
    stex_buffer_destroy(mine);
    dt_release(other);
    dt_release(dev);
}

/* GPUBuffer.destroy() and GPUTexture.destroy() as stex_*_discard: the memory
 * goes, the object stays for validation.  WebGPU lets createView and
 * createBindGroup take a destroyed resource (the CTS's createBindGroup
 * buffer,resource_state and texture,resource_state; Dawn agrees) and
 * encoding check it; the queue refuses it, so every operation that moves
 * bytes fails here. */
static void test_destroyed_resources(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_buffer *b = dt_buffer(dev, 256, STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST |
                                         STEX_BUFFER_USAGE_COPY_SRC);
    stex_buffer *other = dt_buffer(dev, 256, STEX_BUFFER_USAGE_COPY_DST);
    stex_texture *t = dt_texture(dev, 0, 8, 8, 1, STEX_FORMAT_R32FLOAT, 1);
    assert_false(stex_buffer_discarded(b));
    stex_buffer_discard(b);
    stex_buffer_discard(b); /* twice is nothing */
    stex_texture_discard(t);
    assert_true(stex_buffer_discarded(b) && stex_texture_discarded(t));
    assert_null(stex_buffer_data(b));
    stex_texture_view *v = dt_view(t, NULL);
    stex_layout_entry e[2] = {dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER),
                              dt_storage_entry(1, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, 0)};
    stex_pipeline_desc pd = {.kernel = nop, .entries = e, .entry_count = 2};
    stex_pipeline *p;
    stex_bind_group *g;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    DT_OK(stex_bind_group_create(p, (stex_bind_group_entry[]){{.binding = 0, .buffer = b},
                                                              {.binding = 1, .view = v}}, 2, &g));
    stex_bound_group set = {g, NULL, 0};
    DT_OK(stex_check_dispatch(p, &set, 1, 1, 1, 1));
    assert_int_equal(stex_dispatch(p, g, 1, 1, 1, NULL), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "destroyed"));
    uint32_t word = 7;
    assert_int_equal(stex_queue_write_buffer(b, 0, &word, 4), STEX_VALIDATION_ERROR);
    assert_false(stex_buffer_write_u32(b, 0, 7));
    DT_OK(stex_check_copy_buffer_to_buffer(b, 0, other, 0, 16));
    assert_int_equal(stex_copy_buffer_to_buffer(b, 0, other, 0, 16), STEX_VALIDATION_ERROR);
    assert_int_equal(stex_clear_buffer(b, 0, 16), STEX_VALIDATION_ERROR);
    stex_copy_texture ct = {.texture = t};
    stex_copy_layout cl = {.bytes_per_row = 256};
    assert_int_equal(stex_queue_write_texture(&ct, (uint8_t[256]){0}, 256, &cl, (stex_extent3d){8, 1, 1}),
                     STEX_VALIDATION_ERROR);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    stex_buffer_destroy(other);
    stex_buffer_destroy(b);
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
        cmocka_unit_test(test_binding_slot_limits_per_stage),
        cmocka_unit_test(test_stage_storage_limits),
        cmocka_unit_test(test_writable_aliasing),
        cmocka_unit_test(test_destroyed_resources),
        cmocka_unit_test(test_vertex_visibility),
        cmocka_unit_test(test_bind_group_resources),
        cmocka_unit_test(test_auto_equal_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
