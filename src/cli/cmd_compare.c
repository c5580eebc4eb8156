/* stex compare: a readback against a golden, under a tolerance. */
#include "cli/cli_kernel.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char HELP[] =
    "usage: stex compare GOLDEN ACTUAL [OPTIONS]\n"
    "\n"
    "Compares a readback (ACTUAL) with a golden, texel by texel. Files: .bin with\n"
    "its X.bin.json sidecar (or a raw .bin described by --format/--size/\n"
    "--bytes-per-row), .npy, .png. A raw .bin or .npy ACTUAL takes the golden's\n"
    "format and size when none is given.\n"
    "\n"
    "options:\n"
    "  --tolerance T          exact (default): every texel byte equal;\n"
    "                         ulp:N: each channel within N units (LSB for normalised\n"
    "                         and integer channels, ULP for float channels);\n"
    "                         allowed: any value the spec permits for the input each\n"
    "                         texel was stored with (needs GOLDEN.inputs, written by\n"
    "                         `stex run --record-allowed`, or --inputs)\n"
    "  --inputs FILE          the recorded store inputs (default GOLDEN.inputs)\n"
    "  --format F             texel format of raw .bin / .npy files\n"
    "  --size WxH[xL]         size of raw .bin files\n"
    "  --bytes-per-row N      row pitch of raw .bin files (default: width x texel\n"
    "                         bytes rounded up to 256)\n"
    "  --rows-per-image N     image pitch of raw .bin files (default: height)\n"
    "  --diff FILE            write a picture of the differences (.png): equal texels\n"
    "                         dark grey, tolerated blue, mismatches red to yellow\n"
    "  --json                 print the result as one JSON object\n"
    "\n"
    "examples:\n"
    "  stex compare golden.bin readback.bin\n"
    "  stex compare golden.bin readback.bin --tolerance ulp:1 --diff diff.png\n"
    "  stex compare golden.bin gpu.raw.bin --format rgba8unorm --size 64x64\n"
    "  stex compare golden.npy actual.npy --json\n"
    "\n"
    "exit status: 0 equal within the tolerance, 1 mismatch, 2 usage error or\n"
    "unreadable / incomparable input.\n";

enum { OPT_TOL = 256, OPT_INPUTS, OPT_FORMAT, OPT_SIZE, OPT_BPR, OPT_RPI, OPT_DIFF, OPT_JSON };

static void print_texel_json(const char *key, const uint8_t *p, unsigned n)
{
    char hex[40];
    cli_hex(p, n, hex);
    printf("\"%s\": \"%s\"", key, hex);
}

