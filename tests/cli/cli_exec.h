/* Running the built stex binary (STEX_BIN) from a test: exit code, stdout
 * and stderr captured through files in a scratch directory. */
#ifndef STEX_TESTS_CLI_EXEC_H
#define STEX_TESTS_CLI_EXEC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../io/io_test.h"

typedef struct cli_result {
    int code;
    char *out, *err;
} cli_result;

static char cli_dir[256];

static inline const char *stex_bin(void)
{
    const char *b = getenv("STEX_BIN");
    if (!b) {
        fprintf(stderr, "STEX_BIN is not set (run through meson test)\n");
        exit(1);
    }
    return b;
}

/* A file's text; "" when unreadable (a command that wrote nothing). */
static inline char *cli_slurp_text(const char *path)
{
    char *s = slurp_text(path);
    return s ? s : calloc(1, 1);
}

/* How often `needle` occurs in hay (overlapping occurrences too). */
static inline int cli_count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The path of `name` inside the test's scratch folder. */
static inline void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", cli_dir, name);
}

/* Whether two files hold the same bytes (false if either is unreadable). */
static inline bool same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *pa = slurp(a, &na), *pb = slurp(b, &nb);
    bool same = pa && pb && na == nb && !memcmp(pa, pb, na);
    free(pa);
    free(pb);
    return same;
}

/* Runs `stex ARGS` (a shell-quoted argument string). */
static inline cli_result run_stex(const char *fmt, ...)
{
    char args[4096], cmd[8192], out[512], err[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(out, sizeof out, "%s/.stdout", cli_dir);
    snprintf(err, sizeof err, "%s/.stderr", cli_dir);
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s' </dev/null", stex_bin(), args, out, err);
    int st = system(cmd);
    cli_result r = {WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), cli_slurp_text(out),
                    cli_slurp_text(err)};
    remove(out);
    remove(err);
    return r;
}

/* `stex ARGS` with stdout and stderr on a pseudo-terminal (and env_name set
 * to env_value when given): what it wrote, or NULL when no terminal could
 * be had; *code its exit status. */
static inline char *cli_on_terminal(const char *const *args, const char *env_name,
                                    const char *env_value, int *code)
{
    const char *argv[16] = {stex_bin()};
    for (int i = 0; args[i] && i < 14; i++)
        argv[i + 1] = args[i];
    int fd;
    fflush(NULL);
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    if (pid < 0)
        return NULL;
    if (pid == 0) {
        if (env_name)
            setenv(env_name, env_value, 1);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (ssize_t got; text && (got = read(fd, text + n, cap - n - 1)) > 0;)
        if ((n += (size_t)got) == cap - 1)
            break;
    if (text)
        text[n] = '\0';
    close(fd);
    int ws;
    waitpid(pid, &ws, 0);
    *code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    return text;
}

static inline void cli_free(cli_result *r)
{
    free(r->out);
    free(r->err);
}

static inline int cli_has_text(const char *s, const char *t) { return !t || strstr(s, t); }

#define CLI_EXPECT(r, want_code, text_in_err)                                                    \
    do {                                                                                         \
        if ((r).code != (want_code) || !cli_has_text((r).err, (text_in_err)))                   \
            fail_msg("exit %d (expected %d), stderr: %s\nexpected stderr to contain: %s",        \
                     (r).code, (want_code), (r).err, cli_has_text("", (text_in_err)) ? "" : "(see test)"); \
    } while (0)

#endif
