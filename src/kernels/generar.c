/*
 * generar - lesson 003 ("Qué es una storage texture"), section "El montaje
 * mínimo": a compute shader that generates an image of sine waves into a
 * write-only rgba8unorm storage texture, animated by params.tiempo.
 *
 * sin() is the only builtin here whose result is not exact: WGSL allows it an
 * absolute error (2^-11 inside [-pi, pi]).  stex's sin, stex_sin
 * (stex/wgsl_math.h), is within 0.50037 ulp of the exact value for
 * |x| < 2^20 - far closer than a GPU's - so outputs match a device within a
 * documented tolerance (docs/kernels.md), not bit for bit; at 4096x4096,
 * tiempo 0.75 they equal lavapipe's.
 */
#include "stex/wgsl_math.h"

#include "kernels/instance.h"

static const char WGSL[] =
    "@group(0) @binding(0) var salida : texture_storage_2d<rgba8unorm, write>;\n"
    "\n"
    "struct Params { tiempo : f32 };\n"
    "@group(0) @binding(1) var<uniform> params : Params;\n"
    "\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
    "  let tam = textureDimensions(salida);\n"
    "  if (id.x >= tam.x || id.y >= tam.y) { return; }\n"
    "\n"
    "  let uv = vec2<f32>(id.xy) / vec2<f32>(tam);\n"
    "  let color = vec3<f32>(\n"
    "    0.5 + 0.5 * sin(uv.x * 12.0 + params.tiempo),\n"
    "    0.5 + 0.5 * sin(uv.y * 12.0 + params.tiempo * 1.3),\n"
    "    0.5 + 0.5 * sin((uv.x + uv.y) * 8.0 - params.tiempo));\n"
    "\n"
    "  textureStore(salida, vec2<i32>(id.xy), vec4<f32>(color, 1.0));\n"
    "}\n";

/* @binding(0) var salida : texture_storage_2d<rgba8unorm, write>;
 * @binding(1) var<uniform> params : Params, struct Params { tiempo : f32 } */
enum { SALIDA = 0, PARAMS = 1 };

static void generar(const stex_invocation *inv)
{
    const float tiempo = stex_buffer_load_f32(inv, PARAMS, 0); /* params.tiempo */
    const uint32_t *id = inv->global_invocation_id;
    stex_uvec2 tam = stex_textureDimensions_2d(inv, SALIDA);
    if (id[0] >= tam.x || id[1] >= tam.y)
        return;

    float uv_x = (float)id[0] / (float)tam.x; /* vec2<f32>(id.xy) / vec2<f32>(tam) */
    float uv_y = (float)id[1] / (float)tam.y;
    float r = 0.5f + 0.5f * stex_sin(uv_x * 12.0f + tiempo);
    float g = 0.5f + 0.5f * stex_sin(uv_y * 12.0f + tiempo * 1.3f);
    float b = 0.5f + 0.5f * stex_sin((uv_x + uv_y) * 8.0f - tiempo);

    stex_textureStore_2d(inv, SALIDA, (int32_t)id[0], (int32_t)id[1], stex_f32x4(r, g, b, 1.0f));
}

STEX_WORKGROUP_FN(generar_workgroup, generar)

static const stex_layout_entry ENTRIES[] = {
    {.binding = SALIDA, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM, STEX_VIEW_DIMENSION_2D}},
    {.binding = PARAMS, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_UNIFORM_BUFFER,
     .buffer = {.min_binding_size = 4}},
};

static const stex_kernel_pass PASSES[] = {
    {"main", WGSL, {.kernel = generar, .workgroup = generar_workgroup,
                    .workgroup_size = {8, 8, 1}, .entries = ENTRIES,
                    .entry_count = 2, .label = "generar"}},
};

static stex_status create(stex_kernel_instance *ki)
{
    stex_status st = kernels_texture(ki, 0, STEX_FORMAT_RGBA8UNORM,
                                     STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC |
                                         STEX_USAGE_TEXTURE_BINDING);
    if (st)
        return st;
    ki->out_texture = ki->texture[0];
    if ((st = kernels_uniform(ki, 0, sizeof(float))))
        return st;
    stex_bind_group_entry e[] = {{.binding = SALIDA, .view = ki->view[0]},
                                 {.binding = PARAMS, .buffer = ki->uniform[0]}};
    return kernels_group(ki, 0, 0, e, 2);
}

static stex_status reset(stex_kernel_instance *ki)
{
    (void)ki; /* the output is overwritten whole */
    return STEX_OK;
}

static stex_status iterate(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    const float tiempo = ki->time; /* params.tiempo */
    return kernels_dispatch(ki, 0, 0, kernels_groups8(ki->width), kernels_groups8(ki->height),
                            opt, &tiempo, sizeof tiempo);
}

static const struct stex_kernel_ops OPS = {NULL, create, reset, iterate, NULL};

const stex_kernel kernels_generar = {
    .name = "generar",
    .summary = "sine-wave pattern into a write-only rgba8unorm texture (params.tiempo)",
    .lesson = "003 Qué es una storage texture: \"El montaje mínimo\"",
    .default_width = 512,
    .default_height = 512,
    .input_format = STEX_FORMAT_UNDEFINED,
    .output_format = STEX_FORMAT_RGBA8UNORM,
    .input = "none; params.tiempo from the setup (0 by default; the harness's perf run used 0.75)",
    .racy = false,
    .passes = PASSES,
    .pass_count = 1,
    .ops = &OPS,
};
