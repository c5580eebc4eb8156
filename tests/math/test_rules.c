/* The math layer's rules, one case per line, each with the rule it checks:
 * IEEE-754 binary32 and WGSL's runtime rules under `spec`, the choices
 * WGSL leaves open, and the six decaer values the H200 produces
 * (conformance/nvidia/README.md: x * 0.98 in decaer). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stex/math.h"

typedef struct rule_case {
    stex_profile_id profile;
    stex_math_fn fn;
    uint32_t in[4];
    uint32_t want[2];
    const char *why;
} rule_case;

#define SPEC STEX_PROFILE_SPEC
#define LVP STEX_PROFILE_LAVAPIPE
#define NV STEX_PROFILE_NVIDIA
#define M(x) STEX_MATH_##x

static const rule_case CASES[] = {
    /* spec: IEEE binary32, round to nearest even, subnormals kept */
    {SPEC, M(ADD_F32), {0x3f800000, 0x33800000}, {0x3f800000}, "1 + 2^-24 ties to even: 1"},
    {SPEC, M(ADD_F32), {0x3f800000, 0x33800001}, {0x3f800001}, "1 + (2^-24 + ulp) rounds up"},
    {SPEC, M(MUL_F32), {0x00000001, 0x3f7ae148}, {0x00000001}, "2^-149 * 0.98 stays subnormal"},
    {SPEC, M(MUL_F32), {0x00800000, 0x3f000000}, {0x00400000}, "2^-126 / 2 is subnormal, kept"},
    {SPEC, M(DIV_F32), {0x3f800000, 0x40400000}, {0x3eaaaaab}, "1/3 correctly rounded"},
    {SPEC, M(DIV_F32), {0x3f800000, 0x00000000}, {0x7f800000}, "1/0 = +inf"},
    {SPEC, M(DIV_F32), {0x00000000, 0x00000000}, {0x7fc00000}, "0/0: new NaN, spec's 0x7fc00000"},
    {SPEC, M(ADD_F32), {0x7f800001, 0x3f800000}, {0x7fc00001}, "a NaN operand passes, quieted (IEEE 6.2.3)"},
    {SPEC, M(SUB_F32), {0x7f800000, 0x7f800000}, {0x7fc00000}, "inf - inf: new NaN"},
    {SPEC, M(SQRT_F32), {0x40000000}, {0x3fb504f3}, "sqrt(2) correctly rounded"},
    {SPEC, M(SQRT_F32), {0xbf800000}, {0x7fc00000}, "sqrt(-1): new NaN"},
    /* never contracted: a*b+c rounds twice, fma once: (1+2^-12)^2 - (1+2^-11) */
    {SPEC, M(MUL_ADD_F32), {0x3f800800, 0x3f800800, 0xbf801000}, {0x00000000}, "a*b+c: two roundings"},
    {SPEC, M(MUL_ADD_LET_F32), {0x3f800800, 0x3f800800, 0xbf801000}, {0x00000000}, "through a let too"},
    {SPEC, M(FMA_F32), {0x3f800800, 0x3f800800, 0xbf801000}, {0x33800000}, "fma: one rounding, 2^-24"},
    /* % as WGSL defines it, exactly: x - y*trunc(x/y) */
    {SPEC, M(REM_F32), {0x40e00000, 0x40000000}, {0x3f800000}, "7 % 2 = 1"},
    {SPEC, M(REM_F32), {0xc0e00000, 0x40000000}, {0xbf800000}, "-7 % 2 = -1 (trunc)"},
    {SPEC, M(REM_F32), {0x7f7fffff, 0x3f800000}, {0x00000000}, "FLT_MAX % 1 = 0 exactly"},
    /* integers: WGSL's runtime rules */
    {SPEC, M(ADD_I32), {0x7fffffff, 1}, {0x80000000}, "MAX + 1 wraps"},
    {SPEC, M(DIV_I32), {7, 0}, {7}, "x / 0 = x"},
    {SPEC, M(REM_I32), {7, 0}, {0}, "x % 0 = 0"},
    {SPEC, M(DIV_I32), {0x80000000, 0xffffffff}, {0x80000000}, "MIN / -1 = MIN"},
    {SPEC, M(REM_I32), {0x80000000, 0xffffffff}, {0}, "MIN % -1 = 0"},
    {SPEC, M(REM_I32), {0xfffffff9, 2}, {0xffffffff}, "-7 % 2 = -1 (truncating)"},
    {SPEC, M(SHL_U32), {1, 33}, {2}, "shift by amount & 31"},
    {SPEC, M(SHR_I32), {0x80000000, 31}, {0xffffffff}, "i32 >> is arithmetic"},
    {SPEC, M(DIV_U32), {0xffffffff, 0}, {0xffffffff}, "u32 x / 0 = x"},
    /* f32 -> integer saturates, NaN -> 0 */
    {SPEC, M(F32_TO_I32), {0x7fc00000}, {0}, "i32(NaN) = 0 (spec's choice)"},
    {SPEC, M(F32_TO_I32), {0x7f800000}, {0x7fffff80}, "i32(+inf) = 2^31 - 128"},
    {SPEC, M(F32_TO_I32), {0xc0200000}, {0xfffffffe}, "i32(-2.5) = -2 (toward zero)"},
    {SPEC, M(F32_TO_U32), {0x7f800000}, {0xffffff00}, "u32(+inf) = 2^32 - 256"},
    {SPEC, M(F32_TO_U32), {0xbf800000}, {0}, "u32(-1) = 0"},
    /* min/max: a NaN operand is ignored (WGSL 17.5) */
    {SPEC, M(MIN_F32), {0x7fc00000, 0x3f800000}, {0x3f800000}, "min(NaN, 1) = 1"},
    {SPEC, M(MAX_F32), {0x00000000, 0x80000000}, {0x00000000}, "max(+0, -0) = +0"},
    {SPEC, M(STEP_F32), {0x00000000, 0x7fc00000}, {0x00000000}, "step(0, NaN): edge <= x is false"},
    {SPEC, M(FREXP_F32), {0x00000001}, {0x3f000000, (uint32_t)-148}, "frexp(2^-149) normalised"},
    {SPEC, M(LDEXP_F32), {0x00000001, 255}, {0x74800000}, "ldexp(2^-149, 255) = 2^106 exactly"},
    /* lavapipe choices */
    {LVP, M(FMA_F32), {0x3f800800, 0x3f800800, 0xbf801000}, {0x00000000}, "lavapipe: fma() rounds twice"},
    {LVP, M(SUB_F32), {0x7f800000, 0x7f800000}, {0xffc00000}, "lavapipe: x86's default NaN"},
    {LVP, M(F32_TO_I32), {0x7fc00000}, {0x80000000}, "lavapipe: i32(NaN) = MIN"},
    {LVP, M(LDEXP_F32), {0x00000001, 255}, {0x74000000}, "lavapipe: exponent clamped to 254"},
    /* nvidia: decaer's x * 0.98 (conformance/nvidia/README.md) */
    {NV, M(MUL_F32), {0x00000001, 0x3f7ae148}, {0x00000000}, "decaer: subnormal input flushed"},
    {NV, M(MUL_F32), {0x00800000, 0x3f7ae148}, {0x00000000}, "decaer: subnormal result flushed"},
    {NV, M(MUL_F32), {0x006cf6c7, 0x3f7ae148}, {0x00000000}, "decaer: subnormal 0x006cf6c7"},
    {NV, M(MUL_F32), {0x7fc00000, 0x3f7ae148}, {0x7fffffff}, "decaer: every NaN 0x7fffffff"},
    {NV, M(MUL_F32), {0x7f7fffff, 0x3f7ae148}, {0x7f7ae147}, "decaer: FLT_MAX * 0.98"},
    {NV, M(MUL_F32), {0x3f800000, 0x3f7ae148}, {0x3f7ae148}, "decaer: 1 * 0.98"},
    {NV, M(MUL_ADD_F32), {0x3f800800, 0x3f800800, 0xbf801000}, {0x33800000}, "nvidia: a*b+c fused"},
    {NV, M(MUL_ADD_LET_F32), {0x3f800800, 0x3f800800, 0xbf801000}, {0x33800000}, "nvidia: fused through a let"},
    {NV, M(MIN_F32), {0x00000001, 0x3f800000}, {0x00000001}, "nvidia: min keeps subnormals"},
    {NV, M(REM_F32), {0xbf800000, 0x3f800000}, {0x80000000}, "nvidia: -1 % 1 = -0"},
};

