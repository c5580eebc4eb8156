/* Copies with WebGPU's byte layout: copyTextureToBuffer / copyBufferToTexture /
 * writeTexture against a reference built here from the layout rules, every
 * validation rule refused with its message, padding bytes untouched. */
#include "rtest.h"

#define SENTINEL 0xa5

/* The byte b of texel (x, y, z) of mip level m, as the tests fill it. */
static uint8_t pattern(uint32_t m, uint32_t x, uint32_t y, uint32_t z, uint32_t b)
{
    return (uint8_t)(x * 7u + y * 31u + z * 101u + m * 53u + b * 13u + 1u);
}

static stex_texture *make_texture(stex_device *dev, stex_texture_dimension dim, stex_extent3d size,
                                  stex_format f, uint32_t mips, uint32_t usage)
{
    stex_texture_desc td = {.dimension = dim, .size = size, .format = f, .mip_level_count = mips, .usage = usage};
    stex_texture *t;
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &t));
    /* fill every texel of every level through the layout's offsets */
    uint32_t bpp = stex_format_get(f)->bytes;
    for (uint32_t m = 0; m < mips; m++) {
        stex_extent3d e = stex_texture_mip_size(t, m);
        for (uint32_t z = 0; z < e.depth_or_array_layers; z++)
            for (uint32_t y = 0; y < e.height; y++)
                for (uint32_t x = 0; x < e.width; x++) {
                    size_t off = stex_texture_texel_offset(t, m, x, y, z);
                    for (uint32_t b = 0; b < bpp; b++)
                        stex_texture_memory(t)[off + b] = pattern(m, x, y, z, b);
                }
    }
    return t;
}

static stex_buffer *make_buffer(stex_device *dev, uint64_t size, uint32_t usage)
{
    stex_buffer *b;
    RTEST_CHECK_OK(stex_buffer_create(dev, &(stex_buffer_desc){.size = size, .usage = usage}, &b));
    memset(stex_buffer_data(b), SENTINEL, size);
    return b;
}

typedef struct copy_case {
    const char *name;
    stex_texture_dimension dim;
    stex_extent3d tex;
    stex_format format;
    uint32_t mips, mip;
    uint32_t origin[3];
    stex_extent3d size;
    stex_copy_layout layout;
} copy_case;

static const copy_case copies[] = {
    {"1d rgba8unorm", STEX_TEXTURE_DIMENSION_1D, {100, 1, 1}, STEX_FORMAT_RGBA8UNORM, 1, 0, {5, 0, 0}, {90, 1, 1}, {12, 0, 0}},
    {"2d rgba8unorm padded rows", STEX_TEXTURE_DIMENSION_2D, {37, 11, 1}, STEX_FORMAT_RGBA8UNORM, 1, 0, {0, 0, 0}, {37, 11, 1}, {0, 256, 0}},
    {"2d r32float sub-box, offset", STEX_TEXTURE_DIMENSION_2D, {64, 64, 1}, STEX_FORMAT_R32FLOAT, 1, 0, {9, 17, 0}, {30, 20, 1}, {64, 512, 0}},
    {"2d rgba32float mip 1", STEX_TEXTURE_DIMENSION_2D, {40, 30, 1}, STEX_FORMAT_RGBA32FLOAT, 3, 1, {3, 2, 0}, {17, 13, 1}, {16, 512, 0}},
    {"2d-array rgba16float layers 1..3", STEX_TEXTURE_DIMENSION_2D, {13, 7, 4}, STEX_FORMAT_RGBA16FLOAT, 1, 0, {1, 1, 1}, {12, 6, 3}, {0, 256, 9}},
    {"3d r8unorm", STEX_TEXTURE_DIMENSION_3D, {9, 7, 5}, STEX_FORMAT_R8UNORM, 2, 0, {0, 0, 0}, {9, 7, 5}, {256, 256, 7}},
    {"3d rg32uint mip 1", STEX_TEXTURE_DIMENSION_3D, {9, 7, 5}, STEX_FORMAT_RG32UINT, 2, 1, {1, 0, 0}, {3, 3, 2}, {8, 256, 4}},
};

/* Bytes a buffer needs for the case: WebGPU's required bytes in copy, plus offset. */
static uint64_t need_bytes(const copy_case *c, uint32_t bpp)
{
    uint64_t rpi = c->layout.rows_per_image ? c->layout.rows_per_image : c->size.height;
    return c->layout.offset + (uint64_t)c->layout.bytes_per_row * rpi * (c->size.depth_or_array_layers - 1) +
           (uint64_t)c->layout.bytes_per_row * (c->size.height - 1) + (uint64_t)c->size.width * bpp;
}

