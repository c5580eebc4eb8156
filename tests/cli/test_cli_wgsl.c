/* stex check and stex reflect: exit codes (0 valid, 1 invalid, 2 usage),
 * the diagnostics' file:line:col and rule, reflection as JSON (parsed with
 * jansson), overrides by name and @id; and stex run --executor. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"
#include "stex/stex.h"

static const char VALID[] =
    "override block : u32 = 8u;\n"
    "@id(7) override gain : f32 = 0.5;\n"
    "struct P { n : u32, v : array<f32> }\n"
    "@group(0) @binding(0) var src : texture_2d<f32>;\n"
    "@group(0) @binding(1) var dst : texture_storage_2d<rgba8unorm, write>;\n"
    "@group(1) @binding(0) var<storage, read_write> buf : P;\n"
    "@group(1) @binding(3) var<uniform> u : vec4<f32>;\n"
    "@group(0) @binding(2) var smp : sampler;\n"
    "@compute @workgroup_size(block, 2)\n"
    "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
    "    let c = textureLoad(src, vec2<i32>(id.xy), 0) * gain + u;\n"
    "    textureStore(dst, vec2<i32>(id.xy), c);\n"
    "    buf.v[id.x] = f32(buf.n);\n"
    "}\n"
    "@compute @workgroup_size(4)\n"
    "fn other(@builtin(global_invocation_id) id : vec3<u32>) {\n"
    "    let c = textureSampleLevel(src, smp, vec2<f32>(0.5), 0.0);\n"
    "    textureStore(dst, vec2<i32>(id.xy), c);\n"
    "}\n";

static const char INVALID[] =
    "@compute @workgroup_size(8)\n"
    "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
    "    let a : f32 = id.x;\n"
    "}\n";

static void write_file(const char *name, const char *text, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", cli_dir, name);
    spit(path, text, strlen(text));
}

static void test_check(void **state)
{
    (void)state;
    char ok[512], bad[512];
    write_file("ok.wgsl", VALID, ok, sizeof ok);
    write_file("bad.wgsl", INVALID, bad, sizeof bad);
    cli_result r = run_stex("check '%s'", ok);
    CLI_EXPECT(r, 0, NULL);
    assert_string_equal(r.err, "");
    cli_free(&r);

    r = run_stex("check '%s'", bad);
    CLI_EXPECT(r, 1, NULL);
    char want[600];
    snprintf(want, sizeof want, "%s:3:22: error: ", bad);
    if (!strstr(r.err, want) || !strstr(r.err, "[") || !strstr(r.err, "^"))
        fail_msg("expected '%s...[rule]' and a caret, got: %s", want, r.err);
    cli_free(&r);

    r = run_stex("check --quiet '%s' '%s'", ok, bad); /* the worst status of all */
    CLI_EXPECT(r, 1, NULL);
    assert_string_equal(r.err, "");
    cli_free(&r);

    r = run_stex("check");
    CLI_EXPECT(r, 2, "missing FILE.wgsl");
    cli_free(&r);
    r = run_stex("check '%s/none.wgsl'", cli_dir);
    CLI_EXPECT(r, 2, "cannot open");
    cli_free(&r);
    r = run_stex("check --frobnicate '%s'", ok);
    CLI_EXPECT(r, 2, NULL);
    cli_free(&r);
    /* stdin */
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' check - < '%s' 2>/dev/null", stex_bin(), bad);
    int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 1);
}

static json_t *member(json_t *arr, const char *key, const char *name)
{
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *o = json_array_get(arr, i);
        if (!strcmp(json_string_value(json_object_get(o, key)), name))
            return o;
    }
    fail_msg("no %s '%s'", key, name);
    return NULL;
}

static json_t *binding(json_t *ep, int group, int b)
{
    json_t *bs = json_object_get(ep, "bindings");
    for (size_t i = 0; i < json_array_size(bs); i++) {
        json_t *o = json_array_get(bs, i);
        if (json_integer_value(json_object_get(o, "group")) == group &&
            json_integer_value(json_object_get(o, "binding")) == b)
            return o;
    }
    fail_msg("no binding (%d, %d)", group, b);
    return NULL;
}

