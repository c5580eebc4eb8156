/* WGSL matrices (matCxR<f32>): constructors from scalars and from columns,
 * m[i] and m[i][j] (constant and dynamic, on let, var and buffers), m * v,
 * v * m, m * m, m + m, m - m, s * m, m * s, transpose; matrices read from
 * uniform and storage buffers and written to storage with WGSL's layout
 * (column stride = the column vector's alignment: vec3 columns 16 bytes).
 * Expected values are computed here in C: each product and each sum rounded
 * to f32, dot products added left to right (stex's documented order). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

enum { LANES = 4, OUT = 64 /* words per lane */, OM_WORDS = 8 /* mat2x3: 2 x vec3 (16 B) */ };

static const char SRC[] =
    "struct U { a : mat3x2<f32>, b : mat2x3f, s : f32 }\n"
    "@group(0) @binding(0) var<storage, read_write> out : array<f32>;\n"
    "@group(0) @binding(1) var<uniform> u : U;\n"
    "@group(0) @binding(2) var<storage, read> sm : array<mat3x3<f32>, 2>;\n"
    "@group(0) @binding(3) var<storage, read_write> om : array<mat2x3<f32>, 4>;\n"
    "@compute @workgroup_size(4)\n"
    "fn main(@builtin(local_invocation_index) lid : u32) {\n"
    "  let f = f32(lid);\n"
    "  let o = lid * 64u;\n"
    "  let a = u.a;\n"
    "  let b = u.b;\n"
    "  let m = sm[lid % 2u];\n"
    "  let v3 = vec3<f32>(1.5 + f, -2.25, 0.1);\n"
    "  let ab = a * b;\n"                               /* mat3x2 * mat2x3 = mat2x2 */
    "  out[o + 0u] = ab[0][0]; out[o + 1u] = ab[0][1]; out[o + 2u] = ab[1].x; out[o + 3u] = ab[1].y;\n"
    "  let av = a * v3;\n"                              /* vec2 */
    "  out[o + 4u] = av.x; out[o + 5u] = av.y;\n"
    "  let va = vec2<f32>(0.3, f) * a;\n"               /* vec3 */
    "  out[o + 6u] = va.x; out[o + 7u] = va.y; out[o + 8u] = va.z;\n"
    "  let mv = m * v3;\n"
    "  out[o + 9u] = mv.x; out[o + 10u] = mv.y; out[o + 11u] = mv.z;\n"
    "  var acc = mat3x3<f32>(m[0], m[1], m[2]) + transpose(m) - 2.0 * m;\n"
    "  acc[1] = vec3f(f, 1.0, 2.0);\n"
    "  acc[2][0] = 7.5;\n"
    "  for (var i = 0u; i < 3u; i++) {\n"
    "    for (var j = 0u; j < 3u; j++) { out[o + 12u + i * 3u + j] = acc[i][j]; }\n"
    "  }\n"
    "  let c = mat2x2f(1.0, 2.0, 3.0, 4.0) * u.s;\n"
    "  let k = lid % 3u;\n"
    "  out[o + 21u] = c[0][0]; out[o + 22u] = c[1][1]; out[o + 23u] = sm[1][k][2u - k];\n"
    "  let ta = transpose(a);\n"                        /* mat2x3 */
    "  out[o + 24u] = ta[1][2]; out[o + 25u] = ta[0][1];\n"
    "  let ba = b * a;\n"                               /* mat2x3 * mat3x2 = mat3x3 */
    "  out[o + 26u] = ba[2][1]; out[o + 27u] = ba[0][2];\n"
    "  om[lid] = b + b * f;\n"
    "  om[lid][1][2] = -f;\n"
    "  let z = mat4x4<f32>();\n"
    "  let w = mat4x3(vec3(1.0, 2.0, 3.0), vec3f(), vec3f(), vec3f(f));\n"
    "  out[o + 28u] = z[3][3] + w[0][2] + w[3][k];\n"
    "  out[o + 29u] = (mat2x4f(vec4f(1.0), vec4f(2.0)) * vec2f(3.0, f))[3];\n"
    "  const q = mat2x2f(1.5, 2, 3, 4.25);\n"
    "  var n = -q;\n"
    "  n *= 2.0;\n"
    "  out[o + 30u] = n[0][1] + q[1][1];\n"
    "}\n";

