/* The interpreter's whole-call paths (src/shader/builtins_lanes_words.c) -
 * an 8x8 block moved at once, every lane's texel gathered (AVX2 where the
 * CPU has it) and decoded on SIMD lanes, a buffer's words checked once and
 * gathered, a sampled texture's loads served from the thread's decoded
 * window (shader/window.c: two textures loaded in turn, one with transposed
 * coordinates, neighbourhoods clamped at the edges, scattered loads that
 * take no window) - give what one lane at a time gives: a program whose lanes
 * read outside the texture and the buffer, on a texture whose width and
 * height are not multiples of 8 (edge blocks take the per-lane path), runs
 * at sub-group widths 1, 7 and 64 under every profile and both zero
 * out-of-bounds load policies (a random in-bounds texel would make the
 * read_write texture's out-of-bounds loads race with its stores) and writes
 * the same bytes.  Width 1 never takes the whole-call paths, so it is the
 * reference; the in-range values are also checked against what was put in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

enum { W = 37, H = 21, GX = 5, GY = 3, WORDS = GX * 8 * GY * 8 };

/* Each invocation (x, y): a sampled rgba8unorm load shifted left by 3 and
 * up or down by one, another shifted by (-1, 1) (rows of 8 consecutive
 * texels; both out of bounds at the edges), a read_write r32float
 * texel loaded and stored in place (the 8x8 block path inside the texture,
 * the per-lane path at its edges), and a buffer word at an index that
 * passes the end for some lanes. */
static const char SRC[] =
    "@group(0) @binding(0) var src : texture_2d<f32>;\n"
    "@group(0) @binding(1) var field : texture_storage_2d<r32float, read_write>;\n"
    "@group(0) @binding(2) var<storage, read> words : array<u32>;\n"
    "@group(0) @binding(3) var<storage, read_write> out : array<u32>;\n"
    "@group(0) @binding(4) var src2 : texture_2d<f32>;\n"
    "@group(0) @binding(5) var<storage, read_write> far : array<u32>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  let at = g.y * 40u + g.x;\n"
    "  let c = vec2<i32>(g.xy) + vec2<i32>(-3, i32(g.x % 3u) - 1);\n"
    "  let t = textureLoad(src, c, 0);\n"
    "  let u = textureLoad(src, vec2<i32>(g.xy) + vec2<i32>(-1, 1), 0);\n"
    "  let f = textureLoad(field, vec2<i32>(g.xy)).x;\n"
    "  textureStore(field, vec2<i32>(g.xy), vec4<f32>(f * 0.5 + 1.0, 0.0, 0.0, 0.0));\n"
    "  let w = words[(at * 7u) % 1100u];\n"
    "  out[6u * at] = bitcast<u32>(t.x + t.y * 3.0) ^ w;\n"
    "  out[6u * at + 1u] = bitcast<u32>(t.z - t.w);\n"
    "  out[6u * at + 2u] = bitcast<u32>(f);\n"
    "  out[6u * at + 3u] = w;\n"
    "  out[6u * at + 4u] = bitcast<u32>(u.x - u.y * 5.0);\n"
    "  out[6u * at + 5u] = bitcast<u32>(u.z + u.w * 7.0);\n"
    "  var n = vec4<f32>(0.0);\n"
    "  for (var dy = -1; dy <= 1; dy++) {\n"
    "    for (var dx = -1; dx <= 1; dx++) {\n"
    "      let q = clamp(vec2<i32>(g.xy) + vec2<i32>(dx, dy), vec2<i32>(0), vec2<i32>(36, 20));\n"
    "      n += textureLoad(src2, q, 0) * f32(dx + 2) - textureLoad(src, q.yx, 0);\n"
    "    }\n"
    "  }\n"
    "  let sc = textureLoad(src2, vec2<u32>((g.x * 7u + g.y * 13u) % 37u, (g.y * 5u + g.x) % 21u), 0);\n"
    "  far[2u * at] = bitcast<u32>(n.x + n.y * 3.0 + n.z * 5.0 + n.w * 7.0);\n"
    "  far[2u * at + 1u] = bitcast<u32>(sc.x - sc.w * 3.0);\n"
    "}\n";

static uint32_t texel(uint32_t x, uint32_t y) { return (x * 2654435761u) ^ (y * 40503u + 77u); }
static uint32_t texel2(uint32_t x, uint32_t y) { return (y * 2246822519u) ^ (x * 3266489917u + 5u); }
static float fvalue(uint32_t x, uint32_t y) { return (float)(x * 3 + y) - 50.25f; }

