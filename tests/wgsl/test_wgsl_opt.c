/* The bytecode optimisation pass (src/wgsl/opt.c) changes no result:
 * programs full of what it rewrites - copies of variables and vectors read
 * after masked writes, literals inside loops, registers reused across
 * scopes, inlined calls, array indexing, break and continue in divergent
 * loops (whose exits jump past a pass without lanes), integer clamps,
 * variables updated after early returns (in main and in an inlined
 * function, whose returned lanes come back), costly builtins called once
 * per distinct argument - give the same output words optimised and as lowered, at sub-group
 * widths 1, 5 and 64 under every profile; the integer program also matches
 * its expectation computed here; and the pass does shorten them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dispatch/dispatch_internal.h"
#include "stex/stex.h"
#include "wgsl/interp.h"
#include "wgsl/opt.h"
#include "wgsl_fixture.h"

enum { N = 64, GROUPS = 4, WORDS = N * GROUPS };

static const char INTS[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "fn mix3(a : u32, b : u32) -> u32 { let t = a ^ (b << 3u); return t + 7u; }\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  let x = input[gid.x];\n"
    "  var p0 = x;\n"
    "  p0 = p0 * 3u;\n"
    "  let q0 = p0;\n"
    "  p0 = p0 * 7u;\n"
    "  let r0 = q0 * 11u + p0;\n"
    "  var acc = 0u;\n"
    "  var v = vec2<u32>(x, x + 1u);\n"
    "  for (var i = 0u; i < 8u; i++) {\n"
    "    if (((x >> i) & 1u) == 1u) { continue; }\n"
    "    let w = v;\n"
    "    v = vec2<u32>(w.y, w.x * 3u + i);\n"
    "    acc = mix3(acc, v.x);\n"
    "    if (acc % 13u == 5u) { break; }\n"
    "  }\n"
    "  var n0 = 0u;\n"
    "  var j0 = 0u;\n"
    "  while (j0 < x % 7u) { j0++; if (j0 == 3u) { continue; } n0 += j0 * 2u; }\n"
    "  let c0 = clamp(x * 524309u, 100000u, 3000000000u) ^ u32(clamp(i32(x) - 4000, -1000, 1000));\n"
    "  var arr = array<u32, 4>(1u, 2u, 3u, 4u);\n"
    "  arr[x % 4u] = acc;\n"
    "  let k = x % 4u;\n"
    "  let y = arr[(k + 1u) % 4u];\n"
    "  var z = 0u;\n"
    "  if (x < 2000u) { z = y; } else { z = acc; let q = z; z = q + 1u; }\n"
    "  output[gid.x] = acc + v.y * 5u + z + r0 + n0 * 13u + c0;\n"
    "}\n";

static uint32_t ints_expected(uint32_t x)
{
    uint32_t acc = 0, v[2] = {x, x + 1};
    for (uint32_t i = 0; i < 8; i++) {
        if ((x >> i & 1) == 1)
            continue;
        uint32_t w[2] = {v[0], v[1]};
        v[0] = w[1], v[1] = w[0] * 3 + i;
        acc = (acc ^ (v[0] << 3)) + 7;
        if (acc % 13 == 5)
            break;
    }
    uint32_t n0 = 0;
    for (uint32_t j = 1; j <= x % 7; j++)
        if (j != 3)
            n0 += j * 2;
    uint32_t m = x * 524309u, c0 = m < 100000u ? 100000u : m > 3000000000u ? 3000000000u : m;
    int32_t sx = (int32_t)x - 4000;
    c0 ^= (uint32_t)(sx < -1000 ? -1000 : sx > 1000 ? 1000 : sx);
    uint32_t arr[4] = {1, 2, 3, 4};
    arr[x % 4] = acc;
    uint32_t y = arr[(x % 4 + 1) % 4], z = x < 2000 ? y : acc + 1;
    return acc + v[1] * 5 + z + x * 3 * 11 + x * 21 + n0 * 13 + c0;
}

static const char FLOATS[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(local_invocation_index) lid : u32,\n"
    "        @builtin(workgroup_id) wid : vec3<u32>) {\n"
    "  let at = wid.x * 64u + lid;\n"
    "  let x = f32(input[at] % 1000u) * 0.25 - 60.0;\n"
    "  var a = x;\n"
    "  let b = a;\n"
    "  if (x > 40.0) { a = a * 2.0; } else if (x < -20.0) { a = b - 1.0; }\n"
    "  let c = a - b;\n"
    "  var s = vec4<f32>(0.0);\n"
    "  var i = 0;\n"
    "  loop {\n"
    "    if (i >= 3) { break; }\n"
    "    s += vec4<f32>(c, b, f32(i), 1.0) * 1.5;\n"
    "    continuing { i++; }\n"
    "  }\n"
    "  let m = select(s.x, s.y * 0.1, s.z > 2.5 && x < 0.0);\n"
    "  let t = clamp(m, -100.0, 100.0) + sin(x);\n"
    "  output[at] = bitcast<u32>(t + s.w) ^ u32(s.z);\n"
    "}\n";

/* Counted loops (step 6 unrolls those with at most 16 iterations):
 * ascending u32, descending i32 by 2, nested, no iteration, inside a
 * branch with the counter an outer variable read after the loop, and one
 * too long to unroll. */
