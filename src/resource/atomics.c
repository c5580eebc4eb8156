/* WGSL atomics on buffer words, with C11 atomics (sequentially consistent).
 * An offset that is not a 4-aligned in-bounds word does nothing and returns
 * 0: robust buffer access may discard such an access. */
#include <stdatomic.h>

#include "resource/internal.h"

static _Atomic uint32_t *word(stex_buffer *b, uint64_t offset)
{
    if (!b || offset % 4 || offset + 4 > b->size)
        return NULL;
    /* the storage is 16-byte aligned, uint32_t-sized words share _Atomic's layout */
    return (_Atomic uint32_t *)(void *)(b->data + offset);
}

uint32_t stex_atomic_load_u32(stex_buffer *b, uint64_t offset)
{
    _Atomic uint32_t *w = word(b, offset);
    return w ? atomic_load(w) : 0;
}

void stex_atomic_store_u32(stex_buffer *b, uint64_t offset, uint32_t v)
{
    _Atomic uint32_t *w = word(b, offset);
    if (w)
        atomic_store(w, v);
}

#define FETCH_OP(name, op)                                                  \
    uint32_t stex_atomic_##name##_u32(stex_buffer *b, uint64_t offset, uint32_t v) \
    {                                                                       \
        _Atomic uint32_t *w = word(b, offset);                              \
        return w ? atomic_fetch_##op(w, v) : 0;                             \
    }
FETCH_OP(add, add)
FETCH_OP(sub, sub)
FETCH_OP(and, and)
FETCH_OP(or, or)
FETCH_OP(xor, xor)
#undef FETCH_OP

uint32_t stex_atomic_exchange_u32(stex_buffer *b, uint64_t offset, uint32_t v)
{
    _Atomic uint32_t *w = word(b, offset);
    return w ? atomic_exchange(w, v) : 0;
}

/* max / min: a compare-exchange loop (C11 has no fetch_max). */
#define MINMAX(name, type, better)                                          \
    type stex_atomic_##name(stex_buffer *b, uint64_t offset, type v)        \
    {                                                                       \
        _Atomic uint32_t *w = word(b, offset);                              \
        if (!w)                                                             \
            return 0;                                                       \
        uint32_t old = atomic_load(w);                                      \
        while ((type)old better v ? 0 : !atomic_compare_exchange_weak(w, &old, (uint32_t)v)) \
            ;                                                               \
        return (type)old;                                                   \
    }
MINMAX(max_u32, uint32_t, >=)
MINMAX(min_u32, uint32_t, <=)
MINMAX(max_i32, int32_t, >=)
MINMAX(min_i32, int32_t, <=)
#undef MINMAX

uint32_t stex_atomic_compare_exchange_weak_u32(stex_buffer *b, uint64_t offset, uint32_t cmp,
                                               uint32_t v, bool *exchanged)
{
    _Atomic uint32_t *w = word(b, offset);
    if (!w) {
        if (exchanged)
            *exchanged = false;
        return 0;
    }
    uint32_t old = cmp;
    /* WGSL's weak exchange may fail spuriously; stex uses the strong one so
     * that a result never depends on luck */
    bool ok = atomic_compare_exchange_strong(w, &old, v);
    if (exchanged)
        *exchanged = ok;
    return old;
}
