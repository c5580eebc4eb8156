/*
 * stex/resource.h - textures (tiled memory), views, buffers (linear memory),
 * samplers, and the copies with WebGPU's byte layout.
 *
 *     stex_texture_desc td = {.size = {64, 64, 1}, .format = STEX_FORMAT_RGBA8UNORM,
 *                             .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC};
 *     stex_texture *t;  stex_texture_create(dev, &td, &t);
 *     stex_texture_view *v;  stex_texture_create_view(t, NULL, &v);
 *     stex_view_store(v, NULL, 3, 4, 0, &(stex_vec4){.f = {1, 0, 0, 1}});
 *     // read back exactly as copyTextureToBuffer would lay it out
 *     stex_buffer *b; stex_buffer_create(dev, &(stex_buffer_desc){.size = 256 * 64,
 *                     .usage = STEX_BUFFER_USAGE_COPY_DST}, &b);
 *     stex_copy_texture_to_buffer(...);
 *
 * Texel coordinates are int64_t so that both WGSL i32 and u32 coordinates fit
 * unchanged; anything outside [0, size) is out of bounds.
 *
 * Failure: create/copy functions return a status (validation errors named in
 * stex_last_error()) and leave every resource unchanged; texel accessors
 * report out-of-bounds by returning false and touching nothing.
 */
#ifndef STEX_RESOURCE_H
#define STEX_RESOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/convert.h"
#include "stex/device.h"
#include "stex/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stex_texture stex_texture;
typedef struct stex_texture_view stex_texture_view;
typedef struct stex_buffer stex_buffer;
typedef struct stex_sampler stex_sampler;

/* ---- textures ---- */

STEX_API stex_status stex_texture_create(stex_device *d, const stex_texture_desc *desc, stex_texture **out);
STEX_API void stex_texture_destroy(stex_texture *t);
/* GPUTexture.destroy(): frees the texel memory now and keeps the object,
 * whose descriptor views and bind groups may still be made and validated
 * with (WebGPU allows both; its queue refuses the destroyed texture at
 * submit, and a dispatch using it here fails).  Twice is nothing. */
STEX_API void stex_texture_discard(stex_texture *t);
STEX_API bool stex_texture_discarded(const stex_texture *t);
/* The descriptor with defaults filled in. */
STEX_API const stex_texture_desc *stex_texture_get_desc(const stex_texture *t);
STEX_API stex_device *stex_texture_device(const stex_texture *t);
/* Size of mip level `mip` (1d: height = depth = 1). */
STEX_API stex_extent3d stex_texture_mip_size(const stex_texture *t, uint32_t mip);
/* The level's "physical" size: its size rounded up to whole texel blocks
 * (a compressed format's 4x4), what copies may reach; (0,0,0) past the
 * last level. */
STEX_API stex_extent3d stex_texture_physical_size(const stex_texture *t, uint32_t mip);
/* Byte offset of texel (x, y, z-or-layer) of level `mip` inside the texture's
 * memory (see docs/memory.md for the tiled scheme); SIZE_MAX if out of range.
 * A compressed texture: the offset of the texel block holding the texel. */
STEX_API size_t stex_texture_texel_offset(const stex_texture *t, uint32_t mip,
                                          uint32_t x, uint32_t y, uint32_t z);
/* Total bytes of memory the texture holds (all levels, layers, padding). */
STEX_API size_t stex_texture_memory_size(const stex_texture *t);
/* Raw memory, for tests and the cache-line model. */
STEX_API uint8_t *stex_texture_memory(stex_texture *t);
/* The address rule of every level (what stex_texture_texel_offset applies). */
STEX_API const stex_texture_layout *stex_texture_get_layout(const stex_texture *t);

/* ---- views ---- */

/* NULL desc = all defaults.  Validated with stex_validate_view. */
STEX_API stex_status stex_texture_create_view(stex_texture *t, const stex_view_desc *desc,
                                              stex_texture_view **out);