static const char *str(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_null(v) ? "null" : json_string_value(v);
}

static void test_reflect_json(void **state)
{
    (void)state;
    char ok[512];
    write_file("ok.wgsl", VALID, ok, sizeof ok);
    cli_result r = run_stex("reflect --json --override 7=2 --override block=16 '%s'", ok);
    CLI_EXPECT(r, 0, NULL);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    if (!j)
        fail_msg("not JSON (%s): %s", je.text, r.out);
    json_t *eps = json_object_get(j, "entry_points");
    assert_int_equal(json_array_size(eps), 2);
    json_t *m = member(eps, "name", "main");
    json_t *ws = json_object_get(m, "workgroup_size");
    assert_int_equal(json_integer_value(json_array_get(ws, 0)), 16); /* the override */
    assert_int_equal(json_integer_value(json_array_get(ws, 1)), 2);
    assert_int_equal(json_integer_value(json_array_get(ws, 2)), 1);
    assert_int_equal(json_array_size(json_object_get(m, "bindings")), 4);
    json_t *b = binding(m, 0, 0);
    assert_string_equal(str(b, "kind"), "texture");
    assert_string_equal(str(b, "view_dimension"), "2d");
    assert_string_equal(str(b, "sample_type"), "unfilterable-float");
    b = binding(m, 0, 1);
    assert_string_equal(str(b, "kind"), "storage-texture");
    assert_string_equal(str(b, "format"), "rgba8unorm");
    assert_string_equal(str(b, "access"), "write-only");
    b = binding(m, 1, 0);
    assert_string_equal(str(b, "kind"), "storage-buffer");
    assert_int_equal(json_integer_value(json_object_get(b, "min_binding_size")), 8);
    b = binding(m, 1, 3);
    assert_string_equal(str(b, "kind"), "uniform-buffer");
    assert_int_equal(json_integer_value(json_object_get(b, "min_binding_size")), 16);
    json_t *o = member(eps, "name", "other");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(o, "workgroup_size"), 0)), 4);
    assert_string_equal(str(binding(o, 0, 0), "sample_type"), "float"); /* sampled */
    assert_string_equal(str(binding(o, 0, 2), "kind"), "sampler");
    json_t *ovs = json_object_get(j, "overrides");
    assert_int_equal(json_array_size(ovs), 2);
    json_t *g = member(ovs, "name", "gain");
    assert_string_equal(str(g, "type"), "f32");
    assert_int_equal(json_integer_value(json_object_get(g, "id")), 7);
    assert_true(json_number_value(json_object_get(g, "default")) == 0.5);
    assert_true(json_number_value(json_object_get(g, "value")) == 2);
    json_t *bl = member(ovs, "name", "block");
    assert_true(json_is_null(json_object_get(bl, "id")));
    assert_int_equal(json_integer_value(json_object_get(bl, "default")), 8);
    json_decref(j);
    cli_free(&r);

    r = run_stex("reflect --entry other '%s'", ok);
    CLI_EXPECT(r, 0, NULL);
    if (!strstr(r.out, "@workgroup_size(4, 1, 1) fn other") || strstr(r.out, "fn main"))
        fail_msg("%s", r.out);
    cli_free(&r);
}

/* Layout 'auto' of sampled bindings (WebGPU "default pipeline layout"): a
 * multisampled texture of f32 is unfilterable-float and multisampled, a
 * depth texture depth, a sampler_comparison a comparison sampler, a sampler
 * that samples a float texture filtering - in JSON and in text. */
