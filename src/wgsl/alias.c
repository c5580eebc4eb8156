/* WGSL's alias analysis over the syntax tree (see alias.h).
 *
 * As WGSL describes it, functions are analysed callees first (the order
 * wg_decl_order gives a module without cycles), each once, into a summary:
 * which of its pointer parameters it reads and writes through, and which
 * module-scope variables it reads and writes by name, both counting the
 * functions it calls.  A call is then judged from its callee's summary
 * alone, and adds that summary to its caller's: an access through a pointer
 * argument becomes one of the argument's root in the caller.
 *
 * What is an access: a reference used as a value is a read (the load
 * rule); an assignment's left side, ++ and -- are writes (compound
 * assignment and ++/-- read too); atomicLoad and workgroupUniformLoad read
 * their pointer, atomicStore writes it and the other atomics do both.
 * Taking an address (&x, let p = &*q), passing a pointer on, and
 * arrayLength touch no memory. */
#include "wgsl/alias.h"

#include <stdlib.h>
#include <string.h>

#include "wgsl/decl_order.h"

enum { AL_READ = 1, AL_WRITE = 2 };

/* A memory view's root identifier: a function-scope variable (the
 * function's id-th var declaration), a pointer parameter (by index) or a
 * module-scope variable (by declaration index). */
typedef enum { ROOT_NONE, ROOT_LOCAL, ROOT_PARAM, ROOT_GLOBAL } al_root_kind;

typedef struct al_root {
    al_root_kind kind;
    uint32_t id;
    const char *name; /* for the messages */
} al_root;

/* A name declared in the function: a value (it hides a module-scope name
 * and holds no memory), a variable, or a pointer (a let or parameter of
 * pointer type) with the root it was made from. */
typedef enum { SYM_VALUE, SYM_VAR, SYM_PTR } al_sym_kind;

typedef struct al_sym {
    const char *name;
    al_sym_kind kind;
    al_root root;
} al_sym;

/* A module-scope variable a function reads or writes by name, itself or
 * in a function it calls: where the first read and write are, and in which
 * function (for the message). */
typedef struct al_global {
    uint32_t decl;
    uint8_t how;                 /* AL_READ | AL_WRITE */
    wg_loc at[2];                /* [0] the read, [1] the write */
    const wg_decl *in[2];
} al_global;

/* A function's summary. */
typedef struct al_fn {
    uint8_t *param;              /* per parameter: AL_READ | AL_WRITE through it */
    al_global *globals;
    uint32_t nglobals, cap;
} al_fn;

typedef struct al_ctx {
    const wg_ast *ast;
    wg_diags *d;
    al_fn *fns;                  /* by declaration index */
    uint32_t *slot;              /* declaration index -> 1 + its place in cur->globals */
    const wg_decl *fn;           /* the function being analysed */
    al_fn *cur;                  /* and its summary */
    al_sym *syms;                /* the names in scope, innermost last */
    uint32_t nsyms, cap;
    uint32_t nlocals;            /* the function's var declarations so far */
    bool oom;
} al_ctx;

static const al_root NO_ROOT = {ROOT_NONE, 0, NULL};

static void declare(al_ctx *c, const char *name, al_sym_kind kind, al_root root)
{
    if (!name)
        return;
    if (c->nsyms == c->cap) {
        uint32_t cap = c->cap ? 2 * c->cap : 32;
        al_sym *s = realloc(c->syms, cap * sizeof *s);
        if (!s) {
            c->oom = true;
            return;
        }
        c->syms = s, c->cap = cap;
    }
    c->syms[c->nsyms++] = (al_sym){name, kind, root};
}

static const al_sym *find(const al_ctx *c, const char *name)
{
    for (uint32_t i = c->nsyms; i-- > 0;)
        if (!strcmp(c->syms[i].name, name))
            return &c->syms[i];
    return NULL;
}

/* The module-scope declaration `name` stands for here (a local hides it). */
static const wg_decl *module_decl(const al_ctx *c, const char *name, int32_t *index)
{
    if (find(c, name))
        return NULL;
    int32_t i = wg_ast_find(c->ast, name);
    if (index)
        *index = i;
    return i >= 0 ? c->ast->decls[i] : NULL;
}

/* Whether a parameter's type is a pointer: ptr<...>, or an alias of one. */
static bool is_ptr_type(const wg_ast *ast, const wg_expr *t)
{
    for (uint32_t hops = 0; t && t->kind == E_IDENT && hops <= ast->n; hops++) {
        int32_t i = wg_ast_find(ast, t->name);
        if (i < 0)
            return !strcmp(t->name, "ptr");
        if (ast->decls[i]->kind != D_ALIAS)
            return false;
        t = ast->decls[i]->type;
    }
    return false;
}

