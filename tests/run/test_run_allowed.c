/* Run files in allowed mode (stex_run_options.allowed): two dispatches, the
 * second reading the sets the first stored; the steps that would lose sets
 * refused with their JSON path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"

/* x @OP@ 3 into b (r32float), then b @OP@ 3 into c (one module, two
 * pipelines): the second dispatch reads the set the first stored, so c
 * holds what any allowed first result gives, not only what one device's
 * first result gave. */
static const char *TWO_PASSES =
    "{\"shaderModules\": {\"m\": {\"code\": "
    "\"@group(0) @binding(0) var src : texture_storage_2d<r32float, read>;\\n"
    "@group(0) @binding(1) var dst : texture_storage_2d<r32float, write>;\\n"
    "override k : f32;\\n"
    "@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id : vec3<u32>) {\\n"
    "  let c = vec2<i32>(id.xy);\\n"
    "  textureStore(dst, c, vec4<f32>(textureLoad(src, c).r @OP@ k, 0.0, 0.0, 1.0));\\n"
    "}\\n\"}},"
    " \"textures\": {"
    "  \"a\": {\"size\": [4, 1], \"format\": \"r32float\", \"usage\": [\"STORAGE_BINDING\","
    "         \"COPY_DST\", \"COPY_SRC\"], \"contents\": {\"f32\": [1.0, 2.0, 5.0, 7.0]}},"
    "  \"b\": {\"size\": [4, 1], \"format\": \"r32float\", \"usage\": [\"STORAGE_BINDING\","
    "         \"COPY_SRC\", \"COPY_DST\"]},"
    "  \"c\": {\"size\": [4, 1], \"format\": \"r32float\", \"usage\": [\"STORAGE_BINDING\","
    "         \"COPY_SRC\"]}},"
    " \"views\": {\"a\": {\"texture\": \"a\"}, \"b\": {\"texture\": \"b\"}, \"c\": {\"texture\": \"c\"}},"
    " \"pipelines\": {"
    "  \"div\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\", \"constants\": {\"k\": 3}}},"
    "  \"mul\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\", \"constants\": {\"k\": 3}}}},"
    " \"bindGroups\": {"
    "  \"ab\": {\"layout\": {\"pipeline\": \"div\", \"group\": 0}, \"entries\": [{\"binding\": 0,"
    "          \"resource\": \"a\"}, {\"binding\": 1, \"resource\": \"b\"}]},"
    "  \"bc\": {\"layout\": {\"pipeline\": \"mul\", \"group\": 0}, \"entries\": [{\"binding\": 0,"
    "          \"resource\": \"b\"}, {\"binding\": 1, \"resource\": \"c\"}]}},"
    " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"div\", \"bindGroups\": [\"ab\"],"
    "             \"workgroupCount\": [1, 1, 1]}},"
    "            {\"dispatchWorkgroups\": {\"pipeline\": \"mul\", \"bindGroups\": [\"bc\"],"
    "             \"workgroupCount\": [1, 1, 1]}} @STEP@]}";

/* TWO_PASSES with @OP@ (the one operator of both passes: the module is one)
 * and a last step; the run executed in allowed mode. */
