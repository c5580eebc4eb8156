/* Module scope: declarations in any order (each analysed on first use, a
 * cycle reported), type expressions, resource variables. */
#include "wgsl/lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* (lower.h) pipeline constants sorted by name: module.c sorts, lowering searches */
int wg_override_cmp(const void *a, const void *b)
{
    return strcmp(((const wg_override_value *)a)->name, ((const wg_override_value *)b)->name);
}

static void prepare(wg_ctx *x, wg_global *root);

static wg_global *global_named(wg_ctx *x, const char *name)
{
    int32_t i = wg_ast_find(x->ast, name);
    return i < 0 ? NULL : &x->globals[i];
}

/* matCxR (template <f32> or inferred) or matCxRf: C and R in 2..4; false if not. */
bool wg_mat_name(const char *n, uint32_t *cols, uint32_t *rows, bool *shorthand)
{
    size_t len = strlen(n);
    if ((len != 6 && len != 7) || strncmp(n, "mat", 3) || n[3] < '2' || n[3] > '4' ||
        n[4] != 'x' || n[5] < '2' || n[5] > '4' || (len == 7 && n[6] != 'f' && n[6] != 'h'))
        return false;
    *cols = (uint32_t)(n[3] - '0');
    *rows = (uint32_t)(n[5] - '0');
    *shorthand = len == 7;
    return true;
}

bool wg_names_type(wg_ctx *x, const char *name)
{
    uint32_t c, r;
    bool sh;
    if (wg_mat_name(name, &c, &r, &sh) && !wg_lookup_local(x, name))
        return true;
    static const char *const builtin[] = {"bool", "i32", "u32", "f32", "vec2", "vec3", "vec4",
                                          "array", "vec2i", "vec3i", "vec4i", "vec2u",
                                          "vec3u", "vec4u", "vec2f", "vec3f", "vec4f",
                                          "f16", "vec2h", "vec3h", "vec4h"};
    if (wg_lookup_local(x, name))
        return false;
    wg_global *g = global_named(x, name); /* a module-scope declaration hides a builtin type */
    if (g)
        return g->decl->kind == D_STRUCT || g->decl->kind == D_ALIAS;
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (!strcmp(name, builtin[i]))
            return true;
    return false;
}

/* Whether v, lowered while x->pending_uses and x->var_uses went on from
 * pending and vars, is an override-expression (WGSL 8.x): a constant, or a
 * value computed from overrides whose values the pipeline gives, naming no
 * variable (a run-time value from anything else is not one). */
static bool override_expr(const wg_ctx *x, wg_val v, uint32_t pending, uint32_t vars)
{
    return v.kind == V_CONST ||
           (v.kind == V_REG && x->pending_uses > pending && x->var_uses == vars);
}

/* A constant integer (array counts, @binding, @align) in *out; false after
 * an error.  override_ok: an override-expression is allowed, and while the
 * module is checked one whose value the pipeline supplies counts as 1. */
static bool const_int(wg_ctx *x, const wg_expr *e, const char *what, bool override_ok,
                      int64_t *out)
{
    uint32_t pending = x->pending_uses, vars = x->var_uses, overrides = x->override_uses;
    wg_val v = wg_expr_lower(x, e);
    if (v.kind == V_ERROR)
        return false;
    /* an override with a default folds to a constant here, yet is none */
    if (!override_ok && x->override_uses != overrides) {
        WG_ERR(x, e->loc, "const-expr", "%s must be a const-expression; it names an override",
               what);
        return false;
    }
    if (override_ok && v.kind == V_REG && override_expr(x, v, pending, vars) &&
        wg_type_is_integer(x->types, v.type) && wg_type_is_scalar(x->types, v.type)) {
        *out = 1;
        return true;
    }
    if (v.kind != V_CONST || !wg_type_is_integer(x->types, v.type) ||
        !wg_type_is_scalar(x->types, v.type)) {
        WG_ERR(x, e->loc, "const-expr", "%s must be a constant integer", what);
        return false;
    }
    int k = x->types->t[v.type].kind;
    *out = k == TY_AINT ? v.c[0].i : k == TY_I32 ? (int64_t)(int32_t)v.c[0].u : (int64_t)v.c[0].u;
    return true;
}

bool wg_location(wg_ctx *x, const wg_attr *a, int64_t *out)
{
    if (!const_int(x, a->args[0], "@location", false, out))
        return false;
    if (*out < 0 || *out > INT32_MAX) { /* WGSL 12.3.1.4: an i32 or u32, not negative */
        WG_ERR(x, a->loc, "attribute-location", "@location(%lld) is negative or past i32's "
               "range", (long long)*out);
        return false;
    }
    return true;
}

/* The access mode named s (written at loc), or UNDEFINED. */
static stex_access access_of(wg_ctx *x, const char *s, wg_loc loc)
{
    /* a module-scope declaration named like one hides it (WGSL 5.x: the
     * access modes are predeclared enumerants, not keywords) */
    if (global_named(x, s))
        WG_ERR(x, loc, "access-mode", "'%s' names a module-scope declaration here, not an "
               "access mode", s);
    if (!strcmp(s, "read"))
        return STEX_ACCESS_READ_ONLY;
    if (!strcmp(s, "write"))
        return STEX_ACCESS_WRITE_ONLY;
    if (!strcmp(s, "read_write"))
        return STEX_ACCESS_READ_WRITE;
    return STEX_ACCESS_UNDEFINED;
}

static wg_space space_of(const char *s)
{
    static const char *const names[] = {"", "function", "private", "workgroup", "uniform",
                                        "storage"};
    for (int i = 1; i < 6; i++)
        if (!strcmp(s, names[i]))
            return (wg_space)i;
    return SP_NONE;
}

static int vec_shorthand(const char *n)
{
    /* vec2i, vec3u, vec4f ... */
    if (strlen(n) != 5 || strncmp(n, "vec", 3) || n[3] < '2' || n[3] > '4')
        return -1;
    return n[4] == 'i' ? T_I32 : n[4] == 'u' ? T_U32 : n[4] == 'f' ? T_F32
         : n[4] == 'h' ? T_F16 : -1;
}

