/* Expressions: literals, names, operators, indexing, members and swizzles,
 * conversions, constant evaluation. */
#include "wgsl/lower.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stex/convert.h"

static wg_types *TS(wg_ctx *x) { return x->types; }
static wg_type_kind kind_of(wg_ctx *x, int t) { return x->types->t[t].kind; }

/* The scalar kind at the bottom of vectors and arrays. */
static int leaf_scalar(wg_ctx *x, int t)
{
    while (kind_of(x, t) == TY_VEC || kind_of(x, t) == TY_ARRAY || kind_of(x, t) == TY_ATOMIC ||
           kind_of(x, t) == TY_MAT)
        t = x->types->t[t].elem;
    return t;
}

wg_val wg_const_scalar(wg_ctx *x, int type, wg_cword w)
{
    wg_cword *c = wg_cwords(x, 1);
    c[0] = w;
    return (wg_val){.kind = V_CONST, .type = type, .c = c};
}

static float as_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

bool wg_const_convert(wg_ctx *x, const wg_cword *in, int from, wg_cword *out, int to)
{
    const wg_type *fs = wg_ty(TS(x), from), *ts_ = wg_ty(TS(x), to);
    if (fs->kind == TY_STRUCT && ts_->kind == TY_STRUCT) { /* member by member */
        for (uint32_t m = 0; m < fs->nmembers && m < ts_->nmembers; m++)
            if (!wg_const_convert(x, in + fs->members[m].word, fs->members[m].type,
                                  out + ts_->members[m].word, ts_->members[m].type))
                return false;
        return true;
    }
    uint32_t n = wg_ty(TS(x), from)->words;
    wg_type_kind fk = kind_of(x, leaf_scalar(x, from)), tk = kind_of(x, leaf_scalar(x, to));
    for (uint32_t i = 0; i < n; i++) {
        wg_cword w = in[i];
        if (fk == tk) {
            out[i] = w;
        } else if (fk == TY_AINT && tk == TY_AFLOAT) {
            out[i].f = wg_afloat_const(x, (double)w.i);
        } else if (fk == TY_AINT && tk == TY_I32) {
            if (w.i < INT32_MIN || w.i > INT32_MAX)
                return false;
            out[i].u = (uint32_t)(int32_t)w.i;
        } else if (fk == TY_AINT && tk == TY_U32) {
            if (w.i < 0 || w.i > UINT32_MAX)
                return false;
            out[i].u = (uint32_t)w.i;
        } else if ((fk == TY_AINT || fk == TY_AFLOAT) && tk == TY_F16) {
            /* the nearest f16; past f16's finite range: an error (WGSL 15.7.6) */
            if (!stex_math_f16_from_double(fk == TY_AINT ? (double)w.i : w.f, &out[i].u))
                return false;
        } else if ((fk == TY_AINT || fk == TY_AFLOAT) && tk == TY_F32) {
            double d = fk == TY_AINT ? (double)w.i : w.f;
            float f = (float)d;
            if (isinf(f))
                return false;
            out[i].u = wg_f32_const(x, f_bits(f));
        } else {
            return false;
        }
    }
    return true;
}

wg_val wg_convert(wg_ctx *x, wg_val v, int type, wg_loc loc, const char *what)
{
    if (v.kind == V_ERROR || v.type == type || type < 0)
        return v;
    if (v.kind == V_CONST && wg_type_converts(TS(x), v.type, type)) {
        wg_cword *c = wg_cwords(x, wg_ty(TS(x), type)->words);
        if (!wg_const_convert(x, v.c, v.type, c, type)) {
            WG_ERR(x, loc, "conversion-rank", "%s is out of range of %s", what,
                   wg_tname(x, type));
            return wg_error_val();
        }
        return (wg_val){.kind = V_CONST, .type = type, .c = c};
    }
    WG_ERR(x, loc, "type-mismatch", "%s has type %s where %s is expected", what,
           wg_tname(x, v.type), wg_tname(x, type));
    return wg_error_val();
}

uint32_t wg_const_reg(wg_ctx *x, const wg_cword *c, int type)
{
    uint32_t n = wg_ty(TS(x), type)->words;
    uint32_t r = wg_reg_alloc(x, n);
    for (uint32_t i = 0; i < n; i++) {
        wg_ins *in = wg_emit(x, OP_CONST);
        in->d = r + i;
        in->imm = c[i].u;
    }
    return r;
}

/* The memory offsets (in units of `unit` bytes: 4, or 2 for memory holding
 * f16) of a type laid out in memory (WGSL 14.4), one per register word; an
 * f16 leaf carries WG_OFF_HALF. */
static uint32_t mem_leaves(wg_ctx *x, int type, uint32_t base, uint32_t *out, uint32_t cap,
                           uint32_t unit)
{
    const wg_type *t = wg_ty(TS(x), type);
    switch (t->kind) {
    case TY_VEC: {
        const wg_type *e = wg_ty(TS(x), t->elem);
        uint32_t flag = e->kind == TY_F16 ? WG_OFF_HALF : 0;
        for (uint32_t i = 0; i < t->n && i < cap; i++)
            out[i] = (base + i * e->size / unit) | flag;
        return t->n;
    }
    case TY_ARRAY:
    case TY_MAT: {
        uint32_t n = 0;
        for (uint32_t i = 0; i < t->n; i++)
            n += mem_leaves(x, t->elem, base + i * t->stride / unit, out + n,
                            cap > n ? cap - n : 0, unit);
        return n;
    }
    case TY_STRUCT: {
        uint32_t n = 0;
        for (uint32_t i = 0; i < t->nmembers; i++)
            n += mem_leaves(x, t->members[i].type, base + t->members[i].offset / unit, out + n,
                            cap > n ? cap - n : 0, unit);
        return n;
    }
    default:
        if (cap)
            out[0] = base | (t->kind == TY_F16 ? WG_OFF_HALF : 0);
        return 1;
    }
}

enum { MAX_LEAVES = 4096 };

static bool has_runtime_array_or_atomic(wg_ctx *x, int type)
{
    const wg_type *t = wg_ty(TS(x), type);
    if (t->kind == TY_ATOMIC || (t->kind == TY_ARRAY && t->n == 0))
        return true;
    if (t->kind == TY_ARRAY)
        return has_runtime_array_or_atomic(x, t->elem);
    for (uint32_t i = 0; t->kind == TY_STRUCT && i < t->nmembers; i++)
        if (has_runtime_array_or_atomic(x, t->members[i].type))
            return true;
    return false;
}

wg_val wg_load(wg_ctx *x, wg_val v, wg_loc loc)
{
    if (v.kind != V_REF)
        return v;
    if (has_runtime_array_or_atomic(x, v.type)) {
        WG_ERR(x, loc, "load-rule", "a value of type %s cannot be loaded%s", wg_tname(x, v.type),
               kind_of(x, v.type) == TY_ATOMIC ? " (use atomicLoad)" : "");
        return wg_error_val();
    }
    if (v.ref.space == SP_STORAGE || v.ref.space == SP_UNIFORM) {
        /* a read through a read-only or read_write binding: fine either way */
    }
    uint32_t words = wg_ty(TS(x), v.type)->words;
    uint32_t d = wg_reg_alloc(x, words);
    wg_ins *i;
    switch (v.ref.space) {
    case SP_FUNCTION:
    case SP_PRIVATE:
        if (v.ref.dyn == WG_NONE_REG) {
            i = wg_emit(x, OP_MOV);
            i->d = d, i->a = v.ref.base, i->n = (uint16_t)words;
        } else {
            i = wg_emit(x, OP_LOADIDX);
            i->d = d, i->a = v.ref.base, i->b = v.ref.dyn, i->n = (uint16_t)words;
        }
        break;
    default: {
        uint32_t offs[MAX_LEAVES];
        if (words > MAX_LEAVES) {
            WG_ERR(x, loc, "resources", "a load of %u words is too large for stex", words);
            return wg_error_val();
        }
        mem_leaves(x, v.type, 0, offs, MAX_LEAVES, wg_ref_unit(&v.ref));
        uint32_t pool = wg_pool_add(x, offs, words);
        i = wg_emit(x, v.ref.space == SP_WORKGROUP ? OP_WG_LOAD : OP_BUF_LOAD);
        wg_ins_at(i, loc.line, loc.col);
        i->sub = v.ref.halves;
        i->d = d, i->a = v.ref.dyn, i->e = v.ref.base, i->imm = v.ref.binding;
        i->n = (uint16_t)words, i->offs = pool;
        /* a uniform's words at a constant place are the same for every lane
         * and every time in a dispatch: loaded for every lane (OP_BUF_LOAD's c) */
        i->c = v.ref.space == SP_UNIFORM && v.ref.dyn == WG_NONE_REG && !v.ref.halves;
        break;
    }
    }
    return (wg_val){.kind = V_REG, .type = v.type, .reg = d};
}

