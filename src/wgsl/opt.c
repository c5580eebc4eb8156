/* The optimisation pass: the lowering emits simple code (a register per
 * temporary, a CONST before every use of a literal, MOVs for every `let`,
 * vector constructor and argument); the interpreter pays its dispatch for
 * each instruction, so this pass removes what changes no result:
 *
 * 1. copy and constant propagation inside a basic block (a run of code no
 *    jump lands inside; the address of an element of a runtime-sized
 *    array of words - the index itself - and a conversion that keeps every
 *    bit count as copies): a read of d after `MOV d <- a` reads a instead, as
 *    long as neither is written in between; a read of d after `CONST d = k`
 *    reads a constant register holding k.  Constant registers come after the
 *    program's own; the interpreter fills them once per workgroup
 *    (wg_exec_program.consts) and nothing writes them, so loops stop
 *    re-materialising their literals.  Both MOV and CONST write every lane,
 *    so d equals its source in every lane, whatever the execution mask.
 * 2. dead-code elimination: a backward liveness pass over the bytecode's
 *    control flow (every instruction falls through; IF and ELSE may jump
 *    forward, LOOP_END back) removes instructions without effects whose
 *    destination no later instruction can read - among them the copies and
 *    constants step 1 bypassed, and the products the lowering keeps for a
 *    possible a * b + c contraction.  Only writes of every lane (the
 *    arithmetic, MOV, CONST, LOADIDX) end a register's life; a masked write
 *    (MOVM, STOREIDX, the loads) keeps the other lanes, so it reads its
 *    destination too.
 * 3. the survivors are packed and the jumps renumbered (a removed jump
 *    target becomes the next kept instruction).  Memory instructions keep
 *    their order, so race sites (instruction index + 1) keep theirs too.
 * 4. a loop's BREAK_IF that leaves no lane running jumps to the loop's end
 *    (OP_BREAK_JUMP) where the body left between does nothing without lanes,
 *    instead of running it once more for none (see break_jumps);
 * 5. an integer comparison followed by a logical not becomes the opposite
 *    comparison (the loop conditions' `!(i <= 1)`);
 * 6. a counted loop - an integer counter starting at a constant, tested
 *    against a constant, stepped by a constant, a body with no break,
 *    continue or return - runs its body once per count, unrolled, the
 *    counter read as a constant in each copy (the box blurs' 3x3 loops; see
 *    unroll_counted);
 * 7. loop-invariant arithmetic moves to the loop's head, before the back
 *    edge's target, so it runs once per entry instead of once per iteration
 *    (see hoist_invariants);
 * 8. arithmetic repeated in one basic block, the same operation on the same
 *    registers into the same register with none of them written since, is
 *    dropped: the register still holds that value (the unrolled copies'
 *    `tam - 1`; see drop_repeats);
 * 9. past the last point where a lane can become active again (an ELSE,
 *    ENDIF, loop end or function's MERGE), every lane not running has
 *    returned for good, so a masked copy into a variable (MOVM) may write
 *    every lane: it becomes a MOV; and arithmetic whose results a copy only
 *    moves on (`s += v`: the sum into temporaries, then into s; a vector
 *    built from scalars) writes the copy's destination itself, the copy
 *    dropped (see fold_copies), and what
 *    the unrolled copies left unread (the loop counters' last updates)
 *    goes;
 * 10. arithmetic an unrolled loop's copies compute again on the same
 *    registers (the box blurs' clamp(c.x + dx) in every row) is reused:
 *    the first result kept in a new register when its own is written in
 *    between, the repeat a copy whose readers read the first result (see
 *    reuse_values).
 * 11. a textureLoad of level 0 given as a literal names no level register
 *    (a missing level is level 0: see level_zero).
 *
 * Arithmetic is never reordered, merged or evaluated here: every result is
 * still computed by the interpreter under the dispatch's profile.  A program
 * holding an opcode this pass does not describe is left as it is. */
#include "wgsl/opt.h"
#include "shader/lanes.h" /* stex_atomic_op */

#include <stdlib.h>
#include <string.h>

static bool enabled = true;

void wg_optimize_set_enabled(bool on) { enabled = on; }
bool wg_optimize_enabled(void) { return enabled; }

#define ALL UINT32_MAX /* an operand reading every register from its first on */

/* One register operand of an instruction: the field and how many words. */
typedef struct opnd {
    uint32_t *reg;
    uint32_t count;
} opnd;

typedef struct ins_info {
    opnd rd[6];
    uint32_t nrd;
    opnd wr;          /* wr.reg NULL: writes no register */
    bool full;        /* wr writes every lane (a kill) */
    bool pure;        /* no effect but wr: removable when wr is dead */
} ins_info;

static uint32_t ncoords(uint32_t dim)
{
    return dim == STEX_VIEW_DIMENSION_1D ? 1 : dim == STEX_VIEW_DIMENSION_3D ? 3 : 2;
}

static void rd(ins_info *f, uint32_t *reg, uint32_t count)
{
    if (*reg != WG_NONE_REG && count)
        f->rd[f->nrd++] = (opnd){reg, count};
}

/* The registers instruction i reads and writes; false for an opcode this
 * pass does not know. */
