/*
 * The kernel registry and instances: every kernel is listed once with its
 * pipeline, runs at an odd size (guards, partial workgroups), takes a
 * caller's input image (with row padding), and refuses what it cannot take.
 * The embedded inputs are the harness's (input hashes in kernels.json).
 */
#include "kernel_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const NAMES[] = {"generar", "decaer", "difundir", "difundir-pingpong",
                                    "blur", "histogram", "box3x3-texture", "box3x3-buffer"};
enum { KERNELS = sizeof NAMES / sizeof NAMES[0] };

static void test_registry_lists_every_kernel(void **state)
{
    (void)state;
    assert_int_equal(stex_kernel_count(), KERNELS);
    for (size_t i = 0; i < KERNELS; i++) {
        const stex_kernel *k = stex_kernel_find(NAMES[i]);
        if (!k)
            fail_msg("kernel %s is not registered", NAMES[i]);
        assert_ptr_equal(stex_kernel_at(i), k); /* lesson order */
        assert_non_null(k->summary);
        assert_non_null(k->lesson);
        assert_non_null(k->input);
        assert_true(k->default_width > 0 && k->default_height > 0);
        assert_true(k->pass_count >= 1 && k->pass_count <= 2);
        for (uint32_t p = 0; p < k->pass_count; p++) {
            assert_non_null(k->passes[p].pipeline.kernel);
            assert_non_null(k->passes[p].wgsl);
            assert_non_null(strstr(k->passes[p].wgsl, k->passes[p].entry_point));
            assert_true(k->passes[p].pipeline.entry_count >= 1);
        }
        assert_int_equal(k->racy, !strcmp(NAMES[i], "difundir"));
    }
    assert_null(stex_kernel_find("no-such-kernel"));
    assert_null(stex_kernel_find(NULL));
    assert_null(stex_kernel_at(KERNELS));
}

/* 13x7: a partial workgroup in x and y; every in-bounds texel is produced. */
static void test_every_kernel_runs_at_an_odd_size(void **state)
{
    (void)state;
    for (size_t i = 0; i < KERNELS; i++) {
        const stex_kernel *k = stex_kernel_find(NAMES[i]);
        stex_kernel_setup s = {.width = 13, .height = 7, .iterations = 2};
        stex_dispatch_options o = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 1, .threads = 2};
        size_t n;
        uint8_t *out = kt_run(NAMES[i], &s, &o, &n);
        assert_int_equal(n, 13 * 7 * stex_format_get(k->output_format)->bytes);
        free(out);
    }
}

static void test_caller_input_with_row_padding(void **state)
{
    (void)state;
    /* 3x2 r32float, rows 16 bytes apart: 1.0 everywhere, junk in the padding */
    float rows[2][4] = {{1.0f, 1.0f, 1.0f, -7.0f}, {1.0f, 1.0f, 1.0f, -7.0f}};
    stex_kernel_setup s = {.width = 3, .height = 2, .input = rows, .input_size = sizeof rows,
                           .input_bytes_per_row = 16};
    size_t n;
    uint8_t *out = kt_run("decaer", &s, NULL, &n);
    assert_int_equal(n, 3 * 2 * 4);
    for (int i = 0; i < 6; i++) {
        float v;
        memcpy(&v, out + 4 * i, 4);
        if (v != 0.98f)
            fail_msg("decaer of a caller's 1.0 at texel %d gave %.9g, expected 0.98f", i, (double)v);
    }
    free(out);
}

typedef struct refusal {
    const char *kernel;
    stex_kernel_setup setup;
    const char *why;
} refusal;

static void test_refuses_bad_setups(void **state)
{
    (void)state;
    static const uint8_t bytes[64];
    const refusal cases[] = {
        {"generar", {.input = bytes, .input_size = sizeof bytes}, "generar takes no input"},
        {"decaer", {.width = 4, .height = 4, .input = bytes, .input_size = 60}, "input too short"},
        {"decaer", {.width = 4, .height = 4, .input = bytes, .input_size = 64,
                    .input_bytes_per_row = 8}, "bytes_per_row below a row"},
        {"difundir", {.variant = "lukewarm"}, "unknown variant"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_kernel_instance *ki = (stex_kernel_instance *)&ki;
        stex_status st = stex_kernel_instance_create(stex_kernel_find(cases[i].kernel),
                                                     &cases[i].setup, &ki);
        if (st != STEX_INVALID_ARGUMENT || ki != NULL)
            fail_msg("%s (%s): status %s, expected invalid argument and no instance",
                     cases[i].kernel, cases[i].why, stex_status_name(st));
        assert_true(strlen(stex_last_error()) > 0);
    }
    stex_kernel_instance *ki;
    assert_int_equal(stex_kernel_instance_create(NULL, NULL, &ki), STEX_INVALID_ARGUMENT);
}

/* The embedded inputs are the harness's: their sha256 are in kernels.json. */
static void test_embedded_inputs_are_the_harness(void **state)
{
    (void)state;
    json_t *j = kt_conformance();
    struct {
        const char *kernel, *variant, *key;
    } cases[] = {
        {"decaer", NULL, "decaer.input_sha256"},
        {"difundir", "hot", "difundir.experiments.0.input_sha256"},
        {"difundir", "random", "difundir.experiments.2.input_sha256"},
        {"difundir-pingpong", NULL, "difundir.experiments.2.input_sha256"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_kernel_setup s = {.variant = cases[i].variant};
        stex_kernel_instance *ki = kt_create(cases[i].kernel, &s);
        size_t n;
        uint8_t *in = kt_output(ki, &n); /* before any dispatch the output is the input */
        char hex[65];
        kt_sha256(in, n, hex);
        if (strcmp(hex, kt_json_string(j, cases[i].key)))
            fail_msg("%s %s: input sha256 %s, harness %s", cases[i].kernel,
                     cases[i].variant ? cases[i].variant : "", hex, kt_json_string(j, cases[i].key));
        free(in);
        stex_kernel_instance_destroy(ki);
    }
}

/* reset brings back the initial data: two runs from one instance agree. */
static void test_reset_starts_over(void **state)
{
    (void)state;
    stex_kernel_instance *ki = kt_create("difundir-pingpong", NULL);
    size_t n, m;
    kt_dispatch(ki, NULL);
    uint8_t *a = kt_output(ki, &n);
    assert_int_equal(stex_kernel_instance_reset(ki), STEX_OK);
    kt_dispatch(ki, NULL);
    uint8_t *b = kt_output(ki, &m);
    assert_int_equal(n, m);
    assert_memory_equal(a, b, n);
    free(a);
    free(b);
    stex_kernel_instance_destroy(ki);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_lists_every_kernel),
        cmocka_unit_test(test_every_kernel_runs_at_an_odd_size),
        cmocka_unit_test(test_caller_input_with_row_padding),
        cmocka_unit_test(test_refuses_bad_setups),
        cmocka_unit_test(test_embedded_inputs_are_the_harness),
        cmocka_unit_test(test_reset_starts_over),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
