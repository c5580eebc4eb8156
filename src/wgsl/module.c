/* The public API of stex/wgsl.h: modules (parse, check, reflect) and
 * pipelines (lower an entry point, hand the interpreter to the engine). */
#include "stex/wgsl.h"
#include "stex/math.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "dispatch/phase.h"
#include "wgsl/alias.h"
#include "wgsl/decl_order.h"
#include "wgsl/executor.h"
#include "wgsl/interp.h"
#include "wgsl/interp_ival.h"
#include "wgsl/locations.h"
#include "wgsl/opt.h"
#include "wgsl/lower.h"
#include "wgsl/stack.h"
#include "wgsl/uniform.h"

void wg_lower_function(wg_ctx *x, const wg_decl *fn, bool entry);

typedef struct entry_info {
    stex_wgsl_entry_point pub;
    stex_layout_entry *entries;
    const char **names;
    const char **sample_types;
    uint32_t (*pairs)[2];   /* the texture and sampler bindings each sampling call uses */
    uint32_t npairs;
    const wg_decl *decl;
    bool want_locs;         /* a pipeline's lowering: name its memory (locs) */
    const wg_decl *external; /* a texture_external it uses: no pipeline (stex has none) */
    wg_locmap *locs;
} entry_info;

struct stex_wgsl_module {
    char *source;
    char *filename;
    wg_diags diags;
    char *text;            /* formatted diagnostics */
    wg_token *tokens;
    uint32_t ntokens;
    wg_arena arena;
    wg_ast ast;
    wg_types types;
    entry_info *eps;
    uint32_t neps;
    stex_wgsl_override_info *overrides;
    uint32_t noverrides, overrides_cap;
    uint32_t *id_owner;         /* per @id 0..65535: the override's index + 1 (0 none) */
    stex_const_rule const_rule; /* how its const-expressions are evaluated */
    stex_matmul_rule matmul;    /* how its matrix products sum at run time */
    bool unroll;                /* counted loops unrolled (the nvidia profile's compiler) */
    bool quantize_ftz;          /* quantizeToF16 flushes f16 subnormals (the same) */
    wg_zeros zeros;             /* its first zeros, under Dawn's rule */
    uint32_t inlined;           /* calls inlined while the module is checked */
    bool limited;               /* a [limits] error: the remaining functions are not lowered */
};

/* The @workgroup_size of an entry point (constants or overrides). */
static void workgroup_size(wg_ctx *x, const wg_decl *fn, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    const wg_attr *a = wg_find_attr(fn->attrs, fn->nattrs, "workgroup_size");
    if (!a || !a->nargs) {
        WG_ERR(x, fn->loc, "entry-point-decl", "a compute entry point needs @workgroup_size");
        return;
    }
    int concrete = -1; /* WGSL 12.3.1.7: the arguments share one type, i32 or u32 */
    for (uint32_t i = 0; i < a->nargs; i++) {
        uint32_t pending = x->pending_uses;
        wg_val v = wg_expr_lower(x, a->args[i]);
        if (v.kind == V_ERROR)
            continue;
        int k = x->types->t[v.type].kind;
        if ((k == TY_I32 || k == TY_U32) && concrete >= 0 && concrete != v.type)
            WG_ERR(x, a->args[i]->loc, "workgroup-size", "@workgroup_size's arguments are all "
                   "i32 or all u32 (abstract integers convert), not both");
        if (k == TY_I32 || k == TY_U32)
            concrete = v.type;
        if (v.kind == V_REG && x->pending_uses > pending && wg_type_is_scalar(x->types, v.type) &&
            wg_type_is_integer(x->types, v.type)) {
            out[i] = 0; /* an override-expression: the pipeline's constants decide */
            continue;
        }
        if (v.kind != V_CONST || !wg_type_is_integer(x->types, v.type) ||
            !wg_type_is_scalar(x->types, v.type)) {
            WG_ERR(x, a->args[i]->loc, "workgroup-size", "@workgroup_size takes constant "
                   "integers");
            continue;
        }
        int64_t n = x->types->t[v.type].kind == TY_AINT ? v.c[0].i
                  : x->types->t[v.type].kind == TY_I32 ? (int32_t)v.c[0].u : (int64_t)v.c[0].u;
        if (n < 1) {
            WG_ERR(x, a->args[i]->loc, "workgroup-size", "@workgroup_size must be at least 1");
            continue;
        }
        if (x->types->t[v.type].kind == TY_AINT && n > INT32_MAX) { /* it becomes an i32 */
            WG_ERR(x, a->args[i]->loc, "workgroup-size", "@workgroup_size value %lld is not an "
                   "i32", (long long)n);
            continue;
        }
        out[i] = (uint32_t)n; /* the pipeline checks it against the device's limits */
    }
}

/* The constants a pipeline gives, resolved to override names (module.c's
 * resolve_constants); NULL while the module alone is checked. */
typedef struct constants {
    wg_override_value *v;
    uint32_t n;
} constants;

/* What an entry_info owns (its reflection's arrays). */
static void entry_info_free(entry_info *ep)
{
    free(ep->entries);
    free(ep->names);
    free(ep->sample_types);
    free(ep->pairs);
}

static void ctx_init(wg_ctx *x, stex_wgsl_module *m, wg_diags *d, wg_program *prog,
                     const constants *opt)
{
    memset(x, 0, sizeof *x);
    memset(prog, 0, sizeof *prog);
    x->arena = &m->arena;
    x->const_rule = m->const_rule;
    x->matmul = m->matmul;
    x->unroll = m->unroll;
    x->quantize_ftz = m->quantize_ftz;
    x->zeros = &m->zeros;
    x->d = d;
    x->types = &m->types;
    x->ast = &m->ast;
    x->globals = calloc(m->ast.n ? m->ast.n : 1, sizeof *x->globals);
    for (uint32_t i = 0; x->globals && i < m->ast.n; i++)
        x->globals[i].decl = m->ast.decls[i];
    x->prog = prog;
    x->reg_next = REG_FIRST_FREE;
    prog->nregs = REG_FIRST_FREE;
    if (opt) {
        x->overrides = opt->v;
        x->noverrides = opt->n;
        x->pipeline = true;
    }
    if (!x->globals)
        x->oom = true;
}

static void ctx_free(wg_ctx *x)
{
    free(x->globals);
    free(x->queued);
    free(x->syms);
    free(x->frames);
    free(x->cons);
}

static void program_free(wg_program *p)
{
    free(p->code);
    free(p->pool);
}

static stex_view_dimension or_2d(stex_view_dimension d)
{
    return d == STEX_VIEW_DIMENSION_UNDEFINED ? STEX_VIEW_DIMENSION_2D : d;
}

/* Is the handle at binding ref an i32 or u32 sampled texture? */
static bool int_texture(wg_ctx *x, uint32_t ref)
{
    for (uint32_t i = 0; i < x->ast->n; i++) {
        const wg_global *g = &x->globals[i];
        if (g->decl->kind == D_VAR && g->val.kind == V_HANDLE && g->val.ref.binding == ref) {
            const wg_type *t = wg_ty(x->types, g->val.type);
            return t->kind == TY_TEXTURE && (t->elem == T_I32 || t->elem == T_U32);
        }
    }
    return false;
}

/* A resource (buffer, texture or sampler binding) that the function lowered in x uses. */
static bool used_resource(const wg_global *g)
{
    return g->used && g->decl->kind == D_VAR &&
           (g->val.kind == V_HANDLE || (g->val.kind == V_REF && (g->val.ref.space == SP_UNIFORM ||
                                                                 g->val.ref.space == SP_STORAGE)));
}

/* WGSL 13.3.2: the resources an entry point uses have distinct binding
 * points (variables that share one are fine in different entry points). */
static void binding_collisions(wg_ctx *x)
{
    for (uint32_t a = 0; a < x->ast->n; a++)
        for (uint32_t b = a + 1; used_resource(&x->globals[a]) && b < x->ast->n; b++)
            if (used_resource(&x->globals[b]) &&
                x->globals[a].val.ref.binding == x->globals[b].val.ref.binding) {
                uint32_t ref = x->globals[a].val.ref.binding;
                wg_error(x->d, x->globals[b].decl->loc, "resource-interface",
                         "'%s' and '%s' both use @group(%u) @binding(%u) in the entry point",
                         x->globals[a].decl->name, x->globals[b].decl->name,
                         (unsigned)STEX_BINDING_GROUP(ref), (unsigned)STEX_BINDING_NUMBER(ref));
            }
}

