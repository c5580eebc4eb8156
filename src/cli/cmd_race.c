/* stex race: run a kernel under many seeded schedules, count the distinct
 * outputs, ask the race detector which texels race, and draw both. */
#include "cli/cli_kernel.h"
#include "cli/program.h"
#include "cli/race_picture.h"
#include "cli/race_why.h"
#include "cli/race_html.h"
#include "cli/cmd_run_file.h"
#include "cli/race_output.h"
#include "cli/run_json.h"

#include <jansson.h>

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char SYNOPSIS[] =
    "usage: stex race KERNEL [OPTIONS]\n"
    "       stex race FILE.json [OPTIONS]   (a run file: its first output compared)\n"
    "       stex race FILE.wgsl [--size WxH] [--iterations N] [OPTIONS]\n"
    "\n"
    "Runs KERNEL --runs times, each under a seeded schedule (seeds S, S+1, ...;\n"
    "interleaved by default: workgroups shuffled, and inside each workgroup\n"
    "lock-step groups of seeded widths taking seeded turns between barriers, so\n"
    "races inside a workgroup show too), counts how many distinct outputs\n"
    "appear, and runs the race detector once (its verdict does not depend on\n"
    "the schedule); races found in runs that all agree are explained. The picture\n"
    "shows two runs that differ side by side and a heat map of the texels that\n"
    "differ between runs (dark red = a small difference, yellow = the largest; in\n"
    "the format's units, log scale) and of those the detector flagged but that\n"
    "happened to agree (blue); captions in the picture say which seeds, how many\n"
    "dispatches, the scale, and when a run is degenerate (every texel the same).\n"
    "For the diffusion lessons (difundir*) the report gives each run's total heat\n"
    "(the sum of its texel values), which a racy diffusion does not conserve.\n";

static const char EPILOGUE[] =
    "numbers are decimal (no 0x, no leading zero).\n"
    "\n"
    "examples:\n"
    "  stex race difundir --runs 20 --png race.png\n"
    "  stex race difundir --variant hot --iterations 40 --size 64x64 --png hot.png\n"
    "  stex race difundir --variant hot --iterations 8 --size 32x32 \\\n"
    "             --frames f.png --scale 6\n"
    "  stex race difundir-pingpong --runs 20   # the fix: 1 distinct output, 0 races\n"
    "  stex race difundir --size 64x64 --runs 50 --threads 2 --json\n"
    "  stex race difundir --size 32x32 --executor c  # the C version\n"
    "  stex race examples/run/race.json --runs 10    # a run file\n"
    "  stex race difundir --size 32x32 --iterations 8 --html race.html  # one page\n"
    "  stex race tests/data/race-shaders/reduce.json --races all --fail-on-race\n"
    "\n"
    "exit status: 0 done (races or not, without --fail-on-race), 1 the device\n"
    "refused, 2 usage error or unwritable output, 3 --fail-on-race and the\n"
    "race detector found a race, 124 --timeout ran out, 130 / 143 SIGINT /\n"
    "SIGTERM.\n";

typedef struct race_opts {
    uint32_t runs, threads, size[3], iterations; /* size[0] == 0: the kernel's own */
    uint64_t seed;
    const char *variant;
    cli_race_picture pic;
    stex_visibility vis;
    bool json, c; /* c: --executor c */
    uint32_t subgroup;  /* --subgroup-size (WGSL) */
    stex_schedule schedule; /* --schedule: interleaved (default) or shuffled */
    uint64_t max_steps; /* --max-steps (WGSL) */
    cli_allow_paths allow; /* --allow-paths DIR (a run file) */
    uint64_t races;        /* --races all|N: racing locations listed (race_output.h) */
    bool fail_on_race;     /* --fail-on-race: exit status 3 on a race */
} race_opts;

/* --html FILE: a name ending in .html or .htm */
static bool parse_html(const char *cmd, const char *s, void *field)
{
    size_t n = strlen(s);
    if (!((n > 5 && !strcmp(s + n - 5, ".html")) || (n > 4 && !strcmp(s + n - 4, ".htm")))) {
        cli_usage(cmd, "--html: '%s' must end in .html", s);
        return false;
    }
    *(const char **)field = s;
    return true;
}

/* --schedule: the seeded schedules, interleaved (default) or shuffled */
static bool parse_race_schedule(const char *cmd, const char *s, void *field)
{
    stex_schedule *out = field;
    if (!stex_schedule_from_name(s, out) ||
        (*out != STEX_SCHEDULE_SHUFFLED && *out != STEX_SCHEDULE_INTERLEAVED)) {
        cli_usage(cmd, "--schedule: '%s' is not a seeded schedule (accepted: interleaved, "
                       "shuffled)", s);
        return false;
    }
    return true;
}

/* --executor: wgsl (default) or c */
static bool parse_executor(const char *cmd, const char *s, void *field)
{
    if (strcmp(s, "wgsl") && strcmp(s, "c")) {
        cli_usage(cmd, "--executor: unknown executor '%s' (accepted: wgsl, c)", s);
        return false;
    }
    *(bool *)field = !strcmp(s, "c");
    return true;
}

