/* Run files: a run file reproduces the built-in kernels byte for byte; every
 * bad input names its JSON path and rule; outputs are all or nothing; the
 * examples run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <jansson.h>

#include "kernels/inputs.h"
#include "stex/stex.h"

static char dir[256];
static const char *examples;

static void put_file(const char *name, const void *p, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    fclose(f);
}

static bool exists(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* Parses and executes text on a fresh device; returns the status. */
static stex_status run_text(const char *text, stex_run **out, stex_device **dev)
{
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, dev), STEX_OK);
    stex_adapter_destroy(a);
    stex_status st = stex_run_parse(text, "run.json", dir, NULL, out);
    if (!st)
        st = stex_run_execute(*out, *dev, NULL);
    return st;
}

static void expect_error(const char *text, stex_status want, const char *message)
{
    stex_run *r = NULL;
    stex_device *d = NULL;
    stex_status st = run_text(text, &r, &d);
    if (st != want || !strstr(stex_last_error(), message))
        fail_msg("status %d (want %d), message: %s\nwanted: %s", st, want, stex_last_error(), message);
    stex_run_destroy(r);
    stex_device_destroy(d);
}

/* decaer through a run file (kernel module, input from a .bin) equals stex_kernel_run. */
static void test_decaer_matches_kernel(void **state)
{
    (void)state;
    enum { W = 40, H = 24 };
    uint8_t input[W * H * 4];
    kernels_input_decaer(W, H, input);
    put_file("decaer_in.bin", input, sizeof input);
    const char *text =
        "{\"shaderModules\": {\"m\": {\"kernel\": \"decaer\"}},"
        " \"textures\": {\"t\": {\"size\": [40, 24], \"format\": \"r32float\","
        "   \"usage\": [\"STORAGE_BINDING\", \"COPY_SRC\", \"COPY_DST\"],"
        "   \"contents\": {\"file\": \"decaer_in.bin\", \"bytesPerRow\": 160}}},"
        " \"views\": {\"v\": {\"texture\": \"t\"}},"
        " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
        " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\", \"group\": 0},"
        "   \"entries\": [{\"binding\": 0, \"resource\": \"v\"}]}},"
        " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"],"
        "   \"workgroupCount\": [5, 3], \"repeat\": 3}}]}";
    stex_run *r;
    stex_device *d;
    assert_int_equal(run_text(text, &r, &d), STEX_OK);
    assert_int_equal(stex_run_dispatch_count(r), 3);
    stex_kernel_instance *ki;
    stex_kernel_setup s = {.width = W, .height = H, .iterations = 3};
    assert_int_equal(stex_kernel_run(stex_kernel_find("decaer"), &s, NULL, &ki), STEX_OK);
    uint8_t *want;
    size_t n;
    assert_int_equal(stex_kernel_instance_read_output(ki, &want, &n), STEX_OK);
    stex_image got;
    assert_int_equal(stex_image_from_texture(stex_run_texture(r, "t"), 0, &got), STEX_OK);
    assert_int_equal(n, sizeof input);
    for (uint32_t y = 0; y < H; y++)
        assert_memory_equal(got.data + y * got.bytes_per_row, want + y * W * 4, W * 4);
    assert_memory_not_equal(want, input, n); /* it did decay */
    free(want);
    stex_image_free(&got);
    stex_kernel_instance_destroy(ki);
    stex_run_destroy(r);
    stex_device_destroy(d);
}

/* decaer again, its module the lesson's WGSL text through stex's front end
 * and interpreter: the same bytes as the C kernel. */
static void test_wgsl_module_matches_kernel(void **state)
{
    (void)state;
    enum { W = 24, H = 16 };
    uint8_t input[W * H * 4];
    kernels_input_decaer(W, H, input);
    put_file("decaer_wgsl_in.bin", input, sizeof input);
    const stex_kernel *k = stex_kernel_find("decaer");
    json_t *root = json_pack(
        "{s:{s:{s:s}}, s:{s:{s:[i,i], s:s, s:[s,s,s], s:{s:s, s:i}}}, s:{s:{s:s}},"
        " s:{s:{s:s, s:{s:s, s:s}}}, s:{s:{s:{s:s, s:i}, s:[{s:i, s:s}]}},"
        " s:[{s:{s:s, s:[s], s:[i,i], s:i}}]}",
        "shaderModules", "m", "code", k->passes[0].wgsl,
        "textures", "t", "size", W, H, "format", "r32float", "usage", "STORAGE_BINDING",
        "COPY_SRC", "COPY_DST", "contents", "file", "decaer_wgsl_in.bin", "bytesPerRow", W * 4,
        "views", "v", "texture", "t",
        "pipelines", "p", "layout", "auto", "compute", "module", "m", "entryPoint", "decaer",
        "bindGroups", "g", "layout", "pipeline", "p", "group", 0, "entries", "binding", 0,
        "resource", "v",
        "steps", "dispatchWorkgroups", "pipeline", "p", "bindGroups", "g", "workgroupCount",
        (W + 7) / 8, (H + 7) / 8, "repeat", 2);
    assert_non_null(root);
    char *text = json_dumps(root, 0);
    json_decref(root);
    stex_run *r;
    stex_device *d;
    if (run_text(text, &r, &d))
        fail_msg("%s", stex_last_error());
    free(text);
    stex_kernel_instance *ki;
    stex_kernel_setup s = {.width = W, .height = H, .iterations = 2};
    assert_int_equal(stex_kernel_run(k, &s, NULL, &ki), STEX_OK);
    uint8_t *want;
    size_t n;
    assert_int_equal(stex_kernel_instance_read_output(ki, &want, &n), STEX_OK);
    stex_image got;
    assert_int_equal(stex_image_from_texture(stex_run_texture(r, "t"), 0, &got), STEX_OK);
    for (uint32_t y = 0; y < H; y++)
        assert_memory_equal(got.data + y * got.bytes_per_row, want + y * W * 4, W * 4);
    free(want);
    stex_image_free(&got);
    stex_kernel_instance_destroy(ki);
    stex_run_destroy(r);
    stex_device_destroy(d);

    /* a WGSL error is the module's diagnostic, under the pipeline's path */
    expect_error("{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1)\\nfn main() { let x = ; }\"}},"
                 " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}}}",
                 STEX_VALIDATION_ERROR, "$.pipelines.p");
    expect_error("{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1)\\nfn main() { let x = ; }\"}},"
                 " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}}}",
                 STEX_VALIDATION_ERROR, "run.json:2:");
}

