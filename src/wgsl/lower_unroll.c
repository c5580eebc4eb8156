/* Which `for` loops the nvidia profile lowers unrolled: NVIDIA's shader
 * compiler unrolls a loop with a constant trip count and then folds
 * across the copies what it folds in straight-line code (probes
 * pow_loop_2 .. pow_loop_16 and sum_loop_3, sum_loop_4 in
 * tests/data/nvprobe/h100-round3.json.gz: `for (var k = 0; k < N; k++)
 * { v = v * 0.99; }` is a * 0.99^N, the power folded in f32 one step at a
 * time, exactly as the same statements written out N times).
 *
 * The shape taken: `for (var k = INT; k OP INT; UPDATE)` where OP is < <=
 * > >= or !=, UPDATE is k++, k--, k += INT or k -= INT, the body never
 * writes k, takes its address, leaves the loop (break, continue, return,
 * discard) or declares another k, the loop runs 1 to
 * WG_UNROLL_MAX_TRIPS times, and its copies come to at most
 * WG_UNROLL_MAX_NODES syntax nodes (the lowering also bounds the whole
 * module's, so hostile nesting cannot multiply code).  Anything else runs as a loop.  In each copy
 * k is a `let` of its trip's value (the body cannot tell: it never writes
 * k), so a conversion f32(k) or an index by k is of a known value. */
#include "wgsl/lower.h"

#include <string.h>

static bool is_name(const wg_expr *e, const char *k)
{
    return e && e->kind == E_IDENT && e->ntargs == 0 && !strcmp(e->name, k);
}

/* An integer literal's value (a leading minus allowed). */
static bool int_lit(const wg_expr *e, int64_t *v)
{
    if (e && e->kind == E_UNARY && e->op == TK_MINUS && int_lit(e->a, v))
        return *v = -*v, true;
    if (!e || e->kind != E_INT)
        return false;
    *v = e->ival;
    return true;
}

/* Whether e takes k's address anywhere. */
static bool addresses(const wg_expr *e, const char *k)
{
    if (!e)
        return false;
    if (e->kind == E_UNARY && e->op == TK_AMP && is_name(e->a, k))
        return true;
    if (addresses(e->a, k) || addresses(e->b, k))
        return true;
    for (uint32_t i = 0; i < e->nargs; i++)
        if (addresses(e->args[i], k))
            return true;
    return false;
}

/* The root variable an assignment's left side writes. */
static const wg_expr *root(const wg_expr *e)
{
    while (e && (e->kind == E_INDEX || e->kind == E_MEMBER))
        e = e->a;
    return e;
}

/* The size of an expression or a statement in nodes (what a copy costs). */
static uint32_t expr_nodes(const wg_expr *e, unsigned depth)
{
    if (!e || depth > 64)
        return e ? WG_UNROLL_MAX_NODES : 0;
    uint32_t n = 1 + expr_nodes(e->a, depth + 1) + expr_nodes(e->b, depth + 1);
    for (uint32_t i = 0; i < e->nargs && n <= WG_UNROLL_MAX_NODES; i++)
        n += expr_nodes(e->args[i], depth + 1);
    return n;
}

static uint32_t stmt_nodes(const wg_stmt *s, unsigned depth)
{
    if (!s || depth > 64)
        return s ? WG_UNROLL_MAX_NODES : 0;
    uint32_t n = 1 + expr_nodes(s->lhs, depth) + expr_nodes(s->rhs, depth) +
                 expr_nodes(s->cond, depth) + stmt_nodes(s->body, depth + 1) +
                 stmt_nodes(s->els, depth + 1) + stmt_nodes(s->init, depth + 1) +
                 stmt_nodes(s->update, depth + 1) + stmt_nodes(s->continuing, depth + 1);
    if (s->kind == S_DECL && s->decl)
        n += expr_nodes(s->decl->init, depth);
    for (uint32_t i = 0; i < s->n && n <= WG_UNROLL_MAX_NODES; i++)
        n += stmt_nodes(s->stmts[i], depth + 1);
    for (uint32_t i = 0; i < s->ncases && n <= WG_UNROLL_MAX_NODES; i++)
        n += stmt_nodes(s->cases[i].body, depth + 1);
    return n;
}