static void test_texture_to_buffer(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    for (size_t i = 0; i < sizeof copies / sizeof *copies; i++) {
        const copy_case *c = &copies[i];
        uint32_t bpp = stex_format_get(c->format)->bytes;
        stex_texture *t = make_texture(dev, c->dim, c->tex, c->format, c->mips, STEX_USAGE_COPY_SRC);
        uint64_t size = (need_bytes(c, bpp) + 64 + 3) / 4 * 4;
        stex_buffer *b = make_buffer(dev, size, STEX_BUFFER_USAGE_COPY_DST);
        uint8_t *expect = malloc(size);
        memset(expect, SENTINEL, size);
        uint64_t rpi = c->layout.rows_per_image ? c->layout.rows_per_image : c->size.height;
        for (uint32_t z = 0; z < c->size.depth_or_array_layers; z++)
            for (uint32_t y = 0; y < c->size.height; y++)
                for (uint32_t x = 0; x < c->size.width; x++)
                    for (uint32_t k = 0; k < bpp; k++)
                        expect[c->layout.offset + (z * rpi + y) * c->layout.bytes_per_row + x * bpp + k] =
                            pattern(c->mip, c->origin[0] + x, c->origin[1] + y, c->origin[2] + z, k);
        stex_copy_texture src = {.texture = t, .mip_level = c->mip, .origin = {c->origin[0], c->origin[1], c->origin[2]}};
        stex_status st = stex_copy_texture_to_buffer(&src, b, &c->layout, c->size);
        if (st)
            fail_msg("%s: %s", c->name, stex_last_error());
        for (uint64_t k = 0; k < size; k++)
            if (stex_buffer_data(b)[k] != expect[k])
                fail_msg("%s: buffer byte %llu is %02x, expected %02x", c->name, (unsigned long long)k,
                         stex_buffer_data(b)[k], expect[k]);
        free(expect);
        stex_buffer_destroy(b);
        stex_texture_destroy(t);
    }
    rtest_release(dev);
}

/* Buffer -> texture -> buffer, and writeTexture with unaligned rows. */
static void test_buffer_to_texture(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    for (size_t i = 0; i < sizeof copies / sizeof *copies; i++) {
        const copy_case *c = &copies[i];
        uint32_t bpp = stex_format_get(c->format)->bytes;
        stex_texture_desc td = {.dimension = c->dim, .size = c->tex, .format = c->format,
                                .mip_level_count = c->mips, .usage = STEX_USAGE_COPY_DST};
        stex_texture *t;
        RTEST_CHECK_OK(stex_texture_create(dev, &td, &t));
        uint64_t size = (need_bytes(c, bpp) + 3) / 4 * 4;
        stex_buffer *b = make_buffer(dev, size, STEX_BUFFER_USAGE_COPY_SRC);
        for (uint64_t k = 0; k < size; k++)
            stex_buffer_data(b)[k] = (uint8_t)(k * 11 + 3);
        stex_copy_texture dst = {.texture = t, .mip_level = c->mip, .origin = {c->origin[0], c->origin[1], c->origin[2]}};
        RTEST_CHECK_OK(stex_copy_buffer_to_texture(b, &c->layout, &dst, c->size));
        uint64_t rpi = c->layout.rows_per_image ? c->layout.rows_per_image : c->size.height;
        stex_extent3d e = stex_texture_mip_size(t, c->mip);
        for (uint32_t z = 0; z < e.depth_or_array_layers; z++)
            for (uint32_t y = 0; y < e.height; y++)
                for (uint32_t x = 0; x < e.width; x++) {
                    const uint8_t *texel = stex_texture_memory(t) + stex_texture_texel_offset(t, c->mip, x, y, z);
                    bool in = x >= c->origin[0] && x < c->origin[0] + c->size.width && y >= c->origin[1] &&
                              y < c->origin[1] + c->size.height && z >= c->origin[2] &&
                              z < c->origin[2] + c->size.depth_or_array_layers;
                    for (uint32_t k = 0; k < bpp; k++) {
                        uint64_t at = c->layout.offset +
                                      ((z - c->origin[2]) * rpi + (y - c->origin[1])) * c->layout.bytes_per_row +
                                      (x - c->origin[0]) * bpp + k;
                        uint8_t want = in ? (uint8_t)(at * 11 + 3) : 0;
                        if (texel[k] != want)
                            fail_msg("%s: texel (%u,%u,%u) byte %u is %02x, expected %02x", c->name, x, y, z, k,
                                     texel[k], want);
                    }
                }
        /* the same box through writeTexture with tight rows (no 256 rule) */
        stex_copy_layout tight = {.offset = 3, .bytes_per_row = c->size.width * bpp,
                                  .rows_per_image = c->size.height};
        size_t n = 3 + (size_t)c->size.width * bpp * c->size.height * c->size.depth_or_array_layers;
        uint8_t *data = malloc(n);
        for (size_t k = 0; k < n; k++)
            data[k] = (uint8_t)(k * 5 + 1);
        RTEST_CHECK_OK(stex_queue_write_texture(&dst, data, n, &tight, c->size));
        for (uint32_t z = 0; z < c->size.depth_or_array_layers; z++)
            for (uint32_t y = 0; y < c->size.height; y++)
                for (uint32_t x = 0; x < c->size.width; x++) {
                    const uint8_t *texel = stex_texture_memory(t) +
                                           stex_texture_texel_offset(t, c->mip, c->origin[0] + x, c->origin[1] + y,
                                                                     c->origin[2] + z);
                    size_t at = 3 + (((size_t)z * c->size.height + y) * c->size.width + x) * bpp;
                    assert_memory_equal(texel, data + at, bpp);
                }
        free(data);
        stex_buffer_destroy(b);
        stex_texture_destroy(t);
    }
    rtest_release(dev);
}

