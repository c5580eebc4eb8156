/*
 * stex/webgpu.h - WebGPU's vocabulary as C enums: features, WGSL language
 * features, storage access modes, texture and view dimensions, shader stages,
 * usages.  Every enum has a name table with WebGPU's own spelling, and
 * functions to go both ways:
 *
 *     stex_access a;
 *     if (!stex_access_from_name("read-write", &a)) ...;   // unknown string
 *     puts(stex_access_name(a));                            // "read-write"
 *
 * Zero is always the WebGPU default (or "undefined" where WebGPU derives a
 * default), so a zeroed descriptor means what an empty JS dictionary means.
 */
#ifndef STEX_WEBGPU_H
#define STEX_WEBGPU_H

#include <stdbool.h>
#include <stdint.h>

#include "stex/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Optional device features (GPUFeatureName), one bit each. */
#define STEX_FEATURES(X)                                              \
    X(BGRA8UNORM_STORAGE, "bgra8unorm-storage")                       \
    X(TEXTURE_FORMATS_TIER1, "texture-formats-tier1")                 \
    X(TEXTURE_FORMATS_TIER2, "texture-formats-tier2")                 \
    X(RG11B10UFLOAT_RENDERABLE, "rg11b10ufloat-renderable")           \
    X(FLOAT32_FILTERABLE, "float32-filterable")                       \
    X(FLOAT32_BLENDABLE, "float32-blendable")                         \
    X(SHADER_F16, "shader-f16")                                       \
    X(TEXTURE_COMPRESSION_BC, "texture-compression-bc")               \
    X(DEPTH32FLOAT_STENCIL8, "depth32float-stencil8")                 \
    X(CORE_FEATURES_AND_LIMITS, "core-features-and-limits")           \
    X(SUBGROUPS, "subgroups")

enum {
#define STEX_FEATURE_BIT_(id, name) STEX_FEATURE_BIT_INDEX_##id,
    STEX_FEATURES(STEX_FEATURE_BIT_)
#undef STEX_FEATURE_BIT_
    STEX_FEATURE_COUNT
};
typedef enum stex_feature {
#define STEX_FEATURE_ENUM_(id, name) STEX_FEATURE_##id = 1u << STEX_FEATURE_BIT_INDEX_##id,
    STEX_FEATURES(STEX_FEATURE_ENUM_)
#undef STEX_FEATURE_ENUM_
} stex_feature;
#define STEX_FEATURE_ALL ((1u << STEX_FEATURE_COUNT) - 1u)

/* WGSL language features (navigator.gpu.wgslLanguageFeatures), one bit each. */
#define STEX_LANGUAGE_FEATURES(X)                                                        \
    X(READONLY_AND_READWRITE_STORAGE_TEXTURES, "readonly_and_readwrite_storage_textures") \
    X(PACKED_4X8_INTEGER_DOT_PRODUCT, "packed_4x8_integer_dot_product")                  \
    X(UNRESTRICTED_POINTER_PARAMETERS, "unrestricted_pointer_parameters")                \
    X(POINTER_COMPOSITE_ACCESS, "pointer_composite_access")                              \
    X(UNIFORM_BUFFER_STANDARD_LAYOUT, "uniform_buffer_standard_layout")                  \
    X(SUBGROUP_ID, "subgroup_id")

enum {
#define STEX_LF_BIT_(id, name) STEX_LANGUAGE_FEATURE_BIT_INDEX_##id,
    STEX_LANGUAGE_FEATURES(STEX_LF_BIT_)
#undef STEX_LF_BIT_
    STEX_LANGUAGE_FEATURE_COUNT
};
typedef enum stex_language_feature {
#define STEX_LF_ENUM_(id, name) \
    STEX_LANGUAGE_FEATURE_##id = 1u << STEX_LANGUAGE_FEATURE_BIT_INDEX_##id,
    STEX_LANGUAGE_FEATURES(STEX_LF_ENUM_)
#undef STEX_LF_ENUM_
} stex_language_feature;
#define STEX_LANGUAGE_FEATURE_ALL ((1u << STEX_LANGUAGE_FEATURE_COUNT) - 1u)

/* GPUStorageTextureAccess; UNDEFINED means "not given" and defaults to write-only. */
typedef enum stex_access {
    STEX_ACCESS_UNDEFINED = 0,
    STEX_ACCESS_WRITE_ONLY,
    STEX_ACCESS_READ_ONLY,
    STEX_ACCESS_READ_WRITE,
    STEX_ACCESS_COUNT
} stex_access;

