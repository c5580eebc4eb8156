/* .bin golden files: the bytes of a copyTextureToBuffer, plus a JSON sidecar
 * (X.bin.json) that says how to read them. */
#include "io/io_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/error.h"


static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

/* The sidecar's text: layout, how the golden was made, and the hashes that
 * tie the data file (and the recorded inputs) to it. */
static char *sidecar_text(const char *path, const stex_image *img, const stex_io_meta *meta,
                          const char *data_sha, const char *inputs_sha, const char *allowed_sha)
{
    json_t *o = json_object();
    json_object_set_new(o, "stex_version", json_string(STEX_VERSION));
    json_object_set_new(o, "format", json_string(stex_format_name(img->format)));
    json_object_set_new(o, "size", json_pack("[III]", (json_int_t)img->width,
                                             (json_int_t)img->height, (json_int_t)img->depth));
    json_object_set_new(o, "bytes_per_row", json_integer(img->bytes_per_row));
    json_object_set_new(o, "rows_per_image", json_integer(img->rows_per_image));
    json_object_set_new(o, "kernel", str_or_null(meta->kernel));
    json_object_set_new(o, "profile", str_or_null(meta->profile));
    json_object_set_new(o, "schedule", str_or_null(meta->schedule));
    if (!meta->has_seed)
        json_object_set_new(o, "seed", json_null());
    else if (meta->seed <= INT64_MAX)
        json_object_set_new(o, "seed", json_integer((json_int_t)meta->seed));
    else {
        char s[24];
        snprintf(s, sizeof s, "%" PRIu64, meta->seed);
        json_object_set_new(o, "seed", json_string(s));
    }
    json_object_set_new(o, "data_sha256", json_string(data_sha));
    json_object_set_new(o, "inputs_sha256", str_or_null(inputs_sha));
    if (allowed_sha) { /* an allowed golden: X.bin.allowed holds its bounds */
        json_object_set_new(o, "golden", json_string("allowed"));
        json_object_set_new(o, "allowed_sha256", json_string(allowed_sha));
    }
    if (meta->run_json) {
        json_error_t e;
        json_t *run = json_loads(meta->run_json, 0, &e);
        if (!json_is_object(run)) {
            json_decref(run);
            json_decref(o);
            stex_fail(STEX_INVALID_ARGUMENT, "write '%s': the run record is not a JSON object",
                      path);
            return NULL;
        }
        json_object_set_new(o, "run", run);
    }
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
    return text;
}

static char *with_ext(const char *path, const char *ext)
{
    size_t n = strlen(path) + strlen(ext) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s", path, ext);
    return p;
}

stex_status io_add_bin(io_batch *b, const char *path, const stex_image *img,
                       const stex_io_meta *meta)
{
    if (!img || !img->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "write '%s': empty image", path ? path : "");
    stex_io_meta none = {0};
    if (!meta)
        meta = &none;
    char *side = with_ext(path, ".json"), *inp = with_ext(path, ".inputs"),
         *alw = with_ext(path, ".allowed");
    char data_sha[65], inputs_sha[65], allowed_sha[65];
    io_tmpfile *t;
    stex_status st = side && inp && alw ? STEX_OK
                                        : stex_fail(STEX_OUT_OF_MEMORY, "write '%s': out of memory", path);
    if (!st && meta->bounds && (meta->bounds->format != img->format ||
                                meta->bounds->width != img->width ||
                                meta->bounds->height != img->height ||
                                meta->bounds->depth != img->depth))
        st = stex_fail(STEX_INVALID_ARGUMENT, "write '%s': the bounds are of %ux%ux%u %s texels, "
                                              "the image %ux%ux%u %s", path, meta->bounds->width,
                       meta->bounds->height, meta->bounds->depth,
                       stex_format_name(meta->bounds->format), img->width, img->height,
                       img->depth, stex_format_name(img->format));
    if (!st && !(st = io_batch_open(b, path, &t)) && !(st = io_write_bytes(t, img->data, img->size))) {
        io_sha256 copy = t->sha;
        io_sha256_hex(&copy, data_sha);
    }
    /* a new X.bin makes an older X.bin.inputs stale: it goes, or is replaced */
    if (!st)
        st = meta->inputs ? io_add_inputs(b, inp, meta->inputs, inputs_sha)
                          : io_batch_remove(b, inp);
    /* and so does an older X.bin.allowed */
    if (!st)
        st = meta->bounds ? io_add_bounds(b, alw, meta->bounds, allowed_sha)
                          : io_batch_remove(b, alw);
    char *text = NULL;
    if (!st && !(text = sidecar_text(path, img, meta, data_sha, meta->inputs ? inputs_sha : NULL,
                                     meta->bounds ? allowed_sha : NULL)))
        st = STEX_OUT_OF_MEMORY;
    if (!st && !(st = io_batch_open(b, side, &t)) && !(st = io_write_bytes(t, text, strlen(text))))
        st = io_write_bytes(t, "\n", 1);
    free(text);
    free(side);
    free(inp);
    free(alw);
    return st;
}

