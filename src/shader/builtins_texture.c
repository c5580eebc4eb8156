/* WGSL texture builtins on storage and sampled textures, out-of-line part:
 * textureStore / textureLoad calls the inline fast path of shader.h did not
 * take (wrong type or binding: a shader error; out of bounds; race detection;
 * snapshot visibility), textureDimensions, textureNumLayers,
 * textureSampleLevel. */
#include <string.h>

#include "race/race_internal.h"
#include "resource/sample_codec.h"
#include "shader/describe.h"
#include "shader/exec.h"

/* Callers check the bounds first.  The same address the inline path computes. */
static inline uint8_t *texel_ptr(const exec_binding *b, int64_t x, int64_t y, int64_t z)
{
    return b->acc.memory + (uint64_t)z * b->acc.layout.slice_bytes + b->f.col[x] + b->f.row[y];
}

static inline bool in_bounds(const exec_binding *b, int64_t x, int64_t y, int64_t z)
{
    return ((uint64_t)x < b->f.w) & ((uint64_t)y < b->f.h) & ((uint64_t)z < b->f.d);
}

static const exec_binding *binding_at(const stex_invocation *inv, uint32_t binding)
{
    return exec_binding_at(inv->exec, binding);
}

/* designated: fields added to stex_fast_binding start zeroed */
const stex_fast_binding stex__no_binding = {.load_tag = EXEC_TAG_NONE,
                                             .store_tag = EXEC_TAG_NONE,
                                             .dims_tag = EXEC_TAG_NONE,
                                             .site_load_tag = EXEC_TAG_NONE,
                                             .site_store_tag = EXEC_TAG_NONE,
                                             .scalar = STEX_SCALAR_F32}; /* the rest 0 */

static stex_value zero_of(stex_scalar_type t)
{
    stex_value r = {t, {.u = {0, 0, 0, 0}}};
    return r;
}

/* The inline decoders' call for every other format (shader/fast.h). */
STEX__COLD stex_vec4 stex__decode_call(const stex_profile *prof, const stex_fast_binding *b,
                            const uint8_t *p)
{
    stex_vec4 r;
    memset(&r, 0, sizeof r);
    b->dec(prof, p, &r);
    return r;
}

/* ---- textureStore ---- */

/* The inline path's out-of-line half of a race summary update. */
STEX__COLD void stex__race_note(const stex_invocation *inv, const stex_fast_binding *f, uint64_t word,
                     uint32_t key, uint32_t bit, const void *value)
{
    const struct stex_exec *e = inv->exec;
    const exec_binding *b = &e->b[f->slot];
    race_note(b->shadow, e->fast.race_tid, word, key,
              bit == STEX__RACE_WRITE ? STEX_RACE_ACCESS_WRITE : STEX_RACE_ACCESS_READ, value,
              value ? f->race_bpp : 0);
}

/* Built field by field in the return slot: a vec4 assembled on the stack
 * and copied costs a store-forwarding stall per call. */
static inline stex_value raw32_value(const stex_fast_binding *f, uint32_t u)
{
    stex_value r;
    r.type = f->scalar;
    r.v.u[0] = u;
    r.v.u[1] = 0;
    r.v.u[2] = 0;
    r.v.u[3] = f->alpha_one;
    return r;
}

