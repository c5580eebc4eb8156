/*
 * stex/format.h - the texel format table and the questions asked of it.
 *
 * One row per format (stex/formats.def); every query below reads that table.
 *
 *     stex_format f = stex_format_from_name("rgba8unorm");
 *     const stex_format_info *fi = stex_format_get(f);
 *     printf("%u bytes, %u channels\n", fi->bytes, fi->channels);
 *     if (stex_format_supports_access(f, STEX_ACCESS_READ_WRITE, features, lang)) ...
 *
 * Failure: stex_format_from_name returns STEX_FORMAT_UNDEFINED for an unknown
 * name; stex_format_get returns NULL for an out-of-range value.
 */
#ifndef STEX_FORMAT_H
#define STEX_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/webgpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum stex_format {
    STEX_FORMAT_UNDEFINED = 0,
#define X(id, ...) STEX_FORMAT_##id,
#include "stex/formats.def"
#undef X
    STEX_FORMAT_COUNT
} stex_format;

typedef enum stex_format_kind {
    STEX_KIND_COLOR, STEX_KIND_DEPTH, STEX_KIND_STENCIL, STEX_KIND_COMPRESSED
} stex_format_kind;

/* How a channel is stored in memory. */
typedef enum stex_channel_type {
    STEX_CHANNEL_UNORM, STEX_CHANNEL_SNORM, STEX_CHANNEL_UINT,
    STEX_CHANNEL_SINT, STEX_CHANNEL_FLOAT, STEX_CHANNEL_UFLOAT
} stex_channel_type;

/* The WGSL type of the vec4 a shader stores and loads (vec4<f32/u32/i32>). */
typedef enum stex_scalar_type {
    STEX_SCALAR_F32, STEX_SCALAR_U32, STEX_SCALAR_I32
} stex_scalar_type;

typedef enum stex_packing {
    STEX_PACKING_PLAIN, STEX_PACKING_BGRA, STEX_PACKING_RGB10A2,
    STEX_PACKING_RG11B10, STEX_PACKING_OPAQUE,
    STEX_PACKING_SRGB, STEX_PACKING_SRGB_BGRA, /* 8-bit r, g, b through the sRGB curve */
    STEX_PACKING_RGB9E5 /* 9-bit r, g, b mantissas and a shared 5-bit exponent in a u32 */
} stex_packing;

/* Which feature a capability needs.  NEVER: no feature enables it. */
typedef enum stex_tier {
    STEX_TIER_CORE,               /* always: core WebGPU, no feature */
    STEX_TIER_BGRA8UNORM_STORAGE, /* bgra8unorm-storage */
    STEX_TIER_1,                  /* texture-formats-tier1 */
    STEX_TIER_2,                  /* texture-formats-tier2 (implies tier1) */
    STEX_TIER_BC,                 /* texture-compression-bc */
    STEX_TIER_DEPTH32FLOAT_STENCIL8, /* depth32float-stencil8 */
    STEX_TIER_NEVER
} stex_tier;

/* Which texel copies may name a format's depth aspect (the spec's
 * "Depth-stencil formats" table). */
typedef enum stex_depth_copy {
    STEX_DEPTH_COPY_NA,    /* the format has no depth aspect */
    STEX_DEPTH_COPY_NEVER, /* depth24plus: never copied */
    STEX_DEPTH_COPY_SRC,   /* copy source only (depth32float) */
    STEX_DEPTH_COPY_BOTH   /* source and destination (depth16unorm) */
} stex_depth_copy;

typedef struct stex_format_info {
    stex_format format;
    const char *name;          /* WebGPU spelling */
    stex_format_kind kind;
    stex_channel_type type;
    stex_scalar_type scalar;   /* WGSL value type, derived from type */
    uint8_t channels;
    uint8_t bits[4];           /* per channel R,G,B,A; 0 = absent */
    uint8_t bytes;             /* per texel (per 4x4 block if compressed) */
    stex_packing packing;
    stex_tier create;          /* needed to create the format at all */
    stex_tier storage;         /* needed for STORAGE_BINDING / write-only */
    bool read_only;            /* read-only allowed where storage is */
    stex_tier read_write;      /* needed for read-write */
    uint8_t block_width;       /* texel block width: 4 for BC, else 1 */
    uint8_t block_height;      /* texel block height */
    stex_depth_copy depth_copy;
    bool stencil;              /* has a stencil aspect */
} stex_format_info;

STEX_API const stex_format_info *stex_format_get(stex_format f);
STEX_API const char *stex_format_name(stex_format f);            /* "?" if invalid */
STEX_API stex_format stex_format_from_name(const char *name);    /* UNDEFINED if unknown */

/* The feature bit a tier stands for (0 for CORE, and for NEVER). */
STEX_API uint32_t stex_tier_feature(stex_tier t);
/* True if `features` (STEX_FEATURE_* mask) enable the tier.  tier2 implies tier1. */
STEX_API bool stex_tier_enabled(stex_tier t, uint32_t features);

/* Can a texture of this format be created under these features? */
STEX_API bool stex_format_can_create(stex_format f, uint32_t features);
/* Is it a storage format (STORAGE_BINDING allowed)?  The lessons' admiteStorage. */
STEX_API bool stex_format_supports_storage(stex_format f, uint32_t features);
/* May it be bound with this access?  read-only and read-write also need the
 * WGSL language feature readonly_and_readwrite_storage_textures.  UNDEFINED
 * access means write-only.  The lessons' admiteReadWrite for READ_WRITE. */
STEX_API bool stex_format_supports_access(stex_format f, stex_access access,
                                          uint32_t features, uint32_t language_features);
/* The one feature that makes (format, access) bindable as a storage texture:
 * STEX_TIER_CORE, BGRA8UNORM_STORAGE, 1, 2, or NEVER.  It covers
 * creating the format, making it a storage format and the access mode (tier2
 * implies tier1, so one feature always suffices).  UNDEFINED access means
 * write-only.  The WGSL language feature is not part of it. */
STEX_API stex_tier stex_format_access_tier(stex_format f, stex_access access);
/* WebGPU name of the feature a tier stands for ("texture-formats-tier2"),
 * "core" for CORE and "never" for NEVER. */
STEX_API const char *stex_tier_name(stex_tier t);
/* A depth-or-stencil format: one with a depth and/or a stencil aspect. */
STEX_API bool stex_format_is_depth_or_stencil(stex_format f);
/* One aspect of a format, as texel copies move it. */
typedef enum stex_format_aspect {
    STEX_FORMAT_ASPECT_WHOLE,   /* a colour or compressed format's whole texel block */
    STEX_FORMAT_ASPECT_DEPTH,
    STEX_FORMAT_ASPECT_STENCIL
} stex_format_aspect;
/* Copy footprint (bytes) and byte position inside stex's texel of one
 * aspect: WHOLE for formats that are not depth-or-stencil, DEPTH or
 * STENCIL for those that are.  False when the format lacks that aspect. */
STEX_API bool stex_format_aspect_bytes(stex_format f, stex_format_aspect aspect,
                                       uint32_t *bytes, uint32_t *offset);
/* The lessons' formatoIntermedio: r16float if it is a storage format under
 * these features (texture-formats-tier1), else r32float. */
STEX_API stex_format stex_format_intermediate(uint32_t features);

#ifdef __cplusplus
}
#endif
#endif
