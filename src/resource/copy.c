/* writeTexture, copyBufferToTexture, copyTextureToBuffer with WebGPU's
 * linear byte layout (GPUTexelCopyBufferLayout) and validation rules, and
 * copyTextureToTexture. */
#include <inttypes.h>
#include <string.h>

#include "common/error.h"
#include "device/validate_common.h" /* stex_formats_view_compatible */
#include "resource/internal.h"

/* What a copy moves per texel block of one side: the aspect's bytes (the
 * spec's "texel block copy footprint") found at byte `offset` of stex's
 * texel, over blocks of bw x bh texels. */
typedef struct copy_unit {
    uint32_t bw, bh, bytes, offset;
} copy_unit;

/* "validating GPUTexelCopyTextureInfo" and "validating texture copy range",
 * against the level's physical size (whole texel blocks). */
static stex_status check_texture(const char *op, const stex_copy_texture *c, stex_extent3d size,
                                 uint32_t need_usage, const char *usage_name, bool buffer_copy)
{
    const stex_texture *t = c->texture;
    if (!t)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: texture must not be NULL", op);
    if ((unsigned)c->aspect > STEX_ASPECT_DEPTH_ONLY)
        return stex_fail(STEX_TYPE_ERROR, "%s: aspect %d is not a GPUTextureAspect", op,
                         (int)c->aspect);
    const stex_format_info *fi = t->info;
    if (c->mip_level >= t->desc.mip_level_count)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: mipLevel %u is not less than the texture's mipLevelCount %u",
                         op, c->mip_level, t->desc.mip_level_count);
    stex_extent3d m = stex_texture_physical_size(t, c->mip_level);
    const char *axis[3] = {"x", "y", t->desc.dimension == STEX_TEXTURE_DIMENSION_3D ? "z" : "array layer"};
    const char *ext[3] = {"width", "height", "depthOrArrayLayers"};
    uint32_t lim[3] = {m.width, m.height, m.depth_or_array_layers};
    uint32_t len[3] = {size.width, size.height, size.depth_or_array_layers};
    bool blocks = fi->block_width > 1 || fi->block_height > 1;
    for (int i = 0; i < 3; i++)
        if ((uint64_t)c->origin[i] + len[i] > lim[i])
            return stex_fail(STEX_VALIDATION_ERROR,
                             "%s: copy box out of the subresource: origin.%s %u + copySize.%s %u > %u at mip level %u%s",
                             op, axis[i], c->origin[i], ext[i], len[i], lim[i], c->mip_level,
                             blocks ? " (its physical size, in whole texel blocks)" : "");
    uint32_t bwh[2] = {fi->block_width, fi->block_height};
    for (int i = 0; i < 2; i++) {
        if (c->origin[i] % bwh[i])
            return stex_fail(STEX_VALIDATION_ERROR,
                             "%s: origin.%s %u is not a multiple of the texel block %s %u of %s", op,
                             axis[i], c->origin[i], i ? "height" : "width", bwh[i], fi->name);
        if (len[i] % bwh[i])
            return stex_fail(STEX_VALIDATION_ERROR,
                             "%s: copySize.%s %u is not a multiple of the texel block %s %u of %s",
                             op, ext[i], len[i], i ? "height" : "width", bwh[i], fi->name);
    }
    /* The spec asks the whole subresource of depth-or-stencil formats;
     * like the implementations (and the CTS) stex checks width and height,
     * so a copy may still take some of the array layers. */
    bool ds = stex_format_is_depth_or_stencil(fi->format);
    if ((ds || t->desc.sample_count > 1) && (size.width != m.width || size.height != m.height))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: copies of %s %s must cover the whole subresource: copySize %ux%u is "
                         "not the mip level's %ux%u", op,
                         ds ? "depth-or-stencil format" : "multisampled textures of", fi->name,
                         size.width, size.height, m.width, m.height);
    if (!(t->desc.usage & need_usage))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: texture usage 0x%x lacks %s", op, t->desc.usage,
                         usage_name);
    if (buffer_copy && t->desc.sample_count != 1)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: texture sampleCount %u; copies between a "
                         "texture and a buffer need sampleCount 1", op, t->desc.sample_count);
    return STEX_OK;
}

