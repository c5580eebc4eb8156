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

#include "convert/unorm8_row.h"
#include "kernels/instance.h"
#include "kernels/kernels_text.h" /* the WGSL and run file: wgsl/ */
#include "shader/tile.h"

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

/* The workgroup function: generar's sines for the whole 8x8 workgroup at
 * once.  r depends on id.x only and g on id.y only, so a workgroup needs 8 +
 * 8 + 64 sines instead of 3 x 64, computed by stex_sin_n (several lanes per
 * instruction, bit for bit stex_sin) before the invocations run; the
 * arguments are the kernel's own f32 expressions, so every value - and every
 * byte stored - is the kernel's.  The invocations then run in the engine's
 * order (stex__workgroup_loop's, in order or the schedule's table), each with
 * its own ids, bounds test and textureStore, so race recording, shader
 * errors and out-of-bounds behaviour are those of calling generar.  tiempo
 * and the dimensions are read once, through the workgroup's first invocation
 * in run order (a uniform and a texture's size cannot change during a
 * dispatch).  Another workgroup size (not this pipeline's) runs the plain
 * loop. */
enum { WG = 8 };

STEX__FLATTEN static void generar_workgroup(const stex_workgroup *w)
{
    if (w->size[0] != WG || w->size[1] != WG || w->size[2] != 1) {
        stex__workgroup_loop(w, generar);
        return;
    }
    stex_invocation *inv = w->inv;
    uint32_t first = w->order ? w->order[0] : 0;
    for (int c = 0; c < 3; c++) {
        uint32_t l = w->order ? w->lid[first][c] : 0;
        inv->local_invocation_id[c] = l;
        inv->global_invocation_id[c] = w->base[c] + l;
    }
    inv->local_invocation_index = first;
    const float tiempo = stex_buffer_load_f32(inv, PARAMS, 0); /* params.tiempo */
    const stex_uvec2 tam = stex_textureDimensions_2d(inv, SALIDA);

    /* arg[0..7]: r's arguments by local x; [8..15]: g's by local y;
     * [16 + 8 * ly + lx]: b's */
    float uv_x[WG], uv_y[WG], arg[2 * WG + WG * WG], s[2 * WG + WG * WG];
    for (int i = 0; i < WG; i++) {
        uv_x[i] = (float)(w->base[0] + (uint32_t)i) / (float)tam.x;
        uv_y[i] = (float)(w->base[1] + (uint32_t)i) / (float)tam.y;
        arg[i] = uv_x[i] * 12.0f + tiempo;
        arg[WG + i] = uv_y[i] * 12.0f + tiempo * 1.3f;
    }
    for (int ly = 0; ly < WG; ly++)
        for (int lx = 0; lx < WG; lx++)
            arg[2 * WG + WG * ly + lx] = (uv_x[lx] + uv_y[ly]) * 8.0f - tiempo;
    stex_sin_n(sizeof arg / sizeof arg[0], arg, s);

    /* The block path (shader/tile.h): every invocation in bounds and the 64
     * texels one Morton block of an rgba8unorm binding on the inline path.
     * Each invocation writes only its own texel, so the order is free: the
     * channels' codes come from convert/unorm8_row.h (the inline codec's
     * rule, 8 values per instruction), the texels are assembled in row
     * order and written in the block's order. */
    const stex_fast_binding *bs = stex__fast(inv, SALIDA);
    uint32_t race = bs->store_tag & STEX__TAG_RACE;
    uint8_t *block = STEX__TILE_LITTLE_ENDIAN &&
                             bs->store_tag == (STEX__TILE_STORE_TAG(STEX_SCALAR_F32) | race) &&
                             bs->enc_codec == STEX__CODEC_RGBA8UNORM
                         ? stex__tile8_block(bs, w->base[0], w->base[1], 4)
                         : NULL;
    if (block && (!race || stex__tile8_race_mark(inv, bs, w->base[0], w->base[1],
                                                 STEX__RACE_WRITE))) {
        /* r's code depends on lx only, g's on ly only, alpha's on nothing:
         * 8 + 8 + 1 encodes, then b's 64 */
        float rg[2 * WG + 1], cb[WG * WG];
        uint32_t rgc[2 * WG + 1], bc[WG * WG], texels[WG * WG];
        for (int i = 0; i < WG; i++) {
            rg[i] = 0.5f + 0.5f * s[i];
            rg[WG + i] = 0.5f + 0.5f * s[WG + i];
        }
        rg[2 * WG] = 1.0f;
        for (int i = 0; i < WG * WG; i++)
            cb[i] = 0.5f + 0.5f * s[2 * WG + i];
        stex__unorm8_codes(bs->u8_round, bs->u8_nan, 2 * WG + 1, rg, rgc);
        stex__unorm8_codes(bs->u8_round, bs->u8_nan, WG * WG, cb, bc);
        for (int ly = 0; ly < WG; ly++) {
            uint32_t row = rgc[WG + ly] << 8 | rgc[2 * WG] << 24;
            for (int lx = 0; lx < WG; lx++)
                texels[WG * ly + lx] = rgc[lx] | row | bc[WG * ly + lx] << 16;
        }
        stex__tile8_put32(block, texels); /* little-endian words: r in the first byte */
        return;
    }

#define GENERAR_TEXEL(lx, ly)                                                                   \
    do {                                                                                        \
        const uint32_t *id = inv->global_invocation_id;                                         \
        if (id[0] >= tam.x || id[1] >= tam.y)                                                   \
            break;                                                                              \
        float r = 0.5f + 0.5f * s[lx];                                                          \
        float g = 0.5f + 0.5f * s[WG + (ly)];                                                   \
        float b = 0.5f + 0.5f * s[2 * WG + WG * (ly) + (lx)];                                   \
        stex_textureStore_2d(inv, SALIDA, (int32_t)id[0], (int32_t)id[1],                       \
                             stex_f32x4(r, g, b, 1.0f));                                        \
    } while (0)

    if (!w->order) {
        uint32_t idx = 0;
        inv->local_invocation_id[2] = 0;
        inv->global_invocation_id[2] = w->base[2];
        for (uint32_t ly = 0; ly < WG; ly++) {
            inv->local_invocation_id[1] = ly;
            inv->global_invocation_id[1] = w->base[1] + ly;
            for (uint32_t lx = 0; lx < WG; lx++) {
                inv->local_invocation_id[0] = lx;
                inv->global_invocation_id[0] = w->base[0] + lx;
                inv->local_invocation_index = idx++;
                GENERAR_TEXEL(lx, ly);
            }
        }
        return;
    }
    for (uint32_t k = 0; k < WG * WG; k++) {
        uint32_t i = w->order[k];
        for (int c = 0; c < 3; c++) {
            inv->local_invocation_id[c] = w->lid[i][c];
            inv->global_invocation_id[c] = w->base[c] + w->lid[i][c];
        }
        inv->local_invocation_index = i;
        GENERAR_TEXEL(w->lid[i][0], w->lid[i][1]);
    }
#undef GENERAR_TEXEL
}

static const stex_layout_entry ENTRIES[] = {
    {.binding = SALIDA, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM, STEX_VIEW_DIMENSION_2D}},
    {.binding = PARAMS, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_UNIFORM_BUFFER,
     .buffer = {.min_binding_size = 4}},
};

static const stex_kernel_pass PASSES[] = {
    {"main", kernels_text_generar_wgsl, {.kernel = generar, .workgroup = generar_workgroup,
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
    .run_file = kernels_text_generar_json,
};
