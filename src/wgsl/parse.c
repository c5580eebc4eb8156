/* The WGSL parser: recursive descent over the tokens (WGSL's grammar, section
 * 16), building the tree of ast.h.  A syntax error is reported once; the
 * parser then skips to the end of the statement (';' or the enclosing '}')
 * or to the next module-scope declaration, so one run reports several. */
#include "wgsl/ast.h"

#include "common/suggest.h"
#include "stex/webgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ---- */
typedef struct wg_chunk {
    struct wg_chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} wg_chunk;

void *wg_alloc(wg_arena *a, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    wg_chunk *c = a->head;
    if (!c || c->used + size > c->size) {
        size_t cap = size > 65536 ? size : 65536;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = a->head;
        c->used = 0;
        c->size = cap;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *wg_strndup(wg_arena *a, const char *s, size_t n)
{
    char *p = wg_alloc(a, n + 1);
    if (p)
        memcpy(p, s, n);
    return p;
}

void wg_arena_free(wg_arena *a)
{
    while (a->head) {
        wg_chunk *n = a->head->next;
        free(a->head);
        a->head = n;
    }
}

/* ---- parser state ---- */
typedef struct parser {
    const wg_token *t;
    uint32_t i, n;
    wg_arena *a;
    wg_diags *d;
    bool panic;     /* an error was reported: skip until recovery */
    bool split;     /* the '--' at i lost its first '-' to a subtraction: 3--7 */
    bool oom;
    bool stop;      /* a limit was passed: the rest of the module is skipped */
    uint32_t depth; /* nesting levels open (WG_MAX_NESTING) */
    wg_ast *ast;    /* where directives are recorded */
    bool declared;  /* a declaration was parsed: no directive may follow */
} parser;

/* A growing list built with malloc, copied into the arena when done. */
typedef struct list {
    void **v;
    uint32_t n, cap;
} list;

static void list_push(parser *p, list *l, void *x)
{
    if (l->n == l->cap) {
        uint32_t cap = l->cap ? 2 * l->cap : 8;
        void **v = realloc(l->v, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
}

static void *list_done(parser *p, list *l, uint32_t *n)
{
    void **v = l->n ? wg_alloc(p->a, l->n * sizeof *v) : NULL;
    if (v)
        memcpy(v, l->v, l->n * sizeof *v);
    *n = v ? l->n : 0;
    free(l->v);
    return v;
}

static const wg_token *peek(const parser *p) { return &p->t[p->i]; }
static const wg_token *peek2(const parser *p)
{
    return &p->t[p->i + 1 < p->n ? p->i + 1 : p->i];
}
static const wg_token *next(parser *p)
{
    const wg_token *t = &p->t[p->i];
    if (t->kind != TK_EOF)
        p->i++;
    return t;
}
static bool at(const parser *p, wg_tok_kind k) { return peek(p)->kind == k; }
static bool at_word(const parser *p, const char *w) { return wg_tok_is(peek(p), w); }
static bool accept(parser *p, wg_tok_kind k)
{
    if (!at(p, k))
        return false;
    next(p);
    return true;
}

static void syntax_error(parser *p, const wg_token *t, const char *what)
{
    if (p->panic || p->stop)
        return;
    p->panic = true;
    if (t->kind == TK_IDENT || t->kind == TK_INT || t->kind == TK_FLOAT)
        wg_error(p->d, t->loc, "syntax", "expected %s, found '%.*s'", what, (int)t->len,
                 t->text);
    else if (t->kind == TK_EOF)
        wg_error(p->d, t->loc, "syntax", "expected %s, found end of file", what);
    else
        wg_error(p->d, t->loc, "syntax", "expected %s, found '%s'", what,
                 wg_tok_spelling(t->kind));
}

static bool expect(parser *p, wg_tok_kind k)
{
    if (accept(p, k))
        return true;
    char what[32];
    snprintf(what, sizeof what, "'%s'", wg_tok_spelling(k));
    if (k == TK_TEMPLATE_CLOSE)
        snprintf(what, sizeof what, "'>'");
    syntax_error(p, peek(p), what);
    return false;
}

/* A limit was passed at t: one error, then the parser jumps to the end of
 * the tokens so that every open level returns at once (no deeper call). */
static void stop(parser *p, wg_loc loc, const char *fmt, unsigned limit)
{
    if (!p->stop)
        wg_error(p->d, loc, "limits", fmt, limit);
    p->stop = p->panic = true;
    p->i = p->n - 1; /* the TK_EOF */
}

/* Opens one nesting level (a block, an else-if link, parentheses, a call's
 * arguments, a template list, an index, a unary operator); false when that
 * would pass WG_MAX_NESTING, which stops the parse. */
static bool enter(parser *p)
{
    if (p->stop)
        return false;
    if (p->depth >= WG_MAX_NESTING) {
        stop(p, peek(p)->loc, "nested more than %u levels deep (blocks, else-if chains, "
             "parentheses, calls, template lists, index brackets and unary operators count "
             "together)", WG_MAX_NESTING);
        return false;
    }
    p->depth++;
    return true;
}
static void leave(parser *p) { p->depth--; }

/* e's height from its operands; past WG_MAX_EXPR_HEIGHT the parse stops. */
static void height(parser *p, wg_expr *e)
{
    uint32_t h = 0;
    if (e->a && e->a->height > h)
        h = e->a->height;
    if (e->b && e->b->height > h)
        h = e->b->height;
    for (uint32_t i = 0; i < e->nargs; i++)
        if (e->args[i] && e->args[i]->height > h)
            h = e->args[i]->height;
    for (uint32_t i = 0; i < e->ntargs; i++)
        if (e->targs[i] && e->targs[i]->height > h)
            h = e->targs[i]->height;
    e->height = h + 1;
    if (e->height > WG_MAX_EXPR_HEIGHT)
        stop(p, e->loc, "an expression more than %u levels deep (operators, calls, indexing "
             "and member accesses stacked in one expression)", WG_MAX_EXPR_HEIGHT - 1);
}

static const char *ident(parser *p, const char *what)
{
    if (!at(p, TK_IDENT)) {
        syntax_error(p, peek(p), what);
        return "?";
    }
    const wg_token *t = next(p);
    return wg_strndup(p->a, t->text, t->len);
}

/* WGSL's keywords ("Keyword Summary"): tokens of their own, never names */
static const char *const KEYWORDS[] = {
    "alias", "break", "case", "const", "const_assert", "continue", "continuing", "default",
    "diagnostic", "discard", "else", "enable", "false", "fn", "for", "if", "let", "loop",
    "override", "requires", "return", "struct", "switch", "true", "var", "while"};

/* The name a declaration introduces: an identifier that is not a keyword. */
static const char *decl_name(parser *p, const char *what)
{
    const wg_token *t = peek(p);
    const char *name = ident(p, what);
    for (size_t i = 0; i < sizeof KEYWORDS / sizeof *KEYWORDS; i++)
        if (!strcmp(name, KEYWORDS[i])) {
            wg_error(p->d, t->loc, "identifiers", "'%s' is a keyword and cannot be %s", name,
                     what);
            break;
        }
    return name;
}

static wg_expr *node(parser *p, wg_expr_kind k, wg_loc loc)
{
    wg_expr *e = wg_alloc(p->a, sizeof *e);
    if (!e) {
        p->oom = true;
        static wg_expr dummy;
        return &dummy;
    }
    e->kind = k;
    e->loc = loc;
    e->height = 1;
    return e;
}

static wg_expr *expression(parser *p);

/* ident, optionally with a template list: vec2<f32>, array<u32, 4> */
static wg_expr *template_ident(parser *p)
{
    const wg_token *t = peek(p);
    wg_expr *e = node(p, E_IDENT, t->loc);
    e->name = ident(p, "an identifier");
    if (accept(p, TK_TEMPLATE_OPEN) && enter(p)) {
        list l = {0};
        do {
            if (at(p, TK_TEMPLATE_CLOSE))
                break; /* trailing comma */
            list_push(p, &l, expression(p));
        } while (accept(p, TK_COMMA) && !p->panic);
        e->targs = list_done(p, &l, &e->ntargs);
        expect(p, TK_TEMPLATE_CLOSE);
        leave(p);
        height(p, e);
    }
    return e;
}

static wg_expr **call_args(parser *p, uint32_t *n)
{
    list l = {0};
    expect(p, TK_LPAREN);
    if (!enter(p)) {
        *n = 0;
        return NULL;
    }
    while (!at(p, TK_RPAREN) && !p->panic) {
        list_push(p, &l, expression(p));
        if (!accept(p, TK_COMMA))
            break;
    }
    expect(p, TK_RPAREN);
    leave(p);
    return list_done(p, &l, n);
}

static wg_expr *primary(parser *p)
{
    const wg_token *t = peek(p);
    wg_expr *e;
    switch (t->kind) {
    case TK_INT:
        next(p);
        e = node(p, E_INT, t->loc);
        e->ival = t->ival;
        e->suffix = t->suffix;
        return e;
    case TK_FLOAT:
        next(p);
        e = node(p, E_FLOAT, t->loc);
        e->fval = t->fval;
        e->suffix = t->suffix;
        return e;
    case TK_LPAREN:
        next(p);
        if (!enter(p))
            return node(p, E_INT, t->loc);
        e = expression(p);
        expect(p, TK_RPAREN);
        leave(p);
        return e;
    case TK_IDENT:
        if (wg_tok_is(t, "true") || wg_tok_is(t, "false")) {
            next(p);
            e = node(p, E_BOOL, t->loc);
            e->ival = wg_tok_is(t, "true");
            return e;
        }
        e = template_ident(p);
        if (at(p, TK_LPAREN)) {
            wg_expr *c = node(p, E_CALL, e->loc);
            c->a = e;
            c->args = call_args(p, &c->nargs);
            height(p, c);
            return c;
        }
        return e;
    default:
        syntax_error(p, t, "an expression");
        return node(p, E_INT, t->loc);
    }
}

static wg_expr *postfix(parser *p, wg_expr *e)
{
    for (;;) {
        const wg_token *t = peek(p);
        if (accept(p, TK_LBRACKET)) {
            wg_expr *x = node(p, E_INDEX, t->loc);
            x->a = e;
            if (!enter(p))
                return e;
            x->b = expression(p);
            expect(p, TK_RBRACKET);
            leave(p);
            height(p, x);
            e = x;
        } else if (accept(p, TK_DOT)) {
            wg_expr *x = node(p, E_MEMBER, peek(p)->loc);
            x->a = e;
            x->name = ident(p, "a member name");
            height(p, x);
            e = x;
        } else {
            return e;
        }
    }
}

static wg_expr *unary(parser *p)
{
    const wg_token *t = peek(p);
    /* '--' inside an expression is two minus signs (no WGSL expression
     * decrements): the rest of a split one, or both of a whole one */
    if (t->kind == TK_MINUS_MINUS) {
        bool whole = !p->split;
        p->split = false;
        next(p);
        wg_expr *e = node(p, E_UNARY, t->loc);
        e->op = TK_MINUS;
        if (!enter(p))
            return e;
        e->a = unary(p);
        leave(p);
        height(p, e);
        if (!whole)
            return e;
        wg_expr *outer = node(p, E_UNARY, t->loc);
        outer->op = TK_MINUS;
        outer->a = e;
        height(p, outer);
        return outer;
    }
    if (t->kind == TK_MINUS || t->kind == TK_BANG || t->kind == TK_TILDE || t->kind == TK_AMP ||
        t->kind == TK_STAR) {
        next(p);
        wg_expr *e = node(p, E_UNARY, t->loc);
        e->op = t->kind;
        if (!enter(p))
            return e;
        e->a = unary(p);
        leave(p);
        height(p, e);
        return e;
    }
    return postfix(p, primary(p));
}

/* The binary operator that the next token starts, if any: a joined '>' '>'
 * is a shift, a '--' after an operand a subtraction of a negation (a - -b). */
static bool binary_op(const parser *p, wg_tok_kind *op)
{
    const wg_token *t = peek(p);
    *op = t->kind;
    switch (t->kind) {
    case TK_GT:
        if (peek2(p)->kind == TK_GT && peek2(p)->joined)
            *op = TK_SHR;
        return true;
    case TK_MINUS_MINUS:
        *op = TK_MINUS;
        return true;
    case TK_OR_OR: case TK_AND_AND: case TK_PIPE: case TK_CARET: case TK_AMP:
    case TK_EQ: case TK_NE: case TK_LT: case TK_LE: case TK_GE: case TK_SHL:
    case TK_PLUS: case TK_MINUS: case TK_STAR: case TK_SLASH: case TK_PERCENT:
        return true;
    default:
        return false;
    }
}

/* lhs op (the next operand): consumes the operator binary_op found. */
static wg_expr *take_binary(parser *p, wg_tok_kind op, wg_expr *lhs,
                            wg_expr *(*operand)(parser *))
{
    const wg_token *t = peek(p);
    if (t->kind == TK_MINUS_MINUS)
        p->split = true; /* its second '-' starts the right operand */
    else
        next(p);
    if (op == TK_SHR)
        next(p); /* the joined second '>' */
    wg_expr *e = node(p, E_BINARY, t->loc);
    e->op = op;
    e->a = lhs;
    e->b = operand(p);
    height(p, e);
    return e;
}

/* WGSL's expression grammar (8.19, "Operator Precedence and Associativity"):
 * not C's ladder.  A shift takes unary operands and does not chain, nor do
 * comparisons; '&', '|' and '^' each chain only with themselves, over unary
 * operands; '&&' and '||' chain only with themselves, over comparisons.  So
 * `a * b << c`, `a & b | c`, `a < b < c` and `a && b || c` need parentheses.
 * Each level below continues from its first unary operand, lhs. */
static wg_expr *multiplicative(parser *p, wg_expr *lhs)
{
    wg_tok_kind op;
    while (!p->panic && binary_op(p, &op) &&
           (op == TK_STAR || op == TK_SLASH || op == TK_PERCENT))
        lhs = take_binary(p, op, lhs, unary);
    return lhs;
}

static wg_expr *multiplicative_expression(parser *p) { return multiplicative(p, unary(p)); }

static wg_expr *additive(parser *p, wg_expr *lhs)
{
    wg_tok_kind op;
    lhs = multiplicative(p, lhs);
    while (!p->panic && binary_op(p, &op) && (op == TK_PLUS || op == TK_MINUS))
        lhs = take_binary(p, op, lhs, multiplicative_expression);
    return lhs;
}

static wg_expr *shift(parser *p, wg_expr *lhs)
{
    wg_tok_kind op;
    if (!p->panic && binary_op(p, &op) && (op == TK_SHL || op == TK_SHR))
        return take_binary(p, op, lhs, unary);
    return additive(p, lhs);
}

static wg_expr *shift_expression(parser *p) { return shift(p, unary(p)); }

static wg_expr *relational(parser *p, wg_expr *lhs)
{
    wg_tok_kind op;
    lhs = shift(p, lhs);
    if (!p->panic && binary_op(p, &op) && (op == TK_EQ || op == TK_NE || op == TK_LT ||
                                          op == TK_LE || op == TK_GT || op == TK_GE))
        return take_binary(p, op, lhs, shift_expression);
    return lhs;
}

static wg_expr *relational_expression(parser *p) { return relational(p, unary(p)); }

static wg_expr *expression(parser *p)
{
    wg_expr *lhs = unary(p);
    wg_tok_kind op, first;
    if (!p->panic && binary_op(p, &first) &&
        (first == TK_AMP || first == TK_PIPE || first == TK_CARET)) {
        while (!p->panic && binary_op(p, &op) && op == first)
            lhs = take_binary(p, op, lhs, unary);
    } else {
        lhs = relational(p, lhs);
        if (!p->panic && binary_op(p, &first) && (first == TK_AND_AND || first == TK_OR_OR))
            while (!p->panic && binary_op(p, &op) && op == first)
                lhs = take_binary(p, op, lhs, relational_expression);
    }
    /* an operator the grammar did not take here: one that needs parentheses */
    if (!p->panic && !p->stop && binary_op(p, &op)) {
        p->panic = true;
        if (lhs->kind == E_BINARY)
            wg_error(p->d, peek(p)->loc, "operator-precedence-associativity", "'%s' cannot "
                     "follow an expression with '%s' without parentheses (WGSL does not mix "
                     "'&', '|' and '^' with other operators, nor '&&' with '||', and does not "
                     "chain shifts or comparisons)", wg_tok_spelling(op),
                     wg_tok_spelling(lhs->op));
        else
            syntax_error(p, peek(p), "the end of the expression");
    }
    return lhs;
}

/* ---- attributes ---- */
static wg_attr *attributes(parser *p, uint32_t *n)
{
    list l = {0};
    while (at(p, TK_AT)) {
        next(p);
        wg_attr *a = wg_alloc(p->a, sizeof *a);
        if (!a) {
            p->oom = true;
            break;
        }
        a->loc = peek(p)->loc;
        const wg_token *at_name = peek(p);
        a->name = ident(p, "an attribute name");
        /* WGSL's attributes; @const only marks builtins in the spec's text */
        static const char *const known[] = {"align", "binding", "blend_src", "builtin",
            "compute", "diagnostic", "fragment", "group", "id", "interpolate", "invariant",
            "location", "must_use", "size", "vertex", "workgroup_size"};
        bool ok = false;
        for (size_t k = 0; a->name && k < sizeof known / sizeof known[0]; k++)
            ok |= !strcmp(a->name, known[k]);
        if (a->name && !ok && !p->panic)
            syntax_error(p, at_name, "a WGSL attribute (@const and other names are not)");
        if ((a->parens = accept(p, TK_LPAREN))) {
            while (!at(p, TK_RPAREN) && !p->panic) {
                wg_expr *x = expression(p);
                if (a->nargs < 3)
                    a->args[a->nargs++] = x;
                a->given++; /* past 3: no attribute takes so many (attr_rules.c) */
                if (!accept(p, TK_COMMA))
                    break;
            }
            expect(p, TK_RPAREN);
        }
        list_push(p, &l, a);
    }
    uint32_t count;
    wg_attr **v = list_done(p, &l, &count);
    wg_attr *out = count ? wg_alloc(p->a, count * sizeof *out) : NULL;
    for (uint32_t i = 0; out && i < count; i++)
        out[i] = *v[i];
    *n = out ? count : 0;
    return out;
}

/* ---- declarations ---- */
static wg_stmt *compound(parser *p);
static void unreachable_after(parser *p, const wg_stmt *st, bool *ended, bool *noted);
static void attr_filters(parser *p, const wg_attr *attrs, uint32_t na, wg_loc from);

/* var<space, access> name : type = init  (after 'var') */
static wg_decl *var_decl(parser *p, wg_decl_kind kind, wg_loc loc)
{
    wg_decl *d = wg_alloc(p->a, sizeof *d);
    if (!d) {
        p->oom = true;
        static wg_decl dummy;
        return &dummy;
    }
    d->kind = kind;
    d->loc = loc;
    if (kind == D_VAR && accept(p, TK_TEMPLATE_OPEN)) {
        d->space = ident(p, "an address space");
        if (accept(p, TK_COMMA) && !at(p, TK_TEMPLATE_CLOSE)) /* a trailing comma may end it */
            d->access = ident(p, "an access mode");
        if (d->access)
            accept(p, TK_COMMA);
        expect(p, TK_TEMPLATE_CLOSE);
    }
    d->loc = peek(p)->loc;
    d->name = decl_name(p, "a name");
    if (accept(p, TK_COLON))
        d->type = template_ident(p);
    if (accept(p, TK_ASSIGN))
        d->init = expression(p);
    return d;
}

static wg_param *params(parser *p, wg_tok_kind close, uint32_t *n, bool members)
{
    list l = {0};
    while (!at(p, close) && !p->panic) {
        wg_param *m = wg_alloc(p->a, sizeof *m);
        if (!m) {
            p->oom = true;
            break;
        }
        m->attrs = attributes(p, &m->nattrs);
        m->loc = peek(p)->loc;
        m->name = decl_name(p, members ? "a member name" : "a parameter name");
        expect(p, TK_COLON);
        m->type = template_ident(p);
        list_push(p, &l, m);
        if (!accept(p, TK_COMMA)) /* members too: `x : i32;` is not WGSL */
            break;
    }
    uint32_t count;
    wg_param **v = list_done(p, &l, &count);
    wg_param *out = count ? wg_alloc(p->a, count * sizeof *out) : NULL;
    for (uint32_t i = 0; out && i < count; i++)
        out[i] = *v[i];
    *n = out ? count : 0;
    return out;
}

/* ---- statements ---- */
static wg_stmt *stmt_node(parser *p, wg_stmt_kind k, wg_loc loc)
{
    wg_stmt *s = wg_alloc(p->a, sizeof *s);
    if (!s) {
        p->oom = true;
        static wg_stmt dummy;
        return &dummy;
    }
    s->kind = k;
    s->loc = loc;
    return s;
}

static bool is_assign_op(wg_tok_kind k)
{
    return k == TK_ASSIGN || k == TK_PLUS_ASSIGN || k == TK_MINUS_ASSIGN ||
           k == TK_STAR_ASSIGN || k == TK_SLASH_ASSIGN || k == TK_PERCENT_ASSIGN ||
           k == TK_AND_ASSIGN || k == TK_OR_ASSIGN || k == TK_XOR_ASSIGN ||
           k == TK_SHL_ASSIGN || k == TK_SHR_ASSIGN;
}

/* The statements allowed in a for header and as simple statements:
 * declarations, assignments, ++/--, calls. */
static wg_stmt *simple_statement(parser *p)
{
    const wg_token *t = peek(p);
    wg_loc loc = t->loc;
    if (wg_tok_is(t, "var") || wg_tok_is(t, "let") || wg_tok_is(t, "const")) {
        next(p);
        wg_stmt *s = stmt_node(p, S_DECL, loc);
        s->decl = var_decl(p, wg_tok_is(t, "var") ? D_VAR : wg_tok_is(t, "let") ? D_LET
                                                                                : D_CONST, loc);
        return s;
    }
    if (accept(p, TK_UNDERSCORE)) {
        wg_stmt *s = stmt_node(p, S_ASSIGN, loc);
        s->op = TK_ASSIGN;
        expect(p, TK_ASSIGN);
        s->rhs = expression(p);
        return s;
    }
    wg_expr *lhs = unary(p);
    const wg_token *op = peek(p);
    if (op->kind == TK_PLUS_PLUS || op->kind == TK_MINUS_MINUS) {
        next(p);
        wg_stmt *s = stmt_node(p, S_INCDEC, op->loc);
        s->lhs = lhs;
        s->op = op->kind;
        return s;
    }
    /* '>>=' arrives as '>' '>=' only inside template discovery; the lexer keeps it whole */
    if (is_assign_op(op->kind)) {
        next(p);
        wg_stmt *s = stmt_node(p, S_ASSIGN, op->loc);
        s->lhs = lhs;
        s->op = op->kind;
        s->rhs = expression(p);
        return s;
    }
    if (lhs->kind == E_CALL) {
        wg_stmt *s = stmt_node(p, S_CALL, loc);
        s->rhs = lhs;
        return s;
    }
    syntax_error(p, op, "'=', a compound assignment, '++' or '--'");
    return stmt_node(p, S_EMPTY, loc);
}

static wg_stmt *statement(parser *p);

static wg_stmt *if_statement(parser *p, wg_loc loc)
{
    wg_stmt *s = stmt_node(p, S_IF, loc);
    s->cond = expression(p);
    s->body = compound(p);
    if (at_word(p, "else")) {
        next(p);
        wg_loc l2 = peek(p)->loc;
        if (at_word(p, "if")) {
            next(p);
            if (!enter(p))
                return s;
            s->els = if_statement(p, l2);
            leave(p);
        } else {
            s->els = compound(p);
        }
    }
    return s;
}

static wg_stmt *switch_statement(parser *p, wg_loc loc)
{
    wg_stmt *s = stmt_node(p, S_SWITCH, loc);
    s->cond = expression(p);
    uint32_t na;
    wg_attr *attrs = attributes(p, &na); /* @diagnostic over the body */
    wg_loc from = peek(p)->loc;
    expect(p, TK_LBRACE);
    wg_case *cases = NULL;
    uint32_t n = 0, selectors = 0;
    while (!at(p, TK_RBRACE) && !at(p, TK_EOF) && !p->panic) {
        wg_case c = {.loc = peek(p)->loc};
        list sel = {0};
        if (at_word(p, "default")) {
            next(p);
            list_push(p, &sel, NULL);
        } else if (at_word(p, "case")) {
            next(p);
            if (at(p, TK_COLON) || at(p, TK_LBRACE)) { /* case_selectors: one at least */
                syntax_error(p, peek(p), "a case selector or 'default'");
                break;
            }
            while (!at(p, TK_COLON) && !at(p, TK_LBRACE) && !p->panic) {
                if (at_word(p, "default")) {
                    next(p);
                    list_push(p, &sel, NULL);
                } else {
                    list_push(p, &sel, expression(p));
                }
                if (!accept(p, TK_COMMA))
                    break;
            }
        } else {
            syntax_error(p, peek(p), "'case' or 'default'");
            break;
        }
        c.selectors = list_done(p, &sel, &c.nselectors);
        selectors += c.nselectors;
        if (selectors > WG_MAX_CASE_SELECTORS && selectors - c.nselectors <= WG_MAX_CASE_SELECTORS)
            wg_error(p->d, c.loc, "limits", "a switch statement with more than %u case selectors "
                     "(default included)", (unsigned)WG_MAX_CASE_SELECTORS);
        accept(p, TK_COLON);
        c.body = compound(p);
        wg_case *grown = realloc(cases, (n + 1) * sizeof *grown);
        if (!grown) {
            p->oom = true;
            break;
        }
        cases = grown;
        cases[n++] = c;
    }
    expect(p, TK_RBRACE);
    attr_filters(p, attrs, na, from);
    s->cases = n ? wg_alloc(p->a, n * sizeof *s->cases) : NULL;
    if (s->cases) {
        memcpy(s->cases, cases, n * sizeof *cases);
        s->ncases = n;
    }
    free(cases);
    return s;
}

/* Skips to the end of the current statement: past ';' or before '}' at
 * this nesting. */
static void sync_statement(parser *p)
{
    int depth = 0;
    if (p->i > 0 && p->t[p->i - 1].kind == TK_SEMI) { /* the statement already ended */
        p->panic = false;
        return;
    }
    while (!at(p, TK_EOF)) {
        wg_tok_kind k = peek(p)->kind;
        if (depth == 0 && k == TK_SEMI) {
            next(p);
            break;
        }
        if (depth == 0 && k == TK_RBRACE)
            break;
        if (k == TK_LBRACE)
            depth++;
        if (k == TK_RBRACE)
            depth--;
        next(p);
    }
    p->panic = false;
}

/* WGSL's diagnostic rules that stex triggers; another name in a filter is
 * ignored with a warning, a name with a '.' (another front end's, such as
 * chromium.unreachable_code) without one (WGSL 2.3.2). */
static const char *const KNOWN_RULES[] = {"derivative_uniformity", "subgroup_uniformity",
                                          "chromium.unreachable_code"};

/* A filter's rule name (`name` or `a.b`) into buf; false if it is neither. */
static bool rule_name(const wg_expr *e, char *buf, size_t size)
{
    if (e && e->kind == E_IDENT) {
        snprintf(buf, size, "%s", e->name);
        return true;
    }
    if (e && e->kind == E_MEMBER && e->a && e->a->kind == E_IDENT) {
        snprintf(buf, size, "%s.%s", e->a->name, e->name);
        return true;
    }
    return false;
}

/* Records the diagnostic filter (severity sev, rule) over [from, to]. */
static void filter_add(parser *p, const wg_expr *sev, const wg_expr *rule, wg_loc from,
                       wg_loc to)
{
    static const char *const sevs[] = {"error", "warning", "info", "off"};
    int k = 0;
    while (k < 4 && !(sev && sev->kind == E_IDENT && !strcmp(sev->name, sevs[k])))
        k++;
    wg_loc at = sev ? sev->loc : from;
    if (k == 4) {
        wg_error(p->d, at, "diagnostic", "a diagnostic filter's severity is error, warning, "
                 "info or off");
        return;
    }
    char name[48];
    if (!rule_name(rule, name, sizeof name)) {
        wg_error(p->d, at, "diagnostic", "a diagnostic filter names a rule: a name, or two "
                 "joined by '.'");
        return;
    }
    bool known = false;
    for (size_t i = 0; i < sizeof KNOWN_RULES / sizeof *KNOWN_RULES; i++)
        known |= !strcmp(name, KNOWN_RULES[i]);
    if (!known && !strchr(name, '.')) {
        const char *near =
            stex_suggest(name, KNOWN_RULES, sizeof KNOWN_RULES / sizeof *KNOWN_RULES);
        wg_report(p->d, WG_WARNING, rule->loc, "diagnostic", "unrecognized diagnostic rule "
                  "'%s'%s%s%s", name, near ? " (did you mean '" : "", near ? near : "",
                  near ? "'?)" : "");
    }
    if (!p->ast || !known)
        return;
    wg_ast *a = p->ast;
    int severity = k == 3 ? -1 : k; /* wg_severity's order: error, warning, info */
    bool global = from.line == 0 && to.line == UINT32_MAX;
    for (uint32_t i = 0; global && i < a->nfilters; i++)
        if (a->filters[i].from.line == 0 && a->filters[i].to.line == UINT32_MAX &&
            !strcmp(a->filters[i].rule, name) && a->filters[i].severity != severity) {
            wg_error(p->d, at, "diagnostic", "two diagnostic directives give rule '%s' "
                     "different severities", name);
            return;
        }
    if (a->nfilters == a->filters_cap) {
        uint32_t cap = a->filters_cap ? 2 * a->filters_cap : 8;
        wg_filter *f = realloc(a->filters, cap * sizeof *f);
        if (!f) {
            p->oom = true;
            return;
        }
        a->filters = f, a->filters_cap = cap;
    }
    wg_filter *f = &a->filters[a->nfilters++];
    snprintf(f->rule, sizeof f->rule, "%s", name);
    f->severity = severity;
    f->from = from, f->to = to;
}

/* The filters of @diagnostic attributes over what was parsed since `from`. */
static void attr_filters(parser *p, const wg_attr *attrs, uint32_t na, wg_loc from)
{
    wg_loc to = p->i ? p->t[p->i - 1].loc : from;
    for (uint32_t k = 0; k < na; k++)
        if (attrs[k].name && !strcmp(attrs[k].name, "diagnostic")) {
            if (attrs[k].nargs < 2) {
                wg_error(p->d, attrs[k].loc, "diagnostic", "@diagnostic takes a severity and "
                         "a rule: @diagnostic(off, derivative_uniformity)");
                continue;
            }
            /* WGSL 2.3.2: two filters on one place name different rules */
            char name[48], other[48];
            bool twice = false;
            for (uint32_t j = 0; j < k && !twice; j++)
                twice = !strcmp(attrs[j].name, "diagnostic") && attrs[j].nargs >= 2 &&
                        rule_name(attrs[k].args[1], name, sizeof name) &&
                        rule_name(attrs[j].args[1], other, sizeof other) && !strcmp(name, other);
            if (twice)
                wg_error(p->d, attrs[k].loc, "diagnostic", "a second @diagnostic for rule '%s' "
                         "in the same place", name);
            else
                filter_add(p, attrs[k].args[0], attrs[k].args[1], from, to);
        }
}

int wg_ast_severity(const wg_ast *ast, const char *rule, wg_loc at, int dflt)
{
    const wg_filter *best = NULL;
    for (uint32_t i = 0; i < ast->nfilters; i++) {
        const wg_filter *f = &ast->filters[i];
        bool after_from = at.line > f->from.line ||
                          (at.line == f->from.line && at.col >= f->from.col);
        bool before_to = at.line < f->to.line || (at.line == f->to.line && at.col <= f->to.col);
        /* the innermost range holding `at`: ranges nest, so the latest start */
        if (!strcmp(f->rule, rule) && after_from && before_to &&
            (!best || f->from.line > best->from.line ||
             (f->from.line == best->from.line && f->from.col >= best->from.col)))
            best = f;
    }
    return best ? best->severity : dflt;
}

static wg_stmt *statement_rest(parser *p);

static wg_stmt *statement(parser *p)
{
    uint32_t na;
    const wg_token *at_attr = peek(p);
    wg_attr *attrs = attributes(p, &na); /* @diagnostic: a filter over the statement */
    bool others = false; /* WGSL: a statement takes no other attribute */
    for (uint32_t k = 0; k < na && !others; k++)
        if ((others = strcmp(attrs[k].name, "diagnostic") != 0))
            syntax_error(p, at_attr, "a statement (only @diagnostic may come before one)");
    wg_loc from = peek(p)->loc;
    wg_stmt *s = statement_rest(p);
    if (na && !others && s && s->kind != S_BLOCK && s->kind != S_IF && s->kind != S_SWITCH &&
        s->kind != S_LOOP && s->kind != S_FOR && s->kind != S_WHILE)
        wg_error(p->d, at_attr->loc, "diagnostic", "@diagnostic comes before a compound, if, "
                 "switch, loop, for or while statement only");
    attr_filters(p, attrs, na, from);
    return s;
}

static wg_stmt *statement_rest(parser *p)
{
    uint32_t na;
    const wg_token *t = peek(p);
    wg_loc loc = t->loc;
    wg_stmt *s;
    if (t->kind == TK_SEMI) {
        next(p);
        return stmt_node(p, S_EMPTY, loc);
    }
    if (t->kind == TK_LBRACE)
        return compound(p);
    if (t->kind == TK_IDENT) {
        if (wg_tok_is(t, "if")) {
            next(p);
            return if_statement(p, loc);
        }
        if (wg_tok_is(t, "switch")) {
            next(p);
            return switch_statement(p, loc);
        }
        if (wg_tok_is(t, "loop")) {
            next(p);
            s = stmt_node(p, S_LOOP, loc);
            wg_attr *attrs = attributes(p, &na); /* @diagnostic over the body */
            wg_loc from = peek(p)->loc;
            expect(p, TK_LBRACE);
            if (!enter(p))
                return s;
            list l = {0};
            bool ended = false, noted = false;
            while (!at(p, TK_RBRACE) && !at(p, TK_EOF) && !at_word(p, "continuing")) {
                uint32_t before = p->i;
                wg_stmt *st = statement(p);
                unreachable_after(p, st, &ended, &noted);
                list_push(p, &l, st);
                if (p->panic) {
                    sync_statement(p);
                    if (p->i == before && !at(p, TK_RBRACE)) /* always move on */
                        next(p);
                }
            }
            s->body = stmt_node(p, S_BLOCK, loc);
            s->body->stmts = list_done(p, &l, &s->body->n);
            if (at_word(p, "continuing")) {
                wg_loc cl = next(p)->loc;
                s->continuing = compound(p);
                s->continuing->loc = cl;
            }
            expect(p, TK_RBRACE);
            leave(p);
            attr_filters(p, attrs, na, from);
            return s;
        }
        if (wg_tok_is(t, "for")) {
            next(p);
            s = stmt_node(p, S_FOR, loc);
            expect(p, TK_LPAREN);
            if (!at(p, TK_SEMI))
                s->init = simple_statement(p);
            expect(p, TK_SEMI);
            if (!at(p, TK_SEMI))
                s->cond = expression(p);
            expect(p, TK_SEMI);
            if (!at(p, TK_RPAREN)) {
                const wg_token *u = peek(p);
                s->update = simple_statement(p);
                if (s->update->kind == S_DECL) /* for_update: an assignment, ++/-- or a call */
                    wg_error(p->d, u->loc, "for-statement", "a for loop's update cannot "
                             "declare '%s'", s->update->decl->name);
            }
            expect(p, TK_RPAREN);
            s->body = compound(p);
            return s;
        }
        if (wg_tok_is(t, "while")) {
            next(p);
            s = stmt_node(p, S_WHILE, loc);
            s->cond = expression(p);
            s->body = compound(p);
            return s;
        }
        if (wg_tok_is(t, "break")) {
            next(p);
            if (at_word(p, "if")) {
                next(p);
                s = stmt_node(p, S_BREAK_IF, loc);
                s->cond = expression(p);
            } else {
                s = stmt_node(p, S_BREAK, loc);
            }
            expect(p, TK_SEMI);
            return s;
        }
        if (wg_tok_is(t, "continue") || wg_tok_is(t, "discard")) {
            next(p);
            s = stmt_node(p, wg_tok_is(t, "continue") ? S_CONTINUE : S_DISCARD, loc);
            expect(p, TK_SEMI);
            return s;
        }
        if (wg_tok_is(t, "return")) {
            next(p);
            s = stmt_node(p, S_RETURN, loc);
            if (!at(p, TK_SEMI))
                s->cond = expression(p);
            expect(p, TK_SEMI);
            return s;
        }
        if (wg_tok_is(t, "const_assert")) {
            next(p);
            s = stmt_node(p, S_DECL, loc);
            s->decl = wg_alloc(p->a, sizeof *s->decl);
            if (s->decl) {
                s->decl->kind = D_CONST_ASSERT;
                s->decl->loc = loc;
                s->decl->init = expression(p);
            }
            expect(p, TK_SEMI);
            return s;
        }
    }
    s = simple_statement(p);
    expect(p, TK_SEMI);
    return s;
}

/* An unreachable statement (after a return, break or continue in the same
 * block): kept for a warning once the filters over it are known. */
static void note_unreachable(parser *p, wg_loc at)
{
    wg_ast *a = p->ast;
    if (!a || a->nunreachable == WG_MAX_UNREACHABLE)
        return;
    a->unreachable[a->nunreachable++] = at;
}

/* In a list of statements: st after a return, break or continue. */
static void unreachable_after(parser *p, const wg_stmt *st, bool *ended, bool *noted)
{
    if (st && *ended && !*noted && st->kind != S_EMPTY) {
        note_unreachable(p, st->loc);
        *noted = true; /* once per block, the first statement no invocation reaches */
    }
    if (st && (st->kind == S_RETURN || st->kind == S_BREAK || st->kind == S_CONTINUE))
        *ended = true;
}

static wg_stmt *compound(parser *p)
{
    uint32_t na;
    wg_attr *attrs = attributes(p, &na);
    wg_loc from = peek(p)->loc;
    wg_stmt *s = stmt_node(p, S_BLOCK, peek(p)->loc);
    if (!expect(p, TK_LBRACE) || !enter(p))
        return s;
    list l = {0};
    bool ended = false, noted = false;
    while (!at(p, TK_RBRACE) && !at(p, TK_EOF)) {
        uint32_t before = p->i;
        wg_stmt *st = statement(p);
        unreachable_after(p, st, &ended, &noted);
        list_push(p, &l, st);
        if (p->panic) {
            sync_statement(p);
            if (p->i == before && !at(p, TK_RBRACE))
                next(p);
        }
    }
    s->stmts = list_done(p, &l, &s->n);
    expect(p, TK_RBRACE);
    leave(p);
    attr_filters(p, attrs, na, from);
    return s;
}

/* ---- module scope ---- */
/* Each attribute of a declaration, its parameters and members where WGSL
 * allows it (the result's were checked as parsed). */
static void check_decl_attrs(parser *p, const wg_decl *d)
{
    wg_attr_place place = d->kind == D_FN ? WG_AT_FN : d->kind == D_VAR ? WG_AT_VAR
                          : d->kind == D_OVERRIDE ? WG_AT_OVERRIDE : WG_AT_NONE;
    wg_check_attrs(p->d, d->attrs, d->nattrs, place);
    if (d->kind != D_FN && d->kind != D_STRUCT)
        return;
    place = d->kind == D_STRUCT ? WG_AT_MEMBER
            : wg_stage_attr(d->attrs, d->nattrs) ? WG_AT_ENTRY_IO : WG_AT_PARAM;
    for (uint32_t i = 0; i < d->nparams; i++)
        wg_check_attrs(p->d, d->params[i].attrs, d->params[i].nattrs, place);
}

/* WGSL's enable-extensions that stex knows (WGSL 4.1.1) */
static const char *const EXTENSIONS[] = {"f16", "clip_distances", "dual_source_blending",
                                         "subgroups", "primitive_index"};

/* A global directive at t (enable, requires, diagnostic), parsed; false if t
 * starts none.  Directives come before every declaration, and take no
 * attributes. */
static bool directive(parser *p, const wg_token *t, uint32_t nattrs)
{
    bool enable = wg_tok_is(t, "enable"), requires = wg_tok_is(t, "requires");
    if (!enable && !requires && !wg_tok_is(t, "diagnostic"))
        return false;
    if (p->declared)
        wg_error(p->d, t->loc, "directives", "'%.*s' comes after a declaration (directives "
                 "come first)", (int)t->len, t->text);
    if (nattrs)
        wg_error(p->d, t->loc, "directives", "a directive takes no attributes");
    next(p);
    if (!enable && !requires) {
        /* diagnostic(severity, rule);  a filter over the whole module */
        expect(p, TK_LPAREN);
        wg_expr *sev = expression(p);
        expect(p, TK_COMMA);
        wg_expr *rule = expression(p);
        accept(p, TK_COMMA);
        expect(p, TK_RPAREN);
        expect(p, TK_SEMI);
        if (!p->panic)
            filter_add(p, sev, rule, (wg_loc){0, 0}, (wg_loc){UINT32_MAX, UINT32_MAX});
        return true;
    }
    /* enable name, ...;  requires name, ...;  (a trailing comma allowed) */
    do {
        const wg_token *name = peek(p);
        if (!at(p, TK_IDENT)) {
            syntax_error(p, name, enable ? "an extension name" : "a language feature name");
            return true;
        }
        next(p);
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)name->len, name->text);
        bool known = false;
        if (enable) {
            for (size_t k = 0; k < sizeof EXTENSIONS / sizeof *EXTENSIONS; k++)
                known |= !strcmp(buf, EXTENSIONS[k]);
        } else {
            stex_language_feature f;
            known = stex_language_feature_from_name(buf, &f);
        }
        if (!known)
            wg_error(p->d, name->loc, enable ? "enable-extensions" : "language-extensions",
                     "unknown %s '%s'", enable ? "enable-extension" : "language feature", buf);
        if (enable && !strcmp(buf, "f16") && p->ast) {
            p->ast->enable_f16 = true; /* the shader-f16 extension (WGSL 4.1.1) */
            p->ast->enable_f16_loc = t->loc;
        }
        if (enable && !strcmp(buf, "subgroups") && p->ast) {
            p->ast->enable_subgroups = true; /* the subgroups extension */
            p->ast->enable_subgroups_loc = t->loc;
        }
    } while (accept(p, TK_COMMA) && !at(p, TK_SEMI));
    expect(p, TK_SEMI);
    return true;
}

static wg_decl *global_decl(parser *p)
{
    uint32_t nattrs;
    wg_attr *attrs = attributes(p, &nattrs);
    const wg_token *t = peek(p);
    wg_loc loc = t->loc;
    wg_decl *d = NULL;
    if (wg_tok_is(t, "var") || wg_tok_is(t, "const") || wg_tok_is(t, "override") ||
        wg_tok_is(t, "let")) {
        next(p);
        d = var_decl(p, wg_tok_is(t, "var") ? D_VAR : wg_tok_is(t, "const") ? D_CONST
                        : wg_tok_is(t, "let") ? D_LET : D_OVERRIDE, loc);
        expect(p, TK_SEMI);
    } else if (wg_tok_is(t, "fn")) {
        next(p);
        d = wg_alloc(p->a, sizeof *d);
        if (!d)
            return NULL;
        d->kind = D_FN;
        d->loc = peek(p)->loc;
        d->name = decl_name(p, "a function name");
        expect(p, TK_LPAREN);
        d->params = params(p, TK_RPAREN, &d->nparams, false);
        if (d->nparams > WG_MAX_PARAMS)
            wg_error(p->d, d->loc, "limits", "function '%s' declares %u parameters; the limit "
                     "is %u", d->name, d->nparams, (unsigned)WG_MAX_PARAMS);
        for (uint32_t i = 0; i < d->nparams; i++)
            for (uint32_t j = 0; j < i; j++)
                if (d->params[i].name && d->params[j].name &&
                    !strcmp(d->params[i].name, d->params[j].name))
                    wg_error(p->d, d->params[i].loc, "function-declaration", "function '%s' "
                             "has two parameters named '%s'", d->name, d->params[i].name);
        expect(p, TK_RPAREN);
        if (accept(p, TK_ARROW)) {
            d->ret_attrs = attributes(p, &d->nret_attrs);
            wg_check_attrs(p->d, d->ret_attrs, d->nret_attrs,
                           wg_stage_attr(attrs, nattrs) ? WG_AT_ENTRY_IO : WG_AT_RESULT);
            d->ret = template_ident(p);
        }
        if (!p->panic)
            d->body = compound(p);
    } else if (wg_tok_is(t, "struct")) {
        next(p);
        d = wg_alloc(p->a, sizeof *d);
        if (!d)
            return NULL;
        d->kind = D_STRUCT;
        d->loc = peek(p)->loc;
        d->name = decl_name(p, "a struct name");
        expect(p, TK_LBRACE);
        d->params = params(p, TK_RBRACE, &d->nparams, true);
        if (!d->nparams && !p->panic) /* WGSL's grammar: struct_body_decl has a member */
            wg_error(p->d, d->loc, "struct-types", "struct '%s' has no members (a struct has "
                     "at least one)", d->name);
        if (d->nparams > WG_MAX_MEMBERS)
            wg_error(p->d, d->loc, "limits", "struct '%s' declares %u members; the limit is %u",
                     d->name, d->nparams, (unsigned)WG_MAX_MEMBERS);
        expect(p, TK_RBRACE);
        accept(p, TK_SEMI);
    } else if (wg_tok_is(t, "alias")) {
        next(p);
        d = wg_alloc(p->a, sizeof *d);
        if (!d)
            return NULL;
        d->kind = D_ALIAS;
        d->loc = peek(p)->loc;
        d->name = decl_name(p, "an alias name");
        expect(p, TK_ASSIGN);
        d->type = template_ident(p);
        expect(p, TK_SEMI);
    } else if (wg_tok_is(t, "const_assert")) {
        next(p);
        d = wg_alloc(p->a, sizeof *d);
        if (!d)
            return NULL;
        d->kind = D_CONST_ASSERT;
        d->loc = loc;
        d->init = expression(p);
        expect(p, TK_SEMI);
    } else if (directive(p, t, nattrs)) {
        return NULL;
    } else if (t->kind == TK_SEMI) {
        if (nattrs) /* an attribute belongs to a declaration */
            syntax_error(p, t, "a declaration after the attributes");
        next(p);
        p->declared = true;
        return NULL;
    } else {
        syntax_error(p, t, "a declaration ('fn', 'var', 'const', 'override', 'struct' or "
                           "'alias')");
        return NULL;
    }
    if (d) {
        p->declared = true;
        d->attrs = attrs;
        d->nattrs = nattrs;
        check_decl_attrs(p, d);
        if (d->kind == D_FN) /* @diagnostic on a function: a filter over all of it */
            attr_filters(p, attrs, nattrs, loc);
        if (d->kind == D_FN && !d->ret && wg_find_attr(attrs, nattrs, "must_use"))
            wg_error(p->d, d->loc, "must-use", "function '%s' is @must_use but returns "
                     "nothing", d->name);
    }
    return d;
}

static bool at_global_start(const parser *p)
{
    return at(p, TK_AT) || at_word(p, "fn") || at_word(p, "var") || at_word(p, "const") ||
           at_word(p, "struct") || at_word(p, "override") || at_word(p, "alias") ||
           at_word(p, "const_assert");
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The name table of ast (ast.h): each name's first declaration. */
static void index_names(wg_ast *ast)
{
    uint32_t cap = 16;
    while (cap < 2 * ast->n)
        cap *= 2;
    ast->names = calloc(cap, sizeof *ast->names);
    ast->names_cap = ast->names ? cap : 0;
    for (uint32_t i = 0; ast->names && i < ast->n; i++) {
        const char *name = ast->decls[i]->name;
        if (!name)
            continue;
        for (uint32_t h = name_hash(name) & (cap - 1);; h = (h + 1) & (cap - 1)) {
            if (!ast->names[h]) {
                ast->names[h] = i + 1;
                break;
            }
            if (!strcmp(ast->decls[ast->names[h] - 1]->name, name))
                break; /* a later declaration of the name: module.c reports it */
        }
    }
}

int32_t wg_ast_find(const wg_ast *ast, const char *name)
{
    if (!ast->names) { /* no table (out of memory): the slow way */
        for (uint32_t i = 0; i < ast->n; i++)
            if (ast->decls[i]->name && !strcmp(ast->decls[i]->name, name))
                return (int32_t)i;
        return -1;
    }
    uint32_t cap = ast->names_cap;
    for (uint32_t h = name_hash(name) & (cap - 1); ast->names[h]; h = (h + 1) & (cap - 1))
        if (!strcmp(ast->decls[ast->names[h] - 1]->name, name))
            return (int32_t)ast->names[h] - 1;
    return -1;
}

void wg_ast_free(wg_ast *ast)
{
    free(ast->filters);
    ast->filters = NULL;
    ast->nfilters = ast->filters_cap = 0;
    free(ast->names);
    ast->names = NULL;
    ast->names_cap = 0;
}

bool wg_parse_expression(const wg_token *t, uint32_t count, wg_arena *arena, wg_diags *d,
                         uint32_t *end)
{
    parser p = {.t = t, .n = count, .a = arena, .d = d};
    size_t errors = d->count;
    expression(&p);
    *end = p.i;
    return !p.panic && !p.oom && d->count == errors;
}

void wg_parse(const wg_token *t, uint32_t count, wg_arena *arena, wg_diags *d, wg_ast *ast)
{
    parser p = {.t = t, .n = count, .a = arena, .d = d, .ast = ast};
    ast->enable_f16 = false;
    ast->enable_subgroups = false;
    list l = {0};
    while (!at(&p, TK_EOF)) {
        uint32_t before = p.i;
        wg_decl *decl = global_decl(&p);
        if (decl && !p.panic)
            list_push(&p, &l, decl);
        if (p.panic) {
            /* skip to the next declaration at brace depth 0 */
            int depth = 0;
            if (p.i == before)
                next(&p);
            while (!at(&p, TK_EOF)) {
                if (depth == 0 && at_global_start(&p))
                    break;
                if (at(&p, TK_LBRACE))
                    depth++;
                if (at(&p, TK_RBRACE) && depth > 0)
                    depth--;
                next(&p);
            }
            p.panic = false;
        }
    }
    ast->decls = list_done(&p, &l, &ast->n);
    index_names(ast);
    if (p.oom)
        wg_error(d, (wg_loc){0, 0}, "resources", "out of memory while parsing");
}