static const char SAMPLED[] =
    "@group(0) @binding(0) var ms : texture_multisampled_2d<f32>;\n"
    "@group(0) @binding(1) var d : texture_depth_2d;\n"
    "@group(0) @binding(2) var sc : sampler_comparison;\n"
    "@group(0) @binding(3) var t : texture_2d<f32>;\n"
    "@group(0) @binding(4) var s : sampler;\n"
    "@group(0) @binding(5) var<storage, read_write> o : array<f32>;\n"
    "@compute @workgroup_size(1) fn main() {\n"
    "  o[0] = textureLoad(ms, vec2<i32>(0), 1).x + textureSampleCompareLevel(d, sc, vec2<f32>(0.5), 0.5)\n"
    "       + textureSampleLevel(t, s, vec2<f32>(0.5), 0.0).x;\n"
    "}\n";

static void test_reflect_sampled(void **state)
{
    (void)state;
    char path[512];
    write_file("sampled.wgsl", SAMPLED, path, sizeof path);
    cli_result r = run_stex("reflect --json '%s'", path);
    CLI_EXPECT(r, 0, NULL);
    json_t *j = json_loads(r.out, 0, NULL);
    assert_non_null(j);
    json_t *m = member(json_object_get(j, "entry_points"), "name", "main");
    json_t *b = binding(m, 0, 0);
    assert_string_equal(str(b, "sample_type"), "unfilterable-float");
    assert_true(json_is_true(json_object_get(b, "multisampled")));
    b = binding(m, 0, 1);
    assert_string_equal(str(b, "sample_type"), "depth");
    assert_true(json_is_false(json_object_get(b, "multisampled")));
    assert_string_equal(str(binding(m, 0, 2), "sampler_type"), "comparison");
    assert_string_equal(str(binding(m, 0, 3), "sample_type"), "float");
    assert_string_equal(str(binding(m, 0, 4), "sampler_type"), "filtering");
    json_decref(j);
    cli_free(&r);
    r = run_stex("reflect '%s'", path);
    CLI_EXPECT(r, 0, NULL);
    if (!strstr(r.out, "ms: texture, view 2d, sample type unfilterable-float, multisampled") ||
        !strstr(r.out, "sc: sampler, type comparison") || !strstr(r.out, "s: sampler, type filtering"))
        fail_msg("%s", r.out);
    cli_free(&r);
}

static void test_reflect_errors(void **state)
{
    (void)state;
    char ok[512], bad[512];
    write_file("ok.wgsl", VALID, ok, sizeof ok);
    write_file("bad.wgsl", INVALID, bad, sizeof bad);
    cli_result r = run_stex("reflect '%s'", bad);
    CLI_EXPECT(r, 1, ":3:22: error:");
    cli_free(&r);
    r = run_stex("reflect --override nope=1 '%s'", ok);
    CLI_EXPECT(r, 2, "no override 'nope'");
    cli_free(&r);
    r = run_stex("reflect --override block=x '%s'", ok);
    CLI_EXPECT(r, 2, "not a finite number");
    cli_free(&r);
    r = run_stex("reflect --override block=0 '%s'", ok); /* breaks @workgroup_size */
    CLI_EXPECT(r, 1, "workgroup_size");
    cli_free(&r);
    r = run_stex("reflect --entry nope '%s'", ok);
    CLI_EXPECT(r, 2, "no @compute entry point 'nope'");
    cli_free(&r);
    r = run_stex("reflect");
    CLI_EXPECT(r, 2, "missing FILE.wgsl");
    cli_free(&r);
}

/* --override sizes the pipeline as createComputePipeline would: the
 * override-expression m = n * 2 evaluated from the n given, var<workgroup>
 * re-sized from it, and a size past the limits an error naming the limit.
 * The verdicts are Dawn's for the same module and constants: {n: 100000}
 * "exceeds the maximum allowed (256, 256, 64)", {n: 128, m: 5000} and
 * {n: 64, m: 4097} "total use of workgroup storage ... larger than the
 * maximum allowed (16384 bytes)", {n: 64, m: 4096} valid. */
