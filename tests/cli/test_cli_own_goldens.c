/* Goldens of a user's own shaders (issue 26, items 1, 2 and 4): one run file
 * makes a golden per profile ({profile}, {seed}, --out-dir) and never
 * silently overwrites another profile's; --record-allowed, `stex compare
 * --tolerance allowed` and --replay work for run files and .wgsl files as
 * for the lessons, the replay refusing when a file it was made from
 * changed; `stex run FILE.wgsl --in`; --scale for .png outputs; a missing
 * .bin blamed on itself; the progress line on a terminal only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "stex/stex.h"

/* A ramp whose values lie halfway between two unorm8 steps, (k + 0.5) /
 * 255: WGSL lets an implementation round such a value either way, so the
 * profiles may differ by one step and every one of them is allowed. */
static const char RAMP_WGSL[] =
    "@group(0) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;\n"
    "@compute @workgroup_size(8, 8)\n"
    "fn main(@builtin(global_invocation_id) id: vec3u) {\n"
    "    let v = (f32(id.x + 8u * id.y) + 0.5) / 255.0;\n"
    "    textureStore(img, id.xy, vec4f(v, 1.0 - v, v * 0.5, 1.0));\n"
    "}\n";

/* The run file for it; OUTPUTS is the "files" list. */
#define RAMP_JSON(OUTPUTS)                                                                       \
    "{\"shaderModules\": {\"m\": {\"file\": \"ramp.wgsl\"}},\n"                                  \
    " \"textures\": {\"t\": {\"size\": [8, 8], \"format\": \"rgba8unorm\",\n"                     \
    "                      \"usage\": [\"STORAGE_BINDING\", \"COPY_SRC\"]}},\n"                   \
    " \"views\": {\"v\": {\"texture\": \"t\"}},\n"                                               \
    " \"pipelines\": {\"p\": {\"layout\": \"auto\",\n"                                           \
    "                       \"compute\": {\"module\": \"m\", \"entryPoint\": \"main\"}}},\n"     \
    " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\", \"group\": 0},\n"               \
    "                        \"entries\": [{\"binding\": 0, \"resource\": \"v\"}]}},\n"          \
    " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"],\n"     \
    "                                   \"workgroupCount\": [1, 1, 1]}}],\n"                     \
    " \"outputs\": [{\"texture\": \"t\", \"files\": " OUTPUTS "}]}\n"

/* A fresh folder `name` in the scratch folder holding ramp.wgsl and
 * ramp.json (with `json`); *dir gets its path. */
static void fixture(char *dir, size_t n, const char *name, const char *json)
{
    char p[512];
    path_in(dir, n, name);
    mkdir(dir, 0777);
    snprintf(p, sizeof p, "%s/ramp.wgsl", dir);
    spit(p, RAMP_WGSL, strlen(RAMP_WGSL));
    snprintf(p, sizeof p, "%s/ramp.json", dir);
    spit(p, json, strlen(json));
}

/* The "profile" a .bin's sidecar records ("" if none). */
static void sidecar_profile(const char *bin, char out[32])
{
    char side[600];
    snprintf(side, sizeof side, "%s.json", bin);
    json_t *j = json_load_file(side, 0, NULL);
    snprintf(out, 32, "%s", json_string_value(json_object_get(j, "profile")) ?
                                json_string_value(json_object_get(j, "profile")) : "");
    json_decref(j);
}

static bool exists(const char *dir, const char *name)
{
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, F_OK) == 0;
}

/* Item 1: {profile} in an output's name makes one golden per profile, each
 * sidecar naming its own; {seed} the seed's; --out-dir puts them elsewhere. */
