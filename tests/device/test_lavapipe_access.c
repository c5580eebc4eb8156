/* Replays tests/data/lavapipe-access.json (validation verdicts measured on
 * lavapipe through Dawn and wgpu) against stex's validator:
 *  - the bind group layout table: every format x access x viewDimension x
 *    [COMPUTE, FRAGMENT, VERTEX], verdict, error kind and broken rule;
 *  - createTexture with TEXTURE_BINDING and with STORAGE_BINDING per format,
 *    and the extra createTexture cases;
 *  - the bind group cases;
 *  - the device without optional features, and requesting a missing feature.
 * The device is built with the features the file lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "stex/device.h"

static json_t *root;
static stex_adapter *adapter;
static stex_device *device; /* the measured device's features */
static uint32_t device_features;

static int setup(void **state)
{
    (void)state;
    const char *dir = getenv("STEX_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/lavapipe-access.json", dir ? dir : "tests/data");
    json_error_t err;
    root = json_load_file(path, 0, &err);
    if (!root) {
        fprintf(stderr, "cannot read %s: %s (line %d)\n", path, err.text, err.line);
        return -1;
    }
    uint32_t f = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(root, "device_features"), i, v)
    {
        stex_feature one;
        if (!stex_feature_from_name(json_string_value(v), &one)) {
            fprintf(stderr, "unknown feature %s in the file\n", json_string_value(v));
            return -1;
        }
        f |= one;
    }
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.features = f;
    ad.language_features =
        json_is_true(json_object_get(root, "wgsl_language_feature_readonly_and_readwrite_storage_textures"))
            ? STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES
            : 0;
    stex_device_desc dd = {.required_features = f};
    if (stex_adapter_create(&ad, &adapter) || stex_device_create(adapter, &dd, &device))
        return -1;
    device_features = f;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stex_device_destroy(device);
    stex_adapter_destroy(adapter);
    json_decref(root);
    return 0;
}

/* The error kind a measured message stands for. */
static stex_status kind_of(const char *msg)
{
    if (!msg)
        return STEX_OK;
    if (!strncmp(msg, "TypeError", 9))
        return STEX_TYPE_ERROR;
    return STEX_VALIDATION_ERROR;
}

/* The rule a measured layout message names, and the words stex's message for
 * the same rule must contain. */
static const struct {
    const char *measured, *stex;
} rules[] = {
    {"requires feature", "requires feature"},
    {"does not support storage texture access", "does not support storage access"},
    {"CubeArray texture views cannot be used as storage", "viewDimension cube-array"},
    {"Cube texture views cannot be used as storage", "viewDimension cube "},
    {"that contains ShaderStage::Vertex", "visible to VERTEX"},
};

static const char *stex_words_for(const char *measured)
{
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
        if (strstr(measured, rules[i].measured))
            return rules[i].stex;
    return NULL;
}