STEX_API void stex_texture_view_destroy(stex_texture_view *v);
STEX_API stex_texture *stex_view_texture(const stex_texture_view *v);
/* The resolved descriptor (every default filled in). */
STEX_API const stex_view_desc *stex_view_get_desc(const stex_texture_view *v);
STEX_API stex_format stex_view_format(const stex_texture_view *v);

/* What textureDimensions returns: width, height, depth (3d) - unused
 * components are 1.  And textureNumLayers (array_layer_count of the view). */
STEX_API stex_extent3d stex_view_dimensions(const stex_texture_view *v);
STEX_API uint32_t stex_view_num_layers(const stex_texture_view *v);

/* Storage texel access at the view's single mip level.  `z` is the layer of a
 * 2d-array view (relative to the view's base layer) or the depth of a 3d
 * view; 0 otherwise.  Out-of-bounds: return false, memory untouched.
 * Profile NULL = the device's profile. */
STEX_API bool stex_view_store(const stex_texture_view *v, const stex_profile *p,
                              int64_t x, int64_t y, int64_t z, const stex_vec4 *value);
STEX_API bool stex_view_load(const stex_texture_view *v, const stex_profile *p,
                             int64_t x, int64_t y, int64_t z, stex_vec4 *out);
/* Address of the texel's bytes, or NULL when out of bounds: the fast path. */
STEX_API uint8_t *stex_view_texel(const stex_texture_view *v, int64_t x, int64_t y, int64_t z);

/* The per-texel fast path for the engine: everything a textureStore /
 * textureLoad needs, copied out of the view once (no lock, no allocation per
 * texel).  `memory` already points at the view's mip level and base layer;
 * width/height/depth are the view's bounds (depth = layers of a 2d-array
 * view, depth of a 3d view, 1 otherwise).  Valid while the texture lives;
 * `profile` is the device's when the view was created. */
typedef struct stex_view_access {
    uint8_t *memory;
    stex_level_layout layout;     /* base 0, relative to `memory` */
    uint32_t width, height, depth;
    stex_format format;
    uint32_t bytes_per_texel;
    const stex_profile *profile;  /* the device's */
    stex_encode_fn encode;        /* NULL for formats stex cannot encode */
    stex_decode_fn decode;
} stex_view_access;
STEX_API void stex_view_get_access(const stex_texture_view *v, stex_view_access *out);
static inline uint8_t *stex_view_access_texel(const stex_view_access *a, int64_t x, int64_t y,
                                              int64_t z)
{
    if ((uint64_t)x >= a->width || (uint64_t)y >= a->height || (uint64_t)z >= a->depth)
        return NULL; /* negative values wrap to huge unsigned ones */
    return a->memory + stex_level_offset(&a->layout, (uint32_t)x, (uint32_t)y, (uint32_t)z);
}

/* ---- samplers and sampled reads (texture_2d<f32>) ---- */

typedef enum stex_address_mode {
    STEX_ADDRESS_CLAMP_TO_EDGE = 0, STEX_ADDRESS_REPEAT, STEX_ADDRESS_MIRROR_REPEAT
} stex_address_mode;
typedef enum stex_filter_mode { STEX_FILTER_NEAREST = 0, STEX_FILTER_LINEAR } stex_filter_mode;

/* Filtering arithmetic (docs/memory.md, "Sampling"): where the spec only
 * bounds the precision, a profile-like choice.  AUTO follows the profile the
 * read uses: LAVAPIPE for the lavapipe profile, SPEC otherwise.
 *   SPEC      f32 texel coordinates and weights; the 2x2 (and mip) blend is
 *             computed in double and rounded once to f32.
 *   LAVAPIPE  llvmpipe's arithmetic: float formats (and mirror-repeat) in f32
 *             as fma(w, t1-t0, t0) per axis with x86 NaN propagation; formats
 *             that fit unorm8 with clamp-to-edge/repeat in 8-bit fixed point
 *             (coordinate*256 rounded, 8-bit weights, rounded integer lerp),
 *             then decoded.  Bit-exact at texel centres (all rgba16float codes
 *             of conformance/lavapipe, and blur_output.hex); off-centre it
 *             follows Mesa's gallivm code, unmeasured.
 * The blur kernel samples only texel centres, where both
 * choices return the texel itself unless a neighbour is inf/NaN. */
