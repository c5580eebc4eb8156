/*
 * The lane-batched builtins (src/shader/lanes.h) against the per-invocation
 * builtins: the same program written twice - a C kernel run once per
 * invocation, and a sub-group executor (a workgroup function) that runs
 * each builtin for 1, 8 or all lanes at once with an active mask - gives
 * the same bytes in every texture and buffer, under every profile, OOB load
 * policy, schedule and thread count, and the same race verdicts.
 *
 * The program, for invocation (x, y) of a W x H grid with local index lid:
 *   lanes with odd lid are inactive in step 1 (the C kernel skips them);
 *   1. t = textureLoad(src, (x + 1, y))      (x + 1 = W: out of bounds)
 *      textureStore(dst, (x, y - 1), t * 1.5 - 0.25)   (y = 0: discarded)
 *   2. w = in[(x + 3 y) % (W + 2)]            (past the end: 0)
 *      out[y W + x] = w + 1;  atomicAdd(&counter[lid % 5], w)
 *   3. racy only: textureStore(dst, (lid % 3, 0), lid)
 */
#include "dtest.h"

#include "shader/lanes.h"

enum { W = 21, H = 9, WORDS = W + 2 };
enum { SRC = 0, DST = 1, IN = 2, OUT = 3, COUNTER = 4 };

static uint32_t subgroup = 8; /* lanes per call of the executor */
static bool racy;

static stex_vec4 transform(stex_vec4 t)
{
    for (int c = 0; c < 4; c++)
        t.f[c] = t.f[c] * 1.5f - 0.25f;
    return t;
}

static void kernel(const stex_invocation *inv)
{
    int64_t x = inv->global_invocation_id[0], y = inv->global_invocation_id[1];
    uint32_t lid = inv->local_invocation_index;
    if (x >= W || y >= H)
        return;
    if (!(lid & 1)) {
        stex_value t = stex_textureLoad_2d(inv, SRC, x + 1, y);
        t.v = transform(t.v);
        stex_textureStore_2d(inv, DST, x, y - 1, t);
    }
    uint32_t w = stex_buffer_load_u32(inv, IN, (uint64_t)(x + 3 * y) % WORDS);
    stex_buffer_store_u32(inv, OUT, (uint64_t)(y * W + x), w + 1);
    stex_atomicAdd(inv, COUNTER, lid % 5, w);
    if (racy)
        stex_textureStore_2d(inv, DST, lid % 3, 0, stex_f32x4((float)lid, 0, 0, 1));
}

/* The same program, a sub-group of `subgroup` lanes per builtin call. */
static void executor(const stex_workgroup *w)
{
    uint32_t n = w->size[0] * w->size[1] * w->size[2];
    for (uint32_t first = 0; first < n; first += subgroup) {
        uint32_t m = n - first < subgroup ? n - first : subgroup;
        uint32_t lid[64];
        int64_t x[64], y[64], y1[64], x1[64], zero[64] = {0};
        uint64_t active[1] = {0}, even[1] = {0}, idx[64], at[64];
        uint32_t words[64], plus[64], old[64];
        stex_value t[64];
        for (uint32_t i = 0; i < m; i++) {
            lid[i] = w->order ? w->order[first + i] : first + i;
            x[i] = w->base[0] + w->lid[lid[i]][0];
            y[i] = w->base[1] + w->lid[lid[i]][1];
            x1[i] = x[i] + 1, y1[i] = y[i] - 1;
            if (x[i] < W && y[i] < H) {
                active[0] |= 1ull << i;
                if (!(lid[i] & 1))
                    even[0] |= 1ull << i;
            }
            idx[i] = (uint64_t)(x[i] + 3 * y[i]) % WORDS;
            at[i] = (uint64_t)(y[i] * W + x[i]);
        }
        stex_lanes l = {w->inv, lid, even, m, 0};
        stex_lanes_textureLoad(&l, SRC, STEX_VIEW_DIMENSION_2D, x1, y, zero, t);
        for (uint32_t i = 0; i < m; i++)
            t[i].v = transform(t[i].v);
        stex_lanes_textureStore(&l, DST, STEX_VIEW_DIMENSION_2D, x, y1, NULL, t);
        l.active = active;
        stex_lanes_buffer_load(&l, IN, idx, words);
        for (uint32_t i = 0; i < m; i++)
            plus[i] = words[i] + 1, idx[i] = lid[i] % 5;
        stex_lanes_buffer_store(&l, OUT, at, plus);
        stex_lanes_atomic(&l, STEX_ATOMIC_ADD, COUNTER, idx, words, NULL, old, NULL);
        if (racy) {
            for (uint32_t i = 0; i < m; i++)
                x[i] = lid[i] % 3, t[i] = stex_f32x4((float)lid[i], 0, 0, 1);
            stex_lanes_textureStore(&l, DST, STEX_VIEW_DIMENSION_2D, x, zero, NULL, t);
        }
    }
}

