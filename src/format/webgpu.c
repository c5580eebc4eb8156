/* WebGPU names <-> stex enums, table-driven from the X-macros of webgpu.h. */
#include "stex/webgpu.h"

#include <stddef.h>
#include <string.h>

static const char *const feature_names[STEX_FEATURE_COUNT] = {
#define N_(id, name) [STEX_FEATURE_BIT_INDEX_##id] = name,
    STEX_FEATURES(N_)
#undef N_
};

static const char *const language_feature_names[STEX_LANGUAGE_FEATURE_COUNT] = {
#define N_(id, name) [STEX_LANGUAGE_FEATURE_BIT_INDEX_##id] = name,
    STEX_LANGUAGE_FEATURES(N_)
#undef N_
};

static const char *const access_names[STEX_ACCESS_COUNT] = {
    [STEX_ACCESS_UNDEFINED] = "undefined",
    [STEX_ACCESS_WRITE_ONLY] = "write-only",
    [STEX_ACCESS_READ_ONLY] = "read-only",
    [STEX_ACCESS_READ_WRITE] = "read-write",
};

static const char *const access_wgsl_names[STEX_ACCESS_COUNT] = {
    [STEX_ACCESS_UNDEFINED] = "?",
    [STEX_ACCESS_WRITE_ONLY] = "write",
    [STEX_ACCESS_READ_ONLY] = "read",
    [STEX_ACCESS_READ_WRITE] = "read_write",
};

static const char *const texture_dimension_names[STEX_TEXTURE_DIMENSION_COUNT] = {
    [STEX_TEXTURE_DIMENSION_2D] = "2d",
    [STEX_TEXTURE_DIMENSION_1D] = "1d",
    [STEX_TEXTURE_DIMENSION_3D] = "3d",
};

static const char *const view_dimension_names[STEX_VIEW_DIMENSION_COUNT] = {
    [STEX_VIEW_DIMENSION_UNDEFINED] = "undefined",
    [STEX_VIEW_DIMENSION_1D] = "1d",
    [STEX_VIEW_DIMENSION_2D] = "2d",
    [STEX_VIEW_DIMENSION_2D_ARRAY] = "2d-array",
    [STEX_VIEW_DIMENSION_CUBE] = "cube",
    [STEX_VIEW_DIMENSION_CUBE_ARRAY] = "cube-array",
    [STEX_VIEW_DIMENSION_3D] = "3d",
};

static const char *const view_dimension_wgsl_names[STEX_VIEW_DIMENSION_COUNT] = {
    [STEX_VIEW_DIMENSION_1D] = "1d",
    [STEX_VIEW_DIMENSION_2D] = "2d",
    [STEX_VIEW_DIMENSION_2D_ARRAY] = "2d_array",
    [STEX_VIEW_DIMENSION_CUBE] = "cube",
    [STEX_VIEW_DIMENSION_CUBE_ARRAY] = "cube_array",
    [STEX_VIEW_DIMENSION_3D] = "3d",
};

static const struct {
    uint32_t flag;
    const char *name;
} stage_names[] = {
    {STEX_STAGE_VERTEX, "vertex"},
    {STEX_STAGE_FRAGMENT, "fragment"},
    {STEX_STAGE_COMPUTE, "compute"},
};

static const char *name_at(const char *const *names, int count, int i)
{
    return (i >= 0 && i < count && names[i]) ? names[i] : "?";
}

