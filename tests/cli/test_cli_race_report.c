/* The race report of `stex run --race-check` and `stex race` on a teacher's
 * racy shaders (tests/data/race-shaders): every location named as the WGSL
 * names it, both accesses' file:line:col in every bind group, the races
 * grouped by their two source sites with complete counts, --races all|N,
 * --fail-on-race, and one JSON for every kind of run.
 *
 * The expectations come from the shaders' text, not from stex: the lines
 * and columns are found in the .wgsl files (an indexed access is reported
 * at its '[', a member access at the member's name, a builtin call at its
 * name), and the counts follow from what each shader does (worked out next
 * to each test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli_exec.h"

/* Copies tests/data/race-shaders/NAME.wgsl and NAME.json into the scratch
 * folder (a run file writes its outputs beside itself); *run: the copy of
 * the run file. */
static void shader(const char *name, char *run, size_t n)
{
    const char *ext[2] = {"wgsl", "json"};
    for (int i = 0; i < 2; i++) {
        char src[512], dst[512];
        snprintf(src, sizeof src, "%s/race-shaders/%s.%s", getenv("STEX_TEST_DATA"), name,
                 ext[i]);
        snprintf(dst, sizeof dst, "%s/%s.%s", cli_dir, name, ext[i]);
        size_t len;
        uint8_t *bytes = slurp(src, &len);
        if (!bytes)
            fail_msg("cannot read %s", src);
        spit(dst, bytes, len);
        free(bytes);
        if (i == 1)
            snprintf(run, n, "%s", dst);
    }
}

/* "NAME.wgsl:LINE:COL" of the first code line of the shader holding `text`, the
 * column that of text's character `at` (1-based, as WGSL counts). */
static const char *site(const char *name, const char *text, char at, char *buf, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/race-shaders/%s.wgsl", getenv("STEX_TEST_DATA"), name);
    char *src = cli_slurp_text(path);
    int line = 1;
    for (char *l = src; *l; line++) {
        char *end = strchr(l, '\n'), *hit = strstr(l, text);
        bool comment = !strncmp(l + strspn(l, " "), "//", 2);
        if (hit && (!end || hit < end) && !comment) {
            snprintf(buf, n, "%s.wgsl:%d:%d", name, line,
                     (int)(hit - l) + (int)(strchr(hit, at) - hit) + 1);
            free(src);
            return buf;
        }
        if (!end)
            break;
        l = end + 1;
    }
    free(src);
    fail_msg("%s.wgsl has no line with '%s'", name, text);
    return NULL;
}

static void expect_in(const char *out, const char *text)
{
    if (!strstr(out, text))
        fail_msg("expected '%s' in:\n%s", text, out);
}

static json_t *parse(const cli_result *r)
{
    json_t *j = json_loads(r->out, 0, NULL);
    if (!j)
        fail_msg("stdout is not JSON: %s\n%s", r->out, r->err);
    return j;
}

/* The group lines: "  write at FILE:LINE:COL" and "  read  at ..." */
static void expect_group_sites(const char *out, const char *read, const char *write)
{
    char want[600];
    snprintf(want, sizeof want, "  read  at %s/%s", cli_dir, read);
    expect_in(out, want);
    snprintf(want, sizeof want, "  write at %s/%s", cli_dir, write);
    expect_in(out, want);
}

/* Every listed party names its site: "a: ... read at FILE:..." (the read of
 * a @group(1..3) binding lost it). */
static void expect_every_party_sited(const char *out)
{
    int parties = cli_count(out, "    a: workgroup") + cli_count(out, "    b: workgroup");
    int sited = 0;
    for (const char *p = strstr(out, "    a: workgroup"); p; p = strstr(p + 1, "    "))
        if (!strncmp(p, "    a: workgroup", 16) || !strncmp(p, "    b: workgroup", 16)) {
            const char *end = strchr(p, '\n');
            const char *at = strstr(p, " at ");
            sited += at && at < end;
        }
    if (!parties || sited != parties)
        fail_msg("%d of %d parties name their site:\n%s", sited, parties, out);
}

