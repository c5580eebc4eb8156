/* `stex eval` over any WGSL expression: the expression goes into a one-
 * invocation compute shader that reads its arguments a, b, c, d from a
 * storage buffer (as bit patterns) and writes its result's bits back; stex's
 * front end compiles it and its interpreter runs it on a device of the
 * profile asked for, so every operation is that profile's arithmetic. */
#include "cli/eval_wgsl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/error.h"
#include "stex/stex.h"

enum { RESULT_AT = 16, IO_WORDS = 32 };

/* One type of a signature: "f32", "vec3<i32>", "bool" ... */
typedef struct eval_type {
    char scalar[5];   /* f32, f16, i32, u32, bool */
    unsigned lanes;   /* 1 for a scalar */
} eval_type;

/* Splits "vec2<f32>,u32" into types; false if one is not a scalar or vector. */
static bool parse_types(const char *s, size_t len, eval_type *t, unsigned max, unsigned *n)
{
    *n = 0;
    while (len) {
        if (*n == max)
            return false;
        eval_type *e = &t[(*n)++];
        e->lanes = 1;
        if (len > 6 && !strncmp(s, "vec", 3) && s[3] >= '2' && s[3] <= '4' && s[4] == '<') {
            e->lanes = (unsigned)(s[3] - '0');
            s += 5, len -= 5;
        }
        size_t k = 0;
        while (k < len && s[k] != ',' && s[k] != '>')
            k++;
        if (k < 3 || k > 4)
            return false;
        memcpy(e->scalar, s, k);
        e->scalar[k] = 0;
        if (strcmp(e->scalar, "f32") && strcmp(e->scalar, "i32") && strcmp(e->scalar, "u32") &&
            strcmp(e->scalar, "bool") && strcmp(e->scalar, "f16"))
            return false;
        s += k, len -= k;
        if (e->lanes > 1) {
            if (!len || *s != '>')
                return false;
            s++, len--;
        }
        if (len) {
            if (*s != ',')
                return false;
            s++, len--;
        }
    }
    return *n > 0;
}

/* The WGSL that reads word w as a value of scalar type t. */
static void load_word(char *b, size_t n, const char *t, unsigned w)
{
    if (!strcmp(t, "u32"))
        snprintf(b, n, "io[%u]", w);
    else if (!strcmp(t, "bool"))
        snprintf(b, n, "(io[%u] != 0u)", w);
    else if (!strcmp(t, "f16")) /* binary16 bits in the word's low half */
        snprintf(b, n, "bitcast<vec2<f16>>(io[%u]).x", w);
    else
        snprintf(b, n, "bitcast<%s>(io[%u])", t, w);
}

/* The result's WGSL type: "f32", "vec3<i32>" ... */
static void type_text(char *b, size_t n, const eval_type *t)
{
    if (t->lanes > 1)
        snprintf(b, n, "vec%u<%s>", t->lanes, t->scalar);
    else
        snprintf(b, n, "%s", t->scalar);
}

/* The shader, or false if it does not fit the buffer; *expr_line is the
 * line the expression starts on and *expr_col its column (the prefix
 * before it is ASCII), so diagnostics can be put back into the user's
 * text.  `let r : T = EXPR;` - the result's type stated, so an expression
 * of another type is refused at the expression itself. */
