/* Lowering of the builtins on sampled textures of every kind (texture_1d/
 * 2d/2d_array/3d/cube/cube_array<T>, texture_multisampled_2d<T>, the depth
 * textures): textureLoad, textureDimensions, textureNumLayers,
 * textureNumLevels, textureNumSamples and the sampling builtins, each
 * checked against WGSL's overloads ("Texture Built-in Functions"). */
#include "wgsl/lower.h"

#include <stdio.h>
#include <string.h>

static wg_val reg_of(int type, uint32_t reg) { return (wg_val){.kind = V_REG, .type = type, .reg = reg}; }

static bool nargs_in(wg_ctx *x, const wg_expr *e, const char *name, const char *tname,
                     uint32_t lo, uint32_t hi)
{
    if (e->nargs >= lo && e->nargs <= hi)
        return true;
    if (lo == hi)
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s on %s takes %u arguments, not %u",
               name, tname, lo, e->nargs);
    else
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s on %s takes %u or %u arguments, "
               "not %u", name, tname, lo, hi, e->nargs);
    return false;
}

/* Argument i as an i32/u32 scalar (n = 1) or vector of n: its register. */
static bool int_arg(wg_ctx *x, const wg_expr *e, uint32_t i, wg_val v, uint32_t n,
                    const char *what, uint32_t *reg, bool *is_signed)
{
    v = wg_load(x, v, e->args[i]->loc);
    if (v.kind == V_CONST)
        v = wg_convert(x, v, wg_type_concrete(x->types, v.type), e->args[i]->loc, what);
    if (v.kind == V_ERROR)
        return false;
    if (!wg_type_is_integer(x->types, v.type) || wg_type_lanes(x->types, v.type) != n) {
        WG_ERR(x, e->args[i]->loc, "texture-builtin-functions", "%s must be %s i32 or u32, "
               "not %s", what, n == 1 ? "a scalar" : n == 2 ? "a vec2 of" : "a vec3 of",
               wg_tname(x, v.type));
        return false;
    }
    *is_signed = x->types->t[wg_type_scalar(x->types, v.type)].kind == TY_I32;
    *reg = wg_to_reg(x, v, e->args[i]->loc);
    return true;
}

static bool arrayed(stex_view_dimension d)
{
    return d == STEX_VIEW_DIMENSION_2D_ARRAY || d == STEX_VIEW_DIMENSION_CUBE_ARRAY;
}

static bool cube(stex_view_dimension d)
{
    return d == STEX_VIEW_DIMENSION_CUBE || d == STEX_VIEW_DIMENSION_CUBE_ARRAY;
}

static uint32_t coord_count(stex_view_dimension d)
{
    return d == STEX_VIEW_DIMENSION_1D ? 1 : d == STEX_VIEW_DIMENSION_3D ? 3 : 2;
}

static wg_val load(wg_ctx *x, const wg_expr *e, const wg_type *t, uint32_t binding, wg_val *a)
{
    const char *tn = wg_tname(x, a[0].type);
    bool ms = t->n & WG_TEX_MULTISAMPLED, arr = arrayed(t->dim);
    if (cube(t->dim)) {
        WG_ERR(x, e->loc, "texture-builtin-functions", "textureLoad has no overload for %s "
               "(cube textures are read with the sampling functions)", tn);
        return wg_error_val();
    }
    bool ext = t->n & WG_TEX_EXTERNAL; /* textureLoad(t, coords): no level */
    uint32_t need = ext ? 2 : 3 + arr;
    if (!nargs_in(x, e, "textureLoad", tn, need, need))
        return wg_error_val();
    uint32_t c, layer = WG_NONE_REG, ls = 0;
    bool sc, sl = false, ss = false;
    if (!int_arg(x, e, 1, a[1], coord_count(t->dim), "the coordinates", &c, &sc) ||
        (arr && !int_arg(x, e, 2, a[2], 1, "the array index", &layer, &sl)) ||
        (!ext &&
         !int_arg(x, e, 2 + arr, a[2 + arr], 1, ms ? "the sample index" : "the level", &ls, &ss)))
        return wg_error_val();
    if (ext)
        ls = wg_const_reg(x, &(wg_cword){.u = 0}, T_U32);
    uint32_t d = wg_reg_alloc(x, 4);
    wg_ins *i = wg_emit(x, OP_TEX_FETCH);
    wg_ins_at(i, e->loc.line, e->loc.col);
    i->d = d, i->imm = binding, i->a = c, i->b = layer, i->c = ls, i->sub = (uint8_t)t->dim;
    /* one sign flag for the array index and the level: a negative i32 and a
     * u32 of 2^31 or more are both out of bounds */
    i->n = (uint16_t)(sc | ((arr ? sl : ss) << 1));
    if (t->n & WG_TEX_DEPTH)
        return reg_of(T_F32, d);
    return reg_of(wg_type_vec(x->types, t->elem, 4), d);
}