/* GPUTextureDimension; zero is WebGPU's default "2d". */
typedef enum stex_texture_dimension {
    STEX_TEXTURE_DIMENSION_2D = 0,
    STEX_TEXTURE_DIMENSION_1D,
    STEX_TEXTURE_DIMENSION_3D,
    STEX_TEXTURE_DIMENSION_COUNT
} stex_texture_dimension;

/* GPUTextureViewDimension; UNDEFINED is derived from the texture (views) or
 * means "2d" (bind group layout entries), as in WebGPU. */
typedef enum stex_view_dimension {
    STEX_VIEW_DIMENSION_UNDEFINED = 0,
    STEX_VIEW_DIMENSION_1D,
    STEX_VIEW_DIMENSION_2D,
    STEX_VIEW_DIMENSION_2D_ARRAY,
    STEX_VIEW_DIMENSION_CUBE,
    STEX_VIEW_DIMENSION_CUBE_ARRAY,
    STEX_VIEW_DIMENSION_3D,
    STEX_VIEW_DIMENSION_COUNT
} stex_view_dimension;

/* GPUShaderStage flags (same values as WebGPU). */
typedef enum stex_shader_stage {
    STEX_STAGE_VERTEX = 1,
    STEX_STAGE_FRAGMENT = 2,
    STEX_STAGE_COMPUTE = 4
} stex_shader_stage;

/* GPUTextureUsage flags (same values as WebGPU). */
typedef enum stex_texture_usage {
    STEX_USAGE_COPY_SRC = 1,
    STEX_USAGE_COPY_DST = 2,
    STEX_USAGE_TEXTURE_BINDING = 4,
    STEX_USAGE_STORAGE_BINDING = 8,
    STEX_USAGE_RENDER_ATTACHMENT = 16
} stex_texture_usage;

/* GPUBufferUsage flags (same values as WebGPU).  The type is named _flags
 * because stex_buffer_usage() is the accessor in resource.h. */
typedef enum stex_buffer_usage_flags {
    STEX_BUFFER_USAGE_MAP_READ = 0x0001,
    STEX_BUFFER_USAGE_MAP_WRITE = 0x0002,
    STEX_BUFFER_USAGE_COPY_SRC = 0x0004,
    STEX_BUFFER_USAGE_COPY_DST = 0x0008,
    STEX_BUFFER_USAGE_INDEX = 0x0010,          /* accepted; stex does not draw */
    STEX_BUFFER_USAGE_VERTEX = 0x0020,         /* accepted; stex does not draw */
    STEX_BUFFER_USAGE_UNIFORM = 0x0040,
    STEX_BUFFER_USAGE_STORAGE = 0x0080,
    STEX_BUFFER_USAGE_INDIRECT = 0x0100,       /* dispatchWorkgroupsIndirect's arguments */
    STEX_BUFFER_USAGE_QUERY_RESOLVE = 0x0200   /* accepted; stex has no queries */
} stex_buffer_usage_flags;

/* Names, WebGPU spelling.  *_name returns "?" for an out-of-range value;
 * *_from_name returns false (and leaves *out alone) for an unknown string. */
STEX_API const char *stex_feature_name(stex_feature f);
STEX_API bool stex_feature_from_name(const char *name, stex_feature *out);
/* Parses a comma-separated list ("bgra8unorm-storage,texture-formats-tier1")
 * into a mask.  On an unknown name returns false and points *bad at it. */
STEX_API bool stex_features_parse(const char *list, uint32_t *mask, const char **bad);

STEX_API const char *stex_language_feature_name(stex_language_feature f);
STEX_API bool stex_language_feature_from_name(const char *name, stex_language_feature *out);

/* API spelling: "write-only", "read-only", "read-write". */
STEX_API const char *stex_access_name(stex_access a);
/* WGSL spelling: "write", "read", "read_write". */
STEX_API const char *stex_access_wgsl_name(stex_access a);
STEX_API bool stex_access_from_name(const char *name, stex_access *out); /* accepts both spellings */

STEX_API const char *stex_texture_dimension_name(stex_texture_dimension d);
STEX_API bool stex_texture_dimension_from_name(const char *name, stex_texture_dimension *out);
STEX_API const char *stex_view_dimension_name(stex_view_dimension d);
/* WGSL spelling, the suffix of texture_storage_2d_array: "1d", "2d",
 * "2d_array", "cube", "cube_array", "3d"; "?" for UNDEFINED. */
STEX_API const char *stex_view_dimension_wgsl_name(stex_view_dimension d);
STEX_API bool stex_view_dimension_from_name(const char *name, stex_view_dimension *out);
/* Parses "compute,fragment" into STEX_STAGE_* flags. */
STEX_API bool stex_stages_parse(const char *list, uint32_t *mask, const char **bad);

#ifdef __cplusplus
}
#endif
#endif
