/* stex demo: a few seconds that show what stex knows - the format table,
 * conversion edge cases, the lessons' validation rules, and a race. */
#include "cli/cli_kernel.h"
#include "cli/program.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char SYNOPSIS[] =
    "usage: stex demo [--out-dir DIR] [--png FILE] [--runs N] [--threads T]\n"
    "\n"
    "A tour in a few seconds: which formats are storage formats (and with which\n"
    "access) under core WebGPU and under texture-formats-tier2; what textureStore\n"
    "makes of 1.5, -0.3, -1, 65520, 256 under the spec and the measured devices;\n"
    "the validation errors the lessons discuss; and the racy difundir kernel run\n"
    "under shuffled schedules, with its picture written to a PNG.\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex demo\n"
    "  stex demo --out-dir /tmp\n"
    "  stex demo --png race.png --runs 30\n";

typedef struct demo_opts {
    const char *dir, *png;
    uint32_t runs, threads;
} demo_opts;

#define AT(field) offsetof(demo_opts, field)
static const cli_option demo_options[] = {
    {.name = "out-dir", .kind = CLI_TEXT, .at = AT(dir), .metavar = "DIR",
     .help = "where the race picture goes (default: .)"},
    {.name = "png", .kind = CLI_CUSTOM, .parse = cli_parse_png, .at = AT(png), .metavar = "FILE",
     .help = "the race picture's path (default DIR/stex-demo-race.png)"},
    {.name = "runs", .kind = CLI_U32, .at = AT(runs), .metavar = "N", .min = 2, .max = 1000,
     .help = "difundir runs (default 12)"},
    {.name = "threads", .kind = CLI_U32, .at = AT(threads), .metavar = "T", .min = 1,
     .max = 1024, .help = "OpenMP threads (default: all cores)"},
    {0}};
#undef AT

const cli_spec cli_demo_spec = {"demo", SYNOPSIS, EPILOGUE, demo_options};

static const char *yes(bool b) { return b ? "yes" : " - "; }

static void format_table(void)
{
    const uint32_t lang = STEX_LANGUAGE_FEATURE_ALL;
    const uint32_t tier2 = STEX_FEATURE_TEXTURE_FORMATS_TIER2;
    printf("1. Storage formats (storage / read-only / read-write), with the WGSL language\n"
           "   feature readonly_and_readwrite_storage_textures present:\n\n");
    printf("   %-16s %-21s %s\n", "", "core", "texture-formats-tier2");
    printf("   %-16s %-21s %s\n", "format", "st   ro   rw", "st   ro   rw");
    for (int i = 1; i < STEX_FORMAT_COUNT; i++) {
        stex_format f = (stex_format)i;
        const stex_format_info *fi = stex_format_get(f);
        if (fi->kind != STEX_KIND_COLOR)
            continue;
        bool s0 = stex_format_supports_storage(f, 0), s2 = stex_format_supports_storage(f, tier2);
        if (!s2 && f != STEX_FORMAT_BGRA8UNORM && f != STEX_FORMAT_RGBA8UNORM_SRGB)
            continue;
        printf("   %-16s %s  %s  %s        %s  %s  %s%s\n", fi->name, yes(s0),
               yes(stex_format_supports_access(f, STEX_ACCESS_READ_ONLY, 0, lang)),
               yes(stex_format_supports_access(f, STEX_ACCESS_READ_WRITE, 0, lang)), yes(s2),
               yes(stex_format_supports_access(f, STEX_ACCESS_READ_ONLY, tier2, lang)),
               yes(stex_format_supports_access(f, STEX_ACCESS_READ_WRITE, tier2, lang)),
               f == STEX_FORMAT_BGRA8UNORM ? "   (needs bgra8unorm-storage; never read-only)"
               : f == STEX_FORMAT_RGBA8UNORM_SRGB ? "   (never a storage format)"
                                                  : "");
    }
    printf("\n");
}

typedef struct conv_case {
    const char *format;
    stex_vec4 value;
    const char *why;
} conv_case;

static void print_vec(const stex_format_info *fi, const stex_vec4 *v, char *buf, size_t n)
{
    if (fi->scalar == STEX_SCALAR_F32)
        snprintf(buf, n, "(%.9g, %.9g, %.9g, %.9g)", v->f[0], v->f[1], v->f[2], v->f[3]);
    else if (fi->scalar == STEX_SCALAR_U32)
        snprintf(buf, n, "(%u, %u, %u, %u)", v->u[0], v->u[1], v->u[2], v->u[3]);
    else
        snprintf(buf, n, "(%d, %d, %d, %d)", v->i[0], v->i[1], v->i[2], v->i[3]);
}

