/* WGSL storage-buffer builtins (array<u32|i32|f32>, array<vec4<...>>), the
 * atomics on array<atomic<u32|i32>>, and var<workgroup> word access.
 *
 * Out-of-range indices of word and vec4 accesses follow the profile's policy
 * for runtime-sized arrays (stex_math_oob: spec reads 0 and drops the
 * store; lavapipe and NVIDIA wrap the byte offset in 32 bits); atomics out
 * of range do nothing. */
#include <string.h>

#include "race/race_internal.h"
#include "shader/describe.h"
#include "shader/exec.h"
#include "stex/math.h"
#include "shader/lanes.h"

typedef enum buf_op { OP_LOAD, OP_STORE, OP_ATOMIC } buf_op;

/* The binding if it may be used for `op`, else NULL after recording the error. */
static const exec_binding *buffer_for(const stex_invocation *inv, uint32_t binding, buf_op op,
                                      const char *fn)
{
    const struct stex_exec *e = inv->exec;
    const exec_binding *b = exec_binding_at(e, binding);
    stex_binding_type t = b->type;
    if (t == STEX_BINDING_STORAGE_BUFFER
        || (op == OP_LOAD && (t == STEX_BINDING_READ_ONLY_STORAGE_BUFFER
                              || t == STEX_BINDING_UNIFORM_BUFFER)))
        return b;
    char what[96];
    exec_describe_binding(b, what, sizeof what);
    const char *rule = op == OP_LOAD ? "a buffer load needs var<storage> or var<uniform>"
                       : op == OP_STORE ? "a buffer store needs var<storage, read_write>"
                                        : "atomics need array<atomic<T>> in var<storage, read_write>";
    exec_shader_error(inv, "%s on %s, which is %s: %s", fn, EXEC_REF(binding), what, rule);
    return NULL;
}

/* One 32-bit word access for the race detector (summary: inline). */
static inline void buffer_race(const struct stex_exec *e, const stex_invocation *inv,
                               const exec_binding *b, uint64_t word, stex_race_access acc,
                               const uint32_t *value)
{
    if (race_summary(b->shadow))
        race_note(b->shadow, e->fast.race_tid, word, e->race_key + inv->local_invocation_index,
                  acc, value, value ? 4 : 0);
    else
        race_access(e->race, b->shadow, word, inv->local_invocation_index, acc, value,
                    value ? 4 : 0);
}

static inline uint8_t *word_ptr(const exec_binding *b, uint64_t index)
{
    return b->bytes + index * 4;
}

/* An index past the bound range, as the profile's device treats a
 * runtime-sized array (stex_math_oob): false to read 0 / drop the write,
 * true with *index the element accessed instead (lavapipe and NVIDIA check
 * the byte offset index * size in 32 bits, so 0x40000000 lands on element 0). */
static bool oob_index(const struct stex_exec *e, const exec_binding *b, uint32_t size,
                      uint64_t *index)
{
    uint32_t at;
    if (*index > UINT32_MAX || b->words / (size / 4) > UINT32_MAX)
        return false;
    stex_oob_action a = stex_math_oob(e->fast.profile, STEX_ARRAY_RUNTIME,
                                      (uint32_t)(b->words / (size / 4)), size,
                                      (uint32_t)*index, &at);
    if (a == STEX_OOB_ZERO)
        return false;
    *index = at;
    return true;
}

static uint32_t load_word(const stex_invocation *inv, uint32_t binding, uint64_t index)
{
    const struct stex_exec *e = inv->exec;
    const exec_binding *b = exec_binding_at(e, binding);
    if ((b->type != STEX_BINDING_STORAGE_BUFFER
               && b->type != STEX_BINDING_READ_ONLY_STORAGE_BUFFER
               && b->type != STEX_BINDING_UNIFORM_BUFFER))
        b = buffer_for(inv, binding, OP_LOAD, "buffer load");
    if (!b || (index >= b->words && !oob_index(e, b, 4, &index)))
        return 0;
    const uint8_t *p = word_ptr(b, index);
    uint32_t v;
    if (e->fast.slow) {
        uint8_t tmp[4];
        if (b->shadow)
            buffer_race(e, inv, b, b->offset / 4 + index, STEX_RACE_ACCESS_READ, NULL);
        p = exec_visible(inv->exec, b, p, 4, tmp);
        memcpy(&v, p, 4);
        return v;
    }
    memcpy(&v, p, 4);
    return v;
}

