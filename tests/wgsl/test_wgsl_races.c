/* Races named in the WGSL source: the racy difundir's WGSL under race
 * detection gives the C kernel's verdict (locations, kinds, both
 * invocations), and each party says where in the WGSL text it accessed the
 * texel - the reader the textureLoad of its neighbour, the writer the
 * textureStore - for sub-group widths 1, 8, 32 and 64, 1 and 2 threads, in
 * order and shuffled.  The expected line:col come from the WGSL string
 * itself.  The summary detector (no barriers) and the full one (forced)
 * give the same report, sites included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "race/race_internal.h" /* race_detector_force_full */
#include "stex/stex.h"
#include "wgsl_fixture.h"

#define FILENAME "difundir.wgsl"

static stex_status make_wgsl(void *user, stex_device *d, const stex_kernel_pass *pass,
                             stex_pipeline **out)
{
    uint32_t width = (uint32_t)(uintptr_t)user;
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, FILENAME, &m);
    if (st) {
        print_error("%s", stex_wgsl_module_diagnostics(m));
        stex_wgsl_module_destroy(m);
        return st;
    }
    stex_wgsl_options o = {.subgroup_width = width};
    st = stex_wgsl_pipeline_create(d, m, pass->entry_point, &o, out);
    stex_wgsl_module_destroy(m);
    return st;
}

/* "FILE:line:col" of the nth (0-based) occurrence of needle in src. */
static void source_of(const char *src, const char *needle, int nth, char *buf, size_t size,
                      unsigned *line_out, unsigned *col_out)
{
    const char *p = src;
    for (int i = 0; i <= nth; i++) {
        p = strstr(i ? p + 1 : p, needle);
        assert_non_null(p);
    }
    unsigned line = 1;
    const char *bol = src;
    for (const char *q = src; q < p; q++)
        if (*q == '\n') {
            line++;
            bol = q + 1;
        }
    unsigned col = (unsigned)(p - bol) + 1;
    snprintf(buf, size, "%s:%u:%u", FILENAME, line, col);
    if (line_out)
        *line_out = line;
    if (col_out)
        *col_out = col;
}

static stex_race_detector *run(const stex_kernel *k, stex_device *dev, uint32_t width,
                               stex_dispatch_options o, bool full)
{
    stex_race_detector *rd;
    assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
    race_detector_force_full(rd, full);
    o.races = rd;
    stex_kernel_setup s = {.device = dev, .time = 0.75f, .width = 48, .height = 40};
    if (width) {
        s.create_pipeline = make_wgsl;
        s.create_pipeline_user = (void *)(uintptr_t)width;
    }
    stex_kernel_instance *ki;
    if (stex_kernel_run(k, &s, &o, &ki))
        fail_msg("%s (%s): %s", k->name, width ? "WGSL" : "C", stex_last_error());
    stex_kernel_instance_destroy(ki);
    return rd;
}

static bool same_party(const stex_race_party *x, const stex_race_party *y)
{
    return !memcmp(x->workgroup_id, y->workgroup_id, sizeof x->workgroup_id)
           && !memcmp(x->local_invocation_id, y->local_invocation_id,
                      sizeof x->local_invocation_id)
           && x->access == y->access;
}

