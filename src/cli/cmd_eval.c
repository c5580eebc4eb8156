/* stex eval: one WGSL expression over arguments a, b, c, d, as each profile
 * computes it at run time.
 *
 * An expression of stex/math.def (the '# expr' lines of the conformance
 * files, spaces ignored; --type picks among overloads of the same text, f32
 * first) goes straight to the math layer (include/stex/math.h), which also
 * does --const and --bits; any other expression, with --type SIG, runs in a
 * one-invocation shader through stex's WGSL front end and interpreter
 * (eval_wgsl.c), whose arithmetic is the same math layer's. */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_kernel.h"
#include "cli/eval_wgsl.h"
#include "stex/math.h"

static const char SYNOPSIS[] =
    "usage: stex eval [--profile P|all] [--type SIG] [--json] 'EXPR' VALUES...\n"
    "       stex eval --bits [--profile P] [--type SIG] 'EXPR' < cases\n"
    "       stex eval --const [--profile P] [--bits] [--type SIG] 'EXPR' VALUES...\n"
    "       stex eval --list\n"
    "\n"
    "Evaluates a WGSL expression over arguments a, b, c, d as the profile's\n"
    "device computes it at run time, and prints each result as bits and value.\n";

static const char EPILOGUE[] =
    "EXPR: any expression of the '# expr' lines, e.g. 'a * b + c', 'sin(a)',\n"
    "'frexp(a).fract ; frexp(a).exp'; `stex eval --list` lists them.\n"
    "VALUES: WGSL literals (1.5, -2, 3u, 0x1p-149f) or 0x bit patterns\n"
    "(0x3f800000), one per argument word (a vec4 takes four).\n"
    "\n"
    "examples:\n"
    "  stex eval 'a * b' 0x00000001 0.98\n"
    "  stex eval --profile nvidia 'a * b + c' 0x3f800800 0x3f800800 0xbf801000\n"
    "  stex eval --type 'i32,i32->i32' 'a / b' -7 0\n"
    "  printf '3f800000\\n40490fdb\\n' | stex eval --bits --profile lavapipe 'sin(a)'\n"
    "\n"
    "exit status: 0 done, 2 usage error (unknown expression, bad value; with\n"
    "--bits, the line number is given).\n";

typedef struct eval_opts {
    const char *profile, *type;
    bool bits, json, list, constant;
} eval_opts;

#define AT(f) offsetof(eval_opts, f)
static const cli_option eval_options[] = {
    {.name = "profile", .kind = CLI_TEXT, .at = AT(profile), .metavar = "P",
     .help = "spec, lavapipe, nvidia or all (default all; --bits: spec)"},
    {.name = "type", .kind = CLI_TEXT, .at = AT(type), .metavar = "SIG",
     .help = "the overload, as the conformance files' type column:\n"
             "f32,f32->f32, i32,u32->i32, vec4<f32>->u32 ..."},
    {.name = "bits", .kind = CLI_FLAG, .at = AT(bits),
     .help = "read one case per line from stdin (argument bit patterns,\n"
             "8 hex digits, comma-separated) and print one line per case\n"
             "(result bit patterns, comma-separated)"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print one JSON object"},
    {.name = "list", .kind = CLI_FLAG, .at = AT(list),
     .help = "list the expressions and overloads stex evaluates"},
    {.name = "const", .kind = CLI_FLAG, .at = AT(constant),
     .help = "evaluate as a WGSL const-expression at shader creation (an unrepresentable "
             "value, division by zero, a shift past the width or a builtin outside its "
             "domain prints 'error: ...'): by WGSL's rules, or with --profile lavapipe or "
             "nvidia as Dawn's front end does (default spec)"},
    CLI_TIMEOUT_OPTION,
    {0}};
#undef AT

const cli_spec cli_eval_spec = {"eval", SYNOPSIS, EPILOGUE, eval_options};

static void strip_spaces(const char *in, char *out, size_t size)
{
    size_t n = 0;
    for (; *in && n + 1 < size; in++)
        if (!isspace((unsigned char)*in))
            out[n++] = *in;
    out[n] = 0;
}

/* One argument word: a 0x bit pattern (hex digits only), or a literal of the
 * word's type.  False if the text is not one. */
static bool parse_value(const char *s, char type, uint32_t *out)
{
    char *end;
    size_t len = strlen(s);
    errno = 0;
    if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) && len > 2 &&
        strspn(s + 2, "0123456789abcdefABCDEF") == len - 2 && len <= (type == 'h' ? 6u : 10u)) {
        *out = (uint32_t)strtoul(s, &end, 16);
        return true;
    }
    if (type == 'h') { /* the nearest f16; 0x: its 16 bits */
        double v = strtod(s, &end);
        if (*end == 'h')
            end++;
        return end != s && !*end && stex_math_f16_from_double(v, out);
    }
    if (type == 'f') {
        float f = strtof(s, &end);
        if (*end == 'f')
            end++;
        if (end == s || *end)
            return false;
        memcpy(out, &f, 4);
        return true;
    }
    if (type == 'i') {
        long long v = strtoll(s, &end, 10);
        if (*end == 'i')
            end++;
        if (end == s || *end || errno || v < INT32_MIN || v > INT32_MAX)
            return false;
        *out = (uint32_t)(int32_t)v;
        return true;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (*end == 'u')
        end++;
    if (end == s || *end || errno || v > UINT32_MAX || s[0] == '-')
        return false;
    *out = (uint32_t)v;
    return true;
}

