/* stex run: run one of the lessons' kernels and write its output. */
#include "cli/cli_kernel.h"
#include "cli/cmd_run_file.h"

#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OUTS 8

static const char SYNOPSIS[] =
    "usage: stex run KERNEL [OPTIONS]\n"
    "       stex run FILE.json [OPTIONS]   (a run file: docs/run-files.md)\n"
    "       stex run --list [--json]\n"
    "\n"
    "Runs one of the lessons' kernels on the emulated device and writes its\n"
    "output texture: .bin (exactly the bytes copyTextureToBuffer gives, plus a\n"
    "JSON sidecar X.bin.json), .npy, or .png (docs/file-formats.md).\n";

static const char EPILOGUE[] =
    "numbers are decimal (no 0x, no leading zero).\n"
    "\n"
    "examples:\n"
    "  stex run --list\n"
    "  stex run decaer --size 64x64 --out golden.bin\n"
    "  stex run generar --out golden.bin --record-allowed\n"
    "  stex run generar --out pattern.png --out pattern.npy --json\n"
    "  stex run difundir --seed 7 --threads 2 --race-check   # shuffled, seed 7\n"
    "  stex run blur --in photo.png --out blurred.png\n"
    "  stex run box3x3-texture --size 64x64 --executor wgsl --out wgsl.bin\n"
    "\n"
    "exit status: 0 done, 1 the device refused (validation or shader error),\n"
    "2 usage error, unreadable input or unwritable output.\n";

static int list_kernels(bool json)
{
    size_t n = stex_kernel_count();
    if (json) {
        fputs("[", stdout);
        for (size_t i = 0; i < n; i++) {
            const stex_kernel *k = stex_kernel_at(i);
            printf("%s\n  {\"name\": ", i ? "," : "");
            cli_json_string(stdout, k->name);
            printf(", \"summary\": ");
            cli_json_string(stdout, k->summary);
            printf(", \"default_size\": [%u, %u], \"output_format\": \"%s\", \"input_format\": ",
                   k->default_width, k->default_height, stex_format_name(k->output_format));
            if (k->input_format == STEX_FORMAT_UNDEFINED)
                fputs("null", stdout);
            else
                printf("\"%s\"", stex_format_name(k->input_format));
            printf(", \"racy\": %s}", k->racy ? "true" : "false");
        }
        puts("\n]");
        return CLI_OK;
    }
    printf("%-18s %-9s %-12s %-12s %s\n", "kernel", "size", "output", "input", "summary");
    for (size_t i = 0; i < n; i++) {
        const stex_kernel *k = stex_kernel_at(i);
        char size[24];
        snprintf(size, sizeof size, "%ux%u", k->default_width, k->default_height);
        printf("%-18s %-9s %-12s %-12s %s%s\n", k->name, size, stex_format_name(k->output_format),
               k->input_format ? stex_format_name(k->input_format) : "-", k->summary,
               k->racy ? " [racy]" : "");
    }
    return CLI_OK;
}

/* The --out files: the extension picks the type. */
typedef struct run_outs {
    int n;
    const char *path[MAX_OUTS];
} run_outs;

typedef struct run_opts {
    bool list, json, race_check, record, print_wgsl, wgsl;
    uint32_t size[3], threads, iterations; /* size[0] == 0: the kernel's own */
    uint64_t seed;
    stex_profile_id profile;
    stex_schedule schedule;
    stex_visibility vis;
    stex_oob_load oob;
    const char *in, *variant;
    run_outs outs;
} run_opts;

static bool parse_out(const char *cmd, const char *s, void *field)
{
    run_outs *outs = field;
    if (outs->n == MAX_OUTS) {
        cli_usage(cmd, "--out: at most %d outputs", MAX_OUTS);
        return false;
    }
    if (stex_file_kind_of(s) == STEX_FILE_UNKNOWN) {
        cli_usage(cmd, "--out: cannot tell the file type of '%s' (accepted extensions: .bin, "
                       ".npy, .png)", s);
        return false;
    }
    outs->path[outs->n++] = s;
    return true;
}

/* --executor: wgsl (true) or c (false) */
static bool parse_executor(const char *cmd, const char *s, void *field)
{
    if (strcmp(s, "wgsl") && strcmp(s, "c")) {
        cli_usage(cmd, "--executor: unknown executor '%s' (accepted: c, wgsl)", s);
        return false;
    }
    *(bool *)field = !strcmp(s, "wgsl");
    return true;
}