static void test_cases(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const rule_case *c = &CASES[i];
        const stex_math_fn_info *info = stex_math_fn_get(c->fn);
        uint32_t got[4] = {0};
        assert_int_equal(stex_math_eval(stex_profile_get(c->profile), c->fn, c->in, got), STEX_OK);
        if (memcmp(got, c->want, info->out_words * 4)) {
            fprintf(stderr, "[%s] %s %s (%08x, %08x, %08x): got %08x, want %08x: %s\n",
                    stex_profile_name(c->profile), info->op, info->sig, c->in[0], c->in[1],
                    c->in[2], got[0], c->want[0], c->why);
            bad = 1;
        }
    }
    assert_false(bad);
}

/* The typed helpers and the n-lane forms agree with stex_math_eval. */
static void test_forms_agree(void **state)
{
    (void)state;
    const stex_profile *p = stex_profile_get(NV);
    float a[4] = {0x1p-149f, 1.0f, 3.0f, -2.5f}, b[4] = {0.98f, 3.0f, 0.0f, 0x1p-130f}, out[4];
    assert_int_equal(stex_math_f32_binary(p, M(DIV_F32), 4, a, b, out), STEX_OK);
    for (int i = 0; i < 4; i++)
        assert_memory_equal(&out[i], &(float){stex_math_div_f32(p, a[i], b[i])}, 4);
    assert_int_equal(stex_math_f32_binary(p, M(SIN_F32), 4, a, b, out), STEX_INVALID_ARGUMENT);
    assert_int_equal(stex_math_eval(NULL, M(ADD_F32), (uint32_t[2]){0}, (uint32_t[1]){0}),
                     STEX_INVALID_ARGUMENT);
}

