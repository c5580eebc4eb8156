/* f16 in the WGSL front end and interpreter (`enable f16;`, shader-f16):
 *  - the errors WGSL requires, each with its line:col and rule;
 *  - a device without shader-f16 refuses the module;
 *  - the interpreter against lavapipe's measurement (tests/data/
 *    f16expr-lavapipe.tsv.gz, tools/f16expr.mjs): every group's expression
 *    run as the measuring shader wrote it, on spread rows of the group, under
 *    profile lavapipe, must give the device's bits;
 *  - spec: results fixed by IEEE binary16 (worked by hand below). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

/* ---- diagnostics ---- */

static void expect_error(const char *src, const char *where_rule)
{
    stex_wgsl_module *m = NULL;
    stex_status st = stex_wgsl_module_create(src, "f16.wgsl", &m);
    const char *d = m ? stex_wgsl_module_diagnostics(m) : "";
    if (st == STEX_OK || !strstr(d, where_rule))
        fail_msg("expected '%s' in the diagnostics of:\n%s\ngot: %s", where_rule, src, d);
    stex_wgsl_module_destroy(m);
}

static void test_errors(void **state)
{
    (void)state;
    /* an f16 type, literal or vecNh alias without `enable f16;` (WGSL 4.1.1) */
    expect_error("@compute @workgroup_size(1) fn main() {\n  var x : f16;\n}\n",
                 "f16.wgsl:2:11: error: f16 needs the f16 extension: write 'enable f16;' at the "
                 "top of the module [enable-extension]");
    expect_error("@compute @workgroup_size(1) fn main() {\n  let x = 1.5h;\n}\n",
                 "f16.wgsl:2:11: error: an f16 literal ('h' suffix) needs the f16 extension");
    expect_error("@compute @workgroup_size(1) fn main() {\n  var v : vec3h;\n}\n",
                 "f16.wgsl:2:11: error: vec3h needs the f16 extension");
    /* 65520 rounds past the largest finite f16, 65504 (WGSL 15.7.6: an error) */
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n  let x = 65520.0h;\n}\n",
                 "f16.wgsl:3:11: error: the literal overflows f16 (largest finite: 65504) "
                 "[literal]");
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n"
                 "  let x : f16 = 1e5;\n}\n", "[conversion-rank]");
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n"
                 "  let x = f16(1e5f);\n}\n", "f16.wgsl:3:11: error: the value is out of range "
                 "of f16 (largest finite: 65504) [conversion-rank]");
    /* bitcast needs the same size: vec3<f16> is 6 bytes */
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n"
                 "  let x = bitcast<u32>(vec3<f16>());\n}\n", "[bitcast-builtin]");
    /* a const-expression bitcast to an f16 infinity */
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n"
                 "  let x = bitcast<vec2<f16>>(0x7c00u);\n}\n", "not a finite f16 "
                 "[bitcast-builtin]");
    /* f16 arithmetic on constants that overflows */
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n"
                 "  const x = 60000.0h + 60000.0h;\n}\n", "cannot be represented as 'f16' [arithmetic]");
    expect_error("enable f16;\n@compute @workgroup_size(1) fn main() {\n"
                 "  let x = 1.0h + 1.0f;\n}\n", "[type-mismatch]");
    /* f16 in buffer and workgroup memory: test_wgsl_f16_memory.c */
}

/* f16 in registers: arrays, structs and vectors of f16 in function and
 * private variables, indexed at run time */
static void test_registers(void **state);

/* ---- running shaders ---- */

typedef struct gpu {
    stex_adapter *a;
    stex_device *d;
} gpu;

static gpu open_gpu(stex_profile_id profile, uint32_t features)
{
    gpu g;
    g.d = fixture_device_desc(profile, &(stex_device_desc){.required_features = features}, &g.a);
    return g;
}

static void close_gpu(gpu g)
{
    stex_device_destroy(g.d);
    stex_adapter_destroy(g.a);
}

