/* createTexture's rules (WebGPU spec "createTexture", "maximum mipLevel
 * count", "Limits"): every bad input gives the right error kind and a message
 * naming the rule; good inputs pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stex/device.h"

#define ST STEX_USAGE_STORAGE_BINDING
#define TB STEX_USAGE_TEXTURE_BINDING
#define RA STEX_USAGE_RENDER_ATTACHMENT
#define T1 STEX_FEATURE_TEXTURE_FORMATS_TIER1
#define BC STEX_FEATURE_TEXTURE_COMPRESSION_BC
#define BGRA STEX_FEATURE_BGRA8UNORM_STORAGE
#define D1 STEX_TEXTURE_DIMENSION_1D
#define D2 STEX_TEXTURE_DIMENSION_2D
#define D3 STEX_TEXTURE_DIMENSION_3D
#define F(x) STEX_FORMAT_##x

static const stex_format srgb_view[] = {F(RGBA8UNORM_SRGB)};
static const stex_format snorm_view[] = {F(RGBA8SNORM)};
static const stex_format r16unorm_view[] = {F(R16UNORM)};

static const struct tex_case {
    const char *why;
    uint32_t features;
    stex_texture_desc desc;
    stex_status want;
    const char *msg;
} cases[] = {
    /* valid */
    {"storage rgba8unorm 4x4", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, STEX_OK, ""},
    {"zero height/depth mean 1", 0, {.size = {4, 0, 0}, .format = F(RGBA8UNORM), .usage = ST}, STEX_OK, ""},
    {"storage + mipLevelCount 3 (lavapipe ok)", 0, {.size = {16, 16, 1}, .format = F(RGBA8UNORM), .mip_level_count = 3, .usage = ST}, STEX_OK, ""},
    {"16x16 has 5 levels", 0, {.size = {16, 16, 1}, .format = F(RGBA8UNORM), .mip_level_count = 5, .usage = TB}, STEX_OK, ""},
    {"17x3 has 5 levels", 0, {.size = {17, 3, 1}, .format = F(RGBA8UNORM), .mip_level_count = 5, .usage = TB}, STEX_OK, ""},
    {"3d depth counts for mips", 0, {.dimension = D3, .size = {4, 4, 16}, .format = F(R32FLOAT), .mip_level_count = 5, .usage = ST}, STEX_OK, ""},
    {"storage 1d", 0, {.dimension = D1, .size = {16, 1, 1}, .format = F(R32FLOAT), .usage = ST}, STEX_OK, ""},
    {"storage 3d", 0, {.dimension = D3, .size = {4, 4, 4}, .format = F(R32FLOAT), .usage = ST}, STEX_OK, ""},
    {"8192x1 = maxTextureDimension2D", 0, {.size = {8192, 1, 1}, .format = F(R32FLOAT), .usage = ST}, STEX_OK, ""},
    {"256 layers = maxTextureArrayLayers", 0, {.size = {4, 4, 256}, .format = F(R32FLOAT), .usage = ST}, STEX_OK, ""},
    {"3d 2048 = maxTextureDimension3D", 0, {.dimension = D3, .size = {2048, 1, 2048}, .format = F(R8UINT), .usage = TB}, STEX_OK, ""},
    {"multisampled render target", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .sample_count = 4, .usage = RA | TB}, STEX_OK, ""},
    {"bgra8unorm storage with the feature", BGRA, {.size = {4, 4, 1}, .format = F(BGRA8UNORM), .usage = ST}, STEX_OK, ""},
    {"r8unorm storage with tier1", T1, {.size = {4, 4, 1}, .format = F(R8UNORM), .usage = ST}, STEX_OK, ""},
    {"bc1 with texture-compression-bc", BC, {.size = {8, 4, 1}, .format = F(BC1_RGBA_UNORM), .usage = TB}, STEX_OK, ""},
    {"viewFormats rgba8unorm-srgb", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST, .view_formats = srgb_view, .view_format_count = 1}, STEX_OK, ""},
    /* type errors (content timeline) */
    {"format missing", 0, {.size = {4, 4, 1}, .usage = ST}, STEX_TYPE_ERROR, "format is required"},
    {"format out of range", 0, {.size = {4, 4, 1}, .format = (stex_format)999, .usage = ST}, STEX_TYPE_ERROR, "not a GPUTextureFormat"},
    {"dimension out of range", 0, {.dimension = (stex_texture_dimension)7, .size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, STEX_TYPE_ERROR, "not a GPUTextureDimension"},
    {"r16unorm needs tier1 to exist", 0, {.size = {4, 4, 1}, .format = F(R16UNORM), .usage = TB}, STEX_TYPE_ERROR, "r16unorm requires feature texture-formats-tier1"},
    {"bc7 needs texture-compression-bc", 0, {.size = {4, 4, 1}, .format = F(BC7_RGBA_UNORM), .usage = TB}, STEX_TYPE_ERROR, "requires feature texture-compression-bc"},
    {"viewFormats entry needs its feature", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = TB, .view_formats = r16unorm_view, .view_format_count = 1}, STEX_TYPE_ERROR, "viewFormats[0] r16unorm requires feature"},
    /* validation errors */
    {"usage 0", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM)}, STEX_VALIDATION_ERROR, "usage is 0"},
    {"usage unknown bit", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = 0x100}, STEX_VALIDATION_ERROR, "not GPUTextureUsage flags"},
    {"width 0", 0, {.size = {0, 4, 1}, .format = F(RGBA8UNORM), .usage = ST}, STEX_VALIDATION_ERROR, "size.width is 0"},
    {"sampleCount 2", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .sample_count = 2, .usage = RA}, STEX_VALIDATION_ERROR, "sampleCount 2 is not 1 or 4"},
    {"sampleCount 4 with storage", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .sample_count = 4, .usage = ST | RA}, STEX_VALIDATION_ERROR, "sampleCount 4 with STORAGE_BINDING usage; storage textures must have sampleCount 1"},
    {"sampleCount 4 on 3d", 0, {.dimension = D3, .size = {4, 4, 1}, .format = F(RGBA8UNORM), .sample_count = 4, .usage = RA}, STEX_VALIDATION_ERROR, "needs a 2d texture"},
    {"sampleCount 4 with mips", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .sample_count = 4, .mip_level_count = 2, .usage = RA}, STEX_VALIDATION_ERROR, "needs mipLevelCount 1"},
    {"sampleCount 4 with layers", 0, {.size = {4, 4, 2}, .format = F(RGBA8UNORM), .sample_count = 4, .usage = RA}, STEX_VALIDATION_ERROR, "depthOrArrayLayers 1"},
    {"sampleCount 4 without RENDER_ATTACHMENT", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .sample_count = 4, .usage = TB}, STEX_VALIDATION_ERROR, "needs RENDER_ATTACHMENT"},
    {"2d width over limit", 0, {.size = {8193, 1, 1}, .format = F(R32FLOAT), .usage = ST}, STEX_VALIDATION_ERROR, "exceeds maxTextureDimension2D 8192"},
    {"2d height over limit", 0, {.size = {1, 8193, 1}, .format = F(R32FLOAT), .usage = ST}, STEX_VALIDATION_ERROR, "maxTextureDimension2D"},
    {"too many layers", 0, {.size = {4, 4, 257}, .format = F(R32FLOAT), .usage = ST}, STEX_VALIDATION_ERROR, "depthOrArrayLayers 257 exceeds maxTextureArrayLayers 256"},
    {"1d over limit", 0, {.dimension = D1, .size = {8193, 1, 1}, .format = F(R32FLOAT), .usage = ST}, STEX_VALIDATION_ERROR, "maxTextureDimension1D"},
    {"1d with height", 0, {.dimension = D1, .size = {16, 2, 1}, .format = F(R32FLOAT), .usage = ST}, STEX_VALIDATION_ERROR, "1d texture must have height 1"},
    {"1d depth format", 0, {.dimension = D1, .size = {16, 1, 1}, .format = F(DEPTH32FLOAT), .usage = TB}, STEX_VALIDATION_ERROR, "1d textures cannot have depth"},
    {"3d over limit", 0, {.dimension = D3, .size = {4, 4, 2049}, .format = F(R32FLOAT), .usage = ST}, STEX_VALIDATION_ERROR, "maxTextureDimension3D 2048"},
    {"3d depth format", 0, {.dimension = D3, .size = {4, 4, 4}, .format = F(DEPTH16UNORM), .usage = TB}, STEX_VALIDATION_ERROR, "3d textures cannot have depth"},
    {"mips too many for 16x16", 0, {.size = {16, 16, 1}, .format = F(RGBA8UNORM), .mip_level_count = 6, .usage = ST}, STEX_VALIDATION_ERROR, "mipLevelCount 6 is more than the 5 levels"},
    {"layers do not count for 2d mips", 0, {.size = {4, 4, 16}, .format = F(RGBA8UNORM), .mip_level_count = 4, .usage = ST}, STEX_VALIDATION_ERROR, "more than the 3 levels"},
    {"1d has one level", 0, {.dimension = D1, .size = {16, 1, 1}, .format = F(R32FLOAT), .mip_level_count = 2, .usage = ST}, STEX_VALIDATION_ERROR, "more than the 1 levels"},
    {"storage on srgb", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM_SRGB), .usage = ST}, STEX_VALIDATION_ERROR, "STORAGE_BINDING but format rgba8unorm-srgb cannot be a storage texture: rgba8unorm-srgb is not a storage format"},
    {"storage on depth", 0, {.size = {4, 4, 1}, .format = F(DEPTH32FLOAT), .usage = ST}, STEX_VALIDATION_ERROR, "depth32float is not a storage format"},
    {"storage on bc with bc feature", BC, {.size = {4, 4, 1}, .format = F(BC1_RGBA_UNORM), .usage = ST}, STEX_VALIDATION_ERROR, "bc1-rgba-unorm is not a storage format"},
    {"storage r8unorm without tier1", 0, {.size = {4, 4, 1}, .format = F(R8UNORM), .usage = ST}, STEX_VALIDATION_ERROR, "r8unorm cannot be a storage texture: it needs feature texture-formats-tier1"},
    {"storage bgra8unorm without the feature", 0, {.size = {4, 4, 1}, .format = F(BGRA8UNORM), .usage = ST}, STEX_VALIDATION_ERROR, "needs feature bgra8unorm-storage"},
    {"bc1 not a multiple of the block", BC, {.size = {5, 4, 1}, .format = F(BC1_RGBA_UNORM), .usage = TB}, STEX_VALIDATION_ERROR, "not a multiple of its 4x4 block"},
    {"viewFormats not -srgb compatible", 0, {.size = {4, 4, 1}, .format = F(RGBA8UNORM), .usage = TB, .view_formats = snorm_view, .view_format_count = 1}, STEX_VALIDATION_ERROR, "viewFormats[0] rgba8snorm is not compatible with format rgba8unorm"},
};

