/* Calls: constructors and conversions, the builtin functions (textures,
 * buffers, atomics, barriers, numeric builtins through the math layer), and
 * user functions (inlined by lower_stmt.c). */
#include "wgsl/lower.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shader/exec.h"
#include "shader/lanes.h"

enum { MAX_ARGS = 16 }; /* more than any builtin takes */

static wg_types *TS(wg_ctx *x) { return x->types; }
static wg_type_kind kind_of(wg_ctx *x, int t) { return x->types->t[t].kind; }

static bool lower_args(wg_ctx *x, const wg_expr *e, wg_val *v)
{
    bool ok = true;
    for (uint32_t i = 0; i < e->nargs; i++) {
        v[i] = wg_expr_lower(x, e->args[i]);
        /* read now: the arguments are evaluated left to right, and a later
         * one may call a function that writes this variable */
        if (v[i].kind == V_REF)
            v[i] = wg_load(x, v[i], e->args[i]->loc);
        ok &= v[i].kind != V_ERROR;
    }
    return ok;
}

static bool want_args(wg_ctx *x, const wg_expr *e, const char *name, uint32_t lo, uint32_t hi)
{
    if (e->nargs >= lo && e->nargs <= hi)
        return true;
    if (lo == hi)
        WG_ERR(x, e->loc, "builtin-functions", "%s takes %u argument%s, not %u", name, lo,
               lo == 1 ? "" : "s", e->nargs);
    else
        WG_ERR(x, e->loc, "builtin-functions", "%s takes %u to %u arguments, not %u", name, lo, hi,
               e->nargs);
    return false;
}

static wg_val reg_val(int type, uint32_t reg) { return (wg_val){.kind = V_REG, .type = type, .reg = reg}; }

/* ---- constructors ---- */

/* Scalar conversion of one register word: from scalar kind `from` to `to`. */
static void convert_word(wg_ctx *x, int from, int to, uint32_t src, uint32_t dst, wg_loc loc)
{
    wg_type_kind f = kind_of(x, from), t = kind_of(x, to);
    wg_ins *i;
    if (f == t) {
        i = wg_emit(x, OP_MOV);
        i->d = dst, i->a = src, i->n = 1;
        return;
    }
    if (t == TY_BOOL && f != TY_F16) { /* x != 0 */
        uint32_t z = wg_reg_alloc(x, 1);
        i = wg_emit(x, OP_CONST);
        i->d = z;
        i = wg_emit(x, OP_CMP);
        i->d = dst, i->a = src, i->b = z, i->sub = CMP_NE, i->n = (uint16_t)f;
        return;
    }
    if (f == TY_BOOL) { /* select(0, 1) in the target type */
        uint32_t one = wg_reg_alloc(x, 2);
        i = wg_emit(x, OP_CONST);
        i->d = one, i->imm = t == TY_F32 ? 0x3f800000u : t == TY_F16 ? 0x3c00u : 1u;
        i = wg_emit(x, OP_CONST);
        i->d = one + 1;
        i = wg_emit(x, OP_SELECT);
        i->d = dst, i->a = one + 1, i->b = one, i->c = src, i->n = 1;
        return;
    }
    static const char *const names[] = {[TY_I32] = "i32", [TY_U32] = "u32", [TY_F32] = "f32",
                                        [TY_BOOL] = "bool", [TY_F16] = "f16"};
    char sig[16];
    snprintf(sig, sizeof sig, "%s->%s", names[f], names[t]);
    stex_math_fn fn;
    if (!stex_math_fn_find("convert", sig, &fn)) {
        WG_ERR(x, loc, "conversion", "no conversion %s in the math layer", sig);
        return;
    }
    i = wg_emit(x, OP_MATH);
    i->d = dst, i->a = src, i->imm = (uint32_t)fn, i->n = 1;
}

/* An explicit conversion of a constant to or from f16 (f16(1.5f), i32(2.5h)...):
 * the math layer's conversion under spec; false (reported) where WGSL makes
 * it a shader-creation error: a value past f16's finite range. */
static bool const_convert_f16(wg_ctx *x, const wg_expr *e, int from, int to, wg_cword w,
                              wg_cword *out)
{
    wg_type_kind fk = kind_of(x, from), tk = kind_of(x, to);
    if (fk == TY_BOOL || tk == TY_BOOL) { /* bool(h) is h != 0; f16(b) is 1.0 or 0.0 */
        out->u = fk == TY_BOOL ? (w.u ? 0x3c00u : 0u)
                               : stex_math_f16_to_float(w.u) != 0.0f;
        return true;
    }
    static const char *const names[] = {[TY_I32] = "i32", [TY_U32] = "u32", [TY_F32] = "f32",
                                        [TY_F16] = "f16"};
    char sig[16];
    snprintf(sig, sizeof sig, "%s->%s", names[fk], names[tk]);
    stex_math_fn fn;
    uint32_t out2[2];
    if (!stex_math_fn_find("convert", sig, &fn) ||
        stex_math_eval(stex_profile_get(STEX_PROFILE_SPEC), fn, &w.u, out2) != STEX_OK) {
        WG_ERR(x, e->loc, "conversion", "no conversion %s in the math layer", sig);
        return false;
    }
    if (tk == TY_F16 && (out2[0] & 0x7c00u) == 0x7c00u) {
        WG_ERR(x, e->loc, "conversion-rank", "the value is out of range of f16 (largest finite: "
               "65504)");
        return false;
    }
    out->u = tk == TY_F32 ? wg_f32_const(x, out2[0]) : out2[0];
    return true;
}