static int struct_type(wg_ctx *x, wg_global *g)
{
    const wg_decl *d = g->decl;
    wg_member *m = calloc(d->nparams ? d->nparams : 1, sizeof *m);
    if (!m) {
        x->oom = true;
        return -1;
    }
    for (uint32_t i = 0; i < d->nparams; i++) {
        m[i].name = d->params[i].name;
        m[i].type = wg_resolve_type(x, d->params[i].type);
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(m[j].name, m[i].name))
                WG_ERR(x, d->params[i].loc, "struct-members",
                       "struct %s has two members named '%s'", d->name, m[i].name);
        if (m[i].type < 0) {
            free(m);
            return -1;
        }
        const wg_type *mt = wg_ty(x->types, m[i].type);
        if (!wg_type_plain(x->types, m[i].type)) { /* WGSL 6.2.10: plain member types */
            WG_ERR(x, d->params[i].loc, "struct-types", "struct %s's member '%s' cannot be %s "
                   "(a member is a number, vector, matrix, atomic, array or struct)", d->name,
                   m[i].name, wg_tname(x, m[i].type));
            free(m);
            return -1;
        }
        if (mt->kind == TY_ARRAY && mt->n == 0 && i + 1 != d->nparams)
            WG_ERR(x, d->params[i].loc, "runtime-sized-array",
                   "a runtime-sized array must be the last member of a struct");
        else if (mt->kind != TY_ARRAY && !wg_type_fixed_footprint(x->types, m[i].type))
            WG_ERR(x, d->params[i].loc, "runtime-sized-array", "struct %s's member '%s' is "
                   "a struct ending in a runtime-sized array, which only a variable may hold",
                   d->name, m[i].name);
        if (mt->kind == TY_ARRAY && mt->override_sized) {
            WG_ERR(x, d->params[i].loc, "struct-types", "struct %s's member '%s' is an array "
                   "whose element count is an override-expression, which no struct may hold",
                   d->name, m[i].name);
            free(m);
            return -1;
        }
        /* @align(n): a power of two, a multiple of the type's own alignment (so
         * offsets stay whole words for 32-bit types); @size(n): at least the
         * type's size (WGSL 12.3) */
        const wg_param *pm = &d->params[i];
        const wg_attr *al = wg_find_attr(pm->attrs, pm->nattrs, "align");
        const wg_attr *sz = wg_find_attr(pm->attrs, pm->nattrs, "size");
        int64_t v;
        if (al && al->nargs == 1 && const_int(x, al->args[0], "@align", false, &v)) {
            if (v < 1 || v > (1 << 30) || (v & (v - 1)))
                WG_ERR(x, al->loc, "attribute-align", "@align(%lld) is not a positive power "
                       "of two", (long long)v);
            else if (v < (int64_t)mt->align)
                WG_ERR(x, al->loc, "attribute-align", "@align(%lld) is below %s's alignment %u",
                       (long long)v, wg_tname(x, m[i].type), mt->align);
            else
                m[i].align_attr = (uint32_t)v;
        }
        /* @location(n) (WGSL 12.3.1.4): a non-negative constant, evaluated here
         * even where no entry point's interface uses the struct */
        const wg_attr *lo = wg_find_attr(pm->attrs, pm->nattrs, "location");
        m[i].location = -1;
        if (lo && lo->nargs == 1 && wg_location(x, lo, &v))
            m[i].location = v;
        if (sz && sz->nargs == 1 && const_int(x, sz->args[0], "@size", false, &v)) {
            if (v < (int64_t)mt->size || v > INT32_MAX || (mt->kind == TY_ARRAY && mt->n == 0))
                WG_ERR(x, sz->loc, "attribute-size", "@size(%lld) is smaller than %s's size "
                       "%u (or the member is a runtime-sized array)", (long long)v,
                       wg_tname(x, m[i].type), mt->size);
            else
                m[i].size_attr = (uint32_t)v;
        }
    }
    wg_type t = {.kind = TY_STRUCT, .elem = -1, .name = d->name, .members = m,
                 .nmembers = d->nparams};
    int id = wg_type_intern(x->types, &t);
    if (id < 0) {
        free(m);
        return id;
    }
    if (wg_ty(x->types, id)->too_big) { /* in 64 bits, as array sizes */
        WG_ERR(x, d->loc, "limits", "struct %s is more than 0xffffffff bytes", d->name);
        return -1;
    }
    if (wg_ty(x->types, id)->depth > WG_MAX_TYPE_NESTING) {
        WG_ERR(x, d->loc, "limits", "struct %s nests composite types more than %u levels deep",
               d->name, WG_MAX_TYPE_NESTING);
        return -1;
    }
    return id;
}

/* The sampled texture types (WGSL "Sampled Texture Types", "Multisampled
 * Texture Types", "Depth Texture Types"): name, dimension, kind bits and
 * whether a sampled type <T> follows. */
static const struct {
    const char *name;
    stex_view_dimension dim;
    uint32_t kind;
    bool templated;
} SAMPLED_TEXTURES[] = {
    {"texture_1d", STEX_VIEW_DIMENSION_1D, 0, true},
    {"texture_2d", STEX_VIEW_DIMENSION_2D, 0, true},
    {"texture_2d_array", STEX_VIEW_DIMENSION_2D_ARRAY, 0, true},
    {"texture_3d", STEX_VIEW_DIMENSION_3D, 0, true},
    {"texture_cube", STEX_VIEW_DIMENSION_CUBE, 0, true},
    {"texture_cube_array", STEX_VIEW_DIMENSION_CUBE_ARRAY, 0, true},
    {"texture_multisampled_2d", STEX_VIEW_DIMENSION_2D, WG_TEX_MULTISAMPLED, true},
    {"texture_depth_2d", STEX_VIEW_DIMENSION_2D, WG_TEX_DEPTH, false},
    {"texture_depth_2d_array", STEX_VIEW_DIMENSION_2D_ARRAY, WG_TEX_DEPTH, false},
    {"texture_depth_cube", STEX_VIEW_DIMENSION_CUBE, WG_TEX_DEPTH, false},
    {"texture_depth_cube_array", STEX_VIEW_DIMENSION_CUBE_ARRAY, WG_TEX_DEPTH, false},
    {"texture_depth_multisampled_2d", STEX_VIEW_DIMENSION_2D,
     WG_TEX_DEPTH | WG_TEX_MULTISAMPLED, false},
    {"texture_external", STEX_VIEW_DIMENSION_2D, WG_TEX_EXTERNAL, false},
};

