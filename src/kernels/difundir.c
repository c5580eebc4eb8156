/*
 * difundir - lesson 000 ("write, read y read_write"), section "Leer y
 * escribir la misma textura": a 4-neighbour average.
 *
 * difundir (the lesson's INCORRECTO version) reads, in place on one
 * read_write texture, neighbours that other invocations write in the same
 * dispatch: a race whose outcome depends on the order of workgroups (and of
 * invocations inside a workgroup).  difundir-pingpong is the lesson's fix:
 * read one texture, write the other, swap them between dispatches.
 */
#include "kernels/inputs.h"
#include "kernels/instance.h"
#include "kernels/kernels_text.h" /* the WGSL and run file: wgsl/ */

/* racy: @binding(0) var campo : texture_storage_2d<r32float, read_write> */
enum { CAMPO = 0 };
/* ping-pong: @binding(0) origen (read), @binding(1) destino (write) */
enum { ORIGEN = 0, DESTINO = 1 };

/* The lesson has no bounds guard: out-of-bounds loads return the zero texel
 * (or what the dispatch's oob_load policy says) and stores are discarded. */
static void difundir(const stex_invocation *inv)
{
    int32_t cx = (int32_t)inv->global_invocation_id[0]; /* c = vec2<i32>(id.xy) */
    int32_t cy = (int32_t)inv->global_invocation_id[1];
    /* The four loads in source order, summed left to right in f32. */
    float izq = stex_textureLoad_2d(inv, CAMPO, cx - 1, cy).v.f[0];
    float der = stex_textureLoad_2d(inv, CAMPO, cx + 1, cy).v.f[0];
    float arr = stex_textureLoad_2d(inv, CAMPO, cx, cy - 1).v.f[0];
    float aba = stex_textureLoad_2d(inv, CAMPO, cx, cy + 1).v.f[0];
    float suma = izq + der + arr + aba;
    stex_textureStore_2d(inv, CAMPO, cx, cy, stex_f32x4(suma * 0.25f, 0.0f, 0.0f, 0.0f));
}

static void difundir_pingpong(const stex_invocation *inv)
{
    int32_t cx = (int32_t)inv->global_invocation_id[0];
    int32_t cy = (int32_t)inv->global_invocation_id[1];
    float izq = stex_textureLoad_2d(inv, ORIGEN, cx - 1, cy).v.f[0];
    float der = stex_textureLoad_2d(inv, ORIGEN, cx + 1, cy).v.f[0];
    float arr = stex_textureLoad_2d(inv, ORIGEN, cx, cy - 1).v.f[0];
    float aba = stex_textureLoad_2d(inv, ORIGEN, cx, cy + 1).v.f[0];
    float suma = izq + der + arr + aba;
    stex_textureStore_2d(inv, DESTINO, cx, cy, stex_f32x4(suma * 0.25f, 0.0f, 0.0f, 0.0f));
}

STEX_WORKGROUP_FN(difundir_workgroup, difundir)
STEX_WORKGROUP_FN(difundir_pingpong_workgroup, difundir_pingpong)