/* The root identifier of e if e is a memory view - a reference or a
 * pointer (WGSL "Root Identifier": through &, *, indexing, members and
 * swizzles, and the lets and parameters that name pointers). */
static al_root root_of(const al_ctx *c, const wg_expr *e)
{
    while (e && (e->kind == E_INDEX || e->kind == E_MEMBER ||
                 (e->kind == E_UNARY && (e->op == TK_AMP || e->op == TK_STAR))))
        e = e->a;
    if (!e || e->kind != E_IDENT)
        return NO_ROOT;
    const al_sym *s = find(c, e->name);
    if (s)
        return s->kind == SYM_VALUE ? NO_ROOT : s->root;
    int32_t i = wg_ast_find(c->ast, e->name);
    const wg_decl *g = i >= 0 ? c->ast->decls[i] : NULL;
    /* textures and samplers (no address space) are no memory views here */
    if (g && g->kind == D_VAR && g->space)
        return (al_root){ROOT_GLOBAL, (uint32_t)i, g->name};
    return NO_ROOT;
}

/* Whether e is a pointer (not a reference): &r, or the name of one. */
static bool is_pointer(const al_ctx *c, const wg_expr *e)
{
    if (e->kind == E_UNARY && e->op == TK_AMP)
        return true;
    const al_sym *s = e->kind == E_IDENT ? find(c, e->name) : NULL;
    return s && s->kind == SYM_PTR;
}

/* Records that the current function reaches root r `how`, at `at` in
 * function `in` (the current one, or a callee for what a call adds).
 * Function-scope variables are the caller's own business: only the checks
 * at its calls see them. */
static void access(al_ctx *c, al_root r, unsigned how, wg_loc at, const wg_decl *in)
{
    if (r.kind == ROOT_PARAM && c->cur->param) {
        c->cur->param[r.id] |= (uint8_t)how;
        return;
    }
    if (r.kind != ROOT_GLOBAL)
        return;
    al_fn *f = c->cur;
    if (!c->slot[r.id]) {
        if (f->nglobals == f->cap) {
            uint32_t cap = f->cap ? 2 * f->cap : 8;
            al_global *g = realloc(f->globals, cap * sizeof *g);
            if (!g) {
                c->oom = true;
                return;
            }
            f->globals = g, f->cap = cap;
        }
        f->globals[f->nglobals++] = (al_global){.decl = r.id};
        c->slot[r.id] = f->nglobals;
    }
    al_global *g = &f->globals[c->slot[r.id] - 1];
    for (unsigned k = 0; k < 2; k++)
        if ((how & (1u << k)) && !(g->how & (1u << k))) {
            g->at[k] = at;
            g->in[k] = in;
        }
    g->how |= (uint8_t)how;
}

static void value(al_ctx *c, const wg_expr *e);

/* The index expressions of memory view e, which are values. */
static void indices(al_ctx *c, const wg_expr *e)
{
    for (; e && e->kind != E_IDENT; e = e->a)
        if (e->kind == E_INDEX)
            value(c, e->b);
}

/* What a builtin does to the memory its first argument points to. */
static unsigned builtin_access(const char *name)
{
    if (!strcmp(name, "atomicLoad") || !strcmp(name, "workgroupUniformLoad"))
        return AL_READ;
    if (!strcmp(name, "atomicStore"))
        return AL_WRITE;
    if (!strncmp(name, "atomic", 6) && strcmp(name, "atomic")) /* read-modify-write */
        return AL_READ | AL_WRITE;
    return 0; /* arrayLength: the length, not the memory */
}

static const char *const VERB[] = {"", "reads", "writes", "reads and writes"};

/* A call of user function fn (declaration index fi): its pointer
 * arguments judged against each other and against the module-scope
 * variables fn names, then its summary added to the caller's. */
