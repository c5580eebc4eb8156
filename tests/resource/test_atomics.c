/* Buffers: zeroed and aligned, writeBuffer rules, WGSL atomics (single
 * thread semantics table, and exact totals under many OpenMP threads). */
#include <omp.h>

#include "rtest.h"

static stex_buffer *buffer(stex_device *dev, uint64_t size)
{
    stex_buffer *b;
    RTEST_CHECK_OK(stex_buffer_create(dev, &(stex_buffer_desc){.size = size,
                                                               .usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST},
                                      &b));
    return b;
}

static void test_buffer_basics(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_buffer *b = buffer(dev, 1028);
    assert_int_equal(stex_buffer_size(b), 1028);
    assert_true(((uintptr_t)stex_buffer_data(b) & 15) == 0);
    for (int i = 0; i < 1028; i++)
        assert_int_equal(stex_buffer_data(b)[i], 0);
    uint32_t words[3] = {1, 2, 3};
    RTEST_CHECK_OK(stex_queue_write_buffer(b, 1016, words, 12));
    assert_int_equal(stex_atomic_load_u32(b, 1024), 3);
    assert_int_equal(stex_queue_write_buffer(b, 1020, words, 12), STEX_VALIDATION_ERROR);
    assert_true(strstr(stex_last_error(), "exceeds the buffer size 1028"));
    assert_int_equal(stex_queue_write_buffer(b, 2, words, 4), STEX_VALIDATION_ERROR);
    assert_true(strstr(stex_last_error(), "bufferOffset 2 is not a multiple of 4"));
    /* typed words: little-endian bytes, misaligned / out of range refused */
    assert_true(stex_buffer_write_f32(b, 0, -2.5f));
    assert_true(stex_buffer_write_i32(b, 4, -2));
    const uint8_t want[8] = {0x00, 0x00, 0x20, 0xc0, 0xfe, 0xff, 0xff, 0xff};
    assert_memory_equal(stex_buffer_data(b), want, 8);
    float f;
    int32_t i;
    uint32_t u;
    assert_true(stex_buffer_read_f32(b, 0, &f) && f == -2.5f);
    assert_true(stex_buffer_read_i32(b, 4, &i) && i == -2);
    assert_true(stex_buffer_read_u32(b, 4, &u) && u == 0xfffffffeu);
    assert_false(stex_buffer_read_u32(b, 1026, &u));
    assert_false(stex_buffer_read_u32(b, 1028, &u));
    assert_false(stex_buffer_write_u32(b, 2, 1));
    assert_true(stex_buffer_read_u32(b, 1024, &u) && u == 3);
    stex_buffer_destroy(b);
    stex_buffer *bad = NULL;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 64, .usage = STEX_BUFFER_USAGE_MAP_READ | STEX_BUFFER_USAGE_STORAGE}, &bad),
                     STEX_VALIDATION_ERROR);
    assert_true(strstr(stex_last_error(), "MAP_READ may only be combined with COPY_DST"));
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 1ull << 40, .usage = STEX_BUFFER_USAGE_STORAGE}, &bad),
                     STEX_VALIDATION_ERROR);
    assert_true(strstr(stex_last_error(), "exceeds maxBufferSize"));
    assert_null(bad);
    /* WebGPU's createBuffer takes any size (a multiple of 4 only with
     * mappedAtCreation); the bytes past it are not the buffer's */
    stex_buffer *odd = NULL;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 6, .usage = STEX_BUFFER_USAGE_COPY_DST}, &odd),
                     STEX_OK);
    assert_int_equal(stex_buffer_size(odd), 6);
    assert_true(stex_buffer_read_u32(odd, 0, &u) && u == 0);
    assert_false(stex_buffer_read_u32(odd, 4, &u));
    stex_buffer_destroy(odd);
    /* every GPUBufferUsage bit is a usage (WebGPU's values), and no other */
    for (uint32_t bit = 0x10; bit <= 0x200; bit <<= 1) {
        assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 16, .usage = bit}, &odd),
                         STEX_OK);
        stex_buffer_destroy(odd);
    }
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = 16, .usage = 0x400}, &odd),
                     STEX_VALIDATION_ERROR);
    assert_true(strstr(stex_last_error(), "unknown bits 0x400"));
    rtest_release(dev);
}

/* One row per builtin: the old value returned and the value left, as WGSL
 * defines them (u32 wrapping arithmetic, signed comparison for i32). */
typedef struct op_case {
    const char *op;
    uint32_t before, arg, returned, after;
} op_case;

static const op_case ops[] = {
    {"atomicAdd", 5, 7, 5, 12},
    {"atomicAdd wraps", 0xfffffffeu, 3, 0xfffffffeu, 1},
    {"atomicSub", 5, 7, 5, 0xfffffffeu},
    {"atomicMax u32", 0x80000000u, 5, 0x80000000u, 0x80000000u},
    {"atomicMin u32", 0x80000000u, 5, 0x80000000u, 5},
    {"atomicMax i32", 0x80000000u, 5, 0x80000000u, 5},          /* INT32_MIN < 5 */
    {"atomicMin i32", 0x80000000u, 5, 0x80000000u, 0x80000000u},
    {"atomicMax i32 negatives", 0xfffffffeu, 0xffffffffu, 0xfffffffeu, 0xffffffffu}, /* -2 vs -1 */
    {"atomicAnd", 0xf0f0u, 0xff00u, 0xf0f0u, 0xf000u},
    {"atomicOr", 0xf0f0u, 0x0f00u, 0xf0f0u, 0xfff0u},
    {"atomicXor", 0xf0f0u, 0xffffu, 0xf0f0u, 0x0f0fu},
    {"atomicExchange", 9, 4, 9, 4},
};