/* The aspect a buffer copy moves ("validating texture buffer copy"): a
 * depth-or-stencil format's copy names one aspect that the "Depth-stencil
 * formats" table lets be copied this way; other formats move whole blocks. */
static stex_status buffer_unit(const char *op, const stex_copy_texture *c, bool to_texture,
                               copy_unit *u)
{
    const stex_format_info *fi = c->texture->info;
    u->bw = fi->block_width;
    u->bh = fi->block_height;
    bool depth = fi->depth_copy != STEX_DEPTH_COPY_NA, stencil = fi->stencil;
    if (!depth && !stencil) {
        if (c->aspect != STEX_ASPECT_ALL)
            return stex_fail(STEX_VALIDATION_ERROR, "%s: aspect %s does not exist in format %s", op,
                             stex_texture_aspect_name(c->aspect), fi->name);
        stex_format_aspect_bytes(fi->format, STEX_FORMAT_ASPECT_WHOLE, &u->bytes, &u->offset);
        return STEX_OK;
    }
    stex_texture_aspect a = c->aspect;
    if (a == STEX_ASPECT_ALL) {
        if (depth && stencil)
            return stex_fail(STEX_VALIDATION_ERROR,
                             "%s: aspect \"all\" of depth-stencil format %s names two aspects; a copy "
                             "between a buffer and a texture names one (\"depth-only\" or "
                             "\"stencil-only\")", op, fi->name);
        a = depth ? STEX_ASPECT_DEPTH_ONLY : STEX_ASPECT_STENCIL_ONLY;
    }
    if ((a == STEX_ASPECT_DEPTH_ONLY && !depth) || (a == STEX_ASPECT_STENCIL_ONLY && !stencil))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: aspect %s does not exist in format %s", op,
                         stex_texture_aspect_name(a), fi->name);
    if (a == STEX_ASPECT_DEPTH_ONLY &&
        (fi->depth_copy == STEX_DEPTH_COPY_NEVER ||
         (to_texture && fi->depth_copy != STEX_DEPTH_COPY_BOTH)))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: the depth aspect of %s cannot be a texel copy %s (the spec's "
                         "depth-stencil formats table)", op, fi->name,
                         to_texture ? "destination" : "source");
    stex_format_aspect_bytes(fi->format,
                             a == STEX_ASPECT_DEPTH_ONLY ? STEX_FORMAT_ASPECT_DEPTH
                                                         : STEX_FORMAT_ASPECT_STENCIL,
                             &u->bytes, &u->offset);
    return STEX_OK;
}

/* "validating linear texture data", in texel blocks. */
/* A layout as the rules read it: whether bytesPerRow and rowsPerImage were
 * given (0: not given; STEX_LAYOUT_ZERO: given as 0), and their values. */
typedef struct copy_layout_n {
    stex_copy_layout v;
    bool bpr_given, rpi_given;
} copy_layout_n;

static copy_layout_n norm_layout(const stex_copy_layout *l, uint32_t exact)
{
    if (exact & STEX_COPY_EXACT) /* every value as itself; "not given" by its bit */
        return (copy_layout_n){.v = *l, .bpr_given = !(exact & STEX_COPY_BYTES_PER_ROW_UNSET),
                               .rpi_given = !(exact & STEX_COPY_ROWS_PER_IMAGE_UNSET)};
    copy_layout_n n = {.v = *l, .bpr_given = l->bytes_per_row != 0,
                       .rpi_given = l->rows_per_image != 0};
    if (l->bytes_per_row == STEX_LAYOUT_ZERO)
        n.v.bytes_per_row = 0;
    if (l->rows_per_image == STEX_LAYOUT_ZERO)
        n.v.rows_per_image = 0;
    return n;
}