/* The struct declaration a type expression names, or NULL. */
static const wg_decl *struct_decl(wg_ctx *x, const wg_expr *type)
{
    int t = type ? wg_resolve_type(x, type) : -1;
    if (t < 0 || x->types->t[t].kind != TY_STRUCT || type->kind != E_IDENT)
        return NULL;
    const wg_global *g = wg_global_find(x, type->name, type->loc);
    return g && g->decl->kind == D_STRUCT ? g->decl : NULL;
}

static bool io_attr(const wg_attr *a, uint32_t n)
{
    return wg_find_attr(a, n, "builtin") || wg_find_attr(a, n, "location");
}

/* The position a vertex shader must return: @builtin(position) itself. */
static bool is_position(const wg_attr *a, uint32_t n)
{
    const wg_attr *b = wg_find_attr(a, n, "builtin");
    return b && b->nargs && b->args[0]->kind == E_IDENT && !strcmp(b->args[0]->name, "position");
}

/* WGSL 13.3.1: each input and output of a vertex or fragment shader is a
 * built-in value or has a @location, itself or in each member of its
 * struct; a vertex shader returns @builtin(position). */
static void graphics_io_check(wg_ctx *x, const wg_decl *fn, bool vertex)
{
    for (uint32_t i = 0; i < fn->nparams; i++) {
        const wg_param *p = &fn->params[i];
        const wg_decl *sd = io_attr(p->attrs, p->nattrs) ? NULL : struct_decl(x, p->type);
        bool ok = io_attr(p->attrs, p->nattrs) || sd;
        for (uint32_t k = 0; sd && k < sd->nparams; k++)
            ok &= io_attr(sd->params[k].attrs, sd->params[k].nattrs);
        if (!ok)
            wg_error(x->d, p->loc, "entry-point-io", "parameter '%s' of entry point '%s' needs "
                     "@builtin(...) or @location(...), itself or on each member of its struct",
                     p->name ? p->name : "?", fn->name);
    }
    if (!fn->ret) {
        if (vertex)
            wg_error(x->d, fn->loc, "entry-point-io", "vertex entry point '%s' returns "
                     "nothing; it must return @builtin(position)", fn->name);
        return;
    }
    const wg_decl *sd = io_attr(fn->ret_attrs, fn->nret_attrs) ? NULL : struct_decl(x, fn->ret);
    bool ok = io_attr(fn->ret_attrs, fn->nret_attrs) || sd;
    bool position = is_position(fn->ret_attrs, fn->nret_attrs);
    for (uint32_t k = 0; sd && k < sd->nparams; k++) {
        ok &= io_attr(sd->params[k].attrs, sd->params[k].nattrs);
        position |= is_position(sd->params[k].attrs, sd->params[k].nattrs);
    }
    if (!ok)
        wg_error(x->d, fn->ret->loc, "entry-point-io", "the result of entry point '%s' needs "
                 "@builtin(...) or @location(...), itself or on each member of its struct",
                 fn->name);
    else if (vertex && !position)
        wg_error(x->d, fn->ret->loc, "entry-point-io", "vertex entry point '%s' does not "
                 "return @builtin(position)", fn->name);
}

/* A @vertex or @fragment entry point (checked, never run): what its stage
 * may use (WGSL 6.4: var<workgroup> is the compute stage's alone; a vertex
 * shader writes no storage - neither var<storage, read_write> nor a write or
 * read_write storage texture), and distinct binding points. */
static void graphics_entry_check(wg_ctx *x, const wg_decl *fn, bool vertex)
{
    const char *stage = vertex ? "vertex" : "fragment";
    for (uint32_t i = 0; i < x->ast->n; i++) {
        const wg_global *g = &x->globals[i];
        if (!g->used || g->decl->kind != D_VAR)
            continue;
        const wg_type *t = g->val.kind == V_HANDLE ? wg_ty(x->types, g->val.type) : NULL;
        const char *what =
            g->val.kind == V_REF && g->val.ref.space == SP_WORKGROUP ? "var<workgroup>"
            : !vertex ? NULL
            : g->val.kind == V_REF && g->val.ref.space == SP_STORAGE &&
                      g->val.ref.access == STEX_ACCESS_READ_WRITE
                ? "var<storage, read_write>"
            : t && t->kind == TY_STORAGE_TEXTURE && t->access != STEX_ACCESS_READ_ONLY
                ? "a writable storage texture"
                : NULL;
        if (what)
            wg_error(x->d, fn->loc, "shader-stage", "%s entry point '%s' uses %s '%s' (line "
                     "%u), which the %s stage may not", stage, fn->name, what, g->decl->name,
                     g->decl->loc.line, stage);
    }
    if (x->uses_barriers) /* WGSL 17.11, 17.12: the compute stage's builtins */
        wg_error(x->d, fn->loc, "shader-stage", "%s entry point '%s' reaches a barrier or "
                 "workgroupUniformLoad, which only a compute shader may call", stage, fn->name);
    binding_collisions(x);
    graphics_io_check(x, fn, vertex);
}

/* The layout entries of the resources an entry point used (its reflection). */
static bool reflect(wg_ctx *x, entry_info *ep)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->ast->n; i++)
        n += used_resource(&x->globals[i]);
    /* the texture-sampler pairs of the sampling calls (WebGPU validates each) */
    uint32_t np = 0;
    for (uint32_t c = 0; c < x->prog->ncode; c++)
        np += x->prog->code[c].op == OP_TEX_SAMPLE || x->prog->code[c].op == OP_TEX_SAMPLE_ANY;
    ep->pairs = calloc(np ? np : 1, sizeof *ep->pairs);
    if (!ep->pairs)
        return false;
    for (uint32_t c = 0; c < x->prog->ncode; c++) {
        const wg_ins *in = &x->prog->code[c];
        if (in->op == OP_TEX_SAMPLE || in->op == OP_TEX_SAMPLE_ANY) {
            ep->pairs[ep->npairs][0] = in->imm;
            ep->pairs[ep->npairs++][1] = in->e;
        }
    }
    ep->entries = calloc(n ? n : 1, sizeof *ep->entries);
    ep->names = calloc(n ? n : 1, sizeof *ep->names);
    ep->sample_types = calloc(n ? n : 1, sizeof *ep->sample_types);
    if (!ep->entries || !ep->names || !ep->sample_types)
        return false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < x->ast->n; i++) {
        const wg_global *g = &x->globals[i];
        if (!used_resource(g))
            continue;
        stex_layout_entry *e = &ep->entries[k];
        ep->names[k++] = g->decl->name;
        e->group = STEX_BINDING_GROUP(g->val.ref.binding);
        e->binding = STEX_BINDING_NUMBER(g->val.ref.binding);
        e->visibility = STEX_STAGE_COMPUTE;
        const wg_type *t = wg_ty(x->types, g->val.type);
        if (t->kind == TY_STORAGE_TEXTURE) {
            e->type = STEX_BINDING_STORAGE_TEXTURE;
            e->storage_texture.access = t->access;
            e->storage_texture.format = t->format;
            e->storage_texture.view_dimension = or_2d(t->dim);
        } else if (t->kind == TY_TEXTURE) {
            if ((t->n & WG_TEX_EXTERNAL) && !ep->external)
                ep->external = g->decl;
            e->type = STEX_BINDING_TEXTURE;
            e->texture_view_dimension = or_2d(t->dim);
            e->texture_multisampled = t->n & WG_TEX_MULTISAMPLED;
            /* layout 'auto' (WebGPU's default pipeline layout): a depth texture
             * is "depth", i32 / u32 ones "sint" / "uint", an f32 texture that a
             * sampler reads "float", one only loaded "unfilterable-float" */
            bool sampled = false;
            for (uint32_t c = 0; c < x->prog->ncode && !sampled; c++)
                sampled = (x->prog->code[c].op == OP_TEX_SAMPLE ||
                           x->prog->code[c].op == OP_TEX_SAMPLE_ANY) &&
                          x->prog->code[c].imm == g->val.ref.binding;
            e->texture_sample_type = t->n & WG_TEX_DEPTH ? STEX_SAMPLE_TYPE_DEPTH
                                   : t->elem == T_I32 ? STEX_SAMPLE_TYPE_SINT
                                   : t->elem == T_U32 ? STEX_SAMPLE_TYPE_UINT
                                   : sampled ? STEX_SAMPLE_TYPE_FLOAT
                                             : STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT;
            ep->sample_types[k - 1] = stex_sample_type_name(e->texture_sample_type);
        } else if (t->kind == TY_SAMPLER) {
            e->type = STEX_BINDING_SAMPLER;
            /* "non-filtering" when it only ever samples i32 / u32 textures (gathers) */
            bool used = false, int_only = true;
            for (uint32_t q = 0; q < ep->npairs; q++)
                if (ep->pairs[q][1] == g->val.ref.binding) {
                    used = true;
                    int_only &= int_texture(x, ep->pairs[q][0]);
                }
            e->sampler_type = t->n ? STEX_SAMPLER_BINDING_COMPARISON
                            : used && int_only ? STEX_SAMPLER_BINDING_NON_FILTERING
                                               : STEX_SAMPLER_BINDING_FILTERING;
        } else {
            e->type = g->val.ref.space == SP_UNIFORM ? STEX_BINDING_UNIFORM_BUFFER
                    : g->val.ref.access == STEX_ACCESS_READ_WRITE
                        ? STEX_BINDING_STORAGE_BUFFER : STEX_BINDING_READ_ONLY_STORAGE_BUFFER;
            /* minBindingSize: the store type's size, a runtime-sized array counted once */
            uint64_t size = t->size;
            if (t->kind == TY_ARRAY && t->n == 0)
                size = t->stride;
            else if (t->kind == TY_STRUCT && t->nmembers) {
                const wg_member *last = &t->members[t->nmembers - 1];
                const wg_type *lt = wg_ty(x->types, last->type);
                if (lt->kind == TY_ARRAY && lt->n == 0)
                    size = (last->offset + lt->stride + t->align - 1) / t->align * t->align;
            }
            e->buffer.min_binding_size = size;
        }
    }
    binding_collisions(x);
    ep->pub.entries = ep->entries;
    ep->pub.entry_count = n;
    ep->pub.binding_names = ep->names;
    ep->pub.sample_types = ep->sample_types;
    return true;
}