void wg_store(wg_ctx *x, const wg_ref *r, int type, uint32_t reg, wg_loc loc)
{
    uint32_t words = wg_ty(TS(x), type)->words;
    if (has_runtime_array_or_atomic(x, type)) {
        WG_ERR(x, loc, "assignment", "a value of type %s cannot be assigned%s",
               wg_tname(x, type), kind_of(x, type) == TY_ATOMIC ? " (use atomicStore)" : "");
        return;
    }
    if (r->space == SP_UNIFORM || (r->space == SP_STORAGE && r->access != STEX_ACCESS_READ_WRITE)) {
        WG_ERR(x, loc, "assignment", "cannot write to a %s binding",
               r->space == SP_UNIFORM ? "var<uniform>" : "var<storage, read>");
        return;
    }
    wg_ins *i;
    switch (r->space) {
    case SP_FUNCTION:
    case SP_PRIVATE:
        if (r->dyn == WG_NONE_REG) {
            i = wg_emit(x, OP_MOVM);
            i->d = r->base, i->a = reg, i->n = (uint16_t)words;
        } else {
            i = wg_emit(x, OP_STOREIDX);
            i->d = r->base, i->b = r->dyn, i->a = reg, i->n = (uint16_t)words;
        }
        break;
    default: {
        uint32_t offs[MAX_LEAVES];
        if (words > MAX_LEAVES) {
            WG_ERR(x, loc, "resources", "a store of %u words is too large for stex", words);
            return;
        }
        mem_leaves(x, type, 0, offs, MAX_LEAVES, wg_ref_unit(r));
        uint32_t pool = wg_pool_add(x, offs, words);
        i = wg_emit(x, r->space == SP_WORKGROUP ? OP_WG_STORE : OP_BUF_STORE);
        wg_ins_at(i, loc.line, loc.col);
        i->sub = r->halves;
        i->a = r->dyn, i->e = r->base, i->b = reg, i->imm = r->binding;
        i->n = (uint16_t)words, i->offs = pool;
        break;
    }
    }
}

uint32_t wg_to_reg(wg_ctx *x, wg_val v, wg_loc loc)
{
    switch (v.kind) {
    case V_REG:
        return v.reg;
    case V_REF:
        v = wg_load(x, v, loc);
        return v.kind == V_REG ? v.reg : wg_reg_alloc(x, 1);
    case V_CONST: {
        int t = wg_type_concrete(TS(x), v.type);
        v = wg_convert(x, v, t, loc, "the constant");
        if (v.kind != V_CONST)
            return wg_reg_alloc(x, 1);
        return wg_const_reg(x, v.c, t);
    }
    default:
        return wg_reg_alloc(x, 4);
    }
}

wg_ref wg_ref_index(wg_ctx *x, const wg_ref *r, const wg_type *agg, uint32_t idx_reg, wg_loc loc)
{
    (void)loc;
    bool regs = r->space == SP_FUNCTION || r->space == SP_PRIVATE;
    const wg_type *et = agg->kind == TY_VEC ? wg_ty(TS(x), agg->elem) : wg_ty(TS(x), agg->elem);
    uint32_t unit = wg_ref_unit(r);
    uint32_t stride = regs ? et->words : (agg->kind == TY_VEC ? et->size : agg->stride) / unit;
    uint32_t count = agg->n;
    wg_ins *i = wg_emit(x, OP_ADDR);
    uint32_t d = wg_reg_alloc(x, 1);
    i->d = d, i->a = r->dyn, i->b = idx_reg, i->imm = stride, i->c = count;
    i->n = (uint16_t)(regs ? et->words * 4 : agg->kind == TY_VEC ? et->size : agg->stride);
    i->sub = (uint8_t)(regs ? STEX_ARRAY_FUNCTION : count ? STEX_ARRAY_FIXED : STEX_ARRAY_RUNTIME);
    wg_ref out = *r;
    out.dyn = d;
    return out;
}

/* ---- constant folding ---- */


static const char *math_op_name(wg_tok_kind op)
{
    switch (op) {
    case TK_PLUS: return "add";
    case TK_MINUS: return "sub";
    case TK_STAR: return "mul";
    case TK_SLASH: return "div";
    case TK_PERCENT: return "rem";
    case TK_SHL: return "shl";
    case TK_SHR: return "shr";
    default: return NULL;
    }
}

static const char *scalar_name(wg_ctx *x, int s)
{
    switch (kind_of(x, s)) {
    case TY_I32: return "i32";
    case TY_U32: return "u32";
    case TY_F32: return "f32";
    case TY_F16: return "f16";
    case TY_BOOL: return "bool";
    default: return "?";
    }
}

