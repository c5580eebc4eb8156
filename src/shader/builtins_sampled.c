/* WGSL builtins on sampled textures of every kind - texture_1d/2d/2d_array/
 * 3d<T>, texture_multisampled_2d<T>, the depth textures: textureLoad with a
 * level or a sample index, textureDimensions with a level,
 * textureNumLevels and textureNumSamples.  Sampled textures are read-only
 * in a dispatch: no race, no visibility mode applies. */
#include <string.h>

#include "shader/describe.h"
#include "shader/exec.h"

/* splitmix64 finaliser: the RANDOM_TEXEL choice depends only on seed and coordinates. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const exec_binding *sampled_texture(const stex_invocation *inv, uint32_t binding,
                                          const char *fn, stex_view_dimension dim)
{
    const exec_binding *b = exec_binding_at(inv->exec, binding);
    if (b->type == STEX_BINDING_TEXTURE && (dim == STEX_VIEW_DIMENSION_UNDEFINED || b->dim == dim))
        return b;
    char what[96];
    exec_describe_binding(b, what, sizeof what);
    exec_shader_error(inv, "%s(texture_%s) on %s, which is %s: no overload for that type", fn,
                      dim ? stex_view_dimension_wgsl_name(dim) : "*", EXEC_REF(binding), what);
    return NULL;
}

/* WGSL: an out-of-bounds textureLoad returns some texel in bounds, or
 * (0, 0, 0, 0) / (0, 0, 0, 1) (0.0 for depth): the dispatch's policy. */
static stex_value oob_load(const stex_invocation *inv, const exec_binding *b, uint32_t binding,
                           int64_t x, int64_t y, int64_t z, int64_t ls)
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
    case STEX_OOB_LOAD_RANDOM_TEXEL: { /* a texel of the view's first level, first sample */
        uint64_t h = mix64(e->ctx->opt.seed ^ mix64(binding + 0x9e3779b97f4a7c15ull));
        h = mix64(h ^ (uint64_t)x);
        h = mix64(h ^ (uint64_t)y);
        h = mix64(h ^ (uint64_t)z);
        h = mix64(h ^ (uint64_t)ls);
        uint64_t n = b->f.w * b->f.h * b->f.d, t = h % n;
        stex_view_fetch(b->view, e->fast.profile, (int64_t)(t % b->f.w),
                        (int64_t)(t / b->f.w % b->f.h), (int64_t)(t / (b->f.w * b->f.h)), 0, 0,
                        &r.v);
        return r;
    }
    default:
        return r;
    }
}

stex_value stex_textureLoad_sampled(const stex_invocation *inv, uint32_t binding,
                                    stex_view_dimension dim, int64_t x, int64_t y, int64_t z,
                                    int64_t level_or_sample)
{
    stex_value r = {STEX_SCALAR_F32, {.u = {0, 0, 0, 0}}};
    const exec_binding *b = sampled_texture(inv, binding, "textureLoad", dim);
    if (!b)
        return r;
    r.type = b->f.scalar;
    bool ms = stex_view_num_samples(b->view) > 1;
    int64_t level = ms ? 0 : level_or_sample, sample = ms ? level_or_sample : 0;
    if (dim == STEX_VIEW_DIMENSION_1D)
        y = 0;
    if (dim != STEX_VIEW_DIMENSION_2D_ARRAY && dim != STEX_VIEW_DIMENSION_3D)
        z = 0;
    if (!stex_view_fetch(b->view, inv->exec->fast.profile, x, y, z, level, sample, &r.v))
        return oob_load(inv, b, binding, x, y, z, level_or_sample);
    return r;
}

stex_uvec3 stex_textureDimensions_level(const stex_invocation *inv, uint32_t binding,
                                        int64_t level)
{
    stex_uvec3 r = {0, 0, 0};
    const exec_binding *b = sampled_texture(inv, binding, "textureDimensions",
                                            STEX_VIEW_DIMENSION_UNDEFINED);
    stex_extent3d e;
    if (b && level >= 0 && level <= UINT32_MAX &&
        stex_view_level_dimensions(b->view, (uint32_t)level, &e)) {
        r.x = e.width;
        r.y = e.height;
        r.z = e.depth_or_array_layers;
    }
    return r;
}

uint32_t stex_textureNumLevels(const stex_invocation *inv, uint32_t binding)
{
    const exec_binding *b = sampled_texture(inv, binding, "textureNumLevels",
                                            STEX_VIEW_DIMENSION_UNDEFINED);
    return b ? stex_view_num_levels(b->view) : 0;
}

static const char *sample_fn_name(stex_sample_fn f)
{
    static const char *const names[] = {"textureSampleLevel", "textureSampleGrad",
                                        "textureSampleCompareLevel", "textureGather",
                                        "textureGatherCompare", "textureSampleBaseClampToEdge"};
    return (unsigned)f <= STEX_SAMPLE_BASE_CLAMP_TO_EDGE ? names[f] : "textureSample?";
}

stex_vec4 stex_textureSample(const stex_invocation *inv, uint32_t texture_binding,
                             uint32_t sampler_binding, const stex_sample_args *a)
{
    stex_vec4 r = {.u = {0, 0, 0, 0}};
    const char *fn = sample_fn_name(a->fn);
    const exec_binding *b = sampled_texture(inv, texture_binding, fn, STEX_VIEW_DIMENSION_UNDEFINED);
    if (!b)
        return r;
    const exec_binding *s = exec_binding_at(inv->exec, sampler_binding);
    bool want_cmp = a->fn == STEX_SAMPLE_COMPARE_LEVEL || a->fn == STEX_SAMPLE_GATHER_COMPARE;
    if (s->type != STEX_BINDING_SAMPLER ||
        (stex_sampler_get_desc(s->sampler)->compare != STEX_COMPARE_UNDEFINED) != want_cmp) {
        char what[96];
        exec_describe_binding(s, what, sizeof what);
        exec_shader_error(inv, "%s: %s is %s, WGSL requires a %s", fn, EXEC_REF(sampler_binding),
                          what, want_cmp ? "sampler_comparison" : "sampler");
        return r;
    }
    stex_view_sample(b->view, s->sampler, inv->exec->fast.profile, a, &r);
    return r;
}

uint32_t stex_textureNumSamples(const stex_invocation *inv, uint32_t binding)
{
    const exec_binding *b = sampled_texture(inv, binding, "textureNumSamples",
                                            STEX_VIEW_DIMENSION_2D);
    return b ? stex_view_num_samples(b->view) : 0;
}