/* The shortest of %.15g / %.17g that reads back as v. */
static const char *shortest(char buf[32], double v)
{
    snprintf(buf, 32, "%.15g", v);
    if (strtod(buf, NULL) != v)
        snprintf(buf, 32, "%.17g", v);
    return buf;
}

/* An override's key in a pipeline's constants: its @id in decimal, else its name. */
typedef struct override_key {
    char id[24];      /* "" without @id */
    const char *name;
    uint32_t k;       /* index in m->overrides */
} override_key;

static const char *key_of(const override_key *e) { return e->id[0] ? e->id : e->name; }

static int key_cmp(const void *a, const void *b)
{
    return strcmp(key_of(a), key_of(b));
}

/* A pipeline's constants resolved against the module's overrides (WebGPU
 * GPUProgrammableStage.constants): each key is the identifier string of one
 * override - its @id in decimal when it has one, else its name - and each
 * value is converted "to WGSL type": bool is value != 0 (NaN false), i32 and
 * u32 are [EnforceRange] (finite, truncated, in range), f32 is a finite
 * double whose rounding to f32 is finite.  STEX_VALIDATION_ERROR names the
 * key and the rule; *out is freed by the caller. */
static stex_status resolve_sorted(const stex_wgsl_module *m, const stex_wgsl_options *opt,
                                  uint32_t n, override_key *keys, bool *given, constants *out)
{
    if (!out->v || !keys || !given)
        return stex_fail(STEX_OUT_OF_MEMORY, "createComputePipeline: out of memory");
    if (n && !opt->overrides)
        return stex_fail(STEX_INVALID_ARGUMENT, "createComputePipeline: %u constants but "
                         "overrides is NULL", n);
    for (uint32_t k = 0; k < m->noverrides; k++) {
        if (m->overrides[k].id >= 0)
            snprintf(keys[k].id, sizeof keys[k].id, "%" PRId64, m->overrides[k].id);
        keys[k].name = m->overrides[k].name;
        keys[k].k = k;
    }
    qsort(keys, m->noverrides, sizeof *keys, key_cmp);
    for (uint32_t i = 0; i < n; i++) {
        const char *key = opt->overrides[i].name;
        double v = opt->overrides[i].value;
        const override_key want = {.name = key}, *found =
            key ? bsearch(&want, keys, m->noverrides, sizeof *keys, key_cmp) : NULL;
        const stex_wgsl_override_info *o = found ? &m->overrides[found->k] : NULL;
        if (!o) {
            char keys[512] = "";
            size_t at = 0;
            for (uint32_t k = 0; k < m->noverrides && at < sizeof keys; k++) {
                char id[24];
                snprintf(id, sizeof id, "%" PRId64, m->overrides[k].id);
                at += (size_t)snprintf(keys + at, sizeof keys - at, "%s\"%s\"", k ? ", " : "",
                                       m->overrides[k].id >= 0 ? id : m->overrides[k].name);
            }
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: constants[\"%s\"]: "
                             "%s has no override with this key (an override's @id in decimal, "
                             "else its name); its keys: %s [pipeline-constants]",
                             key ? key : "(null)", m->filename, at ? keys : "none");
        }
        if (given[found->k])
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: constants[\"%s\"]: "
                             "override '%s' is given twice [pipeline-constants]", key, o->name);
        given[found->k] = true;
        bool is_int = !strcmp(o->type, "i32") || !strcmp(o->type, "u32");
        char num[32];
        if (is_int) { /* [EnforceRange] long / unsigned long */
            double t = trunc(v);
            double lo = o->type[0] == 'i' ? -2147483648.0 : 0.0;
            double hi = o->type[0] == 'i' ? 2147483647.0 : 4294967295.0;
            if (!isfinite(v) || t < lo || t > hi)
                return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: constants[\"%s\"]: "
                                 "%s is not a value of %s (WebGPU converts with [EnforceRange]: "
                                 "finite, truncated, in %.0f..%.0f) [pipeline-constants]", key,
                                 shortest(num, v), o->type, lo, hi);
            v = t;
        } else if (!strcmp(o->type, "f32")) {
            if (!isfinite(v) || !isfinite((float)v))
                return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: constants[\"%s\"]: "
                                 "%s is not a finite f32 [pipeline-constants]", key,
                                 shortest(num, v));
        } else {
            v = v != 0 && !isnan(v);
        }
        out->v[out->n++] = (wg_override_value){o->name, v};
    }
    return STEX_OK;
}

/* Each constant's override found through the module's keys sorted once:
 * n log n for any number of constants and overrides (a caller may give
 * thousands). */
static stex_status resolve_constants(const stex_wgsl_module *m, const stex_wgsl_options *opt,
                                     constants *out)
{
    uint32_t n = opt ? opt->override_count : 0;
    out->n = 0;
    out->v = calloc(n ? n : 1, sizeof *out->v);
    override_key *keys = calloc(m->noverrides ? m->noverrides : 1, sizeof *keys);
    bool *given = calloc(m->noverrides ? m->noverrides : 1, sizeof *given);
    stex_status st = resolve_sorted(m, opt, n, keys, given, out);
    free(keys);
    free(given);
    if (!st) /* lowering looks each override's value up by name */
        qsort(out->v, out->n, sizeof *out->v, wg_override_cmp);
    return st;
}