/* Every rule: refused with a message naming it; nothing changes. */
typedef struct bad_case {
    const char *why;
    int op;                    /* 0 texture->buffer, 1 buffer->texture, 2 writeTexture */
    uint32_t tex_usage, buf_usage;
    uint64_t buf_size;
    uint32_t mip;
    uint32_t origin[3];
    stex_extent3d size;
    stex_copy_layout layout;
    const char *message;
} bad_case;

#define TU (STEX_USAGE_COPY_SRC | STEX_USAGE_COPY_DST)
#define BU (STEX_BUFFER_USAGE_COPY_SRC | STEX_BUFFER_USAGE_COPY_DST)
static const bad_case bad[] = {
    {"bytesPerRow not a multiple of 256", 0, TU, BU, 4096, 0, {0}, {10, 2, 1}, {0, 100, 0}, "bytesPerRow 100 is not a multiple of 256"},
    {"bytesPerRow not a multiple of 256 (b2t)", 1, TU, BU, 4096, 0, {0}, {10, 2, 1}, {0, 300, 0}, "bytesPerRow 300 is not a multiple of 256"},
    {"texture lacks COPY_SRC", 0, STEX_USAGE_COPY_DST, BU, 4096, 0, {0}, {10, 2, 1}, {0, 256, 0}, "lacks COPY_SRC"},
    {"texture lacks COPY_DST", 1, STEX_USAGE_COPY_SRC, BU, 4096, 0, {0}, {10, 2, 1}, {0, 256, 0}, "lacks COPY_DST"},
    {"texture lacks COPY_DST (write)", 2, STEX_USAGE_COPY_SRC, BU, 4096, 0, {0}, {10, 2, 1}, {0, 40, 0}, "lacks COPY_DST"},
    {"buffer lacks COPY_DST", 0, TU, STEX_BUFFER_USAGE_COPY_SRC, 4096, 0, {0}, {10, 2, 1}, {0, 256, 0}, "buffer usage 0x4 lacks COPY_DST"},
    {"buffer lacks COPY_SRC", 1, TU, STEX_BUFFER_USAGE_COPY_DST, 4096, 0, {0}, {10, 2, 1}, {0, 256, 0}, "buffer usage 0x8 lacks COPY_SRC"},
    {"box beyond width", 0, TU, BU, 65536, 0, {10, 0, 0}, {30, 2, 1}, {0, 256, 0}, "origin.x 10 + copySize.width 30 > 32"},
    {"box beyond height", 1, TU, BU, 65536, 0, {0, 15, 0}, {4, 2, 1}, {0, 256, 0}, "origin.y 15 + copySize.height 2 > 16"},
    {"box beyond layers", 0, TU, BU, 65536, 0, {0, 0, 1}, {4, 2, 3}, {0, 256, 2}, "origin.array layer 1 + copySize.depthOrArrayLayers 3 > 3"},
    {"box beyond mip level size", 0, TU, BU, 65536, 1, {0, 0, 0}, {17, 1, 1}, {0, 256, 0}, "> 16 at mip level 1"},
    {"mip level out of range", 0, TU, BU, 65536, 2, {0, 0, 0}, {1, 1, 1}, {0, 256, 0}, "mipLevel 2 is not less than the texture's mipLevelCount 2"},
    {"offset not a multiple of the texel size", 0, TU, BU, 4096, 0, {0}, {4, 1, 1}, {2, 256, 0}, "offset 2 is not a multiple of the texel block copy footprint (4 bytes)"},
    {"rowsPerImage < height", 0, TU, BU, 65536, 0, {0}, {4, 4, 2}, {0, 256, 3}, "rowsPerImage 3 is less than copySize.height 4"},
    {"bytesPerRow < row bytes", 0, TU, BU, 65536, 0, {0}, {32, 2, 1}, {0, 0, 0}, "bytesPerRow must be specified"},
    {"bytesPerRow < row bytes (write)", 2, TU, BU, 65536, 0, {0}, {32, 2, 1}, {0, 100, 0}, "bytesPerRow 100 is less than the bytes in one row of the copy (32 texels x 4 bytes = 128)"},
    {"rowsPerImage missing with depth > 1", 0, TU, BU, 65536, 0, {0}, {4, 4, 2}, {0, 256, 0}, "bytesPerRow and rowsPerImage must be specified"},
    {"buffer too small", 0, TU, BU, 292, 0, {0}, {10, 2, 1}, {0, 256, 0}, "destination buffer size 292 is too small: offset 0 + required bytes in copy 296 = 296"},
    {"buffer too small with offset", 1, TU, BU, 512, 0, {0}, {10, 2, 1}, {256, 256, 0}, "source buffer size 512 is too small: offset 256 + required bytes in copy 296 = 552"},
    {"data too small", 2, TU, BU, 80, 0, {0}, {10, 2, 1}, {0, 50, 0}, "data size 80 is too small: offset 0 + required bytes in copy 90 = 90"},
};