typedef enum stex_filter_precision {
    STEX_FILTER_PRECISION_AUTO = 0, STEX_FILTER_PRECISION_SPEC, STEX_FILTER_PRECISION_LAVAPIPE
} stex_filter_precision;

/* GPUCompareFunction; UNDEFINED: not a comparison sampler. */
typedef enum stex_compare_function {
    STEX_COMPARE_UNDEFINED = 0, STEX_COMPARE_NEVER, STEX_COMPARE_LESS, STEX_COMPARE_EQUAL,
    STEX_COMPARE_LESS_EQUAL, STEX_COMPARE_GREATER, STEX_COMPARE_NOT_EQUAL,
    STEX_COMPARE_GREATER_EQUAL, STEX_COMPARE_ALWAYS
} stex_compare_function;
STEX_API const char *stex_compare_function_name(stex_compare_function f);

typedef struct stex_sampler_desc {
    stex_address_mode address_mode_u, address_mode_v, address_mode_w;
    stex_filter_mode mag_filter, min_filter, mipmap_filter;
    float lod_min_clamp, lod_max_clamp; /* 0, 0 = WebGPU defaults 0, 32 */
    stex_filter_precision precision;    /* stex extension; AUTO = by profile */
    stex_compare_function compare;      /* UNDEFINED = a plain sampler */
    uint32_t max_anisotropy;            /* 0 = 1; accepted, unused by explicit-LOD calls */
} stex_sampler_desc;

STEX_API stex_status stex_sampler_create(stex_device *d, const stex_sampler_desc *desc, stex_sampler **out);
STEX_API void stex_sampler_destroy(stex_sampler *s);
STEX_API const stex_sampler_desc *stex_sampler_get_desc(const stex_sampler *s);
STEX_API stex_device *stex_sampler_device(const stex_sampler *s);

/* textureLoad(texture_2d<f32>, coords, level) on a sampled view: false (and
 * a zero vector) out of bounds. */
STEX_API bool stex_view_load_level(const stex_texture_view *v, const stex_profile *p,
                                   int64_t x, int64_t y, int64_t layer, int64_t level, stex_vec4 *out);
/* textureSampleLevel(t, s, uv, level) on a 2d / 2d-array view. */
STEX_API void stex_view_sample_level(const stex_texture_view *v, const stex_sampler *s,
                                     const stex_profile *p, float u, float v_, int64_t layer,
                                     float level, stex_vec4 *out);

/* Every sampling builtin on every sampled view (src/resource/sample.c):
 * textureSampleLevel (2d, 2d-array, 3d, cube, cube-array, with offsets),
 * textureSampleGrad, textureSampleCompareLevel and textureGatherCompare (the
 * sampler's compare function against depth_ref), textureGather,
 * textureSampleBaseClampToEdge.  Filtering arithmetic as
 * stex_sampler_desc.precision says. */
typedef enum stex_sample_fn {
    STEX_SAMPLE_LEVEL = 0, STEX_SAMPLE_GRAD, STEX_SAMPLE_COMPARE_LEVEL, STEX_SAMPLE_GATHER,
    STEX_SAMPLE_GATHER_COMPARE, STEX_SAMPLE_BASE_CLAMP_TO_EDGE
} stex_sample_fn;
typedef struct stex_sample_args {
    stex_sample_fn fn;
    float coord[3];          /* u, v (2d), w (3d), or the direction (cube) */
    int64_t array_index;     /* 2d-array, cube-array: clamped into the view's range */
    float level;             /* LEVEL: the explicit level of detail */
    float ddx[3], ddy[3];    /* GRAD */
    int32_t offset[3];       /* texel offset (2d, 2d-array, 3d) */
    float depth_ref;         /* COMPARE_LEVEL, GATHER_COMPARE */
    uint32_t component;      /* GATHER: 0..3 (a depth texture: 0) */
} stex_sample_args;
STEX_API void stex_view_sample(const stex_texture_view *v, const stex_sampler *s,
                               const stex_profile *p, const stex_sample_args *a, stex_vec4 *out);

