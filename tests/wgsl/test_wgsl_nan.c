/* f32 + - * / with NaN results through the interpreter's whole-sub-group
 * path (64 lanes on the host's operators), against the device.  Every
 * storage row of tests/data/wgslexpr-lavapipe.tsv.gz for those operators
 * whose operands or result are NaN (Dawn on lavapipe: the first NaN operand
 * quieted, a new NaN 0x7fc00000) runs as one lane of a dispatch under the
 * lavapipe profile and must give the device's bits.  The host alone would
 * not: x86 invents 0xffc00000, and a compiler may swap a commutative
 * operation's operands, which picks the other NaN.  Under the spec profile
 * each lane must equal the math layer's stex_math_eval. */
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
#include "wgsl_fixture.h"

enum { MAX_ROWS = 8192 };

static const char *const OPS[] = {"add", "sub", "mul", "div"};
static const char SHADER[] =
    "@group(0) @binding(0) var<storage, read> inp : array<vec2<u32>>;\n"
    "@group(0) @binding(1) var<storage, read_write> outp : array<u32>;\n"
    "@compute @workgroup_size(64) fn add(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  outp[g.x] = bitcast<u32>(bitcast<f32>(inp[g.x].x) + bitcast<f32>(inp[g.x].y)); }\n"
    "@compute @workgroup_size(64) fn sub(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  outp[g.x] = bitcast<u32>(bitcast<f32>(inp[g.x].x) - bitcast<f32>(inp[g.x].y)); }\n"
    "@compute @workgroup_size(64) fn mul(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  outp[g.x] = bitcast<u32>(bitcast<f32>(inp[g.x].x) * bitcast<f32>(inp[g.x].y)); }\n"
    "@compute @workgroup_size(64) fn div(@builtin(global_invocation_id) g : vec3<u32>) {\n"
    "  outp[g.x] = bitcast<u32>(bitcast<f32>(inp[g.x].x) / bitcast<f32>(inp[g.x].y)); }\n";

typedef struct rows {
    uint32_t n, in[MAX_ROWS][2], want[MAX_ROWS];
} rows;

static bool is_nan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }

/* The device's rows for op whose operands or result are NaN. */
static void read_rows(const char *op, rows *r)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/wgslexpr-lavapipe.tsv.gz", dir ? dir : "tests/data");
    gzFile f = gzopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    r->n = 0;
    while (gzgets(f, line, sizeof line) && r->n < MAX_ROWS) {
        char o[16], sig[32];
        unsigned a, b, w;
        if (line[0] == '#' || sscanf(line, "%15s %31s %x,%x %x", o, sig, &a, &b, &w) != 5 ||
            strcmp(o, op) || strcmp(sig, "f32,f32->f32"))
            continue;
        if (is_nan(a) || is_nan(b) || is_nan(w)) {
            r->in[r->n][0] = a, r->in[r->n][1] = b, r->want[r->n] = w;
            r->n++;
        }
    }
    gzclose(f);
}

/* Runs op's entry point over r's operands on a device of profile id, with
 * sub-groups of 64 lanes; out receives one word per row. */
static void run(stex_profile_id id, const char *op, const rows *r, uint32_t *out)
{
    stex_adapter *a;
    stex_device *dev = fixture_device(id, &a);
    stex_wgsl_module *m;
    assert_int_equal(stex_wgsl_module_create_for(stex_profile_get(id), SHADER, "nan.wgsl", &m),
                     STEX_OK);
    stex_wgsl_options o = {.subgroup_width = 64};
    stex_pipeline *p;
    assert_int_equal(stex_wgsl_pipeline_create(dev, m, op, &o, &p), STEX_OK);
    uint32_t groups = (r->n + 63) / 64;
    stex_buffer *bi, *bo;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = groups * 64 * 8,
                         .usage = STEX_BUFFER_USAGE_STORAGE}, &bi), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = groups * 64 * 4,
                         .usage = STEX_BUFFER_USAGE_STORAGE}, &bo), STEX_OK);
    memcpy(stex_buffer_data(bi), r->in, r->n * 8);
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = bi}, {.binding = 1, .buffer = bo}};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, 2, &g), STEX_OK);
    stex_dispatch_options d = {.threads = 1};
    assert_int_equal(stex_dispatch(p, g, groups, 1, 1, &d), STEX_OK);
    memcpy(out, stex_buffer_data(bo), r->n * 4);
    stex_bind_group_destroy(g);
    stex_buffer_destroy(bi);
    stex_buffer_destroy(bo);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

static void test_lavapipe_rows(void **state)
{
    (void)state;
    static rows r;
    static uint32_t got[MAX_ROWS];
    uint32_t total = 0, bad = 0;
    for (size_t k = 0; k < sizeof OPS / sizeof *OPS; k++) {
        read_rows(OPS[k], &r);
        run(STEX_PROFILE_LAVAPIPE, OPS[k], &r, got);
        for (uint32_t i = 0; i < r.n; i++)
            if (got[i] != r.want[i] && bad++ < 10)
                fprintf(stderr, "%s(%08x, %08x): device %08x, stex %08x\n", OPS[k], r.in[i][0],
                        r.in[i][1], r.want[i], got[i]);
        total += r.n;
    }
    printf("lavapipe: %u NaN rows of f32 + - * /, %u differ\n", total, bad);
    assert_true(total > 100);
    assert_int_equal(bad, 0);
}

static void test_spec_is_math_layer(void **state)
{
    (void)state;
    static rows r;
    static uint32_t got[MAX_ROWS];
    const stex_math_fn fns[] = {STEX_MATH_ADD_F32, STEX_MATH_SUB_F32, STEX_MATH_MUL_F32,
                                STEX_MATH_DIV_F32};
    uint32_t bad = 0;
    for (size_t k = 0; k < sizeof OPS / sizeof *OPS; k++) {
        read_rows(OPS[k], &r);
        run(STEX_PROFILE_SPEC, OPS[k], &r, got);
        for (uint32_t i = 0; i < r.n; i++) {
            uint32_t want;
            stex_math_eval(stex_profile_get(STEX_PROFILE_SPEC), fns[k], r.in[i], &want);
            if (got[i] != want && bad++ < 10)
                fprintf(stderr, "spec %s(%08x, %08x): math layer %08x, interpreter %08x\n",
                        OPS[k], r.in[i][0], r.in[i][1], want, got[i]);
        }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lavapipe_rows),
        cmocka_unit_test(test_spec_is_math_layer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
