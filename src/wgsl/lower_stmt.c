/* Statements and structured control flow (mask slots, see ir.h), and user
 * function calls, inlined. */
#include "wgsl/lower.h"

#include <stdlib.h>
#include <string.h>

static wg_ins *at(wg_ctx *x, uint32_t pc)
{
    static wg_ins sink;
    return x->oom ? &sink : &x->prog->code[pc];
}

static void stmt(wg_ctx *x, const wg_stmt *s);

static void emit_slot(wg_ctx *x, wg_opcode op, uint32_t slot)
{
    wg_ins *i = wg_emit(x, op);
    i->imm = slot;
}

static uint32_t bool_cond(wg_ctx *x, const wg_expr *e, const char *what)
{
    wg_val c = wg_load(x, wg_expr_lower(x, e), e->loc);
    if (c.kind != V_ERROR && c.type != T_BOOL)
        WG_ERR(x, e->loc, "type-mismatch", "%s must be bool, not %s", what, wg_tname(x, c.type));
    return wg_to_reg(x, c, e->loc);
}

void wg_block_lower(wg_ctx *x, const wg_stmt *s)
{
    uint32_t mark = x->nsyms, block = x->block_base;
    x->block_base = mark; /* the names declared from here are this block's */
    if (s->kind == S_BLOCK)
        for (uint32_t i = 0; i < s->n; i++)
            stmt(x, s->stmts[i]);
    else
        stmt(x, s);
    x->nsyms = mark;
    x->block_base = block;
}

static void if_stmt(wg_ctx *x, const wg_stmt *s)
{
    uint32_t c = bool_cond(x, s->cond, "an if condition");
    uint32_t slot = wg_slot_alloc(x), pc_if = x->prog->ncode;
    wg_ins *i = wg_emit(x, OP_IF);
    i->imm = slot, i->a = c;
    wg_block_lower(x, s->body);
    uint32_t pc_else = x->prog->ncode;
    emit_slot(x, OP_ELSE, slot);
    if (s->els)
        wg_block_lower(x, s->els);
    uint32_t pc_end = x->prog->ncode;
    emit_slot(x, OP_ENDIF, slot);
    at(x, pc_if)->b = pc_else;
    at(x, pc_else)->b = pc_end;
}

/* Enters a loop or switch; false when out of memory. */
static bool construct_push(wg_ctx *x, uint32_t bslot, uint32_t cslot, bool loop)
{
    if (!wg_grow(x, (void **)&x->cons, &x->cons_cap, x->nbreak, sizeof *x->cons))
        return false;
    x->cons[x->nbreak++] = (wg_construct){bslot, cslot, loop, 0, UINT32_MAX};
    return true;
}

/* loop { body continuing { cont } }: for and while come here too, with a
 * leading `if (!cond) { break; }`. */
static void loop_stmt(wg_ctx *x, const wg_expr *cond, const wg_stmt *body,
                      const wg_stmt *update, const wg_stmt *continuing, wg_loc loc)
{
    uint32_t bslot = wg_slot_alloc(x), cslot = wg_slot_alloc(x);
    emit_slot(x, OP_MASK_CLEAR, bslot);
    uint32_t head = x->prog->ncode;
    emit_slot(x, OP_MASK_CLEAR, cslot);
    if (!construct_push(x, bslot, cslot, true))
        return;
    uint32_t mark = x->nsyms;
    if (cond) {
        uint32_t c = bool_cond(x, cond, "a loop condition");
        wg_ins *i = wg_emit(x, OP_BITS);
        uint32_t nc = wg_reg_alloc(x, 1);
        i->d = nc, i->a = c, i->sub = BITS_LNOT;
        i = wg_emit(x, OP_BREAK_IF);
        i->imm = bslot, i->a = nc;
    }
    uint32_t block = x->block_base, self = x->nbreak - 1;
    x->block_base = mark; /* the body is a block of its own (a for's variable may be hidden) */
    if (body->kind == S_BLOCK)
        for (uint32_t k = 0; k < body->n; k++) {
            x->cons[self].body_syms = x->nsyms;
            stmt(x, body->stmts[k]);
        }
    else
        stmt(x, body);
    x->block_base = block;
    emit_slot(x, OP_MERGE, cslot);
    if (update) { /* a for's update sees its own variables, not the body's */
        x->nsyms = mark;
        stmt(x, update);
    }
    if (continuing) {
        /* a block nested in the body's scope: it sees the body's names and may hide them */
        uint32_t outer = x->continuing_of, from = x->skipped_from, to = x->skipped_to;
        x->continuing_of = x->nbreak;
        x->block_base = x->nsyms;
        /* WGSL 9.4.5: no 'continue' may skip a declaration the continuing block uses */
        x->skipped_from = x->cons[self].continued_at, x->skipped_to = x->nsyms;
        for (uint32_t k = 0; k < continuing->n; k++) {
            const wg_stmt *c = continuing->stmts[k];
            if (c->kind == S_BREAK_IF) {
                if (k + 1 != continuing->n)
                    WG_ERR(x, c->loc, "break-if", "'break if' must be the last statement of "
                           "a continuing block");
                uint32_t r = bool_cond(x, c->cond, "a break-if condition");
                wg_ins *i = wg_emit(x, OP_BREAK_IF);
                i->imm = bslot, i->a = r;
            } else {
                stmt(x, c);
            }
        }
        x->continuing_of = outer;
        x->skipped_from = from, x->skipped_to = to;
        x->block_base = block;
    }
    x->nsyms = mark;
    x->nbreak--;
    wg_ins *i = wg_emit(x, OP_LOOP_END);
    i->imm = bslot, i->b = head;
    i->line = loc.line;
}

/* A counted `for` loop as its body written out once per trip (lower_unroll.c
 * says which loops and why), each copy a block of its own in which the
 * counter is a `let` of that trip's value, as the device's compiler sees
 * it after unrolling; a copy's errors are the first copy's, reported once.
 * No register is reused inside (each value keeps its own, as in the device
 * compiler's SSA form), so opt_nvidia.c finds the operands it folds; the
 * counter's OP_CONST marks where each copy starts and ends (WG_CONST_COPY),
 * since the device folds a loop's body before it unrolls it. */