/* The type id of sampled texture type n, -1 after an error, -2 if n names none. */
static const char *buffer_type_problem(const wg_types *ts, int id, wg_space sp, stex_access a);

static int sampled_texture_type(wg_ctx *x, const wg_expr *e, const char *n)
{
    for (size_t k = 0; k < sizeof SAMPLED_TEXTURES / sizeof SAMPLED_TEXTURES[0]; k++) {
        if (strcmp(n, SAMPLED_TEXTURES[k].name))
            continue;
        int el = T_F32;
        if (SAMPLED_TEXTURES[k].templated) {
            el = e->ntargs == 1 ? wg_resolve_type(x, e->targs[0]) : -1;
            if (el != T_F32 && el != T_I32 && el != T_U32) {
                if (el >= 0 || e->ntargs != 1)
                    WG_ERR(x, e->loc, "sampled-texture-type", "%s takes one sampled type: "
                           "%s<f32>, %s<i32> or %s<u32>", n, n, n, n);
                return -1;
            }
        } else if (e->ntargs) {
            WG_ERR(x, e->loc, "texture-depth", "%s takes no template arguments", n);
            return -1;
        }
        return wg_type_intern(x->types, &(wg_type){.kind = TY_TEXTURE, .elem = el,
                                                .dim = SAMPLED_TEXTURES[k].dim,
                                                .n = SAMPLED_TEXTURES[k].kind});
    }
    return -2;
}

bool wg_need_f16(wg_ctx *x, wg_loc loc, const char *what)
{
    if (x->ast->enable_f16)
        return true;
    WG_ERR(x, loc, "enable-extension", "%s needs the f16 extension: write 'enable f16;' at the "
           "top of the module", what);
    return false;
}

/* The type a module-scope struct or alias g declares. */
static int declared_type(wg_ctx *x, const wg_expr *e, wg_global *g)
{
    const char *n = e->name;
    if (e->ntargs)
        WG_ERR(x, e->loc, "type", "'%s' takes no template arguments", n);
    if (g->state == 2)
        return g->type;
    if (g->state == 1) {
        WG_ERR(x, e->loc, "module-scope-cycle", "type '%s' refers to itself", n);
        return -1;
    }
    prepare(x, g);
    if (g->state == 2)
        return g->type;
    g->state = 1;
    g->type = g->decl->kind == D_STRUCT ? struct_type(x, g) : wg_resolve_type(x, g->decl->type);
    g->state = 2;
    return g->type;
}

static int resolve_type(wg_ctx *x, const wg_expr *e);

/* A type is evaluated even in an operand that short-circuits (an array's
 * element count of -1 is an error there too). */
int wg_resolve_type(wg_ctx *x, const wg_expr *e)
{
    bool unevaluated = x->d->unevaluated;
    x->d->unevaluated = false;
    int t = resolve_type(x, e);
    x->d->unevaluated = unevaluated;
    return t;
}

