/* The front end's verdicts against Dawn's (issue 11, item 2):
 *  - the `shaders` and `pipeline_layouts` sections of
 *    tests/data/lavapipe-access.json (createShaderModule + createComputePipeline
 *    on Dawn/lavapipe), replayed as stex_wgsl_module_create +
 *    stex_wgsl_pipeline_create on a device with the file's features, and
 *    stex_wgsl_layout_check for the explicit layouts;
 *  - the `validate` rows of wgslexpr.tsv (lavapipe and nvidia, both Dawn),
 *    copied into tests/data/wgslexpr-validate.tsv.
 * Every case asserts stex's verdict equals Dawn's and, for an invalid one,
 * pins the rule stex reports (with line:col for the module's diagnostics).
 * Cases whose verdict stex reaches only because it lacks a feature are
 * listed by name in UNSUPPORTED with the reason; the counts are printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "stex/stex.h"

static const char *data_path(char *buf, size_t n, const char *file)
{
    const char *dir = getenv("STEX_TEST_DATA");
    snprintf(buf, n, "%s/%s", dir ? dir : "tests/data", file);
    return buf;
}

/* An invalid case: the rule stex reports; line 0 = a pipeline error (the
 * rule is then a piece of stex_last_error). */
typedef struct pin {
    const char *name;
    unsigned line, col;
    const char *rule;
} pin;

/* Verdicts equal to Dawn's, but reached because stex lacks a feature: the
 * rule pinned is stex's, not the one Dawn broke. */
typedef struct unsupported {
    const char *name;
    const char *reason;
} unsupported;

static const unsupported UNSUPPORTED[] = {
    /* none now (the const-evaluation of builtins was the last); the list
     * ends with {NULL} */
    {NULL, NULL},
};

static const unsupported *unsupported_find(const char *name)
{
    for (size_t i = 0; UNSUPPORTED[i].name; i++)
        if (!strcmp(UNSUPPORTED[i].name, name))
            return &UNSUPPORTED[i];
    return NULL;
}

static const pin *pin_find(const pin *p, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(p[i].name, name))
            return &p[i];
    return NULL;
}

/* Checks one module against Dawn's verdict; returns true if equal (failing
 * the test with a message otherwise). */
static bool verdict(const char *what, const char *name, const char *src, bool dawn_valid,
                    const pin *p, stex_device *dev, const stex_layout_entry *layout,
                    uint32_t nlayout, bool use_layout)
{
    stex_wgsl_module *m = NULL;
    stex_status st = stex_wgsl_module_create(src, "t.wgsl", &m);
    const char *diag = m ? stex_wgsl_module_diagnostics(m) : "";
    char last[4096] = "";
    if (st == STEX_OK && dev) {
        stex_pipeline *pl = NULL;
        st = stex_wgsl_pipeline_create(dev, m, "main", NULL, &pl);
        if (st == STEX_OK && use_layout)
            st = stex_wgsl_layout_check(m, "main", layout, nlayout);
        if (st)
            snprintf(last, sizeof last, "%s", stex_last_error());
        stex_pipeline_destroy(pl);
    }
    bool ok = true;
    if ((st == STEX_OK) != dawn_valid) {
        print_error("%s %s: Dawn says %s, stex %s:\n%s%s\n", what, name,
                    dawn_valid ? "valid" : "invalid", st ? "invalid" : "valid", diag, last);
        ok = false;
    } else if (!dawn_valid) {
        if (!p) {
            print_error("%s %s: no pinned rule; stex said:\n%s%s\n", what, name, diag, last);
            ok = false;
        } else if (p->line) {
            char want[256];
            snprintf(want, sizeof want, "t.wgsl:%u:%u: error: ", p->line, p->col);
            char rule[128];
            snprintf(rule, sizeof rule, "[%s]", p->rule);
            const char *at = strstr(diag, want);
            const char *eol = at ? strchr(at, '\n') : NULL;
            if (!at || !strstr(at, rule) || (eol && strstr(at, rule) > eol)) {
                print_error("%s %s: expected %s...%s, stex said:\n%s%s\n", what, name, want,
                            rule, diag, last);
                ok = false;
            }
        } else if (!strstr(last, p->rule)) {
            print_error("%s %s: expected a pipeline error with '%s', stex said:\n%s%s\n", what,
                        name, p->rule, diag, last);
            ok = false;
        }
    }
    stex_wgsl_module_destroy(m);
    return ok;
}

