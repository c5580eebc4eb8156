/* stex eval: one WGSL expression over arguments a, b, c, d, as each profile
 * computes it at run time (the math layer, include/stex/math.h).
 *
 * Until a WGSL front end lands, EXPR is matched against the expressions of
 * stex/math.def (the '# expr' lines of the conformance files), ignoring
 * spaces; --type picks among overloads of the same text ("a + b" for f32,
 * i32 and u32; f32 first). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "stex/math.h"

static const char USAGE[] =
    "usage: stex eval [--profile P|all] [--type SIG] [--json] 'EXPR' VALUES...\n"
    "       stex eval --bits [--profile P] [--type SIG] 'EXPR' < cases\n"
    "\n"
    "Evaluates a WGSL expression over arguments a, b, c, d as the profile's\n"
    "device computes it at run time, and prints each result as bits and value.\n"
    "\n"
    "options:\n"
    "  --profile P   spec, lavapipe, nvidia or all (default all; --bits: spec)\n"
    "  --type SIG    the overload, as the conformance files' type column:\n"
    "                f32,f32->f32, i32,u32->i32, vec4<f32>->u32 ...\n"
    "  --bits        read one case per line from stdin (argument bit patterns,\n"
    "                8 hex digits, comma-separated) and print one line per case\n"
    "                (result bit patterns, comma-separated)\n"
    "  --json        print one JSON object\n"
    "  --const       const-expression evaluation (not modelled yet: refused)\n"
    "\n"
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

/* the scalar type of each word of a type list such as "vec2<f32>,i32" */
static int word_types(const char *list, char *out, int max)
{
    int n = 0;
    while (*list && n < max) {
        int count = 1;
        if (!strncmp(list, "vec", 3)) {
            count = list[3] - '0';
            list += 5; /* "vecN<" */
        }
        char t = !strncmp(list, "bool", 4) ? 'b' : list[0]; /* f, i, u, b */
        for (int k = 0; k < count && n < max; k++)
            out[n++] = t;
        while (*list && *list != ',')
            list++;
        if (*list == ',')
            list++;
    }
    return n;
}

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
        strspn(s + 2, "0123456789abcdefABCDEF") == len - 2 && len <= 10) {
        *out = (uint32_t)strtoul(s, &end, 16);
        return true;
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
    if (type == 'f') {
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

static int run_bits(stex_profile_id id, stex_math_fn fn)
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
        stex_math_eval(p, fn, in, out);
        for (unsigned i = 0; i < info->out_words; i++)
            printf("%s%08x", i ? "," : "", out[i]);
        printf("\n");
    }
    return CLI_OK;
}

