/* WGSL programs run on stex under the lavapipe profile against the bytes
 * Dawn on lavapipe gave for them (tools/difftest measured them; its README
 * gives the commands).  Two sources:
 *   tests/data/difftest/regress/ *.wgsl - one program each: the reduced
 *       programs that once gave other bytes on stex, one per fixed bug
 *       (tests/data/difftest/known/ keeps those stex does not match yet;
 *       this test leaves them out);
 *   tests/data/difftest/corpus.wgsl.gz - random programs of
 *       tools/difftest/gen.mjs, many cases, each opened by "//! case NAME".
 *
 * A case is WGSL with a header of "//!" lines (tools/difftest/README.md):
 *   //! dispatch X Y Z      workgroups of entry point "main"
 *   //! out N               @binding(0): var<storage, read_write> array<u32, N>, zeros
 *   //! in M                @binding(1): var<storage, read> array<u32, M>,
 *                           word i = i * 2654435761 mod 2^32
 *   //! uniform U           @binding(2): var<uniform>, U words filled as `in`
 *   //! features A,B        GPUFeatureNames the device is created with
 *   //! expect W0 W1 ...    binding 0 afterwards on Dawn, hex words; "error":
 *                           Dawn refused the module or pipeline
 * Every mismatch is printed before the test fails, so one run lists them all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <zlib.h>

#include "stex/stex.h"
#include "wgsl_fixture.h"

typedef struct dt_case {
    char name[128];
    uint32_t groups[3];
    uint32_t nout, nin, nuniform;
    uint32_t features;
    bool expect_error;
    uint32_t *expect; /* nout words */
    uint32_t nexpect;
} dt_case;

/* Reads the "//!" header of one case; false with *why set when malformed. */
static bool parse_header(const char *src, dt_case *c, const char **why)
{
    memset(c->groups, 0, sizeof c->groups);
    c->nout = c->nin = c->nuniform = c->nexpect = c->features = 0;
    c->expect_error = false;
    c->expect = NULL;
    for (const char *l = src; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        if (strncmp(l, "//! ", 4))
            continue;
        const char *v = l + 4;
        if (!strncmp(v, "dispatch ", 9)) {
            if (sscanf(v + 9, "%u %u %u", &c->groups[0], &c->groups[1], &c->groups[2]) != 3)
                return *why = "dispatch needs three counts", false;
        } else if (!strncmp(v, "out ", 4)) {
            c->nout = (uint32_t)strtoul(v + 4, NULL, 10);
        } else if (!strncmp(v, "features ", 9)) {
            char list[256];
            const char *bad;
            if (sscanf(v + 9, "%255s", list) != 1 || !stex_features_parse(list, &c->features, &bad))
                return *why = "unknown feature", false;
        } else if (!strncmp(v, "uniform ", 8)) {
            c->nuniform = (uint32_t)strtoul(v + 8, NULL, 10);
        } else if (!strncmp(v, "in ", 3)) {
            c->nin = (uint32_t)strtoul(v + 3, NULL, 10);
        } else if (!strncmp(v, "expect ", 7)) {
            v += 7;
            if (!strncmp(v, "error", 5)) {
                c->expect_error = true;
                continue;
            }
            free(c->expect);
            c->expect = calloc(c->nout ? c->nout : 1, sizeof *c->expect);
            assert_non_null(c->expect);
            char *end;
            while (c->nexpect < c->nout) {
                unsigned long w = strtoul(v, &end, 16);
                if (end == v)
                    break;
                c->expect[c->nexpect++] = (uint32_t)w;
                v = end;
            }
        }
    }
    if (!c->nout)
        return *why = "no '//! out N' line", false;
    if (!c->expect_error && c->nexpect != c->nout)
        return *why = "'//! expect' does not hold N words", false;
    if (!c->expect_error && !(c->groups[0] && c->groups[1] && c->groups[2]))
        return *why = "no '//! dispatch X Y Z' line", false;
    return true;
}

static stex_buffer *make_buffer(stex_device *dev, uint32_t words, uint32_t usage)
{
    stex_buffer *b;
    stex_buffer_desc bd = {.size = (uint64_t)words * 4, .usage = usage};
    assert_int_equal(stex_buffer_create(dev, &bd, &b), STEX_OK);
    return b;
}

/* An input buffer: word i = i * 2654435761 mod 2^32. */
static stex_buffer *make_input(stex_device *dev, uint32_t words, uint32_t usage)
{
    stex_buffer *b = make_buffer(dev, words, usage);
    uint32_t *w = (uint32_t *)(void *)stex_buffer_data(b);
    for (uint32_t i = 0; i < words; i++)
        w[i] = i * 2654435761u;
    return b;
}

/* Runs one case under the lavapipe profile; prints and returns false on a
 * difference from Dawn's bytes. */