static uint32_t apply(stex_buffer *b, const char *op, uint32_t arg)
{
    if (!strncmp(op, "atomicAdd", 9)) return stex_atomic_add_u32(b, 8, arg);
    if (!strcmp(op, "atomicSub")) return stex_atomic_sub_u32(b, 8, arg);
    if (!strcmp(op, "atomicMax u32")) return stex_atomic_max_u32(b, 8, arg);
    if (!strcmp(op, "atomicMin u32")) return stex_atomic_min_u32(b, 8, arg);
    if (!strncmp(op, "atomicMax i32", 13)) return (uint32_t)stex_atomic_max_i32(b, 8, (int32_t)arg);
    if (!strcmp(op, "atomicMin i32")) return (uint32_t)stex_atomic_min_i32(b, 8, (int32_t)arg);
    if (!strcmp(op, "atomicAnd")) return stex_atomic_and_u32(b, 8, arg);
    if (!strcmp(op, "atomicOr")) return stex_atomic_or_u32(b, 8, arg);
    if (!strcmp(op, "atomicXor")) return stex_atomic_xor_u32(b, 8, arg);
    if (!strcmp(op, "atomicExchange")) return stex_atomic_exchange_u32(b, 8, arg);
    fail_msg("unknown op %s", op);
    return 0;
}

static void test_semantics(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_buffer *b = buffer(dev, 16);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        stex_atomic_store_u32(b, 8, ops[i].before);
        uint32_t r = apply(b, ops[i].op, ops[i].arg);
        uint32_t after = stex_atomic_load_u32(b, 8);
        if (r != ops[i].returned || after != ops[i].after)
            fail_msg("%s(%08x, %08x): returned %08x left %08x, expected %08x and %08x", ops[i].op, ops[i].before,
                     ops[i].arg, r, after, ops[i].returned, ops[i].after);
        /* neighbours untouched */
        assert_int_equal(stex_atomic_load_u32(b, 4), 0);
        assert_int_equal(stex_atomic_load_u32(b, 12), 0);
    }
    bool ex;
    stex_atomic_store_u32(b, 0, 10);
    assert_int_equal(stex_atomic_compare_exchange_weak_u32(b, 0, 11, 99, &ex), 10);
    assert_false(ex);
    assert_int_equal(stex_atomic_compare_exchange_weak_u32(b, 0, 10, 99, &ex), 10);
    assert_true(ex);
    assert_int_equal(stex_atomic_load_u32(b, 0), 99);
    /* misaligned or out-of-range words: nothing happens */
    assert_int_equal(stex_atomic_add_u32(b, 2, 1), 0);
    assert_int_equal(stex_atomic_add_u32(b, 16, 1), 0);
    assert_int_equal(stex_atomic_load_u32(b, 0), 99);
    stex_buffer_destroy(b);
    rtest_release(dev);
}

/* The histogram pattern: many threads atomicAdd into few counters; the
 * totals are exact, and max/min/or see every thread's contribution. */
static void test_concurrent(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    enum { BINS = 16, N = 400000 };
    stex_buffer *b = buffer(dev, (BINS + 4) * 4);
    int threads = 0;
#pragma omp parallel num_threads(8)
    {
#pragma omp single
        threads = omp_get_num_threads();
#pragma omp for schedule(dynamic, 97)
        for (int i = 0; i < N; i++) {
            stex_atomic_add_u32(b, (uint64_t)(i % BINS) * 4, 1);
            stex_atomic_max_u32(b, BINS * 4, (uint32_t)i);
            stex_atomic_min_i32(b, BINS * 4 + 4, -(int32_t)i);
            stex_atomic_or_u32(b, BINS * 4 + 8, 1u << (i % 32));
            stex_atomic_sub_u32(b, BINS * 4 + 12, 3);
        }
    }
    for (int k = 0; k < BINS; k++)
        assert_int_equal(stex_atomic_load_u32(b, (uint64_t)k * 4), N / BINS);
    assert_int_equal(stex_atomic_load_u32(b, BINS * 4), N - 1);
    assert_int_equal((int32_t)stex_atomic_load_u32(b, BINS * 4 + 4), -(N - 1));
    assert_int_equal(stex_atomic_load_u32(b, BINS * 4 + 8), 0xffffffffu);
    assert_int_equal(stex_atomic_load_u32(b, BINS * 4 + 12), (uint32_t)(0u - 3u * N));
    print_message("%d threads, %d atomic rounds\n", threads, N);
    stex_buffer_destroy(b);
    rtest_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffer_basics),
        cmocka_unit_test(test_semantics),
        cmocka_unit_test(test_concurrent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
