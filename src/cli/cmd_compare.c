/* stex compare: a readback against a golden, under a tolerance. */
#include "cli/cli_kernel.h"
#include "cli/compare_report.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char SYNOPSIS[] =
    "usage: stex compare GOLDEN ACTUAL [OPTIONS]\n"
    "\n"
    "Compares a readback (ACTUAL) with a golden, texel by texel. Files: .bin with\n"
    "its X.bin.json sidecar (or a raw .bin described by --format/--size/\n"
    "--bytes-per-row), .npy, .png. A raw .bin or .npy ACTUAL takes the golden's\n"
    "format and size when none is given. A golden whose companions (data,\n"
    "sidecar, recorded inputs) do not belong together is refused. A readback\n"
    "in B, G, R, A order (a canvas or swap chain's bgra8unorm) is compared with\n"
    "an rgba8unorm golden with its B and R bytes swapped, as the report says.\n"
    "An allowed golden (`stex run ... --golden allowed`: X.bin.allowed beside\n"
    "X.bin) holds the bounds of every value a conformant device may store:\n"
    "values inside pass, each value outside is listed with its distance to\n"
    "the nearest allowed one, unconstrained values are counted by reason.\n"
    "--tolerance compares with its X.bin instead (the profile's output).\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex compare golden.bin readback.bin\n"
    "  stex compare golden.bin readback.bin --tolerance ulp:1 --diff diff.png\n"
    "  stex compare golden.bin gpu.raw.bin --format rgba8unorm --size 64x64\n"
    "  stex compare golden.bin gpu.raw.bin --bytes-per-row 512  # golden's format\n"
    "  stex compare golden.bin gpu.raw.bin --unpadded\n"
    "  stex compare golden.bin canvas.raw.bin --format bgra8unorm   # B, R swapped\n"
    "  stex compare golden.png screenshot.png --swizzle bgra\n"
    "  stex compare golden.npy actual.npy --json\n"
    "  stex compare allowed.bin gpu.raw.bin   # inside the bounds?\n"
    "\n"
    "exit status: 0 equal within the tolerance (inside the bounds), 1 mismatch\n"
    "(a value outside), 2 usage error, unreadable / incomparable input or\n"
    "unwritable output.\n";

/* --tolerance keeps its text for the report. */
typedef struct compare_tolerance {
    stex_tolerance tol;
    const char *text;
} compare_tolerance;

typedef struct compare_opts {
    compare_tolerance tolerance;
    const char *inputs, *diff;
    cli_raw_layout raw;
    bool json, unpadded, swizzle;
} compare_opts;

static bool parse_tolerance(const char *cmd, const char *s, void *field)
{
    compare_tolerance *t = field;
    if (!stex_tolerance_parse(s, &t->tol)) {
        cli_usage(cmd, "--tolerance: '%s' is not a tolerance (accepted: exact, ulp:N with N a "
                       "non-negative integer, allowed)", s);
        return false;
    }
    t->text = s;
    return true;
}

static bool parse_bytes_per_row(const char *cmd, const char *s, void *field)
{
    if (!cli_parse_u32(cmd, "--bytes-per-row", s, field))
        return false;
    if (*(uint32_t *)field == 0) {
        cli_usage(cmd, "--bytes-per-row: 0 is not a row pitch");
        return false;
    }
    return true; /* a multiple of 256, or one unpadded row: checked with the format */
}

static bool parse_diff(const char *cmd, const char *s, void *field)
{
    if (stex_file_kind_of(s) != STEX_FILE_PNG) {
        cli_usage(cmd, "--diff: '%s' must end in .png", s);
        return false;
    }
    *(const char **)field = s;
    return true;
}

static bool parse_swizzle(const char *cmd, const char *s, void *field)
{
    if (strcmp(s, "bgra") && strcmp(s, "rgba")) {
        cli_usage(cmd, "--swizzle: '%s' is not a byte order (accepted: bgra, rgba)", s);
        return false;
    }
    *(bool *)field = !strcmp(s, "bgra");
    return true;
}

