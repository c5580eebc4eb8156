/* The allowed-mode executor (interp_ival.h): the optimised bytecode of
 * interp.c, one invocation at a time, every register word with a shadow
 * set (stex/interval.h) beside the bits the dispatch's profile computes.
 *
 * - Arithmetic: the bits from stex_math_eval under the profile, the set
 *   from stex_ival_eval (WGSL's accuracy rules, no profile).  A set that is
 *   the point of its bits is dropped: the word is exact again.
 * - Memory: buffers, textures and var<workgroup> keep shadows
 *   (interp_ival_state.c); a textureStore keeps stex_ival_store's set, the
 *   values textureLoad may return after any conforming conversion.
 * - Uncertain conditions: a select joins both operands; an `if` runs both
 *   sides from one state (their stores "weak": joined with what memory
 *   held) and joins the registers at the ENDIF.  When the sides end in
 *   different control states, or a loop's exit is uncertain, the path not
 *   taken runs on as a "ghost" to the end of the program, both paths'
 *   stores weak from there on.  A ghost that meets a barrier, or too many
 *   forks, makes every writable resource the invocation can reach ANY
 *   ("lost"), the reason being the source line.
 * - An index or a coordinate that is not a point: the load is ANY, a store
 *   makes the whole resource ANY. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch/phase.h"
#include "shader/exec.h"
#include "shader/lanes.h"
#include "stex/cancel.h"
#include "stex/resource.h"
#include "wgsl/interp_ival.h"

enum { MAX_FORK_DEPTH = 6, MAX_GHOSTS = 64 };

/* One invocation's state: registers, their shadows (ty 0: exact; else the
 * type letter of v), mask slots (bit 0: this invocation). */
typedef struct ilane {
    uint32_t *r;
    stex_ival *v;
    uint8_t *ty;
    uint32_t *why;
    uint64_t *slot;
    uint64_t exec;
    uint32_t pc;
    uint64_t steps;
    uint32_t lid;
    bool done;
    bool weak;       /* another path may skip its stores: each joins memory's set */
    uint32_t taint;  /* lost: every value it writes is ANY for this reason */
    uint32_t forks;  /* ghosts started so far */
    uint32_t depth;  /* nested `if` forks */
} ilane;

/* One workgroup's run. */
typedef struct ictx {
    const wg_exec_program *xp;
    const wg_program *p;
    stex_allowed *a;
    const stex_profile *prof;
    bool ieee;               /* stex_math_f32_is_ieee(prof) */
    stex_invocation inv;     /* the workgroup's template (lanes builtins) */
    uint32_t nregs, nslots;
    const uint8_t *rt;       /* each register's type where the code tells (infer_types) */
    uint32_t lidv;           /* stex_lanes' one lane */
    uint64_t one;
    /* var<workgroup> shadows */
    stex_ival *wgv;
    uint32_t *wgwhy;
    uint8_t *wghas;
    uint64_t wgwords;
} ictx;

typedef enum istop { I_BARRIER, I_END, I_ERROR, I_AT } istop;

/* The reasons already interned, per thread, by run, program, instruction
 * and text (a literal, or the math function's info): a value that is ANY in
 * every lane would otherwise format and look up its reason per lane. */
enum { REASONS = 256 };
static _Thread_local struct {
    uint64_t serial[REASONS], uid[REASONS];
    const void *what[REASONS];
    uint32_t pc[REASONS], id[REASONS];
} reasons;

static uint32_t reason_cached(ictx *c, const wg_ins *i, const void *what, uint32_t *slot)
{
    uint32_t pc = (uint32_t)(i - c->p->code);
    uint32_t h = (pc * 0x9e3779b1u ^ (uint32_t)(uintptr_t)what * 0x85ebca6bu) >> 24;
    *slot = h;
    if (c->xp->uid && reasons.serial[h] == c->a->serial && reasons.uid[h] == c->xp->uid &&
        reasons.pc[h] == pc && reasons.what[h] == what)
        return reasons.id[h];
    return 0;
}

static uint32_t reason_keep(ictx *c, const wg_ins *i, const void *what, uint32_t slot,
                            uint32_t id)
{
    reasons.serial[slot] = c->a->serial, reasons.uid[slot] = c->xp->uid;
    reasons.pc[slot] = (uint32_t)(i - c->p->code), reasons.what[slot] = what;
    reasons.id[slot] = id;
    return id;
}

static uint32_t reason_at(ictx *c, const wg_ins *i, const char *what)
{
    uint32_t slot, id = reason_cached(c, i, what, &slot);
    if (id)
        return id;
    char buf[512];
    snprintf(buf, sizeof buf, "%s:%u: %s", c->xp->filename, i->line, what);
    return reason_keep(c, i, what, slot, ival_reason(c->a, buf));
}

/* ---- word types of the math layer's overloads ---- */
typedef struct fn_types {
    char in[16], out[8];
} fn_types;
static fn_types fn_tab[STEX_MATH_FN_COUNT];
static pthread_once_t fn_once = PTHREAD_ONCE_INIT;

static void fn_init(void)
{
    for (int f = 0; f < STEX_MATH_FN_COUNT; f++) {
        const stex_math_fn_info *info = stex_math_fn_get((stex_math_fn)f);
        const char *arrow = info ? strstr(info->sig, "->") : NULL;
        if (!arrow)
            continue;
        char args[64];
        size_t n = (size_t)(arrow - info->sig) < sizeof args - 1 ? (size_t)(arrow - info->sig)
                                                                  : sizeof args - 1;
        memcpy(args, info->sig, n);
        args[n] = 0;
        stex_math_word_types(args, fn_tab[f].in, (int)sizeof fn_tab[f].in - 1);
        stex_math_word_types(arrow + 2, fn_tab[f].out, (int)sizeof fn_tab[f].out - 1);
    }
}

static bool is_float_type(char t) { return t == 'f' || t == 'h'; }

/* The type letter of each register where an instruction that reads or
 * writes it says (math arguments and results, comparisons, stored texels),
 * carried across copies and selects: what a join of two exact words of
 * different bits reads them as.  0: nothing tells. */
static void infer_types(const wg_exec_program *xp, uint8_t *t)
{
    const wg_program *p = &xp->prog;
    uint32_t n = p->nregs;
    memset(t, 0, n);
#define SET(r, ty)                                                                 \
    do {                                                                           \
        char ty_ = (char)(ty);                                                     \
        if ((r) < n && !t[r] && ty_)                                               \
            t[r] = (uint8_t)ty_;                                                   \
    } while (0)
#define UNIFY(x, y) do { if ((x) < n && (y) < n) { SET(x, t[y]); SET(y, t[x]); } } while (0)
    for (int pass = 0; pass < 4; pass++) {
        for (uint32_t pc = 0; pc < p->ncode; pc++) {
            const wg_ins *i = &p->code[pc];
            switch ((wg_opcode)i->op) {
            case OP_MATH: {
                const fn_types *ft = &fn_tab[i->imm < STEX_MATH_FN_COUNT ? i->imm : 0];
                SET(i->a, ft->in[0]);
                if (ft->in[0] && ft->in[1])
                    SET(i->b, ft->in[1]);
                if (ft->in[0] && ft->in[1] && ft->in[2])
                    SET(i->c, ft->in[2]);
                SET(i->d, ft->out[0]);
                break;
            }
            case OP_MATHV: {
                const fn_types *ft = &fn_tab[i->imm < STEX_MATH_FN_COUNT ? i->imm : 0];
                for (uint32_t k = 0; k < sizeof ft->in && ft->in[k]; k++)
                    SET(i->a + k, ft->in[k]);
                for (uint32_t k = 0; k < sizeof ft->out && ft->out[k]; k++)
                    SET(i->d + k, ft->out[k]);
                break;
            }
            case OP_CMP: {
                char ty = i->n == TY_F32 ? 'f' : i->n == TY_I32 ? 'i' : 'u';
                SET(i->a, ty);
                SET(i->b, ty);
                SET(i->d, 'b');
                break;
            }
            case OP_SELECT:
                for (uint32_t k = 0; k < (i->n ? i->n : 1u); k++) {
                    SET(i->imm ? i->c + k : i->c, 'b');
                    UNIFY(i->d + k, i->a + k);
                    UNIFY(i->d + k, i->b + k);
                }
                break;
            case OP_MOV: case OP_MOVM:
                for (uint32_t k = 0; k < i->n; k++)
                    UNIFY(i->d + k, i->a + k);
                break;
            case OP_TEX_STORE:
                for (uint32_t k = 0; k < 4; k++)
                    SET(i->d + k, i->c == STEX_SCALAR_I32 ? 'i' : i->c == STEX_SCALAR_U32 ? 'u' : 'f');
                break;
            case OP_IF: case OP_BREAK_IF: case OP_BREAK_JUMP:
                SET(i->a, 'b');
                break;
            default:
                break;
            }
        }
    }
#undef SET
#undef UNIFY
}

/* ---- register values ---- */
/* stex_ival_of_bits, inline for the common words: a finite f32 that is not
 * a subnormal (a zero is both zeros), integers and bools. */
static inline stex_ival point_of(char t, uint32_t bits)
{
    if (t == 'f') {
        uint32_t e = bits >> 23 & 255;
        if (!(bits & 0x7fffffffu))
            return (stex_ival){-0.0, 0.0, 0};
        if (e != 0 && e != 255) {
            float f;
            memcpy(&f, &bits, 4);
            return (stex_ival){f, f, 0};
        }
    } else if (t == 'i') {
        return (stex_ival){(int32_t)bits, (int32_t)bits, 0};
    } else if (t == 'u') {
        return (stex_ival){bits, bits, 0};
    }
    return stex_ival_of_bits(t, bits);
}

/* v is exactly the point of bits (stex_ival_is_point and
 * stex_ival_contains_bits), inline for the common words */
static inline bool is_point_of(char t, const stex_ival *v, uint32_t bits)
{
    if (v->flags)
        return false;
    if (t == 'f' && (bits >> 23 & 255) != 0 && (bits >> 23 & 255) != 255) {
        float f;
        memcpy(&f, &bits, 4);
        return v->lo == v->hi && v->lo == f;
    }
    if (t == 'i')
        return v->lo == v->hi && v->lo == (int32_t)bits;
    if (t == 'u')
        return v->lo == v->hi && v->lo == bits;
    return stex_ival_is_point(t, v) && stex_ival_contains_bits(t, v, bits);
}

static stex_ival get(const ilane *l, uint32_t reg, char t)
{
    uint8_t ty = l->ty[reg];
    if (!ty)
        return point_of(t, l->r[reg]);
    if (ty == (uint8_t)t && !(l->v[reg].flags & STEX_IVAL_ANY))
        return l->v[reg];
    if (!(l->v[reg].flags & STEX_IVAL_ANY) && stex_ival_is_point((char)ty, &l->v[reg]))
        return point_of(t, l->r[reg]);
    return stex_ival_any(t); /* read as another type (a bitcast): any bits */
}

static bool exact(const ilane *l, uint32_t reg) { return !l->ty[reg]; }

static void set_exact(ilane *l, uint32_t reg, uint32_t bits)
{
    l->r[reg] = bits;
    if (!l->taint) {
        l->ty[reg] = 0;
        return;
    }
    l->ty[reg] = 'x';
    l->v[reg] = stex_ival_any('u');
    l->why[reg] = l->taint;
}

/* reg = bits with set v of type t; why: the reason if v is ANY */
static void set(ilane *l, uint32_t reg, char t, uint32_t bits, stex_ival v, uint32_t why)
{
    l->r[reg] = bits;
    if (l->taint) {
        l->ty[reg] = (uint8_t)t;
        l->v[reg] = stex_ival_any(t);
        l->why[reg] = l->taint;
        return;
    }
    if (is_point_of(t, &v, bits)) {
        l->ty[reg] = 0;
        return;
    }
    l->ty[reg] = (uint8_t)t;
    l->v[reg] = v;
    l->why[reg] = v.flags & STEX_IVAL_ANY ? why : 0;
}

static void set_any(ilane *l, uint32_t reg, char t, uint32_t bits, uint32_t why)
{
    set(l, reg, t, bits, stex_ival_any(t), why);
}

static void copy_reg(ilane *l, uint32_t d, uint32_t a)
{
    l->r[d] = l->r[a];
    l->ty[d] = l->ty[a];
    l->v[d] = l->v[a];
    l->why[d] = l->why[a];
    if (l->taint && !l->ty[d])
        set_exact(l, d, l->r[d]);
}

/* the first reason among registers, for a result they make ANY */
static uint32_t why_of(const ilane *l, const uint32_t *regs, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        if (regs[k] != WG_NONE_REG && l->ty[regs[k]] && l->why[regs[k]])
            return l->why[regs[k]];
    return 0;
}

