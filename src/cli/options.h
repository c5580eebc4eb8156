/* Each subcommand declares its options once, in a table of cli_option; this
 * module derives getopt_long's arrays and the `--help` text from it and
 * parses argv into the subcommand's options struct.
 *
 *     typedef struct my_opts { uint32_t runs; bool json; } my_opts;
 *     static const cli_option my_options[] = {
 *         {.name = "runs", .kind = CLI_U32, .at = offsetof(my_opts, runs),
 *          .metavar = "N", .help = "how many runs (default 20)", .min = 1, .max = 100},
 *         {.name = "json", .kind = CLI_FLAG, .at = offsetof(my_opts, json),
 *          .help = "print one JSON object"},
 *         {0}};
 *
 * Every subcommand also gets -h/--help.  Options and positional values may
 * come in any order; "--" ends the options; a token that reads as a number
 * ("-0.5", "-1", "-inf") is a positional value, not an option. */
#ifndef STEX_CLI_OPTIONS_H
#define STEX_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What an option's value is, and so how it is parsed into its field. */
typedef enum cli_kind {
    CLI_FLAG,   /* no value; sets a bool to true */
    CLI_TEXT,   /* const char *: the argument itself */
    CLI_U32,    /* uint32_t, decimal, within [min, max] (max 0 = no limit) */
    CLI_U64,    /* uint64_t, decimal */
    CLI_SIZE,   /* uint32_t[3]: W, WxH or WxHxL, every part >= 1 */
    CLI_CUSTOM, /* parse(cmd, value, field) */
} cli_kind;

/* Parses `value` into `field`; on failure prints a usage error naming the
 * option and returns false. */
typedef bool (*cli_parse_fn)(const char *cmd, const char *value, void *field);

typedef struct cli_option {
    const char *name;    /* long name, without the "--" */
    char short_name;     /* 0 = none */
    cli_kind kind;       /* CLI_FLAG takes no argument, every other kind one */
    size_t at;           /* offsetof() the field in the options struct */
    const char *metavar; /* the argument's placeholder in --help */
    const char *help;    /* what it does and its default; '\n' starts a line */
    uint32_t min, max;   /* CLI_U32 only */
    cli_parse_fn parse;  /* CLI_CUSTOM only */
} cli_option;

typedef struct cli_spec {
    const char *name;          /* the subcommand, as typed */
    const char *synopsis;      /* --help before the options: usage lines, description */
    const char *epilogue;      /* --help after them: examples, exit status */
    const cli_option *options; /* ends with an entry whose name is NULL */
} cli_spec;

enum { CLI_MAX_OPTIONS = 40, CLI_MAX_VALUES = 8 };

/* What argv held besides the options. */
typedef struct cli_args {
    int count;                         /* positional values, in order */
    const char *value[CLI_MAX_VALUES];
    uint64_t given;                    /* bit i set: options[i] appeared */
    bool help;                         /* --help was asked for (and printed) */
} cli_args;

/* Parses argv (argv[0] = the subcommand) into `opts`, whose fields keep
 * their defaults unless an option sets them.  Returns CLI_OK to go on (if
 * args->help is set, the help was printed and the command is done) or
 * CLI_USAGE after printing what was wrong. */
int cli_parse(const cli_spec *spec, int argc, char **argv, void *opts, cli_args *args);

/* Whether option `name` (long name) appeared. */
bool cli_given(const cli_spec *spec, const cli_args *args, const char *name);

/* The --help text: synopsis, "options:" with one entry per option, epilogue. */
void cli_print_help(const cli_spec *spec, FILE *f);

/* getopt_long's view of the table: `longopts` (CLI_MAX_OPTIONS + 2 entries,
 * ending in a zero entry) and `optstring` (at least 2 * CLI_MAX_OPTIONS + 4
 * bytes).  A long-only option's val is 256 + its index; one with a short
 * name returns that letter.  Returns the number of options in the table. */
int cli_getopt_table(const cli_spec *spec, struct option *longopts, char *optstring);

/* "did you mean": " (did you mean 'X'?)" for the known name nearest a
 * mistyped one, or "" when none is near (common/suggest.h's measure);
 * the text lives in buf.  The kinds of name the CLI looks up: */
const char *cli_did_you_mean(char *buf, size_t size, const char *word,
                             const char *const *names, size_t n);
const char *cli_near_format(char *buf, size_t size, const char *word);
const char *cli_near_kernel(char *buf, size_t size, const char *word);

#endif
