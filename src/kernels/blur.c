/*
 * blur - lesson 001 ("textureStore y las funciones de acceso directo"),
 * section "Un ejemplo completo: desenfoque separable": a 9-tap Gaussian read
 * through a linear sampler from a texture_2d<f32> and written to an
 * rgba16float storage texture, dispatched twice (direccion (1,0) then (0,1)),
 * the second pass reading what the first wrote.
 *
 * With radio 1 every sample lands on a texel centre, so the result depends
 * on the sampler returning the texel exactly there and on the rgba16float
 * store's rounding (round-toward-zero on lavapipe).
 */
#include "kernels/inputs.h"
#include "kernels/instance.h"
#include "kernels/kernels_text.h" /* the WGSL and run file: wgsl/ */

/* @binding(0) origen: texture_2d<f32>, (1) smp: sampler,
 * (2) destino: texture_storage_2d<rgba16float, write>, (3) params: uniform. */
enum { ORIGEN = 0, SMP = 1, DESTINO = 2, PARAMS = 3 };

/* struct Params { direccion : vec2<f32>, radio : f32 }: words 0-1 and 2 of
 * @binding(3), 16 bytes (the struct's size rounds up to vec2's alignment). */
typedef struct blur_params { float direccion[2]; float radio; float pad; } blur_params;

static const float PESOS[5] = {0.227027f, 0.194594f, 0.121621f, 0.054054f, 0.016216f};

/* suma = suma + s * w, per component, in f32 (a multiply then an add). */
static void madd(stex_vec4 *suma, stex_vec4 s, float w)
{
    for (int c = 0; c < 4; c++)
        suma->f[c] = suma->f[c] + s.f[c] * w;
}

static void blur(const stex_invocation *inv)
{
    const float direccion_x = stex_buffer_load_f32(inv, PARAMS, 0);
    const float direccion_y = stex_buffer_load_f32(inv, PARAMS, 1);
    const float radio = stex_buffer_load_f32(inv, PARAMS, 2);
    const uint32_t *id = inv->global_invocation_id;
    stex_uvec2 tam = stex_textureDimensions_2d(inv, DESTINO);
    if (id[0] >= tam.x || id[1] >= tam.y)
        return;

    float uv_x = ((float)id[0] + 0.5f) / (float)tam.x;
    float uv_y = ((float)id[1] + 0.5f) / (float)tam.y;
    float paso_x = direccion_x * radio / (float)tam.x;
    float paso_y = direccion_y * radio / (float)tam.y;

    stex_vec4 s = stex_textureSampleLevel_2d(inv, ORIGEN, SMP, uv_x, uv_y, 0.0f);
    stex_vec4 suma;
    for (int c = 0; c < 4; c++)
        suma.f[c] = s.f[c] * PESOS[0];
    for (int i = 1; i < 5; i++) {
        float d_x = paso_x * (float)i, d_y = paso_y * (float)i;
        madd(&suma, stex_textureSampleLevel_2d(inv, ORIGEN, SMP, uv_x + d_x, uv_y + d_y, 0.0f),
             PESOS[i]);
        madd(&suma, stex_textureSampleLevel_2d(inv, ORIGEN, SMP, uv_x - d_x, uv_y - d_y, 0.0f),
             PESOS[i]);
    }

    stex_textureStore_2d(inv, DESTINO, (int32_t)id[0], (int32_t)id[1],
                         stex_f32x4(suma.f[0], suma.f[1], suma.f[2], suma.f[3]));
}

STEX_WORKGROUP_FN(blur_workgroup, blur)

static const stex_layout_entry ENTRIES[] = {
    {.binding = ORIGEN, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_TEXTURE,
     .texture_view_dimension = STEX_VIEW_DIMENSION_2D},
    {.binding = SMP, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_SAMPLER},
    {.binding = DESTINO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA16FLOAT, STEX_VIEW_DIMENSION_2D}},
    {.binding = PARAMS, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_UNIFORM_BUFFER,
     .buffer = {.min_binding_size = sizeof(blur_params)}},
};

