/*
 * shader/tile.h: the whole-block helpers a kernel's workgroup function uses
 * (the Morton block's address, the race summary's marks of 64 accesses),
 * against the per-invocation builtins.
 *
 * The kernel adds 1 to its own texel of an r32float read_write texture;
 * invocation 0 of workgroup (1, 0) also writes texel (3, 2), which
 * invocation (3, 2) of workgroup (0, 0) reads and writes: one write-write
 * and one read-write race on one texel, whatever the order (WebGPU orders
 * nothing between invocations of a dispatch).  The workgroup function runs
 * workgroup (0, 0) as one block through the helpers when they allow it, the
 * reference pipeline calls the kernel per invocation: the texture and the
 * race report must be the same under every schedule and thread count -
 * including when the intruding write comes first and the block must fall
 * back to its invocations.
 */
#include "dtest.h"

#include "shader/tile.h"

enum { W = 24, H = 16 };

static void own(const stex_invocation *inv)
{
    int64_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    float v = stex_textureLoad_2d(inv, 0, x, y).v.f[0];
    stex_textureStore_2d(inv, 0, x, y, stex_f32x4(v + 1.0f, 0, 0, 0));
    if (inv->workgroup_id[0] == 1 && inv->workgroup_id[1] == 0 && inv->local_invocation_index == 0)
        stex_textureStore_2d(inv, 0, 3, 2, stex_f32x4(-7.0f, 0, 0, 0));
}

STEX__FLATTEN static void block(const stex_workgroup *w)
{
    const stex_invocation *inv = w->inv;
    const stex_fast_binding *b = stex__fast(inv, 0);
    uint32_t race = b->load_tag & STEX__TAG_RACE;
    bool plain = b->load_tag == (STEX__TILE_LOAD_TAG | race) &&
                 b->store_tag == (STEX__TILE_STORE_TAG(STEX_SCALAR_F32) | race) && b->raw32 &&
                 w->base[0] == 0 && w->base[1] == 0;
    float *p = plain ? (float *)(void *)stex__tile8_block(b, 0, 0, 4) : NULL;
    if (p && (!race || stex__tile8_race_mark(inv, b, 0, 0, STEX__RACE_READ | STEX__RACE_WRITE))) {
        for (uint32_t ly = 0; ly < 8; ly++)
            for (uint32_t lx = 0; lx < 8; lx++)
                p[stex__tile_index(lx, ly)] += 1.0f;
        return;
    }
    stex__workgroup_loop(w, own);
}

static int blocks_run; /* workgroup (0, 0) ran as a block at least once */

STEX__FLATTEN static void block_counted(const stex_workgroup *w)
{
    const stex_fast_binding *b = stex__fast(w->inv, 0);
    if (w->base[0] == 0 && w->base[1] == 0 && stex__tile8_block(b, 0, 0, 4) &&
        !(b->load_tag & STEX__TAG_RACE))
        blocks_run++;
    block(w);
}

/* Runs the kernel (workgroup function or not); returns the texels and, with
 * races, the report. */
static uint8_t *run(stex_device *d, stex_workgroup_fn wg, const stex_dispatch_options *base,
                    bool races, char **report, uint64_t count[2])
{
    stex_texture *t = dt_texture(d, STEX_TEXTURE_DIMENSION_2D, W, H, 1, STEX_FORMAT_R32FLOAT, 1);
    float in[W * H];
    for (int i = 0; i < W * H; i++)
        in[i] = (float)i * 0.25f - 3.0f;
    dt_upload(t, in, W, H, 1, 4);
    stex_texture_view *v = dt_view(t, NULL);
    stex_layout_entry e = dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT,
                                           STEX_VIEW_DIMENSION_2D);
    stex_pipeline_desc pd = {.kernel = own, .workgroup = wg, .workgroup_size = {8, 8, 1},
                             .entries = &e, .entry_count = 1};
    stex_pipeline *p;
    stex_bind_group *g;
    DT_OK(stex_pipeline_create(d, &pd, &p));
    stex_bind_group_entry be = {.binding = 0, .view = v};
    DT_OK(stex_bind_group_create(p, &be, 1, &g));
    stex_race_detector *rd = NULL;
    if (races)
        DT_OK(stex_race_detector_create(NULL, &rd));
    stex_dispatch_options o = *base;
    o.races = rd;
    for (int i = 0; i < 2; i++) /* the second dispatch finds the first one's race words */
        DT_OK(stex_dispatch(p, g, W / 8, H / 8, 1, &o));
    *report = rd ? stex_race_report_json_string(rd) : NULL;
    if (rd) {
        count[0] = stex_race_count(rd, STEX_RACE_WRITE_WRITE);
        count[1] = stex_race_count(rd, STEX_RACE_READ_WRITE);
        stex_race_detector_destroy(rd);
    }
    uint8_t *out = dt_readback(t, W, H, 1, 4);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    return out;
}

