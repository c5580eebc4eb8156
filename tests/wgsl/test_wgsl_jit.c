/* The JIT (--executor jit, src/wgsl/jit*.c) against the interpreter, the
 * reference: every WGSL program this test reaches runs under both on the
 * same resources with the same initial bytes, under every profile and
 * lock-step widths 64 and 8 (the odd 5 for the reduced programs), with the
 * race detector on; afterwards every resource's bytes, the race report
 * (JSON: counts, locations, sites) and the statuses and messages must be
 * the same.  The programs:
 *   - tests/data/difftest: the reduced programs of regress/ and the random
 *     programs of corpus.wgsl.gz, each with its own dispatch size;
 *   - the lesson kernels' WGSL (src/kernels/wgsl) on their own resources
 *     and inputs, through stex_kernel_setup.create_pipeline;
 *   - the lessons' WGSL snippets (tests/data/lesson-wgsl.txt) and the peer
 *     harness's modules (tests/data/peer-wgsl.txt.gz), two workgroups on
 *     resources from their reflection (wgsl_resources.h), filled with a
 *     pattern so that loads read something.
 * Without LLVM (no STEX_HAVE_JIT) the JIT pipelines run on the
 * interpreter, and the test checks that and the notice.  It prints how
 * many pipelines the JIT compiled, how many fell back and why, and how
 * many instructions it compiled itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <dirent.h>
#include <zlib.h>

#include "stex/stex.h"
#include "wgsl/executor.h"
#include "wgsl_fixture.h"
#include "wgsl_resources.h"

/* the notices the library gave (a fallback, and why) */
static char notices[16][400];
static unsigned nnotices;

static void on_notice(void *user, const char *text)
{
    (void)user;
    if (nnotices < 16)
        snprintf(notices[nnotices++], sizeof notices[0], "%s", text);
}

typedef struct tally {
    unsigned runs, same, differ, refused;
} tally;

/* what one run left: statuses, messages, bytes, races */
typedef struct outcome {
    stex_status create, dispatch;
    char error[512];
    uint8_t *bytes;
    size_t size;
    char *races;
} outcome;

static void outcome_free(outcome *o)
{
    free(o->bytes);
    free(o->races);
    memset(o, 0, sizeof *o);
}

enum { MAXR = 32 };

/* One run of entry point ep of m under executor ex on resources res (their
 * initial bytes init first). */
static void run_one(stex_device *d, const stex_wgsl_module *m, const stex_wgsl_entry_point *ep,
                    uint32_t width, stex_wgsl_executor ex, const uint32_t groups[3],
                    resource *res, uint8_t *const *init, const size_t *sizes, outcome *o)
{
    memset(o, 0, sizeof *o);
    size_t total = 0;
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        size_t n;
        uint8_t *b = resource_bytes(&res[i], &n);
        if (b)
            memcpy(b, init[i], n);
        total += sizes[i];
    }
    stex_pipeline *p = NULL;
    stex_wgsl_options wo = {.subgroup_width = width, .max_steps = 1u << 22, .executor = ex};
    o->create = stex_wgsl_pipeline_create(d, m, ep->name, &wo, &p);
    if (o->create) {
        snprintf(o->error, sizeof o->error, "%s", stex_last_error());
        return;
    }
    stex_bind_group_entry be[4][MAXR];
    uint32_t nbe[4] = {0};
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        const stex_layout_entry *e = &ep->entries[i];
        resource *r = &res[i];
        be[e->group][nbe[e->group]++] = (stex_bind_group_entry){
            .binding = e->binding, .buffer = r->buffer, .view = r->view, .sampler = r->sampler};
    }
    stex_bind_group *bg[4] = {0};
    stex_bound_group bound[4] = {{0}};
    uint32_t ngroups = 0;
    for (uint32_t g = 0; g < 4; g++) {
        if (!nbe[g])
            continue;
        assert_int_equal(stex_bind_group_create_in_group(p, g, be[g], nbe[g], &bg[g]), STEX_OK);
        bound[g].group = bg[g];
        ngroups = g + 1;
    }
    stex_race_detector *rd;
    assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
    stex_dispatch_options dopt = {.schedule = STEX_SCHEDULE_IN_ORDER, .threads = 1, .races = rd};
    o->dispatch = stex_dispatch_bound(p, bound, ngroups, groups[0], groups[1], groups[2], &dopt);
    if (o->dispatch)
        snprintf(o->error, sizeof o->error, "%s", stex_last_error());
    o->races = stex_race_report_json_string(rd);
    o->bytes = malloc(total ? total : 1);
    assert_non_null(o->bytes);
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        size_t n;
        uint8_t *b = resource_bytes(&res[i], &n);
        if (b)
            memcpy(o->bytes + o->size, b, n);
        o->size += b ? n : 0;
    }
    stex_race_detector_destroy(rd);
    for (uint32_t g = 0; g < 4; g++)
        stex_bind_group_destroy(bg[g]);
    stex_pipeline_destroy(p);
}

