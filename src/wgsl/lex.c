/* The WGSL lexer: comments, identifiers, literals, punctuation; then
 * template-list discovery (WGSL 3.9). */
#include "wgsl/lex.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl/xid_table.h"

static const struct { const char *s; wg_tok_kind k; } PUNCT[] = {
    {"<<=", TK_SHL_ASSIGN}, {">>=", TK_SHR_ASSIGN},
    {"->", TK_ARROW}, {"&&", TK_AND_AND}, {"||", TK_OR_OR}, {"==", TK_EQ}, {"!=", TK_NE},
    {"<=", TK_LE}, {">=", TK_GE}, {"<<", TK_SHL}, {">>", TK_SHR}, {"++", TK_PLUS_PLUS},
    {"--", TK_MINUS_MINUS}, {"+=", TK_PLUS_ASSIGN}, {"-=", TK_MINUS_ASSIGN},
    {"*=", TK_STAR_ASSIGN}, {"/=", TK_SLASH_ASSIGN}, {"%=", TK_PERCENT_ASSIGN},
    {"&=", TK_AND_ASSIGN}, {"|=", TK_OR_ASSIGN}, {"^=", TK_XOR_ASSIGN},
    {"<", TK_LT}, {">", TK_GT}, {"=", TK_ASSIGN}, {"+", TK_PLUS}, {"-", TK_MINUS},
    {"*", TK_STAR}, {"/", TK_SLASH}, {"%", TK_PERCENT}, {"&", TK_AMP}, {"|", TK_PIPE},
    {"^", TK_CARET}, {"~", TK_TILDE}, {"!", TK_BANG}, {"(", TK_LPAREN}, {")", TK_RPAREN},
    {"{", TK_LBRACE}, {"}", TK_RBRACE}, {"[", TK_LBRACKET}, {"]", TK_RBRACKET},
    {",", TK_COMMA}, {";", TK_SEMI}, {":", TK_COLON}, {".", TK_DOT}, {"@", TK_AT},
};

const char *wg_tok_spelling(wg_tok_kind k)
{
    switch (k) {
    case TK_EOF: return "end of file";
    case TK_IDENT: return "an identifier";
    case TK_INT: return "an integer literal";
    case TK_FLOAT: return "a floating-point literal";
    case TK_TEMPLATE_OPEN: return "'<'";
    case TK_TEMPLATE_CLOSE: return "'>'";
    case TK_UNDERSCORE: return "'_'";
    default:
        for (size_t i = 0; i < sizeof PUNCT / sizeof PUNCT[0]; i++)
            if (PUNCT[i].k == k)
                return PUNCT[i].s;
        return "a token";
    }
}

int wg_tok_is(const wg_token *t, const char *word)
{
    return t->kind == TK_IDENT && strlen(word) == t->len && !memcmp(t->text, word, t->len);
}

typedef struct lexer {
    const char *src, *p;
    uint32_t line;
    const char *line_start;
    const char *col_at; /* where the last column was counted, and that column */
    uint32_t col;
    wg_diags *d;
    wg_token *t;
    uint32_t n, cap;
} lexer;

/* A position's column counts code points, as WGSL counts characters (a
 * UTF-8 continuation byte adds none), so a caret lines up after non-ASCII
 * identifiers.  Tokens come in order: the count goes on from the last one. */
static wg_loc here(lexer *x, const char *at)
{
    if (at < x->line_start) /* an unterminated block comment's start, lines back */
        return (wg_loc){x->line, 1};
    if (x->col_at < x->line_start || at < x->col_at)
        x->col_at = x->line_start, x->col = 1;
    for (const char *p = x->col_at; p < at; p++)
        x->col += ((unsigned char)*p & 0xc0u) != 0x80u;
    x->col_at = at;
    return (wg_loc){x->line, x->col};
}

static wg_token *push(lexer *x, wg_tok_kind k, const char *at, size_t len)
{
    if (x->n == x->cap) {
        uint32_t cap = x->cap ? 2 * x->cap : 256;
        wg_token *t = realloc(x->t, cap * sizeof *t);
        if (!t)
            return NULL;
        x->t = t;
        x->cap = cap;
    }
    wg_token *t = &x->t[x->n++];
    memset(t, 0, sizeof *t);
    t->kind = k;
    t->loc = here(x, at);
    t->text = at;
    t->len = (uint32_t)len;
    return t;
}

static uint32_t utf8(const char *p, int *len);

/* WGSL's blankspace at p (3.2: space, tab, the line breaks, U+200E and
 * U+200F): its length in bytes, 0 if none; *line_break when it is one of
 * the line breaks (LF, VT, FF, CR, CR LF, U+0085, U+2028, U+2029), which
 * also end a line comment. */
