/* stex formats: which formats a storage texture may use, per access mode,
 * under a feature set (the lessons' admiteStorage / admiteReadWrite). */
#include <stddef.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_features.h"
#include "stex/device.h"

static const char SYNOPSIS[] =
    "usage: stex formats [--features LIST] [--no-language-feature] [--json]\n"
    "\n"
    "Lists every texture format with its storage-texture support under a device\n"
    "that has the given features: for write-only, read-only and read-write,\n"
    "'yes' or why not (the feature it needs, 'never', or the missing WGSL\n"
    "language feature).\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex formats\n"
    "  stex formats --features texture-formats-tier2 --json\n"
    "  stex formats --features bgra8unorm-storage --no-language-feature\n";

typedef struct formats_opts {
    uint32_t features;
    bool no_language_feature, json;
} formats_opts;

#define AT(field) offsetof(formats_opts, field)
static const cli_option formats_options[] = {
    {.name = "features", .kind = CLI_CUSTOM, .parse = cli_parse_features, .at = AT(features),
     .metavar = "LIST",
     .help = "comma-separated WebGPU feature names, e.g.\n"
             "bgra8unorm-storage,texture-formats-tier1 ('all' = every\n"
             "feature; default: none). Implied features are added\n"
             "(texture-formats-tier2 -> tier1 -> rg11b10ufloat-renderable)."},
    {.name = "no-language-feature", .kind = CLI_FLAG, .at = AT(no_language_feature),
     .help = "model a browser without the WGSL language feature\n"
             "readonly_and_readwrite_storage_textures"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "machine-readable output"},
    {0}};
#undef AT

const cli_spec cli_formats_spec = {"formats", SYNOPSIS, EPILOGUE, formats_options};

bool cli_parse_features(const char *cmd, const char *list, void *mask)
{
    const char *bad = NULL;
    if (!strcmp(list, "all")) {
        *(uint32_t *)mask = STEX_FEATURE_ALL;
        return true;
    }
    if (stex_features_parse(list, mask, &bad))
        return true;
    size_t len = strcspn(bad, ",");
    if (len == 3 && !strncmp(bad, "all", 3)) {
        cli_usage(cmd, "--features: 'all' means every feature and stands alone; give either "
                       "'all' or a list of feature names, not both ('%s')", list);
        return false;
    }
    fprintf(stderr, "stex %s: --features: unknown feature '%.*s'; the features are: all", cmd,
            (int)len, bad);
    for (int i = 0; i < STEX_FEATURE_COUNT; i++)
        fprintf(stderr, ", %s", stex_feature_name((stex_feature)(1u << i)));
    fprintf(stderr, "\n(see `stex %s --help`)\n", cmd);
    return false;
}

/* One cell: "yes" or the reason it is refused. */
static const char *cell(stex_format f, stex_access a, uint32_t feat, uint32_t lf, char *buf,
                        size_t size)
{
    stex_tier need = stex_format_access_tier(f, a);
    if (need == STEX_TIER_NEVER)
        return "never";
    if (!stex_tier_enabled(need, feat)) {
        /* texture-formats-tierN as tierN, said under the table: it fits 80 columns */
        const char *name = stex_tier_name(need);
        snprintf(buf, size, "needs %s",
                 strncmp(name, "texture-formats-", 16) ? name : name + 16);
        return buf;
    }
    if (!stex_format_supports_access(f, a, feat, lf))
        return "needs language feature";
    return "yes";
}

static void print_features(FILE *out, uint32_t feat, bool json)
{
    bool first = true;
    for (int i = 0; i < STEX_FEATURE_COUNT; i++) {
        if (!(feat & (1u << i)))
            continue;
        const char *name = stex_feature_name((stex_feature)(1u << i));
        if (json) {
            fputs(first ? "" : ", ", out);
            cli_json_string(out, name);
        } else {
            fprintf(out, "%s%s", first ? "" : ", ", name);
        }
        first = false;
    }
    if (first && !json)
        fputs("none", out);
}

