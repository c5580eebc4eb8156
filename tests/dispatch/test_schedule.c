/* Schedules: the order invocations run in, checked through an atomic ticket
 * counter; determinism of a seeded single-thread dispatch (100 runs of a
 * racy kernel, identical bytes); dispatch-to-dispatch visibility; zeroed
 * var<workgroup>. */
#include <math.h>

#include "dtest.h"

enum { WX = 4, WY = 2, NX = 3, NY = 2, NZ = 2, NWG = NX * NY * NZ, PER = WX * WY };

/* buffer word 0: the ticket counter; word 1 + n: the ticket of invocation n
 * (n = workgroup linear index * PER + local_invocation_index). */
static void ticket(const stex_invocation *inv)
{
    uint64_t wg = inv->workgroup_id[0] + NX * (inv->workgroup_id[1] + (uint64_t)NY * inv->workgroup_id[2]);
    uint32_t t = stex_atomicAdd(inv, 0, 0, 1);
    stex_atomicStore(inv, 0, 1 + wg * PER + inv->local_invocation_index, t);
}

STEX_WORKGROUP_FN(ticket_workgroup, ticket)

/* How a pipeline runs its invocations. */
typedef enum run_mode { PLAIN, FIBERS, WORKGROUP_FN } run_mode;

typedef struct rig {
    stex_device *dev;
    stex_buffer *buf;
    stex_pipeline *p;
    stex_bind_group *g;
} rig;

static void rig_make(rig *r, stex_kernel_fn k, stex_workgroup_fn wk, run_mode mode)
{
    r->dev = dt_device();
    r->buf = dt_buffer(r->dev, 4 * (1 + NWG * PER), STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e = dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER);
    stex_pipeline_desc pd = {.kernel = k, .workgroup = mode == WORKGROUP_FN ? wk : NULL,
                             .workgroup_size = {WX, WY, 1}, .entries = &e, .entry_count = 1,
                             .uses_barriers = mode == FIBERS};
    DT_OK(stex_pipeline_create(r->dev, &pd, &r->p));
    DT_OK(stex_bind_group_create(r->p, (stex_bind_group_entry[]){{.binding = 0, .buffer = r->buf}},
                                 1, &r->g));
}

static void rig_free(rig *r)
{
    stex_bind_group_destroy(r->g);
    stex_pipeline_destroy(r->p);
    stex_buffer_destroy(r->buf);
    dt_release(r->dev);
}

static void run_tickets(rig *r, stex_schedule s, uint64_t seed, int threads, uint32_t *out)
{
    memset(stex_buffer_data(r->buf), 0, 4 * (1 + NWG * PER));
    stex_dispatch_options o = {.schedule = s, .seed = seed, .threads = threads};
    DT_OK(stex_dispatch(r->p, r->g, NX, NY, NZ, &o));
    memcpy(out, stex_buffer_data(r->buf) + 4, 4 * NWG * PER);
    assert_int_equal(((uint32_t *)stex_buffer_data(r->buf))[0], NWG * PER);
}

/* every ticket exactly once */
static void assert_permutation(const uint32_t *t, const char *what)
{
    uint8_t seen[NWG * PER] = {0};
    for (int i = 0; i < NWG * PER; i++) {
        if (t[i] >= NWG * PER || seen[t[i]]++)
            fail_msg("%s: invocation %d got ticket %u (duplicate or out of range)", what, i, t[i]);
    }
}

