/*
 * tests/wgsl/wgsl_resources.h - resources made from an entry point's
 * reflection, the set-up the tests that run arbitrary modules share
 * (test_wgsl_peer_corpus.c, test_wgsl_jit.c): buffers of the binding's
 * minimum size or more, 8x8 textures of the binding's format and
 * dimension, default samplers.  Include after <cmocka.h>.
 */
#ifndef STEX_TESTS_WGSL_RESOURCES_H
#define STEX_TESTS_WGSL_RESOURCES_H

#include <string.h>

#include "stex/stex.h"

/* the resource behind one layout entry, made to fit it */
typedef struct resource {
    stex_buffer *buffer;
    stex_texture *texture;
    stex_texture_view *view;
    stex_sampler *sampler;
} resource;

static void make_resource(stex_device *d, const stex_layout_entry *e, resource *r,
                          stex_bind_group_entry *be)
{
    memset(r, 0, sizeof *r);
    *be = (stex_bind_group_entry){.binding = e->binding};
    switch (e->type) {
    case STEX_BINDING_STORAGE_BUFFER:
    case STEX_BINDING_READ_ONLY_STORAGE_BUFFER:
    case STEX_BINDING_UNIFORM_BUFFER: {
        uint64_t size = e->buffer.min_binding_size;
        if (e->type != STEX_BINDING_UNIFORM_BUFFER && size < 4096)
            size = 4096; /* room for a runtime-sized array */
        size = (size + 15) & ~(uint64_t)15;
        uint32_t usage = e->type == STEX_BINDING_UNIFORM_BUFFER ? STEX_BUFFER_USAGE_UNIFORM
                                                                : STEX_BUFFER_USAGE_STORAGE;
        stex_buffer_desc bd = {.size = size ? size : 16, .usage = usage};
        assert_int_equal(stex_buffer_create(d, &bd, &r->buffer), STEX_OK);
        be->buffer = r->buffer;
        return;
    }
    case STEX_BINDING_SAMPLER:
        assert_int_equal(stex_sampler_create(d, NULL, &r->sampler), STEX_OK);
        be->sampler = r->sampler;
        return;
    case STEX_BINDING_STORAGE_TEXTURE:
    case STEX_BINDING_TEXTURE: {
        bool storage = e->type == STEX_BINDING_STORAGE_TEXTURE;
        stex_view_dimension vd = storage ? e->storage_texture.view_dimension
                                         : e->texture_view_dimension;
        stex_texture_desc td = {.size = {8, 8, 1},
                                .format = storage ? e->storage_texture.format
                                                  : STEX_FORMAT_RGBA8UNORM,
                                .usage = storage ? STEX_USAGE_STORAGE_BINDING
                                                 : STEX_USAGE_TEXTURE_BINDING};
        if (vd == STEX_VIEW_DIMENSION_1D) {
            td.dimension = STEX_TEXTURE_DIMENSION_1D;
            td.size.height = 1;
        } else if (vd == STEX_VIEW_DIMENSION_3D) {
            td.dimension = STEX_TEXTURE_DIMENSION_3D;
            td.size.depth_or_array_layers = 4;
        } else if (vd == STEX_VIEW_DIMENSION_2D_ARRAY) {
            td.size.depth_or_array_layers = 3;
        }
        if (stex_texture_create(d, &td, &r->texture))
            fail_msg("texture for @binding(%u): %s", e->binding, stex_last_error());
        stex_view_desc vdesc = {.dimension = vd};
        assert_int_equal(stex_texture_create_view(r->texture, &vdesc, &r->view), STEX_OK);
        be->view = r->view;
        return;
    }
    }
    fail_msg("@binding(%u): a binding kind this test cannot make", e->binding);
}

static void free_resource(resource *r)
{
    stex_texture_view_destroy(r->view);
    stex_texture_destroy(r->texture);
    stex_buffer_destroy(r->buffer);
    stex_sampler_destroy(r->sampler);
}

/* The bytes a resource holds (a buffer's, a texture's memory), NULL for a
 * sampler; *size their count. */
static inline uint8_t *resource_bytes(resource *r, size_t *size)
{
    if (r->buffer) {
        *size = (size_t)stex_buffer_size(r->buffer);
        return stex_buffer_data(r->buffer);
    }
    if (r->texture) {
        *size = stex_texture_memory_size(r->texture);
        return stex_texture_memory(r->texture);
    }
    *size = 0;
    return NULL;
}

#endif
