/* The nvidia profile's compiler rewrites (stex_math_float_rewrite_rule
 * STEX_FLOAT_REWRITE_NVIDIA): what NVIDIA's shader compiler does to f32
 * arithmetic before the program runs, each rule measured on the GPU by
 * tools/nvprobe (tests/data/nvprobe/README.md names the probe and its rows):
 *  - contraction: a sum or a difference with a product operand is one fused
 *    multiply-add, wherever the product comes from - the same expression, a
 *    `let`, a `var` written in the same straight-line code, a function's one
 *    return: x*y + c and c + x*y (mul_add, add_mul), x*y - c (mul_sub),
 *    c - x*y (sub_mul); with two products the left one is fused
 *    (a*b + c*d = fma(a, b, c*d)), so dot(v, w) of a vec3, summed left to
 *    right by the lowering, is fma(v2, w2, fma(v0, w0, v1*w1)) as the device
 *    gives it (probes mad ... cross_x, dot2, normalize3_x, length3);
 *  - a quotient by a square root is a product by the reciprocal square root:
 *    x / sqrt(y) = x * inverseSqrt(y) (normalize(v) = v * inverseSqrt(dot(v,
 *    v)); probes rsqrt_div, div_sqrt, normalize2_x), when every reader of
 *    the root divides by it.
 * WGSL allows both (15.7.5: contraction, and operations may be evaluated
 * to the accuracy of the expression's builtins).  The pass runs on the
 * bytecode as lowered, before wg_optimize, keeping for each register the
 * operation whose value it holds (a value number per write; a copy keeps its
 * source's), so an operand that changed in between is never used. */
#include "wgsl/opt.h"

#include <stdlib.h>
#include <string.h>

typedef struct pdef {
    bool has;        /* false: nothing known */
    stex_math_fn fn; /* the f32 operation whose value it is (ADD, SUB, MUL; NEG
                      * of a product: NEG with ra, rb the product's) */
    uint32_t ra, rb; /* the operands' registers */
    uint32_t va, vb; /* and their value numbers then */
    uint32_t at;     /* the instruction that computed it */
    bool bk;         /* rb held a constant then (kb); for MUL the constant is */
    uint32_t kb;     /* always rb: a constant left operand is swapped there */
} pdef;

/* A value made inside one copy of an unrolled loop's body from a value
 * made before the copy, times constants: base * k.  The device folds a
 * loop's body before unrolling it, so such a product is folded as one
 * relative to the base, whatever the base later turns out to be. */
typedef struct rel {
    bool has;
    uint32_t base, bv; /* the base's register and value number then */
    uint32_t k;        /* the constants' product so far, in f32 */
    uint32_t copy;     /* the copy (its first value number) */
    bool rooted;       /* the base was root * rk, folded already (the previous copy) */
    uint32_t root, rv, rk;
} rel;

enum { MAX_COPY_DEPTH = 32 }; /* nested unrolled loops followed; deeper ones as straight code */

typedef struct state {
    uint32_t nregs, next;
    uint32_t *vn;   /* value number per register */
    pdef *def;      /* what each register's value is */
    bool *masked;   /* written by a masked copy since the execution mask last changed */
    bool *known;    /* holds a constant the compiler sees */
    uint32_t *k;    /* which */
    uint32_t *kat;  /* and the OP_CONST that wrote it (UINT32_MAX: a copy) */
    rel *rel;       /* what each register is relative to its copy's start */
    rel pending;    /* the instruction being rewritten: its value's rel */
    struct { uint32_t vn, end; } copies[MAX_COPY_DEPTH]; /* the copies being run, innermost last */
    uint32_t ncopies;
} state;

static void fresh(state *s, uint32_t r)
{
    if (r >= s->nregs)
        return;
    s->vn[r] = s->next++;
    s->def[r].has = false;
    s->masked[r] = false;
    s->known[r] = false;
    s->rel[r].has = false;
}

/* The execution mask changes: a masked copy no longer equals its source in
 * every lane that runs next. */
static void mask_changes(state *s)
{
    for (uint32_t r = 0; r < s->nregs; r++)
        if (s->masked[r])
            fresh(s, r);
}

/* How often each register is read and written in the whole program, and
 * how often read as a divisor: an instruction rewritten in place (into a
 * constant, or a square root into its reciprocal) must have one reader. */
typedef struct uses {
    uint32_t *reads, *writes, *divisor;
    uint32_t all_from; /* registers from here on are read as a whole range */
    bool *dead;        /* per instruction: its result is overwritten before any read */
} uses;

/* Which instructions' results nothing reads: written over, in straight
 * code, before any read (the lowering leaves the product of a fused
 * multiply-add so, its register reused later).  One backward scan; at a
 * jump, a merge of lanes or a loop's head every register counts as read,
 * and only plain register operations (written in every lane) write one
 * over. */