#define AT(field) offsetof(race_opts, field)
static const cli_option race_options[] = {
    {.name = "runs", .kind = CLI_U32, .at = AT(runs), .metavar = "N", .min = 1, .max = 100000,
     .help = "how many runs (default 20)"},
    {.name = "threads", .kind = CLI_U32, .at = AT(threads), .metavar = "T", .min = 1,
     .max = 1024, .help = "OpenMP threads (default: all cores)"},
    {.name = "size", .kind = CLI_SIZE, .at = AT(size), .metavar = "WxH",
     .help = "texture size (default: the kernel's own)"},
    {.name = "seed", .kind = CLI_U64, .at = AT(seed), .metavar = "S",
     .help = "first seed (default 1)"},
    {.name = "iterations", .kind = CLI_U32, .at = AT(iterations), .metavar = "N", .min = 1,
     .max = 100000, .help = "dispatches per run (default 1)"},
    {.name = "variant", .kind = CLI_CUSTOM, .parse = cli_parse_variant, .at = AT(variant),
     .metavar = "V", .help = "difundir input: random (default) or hot"},
    {.name = "visibility", .kind = CLI_CUSTOM, .parse = cli_parse_visibility, .at = AT(vis),
     .metavar = "V", .help = "immediate (default) or snapshot"},
    {.name = "png", .kind = CLI_CUSTOM, .parse = cli_parse_png, .at = AT(pic.png),
     .metavar = "FILE", .help = "write the picture: two runs on one intensity scale, the\n"
                                "heat map of the differences, captions"},
    {.name = "frames", .kind = CLI_CUSTOM, .parse = cli_parse_png, .at = AT(pic.frames),
     .metavar = "FILE", .help = "write the first run one frame per dispatch (a .png\n"
                                "strip, 8 frames a row, one scale; at most 64); one\n"
                                "dispatch: a frame per barrier phase of each workgroup"},
    {.name = "html", .kind = CLI_CUSTOM, .parse = parse_html, .at = AT(pic.html),
     .metavar = "FILE", .help = "write the HTML race report: one page with no network\n"
                                "(the source with its racing lines, the runs side by\n"
                                "side, a frame per dispatch, click a texel for its\n"
                                "races; docs/guide.md)"},
    {.name = "scale", .kind = CLI_U32, .at = AT(pic.scale), .metavar = "N", .min = 1, .max = 64,
     .help = "pixels per texel in the pictures (default: 4 below 64\n"
             "texels, 2 below 128, else 1)"},
    {.name = "executor", .kind = CLI_CUSTOM, .parse = parse_executor, .at = AT(c),
     .metavar = "E", .help = "wgsl (default): the kernel's WGSL and run file through\n"
                             "stex's interpreter; c: its C version"},
    {.name = "subgroup-size", .kind = CLI_U32, .at = AT(subgroup), .metavar = "N", .min = 1,
     .max = 64, .help = CLI_SUBGROUP_HELP},
    {.name = "schedule", .kind = CLI_CUSTOM, .parse = parse_race_schedule, .at = AT(schedule),
     .metavar = "S", .help = "interleaved (default): workgroups shuffled, and inside\n"
                             "each, lock-step groups of seeded widths (1, 2, 4, ...\n"
                             "up to --subgroup-size) take seeded turns between\n"
                             "barriers; shuffled: only the workgroups' order varies"},
    {.name = "max-steps", .kind = CLI_U64, .at = AT(max_steps), .metavar = "N",
     .help = "WGSL: instructions a sub-group may run in one\n"
             "workgroup before a shader error (default 2^32)"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print one JSON object"},
    {.name = "races", .kind = CLI_CUSTOM, .parse = cli_parse_races, .at = AT(races),
     .metavar = "all|N", .help = "list every racing location (all) or the first N\n"
                                 "(default 3) after the groups, in the text and the\n"
                                 "JSON"},
    {.name = "fail-on-race", .kind = CLI_FLAG, .at = AT(fail_on_race),
     .help = "exit status 3 when the race detector finds a race\n(for CI)"},
    {.name = "allow-paths", .kind = CLI_CUSTOM, .parse = cli_parse_allow_path, .at = AT(allow),
     .metavar = "DIR", .help = "FILE.json: let the run file name files in DIR too\n"
                               "(repeatable); by default it may name only files in\n"
                               "its own folder (docs/run-files.md)"},
    CLI_TIMEOUT_OPTION,
    {0}};
#undef AT

const cli_spec cli_race_spec = {"race", SYNOPSIS, EPILOGUE, race_options};

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static void progress(int done, int total)
{
    int width = 30, fill = total ? done * width / total : width;
    fprintf(stderr, "\r  run %d/%d [", done, total);
    for (int i = 0; i < width; i++)
        fputc(i < fill ? '#' : '.', stderr);
    fputc(']', stderr);
    if (done == total)
        fputs("\r\033[K", stderr);
    fflush(stderr);
}

void cli_print_race(FILE *f, const char *indent, const stex_race *r)
{
    char where[320]; /* in WGSL's terms: "data[17] (@group(0) @binding(0))", "part[1] ..." */
    fprintf(f, "%s%s: %s race between workgroup (%u,%u,%u) "
               "invocation (%u,%u,%u) [%s%s%s] and workgroup (%u,%u,%u) invocation (%u,%u,%u) "
               "[%s%s%s]\n",
            indent, stex_race_location_text(r, where, sizeof where), stex_race_kind_name(r->kind),
            r->a.workgroup_id[0], r->a.workgroup_id[1], r->a.workgroup_id[2],
            r->a.local_invocation_id[0], r->a.local_invocation_id[1], r->a.local_invocation_id[2],
            stex_race_access_name(r->a.access), r->a.source ? " at " : "",
            r->a.source ? r->a.source : "", r->b.workgroup_id[0], r->b.workgroup_id[1],
            r->b.workgroup_id[2], r->b.local_invocation_id[0], r->b.local_invocation_id[1],
            r->b.local_invocation_id[2], stex_race_access_name(r->b.access),
            r->b.source ? " at " : "", r->b.source ? r->b.source : "");
}

/* Raises differs[texel] to how far `cur` is from `first` there; true if
 * any texel differs. */
static bool note_differences(const stex_image *first, const stex_image *cur, uint64_t *differs)
{
    bool any = false;
    for (uint32_t y = 0; y < cur->height; y++)
        for (uint32_t x = 0; x < cur->width; x++) {
            const uint8_t *a = stex_image_texel(first, x, y, 0), *b = stex_image_texel(cur, x, y, 0);
            uint64_t d = stex_texel_diff(cur->format, a, b);
            if (d == 0 && memcmp(a, b, stex_format_get(cur->format)->bytes))
                d = 1; /* +0 against -0 */
            uint64_t *slot = &differs[(size_t)y * cur->width + x];
            if (d > *slot)
                *slot = d;
            any |= d != 0;
        }
    return any;
}

/* The sum of every channel of every texel (spec profile): a run's total
 * heat, for difundir's one channel. */
static double heat_of(const stex_image *img)
{
    const stex_format_info *fi = stex_format_get(img->format);
    double sum = 0;
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++) {
            stex_vec4 v;
            if (stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), img->format,
                                  stex_image_texel(img, x, y, 0), &v))
                continue;
            for (unsigned c = 0; c < fi->channels; c++)
                sum += fi->scalar == STEX_SCALAR_U32 ? v.u[c]
                     : fi->scalar == STEX_SCALAR_I32 ? v.i[c] : (double)v.f[c];
        }
    return sum;
}

