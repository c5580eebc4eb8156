/* Every WGSL module the peer harness's tests create (tests/data/
 * peer-wgsl.txt.gz, dumped from its createShaderModule calls by
 * tools/dump-peer-wgsl.sh, with Dawn's verdict on lavapipe) through stex's
 * front end and interpreter:
 *  - a module Dawn refused (`error`) must be refused, with an error on the
 *    line of Dawn's first error;
 *  - a module whose pipeline (layout 'auto') Dawn refused (`pipeline-error`)
 *    must compile and its pipeline be refused;
 *  - a module Dawn accepted (`valid`) must compile, and every entry point
 *    must make a pipeline with layout 'auto' and run one workgroup on
 *    resources made from its reflection (buffers of the binding's minimum
 *    size or more, 8x8 textures of the binding's format and dimension),
 *    under every profile.
 * Where Dawn's constant evaluation departs from WGSL (dawn_departure) its
 * first error may be on a line stex evaluates; those modules are counted by
 * kind, and no more than measured may occur.
 * Pipelines are made on a device with the features the harness's device
 * had (the corpus's first line), or none for the modules it made on its
 * second, featureless device.
 * What the modules compute is checked elsewhere (conversion, kernels, eval);
 * this test holds stex to the whole language the harness speaks.  The
 * lessons' WGSL (tests/data/lesson-wgsl.txt) goes through the same checks,
 * with the lessons' own verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <math.h>

#include <cmocka.h>
#include <zlib.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"
#include "wgsl_resources.h"

typedef enum verdict { VALID, MODULE_ERROR, PIPELINE_ERROR } verdict;

typedef struct corpus_module {
    char name[64];
    verdict dawn;
    bool no_features; /* made on the harness's device without optional features */
    unsigned line;    /* MODULE_ERROR: the line of Dawn's first error */
    char *code;
} corpus_module;

/* the features of the harness's main device (the corpus's first line) */
static uint32_t dawn_features;

/* Reads "# device-features: LIST", then the records "=== NAME VERDICT
 * DEVICE" each followed by the module's text. */
static corpus_module *read_corpus(const char *file, size_t *count)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", file);
    gzFile f = gzopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s (STEX_TEST_DATA)", path);
    size_t cap = 64, n = 0, len = 0, textcap = 0;
    corpus_module *m = calloc(cap, sizeof *m);
    static char line[65536];
    static const char FEATURES[] = "# device-features: ";
    if (!gzgets(f, line, sizeof line) || strncmp(line, FEATURES, strlen(FEATURES)))
        fail_msg("%s: the first line must be '%s...'", path, FEATURES);
    line[strcspn(line, "\n")] = 0;
    const char *bad;
    if (!stex_features_parse(line + strlen(FEATURES), &dawn_features, &bad))
        fail_msg("%s: unknown feature '%s'", path, bad);
    while (gzgets(f, line, sizeof line)) {
        if (line[0] == '#' && n == 0)
            continue; /* notes before the first module */
        if (!strncmp(line, "=== ", 4)) {
            if (n == cap)
                m = realloc(m, (cap *= 2) * sizeof *m);
            char v[16] = "", dev[16] = "";
            unsigned col;
            int k = sscanf(line + 4, "%63s %15s %15s %u:%u", m[n].name, v, dev, &m[n].line, &col);
            assert_true(k == 3 || (k == 5 && !strcmp(v, "error")));
            assert_true(!strcmp(dev, "features") || !strcmp(dev, "no-features"));
            m[n].no_features = !strcmp(dev, "no-features");
            if (!strcmp(v, "valid"))
                m[n].dawn = VALID;
            else if (!strcmp(v, "error"))
                m[n].dawn = MODULE_ERROR;
            else if (!strcmp(v, "pipeline-error"))
                m[n].dawn = PIPELINE_ERROR;
            else
                fail_msg("%s: unknown verdict '%s'", m[n].name, v);
            m[n].code = calloc(1, textcap = 4096);
            len = 0;
            n++;
            continue;
        }
        assert_true(n > 0);
        size_t l = strlen(line);
        if (len + l + 1 > textcap)
            m[n - 1].code = realloc(m[n - 1].code, textcap = 2 * (len + l + 1));
        memcpy(m[n - 1].code + len, line, l + 1);
        len += l;
    }
    gzclose(f);
    *count = n;
    return m;
}