/* a bool (or 0/1 word) known to be 0 or 1: -1 when either */
static int truth(const ilane *l, uint32_t reg)
{
    if (exact(l, reg))
        return l->r[reg] != 0;
    const stex_ival *v = &l->v[reg];
    if (!(v->flags & (STEX_IVAL_ANY | STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER)) && v->lo == v->hi)
        return v->lo != 0;
    return -1;
}

/* ---- memory shadows ---- */
static const exec_binding *binding(const ictx *c, uint32_t ref)
{
    return exec_binding_at(c->inv.exec, ref);
}

/* Every value of a resource bound at ref (its bound range) ANY. */
static void resource_any(ictx *c, uint32_t ref, uint32_t why)
{
    const exec_binding *b = binding(c, ref);
    if (b->type == STEX_BINDING_STORAGE_TEXTURE && b->access != STEX_ACCESS_READ_ONLY) {
        ival_shadow *s = ival_texture_shadow(c->a, b->texture, b->mip, c->prof);
        for (uint64_t k = 0; s && k < s->count; k++)
            ival_texel_put(s, k, stex_ival_any('f'), why);
    } else if (b->type == STEX_BINDING_STORAGE_BUFFER) {
        ival_shadow *s = ival_buffer_shadow(c->a, b->buffer);
        uint64_t first = b->offset / 4;
        for (uint64_t k = 0; s && k < b->words && first + k < s->count; k++)
            s->v[first + k] = stex_ival_any('u'), s->why[first + k] = why, s->has[first + k] = 'x';
    }
}

static void workgroup_any(ictx *c, uint32_t why)
{
    for (uint64_t k = 0; k < c->wgwords; k++)
        c->wgv[k] = stex_ival_any('u'), c->wgwhy[k] = why, c->wghas[k] = 'x';
}

/* The invocation's path can no longer be followed: whatever it may write
 * is ANY from here on. */
static void lose(ictx *c, ilane *l, uint32_t why)
{
    const exec_dispatch *d = c->inv.exec->ctx;
    for (uint32_t k = 0; k < d->nb; k++)
        if (d->b[k].type)
            resource_any(c, d->b[k].ref, why);
    workgroup_any(c, why);
    l->taint = why;
}

/* A word's new set after a store of v (type t) where old was (weak: joined). */
static void store_word(ilane *l, stex_ival *sv, uint8_t *sh, uint32_t *sw, char t, uint32_t old_bits,
                       const stex_ival *v, uint32_t why)
{
    stex_ival nv = *v;
    if (l->taint)
        nv = stex_ival_any(t), why = l->taint;
    if (l->weak) {
        stex_ival o = *sh ? (*sh == (uint8_t)t ? *sv : stex_ival_any(t))
                          : stex_ival_of_bits(t, old_bits);
        uint32_t ow = *sh ? *sw : 0;
        nv = stex_ival_join(t, o, nv);
        if (!why)
            why = ow;
    }
    *sv = nv;
    *sh = (uint8_t)t;
    *sw = nv.flags & STEX_IVAL_ANY ? why : 0;
}

/* The set textureLoad reads from channel c after textureStore of v: any
 * bits stay any bits (and keep their reason). */
static stex_ival stored(stex_format f, unsigned c, stex_ival v)
{
    return v.flags & STEX_IVAL_ANY ? stex_ival_any('f') : stex_ival_store(f, c, v);
}

/* ---- the instructions ---- */
static inline uint32_t off_of(const ilane *l, uint32_t reg)
{
    return reg == WG_NONE_REG ? 0 : l->r[reg];
}

static inline uint32_t offs_k(const wg_program *p, const wg_ins *i, uint32_t k)
{
    return i->offs == WG_NO_OFFS ? k : p->pool[i->offs + k];
}

/* the register's static type where a typed instruction reads or writes it */
static char reg_type(const ilane *l, uint32_t reg, char fallback)
{
    return l->ty[reg] && l->ty[reg] != 'x' ? (char)l->ty[reg] : fallback;
}

/* ---- f32 + - * and a * b + c on sets, inline ----
 * The common case of stex_ival_eval's rules (src/math/interval_arith.c) -
 * every bound zero or a normal value, every exact result bound zero or well
 * inside the normal range - without its general path: the exact bound
 * rounded down and up to f32 (a set holding zero holds both zeros).  Any
 * other case returns false and goes to stex_ival_eval; test_wgsl_allowed
 * checks the two agree. */
static inline bool normal_bound(double x)
{
    double a = fabs(x);
    return a == 0 || (a >= 0x1p-126 && a <= 0x1p126);
}

static inline bool plain_set(const stex_ival *v)
{
    return !v->flags && normal_bound(v->lo) && normal_bound(v->hi);
}

/* the f32 next to f (nonzero, finite, not the largest) up or down */
static inline float step32(float f, bool up)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u += up == !(u >> 31) ? 1u : UINT32_MAX; /* a negative value's magnitude goes the other way */
    memcpy(&f, &u, 4);
    return f;
}

/* s + t (exact; |t| below half an ulp of s; |s| normal, as finish32
 * checks) rounded to f32: down or up */
static inline double round32(double s, double t, bool up)
{
    float f = (float)s;
    double d = f;
    if (up ? d < s || (d == s && t > 0) : d > s || (d == s && t < 0))
        f = step32(f, up);
    return f;
}

static inline double two_sum(double a, double b, double *t)
{
    double s = a + b, bb = s - a;
    *t = (a - (s - bb)) + (b - bb);
    return s;
}

/* the set of exact bounds [sl + tl, sh + th] rounded outward; false when
 * a bound is past the plain range */
static inline bool finish32(double sl, double tl, double sh, double th, stex_ival *out)
{
    if ((sl != 0 && (fabs(sl) < 0x1p-125 || fabs(sl) > 0x1p126)) ||
        (sh != 0 && (fabs(sh) < 0x1p-125 || fabs(sh) > 0x1p126)) || (sl == 0 && tl != 0) ||
        (sh == 0 && th != 0))
        return false;
    double lo = sl == 0 ? -0.0 : round32(sl, tl, false);
    double hi = sh == 0 ? 0.0 : round32(sh, th, true);
    if (lo <= 0 && hi >= 0) /* a set holding a zero holds both */
        lo = lo == 0 ? -0.0 : lo, hi = hi == 0 ? 0.0 : hi;
    *out = (stex_ival){lo, hi, 0};
    return true;
}

static inline bool fast_add(stex_ival a, stex_ival b, stex_ival *out)
{
    if (!plain_set(&a) || !plain_set(&b))
        return false;
    double tl, th, sl = two_sum(a.lo, b.lo, &tl), sh = two_sum(a.hi, b.hi, &th);
    return finish32(sl, tl, sh, th, out);
}

static inline bool fast_mul(stex_ival a, stex_ival b, stex_ival *out)
{
    if (!plain_set(&a) || !plain_set(&b))
        return false;
    double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi}, lo = p[0], hi = p[0];
    for (int k = 1; k < 4; k++)
        lo = p[k] < lo ? p[k] : lo, hi = p[k] > hi ? p[k] : hi;
    return finish32(lo + 0.0, 0, hi + 0.0, 0, out); /* products of f32 are exact in double */
}

/* fn on plain sets, as stex_ival_eval would give it; false: not served */
static bool fast_ival(stex_math_fn fn, const stex_ival *in, stex_ival *out)
{
    stex_ival p;
    switch (fn) {
    case STEX_MATH_ADD_F32: return fast_add(in[0], in[1], out);
    case STEX_MATH_SUB_F32:
        return fast_add(in[0], (stex_ival){-in[1].hi, -in[1].lo, in[1].flags}, out);
    case STEX_MATH_MUL_F32: return fast_mul(in[0], in[1], out);
    case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32: case STEX_MATH_MUL_ADD_LET_F32:
    case STEX_MATH_FMA_F32:
        return fast_mul(in[0], in[1], &p) && fast_add(p, in[2], out);
    default:
        return false;
    }
}

/* The profile's f32 + - * / and unfused a * b + c where they are the host's
 * IEEE operators (as interp.c's f32_lanes): false otherwise, or for a NaN
 * result (the profile's NaN is the math layer's to give). */
static bool fast_bits(stex_math_fn fn, bool ieee, const uint32_t *in, uint32_t *out)
{
    if (!ieee)
        return false;
    float a, b, c, r;
    memcpy(&a, &in[0], 4), memcpy(&b, &in[1], 4), memcpy(&c, &in[2], 4);
    switch (fn) {
    case STEX_MATH_ADD_F32: r = a + b; break;
    case STEX_MATH_SUB_F32: r = a - b; break;
    case STEX_MATH_MUL_F32: r = a * b; break;
    case STEX_MATH_DIV_F32: r = a / b; break;
    case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32: case STEX_MATH_MUL_ADD_LET_F32: {
        volatile float prod = a * b; /* rounded: an IEEE profile does not contract */
        r = prod + c;
        break;
    }
    default:
        return false;
    }
    if (r != r)
        return false;
    memcpy(out, &r, 4);
    return true;
}

/* Why an operation on exact words gives any value. */
static uint32_t any_reason(ictx *c, const wg_ins *i, const stex_math_fn_info *info)
{
    uint32_t slot, id = reason_cached(c, i, info, &slot);
    if (id)
        return id;
    char what[160];
    snprintf(what, sizeof what, "%s (%s) may give any value here (WGSL bounds no error: an "
             "argument outside its accuracy range, an overflow or a NaN)", info->op, info->sig);
    char buf[512];
    snprintf(buf, sizeof buf, "%s:%u: %s", c->xp->filename, i->line, what);
    return reason_keep(c, i, info, slot, ival_reason(c->a, buf));
}

/* The sets of operations on exact words already asked for, per thread: an
 * image filter unpacks each source word for every neighbour. */
enum { MEMO = 2048 };
static _Thread_local struct {
    uint32_t fn[MEMO];   /* fn + 1; 0: empty */
    uint32_t in[MEMO][3];
    stex_ival out[MEMO][4];
} memo;

static void op_math(ictx *c, ilane *l, const wg_ins *i, bool vector)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    const fn_types *ft = &fn_tab[fn];
    uint32_t nin = info->in_words, nout = vector ? info->out_words : 1;
    uint32_t regs[16], in[16], out[8];
    bool all_exact = true;
    for (uint32_t k = 0; k < nin && k < 16; k++) {
        regs[k] = vector ? i->a + k : k == 0 ? i->a : k == 1 ? i->b : i->c;
        in[k] = l->r[regs[k]];
        all_exact &= exact(l, regs[k]);
    }
    /* the nominal words: the profile's */
    if (vector && fn == STEX_MATH_UNPACK4X8UNORM) {
        const float *t = ((const stex_exec_fast *)(const void *)c->inv.exec)->unpack_u8;
        for (uint32_t k = 0; k < 4; k++)
            memcpy(&out[k], &t[in[0] >> (8 * k) & 255], 4);
    } else if (vector || !fast_bits(fn, c->ieee, in, out)) {
        stex_math_eval(c->prof, fn, in, out);
    }
    bool float_out = false;
    for (uint32_t k = 0; k < nout; k++)
        float_out |= is_float_type(ft->out[k]);
    if (all_exact && !float_out) { /* integers and bools of exact words: exact */
        for (uint32_t k = 0; k < nout; k++)
            set_exact(l, i->d + k, out[k]);
        return;
    }
    stex_ival vin[16], vout[8];
    uint32_t h = 0;
    bool memo_ok = all_exact && nin <= 3 && nout <= 4;
    if (memo_ok) {
        h = ((uint32_t)fn * 0x9e3779b1u ^ in[0] * 0x85ebca6bu ^
             (nin > 1 ? in[1] * 0xc2b2ae35u : 0) ^ (nin > 2 ? in[2] * 0x27d4eb2fu : 0));
        h = (h ^ h >> 15) & (MEMO - 1);
        if (memo.fn[h] == (uint32_t)fn + 1 && memo.in[h][0] == in[0] &&
            (nin < 2 || memo.in[h][1] == in[1]) && (nin < 3 || memo.in[h][2] == in[2])) {
            for (uint32_t k = 0; k < nout; k++) /* exact inputs: no reason but the op's */
                set(l, i->d + k, ft->out[k], out[k], memo.out[h][k],
                    memo.out[h][k].flags & STEX_IVAL_ANY ? any_reason(c, i, info) : 0);
            return;
        }
    }
    for (uint32_t k = 0; k < nin && k < 16; k++)
        vin[k] = get(l, regs[k], ft->in[k]);
    bool any_in = false;
    for (uint32_t k = 0; k < nin && k < 16; k++)
        any_in |= (vin[k].flags & STEX_IVAL_ANY) != 0;
    if (vector || !fast_ival(fn, vin, vout))
        stex_ival_eval(fn, vin, vout);
    uint32_t why = why_of(l, regs, nin);
    if (any_in) /* any bits in: any bits out, for the same reason */
        for (uint32_t k = 0; k < nout; k++)
            vout[k] = stex_ival_any(ft->out[k]);
    if (memo_ok) {
        memo.fn[h] = (uint32_t)fn + 1;
        memcpy(memo.in[h], in, nin * sizeof *in);
        memcpy(memo.out[h], vout, nout * sizeof *vout);
    }
    for (uint32_t k = 0; k < nout; k++) {
        uint32_t w = why;
        if ((vout[k].flags & STEX_IVAL_ANY) && !w)
            w = any_reason(c, i, info);
        set(l, i->d + k, ft->out[k], out[k], vout[k], w);
    }
}