/* Flattens constructor arguments into scalar words of scalar type s. */
static wg_val construct(wg_ctx *x, const wg_expr *e, int type, wg_val *args, uint32_t nargs)
{
    wg_types *ts = TS(x);
    const wg_type *t = wg_ty(ts, type);
    if (t->words > WG_MAX_VALUE_WORDS) { /* stex's registers and constants hold no larger value */
        wg_limit(x, e->loc, "a value of more than %u words (256 KiB): stex holds no larger "
                 "value in registers", WG_MAX_VALUE_WORDS);
        return wg_error_val();
    }
    if (nargs == 0) { /* the zero value */
        wg_cword *c = wg_cwords(x, t->words);
        return (wg_val){.kind = V_CONST, .type = type, .c = c};
    }
    if (t->kind == TY_MAT && nargs == 1) { /* matCxR<f32>(m): the same matrix */
        wg_val v = wg_load(x, args[0], e->args[0]->loc);
        if (v.kind == V_CONST && wg_type_converts(ts, v.type, type)) /* abstract -> f32 */
            v = wg_convert(x, v, type, e->args[0]->loc, "the matrix");
        const wg_type *vt = v.kind != V_ERROR ? wg_ty(ts, v.type) : NULL;
        if (vt && v.type != type && vt->kind == TY_MAT && vt->n == t->n &&
            wg_ty(ts, vt->elem)->n == wg_ty(ts, t->elem)->n) {
            /* f16 <-> f32: element by element, as the vector conversion */
            int from = wg_type_scalar(ts, vt->elem), to = wg_type_scalar(ts, t->elem);
            if (v.kind == V_CONST) {
                wg_cword *c = wg_cwords(x, t->words);
                for (uint32_t k = 0; k < t->words; k++)
                    if (!const_convert_f16(x, e, from, to, v.c[k], &c[k]))
                        return wg_error_val();
                return (wg_val){.kind = V_CONST, .type = type, .c = c};
            }
            uint32_t r = wg_to_reg(x, v, e->args[0]->loc), d = wg_reg_alloc(x, t->words);
            for (uint32_t k = 0; k < t->words; k++)
                convert_word(x, from, to, r + k, d + k, e->loc);
            return reg_val(type, d);
        }
        if (v.kind != V_ERROR && v.type != type) {
            WG_ERR(x, e->loc, "value-constructor", "%s cannot be made from %s",
                   wg_tname(x, type), wg_tname(x, v.type));
            return wg_error_val();
        }
        return v;
    }
    if (t->kind == TY_MAT && nargs != t->n) { /* from C * R scalars, column by column */
        if (nargs != t->words) {
            WG_ERR(x, e->loc, "value-constructor", "%s takes %u column vectors or %u f32 "
                   "values, not %u values", wg_tname(x, type), t->n, t->words, nargs);
            return wg_error_val();
        }
        bool all_const = true;
        int ms = wg_type_scalar(ts, t->elem); /* f32, or AbstractFloat */
        for (uint32_t i = 0; i < nargs; i++) {
            args[i] = wg_convert(x, wg_load(x, args[i], e->args[i]->loc), ms,
                                 e->args[i]->loc, "the value");
            if (args[i].kind == V_ERROR)
                return args[i];
            all_const &= args[i].kind == V_CONST;
        }
        if (all_const) { /* a const-expression */
            wg_cword *c = wg_cwords(x, t->words);
            for (uint32_t i = 0; i < nargs; i++)
                c[i] = args[i].c[0];
            return (wg_val){.kind = V_CONST, .type = type, .c = c};
        }
        uint32_t d = wg_reg_alloc(x, t->words);
        for (uint32_t i = 0; i < nargs; i++) {
            wg_val v = args[i];
            uint32_t r = wg_to_reg(x, v, e->args[i]->loc); /* before the move: may emit */
            wg_ins *in = wg_emit(x, OP_MOV);
            in->d = d + i, in->a = r, in->n = 1;
        }
        return reg_val(type, d);
    }
    if (t->kind == TY_ARRAY || t->kind == TY_STRUCT || t->kind == TY_MAT) {
        uint32_t need = t->kind == TY_STRUCT ? t->nmembers : t->n;
        if (nargs != need) {
            WG_ERR(x, e->loc, "value-constructor", "%s takes %u values, not %u",
                   wg_tname(x, type), need, nargs);
            return wg_error_val();
        }
        bool all_const = true;
        for (uint32_t i = 0; i < nargs; i++) {
            int mt = t->kind == TY_STRUCT ? t->members[i].type : t->elem;
            args[i] = wg_convert(x, wg_load(x, args[i], e->args[i]->loc), mt, e->args[i]->loc,
                                 "the value");
            if (args[i].kind == V_ERROR)
                return args[i];
            all_const &= args[i].kind == V_CONST;
        }
        if (all_const) {
            wg_cword *c = wg_cwords(x, t->words);
            uint32_t at = 0;
            for (uint32_t i = 0; i < nargs; i++) {
                uint32_t w = wg_ty(ts, args[i].type)->words;
                memcpy(c + at, args[i].c, w * sizeof *c);
                at += w;
            }
            return (wg_val){.kind = V_CONST, .type = type, .c = c};
        }
        uint32_t d = wg_reg_alloc(x, t->words), at = 0;
        for (uint32_t i = 0; i < nargs; i++) {
            uint32_t w = wg_ty(ts, args[i].type)->words;
            uint32_t r = wg_to_reg(x, args[i], e->args[i]->loc);
            wg_ins *in = wg_emit(x, OP_MOV);
            in->d = d + at, in->a = r, in->n = (uint16_t)w;
            at += w;
        }
        return reg_val(type, d);
    }
    /* scalars and vectors: components from scalars and vectors, or one conversion */
    uint32_t n = wg_type_lanes(ts, type);
    int s = wg_type_scalar(ts, type);
    uint32_t have = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        args[i] = wg_load(x, args[i], e->args[i]->loc);
        uint32_t l = wg_type_lanes(ts, args[i].type);
        if (!l) {
            WG_ERR(x, e->args[i]->loc, "value-constructor", "%s cannot be built from %s",
                   wg_tname(x, type), wg_tname(x, args[i].type));
            return wg_error_val();
        }
        have += l;
    }
    bool conversion = nargs == 1 && have == n;      /* f32(i), vec2<f32>(vec2<u32>) */
    bool splat = nargs == 1 && have == 1 && n > 1;  /* vec4<f32>(0.0) */
    if (!conversion && !splat && have != n) {
        WG_ERR(x, e->loc, "value-constructor", "%s needs %u components, not %u",
               wg_tname(x, type), n, have);
        return wg_error_val();
    }
    bool all_const = true;
    for (uint32_t i = 0; i < nargs; i++)
        all_const &= args[i].kind == V_CONST;
    if (!conversion) {
        /* components must convert automatically */
        for (uint32_t i = 0; i < nargs; i++) {
            int want = wg_type_with_scalar(ts, args[i].type, s);
            if (!wg_type_converts(ts, args[i].type, want)) {
                WG_ERR(x, e->args[i]->loc, "value-constructor", "%s cannot take a %s component",
                       wg_tname(x, type), wg_tname(x, args[i].type));
                return wg_error_val();
            }
            args[i] = wg_convert(x, args[i], want, e->args[i]->loc, "the component");
        }
    }
    if (all_const) {
        wg_cword *c = wg_cwords(x, n);
        if (conversion) {
            int from = wg_type_scalar(ts, args[0].type);
            for (uint32_t k = 0; k < n; k++) {
                wg_cword w = args[0].c[k];
                wg_type_kind fk = kind_of(x, from), tk = kind_of(x, s);
                if ((fk == TY_F16 || tk == TY_F16) && fk != tk && !wg_type_converts(ts, from, s)) {
                    if (!const_convert_f16(x, e, from, s, w, &c[k]))
                        return wg_error_val();
                } else if (!wg_type_converts(ts, from, s) && from != s) {
                    /* explicit conversion of constants: f32 <-> i32 <-> u32 <-> bool */
                    if (fk >= TY_I32 && fk <= TY_F32 && tk >= TY_I32 && tk <= TY_F32) {
                        /* f32 <-> i32 <-> u32: the math layer's const conversion */
                        char sig[16];
                        snprintf(sig, sizeof sig, "%s->%s", fk == TY_F32 ? "f32" : fk == TY_I32
                                 ? "i32" : "u32", tk == TY_F32 ? "f32" : tk == TY_I32 ? "i32"
                                 : "u32");
                        stex_math_fn fn;
                        if (stex_math_fn_find("convert", sig, &fn) &&
                            stex_math_eval_const(x->const_rule, fn, false, &w.u,
                                                 &c[k].u) == STEX_OK) {
                            wg_f32_results(x, fn, &c[k].u);
                            continue;
                        }
                        WG_ERR(x, e->loc, "const-eval", "%s(...) in a const-expression: %s",
                               wg_tname(x, s), stex_last_error());
                        return wg_error_val();
                    }
                    double v = fk == TY_F32 ? (double)((union { uint32_t u; float f; }){w.u}).f
                             : fk == TY_I32 ? (double)(int32_t)w.u
                             : fk == TY_AINT ? (double)w.i : fk == TY_AFLOAT ? w.f : (double)w.u;
                    if (tk == TY_BOOL)
                        c[k].u = v != 0;
                    else if (tk == TY_F32) {
                        float f = (float)v;
                        memcpy(&c[k].u, &f, 4);
                        c[k].u = wg_f32_const(x, c[k].u); /* f32(false) can be the first zero */
                    } else if (tk == TY_I32)
                        c[k].u = fk == TY_U32 ? w.u : (uint32_t)(int32_t)(v < -2147483648.0 ?
                                 -2147483648.0 : v > 2147483647.0 ? 2147483647.0 : v);
                    else
                        c[k].u = fk == TY_I32 ? w.u : (uint32_t)(v < 0 ? 0 : v > 4294967295.0 ?
                                 4294967295.0 : v);
                } else if (!wg_const_convert(x, &w, from, &c[k], s)) {
                    WG_ERR(x, e->loc, "conversion-rank", "the value is out of range of %s",
                           wg_tname(x, s));
                    return wg_error_val();
                }
            }
        } else {
            uint32_t at = 0;
            for (uint32_t i = 0; i < nargs; i++) {
                uint32_t l = wg_type_lanes(ts, args[i].type);
                for (uint32_t k = 0; k < l; k++)
                    c[at++] = args[i].c[k];
            }
            for (; at < n; at++)
                c[at] = c[0];
        }
        return (wg_val){.kind = V_CONST, .type = type, .c = c};
    }
    uint32_t d = wg_reg_alloc(x, n);
    if (conversion) {
        int from = wg_type_scalar(ts, args[0].type);
        if (wg_type_is_abstract(ts, args[0].type)) {
            args[0] = wg_convert(x, args[0], wg_type_with_scalar(ts, args[0].type, s),
                                 e->args[0]->loc, "the value");
            from = s;
        }
        uint32_t r = wg_to_reg(x, args[0], e->args[0]->loc);
        for (uint32_t k = 0; k < n; k++)
            convert_word(x, from, s, r + k, d + k, e->loc);
        return reg_val(type, d);
    }
    uint32_t at = 0;
    for (uint32_t i = 0; i < nargs; i++) {
        uint32_t l = wg_type_lanes(ts, args[i].type);
        uint32_t r = wg_to_reg(x, args[i], e->args[i]->loc);
        wg_ins *in = wg_emit(x, OP_MOV);
        in->d = d + at, in->a = r, in->n = (uint16_t)l;
        at += l;
    }
    for (; at < n; at++) { /* splat */
        wg_ins *in = wg_emit(x, OP_MOV);
        in->d = d + at, in->a = d, in->n = 1;
    }
    return reg_val(type, d);
}

/* The type a constructor call names, inferring vecN(...) and array(...) element types. */
static int constructor_type(wg_ctx *x, const wg_expr *callee, wg_val *args, uint32_t nargs)
{
    wg_types *ts = TS(x);
    const char *n = callee->name;
    bool vec = !strcmp(n, "vec2") || !strcmp(n, "vec3") || !strcmp(n, "vec4");
    if ((vec || !strcmp(n, "array")) && callee->ntargs == 0) {
        if (nargs == 0 && vec) /* vecN(): the zero vector of AbstractInt */
            return wg_type_vec(ts, T_AINT, (uint32_t)(n[3] - '0'));
        if (nargs == 0) {
            WG_ERR(x, callee->loc, "value-constructor", "%s() needs its element type: %s<T>()",
                   n, n);
            return -1;
        }
        int el = -1;
        for (uint32_t i = 0; i < nargs; i++) {
            int t = vec ? wg_type_scalar(ts, args[i].type) : args[i].type;
            if (vec && !wg_type_lanes(ts, args[i].type))
                return -1;
            el = el < 0 ? t : wg_common_type(x, el, t);
            if (el < 0) {
                WG_ERR(x, callee->loc, "value-constructor", "the arguments of %s() have no "
                       "common type", n);
                return -1;
            }
        }
        return vec ? wg_type_vec(ts, el, (uint32_t)(n[3] - '0')) : wg_type_array(ts, el, nargs);
    }
    uint32_t mc, mr;
    bool msh;
    if (wg_mat_name(n, &mc, &mr, &msh) && !msh && callee->ntargs == 0) {
        /* matCxR(...): AbstractFloat when every argument is an abstract
         * constant (or none is given), f16 when an argument is f16, else f32 */
        bool abstract = true, half = false;
        for (uint32_t i = 0; i < nargs; i++) {
            const wg_type *at = wg_ty(ts, args[i].type);
            int s = at->kind == TY_MAT ? wg_ty(ts, at->elem)->elem
                                       : wg_type_scalar(ts, args[i].type);
            abstract &= args[i].kind == V_CONST && wg_type_is_abstract(ts, args[i].type);
            half |= s == T_F16;
        }
        return wg_type_mat_of(ts, abstract && nargs ? T_AFLOAT : half ? T_F16 : T_F32, mc, mr);
    }
    return wg_resolve_type(x, callee);
}

/* ---- numeric builtins through the math layer ---- */

/* The numeric builtins and their parameter counts (WGSL 17.5, 17.6). */
static const struct numeric_builtin {
    const char *name;
    uint32_t nargs;
} NUMERIC[] = {
    {"abs", 1}, {"min", 2}, {"max", 2}, {"clamp", 3}, {"floor", 1}, {"ceil", 1},
    {"round", 1}, {"trunc", 1}, {"fract", 1}, {"sqrt", 1}, {"inverseSqrt", 1}, {"sin", 1},
    {"cos", 1}, {"tan", 1}, {"exp", 1}, {"exp2", 1}, {"log", 1}, {"log2", 1}, {"pow", 2},
    {"atan", 1}, {"atan2", 2}, {"asin", 1}, {"acos", 1}, {"sinh", 1}, {"cosh", 1},
    {"tanh", 1}, {"asinh", 1}, {"acosh", 1}, {"atanh", 1}, {"sign", 1}, {"saturate", 1},
    {"step", 2}, {"smoothstep", 3}, {"mix", 3}, {"fma", 3}, {"degrees", 1}, {"radians", 1},
    {"ldexp", 2}, {"countOneBits", 1}, {"reverseBits", 1}, {"countLeadingZeros", 1},
    {"countTrailingZeros", 1}, {"firstLeadingBit", 1}, {"firstTrailingBit", 1},
    {"extractBits", 3}, {"insertBits", 4}, {NULL, 0}};

static const struct numeric_builtin *numeric_builtin(const char *n)
{
    for (int i = 0; NUMERIC[i].name; i++)
        if (!strcmp(n, NUMERIC[i].name))
            return &NUMERIC[i];
    return NULL;
}

static bool is_numeric_builtin(const char *n) { return numeric_builtin(n) != NULL; }