#define AT(field) offsetof(compare_opts, field)
static const cli_option compare_options[] = {
    {.name = "tolerance", .kind = CLI_CUSTOM, .parse = parse_tolerance, .at = AT(tolerance),
     .metavar = "T",
     .help = "exact (default): every texel byte equal;\n"
             "ulp:N: each channel within N units (LSB for normalised\n"
             "and integer channels, ULP for float channels);\n"
             "allowed: any value the spec permits for the input each\n"
             "texel was stored with (needs GOLDEN.inputs, written by\n"
             "`stex run --record-allowed`, or --inputs)"},
    {.name = "inputs", .kind = CLI_TEXT, .at = AT(inputs), .metavar = "FILE",
     .help = "the recorded store inputs (default GOLDEN.inputs)"},
    {.name = "format", .kind = CLI_CUSTOM, .parse = cli_parse_format, .at = AT(raw.format),
     .metavar = "F", .help = "texel format of raw .bin / .npy files"},
    {.name = "size", .kind = CLI_SIZE, .at = AT(raw.size), .metavar = "WxH[xL]",
     .help = "size of raw .bin files"},
    {.name = "bytes-per-row", .kind = CLI_CUSTOM, .parse = parse_bytes_per_row,
     .at = AT(raw.bytes_per_row), .metavar = "N",
     .help = "row pitch of raw .bin files: a multiple of 256\n"
             "(default: width x texel bytes rounded up to 256) or,\n"
             "for an unpadded readback, exactly width x texel bytes"},
    {.name = "unpadded", .kind = CLI_FLAG, .at = AT(unpadded),
     .help = "raw .bin files have unpadded rows (bytes per row =\n"
             "width x texel bytes), as a readback copied row by row"},
    {.name = "swizzle", .kind = CLI_CUSTOM, .parse = parse_swizzle, .at = AT(swizzle),
     .metavar = "ORDER",
     .help = "bgra: ACTUAL's 8-bit channels lie in B, G, R, A order\n"
             "(a canvas or swap-chain readback): B and R are\n"
             "swapped before comparing; rgba (default): as read.\n"
             "A bgra8unorm ACTUAL (its sidecar's or --format's)\n"
             "against an rgba8unorm golden is swapped anyway"},
    {.name = "rows-per-image", .kind = CLI_U32, .at = AT(raw.rows_per_image), .metavar = "N",
     .help = "image pitch of raw .bin files (default: height)"},
    {.name = "diff", .kind = CLI_CUSTOM, .parse = parse_diff, .at = AT(diff), .metavar = "FILE",
     .help = "write a picture of the differences (.png): equal\n"
             "texels dark grey, tolerated blue, mismatches red (1\n"
             "unit) to yellow (4096 or more), a legend below naming\n"
             "each colour and its count of texels (an allowed\n"
             "golden: inside grey, unconstrained blue, outside red\n"
             "to yellow by the distance)"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print the result as one JSON object"},
    {0}};
#undef AT

const cli_spec cli_compare_spec = {"compare", SYNOPSIS, EPILOGUE, compare_options};

/* The row pitch at which a raw file of `size` bytes holds the texels:
 * unpadded rows (bytesPerRow = row) or a multiple of 256, the file whole
 * or without the last row's padding (as stex_read_bin_raw reads); 0 if
 * none fits. */
static uint64_t pitch_of(uint64_t size, uint64_t row, uint64_t h, uint64_t d, uint64_t rpi)
{
    if (size == row * rpi * d || size == row * (rpi * (d - 1) + h))
        return row;
    if (size % (rpi * d) == 0) {
        uint64_t b = size / (rpi * d);
        if (b >= row && b % 256 == 0)
            return b;
    }
    uint64_t n = rpi * (d - 1) + h - 1; /* padded rows before the last one */
    if (n && size > row && (size - row) % n == 0) {
        uint64_t b = (size - row) / n;
        if (b >= row && b % 256 == 0)
            return b;
    }
    return 0;
}

/* A raw .bin that did not fit the layout it was read with: what its size
 * does fit (unpadded rows, another bytesPerRow, another texel size), and
 * the option that reads it so.  Nothing when the failure was another. */
static void pitch_hint(const char *path, const cli_raw_layout *raw)
{
    char side[4096];
    struct stat sb;
    snprintf(side, sizeof side, "%s.json", path);
    if (stex_file_kind_of(path) != STEX_FILE_BIN || !access(side, F_OK) || !raw->format ||
        !raw->size[0] || stat(path, &sb) || !S_ISREG(sb.st_mode))
        return;
    const stex_format_info *fi = stex_format_get(raw->format);
    uint64_t size = (uint64_t)sb.st_size, w = raw->size[0], h = raw->size[1];
    uint64_t d = raw->size[2] ? raw->size[2] : 1, rpi = raw->rows_per_image ? raw->rows_per_image : h;
    uint64_t asked = raw->bytes_per_row ? raw->bytes_per_row
                                        : stex_copy_bytes_per_row(raw->format, (uint32_t)w);
    uint64_t bpr = pitch_of(size, w * fi->bytes, h, d, rpi);
    if (bpr && bpr != asked && bpr == w * fi->bytes) {
        fprintf(stderr, "stex compare: hint: %s's %" PRIu64 " bytes are %" PRIu64 "x%" PRIu64
                        "x%" PRIu64 " %s texels\n  in unpadded rows (bytesPerRow %" PRIu64
                        " = %" PRIu64 " x %u bytes): read it with --unpadded\n",
                path, size, w, h, d, fi->name, bpr, w, fi->bytes);
        return;
    }
    if (bpr && bpr != asked) {
        fprintf(stderr, "stex compare: hint: %s's %" PRIu64 " bytes are %" PRIu64 "x%" PRIu64
                        "x%" PRIu64 " %s texels\n  in rows of %" PRIu64 " bytes (bytesPerRow %"
                        PRIu64 "): read it with --bytes-per-row %" PRIu64 "\n",
                path, size, w, h, d, fi->name, bpr, bpr, bpr);
        return;
    }
    static const unsigned texel_bytes[] = {1, 2, 4, 8, 16};
    for (size_t i = 0; i < sizeof texel_bytes / sizeof texel_bytes[0]; i++) {
        unsigned b = texel_bytes[i];
        if (b == fi->bytes || !pitch_of(size, w * b, h, d, rpi))
            continue;
        fprintf(stderr, "stex compare: hint: %s's %" PRIu64 " bytes fit %" PRIu64 "x%" PRIu64
                        "x%" PRIu64 " texels of %u bytes,\n  not %s's %u: give the readback's "
                        "format with --format\n", path, size, w, h, d, b, fi->name, fi->bytes);
        return;
    }
}

/* GOLDEN, then ACTUAL: a raw ACTUAL defaults to the golden's format and size. */
static int read_pair(const compare_opts *o, bool has_size, const char *gpath, const char *apath,
                     stex_image *g, stex_image *a, stex_io_meta_read *gmeta)
{
    int rc = cli_read_image("compare", gpath, &o->raw, g, gmeta);
    if (rc) {
        pitch_hint(gpath, &o->raw);
        return rc;
    }
    cli_raw_layout araw = o->raw;
    if (!araw.format)
        araw.format = g->format;
    if (!has_size)
        araw.size[0] = g->width, araw.size[1] = g->height, araw.size[2] = g->depth;
    if (o->unpadded)
        araw.bytes_per_row = araw.size[0] * stex_format_get(araw.format)->bytes;
    rc = cli_read_image("compare", apath, &araw, a, NULL);
    if (rc)
        pitch_hint(apath, &araw);
    return rc;
}

/* The readback's R and B bytes in place of the golden's: for --swizzle
 * bgra, or a bgra8unorm readback of an rgba8unorm golden (and the -srgb
 * pair, and the other way round). */
static bool needs_swap(const compare_opts *o, stex_format golden, stex_format actual)
{
    static const stex_format pairs[][2] = {
        {STEX_FORMAT_BGRA8UNORM, STEX_FORMAT_RGBA8UNORM},
        {STEX_FORMAT_BGRA8UNORM_SRGB, STEX_FORMAT_RGBA8UNORM_SRGB},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if ((actual == pairs[i][0] && golden == pairs[i][1]) ||
            (actual == pairs[i][1] && golden == pairs[i][0]))
            return true;
    return o->swizzle;
}

/* --tolerance allowed: the store inputs, from --inputs or GOLDEN.inputs,
 * which must be the ones the golden's sidecar records. */
static int read_inputs(const compare_opts *o, const char *gpath, const stex_io_meta_read *gmeta,
                       stex_inputs *in)
{
    char *def = NULL;
    if (!o->inputs) {
        def = malloc(strlen(gpath) + 8);
        if (def)
            sprintf(def, "%s.inputs", gpath);
    }
    const char *path = o->inputs ? o->inputs : def;
    stex_status st = path ? stex_read_inputs(path, in) : stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
    int rc = st ? cli_fail("compare", st) : CLI_OK;
    if (!rc && gmeta->has_inputs_hash && !gmeta->inputs_sha256[0])
        rc = cli_usage("compare", "--tolerance allowed: %s was written without --record-allowed, "
                                  "so '%s' belongs to another run; record the golden again with "
                                  "`stex run ... --record-allowed`", gpath, path);
    else if (!rc && gmeta->has_inputs_hash && strcmp(gmeta->inputs_sha256, in->sha256))
        rc = cli_usage("compare", "--tolerance allowed: '%s' does not belong to %s (its SHA-256 "
                                  "%.12s... is not the %.12s... the sidecar records); record the "
                                  "golden again with `stex run ... --record-allowed`",
                       path, gpath, in->sha256, gmeta->inputs_sha256);
    free(def);
    return rc;
}

/* An allowed golden without --tolerance: the readback against its bounds. */
static int compare_with_bounds(const compare_opts *o, const char *gpath, const stex_image *a,
                               const compare_report *rep)
{
    stex_bounds b;
    stex_status st = stex_read_allowed_golden(gpath, &b, NULL, NULL);
    if (st)
        return cli_fail("compare", st);
    stex_bounds_result r;
    int rc;
    st = stex_compare_bounds(&b, a, &r);
    stex_status dst = st && st != STEX_MISMATCH ? st
                      : o->diff ? stex_write_bounds_diff_png(o->diff, &b, a) : STEX_OK;
    if (dst)
        rc = cli_fail("compare", dst);
    else {
        if (o->json)
            compare_bounds_print_json(rep, &b, &r);
        else
            compare_bounds_print_text(rep, &b, &r);
        rc = st ? CLI_REFUSED : CLI_OK;
    }
    stex_bounds_free(&b);
    return rc;
}

int cli_compare(int argc, char **argv)
{
    const char *cmd = "compare";
    compare_opts o = {.tolerance = {{STEX_TOLERANCE_EXACT, 0}, "exact"}, .raw = {.size = {0, 0, 1}}};
    cli_args args;
    int rc = cli_parse(&cli_compare_spec, argc, argv, &o, &args);
    if (rc || args.help)
        return rc;
    if (args.count != 2)
        return cli_usage(cmd, "expected two files, GOLDEN and ACTUAL (got %d)", args.count);
    bool has_size = cli_given(&cli_compare_spec, &args, "size");
    if (has_size && o.raw.format == STEX_FORMAT_UNDEFINED)
        return cli_usage(cmd, "--size describes a raw .bin and needs --format too (without "
                              "both, a raw ACTUAL takes the golden's)");
    uint32_t bpr = o.raw.bytes_per_row;
    if (bpr && has_size && bpr % 256 && bpr != o.raw.size[0] * stex_format_get(o.raw.format)->bytes)
        return cli_usage(cmd, "--bytes-per-row: %u is neither a multiple of 256 (copyTextureToBuffer's "
                              "rule) nor one unpadded row of %u %s texels (%u bytes)", bpr,
                         o.raw.size[0], stex_format_name(o.raw.format),
                         o.raw.size[0] * stex_format_get(o.raw.format)->bytes);
    if (o.unpadded && o.raw.bytes_per_row)
        return cli_usage(cmd, "--unpadded and --bytes-per-row both give the row pitch: give one");
    const char *gpath = args.value[0];
    stex_image g = {0}, a = {0};
    stex_inputs in = {0};
    stex_io_meta_read gmeta;
    stex_compare_result r;
    stex_status st = STEX_OK;
    if ((rc = read_pair(&o, has_size, gpath, args.value[1], &g, &a, &gmeta)))
        goto done;
    compare_report rep = {.tolerance = o.tolerance.text, .actual_path = args.value[1],
                          .diff = o.diff, .actual_format = a.format, .swizzle_asked = o.swizzle};
    if (needs_swap(&o, g.format, a.format)) {
        if (stex_image_swap_rb(&a, g.format)) {
            rc = cli_usage(cmd, "%s%s", o.swizzle ? "--swizzle bgra: " : "", stex_last_error());
            goto done;
        }
        rep.swizzled = true;
    }
    if (gmeta.allowed && !cli_given(&cli_compare_spec, &args, "tolerance")) {
        rc = compare_with_bounds(&o, gpath, &a, &rep);
        goto done;
    }
    if (o.tolerance.tol.kind == STEX_TOLERANCE_ALLOWED && (rc = read_inputs(&o, gpath, &gmeta, &in)))
        goto done;
    st = stex_compare(&g, &a, o.tolerance.tol, &in, &r);
    if (st && st != STEX_MISMATCH) {
        rc = cli_fail(cmd, st);
        goto done;
    }
    stex_status dst = o.diff ? stex_write_diff_png(o.diff, &g, &a, o.tolerance.tol, &in) : STEX_OK;
    if (dst) {
        rc = cli_fail(cmd, dst);
        goto done;
    }
    if (o.json)
        compare_print_json(&rep, &g, &r, !st);
    else
        compare_print_text(&rep, &g, &r, !st);
    rc = st ? CLI_REFUSED : CLI_OK;
done:
    stex_image_free(&g);
    stex_image_free(&a);
    stex_inputs_free(&in);
    return rc;
}