static int blank(const char *p, bool *line_break)
{
    unsigned char c = (unsigned char)*p;
    *line_break = c == '\n' || c == '\v' || c == '\f' || c == '\r';
    if (c == ' ' || c == '\t' || *line_break)
        return c == '\r' && p[1] == '\n' ? 2 : 1;
    int n = 0;
    uint32_t u = c >= 0x80 ? utf8(p, &n) : 0;
    *line_break = u == 0x85 || u == 0x2028 || u == 0x2029;
    return *line_break || u == 0x200E || u == 0x200F ? n : 0;
}

/* Skips blanks and comments (block comments nest); false at end of input. */
static void skip_blank(lexer *x)
{
    for (;;) {
        const char *p = x->p;
        bool line_break;
        int n = blank(p, &line_break);
        if (n) {
            x->p += n;
            if (line_break) {
                x->line++;
                x->line_start = x->p;
            }
        } else if (p[0] == '/' && p[1] == '/') {
            while (*x->p && !(blank(x->p, &line_break) && line_break))
                x->p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *start = p, *start_line = x->line_start;
            uint32_t line = x->line;
            int depth = 0;
            do {
                if (x->p[0] == '/' && x->p[1] == '*') {
                    depth++;
                    x->p += 2;
                } else if (x->p[0] == '*' && x->p[1] == '/') {
                    depth--;
                    x->p += 2;
                } else if ((n = blank(x->p, &line_break)) && line_break) {
                    x->line++;
                    x->line_start = x->p += n;
                } else if (*x->p) {
                    x->p++;
                } else {
                    x->line = line, x->line_start = start_line; /* the comment's start */
                    wg_error(x->d, here(x, start), "block-comment", "unterminated block comment");
                    return;
                }
            } while (depth > 0);
        } else {
            return;
        }
    }
}

/* A numeric literal (WGSL 3.4 "Literals"). */
static void number(lexer *x)
{
    const char *s = x->p, *p = s;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    bool is_float = false, exponent = false;
    bool digits = false, exp_digits = true; /* the grammar wants both: 0x.p2, 1.e+f are not */
    if (hex) {
        p += 2;
        while (isxdigit((unsigned char)*p) || *p == '.') {
            digits |= *p != '.';
            is_float |= *p++ == '.';
        }
        exponent = *p == 'p' || *p == 'P';
    } else {
        while (isdigit((unsigned char)*p) || *p == '.') {
            digits |= *p != '.';
            is_float |= *p++ == '.';
        }
        exponent = *p == 'e' || *p == 'E';
    }
    if (exponent) {
        is_float = true;
        p++;
        if (*p == '+' || *p == '-')
            p++;
        exp_digits = isdigit((unsigned char)*p);
        while (isdigit((unsigned char)*p))
            p++;
    }
    char suffix = 0;
    /* a hexadecimal float takes 'f' or 'h' only after its exponent: 0x1p2h, not 0xf.h */
    if (*p == 'i' || *p == 'u' || ((*p == 'f' || *p == 'h') && (!hex || exponent)))
        suffix = *p;
    if (suffix == 'f' || suffix == 'h')
        is_float = true;
    size_t len = (size_t)(p - s);
    wg_token *t = push(x, is_float ? TK_FLOAT : TK_INT, s, len + (suffix != 0));
    x->p = p + (suffix != 0);
    if (!t)
        return;
    t->suffix = suffix;
    char buf[128];
    if (len >= sizeof buf) {
        wg_error(x->d, t->loc, "literal", "numeric literal too long");
        return;
    }
    memcpy(buf, s, len);
    buf[len] = 0;
    if (!digits || !exp_digits) {
        wg_error(x->d, t->loc, "literal", "numeric literal '%s' has no digits in its %s", buf,
                 digits ? "exponent" : "mantissa");
        return;
    }
    errno = 0;
    if (is_float) {
        t->fval = strtod(buf, NULL);
        if (isinf(t->fval))
            wg_error(x->d, t->loc, "literal", "floating-point literal '%s' is not finite", buf);
    } else {
        if (len > 1 && buf[0] == '0' && !hex)
            wg_error(x->d, t->loc, "decimal-int-literal",
                     "integer literal '%s' has a leading zero", buf);
        unsigned long long v = strtoull(buf, NULL, hex ? 16 : 10);
        if (errno == ERANGE || v > (unsigned long long)INT64_MAX)
            wg_error(x->d, t->loc, "literal", "integer literal '%s' is too large", buf);
        t->ival = (int64_t)v;
    }
    if (isalnum((unsigned char)*x->p) || *x->p == '_')
        wg_error(x->d, here(x, x->p), "literal", "unexpected character '%c' after a number",
                 *x->p);
}

