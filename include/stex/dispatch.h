/*
 * stex/dispatch.h - pipelines, bind groups and dispatchWorkgroups.
 *
 * A pipeline pairs a kernel (stex/shader.h) with its @workgroup_size and the
 * layout of its bindings; a bind group binds views, buffers and samplers to
 * that layout; a dispatch runs the workgroups on OpenMP threads in the order
 * a schedule chooses, so racy kernels show different legal outcomes.
 *
 *     stex_layout_entry e[] = {{.binding = 0, .visibility = STEX_STAGE_COMPUTE,
 *         .type = STEX_BINDING_STORAGE_TEXTURE,
 *         .storage_texture = {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0}}};
 *     stex_pipeline_desc pd = {.kernel = decaer, .workgroup_size = {8, 8, 1},
 *                              .entries = e, .entry_count = 1};
 *     stex_pipeline *p;  stex_pipeline_create(dev, &pd, &p);
 *     stex_bind_group *g;
 *     stex_bind_group_create(p, (stex_bind_group_entry[]){{.binding = 0, .view = v}}, 1, &g);
 *     stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 42};
 *     stex_dispatch(p, g, 32, 32, 1, &o);
 *
 * Failure: creation returns STEX_VALIDATION_ERROR with the rule (workgroup
 * size limits, layout/bind group mismatch); stex_dispatch returns
 * STEX_VALIDATION_ERROR for a count over maxComputeWorkgroupsPerDimension and
 * STEX_SHADER_ERROR when the kernel did something WGSL forbids (see shader.h)
 * or broke barrier uniformity; STEX_CANCELLED when options.cancel stopped it.
 */
#ifndef STEX_DISPATCH_H
#define STEX_DISPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/cancel.h"
#include "stex/resource.h"
#include "stex/shader.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stex_pipeline stex_pipeline;
typedef struct stex_bind_group stex_bind_group;
typedef struct stex_race_detector stex_race_detector; /* stex/race.h */


/* GPUBufferBindingLayout's members beyond the type. */
typedef struct stex_buffer_binding_layout {
    bool has_dynamic_offset;  /* the offset is given at each dispatch (stex_bound_group) */
    uint64_t min_binding_size; /* 0 = none; else every bound range is at least this */
} stex_buffer_binding_layout;

/* GPUTextureSampleType and GPUSamplerBindingType; UNDEFINED is WebGPU's
 * default ("float", "filtering"). */
typedef enum stex_texture_sample_type {
    STEX_SAMPLE_TYPE_UNDEFINED = 0, STEX_SAMPLE_TYPE_FLOAT, STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT,
    STEX_SAMPLE_TYPE_DEPTH, STEX_SAMPLE_TYPE_SINT, STEX_SAMPLE_TYPE_UINT
} stex_texture_sample_type;
typedef enum stex_sampler_binding_type {
    STEX_SAMPLER_BINDING_UNDEFINED = 0, STEX_SAMPLER_BINDING_FILTERING,
    STEX_SAMPLER_BINDING_NON_FILTERING, STEX_SAMPLER_BINDING_COMPARISON
} stex_sampler_binding_type;
STEX_API const char *stex_sample_type_name(stex_texture_sample_type t);
STEX_API const char *stex_sampler_binding_type_name(stex_sampler_binding_type t);

/* One entry of one bind group layout: @group(group) @binding(binding).
 * A pipeline's entries together are its pipeline layout; group is 0 unless
 * set (0 .. maxBindGroups - 1). */
typedef struct stex_layout_entry {
    uint32_t binding;
    uint32_t visibility;                      /* STEX_STAGE_* */
    stex_binding_type type;
    stex_storage_texture_layout storage_texture; /* STORAGE_TEXTURE */
    stex_view_dimension texture_view_dimension;  /* TEXTURE: UNDEFINED = 2d */
    stex_buffer_binding_layout buffer;           /* *_BUFFER */
    uint32_t group;                              /* @group */
    stex_texture_sample_type texture_sample_type; /* TEXTURE: UNDEFINED = float */
    bool texture_multisampled;                   /* TEXTURE */
    stex_sampler_binding_type sampler_type;      /* SAMPLER: UNDEFINED = filtering */
} stex_layout_entry;

typedef struct stex_pipeline_desc {
    stex_kernel_fn kernel;
    /* optional: the same kernel as a workgroup loop (STEX_WORKGROUP_FN in
     * stex/shader.h), used for pipelines without barriers; NULL = call
     * .kernel once per invocation */
    stex_workgroup_fn workgroup;
    uint32_t workgroup_size[3];        /* 0 = 1 */
    const stex_layout_entry *entries;
    uint32_t entry_count;
    uint32_t workgroup_memory_size;    /* bytes of var<workgroup> */
    bool uses_barriers;                /* false: the fast plain loop */
    const char *label;
    /* The layout is an explicit GPUPipelineLayout: a bind group made for
     * one of its groups serves, at any index, every pipeline that is
     * shared too and has equal entries there (WebGPU's group-equivalent
     * layouts).  false (layout 'auto'): a bind group serves only the
     * pipeline and group it was made for. */
    bool shared_layout;
} stex_pipeline_desc;

STEX_API stex_status stex_pipeline_create(stex_device *d, const stex_pipeline_desc *desc,
                                          stex_pipeline **out);
STEX_API void stex_pipeline_destroy(stex_pipeline *p);

