/* WGSL types: interning, layout and the conversion rules. */
#include "wgsl/types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t round_up(uint32_t a, uint32_t v) { return (v + a - 1) / a * a; }

/* Size, alignment and registers of a type whose parts are interned (WGSL 14.4.1). */
static void layout(const wg_types *ts, wg_type *t)
{
    switch (t->kind) {
    case TY_BOOL: case TY_I32: case TY_U32: case TY_F32:
        t->size = t->align = 4;
        t->words = 1;
        break;
    case TY_AINT: case TY_AFLOAT:
        t->size = t->align = 8;
        t->words = 1;
        break;
    case TY_F16:
        t->size = t->align = 2;
        t->words = 1;
        break;
    case TY_VEC: {
        const wg_type *e = &ts->t[t->elem];
        t->depth = 1;
        t->size = e->size * t->n;
        t->align = e->size * (t->n == 3 ? 4 : t->n);
        t->words = t->n;
        break;
    }
    case TY_ATOMIC:
        t->size = t->align = 4;
        t->words = 1;
        break;
    case TY_ARRAY:
    case TY_MAT: {
        const wg_type *e = &ts->t[t->elem];
        t->depth = e->depth + 1;
        t->align = e->align;
        t->stride = round_up(e->align, e->size);
        t->size = t->n * t->stride; /* lower_module.c refuses more than 0xffffffff bytes */
        t->words = t->n * e->words;
        break;
    }
    case TY_STRUCT: { /* in 64 bits: too_big past 0xffffffff bytes (lower_module.c) */
        uint64_t off = 0, words = 0;
        uint32_t align = 1;
        for (uint32_t i = 0; i < t->nmembers; i++) {
            const wg_type *m = &ts->t[t->members[i].type];
            uint32_t ma = t->members[i].align_attr ? t->members[i].align_attr : m->align;
            off = (off + ma - 1) / ma * ma;
            t->members[i].offset = (uint32_t)off;
            t->members[i].word = (uint32_t)words;
            off += t->members[i].size_attr ? t->members[i].size_attr : m->size;
            words += m->words;
            if (ma > align)
                align = ma;
            if (m->depth + 1 > t->depth)
                t->depth = m->depth + 1;
        }
        off = (off + align - 1) / align * align;
        t->too_big = off > UINT32_MAX;
        t->align = align;
        t->size = t->too_big ? UINT32_MAX : (uint32_t)off;
        t->words = words > UINT32_MAX ? UINT32_MAX : (uint32_t)words;
        break;
    }
    default:
        t->size = t->align = 0;
        t->words = t->kind == TY_PTR ? 1 : 0;
        break;
    }
}

static bool same(const wg_type *a, const wg_type *b)
{
    if (a->kind != b->kind || a->elem != b->elem || a->n != b->n || a->dim != b->dim ||
        a->format != b->format || a->access != b->access || a->space != b->space ||
        a->override_sized != b->override_sized)
        return false;
    if (a->kind == TY_STRUCT)
        return a == b; /* structs are nominal: never merged */
    return true;
}

static uint32_t type_hash(const wg_type *t)
{
    uint64_t h = 1469598103934665603ull;
    const uint64_t f[] = {(uint64_t)t->kind, (uint64_t)(uint32_t)t->elem, t->n, t->dim,
                          t->format, t->access, t->space, t->override_sized};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        h = (h ^ f[i]) * 1099511628211ull;
    return (uint32_t)(h ^ h >> 32);
}

/* Where t is, or would go, in the index (interning stays constant time). */
static uint32_t slot_of(const wg_types *ts, const wg_type *t)
{
    uint32_t m = ts->index_cap - 1, h = type_hash(t) & m;
    while (ts->index[h] && !same(&ts->t[ts->index[h] - 1], t))
        h = (h + 1) & m;
    return h;
}

static bool index_grow(wg_types *ts)
{
    uint32_t cap = ts->index_cap ? 2 * ts->index_cap : 256;
    int *old = ts->index;
    uint32_t old_cap = ts->index_cap;
    ts->index = calloc(cap, sizeof *ts->index);
    if (!ts->index) {
        ts->index = old;
        return false;
    }
    ts->index_cap = cap;
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i])
            ts->index[slot_of(ts, &ts->t[old[i] - 1])] = old[i];
    free(old);
    return true;
}