/* C: column-major, m[c * rows + r]. */
static float dot_lr(const float *a, size_t as, const float *b, size_t bs, int n)
{
    volatile float d = a[0] * b[0];
    for (int k = 1; k < n; k++) {
        volatile float p = a[k * as] * b[k * bs];
        d = d + p;
    }
    return d;
}

static void expect(const float *got, const float *want, int n, uint32_t lane, int at)
{
    for (int i = 0; i < n; i++) {
        uint32_t g, w;
        memcpy(&g, &got[i], 4);
        memcpy(&w, &want[i], 4);
        if (g != w)
            fail_msg("lane %u, out[%d]: %a, expected %a", lane, at + i, (double)got[i],
                     (double)want[i]);
    }
}

static void run_check(uint32_t width, stex_schedule sched)
{
    stex_adapter *ad;
    stex_device *dev = fixture_device(STEX_PROFILE_SPEC, &ad);
    stex_wgsl_module *m = fixture_module(SRC, "mat.wgsl");
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = width};
    if (stex_wgsl_pipeline_create(dev, m, "main", &o, &p))
        fail_msg("%s", stex_last_error());
    /* uniform U: a : mat3x2 at 0 (3 x vec2, 24 B), b : mat2x3 at 32 (align 16;
     * 2 x vec3 at stride 16, 32 B), s at 64; size 80 */
    float A[6] = {0.1f, 1.25f, -3.5f, 0.7f, 2.0f / 3.0f, -1.0f};        /* 3 cols x 2 rows */
    float B[6] = {1.0f / 3.0f, 2.5f, -0.2f, 4.0f, 0.3f, 1.0f / 7.0f};    /* 2 cols x 3 rows */
    float S = 0.75f;
    float ub[20] = {0};
    memcpy(ub, A, sizeof A);
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 3; r++)
            ub[8 + c * 4 + r] = B[c * 3 + r];
    ub[16] = S;
    float M[2][9];
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 9; i++)
            M[k][i] = (float)(i + 1) / (float)(k + 3) - 1.0f;
    float smb[2][12] = {{0}};
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                smb[k][c * 4 + r] = M[k][c * 3 + r];
    stex_buffer *bo, *bu, *bs, *bm;
    uint32_t st = STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_DST;
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = LANES * OUT * 4, .usage = st}, &bo), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = sizeof ub,
        .usage = STEX_BUFFER_USAGE_UNIFORM | STEX_BUFFER_USAGE_COPY_DST}, &bu), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = sizeof smb, .usage = st}, &bs), STEX_OK);
    assert_int_equal(stex_buffer_create(dev, &(stex_buffer_desc){.size = LANES * OM_WORDS * 4, .usage = st}, &bm), STEX_OK);
    memcpy(stex_buffer_data(bu), ub, sizeof ub);
    memcpy(stex_buffer_data(bs), smb, sizeof smb);
    uint32_t *omw = (uint32_t *)(void *)stex_buffer_data(bm);
    for (int i = 0; i < LANES * OM_WORDS; i++)
        omw[i] = 0xdeadbeefu; /* the padding after each vec3 column stays */
    stex_bind_group_entry be[4] = {{.binding = 0, .buffer = bo}, {.binding = 1, .buffer = bu},
                                   {.binding = 2, .buffer = bs}, {.binding = 3, .buffer = bm}};
    stex_bind_group *g;
    assert_int_equal(stex_bind_group_create(p, be, 4, &g), STEX_OK);
    stex_dispatch_options d = {.schedule = sched, .seed = 9, .threads = 1};
    if (stex_dispatch(p, g, 1, 1, 1, &d) != STEX_OK)
        fail_msg("dispatch: %s", stex_last_error());
    const float *out = (const float *)(const void *)stex_buffer_data(bo);
    const float *om = (const float *)(const void *)stex_buffer_data(bm);
    for (uint32_t l = 0; l < LANES; l++) {
        const float *got = out + l * OUT;
        float f = (float)l, w[32];
        const float *mm = M[l % 2];
        float v3[3] = {1.5f + f, -2.25f, 0.1f};
        /* a * b: mat2x2, column c = A * B[c], K = 3 */
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 2; r++)
                w[c * 2 + r] = dot_lr(A + r, 2, B + c * 3, 1, 3);
        for (int r = 0; r < 2; r++)
            w[4 + r] = dot_lr(A + r, 2, v3, 1, 3);
        float v2[2] = {0.3f, f};
        for (int c = 0; c < 3; c++)
            w[6 + c] = dot_lr(v2, 1, A + c * 2, 1, 2);
        for (int r = 0; r < 3; r++)
            w[9 + r] = dot_lr(mm + r, 3, v3, 1, 3);
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) {
                volatile float s = mm[c * 3 + r] + mm[r * 3 + c];
                volatile float t = 2.0f * mm[c * 3 + r];
                w[12 + c * 3 + r] = s - t;
            }
        w[15] = f, w[16] = 1.0f, w[17] = 2.0f, w[18] = 7.5f;
        uint32_t k = l % 3;
        w[21] = 1.0f * S, w[22] = 4.0f * S, w[23] = M[1][k * 3 + (2 - k)];
        w[24] = A[2 * 2 + 1], w[25] = A[1 * 2 + 0]; /* ta[1][2] = a[2][1], ta[0][1] = a[1][0] */
        w[26] = dot_lr(B + 1, 3, A + 2 * 2, 1, 2);  /* (b * a)[2][1] = row 1 of b . col 2 of a */
        w[27] = dot_lr(B + 2, 3, A + 0, 1, 2);
        w[28] = 0.0f + 3.0f + f;
        {
            volatile float p0 = 1.0f * 3.0f, p1 = 2.0f * f;
            w[29] = p0 + p1;
        }
        expect(got, w, 19, l, 0);
        w[30] = -4.0f + 4.25f;
        expect(got + 21, w + 21, 10, l, 21);
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < 4; r++) {
                uint32_t gw;
                memcpy(&gw, &om[l * OM_WORDS + c * 4 + r], 4);
                if (r == 3) {
                    if (gw != 0xdeadbeefu)
                        fail_msg("lane %u: om padding word %d written (%08x)", l, c, gw);
                    continue;
                }
                volatile float pr = B[c * 3 + r] * f;
                float want = c == 1 && r == 2 ? -f : B[c * 3 + r] + pr;
                expect(&om[l * OM_WORDS + c * 4 + r], &want, 1, l, 1000 + c * 4 + r);
            }
    }
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    stex_buffer_destroy(bo);
    stex_buffer_destroy(bu);
    stex_buffer_destroy(bs);
    stex_buffer_destroy(bm);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(ad);
}