static bool find_dead(const wg_program *p, uint32_t nregs, uses *u)
{
    uint32_t *killed = calloc(nregs ? nregs : 1, sizeof *killed), epoch = 1;
    bool *head = calloc(p->ncode + 1, sizeof *head);
    u->dead = calloc(p->ncode + 1, sizeof *u->dead);
    if (!killed || !head || !u->dead) {
        free(killed);
        free(head);
        return false;
    }
    for (uint32_t j = 0; j < p->ncode; j++)
        if (p->code[j].op == OP_LOOP_END && p->code[j].b <= j)
            head[p->code[j].b] = true;
    for (uint32_t j = p->ncode; j-- > 0;) {
        wg_ins *i = &p->code[j];
        uint32_t first[6], count[6], wf, wc;
        bool plain = false;
        switch ((wg_opcode)i->op) {
        case OP_CONST: case OP_MOV: case OP_MATH: case OP_CMP: case OP_BITS: case OP_SELECT:
            plain = true;
            break;
        case OP_IF: case OP_ELSE: case OP_ENDIF: case OP_MASK_CLEAR: case OP_BREAK_IF:
        case OP_LOOP_END: case OP_BREAK_JUMP: case OP_EXIT: case OP_MERGE: case OP_END:
            epoch++;
            continue;
        default: /* memory, masked copies, barriers: read, never written over */
            break;
        }
        if (plain) {
            wg_opt_written(i, &wf, &wc);
            if (wc == UINT32_MAX || wf >= nregs || wc > nregs - wf) {
                epoch++;
                continue;
            }
            bool dead = wc > 0;
            for (uint32_t w = 0; w < wc; w++)
                dead = dead && killed[wf + w] == epoch;
            u->dead[j] = dead;
            for (uint32_t w = 0; w < wc; w++)
                killed[wf + w] = epoch;
        }
        int n = wg_opt_read(i, first, count);
        if (n < 0)
            epoch++;
        for (int k = 0; k < n; k++) {
            if (count[k] == UINT32_MAX || first[k] >= nregs || count[k] > nregs - first[k]) {
                epoch++;
                break;
            }
            for (uint32_t w = 0; w < count[k]; w++)
                killed[first[k] + w] = 0;
        }
        if (i->op == OP_MOVM && i->d < nregs && i->n <= nregs - i->d) /* keeps d's other lanes */
            for (uint32_t w = 0; w < i->n; w++)
                killed[i->d + w] = 0;
        if (head[j])
            epoch++;
    }
    free(killed);
    free(head);
    return true;
}

static bool count_uses(const wg_program *p, uint32_t nregs, uses *u)
{
    u->reads = calloc(nregs ? nregs : 1, sizeof *u->reads);
    u->writes = calloc(nregs ? nregs : 1, sizeof *u->writes);
    u->divisor = calloc(nregs ? nregs : 1, sizeof *u->divisor);
    u->all_from = nregs;
    if (!u->reads || !u->writes || !u->divisor)
        return false;
    for (uint32_t j = 0; j < p->ncode; j++) {
        wg_ins *i = &p->code[j];
        uint32_t first[6], count[6], wf, wc;
        int n = wg_opt_read(i, first, count);
        for (int k = 0; k < n; k++) {
            if (count[k] == UINT32_MAX) {
                if (first[k] < u->all_from)
                    u->all_from = first[k];
                continue;
            }
            for (uint32_t w = 0; w < count[k] && first[k] + w < nregs; w++)
                u->reads[first[k] + w]++;
        }
        if (i->op == OP_MATH && i->imm == STEX_MATH_DIV_F32 && i->b < nregs && i->a != i->b)
            u->divisor[i->b]++;
        wg_opt_written(i, &wf, &wc);
        if (wc == UINT32_MAX) {
            if (wf < u->all_from)
                u->all_from = wf;
            continue;
        }
        for (uint32_t w = 0; w < wc && wf + w < nregs; w++)
            u->writes[wf + w]++;
    }
    return true;
}

static bool single_use(const uses *u, uint32_t r)
{
    return r < u->all_from && u->reads[r] == 1 && u->writes[r] == 1;
}

/* Whether the value instruction w writes is read by instruction j alone,
 * also through copies: a variable assigned from it and read back into a
 * temporary (what a loop unrolled through its variables gives) is the
 * same value with no other reader.  Scans forward with the registers
 * holding the value until none does. */