static bool describe(wg_ins *i, ins_info *f)
{
    memset(f, 0, sizeof *f);
    switch ((wg_opcode)i->op) {
    case OP_CONST:
        f->wr = (opnd){&i->d, 1}, f->full = f->pure = true;
        return true;
    case OP_MOV:
        rd(f, &i->a, i->n);
        f->wr = (opnd){&i->d, i->n}, f->full = f->pure = true;
        return true;
    case OP_MOVM:
        rd(f, &i->a, i->n);
        rd(f, &i->d, i->n);
        f->wr = (opnd){&i->d, i->n};
        return true;
    case OP_MATH: case OP_CMP: case OP_BITS: case OP_SELECT:
        rd(f, &i->a, 1);
        rd(f, &i->b, 1);
        if (i->op == OP_MATH || i->op == OP_SELECT)
            rd(f, &i->c, 1);
        f->wr = (opnd){&i->d, 1}, f->full = f->pure = true;
        return true;
    case OP_MATHV: {
        const stex_math_fn_info *info = stex_math_fn_get((stex_math_fn)i->imm);
        if (!info)
            return false;
        rd(f, &i->a, info->in_words);
        f->wr = (opnd){&i->d, info->out_words}, f->full = f->pure = true;
        return true;
    }
    case OP_LOADIDX:
        rd(f, &i->b, 1);
        rd(f, &i->a, ALL);
        f->wr = (opnd){&i->d, i->n}, f->full = f->pure = true;
        return true;
    case OP_STOREIDX:
        rd(f, &i->b, 1);
        rd(f, &i->a, i->n);
        rd(f, &i->d, ALL);
        f->wr = (opnd){&i->d, ALL};
        return true;
    case OP_ADDR:
        rd(f, &i->a, 1);
        rd(f, &i->b, 1);
        f->wr = (opnd){&i->d, 1}, f->full = f->pure = true;
        return true;
    case OP_BUF_LOAD: case OP_WG_LOAD:
        if (i->op == OP_BUF_LOAD && i->c == 1 && i->a == WG_NONE_REG && !i->sub) {
            /* a uniform's constant words, every lane: no effect, the same each time */
            f->wr = (opnd){&i->d, i->n}, f->full = f->pure = true;
            return true;
        }
        rd(f, &i->a, 1);
        rd(f, &i->d, i->n);
        f->wr = (opnd){&i->d, i->n};
        return true;
    case OP_BUF_STORE: case OP_WG_STORE:
        rd(f, &i->a, 1);
        rd(f, &i->b, i->n);
        return true;
    case OP_ATOMIC: {
        uint32_t out = i->sub == STEX_ATOMIC_COMPARE_EXCHANGE ? 2 : 1;
        rd(f, &i->a, 1);
        rd(f, &i->b, 1);
        rd(f, &i->c, 1);
        rd(f, &i->d, out);
        f->wr = (opnd){&i->d, out};
        return true;
    }
    case OP_SUBGROUP: { /* reads other lanes under the mask: never moved or merged */
        uint32_t out = i->sub == WG_SG_BALLOT ? 4 : i->sub <= WG_SG_ANY ? 1 : i->n;
        rd(f, &i->a, i->sub <= WG_SG_COUNT ? 0 : i->sub <= WG_SG_ANY ? 1 : i->n);
        rd(f, &i->b, 1);
        rd(f, &i->d, out);
        f->wr = (opnd){&i->d, out};
        return true;
    }
    case OP_TEX_FETCH: case OP_TEX_QUERY: case OP_TEX_SAMPLE_ANY:
        return false; /* sampled textures: the program is left as lowered */
    case OP_TEX_LOAD: case OP_TEX_LOAD_LEVEL:
        rd(f, &i->a, ncoords(i->sub));
        rd(f, &i->b, 1);
        if (i->op == OP_TEX_LOAD_LEVEL)
            rd(f, &i->c, 1);
        rd(f, &i->d, 4);
        f->wr = (opnd){&i->d, 4};
        return true;
    case OP_TEX_STORE: /* c is the value's scalar type, not a register */
        rd(f, &i->a, ncoords(i->sub));
        rd(f, &i->b, 1);
        rd(f, &i->d, 4);
        return true;
    case OP_TEX_SAMPLE:
        rd(f, &i->a, 1);
        rd(f, &i->b, 1);
        rd(f, &i->c, 1);
        rd(f, &i->d, 4);
        f->wr = (opnd){&i->d, 4};
        return true;
    case OP_TEX_DIMS: /* kept: it asks the binding */
        f->wr = (opnd){&i->d, i->n}, f->full = true;
        return true;
    case OP_ARRAY_LEN: /* a and b are byte counts */
        f->wr = (opnd){&i->d, 1}, f->full = true;
        return true;
    case OP_IF: case OP_BREAK_IF: case OP_BREAK_JUMP:
        rd(f, &i->a, 1);
        return true;
    case OP_BARRIER: case OP_ELSE: case OP_ENDIF: case OP_MASK_CLEAR: case OP_EXIT:
    case OP_MERGE: case OP_LOOP_END: case OP_END:
        return true;
    }
    return false;
}

bool wg_opt_written(wg_ins *i, uint32_t *first, uint32_t *count)
{
    ins_info f;
    if (!describe(i, &f))
        return false;
    *first = f.wr.reg ? *f.wr.reg : WG_NONE_REG;
    *count = f.wr.reg ? f.wr.count : 0;
    return true;
}

int wg_opt_read(wg_ins *i, uint32_t *first, uint32_t *count)
{
    ins_info f;
    if (!describe(i, &f))
        return -1;
    for (uint32_t k = 0; k < f.nrd; k++)
        first[k] = *f.rd[k].reg, count[k] = f.rd[k].count;
    return (int)f.nrd;
}

static bool is_jump(const wg_ins *i)
{
    return i->op == OP_IF || i->op == OP_ELSE || i->op == OP_LOOP_END || i->op == OP_BREAK_JUMP;
}

/* ---- 1. propagation ---- */

/* What a register holds inside the current block: nothing known, a copy of
 * another register, or a constant. */
enum { K_NONE, K_REG, K_CONST };
typedef struct known {
    uint8_t kind;
    uint32_t v;
} known;

typedef struct pass {
    wg_exec_program *xp;
    uint32_t nregs;       /* the program's own registers */
    known *k;             /* per register */
    uint32_t *consts;     /* constant register values */
    uint32_t nconsts, consts_cap;
    bool oom;
} pass;

/* The first of `count` constant registers holding vals (added if needed). */
static uint32_t const_run(pass *s, const uint32_t *vals, uint32_t count)
{
    for (uint32_t r = 0; r + count <= s->nconsts; r++)
        if (!memcmp(s->consts + r, vals, count * sizeof *vals))
            return s->nregs + r;
    if (s->nconsts + count > s->consts_cap) {
        uint32_t cap = s->consts_cap ? 2 * s->consts_cap : 16;
        while (cap < s->nconsts + count)
            cap *= 2;
        uint32_t *c = realloc(s->consts, cap * sizeof *c);
        if (!c) {
            s->oom = true;
            return WG_NONE_REG;
        }
        s->consts = c;
        s->consts_cap = cap;
    }
    memcpy(s->consts + s->nconsts, vals, count * sizeof *vals);
    s->nconsts += count;
    return s->nregs + s->nconsts - count;
}

/* Rewrites one read operand to the copy's source or a constant run, when
 * every word it reads is known the same way. */
static void rewrite(pass *s, opnd *o)
{
    uint32_t r = *o->reg, n = o->count;
    if (n == ALL || r >= s->nregs || n > s->nregs - r || n > 16)
        return;
    known first = s->k[r];
    if (first.kind == K_REG) {
        for (uint32_t j = 1; j < n; j++)
            if (s->k[r + j].kind != K_REG || s->k[r + j].v != first.v + j)
                return;
        *o->reg = first.v;
    } else if (first.kind == K_CONST) {
        uint32_t vals[16];
        for (uint32_t j = 0; j < n; j++) {
            if (s->k[r + j].kind != K_CONST)
                return;
            vals[j] = s->k[r + j].v;
        }
        uint32_t c = const_run(s, vals, n);
        if (c != WG_NONE_REG)
            *o->reg = c;
    }
}

/* Register w (and the copies of it) no longer hold what they did. */
static void forget(pass *s, uint32_t w, uint32_t count)
{
    uint32_t end = count == ALL || count > s->nregs - w ? s->nregs : w + count;
    for (uint32_t r = w; r < end; r++)
        s->k[r].kind = K_NONE;
    for (uint32_t r = 0; r < s->nregs; r++)
        if (s->k[r].kind == K_REG && s->k[r].v >= w && s->k[r].v < end)
            s->k[r].kind = K_NONE;
}

static void propagate(pass *s, const uint8_t *label)
{
    wg_program *p = &s->xp->prog;
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        wg_ins *i = &p->code[pc];
        if (label[pc])
            memset(s->k, 0, s->nregs * sizeof *s->k);
        ins_info f;
        describe(i, &f);
        /* a masked write's destination reads are its old lanes: left alone */
        for (uint32_t r = 0; r < f.nrd; r++)
            if (f.rd[r].reg != f.wr.reg)
                rewrite(s, &f.rd[r]);
        if (!f.wr.reg || *f.wr.reg >= s->nregs)
            continue;
        uint32_t w = *f.wr.reg;
        forget(s, w, f.wr.count);
        if (i->op == OP_CONST) {
            s->k[w] = (known){K_CONST, i->imm};
        } else if (i->op == OP_MOV && i->a != i->d) {
            /* overlapping runs are left unknown */
            bool overlap = i->a < i->d + i->n && i->d < i->a + i->n;
            for (uint32_t j = 0; !overlap && j < i->n && w + j < s->nregs; j++) {
                known src = i->a + j < s->nregs ? s->k[i->a + j] : (known){K_REG, i->a + j};
                if (src.kind == K_NONE)
                    src = (known){K_REG, i->a + j};
                s->k[w + j] = src;
            }
        }
    }
}

