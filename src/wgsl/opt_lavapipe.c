/* The compiler rewrites of a profile whose shader compiler simplifies f32
 * arithmetic before the program runs (stex_math_float_rewrite_rule): on
 * lavapipe, Mesa's NIR applies the algebraic rules of nir_opt_algebraic.py
 * to every inexact float operation (SPIR-V from Tint marks none exact), with
 * every value it can prove constant after inlining, copy propagation and
 * constant folding - a literal, a `let` or `var` of one, a var<private>
 * nobody wrote yet.  WGSL allows the results (15.7.5: an implementation may
 * reassociate operations; a zero's sign may be ignored; an infinity or NaN
 * at run time is an indeterminate value), so they are the lavapipe
 * profile's choice, as its matrix products are.
 *
 * The pass walks the bytecode as lowered (before wg_optimize) once, in
 * order, knowing for each register whether it holds a constant:
 *  - CONST sets it; MOV copies the knowledge; a masked copy (MOVM: a `var`
 *    written where only some lanes run) keeps it only when old and new
 *    agree, so a branch's writes are merged where the branch ends, as NIR's
 *    phis are;
 *  - arithmetic on constants whose folding is exact in IEEE (+ - * / and
 *    the integer operations, conversions, floor...) is folded, as NIR's
 *    constant folding does (the instruction itself is left to run), and
 *    NIR's integer rules make constants of x & 0, x | ~0, x * 0 and 0 << x;
 *  - a loop's head forgets every register the loop writes (NIR knows more
 *    where it unrolls a loop: those cases are left as they are);
 *  - registers start at zero (wg_prepare zeroes what may be read first), as
 *    a var<private> or `var` without an initializer does on the device.
 * Then the rules, each with the reduced program Dawn on lavapipe gave
 * (tests/data/difftest/regress/):
 *  - `~fmul a, 0.0 -> 0.0`: x * 0 is +0 whatever x (-5.5, inf, NaN)
 *    (float-mul-zero-sign.wgsl, float-inf-times-zero.wgsl);
 *  - `~fmul a, 1.0 -> a`; 0 / y is +0 where y is not constant too
 *    (nir-div-zero.wgsl; 0 / 0 of constants is folded, NaN);
 *  - `~fadd a, 0.0 -> a`: -0 + 0 is -0; a - 0 is a, 0 - a is -a (NIR's
 *    fsub is fadd(a, fneg(b))) (nir-add-zero.wgsl; where both are known
 *    zeros the device gave -0 once, known/nir-const-fold.wgsl, and a over
 *    more random programs);
 *  - `~ffma 0.0, a, b -> b` and `~ffma a, b, 0.0 -> fmul a, b` for fma()
 *    and the fused steps of matrix products (nir-fma-zero.wgsl);
 *  - `~flrp a, b, 0.0 -> a`, `~flrp a, b, 1.0 -> b`, `~flrp 0.0, a, b ->
 *    fmul a, b` for mix() (nir-mix-constant.wgsl).
 * A zero matches either sign (NIR compares constants as numbers).  The
 * other profiles never call it, so their programs run as written. */
#include "wgsl/opt.h"

#include <stdlib.h>
#include <string.h>

typedef struct kval {
    bool known;
    bool rule;  /* known through a rewrite of this pass, not by folding alone */
    uint32_t v;
} kval;

/* What NIR sees as one SSA value: the value number each register holds,
 * and for a sum or difference of f32 values, its operands (as value
 * numbers, and the registers that held them). */
typedef struct vdef {
    uint32_t fn;      /* STEX_MATH_ADD_F32, STEX_MATH_SUB_F32, or 0 */
    uint32_t va, vb;  /* the operands' value numbers */
    uint32_t ra, rb;  /* their registers then */
    kval ka, kb;      /* and what was known of them */
} vdef;

#define F32_ONE 0x3f800000u

static bool is_zero(kval k) { return k.known && (k.v & 0x7fffffffu) == 0; }
static bool is_one(kval k) { return k.known && k.v == F32_ONE; }

static kval meet(kval a, kval b)
{
    return (kval){a.known && b.known && a.v == b.v, a.rule || b.rule, a.v};
}

