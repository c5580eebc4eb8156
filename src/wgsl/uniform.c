/* WGSL's uniformity analysis over the syntax tree (see uniform.h). */
#include "wgsl/uniform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl/stack.h"

/* Statements and expressions one entry point's analysis may visit: loops
 * are walked until their taints settle and called functions once per call,
 * so nesting multiplies the visits; past this the module is refused. */
enum { UN_MAX_STEPS = 1u << 24 };

/* Whether a value or the control flow may differ between invocations: `at`
 * (line 0: uniform) is where it became non-uniform, `why` what made it. */
typedef struct un_taint {
    wg_loc at;
    const char *why;
} un_taint;

typedef struct un_sym {
    const char *name;
    un_taint t;
    int alias;             /* a pointer: the symbol it points to, -1 none */
    const wg_decl *sdecl;  /* an entry point's struct parameter: its members' builtins */
    int level;             /* the control-flow nesting it was declared at */
} un_sym;

typedef struct un_ctx {
    const wg_ast *ast;
    wg_diags *d;
    bool report;           /* false while a loop's taints settle */
    un_sym *syms;
    int nsyms, cap;
    int sym_base;          /* the first symbol of the function being analysed */
    bool fragment;         /* a fragment entry point: derivatives need uniform control flow */
    int level;             /* branches, cases, loop bodies and calls entered */
    bool oom;
    un_taint cf;           /* the control flow of the statement being walked */
    un_taint poison;       /* a 'return' of some invocations: the rest of the function */
    un_taint brk;          /* a 'break' (or a loop condition) of some invocations: the rest
                            * of the innermost loop or switch */
    un_taint cont;         /* a 'continue' of some invocations: the rest of the loop */
    un_taint ret;          /* the function's return value */
    const wg_decl **stack; /* the functions being analysed, one per declaration at most */
    wg_loc *calls;         /* their call sites */
    int depth;
    uint32_t steps;        /* statements and expressions visited (UN_MAX_STEPS) */
    const char *entry;     /* the entry point's name */
} un_ctx;

/* Counts a step; false (after one [limits] error) past UN_MAX_STEPS or near
 * the end of the thread's stack: the analysis stops. */
static bool un_step(un_ctx *u, wg_loc loc)
{
    if (u->oom)
        return false;
    if (++u->steps <= UN_MAX_STEPS && wg_stack_ok())
        return true;
    wg_error(u->d, loc, "limits", "the uniformity analysis of '%s' takes more than %u steps or "
             "more stack than the thread has (loops nested many levels deep, or calls repeated "
             "inside called functions)", u->entry, (unsigned)UN_MAX_STEPS);
    u->oom = true;
    return false;
}

static const un_taint UNIFORM = {{0, 0}, NULL};

static bool nonuni(un_taint t) { return t.at.line != 0; }

static un_taint join(un_taint a, un_taint b) { return nonuni(a) ? a : b; }
static un_taint at(wg_loc loc, const char *why) { return (un_taint){loc, why}; }

static int sym_push(un_ctx *u, const char *name, un_taint t)
{
    if (u->nsyms == u->cap) {
        int cap = u->cap ? 2 * u->cap : 32;
        un_sym *s = realloc(u->syms, (size_t)cap * sizeof *s);
        if (!s) {
            u->oom = true;
            return -1;
        }
        u->syms = s, u->cap = cap;
    }
    u->syms[u->nsyms] = (un_sym){name, t, -1, NULL, u->level};
    return u->nsyms++;
}

static int sym_find(const un_ctx *u, const char *name)
{
    for (int i = u->nsyms - 1; i >= u->sym_base; i--)
        if (u->syms[i].name && !strcmp(u->syms[i].name, name))
            return i;
    return -1;
}

/* The symbol a pointer symbol ultimately points to. */
static int sym_target(const un_ctx *u, int i)
{
    for (int n = 0; i >= 0 && u->syms[i].alias >= 0 && n < 64; n++)
        i = u->syms[i].alias;
    return i;
}

