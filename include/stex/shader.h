/*
 * stex/shader.h - what a compute kernel sees: its invocation ids, its
 * bindings, and the WGSL builtins, as a C API.
 *
 * A kernel is a C function run once per invocation.  Every builtin takes the
 * invocation (so the engine can order barriers, apply the visibility mode and
 * feed the race detector) and a @binding number in @group(0):
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

#include "stex/convert.h"
#include "stex/resource.h"

#ifdef __cplusplus
extern "C" {
#endif

struct stex_exec; /* engine state, opaque to kernels */

typedef struct stex_invocation {
    uint32_t global_invocation_id[3];
    uint32_t local_invocation_id[3];
    uint32_t local_invocation_index;
    uint32_t workgroup_id[3];
    uint32_t num_workgroups[3];
    const void *params;       /* the dispatch's uniform block (read-only) */
    void *workgroup_memory;   /* var<workgroup>: zeroed at workgroup start */
    struct stex_exec *exec;
} stex_invocation;

typedef void (*stex_kernel_fn)(const stex_invocation *inv);

/* A typed shader value: vec4<f32>, vec4<u32> or vec4<i32>. */
typedef struct stex_value {
    stex_scalar_type type;
    stex_vec4 v;
} stex_value;

typedef struct stex_uvec2 { uint32_t x, y; } stex_uvec2;
typedef struct stex_uvec3 { uint32_t x, y, z; } stex_uvec3;

static inline stex_value stex_f32x4(float r, float g, float b, float a)
{ stex_value s = {STEX_SCALAR_F32, {.f = {r, g, b, a}}}; return s; }
static inline stex_value stex_u32x4(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{ stex_value s = {STEX_SCALAR_U32, {.u = {r, g, b, a}}}; return s; }
static inline stex_value stex_i32x4(int32_t r, int32_t g, int32_t b, int32_t a)
{ stex_value s = {STEX_SCALAR_I32, {.i = {r, g, b, a}}}; return s; }

/* textureStore: out-of-bounds coordinates (or layer) discard the store. */
void stex_textureStore_1d(const stex_invocation *inv, uint32_t binding, int64_t x, stex_value v);
void stex_textureStore_2d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                          stex_value v);
void stex_textureStore_2d_array(const stex_invocation *inv, uint32_t binding, int64_t x,
                                int64_t y, int64_t layer, stex_value v);
void stex_textureStore_3d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                          int64_t z, stex_value v);

/* textureLoad on read / read_write storage textures (no level). */
stex_value stex_textureLoad_1d(const stex_invocation *inv, uint32_t binding, int64_t x);
stex_value stex_textureLoad_2d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y);
stex_value stex_textureLoad_2d_array(const stex_invocation *inv, uint32_t binding, int64_t x,
                                     int64_t y, int64_t layer);
stex_value stex_textureLoad_3d(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                               int64_t z);

/* textureDimensions (no level for storage textures) and textureNumLayers. */
uint32_t stex_textureDimensions_1d(const stex_invocation *inv, uint32_t binding);
stex_uvec2 stex_textureDimensions_2d(const stex_invocation *inv, uint32_t binding); /* 2d, 2d_array */
stex_uvec3 stex_textureDimensions_3d(const stex_invocation *inv, uint32_t binding);
uint32_t stex_textureNumLayers(const stex_invocation *inv, uint32_t binding);

/* texture_2d<f32>: textureLoad with a level, textureSampleLevel with a sampler. */
stex_vec4 stex_textureLoad_level_2d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                    int64_t y, int64_t level);
stex_vec4 stex_textureSampleLevel_2d(const stex_invocation *inv, uint32_t texture_binding,
                                     uint32_t sampler_binding, float u, float v, float level);

/* Storage buffers, addressed by 32-bit word index (array<u32|i32|f32>) or by
 * vec4 index (array<vec4<...>>).  Out-of-range accesses follow WGSL's
 * bounded behaviour: stores are discarded, loads return 0. */
uint32_t stex_buffer_load_u32(const stex_invocation *inv, uint32_t binding, uint64_t index);
float stex_buffer_load_f32(const stex_invocation *inv, uint32_t binding, uint64_t index);
int32_t stex_buffer_load_i32(const stex_invocation *inv, uint32_t binding, uint64_t index);
void stex_buffer_store_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
void stex_buffer_store_f32(const stex_invocation *inv, uint32_t binding, uint64_t index, float v);
void stex_buffer_store_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
stex_vec4 stex_buffer_load_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index);
void stex_buffer_store_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index, stex_vec4 v);

/* Atomics on array<atomic<u32|i32>> words; each returns the old value. */
uint32_t stex_atomicLoad(const stex_invocation *inv, uint32_t binding, uint64_t index);
void stex_atomicStore(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicAdd(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicSub(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicMax_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicMin_u32(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
int32_t stex_atomicMax_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
int32_t stex_atomicMin_i32(const stex_invocation *inv, uint32_t binding, uint64_t index, int32_t v);
uint32_t stex_atomicAnd(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicOr(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicXor(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicExchange(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v);
uint32_t stex_atomicCompareExchangeWeak(const stex_invocation *inv, uint32_t binding,
                                        uint64_t index, uint32_t cmp, uint32_t v, bool *exchanged);

/* Barriers: only for pipelines created with uses_barriers; all invocations of
 * the workgroup must reach the same barrier (uniform control flow). */
void stex_workgroupBarrier(const stex_invocation *inv);
void stex_storageBarrier(const stex_invocation *inv);
void stex_textureBarrier(const stex_invocation *inv);

/* The conversion profile in force (for the pack/unpack builtins of convert.h). */
const stex_profile *stex_invocation_profile(const stex_invocation *inv);

#ifdef __cplusplus
}
#endif
#endif