int cli_compare(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"tolerance", required_argument, NULL, OPT_TOL},
        {"inputs", required_argument, NULL, OPT_INPUTS},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"size", required_argument, NULL, OPT_SIZE},
        {"bytes-per-row", required_argument, NULL, OPT_BPR},
        {"rows-per-image", required_argument, NULL, OPT_RPI},
        {"diff", required_argument, NULL, OPT_DIFF},
        {"json", no_argument, NULL, OPT_JSON},
        {NULL, 0, NULL, 0}};
    const char *cmd = "compare";
    stex_tolerance tol = {STEX_TOLERANCE_EXACT, 0};
    const char *tol_text = "exact", *inputs_path = NULL, *diff_path = NULL;
    cli_raw_layout raw = {.size = {0, 0, 1}};
    bool has_size = false, json = false;
    int c;
    optind = 0;
    opterr = 0; /* our message names the option */
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(HELP, stdout);
            return CLI_OK;
        case OPT_TOL:
            if (!stex_tolerance_parse(optarg, &tol))
                return cli_usage(cmd, "--tolerance: '%s' is not a tolerance (accepted: exact, "
                                      "ulp:N with N a non-negative integer, allowed)", optarg);
            tol_text = optarg;
            break;
        case OPT_INPUTS: inputs_path = optarg; break;
        case OPT_FORMAT:
            if (!cli_parse_format(cmd, optarg, &raw.format))
                return CLI_USAGE;
            break;
        case OPT_SIZE:
            if (!cli_parse_size(cmd, "--size", optarg, raw.size))
                return CLI_USAGE;
            has_size = true;
            break;
        case OPT_BPR:
            if (!cli_parse_u32(cmd, "--bytes-per-row", optarg, &raw.bytes_per_row))
                return CLI_USAGE;
            if (raw.bytes_per_row == 0 || raw.bytes_per_row % 256)
                return cli_usage(cmd, "--bytes-per-row: %s is not a positive multiple of 256 "
                                      "(copyTextureToBuffer's rule)", optarg);
            break;
        case OPT_RPI:
            if (!cli_parse_u32(cmd, "--rows-per-image", optarg, &raw.rows_per_image))
                return CLI_USAGE;
            break;
        case OPT_DIFF:
            if (stex_file_kind_of(optarg) != STEX_FILE_PNG)
                return cli_usage(cmd, "--diff: '%s' must end in .png", optarg);
            diff_path = optarg;
            break;
        case OPT_JSON: json = true; break;
        default:
            return cli_usage(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return cli_usage(cmd, "expected two files, GOLDEN and ACTUAL (got %d)", argc - optind);
    const char *gpath = argv[optind], *apath = argv[optind + 1];
    if ((raw.bytes_per_row || raw.rows_per_image || has_size) && raw.format == STEX_FORMAT_UNDEFINED)
        return cli_usage(cmd, "--size/--bytes-per-row/--rows-per-image describe a raw .bin and "
                              "need --format too");
    stex_image g = {0}, a = {0};
    stex_inputs in = {0};
    int rc = cli_read_image(cmd, gpath, &raw, &g, NULL);
    if (rc)
        return rc;
    /* The readback defaults to the golden's format and size. */
    cli_raw_layout araw = raw;
    if (!araw.format)
        araw.format = g.format;
    if (!has_size) {
        araw.size[0] = g.width, araw.size[1] = g.height, araw.size[2] = g.depth;
        araw.bytes_per_row = 0, araw.rows_per_image = 0;
    }
    rc = cli_read_image(cmd, apath, &araw, &a, NULL);
    if (rc)
        goto done;
    if (tol.kind == STEX_TOLERANCE_ALLOWED) {
        char *def = NULL;
        if (!inputs_path) {
            def = malloc(strlen(gpath) + 8);
            if (def)
                sprintf(def, "%s.inputs", gpath);
        }
        stex_status st = stex_read_inputs(inputs_path ? inputs_path : def, &in);
        free(def);
        if (st) {
            rc = cli_fail(cmd, st);
            goto done;
        }
    }
    stex_compare_result r;
    stex_status st = stex_compare(&g, &a, tol, &in, &r);
    if (st && st != STEX_MISMATCH) {
        rc = cli_fail(cmd, st);
        goto done;
    }
    if (diff_path) {
        stex_status dst = stex_write_diff_png(diff_path, &g, &a, tol, &in);
        if (dst) {
            rc = cli_fail(cmd, dst);
            goto done;
        }
    }
    const stex_format_info *fi = stex_format_get(g.format);
    if (json) {
        printf("{\"equal\": %s, \"tolerance\": ", st ? "false" : "true");
        cli_json_string(stdout, tol_text);
        printf(", \"format\": \"%s\", \"size\": [%u, %u, %u], \"texels\": %" PRIu64
               ", \"mismatches\": %" PRIu64 ", \"differing\": %" PRIu64 ", \"max_diff\": ",
               fi->name, g.width, g.height, g.depth, r.texels, r.mismatches, r.differing);
        if (r.max_diff_unbounded)
            fputs("null", stdout);
        else
            printf("%" PRIu64, r.max_diff);
        printf(", \"unit\": \"%s\", \"first_mismatches\": [", r.unit);
        for (uint32_t i = 0; i < r.listed; i++) {
            const stex_mismatch *m = &r.first[i];
            printf("%s{\"x\": %u, \"y\": %u, \"z\": %u, ", i ? ", " : "", m->x, m->y, m->z);
            print_texel_json("golden", m->golden, fi->bytes);
            fputs(", ", stdout);
            print_texel_json("actual", m->actual, fi->bytes);
            if (m->diff == UINT64_MAX)
                fputs(", \"diff\": null}", stdout);
            else
                printf(", \"diff\": %" PRIu64 "}", m->diff);
        }
        fputs("], \"diff_png\": ", stdout);
        if (diff_path)
            cli_json_string(stdout, diff_path);
        else
            fputs("null", stdout);
        puts("}");
    } else {
        char maxd[48];
        if (r.max_diff_unbounded)
            snprintf(maxd, sizeof maxd, "NaN against a number");
        else
            snprintf(maxd, sizeof maxd, "%" PRIu64 " %s", r.max_diff, r.unit);
        if (!st)
            printf("equal within %s: %" PRIu64 " %s texels (%ux%ux%u); %" PRIu64
                   " differ in their bytes, largest difference %s\n",
                   tol_text, r.texels, fi->name, g.width, g.height, g.depth, r.differing, maxd);
        else {
            printf("MISMATCH: %" PRIu64 " of %" PRIu64 " %s texels differ beyond %s; largest "
                   "difference %s\n", r.mismatches, r.texels, fi->name, tol_text, maxd);
            for (uint32_t i = 0; i < r.listed; i++) {
                const stex_mismatch *m = &r.first[i];
                char gh[40], ah[40];
                cli_hex(m->golden, fi->bytes, gh);
                cli_hex(m->actual, fi->bytes, ah);
                printf("  (%u, %u, %u): golden %s actual %s (", m->x, m->y, m->z, gh, ah);
                if (m->diff == UINT64_MAX)
                    printf("NaN against a number)\n");
                else
                    printf("%" PRIu64 " %s)\n", m->diff, r.unit);
            }
            if (r.mismatches > r.listed)
                printf("  ... and %" PRIu64 " more\n", r.mismatches - r.listed);
        }
        if (diff_path)
            printf("wrote %s\n", diff_path);
    }
    rc = st ? CLI_REFUSED : CLI_OK;
done:
    stex_image_free(&g);
    stex_image_free(&a);
    stex_inputs_free(&in);
    return rc;
}
