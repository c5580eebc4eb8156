/* stex layout: where each texel of a small texture lives in tiled memory,
 * and the cache lines a 3x3 stencil touches, tiled vs linear (lesson 002). */
#include "cli/cli.h"

#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "stex/stex.h"

static const char SYNOPSIS[] =
    "usage: stex layout FORMAT WxH[xL] [OPTIONS]\n"
    "\n"
    "Shows the tiled memory layout of a WxH texture (L array layers) of FORMAT:\n"
    "the macro-tile chosen, the padding, and for each texel of the top-left\n"
    "corner (at most 32x32) its 8x8 block and its Morton index inside the block\n"
    "(printed BLOCK.INDEX; byte offset = BLOCK x 64 x texel bytes + INDEX x texel\n"
    "bytes).  Then counts the cache lines a 3x3 stencil touches at every\n"
    "invocation, once in the tiled texture and once in a linear buffer holding the\n"
    "same image (element y * W + x), as lesson 002 does by hand.\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex layout rgba8unorm 16x16\n"
    "  stex layout rgba8unorm 1024x1024 --grid 0\n"
    "  stex layout r32float 100x60x3 --line-size 64 --json\n"
    "\n"
    "exit status: 0 ok, 2 usage error (unknown format, bad size).\n";

typedef struct layout_opts {
    uint32_t line, grid, workgroup[3];
    bool json;
} layout_opts;

#define AT(field) offsetof(layout_opts, field)
static const cli_option layout_options[] = {
    {.name = "line-size", .kind = CLI_U32, .at = AT(line), .metavar = "N", .min = 1,
     .help = "cache line bytes (default 128)"},
    {.name = "workgroup", .kind = CLI_SIZE, .at = AT(workgroup), .metavar = "WxH",
     .help = "workgroup size for the per-workgroup count (default 8x8)"},
    {.name = "grid", .kind = CLI_U32, .at = AT(grid), .metavar = "N",
     .help = "show at most NxN texels of the map (default 32, 0 = none)"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json),
     .help = "print everything as one JSON object"},
    {0}};
#undef AT

const cli_spec cli_layout_spec = {"layout", SYNOPSIS, EPILOGUE, layout_options};

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

/* The layouts of one texture and the stencil's cache lines in each. */
typedef struct layout_view {
    const stex_format_info *fi;
    uint32_t size[3];
    stex_level_layout tiled, linear;
    stex_line_stats st, sl; /* tiled, linear */
    uint32_t side;          /* macro-tile side, texels */
    uint32_t gw, gh;        /* the map's shown corner */
    uint64_t texel_bytes, block_bytes;
    double padding;         /* tiled bytes over texel bytes, percent */
} layout_view;

static void print_json(const layout_opts *o, const layout_view *v)
{
    const stex_format_info *fi = v->fi;
    const uint32_t *size = v->size, *wg = o->workgroup;
    uint32_t line = o->line, bpp = fi->bytes, side = v->side, gw = v->gw, gh = v->gh;
    const stex_level_layout tiled = v->tiled;
    const stex_line_stats st = v->st, sl = v->sl;
    uint64_t texel_bytes = v->texel_bytes, block_bytes = v->block_bytes;
    double padding = v->padding;
    printf("{\"format\": ");
    cli_json_string(stdout, fi->name);
    printf(", \"size\": [%u, %u, %u], \"bytes_per_texel\": %u,\n", size[0], size[1], size[2],
           bpp);
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
}

static void print_text(const layout_opts *o, const layout_view *v)
{
    const stex_format_info *fi = v->fi;
    const uint32_t *size = v->size, *wg = o->workgroup;
    uint32_t line = o->line, bpp = fi->bytes, side = v->side, gw = v->gw, gh = v->gh;
    const stex_level_layout tiled = v->tiled;
    const stex_line_stats st = v->st, sl = v->sl;
    uint64_t texel_bytes = v->texel_bytes, block_bytes = v->block_bytes;
    double padding = v->padding;
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
}

