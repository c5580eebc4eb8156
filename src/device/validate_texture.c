/* createTexture's validation rules (WebGPU spec, "createTexture" and
 * "validating GPUTextureDescriptor"). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "device/device_internal.h"
#include "device/validate_common.h"

#define ALL_USAGES                                                                         \
    (STEX_USAGE_COPY_SRC | STEX_USAGE_COPY_DST | STEX_USAGE_TEXTURE_BINDING |              \
     STEX_USAGE_STORAGE_BINDING | STEX_USAGE_RENDER_ATTACHMENT)

stex_texture_desc stex_texture_desc_resolve(const stex_texture_desc *desc)
{
    stex_texture_desc t = *desc;
    if (t.size.height == 0)
        t.size.height = 1;
    if (t.size.depth_or_array_layers == 0)
        t.size.depth_or_array_layers = 1;
    if (t.mip_level_count == 0)
        t.mip_level_count = 1;
    if (t.sample_count == 0)
        t.sample_count = 1;
    return t;
}

uint32_t stex_texture_array_layers(const stex_texture_desc *t)
{
    return t->dimension == STEX_TEXTURE_DIMENSION_3D ? 1 : t->size.depth_or_array_layers;
}

const char *stex_usage_names(uint32_t usage, char *buf, size_t size)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {
        {STEX_USAGE_COPY_SRC, "COPY_SRC"},
        {STEX_USAGE_COPY_DST, "COPY_DST"},
        {STEX_USAGE_TEXTURE_BINDING, "TEXTURE_BINDING"},
        {STEX_USAGE_STORAGE_BINDING, "STORAGE_BINDING"},
        {STEX_USAGE_RENDER_ATTACHMENT, "RENDER_ATTACHMENT"},
    };
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(usage & names[i].bit))
            continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? "|" : "", names[i].name);
        if (w < 0 || (size_t)w >= size - n)
            return buf;
        n += (size_t)w;
    }
    if (n == 0)
        snprintf(buf, size, "0");
    return buf;
}

bool stex_formats_view_compatible(stex_format a, stex_format b)
{
    const stex_format_info *fa = stex_format_get(a), *fb = stex_format_get(b);
    if (!fa || !fb)
        return false;
    if (a == b)
        return true;
    /* Equal but for the "-srgb" suffix, read from the table's names. */
    const char *x = fa->name, *y = fb->name;
    size_t lx = strlen(x), ly = strlen(y);
    if (lx > ly) {
        const char *t = x; x = y; y = t;
        size_t u = lx; lx = ly; ly = u;
    }
    return ly == lx + 5 && strncmp(x, y, lx) == 0 && strcmp(y + lx, "-srgb") == 0;
}

const char *stex_access_refusal(stex_format f, stex_access access, uint32_t features,
                                char *buf, size_t size)
{
    const stex_format_info *fi = stex_format_get(f);
    stex_tier need = stex_format_access_tier(f, access);
    if (stex_tier_enabled(need, features))
        return NULL;
    if (need != STEX_TIER_NEVER) {
        snprintf(buf, size, "it needs feature %s, which the device does not have",
                 stex_tier_name(need));
        return buf;
    }
    /* NEVER: say which part of the table forbids it. */
    if (!fi || fi->storage == STEX_TIER_NEVER)
        snprintf(buf, size, "%s is not a storage format (no feature allows STORAGE_BINDING)",
                 fi ? fi->name : "the format");
    else if (access == STEX_ACCESS_READ_ONLY)
        snprintf(buf, size, "%s may only be bound write-only (read-only is never allowed)",
                 fi->name);
    else
        snprintf(buf, size,
                 "read-write is allowed only for r32uint, r32sint, r32float, and with "
                 "texture-formats-tier2 for r8unorm r8uint r8sint rgba8unorm rgba8uint "
                 "rgba8sint r16uint r16sint r16float rgba16uint rgba16sint rgba16float "
                 "rgba32uint rgba32sint rgba32float");
    return buf;
}