#define AT(field) offsetof(run_opts, field)
static const cli_option run_options[] = {
    {.name = "list", .kind = CLI_FLAG, .at = AT(list), .help = "list the kernels and exit"},
    {.name = "size", .kind = CLI_SIZE, .at = AT(size), .metavar = "WxH",
     .help = "texture size (default: the kernel's own)"},
    {.name = "profile", .kind = CLI_CUSTOM, .parse = cli_parse_profile, .at = AT(profile),
     .metavar = "P", .help = "conversion profile: spec (default), lavapipe, nvidia"},
    {.name = "schedule", .kind = CLI_CUSTOM, .parse = cli_parse_schedule, .at = AT(schedule),
     .metavar = "S", .help = "workgroup order: in-order (default), reversed, shuffled"},
    {.name = "seed", .kind = CLI_U64, .at = AT(seed), .metavar = "N",
     .help = "seed of the shuffled schedule (default 0); without\n--schedule it selects "
             "shuffled, with another schedule\nit is refused"},
    {.name = "threads", .kind = CLI_U32, .at = AT(threads), .metavar = "T", .min = 1,
     .max = 1024, .help = "OpenMP threads (default: all cores)"},
    {.name = "visibility", .kind = CLI_CUSTOM, .parse = cli_parse_visibility, .at = AT(vis),
     .metavar = "V", .help = "what a read sees of other workgroups' writes:\n"
                             "immediate (default) or snapshot"},
    {.name = "oob-load", .kind = CLI_CUSTOM, .parse = cli_parse_oob_load, .at = AT(oob),
     .metavar = "P", .help = "what an out-of-bounds textureLoad returns (all allowed by\n"
                             "WGSL): zero (default, as lavapipe and NVIDIA do),\n"
                             "zero-alpha-one, random-texel (some in-bounds texel)"},
    {.name = "iterations", .kind = CLI_U32, .at = AT(iterations), .metavar = "N", .min = 1,
     .max = 100000, .help = "dispatches per run (default 1)"},
    {.name = "variant", .kind = CLI_CUSTOM, .parse = cli_parse_variant, .at = AT(variant),
     .metavar = "V", .help = "difundir input: random (default) or hot"},
    {.name = "race-check", .kind = CLI_FLAG, .at = AT(race_check),
     .help = "run the race detector and report what it finds"},
    {.name = "in", .kind = CLI_TEXT, .at = AT(in), .metavar = "FILE",
     .help = "input image (.png, .npy, .bin) instead of the embedded one"},
    {.name = "out", .kind = CLI_CUSTOM, .parse = parse_out, .at = AT(outs), .metavar = "FILE",
     .help = "write the output (repeatable; type from the extension)"},
    {.name = "record-allowed", .kind = CLI_FLAG, .at = AT(record),
     .help = "with a .bin output, also write X.bin.inputs (the value\n"
             "last stored to each texel) for `stex compare --tolerance\n"
             "allowed`; runs on one thread"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print one JSON summary object"},
    {.name = "executor", .kind = CLI_CUSTOM, .parse = parse_executor, .at = AT(wgsl),
     .metavar = "E", .help = "c (default): the kernel's C version, or wgsl: its\n"
             "WGSL (--print-wgsl) through stex's WGSL interpreter,\n"
             "the same bytes for race-free kernels.  c stays the\n"
             "default while the interpreter is 10-70x slower"},
    {.name = "print-wgsl", .kind = CLI_FLAG, .at = AT(print_wgsl),
     .help = "print the kernel's WGSL (every pass) and exit"},
    {0}};
#undef AT

const cli_spec cli_run_spec = {"run", SYNOPSIS, EPILOGUE, run_options};

/* --record-allowed: the last value stored to each texel of the output.  The
 * run uses one thread, so the observer's calls come in the order the stores
 * reach memory and the last one recorded is the one whose bytes the golden
 * holds. */
typedef struct recorder {
    const stex_texture *output;
    stex_inputs in;
} recorder;

static void record_store(void *user, const stex_texture_view *view, int64_t x, int64_t y,
                         int64_t z, const stex_vec4 *value)
{
    recorder *r = user;
    const stex_view_desc *vd = stex_view_get_desc(view);
    if (stex_view_texture(view) != r->output || vd->base_mip_level != 0 || x < 0 || y < 0 ||
        z < 0 || x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX)
        return;
    uint32_t layer = (uint32_t)z + vd->base_array_layer;
    stex_inputs_set(&r->in, (uint32_t)x, (uint32_t)y, layer, value);
}

/* The checks that need more than one option, or the kernel. */
static int check_options(const cli_args *a, run_opts *o, const stex_kernel **kernel)
{
    const char *cmd = "run";
    if (a->count == 0)
        return cli_usage(cmd, "missing KERNEL (`stex run --list` lists them)");
    if (a->count > 1)
        return cli_usage(cmd, "unexpected argument '%s' after the kernel", a->value[1]);
    if (!(*kernel = cli_find_kernel(cmd, a->value[0])))
        return CLI_USAGE;
    /* a seed only orders the shuffled schedule: alone it asks for it */
    if (cli_given(&cli_run_spec, a, "seed")) {
        if (!cli_given(&cli_run_spec, a, "schedule"))
            o->schedule = STEX_SCHEDULE_SHUFFLED;
        else if (o->schedule != STEX_SCHEDULE_SHUFFLED)
            return cli_usage(cmd, "--seed: a seed orders only the shuffled schedule, not %s; "
                                  "drop --seed or give --schedule shuffled",
                             stex_schedule_name(o->schedule));
    }
    if (o->size[0] && o->size[2] != 1)
        return cli_usage(cmd, "--size: the kernels run on 2d textures; give WxH, not '%ux%ux%u'",
                         o->size[0], o->size[1], o->size[2]);
    int rc = cli_check_kernel_size(cmd, "--size", *kernel,
                                   o->size[0] ? o->size[0] : (*kernel)->default_width,
                                   o->size[0] ? o->size[1] : (*kernel)->default_height);
    if (rc)
        return rc;
    if (!o->record)
        return CLI_OK;
    bool any_bin = false;
    for (int i = 0; i < o->outs.n; i++)
        any_bin |= stex_file_kind_of(o->outs.path[i]) == STEX_FILE_BIN;
    if (!any_bin)
        return cli_usage(cmd, "--record-allowed: needs a .bin output (--out X.bin) to record "
                              "X.bin.inputs beside it");
    /* several threads may store one texel in an order the observer cannot
     * see; one thread makes the last recorded value the one in the golden */
    if (o->threads > 1)
        return cli_usage(cmd, "--record-allowed: runs on one thread (the recorded value of a "
                              "texel must be its last store); drop --threads %u", o->threads);
    o->threads = 1;
    return CLI_OK;
}

/* --in: reads the kernel's input image into `input` and points setup at it. */
static int load_input(const run_opts *o, const stex_kernel *k, stex_kernel_setup *setup,
                      stex_image *input)
{
    const char *cmd = "run";
    bool has_size = o->size[0] != 0;
    if (k->input_format == STEX_FORMAT_UNDEFINED)
        return cli_usage(cmd, "--in: kernel %s takes no input image", k->name);
    cli_raw_layout raw = {.format = k->input_format, .size = {o->size[0], o->size[1], 1}};
    if (!has_size)
        raw.size[0] = raw.size[1] = 0;
    int rc = cli_read_image(cmd, o->in, &raw, input, NULL);
    if (rc)
        return rc;
    if (input->format != k->input_format || input->depth != 1 ||
        (has_size && (input->width != o->size[0] || input->height != o->size[1])))
        return cli_usage(cmd, "--in: '%s' holds %ux%ux%u %s texels, but kernel %s takes a 2d %s "
                              "image%s", o->in, input->width, input->height, input->depth,
                         stex_format_name(input->format), k->name,
                         stex_format_name(k->input_format), has_size ? " of the --size given" : "");
    if ((rc = cli_check_kernel_size(cmd, "--in", k, input->width, input->height)))
        return rc;
    setup->width = input->width;
    setup->height = input->height;
    setup->input = input->data;
    setup->input_size = input->size;
    setup->input_bytes_per_row = input->bytes_per_row;
    return CLI_OK;
}

/* --record-allowed: watch every store to the output texture. */
static stex_status start_recording(const stex_kernel *k, stex_kernel_instance *ki, recorder *rec,
                                   stex_dispatch_options *d)
{
    stex_texture *t = stex_kernel_instance_output_texture(ki);
    if (!t)
        return stex_fail(STEX_INVALID_ARGUMENT, "--record-allowed: kernel %s writes a buffer, "
                                                "not a texture", k->name);
    rec->output = t;
    stex_extent3d ts = stex_texture_mip_size(t, 0);
    stex_scalar_type scalar = stex_format_get(stex_kernel_instance_output_format(ki))->scalar;
    stex_status st = stex_inputs_init(&rec->in, scalar, ts.width, ts.height ? ts.height : 1,
                                      ts.depth_or_array_layers ? ts.depth_or_array_layers : 1);
    d->store_observer = record_store;
    d->store_observer_user = rec;
    return st;
}

/* Every --out file, and X.bin.inputs beside each .bin when recording: all
 * of them, or (if one cannot be written) none, every target left as it was. */
static stex_status write_outputs(const run_opts *o, const stex_kernel *k, stex_kernel_instance *ki,
                                 const recorder *rec)
{
    stex_image out = {0};
    stex_status st = cli_instance_image(ki, &out);
    stex_io_meta meta = {.kernel = k->name, .profile = stex_profile_name(o->profile),
                         .schedule = stex_schedule_name(o->schedule), .seed = o->seed,
                         .has_seed = true, .inputs = o->record ? &rec->in : NULL};
    if (!st)
        st = stex_write_images((size_t)o->outs.n, o->outs.path, &out, &meta);
    stex_image_free(&out);
    return st;
}

/* ", \"PATH.EXT\"": a sidecar's name in the JSON list of files. */
static void json_sidecar(const char *path, const char *ext)
{
    size_t n = strlen(path) + strlen(ext) + 1;
    char *s = malloc(n);
    if (!s)
        return;
    snprintf(s, n, "%s%s", path, ext);
    fputs(", ", stdout);
    cli_json_string(stdout, s);
    free(s);
}

static void print_json(const run_opts *o, const stex_kernel *k, stex_kernel_instance *ki,
                       stex_race_detector *rd, double ms)
{
    printf("{\"kernel\": \"%s\", \"size\": [%u, %u], \"format\": \"%s\", \"profile\": \"%s\", "
           "\"schedule\": \"%s\", \"seed\": %" PRIu64 ", \"threads\": %d, "
           "\"visibility\": \"%s\", \"oob_load\": \"%s\", \"iterations\": %u, "
           "\"executor\": \"%s\", \"dispatch_ms\": %.3f, \"races\": ",
           k->name, stex_kernel_instance_width(ki), stex_kernel_instance_height(ki),
           stex_format_name(stex_kernel_instance_output_format(ki)), stex_profile_name(o->profile),
           stex_schedule_name(o->schedule), o->seed, cli_threads(o->threads),
           stex_visibility_name(o->vis), stex_oob_load_name(o->oob),
           o->iterations ? o->iterations : 1, o->wgsl ? "wgsl" : "c", ms);
    if (rd)
        printf("{\"write-write\": %" PRIu64 ", \"read-write\": %" PRIu64 ", \"total\": %" PRIu64
               "}", stex_race_count(rd, STEX_RACE_WRITE_WRITE),
               stex_race_count(rd, STEX_RACE_READ_WRITE), stex_race_count(rd, STEX_RACE_ANY));
    else
        fputs("null", stdout);
    fputs(", \"files\": [", stdout);
    for (int i = 0; i < o->outs.n; i++) {
        const char *path = o->outs.path[i];
        bool bin = stex_file_kind_of(path) == STEX_FILE_BIN;
        fputs(i ? ", " : "", stdout);
        cli_json_string(stdout, path);
        if (bin && o->record)
            json_sidecar(path, ".inputs");
        if (bin)
            json_sidecar(path, ".json");
    }
    puts("]}");
}

static void print_text(const run_opts *o, const stex_kernel *k, stex_kernel_instance *ki,
                       stex_race_detector *rd, double ms)
{
    uint32_t it = o->iterations ? o->iterations : 1;
    int threads = cli_threads(o->threads);
    printf("%s %ux%u %s: %u dispatch%s in %.3f ms (%s, profile %s, schedule %s, seed %" PRIu64
           ", %d thread%s, visibility %s)\n",
           k->name, stex_kernel_instance_width(ki), stex_kernel_instance_height(ki),
           stex_format_name(stex_kernel_instance_output_format(ki)), it, it > 1 ? "es" : "", ms,
           o->wgsl ? "its WGSL, interpreted" : "its C version", stex_profile_name(o->profile), stex_schedule_name(o->schedule), o->seed, threads,
           threads == 1 ? "" : "s", stex_visibility_name(o->vis));
    if (rd) {
        printf("race check: %" PRIu64 " racing location(s) (write-write %" PRIu64
               ", read-write %" PRIu64 ")\n", stex_race_count(rd, STEX_RACE_ANY),
               stex_race_count(rd, STEX_RACE_WRITE_WRITE), stex_race_count(rd, STEX_RACE_READ_WRITE));
        if (stex_race_count(rd, STEX_RACE_ANY))
            stex_race_report_text(rd, stdout);
    }
    for (int i = 0; i < o->outs.n; i++)
        printf("wrote %s%s\n", o->outs.path[i],
               stex_file_kind_of(o->outs.path[i]) != STEX_FILE_BIN ? ""
               : o->record ? " (+ .json sidecar, + .inputs)" : " (+ .json sidecar)");
}

/* --executor wgsl: each pass's pipeline from its WGSL (create_pipeline). */
static stex_status make_wgsl(void *user, stex_device *d, const stex_kernel_pass *pass,
                             stex_pipeline **out)
{
    (void)user;
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, pass->entry_point, &m);
    if (st == STEX_VALIDATION_ERROR)
        st = stex_fail(st, "the WGSL of pass %s does not compile:\n%s", pass->entry_point,
                       stex_wgsl_module_diagnostics(m));
    if (!st)
        st = stex_wgsl_pipeline_create(d, m, pass->entry_point, NULL, out);
    stex_wgsl_module_destroy(m);
    return st;
}

