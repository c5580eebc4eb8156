/* Bytes a run file gives inline or by file: {"file": "x.bin"}, {"hex":
 * "00ff..."}, or typed 32-bit values {"u32": [...]}, {"i32": [...]},
 * {"f32": [...]}, little-endian as WebGPU lays them out. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/io_internal.h"
#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

static const char *const KINDS[] = {"file", "hex", "u32", "i32", "f32", NULL};

bool run_has_data(const json_t *obj)
{
    for (const char *const *k = KINDS; *k; k++)
        if (json_object_get(obj, *k))
            return true;
    return false;
}

static stex_status from_file(const stex_run *r, const json_t *v, const char *path, uint8_t **bytes,
                             size_t *size)
{
    if (!json_is_string(v))
        return run_fail(r, BAD, path, "expected a file name (a string)");
    char *full;
    stex_status st = run_named_file(r, json_string_value(v), path, false, &full);
    if (st)
        return st;
    st = run_read_file(r, full, bytes, size, STEX_IO_MAX_BYTES);
    free(full);
    return st ? run_wrap(r, st, path) : STEX_OK;
}

static int hex_digit(char c)
{
    return isdigit((unsigned char)c) ? c - '0'
           : isxdigit((unsigned char)c) ? tolower((unsigned char)c) - 'a' + 10 : -1;
}

static stex_status from_hex(const stex_run *r, const json_t *v, const char *path, uint8_t **bytes,
                            size_t *size)
{
    const char *s = json_string_value(v);
    if (!s)
        return run_fail(r, BAD, path, "expected a string of hex digits");
    size_t n = 0;
    uint8_t *out = malloc(strlen(s) / 2 + 1);
    if (!out)
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    for (size_t i = 0; s[i];) {
        if (isspace((unsigned char)s[i])) {
            i++;
            continue;
        }
        int hi = hex_digit(s[i]), lo = hi < 0 ? -1 : hex_digit(s[i + 1]);
        if (lo < 0) {
            free(out);
            return run_fail(r, BAD, path, "not a pair of hex digits at character %zu", i);
        }
        out[n++] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    *bytes = out;
    *size = n;
    return STEX_OK;
}

/* One JSON value as a 32-bit word of the type: exact integers in range,
 * any number (or "nan", "inf", "-inf") for f32. */
static bool word_of(const json_t *e, char type, uint32_t *w)
{
    if (type == 'f') {
        const char *s = json_string_value(e);
        float f;
        if (s && !strcmp(s, "nan"))
            f = NAN;
        else if (s && (!strcmp(s, "inf") || !strcmp(s, "-inf")))
            f = s[0] == '-' ? -INFINITY : INFINITY;
        else if (json_is_number(e))
            f = (float)json_number_value(e);
        else
            return false;
        memcpy(w, &f, 4);
        return true;
    }
    if (!json_is_integer(e))
        return false;
    json_int_t v = json_integer_value(e);
    if (type == 'u' ? v < 0 || v > UINT32_MAX : v < INT32_MIN || v > INT32_MAX)
        return false;
    *w = (uint32_t)v;
    return true;
}

static stex_status from_words(const stex_run *r, const json_t *v, const char *path, char type,
                              uint8_t **bytes, size_t *size)
{
    if (!json_is_array(v))
        return run_fail(r, BAD, path, "expected a list of numbers");
    size_t n = json_array_size(v);
    uint8_t *out = malloc(n * 4 + 1);
    if (!out)
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    for (size_t i = 0; i < n; i++) {
        uint32_t w;
        if (!word_of(json_array_get(v, i), type, &w)) {
            free(out);
            char p[RUN_PATH_MAX];
            run_path_index(p, path, i);
            return run_fail(r, BAD, p, "%s", type == 'u' ? "expected a whole number in [0, 2^32)"
                                             : type == 'i' ? "expected a whole number in [-2^31, 2^31)"
                                             : "expected a number, \"nan\", \"inf\" or \"-inf\"");
        }
        io_put32(out + 4 * i, w);
    }
    *bytes = out;
    *size = n * 4;
    return STEX_OK;
}

stex_status run_data(const stex_run *r, const json_t *obj, const char *path, uint8_t **bytes,
                     size_t *size)
{
    *bytes = NULL;
    *size = 0;
    const char *kind = NULL;
    for (const char *const *k = KINDS; *k; k++)
        if (json_object_get(obj, *k)) {
            if (kind)
                return run_fail(r, BAD, path, "give one of file, hex, u32, i32, f32, not both "
                                              "'%s' and '%s'", kind, *k);
            kind = *k;
        }
    if (!kind)
        return run_fail(r, BAD, path, "missing the data: one of file, hex, u32, i32, f32");
    char p[RUN_PATH_MAX];
    run_path_key(p, path, kind);
    const json_t *v = json_object_get(obj, kind);
    if (!strcmp(kind, "file"))
        return from_file(r, v, p, bytes, size);
    if (!strcmp(kind, "hex"))
        return from_hex(r, v, p, bytes, size);
    return from_words(r, v, p, kind[0], bytes, size);
}