/* One word of a binary operator on constants; false on an error (reported). */
static bool fold_word(wg_ctx *x, wg_tok_kind op, int s, wg_cword a, wg_cword b, wg_cword *out,
                      wg_loc loc)
{
    wg_type_kind k = kind_of(x, s);
    if (k == TY_AINT) {
        int64_t r = 0;
        bool bad = false;
        switch (op) {
        case TK_PLUS: bad = __builtin_add_overflow(a.i, b.i, &r); break;
        case TK_MINUS: bad = __builtin_sub_overflow(a.i, b.i, &r); break;
        case TK_STAR: bad = __builtin_mul_overflow(a.i, b.i, &r); break;
        case TK_SLASH: case TK_PERCENT:
            if (b.i == 0 || (a.i == INT64_MIN && b.i == -1)) {
                WG_ERR(x, loc, "arithmetic", "integer division by zero in a const-expression");
                return false;
            }
            r = op == TK_SLASH ? a.i / b.i : a.i % b.i;
            break;
        case TK_AMP: r = a.i & b.i; break;
        case TK_PIPE: r = a.i | b.i; break;
        case TK_CARET: r = a.i ^ b.i; break;
        case TK_SHL: { /* WGSL: AbstractInt is 64 bits wide; the bits shifted out and
                        * the new sign bit must all equal the old sign bit - so by 64
                        * or more only 0 shifts (the CTS: 0 << 256 is 0) */
            if (b.i < 0) { /* the shift is a u32: -1 never converts */
                WG_ERR(x, loc, "arithmetic", "'%lld << %lld': a shift is by a u32",
                       (long long)a.i, (long long)b.i);
                return false;
            }
            if (b.i >= 64) {
                if (a.i != 0) {
                    WG_ERR(x, loc, "arithmetic", "'%lld << %lld' overflows AbstractInt: by 64 "
                           "or more only 0 shifts", (long long)a.i, (long long)b.i);
                    return false;
                }
                r = 0;
                break;
            }
            uint64_t mask = ~(~(uint64_t)0 >> (b.i + 1 > 63 ? 63 : b.i + 1));
            if (b.i == 63)
                mask = ~(uint64_t)0;
            uint64_t bits = (uint64_t)a.i & mask;
            if (b.i > 0 && bits != 0 && bits != mask) {
                WG_ERR(x, loc, "arithmetic", "'%lld << %lld' overflows AbstractInt (the sign "
                       "changes or set bits are shifted out) in a const-expression",
                       (long long)a.i, (long long)b.i);
                return false;
            }
            r = (int64_t)((uint64_t)a.i << b.i);
            break;
        }
        case TK_SHR: /* no width limit: past the 63rd bit only the sign is left */
            r = b.i >= 0 && b.i < 63 ? a.i >> b.i : a.i < 0 ? -1 : 0;
            break;
        default: return false;
        }
        if (bad) {
            WG_ERR(x, loc, "arithmetic", "abstract-int overflow in a const-expression");
            return false;
        }
        out->i = r;
        return true;
    }
    if (k == TY_AFLOAT) {
        double r;
        switch (op) {
        case TK_PLUS: r = a.f + b.f; break;
        case TK_MINUS: r = a.f - b.f; break;
        case TK_STAR: r = a.f * b.f; break;
        case TK_SLASH: r = a.f / b.f; break;
        case TK_PERCENT: r = fmod(a.f, b.f); break;
        default: return false;
        }
        if (!isfinite(r)) {
            WG_ERR(x, loc, "arithmetic", "the const-expression's value is not finite");
            return false;
        }
        out->f = wg_afloat_const(x, r);
        return true;
    }
    if (op == TK_AMP || op == TK_PIPE || op == TK_CARET) {
        out->u = op == TK_AMP ? a.u & b.u : op == TK_PIPE ? a.u | b.u : a.u ^ b.u;
        return true;
    }
    const char *name = math_op_name(op);
    char sig[32];
    snprintf(sig, sizeof sig, "%s,%s->%s", scalar_name(x, s),
             op == TK_SHL || op == TK_SHR ? "u32" : scalar_name(x, s), scalar_name(x, s));
    stex_math_fn fn;
    if (!name || !stex_math_fn_find(name, sig, &fn))
        return false;
    if (k != TY_F32 && k != TY_F16 && (op == TK_SLASH || op == TK_PERCENT) && b.u == 0) {
        WG_ERR(x, loc, "arithmetic", "integer division by zero in a const-expression");
        return false;
    }
    if (k == TY_I32 && (op == TK_SLASH || op == TK_PERCENT) && a.u == 0x80000000u &&
        b.u == 0xffffffffu) {
        WG_ERR(x, loc, "arithmetic", "'-2147483648 %s -1' cannot be represented as i32 in a "
               "const-expression", op == TK_SLASH ? "/" : "%");
        return false;
    }
    if ((k == TY_I32 || k == TY_U32) && (op == TK_SHL || op == TK_SHR)) {
        if (b.u >= 32) {
            WG_ERR(x, loc, "arithmetic", "shift %s by %" PRIu32 " in a const-expression: the "
                   "shift must be less than the bit width of %s, 32",
                   op == TK_SHL ? "left" : "right", b.u, scalar_name(x, s));
            return false;
        }
        if (op == TK_SHL && b.u > 0) {
            /* the bits shifted out (and, for i32, the new sign bit) must
             * all equal the old sign bit (i32) or be 0 (u32) */
            uint32_t top = k == TY_I32 ? b.u + 1 : b.u;
            uint32_t mask = top >= 32 ? 0xffffffffu : ~(0xffffffffu >> top);
            uint32_t bits = a.u & mask;
            if (k == TY_U32 ? bits != 0 : (bits != 0 && bits != mask)) {
                WG_ERR(x, loc, "arithmetic", "%s << %" PRIu32 " changes the %s in a "
                       "const-expression", scalar_name(x, s), b.u,
                       k == TY_I32 ? "sign (or drops set bits)" : "value (drops set bits)");
                return false;
            }
        }
    }
    /* the math layer's const evaluation: the value (and the errors) every
     * const-expression of stex has */
    uint32_t in[2] = {a.u, b.u};
    if (stex_math_eval_const(x->const_rule, fn, false, in, &out->u) != STEX_OK) {
        WG_ERR(x, loc, "arithmetic", "'%s' in a const-expression: %s", wg_tok_spelling(op),
               stex_last_error());
        return false;
    }
    wg_f32_results(x, fn, &out->u);
    if (k == TY_F16 && !isfinite(stex_math_f16_to_float(out->u))) {
        WG_ERR(x, loc, "arithmetic", "the const-expression's value is not finite in f16");
        return false;
    }
    return true;
}

static bool cmp_word(wg_ctx *x, wg_tok_kind op, int s, wg_cword a, wg_cword b)
{
    double da, db;
    switch (kind_of(x, s)) {
    case TY_AINT: da = (double)a.i, db = (double)b.i;
        if (a.i != b.i) { da = a.i < b.i ? 0 : 1; db = a.i < b.i ? 1 : 0; }
        break;
    case TY_AFLOAT: da = a.f, db = b.f; break;
    case TY_I32: da = (int32_t)a.u, db = (int32_t)b.u; break;
    case TY_U32: case TY_BOOL: da = a.u, db = b.u; break;
    case TY_F16: da = stex_math_f16_to_float(a.u), db = stex_math_f16_to_float(b.u); break;
    default: da = as_f(a.u), db = as_f(b.u); break;
    }
    switch (op) {
    case TK_LT: return da < db;
    case TK_LE: return da <= db;
    case TK_GT: return da > db;
    case TK_GE: return da >= db;
    case TK_EQ: return da == db;
    default: return da != db;
    }
}

/* ---- runtime emission ---- */

/* d = a <op> b for one f16 word, through the math layer's lt and eq (NaN
 * compares false except for !=): >, <=, >= swap or combine them. */
static void f16_compare(wg_ctx *x, wg_tok_kind op, uint32_t d, uint32_t a, uint32_t b, wg_loc loc)
{
    stex_math_fn lt, eq;
    if (!stex_math_fn_find("lt", "f16,f16->bool", &lt) ||
        !stex_math_fn_find("eq", "f16,f16->bool", &eq)) {
        WG_ERR(x, loc, "builtin", "no f16 comparison in the math layer");
        return;
    }
    bool swap = op == TK_GT || op == TK_GE, with_eq = op == TK_LE || op == TK_GE;
    wg_ins *i;
    if (op != TK_EQ && op != TK_NE) {
        i = wg_emit(x, OP_MATH);
        i->d = d, i->a = swap ? b : a, i->b = swap ? a : b, i->imm = (uint32_t)lt, i->n = 2;
        if (!with_eq)
            return;
    }
    uint32_t e = op == TK_EQ ? d : wg_reg_alloc(x, 1);
    i = wg_emit(x, OP_MATH);
    i->d = e, i->a = a, i->b = b, i->imm = (uint32_t)eq, i->n = 2;
    if (op == TK_NE) {
        i = wg_emit(x, OP_BITS);
        i->d = d, i->a = e, i->sub = BITS_LNOT;
    } else if (with_eq) {
        i = wg_emit(x, OP_BITS);
        i->d = d, i->a = d, i->b = e, i->sub = BITS_OR;
    }
}