stex_status stex_write_bin(const char *path, const stex_image *img, const stex_io_meta *meta)
{
    io_batch b = {0};
    stex_status st = io_add_bin(&b, path, img, meta);
    if (st) {
        io_batch_abort(&b);
        return st;
    }
    return io_batch_commit(&b);
}

/* Reads the data file of a .bin whose layout is known. */
static stex_status read_bin_data(const char *path, stex_format f, uint32_t w, uint32_t h,
                                 uint32_t d, uint32_t bpr, uint32_t rpi, const char *want_sha,
                                 bool tight_ok, stex_image *out)
{
    memset(out, 0, sizeof *out);
    stex_status st = io_check_format(f, path);
    if (st)
        return st;
    st = io_check_dims(path, w, h, d);
    if (st)
        return st;
    const stex_format_info *fi = stex_format_get(f);
    uint64_t row = (uint64_t)w * fi->bytes;
    if (rpi == 0)
        rpi = h;
    if (bpr < row)
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: bytesPerRow %u is less than one row of %u %s texels (%llu bytes)",
                         path, bpr, w, fi->name, (unsigned long long)row);
    if (bpr % 256 && !(tight_ok && bpr == row))
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: bytesPerRow %u is not a multiple of 256, as copyTextureToBuffer "
                         "requires%s", path, bpr,
                         tight_ok ? ", nor one unpadded row (width x texel bytes)" : "");
    if (rpi < h)
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s: rowsPerImage %u is less than the height %u",
                         path, rpi, h);
    /* bpr x rpi fits 64 bits (both < 2^32); checked before d multiplies it */
    uint64_t image = (uint64_t)bpr * rpi;
    uint64_t full = image > STEX_IO_MAX_BYTES ? STEX_IO_MAX_BYTES + 1 : image * d;
    uint64_t minimum = image * (d - 1) + (uint64_t)bpr * (h - 1) + row;
    if (full > STEX_IO_MAX_BYTES)
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: bytesPerRow %u x rowsPerImage %u x %u images is more than the %llu "
                         "bytes stex reads", path, bpr, rpi, d,
                         (unsigned long long)STEX_IO_MAX_BYTES);
    uint8_t *data;
    size_t size;
    st = io_read_file(path, &data, &size, (size_t)full);
    if (st) {
        if (st == STEX_FILE_FORMAT_ERROR)
            stex_fail(st, "%s: the file is larger than the %llu bytes its layout (%ux%ux%u %s, "
                          "bytesPerRow %u, rowsPerImage %u) holds", path, (unsigned long long)full,
                      w, h, d, fi->name, bpr, rpi);
        return st;
    }
    if (size != full && size != minimum) {
        free(data);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s: %zu bytes, but %ux%ux%u %s with bytesPerRow %u and rowsPerImage %u "
                         "takes %llu bytes (or %llu without the last row's padding)%s",
                         path, size, w, h, d, fi->name, bpr, rpi, (unsigned long long)full,
                         (unsigned long long)minimum, size < minimum ? ": truncated" : "");
    }
    char sha[65];
    if (want_sha && (io_sha256_of(data, size, sha), strcmp(sha, want_sha))) {
        free(data);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s does not belong to its sidecar %s.json: the sidecar records the "
                         "data's SHA-256 as %.12s..., the file's is %.12s... (written by "
                         "another run, or changed since); write both again", path, path, want_sha,
                         sha);
    }
    out->data = calloc((size_t)full, 1);
    if (!out->data) {
        free(data);
        return stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    memcpy(out->data, data, size);
    free(data);
    out->format = f;
    out->width = w;
    out->height = h;
    out->depth = d;
    out->bytes_per_row = bpr;
    out->rows_per_image = rpi;
    out->size = (size_t)full;
    return STEX_OK;
}

