/* stex check: parse and check WGSL files, print their diagnostics. */
#include "cli/cli_kernel.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "check";

static const char SYNOPSIS[] =
    "usage: stex check [--quiet] [--json] FILE.wgsl...\n"
    "\n"
    "Parses and checks WGSL modules as stex's front end does before it runs\n"
    "them: syntax, types, scopes, builtins, uniformity (barriers only in\n"
    "uniform control flow; derivatives, textureSample among them, only in a\n"
    "fragment shader's uniform control flow: derivative_uniformity, which\n"
    "diagnostic filters may turn off or into a warning), @workgroup_size and\n"
    "the resources' declarations.  Each diagnostic is printed on stderr as\n"
    "  FILE:LINE:COL: SEVERITY: MESSAGE [RULE]\n"
    "followed by the source line and a caret under the column (columns count\n"
    "characters: Unicode code points).  SEVERITY is error, warning (the module\n"
    "is still valid: unreachable code, an unknown rule in a filter) or info.\n"
    "FILE '-' reads standard input.\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex check blur.wgsl\n"
    "  stex run decaer --print-wgsl | stex check -\n"
    "\n"
    "  stex check --json shader.wgsl\n"
    "\n"
    "exit status: 0 every file is valid (warnings or not), 1 some file has\n"
    "errors, 2 usage error or an unreadable file.\n";

typedef struct check_opts {
    bool quiet, json;
} check_opts;

static const cli_option check_options[] = {
    {.name = "quiet", .short_name = 'q', .kind = CLI_FLAG, .at = offsetof(check_opts, quiet),
     .help = "print nothing; the exit status alone tells"},
    {.name = "json", .kind = CLI_FLAG, .at = offsetof(check_opts, json),
     .help = "print the diagnostics as one JSON document on stdout\n"
             "(docs/file-formats.md, \"stex check --json\")"},
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

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static const char *const SEVERITY[] = {"error", "warning", "info"};

/* One file's entry of --json: its diagnostics, or why it could not be read. */
static int check_json(const char *path, bool first)
{
    char *src;
    int rc = cli_read_wgsl(CMD, path, &src);
    printf("%s\n    {\"file\": ", first ? "" : ",");
    json_string(stdout, std_name(path));
    if (rc) {
        printf(", \"valid\": false, \"unreadable\": true, \"diagnostics\": []}");
        return rc;
    }
    stex_wgsl_module *m = NULL;
    stex_status st = stex_wgsl_module_create(src, std_name(path), &m);
    free(src);
    if (st && st != STEX_VALIDATION_ERROR) {
        stex_wgsl_module_destroy(m);
        printf(", \"valid\": false, \"unreadable\": true, \"diagnostics\": []}");
        return cli_fail(CMD, st);
    }
    size_t n = stex_wgsl_module_diagnostic_count(m), counts[3] = {0};
    printf(", \"valid\": %s, \"diagnostics\": [", st ? "false" : "true");
    for (size_t i = 0; i < n; i++) {
        stex_wgsl_diagnostic g;
        stex_wgsl_module_diagnostic_at(m, i, &g);
        counts[g.severity]++;
        printf("%s\n      {\"severity\": \"%s\", \"rule\": ", i ? "," : "",
               SEVERITY[g.severity]);
        json_string(stdout, g.rule);
        printf(", \"line\": %u, \"column\": %u, \"message\": ", g.line, g.column);
        json_string(stdout, g.message);
        fputc('}', stdout);
    }
    printf("%s], \"errors\": %zu, \"warnings\": %zu}", n ? "\n    " : "", counts[0],
           counts[1]);
    stex_wgsl_module_destroy(m);
    return st ? CLI_REFUSED : CLI_OK;
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
    if (o.json)
        fputs("{\"files\": [", stdout);
    for (int i = 0; i < a.count; i++) {
        stex_wgsl_module *m = NULL;
        if (o.json) {
            rc = check_json(a.value[i], i == 0);
        } else {
            rc = cli_load_wgsl(CMD, a.value[i], o.quiet, &m);
            /* a valid module's warnings (an invalid one's came with its errors) */
            if (!rc && !o.quiet && stex_wgsl_module_diagnostic_count(m)) {
                fputs(stex_wgsl_module_diagnostics(m), stderr);
                size_t counts[3] = {0};
                stex_wgsl_diagnostic g;
                for (size_t k = 0; stex_wgsl_module_diagnostic_at(m, k, &g); k++)
                    counts[g.severity]++;
                fprintf(stderr, "%s: 0 errors, %zu warning%s", std_name(a.value[i]), counts[1],
                        counts[1] == 1 ? "" : "s");
                if (counts[2])
                    fprintf(stderr, ", %zu info%s", counts[2], counts[2] == 1 ? "" : "s");
                fputc('\n', stderr);
            }
        }
        stex_wgsl_module_destroy(m);
        if (rc > worst)
            worst = rc;
    }
    if (o.json)
        printf("\n]}\n");
    return worst;
}