int wg_type_intern(wg_types *ts, const wg_type *t)
{
    if (t->kind != TY_STRUCT) {
        if (2 * (uint32_t)(ts->n + 1) > ts->index_cap && !index_grow(ts))
            return -1;
        uint32_t h = slot_of(ts, t);
        if (ts->index[h])
            return ts->index[h] - 1;
    }
    if (ts->n == ts->cap) {
        int cap = ts->cap ? 2 * ts->cap : 64;
        wg_type *n = realloc(ts->t, (size_t)cap * sizeof *n);
        if (!n)
            return -1;
        ts->t = n;
        ts->cap = cap;
    }
    wg_type *n = &ts->t[ts->n];
    *n = *t;
    layout(ts, n);
    if (t->kind != TY_STRUCT)
        ts->index[slot_of(ts, n)] = ts->n + 1;
    return ts->n++;
}

bool wg_types_init(wg_types *ts)
{
    memset(ts, 0, sizeof *ts);
    static const wg_type_kind first[] = {TY_VOID, TY_BOOL, TY_I32, TY_U32, TY_F32, TY_AINT,
                                         TY_AFLOAT, TY_F16};
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
        if (wg_type_intern(ts, &(wg_type){.kind = first[i], .elem = -1}) != (int)i)
            return false;
    return true;
}

void wg_types_free(wg_types *ts)
{
    for (int i = 0; i < ts->n; i++)
        if (ts->t[i].kind == TY_STRUCT)
            free(ts->t[i].members);
    free(ts->t);
    free(ts->index);
    memset(ts, 0, sizeof *ts);
}

int wg_type_vec(wg_types *ts, int elem, uint32_t n)
{
    return wg_type_intern(ts, &(wg_type){.kind = TY_VEC, .elem = elem, .n = n});
}

int wg_type_array(wg_types *ts, int elem, uint32_t n)
{
    return wg_type_intern(ts, &(wg_type){.kind = TY_ARRAY, .elem = elem, .n = n});
}

int wg_type_mat_of(wg_types *ts, int scalar, uint32_t cols, uint32_t rows)
{
    int col = wg_type_vec(ts, scalar, rows);
    return col < 0 ? -1 : wg_type_intern(ts, &(wg_type){.kind = TY_MAT, .elem = col, .n = cols});
}

int wg_type_mat(wg_types *ts, uint32_t cols, uint32_t rows)
{
    return wg_type_mat_of(ts, T_F32, cols, rows);
}

int wg_type_ptr(wg_types *ts, wg_space space, int elem, stex_access access)
{
    return wg_type_intern(ts, &(wg_type){.kind = TY_PTR, .elem = elem, .space = space,
                                         .access = access});
}

int wg_type_scalar(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    return t->kind == TY_VEC ? t->elem : id;
}

uint32_t wg_type_lanes(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    if (t->kind == TY_VEC)
        return t->n;
    return wg_type_is_scalar(ts, id) ? 1 : 0;
}

bool wg_type_is_scalar(const wg_types *ts, int id)
{
    wg_type_kind k = ts->t[id].kind;
    return k == TY_BOOL || k == TY_I32 || k == TY_U32 || k == TY_F32 || k == TY_AINT ||
           k == TY_AFLOAT || k == TY_F16;
}

bool wg_type_is_abstract(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    if (t->kind == TY_AINT || t->kind == TY_AFLOAT)
        return true;
    if (t->kind == TY_VEC || t->kind == TY_ARRAY || t->kind == TY_MAT)
        return wg_type_is_abstract(ts, t->elem);
    return false;
}

bool wg_type_is_integer(const wg_types *ts, int id)
{
    wg_type_kind k = ts->t[wg_type_scalar(ts, id)].kind;
    return wg_type_lanes(ts, id) && (k == TY_I32 || k == TY_U32 || k == TY_AINT);
}

bool wg_type_is_float(const wg_types *ts, int id)
{
    wg_type_kind k = ts->t[wg_type_scalar(ts, id)].kind;
    return wg_type_lanes(ts, id) && (k == TY_F32 || k == TY_AFLOAT || k == TY_F16);
}

bool wg_type_has_f16(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    if (t->kind == TY_F16)
        return true;
    if (t->kind == TY_VEC || t->kind == TY_ARRAY || t->kind == TY_MAT || t->kind == TY_ATOMIC)
        return wg_type_has_f16(ts, t->elem);
    for (uint32_t i = 0; t->kind == TY_STRUCT && i < t->nmembers; i++)
        if (wg_type_has_f16(ts, t->members[i].type))
            return true;
    return false;
}

