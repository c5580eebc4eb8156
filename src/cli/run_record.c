/* The record of a `stex run` kept in a golden's sidecar (its "run" object),
 * and `stex run --replay X.bin.json`, which reads it back to make the
 * golden again.
 *
 * The record holds every option that decides the output bytes, the SHA-256
 * of the kernel's WGSL (so a changed kernel is not mistaken for the one that
 * made the golden) and the SHA-256 of the --in file.  A replay is
 * byte-identical when the options fix the output: one thread, or a kernel
 * without races.  Several threads on a racy kernel interleave in an order no
 * seed fixes; the replay then says that it may differ, and why. */
#include "cli/cmd_run.h"
#include "cli/run_json.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"

void run_print_wgsl(FILE *f, const stex_kernel *k)
{
    for (uint32_t i = 0; i < k->pass_count; i++) {
        const stex_kernel_pass *p = &k->passes[i];
        if (k->pass_count > 1)
            fprintf(f, "%s// pass %u of %u: entry point %s\n", i ? "\n" : "", i + 1,
                    k->pass_count, p->entry_point);
        fputs(p->wgsl, f);
        if (*p->wgsl && p->wgsl[strlen(p->wgsl) - 1] != '\n')
            fputc('\n', f);
    }
}

stex_status run_wgsl_sha256(const stex_kernel *k, char hex[65])
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (!f)
        return stex_fail(STEX_OUT_OF_MEMORY, "kernel %s: no memory for its WGSL", k->name);
    run_print_wgsl(f, k);
    if (fclose(f) || !text) {
        free(text);
        return stex_fail(STEX_OUT_OF_MEMORY, "kernel %s: no memory for its WGSL", k->name);
    }
    io_sha256_of(text, n, hex);
    free(text);
    return STEX_OK;
}

stex_status run_file_sha256(const char *path, char hex[65])
{
    FILE *f;
    stex_status st = io_open_regular(path, &f);
    if (st)
        return st;
    io_sha256 s;
    io_sha256_init(&s);
    uint8_t buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        io_sha256_update(&s, buf, n);
    bool bad = ferror(f);
    int err = errno;
    fclose(f);
    if (bad)
        return stex_fail(STEX_IO_ERROR, "%s: cannot read: %s", path, strerror(err));
    io_sha256_hex(&s, hex);
    return STEX_OK;
}

/* A seed as JSON: a number, or a decimal string above 2^63 - 1 (as the
 * sidecar's own "seed"). */

char *run_record_json(const run_opts *o, const stex_kernel *k, uint32_t w, uint32_t h,
                      const char *input_sha)
{
    char wgsl[65];
    if (run_wgsl_sha256(k, wgsl))
        return NULL;
    json_t *r = json_object();
    json_object_set_new(r, "kernel", json_string(k->name));
    json_object_set_new(r, "wgsl_sha256", json_string(wgsl));
    json_object_set_new(r, "size", json_pack("[III]", (json_int_t)w, (json_int_t)h,
                                             (json_int_t)1));
    json_object_set_new(r, "profile", json_string(stex_profile_name(o->profile)));
    json_object_set_new(r, "schedule", json_string(stex_schedule_name(o->schedule)));
    json_object_set_new(r, "seed", cli_json_seed(o->seed));
    json_object_set_new(r, "threads", json_integer(cli_threads(o->threads)));
    /* the executor, and the WGSL interpreter's sub-group width (the C kernels run one
     * invocation at a time: none) */
    json_object_set_new(r, "executor", json_string(o->wgsl ? "wgsl" : "c"));
    json_object_set_new(r, "subgroup_size",
                        o->wgsl ? json_integer(o->subgroup ? o->subgroup : RUN_WGSL_SUBGROUP)
                                : json_null());
    json_object_set_new(r, "visibility", json_string(stex_visibility_name(o->vis)));
    json_object_set_new(r, "oob_load", json_string(stex_oob_load_name(o->oob)));
    json_object_set_new(r, "iterations", json_integer(o->iterations ? o->iterations : 1));
    json_object_set_new(r, "variant", o->variant ? json_string(o->variant) : json_null());
    if (o->in && input_sha)
        json_object_set_new(r, "input", json_pack("{s:s, s:s}", "path", o->in, "sha256",
                                                  input_sha));
    else
        json_object_set_new(r, "input", json_null());
    json_object_set_new(r, "deterministic",
                        json_boolean(!k->racy || cli_threads(o->threads) == 1));
    char *text = json_dumps(r, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(r);
    return text;
}

void run_replay_free(run_replay *rp)
{
    free(rp->golden);
    free(rp->input_path);
    json_decref(rp->file_record);
    memset(rp, 0, sizeof *rp);
}

int run_replay_refuse(const char *side, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "stex run: --replay %s: ", side);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_USAGE;
}

