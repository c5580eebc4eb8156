/* Tiled layout: bijection, 8x8 blocks, Morton order, padding bound,
 * Morton variants (inline / table / pdep / decode). */
#include "rtest.h"

typedef struct dim_case {
    stex_texture_dimension dim;
    uint32_t layers; /* 2d-array layers / 3d depth */
    const char *name;
} dim_case;

static const dim_case dims[] = {
    {STEX_TEXTURE_DIMENSION_1D, 1, "1d"},
    {STEX_TEXTURE_DIMENSION_2D, 1, "2d"},
    {STEX_TEXTURE_DIMENSION_2D, 3, "2d-array"},
    {STEX_TEXTURE_DIMENSION_3D, 3, "3d"},
};
static const uint32_t sizes[][2] = {{1, 1}, {7, 3}, {13, 7}, {64, 64}, {1000, 3}, {8192, 1}, {130, 67}};
static const uint32_t bpps[] = {1, 2, 4, 8, 16};

/* Every real texel of every level and layer gets its own bytes, inside the
 * level, and the padded grid of each slice maps exactly onto the slice. */
static void test_bijection(void **state)
{
    (void)state;
    for (size_t d = 0; d < sizeof dims / sizeof *dims; d++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (size_t b = 0; b < sizeof bpps / sizeof *bpps; b++) {
                uint32_t w = sizes[s][0], h = dims[d].dim == STEX_TEXTURE_DIMENSION_1D ? 1 : sizes[s][1];
                uint32_t mips = 1;
                while ((w >> mips) || (h >> mips))
                    mips++;
                if (mips > 4)
                    mips = 4;
                stex_texture_layout tl;
                RTEST_CHECK_OK(stex_texture_layout_init(&tl, dims[d].dim, w, h, dims[d].layers, mips, bpps[b]));
                uint8_t *used = calloc(tl.size, 1);
                assert_non_null(used);
                for (uint32_t m = 0; m < mips; m++) {
                    const stex_level_layout *l = &tl.level[m];
                    assert_true(l->base % STEX_LEVEL_ALIGN == 0);
                    for (uint32_t z = 0; z < l->depth; z++)
                        for (uint32_t y = 0; y < l->height; y++)
                            for (uint32_t x = 0; x < l->width; x++) {
                                uint64_t off = stex_level_offset(l, x, y, z);
                                if (off % bpps[b] || off < l->base ||
                                    off + bpps[b] > l->base + stex_level_layout_bytes(l))
                                    fail_msg("%s %ux%u bpp %u level %u texel (%u,%u,%u): offset %llu outside the level",
                                             dims[d].name, w, h, bpps[b], m, x, y, z, (unsigned long long)off);
                                if (used[off])
                                    fail_msg("%s %ux%u bpp %u level %u texel (%u,%u,%u): offset %llu used twice",
                                             dims[d].name, w, h, bpps[b], m, x, y, z, (unsigned long long)off);
                                used[off] = 1;
                            }
                    /* the padded grid covers each slice exactly once */
                    uint64_t side = (uint64_t)1 << l->shift, slots = l->slice_bytes / bpps[b];
                    uint64_t pw = l->shift ? l->tiles_per_row * side : l->width;
                    uint64_t ph = l->shift ? l->tile_rows * side : l->height;
                    assert_int_equal(pw * ph, slots);
                    uint8_t *slot = calloc(slots, 1);
                    for (uint64_t y = 0; y < ph; y++)
                        for (uint64_t x = 0; x < pw; x++) {
                            uint64_t k = (stex_level_offset(l, (uint32_t)x, (uint32_t)y, 0) - l->base) / bpps[b];
                            if (k >= slots || slot[k])
                                fail_msg("%s %ux%u bpp %u level %u: padded (%llu,%llu) -> slot %llu of %llu, not a bijection",
                                         dims[d].name, w, h, bpps[b], m, (unsigned long long)x,
                                         (unsigned long long)y, (unsigned long long)k, (unsigned long long)slots);
                            slot[k] = 1;
                        }
                    free(slot);
                }
                free(used);
            }
}

/* Texels of one 8x8 block share one contiguous 64-texel run (2d, 3d slices). */
static void test_blocks(void **state)
{
    (void)state;
    const uint32_t ws[] = {13, 64, 100, 1024}, hs[] = {7, 64, 100, 40};
    for (size_t s = 0; s < 4; s++)
        for (size_t b = 0; b < sizeof bpps / sizeof *bpps; b++) {
            stex_level_layout l;
            RTEST_CHECK_OK(stex_level_layout_tiled(&l, ws[s], hs[s], 2, bpps[b]));
            uint64_t block_bytes = 64ull * bpps[b];
            for (uint32_t z = 0; z < 2; z++)
                for (uint32_t y = 0; y < hs[s]; y++)
                    for (uint32_t x = 0; x < ws[s]; x++) {
                        uint64_t corner = stex_level_offset(&l, x & ~7u, y & ~7u, z);
                        uint64_t off = stex_level_offset(&l, x, y, z);
                        if (corner % block_bytes || off < corner || off >= corner + block_bytes)
                            fail_msg("%ux%u bpp %u: texel (%u,%u,%u) at %llu is not in the block at %llu",
                                     ws[s], hs[s], bpps[b], x, y, z, (unsigned long long)off,
                                     (unsigned long long)corner);
                        /* inside the block: the Morton index of (x&7, y&7), from the definition */
                        uint32_t mi = 0;
                        for (int bit = 0; bit < 3; bit++)
                            mi |= ((x >> bit) & 1u) << (2 * bit) | ((y >> bit) & 1u) << (2 * bit + 1);
                        assert_int_equal(off - corner, (uint64_t)mi * bpps[b]);
                    }
        }
}

/* Blocks inside a macro-tile follow the Morton curve; macro-tiles row-major. */
static void test_morton_blocks(void **state)
{
    (void)state;
    stex_level_layout l;
    RTEST_CHECK_OK(stex_level_layout_tiled(&l, 1024, 1024, 1, 4));
    assert_int_equal(l.shift, STEX_TILE_MAX_LOG2); /* 1024 is a multiple of 128: no padding */
    uint32_t blocks = 1u << (l.shift - 3);
    for (uint32_t by = 0; by < 1024 / 8; by++)
        for (uint32_t bx = 0; bx < 1024 / 8; bx++) {
            uint32_t ix = bx % blocks, iy = by % blocks, mi = 0;
            for (int bit = 0; bit < 8; bit++)
                mi |= ((ix >> bit) & 1u) << (2 * bit) | ((iy >> bit) & 1u) << (2 * bit + 1);
            uint64_t tile = (uint64_t)(by / blocks) * (1024 / (8 * blocks)) + bx / blocks;
            uint64_t expect = tile * blocks * blocks * 256 + (uint64_t)mi * 256;
            assert_int_equal(stex_level_offset(&l, bx * 8, by * 8, 0), expect);
        }
    /* 65x65: only plain blocks keep the padding within 25% */
    RTEST_CHECK_OK(stex_level_layout_tiled(&l, 65, 65, 1, 4));
    assert_int_equal(l.shift, 3);
    /* 1d textures are linear */
    stex_texture_layout tl;
    RTEST_CHECK_OK(stex_texture_layout_init(&tl, STEX_TEXTURE_DIMENSION_1D, 100, 1, 1, 1, 4));
    for (uint32_t x = 0; x < 100; x++)
        assert_int_equal(stex_level_offset(&tl.level[0], x, 0, 0), 4ull * x);
}

/* Padding stays within 25% of the texel bytes for every size >= 64x64. */
static void test_overhead(void **state)
{
    (void)state;
    double worst = 0;
    uint32_t ww = 0, wh = 0;
    for (uint32_t w = 64; w <= 600; w += 1)
        for (uint32_t h = 64; h <= 600; h += (h < 140 ? 1 : 37)) {
            stex_level_layout l;
            RTEST_CHECK_OK(stex_level_layout_tiled(&l, w, h, 1, 4));
            double r = (double)stex_level_layout_bytes(&l) / (4.0 * w * h);
            if (r > worst) {
                worst = r;
                ww = w;
                wh = h;
            }
        }
    const uint32_t big[][2] = {{4097, 4097}, {8191, 65}, {8192, 8192}, {1000, 1000}, {2049, 1025}};
    for (size_t i = 0; i < 5; i++) {
        stex_level_layout l;
        RTEST_CHECK_OK(stex_level_layout_tiled(&l, big[i][0], big[i][1], 1, 16));
        double r = (double)stex_level_layout_bytes(&l) / (16.0 * big[i][0] * big[i][1]);
        if (r > worst) {
            worst = r;
            ww = big[i][0];
            wh = big[i][1];
        }
    }
    if (worst > 1.25)
        fail_msg("padding %.4f x the texel bytes at %ux%u exceeds the 1.25 bound", worst, ww, wh);
    print_message("worst padding over the sweep: %.4f at %ux%u\n", worst, ww, wh);
}

/* The Morton variants agree with the bit-by-bit definition. */
static void test_morton_variants(void **state)
{
    (void)state;
    bool pdep = stex_morton2_pdep_available();
    for (uint32_t y = 0; y < 300; y++)
        for (uint32_t x = 0; x < 300; x++) {
            uint32_t xs = x * 211u % 65536u, ys = y * 197u % 65536u, m = 0;
            for (int bit = 0; bit < 16; bit++)
                m |= ((xs >> bit) & 1u) << (2 * bit) | ((ys >> bit) & 1u) << (2 * bit + 1);
            assert_int_equal(stex_morton2(xs, ys), m);
            assert_int_equal(stex_morton2_table(xs, ys), m);
            if (pdep)
                assert_int_equal(stex_morton2_pdep(xs, ys), m);
            uint32_t dx, dy;
            stex_morton2_decode(m, &dx, &dy);
            assert_int_equal(dx, xs);
            assert_int_equal(dy, ys);
        }
}

static void test_bad_sizes(void **state)
{
    (void)state;
    stex_level_layout l;
    assert_int_equal(stex_level_layout_tiled(&l, 0, 4, 1, 4), STEX_INVALID_ARGUMENT);
    assert_int_equal(stex_level_layout_linear(&l, 4, 4, 1, 0), STEX_INVALID_ARGUMENT);
    assert_int_equal(stex_level_layout_linear(&l, 4, 4, 1, 3), STEX_INVALID_ARGUMENT);
    stex_texture_layout tl;
    assert_int_equal(stex_texture_layout_init(&tl, STEX_TEXTURE_DIMENSION_2D, 4, 4, 1, 0, 4),
                     STEX_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bijection),     cmocka_unit_test(test_blocks),
        cmocka_unit_test(test_morton_blocks), cmocka_unit_test(test_overhead),
        cmocka_unit_test(test_morton_variants), cmocka_unit_test(test_bad_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
