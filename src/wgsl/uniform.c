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

/* Where paths of the function meet (a loop's or switch's breaks, a loop's
 * continues, a function's returns): the symbols' taints joined over the
 * paths that reached it (WGSL "Function-scope Variable Value Analysis"). */
typedef struct un_flow {
    un_taint *t;
    int n, cap;
    bool any;              /* some path reached it */
    bool grow;             /* a loop's continues: the body's own names reach 'continuing' */
} un_flow;

typedef struct un_sym {
    const char *name;
    un_taint t;            /* a value, or a function-scope variable's value here */
    const wg_decl *sdecl;  /* an entry point's struct parameter: its members' builtins */
    /* a pointer (a let or a parameter of pointer type), as WGSL's analysis
     * desugars it: the memory view it was made from */
    bool ptr;
    int alias;             /* the local variable it points into, -1 none */
    const wg_decl *global; /* or the module-scope one */
    un_taint addr;         /* its address: the indices that made it */
    bool full;             /* a full pointer: the whole variable */
} un_sym;

typedef struct un_ctx {
    const wg_ast *ast;
    wg_diags *d;
    bool report;           /* false while a loop's taints settle */
    un_sym *syms;
    int nsyms, cap;
    int sym_base;          /* the first symbol of the function being analysed */
    bool fragment;         /* a fragment entry point: derivatives need uniform control flow */
    bool oom;
    bool dead;             /* no path reaches this statement (after a break, continue or
                            * return): WGSL does not analyse it */
    un_taint cf;           /* the control flow of the statement being walked */
    un_taint poison;       /* a 'return' of some invocations: the rest of the function */
    un_taint brk;          /* a 'break' (or a loop condition) of some invocations: the rest
                            * of the innermost loop or switch */
    un_taint cont;         /* a 'continue' of some invocations: the rest of the loop */
    un_taint ret;          /* the function's return value */
    un_flow *brkf, *contf, *retf; /* where a break, continue and return take the values */
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
    u->syms[u->nsyms] = (un_sym){.name = name, .t = t, .alias = -1};
    return u->nsyms++;
}

