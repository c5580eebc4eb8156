/*
 * blur (lesson 001): separable Gaussian, texture_2d + linear sampler ->
 * rgba16float, two passes.  Under the lavapipe profile the output must equal
 * lavapipe's bytes (blur_output.hex, kernels.json output_sha256 and
 * pass1_sha256) bit for bit; on a mismatch the test says how many channels,
 * by how many f16 ULP, and whether rounding the f32 sum toward zero or to
 * nearest gives the expected value (the store's rounding step) or neither
 * (the sampler or the arithmetic).
 */
#include "f16.h"
#include "kernel_test.h"
#include "kernels/instance.h" /* to read the first pass's texture */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B = 64, TEXEL = 8 };

static uint16_t half_at(const uint8_t *p, size_t texel, int c)
{
    return (uint16_t)(p[texel * TEXEL + 2 * c] | p[texel * TEXEL + 2 * c + 1] << 8);
}

static uint8_t *read_hex(size_t *size)
{
    char *path = kt_data_path("lavapipe-blur_output.hex");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    uint8_t *out = malloc(B * B * TEXEL);
    size_t n = 0;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        for (char *p = line; p[0] && p[1] && p[0] != '\n'; p += 2) {
            unsigned v;
            if (sscanf(p, "%2x", &v) != 1 || n >= B * B * TEXEL)
                fail_msg("%s: bad hex near byte %zu", path, n);
            out[n++] = (uint8_t)v;
        }
    }
    fclose(f);
    free(path);
    *size = n;
    return out;
}

/* The CPU model of one pass at texel centres (the harness's): every sample is
 * the clamped texel itself; f32 multiply then add in shader order. */
static float model_sum(float (*get)(const uint8_t *, int, int, int), const uint8_t *src, int x,
                       int y, int c, int dx, int dy)
{
    static const float w[5] = {0.227027f, 0.194594f, 0.121621f, 0.054054f, 0.016216f};
    float s = get(src, x, y, c) * w[0];
    for (int i = 1; i < 5; i++)
        for (int sign = 1; sign >= -1; sign -= 2) {
            int xx = x + sign * dx * i, yy = y + sign * dy * i;
            xx = xx < 0 ? 0 : xx > B - 1 ? B - 1 : xx;
            yy = yy < 0 ? 0 : yy > B - 1 ? B - 1 : yy;
            s = s + get(src, xx, yy, c) * w[i];
        }
    return s;
}
static float get_half(const uint8_t *p, int x, int y, int c)
{
    return t_f16_to_f32(half_at(p, (size_t)y * B + x, c));
}

/* Explains every differing channel of pass 2 (input: our pass 1). */
static void diagnose(const uint8_t *want, const uint8_t *got, const uint8_t *pass1)
{
    size_t differ = 0, store_rne = 0, other = 0;
    unsigned max_ulp = 0;
    for (size_t t = 0; t < B * B; t++)
        for (int c = 0; c < 4; c++) {
            uint16_t w = half_at(want, t, c), g = half_at(got, t, c);
            if (w == g)
                continue;
            differ++;
            unsigned u = t_f16_ulps(w, g);
            max_ulp = u > max_ulp ? u : max_ulp;
            float s = model_sum(get_half, pass1, (int)(t % B), (int)(t / B), c, 0, 1);
            uint16_t rtz = t_f32_to_f16(s, false), rne = t_f32_to_f16(s, true);
            if (rtz == w && rne == g)
                store_rne++;
            else
                other++;
            if (differ <= 10)
                print_error("texel (%zu,%zu) channel %d: lavapipe %04x (%.9g), stex %04x (%.9g), "
                            "%u ULP; model f32 sum %.9g -> rtz %04x, rne %04x\n", t % B, t / B,
                            c, w, t_f16_to_f32(w), g, t_f16_to_f32(g), u, s, rtz, rne);
        }
    print_error("blur: %zu of %d channels differ, max %u ULP; %zu are the f16 store rounding "
                "to nearest where lavapipe truncates, %zu come before pass 2's store (pass 1, the "
                "sampler or the arithmetic; see the model sums above)\n", differ, B * B * 4, max_ulp, store_rne,
                other);
}

static uint8_t *read_texture_slot(stex_kernel_instance *ki, int slot, size_t *n)
{
    stex_texture *keep = ki->out_texture;
    ki->out_texture = ki->texture[slot];
    uint8_t *b = kt_output(ki, n);
    ki->out_texture = keep;
    return b;
}