static stex_status check_layout(const char *op, const copy_layout_n *n, uint64_t byte_size,
                                stex_extent3d size, const copy_unit *u, const char *size_name)
{
    const stex_copy_layout *l = &n->v;
    uint32_t wb = size.width / u->bw, hb = size.height / u->bh;
    uint64_t last_row = (uint64_t)wb * u->bytes;
    if (hb > 1 && !n->bpr_given)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: bytesPerRow must be specified when the copy has more than one row of "
                         "texel blocks (%u)", op, hb);
    if (size.depth_or_array_layers > 1 && (!n->bpr_given || !n->rpi_given))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: bytesPerRow and rowsPerImage must be specified when copySize.depthOrArrayLayers (%u) > 1",
                         op, size.depth_or_array_layers);
    if (n->bpr_given && l->bytes_per_row < last_row)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: bytesPerRow %u is less than the bytes in one row of the copy (%u %s x %u bytes = %" PRIu64 ")",
                         op, l->bytes_per_row, wb, u->bw > 1 ? "texel blocks" : "texels", u->bytes,
                         last_row);
    if (n->rpi_given && l->rows_per_image < hb) {
        if (u->bh == 1)
            return stex_fail(STEX_VALIDATION_ERROR, "%s: rowsPerImage %u is less than copySize.height %u",
                             op, l->rows_per_image, size.height);
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: rowsPerImage %u is less than the copy's %u rows of texel blocks "
                         "(copySize.height %u / block height %u)", op, l->rows_per_image, hb,
                         size.height, u->bh);
    }
    /* WebGPU's "required bytes in copy" */
    uint64_t need = 0;
    if (size.depth_or_array_layers) {
        uint64_t bpr = l->bytes_per_row, per_image = bpr * l->rows_per_image;
        need = per_image * (size.depth_or_array_layers - 1);
        if (hb)
            need += bpr * (hb - 1) + last_row;
    }
    if (l->offset > byte_size || need > byte_size - l->offset)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: %s %" PRIu64 " is too small: offset %" PRIu64 " + required bytes in copy %" PRIu64
                         " = %" PRIu64, op, size_name, byte_size, l->offset, need, l->offset + need);
    return STEX_OK;
}

/* The extra rules of buffer copies ("validating GPUTexelCopyBufferInfo" and
 * the aligned case of "validating texture buffer copy"). */
static stex_status check_buffer_layout(const char *op, const stex_copy_layout *l,
                                       const stex_format_info *fi, const copy_unit *u)
{
    if (l->bytes_per_row % 256)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: bytesPerRow %u is not a multiple of 256", op,
                         l->bytes_per_row);
    bool ds = stex_format_is_depth_or_stencil(fi->format);
    uint32_t align = ds ? 4 : u->bytes;
    if (l->offset % align)
        return stex_fail(STEX_VALIDATION_ERROR,
                         ds ? "%s: offset %" PRIu64 " is not a multiple of 4 (copies of depth-or-stencil "
                              "formats)"
                            : "%s: offset %" PRIu64 " is not a multiple of the texel block copy footprint (%u bytes)",
                         op, l->offset, align);
    return STEX_OK;
}

/* Moves the copy box between the texture and linear bytes, block row by
 * block row; bytes between rows and images in the linear side, and the
 * other aspect's bytes in the texture, are never touched. */
static void move(const stex_copy_texture *c, uint8_t *linear, const stex_copy_layout *l,
                 stex_extent3d size, const copy_unit *u, bool to_texture)
{
    stex_texture *t = c->texture;
    const stex_level_layout *lv = &t->layout.level[c->mip_level];
    uint32_t wb = size.width / u->bw, hb = size.height / u->bh;
    uint32_t x0 = c->origin[0] / u->bw, y0 = c->origin[1] / u->bh;
    uint64_t rows = l->rows_per_image ? l->rows_per_image : hb;
    for (uint32_t z = 0; z < size.depth_or_array_layers; z++)
        for (uint32_t y = 0; y < hb; y++) {
            uint8_t *row = linear + l->offset + ((uint64_t)z * rows + y) * l->bytes_per_row;
            for (uint32_t x = 0; x < wb; x++) {
                uint8_t *texel = t->memory + u->offset +
                                 stex_level_offset(lv, x0 + x, y0 + y, c->origin[2] + z);
                if (to_texture)
                    memcpy(texel, row + (uint64_t)x * u->bytes, u->bytes);
                else
                    memcpy(row + (uint64_t)x * u->bytes, texel, u->bytes);
            }
        }
}

