/*
 * box3x3-texture and box3x3-buffer - lesson 002 ("Storage texture o storage
 * buffer"), section "El mosaico": the same 3x3 box blur over an rgba8unorm
 * image held as a (tiled) texture and as a linear buffer of pack4x8unorm
 * words.  The WGSL is the harness's perf.mjs, which timed both on lavapipe;
 * the two outputs are byte-identical there.
 */
#include "convert/unorm8_row.h"
#include "kernels/inputs.h"
#include "kernels/instance.h"
#include "kernels/kernels_text.h" /* the WGSL and run file: wgsl/ */
#include "shader/tile.h"

/* @binding(0) origen, @binding(1) destino (both variants); the buffer
 * variant's @binding(2) var<uniform> tam : vec2<i32>. */
enum { ORIGEN = 0, DESTINO = 1, TAM = 2 };

static int32_t clampi(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static void box3x3_texture(const stex_invocation *inv)
{
    stex_uvec2 dims = stex_textureDimensions_2d(inv, DESTINO);
    int32_t tam_x = (int32_t)dims.x, tam_y = (int32_t)dims.y;
    int32_t cx = (int32_t)inv->global_invocation_id[0];
    int32_t cy = (int32_t)inv->global_invocation_id[1];
    if (cx >= tam_x || cy >= tam_y)
        return;
    /* clamp(c + vec2(dx, dy), vec2(0), tam - 1), one axis at a time */
    int32_t px[3], py[3];
    for (int32_t d = -1; d <= 1; d++) {
        px[d + 1] = clampi(cx + d, 0, tam_x - 1);
        py[d + 1] = clampi(cy + d, 0, tam_y - 1);
    }
    /* var s = vec4<f32>(0.0): four scalars (not an array, which gcc keeps in memory) */
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    STEX_UNROLL(3)
    for (int32_t dy = 0; dy < 3; dy++)
        STEX_UNROLL(3)
        for (int32_t dx = 0; dx < 3; dx++) {
            stex_vec4 t = stex_textureLoad_level_2d(inv, ORIGEN, px[dx], py[dy], 0);
            s0 += t.f[0], s1 += t.f[1], s2 += t.f[2], s3 += t.f[3];
        }
    stex_textureStore_2d(inv, DESTINO, cx, cy, stex_f32x4(s0 / 9.0f, s1 / 9.0f, s2 / 9.0f, s3 / 9.0f));
}

static void box3x3_buffer(const stex_invocation *inv)
{
    const int32_t tam_x = stex_buffer_load_i32(inv, TAM, 0), tam_y = stex_buffer_load_i32(inv, TAM, 1);
    int32_t cx = (int32_t)inv->global_invocation_id[0];
    int32_t cy = (int32_t)inv->global_invocation_id[1];
    if (cx >= tam_x || cy >= tam_y)
        return;
    /* p = clamp(c + vec2(dx, dy), vec2(0), tam - 1), one axis at a time */
    int32_t px[3], row[3];
    for (int32_t d = -1; d <= 1; d++) {
        px[d + 1] = clampi(cx + d, 0, tam_x - 1);
        row[d + 1] = clampi(cy + d, 0, tam_y - 1) * tam_x; /* p.y * tam.x */
    }
    /* var s = vec4<f32>(0.0): four scalars (not an array, which gcc keeps in memory) */
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    STEX_UNROLL(3)
    for (int32_t dy = 0; dy < 3; dy++)
        STEX_UNROLL(3)
        for (int32_t dx = 0; dx < 3; dx++) {
            float t[4];
            stex_invocation_unpack4x8unorm(
                inv, stex_buffer_load_u32(inv, ORIGEN, (uint32_t)(row[dy] + px[dx])), t);
            s0 += t[0], s1 += t[1], s2 += t[2], s3 += t[3];
        }
    const float q[4] = {s0 / 9.0f, s1 / 9.0f, s2 / 9.0f, s3 / 9.0f};
    stex_buffer_store_u32(inv, DESTINO, (uint32_t)(cy * tam_x + cx),
                          stex_invocation_pack4x8unorm(inv, q));
}

/* The workgroup functions: an 8x8 workgroup whose invocations are all in
 * bounds runs as one block.  Its 64 invocations read a 10x10 window of
 * source texels (rows y0 - 1 .. y0 + 8 and columns x0 - 1 .. x0 + 8, each
 * clamped as the kernel clamps), decoded once each through the same table
 * the inline builtins read (convert/unorm8_row.h); each invocation's sum
 * then takes its nine taps in the kernel's order, 8 invocations per loop,
 * divides by 9 and is encoded by the store's (or pack4x8unorm's) rule 8
 * texels at a time.  Every invocation writes only its own texel or word and
 * reads nothing written in the dispatch, so the order they run in changes
 * nothing.  The race summary marks the 64 writes at once (shader/tile.h).
 * Anything else - the edges, a binding off the inline path, a source that
 * is smaller than the destination (the kernel's loads would leave it) -
 * runs the kernel per invocation. */
enum { WG = 8, WIN = WG + 2 };

/* The sums vectorise 8 lanes wide on AVX2: compiled twice, the CPU's
 * variant picked when the program loads (the same operations either way). */
#if defined(__x86_64__) && defined(__clang__) && defined(__ELF__)
#define BOX_CLONES __attribute__((target_clones("avx2", "default"))) /* never inlined */
#elif defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__)
#define BOX_CLONES __attribute__((target_clones("avx2", "default"), noinline))
#else
#define BOX_CLONES
#endif

BOX_CLONES static void box_block(const uint32_t *win, const float *value, uint32_t round, uint32_t nan,
                      uint32_t out[WG * WG])
{
    float d[4][WIN * WIN], q[4][WG * WG];
    stex__unorm8_unrow(value, WIN * WIN, win, d[0], d[1], d[2], d[3]);
    for (int c = 0; c < 4; c++)
        for (int ly = 0; ly < WG; ly++) {
            float sum[WG] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
            STEX_UNROLL(3)
            for (int dy = 0; dy < 3; dy++)
                STEX_UNROLL(3)
                for (int dx = 0; dx < 3; dx++)
                    for (int lx = 0; lx < WG; lx++)
                        sum[lx] += d[c][(ly + dy) * WIN + lx + dx];
            for (int lx = 0; lx < WG; lx++)
                q[c][WG * ly + lx] = sum[lx] / 9.0f;
        }
    stex__unorm8_row(round, nan, WG * WG, q[0], q[1], q[2], q[3], out);

}

/* The window's columns or rows: clamp(first - 1 + i, 0, tam - 1). */
static void window_axis(int32_t first, int32_t tam, int32_t p[WIN])
{
    for (int i = 0; i < WIN; i++)
        p[i] = clampi(first - 1 + i, 0, tam - 1);
}

STEX__FLATTEN static void box3x3_texture_workgroup(const stex_workgroup *w)
{
    const stex_invocation *inv = w->inv;
    const stex_fast_binding *src = stex__fast(inv, ORIGEN), *dst = stex__fast(inv, DESTINO);
    uint32_t race = dst->store_tag & STEX__TAG_RACE;
    uint8_t *block = STEX__TILE_LITTLE_ENDIAN && w->size[0] == WG && w->size[1] == WG &&
                             w->size[2] == 1 && src->sampled_2d &&
                             src->dec_codec == STEX__CODEC_RGBA8UNORM && src->col &&
                             dst->store_tag == (STEX__TILE_STORE_TAG(STEX_SCALAR_F32) | race) &&
                             dst->enc_codec == STEX__CODEC_RGBA8UNORM && src->w >= dst->w &&
                             src->h >= dst->h
                         ? stex__tile8_block(dst, w->base[0], w->base[1], 4)
                         : NULL;
    if (!block || (race && !stex__tile8_race_mark(inv, dst, w->base[0], w->base[1],
                                                  STEX__RACE_WRITE))) {
        stex__workgroup_loop(w, box3x3_texture);
        return;
    }
    int32_t px[WIN], py[WIN]; /* tam = textureDimensions(destino) */
    window_axis((int32_t)w->base[0], (int32_t)dst->w, px);
    window_axis((int32_t)w->base[1], (int32_t)dst->h, py);
    uint32_t win[WIN * WIN], out[WG * WG];
    for (int i = 0; i < WIN; i++)
        for (int j = 0; j < WIN; j++)
            memcpy(&win[WIN * i + j], src->memory + src->col[px[j]] + src->row[py[i]], 4);
    box_block(win, src->u8_value, dst->u8_round, dst->u8_nan, out);
    stex__tile8_put32(block, out);
}

STEX__FLATTEN static void box3x3_buffer_workgroup(const stex_workgroup *w)
{
    const stex_invocation *inv = w->inv;
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
    const stex_fast_binding *src = stex__fast(inv, ORIGEN), *dst = stex__fast(inv, DESTINO),
                            *tb = stex__fast(inv, TAM);
    uint32_t race = dst->buf_store & STEX__TAG_RACE;
    int32_t tam[2] = {0, 0};
    if (tb->buf_load == STEX__BUF_WORDS && tb->buf_words >= 2)
        memcpy(tam, tb->buf, 8); /* the uniform's vec2<i32>, as the inline loads read it */
    int64_t x0 = w->base[0], y0 = w->base[1], words = (int64_t)tam[0] * tam[1];
    bool plain = STEX__TILE_LITTLE_ENDIAN && w->size[0] == WG && w->size[1] == WG &&
                 w->size[2] == 1 && src->buf_load == STEX__BUF_WORDS &&
                 dst->buf_store == (STEX__BUF_WORDS | race) && x0 + WG <= tam[0] &&
                 y0 + WG <= tam[1] && words < INT32_MAX && (uint64_t)words <= src->buf_words &&
                 (uint64_t)words <= dst->buf_words;
    uint64_t first = (uint64_t)(y0 * tam[0] + x0); /* destino's word of invocation (0, 0) */
    if (!plain || (race && !stex__race_mark8x8(inv, dst, first, (uint64_t)tam[0],
                                               STEX__RACE_WRITE))) {
        stex__workgroup_loop(w, box3x3_buffer);
        return;
    }
    int32_t px[WIN], py[WIN];
    window_axis((int32_t)x0, tam[0], px);
    window_axis((int32_t)y0, tam[1], py);
    uint32_t win[WIN * WIN], out[WG * WG];
    for (int i = 0; i < WIN; i++)
        for (int j = 0; j < WIN; j++)
            memcpy(&win[WIN * i + j], src->buf + 4 * (uint64_t)(py[i] * tam[0] + px[j]), 4);
    box_block(win, e->unpack_u8, e->pack_u8_round, e->pack_u8_nan, out);
    for (int ly = 0; ly < WG; ly++)
        memcpy(dst->buf + 4 * (first + (uint64_t)ly * (uint64_t)tam[0]), &out[WG * ly], 4 * WG);
}

static const stex_layout_entry ENTRIES_TEXTURE[] = {
    {.binding = ORIGEN, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_TEXTURE,
     .texture_view_dimension = STEX_VIEW_DIMENSION_2D},
    {.binding = DESTINO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,
     .storage_texture = {STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM, STEX_VIEW_DIMENSION_2D}},
};
static const stex_layout_entry ENTRIES_BUFFER[] = {
    {.binding = ORIGEN, .visibility = STEX_STAGE_COMPUTE,
     .type = STEX_BINDING_READ_ONLY_STORAGE_BUFFER},
    {.binding = DESTINO, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_BUFFER},
    {.binding = TAM, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_UNIFORM_BUFFER,
     .buffer = {.min_binding_size = 8}},
};

static const stex_kernel_pass PASSES_TEXTURE[] = {
    {"main", kernels_text_box3x3_texture_wgsl,
     {.kernel = box3x3_texture, .workgroup = box3x3_texture_workgroup,
      .workgroup_size = {8, 8, 1}, .entries = ENTRIES_TEXTURE, .entry_count = 2,
                            .label = "box3x3-texture"}},
};
static const stex_kernel_pass PASSES_BUFFER[] = {
    {"main", kernels_text_box3x3_buffer_wgsl,
     {.kernel = box3x3_buffer, .workgroup = box3x3_buffer_workgroup,
      .workgroup_size = {8, 8, 1}, .entries = ENTRIES_BUFFER, .entry_count = 3,
                           .label = "box3x3-buffer"}},
};

static void make_input(const stex_kernel_instance *ki, uint8_t *out)
{
    kernels_input_box3x3(ki->width, ki->height, out);
}

/* texture 0 source (sampled), texture 1 output (storage) */
static stex_status create_texture(stex_kernel_instance *ki)
{
    stex_status st;
    if ((st = kernels_texture(ki, 0, STEX_FORMAT_RGBA8UNORM,
                              STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST)) ||
        (st = kernels_texture(ki, 1, STEX_FORMAT_RGBA8UNORM,
                              STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC)))
        return st;
    ki->out_texture = ki->texture[1];
    stex_bind_group_entry e[] = {{.binding = ORIGEN, .view = ki->view[0]},
                                 {.binding = DESTINO, .view = ki->view[1]}};
    return kernels_group(ki, 0, 0, e, 2);
}

/* buffer 0 source, buffer 1 output: width * height words each */
static stex_status create_buffer(stex_kernel_instance *ki)
{
    uint64_t size = (uint64_t)ki->width * ki->height * 4;
    stex_status st;
    if ((st = kernels_buffer(ki, 0, size, STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST)) ||
        (st = kernels_buffer(ki, 1, size, STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_SRC)))
        return st;
    ki->out_buffer = ki->buffer[1];
    if ((st = kernels_uniform(ki, 0, 8)))
        return st;
    stex_bind_group_entry e[] = {{.binding = ORIGEN, .buffer = ki->buffer[0]},
                                 {.binding = DESTINO, .buffer = ki->buffer[1]},
                                 {.binding = TAM, .buffer = ki->uniform[0]}};
    return kernels_group(ki, 0, 0, e, 3);
}

static stex_status reset_texture(stex_kernel_instance *ki)
{
    return kernels_write_texture(ki, 0, ki->input);
}

static stex_status reset_buffer(stex_kernel_instance *ki)
{
    return stex_queue_write_buffer(ki->buffer[0], 0, ki->input,
                                   (size_t)ki->width * ki->height * 4);
}

static stex_status iterate_texture(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    return kernels_dispatch(ki, 0, 0, kernels_groups8(ki->width), kernels_groups8(ki->height),
                            opt, NULL, 0);
}

static stex_status iterate_buffer(stex_kernel_instance *ki, const stex_dispatch_options *opt)
{
    const int32_t tam[2] = {(int32_t)ki->width, (int32_t)ki->height}; /* little-endian vec2<i32> */
    return kernels_dispatch(ki, 0, 0, kernels_groups8(ki->width), kernels_groups8(ki->height),
                            opt, tam, sizeof tam);
}

static const struct stex_kernel_ops OPS_TEXTURE = {make_input, create_texture, reset_texture,
                                                   iterate_texture, NULL};
static const struct stex_kernel_ops OPS_BUFFER = {make_input, create_buffer, reset_buffer,
                                                  iterate_buffer, NULL};

#define BOX_INPUT "one mulberry32(0x9e7f) word per texel (bytes r, g, b, a little-endian)"

const stex_kernel kernels_box3x3_texture = {
    .name = "box3x3-texture",
    .summary = "3x3 box blur: textureLoad from a tiled rgba8unorm texture, textureStore",
    .lesson = "002 Storage texture o storage buffer: \"El mosaico\" (perf.mjs BOX_TEX)",
    .default_width = 4096,
    .default_height = 4096,
    .input_format = STEX_FORMAT_RGBA8UNORM,
    .output_format = STEX_FORMAT_RGBA8UNORM,
    .input = BOX_INPUT,
    .racy = false,
    .passes = PASSES_TEXTURE,
    .pass_count = 1,
    .ops = &OPS_TEXTURE,
    .run_file = kernels_text_box3x3_texture_json,
};

const stex_kernel kernels_box3x3_buffer = {
    .name = "box3x3-buffer",
    .summary = "3x3 box blur over a linear buffer: unpack4x8unorm, pack4x8unorm",
    .lesson = "002 Storage texture o storage buffer: \"El mosaico\" (perf.mjs BOX_BUF)",
    .default_width = 4096,
    .default_height = 4096,
    .input_format = STEX_FORMAT_RGBA8UNORM,
    .output_format = STEX_FORMAT_RGBA8UNORM,
    .input = BOX_INPUT,
    .racy = false,
    .passes = PASSES_BUFFER,
    .pass_count = 1,
    .ops = &OPS_BUFFER,
    .run_file = kernels_text_box3x3_buffer_json,
};