static void user_call(al_ctx *c, const wg_expr *e, const wg_decl *fn, uint32_t fi)
{
    const al_fn *f = &c->fns[fi];
    uint32_t n = e->nargs < fn->nparams ? e->nargs : fn->nparams;
    al_root *roots = malloc((n ? n : 1) * sizeof *roots);
    if (!roots) {
        c->oom = true;
        return;
    }
    for (uint32_t i = 0; i < e->nargs; i++) {
        const wg_expr *a = e->args[i];
        bool ptr = is_pointer(c, a);
        if (ptr)
            indices(c, a); /* passing a pointer on is no access */
        else
            value(c, a);
        if (i < n)
            roots[i] = ptr ? root_of(c, a) : NO_ROOT;
    }
    bool reported = false;
    for (uint32_t i = 0; i < n; i++) {
        unsigned how = f->param ? f->param[i] : 0;
        if (roots[i].kind == ROOT_NONE || !how)
            continue;
        const wg_expr *a = e->args[i];
        /* another argument with the same root, one of the two written */
        for (uint32_t j = 0; j < i && !reported; j++) {
            unsigned other = f->param ? f->param[j] : 0;
            bool same = roots[j].kind == roots[i].kind && roots[j].id == roots[i].id;
            if (!same || !other || !((how | other) & AL_WRITE))
                continue;
            bool wi = how & AL_WRITE;
            wg_error(c->d, a->loc, "alias-analysis", "'%.60s' gets two pointers into "
                     "'%.60s' (parameters '%.60s' and '%.60s') and writes through '%.60s': "
                     "aliased pointer arguments may only be read", fn->name, roots[i].name,
                     fn->params[j].name, fn->params[i].name, fn->params[wi ? i : j].name);
            reported = true;
        }
        /* a module-scope variable the callee also names, one of the two written */
        for (uint32_t k = 0; roots[i].kind == ROOT_GLOBAL && k < f->nglobals && !reported; k++) {
            const al_global *g = &f->globals[k];
            if (g->decl != roots[i].id || !((how | g->how) & AL_WRITE))
                continue;
            /* the access by name that conflicts: a write if there is one
             * against a read through the parameter, any otherwise */
            unsigned by_name = how & AL_WRITE ? g->how : AL_WRITE;
            unsigned shown = by_name & AL_WRITE ? 1 : 0;
            wg_error(c->d, a->loc, "alias-analysis", "'%.60s' gets a pointer into "
                     "module-scope '%.60s' (parameter '%.60s'), %s through it and %s '%.60s' "
                     "by name (line %u, in '%.60s'): aliased memory may only be read", fn->name,
                     roots[i].name, fn->params[i].name, VERB[how & 3], VERB[by_name & 3],
                     roots[i].name, g->at[shown].line, g->in[shown]->name);
            reported = true;
        }
    }
    /* what fn reaches becomes the caller's: through each pointer argument,
     * the argument's root, and the module-scope variables it names */
    for (uint32_t i = 0; i < n; i++)
        if (f->param && f->param[i])
            access(c, roots[i], f->param[i], e->args[i]->loc, c->fn);
    for (uint32_t k = 0; k < f->nglobals; k++) {
        const al_global *g = &f->globals[k];
        al_root r = {ROOT_GLOBAL, g->decl, NULL};
        if (g->how & AL_READ)
            access(c, r, AL_READ, g->at[0], g->in[0]);
        if (g->how & AL_WRITE)
            access(c, r, AL_WRITE, g->at[1], g->in[1]);
    }
    free(roots);
}

static void call(al_ctx *c, const wg_expr *e)
{
    const char *name = e->a && e->a->kind == E_IDENT ? e->a->name : NULL;
    int32_t fi = -1;
    const wg_decl *fn = name ? module_decl(c, name, &fi) : NULL;
    if (fn && fn->kind == D_FN) {
        user_call(c, e, fn, (uint32_t)fi);
        return;
    }
    /* a builtin, or a type's constructor or conversion */
    for (uint32_t i = 0; i < e->nargs; i++) {
        if (is_pointer(c, e->args[i]))
            indices(c, e->args[i]);
        else
            value(c, e->args[i]);
    }
    unsigned how = name && !fn && e->nargs ? builtin_access(name) : 0;
    if (how && is_pointer(c, e->args[0]))
        access(c, root_of(c, e->args[0]), how, e->args[0]->loc, c->fn);
}

/* e used as a value: a reference in it is loaded (a read). */
static void value(al_ctx *c, const wg_expr *e)
{
    if (!e)
        return;
    al_root r = root_of(c, e);
    if (r.kind != ROOT_NONE) {
        indices(c, e);
        if (!is_pointer(c, e))
            access(c, r, AL_READ, e->loc, c->fn);
        return;
    }
    switch (e->kind) {
    case E_CALL:
        call(c, e);
        return;
    case E_INDEX:
    case E_UNARY:
    case E_BINARY:
        value(c, e->a);
        value(c, e->b);
        return;
    case E_MEMBER:
        value(c, e->a);
        return;
    default:
        return; /* literals, and names of values */
    }
}

static void stmt(al_ctx *c, const wg_stmt *s);