/* A workgroup sum missing its barrier (reduce.wgsl): part[j] is written by
 * invocation j (j < s) and read by invocation j - s in the same loop step;
 * j = 1..31 race in each of the 4 workgroups (32..63 are only read): 124
 * read-write races, all inside one workgroup, one pair of source sites. */
static void test_workgroup_memory_named(void **state)
{
    (void)state;
    char run[512], r15[64], w15[64];
    shader("reduce", run, sizeof run);
    site("reduce", "part[lid + s]", '[', r15, sizeof r15);
    site("reduce", "part[lid] = part", '[', w15, sizeof w15);
    cli_result r = run_stex("run '%s' --race-check --races all", run);
    CLI_EXPECT(r, 0, NULL);
    expect_in(r.out, "RACE SUMMARY: 124 racing locations in 1 group (124 read-write, "
                     "0 write-write)");
    expect_in(r.out, "group 1 of 1: read-write at 124 locations");
    expect_in(r.out, "all inside one workgroup");
    expect_group_sites(r.out, r15, w15);
    expect_in(r.out, "part[1] in workgroup (0, 0, 0)");
    expect_in(r.out, "part[1] in workgroup (3, 0, 0)");
    expect_in(r.out, "part[31] in workgroup (2, 0, 0)");
    if (strstr(r.out, "part[32]") || strstr(r.out, "4294967295") || strstr(r.out, "word"))
        fail_msg("a location not named part[1..31]:\n%s", r.out);
    assert_int_equal(cli_count(r.out, "  dispatch 0, part["), 124);
    expect_every_party_sited(r.out);
    cli_free(&r);
    /* stex race says the same */
    r = run_stex("race '%s' --runs 2 --threads 1", run);
    CLI_EXPECT(r, 0, NULL);
    expect_in(r.out, "e.g. part[1] in workgroup (0, 0, 0)");
    expect_group_sites(r.out, r15, w15);
    cli_free(&r);
}

/* An in-place prefix sum (prefix.wgsl), one workgroup of 64: data[j] is
 * written by invocation j (j >= d) and read by invocation j + d in the same
 * step; j = 1..62 race (data[0] is never written, data[63] never read by
 * another): 62 races, named data[j], not "texel (0, 0, 0)". */
static void test_buffer_elements_named(void **state)
{
    (void)state;
    char run[512], rd[64], wr[64];
    shader("prefix", run, sizeof run);
    site("prefix", "data[i - d]", '[', rd, sizeof rd);
    site("prefix", "data[i] =", '[', wr, sizeof wr);
    cli_result r = run_stex("run '%s' --race-check --races all", run);
    CLI_EXPECT(r, 0, NULL);
    expect_in(r.out, "RACE SUMMARY: 62 racing locations in 1 group");
    expect_group_sites(r.out, rd, wr);
    expect_in(r.out, "data[1] (@group(0) @binding(0))");
    expect_in(r.out, "data[17] (@group(0) @binding(0))");
    expect_in(r.out, "data[62] (@group(0) @binding(0))");
    assert_null(strstr(r.out, "data[0] "));
    assert_null(strstr(r.out, "data[63]"));
    cli_free(&r);
    r = run_stex("race '%s' --runs 2 --threads 1 --races 20", run);
    CLI_EXPECT(r, 0, NULL);
    expect_in(r.out, "data[17] (@group(0) @binding(0))");
    assert_null(strstr(r.out, "texel (0, 0, 0)"));
    cli_free(&r);
}

/* An in-place shift on @group(1) @binding(2) (shift.wgsl), 4 workgroups of
 * 64 over 256 cells: cells[j] is read by invocation j - 1 and written by j
 * for j = 1..254 (255 is not written: i + 1 < 256); 3 of them (j = 64, 128,
 * 192) between two workgroups.  Both accesses carry their line and column
 * (the read of a @group(1..3) binding lost it), and the binding is named
 * @group(1) @binding(2), not "binding 65538". */