/* ---- lavapipe-access.json: shaders and pipeline_layouts ---- */

static const pin ACCESS_PINS[] = {
    {"texture_storage_2d<rgba8unorm, read_write> (not a core read-write format)", 0, 0, "needs feature texture-formats-tier2"},
    {"textureLoad on texture_storage_2d<rgba8unorm, write>", 4, 10, "texture-builtin-functions"},
    {"textureStore on texture_storage_2d<rgba8unorm, read>", 4, 3, "texture-builtin-functions"},
    {"texture_storage_2d<rgba8unorm> without access mode", 1, 31, "texture-storage"},
    {"textureStore vec4<u32> into rgba8unorm", 4, 36, "type-mismatch"},
    {"textureStore vec4<f32> into r32uint", 4, 36, "type-mismatch"},
    {"textureLoad with a level argument on a storage texture", 4, 20, "builtin-functions"},
    {"textureNumLevels on a storage texture", 4, 24, "texture-builtin-functions"},
    {"textureDimensions with a level argument on a storage texture", 4, 24, "builtin-functions"},
    {"texture_storage_2d<rgba8unorm_srgb, write>", 1, 50, "storage-texel-formats"},
    {"texture_storage_2d<r8unorm, write> (tier1 format)", 0, 0, "needs feature texture-formats-tier1"},
    {"texture_storage_2d<bgra8unorm, read>", 0, 0, "bgra8unorm may only be bound write-only"},
    {"texture_storage_cube<rgba8unorm, write>", 1, 31, "texture-storage"},
    {"textureStore with f32 coordinates", 4, 19, "texture-builtin-functions"},
    {"textureStore on 2d_array without layer argument", 4, 3, "builtin-functions"},
    {"textureSampleLevel on a storage texture", 5, 10, "texture-builtin-functions"},
    {"@workgroup_size(257)", 0, 0, "maxComputeWorkgroupSizeX"},
    {"@workgroup_size(16, 16, 2) = 512 invocations", 0, 0, "maxComputeInvocationsPerWorkgroup"},
    {"@workgroup_size(1, 1, 65)", 0, 0, "maxComputeWorkgroupSizeZ"},
    {"layout {format r32float} (access defaulted) + shader <r32float, read>", 0, 0, "[layout-storage-texture-access]"},
    {"layout {format r32float, read-write} + shader <r32float, read>", 0, 0, "[layout-storage-texture-access]"},
    {"layout {format rgba8unorm} + shader <rgba8uint, write>", 0, 0, "[layout-storage-texture-format]"},
    {"layout {r32float, viewDimension 2d-array} + shader texture_storage_2d", 0, 0, "[layout-view-dimension]"},
};

/* The explicit layout of each pipeline_layouts case (the file names it in
 * the case's title only). */
typedef struct layout_case {
    const char *name;
    stex_layout_entry e;
} layout_case;

#define ST(acc, fmt, dim)                                                                     \
    {.binding = 0, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_TEXTURE,     \
     .storage_texture = {acc, fmt, dim}}
static const layout_case LAYOUTS[] = {
    {"layout {format r32float} (access defaulted) + shader <r32float, write>",
     ST(STEX_ACCESS_UNDEFINED, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_UNDEFINED)},
    {"layout {format r32float} (access defaulted) + shader <r32float, read>",
     ST(STEX_ACCESS_UNDEFINED, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_UNDEFINED)},
    {"layout {format r32float, read-write} + shader <r32float, read>",
     ST(STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_UNDEFINED)},
    {"layout {format rgba8unorm} + shader <rgba8uint, write>",
     ST(STEX_ACCESS_UNDEFINED, STEX_FORMAT_RGBA8UNORM, STEX_VIEW_DIMENSION_UNDEFINED)},
    {"layout {r32float, viewDimension 2d-array} + shader texture_storage_2d",
     ST(STEX_ACCESS_UNDEFINED, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_2D_ARRAY)},
    {"layout {format r32float} (viewDimension defaulted) + shader texture_storage_2d",
     ST(STEX_ACCESS_UNDEFINED, STEX_FORMAT_R32FLOAT, STEX_VIEW_DIMENSION_UNDEFINED)},
};