typedef struct result {
    uint32_t out[6 * WORDS];
    uint32_t far[2 * WORDS];
    float field[W * H];
} result;

static void run(uint32_t width, stex_profile_id prof, stex_oob_load oob, result *r)
{
    stex_adapter *a;
    stex_device *dev = fixture_device(prof, &a);
    stex_wgsl_module *m = fixture_module(SRC, "lanes.wgsl");
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = width};
    if (stex_wgsl_pipeline_create(dev, m, "main", &o, &p))
        fail_msg("%s", stex_last_error());

    stex_texture_desc sd = {.dimension = STEX_TEXTURE_DIMENSION_2D, .size = {W, H, 1},
                            .format = STEX_FORMAT_RGBA8UNORM,
                            .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST};
    stex_texture_desc fd = sd;
    fd.format = STEX_FORMAT_R32FLOAT;
    fd.usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_DST | STEX_USAGE_COPY_SRC;
    stex_texture *st, *ft, *st2;
    assert_int_equal(stex_texture_create(dev, &sd, &st), STEX_OK);
    assert_int_equal(stex_texture_create(dev, &sd, &st2), STEX_OK);
    assert_int_equal(stex_texture_create(dev, &fd, &ft), STEX_OK);
    static uint32_t texels[W * H], texels2[W * H];
    static float fv[W * H];
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            texels[y * W + x] = texel(x, y);
            texels2[y * W + x] = texel2(x, y);
            fv[y * W + x] = fvalue(x, y);
        }
    stex_copy_layout lay = {.bytes_per_row = W * 4, .rows_per_image = H};
    assert_int_equal(stex_queue_write_texture(&(stex_copy_texture){.texture = st}, texels,
                                              sizeof texels, &lay, (stex_extent3d){W, H, 1}),
                     STEX_OK);
    assert_int_equal(stex_queue_write_texture(&(stex_copy_texture){.texture = st2}, texels2,
                                              sizeof texels2, &lay, (stex_extent3d){W, H, 1}),
                     STEX_OK);
    assert_int_equal(stex_queue_write_texture(&(stex_copy_texture){.texture = ft}, fv, sizeof fv,
                                              &lay, (stex_extent3d){W, H, 1}),
                     STEX_OK);
    stex_texture_view *sv, *fvw, *sv2;
    assert_int_equal(stex_texture_create_view(st, NULL, &sv), STEX_OK);
    assert_int_equal(stex_texture_create_view(st2, NULL, &sv2), STEX_OK);
    assert_int_equal(stex_texture_create_view(ft, NULL, &fvw), STEX_OK);
    stex_buffer *wb, *ob, *fb;
    stex_buffer_desc wd = {.size = 1000 * 4, .usage = STEX_BUFFER_USAGE_STORAGE};
    stex_buffer_desc od = {.size = sizeof r->out, .usage = STEX_BUFFER_USAGE_STORAGE};
    stex_buffer_desc fbd = {.size = sizeof r->far, .usage = STEX_BUFFER_USAGE_STORAGE};
    assert_int_equal(stex_buffer_create(dev, &wd, &wb), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &od, &ob), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &fbd, &fb), STEX_OK);
    uint32_t *w = (uint32_t *)(void *)stex_buffer_data(wb);
    for (uint32_t i = 0; i < 1000; i++)
        w[i] = i * 0x9e3779b9u;
    stex_bind_group_entry be[6] = {{.binding = 0, .view = sv}, {.binding = 1, .view = fvw},
                                   {.binding = 2, .buffer = wb}, {.binding = 3, .buffer = ob},
                                   {.binding = 4, .view = sv2}, {.binding = 5, .buffer = fb}};
    stex_bind_group *g;
    if (stex_bind_group_create(p, be, 6, &g))
        fail_msg("%s", stex_last_error());
    stex_dispatch_options d = {.threads = 2, .oob_load = oob,
                               .schedule = STEX_SCHEDULE_SHUFFLED, .seed = 4};
    if (stex_dispatch(p, g, GX, GY, 1, &d))
        fail_msg("%s", stex_last_error());
    memcpy(r->out, stex_buffer_data(ob), sizeof r->out);
    memcpy(r->far, stex_buffer_data(fb), sizeof r->far);
    stex_buffer *rb;
    stex_buffer_desc rd = {.size = 256 * H, .usage = STEX_BUFFER_USAGE_COPY_DST};
    assert_int_equal(stex_buffer_create(dev, &rd, &rb), STEX_OK);
    stex_copy_layout rl = {.bytes_per_row = 256, .rows_per_image = H};
    if (stex_copy_texture_to_buffer(&(stex_copy_texture){.texture = ft}, rb, &rl,
                                    (stex_extent3d){W, H, 1}))
        fail_msg("%s", stex_last_error());
    for (uint32_t y = 0; y < H; y++)
        memcpy(&r->field[y * W], stex_buffer_data(rb) + 256 * y, W * 4);
    stex_buffer_destroy(rb);
    stex_bind_group_destroy(g);
    stex_buffer_destroy(wb);
    stex_buffer_destroy(ob);
    stex_buffer_destroy(fb);
    stex_texture_view_destroy(sv2);
    stex_texture_destroy(st2);
    stex_texture_view_destroy(sv);
    stex_texture_view_destroy(fvw);
    stex_texture_destroy(st);
    stex_texture_destroy(ft);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