static bool value_read_only_by(wg_program *p, const uses *u, uint32_t w, uint32_t j)
{
    enum { MAXH = 8 };
    uint32_t held[MAXH], nheld = 0;
    if (p->code[w].d >= u->all_from)
        return false;
    held[nheld++] = p->code[w].d;
    bool seen = false, same_mask = true;
    for (uint32_t k = w + 1; k < p->ncode && nheld; k++) {
        wg_ins *q = &p->code[k];
        uint32_t first[6], count[6], wf, wc;
        int n = wg_opt_read(q, first, count);
        bool dead = q->op == OP_MATH && ((q->d < u->all_from && u->reads[q->d] == 0) || u->dead[k]);
        bool copy = q->op == OP_MOV || q->op == OP_MOVM;
        uint32_t to[MAXH], nto = 0; /* where copies put the value */
        switch ((wg_opcode)q->op) {
        case OP_IF: case OP_ELSE: case OP_ENDIF: case OP_MASK_CLEAR: case OP_BREAK_IF:
        case OP_LOOP_END: case OP_BREAK_JUMP: case OP_EXIT: case OP_MERGE: case OP_END:
            same_mask = false;
            break;
        default:
            break;
        }
        for (int m = 0; m < n && !dead; m++)
            for (uint32_t h = 0; h < nheld; h++)
                if (held[h] >= first[m] && (count[m] == UINT32_MAX || held[h] - first[m] < count[m])) {
                    /* a masked copy keeps its destination's lanes that do not
                     * run: lanes that, under the same mask, never held it */
                    if (q->op == OP_MOVM && held[h] >= q->d && held[h] - q->d < q->n && same_mask)
                        continue;
                    if (k == j)
                        seen = true;
                    else if (copy && held[h] >= q->a && held[h] - q->a < q->n && nto < MAXH)
                        to[nto++] = q->d + (held[h] - q->a);
                    else
                        return false;
                }
        if (q->op == OP_LOOP_END && q->b <= w)
            return false;
        wg_opt_written(q, &wf, &wc);
        for (uint32_t h = 0; h < nheld;) /* overwritten: no longer the value */
            if (held[h] >= wf && (wc == UINT32_MAX || held[h] - wf < wc))
                held[h] = held[--nheld];
            else
                h++;
        for (uint32_t t = 0; t < nto; t++) {
            if (nheld == MAXH || to[t] >= u->all_from)
                return false;
            held[nheld++] = to[t];
        }
    }
    return seen;
}

/* A register holding value number v now (r itself if unchanged). */
static bool holder(const state *s, uint32_t r, uint32_t v, uint32_t *out)
{
    if (r < s->nregs && s->vn[r] == v)
        return *out = r, true;
    for (uint32_t q = 0; q < s->nregs; q++)
        if (s->vn[q] == v && !s->known[q])
            return *out = q, true;
    return false;
}

/* What register r holds with its operands still in place: its pdef if of
 * operation fn, else NULL. */
static const pdef *holds(const state *s, uint32_t r, stex_math_fn fn)
{
    if (r >= s->nregs)
        return NULL;
    const pdef *d = &s->def[r];
    if (!d->has || d->fn != fn || s->vn[d->ra] != d->va || s->vn[d->rb] != d->vb)
        return NULL;
    return d;
}

static bool kbits(const state *s, uint32_t r, uint32_t *v)
{
    if (r >= s->nregs || !s->known[r])
        return false;
    *v = s->k[r];
    return true;
}

static bool is_zero(const state *s, uint32_t r)
{
    uint32_t v;
    return kbits(s, r, &v) && (v & 0x7fffffffu) == 0;
}

static bool is_one(const state *s, uint32_t r)
{
    uint32_t v;
    return kbits(s, r, &v) && v == 0x3f800000u;
}

static float as_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* The instruction that made value v (into register d) is now OP_CONST k
 * (at): every register holding v holds k. */
static void now_constant(state *s, uint32_t v, uint32_t k, uint32_t d, uint32_t at)
{
    for (uint32_t q = 0; q < s->nregs; q++)
        if (s->vn[q] == v) {
            s->def[q].has = false, s->rel[q].has = false;
            s->known[q] = true, s->k[q] = k, s->kat[q] = q == d ? at : UINT32_MAX;
        }
}

static void to_mov(wg_ins *i, uint32_t a) { i->op = OP_MOV, i->a = a, i->n = 1, i->sub = 0; }

static void to_const(wg_ins *i, uint32_t v) { i->op = OP_CONST, i->imm = v, i->n = 1, i->sub = 0; }

static void to_math(wg_ins *i, stex_math_fn fn, uint32_t a, uint32_t b, uint32_t c, uint16_t n)
{
    i->op = OP_MATH, i->imm = (uint32_t)fn, i->a = a, i->b = b, i->c = c, i->n = n, i->sub = 1;
}

/* Folds the compiler makes (probes mul_zero ... sub_sub, each 16,384 rows):
 * x * 0 = +0, x * 1 = x, x + 0 = x and x - 0 = x (-0 kept, a subnormal
 * unflushed), 0 - x = -x, 0 / x = +0, fma(0, a, c) = c, fma(a, b, 0) =
 * a * b, mix(a, b, 0) = a, mix(a, b, 1) = b, and the cancellations
 * (a + b) - a = b, (a + b) - b = a, (a - b) + b = a, (a - b) - a = -b,
 * and (a * b) / b = a. */
