/*
 * generar (lesson 003): sine waves into rgba8unorm.  sin() is the one
 * builtin whose result a device may round differently, so the tolerance
 * check compares every channel with a double-precision reference (the f32
 * argument as the shader computes it, sin in double): at most 1 unorm8 code
 * apart (WGSL's sin error bound, 2^-11 in [-pi, pi], moves 0.5 + 0.5 sin by
 * at most 2^-12 < 1/255).  At 4096x4096, time 0.75, under the lavapipe
 * profile the bytes also equal lavapipe's (perf.json pattern_output_sha256):
 * there stex's sin (stex_sin) and llvmpipe's round to the same codes.
 */
#include "kernel_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reference_code(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (int)nearbyint(v * 255.0);
}

static void check_tolerance(uint32_t w, uint32_t h, float t)
{
    stex_kernel_setup s = {.width = w, .height = h, .time = t};
    stex_dispatch_options o = {.threads = 2};
    size_t n;
    uint8_t *out = kt_run("generar", &s, &o, &n);
    assert_int_equal(n, (size_t)w * h * 4);
    size_t exact = 0, off_by_one = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float ux = (float)x / (float)w, uy = (float)y / (float)h;
            double ref[3] = {0.5 + 0.5 * sin((double)(ux * 12.0f + t)),
                             0.5 + 0.5 * sin((double)(uy * 12.0f + t * 1.3f)),
                             0.5 + 0.5 * sin((double)((ux + uy) * 8.0f - t))};
            const uint8_t *p = out + 4 * ((size_t)y * w + x);
            for (int c = 0; c < 3; c++) {
                int d = abs(p[c] - reference_code(ref[c]));
                if (d > 1)
                    fail_msg("generar %ux%u time %g: texel (%u,%u) channel %d = %d, reference "
                             "%.9f -> %d: %d codes apart (tolerance 1)", w, h, (double)t, x, y,
                             c, p[c], ref[c], reference_code(ref[c]), d);
                exact += d == 0;
                off_by_one += d == 1;
            }
            if (p[3] != 255)
                fail_msg("generar: texel (%u,%u) alpha %d, expected 255", x, y, p[3]);
        }
    print_message("generar %ux%u time %g: %zu channels equal the double reference, %zu one "
                  "code off\n", w, h, (double)t, exact, off_by_one);
    free(out);
}

static void test_within_tolerance(void **state)
{
    (void)state;
    check_tolerance(512, 512, 0.0f);
    check_tolerance(512, 512, 0.75f);
    check_tolerance(100, 37, 123.25f); /* large arguments, odd size */
}

static void test_matches_lavapipe_perf_run(void **state)
{
    (void)state;
    char *path = kt_data_path("lavapipe-perf-wgpu.json");
    json_error_t err;
    json_t *perf = json_load_file(path, 0, &err);
    if (!perf)
        fail_msg("cannot read %s: %s", path, err.text);
    stex_kernel_setup s = {.width = 4096, .height = 4096, .time = 0.75f};
    stex_dispatch_options o = {.threads = 2, .profile = stex_profile_get(STEX_PROFILE_LAVAPIPE)};
    size_t n;
    uint8_t *out = kt_run("generar", &s, &o, &n);
    char hex[65];
    kt_sha256(out, n, hex);
    const char *want = json_string_value(json_object_get(perf, "pattern_output_sha256"));
    if (!want || strcmp(hex, want))
        fail_msg("generar 4096x4096 time 0.75: sha256 %s, lavapipe %s (both stores round "
                 "the same way; a difference here means stex_sin rounds differently)", hex,
                 want ? want : "(missing)");
    free(out);
    json_decref(perf);
    free(path);
}

static void test_race_free_every_schedule(void **state)
{
    (void)state;
    stex_kernel_setup s = {.width = 100, .height = 60, .time = 0.5f};
    uint8_t *first = NULL;
    for (size_t i = 0; i < kt_schedule_count; i++) {
        stex_race_detector *rd;
        assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
        stex_dispatch_options o = kt_options(&kt_schedules[i], STEX_PROFILE_SPEC, rd);
        size_t n;
        uint8_t *out = kt_run("generar", &s, &o, &n);
        if (stex_race_count(rd, STEX_RACE_ANY))
            fail_msg("generar, %s: races reported", kt_schedule_text(&kt_schedules[i]));
        if (!first)
            first = out;
        else {
            if (memcmp(first, out, n))
                fail_msg("generar, %s: output differs", kt_schedule_text(&kt_schedules[i]));
            free(out);
        }
        stex_race_detector_destroy(rd);
    }
    free(first);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_within_tolerance),
        cmocka_unit_test(test_matches_lavapipe_perf_run),
        cmocka_unit_test(test_race_free_every_schedule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