uint32_t wg_emit_math(wg_ctx *x, const char *op, int type, const uint32_t *args, uint32_t nargs,
                      int result_type, wg_loc loc)
{
    int s = wg_type_scalar(TS(x), type), rs = wg_type_scalar(TS(x), result_type);
    uint32_t n = wg_type_lanes(TS(x), result_type);
    char sig[64] = "";
    for (uint32_t j = 0; j < nargs; j++) {
        /* shift amounts and extractBits' offset and count are u32, ldexp's exponent i32 */
        const char *t = scalar_name(x, s);
        if (((!strcmp(op, "shl") || !strcmp(op, "shr")) && j == 1) ||
            (!strcmp(op, "extractBits") && j >= 1))
            t = "u32";
        else if (!strcmp(op, "ldexp") && j == 1)
            t = "i32";
        strcat(sig, j ? "," : "");
        strcat(sig, t);
    }
    strcat(sig, "->");
    strcat(sig, scalar_name(x, rs));
    stex_math_fn fn;
    uint32_t d = wg_reg_alloc(x, n);
    if (!stex_math_fn_find(op, sig, &fn)) {
        WG_ERR(x, loc, "builtin", "no overload %s(%s) in the math layer", op, sig);
        return d;
    }
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    bool f32 = !strncmp(info->sig, "f32", 3) && info->out_words == 1 &&
               (!strcmp(info->sig, "f32->f32") || !strcmp(info->sig, "f32,f32->f32") ||
                !strcmp(info->sig, "f32,f32,f32->f32"));
    for (uint32_t k = 0; k < n; k++) {
        wg_ins *i = wg_emit(x, OP_MATH);
        i->d = d + k;
        i->imm = (uint32_t)fn;
        i->sub = f32;
        i->n = (uint16_t)nargs;
        uint32_t r[3] = {0, 0, 0};
        for (uint32_t j = 0; j < nargs && j < 3; j++)
            r[j] = args[j] + k;
        i->a = r[0], i->b = r[1], i->c = r[2];
    }
    return d;
}

int wg_common_type(wg_ctx *x, int a, int b)
{
    if (a == b)
        return a;
    if (wg_type_converts(TS(x), a, b))
        return b;
    if (wg_type_converts(TS(x), b, a))
        return a;
    return -1;
}

/* Splats a scalar value to a vector type (constants stay constant). */
static wg_val splat(wg_ctx *x, wg_val v, int vec, wg_loc loc)
{
    uint32_t n = wg_ty(TS(x), vec)->n;
    int s = wg_type_scalar(TS(x), vec);
    if (v.kind == V_CONST) {
        wg_cword *c = wg_cwords(x, n);
        for (uint32_t i = 0; i < n; i++)
            c[i] = v.c[0];
        return (wg_val){.kind = V_CONST, .type = wg_type_vec(TS(x), v.type, n), .c = c};
    }
    (void)s;
    uint32_t r = wg_to_reg(x, v, loc), d = wg_reg_alloc(x, n);
    for (uint32_t i = 0; i < n; i++) {
        wg_ins *in = wg_emit(x, OP_MOV);
        in->d = d + i, in->a = r, in->n = 1;
    }
    return (wg_val){.kind = V_REG, .type = wg_type_vec(TS(x), v.type, n), .reg = d};
}

static bool is_cmp(wg_tok_kind op)
{
    return op == TK_LT || op == TK_LE || op == TK_GT || op == TK_GE || op == TK_EQ ||
           op == TK_NE;
}

static wg_val logical(wg_ctx *x, const wg_expr *e)
{
    wg_val a = wg_load(x, wg_expr_lower(x, e->a), e->a->loc);
    if (a.kind == V_ERROR)
        return a;
    if (a.type != T_BOOL) {
        WG_ERR(x, e->a->loc, "logical-expr", "'%s' takes bool operands, not %s",
               wg_tok_spelling(e->op), wg_tname(x, a.type));
        return wg_error_val();
    }
    bool is_and = e->op == TK_AND_AND;
    if (a.kind == V_CONST) {
        bool skip = (a.c[0].u != 0) != is_and; /* false && ..., true || ...: short-circuit */
        /* b is still checked, and what it names is statically used (a
         * binding it reads stays in the 'auto' layout); its code is dropped */
        uint32_t ncode = x->prog->ncode, regs = x->reg_next;
        bool unevaluated = x->d->unevaluated;
        x->d->unevaluated |= skip;
        wg_val b = wg_load(x, wg_expr_lower(x, e->b), e->b->loc);
        x->d->unevaluated = unevaluated;
        if (skip) {
            if (b.kind != V_ERROR && b.type != T_BOOL)
                WG_ERR(x, e->b->loc, "logical-expr", "'%s' takes bool operands, not %s",
                       wg_tok_spelling(e->op), wg_tname(x, b.type));
            if (!x->oom)
                x->prog->ncode = ncode;
            x->reg_next = regs;
            return a;
        }
        if (b.kind != V_ERROR && b.type != T_BOOL)
            WG_ERR(x, e->b->loc, "logical-expr", "'%s' takes bool operands, not %s",
                   wg_tok_spelling(e->op), wg_tname(x, b.type));
        return b;
    }
    /* r = a; if (a == is_and) { r = b } : b runs only in the lanes that need it */
    uint32_t r = wg_reg_alloc(x, 1);
    wg_ins *i = wg_emit(x, OP_MOV);
    i->d = r, i->a = a.reg, i->n = 1;
    uint32_t cond = a.reg;
    if (!is_and) {
        cond = wg_reg_alloc(x, 1);
        i = wg_emit(x, OP_BITS);
        i->d = cond, i->a = a.reg, i->sub = BITS_LNOT;
    }
    uint32_t slot = wg_slot_alloc(x);
    uint32_t at_if = x->prog->ncode;
    i = wg_emit(x, OP_IF);
    i->imm = slot, i->a = cond;
    wg_val b = wg_load(x, wg_expr_lower(x, e->b), e->b->loc);
    if (b.kind != V_ERROR && b.type != T_BOOL)
        WG_ERR(x, e->b->loc, "logical-expr", "'%s' takes bool operands, not %s",
               wg_tok_spelling(e->op), wg_tname(x, b.type));
    uint32_t br = wg_to_reg(x, b, e->b->loc);
    i = wg_emit(x, OP_MOVM);
    i->d = r, i->a = br, i->n = 1;
    uint32_t at_else = x->prog->ncode;
    i = wg_emit(x, OP_ELSE);
    i->imm = slot;
    uint32_t at_end = x->prog->ncode;
    i = wg_emit(x, OP_ENDIF);
    i->imm = slot;
    if (!x->oom) {
        x->prog->code[at_if].b = at_else;
        x->prog->code[at_else].b = at_end;
    }
    return (wg_val){.kind = V_REG, .type = T_BOOL, .reg = r};
}

static wg_val mat_binary(wg_ctx *x, const wg_expr *e, wg_val a, wg_val b);