static bool fold(const state *s, wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    uint32_t a = i->a, b = i->b, c = i->c;
    switch (fn) {
    case STEX_MATH_MUL_F32:
        if (is_zero(s, a) || is_zero(s, b))
            return to_const(i, 0), true;
        if (is_one(s, a) || is_one(s, b))
            return to_mov(i, is_one(s, b) ? a : b), true;
        return false;
    case STEX_MATH_ADD_F32:
        if (is_zero(s, a) || is_zero(s, b))
            return to_mov(i, is_zero(s, b) ? a : b), true;
        break;
    case STEX_MATH_SUB_F32:
        if (is_zero(s, b))
            return to_mov(i, a), true;
        if (is_zero(s, a))
            return to_math(i, STEX_MATH_NEG_F32, b, 0, 0, 1), true;
        break;
    case STEX_MATH_DIV_F32: {
        if (is_zero(s, a) && !s->known[b])
            return to_const(i, 0), true;
        const pdef *m = holds(s, a, STEX_MATH_MUL_F32); /* (x * y) / y = x (probe mul_div) */
        if (m && s->vn[b] == m->vb)
            return to_mov(i, m->ra), true;
        return false;
    }
    case STEX_MATH_FMA_F32:
        if (is_zero(s, a) || is_zero(s, b))
            return to_mov(i, c), true;
        if (is_zero(s, c))
            return to_math(i, STEX_MATH_MUL_F32, a, b, 0, 2), true;
        return false;
    case STEX_MATH_MIX_F32:
        if (is_zero(s, c) || is_one(s, c))
            return to_mov(i, is_zero(s, c) ? a : b), true;
        return false;
    default:
        return false;
    }
    const pdef *xa = holds(s, a, STEX_MATH_ADD_F32), *xs = holds(s, a, STEX_MATH_SUB_F32);
    if (fn == STEX_MATH_SUB_F32 && xa && s->vn[b] == xa->va)
        return to_mov(i, xa->rb), true;
    if (fn == STEX_MATH_SUB_F32 && xa && s->vn[b] == xa->vb)
        return to_mov(i, xa->ra), true;
    if (fn == STEX_MATH_ADD_F32 && xs && s->vn[b] == xs->vb)
        return to_mov(i, xs->ra), true;
    if (fn == STEX_MATH_SUB_F32 && xs && s->vn[b] == xs->va)
        return to_math(i, STEX_MATH_NEG_F32, xs->rb, 0, 0, 1), true;
    return false;
}

/* A common factor taken out (probes factor_add, factor_sub, shared_dot3):
 * p*q + p*r = p * (q + r), p*q - p*r = p * (q - r), the second product,
 * read only here, becoming the inner sum (a * b + c arrives as the
 * lowering's mul_add, its product the first). */
static bool factor(const state *s, const uses *u, wg_program *p, wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    const pdef *x, *y;
    pdef own; /* the product a * b + c names itself (the lowering's mul_add) */
    uint32_t other; /* the register of the second product */
    if (fn == STEX_MATH_ADD_F32 || fn == STEX_MATH_SUB_F32) {
        if (!single_use(u, i->a) || !single_use(u, i->b))
            return false;
        x = holds(s, i->a, STEX_MATH_MUL_F32), y = holds(s, i->b, STEX_MATH_MUL_F32);
        other = i->b;
    } else if (fn == STEX_MATH_MUL_ADD_F32 || fn == STEX_MATH_MUL_ADD_LET_F32) {
        if (!single_use(u, i->c))
            return false;
        own = (pdef){true, STEX_MATH_MUL_F32, i->a, i->b, s->vn[i->a], s->vn[i->b], 0, false, 0};
        x = &own, y = holds(s, i->c, STEX_MATH_MUL_F32), fn = STEX_MATH_ADD_F32;
        other = i->c;
    } else {
        return false;
    }
    if (!x || !y || (x != &own && y->at < x->at))
        return false;
    uint32_t xv[2] = {x->va, x->vb}, xr[2] = {x->ra, x->rb}, yv[2] = {y->va, y->vb},
             yr[2] = {y->ra, y->rb};
    for (int m = 0; m < 2; m++)
        for (int n = 0; n < 2; n++) {
            /* the factor, and the other operands, still in their registers */
            if (xv[m] != yv[n] || s->vn[xr[1 - m]] != xv[1 - m] || s->vn[yr[1 - n]] != yv[1 - n])
                continue;
            uint32_t t = other, q = xr[1 - m], r = yr[1 - n], f = xr[m];
            to_math(&p->code[y->at], fn, q, r, 0, 2);
            to_math(i, STEX_MATH_MUL_F32, f, t, 0, 2);
            return true;
        }
    return false;
}

/* Constants re-associated (probes sub_mul, add_mul, mul_mul, add_add):
 * (x + k1) * k2 = fma(x, k2, k1*k2), (x - k1) * k2 = fma(x, k2, -(k1*k2)),
 * (x * k1) * k2 = x * (k1*k2), (x + k1) + k2 = x + (k1+k2), the constants'
 * step in f32.  The inner operation, read only here (also through copies),
 * becomes the constant. */
