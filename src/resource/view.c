/* Views: one mip level and a range of layers; textureStore / textureLoad. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "resource/internal.h"

/* The view's bounds at mip level `mip` (absolute), as the shader sees them. */
static void view_bounds(const stex_texture_view *v, uint32_t mip, uint32_t *w, uint32_t *h,
                        uint32_t *d)
{
    const stex_level_layout *l = &v->texture->layout.level[mip];
    *w = l->width;
    *h = l->height;
    switch (v->desc.dimension) {
    case STEX_VIEW_DIMENSION_3D:
        *d = l->depth;
        break;
    case STEX_VIEW_DIMENSION_2D_ARRAY:
    case STEX_VIEW_DIMENSION_CUBE:
    case STEX_VIEW_DIMENSION_CUBE_ARRAY:
        *d = v->desc.array_layer_count;
        break;
    default:
        *d = 1;
        break;
    }
}

/* Fills the fast-path record of level `mip` (absolute) of the view. */
void stex_view_access_at_level(const stex_texture_view *v, uint32_t mip, stex_view_access *a)
{
    const stex_texture *t = v->texture;
    const stex_level_layout *l = &t->layout.level[mip];
    memset(a, 0, sizeof *a);
    uint32_t base_layer = v->desc.dimension == STEX_VIEW_DIMENSION_3D ? 0 : v->desc.base_array_layer;
    /* a discarded (destroyed) texture has no memory to point into */
    a->memory = t->memory ? t->memory + l->base + (uint64_t)base_layer * l->slice_bytes : NULL;
    a->layout = *l;
    a->layout.base = 0;
    view_bounds(v, mip, &a->width, &a->height, &a->depth);
    a->format = v->desc.format;
    const stex_format_info *fi = stex_format_get(a->format);
    a->bytes_per_texel = fi ? fi->bytes : t->info->bytes;
    a->profile = stex_device_profile(t->device);
    a->encode = stex_encoder(a->format);
    a->decode = stex_decoder(a->format);
    /* depth and stencil aspects: read, never written, by shaders */
    if (v->desc.aspect == STEX_ASPECT_STENCIL_ONLY || fi->kind == STEX_KIND_STENCIL)
        a->decode = stex_stencil_decoder(a->format);
    else if (!a->decode)
        a->decode = stex_depth_decoder(a->format);
}

stex_status stex_texture_create_view(stex_texture *t, const stex_view_desc *desc,
                                     stex_texture_view **out)
{
    if (out)
        *out = NULL;
    if (!t || !out)
        return stex_fail(STEX_INVALID_ARGUMENT, "createView: texture and out must not be NULL");
    stex_view_desc none;
    memset(&none, 0, sizeof none);
    if (!desc)
        desc = &none;
    stex_status st = stex_validate_view(t->device, &t->desc, desc);
    if (st)
        return st;
    stex_texture_view *v = calloc(1, sizeof *v);
    if (!v)
        return stex_fail(STEX_OUT_OF_MEMORY, "createView: out of memory");
    v->texture = t;
    v->desc = stex_view_desc_resolve(&t->desc, desc);
    for (uint32_t m = 0; m < v->desc.mip_level_count && m < STEX_MAX_MIP_LEVELS; m++)
        stex_view_access_at_level(v, v->desc.base_mip_level + m, &v->level[m]);
    v->access = v->level[0];
    *out = v;
    return STEX_OK;
}

void stex_texture_view_destroy(stex_texture_view *v) { free(v); }
stex_texture *stex_view_texture(const stex_texture_view *v) { return v->texture; }
const stex_view_desc *stex_view_get_desc(const stex_texture_view *v) { return &v->desc; }
stex_format stex_view_format(const stex_texture_view *v) { return v->desc.format; }
void stex_view_get_access(const stex_texture_view *v, stex_view_access *out) { *out = v->access; }

stex_extent3d stex_view_dimensions(const stex_texture_view *v)
{
    stex_extent3d e = {v->access.width, v->access.height, 1};
    if (v->desc.dimension == STEX_VIEW_DIMENSION_1D)
        e.height = 1;
    if (v->desc.dimension == STEX_VIEW_DIMENSION_3D)
        e.depth_or_array_layers = v->access.depth;
    return e;
}

uint32_t stex_view_num_layers(const stex_texture_view *v) { return v->desc.array_layer_count; }

uint8_t *stex_view_texel(const stex_texture_view *v, int64_t x, int64_t y, int64_t z)
{
    return stex_view_access_texel(&v->access, x, y, z);
}

bool stex_view_store(const stex_texture_view *v, const stex_profile *p, int64_t x, int64_t y,
                     int64_t z, const stex_vec4 *value)
{
    uint8_t *texel = stex_view_access_texel(&v->access, x, y, z);
    if (!texel || !v->access.encode)
        return false; /* out of bounds: discarded, as WGSL says */
    v->access.encode(p ? p : stex_device_profile(v->texture->device), value, texel);
    return true;
}

bool stex_view_load(const stex_texture_view *v, const stex_profile *p, int64_t x, int64_t y,
                    int64_t z, stex_vec4 *out)
{
    const uint8_t *texel = stex_view_access_texel(&v->access, x, y, z);
    if (!texel || !v->access.decode)
        return false;
    v->access.decode(p ? p : stex_device_profile(v->texture->device), texel, out);
    return true;
}
