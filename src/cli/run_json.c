/* stex run --json: one object, whatever ran (run_json.h). */
#include "cli/run_json.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_kernel.h"
#include "cli/race_output.h"

json_t *cli_json_text(const char *s)
{
    json_t *j = json_string(s);
    if (j)
        return j;
    /* not UTF-8 (a file name): stray bytes as U+FFFD */
    size_t n = strlen(s);
    char *t = malloc(3 * n + 1), *o = t;
    if (!t)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x80)
            *o++ = (char)*p;
        else
            o += sprintf(o, "\xef\xbf\xbd");
    }
    *o = '\0';
    j = json_string(t);
    free(t);
    return j;
}

static json_t *text_or_null(const char *s) { return s ? cli_json_text(s) : json_null(); }

/* Milliseconds to the microsecond, as the text prints them. */
static json_t *ms_json(double ms) { return json_real(isfinite(ms) ? round(ms * 1000) / 1000 : 0); }

void cli_run_report_print(cli_run_report *r)
{
    json_t *j = json_object();
    json_object_set_new(j, "command", json_string("run"));
    json_object_set_new(j, "subject", json_string(r->subject));
    json_object_set_new(j, "kernel", text_or_null(r->kernel));
    json_object_set_new(j, "file", text_or_null(r->file));
    json_object_set_new(j, "size", r->width ? json_pack("[I, I, I]", (json_int_t)r->width,
                                                        (json_int_t)r->height, (json_int_t)1)
                                            : json_null());
    json_object_set_new(j, "format", r->format == STEX_FORMAT_UNDEFINED
                                         ? json_null() : json_string(stex_format_name(r->format)));
    json_object_set_new(j, "profile", json_string(stex_profile_name(r->profile)));
    json_object_set_new(j, "schedule", json_string(stex_schedule_name(r->schedule)));
    json_object_set_new(j, "seed", cli_json_seed(r->seed));
    json_object_set_new(j, "threads", json_integer(cli_threads(r->threads)));
    json_object_set_new(j, "visibility", json_string(stex_visibility_name(r->vis)));
    json_object_set_new(j, "oob_load", json_string(stex_oob_load_name(r->oob)));
    json_object_set_new(j, "iterations", r->iterations ? json_integer(r->iterations)
                                                       : json_null());
    json_object_set_new(j, "executor", json_string(r->executor));
    json_object_set_new(j, "dispatches", json_integer((json_int_t)r->dispatches));
    json_object_set_new(j, "dispatch_ms", ms_json(r->dispatch_ms));
    json_t *steps = json_array();
    for (size_t i = 0; i < r->nsteps; i++)
        json_array_append_new(steps, ms_json(r->step_ms[i]));
    json_object_set_new(j, "step_ms", steps);
    json_t *races = r->rd ? cli_races_json(r->rd, r->races_list) : json_null();
    json_object_set_new(j, "races", races ? races : json_null());
    json_object_set_new(j, "files", r->files ? r->files : json_array());
    json_object_set_new(j, "input_dump", text_or_null(r->input_dump));
    json_object_set_new(j, "replay", r->replay ? r->replay : json_null());
    json_object_set_new(j, "allowed", r->allowed ? r->allowed : json_null());
    r->files = r->replay = r->allowed = NULL;
    char *text = json_dumps(j, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    json_decref(j);
    if (text)
        puts(text);
    else
        puts("null"); /* out of memory */
    free(text);
}

json_t *cli_json_seed(uint64_t seed)
{
    if (seed <= INT64_MAX)
        return json_integer((json_int_t)seed);
    char s[24];
    snprintf(s, sizeof s, "%" PRIu64, seed);
    return json_string(s);
}
