/*
 * Allowed mode (stex_wgsl_options.allowed): small shaders whose allowed
 * outputs follow from WGSL's and WebGPU's rules, computed here
 * independently (the host's fmaf, f32 arithmetic in both roundings, the
 * rgba8unorm codes of a tie).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "wgsl_fixture.h"

/* One dispatch of one workgroup of `src` (entry "main") in allowed mode:
 * @binding(0) nin input words, @binding(1) nout output words (8 when 0),
 * and, when the shader declares it, @binding(2) a 4x1 rgba8unorm storage
 * texture. */
typedef struct allowed_run {
    stex_allowed_output buf, tex;
    stex_allowed *allowed;
} allowed_run;

static void run_allowed_n(const char *src, const float *in, uint32_t nin, uint32_t nout,
                         allowed_run *out)
{
    nout = nout ? nout : 8;
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(src, "allowed.wgsl");
    assert_int_equal(stex_allowed_create(&out->allowed), STEX_OK);
    stex_wgsl_options o = {.allowed = out->allowed};
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(dev, m, "main", &o, &p))
        fail_msg("%s", stex_last_error());
    uint32_t usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST;
    stex_buffer *bin, *bout;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 4 * nin, .usage = usage},
                                        &bin), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 4 * nout,
                                                                 .usage = usage}, &bout), STEX_OK);
    memcpy(stex_buffer_data(bin), in, nin * 4);
    stex_texture *t = NULL;
    stex_texture_view *v = NULL;
    stex_bind_group_entry be[3] = {{.binding = 0, .buffer = bin}, {.binding = 1, .buffer = bout}};
    uint32_t nb = 2;
    if (stex_wgsl_entry_point_find(m, "main")->entry_count == 3) {
        stex_texture_desc td = {.size = {4, 1, 1}, .format = STEX_FORMAT_RGBA8UNORM,
                                .usage = STEX_USAGE_STORAGE_BINDING};
        assert_int_equal(stex_texture_create(dev, &td, &t), STEX_OK);
        assert_int_equal(stex_texture_create_view(t, NULL, &v), STEX_OK);
        be[nb++] = (stex_bind_group_entry){.binding = 2, .view = v};
    }
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, nb, &g), STEX_OK);
    if (stex_dispatch(p, g, 1, 1, 1, NULL))
        fail_msg("%s", stex_last_error());
    assert_int_equal(stex_allowed_buffer(out->allowed, bout, 0, 4 * nout, &out->buf), STEX_OK);
    memset(&out->tex, 0, sizeof out->tex);
    if (t)
        assert_int_equal(stex_allowed_texture(out->allowed, t, 0, &out->tex), STEX_OK);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    stex_buffer_destroy(bin);
    stex_buffer_destroy(bout);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

static void run_allowed(const char *src, const float *in, uint32_t nin, allowed_run *out)
{
    run_allowed_n(src, in, nin, 0, out);
}