static int sym_find(const un_ctx *u, const char *name)
{
    for (int i = u->nsyms - 1; i >= u->sym_base; i--)
        if (u->syms[i].name && !strcmp(u->syms[i].name, name))
            return i;
    return -1;
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

/* What a memory view or pointer expression names (WGSL "Pointer
 * Desugaring"): a function-scope variable, else a module-scope one; the
 * uniformity of its address - the indices on the way and a pointer's own,
 * as they were when the pointer was made; whether it is the whole variable
 * (a full reference or full pointer: only a store through one replaces
 * the variable's value). */
typedef struct un_view {
    int var;
    const wg_decl *global;
    un_taint addr;
    bool full;
} un_view;

static un_view view(un_ctx *u, const wg_expr *e)
{
    un_view v = {-1, NULL, UNIFORM, true};
    for (; e && e->kind != E_IDENT; e = e->a) {
        if (e->kind == E_INDEX)
            v.addr = join(v.addr, expr(u, e->b));
        else if (!(e->kind == E_MEMBER ||
                   (e->kind == E_UNARY && (e->op == TK_AMP || e->op == TK_STAR))))
            break;
        if (e->kind != E_UNARY)
            v.full = false;
    }
    if (!e || e->kind != E_IDENT) {
        v.full = false;
        return v;
    }
    int s = sym_find(u, e->name);
    if (s >= 0 && u->syms[s].ptr) {
        const un_sym *p = &u->syms[s];
        v.var = p->alias, v.global = p->global;
        v.addr = join(v.addr, p->addr);
        v.full = v.full && p->full;
    } else if (s >= 0) {
        v.var = s;
    } else {
        v.global = global(u, e->name, D_VAR);
    }
    return v;
}

/* What a load through the view gives: the memory's value and the address's. */
static un_taint view_load(const un_ctx *u, const un_view *v, wg_loc loc)
{
    un_taint t = v->var >= 0 ? u->syms[v->var].t : v->global ? global_taint(v->global, loc)
                                                               : UNIFORM;
    return join(t, v->addr);
}

/* Whether e is a pointer: &r, or a name of one. */
static bool is_pointer(const un_ctx *u, const wg_expr *e)
{
    if (e->kind == E_UNARY && e->op == TK_AMP)
        return true;
    int s = e->kind == E_IDENT ? sym_find(u, e->name) : -1;
    return s >= 0 && u->syms[s].ptr;
}

static void make_pointer(un_sym *p, const un_view *v)
{
    p->ptr = true;
    p->alias = v->var, p->global = v->global;
    p->addr = v->addr, p->full = v->full;
}

/* The flows where paths meet.  A flow keeps the taints of symbols 0..n-1
 * (those that live where the paths meet). */
static void flow_init(un_ctx *u, un_flow *f, int n, bool grow)
{
    *f = (un_flow){.n = n, .cap = n > 0 ? n : 1, .grow = grow};
    f->t = malloc((size_t)f->cap * sizeof *f->t);
    if (!f->t)
        u->oom = true, f->n = 0;
}

/* The path that reaches here goes to f (a break, a continue, a return). */
static void flow_add(un_ctx *u, un_flow *f)
{
    if (!f || u->dead || !f->t)
        return;
    int n = f->n;
    if (f->grow && u->nsyms > n) {
        if (u->nsyms > f->cap) {
            un_taint *t = realloc(f->t, (size_t)u->nsyms * sizeof *t);
            if (!t) {
                u->oom = true;
                return;
            }
            f->t = t, f->cap = u->nsyms;
        }
        for (int i = n; i < u->nsyms; i++)
            f->t[i] = u->syms[i].t;
        f->n = u->nsyms;
    }
    for (int i = 0; i < n && i < u->nsyms; i++)
        f->t[i] = f->any ? join(f->t[i], u->syms[i].t) : u->syms[i].t;
    f->any = true;
}

/* Where the paths of f and the current one (unless dead) meet. */
static void flow_merge(un_ctx *u, const un_flow *f)
{
    if (!f->any || !f->t)
        return;
    for (int i = 0; i < f->n && i < u->nsyms; i++)
        u->syms[i].t = u->dead ? f->t[i] : join(u->syms[i].t, f->t[i]);
    u->dead = false;
}

static un_taint *snapshot(un_ctx *u)
{
    un_taint *t = malloc((size_t)(u->nsyms ? u->nsyms : 1) * sizeof *t);
    if (!t) {
        u->oom = true;
        return NULL;
    }
    for (int i = 0; i < u->nsyms; i++)
        t[i] = u->syms[i].t;
    return t;
}

static void restore(un_ctx *u, const un_taint *t, int n)
{
    for (int i = 0; t && i < n && i < u->nsyms; i++)
        u->syms[i].t = t[i];
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

/* WGSL's filterable uniformity rules (2.3.2, 14.2): derivative_uniformity
 * (a derivative in non-uniform control flow of a fragment shader) and
 * subgroup_uniformity (a subgroup or quad builtin in non-uniform control
 * flow), errors unless a diagnostic filter over the call makes them a
 * warning, an info or nothing. */
static void check_filtered(un_ctx *u, const wg_expr *e, const char *name, const char *rule)
{
    if (!u->report || !nonuni(u->cf))
        return;
    int sev = wg_ast_severity(u->ast, rule, e->loc, WG_ERROR);
    if (sev < 0)
        return;
    char where[96] = "";
    if (u->depth > 0)
        snprintf(where, sizeof where, " (in function '%s', called at line %u)",
                 u->stack[u->depth - 1]->name, u->calls[0].line);
    wg_report(u->d, (wg_severity)sev, e->loc, rule, "%s must only be called "
              "from uniform control flow%s: control flow is non-uniform from line %u:%u, which "
              "depends on %s", name, where, u->cf.at.line, u->cf.at.col,
              u->cf.why ? u->cf.why : "a non-uniform value");
}

/* WGSL "Uniformity Rules for Function Calls": subgroupShuffleUp's and
 * subgroupShuffleDown's delta and subgroupShuffleXor's mask must be uniform
 * values, under the subgroup_uniformity rule (a diagnostic filter may lower
 * or silence it). */
static void check_subgroup_operand(un_ctx *u, const wg_expr *e, const char *name, un_taint t)
{
    if (!u->report || !nonuni(t) || e->nargs < 2)
        return;
    int sev = wg_ast_severity(u->ast, "subgroup_uniformity", e->args[1]->loc, WG_ERROR);
    if (sev < 0)
        return;
    wg_report(u->d, (wg_severity)sev, e->args[1]->loc, "subgroup_uniformity", "the %s of %s "
              "must be a uniform value: it depends on %s (line %u:%u)",
              strcmp(name, "subgroupShuffleXor") ? "delta" : "mask", name,
              t.why ? t.why : "a non-uniform value", t.at.line, t.at.col);
}

static un_taint user_call(un_ctx *u, const wg_decl *fn, const wg_expr *e)
{
    un_taint args = UNIFORM;
    uint32_t n = e->nargs;
    un_view *v = malloc((n ? n : 1) * sizeof *v);
    un_taint *t = malloc((n ? n : 1) * sizeof *t);
    bool *ptr = malloc(n ? n : 1);
    if (!v || !t || !ptr || !u->stack) {
        free(v);
        free(t);
        free(ptr);
        u->oom = true;
        return at(e->loc, "a call stex had no memory to analyse");
    }
    for (uint32_t i = 0; i < n; i++) {
        const wg_expr *a = e->args[i];
        v[i] = (un_view){-1, NULL, UNIFORM, false};
        ptr[i] = is_pointer(u, a);
        if (ptr[i]) {
            /* a pointer parameter is the caller's memory view */
            v[i] = view(u, a);
            t[i] = v[i].addr = join(v[i].addr, u->cf);
        } else {
            t[i] = join(expr(u, a), u->cf);
        }
        args = join(args, t[i]);
    }
    for (int k = 0; k < u->depth; k++)
        if (u->stack[k] == fn) {
            free(v);
            free(t);
            free(ptr);
            return args; /* recursion: reported by lowering */
        }
    int base = u->nsyms, sym_base = u->sym_base;
    u->sym_base = base; /* the callee sees its parameters, not the caller's names */
    for (uint32_t i = 0; i < n && i < fn->nparams; i++) {
        int s = sym_push(u, fn->params[i].name, t[i]);
        if (s >= 0 && ptr[i])
            make_pointer(&u->syms[s], &v[i]);
    }
    free(v);
    free(t);
    free(ptr);
    un_taint saved_poison = u->poison, saved_ret = u->ret, saved_brk = u->brk,
             saved_cont = u->cont, saved_cf = u->cf;
    un_flow *brkf = u->brkf, *contf = u->contf, *retf = u->retf, ret;
    /* the caller's variables it may store to through its pointers, as its
     * returns leave them */
    flow_init(u, &ret, base, false);
    u->brkf = u->contf = NULL;
    u->retf = &ret;
    u->poison = u->brk = u->cont = UNIFORM;
    u->ret = UNIFORM;
    u->calls[u->depth] = e->loc;
    u->stack[u->depth++] = fn;
    if (fn->body)
        stmt(u, fn->body);
    u->depth--;
    flow_add(u, &ret); /* the end of the body, if it is reached */
    u->nsyms = base;
    u->dead = true;
    flow_merge(u, &ret);
    free(ret.t);
    un_taint r = u->ret;
    u->poison = saved_poison;
    u->brk = saved_brk;
    u->cont = saved_cont;
    u->ret = saved_ret;
    u->brkf = brkf, u->contf = contf, u->retf = retf;
    u->sym_base = sym_base;
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
        check_filtered(u, e, name, "derivative_uniformity");
    if (!strcmp(name, "workgroupUniformLoad")) {
        check_sync(u, e, name);
        /* its pointer is the same in every invocation: &a[i] with i uniform,
         * or a pointer made so */
        const wg_expr *a = e->nargs ? e->args[0] : NULL;
        un_taint p = !a ? UNIFORM : is_pointer(u, a) ? view(u, a).addr : expr(u, a);
        if (u->report && nonuni(p))
            wg_error(u->d, a->loc, "uniformity", "the pointer of workgroupUniformLoad must be "
                     "uniform: it depends on %s (line %u:%u)", p.why ? p.why : "a non-uniform "
                     "value", p.at.line, p.at.col);
        return UNIFORM;
    }
    const wg_decl *fn = global(u, name, D_FN);
    if (fn)
        return user_call(u, fn, e);
    un_taint t = UNIFORM, second = UNIFORM;
    for (uint32_t i = 0; i < e->nargs; i++) {
        const wg_expr *a = e->args[i];
        /* a pointer argument (atomics, arrayLength): the pointer, not the value */
        un_taint ti = is_pointer(u, a) ? view(u, a).addr : expr(u, a);
        t = join(t, ti);
        if (i == 1)
            second = ti;
    }
    if (is_atomic(name))
        return join(t, at(e->loc, "an atomic's result"));
    if (needs_derivatives(name)) /* a neighbour's value enters it */
        return join(t, at(e->loc, "a derivative's result"));
    if (!strncmp(name, "subgroup", 8) || !strncmp(name, "quad", 4)) {
        /* uniform control flow only; their results vary per invocation */
        check_filtered(u, e, name, "subgroup_uniformity");
        if (!strcmp(name, "subgroupShuffleUp") || !strcmp(name, "subgroupShuffleDown") ||
            !strcmp(name, "subgroupShuffleXor"))
            check_subgroup_operand(u, e, name, second);
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
        if (s >= 0 && u->syms[s].ptr) { /* a pointer used as a value: what it points to */
            const un_sym *p = &u->syms[s];
            un_view v = {p->alias, p->global, p->addr, p->full};
            return view_load(u, &v, e->loc);
        }
        if (s >= 0)
            return u->syms[s].t;
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

/* A write of value taint t to lvalue e: through a full reference it is
 * the variable's value from here on, through a partial one (an element, a
 * member) it joins the rest (WGSL "Function-scope Variable Value
 * Analysis"). */
static void assign(un_ctx *u, const wg_expr *lhs, un_taint t)
{
    un_view v = view(u, lhs);
    t = join(join(t, u->cf), v.addr);
    if (v.var < 0)
        return;
    u->syms[v.var].t = v.full ? t : join(u->syms[v.var].t, t);
}

/* What the early exits of some invocations make of the statements after them. */
static un_taint exits(const un_ctx *u) { return join(u->poison, join(u->brk, u->cont)); }

static void early_exit(un_ctx *u, un_taint *which, wg_loc loc, const char *why)
{
    if (nonuni(u->cf) && !nonuni(*which))
        *which = at(loc, why);
}

/* A block's statements, up to the first one no path reaches (WGSL does
 * not analyse statically unreachable code); its names stay. */
static void statements(un_ctx *u, const wg_stmt *s)
{
    for (uint32_t i = 0; i < s->n && !u->dead; i++) {
        stmt(u, s->stmts[i]);
        u->cf = join(u->cf, exits(u));
    }
}

static void block(un_ctx *u, const wg_stmt *s)
{
    int base = u->nsyms;
    statements(u, s);
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

/* A loop's head: the values from before the loop joined with those its
 * iterations so far ended with. */
static void loop_head(un_ctx *u, const un_taint *entry, int n, const un_flow *back)
{
    u->nsyms = n;
    restore(u, entry, n);
    u->dead = false;
    flow_merge(u, back);
}

/* One iteration from the head: the condition (for, while), body,
 * continuing / update; where it ends goes to `back`. */
static void iteration(un_ctx *u, const wg_stmt *s, un_flow *back, const un_flow *contf)
{
    if (s->cond && s->kind != S_LOOP) {
        un_taint c = join(expr(u, s->cond), u->cf);
        if (nonuni(c) && !nonuni(u->brk))
            u->brk = at(s->loc, c.why); /* some invocations leave the loop here */
        flow_add(u, u->brkf);
        u->cf = join(u->cf, exits(u));
    }
    int base = u->nsyms;
    /* the body's names stay for 'continuing' */
    if (s->body && s->body->kind == S_BLOCK && un_step(u, s->body->loc))
        statements(u, s->body);
    else
        stmt(u, s->body);
    flow_merge(u, contf); /* 'continuing' also starts where a 'continue' was */
    u->cf = join(u->cf, exits(u));
    if (!u->dead && s->kind == S_LOOP && s->continuing)
        stmt(u, s->continuing);
    if (!u->dead && s->kind == S_FOR && s->update)
        stmt(u, s->update);
    flow_add(u, back);
    u->nsyms = base;
}

static void loop(un_ctx *u, const wg_stmt *s)
{
    int base = u->nsyms;
    if (s->kind == S_FOR && s->init)
        stmt(u, s->init);
    int n = u->nsyms;
    un_taint cf0 = u->cf, brk0 = u->brk, cont0 = u->cont;
    un_flow *brkf0 = u->brkf, *contf0 = u->contf, brkf, contf, back;
    un_taint *entry = snapshot(u);
    flow_init(u, &brkf, n, false);
    flow_init(u, &contf, n, true);
    flow_init(u, &back, n, false);
    u->brkf = &brkf, u->contf = &contf;
    u->brk = u->cont = UNIFORM;
    /* let the taints settle (they only grow), then walk once reporting */
    bool report = u->report, settled = false;
    u->report = false;
    for (int round = 0; round < 32 && !settled && !u->oom; round++) {
        loop_head(u, entry, n, &back);
        uint64_t before = state_hash(u);
        u->cf = join(cf0, exits(u));
        iteration(u, s, &back, &contf);
        loop_head(u, entry, n, &back);
        settled = state_hash(u) == before;
    }
    u->report = report;
    loop_head(u, entry, n, &back);
    u->cf = join(cf0, exits(u));
    /* a settled walk repeated finds nothing new: only a reporting one is
     * needed (so loops nested in a settling loop cost one walk each) */
    if (report || !settled)
        iteration(u, s, &back, &contf);
    /* after the loop, the values its breaks and condition took out; none:
     * it is left only by a return, or never (the rest is unreachable) */
    u->dead = true;
    flow_merge(u, &brkf);
    /* every invocation that broke out or left by the condition is back:
     * a loop's 'break' and 'continue' end with it (its behaviour is Next),
     * a 'return' in it does not */
    u->brk = brk0;
    u->cont = cont0;
    u->brkf = brkf0, u->contf = contf0;
    u->cf = join(cf0, exits(u));
    u->nsyms = base;
    free(entry);
    free(brkf.t);
    free(contf.t);
    free(back.t);
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
        if (d->kind == D_LET && d->init && is_pointer(u, d->init)) {
            /* a pointer: the view it names, its indices' values taken now */
            un_view v = view(u, d->init);
            v.addr = join(v.addr, u->cf);
            int sym = sym_push(u, d->name, v.addr);
            if (sym >= 0)
                make_pointer(&u->syms[sym], &v);
            break;
        }
        /* var x; holds the zero value, made in this control flow */
        sym_push(u, d->name, d->init ? join(expr(u, d->init), u->cf) : u->cf);
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
        /* after it, the values of the branches that reach its end */
        int n = u->nsyms;
        un_taint *pre = snapshot(u);
        un_flow out;
        flow_init(u, &out, n, false);
        stmt(u, s->body);
        flow_add(u, &out);
        restore(u, pre, n);
        u->dead = false;
        u->cf = inner;
        stmt(u, s->els);
        flow_add(u, &out);
        u->dead = true;
        flow_merge(u, &out);
        free(pre);
        free(out.t);
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
        /* after it, the values of the cases that end or break */
        int n = u->nsyms;
        un_taint *pre = snapshot(u);
        un_flow *brkf0 = u->brkf, out;
        flow_init(u, &out, n, false);
        u->brkf = &out;
        for (uint32_t i = 0; i < s->ncases; i++) {
            restore(u, pre, n);
            u->dead = false;
            u->cf = inner;
            stmt(u, s->cases[i].body);
            flow_add(u, &out);
        }
        u->dead = true;
        flow_merge(u, &out);
        u->brkf = brkf0;
        free(pre);
        free(out.t);
        u->brk = brk0;
        u->cf = join(saved, exits(u));
        break;
    }
    case S_LOOP:
    case S_FOR:
    case S_WHILE:
        loop(u, s);
        break;
    case S_BREAK:
        early_exit(u, &u->brk, s->loc, "a 'break' taken by only some invocations");
        flow_add(u, u->brkf);
        u->dead = true;
        break;
    case S_CONTINUE:
        early_exit(u, &u->cont, s->loc, "a 'continue' taken by only some invocations");
        flow_add(u, u->contf);
        u->dead = true;
        break;
    case S_BREAK_IF: {
        un_taint c = join(expr(u, s->cond), u->cf);
        if (nonuni(c) && !nonuni(u->brk))
            u->brk = at(s->loc, c.why);
        flow_add(u, u->brkf);
        break;
    }
    case S_RETURN:
        if (s->cond)
            u->ret = join(u->ret, join(expr(u, s->cond), u->cf));
        early_exit(u, &u->poison, s->loc, "a 'return' taken by only some invocations");
        flow_add(u, u->retf);
        u->dead = true;
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
