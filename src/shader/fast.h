/*
 * Internal: the inline fast path of the builtins declared in stex/shader.h.
 *
 * Code inside stex (the lessons' kernels, the builtins' out-of-line halves,
 * the dispatch that fills these structs) includes this header; it maps each
 * public builtin name to its inline version, so a kernel pays a few
 * instructions per call.  Kernels outside the library call the exported
 * functions, which run the same inline code out of line.
 */
#ifndef STEX_SHADER_FAST_H
#define STEX_SHADER_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/inline.h"
#include "convert/codec_inline.h"
#include "stex/math.h"
#include "race/race_internal.h" /* the race summary words the inline path marks */
#include "stex/shader.h"

/* ---- the inline fast path ----
 * The builtins are always inlined so that a kernel pays a few instructions
 * per call: one compare of a tag, unsigned bounds compares, the tiled
 * address, and the format's encoder or decoder chosen once per dispatch
 * (inline for the hot formats).  The race summary's marking stays inline too
 * (a second tag value); everything else (wrong type or binding, out-of-bounds
 * loads, the full race detector, snapshot visibility, a store observer) goes
 * to the out-of-line stex__texture_* / stex__buffer_* functions.  The
 * dispatch fills the two structs below for these functions.
 *
 * The texel address is the tiled layout (stex_level_offset) split in
 * two sums, because a macro-tile index and a Morton index are both separable
 * in x and y: offset = z * slice + col[x] + row[y], with col and row
 * tabulated per binding for each dispatch.  A format of one 32-bit channel
 * whose conversions keep every bit under the profile in force (checked once
 * per dispatch) is copied without calling the converter. */
typedef struct stex_fast_binding {
    /* The tags carry STEX__TAG_RACE when the race summary records the
     * binding's accesses: the plain inline path then compares one tag and
     * never tests for the race detector. */
    uint32_t load_tag;   /* view dimension if a readable storage texture */
    uint32_t store_tag;  /* view dimension | scalar << 8 if a writable storage texture */
    uint32_t dims_tag;   /* view dimension of any texture binding */
    stex_scalar_type scalar;
    uint64_t w, h, d;    /* bounds: d = layers (2d-array) or depth (3d), else 1 */
    uint8_t *memory;     /* the view's mip level and base layer */
    const uint64_t *col; /* byte offset of column x within its row of tiles */
    const uint64_t *row; /* byte offset of row y within its slice */
    uint64_t slice;      /* bytes per layer / z slice */
    uint32_t raw32;      /* 1: one 32-bit channel whose encode/decode keep every bit */
    uint32_t alpha_one;  /* bits of 1 in the texel type (the missing alpha) */
    stex_encode_fn enc;
    stex_decode_fn dec;
    /* race detection by summary (pipelines without barriers): the binding's
     * words, one per texel per thread (see src/race/race_internal.h), NULL
     * otherwise; in a thread's copy, that thread's words and touch marks */
    uint32_t *race;
    uint64_t race_count;        /* words per thread */
    uint64_t race_w, race_wh, race_off; /* word index = x + w * y + wh * z + off */
    uint32_t race_bpp;
    bool race_values;           /* suppress_same_value: written bytes go out of line */
    /* per thread, per run of locations: accessed (see below); 16-bit, not
     * bytes: a byte store may alias anything and would make the kernel
     * reload the engine's pointers after every access */
    uint16_t *race_touch;
    uint64_t race_runs;         /* runs per thread */
    /* the hot formats' conversions written out inline (stex__encode_fast) */
    uint32_t enc_codec, dec_codec; /* STEX__CODEC_* */
    uint32_t u8_round, u8_nan;  /* unorm8 store: STEX__UNORM8_* rule, the code NaN stores */
    uint32_t f16_even;          /* f16 store: 1 round to nearest even, 0 toward zero */
    const float *u8_value;      /* unorm8 load: the profile's value of each code */
    bool sampled_2d;            /* texture_2d<f32> with a decoder: inline textureLoad */
    uint32_t buf_load, buf_store; /* STEX__BUF_WORDS (| STEX__TAG_RACE): a buffer the inline
                                   * loads / stores may use; 0 otherwise */
    /* A race summary that keeps sites (the WGSL interpreter's): a binding it
     * records has its tags above off, so every per-invocation access goes
     * out of line, and keeps them here (without STEX__TAG_RACE) for the lane
     * word forms, which access memory themselves and record each lane as
     * the out-of-line builtin would (builtins_lanes_words.c); 0 otherwise. */
    uint32_t site_load_tag, site_store_tag, site_buf_load, site_buf_store;
    uint8_t *buf;               /* buffer: the bound range */
    uint64_t buf_words;         /* buffer: 32-bit words in the bound range */
    uint32_t slot;              /* its index in the dispatch's table of bindings */
} stex_fast_binding;