/* Folding that gives what NIR's constant folding gives (IEEE, the C
 * operators): the exact operations, not the profile's approximations. */
static bool foldable(stex_math_fn fn)
{
    switch (fn) {
    case STEX_MATH_ADD_F32: case STEX_MATH_SUB_F32: case STEX_MATH_MUL_F32:
    case STEX_MATH_DIV_F32: case STEX_MATH_NEG_F32: case STEX_MATH_ABS_F32:
    case STEX_MATH_FLOOR_F32: case STEX_MATH_CEIL_F32: case STEX_MATH_TRUNC_F32:
    case STEX_MATH_SQRT_F32:
    case STEX_MATH_ADD_I32: case STEX_MATH_SUB_I32: case STEX_MATH_MUL_I32:
    case STEX_MATH_NEG_I32: case STEX_MATH_ABS_I32: case STEX_MATH_NOT_I32:
    case STEX_MATH_ADD_U32: case STEX_MATH_SUB_U32: case STEX_MATH_MUL_U32:
    case STEX_MATH_I32_TO_F32: case STEX_MATH_U32_TO_F32:
    case STEX_MATH_I32_TO_U32: case STEX_MATH_U32_TO_I32:
        return true;
    default:
        return false;
    }
}

/* i becomes `d = a` (one word) */
static void to_mov(wg_ins *i, uint32_t a)
{
    i->op = OP_MOV, i->a = a, i->n = 1, i->sub = 0;
}

static void to_math(wg_ins *i, stex_math_fn fn, uint32_t a, uint32_t b, uint16_t nargs)
{
    i->imm = (uint32_t)fn, i->a = a, i->b = b, i->n = nargs, i->sub = 1;
}

/* The rules, as what an instruction becomes. */
enum {
    R_NONE,
    R_ZERO,       /* CONST +0 */
    R_COPY_A,     /* MOV a */
    R_COPY_B,
    R_COPY_C,
    R_NEG_B,      /* -b */
    R_MUL_AB,     /* a * b */
    R_MUL_BC,     /* b * c */
};

#define BIT(r) (1u << (r))

/* The rules NIR could apply to one f32 operation (sub = 1: the lowering's
 * f32 form), knowing what k knows, as a set of bits. */
static unsigned rules_of(const wg_ins *i, const kval *k)
{
    kval none = {false, false, 0};
    kval a = i->a != WG_NONE_REG ? k[i->a] : none, b = i->b != WG_NONE_REG ? k[i->b] : none,
         c = i->c != WG_NONE_REG ? k[i->c] : none;
    switch ((stex_math_fn)i->imm) {
    case STEX_MATH_MUL_F32:
        return (is_zero(a) || is_zero(b) ? BIT(R_ZERO) : 0) | (is_one(b) ? BIT(R_COPY_A) : 0) |
               (is_one(a) ? BIT(R_COPY_B) : 0);
    case STEX_MATH_DIV_F32: /* 0 / y = +0 for a y not known (0 / 0 of constants is folded: NaN) */
        return is_zero(a) && !b.known ? BIT(R_ZERO) : 0;
    case STEX_MATH_ADD_F32:
        return (is_zero(b) ? BIT(R_COPY_A) : 0) | (is_zero(a) ? BIT(R_COPY_B) : 0);
    case STEX_MATH_SUB_F32: /* two zeros NIR folded before are folded: +0 - +0 = +0
                             * (v - trunc(v) of a zero v: gen.mjs seed 700425) */
        return (is_zero(b) ? BIT(R_COPY_A) : 0) |
               (is_zero(a) && (!is_zero(b) || b.rule) ? BIT(R_NEG_B) : 0);
    case STEX_MATH_FMA_F32: /* (of constants it folds as a product and a sum, as
                             * at run time: NIR lowers ffma on lavapipe) */
        return (is_zero(a) || is_zero(b) ? BIT(R_COPY_C) : 0) | (is_zero(c) ? BIT(R_MUL_AB) : 0);
    case STEX_MATH_MIX_F32:
        return (is_zero(c) ? BIT(R_COPY_A) : 0) | (is_one(c) ? BIT(R_COPY_B) : 0) |
               (is_zero(a) ? BIT(R_MUL_BC) : 0);
    default:
        return 0;
    }
}