/* WGSL 3.9's template list discovery, on the tokens: one pass with a stack
 * of unclosed candidates (an identifier's '<'), each closed by a '>' at its
 * own nesting of parentheses and brackets.  The lexer emits '>>' as two '>'
 * (the second `joined`), so a '>>' may close two lists; the parser joins
 * them back into a shift elsewhere.  Linear, and as deep as the text nests
 * (the stack grows); false when out of memory. */
static bool discover_templates(wg_token *t, uint32_t n)
{
    typedef struct { uint32_t at, depth; } candidate;
    candidate *pending = NULL;
    uint32_t np = 0, cap = 0, depth = 0;
    for (uint32_t j = 0; j < n; j++) {
        switch (t[j].kind) {
        case TK_IDENT:
            if (j + 1 < n && t[j + 1].kind == TK_LT) {
                if (np == cap) {
                    uint32_t c = cap ? 2 * cap : 32;
                    candidate *g = realloc(pending, c * sizeof *g);
                    if (!g) {
                        free(pending);
                        return false;
                    }
                    pending = g, cap = c;
                }
                pending[np++] = (candidate){++j, depth};
            }
            break;
        case TK_GT:
            if (np && pending[np - 1].depth == depth) {
                t[pending[--np].at].kind = TK_TEMPLATE_OPEN;
                t[j].kind = TK_TEMPLATE_CLOSE;
            }
            break;
        case TK_LPAREN: case TK_LBRACKET:
            depth++;
            break;
        case TK_RPAREN: case TK_RBRACKET:
            while (np && pending[np - 1].depth >= depth)
                np--;
            depth = depth ? depth - 1 : 0;
            break;
        case TK_AND_AND: case TK_OR_OR: /* looser than a comparison: a<b || c>d */
            while (np && pending[np - 1].depth >= depth)
                np--;
            break;
        /* no expression holds these (an '=' outside ==, <=, >=, != is an assignment) */
        case TK_SEMI: case TK_LBRACE: case TK_COLON: case TK_ASSIGN: case TK_PLUS_ASSIGN:
        case TK_MINUS_ASSIGN: case TK_STAR_ASSIGN: case TK_SLASH_ASSIGN: case TK_PERCENT_ASSIGN:
        case TK_AND_ASSIGN: case TK_OR_ASSIGN: case TK_XOR_ASSIGN: case TK_SHL_ASSIGN:
        case TK_SHR_ASSIGN:
            np = 0;
            depth = 0;
            break;
        default:
            break;
        }
    }
    /* an unclosed candidate stays a less-than */
    free(pending);
    return true;
}

/* WGSL's reserved words (spec "Reserved Words", wgsl.reserved.bs.include),
 * in strcmp order: a module must not contain one. */
static const char *const RESERVED[] = {
    "NULL", "Self", "abstract", "active", "alignas", "alignof", "as", "asm",
    "asm_fragment", "async", "attribute", "auto", "await", "become", "cast",
    "catch", "class", "co_await", "co_return", "co_yield", "coherent",
    "column_major", "common", "compile", "compile_fragment", "concept",
    "const_cast", "consteval", "constexpr", "constinit", "crate", "debugger",
    "decltype", "delete", "demote", "demote_to_helper", "do", "dynamic_cast",
    "enum", "explicit", "export", "extends", "extern", "external", "fallthrough",
    "filter", "final", "finally", "friend", "from", "fxgroup", "get", "goto",
    "groupshared", "highp", "impl", "implements", "import", "inline", "instanceof",
    "interface", "layout", "lowp", "macro", "macro_rules", "match", "mediump",
    "meta", "mod", "module", "move", "mut", "mutable", "namespace", "new", "nil",
    "noexcept", "noinline", "nointerpolation", "non_coherent", "noncoherent",
    "noperspective", "null", "nullptr", "of", "operator", "package", "packoffset",
    "partition", "pass", "patch", "pixelfragment", "precise", "precision",
    "premerge", "priv", "protected", "pub", "public", "readonly", "ref",
    "regardless", "register", "reinterpret_cast", "require", "resource", "restrict",
    "self", "set", "shared", "sizeof", "smooth", "snorm", "static", "static_assert",
    "static_cast", "std", "subroutine", "super", "target", "template", "this",
    "thread_local", "throw", "trait", "try", "type", "typedef", "typeid",
    "typename", "typeof", "union", "unless", "unorm", "unsafe", "unsized", "use",
    "using", "varying", "virtual", "volatile", "wgsl", "where", "with", "writeonly",
    "yield",
};

static int cmp_word(const void *key, const void *elem)
{
    return strcmp(key, *(const char *const *)elem);
}