static const char LOOPS[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  let x = input[gid.x];\n"
    "  var acc = 0u;\n"
    "  for (var i = 0u; i < 5u; i++) { acc = acc * 31u + (x >> i); }\n"
    "  for (var j = 3; j >= -2; j -= 2) { acc += u32(j) * (x & 7u); }\n"
    "  for (var dy = -1; dy <= 1; dy++) {\n"
    "    for (var dx = -1; dx <= 1; dx++) { acc += u32(dx * 3 + dy) * x; }\n"
    "  }\n"
    "  var never = 0u;\n"
    "  for (var z = 5u; z < 5u; z++) { never += 1u; }\n"
    "  var k = 7u;\n"
    "  if (x % 3u == 0u) {\n"
    "    var m = 0u;\n"
    "    for (m = 0u; m < 2u; m++) { acc += m * x; }\n"
    "    k = m;\n"
    "  }\n"
    "  for (var w = 0u; w < 20u; w++) { acc += w ^ x; }\n"
    "  output[gid.x] = acc + k * 1000u + never;\n"
    "}\n";

static uint32_t loops_expected(uint32_t x)
{
    uint32_t acc = 0, k = 7;
    for (uint32_t i = 0; i < 5; i++)
        acc = acc * 31u + (x >> i);
    for (int32_t j = 3; j >= -2; j -= 2)
        acc += (uint32_t)j * (x & 7u);
    for (int32_t dy = -1; dy <= 1; dy++)
        for (int32_t dx = -1; dx <= 1; dx++)
            acc += (uint32_t)(dx * 3 + dy) * x;
    if (x % 3 == 0) {
        uint32_t m;
        for (m = 0; m < 2; m++)
            acc += m * x;
        k = m;
    }
    for (uint32_t w = 0; w < 20; w++)
        acc += w ^ x;
    return acc + k * 1000u;
}

/* Counted loops nested three deep (16 x 16 x 8 trips): the nvidia profile
 * unrolls them (lower_unroll.c) until its budget of copies and code runs
 * out and runs the rest as loops - the words are the loops' all the same. */
static const char NESTED[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  let x = input[gid.x];\n"
    "  var acc = 0u;\n"
    "  for (var a = 0u; a < 16u; a++) {\n"
    "    for (var b = 15; b >= 0; b--) {\n"
    "      for (var c = 0u; c != 16u; c += 2u) { acc = acc * 3u + (x ^ (a << 8u) ^ (u32(b) << 4u) ^ c); }\n"
    "    }\n"
    "  }\n"
    "  output[gid.x] = acc;\n"
    "}\n";

static uint32_t nested_expected(uint32_t x)
{
    uint32_t acc = 0;
    for (uint32_t a = 0; a < 16; a++)
        for (int32_t b = 15; b >= 0; b--)
            for (uint32_t c = 0; c != 16; c += 2)
                acc = acc * 3u + (x ^ (a << 8) ^ ((uint32_t)b << 4) ^ c);
    return acc;
}

/* Step 9: `s += v` after lanes returned, at the top level (folded) and
 * inside a function after its early return (its returned lanes come back
 * at the call's end: kept masked), and updates reading other words of the
 * variable (`r += r.yzwx`: never folded). */
static const char FOLDS[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "fn part(x : u32) -> vec4<u32> {\n"
    "  var r = vec4<u32>(x, 1u, 2u, 3u);\n"
    "  if (x % 3u == 0u) { return r; }\n"
    "  r += vec4<u32>(x * 5u, x ^ 9u, x >> 2u, 7u);\n"
    "  r += r.yzwx;\n"
    "  return r;\n"
    "}\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  let x = input[gid.x];\n"
    "  if (x % 5u == 1u) { output[gid.x] = 77u; return; }\n"
    "  var s = part(x);\n"
    "  s += vec4<u32>(x, 2u * x, 3u * x, 4u * x);\n"
    "  s += s.wzyx;\n"
    "  var t = 0u;\n"
    "  t += s.x; t *= 3u; t += s.y ^ s.z;\n"
    "  output[gid.x] = t + s.w;\n"
    "}\n";

static uint32_t folds_expected(uint32_t x)
{
    if (x % 5 == 1)
        return 77;
    uint32_t r[4] = {x, 1, 2, 3};
    if (x % 3 != 0) {
        uint32_t v[4] = {x * 5, x ^ 9, x >> 2, 7};
        for (int k = 0; k < 4; k++)
            r[k] += v[k];
        uint32_t q[4] = {r[0] + r[1], r[1] + r[2], r[2] + r[3], r[3] + r[0]};
        memcpy(r, q, sizeof r);
    }
    for (uint32_t k = 0; k < 4; k++)
        r[k] += (k + 1) * x;
    uint32_t q[4] = {r[0] + r[3], r[1] + r[2], r[2] + r[1], r[3] + r[0]};
    uint32_t t = q[0] * 3;
    return t + (q[1] ^ q[2]) + q[3];
}

/* The interpreter's costly builtins once per distinct argument
 * (interp.c's math_once_per_value): in an 8x8 workgroup, arguments that
 * depend on x alone, on y alone, on x + y, on neither, and one that depends
 * on x alone but for a single lane; no arithmetic before the calls, so the
 * expectation is the math layer's own result for each argument. */
static const char ONCE[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "fn arg(k : u32) -> f32 { return bitcast<f32>((input[k] << 10u) | 0x3f000000u); }\n"
    "fn rot(v : f32, k : u32) -> u32 { let u = bitcast<u32>(v); return (u << k) | (u >> (32u - k)); }\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(local_invocation_id) lid : vec3<u32>,\n"
    "        @builtin(workgroup_id) wid : vec3<u32>) {\n"
    "  let at = wid.x * 64u + lid.y * 8u + lid.x;\n"
    "  let fx = arg(lid.x);\n"
    "  let fy = arg(8u + lid.y);\n"
    "  let fd = arg(16u + lid.x + lid.y);\n"
    "  let fg = arg(at);\n"
    "  let fo = arg(select(lid.x, 40u, at == 77u));\n"
    "  output[at] = rot(sin(fx), 1u) ^ rot(cos(fy), 7u) ^ rot(tan(fd), 13u) ^ rot(pow(fx, fy), 19u)\n"
    "      ^ rot(atan2(fd, fx), 23u) ^ rot(exp(fo), 29u) ^ rot(log(fg), 3u);\n"
    "}\n";

static uint32_t input_value(uint32_t i);

/* Step 10: a 3x3 neighbourhood whose column values (px) the unrolled rows
 * compute again - kept in new registers and reused - beside a row value
 * (py) and an accumulator updated in every copy. */
static const char REUSE[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  let x = input[gid.x];\n"
    "  var s = 0u;\n"
    "  for (var dy = 0u; dy < 3u; dy++) {\n"
    "    for (var dx = 0u; dx < 3u; dx++) {\n"
    "      let px = min(x + dx, 5000u);\n"
    "      let py = min((x >> 3u) + dy, 700u);\n"
    "      s = s * 7u + (px ^ py);\n"
    "    }\n"
    "  }\n"
    "  output[gid.x] = s;\n"
    "}\n";

static uint32_t reuse_expected(uint32_t x)
{
    uint32_t s = 0;
    for (uint32_t dy = 0; dy < 3; dy++)
        for (uint32_t dx = 0; dx < 3; dx++) {
            uint32_t px = x + dx < 5000u ? x + dx : 5000u;
            uint32_t py = (x >> 3) + dy < 700u ? (x >> 3) + dy : 700u;
            s = s * 7u + (px ^ py);
        }
    return s;
}

static uint32_t once_arg(uint32_t k) { return (input_value(k) << 10) | 0x3f000000u; }

static uint32_t once_rot(const stex_profile *p, stex_math_fn fn, uint32_t a, uint32_t b,
                         uint32_t k)
{
    uint32_t in[2] = {a, b}, o[2];
    assert_int_equal(stex_math_eval(p, fn, in, o), STEX_OK);
    return (o[0] << k) | (o[0] >> (32 - k));
}

static uint32_t once_expected(const stex_profile *p, uint32_t at)
{
    uint32_t x = at % 8, y = at / 8 % 8;
    uint32_t fx = once_arg(x), fy = once_arg(8 + y), fd = once_arg(16 + x + y), fg = once_arg(at);
    uint32_t fo = once_arg(at == 77 ? 40 : x);
    return once_rot(p, STEX_MATH_SIN_F32, fx, 0, 1) ^ once_rot(p, STEX_MATH_COS_F32, fy, 0, 7) ^
           once_rot(p, STEX_MATH_TAN_F32, fd, 0, 13) ^ once_rot(p, STEX_MATH_POW_F32, fx, fy, 19) ^
           once_rot(p, STEX_MATH_ATAN2_F32, fd, fx, 23) ^ once_rot(p, STEX_MATH_EXP_F32, fo, 0, 29) ^
           once_rot(p, STEX_MATH_LOG_F32, fg, 0, 3);
}

static uint32_t input_value(uint32_t i) { return i * 2654435761u >> 19; }

/* Runs src (input, output at bindings 0 and 1) over GROUPS workgroups;
 * *ncode: the pipeline's instruction count. */
static uint32_t count_op(const wg_program *p, uint8_t op)
{
    uint32_t n = 0;
    for (uint32_t pc = 0; pc < p->ncode; pc++)
        n += p->code[pc].op == op;
    return n;
}

static void run(const char *src, uint32_t width, stex_profile_id prof, bool optimise,
                uint32_t *out, uint32_t *ncode, uint32_t *nloops, uint32_t *nmovm,
                uint32_t *nmath)
{
    stex_adapter *a;
    stex_device *dev = fixture_device(prof, &a);
    stex_wgsl_module *m = fixture_module_for(prof, src, "opt.wgsl");
    wg_optimize_set_enabled(optimise);
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = width, .max_steps = 100000};
    stex_status st = stex_wgsl_pipeline_create(dev, m, "main", &o, &p);
    wg_optimize_set_enabled(true);
    if (st)
        fail_msg("%s", stex_last_error());
    *ncode = ((const wg_exec_program *)p->executor.user)->prog.ncode;
    *nloops = count_op(&((const wg_exec_program *)p->executor.user)->prog, OP_LOOP_END);
    *nmovm = count_op(&((const wg_exec_program *)p->executor.user)->prog, OP_MOVM);
    *nmath = count_op(&((const wg_exec_program *)p->executor.user)->prog, OP_MATH);
    uint32_t usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST;
    stex_buffer_desc bd = {.size = WORDS * 4, .usage = usage};
    stex_buffer *in, *res;
    assert_int_equal(stex_buffer_create(dev, &bd, &in), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &bd, &res), STEX_OK);
    uint32_t *w = (uint32_t *)(void *)stex_buffer_data(in);
    for (uint32_t i = 0; i < WORDS; i++)
        w[i] = input_value(i);
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = in}, {.binding = 1, .buffer = res}};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, 2, &g), STEX_OK);
    stex_dispatch_options d = {.threads = 2};
    assert_int_equal(stex_dispatch(p, g, GROUPS, 1, 1, &d), STEX_OK);
    memcpy(out, stex_buffer_data(res), WORDS * 4);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(res);
    stex_buffer_destroy(in);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

