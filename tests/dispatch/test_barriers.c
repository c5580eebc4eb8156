/* Barriers and visibility.
 *  - a workgroup-shared tree reduction gives the right sums under every
 *    schedule with its workgroupBarriers, and is reported racy without them;
 *  - the WebGPU CTS's textureBarrier mirror copy (write own texel, barrier,
 *    read the mirrored texel of the workgroup) copies exactly with the
 *    barrier, under every schedule and both visibility modes, and is racy
 *    (and wrong under some schedule) without it;
 *  - non-uniform barriers are shader errors;
 *  - snapshot and immediate visibility differ on a racy kernel and agree on
 *    race-free ones. */
#include "dtest.h"

enum { RW = 64, RNWG = 5 };

typedef struct red_params {
    bool barriers;
} red_params;

static void reduce(const stex_invocation *inv)
{
    const red_params *p = inv->params;
    uint32_t lid = inv->local_invocation_index;
    stex_workgroup_store_u32(inv, lid, inv->global_invocation_id[0] * 3 + 1);
    if (p->barriers)
        stex_workgroupBarrier(inv);
    for (uint32_t s = RW / 2; s > 0; s /= 2) {
        if (lid < s)
            stex_workgroup_store_u32(inv, lid, stex_workgroup_load_u32(inv, lid) +
                                                   stex_workgroup_load_u32(inv, lid + s));
        if (p->barriers)
            stex_workgroupBarrier(inv);
    }
    if (lid == 0)
        stex_buffer_store_u32(inv, 0, inv->workgroup_id[0], stex_workgroup_load_u32(inv, 0));
}

static void test_reduction(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_buffer *out = dt_buffer(dev, 4 * RNWG, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e = dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER);
    for (int barriers = 1; barriers >= 0; barriers--) {
        stex_pipeline_desc pd = {.kernel = reduce, .workgroup_size = {RW, 1, 1}, .entries = &e,
                                 .entry_count = 1, .workgroup_memory_size = 4 * RW,
                                 .uses_barriers = barriers};
        stex_pipeline *p;
        stex_bind_group *g;
        DT_OK(stex_pipeline_create(dev, &pd, &p));
        DT_OK(stex_bind_group_create(p, (stex_bind_group_entry[]){{.binding = 0, .buffer = out}}, 1, &g));
        red_params rp = {barriers};
        int wrong = 0;
        for (int s = 0; s < 3; s++)
            for (int threads = 1; threads <= 2; threads++) {
                memset(stex_buffer_data(out), 0, 4 * RNWG);
                stex_dispatch_options o = {.schedule = (stex_schedule)s, .seed = 77,
                                           .threads = threads, .params = &rp};
                DT_OK(stex_dispatch(p, g, RNWG, 1, 1, &o));
                for (uint32_t w = 0; w < RNWG; w++) {
                    uint32_t want = 0;
                    for (uint32_t i = 0; i < RW; i++)
                        want += (w * RW + i) * 3 + 1;
                    uint32_t got = ((uint32_t *)stex_buffer_data(out))[w];
                    if (barriers && got != want)
                        fail_msg("reduction, %s, %d threads: workgroup %u sums to %u, expected %u",
                                 stex_schedule_name((stex_schedule)s), threads, w, got, want);
                    wrong += got != want;
                }
            }
        if (!barriers)
            assert_true(wrong > 0); /* the reversed order reads partial sums not yet written */
        stex_race_detector *rd;
        DT_OK(stex_race_detector_create(NULL, &rd));
        stex_dispatch_options o = {.races = rd, .params = &rp};
        DT_OK(stex_dispatch(p, g, RNWG, 1, 1, &o));
        if (barriers)
            assert_int_equal(stex_race_count(rd, STEX_RACE_ANY), 0);
        else {
            assert_true(stex_race_count(rd, STEX_RACE_READ_WRITE) > 0);
            const stex_race *r = stex_race_get(rd, 0);
            assert_int_equal(r->memory, STEX_RACE_MEMORY_WORKGROUP);
            assert_true(r->same_workgroup);
        }
        stex_race_detector_destroy(rd);
        stex_bind_group_destroy(g);
        stex_pipeline_destroy(p);
    }
    stex_buffer_destroy(out);
    dt_release(dev);
}

/* ---- textureBarrier mirror copy ---- */

enum { MW = 8, MH = 4, MNX = 3, MNY = 2, MTW = MW * MNX, MTH = MH * MNY };

static void mirror(const stex_invocation *inv)
{
    const red_params *p = inv->params;
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    stex_textureStore_2d(inv, 0, x, y, stex_u32x4(x * 100 + y + 1, 0, 0, 0));
    if (p->barriers)
        stex_textureBarrier(inv);
    uint32_t mx = inv->workgroup_id[0] * MW + (MW - 1 - inv->local_invocation_id[0]);
    uint32_t my = inv->workgroup_id[1] * MH + (MH - 1 - inv->local_invocation_id[1]);
    stex_textureStore_2d(inv, 1, x, y, stex_textureLoad_2d(inv, 0, mx, my));
}

