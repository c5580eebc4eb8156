/* The public API of stex/wgsl.h: modules (parse, check, reflect) and
 * pipelines (lower an entry point, hand the interpreter to the engine). */
#include "stex/wgsl.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "dispatch/phase.h"
#include "wgsl/interp.h"
#include "wgsl/opt.h"
#include "wgsl/lower.h"
#include "wgsl/uniform.h"

void wg_lower_function(wg_ctx *x, const wg_decl *fn, bool entry);

typedef struct entry_info {
    stex_wgsl_entry_point pub;
    stex_layout_entry *entries;
    const char **names;
    const char **sample_types;
    const wg_decl *decl;
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
    uint32_t noverrides;
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
    for (uint32_t i = 0; i < a->nargs; i++) {
        wg_val v = wg_expr_lower(x, a->args[i]);
        if (v.kind == V_ERROR)
            continue;
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
        out[i] = (uint32_t)(n > 65535 ? 65535 : n);
    }
}

static void ctx_init(wg_ctx *x, stex_wgsl_module *m, wg_diags *d, wg_program *prog,
                     const stex_wgsl_options *opt)
{
    memset(x, 0, sizeof *x);
    memset(prog, 0, sizeof *prog);
    x->arena = &m->arena;
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
        x->overrides = (const wg_override_value *)(const void *)opt->overrides;
        x->noverrides = opt->override_count;
    }
    if (!x->globals)
        x->oom = true;
}

static void ctx_free(wg_ctx *x)
{
    free(x->globals);
    free(x->syms);
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

/* The layout entries of the resources an entry point used (its reflection). */
static bool reflect(wg_ctx *x, entry_info *ep)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->ast->n; i++) {
        const wg_global *g = &x->globals[i];
        if (g->used && g->decl->kind == D_VAR && (g->val.kind == V_HANDLE ||
            (g->val.kind == V_REF && (g->val.ref.space == SP_UNIFORM ||
                                      g->val.ref.space == SP_STORAGE))))
            n++;
    }
    ep->entries = calloc(n ? n : 1, sizeof *ep->entries);
    ep->names = calloc(n ? n : 1, sizeof *ep->names);
    ep->sample_types = calloc(n ? n : 1, sizeof *ep->sample_types);
    if (!ep->entries || !ep->names || !ep->sample_types)
        return false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < x->ast->n; i++) {
        const wg_global *g = &x->globals[i];
        if (!(g->used && g->decl->kind == D_VAR && (g->val.kind == V_HANDLE ||
              (g->val.kind == V_REF && (g->val.ref.space == SP_UNIFORM ||
                                        g->val.ref.space == SP_STORAGE)))))
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
            e->type = STEX_BINDING_TEXTURE;
            e->texture_view_dimension = or_2d(t->dim);
            /* layout 'auto' (WebGPU's default pipeline layout): an f32 texture
             * that a sampler reads is "float", one only loaded "unfilterable-float" */
            bool sampled = false;
            for (uint32_t c = 0; c < x->prog->ncode && !sampled; c++)
                sampled = x->prog->code[c].op == OP_TEX_SAMPLE &&
                          x->prog->code[c].imm == g->val.ref.binding;
            ep->sample_types[k - 1] = sampled ? "float" : "unfilterable-float";
        } else if (t->kind == TY_SAMPLER) {
            e->type = STEX_BINDING_SAMPLER;
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
    ep->pub.entries = ep->entries;
    ep->pub.entry_count = n;
    ep->pub.binding_names = ep->names;
    ep->pub.sample_types = ep->sample_types;
    return true;
}

/* Lowers entry point fn (or checks function fn alone); the program in *prog. */
static bool lower(stex_wgsl_module *m, const wg_decl *fn, bool entry, wg_diags *d,
                  const stex_wgsl_options *opt, wg_program *prog, entry_info *ep)
{
    wg_ctx x;
    ctx_init(&x, m, d, prog, opt);
    if (entry)
        workgroup_size(&x, fn, ep->pub.workgroup_size);
    if (!x.oom)
        wg_lower_function(&x, fn, entry);
    bool ok = !x.oom;
    if (ok && entry) {
        ep->pub.workgroup_memory_size = (x.wg_memory + 3) / 4 * 4;
        ep->pub.uses_barriers = x.uses_barriers;
        ok = reflect(&x, ep);
    }
    if (x.oom)
        wg_error(d, fn->loc, "resources", "out of memory while compiling '%s'", fn->name);
    ctx_free(&x);
    return ok;
}

