/* createComputePipeline with an explicit layout: the kernel, its
 * @workgroup_size and its bind group layout entries, validated against the
 * device's limits and WebGPU's layout rules. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "dispatch/dispatch_internal.h"

const char *stex_sample_type_name(stex_texture_sample_type t)
{
    static const char *const names[] = {"float", "float", "unfilterable-float", "depth", "sint",
                                        "uint"};
    return (unsigned)t <= STEX_SAMPLE_TYPE_UINT ? names[t] : "?";
}

const char *stex_sampler_binding_type_name(stex_sampler_binding_type t)
{
    static const char *const names[] = {"filtering", "filtering", "non-filtering", "comparison"};
    return (unsigned)t <= STEX_SAMPLER_BINDING_COMPARISON ? names[t] : "?";
}

static const char *binding_type_name(stex_binding_type t)
{
    switch (t) {
    case STEX_BINDING_STORAGE_TEXTURE: return "storageTexture";
    case STEX_BINDING_TEXTURE: return "texture";
    case STEX_BINDING_SAMPLER: return "sampler";
    case STEX_BINDING_STORAGE_BUFFER: return "buffer (storage)";
    case STEX_BINDING_READ_ONLY_STORAGE_BUFFER: return "buffer (read-only-storage)";
    case STEX_BINDING_UNIFORM_BUFFER: return "buffer (uniform)";
    }
    return "?";
}

static int by_group_binding(const void *a, const void *b)
{
    const stex_layout_entry *x = a, *y = b;
    if (x->group != y->group)
        return (x->group > y->group) - (x->group < y->group);
    return (x->binding > y->binding) - (x->binding < y->binding);
}

static stex_status validate_workgroup_size(const stex_limits *l, const uint32_t wg[3])
{
    static const char axis[] = "xyz";
    const uint64_t max[3] = {l->max_compute_workgroup_size_x, l->max_compute_workgroup_size_y,
                             l->max_compute_workgroup_size_z};
    static const char *const limit[3] = {"maxComputeWorkgroupSizeX", "maxComputeWorkgroupSizeY",
                                         "maxComputeWorkgroupSizeZ"};
    for (int i = 0; i < 3; i++)
        if (wg[i] > max[i])
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createComputePipeline: @workgroup_size %c = %u exceeds %s (%llu)",
                             axis[i], wg[i], limit[i], (unsigned long long)max[i]);
    uint64_t total = (uint64_t)wg[0] * wg[1] * wg[2];
    if (total > l->max_compute_invocations_per_workgroup)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createComputePipeline: @workgroup_size(%u, %u, %u) has %llu invocations, "
                         "more than maxComputeInvocationsPerWorkgroup (%llu)",
                         wg[0], wg[1], wg[2], (unsigned long long)total,
                         (unsigned long long)l->max_compute_invocations_per_workgroup);
    return STEX_OK;
}

/* The per-stage limit on bindings of type t in shader stage `stage`
 * (0 vertex, 1 fragment, 2 compute), as WebGPU's "exceeds the binding slot
 * limits" counts them: storage buffers and textures have their own
 * vertex and fragment limits. */
static uint64_t stage_limit(const stex_limits *l, int stage, stex_binding_type t, const char **name)
{
    static const char *const sb[3] = {"maxStorageBuffersInVertexStage",
                                      "maxStorageBuffersInFragmentStage",
                                      "maxStorageBuffersPerShaderStage"};
    static const char *const st[3] = {"maxStorageTexturesInVertexStage",
                                      "maxStorageTexturesInFragmentStage",
                                      "maxStorageTexturesPerShaderStage"};
    switch (t) {
    case STEX_BINDING_UNIFORM_BUFFER:
        *name = "maxUniformBuffersPerShaderStage";
        return l->max_uniform_buffers_per_shader_stage;
    case STEX_BINDING_STORAGE_BUFFER:
    case STEX_BINDING_READ_ONLY_STORAGE_BUFFER:
        *name = sb[stage];
        return stage == 0 ? l->max_storage_buffers_in_vertex_stage
             : stage == 1 ? l->max_storage_buffers_in_fragment_stage
                          : l->max_storage_buffers_per_shader_stage;
    case STEX_BINDING_SAMPLER:
        *name = "maxSamplersPerShaderStage";
        return l->max_samplers_per_shader_stage;
    case STEX_BINDING_TEXTURE:
        *name = "maxSampledTexturesPerShaderStage";
        return l->max_sampled_textures_per_shader_stage;
    case STEX_BINDING_STORAGE_TEXTURE:
        *name = st[stage];
        return stage == 0 ? l->max_storage_textures_in_vertex_stage
             : stage == 1 ? l->max_storage_textures_in_fragment_stage
                          : l->max_storage_textures_per_shader_stage;
    }
    *name = "?";
    return 0;
}