static void conversions(void)
{
    static const conv_case cases[] = {
        {"rgba8unorm", {.f = {1.5f, -0.3f, 0.5f, 1.0f}}, "clamped to [0,1]; 0.5 is a tie"},
        {"rgba8snorm", {.f = {-1.0f, 1.0f, -0.5f, 0.0f}}, "-1 -> -127, never -128"},
        {"rgba16float", {.f = {65520.0f, 65504.0f, 1.0e5f, -0.1f}}, "f16 overflow: a profile choice"},
        {"rgba8uint", {.u = {256, 255, 1000, 7}}, "integers clamp, never wrap"},
        {"r32float", {.f = {0.25f, 2.0f, 3.0f, 4.0f}}, "g, b, a are dropped"},
    };
    printf("2. textureStore conversions: value -> bytes in memory -> textureLoad\n\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const conv_case *c = &cases[i];
        stex_format f = stex_format_from_name(c->format);
        const stex_format_info *fi = stex_format_get(f);
        char in[96];
        print_vec(fi, &c->value, in, sizeof in);
        printf("   %s <- %s   (%s)\n", c->format, in, c->why);
        for (int p = 0; p < STEX_PROFILE_COUNT; p++) {
            const stex_profile *prof = stex_profile_get((stex_profile_id)p);
            uint8_t bytes[16];
            stex_vec4 back;
            if (stex_encode_texel(prof, f, &c->value, bytes) ||
                stex_decode_texel(prof, f, bytes, &back)) {
                printf("     %-9s error: %s\n", stex_profile_name((stex_profile_id)p),
                       stex_last_error());
                continue;
            }
            char hex[64] = "", out[96];
            for (unsigned b = 0; b < fi->bytes; b++)
                sprintf(hex + strlen(hex), "%s%02x", b ? " " : "", bytes[b]);
            print_vec(fi, &back, out, sizeof out);
            printf("     %-9s %-24s loads as %s\n", stex_profile_name((stex_profile_id)p), hex, out);
        }
    }
    printf("\n");
}

typedef struct verdict_case {
    const char *what;
    int device;         /* index into the devices below */
    uint32_t visibility;
    stex_storage_texture_layout entry;
} verdict_case;

