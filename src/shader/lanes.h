/*
 * Internal: the builtins for n lanes of one sub-group at a time, for an
 * executor that runs each instruction for all lanes at once (the WGSL
 * interpreter).  Each call looks its binding up once, then runs every
 * active lane through the same code as the per-invocation builtins of
 * stex/shader.h (inline fast path, out-of-line half), with the lane's own
 * invocation ids: conversion per profile, out-of-bounds discard and load
 * policy, tiling, visibility mode, race recording and shader errors are
 * those of a C kernel calling the builtin once per lane, in lane order.
 */
#ifndef STEX_SHADER_LANES_H
#define STEX_SHADER_LANES_H

#include <stdbool.h>
#include <stdint.h>

#include "stex/shader.h"

/* n lanes of one workgroup.  Lane i is the invocation whose
 * local_invocation_index is lid[i]; it takes part when bit i of active is
 * set (active holds (n + 63) / 64 words).  inv holds the workgroup's ids and
 * engine state (as the engine hands it to a workgroup function); the calls
 * set its local and global ids to each lane's in turn. */
typedef struct stex_lanes {
    stex_invocation *inv;
    const uint32_t *lid;
    const uint64_t *active;
    uint32_t n;
    /* The access site of the calls (the executor's number for the
     * instruction; 0 = unknown): the race detector keeps it beside the
     * accesses it records (stex_race_party.site), the executor names it
     * (phase_executor.site_name).  stex_lanes_enter hands it on. */
    uint32_t site;
} stex_lanes;

static inline bool stex_lane_active(const stex_lanes *l, uint32_t i)
{
    return l->active[i >> 6] >> (i & 63) & 1u;
}

/* Sets l->inv's local and global ids to lane i's (the calls below do it
 * before each lane's access; an executor may too). */
void stex_lanes_enter(const stex_lanes *l, uint32_t i);

/* textureStore / textureLoad on storage textures of dimension dim: lane i
 * uses coordinates (x[i], y[i], z[i]) (unused axes ignored) and value v[i]
 * or result out[i] (inactive lanes' out[i] untouched). */
void stex_lanes_textureStore(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                             const int64_t *x, const int64_t *y, const int64_t *z,
                             const stex_value *v);
void stex_lanes_textureLoad(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                            const int64_t *x, const int64_t *y, const int64_t *z,
                            stex_value *out);
/* texture_2d<f32>: textureLoad with a level; textureSampleLevel. */
void stex_lanes_textureLoad_level_2d(const stex_lanes *l, uint32_t binding, const int64_t *x,
                                     const int64_t *y, const int64_t *level, stex_vec4 *out);
void stex_lanes_textureSampleLevel_2d(const stex_lanes *l, uint32_t texture_binding,
                                      uint32_t sampler_binding, const float *u, const float *v,
                                      const float *level, stex_vec4 *out);

/* Sampled textures of every kind (stex_textureLoad_sampled): lane i reads
 * (x[i], y[i], z[i]) at level or sample ls[i]; NULL arrays are zeros. */
void stex_lanes_textureLoad_sampled(const stex_lanes *l, uint32_t binding,
                                    stex_view_dimension dim, const int64_t *x, const int64_t *y,
                                    const int64_t *z, const int64_t *ls, stex_value *out);

/* stex_textureSample for each lane, with lane i's arguments a[i]. */
void stex_lanes_textureSample(const stex_lanes *l, uint32_t texture_binding,
                              uint32_t sampler_binding, const stex_sample_args *a,
                              stex_vec4 *out);

/* Buffer words (array<u32|i32|f32> element index[i]). */
void stex_lanes_buffer_load(const stex_lanes *l, uint32_t binding, const uint64_t *index,
                            uint32_t *out);
void stex_lanes_buffer_store(const stex_lanes *l, uint32_t binding, const uint64_t *index,
                             const uint32_t *v);

/* The atomic builtins on array<atomic<u32|i32>> words, one operation for all
 * lanes: old[i] gets lane i's old value (atomicStore: untouched);
 * COMPARE_EXCHANGE uses cmp[i] and sets exchanged[i]. */