/* Lowers entry point fn (or checks function fn alone); the program in *prog. */
static bool lower(stex_wgsl_module *m, const wg_decl *fn, bool entry, wg_diags *d,
                  const constants *opt, wg_program *prog, entry_info *ep)
{
    wg_ctx x;
    ctx_init(&x, m, d, prog, opt);
    bool vertex = wg_find_attr(fn->attrs, fn->nattrs, "vertex") != NULL;
    /* a vertex shader has no fragment-stage builtins either */
    x.stage_free = !entry && !vertex;
    x.inline_total = opt ? NULL : &m->inlined;
    if (entry)
        workgroup_size(&x, fn, ep->pub.workgroup_size);
    if (!x.oom)
        wg_lower_function(&x, fn, entry);
    m->limited |= x.limit_hit;
    bool ok = !x.oom;
    if (ok && !opt && (vertex || wg_find_attr(fn->attrs, fn->nattrs, "fragment")))
        graphics_entry_check(&x, fn, vertex);
    const wg_attr *stage = wg_stage_attr(fn->attrs, fn->nattrs);
    if (ok && !opt && stage)
        wg_entry_io_check(&x, fn, stage->name);
    if (ok && entry) {
        ep->pub.workgroup_memory_size = (x.wg_memory + 3) / 4 * 4;
        ep->pub.workgroup_memory_by_override = x.wg_memory_pending;
        ep->pub.uses_barriers = x.uses_barriers;
        ok = reflect(&x, ep);
        if (ok && ep->want_locs) /* NULL (out of memory): reports without names */
            ep->locs = wg_locmap_build(x.types, x.globals, x.ast->n);
    }
    if (x.oom)
        wg_error(d, fn->loc, "resources", "out of memory while compiling '%s'", fn->name);
    ctx_free(&x);
    return ok;
}

/* Records override declaration d (analysing it) in m->overrides. */
static void override_info(stex_wgsl_module *m, wg_ctx *x, wg_ctx *defaults, const wg_decl *d)
{
    wg_global *g = wg_global_find(x, d->name, d->loc);
    stex_wgsl_override_info *o = m->overrides;
    if (m->noverrides == m->overrides_cap) { /* doubling: many overrides stay linear */
        uint32_t cap = m->overrides_cap ? 2 * m->overrides_cap : 16;
        o = realloc(m->overrides, cap * sizeof *o);
        if (!o) {
            x->oom = true;
            return;
        }
        m->overrides = o;
        m->overrides_cap = cap;
    }
    o = &o[m->noverrides++];
    *o = (stex_wgsl_override_info){.name = d->name, .type = "f32", .id = -1};
    const wg_attr *id = wg_find_attr(d->attrs, d->nattrs, "id");
    if (id && id->nargs == 1) {
        uint32_t overrides = x->override_uses;
        wg_val v = wg_expr_lower(x, id->args[0]);
        if (v.kind != V_ERROR && x->override_uses != overrides) { /* a default folds, yet */
            WG_ERR(x, id->args[0]->loc, "override-decls", "@id takes a const-expression; it "
                   "names an override");
            v = wg_error_val();
        }
        if (v.kind == V_CONST && wg_type_is_integer(x->types, v.type) &&
            wg_type_is_scalar(x->types, v.type))
            o->id = x->types->t[v.type].kind == TY_AINT ? v.c[0].i
                  : x->types->t[v.type].kind == TY_I32 ? (int32_t)v.c[0].u : (int64_t)v.c[0].u;
        else if (v.kind != V_ERROR)
            WG_ERR(x, id->args[0]->loc, "override-decls", "@id takes a constant integer");
        /* WGSL: 0..65535, and no two overrides share one */
        if (v.kind == V_CONST && (o->id < 0 || o->id > 65535)) {
            WG_ERR(x, id->args[0]->loc, "override-decls", "@id(%lld) is not in 0..65535",
                   (long long)o->id);
            o->id = -1;
        }
        if (o->id >= 0 && !m->id_owner && !(m->id_owner = calloc(65536, sizeof *m->id_owner)))
            x->oom = true;
        if (o->id >= 0 && m->id_owner) {
            uint32_t *owner = &m->id_owner[o->id];
            if (*owner)
                WG_ERR(x, id->args[0]->loc, "override-decls", "@id(%lld) is already the id of "
                       "override '%s'", (long long)o->id, m->overrides[*owner - 1].name);
            else
                *owner = m->noverrides;
        }
    }
    if (!g || (g->val.kind != V_CONST && g->val.kind != V_REG))
        return;
    /* a pending override's default depends on one the pipeline gives: NaN */
    const wg_global *gd = defaults ? wg_global_find(defaults, d->name, d->loc) : NULL;
    wg_val val = gd && gd->val.kind == V_CONST ? gd->val : g->val;
    bool known = val.kind == V_CONST;
    switch (x->types->t[val.type].kind) {
    case TY_BOOL:
        o->type = "bool", o->default_value = known ? val.c[0].u != 0 : NAN;
        break;
    case TY_I32:
        o->type = "i32", o->default_value = known ? (int32_t)val.c[0].u : NAN;
        break;
    case TY_U32:
        o->type = "u32", o->default_value = known ? val.c[0].u : NAN;
        break;
    default: {
        float f = NAN;
        if (known)
            memcpy(&f, &val.c[0].u, 4);
        o->type = "f32", o->default_value = f;
        break;
    }
    }
    o->has_default = d->init != NULL;
}

/* Names declared twice at module scope (WGSL 5: one declaration per name). */
static void check_names(stex_wgsl_module *m)
{
    for (uint32_t i = 0; i < m->ast.n; i++) {
        const wg_decl *a = m->ast.decls[i];
        int32_t first = a->name ? wg_ast_find(&m->ast, a->name) : -1;
        if (first >= 0 && (uint32_t)first != i)
            wg_error(&m->diags, a->loc, "declaration", "'%s' is already declared at line %u",
                     a->name, m->ast.decls[first]->loc.line);
    }
    /* WGSL forbids recursion, also through other functions (a call inlined
     * into its caller does not see it: the callee's errors are its own) */
    uint32_t path[WG_CYCLE_SHOWN], n = 0;
    wg_loc at;
    if (m->diags.count || !wg_call_cycle(&m->ast, path, &n, &at) || n < 2)
        return;
    char chain[WG_CYCLE_SHOWN * 72] = "", *c = chain;
    for (uint32_t i = 0; i < n; i++)
        c += snprintf(c, (size_t)(chain + sizeof chain - c), "'%.60s' -> ",
                      m->ast.decls[path[i]]->name);
    wg_error(&m->diags, at, "recursion", "'%s' calls '%s', which calls it back (%s%s'%s'): "
             "recursion is not allowed in WGSL", m->ast.decls[path[n - 1]]->name,
             m->ast.decls[path[0]]->name, chain, n == WG_CYCLE_SHOWN ? "... -> " : "",
             m->ast.decls[path[0]]->name);
}

stex_status stex_wgsl_module_create(const char *source, const char *filename,
                                    stex_wgsl_module **out)
{
    return stex_wgsl_module_create_for(NULL, source, filename, out);
}

static stex_status module_create(const stex_profile *p, const char *source, size_t length,
                                 const char *filename, stex_wgsl_module **out);

stex_status stex_wgsl_module_create_for(const stex_profile *p, const char *source,
                                        const char *filename, stex_wgsl_module **out)
{
    return module_create(p, source, source ? strlen(source) : 0, filename, out);
}

stex_status stex_wgsl_module_create_n(const stex_profile *p, const char *source, size_t length,
                                      const char *filename, stex_wgsl_module **out)
{
    return module_create(p, source, length, filename, out);
}

/* The text's first NUL byte, as a position (WGSL 3: the program text must
 * not include the null code point); {0, 0} when it has none. */
static wg_loc nul_at(const char *s, size_t n)
{
    const char *z = memchr(s, 0, n);
    if (!z)
        return (wg_loc){0, 0};
    wg_loc loc = {1, 1};
    for (const char *c = s; c < z; c++)
        if (*c == '\n')
            loc.line++, loc.col = 1;
        else if (((unsigned char)*c & 0xc0u) != 0x80u) /* columns count code points */
            loc.col++;
    return loc;
}

static void check_module(stex_wgsl_module *m);

