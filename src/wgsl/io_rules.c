/* An entry point's shader interface (WGSL 13.3.1): its built-in values,
 * checked against the table of which stage reads or writes each and at what
 * type, and its user-defined inputs and outputs (@location), checked for
 * their types, their interpolation and no two alike on one side. */
#include "wgsl/lower.h"

#include <string.h>

typedef enum { IO_U32, IO_VEC3_U32, IO_VEC4_F32, IO_BOOL, IO_F32, IO_CLIP } io_type;

/* WGSL 13.3.1.1, "Built-in Inputs and Outputs": one row per stage and side. */
static const struct {
    const char *name, *stage;
    bool output;
    io_type type;
    bool subgroups; /* needs `enable subgroups;` */
} builtins[] = {
    {"vertex_index", "vertex", false, IO_U32, false},
    {"instance_index", "vertex", false, IO_U32, false},
    {"clip_distances", "vertex", true, IO_CLIP, false},
    {"position", "vertex", true, IO_VEC4_F32, false},
    {"position", "fragment", false, IO_VEC4_F32, false},
    {"front_facing", "fragment", false, IO_BOOL, false},
    {"frag_depth", "fragment", true, IO_F32, false},
    {"sample_index", "fragment", false, IO_U32, false},
    {"sample_mask", "fragment", false, IO_U32, false},
    {"sample_mask", "fragment", true, IO_U32, false},
    {"subgroup_invocation_id", "fragment", false, IO_U32, true},
    {"subgroup_size", "fragment", false, IO_U32, true},
    {"local_invocation_id", "compute", false, IO_VEC3_U32, false},
    {"local_invocation_index", "compute", false, IO_U32, false},
    {"global_invocation_id", "compute", false, IO_VEC3_U32, false},
    {"workgroup_id", "compute", false, IO_VEC3_U32, false},
    {"num_workgroups", "compute", false, IO_VEC3_U32, false},
    {"subgroup_invocation_id", "compute", false, IO_U32, true},
    {"subgroup_size", "compute", false, IO_U32, true},
    {"subgroup_id", "compute", false, IO_U32, true},
    {"num_subgroups", "compute", false, IO_U32, true},
};
enum { NBUILTINS = sizeof builtins / sizeof builtins[0] };

static bool type_is(wg_ctx *x, int t, io_type want)
{
    const wg_type *ty = wg_ty(x->types, t);
    switch (want) {
    case IO_U32: return t == T_U32;
    case IO_VEC3_U32: return t == wg_type_vec(x->types, T_U32, 3);
    case IO_VEC4_F32: return t == wg_type_vec(x->types, T_F32, 4);
    case IO_BOOL: return t == T_BOOL;
    case IO_F32: return t == T_F32;
    case IO_CLIP: return ty->kind == TY_ARRAY && ty->elem == T_F32 && ty->n >= 1 && ty->n <= 8;
    }
    return false;
}

static const char *type_text(io_type t)
{
    static const char *const names[] = {"u32", "vec3<u32>", "vec4<f32>", "bool", "f32",
                                        "array<f32, N> with N at most 8"};
    return names[t];
}

/* One input or output: a parameter, the result, or a member of their struct. */
typedef struct io_item {
    const wg_attr *attrs;
    uint32_t nattrs;
    int type;
    int64_t location; /* -1: none */
    wg_loc loc;
    bool output;
} io_item;

static const char *enumerant(const wg_attr *a)
{
    return a && a->nargs && a->args[0]->kind == E_IDENT ? a->args[0]->name : NULL;
}

static void builtin_check(wg_ctx *x, const io_item *it, const char *stage, const char *name)
{
    const char *side = it->output ? "output" : "input";
    int known = -1, row = -1;
    for (int i = 0; i < NBUILTINS; i++)
        if (!strcmp(builtins[i].name, name)) {
            known = i;
            if (!strcmp(builtins[i].stage, stage) && builtins[i].output == it->output)
                row = i;
        }
    if (known < 0) {
        WG_ERR(x, it->loc, "builtin-values", "'%s' is no built-in value", name);
    } else if (row < 0) {
        WG_ERR(x, it->loc, "builtin-values", "@builtin(%s) is not a %s shader %s", name,
               stage, side);
    } else if (builtins[row].subgroups && !x->ast->enable_subgroups) {
        WG_ERR(x, it->loc, "builtin-values", "@builtin(%s) needs 'enable subgroups;'", name);
    } else if (!type_is(x, it->type, builtins[row].type)) {
        WG_ERR(x, it->loc, "builtin-values", "@builtin(%s) has type %s, not %s", name,
               type_text(builtins[row].type), wg_tname(x, it->type));
    }
}

/* A user-defined input or output (WGSL 13.3.1.2): a numeric scalar or
 * vector; an integer one that is interpolated (a vertex output, a fragment
 * input) says @interpolate(flat). */