static void test_bind_group_layout_table(void **state)
{
    (void)state;
    static const char *const stages[] = {"COMPUTE", "FRAGMENT", "VERTEX"};
    static const uint32_t stage_bits[] = {STEX_STAGE_COMPUTE, STEX_STAGE_FRAGMENT,
                                          STEX_STAGE_VERTEX};
    json_t *bgl = json_object_get(root, "bind_group_layouts");
    json_t *table = json_object_get(bgl, "table"), *messages = json_object_get(bgl, "messages");
    assert_non_null(table);
    int n = 0, verdict_ok = 0, kind_ok = 0, rule_ok = 0, unknown_rule = 0, unmodelled = 0;
    const char *fname;
    json_t *per_format;
    json_object_foreach(table, fname, per_format)
    {
        stex_format f = stex_format_from_name(fname);
        if (f == STEX_FORMAT_UNDEFINED) {
            print_error("format %s is not in formats.def\n", fname);
            unmodelled++;
            continue;
        }
        const char *aname;
        json_t *per_access;
        json_object_foreach(per_format, aname, per_access)
        {
            stex_access a;
            assert_true(stex_access_from_name(aname, &a));
            const char *dname;
            json_t *row;
            json_object_foreach(per_access, dname, row)
            {
                stex_view_dimension d;
                assert_true(stex_view_dimension_from_name(dname, &d));
                for (size_t s = 0; s < 3; s++) {
                    json_t *cell = json_array_get(row, s);
                    const char *msg = json_is_string(cell)
                                          ? NULL
                                          : json_string_value(json_array_get(
                                                messages, (size_t)json_integer_value(cell)));
                    stex_storage_texture_layout e = {a, f, d};
                    stex_clear_error();
                    stex_status got = stex_validate_storage_texture_layout(device, stage_bits[s], &e);
                    stex_status want = kind_of(msg);
                    n++;
                    bool verdict = (got == STEX_OK) == (want == STEX_OK);
                    bool kind = got == want;
                    const char *words = msg ? stex_words_for(msg) : "";
                    if (!words)
                        unknown_rule++;
                    bool rule = words && strstr(stex_last_error(), words);
                    verdict_ok += verdict;
                    kind_ok += kind;
                    rule_ok += rule;
                    if (!(verdict && kind && rule))
                        print_error("%s %s %s %s: measured \"%.90s\", stex %s \"%s\"\n", fname,
                                    aname, dname, stages[s], msg ? msg : "ok",
                                    stex_status_name(got), stex_last_error());
                }
            }
        }
    }
    print_message("bind group layout table: %d/%d verdicts, %d/%d error kinds, %d/%d rules "
                  "match lavapipe\n", verdict_ok, n, kind_ok, n, rule_ok, n);
    assert_int_equal(unmodelled, 0);
    assert_int_equal(unknown_rule, 0);
    assert_int_equal(n, 2700);
    assert_int_equal(verdict_ok, n);
    assert_int_equal(kind_ok, n);
    assert_int_equal(rule_ok, n);
}

/* brief(): {"ok": true} or {"ok": false, "errors": [...]} / {"exception": ...}. */
static stex_status measured_kind(json_t *brief)
{
    if (json_is_true(json_object_get(brief, "ok")))
        return STEX_OK;
    json_t *ex = json_object_get(brief, "exception");
    if (ex)
        return kind_of(json_string_value(ex));
    return kind_of(json_string_value(json_array_get(json_object_get(brief, "errors"), 0)));
}

static void test_create_texture(void **state)
{
    (void)state;
    json_t *list = json_object_get(root, "create_texture_storage_binding");
    size_t i;
    json_t *c;
    int n = 0, ok = 0;
    json_array_foreach(list, i, c)
    {
        const char *fname = json_string_value(json_object_get(c, "format"));
        stex_format f = stex_format_from_name(fname);
        assert_int_not_equal(f, STEX_FORMAT_UNDEFINED);
        static const struct {
            const char *key;
            uint32_t usage;
        } u[] = {{"texture_binding_only", STEX_USAGE_TEXTURE_BINDING},
                 {"storage_binding", STEX_USAGE_STORAGE_BINDING}};
        for (size_t k = 0; k < 2; k++) {
            stex_texture_desc td = {.size = {4, 4, 1}, .format = f, .usage = u[k].usage};
            stex_status want = measured_kind(json_object_get(c, u[k].key));
            stex_status got = stex_validate_texture(device, &td);
            n++;
            if (got == want)
                ok++;
            else
                print_error("createTexture %s %s: measured %s, stex %s \"%s\"\n", fname, u[k].key,
                            stex_status_name(want), stex_status_name(got), stex_last_error());
        }
    }
    print_message("createTexture: %d/%d cases match lavapipe (verdict and error kind)\n", ok, n);
    assert_int_equal(n, 100);
    assert_int_equal(ok, n);
}

static const stex_format srgb_view[] = {STEX_FORMAT_RGBA8UNORM_SRGB};