/* Degenerate: every texel holds the same bytes (nothing left to see). */
static bool is_flat(const stex_image *img)
{
    unsigned n = stex_format_get(img->format)->bytes;
    const uint8_t *t0 = stex_image_texel(img, 0, 0, 0);
    for (uint32_t y = 0; y < img->height; y++)
        for (uint32_t x = 0; x < img->width; x++)
            if (memcmp(stex_image_texel(img, x, y, 0), t0, n))
                return false;
    return true;
}

/* "0" or "(0.5, 1, 0, 1)": texel (0, 0)'s value, for "every texel is ...". */
static void texel_text(const stex_image *img, char *buf, size_t n)
{
    const stex_format_info *fi = stex_format_get(img->format);
    stex_vec4 v;
    size_t k = 0;
    buf[0] = '\0';
    if (stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), img->format,
                          stex_image_texel(img, 0, 0, 0), &v))
        return;
    for (unsigned c = 0; c < fi->channels && k < n; c++) {
        const char *sep = fi->channels == 1 ? "" : c ? ", " : "(";
        if (fi->scalar == STEX_SCALAR_U32)
            k += (size_t)snprintf(buf + k, n - k, "%s%" PRIu32, sep, v.u[c]);
        else if (fi->scalar == STEX_SCALAR_I32)
            k += (size_t)snprintf(buf + k, n - k, "%s%" PRId32, sep, v.i[c]);
        else
            k += (size_t)snprintf(buf + k, n - k, "%s%.6g", sep, (double)v.f[c]);
    }
    if (fi->channels > 1 && k < n)
        snprintf(buf + k, n - k, ")");
}

/* The input's total heat: a kernel's input texels decoded. */
static bool input_heat(const stex_kernel *k, const cli_program *p, double *heat)
{
    const uint8_t *input = cli_program_input(p);
    uint32_t w = cli_program_width(p), h = cli_program_height(p);
    stex_image img;
    if (!k || !input || stex_image_init(&img, k->input_format, w, h, 1))
        return false;
    size_t row = (size_t)w * stex_format_get(k->input_format)->bytes;
    for (uint32_t y = 0; y < h; y++)
        memcpy(img.data + (size_t)y * img.bytes_per_row, input + y * row, row);
    *heat = heat_of(&img);
    stex_image_free(&img);
    return true;
}

/* " - degenerate: every texel is 0" when the image is flat, else "". */
static void degenerate_note(const stex_image *img, char *buf, size_t n)
{
    char v[96];
    buf[0] = '\0';
    if (!is_flat(img))
        return;
    texel_text(img, v, sizeof v);
    snprintf(buf, n, " - degenerate: every texel is %s", v);
}

/* pic->png: run A | run B | heat map on one scale, and what they show. */
static stex_status draw_runs(const cli_race_picture *pic, const stex_image *a,
                             const stex_image *b, const cli_race_summary *s, uint32_t runs,
                             uint32_t threads, uint64_t seed0, const uint64_t *differs,
                             const uint8_t *flagged)
{
    const stex_image *both[2] = {a, b};
    race_scale range = race_scale_of(both, 2);
    char note_a[128], note_b[128], caption[1024];
    degenerate_note(a, note_a, sizeof note_a);
    degenerate_note(b, note_b, sizeof note_b);
    int t = cli_threads(threads);
    snprintf(caption, sizeof caption,
             "left: seed %" PRIu64 "%s. middle: seed %" PRIu64 "%s%s. %u dispatch%s per run, "
             "%d thread%s.\n"
             "both runs on one scale: black = %.6g, white = %.6g.\n"
             "right: texels that differ between the %u runs, dark red (small) to yellow "
             "(largest). blue: flagged by the race detector, equal in every run.",
             seed0, note_a, s->other_seed, note_b, s->other_differs ? "" : " (no run differed)",
             s->iterations, s->iterations == 1 ? "" : "es", t, t == 1 ? "" : "s", range.lo,
             range.hi, runs);
    race_drawing d = {.images = both, .count = 2, .columns = 3,
                      .scale = pic->scale ? pic->scale : race_auto_scale(a->width),
                      .range = range, .differs = differs, .flagged = flagged,
                      .caption = caption};
    return race_draw_png(pic->png, &d);
}

/* A buffer output (one row of n elements) as a grid of gw x gh, row by
 * row, so that a picture shows it (one texel high it was a line). */
static stex_status grid_image(const stex_image *in, uint32_t gw, uint32_t gh, stex_image *out)
{
    stex_status st = stex_image_init(out, in->format, gw, gh, 1);
    size_t bytes = stex_format_get(in->format)->bytes;
    for (uint32_t i = 0; !st && i < in->width; i++)
        memcpy(stex_image_texel(out, i % gw, i / gw, 0), stex_image_texel(in, i, 0, 0), bytes);
    return st;
}

/* draw_runs, a buffer output laid out as a grid first (its differences and
 * flags with it: element i lands at index i of the grid either way). */
static stex_status draw_buffer_runs(const cli_race_picture *pic, const stex_image *a,
                                    const stex_image *b, const cli_race_summary *s,
                                    uint32_t runs, uint32_t threads, uint64_t seed0,
                                    const uint64_t *differs, const uint8_t *flagged)
{
    uint32_t n = a->width, gw = 1;
    while ((uint64_t)gw * gw < n)
        gw++;
    uint32_t gh = (n + gw - 1) / gw;
    stex_image ga = {0}, gb = {0};
    uint64_t *gd = calloc((size_t)gw * gh, sizeof *gd);
    uint8_t *gf = calloc((size_t)gw * gh, 1);
    stex_status st = !gd || !gf ? stex_fail(STEX_OUT_OF_MEMORY, "race: out of memory") : STEX_OK;
    if (!st && !(st = grid_image(a, gw, gh, &ga)) && !(st = grid_image(b, gw, gh, &gb))) {
        memcpy(gd, differs, n * sizeof *gd);
        memcpy(gf, flagged, n);
        st = draw_runs(pic, &ga, &gb, s, runs, threads, seed0, gd, gf);
    }
    stex_image_free(&ga);
    stex_image_free(&gb);
    free(gd);
    free(gf);
    return st;
}