static void test_texture_barrier_mirror(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_texture *tin = dt_texture(dev, 0, MTW, MTH, 1, STEX_FORMAT_R32UINT, 1);
    stex_texture *tout = dt_texture(dev, 0, MTW, MTH, 1, STEX_FORMAT_R32UINT, 1);
    stex_texture_view *vin = dt_view(tin, NULL), *vout = dt_view(tout, NULL);
    stex_layout_entry e[2] = {dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32UINT, 0),
                              dt_storage_entry(1, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32UINT, 0)};
    static const uint32_t zeros[MTW * MTH];
    for (int barriers = 1; barriers >= 0; barriers--) {
        stex_pipeline_desc pd = {.kernel = mirror, .workgroup_size = {MW, MH, 1}, .entries = e,
                                 .entry_count = 2, .uses_barriers = true};
        stex_pipeline *p;
        stex_bind_group *g;
        DT_OK(stex_pipeline_create(dev, &pd, &p));
        stex_bind_group_entry be[2] = {{.binding = 0, .view = vin}, {.binding = 1, .view = vout}};
        DT_OK(stex_bind_group_create(p, be, 2, &g));
        red_params rp = {barriers};
        int wrong_runs = 0;
        for (int s = 0; s < 3; s++)
            for (int vis = 0; vis <= 1; vis++)
                for (int threads = 1; threads <= 2; threads++) {
                    dt_upload(tin, zeros, MTW, MTH, 1, 4);
                    stex_dispatch_options o = {.schedule = (stex_schedule)s, .seed = 3,
                                               .threads = threads, .params = &rp,
                                               .visibility = (stex_visibility)vis};
                    DT_OK(stex_dispatch(p, g, MNX, MNY, 1, &o));
                    uint32_t *got = (uint32_t *)dt_readback(tout, MTW, MTH, 1, 4);
                    int wrong = 0;
                    for (uint32_t y = 0; y < MTH; y++)
                        for (uint32_t x = 0; x < MTW; x++) {
                            uint32_t mx = x / MW * MW + (MW - 1 - x % MW);
                            uint32_t my = y / MH * MH + (MH - 1 - y % MH);
                            uint32_t want = mx * 100 + my + 1;
                            if (barriers && got[y * MTW + x] != want)
                                fail_msg("mirror copy, %s, %s visibility, %d threads: texel (%u, %u) "
                                         "= %u, expected %u", stex_schedule_name((stex_schedule)s),
                                         stex_visibility_name((stex_visibility)vis), threads, x, y,
                                         got[y * MTW + x], want);
                            wrong += got[y * MTW + x] != want;
                        }
                    wrong_runs += wrong > 0;
                    free(got);
                }
        if (!barriers)
            assert_true(wrong_runs > 0);
        stex_race_detector *rd;
        DT_OK(stex_race_detector_create(NULL, &rd));
        stex_dispatch_options o = {.races = rd, .params = &rp};
        DT_OK(stex_dispatch(p, g, MNX, MNY, 1, &o));
        assert_int_equal(stex_race_count(rd, STEX_RACE_ANY), barriers ? 0 : MTW * MTH);
        stex_race_detector_destroy(rd);
        stex_bind_group_destroy(g);
        stex_pipeline_destroy(p);
    }
    stex_texture_view_destroy(vin);
    stex_texture_view_destroy(vout);
    stex_texture_destroy(tin);
    stex_texture_destroy(tout);
    dt_release(dev);
}

/* ---- uniformity ---- */

static void half_return(const stex_invocation *inv)
{
    if (inv->local_invocation_index % 2)
        return;
    stex_workgroupBarrier(inv);
}

static void mixed_kinds(const stex_invocation *inv)
{
    if (inv->local_invocation_index % 2)
        stex_storageBarrier(inv);
    else
        stex_workgroupBarrier(inv);
}

static void test_non_uniform_barriers(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_kernel_fn k[2] = {half_return, mixed_kinds};
    for (int i = 0; i < 2; i++) {
        stex_pipeline_desc pd = {.kernel = k[i], .workgroup_size = {4, 1, 1}, .uses_barriers = true};
        stex_pipeline *p;
        stex_bind_group *g;
        DT_OK(stex_pipeline_create(dev, &pd, &p));
        DT_OK(stex_bind_group_create(p, NULL, 0, &g));
        for (int s = 0; s < 3; s++) {
            stex_dispatch_options o = {.schedule = (stex_schedule)s, .threads = 2};
            assert_int_equal(stex_dispatch(p, g, 3, 1, 1, &o), STEX_SHADER_ERROR);
            assert_non_null(strstr(stex_last_error(), "uniform control flow"));
        }
        stex_bind_group_destroy(g);
        stex_pipeline_destroy(p);
    }
    dt_release(dev);
}

/* ---- visibility ---- */

enum { VN = 16 };

/* racy: copy the texel one workgroup to the right into my texel */
static void shift_in_place(const stex_invocation *inv)
{
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    stex_value v = stex_textureLoad_2d(inv, 0, (x + 4) % VN, y);
    stex_textureStore_2d(inv, 0, x, y, stex_u32x4(v.v.u[0] + 1, 0, 0, 0));
}