bool wg_type_is_numeric(const wg_types *ts, int id)
{
    return wg_type_is_integer(ts, id) || wg_type_is_float(ts, id);
}

bool wg_type_constructible(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    switch (t->kind) {
    case TY_BOOL: case TY_I32: case TY_U32: case TY_F32: case TY_AINT: case TY_AFLOAT:
    case TY_VEC: case TY_MAT: case TY_F16:
        return true;
    case TY_ARRAY: /* a fixed count that a const-expression gives */
        return t->n && !t->override_sized && wg_type_constructible(ts, t->elem);
    case TY_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++)
            if (!wg_type_constructible(ts, t->members[i].type))
                return false;
        return true;
    default:
        return false;
    }
}

bool wg_type_fixed_footprint(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    if (t->kind == TY_ARRAY)
        return t->n != 0;
    if (t->kind == TY_STRUCT && t->nmembers) /* only the last member may be runtime-sized */
        return wg_type_fixed_footprint(ts, t->members[t->nmembers - 1].type);
    return true;
}

bool wg_type_plain(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    switch (t->kind) {
    case TY_BOOL: case TY_I32: case TY_U32: case TY_F32: case TY_F16:
    case TY_VEC: case TY_MAT: case TY_ATOMIC:
        return true;
    case TY_ARRAY:
        return wg_type_plain(ts, t->elem);
    case TY_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++)
            if (!wg_type_plain(ts, t->members[i].type))
                return false;
        return true;
    default:
        return false;
    }
}

int wg_type_with_scalar(wg_types *ts, int id, int s)
{
    const wg_type *t = &ts->t[id];
    if (t->kind == TY_VEC)
        return wg_type_vec(ts, s, t->n);
    if (t->kind == TY_MAT)
        return wg_type_mat_of(ts, s, t->n, ts->t[t->elem].n);
    return s;
}

/* The concrete twin of a builtin result struct of AbstractFloat
 * (__frexp_result_abstract -> __frexp_result_f32, interned beside it), or -1. */
static int struct_twin(const wg_types *ts, int id)
{
    const wg_type *t = &ts->t[id];
    size_t n = t->kind == TY_STRUCT && t->name ? strlen(t->name) : 0;
    if (n < 9 || strncmp(t->name, "__", 2) || strcmp(t->name + n - 8, "abstract"))
        return -1;
    char name[64];
    snprintf(name, sizeof name, "%.*sf32", (int)(n - 8), t->name);
    for (int i = 0; i < ts->n; i++)
        if (ts->t[i].kind == TY_STRUCT && !strcmp(ts->t[i].name, name))
            return i;
    return -1;
}

int wg_type_concrete(wg_types *ts, int id)
{
    if (struct_twin(ts, id) >= 0)
        return struct_twin(ts, id);
    const wg_type *t = &ts->t[id];
    switch (t->kind) {
    case TY_AINT: return T_I32;
    case TY_AFLOAT: return T_F32;
    case TY_VEC: return wg_type_vec(ts, wg_type_concrete(ts, t->elem), t->n);
    case TY_MAT: /* AbstractFloat -> f32; f32 and f16 stay */
        return wg_type_mat_of(ts, ts->t[t->elem].elem == T_AFLOAT ? T_F32 : ts->t[t->elem].elem,
                              t->n, ts->t[t->elem].n);
    case TY_ARRAY: {
        uint32_t n = t->n;
        return wg_type_array(ts, wg_type_concrete(ts, t->elem), n);
    }
    default: return id;
    }
}

/* WGSL 6.1.3: AbstractInt -> AbstractFloat, i32, u32, f32; AbstractFloat -> f32;
 * element-wise through vectors and arrays. */
bool wg_type_converts(const wg_types *ts, int from, int to)
{
    if (from == to)
        return true;
    const wg_type *a = &ts->t[from], *b = &ts->t[to];
    if (a->kind == TY_AINT)
        return b->kind == TY_AFLOAT || b->kind == TY_I32 || b->kind == TY_U32 ||
               b->kind == TY_F32 || b->kind == TY_F16;
    if (a->kind == TY_AFLOAT)
        return b->kind == TY_F32 || b->kind == TY_F16;
    if (a->kind == TY_STRUCT)
        return struct_twin(ts, from) == to;
    if ((a->kind == TY_VEC || a->kind == TY_ARRAY || a->kind == TY_MAT) && a->kind == b->kind &&
        a->n == b->n)
        return wg_type_converts(ts, a->elem, b->elem);
    return false;
}