static wg_val query(wg_ctx *x, const wg_expr *e, const wg_type *t, uint32_t binding,
                    const char *name, wg_val *a)
{
    const char *tn = wg_tname(x, a[0].type);
    bool ms = t->n & WG_TEX_MULTISAMPLED;
    uint32_t q = !strcmp(name, "textureDimensions") ? WG_QUERY_DIMS
               : !strcmp(name, "textureNumLayers") ? WG_QUERY_LAYERS
               : !strcmp(name, "textureNumLevels") ? WG_QUERY_LEVELS : WG_QUERY_SAMPLES;
    bool ext = t->n & WG_TEX_EXTERNAL; /* textureDimensions(t) only */
    bool fits = q == WG_QUERY_DIMS || (!ext && q == WG_QUERY_LAYERS && arrayed(t->dim)) ||
                (!ext && q == WG_QUERY_LEVELS && !ms) || (q == WG_QUERY_SAMPLES && ms);
    if (!fits) {
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s has no overload for %s", name, tn);
        return wg_error_val();
    }
    uint32_t level = WG_NONE_REG;
    bool sl = false;
    if (!nargs_in(x, e, name, tn, 1, q == WG_QUERY_DIMS && !ms && !ext ? 2 : 1) ||
        (e->nargs == 2 && !int_arg(x, e, 1, a[1], 1, "the level", &level, &sl)))
        return wg_error_val();
    uint32_t n = q == WG_QUERY_DIMS ? coord_count(t->dim) : 1;
    uint32_t d = wg_reg_alloc(x, n);
    wg_ins *i = wg_emit(x, OP_TEX_QUERY);
    wg_ins_at(i, e->loc.line, e->loc.col);
    i->d = d, i->imm = binding, i->a = level, i->b = sl, i->n = (uint16_t)n, i->sub = (uint8_t)q;
    i->c = t->dim;
    return reg_of(n == 1 ? T_U32 : wg_type_vec(x->types, T_U32, n), d);
}

bool wg_sampled_texture_call_is(const char *name)
{
    return !strcmp(name, "textureLoad") || !strcmp(name, "textureDimensions") ||
           !strcmp(name, "textureNumLayers") || !strcmp(name, "textureNumLevels") ||
           !strcmp(name, "textureNumSamples");
}

wg_val wg_sampled_texture_call(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    const wg_type *t = wg_ty(x->types, a[0].type);
    uint32_t binding = a[0].ref.binding;
    if (!strcmp(name, "textureLoad"))
        return load(x, e, t, binding, a);
    return query(x, e, t, binding, name, a);
}

/* ---- the sampling builtins ---- */

/* What an overload takes after the coordinates (and array index). */
typedef enum { AFTER_NONE, AFTER_LEVEL, AFTER_BIAS, AFTER_DEPTH_REF, AFTER_GRADS } after_coords;