static bool reassociate(state *s, const uses *u, wg_program *p, wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    uint32_t k2, k1;
    if ((fn != STEX_MATH_MUL_F32 && fn != STEX_MATH_ADD_F32) || !kbits(s, i->b, &k2))
        return false;
    const pdef *x = NULL;
    stex_math_fn inner[3] = {STEX_MATH_ADD_F32, STEX_MATH_SUB_F32, STEX_MATH_MUL_F32};
    for (int t = 0; t < 3 && !x; t++)
        if (fn == STEX_MATH_MUL_F32 || inner[t] == STEX_MATH_ADD_F32)
            x = holds(s, i->a, inner[t]);
    uint32_t unused;
    if (!x || kbits(s, x->ra, &unused) || !kbits(s, x->rb, &k1) || /* (both constant: as is) */
        !value_read_only_by(p, u, x->at, (uint32_t)(i - p->code)))
        return false;
    float a = as_f(k1), b = as_f(k2), v;
    if (fn == STEX_MATH_ADD_F32)
        v = a + b;
    else
        v = x->fn == STEX_MATH_SUB_F32 ? -(a * b) : a * b;
    uint32_t t = i->a, xr = x->ra;
    to_const(&p->code[x->at], f_bits(v));
    now_constant(s, s->vn[t], f_bits(v), p->code[x->at].d, x->at);
    if (fn == STEX_MATH_ADD_F32)
        to_math(i, STEX_MATH_ADD_F32, xr, t, 0, 2);
    else if (x->fn == STEX_MATH_MUL_F32)
        to_math(i, STEX_MATH_MUL_F32, xr, t, 0, 2);
    else
        to_math(i, STEX_MATH_MUL_ADD_F32, xr, i->b, t, 3);
    return true;
}

/* The rel of register r valid in the innermost copy. */
static const rel *copy_rel(const state *s, uint32_t r)
{
    if (r >= s->nregs || !s->ncopies)
        return NULL;
    const rel *x = &s->rel[r];
    return x->has && x->copy == s->copies[s->ncopies - 1].vn ? x : NULL;
}

/* What instruction i, as lowered, makes relative to its copy (before any
 * rewrite of it): a product by a constant of a value from before the copy,
 * or of one that is itself such a product. */
static void note_rel(state *s, const wg_ins *i)
{
    s->pending.has = false;
    if (!s->ncopies || i->op != OP_MATH || i->imm != STEX_MATH_MUL_F32 || i->a >= s->nregs ||
        i->b >= s->nregs || s->known[i->a] == s->known[i->b])
        return;
    uint32_t kr = s->known[i->b] ? i->b : i->a, xr = kr == i->b ? i->a : i->b, root;
    uint32_t copy = s->copies[s->ncopies - 1].vn;
    const rel *x = copy_rel(s, xr);
    const pdef *b = &s->def[xr];
    if (x) {
        s->pending = *x;
        s->pending.k = f_bits(as_f(x->k) * as_f(s->k[kr]));
    } else if (s->vn[xr] < copy) {
        s->pending = (rel){true, xr, s->vn[xr], s->k[kr], copy, false, 0, 0, 0};
        if (b->has && b->fn == STEX_MATH_MUL_F32 && b->bk && holder(s, b->ra, b->va, &root))
            s->pending.rooted = true, s->pending.root = root, s->pending.rv = b->va,
            s->pending.rk = b->kb;
    }
}

/* (x * k1) * k2 = x * (k1*k2) also where x * k1 has other readers and x
 * lives on only in another register (probes pow_unrolled_8, sum_unrolled_8:
 * `v = v * 0.99` written eight times is a * 0.99^8, the powers folded one
 * step at a time in f32, and each `v * 0.016` beside them a * (0.99^k *
 * 0.016), fused into the sum p + v * 0.016).  k2's own OP_CONST, read
 * only here, becomes k1*k2.
 * Inside a copy of an unrolled loop the body was folded first, with the
 * values from before the copy unknown: there `v = v * 0.99; p = p + v *
 * 0.016` gives the term v_before * (0.99 * 0.016), and only then v_before
 * = a * 0.99^(k-1) is folded in: a * (0.99^(k-1) * (0.99*0.016)) (probes
 * sum_loop_5 .. sum_loop_16, round 4: a different constant from the
 * hand-written sum's from the second term on). */
