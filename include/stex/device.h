/*
 * stex/device.h - adapters, devices, limits, and WebGPU validation.
 *
 * An adapter says what is available (features, WGSL language features,
 * limits); a device is requested from it with the features it needs.  Every
 * resource is created through a device, which validates the request the way
 * WebGPU does and explains a refusal in stex_last_error().
 *
 *     stex_adapter *a; stex_device *d;
 *     stex_adapter_create(NULL, &a);                 // everything available
 *     stex_device_desc dd = {.required_features = STEX_FEATURE_TEXTURE_FORMATS_TIER2};
 *     if (stex_device_create(a, &dd, &d) != STEX_OK) puts(stex_last_error());
 *
 * Failure: creation functions return STEX_TYPE_ERROR when a feature or limit
 * is asked of an adapter that lacks it (requestDevice's TypeError),
 * STEX_OUT_OF_MEMORY on allocation failure; *out is then NULL.
 * stex_validate_* return STEX_VALIDATION_ERROR (GPUValidationError) or
 * STEX_TYPE_ERROR (a malformed descriptor) with a message naming the rule.
 */
#ifndef STEX_DEVICE_H
#define STEX_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/convert.h"
#include "stex/format.h"
#include "stex/status.h"
#include "stex/webgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every limit of WebGPU's GPUSupportedLimits, with its default value (the
 * spec's limits table; stex_limits_default).  The render-only ones (vertex
 * buffers, colour attachments, ...) are reported and requestable, never
 * used: stex runs compute only. */
#define STEX_LIMITS(X)                                      \
    X(max_texture_dimension_1d, 8192)                       \
    X(max_texture_dimension_2d, 8192)                       \
    X(max_texture_dimension_3d, 2048)                       \
    X(max_texture_array_layers, 256)                        \
    X(max_bind_groups, 4)                                   \
    X(max_bind_groups_plus_vertex_buffers, 24)              \
    X(max_immediate_size, 64)                               \
    X(max_bindings_per_bind_group, 1000)                    \
    X(max_storage_buffers_per_shader_stage, 8)              \
    X(max_storage_buffers_in_vertex_stage, 8)               \
    X(max_storage_buffers_in_fragment_stage, 8)             \
    X(max_storage_textures_per_shader_stage, 4)             \
    X(max_storage_textures_in_vertex_stage, 4)              \
    X(max_storage_textures_in_fragment_stage, 4)            \
    X(max_sampled_textures_per_shader_stage, 16)            \
    X(max_samplers_per_shader_stage, 16)                    \
    X(max_uniform_buffers_per_shader_stage, 12)             \
    X(max_dynamic_uniform_buffers_per_pipeline_layout, 8)   \
    X(max_dynamic_storage_buffers_per_pipeline_layout, 4)   \
    X(max_uniform_buffer_binding_size, 65536)               \
    X(max_storage_buffer_binding_size, 134217728)           \
    X(max_buffer_size, 268435456)                           \
    X(max_vertex_buffers, 8)                                \
    X(max_vertex_attributes, 16)                            \
    X(max_vertex_buffer_array_stride, 2048)                 \
    X(max_inter_stage_shader_variables, 16)                 \
    X(max_color_attachments, 8)                             \
    X(max_color_attachment_bytes_per_sample, 32)            \
    X(max_compute_workgroup_storage_size, 16384)            \
    X(max_compute_invocations_per_workgroup, 256)           \
    X(max_compute_workgroup_size_x, 256)                    \
    X(max_compute_workgroup_size_y, 256)                    \
    X(max_compute_workgroup_size_z, 64)                     \
    X(max_compute_workgroups_per_dimension, 65535)

/* The alignment limits, where smaller is better: powers of two. */
#define STEX_ALIGNMENT_LIMITS(X)                            \
    X(min_uniform_buffer_offset_alignment, 256)             \
    X(min_storage_buffer_offset_alignment, 256)

typedef struct stex_limits {
#define STEX_LIMIT_FIELD_(name, dflt) uint64_t name;
    STEX_LIMITS(STEX_LIMIT_FIELD_)
    STEX_ALIGNMENT_LIMITS(STEX_LIMIT_FIELD_)
#undef STEX_LIMIT_FIELD_
} stex_limits;

STEX_API stex_limits stex_limits_default(void);

typedef struct stex_adapter stex_adapter;
typedef struct stex_device stex_device;

typedef struct stex_adapter_desc {
    uint32_t features;          /* STEX_FEATURE_* available */
    uint32_t language_features; /* STEX_LANGUAGE_FEATURE_* the WGSL compiler knows */
    stex_limits limits;         /* the adapter's maxima; zero fields = defaults */
    stex_profile_id profile;    /* conversion profile of the simulated device */
} stex_adapter_desc;

/* A capable adapter: every feature, every language feature, default limits,
 * the spec profile.  stex_adapter_create(NULL, ...) uses it. */