/* Both executors on entry point ep; false (printed) when they differ. */
static bool identical(stex_device *d, const stex_wgsl_module *m, const stex_wgsl_entry_point *ep,
                      uint32_t width, const uint32_t groups[3], const char *name, tally *t)
{
    if (ep->entry_count > MAXR)
        return true;
    resource res[MAXR];
    uint8_t *init[MAXR];
    size_t sizes[MAXR];
    stex_bind_group_entry unused;
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        make_resource(d, &ep->entries[i], &res[i], &unused);
        uint8_t *b = resource_bytes(&res[i], &sizes[i]);
        init[i] = malloc(sizes[i] ? sizes[i] : 1);
        assert_non_null(init[i]);
        /* words i * 2654435761 in buffers; bytes of a slower pattern in
         * textures (their formats' every code: NaNs and infinities too) */
        for (size_t k = 0; k < sizes[i]; k++)
            init[i][k] = res[i].buffer ? (uint8_t)(((k / 4) * 2654435761u) >> (8 * (k % 4)))
                                       : (uint8_t)(k * 37 + i);
        (void)b;
    }
    outcome a, b;
    run_one(d, m, ep, width, STEX_WGSL_EXECUTOR_INTERPRETER, groups, res, init, sizes, &a);
    run_one(d, m, ep, width, STEX_WGSL_EXECUTOR_JIT, groups, res, init, sizes, &b);
    bool same = a.create == b.create && a.dispatch == b.dispatch &&
                !strcmp(a.error, b.error) && a.size == b.size &&
                (!a.size || !memcmp(a.bytes, b.bytes, a.size)) &&
                (!a.races) == (!b.races) && (!a.races || !strcmp(a.races, b.races));
    t->runs++;
    if (a.create)
        t->refused++;
    if (same) {
        t->same++;
    } else {
        t->differ++;
        size_t at = 0;
        while (at < a.size && at < b.size && a.bytes[at] == b.bytes[at])
            at++;
        print_error("%s %s width %u: the JIT differs from the interpreter: status %d/%d "
                    "then %d/%d, error '%s' / '%s', first differing byte %zu of %zu, "
                    "races %s\n", name, ep->name, width, a.create, b.create, a.dispatch,
                    b.dispatch, a.error, b.error, at, a.size,
                    a.races && b.races && strcmp(a.races, b.races) ? "differ" : "same");
    }
    outcome_free(&a);
    outcome_free(&b);
    for (uint32_t i = 0; i < ep->entry_count; i++) {
        free(init[i]);
        free_resource(&res[i]);
    }
    return same;
}

/* Every entry point of src under every profile and each width; features
 * the device is made with. */
static void check_module(const char *src, const char *name, uint32_t features,
                         const uint32_t groups[3], const uint32_t *widths, uint32_t nwidths,
                         tally *t)
{
    for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++) {
        stex_adapter *a;
        stex_device *d = fixture_device_desc((stex_profile_id)prof,
                                             &(stex_device_desc){.required_features = features},
                                             &a);
        stex_wgsl_module *m = NULL;
        if (stex_wgsl_module_create_for(stex_device_profile(d), src, name, &m) == STEX_OK)
            for (uint32_t k = 0; k < stex_wgsl_entry_point_count(m); k++)
                for (uint32_t w = 0; w < nwidths; w++)
                    identical(d, m, stex_wgsl_entry_point_at(m, k), widths[w], groups, name, t);
        stex_wgsl_module_destroy(m);
        stex_device_destroy(d);
        stex_adapter_destroy(a);
    }
}

static void report(const char *what, const tally *t, clock_t t0)
{
    wg_executor_counts c;
    wg_executor_get_counts(&c);
    printf("%s: %u runs, %u identical, %u differ (%u refused by both); %.1f s\n", what, t->runs,
           t->same, t->differ, t->refused, (double)(clock() - t0) / CLOCKS_PER_SEC);
    printf("  so far: %llu JIT pipelines (%llu instructions compiled, %llu run by the "
           "interpreter's step), %llu on the interpreter\n",
           (unsigned long long)c.jit, (unsigned long long)c.native,
           (unsigned long long)c.stepped, (unsigned long long)c.fallback);
    for (unsigned k = 0; k < nnotices; k++)
        printf("  notice: %s\n", notices[k]);
}