/* Which rule wins where several match every component, in the order NIR
 * finds them.  a - b is fadd(a, fneg(b)) there, and fneg(b) is no constant
 * yet when ~fadd(a, 0.0) is tried, so the zero is found as the first
 * operand: 0 - b = -b, and 0 - 0 = -0 where b became a zero through a rule
 * (v - (v + 0.0) of a zero v: gen.mjs seeds 710457, 700078). */
static int first_rule(stex_math_fn fn, unsigned set)
{
    static const int order[] = {R_ZERO, R_NEG_B, R_COPY_A, R_COPY_B, R_COPY_C, R_MUL_AB, R_MUL_BC};
    (void)fn;
    for (unsigned j = 0; j < sizeof order / sizeof *order; j++)
        if (set & BIT(order[j]))
            return order[j];
    return R_NONE;
}

static void apply(wg_ins *i, int rule)
{
    uint32_t a = i->a, b = i->b, c = i->c;
    switch (rule) {
    case R_ZERO: i->op = OP_CONST, i->imm = 0, i->n = 1, i->sub = 0; break;
    case R_COPY_A: to_mov(i, a); break;
    case R_COPY_B: to_mov(i, b); break;
    case R_COPY_C: to_mov(i, c); break;
    /* an unused operand reads register 0, as the lowering leaves it */
    case R_NEG_B: to_math(i, STEX_MATH_NEG_F32, b, 0, 1); break;
    case R_MUL_AB: to_math(i, STEX_MATH_MUL_F32, a, b, 2); break;
    case R_MUL_BC: to_math(i, STEX_MATH_MUL_F32, b, c, 2); break;
    }
}

/* How many instructions from j are one vector operation: the same f32
 * function into consecutive registers (the lowering emits a vector's
 * components one after the other).  NIR matches a constant operand of a
 * vector operation only when every component is that constant, so a
 * group is rewritten whole or not at all (`vec4(3.75, 119, 0, 4.5) * g`
 * keeps IEEE's -0 of its third component; corpus seed 100136). */
static uint32_t group_len(const wg_program *p, uint32_t j)
{
    const wg_ins *i = &p->code[j];
    uint32_t n = 1;
    while (j + n < p->ncode && n < 4) {
        const wg_ins *x = &p->code[j + n];
        if (x->op != OP_MATH || x->imm != i->imm || x->sub != i->sub || x->d != i->d + n)
            break;
        n++;
    }
    return n;
}

/* A step of a matrix product as the lavapipe profile lowers it (lower_expr.c
 * f32_dot: the last product into the sum register, then fma(a[k], b[k],
 * sum) into a temporary copied back, k downwards): 0 if j is none, else
 * which operand NIR holds as one component broadcast over a column (1: a,
 * 2: b).  NIR multiplies whole columns (m * v: column k of m by v[k]; v * m
 * as transpose(m) * v), so a zero there is a zero vector, while a zero in
 * the column's own entries is one component among others. */
static int matmul_step(const wg_program *p, uint32_t j)
{
    const wg_ins *c = p->code;
    uint32_t n = p->ncode;
    const wg_ins *i = &c[j], *later = NULL; /* the step of the next k up */
    bool fma_step = i->imm == STEX_MATH_FMA_F32 && j + 1 < n && c[j + 1].op == OP_MOV &&
                    c[j + 1].a == i->d && c[j + 1].n == 1 && c[j + 1].d == i->c;
    if (fma_step) {
        if (j >= 1 && c[j - 1].op == OP_MATH && c[j - 1].imm == STEX_MATH_MUL_F32 && c[j - 1].d == i->c)
            later = &c[j - 1];
        else if (j >= 2 && c[j - 1].op == OP_MOV && c[j - 1].d == i->c && c[j - 2].op == OP_MATH &&
                 c[j - 2].imm == STEX_MATH_FMA_F32)
            later = &c[j - 2];
        if (!later)
            return 0;
        return later->a - i->a > 1 ? 2 : 1;
    }
    /* the first product into sum, then such an fma step */
    if (i->imm == STEX_MATH_MUL_F32 && j + 2 < n && c[j + 1].op == OP_MATH &&
        c[j + 1].imm == STEX_MATH_FMA_F32 && c[j + 1].c == i->d && c[j + 2].op == OP_MOV &&
        c[j + 2].a == c[j + 1].d && c[j + 2].d == i->d)
        return i->a - c[j + 1].a > 1 ? 2 : 1;
    return 0;
}

