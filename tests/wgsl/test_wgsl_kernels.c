/* Every lesson kernel's WGSL, run by the interpreter on the same resources
 * and inputs as its C twin (stex_kernel_setup.create_pipeline), must give
 * the same bytes: spec and lavapipe profiles, in order and shuffled, 1 and 2
 * threads, sub-group widths 1, 5, 8, 32 and 64.  The racy difundir is compared at
 * width 1 only: wider sub-groups interleave its loads and stores differently
 * from one invocation at a time, another legal outcome of the race; it is
 * compared in order on one thread (under a shuffle the phase service hands an
 * executor another invocation order than the C kernel's plain loop gets). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

typedef struct wgsl_maker {
    uint32_t width;
} wgsl_maker;

static stex_status make_wgsl(void *user, stex_device *d, const stex_kernel_pass *pass,
                             stex_pipeline **out)
{
    const wgsl_maker *mk = user;
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, pass->entry_point, &m);
    if (st) {
        print_error("%s", stex_wgsl_module_diagnostics(m));
        stex_wgsl_module_destroy(m);
        return st;
    }
    stex_wgsl_options o = {.subgroup_width = mk->width};
    st = stex_wgsl_pipeline_create(d, m, pass->entry_point, &o, out);
    stex_wgsl_module_destroy(m);
    return st;
}

static uint8_t *run(const stex_kernel *k, stex_device *dev, const wgsl_maker *mk,
                    const stex_dispatch_options *o, size_t *size)
{
    /* at most 96 x 96: the interpreter is far slower than the C kernels */
    uint32_t w = k->default_width < 96 ? k->default_width : 96;
    uint32_t h = k->default_height < 96 ? k->default_height : 96;
    stex_kernel_setup s = {.device = dev, .time = 0.75f, .width = w, .height = h};
    if (mk) {
        s.create_pipeline = make_wgsl;
        s.create_pipeline_user = (void *)(uintptr_t)mk;
    }
    stex_kernel_instance *ki;
    if (stex_kernel_run(k, &s, o, &ki))
        fail_msg("%s (%s): %s", k->name, mk ? "WGSL" : "C", stex_last_error());
    uint8_t *bytes;
    if (stex_kernel_instance_read_output(ki, &bytes, size))
        fail_msg("%s: readback: %s", k->name, stex_last_error());
    stex_kernel_instance_destroy(ki);
    return bytes;
}

static void compare_kernel(const char *name)
{
    const stex_kernel *k = stex_kernel_find(name);
    assert_non_null(k);
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &a);
    static const stex_profile_id profiles[] = {STEX_PROFILE_SPEC, STEX_PROFILE_LAVAPIPE};
    static const uint32_t widths[] = {1, 5, 8, 32, 64};
    for (size_t p = 0; p < 2; p++)
        for (int sched = 0; sched < 2; sched++)
            for (int threads = 1; threads <= 2; threads++) {
                stex_dispatch_options o = {
                    .schedule = sched ? STEX_SCHEDULE_SHUFFLED : STEX_SCHEDULE_IN_ORDER,
                    .seed = 7, .threads = threads, .profile = stex_profile_get(profiles[p])};
                size_t n_c, n_w;
                uint8_t *want = run(k, dev, NULL, &o, &n_c);
                for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
                    if (k->racy && widths[w] > 1)
                        continue;
                    /* racy: two threads have no single outcome, and a shuffled executor
                     * gets another invocation order (phase_order) than the plain loop */
                    if (k->racy && (threads > 1 || sched))
                        continue;
                    wgsl_maker mk = {widths[w]};
                    uint8_t *got = run(k, dev, &mk, &o, &n_w);
                    assert_int_equal(n_c, n_w);
                    size_t diff = 0, first = n_c;
                    for (size_t i = 0; i < n_c; i++)
                        if (want[i] != got[i]) {
                            diff++;
                            if (first == n_c)
                                first = i;
                        }
                    if (diff)
                        fail_msg("%s, %s profile, %s, %d thread(s), width %u: %zu of %zu bytes "
                                 "differ, first at %zu (C %02x, WGSL %02x)", name,
                                 stex_profile_name(profiles[p]),
                                 sched ? "shuffled" : "in order", threads, widths[w], diff, n_c,
                                 first, want[first], got[first]);
                    free(got);
                }
                free(want);
            }
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

#define KERNEL_TEST(fn, name) static void fn(void **s) { (void)s; compare_kernel(name); }
KERNEL_TEST(test_generar, "generar")
KERNEL_TEST(test_decaer, "decaer")
KERNEL_TEST(test_difundir, "difundir")
KERNEL_TEST(test_difundir_pingpong, "difundir-pingpong")
KERNEL_TEST(test_blur, "blur")
KERNEL_TEST(test_histogram, "histogram")
KERNEL_TEST(test_box3x3_texture, "box3x3-texture")
KERNEL_TEST(test_box3x3_buffer, "box3x3-buffer")

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decaer), cmocka_unit_test(test_difundir),
        cmocka_unit_test(test_difundir_pingpong), cmocka_unit_test(test_blur),
        cmocka_unit_test(test_histogram), cmocka_unit_test(test_box3x3_texture),
        cmocka_unit_test(test_box3x3_buffer), cmocka_unit_test(test_generar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