/* the "//! dispatch X Y Z" and "//! features" of a difftest case */
static void difftest_header(const char *src, uint32_t groups[3], uint32_t *features)
{
    groups[0] = groups[1] = groups[2] = 1;
    *features = 0;
    const char *d = strstr(src, "//! dispatch ");
    if (d)
        sscanf(d + 13, "%u %u %u", &groups[0], &groups[1], &groups[2]);
    const char *f = strstr(src, "//! features ");
    char list[256];
    const char *bad;
    if (f && sscanf(f + 13, "%255s", list) == 1)
        stex_features_parse(list, features, &bad);
}

static char *read_gz(const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", getenv("STEX_TEST_DATA"), file);
    gzFile f = gzopen(path, "rb");
    if (!f)
        return NULL;
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
    return all;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* every k-th program of the two large corpora: STEX_JIT_STRIDE, else 1 (4
 * under AddressSanitizer, whose interpreter runs some ten times slower) */
static unsigned corpus_stride(void)
{
    const char *s = getenv("STEX_JIT_STRIDE");
    if (s && atoi(s) > 0)
        return (unsigned)atoi(s);
#ifdef __SANITIZE_ADDRESS__
    return 4;
#else
    return 1;
#endif
}

static const uint32_t WIDTHS[] = {64, 8};
static const uint32_t WIDTHS_ODD[] = {64, 8, 5};

/* tests/data/difftest/regress: each reduced program at three widths */
static void test_difftest_regress(void **s)
{
    (void)s;
    clock_t t0 = clock();
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/difftest/regress", getenv("STEX_TEST_DATA"));
    struct dirent **ents;
    int n = scandir(dir, &ents, NULL, by_name);
    assert_true(n > 0);
    tally t = {0};
    for (int i = 0; i < n; i++) {
        const char *nm = ents[i]->d_name;
        size_t len = strlen(nm);
        if (len > 5 && !strcmp(nm + len - 5, ".wgsl")) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", dir, nm);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            static char src[1 << 20];
            size_t got = fread(src, 1, sizeof src - 1, f);
            src[got] = 0;
            fclose(f);
            uint32_t groups[3], features;
            difftest_header(src, groups, &features);
            check_module(src, nm, features, groups, WIDTHS_ODD, 3, &t);
        }
        free(ents[i]);
    }
    free(ents);
    report("difftest regress", &t, t0);
    assert_true(t.runs > 0);
    assert_int_equal(t.differ, 0);
}

/* tests/data/difftest/corpus.wgsl.gz: every random program (every k-th:
 * corpus_stride) */
static void test_difftest_corpus(void **s)
{
    (void)s;
    clock_t t0 = clock();
    char *all = read_gz("difftest/corpus.wgsl.gz");
    if (!all)
        skip();
    unsigned stride = corpus_stride(), k = 0;
    tally t = {0};
    char *p = strstr(all, "//! case ");
    while (p) {
        char *next = strstr(p + 1, "\n//! case ");
        if (next)
            *next++ = 0;
        char name[128] = "";
        sscanf(p + 9, "%127s", name);
        if (k++ % stride == 0) {
            uint32_t groups[3], features;
            difftest_header(p, groups, &features);
            check_module(p, name, features, groups, WIDTHS, 2, &t);
        }
        p = next;
    }
    free(all);
    report("difftest corpus", &t, t0);
    assert_true(t.runs > 0);
    assert_int_equal(t.differ, 0);
}

/* "=== NAME valid features|no-features" records (peer-wgsl, lesson-wgsl):
 * the valid modules, two workgroups each */
static void check_records(const char *file, unsigned stride, tally *t)
{
    char *all = read_gz(file);
    assert_non_null(all);
    uint32_t features = 0;
    const char *bad;
    char list[512];
    if (sscanf(all, "# device-features: %511s", list) == 1)
        stex_features_parse(list, &features, &bad);
    static const uint32_t groups[3] = {2, 1, 1};
    unsigned k = 0;
    char *p = strstr(all, "\n=== ");
    while (p) {
        p++;
        char *next = strstr(p, "\n=== ");
        if (next)
            *next = 0;
        char name[128] = "", verdict[32] = "", dev[32] = "";
        sscanf(p + 4, "%127s %31s %31s", name, verdict, dev);
        char *code = strchr(p, '\n');
        if (code && !strcmp(verdict, "valid") && k++ % stride == 0)
            check_module(code + 1, name, strcmp(dev, "features") ? 0 : features, groups,
                         WIDTHS, 2, t);
        if (next)
            *next = '\n';
        p = next;
    }
    free(all);
}