/* ---- 2. liveness and dead code ---- */

typedef struct bits {
    uint64_t *w;
    uint32_t words;
} bits;

static inline bool bit_get(const uint64_t *b, uint32_t r) { return b[r >> 6] >> (r & 63) & 1; }
static inline void bit_set(uint64_t *b, uint32_t r) { b[r >> 6] |= 1ull << (r & 63); }
static inline void bit_clr(uint64_t *b, uint32_t r) { b[r >> 6] &= ~(1ull << (r & 63)); }

static void range(uint32_t r, uint32_t count, uint32_t nregs, uint32_t *lo, uint32_t *hi)
{
    *lo = r < nregs ? r : nregs;
    *hi = count == ALL || count > nregs - *lo ? nregs : *lo + count;
}

/* The registers live after pc: those live before any of its successors. */
static void live_out(const wg_program *p, const uint64_t *in, uint32_t words, uint32_t pc,
                     uint64_t *out)
{
    const wg_ins *i = &p->code[pc];
    memset(out, 0, words * sizeof *out);
    if (i->op != OP_END)
        for (uint32_t k = 0; k < words; k++)
            out[k] |= in[(size_t)(pc + 1) * words + k];
    if (is_jump(i) && i->b <= p->ncode)
        for (uint32_t k = 0; k < words; k++)
            out[k] |= in[(size_t)i->b * words + k];
}

/* in[pc * words ..]: the registers live before pc, with the dead
 * instructions' reads left out (sweeps until nothing grows: loops). */
static void liveness(const wg_program *p, uint32_t nregs, const uint8_t *dead, uint64_t *in,
                     uint64_t *out, uint32_t words)
{
    uint32_t nc = p->ncode;
    memset(in, 0, (size_t)(nc + 1) * words * sizeof *in);
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t pc = nc; pc-- > 0;) {
            wg_ins *i = &p->code[pc];
            live_out(p, in, words, pc, out);
            if (!dead || !dead[pc]) {
                ins_info f;
                describe(i, &f);
                uint32_t lo, hi;
                if (f.wr.reg && f.full) {
                    range(*f.wr.reg, f.wr.count, nregs, &lo, &hi);
                    for (uint32_t r = lo; r < hi; r++)
                        bit_clr(out, r);
                }
                for (uint32_t k = 0; k < f.nrd; k++) {
                    range(*f.rd[k].reg, f.rd[k].count, nregs, &lo, &hi);
                    for (uint32_t r = lo; r < hi; r++)
                        bit_set(out, r);
                }
            }
            uint64_t *l = in + (size_t)pc * words;
            for (uint32_t k = 0; k < words; k++)
                if ((l[k] | out[k]) != l[k]) {
                    l[k] |= out[k];
                    changed = true;
                }
        }
    }
}

/* Marks dead[pc] for removable instructions whose result nothing reads;
 * false: out of memory. */
static bool find_dead(const wg_program *p, uint32_t nregs, uint8_t *dead)
{
    uint32_t nc = p->ncode, words = (nregs + 63) / 64 + 1;
    uint64_t *in = calloc((size_t)(nc + 1) * words, sizeof *in); /* live before pc */
    uint64_t *out = calloc(words, sizeof *out);
    if (!in || !out) {
        free(in);
        free(out);
        return false;
    }
    for (bool more = true; more;) { /* until no new dead: their reads are gone */
        more = false;
        liveness(p, nregs, dead, in, out, words);
        /* an instruction is dead when nothing after it reads what it writes */
        for (uint32_t pc = 0; pc < nc; pc++) {
            wg_ins *i = &p->code[pc];
            ins_info f;
            describe(i, &f);
            if (dead[pc] || !f.pure || !f.wr.reg)
                continue;
            live_out(p, in, words, pc, out);
            uint32_t lo, hi;
            range(*f.wr.reg, f.wr.count, nregs, &lo, &hi);
            bool live = false;
            for (uint32_t r = lo; r < hi && !live; r++)
                live = bit_get(out, r);
            if (!live) {
                dead[pc] = 1;
                more = true;
            }
        }
    }
    free(in);
    free(out);
    return true;
}

/* ---- 3. packing ---- */

static void pack(wg_program *p, const uint8_t *dead)
{
    uint32_t nc = p->ncode, *map = malloc((nc + 1) * sizeof *map);
    if (!map)
        return; /* the dead instructions stay: they still compute the same */
    uint32_t next = 0;
    for (uint32_t pc = 0; pc < nc; pc++) {
        map[pc] = next;
        if (!dead[pc])
            next++;
    }
    map[nc] = next;
    for (uint32_t pc = 0, o = 0; pc < nc; pc++) {
        if (dead[pc])
            continue;
        wg_ins i = p->code[pc];
        if (is_jump(&i) && i.b <= nc)
            i.b = map[i.b];
        p->code[o++] = i;
    }
    p->ncode = next;
    free(map);
}

/* ---- 4. loops: no pass without lanes ----
 * A loop's BREAK_IF that leaves no lane running would still run the rest
 * of the body once, for no lane (its masked effects do nothing; its
 * arithmetic computes temporaries nobody reads after the loop).  It becomes
 * OP_BREAK_JUMP, straight to the loop's LOOP_END (which then takes the
 * loop's exit lanes), when the code between is inert without lanes:
 *  - no barrier, no builtin that asks through a lane (TEX_DIMS, ARRAY_LEN);
 *  - no register the arithmetic writes there is live after the loop;
 *  - every mask slot it merges back (MERGE, ENDIF, ELSE, LOOP_END) is empty:
 *    cleared (MASK_CLEAR, IF) between the BREAK_IF and it, or cleared
 *    earlier in the straight-line code that leads to the BREAK_IF with no
 *    exit into it since. */

/* Slot t is empty at pc `from` (exec = 0 from there on): cleared at or after
 * `lo`, in the straight line before `from` (no jump lands in between), with
 * no EXIT or BREAK_IF into it since the clearing. */
static bool slot_clear_before(const wg_program *p, const uint8_t *label, uint32_t lo,
                              uint32_t from, uint32_t t)
{
    for (uint32_t pc = from; pc-- > lo;) {
        const wg_ins *i = &p->code[pc];
        if ((i->op == OP_MASK_CLEAR || i->op == OP_IF) && i->imm == t)
            return true;
        if ((i->op == OP_EXIT || i->op == OP_BREAK_IF || i->op == OP_BREAK_JUMP) && i->imm == t)
            return false;
        if (label[pc])
            return false;
    }
    return false;
}

/* Slot t is cleared (MASK_CLEAR, IF) somewhere in [lo, pc): with no lane
 * running from lo on, nothing can fill it after that. */
static bool slot_cleared_in(const wg_program *p, uint32_t lo, uint32_t pc, uint32_t t)
{
    for (uint32_t k = lo; k < pc; k++)
        if ((p->code[k].op == OP_MASK_CLEAR || p->code[k].op == OP_IF) && p->code[k].imm == t)
            return true;
    return false;
}

