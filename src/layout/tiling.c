/* Tiled and linear layouts of texture levels (docs/memory.md). */
#include "stex/layout.h"

#include <string.h>

#include "common/error.h"

static uint64_t round_up(uint64_t v, uint64_t m) { return (v + m - 1) / m * m; }

/* Fill the tile geometry for macro-tile side 2^shift (0 = linear). */
static stex_status fill(stex_level_layout *l, uint32_t w, uint32_t h, uint32_t depth,
                        uint32_t bpp, uint8_t shift)
{
    uint64_t side = (uint64_t)1 << shift;
    memset(l, 0, sizeof *l);
    l->width = w;
    l->height = h;
    l->depth = depth;
    l->bytes_per_texel = bpp;
    l->shift = shift;
    l->mask = (uint32_t)(side - 1);
    l->tiles_per_row = (uint32_t)((w + side - 1) >> shift);
    l->tile_rows = (uint32_t)((h + side - 1) >> shift);
    l->tile_bytes = side * side * bpp;
    while ((1u << l->texel_shift) < bpp)
        l->texel_shift++;
    l->tile_shift = (uint8_t)(2 * shift + l->texel_shift);
    l->slice_bytes = (uint64_t)l->tiles_per_row * l->tile_rows * l->tile_bytes;
    if (l->slice_bytes > SIZE_MAX / depth)
        return stex_fail(STEX_INVALID_ARGUMENT, "layout: %ux%ux%u texels of %u bytes exceed the address space",
                         w, h, depth, bpp);
    return STEX_OK;
}

static stex_status check(const char *what, uint32_t w, uint32_t h, uint32_t depth, uint32_t bpp)
{
    if (!w || !h || !depth || !bpp || bpp > 16 || (bpp & (bpp - 1)))
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "%s layout: size %ux%ux%u with %u bytes per texel; every size must be >= 1 "
                         "and a texel 1, 2, 4, 8 or 16 bytes", what, w, h, depth, bpp);
    return STEX_OK;
}

stex_status stex_level_layout_linear(stex_level_layout *l, uint32_t w, uint32_t h, uint32_t depth,
                                     uint32_t bpp)
{
    stex_status st = check("linear", w, h, depth, bpp);
    return st ? st : fill(l, w, h, depth, bpp, 0);
}

stex_status stex_level_layout_tiled(stex_level_layout *l, uint32_t w, uint32_t h, uint32_t depth,
                                    uint32_t bpp)
{
    stex_status st = check("tiled", w, h, depth, bpp);
    if (st)
        return st;
    /* Largest macro-tile whose padding stays within the bound; 8x8 blocks
     * (shift 3) are the floor, whatever their padding on small textures. */
    uint8_t shift = STEX_TILE_BLOCK_LOG2;
    double texels = (double)w * h;
    for (uint8_t s = STEX_TILE_MAX_LOG2; s > STEX_TILE_BLOCK_LOG2; s--) {
        double padded = (double)round_up(w, (uint64_t)1 << s) * (double)round_up(h, (uint64_t)1 << s);
        if (padded <= STEX_TILE_MAX_OVERHEAD * texels) {
            shift = s;
            break;
        }
    }
    return fill(l, w, h, depth, bpp, shift);
}

uint64_t stex_level_layout_bytes(const stex_level_layout *l)
{
    return (uint64_t)l->depth * l->slice_bytes;
}

stex_status stex_texture_layout_init(stex_texture_layout *out, stex_texture_dimension dim,
                                     uint32_t width, uint32_t height, uint32_t depth_or_layers,
                                     uint32_t mip_level_count, uint32_t bpp)
{
    if (mip_level_count == 0 || mip_level_count > STEX_MAX_MIP_LEVELS)
        return stex_fail(STEX_INVALID_ARGUMENT, "texture layout: %u mip levels; 1..%d supported",
                         mip_level_count, STEX_MAX_MIP_LEVELS);
    if (dim == STEX_TEXTURE_DIMENSION_1D)
        height = depth_or_layers = 1;
    memset(out, 0, sizeof *out);
    out->dimension = dim;
    out->mip_level_count = mip_level_count;
    uint64_t at = 0;
    for (uint32_t m = 0; m < mip_level_count; m++) {
        uint32_t w = width >> m ? width >> m : 1;
        uint32_t h = height >> m ? height >> m : 1;
        uint32_t d = depth_or_layers;
        if (dim == STEX_TEXTURE_DIMENSION_1D)
            h = 1;
        if (dim == STEX_TEXTURE_DIMENSION_3D)
            d = depth_or_layers >> m ? depth_or_layers >> m : 1;
        stex_level_layout *l = &out->level[m];
        stex_status st = dim == STEX_TEXTURE_DIMENSION_1D ? stex_level_layout_linear(l, w, h, d, bpp)
                                                          : stex_level_layout_tiled(l, w, h, d, bpp);
        if (st)
            return st;
        l->base = at;
        uint64_t bytes = stex_level_layout_bytes(l);
        if (bytes > SIZE_MAX - at - STEX_LEVEL_ALIGN)
            return stex_fail(STEX_INVALID_ARGUMENT, "texture layout: %u levels exceed the address space",
                             mip_level_count);
        at = round_up(at + bytes, STEX_LEVEL_ALIGN);
    }
    out->size = at;
    return STEX_OK;
}