int cli_eval(int argc, char **argv)
{
    const char *profile = NULL, *type = NULL, *expr = NULL;
    bool bits = false, json = false;
    int first_value = argc;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            return CLI_OK;
        } else if (!strcmp(a, "--list")) {
            for (int k = 0; k < STEX_MATH_FN_COUNT; k++) {
                const stex_math_fn_info *f = stex_math_fn_get((stex_math_fn)k);
                printf("%-20s %-24s %s\n", f->op, f->sig, f->expr);
            }
            return CLI_OK;
        } else if (!strcmp(a, "--profile") && i + 1 < argc) {
            profile = argv[++i];
        } else if (!strcmp(a, "--type") && i + 1 < argc) {
            type = argv[++i];
        } else if (!strcmp(a, "--bits")) {
            bits = true;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--const")) {
            return cli_usage("eval", "--const: const-expression evaluation is not modelled yet "
                             "(the math layer evaluates runtime values, source=storage)");
        } else if (a[0] == '-' && a[1] == '-') {
            return cli_usage("eval", "unknown or incomplete option '%s'", a);
        } else if (!expr) {
            expr = a;
        } else {
            first_value = i;
            break;
        }
    }
    if (!expr)
        return cli_usage("eval", "an expression is needed, e.g. 'a * b'");

    /* the overload: same text (spaces ignored) and, if given, same type */
    char want[256], have[256];
    strip_spaces(expr, want, sizeof want);
    stex_math_fn fn = STEX_MATH_FN_COUNT;
    bool text_known = false;
    for (int k = 0; k < STEX_MATH_FN_COUNT && fn == STEX_MATH_FN_COUNT; k++) {
        const stex_math_fn_info *f = stex_math_fn_get((stex_math_fn)k);
        strip_spaces(f->expr, have, sizeof have);
        if (strcmp(have, want))
            continue;
        text_known = true;
        if (!type || !strcmp(type, f->sig))
            fn = (stex_math_fn)k;
    }
    if (!text_known)
        return cli_usage("eval", "'%s' is not an expression stex evaluates yet (only those of "
                         "`stex eval --list`, until a WGSL front end lands)", expr);
    if (fn == STEX_MATH_FN_COUNT)
        return cli_usage("eval", "'%s' has no overload of type %s (`stex eval --list`)", expr, type);
    const stex_math_fn_info *info = stex_math_fn_get(fn);

    stex_profile_id ids[STEX_PROFILE_COUNT];
    int nprof = 0;
    if (!profile || !strcmp(profile, "all")) {
        if (bits && profile)
            return cli_usage("eval", "--bits prints one profile's results: --profile spec, "
                             "lavapipe or nvidia");
        for (int k = 0; k < STEX_PROFILE_COUNT; k++)
            ids[nprof++] = (stex_profile_id)k;
    } else if (stex_profile_from_name(profile, &ids[0])) {
        nprof = 1;
    } else {
        return cli_usage("eval", "unknown profile '%s' (spec, lavapipe, nvidia, all)", profile);
    }

    if (bits) {
        if (first_value < argc)
            return cli_usage("eval", "--bits reads its cases from stdin, not the command line");
        return run_bits(nprof == 1 ? ids[0] : STEX_PROFILE_SPEC, fn);
    }

    const char *arrow = strstr(info->sig, "->");
    char arg_list[64];
    snprintf(arg_list, sizeof arg_list, "%.*s", (int)(arrow - info->sig), info->sig);
    char in_types[8], out_types[8];
    word_types(arg_list, in_types, 8);
    word_types(arrow + 2, out_types, 8);
    unsigned nvalues = (unsigned)(argc - first_value);
    if (nvalues != info->in_words)
        return cli_usage("eval", "%s (%s) takes %u argument value(s), got %u", info->expr,
                         info->sig, info->in_words, nvalues);
    uint32_t in[8];
    for (unsigned i = 0; i < nvalues; i++)
        if (!parse_value(argv[first_value + (int)i], in_types[i], &in[i]))
            return cli_usage("eval", "argument %u: '%s' is not a %s literal or a 0x bit pattern",
                             i + 1, argv[first_value + (int)i],
                             in_types[i] == 'f' ? "f32" : in_types[i] == 'i' ? "i32" : "u32");

    if (json) {
        printf("{\"expr\": ");
        cli_json_string(stdout, info->expr);
        printf(", \"type\": ");
        cli_json_string(stdout, info->sig);
        printf(", \"results\": [");
    }
    for (int k = 0; k < nprof; k++) {
        uint32_t out[8];
        stex_math_eval(stex_profile_get(ids[k]), fn, in, out);
        if (json) {
            printf("%s{\"profile\": \"%s\", \"bits\": [", k ? ", " : "", stex_profile_name(ids[k]));
            for (unsigned i = 0; i < info->out_words; i++)
                printf("%s\"%08x\"", i ? ", " : "", out[i]);
            printf("], \"values\": [");
            for (unsigned i = 0; i < info->out_words; i++) {
                printf("%s\"", i ? ", " : "");
                print_value(stdout, out_types[i], out[i]);
                printf("\"");
            }
            printf("]}");
            continue;
        }
        printf("%-9s", stex_profile_name(ids[k]));
        for (unsigned i = 0; i < info->out_words; i++) {
            printf("%s0x%08x (", i ? ", " : " ", out[i]);
            print_value(stdout, out_types[i], out[i]);
            printf(")");
        }
        printf("\n");
    }
    if (json)
        printf("]}\n");
    return CLI_OK;
}