static int validations(void)
{
    enum { DEV_CORE, DEV_TIER2, DEV_BGRA, DEV_NO_LANG, DEV_COUNT };
    stex_adapter *full = NULL, *no_lang = NULL;
    stex_device *dev[DEV_COUNT] = {0};
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.language_features = 0;
    stex_status st;
    if ((st = stex_adapter_create(NULL, &full)) || (st = stex_adapter_create(&ad, &no_lang)))
        goto fail;
    stex_device_desc dd[DEV_COUNT] = {{0}, {.required_features = STEX_FEATURE_TEXTURE_FORMATS_TIER2},
                                      {.required_features = STEX_FEATURE_BGRA8UNORM_STORAGE}, {0}};
    for (int i = 0; i < DEV_COUNT; i++)
        if ((st = stex_device_create(i == DEV_NO_LANG ? no_lang : full, &dd[i], &dev[i])))
            goto fail;
    const uint32_t C = STEX_STAGE_COMPUTE;
    static const char *const dev_names[DEV_COUNT] = {
        "core device", "texture-formats-tier2", "bgra8unorm-storage",
        "no readonly_and_readwrite_storage_textures"};
    const verdict_case cases[] = {
        {"rgba8unorm read-write", DEV_CORE, C,
         {STEX_ACCESS_READ_WRITE, STEX_FORMAT_RGBA8UNORM, STEX_VIEW_DIMENSION_2D}},
        {"rgba8unorm read-write", DEV_TIER2, C,
         {STEX_ACCESS_READ_WRITE, STEX_FORMAT_RGBA8UNORM, STEX_VIEW_DIMENSION_2D}},
        {"bgra8unorm read-only", DEV_BGRA, C,
         {STEX_ACCESS_READ_ONLY, STEX_FORMAT_BGRA8UNORM, STEX_VIEW_DIMENSION_2D}},
        {"bgra8unorm write-only", DEV_BGRA, C,
         {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_BGRA8UNORM, STEX_VIEW_DIMENSION_2D}},
        {"r32float write-only, viewDimension cube", DEV_CORE, C,
         {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_CUBE}},
        {"r32float write-only, visibility VERTEX", DEV_CORE, STEX_STAGE_VERTEX,
         {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
        {"r32float read-write", DEV_NO_LANG, C,
         {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
        {"r32float read-write", DEV_CORE, C,
         {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
    };
    printf("3. Bind group layout entries (storageTexture), as createBindGroupLayout judges them\n\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const verdict_case *c = &cases[i];
        stex_clear_error();
        stex_status v = stex_validate_storage_texture_layout(dev[c->device], c->visibility, &c->entry);
        printf("   %-40s on %s:\n     %s%s%s\n", c->what, dev_names[c->device],
               v ? stex_status_name(v) : "accepted", v ? ": " : "", v ? stex_last_error() : "");
    }
    printf("\n");
    st = STEX_OK;
fail:
    for (int i = 0; i < DEV_COUNT; i++)
        if (dev[i])
            stex_device_destroy(dev[i]);
    if (full)
        stex_adapter_destroy(full);
    if (no_lang)
        stex_adapter_destroy(no_lang);
    return st ? cli_fail("demo", st) : CLI_OK;
}

/* Part 4: the racy kernel under shuffled schedules, and its picture. */
static int race_part(const demo_opts *o)
{
    const stex_kernel *k = cli_find_kernel("demo", "difundir");
    if (!k)
        return CLI_REFUSED;
    stex_kernel_setup setup = {.width = 64, .height = 64, .iterations = 8, .variant = "hot"};
    printf("4. The racy difundir kernel (lesson 000): each invocation averages its four\n"
           "   neighbours in place on one read_write r32float texture; %ux%u texels, all 0\n"
           "   but 1000.0 at the centre, %u dispatches per run. %u runs, each with its own\n"
           "   shuffled workgroup order:\n\n", setup.width, setup.height, setup.iterations,
           o->runs);
    cli_race_summary s;
    double t0 = cli_now_ms();
    cli_race_picture pic = {.png = o->png};
    /* the kernel's WGSL on the interpreter, as `stex race difundir` runs it */
    cli_program_desc pd = {.kernel = k, .wgsl = true, .setup = setup,
                           .profile = STEX_PROFILE_SPEC};
    stex_status st = cli_race_study(&pd, o->runs, 1, STEX_SCHEDULE_SHUFFLED, o->threads,
                                    STEX_VISIBILITY_IMMEDIATE, &pic, false, &s);
    if (st)
        return cli_fail("demo", st);
    double ms = cli_now_ms() - t0;
    printf("   distinct outputs: %u of %u runs\n", s.distinct, o->runs);
    printf("   texels that differ between runs: %" PRIu64 " of %u\n", s.texels_differing,
           s.width * s.height);
    printf("   race detector: %" PRIu64 " texels race in every dispatch\n"
           "     (%" PRIu64 " racing locations over %u dispatches: read-write %" PRIu64
           ", write-write %" PRIu64 "),\n"
           "     the same verdict under every schedule\n", s.flagged, s.races, setup.iterations,
           s.read_write, s.write_write);
    if (s.examples)
        cli_print_race(stdout, "   e.g. ", &s.example[0]);
    printf("   picture: %s\n"
           "     two runs side by side, then the texels that differ between runs (dark red\n"
           "     to yellow by the size of the difference) and those the detector flagged\n"
           "     but that agreed in every run (blue)\n", o->png);
    printf("   the fix, difundir-pingpong, reads one texture and writes the other:\n"
           "     stex race difundir-pingpong --runs 20   (1 distinct output, 0 races)\n");
    printf("   (%.0f ms)\n", ms);
    free(s.seen);
    free(s.heat);
    return CLI_OK;
}

int cli_demo(int argc, char **argv)
{
    const char *cmd = "demo";
    demo_opts o = {.dir = ".", .runs = 12};
    cli_args a;
    int rc = cli_parse(&cli_demo_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (a.count)
        return cli_usage(cmd, "unexpected argument '%s'", a.value[0]);
    char path[4096];
    if (!o.png) {
        if (access(o.dir, W_OK) != 0)
            return cli_usage(cmd, "--out-dir: '%s' is not a writable directory", o.dir);
        snprintf(path, sizeof path, "%s/stex-demo-race.png", o.dir);
        o.png = path;
    }

    printf("stex %s - WebGPU storage textures on the CPU\n\n", STEX_VERSION);
    format_table();
    conversions();
    if ((rc = validations()))
        return rc;
    return race_part(&o);
}
