/* The store observer (stex_dispatch_options.store_observer): every in-bounds
 * textureStore seen exactly once with its vec4 before conversion, no
 * out-of-bounds store, view-relative layer; the bytes stored are the ones the
 * fast path (no observer) stores; nothing seen after a shader error.  Run
 * under every engine mode that changes the store path. */
#include <stdatomic.h>

#include "dtest.h"

/* A 2-layer view (layers 1..2 of a 4-layer texture) of W x H; the grid
 * covers x = -1..W, y = 0..H+1 and layer 0..2, so some stores fall outside
 * on every axis. */
enum { W = 10, H = 6, LAYERS = 4, VIEW_BASE = 1, VIEW_LAYERS = 2, WG = 4,
       NX = 3, NY = 2, NZ = 3 };

/* The value a texel is stored with: exact in binary, and partly outside
 * [0, 1] so that the conversion changes it (clamping). */
static stex_vec4 value_of(int64_t x, int64_t y, int64_t layer)
{
    stex_vec4 v = {.f = {(float)x * 0.125f - 0.25f, (float)y * 0.3125f,
                         (float)layer * 0.5f + 0.25f, 1.5f}};
    return v;
}

static void store_grid(const stex_invocation *inv)
{
    int64_t x = (int64_t)inv->global_invocation_id[0] - 1, y = inv->global_invocation_id[1];
    int64_t layer = inv->global_invocation_id[2];
    stex_vec4 v = value_of(x, y, layer);
    stex_textureStore_2d_array(inv, 0, x, y, layer, stex_f32x4(v.f[0], v.f[1], v.f[2], v.f[3]));
}

/* Invocation 0 of workgroup 0 breaks a WGSL rule (a vec4<u32> into an f32
 * texture) before anything is stored; the rest try to store. */
static void error_first(const stex_invocation *inv)
{
    bool first = !inv->local_invocation_index && !inv->workgroup_id[0] && !inv->workgroup_id[1]
                 && !inv->workgroup_id[2];
    if (first)
        stex_textureStore_2d_array(inv, 0, 0, 0, 0, stex_u32x4(1, 2, 3, 4));
    else
        store_grid(inv);
}

typedef struct seen {
    const stex_texture_view *view;
    atomic_uint count[VIEW_LAYERS][H][W];
    stex_vec4 value[VIEW_LAYERS][H][W];
    atomic_uint outside, wrong_view, total;
} seen;

static void observe(void *user, const stex_texture_view *view, int64_t x, int64_t y, int64_t z,
                    const stex_vec4 *value)
{
    seen *s = user;
    atomic_fetch_add(&s->total, 1);
    if (view != s->view)
        atomic_fetch_add(&s->wrong_view, 1);
    if (x < 0 || x >= W || y < 0 || y >= H || z < 0 || z >= VIEW_LAYERS) {
        atomic_fetch_add(&s->outside, 1);
        return;
    }
    atomic_fetch_add(&s->count[z][y][x], 1);
    s->value[z][y][x] = *value;
}

typedef struct mode {
    const char *name;
    stex_schedule schedule;
    uint64_t seed;
    int threads;
    bool barriers;      /* fibers instead of the plain loop */
    bool races;         /* race detector on */
    stex_visibility visibility;
} mode;

static const mode modes[] = {
    {"in-order, 1 thread", STEX_SCHEDULE_IN_ORDER, 0, 1, false, false, STEX_VISIBILITY_IMMEDIATE},
    {"shuffled, 2 threads", STEX_SCHEDULE_SHUFFLED, 5, 2, false, false, STEX_VISIBILITY_IMMEDIATE},
    {"reversed, fibers", STEX_SCHEDULE_REVERSED, 0, 1, true, false, STEX_VISIBILITY_IMMEDIATE},
    {"in-order, race detector, 2 threads", STEX_SCHEDULE_IN_ORDER, 0, 2, false, true,
     STEX_VISIBILITY_IMMEDIATE},
    {"shuffled, snapshot visibility", STEX_SCHEDULE_SHUFFLED, 9, 1, false, false,
     STEX_VISIBILITY_SNAPSHOT},
};

typedef struct rig {
    stex_device *dev;
    stex_texture *tex;
    stex_texture_view *view;
    stex_pipeline *p;
    stex_bind_group *g;
} rig;

static void rig_make(rig *r, stex_kernel_fn k, bool barriers)
{
    r->dev = dt_device();
    r->tex = dt_texture(r->dev, STEX_TEXTURE_DIMENSION_2D, W, H, LAYERS, STEX_FORMAT_RGBA8UNORM, 1);
    stex_view_desc vd = {.dimension = STEX_VIEW_DIMENSION_2D_ARRAY,
                         .base_array_layer = VIEW_BASE, .array_layer_count = VIEW_LAYERS};
    r->view = dt_view(r->tex, &vd);
    stex_layout_entry e = dt_storage_entry(0, STEX_ACCESS_WRITE_ONLY, STEX_FORMAT_RGBA8UNORM,
                                           STEX_VIEW_DIMENSION_2D_ARRAY);
    stex_pipeline_desc pd = {.kernel = k, .workgroup_size = {WG, WG, 1}, .entries = &e,
                             .entry_count = 1, .uses_barriers = barriers};
    DT_OK(stex_pipeline_create(r->dev, &pd, &r->p));
    DT_OK(stex_bind_group_create(r->p, (stex_bind_group_entry[]){{.binding = 0, .view = r->view}},
                                 1, &r->g));
}

