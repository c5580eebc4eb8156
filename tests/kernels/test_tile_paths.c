/*
 * The lessons' whole-block workgroup functions (shader/tile.h: decaer,
 * generar, the box blurs; the racy difundir's direct loop and per-location
 * race records) against the builtins' out-of-line halves.
 *
 * A store observer sends every texture and buffer access of a dispatch out
 * of line (stex/shader.h): no inline path, no tile path, the converter
 * itself for every texel.  So the same dispatch run with and without a
 * (silent) observer must store the same bytes and give the same race
 * reports, under every profile, in order, reversed and shuffled, with 1 and
 * 2 threads, on sizes with partial tiles at the edges and after several
 * dispatches (the race words then hold the earlier dispatches' keys).
 */
#include "kernel_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void silent(void *user, const stex_texture_view *view, int64_t x, int64_t y, int64_t z,
                   const stex_vec4 *value)
{
    (void)view, (void)x, (void)y, (void)z, (void)value;
    ++*(uint64_t *)user;
}

/* The output and race report of `kernel` under schedule s and profile p,
 * with or without the observer. */
static uint8_t *run(const char *kernel, const stex_kernel_setup *setup, const kt_schedule *s,
                    stex_profile_id p, bool races, bool observed, size_t *size, char **report)
{
    stex_race_detector *rd = NULL;
    if (races)
    {
        stex_race_options ro = {.max_reported = 1u << 20}; /* every race in detail */
        assert_int_equal(stex_race_detector_create(&ro, &rd), STEX_OK);
    }
    stex_kernel_instance *ki = kt_create(kernel, setup);
    stex_dispatch_options o = kt_options(s, p, rd);
    uint64_t stores = 0;
    if (observed) {
        o.store_observer = silent;
        o.store_observer_user = &stores;
    }
    kt_dispatch(ki, &o);
    uint8_t *out = kt_output(ki, size);
    stex_kernel_instance_destroy(ki);
    *report = rd ? stex_race_report_json_string(rd) : NULL;
    if (rd)
        stex_race_detector_destroy(rd);
    return out;
}

/* In order and shuffled, 1 and 2 threads (the block paths do not look at
 * the workgroup order; the racy difundir follows the invocation order). */
static const kt_schedule SCHEDULES[] = {
    {STEX_SCHEDULE_IN_ORDER, 0, 1}, {STEX_SCHEDULE_IN_ORDER, 0, 2},
    {STEX_SCHEDULE_SHUFFLED, 3, 1}, {STEX_SCHEDULE_REVERSED, 0, 2}};

/* racy: with 2 threads the output depends on the threads' timing (only the
 * race reports are compared then). */
static void compare_racy(const char *kernel, uint32_t w, uint32_t h, uint32_t iterations,
                         bool racy)
{
    static const stex_profile_id profiles[] = {STEX_PROFILE_SPEC, STEX_PROFILE_LAVAPIPE,
                                               STEX_PROFILE_NVIDIA};
    stex_kernel_setup setup = {.width = w, .height = h, .iterations = iterations, .time = 0.75f};
    for (size_t pi = 0; pi < sizeof profiles / sizeof profiles[0]; pi++)
        for (size_t si = 0; si < sizeof SCHEDULES / sizeof SCHEDULES[0]; si++)
            for (int races = 0; races <= 1; races++) {
                const kt_schedule *s = &SCHEDULES[si];
                size_t n_fast, n_slow;
                char *r_fast, *r_slow;
                uint8_t *fast = run(kernel, &setup, s, profiles[pi], races, false, &n_fast, &r_fast);
                uint8_t *slow = run(kernel, &setup, s, profiles[pi], races, true, &n_slow, &r_slow);
                assert_int_equal(n_fast, n_slow);
                if (!(racy && s->threads > 1) && memcmp(fast, slow, n_fast)) {
                    size_t i = 0;
                    while (fast[i] == slow[i])
                        i++;
                    fail_msg("%s %ux%u, profile %s, %s, races %s: byte %zu is %02x inline, %02x "
                             "out of line", kernel, w, h, stex_profile_name(profiles[pi]),
                             kt_schedule_text(s), races ? "on" : "off", i, fast[i], slow[i]);
                }
                if (races && strcmp(r_fast, r_slow))
                    fail_msg("%s %ux%u, %s: race reports differ:\n%s\n---\n%s", kernel, w, h,
                             kt_schedule_text(s), r_fast, r_slow);
                free(fast), free(slow), free(r_fast), free(r_slow);
            }
}

static void compare(const char *kernel, uint32_t w, uint32_t h, uint32_t iterations)
{
    compare_racy(kernel, w, h, iterations, false);
}

static void test_decaer(void **state)
{
    (void)state;
    compare("decaer", 32, 24, 1);
    compare("decaer", 29, 19, 3); /* partial tiles; words kept from earlier dispatches */
}

static void test_generar(void **state)
{
    (void)state;
    compare("generar", 32, 24, 1);
    compare("generar", 29, 19, 2);
}

static void test_box3x3(void **state)
{
    (void)state;
    compare("box3x3-texture", 32, 24, 1);
    compare("box3x3-texture", 27, 21, 1);
    compare("box3x3-buffer", 32, 24, 1);
    compare("box3x3-buffer", 27, 21, 1);
}

/* The racy difundir: the invocations in the engine's order with direct
 * addresses, the race summary recorded per location. */
static void test_difundir(void **state)
{
    (void)state;
    compare_racy("difundir", 40, 32, 1, true);
    compare_racy("difundir", 35, 29, 3, true); /* partial workgroups, edges, kept words */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decaer),
        cmocka_unit_test(test_generar),
        cmocka_unit_test(test_box3x3),
        cmocka_unit_test(test_difundir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
