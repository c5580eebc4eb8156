/* writeTexture, copyBufferToTexture, copyTextureToBuffer with WebGPU's
 * linear byte layout (GPUTexelCopyBufferLayout) and validation rules, and
 * copyTextureToTexture. */
#include <inttypes.h>
#include <string.h>

#include "common/error.h"
#include "device/validate_common.h" /* stex_formats_view_compatible */
#include "resource/internal.h"

/* "validating GPUTexelCopyTextureInfo" and "validating texture copy range". */
static stex_status check_texture(const char *op, const stex_copy_texture *c, stex_extent3d size,
                                 uint32_t need_usage, const char *usage_name)
{
    const stex_texture *t = c->texture;
    if (!t)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: texture must not be NULL", op);
    if (!(t->desc.usage & need_usage))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: texture usage 0x%x lacks %s", op, t->desc.usage,
                         usage_name);
    if (t->desc.sample_count != 1)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: texture sampleCount %u; copies need sampleCount 1",
                         op, t->desc.sample_count);
    if (c->mip_level >= t->desc.mip_level_count)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: mipLevel %u is not less than the texture's mipLevelCount %u",
                         op, c->mip_level, t->desc.mip_level_count);
    if (t->info->kind != STEX_KIND_COLOR)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: stex copies color formats only, not %s", op,
                         t->info->name);
    stex_extent3d m = stex_texture_mip_size(t, c->mip_level);
    const char *axis[3] = {"x", "y", t->desc.dimension == STEX_TEXTURE_DIMENSION_3D ? "z" : "array layer"};
    const char *ext[3] = {"width", "height", "depthOrArrayLayers"};
    uint32_t lim[3] = {m.width, m.height, m.depth_or_array_layers};
    uint32_t len[3] = {size.width, size.height, size.depth_or_array_layers};
    for (int i = 0; i < 3; i++)
        if ((uint64_t)c->origin[i] + len[i] > lim[i])
            return stex_fail(STEX_VALIDATION_ERROR,
                             "%s: copy box out of the subresource: origin.%s %u + copySize.%s %u > %u at mip level %u",
                             op, axis[i], c->origin[i], ext[i], len[i], lim[i], c->mip_level);
    return STEX_OK;
}

/* "validating linear texture data": returns the required bytes in *need. */
static stex_status check_layout(const char *op, const stex_copy_layout *l, uint64_t byte_size,
                                stex_extent3d size, uint32_t bpp, const char *size_name)
{
    uint64_t last_row = (uint64_t)size.width * bpp;
    if (size.height > 1 && !l->bytes_per_row)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: bytesPerRow must be specified when copySize.height (%u) > 1", op, size.height);
    if (size.depth_or_array_layers > 1 && (!l->bytes_per_row || !l->rows_per_image))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: bytesPerRow and rowsPerImage must be specified when copySize.depthOrArrayLayers (%u) > 1",
                         op, size.depth_or_array_layers);
    if (l->bytes_per_row && l->bytes_per_row < last_row)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: bytesPerRow %u is less than the bytes in one row of the copy (%u texels x %u bytes = %" PRIu64 ")",
                         op, l->bytes_per_row, size.width, bpp, last_row);
    if (l->rows_per_image && l->rows_per_image < size.height)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: rowsPerImage %u is less than copySize.height %u", op,
                         l->rows_per_image, size.height);
    /* WebGPU's "required bytes in copy" */
    uint64_t need = 0;
    if (size.height && size.depth_or_array_layers) {
        uint64_t bpr = l->bytes_per_row, per_image = bpr * l->rows_per_image;
        if (size.depth_or_array_layers > 1)
            need = per_image * (size.depth_or_array_layers - 1);
        need += bpr * (size.height - 1) + last_row;
    }
    if (l->offset > byte_size || need > byte_size - l->offset)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: %s %" PRIu64 " is too small: offset %" PRIu64 " + required bytes in copy %" PRIu64
                         " = %" PRIu64, op, size_name, byte_size, l->offset, need, l->offset + need);
    return STEX_OK;
}

