/* Lowering of the builtins on sampled textures of every kind (texture_1d/
 * 2d/2d_array/3d/cube/cube_array<T>, texture_multisampled_2d<T>, the depth
 * textures): textureLoad, textureDimensions, textureNumLayers,
 * textureNumLevels, textureNumSamples, each checked against WGSL's
 * overloads ("Texture Built-in Functions"). */
#include "wgsl/lower.h"

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
    uint32_t need = 3 + arr;
    if (!nargs_in(x, e, "textureLoad", tn, need, need))
        return wg_error_val();
    uint32_t c, layer = WG_NONE_REG, ls;
    bool sc, sl = false, ss;
    if (!int_arg(x, e, 1, a[1], coord_count(t->dim), "the coordinates", &c, &sc) ||
        (arr && !int_arg(x, e, 2, a[2], 1, "the array index", &layer, &sl)) ||
        !int_arg(x, e, 2 + arr, a[2 + arr], 1, ms ? "the sample index" : "the level", &ls, &ss))
        return wg_error_val();
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
    bool fits = q == WG_QUERY_DIMS || (q == WG_QUERY_LAYERS && arrayed(t->dim)) ||
                (q == WG_QUERY_LEVELS && !ms) || (q == WG_QUERY_SAMPLES && ms);
    if (!fits) {
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s has no overload for %s", name, tn);
        return wg_error_val();
    }
    uint32_t level = WG_NONE_REG;
    bool sl = false;
    if (!nargs_in(x, e, name, tn, 1, q == WG_QUERY_DIMS && !ms ? 2 : 1) ||
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
