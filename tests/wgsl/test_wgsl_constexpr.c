/* Const-expressions beyond single operations: the vector and matrix
 * builtins (dot, cross, length, distance, normalize, faceForward, reflect,
 * refract, determinant, quantizeToF16), AbstractInt / AbstractFloat
 * overloads, AbstractFloat matrices, and WGSL's const-evaluation errors.
 *
 * Expectations: a builtin's const value equals the same builtin at run time
 * on the spec profile bit for bit (WGSL evaluates a const-expression as the
 * runtime would), and both equal a C reference computed here with IEEE f32
 * operations in stex's documented order (sums left to right, no
 * contraction); AbstractFloat expressions equal C's double arithmetic
 * rounded to f32 once; every error names its rule at the right line and
 * column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

static stex_device *dev;

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Compiles and runs src (binding 0: out, array<u32>; binding 1: inp,
 * array<f32> holding in[0..nin)); out receives nout words. */
static void run(const char *src, const float *in, uint32_t nin, uint32_t *out, uint32_t nout)
{
    stex_wgsl_module *m = fixture_module(src, "t.wgsl");
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(dev, m, "main", NULL, &p))
        fail_msg("%s", stex_last_error());
    stex_buffer *bo, *bi;
    uint32_t st = STEX_BUFFER_USAGE_STORAGE;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = nout * 4, .usage = st},
                                        &bo), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = (nin ? nin : 1) * 4,
                                                                 .usage = st}, &bi), STEX_OK);
    memcpy(stex_buffer_data(bi), in, nin * 4);
    stex_bind_group_entry be[2] = {{.binding = 0, .buffer = bo}, {.binding = 1, .buffer = bi}};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, 2, &g), STEX_OK);
    stex_dispatch_options d = {.threads = 1};
    if (stex_dispatch(p, g, 1, 1, 1, &d))
        fail_msg("dispatch: %s", stex_last_error());
    memcpy(out, stex_buffer_data(bo), nout * 4);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(bo);
    stex_buffer_destroy(bi);
    stex_wgsl_module_destroy(m);
}

/* ---- the C reference: f32 operations one by one ---- */
static float mul(float a, float b) { volatile float r = a * b; return r; }
static float add(float a, float b) { volatile float r = a + b; return r; }
static float sub(float a, float b) { volatile float r = a - b; return r; }
static float dvd(float a, float b) { volatile float r = a / b; return r; }

static float dot3(const float *a, const float *b)
{
    return add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
}

/* The expected words, in the order the shader below writes them. */
static uint32_t reference(const float *a, const float *b, float s, uint32_t *w)
{
    uint32_t n = 0;
    w[n++] = bits(dot3(a, b));
    w[n++] = bits(sub(mul(a[1], b[2]), mul(a[2], b[1])));
    w[n++] = bits(sub(mul(a[2], b[0]), mul(a[0], b[2])));
    w[n++] = bits(sub(mul(a[0], b[1]), mul(a[1], b[0])));
    float len = sqrtf(dot3(a, a));
    w[n++] = bits(len);
    float d[3] = {sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2])};
    w[n++] = bits(sqrtf(dot3(d, d)));
    for (int k = 0; k < 3; k++)
        w[n++] = bits(dvd(a[k], len));
    float t = mul(2.0f, dot3(b, a)); /* reflect(a, b) = a - 2 dot(b, a) b */
    for (int k = 0; k < 3; k++)
        w[n++] = bits(sub(a[k], mul(t, b[k])));
    float dd = dot3(b, a); /* refract(a, b, s) */
    float kk = sub(1.0f, mul(mul(s, s), sub(1.0f, mul(dd, dd))));
    for (int k = 0; k < 3; k++)
        w[n++] = kk < 0 ? 0u : bits(sub(mul(s, a[k]), mul(add(mul(s, dd), sqrtf(kk)), b[k])));
    float fd = dot3(b, a); /* faceForward(a, b, a): dot(b, a) < 0 ? a : -a */
    for (int k = 0; k < 3; k++)
        w[n++] = bits(fd < 0 ? a[k] : -a[k]);
    /* determinant(mat3x3f(a, b, (s, 1, 2))): cofactors along column 0 */
    float m[3][3] = {{a[0], a[1], a[2]}, {b[0], b[1], b[2]}, {s, 1.0f, 2.0f}};
    float c0 = sub(mul(m[1][1], m[2][2]), mul(m[1][2], m[2][1]));
    float c1 = sub(mul(m[1][0], m[2][2]), mul(m[1][2], m[2][0]));
    float c2 = sub(mul(m[1][0], m[2][1]), mul(m[1][1], m[2][0]));
    w[n++] = bits(add(sub(mul(m[0][0], c0), mul(m[0][1], c1)), mul(m[0][2], c2)));
    w[n++] = bits(fabsf(s)); /* length of a scalar */
    return n;
}

