/*
 * Out-of-bounds indices into a runtime-sized array<u32>, per profile, against
 * what lavapipe did (tests/data/lavapipe-oob-runtime-array.tsv, rows of
 * conformance/lavapipe/wgslexpr.tsv.xz: a 16-word binding whose element i
 * holds 0xca000040 + i; a read gives the word, a write of 0xdeadbeef lists
 * the word it changed or '-').  Under lavapipe (and nvidia, which measured
 * the same rows) the C kernels' buffer builtins must reproduce every row;
 * under spec every out-of-range read is 0 and every write is dropped.
 */
#include "../dispatch/dtest.h"

enum { WORDS = 16 };

typedef struct probe { uint32_t index; bool write; } probe;

static void kernel(const stex_invocation *inv)
{
    const probe *p = inv->params;
    if (p->write)
        stex_buffer_store_u32(inv, 0, p->index, 0xdeadbeefu);
    else
        stex_buffer_store_u32(inv, 1, 0, stex_buffer_load_u32(inv, 0, p->index));
}

/* Runs one probe; returns the word read, or for a write the index of the
 * changed word (-1 if none). */
static int64_t run(stex_device *d, stex_profile_id prof, probe pr)
{
    stex_layout_entry e[] = {dt_buffer_entry(0, STEX_BINDING_STORAGE_BUFFER),
                             dt_buffer_entry(1, STEX_BINDING_STORAGE_BUFFER)};
    stex_pipeline_desc pd = {.kernel = kernel, .entries = e, .entry_count = 2};
    stex_pipeline *p;
    DT_OK(stex_pipeline_create(d, &pd, &p));
    stex_buffer *arr = dt_buffer(d, WORDS * 4, STEX_BUFFER_USAGE_STORAGE);
    stex_buffer *out = dt_buffer(d, 4, STEX_BUFFER_USAGE_STORAGE);
    for (uint32_t i = 0; i < WORDS; i++) {
        uint32_t v = 0xca000040u + i;
        memcpy(stex_buffer_data(arr) + 4 * i, &v, 4);
    }
    stex_bind_group_entry be[] = {{.binding = 0, .buffer = arr}, {.binding = 1, .buffer = out}};
    stex_bind_group *g;
    DT_OK(stex_bind_group_create(p, be, 2, &g));
    stex_dispatch_options o = {.profile = stex_profile_get(prof), .params = &pr, .threads = 1};
    DT_OK(stex_dispatch(p, g, 1, 1, 1, &o));
    int64_t r = -1;
    if (pr.write) {
        for (uint32_t i = 0; i < WORDS; i++) {
            uint32_t v;
            memcpy(&v, stex_buffer_data(arr) + 4 * i, 4);
            if (v != 0xca000040u + i)
                r = i;
        }
    } else {
        uint32_t v;
        memcpy(&v, stex_buffer_data(out), 4);
        r = v;
    }
    stex_bind_group_destroy(g);
    stex_buffer_destroy(arr);
    stex_buffer_destroy(out);
    stex_pipeline_destroy(p);
    return r;
}

static void test_runtime_array_rows(void **state)
{
    (void)state;
    FILE *f = fopen(dt_data("lavapipe-oob-runtime-array.tsv"), "r");
    assert_non_null(f);
    stex_device *d = dt_device();
    char line[512];
    int rows = 0, wrapped = 0;
    while (fgets(line, sizeof line, f)) {
        char id[128], op[32], type[64], src[32], in[32], outcol[64];
        if (line[0] == '#' || sscanf(line, "%127s %31s %63s %31s %31s %63s", id, op, type, src,
                                     in, outcol) != 6)
            continue;
        probe pr = {(uint32_t)strtoul(in, NULL, 16), !strcmp(op, "oob_write")};
        int64_t want = pr.write ? (outcol[0] == '-' ? -1 : strtol(outcol, NULL, 10))
                                : (int64_t)strtoul(outcol, NULL, 16);
        bool in_range = pr.index < WORDS;
        wrapped += !in_range && want != (pr.write ? -1 : 0);
        for (int prof = 0; prof < STEX_PROFILE_COUNT; prof++) {
            int64_t spec_want = in_range ? want : pr.write ? -1 : 0;
            int64_t w = prof == STEX_PROFILE_SPEC ? spec_want : want;
            int64_t got = run(d, (stex_profile_id)prof, pr);
            if (got != w)
                fail_msg("%s under %s: got %lld, want %lld", id,
                         stex_profile_name((stex_profile_id)prof), (long long)got, (long long)w);
        }
        rows++;
    }
    fclose(f);
    dt_release(d);
    assert_int_equal(rows, 28);
    assert_true(wrapped >= 4); /* the rows where the byte offset wrapped */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime_array_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
