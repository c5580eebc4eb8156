/* stex race: run a kernel under many shuffled schedules, count the distinct
 * outputs, ask the race detector which texels race, and draw both. */
#include "cli/cli_kernel.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char SYNOPSIS[] =
    "usage: stex race KERNEL [OPTIONS]\n"
    "\n"
    "Runs KERNEL --runs times, each with a shuffled workgroup order (seeds S,\n"
    "S+1, ...), counts how many distinct outputs appear, and runs the race\n"
    "detector once (its verdict does not depend on the schedule). The picture\n"
    "shows two runs that differ side by side and a heat map of the texels that\n"
    "differ between runs (dark red = a small difference, yellow = the largest; in\n"
    "the format's units, log scale) and of those the detector flagged but that\n"
    "happened to agree (blue).\n";

static const char EPILOGUE[] =
    "numbers are decimal (no 0x, no leading zero).\n"
    "\n"
    "examples:\n"
    "  stex race difundir --runs 20 --png race.png\n"
    "  stex race difundir --variant hot --iterations 40 --size 64x64 --png hot.png\n"
    "  stex race difundir-pingpong --runs 20        # the fix: 1 distinct output, 0 races\n"
    "  stex race difundir --size 64x64 --runs 50 --threads 2 --json\n"
    "\n"
    "exit status: 0 done (races or not), 1 the device refused, 2 usage error or\n"
    "unwritable output.\n";

typedef struct race_opts {
    uint32_t runs, threads, size[3], iterations; /* size[0] == 0: the kernel's own */
    uint64_t seed;
    const char *variant, *png;
    stex_visibility vis;
    bool json;
} race_opts;

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
    {.name = "png", .kind = CLI_CUSTOM, .parse = cli_parse_png, .at = AT(png), .metavar = "FILE",
     .help = "write the picture"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print one JSON object"},
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

/* Side by side: run A | run B | heat map, 4-pixel black gaps. */
static stex_status draw(const char *path, const stex_image *a, const stex_image *b,
                        const uint64_t *differs, const uint8_t *flagged)
{
    uint8_t *pa, *pb;
    stex_status st = stex_image_render_rgba8(a, &pa);
    if (st)
        return st;
    if ((st = stex_image_render_rgba8(b, &pb))) {
        free(pa);
        return st;
    }
    uint32_t w = a->width, h = a->height, gap = 4, W = 3 * w + 2 * gap;
    /* brightness: the largest difference seen at the texel, on a log scale
     * relative to the largest anywhere */
    double top = 0;
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (differs[i] && log1p((double)differs[i]) > top)
            top = log1p((double)differs[i]);
    uint8_t *pic = calloc((size_t)W * h * 4, 1);
    if (!pic) {
        free(pa);
        free(pb);
        return STEX_OUT_OF_MEMORY;
    }
    for (uint32_t y = 0; y < h; y++) {
        uint8_t *row = pic + (size_t)y * W * 4;
        for (uint32_t x = 0; x < W; x++)
            row[4 * x + 3] = 255;
        memcpy(row, pa + (size_t)y * w * 4, (size_t)w * 4);
        memcpy(row + (size_t)(w + gap) * 4, pb + (size_t)y * w * 4, (size_t)w * 4);
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *p = row + (size_t)(2 * (w + gap) + x) * 4;
            size_t i = (size_t)y * w + x;
            if (differs[i]) {
                double t = top > 0 ? log1p((double)differs[i]) / top : 1;
                p[0] = (uint8_t)(90 + 165 * t);
                p[1] = (uint8_t)(230 * t * t);
                p[2] = flagged[i] ? 0 : (uint8_t)(200 * (1 - t));
            } else if (flagged[i])
                p[0] = 50, p[1] = 110, p[2] = 255;
            else
                p[0] = p[1] = p[2] = 16;
        }
    }
    /* small textures are drawn with square pixels up to 4x, to be seen */
    uint32_t k = w < 64 ? 4 : w < 128 ? 2 : 1;
    if (k > 1 && (uint64_t)W * k <= STEX_IO_MAX_DIMENSION) {
        uint8_t *big = malloc((size_t)W * k * h * k * 4);
        if (big) {
            for (uint32_t y = 0; y < h * k; y++)
                for (uint32_t x = 0; x < W * k; x++)
                    memcpy(big + ((size_t)y * W * k + x) * 4,
                           pic + ((size_t)(y / k) * W + x / k) * 4, 4);
            free(pic);
            pic = big;
            W *= k;
            h *= k;
        }
    }
    st = stex_write_png_rgba8(path, pic, W, h);
    free(pic);
    free(pa);
    free(pb);
    return st;
}