static void check_orders(run_mode mode)
{
    rig r;
    rig_make(&r, ticket, ticket_workgroup, mode);
    uint32_t t[NWG * PER], u[NWG * PER];
    run_tickets(&r, STEX_SCHEDULE_IN_ORDER, 0, 1, t);
    for (uint32_t i = 0; i < NWG * PER; i++)
        if (t[i] != i)
            fail_msg("in-order: invocation %u ran %u-th", i, t[i]);
    run_tickets(&r, STEX_SCHEDULE_REVERSED, 0, 1, t);
    for (uint32_t i = 0; i < NWG * PER; i++) /* workgroups backwards, invocations backwards */
        if (t[i] != NWG * PER - 1 - i)
            fail_msg("reversed: invocation %u ran %u-th", i, t[i]);
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        run_tickets(&r, STEX_SCHEDULE_SHUFFLED, seed, 1, t);
        assert_permutation(t, "shuffled");
        /* one thread: a workgroup runs whole, so its tickets are consecutive */
        for (int w = 0; w < NWG; w++) {
            uint32_t lo = t[w * PER];
            for (int l = 0; l < PER; l++)
                lo = t[w * PER + l] < lo ? t[w * PER + l] : lo;
            if (lo % PER)
                fail_msg("shuffled seed %llu: workgroup %d interleaved with another",
                         (unsigned long long)seed, w);
        }
        run_tickets(&r, STEX_SCHEDULE_SHUFFLED, seed, 1, u);
        assert_memory_equal(t, u, sizeof t); /* the seed decides */
        run_tickets(&r, STEX_SCHEDULE_SHUFFLED, seed + 100, 1, u);
        distinct += memcmp(t, u, sizeof t) != 0;
    }
    assert_true(distinct >= 7);
    for (int threads = 2; threads <= 3; threads++) {
        run_tickets(&r, STEX_SCHEDULE_SHUFFLED, 3, threads, t);
        assert_permutation(t, "shuffled, several threads");
        run_tickets(&r, STEX_SCHEDULE_IN_ORDER, 0, threads, t);
        assert_permutation(t, "in-order, several threads");
    }
    rig_free(&r);
}

static void test_schedule_orders(void **state)
{
    (void)state;
    check_orders(PLAIN);
}

static void test_schedule_orders_fibers(void **state)
{
    (void)state;
    check_orders(FIBERS);
}

/* A workgroup function runs the invocations in the very order the engine
 * would call the kernel in: same tickets, schedule by schedule. */
static void test_schedule_orders_workgroup_fn(void **state)
{
    (void)state;
    check_orders(WORKGROUP_FN);
    rig a, b;
    rig_make(&a, ticket, ticket_workgroup, PLAIN);
    rig_make(&b, ticket, ticket_workgroup, WORKGROUP_FN);
    uint32_t t[NWG * PER], u[NWG * PER];
    for (int k = 0; k < 3; k++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            run_tickets(&a, (stex_schedule)k, seed, 1, t);
            run_tickets(&b, (stex_schedule)k, seed, 1, u);
            if (memcmp(t, u, sizeof t))
                fail_msg("schedule %s seed %llu: the workgroup function ran another order",
                         stex_schedule_name((stex_schedule)k), (unsigned long long)seed);
        }
    rig_free(&a);
    rig_free(&b);
}

/* The lessons' racy difundir (in-place 4-neighbour average, r32float read_write). */
static void difundir(const stex_invocation *inv)
{
    int64_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    float s = stex_textureLoad_2d(inv, 0, x - 1, y).v.f[0] + stex_textureLoad_2d(inv, 0, x + 1, y).v.f[0] +
              stex_textureLoad_2d(inv, 0, x, y - 1).v.f[0] + stex_textureLoad_2d(inv, 0, x, y + 1).v.f[0];
    stex_textureStore_2d(inv, 0, x, y, stex_f32x4(s * 0.25f, 0, 0, 0));
}

static void decaer(const stex_invocation *inv)
{
    stex_uvec2 size = stex_textureDimensions_2d(inv, 0);
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    if (x >= size.x || y >= size.y)
        return;
    stex_value v = stex_textureLoad_2d(inv, 0, x, y);
    stex_textureStore_2d(inv, 0, x, y, stex_f32x4(v.v.f[0] * 0.98f, 0, 0, 0));
}

typedef struct trig {
    stex_device *dev;
    stex_texture *t;
    stex_texture_view *v;
    stex_pipeline *p;
    stex_bind_group *g;
} trig;

STEX_WORKGROUP_FN(difundir_workgroup, difundir)