static void test_block_equals_invocations(void **state)
{
    (void)state;
    stex_device *d = dt_device();
    static const struct { stex_schedule s; uint64_t seed; int threads; } sched[] = {
        {STEX_SCHEDULE_IN_ORDER, 0, 1}, {STEX_SCHEDULE_IN_ORDER, 0, 2},
        {STEX_SCHEDULE_REVERSED, 0, 1}, {STEX_SCHEDULE_REVERSED, 0, 2},
        {STEX_SCHEDULE_SHUFFLED, 5, 1}, {STEX_SCHEDULE_SHUFFLED, 9, 2}};
    for (size_t i = 0; i < sizeof sched / sizeof sched[0]; i++)
        for (int races = 0; races <= 1; races++) {
            stex_dispatch_options o = {.schedule = sched[i].s, .seed = sched[i].seed,
                                       .threads = sched[i].threads};
            char *r_block, *r_ref;
            uint64_t c_block[2] = {0, 0}, c_ref[2] = {0, 0};
            uint8_t *a = run(d, block_counted, &o, races, &r_block, c_block);
            uint8_t *b = run(d, NULL, &o, races, &r_ref, c_ref);
            if (sched[i].threads > 1) { /* the racing texel's last writer is the OS's pick */
                memset(a + 4 * (2 * W + 3), 0, 4);
                memset(b + 4 * (2 * W + 3), 0, 4);
            }
            if (memcmp(a, b, (size_t)W * H * 4))
                fail_msg("%s, %d threads, races %d: texels differ", stex_schedule_name(sched[i].s),
                         sched[i].threads, races);
            if (races) {
                /* two dispatches, each with one write-write and one read-write race on (3, 2) */
                assert_int_equal(c_ref[0], 2);
                assert_int_equal(c_ref[1], 2);
                assert_int_equal(c_block[0], c_ref[0]);
                assert_int_equal(c_block[1], c_ref[1]);
                if (strcmp(r_block, r_ref))
                    fail_msg("%s, %d threads: race reports differ:\n%s\n---\n%s",
                             stex_schedule_name(sched[i].s), sched[i].threads, r_block, r_ref);
            }
            free(a), free(b), free(r_block), free(r_ref);
        }
    assert_true(blocks_run > 0); /* the block path did run */
    dt_release(d);
}

/* The block's Morton positions (the layout layer's stex_morton2), and the
 * row-order copies in and out of a block. */
static void test_block_layout(void **state)
{
    (void)state;
    for (uint32_t ly = 0; ly < 8; ly++)
        for (uint32_t lx = 0; lx < 8; lx++)
            assert_int_equal(stex__tile_index(lx, ly), stex_morton2(lx, ly));
    uint32_t rows[64], block[64], back[64];
    for (uint32_t i = 0; i < 64; i++)
        rows[i] = 0x01000000u * i + 0x5a5a5au;
    stex__tile8_put32((uint8_t *)block, rows);
    for (uint32_t ly = 0; ly < 8; ly++)
        for (uint32_t lx = 0; lx < 8; lx++)
            assert_int_equal(block[stex_morton2(lx, ly)], rows[8 * ly + lx]);
    stex__tile8_get32(back, (const uint8_t *)block);
    assert_memory_equal(back, rows, sizeof rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_block_layout),
        cmocka_unit_test(test_block_equals_invocations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
