/* stex compare: a readback against a golden, under a tolerance. */
#include "cli/cli_kernel.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char SYNOPSIS[] =
    "usage: stex compare GOLDEN ACTUAL [OPTIONS]\n"
    "\n"
    "Compares a readback (ACTUAL) with a golden, texel by texel. Files: .bin with\n"
    "its X.bin.json sidecar (or a raw .bin described by --format/--size/\n"
    "--bytes-per-row), .npy, .png. A raw .bin or .npy ACTUAL takes the golden's\n"
    "format and size when none is given. A golden whose companions (data,\n"
    "sidecar, recorded inputs) do not belong together is refused.\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex compare golden.bin readback.bin\n"
    "  stex compare golden.bin readback.bin --tolerance ulp:1 --diff diff.png\n"
    "  stex compare golden.bin gpu.raw.bin --format rgba8unorm --size 64x64\n"
    "  stex compare golden.bin gpu.raw.bin --bytes-per-row 512   # format, size: golden's\n"
    "  stex compare golden.bin gpu.raw.bin --unpadded\n"
    "  stex compare golden.npy actual.npy --json\n"
    "\n"
    "exit status: 0 equal within the tolerance, 1 mismatch, 2 usage error,\n"
    "unreadable / incomparable input or unwritable output.\n";

/* --tolerance keeps its text for the report. */
typedef struct compare_tolerance {
    stex_tolerance tol;
    const char *text;
} compare_tolerance;

typedef struct compare_opts {
    compare_tolerance tolerance;
    const char *inputs, *diff;
    cli_raw_layout raw;
    bool json, unpadded;
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
     .help = "row pitch of raw .bin files: a multiple of 256 (default:\n"
             "width x texel bytes rounded up to 256) or, for an\n"
             "unpadded readback, exactly width x texel bytes"},
    {.name = "unpadded", .kind = CLI_FLAG, .at = AT(unpadded),
     .help = "raw .bin files have unpadded rows (bytes per row =\n"
             "width x texel bytes), as a readback copied row by row"},
    {.name = "rows-per-image", .kind = CLI_U32, .at = AT(raw.rows_per_image), .metavar = "N",
     .help = "image pitch of raw .bin files (default: height)"},
    {.name = "diff", .kind = CLI_CUSTOM, .parse = parse_diff, .at = AT(diff), .metavar = "FILE",
     .help = "write a picture of the differences (.png): equal texels\n"
             "dark grey, tolerated blue, mismatches red to yellow"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print the result as one JSON object"},
    {0}};
#undef AT

const cli_spec cli_compare_spec = {"compare", SYNOPSIS, EPILOGUE, compare_options};

static void print_texel_json(const char *key, const uint8_t *p, unsigned n)
{
    char hex[40];
    cli_hex(p, n, hex);
    printf("\"%s\": \"%s\"", key, hex);
}

/* "KEY": [0.5, 1, 0, 1]: what textureLoad returns for the texel's bytes,
 * its channels only (the spec profile; integers for uint/sint formats;
 * NaN and infinities, which JSON numbers cannot hold, as "NaN", "inf",
 * "-inf"). */
static void print_values_json(const char *key, stex_format f, const uint8_t *bytes)
{
    const stex_format_info *fi = stex_format_get(f);
    stex_vec4 v;
    printf("\"%s\": ", key);
    if (stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), f, bytes, &v)) {
        fputs("null", stdout);
        return;
    }
    for (unsigned c = 0; c < fi->channels; c++) {
        fputs(c ? ", " : "[", stdout);
        if (fi->scalar == STEX_SCALAR_U32)
            printf("%" PRIu32, v.u[c]);
        else if (fi->scalar == STEX_SCALAR_I32)
            printf("%" PRId32, v.i[c]);
        else if (isnan(v.f[c]))
            fputs("\"NaN\"", stdout);
        else if (isinf(v.f[c]))
            fputs(v.f[c] > 0 ? "\"inf\"" : "\"-inf\"", stdout);
        else
            printf("%.9g", (double)v.f[c]);
    }
    fputs("]", stdout);
}

static void print_json(const compare_opts *o, const stex_image *g, const stex_compare_result *r,
                       bool equal)
{
    const stex_format_info *fi = stex_format_get(g->format);
    printf("{\"equal\": %s, \"tolerance\": ", equal ? "true" : "false");
    cli_json_string(stdout, o->tolerance.text);
    printf(", \"format\": \"%s\", \"size\": [%u, %u, %u], \"texels\": %" PRIu64
           ", \"mismatches\": %" PRIu64 ", \"differing\": %" PRIu64 ", \"max_diff\": ",
           fi->name, g->width, g->height, g->depth, r->texels, r->mismatches, r->differing);
    if (r->max_diff_unbounded)
        fputs("null", stdout);
    else
        printf("%" PRIu64, r->max_diff);
    printf(", \"unit\": \"%s\", \"first_mismatches\": [", r->unit);
    for (uint32_t i = 0; i < r->listed; i++) {
        const stex_mismatch *m = &r->first[i];
        printf("%s{\"x\": %u, \"y\": %u, \"z\": %u, ", i ? ", " : "", m->x, m->y, m->z);
        print_texel_json("golden", m->golden, fi->bytes);
        fputs(", ", stdout);
        print_texel_json("actual", m->actual, fi->bytes);
        fputs(", ", stdout);
        print_values_json("golden_values", g->format, m->golden);
        fputs(", ", stdout);
        print_values_json("actual_values", g->format, m->actual);
        if (m->diff == UINT64_MAX)
            fputs(", \"diff\": null}", stdout);
        else
            printf(", \"diff\": %" PRIu64 "}", m->diff);
    }
    fputs("], \"diff_png\": ", stdout);
    if (o->diff)
        cli_json_string(stdout, o->diff);
    else
        fputs("null", stdout);
    puts("}");
}