static bool inert(const wg_program *p, const uint8_t *label, const uint64_t *live_after,
                  uint32_t nregs, uint32_t head, uint32_t j, uint32_t e)
{
    for (uint32_t pc = j + 1; pc < e; pc++) {
        wg_ins *i = &p->code[pc];
        switch ((wg_opcode)i->op) {
        case OP_BARRIER: case OP_TEX_DIMS: case OP_ARRAY_LEN: case OP_END:
            return false;
        case OP_MERGE: case OP_ENDIF: case OP_ELSE: case OP_LOOP_END:
            /* empty: cleared inside the skipped code, or before the BREAK_IF */
            if (!slot_cleared_in(p, j + 1, pc, i->imm) &&
                !slot_clear_before(p, label, head, j, i->imm))
                return false;
            if (i->op == OP_LOOP_END && i->b > pc)
                return false;
            break;
        default: {
            ins_info f;
            describe(i, &f);
            if (f.wr.reg && f.full) {
                uint32_t lo, hi;
                range(*f.wr.reg, f.wr.count, nregs, &lo, &hi);
                for (uint32_t r = lo; r < hi; r++)
                    if (bit_get(live_after, r))
                        return false;
            }
        }
        }
    }
    return true;
}

static bool break_jumps(wg_program *p, uint32_t nregs)
{
    uint32_t nc = p->ncode, words = (nregs + 63) / 64 + 1;
    uint64_t *in = calloc((size_t)(nc + 1) * words, sizeof *in);
    uint64_t *out = calloc(words, sizeof *out);
    uint8_t *label = calloc(nc + 1, 1);
    bool ok = in && out && label;
    if (ok) {
        liveness(p, nregs, NULL, in, out, words);
        for (uint32_t pc = 0; pc < nc; pc++)
            if (is_jump(&p->code[pc]))
                label[p->code[pc].b] = 1;
        for (uint32_t j = 0; j < nc; j++) {
            wg_ins *i = &p->code[j];
            if (i->op != OP_BREAK_IF)
                continue;
            uint32_t e = j + 1; /* the loop's end: its LOOP_END on the same slot */
            while (e < nc && !(p->code[e].op == OP_LOOP_END && p->code[e].imm == i->imm))
                e++;
            if (e == nc || p->code[e].b > j || e + 1 > nc)
                continue;
            if (inert(p, label, in + (size_t)(e + 1) * words, nregs, p->code[e].b, j, e)) {
                i->op = OP_BREAK_JUMP;
                i->b = e;
            }
        }
    }
    free(in);
    free(out);
    free(label);
    return ok;
}

/* ---- 5. loop conditions: `!(a < b)` as one comparison ----
 * An integer CMP followed at once by BITS_LNOT of its result is the
 * opposite comparison (i32 and u32 order totally; f32 does not, NaN): the
 * LNOT becomes that CMP on the same operands, and the first CMP is left to
 * dead-code elimination. */
static void invert_compares(wg_program *p, const uint8_t *label)
{
    static const uint8_t opposite[] = {[CMP_LT] = CMP_GE, [CMP_LE] = CMP_GT, [CMP_GT] = CMP_LE,
                                       [CMP_GE] = CMP_LT, [CMP_EQ] = CMP_NE, [CMP_NE] = CMP_EQ};
    for (uint32_t pc = 1; pc < p->ncode; pc++) {
        wg_ins *i = &p->code[pc], *c = &p->code[pc - 1];
        if (i->op != OP_BITS || i->sub != BITS_LNOT || label[pc] || c->op != OP_CMP ||
            c->d != i->a || c->sub > CMP_NE || (c->n != TY_I32 && c->n != TY_U32) ||
            c->d == c->a || c->d == c->b)
            continue;
        uint32_t d = i->d;
        *i = *c;
        i->d = d;
        i->sub = opposite[c->sub];
    }
}

/* Do register runs [a, a + an) and [b, b + bn) share a register? */
static bool overlaps(uint32_t a, uint32_t an, uint32_t b, uint32_t bn, uint32_t nregs)
{
    uint32_t alo, ahi, blo, bhi;
    range(a, an, nregs, &alo, &ahi);
    range(b, bn, nregs, &blo, &bhi);
    return alo < bhi && blo < ahi;
}

/* ---- 6. counted loops, unrolled ----
 * The lowering gives `for (var i = A; i <= B; i++) { body }` (any integer
 * comparison, + or - a constant step) this shape, once propagation has made
 * A, B and the step constant registers:
 *
 *        MOV i <- A                 (straight-line code before h)
 *     h: MASK_CLEAR c               (the continue slot)
 *        CMP t = i <op> B           (true: leave)
 *        BREAK_IF t, slot b
 *        body                       (no EXIT, BREAK_IF, END; its jumps stay inside)
 *        MERGE c
 *        MATH u = i + S  (or - S)
 *        MOVM i <- u
 *     e: LOOP_END -> h, slot b
 *
 * With no exit in the body, every lane that enters runs every iteration and
 * the counter takes the same values in every lane: i_0 = A, i_k+1 = i_k + S
 * (wrapping as WGSL does), until the comparison holds.  The loop becomes
 * the body once per value, each copy reading i_k from a constant register
 * where it read i, then MOVM i <- i_n so that i ends as the loop left it
 * (the lanes the MOVM does not cover keep theirs).  Only loops of at most
 * UNROLL_TRIPS iterations and UNROLL_CODE instructions unrolled. */
enum { UNROLL_TRIPS = 16, UNROLL_CODE = 384 };

static uint32_t const_value(const pass *s, uint32_t reg, bool *ok)
{
    if (reg < s->nregs || reg - s->nregs >= s->nconsts) {
        *ok = false;
        return 0;
    }
    return s->consts[reg - s->nregs];
}

/* Does the comparison `v <cmp> k` (i32 or u32) hold? */
static bool cmp_holds(uint32_t cmp, bool sign, uint32_t v, uint32_t k)
{
    int64_t a = sign ? (int64_t)(int32_t)v : (int64_t)v, b = sign ? (int64_t)(int32_t)k : (int64_t)k;
    switch (cmp) {
    case CMP_LT: return a < b;
    case CMP_LE: return a <= b;
    case CMP_GT: return a > b;
    case CMP_GE: return a >= b;
    case CMP_EQ: return a == b;
    default: return a != b;
    }
}

/* A loop of that shape: h, e, the copies' prefix [h + 1, h + 1 + npre)
 * (copies of the counter the lowering makes before the test), the body
 * [body, e - 3), the counter register and its values (n, then the exit
 * value). */
typedef struct counted_loop {
    uint32_t h, e, npre, body, counter, n;
    uint32_t vals[UNROLL_TRIPS + 1];
} counted_loop;

