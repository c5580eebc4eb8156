/* "views": GPUTextureViewDescriptor entries, each with the texture it views. */
#include "run/names.h"
#include "run/run_internal.h"

static stex_status create_one(stex_run *r, const char *name, const json_t *d, const char *path)
{
    static const char *const members[] = {"texture", "format", "dimension", "baseMipLevel",
                                          "mipLevelCount", "baseArrayLayer", "arrayLayerCount",
                                          "usage", "aspect", "label", NULL};
    stex_view_desc vd = {0};
    void *t;
    int dim = 0, aspect = 0;
    stex_status st;
    if ((st = run_want_object(r, d, path)) || (st = run_check_members(r, d, path, members)) ||
        (st = run_get_ref(r, d, path, "texture", &r->textures, "texture", &t)) ||
        (st = run_get_format(r, d, path, "format", false, &vd.format)) ||
        (st = run_get_enum(r, d, path, "dimension", "GPUTextureViewDimension",
                           RUN_VIEW_DIMENSIONS, &dim)) ||
        (st = run_get_u32(r, d, path, "baseMipLevel", false, &vd.base_mip_level)) ||
        (st = run_get_u32(r, d, path, "mipLevelCount", false, &vd.mip_level_count)) ||
        (st = run_get_u32(r, d, path, "baseArrayLayer", false, &vd.base_array_layer)) ||
        (st = run_get_u32(r, d, path, "arrayLayerCount", false, &vd.array_layer_count)) ||
        (st = run_get_flags(r, d, path, "usage", "GPUTextureUsage", RUN_TEXTURE_USAGES,
                            RUN_TEXTURE_USAGE_BITS, &vd.usage)) ||
        (st = run_get_enum(r, d, path, "aspect", "GPUTextureAspect", RUN_ASPECTS, &aspect)))
        return st;
    vd.dimension = (stex_view_dimension)dim;
    vd.aspect = (stex_texture_aspect)aspect;
    stex_texture_view *v;
    if ((st = stex_texture_create_view(t, &vd, &v)))
        return run_wrap(r, st, path);
    if ((st = run_table_add(&r->views, name, v)))
        stex_texture_view_destroy(v);
    return st;
}

stex_status run_create_views(stex_run *r)
{
    const char *name;
    json_t *d;
    json_object_foreach(json_object_get(r->root, "views"), name, d) {
        char p[RUN_PATH_MAX];
        run_path_key(p, "$.views", name);
        stex_status st = create_one(r, name, d, p);
        if (st)
            return st;
    }
    return STEX_OK;
}