static stex_status module_create(const stex_profile *p, const char *source, size_t length,
                                 const char *filename, stex_wgsl_module **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_module_create: out is NULL");
    *out = NULL;
    if (!source)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_module_create: source is NULL");
    stex_wgsl_module *m = calloc(1, sizeof *m);
    if (!m)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_module_create: out of memory");
    m->const_rule = stex_math_const_rule(p);
    m->matmul = stex_math_matmul_rule(p);
    m->unroll = stex_math_float_rewrite_rule(p) == STEX_FLOAT_REWRITE_NVIDIA;
    /* its compiler converts quantizeToF16's value with a flushing f32->f16
     * conversion (probe quantize, tests/data/nvprobe rounds 1 and 2: each
     * of the 87 rows that differed is an f16 subnormal the device returns
     * as a zero of its sign), where pack2x16float keeps f16 subnormals
     * (../shared/conformance's NVIDIA rows: 2^-24 packs to 0x0001) */
    m->quantize_ftz = m->unroll;
    /* the text up to the limit (a longer one is refused below, unread) */
    size_t kept = length > STEX_WGSL_MAX_SOURCE_BYTES ? 0 : length;
    m->source = malloc(kept + 1);
    if (m->source) {
        memcpy(m->source, source, kept);
        m->source[kept] = 0;
    }
    m->filename = strdup(filename ? filename : "shader.wgsl");
    if (!m->source || !m->filename || !wg_types_init(&m->types)) {
        stex_wgsl_module_destroy(m);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_module_create: out of memory");
    }
    m->diags.source = m->source;
    m->diags.filename = m->filename;
    wg_loc nul = nul_at(m->source, kept);
    if (length > STEX_WGSL_MAX_SOURCE_BYTES)
        wg_error(&m->diags, (wg_loc){1, 1}, "limits", "the module is %zu bytes; stex takes at "
                 "most %u bytes (16 MiB) of WGSL text", length,
                 (unsigned)STEX_WGSL_MAX_SOURCE_BYTES);
    else if (nul.line)
        wg_error(&m->diags, nul, "textual-structure", "the text contains a NUL byte (U+0000), "
                 "which WGSL forbids");
    else {
        uintptr_t stack = wg_stack_begin();
        check_module(m);
        wg_stack_end(stack);
    }
    wg_diags_sort(&m->diags);
    m->text = wg_diags_text(&m->diags);
    *out = m;
    if (m->diags.count)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: %zu error%s in the WGSL module",
                         m->filename, m->diags.count, m->diags.count == 1 ? "" : "s");
    return STEX_OK;
}

stex_status stex_wgsl_expression_length(const char *text, size_t *length)
{
    if (!text || !length)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_expression_length: text or length "
                         "is NULL");
    *length = 0;
    size_t n = strlen(text);
    if (n > STEX_WGSL_MAX_SOURCE_BYTES)
        return stex_fail(STEX_VALIDATION_ERROR, "the expression is %zu bytes; stex takes at most "
                         "%u [limits]", n, (unsigned)STEX_WGSL_MAX_SOURCE_BYTES);
    wg_diags d = {.source = text, .filename = "expression"};
    wg_token *t = NULL;
    uint32_t nt = 0, end = 0;
    wg_arena arena = {0};
    wg_lex(text, &d, &t, &nt);
    bool ok = t && nt > 1 && !d.count;
    if (ok)
        ok = wg_parse_expression(t, nt, &arena, &d, &end) && end > 0;
    else if (t && nt <= 1)
        wg_error(&d, (wg_loc){1, 1}, "syntax", "expected an expression, found end of text");
    stex_status st = STEX_OK;
    if (ok) {
        *length = (size_t)(t[end - 1].text - text) + t[end - 1].len;
    } else {
        char *msg = wg_diags_text(&d);
        const char *first = msg ? msg : "expression: syntax error\n";
        st = stex_fail(STEX_VALIDATION_ERROR, "%.*s", (int)strcspn(first, "\n"), first);
        free(msg);
    }
    wg_arena_free(&arena);
    wg_diags_free(&d);
    free(t);
    return st;
}

/* Lexes, parses and checks m's source into m (diagnostics in m->diags). */
/* An entry point's workgroup size and memory under the overrides' defaults,
 * for reflection: the module's own check leaves what an override decides to
 * the pipeline (lower_module.c's override()). */
static void reflect_defaults(stex_wgsl_module *m, entry_info *src)
{
    constants none = {0};
    wg_diags diags = {.source = m->source, .filename = m->filename};
    entry_info ep = {.decl = src->decl, .pub = {.name = src->pub.name}};
    wg_program prog;
    if (lower(m, src->decl, true, &diags, &none, &prog, &ep) && !diags.count) {
        memcpy(src->pub.workgroup_size, ep.pub.workgroup_size, sizeof ep.pub.workgroup_size);
        src->pub.workgroup_memory_size = ep.pub.workgroup_memory_size;
        src->pub.workgroup_memory_by_override = ep.pub.workgroup_memory_by_override;
    }
    program_free(&prog);
    wg_diags_free(&diags);
    entry_info_free(&ep);
}

static void check_module(stex_wgsl_module *m)
{
    wg_lex(m->source, &m->diags, &m->tokens, &m->ntokens);
    if (m->tokens)
        wg_parse(m->tokens, m->ntokens, &m->arena, &m->diags, &m->ast);
    if (!m->diags.count) { /* semantic checks only on a tree without syntax errors */
        check_names(m);
        uint32_t neps = 0;
        for (uint32_t i = 0; i < m->ast.n; i++)
            if (m->ast.decls[i]->kind == D_FN &&
                wg_find_attr(m->ast.decls[i]->attrs, m->ast.decls[i]->nattrs, "compute"))
                neps++;
        m->eps = calloc(neps ? neps : 1, sizeof *m->eps);
        /* the module-scope declarations are checked in one context, so each
         * is analysed once however long the chains of names between them */
        wg_ctx x;
        wg_program prog_x;
        ctx_init(&x, m, &m->diags, &prog_x, NULL);
        /* the overrides' defaults for reflection, as a pipeline given no
         * constants sees them (quiet: x reports each error once) */
        wg_ctx xd;
        wg_program prog_d;
        wg_diags quiet = {.quiet = true};
        constants none = {0};
        ctx_init(&xd, m, &quiet, &prog_d, &none);
        xd.zeros = NULL; /* Dawn's first f32 zero is x's to meet */
        /* under Dawn's rule in its front end's order, since the first f32
         * zero that makes is every zero of the module (decl_order.c); the
         * entry points and overrides are listed in source order all the same */
        uint32_t *order = m->const_rule == STEX_CONST_TINT ? wg_decl_order(&m->ast) : NULL;
        uint32_t *slot = order ? calloc(m->ast.n, sizeof *slot) : NULL;
        for (uint32_t i = 0, k = 0; slot && i < m->ast.n; i++)
            if (m->ast.decls[i]->kind == D_FN &&
                wg_find_attr(m->ast.decls[i]->attrs, m->ast.decls[i]->nattrs, "compute"))
                slot[i] = k++;
        if (!slot) {
            free(order);
            order = NULL;
        }
        for (uint32_t j = 0; m->eps && j < m->ast.n; j++) {
            uint32_t i = order ? order[j] : j;
            const wg_decl *d = m->ast.decls[i];
            wg_program prog = {0};
            if (d->kind == D_FN) {
                bool entry = wg_find_attr(d->attrs, d->nattrs, "compute") != NULL;
                entry_info *ep = entry ? &m->eps[order ? slot[i] : m->neps] : NULL;
                m->neps += entry;
                if (ep) {
                    ep->decl = d;
                    ep->pub.name = d->name;
                }
                if (!m->limited) /* past a limit, more lowering only repeats it */
                    lower(m, d, entry, &m->diags, NULL, &prog, ep);
                program_free(&prog);
            } else if (d->kind == D_CONST_ASSERT || d->kind == D_CONST || d->kind == D_STRUCT ||
                       d->kind == D_ALIAS || d->kind == D_VAR || d->kind == D_OVERRIDE ||
                       d->kind == D_LET) { /* a module-scope let: its error */
                /* module-scope declarations are checked even if nothing uses them */
                x.line = d->loc.line;
                uint32_t overrides = x.override_uses;
                if (!x.oom && d->kind == D_CONST_ASSERT) {
                    wg_val c = wg_expr_lower(&x, d->init);
                    if (c.kind != V_ERROR && (c.kind != V_CONST || x.override_uses > overrides))
                        wg_error(&m->diags, d->init->loc, "const-assert", "const_assert takes "
                                 "a const-expression (no override)");
                    else if (c.kind == V_CONST && c.type != T_BOOL)
                        wg_error(&m->diags, d->init->loc, "const-assert", "const_assert needs "
                                 "a bool, not %s", wg_tname(&x, c.type));
                    else if (c.kind == V_CONST && !c.c[0].u)
                        wg_error(&m->diags, d->loc, "const-assert", "const_assert failed");
                } else if (!x.oom && d->name) {
                    wg_expr id = {.kind = E_IDENT, .loc = d->loc, .name = d->name};
                    if (d->kind == D_STRUCT || d->kind == D_ALIAS)
                        wg_resolve_type(&x, &id);
                    else if (d->kind != D_OVERRIDE || order)
                        wg_global_find(&x, d->name, d->loc); /* order: its info below */
                    else
                        override_info(m, &x, &xd, d);
                }
            }
        }
        for (uint32_t i = 0; order && i < m->ast.n; i++)
            if (!x.oom && m->ast.decls[i]->kind == D_OVERRIDE && m->ast.decls[i]->name) {
                x.line = m->ast.decls[i]->loc.line;
                override_info(m, &x, &xd, m->ast.decls[i]);
            }
        free(order);
        free(slot);
        ctx_free(&x);
        program_free(&prog_x);
        ctx_free(&xd);
        program_free(&prog_d);
        wg_diags_free(&quiet);
    }
    for (uint32_t i = 0; !m->diags.count && i < m->neps; i++) {
        const uint32_t *ws = m->eps[i].pub.workgroup_size;
        if (!ws[0] || !ws[1] || !ws[2] || m->eps[i].pub.workgroup_memory_by_override)
            reflect_defaults(m, &m->eps[i]);
    }
    /* aliased pointer arguments (WGSL "Alias Analysis"): at every call of
     * every function, entry point or not, once the module otherwise checks */
    if (!m->diags.count)
        wg_alias_analysis(&m->ast, &m->diags);
    /* uniformity: only of entry points that otherwise check (WGSL 14.2) */
    for (uint32_t i = 0; !m->diags.count && i < m->neps; i++)
        wg_uniformity(&m->ast, m->eps[i].decl, false, &m->diags);
    /* a fragment entry point's derivatives (never run here, but WGSL checks
     * them at module creation): derivative_uniformity, under the module's
     * diagnostic filters */
    for (uint32_t i = 0; !m->diags.count && i < m->ast.n; i++) {
        const wg_decl *d = m->ast.decls[i];
        if (d->kind == D_FN && wg_find_attr(d->attrs, d->nattrs, "fragment"))
            wg_uniformity(&m->ast, d, true, &m->diags);
    }
    /* statements after a return, break or continue: a warning, as Dawn's
     * front end gives under the rule name a filter turns off */
    for (uint32_t i = 0; !m->diags.count && i < m->ast.nunreachable; i++) {
        wg_loc at = m->ast.unreachable[i];
        int sev = wg_ast_severity(&m->ast, "chromium.unreachable_code", at, WG_WARNING);
        if (sev >= 0)
            wg_report(&m->diags, (wg_severity)sev, at, "chromium.unreachable_code",
                      "code is unreachable");
    }
}

