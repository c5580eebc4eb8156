/* stex layout: where each texel of a small texture lives in tiled memory,
 * and the cache lines a 3x3 stencil touches, tiled vs linear (lesson 002). */
#include "cli/cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <string.h>

#include "stex/stex.h"

static const char HELP[] =
    "usage: stex layout FORMAT WxH[xL] [OPTIONS]\n"
    "\n"
    "Shows the tiled memory layout of a WxH texture (L array layers) of FORMAT:\n"
    "the macro-tile chosen, the padding, and for each texel of the top-left\n"
    "corner (at most 32x32) its 8x8 block and its Morton index inside the block\n"
    "(printed BLOCK.INDEX; byte offset = BLOCK x 64 x texel bytes + INDEX x texel\n"
    "bytes).  Then counts the cache lines a 3x3 stencil touches at every\n"
    "invocation, once in the tiled texture and once in a linear buffer holding the\n"
    "same image (element y * W + x), as lesson 002 does by hand.\n"
    "\n"
    "options:\n"
    "  --line-size N      cache line bytes (default 128)\n"
    "  --workgroup WxH    workgroup size for the per-workgroup count (default 8x8)\n"
    "  --grid N           show at most NxN texels of the map (default 32, 0 = none)\n"
    "  --json             print everything as one JSON object\n"
    "\n"
    "examples:\n"
    "  stex layout rgba8unorm 16x16\n"
    "  stex layout rgba8unorm 1024x1024 --grid 0\n"
    "  stex layout r32float 100x60x3 --line-size 64 --json\n"
    "\n"
    "exit status: 0 ok, 2 usage error (unknown format, bad size).\n";

enum { OPT_LINE = 256, OPT_WG, OPT_GRID, OPT_JSON };

static void stats_json(const char *name, const stex_line_stats *s)
{
    printf("\"%s\": {\"invocations\": %" PRIu64 ", \"lines_per_invocation\": %.4f, \"min_lines\": %u, "
           "\"max_lines\": %u, \"contiguous_invocations\": %" PRIu64 ", \"far_invocations\": %" PRIu64 ", "
           "\"mean_span_bytes\": %.1f, "
           "\"workgroups\": %" PRIu64 ", \"lines_per_workgroup\": %.4f, \"histogram\": [",
           name, s->invocations, s->lines_per_invocation, s->min_lines, s->max_lines, s->contiguous, s->far,
           s->mean_span_bytes, s->workgroups, s->lines_per_workgroup);
    for (int i = 0; i < STEX_LINE_HISTOGRAM; i++)
        printf("%s%" PRIu64, i ? ", " : "", s->histogram[i]);
    printf("]}");
}

static void stats_text(const char *name, const stex_line_stats *s)
{
    double inv = s->invocations ? (double)s->invocations : 1;
    printf("  %-7s %9.3f %6u %6u %10.1f%% %10.1f%% %10.1f\n", name, s->lines_per_invocation, s->min_lines,
           s->max_lines, 100.0 * (double)s->contiguous / inv, 100.0 * (double)s->far / inv,
           s->lines_per_workgroup);
}

