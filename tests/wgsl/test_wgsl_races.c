/* Races named in the WGSL source: the racy difundir's WGSL under race
 * detection gives the C kernel's verdict (locations, kinds, both
 * invocations), and each party says where in the WGSL text it accessed the
 * texel - the reader the textureLoad of its neighbour, the writer the
 * textureStore - for sub-group widths 1, 8 and 32, 1 and 2 threads, in
 * order and shuffled.  The expected line:col come from the WGSL string
 * itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/stex.h"

#define FILENAME "difundir.wgsl"

static stex_status make_wgsl(void *user, stex_device *d, const stex_kernel_pass *pass,
                             stex_pipeline **out)
{
    uint32_t width = (uint32_t)(uintptr_t)user;
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, FILENAME, &m);
    if (st) {
        print_error("%s", stex_wgsl_module_diagnostics(m));
        stex_wgsl_module_destroy(m);
        return st;
    }
    stex_wgsl_options o = {.subgroup_width = width};
    st = stex_wgsl_pipeline_create(d, m, pass->entry_point, &o, out);
    stex_wgsl_module_destroy(m);
    return st;
}

/* "FILE:line:col" of the nth (0-based) occurrence of needle in src. */
static void source_of(const char *src, const char *needle, int nth, char *buf, size_t size,
                      unsigned *line_out, unsigned *col_out)
{
    const char *p = src;
    for (int i = 0; i <= nth; i++) {
        p = strstr(i ? p + 1 : p, needle);
        assert_non_null(p);
    }
    unsigned line = 1;
    const char *bol = src;
    for (const char *q = src; q < p; q++)
        if (*q == '\n') {
            line++;
            bol = q + 1;
        }
    unsigned col = (unsigned)(p - bol) + 1;
    snprintf(buf, size, "%s:%u:%u", FILENAME, line, col);
    if (line_out)
        *line_out = line;
    if (col_out)
        *col_out = col;
}

static stex_race_detector *run(const stex_kernel *k, stex_device *dev, uint32_t width,
                               stex_dispatch_options o)
{
    stex_race_detector *rd;
    assert_int_equal(stex_race_detector_create(NULL, &rd), STEX_OK);
    o.races = rd;
    stex_kernel_setup s = {.device = dev, .time = 0.75f, .width = 48, .height = 40};
    if (width) {
        s.create_pipeline = make_wgsl;
        s.create_pipeline_user = (void *)(uintptr_t)width;
    }
    stex_kernel_instance *ki;
    if (stex_kernel_run(k, &s, &o, &ki))
        fail_msg("%s (%s): %s", k->name, width ? "WGSL" : "C", stex_last_error());
    stex_kernel_instance_destroy(ki);
    return rd;
}

static bool same_party(const stex_race_party *x, const stex_race_party *y)
{
    return !memcmp(x->workgroup_id, y->workgroup_id, sizeof x->workgroup_id)
           && !memcmp(x->local_invocation_id, y->local_invocation_id,
                      sizeof x->local_invocation_id)
           && x->access == y->access;
}