static void test_lesson_snippets(void **s)
{
    (void)s;
    clock_t t0 = clock();
    tally t = {0};
    check_records("lesson-wgsl.txt", 1, &t);
    report("lesson snippets", &t, t0);
    assert_true(t.runs > 0);
    assert_int_equal(t.differ, 0);
}

static void test_peer_modules(void **s)
{
    (void)s;
    clock_t t0 = clock();
    tally t = {0};
    check_records("peer-wgsl.txt.gz", corpus_stride(), &t);
    report("peer modules", &t, t0);
    assert_true(t.runs > 0);
    assert_int_equal(t.differ, 0);
}

/* The operations the JIT compiles itself at their edges, which random
 * programs seldom reach: every comparison of equal and unequal i32, u32 and
 * f32 (zeros of both signs, NaN), integer division and remainder by zero
 * and of the least i32 by -1, shifts by 31 and more, min, clamp and abs at
 * the ends, conversions, selects and masked stores in divergent branches;
 * NaNs the host makes (inf - inf, 0 / 0), whose bits are each profile's:
 * the profiles whose code the JIT's cache shares must each get their own. */
static const char EDGES[] =
    "@group(0) @binding(0) var<storage, read_write> o: array<u32, 1664>;\n"
    "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) li: u32) {\n"
    "  let iv = array<i32, 8>(0, 1, -1, 2, -2147483647 - 1, 2147483647, 31, 33);\n"
    "  let uv = array<u32, 8>(0u, 1u, 4294967295u, 2u, 2147483648u, 31u, 32u, 33u);\n"
    "  let fv = array<f32, 8>(0.0, -0.0, 1.0, -1.0, 1e-45, 3.4e38, 0.5, 2.0);\n"
    "  let a = iv[li % 8u]; let b = iv[li / 8u];\n"
    "  let ua = uv[li % 8u]; let ub = uv[li / 8u];\n"
    "  var fa = fv[li % 8u]; var fb = fv[li / 8u];\n"
    "  if (li % 9u == 4u) { fa = fa / 0.0 - fa / 0.0; } // NaN in some lanes\n"
    "  let base = li * 26u;\n"
    "  o[base + 24u] = bitcast<u32>(fa * 1e38 * 10.0 - fb * 1e38 * 10.0);\n"
    "  o[base + 25u] = bitcast<u32>((fa - fa) / (fb - fb));\n"
    "  o[base + 0u] = u32(a < b) | (u32(a <= b) << 1u) | (u32(a > b) << 2u)\n"
    "      | (u32(a >= b) << 3u) | (u32(a == b) << 4u) | (u32(a != b) << 5u)\n"
    "      | (u32(ua < ub) << 6u) | (u32(ua <= ub) << 7u) | (u32(ua > ub) << 8u)\n"
    "      | (u32(ua >= ub) << 9u) | (u32(ua == ub) << 10u) | (u32(ua != ub) << 11u)\n"
    "      | (u32(fa < fb) << 12u) | (u32(fa <= fb) << 13u) | (u32(fa > fb) << 14u)\n"
    "      | (u32(fa >= fb) << 15u) | (u32(fa == fb) << 16u) | (u32(fa != fb) << 17u);\n"
    "  o[base + 1u] = u32(a / b); o[base + 2u] = u32(a % b);\n"
    "  o[base + 3u] = ua / ub; o[base + 4u] = ua % ub;\n"
    "  o[base + 5u] = u32(a << ub); o[base + 6u] = u32(a >> ub); o[base + 7u] = ua >> ub;\n"
    "  o[base + 8u] = u32(min(a, b)); o[base + 9u] = min(ua, ub);\n"
    "  o[base + 10u] = u32(clamp(a, -5, b)); o[base + 11u] = clamp(ua, 1u, ub | 1u);\n"
    "  o[base + 12u] = u32(abs(a)); o[base + 13u] = u32(-a) ^ ~ua;\n"
    "  o[base + 14u] = bitcast<u32>(f32(a)); o[base + 15u] = bitcast<u32>(f32(ua));\n"
    "  o[base + 16u] = bitcast<u32>(fa + fb); o[base + 17u] = bitcast<u32>(fa - fb);\n"
    "  o[base + 18u] = bitcast<u32>(fa * fb); o[base + 19u] = bitcast<u32>(fa / fb);\n"
    "  o[base + 20u] = bitcast<u32>(fa * fb + fa);\n"
    "  o[base + 21u] = select(ua, ub, a < b) + u32(!(a == 0));\n"
    "  var m = 7u;\n"
    "  if (a < b) { m = ua * 3u; } else if (ua == ub) { m = 9u; } else { m = ub - ua; }\n"
    "  o[base + 22u] = m;\n"
    "  var s = 0u;\n"
    "  for (var k = 0u; k < li % 5u; k++) { if (k == 2u) { continue; } s += k * ua; }\n"
    "  o[base + 23u] = s;\n"
    "}\n";

