/* stex race: run a kernel under many shuffled schedules, count the distinct
 * outputs, ask the race detector which texels race, and draw both. */
#include "cli/cli_kernel.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char HELP[] =
    "usage: stex race KERNEL [OPTIONS]\n"
    "\n"
    "Runs KERNEL --runs times, each with a shuffled workgroup order (seeds S,\n"
    "S+1, ...), counts how many distinct outputs appear, and runs the race\n"
    "detector once (its verdict does not depend on the schedule). The picture\n"
    "shows two runs that differ side by side and a heat map of the texels that\n"
    "differ between runs (dark red = a small difference, yellow = the largest; in\n"
    "the format's units, log scale) and of those the detector flagged but that\n"
    "happened to agree (blue).\n"
    "\n"
    "options:\n"
    "  --runs N               how many runs (default 20)\n"
    "  --threads T            OpenMP threads (default: all cores)\n"
    "  --size WxH             texture size (default: the kernel's own)\n"
    "  --seed S               first seed (default 1)\n"
    "  --iterations N         dispatches per run (default 1)\n"
    "  --variant V            difundir input: random (default) or hot\n"
    "  --visibility V         immediate (default) or snapshot\n"
    "  --png FILE             write the picture\n"
    "  --json                 print one JSON object\n"
    "\n"
    "examples:\n"
    "  stex race difundir --runs 20 --png race.png\n"
    "  stex race difundir --variant hot --iterations 40 --size 64x64 --png hot.png\n"
    "  stex race difundir-pingpong --runs 20        # the fix: 1 distinct output, 0 races\n"
    "  stex race difundir --size 64x64 --runs 50 --threads 2 --json\n"
    "\n"
    "exit status: 0 done (races or not), 1 the device refused, 2 usage error.\n";

enum { OPT_RUNS = 256, OPT_ITER, OPT_THREADS, OPT_SIZE, OPT_SEED, OPT_VARIANT, OPT_VIS, OPT_PNG, OPT_JSON };

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
        bool any = false;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint64_t d = stex_texel_diff(cur.format, stex_image_texel(&first, x, y, 0),
                                             stex_image_texel(&cur, x, y, 0));
                if (d == 0 && memcmp(stex_image_texel(&first, x, y, 0),
                                     stex_image_texel(&cur, x, y, 0),
                                     stex_format_get(cur.format)->bytes))
                    d = 1; /* +0 against -0 */
                uint64_t *slot = &differs[(size_t)y * w + x];
                if (d > *slot)
                    *slot = d;
                any |= d != 0;
            }
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