static void store_word(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v)
{
    const struct stex_exec *e = inv->exec;
    const exec_binding *b = exec_binding_at(e, binding);
    if (b->type != STEX_BINDING_STORAGE_BUFFER)
        b = buffer_for(inv, binding, OP_STORE, "buffer store");
    if (!b || (index >= b->words && !oob_index(e, b, 4, &index)))
        return;
    uint8_t *p = word_ptr(b, index);
    if (e->dead)
        return;
    if (e->fast.slow && b->shadow)
        buffer_race(e, inv, b, b->offset / 4 + index, STEX_RACE_ACCESS_WRITE, &v);
    memcpy(p, &v, 4);
    if (e->fast.slow)
        exec_wrote(inv->exec, p, &v, 4);
}

/* f16 in a buffer: half-word h is bytes 2h and 2h + 1, the low half of word
 * h / 2 when h is even (little-endian, as WebGPU lays out memory).  Bounds
 * and out-of-range rules are those of the word holding it (buffer sizes are
 * multiples of 4).  A store writes exactly its 2 bytes, so two invocations
 * storing the two halves of one word never lose an update; the race detector
 * still records the access as one of the whole word (docs/engine.md). */
uint32_t exec_buffer_load_half(const stex_invocation *inv, uint32_t binding, uint64_t half)
{
    uint32_t w = load_word(inv, binding, half == UINT64_MAX ? UINT64_MAX : half / 2);
    return half & 1 ? w >> 16 : w & 0xffffu;
}

void exec_buffer_store_half(const stex_invocation *inv, uint32_t binding, uint64_t half,
                            uint32_t v)
{
    const struct stex_exec *e = inv->exec;
    const exec_binding *b = exec_binding_at(e, binding);
    uint64_t index = half == UINT64_MAX ? UINT64_MAX : half / 2;
    if (b->type != STEX_BINDING_STORAGE_BUFFER)
        b = buffer_for(inv, binding, OP_STORE, "buffer store (f16)");
    if (!b || (index >= b->words && !oob_index(e, b, 4, &index)))
        return;
    uint16_t h = (uint16_t)v;
    uint8_t *p = word_ptr(b, index) + (half & 1) * 2;
    if (e->dead)
        return;
    if (e->fast.slow && b->shadow) { /* the word as this store leaves it */
        uint32_t w;
        memcpy(&w, word_ptr(b, index), 4);
        memcpy((uint8_t *)&w + (half & 1) * 2, &h, 2);
        buffer_race(e, inv, b, b->offset / 4 + index, STEX_RACE_ACCESS_WRITE, &w);
    }
    memcpy(p, &h, 2);
    if (e->fast.slow)
        exec_wrote(inv->exec, p, &h, 2);
}

/* The out-of-line half of the inline buffer builtins (shader.h). */
STEX__COLD uint32_t stex__buffer_load_word(const stex_invocation *inv, uint32_t binding, uint64_t index)
{
    return load_word(inv, binding, index);
}

STEX__COLD void stex__buffer_store_word(const stex_invocation *inv, uint32_t binding, uint64_t index,
                             uint32_t v)
{
    store_word(inv, binding, index, v);
}

uint32_t stex_arrayLength(const stex_invocation *inv, uint32_t binding, uint32_t stride)
{
    const exec_binding *b = buffer_for(inv, binding, OP_LOAD, "arrayLength");
    if (b && b->type == STEX_BINDING_UNIFORM_BUFFER) {
        exec_shader_error(inv, "arrayLength on %s, which is var<uniform>: WGSL allows "
                          "runtime-sized arrays only in var<storage>", EXEC_REF(binding));
        return 0;
    }
    if (!b || !stride)
        return 0;
    return (uint32_t)(b->words * 4 / stride);
}

/* array<vec4<T>>: element i is words 4i..4i+3; an element partly out of range is out of range. */
stex_vec4 stex_buffer_load_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index)
{
    stex_vec4 r = {.u = {0, 0, 0, 0}};
    const exec_binding *b = buffer_for(inv, binding, OP_LOAD, "buffer load (vec4)");
    if (!b || (index >= b->words / 4 && !oob_index(inv->exec, b, 16, &index)))
        return r;
    for (int c = 0; c < 4; c++)
        r.u[c] = load_word(inv, binding, index * 4 + (uint64_t)c);
    return r;
}