/* The extra cases, with the descriptors of peer/tests/access.mjs. */
static const struct {
    const char *name;
    stex_texture_desc desc;
} extra[] = {
    {"storage + sampleCount 4", {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM, .sample_count = 4, .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_RENDER_ATTACHMENT}},
    {"storage + mipLevelCount 3", {.size = {16, 16, 1}, .format = STEX_FORMAT_RGBA8UNORM, .mip_level_count = 3, .usage = STEX_USAGE_STORAGE_BINDING}},
    {"storage 1d", {.dimension = STEX_TEXTURE_DIMENSION_1D, .size = {16, 1, 1}, .format = STEX_FORMAT_R32FLOAT, .usage = STEX_USAGE_STORAGE_BINDING}},
    {"storage 3d", {.dimension = STEX_TEXTURE_DIMENSION_3D, .size = {4, 4, 4}, .format = STEX_FORMAT_R32FLOAT, .usage = STEX_USAGE_STORAGE_BINDING}},
    {"storage rgba8unorm with viewFormats [rgba8unorm-srgb]", {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM, .usage = STEX_USAGE_STORAGE_BINDING, .view_formats = srgb_view, .view_format_count = 1}},
    {"storage 8192x1 (maxTextureDimension2D)", {.size = {8192, 1, 1}, .format = STEX_FORMAT_R32FLOAT, .usage = STEX_USAGE_STORAGE_BINDING}},
};

static void test_create_texture_extra(void **state)
{
    (void)state;
    json_t *list = json_object_get(root, "create_texture_extra");
    size_t i;
    json_t *c;
    int n = 0;
    json_array_foreach(list, i, c)
    {
        const char *name = json_string_value(json_object_get(c, "case"));
        size_t k = 0;
        while (k < sizeof extra / sizeof *extra && strcmp(extra[k].name, name))
            k++;
        if (k == sizeof extra / sizeof *extra)
            fail_msg("case \"%s\" has no descriptor here", name);
        stex_status want = measured_kind(json_object_get(c, "result"));
        stex_status got = stex_validate_texture(device, &extra[k].desc);
        if (got != want)
            fail_msg("%s: measured %s, stex %s \"%s\"", name, stex_status_name(want),
                     stex_status_name(got), stex_last_error());
        if (got != STEX_OK)
            assert_non_null(strstr(stex_last_error(), "sampleCount 4 with STORAGE_BINDING"));
        n++;
    }
    assert_int_equal(n, 6);
}

/* The bind group cases, with the descriptors of peer/tests/access.mjs.  The
 * verdict is the first failure of texture, view, layout and binding. */
static const struct {
    const char *name;
    stex_storage_texture_layout entry;
    stex_texture_desc tex;
    stex_view_desc view;
    const char *msg; /* stex's words for the rule, when refused */
} bind[] = {
    {"layout rgba8unorm, view of rgba8uint texture", {0, STEX_FORMAT_RGBA8UNORM, 0}, {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UINT, .usage = STEX_USAGE_STORAGE_BINDING}, {0}, "is not the layout's storageTexture.format"},
    {"texture without STORAGE_BINDING usage", {0, STEX_FORMAT_RGBA8UNORM, 0}, {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM, .usage = STEX_USAGE_TEXTURE_BINDING}, {0}, "does not include STORAGE_BINDING"},
    {"view with mipLevelCount 2", {0, STEX_FORMAT_RGBA8UNORM, 0}, {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM, .mip_level_count = 2, .usage = STEX_USAGE_STORAGE_BINDING}, {.mip_level_count = 2}, "exactly one mip level"},
    {"control: view of mip level 1 only", {0, STEX_FORMAT_RGBA8UNORM, 0}, {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM, .mip_level_count = 2, .usage = STEX_USAGE_STORAGE_BINDING}, {.base_mip_level = 1, .mip_level_count = 1}, NULL},
    {"layout 2d, view 2d-array", {0, STEX_FORMAT_RGBA8UNORM, 0}, {.size = {4, 4, 2}, .format = STEX_FORMAT_RGBA8UNORM, .usage = STEX_USAGE_STORAGE_BINDING}, {.dimension = STEX_VIEW_DIMENSION_2D_ARRAY}, "does not match the layout's storageTexture.viewDimension"},
    {"view format rgba8unorm-srgb of an rgba8unorm texture (layout rgba8unorm)", {0, STEX_FORMAT_RGBA8UNORM, 0}, {.size = {4, 4, 1}, .format = STEX_FORMAT_RGBA8UNORM, .usage = STEX_USAGE_STORAGE_BINDING, .view_formats = srgb_view, .view_format_count = 1}, {.format = STEX_FORMAT_RGBA8UNORM_SRGB}, "STORAGE_BINDING but view format rgba8unorm-srgb"},
    {"control: r32float read-write", {STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, 0}, {.size = {4, 4, 1}, .format = STEX_FORMAT_R32FLOAT, .usage = STEX_USAGE_STORAGE_BINDING}, {0}, NULL},
};

