/* The cache-line model against lesson 002: a 3x3 stencil on rgba8unorm at
 * width 1024 with 128-byte lines touches 3 far-apart lines per invocation in
 * a linear buffer (rows 4096 bytes apart) and 1 or 2 adjacent lines in the
 * tiled texture (when the stencil stays inside its 8x8 block). */
#include "rtest.h"

enum { W = 1024, H = 256, LINE = 128, BPP = 4 };

/* Distinct lines of the 3x3 stencil around (x, y), through the model. */
static uint64_t stencil_lines(const stex_level_layout *l, uint32_t x, uint32_t y)
{
    uint32_t c[9][3];
    for (int i = 0; i < 9; i++) {
        c[i][0] = x + (uint32_t)stex_stencil_3x3[i][0];
        c[i][1] = y + (uint32_t)stex_stencil_3x3[i][1];
        c[i][2] = 0;
    }
    uint64_t n;
    RTEST_CHECK_OK(stex_cache_lines_count(l, LINE, (const uint32_t(*)[3])c, 9, &n));
    return n;
}

static void test_linear(void **state)
{
    (void)state;
    stex_level_layout l;
    RTEST_CHECK_OK(stex_level_layout_linear(&l, W, H, 1, BPP));
    /* lesson: texel (x, y) is at (y * 1024 + x) * 4; each row of the stencil
     * is 12 contiguous bytes, one line unless it crosses a 128-byte boundary
     * (x % 32 == 0 or 31); three rows 4096 bytes apart -> 3 lines */
    for (uint32_t y = 1; y < H - 1; y += 7)
        for (uint32_t x = 1; x < W - 1; x++) {
            uint64_t want = (x % 32 == 0 || x % 32 == 31) ? 6 : 3;
            uint64_t got = stencil_lines(&l, x, y);
            if (got != want)
                fail_msg("linear rgba8unorm %ux%u invocation (%u,%u): %llu lines, lesson 002 says %llu", W, H, x, y,
                         (unsigned long long)got, (unsigned long long)want);
        }
    stex_line_stats st;
    RTEST_CHECK_OK(stex_cache_lines_stencil(&l, LINE, stex_stencil_3x3, 9, 8, 8, &st));
    /* the typical invocation: 3 lines, spanning two row pitches */
    for (int n = 0; n < STEX_LINE_HISTOGRAM; n++)
        assert_true(st.histogram[3] >= st.histogram[n]);
    assert_true(st.histogram[3] > st.invocations * 8 / 10);
    assert_true(st.mean_span_bytes > 2 * 4096 * 0.9);
    assert_true(st.contiguous < st.invocations / 100); /* far apart, almost never adjacent */
    assert_true(st.far > st.invocations * 95 / 100);   /* rows 4096 bytes apart: a page each */
    print_message("linear: %.3f lines/invocation, %.1f lines/workgroup, mean span %.0f bytes\n",
                  st.lines_per_invocation, st.lines_per_workgroup, st.mean_span_bytes);
}

static void test_tiled(void **state)
{
    (void)state;
    stex_level_layout l;
    RTEST_CHECK_OK(stex_level_layout_tiled(&l, W, H, 1, BPP));
    /* an 8x8 block of rgba8unorm is 256 bytes = 2 lines: its rows 0-3 (Morton
     * indices 0..31) and rows 4-7.  A stencil inside one block touches rows
     * y-1..y+1: one line if they are all in 0-3 or all in 4-7, else two
     * adjacent ones. */
    for (uint32_t y = 1; y < H - 1; y++)
        for (uint32_t x = 1; x < W - 1; x += 3) {
            if (x % 8 == 0 || x % 8 == 7 || y % 8 == 0 || y % 8 == 7)
                continue; /* the stencil leaves the block */
            uint64_t want = (y % 8 == 3 || y % 8 == 4) ? 2 : 1;
            uint64_t got = stencil_lines(&l, x, y);
            if (got != want)
                fail_msg("tiled rgba8unorm %ux%u invocation (%u,%u): %llu lines, expected %llu", W, H, x, y,
                         (unsigned long long)got, (unsigned long long)want);
        }
    stex_line_stats tiled, linear;
    RTEST_CHECK_OK(stex_cache_lines_stencil(&l, LINE, stex_stencil_3x3, 9, 8, 8, &tiled));
    stex_level_layout lin;
    RTEST_CHECK_OK(stex_level_layout_linear(&lin, W, H, 1, BPP));
    RTEST_CHECK_OK(stex_cache_lines_stencil(&lin, LINE, stex_stencil_3x3, 9, 8, 8, &linear));
    /* 36 of 64 invocations per block keep the stencil inside it: 1 or 2 lines */
    assert_true(tiled.histogram[1] + tiled.histogram[2] >= tiled.invocations * 36 / 64);
    assert_true(tiled.lines_per_invocation < linear.lines_per_invocation);
    assert_true(tiled.contiguous > tiled.invocations / 2);
    assert_true(tiled.far < linear.far / 4); /* only stencils crossing distant blocks span a page */
    /* neighbouring invocations share tiles: fewer lines per workgroup */
    assert_true(tiled.lines_per_workgroup < linear.lines_per_workgroup);
    print_message("tiled: %.3f lines/invocation (1: %llu, 2: %llu, >2: %llu of %llu), %.1f lines/workgroup\n",
                  tiled.lines_per_invocation, (unsigned long long)tiled.histogram[1],
                  (unsigned long long)tiled.histogram[2],
                  (unsigned long long)(tiled.invocations - tiled.histogram[1] - tiled.histogram[2]),
                  (unsigned long long)tiled.invocations, tiled.lines_per_workgroup);
}

/* Line size is a parameter; a line smaller than a texel counts every line
 * the texel covers; coordinates outside are refused. */
static void test_parameters(void **state)
{
    (void)state;
    stex_level_layout l;
    RTEST_CHECK_OK(stex_level_layout_linear(&l, 16, 4, 1, 16));
    const uint32_t one[1][3] = {{1, 0, 0}};
    uint64_t n;
    RTEST_CHECK_OK(stex_cache_lines_count(&l, 4, one, 1, &n));
    assert_int_equal(n, 4);
    RTEST_CHECK_OK(stex_cache_lines_count(&l, 64, one, 1, &n));
    assert_int_equal(n, 1);
    const uint32_t out[1][3] = {{16, 0, 0}};
    assert_int_equal(stex_cache_lines_count(&l, 64, out, 1, &n), STEX_INVALID_ARGUMENT);
    stex_line_stats st;
    assert_int_equal(stex_cache_lines_stencil(&l, 0, stex_stencil_3x3, 9, 8, 8, &st), STEX_INVALID_ARGUMENT);
    /* the corner invocation of a 1x1 image reads only its own texel */
    RTEST_CHECK_OK(stex_level_layout_tiled(&l, 1, 1, 1, 4));
    RTEST_CHECK_OK(stex_cache_lines_stencil(&l, 128, stex_stencil_3x3, 9, 8, 8, &st));
    assert_int_equal(st.invocations, 1);
    assert_int_equal(st.max_lines, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear),
        cmocka_unit_test(test_tiled),
        cmocka_unit_test(test_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
