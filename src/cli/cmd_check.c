/* stex check: parse and check WGSL files, print their diagnostics. */
#include "cli/cli_kernel.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "check";

static const char SYNOPSIS[] =
    "usage: stex check [--quiet] FILE.wgsl...\n"
    "\n"
    "Parses and checks WGSL modules as stex's front end does before it runs\n"
    "them: syntax, types, scopes, builtins, uniformity (barriers only in\n"
    "uniform control flow), @workgroup_size and the resources' declarations.\n"
    "Each error is printed on stderr as\n"
    "  FILE:LINE:COL: error: MESSAGE [RULE]\n"
    "followed by the source line and a caret under the column.  FILE '-' reads\n"
    "standard input.\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex check blur.wgsl\n"
    "  stex run decaer --print-wgsl | stex check -\n"
    "\n"
    "exit status: 0 every file is valid, 1 some file has errors, 2 usage error\n"
    "or an unreadable file.\n";

typedef struct check_opts {
    bool quiet;
} check_opts;

static const cli_option check_options[] = {
    {.name = "quiet", .short_name = 'q', .kind = CLI_FLAG, .at = offsetof(check_opts, quiet),
     .help = "print nothing; the exit status alone tells"},
    {0}};

const cli_spec cli_check_spec = {"check", SYNOPSIS, EPILOGUE, check_options};

int cli_read_wgsl(const char *cmd, const char *path, char **out)
{
    *out = NULL;
    bool std_in = !strcmp(path, "-");
    FILE *f = std_in ? stdin : fopen(path, "rb");
    if (!f)
        return cli_usage(cmd, "cannot open '%s': %s", path, strerror(errno));
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    while (s) {
        if (n + 1 >= cap) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
        }
        size_t got = fread(s + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    bool bad = !s || ferror(f);
    if (!std_in)
        fclose(f);
    if (bad) {
        free(s);
        return cli_usage(cmd, "cannot read '%s'%s", path, s ? "" : ": out of memory");
    }
    s[n] = '\0';
    if (memchr(s, '\0', n)) {
        free(s);
        return cli_usage(cmd, "'%s' holds a NUL byte: WGSL source is text", path);
    }
    *out = s;
    return CLI_OK;
}

/* The name diagnostics give a file: "<stdin>" for '-'. */
static const char *std_name(const char *path) { return strcmp(path, "-") ? path : "<stdin>"; }

int cli_load_wgsl(const char *cmd, const char *path, bool quiet, stex_wgsl_module **out)
{
    char *src;
    *out = NULL;
    int rc = cli_read_wgsl(cmd, path, &src);
    if (rc)
        return rc;
    stex_wgsl_module *m = NULL;
    stex_status st = stex_wgsl_module_create(src, std_name(path), &m);
    free(src);
    if (st == STEX_VALIDATION_ERROR) {
        if (!quiet)
            fputs(stex_wgsl_module_diagnostics(m), stderr);
        size_t n = stex_wgsl_module_error_count(m);
        if (!quiet)
            fprintf(stderr, "%s: %zu error%s\n", std_name(path), n, n == 1 ? "" : "s");
        stex_wgsl_module_destroy(m);
        return CLI_REFUSED;
    }
    if (st) {
        stex_wgsl_module_destroy(m);
        return cli_fail(cmd, st);
    }
    *out = m;
    return CLI_OK;
}

int cli_check(int argc, char **argv)
{
    check_opts o = {0};
    cli_args a;
    int rc = cli_parse(&cli_check_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (a.count == 0)
        return cli_usage(CMD, "missing FILE.wgsl");
    int worst = CLI_OK;
    for (int i = 0; i < a.count; i++) {
        stex_wgsl_module *m;
        rc = cli_load_wgsl(CMD, a.value[i], o.quiet, &m);
        stex_wgsl_module_destroy(m);
        if (rc > worst)
            worst = rc;
    }
    return worst;
}
