/*
 * decaer (lesson 000): v * 0.98 in place on read_write r32float.
 * Checked against the IEEE formula fround(v * fround(0.98)) for every texel,
 * against lavapipe's output (kernels.json: first16 and the sha256 of the
 * readback), and for race-freedom and determinism under every schedule.
 */
#include "kernel_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t word(const uint8_t *p, size_t i)
{
    return (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
           (uint32_t)p[4 * i + 3] << 24;
}

static bool is_nan_bits(uint32_t b) { return (b & 0x7fffffffu) > 0x7f800000u; }

/* The reference: the product of two floats is exact in double; one rounding
 * to float then gives the correctly rounded f32 product. */
static uint32_t decay_bits(uint32_t in)
{
    float v, k = 0.98f;
    memcpy(&v, &in, 4);
    float e = (float)((double)v * (double)k);
    uint32_t out;
    memcpy(&out, &e, 4);
    return out;
}

/* Compares every texel of out with `times` applications of the formula to in. */
static void check_formula(const uint8_t *in, const uint8_t *out, size_t texels, int times,
                          const char *what)
{
    size_t bad = 0;
    for (size_t i = 0; i < texels; i++) {
        uint32_t e = word(in, i);
        for (int t = 0; t < times; t++)
            e = decay_bits(e);
        uint32_t got = word(out, i);
        if (got != e && !(is_nan_bits(got) && is_nan_bits(e))) {
            if (bad++ < 8)
                print_error("%s: r32float texel %zu: in %08x, expected %08x, got %08x\n", what,
                            i, word(in, i), e, got);
        }
    }
    if (bad)
        fail_msg("%s: %zu of %zu texels differ from fround(v * fround(0.98))", what, bad, texels);
}

static uint8_t *initial(size_t *n)
{
    stex_kernel_instance *ki = kt_create("decaer", NULL);
    uint8_t *b = kt_output(ki, n); /* before any dispatch: the input */
    stex_kernel_instance_destroy(ki);
    return b;
}

static void test_matches_lavapipe(void **state)
{
    (void)state;
    json_t *j = kt_conformance();
    size_t n, m;
    uint8_t *in = initial(&n);
    char hex[65];
    kt_sha256(in, n, hex);
    assert_string_equal(hex, kt_json_string(j, "decaer.input_sha256"));

    stex_dispatch_options o = {.threads = 1};
    uint8_t *out = kt_run("decaer", NULL, &o, &m);
    assert_int_equal(m, 256 * 256 * 4);
    check_formula(in, out, m / 4, 1, "decaer 256x256");
    for (size_t i = 0; i < 16; i++) {
        char path[64];
        snprintf(path, sizeof path, "decaer.first16.%zu.in", i);
        uint32_t want_in = (uint32_t)strtoul(kt_json_string(j, path), NULL, 16);
        snprintf(path, sizeof path, "decaer.first16.%zu.out", i);
        uint32_t want_out = (uint32_t)strtoul(kt_json_string(j, path), NULL, 16);
        if (word(in, i) != want_in || word(out, i) != want_out)
            fail_msg("special %zu: in %08x (lavapipe %08x) -> %08x, lavapipe stored %08x", i,
                     word(in, i), want_in, word(out, i), want_out);
    }
    kt_sha256(out, m, hex);
    assert_string_equal(hex, kt_json_string(j, "decaer.output_sha256"));
    free(in);
    free(out);
}

/* In place but per texel: no race, the same bytes under every schedule. */
static void test_race_free_every_schedule(void **state)
{
    (void)state;
    size_t n;
    uint8_t *in = initial(&n);
    uint8_t *first = NULL;
    for (size_t run = 0; run < 2 * kt_schedule_count; run++) {
        size_t s = run / 2; /* each schedule without, then with the race detector */
        stex_race_detector *rd = NULL;
        if (run % 2)
            assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
        stex_dispatch_options o = kt_options(&kt_schedules[s], STEX_PROFILE_LAVAPIPE, rd);
        size_t m;
        uint8_t *out = kt_run("decaer", NULL, &o, &m);
        if (rd && stex_race_count(rd, STEX_RACE_ANY)) {
            stex_race_report_text(rd, stderr);
            fail_msg("decaer, %s: %llu racing texels reported; each invocation touches only "
                     "its own texel", kt_schedule_text(&kt_schedules[s]),
                     (unsigned long long)stex_race_count(rd, STEX_RACE_ANY));
        }
        check_formula(in, out, m / 4, 1, kt_schedule_text(&kt_schedules[s]));
        if (!first)
            first = out;
        else {
            if (memcmp(first, out, m))
                fail_msg("decaer, %s: output differs from %s", kt_schedule_text(&kt_schedules[s]),
                         kt_schedule_text(&kt_schedules[0]));
            free(out);
        }
        if (rd)
            stex_race_detector_destroy(rd);
    }
    free(first);
    free(in);
}

/* Iterations are dispatches in place: three decays; an odd size exercises the guard. */
static void test_iterations_and_odd_size(void **state)
{
    (void)state;
    stex_kernel_setup s = {.width = 37, .height = 13, .iterations = 3};
    stex_kernel_instance *ki = kt_create("decaer", &s);
    size_t n, m;
    uint8_t *in = kt_output(ki, &n);
    stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 5, .threads = 2};
    kt_dispatch(ki, &o);
    uint8_t *out = kt_output(ki, &m);
    assert_int_equal(m, 37 * 13 * 4);
    check_formula(in, out, m / 4, 3, "decaer 37x13, 3 iterations");
    free(in);
    free(out);
    stex_kernel_instance_destroy(ki);
}

/* The H200's answers for decaer's special texels (conformance/nvidia
 * README): it flushes subnormal inputs and results and returns 0x7fffffff for
 * every NaN; spec and lavapipe keep subnormals and pass a NaN through. */
static void test_profiles_on_special_texels(void **state)
{
    (void)state;
    static const uint32_t in[8] = {0x00000001u, 0x00800000u, 0x006cf6c7u, 0x7fc00000u,
                                   0x7f7fffffu, 0x3f800000u, 0x80000001u, 0xffc12345u};
    static const uint32_t nvidia[8] = {0, 0, 0, 0x7fffffffu, 0x7f7ae147u, 0x3f7ae148u,
                                       0x80000000u, 0x7fffffffu};
    for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++) {
        stex_kernel_setup s = {.width = 8, .height = 1, .input = in, .input_size = sizeof in};
        stex_dispatch_options o = {.profile = stex_profile_get((stex_profile_id)prof)};
        size_t n;
        uint8_t *out = kt_run("decaer", &s, &o, &n);
        assert_int_equal(n, sizeof in);
        for (size_t i = 0; i < 8; i++) {
            uint32_t want = prof == STEX_PROFILE_NVIDIA ? nvidia[i] : decay_bits(in[i]);
            if (prof != STEX_PROFILE_NVIDIA && is_nan_bits(in[i]))
                want = in[i] | 0x00400000u; /* the NaN operand, quieted */
            if (word(out, i) != want)
                fail_msg("profile %s, texel %08x: got %08x, want %08x",
                         stex_profile_name((stex_profile_id)prof), in[i], word(out, i), want);
        }
        free(out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_lavapipe),
        cmocka_unit_test(test_profiles_on_special_texels),
        cmocka_unit_test(test_race_free_every_schedule),
        cmocka_unit_test(test_iterations_and_odd_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