static void test_invalid_copies(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const bad_case *c = &bad[i];
        stex_texture *t = make_texture(dev, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){32, 16, 3},
                                       STEX_FORMAT_RGBA8UNORM, 2, c->tex_usage);
        stex_buffer *b = make_buffer(dev, c->buf_size, c->buf_usage);
        size_t tsize = stex_texture_memory_size(t);
        uint8_t *tbefore = malloc(tsize);
        memcpy(tbefore, stex_texture_memory(t), tsize);
        stex_copy_texture ct = {.texture = t, .mip_level = c->mip, .origin = {c->origin[0], c->origin[1], c->origin[2]}};
        stex_status st;
        if (c->op == 0)
            st = stex_copy_texture_to_buffer(&ct, b, &c->layout, c->size);
        else if (c->op == 1)
            st = stex_copy_buffer_to_texture(b, &c->layout, &ct, c->size);
        else
            st = stex_queue_write_texture(&ct, stex_buffer_data(b), c->buf_size, &c->layout, c->size);
        if (c->op < 2) { /* the encoder's check gives the same verdict and message */
            char msg[512];
            snprintf(msg, sizeof msg, "%s", stex_last_error());
            stex_status ck = c->op == 0 ? stex_check_copy_texture_to_buffer(&ct, b, &c->layout, c->size)
                                        : stex_check_copy_buffer_to_texture(b, &c->layout, &ct, c->size);
            assert_int_equal(ck, st);
            assert_string_equal(stex_last_error(), msg);
        }
        if (st != STEX_VALIDATION_ERROR)
            fail_msg("%s: status %s, expected a validation error", c->why, stex_status_name(st));
        if (!strstr(stex_last_error(), c->message))
            fail_msg("%s: message \"%s\" does not contain \"%s\"", c->why, stex_last_error(), c->message);
        for (uint64_t k = 0; k < c->buf_size; k++)
            assert_int_equal(stex_buffer_data(b)[k], SENTINEL);
        assert_memory_equal(tbefore, stex_texture_memory(t), tsize);
        free(tbefore);
        stex_buffer_destroy(b);
        stex_texture_destroy(t);
    }
    rtest_release(dev);
}

/* Defaults and the exact size bound: a single row needs no bytesPerRow, a
 * single image no rowsPerImage, the last row needs only its own bytes. */