/* The builtins over (A, B, S), writing out[base + ...] in reference()'s order. */
static size_t body(char *o, size_t size, const char *A, const char *B, const char *S,
                   unsigned base, const char *qual)
{
    return (size_t)snprintf(o, size,
        "  %s d%u = dot(%s, %s);\n"
        "  %s c%u = cross(%s, %s);\n"
        "  %s l%u = length(%s);\n"
        "  %s e%u = distance(%s, %s);\n"
        "  %s n%u = normalize(%s);\n"
        "  %s r%u = reflect(%s, %s);\n"
        "  %s f%u = refract(%s, %s, %s);\n"
        "  %s g%u = faceForward(%s, %s, %s);\n"
        "  %s m%u = determinant(mat3x3f(%s, %s, vec3f(%s, 1.0, 2.0)));\n"
        "  %s s%u = length(%s);\n"
        "  out[%uu] = bitcast<u32>(d%u);\n"
        "  for (var k = 0u; k < 3u; k++) { out[%uu + k] = bitcast<u32>(c%u[k]); }\n"
        "  out[%uu] = bitcast<u32>(l%u); out[%uu] = bitcast<u32>(e%u);\n"
        "  for (var k = 0u; k < 3u; k++) {\n"
        "    out[%uu + k] = bitcast<u32>(n%u[k]); out[%uu + k] = bitcast<u32>(r%u[k]);\n"
        "    out[%uu + k] = bitcast<u32>(f%u[k]); out[%uu + k] = bitcast<u32>(g%u[k]);\n"
        "  }\n"
        "  out[%uu] = bitcast<u32>(m%u); out[%uu] = bitcast<u32>(s%u);\n",
        qual, base, A, B, qual, base, A, B, qual, base, A, qual, base, A, B, qual, base, A,
        qual, base, A, B, qual, base, A, B, S, qual, base, A, B, A, qual, base, A, B, S,
        qual, base, S,
        base, base, base + 1, base, base + 4, base, base + 5, base, base + 6, base, base + 9,
        base, base + 12, base, base + 15, base, base + 18, base, base + 19, base);
}

static void check_vector_builtins(const float *a, const float *b, float s)
{
    char src[8192];
    size_t n = (size_t)snprintf(src, sizeof src,
        "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
        "@group(0) @binding(1) var<storage, read> inp : array<f32>;\n"
        "@compute @workgroup_size(1)\nfn main() {\n"
        "  let a = vec3f(inp[0], inp[1], inp[2]);\n"
        "  let b = vec3f(inp[3], inp[4], inp[5]);\n"
        "  let s = inp[6];\n"
        "  const ca = vec3f(%af, %af, %af);\n"
        "  const cb = vec3f(%af, %af, %af);\n"
        "  const cs = %af;\n", (double)a[0], (double)a[1], (double)a[2], (double)b[0],
        (double)b[1], (double)b[2], (double)s);
    n += body(src + n, sizeof src - n, "a", "b", "s", 0, "let");
    n += body(src + n, sizeof src - n, "ca", "cb", "cs", 20, "const");
    snprintf(src + n, sizeof src - n, "}\n");
    float in[7] = {a[0], a[1], a[2], b[0], b[1], b[2], s};
    uint32_t got[40], want[20];
    run(src, in, 7, got, 40);
    uint32_t nw = reference(a, b, s, want);
    assert_int_equal(nw, 20);
    static const char *const what[20] = {"dot", "cross.x", "cross.y", "cross.z", "length",
        "distance", "normalize.x", "normalize.y", "normalize.z", "reflect.x", "reflect.y",
        "reflect.z", "refract.x", "refract.y", "refract.z", "faceForward.x", "faceForward.y",
        "faceForward.z", "determinant", "length(scalar)"};
    for (uint32_t k = 0; k < 20; k++) {
        if (got[k] != want[k])
            fail_msg("%s at run time: %08x, the C reference %08x", what[k], got[k], want[k]);
        if (got[20 + k] != want[k])
            fail_msg("%s as a const-expression: %08x, the C reference %08x", what[k],
                     got[20 + k], want[k]);
    }
}

