/* Workgroups of 1024 invocations, on a device that asked for
 * maxComputeInvocationsPerWorkgroup = 1024 (what real GPUs report).  Local
 * indices above 255 must keep their identity everywhere: in the local ids
 * the kernel sees, through barriers, and in the race detector's keys -
 * 300 and 812 share their low 8 bits, as do 44 and 300. */
#include "dtest.h"

enum {
    BIG = 1024, BWG = 2,
    MIRROR = 0,              /* words [0, BWG * BIG): out[wg][i] = wg memory[BIG - 1 - i] */
    ORDERED = BWG * BIG,     /* one word per workgroup: 44 writes, barrier, 300 writes */
    RACY = ORDERED + BWG,    /* one word per workgroup: 300 and 812 write in one phase */
    WORDS = RACY + BWG
};

static stex_device *big_device(void)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.limits.max_compute_invocations_per_workgroup = BIG;
    ad.limits.max_compute_workgroup_size_x = BIG;
    stex_adapter *a;
    stex_device *d;
    DT_OK(stex_adapter_create(&ad, &a));
    stex_device_desc dd = {0};
    dd.required_limits.max_compute_invocations_per_workgroup = BIG;
    dd.required_limits.max_compute_workgroup_size_x = BIG;
    DT_OK(stex_device_create(a, &dd, &d));
    stex_adapter_destroy(a); /* the device keeps what it needs */
    return d;
}

static void with_barriers(const stex_invocation *inv)
{
    uint32_t lid = inv->local_invocation_index, wg = inv->workgroup_id[0];
    stex_workgroup_store_u32(inv, lid, lid * 3 + wg);
    if (lid == 300 || lid == 812)
        stex_buffer_store_u32(inv, 0, RACY + wg, lid);
    if (lid == 44)
        stex_buffer_store_u32(inv, 0, ORDERED + wg, 44);
    stex_workgroupBarrier(inv);
    stex_storageBarrier(inv);
    if (lid == 300)
        stex_buffer_store_u32(inv, 0, ORDERED + wg, 300); /* after 44's, ordered by the barrier */
    stex_buffer_store_u32(inv, 0, MIRROR + wg * BIG + lid,
                          stex_workgroup_load_u32(inv, BIG - 1 - lid));
}

/* No barriers (the plain loop and the race summary): each invocation writes
 * its global id; 300 and 812 also write one shared word. */
static void without_barriers(const stex_invocation *inv)
{
    uint32_t lid = inv->local_invocation_index, wg = inv->workgroup_id[0];
    stex_buffer_store_u32(inv, 0, MIRROR + wg * BIG + lid, inv->global_invocation_id[0]);
    if (lid == 300 || lid == 812)
        stex_buffer_store_u32(inv, 0, RACY + wg, lid);
}

static void run(stex_device *dev, stex_kernel_fn k, bool barriers, stex_schedule s,
                stex_race_detector *rd, stex_buffer *out)
{
    stex_layout_entry e = dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER);
    stex_pipeline_desc pd = {.kernel = k, .workgroup_size = {BIG, 1, 1}, .entries = &e,
                             .entry_count = 1, .workgroup_memory_size = BIG * 4,
                             .uses_barriers = barriers};
    stex_pipeline *p;
    stex_bind_group *g;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    stex_bind_group_entry be = {.binding = 0, .buffer = out};
    DT_OK(stex_bind_group_create(p, &be, 1, &g));
    memset(stex_buffer_data(out), 0xee, WORDS * 4);
    stex_dispatch_options o = {.schedule = s, .seed = 21, .threads = 2, .races = rd};
    DT_OK(stex_dispatch(p, g, BWG, 1, 1, &o));
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
}

/* Exactly one race per workgroup: write-write on its RACY word between
 * local invocations 300 and 812 of that workgroup. */
