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
    if (info->kind == STEX_KIND_COMPRESSED)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "createTexture: stex does not emulate compressed format %s", info->name);
    stex_texture *t = calloc(1, sizeof *t);
    if (!t)
        return stex_fail(STEX_OUT_OF_MEMORY, "createTexture: out of memory");
    /* A multisampled texture (2d, one layer) keeps its samples as layers:
     * sample s of texel (x, y) is texel (x, y, s) of the layout. */
    st = stex_texture_layout_init(&t->layout, full.dimension, full.size.width, full.size.height,
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
    texture_free(t->memory, (size_t)(t->layout.size ? t->layout.size : STEX_LEVEL_ALIGN));
    free(t->view_formats);
    free(t->label);
    free(t);
}

const stex_texture_desc *stex_texture_get_desc(const stex_texture *t) { return &t->desc; }
stex_device *stex_texture_device(const stex_texture *t) { return t->device; }
size_t stex_texture_memory_size(const stex_texture *t) { return (size_t)t->layout.size; }
uint8_t *stex_texture_memory(stex_texture *t) { return t->memory; }
const stex_texture_layout *stex_texture_get_layout(const stex_texture *t) { return &t->layout; }

stex_extent3d stex_texture_level_extent(const stex_texture *t, uint32_t mip)
{
    const stex_level_layout *l = &t->layout.level[mip];
    return (stex_extent3d){l->width, l->height, l->depth};
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
    if (x >= l->width || y >= l->height || z >= l->depth)
        return SIZE_MAX;
    return (size_t)stex_level_offset(l, x, y, z);
}