static bool reassociate_shared(state *s, const uses *u, wg_program *p, wg_ins *i)
{
    switch ((stex_math_fn)i->imm) { /* a product, or the product inside a fused step */
    case STEX_MATH_MUL_F32: case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32:
    case STEX_MATH_MUL_ADD_LET_F32: case STEX_MATH_MUL_SUB_F32: case STEX_MATH_SUB_MUL_F32:
    case STEX_MATH_NEG_MUL_SUB_F32:
        break;
    default:
        return false;
    }
    uint32_t kr = s->known[i->b] ? i->b : i->a, xr = kr == i->b ? i->a : i->b;
    if (kr >= s->nregs || xr >= s->nregs || !s->known[kr] || s->known[xr] ||
        s->kat[kr] == UINT32_MAX || !value_read_only_by(p, u, s->kat[kr], (uint32_t)(i - p->code)))
        return false;
    uint32_t r, k1;
    const rel *in_copy = copy_rel(s, xr);
    bool rooted = in_copy && in_copy->rooted && holder(s, in_copy->root, in_copy->rv, &r);
    if (in_copy && !rooted && !holder(s, in_copy->base, in_copy->bv, &r))
        in_copy = NULL;
    if (in_copy) {
        k1 = in_copy->k;
    } else {
        const pdef *x = &s->def[xr];
        if (!x->has || x->fn != STEX_MATH_MUL_F32 || !x->bk || !holder(s, x->ra, x->va, &r))
            return false;
        k1 = x->kb;
    }
    wg_ins *k = &p->code[s->kat[kr]];
    if (k->op != OP_CONST || k->d != kr)
        return false;
    uint32_t v = f_bits(as_f(k1) * as_f(s->k[kr]));
    if (rooted) /* the base's own constant, folded in after unrolling */
        v = f_bits(as_f(in_copy->rk) * as_f(v));
    k->imm = v, s->k[kr] = v;
    i->a = r, i->b = kr;
    return true;
}

/* An f32 sum or difference with a product operand (or a negated product)
 * becomes one fused step, the left operand's product first. */
static void contract(const state *s, wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    if (fn != STEX_MATH_ADD_F32 && fn != STEX_MATH_SUB_F32)
        return;
    bool add = fn == STEX_MATH_ADD_F32;
    const pdef *xm = holds(s, i->a, STEX_MATH_MUL_F32), *xn = holds(s, i->a, STEX_MATH_NEG_F32);
    const pdef *ym = holds(s, i->b, STEX_MATH_MUL_F32), *yn = holds(s, i->b, STEX_MATH_NEG_F32);
    uint32_t a = i->a, b = i->b;
    if (xm) /* x*y + c, x*y - c */
        to_math(i, add ? STEX_MATH_MUL_ADD_F32 : STEX_MATH_MUL_SUB_F32, xm->ra, xm->rb, b, 3);
    else if (xn) /* -(x*y) + c = c - x*y; -(x*y) - c = fma(-x, y, -c) (probe negprod_sub) */
        to_math(i, add ? STEX_MATH_SUB_MUL_F32 : STEX_MATH_NEG_MUL_SUB_F32, xn->ra, xn->rb, b, 3);
    else if (ym) /* c + x*y, c - x*y */
        to_math(i, add ? STEX_MATH_ADD_MUL_F32 : STEX_MATH_SUB_MUL_F32, ym->ra, ym->rb, a, 3);
    else if (yn) /* c + -(x*y) = c - x*y, c - -(x*y) = c + x*y */
        to_math(i, add ? STEX_MATH_SUB_MUL_F32 : STEX_MATH_ADD_MUL_F32, yn->ra, yn->rb, a, 3);
}

/* A quotient read only by a sum or difference is a product by the
 * reciprocal, fused (probes div_add, div_sub, loop_div): a / b + c =
 * fma(a, rcp(b), c); the division, read only here, becomes the
 * reciprocal. */
static bool contract_quotient(state *s, const uses *u, wg_program *p, wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    if (fn != STEX_MATH_ADD_F32 && fn != STEX_MATH_SUB_F32)
        return false;
    bool add = fn == STEX_MATH_ADD_F32;
    uint32_t j = (uint32_t)(i - p->code), num[2], den[2];
    /* each operand's quotient, its operands in some register still (a loop
     * unrolled through a variable has since reused the temporaries) */
    const pdef *q[2] = {&s->def[i->a], &s->def[i->b]};
    uint32_t r[2] = {i->a, i->b};
    for (int k = 0; k < 2; k++)
        if (r[k] >= s->nregs || !q[k]->has || q[k]->fn != STEX_MATH_DIV_F32 ||
            !holder(s, q[k]->ra, q[k]->va, &num[k]) || !holder(s, q[k]->rb, q[k]->vb, &den[k]) ||
            s->known[den[k]] || /* a constant divisor: the compiler multiplies by its reciprocal */
            !value_read_only_by(p, u, q[k]->at, j))
            q[k] = NULL;
    int k = q[0] ? 0 : 1;
    if (!q[k])
        return false;
    uint32_t t = r[k], other = r[1 - k];
    wg_ins *d = &p->code[q[k]->at];
    to_math(d, STEX_MATH_RECIP_F32, d->b, 0, 0, 1);
    s->def[t].has = false;
    if (k == 0)
        to_math(i, add ? STEX_MATH_MUL_ADD_F32 : STEX_MATH_MUL_SUB_F32, num[k], t, other, 3);
    else
        to_math(i, add ? STEX_MATH_ADD_MUL_F32 : STEX_MATH_SUB_MUL_F32, num[k], t, other, 3);
    return true;
}