/* Is [h, e] such a loop?  Fills *L.  live_after: the registers live after e. */
static bool counted(const pass *s, const wg_program *p, const uint8_t *label, uint32_t h,
                    uint32_t e, const uint64_t *live_after, counted_loop *L)
{
    uint32_t np = 0;
    while (h + 1 + np < e && p->code[h + 1 + np].op == OP_MOV)
        np++; /* the prefix: MOVs (checked below) */
    if (e < h + 6 + np)
        return false;
    const wg_ins *c = &p->code[h], *t = &p->code[h + 1 + np], *bi = &p->code[h + 2 + np];
    const wg_ins *mg = &p->code[e - 3], *st = &p->code[e - 2], *mv = &p->code[e - 1];
    const wg_ins *le = &p->code[e];
    if (c->op != OP_MASK_CLEAR || t->op != OP_CMP || bi->op != OP_BREAK_IF ||
        bi->a != t->d || bi->imm != le->imm || mg->op != OP_MERGE || mg->imm != c->imm ||
        st->op != OP_MATH || mv->op != OP_MOVM || mv->n != 1 || mv->a != st->d ||
        (t->n != TY_I32 && t->n != TY_U32) || t->sub > CMP_NE)
        return false;
    uint32_t v = t->a, fn = st->imm;
    bool sign = t->n == TY_I32, ok = true;
    if (st->a != v || mv->d != v || v >= s->nregs ||
        !(fn == STEX_MATH_ADD_I32 || fn == STEX_MATH_ADD_U32 || fn == STEX_MATH_SUB_I32 ||
          fn == STEX_MATH_SUB_U32))
        return false;
    uint32_t limit = const_value(s, t->b, &ok), step = const_value(s, st->b, &ok);
    if (!ok)
        return false;
    /* the counter's first value: a MOV from a constant in the straight line before h */
    uint32_t first = 0;
    bool found = false;
    for (uint32_t q = h; q-- > 0 && !found;) {
        const wg_ins *i = &p->code[q];
        ins_info f;
        describe((wg_ins *)i, &f);
        if (f.wr.reg && overlaps(*f.wr.reg, f.wr.count, v, 1, s->nregs)) {
            if (i->op != OP_MOV || i->d != v || i->n != 1)
                return false;
            first = const_value(s, i->a, &ok);
            if (!ok)
                return false;
            found = true;
        }
        if (label[q] || is_jump(i))
            break;
    }
    if (!found)
        return false;
    /* the prefix and the body: no exit, jumps inside the body, the counter
     * never written and read only whole */
    uint32_t body = h + 3 + np;
    for (uint32_t q = h + 1; q < e - 3; q++) {
        if (q == h + 1 + np || q == h + 2 + np)
            continue; /* the test */
        const wg_ins *i = &p->code[q];
        ins_info f;
        if (i->op == OP_EXIT || i->op == OP_BREAK_IF || i->op == OP_BREAK_JUMP || i->op == OP_END ||
            !describe((wg_ins *)i, &f))
            return false;
        if (is_jump(i) && (i->b < body || i->b >= e - 3))
            return false;
        if (f.wr.reg && overlaps(*f.wr.reg, f.wr.count, v, 1, s->nregs))
            return false;
        for (uint32_t r = 0; r < f.nrd; r++)
            if (overlaps(*f.rd[r].reg, f.rd[r].count, v, 1, s->nregs) &&
                (*f.rd[r].reg != v || f.rd[r].count != 1))
                return false;
    }
    /* the test's and the step's results are dead after the loop (the
     * prefix's are left as the loop leaves them: it runs once more after
     * the copies, for the exit value) */
    if (bit_get(live_after, t->d) || bit_get(live_after, st->d))
        return false;
    /* nothing outside jumps into it */
    for (uint32_t q = 0; q < p->ncode; q++)
        if ((q < h || q > e) && is_jump(&p->code[q]) && p->code[q].b > h && p->code[q].b <= e)
            return false;
    uint32_t k = 0, x = first;
    bool sub = fn == STEX_MATH_SUB_I32 || fn == STEX_MATH_SUB_U32;
    L->h = h, L->e = e, L->npre = np, L->body = body, L->counter = v;
    while (!cmp_holds(t->sub, sign, x, limit)) {
        if (k == UNROLL_TRIPS)
            return false;
        L->vals[k++] = x;
        x = sub ? x - step : x + step; /* wrapping: WGSL's integer + and - */
    }
    L->vals[k] = x;
    L->n = k;
    return k * (np + e - 3 - body) <= UNROLL_CODE;
}

/* Appends code[q] to out at o, its reads of the counter made reads of
 * register reg, its jump target moved by shift. */
static void put_copy(const wg_program *p, uint32_t q, uint32_t v, uint32_t reg, int64_t shift,
                     wg_ins *out)
{
    wg_ins i = p->code[q];
    ins_info f;
    describe(&i, &f);
    for (uint32_t r = 0; r < f.nrd; r++)
        if (f.rd[r].reg != f.wr.reg && *f.rd[r].reg == v && f.rd[r].count == 1)
            *f.rd[r].reg = reg;
    if (is_jump(&i))
        i.b = (uint32_t)((int64_t)i.b + shift);
    *out = i;
}

/* Replaces loop L by its unrolled copies; false: out of memory. */
static bool unroll(pass *s, wg_program *p, const counted_loop *L)
{
    uint32_t h = L->h, e = L->e, n = L->n, blen = e - 3 - L->body, clen = L->npre + blen;
    uint32_t newlen = n * clen + L->npre + 1, oldlen = e + 1 - h;
    uint32_t regs[UNROLL_TRIPS + 1];
    for (uint32_t k = 0; k <= n; k++)
        if ((regs[k] = const_run(s, &L->vals[k], 1)) == WG_NONE_REG)
            return false;
    uint32_t total = p->ncode - oldlen + newlen;
    wg_ins *code = malloc((total ? total : 1) * sizeof *code);
    if (!code)
        return false;
    memcpy(code, p->code, h * sizeof *code);
    uint32_t o = h;
    for (uint32_t k = 0; k < n; k++) {
        for (uint32_t q = h + 1; q < h + 1 + L->npre; q++)
            put_copy(p, q, L->counter, regs[k], 0, &code[o++]);
        /* body instruction q lands at h + k * clen + npre + (q - body) */
        int64_t shift = (int64_t)h + (int64_t)k * clen + L->npre - (int64_t)L->body;
        for (uint32_t q = L->body; q < e - 3; q++)
            put_copy(p, q, L->counter, regs[k], shift, &code[o++]);
    }
    for (uint32_t q = h + 1; q < h + 1 + L->npre; q++) /* the exit test's prefix */
        put_copy(p, q, L->counter, regs[n], 0, &code[o++]);
    code[o] = p->code[e - 1]; /* MOVM i <- i_n: the counter as the loop left it */
    code[o].a = regs[n];
    o++;
    memcpy(code + o, p->code + e + 1, (p->ncode - e - 1) * sizeof *code);
    int64_t delta = (int64_t)newlen - (int64_t)oldlen;
    for (uint32_t q = 0; q < total; q++)
        if ((q < h || q >= h + newlen) && is_jump(&code[q]) && code[q].b > e)
            code[q].b = (uint32_t)((int64_t)code[q].b + delta);
    if (total > p->cap) {
        free(p->code);
        p->code = code;
        p->cap = total;
    } else {
        memcpy(p->code, code, total * sizeof *code);
        free(code);
    }
    p->ncode = total;
    return true;
}