static void test_edges(void **s)
{
    (void)s;
    clock_t t0 = clock();
    tally t = {0};
    static const uint32_t groups[3] = {1, 1, 1};
    check_module(EDGES, "edges.wgsl", 0, groups, WIDTHS_ODD, 3, &t);
    report("edges", &t, t0);
    assert_int_equal(t.runs, 3 * STEX_PROFILE_COUNT);
    assert_int_equal(t.differ, 0);
}

/* ---- the lesson kernels on their own resources ---- */
typedef struct kernel_make {
    uint32_t width;
    stex_wgsl_executor ex;
} kernel_make;

static stex_status make_wgsl(void *user, stex_device *d, const stex_kernel_pass *pass,
                             stex_pipeline **out)
{
    const kernel_make *km = user;
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, pass->entry_point, &m);
    if (st) {
        stex_wgsl_module_destroy(m);
        return st;
    }
    stex_wgsl_options o = {.subgroup_width = km->width, .executor = km->ex};
    st = stex_wgsl_pipeline_create(d, m, pass->entry_point, &o, out);
    stex_wgsl_module_destroy(m);
    return st;
}

static void kernel_output(const stex_kernel *k, stex_profile_id prof, kernel_make *km,
                          uint8_t **bytes, size_t *size)
{
    stex_adapter *a;
    stex_device *d = fixture_device(prof, &a);
    stex_kernel_setup s = {.width = 64, .height = 48, .iterations = 2, .time = 0.75f,
                           .device = d, .create_pipeline = make_wgsl, .create_pipeline_user = km};
    stex_kernel_instance *ki;
    assert_int_equal(stex_kernel_instance_create(k, &s, &ki), STEX_OK);
    /* one thread: a racy kernel's result is then one schedule's */
    stex_dispatch_options o = {.schedule = STEX_SCHEDULE_IN_ORDER, .threads = 1};
    assert_int_equal(stex_kernel_instance_dispatch(ki, &o), STEX_OK);
    assert_int_equal(stex_kernel_instance_read_output(ki, bytes, size), STEX_OK);
    stex_kernel_instance_destroy(ki);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

static void test_lesson_kernels(void **s)
{
    (void)s;
    clock_t t0 = clock();
    tally t = {0};
    for (size_t i = 0; i < stex_kernel_count(); i++) {
        const stex_kernel *k = stex_kernel_at(i);
        if (!k->pass_count || !k->passes[0].wgsl)
            continue;
        for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++)
            for (uint32_t w = 0; w < 2; w++) {
                kernel_make ki = {WIDTHS[w], STEX_WGSL_EXECUTOR_INTERPRETER};
                kernel_make kj = {WIDTHS[w], STEX_WGSL_EXECUTOR_JIT};
                uint8_t *a, *b;
                size_t na, nb;
                kernel_output(k, (stex_profile_id)prof, &ki, &a, &na);
                kernel_output(k, (stex_profile_id)prof, &kj, &b, &nb);
                t.runs++;
                if (na == nb && !memcmp(a, b, na)) {
                    t.same++;
                } else {
                    t.differ++;
                    print_error("kernel %s, profile %d, width %u: the JIT's output differs\n",
                                k->name, prof, WIDTHS[w]);
                }
                free(a);
                free(b);
            }
    }
    report("lesson kernels", &t, t0);
    assert_true(t.runs > 0);
    assert_int_equal(t.differ, 0);
}

