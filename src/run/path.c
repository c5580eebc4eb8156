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
    if (r->opt.read_file)
        return r->opt.read_file(r->opt.read_file_user, path, bytes, size);
    return io_read_file(path, bytes, size, max);
}