static int resolve_type(wg_ctx *x, const wg_expr *e)
{
    if (!e || !wg_deeper(x, e->loc))
        return -1;
    if (e->kind != E_IDENT) {
        WG_ERR(x, e->loc, "type", "expected a type");
        return -1;
    }
    const char *n = e->name;
    wg_types *ts = x->types;
    /* a module-scope declaration shadows the predeclared names (WGSL 5.x:
     * `struct vec2 { ... }`, `alias array = i32;` are valid) */
    wg_global *g = global_named(x, n);
    if (g && (g->decl->kind == D_STRUCT || g->decl->kind == D_ALIAS))
        return declared_type(x, e, g);
    if (g) { /* `var<private> f16: i32;` hides the type f16 */
        WG_ERR(x, e->loc, "type", "'%s' names a module-scope %s here, not a type", n,
               g->decl->kind == D_FN ? "function" : "value");
        return -1;
    }
    if (!strcmp(n, "bool")) return T_BOOL;
    if (!strcmp(n, "i32")) return T_I32;
    if (!strcmp(n, "u32")) return T_U32;
    if (!strcmp(n, "f32")) return T_F32;
    if (!strcmp(n, "f16"))
        return wg_need_f16(x, e->loc, "f16") ? T_F16 : -1;
    uint32_t mc, mr;
    bool msh;
    if (wg_mat_name(n, &mc, &mr, &msh)) {
        if (!msh && e->ntargs != 1) {
            WG_ERR(x, e->loc, "matrix-types", "%s needs one template argument: %s<f32>", n, n);
            return -1;
        }
        /* matCxRf, matCxRh (f16), matCxR<T> */
        int el = msh ? (n[6] == 'h' ? T_F16 : T_F32) : wg_resolve_type(x, e->targs[0]);
        if (el < 0 || (el == T_F16 && !wg_need_f16(x, e->loc, n)))
            return -1;
        if (el != T_F32 && el != T_F16) {
            WG_ERR(x, e->loc, "matrix-types", "a matrix's component type must be f32 or f16, "
                   "not %s", wg_tname(x, el));
            return -1;
        }
        return wg_type_mat_of(ts, el, mc, mr);
    }
    int s = vec_shorthand(n);
    if (s == T_F16 && !wg_need_f16(x, e->loc, n))
        return -1;
    if (s >= 0)
        return wg_type_vec(ts, s, (uint32_t)(n[3] - '0'));
    if (!strcmp(n, "vec2") || !strcmp(n, "vec3") || !strcmp(n, "vec4")) {
        if (e->ntargs != 1) {
            WG_ERR(x, e->loc, "vector-types", "%s needs one template argument: %s<T>", n, n);
            return -1;
        }
        int el = wg_resolve_type(x, e->targs[0]);
        if (el < 0)
            return -1;
        if (!wg_type_is_scalar(ts, el)) {
            WG_ERR(x, e->targs[0]->loc, "vector-types", "a vector's component must be a scalar, "
                   "not %s", wg_tname(x, el));
            return -1;
        }
        return wg_type_vec(ts, el, (uint32_t)(n[3] - '0'));
    }
    if (!strcmp(n, "array")) {
        if (e->ntargs < 1 || e->ntargs > 2) {
            WG_ERR(x, e->loc, "array-types", "array needs array<T> or array<T, N>");
            return -1;
        }
        int el = wg_resolve_type(x, e->targs[0]);
        if (el < 0)
            return -1;
        int64_t count = 0;
        bool by_override = false; /* where such a type may stand is checked where it stands */
        if (e->ntargs == 2) {
            uint32_t overrides = x->override_uses;
            if (!const_int(x, e->targs[1], "an array's element count", true, &count))
                return -1;
            by_override = x->override_uses > overrides;
            if (count <= 0) {
                WG_ERR(x, e->targs[1]->loc, "array-types", "an array's element count must be "
                       "greater than 0, not %lld", (long long)count);
                return -1;
            }
        }
        const wg_type *et = wg_ty(ts, el);
        if (!wg_type_plain(ts, el)) { /* WGSL 6.2.9: a pointer has no size to stride by */
            WG_ERR(x, e->targs[0]->loc, "array-types", "an array's element cannot be %s (an "
                   "element is a number, vector, matrix, atomic, array or struct)",
                   wg_tname(x, el));
            return -1;
        }
        if (!wg_type_fixed_footprint(ts, el)) { /* a runtime-sized array, or a struct ending in one */
            WG_ERR(x, e->targs[0]->loc, "array-types", "an array's element may not be a "
                   "runtime-sized array, or a struct ending in one");
            return -1;
        }
        if (et->kind == TY_ARRAY && et->override_sized) {
            WG_ERR(x, e->targs[0]->loc, "array-types", "an array's element may not be an "
                   "array whose element count is an override-expression");
            return -1;
        }
        /* the byte size, in 64 bits: as Dawn, at most 0xffffffff bytes */
        uint64_t stride = ((uint64_t)et->size + et->align - 1) / et->align * et->align;
        if ((uint64_t)count > UINT32_MAX / stride) {
            WG_ERR(x, e->loc, "limits", "array<%s, %lld> is %.0f bytes; an array may hold at "
                   "most 0xffffffff bytes", wg_tname(x, el), (long long)count,
                   (double)count * (double)stride);
            return -1;
        }
        if (wg_ty(ts, el)->depth + 1 > WG_MAX_TYPE_NESTING) {
            WG_ERR(x, e->loc, "limits", "a composite type nested more than %u levels deep",
                   WG_MAX_TYPE_NESTING);
            return -1;
        }
        return wg_type_intern(ts, &(wg_type){.kind = TY_ARRAY, .elem = el, .n = (uint32_t)count,
                                             .override_sized = by_override});
    }
    if (!strcmp(n, "atomic")) {
        int el = e->ntargs == 1 ? wg_resolve_type(x, e->targs[0]) : -1;
        if (el != T_I32 && el != T_U32) {
            WG_ERR(x, e->loc, "atomic-types", "atomic takes i32 or u32: atomic<u32>");
            return -1;
        }
        return wg_type_intern(ts, &(wg_type){.kind = TY_ATOMIC, .elem = el});
    }
    if (!strcmp(n, "ptr")) {
        if (e->ntargs < 2 || e->targs[0]->kind != E_IDENT) {
            WG_ERR(x, e->loc, "ref-ptr-types", "ptr needs ptr<address space, T[, access]>");
            return -1;
        }
        wg_space sp = space_of(e->targs[0]->name);
        int el = wg_resolve_type(x, e->targs[1]);
        if (sp == SP_NONE || el < 0) {
            if (sp == SP_NONE)
                WG_ERR(x, e->targs[0]->loc, "address-space", "unknown address space '%s'",
                       e->targs[0]->name);
            return -1;
        }
        if (sp != SP_WORKGROUP && wg_ty(ts, el)->kind == TY_ARRAY &&
            wg_ty(ts, el)->override_sized) {
            WG_ERR(x, e->targs[1]->loc, "ref-ptr-types", "an array whose element count is an "
                   "override-expression is only a var<workgroup>'s store type: "
                   "ptr<workgroup, ...>, not ptr<%s, ...>", e->targs[0]->name);
            return -1;
        }
        stex_access a = sp == SP_STORAGE ? STEX_ACCESS_READ_ONLY : STEX_ACCESS_READ_WRITE;
        if (sp == SP_UNIFORM)
            a = STEX_ACCESS_READ_ONLY;
        /* the access mode is written for the storage address space only
         * (read or read_write); the others always have their default */
        if (e->ntargs > 3) {
            WG_ERR(x, e->targs[3]->loc, "ref-ptr-types", "ptr takes at most three template "
                   "arguments: ptr<address space, T, access>");
            return -1;
        }
        if (e->ntargs == 3 && sp != SP_STORAGE) {
            WG_ERR(x, e->targs[2]->loc, "ref-ptr-types", "an access mode is written only for "
                   "ptr<storage, T, access>; ptr<%s, T> always has its address space's",
                   e->targs[0]->name);
            return -1;
        }
        if (e->ntargs == 3) {
            a = e->targs[2]->kind == E_IDENT ? access_of(x, e->targs[2]->name, e->targs[2]->loc)
                                             : STEX_ACCESS_UNDEFINED;
            if (a != STEX_ACCESS_READ_ONLY && a != STEX_ACCESS_READ_WRITE) {
                WG_ERR(x, e->targs[2]->loc, "ref-ptr-types", "a pointer into the storage "
                       "address space is read or read_write");
                return -1;
            }
        }
        /* the store type of a variable that address space could declare */
        const char *sn = e->targs[0]->name, *bad = NULL;
        if (sp == SP_UNIFORM || sp == SP_STORAGE)
            bad = buffer_type_problem(ts, el, sp, a);
        else if (sp == SP_WORKGROUP && (!wg_type_plain(ts, el) || !wg_type_fixed_footprint(ts, el)))
            bad = "var<workgroup> holds a plain type of a fixed footprint";
        else if (sp != SP_WORKGROUP && !wg_type_constructible(ts, el))
            bad = sp == SP_FUNCTION ? "a function-scope var holds a constructible type"
                                    : "var<private> holds a constructible type";
        if (bad) {
            WG_ERR(x, e->targs[1]->loc, "ref-ptr-types", "ptr<%s, %s> points at what no "
                   "var<%s> holds: %s%s", sn, wg_tname(x, el), sn,
                   sp == SP_UNIFORM || sp == SP_STORAGE ? "it holds " : "", bad);
            return -1;
        }
        return wg_type_ptr(ts, sp, el, a);
    }
    if (!strcmp(n, "sampler") || !strcmp(n, "sampler_comparison"))
        return wg_type_intern(ts, &(wg_type){.kind = TY_SAMPLER, .elem = -1,
                                             .n = n[7] == '_'});
    if (!strncmp(n, "texture_storage_", 16)) {
        const char *dn = n + 16;
        stex_view_dimension dim = !strcmp(dn, "1d") ? STEX_VIEW_DIMENSION_1D
                                : !strcmp(dn, "2d") ? STEX_VIEW_DIMENSION_2D
                                : !strcmp(dn, "2d_array") ? STEX_VIEW_DIMENSION_2D_ARRAY
                                : !strcmp(dn, "3d") ? STEX_VIEW_DIMENSION_3D
                                : STEX_VIEW_DIMENSION_UNDEFINED;
        if (dim == STEX_VIEW_DIMENSION_UNDEFINED || e->ntargs != 2 ||
            e->targs[0]->kind != E_IDENT || e->targs[1]->kind != E_IDENT) {
            WG_ERR(x, e->loc, "texture-storage", "expected texture_storage_{1d,2d,2d_array,3d}"
                   "<format, access>");
            return -1;
        }
        stex_format f = stex_format_from_name(e->targs[0]->name);
        const stex_format_info *fi = stex_format_get(f);
        if (!fi || fi->storage == STEX_TIER_NEVER) {
            WG_ERR(x, e->targs[0]->loc, "storage-texel-formats", "'%s' is not a storage texel "
                   "format", e->targs[0]->name);
            return -1;
        }
        stex_access a = access_of(x, e->targs[1]->name, e->targs[1]->loc);
        if (a == STEX_ACCESS_UNDEFINED) {
            WG_ERR(x, e->targs[1]->loc, "access-mode", "unknown access mode '%s' (read, write "
                   "or read_write)", e->targs[1]->name);
            return -1;
        }
        return wg_type_intern(ts, &(wg_type){.kind = TY_STORAGE_TEXTURE, .elem = -1, .dim = dim,
                                             .format = f, .access = a});
    }
    int tex = sampled_texture_type(x, e, n);
    if (tex != -2)
        return tex;
    WG_ERR(x, e->loc, "type", "unknown type '%s'", n);
    return -1;
}

