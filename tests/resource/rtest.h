/* Shared helpers of the resource-layer tests (cmocka). */
#ifndef STEX_TESTS_RESOURCE_RTEST_H
#define STEX_TESTS_RESOURCE_RTEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"

static stex_adapter *rtest_adapter_;

/* A device of the given profile with the required features; rtest_release()
 * destroys it and its adapter. */
static inline stex_device *rtest_device_with(stex_profile_id profile, uint32_t features)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.profile = profile;
    stex_adapter *a = NULL;
    stex_device *d = NULL;
    if (stex_adapter_create(&ad, &a) != STEX_OK)
        fail_msg("adapter: %s", stex_last_error());
    stex_device_desc dd = {.required_features = features};
    if (stex_device_create(a, &dd, &d) != STEX_OK)
        fail_msg("device: %s", stex_last_error());
    rtest_adapter_ = a;
    return d;
}

/* A device with every storage format (tier2, bgra8unorm-storage) and
 * filterable float32. */
static inline stex_device *rtest_device(stex_profile_id profile)
{
    return rtest_device_with(profile, STEX_FEATURE_TEXTURE_FORMATS_TIER2 |
                                          STEX_FEATURE_BGRA8UNORM_STORAGE |
                                          STEX_FEATURE_FLOAT32_FILTERABLE);
}

static inline void rtest_release(stex_device *d)
{
    stex_device_destroy(d);
    stex_adapter_destroy(rtest_adapter_);
    rtest_adapter_ = NULL;
}

/* Path of a file in tests/data. */
static inline const char *rtest_data(const char *name)
{
    static char path[4096];
    const char *dir = getenv("STEX_TEST_DATA");
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", name);
    return path;
}

#define RTEST_CHECK_OK(expr)                                                     \
    do {                                                                         \
        stex_status st_ = (expr);                                                \
        if (st_ != STEX_OK)                                                      \
            fail_msg("%s -> %s: %s", #expr, stex_status_name(st_), stex_last_error()); \
    } while (0)

#endif