static bool cmp_bits(const stex_profile *prof, int kind, int cmp, uint32_t a, uint32_t b)
{
    if (kind == TY_F32) {
        uint32_t in[2] = {a, b}, lt_ab, lt_ba, eq;
        stex_math_eval(prof, STEX_MATH_LT_F32, in, &lt_ab);
        stex_math_eval(prof, STEX_MATH_EQ_F32, in, &eq);
        in[0] = b, in[1] = a;
        stex_math_eval(prof, STEX_MATH_LT_F32, in, &lt_ba);
        switch (cmp) {
        case CMP_LT: return lt_ab;
        case CMP_LE: return lt_ab || eq;
        case CMP_GT: return lt_ba;
        case CMP_GE: return lt_ba || eq;
        case CMP_EQ: return eq;
        default: return !eq;
        }
    }
    int64_t x = kind == TY_I32 ? (int64_t)(int32_t)a : (int64_t)a;
    int64_t y = kind == TY_I32 ? (int64_t)(int32_t)b : (int64_t)b;
    switch (cmp) {
    case CMP_LT: return x < y;
    case CMP_LE: return x <= y;
    case CMP_GT: return x > y;
    case CMP_GE: return x >= y;
    case CMP_EQ: return x == y;
    default: return x != y;
    }
}

/* bool sets: [lo, hi] within [0, 1] */
static stex_ival bset(double lo, double hi) { return (stex_ival){lo, hi, 0}; }

static void op_cmp(ictx *c, ilane *l, const wg_ins *i)
{
    bool r = cmp_bits(c->prof, i->n, i->sub, l->r[i->a], l->r[i->b]);
    if (exact(l, i->a) && exact(l, i->b)) {
        set_exact(l, i->d, r);
        return;
    }
    char t = i->n == TY_F32 ? 'f' : i->n == TY_I32 ? 'i' : 'u';
    stex_ival x = get(l, i->a, t), y = get(l, i->b, t), lt, gt, eq, res;
    uint32_t regs[2] = {i->a, i->b};
    if (t == 'f') {
        stex_ival in[2] = {x, y};
        stex_ival_eval(STEX_MATH_LT_F32, in, &lt);
        stex_ival_eval(STEX_MATH_EQ_F32, in, &eq);
        in[0] = y, in[1] = x;
        stex_ival_eval(STEX_MATH_LT_F32, in, &gt);
    } else if ((x.flags | y.flags) & STEX_IVAL_ANY) {
        lt = gt = eq = bset(0, 1);
    } else {
        lt = bset(x.hi < y.lo, x.lo < y.hi);
        gt = bset(y.hi < x.lo, y.lo < x.hi);
        eq = bset(x.lo == x.hi && y.lo == y.hi && x.lo == y.lo, x.lo <= y.hi && y.lo <= x.hi);
    }
    if ((lt.flags | gt.flags | eq.flags) & STEX_IVAL_ANY)
        lt = gt = eq = bset(0, 1);
    switch (i->sub) {
    case CMP_LT: res = lt; break;
    case CMP_GT: res = gt; break;
    case CMP_EQ: res = eq; break;
    case CMP_NE: res = bset(1 - eq.hi, 1 - eq.lo); break;
    case CMP_LE: res = bset(lt.lo || eq.lo, lt.hi || eq.hi); break;
    default: res = bset(gt.lo || eq.lo, gt.hi || eq.hi); break;
    }
    res.flags = 0;
    set(l, i->d, 'b', r, res, why_of(l, regs, 2));
}

static void op_bits(ictx *c, ilane *l, const wg_ins *i)
{
    uint32_t a = l->r[i->a], b = i->sub == BITS_NOT || i->sub == BITS_LNOT ? 0 : l->r[i->b];
    uint32_t r;
    switch (i->sub) {
    case BITS_AND: r = a & b; break;
    case BITS_OR: r = a | b; break;
    case BITS_XOR: r = a ^ b; break;
    case BITS_NOT: r = ~a; break;
    default: r = !a; break;
    }
    bool unary = i->sub == BITS_NOT || i->sub == BITS_LNOT;
    if (exact(l, i->a) && (unary || exact(l, i->b))) {
        set_exact(l, i->d, r);
        return;
    }
    uint32_t regs[2] = {i->a, unary ? WG_NONE_REG : i->b};
    int x = truth(l, i->a), y = unary ? 0 : truth(l, i->b);
    bool bools = (l->ty[i->a] == 'b' || exact(l, i->a)) &&
                 (unary || l->ty[i->b] == 'b' || exact(l, i->b)) && i->sub != BITS_NOT &&
                 (exact(l, i->a) ? a <= 1 : true) && (unary || !exact(l, i->b) || b <= 1);
    if (!bools) {
        set_any(l, i->d, reg_type(l, i->a, 'u'), r,
                why_of(l, regs, 2) ? why_of(l, regs, 2)
                                   : reason_at(c, i, "a bitwise operation on an uncertain "
                                               "integer"));
        return;
    }
    /* bools: 0, 1, or -1 for either */
    double lo, hi;
    int xl = x < 0 ? 0 : x, xh = x < 0 ? 1 : x, yl = y < 0 ? 0 : y, yh = y < 0 ? 1 : y;
    switch (i->sub) {
    case BITS_AND: lo = xl & yl, hi = xh & yh; break;
    case BITS_OR: lo = xl | yl, hi = xh | yh; break;
    case BITS_XOR: lo = x < 0 || y < 0 ? 0 : x ^ y, hi = x < 0 || y < 0 ? 1 : x ^ y; break;
    default: lo = !xh, hi = !xl; break;
    }
    set(l, i->d, 'b', r, bset(lo, hi), why_of(l, regs, 2));
}

/* The type two words share when joined: their shadows' or 'f' ... the
 * caller's guess; 0 when nothing tells. */
static char join_type(const ictx *c, const ilane *l, uint32_t x, uint32_t y)
{
    if (l->ty[x] && l->ty[x] != 'x')
        return (char)l->ty[x];
    if (l->ty[y] && l->ty[y] != 'x')
        return (char)l->ty[y];
    return (char)(c->rt[x] ? c->rt[x] : c->rt[y]);
}

/* d = join of registers x and y (as seen in two states). */
static void join_regs(ictx *c, const wg_ins *i, ilane *d, uint32_t reg, const ilane *s1,
                      const ilane *s2, uint32_t why_unknown)
{
    (void)i;
    bool ex1 = !s1->ty[reg], ex2 = !s2->ty[reg];
    if (ex1 && ex2 && s1->r[reg] == s2->r[reg]) {
        set_exact(d, reg, s1->r[reg]);
        return;
    }
    char t = !ex1 && s1->ty[reg] != 'x' ? (char)s1->ty[reg]
           : !ex2 && s2->ty[reg] != 'x' ? (char)s2->ty[reg] : (char)c->rt[reg];
    uint32_t bits = s1->r[reg];
    if (!t) {
        uint32_t w = !ex1 && s1->why[reg] ? s1->why[reg] : !ex2 ? s2->why[reg] : 0;
        set_any(d, reg, 'u', bits, w ? w : why_unknown);
        d->ty[reg] = 'x';
        return;
    }
    stex_ival v = stex_ival_join(t, get(s1, reg, t), get(s2, reg, t));
    uint32_t w = !ex1 && s1->why[reg] ? s1->why[reg] : !ex2 ? s2->why[reg] : 0;
    set(d, reg, t, bits, v, w);
}

static void op_select(ictx *c, ilane *l, const wg_ins *i)
{
    uint32_t n = i->n ? i->n : 1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t cr = i->imm ? i->c + k : i->c;
        int t = truth(l, cr);
        uint32_t d = i->d + k, a = i->a + k, b = i->b + k;
        if (t >= 0) {
            copy_reg(l, d, t ? b : a);
            continue;
        }
        /* both operands: their join (the nominal bits: the profile's choice) */
        uint32_t bits = l->r[cr] ? l->r[b] : l->r[a];
        char ty = join_type(c, l, a, b);
        if (!ty)
            ty = (char)c->rt[d];
        if (exact(l, a) && exact(l, b) && l->r[a] == l->r[b]) {
            set_exact(l, d, bits);
        } else if (!ty) {
            /* two exact words of a type nothing tells */
            set_any(l, d, 'u', bits,
                    l->why[cr] ? l->why[cr]
                               : reason_at(c, i, "a select on an uncertain condition between "
                                           "words of unknown type"));
            l->ty[d] = 'x';
        } else {
            uint32_t regs[3] = {cr, a, b};
            stex_ival v = stex_ival_join(ty, get(l, a, ty), get(l, b, ty));
            set(l, d, ty, bits, v, why_of(l, regs, 3));
        }
    }
}

/* OP_ADDR as interp.c computes it, ANY where the index is not a point. */
static void op_addr(ictx *c, ilane *l, const wg_ins *i)
{
    uint32_t base = off_of(l, i->a), idx = l->r[i->b], at = idx, res;
    if (base == WG_NONE) {
        res = WG_NONE;
    } else if (i->c) {
        stex_oob_action act = stex_math_oob(c->prof, (stex_array_kind)i->sub, i->c, i->n, idx,
                                            &at);
        uint64_t w = (uint64_t)base + (uint64_t)at * i->imm;
        res = act == STEX_OOB_ZERO || w >= WG_NONE ? WG_NONE : (uint32_t)w;
    } else {
        uint64_t w = (uint64_t)base + (uint64_t)idx * i->imm;
        res = w >= WG_NONE ? WG_NONE : (uint32_t)w;
    }
    bool sure = (i->a == WG_NONE_REG || exact(l, i->a)) && exact(l, i->b);
    if (!sure) {
        uint32_t regs[2] = {i->a, i->b};
        uint32_t w = why_of(l, regs, 2);
        set_any(l, i->d, 'u', res, w ? w : reason_at(c, i, "an index that depends on a float"));
        return;
    }
    if (i->c && idx >= i->c) { /* WGSL: any element, or 0 / a dropped write */
        set_any(l, i->d, 'u', res, reason_at(c, i, "an index out of bounds (WGSL: any element "
                                             "of the array, or zero)"));
        return;
    }
    set_exact(l, i->d, res);
}

/* var<workgroup> or buffer words: load (d) or store (b) through the
 * builtins for the bits, the shadows beside them. */