static stex_status run_allowed(const char *op, const char *step, stex_allowed *al,
                               stex_run **r, stex_device **d)
{
    char text[8192], *p = text;
    const char *s = TWO_PASSES;
    while (*s && p < text + sizeof text - 64) {
        if (!strncmp(s, "@OP@", 4)) {
            p += snprintf(p, 8, "%s", op);
            s += 4;
        } else if (!strncmp(s, "@STEP@", 6)) {
            p += snprintf(p, (size_t)(text + sizeof text - p), "%s", step);
            s += 6;
        } else {
            *p++ = *s++;
        }
    }
    *p = 0;
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, d), STEX_OK);
    stex_adapter_destroy(a);
    stex_run_options o = {.allowed = al};
    stex_status st = stex_run_parse(text, "run.json", ".", &o, r);
    if (!st)
        st = stex_run_execute(*r, *d, NULL);
    return st;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static void sets_cross_dispatches(void **state)
{
    (void)state;
    stex_allowed *al;
    assert_int_equal(stex_allowed_create(&al), STEX_OK);
    stex_run *r;
    stex_device *d;
    if (run_allowed("/", "", al, &r, &d))
        fail_msg("%s", stex_last_error());
    stex_allowed_output b, c;
    assert_int_equal(stex_allowed_texture(al, stex_run_texture(r, "b"), 0, &b), STEX_OK);
    assert_int_equal(stex_allowed_texture(al, stex_run_texture(r, "c"), 0, &c), STEX_OK);
    static const float x[4] = {1.0f, 2.0f, 5.0f, 7.0f};
    for (int k = 0; k < 4; k++) {
        /* the correctly rounded quotient and both neighbours are within 2.5 ULP */
        float q = x[k] / 3.0f;
        assert_true(stex_ival_contains_bits('f', &b.v[4 * k], bits(q)));
        assert_true(stex_ival_contains_bits('f', &b.v[4 * k], bits(nextafterf(q, 0))));
        assert_true(stex_ival_contains_bits('f', &b.v[4 * k], bits(nextafterf(q, 10))));
        /* the second pass divides the first pass's set again: the
         * quotients of its least and greatest values are allowed */
        float lo = (float)b.v[4 * k].lo, hi = (float)b.v[4 * k].hi;
        assert_true(stex_ival_contains_bits('f', &c.v[4 * k], bits(lo / 3.0f)));
        assert_true(stex_ival_contains_bits('f', &c.v[4 * k], bits(hi / 3.0f)));
        /* the channels the format lacks read 0, 0, 1 */
        assert_true(stex_ival_is_point('f', &c.v[4 * k + 1]));
        assert_true(stex_ival_contains_bits('f', &c.v[4 * k + 3], bits(1.0f)));
    }
    stex_allowed_output_free(&b);
    stex_allowed_output_free(&c);
    stex_run_destroy(r);
    stex_device_destroy(d);
    stex_allowed_destroy(al);
}

/* textureLoad out of bounds may read any texel of the level or zero
 * (WGSL): from a texture bound read-only, the hull of its values and 0. */
static void out_of_bounds_load_hull(void **state)
{
    (void)state;
    stex_allowed *al;
    stex_run *r = NULL;
    stex_device *d = NULL;
    /* b[x] = a[x - 1]: texel 0 reads out of bounds */
    const char *text =
        "{\"shaderModules\": {\"m\": {\"code\": "
        "\"@group(0) @binding(0) var src : texture_storage_2d<r32float, read>;\\n"
        "@group(0) @binding(1) var dst : texture_storage_2d<r32float, write>;\\n"
        "@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) id : vec3<u32>) {\\n"
        "  let c = vec2<i32>(id.xy);\\n"
        "  textureStore(dst, c, textureLoad(src, c - vec2<i32>(1, 0)));\\n"
        "}\\n\"}},"
        " \"textures\": {"
        "  \"a\": {\"size\": [4, 1], \"format\": \"r32float\", \"usage\": [\"STORAGE_BINDING\","
        "         \"COPY_DST\"], \"contents\": {\"f32\": [1.0, 2.0, 5.0, 7.0]}},"
        "  \"b\": {\"size\": [4, 1], \"format\": \"r32float\", \"usage\": [\"STORAGE_BINDING\"]}},"
        " \"views\": {\"a\": {\"texture\": \"a\"}, \"b\": {\"texture\": \"b\"}},"
        " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}},"
        " \"bindGroups\": {\"g\": {\"layout\": {\"pipeline\": \"p\", \"group\": 0}, \"entries\": ["
        "   {\"binding\": 0, \"resource\": \"a\"}, {\"binding\": 1, \"resource\": \"b\"}]}},"
        " \"steps\": [{\"dispatchWorkgroups\": {\"pipeline\": \"p\", \"bindGroups\": [\"g\"],"
        "             \"workgroupCount\": [1, 1, 1]}}]}";
    assert_int_equal(stex_allowed_create(&al), STEX_OK);
    stex_adapter *a;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, &d), STEX_OK);
    stex_adapter_destroy(a);
    stex_run_options o = {.allowed = al};
    stex_status st = stex_run_parse(text, "run.json", ".", &o, &r);
    if (!st)
        st = stex_run_execute(r, d, NULL);
    if (st)
        fail_msg("%s", stex_last_error());
    stex_allowed_output b;
    assert_int_equal(stex_allowed_texture(al, stex_run_texture(r, "b"), 0, &b), STEX_OK);
    /* texel 0 read out of bounds: any of 1, 2, 5, 7 or 0, and nothing else */
    assert_false(b.v[0].flags & STEX_IVAL_ANY);
    static const float can[] = {0.0f, 1.0f, 2.0f, 5.0f, 7.0f};
    for (size_t k = 0; k < 5; k++)
        assert_true(stex_ival_contains_bits('f', &b.v[0], bits(can[k])));
    assert_false(stex_ival_contains_bits('f', &b.v[0], bits(7.5f)));
    assert_false(stex_ival_contains_bits('f', &b.v[0], bits(-0.5f)));
    /* texel 1 read texel 0 in bounds: 1 exactly */
    assert_true(stex_ival_is_point('f', &b.v[4]));
    assert_true(stex_ival_contains_bits('f', &b.v[4], bits(1.0f)));
    stex_allowed_output_free(&b);
    stex_run_destroy(r);
    stex_device_destroy(d);
    stex_allowed_destroy(al);
}