static void print_value(FILE *f, char type, uint32_t w)
{
    if (type == 'h') {
        float x = stex_math_f16_to_float(w);
        if (isnan(x))
            fprintf(f, "NaN");
        else
            fprintf(f, "%.5g", x);
    } else if (type == 'f') {
        float x;
        memcpy(&x, &w, 4);
        if (isnan(x))
            fprintf(f, "NaN");
        else
            fprintf(f, "%.9g", x);
    } else if (type == 'i') {
        fprintf(f, "%d", (int)(int32_t)w);
    } else if (type == 'b') {
        fprintf(f, "%s", w ? "true" : "false");
    } else {
        fprintf(f, "%u", w);
    }
}

/* fn as a const-expression of profile id's front end: 0 and out[] set, or -1
 * with the error message */
static int eval_const(stex_profile_id id, stex_math_fn fn, const uint32_t *in, uint32_t *out)
{
    stex_const_rule rule = stex_math_const_rule(stex_profile_get(id));
    return stex_math_eval_const(rule, fn, false, in, out) == STEX_OK ? 0 : -1;
}

static int run_bits(stex_profile_id id, stex_math_fn fn, bool constant)
{
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    const stex_profile *p = stex_profile_get(id);
    char line[512];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        uint32_t in[8], out[8];
        unsigned n = 0;
        char *s = line;
        while (*s && n < 8) {
            char *end;
            if (strspn(s, "0123456789abcdefABCDEF") != 8)
                break;
            in[n++] = (uint32_t)strtoul(s, &end, 16);
            s = end;
            if (*s == ',')
                s++;
            else
                break;
        }
        if (*s || n != info->in_words)
            return cli_usage("eval", "line %u: '%s' is not %u argument bit pattern(s) of 8 hex "
                             "digits, comma-separated (%s takes %s)",
                             lineno, line, info->in_words, info->expr, info->sig);
        if (constant && eval_const(id, fn, in, out)) {
            printf("error: %s\n", stex_last_error());
            continue;
        }
        if (!constant)
            stex_math_eval(p, fn, in, out);
        for (unsigned i = 0; i < info->out_words; i++)
            printf("%s%08x", i ? "," : "", out[i]);
        printf("\n");
    }
    return CLI_OK;
}

static void list_expressions(void)
{
    for (int k = 0; k < STEX_MATH_FN_COUNT; k++) {
        const stex_math_fn_info *f = stex_math_fn_get((stex_math_fn)k);
        printf("%-20s %-24s %s\n", f->op, f->sig, f->expr);
    }
}

/* The overload of `expr` (same text, spaces ignored; and type if given), or
 * STEX_MATH_FN_COUNT (*known: whether the text is in the table at all). */