static void op_mem(ictx *c, ilane *l, const wg_ins *i, const stex_lanes *L)
{
    bool wg = i->op == OP_WG_LOAD || i->op == OP_WG_STORE;
    bool load = i->op == OP_WG_LOAD || i->op == OP_BUF_LOAD;
    stex_invocation *inv = L->inv;
    stex_lanes_enter(L, 0);
    uint32_t base = off_of(l, i->a);
    bool addr_ok = i->a == WG_NONE_REG || exact(l, i->a);
    uint32_t aw = i->a != WG_NONE_REG && !exact(l, i->a) ? l->why[i->a] : 0;
    const exec_binding *b = wg ? NULL : binding(c, i->imm);
    ival_shadow *s = NULL;
    if (!wg && b->buffer)
        s = load ? ival_find(c->a, b->buffer, 0) : ival_buffer_shadow(c->a, b->buffer);
    uint64_t first = b ? b->offset / 4 : 0;
    uint64_t limit = wg ? c->wgwords : b ? b->words : 0;
    if (!load && !addr_ok) {
        uint32_t w = aw ? aw : reason_at(c, i, "a store at an index that depends on a float");
        if (wg)
            workgroup_any(c, w);
        else
            resource_any(c, i->imm, w);
    }
    for (uint32_t k = 0; k < i->n; k++) {
        uint32_t o = offs_k(c->p, i, k);
        bool half = i->sub && (o & WG_OFF_HALF);
        uint64_t h = base == WG_NONE ? UINT64_MAX : (uint64_t)base + i->e + (o & ~WG_OFF_HALF);
        uint64_t w = h == UINT64_MAX ? UINT64_MAX : i->sub ? h / 2 : h;
        /* the bits: the builtins (out of bounds as the profile's) */
        uint32_t old = 0, val = load ? 0 : l->r[i->b + k], got = 0;
        if (!load && w < limit) /* a weak store joins what was there */
            old = wg ? stex_workgroup_load_u32(inv, w)
                     : (memcpy(&old, b->bytes + w * 4, 4), old);
        if (half) {
            if (wg && load)
                got = exec_workgroup_load_half(inv, h);
            else if (wg)
                exec_workgroup_store_half(inv, h, val);
            else if (load)
                got = exec_buffer_load_half(inv, i->imm, h);
            else
                exec_buffer_store_half(inv, i->imm, h, val);
        } else if (wg) {
            if (load)
                got = stex_workgroup_load_u32(inv, w);
            else
                stex_workgroup_store_u32(inv, w, val);
        } else if (load) {
            got = stex__buffer_load(inv, i->imm, w);
        } else {
            stex__buffer_store(inv, i->imm, w, val);
        }
        stex_ival *sv = NULL;
        uint8_t *sh = NULL;
        uint32_t *sw = NULL;
        if (wg && w < c->wgwords)
            sv = &c->wgv[w], sh = &c->wghas[w], sw = &c->wgwhy[w];
        else if (!wg && s && w < limit && first + w < s->count)
            sv = &s->v[first + w], sh = &s->has[first + w], sw = &s->why[first + w];
        if (load) {
            uint32_t d = i->d + k;
            if (!addr_ok)
                set_any(l, d, 'u', got, aw), l->ty[d] = 'x';
            else if (w >= limit) /* WGSL: any element of the buffer, or zero */
                set_any(l, d, 'u', got, reason_at(c, i, "a load out of bounds (WGSL: any "
                                                  "element or zero)")), l->ty[d] = 'x';
            else if (sh && *sh && half) /* f16 halves of a word with a set: not followed */
                set_any(l, d, 'h', got, *sw ? *sw : reason_at(c, i, "an f16 in memory whose "
                                                              "word holds a set"));
            else if (sh && *sh)
                set(l, d, (char)*sh, got, *sv, *sw), l->ty[d] = *sh;
            else
                set_exact(l, d, got);
            continue;
        }
        if (!addr_ok)
            continue; /* the whole resource is ANY already */
        uint32_t vr = i->b + k;
        if (w >= limit) {
            /* WGSL: the write may land on any element: every word joins it */
            if (!exact(l, vr) || l->taint) {
                uint32_t why = reason_at(c, i, "a store out of bounds (WGSL: any element)");
                if (wg)
                    workgroup_any(c, why);
                else
                    resource_any(c, i->imm, why);
            }
            continue;
        }
        if (!sv) {
            if (!exact(l, vr) || l->taint || l->weak) { /* no shadow: no memory */
                if (!wg)
                    resource_any(c, i->imm, reason_at(c, i, "out of memory for a shadow"));
            }
            continue;
        }
        if (half) {
            if (!exact(l, vr) || l->taint)
                store_word(l, sv, sh, sw, 'x', old, &(stex_ival){0, 0, STEX_IVAL_ANY},
                           l->why[vr] ? l->why[vr]
                                      : reason_at(c, i, "an uncertain f16 stored in memory"));
            continue;
        }
        if (exact(l, vr) && !l->taint && !l->weak) {
            *sh = 0; /* exactly its bits again */
            continue;
        }
        char t = exact(l, vr) ? (*sh && *sh != 'x' ? (char)*sh : 'u') : (char)l->ty[vr];
        stex_ival v = get(l, vr, t);
        store_word(l, sv, sh, sw, t, old, &v, l->why[vr]);
    }
}

static void op_atomic(ictx *c, ilane *l, const wg_ins *i, const stex_lanes *L)
{
    bool wg = i->n != 0;
    stex_invocation *inv = L->inv;
    stex_lanes_enter(L, 0);
    uint32_t base = off_of(l, i->a);
    uint64_t w = base == WG_NONE ? UINT64_MAX : (uint64_t)base + i->e + offs_k(c->p, i, 0);
    bool ex = false, cx = i->sub == STEX_ATOMIC_COMPARE_EXCHANGE;
    uint32_t cmpv = i->c != WG_NONE_REG ? l->r[i->c] : 0, old;
    if (wg) {
        old = exec_workgroup_atomic(inv, (stex_atomic_op)i->sub, w, l->r[i->b], cmpv, &ex);
    } else {
        uint64_t idx = w;
        stex_lanes_atomic(L, (stex_atomic_op)i->sub, i->imm, &idx, &l->r[i->b], cx ? &cmpv : NULL,
                          &old, cx ? &ex : NULL);
    }
    const exec_binding *b = wg ? NULL : binding(c, i->imm);
    ival_shadow *s = wg ? NULL : ival_find(c->a, b->buffer, 0);
    uint64_t limit = wg ? c->wgwords : b->words;
    uint8_t *sh = NULL;
    uint32_t *sw = NULL;
    stex_ival *sv = NULL;
    if (wg && w < limit)
        sh = &c->wghas[w], sw = &c->wgwhy[w], sv = &c->wgv[w];
    else if (!wg && s && w < limit && b->offset / 4 + w < s->count)
        sh = &s->has[b->offset / 4 + w], sw = &s->why[b->offset / 4 + w],
        sv = &s->v[b->offset / 4 + w];
    uint32_t regs[3] = {i->a, i->b, i->c};
    bool sure = exact(l, i->b) && (i->a == WG_NONE_REG || exact(l, i->a)) &&
                (i->c == WG_NONE_REG || exact(l, i->c)) && !(sh && *sh) && !l->taint && !l->weak;
    if (sure) {
        if (i->sub != STEX_ATOMIC_STORE)
            set_exact(l, i->d, old);
        if (cx)
            set_exact(l, i->d + 1, ex);
        return;
    }
    uint32_t why = l->taint ? l->taint : why_of(l, regs, 3);
    if (!why && sh && *sh)
        why = *sw;
    if (!why)
        why = reason_at(c, i, "an atomic on an uncertain value");
    if (i->sub != STEX_ATOMIC_STORE)
        set_any(l, i->d, 'u', old, why), l->ty[i->d] = 'x';
    if (cx)
        set(l, i->d + 1, 'b', ex, bset(0, 1), why);
    if (i->sub == STEX_ATOMIC_LOAD)
        return;
    if (w >= limit || !(i->a == WG_NONE_REG || exact(l, i->a)) || !sh) {
        if (wg)
            workgroup_any(c, why);
        else
            resource_any(c, i->imm, why);
        return;
    }
    *sv = stex_ival_any('u'), *sh = 'x', *sw = why;
}

/* A texel's coordinates (and array layer): false when one is not a point. */
static bool tex_coords(const ilane *l, const wg_ins *i, int64_t *x, int64_t *y, int64_t *z,
                       uint32_t *why)
{
    bool sc = i->n & 1, sl = i->n & 2;
    uint32_t nc = i->sub == STEX_VIEW_DIMENSION_1D ? 1 : i->sub == STEX_VIEW_DIMENSION_3D ? 3 : 2;
    int64_t v[3] = {0, 0, 0};
    bool ok = true;
    *why = 0;
    for (uint32_t k = 0; k < nc; k++) {
        uint32_t u = l->r[i->a + k];
        v[k] = sc ? (int64_t)(int32_t)u : (int64_t)u;
        if (!exact(l, i->a + k))
            ok = false, *why = *why ? *why : l->why[i->a + k];
    }
    if (i->b != WG_NONE_REG) {
        uint32_t u = l->r[i->b];
        v[2] = sl ? (int64_t)(int32_t)u : (int64_t)u;
        if (!exact(l, i->b))
            ok = false, *why = *why ? *why : l->why[i->b];
    }
    *x = v[0], *y = v[1], *z = v[2];
    return ok;
}

/* The shadow of binding b's level `level` past its view's and the index of
 * texel (x, y, z)'s first value in it: NULL out of bounds or without one. */
static ival_shadow *texel_at(ictx *c, const exec_binding *b, uint32_t level, int64_t x,
                             int64_t y, int64_t z, bool create, uint64_t *k)
{
    ival_shadow *s = create ? ival_texture_shadow(c->a, b->texture, b->mip + level, c->prof)
                            : ival_find(c->a, b->texture, b->mip + level);
    if (!s)
        return NULL;
    int64_t layer = z + (int64_t)exec_layer0(b);
    if (x < 0 || y < 0 || z < 0 || x >= s->w || y >= s->h || layer >= s->layers)
        return NULL;
    *k = (((uint64_t)layer * s->h + (uint64_t)y) * s->w + (uint64_t)x) * 4;
    return s;
}

static bool in_view(const exec_binding *b, uint32_t level, int64_t x, int64_t y, int64_t z)
{
    stex_extent3d vd = stex_view_dimensions(b->view);
    int64_t vw = vd.width >> level ? vd.width >> level : 1;
    int64_t vh = vd.height >> level ? vd.height >> level : 1;
    int64_t vz = b->dim == STEX_VIEW_DIMENSION_3D ? (vd.depth_or_array_layers >> level ? vd.depth_or_array_layers >> level : 1)
                                                   : stex_view_num_layers(b->view);
    return x >= 0 && y >= 0 && z >= 0 && x < vw && y < vh && z < vz;
}

/* The four channels loaded (bits in out) as sets into d..d+3. */
static void tex_result(ictx *c, ilane *l, const wg_ins *i, const exec_binding *b, uint32_t level,
                       bool ok, uint32_t cwhy, int64_t x, int64_t y, int64_t z,
                       const uint32_t out[4])
{
    const stex_format_info *fi = b->format ? stex_format_get(b->format) : NULL;
    char t = fi && fi->scalar == STEX_SCALAR_I32 ? 'i' : fi && fi->scalar == STEX_SCALAR_U32 ? 'u'
                                                                                         : 'f';
    if (!ok) {
        for (uint32_t k = 0; k < 4; k++)
            set_any(l, i->d + k, t, out[k], cwhy ? cwhy : reason_at(c, i, "a texel at a "
                                                                      "coordinate that depends on a float"));
        return;
    }
    if (!in_view(b, level, x, y, z)) {
        /* WGSL: any texel of the level, or a zero vector (alpha 0 or 1) -
         * the hull of them where the level cannot change in this dispatch
         * (bound read-only: WebGPU's usage rules keep writers out) */
        uint32_t w = reason_at(c, i, "textureLoad out of bounds (WGSL: any texel or zero)");
        bool fixed = b->type == STEX_BINDING_TEXTURE ||
                     (b->type == STEX_BINDING_STORAGE_TEXTURE &&
                      b->access == STEX_ACCESS_READ_ONLY);
        ival_shadow *s = fixed ? ival_texture_shadow(c->a, b->texture, b->mip + level, c->prof)
                               : NULL;
        stex_ival hull[4];
        if (s)
            ival_texture_hull(c->a, s, hull);
        for (uint32_t k = 0; k < 4; k++) {
            if (!s || (hull[k].flags & STEX_IVAL_ANY)) {
                set_any(l, i->d + k, t, out[k], w);
                continue;
            }
            stex_ival v = stex_ival_join(t, hull[k], point_of(t, 0));
            if (k == 3)
                v = stex_ival_join(t, v, t == 'f' ? point_of('f', 0x3f800000u) : point_of(t, 1));
            set(l, i->d + k, t, out[k], v, 0);
        }
        return;
    }
    uint64_t k0 = 0;
    ival_shadow *s = texel_at(c, b, level, x, y, z, false, &k0);
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t e = out[k] >> 23 & 255;
        if (s && s->has[k0 + k]) {
            set(l, i->d + k, t, out[k], s->v[k0 + k], s->why[k0 + k]);
        } else if (fi && (k >= fi->channels ||
                          (fi->bits[k] == 32 && (t != 'f' || (e && e != 255) ||
                                                 !(out[k] & 0x7fffffffu))))) {
            /* an absent channel (0, 0, 1) or a 32-bit one that is not a
             * special: exactly its bits (ival_texel_channel's point) */
            set_exact(l, i->d + k, out[k]);
        } else {
            stex_vec4 dv;
            memcpy(dv.u, out, sizeof dv.u);
            set(l, i->d + k, t, out[k], ival_texel_channel(b->format, k, &dv), 0);
        }
    }
}