STEX__ALWAYS_INLINE void stex__encode_fast(const stex_profile *prof, const stex_fast_binding *b,
                                     const stex_vec4 *v, uint8_t *p)
{
    uint32_t w;
    switch (b->enc_codec) {
    case STEX__CODEC_RGBA8UNORM:
        stex__put_le32(p, stex__unorm8x4(b->u8_round, b->u8_nan, v->f));
        return;
    case STEX__CODEC_BGRA8UNORM: /* memory order b, g, r, a */
        w = stex__unorm8x4(b->u8_round, b->u8_nan, v->f);
        stex__put_le32(p, (w & 0xff00ff00u) | (w >> 16 & 0xffu) | (w & 0xffu) << 16);
        return;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    case STEX__CODEC_RGBA16FLOAT: {
        uint64_t h;
        if (STEX__LIKELY(stex__f16x4_normal(b->f16_even, v->f, &h))) {
            *(uint64_t *)(void *)p = h; /* aligned: 8-byte texels */
            return;
        }
        b->enc(prof, v, p);
        return;
    }
#endif
    default:
        b->enc(prof, v, p);
    }
}

/* The format's decoder through its function pointer, out of line: the
 * inline decoders below then keep their vec4 in registers. */
STEX__COLD stex_vec4 stex__decode_call(const stex_profile *prof, const stex_fast_binding *b,
                            const uint8_t *p);

STEX__ALWAYS_INLINE stex_vec4 stex__decode_fast(const stex_profile *prof, const stex_fast_binding *b,
                                          const uint8_t *p)
{
    const float *t = b->u8_value;
    stex_vec4 r;
    switch (b->dec_codec) {
    case STEX__CODEC_RGBA8UNORM:
        r.f[0] = t[p[0]], r.f[1] = t[p[1]], r.f[2] = t[p[2]], r.f[3] = t[p[3]];
        return r;
    case STEX__CODEC_BGRA8UNORM:
        r.f[0] = t[p[2]], r.f[1] = t[p[1]], r.f[2] = t[p[0]], r.f[3] = t[p[3]];
        return r;
    default:
        return stex__decode_call(prof, b, p);
    }
}

/* Each thread holds its own copy of the bindings, the first few inside its
 * state so that a constant @binding is a constant offset (no table load, no
 * bound check).  A dispatch the inline path must not serve (snapshot
 * visibility, a store observer, the epoch race detector) or a thread after
 * a shader error has its copies' load/store tags cleared: then every texture
 * and buffer access goes out of line, and the inline path checks one tag. */
#define STEX__NEAR_BINDINGS 8
#define STEX__MAX_GROUPS 4 /* maxBindGroups */

/* A dispatch's bindings live in one table: group g's binding n at slot
 * first[g] + n (n < count[g]), so @group(0) @binding(n) is slot n. */
typedef struct stex_slots {
    uint32_t first[STEX__MAX_GROUPS], count[STEX__MAX_GROUPS];
    uint32_t total;
} stex_slots;
#define STEX__NO_SLOT UINT32_MAX

/* The slot of binding reference ref (STEX_BINDING), or STEX__NO_SLOT. */
STEX__ALWAYS_INLINE uint32_t stex__slot(const stex_slots *s, uint32_t ref)
{
    uint32_t g = STEX_BINDING_GROUP(ref), n = STEX_BINDING_NUMBER(ref);
    return g < STEX__MAX_GROUPS && n < s->count[g] ? s->first[g] + n : STEX__NO_SLOT;
}

