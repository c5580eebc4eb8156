/* The summary `stex run ... --golden allowed` gives of the bounds it wrote
 * (allowed_summary.c): text, and the run JSON's "allowed" entries. */
#ifndef STEX_CLI_ALLOWED_SUMMARY_H
#define STEX_CLI_ALLOWED_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "stex/stex.h"

struct json_t; /* jansson's */

typedef struct cli_bounds_summary {
    uint64_t values;          /* channel values */
    uint64_t bounded;         /* with numeric bounds (not unconstrained, not only NaN) */
    uint64_t points;          /* of those, one value: exact on every device */
    uint64_t median_width, max_width;   /* of the bounded, in unit */
    const char *unit;         /* "ULP" or "LSB" */
    uint64_t nan_allowed;     /* values that may be NaN */
    uint64_t unconstrained;
    uint32_t nreasons;        /* the first reasons, most values first */
    stex_reason_count reason[STEX_BOUNDS_REASONS_LISTED];
} cli_bounds_summary;

stex_status cli_bounds_summarize(const stex_bounds *b, cli_bounds_summary *s);
/* "allowed: NAME: N values, K exact, median width ..." and the reasons. */
void cli_bounds_print(FILE *f, const char *name, const stex_bounds *b,
                      const cli_bounds_summary *s);
/* {"output": NAME, "values", "bounded", "exact", "nan_allowed", "unit",
 * "median_width", "max_width", "unconstrained", "by_reason"}. */
struct json_t *cli_bounds_json(const char *name, const stex_bounds *b,
                               const cli_bounds_summary *s);

#endif