static void test_group1_buffer_both_sites(void **state)
{
    (void)state;
    char run[512], rd[64], wr[64];
    shader("shift", run, sizeof run);
    site("shift", "cells[i + 1u]", '[', rd, sizeof rd);
    site("shift", "cells[i] =", '[', wr, sizeof wr);
    const char *cmds[] = {"run '%s' --race-check --races all --threads 2",
                          "race '%s' --runs 2 --threads 2 --races all"};
    for (int c = 0; c < 2; c++) {
        cli_result r = run_stex(cmds[c], run);
        CLI_EXPECT(r, 0, NULL);
        expect_in(r.out, "RACE SUMMARY: 254 racing locations in 1 group");
        expect_in(r.out, "251 inside one workgroup (no barrier), 3 between two");
        expect_group_sites(r.out, rd, wr);
        expect_in(r.out, "cells[1] (@group(1) @binding(2))");
        expect_in(r.out, "cells[64] (@group(1) @binding(2)): read-write, different workgroups");
        assert_null(strstr(r.out, "65538"));
        expect_every_party_sited(r.out);
        cli_free(&r);
    }
    /* the JSON: every party's source, the group and binding as numbers */
    cli_result r = run_stex("run '%s' --race-check --races all --json", run);
    CLI_EXPECT(r, 0, NULL);
    json_t *j = parse(&r), *races = json_object_get(j, "races");
    json_t *locs = json_object_get(races, "locations");
    assert_int_equal(json_array_size(locs), 254);
    size_t i;
    json_t *l;
    json_array_foreach(locs, i, l) {
        assert_int_equal(json_integer_value(json_object_get(l, "group")), 1);
        assert_int_equal(json_integer_value(json_object_get(l, "binding")), 2);
        assert_string_equal(json_string_value(json_object_get(l, "variable")), "cells");
        for (int p = 0; p < 2; p++) {
            json_t *src = json_object_get(json_object_get(l, p ? "b" : "a"), "source");
            assert_int_equal(json_integer_value(json_object_get(src, "line")), 10);
        }
    }
    json_decref(j);
    cli_free(&r);
}

/* An in-place blur on @group(2) @binding(1) (blur.wgsl), 16x16 texels in
 * 8x8 workgroups: texel (x, y) is written by invocation (x, y) and read as
 * the left neighbour by (x + 1, y): x = 0..14 in 16 rows, 240 races; x = 7
 * sits at a workgroup's edge: 16 between two workgroups. */
static void test_group2_texture_named(void **state)
{
    (void)state;
    char run[512], rd[64], wr[64];
    shader("blur", run, sizeof run);
    site("blur", "textureLoad(img, max", 't', rd, sizeof rd);
    site("blur", "textureStore(img", 't', wr, sizeof wr);
    cli_result r = run_stex("run '%s' --race-check --races all", run);
    CLI_EXPECT(r, 0, NULL);
    expect_in(r.out, "RACE SUMMARY: 240 racing locations in 1 group");
    expect_in(r.out, "224 inside one workgroup (no barrier), 16 between two");
    expect_group_sites(r.out, rd, wr);
    expect_in(r.out, "img (@group(2) @binding(1)) texel (0, 0)");
    expect_in(r.out, "img (@group(2) @binding(1)) texel (14, 15)");
    assert_null(strstr(r.out, "texel (15, "));
    expect_every_party_sited(r.out);
    cli_free(&r);
}

/* A histogram with plain counters in a struct (stats.wgsl): every
 * invocation adds to stats.total, and to stats.bins[v % 8] - each of the 8
 * bins is hit by several invocations: 9 locations with both a write-write
 * and a read-write race, in 4 groups of source sites. */
