/* What `stex run ... --golden allowed` says of the bounds it wrote: per
 * output, how many values are bounded, how wide the bounds are (the median
 * and the largest width, in ULP or LSB), and how many are unconstrained and
 * why - as a text line or as the run JSON's "allowed" member. */
#include "cli/allowed_summary.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_json.h"
#include "common/error.h"

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

stex_status cli_bounds_summarize(const stex_bounds *b, cli_bounds_summary *s)
{
    memset(s, 0, sizeof *s);
    const stex_format_info *fi = stex_format_get(b->format);
    s->unit = fi->type == STEX_CHANNEL_FLOAT || fi->type == STEX_CHANNEL_UFLOAT ? "ULP" : "LSB";
    s->values = (uint64_t)b->width * b->height * b->depth * b->channels;
    uint64_t *w = malloc((s->values ? s->values : 1) * sizeof *w);
    if (!w)
        return stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
    uint64_t n = 0;
    for (uint64_t i = 0; i < s->values; i++) {
        const stex_bound *v = &b->v[i];
        if (v->flags & STEX_BOUND_ANY) {
            s->unconstrained++;
            uint32_t k = 0;
            while (k < s->nreasons && s->reason[k].reason != v->reason)
                k++;
            if (k == s->nreasons && k < STEX_BOUNDS_REASONS_LISTED)
                s->reason[s->nreasons++] = (stex_reason_count){v->reason, 0};
            if (k < STEX_BOUNDS_REASONS_LISTED)
                s->reason[k].values++;
            continue;
        }
        if (v->flags & STEX_BOUND_NAN)
            s->nan_allowed++;
        if (v->flags & STEX_BOUND_ONLY_NAN)
            continue;
        w[n++] = stex_bound_width(b->format, (unsigned)(i % b->channels), v);
    }
    qsort(w, n, sizeof *w, by_value);
    s->bounded = n;
    s->median_width = n ? w[n / 2] : 0;
    s->max_width = n ? w[n - 1] : 0;
    s->points = 0;
    for (uint64_t i = 0; i < n && w[i] == 0; i++)
        s->points++;
    free(w);
    for (uint32_t i = 1; i < s->nreasons; i++) /* most first */
        for (uint32_t j = i; j > 0 && s->reason[j].values > s->reason[j - 1].values; j--) {
            stex_reason_count t = s->reason[j];
            s->reason[j] = s->reason[j - 1];
            s->reason[j - 1] = t;
        }
    return STEX_OK;
}

static const char *reason_of(const stex_bounds *b, uint32_t k)
{
    return k && k <= b->nreasons ? b->reasons[k - 1] : NULL;
}

void cli_bounds_print(FILE *f, const char *name, const stex_bounds *b,
                      const cli_bounds_summary *s)
{
    fprintf(f, "allowed: %s: %" PRIu64 " values, %" PRIu64 " exact, median width %" PRIu64
               " %s, widest %" PRIu64 " %s", name, s->values, s->points, s->median_width,
            s->unit, s->max_width, s->unit);
    if (s->nan_allowed)
        fprintf(f, ", %" PRIu64 " may be NaN", s->nan_allowed);
    if (!s->unconstrained) {
        fputs("\n", f);
        return;
    }
    fprintf(f, "; %" PRIu64 " unconstrained:\n", s->unconstrained);
    for (uint32_t i = 0; i < s->nreasons; i++) {
        const char *r = reason_of(b, s->reason[i].reason);
        fprintf(f, "  %10" PRIu64 "  %s\n", s->reason[i].values, r ? r : "no reason recorded");
    }
}

json_t *cli_bounds_json(const char *name, const stex_bounds *b, const cli_bounds_summary *s)
{
    json_t *reasons = json_array();
    for (uint32_t i = 0; i < s->nreasons; i++) {
        const char *r = reason_of(b, s->reason[i].reason);
        json_array_append_new(reasons, json_pack("{s:o, s:I}", "reason",
                                                 r ? cli_json_text(r) : json_null(), "values",
                                                 (json_int_t)s->reason[i].values));
    }
    return json_pack("{s:o, s:I, s:I, s:I, s:I, s:s, s:I, s:I, s:I, s:o}", "output",
                     cli_json_text(name), "values", (json_int_t)s->values, "bounded",
                     (json_int_t)s->bounded, "exact", (json_int_t)s->points, "nan_allowed",
                     (json_int_t)s->nan_allowed, "unit", s->unit, "median_width",
                     (json_int_t)s->median_width, "max_width", (json_int_t)s->max_width,
                     "unconstrained", (json_int_t)s->unconstrained, "by_reason", reasons);
}