/* The extra rules of buffer copies ("validating GPUTexelCopyBufferInfo"). */
static stex_status check_buffer_layout(const char *op, const stex_copy_layout *l, uint32_t bpp)
{
    if (l->bytes_per_row % 256)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: bytesPerRow %u is not a multiple of 256", op,
                         l->bytes_per_row);
    if (l->offset % bpp)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: offset %" PRIu64 " is not a multiple of the texel block copy footprint (%u bytes)",
                         op, l->offset, bpp);
    return STEX_OK;
}

/* Moves the copy box between the texture and linear bytes, row by row;
 * bytes between rows and images in the linear side are never touched. */
static void move(const stex_copy_texture *c, uint8_t *linear, const stex_copy_layout *l,
                 stex_extent3d size, bool to_texture)
{
    stex_texture *t = c->texture;
    const stex_level_layout *lv = &t->layout.level[c->mip_level];
    uint32_t bpp = t->info->bytes;
    uint64_t rows = l->rows_per_image ? l->rows_per_image : size.height;
    for (uint32_t z = 0; z < size.depth_or_array_layers; z++)
        for (uint32_t y = 0; y < size.height; y++) {
            uint8_t *row = linear + l->offset + ((uint64_t)z * rows + y) * l->bytes_per_row;
            for (uint32_t x = 0; x < size.width; x++) {
                uint8_t *texel = t->memory + stex_level_offset(lv, c->origin[0] + x, c->origin[1] + y,
                                                                c->origin[2] + z);
                if (to_texture)
                    memcpy(texel, row + (uint64_t)x * bpp, bpp);
                else
                    memcpy(row + (uint64_t)x * bpp, texel, bpp);
            }
        }
}

/* GPUExtent3D: height and depthOrArrayLayers default to 1 (0 = not given,
 * as in stex_extent3d); a width of 0 is a legal empty copy. */
static stex_extent3d norm_size(stex_extent3d s)
{
    if (!s.height)
        s.height = 1;
    if (!s.depth_or_array_layers)
        s.depth_or_array_layers = 1;
    return s;
}

stex_status stex_queue_write_texture(const stex_copy_texture *dst, const void *data, size_t data_size,
                                     const stex_copy_layout *layout, stex_extent3d size)
{
    const char *op = "writeTexture";
    if (!dst || !layout || (!data && data_size))
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: destination, layout and data must not be NULL", op);
    size = norm_size(size);
    stex_status st = check_texture(op, dst, size, STEX_USAGE_COPY_DST, "COPY_DST");
    if (!st)
        st = check_layout(op, layout, data_size, size, dst->texture->info->bytes, "data size");
    if (st)
        return st;
    if (size.width)
        move(dst, (uint8_t *)(uintptr_t)data, layout, size, true);
    return STEX_OK;
}

static stex_status b2t(stex_buffer *src, const stex_copy_layout *layout,
                       const stex_copy_texture *dst, stex_extent3d size, bool run)
{
    const char *op = "copyBufferToTexture";
    if (!src || !layout || !dst)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: buffer, layout and destination must not be NULL", op);
    size = norm_size(size);
    if (!(src->usage & STEX_BUFFER_USAGE_COPY_SRC))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: source buffer usage 0x%x lacks COPY_SRC", op, src->usage);
    stex_status st = check_texture(op, dst, size, STEX_USAGE_COPY_DST, "COPY_DST");
    if (!st)
        st = check_buffer_layout(op, layout, dst->texture->info->bytes);
    if (!st)
        st = check_layout(op, layout, src->size, size, dst->texture->info->bytes, "source buffer size");
    if (st)
        return st;
    if (run && size.width)
        move(dst, src->data, layout, size, true);
    return STEX_OK;
}

stex_status stex_copy_buffer_to_texture(stex_buffer *src, const stex_copy_layout *layout,
                                        const stex_copy_texture *dst, stex_extent3d size)
{
    return b2t(src, layout, dst, size, true);
}

stex_status stex_check_copy_buffer_to_texture(const stex_buffer *src, const stex_copy_layout *layout,
                                              const stex_copy_texture *dst, stex_extent3d size)
{
    return b2t((stex_buffer *)(uintptr_t)src, layout, dst, size, false);
}