static void expect_racy_pairs(const stex_race_detector *rd, const char *what)
{
    assert_int_equal(stex_race_count(rd, STEX_RACE_WRITE_WRITE), BWG);
    assert_int_equal(stex_race_count(rd, STEX_RACE_READ_WRITE), 0);
    assert_int_equal(stex_race_reported(rd), BWG);
    for (uint32_t wg = 0; wg < BWG; wg++) {
        const stex_race *r = stex_race_get(rd, wg);
        if (r->memory != STEX_RACE_MEMORY_BUFFER || r->word != RACY + wg || !r->same_workgroup
            || r->a.workgroup_id[0] != wg || r->b.workgroup_id[0] != wg
            || r->a.local_invocation_id[0] != 300 || r->b.local_invocation_id[0] != 812)
            fail_msg("%s: race %u is word %llu between (wg %u, lid %u) and (wg %u, lid %u), "
                     "same workgroup %d; expected word %u between local invocations 300 and "
                     "812 of workgroup %u", what, wg, (unsigned long long)r->word,
                     r->a.workgroup_id[0], r->a.local_invocation_id[0], r->b.workgroup_id[0],
                     r->b.local_invocation_id[0], r->same_workgroup, RACY + wg, wg);
    }
}

static void test_limit_is_needed(void **state)
{
    (void)state;
    stex_device *dev = dt_device(); /* default limits: 256 */
    stex_pipeline_desc pd = {.kernel = without_barriers, .workgroup_size = {BIG, 1, 1}};
    stex_pipeline *p;
    assert_int_equal(stex_pipeline_create(dev, &pd, &p), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "maxComputeWorkgroupSizeX"));
    dt_release(dev);
}

static void test_barriers_with_1024_invocations(void **state)
{
    (void)state;
    stex_device *dev = big_device();
    stex_buffer *out = dt_buffer(dev, WORDS * 4, STEX_BUFFER_USAGE_STORAGE);
    for (int s = 0; s < 3; s++) {
        stex_race_detector *rd;
        DT_OK(stex_race_detector_create(NULL, &rd));
        run(dev, with_barriers, true, (stex_schedule)s, rd, out);
        const uint32_t *got = (const uint32_t *)(const void *)stex_buffer_data(out);
        for (uint32_t wg = 0; wg < BWG; wg++) {
            for (uint32_t i = 0; i < BIG; i++)
                if (got[MIRROR + wg * BIG + i] != (BIG - 1 - i) * 3 + wg)
                    fail_msg("%s: out[%u][%u] = %u, expected %u (what invocation %u stored "
                             "before the barrier)", stex_schedule_name((stex_schedule)s), wg, i,
                             got[MIRROR + wg * BIG + i], (BIG - 1 - i) * 3 + wg, BIG - 1 - i);
            assert_int_equal(got[ORDERED + wg], 300);
        }
        expect_racy_pairs(rd, stex_schedule_name((stex_schedule)s));
        stex_race_detector_destroy(rd);
    }
    stex_buffer_destroy(out);
    stex_device_destroy(dev);
}

static void test_plain_loop_with_1024_invocations(void **state)
{
    (void)state;
    stex_device *dev = big_device();
    stex_buffer *out = dt_buffer(dev, WORDS * 4, STEX_BUFFER_USAGE_STORAGE);
    for (int s = 0; s < 3; s++) {
        stex_race_detector *rd;
        DT_OK(stex_race_detector_create(NULL, &rd));
        run(dev, without_barriers, false, (stex_schedule)s, rd, out);
        const uint32_t *got = (const uint32_t *)(const void *)stex_buffer_data(out);
        for (uint32_t i = 0; i < BWG * BIG; i++)
            if (got[MIRROR + i] != i)
                fail_msg("%s: word %u = %u, expected the global id %u",
                         stex_schedule_name((stex_schedule)s), i, got[MIRROR + i], i);
        expect_racy_pairs(rd, stex_schedule_name((stex_schedule)s));
        stex_race_detector_destroy(rd);
    }
    stex_buffer_destroy(out);
    stex_device_destroy(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_limit_is_needed),
        cmocka_unit_test(test_barriers_with_1024_invocations),
        cmocka_unit_test(test_plain_loop_with_1024_invocations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