static stex_device *make_device(stex_adapter *a, uint32_t features, uint64_t max2d)
{
    stex_device *d;
    stex_device_desc dd = {.required_features = features};
    dd.required_limits.max_texture_dimension_2d = max2d;
    assert_int_equal(stex_device_create(a, &dd, &d), STEX_OK);
    return d;
}

static void test_cases(void **state)
{
    (void)state;
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const struct tex_case *c = &cases[i];
        stex_device *d = make_device(a, c->features, 0);
        stex_clear_error();
        stex_status st = stex_validate_texture(d, &c->desc);
        if (st != c->want || !strstr(stex_last_error(), c->msg)) {
            print_error("%s (format %s): want %s \"%s\", got %s \"%s\"\n", c->why,
                        stex_format_name(c->desc.format), stex_status_name(c->want), c->msg,
                        stex_status_name(st), stex_last_error());
            bad++;
        }
        stex_device_destroy(d);
    }
    stex_adapter_destroy(a);
    assert_int_equal(bad, 0);
}

/* The limits come from the device: a device that asked for more allows more. */
static void test_raised_limit(void **state)
{
    (void)state;
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.limits.max_texture_dimension_2d = 16384;
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    stex_texture_desc td = {.size = {16384, 1, 1}, .format = F(R32FLOAT), .usage = ST};
    stex_device *d = make_device(a, 0, 0);
    assert_int_equal(stex_validate_texture(d, &td), STEX_VALIDATION_ERROR);
    stex_device_destroy(d);
    d = make_device(a, 0, 16384);
    assert_int_equal(stex_validate_texture(d, &td), STEX_OK);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

static void test_null(void **state)
{
    (void)state;
    stex_texture_desc td = {.size = {4, 4, 1}, .format = F(R32FLOAT), .usage = ST};
    assert_int_equal(stex_validate_texture(NULL, &td), STEX_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_raised_limit),
        cmocka_unit_test(test_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