/* Which overloads a numeric builtin has: float only; float and integer
 * (abs, clamp, max, min, sign: AbstractInt too); integer only (the bit
 * builtins: i32 and u32, so AbstractInt arguments become i32). */
typedef enum { B_FLOAT, B_MIXED, B_BITS } builtin_class;

static builtin_class class_of(const char *n)
{
    static const char *const mixed[] = {"abs", "clamp", "max", "min", "sign", NULL};
    for (int i = 0; mixed[i]; i++)
        if (!strcmp(n, mixed[i]))
            return B_MIXED;
    if (strstr(n, "Bits") || strstr(n, "Zeros") || strstr(n, "Bit"))
        return B_BITS;
    return B_FLOAT;
}

/* A numeric builtin on constant arguments (t: their common type): each
 * component through const_call.c. */
static wg_val numeric_const(wg_ctx *x, const wg_expr *e, const char *name, wg_val *args,
                            uint32_t n, int t, uint32_t common_n)
{
    wg_types *ts = TS(x);
    builtin_class cls = class_of(name);
    int es = wg_type_scalar(ts, t);
    if (es == T_AINT)
        es = cls == B_MIXED ? T_AINT : cls == B_BITS ? T_I32 : T_AFLOAT;
    bool ldexp = !strcmp(name, "ldexp");
    if (ldexp && es == T_AFLOAT && wg_type_scalar(ts, args[1].type) == T_I32)
        es = T_F32; /* ldexp(AbstractFloat, i32) is the f32 overload */
    wg_type_kind ek = kind_of(x, es);
    bool is_float = ek == TY_F32 || ek == TY_F16 || ek == TY_AFLOAT;
    if ((cls == B_BITS && is_float) || (cls == B_FLOAT && !is_float)) {
        WG_ERR(x, e->loc, "builtin-functions", "%s has no overload for %s", name,
               wg_tname(x, t));
        return wg_error_val();
    }
    uint32_t lanes = wg_type_lanes(ts, t);
    int rt = wg_type_with_scalar(ts, t, es);
    wg_val cv[4];
    for (uint32_t i = 0; i < n; i++) {
        int want_s = es;
        if (i >= common_n) /* ldexp's exponent; extractBits' / insertBits' offset, count */
            want_s = !ldexp ? T_U32 : es == T_AFLOAT ? T_AINT : T_I32;
        cv[i] = wg_convert(x, args[i], wg_type_with_scalar(ts, args[i].type, want_s),
                           e->args[i]->loc, "the argument");
        if (cv[i].kind == V_ERROR)
            return cv[i];
        uint32_t l = wg_type_lanes(ts, cv[i].type);
        if (l != 1 && l != lanes) {
            WG_ERR(x, e->args[i]->loc, "builtin-functions", "the arguments of %s have "
                   "different numbers of components", name);
            return wg_error_val();
        }
    }
    wg_cword *c = wg_cwords(x, lanes);
    for (uint32_t k = 0; k < lanes; k++) {
        wg_cword in[4];
        for (uint32_t i = 0; i < n; i++) {
            in[i] = cv[i].c[wg_type_lanes(ts, cv[i].type) == 1 ? 0 : k];
            if (ldexp && i == 1 && es == T_AFLOAT)
                in[i].f = (double)in[i].i;
        }
        bool ok = ek == TY_AINT || ek == TY_AFLOAT
                      ? wg_const_abstract_word(x, name, ek == TY_AINT, in, n, &c[k], e->loc)
                      : wg_const_word(x, name, ek, in, n, &c[k], 1, e->loc);
        if (!ok)
            return wg_error_val();
    }
    return (wg_val){.kind = V_CONST, .type = rt, .c = c};
}

/* Component c of constant v, as a double. */
static double const_value(wg_ctx *x, wg_val v, uint32_t c)
{
    wg_cword w = v.c[c];
    float f;
    memcpy(&f, &w.u, 4);
    switch (kind_of(x, wg_type_scalar(TS(x), v.type))) {
    case TY_AINT: return (double)w.i;
    case TY_AFLOAT: return w.f;
    case TY_I32: return (double)(int32_t)w.u;
    case TY_U32: return (double)w.u;
    case TY_F16: return (double)stex_math_f16_to_float(w.u);
    default: return (double)f;
    }
}

/* The shader-creation errors of a numeric builtin whose other arguments
 * are run-time values (WGSL 17.5, 17.6: "if ... are const-expressions"):
 * clamp's constant low above its constant high, extractBits' and
 * insertBits' constant offset + count past 32, ldexp's constant e2 past
 * the bias + 1 of e1's type.  cv: the arguments, converted. */
static bool partial_eval_ok(wg_ctx *x, const wg_expr *e, const char *name, const wg_val *cv,
                            uint32_t n, uint32_t lanes)
{
    if (!strcmp(name, "clamp") && cv[1].kind == V_CONST && cv[2].kind == V_CONST) {
        for (uint32_t c = 0; c < lanes; c++)
            if (const_value(x, cv[1], c) > const_value(x, cv[2], c)) {
                WG_ERR(x, e->loc, "const-eval", "clamp called with a constant 'low' (%g) "
                       "greater than its constant 'high' (%g)", const_value(x, cv[1], c),
                       const_value(x, cv[2], c));
                return false;
            }
    }
    bool bits = !strcmp(name, "extractBits") || !strcmp(name, "insertBits");
    if (bits && cv[n - 2].kind == V_CONST && cv[n - 1].kind == V_CONST &&
        (uint64_t)cv[n - 2].c[0].u + cv[n - 1].c[0].u > 32) {
        WG_ERR(x, e->loc, "const-eval", "%s with a constant offset %u and count %u: their sum "
               "passes 32", name, cv[n - 2].c[0].u, cv[n - 1].c[0].u);
        return false;
    }
    if (!strcmp(name, "ldexp") && cv[1].kind == V_CONST) {
        bool half = kind_of(x, wg_type_scalar(TS(x), cv[0].type)) == TY_F16;
        int32_t bias = half ? 15 : 127;
        for (uint32_t c = 0; c < lanes; c++)
            if ((int32_t)cv[1].c[c].u > bias + 1) {
                WG_ERR(x, e->loc, "const-eval", "ldexp with a constant e2 of %d: at most %d for "
                       "%s", (int32_t)cv[1].c[c].u, bias + 1, half ? "f16" : "f32");
                return false;
            }
    }
    return true;
}

static wg_val numeric(wg_ctx *x, const wg_expr *e, const char *name, wg_val *args, uint32_t n)
{
    wg_types *ts = TS(x);
    uint32_t want = numeric_builtin(name)->nargs;
    if (n != want) {
        WG_ERR(x, e->loc, "builtin-functions", "%s takes %u argument%s, not %u", name, want,
               want == 1 ? "" : "s", n);
        return wg_error_val();
    }
    /* the arguments' common type (the bit builtins' counts stay u32; ldexp's i32) */
    bool tail_u32 = !strcmp(name, "extractBits") || !strcmp(name, "insertBits");
    uint32_t common_n = !strcmp(name, "ldexp") ? 1 : !strcmp(name, "extractBits") ? 1
                      : !strcmp(name, "insertBits") ? 2 : n;
    for (uint32_t i = 0; i < n; i++)
        args[i] = wg_load(x, args[i], e->args[i]->loc);
    int t = args[0].type;
    for (uint32_t i = 1; i < common_n && t >= 0; i++) {
        uint32_t la = wg_type_lanes(ts, t), lb = wg_type_lanes(ts, args[i].type);
        if (la > 1 && lb == 1 && i == 2 && !strcmp(name, "mix"))
            continue; /* mix(vecN, vecN, f32): the blend factor, splatted below */
        t = wg_common_type(x, t, args[i].type);
    }
    if (t < 0 || !wg_type_is_numeric(ts, t)) {
        WG_ERR(x, e->loc, "builtin-functions", "no overload of %s for these arguments (%s%s%s)",
               name, wg_tname(x, args[0].type), n > 1 ? ", " : "",
               n > 1 ? wg_tname(x, args[1].type) : "");
        return wg_error_val();
    }
    bool all_const = true;
    for (uint32_t i = 0; i < n; i++)
        all_const &= args[i].kind == V_CONST;
    if (all_const && !strcmp(name, "clamp") &&
        !partial_eval_ok(x, e, name, args, n, wg_type_lanes(ts, t)))
        return wg_error_val();
    if (all_const) /* a const-expression (or an override-expression) */
        return numeric_const(x, e, name, args, n, t, common_n);
    uint32_t lanes = wg_type_lanes(ts, t);
    /* concrete: materialise abstract arguments */
    int ct = wg_type_concrete(ts, t);
    int cs = wg_type_scalar(ts, ct);
    uint32_t regs[4];
    wg_val cv[4];
    for (uint32_t i = 0; i < n; i++) {
        int want = i < common_n ? ct : tail_u32 ? T_U32 : !strcmp(name, "ldexp")
                                                          ? wg_type_with_scalar(ts, ct, T_I32) : ct;
        if (wg_type_lanes(ts, args[i].type) == 1 && lanes > 1 && i < common_n)
            want = cs; /* a scalar argument of mix/step/clamp, splatted */
        if (tail_u32 && i >= common_n)
            want = T_U32;
        wg_val a = wg_convert(x, args[i], want, e->args[i]->loc, "the argument");
        if (a.kind == V_ERROR)
            return a;
        cv[i] = a;
        regs[i] = wg_to_reg(x, a, e->args[i]->loc);
        if (wg_type_lanes(ts, a.type) == 1 && lanes > 1) { /* splat */
            uint32_t d = wg_reg_alloc(x, lanes);
            for (uint32_t k = 0; k < lanes; k++) {
                wg_ins *in = wg_emit(x, OP_MOV);
                in->d = d + k, in->a = regs[i], in->n = 1;
            }
            regs[i] = d;
        }
    }
    if (!partial_eval_ok(x, e, name, cv, n, lanes))
        return wg_error_val();
    wg_type_kind sk = kind_of(x, cs);
    /* integer overloads the math table leaves out: exact, done here */
    if (sk != TY_F32 && sk != TY_F16 &&
        (!strcmp(name, "max") || (!strcmp(name, "abs") && sk == TY_U32))) {
        uint32_t d = wg_reg_alloc(x, lanes);
        for (uint32_t k = 0; k < lanes; k++) {
            if (!strcmp(name, "abs")) {
                wg_ins *in = wg_emit(x, OP_MOV);
                in->d = d + k, in->a = regs[0] + k, in->n = 1;
                continue;
            }
            uint32_t gt = wg_reg_alloc(x, 1);
            wg_ins *in = wg_emit(x, OP_CMP);
            in->d = gt, in->a = regs[0] + k, in->b = regs[1] + k, in->sub = CMP_GT,
            in->n = (uint16_t)sk;
            in = wg_emit(x, OP_SELECT);
            in->d = d + k, in->a = regs[1] + k, in->b = regs[0] + k, in->c = gt, in->n = 1;
        }
        return reg_val(ct, d);
    }
    if (n == 4) { /* insertBits(e, newbits, offset, count): the four words side by side */
        char sig[48];
        snprintf(sig, sizeof sig, "%s,%s,u32,u32->%s", sk == TY_I32 ? "i32" : "u32",
                 sk == TY_I32 ? "i32" : "u32", sk == TY_I32 ? "i32" : "u32");
        stex_math_fn fn;
        if (!stex_math_fn_find(name, sig, &fn)) {
            WG_ERR(x, e->loc, "builtin-functions", "%s has no overload (%s)", name, sig);
            return wg_error_val();
        }
        uint32_t d = wg_reg_alloc(x, lanes);
        for (uint32_t k = 0; k < lanes; k++) {
            uint32_t four = wg_reg_alloc(x, 4);
            for (uint32_t i = 0; i < 4; i++) {
                wg_ins *in = wg_emit(x, OP_MOV);
                in->d = four + i, in->a = regs[i] + k, in->n = 1; /* scalars: splatted */
            }
            wg_ins *in = wg_emit(x, OP_MATHV);
            in->d = d + k, in->a = four, in->imm = (uint32_t)fn;
        }
        return reg_val(ct, d);
    }
    /* concrete constant arguments are evaluated at run time, under the profile */
    uint32_t d = wg_emit_math(x, name, ct, regs, n, ct, e->loc);
    return reg_val(ct, d);
}