static stex_math_fn find_overload(const char *expr, const char *type, bool *known)
{
    char want[256], have[256];
    strip_spaces(expr, want, sizeof want);
    bool text_known = false;
    for (int k = 0; k < STEX_MATH_FN_COUNT; k++) {
        const stex_math_fn_info *f = stex_math_fn_get((stex_math_fn)k);
        strip_spaces(f->expr, have, sizeof have);
        if (strcmp(have, want))
            continue;
        text_known = true;
        if (!type || !strcmp(type, f->sig))
            return (stex_math_fn)k;
    }
    *known = text_known;
    return STEX_MATH_FN_COUNT;
}

/* The profiles to evaluate under; 0 after a usage error. */
static int pick_profiles(const eval_opts *o, stex_profile_id ids[STEX_PROFILE_COUNT])
{
    if (!o->profile || !strcmp(o->profile, "all")) {
        if (o->bits && o->profile) {
            cli_usage("eval", "--bits prints one profile's results: --profile spec, "
                      "lavapipe or nvidia");
            return 0;
        }
        for (int k = 0; k < STEX_PROFILE_COUNT; k++)
            ids[k] = (stex_profile_id)k;
        return STEX_PROFILE_COUNT;
    }
    if (stex_profile_from_name(o->profile, &ids[0]))
        return 1;
    cli_usage("eval", "unknown profile '%s' (spec, lavapipe, nvidia, all)", o->profile);
    return 0;
}

/* One row per profile: outs[k] holds profile ids[k]'s nout result words. */
static void print_rows(const char *expr, const char *sig, const stex_profile_id *ids, int nprof,
                       uint32_t (*outs)[8], unsigned nout, const char *out_types, bool json)
{
    if (json) {
        printf("{\"expr\": ");
        cli_json_string(stdout, expr);
        printf(", \"type\": ");
        cli_json_string(stdout, sig);
        printf(", \"results\": [");
    }
    for (int k = 0; k < nprof; k++) {
        const uint32_t *out = outs[k];
        if (json) {
            printf("%s{\"profile\": \"%s\", \"bits\": [", k ? ", " : "", stex_profile_name(ids[k]));
            for (unsigned i = 0; i < nout; i++)
                printf("%s\"%08x\"", i ? ", " : "", out[i]);
            printf("], \"values\": [");
            for (unsigned i = 0; i < nout; i++) {
                printf("%s\"", i ? ", " : "");
                print_value(stdout, out_types[i], out[i]);
                printf("\"");
            }
            printf("]}");
            continue;
        }
        printf("%-9s", stex_profile_name(ids[k]));
        for (unsigned i = 0; i < nout; i++) {
            printf("%s0x%08x (", i ? ", " : " ", out[i]);
            print_value(stdout, out_types[i], out[i]);
            printf(")");
        }
        printf("\n");
    }
    if (json)
        printf("]}\n");
}

/* An expression the table does not list: through the WGSL front end, which
 * needs its signature (--type); not for --const or --bits. */
static int eval_by_wgsl(const eval_opts *o, const cli_args *args, const stex_profile_id *ids,
                        int nprof, bool known)
{
    const char *expr = args->value[0];
    if (known && !o->type)
        return cli_usage("eval", "'%s' has no overload of that type (`stex eval --list`)", expr);
    if (!o->type)
        return cli_usage("eval", "'%s' is not in stex's table of expressions (`stex eval "
                         "--list`): give its signature with --type SIG (e.g. --type "
                         "'f32,f32->f32') to evaluate it with the WGSL front end", expr);
    if (o->constant || o->bits)
        return cli_usage("eval", "--%s: only for the expressions of `stex eval --list`; others "
                         "run on the WGSL interpreter at run time", o->constant ? "const" : "bits");
    unsigned nin, nout;
    stex_status st = eval_wgsl_words(o->type, &nin, &nout);
    if (st)
        return cli_usage("eval", "%s", stex_last_error());
    const char *arrow = strstr(o->type, "->");
    char arg_list[64], in_types[16], out_types[8];
    snprintf(arg_list, sizeof arg_list, "%.*s", (int)(arrow - o->type), o->type);
    stex_math_word_types(arg_list, in_types, 16);
    stex_math_word_types(arrow + 2, out_types, 8);
    if ((unsigned)(args->count - 1) != nin || nin > 16)
        return cli_usage("eval", "%s (%s) takes %u argument value(s), got %d", expr, o->type,
                         nin, args->count - 1);
    uint32_t in[16], outs[STEX_PROFILE_COUNT][8];
    for (unsigned i = 0; i < nin; i++)
        if (!parse_value(args->value[1 + i], in_types[i], &in[i]))
            return cli_usage("eval", "argument %u: '%s' is not a %s literal or a 0x bit pattern",
                             i + 1, args->value[1 + i],
                             in_types[i] == 'f' ? "f32" : in_types[i] == 'h' ? "f16"
                             : in_types[i] == 'i' ? "i32" : "u32");
    for (int k = 0; k < nprof; k++) {
        char *diag = NULL;
        st = eval_wgsl(expr, o->type, ids[k], in, outs[k], &diag);
        if (st) {
            int rc = diag ? cli_usage("eval", "'%s' is not a WGSL expression of type %s:\n%s",
                                      expr, o->type, diag)
                          : cli_fail("eval", st);
            free(diag);
            return rc;
        }
    }
    print_rows(expr, o->type, ids, nprof, outs, nout, out_types, o->json);
    return CLI_OK;
}