typedef struct result {
    uint8_t *dst, *out, *counter;
    uint64_t races[STEX_RACE_KIND_COUNT];
    stex_race reported[16]; /* the detector's detail, in its own order */
    size_t nreported;
    stex_status st;
} result;

static result run(bool lanes, stex_format f, stex_profile_id prof, stex_oob_load oob,
                  int threads, bool race)
{
    stex_device *d = dt_device();
    uint32_t bpp = stex_format_get(f)->bytes;
    stex_layout_entry e[] = {
        dt_storage_entry(SRC, STEX_ACCESS_READ_ONLY, f, STEX_VIEW_DIMENSION_2D),
        dt_storage_entry(DST, STEX_ACCESS_READ_WRITE, f, STEX_VIEW_DIMENSION_2D),
        dt_buffer_entry(IN, STEX_BINDING_READ_ONLY_STORAGE_BUFFER),
        dt_buffer_entry(OUT, STEX_BINDING_STORAGE_BUFFER),
        dt_buffer_entry(COUNTER, STEX_BINDING_STORAGE_BUFFER),
    };
    stex_pipeline_desc pd = {.kernel = kernel, .workgroup = lanes ? executor : NULL,
                             .workgroup_size = {8, 4, 1}, .entries = e, .entry_count = 5};
    stex_pipeline *p;
    DT_OK(stex_pipeline_create(d, &pd, &p));
    stex_texture *src = dt_texture(d, STEX_TEXTURE_DIMENSION_2D, W, H, 1, f, 1);
    stex_texture *dst = dt_texture(d, STEX_TEXTURE_DIMENSION_2D, W, H, 1, f, 1);
    uint8_t *bytes = malloc((size_t)W * H * bpp);
    for (size_t i = 0; i < (size_t)W * H * bpp; i++)
        bytes[i] = (uint8_t)(i * 97 + 13); /* every code, NaNs and subnormals among them */
    dt_upload(src, bytes, W, H, 1, bpp);
    stex_buffer *in = dt_buffer(d, WORDS * 4 - 8, STEX_BUFFER_USAGE_STORAGE); /* 2 short */
    for (uint32_t i = 0; i < WORDS - 2; i++) {
        uint32_t v = i * 2654435761u;
        memcpy(stex_buffer_data(in) + 4 * i, &v, 4);
    }
    stex_buffer *out = dt_buffer(d, W * H * 4, STEX_BUFFER_USAGE_STORAGE);
    stex_buffer *counter = dt_buffer(d, 5 * 4, STEX_BUFFER_USAGE_STORAGE);
    stex_texture_view *vs = dt_view(src, NULL), *vd = dt_view(dst, NULL);
    stex_bind_group_entry be[] = {{.binding = SRC, .view = vs}, {.binding = DST, .view = vd},
                                  {.binding = IN, .buffer = in}, {.binding = OUT, .buffer = out},
                                  {.binding = COUNTER, .buffer = counter}};
    stex_bind_group *g;
    DT_OK(stex_bind_group_create(p, be, 5, &g));
    stex_race_detector *rd = NULL;
    if (race)
        DT_OK(stex_race_detector_create(NULL, &rd));
    stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 5, .threads = threads,
                               .oob_load = oob, .profile = stex_profile_get(prof), .races = rd};
    result r = {0};
    r.st = stex_dispatch(p, g, (W + 7) / 8, (H + 3) / 4, 1, &o);
    r.dst = dt_readback(dst, W, H, 1, bpp);
    r.out = malloc(W * H * 4);
    memcpy(r.out, stex_buffer_data(out), W * H * 4);
    r.counter = malloc(20);
    memcpy(r.counter, stex_buffer_data(counter), 20);
    for (int k = 0; rd && k < STEX_RACE_KIND_COUNT; k++)
        r.races[k] = stex_race_count(rd, (stex_race_kind)k);
    for (size_t i = 0; rd && i < stex_race_reported(rd) && i < 16; i++)
        r.reported[r.nreported++] = *stex_race_get(rd, i);
    stex_race_detector_destroy(rd);
    stex_bind_group_destroy(g);
    stex_texture_view_destroy(vs);
    stex_texture_view_destroy(vd);
    stex_texture_destroy(src);
    stex_texture_destroy(dst);
    stex_buffer_destroy(in);
    stex_buffer_destroy(out);
    stex_buffer_destroy(counter);
    stex_pipeline_destroy(p);
    dt_release(d);
    free(bytes);
    return r;
}

