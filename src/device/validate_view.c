/* createView's rules (WebGPU spec, "createView" and "resolving
 * GPUTextureViewDescriptor defaults"). */
#include <inttypes.h>
#include <stdio.h>

#include "common/error.h"
#include "device/device_internal.h"
#include "device/validate_common.h"

const char *stex_texture_aspect_name(stex_texture_aspect a)
{
    static const char *const names[] = {"all", "stencil-only", "depth-only"};
    return (unsigned)a <= STEX_ASPECT_DEPTH_ONLY ? names[a] : "?";
}

stex_view_desc stex_view_desc_resolve(const stex_texture_desc *tex, const stex_view_desc *view)
{
    stex_view_desc v = {0};
    if (view)
        v = *view;
    if (!tex)
        return v;
    stex_texture_desc t = stex_texture_desc_resolve(tex);
    if (v.format == STEX_FORMAT_UNDEFINED)
        v.format = t.format;
    if (v.usage == 0)
        v.usage = t.usage;
    if (v.dimension == STEX_VIEW_DIMENSION_UNDEFINED) {
        switch (t.dimension) {
        case STEX_TEXTURE_DIMENSION_1D: v.dimension = STEX_VIEW_DIMENSION_1D; break;
        case STEX_TEXTURE_DIMENSION_3D: v.dimension = STEX_VIEW_DIMENSION_3D; break;
        default:
            v.dimension = t.size.depth_or_array_layers == 1 ? STEX_VIEW_DIMENSION_2D
                                                            : STEX_VIEW_DIMENSION_2D_ARRAY;
            break;
        }
    }
    /* A base past the end leaves the count at 0; validation then refuses it. */
    if (v.mip_level_count == 0 && v.base_mip_level < t.mip_level_count)
        v.mip_level_count = t.mip_level_count - v.base_mip_level;
    if (v.array_layer_count == 0) {
        uint32_t layers = stex_texture_array_layers(&t);
        switch (v.dimension) {
        case STEX_VIEW_DIMENSION_1D:
        case STEX_VIEW_DIMENSION_2D:
        case STEX_VIEW_DIMENSION_3D: v.array_layer_count = 1; break;
        case STEX_VIEW_DIMENSION_CUBE: v.array_layer_count = 6; break;
        default:
            if (v.base_array_layer < layers)
                v.array_layer_count = layers - v.base_array_layer;
            break;
        }
    }
    return v;
}

/* Is a view of this dimension allowed on a texture of that dimension? */
static bool dimension_fits(stex_texture_dimension t, stex_view_dimension v)
{
    switch (t) {
    case STEX_TEXTURE_DIMENSION_1D: return v == STEX_VIEW_DIMENSION_1D;
    case STEX_TEXTURE_DIMENSION_3D: return v == STEX_VIEW_DIMENSION_3D;
    default:
        return v == STEX_VIEW_DIMENSION_2D || v == STEX_VIEW_DIMENSION_2D_ARRAY ||
               v == STEX_VIEW_DIMENSION_CUBE || v == STEX_VIEW_DIMENSION_CUBE_ARRAY;
    }
}