static const char OVERRIDDEN[] =
    "override n : u32 = 8;\n"
    "override m : u32 = n * 2;\n"
    "var<workgroup> buf : array<f32, m>;\n"
    "@group(0) @binding(0) var<storage, read_write> o : array<f32>;\n"
    "@compute @workgroup_size(n) fn main(@builtin(local_invocation_index) i : u32) {\n"
    "  buf[i] = 1.0; workgroupBarrier(); o[i] = buf[i];\n}\n";

static void test_reflect_override(void **state)
{
    (void)state;
    char path[512];
    write_file("over.wgsl", OVERRIDDEN, path, sizeof path);
    cli_result r = run_stex("reflect --json --override n=4 '%s'", path);
    CLI_EXPECT(r, 0, NULL);
    json_t *j = json_loads(r.out, 0, NULL);
    if (!j)
        fail_msg("not JSON: %s", r.out);
    json_t *ep = member(json_object_get(j, "entry_points"), "name", "main");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(ep, "workgroup_size"), 0)), 4);
    /* m = 4 * 2 f32s: 32 bytes (was: the default's 64) */
    assert_int_equal(json_integer_value(json_object_get(ep, "workgroup_memory_size")), 32);
    json_t *m = member(json_object_get(j, "overrides"), "name", "m");
    assert_int_equal(json_integer_value(json_object_get(m, "default")), 16);
    assert_int_equal(json_integer_value(json_object_get(m, "value")), 8); /* was: 16 */
    json_decref(j);
    cli_free(&r);
    r = run_stex("reflect --override n=4 '%s'", path);
    CLI_EXPECT(r, 0, NULL);
    if (!strstr(r.out, "@workgroup_size(4, 1, 1) fn main: 32 bytes of var<workgroup>") ||
        !strstr(r.out, "override m: u32 = 16, now 8"))
        fail_msg("%s", r.out);
    cli_free(&r);
    static const struct { const char *over, *msg; int code; } cases[] = {
        {"--override n=100000", "@workgroup_size x = 100000 exceeds maxComputeWorkgroupSizeX "
                                "(256", 1},
        {"--override n=128 --override m=5000", "20000 bytes of var<workgroup> exceed "
                                               "maxComputeWorkgroupStorageSize (16384)", 1},
        {"--override n=64 --override m=4097", "exceed maxComputeWorkgroupStorageSize", 1},
        {"--override n=64 --override m=4096", NULL, 0},
        {"--override n=4294967296", "4294967296 is not a value of u32", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = run_stex("reflect %s '%s'", cases[i].over, path);
        if (r.code != cases[i].code || (cases[i].msg && !strstr(r.err, cases[i].msg)))
            fail_msg("reflect %s: exit %d, stderr %s; expected %d and '%s'", cases[i].over,
                     r.code, r.err, cases[i].code, cases[i].msg ? cases[i].msg : "");
        cli_free(&r);
    }
}

/* check --json: every diagnostic with severity, rule, line and column
 * (code points), and warnings printed as `warning:` with exit 0.  The
 * positions are Dawn's getCompilationInfo (lineNum, linePos) for the same
 * text: 4:28 for textureSample under a non-uniform if, 1:49 for the
 * unreachable statement. */