static bool unroll_counted(pass *s, wg_program *p)
{
    for (bool again = true; again;) {
        again = false;
        uint32_t words = (s->nregs + s->nconsts + 63) / 64 + 1;
        uint8_t *label = calloc(p->ncode + 1, 1);
        uint64_t *in = calloc((size_t)(p->ncode + 1) * words, sizeof *in);
        uint64_t *out = calloc(words, sizeof *out);
        if (!label || !in || !out) {
            free(label);
            free(in);
            free(out);
            return false;
        }
        liveness(p, s->nregs + s->nconsts, NULL, in, out, words);
        for (uint32_t q = 0; q < p->ncode; q++)
            if (is_jump(&p->code[q]) && p->code[q].b <= p->ncode)
                label[p->code[q].b] = 1;
        /* innermost first: the first LOOP_END closes a loop with no loop inside */
        for (uint32_t e = 0; e < p->ncode && !again; e++) {
            const wg_ins *le = &p->code[e];
            counted_loop L;
            if (le->op != OP_LOOP_END || le->b >= e ||
                !counted(s, p, label, le->b, e, in + (size_t)(e + 1) * words, &L))
                continue;
            if (!unroll(s, p, &L)) {
                free(label);
                free(in);
                free(out);
                return false;
            }
            again = true;
        }
        free(label);
        free(in);
        free(out);
    }
    return true;
}

/* ---- 7. loop-invariant arithmetic ----
 * An instruction of a loop [h, e] (LOOP_END at e jumping back to h) moves
 * to h, ahead of the loop, when running it there gives every later reader
 * the same words: it is arithmetic that writes every lane (exec does not
 * matter) and has no effect; nothing in the loop writes what it reads;
 * nothing else in the loop writes what it writes; nothing in the loop reads
 * that before it (the first iteration would see the old value); and it is
 * not live after the loop (a loop left before reaching it would keep the
 * old value).  Jumps into the loop from outside still land on h (now the
 * moved instruction); jumps from inside to h land after it. */
/* Arithmetic of one register from registers: every lane, no other effect. */
static bool arith(const wg_ins *i)
{
    return i->op == OP_MATH || i->op == OP_CMP || i->op == OP_BITS || i->op == OP_SELECT;
}

static bool movable(const wg_ins *i)
{
    return arith(i) || i->op == OP_MOV || i->op == OP_MATHV ||
           (i->op == OP_BUF_LOAD && i->c == 1 && i->a == WG_NONE_REG && !i->sub);
}

/* Can code[pc] of loop [h, e] move to h?  live_after: live after e. */
static bool invariant(const wg_program *p, uint32_t nregs, uint32_t h, uint32_t e, uint32_t pc,
                      const uint64_t *live_after)
{
    wg_ins *i = &p->code[pc];
    ins_info f;
    if (!movable(i) || !describe(i, &f) || !f.pure || !f.full || !f.wr.reg)
        return false;
    uint32_t d = *f.wr.reg, dn = f.wr.count, lo, hi;
    range(d, dn, nregs, &lo, &hi);
    for (uint32_t r = lo; r < hi; r++)
        if (bit_get(live_after, r))
            return false;
    for (uint32_t k = 0; k < f.nrd; k++)
        if (overlaps(*f.rd[k].reg, f.rd[k].count, d, dn, nregs))
            return false; /* reads what it writes */
    for (uint32_t q = h; q <= e; q++) {
        if (q == pc)
            continue;
        ins_info g;
        describe(&p->code[q], &g);
        if (g.wr.reg) {
            if (overlaps(*g.wr.reg, g.wr.count, d, dn, nregs))
                return false;
            for (uint32_t k = 0; k < f.nrd; k++)
                if (overlaps(*g.wr.reg, g.wr.count, *f.rd[k].reg, f.rd[k].count, nregs))
                    return false;
        }
        if (q < pc)
            for (uint32_t k = 0; k < g.nrd; k++)
                if (overlaps(*g.rd[k].reg, g.rd[k].count, d, dn, nregs))
                    return false;
    }
    return true;
}

/* Moves code[pc] to h (h < pc <= e), fixing the jumps. */
static void move_to_head(wg_program *p, uint32_t h, uint32_t e, uint32_t pc)
{
    wg_ins moved = p->code[pc];
    memmove(&p->code[h + 1], &p->code[h], (pc - h) * sizeof *p->code);
    p->code[h] = moved;
    for (uint32_t q = 0; q < p->ncode; q++) {
        wg_ins *j = &p->code[q];
        if (!is_jump(j) || q == h)
            continue;
        /* q is the jump's new position; where was it? */
        uint32_t from = q > h && q <= pc ? q - 1 : q;
        if (j->b > h && j->b <= pc)
            j->b++; /* its target moved down one */
        else if (j->b == h && from >= h && from <= e)
            j->b = h + 1; /* from inside the loop: past the moved instruction */
    }
}

static bool hoist_invariants(wg_program *p, uint32_t nregs)
{
    uint32_t words = (nregs + 63) / 64 + 1;
    for (uint32_t rounds = 0; rounds < 4 * p->ncode + 16; rounds++) {
        uint32_t nc = p->ncode;
        uint64_t *in = calloc((size_t)(nc + 1) * words, sizeof *in);
        uint64_t *out = calloc(words, sizeof *out);
        if (!in || !out) {
            free(in);
            free(out);
            return false;
        }
        liveness(p, nregs, NULL, in, out, words);
        bool moved = false;
        for (uint32_t e = 0; e < nc && !moved; e++) {
            const wg_ins *le = &p->code[e];
            if (le->op != OP_LOOP_END || le->b >= e)
                continue;
            uint32_t h = le->b;
            for (uint32_t pc = h + 1; pc < e && !moved; pc++)
                if (invariant(p, nregs, h, e, pc, in + (size_t)(e + 1) * words)) {
                    move_to_head(p, h, e, pc);
                    moved = true;
                }
        }
        free(in);
        free(out);
        if (!moved)
            return true;
    }
    return true;
}

/* ---- 8. repeats ---- */

/* The same operation on the same operands (the result may go elsewhere). */
static bool same_computation(const wg_ins *x, const wg_ins *y)
{
    return x->op == y->op && x->sub == y->sub && x->n == y->n && x->a == y->a && x->b == y->b &&
           x->c == y->c && x->imm == y->imm && x->e == y->e && x->offs == y->offs;
}

static bool same_op(const wg_ins *x, const wg_ins *y)
{
    return same_computation(x, y) && x->d == y->d;
}

static bool drop_repeats(wg_program *p, uint32_t nregs)
{
    uint32_t nc = p->ncode;
    uint8_t *label = calloc(nc + 1, 1), *dead = calloc(nc + 1, 1);
    if (!label || !dead) {
        free(label);
        free(dead);
        return false;
    }
    for (uint32_t q = 0; q < nc; q++)
        if (is_jump(&p->code[q]) && p->code[q].b <= nc)
            label[p->code[q].b] = 1;
    for (uint32_t pc = 0; pc < nc; pc++) {
        wg_ins *i = &p->code[pc];
        ins_info f;
        if (!movable(i) || !describe(i, &f) || !f.pure || !f.full || !f.wr.reg)
            continue;
        bool self = false; /* reads what it writes: a repeat would differ */
        for (uint32_t r = 0; r < f.nrd; r++)
            self |= overlaps(*f.rd[r].reg, f.rd[r].count, *f.wr.reg, f.wr.count, nregs);
        /* back through the block: the same instruction, with nothing it
         * reads or writes written since */
        for (uint32_t q = pc; !self && q-- > 0 && !label[q + 1];) {
            wg_ins *j = &p->code[q];
            ins_info g;
            if (dead[q])
                continue; /* dropped already: writes nothing */
            if (same_op(i, j)) {
                dead[pc] = 1;
                break;
            }
            if (!describe(j, &g) || is_jump(j))
                break;
            bool clobbers = g.wr.reg && overlaps(*g.wr.reg, g.wr.count, *f.wr.reg, f.wr.count, nregs);
            for (uint32_t r = 0; g.wr.reg && r < f.nrd; r++)
                clobbers |= overlaps(*g.wr.reg, g.wr.count, *f.rd[r].reg, f.rd[r].count, nregs);
            if (clobbers)
                break;
        }
    }
    pack(p, dead);
    free(label);
    free(dead);
    return true;
}