/* The rule for a matrix product's step: only a broadcast zero counts. */
static int matmul_rule(const wg_ins *i, const kval *k, int splat)
{
    if (!is_zero(k[splat == 1 ? i->a : i->b]))
        return R_NONE;
    return i->imm == STEX_MATH_MUL_F32 ? R_ZERO : R_COPY_C;
}

/* NIR's ~fadd(fneg(a), fadd(a, b)) = b and ~fadd(a, fadd(fneg(a), b)) = b,
 * its fsub being fadd(a, fneg(b)): (a + b) - a = b, (a + b) - b = a,
 * (a - b) - a = -b, a + (b - a) = b, (b - a) + a = b, where the same value
 * a appears twice (through lets and vars too); a - (a - b) stays
 * (float-add-sub-cancel.wgsl).  The operand rewritten to must still be in
 * its register. */
static bool cancel(wg_ins *i, const uint32_t *vn, const vdef *def)
{
    if (i->op != OP_MATH || i->sub != 1)
        return false;
    const vdef *x = &def[i->a], *y = &def[i->b];
    uint32_t want = 0, reg = 0; /* the value the result is, and where it was */
    kval known = {.known = false};
    bool neg = false;
    if (i->imm == STEX_MATH_SUB_F32 && x->fn == STEX_MATH_ADD_F32 && vn[i->b] == x->va)
        want = x->vb, reg = x->rb, known = x->kb;
    else if (i->imm == STEX_MATH_SUB_F32 && x->fn == STEX_MATH_ADD_F32 && vn[i->b] == x->vb)
        want = x->va, reg = x->ra, known = x->ka;
    else if (i->imm == STEX_MATH_SUB_F32 && x->fn == STEX_MATH_SUB_F32 && vn[i->b] == x->va)
        want = x->vb, reg = x->rb, known = x->kb, neg = true;
    else if (i->imm == STEX_MATH_ADD_F32 && y->fn == STEX_MATH_SUB_F32 && vn[i->a] == y->vb)
        want = y->va, reg = y->ra, known = y->ka;
    else if (i->imm == STEX_MATH_ADD_F32 && x->fn == STEX_MATH_SUB_F32 && vn[i->b] == x->vb)
        want = x->va, reg = x->ra, known = x->ka;
    if (!want)
        return false;
    if (vn[reg] != want && !known.known)
        return false; /* no longer in its register */
    if (vn[reg] != want) { /* a constant: written again */
        i->op = OP_CONST, i->imm = neg ? known.v ^ 0x80000000u : known.v, i->n = 1, i->sub = 0;
        return true;
    }
    if (neg)
        to_math(i, STEX_MATH_NEG_F32, reg, 0, 1);
    else
        to_mov(i, reg);
    return true;
}

/* Forget what the loops starting at instruction h write. */
static void loop_heads(wg_program *p, uint32_t h, kval *k, uint32_t *vn, vdef *def,
                       uint32_t *next_vn, uint32_t nregs)
{
    for (uint32_t e = h; e < p->ncode; e++) {
        if (p->code[e].op != OP_LOOP_END || p->code[e].b != h)
            continue;
        for (uint32_t j = h; j <= e; j++) {
            uint32_t first, count;
            if (!wg_opt_written(&p->code[j], &first, &count) || !count || first >= nregs)
                continue;
            if (count > nregs - first)
                count = nregs - first;
            for (uint32_t r = first; r < first + count; r++) {
                k[r].known = false;
                vn[r] = (*next_vn)++, def[r].fn = 0;
            }
        }
    }
}

