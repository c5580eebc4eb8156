/* The nvidia profile's measured tables (exp2, log2, sqrt, sin: ~0.4 s to
 * inflate) are loaded when a pipeline that calls such a builtin is created,
 * not inside its first dispatch, whose time `stex run` reports as step_ms.
 * A binary of its own: the tables are loaded once per process. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

static const char SHADER[] =
    "@group(0) @binding(0) var<storage, read_write> v : array<f32>;\n"
    "@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  v[g.x] = pow(v[g.x], 2.5) + exp(v[g.x]) + log(v[g.x] + 1.0);\n"
    "}\n";

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_tables_load_at_pipeline_creation(void **state)
{
    (void)state;
    const stex_profile *nv = stex_profile_get(STEX_PROFILE_NVIDIA);
    assert_int_equal(stex_math_tables_loaded(nv), 0);
    assert_int_equal(stex_math_tables_loaded(stex_profile_get(STEX_PROFILE_SPEC)), 0);
    stex_adapter *a;
    stex_device *dev = fixture_device(STEX_PROFILE_NVIDIA, &a);
    stex_wgsl_module *m = fixture_module(SHADER, "tables.wgsl");
    stex_pipeline *p;
    double t0 = now_s();
    assert_int_equal(stex_wgsl_pipeline_create(dev, m, "main", NULL, &p), STEX_OK);
    double create_s = now_s() - t0;
    /* before any dispatch: every table pow, exp and log read is in memory */
    assert_int_equal(stex_math_tables_loaded(nv), 3);
    stex_buffer *b;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 16,
                         .usage = STEX_BUFFER_USAGE_STORAGE}, &b), STEX_OK);
    float in[4] = {0.5f, 1.0f, 2.0f, 3.0f};
    memcpy(stex_buffer_data(b), in, sizeof in);
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, &(stex_bind_group_entry){.binding = 0, .buffer = b},
                                            1, &g), STEX_OK);
    t0 = now_s();
    assert_int_equal(stex_dispatch(p, g, 4, 1, 1, &(stex_dispatch_options){.threads = 1}), STEX_OK);
    double first_s = now_s() - t0;
    /* 4 invocations cost microseconds; the tables cost what creation took.
     * A generous factor: the first dispatch is no longer the loading. */
    if (first_s > create_s / 2)
        fail_msg("first dispatch %.3f s, pipeline creation %.3f s: the dispatch paid for the "
                 "tables", first_s, create_s);
    float out[4];
    memcpy(out, stex_buffer_data(b), sizeof out);
    assert_true(out[1] > 3.0f && out[1] < 4.5f); /* 1 + e + ln 2, the tables' values */
    stex_bind_group_destroy(g);
    stex_buffer_destroy(b);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

/* The spec profile has no tables: nothing to load, whatever it calls. */
static void test_spec_loads_nothing(void **state)
{
    (void)state;
    const stex_profile *spec = stex_profile_get(STEX_PROFILE_SPEC);
    stex_math_fn fn;
    assert_true(stex_math_fn_find("pow", "f32,f32->f32", &fn));
    stex_math_prepare(spec, fn);
    assert_int_equal(stex_math_tables_loaded(spec), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_load_at_pipeline_creation),
        cmocka_unit_test(test_spec_loads_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