/* shorter: the optimised program must have fewer instructions (unrolled
 * loops may make it longer); loops: how many loops it may keep at most;
 * fewer_movm: it must have fewer masked copies */
static void compare(const char *src, uint32_t (*expected)(uint32_t), bool shorter,
                    uint32_t loops, bool fewer_movm)
{
    static const uint32_t widths[] = {1, 5, 64};
    for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++)
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            uint32_t want[WORDS], got[WORDS], n_plain, n_opt, l_plain, l_opt, m_plain, m_opt;
            uint32_t a_plain, a_opt;
            run(src, widths[k], (stex_profile_id)prof, false, want, &n_plain, &l_plain, &m_plain,
                &a_plain);
            run(src, widths[k], (stex_profile_id)prof, true, got, &n_opt, &l_opt, &m_opt, &a_opt);
            assert_true(!shorter || n_opt < n_plain);
            assert_true(!fewer_movm || m_opt < m_plain);
            assert_true(l_opt <= loops);
            for (uint32_t i = 0; i < WORDS; i++) {
                if (got[i] != want[i])
                    fail_msg("profile %d, width %u, word %u: optimised %08x, as lowered %08x",
                             prof, widths[k], i, got[i], want[i]);
                if (expected && want[i] != expected(input_value(i)))
                    fail_msg("profile %d, width %u, word %u: %08x, expected %08x", prof,
                             widths[k], i, want[i], expected(input_value(i)));
            }
        }
}