static const char *space_name(wg_space s)
{
    static const char *const names[] = {"", "function", "private", "workgroup", "uniform",
                                        "storage", "handle"};
    return names[s];
}

static const char *access_name(stex_access a)
{
    return a == STEX_ACCESS_READ_ONLY ? "read" : a == STEX_ACCESS_WRITE_ONLY ? "write"
                                                                             : "read_write";
}

static const char *dim_suffix(stex_view_dimension d)
{
    switch (d) {
    case STEX_VIEW_DIMENSION_1D: return "1d";
    case STEX_VIEW_DIMENSION_2D_ARRAY: return "2d_array";
    case STEX_VIEW_DIMENSION_3D: return "3d";
    case STEX_VIEW_DIMENSION_CUBE: return "cube";
    case STEX_VIEW_DIMENSION_CUBE_ARRAY: return "cube_array";
    default: return "2d";
    }
}

const char *wg_type_name(const wg_types *ts, int id, char *buf, size_t size)
{
    const wg_type *t = &ts->t[id];
    char a[96], b[96];
    switch (t->kind) {
    case TY_VOID: snprintf(buf, size, "void"); break;
    case TY_BOOL: snprintf(buf, size, "bool"); break;
    case TY_I32: snprintf(buf, size, "i32"); break;
    case TY_U32: snprintf(buf, size, "u32"); break;
    case TY_F32: snprintf(buf, size, "f32"); break;
    case TY_F16: snprintf(buf, size, "f16"); break;
    case TY_AINT: snprintf(buf, size, "abstract-int"); break;
    case TY_AFLOAT: snprintf(buf, size, "abstract-float"); break;
    case TY_VEC:
        snprintf(buf, size, "vec%u<%s>", t->n, wg_type_name(ts, t->elem, a, sizeof a));
        break;
    case TY_ARRAY:
        if (t->override_sized) /* its count is the pipeline's: no number while checked */
            snprintf(buf, size, "array<%s, (override-expression)>",
                     wg_type_name(ts, t->elem, a, sizeof a));
        else if (t->n)
            snprintf(buf, size, "array<%s, %u>", wg_type_name(ts, t->elem, a, sizeof a), t->n);
        else
            snprintf(buf, size, "array<%s>", wg_type_name(ts, t->elem, a, sizeof a));
        break;
    case TY_STRUCT: snprintf(buf, size, "%s", t->name); break;
    case TY_MAT:
        snprintf(buf, size, "mat%ux%u<%s>", t->n, ts->t[t->elem].n,
                 wg_type_name(ts, ts->t[t->elem].elem, a, sizeof a));
        break;
    case TY_ATOMIC:
        snprintf(buf, size, "atomic<%s>", wg_type_name(ts, t->elem, a, sizeof a));
        break;
    case TY_PTR:
        snprintf(buf, size, "ptr<%s, %s%s%s>", space_name(t->space),
                 wg_type_name(ts, t->elem, b, sizeof b),
                 t->space == SP_STORAGE ? ", " : "",
                 t->space == SP_STORAGE ? access_name(t->access) : "");
        break;
    case TY_SAMPLER: snprintf(buf, size, t->n ? "sampler_comparison" : "sampler"); break;
    case TY_TEXTURE: {
        const char *el = t->elem == T_I32 ? "i32" : t->elem == T_U32 ? "u32" : "f32";
        if (t->n & WG_TEX_EXTERNAL)
            snprintf(buf, size, "texture_external");
        else if (t->n == (WG_TEX_DEPTH | WG_TEX_MULTISAMPLED))
            snprintf(buf, size, "texture_depth_multisampled_2d");
        else if (t->n & WG_TEX_DEPTH)
            snprintf(buf, size, "texture_depth_%s", dim_suffix(t->dim));
        else if (t->n & WG_TEX_MULTISAMPLED)
            snprintf(buf, size, "texture_multisampled_2d<%s>", el);
        else
            snprintf(buf, size, "texture_%s<%s>", dim_suffix(t->dim), el);
        break;
    }
    case TY_STORAGE_TEXTURE:
        snprintf(buf, size, "texture_storage_%s<%s, %s>", dim_suffix(t->dim),
                 stex_format_name(t->format), access_name(t->access));
        break;
    }
    return buf;
}