/* Only the options that do not change the output may come with --replay. */
static int check_replay_args(const cli_spec *spec, const cli_args *a, const char *side)
{
    static const char *const allowed[] = {"replay", "out", "json", "in", "dump-input",
                                          "race-check", "quiet"};
    if (a->count)
        return run_replay_refuse(side, "unexpected argument '%s': the kernel comes from the sidecar",
                      a->value[0]);
    for (const cli_option *opt = spec->options; opt->name; opt++) {
        bool ok = false;
        for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
            ok |= !strcmp(opt->name, allowed[i]);
        if (!ok && cli_given(spec, a, opt->name))
            return run_replay_refuse(side, "--%s: the replay takes every option that shapes the output "
                                "from the sidecar; only --out, --json, --in, --dump-input and "
                                "--race-check may be given", opt->name);
    }
    return CLI_OK;
}

/* The record's string `key`, or NULL (printing why) when absent or not a
 * string. */
static const char *get_text(json_t *run, const char *side, const char *key)
{
    json_t *v = json_object_get(run, key);
    if (json_is_string(v))
        return json_string_value(v);
    run_replay_refuse(side, "the run record's \"%s\" is %s; it must be a string", key,
           v ? "not a string" : "missing");
    return NULL;
}

static bool get_count(json_t *run, const char *side, const char *key, uint32_t lo, uint32_t hi,
                      uint32_t *out)
{
    json_t *v = json_object_get(run, key);
    if (json_is_integer(v) && json_integer_value(v) >= lo && json_integer_value(v) <= hi) {
        *out = (uint32_t)json_integer_value(v);
        return true;
    }
    run_replay_refuse(side, "the run record's \"%s\" must be an integer from %u to %u", key, lo, hi);
    return false;
}

static bool get_seed(json_t *run, const char *side, uint64_t *out)
{
    json_t *v = json_object_get(run, "seed");
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
        return true;
    }
    if (json_is_string(v)) /* above 2^63 - 1; cli_parse_u64 says what is wrong */
        return cli_parse_u64("run", "the run record's \"seed\"", json_string_value(v), out);
    run_replay_refuse(side, "the run record's \"seed\" must be a non-negative integer");
    return false;
}

/* The names of the run record: profile, schedule, visibility, oob_load. */
static int get_names(json_t *run, const char *side, run_opts *o)
{
    const char *s;
    if (!(s = get_text(run, side, "profile")))
        return CLI_USAGE;
    if (!stex_profile_from_name(s, &o->profile))
        return run_replay_refuse(side, "unknown profile '%s' (spec, lavapipe, nvidia)", s);
    if (!(s = get_text(run, side, "schedule")))
        return CLI_USAGE;
    if (!stex_schedule_from_name(s, &o->schedule))
        return run_replay_refuse(side, "unknown schedule '%s' (in-order, reversed, shuffled)", s);
    if (!(s = get_text(run, side, "visibility")))
        return CLI_USAGE;
    if (!stex_visibility_from_name(s, &o->vis))
        return run_replay_refuse(side, "unknown visibility '%s' (immediate, snapshot)", s);
    if (!(s = get_text(run, side, "oob_load")))
        return CLI_USAGE;
    if (!stex_oob_load_from_name(s, &o->oob))
        return run_replay_refuse(side, "unknown oob_load '%s' (zero, zero-alpha-one, random-texel)", s);
    return CLI_OK;
}