static void test_matches_lavapipe(void **state)
{
    (void)state;
    json_t *j = kt_conformance();
    size_t hn, n, n1;
    uint8_t *want = read_hex(&hn);
    assert_int_equal(hn, B * B * TEXEL);
    char hex[65];
    kt_sha256(want, hn, hex);
    assert_string_equal(hex, kt_json_string(j, "blur.output_sha256")); /* the two files agree */

    stex_kernel_instance *ki = kt_create("blur", NULL);
    stex_dispatch_options o = {.threads = 1, .profile = stex_profile_get(STEX_PROFILE_LAVAPIPE)};
    kt_dispatch(ki, &o);
    uint8_t *got = kt_output(ki, &n);
    uint8_t *pass1 = read_texture_slot(ki, 1, &n1);
    assert_int_equal(n, hn);
    if (memcmp(want, got, n)) {
        diagnose(want, got, pass1);
        fail_msg("blur under the lavapipe profile differs from blur_output.hex");
    }
    kt_sha256(pass1, n1, hex);
    assert_string_equal(hex, kt_json_string(j, "blur.pass1_sha256"));
    kt_sha256(got, n, hex);
    assert_string_equal(hex, kt_json_string(j, "blur.output_sha256"));
    free(want);
    free(got);
    free(pass1);
    stex_kernel_instance_destroy(ki);
}

/* The spec profile stores f16 to nearest: its first pass differs from
 * lavapipe's (truncating) first pass exactly where the harness's CPU model
 * said (kernels.json blur.cpu_reference.pass1_rne_separate_mul_add). */
static void test_spec_profile_rounds_to_nearest(void **state)
{
    (void)state;
    json_t *j = kt_conformance();
    size_t n;
    uint8_t *p1[2];
    const stex_profile_id ids[2] = {STEX_PROFILE_LAVAPIPE, STEX_PROFILE_SPEC};
    for (int i = 0; i < 2; i++) {
        stex_kernel_instance *ki = kt_create("blur", NULL);
        stex_dispatch_options o = {.threads = 1, .profile = stex_profile_get(ids[i])};
        kt_dispatch(ki, &o);
        p1[i] = read_texture_slot(ki, 1, &n);
        stex_kernel_instance_destroy(ki);
    }
    size_t differ = 0;
    unsigned max_ulp = 0;
    for (size_t t = 0; t < B * B; t++)
        for (int c = 0; c < 4; c++) {
            uint16_t a = half_at(p1[0], t, c), b = half_at(p1[1], t, c);
            if (a != b) {
                differ++;
                unsigned u = t_f16_ulps(a, b);
                max_ulp = u > max_ulp ? u : max_ulp;
            }
        }
    json_int_t want = json_integer_value(
        kt_json(j, "blur.cpu_reference.pass1_rne_separate_mul_add.differing_channels"));
    if ((json_int_t)differ != want || max_ulp != 1)
        fail_msg("blur pass 1, spec vs lavapipe profile: %zu channels differ (max %u ULP); the "
                 "harness's round-to-nearest model differs from lavapipe in %lld (max 1 ULP)",
                 differ, max_ulp, (long long)want);
    free(p1[0]);
    free(p1[1]);
}

/* No pass reads what it writes: no race, same bytes under every schedule. */
static void test_race_free_every_schedule(void **state)
{
    (void)state;
    uint8_t *first = NULL;
    for (size_t s = 0; s < kt_schedule_count; s++) {
        stex_race_detector *rd;
        assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
        stex_dispatch_options o = kt_options(&kt_schedules[s], STEX_PROFILE_LAVAPIPE, rd);
        size_t n;
        uint8_t *out = kt_run("blur", NULL, &o, &n);
        if (stex_race_count(rd, STEX_RACE_ANY))
            fail_msg("blur, %s: %llu races reported", kt_schedule_text(&kt_schedules[s]),
                     (unsigned long long)stex_race_count(rd, STEX_RACE_ANY));
        if (!first)
            first = out;
        else {
            if (memcmp(first, out, n))
                fail_msg("blur, %s: output differs from %s", kt_schedule_text(&kt_schedules[s]),
                         kt_schedule_text(&kt_schedules[0]));
            free(out);
        }
        stex_race_detector_destroy(rd);
    }
    free(first);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_lavapipe),
        cmocka_unit_test(test_spec_profile_rounds_to_nearest),
        cmocka_unit_test(test_race_free_every_schedule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