/* Records override declaration d (analysing it) in m->overrides. */
static void override_info(stex_wgsl_module *m, wg_ctx *x, const wg_decl *d)
{
    wg_global *g = wg_global_find(x, d->name, d->loc);
    stex_wgsl_override_info *o = realloc(m->overrides, (m->noverrides + 1) * sizeof *o);
    if (!o) {
        x->oom = true;
        return;
    }
    m->overrides = o;
    o = &o[m->noverrides++];
    *o = (stex_wgsl_override_info){.name = d->name, .type = "f32", .id = -1};
    const wg_attr *id = wg_find_attr(d->attrs, d->nattrs, "id");
    if (id && id->nargs == 1) {
        wg_val v = wg_expr_lower(x, id->args[0]);
        if (v.kind == V_CONST && wg_type_is_integer(x->types, v.type) &&
            wg_type_is_scalar(x->types, v.type))
            o->id = x->types->t[v.type].kind == TY_AINT ? v.c[0].i
                  : x->types->t[v.type].kind == TY_I32 ? (int32_t)v.c[0].u : (int64_t)v.c[0].u;
    }
    if (!g || g->val.kind != V_CONST)
        return;
    switch (x->types->t[g->val.type].kind) {
    case TY_BOOL:
        o->type = "bool", o->default_value = g->val.c[0].u != 0;
        break;
    case TY_I32:
        o->type = "i32", o->default_value = (int32_t)g->val.c[0].u;
        break;
    case TY_U32:
        o->type = "u32", o->default_value = g->val.c[0].u;
        break;
    default: {
        float f;
        memcpy(&f, &g->val.c[0].u, 4);
        o->type = "f32", o->default_value = f;
        break;
    }
    }
    o->has_default = d->init != NULL;
}

/* Names declared twice at module scope (WGSL 5: one declaration per name). */
static void check_names(stex_wgsl_module *m)
{
    for (uint32_t i = 0; i < m->ast.n; i++)
        for (uint32_t j = 0; j < i; j++) {
            const wg_decl *a = m->ast.decls[i], *b = m->ast.decls[j];
            if (a->name && b->name && !strcmp(a->name, b->name))
                wg_error(&m->diags, a->loc, "declaration", "'%s' is already declared at "
                         "line %u", a->name, b->loc.line);
        }
}

stex_status stex_wgsl_module_create(const char *source, const char *filename,
                                    stex_wgsl_module **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_module_create: out is NULL");
    *out = NULL;
    if (!source)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_module_create: source is NULL");
    stex_wgsl_module *m = calloc(1, sizeof *m);
    if (!m)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_module_create: out of memory");
    m->source = strdup(source);
    m->filename = strdup(filename ? filename : "shader.wgsl");
    if (!m->source || !m->filename || !wg_types_init(&m->types)) {
        stex_wgsl_module_destroy(m);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_module_create: out of memory");
    }
    m->diags.source = m->source;
    m->diags.filename = m->filename;
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
        for (uint32_t i = 0; m->eps && i < m->ast.n; i++) {
            const wg_decl *d = m->ast.decls[i];
            wg_program prog;
            if (d->kind == D_FN) {
                bool entry = wg_find_attr(d->attrs, d->nattrs, "compute") != NULL;
                entry_info *ep = entry ? &m->eps[m->neps++] : NULL;
                if (ep) {
                    ep->decl = d;
                    ep->pub.name = d->name;
                }
                lower(m, d, entry, &m->diags, NULL, &prog, ep);
                program_free(&prog);
            } else if (d->kind == D_CONST_ASSERT || d->kind == D_CONST || d->kind == D_STRUCT ||
                       d->kind == D_ALIAS || d->kind == D_VAR || d->kind == D_OVERRIDE) {
                /* module-scope declarations are checked even if nothing uses them */
                wg_ctx x;
                ctx_init(&x, m, &m->diags, &prog, NULL);
                x.line = d->loc.line;
                if (!x.oom && d->kind == D_CONST_ASSERT) {
                    wg_val c = wg_expr_lower(&x, d->init);
                    if (c.kind == V_CONST && c.type == T_BOOL && !c.c[0].u)
                        wg_error(&m->diags, d->loc, "const-assert", "const_assert failed");
                } else if (!x.oom && d->name) {
                    wg_expr id = {.kind = E_IDENT, .loc = d->loc, .name = d->name};
                    if (d->kind == D_STRUCT || d->kind == D_ALIAS)
                        wg_resolve_type(&x, &id);
                    else if (d->kind != D_OVERRIDE)
                        wg_global_find(&x, d->name, d->loc);
                    else
                        override_info(m, &x, d);
                }
                ctx_free(&x);
                program_free(&prog);
            }
        }
    }
    /* uniformity: only of entry points that otherwise check (WGSL 14.2) */
    for (uint32_t i = 0; !m->diags.count && i < m->neps; i++)
        wg_uniformity(&m->ast, m->eps[i].decl, &m->diags);
    m->text = wg_diags_text(&m->diags);
    *out = m;
    if (m->diags.count)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: %zu error%s in the WGSL module",
                         m->filename, m->diags.count, m->diags.count == 1 ? "" : "s");
    return STEX_OK;
}