static const wg_decl *global(const un_ctx *u, const char *name, wg_decl_kind kind)
{
    int32_t i = wg_ast_find(u->ast, name);
    return i >= 0 && u->ast->decls[i]->kind == kind ? u->ast->decls[i] : NULL;
}

static const char *builtin_of(const wg_attr *a, uint32_t n)
{
    const wg_attr *b = wg_find_attr(a, n, "builtin");
    return b && b->nargs == 1 && b->args[0]->kind == E_IDENT ? b->args[0]->name : NULL;
}

/* A builtin value's uniformity (WGSL 14.2: the invocation ids are not). */
static un_taint builtin_taint(const char *name, wg_loc loc)
{
    if (name && (!strcmp(name, "local_invocation_id") || !strcmp(name, "local_invocation_index") ||
                 !strcmp(name, "global_invocation_id") ||
                 !strcmp(name, "subgroup_invocation_id") || !strcmp(name, "subgroup_id")))
        return at(loc, name);
    return UNIFORM;
}

/* A module-scope variable read: its uniformity by address space and access. */
static un_taint global_taint(const wg_decl *g, wg_loc loc)
{
    if (!g->space)
        return UNIFORM; /* handles: their reads are judged by the builtin */
    if (!strcmp(g->space, "workgroup"))
        return at(loc, "a read of a var<workgroup>");
    if (!strcmp(g->space, "private"))
        return at(loc, "a read of a var<private>");
    if (!strcmp(g->space, "storage") && g->access && !strcmp(g->access, "read_write"))
        return at(loc, "a read of read_write storage");
    return UNIFORM;
}

static un_taint expr(un_ctx *u, const wg_expr *e);
static void stmt(un_ctx *u, const wg_stmt *s);

/* The local symbol an lvalue or pointer expression names (-1: none, or a global). */
static int root_sym(const un_ctx *u, const wg_expr *e)
{
    while (e && (e->kind == E_INDEX || e->kind == E_MEMBER ||
                 (e->kind == E_UNARY && (e->op == TK_AMP || e->op == TK_STAR))))
        e = e->a;
    if (!e || e->kind != E_IDENT)
        return -1;
    return sym_target(u, sym_find(u, e->name));
}

/* The taints of an lvalue's indices (a[i].b[j]: i and j). */
static un_taint lvalue_indices(un_ctx *u, const wg_expr *e)
{
    un_taint t = UNIFORM;
    while (e && (e->kind == E_INDEX || e->kind == E_MEMBER || e->kind == E_UNARY)) {
        if (e->kind == E_INDEX)
            t = join(t, expr(u, e->b));
        e = e->a;
    }
    return t;
}

static void check_sync(un_ctx *u, const wg_expr *e, const char *name)
{
    if (!u->report || !nonuni(u->cf))
        return;
    char where[96] = "";
    if (u->depth > 0)
        snprintf(where, sizeof where, " (in function '%s', called at line %u)",
                 u->stack[u->depth - 1]->name, u->calls[0].line);
    wg_error(u->d, e->loc, "uniformity", "%s must only be called from uniform control flow%s: "
             "control flow is non-uniform from line %u:%u, which depends on %s", name, where,
             u->cf.at.line, u->cf.at.col, u->cf.why ? u->cf.why : "a non-uniform value");
}

/* WGSL's derivative_uniformity (2.3.2, 14.2): a derivative in non-uniform
 * control flow of a fragment shader, an error unless a diagnostic filter
 * over the call makes it a warning, an info or nothing. */
static void check_derivative(un_ctx *u, const wg_expr *e, const char *name)
{
    if (!u->report || !nonuni(u->cf))
        return;
    int sev = wg_ast_severity(u->ast, "derivative_uniformity", e->loc, WG_ERROR);
    if (sev < 0)
        return;
    char where[96] = "";
    if (u->depth > 0)
        snprintf(where, sizeof where, " (in function '%s', called at line %u)",
                 u->stack[u->depth - 1]->name, u->calls[0].line);
    wg_report(u->d, (wg_severity)sev, e->loc, "derivative_uniformity", "%s must only be called "
              "from uniform control flow%s: control flow is non-uniform from line %u:%u, which "
              "depends on %s", name, where, u->cf.at.line, u->cf.at.col,
              u->cf.why ? u->cf.why : "a non-uniform value");
}