static void op_tex(ictx *c, ilane *l, const wg_ins *i, const stex_lanes *L)
{
    int64_t x, y, z, lv = 0;
    uint32_t cwhy;
    bool ok = tex_coords(l, i, &x, &y, &z, &cwhy);
    const exec_binding *b = binding(c, i->imm);
    if (i->op == OP_TEX_LOAD_LEVEL && i->c != WG_NONE_REG) {
        uint32_t u = l->r[i->c];
        lv = i->n & 2 ? (int64_t)(int32_t)u : (int64_t)u;
        if (!exact(l, i->c))
            ok = false, cwhy = cwhy ? cwhy : l->why[i->c];
    }
    if (i->op == OP_TEX_STORE) {
        stex_value v = {.type = (stex_scalar_type)i->c};
        char t = i->c == STEX_SCALAR_I32 ? 'i' : i->c == STEX_SCALAR_U32 ? 'u' : 'f';
        for (uint32_t k = 0; k < 4; k++)
            v.v.u[k] = l->r[i->d + k];
        bool inside = ok && in_view(b, 0, x, y, z);
        uint64_t k0 = 0;
        ival_shadow *s = inside ? texel_at(c, b, 0, x, y, z, true, &k0) : NULL;
        /* a weak store joins what the texel held: read before the store */
        stex_ival old[4];
        for (uint32_t k = 0; s && l->weak && k < 4; k++)
            old[k] = ival_texel_get(s, k0 + k);
        stex_lanes_textureStore(L, i->imm, (stex_view_dimension)i->sub, &x, &y, &z, &v);
        uint32_t vwhy = 0;
        for (uint32_t k = 0; k < 4 && !vwhy; k++)
            vwhy = exact(l, i->d + k) ? 0 : l->why[i->d + k];
        if (!ok) {
            resource_any(c, i->imm, cwhy ? cwhy : reason_at(c, i, "a textureStore at a "
                                                            "coordinate that depends on a float"));
            return;
        }
        if (!inside) {
            /* WGSL: not executed, or the value lands on some texel: every
             * texel of the level joins it */
            ival_shadow *all = ival_texture_shadow(c->a, b->texture, b->mip, c->prof);
            uint32_t w = reason_at(c, i, "textureStore out of bounds");
            for (uint64_t k = 0; all && k < all->count; k++) {
                stex_ival st = stored(b->format, (unsigned)(k & 3),
                                      get(l, i->d + (uint32_t)(k & 3), t));
                uint32_t ow = all->has[k] ? all->why[k] : 0;
                ival_texel_put(all, k, stex_ival_join('f', ival_texel_get(all, k), st),
                               ow ? ow : vwhy ? vwhy : w);
            }
            return;
        }
        if (!s) { /* out of memory for the shadow */
            resource_any(c, i->imm, reason_at(c, i, "out of memory for a shadow"));
            return;
        }
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t r = i->d + k;
            stex_ival st = l->taint ? stex_ival_any('f')
                                    : stored(b->format, k, get(l, r, t));
            uint32_t ow = s->has[k0 + k] ? s->why[k0 + k] : 0;
            if (l->weak)
                st = stex_ival_join('f', old[k], st);
            uint32_t w = l->taint ? l->taint : exact(l, r) ? vwhy : l->why[r];
            if ((st.flags & STEX_IVAL_ANY) && !w)
                w = l->weak && ow ? ow : reason_at(c, i, "textureStore of a value any "
                                                   "conversion may change");
            ival_texel_put(s, k0 + k, st, w);
        }
        return;
    }
    stex_vec4 out4;
    if (i->op == OP_TEX_LOAD_LEVEL) {
        stex_lanes_textureLoad_level_2d(L, i->imm, &x, &y, &lv, &out4);
    } else {
        stex_value out;
        stex_lanes_textureLoad(L, i->imm, (stex_view_dimension)i->sub, &x, &y, &z, &out);
        out4 = out.v;
    }
    if (lv < 0 || (uint64_t)lv >= 32)
        ok = ok && false;
    tex_result(c, l, i, b, ok ? (uint32_t)lv : 0, ok, cwhy, x, y, z, out4.u);
}

/* OP_TEX_FETCH: textureLoad of a sampled texture (read-only here; a
 * texture an earlier dispatch stored to keeps its sets). */
static void op_fetch(ictx *c, ilane *l, const wg_ins *i, const stex_lanes *L)
{
    int64_t x, y, z, ls = 0;
    uint32_t cwhy;
    bool ok = tex_coords(l, i, &x, &y, &z, &cwhy);
    if (i->c != WG_NONE_REG) {
        uint32_t u = l->r[i->c];
        ls = i->n & 2 ? (int64_t)(int32_t)u : (int64_t)u;
        ok = ok && exact(l, i->c);
    }
    stex_value out;
    stex_lanes_textureLoad_sampled(L, i->imm, (stex_view_dimension)i->sub, &x, &y, &z, &ls, &out);
    const exec_binding *b = binding(c, i->imm);
    bool level = !stex_view_num_samples(b->view) || stex_view_num_samples(b->view) == 1;
    if (!level || !b->format) { /* multisampled or depth: the bits, not followed */
        for (uint32_t k = 0; k < 4; k++)
            set_exact(l, i->d + k, out.v.u[k]);
        return;
    }
    tex_result(c, l, i, b, ok && ls >= 0 && ls < 32 ? (uint32_t)ls : 0, ok && ls >= 0 && ls < 32,
               cwhy, x, y, z, out.v.u);
}

/* Sampling (below): the hull of the texels the filter may read. */
static void op_sample(ictx *c, ilane *l, const wg_ins *i, const stex_lanes *L);

/* ---- control flow ---- */
typedef struct snap {
    uint32_t *r;
    stex_ival *v;
    uint8_t *ty;
    uint32_t *why;
    uint64_t *slot;
} snap;

static bool snap_alloc(const ictx *c, snap *s)
{
    s->r = malloc(c->nregs * sizeof *s->r);
    s->v = malloc(c->nregs * sizeof *s->v);
    s->ty = malloc(c->nregs);
    s->why = malloc(c->nregs * sizeof *s->why);
    s->slot = malloc((c->nslots + 1) * sizeof *s->slot);
    return s->r && s->v && s->ty && s->why && s->slot;
}

static void snap_free(snap *s)
{
    free(s->r), free(s->v), free(s->ty), free(s->why), free(s->slot);
}

static void snap_take(const ictx *c, const ilane *l, snap *s)
{
    memcpy(s->r, l->r, c->nregs * sizeof *s->r);
    memcpy(s->v, l->v, c->nregs * sizeof *s->v);
    memcpy(s->ty, l->ty, c->nregs);
    memcpy(s->why, l->why, c->nregs * sizeof *s->why);
    memcpy(s->slot, l->slot, (c->nslots + 1) * sizeof *s->slot);
}

/* l's registers and slots from s (exec and pc are the caller's) */
static void snap_put(const ictx *c, ilane *l, const snap *s)
{
    memcpy(l->r, s->r, c->nregs * sizeof *s->r);
    memcpy(l->v, s->v, c->nregs * sizeof *s->v);
    memcpy(l->ty, s->ty, c->nregs);
    memcpy(l->why, s->why, c->nregs * sizeof *s->why);
    memcpy(l->slot, s->slot, (c->nslots + 1) * sizeof *s->slot);
}

static istop run_lane(ictx *c, ilane *l, uint32_t stop_at, uint8_t *kind);

/* The state s as a lane (its arrays), for reading */
static ilane as_lane(const snap *s)
{
    return (ilane){.r = s->r, .v = s->v, .ty = s->ty, .why = s->why, .slot = s->slot};
}

/* A ghost: the path not taken from l's state `from` (exec, pc given), run
 * to the end with weak stores.  False: it cannot be followed. */
static bool run_ghost(ictx *c, ilane *l, const snap *from, uint64_t exec, uint32_t pc,
                      uint32_t why)
{
    if (++l->forks > MAX_GHOSTS)
        return false;
    snap mine;
    if (!snap_alloc(c, &mine)) {
        snap_free(&mine);
        return false;
    }
    snap_take(c, l, &mine);
    uint64_t my_exec = l->exec, my_steps = l->steps;
    uint32_t my_pc = l->pc, my_depth = l->depth;
    snap_put(c, l, from);
    l->exec = exec, l->pc = pc, l->weak = true;
    uint8_t kind;
    istop s = run_lane(c, l, UINT32_MAX, &kind);
    /* a ghost that returned has nothing left to do at a barrier */
    bool ok = s == I_END || (s == I_BARRIER && !l->exec && (l->slot[c->p->ret_slot] & 1));
    if (s == I_BARRIER && !ok) /* it would wait there: the others' phases are past */
        lose(c, l, why);
    snap_put(c, l, &mine);
    l->exec = my_exec, l->pc = my_pc, l->steps = my_steps, l->depth = my_depth;
    l->weak = true;
    snap_free(&mine);
    return ok || s == I_BARRIER; /* lost: what it could write is unconstrained already */
}

/* OP_IF on a condition that is not a point (i at pc - 1): both sides from
 * one state, run through the ENDIF, joined there when they end alike;
 * l->pc is then past the ENDIF. */
static void fork_if(ictx *c, ilane *l, const wg_ins *i, int nominal)
{
    uint32_t why = l->why[i->a] ? l->why[i->a]
                                : reason_at(c, i, "a branch on a condition that depends on a "
                                            "float");
    uint32_t endif = l->pc;
    while (endif < c->p->ncode &&
           !(c->p->code[endif].op == OP_ENDIF && c->p->code[endif].imm == i->imm))
        endif++;
    endif++; /* the sides stop past it: the ENDIF joins each side's lanes */
    snap s0, s1;
    bool mem = snap_alloc(c, &s0) & snap_alloc(c, &s1);
    if (!mem || endif >= c->p->ncode || l->depth >= MAX_FORK_DEPTH) {
        snap_free(&s0), snap_free(&s1);
        lose(c, l, why);
        /* the profile's side */
        l->slot[i->imm] = nominal ? 0 : l->exec;
        l->exec = nominal ? l->exec : 0;
        if (!l->exec)
            l->pc = i->b;
        return;
    }
    snap_take(c, l, &s0);
    uint64_t exec0 = l->exec;
    uint32_t pc0 = l->pc;
    bool weak0 = l->weak;
    l->depth++;
    l->weak = true;
    istop st[2];
    uint64_t exec_end[2];
    uint8_t kind;
    for (int side = 0; side < 2; side++) { /* 0: then, 1: else */
        if (side) {
            snap_take(c, l, &s1); /* the then-side's end */
            snap_put(c, l, &s0);
        }
        l->slot[i->imm] = side ? exec0 : 0;
        l->exec = side ? 0 : exec0;
        l->pc = l->exec ? pc0 : i->b;
        st[side] = run_lane(c, l, endif, &kind);
        exec_end[side] = l->exec;
        l->slot[i->imm] = 0; /* dead past the ENDIF */
    }
    l->depth--;
    /* l: the else-side's end; s1: the then-side's */
    ilane t = as_lane(&s1);
    bool alike = st[0] == I_AT && st[1] == I_AT && exec_end[0] == exec_end[1] &&
                 !memcmp(s1.slot, l->slot, (c->nslots + 1) * sizeof *l->slot);
    if (alike) {
        snap e;
        if (snap_alloc(c, &e)) {
            snap_take(c, l, &e);
            ilane el = as_lane(&e);
            /* the bits: the profile's side's (join_regs keeps its first) */
            for (uint32_t r = 0; r < c->nregs; r++)
                if (t.r[r] != el.r[r] || t.ty[r] || el.ty[r])
                    join_regs(c, i, l, r, nominal ? &t : &el, nominal ? &el : &t, why);
        } else {
            lose(c, l, why);
        }
        snap_free(&e);
        l->weak = weak0;
        l->pc = endif;
        snap_free(&s0), snap_free(&s1);
        return;
    }
    /* the sides end differently: the profile's side goes on, the other
     * runs to the end as a ghost; both store weakly from here */
    bool ok = true;
    if (st[0] == I_AT && st[1] == I_AT) {
        snap e;
        if (snap_alloc(c, &e)) {
            snap_take(c, l, &e);
            uint64_t other_exec = nominal ? exec_end[1] : exec_end[0];
            if (nominal) { /* go on with the then-side's state */
                snap_put(c, l, &s1);
                l->exec = exec_end[0];
            }
            l->pc = endif;
            ok = run_ghost(c, l, nominal ? &e : &s1, other_exec, endif, why);
        } else {
            ok = false;
        }
        snap_free(&e);
    } else {
        ok = false; /* a barrier, the end or an error inside a side */
    }
    if (!ok) {
        lose(c, l, why);
        if (st[0] != I_AT || st[1] != I_AT) { /* start again on the profile's side, lost */
            snap_put(c, l, &s0);
            l->slot[i->imm] = nominal ? 0 : exec0;
            l->exec = nominal ? exec0 : 0;
            l->pc = l->exec ? pc0 : i->b;
        }
    }
    snap_free(&s0), snap_free(&s1);
    l->weak = true;
}

