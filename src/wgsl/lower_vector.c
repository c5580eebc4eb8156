/* Vector and matrix builtins (dot, cross, length, distance, normalize,
 * faceForward, reflect, refract, determinant, quantizeToF16) and the
 * arithmetic of constant matrices, built from the math layer's scalar
 * operations in a fixed order.  On constants every step is the math layer's
 * const evaluation (an error there is a compile error), so a const-
 * expression has exactly the value the same steps give at run time under
 * the spec profile; otherwise every step is emitted.  Sums run left to
 * right, as stex's matrix products do: ((a0 b0 + a1 b1) + a2 b2) + a3 b3. */
#include "wgsl/lower.h"

#include <stdlib.h>
#include <string.h>

static wg_types *TS(wg_ctx *x) { return x->types; }
static wg_type_kind kind_of(wg_ctx *x, int t) { return x->types->t[t].kind; }

/* The scalar at the bottom of a scalar, vector or matrix type. */
static int scalar_of(wg_ctx *x, int t)
{
    if (kind_of(x, t) == TY_MAT)
        t = x->types->t[t].elem;
    return wg_type_scalar(TS(x), t);
}

static bool abstract_kind(wg_type_kind k) { return k == TY_AINT || k == TY_AFLOAT; }

/* Component k of a scalar, vector or matrix value (column-major). */
static wg_val comp(wg_ctx *x, wg_val v, uint32_t k)
{
    int s = scalar_of(x, v.type);
    if (v.kind == V_CONST)
        return (wg_val){.kind = V_CONST, .type = s, .c = v.c + k};
    if (v.kind == V_REG)
        return (wg_val){.kind = V_REG, .type = s, .reg = v.reg + k};
    return wg_error_val();
}

/* A constant scalar of type s with the value v (small integers only). */
static wg_val number(wg_ctx *x, int s, int v)
{
    wg_cword w;
    switch (kind_of(x, s)) {
    case TY_AINT: w.i = v; break;
    case TY_AFLOAT: w.f = v; break;
    case TY_F32: {
        float f = (float)v;
        memcpy(&w.u, &f, 4);
        break;
    }
    default: w.u = (uint32_t)v; break;
    }
    return wg_const_scalar(x, s, w);
}

/* op (a math.def name) on n scalars of one type: folded or emitted. */
static wg_val sop(wg_ctx *x, const char *op, const wg_val *a, uint32_t n, wg_loc loc)
{
    bool all_const = true;
    for (uint32_t i = 0; i < n; i++) {
        if (a[i].kind == V_ERROR)
            return a[i];
        all_const &= a[i].kind == V_CONST;
    }
    int s = a[0].type;
    if (all_const) {
        wg_cword in[4], out[2];
        for (uint32_t i = 0; i < n; i++)
            in[i] = a[i].c[0];
        wg_type_kind k = kind_of(x, s);
        bool ok = abstract_kind(k) ? wg_const_abstract_word(x, op, k == TY_AINT, in, n, out, loc)
                                   : wg_const_word(x, op, k, in, n, out, 1, loc);
        return ok ? wg_const_scalar(x, s, out[0]) : wg_error_val();
    }
    int cs = wg_type_concrete(TS(x), s);
    uint32_t regs[3];
    for (uint32_t i = 0; i < n && i < 3; i++)
        regs[i] = wg_to_reg(x, a[i], loc);
    uint32_t d = wg_emit_math(x, op, cs, regs, n, cs, loc);
    return (wg_val){.kind = V_REG, .type = cs, .reg = d};
}

static wg_val bin(wg_ctx *x, const char *op, wg_val a, wg_val b, wg_loc loc)
{
    wg_val v[2] = {a, b};
    return sop(x, op, v, 2, loc);
}

static wg_val un(wg_ctx *x, const char *op, wg_val a, wg_loc loc)
{
    return sop(x, op, &a, 1, loc);
}

/* A value of `type` from its components. */
static wg_val gather(wg_ctx *x, int type, const wg_val *c, uint32_t n, wg_loc loc)
{
    bool all_const = true;
    for (uint32_t k = 0; k < n; k++) {
        if (c[k].kind == V_ERROR)
            return c[k];
        all_const &= c[k].kind == V_CONST;
    }
    if (all_const) {
        wg_cword *w = wg_cwords(x, n);
        for (uint32_t k = 0; k < n; k++)
            w[k] = c[k].c[0];
        return (wg_val){.kind = V_CONST, .type = type, .c = w};
    }
    int ct = wg_type_concrete(TS(x), type);
    uint32_t d = wg_reg_alloc(x, n);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t r = wg_to_reg(x, c[k], loc);
        wg_ins *i = wg_emit(x, OP_MOV);
        i->d = d + k, i->a = r, i->n = 1;
    }
    return (wg_val){.kind = V_REG, .type = ct, .reg = d};
}

