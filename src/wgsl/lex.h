/* Internal: WGSL tokens (WGSL section 3, "Textual structure").  The lexer
 * also runs the template-list discovery of WGSL 3.9, marking which `<` and
 * `>` delimit a template list (vec2<f32>, array<u32, 4>). */
#ifndef STEX_WGSL_LEX_H
#define STEX_WGSL_LEX_H

#include "wgsl/diag.h"

typedef enum wg_tok_kind {
    TK_EOF, TK_IDENT, TK_INT, TK_FLOAT,
    TK_TEMPLATE_OPEN, TK_TEMPLATE_CLOSE, /* after discovery */
    /* punctuation, longest first in the lexer's table */
    TK_SHL_ASSIGN, TK_SHR_ASSIGN,
    TK_ARROW, TK_AND_AND, TK_OR_OR, TK_EQ, TK_NE, TK_LE, TK_GE, TK_SHL, TK_SHR,
    TK_PLUS_PLUS, TK_MINUS_MINUS, TK_PLUS_ASSIGN, TK_MINUS_ASSIGN, TK_STAR_ASSIGN,
    TK_SLASH_ASSIGN, TK_PERCENT_ASSIGN, TK_AND_ASSIGN, TK_OR_ASSIGN, TK_XOR_ASSIGN,
    TK_LT, TK_GT, TK_ASSIGN, TK_PLUS, TK_MINUS, TK_STAR, TK_SLASH, TK_PERCENT, TK_AMP,
    TK_PIPE, TK_CARET, TK_TILDE, TK_BANG, TK_LPAREN, TK_RPAREN, TK_LBRACE, TK_RBRACE,
    TK_LBRACKET, TK_RBRACKET, TK_COMMA, TK_SEMI, TK_COLON, TK_DOT, TK_AT, TK_UNDERSCORE
} wg_tok_kind;

typedef struct wg_token {
    wg_tok_kind kind;
    wg_loc loc;
    const char *text;  /* into the source */
    uint32_t len;
    char suffix;       /* literals: 'i', 'u', 'f', 'h' or 0 */
    char joined;       /* a '>' right after another '>' (together: '>>') */
    int64_t ival;      /* TK_INT (abstract: any value up to 2^63) */
    double fval;       /* TK_FLOAT */
} wg_token;

/* Tokenizes src (NUL-terminated); errors go to d.  *out is malloc'ed and
 * ends with TK_EOF. */
void wg_lex(const char *src, wg_diags *d, wg_token **out, uint32_t *count);

const char *wg_tok_spelling(wg_tok_kind k);
/* Whether token t is the identifier `word`. */
int wg_tok_is(const wg_token *t, const char *word);

#endif
