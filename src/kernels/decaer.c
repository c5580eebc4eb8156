/*
 * decaer - lesson 000 ("write, read y read_write: los tres modos de acceso"),
 * section "Leer y escribir la misma textura": exponential decay in place on
 * a read_write r32float texture.  Each invocation reads and writes only its
 * own texel, so the kernel is race-free under every schedule.
 */
#include "stex/math.h"

#include "kernels/inputs.h"
#include "kernels/instance.h"
#include "kernels/kernels_text.h" /* the WGSL and run file: wgsl/ */
#include "shader/tile.h"

enum { CAMPO = 0 }; /* @binding(0) var campo : texture_storage_2d<r32float, read_write> */

static void decaer(const stex_invocation *inv)
{
    const uint32_t *id = inv->global_invocation_id;
    stex_uvec2 tam = stex_textureDimensions_2d(inv, CAMPO);
    if (id[0] >= tam.x || id[1] >= tam.y)                /* any(id.xy >= tam) */
        return;

    int32_t cx = (int32_t)id[0], cy = (int32_t)id[1];    /* vec2<i32>(id.xy) */
    float v = stex_textureLoad_2d(inv, CAMPO, cx, cy).v.f[0];
    /* 0.98 is an abstract literal converted to f32; the product is an f32 op,
     * computed as the profile's device does (nvidia flushes subnormals and
     * returns 0x7fffffff for every NaN). */
    float d = stex__mul_f32_const(inv, v, 0.98f);
    stex_textureStore_2d(inv, CAMPO, cx, cy, stex_f32x4(d, 0.0f, 0.0f, 0.0f));
}

/* The workgroup function: an 8x8 workgroup whose texels form one Morton
 * block (shader/tile.h) of a plain r32float binding (the inline path's tags,
 * bits kept by both conversions, the host's f32 multiply) is 64 contiguous
 * floats, each read and written by its own invocation only - so the order
 * the invocations run in changes nothing and the block is one loop the
 * compiler vectorises.  With the race summary on, the 64 words get the
 * read and write marks the per-invocation builtins would give.  Anything
 * else (another profile's arithmetic, the texture's edge, a linear layout,
 * a word another invocation holds, the out-of-line paths) runs decaer per
 * invocation. */
STEX__FLATTEN static void decaer_workgroup(const stex_workgroup *w)
{
    const stex_invocation *inv = w->inv;
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    const stex_fast_binding *b = stex__fast(inv, CAMPO);
    uint32_t race = b->load_tag & STEX__TAG_RACE;
    bool plain = b->load_tag == (STEX__TILE_LOAD_TAG | race) &&
                 b->store_tag == (STEX__TILE_STORE_TAG(STEX_SCALAR_F32) | race) &&
                 b->raw32 && e->f32_ieee && w->size[0] == STEX__TILE &&
                 w->size[1] == STEX__TILE && w->size[2] == 1;
    float *p = plain ? (float *)(void *)stex__tile8_block(b, w->base[0], w->base[1], 4) : NULL;
    if (p && (!race || stex__tile8_race_mark(inv, b, w->base[0], w->base[1],
                                             STEX__RACE_READ | STEX__RACE_WRITE))) {
        for (int i = 0; i < STEX__TILE * STEX__TILE; i++)
            p[i] = p[i] * 0.98f; /* stex__mul_f32_const's IEEE case */
        return;
    }
    stex__workgroup_loop(w, decaer);
}

static const stex_layout_entry ENTRIES[] = {
    {.binding = CAMPO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
};

static const stex_kernel_pass PASSES[] = {
    {"decaer", kernels_text_decaer_wgsl, {.kernel = decaer, .workgroup = decaer_workgroup,
                      .workgroup_size = {8, 8, 1}, .entries = ENTRIES,
                      .entry_count = 1, .label = "decaer"}},
};

static void make_input(const stex_kernel_instance *ki, uint8_t *out)
{
    kernels_input_decaer(ki->width, ki->height, out);
}

static stex_status create(stex_kernel_instance *ki)
{
    stex_status st = kernels_texture(ki, 0, STEX_FORMAT_R32FLOAT,
                                     STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC |
                                         STEX_USAGE_COPY_DST);
    if (st)
        return st;
    ki->out_texture = ki->texture[0];
    stex_bind_group_entry e[] = {{.binding = CAMPO, .view = ki->view[0]}};
    return kernels_group(ki, 0, 0, e, 1);
}

static stex_status reset(stex_kernel_instance *ki)
{
    return kernels_write_texture(ki, 0, ki->input);
}

static stex_status iterate(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    return kernels_dispatch(ki, 0, 0, kernels_groups8(ki->width), kernels_groups8(ki->height),
                            opt, NULL, 0);
}

static const struct stex_kernel_ops OPS = {make_input, create, reset, iterate, NULL};

const stex_kernel kernels_decaer = {
    .name = "decaer",
    .summary = "v * 0.98 in place on a read_write r32float texture (race-free)",
    .lesson = "000 write, read y read_write: \"Leer y escribir la misma textura\"",
    .default_width = 256,
    .default_height = 256,
    .input_format = STEX_FORMAT_R32FLOAT,
    .output_format = STEX_FORMAT_R32FLOAT,
    .input = "texels 0..15: 0, -0, 1, -1, 0.5, min subnormal, FLT_MIN, subnormal 0x006cf6c7, "
             "qNaN, +inf, -inf, 65504, FLT_MAX, 1/3, 0.1, 255; the rest "
             "Math.fround(mulberry32(0xdeca)())",
    .racy = false,
    .passes = PASSES,
    .pass_count = 1,
    .ops = &OPS,
    .run_file = kernels_text_decaer_json,
};
