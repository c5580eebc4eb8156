/* The order in which Dawn's front end resolves a module's declarations:
 * each declaration after every module-scope declaration it names (a
 * function after its callees and the constants it reads), otherwise in
 * source order - a depth-first walk in source order that emits a
 * declaration once all it names are emitted.
 *
 * Why it matters: that front end keeps one f32 constant per value compared
 * with ==, so the first zero it makes, +0 or -0, is every later zero of the
 * module (wg_f32_const).  A function declared after main but called by it
 * makes its zeros before main's (regress/const-zero-callee-first.wgsl). */
#include "wgsl/decl_order.h"

#include <stdlib.h>
#include <string.h>

typedef struct walk {
    const wg_ast *ast;
    const char **locals; /* the names declared in the function, innermost last */
    uint32_t nlocals, cap;
    uint32_t *deps;      /* the declarations named, in order of first use */
    wg_loc *at;          /* where each was named (when asked for) */
    uint32_t ndeps, dcap, acap;
    bool want_at;
    bool oom;
} walk;

static bool grow(void **p, uint32_t *cap, uint32_t n, size_t size)
{
    if (n < *cap)
        return true;
    uint32_t c = *cap ? 2 * *cap : 16;
    void *q = realloc(*p, c * size);
    if (!q)
        return false;
    *p = q;
    *cap = c;
    return true;
}

static void declare(walk *w, const char *name)
{
    if (!name || !grow((void **)&w->locals, &w->cap, w->nlocals, sizeof *w->locals)) {
        w->oom |= name != NULL;
        return;
    }
    w->locals[w->nlocals++] = name;
}

static void use(walk *w, const char *name, wg_loc loc)
{
    for (uint32_t i = w->nlocals; i-- > 0;)
        if (!strcmp(w->locals[i], name))
            return; /* a local hides the module-scope name */
    int32_t d = wg_ast_find(w->ast, name);
    if (d < 0)
        return; /* a builtin or a predeclared type */
    if (!grow((void **)&w->deps, &w->dcap, w->ndeps, sizeof *w->deps)) {
        w->oom = true;
        return;
    }
    if (w->want_at && !grow((void **)&w->at, &w->acap, w->ndeps, sizeof *w->at)) {
        w->oom = true;
        return;
    }
    if (w->want_at)
        w->at[w->ndeps] = loc;
    w->deps[w->ndeps++] = (uint32_t)d;
}

static void expr(walk *w, const wg_expr *e)
{
    if (!e)
        return;
    if (e->kind == E_IDENT)
        use(w, e->name, e->loc);
    expr(w, e->a);
    if (e->kind != E_MEMBER)
        expr(w, e->b);
    for (uint32_t i = 0; i < e->ntargs; i++)
        expr(w, e->targs[i]);
    for (uint32_t i = 0; i < e->nargs; i++)
        expr(w, e->args[i]);
}

static void attrs(walk *w, const wg_attr *a, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < a[i].nargs; j++)
            expr(w, a[i].args[j]);
}

static void stmt(walk *w, const wg_stmt *s);

/* Statements of one scope: the names declared in it end with it. */
static void scope(walk *w, const wg_stmt *s, const wg_stmt *continuing)
{
    uint32_t n = w->nlocals;
    if (s && s->kind == S_BLOCK)
        for (uint32_t i = 0; i < s->n; i++)
            stmt(w, s->stmts[i]);
    else
        stmt(w, s);
    stmt(w, continuing); /* sees the loop body's names */
    w->nlocals = n;
}

static void stmt(walk *w, const wg_stmt *s)
{
    if (!s)
        return;
    switch (s->kind) {
    case S_BLOCK:
        scope(w, s, NULL);
        return;
    case S_DECL:
        expr(w, s->decl->type);
        expr(w, s->decl->init);
        declare(w, s->decl->name);
        return;
    case S_FOR: {
        uint32_t n = w->nlocals;
        stmt(w, s->init);
        expr(w, s->cond);
        stmt(w, s->update);
        scope(w, s->body, NULL);
        w->nlocals = n;
        return;
    }
    case S_LOOP:
        scope(w, s->body, s->continuing);
        return;
    case S_SWITCH:
        expr(w, s->cond);
        for (uint32_t i = 0; i < s->ncases; i++) {
            for (uint32_t j = 0; j < s->cases[i].nselectors; j++)
                expr(w, s->cases[i].selectors[j]);
            scope(w, s->cases[i].body, NULL);
        }
        return;
    default:
        expr(w, s->lhs);
        expr(w, s->rhs);
        expr(w, s->cond);
        if (s->body)
            scope(w, s->body, NULL);
        stmt(w, s->els);
        return;
    }
}

