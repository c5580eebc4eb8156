/* The barrier service (src/dispatch/phase.h) driven by an executor that is
 * not the fiber runner: a small state machine, written here, that keeps a
 * program counter per invocation - the way the WGSL interpreter will.
 *
 * The program is a two-phase reduction in var<workgroup>: each invocation
 * writes its term to word lid, workgroupBarrier, invocation 0 sums the words
 * into out[workgroup].  Variants of the executor skip the barrier (a race the
 * detector must report), let half the invocations return (a non-uniform
 * barrier), send two halves to two different barriers, or forget to report
 * an invocation. */
#include "dtest.h"
#include "dispatch/phase.h"

enum { N = 64, NWG = 5 };

typedef enum variant {
    WITH_BARRIER,  /* the correct program */
    SKIP_BARRIER,  /* no barrier: invocation 0 sums while the others may not have written */
    HALF_RETURN,   /* odd invocations return before the barrier */
    TWO_SITES,     /* the upper half waits at another workgroupBarrier (site 2) */
    FORGET_ONE     /* the executor never reports invocation N - 1 */
} variant;

static uint32_t term(uint32_t wg, uint32_t lid) { return lid * lid + 7 * wg; }

/* Runs invocation lid from its program counter until a barrier or return. */
static void step(const stex_workgroup *w, variant v, uint32_t lid, uint8_t *pc)
{
    struct stex_exec *e = w->inv->exec;
    stex_invocation inv;
    phase_invocation(w, lid, &inv);
    uint32_t wg = inv.workgroup_id[0];
    if (*pc == 0) {
        stex_workgroup_store_u32(&inv, lid, term(wg, lid));
        *pc = 1;
        switch (v) {
        case WITH_BARRIER:
            phase_arrive(e, lid, EXEC_BARRIER_WORKGROUP, 1);
            return;
        case HALF_RETURN:
            if (lid % 2)
                phase_return(e, lid);
            else
                phase_arrive(e, lid, EXEC_BARRIER_WORKGROUP, 1);
            return;
        case TWO_SITES:
            phase_arrive(e, lid, EXEC_BARRIER_WORKGROUP, lid < N / 2 ? 1 : 2);
            return;
        case FORGET_ONE:
            if (lid != N - 1)
                phase_arrive(e, lid, EXEC_BARRIER_WORKGROUP, 1);
            return;
        case SKIP_BARRIER:
            break; /* straight on to the sum */
        }
    }
    if (lid == 0) {
        uint32_t sum = 0;
        for (uint32_t i = 0; i < N; i++)
            sum += stex_workgroup_load_u32(&inv, i);
        stex_buffer_store_u32(&inv, 0, wg, sum);
    }
    phase_return(e, lid);
}

static void run_reduction(const stex_workgroup *w, void *user)
{
    variant v = *(const variant *)user;
    struct stex_exec *e = w->inv->exec;
    uint8_t pc[N] = {0};
    do {
        const uint32_t *order = phase_order(e);
        for (uint32_t k = 0; k < N; k++)
            if (v != FORGET_ONE || order[k] != N - 1)
                step(w, v, order[k], &pc[order[k]]);
    } while (phase_end(e) == PHASE_NEXT);
}

typedef struct rig {
    stex_device *dev;
    stex_buffer *out;
    stex_pipeline *p;
    stex_bind_group *g;
    variant v;
} rig;

static void rig_open(rig *r, variant v, bool uses_barriers)
{
    r->dev = dt_device();
    r->v = v;
    r->out = dt_buffer(r->dev, NWG * 4, STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_SRC);
    stex_layout_entry e = dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER);
    stex_pipeline_desc pd = {.workgroup_size = {N, 1, 1}, .entries = &e, .entry_count = 1,
                             .workgroup_memory_size = N * 4, .uses_barriers = uses_barriers};
    phase_executor x = {run_reduction, &r->v, NULL, NULL, NULL};
    DT_OK(pipeline_create_with_executor(r->dev, &pd, &x, &r->p));
    stex_bind_group_entry be = {.binding = 0, .buffer = r->out};
    DT_OK(stex_bind_group_create(r->p, &be, 1, &r->g));
}

static void rig_close(rig *r)
{
    stex_bind_group_destroy(r->g);
    stex_pipeline_destroy(r->p);
    stex_buffer_destroy(r->out);
    dt_release(r->dev);
}

