/*
 * histogram - lesson 002 ("Storage texture o storage buffer"), section "El
 * caso mixto que aparece a menudo": scatter points into a buffer with
 * atomicAdd (storage textures have no atomics), then present the counts into
 * an rgba16float storage texture as log(1 + n) / log(1 + 1000).
 *
 * The lesson leaves calcularPosicion() open; the harness read the positions
 * from a third binding, `puntos`, and so does this kernel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/inputs.h"
#include "common/error.h"
#include "kernels/instance.h"
#include "kernels/kernels_text.h" /* the WGSL and run file: wgsl/ */

/* acumular: @binding(0) acumulador, (1) dims (uniform vec2<u32>), (2) puntos */
enum { ACUMULADOR = 0, DIMS = 1, PUNTOS = 2 };
/* presentar: @binding(0) acumulador (read), (1) salida */
enum { SALIDA = 1 };


enum { MAX_GROUPS_X = 65535 }; /* maxComputeWorkgroupsPerDimension */

static void acumular(const stex_invocation *inv)
{
    const uint32_t dims_x = stex_buffer_load_u32(inv, DIMS, 0);
    const uint32_t dims_y = stex_buffer_load_u32(inv, DIMS, 1);
    /* The harness dispatched (points / 64, 1, 1).  More than 65535 workgroups
     * (large sizes only) go in rows, and the index is linearised. */
    uint32_t i = inv->global_invocation_id[0] +
                 inv->global_invocation_id[1] * inv->num_workgroups[0] * 64u;
    if (i >= stex_arrayLength(inv, PUNTOS, 8)) /* array<vec2<u32>>: 8-byte elements */
        return;
    uint32_t px = stex_buffer_load_u32(inv, PUNTOS, 2 * (uint64_t)i); /* calcularPosicion(i) */
    uint32_t py = stex_buffer_load_u32(inv, PUNTOS, 2 * (uint64_t)i + 1);
    if (px >= dims_x || py >= dims_y) /* any(p >= dims) */
        return;
    stex_atomicAdd(inv, ACUMULADOR, py * dims_x + px, 1u);
}

static void presentar(const stex_invocation *inv)
{
    const uint32_t *id = inv->global_invocation_id;
    stex_uvec2 tam = stex_textureDimensions_2d(inv, SALIDA);
    if (id[0] >= tam.x || id[1] >= tam.y)
        return;
    float n = (float)stex_buffer_load_u32(inv, ACUMULADOR, id[1] * tam.x + id[0]);
    /* log(1.0 + 1000.0) is a const-expression: WGSL evaluates it as an
     * AbstractFloat and converts the result to f32 for the division. */
    const float log_1001 = (float)log(1001.0);
    float v = logf(1.0f + n) / log_1001;
    stex_textureStore_2d(inv, SALIDA, (int32_t)id[0], (int32_t)id[1], stex_f32x4(v, v, v, 1.0f));
}

STEX_WORKGROUP_FN(acumular_workgroup, acumular)
STEX_WORKGROUP_FN(presentar_workgroup, presentar)

static const stex_layout_entry ENTRIES_ACUMULAR[] = {
    {.binding = ACUMULADOR, .visibility = STEX_STAGE_COMPUTE,
     .type = STEX_BINDING_STORAGE_BUFFER},
    {.binding = DIMS, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_UNIFORM_BUFFER,
     .buffer = {.min_binding_size = 8}},
    {.binding = PUNTOS, .visibility = STEX_STAGE_COMPUTE,
     .type = STEX_BINDING_READ_ONLY_STORAGE_BUFFER},
};
static const stex_layout_entry ENTRIES_PRESENTAR[] = {
    {.binding = ACUMULADOR, .visibility = STEX_STAGE_COMPUTE,
     .type = STEX_BINDING_READ_ONLY_STORAGE_BUFFER},
    {.binding = SALIDA, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA16FLOAT, STEX_VIEW_DIMENSION_2D}},
};

