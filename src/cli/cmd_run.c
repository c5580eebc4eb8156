/* stex run: run one of the lessons' kernels and write its output. */
#include "cli/cmd_run.h"
#include "cli/allowed_summary.h"
#include "cli/cmd_run_file.h"
#include "cli/program.h"
#include "cli/progress.h"
#include "cli/race_output.h"
#include "cli/run_json.h"

#include <jansson.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char SYNOPSIS[] =
    "usage: stex run KERNEL [OPTIONS]\n"
    "       stex run FILE.json [--out-dir DIR] [OPTIONS]   (a run file:\n"
    "                          docs/run-files.md; {profile}, {seed} in its names)\n"
    "       stex run FILE.wgsl [--size WxH | --in IMAGE] [--iterations N]\n"
    "                          [--constant NAME=VALUE]... [--out FILE]... [OPTIONS]\n"
    "                          (a shader whose one binding is a texture_storage_2d,\n"
    "                          or that and a texture_2d that --in fills)\n"
    "       stex run --replay X.bin.json [--out FILE] [--json]\n"
    "       stex run --list [--json]\n"
    "\n"
    "Runs one of the lessons' kernels on the emulated device and writes its\n"
    "output texture. By default the kernel is its WGSL (--print-wgsl) set up by\n"
    "its run file (docs/kernels.md) and run by stex's WGSL interpreter;\n"
    "--executor c runs its C version. The output goes to .bin (exactly the\n"
    "bytes copyTextureToBuffer gives, plus a JSON sidecar X.bin.json), .npy,\n"
    "or .png (docs/file-formats.md).\n"
    "The sidecar records everything that made the output (kernel and the\n"
    "SHA-256 of its WGSL, or the run file's and every file it read; options,\n"
    "input file hash); --replay runs it again\n"
    "and compares the result with the golden byte for byte.\n";

