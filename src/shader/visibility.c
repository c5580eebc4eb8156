/* Visibility modes.  IMMEDIATE: a load sees whatever memory holds now.
 * SNAPSHOT: a load sees memory as it was when the dispatch started, except
 * for what its own workgroup wrote - kept here, in a small per-thread table
 * of this workgroup's writes keyed by texel/word address. */
#include <stdlib.h>
#include <string.h>

#include "shader/exec.h"

typedef struct ov_slot {
    const uint8_t *key;
    uint8_t bytes[16];
} ov_slot;

struct overlay {
    ov_slot *slot;
    size_t cap, used;  /* cap is a power of two */
    size_t *touched;   /* slots to clear at the next workgroup */
};

struct overlay *overlay_create(void)
{
    struct overlay *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->cap = 1024;
    o->slot = calloc(o->cap, sizeof *o->slot);
    o->touched = malloc(o->cap * sizeof *o->touched);
    if (!o->slot || !o->touched) {
        overlay_destroy(o);
        return NULL;
    }
    return o;
}

void overlay_destroy(struct overlay *o)
{
    if (!o)
        return;
    free(o->slot);
    free(o->touched);
    free(o);
}

void overlay_clear(struct overlay *o)
{
    for (size_t i = 0; i < o->used; i++)
        o->slot[o->touched[i]].key = NULL;
    o->used = 0;
}

static size_t hash_ptr(const uint8_t *p, size_t mask)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & mask;
}

static size_t find(const struct overlay *o, const uint8_t *key)
{
    size_t mask = o->cap - 1, i = hash_ptr(key, mask);
    while (o->slot[i].key && o->slot[i].key != key)
        i = (i + 1) & mask;
    return i;
}

static bool grow(struct overlay *o)
{
    struct overlay n = {calloc(o->cap * 2, sizeof(ov_slot)), o->cap * 2, 0,
                        malloc(o->cap * 2 * sizeof(size_t))};
    if (!n.slot || !n.touched) {
        free(n.slot);
        free(n.touched);
        return false;
    }
    for (size_t i = 0; i < o->used; i++) {
        const ov_slot *s = &o->slot[o->touched[i]];
        size_t j = find(&n, s->key);
        n.slot[j] = *s;
        n.touched[n.used++] = j;
    }
    free(o->slot);
    free(o->touched);
    *o = n;
    return true;
}

void overlay_put(struct overlay *o, const uint8_t *live, const void *bytes, uint32_t n)
{
    if (!o)
        return;
    if (2 * (o->used + 1) > o->cap && !grow(o))
        return; /* out of memory: the write still reached live memory */
    size_t i = find(o, live);
    if (!o->slot[i].key) {
        o->slot[i].key = live;
        o->touched[o->used++] = i;
    }
    memcpy(o->slot[i].bytes, bytes, n > 16 ? 16 : n);
}

bool overlay_get(const struct overlay *o, const uint8_t *live, void *bytes, uint32_t n)
{
    if (!o)
        return false;
    size_t i = find(o, live);
    if (!o->slot[i].key)
        return false;
    memcpy(bytes, o->slot[i].bytes, n > 16 ? 16 : n);
    return true;
}

const uint8_t *exec_visible(struct stex_exec *e, const exec_binding *b, const uint8_t *live,
                            uint32_t n, uint8_t *tmp)
{
    if (!b->snap_base)
        return live;
    if (overlay_get(e->overlay, live, tmp, n))
        return tmp;
    return b->snap_base + (live - b->mem_base);
}

void exec_wrote(struct stex_exec *e, const uint8_t *live, const void *bytes, uint32_t n)
{
    if (e->overlay)
        overlay_put(e->overlay, live, bytes, n);
}