/* Index of `name` in names[first..count), or -1. */
static int index_of(const char *const *names, int first, int count, const char *name)
{
    if (!name)
        return -1;
    for (int i = first; i < count; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* Index of the single set bit, or -1 if zero or several bits are set. */
static int single_bit(uint32_t v)
{
    if (v == 0 || (v & (v - 1)) != 0)
        return -1;
    int i = 0;
    while (!(v & 1u)) {
        v >>= 1;
        i++;
    }
    return i;
}

const char *stex_feature_name(stex_feature f)
{
    return name_at(feature_names, STEX_FEATURE_COUNT, single_bit((uint32_t)f));
}

bool stex_feature_from_name(const char *name, stex_feature *out)
{
    int i = index_of(feature_names, 0, STEX_FEATURE_COUNT, name);
    if (i < 0)
        return false;
    *out = (stex_feature)(1u << i);
    return true;
}

/* Splits a comma-separated list and calls `one` per item.  Empty items (",,",
 * or an empty list) are skipped.  On an unknown item, *bad points at it (into
 * the caller's string; the item ends at the next ',' or NUL). */
static bool parse_list(const char *list, uint32_t *mask, const char **bad,
                       bool (*one)(const char *item, size_t len, uint32_t *bit))
{
    uint32_t m = 0;
    const char *p = list ? list : "";
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0) {
            uint32_t bit;
            if (!one(p, len, &bit)) {
                if (bad)
                    *bad = p;
                return false;
            }
            m |= bit;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    *mask = m;
    return true;
}

static bool feature_item(const char *item, size_t len, uint32_t *bit)
{
    for (int i = 0; i < STEX_FEATURE_COUNT; i++)
        if (strlen(feature_names[i]) == len && strncmp(feature_names[i], item, len) == 0) {
            *bit = 1u << i;
            return true;
        }
    return false;
}

bool stex_features_parse(const char *list, uint32_t *mask, const char **bad)
{
    return parse_list(list, mask, bad, feature_item);
}

const char *stex_language_feature_name(stex_language_feature f)
{
    return name_at(language_feature_names, STEX_LANGUAGE_FEATURE_COUNT, single_bit((uint32_t)f));
}

bool stex_language_feature_from_name(const char *name, stex_language_feature *out)
{
    int i = index_of(language_feature_names, 0, STEX_LANGUAGE_FEATURE_COUNT, name);
    if (i < 0)
        return false;
    *out = (stex_language_feature)(1u << i);
    return true;
}

const char *stex_access_name(stex_access a)
{
    return name_at(access_names, STEX_ACCESS_COUNT, (int)a);
}

const char *stex_access_wgsl_name(stex_access a)
{
    return name_at(access_wgsl_names, STEX_ACCESS_COUNT, (int)a);
}

bool stex_access_from_name(const char *name, stex_access *out)
{
    int i = index_of(access_names, STEX_ACCESS_WRITE_ONLY, STEX_ACCESS_COUNT, name);
    if (i < 0)
        i = index_of(access_wgsl_names, STEX_ACCESS_WRITE_ONLY, STEX_ACCESS_COUNT, name);
    if (i < 0)
        return false;
    *out = (stex_access)i;
    return true;
}

const char *stex_texture_dimension_name(stex_texture_dimension d)
{
    return name_at(texture_dimension_names, STEX_TEXTURE_DIMENSION_COUNT, (int)d);
}

bool stex_texture_dimension_from_name(const char *name, stex_texture_dimension *out)
{
    int i = index_of(texture_dimension_names, 0, STEX_TEXTURE_DIMENSION_COUNT, name);
    if (i < 0)
        return false;
    *out = (stex_texture_dimension)i;
    return true;
}

const char *stex_view_dimension_name(stex_view_dimension d)
{
    return name_at(view_dimension_names, STEX_VIEW_DIMENSION_COUNT, (int)d);
}

const char *stex_view_dimension_wgsl_name(stex_view_dimension d)
{
    return name_at(view_dimension_wgsl_names, STEX_VIEW_DIMENSION_COUNT, (int)d);
}

bool stex_view_dimension_from_name(const char *name, stex_view_dimension *out)
{
    int i = index_of(view_dimension_names, STEX_VIEW_DIMENSION_1D, STEX_VIEW_DIMENSION_COUNT, name);
    if (i < 0)
        return false;
    *out = (stex_view_dimension)i;
    return true;
}

static bool stage_item(const char *item, size_t len, uint32_t *bit)
{
    for (size_t i = 0; i < sizeof stage_names / sizeof stage_names[0]; i++)
        if (strlen(stage_names[i].name) == len && strncmp(stage_names[i].name, item, len) == 0) {
            *bit = stage_names[i].flag;
            return true;
        }
    return false;
}

bool stex_stages_parse(const char *list, uint32_t *mask, const char **bad)
{
    return parse_list(list, mask, bad, stage_item);
}
