/* Reading typed members of the run file's JSON objects: every wrong type
 * or value is an error naming the member's path and what it should be. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "run/run_internal.h"
#include "common/suggest.h"

#define BAD STEX_FILE_FORMAT_ERROR

static const char *type_name(const json_t *v)
{
    if (!v)
        return "nothing";
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "a list";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

stex_status run_check_members(const stex_run *r, const json_t *obj, const char *path,
                              const char *const *allowed)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = !strcmp(*a, key);
        if (ok)
            continue;
        char list[512] = "", p[RUN_PATH_MAX];
        for (const char *const *a = allowed; *a; a++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                     a == allowed ? "" : ", ", *a);
        run_path_key(p, path, key);
        stex_suggestion near; /* "did you mean" the allowed name nearest the key */
        stex_suggest_init(&near, key);
        for (const char *const *a = allowed; *a; a++)
            stex_suggest_offer(&near, *a);
        const char *best = stex_suggest_best(&near);
        return run_fail(r, BAD, p, "unknown member '%s' (%s%s%sexpected %s)", key,
                        best ? "did you mean '" : "", best ? best : "", best ? "'? " : "",
                        *allowed ? list : "none");
    }
    return STEX_OK;
}

/* A required member that is absent (v NULL at "<parent>.key"): the error
 * names the object that lacks it, "<parent>: missing member 'key'". */
static stex_status missing(const stex_run *r, const char *path)
{
    size_t n = strlen(path);
    const char *cut = NULL;
    if (n > 2 && !strcmp(path + n - 2, "\"]")) /* <parent>["key"] */
        for (const char *q = path + n - 2; q > path && !cut; q--)
            cut = !strncmp(q - 1, "[\"", 2) ? q - 1 : NULL;
    if (!cut)
        cut = strrchr(path, '.');
    if (!cut || cut == path)
        return run_fail(r, BAD, path, "missing");
    char parent[RUN_PATH_MAX], key[RUN_PATH_MAX];
    snprintf(parent, sizeof parent, "%.*s", (int)(cut - path), path);
    snprintf(key, sizeof key, "%.*s", *cut == '.' ? (int)(n - (size_t)(cut - path) - 1)
                                                  : (int)(n - (size_t)(cut - path) - 4),
             *cut == '.' ? cut + 1 : cut + 2);
    return run_fail(r, BAD, parent, "missing member '%s'", key);
}

stex_status run_want_object(const stex_run *r, const json_t *v, const char *path)
{
    if (!v)
        return missing(r, path);
    return json_is_object(v) ? STEX_OK
                             : run_fail(r, BAD, path, "expected an object, found %s", type_name(v));
}

stex_status run_want_array(const stex_run *r, const json_t *v, const char *path)
{
    if (!v)
        return missing(r, path);
    return json_is_array(v) ? STEX_OK
                            : run_fail(r, BAD, path, "expected a list, found %s", type_name(v));
}

/* The member, or NULL; a missing required one is an error. */
static stex_status member(const stex_run *r, const json_t *obj, const char *path, const char *key,
                          bool required, json_t **v, char p[RUN_PATH_MAX])
{
    run_path_key(p, path, key);
    *v = json_object_get(obj, key);
    if (!*v && required)
        return run_fail(r, BAD, path, "missing member '%s'", key);
    return STEX_OK;
}

stex_status run_get_u64(const stex_run *r, const json_t *obj, const char *path, const char *key,
                        bool required, uint64_t *out)
{
    char p[RUN_PATH_MAX];
    json_t *v;
    stex_status st = member(r, obj, path, key, required, &v, p);
    if (st || !v)
        return st;
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return run_fail(r, BAD, p, "expected a whole number >= 0, found %s", type_name(v));
    *out = (uint64_t)json_integer_value(v);
    return STEX_OK;
}

stex_status run_get_u32(const stex_run *r, const json_t *obj, const char *path, const char *key,
                        bool required, uint32_t *out)
{
    uint64_t v = *out;
    stex_status st = run_get_u64(r, obj, path, key, required, &v);
    if (st)
        return st;
    if (v > UINT32_MAX) {
        char p[RUN_PATH_MAX];
        run_path_key(p, path, key);
        return run_fail(r, BAD, p, "%" PRIu64 " does not fit in 32 bits", v);
    }
    *out = (uint32_t)v;
    return STEX_OK;
}

stex_status run_get_number(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, double *out)
{
    char p[RUN_PATH_MAX];
    json_t *v;
    stex_status st = member(r, obj, path, key, false, &v, p);
    if (st || !v)
        return st;
    if (!json_is_number(v))
        return run_fail(r, BAD, p, "expected a number, found %s", type_name(v));
    *out = json_number_value(v);
    return STEX_OK;
}

stex_status run_get_bool(const stex_run *r, const json_t *obj, const char *path, const char *key,
                         bool *out)
{
    char p[RUN_PATH_MAX];
    json_t *v;
    stex_status st = member(r, obj, path, key, false, &v, p);
    if (st || !v)
        return st;
    if (!json_is_boolean(v))
        return run_fail(r, BAD, p, "expected true or false, found %s", type_name(v));
    *out = json_is_true(v);
    return STEX_OK;
}

