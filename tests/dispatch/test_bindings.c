/* Binding numbers: the engine keeps bindings 0..7 inside each thread's state
 * and the rest in a table, and marks race-tracked bindings with a tag bit.
 * A kernel mixing near and far bindings (3, 9, 12, 300) must give the bytes
 * an independent computation gives (the converter, IEEE f32), under every
 * way of running it: kernel or workgroup function, race detection off or
 * on, 1 or 2 threads, in-order or shuffled; races and shader errors on a
 * far binding must name it; the race words kept between dispatches must not
 * carry one dispatch's accesses into the next, released or not. */
#include "dtest.h"
#include "race/race_internal.h" /* race_summary_key_limit */

enum { N = 37, A = 3, B = 9, C = 12, D = 300 };

/* a = A[x,y] (r32float read_write), d = D[x,y] (r32float read-only):
 * A = a + d, B = (a, d, 0.5, 1) in rgba8unorm, C[y*N+x] = a * d. */
static void mix(const stex_invocation *inv)
{
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    stex_uvec2 tam = stex_textureDimensions_2d(inv, B);
    if (x >= tam.x || y >= tam.y)
        return;
    float a = stex_textureLoad_2d(inv, A, x, y).v.f[0];
    float d = stex_textureLoad_2d(inv, D, x, y).v.f[0];
    stex_textureStore_2d(inv, A, x, y, stex_f32x4(a + d, 0, 0, 0));
    stex_textureStore_2d(inv, B, x, y, stex_f32x4(a, d, 0.5f, 1.0f));
    stex_buffer_store_f32(inv, C, (uint64_t)y * N + x, a * d);
}
STEX_WORKGROUP_FN(mix_workgroup, mix)

/* every invocation writes texel (0, 0) of B and word 0 of C */
static void clash(const stex_invocation *inv)
{
    stex_textureStore_2d(inv, B, 0, 0, stex_f32x4(0.25f, 0, 0, 1));
    stex_buffer_store_u32(inv, C, 0, inv->local_invocation_index);
}
STEX_WORKGROUP_FN(clash_workgroup, clash)

/* each invocation writes its own texel of B, and every one texel (0, 0):
 * exactly one racing location, and a run of locations that the scan must
 * screen word by word (it holds a shared location) */
static void mark(const stex_invocation *inv)
{
    uint32_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    if (x >= N || y >= N)
        return;
    stex_textureStore_2d(inv, B, x, y, stex_f32x4(1.0f, 0, 0, 1));
    stex_textureStore_2d(inv, B, 0, 0, stex_f32x4(0.5f, 0, 0, 1));
}
STEX_WORKGROUP_FN(mark_workgroup, mark)

/* vec4<u32> into rgba8unorm: WGSL rejects it at shader creation */
static void wrong_type(const stex_invocation *inv)
{
    stex_textureStore_2d(inv, B, 0, 0, stex_u32x4(1, 2, 3, 4));
}

typedef struct rig {
    stex_device *dev;
    stex_texture *t[3]; /* A, B, D */
    stex_texture_view *v[3];
    stex_buffer *buf;
    stex_pipeline *p;
    stex_bind_group *g;
} rig;