static void test_struct_members_named(void **state)
{
    (void)state;
    char run[512], rt[64], wt[64], rb[64], wb[64];
    shader("stats", run, sizeof run);
    site("stats", "total + 1u", 't', rt, sizeof rt);
    site("stats", "total =", 't', wt, sizeof wt);
    site("stats", "stats.bins[v % 8u] + 1u", '[', rb, sizeof rb);
    site("stats", "stats.bins[v % 8u] =", '[', wb, sizeof wb);
    cli_result r = run_stex("run '%s' --race-check --races all --json", run);
    CLI_EXPECT(r, 0, NULL);
    json_t *j = parse(&r), *races = json_object_get(j, "races");
    assert_int_equal(json_integer_value(json_object_get(races, "write_write")), 9);
    assert_int_equal(json_integer_value(json_object_get(races, "read_write")), 9);
    json_t *groups = json_object_get(races, "groups");
    assert_int_equal(json_array_size(groups), 4);
    uint64_t sum = 0;
    size_t i;
    json_t *g;
    json_array_foreach(groups, i, g)
        sum += (uint64_t)json_integer_value(json_object_get(g, "count"));
    assert_int_equal(sum, 18); /* the groups hold every race once */
    char names[4096] = "";
    json_t *l;
    json_array_foreach(json_object_get(races, "locations"), i, l) {
        strncat(names, json_string_value(json_object_get(l, "name")), 100);
        strcat(names, " ");
    }
    for (int b = 0; b < 8; b++) {
        char want[32];
        snprintf(want, sizeof want, "stats.bins[%d] ", b);
        expect_in(names, want);
    }
    expect_in(names, "stats.total ");
    json_decref(j);
    cli_free(&r);
    r = run_stex("run '%s' --race-check", run);
    CLI_EXPECT(r, 0, NULL);
    expect_in(r.out, "RACE SUMMARY: 18 racing locations in 4 groups (9 read-write, "
                     "9 write-write)");
    expect_group_sites(r.out, rt, wt);
    expect_group_sites(r.out, rb, wb);
    cli_free(&r);
}

/* --races: the groups and 3 locations by default, N or all on request, the
 * same in the JSON; a bad value is a usage error. */
static void test_races_option(void **state)
{
    (void)state;
    char run[512];
    shader("prefix", run, sizeof run);
    struct { const char *opt; int listed; } cases[] = {
        {"", 3}, {"--races 5", 5}, {"--races all", 62}, {"--races 0", 0}, {"--races 1000", 62}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cli_result r = run_stex("run '%s' %s --race-check", run, cases[c].opt);
        CLI_EXPECT(r, 0, NULL);
        assert_int_equal(cli_count(r.out, "  dispatch 0, data["), cases[c].listed);
        expect_in(r.out, "group 1 of 1"); /* the groups whatever is listed */
        if (cases[c].listed < 62)
            expect_in(r.out, "--races all lists every one");
        cli_free(&r);
        r = run_stex("race '%s' --runs 1 %s --json", run, cases[c].opt);
        CLI_EXPECT(r, 0, NULL);
        json_t *j = parse(&r), *races = json_object_get(j, "races");
        assert_int_equal(json_array_size(json_object_get(races, "locations")), cases[c].listed);
        assert_int_equal(json_is_true(json_object_get(races, "truncated")),
                         cases[c].listed < 62);
        json_decref(j);
        cli_free(&r);
    }
    const char *bad[] = {"--races none", "--races -1", "--races 0x10", "--races 07"};
    for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
        cli_result r = run_stex("run '%s' %s", run, bad[c]);
        CLI_EXPECT(r, 2, "--races");
        cli_free(&r);
        r = run_stex("race '%s' %s", run, bad[c]);
        CLI_EXPECT(r, 2, "--races");
        cli_free(&r);
    }
}

/* --fail-on-race: exit status 3 when a race is found (the outputs still
 * written), 0 without a race or without the option. */
static void test_fail_on_race(void **state)
{
    (void)state;
    char run[512], out[512];
    shader("shift", run, sizeof run);
    path_in(out, sizeof out, "shift-cells.bin");
    cli_result r = run_stex("run '%s' --fail-on-race", run);
    CLI_EXPECT(r, 3, NULL);
    expect_in(r.out, "RACE SUMMARY: 254"); /* it implies --race-check */
    assert_true(access(out, F_OK) == 0);
    cli_free(&r);
    r = run_stex("run '%s' --race-check --json --fail-on-race", run);
    CLI_EXPECT(r, 3, NULL);
    cli_free(&r);
    r = run_stex("run '%s' --race-check", run);
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("race '%s' --runs 2 --fail-on-race", run);
    CLI_EXPECT(r, 3, NULL);
    cli_free(&r);
    r = run_stex("race difundir --size 8x8 --runs 2 --fail-on-race");
    CLI_EXPECT(r, 3, NULL);
    cli_free(&r);
    /* race-free: 0 */
    r = run_stex("race difundir-pingpong --size 8x8 --runs 2 --fail-on-race");
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    r = run_stex("run difundir-pingpong --size 8x8 --fail-on-race");
    CLI_EXPECT(r, 0, NULL);
    cli_free(&r);
    /* the help says so */
    r = run_stex("run --help");
    expect_in(r.out, "3 --fail-on-race");
    cli_free(&r);
    r = run_stex("race --help");
    expect_in(r.out, "3 --fail-on-race");
    cli_free(&r);
}