/* race-free: in place, own texel; then a ping-pong copy */
static void own_texel(const stex_invocation *inv)
{
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    stex_value v = stex_textureLoad_2d(inv, 0, x, y);
    stex_textureStore_2d(inv, 0, x, y, stex_u32x4(v.v.u[0] * 3 + 1, 0, 0, 0));
    stex_value w = stex_textureLoad_2d(inv, 1, (x + 4) % VN, y);
    stex_textureStore_2d(inv, 2, x, y, stex_u32x4(w.v.u[0] + 1, 0, 0, 0));
}

static uint32_t *run_vis(stex_device *dev, stex_kernel_fn k, stex_visibility vis, stex_schedule s,
                         int threads)
{
    stex_texture *t[3];
    stex_texture_view *v[3];
    uint32_t init[VN * VN];
    for (int i = 0; i < VN * VN; i++)
        init[i] = (uint32_t)i * 10;
    for (int i = 0; i < 3; i++) {
        t[i] = dt_texture(dev, 0, VN, VN, 1, STEX_FORMAT_R32UINT, 1);
        dt_upload(t[i], init, VN, VN, 1, 4);
        v[i] = dt_view(t[i], NULL);
    }
    stex_layout_entry e[3] = {dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32UINT, 0),
                              dt_storage_entry(1, STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32UINT, 0),
                              dt_storage_entry(2, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_R32UINT, 0)};
    stex_pipeline_desc pd = {.kernel = k, .workgroup_size = {4, 4, 1}, .entries = e, .entry_count = 3};
    stex_pipeline *p;
    stex_bind_group *g;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    stex_bind_group_entry be[3] = {{.binding = 0, .view = v[0]}, {.binding = 1, .view = v[1]},
                                   {.binding = 2, .view = v[2]}};
    DT_OK(stex_bind_group_create(p, be, 3, &g));
    stex_dispatch_options o = {.visibility = vis, .schedule = s, .seed = 9, .threads = threads};
    DT_OK(stex_dispatch(p, g, VN / 4, VN / 4, 1, &o));
    uint32_t *out = malloc(2 * VN * VN * 4);
    uint8_t *a = dt_readback(t[0], VN, VN, 1, 4), *b = dt_readback(t[2], VN, VN, 1, 4);
    memcpy(out, a, VN * VN * 4);
    memcpy(out + VN * VN, b, VN * VN * 4);
    free(a);
    free(b);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    for (int i = 0; i < 3; i++) {
        stex_texture_view_destroy(v[i]);
        stex_texture_destroy(t[i]);
    }
    return out;
}

static void test_visibility_modes(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    /* snapshot: every read sees the dispatch's start, whatever the order */
    for (int s = 0; s < 3; s++) {
        uint32_t *snap = run_vis(dev, shift_in_place, STEX_VISIBILITY_SNAPSHOT, (stex_schedule)s, 2);
        for (uint32_t y = 0; y < VN; y++)
            for (uint32_t x = 0; x < VN; x++) {
                uint32_t want = (y * VN + (x + 4) % VN) * 10 + 1;
                if (snap[y * VN + x] != want)
                    fail_msg("snapshot, %s: texel (%u, %u) = %u, expected %u (initial value of "
                             "(%u, %u) + 1)", stex_schedule_name((stex_schedule)s), x, y,
                             snap[y * VN + x], want, (x + 4) % VN, y);
            }
        free(snap);
    }
    /* immediate, reversed, one thread: the workgroup to the right ran first, so
     * each one sees its neighbour's new value: (12,0) read (0,0) = 0 (not yet
     * written) and wrote 1, (8,0) wrote 2, (4,0) 3, (0,0) 4 */
    uint32_t *imm = run_vis(dev, shift_in_place, STEX_VISIBILITY_IMMEDIATE, STEX_SCHEDULE_REVERSED, 1);
    uint32_t *snap = run_vis(dev, shift_in_place, STEX_VISIBILITY_SNAPSHOT, STEX_SCHEDULE_REVERSED, 1);
    assert_true(memcmp(imm, snap, VN * VN * 4) != 0);
    assert_int_equal(imm[0], 4);
    assert_int_equal(snap[0], 4 * 10 + 1);
    free(imm);
    free(snap);
    /* race-free kernels: both modes agree, byte for byte */
    for (int s = 0; s < 3; s++) {
        uint32_t *a = run_vis(dev, own_texel, STEX_VISIBILITY_IMMEDIATE, (stex_schedule)s, 2);
        uint32_t *b = run_vis(dev, own_texel, STEX_VISIBILITY_SNAPSHOT, (stex_schedule)s, 2);
        assert_memory_equal(a, b, 2 * VN * VN * 4);
        for (int i = 0; i < VN * VN; i++)
            assert_int_equal(a[i], (uint32_t)i * 10 * 3 + 1);
        free(a);
        free(b);
    }
    dt_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reduction),
        cmocka_unit_test(test_texture_barrier_mirror),
        cmocka_unit_test(test_non_uniform_barriers),
        cmocka_unit_test(test_visibility_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