typedef struct stex_exec_fast {
    stex_fast_binding near[STEX__NEAR_BINDINGS]; /* @group(0) @binding(0..7) */
    const stex_fast_binding *b; /* every binding, by slot (stex__slot) */
    stex_slots slots;
    bool slow;                  /* race detection, snapshot visibility, or an error */
    uint32_t race_tid;          /* this thread's words: race + race_tid * race_count */
    uint32_t race_key;          /* summary key of local invocation 0 of the running workgroup */
    uint32_t race_base;         /* summary keys of the dispatch start here: below, a word is stale */
    const stex_profile *profile;
    bool f32_ieee;              /* the profile's f32 arithmetic is the host's (stex_math_f32_is_ieee) */
    /* the profile's pack4x8unorm rule and unpack4x8unorm values (inline builtins) */
    uint32_t pack_u8_round, pack_u8_nan;
    const float *unpack_u8;
} stex_exec_fast;

#define STEX__TAG_RACE (1u << 16)
#define STEX__BUF_WORDS 1u


STEX__COLD void stex__race_note(const stex_invocation *inv, const stex_fast_binding *b, uint64_t word,
                     uint32_t key, uint32_t bit, const void *value);

/* Records a texel access for the race summary.  The common case - the
 * texel's only invocation so far - is a load and a store of this thread's
 * word (no other thread reads it before the dispatch ends; a word whose key
 * is below race_base is an earlier dispatch's: untouched); anything else
 * goes out of line. */
STEX__ALWAYS_INLINE void stex__race_mark(const stex_invocation *inv, const stex_fast_binding *b,
                                   int64_t x, int64_t y, int64_t z, uint32_t bit,
                                   const void *value)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    uint64_t i = (uint64_t)x + b->race_w * (uint64_t)y + b->race_wh * (uint64_t)z + b->race_off;
    uint32_t key = e->race_key + inv->local_invocation_index;
    uint32_t *wp = b->race + i;
    uint32_t w = *wp, kw = w & STEX__RACE_KEY;
    if (!b->race_values && (kw == key || kw < e->race_base)) {
        *wp = (kw == key ? w : 0) | key | bit;
        /* the end-of-dispatch scan skips runs no thread touched */
        b->race_touch[i >> STEX__RACE_RUN_SHIFT] = 1;
        return;
    }
    stex__race_note(inv, b, i, key, bit, value);
}

STEX__COLD void stex__texture_store(const stex_invocation *inv, uint32_t binding, stex_view_dimension dim,
                         int64_t x, int64_t y, int64_t z, const stex_value *v);
STEX__COLD stex_value stex__texture_load(const stex_invocation *inv, uint32_t binding,
                              stex_view_dimension dim, int64_t x, int64_t y, int64_t z);
STEX__COLD stex_uvec2 stex__texture_dimensions_2d(const stex_invocation *inv, uint32_t binding);

extern const stex_fast_binding stex__no_binding; /* every tag mismatches */

STEX__ALWAYS_INLINE const stex_fast_binding *stex__fast(const stex_invocation *inv, uint32_t binding)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    if (binding < STEX__NEAR_BINDINGS)
        return &e->near[binding]; /* unbound numbers hold stex__no_binding */
    uint32_t slot = stex__slot(&e->slots, binding);
    return slot != STEX__NO_SLOT ? &e->b[slot] : &stex__no_binding;
}

/* The inline textureStore / textureLoad once the tag matched; `race`: the
 * binding is recorded by the race summary (a constant at each call). */
STEX__ALWAYS_INLINE void stex__store_at(const stex_invocation *inv, const stex_fast_binding *b,
                                        int64_t x, int64_t y, int64_t z, const stex_value *v,
                                        bool race)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    if (STEX__LIKELY(((uint64_t)x < b->w) & ((uint64_t)y < b->h) & ((uint64_t)z < b->d))) {
        uint8_t *p = b->memory + (uint64_t)z * b->slice + b->col[x] + b->row[y];
        if (b->raw32)
            stex__store32(p, v->v.u[0]);
        else
            stex__encode_fast(e->profile, b, &v->v, p);
        if (race)
            stex__race_mark(inv, b, x, y, z, STEX__RACE_WRITE, p);
    }
    /* else WGSL: an out-of-bounds textureStore is discarded */
}

/* textureStore through binding b (stex__fast(inv, binding), looked up once
 * by the caller): the one place a store picks its path. */
STEX__ALWAYS_INLINE void stex__store_b(const stex_invocation *inv, const stex_fast_binding *b,
                                       uint32_t binding, stex_view_dimension dim, int64_t x,
                                       int64_t y, int64_t z, const stex_value *v)
{
    uint32_t tag = (uint32_t)dim | ((uint32_t)v->type << 8);
    if (STEX__LIKELY(b->store_tag == tag))
        stex__store_at(inv, b, x, y, z, v, false);
    else if (b->store_tag == (tag | STEX__TAG_RACE))
        stex__store_at(inv, b, x, y, z, v, true);
    else
        stex__texture_store(inv, binding, dim, x, y, z, v);
}