void stex_buffer_store_vec4(const stex_invocation *inv, uint32_t binding, uint64_t index, stex_vec4 v)
{
    const exec_binding *b = buffer_for(inv, binding, OP_STORE, "buffer store (vec4)");
    if (!b || (index >= b->words / 4 && !oob_index(inv->exec, b, 16, &index)))
        return;
    for (int c = 0; c < 4; c++)
        store_word(inv, binding, index * 4 + (uint64_t)c, v.u[c]);
}

/* ---- atomics ---- */

static const char *const ATOMIC_NAME[] = {
    [STEX_ATOMIC_LOAD] = "atomicLoad", [STEX_ATOMIC_STORE] = "atomicStore",
    [STEX_ATOMIC_ADD] = "atomicAdd", [STEX_ATOMIC_SUB] = "atomicSub",
    [STEX_ATOMIC_MAX_U32] = "atomicMax", [STEX_ATOMIC_MIN_U32] = "atomicMin",
    [STEX_ATOMIC_MAX_I32] = "atomicMax", [STEX_ATOMIC_MIN_I32] = "atomicMin",
    [STEX_ATOMIC_AND] = "atomicAnd", [STEX_ATOMIC_OR] = "atomicOr",
    [STEX_ATOMIC_XOR] = "atomicXor", [STEX_ATOMIC_EXCHANGE] = "atomicExchange",
    [STEX_ATOMIC_COMPARE_EXCHANGE] = "atomicCompareExchangeWeak",
};

/* One atomic on word `index` of binding b (NULL after a binding error: does
 * nothing, returns 0).  Out of range, or after a shader error: nothing. */
uint32_t exec_atomic_at(const stex_invocation *inv, const exec_binding *b, stex_atomic_op op,
                        uint64_t index, uint32_t v, uint32_t cmp, bool *exchanged)
{
    const struct stex_exec *e = inv->exec;
    if (exchanged)
        *exchanged = false;
    if (!b || index >= b->words || e->dead)
        return 0;
    uint64_t off = b->offset + index * 4;
    if (e->fast.slow && b->shadow)
        buffer_race(e, inv, b, off / 4,
                    op == STEX_ATOMIC_LOAD ? STEX_RACE_ACCESS_ATOMIC_READ
                                           : STEX_RACE_ACCESS_ATOMIC_WRITE, NULL);
    stex_buffer *buf = b->buffer;
    switch (op) {
    case STEX_ATOMIC_LOAD: return stex_atomic_load_u32(buf, off);
    case STEX_ATOMIC_STORE: stex_atomic_store_u32(buf, off, v); return 0;
    case STEX_ATOMIC_ADD: return stex_atomic_add_u32(buf, off, v);
    case STEX_ATOMIC_SUB: return stex_atomic_sub_u32(buf, off, v);
    case STEX_ATOMIC_MAX_U32: return stex_atomic_max_u32(buf, off, v);
    case STEX_ATOMIC_MIN_U32: return stex_atomic_min_u32(buf, off, v);
    case STEX_ATOMIC_MAX_I32: return (uint32_t)stex_atomic_max_i32(buf, off, (int32_t)v);
    case STEX_ATOMIC_MIN_I32: return (uint32_t)stex_atomic_min_i32(buf, off, (int32_t)v);
    case STEX_ATOMIC_AND: return stex_atomic_and_u32(buf, off, v);
    case STEX_ATOMIC_OR: return stex_atomic_or_u32(buf, off, v);
    case STEX_ATOMIC_XOR: return stex_atomic_xor_u32(buf, off, v);
    case STEX_ATOMIC_EXCHANGE: return stex_atomic_exchange_u32(buf, off, v);
    case STEX_ATOMIC_COMPARE_EXCHANGE: {
        bool ex = false;
        uint32_t old = stex_atomic_compare_exchange_weak_u32(buf, off, cmp, v, &ex);
        if (exchanged)
            *exchanged = ex;
        return old;
    }
    }
    return 0;
}

const exec_binding *exec_atomic_binding(const stex_invocation *inv, uint32_t binding,
                                        stex_atomic_op op)
{
    return buffer_for(inv, binding, OP_ATOMIC, ATOMIC_NAME[op]);
}

static uint32_t atomic_one(const stex_invocation *inv, stex_atomic_op op, uint32_t binding,
                           uint64_t index, uint32_t v, uint32_t cmp, bool *exchanged)
{
    return exec_atomic_at(inv, exec_atomic_binding(inv, binding, op), op, index, v, cmp,
                          exchanged);
}