/* sum over k < n of a[k * as] * b[k * bs], left to right */
static wg_val dot_n(wg_ctx *x, wg_val a, uint32_t a0, uint32_t as, wg_val b, uint32_t b0,
                    uint32_t bs, uint32_t n, wg_loc loc)
{
    wg_val d = bin(x, "mul", comp(x, a, a0), comp(x, b, b0), loc);
    for (uint32_t k = 1; k < n; k++)
        d = bin(x, "add", d, bin(x, "mul", comp(x, a, a0 + k * as), comp(x, b, b0 + k * bs),
                                 loc), loc);
    return d;
}

/* Whether the constant scalar v is less than 0. */
static bool const_negative(wg_ctx *x, wg_val v)
{
    wg_type_kind k = kind_of(x, v.type);
    float g;
    memcpy(&g, &v.c[0].u, 4);
    return k == TY_AFLOAT ? v.c[0].f < 0 : k == TY_AINT ? v.c[0].i < 0
         : k == TY_I32 ? (int32_t)v.c[0].u < 0 : k == TY_F32 && g < 0;
}

/* v < 0 ? t : f on scalars. */
static wg_val if_negative(wg_ctx *x, wg_val v, wg_val t, wg_val f, wg_loc loc)
{
    if (v.kind == V_ERROR || t.kind == V_ERROR || f.kind == V_ERROR)
        return wg_error_val();
    if (v.kind == V_CONST)
        return const_negative(x, v) ? t : f;
    uint32_t rv = wg_to_reg(x, v, loc), z = wg_to_reg(x, number(x, v.type, 0), loc);
    uint32_t rt = wg_to_reg(x, t, loc), rf = wg_to_reg(x, f, loc);
    uint32_t c = wg_reg_alloc(x, 1), d = wg_reg_alloc(x, 1);
    wg_ins *i = wg_emit(x, OP_CMP);
    i->d = c, i->a = rv, i->b = z, i->sub = CMP_LT, i->n = (uint16_t)kind_of(x, v.type);
    i = wg_emit(x, OP_SELECT);
    i->d = d, i->a = rf, i->b = rt, i->c = c, i->n = 1;
    return (wg_val){.kind = V_REG, .type = v.type, .reg = d};
}

/* select(v, v's sign bit alone, abs(v) < 2^-14): f32 v, an f16 value. */
static wg_val flush_f16_subnormal(wg_ctx *x, wg_val v, wg_loc loc)
{
    wg_val mag = un(x, "abs", v, loc);
    if (mag.kind == V_ERROR)
        return mag;
    uint32_t rm = wg_to_reg(x, mag, loc);
    uint32_t least = wg_to_reg(x, wg_const_scalar(x, T_F32, (wg_cword){.u = 0x38800000u}), loc);
    uint32_t sign = wg_to_reg(x, wg_const_scalar(x, T_U32, (wg_cword){.u = 0x80000000u}), loc);
    uint32_t c = wg_reg_alloc(x, 1), z = wg_reg_alloc(x, 1), d = wg_reg_alloc(x, 1);
    wg_ins *i = wg_emit(x, OP_CMP);
    i->d = c, i->a = rm, i->b = least, i->sub = CMP_LT, i->n = TY_F32;
    i = wg_emit(x, OP_BITS);
    i->d = z, i->a = v.reg, i->b = sign, i->sub = BITS_AND, i->n = TY_U32;
    i = wg_emit(x, OP_SELECT);
    i->d = d, i->a = v.reg, i->b = z, i->c = c, i->n = 1;
    return (wg_val){.kind = V_REG, .type = T_F32, .reg = d};
}

/* The determinant of the n x n matrix whose element (i, j) is component
 * m0 + rows[i] * stride + cols[j], by cofactors along the first row. */