/* ---- textures ---- */

static bool handle_arg(wg_ctx *x, const wg_expr *e, uint32_t i, wg_val v, wg_type_kind k1,
                       wg_type_kind k2, const char *name)
{
    if (v.kind != V_HANDLE || (kind_of(x, v.type) != k1 && kind_of(x, v.type) != k2)) {
        WG_ERR(x, e->args[i]->loc, "texture-builtin-functions", "argument %u of %s must be a "
               "%s, not %s", i + 1, name, k1 == TY_SAMPLER ? "sampler" : "texture",
               wg_tname(x, v.type));
        return false;
    }
    return true;
}

/* Coordinates as i64 registers are not needed: the interpreter reads i32/u32 per the flag. */
static bool coords(wg_ctx *x, const wg_expr *e, uint32_t i, wg_val v, uint32_t n, uint32_t *reg,
                   bool *is_signed)
{
    v = wg_load(x, v, e->args[i]->loc);
    if (v.kind == V_CONST)
        v = wg_convert(x, v, wg_type_concrete(TS(x), v.type), e->args[i]->loc, "the coordinate");
    if (v.kind == V_ERROR)
        return false;
    if (!wg_type_is_integer(TS(x), v.type) || wg_type_lanes(TS(x), v.type) != n) {
        WG_ERR(x, e->args[i]->loc, "texture-builtin-functions", "the coordinates must be %s "
               "i32 or u32 values, not %s", n == 1 ? "scalar" : n == 2 ? "vec2" : "vec3",
               wg_tname(x, v.type));
        return false;
    }
    *is_signed = kind_of(x, wg_type_scalar(TS(x), v.type)) == TY_I32;
    *reg = wg_to_reg(x, v, e->args[i]->loc);
    return true;
}

static uint32_t dim_coords(stex_view_dimension d)
{
    return d == STEX_VIEW_DIMENSION_1D ? 1 : d == STEX_VIEW_DIMENSION_3D ? 3 : 2;
}

static int texel_type(wg_ctx *x, stex_format f)
{
    const stex_format_info *fi = stex_format_get(f);
    int s = fi->scalar == STEX_SCALAR_U32 ? T_U32 : fi->scalar == STEX_SCALAR_I32 ? T_I32 : T_F32;
    return wg_type_vec(TS(x), s, 4);
}

/* textureSampleLevel(texture_2d<f32>, sampler, coords, level): the call with
 * its own fast path (OP_TEX_SAMPLE); every other sampling call goes to
 * lower_texture.c. */
static bool sample_level_2d(wg_ctx *x, const wg_expr *e, const char *name, const wg_val *a)
{
    if (strcmp(name, "textureSampleLevel") || e->nargs != 4 || a[0].kind != V_HANDLE)
        return false;
    const wg_type *t = wg_ty(TS(x), a[0].type);
    return t->kind == TY_TEXTURE && t->dim == STEX_VIEW_DIMENSION_2D && t->elem == T_F32 &&
           t->n == 0;
}

static wg_val texture_builtin(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    wg_types *ts = TS(x);
    if (e->nargs == 0) {
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s needs a texture argument", name);
        return wg_error_val();
    }
    if (!handle_arg(x, e, 0, a[0], TY_TEXTURE, TY_STORAGE_TEXTURE, name))
        return wg_error_val();
    const wg_type *t = wg_ty(ts, a[0].type);
    uint32_t binding = a[0].ref.binding, nc = dim_coords(t->dim);
    bool arrayed = t->dim == STEX_VIEW_DIMENSION_2D_ARRAY;
    bool storage = t->kind == TY_STORAGE_TEXTURE;
    wg_ins *i;
    /* every sampled texture's loads and queries but texture_2d<f32>'s
     * textureLoad, which keeps its inline path */
    bool plain_2d = t->dim == STEX_VIEW_DIMENSION_2D && t->elem == T_F32 && t->n == 0;
    if (!storage && wg_sampled_texture_call_is(name) &&
        !(plain_2d && !strcmp(name, "textureLoad")))
        return wg_sampled_texture_call(x, e, name, a);
    if (!strcmp(name, "textureDimensions") || !strcmp(name, "textureNumLayers")) {
        bool layers = name[7] == 'N';
        if (!want_args(x, e, name, 1, storage || layers ? 1 : 2))
            return wg_error_val();
        if (layers && !arrayed) {
            WG_ERR(x, e->loc, "texture-builtin-functions", "textureNumLayers needs an arrayed "
                   "texture, not %s", wg_tname(x, a[0].type));
            return wg_error_val();
        }
        uint32_t n = layers ? 1 : nc;
        uint32_t d = wg_reg_alloc(x, n);
        i = wg_emit(x, OP_TEX_DIMS);
        i->d = d, i->imm = binding, i->n = (uint16_t)n, i->sub = layers, i->c = t->dim;
        return reg_val(n == 1 ? T_U32 : wg_type_vec(ts, T_U32, n), d);
    }
    if (!strcmp(name, "textureLoad")) {
        uint32_t need = 2 + arrayed + !storage;
        if (!want_args(x, e, name, need, need))
            return wg_error_val();
        if (storage && t->access == STEX_ACCESS_WRITE_ONLY) {
            WG_ERR(x, e->loc, "texture-builtin-functions", "textureLoad on a write-only storage "
                   "texture");
            return wg_error_val();
        }
        uint32_t c, layer = 0, level = 0;
        bool sc, sl = false;
        if (!coords(x, e, 1, a[1], nc, &c, &sc) ||
            (arrayed && !coords(x, e, 2, a[2], 1, &layer, &sl)) ||
            (!storage && !coords(x, e, 2 + arrayed, a[2 + arrayed], 1, &level, &sl)))
            return wg_error_val();
        uint32_t d = wg_reg_alloc(x, 4);
        i = wg_emit(x, storage ? OP_TEX_LOAD : OP_TEX_LOAD_LEVEL);
        wg_ins_at(i, e->loc.line, e->loc.col);
        i->d = d, i->imm = binding, i->a = c, i->sub = (uint8_t)t->dim;
        i->b = arrayed ? layer : WG_NONE_REG;
        i->c = storage ? WG_NONE_REG : level;
        i->n = (uint16_t)(sc | (sl << 1));
        return reg_val(storage ? texel_type(x, t->format) : wg_type_vec(ts, T_F32, 4), d);
    }
    if (!strcmp(name, "textureStore")) {
        uint32_t need = 3 + arrayed;
        if (!want_args(x, e, name, need, need))
            return wg_error_val();
        if (!storage || t->access == STEX_ACCESS_READ_ONLY) {
            WG_ERR(x, e->loc, "texture-builtin-functions", "textureStore needs a write or "
                   "read_write storage texture, not %s", wg_tname(x, a[0].type));
            return wg_error_val();
        }
        uint32_t c, layer = 0;
        bool sc, sl = false;
        if (!coords(x, e, 1, a[1], nc, &c, &sc) ||
            (arrayed && !coords(x, e, 2, a[2], 1, &layer, &sl)))
            return wg_error_val();
        int vt = texel_type(x, t->format);
        wg_val v = wg_convert(x, wg_load(x, a[2 + arrayed], e->args[2 + arrayed]->loc), vt,
                              e->args[2 + arrayed]->loc, "the value");
        if (v.kind == V_ERROR)
            return v;
        uint32_t r = wg_to_reg(x, v, e->loc);
        i = wg_emit(x, OP_TEX_STORE);
        wg_ins_at(i, e->loc.line, e->loc.col);
        i->d = r, i->imm = binding, i->a = c, i->b = arrayed ? layer : WG_NONE_REG;
        i->sub = (uint8_t)t->dim;
        i->n = (uint16_t)(sc | (sl << 1));
        i->c = (uint32_t)stex_format_get(t->format)->scalar;
        return (wg_val){.kind = V_VOID, .type = T_VOID};
    }
    if (!strcmp(name, "textureSampleLevel")) {
        if (!want_args(x, e, name, 4, 4) ||
            !handle_arg(x, e, 1, a[1], TY_SAMPLER, TY_SAMPLER, name))
            return wg_error_val();
        if (storage || !plain_2d) {
            WG_ERR(x, e->loc, "texture-builtin-functions", "stex's textureSampleLevel takes a "
                   "texture_2d<f32>, not %s", wg_tname(x, a[0].type));
            return wg_error_val();
        }
        wg_val uv = wg_convert(x, wg_load(x, a[2], e->args[2]->loc), wg_type_vec(ts, T_F32, 2),
                               e->args[2]->loc, "the coordinates");
        wg_val lv = wg_convert(x, wg_load(x, a[3], e->args[3]->loc), T_F32, e->args[3]->loc,
                               "the level");
        if (uv.kind == V_ERROR || lv.kind == V_ERROR)
            return wg_error_val();
        uint32_t ruv = wg_to_reg(x, uv, e->loc), rl = wg_to_reg(x, lv, e->loc);
        uint32_t d = wg_reg_alloc(x, 4);
        i = wg_emit(x, OP_TEX_SAMPLE);
        i->d = d, i->imm = binding, i->e = a[1].ref.binding, i->a = ruv, i->b = ruv + 1,
        i->c = rl;
        return reg_val(wg_type_vec(ts, T_F32, 4), d);
    }
    if (storage) /* the rest (textureNumLevels, textureSample*, textureGather*, ...) */
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s has no overload for a storage "
               "texture (%s)", name, wg_tname(x, a[0].type));
    else
        WG_ERR(x, e->loc, "texture-builtin-functions", "%s is not supported by stex yet", name);
    return wg_error_val();
}