/* Without LLVM the JIT is the interpreter, and says so once. */
static void test_availability(void **s)
{
    (void)s;
    wg_executor_counts before, after;
    wg_executor_get_counts(&before);
    stex_adapter *a;
    stex_device *d = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module("@group(0) @binding(0) var<storage, read_write> o: "
                                         "array<u32>;\n@compute @workgroup_size(1) fn main() "
                                         "{ o[0] = 7u; }\n", "avail.wgsl");
    stex_pipeline *p;
    stex_wgsl_options o = {.executor = STEX_WGSL_EXECUTOR_JIT};
    assert_int_equal(stex_wgsl_pipeline_create(d, m, NULL, &o, &p), STEX_OK);
    stex_pipeline_destroy(p);
    wg_executor_get_counts(&after);
    if (stex_wgsl_jit_available()) {
        assert_int_equal(after.jit, before.jit + 1);
    } else {
        assert_int_equal(after.fallback, before.fallback + 1);
        bool said = false;
        for (unsigned k = 0; k < nnotices; k++)
            said |= strstr(notices[k], "no JIT") != NULL;
        assert_true(said);
    }
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* Creates src's pipeline asking for the JIT at `width` lanes and checks
 * that it went to the interpreter, counted once as a fallback, with a
 * notice containing `why`. */
static void expect_interpreted(const char *src, uint32_t width, const char *why)
{
    wg_executor_counts before, after;
    wg_executor_get_counts(&before);
    stex_adapter *a;
    stex_device *d = fixture_device(STEX_PROFILE_SPEC, &a);
    stex_wgsl_module *m = fixture_module(src, "fallback.wgsl");
    stex_pipeline *p;
    stex_wgsl_options o = {.executor = STEX_WGSL_EXECUTOR_JIT, .subgroup_width = width};
    assert_int_equal(stex_wgsl_pipeline_create(d, m, NULL, &o, &p), STEX_OK);
    stex_pipeline_destroy(p);
    wg_executor_get_counts(&after);
    assert_int_equal(after.jit, before.jit);
    assert_int_equal(after.fallback, before.fallback + 1);
    bool said = false;
    for (unsigned k = 0; k < nnotices; k++)
        said |= strstr(notices[k], why) != NULL;
    assert_true(said);
    stex_wgsl_module_destroy(m);
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* A lock-step width that is no power of two is interpreted, with a notice
 * that says why: LLVM 15's x86 code generator crashed (SIGSEGV in
 * SelectionDAG::FoldConstantArithmetic on `bitcast i5 to <5 x i1>`) on a
 * host without AVX-512 (znver3), and with the masks rebuilt lane by lane
 * gave other lanes than the interpreter's (test_edges, width 5). */
static void test_odd_width_interpreted(void **s)
{
    (void)s;
    if (!stex_wgsl_jit_available())
        skip();
    expect_interpreted("@group(0) @binding(0) var<storage, read_write> o: "
                       "array<u32>;\n@compute @workgroup_size(7) fn main("
                       "@builtin(local_invocation_index) i : u32) "
                       "{ if (i % 2u == 0u) { o[i] = i; } }\n", 5,
                       "a sub-group width of 5, which is no power of two");
}

/* A program past WG_JIT_MAX_LANE_INSTRUCTIONS (instructions times lanes)
 * runs on the interpreter, with a notice: LLVM's compile time grows with
 * both, and a large or hostile shader must not hold pipeline creation for
 * minutes (the old code handed LLVM this one whole). */
static void test_large_program_interpreted(void **s)
{
    (void)s;
    if (!stex_wgsl_jit_available())
        skip();
    enum { LINES = 1500 };
    char *src = malloc(LINES * 40 + 400);
    assert_non_null(src);
    int n = sprintf(src, "@group(0) @binding(0) var<storage, read_write> o: array<u32>;\n"
                         "@compute @workgroup_size(64) fn main(@builtin(local_invocation_index)"
                         " i : u32) {\n  var x = i;\n");
    for (int k = 0; k < LINES; k++)
        n += sprintf(src + n, "  x = x * 3u + %du;\n", k);
    sprintf(src + n, "  o[i] = x;\n}\n");
    expect_interpreted(src, 64, "instructions times lanes the JIT compiles");
    free(src);
}

int main(void)
{
    stex_wgsl_set_notice(on_notice, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_availability),
        cmocka_unit_test(test_odd_width_interpreted),
        cmocka_unit_test(test_large_program_interpreted),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_lesson_kernels),
        cmocka_unit_test(test_difftest_regress),
        cmocka_unit_test(test_lesson_snippets),
        cmocka_unit_test(test_difftest_corpus),
        cmocka_unit_test(test_peer_modules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