/* GPUExtent3D: height and depthOrArrayLayers default to 1 (0 = not given,
 * as in stex_extent3d), STEX_EXTENT_ZERO is an explicit 0; a width of 0 is a
 * legal empty copy. */
static uint32_t extent_or(uint32_t v, uint32_t unset)
{
    return v == STEX_EXTENT_ZERO ? 0 : v ? v : unset;
}

static stex_extent3d norm_size(stex_extent3d s, uint32_t exact)
{
    if (exact & STEX_COPY_EXACT)
        return s;
    s.width = extent_or(s.width, 0);
    s.height = extent_or(s.height, 1);
    s.depth_or_array_layers = extent_or(s.depth_or_array_layers, 1);
    return s;
}

stex_status stex_queue_write_texture(const stex_copy_texture *dst, const void *data, size_t data_size,
                                     const stex_copy_layout *layout, stex_extent3d size)
{
    const char *op = "writeTexture";
    if (!dst || !layout || (!data && data_size))
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: destination, layout and data must not be NULL", op);
    size = norm_size(size, dst->exact);
    copy_layout_n n = norm_layout(layout, dst->exact);
    copy_unit u;
    stex_status st = check_texture(op, dst, size, STEX_USAGE_COPY_DST, "COPY_DST", true);
    if (!st)
        st = buffer_unit(op, dst, true, &u);
    if (!st)
        st = check_layout(op, &n, data_size, size, &u, "data size");
    if (st)
        return st;
    if (!dst->texture->memory)
        return RESOURCE_DESTROYED(op);
    if (size.width)
        move(dst, (uint8_t *)(uintptr_t)data, &n.v, size, &u, true);
    return STEX_OK;
}

static stex_status b2t(stex_buffer *src, const stex_copy_layout *layout,
                       const stex_copy_texture *dst, stex_extent3d size, bool run)
{
    const char *op = "copyBufferToTexture";
    if (!src || !layout || !dst)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: buffer, layout and destination must not be NULL", op);
    size = norm_size(size, dst->exact);
    if (!(src->usage & STEX_BUFFER_USAGE_COPY_SRC))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: source buffer usage 0x%x lacks COPY_SRC", op, src->usage);
    copy_unit u;
    stex_status st = check_texture(op, dst, size, STEX_USAGE_COPY_DST, "COPY_DST", true);
    if (!st && src->device != dst->texture->device)
        st = stex_fail(STEX_VALIDATION_ERROR, "%s: the buffer and the texture belong to "
                       "different devices", op);
    if (!st)
        st = buffer_unit(op, dst, true, &u);
    copy_layout_n n = norm_layout(layout, dst->exact);
    if (!st)
        st = check_buffer_layout(op, &n.v, dst->texture->info, &u);
    if (!st)
        st = check_layout(op, &n, src->size, size, &u, "source buffer size");
    if (st)
        return st;
    if (run && (!src->data || !dst->texture->memory))
        return RESOURCE_DESTROYED(op);
    if (run && size.width)
        move(dst, src->data, &n.v, size, &u, true);
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
    size = norm_size(size, src->exact);
    if (!(dst->usage & STEX_BUFFER_USAGE_COPY_DST))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: destination buffer usage 0x%x lacks COPY_DST", op,
                         dst->usage);
    copy_unit u;
    stex_status st = check_texture(op, src, size, STEX_USAGE_COPY_SRC, "COPY_SRC", true);
    if (!st && dst->device != src->texture->device)
        st = stex_fail(STEX_VALIDATION_ERROR, "%s: the buffer and the texture belong to "
                       "different devices", op);
    if (!st)
        st = buffer_unit(op, src, false, &u);
    copy_layout_n n = norm_layout(layout, src->exact);
    if (!st)
        st = check_buffer_layout(op, &n.v, src->texture->info, &u);
    if (!st)
        st = check_layout(op, &n, dst->size, size, &u, "destination buffer size");
    if (st)
        return st;
    if (run && (!dst->data || !src->texture->memory))
        return RESOURCE_DESTROYED(op);
    if (run && size.width)
        move(src, dst->data, &n.v, size, &u, false);
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