/* box3x3-buffer: input written by writeBuffer (hex of a file's bytes is the
 * same path as a file), tam as typed i32 contents. */
static void test_box3x3_buffer_matches_kernel(void **state)
{
    (void)state;
    enum { W = 24, H = 16 };
    uint8_t input[W * H * 4];
    kernels_input_box3x3(W, H, input);
    put_file("box_in.bin", input, sizeof input);
    const char *text =
        "{\"shaderModules\": {\"m\": {\"kernel\": \"box3x3-buffer\", \"pass\": 0}},"
        " \"buffers\": {\"src\": {\"size\": 1536, \"usage\": [\"STORAGE\", \"COPY_DST\"]},"
        "   \"dst\": {\"size\": 1536, \"usage\": [\"STORAGE\", \"COPY_SRC\"]},"
        "   \"tam\": {\"size\": 8, \"usage\": 72, \"contents\": {\"i32\": [24, 16]}}},"
        " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\", \"entryPoint\": \"main\"}}},"
        " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": ["
        "   {\"binding\": 0, \"resource\": {\"buffer\": \"src\"}},"
        "   {\"binding\": 1, \"resource\": {\"buffer\": \"dst\"}},"
        "   {\"binding\": 2, \"resource\": {\"buffer\": \"tam\", \"size\": 8}}]}},"
        " \"steps\": [{\"writeBuffer\": {\"buffer\": \"src\", \"data\": {\"file\": \"box_in.bin\"}}},"
        "   {\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"], \"workgroupCount\": [3, 2, 1]}}]}";
    stex_run *r;
    stex_device *d;
    assert_int_equal(run_text(text, &r, &d), STEX_OK);
    stex_kernel_instance *ki;
    stex_kernel_setup s = {.width = W, .height = H};
    assert_int_equal(stex_kernel_run(stex_kernel_find("box3x3-buffer"), &s, NULL, &ki), STEX_OK);
    assert_memory_equal(stex_buffer_data(stex_run_buffer(r, "dst")),
                        stex_buffer_data(stex_kernel_instance_output_buffer(ki)), sizeof input);
    stex_kernel_instance_destroy(ki);
    stex_run_destroy(r);
    stex_device_destroy(d);
}

#define HEAD "{\"shaderModules\": {\"m\": {\"kernel\": \"decaer\"}}," \
             " \"textures\": {\"t\": {\"size\": [8, 8], \"format\": \"r32float\"," \
             "   \"usage\": [\"STORAGE_BINDING\", \"COPY_SRC\", \"COPY_DST\"]}}," \
             " \"views\": {\"v\": {\"texture\": \"t\"}},"
#define PIPE " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
#define GROUP " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": [{\"binding\": 0, \"resource\": \"v\"}]}},"

