/*
 * box3x3-texture and box3x3-buffer (lesson 002, perf.mjs): the same 3x3 box
 * blur over a tiled texture and over a linear buffer.  At 4096x4096 under the
 * lavapipe profile both must give lavapipe's bytes (perf.json
 * box3x3_outputs: the texture and buffer readbacks hash the same there).
 */
#include "kernel_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_match_lavapipe_perf_run(void **state)
{
    (void)state;
    char *path = kt_data_path("lavapipe-perf-wgpu.json");
    json_error_t err;
    json_t *perf = json_load_file(path, 0, &err);
    if (!perf)
        fail_msg("cannot read %s: %s", path, err.text);
    const char *names[2] = {"box3x3-texture", "box3x3-buffer"};
    const char *keys[2] = {"texture_sha256", "buffer_sha256"};
    uint8_t *out[2];
    size_t n[2];
    for (int i = 0; i < 2; i++) {
        stex_kernel_setup s = {.width = 4096, .height = 4096};
        stex_dispatch_options o = {.threads = 2,
                                   .profile = stex_profile_get(STEX_PROFILE_LAVAPIPE)};
        out[i] = kt_run(names[i], &s, &o, &n[i]);
        char hex[65];
        kt_sha256(out[i], n[i], hex);
        const char *want =
            json_string_value(json_object_get(json_object_get(perf, "box3x3_outputs"), keys[i]));
        if (!want || strcmp(hex, want))
            fail_msg("%s 4096x4096 (lavapipe profile): sha256 %s, lavapipe %s", names[i], hex,
                     want ? want : "(missing)");
    }
    assert_int_equal(n[0], n[1]);
    assert_memory_equal(out[0], out[1], n[0]);
    free(out[0]);
    free(out[1]);
    json_decref(perf);
    free(path);
}

static void test_race_free_every_schedule(void **state)
{
    (void)state;
    const char *names[2] = {"box3x3-texture", "box3x3-buffer"};
    for (int k = 0; k < 2; k++) {
        stex_kernel_setup s = {.width = 67, .height = 45};
        uint8_t *first = NULL;
        for (size_t i = 0; i < kt_schedule_count; i++) {
            stex_race_detector *rd;
            assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
            stex_dispatch_options o = kt_options(&kt_schedules[i], STEX_PROFILE_LAVAPIPE, rd);
            size_t n;
            uint8_t *out = kt_run(names[k], &s, &o, &n);
            if (stex_race_count(rd, STEX_RACE_ANY))
                fail_msg("%s, %s: races reported", names[k], kt_schedule_text(&kt_schedules[i]));
            if (!first)
                first = out;
            else {
                if (memcmp(first, out, n))
                    fail_msg("%s, %s: output differs", names[k], kt_schedule_text(&kt_schedules[i]));
                free(out);
            }
            stex_race_detector_destroy(rd);
        }
        free(first);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_lavapipe_perf_run),
        cmocka_unit_test(test_race_free_every_schedule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
