/* Kernel instances: the resources a kernel runs on, built from its
 * stex_kernel_ops, and the readback the harness hashed. */
#include "kernels/instance.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

stex_status kernels_texture(stex_kernel_instance *ki, int i, stex_format f, uint32_t usage)
{
    stex_texture_desc td = {.size = {ki->width, ki->height, 1}, .format = f, .usage = usage,
                            .label = ki->kernel->name};
    stex_status st = stex_texture_create(ki->device, &td, &ki->texture[i]);
    if (st)
        return st;
    return stex_texture_create_view(ki->texture[i], NULL, &ki->view[i]);
}

stex_status kernels_buffer(stex_kernel_instance *ki, int i, uint64_t size, uint32_t usage)
{
    stex_buffer_desc bd = {.size = size, .usage = usage, .label = ki->kernel->name};
    return stex_buffer_create(ki->device, &bd, &ki->buffer[i]);
}

stex_status kernels_uniform(stex_kernel_instance *ki, int g, uint64_t size)
{
    stex_buffer_desc bd = {.size = (size + 15) / 16 * 16,
                           .usage = STEX_BUFFER_USAGE_UNIFORM | STEX_BUFFER_USAGE_COPY_DST,
                           .label = ki->kernel->name};
    return stex_buffer_create(ki->device, &bd, &ki->uniform[g]);
}

stex_status kernels_group(stex_kernel_instance *ki, int g, int pass,
                          const stex_bind_group_entry *e, uint32_t n)
{
    return stex_bind_group_create(ki->pipeline[pass], e, n, &ki->group[g]);
}

stex_status kernels_write_texture(stex_kernel_instance *ki, int i, const void *data)
{
    const stex_format_info *fi = stex_format_get(stex_texture_get_desc(ki->texture[i])->format);
    stex_copy_texture dst = {.texture = ki->texture[i]};
    stex_copy_layout layout = {.bytes_per_row = ki->width * fi->bytes,
                               .rows_per_image = ki->height};
    size_t size = (size_t)ki->width * ki->height * fi->bytes;
    return stex_queue_write_texture(&dst, data, size, &layout,
                                    (stex_extent3d){ki->width, ki->height, 1});
}

stex_status kernels_dispatch(stex_kernel_instance *ki, int pass, int g, uint32_t x, uint32_t y,
                             const stex_dispatch_options *opt, const void *uniform, size_t size)
{
    stex_status st;
    if (uniform && (st = stex_queue_write_buffer(ki->uniform[g], 0, uniform, size)))
        return st;
    st = stex_dispatch(ki->pipeline[pass], ki->group[g], x, y, 1, opt);
    if (!st)
        ki->steps++;
    return st;
}

void stex_kernel_instance_destroy(stex_kernel_instance *ki)
{
    if (!ki)
        return;
    /* Bind groups before what they bind; the device last. */
    for (int i = 0; i < KI_GROUPS; i++)
        if (ki->group[i])
            stex_bind_group_destroy(ki->group[i]);
    for (int i = 0; i < KI_PIPELINES; i++)
        if (ki->pipeline[i])
            stex_pipeline_destroy(ki->pipeline[i]);
    for (int i = 0; i < KI_TEXTURES; i++) {
        if (ki->view[i])
            stex_texture_view_destroy(ki->view[i]);
        if (ki->texture[i])
            stex_texture_destroy(ki->texture[i]);
    }
    for (int i = 0; i < KI_BUFFERS; i++)
        if (ki->buffer[i])
            stex_buffer_destroy(ki->buffer[i]);
    for (int i = 0; i < KI_GROUPS; i++)
        if (ki->uniform[i])
            stex_buffer_destroy(ki->uniform[i]);
    if (ki->sampler)
        stex_sampler_destroy(ki->sampler);
    if (ki->adapter) {
        if (ki->device)
            stex_device_destroy(ki->device);
        stex_adapter_destroy(ki->adapter);
    }
    free(ki->input);
    free(ki);
}

/* Copies a caller's input image into tightly packed rows, after checking its size. */
static stex_status take_input(stex_kernel_instance *ki, const stex_kernel_setup *s, size_t bpp)
{
    size_t row = (size_t)ki->width * bpp;
    size_t bpr = s->input_bytes_per_row ? s->input_bytes_per_row : row;
    const stex_kernel *k = ki->kernel;
    if (bpr < row)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "kernel %s: input bytes_per_row %zu is less than width %u x %zu bytes "
                         "per %s texel", k->name, bpr, ki->width, bpp,
                         stex_format_get(k->input_format)->name);
    size_t need = bpr * (ki->height - 1) + row;
    if (s->input_size < need)
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "kernel %s: input holds %zu bytes; a %ux%u %s image needs %zu",
                         k->name, s->input_size, ki->width, ki->height,
                         stex_format_get(k->input_format)->name, need);
    for (uint32_t y = 0; y < ki->height; y++)
        memcpy(ki->input + y * row, (const uint8_t *)s->input + y * bpr, row);
    return STEX_OK;
}