/* ---- the loop ---- */
static istop run_lane(ictx *c, ilane *l, uint32_t stop_at, uint8_t *kind)
{
    const wg_program *p = c->p;
    uint32_t lidv = l->lid;
    stex_lanes L = {&c->inv, &lidv, &c->one, 1, 0};
    for (;;) {
        if (l->pc == stop_at)
            return I_AT;
        const wg_ins *i = &p->code[l->pc++];
        L.site = l->pc;
        l->steps++;
        switch ((wg_opcode)i->op) {
        case OP_CONST:
            set_exact(l, i->d, i->imm);
            break;
        case OP_MOV:
            if (i->d < i->a)
                for (uint32_t k = 0; k < i->n; k++)
                    copy_reg(l, i->d + k, i->a + k);
            else if (i->d > i->a)
                for (uint32_t k = i->n; k-- > 0;)
                    copy_reg(l, i->d + k, i->a + k);
            break;
        case OP_MOVM:
            if (l->exec) {
                if (i->d < i->a)
                    for (uint32_t k = 0; k < i->n; k++)
                        copy_reg(l, i->d + k, i->a + k);
                else if (i->d > i->a)
                    for (uint32_t k = i->n; k-- > 0;)
                        copy_reg(l, i->d + k, i->a + k);
            }
            break;
        case OP_MATH:
            op_math(c, l, i, false);
            break;
        case OP_MATHV:
            op_math(c, l, i, true);
            break;
        case OP_CMP:
            op_cmp(c, l, i);
            break;
        case OP_BITS:
            op_bits(c, l, i);
            break;
        case OP_SELECT:
            op_select(c, l, i);
            break;
        case OP_LOADIDX: {
            uint32_t o = l->r[i->b];
            if (!exact(l, i->b)) {
                uint32_t w = l->why[i->b] ? l->why[i->b]
                                          : reason_at(c, i, "an index that depends on a float");
                for (uint32_t k = 0; k < i->n; k++)
                    set_any(l, i->d + k, 'u', 0, w), l->ty[i->d + k] = 'x';
                break;
            }
            for (uint32_t k = 0; k < i->n; k++) {
                if (o == WG_NONE)
                    set_exact(l, i->d + k, 0);
                else if (i->d + k != i->a + o + k)
                    copy_reg(l, i->d + k, i->a + o + k);
            }
            break;
        }
        case OP_STOREIDX: {
            uint32_t o = l->r[i->b];
            if (!l->exec)
                break;
            if (!exact(l, i->b)) { /* any element of the array: every register from it */
                uint32_t w = l->why[i->b] ? l->why[i->b]
                                          : reason_at(c, i, "an index that depends on a float");
                uint32_t end = c->xp->nconsts ? c->xp->const_reg : c->nregs;
                for (uint32_t r = i->d; r < end; r++)
                    set_any(l, r, 'u', l->r[r], w), l->ty[r] = 'x';
                break;
            }
            if (o == WG_NONE)
                break;
            for (uint32_t k = 0; k < i->n; k++)
                copy_reg(l, i->d + o + k, i->a + k);
            break;
        }
        case OP_ADDR:
            op_addr(c, l, i);
            break;
        case OP_BUF_LOAD:
        case OP_BUF_STORE:
        case OP_WG_LOAD:
        case OP_WG_STORE:
            if (l->exec || (i->op == OP_BUF_LOAD && i->c == 1 && i->a == WG_NONE_REG))
                op_mem(c, l, i, &L);
            break;
        case OP_ATOMIC:
            if (l->exec)
                op_atomic(c, l, i, &L);
            break;
        case OP_TEX_LOAD:
        case OP_TEX_LOAD_LEVEL:
        case OP_TEX_STORE:
            if (l->exec)
                op_tex(c, l, i, &L);
            break;
        case OP_TEX_FETCH:
            if (l->exec)
                op_fetch(c, l, i, &L);
            break;
        case OP_TEX_SAMPLE:
        case OP_TEX_SAMPLE_ANY:
            if (l->exec)
                op_sample(c, l, i, &L);
            break;
        case OP_TEX_DIMS: {
            stex_lanes_enter(&L, 0);
            uint32_t dims[3] = {0, 0, 0};
            if (i->sub) {
                dims[0] = stex_textureNumLayers(&c->inv, i->imm);
            } else if (i->c == STEX_VIEW_DIMENSION_1D) {
                dims[0] = stex_textureDimensions_1d(&c->inv, i->imm);
            } else if (i->c == STEX_VIEW_DIMENSION_3D) {
                stex_uvec3 v = stex_textureDimensions_3d(&c->inv, i->imm);
                dims[0] = v.x, dims[1] = v.y, dims[2] = v.z;
            } else {
                stex_uvec2 v = stex_textureDimensions_2d(&c->inv, i->imm);
                dims[0] = v.x, dims[1] = v.y;
            }
            for (uint32_t k = 0; k < i->n; k++)
                set_exact(l, i->d + k, dims[k]);
            break;
        }
        case OP_TEX_QUERY: {
            if (!l->exec)
                break;
            stex_lanes_enter(&L, 0);
            int64_t lv = 0;
            if (i->a != WG_NONE_REG)
                lv = i->b ? (int64_t)(int32_t)l->r[i->a] : (int64_t)l->r[i->a];
            uint32_t q[3] = {0, 0, 0};
            if (i->sub == WG_QUERY_DIMS) {
                stex_uvec3 v = stex_textureDimensions_level(&c->inv, i->imm, lv);
                q[0] = v.x, q[1] = v.y, q[2] = v.z;
            } else if (i->sub == WG_QUERY_LAYERS) {
                q[0] = stex_textureNumLayers(&c->inv, i->imm);
            } else if (i->sub == WG_QUERY_LEVELS) {
                q[0] = stex_textureNumLevels(&c->inv, i->imm);
            } else {
                q[0] = stex_textureNumSamples(&c->inv, i->imm);
            }
            for (uint32_t k = 0; k < i->n; k++)
                if (i->a == WG_NONE_REG || exact(l, i->a))
                    set_exact(l, i->d + k, q[k]);
                else
                    set_any(l, i->d + k, 'u', q[k], l->why[i->a]);
            break;
        }
        case OP_ARRAY_LEN: {
            stex_lanes_enter(&L, 0);
            uint32_t bytes = stex_arrayLength(&c->inv, i->imm, 1);
            set_exact(l, i->d, bytes > i->a ? (bytes - i->a) / i->b : 0);
            break;
        }
        case OP_SUBGROUP: {
            /* one invocation at a time has no sub-group to follow */
            uint32_t w = reason_at(c, i, "a subgroup operation (not followed in allowed mode)");
            uint32_t out = i->sub == WG_SG_BALLOT ? 4 : i->sub <= WG_SG_ANY ? 1 : i->n;
            for (uint32_t k = 0; k < out; k++)
                set_any(l, i->d + k, 'u', 0, w), l->ty[i->d + k] = 'x';
            break;
        }
        case OP_BARRIER:
            *kind = i->sub;
            return I_BARRIER;
        case OP_IF: {
            int t = truth(l, i->a);
            if (t < 0 && l->exec) { /* both sides; l->pc past the ENDIF */
                fork_if(c, l, i, l->r[i->a] != 0);
                break;
            }
            uint64_t cnd = t > 0 || (t < 0 && l->r[i->a]);
            l->slot[i->imm] = l->exec & ~cnd;
            l->exec &= cnd;
            if (!l->exec)
                l->pc = i->b;
            break;
        }
        case OP_ELSE: {
            uint64_t t = l->slot[i->imm];
            l->slot[i->imm] = l->exec;
            l->exec = t;
            if (!l->exec)
                l->pc = i->b;
            break;
        }
        case OP_ENDIF:
        case OP_MERGE:
            l->exec |= l->slot[i->imm];
            break;
        case OP_MASK_CLEAR:
            l->slot[i->imm] = 0;
            break;
        case OP_EXIT:
            l->slot[i->imm] |= l->exec;
            l->exec = 0;
            break;
        case OP_BREAK_IF:
        case OP_BREAK_JUMP: {
            int t = truth(l, i->a);
            uint64_t cnd = t > 0 || (t < 0 && l->r[i->a]);
            if (t < 0 && l->exec) {
                /* the loop may end here or go on: the other way as a ghost */
                uint32_t why = l->why[i->a] ? l->why[i->a]
                                            : reason_at(c, i, "a loop exit that depends on a "
                                                        "float");
                snap s;
                bool ok = snap_alloc(c, &s);
                if (ok) {
                    snap_take(c, l, &s);
                    uint64_t other = !cnd;
                    /* the other outcome's state: slot and exec */
                    s.slot[i->imm] |= l->exec & other;
                    uint64_t gexec = l->exec & ~other;
                    uint32_t gpc = !gexec && i->op == OP_BREAK_JUMP ? i->b : l->pc;
                    ok = run_ghost(c, l, &s, gexec, gpc, why);
                }
                snap_free(&s);
                if (!ok)
                    lose(c, l, why);
                l->weak = true;
            }
            l->slot[i->imm] |= l->exec & cnd;
            l->exec &= ~cnd;
            if (!l->exec && i->op == OP_BREAK_JUMP)
                l->pc = i->b;
            break;
        }
        case OP_LOOP_END:
            if (l->exec) {
                if (l->steps > c->xp->max_steps) {
                    stex_lanes_enter(&L, 0);
                    exec_shader_error(&c->inv, "%s:%u: the loop ran past --max-steps (%llu "
                                      "instructions of one invocation in one workgroup) "
                                      "[max-steps]", c->xp->filename, i->line,
                                      (unsigned long long)c->xp->max_steps);
                    return I_ERROR;
                }
                if ((l->steps & 0xffff) == 0 && stex_cancel_check(c->inv.exec->ctx->cancel)) {
                    exec_shader_error(&c->inv, "%s:%u: stopped (the dispatch was cancelled)",
                                      c->xp->filename, i->line);
                    return I_ERROR;
                }
                l->pc = i->b;
            } else {
                l->exec = l->slot[i->imm];
            }
            break;
        case OP_END:
            return I_END;
        }
    }
}

/* A texel index past the edge as the address mode takes it back. */
static int64_t address(int64_t x, int64_t n, stex_address_mode m)
{
    if (m == STEX_ADDRESS_REPEAT)
        return (x % n + n) % n;
    if (m == STEX_ADDRESS_MIRROR_REPEAT) {
        int64_t k = (x % (2 * n) + 2 * n) % (2 * n);
        return k < n ? k : 2 * n - 1 - k;
    }
    return x < 0 ? 0 : x >= n ? n - 1 : x;
}

/* A filter's position along one axis: the texel coordinate x = u * n - 0.5
 * (linear) of every u in the set, widened by SUBTEXEL: WebGPU leaves the
 * filter's sub-texel precision to the platform; Vulkan's least
 * (subTexelPrecisionBits = 4) snaps the weights to 1/16, D3D12's to 1/256. */
#define SUBTEXEL (1.0 / 16)
static bool position(stex_ival u, uint32_t n, bool linear, double *lo, double *hi)
{
    if (u.flags & (STEX_IVAL_ANY | STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER) || !isfinite(u.lo) ||
        !isfinite(u.hi))
        return false;
    *lo = u.lo * n - (linear ? 0.5 : 0) - SUBTEXEL;
    *hi = u.hi * n - (linear ? 0.5 : 0) + SUBTEXEL;
    return *hi - *lo <= 64 && fabs(*lo) <= 1e9 && fabs(*hi) <= 1e9;
}

/* The sets of one texel's channels, addressed as the sampler says. */
static bool texel_sets(ictx *c, const exec_binding *b, const ival_shadow *s,
                       const stex_sampler_desc *sd, stex_extent3d e, int64_t xx, int64_t yy,
                       stex_ival t[4])
{
    int64_t x = address(xx, e.width, sd->address_mode_u);
    int64_t y = address(yy, e.height, sd->address_mode_v);
    if (s) {
        uint64_t k = (((uint64_t)exec_layer0(b) * s->h + (uint64_t)y) * s->w + (uint64_t)x) * 4;
        for (unsigned q = 0; q < 4; q++)
            t[q] = ival_texel_get(s, k + q);
    } else {
        stex_vec4 dv;
        stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), b->format,
                          stex_texture_memory(b->texture) +
                              stex_texture_texel_offset(b->texture, b->mip, (uint32_t)x,
                                                        (uint32_t)y, (uint32_t)exec_layer0(b)),
                          &dv);
        for (unsigned k = 0; k < 4; k++)
            t[k] = ival_texel_channel(b->format, k, &dv);
    }
    (void)c;
    for (unsigned k = 0; k < 4; k++)
        if (t[k].flags & (STEX_IVAL_ANY | STEX_IVAL_NAN | STEX_IVAL_NO_NUMBER) ||
            !isfinite(t[k].lo) || !isfinite(t[k].hi))
            return false; /* a NaN or an infinity spreads through the weights */
    return true;
}