static void test_difundir_sources(void **state)
{
    (void)state;
    const stex_kernel *k = stex_kernel_find("difundir");
    assert_non_null(k);
    const stex_kernel_pass *pass = &k->passes[0];
    const uint32_t *wgs = pass->pipeline.workgroup_size;
    char load[4][128], store[128];
    unsigned store_line, store_col;
    for (int i = 0; i < 4; i++)
        source_of(pass->wgsl, "textureLoad(", i, load[i], sizeof load[i], NULL, NULL);
    source_of(pass->wgsl, "textureStore(", 0, store, sizeof store, &store_line, &store_col);
    /* the loads read c + (-1, 0), (1, 0), (0, -1), (0, 1), in this order */
    static const int off[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};

    stex_adapter *a;
    stex_device *dev;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    assert_int_equal(stex_device_create(a, &(stex_device_desc){0}, &dev), STEX_OK);
    stex_race_detector *want = run(k, dev, 0, (stex_dispatch_options){.threads = 1});
    size_t n = stex_race_reported(want);
    assert_true(n > 0);
    static const uint32_t widths[] = {1, 8, 32};
    char *first_text = NULL;
    for (size_t w = 0; w < 3; w++)
        for (int threads = 1; threads <= 2; threads++)
            for (int sched = 0; sched < 2; sched++) {
                stex_dispatch_options o = {
                    .schedule = sched ? STEX_SCHEDULE_SHUFFLED : STEX_SCHEDULE_IN_ORDER,
                    .seed = 11, .threads = threads};
                stex_race_detector *rd = run(k, dev, widths[w], o);
                /* the verdict is the C kernel's */
                for (int kind = 0; kind <= STEX_RACE_ANY; kind++)
                    assert_int_equal(stex_race_count(rd, (stex_race_kind)kind),
                                     stex_race_count(want, (stex_race_kind)kind));
                assert_int_equal(stex_race_reported(rd), n);
                for (size_t i = 0; i < n; i++) {
                    const stex_race *r = stex_race_get(rd, i), *c = stex_race_get(want, i);
                    assert_int_equal(r->kind, c->kind);
                    assert_memory_equal(r->coord, c->coord, sizeof r->coord);
                    assert_int_equal(r->binding, c->binding);
                    assert_true(same_party(&r->a, &c->a));
                    assert_true(same_party(&r->b, &c->b));
                    assert_int_equal(c->a.site, 0); /* C kernels: unknown */
                    assert_null(c->a.source);
                    /* and where in the WGSL */
                    assert_int_equal(r->kind, STEX_RACE_READ_WRITE);
                    const stex_race_party *rp = r->a.access == STEX_RACE_ACCESS_READ ? &r->a : &r->b;
                    const stex_race_party *wp = rp == &r->a ? &r->b : &r->a;
                    assert_int_equal(wp->access, STEX_RACE_ACCESS_WRITE);
                    assert_non_null(rp->source);
                    assert_non_null(wp->source);
                    assert_true(rp->site && wp->site);
                    assert_string_equal(wp->source, store);
                    int64_t gx = (int64_t)rp->workgroup_id[0] * wgs[0] + rp->local_invocation_id[0];
                    int64_t gy = (int64_t)rp->workgroup_id[1] * wgs[1] + rp->local_invocation_id[1];
                    int li = -1;
                    for (int q = 0; q < 4; q++)
                        if (gx + off[q][0] == r->coord[0] && gy + off[q][1] == r->coord[1])
                            li = q;
                    assert_true(li >= 0);
                    if (strcmp(rp->source, load[li]))
                        fail_msg("width %u, %d thread(s), %s: race %zu at (%u, %u): the read is "
                                 "at %s, want %s", widths[w], threads,
                                 sched ? "shuffled" : "in order", i, r->coord[0], r->coord[1],
                                 rp->source, load[li]);
                }
                /* the reports: text names both sources; JSON has the fields */
                char *text = stex_race_report_text_string(rd);
                assert_non_null(text);
                char at[160];
                snprintf(at, sizeof at, " at %s\n", store);
                assert_non_null(strstr(text, at));
                if (!first_text)
                    first_text = text;
                else {
                    assert_string_equal(text, first_text); /* the same under every run */
                    free(text);
                }
                char *json = stex_race_report_json_string(rd);
                assert_non_null(json);
                char field[64];
                assert_non_null(strstr(json, "\"source\""));
                assert_non_null(strstr(json, "\"site\""));
                assert_non_null(strstr(json, "\"file\": \"" FILENAME "\""));
                snprintf(field, sizeof field, "\"line\": %u", store_line);
                assert_non_null(strstr(json, field));
                snprintf(field, sizeof field, "\"column\": %u", store_col);
                assert_non_null(strstr(json, field));
                free(json);
                stex_race_detector_destroy(rd);
            }
    free(first_text);
    stex_race_detector_destroy(want);
    stex_device_destroy(dev);
    stex_adapter_destroy(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_difundir_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