static void test_needs_feature(void **state)
{
    (void)state;
    const char *src = "enable f16;\n@group(0) @binding(0) var<storage, read_write> o : "
                      "array<u32>;\n@compute @workgroup_size(1) fn main() {\n"
                      "  o[0] = u32(2.5h);\n}\n";
    stex_wgsl_module *m;
    assert_int_equal(stex_wgsl_module_create(src, "f16.wgsl", &m), STEX_OK);
    gpu g = open_gpu(STEX_PROFILE_SPEC, 0);
    stex_pipeline *p = NULL;
    assert_int_equal(stex_wgsl_pipeline_create(g.d, m, "main", NULL, &p), STEX_VALIDATION_ERROR);
    assert_null(p);
    assert_non_null(strstr(stex_last_error(), "f16.wgsl:1:1: error: 'enable f16;' needs the "
                                              "device feature 'shader-f16'"));
    close_gpu(g);
    g = open_gpu(STEX_PROFILE_SPEC, STEX_FEATURE_SHADER_F16);
    assert_int_equal(stex_wgsl_pipeline_create(g.d, m, "main", NULL, &p), STEX_OK);
    stex_pipeline_destroy(p);
    close_gpu(g);
    stex_wgsl_module_destroy(m);
}

/* Runs src (binding 0: inputs, binding 1: outputs, both array<u32>) over n
 * invocations; out receives nout words. */
static void run(gpu g, const char *src, const uint32_t *in, uint32_t nin, uint32_t *out,
                uint32_t nout, uint32_t n)
{
    stex_wgsl_module *m;
    if (stex_wgsl_module_create(src, "f16.wgsl", &m))
        fail_msg("%s\n%s", src, stex_wgsl_module_diagnostics(m));
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(g.d, m, "main", NULL, &p))
        fail_msg("%s\n%s", src, stex_last_error());
    uint32_t usage = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST;
    stex_buffer *bi, *bo;
    assert_int_equal(stex_buffer_create(g.d, &(stex_buffer_desc){.size = nin * 4, .usage = usage},
                                        &bi), STEX_OK);
    assert_int_equal(stex_buffer_create(g.d, &(stex_buffer_desc){.size = nout * 4,
                                                                 .usage = usage}, &bo), STEX_OK);
    memcpy(stex_buffer_data(bi), in, nin * 4);
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = bi}, {.binding = 1, .buffer = bo}};
    stex_bind_group *bg;
    assert_int_equal(stex_bind_group_create(p, be, 2, &bg), STEX_OK);
    stex_dispatch_options d = {.threads = 1};
    assert_int_equal(stex_dispatch(p, bg, (n + 63) / 64, 1, 1, &d), STEX_OK);
    memcpy(out, stex_buffer_data(bo), nout * 4);
    stex_bind_group_destroy(bg);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(bi);
    stex_buffer_destroy(bo);
    stex_wgsl_module_destroy(m);
}

/* The measured groups replayed through the interpreter: the expression as
 * tools/f16expr.mjs wrote it, one argument and result type per column. */
typedef struct group {
    const char *op, *sig, *expr; /* expr over a0, a1, a2 */
    const char *args[3], *res;
} group;