/* ---- atomics, barriers, arrayLength ---- */

static stex_atomic_op atomic_op(const char *n)
{
    static const struct { const char *n; stex_atomic_op op; } ops[] = {
        {"atomicLoad", STEX_ATOMIC_LOAD}, {"atomicStore", STEX_ATOMIC_STORE},
        {"atomicAdd", STEX_ATOMIC_ADD}, {"atomicSub", STEX_ATOMIC_SUB},
        {"atomicMax", STEX_ATOMIC_MAX_U32}, {"atomicMin", STEX_ATOMIC_MIN_U32},
        {"atomicAnd", STEX_ATOMIC_AND}, {"atomicOr", STEX_ATOMIC_OR},
        {"atomicXor", STEX_ATOMIC_XOR}, {"atomicExchange", STEX_ATOMIC_EXCHANGE}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(n, ops[i].n))
            return ops[i].op;
    return STEX_ATOMIC_COMPARE_EXCHANGE;
}

/* The builtin struct __atomic_compare_exchange_result<T> { old_value : T, exchanged : bool }
 * (T = i32 or u32), interned once per type table; -1 on no memory. */
static int cmpxchg_result_type(wg_ctx *x, int vt)
{
    const char *name = vt == T_I32 ? "__atomic_compare_exchange_result<i32>"
                                   : "__atomic_compare_exchange_result<u32>";
    wg_types *ts = TS(x);
    for (int i = 0; i < ts->n; i++)
        if (ts->t[i].kind == TY_STRUCT && !strcmp(ts->t[i].name, name))
            return i;
    wg_member *m = calloc(2, sizeof *m);
    if (!m) {
        x->oom = true;
        return -1;
    }
    m[0] = (wg_member){.name = "old_value", .type = vt};
    m[1] = (wg_member){.name = "exchanged", .type = T_BOOL};
    wg_type t = {.kind = TY_STRUCT, .elem = -1, .name = name, .members = m, .nmembers = 2};
    int id = wg_type_intern(ts, &t);
    if (id < 0) {
        free(m);
        x->oom = true;
    }
    return id;
}

static wg_val atomic_builtin(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    stex_atomic_op op = atomic_op(name);
    if (op == STEX_ATOMIC_COMPARE_EXCHANGE && strcmp(name, "atomicCompareExchangeWeak")) {
        WG_ERR(x, e->loc, "atomic-builtin-functions", "%s is not a WGSL builtin function", name);
        return wg_error_val();
    }
    bool cx = op == STEX_ATOMIC_COMPARE_EXCHANGE;
    uint32_t need = op == STEX_ATOMIC_LOAD ? 1 : cx ? 3 : 2;
    if (!want_args(x, e, name, need, need))
        return wg_error_val();
    if (a[0].kind != V_PTR || kind_of(x, wg_ty(TS(x), a[0].type)->elem) != TY_ATOMIC) {
        WG_ERR(x, e->args[0]->loc, "atomic-builtin-functions", "the first argument of %s must "
               "be a pointer to an atomic: &a", name);
        return wg_error_val();
    }
    const wg_ref *r = &a[0].ref;
    if (r->space != SP_STORAGE && r->space != SP_WORKGROUP) {
        WG_ERR(x, e->args[0]->loc, "atomic-builtin-functions", "atomics live in var<storage, "
               "read_write> or var<workgroup>");
        return wg_error_val();
    }
    if (r->space == SP_STORAGE && r->access != STEX_ACCESS_READ_WRITE) {
        WG_ERR(x, e->args[0]->loc, "atomic-builtin-functions", "atomics need a read_write "
               "storage buffer");
        return wg_error_val();
    }
    if (r->halves) { /* its offsets count half-words; the atomic ops take words */
        WG_ERR(x, e->args[0]->loc, "f16", "stex does not support atomics in a variable that "
               "also holds f16: declare the atomics in a variable of their own");
        return wg_error_val();
    }
    int vt = wg_ty(TS(x), wg_ty(TS(x), a[0].type)->elem)->elem;
    if (vt == T_I32 && op == STEX_ATOMIC_MAX_U32)
        op = STEX_ATOMIC_MAX_I32;
    if (vt == T_I32 && op == STEX_ATOMIC_MIN_U32)
        op = STEX_ATOMIC_MIN_I32;
    uint32_t v = 0, cmp = WG_NONE_REG;
    for (uint32_t k = 1; k < need; k++) { /* (value) or (compare, value) */
        wg_val val = wg_convert(x, wg_load(x, a[k], e->args[k]->loc), vt, e->args[k]->loc,
                                cx && k == 1 ? "the compare value" : "the value");
        if (val.kind == V_ERROR)
            return val;
        uint32_t reg = wg_to_reg(x, val, e->loc);
        if (cx && k == 1)
            cmp = reg;
        else
            v = reg;
    }
    int rt = cx ? cmpxchg_result_type(x, vt) : vt;
    if (rt < 0)
        return wg_error_val();
    uint32_t d = wg_reg_alloc(x, cx ? 2 : 1); /* compare-exchange: old_value, exchanged */
    wg_ins *i = wg_emit(x, OP_ATOMIC);
    wg_ins_at(i, e->loc.line, e->loc.col);
    i->d = d, i->a = r->dyn, i->e = r->base, i->imm = r->binding, i->b = v, i->c = cmp;
    i->sub = (uint8_t)op;
    i->n = r->space == SP_WORKGROUP;
    if (op == STEX_ATOMIC_STORE)
        return (wg_val){.kind = V_VOID, .type = T_VOID};
    return reg_val(rt, d);
}

/* transpose(matCxR<f32>) -> matRxC<f32>: moves only. */
static wg_val transpose(wg_ctx *x, const wg_expr *e, wg_val *a)
{
    if (!want_args(x, e, "transpose", 1, 1))
        return wg_error_val();
    wg_val m = wg_load(x, a[0], e->args[0]->loc);
    if (m.kind == V_ERROR)
        return m;
    const wg_type *t = wg_ty(TS(x), m.type);
    if (t->kind != TY_MAT) {
        WG_ERR(x, e->args[0]->loc, "matrix-builtin-functions", "transpose takes a matrix, not "
               "%s", wg_tname(x, m.type));
        return wg_error_val();
    }
    uint32_t cols = t->n, rows = wg_ty(TS(x), t->elem)->n;
    int rt = wg_type_mat_of(TS(x), wg_type_scalar(TS(x), t->elem), rows, cols);
    if (rt < 0)
        return wg_error_val();
    if (m.kind == V_CONST) { /* a const-expression */
        wg_cword *c = wg_cwords(x, cols * rows);
        for (uint32_t col = 0; col < cols; col++)
            for (uint32_t r = 0; r < rows; r++)
                c[r * cols + col] = m.c[col * rows + r];
        return (wg_val){.kind = V_CONST, .type = rt, .c = c};
    }
    uint32_t src = wg_to_reg(x, m, e->args[0]->loc), d = wg_reg_alloc(x, cols * rows);
    for (uint32_t c = 0; c < cols; c++)
        for (uint32_t r = 0; r < rows; r++) {
            wg_ins *in = wg_emit(x, OP_MOV);
            in->d = d + r * cols + c, in->a = src + c * rows + r, in->n = 1;
        }
    return reg_val(rt, d);
}

static wg_val barrier(wg_ctx *x, const wg_expr *e, exec_barrier kind)
{
    if (!want_args(x, e, "a barrier", 0, 0))
        return wg_error_val();
    wg_ins *i = wg_emit(x, OP_BARRIER);
    i->sub = (uint8_t)kind;
    x->uses_barriers = true;
    return (wg_val){.kind = V_VOID, .type = T_VOID};
}

static wg_val array_length(wg_ctx *x, const wg_expr *e, wg_val *a)
{
    if (!want_args(x, e, "arrayLength", 1, 1))
        return wg_error_val();
    const wg_type *pt = a[0].kind == V_PTR ? wg_ty(TS(x), a[0].type) : NULL;
    const wg_type *at = pt ? wg_ty(TS(x), pt->elem) : NULL;
    if (!at || at->kind != TY_ARRAY || at->n != 0 || a[0].ref.space != SP_STORAGE ||
        a[0].ref.dyn != WG_NONE_REG) {
        WG_ERR(x, e->args[0]->loc, "arrayLength", "arrayLength takes a pointer to a "
               "runtime-sized array in a storage buffer: arrayLength(&buffer)");
        return wg_error_val();
    }
    uint32_t d = wg_reg_alloc(x, 1);
    wg_ins *i = wg_emit(x, OP_ARRAY_LEN);
    i->d = d, i->imm = a[0].ref.binding, i->a = a[0].ref.base * wg_ref_unit(&a[0].ref);
    i->b = at->stride;
    return reg_val(T_U32, d);
}