typedef struct stex_bind_group_entry {
    uint32_t binding;
    stex_texture_view *view;   /* STORAGE_TEXTURE, TEXTURE */
    stex_sampler *sampler;     /* SAMPLER */
    stex_buffer *buffer;       /* *_BUFFER */
    uint64_t offset, size;     /* buffer range; size 0 = to the end */
} stex_bind_group_entry;

/* stex_bind_group_entry.size for a size given as 0 (GPUBufferBinding.size
 * 0, which WebGPU refuses: the bound part must not be empty). */
#define STEX_BINDING_SIZE_ZERO UINT64_MAX

/* createBindGroup for the pipeline's @group(0) layout, or for @group(group). */
STEX_API stex_status stex_bind_group_create(const stex_pipeline *p, const stex_bind_group_entry *entries,
                                            uint32_t count, stex_bind_group **out);
STEX_API stex_status stex_bind_group_create_in_group(const stex_pipeline *p, uint32_t group,
                                                     const stex_bind_group_entry *entries, uint32_t count,
                                                     stex_bind_group **out);
STEX_API void stex_bind_group_destroy(stex_bind_group *g);

/* The order workgroups start in - and, inside a workgroup, invocations.
 * INTERLEAVED: workgroups and invocations as SHUFFLED, and between two
 * barriers an executor that can (the WGSL interpreter) runs a workgroup in
 * lock-step groups of a seeded width - 1, 2, 4, ... up to its sub-group
 * width, kept whole when the shader uses subgroup operations - taking turns
 * in a seeded order after every 1 to 4 memory accesses, so that a race
 * between invocations of one workgroup shows in the outputs
 * (docs/engine.md, "Schedules").  Every schedule is a function of its seed,
 * never of the thread count. */
typedef enum stex_schedule {
    STEX_SCHEDULE_IN_ORDER = 0, STEX_SCHEDULE_REVERSED, STEX_SCHEDULE_SHUFFLED,
    STEX_SCHEDULE_INTERLEAVED
} stex_schedule;




typedef struct stex_dispatch_options {
    stex_schedule schedule;
    uint64_t seed;                 /* SHUFFLED, INTERLEAVED: the schedule's seed */
    int threads;                   /* 0 = all cores */
    stex_visibility visibility;
    stex_oob_load oob_load;
    const stex_profile *profile;   /* NULL = the device's */
    stex_race_detector *races;     /* NULL = no race detection (free) */
    const void *params;            /* uniform block seen as inv->params */
    stex_store_observer_fn store_observer; /* NULL = none (free) */
    void *store_observer_user;     /* its first argument */
    /* NULL = never stopped; else checked between workgroups (and by the
     * WGSL interpreter inside loops): once it says stop, the dispatch
     * returns STEX_CANCELLED, some workgroups not run (stex/cancel.h) */
    stex_cancel *cancel;
    /* NULL = none; else called at the end of each barrier phase of each
     * workgroup (phase from 0; last: the workgroup has ended), on the thread
     * that ran it.  With threads = 1 the calls follow the schedule's order
     * and nothing else runs meanwhile, so a caller may read the resources
     * between phases (stex race's frames). */
    void (*after_phase)(void *user, const uint32_t workgroup_id[3], uint32_t phase, bool last);
    void *after_phase_user;
} stex_dispatch_options;

STEX_API const char *stex_schedule_name(stex_schedule s);
STEX_API bool stex_schedule_from_name(const char *name, stex_schedule *out);
STEX_API const char *stex_visibility_name(stex_visibility v);
STEX_API bool stex_visibility_from_name(const char *name, stex_visibility *out);
STEX_API const char *stex_oob_load_name(stex_oob_load o);
STEX_API bool stex_oob_load_from_name(const char *name, stex_oob_load *out);

/* dispatchWorkgroups(x, y, z) with bind group g as @group(0) (the only group
 * of its pipeline's layout).  NULL options = in-order, all threads.  Writes
 * of one dispatch are all visible to the next. */
STEX_API stex_status stex_dispatch(const stex_pipeline *p, const stex_bind_group *g, uint32_t x,
                                   uint32_t y, uint32_t z, const stex_dispatch_options *opt);

/* setBindGroup(index, group, dynamicOffsets) for one index: the dynamic
 * offsets, one per entry with has_dynamic_offset, in binding order. */
typedef struct stex_bound_group {
    const stex_bind_group *group;   /* NULL: no group at this index */
    const uint32_t *dynamic_offsets;
    uint32_t dynamic_offset_count;
} stex_bound_group;

/* dispatchWorkgroups(x, y, z) with groups[i] set at index i (count <=
 * maxBindGroups); every group the pipeline's layout has must be set. */
STEX_API stex_status stex_dispatch_bound(const stex_pipeline *p, const stex_bound_group *groups,
                                         uint32_t count, uint32_t x, uint32_t y, uint32_t z,
                                         const stex_dispatch_options *opt);
/* stex_dispatch_bound's checks of the groups and counts, without running
 * anything: what a compute pass checks when dispatchWorkgroups is
 * encoded (GPUCommandEncoder.finish() reports them). */
STEX_API stex_status stex_check_dispatch(const stex_pipeline *p, const stex_bound_group *groups,
                                         uint32_t count, uint32_t x, uint32_t y, uint32_t z);
/* The same for dispatchWorkgroupsIndirect(indirect, ...), whose counts are
 * read when it runs: the indirect buffer is in the dispatch's usage scope
 * ("input"), so no writable storage binding may use it. */
STEX_API stex_status stex_check_dispatch_indirect(const stex_pipeline *p,
                                                  const stex_bound_group *groups, uint32_t count,
                                                  const stex_buffer *indirect);

#ifdef __cplusplus
}
#endif
#endif