static wg_val binary(wg_ctx *x, const wg_expr *e)
{
    if (e->op == TK_AND_AND || e->op == TK_OR_OR)
        return logical(x, e);
    wg_val a = wg_load(x, wg_expr_lower(x, e->a), e->a->loc);
    wg_val b = wg_load(x, wg_expr_lower(x, e->b), e->b->loc);
    if (a.kind == V_ERROR || b.kind == V_ERROR)
        return wg_error_val();
    wg_op_check:;
    wg_types *ts = TS(x);
    if (kind_of(x, a.type) == TY_MAT || kind_of(x, b.type) == TY_MAT)
        return mat_binary(x, e, a, b);
    bool shift = e->op == TK_SHL || e->op == TK_SHR;
    uint32_t la = wg_type_lanes(ts, a.type), lb = wg_type_lanes(ts, b.type);
    if (!la || !lb) {
        WG_ERR(x, e->loc, "type-mismatch", "'%s' cannot take %s and %s", wg_tok_spelling(e->op),
               wg_tname(x, a.type), wg_tname(x, b.type));
        return wg_error_val();
    }
    /* scalar-vector mixing (arithmetic only) */
    bool arith = e->op == TK_PLUS || e->op == TK_MINUS || e->op == TK_STAR ||
                 e->op == TK_SLASH || e->op == TK_PERCENT;
    if (shift) {
        int want = wg_type_with_scalar(ts, b.type, T_U32);
        b = wg_convert(x, b, want, e->b->loc, "the shift amount");
        if (b.kind == V_ERROR)
            return b;
        if (la != lb || !wg_type_is_integer(ts, a.type)) {
            WG_ERR(x, e->loc, "bit-expr", "'%s' needs an integer left operand with as many "
                   "components as the u32 shift", wg_tok_spelling(e->op));
            return wg_error_val();
        }
    } else {
        if (arith && la != lb) {
            if (la == 1)
                a = splat(x, a, wg_type_with_scalar(ts, b.type, a.type), e->a->loc);
            else if (lb == 1)
                b = splat(x, b, wg_type_with_scalar(ts, a.type, b.type), e->b->loc);
        }
        int t = wg_common_type(x, a.type, b.type);
        if (t < 0) {
            WG_ERR(x, e->loc, "type-mismatch", "'%s' cannot take %s and %s",
                   wg_tok_spelling(e->op), wg_tname(x, a.type), wg_tname(x, b.type));
            return wg_error_val();
        }
        a = wg_convert(x, a, t, e->a->loc, "the left operand");
        b = wg_convert(x, b, t, e->b->loc, "the right operand");
    }
    int type = a.type;
    int s = wg_type_scalar(ts, type);
    uint32_t n = wg_type_lanes(ts, type);
    bool is_bool = kind_of(x, s) == TY_BOOL;
    if ((arith || shift) && is_bool) {
        WG_ERR(x, e->loc, "arithmetic", "'%s' cannot take bool operands", wg_tok_spelling(e->op));
        return wg_error_val();
    }
    if (e->op == TK_CARET && is_bool) { /* WGSL 8.9: & and | take bool, ^ does not */
        WG_ERR(x, e->loc, "bit-expr", "'^' takes integer operands, not %s (for bool: !=)",
               wg_tname(x, type));
        return wg_error_val();
    }
    if ((e->op == TK_AMP || e->op == TK_PIPE || e->op == TK_CARET) &&
        !is_bool && !wg_type_is_integer(ts, type)) {
        WG_ERR(x, e->loc, "bit-expr", "'%s' takes integer or bool operands, not %s",
               wg_tok_spelling(e->op), wg_tname(x, type));
        return wg_error_val();
    }
    if (is_bool && is_cmp(e->op) && e->op != TK_EQ && e->op != TK_NE) {
        WG_ERR(x, e->loc, "comparison-expr", "'%s' cannot compare bool values",
               wg_tok_spelling(e->op));
        return wg_error_val();
    }
    int rtype = is_cmp(e->op) ? wg_type_with_scalar(ts, type, T_BOOL) : type;
    if (a.kind == V_CONST && b.kind == V_CONST) {
        wg_cword *c = wg_cwords(x, n);
        for (uint32_t k = 0; k < n; k++) {
            if (is_cmp(e->op))
                c[k].u = cmp_word(x, e->op, s, a.c[k], b.c[k]);
            else if (!fold_word(x, e->op, s, a.c[k], b.c[k], &c[k], e->loc))
                return wg_error_val();
        }
        return (wg_val){.kind = V_CONST, .type = rtype, .c = c};
    }
    /* WGSL 8.7, 8.9: a const-expression divisor of 0, or a const shift by
     * the bit width or more, is a shader-creation error though the left
     * operand is only known at run time */
    if (b.kind == V_CONST && (e->op == TK_SLASH || e->op == TK_PERCENT || shift) &&
        wg_type_is_integer(ts, type) && kind_of(x, s) != TY_AINT) {
        for (uint32_t k = 0; k < n; k++) {
            if (!shift && b.c[k].u == 0) {
                WG_ERR(x, e->b->loc, "arithmetic", "integer %s by zero: the right operand is "
                       "a const-expression 0", e->op == TK_SLASH ? "division" : "remainder");
                return wg_error_val();
            }
            if (shift && b.c[k].u >= 32) {
                WG_ERR(x, e->b->loc, "arithmetic", "'%s' by %" PRIu32 ": a const shift must "
                       "be less than the 32 bits of %s", wg_tok_spelling(e->op), b.c[k].u,
                       wg_tname(x, s));
                return wg_error_val();
            }
        }
    }
    if (wg_type_is_abstract(ts, type)) {
        int ct = wg_type_concrete(ts, type);
        a = wg_convert(x, a, ct, e->a->loc, "the left operand");
        if (!shift) /* a shift amount stays u32: 1 << n is an i32 shifted by n */
            b = wg_convert(x, b, ct, e->b->loc, "the right operand");
        if (a.kind == V_ERROR || b.kind == V_ERROR)
            return wg_error_val();
        goto wg_op_check;
    }
    uint32_t ra = wg_to_reg(x, a, e->a->loc), rb = wg_to_reg(x, b, e->b->loc);
    if (is_cmp(e->op) && kind_of(x, s) == TY_F16) {
        uint32_t d = wg_reg_alloc(x, n);
        for (uint32_t k = 0; k < n; k++)
            f16_compare(x, e->op, d + k, ra + k, rb + k, e->loc);
        return (wg_val){.kind = V_REG, .type = rtype, .reg = d};
    }
    if (is_cmp(e->op) || e->op == TK_AMP || e->op == TK_PIPE || e->op == TK_CARET) {
        uint32_t d = wg_reg_alloc(x, n);
        for (uint32_t k = 0; k < n; k++) {
            wg_ins *i = wg_emit(x, is_cmp(e->op) ? OP_CMP : OP_BITS);
            i->d = d + k, i->a = ra + k, i->b = rb + k;
            i->n = (uint16_t)kind_of(x, s);
            switch (e->op) {
            case TK_LT: i->sub = CMP_LT; break;
            case TK_LE: i->sub = CMP_LE; break;
            case TK_GT: i->sub = CMP_GT; break;
            case TK_GE: i->sub = CMP_GE; break;
            case TK_EQ: i->sub = CMP_EQ; break;
            case TK_NE: i->sub = CMP_NE; break;
            case TK_AMP: i->sub = BITS_AND; break;
            case TK_PIPE: i->sub = BITS_OR; break;
            default: i->sub = BITS_XOR; break;
            }
        }
        return (wg_val){.kind = V_REG, .type = rtype, .reg = d};
    }
    bool f32 = kind_of(x, s) == TY_F32 || kind_of(x, s) == TY_F16; /* f16 too */
    if (e->op == TK_PLUS && f32 && (a.mul || b.mul)) {
        /* a * b + c or c + a * b: the math layer's mul_add / add_mul, which
         * round twice or once as the profile's device does */
        const wg_val *p = a.mul ? &a : &b;
        uint32_t args3[3] = {p->mul_a, p->mul_b, a.mul ? rb : ra};
        uint32_t d = wg_emit_math(x, a.mul ? "mul_add" : "add_mul", type, args3, 3, type, e->loc);
        return (wg_val){.kind = V_REG, .type = type, .reg = d};
    }
    uint32_t args[2] = {ra, rb};
    uint32_t d = wg_emit_math(x, math_op_name(e->op), type, args, 2, type, e->loc);
    wg_val r = {.kind = V_REG, .type = type, .reg = d};
    if (e->op == TK_STAR && f32)
        r.mul = true, r.mul_a = ra, r.mul_b = rb;
    return r;
}

/* ---- matrices (matCxR<f32>: C columns of R registers each, column-major) ---- */

/* d = a <op> b on one f32 word, through the math layer ("add", "sub", "mul"). */
/* The scalar of a matrix type (f32, f16 or AbstractFloat). */
static int scalar_of_mat(wg_ctx *x, int t)
{
    return wg_ty(TS(x), wg_ty(TS(x), t)->elem)->elem;
}

/* d = a op b on one f32 word, or one f16 word when h (matrices of f16). */
static void f32_op(wg_ctx *x, const char *op, uint32_t d, uint32_t a, uint32_t b, bool h,
                   wg_loc loc)
{
    stex_math_fn fn;
    const char *sig = h ? "f16,f16->f16" : "f32,f32->f32";
    if (!stex_math_fn_find(op, sig, &fn)) {
        WG_ERR(x, loc, "builtin", "no overload %s(%s) in the math layer", op, sig);
        return;
    }
    wg_ins *i = wg_emit(x, OP_MATH);
    i->d = d, i->a = a, i->b = b, i->imm = (uint32_t)fn, i->n = 2;
    i->sub = !h; /* sub = 1: the interpreter's f32 path (wg_emit_math) */
}