static void test_check_json_and_warnings(void **state)
{
    (void)state;
    static const char FRAG[] =
        "@group(0) @binding(0) var t: texture_2d<f32>;\n"
        "@group(0) @binding(1) var s: sampler;\n"
        "@fragment fn main(@location(0) uv: vec2f) -> @location(0) vec4f {\n"
        "  if (uv.x > 0.5) { return textureSample(t, s, uv); }\n"
        "  return vec4f(0);\n}\n";
    char frag[512], warn[512], unreach[512];
    write_file("frag.wgsl", FRAG, frag, sizeof frag);
    char text[1024];
    snprintf(text, sizeof text, "diagnostic(warning, derivative_uniformity);\n%s", FRAG);
    write_file("warn.wgsl", text, warn, sizeof warn);
    write_file("unreach.wgsl", "@compute @workgroup_size(1) fn main() { return; let x = 1; }\n",
               unreach, sizeof unreach);
    cli_result r = run_stex("check '%s'", frag);
    CLI_EXPECT(r, 1, ":4:28: error: textureSample must only be called from uniform control flow");
    assert_non_null(strstr(r.err, "[derivative_uniformity]"));
    cli_free(&r);
    r = run_stex("check '%s'", warn);
    CLI_EXPECT(r, 0, ":5:28: warning: textureSample");
    assert_non_null(strstr(r.err, "0 errors, 1 warning"));
    cli_free(&r);
    r = run_stex("check '%s'", unreach);
    CLI_EXPECT(r, 0, ":1:49: warning: code is unreachable");
    cli_free(&r);
    r = run_stex("check --quiet '%s'", unreach);
    CLI_EXPECT(r, 0, NULL);
    assert_string_equal(r.err, "");
    cli_free(&r);
    r = run_stex("check --json '%s' '%s' '%s/none.wgsl'", frag, warn, cli_dir);
    assert_int_equal(r.code, 2); /* the worst: an unreadable file */
    json_error_t e;
    json_t *j = json_loads(r.out, 0, &e);
    if (!j)
        fail_msg("not JSON (%s): %s", e.text, r.out);
    json_t *files = json_object_get(j, "files");
    assert_int_equal(json_array_size(files), 3);
    static const struct { const char *severity; int line, column; bool valid; } want[] = {
        {"error", 4, 28, false}, {"warning", 5, 28, true}};
    for (size_t i = 0; i < 2; i++) {
        json_t *f = json_array_get(files, i);
        assert_int_equal(json_is_true(json_object_get(f, "valid")), want[i].valid);
        json_t *d = json_array_get(json_object_get(f, "diagnostics"), 0);
        assert_string_equal(json_string_value(json_object_get(d, "severity")), want[i].severity);
        assert_string_equal(json_string_value(json_object_get(d, "rule")), "derivative_uniformity");
        assert_int_equal(json_integer_value(json_object_get(d, "line")), want[i].line);
        assert_int_equal(json_integer_value(json_object_get(d, "column")), want[i].column);
        assert_non_null(strstr(json_string_value(json_object_get(d, "message")), "textureSample"));
    }
    assert_true(json_is_true(json_object_get(json_array_get(files, 2), "unreadable")));
    json_decref(j);
    cli_free(&r);
}

/* stex run --executor: the WGSL and the C version of every race-free kernel
 * write the same bytes; --json says which ran. */
static void test_run_executor(void **state)
{
    (void)state;
    for (size_t i = 0; i < stex_kernel_count(); i++) {
        const stex_kernel *k = stex_kernel_at(i);
        if (k->racy)
            continue;
        char cp[512], wp[512];
        snprintf(cp, sizeof cp, "%s/%s-c.bin", cli_dir, k->name);
        snprintf(wp, sizeof wp, "%s/%s-wgsl.bin", cli_dir, k->name);
        cli_result r = run_stex("run %s --size 24x16 --threads 2 --executor c --out '%s' --json",
                                k->name, cp);
        CLI_EXPECT(r, 0, NULL);
        if (!strstr(r.out, "\"executor\": \"c\""))
            fail_msg("%s: %s", k->name, r.out);
        cli_free(&r);
        /* the default executor: the kernel's WGSL and run file */
        r = run_stex("run %s --size 24x16 --threads 2 --out '%s' --json", k->name, wp);
        CLI_EXPECT(r, 0, NULL);
        if (!strstr(r.out, "\"executor\": \"wgsl\""))
            fail_msg("%s: %s", k->name, r.out);
        cli_free(&r);
        size_t nc, nw;
        uint8_t *bc = slurp(cp, &nc), *bw = slurp(wp, &nw);
        assert_non_null(bc);
        assert_non_null(bw);
        if (nc != nw || memcmp(bc, bw, nc))
            fail_msg("%s: the WGSL executor's output differs from the C kernel's", k->name);
        free(bc);
        free(bw);
    }
    cli_result r = run_stex("run decaer --executor rust");
    CLI_EXPECT(r, 2, "unknown executor 'rust'");
    cli_free(&r);
}

