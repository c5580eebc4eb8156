/* The interleaved schedule (STEX_SCHEDULE_INTERLEAVED): a race between
 * invocations of one workgroup shows in the outputs.  A teacher's racy
 * shaders (tests/data/race-shaders/wg-*.wgsl: a workgroup reduction missing
 * its barrier on var<workgroup>, an in-place shift on a buffer, an in-place
 * shift of a texture's tiles in group 1) give more than one output over a
 * few seeds - at the interpreter's default lock-step width of 64, where
 * every other schedule gives one - while their fixes (each with its
 * workgroupBarrier, storageBarrier or textureBarrier) give the output
 * computed here, under every seed.  Each seed gives the same bytes on 1 and
 * 2 threads, and the race detector the verdict of the in-order schedule.  The lessons' kernels give the same bytes under every seed as
 * in order.  A shader with subgroup operations still sees lavapipe's
 * sub-groups of 8 (the bytes Dawn on lavapipe wrote,
 * tests/data/difftest/regress/subgroups.wgsl). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "../io/io_test.h"
#include "wgsl_fixture.h"

enum { SEEDS = 12, WGS = 4, CELLS = 64 * WGS, TEX = 16 };

static char *read_text(const char *dir, const char *name)
{
    const char *data = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/%s", data ? data : "tests/data", dir, name);
    char *s = slurp_text(path);
    if (!s)
        fail_msg("cannot open %s", path);
    return s;
}

/* The shapes of the race shaders: what each binds and dispatches. */
typedef enum shape { REDUCE, SHIFT, TILES } shape;

static uint32_t input_value(uint32_t i) { return (i * 2654435761u >> 24) + 1; }

/* The output a race-free version must give, computed here. */
static void expected(shape sh, uint32_t *out)
{
    if (sh == REDUCE) {
        for (uint32_t g = 0; g < WGS; g++) {
            out[g] = 0;
            for (uint32_t l = 0; l < 64; l++)
                out[g] += input_value(g * 64 + l);
        }
    } else if (sh == SHIFT) {
        for (uint32_t i = 0; i < CELLS; i++)
            out[i] = input_value(i % 64 < 63 ? i + 1 : i);
    } else {
        for (uint32_t y = 0; y < TEX; y++)
            for (uint32_t x = 0; x < TEX; x++)
                out[y * TEX + x] = input_value(y * TEX + (x % 8 < 7 ? x + 1 : x));
    }
}

static uint32_t out_words(shape sh) { return sh == REDUCE ? WGS : sh == SHIFT ? CELLS : TEX * TEX; }

/* Runs shader `file` once with o (width: the sub-group width; 0: 64); the
 * output into out (out_words(sh) words). */
static void run(const char *file, shape sh, uint32_t width, stex_dispatch_options o,
                uint32_t *out)
{
    char *src = read_text("race-shaders", file);
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(src, file);
    stex_pipeline *p;
    stex_wgsl_options wo = {.subgroup_width = width, .max_steps = 1000000};
    if (stex_wgsl_pipeline_create(dev, m, "main", &wo, &p))
        fail_msg("%s: %s", file, stex_last_error());
    uint32_t usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST;
    stex_buffer *in = NULL, *res = NULL;
    stex_texture *t = NULL;
    stex_texture_view *v = NULL;
    stex_bind_group_entry be[2];
    uint32_t nb = 0, group = 0;
    if (sh == TILES) {
        stex_texture_desc td = {.size = {TEX, TEX, 1}, .format = STEX_FORMAT_R32UINT,
                                .usage = STEX_USAGE_STORAGE_BINDING};
        assert_int_equal(stex_texture_create(dev, &td, &t), STEX_OK);
        assert_int_equal(stex_texture_create_view(t, NULL, &v), STEX_OK);
        for (uint32_t y = 0; y < TEX; y++)
            for (uint32_t x = 0; x < TEX; x++) {
                uint32_t w = input_value(y * TEX + x);
                memcpy(stex_view_texel(v, x, y, 0), &w, 4);
            }
        be[nb++] = (stex_bind_group_entry){.binding = 0, .view = v};
        group = 1;
    } else {
        stex_buffer_desc bd = {.size = CELLS * 4, .usage = usage};
        assert_int_equal(stex_buffer_create(dev, &bd, &in), STEX_OK);
        uint32_t *w = (uint32_t *)(void *)stex_buffer_data(in);
        for (uint32_t i = 0; i < CELLS; i++)
            w[i] = input_value(i);
        be[nb++] = (stex_bind_group_entry){.binding = 0, .buffer = in};
        if (sh == REDUCE) {
            bd.size = WGS * 4;
            assert_int_equal(stex_buffer_create(dev, &bd, &res), STEX_OK);
            be[nb++] = (stex_bind_group_entry){.binding = 1, .buffer = res};
        }
    }
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create_in_group(p, group, be, nb, &g), STEX_OK);
    stex_bound_group groups[2] = {{NULL}};
    groups[group].group = g;
    uint32_t n = sh == TILES ? TEX / 8 : WGS;
    if (stex_dispatch_bound(p, groups, group + 1, n, sh == TILES ? n : 1, 1, &o))
        fail_msg("%s: %s", file, stex_last_error());
    if (sh == TILES)
        for (uint32_t y = 0; y < TEX; y++)
            for (uint32_t x = 0; x < TEX; x++)
                memcpy(&out[y * TEX + x], stex_view_texel(v, x, y, 0), 4);
    else
        memcpy(out, stex_buffer_data(res ? res : in), out_words(sh) * 4);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(in);
    stex_buffer_destroy(res);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
    free(src);
}