stex_status stex_validate_view(const stex_device *d, const stex_texture_desc *tex,
                               const stex_view_desc *view)
{
    if (!d || !tex)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_validate_view: device or texture is NULL");
    if (view && (view->format != STEX_FORMAT_UNDEFINED && !stex_format_get(view->format)))
        return stex_fail(STEX_TYPE_ERROR, "createView: format %d is not a GPUTextureFormat",
                         (int)view->format);
    if (view && (unsigned)view->dimension >= STEX_VIEW_DIMENSION_COUNT)
        return stex_fail(STEX_TYPE_ERROR,
                         "createView: dimension %d is not a GPUTextureViewDimension",
                         (int)view->dimension);
    if (!stex_format_get(tex->format))
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_validate_view: the texture has no format");
    stex_texture_desc t = stex_texture_desc_resolve(tex);
    stex_view_desc v = stex_view_desc_resolve(tex, view);
    const char *vf = stex_format_name(v.format), *tf = stex_format_name(t.format);
    const char *vd = stex_view_dimension_name(v.dimension);
    char ub[96], tb[96];

    if (!stex_tier_enabled(stex_format_get(v.format)->create, d->features))
        return stex_fail(STEX_TYPE_ERROR,
                         "createView: format %s requires feature %s, which the device does "
                         "not have", vf, stex_tier_name(stex_format_get(v.format)->create));
    if (v.format != t.format) {
        bool listed = false;
        for (uint32_t i = 0; i < t.view_format_count && t.view_formats; i++)
            listed |= t.view_formats[i] == v.format;
        if (!listed || !stex_formats_view_compatible(v.format, t.format))
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createView: format %s is neither the texture's format %s nor "
                             "one of its viewFormats", vf, tf);
    }
    if ((unsigned)v.aspect > STEX_ASPECT_DEPTH_ONLY)
        return stex_fail(STEX_TYPE_ERROR, "createView: aspect %d is not a GPUTextureAspect",
                         (int)v.aspect);
    {
        const stex_format_info *fi = stex_format_get(t.format);
        bool has_depth = fi->kind == STEX_KIND_DEPTH;
        bool has_stencil = fi->kind == STEX_KIND_STENCIL || fi->stencil; /* either -stencil8 */
        if ((v.aspect == STEX_ASPECT_DEPTH_ONLY && !has_depth) ||
            (v.aspect == STEX_ASPECT_STENCIL_ONLY && !has_stencil))
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createView: aspect %s names an aspect that format %s does not "
                             "have", stex_texture_aspect_name(v.aspect), tf);
    }
    if (v.usage & ~t.usage)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createView: usage %s is not a subset of the texture's usage %s",
                         stex_usage_names(v.usage, ub, sizeof ub),
                         stex_usage_names(t.usage, tb, sizeof tb));
    if (v.usage & STEX_USAGE_STORAGE_BINDING) {
        char why[320];
        if (stex_access_refusal(v.format, STEX_ACCESS_WRITE_ONLY, d->features, why, sizeof why))
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createView: usage includes STORAGE_BINDING but view format %s "
                             "cannot be a storage texture: %s", vf, why);
    }
    if (v.base_mip_level >= t.mip_level_count)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createView: baseMipLevel %" PRIu32 " is not below the texture's "
                         "mipLevelCount %" PRIu32, v.base_mip_level, t.mip_level_count);
    if (v.mip_level_count == 0 || v.mip_level_count > t.mip_level_count - v.base_mip_level)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createView: mip levels [%" PRIu32 ", %" PRIu32 ") are outside the "
                         "texture's %" PRIu32 " levels", v.base_mip_level,
                         v.base_mip_level + v.mip_level_count, t.mip_level_count);
    if (!dimension_fits(t.dimension, v.dimension))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createView: dimension %s is not allowed on a %s texture (1d -> 1d; "
                         "2d -> 2d, 2d-array, cube, cube-array; 3d -> 3d)", vd,
                         stex_texture_dimension_name(t.dimension));
    uint32_t layers = stex_texture_array_layers(&t);
    if (v.base_array_layer >= layers)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createView: baseArrayLayer %" PRIu32 " is not below the texture's "
                         "%" PRIu32 " array layers", v.base_array_layer, layers);
    if (v.array_layer_count == 0 || v.array_layer_count > layers - v.base_array_layer)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createView: array layers [%" PRIu32 ", %" PRIu32 ") are outside the "
                         "texture's %" PRIu32 " layers", v.base_array_layer,
                         v.base_array_layer + v.array_layer_count, layers);
    switch (v.dimension) {
    case STEX_VIEW_DIMENSION_1D:
    case STEX_VIEW_DIMENSION_2D:
    case STEX_VIEW_DIMENSION_3D:
        if (v.array_layer_count != 1)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createView: a %s view has exactly 1 array layer, got "
                             "arrayLayerCount %" PRIu32 " (use 2d-array)", vd,
                             v.array_layer_count);
        break;
    case STEX_VIEW_DIMENSION_CUBE:
    case STEX_VIEW_DIMENSION_CUBE_ARRAY:
        if (v.dimension == STEX_VIEW_DIMENSION_CUBE ? v.array_layer_count != 6
                                                    : v.array_layer_count % 6 != 0)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createView: a %s view needs %s array layers, got %" PRIu32, vd,
                             v.dimension == STEX_VIEW_DIMENSION_CUBE ? "exactly 6"
                                                                     : "a multiple of 6",
                             v.array_layer_count);
        if (t.size.width != t.size.height)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createView: a %s view needs a square texture, got %" PRIu32
                             "x%" PRIu32, vd, t.size.width, t.size.height);
        break;
    default:
        break;
    }
    return STEX_OK;
}