static void unrolled_for(wg_ctx *x, const wg_stmt *s, const int64_t *values, uint32_t trips)
{
    const wg_val *k = wg_lookup_local(x, s->init->decl->name);
    int type = k && k->kind == V_REF ? k->type : -1;
    bool quiet = x->d->quiet;
    x->in_unrolled++;
    for (uint32_t t = 0; t < trips && type >= 0; t++) {
        uint32_t mark = x->nsyms;
        uint32_t r = wg_reg_alloc(x, 1);
        uint32_t at = x->prog->ncode;
        wg_ins *i = wg_emit(x, OP_CONST);
        i->d = r, i->imm = (uint32_t)values[t], i->sub = WG_CONST_COPY;
        wg_scope_push(x, s->init->decl->name, (wg_val){.kind = V_REG, .type = type, .reg = r});
        wg_block_lower(x, s->body);
        if (at < x->prog->ncode) /* (not if the emit failed) */
            x->prog->code[at].e = x->prog->ncode; /* where the copy ends */
        x->nsyms = mark;
        x->d->quiet = true;
    }
    x->in_unrolled--;
    x->d->quiet = quiet;
}

/* A case value and where it is written, for the duplicate check. */
typedef struct case_value {
    int64_t v;
    wg_loc loc;
} case_value;

static int by_value_then_place(const void *a, const void *b)
{
    const case_value *p = a, *q = b;
    if (p->v != q->v)
        return p->v < q->v ? -1 : 1;
    if (p->loc.line != q->loc.line)
        return p->loc.line < q->loc.line ? -1 : 1;
    return p->loc.col < q->loc.col ? -1 : p->loc.col > q->loc.col;
}

/* WGSL 9.4.2: no two case selectors of a switch have the same value
 * (sorted, so n log n in the selectors); the later one is reported. */
static void duplicate_cases(wg_ctx *x, case_value *v, uint32_t n)
{
    qsort(v, n, sizeof *v, by_value_then_place);
    for (uint32_t i = 1; i < n; i++)
        if (v[i].v == v[i - 1].v)
            WG_ERR(x, v[i].loc, "switch-statement", "duplicate switch case value %lld (also at "
                   "line %u, column %u)", (long long)v[i].v, v[i - 1].loc.line,
                   v[i - 1].loc.col);
}

static void switch_stmt(wg_ctx *x, const wg_stmt *s)
{
    wg_val sel = wg_load(x, wg_expr_lower(x, s->cond), s->cond->loc);
    if (sel.kind == V_ERROR)
        return;
    if (!wg_type_is_integer(x->types, sel.type) || !wg_type_is_scalar(x->types, sel.type)) {
        WG_ERR(x, s->cond->loc, "switch-statement", "a switch selector must be i32 or u32, not %s",
               wg_tname(x, sel.type));
        return;
    }
    uint32_t nsel = 0;
    for (uint32_t k = 0; k < s->ncases; k++)
        nsel += s->cases[k].nselectors;
    wg_val *lowered = malloc((nsel ? nsel : 1) * sizeof *lowered);
    if (!lowered) {
        x->oom = true;
        return;
    }
    /* WGSL 9.4.2: the selector and the case values convert to one type - a
     * concrete one among them (an AbstractInt selector takes a u32 case's) */
    int st = wg_type_is_abstract(x->types, sel.type) ? -1 : sel.type;
    for (uint32_t k = 0, n = 0; k < s->ncases; k++)
        for (uint32_t j = 0; j < s->cases[k].nselectors; j++, n++) {
            const wg_expr *e = s->cases[k].selectors[j];
            lowered[n] = e ? wg_load(x, wg_expr_lower(x, e), e->loc) : wg_error_val();
            if (st < 0 && lowered[n].kind != V_ERROR &&
                !wg_type_is_abstract(x->types, lowered[n].type) &&
                wg_type_is_integer(x->types, lowered[n].type) &&
                wg_type_is_scalar(x->types, lowered[n].type))
                st = lowered[n].type;
        }
    if (st < 0)
        st = wg_type_concrete(x->types, sel.type);
    uint32_t rsel = wg_to_reg(x, wg_convert(x, sel, st, s->cond->loc, "the selector"), s->loc);
    uint32_t bslot = wg_slot_alloc(x);
    emit_slot(x, OP_MASK_CLEAR, bslot);
    uint32_t *slots = malloc((s->ncases + 1) * 2 * sizeof *slots), *pcs = slots + s->ncases + 1;
    uint32_t nvalues = 0, nlowered = 0;
    case_value *values = malloc((nsel ? nsel : 1) * sizeof *values);
    if (!slots || !values || !construct_push(x, bslot, UINT32_MAX, false)) {
        free(slots);
        free(values);
        free(lowered);
        x->oom = true;
        return;
    }
    const wg_case *deflt = NULL;
    uint32_t opened = 0;
    for (uint32_t k = 0; k < s->ncases; k++) {
        const wg_case *c = &s->cases[k];
        uint32_t cond = UINT32_MAX;
        bool has_default = false;
        for (uint32_t j = 0; j < c->nselectors; j++) {
            wg_val v = lowered[nlowered++];
            if (!c->selectors[j]) {
                has_default = true;
                continue;
            }
            if (v.kind == V_ERROR)
                continue;
            v = wg_convert(x, v, st, c->selectors[j]->loc, "the case value");
            if (v.kind != V_CONST) {
                if (v.kind != V_ERROR)
                    WG_ERR(x, c->selectors[j]->loc, "switch-statement", "a case value must be a "
                           "const-expression");
                continue;
            }
            values[nvalues++] = (case_value){x->types->t[st].kind == TY_I32
                                                 ? (int64_t)(int32_t)v.c[0].u
                                                 : (int64_t)v.c[0].u, c->selectors[j]->loc};
            uint32_t r = wg_const_reg(x, v.c, st), eq = wg_reg_alloc(x, 1);
            wg_ins *i = wg_emit(x, OP_CMP);
            i->d = eq, i->a = rsel, i->b = r, i->sub = CMP_EQ, i->n = (uint16_t)x->types->t[st].kind;
            if (cond != UINT32_MAX) {
                uint32_t o = wg_reg_alloc(x, 1);
                i = wg_emit(x, OP_BITS);
                i->d = o, i->a = cond, i->b = eq, i->sub = BITS_OR;
                eq = o;
            }
            cond = eq;
        }
        if (has_default) {
            if (deflt)
                WG_ERR(x, c->loc, "switch-statement", "a switch has one default clause");
            deflt = c;
            if (cond == UINT32_MAX)
                continue; /* only `default`: runs last, in the final else */
            /* `case 1, default:` - the other selectors also lead here; default still wins
             * for unmatched values since it is placed last below */
        }
        if (cond == UINT32_MAX)
            continue;
        slots[opened] = wg_slot_alloc(x);
        pcs[opened] = x->prog->ncode;
        wg_ins *i = wg_emit(x, OP_IF);
        i->imm = slots[opened], i->a = cond;
        wg_block_lower(x, c->body);
        uint32_t pc_else = x->prog->ncode;
        emit_slot(x, OP_ELSE, slots[opened]);
        at(x, pcs[opened])->b = pc_else;
        pcs[opened] = pc_else;
        opened++;
    }
    duplicate_cases(x, values, nvalues);
    free(values);
    free(lowered);
    if (!deflt)
        WG_ERR(x, s->loc, "switch-statement", "a switch needs a default clause");
    else
        wg_block_lower(x, deflt->body);
    while (opened-- > 0) {
        at(x, pcs[opened])->b = x->prog->ncode;
        emit_slot(x, OP_ENDIF, slots[opened]);
    }
    free(slots);
    x->nbreak--;
    emit_slot(x, OP_MERGE, bslot);
}