/* d = sum over k < n of a[k * as] * b[k * bs], one component of a matrix
 * product.  WGSL leaves the order and the fusing open; the profile's rule
 * picks: each product and sum rounded, added left to right
 * ((a0 b0 + a1 b1) + a2 b2) + a3 b3, or fma(a0, b0, fma(a1, b1, ... a3 b3))
 * with the profile's fma(). */
static void f32_dot(wg_ctx *x, uint32_t d, uint32_t a, uint32_t as, uint32_t b, uint32_t bs,
                    uint32_t n, bool h, wg_loc loc)
{
    if (x->matmul == STEX_MATMUL_FMA_FROM_LAST) {
        f32_op(x, "mul", d, a + (n - 1) * as, b + (n - 1) * bs, h, loc);
        for (uint32_t k = n - 1; k-- > 0;) {
            uint32_t args[3] = {a + k * as, b + k * bs, d};
            uint32_t r = wg_emit_math(x, "fma", h ? T_F16 : T_F32, args, 3, h ? T_F16 : T_F32, loc);
            wg_ins *i = wg_emit(x, OP_MOV);
            i->d = d, i->a = r, i->n = 1;
        }
        return;
    }
    f32_op(x, "mul", d, a, b, h, loc);
    for (uint32_t k = 1; k < n; k++) {
        uint32_t p = wg_reg_alloc(x, 1);
        f32_op(x, "mul", p, a + k * as, b + k * bs, h, loc);
        f32_op(x, "add", d, d, p, h, loc);
    }
}

/* m + m, m - m, s * m, m * s, m * v, v * m, m * m (WGSL 8.7). */
static wg_val mat_binary(wg_ctx *x, const wg_expr *e, wg_val a, wg_val b)
{
    wg_types *ts = TS(x);
    const wg_type *ta = wg_ty(ts, a.type), *tb = wg_ty(ts, b.type);
    bool ma = ta->kind == TY_MAT, mb = tb->kind == TY_MAT;
    uint32_t la = wg_type_lanes(ts, a.type), lb = wg_type_lanes(ts, b.type);
    /* an AbstractInt scalar or vector converts to the matrix's float type */
    bool fa = ma || (la && (wg_type_is_float(ts, a.type) ||
                            wg_type_scalar(ts, a.type) == T_AINT));
    bool fb = mb || (lb && (wg_type_is_float(ts, b.type) ||
                            wg_type_scalar(ts, b.type) == T_AINT));
    /* the shapes: a's (columns, rows), b's; a vector on the left is a row */
    uint32_t ac = ma ? ta->n : la == 1 ? 0 : la, ar = ma ? wg_ty(ts, ta->elem)->n : 1;
    uint32_t bc = mb ? tb->n : 1, br = mb ? wg_ty(ts, tb->elem)->n : lb == 1 ? 0 : lb;
    bool ok = fa && fb;
    /* the scalar type: AbstractFloat when both are constant and abstract
     * (a const-expression on abstract matrices), f16 when either is f16
     * (the other must then be f16 or abstract), else f32 */
    bool abstract = a.kind == V_CONST && b.kind == V_CONST && wg_type_is_abstract(ts, a.type) &&
                    wg_type_is_abstract(ts, b.type);
    int sa = ma ? wg_ty(ts, ta->elem)->elem : wg_type_scalar(ts, a.type);
    int sb = mb ? wg_ty(ts, tb->elem)->elem : wg_type_scalar(ts, b.type);
    int rs = abstract ? T_AFLOAT : sa == T_F16 || sb == T_F16 ? T_F16 : T_F32;
    if (ok) {
        a = wg_convert(x, a, wg_type_with_scalar(ts, a.type, rs), e->a->loc, "the left operand");
        b = wg_convert(x, b, wg_type_with_scalar(ts, b.type, rs), e->b->loc, "the right operand");
        if (a.kind == V_ERROR || b.kind == V_ERROR)
            return wg_error_val();
        ta = wg_ty(ts, a.type), tb = wg_ty(ts, b.type);
    }
    int rtype = -1;
    if (ok && (e->op == TK_PLUS || e->op == TK_MINUS))
        ok = a.type == b.type, rtype = a.type;
    else if (ok && e->op == TK_STAR && (la == 1 || lb == 1))
        rtype = ma ? a.type : b.type; /* scalar * matrix */
    else if (ok && e->op == TK_STAR && ac == br && ac)
        rtype = ma && mb ? wg_type_mat_of(ts, rs, bc, ar)
              : ma ? wg_type_vec(ts, rs, ar) : wg_type_vec(ts, rs, bc);
    else
        ok = false;
    if (!ok || rtype < 0) {
        WG_ERR(x, e->loc, "type-mismatch", "'%s' cannot take %s and %s", wg_tok_spelling(e->op),
               wg_tname(x, a.type), wg_tname(x, b.type));
        return wg_error_val();
    }
    if (a.kind == V_CONST && b.kind == V_CONST) /* a const-expression */
        return wg_mat_fold(x, e->op, a, b, rtype, e->loc);
    uint32_t ra = wg_to_reg(x, a, e->a->loc), rb = wg_to_reg(x, b, e->b->loc);
    const wg_type *rt = wg_ty(ts, rtype);
    bool h = rs == T_F16;
    uint32_t d = wg_reg_alloc(x, rt->words);
    if (e->op != TK_STAR) {
        for (uint32_t k = 0; k < rt->words; k++)
            f32_op(x, e->op == TK_PLUS ? "add" : "sub", d + k, ra + k, rb + k, h, e->loc);
    } else if (la == 1 || lb == 1) {
        for (uint32_t k = 0; k < rt->words; k++)
            f32_op(x, "mul", d + k, la == 1 ? ra : ra + k, lb == 1 ? rb : rb + k, h, e->loc);
    } else if (ma && mb) { /* column c of A * B is A * (column c of B) */
        for (uint32_t c = 0; c < bc; c++)
            for (uint32_t r = 0; r < ar; r++)
                f32_dot(x, d + c * ar + r, ra + r, ar, rb + c * br, 1, ac, h, e->loc);
    } else if (ma) { /* (m * v)[r] = sum over c of m[c][r] * v[c] */
        for (uint32_t r = 0; r < ar; r++)
            f32_dot(x, d + r, ra + r, ar, rb, 1, ac, h, e->loc);
    } else { /* (v * m)[c] = sum over r of v[r] * m[c][r] = dot(v, m[c]) */
        for (uint32_t c = 0; c < bc; c++)
            f32_dot(x, d + c, ra, 1, rb + c * br, 1, br, h, e->loc);
    }
    return (wg_val){.kind = V_REG, .type = rtype, .reg = d};
}