static stex_status t2b(const stex_copy_texture *src, stex_buffer *dst,
                       const stex_copy_layout *layout, stex_extent3d size, bool run)
{
    const char *op = "copyTextureToBuffer";
    if (!src || !layout || !dst)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: source, buffer and layout must not be NULL", op);
    size = norm_size(size);
    if (!(dst->usage & STEX_BUFFER_USAGE_COPY_DST))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: destination buffer usage 0x%x lacks COPY_DST", op,
                         dst->usage);
    stex_status st = check_texture(op, src, size, STEX_USAGE_COPY_SRC, "COPY_SRC");
    if (!st)
        st = check_buffer_layout(op, layout, src->texture->info->bytes);
    if (!st)
        st = check_layout(op, layout, dst->size, size, src->texture->info->bytes, "destination buffer size");
    if (st)
        return st;
    if (run && size.width)
        move(src, dst->data, layout, size, false);
    return STEX_OK;
}

stex_status stex_copy_texture_to_buffer(const stex_copy_texture *src, stex_buffer *dst,
                                        const stex_copy_layout *layout, stex_extent3d size)
{
    return t2b(src, dst, layout, size, true);
}

stex_status stex_check_copy_texture_to_buffer(const stex_copy_texture *src, const stex_buffer *dst,
                                              const stex_copy_layout *layout, stex_extent3d size)
{
    return t2b(src, (stex_buffer *)(uintptr_t)dst, layout, size, false);
}

/* The array layers (2d) or the whole level (3d) a copy box touches. */
static void layer_range(const stex_copy_texture *c, stex_extent3d size, uint32_t *lo, uint32_t *hi)
{
    bool layers = c->texture->desc.dimension != STEX_TEXTURE_DIMENSION_3D;
    *lo = layers ? c->origin[2] : 0;
    *hi = layers ? c->origin[2] + size.depth_or_array_layers : UINT32_MAX;
}

static stex_status t2t(const stex_copy_texture *src, const stex_copy_texture *dst,
                       stex_extent3d size, bool run)
{
    const char *op = "copyTextureToTexture";
    if (!src || !dst)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: source and destination must not be NULL", op);
    size = norm_size(size);
    stex_status st = check_texture(op, src, size, STEX_USAGE_COPY_SRC, "COPY_SRC");
    if (!st)
        st = check_texture(op, dst, size, STEX_USAGE_COPY_DST, "COPY_DST");
    if (st)
        return st;
    const stex_texture *s = src->texture, *d = dst->texture;
    if (!stex_formats_view_compatible(s->desc.format, d->desc.format))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: formats %s and %s are not copy-compatible (they "
                         "may differ only in -srgb)", op, s->info->name, d->info->name);
    if (s == d && src->mip_level == dst->mip_level) {
        uint32_t a0, a1, b0, b1;
        layer_range(src, size, &a0, &a1);
        layer_range(dst, size, &b0, &b1);
        if (a0 < b1 && b0 < a1)
            return stex_fail(STEX_VALIDATION_ERROR, "%s: source and destination are the same "
                             "subresources of one texture (mip level %u)", op, src->mip_level);
    }
    if (!run)
        return STEX_OK;
    const stex_level_layout *ls = &s->layout.level[src->mip_level];
    const stex_level_layout *ld = &d->layout.level[dst->mip_level];
    uint32_t bpp = s->info->bytes;
    for (uint32_t z = 0; z < size.depth_or_array_layers; z++)
        for (uint32_t y = 0; y < size.height; y++)
            for (uint32_t x = 0; x < size.width; x++)
                memcpy(d->memory + stex_level_offset(ld, dst->origin[0] + x, dst->origin[1] + y,
                                                     dst->origin[2] + z),
                       s->memory + stex_level_offset(ls, src->origin[0] + x, src->origin[1] + y,
                                                     src->origin[2] + z),
                       bpp);
    return STEX_OK;
}

stex_status stex_copy_texture_to_texture(const stex_copy_texture *src, const stex_copy_texture *dst,
                                         stex_extent3d size)
{
    return t2t(src, dst, size, true);
}

stex_status stex_check_copy_texture_to_texture(const stex_copy_texture *src,
                                               const stex_copy_texture *dst, stex_extent3d size)
{
    return t2t(src, dst, size, false);
}