/* ---- 9. results straight into their variables ---- */

/* Do run [r, r + n) and register x share a register? */
/* Can the instruction that last wrote register t before pc, in pc's block
 * (dead ones left out), write v instead?  It must write t alone, every lane, with no other
 * effect, and between it and pc nothing may read t or read or write v.
 * *writer: its index. */
static bool copied_from(wg_program *p, const uint8_t *label, const uint8_t *dead, uint32_t nregs,
                        uint32_t pc, uint32_t t, uint32_t v, uint32_t *writer)
{
    for (uint32_t q = pc; q-- > 0;) {
        if (label[q + 1])
            return false; /* a jump lands between: another block */
        if (dead[q])
            continue; /* a copy folded already: it writes and reads nothing */
        wg_ins *i = &p->code[q];
        ins_info f;
        if (!describe(i, &f) || is_jump(i))
            return false;
        if (f.wr.reg && overlaps(*f.wr.reg, f.wr.count, t, 1, nregs)) {
            bool single = f.wr.count == 1 && f.full && f.pure;
            bool kind = arith(i) || (i->op == OP_MOV && i->n == 1);
            *writer = q;
            return single && kind;
        }
        if (f.wr.reg && overlaps(*f.wr.reg, f.wr.count, v, 1, nregs))
            return false;
        for (uint32_t r = 0; r < f.nrd; r++)
            if (overlaps(*f.rd[r].reg, f.rd[r].count, t, 1, nregs) ||
                overlaps(*f.rd[r].reg, f.rd[r].count, v, 1, nregs))
                return false;
    }
    return false;
}

/* Does any instruction but a clear use mask slot t (the interpreter's
 * sg->slot[imm]), or is it the slot of returned lanes? */
static bool slot_read(const wg_program *p, uint32_t t)
{
    if (t == p->ret_slot)
        return true;
    for (uint32_t q = 0; q < p->ncode; q++) {
        uint8_t op = p->code[q].op;
        if (p->code[q].imm == t &&
            (op == OP_IF || op == OP_ELSE || op == OP_ENDIF || op == OP_MERGE || op == OP_EXIT ||
             op == OP_BREAK_IF || op == OP_BREAK_JUMP || op == OP_LOOP_END))
            return true;
    }
    return false;
}

static bool fold_copies(wg_program *p, uint32_t nregs)
{
    uint32_t nc = p->ncode, from = 0;
    for (uint32_t q = 0; q < nc; q++) {
        uint8_t op = p->code[q].op;
        bool last_merge = op == OP_MERGE && q + 1 < nc && p->code[q + 1].op == OP_END;
        if (op == OP_ELSE || op == OP_ENDIF || op == OP_LOOP_END || (op == OP_MERGE && !last_merge))
            from = q + 1; /* lanes may come back here */
    }
    for (uint32_t q = from; q < nc; q++)
        if (p->code[q].op == OP_MOVM)
            p->code[q].op = OP_MOV; /* the lanes it kept will never run again */
    uint32_t words = (nregs + 63) / 64 + 1;
    uint8_t *label = calloc(nc + 1, 1), *dead = calloc(nc + 1, 1);
    uint64_t *in = calloc((size_t)(nc + 1) * words, sizeof *in), *out = calloc(words, sizeof *out);
    if (!label || !dead || !in || !out) {
        free(label), free(dead), free(in), free(out);
        return false;
    }
    for (uint32_t q = 0; q < nc; q++)
        if (is_jump(&p->code[q]) && p->code[q].b <= nc)
            label[p->code[q].b] = 1;
    liveness(p, nregs, NULL, in, out, words);
    for (uint32_t pc = 1; pc < nc; pc++) {
        wg_ins *m = &p->code[pc];
        uint32_t n = m->n, t = m->a, d = m->d, writer[4];
        if (m->op != OP_MOV || !n || n > 4 || overlaps(t, n, d, n, nregs) ||
            t >= nregs || d >= nregs || n > nregs - t || n > nregs - d)
            continue;
        bool ok = true;
        for (uint32_t k = 0; k < n && ok; k++)
            ok = copied_from(p, label, dead, nregs, pc, t + k, d + k, &writer[k]);
        live_out(p, in, words, pc, out);
        for (uint32_t r = t; r < t + n && ok; r++)
            ok = !bit_get(out, r); /* the temporaries are not read again */
        if (!ok)
            continue;
        for (uint32_t k = 0; k < n; k++)
            p->code[writer[k]].d = d + k;
        dead[pc] = 1;
    }
    pack(p, dead);
    /* what the unrolled copies left behind: the loop counters' last
     * updates, written and never read, and the clears of their break
     * masks, which no instruction reads any more */
    memset(dead, 0, nc + 1);
    if (find_dead(p, nregs, dead)) {
        for (uint32_t q = 0; q < p->ncode; q++)
            if (p->code[q].op == OP_MASK_CLEAR && !slot_read(p, p->code[q].imm))
                dead[q] = 1;
        pack(p, dead);
    }
    free(label), free(dead), free(in), free(out);
    return true;
}

/* The operations whose result is their operand's bits (fast_math's). */
static bool same_bits(stex_math_fn fn)
{
    return fn == STEX_MATH_I32_TO_U32 || fn == STEX_MATH_U32_TO_I32 ||
           fn == STEX_MATH_BITCAST_U32_F32 || fn == STEX_MATH_BITCAST_F32_I32;
}

/* ---- 10. values computed again ---- */

/* Can i's reads of register v be made reads of another?  Not when a read
 * of several registers covers v, nor when v is what a masked write keeps
 * (its destination's old lanes: that field is the destination too). */
static bool rewritable(wg_ins *i, uint32_t v, uint32_t nregs)
{
    ins_info g;
    describe(i, &g);
    for (uint32_t r = 0; r < g.nrd; r++)
        if (overlaps(*g.rd[r].reg, g.rd[r].count, v, 1, nregs) &&
            (g.rd[r].count != 1 || g.rd[r].reg == g.wr.reg))
            return false;
    return true;
}

/* Rewrites i's reads of v to f; false (nothing changed) where
 * rewritable says no. */
static bool reads_to(wg_ins *i, uint32_t v, uint32_t f, uint32_t nregs)
{
    if (!rewritable(i, v, nregs))
        return false;
    ins_info g;
    describe(i, &g);
    for (uint32_t r = 0; r < g.nrd; r++)
        if (*g.rd[r].reg == v)
            *g.rd[r].reg = f;
    return true;
}

static bool writes_reg(wg_ins *i, uint32_t r, uint32_t nregs)
{
    ins_info g;
    describe(i, &g);
    return g.wr.reg && overlaps(*g.wr.reg, g.wr.count, r, 1, nregs);
}

/* Is code[q] a computation step 10 may reuse: arithmetic of one register
 * from one-register operands, nothing else? */
static bool reusable(wg_ins *i)
{
    ins_info f;
    if (!arith(i) || !describe(i, &f) || !f.pure || !f.full || f.wr.count != 1)
        return false;
    for (uint32_t r = 0; r < f.nrd; r++)
        if (f.rd[r].count != 1)
            return false;
    return true;
}