#define ATOMIC_RMW(name, op, T)                                                           \
    T name(const stex_invocation *inv, uint32_t binding, uint64_t index, T v)             \
    {                                                                                     \
        return (T)atomic_one(inv, op, binding, index, (uint32_t)v, 0, NULL);              \
    }

ATOMIC_RMW(stex_atomicAdd, STEX_ATOMIC_ADD, uint32_t)
ATOMIC_RMW(stex_atomicSub, STEX_ATOMIC_SUB, uint32_t)
ATOMIC_RMW(stex_atomicMax_u32, STEX_ATOMIC_MAX_U32, uint32_t)
ATOMIC_RMW(stex_atomicMin_u32, STEX_ATOMIC_MIN_U32, uint32_t)
ATOMIC_RMW(stex_atomicMax_i32, STEX_ATOMIC_MAX_I32, int32_t)
ATOMIC_RMW(stex_atomicMin_i32, STEX_ATOMIC_MIN_I32, int32_t)
ATOMIC_RMW(stex_atomicAnd, STEX_ATOMIC_AND, uint32_t)
ATOMIC_RMW(stex_atomicOr, STEX_ATOMIC_OR, uint32_t)
ATOMIC_RMW(stex_atomicXor, STEX_ATOMIC_XOR, uint32_t)
ATOMIC_RMW(stex_atomicExchange, STEX_ATOMIC_EXCHANGE, uint32_t)

uint32_t stex_atomicLoad(const stex_invocation *inv, uint32_t binding, uint64_t index)
{
    return atomic_one(inv, STEX_ATOMIC_LOAD, binding, index, 0, 0, NULL);
}

void stex_atomicStore(const stex_invocation *inv, uint32_t binding, uint64_t index, uint32_t v)
{
    atomic_one(inv, STEX_ATOMIC_STORE, binding, index, v, 0, NULL);
}

uint32_t stex_atomicCompareExchangeWeak(const stex_invocation *inv, uint32_t binding,
                                        uint64_t index, uint32_t cmp, uint32_t v, bool *exchanged)
{
    return atomic_one(inv, STEX_ATOMIC_COMPARE_EXCHANGE, binding, index, v, cmp, exchanged);
}

/* ---- var<workgroup> ---- */

static bool wg_word_ok(const stex_invocation *inv, uint64_t index, const char *fn)
{
    const struct stex_exec *e = inv->exec;
    if (index < e->ctx->wg_memory_size / 4)
        return true;
    if (e->ctx->wg_memory_size == 0)
        exec_shader_error(inv, "%s: the pipeline declares no var<workgroup> memory "
                          "(workgroup_memory_size 0)", fn);
    return false; /* out of range: bounded behaviour */
}

uint32_t stex_workgroup_load_u32(const stex_invocation *inv, uint64_t index)
{
    if (!wg_word_ok(inv, index, "workgroup load"))
        return 0;
    struct stex_exec *e = inv->exec;
    if (e->fast.slow && e->race)
        race_workgroup_access(e->race, index, inv->local_invocation_index, STEX_RACE_ACCESS_READ,
                              NULL, 0);
    uint32_t v;
    memcpy(&v, e->wg_mem + index * 4, 4);
    return v;
}

void stex_workgroup_store_u32(const stex_invocation *inv, uint64_t index, uint32_t v)
{
    if (!wg_word_ok(inv, index, "workgroup store") || inv->exec->dead)
        return;
    struct stex_exec *e = inv->exec;
    if (e->fast.slow && e->race)
        race_workgroup_access(e->race, index, inv->local_invocation_index,
                              STEX_RACE_ACCESS_WRITE, &v, 4);
    memcpy(e->wg_mem + index * 4, &v, 4);
}

/* f16 in var<workgroup>: half-word h of its bytes, as exec_buffer_load_half. */
uint32_t exec_workgroup_load_half(const stex_invocation *inv, uint64_t half)
{
    uint32_t w = stex_workgroup_load_u32(inv, half == UINT64_MAX ? UINT64_MAX : half / 2);
    return half & 1 ? w >> 16 : w & 0xffffu;
}

void exec_workgroup_store_half(const stex_invocation *inv, uint64_t half, uint32_t v)
{
    uint64_t index = half == UINT64_MAX ? UINT64_MAX : half / 2;
    if (!wg_word_ok(inv, index, "workgroup store (f16)") || inv->exec->dead)
        return;
    struct stex_exec *e = inv->exec;
    uint16_t h = (uint16_t)v;
    uint8_t *p = e->wg_mem + index * 4;
    if (e->fast.slow && e->race) { /* the word as this store leaves it */
        uint32_t w;
        memcpy(&w, p, 4);
        memcpy((uint8_t *)&w + (half & 1) * 2, &h, 2);
        race_workgroup_access(e->race, index, inv->local_invocation_index,
                              STEX_RACE_ACCESS_WRITE, &w, 4);
    }
    memcpy(p + (half & 1) * 2, &h, 2);
}