/* --html: distinct outputs kept, each drawn beside the others. */
enum { HTML_OUTPUTS = 4 };
static stex_status write_html(cli_program *prog, uint64_t seed, stex_schedule schedule,
                              uint32_t threads, stex_visibility vis, const char *path,
                              race_html_data *hd);

/* The frames collected while run A runs again. */
typedef struct frame_list {
    stex_image *frames;
    uint32_t count, max, flat_from;
} frame_list;

static stex_status keep_frame(void *user, const stex_image *img)
{
    frame_list *f = user;
    if (f->count == f->max)
        return stex_fail(STEX_INVALID_ARGUMENT, "--frames: at most %u frames", f->max);
    stex_image *dst = &f->frames[f->count];
    stex_status st = stex_image_init(dst, img->format, img->width, img->height, img->depth);
    if (st)
        return st;
    memcpy(dst->data, img->data, img->size);
    f->count++;
    if (!f->flat_from && is_flat(dst))
        f->flat_from = f->count;
    return STEX_OK;
}

/* pic->frames: run A again, a frame after each iteration (a run file: each
 * step that dispatches). */
/* One dispatch: a frame at the end of each barrier phase of each workgroup
 * instead, so the pictures show the race inside the dispatch.  Past 63
 * frames every other one is dropped and the step doubles: the frames stay
 * evenly spread, and the last one is the dispatch's end. */
typedef struct phase_list {
    frame_list f;
    char (*labels)[80];
    uint64_t seen, step;
} phase_list;
static stex_status run_phase_frames(cli_program *prog, const stex_dispatch_options *o,
                                    phase_list *pl);

static stex_status draw_frames(cli_program *prog, uint64_t seed, stex_schedule schedule,
                               uint32_t threads, stex_visibility vis,
                               const cli_race_picture *pic, bool phases)
{
    frame_list f = {.frames = calloc(64, sizeof(stex_image)), .max = 64};
    const stex_image **list = calloc(64, sizeof *list);
    phase_list pl = {.labels = calloc(64, 80), .step = 1};
    stex_dispatch_options o = {.schedule = schedule, .seed = seed,
                               .threads = (int)threads, .visibility = vis,
                               .cancel = cli_cancel()};
    stex_status st = STEX_OK;
    if (!f.frames || !list || !pl.labels) {
        st = stex_fail(STEX_OUT_OF_MEMORY, "race: out of memory");
    } else if (phases) {
        pl.f = f;
        st = run_phase_frames(prog, &o, &pl);
        f = pl.f;
    } else {
        st = cli_program_run_frames(prog, &o, keep_frame, &f);
    }
    free(pl.labels);
    if (!st && f.count == 0)
        st = stex_fail(STEX_INVALID_ARGUMENT, "--frames: nothing was dispatched");
    if (!st) {
        for (uint32_t i = 0; i < f.count; i++)
            list[i] = &f.frames[i];
        race_scale range = race_scale_of(list, f.count);
        char caption[512], flat[160] = "";
        if (f.flat_from) {
            char v[96];
            texel_text(&f.frames[f.flat_from - 1], v, sizeof v);
            snprintf(flat, sizeof flat, " degenerate from dispatch %u: every texel is %s.",
                     f.flat_from, v);
        }
        if (phases)
            snprintf(caption, sizeof caption,
                     "seed %" PRIu64 ", one dispatch on one thread: the output at the end of "
                     "each barrier phase of each workgroup as the schedule ran them%s, then "
                     "the dispatch done; left to right, then down. one scale: black = %.6g, "
                     "white = %.6g.", seed, pl.step > 1 ? " (every other one dropped until "
                     "they fit)" : "", range.lo, range.hi);
        else
            snprintf(caption, sizeof caption,
                     "seed %" PRIu64 ", dispatches 1 to %u, left to right, then down. one "
                     "scale: black = %.6g, white = %.6g.%s", seed, f.count, range.lo, range.hi,
                     flat);
        race_drawing d = {.images = list, .count = f.count, .columns = 8,
                          .scale = pic->scale ? pic->scale : race_auto_scale(f.frames[0].width),
                          .range = range, .caption = caption};
        st = race_draw_png(pic->frames, &d);
    }
    for (uint32_t i = 0; f.frames && i < f.count; i++)
        stex_image_free(&f.frames[i]);
    free(f.frames);
    free(list);
    return st;
}