/* After the copies of an unrolled loop, the same arithmetic on the same
 * registers comes again (the box blurs' clamp(c.x + dx) in every row):
 * where the first result still sits in its register, the repeat becomes a
 * copy of it; where that register was written since, the first result
 * moves to a new register (its readers until then with it) and the repeat
 * copies that.  Each copy's readers that follow read the source itself,
 * so the copies die.  Inside a basic block only; nregs: registers so far,
 * *fresh: the new ones, numbered from nregs.  Out of memory: false, the
 * code as it was. */
static bool reuse_values(wg_program *p, uint32_t nregs, uint32_t *fresh)
{
    uint32_t nc = p->ncode, extra = 0;
    uint8_t *label = calloc(nc + 1, 1), *dead = calloc(nc + 1, 1);
    if (!label || !dead) {
        free(label), free(dead);
        return false;
    }
    for (uint32_t q = 0; q < nc; q++)
        if (is_jump(&p->code[q]) && p->code[q].b <= nc)
            label[p->code[q].b] = 1;
    for (uint32_t pc = 1; pc < nc && extra < 64; pc++) {
        wg_ins *x = &p->code[pc];
        if (!reusable(x))
            continue;
        ins_info fx;
        describe(x, &fx);
        /* back through the block to the same computation, none of x's
         * operands written on the way (nor by it) */
        uint32_t e = UINT32_MAX;
        for (uint32_t q = pc; q-- > 0 && !label[q + 1];) {
            wg_ins *j = &p->code[q];
            if (is_jump(j))
                break;
            bool clobbers = false;
            for (uint32_t r = 0; r < fx.nrd && !dead[q]; r++)
                clobbers |= writes_reg(j, *fx.rd[r].reg, nregs + extra);
            if (clobbers)
                break;
            if (!dead[q] && same_computation(j, x) && reusable(j)) {
                e = q;
                break;
            }
        }
        if (e == UINT32_MAX)
            continue;
        uint32_t v = p->code[e].d, w = pc;
        for (uint32_t q = e + 1; q < pc; q++) /* a dropped repeat (v <- v) writes nothing */
            if (!dead[q] && writes_reg(&p->code[q], v, nregs + extra)) {
                w = q;
                break;
            }
        uint32_t src = v;
        if (w < pc) { /* v written since: the first result to a new register */
            uint32_t f = nregs + extra;
            bool ok = true;
            for (uint32_t q = e + 1; q <= w && ok; q++)
                ok = rewritable(&p->code[q], v, nregs + extra);
            if (!ok)
                continue;
            extra++;
            p->code[e].d = f;
            for (uint32_t q = e + 1; q <= w; q++)
                reads_to(&p->code[q], v, f, nregs + extra);
            src = f;
        }
        uint32_t d = x->d;
        *x = (wg_ins){.op = OP_MOV, .n = 1, .d = d, .a = src, .line = x->line};
        if (d == src) {
            dead[pc] = 1;
            continue;
        }
        /* the copy's readers in the block read src, until d or src is written */
        for (uint32_t q = pc + 1; q < nc && !label[q]; q++) {
            wg_ins *j = &p->code[q];
            if (!reads_to(j, d, src, nregs + extra) || is_jump(j) ||
                writes_reg(j, d, nregs + extra) || writes_reg(j, src, nregs + extra))
                break;
        }
    }
    *fresh = extra;
    pack(p, dead);
    memset(dead, 0, nc + 1);
    if (find_dead(p, nregs + extra, dead))
        pack(p, dead);
    free(label), free(dead);
    return true;
}

/* Step 11: a textureLoad of level 0 written as a constant (every image
 * filter's) names no level register, so the load's word form does not
 * read 64 lanes of zeros to learn it (a missing level is level 0). */
static void level_zero(const pass *s, wg_program *p)
{
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        wg_ins *i = &p->code[pc];
        bool known = true;
        if (i->op == OP_TEX_LOAD_LEVEL && i->b == WG_NONE_REG && i->c != WG_NONE_REG
            && const_value(s, i->c, &known) == 0 && known)
            i->c = WG_NONE_REG;
    }
}

bool wg_optimize(wg_exec_program *xp)
{
    wg_program *p = &xp->prog;
    if (!enabled || !p->ncode)
        return true;
    /* the passes keep a set of registers per instruction: past 2^22 words
     * of them (a large array in registers) the program runs as lowered */
    if ((uint64_t)p->ncode * ((p->nregs + 63) / 64 + 1) > (1ull << 22))
        return true;
    for (uint32_t pc = 0; pc < p->ncode; pc++) {
        ins_info f;
        if (!describe(&p->code[pc], &f) || (is_jump(&p->code[pc]) && p->code[pc].b > p->ncode))
            return true; /* not described: run as lowered */
    }
    pass s = {.xp = xp, .nregs = p->nregs};
    uint8_t *label = calloc(p->ncode + 1, 1);
    uint8_t *dead = calloc(p->ncode + 1, 1);
    wg_ins *saved = malloc(p->ncode * sizeof *saved);
    s.k = calloc(p->nregs + 1, sizeof *s.k);
    bool ok = label && dead && saved && s.k;
    uint32_t saved_n = p->ncode;
    if (ok) {
        memcpy(saved, p->code, p->ncode * sizeof *saved);
        for (uint32_t pc = 0; pc < p->ncode; pc++) {
            wg_ins *i = &p->code[pc];
            if (is_jump(i))
                label[i->b] = 1;
            /* a runtime-sized array's element address with one word per
             * element is the index itself (OP_ADDR's first case): a copy,
             * which propagation then removes */
            if (i->op == OP_ADDR && !i->c && i->a == WG_NONE_REG && i->imm == 1)
                *i = (wg_ins){.op = OP_MOV, .n = 1, .d = i->d, .a = i->b, .line = i->line};
            /* so are the conversions that keep every bit (i32 <-> u32, bitcasts) */
            if (i->op == OP_MATH && same_bits((stex_math_fn)i->imm))
                *i = (wg_ins){.op = OP_MOV, .n = 1, .d = i->d, .a = i->a, .line = i->line};
        }
        propagate(&s, label);
        invert_compares(p, label);
        ok = !s.oom && find_dead(p, p->nregs + s.nconsts, dead);
        if (ok) {
            pack(p, dead);
            ok = unroll_counted(&s, p);
        }
        if (ok) {
            hoist_invariants(p, p->nregs + s.nconsts); /* out of memory: where they were */
            drop_repeats(p, p->nregs + s.nconsts);     /* out of memory: kept */
            /* new registers come after the constant ones (no constant is
             * added from here on) */
            uint32_t fresh = 0, total = p->nregs + s.nconsts;
            reuse_values(p, total, &fresh);            /* out of memory: kept */
            total += fresh;
            fold_copies(p, total);                     /* out of memory: kept */
            break_jumps(p, total);                     /* out of memory: plain BREAK_IFs */
            level_zero(&s, p);
            xp->consts = s.consts;
            xp->nconsts = s.nconsts;
            xp->const_reg = p->nregs;
            p->nregs = total;
            s.consts = NULL;
        } else {
            p->ncode = saved_n; /* as lowered (the code never shrinks its capacity) */
            memcpy(p->code, saved, saved_n * sizeof *saved);
        }
    }
    free(label);
    free(dead);
    free(saved);
    free(s.k);
    free(s.consts);
    return ok;
}