static void rig_make(rig *r, stex_kernel_fn k, stex_workgroup_fn wk)
{
    r->dev = dt_device();
    static const stex_format F[3] = {STEX_FORMAT_R32FLOAT, STEX_FORMAT_RGBA8UNORM,
                                     STEX_FORMAT_R32FLOAT};
    for (int i = 0; i < 3; i++) {
        r->t[i] = dt_texture(r->dev, 0, N, N, 1, F[i], 1);
        r->v[i] = dt_view(r->t[i], NULL);
    }
    r->buf = dt_buffer(r->dev, 4 * N * N, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e[] = {
        dt_storage_entry(A, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0),
        dt_storage_entry(B, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM, 0),
        dt_buffer_entry(C, STEX_BINDING_STORAGE_BUFFER),
        dt_storage_entry(D, STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32FLOAT, 0),
    };
    stex_pipeline_desc pd = {.kernel = k, .workgroup = wk, .workgroup_size = {8, 8, 1},
                             .entries = e, .entry_count = 4};
    DT_OK(stex_pipeline_create(r->dev, &pd, &r->p));
    stex_bind_group_entry be[] = {{.binding = A, .view = r->v[0]},
                                  {.binding = B, .view = r->v[1]},
                                  {.binding = C, .buffer = r->buf},
                                  {.binding = D, .view = r->v[2]}};
    DT_OK(stex_bind_group_create(r->p, be, 4, &r->g));
}

static void rig_free(rig *r)
{
    stex_bind_group_destroy(r->g);
    stex_pipeline_destroy(r->p);
    for (int i = 0; i < 3; i++) {
        stex_texture_view_destroy(r->v[i]);
        stex_texture_destroy(r->t[i]);
    }
    stex_buffer_destroy(r->buf);
    dt_release(r->dev);
}

static float input_a(int i) { return (float)i * 0.0137f - 3.0f; }
static float input_d(int i) { return 1.0f / (float)(i + 3) - (i % 7 == 0 ? 0.5f : 0.0f); }

static void upload_inputs(rig *r)
{
    float a[N * N], d[N * N];
    for (int i = 0; i < N * N; i++)
        a[i] = input_a(i), d[i] = input_d(i);
    dt_upload(r->t[0], a, N, N, 1, 4);
    dt_upload(r->t[2], d, N, N, 1, 4);
    memset(stex_buffer_data(r->buf), 0, 4 * N * N);
}

static void check_outputs(rig *r, const char *how)
{
    const stex_profile *p = stex_device_profile(r->dev);
    float *a = (float *)dt_readback(r->t[0], N, N, 1, 4);
    uint8_t *b = dt_readback(r->t[1], N, N, 1, 4);
    const float *c = (const float *)stex_buffer_data(r->buf);
    for (int i = 0; i < N * N; i++) {
        float ai = input_a(i), di = input_d(i);
        stex_vec4 v = {.f = {ai, di, 0.5f, 1.0f}};
        uint8_t want[16];
        DT_OK(stex_encode_texel(p, STEX_FORMAT_RGBA8UNORM, &v, want));
        if (dt_f2u(a[i]) != dt_f2u(ai + di))
            fail_msg("%s: @binding(3) texel %d = %a, expected %a", how, i, a[i], ai + di);
        if (memcmp(b + 4 * i, want, 4))
            fail_msg("%s: @binding(9) texel %d = %02x%02x%02x%02x, converter %02x%02x%02x%02x",
                     how, i, b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3], want[0],
                     want[1], want[2], want[3]);
        if (dt_f2u(c[i]) != dt_f2u(ai * di))
            fail_msg("%s: @binding(12) word %d = %a, expected %a", how, i, c[i], ai * di);
    }
    free(a);
    free(b);
}

static void test_far_bindings_every_way(void **state)
{
    (void)state;
    for (int wg = 0; wg < 2; wg++) {
        rig r;
        rig_make(&r, mix, wg ? mix_workgroup : NULL);
        for (int races = 0; races < 2; races++)
            for (int threads = 1; threads <= 2; threads++)
                for (int s = 0; s < 3; s += 2) {
                    stex_race_detector *rd = NULL;
                    if (races)
                        DT_OK(stex_race_detector_create(NULL, &rd));
                    upload_inputs(&r);
                    stex_dispatch_options o = {.schedule = (stex_schedule)s, .seed = 11,
                                               .threads = threads, .races = rd};
                    DT_OK(stex_dispatch(r.p, r.g, (N + 7) / 8, (N + 7) / 8, 1, &o));
                    char how[96];
                    snprintf(how, sizeof how, "%s, races %s, %d thread(s), %s",
                             wg ? "workgroup function" : "kernel", races ? "on" : "off",
                             threads, stex_schedule_name((stex_schedule)s));
                    check_outputs(&r, how);
                    if (rd && stex_race_count(rd, STEX_RACE_ANY))
                        fail_msg("%s: %llu races reported in a race-free kernel", how,
                                 (unsigned long long)stex_race_count(rd, STEX_RACE_ANY));
                    stex_race_detector_destroy(rd);
                }
        rig_free(&r);
    }
}