/* Line n (1-based) of text, without its newline, into out. */
static void line_of(const char *text, unsigned n, char *out, size_t size)
{
    for (; n > 1 && text; n--)
        if ((text = strchr(text, '\n')))
            text++;
    size_t len = text ? strcspn(text, "\n") : 0;
    snprintf(out, size, "%.*s", (int)(len < size ? len : size - 1), text ? text : "");
}

/* A literal operand: a number, maybe in parentheses; *p moves past it. */
static bool literal(const char **p, double *v)
{
    const char *s = *p + (**p == '(');
    char *end;
    *v = strtod(s, &end);
    if (end == s)
        return false;
    end += *end == 'f';
    end += *end == ')';
    *p = end;
    return true;
}

/* Where Dawn's const evaluator departs from WGSL, as tests/math/
 * const_explain.h names the same differences row by row; each is a module
 * whose first error Dawn reports on a line WGSL evaluates without error:
 *  - REM: Dawn computes an f32 `x % y` as x - y * trunc(x / y) in f32 and
 *    fails where x / y overflows; WGSL's value is exact and finite;
 *  - FMA: Dawn's fma(a, b, c) rounds a * b, then adds, and fails where the
 *    product overflows; WGSL's fma rounds once.
 * Recognised from the line `const r0 : f32 = ...;` with literal operands. */
typedef enum departure { NONE, REM, FMA } departure;

static departure dawn_departure(const char *line)
{
    const char *p = strstr(line, ": f32 = ");
    if (!p)
        return NONE;
    p += 8;
    double x, y, z;
    if (!strncmp(p, "fma(", 4)) {
        p += 4;
        if (!literal(&p, &x) || strncmp(p, ", ", 2) || (p += 2, !literal(&p, &y)) ||
            strncmp(p, ", ", 2) || (p += 2, !literal(&p, &z)))
            return NONE;
        return isinf((float)(x * y)) ? FMA : NONE; /* x * y is exact in double */
    }
    if (!literal(&p, &x) || strncmp(p, " % ", 3) || (p += 3, !literal(&p, &y)) || y == 0)
        return NONE;
    return fabs(x / y) > FLT_MAX ? REM : NONE;
}

/* modules measured: at most this many of each departure */
static const unsigned DEPARTURE_MAX[] = {[REM] = 19, [FMA] = 1};

/* One workgroup of entry point ep on device d; false (with a message) when
 * stex refuses or fails. */
static bool run_entry(stex_device *d, const stex_wgsl_module *m, const stex_wgsl_entry_point *ep,
                      const char *name, bool refuse)
{
    stex_pipeline *p;
    stex_wgsl_options o = {.subgroup_width = 8, .max_steps = 10000000};
    if (stex_wgsl_pipeline_create(d, m, ep->name, &o, &p)) {
        if (!refuse)
            print_error("%s: pipeline %s: %s\n", name, ep->name, stex_last_error());
        return refuse;
    }
    if (refuse) {
        print_error("%s: Dawn refuses the pipeline of %s, stex makes it\n", name, ep->name);
        stex_pipeline_destroy(p);
        return false;
    }
    enum { MAX = 32 };
    assert_true(ep->entry_count <= MAX);
    resource res[MAX];
    stex_bind_group_entry be[4][MAX];
    uint32_t nbe[4] = {0};
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        const stex_layout_entry *e = &ep->entries[i];
        assert_true(e->group < 4);
        make_resource(d, e, &res[i], &be[e->group][nbe[e->group]++]);
    }
    stex_bind_group *groups[4] = {0};
    stex_bound_group bound[4] = {{0}};
    uint32_t ngroups = 0;
    bool ok = true;
    for (uint32_t g = 0; g < 4; g++) {
        if (!nbe[g])
            continue;
        if (stex_bind_group_create_in_group(p, g, be[g], nbe[g], &groups[g])) {
            print_error("%s: bind group %u: %s\n", name, g, stex_last_error());
            ok = false;
        }
        bound[g].group = groups[g];
        ngroups = g + 1;
    }
    if (ok && stex_dispatch_bound(p, bound, ngroups, 1, 1, 1, NULL)) {
        print_error("%s: dispatch of %s: %s\n", name, ep->name, stex_last_error());
        ok = false;
    }
    for (uint32_t g = 0; g < 4; g++)
        stex_bind_group_destroy(groups[g]);
    for (uint32_t i = 0; i < ep->entry_count; i++)
        free_resource(&res[i]);
    stex_pipeline_destroy(p);
    return ok;
}

