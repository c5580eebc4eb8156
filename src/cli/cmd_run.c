/* stex run: run one of the lessons' kernels and write its output. */
#include "cli/cli_kernel.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OUTS 8

static const char HELP[] =
    "usage: stex run KERNEL [OPTIONS]\n"
    "       stex run --list [--json]\n"
    "\n"
    "Runs one of the lessons' kernels on the emulated device and writes its\n"
    "output texture: .bin (exactly the bytes copyTextureToBuffer gives, plus a\n"
    "JSON sidecar X.bin.json), .npy, or .png (docs/file-formats.md).\n"
    "\n"
    "options:\n"
    "  --list                 list the kernels and exit\n"
    "  --size WxH             texture size (default: the kernel's own)\n"
    "  --profile P            conversion profile: spec (default), lavapipe, nvidia\n"
    "  --schedule S           workgroup order: in-order (default), reversed, shuffled\n"
    "  --seed N               seed of the shuffled schedule (default 0)\n"
    "  --threads T            OpenMP threads (default: all cores)\n"
    "  --visibility V         what a read sees of other workgroups' writes:\n"
    "                         immediate (default) or snapshot\n"
    "  --oob-load P           what an out-of-bounds textureLoad returns (all allowed by\n"
    "                         WGSL): zero (default, as lavapipe and NVIDIA do),\n"
    "                         zero-alpha-one, random-texel (some in-bounds texel)\n"
    "  --iterations N         dispatches per run (default 1)\n"
    "  --variant V            difundir input: random (default) or hot\n"
    "  --race-check           run the race detector and report what it finds\n"
    "  --in FILE              input image (.png, .npy, .bin) instead of the embedded one\n"
    "  --out FILE             write the output (repeatable; type from the extension)\n"
    "  --record-allowed       with a .bin output, also write X.bin.inputs (the value\n"
    "                         last stored to each texel) for `stex compare --tolerance\n"
    "                         allowed`; runs on one thread\n"
    "  --json                 print one JSON summary object\n"
    "\n"
    "examples:\n"
    "  stex run --list\n"
    "  stex run decaer --size 64x64 --out golden.bin\n"
    "  stex run generar --out golden.bin --record-allowed\n"
    "  stex run generar --out pattern.png --out pattern.npy --json\n"
    "  stex run difundir --schedule shuffled --seed 7 --threads 2 --race-check\n"
    "  stex run blur --in photo.png --out blurred.png\n"
    "\n"
    "exit status: 0 done, 1 the device refused (validation or shader error),\n"
    "2 usage error, unreadable input or unwritable output.\n";

static int list_kernels(bool json)
{
    size_t n = stex_kernel_count();
    if (json) {
        fputs("[", stdout);
        for (size_t i = 0; i < n; i++) {
            const stex_kernel *k = stex_kernel_at(i);
            printf("%s\n  {\"name\": ", i ? "," : "");
            cli_json_string(stdout, k->name);
            printf(", \"summary\": ");
            cli_json_string(stdout, k->summary);
            printf(", \"default_size\": [%u, %u], \"output_format\": \"%s\", \"input_format\": ",
                   k->default_width, k->default_height, stex_format_name(k->output_format));
            if (k->input_format == STEX_FORMAT_UNDEFINED)
                fputs("null", stdout);
            else
                printf("\"%s\"", stex_format_name(k->input_format));
            printf(", \"racy\": %s}", k->racy ? "true" : "false");
        }
        puts("\n]");
        return CLI_OK;
    }
    printf("%-18s %-9s %-12s %-12s %s\n", "kernel", "size", "output", "input", "summary");
    for (size_t i = 0; i < n; i++) {
        const stex_kernel *k = stex_kernel_at(i);
        char size[24];
        snprintf(size, sizeof size, "%ux%u", k->default_width, k->default_height);
        printf("%-18s %-9s %-12s %-12s %s%s\n", k->name, size, stex_format_name(k->output_format),
               k->input_format ? stex_format_name(k->input_format) : "-", k->summary,
               k->racy ? " [racy]" : "");
    }
    return CLI_OK;
}

enum { OPT_LIST = 256, OPT_SIZE, OPT_PROFILE, OPT_SCHEDULE, OPT_SEED, OPT_THREADS, OPT_VIS,
       OPT_RACE, OPT_IN, OPT_OUT, OPT_RECORD, OPT_JSON, OPT_ITER, OPT_VARIANT, OPT_OOB };

/* --record-allowed: the last value stored to each texel of the output.  The
 * run uses one thread, so the observer's calls come in the order the stores
 * reach memory and the last one recorded is the one whose bytes the golden
 * holds. */
