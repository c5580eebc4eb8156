/* A pipeline's memory locations named in WGSL's terms (locations.h).
 *
 * The types the variables use are copied into a small tree of nodes - the
 * module's type table goes with the module - and a byte offset is named by
 * walking it down: an array's element by offset / stride, a structure's
 * member by its offset, a vector's component, a matrix's column, until a
 * scalar or an atomic. */
#include "wgsl/locations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum loc_kind { LOC_SCALAR, LOC_VEC, LOC_MAT, LOC_ARRAY, LOC_STRUCT } loc_kind;

typedef struct loc_node {
    loc_kind kind;
    uint32_t size;
    uint32_t stride;   /* array: element stride; mat: column stride; vec: scalar bytes */
    uint32_t n;        /* array: count (0: runtime-sized); vec: lanes; mat: columns;
                        * struct: members */
    int32_t elem;      /* array, mat: the element's node */
    uint32_t first;    /* struct: its first member in members[] */
} loc_node;

typedef struct loc_member {
    uint32_t name;     /* offset in strings */
    uint32_t offset, size;
    int32_t node;
} loc_member;

typedef struct loc_var {
    uint32_t name;
    stex_race_memory memory;
    uint32_t ref;      /* buffer, texture: the binding; workgroup: its byte offset */
    uint32_t size;
    int32_t node;      /* -1: a texture */
} loc_var;

struct wg_locmap {
    loc_node *nodes;
    uint32_t nnodes, capnodes;
    loc_member *members;
    uint32_t nmembers, capmembers;
    loc_var *vars;
    uint32_t nvars, capvars;
    char *strings;
    size_t nstrings, capstrings;
    bool oom;
};

/* Room for one more of v (n of cap, elements of `size` bytes). */
static bool grow(void **v, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    uint32_t c = *cap ? 2 * *cap : 8;
    void *g = realloc(*v, c * size);
    if (!g)
        return false;
    *v = g;
    *cap = c;
    return true;
}

static uint32_t add_string(wg_locmap *m, const char *s)
{
    size_t n = strlen(s) + 1;
    if (m->nstrings + n > m->capstrings) {
        size_t c = m->capstrings ? m->capstrings : 256;
        while (c < m->nstrings + n)
            c *= 2;
        char *g = realloc(m->strings, c);
        if (!g) {
            m->oom = true;
            return 0;
        }
        m->strings = g;
        m->capstrings = c;
    }
    memcpy(m->strings + m->nstrings, s, n);
    uint32_t at = (uint32_t)m->nstrings;
    m->nstrings += n;
    return at;
}

static uint32_t round_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

/* The node of type `id` (memo[id]: made already, + 1). */
static int32_t node_of(wg_locmap *m, const wg_types *ts, int id, int32_t *memo)
{
    if (id < 0 || m->oom)
        return -1;
    if (memo[id])
        return memo[id] - 1;
    const wg_type *t = wg_ty(ts, id);
    loc_node nd = {.kind = LOC_SCALAR, .size = t->size, .elem = -1};
    switch (t->kind) {
    case TY_VEC:
        nd.kind = LOC_VEC;
        nd.n = t->n;
        nd.stride = wg_ty(ts, t->elem)->size;
        break;
    case TY_MAT: {
        const wg_type *col = wg_ty(ts, t->elem);
        nd.kind = LOC_MAT;
        nd.n = t->n;
        nd.stride = round_up(col->size, col->align);
        nd.elem = node_of(m, ts, t->elem, memo);
        break;
    }
    case TY_ARRAY:
        nd.kind = LOC_ARRAY;
        nd.n = t->n;
        nd.stride = t->stride;
        nd.elem = node_of(m, ts, t->elem, memo);
        break;
    case TY_STRUCT: {
        nd.kind = LOC_STRUCT;
        nd.n = t->nmembers;
        /* the members' nodes first: they may add members of their own */
        int32_t *sub = calloc(t->nmembers ? t->nmembers : 1, sizeof *sub);
        if (!sub) {
            m->oom = true;
            return -1;
        }
        for (uint32_t i = 0; i < t->nmembers; i++)
            sub[i] = node_of(m, ts, t->members[i].type, memo);
        nd.first = m->nmembers;
        for (uint32_t i = 0; i < t->nmembers && !m->oom; i++) {
            const wg_member *mb = &t->members[i];
            uint32_t end = i + 1 < t->nmembers ? t->members[i + 1].offset : t->size;
            uint32_t msize = wg_ty(ts, mb->type)->size;
            loc_member lm = {add_string(m, mb->name), mb->offset,
                             msize < end - mb->offset ? msize : end - mb->offset, sub[i]};
            if (!grow((void **)&m->members, m->nmembers, &m->capmembers, sizeof lm)) {
                m->oom = true;
                break;
            }
            m->members[m->nmembers++] = lm;
        }
        free(sub);
        break;
    }
    default: /* scalars and atomics: a leaf */
        break;
    }
    if (m->oom || !grow((void **)&m->nodes, m->nnodes, &m->capnodes, sizeof nd)) {
        m->oom = true;
        return -1;
    }
    m->nodes[m->nnodes] = nd;
    memo[id] = (int32_t)m->nnodes + 1;
    return (int32_t)m->nnodes++;
}