/* ---- sampled, depth and multisampled views: textureLoad and the queries ---- */

/* textureLoad on a sampled view of dimension 1d, 2d, 2d-array or 3d (WGSL
 * has no textureLoad on cube views): `level` counts from the view's
 * baseMipLevel; z is the array index (2d-array, counted from the view's
 * baseArrayLayer) or the depth (3d), else 0; `sample` is the sample index
 * of a multisampled view (its level is 0), else 0.  Depth formats read
 * (D, 0, 0, 1).  False and a zero vector when anything is out of bounds. */
STEX_API bool stex_view_fetch(const stex_texture_view *v, const stex_profile *p, int64_t x,
                              int64_t y, int64_t z, int64_t level, int64_t sample,
                              stex_vec4 *out);
/* textureDimensions(t, level): width, height and depth (3d) of the view's
 * level `level` (a cube view: one face); unused components 1.  False when
 * the level is not below the view's mipLevelCount. */
STEX_API bool stex_view_level_dimensions(const stex_texture_view *v, uint32_t level,
                                         stex_extent3d *out);
STEX_API uint32_t stex_view_num_levels(const stex_texture_view *v);  /* textureNumLevels */
STEX_API uint32_t stex_view_num_samples(const stex_texture_view *v); /* textureNumSamples */

/* stex's own way to give texels that a compute-only program cannot produce
 * (WebGPU writes multisampled textures only by rendering, and copies may not
 * write depth24plus or depth32float): level `mip`, sample `sample` (0 unless
 * multisampled), every layer, texels tightly packed row by row and layer by
 * layer in the format's bytes.  No usage is required. */
STEX_API stex_status stex_texture_set_texels(stex_texture *t, uint32_t mip, uint32_t sample,
                                             const void *data, size_t size);
/* A depth value as a texel of depth format f in stex's representation:
 * depth16unorm and depth24plus(-stencil8) round d * (2^n - 1) to nearest
 * (depth24plus: unorm24 in bits 0..23 of a 32-bit word, stencil in 24..31),
 * depth32float and depth32float-stencil8 keep the float in bytes 0..3
 * (the latter's stencil byte is not written).  False (nothing written) for a format
 * without depth, NaN, or a unorm depth outside [0, 1]. */
STEX_API bool stex_depth_encode(stex_format f, float d, uint8_t *out);

/* ---- buffers ---- */

typedef struct stex_buffer_desc {
    uint64_t size;   /* bytes; a multiple of 4 */
    uint32_t usage;  /* STEX_BUFFER_USAGE_* */
    const char *label;
} stex_buffer_desc;

STEX_API stex_status stex_buffer_create(stex_device *d, const stex_buffer_desc *desc, stex_buffer **out);
STEX_API void stex_buffer_destroy(stex_buffer *b);
/* GPUBuffer.destroy(): frees the bytes now and keeps the object, as
 * stex_texture_discard does; stex_buffer_data is then NULL. */
STEX_API void stex_buffer_discard(stex_buffer *b);
STEX_API bool stex_buffer_discarded(const stex_buffer *b);
STEX_API uint64_t stex_buffer_size(const stex_buffer *b);
STEX_API stex_device *stex_buffer_device(const stex_buffer *b);
STEX_API uint32_t stex_buffer_usage(const stex_buffer *b);
STEX_API uint8_t *stex_buffer_data(stex_buffer *b); /* zero-initialised, 16-byte aligned */