/* Distinct outputs of `file` over SEEDS seeds of schedule s, each seed's
 * output also checked equal on 1 and 2 threads; *first: seed 1's. */
static unsigned distinct_outputs(const char *file, shape sh, uint32_t width, stex_schedule s,
                                 uint32_t *first)
{
    uint32_t n = out_words(sh);
    uint32_t *seen = calloc((size_t)SEEDS * n, 4), *two = calloc(n, 4);
    assert_non_null(seen);
    assert_non_null(two);
    unsigned distinct = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        uint32_t *cur = seen + (size_t)distinct * n;
        run(file, sh, width, (stex_dispatch_options){.schedule = s, .seed = seed, .threads = 1},
            cur);
        run(file, sh, width, (stex_dispatch_options){.schedule = s, .seed = seed, .threads = 2},
            two);
        if (memcmp(cur, two, (size_t)n * 4))
            fail_msg("%s: seed %llu gave other bytes on 2 threads than on 1", file,
                     (unsigned long long)seed);
        if (seed == 1)
            memcpy(first, cur, (size_t)n * 4);
        unsigned k = 0;
        while (k < distinct && memcmp(seen + (size_t)k * n, cur, (size_t)n * 4))
            k++;
        distinct += k == distinct;
    }
    free(seen);
    free(two);
    return distinct;
}

static const struct {
    const char *racy, *fixed;
    shape sh;
} shaders[] = {
    {"wg-reduce.wgsl", "wg-reduce-fixed.wgsl", REDUCE},
    {"wg-shift.wgsl", "wg-shift-fixed.wgsl", SHIFT},
    {"wg-tile-shift.wgsl", "wg-tile-shift-fixed.wgsl", TILES},
};
enum { NSHADERS = sizeof shaders / sizeof shaders[0] };

/* The race detector's verdict under schedule s, seed `seed`: counts of each
 * kind and the locations kept, in the detector's order. */
typedef struct verdict {
    uint64_t count[STEX_RACE_KIND_COUNT + 1];
    size_t n;
    stex_race first[8];
} verdict;

static verdict verdict_of(const char *file, shape sh, stex_schedule s, uint64_t seed)
{
    stex_race_detector *rd;
    assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
    uint32_t out[CELLS];
    run(file, sh, 0, (stex_dispatch_options){.schedule = s, .seed = seed, .races = rd}, out);
    verdict v = {.n = stex_race_reported(rd)};
    for (int k = 0; k <= STEX_RACE_ANY; k++)
        v.count[k] = stex_race_count(rd, (stex_race_kind)k);
    for (size_t i = 0; i < v.n && i < 8; i++) {
        v.first[i] = *stex_race_get(rd, i);
        v.first[i].a.source = v.first[i].b.source = NULL; /* the detector's text */
    }
    stex_race_detector_destroy(rd);
    return v;
}

/* The verdict does not depend on the interleaving: the racy shaders' is
 * the in-order schedule's under every seed, and their fixes have none -
 * the barriers still order what they order. */