stex_status stex_read_bin_raw(const char *path, stex_format f, uint32_t width, uint32_t height,
                              uint32_t depth, uint32_t bytes_per_row, uint32_t rows_per_image,
                              stex_image *out)
{
    stex_status st = read_bin_data(path, f, width, height, depth, bytes_per_row, rows_per_image,
                                   NULL, true, out);
    if (st == STEX_INVALID_ARGUMENT || st == STEX_FILE_FORMAT_ERROR)
        st = STEX_FILE_FORMAT_ERROR;
    return st;
}

static bool get_u32(json_t *o, const char *key, uint32_t *v)
{
    json_t *j = json_object_get(o, key);
    if (!json_is_integer(j) || json_integer_value(j) < 0 || json_integer_value(j) > UINT32_MAX)
        return false;
    *v = (uint32_t)json_integer_value(j);
    return true;
}

static void get_str(json_t *o, const char *key, char *dst, size_t n)
{
    json_t *j = json_object_get(o, key);
    dst[0] = '\0';
    if (json_is_string(j))
        snprintf(dst, n, "%s", json_string_value(j));
}

stex_status stex_read_bin(const char *path, stex_image *out, stex_io_meta_read *meta)
{
    memset(out, 0, sizeof *out);
    char *side = with_ext(path, ".json");
    if (!side)
        return stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", path);
    uint8_t *text;
    size_t n;
    stex_status st = io_read_file(side, &text, &n, 1 << 16);
    if (st) {
        struct stat sb;
        if (st == STEX_IO_ERROR && stat(path, &sb) != 0) /* X.bin itself is missing: say so */
            stex_fail(st, "cannot read '%s': %s", path, strerror(errno));
        else if (st == STEX_IO_ERROR) {
            char why[512];
            snprintf(why, sizeof why, "%s", stex_last_error());
            stex_fail(st, "%s: the sidecar of '%s' (without one, give --format, --size and "
                          "--bytes-per-row to read a raw .bin)", why, path);
        }
        free(side);
        return st;
    }
    json_error_t jerr;
    json_t *o = json_loadb((const char *)text, n, 0, &jerr);
    free(text);
    if (!json_is_object(o)) {
        if (o)
            st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: the sidecar must be a JSON object "
                                                   "({\"format\": ..., \"size\": ...}), not %s",
                           side, json_is_array(o) ? "an array" : "a single value");
        else
            st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: not JSON: %s (line %d, column %d)", side,
                           jerr.text, jerr.line, jerr.column);
        json_decref(o);
        free(side);
        return st;
    }
    json_t *fmt = json_object_get(o, "format"), *size = json_object_get(o, "size");
    uint32_t dims[3] = {0, 0, 0}, bpr = 0, rpi = 0;
    stex_format f = json_is_string(fmt) ? stex_format_from_name(json_string_value(fmt))
                                        : STEX_FORMAT_UNDEFINED;
    bool ok = json_is_array(size) && json_array_size(size) == 3;
    for (size_t i = 0; ok && i < 3; i++) {
        json_t *e = json_array_get(size, i);
        ok = json_is_integer(e) && json_integer_value(e) >= 0 &&
             json_integer_value(e) <= UINT32_MAX;
        if (ok)
            dims[i] = (uint32_t)json_integer_value(e);
    }
    if (f == STEX_FORMAT_UNDEFINED)
        st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: \"format\" is missing or not a WebGPU format "
                                               "name", side);
    else if (!ok)
        st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: \"size\" must be [width, height, depth] with "
                                               "non-negative integers", side);
    else if (!get_u32(o, json_object_get(o, "bytes_per_row") ? "bytes_per_row" : "bytesPerRow",
                      &bpr) ||
             !get_u32(o, json_object_get(o, "rows_per_image") ? "rows_per_image" : "rowsPerImage",
                      &rpi))
        st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: \"bytes_per_row\" and \"rows_per_image\" "
                                               "must be integers from 0 to 4294967295", side);
    json_t *dsha = json_object_get(o, "data_sha256"), *isha = json_object_get(o, "inputs_sha256");
    json_t *golden = json_object_get(o, "golden"), *asha = json_object_get(o, "allowed_sha256");
    char data_sha[65] = "";
    if (!st && dsha && !(json_is_string(dsha) && strlen(json_string_value(dsha)) == 64))
        st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: \"data_sha256\" must be 64 hex digits", side);
    else if (!st && isha && !json_is_null(isha) &&
             !(json_is_string(isha) && strlen(json_string_value(isha)) == 64))
        st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: \"inputs_sha256\" must be 64 hex digits or "
                                               "null", side);
    else if (!st && golden && !(json_is_string(golden) &&
                                (!strcmp(json_string_value(golden), "allowed") ||
                                 !strcmp(json_string_value(golden), "exact"))))
        st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: \"golden\" must be \"exact\" or "
                                               "\"allowed\"", side);
    else if (!st && json_is_string(golden) && !strcmp(json_string_value(golden), "allowed") &&
             !(json_is_string(asha) && strlen(json_string_value(asha)) == 64))
        st = stex_fail(STEX_FILE_FORMAT_ERROR, "%s: an allowed golden's \"allowed_sha256\" "
                                               "must be the 64 hex digits of X.bin.allowed's "
                                               "SHA-256", side);
    if (!st && dsha)
        snprintf(data_sha, sizeof data_sha, "%s", json_string_value(dsha));
    if (!st && meta) {
        memset(meta, 0, sizeof *meta);
        get_str(o, "kernel", meta->kernel, sizeof meta->kernel);
        get_str(o, "profile", meta->profile, sizeof meta->profile);
        get_str(o, "schedule", meta->schedule, sizeof meta->schedule);
        get_str(o, "stex_version", meta->stex_version, sizeof meta->stex_version);
        meta->has_inputs_hash = isha != NULL;
        meta->allowed = json_is_string(golden) && !strcmp(json_string_value(golden), "allowed");
        if (meta->allowed)
            snprintf(meta->allowed_sha256, sizeof meta->allowed_sha256, "%s",
                     json_string_value(asha));
        if (json_is_string(isha))
            snprintf(meta->inputs_sha256, sizeof meta->inputs_sha256, "%s",
                     json_string_value(isha));
        json_t *s = json_object_get(o, "seed");
        if (json_is_integer(s) && json_integer_value(s) >= 0) {
            meta->seed = (uint64_t)json_integer_value(s);
            meta->has_seed = true;
        } else if (json_is_string(s)) {
            meta->seed = strtoull(json_string_value(s), NULL, 10);
            meta->has_seed = true;
        }
    }
    json_decref(o);
    free(side);
    if (st)
        return st;
    if (rpi == 0)
        return stex_fail(STEX_FILE_FORMAT_ERROR, "%s.json: rowsPerImage is 0", path);
    st = read_bin_data(path, f, dims[0], dims[1], dims[2], bpr, rpi, data_sha[0] ? data_sha : NULL,
                       false, out);
    if (st == STEX_INVALID_ARGUMENT)
        st = STEX_FILE_FORMAT_ERROR;
    return st;
}