/* The kernel: one this stex has, with the WGSL the golden was made from. */
static int get_kernel(json_t *run, const char *side, const stex_kernel **k)
{
    const char *name = get_text(run, side, "kernel");
    if (!name)
        return CLI_USAGE;
    if (!(*k = stex_kernel_find(name)))
        return run_replay_refuse(side, "the golden was made by kernel '%s', which this stex does not have "
                            "(`stex run --list` lists its kernels); it cannot be replayed", name);
    const char *want = get_text(run, side, "wgsl_sha256");
    char have[65];
    stex_status st = run_wgsl_sha256(*k, have);
    if (!want || st)
        return want ? cli_fail("run", st) : CLI_USAGE;
    if (strcmp(want, have))
        return run_replay_refuse(side, "kernel %s's WGSL is not the one the golden was made from (the "
                            "sidecar records SHA-256 %.12s..., this stex's is %.12s...; "
                            "`stex run %s --print-wgsl | sha256sum` prints it): a replay would "
                            "run another shader", name, want, have, name);
    return CLI_OK;
}

/* "input": null, or {"path": ..., "sha256": ...}. */
static int get_input(json_t *run, const char *side, run_replay *rp)
{
    json_t *in = json_object_get(run, "input");
    if (!in || json_is_null(in))
        return CLI_OK;
    json_t *path = json_object_get(in, "path"), *sha = json_object_get(in, "sha256");
    if (!json_is_string(path) || !json_is_string(sha) || strlen(json_string_value(sha)) != 64)
        return run_replay_refuse(side, "the run record's \"input\" must be null or {\"path\": FILE, "
                            "\"sha256\": 64 hex digits}");
    if (!(rp->input_path = strdup(json_string_value(path))))
        return cli_fail("run", stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
    snprintf(rp->input_sha, sizeof rp->input_sha, "%s", json_string_value(sha));
    return CLI_OK;
}

/* Everything the record says, into o. */
static int read_record(json_t *run, const char *side, run_opts *o, const stex_kernel **k,
                       run_replay *rp)
{
    int rc = get_kernel(run, side, k);
    if (rc || (rc = get_names(run, side, o)) || (rc = get_input(run, side, rp)))
        return rc;
    json_t *size = json_object_get(run, "size"), *variant = json_object_get(run, "variant");
    uint32_t w = 0, h = 0;
    if (!json_is_array(size) || json_array_size(size) != 3 ||
        !json_is_integer(json_array_get(size, 0)) || !json_is_integer(json_array_get(size, 1)) ||
        json_integer_value(json_array_get(size, 2)) != 1 ||
        json_integer_value(json_array_get(size, 0)) < 1 ||
        json_integer_value(json_array_get(size, 0)) > UINT32_MAX ||
        json_integer_value(json_array_get(size, 1)) < 1 ||
        json_integer_value(json_array_get(size, 1)) > UINT32_MAX)
        return run_replay_refuse(side, "the run record's \"size\" must be [width, height, 1]");
    w = (uint32_t)json_integer_value(json_array_get(size, 0));
    h = (uint32_t)json_integer_value(json_array_get(size, 1));
    if ((rc = cli_check_kernel_size("run", "--replay", *k, w, h)))
        return rc;
    o->size[0] = w;
    o->size[1] = h;
    o->size[2] = 1;
    if (!get_seed(run, side, &o->seed) ||
        !get_count(run, side, "threads", 1, 1024, &o->threads) ||
        !get_count(run, side, "iterations", 1, 100000, &o->iterations))
        return CLI_USAGE;
    json_t *executor = json_object_get(run, "executor"); /* absent: a C kernel's golden */
    if (executor && !(json_is_string(executor) && (!strcmp(json_string_value(executor), "c") ||
                                                   !strcmp(json_string_value(executor), "wgsl"))))
        return run_replay_refuse(side, "the run record's \"executor\" must be \"c\" or \"wgsl\"");
    o->wgsl = executor && !strcmp(json_string_value(executor), "wgsl");
    /* the sub-group width decides a racy kernel's outcome on the interpreter */
    json_t *sg = json_object_get(run, "subgroup_size");
    if (o->wgsl && sg && !json_is_null(sg)) {
        if (!json_is_integer(sg) || json_integer_value(sg) < 1 || json_integer_value(sg) > 64)
            return run_replay_refuse(side, "the run record's \"subgroup_size\" must be 1 to 64");
        o->subgroup = (uint32_t)json_integer_value(sg);
    }
    if (variant && !json_is_null(variant)) {
        if (!json_is_string(variant) || (strcmp(json_string_value(variant), "random") &&
                                         strcmp(json_string_value(variant), "hot")))
            return run_replay_refuse(side, "the run record's \"variant\" must be null, \"random\" or "
                                "\"hot\"");
        o->variant = !strcmp(json_string_value(variant), "hot") ? "hot" : "random";
    }
    rp->deterministic = !(*k)->racy || o->threads == 1;
    if (!rp->deterministic)
        snprintf(rp->why_not, sizeof rp->why_not,
                 "kernel %s is racy (its invocations read texels that others write) and the "
                 "golden was made on %u threads, whose interleaving no seed fixes; only one "
                 "thread makes a racy kernel's output reproducible", (*k)->name, o->threads);
    return CLI_OK;
}

int run_replay_load(const cli_spec *spec, const cli_args *a, run_opts *o, const stex_kernel **k,
                    run_replay *rp)
{
    const char *side = o->replay;
    size_t n = strlen(side);
    memset(rp, 0, sizeof *rp);
    int rc = check_replay_args(spec, a, side);
    if (rc)
        return rc;
    if (n <= 9 || strcmp(side + n - 9, ".bin.json"))
        return run_replay_refuse(side, "give a golden's sidecar, X.bin.json");
    if (!(rp->golden = strndup(side, n - 5)))
        return cli_fail("run", stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
    uint8_t *text;
    size_t len;
    stex_status st = io_read_file(side, &text, &len, 1 << 16);
    if (st)
        return cli_fail("run", st);
    json_error_t e;
    json_t *root = json_loadb((const char *)text, len, 0, &e);
    free(text);
    json_t *run = json_object_get(root, "run");
    if (!root)
        rc = run_replay_refuse(side, "not JSON: %s (line %d, column %d)", e.text, e.line, e.column);
    else if (!json_is_object(run))
        rc = run_replay_refuse(side, "the sidecar has no \"run\" record, which says how the golden was "
                          "made (stex run writes one for a kernel, a run file or a .wgsl; the "
                          "C API only with stex_io_meta.run_json or stex_run_set_record): it "
                          "cannot be replayed; make the golden again with stex run");
    else if (json_object_get(run, "run_file") || json_object_get(run, "wgsl_file")) {
        rp->handled = true; /* cmd_run.c replays it (run_file_replay.c) */
        static const char *const kernel_side[] = {"out", "in", "dump-input", "race-check",
                                                  NULL};
        for (const char *const *opt = kernel_side; *opt && !rc; opt++)
            if (cli_given(spec, a, *opt))
                rc = run_replay_refuse(side, "--%s: the replay of a run file's golden writes nothing and "
                                  "reads what the record names; give only --json or --quiet",
                            *opt);
        if (!rc)
            rp->file_record = json_incref(run);
    } else
        rc = read_record(run, side, o, k, rp);
    json_t *version = json_object_get(root, "stex_version");
    if (!rc && json_is_string(version) && strcmp(json_string_value(version), STEX_VERSION))
        fprintf(stderr, "stex run: note: %s was written by stex %s, this is stex %s: a change "
                        "in between may change the bytes\n", side, json_string_value(version),
                STEX_VERSION);
    json_decref(root);
    return rc;
}