STEX_API stex_adapter_desc stex_adapter_desc_default(void);
/* The adapter a profile's device shows WebGPU: spec's offers every feature
 * stex emulates; lavapipe's and nvidia's offer the features Dawn's adapter
 * offered on Mesa's lavapipe and on the NVIDIA H200 as measured (lavapipe:
 * no texture-formats-tier1/tier2; the H200: no shader-f16), so a program
 * that needs more is refused at requestDevice as the device refuses it. */
STEX_API stex_adapter_desc stex_adapter_desc_for_profile(stex_profile_id profile);

STEX_API stex_status stex_adapter_create(const stex_adapter_desc *desc, stex_adapter **out);
STEX_API void stex_adapter_destroy(stex_adapter *a);
STEX_API uint32_t stex_adapter_features(const stex_adapter *a);
STEX_API uint32_t stex_adapter_language_features(const stex_adapter *a);
STEX_API const stex_limits *stex_adapter_limits(const stex_adapter *a);

typedef struct stex_device_desc {
    uint32_t required_features;
    stex_limits required_limits; /* zero fields = defaults */
} stex_device_desc;

/* The device's features are the requested ones plus what they imply
 * (tier2 -> tier1 -> rg11b10ufloat-renderable). */
STEX_API stex_status stex_device_create(stex_adapter *a, const stex_device_desc *desc, stex_device **out);
STEX_API void stex_device_destroy(stex_device *d);
STEX_API uint32_t stex_device_features(const stex_device *d);
STEX_API uint32_t stex_device_language_features(const stex_device *d);
STEX_API const stex_limits *stex_device_limits(const stex_device *d);
STEX_API const stex_profile *stex_device_profile(const stex_device *d);
STEX_API void stex_device_set_profile(stex_device *d, stex_profile_id id);

/* ---- descriptors validated here (WebGPU's dictionaries) ---- */

typedef struct stex_extent3d {
    uint32_t width, height, depth_or_array_layers; /* 0 height/depth = 1 */
} stex_extent3d;

typedef struct stex_texture_desc {
    stex_texture_dimension dimension;
    stex_extent3d size;
    stex_format format;
    uint32_t mip_level_count; /* 0 = 1 */
    uint32_t sample_count;    /* 0 = 1 */
    uint32_t usage;           /* STEX_USAGE_* */
    const char *label;
    /* GPUTextureDescriptor.viewFormats: other formats views may take (each
     * must differ from `format` only in -srgb).  NULL/0 = none.  Validation
     * reads the array; whoever keeps the descriptor must keep or copy it. */
    const stex_format *view_formats;
    uint32_t view_format_count;
} stex_texture_desc;

/* GPUTextureAspect */
typedef enum stex_texture_aspect {
    STEX_ASPECT_ALL = 0, STEX_ASPECT_STENCIL_ONLY, STEX_ASPECT_DEPTH_ONLY
} stex_texture_aspect;
STEX_API const char *stex_texture_aspect_name(stex_texture_aspect a);

typedef struct stex_view_desc {
    stex_format format;                 /* UNDEFINED = the texture's */
    stex_view_dimension dimension;      /* UNDEFINED = derived from the texture */
    uint32_t base_mip_level;
    uint32_t mip_level_count;           /* 0 = all remaining */
    uint32_t base_array_layer;
    uint32_t array_layer_count;         /* 0 = all remaining */
    uint32_t usage;                     /* STEX_USAGE_*; 0 = the texture's usage */
    stex_texture_aspect aspect;         /* ALL = 0 */
} stex_view_desc;

typedef struct stex_storage_texture_layout {
    stex_access access;                 /* UNDEFINED = write-only */
    stex_format format;                 /* required */
    stex_view_dimension view_dimension; /* UNDEFINED = 2d */
} stex_storage_texture_layout;

/* createTexture's rules (usage, format features, sample count, extents and
 * limits, mip count).  Fills zero defaults into a copy, never into *desc. */
STEX_API stex_status stex_validate_texture(const stex_device *d, const stex_texture_desc *desc);
/* createView's rules against the texture it views. */
STEX_API stex_status stex_validate_view(const stex_device *d, const stex_texture_desc *tex,
                                        const stex_view_desc *view);
/* A storageTexture bind group layout entry with the given visibility. */
STEX_API stex_status stex_validate_storage_texture_layout(const stex_device *d, uint32_t visibility,
                                                          const stex_storage_texture_layout *entry);
/* A view bound to a storage-texture entry: usage STORAGE_BINDING, exactly one
 * mip level, format identical, view dimension equal to the entry's. */
STEX_API stex_status stex_validate_storage_binding(const stex_device *d,
                                                   const stex_storage_texture_layout *entry,
                                                   const stex_texture_desc *tex,
                                                   const stex_view_desc *resolved_view);
/* The view descriptor with every default filled in (as WebGPU resolves it). */
STEX_API stex_view_desc stex_view_desc_resolve(const stex_texture_desc *tex, const stex_view_desc *view);

#ifdef __cplusplus
}
#endif
#endif
