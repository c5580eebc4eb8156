/* stex validate: is this storage-texture bind group layout entry valid on a
 * device with these features?  Answers "ok" or WebGPU's error kind and the
 * rule that was broken. */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_features.h"
#include "stex/device.h"

static const char *const validate_help =
    "usage: stex validate --format F [--access A] [--view D] [--visibility STAGES]\n"
    "                     [--features LIST] [--no-language-feature] [--json]\n"
    "\n"
    "Validates one storageTexture bind group layout entry the way\n"
    "GPUDevice.createBindGroupLayout does, on a device with the given features.\n"
    "Prints 'ok' (exit 0) or the error kind and the broken rule (exit 1).\n"
    "\n"
    "  --format F               a GPUTextureFormat (required), e.g. rgba8unorm\n"
    "  --access A               write-only | read-only | read-write (default write-only;\n"
    "                           WGSL's write | read | read_write are accepted too)\n"
    "  --view D                 1d | 2d | 2d-array | 3d | cube | cube-array (default 2d)\n"
    "  --visibility STAGES      comma-separated compute,fragment,vertex (default compute)\n"
    "  --features LIST          comma-separated WebGPU feature names, or 'all'\n"
    "                           (default: none)\n"
    "  --no-language-feature    without the WGSL language feature\n"
    "                           readonly_and_readwrite_storage_textures (an older browser)\n"
    "  --json                   machine-readable output\n"
    "\n"
    "examples:\n"
    "  stex validate --format r32float --access read-write\n"
    "  stex validate --format rgba8unorm --access read-write --features texture-formats-tier2\n"
    "  stex validate --format bgra8unorm --access read-only --features bgra8unorm-storage\n"
    "  stex validate --format rgba8unorm --view cube --json\n";

/* Prints "--NAME: unknown value 'V'; accepted: a, b, c" and returns CLI_USAGE. */
static int bad_value(const char *opt, const char *value, const char *accepted)
{
    return cli_usage("validate", "--%s: unknown value '%s'; accepted values: %s", opt, value,
                     accepted);
}

static void json_features(uint32_t feat)
{
    bool first = true;
    for (int i = 0; i < STEX_FEATURE_COUNT; i++)
        if (feat & (1u << i)) {
            fputs(first ? "" : ", ", stdout);
            cli_json_string(stdout, stex_feature_name((stex_feature)(1u << i)));
            first = false;
        }
}

int cli_validate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"format", required_argument, NULL, 'f'},
        {"access", required_argument, NULL, 'a'},
        {"view", required_argument, NULL, 'v'},
        {"visibility", required_argument, NULL, 's'},
        {"features", required_argument, NULL, 'F'},
        {"no-language-feature", no_argument, NULL, 'L'},
        {"json", no_argument, NULL, 'j'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    stex_storage_texture_layout e = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_UNDEFINED,
                                     STEX_VIEW_DIMENSION_2D};
    uint32_t visibility = STEX_STAGE_COMPUTE, req = 0;
    const char *visibility_arg = "compute";
    bool lang = true, json = false;
    int c;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        const char *bad = NULL;
        switch (c) {
        case 'f':
            e.format = stex_format_from_name(optarg);
            if (e.format == STEX_FORMAT_UNDEFINED) {
                fprintf(stderr, "stex validate: --format: unknown format '%s'; accepted values:",
                        optarg);
                for (int f = 1; f < STEX_FORMAT_COUNT; f++)
                    fprintf(stderr, "%s %s", f > 1 ? "," : "", stex_format_name((stex_format)f));
                fputs("\n(see `stex validate --help`)\n", stderr);
                return CLI_USAGE;
            }
            break;
        case 'a':
            if (!stex_access_from_name(optarg, &e.access))
                return bad_value("access", optarg, "write-only, read-only, read-write");
            break;
        case 'v':
            if (!stex_view_dimension_from_name(optarg, &e.view_dimension))
                return bad_value("view", optarg, "1d, 2d, 2d-array, 3d, cube, cube-array");
            break;
        case 's':
            if (!stex_stages_parse(optarg, &visibility, &bad)) {
                char item[64];
                snprintf(item, sizeof item, "%.*s", (int)strcspn(bad, ","), bad);
                return bad_value("visibility", item, "compute, fragment, vertex (comma-separated)");
            }
            visibility_arg = optarg;
            break;
        case 'F':
            if (!cli_parse_features("validate", optarg, &req))
                return CLI_USAGE;
            break;
        case 'L': lang = false; break;
        case 'j': json = true; break;
        case 'h': fputs(validate_help, stdout); return CLI_OK;
        default:
            return cli_usage("validate", "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_usage("validate", "unexpected argument '%s'", argv[optind]);
    if (e.format == STEX_FORMAT_UNDEFINED)
        return cli_usage("validate", "--format is required (a GPUTextureFormat, e.g. rgba8unorm)");

    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.language_features =
        lang ? STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES : 0;
    stex_adapter *adapter;
    stex_device *dev;
    stex_device_desc dd = {.required_features = req};
    if (stex_adapter_create(&ad, &adapter) || stex_device_create(adapter, &dd, &dev)) {
        fprintf(stderr, "stex validate: %s\n", stex_last_error());
        return CLI_USAGE;
    }
    stex_clear_error();
    stex_status st = stex_validate_storage_texture_layout(dev, visibility, &e);
    if (json) {
        printf("{\"format\": ");
        cli_json_string(stdout, stex_format_name(e.format));
        printf(", \"access\": ");
        cli_json_string(stdout, stex_access_name(e.access));
        printf(", \"viewDimension\": ");
        cli_json_string(stdout, stex_view_dimension_name(e.view_dimension));
        printf(", \"visibility\": ");
        cli_json_string(stdout, visibility_arg);
        printf(", \"features\": [");
        json_features(stex_device_features(dev));
        printf("], \"readonly_and_readwrite_storage_textures\": %s, \"result\": ",
               lang ? "true" : "false");
        cli_json_string(stdout, stex_status_name(st));
        printf(", \"message\": ");
        cli_json_string(stdout, st ? stex_last_error() : "");
        printf("}\n");
    } else if (st == STEX_OK) {
        puts("ok");
    } else {
        printf("%s: %s\n", stex_status_name(st), stex_last_error());
    }
    stex_device_destroy(dev);
    stex_adapter_destroy(adapter);
    return st == STEX_OK ? CLI_OK : CLI_REFUSED;
}
