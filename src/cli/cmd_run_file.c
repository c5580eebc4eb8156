/* `stex run FILE.json`: loads the run file, executes it on a device with
 * the profile asked for, writes its outputs (all or none), and prints a
 * summary.  Its WGSL modules go through stex's own front end. */
#include "cli/cmd_run_file.h"

#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli_kernel.h"
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

/* The run options for o: its WGSL settings and allowed folders. */
static stex_run_options run_options(const cli_run_file_opts *o)
{
    return (stex_run_options){.subgroup_width = o->subgroup, .max_steps = o->max_steps,
                              .allow_paths = o->allow ? o->allow->dir : NULL,
                              .allow_path_count = o->allow ? o->allow->n : 0};
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
                                              "record-allowed", "print-wgsl", "print-run",
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

static void print_summary(const cli_run_file_opts *o, const char *path, stex_run *r,
                          stex_race_detector *rd, double ms)
{
    size_t n = stex_run_output_count(r);
    if (o->json) {
        fputs("{\"run\": ", stdout);
        cli_json_string(stdout, path);
        printf(", \"profile\": \"%s\", \"schedule\": \"%s\", \"seed\": %" PRIu64
               ", \"threads\": %d, \"dispatches\": %" PRIu64 ", \"ms\": %.3f, \"races\": ",
               stex_profile_name(o->profile), stex_schedule_name(o->schedule), o->seed,
               cli_threads(o->threads), stex_run_dispatch_count(r), ms);
        if (rd)
            printf("{\"write-write\": %" PRIu64 ", \"read-write\": %" PRIu64 ", \"total\": %" PRIu64
                   "}", stex_race_count(rd, STEX_RACE_WRITE_WRITE),
                   stex_race_count(rd, STEX_RACE_READ_WRITE), stex_race_count(rd, STEX_RACE_ANY));
        else
            fputs("null", stdout);
        fputs(", \"files\": [", stdout);
        for (size_t i = 0; i < n; i++) {
            fputs(i ? ", " : "", stdout);
            cli_json_string(stdout, stex_run_output_path(r, i));
        }
        puts("]}");
        return;
    }
    printf("%s: %" PRIu64 " dispatch%s in %.3f ms (profile %s, schedule %s, seed %" PRIu64
           ", %d thread%s)\n", path, stex_run_dispatch_count(r),
           stex_run_dispatch_count(r) == 1 ? "" : "es", ms, stex_profile_name(o->profile),
           stex_schedule_name(o->schedule), o->seed, cli_threads(o->threads),
           cli_threads(o->threads) == 1 ? "" : "s");
    if (rd) {
        printf("race check: %" PRIu64 " racing location(s) (write-write %" PRIu64
               ", read-write %" PRIu64 ")\n", stex_race_count(rd, STEX_RACE_ANY),
               stex_race_count(rd, STEX_RACE_WRITE_WRITE), stex_race_count(rd, STEX_RACE_READ_WRITE));
        if (stex_race_count(rd, STEX_RACE_ANY))
            stex_race_report_text(rd, stdout);
    }
    for (size_t i = 0; i < n; i++)
        printf("wrote %s\n", stex_run_output_path(r, i));
}

int cli_run_file(const cli_spec *spec, const cli_args *a, const cli_run_file_opts *o)
{
    int rc = refuse_kernel_options(spec, a);
    if (rc)
        return rc;
    stex_run *r = NULL;
    stex_run_options ro = run_options(o);
    stex_status st = stex_run_load(a->value[0], &ro, &r);
    return st ? cli_fail("run", st) : cli_run_loaded(a->value[0], r, o);
}

int cli_run_loaded(const char *path, stex_run *r, const cli_run_file_opts *o)
{
    stex_adapter *ad = NULL;
    stex_device *dev = NULL;
    stex_race_detector *rd = NULL;
    /* the profile's device as WebGPU showed it, asked for the run file's
     * requiredFeatures */
    stex_adapter_desc desc = stex_adapter_desc_for_profile(o->profile);
    stex_status st;
    if ((st = stex_adapter_create(&desc, &ad)) ||
        (st = stex_run_request_device(r, ad, &dev)) ||
        (o->race_check && (st = stex_race_detector_create(NULL, &rd))))
        goto done;
    stex_dispatch_options d = {.schedule = o->schedule, .seed = o->seed,
                               .threads = (int)o->threads, .visibility = o->vis,
                               .oob_load = o->oob, .profile = stex_profile_get(o->profile),
                               .races = rd, .cancel = cli_cancel()};
    double t0 = cli_now_ms();
    if ((st = stex_run_execute(r, dev, &d)))
        goto done;
    double ms = cli_now_ms() - t0;
    if (stex_cancel_check(d.cancel)) /* a signal after the work: write nothing */
        st = stex_cancel_fail(d.cancel, "the run");
    else
        st = stex_run_write_outputs(r);
    if (st)
        goto done;
    print_summary(o, path, r, rd, ms);
done:
    stex_run_destroy(r);
    stex_race_detector_destroy(rd);
    stex_device_destroy(dev);
    stex_adapter_destroy(ad);
    return st ? cli_fail("run", st) : CLI_OK;
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
