/* The format table against the WebGPU spec's lists (spec_formats.h, written
 * out from the spec, not derived from formats.def). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/format.h"
#include "spec_formats.h"

static const uint32_t feature_sets[] = {0,         BGRA,      T1,         T2,
                                        T1 | BGRA, T2 | BGRA, T1 | T2,    STEX_FEATURE_ALL,
                                        STEX_FEATURE_TEXTURE_COMPRESSION_BC,
                                        STEX_FEATURE_DEPTH32FLOAT_STENCIL8};

static void test_lists_exist(void **state)
{
    (void)state;
    const char *const *lists[] = {core_storage, tier1_storage, rw_tier2, never_storage};
    for (size_t l = 0; l < 4; l++)
        for (const char *const *p = lists[l]; *p; p++) {
            stex_format f = stex_format_from_name(*p);
            if (f == STEX_FORMAT_UNDEFINED)
                fail_msg("spec format %s missing from formats.def", *p);
            assert_string_equal(stex_format_name(f), *p);
        }
    assert_int_equal(spec_count(core_storage), 16);
    assert_int_equal(spec_count(tier1_storage), 23);
    assert_int_equal(spec_count(rw_tier2), 15);
}

static void test_access_matrix(void **state)
{
    (void)state;
    int bad = 0, n = 0;
    for (int f = 1; f < STEX_FORMAT_COUNT; f++) {
        const char *name = stex_format_name((stex_format)f);
        for (size_t fs = 0; fs < sizeof feature_sets / sizeof *feature_sets; fs++)
            for (uint32_t lf = 0; lf <= LF; lf += LF)
                for (int a = 0; a < STEX_ACCESS_COUNT; a++) {
                    bool want = spec_access(name, (stex_access)a, feature_sets[fs], lf);
                    bool got = stex_format_supports_access((stex_format)f, (stex_access)a,
                                                           feature_sets[fs], lf);
                    n++;
                    if (want != got && bad++ < 20)
                        print_error("%s access %s features 0x%x lf %u: spec %d, stex %d\n", name,
                                    stex_access_name((stex_access)a), feature_sets[fs], lf,
                                    want, got);
                }
    }
    print_message("access matrix: %d/%d agree with the spec lists\n", n - bad, n);
    assert_int_equal(bad, 0);
}

static void test_storage_and_create(void **state)
{
    (void)state;
    for (int f = 1; f < STEX_FORMAT_COUNT; f++) {
        const char *name = stex_format_name((stex_format)f);
        for (size_t fs = 0; fs < sizeof feature_sets / sizeof *feature_sets; fs++) {
            uint32_t feat = feature_sets[fs];
            bool want = spec_access(name, STEX_ACCESS_WRITE_ONLY, feat, 0);
            if (stex_format_supports_storage((stex_format)f, feat) != want)
                fail_msg("supports_storage(%s, 0x%x): spec says %d", name, feat, want);
            uint32_t need = spec_create_feature(name);
            uint32_t have = feat & T2 ? feat | T1 : feat; /* tier2 enables tier1 */
            bool exists = !need || (have & need);
            if (stex_format_can_create((stex_format)f, feat) != exists)
                fail_msg("can_create(%s, 0x%x): spec says %d", name, feat, exists);
        }
        if (spec_in(never_storage, name))
            assert_int_equal(stex_format_access_tier((stex_format)f, STEX_ACCESS_WRITE_ONLY),
                             STEX_TIER_NEVER);
    }
}