static wg_val unary(wg_ctx *x, const wg_expr *e)
{
    wg_val v = wg_expr_lower(x, e->a);
    if (v.kind == V_ERROR)
        return v;
    wg_types *ts = TS(x);
    if (e->op == TK_AMP) {
        if (v.kind != V_REF) {
            WG_ERR(x, e->loc, "address-of-expr", "'&' needs a variable or a part of one");
            return wg_error_val();
        }
        int pt = wg_type_ptr(ts, v.ref.space, v.type, v.ref.access);
        return (wg_val){.kind = V_PTR, .type = pt, .ref = v.ref};
    }
    if (e->op == TK_STAR) {
        if (v.kind != V_PTR) {
            WG_ERR(x, e->loc, "indirection-expr", "'*' needs a pointer, not %s",
                   wg_tname(x, v.type));
            return wg_error_val();
        }
        return (wg_val){.kind = V_REF, .type = wg_ty(ts, v.type)->elem, .ref = v.ref};
    }
    v = wg_load(x, v, e->a->loc);
    if (v.kind == V_ERROR)
        return v;
    if (kind_of(x, v.type) == TY_MAT && e->op == TK_MINUS && v.kind == V_CONST) {
        uint32_t words = wg_ty(ts, v.type)->words;
        bool abstract = wg_type_is_abstract(ts, v.type);
        wg_cword *c = wg_cwords(x, words);
        for (uint32_t k = 0; k < words; k++) {
            if (abstract)
                c[k].f = -v.c[k].f;
            else
                c[k].u = v.c[k].u ^ 0x80000000u;
        }
        return (wg_val){.kind = V_CONST, .type = v.type, .c = c};
    }
    if (kind_of(x, v.type) == TY_MAT && e->op == TK_MINUS) { /* -m: each component */
        stex_math_fn fn;
        uint32_t words = wg_ty(ts, v.type)->words, src = wg_to_reg(x, v, e->a->loc);
        uint32_t d = wg_reg_alloc(x, words);
        bool h = scalar_of_mat(x, v.type) == T_F16;
        if (!stex_math_fn_find("neg", h ? "f16->f16" : "f32->f32", &fn)) {
            WG_ERR(x, e->loc, "builtin", "no overload neg in the math layer");
            return wg_error_val();
        }
        for (uint32_t k = 0; k < words; k++) {
            wg_ins *i = wg_emit(x, OP_MATH);
            i->d = d + k, i->a = src + k, i->imm = (uint32_t)fn, i->sub = !h, i->n = 1;
        }
        return (wg_val){.kind = V_REG, .type = v.type, .reg = d};
    }
    uint32_t n = wg_type_lanes(ts, v.type);
    int s = n ? wg_type_scalar(ts, v.type) : -1;
    wg_type_kind k = s >= 0 ? kind_of(x, s) : TY_VOID;
    bool ok = e->op == TK_BANG ? k == TY_BOOL
            : e->op == TK_MINUS ? (k == TY_F32 || k == TY_I32 || k == TY_AINT || k == TY_AFLOAT ||
                                   k == TY_F16)
                                : (k == TY_I32 || k == TY_U32 || k == TY_AINT);
    if (!ok) {
        WG_ERR(x, e->loc, "unary-expr", "'%s' cannot take %s", wg_tok_spelling(e->op),
               wg_tname(x, v.type));
        return wg_error_val();
    }
    if (v.kind == V_CONST) {
        wg_cword *c = wg_cwords(x, n);
        for (uint32_t i = 0; i < n; i++) {
            wg_cword w = v.c[i];
            if (e->op == TK_BANG)
                c[i].u = !w.u;
            else if (e->op == TK_TILDE)
                c[i] = k == TY_AINT ? (wg_cword){.i = ~w.i} : (wg_cword){.u = ~w.u};
            else if (k == TY_AINT)
                c[i].i = -w.i;
            else if (k == TY_AFLOAT)
                c[i].f = wg_afloat_const(x, -w.f);
            else if (k == TY_F32)
                c[i].u = wg_f32_const(x, w.u ^ 0x80000000u);
            else if (k == TY_F16)
                c[i].u = w.u ^ 0x8000u;
            else
                c[i].u = 0u - w.u;
        }
        return (wg_val){.kind = V_CONST, .type = v.type, .c = c};
    }
    if (e->op == TK_MINUS) {
        uint32_t d = wg_emit_math(x, "neg", v.type, &v.reg, 1, v.type, e->loc);
        return (wg_val){.kind = V_REG, .type = v.type, .reg = d};
    }
    uint32_t d = wg_reg_alloc(x, n);
    for (uint32_t i = 0; i < n; i++) {
        wg_ins *in = wg_emit(x, OP_BITS);
        in->d = d + i, in->a = v.reg + i, in->sub = e->op == TK_BANG ? BITS_LNOT : BITS_NOT;
    }
    return (wg_val){.kind = V_REG, .type = v.type, .reg = d};
}

/* Constant index of an expression, or -1 if it is not constant (-2 on an error). */
static int64_t const_index(wg_ctx *x, wg_val idx)
{
    if (idx.kind != V_CONST)
        return -1;
    wg_type_kind k = kind_of(x, idx.type);
    int64_t v = k == TY_AINT ? idx.c[0].i : k == TY_I32 ? (int64_t)(int32_t)idx.c[0].u : (int64_t)idx.c[0].u;
    return v < 0 ? -2 : v;
}

static wg_val index_expr(wg_ctx *x, const wg_expr *e)
{
    wg_val base = wg_expr_lower(x, e->a);
    wg_val idx = wg_load(x, wg_expr_lower(x, e->b), e->b->loc);
    if (base.kind == V_ERROR || idx.kind == V_ERROR)
        return wg_error_val();
    wg_types *ts = TS(x);
    if (!wg_type_is_integer(ts, idx.type) || !wg_type_is_scalar(ts, idx.type)) {
        WG_ERR(x, e->b->loc, "array-access-expr", "an index must be i32 or u32, not %s",
               wg_tname(x, idx.type));
        return wg_error_val();
    }
    if (base.kind == V_PTR) /* p[i]: a pointer indexes its target (pointer_composite_access) */
        base = (wg_val){.kind = V_REF, .type = wg_ty(ts, base.type)->elem, .ref = base.ref};
    const wg_type *t = wg_ty(ts, base.type);
    if (t->kind != TY_ARRAY && t->kind != TY_VEC && t->kind != TY_MAT) {
        WG_ERR(x, e->loc, "array-access-expr", "%s cannot be indexed", wg_tname(x, base.type));
        return wg_error_val();
    }
    int elem = t->elem;
    int64_t ci = const_index(x, idx);
    if (ci == -2 || (ci >= 0 && t->n && ci >= t->n)) {
        WG_ERR(x, e->b->loc, "array-access-expr", "index %lld is out of bounds of %s",
               (long long)(ci == -2 ? -1LL : ci), wg_tname(x, base.type));
        return wg_error_val();
    }
    if (base.kind == V_CONST && ci >= 0) {
        uint32_t w = wg_ty(ts, elem)->words;
        return (wg_val){.kind = V_CONST, .type = elem, .c = base.c + ci * w};
    }
    if (base.kind == V_CONST)
        base = (wg_val){.kind = V_REG, .type = wg_type_concrete(ts, base.type),
                        .reg = wg_to_reg(x, base, e->a->loc)};
    if (base.kind == V_REG) {
        if (ci >= 0)
            return (wg_val){.kind = V_REG, .type = elem,
                            .reg = base.reg + (uint32_t)ci * wg_ty(ts, elem)->words};
        wg_ref r = {.space = SP_FUNCTION, .base = base.reg, .dyn = WG_NONE_REG};
        idx.type = idx.type == T_AINT ? T_I32 : idx.type;
        wg_ref er = wg_ref_index(x, &r, wg_ty(ts, base.type), wg_to_reg(x, idx, e->b->loc),
                                 e->loc);
        return wg_load(x, (wg_val){.kind = V_REF, .type = wg_ty(ts, base.type)->elem, .ref = er},
                       e->loc);
    }
    /* a reference */
    wg_ref r = base.ref;
    bool regs = r.space == SP_FUNCTION || r.space == SP_PRIVATE;
    if (ci >= 0) {
        uint32_t stride = regs ? wg_ty(ts, elem)->words
                               : (t->kind == TY_VEC ? wg_ty(ts, elem)->size : t->stride) /
                                     wg_ref_unit(&r);
        r.base += (uint32_t)ci * stride;
    } else {
        r = wg_ref_index(x, &r, t, wg_to_reg(x, idx, e->b->loc), e->loc);
    }
    return (wg_val){.kind = V_REF, .type = elem, .ref = r};
}

static int swizzle_index(char c)
{
    switch (c) {
    case 'x': case 'r': return 0;
    case 'y': case 'g': return 1;
    case 'z': case 'b': return 2;
    case 'w': case 'a': return 3;
    default: return -1;
    }
}