/* Largest mip count for a size: floor(log2(largest extent)) + 1. */
static uint32_t max_mips(uint32_t m)
{
    uint32_t n = 1;
    while (m > 1) {
        m >>= 1;
        n++;
    }
    return n;
}

stex_status stex_validate_texture(const stex_device *d, const stex_texture_desc *desc)
{
    if (!d || !desc)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_validate_texture: device or desc is NULL");
    const stex_format_info *fi = stex_format_get(desc->format);
    /* Content-timeline checks (TypeError): a required member, valid enums,
     * and the format's required feature. */
    if (desc->format == STEX_FORMAT_UNDEFINED)
        return stex_fail(STEX_TYPE_ERROR, "createTexture: format is required");
    if (!fi)
        return stex_fail(STEX_TYPE_ERROR, "createTexture: format %d is not a GPUTextureFormat",
                         (int)desc->format);
    if ((unsigned)desc->dimension >= STEX_TEXTURE_DIMENSION_COUNT)
        return stex_fail(STEX_TYPE_ERROR,
                         "createTexture: dimension %d is not a GPUTextureDimension",
                         (int)desc->dimension);
    if (!stex_tier_enabled(fi->create, d->features))
        return stex_fail(STEX_TYPE_ERROR,
                         "createTexture: format %s requires feature %s, which the device "
                         "does not have", fi->name, stex_tier_name(fi->create));
    for (uint32_t i = 0; i < desc->view_format_count && desc->view_formats; i++) {
        const stex_format_info *vi = stex_format_get(desc->view_formats[i]);
        if (!vi)
            return stex_fail(STEX_TYPE_ERROR,
                             "createTexture: viewFormats[%" PRIu32 "] is not a GPUTextureFormat",
                             i);
        if (!stex_tier_enabled(vi->create, d->features))
            return stex_fail(STEX_TYPE_ERROR,
                             "createTexture: viewFormats[%" PRIu32 "] %s requires feature %s, "
                             "which the device does not have", i, vi->name,
                             stex_tier_name(vi->create));
    }

    stex_texture_desc t = stex_texture_desc_resolve(desc);
    const stex_limits *L = &d->limits;
    const char *dim = stex_texture_dimension_name(t.dimension);
    char ubuf[96];
    uint32_t w = t.size.width, h = t.size.height, l = t.size.depth_or_array_layers;

    if (t.usage == 0)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createTexture: usage is 0; a texture needs at least one usage");
    if (t.usage & ~(uint32_t)ALL_USAGES)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createTexture: usage 0x%" PRIx32 " has bits that are not "
                         "GPUTextureUsage flags", t.usage);
    if (w == 0)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createTexture: size.width is 0; every extent must be at least 1");
    if (t.sample_count != 1 && t.sample_count != 4)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createTexture: sampleCount %" PRIu32 " is not 1 or 4", t.sample_count);

    switch (t.dimension) {
    case STEX_TEXTURE_DIMENSION_1D:
        if (w > L->max_texture_dimension_1d)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: 1d width %" PRIu32 " exceeds "
                             "maxTextureDimension1D %" PRIu64, w, L->max_texture_dimension_1d);
        if (h != 1 || l != 1)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: a 1d texture must have height 1 and "
                             "depthOrArrayLayers 1, got %" PRIu32 "x%" PRIu32, h, l);
        if (fi->kind != STEX_KIND_COLOR)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: 1d textures cannot have depth, stencil or "
                             "compressed format %s", fi->name);
        break;
    case STEX_TEXTURE_DIMENSION_2D:
        if (w > L->max_texture_dimension_2d || h > L->max_texture_dimension_2d)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: 2d size %" PRIu32 "x%" PRIu32 " exceeds "
                             "maxTextureDimension2D %" PRIu64, w, h, L->max_texture_dimension_2d);
        if (l > L->max_texture_array_layers)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: depthOrArrayLayers %" PRIu32 " exceeds "
                             "maxTextureArrayLayers %" PRIu64, l, L->max_texture_array_layers);
        break;
    case STEX_TEXTURE_DIMENSION_3D:
    default:
        if (w > L->max_texture_dimension_3d || h > L->max_texture_dimension_3d ||
            l > L->max_texture_dimension_3d)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: 3d size %" PRIu32 "x%" PRIu32 "x%" PRIu32
                             " exceeds maxTextureDimension3D %" PRIu64, w, h, l,
                             L->max_texture_dimension_3d);
        if (fi->kind != STEX_KIND_COLOR)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: 3d textures cannot have depth, stencil or "
                             "compressed format %s", fi->name);
        break;
    }
    if (w % fi->block_width != 0 || h % fi->block_height != 0)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createTexture: size %" PRIu32 "x%" PRIu32 " of format %s is not a "
                         "multiple of its %ux%u block (width and height must be multiples of "
                         "the texel block)", w, h,
                         fi->name, fi->block_width, fi->block_height);
    /* Compressed formats are not renderable: no format capability gives
     * them RENDER_ATTACHMENT (storage is refused below, by the table). */
    if (fi->kind == STEX_KIND_COMPRESSED && (t.usage & STEX_USAGE_RENDER_ATTACHMENT))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createTexture: usage includes RENDER_ATTACHMENT but compressed format "
                         "%s is not renderable", fi->name);

    uint32_t largest = w > h ? w : h;
    if (t.dimension == STEX_TEXTURE_DIMENSION_3D && l > largest)
        largest = l;
    uint32_t mips = t.dimension == STEX_TEXTURE_DIMENSION_1D ? 1 : max_mips(largest);
    if (t.mip_level_count > mips)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createTexture: mipLevelCount %" PRIu32 " is more than the %" PRIu32
                         " levels a %s texture of size %" PRIu32 "x%" PRIu32 "x%" PRIu32
                         " can have", t.mip_level_count, mips, dim, w, h, l);

    if (t.sample_count > 1) {
        if (t.usage & STEX_USAGE_STORAGE_BINDING)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: sampleCount %" PRIu32 " with STORAGE_BINDING "
                             "usage; storage textures must have sampleCount 1", t.sample_count);
        if (t.dimension != STEX_TEXTURE_DIMENSION_2D)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: sampleCount %" PRIu32 " needs a 2d texture, got %s",
                             t.sample_count, dim);
        if (t.mip_level_count != 1 || l != 1)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: sampleCount %" PRIu32 " needs mipLevelCount 1 and "
                             "depthOrArrayLayers 1, got %" PRIu32 " and %" PRIu32,
                             t.sample_count, t.mip_level_count, l);
        if (!(t.usage & STEX_USAGE_RENDER_ATTACHMENT))
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: sampleCount %" PRIu32 " needs RENDER_ATTACHMENT "
                             "usage, got %s", t.sample_count,
                             stex_usage_names(t.usage, ubuf, sizeof ubuf));
    }

    if (t.usage & STEX_USAGE_STORAGE_BINDING) {
        char why[320];
        if (stex_access_refusal(t.format, STEX_ACCESS_WRITE_ONLY, d->features, why, sizeof why))
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: usage includes STORAGE_BINDING but format %s "
                             "cannot be a storage texture: %s", fi->name, why);
    }

    for (uint32_t i = 0; i < t.view_format_count && t.view_formats; i++) {
        const stex_format_info *vi = stex_format_get(t.view_formats[i]);
        bool ok = stex_formats_view_compatible(fi->format, vi->format);
        if (!ok)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "createTexture: viewFormats[%" PRIu32 "] %s is not compatible "
                             "with format %s (they may differ only in -srgb)", i, vi->name,
                             fi->name);
    }
    return STEX_OK;
}