static stex_status setup_instance(stex_kernel_instance *ki, const stex_kernel_setup *s)
{
    const stex_kernel *k = ki->kernel;
    stex_status st;
    if (s->device) {
        ki->device = s->device;
    } else {
        if ((st = stex_adapter_create(NULL, &ki->adapter)))
            return st;
        stex_device_desc dd = {0};
        if ((st = stex_device_create(ki->adapter, &dd, &ki->device)))
            return st;
    }
    if (s->variant && strcmp(s->variant, "random") && strcmp(s->variant, "hot"))
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "kernel %s: unknown input variant '%s' (random or hot)", k->name,
                         s->variant);
    ki->hot = s->variant && !strcmp(s->variant, "hot");
    if (k->input_format != STEX_FORMAT_UNDEFINED) {
        size_t bpp = stex_format_get(k->input_format)->bytes;
        ki->input = malloc((size_t)ki->width * ki->height * bpp);
        if (!ki->input)
            return stex_fail(STEX_OUT_OF_MEMORY, "kernel %s: no memory for a %ux%u input",
                             k->name, ki->width, ki->height);
        if (s->input) {
            if ((st = take_input(ki, s, bpp)))
                return st;
        } else {
            k->ops->make_input(ki, ki->input);
        }
    } else if (s->input) {
        return stex_fail(STEX_INVALID_ARGUMENT, "kernel %s takes no input image", k->name);
    }
    for (uint32_t p = 0; p < k->pass_count; p++) {
        st = s->create_pipeline
                 ? s->create_pipeline(s->create_pipeline_user, ki->device, &k->passes[p],
                                      &ki->pipeline[p])
                 : stex_pipeline_create(ki->device, &k->passes[p].pipeline, &ki->pipeline[p]);
        if (st)
            return st;
    }
    if ((st = k->ops->create(ki)))
        return st;
    return stex_kernel_instance_reset(ki);
}

stex_status stex_kernel_default_input(const stex_kernel *k, uint32_t w, uint32_t h,
                                      const char *variant, uint8_t **bytes, size_t *size)
{
    if (!k || !bytes || !size)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_kernel_default_input: NULL argument");
    *bytes = NULL;
    *size = 0;
    if (k->input_format == STEX_FORMAT_UNDEFINED)
        return stex_fail(STEX_INVALID_ARGUMENT, "kernel %s takes no input image", k->name);
    if (variant && strcmp(variant, "random") && strcmp(variant, "hot"))
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "kernel %s: unknown input variant '%s' (random or hot)", k->name, variant);
    /* make_input reads only the kernel, the size and the variant */
    stex_kernel_instance ki = {.kernel = k, .width = w ? w : k->default_width,
                               .height = w ? h : k->default_height,
                               .hot = variant && !strcmp(variant, "hot")};
    size_t n = (size_t)ki.width * ki.height * stex_format_get(k->input_format)->bytes;
    uint8_t *out = malloc(n ? n : 1);
    if (!out)
        return stex_fail(STEX_OUT_OF_MEMORY, "kernel %s: no memory for a %ux%u input", k->name,
                         ki.width, ki.height);
    k->ops->make_input(&ki, out);
    *bytes = out;
    *size = n;
    return STEX_OK;
}

stex_status stex_kernel_instance_create(const stex_kernel *k, const stex_kernel_setup *setup,
                                        stex_kernel_instance **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_kernel_instance_create: out is NULL");
    *out = NULL;
    if (!k)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_kernel_instance_create: no kernel");
    stex_kernel_setup none = {0};
    const stex_kernel_setup *s = setup ? setup : &none;
    stex_kernel_instance *ki = calloc(1, sizeof *ki);
    if (!ki)
        return stex_fail(STEX_OUT_OF_MEMORY, "kernel %s: no memory for an instance", k->name);
    ki->kernel = k;
    ki->width = s->width ? s->width : k->default_width;
    ki->height = s->height ? s->height : k->default_height;
    ki->iterations = s->iterations ? s->iterations : 1;
    ki->time = s->time;
    stex_status st = setup_instance(ki, s);
    if (st) {
        stex_kernel_instance_destroy(ki);
        return st;
    }
    *out = ki;
    return STEX_OK;
}

stex_status stex_kernel_instance_reset(stex_kernel_instance *ki)
{
    if (!ki)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_kernel_instance_reset: no instance");
    ki->steps = 0;
    return ki->kernel->ops->reset(ki);
}