/* Typed access to 32-bit words at byte `offset` (a multiple of 4), as
 * array<u32> / array<i32> / array<f32> elements: false (and nothing read or
 * written) when the word is misaligned or out of range.  Plain, not atomic. */
STEX_API bool stex_buffer_read_u32(const stex_buffer *b, uint64_t offset, uint32_t *out);
STEX_API bool stex_buffer_write_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API bool stex_buffer_read_i32(const stex_buffer *b, uint64_t offset, int32_t *out);
STEX_API bool stex_buffer_write_i32(stex_buffer *b, uint64_t offset, int32_t v);
STEX_API bool stex_buffer_read_f32(const stex_buffer *b, uint64_t offset, float *out);
STEX_API bool stex_buffer_write_f32(stex_buffer *b, uint64_t offset, float v);

/* queue.writeBuffer */
STEX_API stex_status stex_queue_write_buffer(stex_buffer *b, uint64_t offset, const void *data, size_t size);

/* GPUCommandEncoder.copyBufferToBuffer: offsets and size multiples of 4,
 * COPY_SRC / COPY_DST, both ranges inside their buffers, src != dst. */
STEX_API stex_status stex_copy_buffer_to_buffer(const stex_buffer *src, uint64_t src_offset,
                                                stex_buffer *dst, uint64_t dst_offset, uint64_t size);
/* GPUCommandEncoder.clearBuffer: zeroes [offset, offset + size); size
 * UINT64_MAX = to the end.  COPY_DST, multiples of 4, inside the buffer. */
STEX_API stex_status stex_clear_buffer(stex_buffer *b, uint64_t offset, uint64_t size);

/* WGSL atomics on 32-bit words at byte `offset` (a multiple of 4); each returns
 * the old value.  Sequentially consistent, safe across threads. */
STEX_API uint32_t stex_atomic_load_u32(stex_buffer *b, uint64_t offset);
STEX_API void stex_atomic_store_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API uint32_t stex_atomic_add_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API uint32_t stex_atomic_sub_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API uint32_t stex_atomic_max_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API uint32_t stex_atomic_min_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API int32_t stex_atomic_max_i32(stex_buffer *b, uint64_t offset, int32_t v);
STEX_API int32_t stex_atomic_min_i32(stex_buffer *b, uint64_t offset, int32_t v);
STEX_API uint32_t stex_atomic_and_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API uint32_t stex_atomic_or_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API uint32_t stex_atomic_xor_u32(stex_buffer *b, uint64_t offset, uint32_t v);
STEX_API uint32_t stex_atomic_exchange_u32(stex_buffer *b, uint64_t offset, uint32_t v);
/* atomicCompareExchangeWeak: returns old_value, sets *exchanged. */
STEX_API uint32_t stex_atomic_compare_exchange_weak_u32(stex_buffer *b, uint64_t offset,
                                                        uint32_t cmp, uint32_t v, bool *exchanged);
/* (i32 add/sub/and/or/xor/exchange are the u32 ones on the bit pattern.) */

/* ---- copies (GPUTexelCopyBufferLayout / GPUTexelCopyTextureInfo) ---- */

typedef struct stex_copy_layout {
    uint64_t offset;
    uint32_t bytes_per_row;   /* 0 = not given (allowed only for a single row) */
    uint32_t rows_per_image;  /* 0 = not given (allowed only for a single image) */
} stex_copy_layout;

/* bytes_per_row or rows_per_image given as 0 (WebGPU tells "0" from "not
 * given": a given value must cover the copy's row or image). */
#define STEX_LAYOUT_ZERO 0xffffffffu

typedef struct stex_copy_texture {
    stex_texture *texture;
    uint32_t mip_level;
    uint32_t origin[3];       /* x, y, z-or-layer; x, y multiples of the texel block */
    stex_texture_aspect aspect; /* ALL (0) by default; buffer copies of depth-stencil
                                 * formats name one aspect */
    uint32_t exact;           /* 0, or STEX_COPY_EXACT and its UNSET bits (below) */
} stex_copy_texture;