/* Out-of-bounds policy (WGSL 14.4 allows each of these). */
static void test_oob(void **state)
{
    (void)state;
    const stex_profile *spec = stex_profile_get(SPEC), *nv = stex_profile_get(NV);
    uint32_t at;
    assert_int_equal(stex_math_oob(spec, STEX_ARRAY_FIXED, 4, 4, 4, &at), STEX_OOB_ZERO);
    assert_int_equal(stex_math_oob(nv, STEX_ARRAY_FIXED, 4, 4, 100, &at), STEX_OOB_CLAMP);
    assert_int_equal(at, 3);
    assert_int_equal(stex_math_oob(nv, STEX_ARRAY_RUNTIME, 16, 4, 16, &at), STEX_OOB_ZERO);
    assert_int_equal(stex_math_oob(nv, STEX_ARRAY_RUNTIME, 16, 4, 0x40000000u, &at), STEX_OOB_WRAPPED);
    assert_int_equal(at, 0);
    assert_int_equal(stex_math_oob(spec, STEX_ARRAY_RUNTIME, 16, 4, 0x40000000u, &at), STEX_OOB_ZERO);
    assert_int_equal(stex_math_oob(nv, STEX_ARRAY_FUNCTION, 4, 4, 2, &at), STEX_OOB_IN_BOUNDS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_forms_agree),
        cmocka_unit_test(test_oob),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