void stex_wgsl_module_destroy(stex_wgsl_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->neps; i++) {
        entry_info_free(&m->eps[i]);
    }
    free(m->eps);
    free(m->overrides);
    free(m->id_owner);
    wg_types_free(&m->types);
    wg_ast_free(&m->ast);
    wg_arena_free(&m->arena);
    free(m->tokens);
    free(m->text);
    wg_diags_free(&m->diags);
    free(m->source);
    free(m->filename);
    free(m);
}

const char *stex_wgsl_module_diagnostics(const stex_wgsl_module *m)
{
    return m && m->text ? m->text : "";
}

size_t stex_wgsl_module_diagnostic_count(const stex_wgsl_module *m)
{
    return m ? m->diags.n : 0;
}

bool stex_wgsl_module_diagnostic_at(const stex_wgsl_module *m, size_t i,
                                    stex_wgsl_diagnostic *out)
{
    if (!m || !out || i >= m->diags.n)
        return false;
    const wg_diag *g = &m->diags.items[i];
    *out = (stex_wgsl_diagnostic){(stex_wgsl_severity)g->severity, g->rule, g->loc.line,
                                  g->loc.col, g->message};
    return true;
}

size_t stex_wgsl_module_error_count(const stex_wgsl_module *m)
{
    return m ? m->diags.count : 0;
}

uint32_t stex_wgsl_entry_point_count(const stex_wgsl_module *m) { return m ? m->neps : 0; }

const stex_wgsl_entry_point *stex_wgsl_entry_point_at(const stex_wgsl_module *m, uint32_t i)
{
    return m && i < m->neps ? &m->eps[i].pub : NULL;
}

const stex_wgsl_entry_point *stex_wgsl_entry_point_find(const stex_wgsl_module *m,
                                                        const char *name)
{
    for (uint32_t i = 0; m && i < m->neps; i++)
        if (!name || !strcmp(m->eps[i].pub.name, name))
            return &m->eps[i].pub;
    return NULL;
}

/* phase_executor.location_name: the pipeline's memory named in WGSL's terms. */
static bool location_name(void *user, stex_race_memory m, uint32_t ref, uint64_t byte,
                          char *buf, size_t size)
{
    const wg_exec_program *xp = user;
    return wg_locmap_name(xp->locs, m, ref, byte, buf, size);
}

static void program_destroy(void *user)
{
    wg_exec_program *xp = user;
    wg_executor_release(xp);
    wg_locmap_free(xp->locs);
    program_free(&xp->prog);
    wg_unprepare(xp);
    free(xp->consts);
    free(xp->filename);
    free(xp);
}

static stex_status pipeline_create(stex_device *d, const stex_wgsl_module *mod,
                                   const char *entry_point, const stex_wgsl_options *opt,
                                   stex_pipeline **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_pipeline_create: out is NULL");
    *out = NULL;
    if (!d || !mod)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_pipeline_create: device or module "
                         "is NULL");
    stex_wgsl_module *m = (stex_wgsl_module *)(uintptr_t)mod; /* the arena and types grow */
    if (m->diags.count)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_pipeline_create: %s has %zu errors",
                         m->filename, m->diags.count);
    if (!entry_point && m->neps != 1)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_pipeline_create: %s has %u entry "
                         "points; name one", m->filename, m->neps);
    entry_info *src = NULL;
    for (uint32_t i = 0; i < m->neps; i++)
        if (!entry_point || !strcmp(m->eps[i].pub.name, entry_point))
            src = &m->eps[i];
    if (!src)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_pipeline_create: %s has no "
                         "@compute entry point '%s'", m->filename, entry_point);
    if (src->external) /* valid WGSL that stex cannot run: no GPUExternalTexture */
        return stex_fail(STEX_TYPE_ERROR, "createComputePipeline: %s:%u:%u: entry point '%s' "
                         "uses texture_external '%s'; stex has no external textures (video "
                         "frames), so it cannot run it", m->filename, src->external->loc.line,
                         src->external->loc.col, src->pub.name, src->external->name);
    /* WGSL 4.1.1: `enable f16;` is valid only on a device with shader-f16 */
    if (m->ast.enable_f16 && !(stex_device_features(d) & STEX_FEATURE_SHADER_F16))
        return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: %s:%u:%u: error: "
                         "'enable f16;' needs the device feature 'shader-f16', which this "
                         "device was not created with [enable-extension]", m->filename,
                         m->ast.enable_f16_loc.line, m->ast.enable_f16_loc.col);
    if (m->ast.enable_subgroups && !(stex_device_features(d) & STEX_FEATURE_SUBGROUPS))
        return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: %s:%u:%u: error: "
                         "'enable subgroups;' needs the device feature 'subgroups', which this "
                         "device was not created with [enable-extension]", m->filename,
                         m->ast.enable_subgroups_loc.line, m->ast.enable_subgroups_loc.col);
    uint32_t width = opt && opt->subgroup_width ? opt->subgroup_width
                                                  : STEX_WGSL_SUBGROUP_WIDTH_DEFAULT;
    if (width > 64)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_pipeline_create: subgroup_width %u "
                         "is not in 1..64", width);
    constants cv;
    stex_status cst = resolve_constants(m, opt, &cv);
    if (cst) {
        free(cv.v);
        return cst;
    }
    wg_exec_program *xp = calloc(1, sizeof *xp);
    if (!xp) {
        free(cv.v);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_pipeline_create: out of memory");
    }
    xp->width = width;
    xp->uid = wg_program_uid();
    xp->max_steps = opt && opt->max_steps ? opt->max_steps : (1ull << 32);
    /* the pipeline's own copy: it may outlive the module (runtime errors, race sites) */
    if (!(xp->filename = strdup(m->filename))) {
        free(xp);
        free(cv.v);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_pipeline_create: out of memory");
    }
    /* lower again, with the overrides of this pipeline */
    wg_diags diags = {.source = m->source, .filename = m->filename};
    entry_info ep = {.decl = src->decl, .pub = {.name = src->pub.name}, .want_locs = true};
    bool ok = lower(m, src->decl, true, &diags, &cv, &xp->prog, &ep);
    xp->locs = ep.locs; /* the pipeline's from here on */
    free(cv.v);
    if (ok && !diags.count)
    {
        if (!opt || !opt->allowed) /* allowed mode runs the program as written */
            wg_opt_float_rewrites(xp, stex_device_profile(d)); /* the device compiler's */
        wg_optimize(xp); /* out of memory: the program as lowered */
        wg_prepare(xp); /* out of memory: zero_regs NULL, every register zeroed */
        /* the profile's tables for the builtins it calls are loaded here,
         * so the first dispatch's time is the dispatch's (nvidia: ~0.4 s) */
        for (uint32_t k = 0; k < xp->prog.ncode; k++)
            if (xp->prog.code[k].op == OP_MATH || xp->prog.code[k].op == OP_MATHV)
                stex_math_prepare(stex_device_profile(d), (stex_math_fn)xp->prog.code[k].imm);
    }
    stex_status st = STEX_OK;
    if (!ok || diags.count) {
        char *text = wg_diags_text(&diags);
        st = stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: %s", text ? text : "");
        free(text);
    } else if (opt && opt->layout &&
               (st = stex_wgsl_layout_check(m, src->pub.name, opt->layout, opt->layout_count))) {
        ; /* the explicit layout does not fit the shader */
    } else {
        bool own = opt && opt->layout;
        stex_pipeline_desc pd = {.workgroup_size = {ep.pub.workgroup_size[0],
                                                    ep.pub.workgroup_size[1],
                                                    ep.pub.workgroup_size[2]},
                                 .entries = own ? opt->layout : ep.entries,
                                 .entry_count = own ? opt->layout_count : ep.pub.entry_count,
                                 .workgroup_memory_size = ep.pub.workgroup_memory_size,
                                 .uses_barriers = ep.pub.uses_barriers,
                                 .label = ep.pub.name,
                                 .shared_layout = own /* explicit: group-equivalent bind groups */};
        xp->allowed = opt ? opt->allowed : NULL;
        wg_executor_setup(xp, stex_device_profile(d), opt ? opt->executor : 0);
        phase_executor x = {xp->allowed ? wg_ival_run_workgroup : wg_run_workgroup, xp,
                            program_destroy, wg_site_name, location_name};
        st = pipeline_create_with_executor(d, &pd, &x, out);
    }
    wg_diags_free(&diags);
    entry_info_free(&ep);
    if (st)
        program_destroy(xp);
    return st;
}