/* "(0.5, 1, 0, 1)": what textureLoad returns for the texel's bytes, its
 * channels only (the spec profile; integers for uint/sint formats). */
static void decoded(stex_format f, const uint8_t *bytes, char *buf, size_t n)
{
    const stex_format_info *fi = stex_format_get(f);
    stex_vec4 v;
    if (stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), f, bytes, &v)) {
        snprintf(buf, n, "(?)");
        return;
    }
    size_t k = 0;
    for (unsigned c = 0; c < fi->channels && k < n; c++) {
        const char *sep = c ? ", " : "(";
        if (fi->scalar == STEX_SCALAR_U32)
            k += (size_t)snprintf(buf + k, n - k, "%s%" PRIu32, sep, v.u[c]);
        else if (fi->scalar == STEX_SCALAR_I32)
            k += (size_t)snprintf(buf + k, n - k, "%s%" PRId32, sep, v.i[c]);
        else
            k += (size_t)snprintf(buf + k, n - k, "%s%.9g", sep, (double)v.f[c]);
    }
    if (k < n)
        snprintf(buf + k, n - k, ")");
}

static void print_text(const compare_opts *o, const stex_image *g, const stex_compare_result *r,
                       bool equal)
{
    const stex_format_info *fi = stex_format_get(g->format);
    const char *tol = o->tolerance.text;
    char maxd[48];
    if (r->max_diff_unbounded)
        snprintf(maxd, sizeof maxd, "NaN against a number");
    else
        snprintf(maxd, sizeof maxd, "%" PRIu64 " %s", r->max_diff, r->unit);
    if (equal) {
        printf("equal within %s: %" PRIu64 " %s texels (%ux%ux%u); %" PRIu64
               " differ in their bytes, largest difference %s\n",
               tol, r->texels, fi->name, g->width, g->height, g->depth, r->differing, maxd);
    } else {
        printf("MISMATCH: %" PRIu64 " of %" PRIu64 " %s texels differ beyond %s; largest "
               "difference %s\n", r->mismatches, r->texels, fi->name, tol, maxd);
        for (uint32_t i = 0; i < r->listed; i++) {
            const stex_mismatch *m = &r->first[i];
            char gh[40], ah[40];
            cli_hex(m->golden, fi->bytes, gh);
            cli_hex(m->actual, fi->bytes, ah);
            char gv[160], av[160];
            decoded(g->format, m->golden, gv, sizeof gv);
            decoded(g->format, m->actual, av, sizeof av);
            printf("  (%u, %u, %u): golden %s %s actual %s %s (", m->x, m->y, m->z, gh, gv, ah, av);
            if (m->diff == UINT64_MAX)
                printf("NaN against a number)\n");
            else
                printf("%" PRIu64 " %s)\n", m->diff, r->unit);
        }
        if (r->mismatches > r->listed)
            printf("  ... and %" PRIu64 " more\n", r->mismatches - r->listed);
    }
    if (o->diff)
        printf("wrote %s\n", o->diff);
}

/* GOLDEN, then ACTUAL: a raw ACTUAL defaults to the golden's format and size. */
static int read_pair(const compare_opts *o, bool has_size, const char *gpath, const char *apath,
                     stex_image *g, stex_image *a, stex_io_meta_read *gmeta)
{
    int rc = cli_read_image("compare", gpath, &o->raw, g, gmeta);
    if (rc)
        return rc;
    cli_raw_layout araw = o->raw;
    if (!araw.format)
        araw.format = g->format;
    if (!has_size)
        araw.size[0] = g->width, araw.size[1] = g->height, araw.size[2] = g->depth;
    if (o->unpadded)
        araw.bytes_per_row = araw.size[0] * stex_format_get(araw.format)->bytes;
    return cli_read_image("compare", apath, &araw, a, NULL);
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
        print_json(&o, &g, &r, !st);
    else
        print_text(&o, &g, &r, !st);
    rc = st ? CLI_REFUSED : CLI_OK;
done:
    stex_image_free(&g);
    stex_image_free(&a);
    stex_inputs_free(&in);
    return rc;
}