stex_status cli_race_study(const cli_program_desc *pd, uint32_t runs, uint64_t seed0,
                           stex_schedule schedule, uint32_t threads, stex_visibility vis,
                           const cli_race_picture *pic, bool bar, cli_race_summary *out)
{
    memset(out, 0, sizeof *out);
    cli_program *prog = NULL;
    stex_race_detector *rd = NULL;
    stex_image first = {0}, other = {0}, cur = {0};
    stex_image kept[HTML_OUTPUTS] = {{0}}; /* --html: the first distinct outputs */
    uint32_t nkept = 0;
    uint64_t *differs = NULL;
    uint8_t *flagged = NULL;
    stex_status st;
    if ((st = cli_program_create(pd, &prog)))
        goto done;
    uint32_t w = 0, h = 0; /* the output's, from the first run */
    out->iterations = pd->kernel && pd->setup.iterations ? pd->setup.iterations : 1;
    out->other_seed = seed0;
    out->has_input_heat = input_heat(pd->kernel, prog, &out->input_heat);
    /* races kept in detail: enough for every texel of a kernel to be flagged */
    uint64_t texels = pd->kernel ? (uint64_t)cli_program_width(prog) * cli_program_height(prog)
                                 : 1u << 17;
    stex_race_options ro = {.max_reported = cli_races_keep(pic && pic->races_report ? pic->races
                                                                                    : 0,
                                                            texels * 2 + 16)};
    if ((st = stex_race_detector_create(&ro, &rd)))
        goto done;
    out->seen = calloc(runs, sizeof *out->seen);
    out->heat = calloc(runs, sizeof *out->heat);
    if (!out->seen || !out->heat) {
        st = stex_fail(STEX_OUT_OF_MEMORY, "race: out of memory");
        goto done;
    }
    for (uint32_t r = 0; r < runs; r++) {
        if (bar)
            progress((int)r, (int)runs);
        /* The detector watches the first run only: its verdict is the same
         * under every schedule. */
        stex_dispatch_options o = {.schedule = schedule, .seed = seed0 + r,
                                   .threads = (int)threads, .visibility = vis,
                                   .races = r == 0 ? rd : NULL, .cancel = cli_cancel()};
        if ((st = cli_program_run(prog, &o)))
            goto done;
        if ((st = cli_program_image(prog, &cur)))
            goto done;
        if (r == 0) {
            w = out->width = cur.width;
            h = out->height = cur.height;
            out->format = cur.format;
            if (!pd->kernel)
                out->iterations = (uint32_t)cli_program_dispatches(prog);
            differs = calloc((size_t)w * h, sizeof *differs);
            flagged = calloc((size_t)w * h, 1);
            if (!differs || !flagged) {
                st = stex_fail(STEX_OUT_OF_MEMORY, "race: out of memory");
                goto done;
            }
        }
        out->heat[r] = heat_of(&cur);
        uint64_t hash = fnv1a(cur.data, cur.size);
        uint32_t i = 0;
        while (i < out->distinct && out->seen[i].hash != hash)
            i++;
        if (i == out->distinct) {
            out->seen[out->distinct++] = (cli_race_output){hash, 0, seed0 + r, out->heat[r],
                                                           is_flat(&cur)};
            if (pic && pic->html && nkept < HTML_OUTPUTS &&
                !(st = stex_image_init(&kept[nkept], cur.format, cur.width, cur.height, 1)))
                memcpy(kept[nkept++].data, cur.data, cur.size);
            if (st)
                goto done;
        }
        out->seen[i].runs++;
        if (r == 0) {
            first = cur;
            memset(&cur, 0, sizeof cur);
            continue;
        }
        bool any = note_differences(&first, &cur, differs);
        if (any && !other.data) {
            other = cur;
            out->other_seed = seed0 + r;
            out->other_differs = true;
            memset(&cur, 0, sizeof cur);
        } else {
            stex_image_free(&cur);
        }
    }
    if (bar)
        progress((int)runs, (int)runs);
    for (size_t i = 0; i < stex_race_reported(rd); i++) {
        const stex_race *rr = stex_race_get(rd, i);
        out->reported++;
        out->same_workgroup += rr->same_workgroup;
        if (i < 3) {
            stex_race *ex = &out->example[out->examples];
            *ex = *rr;
            stex_race_party *party[2] = {&ex->a, &ex->b};
            for (int k = 0; k < 2; k++)
                if (party[k]->source) {
                    snprintf(out->example_source[out->examples][k], 160, "%s",
                             party[k]->source);
                    party[k]->source = out->example_source[out->examples][k];
                }
            if (ex->name) { /* the detector's text goes with it */
                snprintf(out->example_name[out->examples], 160, "%s", ex->name);
                ex->name = out->example_name[out->examples];
            }
            out->examples++;
        }
        /* a texel or element of the output itself, not of another
         * texture or buffer the shader also races on */
        if (!cli_program_race_on_output(prog, rr))
            continue;
        if (rr->memory == STEX_RACE_MEMORY_TEXTURE && rr->coord[0] < w && rr->coord[1] < h)
            flagged[(size_t)rr->coord[1] * w + rr->coord[0]] = 1;
        uint32_t bytes = stex_format_get(out->format)->bytes;
        if (rr->memory == STEX_RACE_MEMORY_BUFFER && bytes && rr->word * 4 / bytes < (uint64_t)w * h)
            flagged[rr->word * 4 / bytes] = 1; /* a buffer's elements, row by row */
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        out->texels_differing += differs[i] != 0;
        out->flagged += flagged[i];
        out->both += differs[i] && flagged[i];
    }
    out->write_write = stex_race_count(rd, STEX_RACE_WRITE_WRITE);
    out->read_write = stex_race_count(rd, STEX_RACE_READ_WRITE);
    out->races = stex_race_count(rd, STEX_RACE_ANY);
    if (pic && pic->races_report) { /* the report, before the detector goes */
        size_t len;
        FILE *mf = open_memstream(&out->races_text, &len);
        if (mf) {
            cli_races_print(mf, rd, pic->races);
            fclose(mf);
        }
        out->races_json = cli_races_json(rd, pic->races);
        if (!mf || !out->races_text || !out->races_json)
            st = stex_fail(STEX_OUT_OF_MEMORY, "race: out of memory for the race report");
    }
    if (pic && pic->png)
        st = (!cli_program_output_is_texture(prog) && h == 1 && w > 16 ? draw_buffer_runs
                                                                          : draw_runs)(
            pic, &first, other.data ? &other : &first, out, runs, threads, seed0, differs,
            flagged);
    if (!st && pic && pic->frames)
        st = draw_frames(prog, seed0, schedule, threads, vis, pic, out->iterations == 1);
    if (!st && pic && pic->html) {
        race_html_image imgs[HTML_OUTPUTS];
        for (uint32_t k = 0; k < nkept; k++)
            imgs[k] = (race_html_image){&kept[k], out->seen[k].first_seed, out->seen[k].runs};
        const char *name = pd->kernel ? pd->kernel->name : pd->path;
        char main_source[256];
        snprintf(main_source, sizeof main_source, "%s%s", name, pd->kernel ? ".wgsl" : "");
        race_html_data hd = {.name = name, .s = out, .runs = runs,
                             .threads = (uint32_t)cli_threads(threads), .seed0 = seed0,
                             .buffer_output = !cli_program_output_is_texture(prog),
                             .images = imgs, .image_count = nkept, .differs = differs,
                             .flagged = flagged, .rd = rd, .kernel = pd->kernel != NULL,
                             .base_dir = pd->base_dir,
                             .main_source = pd->kernel || cli_is_wgsl_file(name) ? main_source
                                                                                 : NULL,
                             /* the page's button runs the same run file on its GPU */
                             .run_json = pd->kernel ? cli_program_run_file(prog) : pd->json,
                             .input = cli_program_input(prog),
                             .input_size = pd->kernel && pd->kernel->input_format
                                 ? (size_t)cli_program_width(prog) * cli_program_height(prog) *
                                       stex_format_get(pd->kernel->input_format)->bytes
                                 : 0};
        st = write_html(prog, seed0, schedule, threads, vis, pic->html, &hd);
    }
done:
    for (uint32_t k = 0; k < nkept; k++)
        stex_image_free(&kept[k]);
    stex_image_free(&first);
    stex_image_free(&other);
    stex_image_free(&cur);
    free(differs);
    free(flagged);
    stex_race_detector_destroy(rd);
    cli_program_destroy(prog);
    if (st) { /* nothing of the summary outlives a failure */
        free(out->seen);
        free(out->heat);
        free(out->races_text);
        json_decref(out->races_json);
        out->seen = NULL;
        out->heat = NULL;
        out->races_text = NULL;
        out->races_json = NULL;
    }
    return st;
}