STEX__ALWAYS_INLINE void stex__store(const stex_invocation *inv, uint32_t binding,
                               stex_view_dimension dim, int64_t x, int64_t y, int64_t z,
                               const stex_value *v)
{
    stex__store_b(inv, stex__fast(inv, binding), binding, dim, x, y, z, v);
}

STEX__ALWAYS_INLINE stex_value stex__load_at(const stex_invocation *inv,
                                             const stex_fast_binding *b, int64_t x, int64_t y,
                                             int64_t z, bool race)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    stex_value r;
    r.type = b->scalar;
    const uint8_t *p = b->memory + (uint64_t)z * b->slice + b->col[x] + b->row[y];
    if (race)
        stex__race_mark(inv, b, x, y, z, STEX__RACE_READ, NULL);
    if (b->raw32) {
        memcpy(&r.v.u[0], p, 4);
        r.v.u[1] = r.v.u[2] = 0;
        r.v.u[3] = b->alpha_one;
    } else
        r.v = stex__decode_fast(e->profile, b, p);
    return r;
}

/* textureLoad through binding b, looked up once by the caller. */
STEX__ALWAYS_INLINE stex_value stex__load_b(const stex_invocation *inv, const stex_fast_binding *b,
                                            uint32_t binding, stex_view_dimension dim, int64_t x,
                                            int64_t y, int64_t z)
{
    bool in = ((uint64_t)x < b->w) & ((uint64_t)y < b->h) & ((uint64_t)z < b->d);
    if (STEX__LIKELY((b->load_tag == (uint32_t)dim) & in))
        return stex__load_at(inv, b, x, y, z, false);
    if ((b->load_tag == ((uint32_t)dim | STEX__TAG_RACE)) & in)
        return stex__load_at(inv, b, x, y, z, true);
    return stex__texture_load(inv, binding, dim, x, y, z); /* out of bounds too */
}

STEX__ALWAYS_INLINE stex_value stex__load(const stex_invocation *inv, uint32_t binding,
                                    stex_view_dimension dim, int64_t x, int64_t y, int64_t z)
{
    return stex__load_b(inv, stex__fast(inv, binding), binding, dim, x, y, z);
}

/* textureStore: out-of-bounds coordinates (or layer) discard the store. */
STEX__ALWAYS_INLINE void stex__fast_textureStore_1d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                        stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_1D, x, 0, 0, &v); }
STEX__ALWAYS_INLINE void stex__fast_textureStore_2d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                        int64_t y, stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_2D, x, y, 0, &v); }
STEX__ALWAYS_INLINE void stex__fast_textureStore_2d_array(const stex_invocation *inv, uint32_t binding,
                                              int64_t x, int64_t y, int64_t layer, stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_2D_ARRAY, x, y, layer, &v); }
STEX__ALWAYS_INLINE void stex__fast_textureStore_3d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                        int64_t y, int64_t z, stex_value v)
{ stex__store(inv, binding, STEX_VIEW_DIMENSION_3D, x, y, z, &v); }

/* textureLoad on read / read_write storage textures (no level); out of
 * bounds: the dispatch's stex_oob_load policy. */
STEX__ALWAYS_INLINE stex_value stex__fast_textureLoad_1d(const stex_invocation *inv, uint32_t binding,
                                             int64_t x)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_1D, x, 0, 0); }
STEX__ALWAYS_INLINE stex_value stex__fast_textureLoad_2d(const stex_invocation *inv, uint32_t binding,
                                             int64_t x, int64_t y)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_2D, x, y, 0); }
STEX__ALWAYS_INLINE stex_value stex__fast_textureLoad_2d_array(const stex_invocation *inv, uint32_t binding,
                                                   int64_t x, int64_t y, int64_t layer)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_2D_ARRAY, x, y, layer); }
STEX__ALWAYS_INLINE stex_value stex__fast_textureLoad_3d(const stex_invocation *inv, uint32_t binding,
                                             int64_t x, int64_t y, int64_t z)
{ return stex__load(inv, binding, STEX_VIEW_DIMENSION_3D, x, y, z); }