static un_taint user_call(un_ctx *u, const wg_decl *fn, const wg_expr *e)
{
    un_taint args = UNIFORM;
    uint32_t n = e->nargs;
    int *alias = malloc((n ? n : 1) * sizeof *alias);
    un_taint *t = malloc((n ? n : 1) * sizeof *t);
    if (!alias || !t || !u->stack) {
        free(alias);
        free(t);
        u->oom = true;
        return at(e->loc, "a call stex had no memory to analyse");
    }
    for (uint32_t i = 0; i < n; i++) {
        const wg_expr *a = e->args[i];
        t[i] = join(expr(u, a), u->cf);
        alias[i] = -1;
        if ((a->kind == E_UNARY && a->op == TK_AMP) ||
            (a->kind == E_IDENT && sym_find(u, a->name) >= 0 &&
             u->syms[sym_find(u, a->name)].alias >= 0))
            alias[i] = root_sym(u, a);
        args = join(args, t[i]);
    }
    for (int k = 0; k < u->depth; k++)
        if (u->stack[k] == fn) {
            free(alias);
            free(t);
            return args; /* recursion: reported by lowering */
        }
    int base = u->nsyms, sym_base = u->sym_base;
    u->sym_base = base; /* the callee sees its parameters, not the caller's names */
    u->level++;
    for (uint32_t i = 0; i < n && i < fn->nparams; i++) {
        int s = sym_push(u, fn->params[i].name, t[i]);
        if (s >= 0)
            u->syms[s].alias = alias[i];
    }
    free(alias);
    free(t);
    un_taint saved_poison = u->poison, saved_ret = u->ret, saved_brk = u->brk,
             saved_cont = u->cont, saved_cf = u->cf;
    u->poison = u->brk = u->cont = UNIFORM;
    u->ret = UNIFORM;
    u->calls[u->depth] = e->loc;
    u->stack[u->depth++] = fn;
    if (fn->body)
        stmt(u, fn->body);
    u->depth--;
    un_taint r = u->ret;
    u->poison = saved_poison;
    u->brk = saved_brk;
    u->cont = saved_cont;
    u->ret = saved_ret;
    u->nsyms = base;
    u->sym_base = sym_base;
    u->level--;
    /* every invocation that made the call returns from it: the callee's
     * early returns end its own uniform control flow, not the caller's */
    u->cf = saved_cf;
    return join(r, u->cf);
}

static bool is_atomic(const char *n)
{
    return !strncmp(n, "atomic", 6) && strcmp(n, "atomic");
}

/* The builtins that take implicit derivatives (a fragment shader's). */
static bool needs_derivatives(const char *n)
{
    static const char *const names[] = {"textureSample", "textureSampleBias",
        "textureSampleCompare", "dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse",
        "dpdyFine", "fwidth", "fwidthCoarse", "fwidthFine"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(n, names[k]))
            return true;
    return false;
}