static void test_golden_per_profile(void **state)
{
    (void)state;
    char d[512], p[600], prof[32];
    fixture(d, sizeof d, "per_profile", RAMP_JSON("[\"golden-{profile}.bin\"]"));
    const char *profiles[] = {"spec", "lavapipe", "nvidia"};
    for (int i = 0; i < 3; i++) {
        cli_result r = run_stex("run '%s/ramp.json' --profile %s", d, profiles[i]);
        CLI_EXPECT(r, 0, NULL);
        snprintf(p, sizeof p, "%s/golden-%s.bin", d, profiles[i]);
        assert_non_null(strstr(r.out, p));
        cli_free(&r);
        sidecar_profile(p, prof);
        assert_string_equal(prof, profiles[i]);
    }
    assert_false(exists(d, "golden-{profile}.bin"));

    fixture(d, sizeof d, "per_seed", RAMP_JSON("[\"g-{profile}-{seed}.bin\", \"g-{seed}.npy\"]"));
    cli_result r = run_stex("run '%s/ramp.json' --seed 7", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_true(exists(d, "g-spec-7.bin") && exists(d, "g-7.npy"));

    /* --out-dir: the names start there (made if missing), not beside the run file */
    char out[600];
    snprintf(out, sizeof out, "%s/goldens", d);
    r = run_stex("run '%s/ramp.json' --out-dir '%s' --profile lavapipe --seed 1", d, out);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_true(exists(out, "g-lavapipe-1.bin") && exists(out, "g-lavapipe-1.bin.json") &&
                exists(out, "g-1.npy"));
    assert_false(exists(d, "g-lavapipe-1.bin"));

    /* a placeholder stex does not know is refused where it is written */
    fixture(d, sizeof d, "bad_placeholder", RAMP_JSON("[\"g-{prof}.bin\"]"));
    r = run_stex("run '%s/ramp.json'", d);
    CLI_EXPECT(r, 2, "$.outputs[0].files[0]: 'g-{prof}.bin': unknown placeholder '{prof}'");
    cli_free(&r);
}

/* Item 1: a golden made under one profile is not overwritten by a run under
 * another (named: the file, both profiles) unless --force. */
static void test_no_silent_overwrite(void **state)
{
    (void)state;
    char d[512], bin[600], prof[32];
    fixture(d, sizeof d, "overwrite", RAMP_JSON("[\"golden.bin\"]"));
    snprintf(bin, sizeof bin, "%s/golden.bin", d);
    cli_result r = run_stex("run '%s/ramp.json'", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    size_t n0, n1;
    uint8_t *before = slurp(bin, &n0);
    r = run_stex("run '%s/ramp.json' --profile nvidia", d);
    CLI_EXPECT(r, 2, "golden.bin: a golden made under profile spec");
    assert_non_null(strstr(r.err, "this run's profile is nvidia"));
    assert_non_null(strstr(r.err, "--force"));
    cli_free(&r);
    uint8_t *after = slurp(bin, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(after);
    sidecar_profile(bin, prof);
    assert_string_equal(prof, "spec");
    /* the same profile again: its own golden, made again */
    r = run_stex("run '%s/ramp.json'", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run '%s/ramp.json' --profile nvidia --force", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    sidecar_profile(bin, prof);
    assert_string_equal(prof, "nvidia");
    free(before);
}

/* The same rule for a built-in kernel's --out: `stex run decaer --out
 * g.bin --profile nvidia` left spec's golden as it was only with --force. */
static void test_no_silent_overwrite_kernel(void **state)
{
    (void)state;
    char bin[512], prof[32];
    path_in(bin, sizeof bin, "kernel-golden.bin");
    remove(bin);
    cli_result r = run_stex("run decaer --size 16x16 --out '%s'", bin);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    size_t n0, n1;
    uint8_t *before = slurp(bin, &n0);
    r = run_stex("run decaer --size 16x16 --out '%s' --profile nvidia", bin);
    CLI_EXPECT(r, 2, "kernel-golden.bin: a golden made under profile spec");
    cli_free(&r);
    uint8_t *after = slurp(bin, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(after);
    free(before);
    r = run_stex("run decaer --size 16x16 --out '%s' --profile nvidia --force", bin);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    sidecar_profile(bin, prof);
    assert_string_equal(prof, "nvidia");
}

/* Item 2: --record-allowed for a run file writes X.bin.inputs, and `stex
 * compare --tolerance allowed` accepts another profile's rounding of the
 * halfway values that an exact comparison refuses. */
static void test_record_allowed_run_file(void **state)
{
    (void)state;
    char d[512];
    fixture(d, sizeof d, "allowed", RAMP_JSON("[\"golden-{profile}.bin\"]"));
    cli_result r = run_stex("run '%s/ramp.json' --record-allowed", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_true(exists(d, "golden-spec.bin.inputs"));
    r = run_stex("run '%s/ramp.json' --profile nvidia", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_false(exists(d, "golden-nvidia.bin.inputs"));
    r = run_stex("compare '%s/golden-spec.bin' '%s/golden-nvidia.bin'", d, d);
    CLI_EXPECT(r, 1, NULL); /* one step apart: not byte-equal */
    cli_free(&r);
    r = run_stex("compare '%s/golden-spec.bin' '%s/golden-nvidia.bin' --tolerance allowed", d, d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run '%s/ramp.json' --record-allowed --threads 2", d);
    CLI_EXPECT(r, 2, "--record-allowed: runs on one thread");
    cli_free(&r);
}

/* Item 2: --replay of a run file's golden: byte-identical; a changed byte
 * differs; a changed, moved or missing file it was made from is refused,
 * named. */
/* A golden made at the default lock-step width records that width (64,
 * STEX_WGSL_SUBGROUP_WIDTH_DEFAULT; the record said 32), so its replay runs
 * the same sub-groups: a shader whose invocations read a neighbour's texel
 * in place gives other bytes at width 32 (lanes 32..63 run after 0..31 have
 * stored), and the replay must still be byte-identical. */
static void test_replay_default_width(void **state)
{
    (void)state;
    char wgsl[512], bin[512], bin32[512];
    path_in(wgsl, sizeof wgsl, "left.wgsl");
    path_in(bin, sizeof bin, "left.bin");
    path_in(bin32, sizeof bin32, "left32.bin");
    const char *src =
        "@group(0) @binding(0) var img: texture_storage_2d<r32uint, read_write>;\n"
        "@compute @workgroup_size(64)\n"
        "fn main(@builtin(local_invocation_index) x: u32) {\n"
        "  let left = textureLoad(img, vec2i(max(i32(x) - 1, 0), 0)).x;\n"
        "  textureStore(img, vec2u(x, 0u), vec4u(left + x + 1u, 0u, 0u, 0u));\n"
        "}\n";
    spit(wgsl, src, strlen(src));
    cli_result r = run_stex("run '%s' --size 64x1 --threads 1 --out '%s' --force", wgsl, bin);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run '%s' --size 64x1 --threads 1 --subgroup-size %d --out '%s' --force", wgsl,
                 STEX_WGSL_SUBGROUP_WIDTH_DEFAULT / 2, bin32);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    size_t n0, n1;
    uint8_t *a = slurp(bin, &n0), *b = slurp(bin32, &n1);
    assert_true(n0 == n1 && memcmp(a, b, n0)); /* the width shows in the bytes */
    free(a);
    free(b);
    char side[600];
    snprintf(side, sizeof side, "%s.json", bin);
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "byte-identical"));
    cli_free(&r);
}

static void test_replay_run_file(void **state)
{
    (void)state;
    char d[512], p[600], side[600];
    fixture(d, sizeof d, "replay", RAMP_JSON("[\"golden-{profile}.bin\"]"));
    cli_result r = run_stex("run '%s/ramp.json' --profile lavapipe --seed 3", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* the record names the run file and what it read, by SHA-256 */
    snprintf(side, sizeof side, "%s/golden-lavapipe.bin.json", d);
    json_t *j = json_load_file(side, 0, NULL), *run = json_object_get(j, "run");
    assert_non_null(run);
    assert_string_equal(json_string_value(json_object_get(run, "profile")), "lavapipe");
    assert_int_equal(json_integer_value(json_object_get(run, "seed")), 3);
    assert_int_equal(strlen(json_string_value(json_object_get(run, "run_file_sha256"))), 64);
    assert_int_equal(json_array_size(json_object_get(run, "inputs")), 1);
    assert_non_null(strstr(json_string_value(json_object_get(
                               json_array_get(json_object_get(run, "inputs"), 0), "path")),
                           "ramp.wgsl"));
    json_decref(j);

    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "byte-identical (64 texels)"));
    cli_free(&r);
    /* another profile's bytes under this record (nvidia rounds the halfway
     * values its own way): the replay says they differ (exit 1) */
    char other[600];
    snprintf(other, sizeof other, "%s/golden-nvidia.bin.json", d);
    r = run_stex("run '%s/ramp.json' --profile nvidia", d);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    j = json_load_file(side, 0, NULL);
    json_t *theirs = json_load_file(other, 0, NULL);
    json_object_set(theirs, "run", json_object_get(j, "run"));
    json_dump_file(theirs, other, 0);
    json_decref(theirs);
    json_decref(j);
    r = run_stex("run --replay '%s'", other);
    CLI_EXPECT(r, 1, NULL);
    assert_non_null(strstr(r.out, "DIFFERS in "));
    cli_free(&r);
    /* the shader changed: refused, naming it */
    snprintf(p, sizeof p, "%s/ramp.wgsl", d);
    spit(p, "// changed\n", 11);
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 2, "ramp.wgsl' changed since the golden was made");
    cli_free(&r);
    remove(p);
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 2, "ramp.wgsl', which the golden was made from, cannot be read");
    cli_free(&r);
    spit(p, RAMP_WGSL, strlen(RAMP_WGSL));
    /* the run file changed */
    snprintf(p, sizeof p, "%s/ramp.json", d);
    const char *json = RAMP_JSON("[\"other-{profile}.bin\"]");
    spit(p, json, strlen(json));
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 2, "run file");
    assert_non_null(strstr(r.err, "ramp.json' changed since the golden was made"));
    cli_free(&r);
    /* a sidecar without a record: the message says what is missing, not
     * that an older stex wrote it */
    j = json_load_file(side, 0, NULL);
    json_object_del(j, "run");
    json_dump_file(j, side, 0);
    json_decref(j);
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 2, "the sidecar has no \"run\" record");
    assert_null(strstr(r.err, "older stex"));
    cli_free(&r);
}