static void test_access_tier_names(void **state)
{
    (void)state;
    static const struct {
        const char *format;
        stex_access access;
        const char *needs;
    } cases[] = {
        {"rgba8unorm", STEX_ACCESS_WRITE_ONLY, "core"},
        {"rgba8unorm", STEX_ACCESS_READ_WRITE, "texture-formats-tier2"},
        {"r32float", STEX_ACCESS_READ_WRITE, "core"},
        {"r8unorm", STEX_ACCESS_READ_ONLY, "texture-formats-tier1"},
        {"r8unorm", STEX_ACCESS_READ_WRITE, "texture-formats-tier2"},
        {"r8snorm", STEX_ACCESS_READ_WRITE, "never"},
        {"rgba8snorm", STEX_ACCESS_READ_WRITE, "never"},
        {"r16unorm", STEX_ACCESS_WRITE_ONLY, "texture-formats-tier1"},
        {"bgra8unorm", STEX_ACCESS_UNDEFINED, "bgra8unorm-storage"},
        {"bgra8unorm", STEX_ACCESS_READ_ONLY, "never"},
        {"rgba8unorm-srgb", STEX_ACCESS_WRITE_ONLY, "never"},
        {"bc7-rgba-unorm", STEX_ACCESS_WRITE_ONLY, "never"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stex_tier t = stex_format_access_tier(stex_format_from_name(cases[i].format),
                                              cases[i].access);
        if (strcmp(stex_tier_name(t), cases[i].needs))
            fail_msg("%s %s: needs %s, stex says %s", cases[i].format,
                     stex_access_name(cases[i].access), cases[i].needs, stex_tier_name(t));
    }
}

/* Channel count, scalar type and bytes follow from the WebGPU name itself:
 * the leading r/g/b/a letters, the bit count after them, the type suffix. */
static void test_name_describes_layout(void **state)
{
    (void)state;
    for (int f = 1; f < STEX_FORMAT_COUNT; f++) {
        const stex_format_info *fi = stex_format_get((stex_format)f);
        assert_non_null(fi);
        assert_int_equal(fi->format, f);
        const char *n = fi->name;
        if (fi->kind != STEX_KIND_COLOR || strstr(n, "srgb") || fi->packing != STEX_PACKING_PLAIN)
            continue;
        unsigned ch = (unsigned)strspn(n, "rgba");
        unsigned bits = (unsigned)atoi(n + ch);
        const char *type = n + ch + strspn(n + ch, "0123456789");
        if (fi->channels != ch || fi->bytes != ch * bits / 8)
            fail_msg("%s: channels %u bytes %u, name says %u and %u", n, fi->channels,
                     fi->bytes, ch, ch * bits / 8);
        for (unsigned c = 0; c < 4; c++)
            assert_int_equal(fi->bits[c], c < ch ? bits : 0);
        stex_scalar_type want = !strcmp(type, "uint")   ? STEX_SCALAR_U32
                                : !strcmp(type, "sint") ? STEX_SCALAR_I32
                                                        : STEX_SCALAR_F32;
        if (fi->scalar != want)
            fail_msg("%s: scalar %d, want %d", n, fi->scalar, want);
    }
    const stex_format_info *b = stex_format_get(STEX_FORMAT_BGRA8UNORM);
    assert_int_equal(b->packing, STEX_PACKING_BGRA);
    assert_int_equal(b->bytes, 4);
    assert_int_equal(stex_format_get(STEX_FORMAT_RGB10A2UINT)->scalar, STEX_SCALAR_U32);
    assert_int_equal(stex_format_get(STEX_FORMAT_RG11B10UFLOAT)->scalar, STEX_SCALAR_F32);
}

static void test_names_and_bad_input(void **state)
{
    (void)state;
    for (int f = 1; f < STEX_FORMAT_COUNT; f++)
        assert_int_equal(stex_format_from_name(stex_format_name((stex_format)f)), f);
    assert_int_equal(stex_format_from_name("rgba8"), STEX_FORMAT_UNDEFINED);
    assert_int_equal(stex_format_from_name("RGBA8UNORM"), STEX_FORMAT_UNDEFINED);
    assert_int_equal(stex_format_from_name(""), STEX_FORMAT_UNDEFINED);
    assert_int_equal(stex_format_from_name(NULL), STEX_FORMAT_UNDEFINED);
    assert_null(stex_format_get(STEX_FORMAT_UNDEFINED));
    assert_null(stex_format_get(STEX_FORMAT_COUNT));
    assert_null(stex_format_get((stex_format)-1));
    assert_string_equal(stex_format_name(STEX_FORMAT_COUNT), "?");
    assert_false(stex_format_supports_access(STEX_FORMAT_COUNT, STEX_ACCESS_WRITE_ONLY,
                                             STEX_FEATURE_ALL, LF));
    assert_false(stex_format_supports_access(STEX_FORMAT_R32FLOAT, STEX_ACCESS_COUNT,
                                             STEX_FEATURE_ALL, LF));
}

/* Lesson 004's formatoIntermedio: r16float when it is a storage format, else r32float. */
static void test_intermediate(void **state)
{
    (void)state;
    static const struct {
        uint32_t features;
        const char *want;
    } cases[] = {{0, "r32float"},    {BGRA, "r32float"},         {T1, "r16float"},
                 {T2, "r16float"},   {T1 | BGRA, "r16float"},    {STEX_FEATURE_ALL, "r16float"},
                 {STEX_FEATURE_RG11B10UFLOAT_RENDERABLE, "r32float"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_string_equal(stex_format_name(stex_format_intermediate(cases[i].features)),
                            cases[i].want);
}

static void test_tiers(void **state)
{
    (void)state;
    assert_true(stex_tier_enabled(STEX_TIER_CORE, 0));
    assert_false(stex_tier_enabled(STEX_TIER_NEVER, STEX_FEATURE_ALL));
    assert_true(stex_tier_enabled(STEX_TIER_1, T2)); /* tier2 implies tier1 */
    assert_false(stex_tier_enabled(STEX_TIER_2, T1));
    assert_int_equal(stex_tier_feature(STEX_TIER_1), T1);
    assert_int_equal(stex_tier_feature(STEX_TIER_CORE), 0);
    assert_int_equal(stex_tier_feature(STEX_TIER_NEVER), 0);
    assert_int_equal(stex_tier_feature(STEX_TIER_BGRA8UNORM_STORAGE), BGRA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_exist),       cmocka_unit_test(test_access_matrix),
        cmocka_unit_test(test_storage_and_create), cmocka_unit_test(test_access_tier_names),
        cmocka_unit_test(test_name_describes_layout), cmocka_unit_test(test_names_and_bad_input),
        cmocka_unit_test(test_intermediate),      cmocka_unit_test(test_tiers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