static un_taint call(un_ctx *u, const wg_expr *e)
{
    const char *name = e->a && e->a->kind == E_IDENT ? e->a->name : "";
    if (!strcmp(name, "workgroupBarrier") || !strcmp(name, "storageBarrier") ||
        !strcmp(name, "textureBarrier")) {
        check_sync(u, e, name);
        return UNIFORM;
    }
    if (u->fragment && needs_derivatives(name))
        check_derivative(u, e, name);
    if (!strcmp(name, "workgroupUniformLoad")) {
        check_sync(u, e, name);
        for (uint32_t i = 0; i < e->nargs; i++)
            expr(u, e->args[i]);
        /* its pointer is the same in every invocation: &a[i] with i uniform */
        const wg_expr *a = e->nargs ? e->args[0] : NULL;
        un_taint p = a && a->kind == E_UNARY && a->op == TK_AMP ? lvalue_indices(u, a->a)
                                                                 : UNIFORM;
        if (u->report && nonuni(p))
            wg_error(u->d, a->loc, "uniformity", "the pointer of workgroupUniformLoad must be "
                     "uniform: it depends on %s (line %u:%u)", p.why ? p.why : "a non-uniform "
                     "value", p.at.line, p.at.col);
        return UNIFORM;
    }
    const wg_decl *fn = global(u, name, D_FN);
    if (fn)
        return user_call(u, fn, e);
    un_taint t = UNIFORM;
    for (uint32_t i = 0; i < e->nargs; i++) {
        const wg_expr *a = e->args[i];
        /* a pointer argument (atomics, arrayLength): the pointer, not the value */
        if (a->kind == E_UNARY && a->op == TK_AMP)
            t = join(t, lvalue_indices(u, a->a));
        else
            t = join(t, expr(u, a));
    }
    if (is_atomic(name))
        return join(t, at(e->loc, "an atomic's result"));
    if (needs_derivatives(name)) /* a neighbour's value enters it */
        return join(t, at(e->loc, "a derivative's result"));
    if (!strncmp(name, "subgroup", 8) || !strncmp(name, "quad", 4)) {
        /* uniform control flow only, as Dawn checks them (its subgroup
         * uniformity: an error); their results vary per invocation */
        check_sync(u, e, name);
        return join(t, at(e->loc, "a subgroup builtin's result"));
    }
    if (!strcmp(name, "textureLoad") && e->nargs && e->args[0]->kind == E_IDENT &&
        sym_find(u, e->args[0]->name) < 0) {
        const wg_decl *g = global(u, e->args[0]->name, D_VAR);
        /* texture_storage_*<F, read_write>: other invocations' stores show */
        const wg_expr *ty = g ? g->type : NULL;
        if (ty && ty->kind == E_IDENT && !strncmp(ty->name, "texture_storage", 15) &&
            ty->ntargs == 2 && ty->targs[1]->kind == E_IDENT &&
            !strcmp(ty->targs[1]->name, "read_write"))
            return join(t, at(e->loc, "a load from a read_write storage texture"));
    }
    return t;
}

static un_taint expr(un_ctx *u, const wg_expr *e)
{
    if (!e || !un_step(u, e->loc))
        return UNIFORM;
    switch (e->kind) {
    case E_INT:
    case E_FLOAT:
    case E_BOOL:
        return UNIFORM;
    case E_IDENT: {
        int s = sym_find(u, e->name);
        if (s >= 0)
            return u->syms[sym_target(u, s)].t;
        const wg_decl *g = global(u, e->name, D_VAR);
        return g ? global_taint(g, e->loc) : UNIFORM;
    }
    case E_CALL:
        return call(u, e);
    case E_INDEX:
        return join(expr(u, e->a), expr(u, e->b));
    case E_MEMBER:
        if (e->a && e->a->kind == E_IDENT) {
            int s = sym_find(u, e->a->name);
            const wg_decl *sd = s >= 0 ? u->syms[s].sdecl : NULL;
            for (uint32_t i = 0; sd && i < sd->nparams; i++)
                if (!strcmp(sd->params[i].name, e->name))
                    return builtin_taint(builtin_of(sd->params[i].attrs, sd->params[i].nattrs),
                                         e->loc);
        }
        return expr(u, e->a);
    case E_UNARY:
        return expr(u, e->a);
    case E_BINARY: {
        un_taint a = expr(u, e->a);
        if (e->op == TK_AND_AND || e->op == TK_OR_OR) {
            /* the right side runs only where the left side allows */
            un_taint saved = u->cf;
            u->cf = join(u->cf, a);
            un_taint b = expr(u, e->b);
            u->cf = saved;
            return join(a, b);
        }
        return join(a, expr(u, e->b));
    }
    }
    return UNIFORM;
}

