/* Typical compute shaders with var<workgroup> and workgroupBarrier: a
 * workgroup reduction and an inclusive prefix sum (Hillis-Steele), checked
 * against sums computed here, at sub-group widths 1, 8, 32 and 64, in order
 * and shuffled; and a runaway loop stopped by max_steps naming its line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

enum { N = 64, GROUPS = 5 };

static const char REDUCE[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "var<workgroup> partial : array<u32, 64>;\n"
    "@compute @workgroup_size(64)\n"
    "fn reduce(@builtin(local_invocation_index) lid : u32,\n"
    "          @builtin(workgroup_id) wid : vec3<u32>) {\n"
    "  partial[lid] = input[wid.x * 64u + lid];\n"
    "  workgroupBarrier();\n"
    "  for (var stride = 32u; stride > 0u; stride >>= 1u) {\n"
    "    if (lid < stride) { partial[lid] += partial[lid + stride]; }\n"
    "    workgroupBarrier();\n"
    "  }\n"
    "  if (lid == 0u) { output[wid.x] = partial[0]; }\n"
    "}\n";

static const char SCAN[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "var<workgroup> buf : array<u32, 64>;\n"
    "@compute @workgroup_size(64)\n"
    "fn scan(@builtin(local_invocation_index) lid : u32,\n"
    "        @builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  buf[lid] = input[gid.x];\n"
    "  workgroupBarrier();\n"
    "  var offset = 1u;\n"
    "  loop {\n"
    "    var v = buf[lid];\n"
    "    if (lid >= offset) { v += buf[lid - offset]; }\n"
    "    workgroupBarrier();\n"
    "    buf[lid] = v;\n"
    "    workgroupBarrier();\n"
    "    offset *= 2u;\n"
    "    continuing { break if offset >= 64u; }\n"
    "  }\n"
    "  output[gid.x] = buf[lid];\n"
    "}\n";

static const char RUNAWAY[] =
    "@group(0) @binding(0) var<storage, read_write> output : array<u32>;\n"
    "@compute @workgroup_size(1)\n"
    "fn spin() {\n"
    "  var i = 0u;\n"
    "  while (output[0] == 0u) {\n"
    "    i++;\n"
    "  }\n"
    "  output[1] = i;\n"
    "}\n";

static uint32_t input_value(uint32_t i) { return i * 2654435761u >> 20; }

static void run(const char *src, const char *entry, uint32_t width, stex_schedule sched,
                uint32_t *out, stex_status want)
{
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(src, entry);
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = width, .max_steps = 100000};
    if (stex_wgsl_pipeline_create(dev, m, entry, &o, &p))
        fail_msg("%s", stex_last_error());
    const stex_wgsl_entry_point *ep = stex_wgsl_entry_point_find(m, entry);
    uint32_t usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST;
    stex_buffer *in = NULL, *res;
    stex_buffer_desc bd = {.size = N * GROUPS * 4, .usage = usage};
    assert_int_equal(stex_buffer_create(dev, &bd, &res), STEX_OK);
    stex_bind_group_entry be[2] = {{.binding = 1, .buffer = res}};
    uint32_t nb = 1;
    if (ep->entry_count == 2) {
        assert_int_equal(stex_buffer_create(dev, &bd, &in), STEX_OK);
        uint32_t *w = (uint32_t *)(void *)stex_buffer_data(in);
        for (uint32_t i = 0; i < N * GROUPS; i++)
            w[i] = input_value(i);
        be[0] = (stex_bind_group_entry){.binding = 0, .buffer = in};
        be[1] = (stex_bind_group_entry){.binding = 1, .buffer = res};
        nb = 2;
    } else {
        be[0].binding = 0;
    }
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, nb, &g), STEX_OK);
    stex_dispatch_options d = {.schedule = sched, .seed = 3, .threads = 2};
    assert_int_equal(stex_dispatch(p, g, ep->entry_count == 2 ? GROUPS : 1, 1, 1, &d), want);
    memcpy(out, stex_buffer_data(res), N * GROUPS * 4);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(res);
    stex_buffer_destroy(in);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

static const uint32_t widths[] = {1, 8, 32, 64};

/* a * b + c in the three forms NVIDIA was measured to contract (one
 * rounding) and lavapipe not (two): the interpreter gives each the math
 * layer's answer for the profile of the dispatch. */
static const char CONTRACT[] =
    "@group(0) @binding(0) var<storage, read_write> io : array<u32, 8>;\n"
    "@compute @workgroup_size(1)\n"
    "fn main() {\n"
    "  let a = bitcast<f32>(io[0]);\n"
    "  let b = bitcast<f32>(io[1]);\n"
    "  let c = bitcast<f32>(io[2]);\n"
    "  io[3] = bitcast<u32>(a * b + c);\n"
    "  io[4] = bitcast<u32>(c + a * b);\n"
    "  let p = a * b;\n"
    "  io[5] = bitcast<u32>(p + c);\n"
    "  io[6] = bitcast<u32>(fma(a, b, c));\n"
    "}\n";

