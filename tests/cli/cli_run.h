/* Runs the built stex command (STEX_BIN) and captures its exit status,
 * stdout and stderr - for the CLI tests. */
#ifndef STEX_TEST_CLI_RUN_H
#define STEX_TEST_CLI_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct cli_result {
    int status;    /* exit status, or -1 if it did not exit normally */
    char *out, *err;
} cli_result;

static char *cli_slurp(FILE *f)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    rewind(f);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
        n += r;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
        }
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* argv without the program name, NULL-terminated. */
static cli_result cli_run(const char *const *args)
{
    cli_result r = {-1, NULL, NULL};
    const char *bin = getenv("STEX_BIN");
    FILE *out = tmpfile(), *err = tmpfile();
    if (!bin || !out || !err)
        return r;
    const char *argv[64] = {bin};
    size_t n = 1;
    while (args[n - 1] && n < 63) {
        argv[n] = args[n - 1];
        n++;
    }
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fileno(out), 1);
        dup2(fileno(err), 2);
        execv(bin, (char *const *)argv);
        _exit(127);
    }
    int ws = 0;
    if (pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws))
        r.status = WEXITSTATUS(ws);
    r.out = cli_slurp(out);
    r.err = cli_slurp(err);
    fclose(out);
    fclose(err);
    return r;
}

static void cli_free(cli_result *r)
{
    free(r->out);
    free(r->err);
}

#endif