#define DIM(d) (1u << STEX_VIEW_DIMENSION_##d)
#define DIMS_2D_CUBE (DIM(2D) | DIM(2D_ARRAY) | DIM(CUBE) | DIM(CUBE_ARRAY))
#define DIMS_ALL (DIMS_2D_CUBE | DIM(1D) | DIM(3D))
/* where an overload may end with an offset: 2d, 2d_array and 3d */
#define DIMS_OFFSET (DIM(2D) | DIM(2D_ARRAY) | DIM(3D))

/* WGSL's overload tables ("Texture Built-in Functions"), one row a builtin:
 * the view dimensions of texture_*<f32> and of texture_depth_* it samples. */
static const struct sample_builtin {
    const char *name;
    stex_sample_fn fn;  /* how stex runs it (the fragment-only ones never run) */
    bool fragment_only; /* implicit derivatives: only a fragment shader has them */
    uint16_t sampled;   /* dimensions of texture_*<f32> */
    uint16_t depth;     /* dimensions of texture_depth_* */
    bool any_sampled;   /* texture_*<i32> and <u32> too (textureGather) */
    bool comparison;    /* a sampler_comparison, not a sampler */
    after_coords after;
    bool offset;        /* an optional offset, on DIMS_OFFSET */
} SAMPLE_FNS[] = {
    {"textureSample", STEX_SAMPLE_LEVEL, true, DIMS_ALL, DIMS_2D_CUBE, false, false,
     AFTER_NONE, true},
    {"textureSampleBias", STEX_SAMPLE_LEVEL, true, DIMS_ALL & ~DIM(1D), 0, false, false,
     AFTER_BIAS, true},
    {"textureSampleCompare", STEX_SAMPLE_COMPARE_LEVEL, true, 0, DIMS_2D_CUBE, false, true,
     AFTER_DEPTH_REF, true},
    {"textureSampleLevel", STEX_SAMPLE_LEVEL, false, DIMS_ALL, DIMS_2D_CUBE, false, false,
     AFTER_LEVEL, true},
    {"textureSampleGrad", STEX_SAMPLE_GRAD, false, DIMS_ALL & ~DIM(1D), 0, false, false,
     AFTER_GRADS, true},
    {"textureSampleCompareLevel", STEX_SAMPLE_COMPARE_LEVEL, false, 0, DIMS_2D_CUBE, false, true,
     AFTER_DEPTH_REF, true},
    {"textureGather", STEX_SAMPLE_GATHER, false, DIMS_2D_CUBE, DIMS_2D_CUBE, true, false,
     AFTER_NONE, true},
    {"textureGatherCompare", STEX_SAMPLE_GATHER_COMPARE, false, 0, DIMS_2D_CUBE, false, true,
     AFTER_DEPTH_REF, true},
    /* and texture_external */
    {"textureSampleBaseClampToEdge", STEX_SAMPLE_BASE_CLAMP_TO_EDGE, false, DIM(2D), 0, false,
     false, AFTER_NONE, false},
};

static const struct sample_builtin *sample_builtin(const char *name)
{
    for (size_t k = 0; k < sizeof SAMPLE_FNS / sizeof SAMPLE_FNS[0]; k++)
        if (!strcmp(name, SAMPLE_FNS[k].name))
            return &SAMPLE_FNS[k];
    return NULL;
}

bool wg_sample_call_is(const char *name)
{
    return sample_builtin(name) != NULL;
}

/* Whether builtin b has an overload for texture type t. */
static bool sample_overload(const struct sample_builtin *b, const wg_type *t)
{
    if (t->n & WG_TEX_EXTERNAL)
        return b->fn == STEX_SAMPLE_BASE_CLAMP_TO_EDGE;
    if (t->n & WG_TEX_MULTISAMPLED)
        return false;
    if (t->n & WG_TEX_DEPTH)
        return b->depth >> t->dim & 1;
    return (b->sampled >> t->dim & 1) && (b->any_sampled || t->elem == T_F32);
}