static void test_difundir_sources(void **state)
{
    (void)state;
    const stex_kernel *k = stex_kernel_find("difundir");
    assert_non_null(k);
    const stex_kernel_pass *pass = &k->passes[0];
    const uint32_t *wgs = pass->pipeline.workgroup_size;
    char load[4][128], store[128];
    unsigned store_line, store_col;
    for (int i = 0; i < 4; i++)
        source_of(pass->wgsl, "textureLoad(", i, load[i], sizeof load[i], NULL, NULL);
    source_of(pass->wgsl, "textureStore(", 0, store, sizeof store, &store_line, &store_col);
    /* the loads read c + (-1, 0), (1, 0), (0, -1), (0, 1), in this order */
    static const int off[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

    stex_adapter *a;
    stex_device *dev;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, &(stex_device_desc){0}, &dev), STEX_OK);
    stex_race_detector *want = run(k, dev, 0, (stex_dispatch_options){.threads = 1}, false);
    size_t n = stex_race_reported(want);
    assert_true(n > 0);
    static const uint32_t widths[] = {1, 8, 32, 64};
    char *first_text = NULL;
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (int threads = 1; threads <= 2; threads++)
            for (int sched = 0; sched < 4; sched++) {
                stex_dispatch_options o = {
                    .schedule = sched & 1 ? STEX_SCHEDULE_SHUFFLED : STEX_SCHEDULE_IN_ORDER,
                    .seed = 11, .threads = threads};
                stex_race_detector *rd = run(k, dev, widths[w], o, sched >= 2);
                /* the verdict is the C kernel's */
                for (int kind = 0; kind <= STEX_RACE_ANY; kind++)
                    assert_int_equal(stex_race_count(rd, (stex_race_kind)kind),
                                     stex_race_count(want, (stex_race_kind)kind));
                assert_int_equal(stex_race_reported(rd), n);
                for (size_t i = 0; i < n; i++) {
                    const stex_race *r = stex_race_get(rd, i), *c = stex_race_get(want, i);
                    assert_int_equal(r->kind, c->kind);
                    assert_memory_equal(r->coord, c->coord, sizeof r->coord);
                    assert_int_equal(r->binding, c->binding);
                    assert_true(same_party(&r->a, &c->a));
                    assert_true(same_party(&r->b, &c->b));
                    assert_int_equal(c->a.site, 0); /* C kernels: unknown */
                    assert_null(c->a.source);
                    /* and where in the WGSL */
                    assert_int_equal(r->kind, STEX_RACE_READ_WRITE);
                    const stex_race_party *rp = r->a.access == STEX_RACE_ACCESS_READ ? &r->a : &r->b;
                    const stex_race_party *wp = rp == &r->a ? &r->b : &r->a;
                    assert_int_equal(wp->access, STEX_RACE_ACCESS_WRITE);
                    assert_non_null(rp->source);
                    assert_non_null(wp->source);
                    assert_true(rp->site && wp->site);
                    assert_string_equal(wp->source, store);
                    int64_t gx = (int64_t)rp->workgroup_id[0] * wgs[0] + rp->local_invocation_id[0];
                    int64_t gy = (int64_t)rp->workgroup_id[1] * wgs[1] + rp->local_invocation_id[1];
                    int li = -1;
                    for (int q = 0; q < 4; q++)
                        if (gx + off[q][0] == r->coord[0] && gy + off[q][1] == r->coord[1])
                            li = q;
                    assert_true(li >= 0);
                    if (strcmp(rp->source, load[li]))
                        fail_msg("width %u, %d thread(s), %s: race %zu at (%u, %u): the read is "
                                 "at %s, want %s", widths[w], threads,
                                 sched & 1 ? "shuffled" : "in order", i, r->coord[0], r->coord[1],
                                 rp->source, load[li]);
                }
                /* the reports: text names both sources; JSON has the fields */
                char *text = stex_race_report_text_string(rd);
                assert_non_null(text);
                char at[160];
                snprintf(at, sizeof at, " at %s\n", store);
                assert_non_null(strstr(text, at));
                if (!first_text)
                    first_text = text;
                else {
                    assert_string_equal(text, first_text); /* the same under every run */
                    free(text);
                }
                char *json = stex_race_report_json_string(rd);
                assert_non_null(json);
                char field[64];
                assert_non_null(strstr(json, "\"source\""));
                assert_non_null(strstr(json, "\"site\""));
                assert_non_null(strstr(json, "\"file\": \"" FILENAME "\""));
                snprintf(field, sizeof field, "\"line\": %u", store_line);
                assert_non_null(strstr(json, field));
                snprintf(field, sizeof field, "\"column\": %u", store_col);
                assert_non_null(strstr(json, field));
                free(json);
                stex_race_detector_destroy(rd);
            }
    free(first_text);
    stex_race_detector_destroy(want);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