/* An image w x h of rgba8unorm texels t(x, y) = (x * 16, y * 16, 200, 255). */
static void write_input_png(const char *path, uint32_t w, uint32_t h)
{
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RGBA8UNORM, w, h, 1), STEX_OK);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t *t = img.data + (size_t)y * img.bytes_per_row + 4 * x;
            t[0] = (uint8_t)(x * 16), t[1] = (uint8_t)(y * 16), t[2] = 200, t[3] = 255;
        }
    assert_int_equal(stex_write_image(path, &img, NULL), STEX_OK);
    stex_image_free(&img);
}

/* Item 3: `stex run FILE.wgsl --in IMAGE`: the image fills a texture_2d
 * read beside the output (the texture takes its size), or a read_write
 * texture's initial texels; the replay of such a golden checks the image. */
static void test_wgsl_in(void **state)
{
    (void)state;
    char png[512], wgsl[512], bin[512], side[600];
    path_in(png, sizeof png, "in.png");
    path_in(wgsl, sizeof wgsl, "invert.wgsl");
    path_in(bin, sizeof bin, "inverted.bin");
    write_input_png(png, 12, 5);
    const char *invert =
        "@group(0) @binding(0) var src: texture_2d<f32>;\n"
        "@group(0) @binding(1) var dst: texture_storage_2d<rgba8unorm, write>;\n"
        "@compute @workgroup_size(8, 8)\n"
        "fn main(@builtin(global_invocation_id) id: vec3u) {\n"
        "    let c = textureLoad(src, id.xy, 0);\n"
        "    textureStore(dst, id.xy, vec4f(1.0 - c.rgb, c.a));\n"
        "}\n";
    spit(wgsl, invert, strlen(invert));
    cli_result r = run_stex("run '%s' --in '%s' --out '%s'", wgsl, png, bin);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image out;
    assert_int_equal(stex_read_bin(bin, &out, NULL), STEX_OK);
    assert_int_equal(out.width, 12);
    assert_int_equal(out.height, 5);
    for (uint32_t y = 0; y < 5; y++) /* 1 - k/255 is exactly (255 - k)/255 */
        for (uint32_t x = 0; x < 12; x++) {
            const uint8_t *t = out.data + (size_t)y * out.bytes_per_row + 4 * x;
            assert_int_equal(t[0], 255 - x * 16);
            assert_int_equal(t[1], 255 - y * 16);
            assert_int_equal(t[2], 55);
            assert_int_equal(t[3], 255);
        }
    stex_image_free(&out);
    snprintf(side, sizeof side, "%s.json", bin);
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 0, NULL);
    assert_non_null(strstr(r.out, "byte-identical (60 texels)"));
    cli_free(&r);
    write_input_png(png, 12, 5); /* the same texels: the same file */
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    write_input_png(png, 12, 6);
    r = run_stex("run --replay '%s'", side);
    CLI_EXPECT(r, 2, "in.png' changed since the golden was made");
    cli_free(&r);
    r = run_stex("run '%s' --out '%s'", wgsl, bin);
    CLI_EXPECT(r, 2, "reads a second texture (binding 0): give its image with --in FILE");
    cli_free(&r);

    /* one read_write texture: --in (an r32float .npy, x + 100 y) gives its
     * initial texels, which the shader doubles */
    char npy[512];
    path_in(npy, sizeof npy, "start.npy");
    stex_image start;
    assert_int_equal(stex_image_init(&start, STEX_FORMAT_R32FLOAT, 7, 3, 1), STEX_OK);
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 7; x++) {
            float v = (float)(x + 100 * y);
            memcpy(start.data + (size_t)y * start.bytes_per_row + 4 * x, &v, 4);
        }
    assert_int_equal(stex_write_image(npy, &start, NULL), STEX_OK);
    stex_image_free(&start);
    const char *twice =
        "@group(0) @binding(0) var img: texture_storage_2d<r32float, read_write>;\n"
        "@compute @workgroup_size(4, 4)\n"
        "fn main(@builtin(global_invocation_id) id: vec3u) {\n"
        "    if (any(id.xy >= textureDimensions(img))) { return; }\n"
        "    textureStore(img, id.xy, textureLoad(img, id.xy) * 2.0);\n"
        "}\n";
    spit(wgsl, twice, strlen(twice));
    r = run_stex("run '%s' --in '%s' --out '%s' --force", wgsl, npy, bin);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    assert_int_equal(stex_read_bin(bin, &out, NULL), STEX_OK);
    assert_int_equal(out.width, 7);
    assert_int_equal(out.height, 3);
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 7; x++) {
            float v;
            memcpy(&v, out.data + (size_t)y * out.bytes_per_row + 4 * x, 4);
            assert_true(v == 2.0f * (float)(x + 100 * y));
        }
    stex_image_free(&out);
    r = run_stex("run '%s' --in '%s' --size 4x4 --out '%s'", wgsl, npy, bin);
    CLI_EXPECT(r, 2, "--size 4x4: the --in image");
    cli_free(&r);
}