static void test_reduction_results_and_no_race(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, WITH_BARRIER, true);
    for (int s = 0; s < 3; s++)
        for (int threads = 1; threads <= 2; threads++)
            for (int detect = 0; detect < 2; detect++) {
                stex_race_detector *rd = NULL;
                if (detect)
                    DT_OK(stex_race_detector_create(NULL, &rd));
                memset(stex_buffer_data(r.out), 0xee, NWG * 4);
                stex_dispatch_options o = {.schedule = (stex_schedule)s, .seed = 3,
                                           .threads = threads, .races = rd};
                DT_OK(stex_dispatch(r.p, r.g, NWG, 1, 1, &o));
                const uint32_t *got = (const uint32_t *)(const void *)stex_buffer_data(r.out);
                for (uint32_t wg = 0; wg < NWG; wg++) {
                    uint32_t want = 0;
                    for (uint32_t i = 0; i < N; i++)
                        want += term(wg, i);
                    if (got[wg] != want)
                        fail_msg("%s, %d threads, detector %s: out[%u] = %u, expected %u",
                                 stex_schedule_name((stex_schedule)s), threads,
                                 detect ? "on" : "off", wg, got[wg], want);
                }
                if (rd) {
                    assert_int_equal(stex_race_count(rd, STEX_RACE_ANY), 0);
                    stex_race_detector_destroy(rd);
                }
            }
    rig_close(&r);
}

static void test_skipped_barrier_is_a_race(void **state)
{
    (void)state;
    rig r;
    rig_open(&r, SKIP_BARRIER, true);
    for (int s = 0; s < 3; s++) {
        stex_race_detector *rd;
        DT_OK(stex_race_detector_create(NULL, &rd));
        stex_dispatch_options o = {.schedule = (stex_schedule)s, .seed = 5, .threads = 2,
                                   .races = rd};
        DT_OK(stex_dispatch(r.p, r.g, NWG, 1, 1, &o));
        /* invocation 0 reads words 1..N-1 that invocations 1..N-1 write, in
         * the same phase; word 0 is its own */
        assert_int_equal(stex_race_count(rd, STEX_RACE_READ_WRITE), (N - 1) * NWG);
        assert_int_equal(stex_race_count(rd, STEX_RACE_WRITE_WRITE), 0);
        const stex_race *first = stex_race_get(rd, 0);
        assert_non_null(first);
        assert_int_equal(first->memory, STEX_RACE_MEMORY_WORKGROUP);
        assert_int_equal(first->word, 1);
        assert_true(first->same_workgroup);
        assert_int_equal(first->a.workgroup_id[0], 0);
        assert_int_equal(first->a.local_invocation_id[0], 0);
        assert_int_equal(first->a.access, STEX_RACE_ACCESS_READ);
        assert_int_equal(first->b.local_invocation_id[0], 1);
        assert_int_equal(first->b.access, STEX_RACE_ACCESS_WRITE);
        stex_race_detector_destroy(rd);
    }
    rig_close(&r);
}

typedef struct uniformity_case {
    variant v;
    bool uses_barriers;
    const char *message[2]; /* both must appear in stex_last_error() */
} uniformity_case;

static const uniformity_case uniformity[] = {
    {HALF_RETURN, true, {"workgroupBarrier reached by 32 of 64 invocations of the workgroup; "
                         "local invocation 1 returned without it", "uniform control flow"}},
    {TWO_SITES, true, {"local invocation 0 waits at workgroupBarrier (barrier 1) and local "
                       "invocation 32 at workgroupBarrier (barrier 2)", "uniform control flow"}},
    {FORGET_ONE, true, {"without reporting every invocation exactly once", "executor"}},
    {WITH_BARRIER, false, {"workgroupBarrier in a pipeline created without uses_barriers",
                           "local invocation (0, 0, 0)"}},
};

static void test_non_uniform_barriers(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof uniformity / sizeof uniformity[0]; i++) {
        const uniformity_case *c = &uniformity[i];
        rig r;
        rig_open(&r, c->v, c->uses_barriers);
        for (int s = 0; s < 3; s++) {
            stex_dispatch_options o = {.schedule = (stex_schedule)s, .seed = 11, .threads = 2};
            assert_int_equal(stex_dispatch(r.p, r.g, NWG, 1, 1, &o), STEX_SHADER_ERROR);
            /* the smallest workgroup's error, whatever the schedule */
            const char *msg = stex_last_error();
            if (!strstr(msg, "workgroup (0, 0, 0)") || !strstr(msg, c->message[0])
                || !strstr(msg, c->message[1]))
                fail_msg("case %zu, %s: got \"%s\", expected \"%s\" and \"%s\"", i,
                         stex_schedule_name((stex_schedule)s), msg, c->message[0],
                         c->message[1]);
        }
        rig_close(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduction_results_and_no_race),
        cmocka_unit_test(test_skipped_barrier_is_a_race),
        cmocka_unit_test(test_non_uniform_barriers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
