/*
 * stex/shader.h - what a compute kernel sees: its invocation ids, its
 * bindings, and the WGSL builtins, as a C API.
 *
 * A kernel is a C function run once per invocation.  Every builtin takes the
 * invocation (so the engine can order barriers, apply the visibility mode and
 * feed the race detector) and a binding: STEX_BINDING(group, binding) for
 * @group(group) @binding(binding), or just the number for @group(0):
 *
 *     static void decaer(const stex_invocation *inv) {       // r32float, read_write
 *         stex_uvec2 size = stex_textureDimensions_2d(inv, 0);
 *         uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
 *         if (x >= size.x || y >= size.y) return;
 *         stex_value v = stex_textureLoad_2d(inv, 0, x, y);
 *         stex_textureStore_2d(inv, 0, x, y, stex_f32x4(v.v.f[0] * 0.98f, 0, 0, 1));
 *     }
 *
 * Coordinates are int64_t so WGSL i32 and u32 coordinates both pass unchanged.
 *
 * Failure: a call WGSL would reject at shader creation (a value type that does
 * not match the format, textureLoad on a write-only texture, a builtin on a
 * binding of the wrong kind or dimension) does nothing, and the dispatch
 * returns STEX_SHADER_ERROR with WGSL's rule in stex_last_error().
 */
#ifndef STEX_SHADER_H
#define STEX_SHADER_H

#include <stdbool.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/convert.h"
#include "stex/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

struct stex_exec; /* engine state, opaque to kernels */

/* The invocation loop below is inlined into every workgroup function. */
#if defined(__GNUC__)
#define STEX__ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define STEX__ALWAYS_INLINE static inline
#endif

typedef struct stex_invocation {
    uint32_t global_invocation_id[3];
    uint32_t local_invocation_id[3];
    uint32_t local_invocation_index;
    uint32_t workgroup_id[3];
    uint32_t num_workgroups[3];
    const void *params;       /* stex_dispatch_options.params: host data for C kernels
                               * (WGSL's var<uniform> are uniform-buffer bindings) */
    void *workgroup_memory;   /* var<workgroup>: zeroed at workgroup start */
    struct stex_exec *exec;
} stex_invocation;

typedef void (*stex_kernel_fn)(const stex_invocation *inv);

/* One workgroup handed to a workgroup function (below): the invocation with
 * the workgroup's ids filled in, and the order to run its invocations in. */
typedef struct stex_workgroup {
    stex_invocation *inv;
    const uint32_t *order;     /* local_invocation_index in run order; NULL = 0, 1, 2, ... */
    const uint32_t (*lid)[3];  /* local_invocation_index -> local_invocation_id */
    uint32_t base[3];          /* workgroup_id * workgroup_size */
    uint32_t size[3];          /* @workgroup_size */
} stex_workgroup;
typedef void (*stex_workgroup_fn)(const stex_workgroup *wg);

/* The engine's per-invocation loop with the kernel compiled into it, so the
 * compiler inlines the kernel and its builtins instead of making one
 * indirect call per invocation.  The order is exactly the one the engine
 * would use calling the kernel itself, so results do not change. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
STEX__ALWAYS_INLINE void stex__workgroup_loop(const stex_workgroup *w, stex_kernel_fn kernel)
{
    stex_invocation *inv = w->inv;
    if (!w->order) {
        uint32_t idx = 0;
        for (uint32_t z = 0; z < w->size[2]; z++) {
            inv->local_invocation_id[2] = z;
            inv->global_invocation_id[2] = w->base[2] + z;
            for (uint32_t y = 0; y < w->size[1]; y++) {
                inv->local_invocation_id[1] = y;
                inv->global_invocation_id[1] = w->base[1] + y;
                for (uint32_t x = 0; x < w->size[0]; x++) {
                    inv->local_invocation_id[0] = x;
                    inv->global_invocation_id[0] = w->base[0] + x;
                    inv->local_invocation_index = idx++;
                    kernel(inv);
                }
            }
        }
        return;
    }
    uint32_t n = w->size[0] * w->size[1] * w->size[2];
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = w->order[k];
        for (int c = 0; c < 3; c++) {
            inv->local_invocation_id[c] = w->lid[i][c];
            inv->global_invocation_id[c] = w->base[c] + w->lid[i][c];
        }
        inv->local_invocation_index = i;
        kernel(inv);
    }
}

/* Defines `static void name(const stex_workgroup *)` running `kernel` (a
 * static function of the same file) for every invocation of a workgroup;
 * give it to stex_pipeline_desc.workgroup next to .kernel. */
