/* Internal: the WGSL syntax tree (WGSL sections 6-10), every node with its
 * source position.  Types are written as expressions: `vec2<f32>` is an
 * identifier with template arguments, `array<f32, 5>(...)` a call of one. */
#ifndef STEX_WGSL_AST_H
#define STEX_WGSL_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wgsl/diag.h"
#include "wgsl/lex.h"

/* Every node lives in one arena, freed with the module. */
typedef struct wg_arena {
    struct wg_chunk *head;
} wg_arena;
void *wg_alloc(wg_arena *a, size_t size); /* zeroed; aborts nothing: NULL on no memory */
char *wg_strndup(wg_arena *a, const char *s, size_t n);
void wg_arena_free(wg_arena *a);

typedef enum wg_expr_kind {
    E_INT, E_FLOAT, E_BOOL, E_IDENT, E_CALL, E_INDEX, E_MEMBER, E_UNARY, E_BINARY
} wg_expr_kind;

typedef struct wg_expr wg_expr;
struct wg_expr {
    wg_expr_kind kind;
    wg_loc loc;
    wg_tok_kind op;         /* E_UNARY (-, !, ~, &, *), E_BINARY */
    int64_t ival;           /* E_INT; E_BOOL: 0 or 1 */
    double fval;            /* E_FLOAT */
    char suffix;            /* literals: 'i', 'u', 'f', 'h' or 0 (abstract) */
    const char *name;       /* E_IDENT, E_MEMBER's member */
    wg_expr **targs;        /* E_IDENT: template arguments */
    uint32_t ntargs;
    wg_expr *a, *b;         /* operands; E_CALL: a = callee (E_IDENT); E_INDEX: a[b] */
    wg_expr **args;         /* E_CALL */
    uint32_t nargs;
    uint32_t height;        /* levels of the tree below and at this node (a leaf: 1) */
};

typedef struct wg_attr {
    const char *name;
    wg_loc loc;
    wg_expr *args[3];
    uint32_t nargs;  /* of args: the first three */
    uint32_t given;  /* the arguments written, all of them */
    bool parens;     /* written with parentheses: @compute() is no @compute */
} wg_attr;

/* A function parameter or a struct member. */
typedef struct wg_param {
    const char *name;
    wg_loc loc;
    wg_expr *type;
    wg_attr *attrs;
    uint32_t nattrs;
} wg_param;

typedef struct wg_stmt wg_stmt;

typedef enum wg_decl_kind { D_VAR, D_LET, D_CONST, D_OVERRIDE, D_FN, D_STRUCT, D_ALIAS,
                            D_CONST_ASSERT } wg_decl_kind;

typedef struct wg_decl {
    wg_decl_kind kind;
    wg_loc loc;
    const char *name;
    wg_attr *attrs;
    uint32_t nattrs;
    const char *space, *access; /* var<space, access>; NULL if not written */
    wg_expr *type;              /* declared type (NULL if inferred); alias: the type */
    wg_expr *init;              /* initializer; const_assert: the condition */
    wg_param *params;           /* fn parameters, struct members */
    uint32_t nparams;
    wg_expr *ret;               /* fn return type, NULL for none */
    wg_attr *ret_attrs;         /* fn: the result's attributes (-> @location(0) T) */
    uint32_t nret_attrs;
    wg_stmt *body;              /* fn */
} wg_decl;

typedef enum wg_stmt_kind {
    S_BLOCK, S_DECL, S_ASSIGN, S_INCDEC, S_CALL, S_IF, S_SWITCH, S_LOOP, S_FOR, S_WHILE,
    S_BREAK, S_BREAK_IF, S_CONTINUE, S_RETURN, S_DISCARD, S_EMPTY
} wg_stmt_kind;

typedef struct wg_case {
    wg_expr **selectors;  /* NULL entry = default */
    uint32_t nselectors;
    wg_stmt *body;
    wg_loc loc;
} wg_case;

struct wg_stmt {
    wg_stmt_kind kind;
    wg_loc loc;
    wg_decl *decl;          /* S_DECL */
    wg_expr *lhs, *rhs;     /* S_ASSIGN (lhs NULL: phony `_ = rhs`), S_INCDEC (lhs), S_CALL (rhs) */
    wg_tok_kind op;         /* S_ASSIGN: TK_ASSIGN or a compound; S_INCDEC: ++ or -- */
    wg_expr *cond;          /* if, while, for, break if, return value, switch selector */
    wg_stmt *body, *els;    /* if / loops; els: else block or else-if */
    wg_stmt *init, *update; /* for */
    wg_stmt *continuing;    /* loop */
    wg_stmt **stmts;        /* block */
    uint32_t n;
    wg_case *cases;         /* switch */
    uint32_t ncases;
};

