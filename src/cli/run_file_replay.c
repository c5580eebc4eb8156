/* `stex run --replay X.bin.json` of a golden that a run file or a .wgsl
 * made: the sidecar's "run" record names the run file (or the .wgsl's
 * command line), the options, and every file the run read with its
 * SHA-256.  The replay refuses when one of those files changed or is
 * gone - it would not run what made the golden - then runs it again and
 * compares its output entry with X.bin byte for byte, writing nothing. */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_run.h"
#include "cli/cmd_run_file.h"
#include "cli/progress.h"
#include "cli/run_json.h"

static const char *text_of(json_t *rec, const char *key)
{
    json_t *v = json_object_get(rec, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A file the golden was made from: there, and with the recorded bytes. */
static int check_file(const char *side, const char *what, const char *path, const char *want)
{
    char have[65];
    if (!path || !want || strlen(want) != 64)
        return run_replay_refuse(side, "the run record's %s must have a path and a SHA-256", what);
    if (run_file_sha256(path, have))
        return run_replay_refuse(side, "%s '%s', which the golden was made from, cannot be read (%s); run "
                            "the replay from the folder the golden was made in", what, path,
                      stex_last_error());
    if (strcmp(have, want))
        return run_replay_refuse(side, "%s '%s' changed since the golden was made (the sidecar records "
                            "SHA-256 %.12s..., the file's is %.12s...): a replay would not run "
                            "what made the golden; make the golden again", what, path, want, have);
    return CLI_OK;
}

/* The options of the record, into o (allow: room for its folders). */
static int read_options(const char *side, json_t *rec, cli_run_file_opts *o,
                        cli_allow_paths *allow)
{
    const char *profile = text_of(rec, "profile"), *schedule = text_of(rec, "schedule"),
               *vis = text_of(rec, "visibility"), *oob = text_of(rec, "oob_load");
    json_t *seed = json_object_get(rec, "seed"), *threads = json_object_get(rec, "threads"),
           *sg = json_object_get(rec, "subgroup_size"), *steps = json_object_get(rec, "max_steps");
    if (!profile || !stex_profile_from_name(profile, &o->profile) || !schedule ||
        !stex_schedule_from_name(schedule, &o->schedule) || !vis ||
        !stex_visibility_from_name(vis, &o->vis) || !oob || !stex_oob_load_from_name(oob, &o->oob))
        return run_replay_refuse(side, "the run record's profile, schedule, visibility and oob_load must "
                            "be names this stex knows (stex run --help)");
    if (json_is_integer(seed) && json_integer_value(seed) >= 0)
        o->seed = (uint64_t)json_integer_value(seed);
    else if (!json_is_string(seed) || !cli_parse_u64("run", "the run record's \"seed\"",
                                                     json_string_value(seed), &o->seed))
        return run_replay_refuse(side, "the run record's \"seed\" must be a non-negative integer");
    if (!json_is_integer(threads) || json_integer_value(threads) < 1 ||
        json_integer_value(threads) > 1024 || !json_is_integer(sg) ||
        json_integer_value(sg) < 1 || json_integer_value(sg) > 64 || !json_is_integer(steps) ||
        json_integer_value(steps) < 0)
        return run_replay_refuse(side, "the run record's threads (1 to 1024), subgroup_size (1 to 64) and "
                            "max_steps (0 or more) must be integers");
    o->threads = (uint32_t)json_integer_value(threads);
    o->subgroup = (uint32_t)json_integer_value(sg);
    o->max_steps = (uint64_t)json_integer_value(steps);
    o->record = json_is_true(json_object_get(rec, "record_allowed"));
    json_t *dirs = json_object_get(rec, "allow_paths"), *d;
    size_t i;
    json_array_foreach(dirs, i, d) {
        if (!json_is_string(d) || allow->n == CLI_MAX_ALLOW_PATHS)
            return run_replay_refuse(side, "the run record's \"allow_paths\" must list at most %d folders",
                          CLI_MAX_ALLOW_PATHS);
        allow->dir[allow->n++] = json_string_value(d);
    }
    o->allow = allow;
    return CLI_OK;
}

/* The run, parsed: the run file, or the .wgsl's run file made again. */
static int load(const char *side, json_t *rec, const cli_run_file_opts *o, stex_run **r)
{
    const char *run_file = text_of(rec, "run_file"), *wgsl = text_of(rec, "wgsl_file");
    stex_run_options ro = cli_run_file_options(o);
    ro.output_dir = NULL; /* nothing is written */
    if (run_file) {
        int rc = check_file(side, "run file", run_file, text_of(rec, "run_file_sha256"));
        stex_status st = rc ? STEX_OK : stex_run_load(run_file, &ro, r);
        return rc ? rc : st ? cli_fail("run", st) : CLI_OK;
    }
    json_t *size = json_object_get(rec, "size"), *consts = json_object_get(rec, "constants");
    json_t *it = json_object_get(rec, "iterations");
    const char *in = text_of(rec, "in");
    if (!json_is_array(size) || json_array_size(size) != 2 || !json_is_integer(it) ||
        json_integer_value(it) < 1 || json_integer_value(it) > 100000 ||
        json_object_size(consts) > RUN_MAX_CONSTANTS)
        return run_replay_refuse(side, "the run record of %s must give size [w, h], iterations (1 to "
                            "100000) and at most %d constants", wgsl, RUN_MAX_CONSTANTS);
    uint32_t wh[3] = {(uint32_t)json_integer_value(json_array_get(size, 0)),
                      (uint32_t)json_integer_value(json_array_get(size, 1)), 1};
    stex_wgsl_override c[RUN_MAX_CONSTANTS];
    uint32_t nc = 0;
    const char *key;
    json_t *v;
    json_object_foreach(consts, key, v)
        c[nc++] = (stex_wgsl_override){.name = key, .value = json_number_value(v)};
    char *json;
    int rc = cli_wgsl_run_json_in("run", wgsl, in, wh, (uint32_t)json_integer_value(it), NULL,
                                  0, c, nc, &json);
    if (rc)
        return rc;
    ro.allow_paths = cli_allow_any_path.dir;
    ro.allow_path_count = 1;
    stex_status st = stex_run_parse(json, wgsl, ".", &ro, r);
    free(json);
    return st ? cli_fail("run", st) : CLI_OK;
}

/* Runs r and compares output entry `index` with the golden. */
static stex_status run_and_compare(stex_run *r, const cli_run_file_opts *o, size_t index,
                                   const char *golden, stex_compare_result *res, bool *same,
                                   uint64_t *dispatches, double *ms)
{
    stex_adapter *ad = NULL;
    stex_device *dev = NULL;
    stex_image mine = {0}, theirs = {0};
    stex_adapter_desc desc = stex_adapter_desc_for_profile(o->profile);
    stex_dispatch_options d = {.schedule = o->schedule, .seed = o->seed,
                               .threads = (int)o->threads, .visibility = o->vis,
                               .oob_load = o->oob, .profile = stex_profile_get(o->profile),
                               .cancel = cli_cancel()};
    stex_status st;
    if ((st = stex_adapter_create(&desc, &ad)) || (st = stex_run_request_device(r, ad, &dev)))
        goto done;
    cli_progress *line = cli_progress_start(!o->quiet);
    double t0 = cli_now_ms();
    st = stex_run_execute(r, dev, &d);
    *ms = cli_now_ms() - t0;
    *dispatches = stex_run_dispatch_count(r);
    cli_progress_stop(line);
    if (st || (st = stex_run_output_image(r, index, &mine)) ||
        (st = stex_read_bin(golden, &theirs, NULL)))
        goto done;
    /* (any other status than a shape mismatch is the verdict, in res) */
    if (stex_compare(&theirs, &mine, (stex_tolerance){STEX_TOLERANCE_EXACT, 0}, NULL, res) ==
        STEX_INVALID_ARGUMENT)
        st = stex_fail(STEX_INVALID_ARGUMENT, "--replay: %s holds %ux%ux%u %s texels, the "
                       "replay made %ux%ux%u %s", golden, theirs.width, theirs.height,
                       theirs.depth, stex_format_name(theirs.format), mine.width, mine.height,
                       mine.depth, stex_format_name(mine.format));
    *same = !st && theirs.size == mine.size && !memcmp(theirs.data, mine.data, mine.size);
done:
    stex_image_free(&mine);
    stex_image_free(&theirs);
    stex_run_destroy(r);
    stex_device_destroy(dev);
    stex_adapter_destroy(ad);
    return st;
}

int cli_replay_file(const char *side, json_t *rec, bool json, bool quiet)
{
    const char *made_by = text_of(rec, "run_file") ? text_of(rec, "run_file")
                                                   : text_of(rec, "wgsl_file");
    json_t *output = json_object_get(rec, "output"), *inputs = json_object_get(rec, "inputs");
    if (!made_by || !json_is_integer(output) || json_integer_value(output) < 0 ||
        !json_is_array(inputs))
        return run_replay_refuse(side, "the run record must name its run_file (or wgsl_file), the "
                            "\"output\" entry and the \"inputs\" read");
    cli_allow_paths allow = {0};
    cli_run_file_opts o = {.quiet = quiet};
    int rc = read_options(side, rec, &o, &allow);
    size_t i;
    json_t *f;
    json_array_foreach(inputs, i, f) /* every file it read, as it was */
        if (!rc)
            rc = check_file(side, "input", text_of(f, "path"), text_of(f, "sha256"));
    stex_run *r = NULL;
    if (rc || (rc = load(side, rec, &o, &r)))
        return rc;
    size_t index = (size_t)json_integer_value(output);
    if (index >= stex_run_output_entry_count(r)) {
        stex_run_destroy(r);
        return run_replay_refuse(side, "%s has no outputs entry %zu", made_by, index);
    }
    char *golden = strndup(side, strlen(side) - 5);
    stex_compare_result res = {0};
    bool same = false;
    uint64_t dispatches = 0;
    double ms = 0;
    stex_status st = golden ? run_and_compare(r, &o, index, golden, &res, &same, &dispatches, &ms)
                            : (stex_run_destroy(r), stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
    if (st) {
        free(golden);
        return cli_fail("run", st);
    }
    char why[512] = "";
    if (o.threads != 1) /* one thread replays a racy shader's schedule exactly */
        snprintf(why, sizeof why, "the golden was made on %u threads; a shader whose "
                 "invocations race may end otherwise on every run (`stex run %s "
                 "--race-check`)", o.threads, made_by);
    if (json) { /* the one schema of stex run --json (run_json.h) */
        json_t *replay = json_pack("{s:o, s:b, s:I, s:I, s:b}", "golden", cli_json_text(golden),
                                   "identical", same, "texels", (json_int_t)res.texels,
                                   "texels_differing", (json_int_t)res.differing,
                                   "deterministic", !*why);
        json_object_set_new(replay, "why_it_may_differ", *why ? cli_json_text(why) : json_null());
        cli_run_report j = {.subject = cli_is_wgsl_file(made_by) ? "wgsl" : "run_file",
                            .file = made_by, .profile = o.profile, .schedule = o.schedule,
                            .seed = o.seed, .threads = o.threads, .vis = o.vis, .oob = o.oob,
                            .executor = "wgsl", .dispatches = dispatches, .dispatch_ms = ms,
                            .replay = replay};
        cli_run_report_print(&j);
    } else if (same) {
        printf("replay of %s (%s, outputs[%zu]): byte-identical (%" PRIu64 " texels)\n", golden,
               made_by, index, res.texels);
    } else {
        printf("replay of %s (%s, outputs[%zu]): DIFFERS in %" PRIu64 " of %" PRIu64
               " texels\n", golden, made_by, index, res.differing, res.texels);
        if (*why)
            printf("note: %s\n", why);
    }
    free(golden);
    return same ? CLI_OK : CLI_REFUSED;
}