void cli_print_race(FILE *f, const char *indent, const stex_race *r)
{
    fprintf(f, "%sbinding %u texel (%u, %u, %u): %s race between workgroup (%u,%u,%u) "
               "invocation (%u,%u,%u) [%s] and workgroup (%u,%u,%u) invocation (%u,%u,%u) [%s]\n",
            indent, r->binding, r->coord[0], r->coord[1], r->coord[2], stex_race_kind_name(r->kind),
            r->a.workgroup_id[0], r->a.workgroup_id[1], r->a.workgroup_id[2],
            r->a.local_invocation_id[0], r->a.local_invocation_id[1], r->a.local_invocation_id[2],
            stex_race_access_name(r->a.access), r->b.workgroup_id[0], r->b.workgroup_id[1],
            r->b.workgroup_id[2], r->b.local_invocation_id[0], r->b.local_invocation_id[1],
            r->b.local_invocation_id[2], stex_race_access_name(r->b.access));
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

stex_status cli_race_study(const stex_kernel *k, const stex_kernel_setup *setup, uint32_t runs,
                           uint64_t seed0, uint32_t threads, stex_visibility vis, const char *png,
                           bool bar, cli_race_summary *out)
{
    memset(out, 0, sizeof *out);
    stex_kernel_instance *ki = NULL;
    stex_race_detector *rd = NULL;
    stex_image first = {0}, other = {0}, cur = {0};
    uint64_t *differs = NULL;
    uint8_t *flagged = NULL;
    stex_status st;
    if ((st = stex_kernel_instance_create(k, setup, &ki)))
        goto done;
    uint32_t w = stex_kernel_instance_width(ki), h = stex_kernel_instance_height(ki);
    out->width = w;
    out->height = h;
    out->format = stex_kernel_instance_output_format(ki);
    out->other_seed = seed0;
    stex_race_options ro = {.max_reported = (uint32_t)((uint64_t)w * h * 2 + 16)};
    if ((st = stex_race_detector_create(&ro, &rd)))
        goto done;
    out->seen = calloc(runs, sizeof *out->seen);
    differs = calloc((size_t)w * h, sizeof *differs);
    flagged = calloc((size_t)w * h, 1);
    if (!out->seen || !differs || !flagged) {
        st = stex_fail(STEX_OUT_OF_MEMORY, "race: out of memory");
        goto done;
    }
    for (uint32_t r = 0; r < runs; r++) {
        if (bar)
            progress((int)r, (int)runs);
        if (r && (st = stex_kernel_instance_reset(ki)))
            goto done;
        /* The detector watches the first run only: its verdict is the same
         * under every schedule. */
        stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = seed0 + r,
                                   .threads = (int)threads, .visibility = vis,
                                   .races = r == 0 ? rd : NULL};
        if ((st = stex_kernel_instance_dispatch(ki, &o)))
            goto done;
        if ((st = cli_instance_image(ki, &cur)))
            goto done;
        uint64_t hash = fnv1a(cur.data, cur.size);
        uint32_t i = 0;
        while (i < out->distinct && out->seen[i].hash != hash)
            i++;
        if (i == out->distinct)
            out->seen[out->distinct++] = (cli_race_output){hash, 0, seed0 + r};
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
        if (i < 3)
            out->example[out->examples++] = *rr;
        if (rr->memory == STEX_RACE_MEMORY_TEXTURE && rr->coord[0] < w && rr->coord[1] < h)
            flagged[(size_t)rr->coord[1] * w + rr->coord[0]] = 1;
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        out->texels_differing += differs[i] != 0;
        out->flagged += flagged[i];
        out->both += differs[i] && flagged[i];
    }
    out->write_write = stex_race_count(rd, STEX_RACE_WRITE_WRITE);
    out->read_write = stex_race_count(rd, STEX_RACE_READ_WRITE);
    out->races = stex_race_count(rd, STEX_RACE_ANY);
    if (png)
        st = draw(png, &first, other.data ? &other : &first, differs, flagged);
done:
    stex_image_free(&first);
    stex_image_free(&other);
    stex_image_free(&cur);
    free(differs);
    free(flagged);
    stex_race_detector_destroy(rd);
    stex_kernel_instance_destroy(ki);
    if (st) {
        free(out->seen);
        out->seen = NULL;
    }
    return st;
}