/* Item 2 for .wgsl: --record-allowed writes the inputs; --scale draws a
 * .png output's texels as N x N blocks, the .bin keeping its texels. */
static void test_wgsl_record_and_scale(void **state)
{
    (void)state;
    char wgsl[512], bin[512], png[512], inputs[600];
    path_in(wgsl, sizeof wgsl, "ramp.wgsl");
    path_in(bin, sizeof bin, "ramp.bin");
    path_in(png, sizeof png, "ramp.png");
    spit(wgsl, RAMP_WGSL, strlen(RAMP_WGSL));
    cli_result r = run_stex("run '%s' --size 8x8 --out '%s' --out '%s' --record-allowed "
                            "--scale 3", wgsl, bin, png);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    snprintf(inputs, sizeof inputs, "%s.inputs", bin);
    assert_int_equal(access(inputs, F_OK), 0);
    stex_image b, p;
    assert_int_equal(stex_read_bin(bin, &b, NULL), STEX_OK);
    assert_int_equal(stex_read_png(png, &p), STEX_OK);
    assert_int_equal(b.width, 8);
    assert_int_equal(p.width, 24);
    assert_int_equal(p.height, 24);
    for (uint32_t y = 0; y < 24; y++)
        for (uint32_t x = 0; x < 24; x++)
            assert_memory_equal(p.data + (size_t)y * p.bytes_per_row + 4 * x,
                                b.data + (size_t)(y / 3) * b.bytes_per_row + 4 * (x / 3), 4);
    stex_image_free(&b);
    stex_image_free(&p);
    r = run_stex("run decaer --scale 2 --out x.png");
    CLI_EXPECT(r, 2, "--scale: for a run file or a .wgsl file");
    cli_free(&r);
}