#if defined(__GNUC__)
#define STEX__FLATTEN __attribute__((flatten)) /* inline the kernel and its builtins */
#else
#define STEX__FLATTEN
#endif
#define STEX_WORKGROUP_FN(name, kernel) \
    STEX__FLATTEN static void name(const stex_workgroup *w_) { stex__workgroup_loop(w_, kernel); }

/* A typed shader value: vec4<f32>, vec4<u32> or vec4<i32>. */
typedef struct stex_value {
    stex_scalar_type type;
    stex_vec4 v;
} stex_value;

typedef struct stex_uvec2 { uint32_t x, y; } stex_uvec2;
typedef struct stex_uvec3 { uint32_t x, y, z; } stex_uvec3;

STEX__ALWAYS_INLINE stex_value stex_f32x4(float r, float g, float b, float a)
{ stex_value s = {STEX_SCALAR_F32, {.f = {r, g, b, a}}}; return s; }
STEX__ALWAYS_INLINE stex_value stex_u32x4(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{ stex_value s = {STEX_SCALAR_U32, {.u = {r, g, b, a}}}; return s; }
STEX__ALWAYS_INLINE stex_value stex_i32x4(int32_t r, int32_t g, int32_t b, int32_t a)
{ stex_value s = {STEX_SCALAR_I32, {.i = {r, g, b, a}}}; return s; }

/* The kinds of binding a builtin addresses (GPUBindGroupLayoutEntry's). */
typedef enum stex_binding_type {
    STEX_BINDING_STORAGE_TEXTURE = 1,   /* texture_storage_* */
    STEX_BINDING_TEXTURE,               /* texture_2d<f32> etc. */
    STEX_BINDING_SAMPLER,
    STEX_BINDING_STORAGE_BUFFER,        /* var<storage, read_write> */
    STEX_BINDING_READ_ONLY_STORAGE_BUFFER,
    STEX_BINDING_UNIFORM_BUFFER
} stex_binding_type;

/* What a read of a texel written by another workgroup in the same dispatch returns. */
typedef enum stex_visibility {
    STEX_VISIBILITY_IMMEDIATE = 0, /* whatever has been written so far */
    STEX_VISIBILITY_SNAPSHOT       /* the value at dispatch start */
} stex_visibility;

/* What an out-of-bounds textureLoad returns (all allowed by WGSL). */
typedef enum stex_oob_load {
    STEX_OOB_LOAD_ZERO = 0,        /* the zero texel, decoded: (0,0,0,0) or (0,0,0,1) */
    STEX_OOB_LOAD_ZERO_ALPHA_ONE,  /* (0,0,0,1) always */
    STEX_OOB_LOAD_RANDOM_TEXEL     /* some in-bounds texel, chosen by the seed */
} stex_oob_load;

/* Sees each textureStore that lands: an in-bounds store, with the view, its
 * coordinates (z = array layer of the view, or depth) and the vec4 before
 * the format's conversion; never an out-of-bounds (discarded) store, nor one
 * after a shader error.  Called from the thread that runs the invocation -
 * with threads > 1, from several at once, in no order across threads -
 * before the texel is written.  Setting it sends every store of the
 * dispatch down the out-of-line path; without it the engine pays nothing. */
#define STEX_DISPATCH_HAS_STORE_OBSERVER 1
typedef void (*stex_store_observer_fn)(void *user, const stex_texture_view *view, int64_t x,
                                       int64_t y, int64_t z, const stex_vec4 *value);

/* @group(g) @binding(b) as the builtins take it; a plain number n is
 * @group(0) @binding(n).  Groups 0..3 (maxBindGroups), bindings 0..65535. */
#define STEX_BINDING(group, binding) (((uint32_t)(group) << 16) | (uint32_t)(binding))
#define STEX_BINDING_GROUP(ref) ((ref) >> 16)
#define STEX_BINDING_NUMBER(ref) ((ref) & 0xffffu)
/* "@binding(3)" for @group(0), "@group(1) @binding(3)" otherwise; returns buf. */
STEX_API const char *stex_binding_name(uint32_t ref, char buf[32]);

/* STEX_UNROLL(n) before a kernel's short constant loop (a 3x3 stencil, the
 * taps of a filter) unrolls it: the taps' address arithmetic then folds. */
#define STEX__PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define STEX_UNROLL(n) STEX__PRAGMA(unroll n)
#elif defined(__GNUC__)
#define STEX_UNROLL(n) STEX__PRAGMA(GCC unroll n)
#else
#define STEX_UNROLL(n)
#endif

/* textureStore on write / read_write storage textures: out-of-bounds
 * coordinates (or layer) discard the store. */
STEX_API void stex_textureStore_1d(const stex_invocation *inv, uint32_t binding, int64_t x, stex_value v);
STEX_API void stex_textureStore_2d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                                   stex_value v);
STEX_API void stex_textureStore_2d_array(const stex_invocation *inv, uint32_t binding, int64_t x,
                                         int64_t y, int64_t layer, stex_value v);