static void test_integer_program(void **s)
{
    (void)s;
    compare(INTS, ints_expected, true, UINT32_MAX, false);
}

static void test_float_program(void **s)
{
    (void)s;
    compare(FLOATS, NULL, true, UINT32_MAX, false);
}

/* Of its seven loops, the 20-iteration one stays, and the one whose
 * counter is an outer variable (not started by the loop itself) may. */
static void test_counted_loops(void **s)
{
    (void)s;
    compare(LOOPS, loops_expected, false, 2, false);
}

/* Counted loops nested ten deep (16^10 trips, never dispatched): the
 * nvidia profile's unrolling stops at its budget, so the program stays
 * small and compiles at once (hostile input: the copies cannot multiply). */
static void test_unrolling_is_bounded(void **s)
{
    (void)s;
    char src[2048] = "@group(0) @binding(0) var<storage, read_write> output : array<u32>;\n"
                     "@compute @workgroup_size(1)\nfn main() {\n  var acc = 0u;\n";
    for (int k = 0; k < 10; k++)
        snprintf(src + strlen(src), sizeof src - strlen(src),
                 "for (var i%d = 0u; i%d < 16u; i%d++) {\n", k, k, k);
    strcat(src, "acc = acc * 3u + i9;\n");
    for (int k = 0; k < 10; k++)
        strcat(src, "}\n");
    strcat(src, "  output[0] = acc;\n}\n");
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_NVIDIA, &a);
    stex_wgsl_module *m = fixture_module_for(STEX_PROFILE_NVIDIA, src, "nested10.wgsl");
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = 1};
    if (stex_wgsl_pipeline_create(dev, m, "main", &o, &p))
        fail_msg("%s", stex_last_error());
    const wg_program *prog = &((const wg_exec_program *)p->executor.user)->prog;
    assert_true(prog->ncode < 200000);
    assert_true(count_op(prog, OP_LOOP_END) > 0); /* the inner loops stayed loops */
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