static wg_val det(wg_ctx *x, wg_val m, uint32_t stride, const uint32_t *rows,
                  const uint32_t *cols, uint32_t n, wg_loc loc)
{
    if (n == 1)
        return comp(x, m, rows[0] * stride + cols[0]);
    if (n == 2) {
        wg_val a = comp(x, m, rows[0] * stride + cols[0]), b = comp(x, m, rows[0] * stride + cols[1]);
        wg_val c = comp(x, m, rows[1] * stride + cols[0]), d = comp(x, m, rows[1] * stride + cols[1]);
        return bin(x, "sub", bin(x, "mul", a, d, loc), bin(x, "mul", b, c, loc), loc);
    }
    wg_val sum = {.kind = V_ERROR};
    for (uint32_t j = 0; j < n; j++) {
        uint32_t sub_cols[3], k = 0;
        for (uint32_t c = 0; c < n; c++)
            if (c != j)
                sub_cols[k++] = cols[c];
        wg_val term = bin(x, "mul", comp(x, m, rows[0] * stride + cols[j]),
                          det(x, m, stride, rows + 1, sub_cols, n - 1, loc), loc);
        sum = j == 0 ? term : bin(x, j % 2 ? "sub" : "add", sum, term, loc);
    }
    return sum;
}

static const char *const VECTOR_BUILTINS[] = {
    "dot", "cross", "length", "distance", "normalize", "faceForward", "reflect", "refract",
    "determinant", "quantizeToF16", NULL};

bool wg_is_vector_builtin(const char *name)
{
    for (int i = 0; VECTOR_BUILTINS[i]; i++)
        if (!strcmp(name, VECTOR_BUILTINS[i]))
            return true;
    return false;
}

static wg_val no_overload(wg_ctx *x, const wg_expr *e, const char *name, int t)
{
    WG_ERR(x, e->loc, "builtin-functions", "%s has no overload for %s", name, wg_tname(x, t));
    return wg_error_val();
}