static void trig_make_wg(trig *r, stex_kernel_fn k, stex_workgroup_fn wk, uint32_t n)
{
    r->dev = dt_device();
    r->t = dt_texture(r->dev, 0, n, n, 1, STEX_FORMAT_R32FLOAT, 1);
    r->v = dt_view(r->t, NULL);
    stex_layout_entry e = dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0);
    stex_pipeline_desc pd = {.kernel = k, .workgroup = wk, .workgroup_size = {8, 8, 1},
                             .entries = &e, .entry_count = 1};
    DT_OK(stex_pipeline_create(r->dev, &pd, &r->p));
    DT_OK(stex_bind_group_create(r->p, (stex_bind_group_entry[]){{.binding = 0, .view = r->v}},
                                 1, &r->g));
}

static void trig_make(trig *r, stex_kernel_fn k, uint32_t n)
{
    trig_make_wg(r, k, NULL, n);
}

static void trig_free(trig *r)
{
    stex_bind_group_destroy(r->g);
    stex_pipeline_destroy(r->p);
    stex_texture_view_destroy(r->v);
    stex_texture_destroy(r->t);
    dt_release(r->dev);
}

static void test_seeded_single_thread_is_deterministic(void **state)
{
    (void)state;
    enum { N = 32 };
    trig r;
    trig_make(&r, difundir, N);
    float init[N * N] = {0};
    init[16 * N + 16] = 1000.0f; /* x = 16: a workgroup boundary, as in the lessons */
    init[5 * N + 9] = -300.0f;
    uint8_t *first = NULL;
    for (int run = 0; run < 100; run++) {
        dt_upload(r.t, init, N, N, 1, 4);
        stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 0xfeed, .threads = 1};
        DT_OK(stex_dispatch(r.p, r.g, N / 8, N / 8, 1, &o));
        DT_OK(stex_dispatch(r.p, r.g, N / 8, N / 8, 1, &o));
        uint8_t *got = dt_readback(r.t, N, N, 1, 4);
        if (!first)
            first = got;
        else {
            if (memcmp(first, got, N * N * 4))
                fail_msg("run %d of the same seed differs from run 0", run);
            free(got);
        }
    }
    /* and the race is real: other seeds give other pictures */
    int differ = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        dt_upload(r.t, init, N, N, 1, 4);
        stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = seed, .threads = 1};
        DT_OK(stex_dispatch(r.p, r.g, N / 8, N / 8, 1, &o));
        DT_OK(stex_dispatch(r.p, r.g, N / 8, N / 8, 1, &o));
        uint8_t *got = dt_readback(r.t, N, N, 1, 4);
        differ += memcmp(first, got, N * N * 4) != 0;
        free(got);
    }
    assert_true(differ >= 4);
    /* the same racy pictures through a workgroup function, seed by seed */
    trig w;
    trig_make_wg(&w, difundir, difundir_workgroup, N);
    for (uint64_t seed = 0; seed <= 8; seed++)
        for (int k = 0; k < 3; k++) {
            uint8_t *out[2];
            trig *rr[2] = {&r, &w};
            for (int i = 0; i < 2; i++) {
                dt_upload(rr[i]->t, init, N, N, 1, 4);
                stex_dispatch_options o = {.schedule = (stex_schedule)k, .seed = seed, .threads = 1};
                DT_OK(stex_dispatch(rr[i]->p, rr[i]->g, N / 8, N / 8, 1, &o));
                DT_OK(stex_dispatch(rr[i]->p, rr[i]->g, N / 8, N / 8, 1, &o));
                out[i] = dt_readback(rr[i]->t, N, N, 1, 4);
            }
            if (memcmp(out[0], out[1], N * N * 4))
                fail_msg("difundir, schedule %s seed %llu: the workgroup function's output "
                         "differs from the kernel's", stex_schedule_name((stex_schedule)k),
                         (unsigned long long)seed);
            free(out[0]);
            free(out[1]);
        }
    trig_free(&w);
    free(first);
    trig_free(&r);
}