/* A diagnostic filter (WGSL 2.3): the severity of `rule` (a wg_severity,
 * or -1 for off) over the source from `from` to `to`. */
typedef struct wg_filter {
    char rule[48];
    int severity;
    wg_loc from, to;
} wg_filter;

enum { WG_MAX_UNREACHABLE = 64 }; /* unreachable-code warnings kept */

typedef struct wg_ast {
    wg_decl **decls;
    uint32_t n;
    /* the module-scope names: an open-addressed table of decl index + 1
     * (0 empty), the first declaration of each name; NULL if out of memory */
    uint32_t *names;
    uint32_t names_cap;       /* a power of two, at least 2n */
    bool enable_f16;        /* `enable f16;` seen */
    wg_loc enable_f16_loc;
    bool enable_subgroups;  /* `enable subgroups;` seen */
    wg_loc enable_subgroups_loc;
    wg_filter *filters;     /* the diagnostic directives' and @diagnostic attributes' */
    uint32_t nfilters, filters_cap;
    wg_loc unreachable[WG_MAX_UNREACHABLE]; /* statements after a return, break, continue */
    uint32_t nunreachable;
} wg_ast;

/* Shader complexity limits (WGSL "Limits"; where WGSL names none, Dawn's
 * front end's).  Each refusal is an error of rule [limits]. */
enum {
    /* blocks, else-if links, parentheses, calls, template lists, index
     * brackets and unary operators open at once: WGSL requires 127 nested
     * brace-enclosed statements; Dawn's parser stops at the same depth */
    WG_MAX_NESTING = 127,
    /* operators, calls, indexings and member accesses stacked in one
     * expression (a leaf is 1): Dawn's "max expression depth" of 512 below
     * the root; bounds every recursive pass over a flat chain `1+1+...` */
    WG_MAX_EXPR_HEIGHT = 513,
    WG_MAX_PARAMS = 255,          /* a function's parameters (WGSL) */
    WG_MAX_MEMBERS = 1023,        /* a structure's members (WGSL's minimum) */
    WG_MAX_CASE_SELECTORS = 1023, /* a switch's case values, default included (WGSL's minimum) */
};

/* Parses the tokens into ast (nodes in arena); syntax errors go to d, with
 * recovery at the next statement or declaration. */
void wg_parse(const wg_token *t, uint32_t count, wg_arena *arena, wg_diags *d, wg_ast *ast);

/* Parses one expression from the first token (WGSL's `expression`, with
 * the same limits); *end is the index of the first token after it.  False
 * after a syntax error (in d). */
bool wg_parse_expression(const wg_token *t, uint32_t count, wg_arena *arena, wg_diags *d,
                         uint32_t *end);

/* The index of the first module-scope declaration named `name`, or -1
 * (constant time: the table built by wg_parse). */
int32_t wg_ast_find(const wg_ast *ast, const char *name);
/* Frees what wg_parse allocated outside the arena (the name table). */
void wg_ast_free(wg_ast *ast);
/* The severity (a wg_severity, or -1 for off) of `rule` at `at`: the
 * innermost diagnostic filter's over it, else dflt. */
int wg_ast_severity(const wg_ast *ast, const char *rule, wg_loc at, int dflt);

/* The places an attribute list may stand (attr_rules.c). */
typedef enum wg_attr_place {
    WG_AT_FN = 1,        /* a function declaration */
    WG_AT_PARAM = 2,     /* a parameter of a function that is no entry point */
    WG_AT_RESULT = 4,    /* the result type of such a function */
    WG_AT_ENTRY_IO = 8,  /* an entry point's parameter or result */
    WG_AT_MEMBER = 16,   /* a struct member */
    WG_AT_VAR = 32,      /* a module-scope var */
    WG_AT_OVERRIDE = 64, /* an override */
    WG_AT_NONE = 128     /* a const, let, alias, struct or const_assert */
} wg_attr_place;

/* Reports each attribute of a list that WGSL does not allow at `place`,
 * one given twice, and a function's conflicting stage attributes. */
void wg_check_attrs(wg_diags *d, const wg_attr *a, uint32_t n, wg_attr_place place);

/* The attribute `name` of a list, or NULL. */
const wg_attr *wg_find_attr(const wg_attr *a, uint32_t n, const char *name);
/* The list's first shader-stage attribute (@compute, @vertex, @fragment):
 * an entry point's; NULL for any other function. */
const wg_attr *wg_stage_attr(const wg_attr *a, uint32_t n);

#endif