/* --html: the page, with the first run again a frame per dispatch (at
 * most 64 frames: the rest are counted, not kept). */
static stex_status keep_html_frame(void *user, const stex_image *img)
{
    frame_list *f = user;
    return f->count < f->max ? keep_frame(user, img) : STEX_OK;
}

static stex_status keep_phase_frame(void *user, const stex_image *img, const uint32_t wg[3],
                                    uint32_t phase, bool last)
{
    phase_list *pl = user;
    if (pl->seen++ % pl->step)
        return STEX_OK;
    if (pl->f.count == pl->f.max - 1) { /* keep 0, 2, 4, ...; room for the end */
        uint32_t k = 0;
        for (uint32_t i = 0; i < pl->f.count; i++) {
            if (i % 2) {
                stex_image_free(&pl->f.frames[i]);
                continue;
            }
            pl->f.frames[k] = pl->f.frames[i];
            memcpy(pl->labels[k++], pl->labels[i], sizeof *pl->labels);
        }
        pl->f.count = k;
        pl->step *= 2;
        if ((pl->seen - 1) % pl->step)
            return STEX_OK;
    }
    snprintf(pl->labels[pl->f.count], sizeof *pl->labels,
             last && !phase ? "after workgroup (%u, %u, %u)"
                 : last ? "after workgroup (%u, %u, %u), its last phase (%u)"
                        : "workgroup (%u, %u, %u) at its barrier, phase %u done",
             wg[0], wg[1], wg[2], phase);
    return keep_frame(&pl->f, img);
}

/* pl->f: the frames of each phase, then the dispatch's end (always the
 * last frame), with their labels. */
static stex_status run_phase_frames(cli_program *prog, const stex_dispatch_options *o,
                                    phase_list *pl)
{
    stex_status st = cli_program_run_phase_frames(prog, o, keep_phase_frame, pl);
    stex_image end = {0};
    if (!st && !(st = cli_program_image(prog, &end))) {
        snprintf(pl->labels[pl->f.count], sizeof *pl->labels, "the dispatch done");
        st = keep_frame(&pl->f, &end);
    }
    stex_image_free(&end);
    return st;
}

static stex_status write_html(cli_program *prog, uint64_t seed, stex_schedule schedule,
                              uint32_t threads, stex_visibility vis, const char *path,
                              race_html_data *hd)
{
    frame_list f = {.frames = calloc(64, sizeof(stex_image)), .max = 64};
    phase_list pl = {.labels = calloc(64, 80), .step = 1};
    stex_dispatch_options o = {.schedule = schedule, .seed = seed,
                               .threads = (int)threads, .visibility = vis,
                               .cancel = cli_cancel()};
    bool phases = hd->s->iterations == 1;
    stex_status st = STEX_OK;
    if (!f.frames || !pl.labels)
        st = stex_fail(STEX_OUT_OF_MEMORY, "race: out of memory");
    else if (!phases)
        st = cli_program_run_frames(prog, &o, keep_html_frame, &f);
    else {
        pl.f = f;
        st = run_phase_frames(prog, &o, &pl);
        f = pl.f;
    }
    if (!st) {
        hd->frames = f.frames;
        hd->frame_labels = phases ? (const char (*)[80])pl.labels : NULL;
        hd->frame_count = f.count;
        st = race_html_write(path, hd);
    }
    free(pl.labels);
    for (uint32_t i = 0; i < f.count; i++)
        stex_image_free(&f.frames[i]);
    free(f.frames);
    return st;
}

/* A heat as JSON: a number, or null when not finite. */
static json_t *json_heat(double h) { return isfinite(h) ? json_real(h) : json_null(); }

static json_t *path_or_null(const char *p) { return p ? cli_json_text(p) : json_null(); }