static bool check_ref_type(wg_ctx *x, wg_val v, wg_loc loc, const char *what)
{
    if (v.kind == V_ERROR)
        return false;
    if (v.kind != V_REF) {
        WG_ERR(x, loc, "assignment", "the left side of %s must be a variable or a part of "
               "one", what);
        return false;
    }
    return true;
}

static void decl_stmt(wg_ctx *x, const wg_decl *d)
{
    if (d->kind == D_CONST_ASSERT) {
        wg_val c = wg_expr_lower(x, d->init);
        if (c.kind == V_CONST && c.type == T_BOOL && !c.c[0].u)
            WG_ERR(x, d->loc, "const-assert", "const_assert failed");
        else if (c.kind != V_ERROR && (c.kind != V_CONST || c.type != T_BOOL))
            WG_ERR(x, d->loc, "const-assert", "const_assert needs a bool const-expression");
        return;
    }
    /* shadowing an outer scope is fine; a name twice in one block is not */
    for (uint32_t i = x->nsyms; i-- > x->block_base && i >= x->sym_base;)
        if (x->syms[i].name && !strcmp(x->syms[i].name, d->name)) {
            WG_ERR(x, d->loc, "redeclaration", "'%s' is already declared in this block",
                   d->name);
            break;
        }
    int type = d->type ? wg_resolve_type(x, d->type) : -1;
    if (d->type && type < 0) {
        wg_scope_push(x, d->name, wg_error_val());
        return;
    }
    uint32_t overrides = x->override_uses;
    wg_val v = d->init ? wg_expr_lower(x, d->init) : wg_error_val();
    if (d->init && v.kind != V_ERROR) {
        if (v.kind == V_PTR && d->kind == D_LET) {
            if (type >= 0 && type != v.type) {
                WG_ERR(x, d->init->loc, "type-mismatch", "'%s' is declared %s but initialised "
                       "with %s", d->name, wg_tname(x, type), wg_tname(x, v.type));
                v = wg_error_val();
            }
            wg_scope_push(x, d->name, v); /* let p = &x; */
            return;
        }
        v = wg_load(x, v, d->init->loc);
        if (v.kind == V_HANDLE || v.kind == V_VOID) {
            WG_ERR(x, d->init->loc, "var-decls", "'%s' cannot hold %s", d->name,
                   v.kind == V_VOID ? "the result of a function without one" : "a texture");
            v = wg_error_val();
        }
    }
    if (v.kind != V_ERROR) {
        if (type < 0 && d->kind != D_CONST)
            type = wg_type_concrete(x->types, v.type);
        if (type >= 0)
            v = wg_convert(x, v, type, d->init->loc, "the initializer");
    }
    switch (d->kind) {
    case D_CONST: /* a const-expression names no override (WGSL 8.x) */
        if (v.kind != V_ERROR && (v.kind != V_CONST || x->override_uses > overrides)) {
            WG_ERR(x, d->init->loc, "const-expr", "the initializer of const '%s' is not a "
                   "const-expression", d->name);
            v = wg_error_val();
        }
        if (!d->init)
            WG_ERR(x, d->loc, "const-decls", "const '%s' needs an initializer", d->name);
        wg_scope_push(x, d->name, v);
        return;
    case D_LET:
        if (!d->init)
            WG_ERR(x, d->loc, "let-decls", "let '%s' needs an initializer", d->name);
        if (v.kind == V_CONST) /* a let is a runtime value: materialise it once */
            v = (wg_val){.kind = V_REG, .type = v.type, .reg = wg_to_reg(x, v, d->loc)};
        wg_scope_push(x, d->name, v);
        return;
    case D_VAR: {
        if (d->space && strcmp(d->space, "function"))
            WG_ERR(x, d->loc, "var-decls", "a var in a function is in the function address "
                   "space, not %s", d->space);
        if (d->access)
            WG_ERR(x, d->loc, "var-decls", "a function-scope var takes no access mode");
        if (type < 0) {
            if (!d->init)
                WG_ERR(x, d->loc, "var-decls", "var '%s' needs a type or an initializer",
                       d->name);
            wg_scope_push(x, d->name, wg_error_val());
            return;
        }
        if (d->type && !wg_not_override_sized(x, type, d->type, "a function-scope var")) {
            wg_scope_push(x, d->name, wg_error_val());
            return;
        }
        if (!wg_type_constructible(x->types, type)) {
            WG_ERR(x, d->loc, "var-decls", "a function-scope var cannot hold %s",
                   wg_tname(x, type));
            wg_scope_push(x, d->name, wg_error_val());
            return;
        }
        uint32_t words = wg_ty(x->types, type)->words;
        uint32_t reg = wg_reg_alloc(x, words);
        if (v.kind == V_ERROR || !d->init) {
            for (uint32_t w = 0; w < words && !x->limit_hit; w++) { /* zero-initialised */
                wg_ins *i = wg_emit(x, OP_CONST);
                i->d = reg + w;
            }
        } else {
            uint32_t r = wg_to_reg(x, v, d->init->loc);
            wg_ins *i = wg_emit(x, OP_MOV);
            i->d = reg, i->a = r, i->n = (uint16_t)words;
        }
        wg_scope_push(x, d->name, (wg_val){.kind = V_REF, .type = type,
                                           .ref = {.space = SP_FUNCTION, .base = reg,
                                                   .dyn = WG_NONE_REG,
                                                   .access = STEX_ACCESS_READ_WRITE}});
        return;
    }
    default:
        WG_ERR(x, d->loc, "syntax", "this declaration is not allowed in a function");
    }
}