static void test_contraction_per_profile(void **s)
{
    (void)s;
    static const stex_math_fn forms[4] = {STEX_MATH_MUL_ADD_F32, STEX_MATH_ADD_MUL_F32,
                                          STEX_MATH_MUL_ADD_LET_F32, STEX_MATH_FMA_F32};
    const uint32_t in[3] = {0x3f800800u, 0x3f800800u, 0xbf801000u}; /* (1+2^-12)^2 - (1+2^-11) */
    for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++) {
        stex_adapter *a;
        stex_device *dev = fixture_device((stex_profile_id)prof, &a);
        stex_wgsl_module *m = fixture_module(CONTRACT, "contract");
        stex_pipeline *p;
        assert_int_equal(stex_wgsl_pipeline_create(dev, m, "main", NULL, &p), STEX_OK);
        stex_buffer *io;
        stex_buffer_desc bd = {.size = 32, .usage = STEX_BUFFER_USAGE_STORAGE};
        assert_int_equal(stex_buffer_create(dev, &bd, &io), STEX_OK);
        memcpy(stex_buffer_data(io), in, sizeof in);
        stex_bind_group *g;
        assert_int_equal(stex_bind_group_create(p, &(stex_bind_group_entry){.binding = 0,
                                                                            .buffer = io}, 1, &g),
                         STEX_OK);
        assert_int_equal(stex_dispatch(p, g, 1, 1, 1, NULL), STEX_OK);
        const uint32_t *w = (const uint32_t *)(const void *)stex_buffer_data(io);
        for (int f = 0; f < 4; f++) {
            uint32_t want;
            stex_math_eval(stex_profile_get((stex_profile_id)prof), forms[f], in, &want);
            if (w[3 + f] != want)
                fail_msg("profile %s, form %d: %08x, the math layer says %08x",
                         stex_profile_name((stex_profile_id)prof), f, w[3 + f], want);
        }
        /* nvidia fuses all three forms: 2^-24; the others round the product first: 0 */
        assert_int_equal(w[3], prof == STEX_PROFILE_NVIDIA ? 0x33800000u : 0u);
        assert_int_equal(w[5], prof == STEX_PROFILE_NVIDIA ? 0x33800000u : 0u);
        stex_bind_group_destroy(g);
        stex_buffer_destroy(io);
        stex_pipeline_destroy(p);
        stex_wgsl_module_destroy(m);
        stex_device_destroy(dev);
        stex_adapter_destroy(a);
    }
}

static void test_reduction(void **s)
{
    (void)s;
    static uint32_t out[N * GROUPS];
    for (size_t w = 0; w < 4; w++)
        for (int sched = 0; sched < 3; sched++) {
            run(REDUCE, "reduce", widths[w], (stex_schedule)sched, out, STEX_OK);
            for (uint32_t g = 0; g < GROUPS; g++) {
                uint32_t sum = 0;
                for (uint32_t i = 0; i < N; i++)
                    sum += input_value(g * N + i);
                if (out[g] != sum)
                    fail_msg("width %u, %s: group %u sums to %u, expected %u", widths[w],
                             stex_schedule_name((stex_schedule)sched), g, out[g], sum);
            }
        }
}

static void test_prefix_sum(void **s)
{
    (void)s;
    static uint32_t out[N * GROUPS];
    for (size_t w = 0; w < 4; w++)
        for (int sched = 0; sched < 3; sched++) {
            run(SCAN, "scan", widths[w], (stex_schedule)sched, out, STEX_OK);
            for (uint32_t g = 0; g < GROUPS; g++) {
                uint32_t sum = 0;
                for (uint32_t i = 0; i < N; i++) {
                    sum += input_value(g * N + i);
                    if (out[g * N + i] != sum)
                        fail_msg("width %u, %s: scan[%u] = %u, expected %u", widths[w],
                                 stex_schedule_name((stex_schedule)sched), g * N + i,
                                 out[g * N + i], sum);
                }
            }
        }
}

static void test_runaway_loop(void **s)
{
    (void)s;
    static uint32_t out[N * GROUPS];
    run(RUNAWAY, "spin", 1, STEX_SCHEDULE_IN_ORDER, out, STEX_SHADER_ERROR);
    if (!strstr(stex_last_error(), "spin:5: the loop ran past --max-steps"))
        fail_msg("unexpected message: %s", stex_last_error());
    assert_int_equal(out[1], 0); /* the store after the loop never ran */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduction), cmocka_unit_test(test_prefix_sum),
        cmocka_unit_test(test_runaway_loop), cmocka_unit_test(test_contraction_per_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
