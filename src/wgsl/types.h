/* Internal: WGSL types (WGSL section 6) interned in a table, with their
 * memory layout (WGSL 14.4: size, alignment, array stride, member offsets)
 * and their register shape (a value of the type fills `words` consecutive
 * 32-bit registers, scalars of vectors, arrays and structs laid end to end). */
#ifndef STEX_WGSL_TYPES_H
#define STEX_WGSL_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/format.h"
#include "stex/webgpu.h"

typedef enum wg_type_kind {
    TY_VOID, TY_BOOL, TY_I32, TY_U32, TY_F32, TY_AINT, TY_AFLOAT,
    TY_VEC, TY_ARRAY, TY_STRUCT, TY_ATOMIC, TY_PTR,
    TY_SAMPLER, TY_TEXTURE, TY_STORAGE_TEXTURE,
    TY_MAT, /* matCxR<f32> or matCxR<f16> (or AbstractFloat, in const-expressions):
             * elem = the column type vecR<T>, n = C columns; laid out as
             * array<vecR<T>, C> (column stride = the column's alignment) */
    TY_F16  /* `enable f16`: one register word holding the binary16 bits in its low
             * half; size and alignment 2 in memory */
} wg_type_kind;

typedef enum wg_space {
    SP_NONE, SP_FUNCTION, SP_PRIVATE, SP_WORKGROUP, SP_UNIFORM, SP_STORAGE, SP_HANDLE
} wg_space;

typedef struct wg_member {
    const char *name;
    int type;
    uint32_t offset;   /* bytes, in memory */
    uint32_t word;     /* register offset inside the struct's value */
    uint32_t align_attr, size_attr; /* @align(n), @size(n); 0: the type's own */
    int64_t location;  /* @location(n); -1: none (or not a valid one) */
} wg_member;

typedef struct wg_type {
    wg_type_kind kind;
    int elem;                   /* vec, array, atomic, ptr: the element / store type */
    uint32_t n;                 /* vec: 2..4; array: count, 0 = runtime-sized; mat: columns */
    bool override_sized;        /* array: its count is an override-expression (WGSL 6.2.9:
                                 * then neither constructible nor host-shareable, and only
                                 * a var<workgroup>'s store type or a ptr<workgroup>'s) */
    uint32_t words;             /* registers a value takes */
    uint32_t size, align;       /* memory layout; array: size = n * stride */
    uint32_t stride;            /* array */
    uint32_t depth;             /* composite nesting: 0 for a scalar, vec 1, array and
                                 * struct 1 + their elements' or members' deepest */
    bool too_big;               /* struct: its size passes 0xffffffff bytes */
    const char *name;           /* struct */
    wg_member *members;         /* struct */
    uint32_t nmembers;
    stex_view_dimension dim;    /* textures; sampled textures: elem = the sampled type
                                 * and n = WG_TEX_* bits; samplers: n = 1 comparison */
    stex_format format;         /* storage texture */
    stex_access access;         /* storage texture; ptr */
    wg_space space;             /* ptr */
} wg_type;

typedef struct wg_types {
    wg_type *t;
    int n, cap;
    int *index;          /* open-addressed: type id + 1 of the non-struct types (0 empty) */
    uint32_t index_cap;  /* a power of two, at least 2n */
} wg_types;

/* A sampled texture's kind (wg_type.n of TY_TEXTURE). */
enum { WG_TEX_MULTISAMPLED = 1u, WG_TEX_DEPTH = 2u,
       WG_TEX_EXTERNAL = 4u /* texture_external: checked; stex has no external textures */ };

/* WGSL requires composite types nested 15 deep; stex takes Tint's 255. */
enum { WG_MAX_TYPE_NESTING = 255 };

/* Well-known ids, interned first by wg_types_init. */
enum { T_VOID, T_BOOL, T_I32, T_U32, T_F32, T_AINT, T_AFLOAT, T_F16 };

bool wg_types_init(wg_types *ts);
void wg_types_free(wg_types *ts);
/* The id of a type equal to *t (interning it; layout computed); -1 on no memory. */
int wg_type_intern(wg_types *ts, const wg_type *t);
int wg_type_vec(wg_types *ts, int elem, uint32_t n);
int wg_type_array(wg_types *ts, int elem, uint32_t n);
int wg_type_mat(wg_types *ts, uint32_t cols, uint32_t rows); /* matCxR<f32> */
int wg_type_mat_of(wg_types *ts, int scalar, uint32_t cols, uint32_t rows); /* f32 or AFloat */
int wg_type_ptr(wg_types *ts, wg_space space, int elem, stex_access access);
static inline const wg_type *wg_ty(const wg_types *ts, int id) { return &ts->t[id]; }

/* The scalar type of a scalar or vector (the type itself for a scalar). */
int wg_type_scalar(const wg_types *ts, int id);
/* 1 for a scalar, n for a vector, 0 otherwise. */
uint32_t wg_type_lanes(const wg_types *ts, int id);
bool wg_type_is_scalar(const wg_types *ts, int id);
bool wg_type_is_abstract(const wg_types *ts, int id); /* contains an abstract scalar */
bool wg_type_is_integer(const wg_types *ts, int id);  /* scalar kind i32/u32/AInt */
bool wg_type_is_float(const wg_types *ts, int id);    /* scalar kind f32/f16/AFloat */
bool wg_type_has_f16(const wg_types *ts, int id);     /* f16 anywhere inside */
bool wg_type_is_numeric(const wg_types *ts, int id);
bool wg_type_constructible(const wg_types *ts, int id);
/* WGSL 6.4's fixed footprint: no runtime-sized array, at the top or as a
 * struct's last member (an override-sized array has one). */
bool wg_type_fixed_footprint(const wg_types *ts, int id);
/* WGSL's plain types: scalars, atomics, vectors, matrices, and arrays and
 * structures of them (not pointers, textures or samplers). */
bool wg_type_plain(const wg_types *ts, int id);
/* The type with every abstract scalar made concrete (AInt -> i32, AFloat -> f32). */
int wg_type_concrete(wg_types *ts, int id);
/* Whether a value of type `from` converts automatically to `to` (WGSL 6.1.3;
 * AbstractInt and AbstractFloat also to f16). */
bool wg_type_converts(const wg_types *ts, int from, int to);
/* The same shape with scalar `s` (vec3<f32> with u32 -> vec3<u32>). */
int wg_type_with_scalar(wg_types *ts, int id, int s);

/* "vec2<f32>", "array<u32, 4>", "ptr<storage, atomic<u32>, read_write>"... */
const char *wg_type_name(const wg_types *ts, int id, char *buf, size_t size);

#endif