/* `stex run FILE.wgsl`: a shader with one storage texture, run on a texture
 * of --size and written out; the texels against the WGSL's arithmetic done
 * here (spec: unorm8 = the exact product rounded, ties to even). */
static void test_run_wgsl_file(void **state)
{
    (void)state;
    static const char GRADIENT[] =
        "@group(0) @binding(0) var out_tex : texture_storage_2d<rgba8unorm, write>;\n"
        "@compute @workgroup_size(8, 4)\n"
        "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
        "  let size = textureDimensions(out_tex);\n"
        "  if (any(id.xy >= size)) { return; }\n"
        "  let uv = vec2<f32>(id.xy) / vec2<f32>(size);\n"
        "  textureStore(out_tex, vec2<i32>(id.xy), vec4<f32>(uv.x, uv.y, 0.5, 1.0));\n"
        "}\n";
    char shader[512], out[512];
    write_file("gradient.wgsl", GRADIENT, shader, sizeof shader);
    snprintf(out, sizeof out, "%s/gradient.bin", cli_dir);
    cli_result r = run_stex("run '%s' --size 37x21 --out '%s' --threads 2", shader, out);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image img;
    if (stex_read_bin(out, &img, NULL))
        fail_msg("%s", stex_last_error());
    assert_int_equal(img.width, 37);
    assert_int_equal(img.height, 21);
    for (uint32_t y = 0; y < 21; y++)
        for (uint32_t x = 0; x < 37; x++) {
            const uint8_t *t = stex_image_texel(&img, x, y, 0);
            float u = (float)x / 37.0f, v = (float)y / 21.0f;
            uint8_t want[4] = {(uint8_t)lrint((double)u * 255.0), (uint8_t)lrint((double)v * 255.0),
                               128, 255}; /* 0.5 * 255 = 127.5: ties to even */
            if (memcmp(t, want, 4))
                fail_msg("texel (%u, %u): %02x%02x%02x%02x, want %02x%02x%02x%02x", x, y, t[0],
                         t[1], t[2], t[3], want[0], want[1], want[2], want[3]);
        }
    stex_image_free(&img);

    /* two bindings: that is a run file's job */
    char two[512];
    write_file("two.wgsl", VALID, two, sizeof two);
    r = run_stex("run '%s'", two);
    CLI_EXPECT(r, 2, "run file");
    cli_free(&r);
    /* a shader that does not compile: the diagnostic, exit 1 */
    char bad[512];
    write_file("bad.wgsl", INVALID, bad, sizeof bad);
    r = run_stex("run '%s'", bad);
    CLI_EXPECT(r, 1, "bad.wgsl:3:");
    cli_free(&r);
    r = run_stex("run '%s' --variant hot", shader);
    CLI_EXPECT(r, 2, "not for a WGSL file");
    cli_free(&r);
    /* WGSL forbids U+0000: a NUL after a valid shader is an error at its
     * place, not the end of the module (the valid part before it ran) */
    char nul[512];
    path_in(nul, sizeof nul, "nul.wgsl");
    FILE *f = fopen(nul, "wb");
    assert_non_null(f);
    fwrite(GRADIENT, 1, sizeof GRADIENT - 1, f);
    fwrite("\0 not WGSL", 1, 11, f);
    fclose(f);
    r = run_stex("run '%s' --size 8x8 --out '%s'", nul, out);
    CLI_EXPECT(r, 1, "NUL byte");
    cli_free(&r);
}

/* Overrides without a default: stex reflect lists them (no default, the
 * workgroup size they decide unknown), stex run FILE.wgsl takes their values
 * with --constant (by name, or by @id), and refuses a missing, unknown or
 * unrepresentable one with WebGPU's rule; texels checked against the WGSL's
 * arithmetic (r32float: level * (x + 1), exact). */
