/* Storage-texture bind group layout entries and the views bound to them
 * (WebGPU spec, "createBindGroupLayout" and "createBindGroup"). */
#include <inttypes.h>
#include <stdio.h>

#include "common/error.h"
#include "device/device_internal.h"
#include "device/validate_common.h"

#define ALL_STAGES (STEX_STAGE_VERTEX | STEX_STAGE_FRAGMENT | STEX_STAGE_COMPUTE)

stex_status stex_validate_storage_texture_layout(const stex_device *d, uint32_t visibility,
                                                 const stex_storage_texture_layout *entry)
{
    if (!d || !entry)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_validate_storage_texture_layout: device or entry is NULL");
    /* Content timeline (TypeError): required member, enum values, the
     * format's required feature. */
    if (entry->format == STEX_FORMAT_UNDEFINED)
        return stex_fail(STEX_TYPE_ERROR,
                         "createBindGroupLayout: storageTexture.format is required");
    const stex_format_info *fi = stex_format_get(entry->format);
    if (!fi)
        return stex_fail(STEX_TYPE_ERROR,
                         "createBindGroupLayout: storageTexture.format %d is not a "
                         "GPUTextureFormat", (int)entry->format);
    if ((unsigned)entry->access >= STEX_ACCESS_COUNT)
        return stex_fail(STEX_TYPE_ERROR,
                         "createBindGroupLayout: storageTexture.access %d is not a "
                         "GPUStorageTextureAccess", (int)entry->access);
    if ((unsigned)entry->view_dimension >= STEX_VIEW_DIMENSION_COUNT)
        return stex_fail(STEX_TYPE_ERROR,
                         "createBindGroupLayout: storageTexture.viewDimension %d is not a "
                         "GPUTextureViewDimension", (int)entry->view_dimension);
    if (!stex_tier_enabled(fi->create, d->features))
        return stex_fail(STEX_TYPE_ERROR,
                         "createBindGroupLayout: storageTexture.format %s requires feature %s, "
                         "which the device does not have", fi->name,
                         stex_tier_name(fi->create));

    stex_access access = entry->access ? entry->access : STEX_ACCESS_WRITE_ONLY;
    stex_view_dimension dim =
        entry->view_dimension ? entry->view_dimension : STEX_VIEW_DIMENSION_2D;
    const char *an = stex_access_name(access), *dn = stex_view_dimension_name(dim);

    if (visibility & ~(uint32_t)ALL_STAGES)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroupLayout: visibility 0x%" PRIx32 " has bits that are "
                         "not GPUShaderStage flags", visibility);
    if (access != STEX_ACCESS_WRITE_ONLY &&
        !(d->language_features & STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroupLayout: storageTexture.access %s needs the WGSL "
                         "language feature readonly_and_readwrite_storage_textures, which "
                         "navigator.gpu.wgslLanguageFeatures does not have", an);
    char why[320];
    if (stex_access_refusal(fi->format, access, d->features, why, sizeof why))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroupLayout: format %s does not support storage access "
                         "%s: %s", fi->name, an, why);
    if (dim == STEX_VIEW_DIMENSION_CUBE || dim == STEX_VIEW_DIMENSION_CUBE_ARRAY)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroupLayout: storageTexture.viewDimension %s is not "
                         "allowed; storage textures cannot be cube or cube-array (bind a "
                         "2d-array of 6 layers instead)", dn);
    if ((visibility & STEX_STAGE_VERTEX) && access != STEX_ACCESS_READ_ONLY)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroupLayout: a %s storage texture is visible to VERTEX; "
                         "the vertex stage may only bind storage textures read-only", an);
    return STEX_OK;
}

stex_status stex_validate_storage_binding(const stex_device *d,
                                          const stex_storage_texture_layout *entry,
                                          const stex_texture_desc *tex,
                                          const stex_view_desc *resolved_view)
{
    if (!d || !entry || !tex)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "stex_validate_storage_binding: device, entry or texture is NULL");
    /* Resolving twice changes nothing, so an unresolved view is fine too. */
    stex_view_desc v = stex_view_desc_resolve(tex, resolved_view);
    stex_view_dimension want =
        entry->view_dimension ? entry->view_dimension : STEX_VIEW_DIMENSION_2D;
    char ub[96];
    if (v.dimension != want)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroup: view dimension %s does not match the layout's "
                         "storageTexture.viewDimension %s", stex_view_dimension_name(v.dimension),
                         stex_view_dimension_name(want));
    if (v.format != entry->format)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroup: view format %s is not the layout's "
                         "storageTexture.format %s (storage bindings take the exact format)",
                         stex_format_name(v.format), stex_format_name(entry->format));
    if (!(v.usage & STEX_USAGE_STORAGE_BINDING))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroup: the view's usage %s does not include "
                         "STORAGE_BINDING", stex_usage_names(v.usage, ub, sizeof ub));
    if (v.mip_level_count != 1)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBindGroup: a storage texture view must have exactly one mip "
                         "level, got mipLevelCount %" PRIu32, v.mip_level_count);
    return STEX_OK;
}