/* Argument i converted to type `type` (f32 or vecN<f32>), in a register. */
static bool float_arg(wg_ctx *x, const wg_expr *e, uint32_t i, wg_val v, int type,
                      const char *what, uint32_t *reg)
{
    v = wg_convert(x, wg_load(x, v, e->args[i]->loc), type, e->args[i]->loc, what);
    if (v.kind == V_ERROR)
        return false;
    *reg = wg_to_reg(x, v, e->args[i]->loc);
    return true;
}

/* A const-expression integer vector or scalar (offset, component): its words. */
static bool const_ints(wg_ctx *x, const wg_expr *e, uint32_t i, wg_val v, uint32_t n,
                       int32_t lo, int32_t hi, const char *what, int32_t *out)
{
    /* an offset is a vector of i32 (abstract integers convert); a component i32 or u32 */
    bool is_u32 = x->types->t[wg_type_scalar(x->types, v.type)].kind == TY_U32;
    if (v.kind != V_CONST || !wg_type_is_integer(x->types, v.type) ||
        wg_type_lanes(x->types, v.type) != n || (n > 1 && is_u32)) {
        WG_ERR(x, e->args[i]->loc, "texture-builtin-functions", "%s must be a const-expression "
               "%s", what, n == 1 ? "i32 or u32" : n == 2 ? "vec2<i32>" : "vec3<i32>");
        return false;
    }
    int target = n == 1 ? T_I32 : wg_type_vec(x->types, T_I32, n);
    v = wg_convert(x, v, wg_type_is_abstract(x->types, v.type) ? target : v.type,
                   e->args[i]->loc, what);
    if (v.kind != V_CONST)
        return false;
    for (uint32_t k = 0; k < n; k++) {
        int32_t c = (int32_t)v.c[k].u;
        if (c < lo || c > hi) {
            WG_ERR(x, e->args[i]->loc, "texture-builtin-functions", "%s must lie in [%d, %d], "
                   "not %d", what, lo, hi, c);
            return false;
        }
        out[k] = c;
    }
    return true;
}

