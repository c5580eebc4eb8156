/*
 * histogram (lesson 002): atomicAdd of 262144 points into a buffer, then
 * log(1 + n) / log(1 + 1000) presented into rgba16float.  The accumulator
 * must hold lavapipe's counts (kernels.json accumulator_sha256, max 476);
 * under the lavapipe profile every count must present as lavapipe stored it
 * (count_to_f16_r) and the output's sha256 must match.  Atomics do not race.
 */
#include "kernel_test.h"
#include "kernels/inputs.h" /* the point generator, to count on the CPU */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 64, H = 64 };

static uint16_t half_at(const uint8_t *p, size_t texel, int c)
{
    return (uint16_t)(p[texel * 8 + 2 * c] | p[texel * 8 + 2 * c + 1] << 8);
}

static void test_matches_lavapipe(void **state)
{
    (void)state;
    json_t *j = kt_conformance();
    stex_kernel_instance *ki = kt_create("histogram", NULL);
    stex_dispatch_options o = {.threads = 2, .profile = stex_profile_get(STEX_PROFILE_LAVAPIPE)};
    kt_dispatch(ki, &o);
    const uint8_t *acc = stex_buffer_data(stex_kernel_instance_accumulator(ki));
    char hex[65];
    kt_sha256(acc, W * H * 4, hex);
    assert_string_equal(hex, kt_json_string(j, "histogram.accumulator_sha256"));
    uint32_t max = 0;
    for (size_t i = 0; i < W * H; i++) {
        uint32_t v;
        memcpy(&v, acc + 4 * i, 4);
        max = v > max ? v : max;
    }
    assert_int_equal(max, json_integer_value(kt_json(j, "histogram.max_count")));

    size_t n;
    uint8_t *out = kt_output(ki, &n);
    json_t *table = kt_json(j, "histogram.count_to_f16_r");
    size_t bad = 0;
    for (size_t i = 0; i < W * H; i++) {
        uint32_t count;
        memcpy(&count, acc + 4 * i, 4);
        char key[16];
        snprintf(key, sizeof key, "%u", count);
        const char *want = json_string_value(json_object_get(table, key));
        assert_non_null(want);
        uint16_t r = half_at(out, i, 0);
        if (r != (uint16_t)strtoul(want, NULL, 16) || half_at(out, i, 1) != r ||
            half_at(out, i, 2) != r || half_at(out, i, 3) != 0x3c00) {
            if (bad++ < 10)
                print_error("texel %zu: count %u presents as (%04x,%04x,%04x,%04x); lavapipe "
                            "stored r=g=b=%s, a=3c00\n", i, count, r, half_at(out, i, 1),
                            half_at(out, i, 2), half_at(out, i, 3), want);
        }
    }
    if (bad)
        fail_msg("histogram: %zu texels present differently from lavapipe", bad);
    kt_sha256(out, n, hex);
    assert_string_equal(hex, kt_json_string(j, "histogram.output_sha256"));
    free(out);
    stex_kernel_instance_destroy(ki);
}

/* Atomics: no race, and the same counts and picture under every schedule. */
static void test_race_free_every_schedule(void **state)
{
    (void)state;
    uint8_t *first = NULL;
    for (size_t s = 0; s < kt_schedule_count; s++) {
        stex_race_detector *rd;
        assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
        stex_dispatch_options o = kt_options(&kt_schedules[s], STEX_PROFILE_LAVAPIPE, rd);
        size_t n;
        uint8_t *out = kt_run("histogram", NULL, &o, &n);
        if (stex_race_count(rd, STEX_RACE_ANY)) {
            stex_race_report_text(rd, stderr);
            fail_msg("histogram, %s: races reported on atomics", kt_schedule_text(&kt_schedules[s]));
        }
        if (!first)
            first = out;
        else {
            if (memcmp(first, out, n))
                fail_msg("histogram, %s: output differs from %s",
                         kt_schedule_text(&kt_schedules[s]), kt_schedule_text(&kt_schedules[0]));
            free(out);
        }
        stex_race_detector_destroy(rd);
    }
    free(first);
}

/* Two accumulate passes add up; an odd size with more than 65535 workgroups
 * of points exercises the 2D dispatch of the accumulate pass. */
static void check_counts(uint32_t w, uint32_t h, uint32_t iterations)
{
    stex_kernel_setup s = {.width = w, .height = h, .iterations = iterations};
    stex_kernel_instance *ki = kt_create("histogram", &s);
    stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 9, .threads = 2};
    kt_dispatch(ki, &o);
    uint32_t np = kernels_histogram_points(w, h);
    uint32_t *xy = malloc((size_t)np * 8);
    uint32_t *cpu = calloc((size_t)w * h, 4);
    assert_non_null(xy);
    assert_non_null(cpu);
    kernels_input_points(w, h, np, xy);
    for (uint32_t i = 0; i < np; i++)
        if (xy[2 * i] < w && xy[2 * i + 1] < h)
            cpu[(size_t)xy[2 * i + 1] * w + xy[2 * i]] += iterations;
    const uint8_t *acc = stex_buffer_data(stex_kernel_instance_accumulator(ki));
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t v;
        memcpy(&v, acc + 4 * i, 4);
        if (v != cpu[i])
            fail_msg("histogram %ux%u x%u: cell %zu holds %u, counted %u on the CPU", w, h,
                     iterations, i, v, cpu[i]);
    }
    free(xy);
    free(cpu);
    stex_kernel_instance_destroy(ki);
}

static void test_iterations_and_sizes(void **state)
{
    (void)state;
    check_counts(64, 64, 2);
    check_counts(37, 21, 1);
    check_counts(4100, 4100, 1); /* 4202500 points: 65665 workgroups, dispatched as 2 rows */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_lavapipe),
        cmocka_unit_test(test_race_free_every_schedule),
        cmocka_unit_test(test_iterations_and_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