/* WebGPU's "exceeds the binding slot limits": for each shader stage, the
 * entries visible to it (an entry visible to several stages counts in
 * each), per kind of binding. */
static stex_status check_stage_slots(const stex_limits *l, const stex_layout_entry *e, uint32_t n)
{
    static const uint32_t bit[3] = {STEX_STAGE_VERTEX, STEX_STAGE_FRAGMENT, STEX_STAGE_COMPUTE};
    static const char *const stage_name[3] = {"VERTEX", "FRAGMENT", "COMPUTE"};
    for (int s = 0; s < 3; s++) {
        uint32_t count[STEX_BINDING_UNIFORM_BUFFER + 1] = {0};
        for (uint32_t i = 0; i < n; i++)
            if (e[i].visibility & bit[s])
                count[e[i].type == STEX_BINDING_READ_ONLY_STORAGE_BUFFER
                          ? STEX_BINDING_STORAGE_BUFFER : e[i].type]++;
        for (int t = STEX_BINDING_STORAGE_TEXTURE; t <= STEX_BINDING_UNIFORM_BUFFER; t++) {
            const char *name;
            uint64_t max = stage_limit(l, s, (stex_binding_type)t, &name);
            if (count[t] > max)
                return stex_fail(STEX_VALIDATION_ERROR,
                                 "createBindGroupLayout: %u %s bindings visible to the %s stage "
                                 "exceed %s (%llu)", count[t],
                                 t == STEX_BINDING_STORAGE_BUFFER ? "storage buffer"
                                     : binding_type_name((stex_binding_type)t),
                                 stage_name[s], name, (unsigned long long)max);
        }
    }
    return STEX_OK;
}

/* shared: an explicit layout, whose entries the shader need not all use
 * (the WGSL layout check requires COMPUTE of those it uses); otherwise the
 * entries are the kernel's own bindings, all used. */