static void print_json(const race_opts *o, const stex_kernel *k, const cli_race_summary *s)
{
    printf("{\"kernel\": \"%s\", \"size\": [%u, %u, 1], \"format\": \"%s\", \"runs\": %u, "
           "\"schedule\": \"shuffled\", \"seeds\": [%" PRIu64 ", %" PRIu64 "], \"threads\": %d, "
           "\"visibility\": \"%s\", \"distinct_outputs\": %u, \"outputs\": [",
           k->name, s->width, s->height, stex_format_name(s->format), o->runs, o->seed,
           o->seed + o->runs - 1, cli_threads(o->threads), stex_visibility_name(o->vis),
           s->distinct);
    for (uint32_t i = 0; i < s->distinct; i++)
        printf("%s{\"hash\": \"%016" PRIx64 "\", \"runs\": %u, \"first_seed\": %" PRIu64 "}",
               i ? ", " : "", s->seen[i].hash, s->seen[i].runs, s->seen[i].first_seed);
    printf("], \"texels_differing\": %" PRIu64 ", \"races\": {\"write_write\": %" PRIu64
           ", \"read_write\": %" PRIu64 ", \"total\": %" PRIu64 "}, \"flagged_texels\": %" PRIu64
           ", \"differing_and_flagged\": %" PRIu64 ", \"png\": ",
           s->texels_differing, s->write_write, s->read_write, s->races, s->flagged, s->both);
    if (o->png)
        cli_json_string(stdout, o->png);
    else
        fputs("null", stdout);
    puts("}");
}

static void print_text(const race_opts *o, const stex_kernel *k, const cli_race_summary *s)
{
    int threads = cli_threads(o->threads);
    printf("%s %ux%u %s: %u runs, shuffled schedules (seeds %" PRIu64 "..%" PRIu64 "), %d "
           "thread%s\n", k->name, s->width, s->height, stex_format_name(s->format), o->runs,
           o->seed, o->seed + o->runs - 1, threads, threads == 1 ? "" : "s");
    printf("distinct outputs: %u\n", s->distinct);
    for (uint32_t i = 0; i < s->distinct && i < 8; i++)
        printf("  %016" PRIx64 ": %u run%s (first seed %" PRIu64 ")\n", s->seen[i].hash,
               s->seen[i].runs, s->seen[i].runs == 1 ? "" : "s", s->seen[i].first_seed);
    if (s->distinct > 8)
        printf("  ... and %u more\n", s->distinct - 8);
    printf("texels that differ between runs: %" PRIu64 " of %" PRIu64 "\n", s->texels_differing,
           (uint64_t)s->width * s->height);
    printf("race detector: %" PRIu64 " racing location%s (read-write %" PRIu64
           ", write-write %" PRIu64 "); %" PRIu64 " texels flagged, %" PRIu64
           " of the differing texels among them\n",
           s->races, s->races == 1 ? "" : "s", s->read_write, s->write_write, s->flagged, s->both);
    for (uint32_t i = 0; i < s->examples; i++)
        cli_print_race(stdout, "  ", &s->example[i]);
    if (o->png)
        printf("picture: %s (left: seed %" PRIu64 ", middle: seed %" PRIu64
               "%s, right: texels that differ between runs, dark red to yellow by size; blue: "
               "flagged by the detector, equal in every run)\n", o->png, o->seed, s->other_seed,
               s->other_differs ? "" : " - no run differed");
}

int cli_race(int argc, char **argv)
{
    const char *cmd = "race";
    race_opts o = {.runs = 20, .size = {0, 0, 1}, .seed = 1, .vis = STEX_VISIBILITY_IMMEDIATE};
    cli_args a;
    int rc = cli_parse(&cli_race_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (a.count == 0)
        return cli_usage(cmd, "missing KERNEL (`stex run --list` lists them)");
    if (a.count > 1)
        return cli_usage(cmd, "unexpected argument '%s' after the kernel", a.value[1]);
    const stex_kernel *k = cli_find_kernel(cmd, a.value[0]);
    if (!k)
        return CLI_USAGE;
    if (o.size[0] && o.size[2] != 1)
        return cli_usage(cmd, "--size: the kernels run on 2d textures; give WxH, not '%ux%ux%u'",
                         o.size[0], o.size[1], o.size[2]);
    if ((rc = cli_check_kernel_size(cmd, "--size", k, o.size[0] ? o.size[0] : k->default_width,
                                    o.size[0] ? o.size[1] : k->default_height)))
        return rc;

    stex_kernel_setup setup = {.width = o.size[0], .height = o.size[1], .variant = o.variant,
                               .iterations = o.iterations};
    cli_race_summary s;
    bool bar = !o.json && isatty(STDERR_FILENO);
    stex_status st = cli_race_study(k, &setup, o.runs, o.seed, o.threads, o.vis, o.png, bar, &s);
    if (st)
        return cli_fail(cmd, st);
    if (o.json)
        print_json(&o, k, &s);
    else
        print_text(&o, k, &s);
    free(s.seen);
    return CLI_OK;
}