float stex_workgroup_load_f32(const stex_invocation *inv, uint64_t index)
{
    uint32_t w = stex_workgroup_load_u32(inv, index);
    float f;
    memcpy(&f, &w, 4);
    return f;
}

void stex_workgroup_store_f32(const stex_invocation *inv, uint64_t index, float v)
{
    uint32_t w;
    memcpy(&w, &v, 4);
    stex_workgroup_store_u32(inv, index, w);
}

static const char *const WG_ATOMIC_NAME[] = {
    [STEX_ATOMIC_LOAD] = "atomicLoad (workgroup)", [STEX_ATOMIC_STORE] = "atomicStore (workgroup)",
    [STEX_ATOMIC_ADD] = "atomicAdd (workgroup)", [STEX_ATOMIC_SUB] = "atomicSub (workgroup)",
    [STEX_ATOMIC_MAX_U32] = "atomicMax (workgroup)", [STEX_ATOMIC_MIN_U32] = "atomicMin (workgroup)",
    [STEX_ATOMIC_MAX_I32] = "atomicMax (workgroup)", [STEX_ATOMIC_MIN_I32] = "atomicMin (workgroup)",
    [STEX_ATOMIC_AND] = "atomicAnd (workgroup)", [STEX_ATOMIC_OR] = "atomicOr (workgroup)",
    [STEX_ATOMIC_XOR] = "atomicXor (workgroup)",
    [STEX_ATOMIC_EXCHANGE] = "atomicExchange (workgroup)",
    [STEX_ATOMIC_COMPARE_EXCHANGE] = "atomicCompareExchangeWeak (workgroup)",
};

/* A workgroup runs on one thread, so its atomics need no hardware atomics. */
uint32_t exec_workgroup_atomic(const stex_invocation *inv, stex_atomic_op op, uint64_t index,
                               uint32_t v, uint32_t cmp, bool *exchanged)
{
    if (exchanged)
        *exchanged = false;
    if (!wg_word_ok(inv, index, WG_ATOMIC_NAME[op]))
        return 0;
    struct stex_exec *e = inv->exec;
    if (e->dead && op != STEX_ATOMIC_LOAD)
        return 0;
    if (e->fast.slow && e->race)
        race_workgroup_access(e->race, index, inv->local_invocation_index,
                              op == STEX_ATOMIC_LOAD ? STEX_RACE_ACCESS_ATOMIC_READ
                                                     : STEX_RACE_ACCESS_ATOMIC_WRITE,
                              NULL, 0);
    uint32_t old, nv;
    memcpy(&old, e->wg_mem + index * 4, 4);
    switch (op) {
    case STEX_ATOMIC_LOAD: return old;
    case STEX_ATOMIC_STORE: nv = v, old = 0; break;
    case STEX_ATOMIC_ADD: nv = old + v; break;
    case STEX_ATOMIC_SUB: nv = old - v; break;
    case STEX_ATOMIC_MAX_U32: nv = old > v ? old : v; break;
    case STEX_ATOMIC_MIN_U32: nv = old < v ? old : v; break;
    case STEX_ATOMIC_MAX_I32: nv = (int32_t)old > (int32_t)v ? old : v; break;
    case STEX_ATOMIC_MIN_I32: nv = (int32_t)old < (int32_t)v ? old : v; break;
    case STEX_ATOMIC_AND: nv = old & v; break;
    case STEX_ATOMIC_OR: nv = old | v; break;
    case STEX_ATOMIC_XOR: nv = old ^ v; break;
    case STEX_ATOMIC_EXCHANGE: nv = v; break;
    case STEX_ATOMIC_COMPARE_EXCHANGE:
        if (old != cmp)
            return old;
        nv = v;
        if (exchanged)
            *exchanged = true;
        break;
    default: return 0;
    }
    memcpy(e->wg_mem + index * 4, &nv, 4);
    return old;
}

uint32_t stex_workgroup_atomicAdd(const stex_invocation *inv, uint64_t index, uint32_t v)
{
    return exec_workgroup_atomic(inv, STEX_ATOMIC_ADD, index, v, 0, NULL);
}