STEX_API void stex_textureStore_3d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                                   int64_t z, stex_value v);

/* textureLoad on read / read_write storage textures (no level); out of
 * bounds: the dispatch's stex_oob_load policy. */
STEX_API stex_value stex_textureLoad_1d(const stex_invocation *inv, uint32_t binding, int64_t x);
STEX_API stex_value stex_textureLoad_2d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y);
STEX_API stex_value stex_textureLoad_2d_array(const stex_invocation *inv, uint32_t binding, int64_t x,
                                              int64_t y, int64_t layer);
STEX_API stex_value stex_textureLoad_3d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                                        int64_t z);

/* textureDimensions (no level for storage textures) and textureNumLayers. */
STEX_API uint32_t stex_textureDimensions_1d(const stex_invocation *inv, uint32_t binding);
STEX_API stex_uvec2 stex_textureDimensions_2d(const stex_invocation *inv, uint32_t binding);
STEX_API stex_uvec3 stex_textureDimensions_3d(const stex_invocation *inv, uint32_t binding);
STEX_API uint32_t stex_textureNumLayers(const stex_invocation *inv, uint32_t binding);

/* texture_2d<f32>: textureLoad with a level, textureSampleLevel with a sampler. */
STEX_API stex_vec4 stex_textureLoad_level_2d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                             int64_t y, int64_t level);
STEX_API stex_vec4 stex_textureSampleLevel_2d(const stex_invocation *inv, uint32_t texture_binding,
                                              uint32_t sampler_binding, float u, float v, float level);

/* Sampled textures of every kind (texture_1d/2d/2d_array/3d<T>,
 * texture_multisampled_2d<T>, texture_depth_*): textureLoad with x, y, the
 * array index or z (`z`) and the level - or, on a multisampled texture, the
 * sample index (`level_or_sample`); `dim` is the texture type's dimension.
 * The value is vec4<f32|i32|u32> by the view's format (a depth texture's
 * depth in .f[0]).  Out of bounds: the dispatch's stex_oob_load policy. */
STEX_API stex_value stex_textureLoad_sampled(const stex_invocation *inv, uint32_t binding,
                                             stex_view_dimension dim, int64_t x, int64_t y,
                                             int64_t z, int64_t level_or_sample);
/* textureDimensions(t, level) of any sampled texture (a cube: one face's
 * width and height): zeros when the level is not below textureNumLevels,
 * which WGSL leaves indeterminate.  textureNumLevels, textureNumSamples
 * (1 for a single-sampled texture).  stex_textureNumLayers above answers
 * 2d-array and cube-array textures (the number of cubes). */
STEX_API stex_uvec3 stex_textureDimensions_level(const stex_invocation *inv, uint32_t binding,
                                                 int64_t level);
STEX_API uint32_t stex_textureNumLevels(const stex_invocation *inv, uint32_t binding);
STEX_API uint32_t stex_textureNumSamples(const stex_invocation *inv, uint32_t binding);