wg_val wg_vector_builtin(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    wg_types *ts = TS(x);
    uint32_t want = !strcmp(name, "length") || !strcmp(name, "normalize") ||
                    !strcmp(name, "determinant") || !strcmp(name, "quantizeToF16") ? 1
                  : !strcmp(name, "faceForward") || !strcmp(name, "refract") ? 3 : 2;
    if (e->nargs != want) {
        WG_ERR(x, e->loc, "builtin-functions", "%s takes %u argument%s, not %u", name, want,
               want == 1 ? "" : "s", e->nargs);
        return wg_error_val();
    }
    bool all_const = true;
    for (uint32_t i = 0; i < want; i++) {
        a[i] = wg_load(x, a[i], e->args[i]->loc);
        if (a[i].kind == V_ERROR)
            return a[i];
        all_const &= a[i].kind == V_CONST;
    }
    wg_loc loc = e->loc;
    if (!strcmp(name, "determinant")) {
        const wg_type *t = wg_ty(ts, a[0].type);
        if (t->kind != TY_MAT || wg_ty(ts, t->elem)->n != t->n)
            return no_overload(x, e, name, a[0].type);
        wg_val m = a[0];
        if (m.kind != V_CONST && wg_type_is_abstract(ts, m.type))
            m = wg_convert(x, m, wg_type_concrete(ts, m.type), loc, "the matrix");
        /* det(M) = det(transpose(M)): element (i, j) is column i's row j */
        static const uint32_t idx[4] = {0, 1, 2, 3};
        if (m.kind == V_CONST && x->const_rule == STEX_CONST_TINT) {
            /* Tint's const-eval (Det2..Det4 in its eval.cc) expands along the
             * first row - element (i, j) is column j's row i - each step
             * rounded in that order (const-determinant-4x4.wgsl) */
            uint32_t col_start[4] = {0, t->n, 2 * t->n, 3 * t->n};
            return det(x, m, 1, idx, col_start, t->n, loc);
        }
        return det(x, m, t->n, idx, idx, t->n, loc);
    }
    /* the common type: float vectors (dot: integer ones too); refract's
     * third argument is its scalar */
    uint32_t common = !strcmp(name, "refract") ? 2 : want;
    int t = a[0].type;
    for (uint32_t i = 1; i < common && t >= 0; i++)
        t = wg_common_type(x, t, a[i].type);
    uint32_t lanes = t >= 0 ? wg_type_lanes(ts, t) : 0;
    bool is_dot = !strcmp(name, "dot");
    int s = lanes ? wg_type_scalar(ts, t) : -1;
    /* an abstract int converts to an abstract float (WGSL 15.7.2) */
    if (!lanes || (!wg_type_is_float(ts, t) && s != T_AINT &&
                   !(is_dot && wg_type_is_integer(ts, t))))
        return no_overload(x, e, name, a[0].type);
    if (s == T_AINT && !is_dot)
        s = T_AFLOAT;
    if (!all_const || !strcmp(name, "quantizeToF16"))
        s = wg_type_concrete(ts, s);
    bool scalar_ok = !strcmp(name, "length") || !strcmp(name, "distance") ||
                     !strcmp(name, "quantizeToF16");
    if ((lanes == 1 && !scalar_ok) || (!strcmp(name, "cross") && lanes != 3))
        return no_overload(x, e, name, t);
    t = wg_type_with_scalar(ts, t, s);
    for (uint32_t i = 0; i < want; i++) {
        a[i] = wg_convert(x, a[i], i < common ? t : s, e->args[i]->loc, "the argument");
        if (a[i].kind == V_ERROR)
            return a[i];
    }
    wg_val r[4];
    if (is_dot)
        return dot_n(x, a[0], 0, 1, a[1], 0, 1, lanes, loc);
    if (!strcmp(name, "length") || !strcmp(name, "distance")) {
        wg_val v = a[0];
        if (name[0] == 'd') {
            for (uint32_t k = 0; k < lanes; k++)
                r[k] = bin(x, "sub", comp(x, a[0], k), comp(x, a[1], k), loc);
            v = gather(x, t, r, lanes, loc);
            if (v.kind == V_ERROR)
                return v;
        }
        if (lanes == 1) /* length of a scalar: |e| */
            return un(x, "abs", v, loc);
        return un(x, "sqrt", dot_n(x, v, 0, 1, v, 0, 1, lanes, loc), loc);
    }
    if (!strcmp(name, "normalize")) {
        wg_val len = un(x, "sqrt", dot_n(x, a[0], 0, 1, a[0], 0, 1, lanes, loc), loc);
        for (uint32_t k = 0; k < lanes; k++)
            r[k] = bin(x, "div", comp(x, a[0], k), len, loc);
        return gather(x, t, r, lanes, loc);
    }
    if (!strcmp(name, "cross")) {
        static const uint32_t p[3][2] = {{1, 2}, {2, 0}, {0, 1}};
        for (uint32_t k = 0; k < 3; k++)
            r[k] = bin(x, "sub",
                       bin(x, "mul", comp(x, a[0], p[k][0]), comp(x, a[1], p[k][1]), loc),
                       bin(x, "mul", comp(x, a[0], p[k][1]), comp(x, a[1], p[k][0]), loc), loc);
        return gather(x, t, r, 3, loc);
    }
    if (!strcmp(name, "faceForward")) { /* dot(e2, e3) < 0 ? e1 : -e1 */
        wg_val d = dot_n(x, a[1], 0, 1, a[2], 0, 1, lanes, loc);
        for (uint32_t k = 0; k < lanes; k++)
            r[k] = if_negative(x, d, comp(x, a[0], k), un(x, "neg", comp(x, a[0], k), loc), loc);
        return gather(x, t, r, lanes, loc);
    }
    if (!strcmp(name, "reflect")) { /* e1 - 2 dot(e2, e1) e2 */
        wg_val d = bin(x, "mul", number(x, s, 2), dot_n(x, a[1], 0, 1, a[0], 0, 1, lanes, loc),
                       loc);
        for (uint32_t k = 0; k < lanes; k++)
            r[k] = bin(x, "sub", comp(x, a[0], k), bin(x, "mul", d, comp(x, a[1], k), loc), loc);
        return gather(x, t, r, lanes, loc);
    }
    if (!strcmp(name, "refract")) {
        /* k = 1 - e3 e3 (1 - d d), d = dot(e2, e1); k < 0: 0, else
         * e3 e1 - (e3 d + sqrt(k)) e2 */
        wg_val one = number(x, s, 1), e3 = a[2];
        wg_val d = dot_n(x, a[1], 0, 1, a[0], 0, 1, lanes, loc);
        wg_val k = bin(x, "sub", one, bin(x, "mul", bin(x, "mul", e3, e3, loc),
                                          bin(x, "sub", one, bin(x, "mul", d, d, loc), loc),
                                          loc), loc);
        if (k.kind == V_ERROR)
            return k;
        bool k_const = k.kind == V_CONST;
        if (k_const && const_negative(x, k)) {
            for (uint32_t l = 0; l < lanes; l++)
                r[l] = number(x, s, 0);
            return gather(x, t, r, lanes, loc);
        }
        /* at run time sqrt(k) of a negative k is NaN, and unused */
        wg_val f = bin(x, "add", bin(x, "mul", e3, d, loc), un(x, "sqrt", k, loc), loc);
        for (uint32_t l = 0; l < lanes; l++) {
            wg_val v = bin(x, "sub", bin(x, "mul", e3, comp(x, a[0], l), loc),
                           bin(x, "mul", f, comp(x, a[1], l), loc), loc);
            r[l] = k_const ? v : if_negative(x, k, number(x, s, 0), v, loc);
        }
        return gather(x, t, r, lanes, loc);
    }
    /* quantizeToF16: each component through f16 (pack2x16float, then back) */
    stex_math_fn pack, unpack;
    if (!stex_math_fn_find("pack2x16float", "vec2<f32>->u32", &pack) ||
        !stex_math_fn_find("unpack2x16float", "u32->vec2<f32>", &unpack)) {
        WG_ERR(x, loc, "builtin-functions", "quantizeToF16 needs pack2x16float in the math layer");
        return wg_error_val();
    }
    for (uint32_t k = 0; k < lanes; k++) {
        wg_val c = comp(x, a[0], k);
        if (c.kind == V_CONST) {
            uint32_t in[2] = {c.c[0].u, 0}, h, out[2];
            /* WGSL's rounding to f16 under every rule: Dawn's quantizeToF16
             * was not measured */
            if (stex_math_eval_const(STEX_CONST_WGSL, pack, false, in, &h) != STEX_OK ||
                stex_math_eval_const(STEX_CONST_WGSL, unpack, false, &h, out) != STEX_OK) {
                WG_ERR(x, loc, "const-eval", "quantizeToF16 in a const-expression: %s",
                       stex_last_error());
                return wg_error_val();
            }
            r[k] = wg_const_scalar(x, T_F32, (wg_cword){.u = wg_f32_const(x, out[0])});
            continue;
        }
        uint32_t pair = wg_reg_alloc(x, 2), h = wg_reg_alloc(x, 1), o = wg_reg_alloc(x, 2);
        wg_ins *i = wg_emit(x, OP_MOV);
        i->d = pair, i->a = c.reg, i->n = 1;
        i = wg_emit(x, OP_CONST);
        i->d = pair + 1;
        i = wg_emit(x, OP_MATHV);
        i->d = h, i->a = pair, i->imm = (uint32_t)pack;
        i = wg_emit(x, OP_MATHV);
        i->d = o, i->a = h, i->imm = (uint32_t)unpack;
        r[k] = (wg_val){.kind = V_REG, .type = T_F32, .reg = o};
        if (x->quantize_ftz) /* an f16 subnormal (below 2^-14) becomes a zero of its sign */
            r[k] = flush_f16_subnormal(x, r[k], loc);
    }
    return gather(x, t, r, lanes, loc);
}