/* f32(k) of an integer the compiler knows (an unrolled loop's counter) is
 * a constant. */
static void fold_convert(const state *s, wg_ins *i)
{
    uint32_t v;
    if (i->op != OP_MATH || (i->imm != STEX_MATH_I32_TO_F32 && i->imm != STEX_MATH_U32_TO_F32) ||
        !kbits(s, i->a, &v))
        return;
    to_const(i, f_bits(i->imm == STEX_MATH_I32_TO_F32 ? (float)(int32_t)v : (float)v));
}

static void rewrite(state *s, const uses *u, wg_program *p, uint32_t j)
{
    wg_ins *i = &p->code[j];
    note_rel(s, i);
    fold_convert(s, i);
    if (i->op != OP_MATH || !i->sub)
        return;
    if (fold(s, i) || factor(s, u, p, i) || reassociate(s, u, p, i) ||
        reassociate_shared(s, u, p, i))
        return;
    contract(s, i);
    if (i->op == OP_MATH && (i->imm == STEX_MATH_ADD_F32 || i->imm == STEX_MATH_SUB_F32))
        contract_quotient(s, u, p, i);
}

/* x / sqrt(y) as x * inverseSqrt(y), where every reader of the root
 * divides by it. */
static void rsqrt_divisions(wg_program *p, const uses *u)
{
    for (uint32_t j = 0; j < p->ncode; j++) {
        wg_ins *i = &p->code[j];
        uint32_t r = i->d;
        if (i->op != OP_MATH || !i->sub || i->imm != STEX_MATH_SQRT_F32 || r >= u->all_from ||
            u->writes[r] != 1 || u->reads[r] != u->divisor[r])
            continue;
        i->imm = STEX_MATH_INVERSESQRT_F32;
        for (uint32_t k = 0; k < p->ncode; k++) {
            wg_ins *q = &p->code[k];
            if (q->op == OP_MATH && q->imm == STEX_MATH_DIV_F32 && q->b == r)
                q->imm = STEX_MATH_MUL_F32;
        }
    }
}

/* The slots a single OP_EXIT leaves: a function with one return at its end. */
static uint32_t *exit_counts(const wg_program *p, uint32_t *nslots)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < p->ncode; j++) {
        uint8_t op = p->code[j].op;
        if ((op == OP_EXIT || op == OP_MERGE || op == OP_MASK_CLEAR) && p->code[j].imm + 1 > n)
            n = p->code[j].imm + 1;
    }
    uint32_t *c = calloc(n ? n : 1, sizeof *c);
    for (uint32_t j = 0; c && j < p->ncode; j++)
        if (p->code[j].op == OP_EXIT)
            c[p->code[j].imm]++;
    *nslots = n;
    return c;
}

/* The lowering's copy marks, read: the program as any other. */
static void clear_copy_marks(wg_program *p)
{
    for (uint32_t j = 0; j < p->ncode; j++)
        if (p->code[j].op == OP_CONST && p->code[j].sub == WG_CONST_COPY)
            p->code[j].sub = 0, p->code[j].e = 0;
}

static void run(wg_program *p);

void wg_opt_nvidia(wg_exec_program *xp)
{
    run(&xp->prog);
    clear_copy_marks(&xp->prog);
}

