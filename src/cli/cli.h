/* The stex command: shared helpers and the list of subcommands.
 *
 * Exit status everywhere: 0 success, 1 a refused/invalid case or a
 * comparison mismatch, 2 a usage error (bad argument, unreadable input). */
#ifndef STEX_CLI_H
#define STEX_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/options.h"

enum { CLI_OK = 0, CLI_REFUSED = 1, CLI_USAGE = 2 };
/* --fail-on-race (stex run --race-check, stex race): the work was done and
 * the race detector found a race. */
enum { CLI_RACES = 3 };
/* A command whose work was stopped (interrupt.c): 124 after --timeout (as
 * timeout(1)), 128 + the signal's number after SIGINT or SIGTERM. */
enum { CLI_TIMEOUT = 124, CLI_INTERRUPTED = 130, CLI_TERMINATED = 143 };

typedef struct cli_command {
    const cli_spec *spec; /* its name, options and --help text */
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
} cli_command;

/* One line per subcommand, defined in commands.c; ends with a NULL spec. */
extern const cli_command cli_commands[];

/* Prints "stex CMD: <message>" and a hint to `stex CMD --help` on stderr;
 * returns CLI_USAGE so callers can `return cli_usage(...)`. */
int cli_usage(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Strict number parsing: the whole string must be a decimal number in
 * range - digits only, no sign, no "0x", no leading zero (which C reads as
 * octal).  On failure they print a usage error naming `what` and return
 * false. */
bool cli_parse_u32(const char *cmd, const char *what, const char *s, uint32_t *out);
bool cli_parse_u64(const char *cmd, const char *what, const char *s, uint64_t *out);
/* As cli_parse_u32, and the value must lie in [lo, hi]. */
bool cli_parse_u32_range(const char *cmd, const char *what, const char *s, uint32_t lo,
                         uint32_t hi, uint32_t *out);
/* "W", "WxH" or "WxHxL" (missing parts = 1); every part >= 1, decimal. */
bool cli_parse_size(const char *cmd, const char *what, const char *s, uint32_t out[3]);

/* The process's cancel flag (stex/cancel.h), which every dispatch of a
 * command that runs work checks (interrupt.c). */
struct stex_cancel *cli_cancel(void);
/* Such a command's first call: SIGINT and SIGTERM raise the flag. */
void cli_cancel_install(void);
/* --timeout SECONDS (CLI_TIMEOUT_OPTION): the flag's deadline, from now. */
bool cli_parse_timeout(const char *cmd, const char *value, void *field);
/* main's last word: rc, or the timeout's or the signal's status with a
 * line on stderr ("stex: interrupted (SIGINT)") when the flag was raised. */
int cli_cancel_exit(int rc);
/* The --timeout entry of an option table; the deadline is the process's,
 * so the option has no field (at = 0 is never written). */
#define CLI_TIMEOUT_OPTION                                                                    \
    {.name = "timeout", .kind = CLI_CUSTOM, .parse = cli_parse_timeout, .at = 0,               \
     .metavar = "SECONDS",                                                                    \
     .help = "stop the work after SECONDS (a decimal number) with\n"                           \
             "exit status 124 and no output written (default: no\n"                          \
             "limit); Ctrl-C (SIGINT) or SIGTERM stop it at once\n"                           \
             "(exit status 130, 143), outputs untouched"}

/* Writes `s` as a JSON string literal (quotes and escapes). */
void cli_json_string(FILE *f, const char *s);

/* Subcommands (one file each), and their option tables. */
extern const cli_spec cli_formats_spec, cli_store_spec, cli_validate_spec, cli_layout_spec,
    cli_run_spec, cli_race_spec, cli_compare_spec, cli_demo_spec, cli_eval_spec,
    cli_check_spec, cli_reflect_spec;
int cli_formats(int argc, char **argv);
int cli_store(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_layout(int argc, char **argv);
int cli_run(int argc, char **argv);
int cli_race(int argc, char **argv);
int cli_compare(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_eval(int argc, char **argv);
int cli_check(int argc, char **argv);
int cli_reflect(int argc, char **argv);

#endif