static bool shader_text(char *src, size_t size, const char *expr, const eval_type *args,
                        unsigned nargs, const eval_type *res, uint32_t *expr_line,
                        uint32_t *expr_col)
{
    static const char names[] = "abcd";
    bool f16 = !strcmp(res->scalar, "f16");
    for (unsigned i = 0; i < nargs; i++)
        f16 |= !strcmp(args[i].scalar, "f16");
    size_t at = (size_t)snprintf(src, size,
                                 "%s@group(0) @binding(0) var<storage, read_write> io : "
                                 "array<u32, %d>;\n@compute @workgroup_size(1)\nfn main() {\n",
                                 f16 ? "enable f16;\n" : "", IO_WORDS);
    unsigned w = 0;
    for (unsigned i = 0; i < nargs && at < size; i++) {
        char one[64], all[256] = "";
        if (args[i].lanes == 1)
            load_word(all, sizeof all, args[i].scalar, w++);
        else {
            size_t k = (size_t)snprintf(all, sizeof all, "vec%u<%s>(", args[i].lanes,
                                        args[i].scalar);
            for (unsigned l = 0; l < args[i].lanes; l++) {
                load_word(one, sizeof one, args[i].scalar, w++);
                k += (size_t)snprintf(all + k, sizeof all - k, "%s%s", l ? ", " : "", one);
            }
            snprintf(all + k, sizeof all - k, ")");
        }
        at += (size_t)snprintf(src + at, size - at, "  let %c = %s;\n", names[i], all);
    }
    if (at < size) {
        char rt[24], prefix[48];
        type_text(rt, sizeof rt, res);
        snprintf(prefix, sizeof prefix, "  let r : %s = ", rt);
        *expr_line = 1;
        for (size_t k = 0; k < at; k++)
            *expr_line += src[k] == '\n';
        *expr_col = (uint32_t)strlen(prefix) + 1;
        at += (size_t)snprintf(src + at, size - at, "%s%s;\n", prefix, expr);
    }
    static const char comp[] = "xyzw";
    for (unsigned l = 0; l < res->lanes && at < size; l++) {
        char v[8];
        snprintf(v, sizeof v, res->lanes > 1 ? "r.%c" : "r", comp[l]);
        const char *s = res->scalar;
        at += (size_t)snprintf(src + at, size - at,
                               !strcmp(s, "u32") ? "  io[%u] = %s;\n"
                               : !strcmp(s, "f16") ? "  io[%u] = bitcast<u32>(vec2<f16>(%s, 0.0h));\n"
                               : !strcmp(s, "bool") ? "  io[%u] = select(0u, 1u, %s);\n"
                                                    : "  io[%u] = bitcast<u32>(%s);\n",
                               RESULT_AT + l, v);
    }
    if (at < size)
        at += (size_t)snprintf(src + at, size - at, "}\n");
    return at < size && w <= RESULT_AT;
}

stex_status eval_wgsl_words(const char *sig, unsigned *nin, unsigned *nout)
{
    const char *arrow = sig ? strstr(sig, "->") : NULL;
    eval_type args[4], res[2];
    unsigned na, nr;
    if (!arrow || !parse_types(sig, (size_t)(arrow - sig), args, 4, &na) ||
        !parse_types(arrow + 2, strlen(arrow + 2), res, 2, &nr))
        return stex_fail(STEX_INVALID_ARGUMENT, "--type '%s': a signature is 1 to 4 argument "
                         "types '->' one result type, each f32, f16, i32, u32, bool or vecN<T> "
                         "(e.g. f32,f32->f32)", sig ? sig : "");
    if (nr != 1)
        return stex_fail(STEX_INVALID_ARGUMENT, "--type '%s': a WGSL expression has one result "
                         "type", sig);
    *nin = 0;
    for (unsigned i = 0; i < na; i++)
        *nin += args[i].lanes;
    *nout = res[0].lanes;
    return STEX_OK;
}

/* The module's diagnostics in the user's terms: a position inside the
 * expression as its line and column in the argument, quoted with a caret
 * under it; one in the code stex wrapped around it without a position or
 * quote (the user never wrote that code).  malloc'ed, or NULL. */
static char *user_diagnostics(const stex_wgsl_module *m, const char *expr, uint32_t line,
                              uint32_t col)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return NULL;
    static const char *const sev[] = {"error", "warning", "info"};
    stex_wgsl_diagnostic g;
    uint32_t nlines = 1;
    for (const char *c = expr; *c; c++)
        nlines += *c == '\n';
    for (size_t i = 0; stex_wgsl_module_diagnostic_at(m, i, &g); i++) {
        if (g.line < line || g.line >= line + nlines || (g.line == line && g.column < col)) {
            fprintf(f, "expression: %s: %s [%s]\n", sev[g.severity], g.message, g.rule);
            continue;
        }
        uint32_t l = g.line - line + 1, c = g.line == line ? g.column - col + 1 : g.column;
        /* `let r : T = ` is stex's: its "initializer" is the expression */
        char type[40], want[40];
        if (sscanf(g.message, "the initializer has type %39s where %39s is expected", type,
                   want) == 2)
            fprintf(f, "expression:%u:%u: %s: the expression has type %s, the signature's "
                    "result %s [%s]\n", l, c, sev[g.severity], type, want, g.rule);
        else
            fprintf(f, "expression:%u:%u: %s: %s [%s]\n", l, c, sev[g.severity], g.message,
                    g.rule);
        const char *text = expr; /* the argument's line l */
        for (uint32_t k = 1; k < l; k++)
            text = strchr(text, '\n') + 1;
        int len = (int)strcspn(text, "\n");
        fprintf(f, "  %.*s\n  ", len, text);
        uint32_t cp = 1;
        for (int k = 0; k < len && cp < c; k++)
            if (((unsigned char)text[k] & 0xc0u) != 0x80u) {
                fputc(text[k] == '\t' ? '\t' : ' ', f);
                cp++;
            }
        fputs("^\n", f);
    }
    fclose(f);
    return buf;
}