static const group GROUPS[] = {
    {"add", "f16,f16->f16", "a0 + a1", {"f16", "f16"}, "f16"},
    {"sub", "f16,f16->f16", "a0 - a1", {"f16", "f16"}, "f16"},
    {"mul", "f16,f16->f16", "a0 * a1", {"f16", "f16"}, "f16"},
    {"div", "f16,f16->f16", "a0 / a1", {"f16", "f16"}, "f16"},
    {"rem", "f16,f16->f16", "a0 % a1", {"f16", "f16"}, "f16"},
    {"neg", "f16->f16", "-(a0)", {"f16"}, "f16"},
    {"lt", "f16,f16->bool", "a0 < a1", {"f16", "f16"}, "bool"},
    {"eq", "f16,f16->bool", "a0 == a1", {"f16", "f16"}, "bool"},
    {"mul_add", "f16,f16,f16->f16", "a0 * a1 + a2", {"f16", "f16", "f16"}, "f16"},
    {"add_mul", "f16,f16,f16->f16", "a2 + a0 * a1", {"f16", "f16", "f16"}, "f16"},
    {"fma", "f16,f16,f16->f16", "fma(a0, a1, a2)", {"f16", "f16", "f16"}, "f16"},
    {"sin", "f16->f16", "sin(a0)", {"f16"}, "f16"},
    {"log", "f16->f16", "log(a0)", {"f16"}, "f16"},
    {"sqrt", "f16->f16", "sqrt(a0)", {"f16"}, "f16"},
    {"inverseSqrt", "f16->f16", "inverseSqrt(a0)", {"f16"}, "f16"},
    {"floor", "f16->f16", "floor(a0)", {"f16"}, "f16"},
    {"fract", "f16->f16", "fract(a0)", {"f16"}, "f16"},
    {"abs", "f16->f16", "abs(a0)", {"f16"}, "f16"},
    {"sign", "f16->f16", "sign(a0)", {"f16"}, "f16"},
    {"saturate", "f16->f16", "saturate(a0)", {"f16"}, "f16"},
    {"degrees", "f16->f16", "degrees(a0)", {"f16"}, "f16"},
    {"min", "f16,f16->f16", "min(a0, a1)", {"f16", "f16"}, "f16"},
    {"max", "f16,f16->f16", "max(a0, a1)", {"f16", "f16"}, "f16"},
    {"step", "f16,f16->f16", "step(a0, a1)", {"f16", "f16"}, "f16"},
    {"ldexp", "f16,i32->f16", "ldexp(a0, a1)", {"f16", "i32"}, "f16"},
    {"clamp", "f16,f16,f16->f16", "clamp(a0, a1, a2)", {"f16", "f16", "f16"}, "f16"},
    {"smoothstep", "f16,f16,f16->f16", "smoothstep(a0, a1, a2)", {"f16", "f16", "f16"}, "f16"},
    {"mix", "f16,f16,f16->f16", "mix(a0, a1, a2)", {"f16", "f16", "f16"}, "f16"},
    {"convert", "f16->i32", "i32(a0)", {"f16"}, "i32"},
    {"convert", "f16->u32", "u32(a0)", {"f16"}, "u32"},
    {"convert", "f16->f32", "f32(a0)", {"f16"}, "f32"},
    {"convert", "f16->bool", "bool(a0)", {"f16"}, "bool"},
    {"convert", "f32->f16", "f16(a0)", {"f32"}, "f16"},
    {"convert", "i32->f16", "f16(a0)", {"i32"}, "f16"},
    {"convert", "u32->f16", "f16(a0)", {"u32"}, "f16"},
    {"convert", "bool->f16", "f16(a0)", {"bool"}, "f16"},
    {"bitcast", "vec2<f16>->u32", "bitcast<u32>(a0)", {"vec2<f16>"}, "u32"},
};

static const char *load(const char *t, uint32_t k, char *buf, size_t size)
{
    if (!strcmp(t, "f16"))
        snprintf(buf, size, "bitcast<vec2<f16>>(inp[b + %uu]).x", k);
    else if (!strcmp(t, "vec2<f16>"))
        snprintf(buf, size, "vec2<f16>(bitcast<vec2<f16>>(inp[b + %uu]).x, "
                 "bitcast<vec2<f16>>(inp[b + %uu]).x)", k, k + 1);
    else if (!strcmp(t, "bool"))
        snprintf(buf, size, "(inp[b + %uu] != 0u)", k);
    else if (!strcmp(t, "u32"))
        snprintf(buf, size, "inp[b + %uu]", k);
    else
        snprintf(buf, size, "bitcast<%s>(inp[b + %uu])", t, k);
    return buf;
}

static const char *store(const char *t)
{
    return !strcmp(t, "f16") ? "bitcast<u32>(vec2<f16>(r, 0.0h))"
         : !strcmp(t, "bool") ? "select(0u, 1u, r)" : !strcmp(t, "u32") ? "r" : "bitcast<u32>(r)";
}

enum { PER_GROUP = 512, MAX_ROWS = 300000 };

typedef struct row {
    uint32_t in[4], out;
} row;