/* Creates the kernel, dispatches it, writes the files, prints the summary. */
static int execute(const run_opts *o, const stex_kernel *k, const stex_kernel_setup *setup)
{
    stex_race_detector *rd = NULL;
    stex_kernel_instance *ki = NULL;
    recorder rec = {0};
    stex_status st = STEX_OK;
    if (o->race_check && (st = stex_race_detector_create(NULL, &rd)))
        goto done;
    if ((st = stex_kernel_instance_create(k, setup, &ki)))
        goto done;
    stex_dispatch_options d = {.schedule = o->schedule, .seed = o->seed,
                               .threads = (int)o->threads, .visibility = o->vis,
                               .oob_load = o->oob, .profile = stex_profile_get(o->profile),
                               .races = rd};
    if (o->record && (st = start_recording(k, ki, &rec, &d)))
        goto done;
    double t0 = cli_now_ms();
    st = stex_kernel_instance_dispatch(ki, &d);
    double ms = cli_now_ms() - t0;
    if (st || (o->outs.n && (st = write_outputs(o, k, ki, &rec))))
        goto done;
    if (o->json)
        print_json(o, k, ki, rd, ms);
    else
        print_text(o, k, ki, rd, ms);
done:
    stex_kernel_instance_destroy(ki);
    stex_race_detector_destroy(rd);
    stex_inputs_free(&rec.in);
    return st ? cli_fail("run", st) : CLI_OK;
}