/* textureDimensions of a 2d binding: inline when the binding is one. */
STEX__ALWAYS_INLINE stex_uvec2 stex__fast_textureDimensions_2d(const stex_invocation *inv, uint32_t binding)
{ /* texture_storage_2d, texture_storage_2d_array, texture_2d */
    const stex_fast_binding *b = stex__fast(inv, binding);
    if (STEX__LIKELY(b->dims_tag == STEX_VIEW_DIMENSION_2D)) {
        stex_uvec2 r = {(uint32_t)b->w, (uint32_t)b->h};
        return r;
    }
    return stex__texture_dimensions_2d(inv, binding);
}

/* texture_2d<f32>: textureLoad with a level. */
STEX__COLD stex_vec4 stex__texture_load_level_2d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                     int64_t y, int64_t level);
STEX__ALWAYS_INLINE stex_vec4 stex__load_level_b(const stex_invocation *inv,
                                                 const stex_fast_binding *b, uint32_t binding,
                                                 int64_t x, int64_t y, int64_t level)
{ /* sampled textures are read-only in the dispatch: no race or visibility path */
    if (STEX__LIKELY(b->sampled_2d & (level == 0) & ((uint64_t)x < b->w) & ((uint64_t)y < b->h))) {
        const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
        return stex__decode_fast(e->profile, b, b->memory + b->col[x] + b->row[y]);
    }
    return stex__texture_load_level_2d(inv, binding, x, y, level);
}
STEX__ALWAYS_INLINE stex_vec4 stex__fast_textureLoad_level_2d(const stex_invocation *inv, uint32_t binding,
                                                  int64_t x, int64_t y, int64_t level)
{
    return stex__load_level_b(inv, stex__fast(inv, binding), binding, x, y, level);
}

/* Buffer words: out of line when out of range or not a plain buffer. */
STEX__COLD uint32_t stex__buffer_load_word(const stex_invocation *inv, uint32_t binding, uint64_t index);
STEX__COLD void stex__buffer_store_word(const stex_invocation *inv, uint32_t binding, uint64_t index,
                             uint32_t v);
/* Inline: a word in range of a buffer the binding may access, without race
 * detection or snapshot visibility; everything else goes out of line. */
STEX__ALWAYS_INLINE uint32_t stex__buffer_load_b(const stex_invocation *inv,
                                                 const stex_fast_binding *b, uint32_t binding,
                                                 uint64_t index)
{
    uint32_t v;
    if (STEX__LIKELY((b->buf_load == STEX__BUF_WORDS) & (index < b->buf_words))) {
        memcpy(&v, b->buf + index * 4, 4);
        return v;
    }
    if ((b->buf_load == (STEX__BUF_WORDS | STEX__TAG_RACE)) & (index < b->buf_words)) {
        stex__race_mark(inv, b, (int64_t)index, 0, 0, STEX__RACE_READ, NULL);
        memcpy(&v, b->buf + index * 4, 4);
        return v;
    }
    return stex__buffer_load_word(inv, binding, index);
}
STEX__ALWAYS_INLINE uint32_t stex__buffer_load(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index)
{
    return stex__buffer_load_b(inv, stex__fast(inv, binding), binding, index);
}
STEX__ALWAYS_INLINE void stex__buffer_store_b(const stex_invocation *inv,
                                              const stex_fast_binding *b, uint32_t binding,
                                              uint64_t index, uint32_t v)
{
    if (STEX__LIKELY((b->buf_store == STEX__BUF_WORDS) & (index < b->buf_words))) {
        stex__store32(b->buf + index * 4, v);
    } else if ((b->buf_store == (STEX__BUF_WORDS | STEX__TAG_RACE)) & (index < b->buf_words)) {
        stex__race_mark(inv, b, (int64_t)index, 0, 0, STEX__RACE_WRITE, &v);
        stex__store32(b->buf + index * 4, v);
    } else
        stex__buffer_store_word(inv, binding, index, v);
}
STEX__ALWAYS_INLINE void stex__buffer_store(const stex_invocation *inv, uint32_t binding,
                                      uint64_t index, uint32_t v)
{
    stex__buffer_store_b(inv, stex__fast(inv, binding), binding, index, v);
}
STEX__ALWAYS_INLINE uint32_t stex__fast_buffer_load_u32(const stex_invocation *inv, uint32_t binding,
                                            uint64_t index)
{ return stex__buffer_load(inv, binding, index); }
STEX__ALWAYS_INLINE float stex__fast_buffer_load_f32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index)
{ uint32_t w = stex__buffer_load(inv, binding, index); float f; memcpy(&f, &w, 4); return f; }
STEX__ALWAYS_INLINE int32_t stex__fast_buffer_load_i32(const stex_invocation *inv, uint32_t binding,
                                           uint64_t index)
{ return (int32_t)stex__buffer_load(inv, binding, index); }
STEX__ALWAYS_INLINE void stex__fast_buffer_store_u32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index, uint32_t v)
{ stex__buffer_store(inv, binding, index, v); }
STEX__ALWAYS_INLINE void stex__fast_buffer_store_f32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index, float v)
{ uint32_t w; memcpy(&w, &v, 4); stex__buffer_store(inv, binding, index, w); }
STEX__ALWAYS_INLINE void stex__fast_buffer_store_i32(const stex_invocation *inv, uint32_t binding,
                                         uint64_t index, int32_t v)
{ stex__buffer_store(inv, binding, index, (uint32_t)v); }

