/* The front end's diagnostics: recording and formatting. */
#include "wgsl/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wg_error(wg_diags *d, wg_loc loc, const char *rule, const char *fmt, ...)
{
    if (d->quiet || d->count > WG_MAX_DIAGS)
        return;
    char msg[256];
    if (d->count == WG_MAX_DIAGS) { /* one last word, then nothing: a flood stays linear */
        snprintf(msg, sizeof msg, "more than %u errors; the rest are not reported",
                 (unsigned)WG_MAX_DIAGS);
        rule = "limits";
    } else {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    }
    for (size_t i = 0; i < d->count; i++)
        if (d->items[i].loc.line == loc.line && d->items[i].loc.col == loc.col &&
            !strcmp(d->items[i].message, msg))
            return;
    if (d->count == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        wg_diag *n = realloc(d->items, cap * sizeof *n);
        if (!n)
            return; /* out of memory: the count stays, so the module is still invalid */
        d->items = n;
        d->cap = cap;
    }
    wg_diag *g = &d->items[d->count++];
    g->loc = loc;
    snprintf(g->rule, sizeof g->rule, "%s", rule);
    snprintf(g->message, sizeof g->message, "%s", msg);
}

static int by_position(const void *a, const void *b)
{
    const wg_diag *x = a, *y = b;
    if (x->loc.line != y->loc.line)
        return x->loc.line < y->loc.line ? -1 : 1;
    if (x->loc.col != y->loc.col)
        return x->loc.col < y->loc.col ? -1 : 1;
    return 0;
}

/* The text of source line `line` (1-based): start and length.  *from and
 * *from_line are where the last search stopped (the diagnostics come in
 * order, so one walk over the source serves them all). */
static const char *source_line(const char **from, uint32_t *from_line, uint32_t line,
                               size_t *len)
{
    const char *p = *from;
    uint32_t l = *from_line;
    for (; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return NULL;
    *from = p;
    *from_line = l;
    *len = strcspn(p, "\n");
    return p;
}

char *wg_diags_text(const wg_diags *d)
{
    wg_diag *sorted = malloc((d->count ? d->count : 1) * sizeof *sorted);
    if (!sorted)
        return NULL;
    if (d->count)
        memcpy(sorted, d->items, d->count * sizeof *sorted);
    qsort(sorted, d->count, sizeof *sorted, by_position);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) {
        free(sorted);
        return NULL;
    }
    const char *from = d->source;
    uint32_t from_line = 1;
    for (size_t i = 0; i < d->count; i++) {
        const wg_diag *g = &sorted[i];
        fprintf(f, "%s:%u:%u: error: %s [%s]\n", d->filename, g->loc.line, g->loc.col,
                g->message, g->rule);
        size_t len;
        const char *line = d->source && g->loc.line ? source_line(&from, &from_line, g->loc.line, &len)
                                                    : NULL;
        if (line) {
            fprintf(f, "  %.*s\n  ", (int)len, line);
            for (uint32_t c = 1; c < g->loc.col && c <= len; c++)
                fputc(line[c - 1] == '\t' ? '\t' : ' ', f);
            fputs("^\n", f);
        }
    }
    fclose(f);
    free(sorted);
    return buf;
}

void wg_diags_free(wg_diags *d)
{
    free(d->items);
    d->items = NULL;
    d->count = d->cap = 0;
}
