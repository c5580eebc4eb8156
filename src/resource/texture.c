/* Textures: creation through the validating device, tiled memory. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/error.h"
#include "resource/internal.h"

/* Zeroed, 256-byte aligned memory.  Large textures come straight from mmap:
 * zero pages are mapped lazily, so a big texture costs nothing until used,
 * and a size the system cannot commit fails here (GPUOutOfMemoryError). */
enum { MMAP_THRESHOLD = 1 << 20 };
static uint8_t *texture_alloc(size_t bytes)
{
    if (bytes >= MMAP_THRESHOLD) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    uint8_t *p = aligned_alloc(STEX_LEVEL_ALIGN, bytes);
    if (p)
        memset(p, 0, bytes);
    return p;
}

static void texture_free(uint8_t *p, size_t bytes)
{
    if (bytes >= MMAP_THRESHOLD)
        munmap(p, bytes);
    else
        free(p);
}

/* Texel blocks a level of `texels` texels holds: the level's size
 * (texels >> mip, at least 1) rounded up to whole blocks, as the spec's
 * "physical miplevel-specific texture extent" is. */
static uint32_t level_blocks(uint32_t texels, uint32_t mip, uint32_t block)
{
    uint32_t n = texels >> mip ? texels >> mip : 1;
    return (n + block - 1) / block;
}

/* The layout of a 2d compressed texture: level m holds level_blocks()
 * blocks a side, every array layer; levels 256-byte aligned as
 * stex_texture_layout_init places them. */
static stex_status block_layout_init(stex_texture_layout *out, const stex_texture_desc *d,
                                     const stex_format_info *fi)
{
    if (d->mip_level_count == 0 || d->mip_level_count > STEX_MAX_MIP_LEVELS)
        return stex_fail(STEX_INVALID_ARGUMENT, "createTexture: %u mip levels; 1..%d supported",
                         d->mip_level_count, STEX_MAX_MIP_LEVELS);
    memset(out, 0, sizeof *out);
    out->dimension = d->dimension;
    out->mip_level_count = d->mip_level_count;
    uint64_t at = 0;
    for (uint32_t m = 0; m < d->mip_level_count; m++) {
        stex_level_layout *l = &out->level[m];
        stex_status st = stex_level_layout_tiled(l, level_blocks(d->size.width, m, fi->block_width),
                                                 level_blocks(d->size.height, m, fi->block_height),
                                                 d->size.depth_or_array_layers, fi->bytes);
        if (st)
            return st;
        l->base = at;
        uint64_t bytes = stex_level_layout_bytes(l);
        if (bytes > SIZE_MAX - at - STEX_LEVEL_ALIGN)
            return stex_fail(STEX_OUT_OF_MEMORY, "createTexture: %u levels exceed the address "
                             "space", d->mip_level_count);
        at = (at + bytes + STEX_LEVEL_ALIGN - 1) / STEX_LEVEL_ALIGN * STEX_LEVEL_ALIGN;
    }
    out->size = at;
    return STEX_OK;
}

stex_status stex_texture_create(stex_device *d, const stex_texture_desc *desc, stex_texture **out)
{
    if (out)
        *out = NULL;
    if (!d || !desc || !out)
        return stex_fail(STEX_INVALID_ARGUMENT, "createTexture: device, descriptor and out must not be NULL");
    stex_status st = stex_validate_texture(d, desc);
    if (st)
        return st;
    stex_texture_desc full = *desc;
    if (!full.size.height)
        full.size.height = 1;
    if (!full.size.depth_or_array_layers)
        full.size.depth_or_array_layers = 1;
    if (!full.mip_level_count)
        full.mip_level_count = 1;
    if (!full.sample_count)
        full.sample_count = 1;
    const stex_format_info *info = stex_format_get(full.format);
    if (!info)
        return stex_fail(STEX_INVALID_ARGUMENT, "createTexture: unknown format %d", (int)full.format);
    stex_texture *t = calloc(1, sizeof *t);
    if (!t)
        return stex_fail(STEX_OUT_OF_MEMORY, "createTexture: out of memory");
    /* A multisampled texture (2d, one layer) keeps its samples as layers:
     * sample s of texel (x, y) is texel (x, y, s) of the layout.  A
     * compressed texture's layout counts texel blocks, not texels. */
    if (info->block_width > 1 || info->block_height > 1)
        st = block_layout_init(&t->layout, &full, info);
    else
        st = stex_texture_layout_init(&t->layout, full.dimension, full.size.width,
                                      full.size.height,
                                      full.size.depth_or_array_layers * full.sample_count,
                                      full.mip_level_count, info->bytes);
    if (st) {
        free(t);
        return st;
    }
    size_t bytes = (size_t)(t->layout.size ? t->layout.size : STEX_LEVEL_ALIGN);
    t->memory = texture_alloc(bytes);
    if (!t->memory) {
        free(t);
        return stex_fail(STEX_OUT_OF_MEMORY, "createTexture: cannot allocate %zu bytes for %s %ux%ux%u",
                         bytes, info->name, full.size.width, full.size.height,
                         full.size.depth_or_array_layers);
    }
    /* Keep copies of what the descriptor points at: the caller may free it. */
    if (full.view_format_count && full.view_formats) {
        t->view_formats = malloc(full.view_format_count * sizeof *t->view_formats);
        if (!t->view_formats) {
            texture_free(t->memory, bytes);
            free(t);
            return stex_fail(STEX_OUT_OF_MEMORY, "createTexture: out of memory");
        }
        memcpy(t->view_formats, full.view_formats, full.view_format_count * sizeof *t->view_formats);
    } else {
        full.view_format_count = 0;
    }
    full.view_formats = t->view_formats;
    t->label = full.label ? strdup(full.label) : NULL;
    full.label = t->label;
    t->device = d; /* memory starts zeroed, as WebGPU textures do */
    t->desc = full;
    t->info = info;
    *out = t;
    return STEX_OK;
}