static void test_lavapipe_measured(void **state)
{
    (void)state;
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/f16expr-lavapipe.tsv.gz", dir ? dir : "tests/data");
    gzFile f = gzopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    row *rows = malloc(MAX_ROWS * sizeof *rows);
    uint32_t *counts = calloc(sizeof GROUPS / sizeof GROUPS[0], sizeof *counts);
    row **first = calloc(sizeof GROUPS / sizeof GROUPS[0], sizeof *first);
    assert_non_null(rows);
    /* every group's rows are contiguous in the file; its first 64 rows and
     * every 8th after them are kept */
    char line[512];
    uint32_t nrows = 0, in_group = 0;
    int cur = -1;
    while (gzgets(f, line, sizeof line)) {
        if (line[0] == '#')
            continue;
        char op[32], sig[48], src[16], ins[128], outs[64];
        if (sscanf(line, "%31s\t%47s\t%15s\t%127s\t%63s", op, sig, src, ins, outs) != 5)
            continue;
        int gi = -1;
        for (size_t k = 0; k < sizeof GROUPS / sizeof GROUPS[0]; k++)
            if (!strcmp(GROUPS[k].op, op) && !strcmp(GROUPS[k].sig, sig))
                gi = (int)k;
        if (gi < 0 || nrows >= MAX_ROWS)
            continue;
        if (gi != cur)
            first[gi] = &rows[nrows], cur = gi, in_group = 0;
        if (in_group++ >= 64 && in_group % 8)
            continue;
        row *r = &rows[nrows++];
        memset(r, 0, sizeof *r);
        char *s = ins;
        for (int k = 0; k < 4 && *s; k++) {
            r->in[k] = (uint32_t)strtoul(s, &s, 16);
            if (*s == ',')
                s++;
        }
        r->out = (uint32_t)strtoul(outs, NULL, 16);
        counts[gi]++;
    }
    gzclose(f);
    gpu g = open_gpu(STEX_PROFILE_LAVAPIPE, STEX_FEATURE_SHADER_F16);
    unsigned checked = 0, bad = 0;
    for (size_t k = 0; k < sizeof GROUPS / sizeof GROUPS[0]; k++) {
        const group *gr = &GROUPS[k];
        if (!counts[k])
            fail_msg("%s %s: no rows in %s", gr->op, gr->sig, path);
        uint32_t nargs = 0, words = 0;
        char text[2048], lets[1024] = "", buf[160];
        for (; nargs < 3 && gr->args[nargs]; nargs++) {
            char one[256];
            snprintf(one, sizeof one, "  let a%u : %s = %s;\n", nargs, gr->args[nargs],
                     load(gr->args[nargs], words, buf, sizeof buf));
            strcat(lets, one);
            words += !strcmp(gr->args[nargs], "vec2<f16>") ? 2 : 1;
        }
        snprintf(text, sizeof text,
                 "enable f16;\n@group(0) @binding(0) var<storage, read> inp : array<u32>;\n"
                 "@group(0) @binding(1) var<storage, read_write> outp : array<u32>;\n"
                 "@compute @workgroup_size(64)\n"
                 "fn main(@builtin(global_invocation_id) gid : vec3<u32>) {\n"
                 "  let i = gid.x;\n  if (i >= %uu) { return; }\n  let b = i * %uu;\n"
                 "%s  let r : %s = %s;\n  outp[i] = %s;\n}\n",
                 PER_GROUP, words, lets, gr->res, gr->expr, store(gr->res));
        /* rows spread over the group */
        uint32_t n = counts[k] < PER_GROUP ? counts[k] : PER_GROUP;
        uint32_t in[PER_GROUP * 4] = {0}, out[PER_GROUP], want[PER_GROUP];
        for (uint32_t j = 0; j < PER_GROUP; j++) {
            const row *r = &first[k][(uint64_t)(j % n) * counts[k] / n];
            memcpy(&in[j * words], r->in, words * 4);
            want[j] = r->out;
        }
        run(g, text, in, PER_GROUP * words, out, PER_GROUP, PER_GROUP);
        for (uint32_t j = 0; j < n; j++, checked++)
            if (out[j] != want[j] && bad++ < 10)
                fprintf(stderr, "%s %s (%x,%x,%x): lavapipe %x, stex %x\n", gr->op, gr->sig,
                        in[j * words], words > 1 ? in[j * words + 1] : 0,
                        words > 2 ? in[j * words + 2] : 0, want[j], out[j]);
    }
    close_gpu(g);
    free(rows);
    free(counts);
    free(first);
    printf("%u measured rows replayed through the interpreter\n", checked);
    assert_true(checked > 10000);
    assert_int_equal(bad, 0);
}