/* --print-wgsl: the source each pass's C twin follows, as the lesson wrote it. */
static int print_wgsl(const stex_kernel *k)
{
    for (uint32_t i = 0; i < k->pass_count; i++) {
        const stex_kernel_pass *p = &k->passes[i];
        if (k->pass_count > 1)
            printf("%s// pass %u of %u: entry point %s\n", i ? "\n" : "", i + 1, k->pass_count,
                   p->entry_point);
        fputs(p->wgsl, stdout);
        if (*p->wgsl && p->wgsl[strlen(p->wgsl) - 1] != '\n')
            fputc('\n', stdout);
    }
    return CLI_OK;
}

/* KERNEL ending in .json: a run file, with the options that apply to it. */
static int run_file(const cli_args *a, run_opts *o)
{
    if (cli_given(&cli_run_spec, a, "seed") && !cli_given(&cli_run_spec, a, "schedule"))
        o->schedule = STEX_SCHEDULE_SHUFFLED;
    cli_run_file_opts f = {o->json, o->race_check, o->threads, o->seed, o->profile, o->schedule,
                           o->vis, o->oob};
    return cli_run_file(&cli_run_spec, a, &f);
}

int cli_run(int argc, char **argv)
{
    run_opts o = {.size = {0, 0, 1}, .profile = STEX_PROFILE_SPEC,
                  .schedule = STEX_SCHEDULE_IN_ORDER, .vis = STEX_VISIBILITY_IMMEDIATE,
                  .oob = STEX_OOB_LOAD_ZERO};
    cli_args a;
    const stex_kernel *k = NULL;
    int rc = cli_parse(&cli_run_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (o.list)
        return list_kernels(o.json);
    if (a.count >= 1 && cli_is_run_file(a.value[0])) /* FILE.json: cmd_run_file.c */
        return run_file(&a, &o);
    if ((rc = check_options(&a, &o, &k)))
        return rc;
    if (o.print_wgsl)
        return print_wgsl(k);
    stex_kernel_setup setup = {.width = o.size[0], .height = o.size[1],
                               .iterations = o.iterations, .variant = o.variant,
                               .create_pipeline = o.wgsl ? make_wgsl : NULL};
    stex_image input = {0};
    if (o.in && (rc = load_input(&o, k, &setup, &input))) {
        stex_image_free(&input);
        return rc;
    }
    rc = execute(&o, k, &setup);
    stex_image_free(&input);
    return rc;
}
