/* Storage-texture bind group layout entries (WebGPU spec "createBindGroupLayout";
 * lessons 003 and 000).  One part sweeps every format x access x viewDimension
 * x visibility under many feature sets against a model written from the spec
 * (tests/format/spec_formats.h); the other checks each rule's message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stex/device.h"
#include "../format/spec_formats.h"

#define V STEX_STAGE_VERTEX
#define FR STEX_STAGE_FRAGMENT
#define C STEX_STAGE_COMPUTE
#define BCF STEX_FEATURE_TEXTURE_COMPRESSION_BC

static stex_device *device_with(uint32_t features, uint32_t language_features)
{
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.language_features = language_features;
    stex_adapter *a;
    stex_device *d;
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    stex_device_desc dd = {.required_features = features};
    assert_int_equal(stex_device_create(a, &dd, &d), STEX_OK);
    stex_adapter_destroy(a);
    return d;
}

/* The spec's verdict: TypeError if the format does not exist on the device,
 * else valid iff (format, access) is allowed, the view is not a cube, and
 * VERTEX sees it only read-only. */
static stex_status spec_layout(const char *fmt, stex_access access, stex_view_dimension dim,
                               uint32_t vis, uint32_t feat, uint32_t lf)
{
    uint32_t need = spec_create_feature(fmt);
    uint32_t have = feat & T2 ? feat | T1 : feat; /* tier2 enables tier1 */
    if (need && !(have & need))
        return STEX_TYPE_ERROR;
    stex_access a = access ? access : STEX_ACCESS_WRITE_ONLY;
    if (!spec_access(fmt, a, feat, lf))
        return STEX_VALIDATION_ERROR;
    if (dim == STEX_VIEW_DIMENSION_CUBE || dim == STEX_VIEW_DIMENSION_CUBE_ARRAY)
        return STEX_VALIDATION_ERROR;
    if ((vis & V) && a != STEX_ACCESS_READ_ONLY)
        return STEX_VALIDATION_ERROR;
    return STEX_OK;
}

static void test_spec_sweep(void **state)
{
    (void)state;
    static const uint32_t feature_sets[] = {0, BGRA, T1, T2, T1 | BGRA, T2 | BGRA | BCF,
                                            STEX_FEATURE_ALL};
    static const uint32_t visibilities[] = {0, C, FR, V, C | FR, C | V, FR | V, C | FR | V};
    long n = 0, bad = 0;
    for (size_t fs = 0; fs < sizeof feature_sets / sizeof *feature_sets; fs++)
        for (uint32_t lf = 0; lf <= LF; lf += LF) {
            stex_device *d = device_with(feature_sets[fs], lf);
            for (int f = 1; f < STEX_FORMAT_COUNT; f++)
                for (int a = 0; a < STEX_ACCESS_COUNT; a++)
                    for (int dim = 0; dim < STEX_VIEW_DIMENSION_COUNT; dim++)
                        for (size_t v = 0; v < sizeof visibilities / sizeof *visibilities; v++) {
                            const char *fmt = stex_format_name((stex_format)f);
                            stex_storage_texture_layout e = {(stex_access)a, (stex_format)f,
                                                             (stex_view_dimension)dim};
                            stex_status want = spec_layout(fmt, e.access, e.view_dimension,
                                                           visibilities[v], feature_sets[fs], lf);
                            stex_clear_error();
                            stex_status got =
                                stex_validate_storage_texture_layout(d, visibilities[v], &e);
                            n++;
                            if (want != got && bad++ < 20)
                                print_error("%s %s %s vis %u features 0x%x lf %u: spec %s, "
                                            "stex %s (%s)\n", fmt, stex_access_name(e.access),
                                            stex_view_dimension_name(e.view_dimension),
                                            visibilities[v], feature_sets[fs], lf,
                                            stex_status_name(want), stex_status_name(got),
                                            stex_last_error());
                        }
            stex_device_destroy(d);
        }
    print_message("layout sweep: %ld/%ld cases agree with the spec model\n", n - bad, n);
    assert_int_equal(bad, 0);
}

#define F(x) STEX_FORMAT_##x
#define A(x) STEX_ACCESS_##x
#define D(x) STEX_VIEW_DIMENSION_##x

