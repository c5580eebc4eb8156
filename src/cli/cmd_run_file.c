/* `stex run FILE.json`: loads the run file, executes it on a device with
 * the profile asked for, writes its outputs (all or none), and prints a
 * summary.  Its WGSL modules go through stex's own front end. */
#include "cli/cmd_run_file.h"

#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/allowed_summary.h"
#include "cli/cli_kernel.h"
#include "cli/cmd_run.h"
#include "cli/progress.h"
#include "cli/race_output.h"
#include "cli/run_json.h"
#include "io/io_internal.h"

const cli_allow_paths cli_allow_any_path = {1, {"/"}};

bool cli_parse_allow_path(const char *cmd, const char *value, void *field)
{
    cli_allow_paths *a = field;
    struct stat sb;
    if (a->n == CLI_MAX_ALLOW_PATHS) {
        cli_usage(cmd, "--allow-paths: at most %d folders", CLI_MAX_ALLOW_PATHS);
        return false;
    }
    if (!*value || stat(value, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        cli_usage(cmd, "--allow-paths: '%s' is not a folder", value);
        return false;
    }
    a->dir[a->n++] = value;
    return true;
}

stex_run_options cli_run_file_options(const cli_run_file_opts *o)
{
    return (stex_run_options){.subgroup_width = o->subgroup, .max_steps = o->max_steps,
                              .executor = o->executor,
                              .allow_paths = o->allow ? o->allow->dir : NULL,
                              .allow_path_count = o->allow ? o->allow->n : 0,
                              .output_dir = o->out_dir, .record_allowed = o->record,
                              .png_scale = o->scale, .record_inputs = true,
                              .allowed = o->allowed,
                              .progress = o->quiet ? NULL : cli_progress_note};
}

/* Beside cli_is_run_file, so that this file never calls cmd_run_wgsl.c. */
bool cli_is_wgsl_file(const char *arg)
{
    size_t n = arg ? strlen(arg) : 0;
    return n > 5 && !strcmp(arg + n - 5, ".wgsl");
}

bool cli_is_run_file(const char *arg)
{
    size_t n = arg ? strlen(arg) : 0;
    return n > 5 && !strcmp(arg + n - 5, ".json");
}

/* The options of `stex run` that belong to built-in kernels only. */
static int refuse_kernel_options(const cli_spec *spec, const cli_args *a)
{
    static const char *const kernel_only[] = {"size", "iterations", "variant", "in", "out",
                                              "print-wgsl", "print-run",
                                              "executor",
                                              "replay", "dump-input", NULL};
    for (const char *const *k = kernel_only; *k; k++)
        if (cli_given(spec, a, *k))
            return cli_usage("run", "--%s: not for a run file (it declares its own textures, "
                                    "steps and outputs)", *k);
    if (a->count > 1)
        return cli_usage("run", "unexpected argument '%s' after the run file", a->value[1]);
    return CLI_OK;
}

/* --golden allowed: each "outputs" entry's bounds, summarised (text on
 * stdout, or a JSON array); NULL when not asked or out of memory. */
static json_t *allowed_summaries(const cli_run_file_opts *o, stex_run *r)
{
    if (!o->allowed)
        return NULL;
    json_t *all = json_array();
    for (size_t i = 0; i < stex_run_output_entry_count(r); i++) {
        stex_bounds b;
        cli_bounds_summary s;
        bool is_buffer;
        const char *name = stex_run_output_resource(r, i, &is_buffer);
        if (stex_run_output_bounds(r, i, &b))
            continue; /* written already: only the summary is missing */
        if (!cli_bounds_summarize(&b, &s)) {
            if (o->json)
                json_array_append_new(all, cli_bounds_json(name, &b, &s));
            else
                cli_bounds_print(stdout, name, &b, &s);
        }
        stex_bounds_free(&b);
    }
    return all;
}

static void print_summary(const cli_run_file_opts *o, const char *path, stex_run *r,
                          stex_race_detector *rd, double ms)
{
    size_t n = stex_run_output_count(r);
    json_t *allowed = o->json ? allowed_summaries(o, r) : NULL;
    if (o->json) { /* the schema of every `stex run --json` (run_json.h) */
        json_t *files = json_array();
        for (size_t i = 0; i < n; i++) {
            const char *f = stex_run_output_path(r, i);
            json_array_append_new(files, cli_json_text(f));
            if (o->allowed && stex_file_kind_of(f) == STEX_FILE_BIN) { /* its bounds */
                char *b = malloc(strlen(f) + sizeof ".allowed");
                if (b)
                    json_array_append_new(files, cli_json_text(strcat(strcpy(b, f), ".allowed")));
                free(b);
            }
        }
        cli_run_report j = {.subject = cli_is_wgsl_file(path) ? "wgsl" : "run_file",
                            .file = path, .profile = o->profile, .schedule = o->schedule,
                            .seed = o->seed, .threads = o->threads, .vis = o->vis,
                            .oob = o->oob, .executor = "wgsl",
                            .dispatches = stex_run_dispatch_count(r), .dispatch_ms = ms,
                            .rd = rd, .races_list = o->races, .files = files,
                            .allowed = allowed};
        cli_run_report_print(&j);
        return;
    }
    printf("%s: %" PRIu64 " dispatch%s in %.3f ms (profile %s, schedule %s, seed %" PRIu64
           ", %d thread%s)\n", path, stex_run_dispatch_count(r),
           stex_run_dispatch_count(r) == 1 ? "" : "es", ms, stex_profile_name(o->profile),
           stex_schedule_name(o->schedule), o->seed, cli_threads(o->threads),
           cli_threads(o->threads) == 1 ? "" : "s");
    if (rd)
        cli_races_print(stdout, rd, o->races);
    for (size_t i = 0; i < n; i++)
        printf("wrote %s%s\n", stex_run_output_path(r, i),
               o->allowed && stex_file_kind_of(stex_run_output_path(r, i)) == STEX_FILE_BIN
                   ? " (+ .json sidecar, + .allowed)" : "");
    json_decref(allowed_summaries(o, r));
}

int cli_run_file(const cli_spec *spec, const cli_args *a, const cli_run_file_opts *o)
{
    int rc = refuse_kernel_options(spec, a);
    if (rc)
        return rc;
    const char *path = a->value[0];
    char sha[65];
    stex_run *r = NULL;
    stex_run_options ro = cli_run_file_options(o);
    stex_status st = stex_run_load(path, &ro, &r);
    if (!st) /* the record names the run file by its bytes too */
        st = run_file_sha256(path, sha);
    if (st) {
        stex_run_destroy(r);
        return cli_fail("run", st);
    }
    return cli_run_recorded(path, r, o, json_pack("{s:s, s:s}", "run_file", path,
                                                  "run_file_sha256", sha));
}

int cli_run_loaded(const char *path, stex_run *r, const cli_run_file_opts *o)
{
    return cli_run_recorded(path, r, o, NULL);
}

/* `name` with {profile} and {seed} filled in, as stex_run_execute fills
 * them (malloc'ed; NULL when out of memory). */
static char *expand(const char *name, const cli_run_file_opts *o)
{
    const char *profile = stex_profile_name(o->profile);
    char seed[24];
    snprintf(seed, sizeof seed, "%" PRIu64, o->seed);
    size_t n = strlen(name) + 1;
    for (const char *b = strchr(name, '{'); b; b = strchr(b + 1, '{'))
        n += strlen(profile) + strlen(seed);
    char *out = malloc(n), *w = out;
    for (const char *s = name; out && *s;) {
        if (!strncmp(s, "{profile}", 9))
            w += sprintf(w, "%s", profile), s += 9;
        else if (!strncmp(s, "{seed}", 6))
            w += sprintf(w, "%s", seed), s += 6;
        else
            *w++ = *s++;
    }
    if (out)
        *w = '\0';
    return out;
}

/* The profile X.bin.json records, into `profile` ("" when there is no
 * readable sidecar: nothing to protect). */
static void sidecar_profile(const char *bin, char profile[32])
{
    profile[0] = '\0';
    size_t n = strlen(bin) + 6;
    char *side = malloc(n);
    if (!side)
        return;
    snprintf(side, n, "%s.json", bin);
    json_t *j = json_load_file(side, 0, NULL);
    free(side);
    json_t *p = json_object_get(j, "profile");
    if (json_is_string(p))
        snprintf(profile, 32, "%s", json_string_value(p));
    json_decref(j);
}

/* A golden made under another profile is not overwritten without --force:
 * one run file makes one golden per profile ({profile} in its names), and a
 * kernel's --out is held to the same rule. */
int cli_check_golden_profile(const char *path, stex_profile_id profile, bool force)
{
    const char *mine = stex_profile_name(profile);
    char theirs[32] = "";
    if (!force && stex_file_kind_of(path) == STEX_FILE_BIN)
        sidecar_profile(path, theirs);
    if (*theirs && strcmp(theirs, mine))
        return cli_usage("run", "%s: a golden made under profile %s (its sidecar says so); "
                                "this run's profile is %s. Not overwritten: give another name "
                                "({profile} in a run file's output names, --out-dir DIR, "
                                "another --out), or --force", path, theirs, mine);
    return CLI_OK;
}

static int check_overwrites(const stex_run *r, const cli_run_file_opts *o)
{
    for (size_t i = 0; !o->force && i < stex_run_output_count(r); i++) {
        char *path = expand(stex_run_output_path(r, i), o);
        if (!path)
            return cli_fail("run", stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
        int rc = cli_check_golden_profile(path, o->profile, false);
        free(path);
        if (rc)
            return rc;
    }
    return CLI_OK;
}

/* The sidecars' record: `record` with the options that shape the bytes
 * and every file the run read, by its SHA-256. */
static stex_status set_record(stex_run *r, const cli_run_file_opts *o, json_t *record)
{
    json_t *inputs = json_array();
    for (size_t i = 0; i < stex_run_input_count(r); i++)
        json_array_append_new(inputs, json_pack("{s:s, s:s}", "path", stex_run_input_path(r, i),
                                                "sha256", stex_run_input_sha256(r, i)));
    json_t *allow = json_array();
    for (size_t i = 0; o->allow && i < o->allow->n; i++)
        json_array_append_new(allow, json_string(o->allow->dir[i]));
    json_object_set_new(record, "profile", json_string(stex_profile_name(o->profile)));
    json_object_set_new(record, "schedule", json_string(stex_schedule_name(o->schedule)));
    json_object_set_new(record, "seed", cli_json_seed(o->seed));
    json_object_set_new(record, "threads", json_integer(o->record ? 1 : cli_threads(o->threads)));
    json_object_set_new(record, "visibility", json_string(stex_visibility_name(o->vis)));
    json_object_set_new(record, "oob_load", json_string(stex_oob_load_name(o->oob)));
    json_object_set_new(record, "subgroup_size",
                        json_integer(o->subgroup ? o->subgroup : STEX_WGSL_SUBGROUP_WIDTH_DEFAULT));
    json_object_set_new(record, "max_steps", json_integer((json_int_t)o->max_steps));
    json_object_set_new(record, "allow_paths", allow);
    json_object_set_new(record, "record_allowed", json_boolean(o->record));
    json_object_set_new(record, "inputs", inputs);
    char *text = json_dumps(record, JSON_COMPACT | JSON_PRESERVE_ORDER);
    stex_status st = text ? stex_run_set_record(r, text)
                          : stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
    free(text);
    return st;
}

int cli_run_recorded(const char *path, stex_run *r, const cli_run_file_opts *o, json_t *record)
{
    stex_adapter *ad = NULL;
    stex_device *dev = NULL;
    stex_race_detector *rd = NULL;
    /* the profile's device as WebGPU showed it, asked for the run file's
     * requiredFeatures */
    stex_adapter_desc desc = stex_adapter_desc_for_profile(o->profile);
    stex_status st = STEX_OK;
    bool any_bin = false;
    for (size_t i = 0; i < stex_run_output_count(r); i++)
        any_bin |= stex_file_kind_of(stex_run_output_path(r, i)) == STEX_FILE_BIN;
    int rc = o->record && !any_bin
                 ? cli_usage("run", "--record-allowed: %s has no .bin output to record "
                                    "X.bin.inputs beside", path)
                 : check_overwrites(r, o);
    if (rc) {
        json_decref(record);
        stex_run_destroy(r);
        return rc;
    }
    if ((st = stex_adapter_create(&desc, &ad)) ||
        (st = stex_run_request_device(r, ad, &dev)) ||
        (o->race_check &&
         (st = stex_race_detector_create(&(stex_race_options){.max_reported =
                                             cli_races_keep(o->races, 0)}, &rd))))
        goto done;
    stex_dispatch_options d = {.schedule = o->schedule, .seed = o->seed,
                               .threads = (int)o->threads, .visibility = o->vis,
                               .oob_load = o->oob, .profile = stex_profile_get(o->profile),
                               .races = rd, .cancel = cli_cancel()};
    double t0 = cli_now_ms();
    cli_progress *line = cli_progress_start(!o->quiet);
    st = stex_run_execute(r, dev, &d);
    cli_progress_stop(line);
    if (st)
        goto done;
    double ms = cli_now_ms() - t0;
    if (record && (st = set_record(r, o, record)))
        goto done;
    if (stex_cancel_check(d.cancel)) /* a signal after the work: write nothing */
        st = stex_cancel_fail(d.cancel, "the run");
    else
        st = stex_run_write_outputs(r);
    if (st)
        goto done;
    print_summary(o, path, r, rd, ms);
    rc = cli_races_exit(CLI_OK, o->fail_on_race, rd);
done:
    json_decref(record);
    stex_run_destroy(r);
    stex_race_detector_destroy(rd);
    stex_device_destroy(dev);
    stex_adapter_destroy(ad);
    return st ? cli_fail("run", st) : rc;
}

int cli_read_run_file(const char *cmd, const char *path, char **json, char **dir)
{
    *json = *dir = NULL;
    uint8_t *bytes;
    size_t n;
    stex_status st = io_read_file(path, &bytes, &n, 64u << 20);
    if (st)
        return cli_fail(cmd, st);
    char *copy = strdup(path);
    *json = malloc(n + 1);
    if (!copy || !*json) {
        free(bytes), free(copy), free(*json);
        *json = NULL;
        return cli_fail(cmd, stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
    }
    memcpy(*json, bytes, n);
    (*json)[n] = '\0';
    free(bytes);
    *dir = strdup(dirname(copy));
    free(copy);
    if (!*dir || memchr(*json, '\0', n)) {
        free(*json), free(*dir);
        *json = *dir = NULL;
        return cli_fail(cmd, stex_fail(STEX_FILE_FORMAT_ERROR, "%s: not a JSON text (it holds "
                                                               "a NUL byte)", path));
    }
    return CLI_OK;
}