/* Whether a memory variable of `type` is addressed in 2-byte half-words:
 * it holds f16 somewhere (wg_ref.halves). */
static bool f16_halves(wg_ctx *x, int type)
{
    return type >= 0 && wg_type_has_f16(x->types, type);
}

/* What a buffer may hold (WGSL 6.4.x): host-shareable types - numbers,
 * atomics, vectors, matrices, arrays and structures of them (no bool, no
 * pointer); var<uniform> also a fixed footprint and no atomic, and atomics
 * only in read_write storage.  NULL when fine, else what breaks the rule. */
static const char *buffer_type_problem(const wg_types *ts, int id, wg_space sp, stex_access a)
{
    const wg_type *t = &ts->t[id];
    switch (t->kind) {
    case TY_I32: case TY_U32: case TY_F32: case TY_F16: case TY_VEC: case TY_MAT:
        return t->kind == TY_VEC && ts->t[t->elem].kind == TY_BOOL ? "a bool vector" : NULL;
    case TY_ATOMIC:
        return sp == SP_STORAGE && a == STEX_ACCESS_READ_WRITE ? NULL
               : sp == SP_UNIFORM ? "an atomic (var<uniform> holds none)"
                                  : "an atomic (only read_write storage holds them)";
    case TY_ARRAY:
        if (!t->n && sp == SP_UNIFORM)
            return "a runtime-sized array (var<uniform> needs a fixed size)";
        return buffer_type_problem(ts, t->elem, sp, a);
    case TY_STRUCT:
        for (uint32_t i = 0; i < t->nmembers; i++) {
            const char *p = buffer_type_problem(ts, t->members[i].type, sp, a);
            if (p)
                return p;
        }
        return NULL;
    case TY_BOOL: return "a bool (not host-shareable)";
    default: return "a type that is not host-shareable";
    }
}

bool wg_not_override_sized(wg_ctx *x, int type, const wg_expr *te, const char *what)
{
    const wg_type *t = wg_ty(x->types, type);
    if (t->kind != TY_ARRAY || !t->override_sized)
        return true;
    wg_loc at = te->kind == E_IDENT && !strcmp(te->name, "array") && te->ntargs == 2
                    ? te->targs[1]->loc : te->loc;
    WG_ERR(x, at, "array-types", "an array whose element count is an override-expression may "
           "only be the type of a var<workgroup>, not of %s", what);
    return false;
}