STEX__COLD void stex__texture_store(const stex_invocation *inv, uint32_t binding, stex_view_dimension dim,
                         int64_t x, int64_t y, int64_t z, const stex_value *v)
{
    struct stex_exec *e = inv->exec;
    const exec_binding *b = binding_at(inv, binding);
    char what[96];
    if (b->type != STEX_BINDING_STORAGE_TEXTURE || b->dim != dim || b->access == STEX_ACCESS_READ_ONLY
        || v->type != b->f.scalar)
        exec_describe_binding(b, what, sizeof what);
    if (b->type != STEX_BINDING_STORAGE_TEXTURE || b->dim != dim) {
        exec_shader_error(inv, "textureStore(texture_storage_%s) on %s, which is %s: "
                          "WGSL has no textureStore overload for that type",
                          stex_view_dimension_wgsl_name(dim), EXEC_REF(binding), what);
        return;
    }
    if (b->access == STEX_ACCESS_READ_ONLY) {
        exec_shader_error(inv, "textureStore on %s %s: WGSL allows textureStore only "
                          "on storage textures with access write or read_write", EXEC_REF(binding), what);
        return;
    }
    if (v->type != b->f.scalar) {
        exec_shader_error(inv, "textureStore on %s %s with a vec4<%s> value: WGSL "
                          "requires vec4<%s>, the texel type of format %s (no implicit conversion)",
                          EXEC_REF(binding), what, exec_scalar_name(v->type), exec_scalar_name(b->f.scalar),
                          stex_format_name(b->format));
        return;
    }
    if (!in_bounds(b, x, y, z) || e->dead)
        return; /* WGSL: an out-of-bounds textureStore is discarded */
    if (e->ctx->opt.store_observer) /* set: the dispatch runs every store through here */
        e->ctx->opt.store_observer(e->ctx->opt.store_observer_user, b->view, x, y, z, &v->v);
    uint8_t *p = texel_ptr(b, x, y, z);
    uint8_t bytes[16];
    if (exec_fast_binding(e, stex__slot(&e->fast.slots, binding))->raw32)
        memcpy(bytes, &v->v.u[0], 4);
    else
        b->f.enc(e->fast.profile, &v->v, bytes);
    if (b->shadow) {
        uint64_t loc = race_texel_loc(b->shadow, exec_layer0(b), x, y, z);
        if (race_summary(b->shadow))
            race_note(b->shadow, e->fast.race_tid, loc, e->race_key + inv->local_invocation_index,
                      STEX_RACE_ACCESS_WRITE, bytes, b->bpp);
        else
            race_access(e->race, b->shadow, loc, inv->local_invocation_index,
                        STEX_RACE_ACCESS_WRITE, bytes, b->bpp);
    }
    memcpy(p, bytes, b->bpp);
    if (e->overlay)
        exec_wrote(e, p, bytes, b->bpp);
}

/* ---- textureLoad ---- */