static void test_verdict_unchanged(void **state)
{
    (void)state;
    for (int i = 0; i < NSHADERS; i++) {
        verdict want = verdict_of(shaders[i].racy, shaders[i].sh, STEX_SCHEDULE_IN_ORDER, 0);
        assert_true(want.count[STEX_RACE_ANY] > 0);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            verdict got = verdict_of(shaders[i].racy, shaders[i].sh, STEX_SCHEDULE_INTERLEAVED,
                                     seed);
            assert_memory_equal(got.count, want.count, sizeof want.count);
            assert_int_equal(got.n, want.n);
            for (size_t k = 0; k < want.n && k < 8; k++) {
                const stex_race *a = &got.first[k], *b = &want.first[k];
                assert_int_equal(a->kind, b->kind);
                assert_int_equal(a->word, b->word);
                assert_memory_equal(a->coord, b->coord, sizeof a->coord);
                assert_memory_equal(a->a.local_invocation_id, b->a.local_invocation_id,
                                    sizeof a->a.local_invocation_id);
                assert_memory_equal(a->b.local_invocation_id, b->b.local_invocation_id,
                                    sizeof a->b.local_invocation_id);
                assert_int_equal(a->a.site, b->a.site);
                assert_int_equal(a->b.site, b->b.site);
            }
            verdict fixed = verdict_of(shaders[i].fixed, shaders[i].sh,
                                       STEX_SCHEDULE_INTERLEAVED, seed);
            assert_int_equal(fixed.count[STEX_RACE_ANY], 0);
        }
    }
}

/* Issue 25: at the default lock-step width every racy shader gave one
 * output under the shuffled schedule (its whole workgroup in lock step);
 * under the interleaved one it gives several. */
static void test_racy_shaders_differ(void **state)
{
    (void)state;
    uint32_t first[CELLS];
    for (int i = 0; i < NSHADERS; i++) {
        unsigned d = distinct_outputs(shaders[i].racy, shaders[i].sh, 0,
                                      STEX_SCHEDULE_SHUFFLED, first);
        if (d != 1)
            fail_msg("%s: %u outputs under the shuffled schedule at width 64 (lock step: one)",
                     shaders[i].racy, d);
        d = distinct_outputs(shaders[i].racy, shaders[i].sh, 0, STEX_SCHEDULE_INTERLEAVED, first);
        if (d < 2)
            fail_msg("%s: %u distinct output over %d seeds of the interleaved schedule",
                     shaders[i].racy, d, SEEDS);
        /* a narrower lock-step width is varied too */
        d = distinct_outputs(shaders[i].racy, shaders[i].sh, 8, STEX_SCHEDULE_INTERLEAVED, first);
        assert_true(d >= 2);
    }
}

/* Their fixes: one output under every seed and width, the one computed
 * here - the barriers still end phases under the interleaved schedule. */
static void test_fixed_shaders_agree(void **state)
{
    (void)state;
    static const uint32_t widths[] = {0, 1, 8, 32};
    uint32_t first[CELLS], want[CELLS];
    for (int i = 0; i < NSHADERS; i++) {
        expected(shaders[i].sh, want);
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
            unsigned d = distinct_outputs(shaders[i].fixed, shaders[i].sh, widths[w],
                                          STEX_SCHEDULE_INTERLEAVED, first);
            if (d != 1)
                fail_msg("%s (width %u): %u distinct outputs, race-free", shaders[i].fixed,
                         widths[w], d);
            assert_memory_equal(first, want, out_words(shaders[i].sh) * 4);
        }
    }
}

static stex_status make_wgsl(void *user, stex_device *d, const stex_kernel_pass *pass,
                             stex_pipeline **out)
{
    (void)user;
    stex_wgsl_module *m = fixture_module(pass->wgsl, pass->entry_point);
    stex_status st = stex_wgsl_pipeline_create(d, m, pass->entry_point, NULL, out);
    stex_wgsl_module_destroy(m);
    return st;
}

/* A kernel's output on dev: its C version in order (wgsl false), or its
 * WGSL at the default width under o. */
static uint8_t *kernel_output(const stex_kernel *k, stex_device *dev, bool wgsl,
                              const stex_dispatch_options *o, size_t *size)
{
    uint32_t w = k->default_width < 32 ? k->default_width : 32;
    uint32_t h = k->default_height < 24 ? k->default_height : 24;
    stex_kernel_setup s = {.device = dev, .time = 0.75f, .width = w, .height = h,
                           .iterations = 2, .create_pipeline = wgsl ? make_wgsl : NULL};
    stex_kernel_instance *ki;
    if (stex_kernel_run(k, &s, o, &ki))
        fail_msg("%s: %s", k->name, stex_last_error());
    uint8_t *bytes;
    if (stex_kernel_instance_read_output(ki, &bytes, size))
        fail_msg("%s: readback: %s", k->name, stex_last_error());
    stex_kernel_instance_destroy(ki);
    return bytes;
}