/* Every sampling builtin on a sampled texture with a sampler (the call in
 * stex_sample_args, stex/resource.h): textureSampleLevel, textureSampleGrad,
 * textureSampleCompareLevel, textureGather, textureGatherCompare,
 * textureSampleBaseClampToEdge.  The comparisons need a comparison sampler,
 * the others a plain one; a depth result is in .f[0]. */
STEX_API stex_vec4 stex_textureSample(const stex_invocation *inv, uint32_t texture_binding,
                                      uint32_t sampler_binding, const stex_sample_args *a);

/* Storage and uniform buffers, addressed by 32-bit word index
 * (array<u32|i32|f32>, a struct's scalar members) or by vec4 index
 * (array<vec4<...>>).  Out-of-range accesses follow WGSL's bounded
 * behaviour: stores are discarded, loads return 0.  Uniform buffers are
 * read-only: a store to one is a shader error. */
STEX_API uint32_t stex_buffer_load_u32(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API float stex_buffer_load_f32(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API int32_t stex_buffer_load_i32(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API void stex_buffer_store_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API void stex_buffer_store_f32(const stex_invocation *inv, uint32_t binding, uint64_t index, float v);
STEX_API void stex_buffer_store_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
/* arrayLength of a runtime-sized array of `stride`-byte elements filling the
 * bound range: floor(range / stride). */
STEX_API uint32_t stex_arrayLength(const stex_invocation *inv, uint32_t binding, uint32_t stride);
STEX_API stex_vec4 stex_buffer_load_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API void stex_buffer_store_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index, stex_vec4 v);

/* Atomics on array<atomic<u32|i32>> words; each returns the old value. */
STEX_API uint32_t stex_atomicLoad(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX_API void stex_atomicStore(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicAdd(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicSub(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicMax_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicMin_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API int32_t stex_atomicMax_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
STEX_API int32_t stex_atomicMin_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
STEX_API uint32_t stex_atomicAnd(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicOr(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicXor(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicExchange(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
STEX_API uint32_t stex_atomicCompareExchangeWeak(const stex_invocation *inv, uint32_t binding,
                                                 uint64_t index, uint32_t cmp, uint32_t v, bool *exchanged);

/* var<workgroup> memory as 32-bit words (index < workgroup_memory_size / 4).
 * Kernels may also use inv->workgroup_memory directly; going through these
 * lets the race detector see the accesses (a reduction missing its
 * workgroupBarrier is then reported).  Out of range: loads 0, stores dropped. */
STEX_API uint32_t stex_workgroup_load_u32(const stex_invocation *inv, uint64_t index);
STEX_API void stex_workgroup_store_u32(const stex_invocation *inv, uint64_t index, uint32_t v);
STEX_API float stex_workgroup_load_f32(const stex_invocation *inv, uint64_t index);
STEX_API void stex_workgroup_store_f32(const stex_invocation *inv, uint64_t index, float v);
STEX_API uint32_t stex_workgroup_atomicAdd(const stex_invocation *inv, uint64_t index, uint32_t v);

/* Barriers: only for pipelines created with uses_barriers; all invocations of
 * the workgroup must reach the same barrier (uniform control flow), else the
 * dispatch returns STEX_SHADER_ERROR.  Each is a control barrier for the
 * workgroup and orders one kind of memory: workgroupBarrier var<workgroup>,
 * storageBarrier storage buffers, textureBarrier storage textures.  None
 * orders anything between workgroups. */
STEX_API void stex_workgroupBarrier(const stex_invocation *inv);
STEX_API void stex_storageBarrier(const stex_invocation *inv);
STEX_API void stex_textureBarrier(const stex_invocation *inv);

/* The conversion profile in force (for the pack/unpack builtins of convert.h),
 * and pack4x8unorm / unpack4x8unorm under it. */
STEX_API const stex_profile *stex_invocation_profile(const stex_invocation *inv);
STEX_API uint32_t stex_invocation_pack4x8unorm(const stex_invocation *inv, const float v[4]);
STEX_API void stex_invocation_unpack4x8unorm(const stex_invocation *inv, uint32_t w, float out[4]);

#ifdef __cplusplus
}
#endif
#endif