/* Every other lesson kernel's WGSL gives the C kernel's verdict (none of
 * them races) at widths 1 and 64, where the lane word forms record whole
 * 8x8 blocks and calls at once, with one and two threads. */
static void test_race_free_lessons(void **state)
{
    (void)state;
    static const char *const names[] = {"decaer", "generar", "box3x3-texture", "box3x3-buffer",
                                        "difundir-pingpong", "histogram", "blur"};
    stex_adapter *a;
    stex_device *dev;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, &(stex_device_desc){0}, &dev), STEX_OK);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const stex_kernel *k = stex_kernel_find(names[i]);
        assert_non_null(k);
        stex_race_detector *want = run(k, dev, 0, (stex_dispatch_options){.threads = 1}, false);
        assert_int_equal(stex_race_count(want, STEX_RACE_ANY), 0);
        for (uint32_t width = 1; width <= 64; width += 63)
            for (int threads = 1; threads <= 2; threads++) {
                stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 3,
                                           .threads = threads};
                stex_race_detector *rd = run(k, dev, width, o, false);
                if (stex_race_count(rd, STEX_RACE_ANY)) {
                    char *text = stex_race_report_text_string(rd);
                    fail_msg("%s at width %u, %d thread(s): races the C kernel has not:\n%s",
                             names[i], width, threads, text ? text : "");
                }
                stex_race_detector_destroy(rd);
            }
        stex_race_detector_destroy(want);
    }
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

/* A shader with a barrier (the full detector): a buffer word every
 * invocation writes, and a var<workgroup> word read and written in one
 * barrier segment. */
static const char BARRIER[] =
    "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
    "var<workgroup> tmp : array<u32, 64>;\n"
    "@compute @workgroup_size(64)\n"
    "fn racy(@builtin(local_invocation_index) lid : u32) {\n"
    "  tmp[lid] = lid;\n"
    "  workgroupBarrier();\n"
    "  out[0] = tmp[(lid + 1u) % 64u];\n"
    "  let x = tmp[0];\n"
    "  tmp[lid] = x;\n"
    "}\n";

/* Runs entry of src, its binding 0 a buffer of buf_bytes, over 2
 * workgroups at sub-group widths 1, 8, 32 and 64, on 1 and 2 threads, in
 * order and shuffled with seed; check(rd, ctx) looks at each report, and
 * every report's text must equal the first one's. */
