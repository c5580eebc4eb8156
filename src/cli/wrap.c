/* Output on a terminal within its width (wrap.h).  A line longer than the
 * width is broken at its last space before it, and what follows is
 * indented four columns past the line's own indent, so a message or a race
 * line reads as one item.  Only terminals: a pipe or a file gets each line
 * whole, for grep and for scripts.  stdio's buffer sits in front (a custom
 * stream, fopencookie), so no printf in the commands has to know. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fopencookie */
#endif
#include "cli/wrap.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

enum { WRAP_MAX = 80, WRAP_HANG = 4 };

typedef struct wrap_out {
    int fd;
    int width;
    char *line;       /* the line begun, not yet written */
    size_t len, cap;
} wrap_out;

static wrap_out outs[2]; /* stdout, stderr */

static void put(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

/* A UTF-8 continuation byte takes no column of its own. */
static bool continuation(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

/* Writes one line (no newline in it) within w->width columns. */
static void emit_line(wrap_out *w, const char *s, size_t n)
{
    if (!n)
        return;
    if (memchr(s, '\033', n)) { /* terminal controls: as they are */
        put(w->fd, s, n);
        return;
    }
    size_t indent = strspn(s, " ");
    size_t hang = indent + WRAP_HANG;
    if (hang > (size_t)w->width / 2)
        hang = (size_t)w->width / 2;
    size_t room = (size_t)w->width;
    for (;;) {
        /* i: the first byte past column `room`; cut: the last space before */
        size_t col = 0, i = 0, cut = 0;
        for (; i < n; i++) {
            if (continuation(s[i]))
                continue;
            if (col == room)
                break;
            if (s[i] == ' ' && i > indent)
                cut = i;
            col++;
        }
        if (i >= n || (s[i] != ' ' && !cut)) { /* fits, or one word past the room */
            put(w->fd, s, n);
            return;
        }
        if (s[i] == ' ')
            cut = i; /* the break falls just at the edge */
        put(w->fd, s, cut);
        put(w->fd, "\n", 1);
        while (cut < n && s[cut] == ' ')
            cut++;
        s += cut;
        n -= cut;
        for (size_t k = 0; k < hang; k++)
            put(w->fd, " ", 1);
        room = (size_t)w->width - hang;
        indent = 0;
    }
}

static ssize_t wrap_write(void *cookie, const char *buf, size_t size)
{
    wrap_out *w = cookie;
    for (size_t i = 0; i < size; i++) {
        char c = buf[i];
        if (c == '\n' || c == '\r') {
            emit_line(w, w->line, w->len);
            put(w->fd, &c, 1);
            w->len = 0;
            continue;
        }
        if (w->len == w->cap) {
            size_t cap = w->cap ? 2 * w->cap : 256;
            char *p = realloc(w->line, cap);
            if (!p) { /* no room to hold it: write what there is as it is */
                put(w->fd, w->line, w->len);
                w->len = 0;
                put(w->fd, &c, 1);
                continue;
            }
            w->line = p;
            w->cap = cap;
        }
        w->line[w->len++] = c;
    }
    /* a line begun with a terminal control (the progress line) shows now */
    if (w->len && memchr(w->line, '\033', w->len)) {
        put(w->fd, w->line, w->len);
        w->len = 0;
    }
    return (ssize_t)size;
}

/* What is left of a line without its newline, at exit. */
static void wrap_finish(void)
{
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 2; k++)
        if (outs[k].len) {
            emit_line(&outs[k], outs[k].line, outs[k].len);
            outs[k].len = 0;
        }
}

static int terminal_width(int fd)
{
    const char *env = getenv("STEX_COLUMNS"); /* for tests: a pty has 0 columns */
    int cols = env ? atoi(env) : 0;
    struct winsize ws;
    if (cols <= 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0)
        cols = ws.ws_col;
    return cols <= 0 || cols > WRAP_MAX ? WRAP_MAX : (cols < 20 ? 20 : cols);
}

static FILE *wrapped(FILE *f, int k, int fd)
{
    if (!isatty(fd))
        return f;
    outs[k] = (wrap_out){.fd = fd, .width = terminal_width(fd)};
    FILE *g = fopencookie(&outs[k], "w", (cookie_io_functions_t){.write = wrap_write});
    if (!g)
        return f;
    setvbuf(g, NULL, _IOLBF, 0);
    fflush(f);
    return g;
}

void cli_wrap_terminals(void)
{
    stdout = wrapped(stdout, 0, STDOUT_FILENO);
    stderr = wrapped(stderr, 1, STDERR_FILENO);
    atexit(wrap_finish);
}