static void test_bind_groups(void **state)
{
    (void)state;
    json_t *list = json_object_get(root, "bind_groups");
    size_t i;
    json_t *c;
    int n = 0;
    json_array_foreach(list, i, c)
    {
        const char *name = json_string_value(json_object_get(c, "case"));
        size_t k = 0;
        while (k < sizeof bind / sizeof *bind && strcmp(bind[k].name, name))
            k++;
        if (k == sizeof bind / sizeof *bind)
            fail_msg("case \"%s\" has no descriptors here", name);
        bool measured_valid = !strcmp(json_string_value(json_object_get(c, "got")), "valid");
        stex_clear_error();
        stex_status st = stex_validate_texture(device, &bind[k].tex);
        if (!st)
            st = stex_validate_view(device, &bind[k].tex, &bind[k].view);
        if (!st)
            st = stex_validate_storage_texture_layout(device, STEX_STAGE_COMPUTE, &bind[k].entry);
        if (!st)
            st = stex_validate_storage_binding(device, &bind[k].entry, &bind[k].tex, &bind[k].view);
        if ((st == STEX_OK) != measured_valid)
            fail_msg("%s: measured %s, stex %s \"%s\"", name, measured_valid ? "valid" : "error",
                     stex_status_name(st), stex_last_error());
        if (st) {
            assert_int_equal(st, STEX_VALIDATION_ERROR);
            if (!strstr(stex_last_error(), bind[k].msg))
                fail_msg("%s: message \"%s\" lacks \"%s\"", name, stex_last_error(), bind[k].msg);
        }
        n++;
    }
    print_message("bind groups: %d/%d cases match lavapipe\n", n, n);
    assert_int_equal(n, 7);
}

static void test_device_without_optional_features(void **state)
{
    (void)state;
    json_t *plain = json_object_get(root, "device_without_optional_features");
    stex_device *d;
    assert_int_equal(stex_device_create(adapter, NULL, &d), STEX_OK);
    /* Its features, as measured. */
    uint32_t want = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(plain, "device_features"), i, v)
    {
        stex_feature one;
        assert_true(stex_feature_from_name(json_string_value(v), &one));
        want |= one;
    }
    assert_int_equal(stex_device_features(d), want);

    stex_texture_desc bgra = {.size = {4, 4, 1}, .format = STEX_FORMAT_BGRA8UNORM,
                              .usage = STEX_USAGE_STORAGE_BINDING};
    assert_int_equal(stex_validate_texture(d, &bgra),
                     measured_kind(json_object_get(plain, "bgra8unorm_storage_texture")));
    assert_non_null(strstr(stex_last_error(), "bgra8unorm-storage"));
    stex_storage_texture_layout e = {0, STEX_FORMAT_BGRA8UNORM, 0};
    assert_int_equal(stex_validate_storage_texture_layout(d, STEX_STAGE_COMPUTE, &e),
                     measured_kind(json_object_get(plain, "bgra8unorm_bgl_write_only")));
    stex_texture_desc r8 = {.size = {4, 4, 1}, .format = STEX_FORMAT_R8UNORM,
                            .usage = STEX_USAGE_STORAGE_BINDING};
    assert_int_equal(stex_validate_texture(d, &r8),
                     measured_kind(json_object_get(plain, "r8unorm_storage_texture")));
    assert_non_null(strstr(stex_last_error(), "texture-formats-tier1"));
    stex_device_destroy(d);

    /* requestDevice for a feature the adapter lacks: TypeError. */
    json_t *miss = json_object_get(plain, "request_missing_feature");
    stex_feature f;
    assert_true(stex_feature_from_name(json_string_value(json_object_get(miss, "feature")), &f));
    stex_device_desc dd = {.required_features = f};
    stex_status st = stex_device_create(adapter, &dd, &d);
    assert_int_equal(st, kind_of(json_string_value(json_object_get(miss, "result"))));
    assert_int_equal(st, STEX_TYPE_ERROR);
    assert_null(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bind_group_layout_table),
        cmocka_unit_test(test_create_texture),
        cmocka_unit_test(test_create_texture_extra),
        cmocka_unit_test(test_bind_groups),
        cmocka_unit_test(test_device_without_optional_features),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