static void test_next_dispatch_sees_every_write(void **state)
{
    (void)state;
    enum { N = 67 }; /* not a multiple of 8: the guard matters */
    trig r;
    trig_make(&r, decaer, N);
    float init[N * N], want[N * N];
    for (int i = 0; i < N * N; i++) {
        init[i] = (float)i * 0.37f - 100.0f;
        want[i] = init[i];
        for (int k = 0; k < 3; k++)
            want[i] = want[i] * 0.98f; /* IEEE f32, as the device computes it */
    }
    dt_upload(r.t, init, N, N, 1, 4);
    for (int k = 0; k < 3; k++) {
        stex_dispatch_options o = {.schedule = (stex_schedule)k, .seed = (uint64_t)k, .threads = 2};
        DT_OK(stex_dispatch(r.p, r.g, (N + 7) / 8, (N + 7) / 8, 1, &o));
    }
    float *got = (float *)dt_readback(r.t, N, N, 1, 4);
    for (int i = 0; i < N * N; i++)
        if (dt_f2u(got[i]) != dt_f2u(want[i]))
            fail_msg("texel %d: %a after three decaer dispatches, expected %a", i, got[i], want[i]);
    free(got);
    trig_free(&r);
}

/* var<workgroup> must read zero in every workgroup before anyone writes it. */
static void wg_memory_probe(const stex_invocation *inv)
{
    uint32_t lid = inv->local_invocation_index;
    const uint32_t *mem = inv->workgroup_memory;
    if (mem[lid] != 0 || mem[PER + lid] != 0)
        stex_atomicAdd(inv, 0, 0, 1); /* count dirty reads */
    stex_workgroup_store_u32(inv, lid, 0xdead0000u + lid);
    ((uint32_t *)inv->workgroup_memory)[PER + lid] = 7;
}

static void test_workgroup_memory_zeroed(void **state)
{
    (void)state;
    rig r;
    r.dev = dt_device();
    r.buf = dt_buffer(r.dev, 16, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e = dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER);
    for (int barriers = 0; barriers <= 1; barriers++) {
        stex_pipeline_desc pd = {.kernel = wg_memory_probe, .workgroup_size = {WX, WY, 1},
                                 .entries = &e, .entry_count = 1,
                                 .workgroup_memory_size = 8 * PER, .uses_barriers = barriers};
        DT_OK(stex_pipeline_create(r.dev, &pd, &r.p));
        DT_OK(stex_bind_group_create(r.p, (stex_bind_group_entry[]){{.binding = 0, .buffer = r.buf}},
                                     1, &r.g));
        for (int threads = 1; threads <= 2; threads++) {
            stex_dispatch_options o = {.threads = threads, .schedule = STEX_SCHEDULE_SHUFFLED};
            DT_OK(stex_dispatch(r.p, r.g, 16, 3, 1, &o));
            assert_int_equal(((uint32_t *)stex_buffer_data(r.buf))[0], 0);
        }
        stex_bind_group_destroy(r.g);
        stex_pipeline_destroy(r.p);
    }
    stex_buffer_destroy(r.buf);
    dt_release(r.dev);
}

static void test_schedule_names(void **state)
{
    (void)state;
    const char *names[] = {"in-order", "reversed", "shuffled"};
    for (int i = 0; i < 3; i++) {
        stex_schedule s;
        assert_true(stex_schedule_from_name(names[i], &s));
        assert_int_equal(s, i);
        assert_string_equal(stex_schedule_name(s), names[i]);
    }
    stex_visibility v;
    assert_true(stex_visibility_from_name("snapshot", &v));
    assert_int_equal(v, STEX_VISIBILITY_SNAPSHOT);
    stex_oob_load ol;
    assert_true(stex_oob_load_from_name("random-texel", &ol));
    assert_int_equal(ol, STEX_OOB_LOAD_RANDOM_TEXEL);
    assert_false(stex_schedule_from_name("random", &(stex_schedule){0}));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schedule_orders),
        cmocka_unit_test(test_schedule_orders_fibers),
        cmocka_unit_test(test_schedule_orders_workgroup_fn),
        cmocka_unit_test(test_seeded_single_thread_is_deterministic),
        cmocka_unit_test(test_next_dispatch_sees_every_write),
        cmocka_unit_test(test_workgroup_memory_zeroed),
        cmocka_unit_test(test_schedule_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