static bool run_case(const char *src, const dt_case *c)
{
    stex_adapter *a;
    stex_device *dev = fixture_device_desc(STEX_PROFILE_LAVAPIPE,
                                           &(stex_device_desc){.required_features = c->features}, &a);
    stex_wgsl_module *m = NULL;
    stex_pipeline *p = NULL;
    bool ok = true;
    stex_status st = stex_wgsl_module_create_for(stex_device_profile(dev), src, c->name, &m);
    /* lavapipe runs 8 invocations in lock step; the width changes nothing
     * for a program without races, which the generator writes */
    stex_wgsl_options o = {.subgroup_width = 8, .max_steps = 1u << 24};
    if (!st)
        st = stex_wgsl_pipeline_create(dev, m, "main", &o, &p);
    if (st) {
        if (!c->expect_error) {
            printf("%s: refused, Dawn ran it: %s\n", c->name,
                   m && stex_wgsl_module_error_count(m) ? stex_wgsl_module_diagnostics(m)
                                                         : stex_last_error());
            ok = false;
        }
    } else if (c->expect_error) {
        printf("%s: accepted, Dawn refused it\n", c->name);
        ok = false;
    } else {
        stex_buffer *out = make_buffer(dev, c->nout,
                                       STEX_BUFFER_USAGE_STORAGE | STEX_BUFFER_USAGE_COPY_SRC);
        stex_buffer *in = NULL, *uni = NULL;
        stex_bind_group_entry be[3] = {{.binding = 0, .buffer = out}};
        uint32_t nb = 1;
        if (c->nin) {
            in = make_input(dev, c->nin, STEX_BUFFER_USAGE_STORAGE);
            be[nb++] = (stex_bind_group_entry){.binding = 1, .buffer = in};
        }
        if (c->nuniform) {
            uni = make_input(dev, c->nuniform, STEX_BUFFER_USAGE_UNIFORM);
            be[nb++] = (stex_bind_group_entry){.binding = 2, .buffer = uni};
        }
        stex_bind_group *g;
        if (stex_bind_group_create(p, be, nb, &g)) {
            printf("%s: createBindGroup: %s\n", c->name, stex_last_error());
            ok = false;
        } else {
            stex_dispatch_options d = {.schedule = STEX_SCHEDULE_SHUFFLED, .seed = 1,
                                       .threads = 2};
            if (stex_dispatch(p, g, c->groups[0], c->groups[1], c->groups[2], &d)) {
                printf("%s: dispatch: %s\n", c->name, stex_last_error());
                ok = false;
            } else {
                const uint32_t *w = (const uint32_t *)(const void *)stex_buffer_data(out);
                for (uint32_t i = 0; i < c->nout && ok; i++)
                    if (w[i] != c->expect[i]) {
                        printf("%s: out[%u] = 0x%08x, Dawn 0x%08x\n", c->name, i, w[i],
                               c->expect[i]);
                        ok = false;
                    }
            }
            stex_bind_group_destroy(g);
        }
        stex_buffer_destroy(out);
        stex_buffer_destroy(in);
        stex_buffer_destroy(uni);
    }
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
    return ok;
}

static bool check_source(const char *name, const char *src)
{
    dt_case c;
    const char *why = "";
    snprintf(c.name, sizeof c.name, "%s", name);
    if (!parse_header(src, &c, &why)) {
        printf("%s: malformed case: %s\n", name, why);
        free(c.expect);
        return false;
    }
    bool ok = run_case(src, &c);
    free(c.expect);
    return ok;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every reduced program of a fixed bug. */
static void test_regressions(void **s)
{
    (void)s;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/difftest/regress", getenv("STEX_TEST_DATA"));
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    assert_true(n > 0);
    uint32_t cases = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        const char *nm = ents[i]->d_name;
        size_t len = strlen(nm);
        if (len > 5 && !strcmp(nm + len - 5, ".wgsl")) {
            char path[2048];
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            char *src = read_file(path);
            assert_non_null(src);
            cases++;
            bad += !check_source(nm, src);
            free(src);
        }
        free(ents[i]);
    }
    free(ents);
    printf("regress: %u cases, %u differ from Dawn\n", cases, bad);
    assert_true(cases > 0);
    assert_int_equal(bad, 0);
}

/* The stored random programs, one "//! case" after another. */
static void test_corpus(void **s)
{
    (void)s;
    char path[1024];
    snprintf(path, sizeof path, "%s/difftest/corpus.wgsl.gz", getenv("STEX_TEST_DATA"));
    gzFile f = gzopen(path, "rb");
    if (!f)
        skip(); /* not measured yet */
    size_t cap = 1 << 20, len = 0;
    char *all = malloc(cap);
    assert_non_null(all);
    int got;
    while ((got = gzread(f, all + len, (unsigned)(cap - len - 1))) > 0) {
        len += (size_t)got;
        if (cap - len < 2) {
            all = realloc(all, cap *= 2);
            assert_non_null(all);
        }
    }
    gzclose(f);
    all[len] = 0;
    uint32_t cases = 0, bad = 0;
    char *p = strstr(all, "//! case ");
    while (p) {
        char *next = strstr(p + 1, "\n//! case ");
        if (next)
            *next++ = 0;
        char name[128] = "";
        sscanf(p + 9, "%127s", name);
        cases++;
        bad += !check_source(name, p);
        p = next;
    }
    free(all);
    printf("corpus: %u cases, %u differ from Dawn\n", cases, bad);
    assert_true(cases > 0);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regressions),
        cmocka_unit_test(test_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