static const struct layout_case {
    const char *why;
    uint32_t features, lf, visibility;
    stex_storage_texture_layout e;
    stex_status want;
    const char *msg;
} cases[] = {
    {"lesson 003's layout", 0, LF, C, {A(WRITE_ONLY), F(RGBA8UNORM), D(2D)}, STEX_OK, ""},
    {"defaults: write-only, 2d", 0, 0, C | FR, {0, F(RGBA8UNORM), 0}, STEX_OK, ""},
    {"r32float read-write in core", 0, LF, C, {A(READ_WRITE), F(R32FLOAT), D(2D)}, STEX_OK, ""},
    {"read-only in VERTEX (spec; lessons refuse)", 0, LF, V, {A(READ_ONLY), F(RGBA8UNORM), D(2D)}, STEX_OK, ""},
    {"rgba8unorm read-write with tier2", T2, LF, C, {A(READ_WRITE), F(RGBA8UNORM), D(2D)}, STEX_OK, ""},
    {"r16unorm write-only with tier1", T1, LF, C, {A(WRITE_ONLY), F(R16UNORM), D(2D)}, STEX_OK, ""},
    {"1d and 3d views", 0, LF, C, {A(READ_ONLY), F(R32UINT), D(3D)}, STEX_OK, ""},
    {"format missing", 0, LF, C, {A(WRITE_ONLY), 0, D(2D)}, STEX_TYPE_ERROR, "storageTexture.format is required"},
    {"format out of range", 0, LF, C, {A(WRITE_ONLY), (stex_format)500, D(2D)}, STEX_TYPE_ERROR, "not a GPUTextureFormat"},
    {"access out of range", 0, LF, C, {(stex_access)9, F(R32FLOAT), D(2D)}, STEX_TYPE_ERROR, "not a GPUStorageTextureAccess"},
    {"viewDimension out of range", 0, LF, C, {A(WRITE_ONLY), F(R32FLOAT), (stex_view_dimension)9}, STEX_TYPE_ERROR, "not a GPUTextureViewDimension"},
    {"r16unorm needs tier1 to exist", 0, LF, C, {A(WRITE_ONLY), F(R16UNORM), D(2D)}, STEX_TYPE_ERROR, "r16unorm requires feature texture-formats-tier1"},
    {"unknown visibility bit", 0, LF, 8, {A(WRITE_ONLY), F(R32FLOAT), D(2D)}, STEX_VALIDATION_ERROR, "not GPUShaderStage flags"},
    {"read-only without the language feature", 0, 0, C, {A(READ_ONLY), F(R32FLOAT), D(2D)}, STEX_VALIDATION_ERROR, "read-only needs the WGSL language feature readonly_and_readwrite_storage_textures"},
    {"read-write without the language feature", STEX_FEATURE_ALL, 0, C, {A(READ_WRITE), F(R32FLOAT), D(2D)}, STEX_VALIDATION_ERROR, "readonly_and_readwrite_storage_textures"},
    {"rgba8unorm read-write without tier2", T1, LF, C, {A(READ_WRITE), F(RGBA8UNORM), D(2D)}, STEX_VALIDATION_ERROR, "format rgba8unorm does not support storage access read-write: it needs feature texture-formats-tier2"},
    {"r8snorm read-write never", STEX_FEATURE_ALL, LF, C, {A(READ_WRITE), F(R8SNORM), D(2D)}, STEX_VALIDATION_ERROR, "read-write is allowed only for r32uint, r32sint, r32float"},
    {"rg32float read-write never", STEX_FEATURE_ALL, LF, C, {A(READ_WRITE), F(RG32FLOAT), D(2D)}, STEX_VALIDATION_ERROR, "does not support storage access read-write"},
    {"bgra8unorm read-only never", STEX_FEATURE_ALL, LF, C, {A(READ_ONLY), F(BGRA8UNORM), D(2D)}, STEX_VALIDATION_ERROR, "bgra8unorm may only be bound write-only"},
    {"bgra8unorm without the feature", 0, LF, C, {A(WRITE_ONLY), F(BGRA8UNORM), D(2D)}, STEX_VALIDATION_ERROR, "needs feature bgra8unorm-storage"},
    {"r8unorm without tier1", 0, LF, C, {0, F(R8UNORM), D(2D)}, STEX_VALIDATION_ERROR, "format r8unorm does not support storage access write-only: it needs feature texture-formats-tier1"},
    {"srgb never storage", STEX_FEATURE_ALL, LF, C, {0, F(RGBA8UNORM_SRGB), D(2D)}, STEX_VALIDATION_ERROR, "rgba8unorm-srgb is not a storage format"},
    {"cube refused", 0, LF, C, {A(WRITE_ONLY), F(RGBA8UNORM), D(CUBE)}, STEX_VALIDATION_ERROR, "viewDimension cube is not allowed"},
    {"cube-array refused", 0, LF, FR, {A(READ_ONLY), F(RGBA8UNORM), D(CUBE_ARRAY)}, STEX_VALIDATION_ERROR, "viewDimension cube-array is not allowed"},
    {"write-only (defaulted) in VERTEX", 0, LF, V, {0, F(RGBA8UNORM), 0}, STEX_VALIDATION_ERROR, "a write-only storage texture is visible to VERTEX"},
    {"read-write in VERTEX|COMPUTE", 0, LF, V | C, {A(READ_WRITE), F(R32FLOAT), D(2D)}, STEX_VALIDATION_ERROR, "a read-write storage texture is visible to VERTEX"},
};

static void test_cases(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct layout_case *c = &cases[i];
        stex_device *d = device_with(c->features, c->lf);
        stex_clear_error();
        stex_status st = stex_validate_storage_texture_layout(d, c->visibility, &c->e);
        if (st != c->want || !strstr(stex_last_error(), c->msg)) {
            print_error("%s: want %s \"%s\", got %s \"%s\"\n", c->why, stex_status_name(c->want),
                        c->msg, stex_status_name(st), stex_last_error());
            bad++;
        }
        stex_device_destroy(d);
    }
    assert_int_equal(bad, 0);
}

static void test_null(void **state)
{
    (void)state;
    stex_device *d = device_with(0, LF);
    assert_int_equal(stex_validate_storage_texture_layout(d, C, NULL), STEX_INVALID_ARGUMENT);
    stex_storage_texture_layout e = {0, F(R32FLOAT), 0};
    assert_int_equal(stex_validate_storage_texture_layout(NULL, C, &e), STEX_INVALID_ARGUMENT);
    stex_device_destroy(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_sweep),
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