stex_status eval_wgsl(const char *expr, const char *sig, stex_profile_id profile,
                      const uint32_t *in, uint32_t *out, char **diagnostics)
{
    *diagnostics = NULL;
    const char *arrow = strstr(sig, "->");
    eval_type args[4], res[2];
    unsigned na, nr, nin, nout;
    stex_status st = eval_wgsl_words(sig, &nin, &nout);
    if (st)
        return st;
    parse_types(sig, (size_t)(arrow - sig), args, 4, &na);
    parse_types(arrow + 2, strlen(arrow + 2), res, 2, &nr);
    /* exactly one expression: the text is pasted into the shader, so
     * anything after it (`1); loop {} _ = (1`) would run as statements */
    size_t len;
    if (stex_wgsl_expression_length(expr, &len)) {
        char why[512];
        snprintf(why, sizeof why, "%s", stex_last_error());
        return stex_fail(STEX_INVALID_ARGUMENT, "'%s' is not a WGSL expression: %s", expr, why);
    }
    const char *rest = expr + len + strspn(expr + len, " \t\n\v\f\r");
    if (*rest)
        return stex_fail(STEX_INVALID_ARGUMENT, "the argument must be exactly one WGSL "
                         "expression: '%.*s' is one, then '%s' follows it", (int)len, expr,
                         rest);
    char src[2048];
    uint32_t expr_line = 0, expr_col = 0;
    if (!shader_text(src, sizeof src, expr, args, na, &res[0], &expr_line, &expr_col))
        return stex_fail(STEX_INVALID_ARGUMENT, "the expression is too long");

    stex_wgsl_module *m = NULL;
    stex_adapter *ad = NULL;
    stex_device *d = NULL;
    stex_pipeline *p = NULL;
    stex_buffer *b = NULL;
    stex_bind_group *g = NULL;
    stex_adapter_desc desc = stex_adapter_desc_default();
    desc.profile = profile;
    /* the expression's device asks for shader-f16, which every profile's adapter offers */
    stex_device_desc dd = {.required_features = STEX_FEATURE_SHADER_F16};
    if ((st = stex_wgsl_module_create_for(stex_profile_get(profile), src, "expression", &m)) &&
        m &&
        stex_wgsl_module_error_count(m)) {
        *diagnostics = user_diagnostics(m, expr, expr_line, expr_col);
        goto done;
    }
    stex_wgsl_options wo = {.subgroup_width = 1};
    stex_buffer_desc bd = {.size = IO_WORDS * 4,
                           .usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST};
    if (st || (st = stex_adapter_create(&desc, &ad)) || (st = stex_device_create(ad, &dd, &d)) ||
        (st = stex_wgsl_pipeline_create(d, m, "main", &wo, &p)) ||
        (st = stex_buffer_create(d, &bd, &b)) ||
        (st = stex_queue_write_buffer(b, 0, in, (size_t)nin * 4)))
        goto done;
    stex_bind_group_entry e = {.binding = 0, .buffer = b};
    stex_dispatch_options o = {.threads = 1, .profile = stex_profile_get(profile),
                               .cancel = cli_cancel()};
    if ((st = stex_bind_group_create(p, &e, 1, &g)) || (st = stex_dispatch(p, g, 1, 1, 1, &o)))
        goto done;
    memcpy(out, stex_buffer_data(b) + RESULT_AT * 4, (size_t)nout * 4);
done:
    stex_bind_group_destroy(g);
    stex_buffer_destroy(b);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(ad);
    return st;
}