typedef enum stex_atomic_op {
    STEX_ATOMIC_LOAD, STEX_ATOMIC_STORE, STEX_ATOMIC_ADD, STEX_ATOMIC_SUB, STEX_ATOMIC_MAX_U32,
    STEX_ATOMIC_MIN_U32, STEX_ATOMIC_MAX_I32, STEX_ATOMIC_MIN_I32, STEX_ATOMIC_AND,
    STEX_ATOMIC_OR, STEX_ATOMIC_XOR, STEX_ATOMIC_EXCHANGE, STEX_ATOMIC_COMPARE_EXCHANGE
} stex_atomic_op;
void stex_lanes_atomic(const stex_lanes *l, stex_atomic_op op, uint32_t binding,
                       const uint64_t *index, const uint32_t *v, const uint32_t *cmp,
                       uint32_t *old, bool *exchanged);

/* The atomic builtins' two halves (builtins_buffer.c): the binding checked
 * for `op` (NULL after recording the shader error), and one operation. */
struct exec_binding;
const struct exec_binding *exec_atomic_binding(const stex_invocation *inv, uint32_t binding,
                                               stex_atomic_op op);
uint32_t exec_atomic_at(const stex_invocation *inv, const struct exec_binding *b,
                        stex_atomic_op op, uint64_t index, uint32_t v, uint32_t cmp,
                        bool *exchanged);

/* The atomic builtins on var<workgroup> word `index` (builtins_buffer.c), for
 * the invocation inv is on: a workgroup runs on one thread, so the
 * read-modify-write needs no hardware atomic.  The race detector sees an
 * atomic read (LOAD) or atomic write (the rest).  Out of range: the shader
 * error, 0; after a shader error: nothing, 0.  COMPARE_EXCHANGE uses cmp and
 * sets *exchanged (which may be NULL for the other operations). */
uint32_t exec_workgroup_atomic(const stex_invocation *inv, stex_atomic_op op, uint64_t index,
                               uint32_t v, uint32_t cmp, bool *exchanged);

/* f16 (builtins_buffer.c): half-word `half` (bytes 2 * half, 2 * half + 1) of
 * a buffer or of var<workgroup>, UINT64_MAX for none; loads give the 16 bits
 * in the low half, stores write exactly those 2 bytes.  The race detector
 * records the access as one of the whole 32-bit word holding it. */
uint32_t exec_buffer_load_half(const stex_invocation *inv, uint32_t binding, uint64_t half);
void exec_buffer_store_half(const stex_invocation *inv, uint32_t binding, uint64_t half,
                            uint32_t v);
uint32_t exec_workgroup_load_half(const stex_invocation *inv, uint64_t half);
void exec_workgroup_store_half(const stex_invocation *inv, uint64_t half, uint32_t v);

/* ---- word forms (builtins_lanes_words.c) ----
 * The texture builtins above for an executor whose registers hold one
 * 32-bit word per lane (the WGSL interpreter's structure of arrays):
 * coordinates are i32 words when `sign` is set, u32 words otherwise (z,
 * level may be NULL: 0); texel channels are four word arrays, read from
 * v[k][i] or written to out[k][i] (active lanes only).  Lanes the inline
 * path serves run in one tight loop per call; every other lane goes through
 * the per-lane path of the functions above, so results, errors and race
 * records are theirs. */
void stex_lanes_textureLoad_words(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                                  const uint32_t *x, const uint32_t *y, const uint32_t *z,
                                  bool sign, uint32_t *const out[4]);
void stex_lanes_textureStore_words(const stex_lanes *l, uint32_t binding,
                                   stex_view_dimension dim, const uint32_t *x,
                                   const uint32_t *y, const uint32_t *z, bool sign,
                                   stex_scalar_type type, const uint32_t *const v[4]);
/* Buffer words (array<u32|i32|f32>): lane i's element index is off[i] + add,
 * or add alone when off is NULL (the same word for every lane); off[i] ==
 * none means no element (out of range, as index UINT64_MAX).  Loads write
 * out[i] of active lanes only. */
void stex_lanes_buffer_load_words(const stex_lanes *l, uint32_t binding, const uint32_t *off,
                                  uint32_t none, uint64_t add, uint32_t *out);
void stex_lanes_buffer_store_words(const stex_lanes *l, uint32_t binding, const uint32_t *off,
                                   uint32_t none, uint64_t add, const uint32_t *v);
/* texture_2d<f32>: textureLoad with a level (level signed when lsign). */
void stex_lanes_textureLoad_level_2d_words(const stex_lanes *l, uint32_t binding,
                                           const uint32_t *x, const uint32_t *y, bool sign,
                                           const uint32_t *level, bool lsign,
                                           uint32_t *const out[4]);

#endif