static void location_check(wg_ctx *x, const io_item *it, const char *stage)
{
    int s = wg_type_scalar(x->types, it->type);
    bool numeric = wg_type_lanes(x->types, it->type) &&
                   (s == T_F32 || s == T_F16 || s == T_I32 || s == T_U32);
    if (!numeric) {
        WG_ERR(x, it->loc, "entry-point-io", "a @location %s is a scalar or vector of f32, "
               "f16, i32 or u32, not %s", it->output ? "output" : "input", wg_tname(x, it->type));
        return;
    }
    bool interpolated = !strcmp(stage, "vertex") ? it->output : !it->output;
    const wg_attr *ip = wg_find_attr(it->attrs, it->nattrs, "interpolate");
    const char *kind = enumerant(ip);
    if (interpolated && (s == T_I32 || s == T_U32) && (!kind || strcmp(kind, "flat")))
        WG_ERR(x, it->loc, "entry-point-io", "an integer %s shader %s of type %s needs "
               "@interpolate(flat)", stage, it->output ? "output" : "input",
               wg_tname(x, it->type));
}

/* The items of one parameter or result: itself, or each member of its struct. */
static uint32_t items_of(wg_ctx *x, const wg_attr *a, uint32_t n, const wg_expr *te,
                         wg_loc loc, bool output, io_item *out, uint32_t cap)
{
    int t = wg_resolve_type(x, te);
    if (t < 0)
        return 0;
    const wg_type *ty = wg_ty(x->types, t);
    const wg_attr *lo = wg_find_attr(a, n, "location");
    if (wg_find_attr(a, n, "builtin") || lo || ty->kind != TY_STRUCT) {
        int64_t v = -1;
        if (lo && lo->nargs == 1 && !wg_location(x, lo, &v))
            v = -1;
        if (cap)
            out[0] = (io_item){a, n, t, v, loc, output};
        return 1;
    }
    const wg_global *g = wg_global_find(x, ty->name, loc);
    if (!g || g->decl->kind != D_STRUCT || g->decl->nparams != ty->nmembers)
        return 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < ty->nmembers; i++) {
        const wg_param *m = &g->decl->params[i];
        if (wg_ty(x->types, ty->members[i].type)->kind == TY_STRUCT) {
            WG_ERR(x, m->loc, "entry-point-io", "member '%s' of an entry point's %s is a "
                   "struct; the interface holds no nested structs", m->name,
                   output ? "result" : "parameter");
            continue;
        }
        if (k < cap)
            out[k] = (io_item){m->attrs, m->nattrs, ty->members[i].type,
                               ty->members[i].location, m->loc, output};
        k++;
    }
    return k;
}

/* No two inputs (or two outputs) with one built-in or one location. */
static void duplicates_check(wg_ctx *x, const io_item *it, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < i; j++) {
            if (it[i].output != it[j].output)
                continue;
            const char *bi = enumerant(wg_find_attr(it[i].attrs, it[i].nattrs, "builtin"));
            const char *bj = enumerant(wg_find_attr(it[j].attrs, it[j].nattrs, "builtin"));
            bool blend = wg_find_attr(it[i].attrs, it[i].nattrs, "blend_src") ||
                         wg_find_attr(it[j].attrs, it[j].nattrs, "blend_src");
            if (bi && bj && !strcmp(bi, bj)) {
                WG_ERR(x, it[i].loc, "entry-point-io", "two %ss are @builtin(%s) (the other "
                       "at line %u)", it[i].output ? "output" : "input", bi, it[j].loc.line);
                break;
            }
            if (!bi && !bj && !blend && it[i].location >= 0 &&
                it[i].location == it[j].location) {
                WG_ERR(x, it[i].loc, "entry-point-io", "two %ss are @location(%lld) (the other "
                       "at line %u)", it[i].output ? "output" : "input",
                       (long long)it[i].location, it[j].loc.line);
                break;
            }
        }
}

void wg_entry_io_check(wg_ctx *x, const wg_decl *fn, const char *stage)
{
    /* count the items quietly, then gather them, reporting what is wrong */
    bool quiet = x->d->quiet;
    x->d->quiet = true;
    uint32_t n = 0;
    for (uint32_t i = 0; i < fn->nparams; i++)
        n += items_of(x, fn->params[i].attrs, fn->params[i].nattrs, fn->params[i].type,
                      fn->params[i].loc, false, NULL, 0);
    if (fn->ret)
        n += items_of(x, fn->ret_attrs, fn->nret_attrs, fn->ret, fn->ret->loc, true, NULL, 0);
    x->d->quiet = quiet;
    io_item *it = wg_alloc(x->arena, (n ? n : 1) * sizeof *it);
    if (!it) {
        x->oom = true;
        return;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < fn->nparams; i++)
        k += items_of(x, fn->params[i].attrs, fn->params[i].nattrs, fn->params[i].type,
                      fn->params[i].loc, false, it + k, n - k);
    if (fn->ret)
        k += items_of(x, fn->ret_attrs, fn->nret_attrs, fn->ret, fn->ret->loc, true, it + k,
                      n - k);
    k = k < n ? k : n;
    bool compute = !strcmp(stage, "compute"); /* its inputs: lowering checks each */
    for (uint32_t i = 0; i < k && !compute; i++) {
        const char *b = enumerant(wg_find_attr(it[i].attrs, it[i].nattrs, "builtin"));
        if (b && wg_find_attr(it[i].attrs, it[i].nattrs, "location"))
            WG_ERR(x, it[i].loc, "entry-point-io", "an input or output is a built-in value "
                   "or has a @location, not both");
        else if (b)
            builtin_check(x, &it[i], stage, b);
        else if (wg_find_attr(it[i].attrs, it[i].nattrs, "location"))
            location_check(x, &it[i], stage);
    }
    duplicates_check(x, it, k);
}
