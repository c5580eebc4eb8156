/* The option tables: getopt_long's arrays, parsing into the options struct,
 * and the --help text, all from one cli_option table per subcommand. */
#include "cli/options.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/suggest.h"
#include "stex/format.h"
#include "stex/kernels.h"

int cli_getopt_table(const cli_spec *spec, struct option *longopts, char *optstring)
{
    int n = 0;
    char *p = optstring;
    *p++ = '+'; /* stop at a value: cli_parse moves past values itself (see there) */
    *p++ = ':'; /* a missing argument returns ':', so the message can say so */
    *p++ = 'h';
    for (const cli_option *o = spec->options; o->name; o++, n++) {
        assert(n < CLI_MAX_OPTIONS);
        int has_arg = o->kind == CLI_FLAG ? no_argument : required_argument;
        longopts[n] = (struct option){o->name, has_arg, NULL, o->short_name ? o->short_name : 256 + n};
        if (o->short_name) {
            *p++ = o->short_name;
            if (has_arg)
                *p++ = ':';
        }
    }
    longopts[n] = (struct option){"help", no_argument, NULL, 'h'};
    longopts[n + 1] = (struct option){NULL, 0, NULL, 0};
    *p = '\0';
    return n;
}

/* "-0.5", "-1", "-inf": a token that reads as a number is a value (stex
 * store takes negative ones), never a cluster of short options. */
static bool is_number(const char *t)
{
    char *end;
    strtod(t, &end);
    return end != t && *end == '\0';
}

/* Stores one option's value into its field of the options struct. */
static bool apply(const char *cmd, const cli_option *o, const char *value, char *field)
{
    char what[64];
    snprintf(what, sizeof what, "--%s", o->name);
    switch (o->kind) {
    case CLI_FLAG:
        *(bool *)field = true;
        return true;
    case CLI_TEXT:
        *(const char **)field = value;
        return true;
    case CLI_U32:
        return cli_parse_u32_range(cmd, what, value, o->min, o->max ? o->max : UINT32_MAX,
                                   (uint32_t *)field);
    case CLI_U64:
        return cli_parse_u64(cmd, what, value, (uint64_t *)field);
    case CLI_SIZE:
        return cli_parse_size(cmd, what, value, (uint32_t *)field);
    case CLI_CUSTOM:
        return o->parse(cmd, value, field);
    }
    return false;
}

/* The table index of what getopt_long returned, or -1. */
static int option_index(const cli_spec *spec, int c)
{
    int i = 0;
    for (const cli_option *o = spec->options; o->name; o++, i++)
        if (c == (o->short_name ? o->short_name : 256 + i))
            return i;
    return -1;
}

static int add_value(const cli_spec *spec, cli_args *args, const char *value)
{
    if (args->count == CLI_MAX_VALUES)
        return cli_usage(spec->name, "too many arguments (at most %d): '%s'", CLI_MAX_VALUES,
                         value);
    args->value[args->count++] = value;
    return CLI_OK;
}

const char *cli_did_you_mean(char *buf, size_t size, const char *word,
                             const char *const *names, size_t n)
{
    const char *near = stex_suggest(word, names, n);
    snprintf(buf, size, near ? " (did you mean '%s'?)" : "", near);
    return buf;
}

const char *cli_near_format(char *buf, size_t size, const char *word)
{
    stex_suggestion s;
    stex_suggest_init(&s, word);
    for (int i = STEX_FORMAT_UNDEFINED + 1; i < STEX_FORMAT_COUNT; i++)
        stex_suggest_offer(&s, stex_format_name((stex_format)i));
    const char *near = stex_suggest_best(&s);
    snprintf(buf, size, near ? " (did you mean '%s'?)" : "", near);
    return buf;
}

const char *cli_near_kernel(char *buf, size_t size, const char *word)
{
    stex_suggestion s;
    stex_suggest_init(&s, word);
    for (size_t i = 0; i < stex_kernel_count(); i++)
        stex_suggest_offer(&s, stex_kernel_at(i)->name);
    const char *near = stex_suggest_best(&s);
    snprintf(buf, size, near ? " (did you mean '%s'?)" : "", near);
    return buf;
}

/* " (did you mean '--NAME'?)" for an unknown long option "--nmae[=v]". */
static const char *near_option(const cli_spec *spec, const char *token)
{
    static char buf[96];
    buf[0] = '\0';
    if (strncmp(token, "--", 2))
        return buf;
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(token + 2, "="), token + 2);
    stex_suggestion s;
    stex_suggest_init(&s, word);
    for (const cli_option *o = spec->options; o->name; o++)
        stex_suggest_offer(&s, o->name);
    stex_suggest_offer(&s, "help");
    const char *near = stex_suggest_best(&s);
    if (near)
        snprintf(buf, sizeof buf, " (did you mean '--%s'?)", near);
    return buf;
}