/* A write of value taint t to lvalue e (joined: a partial write keeps the rest). */
static void assign(un_ctx *u, const wg_expr *lhs, un_taint t)
{
    t = join(join(t, u->cf), lvalue_indices(u, lhs));
    int s = root_sym(u, lhs);
    if (s < 0)
        return;
    /* the whole variable, on every path from its declaration on (no branch,
     * loop or call between): its old value is gone (WGSL's analysis); else
     * either value may be there */
    if (lhs->kind == E_IDENT && u->syms[s].level == u->level)
        u->syms[s].t = t;
    else
        u->syms[s].t = join(u->syms[s].t, t);
}

/* What the early exits of some invocations make of the statements after them. */
static un_taint exits(const un_ctx *u) { return join(u->poison, join(u->brk, u->cont)); }

static void early_exit(un_ctx *u, un_taint *which, wg_loc loc, const char *why)
{
    if (nonuni(u->cf) && !nonuni(*which))
        *which = at(loc, why);
}

static void block(un_ctx *u, const wg_stmt *s)
{
    int base = u->nsyms;
    for (uint32_t i = 0; i < s->n; i++) {
        stmt(u, s->stmts[i]);
        u->cf = join(u->cf, exits(u));
    }
    u->nsyms = base;
}

/* A snapshot of what a loop iteration can change: which symbols are
 * non-uniform, and the poison. */
static uint64_t state_hash(const un_ctx *u)
{
    uint64_t h = nonuni(exits(u)) ? 1469598103934665603ull : 7;
    for (int i = 0; i < u->nsyms; i++)
        h = (h ^ (uint64_t)nonuni(u->syms[i].t)) * 1099511628211ull + (uint64_t)i;
    return h;
}

/* One iteration: the condition (for, while), body, continuing / update. */
static void iteration(un_ctx *u, const wg_stmt *s)
{
    if (s->cond && s->kind != S_LOOP) {
        un_taint c = join(expr(u, s->cond), u->cf);
        if (nonuni(c) && !nonuni(u->brk))
            u->brk = at(s->loc, c.why); /* some invocations leave the loop here */
        u->cf = join(u->cf, exits(u));
    }
    int base = u->nsyms;
    stmt(u, s->body);
    u->cf = join(u->cf, exits(u));
    if (s->kind == S_LOOP && s->continuing)
        stmt(u, s->continuing);
    if (s->kind == S_FOR && s->update)
        stmt(u, s->update);
    u->nsyms = base;
}

static void loop(un_ctx *u, const wg_stmt *s)
{
    int base = u->nsyms;
    if (s->kind == S_FOR && s->init)
        stmt(u, s->init);
    un_taint cf0 = u->cf, brk0 = u->brk, cont0 = u->cont;
    u->brk = u->cont = UNIFORM;
    /* let the taints settle (they only grow), then walk once reporting */
    bool report = u->report, settled = false;
    u->report = false;
    for (int round = 0; round < 32 && !settled; round++) {
        uint64_t before = state_hash(u);
        u->cf = join(cf0, exits(u));
        iteration(u, s);
        settled = state_hash(u) == before;
    }
    u->report = report;
    u->cf = join(cf0, exits(u));
    /* a settled walk repeated finds nothing new: only a reporting one is
     * needed (so loops nested in a settling loop cost one walk each) */
    if (report || !settled)
        iteration(u, s);
    /* every invocation that broke out or left by the condition is back:
     * a loop's 'break' and 'continue' end with it (its behaviour is Next),
     * a 'return' in it does not */
    u->brk = brk0;
    u->cont = cont0;
    u->cf = join(cf0, exits(u));
    u->nsyms = base;
}