static stex_status validate_entries(const stex_device *d, const stex_layout_entry *e, uint32_t n,
                                    bool shared)
{
    const stex_limits *l = stex_device_limits(d);
    uint32_t dynamic_uniform = 0, dynamic_storage = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].group >= l->max_bind_groups || e[i].group >= STEX__MAX_GROUPS)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createPipelineLayout: @group(%u) is not below maxBindGroups (%llu)",
                             e[i].group, (unsigned long long)l->max_bind_groups);
        if (e[i].binding >= l->max_bindings_per_bind_group || e[i].binding > 0xffff)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createBindGroupLayout: binding %u is not below "
                             "maxBindingsPerBindGroup (%llu)", e[i].binding,
                             (unsigned long long)l->max_bindings_per_bind_group);
        if (i > 0 && e[i].binding == e[i - 1].binding && e[i].group == e[i - 1].group)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createBindGroupLayout: @group(%u) binding %u appears twice; each "
                             "entry needs a unique binding", e[i].group, e[i].binding);
        bool buffer = e[i].type >= STEX_BINDING_STORAGE_BUFFER
                      && e[i].type <= STEX_BINDING_UNIFORM_BUFFER;
        if (!buffer && (e[i].buffer.has_dynamic_offset || e[i].buffer.min_binding_size))
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createBindGroupLayout: binding %u: hasDynamicOffset and "
                             "minBindingSize belong to buffer entries only", e[i].binding);
        if (e[i].buffer.has_dynamic_offset && e[i].type == STEX_BINDING_UNIFORM_BUFFER)
            dynamic_uniform++;
        else if (e[i].buffer.has_dynamic_offset)
            dynamic_storage++;
        if (e[i].type < STEX_BINDING_STORAGE_TEXTURE || e[i].type > STEX_BINDING_UNIFORM_BUFFER)
            return stex_fail(STEX_TYPE_ERROR, "createBindGroupLayout: binding %u has no valid "
                             "type (storageTexture, texture, sampler or buffer)", e[i].binding);
        /* (storage textures: in Dawn's order, by validate_binding.c) */
        if (e[i].type != STEX_BINDING_STORAGE_TEXTURE &&
            (e[i].visibility & ~(uint32_t)(STEX_STAGE_VERTEX | STEX_STAGE_FRAGMENT |
                                           STEX_STAGE_COMPUTE)))
            return stex_fail(STEX_VALIDATION_ERROR, "createBindGroupLayout: binding %u: "
                             "visibility 0x%x has bits that are no GPUShaderStage",
                             e[i].binding, e[i].visibility);
        /* vertex shaders write no storage buffers (nor textures: validate_binding.c) */
        if ((e[i].visibility & STEX_STAGE_VERTEX) && e[i].type == STEX_BINDING_STORAGE_BUFFER)
            return stex_fail(STEX_VALIDATION_ERROR, "createBindGroupLayout: binding %u: a "
                             "buffer entry visible to VERTEX must be \"uniform\" or "
                             "\"read-only-storage\", not \"storage\"", e[i].binding);
        if (!shared && !(e[i].visibility & STEX_STAGE_COMPUTE))
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createComputePipeline: binding %u (%s) is not visible to the "
                             "COMPUTE stage, but the compute shader uses it",
                             e[i].binding, binding_type_name(e[i].type));
        if (e[i].type == STEX_BINDING_STORAGE_TEXTURE) {
            stex_status st = stex_validate_storage_texture_layout(d, e[i].visibility,
                                                                  &e[i].storage_texture);
            if (st)
                return st;
        }
        if (e[i].type == STEX_BINDING_TEXTURE) {
            stex_view_dimension vd = e[i].texture_view_dimension;
            stex_texture_sample_type stype = e[i].texture_sample_type;
            if ((unsigned)vd >= STEX_VIEW_DIMENSION_COUNT ||
                (unsigned)stype > STEX_SAMPLE_TYPE_UINT)
                return stex_fail(STEX_TYPE_ERROR, "createBindGroupLayout: binding %u: "
                                 "viewDimension or sampleType is not a valid enum value",
                                 e[i].binding);
            /* GPUTextureBindingLayout: a multisampled texture is a 2d one read
             * sample by sample, never filtered */
            if (e[i].texture_multisampled &&
                ((vd != STEX_VIEW_DIMENSION_UNDEFINED && vd != STEX_VIEW_DIMENSION_2D) ||
                 stype == STEX_SAMPLE_TYPE_UNDEFINED || stype == STEX_SAMPLE_TYPE_FLOAT))
                return stex_fail(STEX_VALIDATION_ERROR,
                                 "createBindGroupLayout: binding %u: a multisampled texture "
                                 "entry needs viewDimension \"2d\" and a sampleType other "
                                 "than \"float\"", e[i].binding);
        }
        if (e[i].type != STEX_BINDING_TEXTURE &&
            (e[i].texture_sample_type || e[i].texture_multisampled))
            return stex_fail(STEX_VALIDATION_ERROR, "createBindGroupLayout: binding %u: "
                             "sampleType and multisampled belong to texture entries only",
                             e[i].binding);
        if (e[i].type == STEX_BINDING_SAMPLER &&
            (unsigned)e[i].sampler_type > STEX_SAMPLER_BINDING_COMPARISON)
            return stex_fail(STEX_TYPE_ERROR, "createBindGroupLayout: binding %u: sampler type "
                             "is not a GPUSamplerBindingType", e[i].binding);
    }
    stex_status st = check_stage_slots(l, e, n);
    if (st)
        return st;
    if (dynamic_uniform > l->max_dynamic_uniform_buffers_per_pipeline_layout)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createPipelineLayout: %u uniform buffers with dynamic offsets exceed "
                         "maxDynamicUniformBuffersPerPipelineLayout (%llu)", dynamic_uniform,
                         (unsigned long long)l->max_dynamic_uniform_buffers_per_pipeline_layout);
    if (dynamic_storage > l->max_dynamic_storage_buffers_per_pipeline_layout)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createPipelineLayout: %u storage buffers with dynamic offsets exceed "
                         "maxDynamicStorageBuffersPerPipelineLayout (%llu)", dynamic_storage,
                         (unsigned long long)l->max_dynamic_storage_buffers_per_pipeline_layout);
    return STEX_OK;
}