/* A write over a texture holding sets would leave sets that no longer
 * describe its bytes: refused, naming the step. */
static void copy_of_sets_refused(void **state)
{
    (void)state;
    stex_allowed *al;
    assert_int_equal(stex_allowed_create(&al), STEX_OK);
    stex_run *r = NULL;
    stex_device *d = NULL;
    stex_status st = run_allowed("*", ", {\"writeTexture\": {\"destination\": {\"texture\": \"b\"}, "
                     "\"data\": {\"f32\": [1, 2, 3, 4]}, \"dataLayout\": {\"bytesPerRow\": 16}, "
                     "\"size\": [4, 1, 1]}}", al, &r, &d);
    assert_int_equal(st, STEX_INVALID_ARGUMENT);
    if (!strstr(stex_last_error(), "$.steps[2].writeTexture") ||
        !strstr(stex_last_error(), "allowed mode"))
        fail_msg("message: %s", stex_last_error());
    stex_run_destroy(r);
    stex_device_destroy(d);
    stex_allowed_destroy(al);
}

/* A built-in kernel's C module keeps no sets: refused. */
static void c_module_refused(void **state)
{
    (void)state;
    stex_allowed *al;
    assert_int_equal(stex_allowed_create(&al), STEX_OK);
    const char *text =
        "{\"shaderModules\": {\"m\": {\"kernel\": \"decaer\", \"pass\": 0}},"
        " \"pipelines\": {\"p\": {\"layout\": \"auto\", \"compute\": {\"module\": \"m\"}}}}";
    stex_adapter *a;
    stex_device *d;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, &d), STEX_OK);
    stex_adapter_destroy(a);
    stex_run_options o = {.allowed = al};
    stex_run *r = NULL;
    stex_status st = stex_run_parse(text, "run.json", ".", &o, &r);
    if (!st)
        st = stex_run_execute(r, d, NULL);
    assert_int_equal(st, STEX_INVALID_ARGUMENT);
    if (!strstr(stex_last_error(), "$.pipelines.p.compute") ||
        !strstr(stex_last_error(), "decaer"))
        fail_msg("message: %s", stex_last_error());
    stex_run_destroy(r);
    stex_device_destroy(d);
    stex_allowed_destroy(al);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sets_cross_dispatches),
        cmocka_unit_test(out_of_bounds_load_hull),
        cmocka_unit_test(copy_of_sets_refused),
        cmocka_unit_test(c_module_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