static void test_nested_counted_loops(void **s)
{
    (void)s;
    compare(NESTED, nested_expected, false, UINT32_MAX, false);
}

/* A sum of terms v*s with v = v*c each trip, looped and written out:
 * NVIDIA's compiler folds each term into one fused step a * C_k + p, its
 * constant a power of c times s rounded in f32 - but not the same one.
 * Written out, C_k = f32(c^k * s); in a loop it folded the body first
 * (v*c)*s = v*(c*s), so C_k = f32(c^(k-1) * f32(c*s)) (round 4 of
 * tests/data/nvprobe: every row of sum_loop_5 .. sum_loop_16 on the H100),
 * c^k itself folded one trip at a time. */
static const char TERMS[] =
    "@group(0) @binding(0) var<storage, read> input : array<u32>;\n"
    "@group(0) @binding(1) var<storage, read_write> output : array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn main(@builtin(global_invocation_id) gid : vec3<u32>) {\n"
    "  let x = input[gid.x];\n"
    "  let a = bitcast<f32>(((x * 2654435761u) & 0x007fffffu) | 0x40000000u);\n"
    "  let b = -bitcast<f32>(((x * 40503u) & 0x007fffffu) | 0x3f000000u);\n"
    "  var p = b; var v = a;\n"
    "  for (var k = 0; k < 8; k++) { v = v * 0.99; p = p + v * 0.016; }\n"
    "  var q = b; var w = a;\n"
    "  WRITTEN"
    "  output[gid.x] = select(bitcast<u32>(p), bitcast<u32>(q), gid.x % 2u == 1u);\n"
    "}\n";