stex_status stex_kernel_instance_dispatch(stex_kernel_instance *ki,
                                          const stex_dispatch_options *opt)
{
    if (!ki)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_kernel_instance_dispatch: no instance");
    stex_status st;
    for (uint32_t i = 0; i < ki->iterations; i++)
        if ((st = ki->kernel->ops->iterate(ki, opt)))
            return st;
    if (ki->kernel->ops->finish)
        return ki->kernel->ops->finish(ki, opt);
    return STEX_OK;
}

stex_status stex_kernel_run(const stex_kernel *k, const stex_kernel_setup *setup,
                            const stex_dispatch_options *opt, stex_kernel_instance **out)
{
    stex_status st = stex_kernel_instance_create(k, setup, out);
    if (st)
        return st;
    if ((st = stex_kernel_instance_dispatch(*out, opt))) {
        stex_kernel_instance_destroy(*out);
        *out = NULL;
    }
    return st;
}

stex_texture *stex_kernel_instance_output_texture(const stex_kernel_instance *ki)
{
    return ki ? ki->out_texture : NULL;
}
stex_buffer *stex_kernel_instance_output_buffer(const stex_kernel_instance *ki)
{
    return ki ? ki->out_buffer : NULL;
}
stex_format stex_kernel_instance_output_format(const stex_kernel_instance *ki)
{
    return ki ? ki->kernel->output_format : STEX_FORMAT_UNDEFINED;
}
uint32_t stex_kernel_instance_width(const stex_kernel_instance *ki) { return ki ? ki->width : 0; }
uint32_t stex_kernel_instance_height(const stex_kernel_instance *ki) { return ki ? ki->height : 0; }
stex_device *stex_kernel_instance_device(const stex_kernel_instance *ki)
{
    return ki ? ki->device : NULL;
}
stex_buffer *stex_kernel_instance_accumulator(const stex_kernel_instance *ki)
{
    return ki ? ki->accumulator : NULL;
}

/* copyTextureToBuffer in bands of rows (bytesPerRow padded to 256, as WebGPU
 * requires), then the padding dropped as the harness's readTexture does. */
static stex_status read_texture(stex_kernel_instance *ki, uint8_t *out)
{
    size_t bpp = stex_format_get(ki->kernel->output_format)->bytes;
    uint32_t row = (uint32_t)(ki->width * bpp);
    uint32_t bpr = (row + 255u) & ~255u;
    uint32_t band = (uint32_t)((8u << 20) / bpr);
    if (band == 0)
        band = 1;
    if (band > ki->height)
        band = ki->height;
    stex_buffer *b;
    stex_buffer_desc bd = {.size = (uint64_t)bpr * band,
                           .usage = STEX_BUFFER_USAGE_COPY_DST | STEX_BUFFER_USAGE_MAP_READ,
                           .label = "kernel readback"};
    stex_status st = stex_buffer_create(ki->device, &bd, &b);
    if (st)
        return st;
    for (uint32_t y0 = 0; y0 < ki->height && !st; y0 += band) {
        uint32_t n = ki->height - y0 < band ? ki->height - y0 : band;
        stex_copy_texture src = {.texture = ki->out_texture, .origin = {0, y0, 0}};
        stex_copy_layout layout = {.bytes_per_row = bpr, .rows_per_image = n};
        st = stex_copy_texture_to_buffer(&src, b, &layout, (stex_extent3d){ki->width, n, 1});
        for (uint32_t y = 0; y < n && !st; y++)
            memcpy(out + (size_t)(y0 + y) * row, stex_buffer_data(b) + (size_t)y * bpr, row);
    }
    stex_buffer_destroy(b);
    return st;
}

stex_status stex_kernel_instance_read_output(stex_kernel_instance *ki, uint8_t **bytes,
                                             size_t *size)
{
    if (!ki || !bytes || !size)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_kernel_instance_read_output: NULL argument");
    *bytes = NULL;
    *size = 0;
    size_t n = (size_t)ki->width * ki->height * stex_format_get(ki->kernel->output_format)->bytes;
    uint8_t *out = malloc(n);
    if (!out)
        return stex_fail(STEX_OUT_OF_MEMORY, "kernel %s: no memory for a %zu-byte readback",
                         ki->kernel->name, n);
    stex_status st = STEX_OK;
    if (ki->out_buffer) /* a buffer reads back without row padding */
        memcpy(out, stex_buffer_data(ki->out_buffer), n);
    else
        st = read_texture(ki, out);
    if (st) {
        free(out);
        return st;
    }
    *bytes = out;
    *size = n;
    return STEX_OK;
}
