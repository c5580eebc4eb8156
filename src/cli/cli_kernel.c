/* Helpers shared by the kernel-running and file-reading subcommands. */
#include "cli/cli_kernel.h"

#include <inttypes.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int cli_exit_for(stex_status st)
{
    switch (st) {
    case STEX_OK:
        return CLI_OK;
    case STEX_INVALID_ARGUMENT:
    case STEX_IO_ERROR:
    case STEX_FILE_FORMAT_ERROR:
        return CLI_USAGE;
    default:
        return CLI_REFUSED;
    }
}

int cli_fail(const char *cmd, stex_status st)
{
    const char *why = stex_last_error();
    if (st == STEX_OUT_OF_MEMORY)
        fprintf(stderr, "stex %s: out of memory%s%s (the system refused an allocation: try a "
                        "smaller --size, fewer --threads, or a higher memory limit)\n",
                cmd, why && *why ? ": " : "", why && *why ? why : "");
    else if (!why || !*why)
        fprintf(stderr, "stex %s: %s\n", cmd, stex_status_meaning(st));
    else
        fprintf(stderr, "stex %s: %s\n", cmd, why);
    return cli_exit_for(st);
}

int cli_check_kernel_size(const char *cmd, const char *what, const stex_kernel *k, uint32_t w,
                          uint32_t h)
{
    stex_limits lim = stex_limits_default();
    if (w > lim.max_texture_dimension_2d || h > lim.max_texture_dimension_2d)
        return cli_usage(cmd, "%s: %ux%u is over maxTextureDimension2D (%" PRIu64 ")", what, w, h,
                         lim.max_texture_dimension_2d);
    /* the kernels with storage buffers (box3x3-buffer, histogram) keep one
     * 4-byte word per texel in each: the bind group would refuse it, after
     * the buffers were allocated */
    uint64_t bytes = (uint64_t)w * h * 4;
    for (uint32_t p = 0; p < k->pass_count; p++)
        for (uint32_t e = 0; e < k->passes[p].pipeline.entry_count; e++) {
            stex_binding_type t = k->passes[p].pipeline.entries[e].type;
            if (t != STEX_BINDING_STORAGE_BUFFER && t != STEX_BINDING_READ_ONLY_STORAGE_BUFFER)
                continue;
            uint64_t max = lim.max_storage_buffer_binding_size < lim.max_buffer_size
                               ? lim.max_storage_buffer_binding_size : lim.max_buffer_size;
            if (bytes > max)
                return cli_usage(cmd, "%s: %ux%u needs a storage buffer of %" PRIu64 " bytes "
                                      "(4 per texel), over maxStorageBufferBindingSize (%" PRIu64
                                      "); at most %" PRIu64 " texels", what, w, h, bytes, max,
                                 max / 4);
        }
    return CLI_OK;
}

const stex_kernel *cli_find_kernel(const char *cmd, const char *name)
{
    const stex_kernel *k = stex_kernel_find(name);
    if (k)
        return k;
    char near[96];
    fprintf(stderr, "stex %s: unknown kernel '%s'%s; the kernels are:", cmd, name ? name : "",
            cli_near_kernel(near, sizeof near, name ? name : ""));
    for (size_t i = 0; i < stex_kernel_count(); i++)
        fprintf(stderr, " %s", stex_kernel_at(i)->name);
    fprintf(stderr, "\n(`stex run --list` describes them)\n");
    return NULL;
}

bool cli_parse_profile(const char *cmd, const char *s, void *out)
{
    if (stex_profile_from_name(s, (stex_profile_id *)out))
        return true;
    char list[128] = "";
    for (int i = 0; i < STEX_PROFILE_COUNT; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, stex_profile_name((stex_profile_id)i), sizeof list - strlen(list) - 1);
    }
    cli_usage(cmd, "--profile: unknown profile '%s' (accepted: %s)", s, list);
    return false;
}

bool cli_parse_schedule(const char *cmd, const char *s, void *out)
{
    if (stex_schedule_from_name(s, (stex_schedule *)out))
        return true;
    cli_usage(cmd, "--schedule: unknown schedule '%s' (accepted: in-order, reversed, shuffled, "
                   "interleaved)", s);
    return false;
}

bool cli_parse_visibility(const char *cmd, const char *s, void *out)
{
    if (stex_visibility_from_name(s, (stex_visibility *)out))
        return true;
    cli_usage(cmd, "--visibility: unknown mode '%s' (accepted: immediate, snapshot)", s);
    return false;
}

bool cli_parse_oob_load(const char *cmd, const char *s, void *out)
{
    if (stex_oob_load_from_name(s, (stex_oob_load *)out))
        return true;
    cli_usage(cmd, "--oob-load: unknown policy '%s' (accepted: zero, zero-alpha-one, random-texel)", s);
    return false;
}