static void rig_free(rig *r)
{
    stex_bind_group_destroy(r->g);
    stex_pipeline_destroy(r->p);
    stex_texture_view_destroy(r->view);
    stex_texture_destroy(r->tex);
    dt_release(r->dev);
}

static void check_mode(const mode *m, const stex_profile *prof)
{
    rig r;
    rig_make(&r, store_grid, m->barriers);
    /* the bytes the fast path stores, no observer */
    stex_dispatch_options o = {.schedule = m->schedule, .seed = m->seed, .threads = m->threads,
                               .visibility = m->visibility, .profile = prof};
    DT_OK(stex_dispatch(r.p, r.g, NX, NY, NZ, &o));
    uint8_t *fast = dt_readback(r.tex, W, H, LAYERS, 4);
    static const uint8_t zero[4];
    uint8_t blank[W * H * LAYERS * 4] = {0};
    dt_upload(r.tex, blank, W, H, LAYERS, 4);

    seen *s = calloc(1, sizeof *s);
    s->view = r.view;
    stex_race_detector *rd = NULL;
    if (m->races)
        DT_OK(stex_race_detector_create(NULL, &rd));
    o.races = rd;
    o.store_observer = observe;
    o.store_observer_user = s;
    DT_OK(stex_dispatch(r.p, r.g, NX, NY, NZ, &o));
    uint8_t *slow = dt_readback(r.tex, W, H, LAYERS, 4);

    if (s->outside || s->wrong_view)
        fail_msg("%s: %u out-of-bounds store(s) and %u with another view reached the observer",
                 m->name, s->outside, s->wrong_view);
    if (s->total != W * H * VIEW_LAYERS)
        fail_msg("%s: observer called %u times, expected %d (one per in-bounds texel)", m->name,
                 s->total, W * H * VIEW_LAYERS);
    for (int z = 0; z < LAYERS; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                size_t at = (((size_t)z * H + y) * W + x) * 4;
                if (memcmp(fast + at, slow + at, 4))
                    fail_msg("%s: texel (%d, %d) layer %d: %02x%02x%02x%02x with the observer, "
                             "%02x%02x%02x%02x without", m->name, x, y, z, slow[at],
                             slow[at + 1], slow[at + 2], slow[at + 3], fast[at], fast[at + 1],
                             fast[at + 2], fast[at + 3]);
                int vz = z - VIEW_BASE;
                if (vz < 0 || vz >= VIEW_LAYERS) {
                    if (memcmp(slow + at, zero, 4))
                        fail_msg("%s: layer %d is outside the view but was written", m->name, z);
                    continue;
                }
                unsigned n = s->count[vz][y][x];
                stex_vec4 want = value_of(x, y, vz), got = s->value[vz][y][x];
                if (n != 1 || memcmp(&want, &got, sizeof want))
                    fail_msg("%s: texel (%d, %d) view layer %d seen %u time(s) with "
                             "(%g, %g, %g, %g); expected once with (%g, %g, %g, %g)", m->name, x,
                             y, vz, n, got.f[0], got.f[1], got.f[2], got.f[3], want.f[0],
                             want.f[1], want.f[2], want.f[3]);
                /* the observed value is what the texel holds once converted */
                uint8_t enc[4];
                DT_OK(stex_encode_texel(prof, STEX_FORMAT_RGBA8UNORM, &got, enc));
                if (memcmp(enc, slow + at, 4))
                    fail_msg("%s: texel (%d, %d) layer %d holds %02x%02x%02x%02x, the observed "
                             "value encodes to %02x%02x%02x%02x", m->name, x, y, z, slow[at],
                             slow[at + 1], slow[at + 2], slow[at + 3], enc[0], enc[1], enc[2],
                             enc[3]);
            }
    stex_race_detector_destroy(rd);
    free(s);
    free(fast);
    free(slow);
    rig_free(&r);
}

static void test_modes(void **state)
{
    (void)state;
    const stex_profile *profs[] = {stex_profile_get(STEX_PROFILE_SPEC),
                                   stex_profile_get(STEX_PROFILE_NVIDIA)};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        for (size_t p = 0; p < 2; p++)
            check_mode(&modes[i], profs[p]);
}

/* A shader error before any store: the dispatch fails and the observer sees
 * none of the stores the other invocations try afterwards. */
static void test_after_error(void **state)
{
    (void)state;
    rig r;
    rig_make(&r, error_first, false);
    seen *s = calloc(1, sizeof *s);
    s->view = r.view;
    stex_dispatch_options o = {.threads = 1, .store_observer = observe, .store_observer_user = s};
    stex_status st = stex_dispatch(r.p, r.g, NX, NY, NZ, &o);
    if (st != STEX_SHADER_ERROR)
        fail_msg("wrong-type textureStore: got %s, expected shader-error", stex_status_name(st));
    if (s->total)
        fail_msg("the observer saw %u store(s) after the shader error", s->total);
    free(s);
    rig_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_after_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