static stex_adapter *adapter;
static stex_device *device;

static int make_device(json_t *root)
{
    uint32_t f = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(root, "device_features"), i, v)
    {
        stex_feature one;
        if (!stex_feature_from_name(json_string_value(v), &one))
            return -1;
        f |= one;
    }
    stex_adapter_desc ad = stex_adapter_desc_default();
    ad.features = f;
    ad.language_features =
        json_is_true(json_object_get(root, "wgsl_language_feature_readonly_and_readwrite_storage_textures"))
            ? STEX_LANGUAGE_FEATURE_READONLY_AND_READWRITE_STORAGE_TEXTURES
            : 0;
    stex_device_desc dd = {.required_features = f};
    return stex_adapter_create(&ad, &adapter) || stex_device_create(adapter, &dd, &device) ? -1 : 0;
}

static void test_access_shaders_and_layouts(void **s)
{
    (void)s;
    char path[4096];
    json_error_t err;
    json_t *root = json_load_file(data_path(path, sizeof path, "lavapipe-access.json"), 0, &err);
    assert_non_null(root);
    assert_int_equal(make_device(root), 0);
    const char *sections[] = {"shaders", "pipeline_layouts"};
    unsigned total = 0, equal = 0;
    for (int k = 0; k < 2; k++) {
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(root, sections[k]), i, c)
        {
            const char *name = json_string_value(json_object_get(c, "case"));
            const char *got = json_string_value(json_object_get(c, "got"));
            const char *code = json_string_value(json_object_get(c, "code"));
            const layout_case *lc = NULL;
            for (size_t j = 0; k == 1 && j < sizeof LAYOUTS / sizeof LAYOUTS[0]; j++)
                if (!strcmp(LAYOUTS[j].name, name) && i == j)
                    lc = &LAYOUTS[j];
            if (k == 1 && !lc)
                fail_msg("pipeline_layouts case %zu '%s' has no layout here", i, name);
            total++;
            equal += verdict(sections[k], name, code, !strcmp(got, "valid"),
                             pin_find(ACCESS_PINS, sizeof ACCESS_PINS / sizeof ACCESS_PINS[0], name),
                             device, lc ? &lc->e : NULL, lc ? 1 : 0, lc != NULL);
        }
    }
    printf("lavapipe-access.json shaders + pipeline_layouts: %u of %u verdicts equal to Dawn's\n",
           equal, total);
    stex_device_destroy(device);
    stex_adapter_destroy(adapter);
    json_decref(root);
    assert_int_equal(total, 30);
    assert_int_equal(equal, total);
}

/* ---- wgslexpr validate rows ---- */