static void test_defaults_and_bounds(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_texture *t = make_texture(dev, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){32, 16, 1},
                                   STEX_FORMAT_RGBA8UNORM, 1, TU);
    stex_buffer *b = make_buffer(dev, 296, BU);
    stex_copy_texture ct = {.texture = t};
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&ct, b, &(stex_copy_layout){0}, (stex_extent3d){10, 1, 1}));
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&ct, b, &(stex_copy_layout){.bytes_per_row = 256},
                                               (stex_extent3d){10, 2, 0}));
    /* row 1 starts at byte 256: bytes 40..255 are padding and stay untouched */
    for (int k = 40; k < 256; k++)
        assert_int_equal(stex_buffer_data(b)[k], SENTINEL);
    assert_memory_equal(stex_buffer_data(b) + 256,
                        stex_texture_memory(t) + stex_texture_texel_offset(t, 0, 0, 1, 0), 4);
    /* an empty copy is valid and does nothing */
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&ct, b, &(stex_copy_layout){.bytes_per_row = 256},
                                               (stex_extent3d){0, 1, 1}));
    /* An explicit 0 height or depth (STEX_EXTENT_ZERO) is an empty copy too,
     * still validated: at the subresource's edge it is valid where the
     * default of 1 would leave the subresource (WebGPU's texture copy
     * range: origin + size <= the level's size). */
    uint8_t before[296];
    memcpy(before, stex_buffer_data(b), sizeof before);
    stex_copy_texture edge = {.texture = t, .origin = {0, 16, 0}};
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&edge, b, &(stex_copy_layout){0},
                                               (stex_extent3d){10, STEX_EXTENT_ZERO, 1}));
    assert_int_equal(stex_copy_texture_to_buffer(&edge, b, &(stex_copy_layout){0},
                                                 (stex_extent3d){10, 0, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "origin.y 16 + copySize.height 1 > 16"));
    stex_copy_texture layer1 = {.texture = t, .origin = {0, 0, 1}};
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&layer1, b, &(stex_copy_layout){0},
                                               (stex_extent3d){10, 1, STEX_EXTENT_ZERO}));
    assert_int_equal(stex_copy_texture_to_buffer(&layer1, b, &(stex_copy_layout){0},
                                                 (stex_extent3d){10, 1, 0}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "copy box out of the subresource"));
    /* A given bytesPerRow of 0 (STEX_LAYOUT_ZERO) is checked against the
     * row, where a missing one would be asked for: one row of 10 texels
     * needs 40 bytes; an empty row needs none, even over two rows. */
    assert_int_equal(stex_copy_texture_to_buffer(&ct, b, &(stex_copy_layout){.bytes_per_row =
                                                     STEX_LAYOUT_ZERO},
                                                 (stex_extent3d){10, 1, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "bytesPerRow 0 is less than"));
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&ct, b, &(stex_copy_layout){.bytes_per_row =
                                                   STEX_LAYOUT_ZERO},
                                               (stex_extent3d){0, 2, 1}));
    assert_int_equal(stex_copy_texture_to_buffer(&ct, b, &(stex_copy_layout){0},
                                                 (stex_extent3d){0, 2, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "bytesPerRow must be specified"));
    assert_memory_equal(stex_buffer_data(b), before, sizeof before);
    /* STEX_COPY_EXACT: 0xffffffff is that number, not "0".  A
     * rowsPerImage of 4294967295 covers a one-image copy (WebGPU needs only
     * rowsPerImage >= the copy's rows); a bytesPerRow of 4294967295 is not a
     * multiple of 256; a height of 4294967295 leaves the texture (where the
     * STEX_EXTENT_ZERO reading made it an empty, valid copy). */
    stex_copy_texture exact = {.texture = t, .exact = STEX_COPY_EXACT};
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&exact, b, &(stex_copy_layout){
                                                   .bytes_per_row = 256, .rows_per_image = 0xffffffffu},
                                               (stex_extent3d){10, 1, 1}));
    assert_int_equal(stex_copy_texture_to_buffer(&exact, b, &(stex_copy_layout){
                                                     .bytes_per_row = 0xffffffffu},
                                                 (stex_extent3d){10, 1, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "4294967295"));
    /* ... and 0 is a given 0 unless its UNSET bit says it was left out */
    assert_int_equal(stex_copy_texture_to_buffer(&exact, b, &(stex_copy_layout){0},
                                                 (stex_extent3d){10, 1, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "bytesPerRow 0 is less than"));
    stex_copy_texture unset = {.texture = t, .exact = STEX_COPY_EXACT | STEX_COPY_BYTES_PER_ROW_UNSET |
                                                      STEX_COPY_ROWS_PER_IMAGE_UNSET};
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&unset, b, &(stex_copy_layout){0},
                                               (stex_extent3d){10, 1, 1}));
    assert_int_equal(stex_copy_texture_to_buffer(&exact, b, &(stex_copy_layout){.bytes_per_row = 256},
                                                 (stex_extent3d){10, 0xffffffffu, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "4294967295"));
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&exact, b, &(stex_copy_layout){.bytes_per_row = 256},
                                               (stex_extent3d){10, 0, 1}));
    stex_buffer_destroy(b);
    stex_texture_destroy(t);
    rtest_release(dev);
}