/* The memory stores emitted since instruction n0 are at `loc` (the left-hand
 * side: a race report names the store there, not at its '='). */
static void stores_at(wg_ctx *x, uint32_t n0, wg_loc loc)
{
    for (uint32_t i = n0; i < x->prog->ncode; i++)
        if (x->prog->code[i].op == OP_BUF_STORE || x->prog->code[i].op == OP_WG_STORE)
            wg_ins_at(&x->prog->code[i], loc.line, loc.col);
}

static void assign_stmt(wg_ctx *x, const wg_stmt *s)
{
    if (!s->lhs) { /* _ = e */
        wg_val v = wg_expr_lower(x, s->rhs);
        if (v.kind == V_VOID) /* WGSL 9.2.2: e is a value */
            WG_ERR(x, s->rhs->loc, "phony-assignment", "'_ =' needs a value; the call returns "
                   "none");
        if (v.kind == V_REF)
            wg_load(x, v, s->rhs->loc);
        return;
    }
    wg_val l = wg_expr_lower(x, s->lhs);
    if (!check_ref_type(x, l, s->lhs->loc, "an assignment"))
        return;
    wg_val r;
    if (s->op == TK_ASSIGN) {
        r = wg_expr_lower(x, s->rhs);
    } else {
        /* a op= b is a = a op b, with a's reference evaluated once */
        static const struct { wg_tok_kind c, op; } ops[] = {
            {TK_PLUS_ASSIGN, TK_PLUS}, {TK_MINUS_ASSIGN, TK_MINUS}, {TK_STAR_ASSIGN, TK_STAR},
            {TK_SLASH_ASSIGN, TK_SLASH}, {TK_PERCENT_ASSIGN, TK_PERCENT},
            {TK_AND_ASSIGN, TK_AMP}, {TK_OR_ASSIGN, TK_PIPE}, {TK_XOR_ASSIGN, TK_CARET},
            {TK_SHL_ASSIGN, TK_SHL}, {TK_SHR_ASSIGN, TK_SHR}};
        wg_tok_kind op = TK_PLUS;
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
            if (ops[k].c == s->op)
                op = ops[k].op;
        /* lower `lhs op rhs` with lhs bound to a temporary name */
        wg_scope_push(x, "$lhs", l);
        wg_expr lhs = {.kind = E_IDENT, .loc = s->lhs->loc, .name = "$lhs"};
        wg_expr bin = {.kind = E_BINARY, .loc = s->loc, .op = op, .a = &lhs, .b = s->rhs};
        r = wg_expr_lower(x, &bin);
        x->nsyms--;
    }
    r = wg_load(x, r, s->rhs->loc);
    if (r.kind == V_ERROR)
        return;
    r = wg_convert(x, r, l.type, s->rhs->loc, "the value");
    if (r.kind == V_ERROR)
        return;
    uint32_t n0 = x->prog->ncode;
    wg_store(x, &l.ref, l.type, wg_to_reg(x, r, s->rhs->loc), s->loc);
    stores_at(x, n0, s->lhs->loc);
}

static void incdec_stmt(wg_ctx *x, const wg_stmt *s)
{
    wg_val l = wg_expr_lower(x, s->lhs);
    if (!check_ref_type(x, l, s->lhs->loc, s->op == TK_PLUS_PLUS ? "'++'" : "'--'"))
        return;
    if (!wg_type_is_integer(x->types, l.type) || !wg_type_is_scalar(x->types, l.type)) {
        WG_ERR(x, s->loc, "increment-decrement", "'%s' needs an i32 or u32 variable, not %s",
               wg_tok_spelling(s->op), wg_tname(x, l.type));
        return;
    }
    wg_scope_push(x, "$lhs", l);
    wg_expr lhs = {.kind = E_IDENT, .loc = s->lhs->loc, .name = "$lhs"};
    wg_expr one = {.kind = E_INT, .loc = s->loc, .ival = 1};
    wg_expr bin = {.kind = E_BINARY, .loc = s->loc, .op = s->op == TK_PLUS_PLUS ? TK_PLUS : TK_MINUS,
                   .a = &lhs, .b = &one};
    wg_val r = wg_expr_lower(x, &bin);
    x->nsyms--;
    if (r.kind != V_ERROR) {
        uint32_t n0 = x->prog->ncode;
        wg_store(x, &l.ref, l.type, wg_to_reg(x, r, s->loc), s->loc);
        stores_at(x, n0, s->lhs->loc);
    }
}

static void return_stmt(wg_ctx *x, const wg_stmt *s)
{
    wg_fn_frame *f = &x->frames[x->nframes - 1];
    if (s->cond) {
        wg_val v = wg_load(x, wg_expr_lower(x, s->cond), s->cond->loc);
        f = &x->frames[x->nframes - 1]; /* the value's calls may have moved the frames */
        if (f->ret_type == T_VOID) {
            WG_ERR(x, s->loc, "return-statement", "function '%s' returns no value",
                   f->fn->name);
        } else if (v.kind != V_ERROR) {
            v = wg_convert(x, v, f->ret_type, s->cond->loc, "the returned value");
            if (v.kind != V_ERROR) {
                /* the value's own code (a constant's) comes before the move */
                uint32_t r = wg_to_reg(x, v, s->loc);
                wg_ins *i = wg_emit(x, OP_MOVM);
                i->d = f->ret_reg, i->a = r;
                i->n = (uint16_t)wg_ty(x->types, f->ret_type)->words;
            }
        }
    } else if (f->ret_type != T_VOID) {
        WG_ERR(x, s->loc, "return-statement", "function '%s' must return a %s", f->fn->name,
               wg_tname(x, f->ret_type));
    }
    emit_slot(x, OP_EXIT, f->ret_slot);
}