int cli_race(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"runs", required_argument, NULL, OPT_RUNS},
        {"iterations", required_argument, NULL, OPT_ITER},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"size", required_argument, NULL, OPT_SIZE},
        {"seed", required_argument, NULL, OPT_SEED},
        {"variant", required_argument, NULL, OPT_VARIANT},
        {"visibility", required_argument, NULL, OPT_VIS},
        {"png", required_argument, NULL, OPT_PNG},
        {"json", no_argument, NULL, OPT_JSON},
        {NULL, 0, NULL, 0}};
    const char *cmd = "race", *png = NULL, *variant = NULL;
    uint32_t runs = 20, threads = 0, size[3] = {0, 0, 1}, iterations = 0;
    uint64_t seed0 = 1;
    stex_visibility vis = STEX_VISIBILITY_IMMEDIATE;
    bool json = false, has_size = false;
    int c;
    optind = 0;
    opterr = 0; /* our message names the option */
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(HELP, stdout);
            return CLI_OK;
        case OPT_RUNS:
            if (!cli_parse_u32_range(cmd, "--runs", optarg, 1, 100000, &runs))
                return CLI_USAGE;
            break;
        case OPT_ITER:
            if (!cli_parse_u32_range(cmd, "--iterations", optarg, 1, 100000, &iterations))
                return CLI_USAGE;
            break;
        case OPT_THREADS:
            if (!cli_parse_u32_range(cmd, "--threads", optarg, 1, 1024, &threads))
                return CLI_USAGE;
            break;
        case OPT_SIZE:
            if (!cli_parse_size(cmd, "--size", optarg, size))
                return CLI_USAGE;
            has_size = true;
            break;
        case OPT_SEED:
            if (!cli_parse_u64(cmd, "--seed", optarg, &seed0))
                return CLI_USAGE;
            break;
        case OPT_VARIANT:
            if (!cli_parse_variant(cmd, optarg, &variant))
                return CLI_USAGE;
            break;
        case OPT_VIS:
            if (!cli_parse_visibility(cmd, optarg, &vis))
                return CLI_USAGE;
            break;
        case OPT_PNG:
            if (stex_file_kind_of(optarg) != STEX_FILE_PNG)
                return cli_usage(cmd, "--png: '%s' must end in .png", optarg);
            png = optarg;
            break;
        case OPT_JSON: json = true; break;
        default:
            return cli_usage(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_usage(cmd, "missing KERNEL (`stex run --list` lists them)");
    if (optind + 1 < argc)
        return cli_usage(cmd, "unexpected argument '%s' after the kernel", argv[optind + 1]);
    const stex_kernel *k = cli_find_kernel(cmd, argv[optind]);
    if (!k)
        return CLI_USAGE;
    stex_limits lim = stex_limits_default();
    if (has_size && (size[2] != 1 || size[0] > lim.max_texture_dimension_2d ||
                     size[1] > lim.max_texture_dimension_2d))
        return cli_usage(cmd, "--size: expected WxH within maxTextureDimension2D (%" PRIu64
                              "), got '%ux%ux%u'", lim.max_texture_dimension_2d, size[0], size[1],
                         size[2]);

    stex_kernel_setup setup = {.width = size[0], .height = size[1], .variant = variant,
                               .iterations = iterations};
    cli_race_summary s;
    bool bar = !json && isatty(STDERR_FILENO);
    stex_status st = cli_race_study(k, &setup, runs, seed0, threads, vis, png, bar, &s);
    if (st)
        return cli_fail(cmd, st);
    const char *fmt = stex_format_name(s.format);
    if (json) {
        printf("{\"kernel\": \"%s\", \"size\": [%u, %u], \"format\": \"%s\", \"runs\": %u, "
               "\"schedule\": \"shuffled\", \"seeds\": [%" PRIu64 ", %" PRIu64 "], \"threads\": %d, "
               "\"visibility\": \"%s\", \"distinct_outputs\": %u, \"outputs\": [",
               k->name, s.width, s.height, fmt, runs, seed0, seed0 + runs - 1, cli_threads(threads),
               stex_visibility_name(vis), s.distinct);
        for (uint32_t i = 0; i < s.distinct; i++)
            printf("%s{\"hash\": \"%016" PRIx64 "\", \"runs\": %u, \"first_seed\": %" PRIu64 "}",
                   i ? ", " : "", s.seen[i].hash, s.seen[i].runs, s.seen[i].first_seed);
        printf("], \"texels_differing\": %" PRIu64 ", \"races\": {\"write-write\": %" PRIu64
               ", \"read-write\": %" PRIu64 ", \"total\": %" PRIu64 "}, \"flagged_texels\": %" PRIu64
               ", \"differing_and_flagged\": %" PRIu64 ", \"png\": ",
               s.texels_differing, s.write_write, s.read_write, s.races, s.flagged, s.both);
        if (png)
            cli_json_string(stdout, png);
        else
            fputs("null", stdout);
        puts("}");
    } else {
        printf("%s %ux%u %s: %u runs, shuffled schedules (seeds %" PRIu64 "..%" PRIu64 "), %d "
               "thread%s\n", k->name, s.width, s.height, fmt, runs, seed0, seed0 + runs - 1,
               cli_threads(threads), cli_threads(threads) == 1 ? "" : "s");
        printf("distinct outputs: %u\n", s.distinct);
        for (uint32_t i = 0; i < s.distinct && i < 8; i++)
            printf("  %016" PRIx64 ": %u run%s (first seed %" PRIu64 ")\n", s.seen[i].hash,
                   s.seen[i].runs, s.seen[i].runs == 1 ? "" : "s", s.seen[i].first_seed);
        if (s.distinct > 8)
            printf("  ... and %u more\n", s.distinct - 8);
        printf("texels that differ between runs: %" PRIu64 " of %" PRIu64 "\n", s.texels_differing,
               (uint64_t)s.width * s.height);
        printf("race detector: %" PRIu64 " racing location%s (read-write %" PRIu64
               ", write-write %" PRIu64 "); %" PRIu64 " texels flagged, %" PRIu64
               " of the differing texels among them\n",
               s.races, s.races == 1 ? "" : "s", s.read_write, s.write_write, s.flagged, s.both);
        for (uint32_t i = 0; i < s.examples; i++)
            cli_print_race(stdout, "  ", &s.example[i]);
        if (png)
            printf("picture: %s (left: seed %" PRIu64 ", middle: seed %" PRIu64
                   "%s, right: texels that differ between runs, dark red to yellow by size; blue: "
                   "flagged by the detector, equal in every run)\n", png, seed0, s.other_seed,
                   s.other_differs ? "" : " - no run differed");
    }
    free(s.seen);
    return CLI_OK;
}