/* The declarations d names, appended to w->deps. */
static void decl_deps(walk *w, const wg_decl *d)
{
    w->nlocals = 0;
    attrs(w, d->attrs, d->nattrs);
    expr(w, d->type);
    expr(w, d->init);
    for (uint32_t i = 0; i < d->nparams; i++) {
        attrs(w, d->params[i].attrs, d->params[i].nattrs);
        expr(w, d->params[i].type);
    }
    expr(w, d->ret);
    if (d->kind == D_FN) {
        for (uint32_t i = 0; i < d->nparams; i++)
            declare(w, d->params[i].name);
        scope(w, d->body, NULL);
    }
}

uint32_t *wg_decl_order(const wg_ast *ast)
{
    typedef struct { uint32_t d, start, next, end; } frame;
    uint32_t n = ast->n, k = 0, nst = 0, cst = 0;
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    uint8_t *state = calloc(n ? n : 1, 1); /* 1 on the stack, 2 emitted */
    frame *st = NULL;
    walk w = {.ast = ast};
    bool ok = order && state;
    for (uint32_t root = 0; ok && root < n; root++) {
        if (state[root])
            continue;
        uint32_t start = w.ndeps;
        decl_deps(&w, ast->decls[root]);
        ok = !w.oom && grow((void **)&st, &cst, nst, sizeof *st);
        if (ok)
            st[nst++] = (frame){root, start, start, w.ndeps}, state[root] = 1;
        while (ok && nst) {
            frame *f = &st[nst - 1];
            if (f->next == f->end) {
                order[k++] = f->d;
                state[f->d] = 2;
                w.ndeps = f->start; /* its names are done with */
                nst--;
                continue;
            }
            uint32_t d = w.deps[f->next++];
            if (state[d] == 2 || d == f->d)
                continue;
            if (state[d] == 1) { /* a cycle: invalid, the checks report it */
                ok = false;
                break;
            }
            start = w.ndeps;
            decl_deps(&w, ast->decls[d]);
            ok = !w.oom && grow((void **)&st, &cst, nst, sizeof *st);
            if (ok)
                st[nst++] = (frame){d, start, start, w.ndeps}, state[d] = 1;
        }
        w.ndeps = 0;
    }
    free(st);
    free(state);
    free(w.locals);
    free(w.deps);
    free(w.at);
    if (!ok || k != n) {
        free(order);
        return NULL;
    }
    return order;
}

bool wg_call_cycle(const wg_ast *ast, uint32_t *path, uint32_t *npath, wg_loc *at)
{
    typedef struct { uint32_t d, start, next, end; } frame;
    uint32_t n = ast->n, nst = 0, cst = 0;
    uint8_t *state = calloc(n ? n : 1, 1); /* 1 on the stack, 2 done */
    frame *st = NULL;
    walk w = {.ast = ast, .want_at = true};
    bool found = false, ok = state != NULL;
    for (uint32_t root = 0; ok && !found && root < n; root++) {
        if (state[root] || ast->decls[root]->kind != D_FN)
            continue;
        decl_deps(&w, ast->decls[root]);
        ok = !w.oom && grow((void **)&st, &cst, nst, sizeof *st);
        if (ok)
            st[nst++] = (frame){root, 0, 0, w.ndeps}, state[root] = 1;
        while (ok && !found && nst) {
            frame *f = &st[nst - 1];
            if (f->next == f->end) {
                state[f->d] = 2;
                w.ndeps = f->start;
                nst--;
                continue;
            }
            uint32_t k = f->next++, d = w.deps[k];
            /* another function's name (its own: lowering reports that call) */
            if (ast->decls[d]->kind != D_FN || d == f->d || state[d] == 2)
                continue;
            if (state[d] == 1) { /* back on the stack: a cycle of calls */
                uint32_t from = nst;
                while (from > 0 && st[from - 1].d != d)
                    from--;
                *npath = 0;
                for (uint32_t i = from - 1; i < nst && *npath < WG_CYCLE_SHOWN; i++)
                    path[(*npath)++] = st[i].d;
                *at = w.at[k];
                found = true;
                break;
            }
            uint32_t start = w.ndeps;
            decl_deps(&w, ast->decls[d]);
            ok = !w.oom && grow((void **)&st, &cst, nst, sizeof *st);
            if (ok)
                st[nst++] = (frame){d, start, start, w.ndeps}, state[d] = 1;
        }
        w.ndeps = 0;
    }
    free(st);
    free(state);
    free(w.locals);
    free(w.deps);
    free(w.at);
    return found;
}
