/* The JSON that `stex run --json` prints, one object for every kind of run
 * (a kernel, a run file, a .wgsl): docs/file-formats.md ("stex run and
 * stex race --json"), docs/schema/stex-run.schema.json. */
#ifndef STEX_CLI_RUN_JSON_H
#define STEX_CLI_RUN_JSON_H

#include <stdint.h>
#include <stddef.h>

#include "stex/stex.h"

struct json_t; /* jansson's */

typedef struct cli_run_report {
    const char *subject;          /* "kernel", "run_file" or "wgsl" */
    const char *kernel;           /* a kernel's name (else NULL: null) */
    const char *file;             /* a run file's or .wgsl's path (else NULL: null) */
    uint32_t width, height;       /* the output texture (0: null, a run file) */
    stex_format format;           /* STEX_FORMAT_UNDEFINED: null */
    stex_profile_id profile;
    stex_schedule schedule;
    uint64_t seed;
    uint32_t threads;             /* as given (0: every core) */
    stex_visibility vis;
    stex_oob_load oob;
    uint32_t iterations;          /* 0: null (a run file says its own) */
    const char *executor;         /* "wgsl" or "c" */
    uint64_t dispatches;
    double dispatch_ms;
    const double *step_ms;
    size_t nsteps;
    const stex_race_detector *rd; /* NULL: no race check ("races": null) */
    uint64_t races_list;          /* --races */
    struct json_t *files;         /* taken over (NULL: none) */
    const char *input_dump;
    struct json_t *replay;        /* taken over (NULL: null) */
    struct json_t *allowed;       /* --golden allowed: the bounds' summaries (taken over;
                                   * NULL: null) */
} cli_run_report;

/* Prints r as one JSON object and a newline on stdout (consumes files and
 * replay). */
void cli_run_report_print(cli_run_report *r);

/* A seed for JSON: a number up to 2^63 - 1, above it its decimal digits as
 * a string (a JSON reader's 64-bit integer is signed). */
struct json_t *cli_json_seed(uint64_t seed);

/* A string for JSON: the text itself, or (not UTF-8) with each stray byte
 * as U+FFFD; never NULL but when out of memory. */
struct json_t *cli_json_text(const char *s);

#endif