static void run_free(allowed_run *r)
{
    stex_allowed_output_free(&r->buf);
    stex_allowed_output_free(&r->tex);
    stex_allowed_destroy(r->allowed);
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Word k of the output buffer holds f (an f32 set). */
static bool holds(const allowed_run *r, uint32_t k, float f)
{
    return stex_ival_contains_bits('f', &r->buf.v[k], bits(f));
}

/* "line N: ..." is word k's reason. */
static void assert_reason(const allowed_run *r, uint32_t k, const char *line)
{
    assert_true(r->buf.v[k].flags & STEX_IVAL_ANY);
    assert_true(r->buf.reason[k] > 0 && r->buf.reason[k] < r->buf.nreasons);
    const char *text = r->buf.reasons[r->buf.reason[k]];
    if (!strstr(text, line))
        fail_msg("reason '%s' does not name '%s'", text, line);
}

/* WGSL lets a device fuse a * b + c: both the fused and the unfused result
 * are allowed (a = b = 1 + 2^-12, c = -1: unfused 2^-11, fused 2^-11 + 2^-24). */
static void fused_and_unfused(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  out[0] = inp[0] * inp[1] + inp[2];\n"
        "  out[1] = inp[0] + inp[1];\n"
        "}\n";
    float in[3] = {1.0f + 0x1p-12f, 1.0f + 0x1p-12f, -1.0f};
    volatile float prod = in[0] * in[1]; /* rounded to f32: no contraction */
    float unfused = prod + in[2], fused = fmaf(in[0], in[1], in[2]);
    assert_true(unfused != fused);
    allowed_run r;
    run_allowed(src, in, 3, &r);
    assert_int_equal(r.buf.word_type, 'f');
    assert_true(holds(&r, 0, unfused));
    assert_true(holds(&r, 0, fused));
    /* a correctly rounded sum of two exact values: its value only */
    assert_true(holds(&r, 1, in[0] + in[1]));
    assert_true(stex_ival_is_point('f', &r.buf.v[1]));
    run_free(&r);
}

/* textureStore of 0.5 / 255 into rgba8unorm: WebGPU lets the conversion
 * round to either neighbour, so codes 0 and 1 are both allowed; 1.0 and 0.0
 * store their own codes only. */
static void unorm_store_both_neighbours(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@group(0) @binding(2) var tex : texture_storage_2d<rgba8unorm, write>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  textureStore(tex, vec2<i32>(1, 0), vec4<f32>(inp[0], 1.0, 0.0, inp[1]));\n"
        "  out[0] = 0.0;\n"
        "}\n";
    float in[2] = {0.5f / 255.0f, 128.0f / 255.0f};
    allowed_run r;
    run_allowed(src, in, 2, &r);
    assert_true(r.tex.is_texture);
    const stex_ival *t1 = r.tex.v + 4; /* texel (1, 0) */
    uint32_t lo, hi;
    stex_ival_channel_codes(STEX_FORMAT_RGBA8UNORM, 0, t1[0], &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 1);
    stex_ival_channel_codes(STEX_FORMAT_RGBA8UNORM, 1, t1[1], &lo, &hi);
    assert_int_equal(lo, 255);
    assert_int_equal(hi, 255);
    stex_ival_channel_codes(STEX_FORMAT_RGBA8UNORM, 2, t1[2], &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
    /* 128/255 in f32 is within an ulp of the code: 128 (and no farther) */
    stex_ival_channel_codes(STEX_FORMAT_RGBA8UNORM, 3, t1[3], &lo, &hi);
    assert_true(lo >= 127 && hi <= 129 && lo <= 128 && hi >= 128);
    /* texel (0, 0) was never stored: zero */
    stex_ival_channel_codes(STEX_FORMAT_RGBA8UNORM, 0, r.tex.v[0], &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 0);
    run_free(&r);
}

/* A select and a short if on a comparison the devices may decide either
 * way (x / 3 * 3 against 1, with x = 1): both outcomes joined, no ANY. */
static void uncertain_select_and_if_join(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  let x = inp[0] / 3.0 * 3.0;\n"
        "  out[0] = select(inp[1], inp[2], x < 1.0);\n"
        "  var y = inp[3];\n"
        "  if (x < 1.0) {\n"
        "    y = inp[1] * 2.0;\n"
        "  } else {\n"
        "    y = inp[2] + 1.0;\n"
        "  }\n"
        "  out[1] = y;\n"
        "}\n";
    float in[4] = {1.0f, 10.0f, 20.0f, 7.0f};
    allowed_run r;
    run_allowed(src, in, 4, &r);
    assert_true(holds(&r, 0, 10.0f) && holds(&r, 0, 20.0f));
    assert_false(r.buf.v[0].flags & STEX_IVAL_ANY);
    assert_true(holds(&r, 1, 20.0f) && holds(&r, 1, 21.0f));
    assert_false(holds(&r, 1, 7.0f)); /* both sides write y */
    assert_false(r.buf.v[1].flags & STEX_IVAL_ANY);
    run_free(&r);
}

/* An index that depends on a float (u32(x) where x may be just below or
 * at 1): the store may land on element 0 or 1, so the output words are
 * unconstrained, the reason naming the store's line. */
static void uncertain_index_any_with_line(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  let i = u32(inp[0] / 3.0 * 3.0);\n"
        "  out[i] = 5.0;\n"
        "}\n";
    float in[1] = {1.0f};
    allowed_run r;
    run_allowed(src, in, 1, &r);
    assert_reason(&r, 0, "allowed.wgsl:5:");
    assert_reason(&r, 1, "allowed.wgsl:5:");
    run_free(&r);
}

/* A loop whose exit depends on a float (sum 0.1 until past 1.0: ten or
 * eleven steps): the output holds both counts' results. */
static void uncertain_loop_exit(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  var s = 0.0;\n"
        "  var n = 0.0;\n"
        "  loop {\n"
        "    if (s >= inp[1]) { break; }\n"
        "    s = s + inp[0];\n"
        "    n = n + 1.0;\n"
        "  }\n"
        "  out[0] = n;\n"
        "}\n";
    /* the f32 sums of 0.1: the tenth is 1.0000001 > 1, but within the
     * rounding the spec allows the sum may stay below 1 one step longer */
    float in[2] = {0.1f, 1.0f};
    float s = 0;
    int n = 0;
    while (s < 1.0f) {
        s += 0.1f;
        n++;
    }
    allowed_run r;
    run_allowed(src, in, 2, &r);
    assert_true(holds(&r, 0, (float)n));
    assert_true(holds(&r, 0, (float)(n + 1)) || holds(&r, 0, (float)(n - 1)));
    run_free(&r);
}

/* An early return on an uncertain comparison: the sides end differently,
 * so the path not taken runs on as a ghost; both stores are allowed. */
static void uncertain_return_both_paths(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  let x = inp[0] / 3.0 * 3.0;\n"
        "  if (x < 1.0) {\n"
        "    out[0] = inp[1];\n"
        "    return;\n"
        "  }\n"
        "  out[0] = inp[2];\n"
        "  out[1] = inp[2];\n"
        "}\n";
    float in[3] = {1.0f, 10.0f, 20.0f};
    allowed_run r;
    run_allowed(src, in, 3, &r);
    assert_true(holds(&r, 0, 10.0f) && holds(&r, 0, 20.0f));
    assert_false(r.buf.v[0].flags & STEX_IVAL_ANY);
    assert_true(holds(&r, 1, 20.0f) && holds(&r, 1, 0.0f)); /* written, or not */
    run_free(&r);
}

/* A return on an uncertain comparison before a barrier.  The profile
 * returns (1 / 3 * 3 is 1 in f32); the path that goes on would wait at the
 * barrier while the other invocations' phases are past, so it cannot be
 * followed: every word the workgroup can write is unconstrained, the reason
 * the `if`'s line.  (A ghost that returned would have nothing left to do.) */
static void lost_path_any_with_line(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i : u32) {\n"
        "  let x = inp[0] / 3.0 * 3.0;\n"
        "  if (x CMP 1.0) {\n"
        "    return;\n"
        "  }\n"
        "  workgroupBarrier();\n"
        "  out[i] = inp[1];\n"
        "}\n";
    char text[1024];
    const char *at = strstr(src, "CMP");
    float in[2] = {1.0f, 10.0f};
    allowed_run r;
    snprintf(text, sizeof text, "%.*s>=%s", (int)(at - src), src, at + 3);
    run_allowed(text, in, 2, &r);
    assert_reason(&r, 0, "allowed.wgsl:5:");
    assert_reason(&r, 1, "allowed.wgsl:5:");
    assert_reason(&r, 7, "allowed.wgsl:5:");
    run_free(&r);
    /* the other way round: the profile goes on to the barrier and the
     * ghost returned - followed, each store made or not */
    snprintf(text, sizeof text, "%.*s<%s", (int)(at - src), src, at + 3);
    run_allowed(text, in, 2, &r);
    for (uint32_t k = 0; k < 2; k++) {
        assert_false(r.buf.v[k].flags & STEX_IVAL_ANY);
        assert_true(holds(&r, k, 10.0f) && holds(&r, k, 0.0f));
    }
    run_free(&r);
}

/* The executor's own f32 + - * and a * b + c on sets give what
 * stex_ival_eval gives, on values of every magnitude: zeros, subnormals,
 * normals near both ends, past the largest finite (its fast path is for
 * plain bounds; the rest goes to the math layer). */
static void arithmetic_as_the_math_layer(void **state)
{
    (void)state;
    static const char *src =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i : u32) {\n"
        "  let a = inp[3u * i];\n"
        "  let b = inp[3u * i + 1u];\n"
        "  let c = inp[3u * i + 2u];\n"
        "  out[5u * i] = a + b;\n"
        "  out[5u * i + 1u] = a - b;\n"
        "  out[5u * i + 2u] = a * b;\n"
        "  out[5u * i + 3u] = a * b + c;\n"
        "  out[5u * i + 4u] = (a + c) * (b - c);\n"
        "}\n";
    static const float pick[] = {0.0f, -0.0f, 1.0f, -3.5f, 0x1p-126f, 0x1p-149f, 0x1.8p-130f,
                                 0x1.fffffep127f, 1e30f, -7e-39f, 0.1f, 1.0f / 3.0f,
                                 1.0f + 0x1p-23f, 123456.789f, -0x1p-125f, 2e-38f};
    enum { N = 64 };
    float in[3 * N];
    uint32_t x = 12345;
    for (uint32_t k = 0; k < 3 * N; k++) {
        x = x * 1103515245u + 12345u;
        in[k] = k < 48 ? pick[k % 16] * (k / 16 ? -1.0f : 1.0f)
                       : pick[(x >> 16) % 16] * (float)((x >> 8) % 7 + 1) / 3.0f;
    }
    allowed_run r;
    run_allowed_n(src, in, 3 * N, 5 * N, &r);
    for (uint32_t k = 0; k < N; k++) {
        stex_ival p[3] = {stex_ival_of_bits('f', bits(in[3 * k])),
                          stex_ival_of_bits('f', bits(in[3 * k + 1])),
                          stex_ival_of_bits('f', bits(in[3 * k + 2]))};
        stex_ival want[5], t[2], s2[2];
        stex_ival_eval(STEX_MATH_ADD_F32, p, &want[0]);
        stex_ival_eval(STEX_MATH_SUB_F32, p, &want[1]);
        stex_ival_eval(STEX_MATH_MUL_F32, p, &want[2]);
        stex_ival_eval(STEX_MATH_MUL_ADD_F32, p, &want[3]);
        stex_ival ac[2] = {p[0], p[2]}, bc[2] = {p[1], p[2]};
        stex_ival_eval(STEX_MATH_ADD_F32, ac, &t[0]);
        stex_ival_eval(STEX_MATH_SUB_F32, bc, &t[1]);
        s2[0] = t[0], s2[1] = t[1];
        stex_ival_eval(STEX_MATH_MUL_F32, s2, &want[4]);
        for (uint32_t j = 0; j < 5; j++) {
            const stex_ival *g = &r.buf.v[5 * k + j];
            bool any_w = want[j].flags & STEX_IVAL_ANY, any_g = g->flags & STEX_IVAL_ANY;
            if (any_w && any_g)
                continue;
            if (any_w != any_g || g->lo != want[j].lo || g->hi != want[j].hi ||
                g->flags != want[j].flags || signbit(g->lo) != signbit(want[j].lo) ||
                signbit(g->hi) != signbit(want[j].hi)) {
                char a[96], b[96];
                stex_ival_format('f', g, a, sizeof a);
                stex_ival_format('f', &want[j], b, sizeof b);
                fail_msg("case %u op %u (%a, %a, %a): executor %s, math layer %s", k, j,
                         (double)in[3 * k], (double)in[3 * k + 1], (double)in[3 * k + 2], a, b);
            }
        }
    }
    run_free(&r);
}

/* Up to 64 invocations run in step (one instruction for every lane) until
 * a lane's path is uncertain, then each alone; a larger workgroup runs one
 * invocation at a time.  Per invocation both give the same sets: the same
 * shader at @workgroup_size(64) and (128) (lanes 64.. return at once),
 * with integer indices, a loop, f32 arithmetic, a division, a select and a
 * branch that is uncertain in some lanes only (four f32(0.75 * 0.1) summed,
 * at most f32(0.3), against the f32 below it) and certain in the others. */
static void lanes_in_step_as_one_at_a_time(void **state)
{
    (void)state;
    static const char *fmt =
        "@group(0) @binding(0) var<storage, read> inp : array<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> out : array<f32>;\n"
        "@compute @workgroup_size(%d) fn main(@builtin(local_invocation_index) i : u32) {\n"
        "  if (i >= 64u) { return; }\n"
        "  let j = clamp(i32(i) - 3, 0, 60);\n"
        "  var s = 0.0;\n"
        "  for (var k = 0; k < 4; k++) {\n"
        "    s += inp[u32(j + k)] * 0.1;\n"
        "  }\n"
        "  out[4u * i] = s / 3.0;\n"
        "  if (s > 0.29999998) {\n"
        "    out[4u * i + 1u] = s - 0.29999998;\n"
        "  } else {\n"
        "    out[4u * i + 1u] = 1.0;\n"
        "  }\n"
        "  out[4u * i + 2u] = select(2.0, s, s < 0.25);\n"
        "  out[4u * i + 3u] = s + f32(j);\n"
        "}\n";
    enum { N = 64 };
    float in[N];
    for (uint32_t k = 0; k < N; k++)
        in[k] = k < 20 ? 0.75f : (float)k * 0.01f;
    char src[2][1024];
    allowed_run r[2];
    for (int w = 0; w < 2; w++) {
        snprintf(src[w], sizeof src[w], fmt, w ? 128 : 64);
        run_allowed_n(src[w], in, N, 4 * N, &r[w]);
    }
    uint32_t uncertain = 0;
    for (uint32_t k = 0; k < 4 * N; k++) {
        const stex_ival *a = &r[0].buf.v[k], *b = &r[1].buf.v[k];
        if (a->lo != b->lo || a->hi != b->hi || a->flags != b->flags ||
            signbit(a->lo) != signbit(b->lo) || signbit(a->hi) != signbit(b->hi)) {
            char x[96], y[96];
            stex_ival_format('f', a, x, sizeof x);
            stex_ival_format('f', b, y, sizeof y);
            fail_msg("word %u: in step %s, one at a time %s", k, x, y);
        }
        if (k % 4 == 1 && holds(&r[0], k, 1.0f) && !stex_ival_is_point('f', a))
            uncertain++; /* both sides' stores joined */
    }
    /* the branch went both ways in some lanes: the spill was taken */
    assert_true(uncertain > 0 && uncertain < N);
    run_free(&r[0]);
    run_free(&r[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fused_and_unfused),
        cmocka_unit_test(unorm_store_both_neighbours),
        cmocka_unit_test(uncertain_select_and_if_join),
        cmocka_unit_test(uncertain_index_any_with_line),
        cmocka_unit_test(uncertain_loop_exit),
        cmocka_unit_test(uncertain_return_both_paths),
        cmocka_unit_test(lost_path_any_with_line),
        cmocka_unit_test(arithmetic_as_the_math_layer),
        cmocka_unit_test(lanes_in_step_as_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