/* Item 4: a missing .bin is named itself, not its sidecar. */
static void test_missing_bin_named(void **state)
{
    (void)state;
    char bin[512];
    path_in(bin, sizeof bin, "nothere.bin");
    cli_result r = run_stex("compare '%s' '%s'", bin, bin);
    CLI_EXPECT(r, 2, "cannot read '");
    assert_non_null(strstr(r.err, "nothere.bin': No such file"));
    assert_null(strstr(r.err, "sidecar"));
    cli_free(&r);
}

/* Item 4 (of the issue): the progress line on a terminal - dispatch N/M
 * and the time - wiped before the summary; none into a pipe or a file, and
 * none with --quiet. */
static void test_progress_line(void **state)
{
    (void)state;
    char wgsl[512], bin[512];
    path_in(wgsl, sizeof wgsl, "slow.wgsl");
    path_in(bin, sizeof bin, "slow.bin");
    const char *slow =
        "override loops: u32 = 64000u;\n" /* ~0.8 s in all, past the 0.1 s delay */
        "@group(0) @binding(0) var img: texture_storage_2d<r32float, write>;\n"
        "@compute @workgroup_size(8, 8)\n"
        "fn main(@builtin(global_invocation_id) id: vec3u) {\n"
        "    var acc = 0.0;\n"
        "    for (var i = 0u; i < loops; i++) { acc += f32(i ^ id.x); }\n"
        "    textureStore(img, id.xy, vec4f(acc, 0.0, 0.0, 1.0));\n"
        "}\n";
    spit(wgsl, slow, strlen(slow));
    const char *args[] = {"run", wgsl, "--size", "32x32", "--iterations", "12", "--threads", "1",
                          "--out", bin, "--force", NULL};
    int code;
    char *text = cli_on_terminal(args, "STEX_PROGRESS_DELAY", "0.1", &code);
    assert_int_equal(code, 0);
    char *line = strstr(text, "\r\033[Kstex run: dispatch ");
    if (!line)
        fail_msg("no progress line on the terminal: %s", text);
    assert_non_null(strstr(line, "/12, "));
    assert_non_null(strstr(text, " s\r\033[K")); /* wiped before the summary */
    assert_non_null(strstr(text, "12 dispatches in"));
    free(text);
    const char *quiet[] = {"run", wgsl, "--size", "32x32", "--iterations", "12", "--threads", "1",
                           "--out", bin, "--force", "--quiet", NULL};
    text = cli_on_terminal(quiet, "STEX_PROGRESS_DELAY", "0.1", &code);
    assert_int_equal(code, 0);
    assert_null(strstr(text, "dispatch 1/"));
    assert_non_null(strstr(text, "12 dispatches in"));
    free(text);
    /* into files (not a terminal): no line, whatever the delay */
    setenv("STEX_PROGRESS_DELAY", "0", 1);
    cli_result r = run_stex("run '%s' --size 32x32 --iterations 12 --threads 1 --out '%s'",
                            wgsl, bin);
    unsetenv("STEX_PROGRESS_DELAY");
    CLI_EXPECT(r, 0, NULL);
    assert_null(strstr(r.err, "dispatch"));
    assert_null(strstr(r.out, "\r"));
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golden_per_profile),
        cmocka_unit_test(test_no_silent_overwrite),
        cmocka_unit_test(test_no_silent_overwrite_kernel),
        cmocka_unit_test(test_record_allowed_run_file),
        cmocka_unit_test(test_replay_run_file),
        cmocka_unit_test(test_replay_default_width),
        cmocka_unit_test(test_wgsl_in),
        cmocka_unit_test(test_wgsl_record_and_scale),
        cmocka_unit_test(test_missing_bin_named),
        cmocka_unit_test(test_progress_line),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
