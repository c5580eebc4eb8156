/* stex race --html: the page is one file that names nothing outside
 * itself, its data (one JSON object) holds what the command line asked for,
 * and no shader text can end the data's <script> element.  What the page
 * shows in a browser: tests/browser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"

/* The JSON object inside <script id="stex-data">, parsed. */
static json_t *page_data(const char *html)
{
    const char *open = "<script id=\"stex-data\" type=\"application/json\">";
    const char *at = strstr(html, open);
    assert_non_null(at);
    at += strlen(open);
    const char *end = strstr(at, "</script>");
    assert_non_null(end);
    json_error_t je;
    json_t *j = json_loadb(at, (size_t)(end - at), 0, &je);
    if (!j)
        fail_msg("the page's data is not JSON: %s (line %d)", je.text, je.line);
    return j;
}

/* Nothing fetched: no src/href to another place, no @import or url(http. */
static void assert_self_contained(const char *html)
{
    assert_null(strstr(html, "src=\"http"));
    assert_null(strstr(html, "href=\"http"));
    assert_null(strstr(html, "src=\"//"));
    assert_null(strstr(html, "@import"));
    assert_null(strstr(html, "url(http"));
}

static void test_race_html_difundir(void **state)
{
    (void)state;
    char page[512];
    path_in(page, sizeof page, "difundir.html");
    cli_result r = run_stex("race difundir --size 16x16 --runs 4 --iterations 3 --threads 1 "
                            "--html '%s'", page);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "report: "));
    char *html = cli_slurp_text(page);
    assert_self_contained(html);
    json_t *d = page_data(html);
    assert_int_equal(json_integer_value(json_object_get(d, "width")), 16);
    assert_int_equal(json_integer_value(json_object_get(d, "height")), 16);
    assert_string_equal(json_string_value(json_object_get(d, "format")), "r32float");
    assert_string_equal(json_string_value(json_object_get(d, "output")), "texture");
    /* one frame per dispatch: --iterations 3 */
    json_t *frames = json_object_get(d, "frames");
    assert_int_equal(json_array_size(frames), 3);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(json_array_size(json_object_get(json_array_get(frames, i), "values")),
                         256);
    /* at most 4 outputs drawn, as many as the distinct outputs up to 4; the
     * runs they stand for add up to at most --runs */
    json_t *images = json_object_get(d, "images"), *distinct = json_object_get(d, "distinct");
    size_t ni = json_array_size(images);
    assert_true(ni >= 1 && ni <= 4);
    assert_int_equal(ni, json_array_size(distinct) < 4 ? json_array_size(distinct) : 4);
    assert_int_equal(json_array_size(json_object_get(d, "differs")), 256);
    assert_int_equal(json_array_size(json_object_get(d, "flagged")), 256);
    /* the shader's text, byte for byte as in the source tree */
    json_t *src = json_array_get(json_object_get(d, "sources"), 0);
    assert_string_equal(json_string_value(json_object_get(src, "name")), "difundir.wgsl");
    char wgsl[1024];
    snprintf(wgsl, sizeof wgsl, "%s/../../src/kernels/wgsl/difundir.wgsl", getenv("STEX_TEST_DATA"));
    char *text = cli_slurp_text(wgsl);
    assert_string_equal(json_string_value(json_object_get(src, "text")), text);
    /* every race kept is on a texel of the 16x16 texture, named in the source */
    json_t *list = json_object_get(json_object_get(d, "races"), "list"), *race;
    size_t i;
    assert_true(json_array_size(list) > 0);
    json_array_foreach(list, i, race) {
        json_t *c = json_object_get(race, "coord");
        assert_true(json_integer_value(json_array_get(c, 0)) < 16);
        assert_true(json_integer_value(json_array_get(c, 1)) < 16);
        const char *site = json_string_value(json_object_get(json_object_get(race, "a"), "source"));
        assert_non_null(site);
        assert_true(!strncmp(site, "difundir.wgsl:", 14));
    }
    free(text);
    json_decref(d);
    free(html);
    cli_free(&r);
}

/* A shader whose comment holds "</script>" and "<!--": the page still has
 * exactly its own two script elements, and the text comes back whole. */
/* One dispatch: a frame at the end of each barrier phase of each workgroup
 * (issue 25: a one-dispatch shader got one frame).  reduce.wgsl has one
 * workgroupBarrier, so each of its 4 workgroups ends 2 phases: 8 frames in
 * the schedule's order, each workgroup's barrier before its end, then the
 * dispatch done - which is the run's output. */