/* WGSL 9.6: a call statement may drop a result, unless its function is
 * @must_use: a user function so marked, a value constructor, and every
 * builtin that returns a value except the atomics (atomicLoad and the
 * read-modify-writes). */
static bool must_use(wg_ctx *x, const wg_expr *call)
{
    if (call->kind != E_CALL || !call->a || call->a->kind != E_IDENT)
        return false;
    const char *name = call->a->name;
    int32_t i = wg_ast_find(x->ast, name);
    const wg_decl *d = i >= 0 ? x->ast->decls[i] : NULL;
    if (d && d->kind == D_FN)
        return wg_find_attr(d->attrs, d->nattrs, "must_use") != NULL;
    return strncmp(name, "atomic", 6) != 0;
}

static void stmt(wg_ctx *x, const wg_stmt *s)
{
    if (!wg_deeper(x, s->loc))
        return;
    uint32_t line = x->line, regs = x->reg_next;
    x->line = s->loc.line;
    switch (s->kind) {
    case S_BLOCK: wg_block_lower(x, s); break;
    case S_DECL: decl_stmt(x, s->decl); regs = x->reg_next; break;
    case S_ASSIGN: assign_stmt(x, s); break;
    case S_INCDEC: incdec_stmt(x, s); break;
    case S_CALL: {
        wg_val v = wg_expr_lower(x, s->rhs);
        if (v.kind != V_ERROR && v.kind != V_VOID && must_use(x, s->rhs))
            WG_ERR(x, s->rhs->loc, "function-call-statement", "the result of '%s' is unused: "
                   "it is @must_use (use it, or write `_ = %s(...);`)", s->rhs->a->name,
                   s->rhs->a->name);
        break;
    }
    case S_IF: if_stmt(x, s); break;
    case S_SWITCH: switch_stmt(x, s); break;
    case S_LOOP: loop_stmt(x, NULL, s->body, NULL, s->continuing, s->loc); break;
    case S_WHILE: loop_stmt(x, s->cond, s->body, NULL, NULL, s->loc); break;
    case S_FOR: {
        uint32_t mark = x->nsyms, trips, nodes;
        int64_t values[WG_UNROLL_MAX_TRIPS];
        if (s->init)
            stmt(x, s->init);
        uint32_t keep = x->reg_next; /* the init's variables live through the loop */
        if (x->unroll && wg_unroll_trips(s, values, &trips, &nodes) &&
            x->unrolled + nodes <= WG_UNROLL_MAX_TOTAL && x->prog->ncode < WG_UNROLL_MAX_CODE) {
            x->unrolled += nodes;
            unrolled_for(x, s, values, trips);
        } else {
            loop_stmt(x, s->cond, s->body, s->update, NULL, s->loc);
        }
        x->nsyms = mark;
        regs = keep > regs ? keep : regs;
        break;
    }
    case S_BREAK:
        if (x->nbreak == x->break_base)
            WG_ERR(x, s->loc, "break-statement", "'break' outside a loop or switch");
        else if (x->continuing_of == x->nbreak) /* a loop or switch inside may break */
            WG_ERR(x, s->loc, "break-statement", "use 'break if' in a continuing block");
        else
            emit_slot(x, OP_EXIT, x->cons[x->nbreak - 1].break_slot);
        break;
    case S_BREAK_IF:
        WG_ERR(x, s->loc, "break-if", "'break if' is only allowed at the end of a continuing "
               "block");
        break;
    case S_CONTINUE: {
        uint32_t k = x->nbreak;
        while (k > x->break_base && !x->cons[k - 1].is_loop)
            k--;
        if (k == x->break_base)
            WG_ERR(x, s->loc, "continue-statement", "'continue' outside a loop");
        else if (x->continuing_of == k) /* a loop inside may continue */
            WG_ERR(x, s->loc, "continue-statement", "'continue' in a continuing block");
        else {
            wg_construct *loop = &x->cons[k - 1];
            if (loop->continued_at == UINT32_MAX)
                loop->continued_at = loop->body_syms;
            emit_slot(x, OP_EXIT, loop->continue_slot);
        }
        break;
    }
    case S_RETURN: return_stmt(x, s); break;
    case S_DISCARD:
        if (!x->stage_free) /* in a fragment shader it ends the invocation, never run here */
            wg_stage_error(x, s->loc, "discard-statement", "discard",
                           "'discard' is only allowed in fragment shaders");
        break;
    case S_EMPTY: break;
    }
    /* the statement's temporaries are free again - but an unrolled loop keeps
     * every value, as the device compiler's SSA form, while it stays small */
    if (!x->in_unrolled || x->reg_next > WG_UNROLL_MAX_REGS)
        x->reg_next = regs;
    x->line = line;
}

/* ---- behaviour analysis (WGSL 9.8) ---- */

enum { BH_NEXT = 1, BH_RETURN = 2, BH_BREAK = 4, BH_CONTINUE = 8 };

static unsigned behaviour(wg_ctx *x, const wg_stmt *s, bool *reported);

/* loop {body continuing {cont}}: the body's B1 and the continuing's B2. */
static unsigned loop_behaviour(unsigned b1, unsigned b2)
{
    if (b1 == BH_RETURN)
        return BH_RETURN;
    unsigned u = b1 | b2;
    return u & BH_BREAK ? (u | BH_NEXT) & ~(unsigned)(BH_BREAK | BH_CONTINUE)
                        : u & ~(unsigned)(BH_CONTINUE | BH_NEXT);
}

/* The set of ways execution leaves s; a statement whose set is empty (a
 * loop with no break and no return) is an error, reported once. */