/* One JSON for every run: a kernel, a run file and a .wgsl print the same
 * members, with the race counts spelt alike (write_write, not
 * write-write). */
/* Flags belong to the output's own texture or buffer (issue 25: a race on
 * one texture was drawn on whichever texture was the first output).  The
 * blur races on texture t; a second texture o, which each invocation
 * writes at its own texel only, races nowhere.  With o as the output no
 * texel is flagged; with t, every racing texel is; a buffer output's racing
 * elements are flagged too, and its picture is a grid, not one row. */
static void test_flags_on_the_output(void **state)
{
    (void)state;
    char run[512], wgsl[512];
    shader("blur", run, sizeof run);
    snprintf(wgsl, sizeof wgsl, "%s/two.wgsl", cli_dir);
    const char *two =
        "@group(2) @binding(1) var img: texture_storage_2d<r32float, read_write>;\n"
        "@group(0) @binding(0) var o: texture_storage_2d<r32float, write>;\n"
        "@compute @workgroup_size(8, 8)\n"
        "fn main(@builtin(global_invocation_id) gid: vec3u) {\n"
        "  let p = vec2i(gid.xy);\n"
        "  let left = textureLoad(img, max(p - vec2i(1, 0), vec2i(0)));\n"
        "  textureStore(img, p, (left + textureLoad(img, p)) * 0.5);\n"
        "  textureStore(o, p, vec4f(f32(gid.x), 0.0, 0.0, 1.0));\n"
        "}\n";
    spit(wgsl, two, strlen(two));
    json_t *j = json_load_file(run, 0, NULL);
    assert_non_null(j);
    json_object_set_new(json_object_get(json_object_get(j, "shaderModules"), "m"), "file",
                        json_string("two.wgsl"));
    json_object_set_new(json_object_get(j, "textures"), "o",
                        json_pack("{s:[i,i], s:s, s:[s,s]}", "size", 16, 16, "format", "r32float",
                                  "usage", "STORAGE_BINDING", "COPY_SRC"));
    json_object_set_new(json_object_get(j, "views"), "vo", json_pack("{s:s}", "texture", "o"));
    json_object_set_new(json_object_get(j, "bindGroups"), "g0",
                        json_pack("{s:{s:s, s:i}, s:[{s:i, s:s}]}", "layout", "pipeline", "p",
                                  "group", 0, "entries", "binding", 0, "resource", "vo"));
    json_t *groups = json_object_get(json_object_get(json_array_get(json_object_get(j, "steps"),
                                                                     0),
                                                      "dispatchWorkgroups"),
                                      "bindGroups");
    json_array_set_new(groups, 0, json_string("g0"));
    const char *outs[2] = {"o", "t"};
    int flagged[2];
    for (int k = 0; k < 2; k++) {
        json_object_set_new(j, "outputs", json_pack("[{s:s, s:s}]", "texture", outs[k], "file",
                                                     "two.bin"));
        char path[600];
        snprintf(path, sizeof path, "%s/two-%s.json", cli_dir, outs[k]);
        assert_int_equal(json_dump_file(j, path, 0), 0);
        cli_result r = run_stex("race '%s' --runs 3 --threads 1 --json", path);
        CLI_EXPECT(r, 0, NULL);
        json_t *out = parse(&r);
        assert_true(json_integer_value(json_object_get(json_object_get(out, "races"), "total")) > 0);
        flagged[k] = (int)json_integer_value(json_object_get(out, "flagged_texels"));
        if (k == 1) /* every race is on t, one per racing texel */
            assert_int_equal(flagged[k],
                             json_integer_value(json_object_get(json_object_get(out, "races"),
                                                                "total")));
        json_decref(out);
        cli_free(&r);
    }
    json_decref(j);
    assert_int_equal(flagged[0], 0);
    assert_true(flagged[1] > 0);

    /* a buffer output: shift races on its own cells, 254 racing elements */
    shader("shift", run, sizeof run);
    char png[600];
    snprintf(png, sizeof png, "%s/shift.png", cli_dir);
    cli_result r = run_stex("race '%s' --runs 3 --threads 1 --scale 4 --png '%s' --json", run, png);
    CLI_EXPECT(r, 0, NULL);
    json_t *out = parse(&r);
    json_int_t total = json_integer_value(json_object_get(json_object_get(out, "races"), "total"));
    assert_true(total > 0);
    assert_int_equal(json_integer_value(json_object_get(out, "flagged_texels")), total);
    json_decref(out);
    cli_free(&r);
    /* 256 elements as a 16 x 16 grid at scale 4: three panels well under
     * one 256-element row (3072 pixels), and 64 pixels high at least */
    size_t n;
    uint8_t *bytes = slurp(png, &n);
    assert_non_null(bytes);
    assert_true(n > 24);
    uint32_t width = (uint32_t)bytes[16] << 24 | bytes[17] << 16 | bytes[18] << 8 | bytes[19];
    uint32_t height = (uint32_t)bytes[20] << 24 | bytes[21] << 16 | bytes[22] << 8 | bytes[23];
    free(bytes);
    assert_true(width < 1024);
    assert_true(height >= 64);
}

