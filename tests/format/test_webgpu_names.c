/* WebGPU spellings <-> stex enums, written out from the WebGPU IDL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stex/webgpu.h"

static void test_features(void **state)
{
    (void)state;
    static const char *const idl[] = {"bgra8unorm-storage", "texture-formats-tier1",
                                      "texture-formats-tier2", "rg11b10ufloat-renderable",
                                      "float32-filterable", "float32-blendable", "shader-f16",
                                      "texture-compression-bc", "depth32float-stencil8",
                                      "core-features-and-limits", "subgroups"};
    uint32_t all = 0;
    for (size_t i = 0; i < sizeof idl / sizeof *idl; i++) {
        stex_feature f = 0;
        assert_true(stex_feature_from_name(idl[i], &f));
        assert_string_equal(stex_feature_name(f), idl[i]);
        all |= f;
    }
    assert_int_equal(all, STEX_FEATURE_ALL);
    stex_feature keep = STEX_FEATURE_SHADER_F16;
    assert_false(stex_feature_from_name("texture-formats-tier3", &keep));
    assert_false(stex_feature_from_name(NULL, &keep));
    assert_int_equal(keep, STEX_FEATURE_SHADER_F16); /* left alone */
    assert_string_equal(stex_feature_name((stex_feature)0), "?");
    assert_string_equal(stex_feature_name((stex_feature)3), "?"); /* two bits */
    assert_string_equal(stex_feature_name((stex_feature)(1u << 30)), "?");
}

static void test_feature_lists(void **state)
{
    (void)state;
    uint32_t m = 123;
    const char *bad = NULL;
    assert_true(stex_features_parse("bgra8unorm-storage,texture-formats-tier1", &m, &bad));
    assert_int_equal(m, STEX_FEATURE_BGRA8UNORM_STORAGE | STEX_FEATURE_TEXTURE_FORMATS_TIER1);
    assert_true(stex_features_parse("", &m, &bad));
    assert_int_equal(m, 0);
    assert_true(stex_features_parse("shader-f16,,shader-f16,", &m, &bad));
    assert_int_equal(m, STEX_FEATURE_SHADER_F16);
    const char *list = "shader-f16,texture-formats-tier", *bad2 = NULL;
    assert_false(stex_features_parse(list, &m, &bad2));
    assert_ptr_equal(bad2, list + strlen("shader-f16,"));
    /* A prefix of a name is not the name. */
    assert_false(stex_features_parse("shader", &m, &bad));
    assert_false(stex_features_parse("shader-f16x", &m, &bad));
}

static void test_language_features(void **state)
{
    (void)state;
    stex_language_feature lf = 0;
    assert_true(stex_language_feature_from_name("readonly_and_readwrite_storage_textures", &lf));
    assert_int_equal(lf, STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES);
    assert_string_equal(stex_language_feature_name(lf), "readonly_and_readwrite_storage_textures");
    assert_false(stex_language_feature_from_name("readonly-and-readwrite-storage-textures", &lf));
    assert_string_equal(stex_language_feature_name((stex_language_feature)0), "?");
}

static void test_access(void **state)
{
    (void)state;
    static const struct {
        stex_access a;
        const char *api, *wgsl;
    } cases[] = {{STEX_ACCESS_WRITE_ONLY, "write-only", "write"},
                 {STEX_ACCESS_READ_ONLY, "read-only", "read"},
                 {STEX_ACCESS_READ_WRITE, "read-write", "read_write"}};
    for (size_t i = 0; i < 3; i++) {
        stex_access a = STEX_ACCESS_UNDEFINED;
        assert_string_equal(stex_access_name(cases[i].a), cases[i].api);
        assert_string_equal(stex_access_wgsl_name(cases[i].a), cases[i].wgsl);
        assert_true(stex_access_from_name(cases[i].api, &a));
        assert_int_equal(a, cases[i].a);
        a = STEX_ACCESS_UNDEFINED;
        assert_true(stex_access_from_name(cases[i].wgsl, &a));
        assert_int_equal(a, cases[i].a);
    }
    stex_access a = STEX_ACCESS_READ_ONLY;
    assert_false(stex_access_from_name("undefined", &a));
    assert_false(stex_access_from_name("readwrite", &a));
    assert_false(stex_access_from_name("", &a));
    assert_int_equal(a, STEX_ACCESS_READ_ONLY);
    assert_string_equal(stex_access_name(STEX_ACCESS_COUNT), "?");
    assert_string_equal(stex_access_wgsl_name((stex_access)-1), "?");
}

static void test_dimensions_and_stages(void **state)
{
    (void)state;
    static const char *const views[] = {"1d", "2d", "2d-array", "cube", "cube-array", "3d"};
    /* WGSL's spelling of the same dimensions (texture_storage_2d_array). */
    static const char *const wgsl[] = {"1d", "2d", "2d_array", "cube", "cube_array", "3d"};
    for (size_t i = 0; i < 6; i++) {
        stex_view_dimension d = STEX_VIEW_DIMENSION_UNDEFINED;
        assert_true(stex_view_dimension_from_name(views[i], &d));
        assert_int_not_equal(d, STEX_VIEW_DIMENSION_UNDEFINED);
        assert_string_equal(stex_view_dimension_name(d), views[i]);
        assert_string_equal(stex_view_dimension_wgsl_name(d), wgsl[i]);
    }
    assert_string_equal(stex_view_dimension_wgsl_name(STEX_VIEW_DIMENSION_UNDEFINED), "?");
    assert_string_equal(stex_view_dimension_wgsl_name(STEX_VIEW_DIMENSION_COUNT), "?");
    stex_view_dimension vd = STEX_VIEW_DIMENSION_2D;
    assert_false(stex_view_dimension_from_name("2darray", &vd));
    assert_false(stex_view_dimension_from_name("undefined", &vd));
    assert_string_equal(stex_view_dimension_name(STEX_VIEW_DIMENSION_COUNT), "?");

    static const char *const texs[] = {"1d", "2d", "3d"};
    for (size_t i = 0; i < 3; i++) {
        stex_texture_dimension d = STEX_TEXTURE_DIMENSION_COUNT;
        assert_true(stex_texture_dimension_from_name(texs[i], &d));
        assert_string_equal(stex_texture_dimension_name(d), texs[i]);
    }
    stex_texture_dimension td;
    assert_false(stex_texture_dimension_from_name("2d-array", &td));
    assert_int_equal(STEX_TEXTURE_DIMENSION_2D, 0); /* WebGPU's default is zero */

    uint32_t m = 0;
    const char *bad = NULL;
    assert_true(stex_stages_parse("compute,fragment,vertex", &m, &bad));
    assert_int_equal(m, 7);
    assert_true(stex_stages_parse("vertex", &m, &bad));
    assert_int_equal(m, STEX_STAGE_VERTEX);
    assert_false(stex_stages_parse("compute,geometry", &m, &bad));
    assert_string_equal(bad, "geometry");
    assert_false(stex_stages_parse("COMPUTE", &m, &bad));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features),         cmocka_unit_test(test_feature_lists),
        cmocka_unit_test(test_language_features), cmocka_unit_test(test_access),
        cmocka_unit_test(test_dimensions_and_stages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