static wg_val member_expr(wg_ctx *x, const wg_expr *e)
{
    wg_val base = wg_expr_lower(x, e->a);
    if (base.kind == V_ERROR)
        return base;
    wg_types *ts = TS(x);
    if (base.kind == V_PTR) /* p.x on a pointer: WGSL 8.14 lets a pointer be used directly */
        base = (wg_val){.kind = V_REF, .type = wg_ty(ts, base.type)->elem, .ref = base.ref};
    const wg_type *t = wg_ty(ts, base.type);
    bool regs = base.kind != V_REF || base.ref.space == SP_FUNCTION ||
                base.ref.space == SP_PRIVATE;
    if (t->kind == TY_STRUCT) {
        for (uint32_t i = 0; i < t->nmembers; i++) {
            const wg_member *m = &t->members[i];
            if (strcmp(m->name, e->name))
                continue;
            switch (base.kind) {
            case V_CONST: return (wg_val){.kind = V_CONST, .type = m->type, .c = base.c + m->word};
            case V_REG: return (wg_val){.kind = V_REG, .type = m->type, .reg = base.reg + m->word};
            default: {
                wg_ref r = base.ref;
                r.base += regs ? m->word : m->offset / wg_ref_unit(&r);
                return (wg_val){.kind = V_REF, .type = m->type, .ref = r};
            }
            }
        }
        WG_ERR(x, e->loc, "struct-access-expr", "struct %s has no member '%s'", t->name, e->name);
        return wg_error_val();
    }
    if (t->kind != TY_VEC) {
        WG_ERR(x, e->loc, "member-access", "%s has no member '%s'", wg_tname(x, base.type),
               e->name);
        return wg_error_val();
    }
    size_t len = strlen(e->name);
    int comp[4];
    bool rgba = strchr("rgba", e->name[0]) != NULL;
    for (size_t i = 0; i < len; i++) {
        comp[i < 4 ? i : 3] = swizzle_index(e->name[i]);
        if (len > 4 || comp[i] < 0 || comp[i] >= (int)t->n ||
            (strchr("rgba", e->name[i]) != NULL) != rgba) {
            WG_ERR(x, e->loc, "vector-access-expr", "'%s' is not a swizzle of %s", e->name,
                   wg_tname(x, base.type));
            return wg_error_val();
        }
    }
    if (len == 1 && base.kind == V_REF) {
        wg_ref r = base.ref;
        r.base += regs ? (uint32_t)comp[0]
                       : (uint32_t)comp[0] * wg_ty(ts, t->elem)->size / wg_ref_unit(&r);
        return (wg_val){.kind = V_REF, .type = t->elem, .ref = r};
    }
    base = wg_load(x, base, e->a->loc);
    int rt = len == 1 ? t->elem : wg_type_vec(ts, t->elem, (uint32_t)len);
    if (base.kind == V_CONST) {
        wg_cword *c = wg_cwords(x, (uint32_t)len);
        for (size_t i = 0; i < len; i++)
            c[i] = base.c[comp[i]];
        return (wg_val){.kind = V_CONST, .type = rt, .c = c};
    }
    if (len == 1)
        return (wg_val){.kind = V_REG, .type = rt, .reg = base.reg + (uint32_t)comp[0]};
    bool in_order = true;
    for (size_t i = 0; i < len; i++)
        in_order &= comp[i] == comp[0] + (int)i;
    if (in_order)
        return (wg_val){.kind = V_REG, .type = rt, .reg = base.reg + (uint32_t)comp[0]};
    uint32_t d = wg_reg_alloc(x, (uint32_t)len);
    for (size_t i = 0; i < len; i++) {
        wg_ins *in = wg_emit(x, OP_MOV);
        in->d = d + (uint32_t)i, in->a = base.reg + (uint32_t)comp[i], in->n = 1;
    }
    return (wg_val){.kind = V_REG, .type = rt, .reg = d};
}

static wg_val identifier(wg_ctx *x, const wg_expr *e)
{
    int32_t local = wg_local_index(x, e->name);
    if (local >= 0) {
        if ((uint32_t)local >= x->skipped_from && (uint32_t)local < x->skipped_to)
            WG_ERR(x, e->loc, "continue-statement", "a 'continue' of this loop skips the "
                   "declaration of '%s', so its continuing block cannot use it", e->name);
        return x->syms[local].val;
    }
    wg_global *g = wg_global_find(x, e->name, e->loc);
    if (!g) {
        if (!wg_names_type(x, e->name))
            WG_ERR(x, e->loc, "identifier", "unknown identifier '%s'", e->name);
        else
            WG_ERR(x, e->loc, "identifier", "type '%s' used as a value", e->name);
        return wg_error_val();
    }
    if (g->decl->kind == D_FN) {
        WG_ERR(x, e->loc, "identifier", "function '%s' used as a value", e->name);
        return wg_error_val();
    }
    if (g->decl->kind == D_STRUCT || g->decl->kind == D_ALIAS) {
        WG_ERR(x, e->loc, "identifier", "type '%s' used as a value", e->name);
        return wg_error_val();
    }
    x->pending_uses += g->pending;
    x->override_uses += g->decl->kind == D_OVERRIDE;
    x->var_uses += g->decl->kind == D_VAR;
    return g->val;
}

wg_val wg_expr_lower(wg_ctx *x, const wg_expr *e)
{
    if (!wg_deeper(x, e->loc))
        return wg_error_val();
    wg_cword w;
    switch (e->kind) {
    case E_INT:
        w.i = e->ival;
        if (e->suffix == 'i' || e->suffix == 'u') {
            if (e->ival > (e->suffix == 'i' ? INT32_MAX : (int64_t)UINT32_MAX)) {
                WG_ERR(x, e->loc, "literal", "%lld%c is out of range", (long long)e->ival,
                       e->suffix);
                return wg_error_val();
            }
            w.u = (uint32_t)e->ival;
            return wg_const_scalar(x, e->suffix == 'i' ? T_I32 : T_U32, w);
        }
        if (e->suffix == 'f') {
            w.u = wg_f32_const(x, f_bits((float)e->ival));
            return wg_const_scalar(x, T_F32, w);
        }
        return wg_const_scalar(x, T_AINT, w);
    case E_FLOAT:
        if (e->suffix == 'h') { /* the nearest f16 (ties to even); past 65504: an error */
            if (!wg_need_f16(x, e->loc, "an f16 literal ('h' suffix)"))
                return wg_error_val();
            if (!stex_math_f16_from_double(e->fval, &w.u)) {
                WG_ERR(x, e->loc, "literal", "the literal overflows f16 (largest finite: 65504)");
                return wg_error_val();
            }
            return wg_const_scalar(x, T_F16, w);
        }
        if (e->suffix == 'f') {
            float f = (float)e->fval;
            if (isinf(f)) {
                WG_ERR(x, e->loc, "literal", "the literal overflows f32");
                return wg_error_val();
            }
            w.u = wg_f32_const(x, f_bits(f));
            return wg_const_scalar(x, T_F32, w);
        }
        w.f = wg_afloat_const(x, e->fval);
        return wg_const_scalar(x, T_AFLOAT, w);
    case E_BOOL:
        w.u = (uint32_t)e->ival;
        return wg_const_scalar(x, T_BOOL, w);
    case E_IDENT:
        if (e->ntargs) {
            WG_ERR(x, e->loc, "identifier", "'%s' with template arguments is a type, not a "
                   "value", e->name);
            return wg_error_val();
        }
        return identifier(x, e);
    case E_CALL:
        return wg_call_lower(x, e);
    case E_INDEX:
        return index_expr(x, e);
    case E_MEMBER:
        return member_expr(x, e);
    case E_UNARY:
        return unary(x, e);
    case E_BINARY:
        return binary(x, e);
    }
    return wg_error_val();
}
