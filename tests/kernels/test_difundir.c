/*
 * difundir (lesson 000): the racy in-place 4-neighbour average and its
 * ping-pong fix.
 *   racy: the race detector reports, under every schedule and thread count,
 *     that every texel is written by its own invocation while neighbours read
 *     it (read-write races, inside a workgroup and between workgroups; no
 *     write-write race), and 16 shuffled seeds give at least 2 outputs.
 *   ping-pong: no race, the same bytes under every schedule, and the sha256
 *     of lavapipe's readback for both initial states and 1 or 10 dispatches.
 */
#include "kernel_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 };

typedef struct experiment {
    const char *variant;
    uint32_t dispatches;
    int index; /* in kernels.json difundir.experiments */
} experiment;

static const experiment EXPERIMENTS[] = {
    {"hot", 1, 0}, {"hot", 10, 1}, {"random", 1, 2}, {"random", 10, 3},
};

static void test_pingpong_matches_lavapipe(void **state)
{
    (void)state;
    json_t *j = kt_conformance();
    for (size_t e = 0; e < sizeof EXPERIMENTS / sizeof EXPERIMENTS[0]; e++) {
        const experiment *x = &EXPERIMENTS[e];
        stex_kernel_setup s = {.variant = x->variant, .iterations = x->dispatches};
        stex_kernel_instance *ki = kt_create("difundir-pingpong", &s);
        char path[96], hex[65];
        size_t n;
        uint8_t *in = kt_output(ki, &n);
        kt_sha256(in, n, hex);
        snprintf(path, sizeof path, "difundir.experiments.%d.input_sha256", x->index);
        assert_string_equal(hex, kt_json_string(j, path));
        stex_dispatch_options o = {.threads = 1};
        kt_dispatch(ki, &o);
        uint8_t *out = kt_output(ki, &n);
        kt_sha256(out, n, hex);
        snprintf(path, sizeof path, "difundir.experiments.%d.pingpong.sha256", x->index);
        if (strcmp(hex, kt_json_string(j, path)))
            fail_msg("difundir-pingpong %s, %u dispatches: sha256 %s, lavapipe %s", x->variant,
                     x->dispatches, hex, kt_json_string(j, path));
        free(in);
        free(out);
        stex_kernel_instance_destroy(ki);
    }
}

static void test_pingpong_race_free_every_schedule(void **state)
{
    (void)state;
    for (size_t e = 0; e < sizeof EXPERIMENTS / sizeof EXPERIMENTS[0]; e++) {
        stex_kernel_setup s = {.variant = EXPERIMENTS[e].variant,
                               .iterations = EXPERIMENTS[e].dispatches};
        uint8_t *first = NULL;
        for (size_t run = 0; run < 2 * kt_schedule_count; run++) {
            const kt_schedule *sc = &kt_schedules[run / 2];
            stex_race_detector *rd = NULL;
            if (run % 2)
                assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
            stex_dispatch_options o = kt_options(sc, STEX_PROFILE_SPEC, rd);
            size_t n;
            uint8_t *out = kt_run("difundir-pingpong", &s, &o, &n);
            if (rd && stex_race_count(rd, STEX_RACE_ANY)) {
                stex_race_report_text(rd, stderr);
                fail_msg("difundir-pingpong %s x%u, %s: races reported", s.variant, s.iterations,
                         kt_schedule_text(sc));
            }
            if (!first)
                first = out;
            else {
                if (memcmp(first, out, n))
                    fail_msg("difundir-pingpong %s x%u, %s: output differs from %s", s.variant,
                             s.iterations, kt_schedule_text(sc), kt_schedule_text(&kt_schedules[0]));
                free(out);
            }
            if (rd)
                stex_race_detector_destroy(rd);
        }
        free(first);
    }
}

/* Every texel races (read by a neighbour, written by its owner), nothing is
 * written twice; both kinds of pair - same workgroup, different workgroups -
 * are among the reported races. */
/* The racy difundir's WGSL on stex's interpreter, sub-groups of 8 lanes (one
 * 8-texel row: every lane loads before any stores), workgroups in dispatch
 * order on one thread: lavapipe's own sequential SIMD8 model, whose hash
 * kernels.json records (and which most of lavapipe's runs produced). */
static stex_status wgsl_width8(void *user, stex_device *d, const stex_kernel_pass *pass,
                               stex_pipeline **out)
{
    (void)user;
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, pass->entry_point, &m);
    if (!st) {
        stex_wgsl_options o = {.subgroup_width = 8};
        st = stex_wgsl_pipeline_create(d, m, pass->entry_point, &o, out);
    }
    stex_wgsl_module_destroy(m);
    return st;
}