/* Does the copy name every aspect of its depth-or-stencil format? "all"
 * does, and so does the one aspect of a format that has only that one. */
static bool all_aspects(const stex_copy_texture *c)
{
    const stex_format_info *fi = c->texture->info;
    bool depth = fi->depth_copy != STEX_DEPTH_COPY_NA;
    switch (c->aspect) {
    case STEX_ASPECT_ALL: return true;
    case STEX_ASPECT_DEPTH_ONLY: return depth && !fi->stencil;
    case STEX_ASPECT_STENCIL_ONLY: return fi->stencil && !depth;
    default: return false;
    }
}

static stex_status t2t(const stex_copy_texture *src, const stex_copy_texture *dst,
                       stex_extent3d size, bool run)
{
    const char *op = "copyTextureToTexture";
    if (!src || !dst)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: source and destination must not be NULL", op);
    size = norm_size(size, src->exact | dst->exact);
    stex_status st = check_texture(op, src, size, STEX_USAGE_COPY_SRC, "COPY_SRC", false);
    if (!st)
        st = check_texture(op, dst, size, STEX_USAGE_COPY_DST, "COPY_DST", false);
    if (st)
        return st;
    const stex_texture *s = src->texture, *d = dst->texture;
    if (s->device != d->device)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: the source and destination textures belong "
                         "to different devices", op);
    if (s->desc.sample_count != d->desc.sample_count)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: source sampleCount %u and destination "
                         "sampleCount %u differ", op, s->desc.sample_count, d->desc.sample_count);
    if (!stex_formats_view_compatible(s->desc.format, d->desc.format))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: formats %s and %s are not copy-compatible (they "
                         "may differ only in -srgb)", op, s->info->name, d->info->name);
    if (stex_format_is_depth_or_stencil(s->desc.format)) {
        if (!all_aspects(src) || !all_aspects(dst))
            return stex_fail(STEX_VALIDATION_ERROR, "%s: copies between depth-or-stencil textures "
                             "(%s) must name all of their aspects; source aspect %s, destination "
                             "aspect %s", op, s->info->name, stex_texture_aspect_name(src->aspect),
                             stex_texture_aspect_name(dst->aspect));
    } else if (src->aspect != STEX_ASPECT_ALL || dst->aspect != STEX_ASPECT_ALL) {
        return stex_fail(STEX_VALIDATION_ERROR, "%s: aspect %s does not exist in format %s", op,
                         stex_texture_aspect_name(src->aspect != STEX_ASPECT_ALL ? src->aspect
                                                                                : dst->aspect),
                         s->info->name);
    }
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
    if (!s->memory || !d->memory)
        return RESOURCE_DESTROYED(op);
    /* Whole texel blocks (every aspect) as raw bytes; copy-compatible
     * formats share their block size. */
    const stex_level_layout *ls = &s->layout.level[src->mip_level];
    const stex_level_layout *ld = &d->layout.level[dst->mip_level];
    uint32_t bw = s->info->block_width, bh = s->info->block_height, bpp = s->info->bytes;
    uint32_t sx = src->origin[0] / bw, sy = src->origin[1] / bh;
    uint32_t dx = dst->origin[0] / bw, dy = dst->origin[1] / bh;
    /* a multisampled texture keeps sample k of layer z as slice z * count + k */
    uint32_t sc = s->desc.sample_count;
    for (uint32_t z = 0; z < size.depth_or_array_layers * sc; z++)
        for (uint32_t y = 0; y < size.height / bh; y++)
            for (uint32_t x = 0; x < size.width / bw; x++)
                memcpy(d->memory + stex_level_offset(ld, dx + x, dy + y, dst->origin[2] * sc + z),
                       s->memory + stex_level_offset(ls, sx + x, sy + y, src->origin[2] * sc + z),
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