static wg_val select_any_all(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    wg_types *ts = TS(x);
    if (!strcmp(name, "select")) {
        if (!want_args(x, e, name, 3, 3))
            return wg_error_val();
        for (int k = 0; k < 3; k++)
            a[k] = wg_load(x, a[k], e->args[k]->loc);
        int t = wg_common_type(x, a[0].type, a[1].type);
        uint32_t n = t >= 0 ? wg_type_lanes(ts, t) : 0;
        uint32_t cn = wg_type_lanes(ts, a[2].type);
        if (!n || wg_type_scalar(ts, a[2].type) != T_BOOL || (cn != 1 && cn != n)) {
            WG_ERR(x, e->loc, "builtin-functions", "select(f, t, cond) needs f and t of one "
                   "scalar or vector type and a bool (or a bool vector of their size)");
            return wg_error_val();
        }
        if (wg_type_is_abstract(ts, t) && (a[0].kind != V_CONST || a[1].kind != V_CONST ||
                                            a[2].kind != V_CONST))
            t = wg_type_concrete(ts, t);
        wg_val f = wg_convert(x, a[0], t, e->args[0]->loc, "the false value");
        wg_val tv = wg_convert(x, a[1], t, e->args[1]->loc, "the true value");
        if (f.kind == V_ERROR || tv.kind == V_ERROR)
            return wg_error_val();
        if (f.kind == V_CONST && tv.kind == V_CONST && a[2].kind == V_CONST) {
            wg_cword *c = wg_cwords(x, n);
            for (uint32_t k = 0; k < n; k++)
                c[k] = a[2].c[cn == 1 ? 0 : k].u ? tv.c[k] : f.c[k];
            return (wg_val){.kind = V_CONST, .type = t, .c = c};
        }
        uint32_t rf = wg_to_reg(x, f, e->loc), rt = wg_to_reg(x, tv, e->loc),
                 rc = wg_to_reg(x, a[2], e->loc), d = wg_reg_alloc(x, n);
        for (uint32_t k = 0; k < n; k++) {
            wg_ins *i = wg_emit(x, OP_SELECT);
            i->d = d + k, i->a = rf + k, i->b = rt + k, i->c = rc + (cn == 1 ? 0 : k), i->n = 1;
        }
        return reg_val(t, d);
    }
    /* any, all */
    if (!want_args(x, e, name, 1, 1))
        return wg_error_val();
    wg_val v = wg_load(x, a[0], e->args[0]->loc);
    if (v.kind == V_ERROR || wg_type_scalar(ts, v.type) != T_BOOL || !wg_type_lanes(ts, v.type)) {
        if (v.kind != V_ERROR)
            WG_ERR(x, e->args[0]->loc, "builtin-functions", "%s takes bool or vecN<bool>, not %s",
                   name, wg_tname(x, v.type));
        return wg_error_val();
    }
    uint32_t n = wg_type_lanes(ts, v.type);
    bool any = !strcmp(name, "any");
    if (v.kind == V_CONST) {
        wg_cword w = {.u = any ? 0 : 1};
        for (uint32_t k = 0; k < n; k++)
            w.u = any ? (w.u | v.c[k].u) : (w.u & v.c[k].u);
        return wg_const_scalar(x, T_BOOL, w);
    }
    uint32_t d = v.reg;
    for (uint32_t k = 1; k < n; k++) {
        uint32_t r = wg_reg_alloc(x, 1);
        wg_ins *i = wg_emit(x, OP_BITS);
        i->d = r, i->a = d, i->b = v.reg + k, i->sub = any ? BITS_OR : BITS_AND;
        d = r;
    }
    return reg_val(T_BOOL, d);
}

/* Builtins whose arguments are vectors of the math table's signature:
 * packing, unpacking, the packed 8-bit dot products.  Constant arguments
 * are a const-expression, evaluated by the math layer. */
static wg_val packing(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    static const struct { const char *n, *arg, *ret; uint32_t nargs; } P[] = {
        {"pack4x8unorm", "vec4<f32>", "u32", 1}, {"pack4x8snorm", "vec4<f32>", "u32", 1},
        {"pack2x16unorm", "vec2<f32>", "u32", 1}, {"pack2x16snorm", "vec2<f32>", "u32", 1},
        {"pack2x16float", "vec2<f32>", "u32", 1}, {"unpack4x8unorm", "u32", "vec4<f32>", 1},
        {"unpack4x8snorm", "u32", "vec4<f32>", 1}, {"unpack2x16unorm", "u32", "vec2<f32>", 1},
        {"unpack2x16snorm", "u32", "vec2<f32>", 1}, {"unpack2x16float", "u32", "vec2<f32>", 1},
        {"pack4xI8", "vec4<i32>", "u32", 1}, {"pack4xI8Clamp", "vec4<i32>", "u32", 1},
        {"pack4xU8", "vec4<u32>", "u32", 1}, {"pack4xU8Clamp", "vec4<u32>", "u32", 1},
        {"unpack4xI8", "u32", "vec4<i32>", 1}, {"unpack4xU8", "u32", "vec4<u32>", 1},
        {"dot4I8Packed", "u32", "i32", 2}, {"dot4U8Packed", "u32", "u32", 2}};
    for (size_t k = 0; k < sizeof P / sizeof P[0]; k++) {
        if (strcmp(name, P[k].n))
            continue;
        if (!want_args(x, e, name, P[k].nargs, P[k].nargs))
            return wg_error_val();
        wg_types *ts = TS(x);
        /* "vec4<f32>" / "u32" -> the type */
        int at = P[k].arg[0] == 'v' ? wg_type_vec(ts, P[k].arg[5] == 'f' ? T_F32 : P[k].arg[5]
                                                  == 'i' ? T_I32 : T_U32,
                                                  (uint32_t)(P[k].arg[3] - '0')) : T_U32;
        int rt = P[k].ret[0] == 'v' ? wg_type_vec(ts, P[k].ret[5] == 'f' ? T_F32 : P[k].ret[5]
                                                  == 'i' ? T_I32 : T_U32,
                                                  (uint32_t)(P[k].ret[3] - '0'))
               : P[k].ret[0] == 'i' ? T_I32 : T_U32;
        char sig[32];
        if (P[k].nargs == 2)
            snprintf(sig, sizeof sig, "%s,%s->%s", P[k].arg, P[k].arg, P[k].ret);
        else
            snprintf(sig, sizeof sig, "%s->%s", P[k].arg, P[k].ret);
        stex_math_fn fn;
        if (!stex_math_fn_find(name, sig, &fn)) {
            WG_ERR(x, e->loc, "builtin-functions", "%s is missing from the math layer", name);
            return wg_error_val();
        }
        wg_val v[2];
        uint32_t in[8] = {0}, w = 0;
        bool all_const = true;
        for (uint32_t i = 0; i < P[k].nargs; i++) {
            v[i] = wg_convert(x, wg_load(x, a[i], e->args[i]->loc), at, e->args[i]->loc,
                              "the argument");
            if (v[i].kind == V_ERROR)
                return v[i];
            all_const &= v[i].kind == V_CONST;
            for (uint32_t j = 0; v[i].kind == V_CONST && j < wg_ty(ts, at)->words; j++)
                in[w++] = v[i].c[j].u;
        }
        uint32_t out_n = wg_ty(ts, rt)->words;
        if (all_const) {
            uint32_t out[4];
            if (stex_math_eval_const(x->const_rule, fn, false, in, out) != STEX_OK) {
                WG_ERR(x, e->loc, "const-eval", "%s in a const-expression: %s", name,
                       stex_last_error());
                return wg_error_val();
            }
            wg_f32_results(x, fn, out);
            wg_cword *c = wg_cwords(x, out_n);
            for (uint32_t j = 0; j < out_n; j++)
                c[j].u = out[j];
            return (wg_val){.kind = V_CONST, .type = rt, .c = c};
        }
        uint32_t r = wg_to_reg(x, v[0], e->loc);
        if (P[k].nargs == 2) { /* the two u32 arguments side by side */
            uint32_t r2 = wg_reg_alloc(x, 2), rb = wg_to_reg(x, v[1], e->loc);
            wg_ins *m = wg_emit(x, OP_MOV);
            m->d = r2, m->a = r, m->n = 1;
            m = wg_emit(x, OP_MOV);
            m->d = r2 + 1, m->a = rb, m->n = 1;
            r = r2;
        }
        uint32_t d = wg_reg_alloc(x, out_n);
        wg_ins *i = wg_emit(x, OP_MATHV);
        i->d = d, i->a = r, i->imm = (uint32_t)fn;
        return reg_val(rt, d);
    }
    return (wg_val){.kind = V_VOID, .type = -1};
}

/* The builtin struct of frexp or modf for argument type t (f32, vecN<f32>,
 * AbstractFloat): {fract : t, exp : t's shape of i32} or {fract : t,
 * whole : t} (WGSL 17.5), interned once; -1 on no memory. */
static int split_result_type(wg_ctx *x, bool frexp, int t)
{
    wg_types *ts = TS(x);
    static const char *const names[2][2][5] = {
        {{"__modf_result_f32", "", "__modf_result_vec2_f32", "__modf_result_vec3_f32",
          "__modf_result_vec4_f32"},
         {"__modf_result_abstract", "", "__modf_result_vec2_abstract",
          "__modf_result_vec3_abstract", "__modf_result_vec4_abstract"}},
        {{"__frexp_result_f32", "", "__frexp_result_vec2_f32", "__frexp_result_vec3_f32",
          "__frexp_result_vec4_f32"},
         {"__frexp_result_abstract", "", "__frexp_result_vec2_abstract",
          "__frexp_result_vec3_abstract", "__frexp_result_vec4_abstract"}}};
    uint32_t lanes = wg_type_lanes(ts, t);
    bool abstract = wg_type_scalar(ts, t) == T_AFLOAT;
    /* an abstract one materialises to its f32 twin, which types.c finds by name */
    if (abstract && split_result_type(x, frexp, wg_type_with_scalar(ts, t, T_F32)) < 0)
        return -1;
    const char *name = names[frexp][abstract][lanes == 1 ? 0 : lanes];
    for (int i = 0; i < ts->n; i++)
        if (ts->t[i].kind == TY_STRUCT && !strcmp(ts->t[i].name, name))
            return i;
    wg_member *m = calloc(2, sizeof *m);
    if (!m) {
        x->oom = true;
        return -1;
    }
    int second = frexp ? wg_type_with_scalar(ts, t, abstract ? T_AINT : T_I32) : t;
    m[0] = (wg_member){.name = "fract", .type = t};
    m[1] = (wg_member){.name = frexp ? "exp" : "whole", .type = second, .word = lanes};
    wg_type st = {.kind = TY_STRUCT, .elem = -1, .name = name, .members = m, .nmembers = 2};
    int id = wg_type_intern(ts, &st);
    if (id < 0) {
        free(m);
        x->oom = true;
    }
    return id;
}