static void add_var(wg_locmap *m, const wg_types *ts, int32_t *memo, const char *name,
                    stex_race_memory mem, uint32_t ref, int type)
{
    loc_var v = {add_string(m, name), mem, ref, 0, -1};
    if (mem != STEX_RACE_MEMORY_TEXTURE) {
        v.size = wg_ty(ts, type)->size;
        v.node = node_of(m, ts, type, memo);
    }
    if (m->oom || !grow((void **)&m->vars, m->nvars, &m->capvars, sizeof v)) {
        m->oom = true;
        return;
    }
    m->vars[m->nvars++] = v;
}

wg_locmap *wg_locmap_build(const wg_types *ts, const wg_global *globals, uint32_t n)
{
    wg_locmap *m = calloc(1, sizeof *m);
    int32_t *memo = calloc(ts->n ? (size_t)ts->n : 1, sizeof *memo);
    for (uint32_t i = 0; m && memo && !m->oom && i < n; i++) {
        const wg_global *g = &globals[i];
        if (!g->used || g->state != 2 || g->decl->kind != D_VAR || !g->decl->name)
            continue;
        const wg_val *v = &g->val;
        if (v->kind == V_HANDLE && v->type >= 0 &&
            wg_ty(ts, v->type)->kind == TY_STORAGE_TEXTURE)
            add_var(m, ts, memo, g->decl->name, STEX_RACE_MEMORY_TEXTURE, v->ref.binding, -1);
        else if (v->kind == V_REF && v->type >= 0 && v->ref.space == SP_STORAGE)
            add_var(m, ts, memo, g->decl->name, STEX_RACE_MEMORY_BUFFER, v->ref.binding, v->type);
        else if (v->kind == V_REF && v->type >= 0 && v->ref.space == SP_WORKGROUP)
            add_var(m, ts, memo, g->decl->name, STEX_RACE_MEMORY_WORKGROUP, g->wg_offset,
                    v->type);
    }
    free(memo);
    if (m && (m->oom || !memo)) {
        wg_locmap_free(m);
        return NULL;
    }
    return m;
}

void wg_locmap_free(wg_locmap *m)
{
    if (!m)
        return;
    free(m->nodes);
    free(m->members);
    free(m->vars);
    free(m->strings);
    free(m);
}

/* Appends printf-style text at *at (stops quietly at the end of buf). */
#define PUT(...)                                                                   \
    do {                                                                           \
        if (*at < size) {                                                          \
            int k_ = snprintf(buf + *at, size - *at, __VA_ARGS__);                 \
            *at += k_ > 0 ? (size_t)k_ : 0;                                        \
        }                                                                          \
    } while (0)

/* The path below node `nd` to byte `off` of it. */
static void walk(const wg_locmap *m, int32_t nd, uint64_t off, char *buf, size_t size,
                 size_t *at)
{
    static const char lane[] = "xyzw";
    while (nd >= 0) {
        const loc_node *n = &m->nodes[nd];
        switch (n->kind) {
        case LOC_ARRAY:
        case LOC_MAT: {
            uint64_t i = n->stride ? off / n->stride : 0;
            if (n->n && i >= n->n)
                return;
            PUT("[%llu]", (unsigned long long)i);
            off -= i * n->stride;
            nd = n->elem;
            break;
        }
        case LOC_VEC: {
            uint64_t i = n->stride ? off / n->stride : 0;
            if (i < n->n && i < 4)
                PUT(".%c", lane[i]);
            return;
        }
        case LOC_STRUCT: {
            const loc_member *hit = NULL;
            for (uint32_t i = 0; i < n->n; i++) {
                const loc_member *mb = &m->members[n->first + i];
                if (mb->offset <= off && off < (uint64_t)mb->offset + mb->size)
                    hit = mb;
            }
            if (!hit)
                return; /* padding */
            PUT(".%s", m->strings + hit->name);
            off -= hit->offset;
            nd = hit->node;
            break;
        }
        default:
            return;
        }
    }
}

bool wg_locmap_name(const wg_locmap *m, stex_race_memory mem, uint32_t ref, uint64_t byte,
                    char *buf, size_t size)
{
    if (!m || !size)
        return false;
    for (uint32_t i = 0; i < m->nvars; i++) {
        const loc_var *v = &m->vars[i];
        if (v->memory != mem)
            continue;
        uint64_t off = byte;
        if (mem == STEX_RACE_MEMORY_WORKGROUP) {
            if (byte < v->ref || byte >= (uint64_t)v->ref + v->size)
                continue;
            off = byte - v->ref;
        } else if (v->ref != ref) {
            continue;
        }
        size_t at0 = 0, *at = &at0;
        PUT("%s", m->strings + v->name);
        if (mem != STEX_RACE_MEMORY_TEXTURE)
            walk(m, v->node, off, buf, size, at);
        return true;
    }
    return false;
}