/* Whether s could change k or leave the loop, or is too deep to tell. */
static bool blocks(const wg_stmt *s, const char *k, unsigned depth)
{
    if (!s)
        return false;
    if (depth > 32)
        return true;
    switch (s->kind) {
    case S_BREAK: case S_BREAK_IF: case S_CONTINUE: case S_RETURN: case S_DISCARD:
        return true;
    case S_DECL:
        return !strcmp(s->decl->name, k) || addresses(s->decl->init, k);
    case S_ASSIGN: case S_INCDEC:
        return is_name(root(s->lhs), k) || addresses(s->lhs, k) || addresses(s->rhs, k);
    case S_CALL:
        return addresses(s->rhs, k);
    default:
        break;
    }
    if (addresses(s->cond, k))
        return true;
    if (blocks(s->body, k, depth + 1) || blocks(s->els, k, depth + 1) ||
        blocks(s->init, k, depth + 1) || blocks(s->update, k, depth + 1) ||
        blocks(s->continuing, k, depth + 1))
        return true;
    for (uint32_t i = 0; i < s->n; i++)
        if (blocks(s->stmts[i], k, depth + 1))
            return true;
    for (uint32_t i = 0; i < s->ncases; i++) {
        if (blocks(s->cases[i].body, k, depth + 1))
            return true;
        for (uint32_t j = 0; j < s->cases[i].nselectors; j++)
            if (addresses(s->cases[i].selectors[j], k))
                return true;
    }
    return false;
}

static bool holds(wg_tok_kind op, int64_t v, int64_t n)
{
    switch (op) {
    case TK_LT: return v < n;
    case TK_LE: return v <= n;
    case TK_GT: return v > n;
    case TK_GE: return v >= n;
    case TK_NE: return v != n;
    default: return false;
    }
}

bool wg_unroll_trips(const wg_stmt *s, int64_t values[WG_UNROLL_MAX_TRIPS], uint32_t *trips,
                     uint32_t *nodes)
{
    const wg_decl *d = s->init && s->init->kind == S_DECL ? s->init->decl : NULL;
    int64_t v, n, step;
    if (!d || d->kind != D_VAR || !int_lit(d->init, &v) || !s->cond ||
        s->cond->kind != E_BINARY || !is_name(s->cond->a, d->name) || !int_lit(s->cond->b, &n) ||
        !s->update)
        return false;
    bool unsign = d->init->suffix == 'u' || (d->type && is_name(d->type, "u32"));
    if (d->type && !is_name(d->type, "u32") && !is_name(d->type, "i32"))
        return false;
    const wg_stmt *u = s->update;
    if (u->kind == S_INCDEC && is_name(u->lhs, d->name))
        step = u->op == TK_PLUS_PLUS ? 1 : -1;
    else if (u->kind == S_ASSIGN && is_name(u->lhs, d->name) && int_lit(u->rhs, &step) &&
             step > 0 && (u->op == TK_PLUS_ASSIGN || u->op == TK_MINUS_ASSIGN))
        step = u->op == TK_PLUS_ASSIGN ? step : -step;
    else
        return false;
    uint32_t t = 0;
    for (; holds(s->cond->op, v, n); t++) {
        if (t == WG_UNROLL_MAX_TRIPS)
            return false;
        values[t] = v;
        v += step;
        if (v < (unsign ? 0 : INT32_MIN) || v > (unsign ? (int64_t)UINT32_MAX : INT32_MAX))
            return false; /* it would wrap: left to the loop */
    }
    if (t == 0 || blocks(s->body, d->name, 0))
        return false;
    *nodes = stmt_nodes(s->body, 0) * t;
    if (*nodes > WG_UNROLL_MAX_NODES)
        return false; /* a large body stays a loop */
    *trips = t;
    return true;
}