/* A texture or sampler entry of an explicit layout against the shader's
 * type: the same view dimension and multisampled; sampleType "depth" for a
 * depth texture, "sint" / "uint" for i32 / u32, "float" or
 * "unfilterable-float" for f32; a
 * sampler_comparison needs "comparison", a sampler anything else. */
static stex_status sampled_binding_check(const stex_wgsl_entry_point *ep, uint32_t i,
                                         const stex_layout_entry *l)
{
    const stex_layout_entry *s = &ep->entries[i];
    if (s->type == STEX_BINDING_SAMPLER) {
        bool lc = l->sampler_type == STEX_SAMPLER_BINDING_COMPARISON;
        bool sc = s->sampler_type == STEX_SAMPLER_BINDING_COMPARISON;
        if (lc != sc)
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's "
                             "sampler type %s for @group(%u) @binding(%u) does not fit the "
                             "shader's %s [layout-sampler-type]",
                             stex_sampler_binding_type_name(l->sampler_type), s->group,
                             s->binding, sc ? "sampler_comparison" : "sampler");
        return STEX_OK;
    }
    stex_view_dimension ld = l->texture_view_dimension ? l->texture_view_dimension
                                                       : STEX_VIEW_DIMENSION_2D;
    if (ld != s->texture_view_dimension)
        return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's view "
                         "dimension %s for @group(%u) @binding(%u) is not the shader's %s "
                         "[layout-view-dimension]", stex_view_dimension_name(ld), s->group,
                         s->binding, stex_view_dimension_name(s->texture_view_dimension));
    if (l->texture_multisampled != s->texture_multisampled)
        return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's "
                         "multisampled %s for @group(%u) @binding(%u) is not the shader's "
                         "[layout-multisampled]", l->texture_multisampled ? "true" : "false",
                         s->group, s->binding);
    stex_texture_sample_type lt = l->texture_sample_type ? l->texture_sample_type
                                                         : STEX_SAMPLE_TYPE_FLOAT;
    stex_texture_sample_type st = s->texture_sample_type;
    /* (the texture-sampler pair rule - a filtering sampler only with "float" - is
     * not checked here: stex accepts either float type for an f32 texture) */
    bool f32 = st == STEX_SAMPLE_TYPE_FLOAT || st == STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT;
    bool ok = lt == st || (f32 && (lt == STEX_SAMPLE_TYPE_FLOAT ||
                                   lt == STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT));
    if (!ok)
        return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's sampleType "
                         "%s for @group(%u) @binding(%u) does not fit the shader's %s ('%s') "
                         "[layout-sample-type]", stex_sample_type_name(lt), s->group,
                         s->binding, stex_sample_type_name(st), ep->binding_names[i]);
    return STEX_OK;
}

static const stex_layout_entry *layout_at(const stex_layout_entry *layout, uint32_t count,
                                          uint32_t ref)
{
    for (uint32_t j = 0; j < count; j++)
        if (STEX_BINDING(layout[j].group, layout[j].binding) == ref)
            return &layout[j];
    return NULL;
}

/* WebGPU's texture-sampler pairs: a sampler whose entry is "filtering" may
 * not sample a texture whose entry is "unfilterable-float", "sint" or "uint". */
static stex_status pair_check(const entry_info *ep, const stex_layout_entry *layout,
                              uint32_t count)
{
    for (uint32_t q = 0; q < ep->npairs; q++) {
        const stex_layout_entry *t = layout_at(layout, count, ep->pairs[q][0]);
        const stex_layout_entry *s = layout_at(layout, count, ep->pairs[q][1]);
        if (!t || !s || t->type != STEX_BINDING_TEXTURE || s->type != STEX_BINDING_SAMPLER)
            continue; /* the entries themselves are checked next */
        bool filtering = s->sampler_type == STEX_SAMPLER_BINDING_UNDEFINED ||
                         s->sampler_type == STEX_SAMPLER_BINDING_FILTERING;
        stex_texture_sample_type st = t->texture_sample_type;
        if (filtering && (st == STEX_SAMPLE_TYPE_UNFILTERABLE_FLOAT ||
                          st == STEX_SAMPLE_TYPE_SINT || st == STEX_SAMPLE_TYPE_UINT))
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the filtering "
                             "sampler @group(%u) @binding(%u) samples @group(%u) @binding(%u), "
                             "whose layout entry is \"%s\": a filtering sampler needs a "
                             "\"float\" texture [layout-texture-sampler-pair]", s->group,
                             s->binding, t->group, t->binding, stex_sample_type_name(st));
    }
    return STEX_OK;
}

/* GPUPipelineLayout vs the entry point's bindings (WebGPU "validating
 * shader binding"): every binding the entry point uses has a layout entry of
 * its kind; a storage texture's access, format and view dimension are the
 * shader's. */