static void resource_var(wg_ctx *x, wg_global *g)
{
    const wg_decl *d = g->decl;
    const wg_attr *ga = wg_find_attr(d->attrs, d->nattrs, "group");
    const wg_attr *ba = wg_find_attr(d->attrs, d->nattrs, "binding");
    int type = wg_resolve_type(x, d->type);
    if (type < 0) {
        g->val = wg_error_val();
        return;
    }
    if (!ga || !ba || !ga->nargs || !ba->nargs) {
        WG_ERR(x, d->loc, "resource-interface", "'%s' needs both @group and @binding", d->name);
        g->val = wg_error_val();
        return;
    }
    int64_t group = -1, binding = -1;
    bool known = const_int(x, ga->args[0], "@group", false, &group);
    known &= const_int(x, ba->args[0], "@binding", false, &binding);
    /* WGSL asks only for non-negative values; maxBindGroups (4) is the API's
     * limit, checked when a pipeline is created */
    if (!known || group < 0 || group > 65535 || binding < 0 || binding > 65535) {
        if (known)
            WG_ERR(x, d->loc, "resource-interface", "@group and @binding must be 0..65535 "
                   "(non-negative, as WGSL requires; stex holds each in 16 bits)");
        g->val = wg_error_val();
        return;
    }
    uint32_t ref = STEX_BINDING(group, binding);
    const wg_type *t = wg_ty(x->types, type);
    if (d->init) { /* WGSL 7.3: only private and function variables have one */
        WG_ERR(x, d->init->loc, "var-decls", "'%s' is a resource: it takes no initializer",
               d->name);
        g->val = wg_error_val();
        return;
    }
    if (t->kind == TY_SAMPLER || t->kind == TY_TEXTURE || t->kind == TY_STORAGE_TEXTURE) {
        if (d->space)
            WG_ERR(x, d->loc, "var-decls", "a texture or sampler takes no address space");
        g->val = (wg_val){.kind = V_HANDLE, .type = type, .ref = {.space = SP_HANDLE,
                                                                  .binding = ref}};
        return;
    }
    wg_space sp = d->space ? space_of(d->space) : SP_NONE;
    if (sp != SP_UNIFORM && sp != SP_STORAGE) {
        WG_ERR(x, d->loc, "address-space", "a buffer binding must be var<uniform> or "
               "var<storage, ...>");
        g->val = wg_error_val();
        return;
    }
    /* var<uniform> has storage's layout rules: the language feature
     * uniform_buffer_standard_layout, which every stex adapter offers */
    stex_access a = STEX_ACCESS_READ_ONLY;
    if (d->access) {
        a = access_of(x, d->access, d->loc);
        if (sp == SP_UNIFORM || a == STEX_ACCESS_WRITE_ONLY || a == STEX_ACCESS_UNDEFINED)
            WG_ERR(x, d->loc, "access-mode", "'%s' is not an access mode of var<%s>", d->access,
                   d->space);
    }
    if (!wg_not_override_sized(x, type, d->type, sp == SP_UNIFORM ? "a var<uniform>"
                                                                   : "a var<storage>")) {
        g->val = wg_error_val();
        return;
    }
    const char *bad = buffer_type_problem(x->types, type, sp, a);
    if (bad) {
        WG_ERR(x, d->loc, "var-decls", "var<%s> '%s' cannot hold %s: %s holds %s", d->space,
               d->name, wg_tname(x, type), wg_tname(x, type), bad);
        g->val = wg_error_val();
        return;
    }
    g->val = (wg_val){.kind = V_REF, .type = type, .ref = {.space = sp, .binding = ref,
                                                           .dyn = WG_NONE_REG, .access = a,
                                                           .halves = f16_halves(x, type)}};
}

/* A module-scope const: its const-expression, of its declared type. */
static void constant(wg_ctx *x, wg_global *g)
{
    const wg_decl *d = g->decl;
    int type = d->type ? wg_resolve_type(x, d->type) : -1;
    uint32_t overrides = x->override_uses;
    wg_val v = d->init ? wg_expr_lower(x, d->init) : wg_error_val();
    if (!d->init)
        WG_ERR(x, d->loc, "const-decls", "const '%s' needs an initializer", d->name);
    if (v.kind != V_ERROR && (v.kind != V_CONST || x->override_uses > overrides)) {
        WG_ERR(x, d->init->loc, "const-expr", "the initializer of '%s' is not a "
               "const-expression", d->name);
        v = wg_error_val();
    }
    if (v.kind == V_CONST && type >= 0)
        v = wg_convert(x, v, type, d->loc, "the initializer");
    g->val = v;
}

/* An override's pipeline-overridable constant identifier string (WebGPU):
 * its @id in decimal when it has one, else its name. */
const char *wg_override_key(wg_ctx *x, const wg_decl *d, char *buf, size_t size)
{
    const wg_attr *id = wg_find_attr(d->attrs, d->nattrs, "id");
    if (id && id->nargs == 1) {
        wg_val v = wg_expr_lower(x, id->args[0]);
        if (v.kind == V_CONST && wg_type_is_integer(x->types, v.type) &&
            wg_type_is_scalar(x->types, v.type)) {
            int k = x->types->t[v.type].kind;
            snprintf(buf, size, "%lld", k == TY_AINT ? (long long)v.c[0].i : k == TY_I32
                     ? (long long)(int32_t)v.c[0].u : (long long)v.c[0].u);
            return buf;
        }
    }
    return d->name;
}

/* An override: the pipeline's value (already converted to its type by
 * module.c), else its default, an override-expression.  While the module
 * is checked, one whose value only the pipeline gives is pending. */
static void override(wg_ctx *x, wg_global *g)
{
    const wg_decl *d = g->decl;
    int type = d->type ? wg_resolve_type(x, d->type) : -1;
    uint32_t pending = x->pending_uses, vars = x->var_uses;
    wg_val v = d->init ? wg_expr_lower(x, d->init) : wg_error_val();
    if (v.kind != V_ERROR && !override_expr(x, v, pending, vars)) {
        WG_ERR(x, d->init->loc, "const-expr", "the initializer of '%s' is not an "
               "override-expression", d->name);
        v = wg_error_val();
    }
    if (type < 0 && (v.kind == V_CONST || v.kind == V_REG))
        type = wg_type_concrete(x->types, v.type);
    if (type < 0) {
        if (!d->type && !d->init)
            WG_ERR(x, d->loc, "override-decls", "override '%s' needs a type or an initializer",
                   d->name);
        g->val = wg_error_val();
        return;
    }
    wg_type_kind k = x->types->t[type].kind;
    if (k != TY_BOOL && k != TY_I32 && k != TY_U32 && k != TY_F32 && k != TY_F16) {
        WG_ERR(x, d->loc, "override-decls", "an override is a bool, i32, u32, f32 or f16, not %s",
               wg_tname(x, type));
        g->val = wg_error_val();
        return;
    }
    const wg_override_value want = {.name = d->name}, *given =
        x->noverrides ? bsearch(&want, x->overrides, x->noverrides, sizeof want, wg_override_cmp)
                      : NULL;
    if (given) {
        double value = given->value;
        wg_cword w;
        if (k == TY_F32) {
            float f = (float)value;
            memcpy(&w.u, &f, 4);
        } else if (k == TY_F16) { /* WebGPU: the nearest f16 (range checked with the key) */
            stex_math_f16_from_double(value, &w.u);
        } else if (k == TY_BOOL) {
            w.u = value != 0;
        } else {
            w.u = k == TY_I32 ? (uint32_t)(int32_t)value : (uint32_t)value;
        }
        g->val = wg_const_scalar(x, type, w);
        return;
    }
    bool waits = !d->init || (v.kind == V_REG && x->pending_uses > pending);
    if (waits && x->pipeline) {
        char key[32];
        WG_ERR(x, d->loc, "pipeline-constants", "override '%s' has no default value and the "
               "pipeline's constants give none (key \"%s\")", d->name,
               wg_override_key(x, d, key, sizeof key));
        g->val = wg_error_val();
        return;
    }
    if (waits) { /* checked as a run-time value of its type */
        uint32_t r = wg_reg_alloc(x, 1);
        wg_ins *i = wg_emit(x, OP_CONST);
        i->d = r;
        g->val = (wg_val){.kind = V_REG, .type = type, .reg = r};
        g->pending = true;
        return;
    }
    if (v.kind != V_ERROR && v.kind != V_CONST) {
        WG_ERR(x, d->init->loc, "const-expr", "the initializer of '%s' is not an "
               "override-expression", d->name);
        v = wg_error_val();
    }
    if (v.kind == V_CONST)
        v = wg_convert(x, v, type, d->loc, "the initializer");
    g->val = v;
    /* while the module is checked, a default is only a default: the pipeline
     * may give another value, so what the override's uses compute (a
     * division by it, an index, an array count) is checked at the pipeline,
     * with the value it has there (WGSL 8.x: override-expressions are
     * evaluated at pipeline creation) */
    if (!x->pipeline && v.kind == V_CONST) {
        uint32_t r = wg_reg_alloc(x, 1);
        wg_ins *i = wg_emit(x, OP_CONST);
        i->d = r;
        g->val = (wg_val){.kind = V_REG, .type = type, .reg = r};
        g->pending = true;
    }
}