static unsigned behaviour(wg_ctx *x, const wg_stmt *s, bool *reported)
{
    unsigned b = BH_NEXT;
    if (!s)
        return b;
    switch (s->kind) {
    case S_BLOCK:
        for (uint32_t i = 0; i < s->n; i++) {
            unsigned bi = behaviour(x, s->stmts[i], reported); /* also when unreachable */
            if (b & BH_NEXT)
                b = (b & ~(unsigned)BH_NEXT) | bi;
        }
        return b;
    case S_RETURN: return BH_RETURN;
    case S_BREAK: return BH_BREAK;
    case S_CONTINUE: return BH_CONTINUE;
    case S_BREAK_IF: return BH_BREAK | BH_NEXT;
    case S_IF:
        return behaviour(x, s->body, reported) | behaviour(x, s->els, reported);
    case S_SWITCH:
        b = 0;
        for (uint32_t i = 0; i < s->ncases; i++)
            b |= behaviour(x, s->cases[i].body, reported);
        return b & BH_BREAK ? (b | BH_NEXT) & ~(unsigned)BH_BREAK : b;
    case S_LOOP: {
        unsigned b1 = behaviour(x, s->body, reported);
        unsigned b2 = behaviour(x, s->continuing, reported);
        if ((b2 & (BH_CONTINUE | BH_RETURN)) && !*reported) {
            WG_ERR(x, s->continuing->loc, "behaviors", "a continuing block cannot leave "
                   "through 'return' or 'continue'");
            *reported = true;
        }
        b = loop_behaviour(b1, b2);
        break;
    }
    case S_WHILE: /* loop { if !cond { break; } body } */
        b = loop_behaviour(BH_BREAK | behaviour(x, s->body, reported), BH_NEXT);
        break;
    case S_FOR: /* init; loop { if !cond { break; } body continuing { update } } */
        behaviour(x, s->init, reported);
        b = loop_behaviour((s->cond ? BH_BREAK : 0) | behaviour(x, s->body, reported),
                           behaviour(x, s->update, reported));
        break;
    default: return BH_NEXT;
    }
    if (!b && !*reported) {
        WG_ERR(x, s->loc, "behaviors", "this loop never ends: it has no 'break' and no "
               "'return' it can reach (WGSL 9.8: every statement has a way out)");
        *reported = true;
    }
    return b;
}

/* A function's body: {Return} where it returns a value (no way to fall off
 * its end), else within {Next, Return}. */
static void check_behaviour(wg_ctx *x, const wg_decl *fn, int rt)
{
    bool reported = false;
    unsigned b = behaviour(x, fn->body, &reported);
    if (reported || !fn->body)
        return;
    if (rt != T_VOID && rt >= 0 && b != BH_RETURN)
        WG_ERR(x, fn->loc, "behaviors", "function '%s' returns %s, but can reach the end of "
               "its body without a 'return'", fn->name, wg_tname(x, rt));
}

/* Binds a function's parameters and lowers its body with a fresh return slot. */
static void function_body(wg_ctx *x, const wg_decl *fn, const wg_val *params, wg_val *result)
{
    int rt = fn->ret ? wg_resolve_type(x, fn->ret) : T_VOID;
    /* as deep as the module's functions go */
    if (!wg_grow(x, (void **)&x->frames, &x->frames_cap, x->nframes, sizeof *x->frames)) {
        *result = wg_error_val();
        return;
    }
    uint32_t depth = x->nframes;
    wg_fn_frame *f = &x->frames[x->nframes++];
    f->fn = fn;
    f->ret_type = rt < 0 ? T_VOID : rt;
    f->ret_reg = rt > 0 ? wg_reg_alloc(x, wg_ty(x->types, rt)->words) : 0;
    f->ret_slot = wg_slot_alloc(x);
    if (x->nframes == 1)
        x->prog->ret_slot = f->ret_slot;
    emit_slot(x, OP_MASK_CLEAR, f->ret_slot);
    /* a callee's break and continue see only its own loops and switches */
    uint32_t mark = x->nsyms, base = x->break_base, cont = x->continuing_of;
    uint32_t sym_base = x->sym_base;
    x->break_base = x->nbreak;
    x->sym_base = mark;
    x->continuing_of = 0;
    for (uint32_t i = 0; i < fn->nparams; i++)
        wg_scope_push(x, fn->params[i].name, params[i]);
    /* the parameters and the body's top level are one scope */
    uint32_t block = x->block_base;
    x->block_base = mark;
    for (uint32_t i = 0; fn->body && i < (fn->body->kind == S_BLOCK ? fn->body->n : 1); i++)
        stmt(x, fn->body->kind == S_BLOCK ? fn->body->stmts[i] : fn->body);
    x->block_base = block;
    f = &x->frames[depth]; /* the body's calls may have moved the frames */
    emit_slot(x, OP_MERGE, f->ret_slot);
    x->nsyms = mark;
    x->break_base = base;
    x->sym_base = sym_base;
    x->continuing_of = cont;
    x->nframes--;
    *result = rt > 0 ? (wg_val){.kind = V_REG, .type = rt, .reg = f->ret_reg}
                     : (wg_val){.kind = V_VOID, .type = T_VOID};
}

/* a texture or sampler: a parameter holds the caller's handle itself */
static bool handle_kind(wg_type_kind k)
{
    return k == TY_SAMPLER || k == TY_TEXTURE || k == TY_STORAGE_TEXTURE;
}