static float term_a(uint32_t x)
{
    uint32_t u = (x * 2654435761u & 0x007fffffu) | 0x40000000u;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static float term_b(uint32_t x)
{
    uint32_t u = (x * 40503u & 0x007fffffu) | 0x3f000000u;
    float f;
    memcpy(&f, &u, 4);
    return -f;
}

static uint32_t terms(uint32_t x, bool looped)
{
    const float c = 0.99f, s = 0.016f;
    float a = term_a(x), p = term_b(x), pw = 1.0f; /* c^(k-1) */
    for (int k = 1; k <= 8; k++) {
        volatile float cs = c * s, pk = pw * c; /* each product rounded to f32 */
        float ck = looped ? pw * cs : pk * s;
        p = fmaf(a, ck, p);
        pw = pk;
    }
    uint32_t u;
    memcpy(&u, &p, 4);
    return u;
}

static void test_looped_term_constants(void **s)
{
    (void)s;
    char src[sizeof TERMS + 512], written[512] = "";
    for (int k = 0; k < 8; k++)
        strcat(written, "w = w * 0.99; q = q + w * 0.016; ");
    const char *at = strstr(TERMS, "WRITTEN");
    snprintf(src, sizeof src, "%.*s%s\n%s", (int)(at - TERMS), TERMS, written, at + 7);
    uint32_t out[WORDS], ncode, nloops, nmovm, nmath, differ = 0;
    run(src, 64, STEX_PROFILE_NVIDIA, true, out, &ncode, &nloops, &nmovm, &nmath);
    assert_int_equal(nloops, 0); /* unrolled */
    for (uint32_t i = 0; i < WORDS; i++) {
        uint32_t x = input_value(i), want = terms(x, i % 2 == 0);
        if (out[i] != want)
            fail_msg("word %u (%s): %08x, expected %08x", i, i % 2 ? "written out" : "looped",
                     out[i], want);
        differ += terms(x, true) != terms(x, false);
    }
    assert_true(differ > 0); /* the two foldings are told apart */
}

/* Masked copies after the last point lanes can come back become plain
 * ones, and results go straight into their variables (step 9). */
static void test_folded_copies(void **s)
{
    (void)s;
    compare(FOLDS, folds_expected, true, 0, true);
}

/* Width 64 (one sub-group per 8x8 workgroup: the calls once per distinct
 * argument) and widths 1 and 5 (a call per lane) give, under every
 * profile, what the math layer gives for each invocation's arguments. */
static void test_once_per_value(void **s)
{
    (void)s;
    static const uint32_t widths[] = {64, 1, 5};
    for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++)
        for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
            uint32_t got[WORDS], ncode, nloops, nmovm, nmath;
            run(ONCE, widths[k], (stex_profile_id)prof, true, got, &ncode, &nloops, &nmovm,
                &nmath);
            const stex_profile *p = stex_profile_get((stex_profile_id)prof);
            for (uint32_t at = 0; at < WORDS; at++)
                if (got[at] != once_expected(p, at))
                    fail_msg("profile %d, width %u, invocation %u: %08x, expected %08x", prof,
                             widths[k], at, got[at], once_expected(p, at));
        }
}