static double lerp(double a, double b, double f) { return a + (b - a) * f; }

/* textureSampleLevel on a texture_2d<f32> of one level: bilinear (or
 * nearest) filtering is monotonic in each texel and, for fixed texels,
 * bilinear in the two weights, so over every texel pair the position
 * allows (position()) and every weight in it, each channel lies between
 * the filter of the texels' least values and of their greatest at the
 * corners of the weights' box - widened by the rounding of the weighted
 * sum.  Any other sampling: false (ANY). */
static bool sample_hull(ictx *c, ilane *l, const wg_ins *i, stex_ival out[4])
{
    const exec_binding *b = binding(c, i->imm), *sb = binding(c, i->e);
    if (!b->view || !sb->sampler || !b->format || stex_view_num_levels(b->view) != 1 ||
        !exact(l, i->c))
        return false;
    const stex_sampler_desc *sd = stex_sampler_get_desc(sb->sampler);
    if (sd->compare)
        return false;
    bool linear = sd->mag_filter == STEX_FILTER_LINEAR || sd->min_filter == STEX_FILTER_LINEAR;
    stex_extent3d e = stex_view_dimensions(b->view);
    double xl, xh, yl, yh;
    if (!position(get(l, i->a, 'f'), e.width, linear, &xl, &xh) ||
        !position(get(l, i->b, 'f'), e.height, linear, &yl, &yh))
        return false;
    const ival_shadow *s = ival_find(c->a, b->texture, b->mip);
    double lo[4], hi[4];
    for (unsigned k = 0; k < 4; k++)
        lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int64_t ky = (int64_t)floor(yl); ky <= (int64_t)floor(yh); ky++)
        for (int64_t kx = (int64_t)floor(xl); kx <= (int64_t)floor(xh); kx++) {
            /* texels kx, kx + 1 (x) and ky, ky + 1 (y); nearest: kx, ky */
            stex_ival t[2][2][4];
            for (int dy = 0; dy < (linear ? 2 : 1); dy++)
                for (int dx = 0; dx < (linear ? 2 : 1); dx++)
                    if (!texel_sets(c, b, s, sd, e, kx + dx, ky + dy, t[dy][dx]))
                        return false;
            if (!linear) {
                for (unsigned k = 0; k < 4; k++)
                    lo[k] = fmin(lo[k], t[0][0][k].lo), hi[k] = fmax(hi[k], t[0][0][k].hi);
                continue;
            }
            double fx[2] = {fmax(0, xl - kx), fmin(1, xh - kx)};
            double fy[2] = {fmax(0, yl - ky), fmin(1, yh - ky)};
            for (int cy = 0; cy < 2; cy++)
                for (int cx = 0; cx < 2; cx++)
                    for (unsigned k = 0; k < 4; k++) {
                        double vl = lerp(lerp(t[0][0][k].lo, t[0][1][k].lo, fx[cx]),
                                         lerp(t[1][0][k].lo, t[1][1][k].lo, fx[cx]), fy[cy]);
                        double vh = lerp(lerp(t[0][0][k].hi, t[0][1][k].hi, fx[cx]),
                                         lerp(t[1][0][k].hi, t[1][1][k].hi, fx[cx]), fy[cy]);
                        lo[k] = fmin(lo[k], vl), hi[k] = fmax(hi[k], vh);
                    }
        }
    for (unsigned k = 0; k < 4; k++) {
        /* the weighted sum's rounding: devices filter in reduced precision */
        double m = fmax(fabs(lo[k]), fabs(hi[k])) * 0x1p-12;
        out[k] = (stex_ival){lo[k] - m, hi[k] + m, 0};
        if (lo[k] > hi[k])
            return false;
    }
    return true;
}

static void op_sample(ictx *c, ilane *l, const wg_ins *i, const stex_lanes *L)
{
    stex_vec4 out;
    stex_ival hull[4];
    bool ok = false;
    if (i->op == OP_TEX_SAMPLE) {
        float u, v, lv;
        memcpy(&u, &l->r[i->a], 4), memcpy(&v, &l->r[i->b], 4), memcpy(&lv, &l->r[i->c], 4);
        stex_lanes_textureSampleLevel_2d(L, i->imm, i->e, &u, &v, &lv, &out);
        ok = sample_hull(c, l, i, hull);
    } else {
        memset(&out, 0, sizeof out); /* not followed: ANY below */
    }
    uint32_t w = ok ? 0 : reason_at(c, i, "a sampled value (this sampling is not followed)");
    for (uint32_t k = 0; k < 4; k++) {
        if (ok && !stex_ival_contains_bits('f', &hull[k], out.u[k]))
            hull[k] = stex_ival_join('f', hull[k], stex_ival_of_bits('f', out.u[k]));
        if (ok)
            set(l, i->d + k, 'f', out.u[k], hull[k], 0);
        else
            set_any(l, i->d + k, 'f', out.u[k], w);
    }
}

/* ---- the lanes in step ----
 * While no running lane's path is uncertain, a workgroup of up to 64
 * invocations runs one instruction for every lane before the next, as
 * interp.c's sub-group does: exec masks for control flow, integer
 * operations of exact words inline, and every other instruction the
 * per-lane function above for each running lane (the same sets).  At the
 * first instruction that needs one lane's own path - a running lane's
 * uncertain condition, a barrier, an instruction not served here - each
 * lane takes the masks as its own (its exec and slot bits) and goes on
 * alone from that instruction (run_lane).  Between barriers a race-free
 * program's result does not depend on the order. */
typedef struct group {
    ilane *ls;
    uint32_t n;
    uint64_t exec;  /* running lanes */
    uint64_t *slot; /* the masks of interp.c's slots */
    uint64_t steps;
} group;

/* every lane of m has reg exact */
static inline bool lanes_exact(const group *g, uint64_t m, uint32_t reg)
{
    for (; m; m &= m - 1)
        if (g->ls[__builtin_ctzll(m)].ty[reg])
            return false;
    return true;
}

/* an integer operation of exact words, as the math layer computes it
 * (src/math/int.c); false: not one of these */
static inline bool int_op(stex_math_fn fn, uint32_t a, uint32_t b, uint32_t c, uint32_t *out)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b, sc = (int32_t)c;
    switch (fn) {
    case STEX_MATH_ADD_I32: case STEX_MATH_ADD_U32: *out = a + b; return true;
    case STEX_MATH_SUB_I32: case STEX_MATH_SUB_U32: *out = a - b; return true;
    case STEX_MATH_MUL_I32: case STEX_MATH_MUL_U32: *out = a * b; return true;
    case STEX_MATH_MIN_I32: *out = (uint32_t)(sa < sb ? sa : sb); return true;
    case STEX_MATH_MIN_U32: *out = a < b ? a : b; return true;
    case STEX_MATH_CLAMP_I32: {
        int32_t m = sa > sb ? sa : sb;
        *out = (uint32_t)(m < sc ? m : sc);
        return true;
    }
    case STEX_MATH_CLAMP_U32: {
        uint32_t m = a > b ? a : b;
        *out = m < c ? m : c;
        return true;
    }
    case STEX_MATH_SHL_I32: case STEX_MATH_SHL_U32: *out = a << (b & 31); return true;
    case STEX_MATH_SHR_U32: *out = a >> (b & 31); return true;
    case STEX_MATH_I32_TO_U32: case STEX_MATH_U32_TO_I32: *out = a; return true;
    default: return false;
    }
}

/* OP_MATH of integers on exact words in every running lane: false when
 * it is not one */
static bool group_int_math(group *g, const wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    uint32_t nin = stex_math_fn_get(fn)->in_words, out;
    if (!int_op(fn, 0, 1, 1, &out) || !lanes_exact(g, g->exec, i->a) ||
        (nin > 1 && !lanes_exact(g, g->exec, i->b)) || (nin > 2 && !lanes_exact(g, g->exec, i->c)))
        return false;
    for (uint64_t m = g->exec; m; m &= m - 1) {
        ilane *l = &g->ls[__builtin_ctzll(m)];
        int_op(fn, l->r[i->a], nin > 1 ? l->r[i->b] : 0, nin > 2 ? l->r[i->c] : 0, &out);
        l->r[i->d] = out, l->ty[i->d] = 0;
    }
    return true;
}

/* OP_CMP of exact integers in every running lane */
static bool group_int_cmp(group *g, const wg_ins *i)
{
    if (i->n == TY_F32 || !lanes_exact(g, g->exec, i->a) || !lanes_exact(g, g->exec, i->b))
        return false;
    for (uint64_t m = g->exec; m; m &= m - 1) {
        ilane *l = &g->ls[__builtin_ctzll(m)];
        l->r[i->d] = cmp_bits(NULL, i->n, i->sub, l->r[i->a], l->r[i->b]), l->ty[i->d] = 0;
    }
    return true;
}

/* OP_MATH f32 + - * and a * b + c (fast_ival's) for every running lane:
 * the sets of plain arguments inline, any other lane op_math's way.  False:
 * not one of these. */
static bool group_f32(ictx *c, group *g, const wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    uint32_t nin;
    switch (fn) {
    case STEX_MATH_ADD_F32: case STEX_MATH_SUB_F32: case STEX_MATH_MUL_F32: nin = 2; break;
    case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32: case STEX_MATH_MUL_ADD_LET_F32:
    case STEX_MATH_FMA_F32:
        nin = 3;
        break;
    default:
        return false;
    }
    if (!c->ieee)
        return false;
    const uint32_t regs[3] = {i->a, i->b, i->c};
    for (uint64_t m = g->exec; m; m &= m - 1) {
        ilane *l = &g->ls[__builtin_ctzll(m)];
        uint32_t in[3] = {0, 0, 0}, out;
        stex_ival v[3], res;
        bool plain = true;
        for (uint32_t k = 0; k < nin; k++) {
            uint32_t r = regs[k];
            in[k] = l->r[r];
            if (!l->ty[r])
                v[k] = point_of('f', in[k]);
            else if (l->ty[r] == 'f')
                v[k] = l->v[r];
            else
                plain = false;
        }
        if (plain && fn != STEX_MATH_FMA_F32 && fast_bits(fn, true, in, &out) &&
            fast_ival(fn, v, &res))
            set(l, i->d, 'f', out, res, 0);
        else
            op_math(c, l, i, false);
    }
    return true;
}

/* unpack4x8unorm's set of each component by its byte (a component's set
 * depends on its byte alone), once per thread */
static _Thread_local struct {
    bool ready;
    stex_ival v[256][4];
} unpack_sets;

/* OP_MATHV unpack4x8unorm of exact words in every running lane: false
 * when it is not one */
static bool group_unpack(ictx *c, group *g, const wg_ins *i)
{
    if (i->imm != STEX_MATH_UNPACK4X8UNORM || !lanes_exact(g, g->exec, i->a))
        return false;
    if (!unpack_sets.ready) {
        for (uint32_t b = 0; b < 256; b++) {
            stex_ival in = point_of('u', b * 0x01010101u);
            stex_ival_eval(STEX_MATH_UNPACK4X8UNORM, &in, unpack_sets.v[b]);
        }
        unpack_sets.ready = true;
    }
    const float *t = ((const stex_exec_fast *)(const void *)c->inv.exec)->unpack_u8;
    for (uint64_t m = g->exec; m; m &= m - 1) {
        ilane *l = &g->ls[__builtin_ctzll(m)];
        uint32_t w = l->r[i->a];
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t byte = w >> (8 * k) & 255, bits;
            memcpy(&bits, &t[byte], 4);
            set(l, i->d + k, 'f', bits, unpack_sets.v[byte][k], 0);
        }
    }
    return true;
}

/* the running lanes' condition: false when a running lane's is uncertain */
static bool group_cond(const group *g, uint32_t reg, uint64_t *cnd)
{
    *cnd = 0;
    for (uint64_t m = g->exec; m; m &= m - 1) {
        int k = __builtin_ctzll(m), t = truth(&g->ls[k], reg);
        if (t < 0)
            return false;
        *cnd |= (uint64_t)t << k;
    }
    return true;
}