wg_val wg_user_call(wg_ctx *x, const wg_decl *fn, const wg_expr *call)
{
    for (uint32_t i = 0; i < x->nframes; i++)
        if (x->frames[i].fn == fn) {
            WG_ERR(x, call->loc, "recursion", "function '%s' calls itself (recursion is not "
                   "allowed in WGSL)", fn->name);
            return wg_error_val();
        }
    if (wg_stage_attr(fn->attrs, fn->nattrs)) {
        WG_ERR(x, call->loc, "call", "entry point '%s' cannot be called", fn->name);
        return wg_error_val();
    }
    if (++x->inlined > WG_MAX_INLINED_CALLS)
        wg_limit(x, call->loc, "more than %u function calls once calls inside called functions "
                 "are inlined (each call site lowers the callee again)", WG_MAX_INLINED_CALLS);
    if (x->inline_total && ++*x->inline_total > WG_MAX_MODULE_INLINED)
        wg_limit(x, call->loc, "more than %u function calls inlined while the module's functions "
                 "are checked (each call site lowers the callee again)", WG_MAX_MODULE_INLINED);
    if (!wg_deeper(x, call->loc))
        return wg_error_val();
    if (call->nargs != fn->nparams) {
        WG_ERR(x, call->loc, "call", "'%s' takes %u argument%s, not %u", fn->name, fn->nparams,
               fn->nparams == 1 ? "" : "s", call->nargs);
        return wg_error_val();
    }
    wg_val *params = wg_alloc(x->arena, (fn->nparams ? fn->nparams : 1) * sizeof *params);
    if (!params) {
        x->oom = true;
        return wg_error_val();
    }
    bool ok = true;
    for (uint32_t i = 0; i < fn->nparams; i++) {
        int pt = wg_resolve_type(x, fn->params[i].type);
        wg_val v = wg_expr_lower(x, call->args[i]);
        if (pt < 0 || v.kind == V_ERROR) {
            ok = false;
            continue;
        }
        if (x->types->t[pt].kind == TY_PTR) {
            const wg_type *want = wg_ty(x->types, pt);
            /* the same pointer type: store type, address space and access
             * mode (a read-only storage pointer is no read_write one) */
            if (v.kind != V_PTR || wg_ty(x->types, v.type)->elem != want->elem ||
                wg_ty(x->types, v.type)->space != want->space ||
                wg_ty(x->types, v.type)->access != want->access) {
                WG_ERR(x, call->args[i]->loc, "type-mismatch", "argument %u of '%s' must be %s",
                       i + 1, fn->name, wg_tname(x, pt));
                ok = false;
            }
            params[i] = v;
            continue;
        }
        if (handle_kind(x->types->t[pt].kind)) {
            /* a handle goes in as itself: the body's builtins name its binding */
            if (v.kind != V_HANDLE || v.type != pt) {
                WG_ERR(x, call->args[i]->loc, "type-mismatch", "argument %u of '%s' must be %s",
                       i + 1, fn->name, wg_tname(x, pt));
                ok = false;
            }
            params[i] = v;
            continue;
        }
        v = wg_convert(x, wg_load(x, v, call->args[i]->loc), pt, call->args[i]->loc,
                       "the argument");
        if (v.kind == V_ERROR) {
            ok = false;
            continue;
        }
        params[i] = (wg_val){.kind = V_REG, .type = pt, .reg = wg_to_reg(x, v, call->loc)};
    }
    if (!ok)
        return wg_error_val();
    /* the body's own errors are reported when it is checked alone; a
     * pipeline's lowering reports what its overrides' values bring (an index
     * out of bounds, a division by zero: WGSL's pipeline-creation errors) */
    bool quiet = x->d->quiet;
    x->d->quiet = quiet || !x->pipeline;
    wg_val r;
    uint32_t line = x->line, stage_uses = x->stage_uses;
    x->stage_use_name = NULL;
    function_body(x, fn, params, &r);
    x->line = line;
    x->d->quiet = quiet;
    /* checked alone, a body may use the fragment stage's builtins; called
     * from a compute or vertex shader it may not: the call is the error */
    if (x->stage_uses > stage_uses && !quiet) {
        WG_ERR(x, call->loc, "shader-stage", "'%s' calls %s (line %u, column %u), which only a "
               "fragment shader may call", fn->name, x->stage_use_name, x->stage_use_loc.line,
               x->stage_use_loc.col);
        return wg_error_val();
    }
    return r;
}

/* ---- entry points and whole functions ---- */

/* The register of compute input `name` of type t (its words), or
 * UINT32_MAX with the error reported at loc. */
static uint32_t builtin_reg(wg_ctx *x, const wg_expr *name, int t, wg_loc loc)
{
    static const struct { const char *n; uint32_t reg, words; } B[] = {
        {"global_invocation_id", REG_GLOBAL_ID, 3}, {"local_invocation_id", REG_LOCAL_ID, 3},
        {"local_invocation_index", REG_LOCAL_INDEX, 1}, {"workgroup_id", REG_WORKGROUP_ID, 3},
        {"num_workgroups", REG_NUM_WORKGROUPS, 3}};
    for (size_t i = 0; i < sizeof B / sizeof B[0]; i++) {
        if (strcmp(name->name, B[i].n))
            continue;
        int want = B[i].words == 1 ? T_U32 : wg_type_vec(x->types, T_U32, 3);
        if (t != want) {
            WG_ERR(x, loc, "builtin-values", "@builtin(%s) has type %s, not %s", B[i].n,
                   wg_tname(x, want), wg_tname(x, t));
            return UINT32_MAX;
        }
        return B[i].reg;
    }
    static const struct { const char *n; int sub; } SG[] = {
        {"subgroup_invocation_id", WG_SG_LANE}, {"subgroup_size", WG_SG_SIZE},
        {"subgroup_id", WG_SG_ID}, {"num_subgroups", WG_SG_COUNT}};
    int sgsub = -1;
    for (size_t k = 0; k < sizeof SG / sizeof SG[0]; k++)
        if (!strcmp(name->name, SG[k].n))
            sgsub = SG[k].sub;
    if (sgsub >= 0) { /* the subgroups extension */
        if (!x->ast->enable_subgroups) {
            WG_ERR(x, name->loc, "builtin-values", "@builtin(%s) needs 'enable subgroups;'",
                   name->name);
            return UINT32_MAX;
        }
        if (t != T_U32) {
            WG_ERR(x, loc, "builtin-values", "@builtin(%s) has type u32, not %s", name->name,
                   wg_tname(x, t));
            return UINT32_MAX;
        }
        uint32_t r = wg_reg_alloc(x, 1); /* at the entry point's start: every lane runs */
        wg_ins *i = wg_emit(x, OP_SUBGROUP);
        i->sub = (uint8_t)sgsub, i->d = r, i->n = 1;
        i->a = i->b = WG_NONE_REG;
        return r;
    }
    WG_ERR(x, name->loc, "builtin-values", "@builtin(%s) is not a compute shader input",
           name->name);
    return UINT32_MAX;
}