static void sweep(const char *src, const char *entry, uint64_t buf_bytes, uint64_t seed,
                  void (*check)(const stex_race_detector *rd, const void *ctx), const void *ctx)
{
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(src, FILENAME);
    stex_buffer *buf;
    stex_buffer_desc bd = {.size = buf_bytes, .usage = STEX_BUFFER_USAGE_STORAGE};
    assert_int_equal(stex_buffer_create(dev, &bd, &buf), STEX_OK);
    static const uint32_t widths[] = {1, 8, 32, 64};
    char *first = NULL;
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
        for (int threads = 1; threads <= 2; threads++)
            for (int sched = 0; sched < 2; sched++) {
                stex_pipeline *p;
                stex_wgsl_options wo = {.subgroup_width = widths[w]};
                if (stex_wgsl_pipeline_create(dev, m, entry, &wo, &p))
                    fail_msg("%s", stex_last_error());
                stex_bind_group_entry be = {.binding = 0, .buffer = buf};
                stex_bind_group *g;
                assert_int_equal(stex_bind_group_create(p, &be, 1, &g), STEX_OK);
                stex_race_detector *rd;
                assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
                stex_dispatch_options o = {
                    .schedule = sched ? STEX_SCHEDULE_SHUFFLED : STEX_SCHEDULE_IN_ORDER,
                    .seed = seed, .threads = threads, .races = rd};
                assert_int_equal(stex_dispatch(p, g, 2, 1, 1, &o), STEX_OK);
                stex_bind_group_destroy(g);
                stex_pipeline_destroy(p); /* the report outlives the pipeline */
                check(rd, ctx);
                char *text = stex_race_report_text_string(rd);
                assert_non_null(text);
                if (!first)
                    first = text;
                else {
                    assert_string_equal(text, first);
                    free(text);
                }
                stex_race_detector_destroy(rd);
            }
    free(first);
    stex_buffer_destroy(buf);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

typedef struct barrier_sources {
    char out0[128], rd0[128], wr0[128];
} barrier_sources;

static void check_barrier(const stex_race_detector *rd, const void *ctx)
{
    const barrier_sources *c = ctx;
    const char *out0 = c->out0, *rd0 = c->rd0, *wr0 = c->wr0;
    bool saw_buffer = false, saw_wg = false;
    for (size_t i = 0; i < stex_race_reported(rd); i++) {
        const stex_race *r = stex_race_get(rd, i);
        assert_non_null(r->a.source);
        assert_non_null(r->b.source);
        if (r->memory == STEX_RACE_MEMORY_BUFFER && r->word == 0
            && r->kind == STEX_RACE_WRITE_WRITE) {
            saw_buffer = true;
            assert_string_equal(r->a.source, out0);
            assert_string_equal(r->b.source, out0);
        }
        if (r->memory == STEX_RACE_MEMORY_WORKGROUP && r->word == 0
            && r->a.workgroup_id[0] == 0) {
            saw_wg = true;
            assert_int_equal(r->kind, STEX_RACE_READ_WRITE);
            assert_int_equal(r->a.local_invocation_id[0], 0);
            assert_int_equal(r->b.local_invocation_id[0], 1);
            assert_int_equal(r->a.access, STEX_RACE_ACCESS_WRITE);
            assert_string_equal(r->a.source, wr0);
            assert_string_equal(r->b.source, rd0);
        }
    }
    assert_true(saw_buffer);
    assert_true(saw_wg);
}

static void test_barrier_sources(void **state)
{
    (void)state;
    barrier_sources c;
    /* an indexed access is at its '[' (where the parser puts the expression) */
    source_of(BARRIER, "[0] = tmp", 0, c.out0, sizeof c.out0, NULL, NULL);
    source_of(BARRIER, "[0];", 0, c.rd0, sizeof c.rd0, NULL, NULL);
    source_of(BARRIER, "[lid] = x", 0, c.wr0, sizeof c.wr0, NULL, NULL);
    sweep(BARRIER, "racy", 256, 5, check_barrier, &c);
}

/* Buffers under the summary detector with sites (no barrier): the lane
 * word forms record a whole call's lanes themselves at widths 8, 32 and
 * 64 and one lane at a time at width 1, so the reports must agree.  Each
 * invocation k of 128 reads and writes word k (its own), reads word k + 1
 * (its neighbour's, mod 128: a read-write race on every word 0..127) and
 * writes word 128 + k / 2 with invocation k ^ 1 (write-write on 64 words). */
static const char LANES[] =
    "@group(0) @binding(0) var<storage, read_write> buf : array<u32>;\n"
    "@compute @workgroup_size(64)\n"
    "fn lanes(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  let own = buf[g.x];\n"
    "  buf[g.x] = own + 1u;\n"
    "  let n = buf[(g.x + 1u) % 128u];\n"
    "  buf[128u + g.x / 2u] = n;\n"
    "}\n";

typedef struct lane_sources {
    char rd1[128], wr1[128], wr2[128];
} lane_sources;

static void check_lanes(const stex_race_detector *rd, const void *ctx)
{
    const lane_sources *c = ctx;
    const char *rd1 = c->rd1, *wr1 = c->wr1, *wr2 = c->wr2;
    assert_int_equal(stex_race_count(rd, STEX_RACE_READ_WRITE), 128);
    assert_int_equal(stex_race_count(rd, STEX_RACE_WRITE_WRITE), 64);
    for (size_t i = 0; i < stex_race_reported(rd); i++) {
        const stex_race *r = stex_race_get(rd, i);
        assert_int_equal(r->memory, STEX_RACE_MEMORY_BUFFER);
        if (r->kind == STEX_RACE_WRITE_WRITE) {
            assert_true(r->word >= 128 && r->word < 192);
            assert_string_equal(r->a.source, wr2);
            assert_string_equal(r->b.source, wr2);
            continue;
        }
        /* word k: written by invocation k, read by k - 1 (mod 128) */
        assert_int_equal(r->kind, STEX_RACE_READ_WRITE);
        assert_true(r->word < 128);
        const stex_race_party *wp = r->a.access == STEX_RACE_ACCESS_WRITE ? &r->a : &r->b;
        const stex_race_party *rp = wp == &r->a ? &r->b : &r->a;
        assert_int_equal(wp->access, STEX_RACE_ACCESS_WRITE);
        assert_int_equal(rp->access, STEX_RACE_ACCESS_READ);
        assert_string_equal(wp->source, wr1);
        assert_string_equal(rp->source, rd1);
    }
}

static void test_buffer_lane_sources(void **state)
{
    (void)state;
    lane_sources c;
    source_of(LANES, "[(g.x + 1u)", 0, c.rd1, sizeof c.rd1, NULL, NULL);
    source_of(LANES, "[g.x] = own", 0, c.wr1, sizeof c.wr1, NULL, NULL);
    source_of(LANES, "[128u + g.x", 0, c.wr2, sizeof c.wr2, NULL, NULL);
    sweep(LANES, "lanes", 192 * 4, 9, check_lanes, &c);
}

/* Locations in WGSL's terms (stex_race.name): an array of structs with a
 * vector and a matrix member.  P's layout (WGSL 14.4): pos at byte 0
 * (vec3<f32>, align 16), w at 12, m at 16 (mat2x2<f32>: columns of 8
 * bytes), 32 bytes in all - so ps[k].pos.y is word 8k + 1 and ps[k].m[1].x
 * word 8k + 6.  Four invocations write each ps[k] (k = g.x / 4, 32 of them
 * over 2 workgroups of 64): 64 write-write races in two groups of one site
 * each. */
static const char NAMES[] =
    "struct P { pos : vec3<f32>, w : f32, m : mat2x2<f32> }\n"
    "@group(0) @binding(0) var<storage, read_write> ps : array<P>;\n"
    "@compute @workgroup_size(64)\n"
    "fn names(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  ps[g.x / 4u].pos.y = f32(g.x);\n"
    "  ps[g.x / 4u].m[1].x = f32(g.x);\n"
    "}\n";

static void check_names(const stex_race_detector *rd, const void *ctx)
{
    (void)ctx;
    assert_int_equal(stex_race_count(rd, STEX_RACE_WRITE_WRITE), 64);
    assert_int_equal(stex_race_reported(rd), 64);
    for (size_t i = 0; i < stex_race_reported(rd); i++) {
        const stex_race *r = stex_race_get(rd, i);
        char want[64];
        assert_true(r->word % 8 == 1 || r->word % 8 == 6);
        snprintf(want, sizeof want, "ps[%llu].%s", (unsigned long long)(r->word / 8),
                 r->word % 8 == 1 ? "pos.y" : "m[1].x");
        assert_non_null(r->name);
        assert_string_equal(r->name, want);
    }
    /* two groups, one per statement, holding every race */
    assert_int_equal(stex_race_group_count(rd), 2);
    for (size_t i = 0; i < 2; i++) {
        const stex_race_group *g = stex_race_group_get(rd, i);
        assert_int_equal(g->count, 32);
        assert_int_equal(g->same_workgroup, 32);
        assert_string_equal(g->sites[0].source, g->sites[1].source);
        assert_non_null(g->example.name);
    }
}

static void test_location_names(void **state)
{
    (void)state;
    sweep(NAMES, "names", 32 * 32, 5, check_names, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_location_names),
        cmocka_unit_test(test_difundir_sources),
        cmocka_unit_test(test_barrier_sources),
        cmocka_unit_test(test_buffer_lane_sources),
        cmocka_unit_test(test_race_free_lessons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
