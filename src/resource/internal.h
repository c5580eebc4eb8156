/* Internal: the resource objects, shared by the files of src/resource. */
#ifndef STEX_RESOURCE_INTERNAL_H
#define STEX_RESOURCE_INTERNAL_H

#include "stex/resource.h"

struct stex_texture {
    stex_device *device;
    stex_texture_desc desc;       /* defaults filled in; view_formats and label
                                   * point at the texture's own copies below */
    stex_format *view_formats;
    char *label;
    const stex_format_info *info;
    stex_texture_layout layout;
    uint8_t *memory;              /* layout.size bytes, zeroed, 256-byte aligned */
};

struct stex_texture_view {
    stex_texture *texture;
    stex_view_desc desc;          /* resolved */
    stex_view_access access;      /* base mip level, base layer */
    stex_view_access level[STEX_MAX_MIP_LEVELS]; /* every level of the view, from its base */
};

struct stex_buffer {
    stex_device *device;
    uint64_t size;
    uint32_t usage;
    uint8_t *data;                /* size rounded up to 16, zeroed, 16-byte aligned */
};

struct stex_sampler {
    stex_device *device;
    stex_sampler_desc desc;       /* defaults filled in */
};

/* What an operation that moves bytes says of a discarded (destroyed) buffer
 * or texture: WebGPU's queue refuses a submit that uses one. */
#define RESOURCE_DESTROYED(op)                                                      \
    stex_fail(STEX_VALIDATION_ERROR, "%s: a buffer or texture it uses is destroyed " \
              "(the queue refuses destroyed resources at submit)", (op))

/* The texture's size at level `mip`: width, height, depth-or-layers. */
stex_extent3d stex_texture_level_extent(const stex_texture *t, uint32_t mip);

/* The fast-path record of absolute mip level `mip` of a view. */
void stex_view_access_at_level(const stex_texture_view *v, uint32_t mip, stex_view_access *a);

/* The decoder of a depth format's depth aspect, (D, 0, 0, 1); NULL for
 * other formats (fetch.c). */
stex_decode_fn stex_depth_decoder(stex_format f);
/* The stencil aspect's decoder, (S, 0, 0, 1) as u32; NULL without one. */
stex_decode_fn stex_stencil_decoder(stex_format f);

#endif