static void test_matrices(void **s)
{
    (void)s;
    static const uint32_t widths[] = {1, 2, 4};
    for (size_t w = 0; w < 3; w++)
        for (int sched = 0; sched < 3; sched++)
            run_check(widths[w], (stex_schedule)sched);
}

static void test_matrix_diagnostics(void **s)
{
    (void)s;
    static const char *const bad[] = {
        "@compute @workgroup_size(1) fn f() { let m = mat2x2<i32>(); }\n",
        "@compute @workgroup_size(1) fn f() { let m = mat2x3f(1.0, 2.0); }\n",
        "@compute @workgroup_size(1) fn f() { let m = mat2x3f() * mat2x3f(); }\n",
        "@compute @workgroup_size(1) fn f() { let m = mat2x2f() + mat3x3f(); }\n",
        "@compute @workgroup_size(1) fn f() { let v = mat2x3f() * vec3f(); }\n",
        "@compute @workgroup_size(1) fn f() { let v = transpose(vec3f()); }\n",
        "@compute @workgroup_size(1) fn f() { let v = mat2x2f()[2]; }\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        stex_wgsl_module *m;
        if (stex_wgsl_module_create(bad[i], "bad.wgsl", &m) == STEX_OK)
            fail_msg("accepted: %s", bad[i]);
        stex_wgsl_module_destroy(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matrices),
        cmocka_unit_test(test_matrix_diagnostics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
