/*
 * tests/wgsl/wgsl_fixture.h - the set-up the WGSL tests share: a device
 * under a profile, a module from source (the test fails with its
 * diagnostics if it does not compile).  Include after <cmocka.h>.
 */
#ifndef STEX_TESTS_WGSL_FIXTURE_H
#define STEX_TESTS_WGSL_FIXTURE_H

#include "stex/stex.h"

/* A device of a default adapter under profile prof; *a to destroy after it. */
static inline stex_device *fixture_device(stex_profile_id prof, stex_adapter **a)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.profile = prof;
    stex_device *dev;
    assert_int_equal(stex_adapter_create(&ad, a), STEX_OK);
    assert_int_equal(stex_device_create(*a, &(stex_device_desc){0}, &dev), STEX_OK);
    return dev;
}

static inline stex_wgsl_module *fixture_module(const char *src, const char *file)
{
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(src, file, &m))
        fail_msg("%s", stex_wgsl_module_diagnostics(m));
    return m;
}

#endif
