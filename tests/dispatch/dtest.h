/* Shared helpers of the shader- and dispatch-layer tests (cmocka). */
#ifndef STEX_TESTS_DISPATCH_DTEST_H
#define STEX_TESTS_DISPATCH_DTEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"

#define DT_OK(expr)                                                                    \
    do {                                                                               \
        stex_status st_ = (expr);                                                      \
        if (st_ != STEX_OK)                                                            \
            fail_msg("%s -> %s: %s", #expr, stex_status_name(st_), stex_last_error()); \
    } while (0)

/* Each device's adapter, released with it (a test may hold a few devices). */
static struct { stex_device *d; stex_adapter *a; } dt_adapters_[8];

/* A device with every feature and the lavapipe profile (the measured device). */
static inline stex_device *dt_device(void)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.profile = STEX_PROFILE_LAVAPIPE;
    stex_adapter *a = NULL;
    stex_device *d = NULL;
    DT_OK(stex_adapter_create(&ad, &a));
    stex_device_desc dd = {.required_features = STEX_FEATURE_TEXTURE_FORMATS_TIER2 |
                                                STEX_FEATURE_BGRA8UNORM_STORAGE |
                                                STEX_FEATURE_FLOAT32_FILTERABLE};
    DT_OK(stex_device_create(a, &dd, &d));
    for (int i = 0; i < 8; i++)
        if (!dt_adapters_[i].d) {
            dt_adapters_[i].d = d;
            dt_adapters_[i].a = a;
            return d;
        }
    fail_msg("dt_device: more than 8 devices alive");
    return d;
}

static inline void dt_release(stex_device *d)
{
    stex_device_destroy(d);
    for (int i = 0; i < 8; i++)
        if (dt_adapters_[i].d == d) {
            stex_adapter_destroy(dt_adapters_[i].a);
            dt_adapters_[i].d = NULL;
            dt_adapters_[i].a = NULL;
        }
}

static inline const char *dt_data(const char *name)
{
    static char path[4096];
    const char *dir = getenv("STEX_TEST_DATA");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
    return path;
}

static inline stex_texture *dt_texture(stex_device *d, stex_texture_dimension dim, uint32_t w,
                                       uint32_t h, uint32_t depth, stex_format f, uint32_t mips)
{
    stex_texture_desc td = {.dimension = dim, .size = {w, h, depth}, .format = f,
                            .mip_level_count = mips,
                            .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC |
                                     STEX_USAGE_COPY_DST | STEX_USAGE_TEXTURE_BINDING};
    stex_texture *t = NULL;
    DT_OK(stex_texture_create(d, &td, &t));
    return t;
}

static inline stex_texture_view *dt_view(stex_texture *t, const stex_view_desc *vd)
{
    stex_texture_view *v = NULL;
    DT_OK(stex_texture_create_view(t, vd, &v));
    return v;
}

static inline stex_buffer *dt_buffer(stex_device *d, uint64_t size, uint32_t usage)
{
    stex_buffer *b = NULL;
    stex_buffer_desc bd = {.size = size, .usage = usage};
    DT_OK(stex_buffer_create(d, &bd, &b));
    return b;
}

/* Tightly packed texel bytes of mip 0 (w x h x depth), through
 * copyTextureToBuffer as WebGPU would return them (rows padded to 256). */
static inline uint8_t *dt_readback(stex_texture *t, uint32_t w, uint32_t h, uint32_t depth,
                                   uint32_t bpp)
{
    stex_device *d = stex_texture_device(t);
    uint32_t row = (w * bpp + 255) / 256 * 256;
    stex_buffer *b = dt_buffer(d, (uint64_t)row * h * depth, STEX_BUFFER_USAGE_COPY_DST |
                                                            STEX_BUFFER_USAGE_MAP_READ);
    stex_copy_texture src = {.texture = t};
    stex_copy_layout lay = {.bytes_per_row = row, .rows_per_image = h};
    DT_OK(stex_copy_texture_to_buffer(&src, b, &lay, (stex_extent3d){w, h, depth}));
    uint8_t *out = malloc((size_t)w * h * depth * bpp);
    for (uint32_t z = 0; z < depth; z++)
        for (uint32_t y = 0; y < h; y++)
            memcpy(out + ((size_t)z * h + y) * w * bpp,
                   stex_buffer_data(b) + ((size_t)z * h + y) * row, (size_t)w * bpp);
    stex_buffer_destroy(b);
    return out;
}

/* Uploads tightly packed bytes to mip 0 (queue.writeTexture). */
static inline void dt_upload(stex_texture *t, const void *data, uint32_t w, uint32_t h,
                             uint32_t depth, uint32_t bpp)
{
    stex_copy_texture dst = {.texture = t};
    stex_copy_layout lay = {.bytes_per_row = w * bpp, .rows_per_image = h};
    DT_OK(stex_queue_write_texture(&dst, data, (size_t)w * h * depth * bpp, &lay,
                                   (stex_extent3d){w, h, depth}));
}

static inline stex_layout_entry dt_storage_entry(uint32_t binding, stex_access a, stex_format f,
                                                 stex_view_dimension vd)
{
    stex_layout_entry e = {.binding = binding, .visibility = STEX_STAGE_COMPUTE,
                           .type = STEX_BINDING_STORAGE_TEXTURE,
                           .storage_texture = {a, f, vd}};
    return e;
}

static inline stex_layout_entry dt_buffer_entry(uint32_t binding, stex_binding_type type)
{
    stex_layout_entry e = {.binding = binding, .visibility = STEX_STAGE_COMPUTE, .type = type};
    return e;
}

static inline uint32_t dt_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

#endif
