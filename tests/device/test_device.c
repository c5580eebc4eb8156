/* Adapters and devices: requestDevice's rules (WebGPU spec "requestDevice",
 * "Limits"; lesson 004 on requesting features). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/device.h"

#define T1 STEX_FEATURE_TEXTURE_FORMATS_TIER1
#define T2 STEX_FEATURE_TEXTURE_FORMATS_TIER2
#define RG11 STEX_FEATURE_RG11B10UFLOAT_RENDERABLE
#define CORE STEX_FEATURE_CORE_FEATURES_AND_LIMITS
#define LF STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES

static void expect_error(stex_status st, stex_status kind, const char *substr)
{
    if (st != kind || !strstr(stex_last_error(), substr))
        fail_msg("expected %s containing \"%s\", got %s: \"%s\"", stex_status_name(kind), substr,
                 stex_status_name(st), stex_last_error());
}

/* WebGPU's default limits (spec "Limits" table), written out. */
static void test_default_limits(void **state)
{
    (void)state;
    stex_limits l = stex_limits_default();
    assert_int_equal(l.max_texture_dimension_1d, 8192);
    assert_int_equal(l.max_texture_dimension_2d, 8192);
    assert_int_equal(l.max_texture_dimension_3d, 2048);
    assert_int_equal(l.max_texture_array_layers, 256);
    assert_int_equal(l.max_storage_textures_per_shader_stage, 4);
    assert_int_equal(l.max_compute_invocations_per_workgroup, 256);
    assert_int_equal(l.max_compute_workgroup_size_x, 256);
    assert_int_equal(l.max_compute_workgroup_size_y, 256);
    assert_int_equal(l.max_compute_workgroup_size_z, 64);
    assert_int_equal(l.max_compute_workgroups_per_dimension, 65535);
    assert_int_equal(l.max_compute_workgroup_storage_size, 16384);
    assert_int_equal(l.max_storage_buffer_binding_size, 134217728);
    assert_int_equal(l.max_buffer_size, 268435456);
    /* the limits every GPUSupportedLimits has, render-only ones included */
    assert_int_equal(l.max_bind_groups_plus_vertex_buffers, 24);
    assert_int_equal(l.max_immediate_size, 64);
    assert_int_equal(l.max_storage_buffers_in_vertex_stage, 8);
    assert_int_equal(l.max_storage_buffers_in_fragment_stage, 8);
    assert_int_equal(l.max_storage_textures_in_vertex_stage, 4);
    assert_int_equal(l.max_storage_textures_in_fragment_stage, 4);
    assert_int_equal(l.max_vertex_buffers, 8);
    assert_int_equal(l.max_vertex_attributes, 16);
    assert_int_equal(l.max_vertex_buffer_array_stride, 2048);
    assert_int_equal(l.max_inter_stage_shader_variables, 16);
    assert_int_equal(l.max_color_attachments, 8);
    assert_int_equal(l.max_color_attachment_bytes_per_sample, 32);
}

static void test_default_adapter(void **state)
{
    (void)state;
    stex_adapter *a = NULL;
    stex_device *d = NULL;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_adapter_features(a), STEX_FEATURE_ALL);
    assert_true(stex_adapter_language_features(a) & LF);
    assert_int_equal(stex_device_create(a, NULL, &d), STEX_OK);
    /* A device asked for nothing has only core-features-and-limits. */
    assert_int_equal(stex_device_features(d), CORE);
    assert_true(stex_device_language_features(d) & LF);
    stex_limits dl = stex_limits_default();
    assert_memory_equal(stex_device_limits(d), &dl, sizeof dl);
    assert_non_null(stex_device_profile(d));
    assert_int_equal(stex_profile_id_of(stex_device_profile(d)), STEX_PROFILE_SPEC);
    stex_device_set_profile(d, STEX_PROFILE_LAVAPIPE);
    assert_int_equal(stex_profile_id_of(stex_device_profile(d)), STEX_PROFILE_LAVAPIPE);
    stex_device_set_profile(d, STEX_PROFILE_COUNT); /* ignored */
    assert_int_equal(stex_profile_id_of(stex_device_profile(d)), STEX_PROFILE_LAVAPIPE);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* Lesson 004: tier2 implies tier1 and rg11b10ufloat-renderable; tier1 implies
 * rg11b10ufloat-renderable. */