static void analyse(wg_ctx *x, wg_global *g);

/* Analyses module-scope declaration g (not yet analysed; not a function):
 * outside any function's control flow and scope, so no local name hides a
 * global there. */
static void analyse_global(wg_ctx *x, wg_global *g)
{
    if (g->decl->kind == D_STRUCT || g->decl->kind == D_ALIAS) {
        wg_expr id = {.kind = E_IDENT, .loc = g->decl->loc, .name = g->decl->name};
        declared_type(x, &id, g);
        return;
    }
    uint32_t line = x->line, sym_base = x->sym_base;
    x->line = g->decl->loc.line;
    x->sym_base = x->nsyms;
    analyse(x, g);
    x->sym_base = sym_base;
    x->line = line;
}

/* The module-scope declarations an expression names, appended to *v. */
static void names_in(wg_ctx *x, const wg_expr *e, uint32_t **v, uint32_t *n, uint32_t *cap)
{
    if (!e || x->oom)
        return;
    if (e->kind == E_IDENT) {
        int32_t i = wg_ast_find(x->ast, e->name);
        if (i >= 0 && x->ast->decls[i]->kind != D_FN && x->globals[i].state == 0) {
            if (!wg_grow(x, (void **)v, cap, *n, sizeof **v))
                return;
            (*v)[(*n)++] = (uint32_t)i;
        }
    }
    names_in(x, e->a, v, n, cap);
    names_in(x, e->b, v, n, cap);
    for (uint32_t k = 0; k < e->nargs; k++)
        names_in(x, e->args[k], v, n, cap);
    for (uint32_t k = 0; k < e->ntargs; k++)
        names_in(x, e->targs[k], v, n, cap);
}

static void decl_names(wg_ctx *x, const wg_decl *d, uint32_t **v, uint32_t *n, uint32_t *cap)
{
    names_in(x, d->type, v, n, cap);
    names_in(x, d->init, v, n, cap);
    for (uint32_t k = 0; k < d->nattrs; k++)
        for (uint32_t j = 0; j < d->attrs[k].nargs; j++)
            names_in(x, d->attrs[k].args[j], v, n, cap);
    if (d->kind == D_STRUCT)
        for (uint32_t p = 0; p < d->nparams; p++) {
            names_in(x, d->params[p].type, v, n, cap);
            for (uint32_t k = 0; k < d->params[p].nattrs; k++)
                for (uint32_t j = 0; j < d->params[p].attrs[k].nargs; j++)
                    names_in(x, d->params[p].attrs[k].args[j], v, n, cap);
        }
}

/* Before root is analysed, every module-scope declaration it names,
 * directly or through others, is analysed - deepest first, by a walk with
 * its own stack - so that analysing one never recurses into another: a
 * chain `const c1 = c0 + 1; const c2 = c1 + 1; ...` of any length costs
 * one level of the thread's stack.  Cycles are left to the analysis, which
 * reports them. */
static void prepare(wg_ctx *x, wg_global *root)
{
    typedef struct { uint32_t g, start, end, next; } frame;
    frame *st = NULL;
    uint32_t *deps = NULL, nst = 0, cst = 0, nd = 0, cd = 0;
    if (!x->queued) {
        x->queued = calloc(x->ast->n ? x->ast->n : 1, sizeof *x->queued);
        if (!x->queued)
            return; /* the analysis recurses instead */
    }
    uint32_t r = (uint32_t)(root - x->globals);
    x->queued[r] = true;
    decl_names(x, root->decl, &deps, &nd, &cd);
    if (wg_grow(x, (void **)&st, &cst, nst, sizeof *st))
        st[nst++] = (frame){r, 0, nd, 0};
    while (nst && !x->oom && !x->limit_hit) {
        frame *f = &st[nst - 1];
        if (f->next < f->end) {
            uint32_t d = deps[f->next++];
            if (x->queued[d] || x->globals[d].state != 0)
                continue; /* done, or on the stack (a cycle: the analysis reports it) */
            x->queued[d] = true;
            uint32_t start = nd;
            decl_names(x, x->globals[d].decl, &deps, &nd, &cd);
            if (!wg_grow(x, (void **)&st, &cst, nst, sizeof *st))
                break;
            st[nst++] = (frame){d, start, nd, start};
            continue;
        }
        uint32_t g = f->g;
        nd = f->start; /* its names are done with */
        nst--;
        if (g != r && x->globals[g].state == 0)
            analyse_global(x, &x->globals[g]);
    }
    free(st);
    free(deps);
}

