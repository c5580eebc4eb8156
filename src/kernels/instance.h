/*
 * Internal: what a kernel instance holds and the helpers every kernel file
 * uses to build one (src/kernels/instance.c).  Each kernel file defines its
 * kernel function(s), the pipeline description and a stex_kernel_ops.
 */
#ifndef STEX_KERNELS_INSTANCE_H
#define STEX_KERNELS_INSTANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "shader/fast.h" /* the builtins inline: kernels are hot loops */
#include "stex/kernels.h"

enum { KI_TEXTURES = 3, KI_BUFFERS = 3, KI_GROUPS = 4, KI_PIPELINES = 2 };

struct stex_kernel_instance {
    const stex_kernel *kernel;
    stex_adapter *adapter;          /* non-NULL when the instance owns the device */
    stex_device *device;
    uint32_t width, height, iterations;
    float time;
    bool hot;                       /* difundir*: the "hot" variant */
    uint8_t *input;                 /* tightly packed input texels (input_format) */
    uint64_t steps;                 /* dispatches run since the last reset (ping-pong parity) */
    uint32_t points;                /* histogram: number of points */
    stex_pipeline *pipeline[KI_PIPELINES];
    stex_texture *texture[KI_TEXTURES];
    stex_texture_view *view[KI_TEXTURES];
    stex_buffer *buffer[KI_BUFFERS];
    stex_sampler *sampler;
    stex_bind_group *group[KI_GROUPS];
    stex_buffer *uniform[KI_GROUPS]; /* group g's var<uniform> buffer, if its pass has one */
    stex_texture *out_texture;      /* what read_output reads ... */
    stex_buffer *out_buffer;        /* ... or this (box3x3-buffer) */
    stex_buffer *accumulator;       /* histogram */
};

struct stex_kernel_ops {
    /* Fill the default input (input_format, width * height texels, tightly packed). */
    void (*make_input)(const stex_kernel_instance *ki, uint8_t *out);
    /* Textures, buffers, bind groups (pipelines are made before). */
    stex_status (*create)(stex_kernel_instance *ki);
    /* Write the initial data. */
    stex_status (*reset)(stex_kernel_instance *ki);
    /* One iteration: every pass once. */
    stex_status (*iterate)(stex_kernel_instance *ki, const stex_dispatch_options *opt);
    /* After the iterations (histogram: present).  May be NULL. */
    stex_status (*finish)(stex_kernel_instance *ki, const stex_dispatch_options *opt);
};

/* A width x height 2d texture in slot i, with a default view. */
stex_status kernels_texture(stex_kernel_instance *ki, int i, stex_format f, uint32_t usage);
stex_status kernels_buffer(stex_kernel_instance *ki, int i, uint64_t size, uint32_t usage);
stex_status kernels_group(stex_kernel_instance *ki, int g, int pass,
                          const stex_bind_group_entry *e, uint32_t n);
/* queue.writeTexture of the whole texture in slot i from tightly packed rows. */
stex_status kernels_write_texture(stex_kernel_instance *ki, int i, const void *data);
/* A uniform buffer of `size` bytes for bind group g (ki->uniform[g]). */
stex_status kernels_uniform(stex_kernel_instance *ki, int g, uint64_t size);
/* dispatchWorkgroups(x, y, 1) of pass `pass` with bind group g, after
 * queue.writeBuffer of `size` bytes of `uniform` into ki->uniform[g] (none
 * if NULL), as the harness wrote its uniforms before each dispatch. */
stex_status kernels_dispatch(stex_kernel_instance *ki, int pass, int g, uint32_t x, uint32_t y,
                             const stex_dispatch_options *opt, const void *uniform, size_t size);
/* ceil(n / 8): workgroups of 8 along one axis. */
static inline uint32_t kernels_groups8(uint32_t n) { return (n + 7u) / 8u; }

/* The registered kernels (one file each). */
extern const stex_kernel kernels_generar, kernels_decaer, kernels_difundir,
    kernels_difundir_pingpong, kernels_blur, kernels_histogram, kernels_box3x3_texture,
    kernels_box3x3_buffer;

#endif