/* The JSON of `stex race`: docs/file-formats.md, docs/schema/stex-run.schema.json. */
static void print_json(const race_opts *o, const char *name, const cli_program_desc *pd,
                       cli_race_summary *s)
{
    json_t *j = json_object();
    bool kernel = pd->kernel != NULL;
    json_object_set_new(j, "command", json_string("race"));
    json_object_set_new(j, "subject", json_string(kernel ? "kernel" : cli_is_wgsl_file(name)
                                                                      ? "wgsl" : "run_file"));
    json_object_set_new(j, "kernel", kernel ? cli_json_text(name) : json_null());
    json_object_set_new(j, "file", kernel ? json_null() : cli_json_text(name));
    json_object_set_new(j, "executor", json_string(o->c ? "c" : "wgsl"));
    json_object_set_new(j, "size", json_pack("[I, I, I]", (json_int_t)s->width,
                                             (json_int_t)s->height, (json_int_t)1));
    json_object_set_new(j, "format", json_string(stex_format_name(s->format)));
    json_object_set_new(j, "profile", json_string(stex_profile_name(STEX_PROFILE_SPEC)));
    json_object_set_new(j, "runs", json_integer(o->runs));
    json_object_set_new(j, "iterations", json_integer(s->iterations));
    json_object_set_new(j, "schedule", json_string(stex_schedule_name(o->schedule)));
    json_object_set_new(j, "seeds", json_pack("[o, o]", cli_json_seed(o->seed),
                                              cli_json_seed(o->seed + o->runs - 1)));
    json_object_set_new(j, "threads", json_integer(cli_threads(o->threads)));
    json_object_set_new(j, "visibility", json_string(stex_visibility_name(o->vis)));
    json_object_set_new(j, "distinct_outputs", json_integer(s->distinct));
    json_t *outs = json_array();
    for (uint32_t i = 0; i < s->distinct; i++) {
        char hash[17];
        snprintf(hash, sizeof hash, "%016" PRIx64, s->seen[i].hash);
        json_array_append_new(outs, json_pack("{s:s, s:I, s:o, s:o, s:b}", "hash", hash, "runs",
                                              (json_int_t)s->seen[i].runs, "first_seed",
                                              cli_json_seed(s->seen[i].first_seed), "total_heat",
                                              json_heat(s->seen[i].heat), "degenerate",
                                              s->seen[i].flat));
    }
    json_object_set_new(j, "outputs", outs);
    json_object_set_new(j, "input_heat", s->has_input_heat ? json_heat(s->input_heat)
                                                           : json_null());
    json_t *heat = json_array();
    for (uint32_t r = 0; r < o->runs; r++)
        json_array_append_new(heat, json_heat(s->heat[r]));
    json_object_set_new(j, "heat_per_run", heat);
    json_object_set_new(j, "texels_differing", json_integer((json_int_t)s->texels_differing));
    json_object_set_new(j, "races", s->races_json ? s->races_json : json_null());
    s->races_json = NULL;
    json_object_set_new(j, "flagged_texels", json_integer((json_int_t)s->flagged));
    json_object_set_new(j, "differing_and_flagged", json_integer((json_int_t)s->both));
    json_object_set_new(j, "png", path_or_null(o->pic.png));
    json_object_set_new(j, "frames_png", path_or_null(o->pic.frames));
    json_object_set_new(j, "html", path_or_null(o->pic.html));
    /* races but one output: the text's explanation, for a script too */
    cli_race_why_facts f = {o->runs, s->distinct, s->races, s->reported, s->same_workgroup,
                            o->schedule, o->subgroup, o->c};
    char why[1024];
    json_object_set_new(j, "why_one_output",
                        cli_race_why(&f, why, sizeof why) ? cli_json_text(why) : json_null());
    char *text = json_dumps(j, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    json_decref(j);
    puts(text ? text : "null");
    free(text);
}

/* Each run's total heat: the first runs one by one, then the range, and
 * whether the input's total survived. */
static void print_heat(const race_opts *o, const cli_race_summary *s)
{
    double lo = s->heat[0], hi = s->heat[0];
    for (uint32_t r = 1; r < o->runs; r++) {
        lo = s->heat[r] < lo ? s->heat[r] : lo;
        hi = s->heat[r] > hi ? s->heat[r] : hi;
    }
    printf("total heat (the sum of the texel values) per run");
    if (s->has_input_heat)
        printf("; the input holds %.9g", s->input_heat);
    printf(":\n");
    for (uint32_t r = 0; r < o->runs && r < 8; r++)
        printf("  seed %" PRIu64 ": %.9g\n", o->seed + r, s->heat[r]);
    if (o->runs > 8)
        printf("  ... %u more runs; all runs: %.9g to %.9g\n", o->runs - 8, lo, hi);
    if (s->has_input_heat && (lo != s->input_heat || hi != s->input_heat))
        printf("  not conserved: the runs end with %.9g to %.9g of the input's %.9g%s\n", lo, hi,
               s->input_heat, s->races ? " (racing reads see a neighbour before or after its "
                                         "update, so heat is lost or counted twice; a "
                                         "race-free diffusion loses only what leaves at the "
                                         "edges)" : "");
}

/* Races, but every run gave one output: why, and which option shows them. */
static void print_why(const race_opts *o, const cli_race_summary *s)
{
    cli_race_why_facts f = {o->runs, s->distinct, s->races, s->reported, s->same_workgroup,
                            o->schedule, o->subgroup, o->c};
    char why[1024];
    if (cli_race_why(&f, why, sizeof why))
        fputs(why, stdout);
}

/* The heat lines mean something for a kernel whose sum a race-free run
 * keeps (the lesson's diffusion), not for a reduction, a histogram or a
 * user's shader. */
static bool is_diffusion(const cli_program_desc *pd)
{
    return pd->kernel && pd->kernel->conserves_sum;
}

static void print_text(const race_opts *o, const char *name, const cli_program_desc *pd,
                       const cli_race_summary *s)
{
    int threads = cli_threads(o->threads);
    printf("%s %ux%u %s (%s): %u runs of %u dispatch%s, %s schedules (seeds %" PRIu64
           "..%" PRIu64 "), %d thread%s\n", name, s->width, s->height,
           stex_format_name(s->format), o->c ? "its C version" : "WGSL, interpreted", o->runs,
           s->iterations, s->iterations == 1 ? "" : "es", stex_schedule_name(o->schedule),
           o->seed, o->seed + o->runs - 1, threads, threads == 1 ? "" : "s");
    printf("distinct outputs: %u\n", s->distinct);
    for (uint32_t i = 0; i < s->distinct && i < 8; i++)
        printf("  %016" PRIx64 ": %u run%s (first seed %" PRIu64 ")%s\n", s->seen[i].hash,
               s->seen[i].runs, s->seen[i].runs == 1 ? "" : "s", s->seen[i].first_seed,
               s->seen[i].flat ? " - degenerate: every texel the same" : "");
    if (s->distinct > 8)
        printf("  ... and %u more\n", s->distinct - 8);
    if (is_diffusion(pd))
        print_heat(o, s);
    printf("texels that differ between runs: %" PRIu64 " of %" PRIu64 "\n", s->texels_differing,
           (uint64_t)s->width * s->height);
    printf("race detector: %" PRIu64 " racing location%s (read-write %" PRIu64
           ", write-write %" PRIu64 "); %" PRIu64 " texels flagged, %" PRIu64
           " of the differing texels among them\n",
           s->races, s->races == 1 ? "" : "s", s->read_write, s->write_write, s->flagged, s->both);
    if (s->races_text && s->races) /* the groups by source lines, the first locations */
        fputs(s->races_text, stdout);
    print_why(o, s);
    if (o->pic.png)
        printf("picture: %s (left: seed %" PRIu64 ", middle: seed %" PRIu64
               "%s, on one scale; right: texels that differ between runs, dark red to yellow "
               "by size; blue: flagged by the detector, equal in every run; captions inside)\n",
               o->pic.png, o->seed, s->other_seed, s->other_differs ? "" : " - no run differed");
    if (o->pic.frames && s->iterations == 1)
        printf("frames: %s (seed %" PRIu64 ", one dispatch: a frame at the end of each "
               "barrier phase of each workgroup)\n", o->pic.frames, o->seed);
    else if (o->pic.frames)
        printf("frames: %s (seed %" PRIu64 ", one frame per dispatch, 1 to %u)\n",
               o->pic.frames, o->seed, s->iterations);
    if (o->pic.html)
        printf("report: %s (one page, no network: open it in a browser)\n", o->pic.html);
}

/* The study and its report, once the program is described. */
static int study(const race_opts *o, const char *name, const cli_program_desc *pd)
{
    cli_race_summary s;
    bool bar = !o->json && isatty(STDERR_FILENO);
    stex_status st = cli_race_study(pd, o->runs, o->seed, o->schedule, o->threads, o->vis,
                                    &o->pic, bar, &s);
    if (st)
        return cli_fail("race", st);
    if (o->json)
        print_json(o, name, pd, &s);
    else
        print_text(o, name, pd, &s);
    free(s.seen);
    free(s.heat);
    free(s.races_text);
    json_decref(s.races_json);
    return o->fail_on_race && s.races ? CLI_RACES : CLI_OK;
}

/* FILE.json (a run file) or FILE.wgsl (one storage texture, as `stex run
 * FILE.wgsl` sets it up): the first output compared between runs. */
static int race_file(const cli_args *a, const race_opts *o)
{
    const char *cmd = "race", *path = a->value[0];
    bool wgsl = cli_is_wgsl_file(path);
    const char *kernel_only[] = {"variant", "executor", wgsl ? "allow-paths" : "size",
                                 wgsl ? NULL : "iterations", NULL};
    for (const char *const *k = kernel_only; *k; k++)
        if (cli_given(&cli_race_spec, a, *k))
            return cli_usage(cmd, "--%s: not for %s", *k, wgsl ? "a WGSL file (it runs on its "
                             "one texture)" : "a run file (it declares its own textures and "
                             "steps)");
    char *json = NULL, *dir = NULL;
    int rc = wgsl ? cli_wgsl_run_json(cmd, path, o->size, o->iterations, NULL, 0, NULL, 0, &json)
                  : cli_read_run_file(cmd, path, &json, &dir);
    if (rc)
        return rc;
    /* a WGSL file's run file names what the command line names: any file */
    const cli_allow_paths *allow = wgsl ? &cli_allow_any_path : &o->allow;
    cli_program_desc pd = {.path = path, .json = json, .base_dir = wgsl ? "." : dir,
                           .profile = STEX_PROFILE_SPEC, .subgroup_width = o->subgroup,
                           .max_steps = o->max_steps, .allow_paths = allow->dir,
                           .allow_path_count = allow->n};
    rc = study(o, path, &pd);
    free(json);
    free(dir);
    return rc;
}

int cli_race(int argc, char **argv)
{
    const char *cmd = "race";
    race_opts o = {.runs = 20, .size = {0, 0, 1}, .seed = 1, .vis = STEX_VISIBILITY_IMMEDIATE,
                   .schedule = STEX_SCHEDULE_INTERLEAVED, .races = CLI_RACES_DEFAULT};
    cli_args a;
    int rc = cli_parse(&cli_race_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    o.pic.races_report = true; /* the groups and the --races locations */
    o.pic.races = o.races;
    cli_cancel_install();
    if (a.count == 0)
        return cli_usage(cmd, "missing KERNEL (`stex run --list` lists them), FILE.json or "
                              "FILE.wgsl");
    if (a.count > 1)
        return cli_usage(cmd, "unexpected argument '%s' after the kernel", a.value[1]);
    if (o.size[0] && o.size[2] != 1)
        return cli_usage(cmd, "--size: the kernels run on 2d textures; give WxH, not '%ux%ux%u'",
                         o.size[0], o.size[1], o.size[2]);
    if (o.pic.frames && o.iterations > 64)
        return cli_usage(cmd, "--frames: at most 64 dispatches (8 rows of 8 frames); give "
                              "--iterations 64 or fewer");
    if (cli_is_run_file(a.value[0]) || cli_is_wgsl_file(a.value[0]))
        return race_file(&a, &o);
    if (o.allow.n)
        return cli_usage(cmd, "--allow-paths: only for a run file (FILE.json)");
    const stex_kernel *k = cli_find_kernel(cmd, a.value[0]);
    if (!k)
        return CLI_USAGE;
    if ((rc = cli_check_kernel_size(cmd, "--size", k, o.size[0] ? o.size[0] : k->default_width,
                                    o.size[0] ? o.size[1] : k->default_height)))
        return rc;

    /* the pictures' sizes, before anything runs */
    uint32_t w = o.size[0] ? o.size[0] : k->default_width;
    uint32_t h = o.size[0] ? o.size[1] : k->default_height, frames = o.iterations ? o.iterations : 1;
    stex_status st = STEX_OK;
    if ((o.pic.png && (st = race_check_grid(o.pic.png, w, h, 3, 3, o.pic.scale))) ||
        (o.pic.frames && (st = race_check_grid(o.pic.frames, w, h, frames, 8, o.pic.scale))))
        return cli_fail(cmd, st);
    if (o.c && (cli_given(&cli_race_spec, &a, "subgroup-size") ||
                cli_given(&cli_race_spec, &a, "max-steps")))
        return cli_usage(cmd, "--subgroup-size, --max-steps: for the WGSL executor only");
    cli_program_desc pd = {.kernel = k, .wgsl = !o.c, .profile = STEX_PROFILE_SPEC,
                           .subgroup_width = o.subgroup, .max_steps = o.max_steps,
                           .setup = {.width = o.size[0], .height = o.size[1],
                                     .variant = o.variant, .iterations = o.iterations}};
    return study(&o, k->name, &pd);
}