static void test_implied_features(void **state)
{
    (void)state;
    static const struct {
        uint32_t ask, want;
    } cases[] = {
        {T2, T2 | T1 | RG11 | CORE},
        {T1, T1 | RG11 | CORE},
        {RG11, RG11 | CORE},
        {STEX_FEATURE_BGRA8UNORM_STORAGE, STEX_FEATURE_BGRA8UNORM_STORAGE | CORE},
    };
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stex_device *d;
        stex_device_desc dd = {.required_features = cases[i].ask};
        assert_int_equal(stex_device_create(a, &dd, &d), STEX_OK);
        if (stex_device_features(d) != cases[i].want)
            fail_msg("asked 0x%x: features 0x%x, want 0x%x", cases[i].ask,
                     stex_device_features(d), cases[i].want);
        stex_device_destroy(d);
    }
    stex_adapter_destroy(a);
}

/* requestDevice with a feature the adapter lacks: TypeError (lavapipe:
 * "TypeError: Unsupported feature"). */
static void test_missing_feature(void **state)
{
    (void)state;
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.features = STEX_FEATURE_BGRA8UNORM_STORAGE | CORE; /* lavapipe-like */
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    stex_device *d = (stex_device *)&d;
    stex_device_desc dd = {.required_features = T2};
    expect_error(stex_device_create(a, &dd, &d), STEX_TYPE_ERROR, "texture-formats-tier2");
    assert_null(d);
    dd.required_features = T1 | STEX_FEATURE_BGRA8UNORM_STORAGE;
    expect_error(stex_device_create(a, &dd, &d), STEX_TYPE_ERROR, "texture-formats-tier1");
    dd.required_features = 1u << 31;
    expect_error(stex_device_create(a, &dd, &d), STEX_TYPE_ERROR, "GPUFeatureName");
    /* An adapter that has tier2 has tier1 too. */
    stex_adapter *b;
    ad.features = T2;
    assert_int_equal(stex_adapter_create(&ad, &b), STEX_OK);
    assert_int_equal(stex_adapter_features(b), T2 | T1 | RG11);
    dd.required_features = T1;
    assert_int_equal(stex_device_create(b, &dd, &d), STEX_OK);
    stex_device_destroy(d);
    stex_adapter_destroy(b);
    stex_adapter_destroy(a);
}

static void test_limits(void **state)
{
    (void)state;
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.limits = (stex_limits){0};
    ad.limits.max_texture_dimension_2d = 16384; /* the rest: defaults */
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    assert_int_equal(stex_adapter_limits(a)->max_texture_dimension_2d, 16384);
    assert_int_equal(stex_adapter_limits(a)->max_texture_array_layers, 256);

    stex_device *d;
    stex_device_desc dd = {0};
    assert_int_equal(stex_device_create(a, &dd, &d), STEX_OK);
    /* Not asked for: the device gets the default, not the adapter's best. */
    assert_int_equal(stex_device_limits(d)->max_texture_dimension_2d, 8192);
    stex_device_destroy(d);

    dd.required_limits.max_texture_dimension_2d = 16384;
    dd.required_limits.max_texture_array_layers = 10; /* worse than default: default */
    assert_int_equal(stex_device_create(a, &dd, &d), STEX_OK);
    assert_int_equal(stex_device_limits(d)->max_texture_dimension_2d, 16384);
    assert_int_equal(stex_device_limits(d)->max_texture_array_layers, 256);
    stex_device_destroy(d);

    dd.required_limits.max_texture_dimension_2d = 16385;
    expect_error(stex_device_create(a, &dd, &d), STEX_TYPE_ERROR, "max_texture_dimension_2d");
    dd.required_limits.max_texture_dimension_2d = 0;
    dd.required_limits.max_compute_workgroup_size_z = 65;
    expect_error(stex_device_create(a, &dd, &d), STEX_TYPE_ERROR, "max_compute_workgroup_size_z");
    stex_adapter_destroy(a);

    /* An adapter below the defaults does not exist. */
    ad.limits.max_texture_dimension_2d = 4096;
    expect_error(stex_adapter_create(&ad, &a), STEX_INVALID_ARGUMENT, "below WebGPU's default");
}