static void analyse(wg_ctx *x, wg_global *g)
{
    const wg_decl *d = g->decl;
    g->state = 1;
    switch (d->kind) {
    case D_CONST:
        constant(x, g);
        break;
    case D_OVERRIDE:
        override(x, g);
        break;
    case D_VAR:
        if (wg_find_attr(d->attrs, d->nattrs, "binding") ||
            wg_find_attr(d->attrs, d->nattrs, "group") || !d->space) {
            resource_var(x, g);
        } else {
            wg_space sp = space_of(d->space);
            if (d->access) /* WGSL 7.3: only var<storage> names an access mode */
                WG_ERR(x, d->loc, "var-decls", "var<%s> takes no access mode", d->space);
            uint32_t pending = x->pending_uses;
            int type = d->type ? wg_resolve_type(x, d->type) : -1;
            if (sp == SP_WORKGROUP && x->pending_uses > pending)
                x->wg_memory_pending = true; /* its size waits for the pipeline */
            if (sp == SP_WORKGROUP) {
                if (type < 0) {
                    if (!d->type)
                        WG_ERR(x, d->loc, "var-decls", "var<workgroup> needs a type");
                    g->val = wg_error_val();
                    break;
                }
                if (d->init)
                    WG_ERR(x, d->init->loc, "var-decls", "var<workgroup> takes no initializer");
                if (!wg_type_plain(x->types, type)) { /* WGSL 7.3: its store type is plain */
                    WG_ERR(x, d->loc, "var-decls", "var<workgroup> cannot hold %s",
                           wg_tname(x, type));
                    g->val = wg_error_val();
                    break;
                }
                if (!wg_type_fixed_footprint(x->types, type)) { /* WGSL 6.4.1 */
                    WG_ERR(x, d->loc, "address-space", "var<workgroup> cannot hold %s: its "
                           "store type needs a fixed footprint (no runtime-sized array)",
                           wg_tname(x, type));
                    g->val = wg_error_val();
                    break;
                }
                const wg_type *t = wg_ty(x->types, type);
                uint32_t off = (x->wg_memory + t->align - 1) / t->align * t->align;
                /* each array is below 4 GiB; their sum saturates (the pipeline
                 * refuses it against maxComputeWorkgroupStorageSize) */
                uint64_t end = (uint64_t)off + t->size;
                if (off < x->wg_memory || end > UINT32_MAX - 4)
                    off = UINT32_MAX - 4, end = UINT32_MAX - 4;
                x->wg_memory = (uint32_t)end;
                g->wg_offset = off;
                g->val = (wg_val){.kind = V_REF, .type = type,
                                  .ref = {.space = SP_WORKGROUP,
                                          .base = off / (f16_halves(x, type) ? 2 : 4),
                                          .dyn = WG_NONE_REG, .access = STEX_ACCESS_READ_WRITE,
                                          .halves = f16_halves(x, type)}};
            } else if (sp == SP_PRIVATE) {
                uint32_t pend = x->pending_uses, vars = x->var_uses;
                wg_val init = d->init ? wg_expr_lower(x, d->init) : wg_error_val();
                /* WGSL 7.3: a const- or override-expression */
                if (init.kind != V_ERROR && !override_expr(x, init, pend, vars)) {
                    WG_ERR(x, d->init->loc, "const-expr", "a var<private> initializer must be "
                           "a const-expression or an override-expression");
                    init = wg_error_val();
                }
                if (type < 0 && (init.kind == V_CONST || init.kind == V_REG))
                    type = wg_type_concrete(x->types, init.type);
                if (type < 0) {
                    g->val = wg_error_val();
                    break;
                }
                if (d->type && !wg_not_override_sized(x, type, d->type, "a var<private>")) {
                    g->val = wg_error_val();
                    break;
                }
                if (!wg_type_constructible(x->types, type)) { /* WGSL 7.3 */
                    WG_ERR(x, d->loc, "var-decls", "var<private> cannot hold %s",
                           wg_tname(x, type));
                    g->val = wg_error_val();
                    break;
                }
                uint32_t words = wg_ty(x->types, type)->words;
                uint32_t reg = wg_reg_alloc(x, words);
                if (init.kind == V_CONST || init.kind == V_REG) {
                    init = wg_convert(x, init, type, d->loc, "the initializer");
                    if (init.kind == V_CONST || init.kind == V_REG) {
                        uint32_t src = init.kind == V_REG ? init.reg
                                                          : wg_const_reg(x, init.c, type);
                        wg_ins *i = wg_emit(x, OP_MOV);
                        i->d = reg, i->a = src, i->n = (uint16_t)words;
                    }
                } else {
                    for (uint32_t w = 0; w < words && !x->limit_hit; w++) {
                        wg_ins *i = wg_emit(x, OP_CONST);
                        i->d = reg + w;
                    }
                }
                g->val = (wg_val){.kind = V_REF, .type = type,
                                  .ref = {.space = SP_PRIVATE, .base = reg, .dyn = WG_NONE_REG,
                                          .access = STEX_ACCESS_READ_WRITE}};
            } else {
                WG_ERR(x, d->loc, "address-space", "a module-scope var<%s> is not allowed "
                       "(private, workgroup, uniform or storage)", d->space);
                g->val = wg_error_val();
            }
        }
        break;
    case D_LET:
        WG_ERR(x, d->loc, "let-decls", "'let' is not allowed at module scope; use 'const'");
        g->val = wg_error_val();
        break;
    default:
        break;
    }
    g->state = 2;
}

wg_global *wg_global_find(wg_ctx *x, const char *name, wg_loc loc)
{
    wg_global *g = global_named(x, name);
    if (!g)
        return NULL;
    if (g->state == 1 && g->decl->kind != D_FN) {
        WG_ERR(x, loc, "module-scope-cycle", "'%s' is used in its own declaration", name);
        return NULL;
    }
    if (g->state == 0 && g->decl->kind != D_FN && g->decl->kind != D_STRUCT &&
        g->decl->kind != D_ALIAS) {
        prepare(x, g);
        analyse_global(x, g);
    }
    g->used = true;
    return g;
}