static const char EPILOGUE[] =
    "numbers are decimal (no 0x, no leading zero).\n"
    "\n"
    "examples:\n"
    "  stex run --list\n"
    "  stex run decaer --size 64x64 --out golden.bin\n"
    "  stex run generar --out golden.bin --record-allowed\n"
    "  stex run decaer --out golden.bin --golden allowed  # any device's result\n"
    "  stex run generar --out pattern.png --out pattern.npy --json\n"
    "  stex run difundir --seed 7 --threads 2 --race-check   # shuffled, seed 7\n"
    "  stex run blur --in photo.png --out blurred.png\n"
    "  stex run box3x3-texture --size 64x64 --executor c --out c.bin\n"
    "  stex run decaer --size 512x512 --executor jit --out jit.bin\n"
    "  stex run difundir --size 32x32 --threads 1 --subgroup-size 1 --race-check\n"
    "  stex run shader.json --fail-on-race --races all  # CI: exit 3 on a race\n"
    "  stex run --replay golden.bin.json             # byte-identical?\n"
    "  stex run tonemap.json --profile nvidia --out-dir goldens --record-allowed\n"
    "  stex run blur.wgsl --in photo.png --out blurred.png --scale 4\n"
    "  stex run difundir --variant hot --dump-input hot.npy\n"
    "\n"
    "exit status: 0 done (a replay: byte-identical), 1 the device refused\n"
    "(validation or shader error) or a replay differs from its golden,\n"
    "2 usage error, unreadable input or unwritable output, 3 --fail-on-race\n"
    "and the race detector found a race (the outputs are written), 124\n"
    "--timeout ran out, 130 / 143 stopped by SIGINT / SIGTERM (no output\n"
    "written).\n";

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
            printf(", \"default_size\": [%u, %u, 1], \"output_format\": \"%s\", \"input_format\": ",
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

static bool parse_out(const char *cmd, const char *s, void *field)
{
    run_outs *outs = field;
    if (outs->n == RUN_MAX_OUTS) {
        cli_usage(cmd, "--out: at most %d outputs", RUN_MAX_OUTS);
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

/* --constant NAME=VALUE: a pipeline-overridable constant (by name or @id);
 * VALUE a finite number, true or false */
static bool parse_constant(const char *cmd, const char *s, void *field)
{
    run_constants *c = field;
    const char *eq = strchr(s, '=');
    if (c->n == RUN_MAX_CONSTANTS) {
        cli_usage(cmd, "--constant: at most %d constants", RUN_MAX_CONSTANTS);
        return false;
    }
    if (!eq || eq == s || !eq[1] || (size_t)(eq - s) >= sizeof c->keys[0]) {
        cli_usage(cmd, "--constant: '%s' is not NAME=VALUE", s);
        return false;
    }
    char *end;
    errno = 0;
    bool word = !strcmp(eq + 1, "true") || !strcmp(eq + 1, "false");
    double v = word ? !strcmp(eq + 1, "true") : strtod(eq + 1, &end);
    if (!word && (*end || errno || !isfinite(v))) {
        cli_usage(cmd, "--constant: '%s' is not a finite number (or true, false)", eq + 1);
        return false;
    }
    snprintf(c->keys[c->n], sizeof c->keys[0], "%.*s", (int)(eq - s), s);
    c->v[c->n] = (stex_wgsl_override){.name = c->keys[c->n], .value = v};
    c->n++;
    return true;
}

/* --executor: wgsl (wgsl true), jit (wgsl and jit true) or c (false);
 * field is the options' wgsl */
static bool parse_executor(const char *cmd, const char *s, void *field)
{
    if (strcmp(s, "wgsl") && strcmp(s, "c") && strcmp(s, "jit")) {
        cli_usage(cmd, "--executor: unknown executor '%s' (accepted: c, jit, wgsl)", s);
        return false;
    }
    run_opts *o = (run_opts *)(void *)((char *)field - offsetof(run_opts, wgsl));
    o->wgsl = strcmp(s, "c") != 0;
    o->jit = !strcmp(s, "jit");
    return true;
}

/* --golden: exact (false) or allowed (true) */
static bool parse_golden(const char *cmd, const char *s, void *field)
{
    if (strcmp(s, "exact") && strcmp(s, "allowed")) {
        cli_usage(cmd, "--golden: '%s' is not a kind of golden (accepted: exact, allowed)", s);
        return false;
    }
    *(bool *)field = !strcmp(s, "allowed");
    return true;
}

static bool parse_dump_input(const char *cmd, const char *s, void *field)
{
    stex_file_kind kind = stex_file_kind_of(s);
    if (kind != STEX_FILE_BIN && kind != STEX_FILE_NPY) {
        cli_usage(cmd, "--dump-input: '%s' must end in .bin or .npy (the input's exact texels; "
                       "a .png would convert them)", s);
        return false;
    }
    *(const char **)field = s;
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
     .metavar = "S", .help = "workgroup order: in-order (default), reversed,\n"
                             "shuffled; interleaved: shuffled, and inside\n"
                             "each workgroup lock-step groups of seeded widths\n"
                             "take seeded turns between barriers (races inside\n"
                             "a workgroup show)"},
    {.name = "seed", .kind = CLI_U64, .at = AT(seed), .metavar = "N",
     .help = "seed of the shuffled or interleaved schedule\n(default 0); without "
             "--schedule it selects\nshuffled, with another schedule it is refused"},
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
     .help = "run the race detector and report what it finds:\n"
             "the races grouped by their two source sites, an\n"
             "example each, the first racing locations"},
    {.name = "races", .kind = CLI_CUSTOM, .parse = cli_parse_races, .at = AT(races),
     .metavar = "all|N", .help = "list every racing location (all) or the first N\n"
                                 "(default 3) after the groups, in the text and the\n"
                                 "JSON; implies --race-check"},
    {.name = "fail-on-race", .kind = CLI_FLAG, .at = AT(fail_on_race),
     .help = "exit status 3 when the race detector finds a race\n"
             "(for CI); implies --race-check"},
    {.name = "in", .kind = CLI_TEXT, .at = AT(in), .metavar = "FILE",
     .help = "input image (.png, .npy, .bin) instead of the\n"
             "embedded one; FILE.wgsl: its input (.png, .npy)"},
    {.name = "out", .kind = CLI_CUSTOM, .parse = parse_out, .at = AT(outs), .metavar = "FILE",
     .help = "write the output (repeatable; type from the extension)"},
    {.name = "record-allowed", .kind = CLI_FLAG, .at = AT(record),
     .help = "with a .bin output, also write X.bin.inputs (the value\n"
             "last stored to each texel) for `stex compare --tolerance\n"
             "allowed`; runs on one thread"},
    {.name = "golden", .kind = CLI_CUSTOM, .parse = parse_golden, .at = AT(golden_allowed),
     .metavar = "G",
     .help = "exact (default): X.bin is what this profile computes;\n"
             "allowed: also X.bin.allowed, the bounds of every value\n"
             "a conformant device may store (docs/intervals.md), which\n"
             "`stex compare X.bin READBACK` checks; WGSL only"},
    {.name = "constant", .kind = CLI_CUSTOM, .parse = parse_constant, .at = AT(constants),
     .metavar = "NAME=VALUE",
     .help = "FILE.wgsl: a pipeline-overridable constant's value,\nby name or @id "
             "(repeatable); required for an\noverride without a default"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print one JSON summary object"},
    {.name = "executor", .kind = CLI_CUSTOM, .parse = parse_executor, .at = AT(wgsl),
     .metavar = "E", .help = "wgsl (default): the kernel's WGSL (--print-wgsl) and\n"
             "run file (docs/kernels.md) through stex's WGSL\n"
             "interpreter; jit: the same WGSL compiled to native\n"
             "code (LLVM), the interpreter's bytes and races; c:\n"
             "its C version, several times faster, the same\n"
             "bytes for race-free kernels"},
    {.name = "subgroup-size", .kind = CLI_U32, .at = AT(subgroup), .metavar = "N", .min = 1,
     .max = 64, .help = CLI_SUBGROUP_HELP},
    {.name = "max-steps", .kind = CLI_U64, .at = AT(max_steps), .metavar = "N",
     .help = "WGSL: instructions a sub-group may run in one\n"
             "workgroup before a shader error (default 2^32)"},
    {.name = "print-run", .kind = CLI_FLAG, .at = AT(print_run),
     .help = "print the run file the WGSL executor runs (the kernel's\n"
             "src/kernels/wgsl/NAME.json with the options filled in;\n"
             "stex supplies the files input.bin and points.bin) and exit"},
    {.name = "print-wgsl", .kind = CLI_FLAG, .at = AT(print_wgsl),
     .help = "print the kernel's WGSL (every pass) and exit"},
    {.name = "dump-input", .kind = CLI_CUSTOM, .parse = parse_dump_input, .at = AT(dump_input),
     .metavar = "FILE", .help = "also write the input texture exactly as the kernel\n"
                                "starts from it (.bin + sidecar, or .npy)"},
    {.name = "replay", .kind = CLI_TEXT, .at = AT(replay), .metavar = "X.bin.json",
     .help = "make a golden again from its sidecar's record and\n"
             "compare it with X.bin byte for byte (exit 1 if it\n"
             "differs); several threads on a racy kernel may differ,\n"
             "and the replay says so"},
    {.name = "out-dir", .kind = CLI_TEXT, .at = AT(out_dir), .metavar = "DIR",
     .help = "FILE.json, .wgsl: outputs' names start in DIR\n"
             "(made if missing), not the run file's folder"},
    {.name = "force", .kind = CLI_FLAG, .at = AT(force),
     .help = "overwrite a .bin golden made under another\n"
             "profile (refused without it)"},
    {.name = "scale", .kind = CLI_U32, .at = AT(scale), .metavar = "N", .min = 1, .max = 64,
     .help = "FILE.json, .wgsl: each texel of a .png output\n"
             "as NxN pixels (.bin, .npy: as they are)"},
    {.name = "quiet", .short_name = 'q', .kind = CLI_FLAG, .at = AT(quiet),
     .help = "no progress line (a terminal shows one after 2 s)"},
    {.name = "allow-paths", .kind = CLI_CUSTOM, .parse = cli_parse_allow_path, .at = AT(allow),
     .metavar = "DIR", .help = "FILE.json: let the run file name files in DIR too\n"
                               "(repeatable); by default it may name only files in\n"
                               "its own folder (docs/run-files.md)"},
    CLI_TIMEOUT_OPTION,
    {0}};
#undef AT

const cli_spec cli_run_spec = {"run", SYNOPSIS, EPILOGUE, run_options};

/* --record-allowed: the last value stored to each texel of the output.  The
 * run uses one thread, so the observer's calls come in the order the stores
 * reach memory and the last one recorded is the one whose bytes the golden
 * holds. */
typedef struct recorder {
    const cli_program *prog;
    stex_inputs in;
} recorder;

static void record_store(void *user, const stex_texture_view *view, int64_t x, int64_t y,
                         int64_t z, const stex_vec4 *value)
{
    recorder *r = user;
    const stex_view_desc *vd = stex_view_get_desc(view);
    if (!cli_program_is_output(r->prog, stex_view_texture(view)) || vd->base_mip_level != 0 || x < 0 || y < 0 ||
        z < 0 || x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX)
        return;
    uint32_t layer = (uint32_t)z + vd->base_array_layer;
    stex_inputs_set(&r->in, (uint32_t)x, (uint32_t)y, layer, value);
}

/* --golden allowed: what it goes with.  file: a run file (its outputs name
 * the .bin files), else a kernel's or a .wgsl's --out must name one. */
static int check_golden(const cli_args *a, const run_opts *o, bool file)
{
    const char *cmd = "run";
    if (!o->golden_allowed)
        return CLI_OK;
    if (!o->wgsl)
        return cli_usage(cmd, "--golden allowed: the allowed mode runs the kernel's WGSL; drop "
                              "--executor c");
    if (o->record)
        return cli_usage(cmd, "--golden allowed and --record-allowed: the bounds already hold "
                              "every value allowed for each texel; give one of them");
    if (o->replay)
        return cli_usage(cmd, "--golden: not with --replay (the sidecar says how the golden was "
                              "made)");
    if (o->race_check)
        return cli_usage(cmd, "--golden allowed: bounds do not cover a race's outcomes; check "
                              "races without it (stex race, or --race-check alone)");
    bool any_bin = file;
    for (int i = 0; i < o->outs.n; i++)
        any_bin |= stex_file_kind_of(o->outs.path[i]) == STEX_FILE_BIN;
    (void)a;
    return any_bin ? CLI_OK
                   : cli_usage(cmd, "--golden allowed: needs a .bin output (--out X.bin) to "
                                    "write X.bin.allowed beside it");
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
    /* a seed only orders the shuffled and interleaved schedules: alone it
     * asks for the shuffled one */
    if (cli_given(&cli_run_spec, a, "seed")) {
        if (!cli_given(&cli_run_spec, a, "schedule"))
            o->schedule = STEX_SCHEDULE_SHUFFLED;
        else if (o->schedule != STEX_SCHEDULE_SHUFFLED &&
                 o->schedule != STEX_SCHEDULE_INTERLEAVED)
            return cli_usage(cmd, "--seed: a seed orders only the shuffled and interleaved "
                                  "schedules, not %s; drop --seed or give --schedule shuffled",
                             stex_schedule_name(o->schedule));
    }
    if (o->size[0] && o->size[2] != 1)
        return cli_usage(cmd, "--size: the kernels run on 2d textures; give WxH, not '%ux%ux%u'",
                         o->size[0], o->size[1], o->size[2]);
    if (!o->wgsl && (cli_given(&cli_run_spec, a, "subgroup-size") ||
                     cli_given(&cli_run_spec, a, "max-steps")))
        return cli_usage(cmd, "--%s: for the WGSL executor only (the C version runs one "
                              "invocation at a time, as compiled C)",
                         cli_given(&cli_run_spec, a, "subgroup-size") ? "subgroup-size"
                                                                      : "max-steps");
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
/* --in: reads the kernel's input image into `input`, points setup at it and
 * hashes the file (sha, for the sidecar's record).  A replay takes the file
 * its record names (or --in) and refuses one with another SHA-256. */
static int load_input(const run_opts *o, const stex_kernel *k, const run_replay *rp,
                      stex_kernel_setup *setup, stex_image *input, char sha[65])
{
    const char *cmd = "run";
    const char *path = o->in;
    bool has_size = o->size[0] != 0;
    if (k->input_format == STEX_FORMAT_UNDEFINED)
        return cli_usage(cmd, "--in: kernel %s takes no input image", k->name);
    cli_raw_layout raw = {.format = k->input_format, .size = {o->size[0], o->size[1], 1}};
    if (!has_size)
        raw.size[0] = raw.size[1] = 0;
    int rc = cli_read_image(cmd, path, &raw, input, NULL);
    if (rc)
        return rc;
    stex_status st = run_file_sha256(path, sha);
    if (st)
        return cli_fail(cmd, st);
    if (rp && strcmp(sha, rp->input_sha))
        return cli_usage(cmd, "--replay: input '%s' is not the file the golden was made from "
                              "(the sidecar records SHA-256 %.12s..., the file's is %.12s...); "
                              "give the original with --in FILE", path, rp->input_sha, sha);
    if (input->format != k->input_format || input->depth != 1 ||
        (has_size && (input->width != o->size[0] || input->height != o->size[1])))
        return cli_usage(cmd, "--in: '%s' holds %ux%ux%u %s texels, but kernel %s takes a 2d %s "
                              "image%s", path, input->width, input->height, input->depth,
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
static stex_status start_recording(const stex_kernel *k, const cli_program *prog, recorder *rec,
                                   stex_dispatch_options *d)
{
    if (!cli_program_output_is_texture(prog))
        return stex_fail(STEX_INVALID_ARGUMENT, "--record-allowed: kernel %s writes a buffer, "
                                                "not a texture", k->name);
    rec->prog = prog;
    stex_scalar_type scalar = stex_format_get(k->output_format)->scalar;
    stex_status st = stex_inputs_init(&rec->in, scalar, cli_program_width(prog),
                                      cli_program_height(prog), 1);
    d->store_observer = record_store;
    d->store_observer_user = rec;
    return st;
}

/* --dump-input: the input texels the kernel starts from (the embedded
 * input, or --in's), in the copy layout, before anything runs. */
static stex_status dump_input(const run_opts *o, const stex_kernel *k, const cli_program *prog)
{
    const uint8_t *input = cli_program_input(prog);
    if (!input)
        return stex_fail(STEX_INVALID_ARGUMENT, "--dump-input: kernel %s takes no input image",
                         k->name);
    uint32_t w = cli_program_width(prog), h = cli_program_height(prog);
    stex_image img;
    stex_status st = stex_image_init(&img, k->input_format, w, h, 1);
    if (st)
        return st;
    size_t row = (size_t)w * stex_format_get(k->input_format)->bytes;
    for (uint32_t y = 0; y < h; y++)
        memcpy(img.data + (size_t)y * img.bytes_per_row, input + y * row, row);
    stex_io_meta meta = {.kernel = k->name};
    st = stex_write_image(o->dump_input, &img, &meta);
    stex_image_free(&img);
    return st;
}

/* Every --out file, and X.bin.inputs beside each .bin when recording: all
 * of them, or (if one cannot be written) none, every target left as it was.
 * Each sidecar records the run (run_record.c). */
static stex_status write_outputs(const run_opts *o, const stex_kernel *k, const stex_image *out,
                                 const recorder *rec, const char *input_sha,
                                 const stex_bounds *bounds)
{
    char *run = run_record_json(o, k, out->width, out->height, input_sha);
    if (!run)
        return stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
    stex_io_meta meta = {.kernel = k->name, .profile = stex_profile_name(o->profile),
                         .schedule = stex_schedule_name(o->schedule), .seed = o->seed,
                         .has_seed = true, .inputs = o->record ? &rec->in : NULL,
                         .run_json = run, .bounds = bounds};
    stex_status st = stex_write_images((size_t)o->outs.n, o->outs.path, out, &meta);
    free(run);
    return st;
}

/* What a replay found: the output against its golden, byte for byte. */
typedef struct replay_result {
    bool identical;
    uint64_t texels, differing;
} replay_result;

static stex_status compare_with_golden(const run_replay *rp, const stex_image *out,
                                       replay_result *res)
{
    stex_image golden;
    stex_status st = stex_read_bin(rp->golden, &golden, NULL);
    if (st)
        return st;
    stex_compare_result r;
    st = stex_compare(&golden, out, (stex_tolerance){STEX_TOLERANCE_EXACT, 0}, NULL, &r);
    if (st == STEX_INVALID_ARGUMENT)
        stex_fail(st, "--replay: %s holds %ux%ux%u %s texels, the replay made %ux%ux%u %s", rp->golden,
                  golden.width, golden.height, golden.depth, stex_format_name(golden.format),
                  out->width, out->height, out->depth, stex_format_name(out->format));
    else
        st = STEX_OK;
    res->texels = r.texels;
    res->differing = r.differing;
    res->identical = !st && golden.size == out->size && !memcmp(golden.data, out->data, out->size);
    stex_image_free(&golden);
    return st;
}

/* A sidecar's name, "PATH.EXT", appended to the JSON list of files. */
static void json_sidecar(json_t *files, const char *path, const char *ext)
{
    size_t n = strlen(path) + strlen(ext) + 1;
    char *s = malloc(n);
    if (!s)
        return;
    snprintf(s, n, "%s%s", path, ext);
    json_array_append_new(files, cli_json_text(s));
    free(s);
}

static void print_json(const run_opts *o, const stex_kernel *k, const cli_program *p,
                       stex_race_detector *rd, double ms, const run_replay *rp,
                       const replay_result *res, const stex_bounds *bounds)
{
    json_t *files = json_array();
    for (int i = 0; i < o->outs.n; i++) {
        const char *path = o->outs.path[i];
        bool bin = stex_file_kind_of(path) == STEX_FILE_BIN;
        json_array_append_new(files, cli_json_text(path));
        if (bin && o->record)
            json_sidecar(files, path, ".inputs");
        if (bin && o->golden_allowed)
            json_sidecar(files, path, ".allowed");
        if (bin)
            json_sidecar(files, path, ".json");
    }
    json_t *replay = NULL;
    if (rp) {
        replay = json_pack("{s:o, s:b, s:I, s:I, s:b}", "golden", cli_json_text(rp->golden),
                           "identical", res->identical, "texels", (json_int_t)res->texels,
                           "texels_differing", (json_int_t)res->differing, "deterministic",
                           rp->deterministic);
        json_object_set_new(replay, "why_it_may_differ",
                            rp->deterministic ? json_null() : cli_json_text(rp->why_not));
    }
    size_t nsteps;
    const double *steps = cli_program_step_times(p, &nsteps);
    cli_run_report r = {.subject = "kernel", .kernel = k->name,
                        .width = cli_program_width(p), .height = cli_program_height(p),
                        .format = k->output_format, .profile = o->profile,
                        .schedule = o->schedule, .seed = o->seed, .threads = o->threads,
                        .vis = o->vis, .oob = o->oob,
                        .iterations = o->iterations ? o->iterations : 1,
                        .executor = o->wgsl ? "wgsl" : "c",
                        .dispatches = cli_program_dispatches(p), .dispatch_ms = ms,
                        .step_ms = steps, .nsteps = nsteps, .rd = rd,
                        .races_list = o->races, .files = files, .input_dump = o->dump_input,
                        .replay = replay};
    cli_bounds_summary s;
    if (bounds && !cli_bounds_summarize(bounds, &s)) {
        r.allowed = json_array();
        json_array_append_new(r.allowed, cli_bounds_json(k->name, bounds, &s));
    }
    cli_run_report_print(&r);
}

static void print_text(const run_opts *o, const stex_kernel *k, const cli_program *p,
                       stex_race_detector *rd, double ms, const run_replay *rp,
                       const replay_result *res, const stex_bounds *bounds)
{
    uint32_t it = o->iterations ? o->iterations : 1;
    int threads = cli_threads(o->threads);
    printf("%s %ux%u %s: %u dispatch%s in %.3f ms (%s, profile %s, schedule %s, seed %" PRIu64
           ", %d thread%s, visibility %s)\n",
           k->name, cli_program_width(p), cli_program_height(p),
           stex_format_name(k->output_format), it, it > 1 ? "es" : "", ms,
           o->wgsl ? "its WGSL, interpreted" : "its C version", stex_profile_name(o->profile),
           stex_schedule_name(o->schedule), o->seed, threads,
           threads == 1 ? "" : "s", stex_visibility_name(o->vis));
    if (rd)
        cli_races_print(stdout, rd, o->races);
    if (o->dump_input)
        printf("wrote the input to %s%s\n", o->dump_input,
               stex_file_kind_of(o->dump_input) == STEX_FILE_BIN ? " (+ .json sidecar)" : "");
    for (int i = 0; i < o->outs.n; i++)
        printf("wrote %s%s\n", o->outs.path[i],
               stex_file_kind_of(o->outs.path[i]) != STEX_FILE_BIN ? ""
               : o->record ? " (+ .json sidecar, + .inputs)"
               : bounds ? " (+ .json sidecar, + .allowed)" : " (+ .json sidecar)");
    cli_bounds_summary s;
    if (bounds && !cli_bounds_summarize(bounds, &s))
        cli_bounds_print(stdout, k->name, bounds, &s);
    if (!rp)
        return;
    if (res->identical)
        printf("replay of %s: byte-identical (%" PRIu64 " texels)\n", rp->golden, res->texels);
    else
        printf("replay of %s: DIFFERS in %" PRIu64 " of %" PRIu64 " texels\n", rp->golden,
               res->differing, res->texels);
    if (!rp->deterministic)
        printf("note: this replay may differ from the golden: %s\n", rp->why_not);
}

/* --print-run: the kernel's run file for these options, indented. */
static int print_run(const run_opts *o, const stex_kernel *k, const stex_kernel_setup *setup)
{
    cli_program_desc pd = {.kernel = k, .wgsl = true, .setup = *setup, .profile = o->profile};
    cli_program *prog;
    stex_status st = cli_program_create(&pd, &prog);
    if (st)
        return cli_fail("run", st);
    json_t *j = json_loads(cli_program_run_file(prog), 0, NULL);
    char *text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
    if (text)
        puts(text);
    free(text);
    json_decref(j);
    cli_program_destroy(prog);
    return text ? CLI_OK : cli_fail("run", stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
}

/* Creates the kernel, dispatches it, writes the files, prints the summary;
 * a replay (rp) compares the output with its golden. */
static int execute(const run_opts *o, const stex_kernel *k, const stex_kernel_setup *setup,
                   const char *input_sha, const run_replay *rp)
{
    stex_race_detector *rd = NULL;
    int rc = CLI_OK;
    cli_program *prog = NULL;
    cli_program_desc pd = {.kernel = k, .wgsl = o->wgsl, .setup = *setup, .profile = o->profile,
                           .subgroup_width = o->subgroup, .max_steps = o->max_steps,
                           .executor = o->jit ? STEX_WGSL_EXECUTOR_JIT : 0,
                           .progress = o->quiet ? NULL : cli_progress_note};
    recorder rec = {0};
    stex_image out = {0};
    stex_bounds bounds = {0};
    replay_result res = {0};
    stex_status st = STEX_OK;
    stex_race_options ro = {.max_reported = cli_races_keep(o->races, 0)};
    if (o->race_check && (st = stex_race_detector_create(&ro, &rd)))
        goto done;
    if (o->golden_allowed && (st = stex_allowed_create(&pd.allowed)))
        goto done;
    if ((st = cli_program_create(&pd, &prog)))
        goto done;
    if (o->dump_input && (st = dump_input(o, k, prog)))
        goto done;
    stex_dispatch_options d = {.schedule = o->schedule, .seed = o->seed,
                               .threads = (int)o->threads, .visibility = o->vis,
                               .oob_load = o->oob, .profile = stex_profile_get(o->profile),
                               .races = rd, .cancel = cli_cancel()};
    if (o->record && (st = start_recording(k, prog, &rec, &d)))
        goto done;
    cli_progress *line = cli_progress_start(!o->quiet);
    st = cli_program_run(prog, &d);
    cli_progress_stop(line);
    if (!st && stex_cancel_check(d.cancel)) /* a signal after the work: write nothing */
        st = stex_cancel_fail(d.cancel, "the run");
    double ms = cli_program_steps_ms(prog); /* the dispatches, not the setup */
    if (!st && (o->outs.n || rp))
        st = cli_program_image(prog, &out);
    if (!st && o->golden_allowed)
        st = cli_program_bounds(prog, &bounds);
    if (!st && o->outs.n)
        st = write_outputs(o, k, &out, &rec, input_sha, o->golden_allowed ? &bounds : NULL);
    if (!st && rp)
        st = compare_with_golden(rp, &out, &res);
    if (st)
        goto done;
    if (o->json)
        print_json(o, k, prog, rd, ms, rp, &res, o->golden_allowed ? &bounds : NULL);
    else
        print_text(o, k, prog, rd, ms, rp, &res, o->golden_allowed ? &bounds : NULL);
    /* the exit status while the detector is there to ask */
    rc = cli_races_exit(rp && !res.identical ? CLI_REFUSED : CLI_OK, o->fail_on_race, rd);
done:
    stex_image_free(&out);
    stex_bounds_free(&bounds);
    cli_program_destroy(prog);
    stex_allowed_destroy(pd.allowed); /* after the program, whose resources it shadowed */
    stex_race_detector_destroy(rd);
    stex_inputs_free(&rec.in);
    if (st)
        return cli_fail("run", st);
    return rc;
}

static int run_file_or_wgsl(const cli_args *a, run_opts *o, const cli_run_file_opts *fo);

/* KERNEL ending in .json: a run file, with the options that apply to it;
 * ending in .wgsl: a shader with one storage texture (cmd_run_wgsl.c). */
static int run_file(const cli_args *a, run_opts *o)
{
    if (cli_given(&cli_run_spec, a, "seed") && !cli_given(&cli_run_spec, a, "schedule"))
        o->schedule = STEX_SCHEDULE_SHUFFLED;
    if (o->record && o->threads > 1)
        return cli_usage("run", "--record-allowed: runs on one thread (the recorded value of a "
                                "texel must be its last store); drop --threads %u", o->threads);
    if (o->out_dir && (mkdir(o->out_dir, 0777) && errno != EEXIST))
        return cli_fail("run", stex_fail(STEX_IO_ERROR, "--out-dir: cannot make folder '%s': %s",
                                         o->out_dir, strerror(errno)));
    cli_run_file_opts f = {.json = o->json, .race_check = o->race_check,
                           .threads = o->record ? 1 : o->threads, .seed = o->seed,
                           .profile = o->profile, .schedule = o->schedule, .vis = o->vis,
                           .oob = o->oob, .subgroup = o->subgroup, .max_steps = o->max_steps,
                           .executor = o->jit ? STEX_WGSL_EXECUTOR_JIT : 0, .allow = &o->allow, .out_dir = o->out_dir, .force = o->force,
                           .quiet = o->quiet, .record = o->record, .scale = o->scale};
    f.races = o->races;
    f.fail_on_race = o->fail_on_race;
    stex_status st = o->golden_allowed ? stex_allowed_create(&f.allowed) : STEX_OK;
    if (st)
        return cli_fail("run", st);
    int rc = run_file_or_wgsl(a, o, &f);
    stex_allowed_destroy(f.allowed); /* after the run, whose resources it shadowed */
    return rc;
}

/* run_file's second half: which of the two. */
static int run_file_or_wgsl(const cli_args *a, run_opts *o, const cli_run_file_opts *fo)
{
    cli_run_file_opts f = *fo;
    if (!cli_is_wgsl_file(a->value[0])) {
        if (o->constants.n)
            return cli_usage("run", "--constant: only for a WGSL file; a run file gives its "
                                    "pipelines' \"constants\" itself (docs/run-files.md)");
        return cli_run_file(&cli_run_spec, a, &f);
    }
    static const char *const kernel_only[] = {"variant", "print-wgsl",
                                              "print-run", "executor", "replay", "dump-input",
                                              "allow-paths", NULL};
    for (const char *const *k = kernel_only; *k; k++)
        if (cli_given(&cli_run_spec, a, *k))
            return cli_usage("run", "--%s: not for a WGSL file (it runs the shader itself on "
                                    "one texture)", *k);
    if (a->count > 1)
        return cli_usage("run", "unexpected argument '%s' after the WGSL file", a->value[1]);
    if (o->record && !o->outs.n)
        return cli_usage("run", "--record-allowed: needs a .bin output (--out X.bin) to record "
                                "X.bin.inputs beside it");
    return cli_run_wgsl(a->value[0], o->in, o->size, o->iterations, o->outs.path, o->outs.n,
                        o->constants.v, o->constants.n, &f);
}

int cli_run(int argc, char **argv)
{
    run_opts o = {.size = {0, 0, 1}, .profile = STEX_PROFILE_SPEC,
                  .schedule = STEX_SCHEDULE_IN_ORDER, .vis = STEX_VISIBILITY_IMMEDIATE,
                  .oob = STEX_OOB_LOAD_ZERO, .wgsl = true, .races = CLI_RACES_DEFAULT};
    cli_args a;
    const stex_kernel *k = NULL;
    run_replay replay = {0}, *rp = NULL;
    int rc = cli_parse(&cli_run_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    /* asking how races are listed, or to fail on one, asks for the check */
    o.race_check |= o.fail_on_race || cli_given(&cli_run_spec, &a, "races");
    cli_cancel_install();
    if (o.list)
        return list_kernels(o.json);
    bool is_file = a.count >= 1 && (cli_is_run_file(a.value[0]) || cli_is_wgsl_file(a.value[0]));
    if ((rc = check_golden(&a, &o, is_file && cli_is_run_file(a.value[0]))))
        return rc;
    if (is_file)
        return run_file(&a, &o); /* FILE.json, FILE.wgsl: cmd_run_file.c, cmd_run_wgsl.c */
    if (o.constants.n)
        return cli_usage("run", "--constant: only for a WGSL file (the lessons' kernels have "
                                "no overridable constants)");
    if (o.allow.n)
        return cli_usage("run", "--allow-paths: only for a run file (FILE.json); a kernel's "
                                "files are the ones its options name");
    static const char *const file_only[] = {"out-dir", "scale", NULL};
    for (const char *const *f = file_only; *f; f++)
        if (cli_given(&cli_run_spec, &a, *f))
            return cli_usage("run", "--%s: for a run file or a .wgsl file (a kernel's --out "
                                    "names each file itself)", *f);
    if (o.replay) {
        rp = &replay;
        rc = run_replay_load(&cli_run_spec, &a, &o, &k, rp);
        if (rp->handled) { /* a run file's or a .wgsl's golden (run_file_replay.c) */
            if (!rc)
                rc = cli_replay_file(o.replay, rp->file_record, o.json, o.quiet);
            run_replay_free(&replay);
            return rc;
        }
        if (!rc && rp->input_path && !o.in && access(rp->input_path, F_OK))
            rc = cli_usage("run", "--replay: the golden was made from input '%s', which is not "
                                  "there (run from the folder it was made in, or give the file "
                                  "with --in FILE)", rp->input_path);
        else if (!rc && rp->input_path && !o.in)
            o.in = rp->input_path;
        else if (!rc && !rp->input_path && o.in)
            rc = cli_usage("run", "--in: the golden was made from kernel %s's own input, not a "
                                  "file; drop --in", k->name);
    } else {
        rc = check_options(&a, &o, &k);
    }
    for (int i = 0; !rc && !o.print_wgsl && !o.print_run && i < o.outs.n; i++)
        rc = cli_check_golden_profile(o.outs.path[i], o.profile, o.force);
    if (rc) {
        run_replay_free(&replay);
        return rc;
    }
    if (o.print_wgsl) {
        run_print_wgsl(stdout, k);
        return CLI_OK;
    }
    stex_kernel_setup setup = {.width = o.size[0], .height = o.size[1],
                               .iterations = o.iterations, .variant = o.variant};
    stex_image input = {0};
    char input_sha[65] = "";
    if (!o.in || !(rc = load_input(&o, k, rp, &setup, &input, input_sha)))
        rc = o.print_run ? print_run(&o, k, &setup)
                         : execute(&o, k, &setup, o.in ? input_sha : NULL, rp);
    stex_image_free(&input);
    run_replay_free(&replay);
    return rc;
}