static void check_corpus(const char *file)
{
    size_t n;
    corpus_module *mods = read_corpus(file, &n);
    unsigned valid = 0, refused = 0, pipe_refused = 0, ran = 0, bad = 0;
    unsigned departures[3] = {0};
    for (size_t i = 0; i < n; i++) {
        stex_wgsl_module *m;
        bool compiled = stex_wgsl_module_create(mods[i].code, mods[i].name, &m) == STEX_OK;
        char dawn_line[512]; /* the line of Dawn's first error */
        line_of(mods[i].code, mods[i].line, dawn_line, sizeof dawn_line);
        departure dep = mods[i].line ? dawn_departure(dawn_line) : NONE;
        if (compiled && mods[i].dawn == MODULE_ERROR && dep) {
            departures[dep]++; /* the module's only error is Dawn's departure */
            valid++;
        } else if (compiled != (mods[i].dawn != MODULE_ERROR)) {
            print_error("%s: Dawn %s it, stex %s\n%s\n", mods[i].name,
                        compiled ? "refuses" : "compiles", compiled ? "compiles it" : "refuses it",
                        compiled ? "" : stex_wgsl_module_diagnostics(m));
            bad++;
        } else if (!compiled) {
            assert_true(stex_wgsl_module_error_count(m) > 0);
            char at[96];
            snprintf(at, sizeof at, "%s:%u:", mods[i].name, mods[i].line);
            if (mods[i].line && !strstr(stex_wgsl_module_diagnostics(m), at) && dep) {
                departures[dep]++; /* stex reports the module's next error instead */
                refused++;
            } else if (mods[i].line && !strstr(stex_wgsl_module_diagnostics(m), at)) {
                print_error("%s: Dawn's first error is on line %u, stex reports\n%s\n",
                            mods[i].name, mods[i].line, stex_wgsl_module_diagnostics(m));
                bad++;
            } else
                refused++;
        } else {
            valid++;
            /* the pipeline verdict on the profile of the measuring device; runs on all */
            for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++) {
                bool refuse = mods[i].dawn == PIPELINE_ERROR;
                if (refuse && prof != STEX_PROFILE_LAVAPIPE)
                    continue;
                stex_adapter *a;
                stex_device_desc dd = {.required_features =
                                           mods[i].no_features ? 0 : dawn_features};
                stex_device *d = fixture_device_desc((stex_profile_id)prof, &dd, &a);
                for (uint32_t k = 0; k < stex_wgsl_entry_point_count(m); k++) {
                    bool ok = run_entry(d, m, stex_wgsl_entry_point_at(m, k), mods[i].name, refuse);
                    bad += !ok;
                    ran += ok && !refuse;
                    pipe_refused += ok && refuse;
                }
                stex_device_destroy(d);
                stex_adapter_destroy(a);
            }
        }
        stex_wgsl_module_destroy(m);
        free(mods[i].code);
    }
    free(mods);
    printf("  %zu modules: %u compile, %u refused as expected, %u pipelines refused "
           "as expected, %u entry-point runs, %u wrong\n", n, valid, refused,
           pipe_refused, ran, bad);
    printf("  Dawn's first error is where WGSL's value is finite: an f32 %% whose quotient "
           "overflows in %u modules, an fma whose product overflows in %u\n", departures[REM],
           departures[FMA]);
    assert_true(departures[REM] <= DEPARTURE_MAX[REM]);
    assert_true(departures[FMA] <= DEPARTURE_MAX[FMA]);
    assert_true(n > 0);
    assert_int_equal(bad, 0);
}

static void test_peer_modules(void **state)
{
    (void)state;
    check_corpus("peer-wgsl.txt.gz");
}

/* The lessons' WGSL (tests/data/lesson-wgsl.txt, plain text: gzopen reads
 * it as it is), each snippet made a whole module with what its first line
 * says was added; the verdicts and error lines are the lessons'. */
static void test_lesson_modules(void **state)
{
    (void)state;
    check_corpus("lesson-wgsl.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peer_modules),
        cmocka_unit_test(test_lesson_modules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