static bool reserved(const char *s, size_t len)
{
    char w[32];
    if (len >= sizeof w)
        return false;
    memcpy(w, s, len);
    w[len] = '\0';
    return bsearch(w, RESERVED, sizeof RESERVED / sizeof *RESERVED, sizeof *RESERVED,
                   cmp_word) != NULL;
}

/* Identifiers (WGSL: XID_Start or '_', then XID_Continue; UAX #31) */

/* The code point of the UTF-8 sequence at p, its length in *len; 0 for a
 * malformed or overlong sequence or a surrogate. */
static uint32_t utf8(const char *p, int *len)
{
    const unsigned char *u = (const unsigned char *)p;
    int n = u[0] >= 0xF0 && u[0] < 0xF5 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC2 ? 2 : 0;
    if (u[0] >= 0xF5)
        n = 0;
    uint32_t c = n ? u[0] & (0x7Fu >> n) : 0;
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (u[i] & 0x3Fu);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (!n || c < least[n] || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
        return 0;
    *len = n;
    return c;
}

static bool in_ranges(const uint32_t (*r)[2], size_t n, uint32_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c < r[mid][0])
            hi = mid;
        else if (c > r[mid][1])
            lo = mid + 1;
        else
            return true;
    }
    return false;
}

/* The bytes of the identifier character at p (0: none); first: the
 * identifier's first character. */
static int ident_char(const char *p, bool first)
{
    unsigned char c = (unsigned char)*p;
    if (c < 0x80)
        return (first ? isalpha(c) : isalnum(c)) || c == '_';
    int len = 0;
    uint32_t cp = utf8(p, &len);
    if (!cp)
        return 0;
    bool ok = first ? in_ranges(XID_START, sizeof XID_START / sizeof *XID_START, cp)
                    : in_ranges(XID_CONTINUE, sizeof XID_CONTINUE / sizeof *XID_CONTINUE, cp);
    return ok ? len : 0;
}

void wg_lex(const char *src, wg_diags *d, wg_token **out, uint32_t *count)
{
    lexer x = {.src = src, .p = src, .line = 1, .line_start = src, .col_at = src, .col = 1,
               .d = d};
    for (;;) {
        skip_blank(&x);
        const char *p = x.p;
        if (!*p)
            break;
        int n = ident_char(p, true);
        if (n) {
            const char *s = p;
            for (p += n; (n = ident_char(p, false)) != 0; p += n)
                ;
            wg_token *t = push(&x, p - s == 1 && *s == '_' ? TK_UNDERSCORE : TK_IDENT, s,
                               (size_t)(p - s));
            if (t && t->kind == TK_IDENT && t->len >= 2 && s[0] == '_' && s[1] == '_')
                wg_error(d, t->loc, "identifiers", "identifiers may not start with '__'");
            else if (t && t->kind == TK_IDENT && reserved(s, t->len))
                wg_error(d, t->loc, "reserved-words", "'%.*s' is a reserved word (WGSL keeps it "
                         "for future use)", (int)t->len, s);
            x.p = p;
            continue;
        }
        if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            number(&x);
            continue;
        }
        size_t i;
        if (p[0] == '>' && p[1] == '>' && p[2] != '=') { /* two '>' (see discover_templates) */
            push(&x, TK_GT, p, 1);
            wg_token *second = push(&x, TK_GT, p + 1, 1);
            if (second)
                second->joined = 1;
            x.p += 2;
            continue;
        }
        for (i = 0; i < sizeof PUNCT / sizeof PUNCT[0]; i++) {
            size_t len = strlen(PUNCT[i].s);
            if (!strncmp(p, PUNCT[i].s, len)) {
                push(&x, PUNCT[i].k, p, len);
                x.p += len;
                break;
            }
        }
        if (i == sizeof PUNCT / sizeof PUNCT[0]) {
            int len = 0;
            uint32_t cp = (unsigned char)*p >= 0x80 ? utf8(p, &len) : 0;
            if ((unsigned char)*p < 0x80)
                wg_error(d, here(&x, p), "tokens", "unexpected character '%c'", *p);
            else if (cp)
                wg_error(d, here(&x, p), "tokens", "unexpected character U+%04X (not a token, "
                         "nor a character an identifier may hold: XID_Start or XID_Continue)",
                         (unsigned)cp);
            else
                wg_error(d, here(&x, p), "tokens", "the source is not valid UTF-8 here");
            x.p += len ? len : 1;
        }
    }
    push(&x, TK_EOF, x.p, 0);
    if (!discover_templates(x.t, x.n))
        wg_error(d, (wg_loc){0, 0}, "resources", "out of memory while finding template lists");
    *out = x.t;
    *count = x.n;
}
