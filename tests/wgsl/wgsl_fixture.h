/*
 * tests/wgsl/wgsl_fixture.h - the set-up the WGSL tests share: a device
 * under a profile (with or without a device descriptor), a module from
 * source (the test fails with its diagnostics if it does not compile).
 * Include after <cmocka.h>.
 */
#ifndef STEX_TESTS_WGSL_FIXTURE_H
#define STEX_TESTS_WGSL_FIXTURE_H

#include "stex/stex.h"

/* A device by dd (features, limits) of a default adapter under profile
 * prof; *a to destroy after it. */
static inline stex_device *fixture_device_desc(stex_profile_id prof, const stex_device_desc *dd,
                                               stex_adapter **a)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.profile = prof;
    stex_device *dev;
    assert_int_equal(stex_adapter_create(&ad, a), STEX_OK);
    assert_int_equal(stex_device_create(*a, dd, &dev), STEX_OK);
    return dev;
}

/* The same with no features or limits required. */
static inline stex_device *fixture_device(stex_profile_id prof, stex_adapter **a)
{
    return fixture_device_desc(prof, &(stex_device_desc){0}, a);
}

static inline stex_wgsl_module *fixture_module(const char *src, const char *file)
{
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(src, file, &m))
        fail_msg("%s", stex_wgsl_module_diagnostics(m));
    return m;
}

/* The same for devices of profile prof: its front end's constant rule, and
 * the nvidia profile's unrolled loops (a module is lowered for one profile). */
static inline stex_wgsl_module *fixture_module_for(stex_profile_id prof, const char *src,
                                                   const char *file)
{
    stex_wgsl_module *m;
    if (stex_wgsl_module_create_for(stex_profile_get(prof), src, file, &m))
        fail_msg("%s", stex_wgsl_module_diagnostics(m));
    return m;
}

#endif