void wg_opt_float_rewrites(wg_exec_program *xp, const stex_profile *p)
{
    if (stex_math_float_rewrite_rule(p) == STEX_FLOAT_REWRITE_NVIDIA) {
        wg_opt_nvidia(xp);
        return;
    }
    if (stex_math_float_rewrite_rule(p) != STEX_FLOAT_REWRITE_NIR)
        return;
    wg_program *prog = &xp->prog;
    uint32_t nregs = prog->nregs;
    /* a program with an instruction the pass cannot describe stays as it is */
    for (uint32_t j = 0; j < prog->ncode; j++) {
        uint32_t first, count;
        if (!wg_opt_written(&prog->code[j], &first, &count))
            return;
    }
    kval *k = calloc(nregs ? nregs : 1, sizeof *k);
    bool *head = calloc(prog->ncode + 1, sizeof *head);
    uint32_t *vn = calloc(nregs ? nregs : 1, sizeof *vn);
    vdef *def = calloc(nregs ? nregs : 1, sizeof *def);
    if (!k || !head || !vn || !def) {
        free(k);
        free(head);
        free(vn);
        free(def);
        return; /* out of memory: as written */
    }
    uint32_t next_vn = 1;
    for (uint32_t r = 0; r < nregs; r++)
        vn[r] = next_vn++;
    for (uint32_t r = REG_FIRST_FREE; r < nregs; r++)
        k[r] = (kval){.known = true, .v = 0};
    for (uint32_t j = 0; j < prog->ncode; j++)
        if (prog->code[j].op == OP_LOOP_END && prog->code[j].b <= j)
            head[prog->code[j].b] = true;
    const stex_profile *ieee = stex_profile_get(STEX_PROFILE_SPEC);
    uint32_t group_end = 0;
    int group_rule = R_NONE;
    for (uint32_t j = 0; j < prog->ncode; j++) {
        wg_ins *i = &prog->code[j];
        if (head[j])
            loop_heads(prog, j, k, vn, def, &next_vn, nregs);
        if (i->op == OP_MATH && i->sub == 1 && j >= group_end) {
            /* a new vector operation: one rule for all its components */
            group_end = j + group_len(prog, j);
            unsigned set = rules_of(i, k);
            for (uint32_t g = j + 1; g < group_end; g++)
                set &= rules_of(&prog->code[g], k);
            group_rule = first_rule((stex_math_fn)i->imm, set);
            int splat = group_end == j + 1 ? matmul_step(prog, j) : 0;
            if (splat)
                group_rule = matmul_rule(i, k, splat);
        }
        bool applied = i->op == OP_MATH && i->sub == 1 && j < group_end && group_rule;
        if (applied)
            apply(i, group_rule); /* its destination's knowledge below */
        else
            cancel(i, vn, def);
        /* value numbers: a copy keeps its source's, a masked copy its own
         * where both agree, every other write makes a new one */
        {
            uint32_t first, count;
            wg_opt_written(i, &first, &count);
            if (count > nregs - (first < nregs ? first : nregs))
                count = first < nregs ? nregs - first : 0;
            if (i->op == OP_MOV && i->a + i->n <= nregs) {
                for (uint32_t w = 0; w < i->n; w++)
                    vn[i->d + w] = vn[i->a + w], def[i->d + w] = def[i->a + w];
            } else if (i->op == OP_MOVM) {
                for (uint32_t w = 0; w < i->n; w++)
                    if (vn[i->d + w] != vn[i->a + w])
                        vn[i->d + w] = next_vn++, def[i->d + w].fn = 0;
            } else {
                vdef nd = {0};
                if (i->op == OP_MATH && i->sub == 1 &&
                    (i->imm == STEX_MATH_ADD_F32 || i->imm == STEX_MATH_SUB_F32 ||
                     i->imm == STEX_MATH_MUL_F32))
                    nd = (vdef){i->imm, vn[i->a], vn[i->b], i->a, i->b, k[i->a], k[i->b]};
                /* a * b + c, unfused on this profile: the sum of the product
                 * the lowering kept in a register and c */
                if (i->op == OP_MATH && i->sub == 1 &&
                    (i->imm == STEX_MATH_MUL_ADD_F32 || i->imm == STEX_MATH_ADD_MUL_F32 ||
                     i->imm == STEX_MATH_MUL_ADD_LET_F32))
                    for (uint32_t r = 0; r < nregs; r++)
                        if (def[r].fn == STEX_MATH_MUL_F32 && def[r].va == vn[i->a] &&
                            def[r].vb == vn[i->b]) {
                            nd = (vdef){STEX_MATH_ADD_F32, vn[r], vn[i->c], r, i->c, k[r], k[i->c]};
                            break;
                        }
                for (uint32_t r = first; r < first + count; r++)
                    vn[r] = next_vn++, def[r] = nd;
            }
        }
        switch ((wg_opcode)i->op) {
        case OP_CONST:
            k[i->d] = (kval){true, applied, i->imm};
            continue;
        case OP_MOV:
            memmove(k + i->d, k + i->a, i->n * sizeof *k);
            if (applied)
                k[i->d].rule = true;
            continue;
        case OP_MOVM:
            for (uint32_t w = 0; w < i->n; w++)
                k[i->d + w] = meet(k[i->d + w], k[i->a + w]);
            continue;
        case OP_MATH: {
            stex_math_fn fn = (stex_math_fn)i->imm;
            const stex_math_fn_info *info = stex_math_fn_get(fn);
            uint32_t in[3] = {0, 0, 0}, out[2] = {0, 0};
            uint32_t regs[3] = {i->a, i->b, i->c};
            bool all = info && info->out_words == 1 && info->in_words <= 3 && foldable(fn);
            for (uint32_t w = 0; all && w < info->in_words; w++) {
                all = regs[w] != WG_NONE_REG && k[regs[w]].known;
                in[w] = all ? k[regs[w]].v : 0;
            }
            bool via = applied;
            for (uint32_t w = 0; all && w < info->in_words; w++)
                via |= k[regs[w]].rule;
            k[i->d] = (kval){all && stex_math_eval(ieee, fn, in, out) == STEX_OK, via, out[0]};
            /* NIR: imul(a, 0) = 0; ishl, ishr, ushr of 0 = 0 */
            if ((fn == STEX_MATH_MUL_I32 || fn == STEX_MATH_MUL_U32) &&
                ((k[i->a].known && !k[i->a].v) || (k[i->b].known && !k[i->b].v)))
                k[i->d] = (kval){.known = true, .v = 0};
            if ((fn == STEX_MATH_SHL_I32 || fn == STEX_MATH_SHR_I32 || fn == STEX_MATH_SHL_U32 ||
                 fn == STEX_MATH_SHR_U32) && k[i->a].known && !k[i->a].v)
                k[i->d] = (kval){.known = true, .v = 0};
            continue;
        }
        case OP_BITS: {
            /* NIR: iand(a, 0) = 0, ior(a, ~0) = ~0 (the generator's run-time
             * zeros and all-ones are constants there), else folded */
            kval a = k[i->a], b = i->sub <= BITS_XOR ? k[i->b] : (kval){.known = true, .v = 0};
            uint32_t absorb = i->sub == BITS_AND ? 0u : 0xffffffffu;
            if ((i->sub == BITS_AND || i->sub == BITS_OR) &&
                ((a.known && a.v == absorb) || (b.known && b.v == absorb)))
                k[i->d] = (kval){.known = true, .v = absorb};
            else if (a.known && b.known)
                k[i->d] = (kval){.known = true, .v = i->sub == BITS_AND ? a.v & b.v : i->sub == BITS_OR ? a.v | b.v
                                     : i->sub == BITS_XOR ? a.v ^ b.v : i->sub == BITS_NOT ? ~a.v : !a.v};
            else
                k[i->d] = (kval){.known = false};
            continue;
        }
        case OP_SELECT:
            k[i->d] = k[i->c].known ? (k[i->c].v ? k[i->b] : k[i->a]) : (kval){0};
            continue;
        default: {
            uint32_t first, count;
            wg_opt_written(i, &first, &count);
            if (!count || first >= nregs)
                continue;
            if (count > nregs - first)
                count = nregs - first;
            for (uint32_t r = first; r < first + count; r++)
                k[r].known = false;
        }
        }
    }
    free(k);
    free(head);
    free(vn);
    free(def);
}
