/* JSON paths and the errors that name them. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "io/io_internal.h"
#include "run/run_internal.h"

static bool is_identifier(const char *s)
{
    if (!*s || isdigit((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
            return false;
    return true;
}

void run_path_key(char out[RUN_PATH_MAX], const char *parent, const char *key)
{
    if (is_identifier(key))
        snprintf(out, RUN_PATH_MAX, "%s.%s", parent, key);
    else
        snprintf(out, RUN_PATH_MAX, "%s[\"%s\"]", parent, key);
}

void run_path_index(char out[RUN_PATH_MAX], const char *parent, size_t i)
{
    snprintf(out, RUN_PATH_MAX, "%s[%zu]", parent, i);
}

stex_status run_fail(const stex_run *r, stex_status st, const char *path, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return stex_fail(st, "%s: %s: %s", r->name, path, msg);
}

stex_status run_wrap(const stex_run *r, stex_status st, const char *path)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", stex_last_error());
    return stex_fail(st, "%s: %s: %s", r->name, path, msg);
}

stex_status run_read_file(const stex_run *r, const char *path, uint8_t **bytes, size_t *size,
                          size_t max)
{
    stex_status st = r->opt.read_file ? r->opt.read_file(r->opt.read_file_user, path, bytes, size)
                                      : io_read_file(path, bytes, size, max);
    if (!st)
        run_note_input(r, path, *bytes, *size);
    return st;
}

void run_note_input(const stex_run *r, const char *path, const uint8_t *bytes, size_t n)
{
    run_inputs *in = r->inputs;
    if (!in)
        return;
    for (size_t i = 0; i < in->n; i++)
        if (!strcmp(in->path[i], path))
            return;
    char **p = realloc(in->path, (in->n + 1) * sizeof *p);
    if (p)
        in->path = p;
    char(*sha)[65] = p ? realloc(in->sha, (in->n + 1) * sizeof *sha) : NULL;
    if (sha)
        in->sha = sha;
    if (!p || !sha || !(in->path[in->n] = strdup(path)))
        return; /* out of memory: the record lacks it, the run goes on */
    io_sha256_of(bytes, n, in->sha[in->n++]);
}