static const stex_layout_entry ENTRIES_RACY[] = {
    {.binding = CAMPO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
};
static const stex_layout_entry ENTRIES_PINGPONG[] = {
    {.binding = ORIGEN, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
    {.binding = DESTINO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D}},
};

static const stex_kernel_pass PASSES_RACY[] = {
    {"difundir", kernels_text_difundir_wgsl, {.kernel = difundir, .workgroup = difundir_workgroup,
      .workgroup_size = {8, 8, 1},
                             .entries = ENTRIES_RACY, .entry_count = 1, .label = "difundir"}},
};
static const stex_kernel_pass PASSES_PINGPONG[] = {
    {"difundir", kernels_text_difundir_pingpong_wgsl,
     {.kernel = difundir_pingpong, .workgroup = difundir_pingpong_workgroup,
      .workgroup_size = {8, 8, 1}, .entries = ENTRIES_PINGPONG,
      .entry_count = 2, .label = "difundir-pingpong"}},
};

static void make_input(const stex_kernel_instance *ki, uint8_t *out)
{
    kernels_input_difundir(ki->width, ki->height, ki->hot, out);
}

static const uint32_t USAGE =
    STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC | STEX_USAGE_COPY_DST;

static stex_status create_racy(stex_kernel_instance *ki)
{
    stex_status st = kernels_texture(ki, 0, STEX_FORMAT_R32FLOAT, USAGE);
    if (st)
        return st;
    ki->out_texture = ki->texture[0];
    stex_bind_group_entry e[] = {{.binding = CAMPO, .view = ki->view[0]}};
    return kernels_group(ki, 0, 0, e, 1);
}

static stex_status create_pingpong(stex_kernel_instance *ki)
{
    stex_status st;
    if ((st = kernels_texture(ki, 0, STEX_FORMAT_R32FLOAT, USAGE)) ||
        (st = kernels_texture(ki, 1, STEX_FORMAT_R32FLOAT, USAGE)))
        return st;
    /* group 0: a -> b, group 1: b -> a */
    stex_bind_group_entry ab[] = {{.binding = ORIGEN, .view = ki->view[0]},
                                  {.binding = DESTINO, .view = ki->view[1]}};
    stex_bind_group_entry ba[] = {{.binding = ORIGEN, .view = ki->view[1]},
                                  {.binding = DESTINO, .view = ki->view[0]}};
    if ((st = kernels_group(ki, 0, 0, ab, 2)))
        return st;
    return kernels_group(ki, 1, 0, ba, 2);
}

static stex_status reset(stex_kernel_instance *ki)
{
    ki->out_texture = ki->texture[0];
    return kernels_write_texture(ki, 0, ki->input);
}

static stex_status iterate_racy(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    return kernels_dispatch(ki, 0, 0, kernels_groups8(ki->width), kernels_groups8(ki->height),
                            opt, NULL, 0);
}

static stex_status iterate_pingpong(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    int g = (int)(ki->steps % 2);
    stex_status st = kernels_dispatch(ki, 0, g, kernels_groups8(ki->width),
                                      kernels_groups8(ki->height), opt, NULL, 0);
    ki->out_texture = ki->texture[ki->steps % 2]; /* the texture written last */
    return st;
}

static const struct stex_kernel_ops OPS_RACY = {make_input, create_racy, reset, iterate_racy,
                                                NULL};
static const struct stex_kernel_ops OPS_PINGPONG = {make_input, create_pingpong, reset,
                                                    iterate_pingpong, NULL};

#define DIFUNDIR_INPUT                                                                    \
    "variant random (default): Math.fround(mulberry32(0xd1f0)()) per texel; variant hot: " \
    "0 but 1000.0 at (width/2, height/2)"

const stex_kernel kernels_difundir = {
    .name = "difundir",
    .summary = "4-neighbour average in place on one read_write r32float texture (racy)",
    .lesson = "000 write, read y read_write: \"Leer y escribir la misma textura\" (INCORRECTO)",
    .default_width = 256,
    .default_height = 256,
    .input_format = STEX_FORMAT_R32FLOAT,
    .output_format = STEX_FORMAT_R32FLOAT,
    .input = DIFUNDIR_INPUT,
    .racy = true,
    .passes = PASSES_RACY,
    .pass_count = 1,
    .ops = &OPS_RACY,
    .run_file = kernels_text_difundir_json,
};

const stex_kernel kernels_difundir_pingpong = {
    .name = "difundir-pingpong",
    .summary = "the same average from a read texture into a write texture, swapped each dispatch",
    .lesson = "000 write, read y read_write: \"dos texturas que alternan\" (the fix)",
    .default_width = 256,
    .default_height = 256,
    .input_format = STEX_FORMAT_R32FLOAT,
    .output_format = STEX_FORMAT_R32FLOAT,
    .input = DIFUNDIR_INPUT,
    .racy = false,
    .passes = PASSES_PINGPONG,
    .pass_count = 1,
    .ops = &OPS_PINGPONG,
    .run_file = kernels_text_difundir_pingpong_json,
};