/* The lessons' race-free kernels: their WGSL gives the bytes of their C
 * version run in order under every seed of the interleaved schedule. */
static void test_lesson_kernels(void **state)
{
    (void)state;
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    unsigned checked = 0;
    for (size_t i = 0; i < stex_kernel_count(); i++) {
        const stex_kernel *k = stex_kernel_at(i);
        if (k->racy)
            continue;
        size_t n_want, n;
        uint8_t *want = kernel_output(k, dev, false, &(stex_dispatch_options){.threads = 1},
                                      &n_want);
        for (uint64_t seed = 1; seed <= 4; seed++) {
            stex_dispatch_options o = {.schedule = STEX_SCHEDULE_INTERLEAVED, .seed = seed,
                                       .threads = 1 + (int)(seed & 1)};
            uint8_t *got = kernel_output(k, dev, true, &o, &n);
            assert_int_equal(n, n_want);
            if (memcmp(got, want, n))
                fail_msg("%s: seed %llu of the interleaved schedule differs from the C "
                         "version in order", k->name, (unsigned long long)seed);
            free(got);
        }
        free(want);
        checked++;
    }
    assert_true(checked >= 5);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

/* A shader with subgroup operations keeps its sub-groups under the
 * interleaved schedule: tests/data/difftest/regress/subgroups.wgsl (ids,
 * ballots, shuffles, reductions and scans over sub-groups of 8 in a
 * workgroup of 24) gives the words Dawn on lavapipe wrote, under every seed. */
static void test_subgroups_kept(void **state)
{
    (void)state;
    char *src = read_text("difftest/regress", "subgroups.wgsl");
    uint32_t groups[3], nout = 0, features = 0;
    const char *bad = NULL;
    char list[256];
    const char *d = strstr(src, "//! dispatch "), *o = strstr(src, "//! out "),
               *f = strstr(src, "//! features "), *e = strstr(src, "//! expect ");
    assert_true(d && o && f && e);
    assert_int_equal(sscanf(d, "//! dispatch %u %u %u", &groups[0], &groups[1], &groups[2]), 3);
    assert_int_equal(sscanf(o, "//! out %u", &nout), 1);
    assert_int_equal(sscanf(f, "//! features %255s", list), 1);
    assert_true(stex_features_parse(list, &features, &bad));
    uint32_t *want = calloc(nout, 4);
    assert_non_null(want);
    e += strlen("//! expect ");
    for (uint32_t i = 0; i < nout; i++) {
        char *end;
        want[i] = (uint32_t)strtoul(e, &end, 16);
        assert_true(end > e);
        e = end;
    }
    stex_adapter *a;
    stex_device *dev = fixture_device_desc(STEX_PROFILE_LAVAPIPE,
                                           &(stex_device_desc){.required_features = features}, &a);
    stex_wgsl_module *m;
    assert_int_equal(stex_wgsl_module_create_for(stex_device_profile(dev), src, "subgroups.wgsl",
                                                 &m), STEX_OK);
    stex_pipeline *p;
    stex_wgsl_options wo = {.subgroup_width = 8, .max_steps = 1u << 24};
    assert_int_equal(stex_wgsl_pipeline_create(dev, m, "main", &wo, &p), STEX_OK);
    stex_buffer *out;
    stex_buffer_desc bd = {.size = (uint64_t)nout * 4, .usage = STEX_BUFFER_USAGE_STORAGE};
    assert_int_equal(stex_buffer_create(dev, &bd, &out), STEX_OK);
    stex_bind_group *g;
    stex_bind_group_entry be = {.binding = 0, .buffer = out};
    assert_int_equal(stex_bind_group_create(p, &be, 1, &g), STEX_OK);
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        memset(stex_buffer_data(out), 0, (size_t)nout * 4);
        stex_dispatch_options dopt = {.schedule = STEX_SCHEDULE_INTERLEAVED, .seed = seed,
                                      .threads = 1 + (int)(seed & 1)};
        assert_int_equal(stex_dispatch(p, g, groups[0], groups[1], groups[2], &dopt), STEX_OK);
        assert_memory_equal(stex_buffer_data(out), want, (size_t)nout * 4);
    }
    stex_bind_group_destroy(g);
    stex_buffer_destroy(out);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
    free(want);
    free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_racy_shaders_differ),
        cmocka_unit_test(test_fixed_shaders_agree),
        cmocka_unit_test(test_verdict_unchanged),
        cmocka_unit_test(test_lesson_kernels),
        cmocka_unit_test(test_subgroups_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
