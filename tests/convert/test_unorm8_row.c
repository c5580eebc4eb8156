/*
 * stex__unorm8_row (convert/unorm8_row.h), every variant the machine has
 * (scalar, SSE2, AVX2), against the scalar codec stex__unorm8_encode under
 * each of the four unorm8 store rules and both NaN codes (the scalar codec
 * is itself checked against the converter by test_fast_codec.c), and the
 * one-channel stex__unorm8_codes likewise.
 *
 * Inputs: every 4099th f32 pattern, the 64 patterns around each of the 255
 * rounding points (k + 0.5) / 255 (where the rules differ) and around 0 and
 * 1, and the specials; each value goes through all four channels and every
 * lane position (the rows are 37 texels long: full vectors and a scalar
 * tail).  The loads (stex__unorm8_unrow): every code in every byte
 * against the decode tables.  `--exhaustive` (suite exhaustive) runs all 2^32 patterns through
 * the best variant.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "convert/codec_inline.h"
#include "convert/fast.h"
#include "convert/unorm8_row.h"

enum { ROW = 37 };

static const uint32_t RULES[] = {STEX__UNORM8_EXACT_EVEN, STEX__UNORM8_EXACT_HALF_UP,
                                 STEX__UNORM8_F32_EVEN, STEX__UNORM8_FIXED4};

static uint64_t bad;

/* Converts n values (n <= ROW * 4 would do; any n) with the value of texel
 * i's channel c being v[(i * 4 + c + shift) % n]; compares with the scalar
 * codec. */
static void check(int level, uint32_t round, uint32_t nan, const uint32_t *v, size_t n,
                  size_t shift)
{
    float ch[4][ROW];
    uint32_t out[ROW], want[ROW];
    for (size_t i = 0; i < ROW; i++)
        for (int c = 0; c < 4; c++) {
            uint32_t u = v[(i * 4 + (size_t)c + shift) % n];
            memcpy(&ch[c][i], &u, 4);
        }
    stex__unorm8_row_level(level, round, nan, ROW, ch[0], ch[1], ch[2], ch[3], out);
    uint32_t one[ROW]; /* one channel: stex__unorm8_codes */
    stex__unorm8_codes_level(level, round, nan, ROW, ch[(shift + 1) & 3], one);
    for (size_t i = 0; i < ROW; i++)
        if (one[i] != stex__unorm8_encode(round, nan, ch[(shift + 1) & 3][i]) && bad++ < 8)
            print_error("level %d rule %u nan %u: one channel, texel %zu: %u\n", level, round,
                        nan, i, one[i]);
    for (size_t i = 0; i < ROW; i++) {
        want[i] = 0;
        for (int c = 0; c < 4; c++)
            want[i] |= stex__unorm8_encode(round, nan, ch[c][i]) << (8 * c);
        if (out[i] != want[i] && bad++ < 8) {
            uint32_t u[4];
            memcpy(u, (float[4]){ch[0][i], ch[1][i], ch[2][i], ch[3][i]}, 16);
            print_error("level %d rule %u nan %u: (%08x %08x %08x %08x) -> %08x, scalar %08x\n",
                        level, round, nan, u[0], u[1], u[2], u[3], out[i], want[i]);
        }
    }
}

/* Runs the patterns of buf through every lane position and channel. */
static void check_all(int level, const uint32_t *buf, size_t n)
{
    for (size_t r = 0; r < sizeof RULES / sizeof RULES[0]; r++)
        for (uint32_t nan = 0; nan <= 255; nan += 255)
            for (size_t at = 0; at < n; at += ROW * 4)
                for (size_t shift = 0; shift < 4; shift++)
                    check(level, RULES[r], nan, buf + at, n - at < ROW * 4 ? n - at : ROW * 4,
                          shift);
}

static uint32_t patterns[1u << 21];