void stex_texture_destroy(stex_texture *t)
{
    if (!t)
        return;
    if (t->memory)
        texture_free(t->memory, (size_t)(t->layout.size ? t->layout.size : STEX_LEVEL_ALIGN));
    free(t->view_formats);
    free(t->label);
    free(t);
}

void stex_texture_discard(stex_texture *t)
{
    if (!t || !t->memory)
        return;
    texture_free(t->memory, (size_t)(t->layout.size ? t->layout.size : STEX_LEVEL_ALIGN));
    t->memory = NULL;
}

bool stex_texture_discarded(const stex_texture *t) { return t && !t->memory; }

const stex_texture_desc *stex_texture_get_desc(const stex_texture *t) { return &t->desc; }
stex_device *stex_texture_device(const stex_texture *t) { return t->device; }
size_t stex_texture_memory_size(const stex_texture *t) { return (size_t)t->layout.size; }
uint8_t *stex_texture_memory(stex_texture *t) { return t->memory; }
const stex_texture_layout *stex_texture_get_layout(const stex_texture *t) { return &t->layout; }

stex_extent3d stex_texture_level_extent(const stex_texture *t, uint32_t mip)
{
    const stex_level_layout *l = &t->layout.level[mip];
    if (t->info->block_width == 1 && t->info->block_height == 1)
        return (stex_extent3d){l->width, l->height, l->depth};
    /* compressed: the layout counts blocks; the level's size is in texels */
    uint32_t w = t->desc.size.width >> mip, h = t->desc.size.height >> mip;
    return (stex_extent3d){w ? w : 1, h ? h : 1, l->depth};
}

stex_extent3d stex_texture_physical_size(const stex_texture *t, uint32_t mip)
{
    if (mip >= t->layout.mip_level_count)
        return (stex_extent3d){0, 0, 0};
    stex_extent3d e = stex_texture_mip_size(t, mip);
    const stex_level_layout *l = &t->layout.level[mip];
    if (t->info->block_width > 1 || t->info->block_height > 1) {
        e.width = l->width * t->info->block_width;
        e.height = l->height * t->info->block_height;
    }
    return e;
}

stex_extent3d stex_texture_mip_size(const stex_texture *t, uint32_t mip)
{
    if (mip >= t->layout.mip_level_count)
        return (stex_extent3d){0, 0, 0};
    stex_extent3d e = stex_texture_level_extent(t, mip);
    if (t->desc.dimension != STEX_TEXTURE_DIMENSION_3D)
        e.depth_or_array_layers = t->desc.dimension == STEX_TEXTURE_DIMENSION_1D
                                      ? 1 : t->desc.size.depth_or_array_layers;
    return e;
}

size_t stex_texture_texel_offset(const stex_texture *t, uint32_t mip, uint32_t x, uint32_t y,
                                 uint32_t z)
{
    if (mip >= t->layout.mip_level_count)
        return SIZE_MAX;
    const stex_level_layout *l = &t->layout.level[mip];
    x /= t->info->block_width; /* compressed: the block holding the texel */
    y /= t->info->block_height;
    if (x >= l->width || y >= l->height || z >= l->depth)
        return SIZE_MAX;
    return (size_t)stex_level_offset(l, x, y, z);
}