static void test_one_json(void **state)
{
    (void)state;
    char run[512], wgsl[512];
    shader("blur", run, sizeof run);
    snprintf(wgsl, sizeof wgsl, "%s/blur.wgsl", cli_dir);
    cli_result r[3] = {run_stex("run difundir --size 8x8 --race-check --json"),
                       run_stex("run '%s' --race-check --json", run),
                       run_stex("run '%s' --size 16x16 --race-check --json", wgsl)};
    const char *subject[3] = {"kernel", "run_file", "wgsl"};
    json_t *j[3];
    for (int i = 0; i < 3; i++) {
        CLI_EXPECT(r[i], 0, NULL);
        assert_null(strstr(r[i].out, "write-write\":"));
        j[i] = parse(&r[i]);
        assert_string_equal(json_string_value(json_object_get(j[i], "command")), "run");
        assert_string_equal(json_string_value(json_object_get(j[i], "subject")), subject[i]);
        assert_true(json_integer_value(json_object_get(json_object_get(j[i], "races"),
                                                       "write_write")) >= 0);
        assert_non_null(json_object_get(json_object_get(j[i], "races"), "groups"));
    }
    for (int i = 1; i < 3; i++) {
        const char *k;
        json_t *v;
        json_object_foreach(j[0], k, v)
            if (!json_object_get(j[i], k))
                fail_msg("%s: no '%s' member", subject[i], k);
        json_object_foreach(j[i], k, v)
            if (!json_object_get(j[0], k))
                fail_msg("%s: a '%s' member the kernel's JSON has not", subject[i], k);
    }
    for (int i = 0; i < 3; i++) {
        json_decref(j[i]);
        cli_free(&r[i]);
    }
}

int main(void)
{
    scratch_make(cli_dir, sizeof cli_dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workgroup_memory_named),
        cmocka_unit_test(test_buffer_elements_named),
        cmocka_unit_test(test_group1_buffer_both_sites),
        cmocka_unit_test(test_group2_texture_named),
        cmocka_unit_test(test_struct_members_named),
        cmocka_unit_test(test_races_option),
        cmocka_unit_test(test_fail_on_race),
        cmocka_unit_test(test_one_json),
        cmocka_unit_test(test_flags_on_the_output),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(cli_dir);
    return rc;
}