static size_t make_patterns(void)
{
    size_t n = 0;
    for (uint64_t b = 0; b <= 0xffffffffu; b += 4099)
        patterns[n++] = (uint32_t)b;
    for (uint32_t k = 0; k <= 255; k++) { /* around (k + 0.5) / 255, 0 and 1 */
        float f = k == 255 ? 1.0f : ((float)k + 0.5f) / 255.0f;
        uint32_t u;
        memcpy(&u, &f, 4);
        for (uint32_t d = 0; d < 64; d++)
            patterns[n++] = u - 32 + d;
    }
    for (uint32_t d = 0; d < 64; d++)
        patterns[n++] = d, patterns[n++] = 0x80000000u | d;
    static const uint32_t special[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                                       0x7f800001u, 0x7fffffffu, 0x3f800000u, 0x3f800001u,
                                       0xbf800000u, 0x00800000u, 0x3effffffu, 0x3f000000u};
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        patterns[n++] = special[i];
    return n;
}

static void test_every_level(void **state)
{
    (void)state;
    size_t n = make_patterns();
    for (int level = 1; level <= stex__unorm8_row_best(); level++)
        check_all(level, patterns, n);
    if (bad)
        fail_msg("%llu texels differ from the scalar codec", (unsigned long long)bad);
}

/* The dispatching entry point is one of the variants. */
static void test_entry_point(void **state)
{
    (void)state;
    float r[ROW], g[ROW], b[ROW], a[ROW];
    for (int i = 0; i < ROW; i++)
        r[i] = (float)i / 36.0f, g[i] = 1.0f - r[i], b[i] = r[i] * 0.5f, a[i] = 1.0f;
    uint32_t x[ROW], y[ROW];
    for (size_t k = 0; k < sizeof RULES / sizeof RULES[0]; k++) {
        stex__unorm8_row(RULES[k], 0, ROW, r, g, b, a, x);
        stex__unorm8_row_level(1, RULES[k], 0, ROW, r, g, b, a, y);
        assert_memory_equal(x, y, sizeof x);
    }
}

/* The loads: every code in every byte, through each variant, against the
 * table itself (the converter's values: stex__unorm8_values). */
static void test_unrow(void **state)
{
    (void)state;
    for (int rule = 0; rule < 2; rule++) {
        const float *value = stex__unorm8_values(rule ? STEX_NORM_DECODE_MUL_RECIP
                                                      : STEX_NORM_DECODE_EXACT);
        enum { N = 256 + 5 }; /* full vectors and a tail */
        uint32_t w[N];
        for (uint32_t i = 0; i < N; i++)
            w[i] = (i & 0xff) | ((i * 7 + 3) & 0xff) << 8 | ((255 - i) & 0xff) << 16 |
                   ((i * 151) & 0xff) << 24;
        for (int level = 1; level <= 3; level++) {
            float c[4][N];
            stex__unorm8_unrow_level(level, value, N, w, c[0], c[1], c[2], c[3]);
            for (uint32_t i = 0; i < N; i++)
                for (int k = 0; k < 4; k++) {
                    float want = value[w[i] >> (8 * k) & 0xff];
                    if (memcmp(&c[k][i], &want, 4))
                        fail_msg("level %d rule %d: texel %u channel %d is %a, table %a", level,
                                 rule, i, k, (double)c[k][i], (double)want);
                }
        }
        float r[9], g[9], b[9], a[9], want[4][9];
        stex__unorm8_unrow(value, 9, w + 100, r, g, b, a);
        stex__unorm8_unrow_level(1, value, 9, w + 100, want[0], want[1], want[2], want[3]);
        assert_memory_equal(r, want[0], sizeof r);
        assert_memory_equal(a, want[3], sizeof a);
    }
}

static int run_exhaustive(void)
{
    int level = stex__unorm8_row_best();
    for (uint64_t base = 0; base <= 0xffffffffu; base += 1u << 20) {
        for (uint32_t i = 0; i < 1u << 20; i++)
            patterns[i] = (uint32_t)(base + i);
        for (size_t r = 0; r < sizeof RULES / sizeof RULES[0]; r++)
            for (size_t at = 0; at < 1u << 20; at += ROW * 4)
                check(level, RULES[r], 255, patterns + at,
                      (1u << 20) - at < ROW * 4 ? (1u << 20) - at : ROW * 4, 0);
    }
    printf("all 2^32 patterns, level %d: %llu texels differ\n", level, (unsigned long long)bad);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--exhaustive"))
        return run_exhaustive();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_level),
        cmocka_unit_test(test_entry_point),
        cmocka_unit_test(test_unrow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