static void test_bad_arguments(void **state)
{
    (void)state;
    stex_adapter *a = NULL;
    stex_device *d = NULL;
    expect_error(stex_adapter_create(NULL, NULL), STEX_INVALID_ARGUMENT, "NULL");
    expect_error(stex_device_create(NULL, NULL, &d), STEX_INVALID_ARGUMENT, "adapter");
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.features = 1u << 30;
    expect_error(stex_adapter_create(&ad, &a), STEX_INVALID_ARGUMENT, "unknown bits");
    ad = stex_adapter_desc_default();
    ad.profile = STEX_PROFILE_COUNT;
    expect_error(stex_adapter_create(&ad, &a), STEX_INVALID_ARGUMENT, "profile");
    assert_null(a);
    /* Accessors tolerate NULL. */
    assert_int_equal(stex_device_features(NULL), 0);
    assert_null(stex_device_limits(NULL));
    stex_device_destroy(NULL);
    stex_adapter_destroy(NULL);
}

/* The language feature is a property of the adapter description (navigator.gpu),
 * switchable off to model an older browser; the device inherits it. */
static void test_language_feature_off(void **state)
{
    (void)state;
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.language_features = 0;
    stex_adapter *a;
    stex_device *d;
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, &d), STEX_OK);
    assert_int_equal(stex_device_language_features(d), 0);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* Each profile's adapter offers what its device's adapter offered WebGPU
 * (tests/data/adapter-features.tsv: Dawn's adapter_features on lavapipe and
 * on the H200), less the names stex does not know; spec's offers all. */
static void test_profile_adapters(void **state)
{
    (void)state;
    assert_int_equal(stex_adapter_desc_for_profile(STEX_PROFILE_SPEC).features,
                     STEX_FEATURE_ALL);
    const char *dir = getenv("STEX_TEST_DATA");
    char path[4096], line[4096];
    snprintf(path, sizeof path, "%s/adapter-features.tsv", dir ? dir : "tests/data");
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (STEX_TEST_DATA)", path);
    int devices = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = 0;
        char *tab = strchr(line, '\t');
        assert_non_null(tab);
        *tab = 0;
        stex_profile_id id = !strcmp(line, "lavapipe") ? STEX_PROFILE_LAVAPIPE
                                                       : STEX_PROFILE_NVIDIA;
        assert_true(!strcmp(line, "lavapipe") || !strcmp(line, "nvidia"));
        uint32_t want = 0;
        for (char *name = strtok(tab + 1, ","); name; name = strtok(NULL, ",")) {
            stex_feature ft;
            if (stex_feature_from_name(name, &ft))
                want |= (uint32_t)ft;
        }
        stex_adapter_desc d = stex_adapter_desc_for_profile(id);
        assert_int_equal(d.features, want);
        assert_int_equal(d.profile, id);
        devices++;
    }
    fclose(f);
    assert_int_equal(devices, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_limits),   cmocka_unit_test(test_default_adapter),
        cmocka_unit_test(test_implied_features), cmocka_unit_test(test_missing_feature),
        cmocka_unit_test(test_limits),           cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_language_feature_off),
        cmocka_unit_test(test_profile_adapters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
