/* stex compare's report (compare_report.c): the verdict, the summary block
 * (differing texels, per-channel largest differences, a histogram of
 * distances, what the tolerance accepted) and the first mismatches channel
 * by channel, as text or as one JSON object (docs/file-formats.md). */
#ifndef STEX_CLI_COMPARE_REPORT_H
#define STEX_CLI_COMPARE_REPORT_H

#include <stdbool.h>

#include "stex/stex.h"

typedef struct compare_report {
    const char *tolerance;     /* as given: "exact", "ulp:1", "allowed" */
    const char *actual_path;
    const char *diff;          /* the picture written, or NULL */
    stex_format actual_format; /* the readback's, as read */
    bool swizzled;             /* its B and R bytes swapped before comparing */
    bool swizzle_asked;        /* by --swizzle bgra (else for its format) */
} compare_report;

void compare_print_text(const compare_report *rep, const stex_image *golden,
                        const stex_compare_result *r, bool equal);
void compare_print_json(const compare_report *rep, const stex_image *golden,
                        const stex_compare_result *r, bool equal);
/* Against an allowed golden's bounds (compare_bounds.c). */
void compare_bounds_print_text(const compare_report *rep, const stex_bounds *b,
                               const stex_bounds_result *r);
void compare_bounds_print_json(const compare_report *rep, const stex_bounds *b,
                               const stex_bounds_result *r);

#endif