static const stex_kernel_pass PASSES[] = {
    {"main", kernels_text_blur_wgsl, {.kernel = blur, .workgroup = blur_workgroup,
      .workgroup_size = {8, 8, 1}, .entries = ENTRIES,
                    .entry_count = 4, .label = "blur"}},
};

static void make_input(const stex_kernel_instance *ki, uint8_t *out)
{
    kernels_input_blur(ki->width, ki->height, out);
}

/* textures: 0 source (rgba8unorm), 1 tmp, 2 output (rgba16float).
 * groups: 0 source -> tmp, 1 tmp -> output, 2 output -> tmp (later iterations). */
static stex_status create(stex_kernel_instance *ki)
{
    const uint32_t sampled_storage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_STORAGE_BINDING |
                                     STEX_USAGE_COPY_SRC;
    stex_status st;
    if ((st = kernels_texture(ki, 0, STEX_FORMAT_RGBA8UNORM,
                              STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST)) ||
        (st = kernels_texture(ki, 1, STEX_FORMAT_RGBA16FLOAT, sampled_storage)) ||
        (st = kernels_texture(ki, 2, STEX_FORMAT_RGBA16FLOAT, sampled_storage)))
        return st;
    /* magFilter/minFilter linear, clamp-to-edge: the harness's sampler */
    stex_sampler_desc sd = {.mag_filter = STEX_FILTER_LINEAR, .min_filter = STEX_FILTER_LINEAR};
    if ((st = stex_sampler_create(ki->device, &sd, &ki->sampler)))
        return st;
    ki->out_texture = ki->texture[2];
    const int from[3] = {0, 1, 2}, to[3] = {1, 2, 1};
    for (int g = 0; g < 3; g++) {
        if ((st = kernels_uniform(ki, g, sizeof(blur_params))))
            return st;
        stex_bind_group_entry e[] = {{.binding = ORIGEN, .view = ki->view[from[g]]},
                                     {.binding = SMP, .sampler = ki->sampler},
                                     {.binding = DESTINO, .view = ki->view[to[g]]},
                                     {.binding = PARAMS, .buffer = ki->uniform[g]}};
        if ((st = kernels_group(ki, g, 0, e, 4)))
            return st;
    }
    return STEX_OK;
}

static stex_status reset(stex_kernel_instance *ki)
{
    return kernels_write_texture(ki, 0, ki->input);
}

static stex_status iterate(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    const blur_params horizontal = {{1.0f, 0.0f}, 1.0f, 0.0f}, vertical = {{0.0f, 1.0f}, 1.0f, 0.0f};
    uint32_t gx = kernels_groups8(ki->width), gy = kernels_groups8(ki->height);
    /* the first blur reads the source, later ones blur the previous result */
    stex_status st = kernels_dispatch(ki, 0, ki->steps == 0 ? 0 : 2, gx, gy, opt, &horizontal, sizeof horizontal);
    if (st)
        return st;
    return kernels_dispatch(ki, 0, 1, gx, gy, opt, &vertical, sizeof vertical);
}

static const struct stex_kernel_ops OPS = {make_input, create, reset, iterate, NULL};

const stex_kernel kernels_blur = {
    .name = "blur",
    .summary = "separable 9-tap Gaussian: texture_2d + linear sampler -> rgba16float, two passes",
    .lesson = "001 textureStore y las funciones de acceso directo: \"desenfoque separable\"",
    .default_width = 64,
    .default_height = 64,
    .input_format = STEX_FORMAT_RGBA8UNORM,
    .output_format = STEX_FORMAT_RGBA16FLOAT,
    .input = "rgba8unorm: r = (4x)&255, g = (4y)&255, b = ((x^y)&8) ? 255 : 0, "
             "a = floor(mulberry32(0xb1a5)() * 256)",
    .racy = false,
    .passes = PASSES,
    .pass_count = 1,
    .ops = &OPS,
    .run_file = kernels_text_blur_json,
};