static void result_free(result *r)
{
    free(r->dst);
    free(r->out);
    free(r->counter);
}

static void compare(stex_format f, stex_profile_id prof, stex_oob_load oob, int threads,
                    bool race)
{
    result a = run(false, f, prof, oob, threads, race), b = run(true, f, prof, oob, threads, race);
    assert_int_equal(a.st, STEX_OK);
    assert_int_equal(b.st, STEX_OK);
    size_t n = (size_t)W * H * stex_format_get(f)->bytes;
    if (memcmp(a.dst, b.dst, n) || memcmp(a.out, b.out, W * H * 4) || memcmp(a.counter, b.counter, 20))
        fail_msg("%s, profile %d, oob %d, %d threads, sub-group %u: lanes differ from the kernel",
                 stex_format_name(f), (int)prof, (int)oob, threads, subgroup);
    for (int k = 0; k < STEX_RACE_KIND_COUNT; k++)
        assert_int_equal(a.races[k], b.races[k]);
    result_free(&a);
    result_free(&b);
}

static void test_lanes_equal_the_kernel(void **state)
{
    (void)state;
    static const stex_format formats[] = {STEX_FORMAT_RGBA8UNORM, STEX_FORMAT_RGBA16FLOAT,
                                          STEX_FORMAT_R32FLOAT, STEX_FORMAT_RGBA32FLOAT,
                                          STEX_FORMAT_R8UNORM};
    static const uint32_t widths[] = {1, 8, 32};
    racy = false;
    for (size_t w = 0; w < 3; w++) {
        subgroup = widths[w];
        for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
            for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++)
                compare(formats[f], (stex_profile_id)prof, STEX_OOB_LOAD_ZERO, 1, false);
        compare(STEX_FORMAT_RGBA8UNORM, STEX_PROFILE_LAVAPIPE, STEX_OOB_LOAD_RANDOM_TEXEL, 2, true);
        compare(STEX_FORMAT_R32FLOAT, STEX_PROFILE_SPEC, STEX_OOB_LOAD_ZERO_ALPHA_ONE, 2, true);
    }
}

static void test_lanes_report_the_same_races(void **state)
{
    (void)state;
    racy = true;
    for (int w = 0; w < 2; w++) {
        subgroup = w ? 32 : 8;
        result a = run(false, STEX_FORMAT_R32FLOAT, STEX_PROFILE_SPEC, STEX_OOB_LOAD_ZERO, 2, true);
        result b = run(true, STEX_FORMAT_R32FLOAT, STEX_PROFILE_SPEC, STEX_OOB_LOAD_ZERO, 2, true);
        assert_true(a.races[STEX_RACE_WRITE_WRITE] == 3); /* texels (0..2, 0) */
        for (int k = 0; k < STEX_RACE_KIND_COUNT; k++)
            assert_int_equal(a.races[k], b.races[k]);
        /* each race names the same texel, kind and both invocations */
        assert_int_equal(a.nreported, b.nreported);
        for (size_t i = 0; i < a.nreported; i++) {
            const stex_race *x = &a.reported[i], *y = &b.reported[i];
            assert_memory_equal(x->coord, y->coord, sizeof x->coord);
            assert_int_equal(x->kind, y->kind);
            assert_memory_equal(x->a.local_invocation_id, y->a.local_invocation_id, 12);
            assert_memory_equal(x->b.local_invocation_id, y->b.local_invocation_id, 12);
            assert_memory_equal(x->a.workgroup_id, y->a.workgroup_id, 12);
            assert_memory_equal(x->b.workgroup_id, y->b.workgroup_id, 12);
        }
        result_free(&a);
        result_free(&b);
    }
    racy = false;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lanes_equal_the_kernel),
        cmocka_unit_test(test_lanes_report_the_same_races),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