static void test_racy_wgsl_width8_is_lavapipes_simd8_model(void **state)
{
    (void)state;
    json_t *j = kt_conformance();
    for (size_t e = 0; e < sizeof EXPERIMENTS / sizeof EXPERIMENTS[0]; e++) {
        const experiment *x = &EXPERIMENTS[e];
        stex_kernel_setup s = {.variant = x->variant, .iterations = x->dispatches,
                               .create_pipeline = wgsl_width8};
        stex_kernel_instance *ki = kt_create("difundir", &s);
        stex_dispatch_options o = {.threads = 1, .profile = stex_profile_get(STEX_PROFILE_LAVAPIPE)};
        kt_dispatch(ki, &o);
        size_t n;
        char path[112], hex[65];
        uint8_t *out = kt_output(ki, &n);
        kt_sha256(out, n, hex);
        snprintf(path, sizeof path, "difundir.experiments.%d.racy.sequential_simd8_model_sha256",
                 x->index);
        if (strcmp(hex, kt_json_string(j, path)))
            fail_msg("difundir (WGSL, width 8) %s x%u: sha256 %s, lavapipe's SIMD8 model %s",
                     x->variant, x->dispatches, hex, kt_json_string(j, path));
        free(out);
        stex_kernel_instance_destroy(ki);
    }
}

static void check_racy_verdict(stex_race_detector *rd, const char *what)
{
    uint64_t rw = stex_race_count(rd, STEX_RACE_READ_WRITE);
    uint64_t ww = stex_race_count(rd, STEX_RACE_WRITE_WRITE);
    if (rw != (uint64_t)N * N || ww != 0)
        fail_msg("difundir, %s: %llu read-write and %llu write-write racing texels; expected "
                 "%d read-write (every texel) and 0 write-write", what, (unsigned long long)rw,
                 (unsigned long long)ww, N * N);
    bool inside = false, between = false;
    for (size_t i = 0; i < stex_race_reported(rd); i++) {
        const stex_race *r = stex_race_get(rd, i);
        assert_int_equal(r->memory, STEX_RACE_MEMORY_TEXTURE);
        assert_int_equal(r->binding, 0);
        if (r->same_workgroup)
            inside = true;
        else
            between = true;
    }
    if (!inside || !between)
        fail_msg("difundir, %s: races reported %s a workgroup but none %s", what,
                 inside ? "inside" : "between workgroups", inside ? "between workgroups" : "inside");
}

static void test_racy_reports_races_and_varies(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 2; threads++) {
        char hashes[16][65];
        size_t distinct = 0;
        for (uint64_t seed = 0; seed < 16; seed++) {
            stex_race_detector *rd;
            stex_race_options ro = {.max_reported = 200};
            assert_int_equal(stex_race_detector_create(&ro, &rd), STEX_OK);
            kt_schedule sc = {STEX_SCHEDULE_SHUFFLED, seed, threads};
            stex_dispatch_options o = kt_options(&sc, STEX_PROFILE_SPEC, rd);
            size_t n;
            uint8_t *out = kt_run("difundir", NULL, &o, &n);
            check_racy_verdict(rd, kt_schedule_text(&sc));
            kt_sha256(out, n, hashes[seed]);
            bool seen = false;
            for (uint64_t k = 0; k < seed; k++)
                seen = seen || !strcmp(hashes[k], hashes[seed]);
            distinct += !seen;
            free(out);
            stex_race_detector_destroy(rd);
        }
        if (distinct < 2)
            fail_msg("difundir, 16 shuffled seeds with %d thread(s): %zu distinct output; a "
                     "race should show at least 2", threads, distinct);
        print_message("difundir: %zu distinct outputs over 16 seeds, %d thread(s)\n", distinct,
                      threads);
    }
}

/* In order and reversed, and without the detector: the verdict is the same
 * and the outputs still differ from the race-free ping-pong result. */
static void test_racy_verdict_independent_of_schedule(void **state)
{
    (void)state;
    size_t n;
    stex_dispatch_options po = {.threads = 1};
    uint8_t *fixed = kt_run("difundir-pingpong", NULL, &po, &n);
    for (size_t s = 0; s < kt_schedule_count; s++) {
        stex_race_detector *rd;
        assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
        stex_dispatch_options o = kt_options(&kt_schedules[s], STEX_PROFILE_SPEC, rd);
        size_t m;
        uint8_t *out = kt_run("difundir", NULL, &o, &m);
        check_racy_verdict(rd, kt_schedule_text(&kt_schedules[s]));
        if (!memcmp(out, fixed, n))
            fail_msg("difundir, %s: in-place output equals the ping-pong one; with random "
                     "input some invocation must read an already updated neighbour",
                     kt_schedule_text(&kt_schedules[s]));
        free(out);
        stex_race_detector_destroy(rd);
    }
    free(fixed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pingpong_matches_lavapipe),
        cmocka_unit_test(test_pingpong_race_free_every_schedule),
        cmocka_unit_test(test_racy_reports_races_and_varies),
        cmocka_unit_test(test_racy_wgsl_width8_is_lavapipes_simd8_model),
        cmocka_unit_test(test_racy_verdict_independent_of_schedule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