stex_status run_get_string(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, bool required, const char **out)
{
    char p[RUN_PATH_MAX];
    json_t *v;
    stex_status st = member(r, obj, path, key, required, &v, p);
    if (st || !v)
        return st;
    if (!json_is_string(v))
        return run_fail(r, BAD, p, "expected a string, found %s", type_name(v));
    *out = json_string_value(v);
    return STEX_OK;
}

static int n_names(const char *const *names)
{
    int n = 0;
    while (names[n])
        n++;
    return n;
}

stex_status run_get_enum(const stex_run *r, const json_t *obj, const char *path, const char *key,
                         const char *what, const char *const *names, int *out)
{
    const char *s = NULL;
    stex_status st = run_get_string(r, obj, path, key, false, &s);
    if (st || !s)
        return st;
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], s)) {
            *out = i;
            return STEX_OK;
        }
    char p[RUN_PATH_MAX], list[256] = "";
    for (int i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "",
                 names[i]);
    run_path_key(p, path, key);
    const char *best = stex_suggest(s, names, (size_t)n_names(names));
    return run_fail(r, BAD, p, "unknown %s \"%s\" (%s%s%sexpected %s)", what, s,
                    best ? "did you mean \"" : "", best ? best : "", best ? "\"? " : "", list);
}

stex_status run_get_format(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, bool required, stex_format *out)
{
    const char *s = NULL;
    stex_status st = run_get_string(r, obj, path, key, required, &s);
    if (st || !s)
        return st;
    stex_format f = stex_format_from_name(s);
    if (f == STEX_FORMAT_UNDEFINED) {
        char p[RUN_PATH_MAX];
        run_path_key(p, path, key);
        stex_suggestion near;
        stex_suggest_init(&near, s);
        for (int i = STEX_FORMAT_UNDEFINED + 1; i < STEX_FORMAT_COUNT; i++)
            stex_suggest_offer(&near, stex_format_name((stex_format)i));
        const char *best = stex_suggest_best(&near);
        return run_fail(r, BAD, p, "unknown GPUTextureFormat \"%s\" (%s%s%s`stex formats` lists "
                        "them)", s, best ? "did you mean \"" : "", best ? best : "",
                        best ? "\"? " : "");
    }
    *out = f;
    return STEX_OK;
}

stex_status run_get_extent(const stex_run *r, const json_t *obj, const char *path,
                           const char *key, bool required, uint32_t out[3])
{
    char p[RUN_PATH_MAX];
    json_t *v;
    stex_status st = member(r, obj, path, key, required, &v, p);
    if (st || !v)
        return st;
    if (json_is_object(v)) {
        static const char *const members[] = {"width", "height", "depthOrArrayLayers", NULL};
        out[1] = out[2] = 1;
        if ((st = run_check_members(r, v, p, members)) ||
            (st = run_get_u32(r, v, p, "width", true, &out[0])) ||
            (st = run_get_u32(r, v, p, "height", false, &out[1])))
            return st;
        return run_get_u32(r, v, p, "depthOrArrayLayers", false, &out[2]);
    }
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (n < 1 || n > 3)
        return run_fail(r, BAD, p, "expected [width, height, depthOrArrayLayers] (1 to 3 whole "
                                   "numbers) or {width, height, depthOrArrayLayers}");
    for (size_t i = 0; i < 3; i++) {
        json_t *e = json_array_get(v, i);
        if (i < n && (!json_is_integer(e) || json_integer_value(e) < 0 ||
                      json_integer_value(e) > UINT32_MAX)) {
            char pi[RUN_PATH_MAX];
            run_path_index(pi, p, i);
            return run_fail(r, BAD, pi, "expected a whole number in [0, 2^32), found %s",
                            type_name(e));
        }
        out[i] = i < n ? (uint32_t)json_integer_value(e) : 1;
    }
    return STEX_OK;
}

stex_status run_get_flags(const stex_run *r, const json_t *obj, const char *path, const char *key,
                          const char *what, const char *const *names, const uint32_t *values,
                          uint32_t *out)
{
    char p[RUN_PATH_MAX];
    json_t *v;
    stex_status st = member(r, obj, path, key, false, &v, p);
    if (st || !v)
        return st;
    if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= UINT32_MAX) {
        *out = (uint32_t)json_integer_value(v);
        return STEX_OK;
    }
    if (!json_is_array(v))
        return run_fail(r, BAD, p, "expected a number or a list of %s names, found %s", what,
                        type_name(v));
    uint32_t mask = 0;
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
        char pi[RUN_PATH_MAX];
        run_path_index(pi, p, i);
        const char *s = json_string_value(e);
        size_t k = 0;
        while (s && names[k] && strcmp(names[k], s))
            k++;
        if (!s || !names[k]) {
            char list[256] = "";
            for (size_t j = 0; names[j]; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "",
                         names[j]);
            return run_fail(r, BAD, pi, "not a %s name (expected one of %s)", what, list);
        }
        mask |= values[k];
    }
    *out = mask;
    return STEX_OK;
}
