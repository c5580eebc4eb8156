/* Sampled textures through the whole stack: the WGSL shaders of
 * tools/measure_sampling.mjs compiled by stex's front end and run by its
 * interpreter under the lavapipe profile, against the bits lavapipe returned
 * (data/lavapipe-sampling.tsv.gz); the WGSL type and overload errors of
 * the sampled texture types, with their line:col; the sampling builtins'
 * overloads as the CTS's expression,call,builtin,texture* cases check them;
 * textureSampleLevel on a texture_1d run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "stex/stex.h"
#include "wgsl_cases.h"
#include "wgsl_fixture.h"

enum { CASES = 64 };

typedef struct tex_rec {
    char name[32];
    stex_texture *t;
} tex_rec;

static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max && p;) {
        f[n++] = p;
        p = strchr(p, '\t');
        if (p)
            *p++ = 0;
    }
    return n;
}

/* the value of "key":"..." in the sampler's flat JSON, or NULL */
static const char *json_str(const char *json, const char *key, char *buf, size_t size)
{
    char k[48];
    snprintf(k, sizeof k, "\"%s\":\"", key);
    const char *p = strstr(json, k);
    if (!p)
        return NULL;
    p += strlen(k);
    size_t n = strcspn(p, "\"");
    snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
    return buf;
}

static stex_sampler *make_sampler(stex_device *d, const char *json)
{
    static const char *const addr[] = {"clamp-to-edge", "repeat", "mirror-repeat"};
    static const char *const cmp[] = {"undefined", "never", "less", "equal", "less-equal",
                                      "greater", "not-equal", "greater-equal", "always"};
    stex_sampler_desc sd = {0};
    char b[32];
    stex_address_mode *modes[3] = {&sd.address_mode_u, &sd.address_mode_v, &sd.address_mode_w};
    const char *keys[3] = {"addressModeU", "addressModeV", "addressModeW"};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            if (json_str(json, keys[k], b, sizeof b) && !strcmp(b, addr[i]))
                *modes[k] = (stex_address_mode)i;
    stex_filter_mode *f[3] = {&sd.mag_filter, &sd.min_filter, &sd.mipmap_filter};
    const char *fk[3] = {"magFilter", "minFilter", "mipmapFilter"};
    for (int k = 0; k < 3; k++)
        if (json_str(json, fk[k], b, sizeof b) && !strcmp(b, "linear"))
            *f[k] = STEX_FILTER_LINEAR;
    for (int i = 1; i < 9; i++)
        if (json_str(json, "compare", b, sizeof b) && !strcmp(b, cmp[i]))
            sd.compare = (stex_compare_function)i;
    const char *lo = strstr(json, "\"lodMinClamp\":"), *hi = strstr(json, "\"lodMaxClamp\":");
    sd.lod_min_clamp = lo ? strtof(lo + 14, NULL) : 0;
    sd.lod_max_clamp = hi ? strtof(hi + 14, NULL) : 32;
    stex_sampler *s = NULL;
    assert_int_equal(stex_sampler_create(d, &sd, &s), STEX_OK);
    return s;
}

/* The measurement script's shader for one configuration. */
static void shader_text(char *out, size_t size, const char *type, bool comparison,
                        const char *call)
{
    bool scalar = !strncmp(type, "texture_depth", 13) && strncmp(call, "textureGather", 13);
    snprintf(out, size,
             "@group(0) @binding(0) var t : %s;\n"
             "@group(0) @binding(1) var s : %s;\n"
             "@group(0) @binding(2) var<storage, read> inp : array<vec4<f32>>;\n"
             "@group(0) @binding(3) var<storage, read_write> outp : array<vec4<u32>>;\n"
             "fn result(v : f32) -> vec4<u32> { return vec4<u32>(bitcast<u32>(v), 0u, 0u, 0u); }\n"
             "fn result4(v : vec4<f32>) -> vec4<u32> { return bitcast<vec4<u32>>(v); }\n"
             "@compute @workgroup_size(64)\n"
             "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
             "  let i = id.x;\n"
             "  let c = inp[i * 4u];\n"
             "  let e = inp[i * 4u + 1u];\n"
             "  let gx = inp[i * 4u + 2u];\n"
             "  let gy = inp[i * 4u + 3u];\n"
             "  outp[i] = %s(%s);\n"
             "}\n",
             type, comparison ? "sampler_comparison" : "sampler", scalar ? "result" : "result4",
             call);
}