void stex_wgsl_module_destroy(stex_wgsl_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->neps; i++) {
        free(m->eps[i].entries);
        free(m->eps[i].names);
        free(m->eps[i].sample_types);
    }
    free(m->eps);
    free(m->overrides);
    wg_types_free(&m->types);
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

static void program_destroy(void *user)
{
    wg_exec_program *xp = user;
    program_free(&xp->prog);
    wg_unprepare(xp);
    free(xp->consts);
    free(xp->filename);
    free(xp);
}

stex_status stex_wgsl_pipeline_create(stex_device *d, const stex_wgsl_module *mod,
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
    uint32_t width = opt && opt->subgroup_width ? opt->subgroup_width : 64;
    if (width > 64)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_wgsl_pipeline_create: subgroup_width %u "
                         "is not in 1..64", width);
    wg_exec_program *xp = calloc(1, sizeof *xp);
    if (!xp)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_pipeline_create: out of memory");
    xp->width = width;
    xp->max_steps = opt && opt->max_steps ? opt->max_steps : (1ull << 32);
    /* the pipeline's own copy: it may outlive the module (runtime errors, race sites) */
    if (!(xp->filename = strdup(m->filename))) {
        free(xp);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_wgsl_pipeline_create: out of memory");
    }
    /* lower again, with the overrides of this pipeline */
    wg_diags diags = {.source = m->source, .filename = m->filename};
    entry_info ep = {.decl = src->decl, .pub = {.name = src->pub.name}};
    bool ok = lower(m, src->decl, true, &diags, opt, &xp->prog, &ep);
    if (ok && !diags.count)
    {
        wg_optimize(xp); /* out of memory: the program as lowered */
        wg_prepare(xp); /* out of memory: zero_regs NULL, every register zeroed */
    }
    stex_status st = STEX_OK;
    if (!ok || diags.count) {
        char *text = wg_diags_text(&diags);
        st = stex_fail(STEX_VALIDATION_ERROR, "createComputePipeline: %s", text ? text : "");
        free(text);
    } else {
        stex_pipeline_desc pd = {.workgroup_size = {ep.pub.workgroup_size[0],
                                                    ep.pub.workgroup_size[1],
                                                    ep.pub.workgroup_size[2]},
                                 .entries = ep.entries, .entry_count = ep.pub.entry_count,
                                 .workgroup_memory_size = ep.pub.workgroup_memory_size,
                                 .uses_barriers = ep.pub.uses_barriers,
                                 .label = ep.pub.name};
        phase_executor x = {wg_run_workgroup, xp, program_destroy, wg_site_name};
        st = pipeline_create_with_executor(d, &pd, &x, out);
    }
    wg_diags_free(&diags);
    free(ep.entries);
    free(ep.names);
    free(ep.sample_types);
    if (st)
        program_destroy(xp);
    return st;
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
        if (s->type != STEX_BINDING_STORAGE_TEXTURE)
            continue;
        const stex_storage_texture_layout *a = &l->storage_texture, *b = &s->storage_texture;
        stex_access la = a->access ? a->access : STEX_ACCESS_WRITE_ONLY;
        stex_access sa = b->access ? b->access : STEX_ACCESS_WRITE_ONLY;
        stex_view_dimension ld = a->view_dimension ? a->view_dimension : STEX_VIEW_DIMENSION_2D;
        stex_view_dimension sd = b->view_dimension ? b->view_dimension : STEX_VIEW_DIMENSION_2D;
        if (la != sa)
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

stex_status stex_wgsl_workgroup_size(const stex_wgsl_module *mod, const char *entry_point,
                                     const stex_wgsl_options *opt, uint32_t out[3])
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
    wg_diags diags = {.source = m->source, .filename = m->filename};
    entry_info ep = {.decl = src->decl, .pub = {.name = src->pub.name}};
    wg_program prog;
    bool ok = lower(m, src->decl, true, &diags, opt, &prog, &ep);
    stex_status st = STEX_OK;
    if (!ok || diags.count) {
        char *text = wg_diags_text(&diags);
        st = stex_fail(STEX_VALIDATION_ERROR, "%s", text ? text : "out of memory");
        free(text);
    } else {
        memcpy(out, ep.pub.workgroup_size, sizeof ep.pub.workgroup_size);
    }
    program_free(&prog);
    wg_diags_free(&diags);
    free(ep.entries);
    free(ep.names);
    free(ep.sample_types);
    return st;
}