/* A copy's size: width is taken as it is (0: an empty copy); a height or
 * depthOrArrayLayers of 0 means "not given", 1, as WebGPU's GPUExtent3D
 * defaults them.  STEX_EXTENT_ZERO asks for an explicit 0 there: an empty
 * copy, which WebGPU still validates (the origin inside the subresource,
 * the block rules...) and then moves nothing. */
#define STEX_EXTENT_ZERO 0xffffffffu
/* stex_copy_texture.exact (on either texture of a copy): the copy's numbers
 * as a WebGPU caller gives them, every uint32 a value (0 and 0xffffffff
 * included: WebIDL's GPUSize32), with none of the conventions above - the
 * size taken as it is (no default, no STEX_EXTENT_ZERO), bytes_per_row and
 * rows_per_image given unless their UNSET bit says they were left out. */
#define STEX_COPY_EXACT 0x1u
#define STEX_COPY_BYTES_PER_ROW_UNSET 0x2u
#define STEX_COPY_ROWS_PER_IMAGE_UNSET 0x4u

/* Texel copies move texel blocks as raw bytes (a compressed format's 4x4
 * blocks, a depth-stencil format's named aspect): origin and copySize in
 * texels, multiples of the block, inside the level's physical size;
 * bytes_per_row and rows_per_image count blocks; depth-or-stencil copies
 * cover the whole level (width and height) and buffer copies of them name
 * one aspect that the spec's depth-stencil formats table lets be copied
 * that way (depth24plus never; depth32float's depth only out of a texture).
 * queue.writeTexture: no 256 rule on bytes_per_row, no offset alignment. */
STEX_API stex_status stex_queue_write_texture(const stex_copy_texture *dst, const void *data,
                                              size_t data_size, const stex_copy_layout *layout,
                                              stex_extent3d size);
/* Buffer copies: bytes_per_row a multiple of 256, usages COPY_SRC/COPY_DST.
 * Bytes between rows and images in the buffer are left untouched. */
STEX_API stex_status stex_copy_buffer_to_texture(stex_buffer *src, const stex_copy_layout *layout,
                                                 const stex_copy_texture *dst, stex_extent3d size);
STEX_API stex_status stex_copy_texture_to_buffer(const stex_copy_texture *src, stex_buffer *dst,
                                                 const stex_copy_layout *layout, stex_extent3d size);
/* copyTextureToTexture: COPY_SRC / COPY_DST, formats equal but for -srgb,
 * depth-or-stencil textures with every aspect named (aspect ALL),
 * sampleCount 1, the box inside both subresources, and no subresource
 * both read and written. */
STEX_API stex_status stex_copy_texture_to_texture(const stex_copy_texture *src,
                                                  const stex_copy_texture *dst, stex_extent3d size);

/* The encoder's checks: each copy's rules without the copy (what
 * GPUCommandEncoder.finish() reports); the copies check them again when
 * they run. */
STEX_API stex_status stex_check_copy_buffer_to_buffer(const stex_buffer *src, uint64_t src_offset,
                                                      const stex_buffer *dst, uint64_t dst_offset,
                                                      uint64_t size);
STEX_API stex_status stex_check_clear_buffer(const stex_buffer *b, uint64_t offset, uint64_t size);
STEX_API stex_status stex_check_copy_buffer_to_texture(const stex_buffer *src,
                                                       const stex_copy_layout *layout,
                                                       const stex_copy_texture *dst,
                                                       stex_extent3d size);
STEX_API stex_status stex_check_copy_texture_to_buffer(const stex_copy_texture *src,
                                                       const stex_buffer *dst,
                                                       const stex_copy_layout *layout,
                                                       stex_extent3d size);
STEX_API stex_status stex_check_copy_texture_to_texture(const stex_copy_texture *src,
                                                        const stex_copy_texture *dst,
                                                        stex_extent3d size);

#ifdef __cplusplus
}
#endif
#endif