/* copyTextureToTexture: every texel of the box moved (checked against the
 * fill pattern of the source's texels), between mip levels, from an array
 * layer to another of the same texture, rgba8unorm to rgba8unorm-srgb; the
 * texels outside the box untouched; and each rule refused with nothing
 * written. */
static void test_texture_to_texture(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    const uint32_t both = STEX_USAGE_COPY_SRC | STEX_USAGE_COPY_DST;
    stex_texture *a = make_texture(dev, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){32, 16, 3},
                                   STEX_FORMAT_RGBA8UNORM, 2, both);
    stex_texture *b = make_texture(dev, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){20, 20, 2},
                                   STEX_FORMAT_RGBA8UNORM_SRGB, 1, both);
    stex_copy_texture from = {.texture = a, .mip_level = 1, .origin = {3, 2, 0}};
    stex_copy_texture to = {.texture = b, .origin = {5, 7, 1}};
    stex_extent3d box = {9, 5, 2}; /* layers 0-1 of level 1 (16x8) into layers 1.. of b: too deep */
    assert_int_equal(stex_copy_texture_to_texture(&from, &to, box), STEX_VALIDATION_ERROR);
    box.depth_or_array_layers = 1;
    RTEST_CHECK_OK(stex_copy_texture_to_texture(&from, &to, box));
    for (uint32_t z = 0; z < 2; z++)
        for (uint32_t y = 0; y < 20; y++)
            for (uint32_t x = 0; x < 20; x++) {
                bool in = z == 1 && x >= 5 && x < 14 && y >= 7 && y < 12;
                const uint8_t *got = stex_texture_memory(b) + stex_texture_texel_offset(b, 0, x, y, z);
                for (uint32_t k = 0; k < 4; k++) {
                    uint8_t want = in ? pattern(1, x - 5 + 3, y - 7 + 2, 0, k) : pattern(0, x, y, z, k);
                    if (got[k] != want)
                        fail_msg("texel (%u, %u, %u) byte %u: %u, expected %u", x, y, z, k, got[k], want);
                }
            }
    /* layer 2 of a from layer 0: the same texture, other subresources */
    stex_copy_texture l0 = {.texture = a, .origin = {0, 0, 0}}, l2 = {.texture = a, .origin = {0, 0, 2}};
    RTEST_CHECK_OK(stex_copy_texture_to_texture(&l0, &l2, (stex_extent3d){32, 16, 1}));
    assert_memory_equal(stex_texture_memory(a) + stex_texture_texel_offset(a, 0, 31, 15, 2),
                        stex_texture_memory(a) + stex_texture_texel_offset(a, 0, 31, 15, 0), 4);
    /* the encoder's check: the same verdict, nothing moved */
    stex_copy_texture c0 = {.texture = a, .origin = {0, 0, 0}}, c1 = {.texture = a, .origin = {0, 0, 1}};
    size_t asize0 = stex_texture_memory_size(a);
    uint8_t *snap = malloc(asize0);
    memcpy(snap, stex_texture_memory(a), asize0);
    RTEST_CHECK_OK(stex_check_copy_texture_to_texture(&c0, &c1, (stex_extent3d){32, 16, 1}));
    assert_memory_equal(snap, stex_texture_memory(a), asize0);
    assert_int_equal(stex_check_copy_texture_to_texture(&c0, &c0, (stex_extent3d){32, 16, 1}),
                     STEX_VALIDATION_ERROR);
    free(snap);
    /* refused: overlapping subresources, formats, usage */
    stex_texture *r = make_texture(dev, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){8, 8, 1},
                                   STEX_FORMAT_R32FLOAT, 1, both);
    stex_texture *ro = make_texture(dev, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){8, 8, 1},
                                    STEX_FORMAT_RGBA8UNORM, 1, STEX_USAGE_COPY_SRC);
    size_t asize = stex_texture_memory_size(a);
    uint8_t *before = malloc(asize);
    memcpy(before, stex_texture_memory(a), asize);
    struct { stex_copy_texture s, d; const char *msg; } bad[] = {
        {{.texture = a, .origin = {0, 0, 0}}, {.texture = a, .origin = {16, 0, 0}}, "same subresources"},
        {{.texture = r}, {.texture = a}, "not copy-compatible"},
        {{.texture = a}, {.texture = ro}, "lacks COPY_DST"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(stex_copy_texture_to_texture(&bad[i].s, &bad[i].d, (stex_extent3d){8, 8, 1}),
                         STEX_VALIDATION_ERROR);
        if (!strstr(stex_last_error(), bad[i].msg))
            fail_msg("\"%s\" does not say \"%s\"", stex_last_error(), bad[i].msg);
    }
    assert_memory_equal(before, stex_texture_memory(a), asize);
    free(before);
    stex_texture_destroy(ro);
    stex_texture_destroy(r);
    stex_texture_destroy(b);
    stex_texture_destroy(a);
    rtest_release(dev);
}