int cli_formats(int argc, char **argv)
{
    formats_opts o = {0};
    cli_args a;
    int rc = cli_parse(&cli_formats_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (a.count)
        return cli_usage("formats", "unexpected argument '%s'", a.value[0]);
    uint32_t req = o.features;
    bool lang = !o.no_language_feature, json = o.json;

    /* The device's features: the requested ones and what they imply. */
    stex_adapter *ad;
    stex_device *dev;
    stex_device_desc dd = {.required_features = req};
    if (stex_adapter_create(NULL, &ad) || stex_device_create(ad, &dd, &dev)) {
        fprintf(stderr, "stex formats: %s\n", stex_last_error());
        return CLI_USAGE;
    }
    uint32_t feat = stex_device_features(dev);
    uint32_t lf = lang ? STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES : 0;
    static const stex_access acc[] = {STEX_ACCESS_WRITE_ONLY, STEX_ACCESS_READ_ONLY,
                                      STEX_ACCESS_READ_WRITE};
    char buf[3][64];
    if (json) {
        printf("{\"features\": [");
        print_features(stdout, feat, true);
        printf("], \"readonly_and_readwrite_storage_textures\": %s, \"formats\": [",
               lang ? "true" : "false");
        for (int f = 1; f < STEX_FORMAT_COUNT; f++) {
            printf("%s\n  {\"format\": ", f > 1 ? "," : "");
            cli_json_string(stdout, stex_format_name((stex_format)f));
            printf(", \"exists\": %s", stex_format_can_create((stex_format)f, feat) ? "true" : "false");
            for (int a = 0; a < 3; a++) {
                const char *why = cell((stex_format)f, acc[a], feat, lf, buf[a], sizeof buf[a]);
                /* JSON keys are snake_case: "read-write" -> "read_write" */
                char key[16];
                snprintf(key, sizeof key, "%s", stex_access_name(acc[a]));
                for (char *c = key; *c; c++)
                    *c = *c == '-' ? '_' : *c;
                printf(", \"%s\": {\"allowed\": %s, \"needs\": ", key,
                       strcmp(why, "yes") ? "false" : "true");
                cli_json_string(stdout, stex_tier_name(stex_format_access_tier((stex_format)f, acc[a])));
                printf(", \"status\": ");
                cli_json_string(stdout, why);
                printf("}");
            }
            printf("}");
        }
        printf("\n]}\n");
    } else {
        printf("features: ");
        print_features(stdout, feat, false);
        printf("\nWGSL language feature readonly_and_readwrite_storage_textures: %s\n\n",
               lang ? "yes" : "no");
        /* each column as wide as its widest cell, so the table fits 80
         * columns as often as it can */
        int w[3] = {(int)strlen("format"), (int)strlen("write-only"), (int)strlen("read-only")};
        for (int f = 1; f < STEX_FORMAT_COUNT; f++) {
            int n = (int)strlen(stex_format_name((stex_format)f));
            w[0] = n > w[0] ? n : w[0];
            for (int a = 0; a < 2; a++) {
                n = (int)strlen(cell((stex_format)f, acc[a], feat, lf, buf[a], sizeof buf[a]));
                w[a + 1] = n > w[a + 1] ? n : w[a + 1];
            }
        }
        printf("%-*s  %-*s  %-*s  %s\n", w[0], "format", w[1], "write-only", w[2], "read-only",
               "read-write");
        for (int f = 1; f < STEX_FORMAT_COUNT; f++) {
            const char *c0 = cell((stex_format)f, acc[0], feat, lf, buf[0], sizeof buf[0]);
            const char *c1 = cell((stex_format)f, acc[1], feat, lf, buf[1], sizeof buf[1]);
            const char *c2 = cell((stex_format)f, acc[2], feat, lf, buf[2], sizeof buf[2]);
            printf("%-*s  %-*s  %-*s  %s\n", w[0], stex_format_name((stex_format)f), w[1], c0,
                   w[2], c1, c2);
        }
        printf("\n(tier1, tier2: the features texture-formats-tier1 and "
               "texture-formats-tier2)\n");
    }
    stex_device_destroy(dev);
    stex_adapter_destroy(ad);
    return CLI_OK;
}
