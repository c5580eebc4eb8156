/* stex validate: is this storage-texture bind group layout entry valid on a
 * device with these features?  Answers "ok" or WebGPU's error kind and the
 * rule that was broken. */
#include <stddef.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_features.h"
#include "stex/device.h"

static const char SYNOPSIS[] =
    "usage: stex validate --format F [--access A] [--view D] [--visibility STAGES]\n"
    "                     [--features LIST] [--no-language-feature] [--json]\n"
    "\n"
    "Validates one storageTexture bind group layout entry the way\n"
    "GPUDevice.createBindGroupLayout does, on a device with the given features.\n"
    "Prints 'ok' (exit 0) or the error kind and the broken rule (exit 1).\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex validate --format r32float --access read-write\n"
    "  stex validate --format rgba8unorm --access read-write \\\n"
    "                --features texture-formats-tier2\n"
    "  stex validate --format bgra8unorm --access read-only \\\n"
    "                --features bgra8unorm-storage\n"
    "  stex validate --format rgba8unorm --view cube --json\n";

/* --visibility keeps its text for the JSON report. */
typedef struct validate_stages {
    uint32_t mask;
    const char *text;
} validate_stages;

typedef struct validate_opts {
    stex_storage_texture_layout entry;
    validate_stages visibility;
    uint32_t features;
    bool no_language_feature, json;
} validate_opts;

/* Prints "--NAME: unknown value 'V'; accepted values: a, b, c"; returns false. */
static bool bad_value(const char *opt, const char *value, const char *accepted)
{
    cli_usage("validate", "--%s: unknown value '%s'; accepted values: %s", opt, value, accepted);
    return false;
}

static bool parse_format(const char *cmd, const char *s, void *field)
{
    stex_format f = stex_format_from_name(s);
    if (f == STEX_FORMAT_UNDEFINED) {
        char near[96];
        fprintf(stderr, "stex %s: --format: unknown format '%s'%s; accepted values:", cmd, s,
                cli_near_format(near, sizeof near, s));
        for (int i = 1; i < STEX_FORMAT_COUNT; i++)
            fprintf(stderr, "%s %s", i > 1 ? "," : "", stex_format_name((stex_format)i));
        fprintf(stderr, "\n(see `stex %s --help`)\n", cmd);
        return false;
    }
    *(stex_format *)field = f;
    return true;
}

static bool parse_access(const char *cmd, const char *s, void *field)
{
    (void)cmd;
    return stex_access_from_name(s, field) ||
           bad_value("access", s, "write-only, read-only, read-write");
}

static bool parse_view(const char *cmd, const char *s, void *field)
{
    (void)cmd;
    return stex_view_dimension_from_name(s, field) ||
           bad_value("view", s, "1d, 2d, 2d-array, 3d, cube, cube-array");
}

static bool parse_stages(const char *cmd, const char *s, void *field)
{
    validate_stages *v = field;
    const char *bad = NULL;
    (void)cmd;
    if (!stex_stages_parse(s, &v->mask, &bad)) {
        char item[64];
        snprintf(item, sizeof item, "%.*s", (int)strcspn(bad, ","), bad);
        return bad_value("visibility", item, "compute, fragment, vertex (comma-separated)");
    }
    v->text = s;
    return true;
}

#define AT(field) offsetof(validate_opts, field)
static const cli_option validate_options[] = {
    {.name = "format", .kind = CLI_CUSTOM, .parse = parse_format, .at = AT(entry.format),
     .metavar = "F", .help = "a GPUTextureFormat (required), e.g. rgba8unorm"},
    {.name = "access", .kind = CLI_CUSTOM, .parse = parse_access, .at = AT(entry.access),
     .metavar = "A", .help = "write-only | read-only | read-write (default write-only;\n"
                             "WGSL's write | read | read_write are accepted too)"},
    {.name = "view", .kind = CLI_CUSTOM, .parse = parse_view, .at = AT(entry.view_dimension),
     .metavar = "D", .help = "1d | 2d | 2d-array | 3d | cube | cube-array (default 2d)"},
    {.name = "visibility", .kind = CLI_CUSTOM, .parse = parse_stages, .at = AT(visibility),
     .metavar = "STAGES", .help = "comma-separated compute,fragment,vertex (default compute)"},
    {.name = "features", .kind = CLI_CUSTOM, .parse = cli_parse_features, .at = AT(features),
     .metavar = "LIST", .help = "comma-separated WebGPU feature names, or 'all'\n(default: none)"},
    {.name = "no-language-feature", .kind = CLI_FLAG, .at = AT(no_language_feature),
     .help = "without the WGSL language feature\n"
             "readonly_and_readwrite_storage_textures (an older browser)"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "machine-readable output"},
    {0}};
#undef AT

const cli_spec cli_validate_spec = {"validate", SYNOPSIS, EPILOGUE, validate_options};

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
    validate_opts o = {.entry = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_UNDEFINED,
                                 STEX_VIEW_DIMENSION_2D},
                       .visibility = {STEX_STAGE_COMPUTE, "compute"}};
    cli_args a;
    int rc = cli_parse(&cli_validate_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (a.count)
        return cli_usage("validate", "unexpected argument '%s'", a.value[0]);
    if (o.entry.format == STEX_FORMAT_UNDEFINED)
        return cli_usage("validate", "--format is required (a GPUTextureFormat, e.g. rgba8unorm)");
    const stex_storage_texture_layout e = o.entry;
    uint32_t visibility = o.visibility.mask, req = o.features;
    const char *visibility_arg = o.visibility.text;
    bool lang = !o.no_language_feature, json = o.json;

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
        printf(", \"view_dimension\": ");
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