static void test_registers(void **state)
{
    (void)state;
    const char *src =
        "enable f16;\n@group(0) @binding(0) var<storage, read> inp : array<u32>;\n"
        "@group(0) @binding(1) var<storage, read_write> outp : array<u32>;\n"
        "struct P { x : f16, n : u32, v : vec3<f16> }\n"
        "var<private> table : array<f16, 4> = array<f16, 4>(0.5h, 1.5h, 2.5h, 3.5h);\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  let k = inp[0];\n"                               /* 2, at run time */
        "  var a : array<vec2h, 3>;\n"
        "  for (var i = 0u; i < 3u; i++) { a[i] = vec2h(f16(i), -f16(i)); }\n"
        "  a[k].y = table[k] * 2.0h;\n"                      /* 5.0 */
        "  var p = P(table[k - 1u], 7u, vec3h(a[k], a[1].x));\n"
        "  p.v[k] += 0.25h;\n"                               /* 1.25 */
        "  outp[0] = bitcast<u32>(a[k]);\n"
        "  outp[1] = bitcast<u32>(vec2h(p.x, p.v.z));\n"
        "  outp[2] = p.n + u32(p.v.y);\n"
        "}\n";
    gpu g = open_gpu(STEX_PROFILE_SPEC, STEX_FEATURE_SHADER_F16);
    uint32_t in[1] = {2}, out[3];
    run(g, src, in, 1, out, 3, 1);
    close_gpu(g);
    assert_int_equal(out[0], 0x45004000u); /* (2.0 = 0x4000, 5.0 = 0x4500) */
    assert_int_equal(out[1], 0x3d003e00u); /* (1.5 = 0x3e00, 1.25 = 0x3d00) */
    assert_int_equal(out[2], 12u);         /* 7 + 5 */
}

/* spec: binary16 results worked by hand */
static void test_spec_values(void **state)
{
    (void)state;
    const char *src =
        "enable f16;\n@group(0) @binding(0) var<storage, read> inp : array<u32>;\n"
        "@group(0) @binding(1) var<storage, read_write> outp : array<u32>;\n"
        "@compute @workgroup_size(1) fn main() {\n"
        "  let one = bitcast<vec2<f16>>(inp[0]).x;\n"         /* 1.0h, at run time */
        "  outp[0] = bitcast<u32>(vec2<f16>(one / 3.0h, 0.0h));\n"
        "  outp[1] = bitcast<u32>(vec2h(one + 0.0004883h, 2048.0h + one));\n"
        "  outp[2] = bitcast<u32>(vec2<f16>(0.000061035h * 0.5h * one, -one));\n"
        "  var v = vec4h(1.5h, -2.0h, 65504.0h, 0.1h);\n"
        "  outp[3] = bitcast<vec2<u32>>(v).x;\n"
        "  outp[4] = bitcast<vec2<u32>>(v).y;\n"
        "  outp[5] = u32(f32(0.1h) * 1e8f);\n"
        "  outp[6] = bitcast<u32>(i32(-65504.0h * one));\n"
        "  outp[7] = select(0u, 1u, one > 0.99h && one <= 1.0h && one != 1.5h && one >= one);\n"
        "  let w = bitcast<vec2<f16>>(0x3c003800u);\n"
        "  outp[8] = bitcast<u32>(vec2<f16>(w.y, w.x));\n"
        "  outp[9] = bitcast<u32>(vec2<f16>(f16(2049u), f16(1.00048828125f)));\n"
        "}\n";
    gpu g = open_gpu(STEX_PROFILE_SPEC, STEX_FEATURE_SHADER_F16);
    uint32_t in[1] = {0x3c00u}, out[10];
    run(g, src, in, 1, out, 10, 1);
    close_gpu(g);
    /* 1/3 = 0x1.5555...p-2: significand 1.0101010101|01.. rounds down: 0x3555 */
    assert_int_equal(out[0], 0x3555u);
    /* 1 + 2^-11 is a tie: even is 1.0 (0x3c00); 2048 + 1 is a tie: even is 2048 (0x6800) */
    assert_int_equal(out[1], 0x68003c00u);
    /* 2^-14 * 0.5 = 2^-15, a subnormal kept: 0x0200; -1 = 0xbc00 */
    assert_int_equal(out[2], 0xbc000200u);
    /* vec4h packs two per word, x low: 1.5 = 0x3e00, -2 = 0xc000; 65504 = 0x7bff,
     * 0.1 = 0x2e66 (0.0999755859375) */
    assert_int_equal(out[3], 0xc0003e00u);
    assert_int_equal(out[4], 0x2e667bffu);
    /* f32(0.1h) is exactly 0.0999755859375; times 1e8 = 9997558.59375, which
     * f32 (ulp 1 there) rounds to 9997559 */
    assert_int_equal(out[5], 9997559u);
    assert_int_equal(out[6], (uint32_t)-65504);
    assert_int_equal(out[7], 1u);
    assert_int_equal(out[8], 0x38003c00u);
    /* 2049 is a tie between 2048 and 2050: even 2048 = 0x6800; 1 + 2^-11 ties to 1.0 */
    assert_int_equal(out[9], 0x3c006800u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_needs_feature),
        cmocka_unit_test(test_spec_values),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_lavapipe_measured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
