/* WGSL atomics beyond add/sub/load/store: atomicCompareExchangeWeak (its
 * result struct's old_value and exchanged) on storage and workgroup atomics,
 * and atomicMax/Min/And/Or/Xor/Exchange on var<workgroup>, at sub-group
 * widths 1, 8, 32 and 64 and every schedule; expected values computed here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

enum { WORDS = 256 };

/* Runs `entry` of src over `groups` workgroups with binding 0 a read_write
 * buffer of WORDS words, initialised from init (or zero); out gets it back. */
static void run(const char *src, const char *entry, uint32_t groups, uint32_t width,
                stex_schedule sched, bool race, const uint32_t *init, uint32_t *out)
{
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(src, entry);
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = width, .max_steps = 1000000};
    if (stex_wgsl_pipeline_create(dev, m, entry, &o, &p))
        fail_msg("%s", stex_last_error());
    stex_buffer *buf;
    stex_buffer_desc bd = {.size = WORDS * 4,
                           .usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST};
    assert_int_equal(stex_buffer_create(dev, &bd, &buf), STEX_OK);
    if (init)
        memcpy(stex_buffer_data(buf), init, WORDS * 4);
    stex_bind_group_entry be = {.binding = 0, .buffer = buf};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, &be, 1, &g), STEX_OK);
    stex_race_detector *rd = NULL;
    if (race)
        assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
    stex_dispatch_options d = {.schedule = sched, .seed = 5, .threads = 2, .races = rd};
    stex_status st = stex_dispatch(p, g, groups, 1, 1, &d);
    if (st != STEX_OK)
        fail_msg("dispatch: %s", stex_last_error());
    if (rd) { /* atomics and barriers only: no race */
        if (stex_race_count(rd, STEX_RACE_ANY)) {
            char *t = stex_race_report_text_string(rd);
            fail_msg("unexpected races:\n%s", t);
        }
        stex_race_detector_destroy(rd);
    }
    memcpy(out, stex_buffer_data(buf), WORDS * 4);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(buf);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

static const uint32_t widths[] = {1, 8, 32, 64};

/* A spin-free lock-less claim: each invocation tries to claim slot lid % 16
 * with compare-exchange(0 -> lid + 1); exactly one per slot wins (the first
 * to run), the others see its value.  Word 16 + lid records old_value, word
 * 80 + lid exchanged, and winners count themselves in word 200. */
static const char CLAIM[] =
    "@group(0) @binding(0) var<storage, read_write> io : array<atomic<u32>, 256>;\n"
    "@compute @workgroup_size(64)\n"
    "fn claim(@builtin(local_invocation_index) lid : u32) {\n"
    "  let r = atomicCompareExchangeWeak(&io[lid % 16u], 0u, lid + 1u);\n"
    "  atomicStore(&io[16u + lid], r.old_value);\n"
    "  if (r.exchanged) {\n"
    "    atomicStore(&io[80u + lid], 1u);\n"
    "    atomicAdd(&io[200], 1u);\n"
    "  }\n"
    "  let s = atomicCompareExchangeWeak(&io[201], 7u, 9u);\n" /* never 7: never exchanges */
    "  if (!s.exchanged && s.old_value == 3u) { atomicAdd(&io[202], 1u); }\n"
    "  atomicAdd(&io[203], select(0u, 1u, atomicCompareExchangeWeak(&io[204], 5u, 6u).exchanged));\n"
    "}\n";

static void check_claim(const uint32_t *out, const char *what)
{
    for (uint32_t s = 0; s < 16; s++) {
        uint32_t owner = out[s]; /* lid + 1 of the winner */
        if (owner == 0 || (owner - 1) % 16 != s)
            fail_msg("%s: slot %u holds %u", what, s, owner);
        uint32_t winners = 0;
        for (uint32_t lid = s; lid < 64; lid += 16) {
            bool won = out[80 + lid] == 1;
            winners += won;
            if (won != (lid + 1 == owner))
                fail_msg("%s: lane %u exchanged = %u, owner %u", what, lid, out[80 + lid], owner);
            uint32_t want_old = won ? 0 : owner;
            if (out[16 + lid] != want_old)
                fail_msg("%s: lane %u old_value %u, expected %u", what, lid, out[16 + lid],
                         want_old);
        }
        if (winners != 1)
            fail_msg("%s: slot %u has %u winners", what, s, winners);
    }
    assert_int_equal(out[200], 16);
    assert_int_equal(out[202], 64);
    assert_int_equal(out[203], 1); /* 5 -> 6 once, then 6 != 5 */
    assert_int_equal(out[204], 6);
}