int cli_layout(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"line-size", required_argument, NULL, OPT_LINE},
        {"workgroup", required_argument, NULL, OPT_WG},
        {"grid", required_argument, NULL, OPT_GRID},
        {"json", no_argument, NULL, OPT_JSON},
        {NULL, 0, NULL, 0}};
    const char *cmd = "layout";
    uint32_t line = 128, grid = 32, wg[3] = {8, 8, 1};
    bool json = false;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(HELP, stdout);
            return CLI_OK;
        case OPT_LINE:
            if (!cli_parse_u32(cmd, "--line-size", optarg, &line))
                return CLI_USAGE;
            if (line == 0)
                return cli_usage(cmd, "--line-size must be at least 1 byte");
            break;
        case OPT_WG:
            if (!cli_parse_size(cmd, "--workgroup", optarg, wg))
                return CLI_USAGE;
            break;
        case OPT_GRID:
            if (!cli_parse_u32(cmd, "--grid", optarg, &grid))
                return CLI_USAGE;
            break;
        case OPT_JSON:
            json = true;
            break;
        default:
            return cli_usage(cmd, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return cli_usage(cmd, "expected FORMAT and WxH[xL], got %d argument(s)", argc - optind);
    stex_format f = stex_format_from_name(argv[optind]);
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || fi->kind == STEX_KIND_COMPRESSED)
        return cli_usage(cmd, "'%s' is not a texel format stex lays out (see `stex formats`)", argv[optind]);
    uint32_t size[3];
    if (!cli_parse_size(cmd, "size", argv[optind + 1], size))
        return CLI_USAGE;
    if (size[0] > 8192 || size[1] > 8192 || size[2] > 256)
        return cli_usage(cmd, "size %ux%ux%u is too large: at most 8192x8192x256 (the default "
                         "maxTextureDimension2D and maxTextureArrayLayers)", size[0], size[1], size[2]);
    stex_level_layout tiled, linear;
    if (stex_level_layout_tiled(&tiled, size[0], size[1], size[2], fi->bytes) ||
        stex_level_layout_linear(&linear, size[0], size[1], 1, fi->bytes))
        return cli_usage(cmd, "%s", stex_last_error());
    stex_line_stats st, sl;
    if (stex_cache_lines_stencil(&tiled, line, stex_stencil_3x3, 9, wg[0], wg[1], &st) ||
        stex_cache_lines_stencil(&linear, line, stex_stencil_3x3, 9, wg[0], wg[1], &sl)) {
        fprintf(stderr, "stex layout: %s\n", stex_last_error());
        return CLI_USAGE;
    }
    uint32_t side = 1u << tiled.shift, bpp = fi->bytes;
    uint64_t texel_bytes = (uint64_t)size[0] * size[1] * bpp;
    double padding = 100.0 * ((double)tiled.slice_bytes / (double)texel_bytes - 1.0);
    uint32_t gw = size[0] < grid ? size[0] : grid, gh = size[1] < grid ? size[1] : grid;
    uint64_t block_bytes = 64ull * bpp;
    if (json) {
        printf("{\"format\": ");
        cli_json_string(stdout, fi->name);
        printf(", \"width\": %u, \"height\": %u, \"layers\": %u, \"bytes_per_texel\": %u,\n", size[0], size[1],
               size[2], bpp);
        printf(" \"tiled\": {\"block\": 8, \"macro_tile\": %u, \"tiles_per_row\": %u, \"tile_rows\": %u, "
               "\"tile_bytes\": %" PRIu64 ", \"slice_bytes\": %" PRIu64 ", \"texel_bytes\": %" PRIu64
               ", \"padding_percent\": %.2f},\n",
               side, tiled.tiles_per_row, tiled.tile_rows, tiled.tile_bytes, tiled.slice_bytes, texel_bytes, padding);
        printf(" \"grid\": [");
        for (uint32_t y = 0; y < gh; y++) {
            printf("%s\n  [", y ? "," : "");
            for (uint32_t x = 0; x < gw; x++) {
                uint64_t off = stex_level_offset(&tiled, x, y, 0);
                printf("%s{\"offset\": %" PRIu64 ", \"block\": %" PRIu64 ", \"index\": %" PRIu64 "}", x ? ", " : "",
                       off, off / block_bytes, off % block_bytes / bpp);
            }
            printf("]");
        }
        printf("],\n \"stencil\": \"3x3\", \"line_size\": %u, \"workgroup\": [%u, %u],\n ", line, wg[0], wg[1]);
        stats_json("tiled_lines", &st);
        printf(",\n ");
        stats_json("linear_lines", &sl);
        printf(",\n \"linear_over_tiled\": {\"per_invocation\": %.4f, \"per_workgroup\": %.4f}}\n",
               st.lines_per_invocation ? sl.lines_per_invocation / st.lines_per_invocation : 0,
               st.lines_per_workgroup ? sl.lines_per_workgroup / st.lines_per_workgroup : 0);
        return CLI_OK;
    }
    printf("%s %ux%u", fi->name, size[0], size[1]);
    if (size[2] > 1)
        printf(" x %u layers", size[2]);
    printf(", %u bytes per texel\n", bpp);
    printf("tiled: 8x8 blocks (%" PRIu64 " bytes each) in Morton order inside %ux%u macro-tiles,\n"
           "       %ux%u macro-tiles row-major; %" PRIu64 " bytes per layer for %" PRIu64
           " texel bytes (padding %.1f%%)\n",
           block_bytes, side, side, tiled.tiles_per_row, tiled.tile_rows, tiled.slice_bytes, texel_bytes, padding);
    if (gw && gh) {
        printf("\ntexel -> BLOCK.INDEX (top-left %ux%u texels; x across, y down)\n     ", gw, gh);
        for (uint32_t x = 0; x < gw; x++)
            printf(" %6u", x);
        printf("\n");
        for (uint32_t y = 0; y < gh; y++) {
            printf("%4u ", y);
            for (uint32_t x = 0; x < gw; x++) {
                uint64_t off = stex_level_offset(&tiled, x, y, 0);
                printf(" %3" PRIu64 ".%02" PRIu64, off / block_bytes, off % block_bytes / bpp);
            }
            printf("\n");
        }
    }
    printf("\n3x3 stencil at every invocation, %u-byte lines, %ux%u workgroups:\n", line, wg[0], wg[1]);
    printf("  %-7s %9s %6s %6s %11s %11s %10s\n", "memory", "lines/inv", "min", "max", "contiguous",
           "span>=4KiB", "lines/wg");
    stats_text("tiled", &st);
    stats_text("linear", &sl);
    printf("linear / tiled: %.2fx lines per invocation, %.2fx lines per workgroup\n",
           st.lines_per_invocation ? sl.lines_per_invocation / st.lines_per_invocation : 0,
           st.lines_per_workgroup ? sl.lines_per_workgroup / st.lines_per_workgroup : 0);
    return CLI_OK;
}