static void stmt(un_ctx *u, const wg_stmt *s)
{
    if (!s || !un_step(u, s->loc))
        return;
    switch (s->kind) {
    case S_BLOCK:
        block(u, s);
        break;
    case S_DECL: {
        const wg_decl *d = s->decl;
        un_taint t = d->init ? join(expr(u, d->init), u->cf) : u->cf;
        int sym = sym_push(u, d->name, t);
        if (sym >= 0 && d->init && d->kind == D_LET)
            if ((d->init->kind == E_UNARY && d->init->op == TK_AMP) ||
                (d->init->kind == E_IDENT && sym_find(u, d->init->name) >= 0 &&
                 u->syms[sym_find(u, d->init->name)].alias >= 0))
                u->syms[sym].alias = root_sym(u, d->init);
        break;
    }
    case S_ASSIGN:
        if (!s->lhs) {
            expr(u, s->rhs);
            break;
        }
        /* x op= y reads x too */
        assign(u, s->lhs, s->op == TK_ASSIGN ? expr(u, s->rhs)
                                             : join(expr(u, s->rhs), expr(u, s->lhs)));
        break;
    case S_INCDEC: /* x++ keeps x's own uniformity */
        assign(u, s->lhs, expr(u, s->lhs));
        break;
    case S_CALL:
        expr(u, s->rhs);
        break;
    case S_IF: {
        un_taint saved = u->cf;
        un_taint c = expr(u, s->cond);
        if (nonuni(c))
            u->cf = join(u->cf, at(s->loc, c.why));
        un_taint inner = u->cf;
        u->level++;
        stmt(u, s->body);
        u->cf = inner;
        stmt(u, s->els);
        u->level--;
        u->cf = join(saved, exits(u));
        break;
    }
    case S_SWITCH: {
        un_taint saved = u->cf, brk0 = u->brk;
        u->brk = UNIFORM; /* a 'break' in a case leaves the switch only */
        un_taint c = expr(u, s->cond);
        if (nonuni(c))
            u->cf = join(u->cf, at(s->loc, c.why));
        un_taint inner = u->cf;
        u->level++;
        for (uint32_t i = 0; i < s->ncases; i++) {
            u->cf = inner;
            stmt(u, s->cases[i].body);
        }
        u->level--;
        u->brk = brk0;
        u->cf = join(saved, exits(u));
        break;
    }
    case S_LOOP:
    case S_FOR:
    case S_WHILE:
        u->level++;
        loop(u, s);
        u->level--;
        break;
    case S_BREAK:
        early_exit(u, &u->brk, s->loc, "a 'break' taken by only some invocations");
        break;
    case S_CONTINUE:
        early_exit(u, &u->cont, s->loc, "a 'continue' taken by only some invocations");
        break;
    case S_BREAK_IF: {
        un_taint c = join(expr(u, s->cond), u->cf);
        if (nonuni(c) && !nonuni(u->brk))
            u->brk = at(s->loc, c.why);
        break;
    }
    case S_RETURN:
        if (s->cond)
            u->ret = join(u->ret, join(expr(u, s->cond), u->cf));
        early_exit(u, &u->poison, s->loc, "a 'return' taken by only some invocations");
        break;
    case S_DISCARD:
    case S_EMPTY:
        break;
    }
}

void wg_uniformity(const wg_ast *ast, const wg_decl *entry, bool fragment, wg_diags *d)
{
    un_ctx u = {.ast = ast, .d = d, .report = true, .fragment = fragment,
                .entry = entry->name};
    /* without recursion a call chain holds each function once */
    u.stack = malloc((ast->n + 1) * sizeof *u.stack);
    u.calls = malloc((ast->n + 1) * sizeof *u.calls);
    for (uint32_t i = 0; i < entry->nparams; i++) {
        const wg_param *p = &entry->params[i];
        const char *b = builtin_of(p->attrs, p->nattrs);
        /* a fragment's inputs (position, locations, ...) differ per fragment */
        int s = sym_push(&u, p->name, fragment ? at(p->loc, "a fragment shader input")
                                               : builtin_taint(b, p->loc));
        /* a compute shader's struct of builtins: each member as its builtin
         * (a fragment shader's members are inputs, all non-uniform) */
        if (s >= 0 && !fragment && !b && p->type && p->type->kind == E_IDENT)
            u.syms[s].sdecl = global(&u, p->type->name, D_STRUCT);
    }
    if (entry->body)
        stmt(&u, entry->body);
    free(u.syms);
    free(u.stack);
    free(u.calls);
}