static void test_compare_exchange_storage(void **s)
{
    (void)s;
    static uint32_t init[WORDS], out[WORDS];
    init[201] = 3;
    init[204] = 5;
    for (size_t w = 0; w < 4; w++)
        for (int sched = 0; sched < 3; sched++) {
            run(CLAIM, "claim", 1, widths[w], (stex_schedule)sched, sched == 2, init, out);
            check_claim(out, stex_schedule_name((stex_schedule)sched));
        }
}

/* The same on var<workgroup>, i32, with the result copied out after a barrier. */
static const char CLAIM_WG[] =
    "@group(0) @binding(0) var<storage, read_write> io : array<i32, 256>;\n"
    "var<workgroup> slots : array<atomic<i32>, 16>;\n"
    "var<workgroup> winners : atomic<i32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn claim(@builtin(local_invocation_index) lid : u32) {\n"
    "  let r = atomicCompareExchangeWeak(&slots[lid % 16u], 0, -i32(lid) - 1);\n"
    "  io[16u + lid] = r.old_value;\n"
    "  io[80u + lid] = select(0, 1, r.exchanged);\n"
    "  if (r.exchanged) { atomicAdd(&winners, 1); }\n"
    "  workgroupBarrier();\n"
    "  if (lid < 16u) { io[lid] = atomicLoad(&slots[lid]); }\n"
    "  if (lid == 0u) { io[200] = atomicLoad(&winners); }\n"
    "}\n";

static void test_compare_exchange_workgroup(void **s)
{
    (void)s;
    static uint32_t out[WORDS];
    for (size_t w = 0; w < 4; w++)
        for (int sched = 0; sched < 3; sched++) {
            run(CLAIM_WG, "claim", 1, widths[w], (stex_schedule)sched, sched == 0, NULL, out);
            for (uint32_t sl = 0; sl < 16; sl++) {
                int32_t owner = (int32_t)out[sl]; /* -(lid + 1) */
                if (owner >= 0 || (uint32_t)(-owner - 1) % 16 != sl)
                    fail_msg("slot %u holds %d", sl, owner);
                for (uint32_t lid = sl; lid < 64; lid += 16) {
                    bool won = -(int32_t)lid - 1 == owner;
                    assert_int_equal(out[80 + lid], won);
                    assert_int_equal((int32_t)out[16 + lid], won ? 0 : owner);
                }
            }
            assert_int_equal(out[200], 16);
        }
}

/* atomicMax/Min (u32 and i32), And, Or, Xor, Exchange on var<workgroup>:
 * every invocation applies its value; the results and the sum of the old
 * values Exchange hands back are checked against C. */