static void test_race_html_phase_frames(void **state)
{
    (void)state;
    char page[512], run[512], src[512];
    const char *names[2] = {"reduce.json", "reduce.wgsl"};
    for (int i = 0; i < 2; i++) {
        snprintf(src, sizeof src, "%s/race-shaders/%s", getenv("STEX_TEST_DATA"), names[i]);
        path_in(run, sizeof run, names[i]);
        size_t n;
        uint8_t *bytes = slurp(src, &n);
        assert_non_null(bytes);
        spit(run, bytes, n);
        free(bytes);
    }
    path_in(run, sizeof run, "reduce.json");
    path_in(page, sizeof page, "reduce.html");
    cli_result r = run_stex("race '%s' --runs 2 --threads 1 --html '%s'", run, page);
    assert_int_equal(r.code, 0);
    cli_free(&r);
    char *html = cli_slurp_text(page);
    json_t *d = page_data(html);
    json_t *frames = json_object_get(d, "frames");
    assert_int_equal(json_array_size(frames), 4 * 2 + 1);
    int barrier[4] = {0}, end[4] = {0};
    for (size_t i = 0; i < 8; i++) {
        const char *label = json_string_value(json_object_get(json_array_get(frames, i), "label"));
        assert_non_null(label);
        unsigned x;
        if (sscanf(label, "workgroup (%u, 0, 0) at its barrier, phase 0 done", &x) == 1) {
            assert_true(x < 4 && !end[x]);
            barrier[x]++;
        } else if (sscanf(label, "after workgroup (%u, 0, 0), its last phase (1)", &x) == 1) {
            assert_true(x < 4 && barrier[x] == 1);
            end[x]++;
        } else {
            fail_msg("frame %zu: %s", i, label);
        }
    }
    for (int k = 0; k < 4; k++)
        assert_true(barrier[k] == 1 && end[k] == 1);
    json_t *last = json_array_get(frames, 8);
    assert_string_equal(json_string_value(json_object_get(last, "label")), "the dispatch done");
    assert_true(json_equal(json_object_get(last, "values"),
                           json_object_get(json_array_get(json_object_get(d, "images"), 0),
                                           "values")));
    json_decref(d);
    free(html);
}

static void test_race_html_escapes_source(void **state)
{
    (void)state;
    static const char SHADER[] =
        "@group(0) @binding(0) var t : texture_storage_2d<r32float, read_write>;\n"
        "// </script><script>alert(1)</script> <!-- & -->\n"
        "@compute @workgroup_size(4, 4)\n"
        "fn main(@builtin(global_invocation_id) id : vec3<u32>) {\n"
        "  let c = vec2<i32>(id.xy);\n"
        "  textureStore(t, c, textureLoad(t, c + vec2<i32>(1, 0)) + vec4<f32>(1.0));\n"
        "}\n";
    char wgsl[512], page[512];
    path_in(wgsl, sizeof wgsl, "shift.wgsl");
    path_in(page, sizeof page, "shift.htm");
    FILE *f = fopen(wgsl, "w");
    assert_non_null(f);
    fputs(SHADER, f);
    fclose(f);
    cli_result r = run_stex("race '%s' --size 8x8 --runs 3 --html '%s'", wgsl, page);
    assert_int_equal(r.code, 0);
    char *html = cli_slurp_text(page);
    assert_self_contained(html);
    assert_int_equal(cli_count(html, "</script>"), 2);
    assert_null(strstr(html, "alert(1)</script>"));
    json_t *d = page_data(html);
    json_t *src = json_array_get(json_object_get(d, "sources"), 0);
    assert_string_equal(json_string_value(json_object_get(src, "text")), SHADER);
    /* reads of the right neighbour against its store: the racing line is 6 */
    json_t *list = json_object_get(json_object_get(d, "races"), "list");
    assert_true(json_array_size(list) > 0);
    const char *site = json_string_value(
        json_object_get(json_object_get(json_array_get(list, 0), "a"), "source"));
    assert_non_null(site);
    assert_non_null(strstr(site, ":6:"));
    json_decref(d);
    free(html);
    cli_free(&r);
}

static void test_race_html_refusals(void **state)
{
    (void)state;
    cli_result r = run_stex("race difundir --html report.png");
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "--html: 'report.png' must end in .html"));
    cli_free(&r);
    r = run_stex("race difundir --size 8x8 --runs 2 --html /nonexistent-dir/r.html");
    assert_int_not_equal(r.code, 0);
    assert_non_null(strstr(r.err, "cannot write '/nonexistent-dir/r.html'"));
    cli_free(&r);
    r = run_stex("race --help");
    assert_non_null(strstr(r.out, "--html FILE"));
    cli_free(&r);
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_race_html_difundir),
        cmocka_unit_test(test_race_html_phase_frames),
        cmocka_unit_test(test_race_html_escapes_source),
        cmocka_unit_test(test_race_html_refusals),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
