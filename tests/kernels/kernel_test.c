/* Shared helpers of the kernel tests (see kernel_test.h). */
#include "kernel_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *kt_data_path(const char *name)
{
    const char *dir = getenv("STEX_TEST_DATA");
    if (!dir)
        fail_msg("STEX_TEST_DATA is not set (run the tests through meson test)");
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    assert_non_null(p);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

json_t *kt_conformance(void)
{
    static json_t *root;
    if (!root) {
        char *path = kt_data_path("lavapipe-kernels.json");
        json_error_t err;
        root = json_load_file(path, 0, &err);
        if (!root)
            fail_msg("cannot read %s: %s (line %d)", path, err.text, err.line);
        free(path);
    }
    return root;
}

json_t *kt_json(json_t *root, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    json_t *j = root;
    for (char *save = NULL, *part = strtok_r(buf, ".", &save); part && j;
         part = strtok_r(NULL, ".", &save))
        j = json_is_array(j) ? json_array_get(j, strtoul(part, NULL, 10)) : json_object_get(j, part);
    if (!j)
        fail_msg("kernels.json has no %s", path);
    return j;
}

const char *kt_json_string(json_t *root, const char *path)
{
    const char *s = json_string_value(kt_json(root, path));
    if (!s)
        fail_msg("kernels.json: %s is not a string", path);
    return s;
}

stex_kernel_instance *kt_create(const char *kernel, const stex_kernel_setup *s)
{
    const stex_kernel *k = stex_kernel_find(kernel);
    if (!k)
        fail_msg("no kernel named %s in the registry", kernel);
    stex_kernel_instance *ki = NULL;
    stex_status st = stex_kernel_instance_create(k, s, &ki);
    if (st)
        fail_msg("%s: create: %s: %s", kernel, stex_status_name(st), stex_last_error());
    return ki;
}

void kt_dispatch(stex_kernel_instance *ki, const stex_dispatch_options *o)
{
    stex_status st = stex_kernel_instance_dispatch(ki, o);
    if (st)
        fail_msg("dispatch: %s: %s", stex_status_name(st), stex_last_error());
}

uint8_t *kt_output(stex_kernel_instance *ki, size_t *size)
{
    uint8_t *b = NULL;
    stex_status st = stex_kernel_instance_read_output(ki, &b, size);
    if (st)
        fail_msg("read_output: %s: %s", stex_status_name(st), stex_last_error());
    return b;
}

uint8_t *kt_run(const char *kernel, const stex_kernel_setup *s, const stex_dispatch_options *o,
                size_t *size)
{
    stex_kernel_instance *ki = kt_create(kernel, s);
    kt_dispatch(ki, o);
    uint8_t *b = kt_output(ki, size);
    stex_kernel_instance_destroy(ki);
    return b;
}

void kt_sha256(const void *data, size_t size, char hex[65])
{
    static int checked; /* a hash compared with the harness's is worth its SHA-256 */
    if (!checked) {
        const char *bad = sha256_self_check();
        if (bad)
            fail_msg("sha256 of \"%s\" differs from FIPS 180-2's", bad);
        checked = 1;
    }
    sha256_hex(data, size, hex);
}

const kt_schedule kt_schedules[] = {
    {STEX_SCHEDULE_IN_ORDER, 0, 1}, {STEX_SCHEDULE_IN_ORDER, 0, 2},
    {STEX_SCHEDULE_REVERSED, 0, 1}, {STEX_SCHEDULE_REVERSED, 0, 2},
    {STEX_SCHEDULE_SHUFFLED, 1, 1}, {STEX_SCHEDULE_SHUFFLED, 2, 2},
    {STEX_SCHEDULE_SHUFFLED, 3, 1}, {STEX_SCHEDULE_SHUFFLED, 0xdeadbeef, 2},
};
const size_t kt_schedule_count = sizeof kt_schedules / sizeof kt_schedules[0];

const char *kt_schedule_text(const kt_schedule *s)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "%s seed %llu, %d thread%s", stex_schedule_name(s->schedule),
             (unsigned long long)s->seed, s->threads, s->threads == 1 ? "" : "s");
    return buf;
}

stex_dispatch_options kt_options(const kt_schedule *s, stex_profile_id profile,
                                 stex_race_detector *rd)
{
    stex_dispatch_options o = {.schedule = s->schedule, .seed = s->seed, .threads = s->threads,
                               .profile = stex_profile_get(profile), .races = rd};
    return o;
}