/* Statements of one scope: the names declared in it end with it
 * ('continuing' sees the loop body's). */
static void scope(al_ctx *c, const wg_stmt *s, const wg_stmt *continuing)
{
    uint32_t n = c->nsyms;
    if (s && s->kind == S_BLOCK)
        for (uint32_t i = 0; i < s->n; i++)
            stmt(c, s->stmts[i]);
    else
        stmt(c, s);
    stmt(c, continuing);
    c->nsyms = n;
}

static void stmt(al_ctx *c, const wg_stmt *s)
{
    if (!s || c->oom)
        return;
    switch (s->kind) {
    case S_BLOCK:
        scope(c, s, NULL);
        return;
    case S_DECL: {
        const wg_decl *d = s->decl;
        if (d->kind == D_VAR) {
            value(c, d->init);
            declare(c, d->name, SYM_VAR, (al_root){ROOT_LOCAL, c->nlocals++, d->name});
        } else if (d->kind == D_LET && d->init && is_pointer(c, d->init)) {
            indices(c, d->init);
            declare(c, d->name, SYM_PTR, root_of(c, d->init));
        } else {
            if (d->kind == D_LET)
                value(c, d->init);
            declare(c, d->name, SYM_VALUE, NO_ROOT);
        }
        return;
    }
    case S_ASSIGN:
    case S_INCDEC:
        if (s->lhs) {
            indices(c, s->lhs);
            unsigned how = s->kind == S_ASSIGN && s->op == TK_ASSIGN ? AL_WRITE
                                                                      : AL_READ | AL_WRITE;
            access(c, root_of(c, s->lhs), how, s->lhs->loc, c->fn);
        }
        value(c, s->rhs);
        return;
    case S_FOR: {
        uint32_t n = c->nsyms;
        stmt(c, s->init);
        value(c, s->cond);
        stmt(c, s->update);
        scope(c, s->body, NULL);
        c->nsyms = n;
        return;
    }
    case S_LOOP:
        scope(c, s->body, s->continuing);
        return;
    case S_SWITCH:
        value(c, s->cond);
        for (uint32_t i = 0; i < s->ncases; i++)
            scope(c, s->cases[i].body, NULL);
        return;
    default: /* call, if, while, return, break if, and those without expressions */
        value(c, s->rhs);
        value(c, s->cond);
        if (s->body)
            scope(c, s->body, NULL);
        stmt(c, s->els);
        return;
    }
}

/* Analyses function fn (declaration index fi) into its summary; its
 * callees are already analysed. */
static void function(al_ctx *c, const wg_decl *fn, uint32_t fi)
{
    al_fn *f = &c->fns[fi];
    f->param = calloc(fn->nparams ? fn->nparams : 1, 1);
    if (!f->param) {
        c->oom = true;
        return;
    }
    c->fn = fn, c->cur = f;
    c->nsyms = c->nlocals = 0;
    for (uint32_t i = 0; i < fn->nparams; i++) {
        bool ptr = is_ptr_type(c->ast, fn->params[i].type);
        declare(c, fn->params[i].name, ptr ? SYM_PTR : SYM_VALUE,
                ptr ? (al_root){ROOT_PARAM, i, fn->params[i].name} : NO_ROOT);
    }
    scope(c, fn->body, NULL);
    for (uint32_t k = 0; k < f->nglobals; k++) /* the scratch table, clean for the next */
        c->slot[f->globals[k].decl] = 0;
}

void wg_alias_analysis(const wg_ast *ast, wg_diags *d)
{
    al_ctx c = {.ast = ast, .d = d};
    uint32_t *order = wg_decl_order(ast); /* callees first */
    c.fns = calloc(ast->n ? ast->n : 1, sizeof *c.fns);
    c.slot = calloc(ast->n ? ast->n : 1, sizeof *c.slot);
    c.oom = !order || !c.fns || !c.slot;
    for (uint32_t k = 0; !c.oom && k < ast->n; k++)
        if (ast->decls[order[k]]->kind == D_FN)
            function(&c, ast->decls[order[k]], order[k]);
    if (c.oom) /* wg_decl_order fails only for want of memory on a valid module */
        wg_error(d, ast->n ? ast->decls[0]->loc : (wg_loc){0, 0}, "resources",
                 "out of memory in the alias analysis");
    for (uint32_t i = 0; c.fns && i < ast->n; i++) {
        free(c.fns[i].param);
        free(c.fns[i].globals);
    }
    free(c.fns);
    free(c.slot);
    free(c.syms);
    free(order);
}