/* splitmix64 finaliser: the RANDOM_TEXEL choice depends only on seed and coordinates. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static stex_value oob_load(const stex_invocation *inv, const exec_binding *b, uint32_t binding,
                           int64_t x, int64_t y, int64_t z)
{
    struct stex_exec *e = inv->exec;
    stex_value r = {b->f.scalar, b->zero_value};
    switch (e->ctx->opt.oob_load) {
    case STEX_OOB_LOAD_ZERO_ALPHA_ONE:
        r.v.u[0] = r.v.u[1] = r.v.u[2] = 0;
        if (b->f.scalar == STEX_SCALAR_F32)
            r.v.f[3] = 1.0f;
        else
            r.v.u[3] = 1;
        return r;
    case STEX_OOB_LOAD_RANDOM_TEXEL: {
        uint64_t h = mix64(e->ctx->opt.seed ^ mix64(binding + 0x9e3779b97f4a7c15ull));
        h = mix64(h ^ (uint64_t)x);
        h = mix64(h ^ (uint64_t)y);
        h = mix64(h ^ (uint64_t)z);
        uint64_t n = b->f.w * b->f.h * b->f.d, t = h % n;
        const uint8_t *p = texel_ptr(b, (int64_t)(t % b->f.w), (int64_t)(t / b->f.w % b->f.h),
                                     (int64_t)(t / (b->f.w * b->f.h)));
        uint8_t tmp[16];
        b->f.dec(e->fast.profile, exec_visible(e, b, p, b->bpp, tmp), &r.v);
        return r;
    }
    default:
        return r;
    }
}

STEX__COLD stex_value stex__texture_load(const stex_invocation *inv, uint32_t binding,
                              stex_view_dimension dim, int64_t x, int64_t y, int64_t z)
{
    struct stex_exec *e = inv->exec;
    const exec_binding *b = binding_at(inv, binding);
    char what[96];
    if (b->type != STEX_BINDING_STORAGE_TEXTURE || b->dim != dim
        || (b->access != STEX_ACCESS_READ_ONLY && b->access != STEX_ACCESS_READ_WRITE))
        exec_describe_binding(b, what, sizeof what);
    if (b->type != STEX_BINDING_STORAGE_TEXTURE || b->dim != dim) {
        exec_shader_error(inv, "textureLoad(texture_storage_%s) on %s, which is %s: "
                          "WGSL has no textureLoad overload for that type",
                          stex_view_dimension_wgsl_name(dim), EXEC_REF(binding), what);
        return zero_of(STEX_SCALAR_F32);
    }
    if (b->access != STEX_ACCESS_READ_ONLY && b->access != STEX_ACCESS_READ_WRITE) {
        exec_shader_error(inv, "textureLoad on %s %s: WGSL has no textureLoad for "
                          "write-only storage textures (access must be read or read_write)",
                          EXEC_REF(binding), what);
        return zero_of(b->f.scalar);
    }
    if (!in_bounds(b, x, y, z))
        return oob_load(inv, b, binding, x, y, z);
    const uint8_t *p = texel_ptr(b, x, y, z);
    if (b->shadow) {
        uint64_t loc = race_texel_loc(b->shadow, exec_layer0(b), x, y, z);
        if (race_summary(b->shadow))
            race_note(b->shadow, e->fast.race_tid, loc, e->race_key + inv->local_invocation_index,
                      STEX_RACE_ACCESS_READ, NULL, 0);
        else
            race_access(e->race, b->shadow, loc, inv->local_invocation_index,
                        STEX_RACE_ACCESS_READ, NULL, 0);
    }
    uint8_t tmp[16];
    if (b->snap_base)
        p = exec_visible(e, b, p, b->bpp, tmp);
    const stex_fast_binding *f = exec_fast_binding(e, stex__slot(&e->fast.slots, binding));
    if (f->raw32) { /* the same bit copy the inline path makes */
        uint32_t u;
        memcpy(&u, p, 4);
        return raw32_value(f, u);
    }
    stex_value r = {b->f.scalar, {.u = {0, 0, 0, 0}}};
    b->f.dec(e->fast.profile, p, &r.v);
    return r;
}

/* ---- textureDimensions / textureNumLayers ---- */

static const exec_binding *dims_binding(const stex_invocation *inv, uint32_t binding,
                                        const char *fn, stex_view_dimension a, stex_view_dimension b2)
{
    const exec_binding *b = binding_at(inv, binding);
    if (b->type != 0 && (b->f.dims_tag == (uint32_t)a || b->f.dims_tag == (uint32_t)b2))
        return b;
    char what[96];
    exec_describe_binding(b, what, sizeof what);
    exec_shader_error(inv, "%s on %s, which is %s: WGSL has no %s overload returning "
                      "that type for it", fn, EXEC_REF(binding), what, fn);
    return NULL;
}

uint32_t stex_textureDimensions_1d(const stex_invocation *inv, uint32_t binding)
{
    const exec_binding *b = dims_binding(inv, binding, "textureDimensions (u32)",
                                         STEX_VIEW_DIMENSION_1D, STEX_VIEW_DIMENSION_1D);
    return b ? (uint32_t)b->f.w : 0;
}

STEX__COLD stex_uvec2 stex__texture_dimensions_2d(const stex_invocation *inv, uint32_t binding)
{
    const exec_binding *b = dims_binding(inv, binding, "textureDimensions (vec2<u32>)",
                                         STEX_VIEW_DIMENSION_2D, STEX_VIEW_DIMENSION_2D_ARRAY);
    stex_uvec2 r = {b ? (uint32_t)b->f.w : 0, b ? (uint32_t)b->f.h : 0};
    return r;
}