static const char RMW_WG[] =
    "@group(0) @binding(0) var<storage, read_write> io : array<u32, 256>;\n"
    "var<workgroup> mx : atomic<u32>;\n"
    "var<workgroup> mn : atomic<u32>;\n"
    "var<workgroup> imx : atomic<i32>;\n"
    "var<workgroup> imn : atomic<i32>;\n"
    "var<workgroup> a : atomic<u32>;\n"
    "var<workgroup> o : atomic<u32>;\n"
    "var<workgroup> x : atomic<u32>;\n"
    "var<workgroup> e : atomic<u32>;\n"
    "var<workgroup> olds : atomic<u32>;\n"
    "fn val(lid : u32) -> u32 { return (lid * 2654435761u) >> 7u; }\n"
    "@compute @workgroup_size(64)\n"
    "fn rmw(@builtin(local_invocation_index) lid : u32) {\n"
    "  if (lid == 0u) { atomicStore(&mn, 0xffffffffu); atomicStore(&a, 0xffffffffu);\n"
    "                   atomicStore(&imx, -2147483647 - 1); atomicStore(&imn, 2147483647); }\n"
    "  workgroupBarrier();\n"
    "  let v = val(lid);\n"
    "  atomicMax(&mx, v);\n"
    "  atomicMin(&mn, v);\n"
    "  atomicMax(&imx, bitcast<i32>(v));\n"
    "  atomicMin(&imn, bitcast<i32>(v));\n"
    "  atomicAnd(&a, v | 0x10000u);\n"
    "  atomicOr(&o, v & 0xf0f0f0u);\n"
    "  atomicXor(&x, v);\n"
    "  atomicAdd(&olds, atomicExchange(&e, lid + 1u));\n"
    "  workgroupBarrier();\n"
    "  if (lid == 0u) {\n"
    "    io[0] = atomicLoad(&mx); io[1] = atomicLoad(&mn);\n"
    "    io[2] = bitcast<u32>(atomicLoad(&imx)); io[3] = bitcast<u32>(atomicLoad(&imn));\n"
    "    io[4] = atomicLoad(&a); io[5] = atomicLoad(&o); io[6] = atomicLoad(&x);\n"
    "    io[7] = atomicLoad(&e); io[8] = atomicLoad(&olds);\n"
    "  }\n"
    "}\n";

static void test_rmw_workgroup(void **s)
{
    (void)s;
    uint32_t mx = 0, mn = UINT32_MAX, an = UINT32_MAX, o = 0, x = 0, sum = 0;
    int32_t imx = INT32_MIN, imn = INT32_MAX;
    for (uint32_t lid = 0; lid < 64; lid++) {
        uint32_t v = lid * 2654435761u >> 7;
        mx = v > mx ? v : mx;
        mn = v < mn ? v : mn;
        imx = (int32_t)v > imx ? (int32_t)v : imx;
        imn = (int32_t)v < imn ? (int32_t)v : imn;
        an &= v | 0x10000u;
        o |= v & 0xf0f0f0u;
        x ^= v;
        sum += lid + 1;
    }
    static uint32_t out[WORDS];
    for (size_t w = 0; w < 4; w++)
        for (int sched = 0; sched < 3; sched++) {
            run(RMW_WG, "rmw", 1, widths[w], (stex_schedule)sched, sched == 1, NULL, out);
            assert_int_equal(out[0], mx);
            assert_int_equal(out[1], mn);
            assert_int_equal((int32_t)out[2], imx);
            assert_int_equal((int32_t)out[3], imn);
            assert_int_equal(out[4], an);
            assert_int_equal(out[5], o);
            assert_int_equal(out[6], x);
            /* Exchange: the olds are 0 and every lid + 1 but the last one stored */
            assert_true(out[7] >= 1 && out[7] <= 64);
            assert_int_equal(out[8], sum - out[7]);
        }
}

/* Misuse is still diagnosed. */
static void test_compare_exchange_diagnostics(void **s)
{
    (void)s;
    static const char *const bad[] = {
        "var<workgroup> w : atomic<u32>;\n"
        "@compute @workgroup_size(1) fn f() { let r = atomicCompareExchangeWeak(&w, 1u); }\n",
        "var<workgroup> w : u32;\n"
        "@compute @workgroup_size(1) fn f() { let r = atomicCompareExchangeWeak(&w, 1u, 2u); }\n",
        "var<workgroup> w : atomic<u32>;\n"
        "@compute @workgroup_size(1) fn f() { let r = atomicCompareExchangeWeak(&w, 1u, 2u);\n"
        "  let q = r.nope; }\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        stex_wgsl_module *m;
        assert_int_not_equal(stex_wgsl_module_create(bad[i], "bad.wgsl", &m), STEX_OK);
        stex_wgsl_module_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare_exchange_storage),
        cmocka_unit_test(test_compare_exchange_workgroup),
        cmocka_unit_test(test_rmw_workgroup),
        cmocka_unit_test(test_compare_exchange_diagnostics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