static void test_vector_builtins(void **state)
{
    (void)state;
    static const float cases[][7] = {
        {0.1f, -2.5f, 3.0f, 1.0f / 3.0f, 0.7f, -0.2f, 0.9f},
        {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 1.5f},     /* refract: k < 0, the zero vector */
        {-7.25f, 0.001f, 1e10f, 3e-5f, -4.0f, 0.5f, 0.25f},
        {0.6f, 0.8f, 0.0f, -0.8f, 0.6f, 0.0f, 1.0f},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_vector_builtins(cases[i], cases[i] + 3, cases[i][6]);
}

/* AbstractFloat matrices and abstract overloads: evaluated in double (C's
 * double here), rounded to f32 once where the value is used. */
static void test_abstract(void **state)
{
    (void)state;
    static const char SRC[] =
        "@group(0) @binding(0) var<storage, read_write> out : array<u32>;\n"
        "@group(0) @binding(1) var<storage, read> inp : array<f32>;\n"
        "@compute @workgroup_size(1)\nfn main() {\n"
        "  const m = mat2x2(0.1, 0.2, 0.3, 0.4);\n"           /* AbstractFloat */
        "  const p = m * 3.0;\n"
        "  out[0] = bitcast<u32>(f32(p[0][0]));\n"
        "  const q = transpose(m) * mat2x2(vec2(1, 2), vec2(3.5, 4));\n"
        "  out[1] = bitcast<u32>(f32(q[1][0]));\n"
        "  out[2] = bitcast<u32>(f32(determinant(m)));\n"
        "  var v = m;\n"                                        /* materialised: mat2x2<f32> */
        "  for (var i = 0u; i < 2u; i++) { out[3u + i] = bitcast<u32>(v[i][1]); }\n"
        "  out[5] = bitcast<u32>(f32(sqrt(2.0)));\n"
        "  out[6] = u32(abs(-5000000000) / 1000000000);\n"     /* AbstractInt: no i32 overflow */
        "  out[7] = bitcast<u32>(f32((m - m * 2.0)[1].x));\n"
        "  let w = vec2f(inp[0], inp[1]);\n"
        "  out[8] = bitcast<u32>((m * w).y);\n"                /* with a run-time vector: f32 */
        "  out[9] = bitcast<u32>(f32(dot(vec2(3, 4), vec2(5, 6))));\n"
        "  const z = mat3x2<f32>();\n"
        "  out[10] = bitcast<u32>(z[2][1]);\n"
        "  const fx = frexp(12.0);\n"
        "  out[11] = bitcast<u32>(f32(fx.fract)); out[12] = u32(fx.exp);\n"
        "  let lf = frexp(12.0);\n"                           /* materialised: f32, i32 */
        "  out[13] = bitcast<u32>(lf.fract); out[14] = u32(lf.exp);\n"
        "  let lm = modf(vec2(2.5, -1.25));\n"
        "  out[15] = bitcast<u32>(lm.fract.y); out[16] = bitcast<u32>(lm.whole.x);\n"
        "}\n";
    float in[2] = {1.5f, -0.25f};
    uint32_t got[17];
    run(SRC, in, 2, got, 17);
    assert_int_equal(got[0], bits((float)(0.1 * 3.0)));
    /* transpose(m) = ((0.1, 0.3), (0.2, 0.4)); column 1 of the product is
     * transpose(m) * (3.5, 4): row 0 = 0.1 * 3.5 + 0.2 * 4 */
    assert_int_equal(got[1], bits((float)(0.1 * 3.5 + 0.2 * 4.0)));
    assert_int_equal(got[2], bits((float)(0.1 * 0.4 - 0.3 * 0.2)));
    assert_int_equal(got[3], bits(0.2f));
    assert_int_equal(got[4], bits(0.4f));
    assert_int_equal(got[5], bits((float)sqrt(2.0)));
    assert_int_equal(got[6], 5u);
    assert_int_equal(got[7], bits((float)(0.3 - 0.3 * 2.0)));
    /* (m * w).y in f32: m[0][1] * w.x + m[1][1] * w.y */
    assert_int_equal(got[8], bits(add(mul(0.2f, 1.5f), mul(0.4f, -0.25f))));
    assert_int_equal(got[9], bits(39.0f));
    assert_int_equal(got[10], 0u);
    assert_int_equal(got[11], bits(0.75f));
    assert_int_equal(got[12], 4u);
    assert_int_equal(got[13], bits(0.75f)); /* 12 = 0.75 * 2^4 */
    assert_int_equal(got[14], 4u);
    assert_int_equal(got[15], bits(-0.25f)); /* -1.25 = -1 + -0.25 */
    assert_int_equal(got[16], bits(2.0f));
}

/* Const-evaluation errors: each a compile error naming its rule where the
 * WGSL spec makes it one. */
static void test_errors(void **state)
{
    (void)state;
    static const struct { const char *decl; unsigned col; const char *rule; } C[] = {
        {"const x = sqrt(-1.0f);", 13, "const-eval"},          /* domain */
        {"const x = sqrt(-1.0);", 13, "const-eval"},           /* AbstractFloat too */
        {"const x = log(0.0f);", 13, "const-eval"},
        {"const x = acos(2.0f);", 13, "const-eval"},
        {"const x = exp(100.0f);", 13, "const-eval"},          /* not finite in f32 */
        {"const x = ldexp(1.0f, 128);", 13, "const-eval"},
        {"const x = extractBits(1u, 20u, 13u);", 13, "const-eval"}, /* offset + count > 32 */
        {"const x = insertBits(1i, 2i, 30u, 3u);", 13, "const-eval"},
        /* abs of the most negative AbstractInt is no error: WGSL gives the value
         * itself (tests/data/difftest/regress/abstract-int-edges.wgsl) */
        {"const x = clamp(1, 3, 2);", 13, "const-eval"},       /* low > high */
        {"const x = normalize(vec2f(0.0, 0.0));", 13, "const-eval"},
        {"const x = quantizeToF16(70000.0f);", 13, "const-eval"}, /* past f16's range */
        {"const x = pack2x16float(vec2f(1e6f, 0.0f));", 13, "const-eval"},
        {"const x = bitcast<f32>(0x7f800000u);", 13, "bitcast-builtin"},
        {"const x = u32(-1);", 13, "conversion-rank"},
        {"const x = 9223372036854775807 + 1;", 33, "arithmetic"}, /* i32 would wrap */
        {"const x = cross(vec2f(1.0), vec2f(2.0));", 13, "builtin-functions"},
        {"const x = determinant(mat2x3f());", 13, "builtin-functions"},
        {"const x = countOneBits(1.0);", 13, "builtin-functions"},
        {"const x = mat2x2(1.0, 2.0, 3.0, 4.0)[2][0];", 40, "array-access-expr"},
        {"const x = mat2x2(1.0, 2.0, 3.0, 4.0)[1][2];", 43, "array-access-expr"},
    };
    for (size_t i = 0; i < sizeof C / sizeof C[0]; i++) {
        char src[512], where[64];
        snprintf(src, sizeof src, "@compute @workgroup_size(1)\nfn main() {\n  %s\n"
                 "  _ = x;\n}\n", C[i].decl);
        stex_wgsl_module *m;
        stex_status st = stex_wgsl_module_create(src, "e.wgsl", &m);
        const char *diag = stex_wgsl_module_diagnostics(m);
        char rule[80];
        snprintf(where, sizeof where, "e.wgsl:3:%u: error:", C[i].col);
        snprintf(rule, sizeof rule, "[%s]\n", C[i].rule);
        if (st != STEX_VALIDATION_ERROR || !strstr(diag, where) || !strstr(diag, rule))
            fail_msg("%s: expected %s ... %s, got:\n%s", C[i].decl, where, C[i].rule, diag);
        stex_wgsl_module_destroy(m);
    }
}

static int setup(void **state)
{
    (void)state;
    stex_adapter *a;
    dev = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_adapter_destroy(a);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    stex_device_destroy(dev);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_builtins),
        cmocka_unit_test(test_abstract),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