/* createComputePipeline for a C kernel, or (x != NULL) for an executor. */
static stex_status pipeline_create(stex_device *d, const stex_pipeline_desc *desc,
                                   const phase_executor *x, stex_pipeline **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_pipeline_create: out is NULL");
    *out = NULL;
    if (!d || !desc)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_pipeline_create: device or descriptor is NULL");
    if (x && !x->run_workgroup)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_pipeline_create: executor without "
                         "run_workgroup");
    if (!x && !desc->kernel)
        return stex_fail(STEX_INVALID_ARGUMENT, "createComputePipeline: no kernel (entry point)");
    if (desc->entry_count && !desc->entries)
        return stex_fail(STEX_INVALID_ARGUMENT, "createComputePipeline: entries is NULL");
    const stex_limits *l = stex_device_limits(d);
    uint32_t wg[3];
    for (int i = 0; i < 3; i++)
        wg[i] = desc->workgroup_size[i] ? desc->workgroup_size[i] : 1;
    stex_status st = validate_workgroup_size(l, wg);
    if (st)
        return st;
    if (desc->workgroup_memory_size > l->max_compute_workgroup_storage_size)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createComputePipeline: %u bytes of var<workgroup> exceed "
                         "maxComputeWorkgroupStorageSize (%llu)", desc->workgroup_memory_size,
                         (unsigned long long)l->max_compute_workgroup_storage_size);

    stex_pipeline *p = calloc(1, sizeof *p);
    if (!p)
        return stex_fail(STEX_OUT_OF_MEMORY, "createComputePipeline: out of memory");
    p->entries = calloc(desc->entry_count ? desc->entry_count : 1, sizeof *p->entries);
    if (!p->entries) {
        free(p);
        return stex_fail(STEX_OUT_OF_MEMORY, "createComputePipeline: out of memory");
    }
    if (desc->entry_count)
        memcpy(p->entries, desc->entries, desc->entry_count * sizeof *p->entries);
    p->n = desc->entry_count;
    qsort(p->entries, p->n, sizeof *p->entries, by_group_binding);
    for (uint32_t i = 0; i < p->n; i++) /* resolve WebGPU defaults once */
        if (p->entries[i].type == STEX_BINDING_STORAGE_TEXTURE) {
            stex_storage_texture_layout *s = &p->entries[i].storage_texture;
            if (s->access == STEX_ACCESS_UNDEFINED)
                s->access = STEX_ACCESS_WRITE_ONLY;
            if (s->view_dimension == STEX_VIEW_DIMENSION_UNDEFINED)
                s->view_dimension = STEX_VIEW_DIMENSION_2D;
        }
    st = validate_entries(d, p->entries, p->n, desc->shared_layout);
    if (st) {
        stex_pipeline_destroy(p);
        return st;
    }
    p->dev = d;
    if (x)
        p->executor = *x;
    else {
        p->kernel = desc->kernel;
        p->workgroup = desc->workgroup;
    }
    memcpy(p->wg, wg, sizeof wg);
    p->invocations = wg[0] * wg[1] * wg[2];
    /* slots: each group's bindings 0 .. its largest, groups one after another */
    for (uint32_t i = 0; i < p->n; i++) {
        const stex_layout_entry *le = &p->entries[i];
        p->slots.count[le->group] = le->binding + 1; /* sorted: the last one wins */
        p->groups |= 1u << le->group;
    }
    for (uint32_t g = 0; g < STEX__MAX_GROUPS; g++) {
        p->slots.first[g] = p->slots.total;
        p->slots.total += p->slots.count[g];
    }
    p->nb = p->slots.total;
    p->wg_memory_size = desc->workgroup_memory_size;
    p->barriers = desc->uses_barriers;
    p->shared_layout = desc->shared_layout;
    if (desc->label)
        snprintf(p->label, sizeof p->label, "%s", desc->label);
    *out = p;
    return STEX_OK;
}

stex_status stex_pipeline_create(stex_device *d, const stex_pipeline_desc *desc, stex_pipeline **out)
{
    return pipeline_create(d, desc, NULL, out);
}

stex_status pipeline_create_with_executor(stex_device *d, const stex_pipeline_desc *desc,
                                          const phase_executor *x, stex_pipeline **out)
{
    if (!x)
        return stex_fail(STEX_INVALID_ARGUMENT, "pipeline_create_with_executor: executor is NULL");
    return pipeline_create(d, desc, x, out);
}

void stex_pipeline_destroy(stex_pipeline *p)
{
    if (!p)
        return;
    if (p->executor.destroy) /* the executor's own state (phase.h) */
        p->executor.destroy(p->executor.user);
    free(p->entries);
    free(p);
}