/* FORMAT and SIZE, then both layouts and their line counts. */
static int build_view(const layout_opts *o, const cli_args *a, layout_view *v)
{
    const char *cmd = "layout";
    if (a->count != 2)
        return cli_usage(cmd, "expected FORMAT and WxH[xL], got %d argument(s)", a->count);
    v->fi = stex_format_get(stex_format_from_name(a->value[0]));
    char near[96];
    if (!v->fi || v->fi->kind == STEX_KIND_COMPRESSED)
        return cli_usage(cmd, "'%s' is not a texel format stex lays out%s (see `stex formats`)",
                         a->value[0], v->fi ? "" : cli_near_format(near, sizeof near, a->value[0]));
    uint32_t *size = v->size;
    if (!cli_parse_size(cmd, "size", a->value[1], size))
        return CLI_USAGE;
    if (size[0] > 8192 || size[1] > 8192 || size[2] > 256)
        return cli_usage(cmd, "size %ux%ux%u is too large: at most 8192x8192x256 (the default "
                         "maxTextureDimension2D and maxTextureArrayLayers)", size[0], size[1], size[2]);
    if (stex_level_layout_tiled(&v->tiled, size[0], size[1], size[2], v->fi->bytes) ||
        stex_level_layout_linear(&v->linear, size[0], size[1], 1, v->fi->bytes))
        return cli_usage(cmd, "%s", stex_last_error());
    /* the line counter keeps every line a workgroup touches: bounded by the
     * device's workgroup limits, its scratch size cannot wrap */
    const uint32_t *wg = o->workgroup;
    stex_limits lim = stex_limits_default();
    if (wg[2] != 1 || wg[0] > lim.max_compute_workgroup_size_x ||
        wg[1] > lim.max_compute_workgroup_size_y ||
        (uint64_t)wg[0] * wg[1] > lim.max_compute_invocations_per_workgroup)
        return cli_usage(cmd, "--workgroup: %ux%ux%u is not a workgroup size the device allows "
                              "(WxH, W <= maxComputeWorkgroupSizeX %" PRIu64 ", H <= "
                              "maxComputeWorkgroupSizeY %" PRIu64 ", W x H <= "
                              "maxComputeInvocationsPerWorkgroup %" PRIu64 ")",
                         wg[0], wg[1], wg[2], lim.max_compute_workgroup_size_x,
                         lim.max_compute_workgroup_size_y, lim.max_compute_invocations_per_workgroup);
    if (stex_cache_lines_stencil(&v->tiled, o->line, stex_stencil_3x3, 9, wg[0], wg[1], &v->st) ||
        stex_cache_lines_stencil(&v->linear, o->line, stex_stencil_3x3, 9, wg[0], wg[1], &v->sl)) {
        fprintf(stderr, "stex layout: %s\n", stex_last_error());
        return CLI_USAGE;
    }
    v->side = 1u << v->tiled.shift;
    v->gw = size[0] < o->grid ? size[0] : o->grid;
    v->gh = size[1] < o->grid ? size[1] : o->grid;
    v->texel_bytes = (uint64_t)size[0] * size[1] * v->fi->bytes;
    v->block_bytes = 64ull * v->fi->bytes;
    v->padding = 100.0 * ((double)v->tiled.slice_bytes / (double)v->texel_bytes - 1.0);
    return CLI_OK;
}

int cli_layout(int argc, char **argv)
{
    layout_opts o = {.line = 128, .grid = 32, .workgroup = {8, 8, 1}};
    cli_args a;
    layout_view v;
    int rc = cli_parse(&cli_layout_spec, argc, argv, &o, &a);
    if (rc || a.help || (rc = build_view(&o, &a, &v)))
        return rc;
    if (o.json)
        print_json(&o, &v);
    else
        print_text(&o, &v);
    return CLI_OK;
}