typedef struct recorder {
    const stex_texture *output;
    stex_inputs in;
} recorder;

static void record_store(void *user, const stex_texture_view *view, int64_t x, int64_t y,
                         int64_t z, const stex_vec4 *value)
{
    recorder *r = user;
    const stex_view_desc *vd = stex_view_get_desc(view);
    if (stex_view_texture(view) != r->output || vd->base_mip_level != 0 || x < 0 || y < 0 ||
        z < 0 || x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX)
        return;
    uint32_t layer = (uint32_t)z + vd->base_array_layer;
    stex_inputs_set(&r->in, (uint32_t)x, (uint32_t)y, layer, value);
}

static char *inputs_path(const char *bin)
{
    size_t n = strlen(bin) + 8;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s.inputs", bin);
    return p;
}

int cli_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},          {"list", no_argument, NULL, OPT_LIST},
        {"size", required_argument, NULL, OPT_SIZE}, {"profile", required_argument, NULL, OPT_PROFILE},
        {"schedule", required_argument, NULL, OPT_SCHEDULE},
        {"seed", required_argument, NULL, OPT_SEED}, {"threads", required_argument, NULL, OPT_THREADS},
        {"visibility", required_argument, NULL, OPT_VIS},
        {"oob-load", required_argument, NULL, OPT_OOB},
        {"race-check", no_argument, NULL, OPT_RACE}, {"in", required_argument, NULL, OPT_IN},
        {"out", required_argument, NULL, OPT_OUT},
        {"record-allowed", no_argument, NULL, OPT_RECORD}, {"json", no_argument, NULL, OPT_JSON},
        {"iterations", required_argument, NULL, OPT_ITER},
        {"variant", required_argument, NULL, OPT_VARIANT}, {NULL, 0, NULL, 0}};
    const char *cmd = "run";
    bool list = false, json = false, race_check = false, record = false, has_size = false;
    uint32_t size[3] = {0, 0, 1}, threads = 0, iterations = 0;
    uint64_t seed = 0;
    stex_profile_id profile = STEX_PROFILE_SPEC;
    stex_schedule schedule = STEX_SCHEDULE_IN_ORDER;
    stex_visibility vis = STEX_VISIBILITY_IMMEDIATE;
    stex_oob_load oob = STEX_OOB_LOAD_ZERO;
    const char *in_path = NULL, *variant = NULL, *outs[MAX_OUTS];
    int nouts = 0, c;
    optind = 0;
    opterr = 0; /* our message names the option */
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(HELP, stdout);
            return CLI_OK;
        case OPT_LIST: list = true; break;
        case OPT_JSON: json = true; break;
        case OPT_RACE: race_check = true; break;
        case OPT_RECORD: record = true; break;
        case OPT_SIZE:
            if (!cli_parse_size(cmd, "--size", optarg, size))
                return CLI_USAGE;
            has_size = true;
            break;
        case OPT_PROFILE:
            if (!cli_parse_profile(cmd, optarg, &profile))
                return CLI_USAGE;
            break;
        case OPT_SCHEDULE:
            if (!cli_parse_schedule(cmd, optarg, &schedule))
                return CLI_USAGE;
            break;
        case OPT_VIS:
            if (!cli_parse_visibility(cmd, optarg, &vis))
                return CLI_USAGE;
            break;
        case OPT_OOB:
            if (!cli_parse_oob_load(cmd, optarg, &oob))
                return CLI_USAGE;
            break;
        case OPT_SEED:
            if (!cli_parse_u64(cmd, "--seed", optarg, &seed))
                return CLI_USAGE;
            break;
        case OPT_THREADS:
            if (!cli_parse_u32_range(cmd, "--threads", optarg, 1, 1024, &threads))
                return CLI_USAGE;
            break;
        case OPT_ITER:
            if (!cli_parse_u32_range(cmd, "--iterations", optarg, 1, 100000, &iterations))
                return CLI_USAGE;
            break;
        case OPT_VARIANT:
            if (!cli_parse_variant(cmd, optarg, &variant))
                return CLI_USAGE;
            break;
        case OPT_IN: in_path = optarg; break;
        case OPT_OUT:
            if (nouts == MAX_OUTS)
                return cli_usage(cmd, "--out: at most %d outputs", MAX_OUTS);
            if (stex_file_kind_of(optarg) == STEX_FILE_UNKNOWN)
                return cli_usage(cmd, "--out: cannot tell the file type of '%s' (accepted "
                                      "extensions: .bin, .npy, .png)", optarg);
            outs[nouts++] = optarg;
            break;
        default:
            return cli_usage(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if (list)
        return list_kernels(json);
    if (optind >= argc)
        return cli_usage(cmd, "missing KERNEL (`stex run --list` lists them)");
    if (optind + 1 < argc)
        return cli_usage(cmd, "unexpected argument '%s' after the kernel", argv[optind + 1]);
    const stex_kernel *k = cli_find_kernel(cmd, argv[optind]);
    if (!k)
        return CLI_USAGE;
    stex_limits lim = stex_limits_default();
    if (has_size && size[2] != 1)
        return cli_usage(cmd, "--size: the kernels run on 2d textures; give WxH, not '%ux%ux%u'",
                         size[0], size[1], size[2]);
    if (has_size && (size[0] > lim.max_texture_dimension_2d ||
                     size[1] > lim.max_texture_dimension_2d))
        return cli_usage(cmd, "--size: %ux%u is over maxTextureDimension2D (%" PRIu64 ")",
                         size[0], size[1], lim.max_texture_dimension_2d);
    if (record) {
        bool any_bin = false;
        for (int i = 0; i < nouts; i++)
            any_bin |= stex_file_kind_of(outs[i]) == STEX_FILE_BIN;
        if (!any_bin)
            return cli_usage(cmd, "--record-allowed: needs a .bin output (--out X.bin) to record "
                                  "X.bin.inputs beside it");
        /* several threads may store one texel in an order the observer cannot
         * see; one thread makes the last recorded value the one in the golden */
        if (threads > 1)
            return cli_usage(cmd, "--record-allowed: runs on one thread (the recorded value of a "
                                  "texel must be its last store); drop --threads %u", threads);
        threads = 1;
    }

    stex_kernel_setup setup = {.width = size[0], .height = size[1], .iterations = iterations,
                               .variant = variant};
    stex_image input = {0};
    if (in_path) {
        if (k->input_format == STEX_FORMAT_UNDEFINED)
            return cli_usage(cmd, "--in: kernel %s takes no input image", k->name);
        cli_raw_layout raw = {.format = k->input_format,
                              .size = {size[0], size[1], 1}};
        int rc = cli_read_image(cmd, in_path, has_size ? &raw : &(cli_raw_layout){
                                    .format = k->input_format}, &input, NULL);
        if (rc)
            return rc;
        if (input.format != k->input_format || input.depth != 1 ||
            (has_size && (input.width != size[0] || input.height != size[1]))) {
            rc = cli_usage(cmd, "--in: '%s' holds %ux%ux%u %s texels, but kernel %s takes a "
                                "2d %s image%s", in_path, input.width, input.height, input.depth,
                           stex_format_name(input.format), k->name,
                           stex_format_name(k->input_format), has_size ? " of the --size given" : "");
            stex_image_free(&input);
            return rc;
        }
        if (input.width > lim.max_texture_dimension_2d ||
            input.height > lim.max_texture_dimension_2d) {
            stex_image_free(&input);
            return cli_usage(cmd, "--in: %ux%u is over maxTextureDimension2D", input.width,
                             input.height);
        }
        setup.width = input.width;
        setup.height = input.height;
        setup.input = input.data;
        setup.input_size = input.size;
        setup.input_bytes_per_row = input.bytes_per_row;
    }

    stex_race_detector *rd = NULL;
    stex_kernel_instance *ki = NULL;
    stex_image out = {0};
    recorder rec = {0};
    int rc = CLI_OK;
    stex_status st = STEX_OK;
    if (race_check && (st = stex_race_detector_create(NULL, &rd)))
        goto fail;
    if ((st = stex_kernel_instance_create(k, &setup, &ki)))
        goto fail;
    stex_dispatch_options o = {.schedule = schedule, .seed = seed, .threads = (int)threads,
                               .visibility = vis, .oob_load = oob,
                               .profile = stex_profile_get(profile), .races = rd};
    if (record) {
        stex_texture *t = stex_kernel_instance_output_texture(ki);
        if (!t) {
            st = stex_fail(STEX_INVALID_ARGUMENT, "--record-allowed: kernel %s writes a buffer, "
                                                  "not a texture", k->name);
            goto fail;
        }
        rec.output = t;
        stex_extent3d ts = stex_texture_mip_size(t, 0);
        if ((st = stex_inputs_init(&rec.in, stex_format_get(stex_kernel_instance_output_format(ki))->scalar,
                                   ts.width, ts.height ? ts.height : 1,
                                   ts.depth_or_array_layers ? ts.depth_or_array_layers : 1)))
            goto fail;
        o.store_observer = record_store;
        o.store_observer_user = &rec;
    }
    double t0 = cli_now_ms();
    st = stex_kernel_instance_dispatch(ki, &o);
    double ms = cli_now_ms() - t0;
    if (st)
        goto fail;
    if (nouts && (st = cli_instance_image(ki, &out)))
        goto fail;
    stex_io_meta meta = {.kernel = k->name, .profile = stex_profile_name(profile),
                         .schedule = stex_schedule_name(schedule), .seed = seed, .has_seed = true};
    for (int i = 0; i < nouts; i++)
        if ((st = stex_write_image(outs[i], &out, &meta)))
            goto fail;
    for (int i = 0; record && i < nouts; i++) {
        if (stex_file_kind_of(outs[i]) != STEX_FILE_BIN)
            continue;
        char *ip = inputs_path(outs[i]);
        if (!ip) {
            st = stex_fail(STEX_OUT_OF_MEMORY, "out of memory");
            goto fail;
        }
        st = stex_write_inputs(ip, &rec.in);
        free(ip);
        if (st)
            goto fail;
    }

    uint32_t w = stex_kernel_instance_width(ki), h = stex_kernel_instance_height(ki);
    const char *fmt = stex_format_name(stex_kernel_instance_output_format(ki));
    if (json) {
        printf("{\"kernel\": \"%s\", \"size\": [%u, %u], \"format\": \"%s\", \"profile\": \"%s\", "
               "\"schedule\": \"%s\", \"seed\": %" PRIu64 ", \"threads\": %d, "
               "\"visibility\": \"%s\", \"oob_load\": \"%s\", \"iterations\": %u, "
               "\"dispatch_ms\": %.3f, \"races\": ",
               k->name, w, h, fmt, stex_profile_name(profile), stex_schedule_name(schedule), seed,
               cli_threads(threads), stex_visibility_name(vis), stex_oob_load_name(oob),
               iterations ? iterations : 1, ms);
        if (rd)
            printf("{\"write-write\": %" PRIu64 ", \"read-write\": %" PRIu64 ", \"total\": %" PRIu64
                   "}", stex_race_count(rd, STEX_RACE_WRITE_WRITE),
                   stex_race_count(rd, STEX_RACE_READ_WRITE), stex_race_count(rd, STEX_RACE_ANY));
        else
            fputs("null", stdout);
        fputs(", \"files\": [", stdout);
        int nf = 0;
        for (int i = 0; i < nouts; i++) {
            printf("%s", nf++ ? ", " : "");
            cli_json_string(stdout, outs[i]);
            if (stex_file_kind_of(outs[i]) == STEX_FILE_BIN && record) {
                char *ip = inputs_path(outs[i]);
                if (ip) {
                    fputs(", ", stdout);
                    cli_json_string(stdout, ip);
                    free(ip);
                }
            }
            if (stex_file_kind_of(outs[i]) == STEX_FILE_BIN) {
                char *side = malloc(strlen(outs[i]) + 6);
                if (side) {
                    sprintf(side, "%s.json", outs[i]);
                    fputs(", ", stdout);
                    cli_json_string(stdout, side);
                    free(side);
                }
            }
        }
        puts("]}");
    } else {
        printf("%s %ux%u %s: %u dispatch%s in %.3f ms (profile %s, schedule %s, seed %" PRIu64
               ", %d thread%s, visibility %s)\n",
               k->name, w, h, fmt, iterations ? iterations : 1, iterations > 1 ? "es" : "", ms,
               stex_profile_name(profile), stex_schedule_name(schedule), seed, cli_threads(threads),
               cli_threads(threads) == 1 ? "" : "s", stex_visibility_name(vis));
        if (rd) {
            printf("race check: %" PRIu64 " racing location(s) (write-write %" PRIu64
                   ", read-write %" PRIu64 ")\n", stex_race_count(rd, STEX_RACE_ANY),
                   stex_race_count(rd, STEX_RACE_WRITE_WRITE),
                   stex_race_count(rd, STEX_RACE_READ_WRITE));
            if (stex_race_count(rd, STEX_RACE_ANY))
                stex_race_report_text(rd, stdout);
        }
        for (int i = 0; i < nouts; i++)
            printf("wrote %s%s\n", outs[i],
                   stex_file_kind_of(outs[i]) != STEX_FILE_BIN ? ""
                   : record ? " (+ .json sidecar, + .inputs)" : " (+ .json sidecar)");
    }
    goto done;
fail:
    rc = cli_fail(cmd, st);
done:
    stex_image_free(&out);
    stex_image_free(&input);
    stex_kernel_instance_destroy(ki);
    stex_race_detector_destroy(rd);
    stex_inputs_free(&rec.in);
    return rc;
}