/* frexp(e) and modf(e): a constant argument is a const-expression. */
static wg_val frexp_modf(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    if (!want_args(x, e, name, 1, 1))
        return wg_error_val();
    wg_types *ts = TS(x);
    wg_val v = wg_load(x, a[0], e->args[0]->loc);
    if (v.kind == V_ERROR)
        return v;
    uint32_t lanes = wg_type_lanes(ts, v.type);
    if (v.kind == V_CONST && wg_type_scalar(ts, v.type) == T_AINT)
        v = wg_convert(x, v, wg_type_with_scalar(ts, v.type, T_AFLOAT), e->loc, "the argument");
    else if (v.kind != V_CONST || wg_type_scalar(ts, v.type) == T_AINT)
        v = wg_convert(x, v, wg_type_with_scalar(ts, wg_type_concrete(ts, v.type), T_F32),
                       e->loc, "the argument");
    if (v.kind == V_ERROR)
        return v;
    if (!lanes || !wg_type_is_float(ts, v.type)) {
        WG_ERR(x, e->args[0]->loc, "builtin-functions", "%s takes a float scalar or vector, "
               "not %s", name, wg_tname(x, v.type));
        return wg_error_val();
    }
    bool frexp = name[0] == 'f';
    int rt = split_result_type(x, frexp, v.type);
    if (rt < 0)
        return wg_error_val();
    if (v.kind == V_CONST) {
        bool abstract = wg_type_scalar(ts, v.type) == T_AFLOAT;
        wg_cword *c = wg_cwords(x, 2 * lanes);
        for (uint32_t k = 0; k < lanes; k++) {
            wg_cword out[2];
            bool ok = abstract ? wg_const_abstract_word(x, name, false, &v.c[k], 1, out, e->loc)
                               : wg_const_word(x, name, TY_F32, &v.c[k], 1, out, 2, e->loc);
            if (!ok)
                return wg_error_val();
            c[k] = out[0], c[lanes + k] = out[1];
        }
        return (wg_val){.kind = V_CONST, .type = rt, .c = c};
    }
    stex_math_fn fn;
    if (!stex_math_fn_find(name, frexp ? "f32->f32,i32" : "f32->f32,f32", &fn)) {
        WG_ERR(x, e->loc, "builtin-functions", "%s is missing from the math layer", name);
        return wg_error_val();
    }
    uint32_t r = wg_to_reg(x, v, e->loc), d = wg_reg_alloc(x, 2 * lanes);
    for (uint32_t k = 0; k < lanes; k++) { /* each component's pair, then apart */
        uint32_t t = wg_reg_alloc(x, 2);
        wg_ins *i = wg_emit(x, OP_MATHV);
        i->d = t, i->a = r + k, i->imm = (uint32_t)fn;
        i = wg_emit(x, OP_MOV);
        i->d = d + k, i->a = t, i->n = 1;
        i = wg_emit(x, OP_MOV);
        i->d = d + lanes + k, i->a = t + 1, i->n = 1;
    }
    return reg_val(rt, d);
}

/* bitcast between f16 vectors and 32-bit types: vec2<f16> <-> u32/i32/f32,
 * vec4<f16> <-> vec2<u32/i32/f32> (component 0 in the low half), one pair of
 * f16 registers per 32-bit word through the math layer. */
static uint32_t bitcast_f16(wg_ctx *x, const wg_type *to, uint32_t src, bool from_f16,
                            uint32_t words32, wg_loc loc)
{
    stex_math_fn fn;
    if (!stex_math_fn_find("bitcast", from_f16 ? "vec2<f16>->u32" : "u32->vec2<f16>", &fn)) {
        WG_ERR(x, loc, "bitcast-builtin", "no f16 bitcast in the math layer");
        return src;
    }
    uint32_t d = wg_reg_alloc(x, to->words);
    for (uint32_t k = 0; k < words32; k++) {
        wg_ins *i = wg_emit(x, from_f16 ? OP_MATH : OP_MATHV);
        i->imm = (uint32_t)fn;
        if (from_f16)
            i->d = d + k, i->a = src + 2 * k, i->b = src + 2 * k + 1, i->n = 2;
        else
            i->d = d + 2 * k, i->a = src + k;
    }
    return d;
}