static void test_errors_name_path_and_rule(void **state)
{
    (void)state;
    expect_error("{\"textures\": [1,", STEX_FILE_FORMAT_ERROR, "run.json: line 1");
    expect_error("{\"textures\": []}", STEX_FILE_FORMAT_ERROR, "run.json: $.textures: expected an object");
    expect_error("{\"texture\": {}}", STEX_FILE_FORMAT_ERROR, "$.texture: unknown member 'texture'");
    expect_error("{\"textures\": {\"t\": {\"size\": \"big\", \"format\": \"r32float\", \"usage\": 8}}}",
                 STEX_FILE_FORMAT_ERROR, "$.textures.t.size: expected [width");
    expect_error("{\"textures\": {\"t\": {\"size\": [4], \"format\": \"r33float\", \"usage\": 8}}}",
                 STEX_FILE_FORMAT_ERROR, "$.textures.t.format: unknown GPUTextureFormat \"r33float\"");
    expect_error("{\"textures\": {\"t\": {\"size\": [4], \"format\": \"r32float\", \"usage\": [\"STORAGE\"]}}}",
                 STEX_FILE_FORMAT_ERROR, "$.textures.t.usage[0]: not a GPUTextureUsage name");
    expect_error("{\"textures\": {\"t\": {\"size\": [9000, 4], \"format\": \"r32float\", \"usage\": 8}}}",
                 STEX_VALIDATION_ERROR, "run.json: $.textures.t: ");
    expect_error("{\"buffers\": {\"b\": {\"size\": 16, \"usage\": 128, \"contents\": {\"file\": \"nope.bin\"}}}}",
                 STEX_IO_ERROR, "$.buffers.b.contents.file: ");
    expect_error("{\"buffers\": {\"b\": {\"size\": 4, \"usage\": 128, \"contents\": {\"u32\": [1, 2]}}}}",
                 STEX_FILE_FORMAT_ERROR, "$.buffers.b.contents: offset 0 + 8 bytes");
    expect_error("{\"buffers\": {\"b\": {\"size\": 8, \"usage\": 128, \"contents\": {\"i32\": [1, \"x\"]}}}}",
                 STEX_FILE_FORMAT_ERROR, "$.buffers.b.contents.i32[1]: expected a whole number");
    expect_error("{\"shaderModules\": {\"w\": {\"code\": \"@compute fn main() {}\"}},"
                 " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"w\"}}}}",
                 STEX_VALIDATION_ERROR, "$.pipelines.p"); /* no @workgroup_size */
    expect_error("{\"shaderModules\": {\"m\": {\"kernel\": \"decaer\", \"pass\": 1}}}",
                 STEX_FILE_FORMAT_ERROR, "$.shaderModules.m.pass: kernel decaer has 1 pass");
    expect_error(HEAD " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"x\"}}}}",
                 STEX_FILE_FORMAT_ERROR, "$.pipelines.p.compute.module: shader module 'x' is not declared");
    expect_error(HEAD " \"pipelines\": {\"p\": {\"compute\": {\"module\": \"m\"}, \"layout\": {\"bindGroupLayouts\": [{\"entries\": ["
                 "{\"binding\": 0, \"visibility\": [\"COMPUTE\"], \"storageTexture\": {\"format\": \"rgba8unorm\", \"access\": \"read-write\"}}]}]}}}}",
                 STEX_VALIDATION_ERROR, "$.pipelines.p.layout: the layout's @group(0) @binding(0) is storageTexture rgba8unorm, but the shader declares storageTexture r32float");
    expect_error(HEAD PIPE " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": [{\"binding\": 1, \"resource\": \"v\"}]}}}",
                 STEX_VALIDATION_ERROR, "run.json: $.bindGroups.g: ");
    expect_error(HEAD PIPE " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": [{\"binding\": 0, \"resource\": {\"buffer\": \"x\"}}]}}}",
                 STEX_FILE_FORMAT_ERROR, "run.json: $.bindGroups.g.entries[0].resource.buffer: buffer 'x' is not declared");
    expect_error(HEAD PIPE GROUP " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"], \"workgroupCount\": [65536]}}]}",
                 STEX_VALIDATION_ERROR, "$.steps[0].dispatchWorkgroups: ");
    expect_error(HEAD PIPE GROUP " \"steps\": [{\"dispatch\": {}}]}",
                 STEX_FILE_FORMAT_ERROR, "$.steps[0].dispatch: unknown member 'dispatch'");
    expect_error("{\"buffers\": {\"a\": {\"size\": 8, \"usage\": [\"COPY_SRC\"]}, \"b\": {\"size\": 8, \"usage\": [\"STORAGE\"]}},"
                 " \"steps\": [{\"copyBufferToBuffer\": {\"source\": \"a\", \"destination\": \"b\", \"size\": 8}}]}",
                 STEX_VALIDATION_ERROR, "$.steps[0].copyBufferToBuffer: copyBufferToBuffer: destination buffer usage 0x80 lacks COPY_DST");
    expect_error("{\"outputs\": [{\"texture\": \"t\", \"file\": \"x.txt\"}]}",
                 STEX_FILE_FORMAT_ERROR, "$.outputs[0].file: cannot tell the file type");
}

/* Sampled textures of every kind from a run file: mip levels, a 3d
 * texture, samples set one by one, a depth texture filled with a depth, a
 * cube, a comparison sampler; each result worked out by hand. */
static const char SAMPLED[] =
    "{\"shaderModules\": {\"m\": {\"code\": \""
    "@group(0) @binding(0) var a: texture_2d_array<u32>;\\n"
    "@group(0) @binding(1) var d: texture_depth_2d;\\n"
    "@group(0) @binding(2) var ms: texture_multisampled_2d<f32>;\\n"
    "@group(0) @binding(3) var t3: texture_3d<i32>;\\n"
    "@group(0) @binding(4) var<storage, read_write> o: array<u32>;\\n"
    "@group(0) @binding(5) var sc: sampler_comparison;\\n"
    "@group(0) @binding(6) var cube: texture_cube<f32>;\\n"
    "@group(0) @binding(7) var s: sampler;\\n"
    "@compute @workgroup_size(1) fn main() {\\n"
    "  o[0] = textureLoad(a, vec2(1, 0), 1, 1).x;\\n"
    "  o[1] = bitcast<u32>(textureLoad(d, vec2(0, 0), 0));\\n"
    "  o[2] = bitcast<u32>(textureLoad(ms, vec2(1, 1), 3).y);\\n"
    "  o[3] = bitcast<u32>(textureLoad(t3, vec3(1, 1, 1), 0).x);\\n"
    "  o[4] = textureNumLayers(a);\\n"
    "  o[5] = textureNumLevels(a);\\n"
    "  o[6] = textureNumSamples(ms);\\n"
    "  o[7] = textureDimensions(a, 1).x;\\n"
    "  o[8] = textureDimensions(t3).z;\\n"
    "  o[9] = textureLoad(a, vec2(9, 0), 1, 1).w;\\n"
    "  o[10] = bitcast<u32>(textureSampleCompareLevel(d, sc, vec2(0.5), 0.4));\\n"
    "  o[11] = bitcast<u32>(textureSampleLevel(cube, s, vec3(0.0, -1.0, 0.2), 0.0).y);\\n"
    "}\\n\"}},"
    " \"textures\": {"
    "  \"a\": {\"size\": [4, 2, 3], \"format\": \"r32uint\", \"mipLevelCount\": 2,"
    "         \"usage\": [\"TEXTURE_BINDING\", \"COPY_DST\"],"
    "         \"contents\": [null, {\"u32\": [1, 2, 3, 4, 5, 6]}]},"
    "  \"d\": {\"size\": [2, 2], \"format\": \"depth16unorm\", \"usage\": [\"TEXTURE_BINDING\"],"
    "         \"contents\": {\"fill\": 0.5}},"
    "  \"ms\": {\"size\": [2, 2], \"format\": \"rgba8unorm\", \"sampleCount\": 4,"
    "          \"usage\": [\"TEXTURE_BINDING\", \"RENDER_ATTACHMENT\"],"
    "          \"contents\": {\"samples\": [null, null, null, {\"fill\": [0, 1, 0, 1]}]}},"
    "  \"t3\": {\"size\": [2, 2, 2], \"dimension\": \"3d\", \"format\": \"r32sint\","
    "          \"usage\": [\"TEXTURE_BINDING\", \"COPY_DST\"],"
    "          \"contents\": {\"i32\": [0, 0, 0, 0, 0, 0, 0, -7]}},"
    "  \"c\": {\"size\": [1, 1, 6], \"format\": \"rg8unorm\", \"usage\": [\"TEXTURE_BINDING\", \"COPY_DST\"],"
    "         \"contents\": {\"hex\": \"0010 0020 0030 0040 0050 0060\"}}},"
    " \"buffers\": {\"o\": {\"size\": 48, \"usage\": [\"STORAGE\"]}},"
    " \"samplers\": {\"sc\": {\"compare\": \"less\"}, \"s\": {\"maxAnisotropy\": 1}},"
    " \"views\": {\"va\": {\"texture\": \"a\"}, \"vd\": {\"texture\": \"d\", \"aspect\": \"depth-only\"},"
    "  \"vms\": {\"texture\": \"ms\"}, \"v3\": {\"texture\": \"t3\"},"
    "  \"vc\": {\"texture\": \"c\", \"dimension\": \"cube\"}},"
    " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
    " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": ["
    "  {\"binding\": 0, \"resource\": \"va\"}, {\"binding\": 1, \"resource\": \"vd\"},"
    "  {\"binding\": 2, \"resource\": \"vms\"}, {\"binding\": 3, \"resource\": \"v3\"},"
    "  {\"binding\": 4, \"resource\": {\"buffer\": \"o\"}}, {\"binding\": 5, \"resource\": \"sc\"},"
    "  {\"binding\": 6, \"resource\": \"vc\"}, {\"binding\": 7, \"resource\": \"s\"}]}},"
    " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"],"
    "  \"workgroupCount\": [1]}}]}";

static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void test_sampled_textures(void **state)
{
    (void)state;
    stex_run *r = NULL;
    stex_device *d = NULL;
    if (run_text(SAMPLED, &r, &d))
        fail_msg("%s", stex_last_error());
    const uint32_t *o = (const uint32_t *)(const void *)stex_buffer_data(stex_run_buffer(r, "o"));
    /* level 1 of 4x2x3 is 2x1x3: layer 1 holds 3, 4 */
    assert_int_equal(o[0], 4);
    /* depth16unorm: 0.5 -> code 32768 (ties to even) -> 32768 / 65535 */
    assert_int_equal(o[1], bits_of(32768.0f / 65535.0f));
    assert_int_equal(o[2], bits_of(1.0f)); /* sample 3's green */
    assert_int_equal(o[3], (uint32_t)-7);
    assert_int_equal(o[4], 3);
    assert_int_equal(o[5], 2);
    assert_int_equal(o[6], 4);
    assert_int_equal(o[7], 2);
    assert_int_equal(o[8], 2);
    assert_int_equal(o[9], 1); /* out of bounds: the zero texel decoded, r32uint's alpha 1 */
    assert_int_equal(o[10], bits_of(1.0f)); /* 0.4 < 0.500008 */
    /* direction (0, -1, 0.2): face -y (the 4th layer), its only texel's green */
    assert_int_equal(o[11], bits_of(64.0f / 255.0f));
    stex_run_destroy(r);
    stex_device_destroy(d);
}

/* An explicit layout's sample and sampler types are the pipeline's: an
 * r32float texture (unfilterable without float32-filterable) sampled
 * through a "non-filtering" sampler runs; with a "filtering" one the
 * texture-sampler pair is refused. */
#define PAIR(sampler_type) \
    "{\"shaderModules\": {\"m\": {\"code\": \"" \
    "@group(0) @binding(0) var t: texture_2d<f32>;\\n" \
    "@group(0) @binding(1) var s: sampler;\\n" \
    "@group(0) @binding(2) var<storage, read_write> o: array<f32>;\\n" \
    "@compute @workgroup_size(1) fn main() { o[0] = textureSampleLevel(t, s, vec2(0.75, 0.25), 0.0).x; }\\n\"}}," \
    " \"textures\": {\"t\": {\"size\": [2, 1], \"format\": \"r32float\", \"usage\": [\"TEXTURE_BINDING\", \"COPY_DST\"]," \
    "   \"contents\": {\"f32\": [1.5, 2.5]}}}," \
    " \"buffers\": {\"o\": {\"size\": 4, \"usage\": [\"STORAGE\"]}}," \
    " \"samplers\": {\"s\": {}}, \"views\": {\"v\": {\"texture\": \"t\"}}," \
    " \"pipelines\": {\"p\": {\"compute\": {\"module\": \"m\"}, \"layout\": {\"bindGroupLayouts\": [{\"entries\": [" \
    "  {\"binding\": 0, \"visibility\": [\"COMPUTE\"], \"texture\": {\"sampleType\": \"unfilterable-float\"}}," \
    "  {\"binding\": 1, \"visibility\": [\"COMPUTE\"], \"sampler\": {\"type\": \"" sampler_type "\"}}," \
    "  {\"binding\": 2, \"visibility\": [\"COMPUTE\"], \"buffer\": {\"type\": \"storage\"}}]}]}}}," \
    " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": [" \
    "  {\"binding\": 0, \"resource\": \"v\"}, {\"binding\": 1, \"resource\": \"s\"}," \
    "  {\"binding\": 2, \"resource\": {\"buffer\": \"o\"}}]}}," \
    " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"], \"workgroupCount\": [1]}}]}"

static void test_texture_sampler_pairs(void **state)
{
    (void)state;
    stex_run *r = NULL;
    stex_device *d = NULL;
    if (run_text(PAIR("non-filtering"), &r, &d))
        fail_msg("%s", stex_last_error());
    float got;
    memcpy(&got, stex_buffer_data(stex_run_buffer(r, "o")), 4);
    assert_true(got == 2.5f); /* nearest: u = 0.75 -> texel 1 */
    stex_run_destroy(r);
    stex_device_destroy(d);
    expect_error(PAIR("filtering"), STEX_VALIDATION_ERROR,
                 "$.pipelines.p: createComputePipeline: the filtering sampler @group(0) @binding(1) "
                 "samples @group(0) @binding(0), whose layout entry is \"unfilterable-float\"");
}

static void test_sampled_errors_name_path(void **state)
{
    (void)state;
    expect_error("{\"textures\": {\"ms\": {\"size\": [2, 2], \"format\": \"rgba8unorm\", \"sampleCount\": 4,"
                 " \"usage\": [\"TEXTURE_BINDING\", \"RENDER_ATTACHMENT\"],"
                 " \"contents\": {\"samples\": [null, null]}}}}",
                 STEX_FILE_FORMAT_ERROR, "$.textures.ms.contents.samples: expected a list of 4 contents");
    expect_error("{\"textures\": {\"t\": {\"size\": [2, 2], \"format\": \"rgba8unorm\","
                 " \"usage\": [\"TEXTURE_BINDING\", \"COPY_DST\"], \"contents\": {\"samples\": [{}]}}}}",
                 STEX_FILE_FORMAT_ERROR, "$.textures.t.contents.samples: unknown member 'samples'");
    expect_error("{\"textures\": {\"d\": {\"size\": [2, 2], \"format\": \"depth16unorm\","
                 " \"usage\": [\"TEXTURE_BINDING\"], \"contents\": {\"fill\": 1.5}}}}",
                 STEX_FILE_FORMAT_ERROR, "$.textures.d.contents.fill: expected a depth value");
    expect_error("{\"textures\": {\"d\": {\"size\": [2, 1], \"format\": \"depth32float\","
                 " \"usage\": [\"TEXTURE_BINDING\"], \"contents\": [{\"values\": [0.5, \"x\"]}]}}}",
                 STEX_FILE_FORMAT_ERROR, "$.textures.d.contents[0].values[1]: expected a depth value");
    expect_error("{\"textures\": {\"d\": {\"size\": [2, 1], \"format\": \"depth32float\","
                 " \"usage\": [\"TEXTURE_BINDING\"], \"contents\": {\"hex\": \"00\"}}}}",
                 STEX_VALIDATION_ERROR, "$.textures.d.contents: setTexels: 1 bytes given");
    expect_error("{\"textures\": {\"ms\": {\"size\": [2, 2], \"format\": \"rgba8unorm\", \"sampleCount\": 4,"
                 " \"usage\": [\"TEXTURE_BINDING\"]}}}",
                 STEX_VALIDATION_ERROR, "$.textures.ms: createTexture: sampleCount 4 needs RENDER_ATTACHMENT");
    expect_error("{\"samplers\": {\"s\": {\"compare\": \"lesser\"}}}",
                 STEX_FILE_FORMAT_ERROR, "$.samplers.s.compare: unknown GPUCompareFunction \"lesser\"");
    expect_error("{\"samplers\": {\"s\": {\"maxAnisotropy\": 8}}}",
                 STEX_VALIDATION_ERROR, "$.samplers.s: createSampler: maxAnisotropy 8 > 1 needs");
    expect_error("{\"textures\": {\"c\": {\"size\": [4, 2, 6], \"format\": \"rgba8unorm\","
                 " \"usage\": [\"TEXTURE_BINDING\"]}}, \"views\": {\"v\": {\"texture\": \"c\","
                 " \"dimension\": \"cube\"}}}",
                 STEX_VALIDATION_ERROR, "$.views.v: createView: a cube view needs a square texture");
    expect_error("{\"textures\": {\"c\": {\"size\": [4, 4], \"format\": \"rgba8unorm\","
                 " \"usage\": [\"TEXTURE_BINDING\"]}}, \"views\": {\"v\": {\"texture\": \"c\","
                 " \"aspect\": \"depth\"}}}",
                 STEX_FILE_FORMAT_ERROR, "$.views.v.aspect: unknown GPUTextureAspect \"depth\"");
    expect_error("{\"shaderModules\": {\"m\": {\"kernel\": \"decaer\"}}, \"pipelines\": {\"p\": {"
                 "\"compute\": {\"module\": \"m\"}, \"layout\": {\"bindGroupLayouts\": [{\"entries\": ["
                 "{\"binding\": 0, \"visibility\": [\"COMPUTE\"], \"texture\": {\"sampleType\": \"half\"}}]}]}}}}",
                 STEX_FILE_FORMAT_ERROR,
                 "$.pipelines.p.layout.bindGroupLayouts[0].entries[0].texture.sampleType: unknown "
                 "GPUTextureSampleType \"half\"");
}

/* Overrides without a default, supplied by the pipeline's constants (by name,
 * or by @id when the override has one), override-expressions over them, in
 * @workgroup_size and in a var<workgroup> array's size; the errors WebGPU
 * makes of missing, unknown and unrepresentable constants and of an
 * override-expression that fails, each at its JSON path. */
#define OV_MODULE \
    "{\"shaderModules\": {\"m\": {\"code\": \"override block : u32;\\n@id(3) override gain : f32;\\n" \
    "override scale = gain * 2.0;\\noverride inv = 64u / block;\\n" \
    "var<workgroup> tile : array<f32, block>;\\n" \
    "@group(0) @binding(0) var<storage, read_write> out : array<f32>;\\n" \
    "@compute @workgroup_size(block)\\nfn main(@builtin(local_invocation_index) i : u32) {\\n" \
    "  tile[i] = f32(i) * scale;\\n  workgroupBarrier();\\n" \
    "  out[i] = tile[block - 1u - i];\\n  if (i == 0u) { out[block] = f32(inv); }\\n}\\n\"}},"
#define OV_PIPE(constants) \
    " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\", \"constants\": " constants "}}},"
#define OV_REST \
    " \"buffers\": {\"b\": {\"size\": 64, \"usage\": [\"STORAGE\"]}}," \
    " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": [{\"binding\": 0, \"resource\": {\"buffer\": \"b\"}}]}}," \
    " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"], \"workgroupCount\": [1]}}]}"

static void test_overrides_from_constants(void **state)
{
    (void)state;
    stex_run *r;
    stex_device *d;
    assert_int_equal(run_text(OV_MODULE OV_PIPE("{\"block\": 4, \"3\": 1.5}") OV_REST, &r, &d),
                     STEX_OK);
    /* block = 4 invocations: out[i] = (3 - i) * (1.5 * 2), out[4] = 64 / 4 */
    const float want[5] = {9.0f, 6.0f, 3.0f, 0.0f, 16.0f};
    assert_memory_equal(stex_buffer_data(stex_run_buffer(r, "b")), want, sizeof want);
    stex_run_destroy(r);
    stex_device_destroy(d);
    /* WebGPU's errors of the constants */
    expect_error(OV_MODULE OV_PIPE("{\"block\": 4}") OV_REST, STEX_VALIDATION_ERROR,
                 "$.pipelines.p.compute.constants: createComputePipeline: run.json:2:17: "
                 "error: override 'gain' has no default value and the pipeline's constants "
                 "give none (key \"3\") [pipeline-constants]");
    expect_error(OV_MODULE OV_PIPE("{\"block\": 4, \"gain\": 1}") OV_REST, STEX_VALIDATION_ERROR,
                 "$.pipelines.p.compute.constants: createComputePipeline: constants[\"gain\"]: "
                 "run.json has no override with this key");
    expect_error(OV_MODULE OV_PIPE("{\"block\": -1, \"3\": 1}") OV_REST, STEX_VALIDATION_ERROR,
                 "constants[\"block\"]: -1 is not a value of u32");
    expect_error(OV_MODULE OV_PIPE("{\"block\": 4294967296, \"3\": 1}") OV_REST,
                 STEX_VALIDATION_ERROR, "constants[\"block\"]: 4294967296 is not a value of u32");
    expect_error(OV_MODULE OV_PIPE("{\"block\": 4, \"3\": 1e39}") OV_REST, STEX_VALIDATION_ERROR,
                 "constants[\"3\"]: 1e+39 is not a finite f32 [pipeline-constants]");
    /* an override-expression that fails at pipeline creation: 64u / 0u */
    expect_error(OV_MODULE OV_PIPE("{\"block\": 0, \"3\": 1}") OV_REST, STEX_VALIDATION_ERROR,
                 "$.pipelines.p: createComputePipeline: run.json:4:");
}

/* Steps on buffers: writeBuffer, copyBufferToBuffer, clearBuffer, checked word by word. */
static void test_buffer_steps(void **state)
{
    (void)state;
    const char *text =
        "{\"buffers\": {\"a\": {\"size\": 16, \"usage\": [\"COPY_SRC\", \"COPY_DST\"], \"contents\": {\"hex\": \"01020304\"}},"
        "   \"b\": {\"size\": 16, \"usage\": [\"COPY_DST\"], \"contents\": {\"f32\": [1, 1, 1, 1]}}},"
        " \"steps\": [{\"writeBuffer\": {\"buffer\": \"a\", \"bufferOffset\": 4, \"data\": {\"u32\": [7, 8]}}},"
        "   {\"copyBufferToBuffer\": {\"source\": \"a\", \"destination\": \"b\", \"destinationOffset\": 4, \"size\": 12}},"
        "   {\"clearBuffer\": {\"buffer\": \"b\", \"offset\": 12}}]}";
    stex_run *r;
    stex_device *d;
    assert_int_equal(run_text(text, &r, &d), STEX_OK);
    const uint8_t want[16] = {0, 0, 0x80, 0x3f, 1, 2, 3, 4, 7, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(stex_buffer_data(stex_run_buffer(r, "b")), want, 16);
    stex_run_destroy(r);
    stex_device_destroy(d);
}

/* One output that cannot be written: none of them is written. */
static void test_outputs_all_or_nothing(void **state)
{
    (void)state;
    const char *bad =
        "{\"textures\": {\"t\": {\"size\": [2, 2], \"format\": \"r32float\", \"usage\": [\"COPY_DST\", \"COPY_SRC\"],"
        "   \"contents\": {\"fill\": 2.5}}},"
        " \"outputs\": [{\"texture\": \"t\", \"files\": [\"ok.bin\", \"ok.npy\"]},"
        "   {\"texture\": \"t\", \"file\": \"no/such/dir/x.bin\"}]}";
    stex_run *r;
    stex_device *d;
    assert_int_equal(run_text(bad, &r, &d), STEX_OK);
    assert_int_not_equal(stex_run_write_outputs(r), STEX_OK);
    assert_non_null(strstr(stex_last_error(), "$.outputs[1]"));
    assert_false(exists("ok.bin") || exists("ok.npy") || exists("ok.bin.json"));
    stex_run_destroy(r);
    stex_device_destroy(d);
    /* the same without the bad one: both written, and the .bin holds 2.5 */
    const char *good =
        "{\"textures\": {\"t\": {\"size\": [2, 2], \"format\": \"r32float\", \"usage\": [\"COPY_DST\", \"COPY_SRC\"],"
        "   \"contents\": {\"fill\": 2.5}}},"
        " \"outputs\": [{\"texture\": \"t\", \"files\": [\"ok.bin\", \"ok.npy\"]}]}";
    assert_int_equal(run_text(good, &r, &d), STEX_OK);
    assert_int_equal(stex_run_write_outputs(r), STEX_OK);
    assert_int_equal(stex_run_output_count(r), 2);
    char path[512];
    snprintf(path, sizeof path, "%s/ok.bin", dir);
    stex_image img;
    assert_int_equal(stex_read_bin(path, &img, NULL), STEX_OK);
    float v;
    memcpy(&v, stex_image_texel(&img, 1, 1, 0), 4);
    assert_true(v == 2.5f);
    stex_image_free(&img);
    stex_run_destroy(r);
    stex_device_destroy(d);
}

/* Every example runs and writes its outputs (into the scratch folder). */
static void test_examples_run(void **state)
{
    (void)state;
    const char *names[] = {"decaer.json", "race.json", "convert.json"};
    for (int i = 0; i < 3; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", examples, names[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static char text[65536];
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = '\0';
        stex_run *r;
        stex_device *d;
        if (run_text(text, &r, &d))
            fail_msg("%s: %s", names[i], stex_last_error());
        assert_int_equal(stex_run_write_outputs(r), STEX_OK);
        if (i == 0) { /* decaer: 1.0 * 0.98 four times, each product rounded to f32 */
            float want = 1.0f;
            for (int k = 0; k < 4; k++)
                want = want * 0.98f;
            stex_image img;
            assert_int_equal(stex_image_from_texture(stex_run_texture(r, "campo"), 0, &img), STEX_OK);
            float got;
            memcpy(&got, stex_image_texel(&img, 31, 31, 0), 4);
            assert_true(got == want);
            stex_image_free(&img);
        }
        if (i == 2) { /* rgba8unorm of (0.5, 0.25, 1, 0): round(x * 255) */
            const uint8_t want[4] = {128, 64, 255, 0};
            assert_memory_equal(stex_buffer_data(stex_run_buffer(r, "readback")), want, 4);
        }
        stex_run_destroy(r);
        stex_device_destroy(d);
    }
    assert_true(exists("decaer.bin") && exists("decaer.npy") && exists("race.png") && exists("texel.bin"));
}

/* "requiredFeatures" asks requestDevice for features, and each profile's
 * adapter offers what its device offered WebGPU: an f16 program runs on
 * lavapipe's device, which offers shader-f16, and is refused at
 * $.requiredFeatures on the H200's, which does not (measured); unknown
 * feature names are refused where they stand. */
static const char F16_RUN[] =
    "{\"requiredFeatures\": [\"shader-f16\"],"
    " \"shaderModules\": {\"m\": {\"code\": \"enable f16;\\n"
    "@group(0) @binding(0) var<storage, read_write> o: array<f16>;\\n"
    "@compute @workgroup_size(1) fn main() { o[0] = 1.5h; o[1] = -2.0h; }\\n\"}},"
    " \"buffers\": {\"o\": {\"size\": 4, \"usage\": [\"STORAGE\"]}},"
    " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
    " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\"}, \"entries\": ["
    "  {\"binding\": 0, \"resource\": {\"buffer\": \"o\"}}]}},"
    " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"],"
    "  \"workgroupCount\": [1]}}]}";

static void test_required_features(void **state)
{
    (void)state;
    stex_run *r;
    assert_int_equal(stex_run_parse(F16_RUN, "run.json", dir, NULL, &r), STEX_OK);
    assert_int_equal(stex_run_required_features(r), STEX_FEATURE_SHADER_F16);
    /* lavapipe's device: binary16 1.5 = 0x3e00 at bytes 0-1, -2.0 = 0xc000 at 2-3 */
    stex_adapter_desc ad = stex_adapter_desc_for_profile(STEX_PROFILE_LAVAPIPE);
    stex_adapter *a;
    stex_device *d;
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    assert_int_equal(stex_run_request_device(r, a, &d), STEX_OK);
    assert_int_equal(stex_run_execute(r, d, NULL), STEX_OK);
    uint32_t got;
    memcpy(&got, stex_buffer_data(stex_run_buffer(r, "o")), 4);
    assert_int_equal(got, 0xc0003e00u);
    stex_run_destroy(r);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
    /* the H200's device: no shader-f16 */
    assert_int_equal(stex_run_parse(F16_RUN, "run.json", dir, NULL, &r), STEX_OK);
    ad = stex_adapter_desc_for_profile(STEX_PROFILE_NVIDIA);
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    assert_int_not_equal(stex_run_request_device(r, a, &d), STEX_OK);
    assert_non_null(strstr(stex_last_error(), "run.json: $.requiredFeatures: "));
    assert_non_null(strstr(stex_last_error(), "shader-f16"));
    stex_run_destroy(r);
    stex_adapter_destroy(a);
    /* without asking for it, lavapipe's device refuses the pipeline */
    static char unasked[sizeof F16_RUN];
    snprintf(unasked, sizeof unasked, "{%s",
             F16_RUN + strlen("{\"requiredFeatures\": [\"shader-f16\"],"));
    assert_int_equal(stex_run_parse(unasked, "run.json", dir, NULL, &r), STEX_OK);
    assert_int_equal(stex_run_required_features(r), 0);
    ad = stex_adapter_desc_for_profile(STEX_PROFILE_LAVAPIPE);
    assert_int_equal(stex_adapter_create(&ad, &a), STEX_OK);
    assert_int_equal(stex_run_request_device(r, a, &d), STEX_OK);
    assert_int_not_equal(stex_run_execute(r, d, NULL), STEX_OK);
    assert_non_null(strstr(stex_last_error(), "$.pipelines.p"));
    assert_non_null(strstr(stex_last_error(), "shader-f16"));
    stex_run_destroy(r);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
    expect_error("{\"requiredFeatures\": [\"shader-f32\"]}", STEX_FILE_FORMAT_ERROR,
                 "$.requiredFeatures[0]: unknown GPUFeatureName \"shader-f32\"");
    expect_error("{\"requiredFeatures\": [7]}", STEX_FILE_FORMAT_ERROR,
                 "$.requiredFeatures[0]: expected a GPUFeatureName string");
    expect_error("{\"requiredFeatures\": \"shader-f16\"}", STEX_FILE_FORMAT_ERROR,
                 "$.requiredFeatures");
}

/* WGSL forbids U+0000 anywhere in a module: a run file's WGSL with a NUL
 * inside (a JSON "\u0000" in "code", or the byte in a .wgsl file) is
 * refused, not cut short at the NUL and run as the valid part before it. */
static void test_wgsl_with_nul_refused(void **state)
{
    (void)state;
    static const char wgsl[] = "@compute @workgroup_size(1) fn main() {}\0 this is not WGSL";
    put_file("nul.wgsl", wgsl, sizeof wgsl - 1);
    static const struct { const char *module; stex_status want; const char *message; } c[] = {
        {"{\"code\": \"@compute @workgroup_size(1) fn main() {}\\u0000 this is not WGSL\"}",
         STEX_FILE_FORMAT_ERROR, "\\u0000"}, /* jansson refuses it already */
        {"{\"file\": \"nul.wgsl\"}", STEX_VALIDATION_ERROR, "NUL byte"},
    };
    for (size_t i = 0; i < 2; i++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"shaderModules\": {\"m\": %s},"
                 " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
                 " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"workgroupCount\": [1]}}]}",
                 c[i].module);
        expect_error(text, c[i].want, c[i].message);
    }
}

/* A run stopped by its cancel flag (Ctrl-C, a watchdog) names the run file
 * and the step, as every failure of a run does (stex/run.h). */
static void test_cancelled_run_names_file(void **state)
{
    (void)state;
    static const char text[] =
        "{\"shaderModules\": {\"m\": {\"code\": \"@compute @workgroup_size(1) fn main() {}\"}},"
        " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
        " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"workgroupCount\": [1]}}]}";
    stex_adapter *a;
    stex_device *d;
    stex_run *r;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, &d), STEX_OK);
    stex_adapter_destroy(a);
    assert_int_equal(stex_run_parse(text, "run.json", dir, NULL, &r), STEX_OK);
    stex_cancel *c = stex_cancel_create();
    stex_cancel_request(c, STEX_CANCEL_INTERRUPTED);
    stex_dispatch_options o = {.cancel = c};
    assert_int_equal(stex_run_execute(r, d, &o), STEX_CANCELLED);
    if (strncmp(stex_last_error(), "run.json: $.steps[0]", 20) || !strstr(stex_last_error(), "interrupted"))
        fail_msg("message: %s", stex_last_error());
    stex_cancel_destroy(c);
    stex_run_destroy(r);
    stex_device_destroy(d);
}

int main(int argc, char **argv)
{
    examples = argc > 1 ? argv[1] : "examples/run";
    snprintf(dir, sizeof dir, "/tmp/stex_run_XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decaer_matches_kernel),
        cmocka_unit_test(test_box3x3_buffer_matches_kernel),
        cmocka_unit_test(test_wgsl_module_matches_kernel),
        cmocka_unit_test(test_overrides_from_constants),
        cmocka_unit_test(test_errors_name_path_and_rule),
        cmocka_unit_test(test_sampled_textures),
        cmocka_unit_test(test_sampled_errors_name_path),
        cmocka_unit_test(test_texture_sampler_pairs),
        cmocka_unit_test(test_buffer_steps),
        cmocka_unit_test(test_outputs_all_or_nothing),
        cmocka_unit_test(test_examples_run),
        cmocka_unit_test(test_required_features),
        cmocka_unit_test(test_wgsl_with_nul_refused),
        cmocka_unit_test(test_cancelled_run_names_file),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