static void run(wg_program *p)
{
    for (uint32_t j = 0; j < p->ncode; j++) { /* an instruction the pass cannot describe */
        uint32_t first, count;
        if (!wg_opt_written(&p->code[j], &first, &count))
            return;
    }
    state s = {.nregs = p->nregs};
    uint32_t nslots = 0;
    s.vn = calloc(s.nregs ? s.nregs : 1, sizeof *s.vn);
    s.def = calloc(s.nregs ? s.nregs : 1, sizeof *s.def);
    s.masked = calloc(s.nregs ? s.nregs : 1, sizeof *s.masked);
    s.known = calloc(s.nregs ? s.nregs : 1, sizeof *s.known);
    s.k = calloc(s.nregs ? s.nregs : 1, sizeof *s.k);
    s.kat = calloc(s.nregs ? s.nregs : 1, sizeof *s.kat);
    s.rel = calloc(s.nregs ? s.nregs : 1, sizeof *s.rel);
    uses u = {0};
    bool *head = calloc(p->ncode + 1, sizeof *head);
    uint32_t *exits = exit_counts(p, &nslots);
    if (!s.vn || !s.def || !s.masked || !s.known || !s.k || !s.kat || !s.rel || !head || !exits ||
        !count_uses(p, s.nregs, &u) || !find_dead(p, s.nregs, &u))
        goto done; /* out of memory: as written */
    for (uint32_t r = 0; r < s.nregs; r++)
        s.vn[r] = ++s.next;
    s.next++;
    for (uint32_t j = 0; j < p->ncode; j++)
        if (p->code[j].op == OP_LOOP_END && p->code[j].b <= j)
            head[p->code[j].b] = true;
    uint32_t single_exit = UINT32_MAX; /* the slot the last instruction left by its one EXIT */
    for (uint32_t j = 0; j < p->ncode; j++) {
        wg_ins *i = &p->code[j];
        while (s.ncopies && s.copies[s.ncopies - 1].end <= j)
            s.ncopies--;
        if (i->op == OP_CONST && i->sub == WG_CONST_COPY && s.ncopies < MAX_COPY_DEPTH &&
            i->e > j) /* a copy of an unrolled loop's body starts */
            s.copies[s.ncopies].vn = s.next, s.copies[s.ncopies++].end = i->e;
        if (head[j]) { /* a loop's head: what the loop writes is not known here */
            for (uint32_t e = j; e < p->ncode; e++) {
                if (p->code[e].op != OP_LOOP_END || p->code[e].b != j)
                    continue;
                for (uint32_t k = j; k <= e; k++) {
                    uint32_t first, count;
                    wg_opt_written(&p->code[k], &first, &count);
                    for (uint32_t w = 0; w < count && first + w < s.nregs; w++)
                        fresh(&s, first + w);
                }
            }
            mask_changes(&s);
        }
        rewrite(&s, &u, p, j);
        switch ((wg_opcode)i->op) {
        case OP_MOV: case OP_MOVM: /* a masked copy equals its source in the lanes running now */
            for (uint32_t w = 0; w < i->n && i->d + w < s.nregs && i->a + w < s.nregs; w++) {
                uint32_t d = i->d + w, a = i->a + w;
                s.vn[d] = s.vn[a], s.def[d] = s.def[a], s.known[d] = s.known[a], s.k[d] = s.k[a];
                s.rel[d] = s.rel[a];
                s.kat[d] = UINT32_MAX;
                s.masked[d] = i->op == OP_MOVM || s.masked[a];
            }
            continue;
        case OP_CONST:
            fresh(&s, i->d);
            s.known[i->d] = true, s.k[i->d] = i->imm, s.kat[i->d] = j;
            continue;
        case OP_EXIT:
            /* a function's only return: the lanes after its MERGE are the
             * ones that ran the copies before it */
            single_exit = i->imm < nslots && exits[i->imm] == 1 ? i->imm : UINT32_MAX;
            if (single_exit == UINT32_MAX)
                mask_changes(&s);
            continue;
        case OP_MERGE:
            if (i->imm != single_exit)
                mask_changes(&s);
            single_exit = UINT32_MAX;
            continue;
        case OP_IF: case OP_ELSE: case OP_ENDIF: case OP_MASK_CLEAR: case OP_BREAK_IF:
        case OP_LOOP_END: case OP_BREAK_JUMP: case OP_END:
            mask_changes(&s);
            single_exit = UINT32_MAX;
            continue;
        default:
            break;
        }
        uint32_t first, count;
        wg_opt_written(i, &first, &count);
        for (uint32_t w = 0; w < count && first + w < s.nregs; w++)
            fresh(&s, first + w);
        if (s.pending.has && i->op == OP_MATH && count == 1 && i->d < s.nregs)
            s.rel[i->d] = s.pending;
        if (i->op != OP_MATH || !i->sub || count != 1 || i->d >= s.nregs || i->a == i->d ||
            i->b == i->d || i->a >= s.nregs || i->b >= s.nregs)
            continue;
        stex_math_fn fn = (stex_math_fn)i->imm;
        const pdef *neg = fn == STEX_MATH_NEG_F32 ? holds(&s, i->a, STEX_MATH_MUL_F32) : NULL;
        if (fn == STEX_MATH_MUL_F32 && s.known[i->a] && !s.known[i->b]) /* the constant second */
            s.def[i->d] = (pdef){true, fn, i->b, i->a, s.vn[i->b], s.vn[i->a], j, true, s.k[i->a]};
        else if (fn == STEX_MATH_MUL_F32 || fn == STEX_MATH_ADD_F32 || fn == STEX_MATH_SUB_F32 ||
                 fn == STEX_MATH_DIV_F32)
            s.def[i->d] = (pdef){true, fn, i->a, i->b, s.vn[i->a], s.vn[i->b], j, s.known[i->b],
                                 s.k[i->b]};
        else if (neg)
            s.def[i->d] = (pdef){true, STEX_MATH_NEG_F32, neg->ra, neg->rb, neg->va, neg->vb, j, false, 0};
    }
    rsqrt_divisions(p, &u);
done:
    free(s.vn);
    free(s.def);
    free(s.masked);
    free(s.known);
    free(s.k);
    free(s.kat);
    free(s.rel);
    free(u.reads);
    free(u.writes);
    free(u.divisor);
    free(u.dead);
    free(head);
    free(exits);
}