/* WGSL's derivative builtins (17.6), fragment shaders only. */
static bool is_derivative(const char *name)
{
    static const char *const names[] = {"dpdx", "dpdxCoarse", "dpdxFine", "dpdy", "dpdyCoarse",
                                        "dpdyFine", "fwidth", "fwidthCoarse", "fwidthFine"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (!strcmp(name, names[k]))
            return true;
    return false;
}

/* A derivative: an error outside a fragment shader; inside one, its f32 or
 * vecN<f32> argument checked and a zero of that type (never run). */
static wg_val derivative(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a)
{
    if (!x->stage_free) {
        char msg[120];
        snprintf(msg, sizeof msg, "%s is a derivative and may only be called from a fragment "
                 "shader", name);
        wg_stage_error(x, e->loc, "derivatives", name, msg);
        return wg_error_val();
    }
    if (!want_args(x, e, name, 1, 1))
        return wg_error_val();
    int t = wg_type_with_scalar(x->types, wg_type_concrete(x->types, a[0].type), T_F32);
    if (wg_type_scalar(x->types, a[0].type) != T_F32 &&
        wg_type_scalar(x->types, a[0].type) != T_AFLOAT &&
        wg_type_scalar(x->types, a[0].type) != T_AINT) {
        WG_ERR(x, e->args[0]->loc, "derivatives", "%s takes f32 or vecN<f32>, not %s", name,
               wg_tname(x, a[0].type));
        return wg_error_val();
    }
    return wg_zero_reg(x, t);
}

static wg_val bitcast(wg_ctx *x, const wg_expr *e, wg_val *a)
{
    const wg_expr *callee = e->a;
    if (callee->ntargs != 1 || !want_args(x, e, "bitcast", 1, 1))
        return wg_error_val();
    int t = wg_resolve_type(x, callee->targs[0]);
    wg_val v = wg_load(x, a[0], e->args[0]->loc);
    if (t < 0 || v.kind == V_ERROR)
        return wg_error_val();
    wg_types *ts = TS(x);
    if (v.kind == V_CONST) {
        /* an AbstractInt is an i32; bitcast<u32> also takes one that fits
         * only a u32 (the identity overload; Dawn does the same) */
        int to = wg_type_concrete(ts, v.type);
        if (wg_type_scalar(ts, v.type) == T_AINT && wg_type_scalar(ts, t) == T_U32) {
            bool fits = true;
            for (uint32_t k = 0; k < wg_ty(ts, v.type)->words; k++)
                fits &= v.c[k].i >= INT32_MIN && v.c[k].i <= INT32_MAX;
            if (!fits)
                to = wg_type_with_scalar(ts, v.type, T_U32);
        }
        v = wg_convert(x, v, to, e->loc, "the value");
    }
    /* the same number of bytes (f16 vectors: 2 per component) */
    bool th = kind_of(x, wg_type_scalar(ts, t)) == TY_F16;
    bool vh = v.kind != V_ERROR && kind_of(x, wg_type_scalar(ts, v.type)) == TY_F16;
    if (v.kind == V_ERROR || wg_ty(ts, t)->size != wg_ty(ts, v.type)->size ||
        !wg_type_lanes(ts, t) || wg_type_scalar(ts, t) == T_BOOL ||
        wg_type_scalar(ts, v.type) == T_BOOL || !wg_type_lanes(ts, v.type)) {
        WG_ERR(x, e->loc, "bitcast-builtin", "bitcast<%s> cannot take %s", wg_tname(x, t),
               v.kind == V_ERROR ? "this value" : wg_tname(x, v.type));
        return wg_error_val();
    }
    uint32_t words32 = wg_ty(ts, t)->size / 4;
    if (v.kind == V_CONST) {
        wg_cword *c = v.c;
        if (th != vh) { /* repack the halves */
            c = wg_cwords(x, wg_ty(ts, t)->words);
            for (uint32_t k = 0; k < words32; k++) {
                if (vh)
                    c[k].u = (v.c[2 * k].u & 0xffffu) | v.c[2 * k + 1].u << 16;
                else
                    c[2 * k].u = v.c[k].u & 0xffffu, c[2 * k + 1].u = v.c[k].u >> 16;
            }
        }
        /* a const-expression: an f32 or f16 NaN or infinity is a shader-creation error */
        for (uint32_t k = 0; k < wg_ty(ts, t)->words; k++)
            if ((wg_type_scalar(ts, t) == T_F32 && (c[k].u & 0x7f800000u) == 0x7f800000u) ||
                (th && (c[k].u & 0x7c00u) == 0x7c00u)) {
                WG_ERR(x, e->loc, "bitcast-builtin",
                       "bitcast<%s> of a const-expression gives 0x%08" PRIx32
                       ", which is not a finite %s", wg_tname(x, t), c[k].u, th ? "f16" : "f32");
                return wg_error_val();
            }
        if (wg_type_scalar(ts, t) == T_F32 && x->const_rule == STEX_CONST_TINT) {
            wg_cword *f = wg_cwords(x, wg_ty(ts, t)->words); /* v.c may be shared */
            for (uint32_t k = 0; k < wg_ty(ts, t)->words; k++)
                f[k].u = wg_f32_const(x, c[k].u);
            c = f;
        }
        return (wg_val){.kind = V_CONST, .type = t, .c = c};
    }
    if (th != vh)
        return reg_val(t, bitcast_f16(x, wg_ty(ts, t), v.reg, vh, words32, e->loc));
    return reg_val(t, v.reg); /* the same bits */
}

/* ---- the subgroups extension: the interpreter's lock-step lanes ---- */

static const struct sg_builtin {
    const char *name;
    uint8_t sub, nargs;
    const char *math; /* the combining operation of a reduction or scan */
} SG_BUILTINS[] = {
    {"subgroupElect", WG_SG_ELECT, 0, NULL}, {"subgroupBallot", WG_SG_BALLOT, 1, NULL},
    {"subgroupAll", WG_SG_ALL, 1, NULL}, {"subgroupAny", WG_SG_ANY, 1, NULL},
    {"subgroupBroadcast", WG_SG_BROADCAST, 2, NULL},
    {"subgroupBroadcastFirst", WG_SG_BROADCAST_FIRST, 1, NULL},
    {"subgroupShuffle", WG_SG_SHUFFLE, 2, NULL}, {"subgroupShuffleXor", WG_SG_SHUFFLE_XOR, 2, NULL},
    {"subgroupShuffleUp", WG_SG_SHUFFLE_UP, 2, NULL},
    {"subgroupShuffleDown", WG_SG_SHUFFLE_DOWN, 2, NULL},
    {"subgroupAdd", WG_SG_REDUCE, 1, "add"}, {"subgroupMul", WG_SG_REDUCE, 1, "mul"},
    {"subgroupMin", WG_SG_REDUCE, 1, "min"}, {"subgroupMax", WG_SG_REDUCE, 1, "max"},
    {"subgroupInclusiveAdd", WG_SG_INCLUSIVE, 1, "add"},
    {"subgroupInclusiveMul", WG_SG_INCLUSIVE, 1, "mul"},
    {"subgroupExclusiveAdd", WG_SG_EXCLUSIVE, 1, "add"},
    {"subgroupExclusiveMul", WG_SG_EXCLUSIVE, 1, "mul"},
    {"subgroupAnd", WG_SG_AND, 1, NULL}, {"subgroupOr", WG_SG_OR, 1, NULL},
    {"subgroupXor", WG_SG_XOR, 1, NULL},
    {"quadBroadcast", WG_SG_QUAD_BROADCAST, 2, NULL}, {"quadSwapX", WG_SG_QUAD_SWAP_X, 1, NULL},
    {"quadSwapY", WG_SG_QUAD_SWAP_Y, 1, NULL},
    {"quadSwapDiagonal", WG_SG_QUAD_SWAP_DIAGONAL, 1, NULL},
};

static const struct sg_builtin *sg_find(const char *name)
{
    for (size_t k = 0; k < sizeof SG_BUILTINS / sizeof SG_BUILTINS[0]; k++)
        if (!strcmp(SG_BUILTINS[k].name, name))
            return &SG_BUILTINS[k];
    return NULL;
}

static wg_val subgroup_builtin(wg_ctx *x, const wg_expr *e, const struct sg_builtin *b, wg_val *a)
{
    wg_types *ts = TS(x);
    if (!x->ast->enable_subgroups) {
        WG_ERR(x, e->loc, "subgroup-builtin-functions", "%s needs 'enable subgroups;'",
               b->name);
        return wg_error_val();
    }
    if (!want_args(x, e, b->name, b->nargs, b->nargs) || !lower_args(x, e, a))
        return wg_error_val();
    uint32_t ra = WG_NONE_REG, rb = WG_NONE_REG, lanes = 1;
    int vt = T_BOOL;
    wg_type_kind k = TY_BOOL;
    bool boolean = b->sub == WG_SG_BALLOT || b->sub == WG_SG_ALL || b->sub == WG_SG_ANY;
    if (b->nargs) {
        wg_val v = wg_load(x, a[0], e->args[0]->loc);
        if (v.kind == V_CONST)
            v = wg_convert(x, v, wg_type_concrete(ts, v.type), e->args[0]->loc, "the value");
        if (v.kind == V_ERROR)
            return v;
        vt = v.type;
        k = kind_of(x, wg_type_scalar(ts, vt));
        lanes = wg_type_lanes(ts, vt);
        bool ints = b->sub == WG_SG_AND || b->sub == WG_SG_OR || b->sub == WG_SG_XOR;
        bool ok = boolean ? vt == T_BOOL
                : ints ? lanes && (k == TY_I32 || k == TY_U32)
                : lanes && (k == TY_I32 || k == TY_U32 || k == TY_F32 || k == TY_F16);
        if (!ok) {
            WG_ERR(x, e->args[0]->loc, "subgroup-builtin-functions", "%s has no overload for %s",
                   b->name, wg_tname(x, vt));
            return wg_error_val();
        }
        ra = wg_to_reg(x, v, e->args[0]->loc);
    }
    if (b->nargs == 2) { /* a lane, a mask or a delta: i32 or u32 */
        wg_val id = wg_load(x, a[1], e->args[1]->loc);
        bool constant = b->sub == WG_SG_BROADCAST || b->sub == WG_SG_QUAD_BROADCAST;
        if (id.kind != V_ERROR && constant && id.kind != V_CONST) {
            WG_ERR(x, e->args[1]->loc, "subgroup-builtin-functions", "the lane of %s must be a "
                   "const-expression", b->name);
            return wg_error_val();
        }
        if (id.kind == V_CONST)
            id = wg_convert(x, id, wg_type_concrete(ts, id.type), e->args[1]->loc, "the lane");
        if (id.kind == V_ERROR)
            return id;
        wg_type_kind ik = kind_of(x, id.type);
        if (ik != TY_I32 && ik != TY_U32) {
            WG_ERR(x, e->args[1]->loc, "subgroup-builtin-functions", "the second argument of %s "
                   "must be i32 or u32, not %s", b->name, wg_tname(x, id.type));
            return wg_error_val();
        }
        if (id.kind == V_CONST && (id.c[0].u >= (b->sub == WG_SG_QUAD_BROADCAST ? 4u : 128u))) {
            WG_ERR(x, e->args[1]->loc, "subgroup-builtin-functions", "the lane of %s must be in "
                   "[0, %u)", b->name, b->sub == WG_SG_QUAD_BROADCAST ? 4u : 128u);
            return wg_error_val();
        }
        rb = wg_to_reg(x, id, e->args[1]->loc);
    }
    stex_math_fn fn = 0;
    bool int_minmax = b->math && (k == TY_I32 || k == TY_U32) &&
                      (!strcmp(b->math, "min") || !strcmp(b->math, "max"));
    if (b->math && !int_minmax) {
        static const char *const names[] = {[TY_I32] = "i32", [TY_U32] = "u32",
                                            [TY_F32] = "f32", [TY_F16] = "f16"};
        char sig[32];
        snprintf(sig, sizeof sig, "%s,%s->%s", names[k], names[k], names[k]);
        if (!stex_math_fn_find(b->math, sig, &fn)) {
            WG_ERR(x, e->loc, "builtin", "no overload %s(%s) in the math layer", b->math, sig);
            return wg_error_val();
        }
    }
    int rt = b->sub == WG_SG_BALLOT ? wg_type_vec(ts, T_U32, 4)
           : b->sub == WG_SG_ELECT || boolean ? T_BOOL : vt;
    uint32_t d = wg_reg_alloc(x, wg_ty(ts, rt)->words);
    wg_ins *i = wg_emit(x, OP_SUBGROUP);
    i->sub = b->sub, i->d = d, i->a = ra, i->b = rb, i->n = (uint16_t)lanes;
    i->c = k, i->imm = (uint32_t)fn;
    if (int_minmax) /* exact: no math-layer function; e = 1 for max */
        i->imm = UINT32_MAX, i->e = !strcmp(b->math, "max");
    if (b->sub == WG_SG_EXCLUSIVE) { /* the first lane's value: 0, or 1 for a product */
        bool mul = !strcmp(b->math, "mul");
        i->e = k == TY_F32 ? (mul ? 0x3f800000u : 0) : k == TY_F16 ? (mul ? 0x3c00u : 0) : mul;
    }
    return reg_val(rt, d);
}

wg_val wg_call_lower(wg_ctx *x, const wg_expr *e)
{
    const wg_expr *callee = e->a;
    const char *name = callee->name;
    /* arguments: on the stack for every builtin; a constructor may take
     * any number (an array<T, N>(...) takes N) */
    wg_val few[MAX_ARGS], *a = few;
    if (e->nargs > MAX_ARGS && !(a = wg_alloc(x->arena, e->nargs * sizeof *a))) {
        x->oom = true;
        return wg_error_val();
    }
    /* a user function, or a name that hides the builtin of that name: a
     * local, or a module-scope value (`let abs = 4;` leaves no abs()) */
    bool hidden = wg_lookup_local(x, name) != NULL;
    if (!hidden) {
        wg_global *g = wg_global_find(x, name, callee->loc);
        if (g && g->decl->kind == D_FN)
            return wg_user_call(x, g->decl, e);
        hidden = g && g->decl->kind != D_STRUCT && g->decl->kind != D_ALIAS;
    }
    if (hidden) {
        WG_ERR(x, callee->loc, "function-calls", "'%s' names a value here, not a function", name);
        return wg_error_val();
    }
    if (wg_names_type(x, name)) {
        if (!lower_args(x, e, a))
            return wg_error_val();
        int t = constructor_type(x, callee, a, e->nargs);
        if (t < 0)
            return wg_error_val();
        if (!wg_type_constructible(x->types, t)) {
            WG_ERR(x, e->loc, "value-constructor", "%s cannot be constructed", wg_tname(x, t));
            return wg_error_val();
        }
        return construct(x, e, t, a, e->nargs);
    }
    if (!strcmp(name, "bitcast"))
        return lower_args(x, e, a) ? bitcast(x, e, a) : wg_error_val();
    if (!strcmp(name, "transpose"))
        return lower_args(x, e, a) ? transpose(x, e, a) : wg_error_val();
    if (!strcmp(name, "workgroupBarrier"))
        return barrier(x, e, EXEC_BARRIER_WORKGROUP);
    if (!strcmp(name, "storageBarrier"))
        return barrier(x, e, EXEC_BARRIER_STORAGE);
    if (!strcmp(name, "textureBarrier"))
        return barrier(x, e, EXEC_BARRIER_TEXTURE);
    if (!lower_args(x, e, a))
        return wg_error_val();
    if (wg_sample_call_is(name) && !sample_level_2d(x, e, name, a))
        return wg_sample_call(x, e, name, a);
    if (!strncmp(name, "texture_", 8)) { /* a texture type: a handle, never a value */
        WG_ERR(x, callee->loc, "value-constructor", "%s cannot be constructed (a texture is "
               "only a module-scope variable's)", name);
        return wg_error_val();
    }
    if (!strncmp(name, "texture", 7))
        return texture_builtin(x, e, name, a);
    if (!strncmp(name, "atomic", 6))
        return atomic_builtin(x, e, name, a);
    if (!strcmp(name, "arrayLength"))
        return array_length(x, e, a);
    if (!strcmp(name, "select") || !strcmp(name, "any") || !strcmp(name, "all"))
        return select_any_all(x, e, name, a);
    if (!strcmp(name, "workgroupUniformLoad")) {
        if (!want_args(x, e, name, 1, 1))
            return wg_error_val();
        if (a[0].kind != V_PTR || a[0].ref.space != SP_WORKGROUP) {
            WG_ERR(x, e->args[0]->loc, "sync-builtin-functions", "workgroupUniformLoad takes a "
                   "pointer to a var<workgroup>");
            return wg_error_val();
        }
        /* a barrier, the load, a barrier: every invocation sees the same value */
        wg_ins *i = wg_emit(x, OP_BARRIER);
        i->sub = EXEC_BARRIER_WORKGROUP;
        int elem = wg_ty(x->types, a[0].type)->elem;
        wg_val v = kind_of(x, elem) == TY_ATOMIC /* of an atomic<T>: its T, as atomicLoad */
                       ? atomic_builtin(x, e, "atomicLoad", a)
                       : wg_load(x, (wg_val){.kind = V_REF, .type = elem, .ref = a[0].ref},
                                 e->loc);
        i = wg_emit(x, OP_BARRIER);
        i->sub = EXEC_BARRIER_WORKGROUP;
        x->uses_barriers = true;
        return v;
    }
    if (!strcmp(name, "frexp") || !strcmp(name, "modf"))
        return frexp_modf(x, e, name, a);
    wg_val p = packing(x, e, name, a);
    if (p.kind != V_VOID || p.type != -1)
        return p;
    if (wg_is_vector_builtin(name))
        return wg_vector_builtin(x, e, name, a);
    if (is_numeric_builtin(name))
        return numeric(x, e, name, a, e->nargs);
    if (is_derivative(name))
        return derivative(x, e, name, a);
    const struct sg_builtin *sgb = sg_find(name);
    if (sgb)
        return subgroup_builtin(x, e, sgb, a);
    WG_ERR(x, callee->loc, "call", "unknown function '%s'", name);
    return wg_error_val();
}