static const stex_kernel_pass PASSES[] = {
    {"acumular", kernels_text_histogram_acumular_wgsl,
     {.kernel = acumular, .workgroup = acumular_workgroup,
      .workgroup_size = {64, 1, 1}, .entries = ENTRIES_ACUMULAR,
      .entry_count = 3, .label = "acumular"}},
    {"presentar", kernels_text_histogram_presentar_wgsl,
     {.kernel = presentar, .workgroup = presentar_workgroup,
      .workgroup_size = {8, 8, 1}, .entries = ENTRIES_PRESENTAR,
      .entry_count = 2, .label = "presentar"}},
};

/* buffers: 0 acumulador (width * height words), 1 puntos; texture 0 salida. */
static stex_status create(stex_kernel_instance *ki)
{
    stex_status st;
    const uint32_t usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_SRC |
                           STEX_BUFFER_USAGE_COPY_DST;
    ki->points = kernels_histogram_points(ki->width, ki->height);
    if ((st = kernels_buffer(ki, 0, (uint64_t)ki->width * ki->height * 4, usage)) ||
        (st = kernels_buffer(ki, 1, (uint64_t)ki->points * 8, usage)) ||
        (st = kernels_texture(ki, 0, STEX_FORMAT_RGBA16FLOAT,
                              STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC |
                                  STEX_USAGE_TEXTURE_BINDING)))
        return st;
    ki->accumulator = ki->buffer[0];
    ki->out_texture = ki->texture[0];
    /* The points never change: write them once, little-endian u32 pairs. */
    uint32_t *xy = malloc((size_t)ki->points * 8);
    if (!xy)
        return stex_fail(STEX_OUT_OF_MEMORY, "histogram: no memory for %u points", ki->points);
    kernels_input_points(ki->width, ki->height, ki->points, xy);
    uint8_t *p = stex_buffer_data(ki->buffer[1]);
    for (size_t i = 0; i < (size_t)ki->points * 2; i++)
        kernels_put_u32(p + 4 * i, xy[i]);
    free(xy);
    if ((st = kernels_uniform(ki, 0, 8)))
        return st;
    stex_bind_group_entry acc[] = {{.binding = ACUMULADOR, .buffer = ki->buffer[0]},
                                   {.binding = DIMS, .buffer = ki->uniform[0]},
                                   {.binding = PUNTOS, .buffer = ki->buffer[1]}};
    stex_bind_group_entry pre[] = {{.binding = ACUMULADOR, .buffer = ki->buffer[0]},
                                   {.binding = SALIDA, .view = ki->view[0]}};
    if ((st = kernels_group(ki, 0, 0, acc, 3)))
        return st;
    return kernels_group(ki, 1, 1, pre, 2);
}

static stex_status reset(stex_kernel_instance *ki)
{
    memset(stex_buffer_data(ki->buffer[0]), 0, (size_t)ki->width * ki->height * 4);
    return STEX_OK;
}

static stex_status iterate(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    const uint32_t dims[2] = {ki->width, ki->height};
    uint32_t groups = (ki->points + 63u) / 64u, rows = 1;
    while ((groups + rows - 1) / rows > MAX_GROUPS_X)
        rows++;
    return kernels_dispatch(ki, 0, 0, (groups + rows - 1) / rows, rows, opt, dims, sizeof dims);
}

static stex_status finish(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    return kernels_dispatch(ki, 1, 1, kernels_groups8(ki->width), kernels_groups8(ki->height),
                            opt, NULL, 0);
}

static const struct stex_kernel_ops OPS = {NULL, create, reset, iterate, finish};

const stex_kernel kernels_histogram = {
    .name = "histogram",
    .summary = "atomicAdd of points into a buffer, then log(1+n)/log(1001) into rgba16float",
    .lesson = "002 Storage texture o storage buffer: \"El caso mixto\" (acumular + presentar)",
    .default_width = 64,
    .default_height = 64,
    .input_format = STEX_FORMAT_UNDEFINED,
    .output_format = STEX_FORMAT_RGBA16FLOAT,
    .input = "262144 points (or width*height/4 if more) from mulberry32(0x4157): mean of 4 "
             "uniforms per axis (peaked); every 97th point at x = width + i%5 (rejected by the "
             "guard)",
    .racy = false,
    .passes = PASSES,
    .pass_count = 2,
    .ops = &OPS,
    .run_file = kernels_text_histogram_json,
};