bool cli_parse_variant(const char *cmd, const char *s, void *out)
{
    if (strcmp(s, "random") && strcmp(s, "hot")) {
        cli_usage(cmd, "--variant: unknown variant '%s' (accepted: random, hot)", s);
        return false;
    }
    *(const char **)out = s;
    return true;
}

bool cli_parse_format(const char *cmd, const char *s, void *out)
{
    stex_format f = stex_format_from_name(s);
    uint32_t ch;
    if (f != STEX_FORMAT_UNDEFINED && stex_npy_dtype(f, &ch)) {
        *(stex_format *)out = f;
        return true;
    }
    char near[96];
    fprintf(stderr, "stex %s: --format: '%s' is not a texel format stex reads%s; accepted:", cmd,
            s, cli_near_format(near, sizeof near, s));
    for (int i = 1; i < STEX_FORMAT_COUNT; i++)
        if (stex_npy_dtype((stex_format)i, &ch))
            fprintf(stderr, " %s", stex_format_name((stex_format)i));
    fprintf(stderr, "\n(see `stex %s --help`)\n", cmd);
    return false;
}

bool cli_parse_png(const char *cmd, const char *s, void *out)
{
    if (stex_file_kind_of(s) != STEX_FILE_PNG) {
        cli_usage(cmd, "--png: '%s' must end in .png", s);
        return false;
    }
    *(const char **)out = s;
    return true;
}

int cli_threads(uint32_t threads)
{
    return threads ? (int)threads : omp_get_max_threads();
}

double cli_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

stex_status cli_instance_image(stex_kernel_instance *ki, stex_image *out)
{
    stex_texture *t = stex_kernel_instance_output_texture(ki);
    if (t)
        return stex_image_from_texture(t, 0, out);
    /* A buffer output (box3x3-buffer): its words are the format's texels,
     * rows tightly packed; lay them out as a texture copy would. */
    uint8_t *bytes;
    size_t n;
    stex_status st = stex_kernel_instance_read_output(ki, &bytes, &n);
    if (st)
        return st;
    uint32_t w = stex_kernel_instance_width(ki), h = stex_kernel_instance_height(ki);
    st = stex_image_init(out, stex_kernel_instance_output_format(ki), w, h, 1);
    if (!st) {
        size_t row = n / h;
        for (uint32_t y = 0; y < h; y++)
            memcpy(stex_image_texel(out, 0, y, 0), bytes + (size_t)y * row, row);
    }
    free(bytes);
    return st;
}

int cli_read_image(const char *cmd, const char *path, const cli_raw_layout *raw, stex_image *out,
                   stex_io_meta_read *meta)
{
    stex_status st;
    if (meta)
        memset(meta, 0, sizeof *meta);
    switch (stex_file_kind_of(path)) {
    case STEX_FILE_BIN: {
        size_t n = strlen(path) + 6;
        char *side = malloc(n);
        if (!side)
            return cli_fail(cmd, stex_fail(STEX_OUT_OF_MEMORY, "out of memory"));
        snprintf(side, n, "%s.json", path);
        bool has_side = access(side, F_OK) == 0;
        free(side);
        if (has_side || !raw || raw->format == STEX_FORMAT_UNDEFINED) {
            st = stex_read_bin(path, out, meta);
        } else if (raw->size[0] == 0) {
            return cli_usage(cmd, "'%s' has no sidecar '%s.json': give --format, --size and "
                                  "--bytes-per-row to read it raw", path, path);
        } else {
            uint32_t bpr = raw->bytes_per_row ? raw->bytes_per_row
                                              : stex_copy_bytes_per_row(raw->format, raw->size[0]);
            st = stex_read_bin_raw(path, raw->format, raw->size[0], raw->size[1], raw->size[2],
                                   bpr, raw->rows_per_image, out);
        }
        break;
    }
    case STEX_FILE_NPY:
        st = stex_read_npy(path, raw ? raw->format : STEX_FORMAT_UNDEFINED, out);
        break;
    case STEX_FILE_PNG:
        st = stex_read_png(path, out);
        break;
    default:
        return cli_usage(cmd, "cannot tell the type of '%s': give a .bin, .npy or .png file", path);
    }
    if (st)
        return cli_fail(cmd, st);
    return CLI_OK;
}

void cli_hex(const uint8_t *p, unsigned n, char *buf)
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < n; i++) {
        buf[2 * i] = digits[p[i] >> 4];
        buf[2 * i + 1] = digits[p[i] & 15];
    }
    buf[2 * n] = '\0';
}