static const wg_expr *builtin_name(const wg_attr *attrs, uint32_t nattrs)
{
    const wg_attr *b = wg_find_attr(attrs, nattrs, "builtin");
    return b && b->nargs && b->args[0]->kind == E_IDENT ? b->args[0] : NULL;
}

/* An entry point parameter: a built-in input, or a structure whose members
 * all are (WGSL 13.3.1), copied member by member into its registers. */
static wg_val builtin_param(wg_ctx *x, const wg_param *p)
{
    int t = wg_resolve_type(x, p->type);
    const wg_expr *b = builtin_name(p->attrs, p->nattrs);
    if (b) {
        uint32_t r = t < 0 ? UINT32_MAX : builtin_reg(x, b, t, p->loc);
        return r == UINT32_MAX ? wg_error_val() : (wg_val){.kind = V_REG, .type = t, .reg = r};
    }
    wg_global *g = t >= 0 && x->types->t[t].kind == TY_STRUCT && p->type->kind == E_IDENT
                       ? wg_global_find(x, p->type->name, p->loc) : NULL;
    if (!g || g->decl->kind != D_STRUCT) {
        WG_ERR(x, p->loc, "entry-point-io", "an entry point parameter needs @builtin(...) or "
               "a structure of them");
        return wg_error_val();
    }
    const wg_type *st = wg_ty(x->types, t);
    uint32_t d = wg_reg_alloc(x, st->words);
    for (uint32_t i = 0; i < g->decl->nparams && i < st->nmembers; i++) {
        const wg_param *m = &g->decl->params[i];
        const wg_expr *mb = builtin_name(m->attrs, m->nattrs);
        if (!mb) {
            WG_ERR(x, m->loc, "entry-point-io", "member '%s' of an entry point parameter needs "
                   "@builtin(...)", m->name);
            return wg_error_val();
        }
        uint32_t r = builtin_reg(x, mb, st->members[i].type, m->loc);
        if (r == UINT32_MAX)
            return wg_error_val();
        wg_ins *in = wg_emit(x, OP_MOV);
        in->d = d + st->members[i].word, in->a = r;
        in->n = (uint16_t)wg_ty(x->types, st->members[i].type)->words;
    }
    return (wg_val){.kind = V_REG, .type = t, .reg = d};
}

void wg_lower_function(wg_ctx *x, const wg_decl *fn, bool entry);
void wg_lower_function(wg_ctx *x, const wg_decl *fn, bool entry)
{
    x->line = fn->loc.line;
    /* every var<private> first: their initializers run before anything else
     * (a function checked alone never runs: its uses analyse the ones it
     * names, and a module of many functions and variables stays linear) */
    for (uint32_t i = 0; entry && i < x->ast->n; i++) {
        const wg_decl *d = x->ast->decls[i];
        if (d->kind == D_VAR && d->space && !strcmp(d->space, "private"))
            wg_global_find(x, d->name, d->loc);
    }
    wg_val *params = wg_alloc(x->arena, (fn->nparams ? fn->nparams : 1) * sizeof *params);
    if (!params) {
        x->oom = true;
        return;
    }
    for (uint32_t i = 0; i < fn->nparams; i++) {
        if (entry) {
            params[i] = builtin_param(x, &fn->params[i]);
            continue;
        }
        int t = wg_resolve_type(x, fn->params[i].type);
        if (t < 0) {
            params[i] = wg_error_val();
        } else if (x->types->t[t].kind == TY_PTR) {
            const wg_type *pt = wg_ty(x->types, t);
            /* every address space a pointer names: unrestricted_pointer_parameters */
            if (pt->space != SP_FUNCTION && pt->space != SP_PRIVATE &&
                pt->space != SP_WORKGROUP && pt->space != SP_STORAGE && pt->space != SP_UNIFORM)
                WG_ERR(x, fn->params[i].loc, "function-restriction", "a pointer parameter may "
                       "point into function, private, workgroup, storage or uniform memory");
            bool regs = pt->space == SP_FUNCTION || pt->space == SP_PRIVATE;
            params[i] = (wg_val){.kind = V_PTR, .type = t,
                                 .ref = {.space = pt->space, .access = pt->access,
                                         .dyn = WG_NONE_REG,
                                         .halves = !regs && wg_type_has_f16(x->types, pt->elem),
                                         .base = regs ? wg_reg_alloc(x, wg_ty(x->types,
                                                                             pt->elem)->words)
                                                      : 0}};
        } else {
            wg_type_kind k = x->types->t[t].kind;
            if (!wg_type_constructible(x->types, t) && !handle_kind(k)) /* WGSL 11.1 */
                WG_ERR(x, fn->params[i].loc, "function-restriction", "parameter '%s' cannot "
                       "be %s (a parameter is a constructible type, a pointer, a texture or "
                       "a sampler)", fn->params[i].name, wg_tname(x, t));
            /* a texture or sampler: a handle (this copy is only checked; each
             * call site lowers the body again with the argument's binding) */
            params[i] = handle_kind(k) ? (wg_val){.kind = V_HANDLE, .type = t}
                               : (wg_val){.kind = V_REG, .type = t,
                                          .reg = wg_reg_alloc(x, wg_ty(x->types, t)->words)};
        }
    }
    if (entry && fn->ret)
        WG_ERR(x, fn->ret->loc, "entry-point-io", "a compute entry point returns nothing");
    int rt = fn->ret ? wg_resolve_type(x, fn->ret) : T_VOID;
    if (!entry && rt >= 0 && rt != T_VOID && !wg_type_constructible(x->types, rt))
        WG_ERR(x, fn->ret->loc, "function-restriction", "function '%s' cannot return %s (a "
               "return type is constructible: no pointer, atomic, runtime-sized array, "
               "texture or sampler)", fn->name, wg_tname(x, rt));
    check_behaviour(x, fn, rt);
    wg_val r;
    function_body(x, fn, params, &r);
    if (entry)
        wg_emit(x, OP_END);
}