/* the inline race path of far bindings: write-write on @binding(9) and 12 */
static void test_far_binding_races_named(void **state)
{
    (void)state;
    for (int wg = 0; wg < 2; wg++)
        for (int threads = 1; threads <= 2; threads++) {
            rig r;
            rig_make(&r, clash, wg ? clash_workgroup : NULL);
            stex_race_detector *rd;
            DT_OK(stex_race_detector_create(NULL, &rd));
            stex_dispatch_options o = {.threads = threads, .races = rd};
            DT_OK(stex_dispatch(r.p, r.g, 2, 2, 1, &o));
            const stex_race_binding_count *bc;
            size_t n = stex_race_binding_counts(rd, &bc);
            bool tex = false, buf = false;
            for (size_t i = 0; i < n; i++) {
                tex |= bc[i].binding == B && bc[i].memory == STEX_RACE_MEMORY_TEXTURE
                       && bc[i].count[STEX_RACE_WRITE_WRITE] == 1;
                buf |= bc[i].binding == C && bc[i].memory == STEX_RACE_MEMORY_BUFFER
                       && bc[i].count[STEX_RACE_WRITE_WRITE] == 1;
            }
            if (!tex || !buf) {
                char *txt = stex_race_report_text_string(rd);
                fail_msg("%s, %d thread(s): expected one write-write race on @binding(9) texel "
                         "(0,0) and one on @binding(12) word 0; report:\n%s",
                         wg ? "workgroup function" : "kernel", threads, txt ? txt : "?");
            }
            stex_race_detector_destroy(rd);
            rig_free(&r);
        }
}

static void test_far_binding_shader_error(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, wrong_type, NULL);
    stex_status st = stex_dispatch(r.p, r.g, 1, 1, 1, NULL);
    assert_int_equal(st, STEX_SHADER_ERROR);
    if (!strstr(stex_last_error(), "@binding(9)"))
        fail_msg("the error does not name @binding(9): %s", stex_last_error());
    rig_free(&r);
}

/* The words kept between dispatches, released and mapped again, must not
 * carry one dispatch's accesses into the next: the same texels are written
 * under two workgroup grids in turn (6x5, then 5x5), so a stale word would
 * hold another invocation's key and the scan would report more races than
 * the one at texel (0, 0).  The words are not cleared between dispatches
 * (keys go on numbering from the last dispatch's); rounds 4.. lower the
 * numbering's limit so that it restarts (clearing the words) every few
 * dispatches, and the race found must be the same. */
static void test_words_kept_between_dispatches(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, mark, mark_workgroup);
    for (int round = 0; round < 12; round++) {
        if (round == 4)
            race_summary_key_limit(3 * 6 * 5 * 64 + 7); /* a restart every fourth dispatch */
        if (round == 8)
            race_summary_key_limit(2 * 6 * 5 * 64 - 1); /* every third */
        for (uint32_t gx = 6; gx >= 5; gx--) {
            stex_race_detector *rd;
            DT_OK(stex_race_detector_create(NULL, &rd));
            stex_dispatch_options o = {.threads = 1 + round % 2, .races = rd};
            DT_OK(stex_dispatch(r.p, r.g, gx, 5, 1, &o));
            if (stex_race_count(rd, STEX_RACE_ANY) != 1) {
                char *txt = stex_race_report_text_string(rd);
                fail_msg("round %d, %ux5 workgroups: %llu racing locations, expected 1 "
                         "(texel (0, 0)):\n%s", round, gx,
                         (unsigned long long)stex_race_count(rd, STEX_RACE_ANY), txt ? txt : "?");
            }
            stex_race_detector_destroy(rd);
            if (round == 1 && gx == 6)
                stex_race_release_memory();
        }
    }
    race_summary_key_limit(0);
    rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_bindings_every_way),
        cmocka_unit_test(test_far_binding_races_named),
        cmocka_unit_test(test_far_binding_shader_error),
        cmocka_unit_test(test_words_kept_between_dispatches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