static const pin VALIDATE_PINS[] = {
    {"workgroupBarrier_in_if_lid", 7, 22, "uniformity"},
    {"workgroupBarrier_after_nonuniform_return", 8, 3, "uniformity"},
    {"workgroupBarrier_in_loop_nonuniform_break", 9, 5, "uniformity"},
    {"workgroupBarrier_in_loop_nonuniform_continue", 9, 5, "uniformity"},
    {"workgroupBarrier_in_loop_nonuniform_trip_count", 7, 38, "uniformity"},
    {"workgroupBarrier_in_switch_nonuniform", 8, 16, "uniformity"},
    {"workgroupBarrier_in_if_rw_storage_value", 7, 21, "uniformity"},
    {"workgroupBarrier_in_if_workgroup_var", 7, 19, "uniformity"},
    {"workgroupBarrier_in_function_called_nonuniformly", 5, 10, "uniformity"},
    {"workgroupBarrier_nonuniform_with_diagnostic_off", 8, 22, "uniformity"},
    {"storageBarrier_in_if_lid", 7, 22, "uniformity"},
    {"storageBarrier_after_nonuniform_return", 8, 3, "uniformity"},
    {"textureBarrier_in_if_lid", 8, 22, "uniformity"},
    {"textureBarrier_in_loop_nonuniform_break", 10, 5, "uniformity"},
    {"workgroupUniformLoad_in_if_lid", 7, 29, "uniformity"},
    {"let_abstract_int_overflow_to_i32", 4, 22, "conversion-rank"},
    {"literal_2147483648i", 4, 11, "literal"},
    {"literal_neg_2147483648i", 4, 12, "literal"},
    {"const_shl_i32_1_by_31", 4, 16, "arithmetic"},
    {"const_shl_u32_3_by_31", 4, 16, "arithmetic"},
    {"const_shl_u32_by_32", 4, 16, "arithmetic"},
    {"const_shr_u32_by_32", 4, 16, "arithmetic"},
    {"const_div_abstract_int_by_zero", 4, 15, "arithmetic"},
    {"const_div_i32_by_zero", 4, 16, "arithmetic"},
    {"let_div_i32_by_zero_constexpr", 4, 14, "arithmetic"},
    {"const_rem_i32_by_zero", 4, 16, "arithmetic"},
    {"const_div_u32_by_zero", 4, 16, "arithmetic"},
    {"const_div_i32_min_by_minus1", 4, 30, "arithmetic"},
    {"const_rem_i32_min_by_minus1", 4, 30, "arithmetic"},
    {"const_div_f32_by_zero", 4, 18, "arithmetic"},
    {"const_zero_div_zero_f32", 4, 18, "arithmetic"},
    {"const_div_abstract_float_by_zero", 4, 17, "arithmetic"},
    {"const_f32_mul_overflow", 4, 21, "arithmetic"},
    {"literal_1e39f", 4, 11, "literal"},
    {"f32_of_abstract_1e39", 4, 11, "conversion-rank"},
    {"const_sqrt_negative", 4, 13, "const-eval"},
    {"const_log_zero", 4, 13, "const-eval"},
    {"const_bitcast_nan", 4, 13, "bitcast-builtin"},
    {"const_exp_overflow", 4, 13, "const-eval"},
    {"const_array_index_oob", 5, 12, "array-access-expr"},
    {"let_array_const_index_oob", 5, 12, "array-access-expr"},
    {"var_array_const_index_oob_write", 5, 5, "array-access-expr"},
    {"var_array_const_index_negative", 5, 12, "array-access-expr"},
    {"runtime_sized_array_const_index_negative", 4, 5, "array-access-expr"},
    {"vec4_const_index_4", 5, 25, "array-access-expr"},
    {"mat2x2_const_index_2", 5, 25, "array-access-expr"},
    {"const_extractBits_offset_plus_count_gt_32", 4, 13, "const-eval"},
    {"const_ldexp_overflow", 4, 13, "const-eval"},
};

static void unescape(char *s)
{
    char *o = s;
    for (; *s; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
        } else {
            *o++ = *s;
        }
    }
    *o = 0;
}

static void test_wgslexpr_validate(void **s)
{
    (void)s;
    char path[4096];
    FILE *f = fopen(data_path(path, sizeof path, "wgslexpr-validate.tsv"), "r");
    assert_non_null(f);
    static char line[1 << 16];
    unsigned total[2] = {0, 0}, equal[2] = {0, 0}, unsup[2] = {0, 0};
    const char *impls[2] = {"lavapipe", "nvidia"};
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = 0;
        char *impl = strtok(line, "\t"), *id = strtok(NULL, "\t"), *out = strtok(NULL, "\t"),
             *src = strtok(NULL, "\t");
        assert_non_null(src);
        unescape(src);
        int w = !strcmp(impl, "nvidia");
        const char *name = id + strlen("validate.");
        total[w]++;
        const unsupported *u = unsupported_find(name);
        unsup[w] += u != NULL;
        equal[w] += verdict(impl, id, src, !strcmp(out, "valid"),
                            pin_find(VALIDATE_PINS, sizeof VALIDATE_PINS / sizeof VALIDATE_PINS[0],
                                     name),
                            NULL, NULL, 0, false);
    }
    fclose(f);
    for (int w = 0; w < 2; w++)
        printf("wgslexpr %s validate: %u of %u verdicts equal to Dawn's (%u of them for a "
               "reason stex gives because it lacks a feature: UNSUPPORTED)\n",
               impls[w], equal[w], total[w], unsup[w]);
    for (size_t i = 0; UNSUPPORTED[i].name; i++)
        printf("  unsupported: %s: %s\n", UNSUPPORTED[i].name, UNSUPPORTED[i].reason);
    assert_int_equal(total[0], 78);
    assert_int_equal(total[1], 42);
    assert_int_equal(equal[0], total[0]);
    assert_int_equal(equal[1], total[1]);
}