static void test_widths_agree(void **state)
{
    (void)state;
    static const stex_oob_load oobs[] = {STEX_OOB_LOAD_ZERO, STEX_OOB_LOAD_ZERO_ALPHA_ONE};
    static const uint32_t widths[] = {7, 64};
    result *want = malloc(sizeof *want), *got = malloc(sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++)
        for (size_t o = 0; o < sizeof oobs / sizeof oobs[0]; o++) {
            run(1, (stex_profile_id)prof, oobs[o], want);
            /* the field: every texel f * 0.5 + 1 (exact in f32) */
            for (uint32_t y = 0; y < H; y++)
                for (uint32_t x = 0; x < W; x++)
                    assert_true(want->field[y * W + x] == fvalue(x, y) * 0.5f + 1.0f);
            /* the words read inside the buffer are the ones put there */
            for (uint32_t at = 0; at < WORDS; at++)
                if ((at * 7u) % 1100u < 1000u)
                    assert_int_equal(want->out[6 * at + 3], ((at * 7u) % 1100u) * 0x9e3779b9u);
            /* the scattered load: its texel as the profile's converter
             * decodes it (its rule checked against devices elsewhere) */
            for (uint32_t gy = 0; gy < GY * 8; gy++)
                for (uint32_t gx = 0; gx < GX * 8; gx++) {
                    uint32_t t = texel2((gx * 7 + gy * 13) % 37, (gy * 5 + gx) % 21);
                    uint8_t bytes[4] = {(uint8_t)t, (uint8_t)(t >> 8), (uint8_t)(t >> 16),
                                        (uint8_t)(t >> 24)};
                    stex_vec4 c;
                    assert_int_equal(stex_decode_texel(stex_profile_get((stex_profile_id)prof),
                                                       STEX_FORMAT_RGBA8UNORM, bytes, &c),
                                     STEX_OK);
                    /* c.x - c.w * 3.0, which NVIDIA's compiler fuses
                     * (tests/data/nvprobe, probe nmsub) */
                    float v = prof == STEX_PROFILE_NVIDIA ? fmaf(-c.f[3], 3.0f, c.f[0])
                                                          : c.f[0] - c.f[3] * 3.0f;
                    uint32_t bits;
                    memcpy(&bits, &v, 4);
                    assert_int_equal(want->far[2 * (gy * 40 + gx) + 1], bits);
                }
            for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
                run(widths[k], (stex_profile_id)prof, oobs[o], got);
                for (uint32_t i = 0; i < 6 * WORDS; i++)
                    if (got->out[i] != want->out[i])
                        fail_msg("profile %d, oob %d, width %u: out[%u] = %08x, width 1 %08x",
                                 prof, (int)oobs[o], widths[k], i, got->out[i], want->out[i]);
                assert_memory_equal(got->field, want->field, sizeof got->field);
                for (uint32_t i = 0; i < 2 * WORDS; i++)
                    if (got->far[i] != want->far[i])
                        fail_msg("profile %d, oob %d, width %u: far[%u] = %08x, width 1 %08x",
                                 prof, (int)oobs[o], widths[k], i, got->far[i], want->far[i]);
            }
        }
    free(want);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
