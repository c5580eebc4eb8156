/* Cancelling a dispatch (stex/cancel.h): from another thread, by a
 * deadline, before it starts; a C kernel stops between workgroups, the
 * WGSL interpreter inside an endless loop.  dispatchWorkgroups(65535,
 * 65535, 65535) would take about 400 days; each one here must end within
 * a second of the request, with STEX_CANCELLED and the reason named. */
#include <pthread.h>
#include <time.h>

#include "dtest.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Counts its invocations in word 0 (racy on purpose: only "some ran" matters). */
static void count(const stex_invocation *inv)
{
    stex_buffer_store_u32(inv, 0, 0, stex_buffer_load_u32(inv, 0, 0) + 1);
}

typedef struct fixture {
    stex_device *dev;
    stex_buffer *buf;
    stex_pipeline *p;
    stex_bind_group *g;
} fixture;

static void c_fixture(fixture *f)
{
    f->dev = dt_device();
    f->buf = dt_buffer(f->dev, 16, STEX_BUFFER_USAGE_STORAGE);
    stex_layout_entry e = dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER);
    stex_pipeline_desc pd = {.kernel = count, .workgroup_size = {8, 8, 1}, .entries = &e,
                             .entry_count = 1};
    DT_OK(stex_pipeline_create(f->dev, &pd, &f->p));
    stex_bind_group_entry be = {.binding = 0, .buffer = f->buf};
    DT_OK(stex_bind_group_create(f->p, &be, 1, &f->g));
}

static void fixture_free(fixture *f)
{
    stex_bind_group_destroy(f->g);
    stex_pipeline_destroy(f->p);
    stex_buffer_destroy(f->buf);
    dt_release(f->dev);
}

typedef struct later {
    stex_cancel *c;
    double after_s, at;
} later;

static void *request_later(void *arg)
{
    later *l = arg;
    struct timespec t = {0, (long)(l->after_s * 1e9)};
    nanosleep(&t, NULL);
    l->at = now_s();
    stex_cancel_request(l->c, STEX_CANCEL_INTERRUPTED);
    return NULL;
}

/* Another thread asks; the 2^48 workgroups stop at once. */
static void test_interrupt_from_thread(void **state)
{
    (void)state;
    fixture f;
    c_fixture(&f);
    stex_cancel *c = stex_cancel_create();
    assert_non_null(c);
    later l = {c, 0.2, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, request_later, &l), 0);
    stex_dispatch_options o = {.threads = 2, .cancel = c};
    stex_status st = stex_dispatch(f.p, f.g, 65535, 65535, 65535, &o);
    double end = now_s();
    pthread_join(th, NULL);
    assert_int_equal(st, STEX_CANCELLED);
    assert_string_equal(stex_status_name(st), "cancelled");
    assert_non_null(strstr(stex_last_error(), "dispatchWorkgroups stopped: interrupted"));
    assert_true(end - l.at < 0.5);
    assert_int_equal(stex_cancel_reason_of(c), STEX_CANCEL_INTERRUPTED);
    assert_true(((uint32_t *)stex_buffer_data(f.buf))[0] > 0); /* it had started */
    /* a raised flag refuses the next dispatch before it runs anything */
    memset(stex_buffer_data(f.buf), 0, 16);
    assert_int_equal(stex_dispatch(f.p, f.g, 4, 4, 1, &o), STEX_CANCELLED);
    assert_int_equal(((uint32_t *)stex_buffer_data(f.buf))[0], 0);
    /* reset: the same flag serves the next piece of work */
    stex_cancel_reset(c);
    DT_OK(stex_dispatch(f.p, f.g, 1, 1, 1, &o));
    stex_cancel_destroy(c);
    fixture_free(&f);
}

/* A deadline: the message names the time limit. */
static void test_timeout(void **state)
{
    (void)state;
    fixture f;
    c_fixture(&f);
    stex_cancel *c = stex_cancel_create();
    stex_cancel_set_timeout(c, 0.25);
    stex_dispatch_options o = {.threads = 2, .cancel = c};
    double t0 = now_s();
    stex_status st = stex_dispatch(f.p, f.g, 65535, 65535, 65535, &o);
    double took = now_s() - t0;
    assert_int_equal(st, STEX_CANCELLED);
    assert_non_null(strstr(stex_last_error(), "the time limit of 0.25 s ran out"));
    assert_int_equal(stex_cancel_reason_of(c), STEX_CANCEL_TIMEOUT);
    assert_true(took >= 0.25 && took < 1.0);
    /* no flag at all: NULL never stops, and checks say so */
    assert_int_equal(stex_cancel_check(NULL), STEX_CANCEL_NONE);
    stex_cancel_destroy(c);
    fixture_free(&f);
}

/* The WGSL interpreter: one workgroup in a loop that never ends (the step
 * limit lifted) stops inside the loop, not at its end. */
static void test_wgsl_endless_loop(void **state)
{
    (void)state;
    static const char SRC[] =
        "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
        "@compute @workgroup_size(64)\n"
        "fn main(@builtin(local_invocation_index) i : u32) {\n"
        "  var n = 0u;\n"
        "  loop {\n"
        "    n = n + 1u;\n"
        "    if (n == 0u && i == 1000u) { break; }\n"
        "  }\n"
        "  out[i] = n;\n"
        "}\n";
    stex_device *dev = dt_device();
    stex_wgsl_module *m;
    DT_OK(stex_wgsl_module_create(SRC, "endless.wgsl", &m));
    stex_wgsl_options wo = {.max_steps = UINT64_MAX};
    stex_pipeline *p;
    DT_OK(stex_wgsl_pipeline_create(dev, m, "main", &wo, &p));
    stex_buffer *b = dt_buffer(dev, 256, STEX_BUFFER_USAGE_STORAGE);
    stex_bind_group_entry be = {.binding = 0, .buffer = b};
    stex_bind_group *g;
    DT_OK(stex_bind_group_create(p, &be, 1, &g));
    stex_cancel *c = stex_cancel_create();
    stex_cancel_set_timeout(c, 0.3);
    stex_dispatch_options o = {.threads = 1, .cancel = c};
    double t0 = now_s();
    stex_status st = stex_dispatch(p, g, 1, 1, 1, &o);
    double took = now_s() - t0;
    assert_int_equal(st, STEX_CANCELLED);
    assert_non_null(strstr(stex_last_error(), "the time limit of 0.3 s ran out"));
    assert_true(took >= 0.3 && took < 1.3);
    /* an interrupt from another thread, the same way */
    stex_cancel_reset(c);
    later l = {c, 0.2, 0};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, request_later, &l), 0);
    st = stex_dispatch(p, g, 1, 1, 1, &o);
    double end = now_s();
    pthread_join(th, NULL);
    assert_int_equal(st, STEX_CANCELLED);
    assert_non_null(strstr(stex_last_error(), "interrupted"));
    assert_true(end - l.at < 0.5);
    stex_cancel_destroy(c);
    stex_bind_group_destroy(g);
    stex_buffer_destroy(b);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    dt_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interrupt_from_thread),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_wgsl_endless_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