static const char *wgsl_type(const char *view, bool depth)
{
    static const struct { const char *view, *color, *depth; } t[] = {
        {"2d", "texture_2d<f32>", "texture_depth_2d"},
        {"2d-array", "texture_2d_array<f32>", "texture_depth_2d_array"},
        {"3d", "texture_3d<f32>", NULL},
        {"cube", "texture_cube<f32>", "texture_depth_cube"},
        {"cube-array", "texture_cube_array<f32>", "texture_depth_cube_array"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(t[i].view, view))
            return depth ? t[i].depth : t[i].color;
    return NULL;
}

/* Configurations the lavapipe profile reproduces only in part (see
 * tests/resource/test_sampling_measured.c), with their floor. */
static const struct { int id; uint32_t at_least; } PARTIAL[] = {
    {93, 51}, {115, 62}, {123, 63}, {128, 57}, {129, 62}};

typedef struct run_cfg {
    int id;
    stex_pipeline *pipe;
    stex_bind_group *group;
    stex_buffer *in, *out;
    stex_texture_view *view;
    stex_sampler *sampler;
    uint32_t expect[CASES][4];
    uint32_t rows;
} run_cfg;

static void finish(run_cfg *c, uint32_t *total, uint32_t *matched)
{
    if (!c->pipe)
        return;
    assert_int_equal(c->rows, CASES);
    assert_int_equal(stex_dispatch(c->pipe, c->group, 1, 1, 1, NULL), STEX_OK);
    const uint32_t *got = (const uint32_t *)(const void *)stex_buffer_data(c->out);
    uint32_t match = 0;
    for (uint32_t k = 0; k < CASES; k++)
        match += !memcmp(&got[4 * k], c->expect[k], 16);
    uint32_t need = CASES;
    for (size_t i = 0; i < sizeof PARTIAL / sizeof PARTIAL[0]; i++)
        if (PARTIAL[i].id == c->id)
            need = PARTIAL[i].at_least;
    if (match < need)
        fail_msg("configuration %d: %u of %d cases as lavapipe, expected %u", c->id, match,
                 CASES, need);
    *total += CASES;
    *matched += match;
    stex_bind_group_destroy(c->group);
    stex_pipeline_destroy(c->pipe);
    stex_buffer_destroy(c->in);
    stex_buffer_destroy(c->out);
    stex_texture_view_destroy(c->view);
    stex_sampler_destroy(c->sampler);
    memset(c, 0, sizeof *c);
}

static void test_measured_through_wgsl(void **state)
{
    (void)state;
    const char *dir = getenv("STEX_TEST_DATA");
    char path[512];
    snprintf(path, sizeof path, "%s/lavapipe-sampling.tsv.gz", dir ? dir : "tests/data");
    gzFile f = gzopen(path, "rb");
    assert_non_null(f);
    stex_adapter *adapter;
    stex_device *d = fixture_device(STEX_PROFILE_LAVAPIPE, &adapter);
    static tex_rec tex[16];
    int ntex = 0;
    static run_cfg cur;
    static char line[1 << 16];
    static float inputs[CASES * 16];
    uint32_t total = 0, matched = 0, configs = 0;
    while (gzgets(f, line, sizeof line)) {
        line[strcspn(line, "\r\n")] = 0;
        char *fl[24];
        int n = split(line, fl, 24);
        if (line[0] == 'T' && n == 10) {
            tex_rec *t = NULL;
            for (int i = 0; i < ntex; i++)
                if (!strcmp(tex[i].name, fl[1]))
                    t = &tex[i];
            if (!t) {
                t = &tex[ntex++];
                snprintf(t->name, sizeof t->name, "%s", fl[1]);
                stex_texture_desc td = {
                    .dimension = !strcmp(fl[3], "3d") ? STEX_TEXTURE_DIMENSION_3D
                                                      : STEX_TEXTURE_DIMENSION_2D,
                    .size = {(uint32_t)atoi(fl[4]), (uint32_t)atoi(fl[5]), (uint32_t)atoi(fl[6])},
                    .format = stex_format_from_name(fl[2]),
                    .mip_level_count = (uint32_t)atoi(fl[7]),
                    .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST};
                assert_int_equal(stex_texture_create(d, &td, &t->t), STEX_OK);
            }
            size_t len = strlen(fl[9]) / 2;
            uint8_t *bytes = malloc(len + 1);
            for (size_t i = 0; i < len; i++) {
                char h[3] = {fl[9][2 * i], fl[9][2 * i + 1], 0};
                bytes[i] = (uint8_t)strtoul(h, NULL, 16);
            }
            assert_int_equal(stex_texture_set_texels(t->t, (uint32_t)atoi(fl[8]), 0, bytes, len),
                             STEX_OK);
            free(bytes);
        } else if (line[0] == 'C' && n == 6) {
            finish(&cur, &total, &matched);
            configs++;
            cur.id = atoi(fl[1]);
            tex_rec *t = NULL;
            for (int i = 0; i < ntex; i++)
                if (!strcmp(tex[i].name, fl[2]))
                    t = &tex[i];
            assert_non_null(t);
            bool depth = stex_texture_get_desc(t->t)->format == STEX_FORMAT_DEPTH16UNORM;
            bool comparison = strstr(fl[5], "\"compare\"") != NULL;
            stex_view_dimension vdim;
            assert_true(stex_view_dimension_from_name(fl[3], &vdim));
            stex_view_desc vd = {.dimension = vdim};
            assert_int_equal(stex_texture_create_view(t->t, &vd, &cur.view), STEX_OK);
            cur.sampler = make_sampler(d, fl[5]);
            static char src[4096];
            shader_text(src, sizeof src, wgsl_type(fl[3], depth), comparison, fl[4]);
            stex_wgsl_module *m = NULL;
            stex_wgsl_module_create(src, "sampling.wgsl", &m);
            if (stex_wgsl_module_error_count(m))
                fail_msg("configuration %d: %s", cur.id, stex_wgsl_module_diagnostics(m));
            if (stex_wgsl_pipeline_create(d, m, NULL, NULL, &cur.pipe))
                fail_msg("configuration %d: %s", cur.id, stex_last_error());
            stex_wgsl_module_destroy(m);
            stex_buffer_desc in = {.size = sizeof inputs, .usage = STEX_BUFFER_USAGE_STORAGE};
            stex_buffer_desc out = {.size = CASES * 16, .usage = STEX_BUFFER_USAGE_STORAGE};
            assert_int_equal(stex_buffer_create(d, &in, &cur.in), STEX_OK);
            assert_int_equal(stex_buffer_create(d, &out, &cur.out), STEX_OK);
            stex_bind_group_entry e[4] = {{.binding = 0, .view = cur.view},
                                          {.binding = 1, .sampler = cur.sampler},
                                          {.binding = 2, .buffer = cur.in},
                                          {.binding = 3, .buffer = cur.out}};
            if (stex_bind_group_create(cur.pipe, e, 4, &cur.group))
                fail_msg("configuration %d: %s", cur.id, stex_last_error());
        } else if (line[0] == 'R' && n == 19) {
            assert_int_equal(atoi(fl[1]), cur.id);
            uint32_t k = (uint32_t)atoi(fl[2]), w[12];
            assert_true(k < CASES);
            for (int j = 0; j < 12; j++)
                w[j] = (uint32_t)strtoul(fl[3 + j], NULL, 16);
            /* the script's layout: coords, (level, depth_ref), ddx, ddy */
            uint32_t words[16] = {w[0], w[1], w[2], w[3], w[4], w[5], 0, 0,
                                  w[6], w[7], w[8], 0, w[9], w[10], w[11], 0};
            memcpy(stex_buffer_data(cur.in) + k * 64, words, 64);
            for (int j = 0; j < 4; j++)
                cur.expect[k][j] = (uint32_t)strtoul(fl[15 + j], NULL, 16);
            cur.rows++;
        }
    }
    finish(&cur, &total, &matched);
    gzclose(f);
    printf("through WGSL: %u of %u cases as lavapipe, %u configurations\n", matched, total,
           configs);
    assert_int_equal(configs, 132);
    for (int i = 0; i < ntex; i++)
        stex_texture_destroy(tex[i].t);
    stex_device_destroy(d);
    stex_adapter_destroy(adapter);
}

/* ---- WGSL errors: the rule and line:col ---- */

static void expect_error(const char *body, const char *where, const char *what)
{
    static char src[2048];
    snprintf(src, sizeof src,
             "@group(0) @binding(0) var t2 : texture_2d<f32>;\n"
             "@group(0) @binding(1) var td : texture_depth_2d;\n"
             "@group(0) @binding(2) var tm : texture_multisampled_2d<u32>;\n"
             "@group(0) @binding(3) var tc : texture_cube<f32>;\n"
             "@group(0) @binding(4) var s : sampler;\n"
             "@group(0) @binding(5) var sc : sampler_comparison;\n"
             "@group(0) @binding(6) var<storage, read_write> o : array<vec4<f32>>;\n"
             "@compute @workgroup_size(1) fn main() {\n"
             "%s\n"
             "}\n", body);
    stex_wgsl_module *m = NULL;
    stex_wgsl_module_create(src, "t.wgsl", &m);
    const char *diag = stex_wgsl_module_diagnostics(m);
    if (!strstr(diag, where) || !strstr(diag, what))
        fail_msg("expected '%s' and '%s' in:\n%s", where, what, diag);
    stex_wgsl_module_destroy(m);
}

static void test_type_and_overload_errors(void **state)
{
    (void)state;
    /* textureLoad: no cube overload; a multisampled texture takes a sample index */
    expect_error("  let v = textureLoad(tc, vec2(0, 0), 0);", "t.wgsl:9:11:",
                 "textureLoad has no overload for texture_cube<f32>");
    expect_error("  let v = textureLoad(tm, vec2(0, 0), 1.5);", "t.wgsl:9:39:",
                 "the sample index must be a scalar i32 or u32");
    /* queries: levels of a multisampled texture, samples of a single-sampled one */
    expect_error("  let n = textureNumLevels(tm);", "t.wgsl:9:11:",
                 "textureNumLevels has no overload for texture_multisampled_2d<u32>");
    expect_error("  let n = textureNumSamples(t2);", "t.wgsl:9:11:",
                 "textureNumSamples has no overload for texture_2d<f32>");
    expect_error("  let n = textureNumLayers(tc);", "t.wgsl:9:11:",
                 "textureNumLayers has no overload for texture_cube<f32>");
    /* sampling: the sampler kind, the offset's range, a depth level's type */
    expect_error("  let v = textureSampleCompareLevel(td, s, vec2(0.5), 0.5);", "t.wgsl:9:41:",
                 "must be a sampler_comparison");
    expect_error("  o[0] = textureSampleLevel(t2, s, vec2(0.5), 0.0, vec2(8, 0));",
                 "t.wgsl:9:52:", "the offset must lie in [-8, 7], not 8");
    expect_error("  let v = textureSampleLevel(td, s, vec2(0.5), 0.5);", "t.wgsl:9:48:",
                 "the level must be a scalar i32 or u32");
    expect_error("  o[0] = textureSampleLevel(tc, s, vec3(1.0), 0.0, vec3(1, 0, 0));",
                 "t.wgsl:9:10:", "textureSampleLevel on texture_cube<f32> takes 4 arguments");
    expect_error("  o[0] = textureGather(4, t2, s, vec2(0.5));", "t.wgsl:9:24:",
                 "the component must lie in [0, 3], not 4");
    expect_error("  let v = textureGather(0, td, s, vec2(0.5));", "t.wgsl:9:11:",
                 "textureGather has no overload for texture_depth_2d with a component");
    expect_error("  o[0] = textureSample(t2, s, vec2(0.5));", "t.wgsl:9:10:",
                 "may only be called from a fragment shader");
    /* types: the sampled type, and no template on a depth texture */
    expect_error("  let n = 0;\n}\n@group(1) @binding(0) var bad : texture_2d<bool>;\nfn f() {",
                 "t.wgsl:11:", "texture_2d takes one sampled type");
    expect_error("  let n = 0;\n}\n@group(1) @binding(0) var bad : texture_depth_2d<f32>;\n"
                 "fn f() {", "t.wgsl:11:", "texture_depth_2d takes no template arguments");
}

/* ---- the sampling builtins' overloads (WGSL "Texture Built-in Functions") ---- */

#define BIND(type) "@group(0) @binding(0) var s : sampler;\n" \
                   "@group(0) @binding(1) var t : " type ";\n"
#define BIND_CMP(type) "@group(0) @binding(0) var s : sampler_comparison;\n" \
                       "@group(0) @binding(1) var t : " type ";\n"
#define FRAG(call) "@fragment fn fs() -> @location(0) vec4f {\n  let v = " call ";\n" \
                   "  return vec4f(0);\n}\n"

/* textureSample, textureSampleBias and textureSampleCompare (a fragment
 * shader's only, never run by stex): each argument's type and the texture
 * were not checked, so every such module was accepted.  And the offsets of
 * every sampling builtin: vec2<u32> was taken for vec2<i32>. */
static const wgsl_case SAMPLE_OVERLOADS[] = {
    {"textureSample:coords_argument:textureType=\"texture_2d<f32>\";coordType=\"bool\"",
     BIND("texture_2d<f32>") FRAG("textureSample(t, s, false)"), "[type-mismatch]"},
    {"textureSample:coords_argument:textureType=\"texture_3d<f32>\";coordType=\"vec2f\"",
     BIND("texture_3d<f32>") FRAG("textureSample(t, s, vec2f(0))"), "[type-mismatch]"},
    {"textureSample:coords_argument:textureType=\"texture_1d<f32>\";coordType=\"i32\"",
     BIND("texture_1d<f32>") FRAG("textureSample(t, s, 0i)"), "[type-mismatch]"},
    {"textureSample:coords_argument:textureType=\"texture_1d<f32>\";coordType=\"abstract-int\"",
     BIND("texture_1d<f32>") FRAG("textureSample(t, s, 0)"), NULL},
    {"textureSample:array_index_argument:textureType=\"texture_2d_array<f32>\";"
     "arrayIndexType=\"f32\"",
     BIND("texture_2d_array<f32>") FRAG("textureSample(t, s, vec2f(0), 0f)"),
     "[texture-builtin-functions]"},
    {"textureSample:array_index_argument:textureType=\"texture_depth_cube_array\";"
     "arrayIndexType=\"u32\"",
     BIND("texture_depth_cube_array") "@fragment fn fs() -> @location(0) vec4f {\n"
     "  let v : f32 = textureSample(t, s, vec3f(0), 7u);\n  return vec4f(0);\n}\n", NULL},
    {"textureSample:offset_argument:textureType=\"texture_2d<f32>\";offsetType=\"vec2u\"",
     BIND("texture_2d<f32>") FRAG("textureSample(t, s, vec2f(0), vec2u(0))"),
     "[texture-builtin-functions]"},
    {"textureSample:offset_argument:textureType=\"texture_3d<f32>\";offsetType=\"vec3i\" (-9)",
     BIND("texture_3d<f32>") FRAG("textureSample(t, s, vec3f(0), vec3i(-9))"),
     "[texture-builtin-functions]"},
    {"textureSample:offset_argument,non_const:textureType=\"texture_2d<f32>\";varType=\"l\"",
     BIND("texture_2d<f32>") "@fragment fn fs() -> @location(0) vec4f {\n"
     "  let l = vec2i(0);\n  let v = textureSample(t, s, vec2f(0), vec2i(l));\n"
     "  return vec4f(0);\n}\n", "[texture-builtin-functions]"},
    {"textureSample:offset_argument,non_const:textureType=\"texture_2d<f32>\";varType=\"c\"",
     BIND("texture_2d<f32>") "@fragment fn fs() -> @location(0) vec4f {\n"
     "  const c = 1;\n  let v = textureSample(t, s, vec2f(0), vec2i(c));\n"
     "  return vec4f(0);\n}\n", NULL},
    {"textureSample: no offset on a cube",
     BIND("texture_cube<f32>") FRAG("textureSample(t, s, vec3f(0), vec3i(0))"),
     "[texture-builtin-functions]"},
    {"textureSample:return_type:returnType=\"vec4f\";textureType=\"texture_depth_2d\"",
     BIND("texture_depth_2d") "@fragment fn fs() -> @location(0) vec4f {\n"
     "  let v : vec4f = textureSample(t, s, vec2f(0));\n  return vec4f(0);\n}\n",
     "[type-mismatch]"},
    {"textureSample:texture_type:testTextureType=\"texture_2d<i32>\"",
     BIND("texture_2d<i32>") FRAG("textureSample(t, s, vec2f(0))"),
     "[texture-builtin-functions]"},
    {"textureSample:texture_type:testTextureType=\"texture_2d<f32>\";textureType=\"texture_3d<f32>\"",
     BIND("texture_2d<f32>") FRAG("textureSample(t, s, vec3f(0))"), "[type-mismatch]"},
    {"textureSampleBias:bias_argument:textureType=\"texture_2d<f32>\";biasType=\"i32\"",
     BIND("texture_2d<f32>") FRAG("textureSampleBias(t, s, vec2f(0), 0i)"), "[type-mismatch]"},
    {"textureSampleBias:bias_argument:textureType=\"texture_2d<f32>\";biasType=\"abstract-float\"",
     BIND("texture_2d<f32>") FRAG("textureSampleBias(t, s, vec2f(0), -17.0)"), NULL},
    {"textureSampleBias:coords_argument:textureType=\"texture_cube_array<f32>\";coordType=\"vec4f\"",
     BIND("texture_cube_array<f32>") FRAG("textureSampleBias(t, s, vec4f(0), 0, 0)"),
     "[type-mismatch]"},
    {"textureSampleBias:texture_type:testTextureType=\"texture_depth_2d\"",
     BIND("texture_depth_2d") FRAG("textureSampleBias(t, s, vec2f(0), 0)"),
     "[texture-builtin-functions]"},
    {"textureSampleBias: no texture_1d overload",
     BIND("texture_1d<f32>") FRAG("textureSampleBias(t, s, 0.5, 0)"),
     "[texture-builtin-functions]"},
    {"textureSampleBias: the bias is no optional argument",
     BIND("texture_2d<f32>") FRAG("textureSampleBias(t, s, vec2f(0))"),
     "[texture-builtin-functions]"},
    {"textureSampleCompare:depth_ref_argument:textureType=\"texture_depth_2d\";depthRefType=\"u32\"",
     BIND_CMP("texture_depth_2d") FRAG("textureSampleCompare(t, s, vec2f(0), 0u)"),
     "[type-mismatch]"},
    {"textureSampleCompare:depth_ref_argument:textureType=\"texture_depth_2d\";depthRefType=\"f32\"",
     BIND_CMP("texture_depth_2d") FRAG("textureSampleCompare(t, s, vec2f(0), 0.5f, vec2i(7))"),
     NULL},
    {"textureSampleCompare: a sampler, not a sampler_comparison",
     BIND("texture_depth_2d") FRAG("textureSampleCompare(t, s, vec2f(0), 0.5f)"),
     "[texture-builtin-functions]"},
    {"textureSampleCompare:array_index_argument:textureType=\"texture_depth_2d_array\";"
     "arrayIndexType=\"bool\"",
     BIND_CMP("texture_depth_2d_array") FRAG("textureSampleCompare(t, s, vec2f(0), false, 0)"),
     "[texture-builtin-functions]"},
    /* the offset of the builtins stex runs */
    {"textureSampleLevel:offset_argument:textureType=\"texture_2d<f32>\";offsetType=\"vec2u\"",
     BIND("texture_2d<f32>") FRAG("textureSampleLevel(t, s, vec2f(0), 0, vec2u(0))"),
     "[texture-builtin-functions]"},
    {"textureGather:offset_argument:textureType=\"texture_2d\";offsetType=\"vec2u\"",
     BIND("texture_2d<i32>") FRAG("textureGather(0, t, s, vec2f(0), vec2u(0))"),
     "[texture-builtin-functions]"},
    {"textureGather: a u32 component",
     BIND("texture_2d<u32>") FRAG("textureGather(3u, t, s, vec2f(0), vec2(-8, 7))"), NULL},
};

/* textureSampleLevel(texture_1d<f32>, sampler, f32, f32): valid WGSL that
 * was refused ("has no overload"). */
static const wgsl_case SAMPLE_LEVEL_1D[] = {
    {"textureSampleLevel:texture_type:testTextureType=\"texture_1d<f32>\"",
     BIND("texture_1d<f32>") FRAG("textureSampleLevel(t, s, 0f, 0f)"), NULL},
    {"textureSampleLevel:coords_argument:textureType=\"texture_1d<f32>\";coordType=\"abstract-int\"",
     BIND("texture_1d<f32>") FRAG("textureSampleLevel(t, s, -1, 0)"), NULL},
    {"textureSampleLevel:return_type:returnType=\"vec4f\";textureType=\"texture_1d<f32>\"",
     BIND("texture_1d<f32>") "@compute @workgroup_size(1) fn main() {\n"
     "  let v : vec4f = textureSampleLevel(t, s, 0.5, 0.0);\n}\n", NULL},
    {"textureSampleLevel: no offset on a texture_1d",
     BIND("texture_1d<f32>") FRAG("textureSampleLevel(t, s, 0f, 0f, 1i)"),
     "[texture-builtin-functions]"},
    {"textureSampleLevel: a texture_1d's coordinates are a scalar",
     BIND("texture_1d<f32>") FRAG("textureSampleLevel(t, s, vec2f(0), 0f)"), "[type-mismatch]"},
};

static void test_sampling_overloads(void **state)
{
    (void)state;
    WGSL_CHECK(SAMPLE_OVERLOADS);
    WGSL_CHECK(SAMPLE_LEVEL_1D);
}

/* textureSampleLevel on a texture_1d<f32> in a compute shader: nearest and
 * linear filtering of its one row, with a texel offset none may take. */
static void test_sample_level_1d_runs(void **state)
{
    (void)state;
    stex_adapter *adapter;
    stex_device *d = fixture_device(STEX_PROFILE_SPEC, &adapter);
    stex_texture_desc td = {.dimension = STEX_TEXTURE_DIMENSION_1D, .size = {4, 1, 1},
                            .format = STEX_FORMAT_R16FLOAT, .mip_level_count = 1,
                            .usage = STEX_USAGE_TEXTURE_BINDING | STEX_USAGE_COPY_DST};
    stex_texture *t;
    assert_int_equal(stex_texture_create(d, &td, &t), STEX_OK);
    const uint16_t texels[4] = {0x4900, 0x4d00, 0x4f80, 0x5100}; /* f16 10, 20, 30, 40 */
    assert_int_equal(stex_texture_set_texels(t, 0, 0, texels, sizeof texels), STEX_OK);
    stex_texture_view *view;
    stex_view_desc vd = {.dimension = STEX_VIEW_DIMENSION_1D};
    assert_int_equal(stex_texture_create_view(t, &vd, &view), STEX_OK);
    stex_sampler *near = NULL, *lin = NULL;
    stex_sampler_desc sd = {.lod_max_clamp = 32};
    assert_int_equal(stex_sampler_create(d, &sd, &near), STEX_OK);
    sd.mag_filter = sd.min_filter = STEX_FILTER_LINEAR;
    assert_int_equal(stex_sampler_create(d, &sd, &lin), STEX_OK);
    stex_wgsl_module *m = fixture_module(
        "@group(0) @binding(0) var t : texture_1d<f32>;\n"
        "@group(0) @binding(1) var sn : sampler;\n"
        "@group(0) @binding(2) var sl : sampler;\n"
        "@group(0) @binding(3) var<storage, read_write> o : array<f32, 3>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  o[0] = textureSampleLevel(t, sn, 0.6, 0.0).x;\n"  /* texel 2 */
        "  o[1] = textureSampleLevel(t, sl, 0.25, 0.0).x;\n" /* halfway from texel 0 to 1 */
        "  o[2] = textureSampleLevel(t, sl, 1.0, 0).x;\n"    /* clamped to texel 3 */
        "}\n", "t1d.wgsl");
    stex_pipeline *p = NULL;
    assert_int_equal(stex_wgsl_pipeline_create(d, m, NULL, NULL, &p), STEX_OK);
    stex_buffer *out;
    stex_buffer_desc bd = {.size = 12, .usage = STEX_BUFFER_USAGE_STORAGE};
    assert_int_equal(stex_buffer_create(d, &bd, &out), STEX_OK);
    stex_bind_group_entry e[4] = {{.binding = 0, .view = view}, {.binding = 1, .sampler = near},
                                  {.binding = 2, .sampler = lin}, {.binding = 3, .buffer = out}};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, e, 4, &g), STEX_OK);
    assert_int_equal(stex_dispatch(p, g, 1, 1, 1, NULL), STEX_OK);
    float got[3];
    memcpy(got, stex_buffer_data(out), sizeof got);
    assert_true(got[0] == 30.0f && got[1] == 15.0f && got[2] == 40.0f);
    stex_bind_group_destroy(g);
    stex_buffer_destroy(out);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_sampler_destroy(near);
    stex_sampler_destroy(lin);
    stex_texture_view_destroy(view);
    stex_texture_destroy(t);
    stex_device_destroy(d);
    stex_adapter_destroy(adapter);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measured_through_wgsl),
        cmocka_unit_test(test_type_and_overload_errors),
        cmocka_unit_test(test_sampling_overloads),
        cmocka_unit_test(test_sample_level_1d_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
