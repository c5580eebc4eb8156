/* The front end's diagnostics: recording and formatting. */
#include "wgsl/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void wg_vreport(wg_diags *d, wg_severity sev, wg_loc loc, const char *rule, const char *fmt,
                va_list ap)
{
    if (d->quiet || d->count > WG_MAX_DIAGS || d->n > 2 * WG_MAX_DIAGS)
        return;
    /* WGSL 8.x: 'false && e' does not evaluate e, so e's values cannot be
     * wrong (its types still can) */
    if (d->unevaluated && sev == WG_ERROR &&
        (!strcmp(rule, "const-eval") || !strcmp(rule, "conversion-rank") ||
         (!strcmp(rule, "arithmetic") && strstr(fmt, "const-expression"))))
        return;
    char msg[256];
    if (sev == WG_ERROR && d->count == WG_MAX_DIAGS) { /* one last word, then nothing */
        snprintf(msg, sizeof msg, "more than %u errors; the rest are not reported",
                 (unsigned)WG_MAX_DIAGS);
        rule = "limits";
    } else {
        vsnprintf(msg, sizeof msg, fmt, ap);
    }
    for (size_t i = 0; i < d->n; i++)
        if (d->items[i].loc.line == loc.line && d->items[i].loc.col == loc.col &&
            d->items[i].severity == sev && !strcmp(d->items[i].message, msg))
            return;
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        wg_diag *n = realloc(d->items, cap * sizeof *n);
        if (!n) { /* out of memory: an error still counts, so the module is still invalid */
            d->count += sev == WG_ERROR;
            return;
        }
        d->items = n;
        d->cap = cap;
    }
    wg_diag *g = &d->items[d->n++];
    d->count += sev == WG_ERROR;
    g->loc = loc;
    g->severity = sev;
    snprintf(g->rule, sizeof g->rule, "%s", rule);
    snprintf(g->message, sizeof g->message, "%s", msg);
}

void wg_report(wg_diags *d, wg_severity sev, wg_loc loc, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wg_vreport(d, sev, loc, rule, fmt, ap);
    va_end(ap);
}

void wg_error(wg_diags *d, wg_loc loc, const char *rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wg_vreport(d, WG_ERROR, loc, rule, fmt, ap);
    va_end(ap);
}

const char *wg_severity_name(wg_severity sev)
{
    return sev == WG_ERROR ? "error" : sev == WG_WARNING ? "warning" : "info";
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

void wg_diags_sort(wg_diags *d)
{
    /* insertion sort: stable, and the diagnostics come nearly in order */
    for (size_t i = 1; i < d->n; i++) {
        wg_diag g = d->items[i];
        size_t j = i;
        for (; j > 0 && by_position(&d->items[j - 1], &g) > 0; j--)
            d->items[j] = d->items[j - 1];
        d->items[j] = g;
    }
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
    wg_diag *sorted = malloc((d->n ? d->n : 1) * sizeof *sorted);
    if (!sorted)
        return NULL;
    if (d->n)
        memcpy(sorted, d->items, d->n * sizeof *sorted);
    qsort(sorted, d->n, sizeof *sorted, by_position);
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f) {
        free(sorted);
        return NULL;
    }
    const char *from = d->source;
    uint32_t from_line = 1;
    for (size_t i = 0; i < d->n; i++) {
        const wg_diag *g = &sorted[i];
        fprintf(f, "%s:%u:%u: %s: %s [%s]\n", d->filename, g->loc.line, g->loc.col,
                wg_severity_name(g->severity), g->message, g->rule);
        size_t len;
        const char *line = d->source && g->loc.line ? source_line(&from, &from_line, g->loc.line, &len)
                                                    : NULL;
        if (line) {
            fprintf(f, "  %.*s\n  ", (int)len, line);
            /* one blank per code point before the column (columns count
             * code points), a tab kept as a tab */
            uint32_t c = 1;
            for (size_t k = 0; k < len && c < g->loc.col; k++)
                if (((unsigned char)line[k] & 0xc0u) != 0x80u) {
                    fputc(line[k] == '\t' ? '\t' : ' ', f);
                    c++;
                }
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
    d->count = d->n = d->cap = 0;
}