stex_status stex_wgsl_layout_check(const stex_wgsl_module *m, const char *entry_point,
                                   const stex_layout_entry *layout, uint32_t count)
{
    if (!m || (count && !layout))
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_layout_check: module or layout is "
                         "NULL");
    const stex_wgsl_entry_point *ep =
        entry_point ? stex_wgsl_entry_point_find(m, entry_point)
                    : (m->neps == 1 ? &m->eps[0].pub : NULL);
    if (!ep)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_layout_check: no entry point '%s'",
                         entry_point ? entry_point : "(the only one)");
    stex_status pst = pair_check((const entry_info *)(const void *)ep, layout, count);
    if (pst)
        return pst;
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        const stex_layout_entry *s = &ep->entries[i], *l = NULL;
        for (uint32_t j = 0; j < count && !l; j++)
            if (layout[j].group == s->group && layout[j].binding == s->binding)
                l = &layout[j];
        if (!l)
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout has no "
                             "entry for @group(%u) @binding(%u) ('%s') [layout-binding]",
                             s->group, s->binding, ep->binding_names[i]);
        if (l->type != s->type)
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's entry "
                             "for @group(%u) @binding(%u) is of another binding type than "
                             "'%s' [layout-binding]", s->group, s->binding, ep->binding_names[i]);
        if (!(l->visibility & STEX_STAGE_COMPUTE))
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: binding %u of "
                             "@group(%u) ('%s') is not visible to the COMPUTE stage, but the "
                             "compute shader uses it [layout-visibility]", s->binding, s->group,
                             ep->binding_names[i]);
        if (s->type == STEX_BINDING_TEXTURE || s->type == STEX_BINDING_SAMPLER) {
            stex_status st = sampled_binding_check(ep, i, l);
            if (st)
                return st;
            continue;
        }
        if (s->type != STEX_BINDING_STORAGE_TEXTURE)
            continue;
        const stex_storage_texture_layout *a = &l->storage_texture, *b = &s->storage_texture;
        stex_access la = a->access ? a->access : STEX_ACCESS_WRITE_ONLY;
        stex_access sa = b->access ? b->access : STEX_ACCESS_WRITE_ONLY;
        stex_view_dimension ld = a->view_dimension ? a->view_dimension : STEX_VIEW_DIMENSION_2D;
        stex_view_dimension sd = b->view_dimension ? b->view_dimension : STEX_VIEW_DIMENSION_2D;
        /* WebGPU: a read-write entry also takes a write-only variable */
        if (la != sa && !(la == STEX_ACCESS_READ_WRITE && sa == STEX_ACCESS_WRITE_ONLY))
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's access "
                             "%s for @group(%u) @binding(%u) is not the shader's %s "
                             "[layout-storage-texture-access]", stex_access_name(la), s->group,
                             s->binding, stex_access_name(sa));
        if (a->format != b->format)
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's format "
                             "%s for @group(%u) @binding(%u) is not the shader's %s "
                             "[layout-storage-texture-format]", stex_format_name(a->format),
                             s->group, s->binding, stex_format_name(b->format));
        if (ld != sd)
            return stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: the layout's view "
                             "dimension %s for @group(%u) @binding(%u) is not the shader's %s "
                             "[layout-view-dimension]", stex_view_dimension_name(ld), s->group,
                             s->binding, stex_view_dimension_name(sd));
    }
    return STEX_OK;
}

uint32_t stex_wgsl_override_count(const stex_wgsl_module *m) { return m ? m->noverrides : 0; }

const stex_wgsl_override_info *stex_wgsl_override_at(const stex_wgsl_module *m, uint32_t i)
{
    return m && i < m->noverrides ? &m->overrides[i] : NULL;
}

static stex_status workgroup_size_of(const stex_wgsl_module *mod, const char *entry_point,
                                     const stex_wgsl_options *opt, uint32_t out[3],
                                     uint32_t *memory)
{
    if (!mod || !out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_workgroup_size: module or out is "
                         "NULL");
    stex_wgsl_module *m = (stex_wgsl_module *)(uintptr_t)mod; /* the arena and types grow */
    if (m->diags.count)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s has %zu errors", m->filename,
                         m->diags.count);
    if (!entry_point && m->neps != 1)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s has %u entry points; name one", m->filename,
                         m->neps);
    entry_info *src = NULL;
    for (uint32_t i = 0; i < m->neps; i++)
        if (!entry_point || !strcmp(m->eps[i].pub.name, entry_point))
            src = &m->eps[i];
    if (!src)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s has no @compute entry point '%s'",
                         m->filename, entry_point);
    constants cv;
    stex_status cst = resolve_constants(m, opt, &cv);
    if (cst) {
        free(cv.v);
        return cst;
    }
    wg_diags diags = {.source = m->source, .filename = m->filename};
    entry_info ep = {.decl = src->decl, .pub = {.name = src->pub.name}};
    wg_program prog;
    bool ok = lower(m, src->decl, true, &diags, &cv, &prog, &ep);
    free(cv.v);
    stex_status st = STEX_OK;
    if (!ok || diags.count) {
        char *text = wg_diags_text(&diags);
        st = stex_fail(STEX_VALIDATION_ERROR, "%s", text ? text : "out of memory");
        free(text);
    } else {
        memcpy(out, ep.pub.workgroup_size, sizeof ep.pub.workgroup_size);
        if (memory) /* var<workgroup> sized by the overrides given */
            *memory = ep.pub.workgroup_memory_size;
    }
    program_free(&prog);
    wg_diags_free(&diags);
    entry_info_free(&ep);
    return st;
}

/* Lowering recurses: both mark this thread's stack for wg_stack_ok. */
stex_status stex_wgsl_pipeline_create(stex_device *d, const stex_wgsl_module *mod,
                                      const char *entry_point, const stex_wgsl_options *opt,
                                      stex_pipeline **out)
{
    uintptr_t stack = wg_stack_begin();
    stex_status st = pipeline_create(d, mod, entry_point, opt, out);
    wg_stack_end(stack);
    return st;
}

stex_status stex_wgsl_workgroup_size(const stex_wgsl_module *m, const char *entry_point,
                                     const stex_wgsl_options *opt, uint32_t out[3])
{
    uintptr_t stack = wg_stack_begin();
    stex_status st = workgroup_size_of(m, entry_point, opt, out, NULL);
    wg_stack_end(stack);
    return st;
}

stex_status stex_wgsl_workgroup_memory_size(const stex_wgsl_module *m, const char *entry_point,
                                            const stex_wgsl_options *opt, uint32_t *bytes)
{
    uint32_t size[3];
    if (!bytes)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_workgroup_memory_size: bytes is NULL");
    uintptr_t stack = wg_stack_begin();
    stex_status st = workgroup_size_of(m, entry_point, opt, size, bytes);
    wg_stack_end(stack);
    return st;
}

/* Each override's value under opt's constants: the module-scope checks'
 * context again, with the constants, so an override-expression is
 * evaluated from the values given (m = n * 2 with n given 4: 8). */
static stex_status override_values(const stex_wgsl_module *mod, const stex_wgsl_options *opt,
                                   double *values)
{
    stex_wgsl_module *m = (stex_wgsl_module *)(uintptr_t)mod; /* the arena and types grow */
    if (m->diags.count)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s has %zu errors", m->filename,
                         m->diags.count);
    constants cv;
    stex_status st = resolve_constants(m, opt, &cv);
    if (st) {
        free(cv.v);
        return st;
    }
    wg_diags diags = {.source = m->source, .filename = m->filename};
    wg_program prog = {0};
    wg_ctx x;
    ctx_init(&x, m, &diags, &prog, &cv);
    uint32_t k = 0;
    for (uint32_t i = 0; i < m->ast.n && k < m->noverrides; i++) {
        const wg_decl *d = m->ast.decls[i];
        if (d->kind != D_OVERRIDE || !d->name)
            continue;
        const wg_global *g = x.oom ? NULL : wg_global_find(&x, d->name, d->loc);
        double v = NAN;
        if (g && g->val.kind == V_CONST) {
            switch (x.types->t[g->val.type].kind) {
            case TY_BOOL: v = g->val.c[0].u != 0; break;
            case TY_I32: v = (int32_t)g->val.c[0].u; break;
            case TY_U32: v = g->val.c[0].u; break;
            default: {
                float f;
                memcpy(&f, &g->val.c[0].u, 4);
                v = f;
            }
            }
        }
        values[k++] = v;
    }
    bool oom = x.oom;
    ctx_free(&x);
    program_free(&prog);
    free(cv.v);
    if (!oom && diags.count) {
        char *text = wg_diags_text(&diags);
        st = stex_fail(STEX_VALIDATION_ERROR, "%s", text ? text : "out of memory");
        free(text);
    } else if (oom) {
        st = stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_override_values: out of memory");
    }
    wg_diags_free(&diags);
    return st;
}

stex_status stex_wgsl_override_values(const stex_wgsl_module *m, const stex_wgsl_options *opt,
                                      double *values)
{
    if (!m || !values)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_override_values: module or values "
                         "is NULL");
    uintptr_t stack = wg_stack_begin();
    stex_status st = override_values(m, opt, values);
    wg_stack_end(stack);
    return st;
}