/* One option token (getopt_long moves optind past it and its argument). */
static int one_option(const cli_spec *spec, int argc, char **argv, void *opts, cli_args *args,
                      const struct option *longopts, const char *optstring)
{
    int c = getopt_long(argc, argv, optstring, longopts, NULL);
    const char *token = argv[optind - 1];
    if (c == 'h') {
        cli_print_help(spec, stdout);
        args->help = true;
        return CLI_OK;
    }
    if (c == ':')
        return cli_usage(spec->name, "option '%s' needs a value", token);
    int i = option_index(spec, c);
    if (c == '?' || i < 0) {
        /* getopt sets optopt to a known option's code when it refused a
         * value given to an option that takes none ("--json=1") */
        int known = c == '?' ? option_index(spec, optopt) : -1;
        if (known >= 0 && spec->options[known].kind == CLI_FLAG)
            return cli_usage(spec->name, "option '--%s' takes no value, got '%s'",
                             spec->options[known].name, token);
        if (optopt > 0 && optopt < 256)
            return cli_usage(spec->name, "unknown option '-%c'", optopt);
        return cli_usage(spec->name, "unknown option '%s'%s", token, near_option(spec, token));
    }
    const cli_option *o = &spec->options[i];
    args->given |= (uint64_t)1 << i;
    return apply(spec->name, o, optarg, (char *)opts + o->at) ? CLI_OK : CLI_USAGE;
}

int cli_parse(const cli_spec *spec, int argc, char **argv, void *opts, cli_args *args)
{
    struct option longopts[CLI_MAX_OPTIONS + 2];
    char optstring[2 * CLI_MAX_OPTIONS + 4];
    memset(args, 0, sizeof *args);
    cli_getopt_table(spec, longopts, optstring);
    opterr = 0; /* our messages name the option and the command */
    /* optind = 0 restarts getopt; a call on an empty list makes it forget
     * an earlier parse's state (the program parses once, tests many times) */
    optind = 0;
    getopt_long(1, argv, optstring, longopts, NULL);
    /* getopt_long runs with "+" (stop at the first value): values are taken
     * here, one at a time, so that options may follow them and so that a
     * negative number is a value.  "--" makes everything after it a value. */
    while (optind < argc && !args->help) {
        const char *t = argv[optind];
        int rc;
        if (!strcmp(t, "--")) {
            for (int i = optind + 1; i < argc; i++)
                if ((rc = add_value(spec, args, argv[i])))
                    return rc;
            break;
        }
        if (t[0] != '-' || t[1] == '\0' || is_number(t)) {
            rc = add_value(spec, args, t);
            optind++;
        } else {
            rc = one_option(spec, argc, argv, opts, args, longopts, optstring);
        }
        if (rc)
            return rc;
    }
    return CLI_OK;
}

bool cli_given(const cli_spec *spec, const cli_args *args, const char *name)
{
    int i = 0;
    for (const cli_option *o = spec->options; o->name; o++, i++)
        if (!strcmp(o->name, name))
            return args->given >> i & 1;
    assert(!"cli_given: no such option in the table");
    return false;
}

/* "  -h, --help" or "      --size WxH": the left column of one entry. */
static int option_left(char *buf, size_t n, char short_name, const char *name, const char *metavar)
{
    char s[8] = "    ";
    if (short_name)
        snprintf(s, sizeof s, "-%c, ", short_name);
    return snprintf(buf, n, "  %s--%s%s%s", s, name, metavar ? " " : "", metavar ? metavar : "");
}

enum { HELP_WIDTH = 80 }; /* a terminal's columns */

/* The help starts at `col`; a longer left column puts it on the next line;
 * each '\n' in the help starts a line at `col`, and a line that would run
 * past HELP_WIDTH is broken at its last space before it. */
static void print_entry(FILE *f, int col, char short_name, const char *name, const char *metavar,
                        const char *help)
{
    char left[96];
    int n = option_left(left, sizeof left, short_name, name, metavar);
    fputs(left, f);
    if (n >= col)
        fprintf(f, "\n%*s", col, "");
    else
        fprintf(f, "%*s", col - n, "");
    const int room = HELP_WIDTH - col;
    for (const char *p = help; *p;) {
        size_t len = strcspn(p, "\n");
        while ((int)len > room) {
            int cut = room;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (cut == 0) /* one word longer than the room: as it is */
                break;
            fprintf(f, "%.*s\n%*s", cut, p, col, "");
            p += cut + 1;
            len -= (size_t)cut + 1;
        }
        fprintf(f, "%.*s", (int)len, p);
        p += len;
        if (*p == '\n') {
            fprintf(f, "\n%*s", col, "");
            p++;
        }
    }
    fputc('\n', f);
}

void cli_print_help(const cli_spec *spec, FILE *f)
{
    enum { MAX_COL = 30 };
    char left[96];
    int col = 0;
    for (const cli_option *o = spec->options; o->name; o++) {
        int n = option_left(left, sizeof left, o->short_name, o->name, o->metavar) + 2;
        if (n > col && n <= MAX_COL)
            col = n;
    }
    if (col < 16)
        col = 16;
    fputs(spec->synopsis, f);
    fputs("\noptions:\n", f);
    for (const cli_option *o = spec->options; o->name; o++)
        print_entry(f, col, o->short_name, o->name, o->kind == CLI_FLAG ? NULL : o->metavar,
                    o->help);
    print_entry(f, col, 'h', "help", NULL, "print this help and exit");
    if (spec->epilogue) {
        fputc('\n', f);
        fputs(spec->epilogue, f);
    }
}