static void test_constants(void **state)
{
    (void)state;
    static const char SHADER[] =
        "override side : u32;\n"
        "@id(5) override level : f32;\n"
        "override twice = level * 2.0;\n"
        "@group(0) @binding(0) var img : texture_storage_2d<r32float, write>;\n"
        "@compute @workgroup_size(side, side)\n"
        "fn main(@builtin(global_invocation_id) g : vec3<u32>) {\n"
        "  textureStore(img, g.xy, vec4f(twice * f32(g.x + 1u), 0.0, 0.0, 1.0));\n"
        "}\n";
    char shader[512], out[512];
    write_file("constants.wgsl", SHADER, shader, sizeof shader);
    cli_result r = run_stex("reflect --json '%s'", shader);
    CLI_EXPECT(r, 0, NULL);
    json_error_t err;
    json_t *j = json_loads(r.out, 0, &err);
    if (!j)
        fail_msg("not JSON (%s): %s", err.text, r.out);
    json_t *ep = json_array_get(json_object_get(j, "entry_points"), 0);
    assert_true(json_is_null(json_array_get(json_object_get(ep, "workgroup_size"), 0)));
    json_t *ovs = json_object_get(j, "overrides");
    assert_int_equal(json_array_size(ovs), 3);
    json_t *side = json_array_get(ovs, 0), *level = json_array_get(ovs, 1),
           *twice = json_array_get(ovs, 2);
    assert_string_equal(json_string_value(json_object_get(side, "type")), "u32");
    assert_true(json_is_null(json_object_get(side, "default")));
    assert_true(json_is_null(json_object_get(side, "id")));
    assert_int_equal(json_integer_value(json_object_get(level, "id")), 5);
    assert_true(json_is_null(json_object_get(level, "default")));
    assert_string_equal(json_string_value(json_object_get(twice, "default")),
                        "override-expression");
    json_decref(j);
    cli_free(&r);

    snprintf(out, sizeof out, "%s/constants.bin", cli_dir);
    /* level by its name (it has an @id: stex run gives the pipeline "5") */
    r = run_stex("run '%s' --size 6x4 --constant side=2 --constant level=0.75 --out '%s'", shader,
                 out);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    stex_image img;
    if (stex_read_bin(out, &img, NULL))
        fail_msg("%s", stex_last_error());
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 6; x++) {
            float v;
            memcpy(&v, stex_image_texel(&img, x, y, 0), 4);
            assert_true(v == 1.5f * (float)(x + 1));
        }
    stex_image_free(&img);
    r = run_stex("run '%s' --size 6x4 --constant side=3 --constant 5=1 --out '%s'", shader, out);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);

    r = run_stex("run '%s' --constant side=2", shader);
    CLI_EXPECT(r, 1, "override 'level' has no default value and the pipeline's constants give "
                     "none (key \"5\") [pipeline-constants]");
    cli_free(&r);
    r = run_stex("run '%s' --constant side=2 --constant level=1 --constant size=3", shader);
    CLI_EXPECT(r, 1, "constants[\"size\"]");
    cli_free(&r);
    r = run_stex("run '%s' --constant side=-2 --constant level=1", shader);
    CLI_EXPECT(r, 1, "-2 is not a value of u32");
    cli_free(&r);
    r = run_stex("run '%s' --constant side=2 --constant level=1e39", shader);
    CLI_EXPECT(r, 1, "1e+39 is not a finite f32");
    cli_free(&r);
    r = run_stex("run '%s' --constant side", shader);
    CLI_EXPECT(r, 2, "is not NAME=VALUE");
    cli_free(&r);
    r = run_stex("run decaer --constant side=2");
    CLI_EXPECT(r, 2, "only for a WGSL file");
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_reflect_json),
        cmocka_unit_test(test_reflect_sampled),
        cmocka_unit_test(test_reflect_errors),
        cmocka_unit_test(test_reflect_override),
        cmocka_unit_test(test_check_json_and_warnings),
        cmocka_unit_test(test_run_executor),
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_run_wgsl_file),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
