/* stex: the command-line front end.  `stex help` lists the subcommands. */
#include "cli/cli.h"
#include "cli/wrap.h"
#include "stex/wgsl.h"

#include <errno.h>
#include <string.h>

#ifndef STEX_PROJECT_VERSION /* meson passes the project's version */
#error "build stex with meson: STEX_PROJECT_VERSION is not defined"
#endif

static void print_help(FILE *f)
{
    fputs("stex - a CPU reference emulator of WebGPU storage textures\n\n"
          "usage: stex COMMAND [OPTIONS] [VALUES]\n"
          "       stex help [COMMAND]\n"
          "       stex --version\n\ncommands:\n", f);
    for (const cli_command *c = cli_commands; c->spec; c++)
        fprintf(f, "  %-10s %s\n", c->spec->name, c->summary);
    fputs("\n`stex COMMAND --help` (or `stex help COMMAND`) shows each command's options\n"
          "and examples.  Options may come before or after the values; numbers are\n"
          "decimal.\n", f);
}

static const cli_command *find_command(const char *name)
{
    for (const cli_command *c = cli_commands; c->spec; c++)
        if (!strcmp(name, c->spec->name))
            return c;
    fprintf(stderr, "stex: unknown command '%s'; the commands are:", name);
    for (const cli_command *c = cli_commands; c->spec; c++)
        fprintf(stderr, " %s", c->spec->name);
    fputs("\n", stderr);
    return NULL;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return CLI_USAGE;
    }
    const char *first = argv[1];
    if (!strcmp(first, "--version")) {
        printf("stex %s\n", STEX_PROJECT_VERSION);
        return CLI_OK;
    }
    if (!strcmp(first, "help") || !strcmp(first, "--help") || !strcmp(first, "-h")) {
        if (argc == 2) {
            print_help(stdout);
            return CLI_OK;
        }
        if (argc > 3) {
            fprintf(stderr, "stex help: give one command, got %d arguments\n", argc - 2);
            return CLI_USAGE;
        }
        const cli_command *c = find_command(argv[2]);
        if (!c)
            return CLI_USAGE;
        cli_print_help(c->spec, stdout);
        return CLI_OK;
    }
    const cli_command *c = find_command(first);
    return c ? c->run(argc - 1, argv + 1) : CLI_USAGE;
}

/* The library's notices (stex_wgsl_set_notice): a line on stderr each. */
static void print_notice(void *user, const char *text)
{
    (void)user;
    fprintf(stderr, "stex: %s\n", text);
}

int main(int argc, char **argv)
{
    cli_wrap_terminals(); /* a terminal's lines within 80 columns */
    stex_wgsl_set_notice(print_notice, NULL);
    int rc = cli_cancel_exit(dispatch(argc, argv));
    /* Output lost to a full disk or a closed pipe must not look like
     * success: the buffered rest is written here, and any failed write of
     * the run left stdout's error flag set. */
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "stex%s%s: cannot write the standard output%s%s\n", argc > 1 ? " " : "",
                argc > 1 ? argv[1] : "", errno ? ": " : "", errno ? strerror(errno) : "");
        return CLI_USAGE;
    }
    return rc;
}