/* A pipeline of src (spec profile, one 64-lane sub-group) to read the
 * optimised bytecode of; compiled_free releases it. */
typedef struct compiled {
    stex_adapter *a;
    stex_device *dev;
    stex_wgsl_module *m;
    stex_pipeline *p;
} compiled;

static const wg_program *compile(const char *src, const char *file, compiled *c)
{
    c->dev = fixture_device(STEX_PROFILE_SPEC, &c->a);
    c->m = fixture_module(src, file);
    stex_wgsl_options o = {.subgroup_width = 64, .max_steps = 100000};
    assert_int_equal(stex_wgsl_pipeline_create(c->dev, c->m, "main", &o, &c->p), STEX_OK);
    return &((const wg_exec_program *)c->p->executor.user)->prog;
}

static void compiled_free(compiled *c)
{
    stex_pipeline_destroy(c->p);
    stex_wgsl_module_destroy(c->m);
    stex_device_destroy(c->dev);
    stex_adapter_destroy(c->a);
}

/* The same results, and the repeated column values computed once: the
 * nine copies' min(x + dx) and min((x >> 3) + dy) are 3 + 3 minimums. */
static void test_reused_values(void **s)
{
    (void)s;
    compare(REUSE, reuse_expected, false, 0, false);
    uint32_t mins = 0;
    compiled c;
    const wg_program *prog = compile(REUSE, "reuse.wgsl", &c);
    for (uint32_t pc = 0; pc < prog->ncode; pc++)
        mins += prog->code[pc].op == OP_MATH && prog->code[pc].imm == STEX_MATH_MIN_U32;
    assert_int_equal(mins, 6);
    compiled_free(&c);
}

/* Step 11: the level-0 load names no level register; a load of another
 * literal level or of a computed one keeps its register. */
static void test_level_zero(void **s)
{
    (void)s;
    static const char SRC[] =
        "@group(0) @binding(0) var t : texture_2d<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> output : array<f32>;\n"
        "@compute @workgroup_size(8, 8)\n"
        "fn main(@builtin(global_invocation_id) g : vec3<u32>) {\n"
        "  let c = vec2<i32>(g.xy);\n"
        "  output[g.x] = textureLoad(t, c, 0).x + textureLoad(t, c, 1).y\n"
        "      + textureLoad(t, c, i32(g.y & 1u)).z;\n"
        "}\n";
    compiled c;
    const wg_program *prog = compile(SRC, "level.wgsl", &c);
    uint32_t loads = 0, without = 0;
    for (uint32_t pc = 0; pc < prog->ncode; pc++)
        if (prog->code[pc].op == OP_TEX_LOAD_LEVEL) {
            loads++;
            without += prog->code[pc].c == WG_NONE_REG;
            if (prog->code[pc].c == WG_NONE_REG)
                assert_int_equal(loads, 1); /* the first load, level 0 */
        }
    assert_int_equal(loads, 3);
    assert_int_equal(without, 1);
    compiled_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counted_loops),
        cmocka_unit_test(test_nested_counted_loops),
        cmocka_unit_test(test_looped_term_constants),
        cmocka_unit_test(test_unrolling_is_bounded),
        cmocka_unit_test(test_integer_program),
        cmocka_unit_test(test_float_program),
        cmocka_unit_test(test_folded_copies),
        cmocka_unit_test(test_once_per_value),
        cmocka_unit_test(test_reused_values),
        cmocka_unit_test(test_level_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