int cli_eval(int argc, char **argv)
{
    eval_opts o = {0};
    cli_args args;
    int rc = cli_parse(&cli_eval_spec, argc, argv, &o, &args);
    if (rc != CLI_OK || args.help)
        return rc;
    cli_cancel_install();
    if (o.list) {
        list_expressions();
        return CLI_OK;
    }
    if (o.constant && (o.json || (o.profile && !strcmp(o.profile, "all"))))
        return cli_usage("eval", "--const prints one result, that of one front end: it takes "
                         "neither --json nor --profile all");
    if (args.count < 1)
        return cli_usage("eval", "an expression is needed, e.g. 'a * b'");
    bool known = false;
    stex_math_fn fn = find_overload(args.value[0], o.type, &known);
    stex_profile_id ids[STEX_PROFILE_COUNT];
    int nprof = pick_profiles(&o, ids);
    if (!nprof)
        return CLI_USAGE;
    if (fn == STEX_MATH_FN_COUNT)
        return eval_by_wgsl(&o, &args, ids, nprof, known);
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    unsigned nvalues = (unsigned)(args.count - 1);
    if (o.bits) {
        if (nvalues)
            return cli_usage("eval", "--bits reads its cases from stdin, not the command line");
        return run_bits(nprof == 1 ? ids[0] : STEX_PROFILE_SPEC, fn, o.constant);
    }
    const char *arrow = strstr(info->sig, "->");
    char arg_list[64], in_types[8], out_types[8];
    snprintf(arg_list, sizeof arg_list, "%.*s", (int)(arrow - info->sig), info->sig);
    stex_math_word_types(arg_list, in_types, 8);
    stex_math_word_types(arrow + 2, out_types, 8);
    if (nvalues != info->in_words)
        return cli_usage("eval", "%s (%s) takes %u argument value(s), got %u", info->expr,
                         info->sig, info->in_words, nvalues);
    uint32_t in[8];
    for (unsigned i = 0; i < nvalues; i++)
        if (!parse_value(args.value[1 + i], in_types[i], &in[i]))
            return cli_usage("eval", "argument %u: '%s' is not a %s literal or a 0x bit pattern",
                             i + 1, args.value[1 + i],
                             in_types[i] == 'f' ? "f32" : in_types[i] == 'h' ? "f16"
                             : in_types[i] == 'i' ? "i32" : "u32");
    if (o.constant) {
        uint32_t out[8];
        stex_profile_id cid = o.profile ? ids[0] : STEX_PROFILE_SPEC;
        if (eval_const(cid, fn, in, out)) {
            printf("const    error: %s\n", stex_last_error());
            return CLI_OK;
        }
        printf("const   ");
        for (unsigned i = 0; i < info->out_words; i++) {
            printf("%s0x%08x (", i ? ", " : " ", out[i]);
            print_value(stdout, out_types[i], out[i]);
            printf(")");
        }
        printf("\n");
        return CLI_OK;
    }
    uint32_t outs[STEX_PROFILE_COUNT][8];
    for (int k = 0; k < nprof; k++)
        stex_math_eval(stex_profile_get(ids[k]), fn, in, outs[k]);
    print_rows(info->expr, info->sig, ids, nprof, outs, info->out_words, out_types, o.json);
    return CLI_OK;
}
