/* GPUBindGroupLayoutEntry lists: {"binding", "visibility", and one of
 * "buffer", "storageTexture", "texture", "sampler"}. */
#include <stdlib.h>
#include <string.h>

#include "run/names.h"
#include "run/run_internal.h"

#define BAD STEX_FILE_FORMAT_ERROR

static const stex_binding_type BUFFER_BINDINGS[] = {STEX_BINDING_UNIFORM_BUFFER,
                                                    STEX_BINDING_STORAGE_BUFFER,
                                                    STEX_BINDING_READ_ONLY_STORAGE_BUFFER};

static stex_status one_entry(const stex_run *r, const json_t *d, const char *path,
                             stex_layout_entry *e)
{
    static const char *const members[] = {"binding", "visibility", "buffer", "storageTexture",
                                          "texture", "sampler", NULL};
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_u32(r, d, path, "binding", true, &e->binding)) ||
        (st = run_get_flags(r, d, path, "visibility", "GPUShaderStage", RUN_STAGES,
                            RUN_STAGE_BITS, &e->visibility)))
        return st;
    if (!json_object_get(d, "visibility"))
        return run_fail(r, BAD, path, "missing member 'visibility'");
    const char *kinds[] = {"buffer", "storageTexture", "texture", "sampler"};
    const char *kind = NULL;
    for (int i = 0; i < 4; i++)
        if (json_object_get(d, kinds[i])) {
            if (kind)
                return run_fail(r, BAD, path, "give one binding layout, not both '%s' and '%s'",
                                kind, kinds[i]);
            kind = kinds[i];
        }
    if (!kind)
        return run_fail(r, BAD, path, "missing the binding layout: one of buffer, "
                                      "storageTexture, texture, sampler");
    char p[RUN_PATH_MAX];
    run_path_key(p, path, kind);
    const json_t *k = json_object_get(d, kind);
    if ((st = run_want_object(r, k, p)))
        return st;
    int v = 0, a = 0;
    if (!strcmp(kind, "buffer")) {
        static const char *const m[] = {"type", "hasDynamicOffset", "minBindingSize", NULL};
        if ((st = run_check_members(r, k, p, m)) ||
            (st = run_get_enum(r, k, p, "type", "GPUBufferBindingType", RUN_BUFFER_TYPES, &v)) ||
            (st = run_get_bool(r, k, p, "hasDynamicOffset", &e->buffer.has_dynamic_offset)) ||
            (st = run_get_u64(r, k, p, "minBindingSize", false, &e->buffer.min_binding_size)))
            return st;
        e->type = BUFFER_BINDINGS[v];
    } else if (!strcmp(kind, "storageTexture")) {
        static const char *const m[] = {"access", "format", "viewDimension", NULL};
        if ((st = run_check_members(r, k, p, m)) ||
            (st = run_get_enum(r, k, p, "access", "GPUStorageTextureAccess", RUN_ACCESS, &a)) ||
            (st = run_get_format(r, k, p, "format", true, &e->storage_texture.format)) ||
            (st = run_get_enum(r, k, p, "viewDimension", "GPUTextureViewDimension",
                               RUN_VIEW_DIMENSIONS, &v)))
            return st;
        e->type = STEX_BINDING_STORAGE_TEXTURE;
        e->storage_texture.access = (stex_access)a;
        e->storage_texture.view_dimension = (stex_view_dimension)v;
    } else if (!strcmp(kind, "texture")) {
        static const char *const m[] = {"sampleType", "viewDimension", "multisampled", NULL};
        if ((st = run_check_members(r, k, p, m)) ||
            (st = run_get_enum(r, k, p, "sampleType", "GPUTextureSampleType", RUN_SAMPLE_TYPES,
                               &a)) ||
            (st = run_get_enum(r, k, p, "viewDimension", "GPUTextureViewDimension",
                               RUN_VIEW_DIMENSIONS, &v)) ||
            (st = run_get_bool(r, k, p, "multisampled", &e->texture_multisampled)))
            return st;
        e->type = STEX_BINDING_TEXTURE;
        e->texture_view_dimension = (stex_view_dimension)v;
        e->texture_sample_type = (stex_texture_sample_type)a;
    } else {
        static const char *const m[] = {"type", NULL};
        if ((st = run_check_members(r, k, p, m)) ||
            (st = run_get_enum(r, k, p, "type", "GPUSamplerBindingType", RUN_SAMPLER_TYPES, &a)))
            return st;
        e->type = STEX_BINDING_SAMPLER;
        e->sampler_type = (stex_sampler_binding_type)a;
    }
    return STEX_OK;
}

stex_status run_layout_entries(const stex_run *r, const json_t *list, const char *path,
                               uint32_t group, stex_layout_entry **entries, uint32_t *count)
{
    stex_status st = run_want_array(r, list, path);
    if (st)
        return st;
    size_t n = json_array_size(list), i;
    stex_layout_entry *e = realloc(*entries, (*count + n + 1) * sizeof *e);
    if (!e)
        return run_fail(r, STEX_OUT_OF_MEMORY, path, "out of memory");
    *entries = e;
    json_t *d;
    json_array_foreach(list, i, d) {
        char p[RUN_PATH_MAX];
        run_path_index(p, path, i);
        stex_layout_entry *x = &e[*count];
        memset(x, 0, sizeof *x);
        x->group = group;
        if ((st = one_entry(r, d, p, x)))
            return st;
        (*count)++;
    }
    return STEX_OK;
}