/* WebGPU: every binding the shader uses must be visible to COMPUTE in an
 * explicit layout; an entry it does not use may be visible elsewhere only
 * (a layout shared with render pipelines). */
static void test_layout_visibility(void **s)
{
    (void)s;
    static const char SRC[] = "@group(0) @binding(0) var<storage, read_write> v : array<u32>;\n"
                              "@compute @workgroup_size(1) fn main() { v[0] = 1u; }\n";
    stex_adapter *a;
    stex_device *dev;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, &dev), STEX_OK);
    stex_wgsl_module *m;
    assert_int_equal(stex_wgsl_module_create(SRC, "v.wgsl", &m), STEX_OK);
    stex_layout_entry e[2] = {
        {.binding = 0, .visibility = STEX_STAGE_COMPUTE, .type = STEX_BINDING_STORAGE_BUFFER},
        {.binding = 5, .visibility = STEX_STAGE_FRAGMENT, .type = STEX_BINDING_STORAGE_BUFFER}};
    stex_wgsl_options o = {.layout = e, .layout_count = 2};
    stex_pipeline *p;
    if (stex_wgsl_pipeline_create(dev, m, "main", &o, &p))
        fail_msg("an unused fragment-only entry refused: %s", stex_last_error());
    stex_pipeline_destroy(p);
    e[0].visibility = STEX_STAGE_FRAGMENT;
    assert_int_equal(stex_wgsl_pipeline_create(dev, m, "main", &o, &p), STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "[layout-visibility]"));
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

/* WebGPU's "validating shader binding": a storage texture entry's access
 * "read-write" takes a variable declared read_write or write; "write-only"
 * only write. */
static void test_layout_storage_access(void **s)
{
    (void)s;
    static const char *const SRC[] = {
        "@group(0) @binding(0) var t : texture_storage_2d<r32float, write>;\n"
        "@compute @workgroup_size(1) fn main() { textureStore(t, vec2i(0), vec4f(1.0)); }\n",
        "@group(0) @binding(0) var t : texture_storage_2d<r32float, read_write>;\n"
        "@compute @workgroup_size(1) fn main() { textureStore(t, vec2i(0), vec4f(1.0)); }\n"};
    /* [shader][layout access]: write-only, read-write */
    static const bool valid[2][2] = {{true, true}, {false, true}};
    static const stex_access access[2] = {STEX_ACCESS_WRITE_ONLY, STEX_ACCESS_READ_WRITE};
    stex_adapter *a;
    stex_device *dev;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, NULL, &dev), STEX_OK);
    for (int k = 0; k < 2; k++) {
        stex_wgsl_module *m;
        assert_int_equal(stex_wgsl_module_create(SRC[k], "t.wgsl", &m), STEX_OK);
        for (int j = 0; j < 2; j++) {
            stex_layout_entry e = {.binding = 0, .visibility = STEX_STAGE_COMPUTE,
                                   .type = STEX_BINDING_STORAGE_TEXTURE,
                                   .storage_texture = {.access = access[j],
                                                       .format = STEX_FORMAT_R32FLOAT}};
            stex_wgsl_options o = {.layout = &e, .layout_count = 1};
            stex_pipeline *p = NULL;
            stex_status st = stex_wgsl_pipeline_create(dev, m, "main", &o, &p);
            if ((st == STEX_OK) != valid[k][j])
                fail_msg("shader %s, layout %s: %s", k ? "read_write" : "write",
                         stex_access_name(access[j]), st ? stex_last_error() : "accepted");
            if (st)
                assert_non_null(strstr(stex_last_error(), "[layout-storage-texture-access]"));
            stex_pipeline_destroy(p);
        }
        stex_wgsl_module_destroy(m);
    }
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_access_shaders_and_layouts),
        cmocka_unit_test(test_layout_visibility),
        cmocka_unit_test(test_layout_storage_access),
        cmocka_unit_test(test_wgslexpr_validate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
