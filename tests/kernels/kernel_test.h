/*
 * Shared helpers of the kernel tests: the conformance data (kernels.json,
 * copied from conformance/lavapipe into tests/data), instances that fail the
 * test with stex_last_error() when something goes wrong, and the schedules
 * every determinism test walks.
 */
#ifndef STEX_TESTS_KERNEL_TEST_H
#define STEX_TESTS_KERNEL_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>

#include "sha256.h"
#include "stex/stex.h"

/* tests/data/<name>, from STEX_TEST_DATA; malloc'ed. */
char *kt_data_path(const char *name);
/* kernels.json, parsed once (the test fails if it is missing). */
json_t *kt_conformance(void);
/* A member by dotted path ("difundir.experiments.0.pingpong.sha256"); digits index arrays. */
json_t *kt_json(json_t *root, const char *path);
const char *kt_json_string(json_t *root, const char *path);

stex_kernel_instance *kt_create(const char *kernel, const stex_kernel_setup *s);
void kt_dispatch(stex_kernel_instance *ki, const stex_dispatch_options *o);
uint8_t *kt_output(stex_kernel_instance *ki, size_t *size);
/* create + dispatch + read + destroy. */
uint8_t *kt_run(const char *kernel, const stex_kernel_setup *s, const stex_dispatch_options *o,
                size_t *size);
void kt_sha256(const void *data, size_t size, char hex[65]);

/* A schedule to run under: the rows of the determinism tables. */
typedef struct kt_schedule {
    stex_schedule schedule;
    uint64_t seed;
    int threads;
} kt_schedule;
extern const kt_schedule kt_schedules[];
extern const size_t kt_schedule_count;
const char *kt_schedule_text(const kt_schedule *s); /* "shuffled seed 3, 2 threads" (static buffer) */

/* Dispatch options of a schedule under a profile, with an optional detector. */
stex_dispatch_options kt_options(const kt_schedule *s, stex_profile_id profile,
                                 stex_race_detector *rd);

#endif