/* Each lane from instruction pc on its own: the masks its bits. */
static void group_spill(const ictx *c, group *g, uint32_t pc)
{
    for (uint32_t k = 0; k < g->n; k++) {
        ilane *l = &g->ls[k];
        l->pc = pc, l->steps = g->steps, l->exec = g->exec >> k & 1;
        for (uint32_t s = 0; s <= c->nslots; s++)
            l->slot[s] = g->slot[s] >> k & 1;
    }
}

/* Runs the lanes in step from the start: true when they reached the end
 * together (every lane done), false when each goes on alone (spilled). */
static bool group_run(ictx *c, group *g)
{
    const wg_program *p = c->p;
    uint64_t all = g->n == 64 ? ~0ull : (1ull << g->n) - 1;
    uint32_t pc = 0;
    uint64_t check_at = 0x10000;
    g->exec = all;
    memset(g->slot, 0, (c->nslots + 1) * sizeof *g->slot);
    for (;;) {
        const wg_ins *i = &p->code[pc];
        uint64_t run = g->exec, m;
        uint32_t lidv;
        stex_lanes L = {&c->inv, &lidv, &c->one, 1, pc + 1};
#define EACH(mask) for (m = (mask); m && (lidv = (uint32_t)__builtin_ctzll(m), 1); m &= m - 1)
        switch ((wg_opcode)i->op) {
        case OP_CONST:
            EACH(all) set_exact(&g->ls[lidv], i->d, i->imm);
            break;
        case OP_MOV:
        case OP_MOVM:
            if (i->d == i->a)
                break;
            EACH(i->op == OP_MOV ? all : run) {
                ilane *l = &g->ls[lidv];
                if (i->d < i->a)
                    for (uint32_t k = 0; k < i->n; k++)
                        copy_reg(l, i->d + k, i->a + k);
                else
                    for (uint32_t k = i->n; k-- > 0;)
                        copy_reg(l, i->d + k, i->a + k);
            }
            break;
        case OP_MATH:
            if (!group_int_math(g, i) && !group_f32(c, g, i))
                EACH(run) op_math(c, &g->ls[lidv], i, false);
            break;
        case OP_MATHV:
            if (!group_unpack(c, g, i))
                EACH(run) op_math(c, &g->ls[lidv], i, true);
            break;
        case OP_CMP:
            if (!group_int_cmp(g, i))
                EACH(run) op_cmp(c, &g->ls[lidv], i);
            break;
        case OP_BITS:
            EACH(run) op_bits(c, &g->ls[lidv], i);
            break;
        case OP_SELECT:
            EACH(run) op_select(c, &g->ls[lidv], i);
            break;
        case OP_ADDR:
            EACH(run) op_addr(c, &g->ls[lidv], i);
            break;
        case OP_BUF_LOAD:
        case OP_BUF_STORE:
        case OP_WG_LOAD:
        case OP_WG_STORE:
            EACH(i->op == OP_BUF_LOAD && i->c == 1 && i->a == WG_NONE_REG ? all : run)
                op_mem(c, &g->ls[lidv], i, &L);
            break;
        case OP_TEX_LOAD:
        case OP_TEX_LOAD_LEVEL:
        case OP_TEX_STORE:
            EACH(run) op_tex(c, &g->ls[lidv], i, &L);
            break;
        case OP_TEX_FETCH:
            EACH(run) op_fetch(c, &g->ls[lidv], i, &L);
            break;
        case OP_TEX_DIMS:
            if (i->sub || i->c == STEX_VIEW_DIMENSION_1D || i->c == STEX_VIEW_DIMENSION_3D) {
                group_spill(c, g, pc);
                return false;
            } else {
                lidv = 0;
                stex_lanes_enter(&L, 0);
                stex_uvec2 v = stex_textureDimensions_2d(&c->inv, i->imm);
                uint32_t dims[2] = {v.x, v.y};
                EACH(all) for (uint32_t k = 0; k < i->n && k < 2; k++)
                    set_exact(&g->ls[lidv], i->d + k, dims[k]);
            }
            break;
        case OP_IF: {
            uint64_t cnd;
            if (!group_cond(g, i->a, &cnd)) {
                group_spill(c, g, pc);
                return false;
            }
            g->slot[i->imm] = g->exec & ~cnd;
            g->exec &= cnd;
            if (!g->exec) {
                pc = i->b, g->steps++;
                continue;
            }
            break;
        }
        case OP_ELSE: {
            uint64_t t = g->slot[i->imm];
            g->slot[i->imm] = g->exec;
            g->exec = t;
            if (!g->exec) {
                pc = i->b, g->steps++;
                continue;
            }
            break;
        }
        case OP_ENDIF:
        case OP_MERGE:
            g->exec |= g->slot[i->imm];
            break;
        case OP_MASK_CLEAR:
            g->slot[i->imm] = 0;
            break;
        case OP_EXIT:
            g->slot[i->imm] |= g->exec;
            g->exec = 0;
            break;
        case OP_BREAK_IF:
        case OP_BREAK_JUMP: {
            uint64_t cnd;
            if (!group_cond(g, i->a, &cnd)) {
                group_spill(c, g, pc);
                return false;
            }
            g->slot[i->imm] |= g->exec & cnd;
            g->exec &= ~cnd;
            if (!g->exec && i->op == OP_BREAK_JUMP) {
                pc = i->b, g->steps++;
                continue;
            }
            break;
        }
        case OP_LOOP_END:
            if (g->exec) {
                /* past the step limit each lane's own run reports it */
                if (g->steps > c->xp->max_steps) {
                    group_spill(c, g, pc);
                    return false;
                }
                if (g->steps >= check_at) {
                    check_at = g->steps + 0x10000;
                    if (stex_cancel_check(c->inv.exec->ctx->cancel)) {
                        exec_shader_error(&c->inv, "%s:%u: stopped (the dispatch was "
                                          "cancelled)", c->xp->filename, i->line);
                        for (uint32_t k = 0; k < g->n; k++)
                            g->ls[k].done = true;
                        return true;
                    }
                }
                pc = i->b, g->steps++;
                continue;
            }
            g->exec = g->slot[i->imm];
            break;
        case OP_END:
            for (uint32_t k = 0; k < g->n; k++)
                g->ls[k].done = true;
            return true;
        default: /* barriers, atomics, sampling, indexed registers, queries, subgroups */
            group_spill(c, g, pc);
            return false;
        }
#undef EACH
        pc++, g->steps++;
    }
}

/* ---- a workgroup ---- */
/* A thread's state for its workgroups, kept from one to the next. */
static _Thread_local struct {
    ilane *lanes;
    uint32_t *r, *why, *wgwhy;
    stex_ival *v, *wgv;
    uint8_t *ty, *wghas;
    uint64_t *slots, *gslots;
    size_t nlanes, nr, nwhy, nwgwhy, nv, nwgv, nty, nwghas, nslots, ngslots;
} kept;

/* *p holds at least n elements of size bytes (false: out of memory). */
static bool grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap && *(void **)p)
        return true;
    void *q = realloc(*(void **)p, (n ? n : 1) * size);
    if (!q)
        return false;
    *(void **)p = q;
    *cap = n ? n : 1;
    return true;
}

/* The thread's register types of the program it ran last (infer_types). */
static _Thread_local struct {
    uint64_t uid;
    uint8_t *t;
} types_kept;

static const uint8_t *types_of(const wg_exec_program *xp)
{
    if (xp->uid && types_kept.uid == xp->uid)
        return types_kept.t;
    uint8_t *t = realloc(types_kept.t, xp->prog.nregs ? xp->prog.nregs : 1);
    if (!t)
        return NULL;
    types_kept.t = t;
    infer_types(xp, t);
    types_kept.uid = xp->uid;
    return t;
}

void wg_ival_run_workgroup(const stex_workgroup *w, void *user)
{
    const wg_exec_program *xp = user;
    const wg_program *p = &xp->prog;
    pthread_once(&fn_once, fn_init);
    struct stex_exec *e = w->inv->exec;
    uint32_t total = w->size[0] * w->size[1] * w->size[2];
    ictx c = {.xp = xp, .p = p, .a = xp->allowed, .prof = stex_invocation_profile(w->inv),
              .inv = *w->inv, .nregs = p->nregs, .nslots = p->nslots, .one = 1};
    c.wgwords = e->ctx->wg_memory_size / 4;
    c.rt = types_of(xp);
    c.ieee = stex_math_f32_is_ieee(c.prof);
    size_t nr = (size_t)total * p->nregs, ns = (size_t)total * (p->nslots + 1);
    /* the thread's buffers, grown as needed: registers and their types
     * zeroed per workgroup, the sets written before they are read */
    if (!grow(&kept.lanes, &kept.nlanes, total, sizeof *kept.lanes) ||
        !grow(&kept.r, &kept.nr, nr, sizeof *kept.r) || !grow(&kept.v, &kept.nv, nr, sizeof *kept.v) ||
        !grow(&kept.ty, &kept.nty, nr, 1) || !grow(&kept.why, &kept.nwhy, nr, sizeof *kept.why) ||
        !grow(&kept.slots, &kept.nslots, ns, sizeof *kept.slots) ||
        !grow(&kept.gslots, &kept.ngslots, p->nslots + 1, sizeof *kept.gslots) ||
        !grow(&kept.wgv, &kept.nwgv, c.wgwords, sizeof *kept.wgv) ||
        !grow(&kept.wgwhy, &kept.nwgwhy, c.wgwords, sizeof *kept.wgwhy) ||
        !grow(&kept.wghas, &kept.nwghas, c.wgwords, 1) || !c.rt) {
        exec_shader_error(w->inv, "the WGSL interpreter (allowed mode) ran out of memory");
        for (uint32_t k = 0; k < total; k++)
            phase_return(e, k);
        phase_end(e);
        return;
    }
    ilane *lanes = kept.lanes;
    uint32_t *r = kept.r, *why = kept.why;
    stex_ival *v = kept.v;
    uint8_t *ty = kept.ty;
    uint64_t *slots = kept.slots;
    memset(lanes, 0, total * sizeof *lanes);
    memset(r, 0, nr * sizeof *r);
    memset(ty, 0, nr);
    memset(slots, 0, ns * sizeof *slots);
    c.wgv = kept.wgv, c.wgwhy = kept.wgwhy, c.wghas = kept.wghas;
    memset(c.wghas, 0, c.wgwords);
    for (uint32_t k = 0; k < total; k++) {
        ilane *l = &lanes[k];
        l->r = r + (size_t)k * p->nregs, l->v = v + (size_t)k * p->nregs;
        l->ty = ty + (size_t)k * p->nregs, l->why = why + (size_t)k * p->nregs;
        l->slot = slots + (size_t)k * (p->nslots + 1);
        l->exec = 1, l->lid = k;
        /* the builtin ids and the constant registers */
        const uint32_t *lid = w->lid[k];
        for (uint32_t a = 0; a < 3; a++) {
            if (REG_LOCAL_ID + a < p->nregs)
                l->r[REG_LOCAL_ID + a] = lid[a];
            if (REG_GLOBAL_ID + a < p->nregs)
                l->r[REG_GLOBAL_ID + a] = w->base[a] + lid[a];
            if (REG_WORKGROUP_ID + a < p->nregs)
                l->r[REG_WORKGROUP_ID + a] = w->inv->workgroup_id[a];
            if (REG_NUM_WORKGROUPS + a < p->nregs)
                l->r[REG_NUM_WORKGROUPS + a] = w->inv->num_workgroups[a];
        }
        if (REG_LOCAL_INDEX < p->nregs)
            l->r[REG_LOCAL_INDEX] = k;
        for (uint32_t q = 0; q < xp->nconsts && xp->const_reg + q < p->nregs; q++)
            l->r[xp->const_reg + q] = xp->consts[q];
    }
    if (total <= 64) { /* in step while every path is certain */
        group g = {.ls = lanes, .n = total, .slot = kept.gslots};
        group_run(&c, &g);
    }
    for (;;) {
        const uint32_t *order = phase_order(e);
        for (uint32_t k = 0; k < total; k++) {
            ilane *l = &lanes[order ? order[k] : k];
            if (l->done) {
                phase_return(e, l->lid);
                continue;
            }
            uint8_t kind = 0;
            istop s = run_lane(&c, l, UINT32_MAX, &kind);
            if (s == I_BARRIER && l->exec) {
                phase_arrive(e, l->lid, (exec_barrier)kind, l->pc - 1);
            } else if (s == I_BARRIER && !(l->slot[p->ret_slot] & 1)) {
                /* in another branch of divergent control flow: not at this barrier */
                phase_arrive(e, l->lid, (exec_barrier)kind, (l->pc - 1) | 0x80000000u);
            } else {
                l->done = true;
                phase_return(e, l->lid);
            }
        }
        if (phase_end(e) != PHASE_NEXT)
            break;
    }
}