/* pack4x8unorm and unpack4x8unorm under the profile in force, inline: the
 * same results as convert.h's given stex_invocation_profile(inv). */
STEX__ALWAYS_INLINE uint32_t stex__fast_invocation_pack4x8unorm(const stex_invocation *inv, const float v[4])
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    return stex__unorm8x4(e->pack_u8_round, e->pack_u8_nan, v);
}
STEX__ALWAYS_INLINE void stex__fast_invocation_unpack4x8unorm(const stex_invocation *inv, uint32_t w,
                                                  float out[4])
{
    const float *t = ((const stex_exec_fast *)(const void *)inv->exec)->unpack_u8;
    out[0] = t[w & 0xff], out[1] = t[(w >> 8) & 0xff], out[2] = t[(w >> 16) & 0xff],
    out[3] = t[w >> 24];
}

/* a * k for a constant, non-NaN k, under the profile's arithmetic: the
 * host's multiply where the profile's is IEEE's (with k not a NaN, the
 * operands' order cannot change which NaN comes out), the math layer's
 * otherwise (nvidia flushes subnormals and canonicalises NaN). */
STEX__ALWAYS_INLINE float stex__mul_f32_const(const stex_invocation *inv, float a, float k)
{
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    return STEX__LIKELY(e->f32_ieee) ? a * k : stex_math_mul_f32(e->profile, a, k);
}

/* The public names resolve to the inline versions inside stex. */
#define stex_textureStore_1d(...) stex__fast_textureStore_1d(__VA_ARGS__)
#define stex_textureStore_2d(...) stex__fast_textureStore_2d(__VA_ARGS__)
#define stex_textureStore_2d_array(...) stex__fast_textureStore_2d_array(__VA_ARGS__)
#define stex_textureStore_3d(...) stex__fast_textureStore_3d(__VA_ARGS__)
#define stex_textureLoad_1d(...) stex__fast_textureLoad_1d(__VA_ARGS__)
#define stex_textureLoad_2d(...) stex__fast_textureLoad_2d(__VA_ARGS__)
#define stex_textureLoad_2d_array(...) stex__fast_textureLoad_2d_array(__VA_ARGS__)
#define stex_textureLoad_3d(...) stex__fast_textureLoad_3d(__VA_ARGS__)
#define stex_textureDimensions_2d(...) stex__fast_textureDimensions_2d(__VA_ARGS__)
#define stex_textureLoad_level_2d(...) stex__fast_textureLoad_level_2d(__VA_ARGS__)
#define stex_buffer_load_u32(...) stex__fast_buffer_load_u32(__VA_ARGS__)
#define stex_buffer_load_f32(...) stex__fast_buffer_load_f32(__VA_ARGS__)
#define stex_buffer_load_i32(...) stex__fast_buffer_load_i32(__VA_ARGS__)
#define stex_buffer_store_u32(...) stex__fast_buffer_store_u32(__VA_ARGS__)
#define stex_buffer_store_f32(...) stex__fast_buffer_store_f32(__VA_ARGS__)
#define stex_buffer_store_i32(...) stex__fast_buffer_store_i32(__VA_ARGS__)
#define stex_invocation_pack4x8unorm(...) stex__fast_invocation_pack4x8unorm(__VA_ARGS__)
#define stex_invocation_unpack4x8unorm(...) stex__fast_invocation_unpack4x8unorm(__VA_ARGS__)

#endif