/* copyBufferToBuffer and clearBuffer: the bytes moved or cleared, and
 * each rule refused - by the copy and by the encoder's check alike, the
 * check never touching a byte. */
static void test_buffer_copies(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    const uint32_t both = STEX_BUFFER_USAGE_COPY_SRC | STEX_BUFFER_USAGE_COPY_DST;
    stex_buffer *a = make_buffer(dev, 64, both), *b = make_buffer(dev, 64, both);
    stex_buffer *ro = make_buffer(dev, 64, STEX_BUFFER_USAGE_COPY_SRC);
    for (int i = 0; i < 64; i++)
        stex_buffer_data(a)[i] = (uint8_t)(i * 7 + 1);
    RTEST_CHECK_OK(stex_check_copy_buffer_to_buffer(a, 8, b, 16, 32));
    for (int i = 0; i < 64; i++)
        assert_int_equal(stex_buffer_data(b)[i], SENTINEL); /* the check moved nothing */
    RTEST_CHECK_OK(stex_copy_buffer_to_buffer(a, 8, b, 16, 32));
    for (int i = 0; i < 64; i++)
        assert_int_equal(stex_buffer_data(b)[i], i >= 16 && i < 48 ? (uint8_t)((i - 8) * 7 + 1) : SENTINEL);
    RTEST_CHECK_OK(stex_check_clear_buffer(b, 16, 8));
    assert_int_equal(stex_buffer_data(b)[16], (uint8_t)(8 * 7 + 1));
    RTEST_CHECK_OK(stex_clear_buffer(b, 16, 8));
    for (int i = 16; i < 24; i++)
        assert_int_equal(stex_buffer_data(b)[i], 0);
    struct { stex_buffer *s, *d; uint64_t so, dof, size; const char *msg; } bad[] = {
        {a, a, 0, 32, 16, "same buffer"},
        {b, ro, 0, 0, 16, "lacks COPY_DST"},
        {a, b, 2, 0, 16, "multiples of 4"},
        {a, b, 48, 0, 32, "exceeds the source size"},
        {a, b, 0, 40, 32, "exceeds the destination size"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(stex_check_copy_buffer_to_buffer(bad[i].s, bad[i].so, bad[i].d, bad[i].dof, bad[i].size),
                         STEX_VALIDATION_ERROR);
        assert_non_null(strstr(stex_last_error(), bad[i].msg));
        assert_int_equal(stex_copy_buffer_to_buffer(bad[i].s, bad[i].so, bad[i].d, bad[i].dof, bad[i].size),
                         STEX_VALIDATION_ERROR);
        assert_non_null(strstr(stex_last_error(), bad[i].msg));
    }
    assert_int_equal(stex_check_clear_buffer(ro, 0, 8), STEX_VALIDATION_ERROR);
    assert_int_equal(stex_clear_buffer(b, 60, 8), STEX_VALIDATION_ERROR);
    stex_buffer_destroy(ro);
    stex_buffer_destroy(b);
    stex_buffer_destroy(a);
    rtest_release(dev);
}

/* Multisampled textures: copyTextureToTexture between equal sample counts
 * over the whole level moves every sample; a part of the level, unequal
 * sample counts and buffer copies are refused (WebGPU's copy rules). */
static void test_multisampled_copies(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC);
    stex_texture_desc td = {.dimension = STEX_TEXTURE_DIMENSION_2D, .size = {4, 2, 1},
                            .format = STEX_FORMAT_R32UINT, .sample_count = 4,
                            .usage = TU | STEX_USAGE_RENDER_ATTACHMENT};
    stex_texture *a, *b, *one;
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &a));
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &b));
    td.sample_count = 1;
    RTEST_CHECK_OK(stex_texture_create(dev, &td, &one));
    uint32_t v[4][8];
    for (uint32_t s = 0; s < 4; s++) {
        for (uint32_t i = 0; i < 8; i++)
            v[s][i] = 1000 * s + i + 1;
        RTEST_CHECK_OK(stex_texture_set_texels(a, 0, s, v[s], sizeof v[s]));
    }
    stex_copy_texture from = {.texture = a}, to = {.texture = b};
    RTEST_CHECK_OK(stex_copy_texture_to_texture(&from, &to, (stex_extent3d){4, 2, 1}));
    const stex_level_layout *l = &stex_texture_get_layout(b)->level[0];
    for (uint32_t s = 0; s < 4; s++)
        for (uint32_t i = 0; i < 8; i++) {
            uint32_t got;
            memcpy(&got, stex_texture_memory(b) + stex_level_offset(l, i % 4, i / 4, s), 4);
            assert_int_equal(got, v[s][i]);
        }
    assert_int_equal(stex_check_copy_texture_to_texture(&from, &to, (stex_extent3d){2, 2, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "must cover the whole subresource"));
    stex_copy_texture single = {.texture = one};
    assert_int_equal(stex_check_copy_texture_to_texture(&from, &single, (stex_extent3d){4, 2, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "source sampleCount 4 and destination sampleCount 1"));
    stex_buffer *buf = make_buffer(dev, 1024, BU);
    assert_int_equal(stex_copy_texture_to_buffer(&from, buf, &(stex_copy_layout){0, 256, 0},
                                                 (stex_extent3d){4, 2, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "need sampleCount 1"));
    stex_buffer_destroy(buf);
    stex_texture_destroy(one);
    stex_texture_destroy(b);
    stex_texture_destroy(a);
    rtest_release(dev);
}

/* Objects of two devices never meet in one copy (WebGPU: "valid to use
 * with" the encoder's device). */
static void test_device_mismatch(void **state)
{
    (void)state;
    stex_device *dev = rtest_device(STEX_PROFILE_SPEC), *other;
    RTEST_CHECK_OK(stex_device_create(rtest_adapter_, &(stex_device_desc){0}, &other));
    stex_texture *a = make_texture(dev, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){4, 4, 1},
                                   STEX_FORMAT_RGBA8UNORM, 1, TU);
    stex_texture *b = make_texture(other, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){4, 4, 1},
                                   STEX_FORMAT_RGBA8UNORM, 1, TU);
    stex_buffer *buf = make_buffer(other, 1024, BU);
    stex_copy_texture ca = {.texture = a}, cb = {.texture = b};
    assert_int_equal(stex_check_copy_texture_to_texture(&ca, &cb, (stex_extent3d){4, 4, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "belong to different devices"));
    stex_copy_layout l = {0, 256, 0};
    assert_int_equal(stex_check_copy_texture_to_buffer(&ca, buf, &l, (stex_extent3d){4, 4, 1}),
                     STEX_VALIDATION_ERROR);
    assert_non_null(strstr(stex_last_error(), "belong to different devices"));
    assert_int_equal(stex_check_copy_buffer_to_texture(buf, &l, &ca, (stex_extent3d){4, 4, 1}),
                     STEX_VALIDATION_ERROR);
    RTEST_CHECK_OK(stex_check_copy_buffer_to_texture(buf, &l, &cb, (stex_extent3d){4, 4, 1}));
    stex_buffer_destroy(buf);
    stex_texture_destroy(a);
    stex_texture_destroy(b);
    stex_device_destroy(other);
    rtest_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_texture_to_buffer),
        cmocka_unit_test(test_buffer_to_texture),
        cmocka_unit_test(test_invalid_copies),
        cmocka_unit_test(test_defaults_and_bounds),
        cmocka_unit_test(test_texture_to_texture),
        cmocka_unit_test(test_buffer_copies),
        cmocka_unit_test(test_multisampled_copies),
        cmocka_unit_test(test_device_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