wg_val wg_mat_fold(wg_ctx *x, wg_tok_kind op, wg_val a, wg_val b, int rtype, wg_loc loc)
{
    wg_types *ts = TS(x);
    const wg_type *ta = wg_ty(ts, a.type), *tb = wg_ty(ts, b.type), *rt = wg_ty(ts, rtype);
    bool ma = ta->kind == TY_MAT, mb = tb->kind == TY_MAT;
    uint32_t la = wg_type_lanes(ts, a.type), lb = wg_type_lanes(ts, b.type);
    uint32_t n = rt->words;
    wg_val *r = calloc(n ? n : 1, sizeof *r);
    if (!r) {
        x->oom = true;
        return wg_error_val();
    }
    if (op == TK_PLUS || op == TK_MINUS) {
        for (uint32_t k = 0; k < n; k++)
            r[k] = bin(x, op == TK_PLUS ? "add" : "sub", comp(x, a, k), comp(x, b, k), loc);
    } else if (la == 1 || lb == 1) { /* scalar * matrix */
        for (uint32_t k = 0; k < n; k++)
            r[k] = bin(x, "mul", comp(x, a, la == 1 ? 0 : k), comp(x, b, lb == 1 ? 0 : k), loc);
    } else {
        uint32_t ar = ma ? wg_ty(ts, ta->elem)->n : 1, ac = ma ? ta->n : la;
        uint32_t br = mb ? wg_ty(ts, tb->elem)->n : lb, bc = mb ? tb->n : 1;
        if (ma && mb) /* column c of A * B is A * (column c of B) */
            for (uint32_t c = 0; c < bc; c++)
                for (uint32_t row = 0; row < ar; row++)
                    r[c * ar + row] = dot_n(x, a, row, ar, b, c * br, 1, ac, loc);
        else if (ma) /* (m * v)[r] = sum over c of m[c][r] * v[c] */
            for (uint32_t row = 0; row < ar; row++)
                r[row] = dot_n(x, a, row, ar, b, 0, 1, ac, loc);
        else /* (v * m)[c] = dot(v, m[c]) */
            for (uint32_t c = 0; c < bc; c++)
                r[c] = dot_n(x, a, 0, 1, b, c * br, 1, br, loc);
    }
    wg_val v = gather(x, rtype, r, n, loc);
    free(r);
    return v;
}