wg_val wg_sample_call(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    const struct sample_builtin *b = sample_builtin(name);
    if (b->fragment_only && !x->stage_free) {
        char msg[200];
        snprintf(msg, sizeof msg, "%s computes derivatives and may only be called from a "
                 "fragment shader; other stages use textureSampleLevel or "
                 "textureSampleGrad", name);
        wg_stage_error(x, e->loc, "texture-builtin-functions", name, msg);
        return wg_error_val();
    }
    stex_sample_fn fn = b->fn;
    uint32_t ti = 0, p[WG_SP_COUNT];
    int32_t comp = 0;
    /* textureGather(component, t, s, ...) on a non-depth texture */
    if (fn == STEX_SAMPLE_GATHER && e->nargs && a[0].kind != V_HANDLE) {
        if (!const_ints(x, e, 0, a[0], 1, 0, 3, "the component", &comp))
            return wg_error_val();
        ti = 1;
    }
    if (e->nargs < ti + 3 || a[ti].kind != V_HANDLE ||
        wg_ty(x->types, a[ti].type)->kind != TY_TEXTURE) {
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s takes %sa sampled texture, a "
               "sampler and coordinates", name, ti ? "the component, " : "");
        return wg_error_val();
    }
    const wg_type *t = wg_ty(x->types, a[ti].type);
    const char *tn = wg_tname(x, a[ti].type);
    bool depth = t->n & WG_TEX_DEPTH, arr = arrayed(t->dim);
    stex_view_dimension d = t->dim;
    /* a depth texture is gathered without a component, any other with one */
    if (!sample_overload(b, t) || (fn == STEX_SAMPLE_GATHER && depth == (ti != 0))) {
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s has no overload for %s%s", name, tn,
               fn == STEX_SAMPLE_GATHER && depth && ti ? " with a component" : "");
        return wg_error_val();
    }
    const wg_val *sv = &a[ti + 1];
    if (sv->kind != V_HANDLE || wg_ty(x->types, sv->type)->kind != TY_SAMPLER ||
        (wg_ty(x->types, sv->type)->n != 0) != b->comparison) {
        WG_ERR(x, e->args[ti + 1]->loc, "texture-builtin-functions", "argument %u of %s must be "
               "a %s", ti + 2, name, b->comparison ? "sampler_comparison" : "sampler");
        return wg_error_val();
    }
    uint32_t nc = cube(d) ? 3 : coord_count(d), i = ti + 2; /* a cube: a direction */
    bool offset_ok = b->offset && (DIMS_OFFSET >> d & 1);
    uint32_t fixed = i + 1 + arr + (b->after == AFTER_GRADS ? 2 : b->after != AFTER_NONE);
    if (!nargs_in(x, e, name, tn, fixed, fixed + offset_ok))
        return wg_error_val();
    for (uint32_t k = 0; k < WG_SP_COUNT; k++)
        p[k] = WG_NONE_REG;
    p[WG_SP_FN] = (uint32_t)fn;
    p[WG_SP_COMPONENT] = (uint32_t)comp;
    p[WG_SP_NCOORDS] = nc;
    p[WG_SP_ARRAY_SIGNED] = 0;
    p[WG_SP_LEVEL_KIND] = 0;
    uint32_t creg;
    int vf = nc == 1 ? T_F32 : wg_type_vec(x->types, T_F32, nc);
    if (!float_arg(x, e, i, a[i], vf, "the coordinates", &creg))
        return wg_error_val();
    i++;
    if (arr) {
        bool sg;
        if (!int_arg(x, e, i, a[i], 1, "the array index", &p[WG_SP_ARRAY], &sg))
            return wg_error_val();
        p[WG_SP_ARRAY_SIGNED] = sg;
        i++;
    }
    uint32_t bias;
    bool sg = false;
    switch (b->after) {
    case AFTER_LEVEL: /* a depth texture's level is an integer */
        if (depth ? !int_arg(x, e, i, a[i], 1, "the level", &p[WG_SP_LEVEL], &sg)
                  : !float_arg(x, e, i, a[i], T_F32, "the level", &p[WG_SP_LEVEL]))
            return wg_error_val();
        p[WG_SP_LEVEL_KIND] = depth ? (sg ? 1 : 2) : 0;
        i++;
        break;
    case AFTER_BIAS:
        if (!float_arg(x, e, i, a[i], T_F32, "the bias", &bias))
            return wg_error_val();
        i++;
        break;
    case AFTER_DEPTH_REF:
        if (!float_arg(x, e, i, a[i], T_F32, "depth_ref", &p[WG_SP_DREF]))
            return wg_error_val();
        i++;
        break;
    case AFTER_GRADS:
        if (!float_arg(x, e, i, a[i], vf, "ddx", &p[WG_SP_DDX]) ||
            !float_arg(x, e, i + 1, a[i + 1], vf, "ddy", &p[WG_SP_DDY]))
            return wg_error_val();
        i += 2;
        break;
    case AFTER_NONE:
        break;
    }
    int32_t off[3] = {0, 0, 0};
    if (i < e->nargs && !const_ints(x, e, i, a[i], nc, -8, 7, "the offset", off))
        return wg_error_val();
    bool scalar = depth && fn != STEX_SAMPLE_GATHER && fn != STEX_SAMPLE_GATHER_COMPARE;
    int result = scalar ? T_F32
               : wg_type_vec(x->types, fn == STEX_SAMPLE_GATHER ? t->elem : T_F32, 4);
    if (b->fragment_only) /* a fragment shader's call: checked, never run */
        return wg_zero_reg(x, result);
    for (int k = 0; k < 3; k++)
        p[WG_SP_OFF0 + k] = (uint32_t)off[k];
    uint32_t dreg = wg_reg_alloc(x, 4);
    wg_ins *in = wg_emit(x, OP_TEX_SAMPLE_ANY);
    wg_ins_at(in, e->loc.line, e->loc.col);
    in->d = dreg, in->a = creg, in->imm = a[ti].ref.binding, in->e = sv->ref.binding;
    in->offs = wg_pool_add(x, p, WG_SP_COUNT);
    return reg_of(result, dreg);
}