stex_uvec3 stex_textureDimensions_3d(const stex_invocation *inv, uint32_t binding)
{
    const exec_binding *b = dims_binding(inv, binding, "textureDimensions (vec3<u32>)",
                                         STEX_VIEW_DIMENSION_3D, STEX_VIEW_DIMENSION_3D);
    stex_uvec3 r = {b ? (uint32_t)b->f.w : 0, b ? (uint32_t)b->f.h : 0, b ? (uint32_t)b->f.d : 0};
    return r;
}

uint32_t stex_textureNumLayers(const stex_invocation *inv, uint32_t binding)
{
    const exec_binding *b = dims_binding(inv, binding, "textureNumLayers",
                                         STEX_VIEW_DIMENSION_2D_ARRAY, STEX_VIEW_DIMENSION_CUBE_ARRAY);
    if (!b)
        return 0;
    /* a cube array's layers are cubes of 6 faces */
    return (uint32_t)(b->dim == STEX_VIEW_DIMENSION_CUBE_ARRAY ? b->f.d / 6 : b->f.d);
}

/* ---- sampled textures: texture_2d<f32> ---- */

static const exec_binding *sampled_binding(const stex_invocation *inv, uint32_t binding,
                                           const char *fn)
{
    const exec_binding *b = binding_at(inv, binding);
    if (b->type == STEX_BINDING_TEXTURE && b->dim == STEX_VIEW_DIMENSION_2D)
        return b;
    char what[96];
    exec_describe_binding(b, what, sizeof what);
    exec_shader_error(inv, "%s(texture_2d<f32>) on %s, which is %s: no overload for "
                      "that type", fn, EXEC_REF(binding), what);
    return NULL;
}

/* The out-of-line half of the inline textureLoad(texture_2d) (shader.h). */
STEX__COLD stex_vec4 stex__texture_load_level_2d(const stex_invocation *inv, uint32_t binding, int64_t x,
                                      int64_t y, int64_t level)
{
    stex_vec4 r = {.u = {0, 0, 0, 0}};
    const exec_binding *b = sampled_binding(inv, binding, "textureLoad");
    if (!b)
        return r;
    struct stex_exec *e = inv->exec;
    if (!stex_view_load_level(b->view, e->fast.profile, x, y, 0, level, &r)) {
        /* out of bounds (coordinates or level): the OOB load policy */
        stex_value z = {STEX_SCALAR_F32, {.u = {0, 0, 0, 0}}};
        if (e->ctx->opt.oob_load == STEX_OOB_LOAD_ZERO_ALPHA_ONE)
            z.v.f[3] = 1.0f;
        else if (e->ctx->opt.oob_load == STEX_OOB_LOAD_RANDOM_TEXEL) {
            uint64_t h = mix64(e->ctx->opt.seed ^ mix64((uint64_t)x) ^ mix64((uint64_t)y + 1));
            stex_view_load_level(b->view, e->fast.profile, (int64_t)(h % b->f.w),
                                 (int64_t)((h >> 32) % b->f.h), 0, 0, &z.v);
        }
        r = z.v;
    }
    return r;
}

stex_vec4 stex_textureSampleLevel_2d(const stex_invocation *inv, uint32_t texture_binding,
                                     uint32_t sampler_binding, float u, float v, float level)
{
    stex_vec4 r = {.u = {0, 0, 0, 0}};
    const exec_binding *b = sampled_binding(inv, texture_binding, "textureSampleLevel");
    if (!b)
        return r;
    const exec_binding *s = binding_at(inv, sampler_binding);
    if (s->type != STEX_BINDING_SAMPLER) {
        char what[96];
        exec_describe_binding(s, what, sizeof what);
        exec_shader_error(inv, "textureSampleLevel: %s is %s, WGSL requires a sampler",
                          EXEC_REF(sampler_binding), what);
        return r;
    }
    /* the dispatch's address tables of the view's level 0 (resource/sample_codec.h) */
    stex__sample_level_2d(b->view, s->sampler, inv->exec->fast.profile, u, v, level, b->acc.memory,
                          b->f.col, b->f.row, &r);
    return r;
}

const stex_profile *stex_invocation_profile(const stex_invocation *inv)
{
    return inv->exec->fast.profile;
}
