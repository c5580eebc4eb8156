/* Compressed (BC) textures: creation rules, memory counted in 4x4 texel
 * blocks, and copies that move blocks as raw bytes under WebGPU's block
 * rules.  The expectations come from the spec written out here (block
 * sizes from the BC family's definition, the "physical miplevel-specific
 * texture extent", "validating linear texture data" with its offsets
 * computed by hand), not from stex's format table. */
#include "rtest.h"

#define TU (STEX_USAGE_COPY_SRC | STEX_USAGE_COPY_DST | STEX_USAGE_TEXTURE_BINDING)
#define BU (STEX_BUFFER_USAGE_COPY_SRC | STEX_BUFFER_USAGE_COPY_DST)

/* The BC family with its block bytes: BC1 and BC4 pack a 4x4 block into
 * 64 bits, the others into 128 (the spec's texel block copy footprint). */
static const struct {
    const char *name;
    uint32_t bytes;
} bc_formats[] = {
    {"bc1-rgba-unorm", 8}, {"bc1-rgba-unorm-srgb", 8}, {"bc2-rgba-unorm", 16},
    {"bc2-rgba-unorm-srgb", 16}, {"bc3-rgba-unorm", 16}, {"bc3-rgba-unorm-srgb", 16},
    {"bc4-r-unorm", 8}, {"bc4-r-snorm", 8}, {"bc5-rg-unorm", 16}, {"bc5-rg-snorm", 16},
    {"bc6h-rgb-ufloat", 16}, {"bc6h-rgb-float", 16}, {"bc7-rgba-unorm", 16},
    {"bc7-rgba-unorm-srgb", 16},
};
#define N_BC (sizeof bc_formats / sizeof *bc_formats)

/* a spec-profile device with the features a case needs */
static stex_device *device_with(uint32_t features)
{
    return rtest_device_with(STEX_PROFILE_SPEC, features);
}

static stex_format fmt(const char *name)
{
    stex_format f = stex_format_from_name(name);
    if (f == STEX_FORMAT_UNDEFINED)
        fail_msg("format %s is not in stex's table", name);
    return f;
}

static stex_status create(stex_device *d, stex_texture_dimension dim, stex_extent3d size,
                          const char *format, uint32_t mips, uint32_t usage, stex_texture **out)
{
    stex_texture_desc td = {.dimension = dim, .size = size, .format = fmt(format),
                            .mip_level_count = mips, .usage = usage};
    return stex_texture_create(d, &td, out);
}

static void expect_refusal(stex_status st, stex_status want, const char *why, const char *msg)
{
    if (st != want)
        fail_msg("%s: status %s, expected %s (%s)", why, stex_status_name(st),
                 stex_status_name(want), st ? stex_last_error() : "accepted");
    if (!strstr(stex_last_error(), msg))
        fail_msg("%s: message \"%s\" does not name \"%s\"", why, stex_last_error(), msg);
}

/* createTexture: the feature, the dimensions, the block multiple, the
 * usages a compressed format cannot have, the mip level count. */
static void test_create_rules(void **state)
{
    (void)state;
    stex_texture *t = NULL;
    stex_device *plain = device_with(0);
    for (size_t i = 0; i < N_BC; i++)
        expect_refusal(create(plain, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){4, 4, 1},
                              bc_formats[i].name, 1, TU, &t),
                       STEX_TYPE_ERROR, bc_formats[i].name, "requires feature texture-compression-bc");
    rtest_release(plain);

    stex_device *d = device_with(STEX_FEATURE_TEXTURE_COMPRESSION_BC);
    static const struct {
        const char *why;
        stex_texture_dimension dim;
        stex_extent3d size;
        uint32_t mips, usage;
        const char *msg; /* NULL: valid */
    } cases[] = {
        {"2d 16x12, 4 levels (level 3 is 2x1 texels)", STEX_TEXTURE_DIMENSION_2D, {16, 12, 1}, 4, TU, NULL},
        {"2d array of 3 layers", STEX_TEXTURE_DIMENSION_2D, {8, 8, 3}, 4, TU, NULL},
        {"width 6 is not a multiple of 4", STEX_TEXTURE_DIMENSION_2D, {6, 8, 1}, 1, TU, "size 6x8 of format bc1-rgba-unorm is not a multiple of its 4x4 block"},
        {"height 2 is not a multiple of 4", STEX_TEXTURE_DIMENSION_2D, {8, 2, 1}, 1, TU, "is not a multiple of its 4x4 block"},
        {"1d", STEX_TEXTURE_DIMENSION_1D, {16, 1, 1}, 1, TU, "1d textures cannot have"},
        {"3d without texture-compression-bc-sliced-3d", STEX_TEXTURE_DIMENSION_3D, {8, 8, 4}, 1, TU, "3d textures cannot have"},
        {"STORAGE_BINDING", STEX_TEXTURE_DIMENSION_2D, {8, 8, 1}, 1, TU | STEX_USAGE_STORAGE_BINDING, "cannot be a storage texture"},
        {"RENDER_ATTACHMENT", STEX_TEXTURE_DIMENSION_2D, {8, 8, 1}, 1, TU | STEX_USAGE_RENDER_ATTACHMENT, "RENDER_ATTACHMENT but compressed format bc1-rgba-unorm is not renderable"},
        /* 16x16 has 5 levels (16, 8, 4, 2, 1): the count is of texels, not blocks */
        {"16x16 with 5 levels", STEX_TEXTURE_DIMENSION_2D, {16, 16, 1}, 5, TU, NULL},
        {"16x16 with 6 levels", STEX_TEXTURE_DIMENSION_2D, {16, 16, 1}, 6, TU, "mipLevelCount 6 is more than the 5 levels"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stex_status st = create(d, cases[i].dim, cases[i].size, "bc1-rgba-unorm", cases[i].mips,
                                cases[i].usage, &t);
        if (!cases[i].msg) {
            if (st)
                fail_msg("%s: refused: %s", cases[i].why, stex_last_error());
            stex_texture_destroy(t);
        } else {
            expect_refusal(st, STEX_VALIDATION_ERROR, cases[i].why, cases[i].msg);
            assert_null(t);
        }
    }
    rtest_release(d);
}

/* Texel blocks a side of level m: the level's size (at least 1) rounded up
 * to whole blocks (the spec's physical extent, divided by 4). */
static uint32_t blocks(uint32_t texels, uint32_t m)
{
    uint32_t n = texels >> m ? texels >> m : 1;
    return (n + 3) / 4;
}

/* Memory: every level holds its physical size in blocks of the format's
 * bytes, every layer; the queries report sizes in texels. */
static void test_memory_in_blocks(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_TEXTURE_COMPRESSION_BC);
    for (size_t i = 0; i < N_BC; i++) {
        stex_texture *t;
        RTEST_CHECK_OK(create(d, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){20, 12, 2},
                              bc_formats[i].name, 5, TU, &t));
        const stex_texture_layout *l = stex_texture_get_layout(t);
        uint64_t sum = 0;
        for (uint32_t m = 0; m < 5; m++) {
            const stex_level_layout *lv = &l->level[m];
            assert_int_equal(lv->width, blocks(20, m));
            assert_int_equal(lv->height, blocks(12, m));
            assert_int_equal(lv->depth, 2);
            assert_int_equal(lv->bytes_per_texel, bc_formats[i].bytes);
            sum += (uint64_t)blocks(20, m) * blocks(12, m) * 2 * bc_formats[i].bytes;
            stex_extent3d e = stex_texture_mip_size(t, m);
            assert_int_equal(e.width, 20u >> m ? 20u >> m : 1);
            assert_int_equal(e.height, 12u >> m ? 12u >> m : 1);
            stex_extent3d p = stex_texture_physical_size(t, m);
            assert_int_equal(p.width, blocks(20, m) * 4);
            assert_int_equal(p.height, blocks(12, m) * 4);
        }
        /* every block has its own bytes (padding may add more) */
        assert_true(stex_texture_memory_size(t) >= sum);
        stex_texture_destroy(t);
    }
    rtest_release(d);
}

/* Fills n bytes with a pattern that differs from block to block. */
static void fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1u;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (uint8_t)(x >> 24);
    }
}

/* writeTexture then copyTextureToBuffer gives the bytes back, block by
 * block at the offsets the spec's "texel block byte offset" names; bytes
 * outside the blocks stay as they were. */
static void test_round_trip(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_TEXTURE_COMPRESSION_BC);
    static const struct {
        const char *why;
        stex_extent3d tex;
        uint32_t mips, mip, origin[3];
        stex_extent3d size;
        uint32_t bpr_write, rpi; /* rows per image, in blocks */
        uint64_t offset;
    } cases[] = {
        {"whole level 0", {16, 8, 1}, 1, 0, {0, 0, 0}, {16, 8, 1}, 0, 0, 0},
        {"sub-box with padded rows and offset", {32, 32, 1}, 1, 0, {8, 12, 0}, {12, 16, 1}, 100, 0, 3},
        {"layers 1..2 of 3 with rowsPerImage", {16, 16, 3}, 1, 0, {4, 0, 1}, {8, 12, 2}, 64, 5, 8},
        /* 12x12 level 1 is 6x6 texels, 8x8 physically: the copy reaches the edge */
        {"level 1 to its physical edge", {12, 12, 1}, 2, 1, {0, 0, 0}, {8, 8, 1}, 0, 0, 0},
        {"a 1x1 level is one block", {16, 16, 1}, 5, 4, {0, 0, 0}, {4, 4, 1}, 0, 0, 0},
    };
    for (size_t f = 0; f < N_BC; f++)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            uint32_t bb = bc_formats[f].bytes;
            uint32_t wb = cases[i].size.width / 4, hb = cases[i].size.height / 4;
            uint32_t layers = cases[i].size.depth_or_array_layers;
            uint32_t bpr = cases[i].bpr_write ? cases[i].bpr_write : wb * bb;
            uint32_t rpi = cases[i].rpi ? cases[i].rpi : hb;
            size_t n = cases[i].offset + (size_t)bpr * rpi * layers;
            uint8_t *data = malloc(n);
            fill(data, n, (uint32_t)(f * 16 + i));
            stex_texture *t;
            RTEST_CHECK_OK(create(d, STEX_TEXTURE_DIMENSION_2D, cases[i].tex, bc_formats[f].name,
                                  cases[i].mips, TU, &t));
            stex_copy_texture ct = {.texture = t, .mip_level = cases[i].mip,
                                    .origin = {cases[i].origin[0], cases[i].origin[1],
                                               cases[i].origin[2]}};
            stex_copy_layout wl = {cases[i].offset, bpr, cases[i].rpi};
            RTEST_CHECK_OK(stex_queue_write_texture(&ct, data, n, &wl, cases[i].size));
            /* read back through a buffer with 256-aligned rows */
            uint32_t bpr_read = (wb * bb + 255) / 256 * 256;
            uint64_t bsize = (uint64_t)bpr_read * hb * layers + 256;
            stex_buffer *b;
            RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = bsize, .usage = BU}, &b));
            memset(stex_buffer_data(b), 0xa5, bsize);
            stex_copy_layout rl = {256, bpr_read, hb};
            RTEST_CHECK_OK(stex_copy_texture_to_buffer(&ct, b, &rl, cases[i].size));
            const uint8_t *out = stex_buffer_data(b);
            for (uint32_t z = 0; z < layers; z++)
                for (uint32_t y = 0; y < hb; y++) {
                    const uint8_t *in_row = data + cases[i].offset + ((size_t)z * rpi + y) * bpr;
                    const uint8_t *out_row = out + 256 + ((size_t)z * hb + y) * bpr_read;
                    if (memcmp(in_row, out_row, (size_t)wb * bb))
                        fail_msg("%s %s: block row %u of layer %u differs", bc_formats[f].name,
                                 cases[i].why, y, z);
                    for (uint32_t k = wb * bb; k < bpr_read; k++)
                        assert_int_equal(out_row[k], 0xa5); /* row padding untouched */
                }
            for (uint32_t k = 0; k < 256; k++)
                assert_int_equal(out[k], 0xa5); /* before the offset */
            /* the block at the texel (origin) is the first block given */
            size_t at = stex_texture_texel_offset(t, cases[i].mip, cases[i].origin[0] + 3,
                                                  cases[i].origin[1] + 1, cases[i].origin[2]);
            assert_memory_equal(stex_texture_memory(t) + at, data + cases[i].offset, bb);
            stex_buffer_destroy(b);
            stex_texture_destroy(t);
            free(data);
        }
    rtest_release(d);
}

/* The block rules of the copies, each refused with its rule named and
 * nothing moved. */
static void test_copy_rules(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_TEXTURE_COMPRESSION_BC);
    static const struct {
        const char *why;
        int op; /* 0 texture->buffer, 1 buffer->texture, 2 writeTexture */
        uint32_t mip, origin[3];
        stex_extent3d size;
        stex_copy_layout layout;
        uint64_t buf_size;
        const char *msg; /* NULL: valid */
    } cases[] = {
        {"origin.x 2", 0, 0, {2, 0, 0}, {4, 4, 1}, {0, 256, 0}, 4096, "origin.x 2 is not a multiple of the texel block width 4 of bc7-rgba-unorm"},
        {"origin.y 6", 1, 0, {0, 6, 0}, {4, 4, 1}, {0, 256, 0}, 4096, "origin.y 6 is not a multiple of the texel block height 4"},
        {"width 6", 2, 0, {0, 0, 0}, {6, 4, 1}, {0, 256, 0}, 4096, "copySize.width 6 is not a multiple of the texel block width 4"},
        {"height 2", 0, 0, {0, 0, 0}, {4, 2, 1}, {0, 256, 0}, 4096, "copySize.height 2 is not a multiple of the texel block height 4"},
        /* 20x12 level 1 is 10x6 texels, 12x8 physically */
        {"level 1 to the physical edge", 0, 1, {8, 4, 0}, {4, 4, 1}, {0, 256, 0}, 4096, NULL},
        {"past the physical edge", 0, 1, {8, 4, 0}, {8, 4, 1}, {0, 256, 0}, 4096, "origin.x 8 + copySize.width 8 > 12 at mip level 1 (its physical size"},
        {"offset not a multiple of 16", 1, 0, {0, 0, 0}, {4, 4, 1}, {8, 256, 0}, 4096, "offset 8 is not a multiple of the texel block copy footprint (16 bytes)"},
        {"offset 16", 1, 0, {0, 0, 0}, {4, 4, 1}, {16, 256, 0}, 4096, NULL},
        {"writeTexture offset need not align", 2, 0, {0, 0, 0}, {8, 8, 1}, {3, 32, 0}, 4096, NULL},
        /* two rows of blocks need bytesPerRow; 8 texels tall is only 2 rows */
        {"two block rows without bytesPerRow", 2, 0, {0, 0, 0}, {4, 8, 1}, {0, 0, 0}, 4096, "bytesPerRow must be specified"},
        {"one block row without bytesPerRow", 2, 0, {0, 0, 0}, {8, 4, 1}, {0, 0, 0}, 4096, NULL},
        {"bytesPerRow under the row's blocks", 2, 0, {0, 0, 0}, {20, 8, 1}, {0, 79, 0}, 4096, "bytesPerRow 79 is less than the bytes in one row of the copy (5 texel blocks x 16 bytes = 80)"},
        {"bytesPerRow exactly the row's blocks", 2, 0, {0, 0, 0}, {20, 8, 1}, {0, 80, 0}, 4096, NULL},
        {"rowsPerImage in blocks", 2, 0, {0, 0, 0}, {4, 12, 2}, {0, 16, 2}, 4096, "rowsPerImage 2 is less than the copy's 3 rows of texel blocks"},
        {"rowsPerImage 3 blocks is enough for 12 texels", 2, 0, {0, 0, 0}, {4, 12, 2}, {0, 16, 3}, 4096, NULL},
        /* required bytes: bpr * rpi * (layers-1) + bpr * (rows-1) + last row
         * = 256*3*1 + 256*2 + 5*16 = 1360 */
        {"data one byte short", 2, 0, {0, 0, 0}, {20, 12, 2}, {0, 256, 3}, 1359, "data size 1359 is too small: offset 0 + required bytes in copy 1360"},
        {"buffer four bytes short", 0, 0, {0, 0, 0}, {20, 12, 2}, {0, 256, 3}, 1356, "buffer size 1356 is too small: offset 0 + required bytes in copy 1360"},
        {"buffer exactly large enough", 0, 0, {0, 0, 0}, {20, 12, 2}, {0, 256, 3}, 1360, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        stex_texture *t;
        RTEST_CHECK_OK(create(d, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){20, 12, 2},
                              "bc7-rgba-unorm", 2, TU, &t));
        stex_buffer *b;
        uint64_t alloc = (cases[i].buf_size + 3) / 4 * 4;
        RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = alloc, .usage = BU}, &b));
        stex_copy_texture ct = {.texture = t, .mip_level = cases[i].mip,
                                .origin = {cases[i].origin[0], cases[i].origin[1], cases[i].origin[2]}};
        stex_status st;
        if (cases[i].op == 0)
            st = stex_copy_texture_to_buffer(&ct, b, &cases[i].layout, cases[i].size);
        else if (cases[i].op == 1)
            st = stex_copy_buffer_to_texture(b, &cases[i].layout, &ct, cases[i].size);
        else
            st = stex_queue_write_texture(&ct, stex_buffer_data(b), cases[i].buf_size,
                                          &cases[i].layout, cases[i].size);
        if (!cases[i].msg) {
            if (st)
                fail_msg("%s: refused: %s", cases[i].why, stex_last_error());
        } else {
            expect_refusal(st, STEX_VALIDATION_ERROR, cases[i].why, cases[i].msg);
        }
        stex_buffer_destroy(b);
        stex_texture_destroy(t);
    }
    rtest_release(d);
}

/* copyTextureToTexture moves the exact blocks of the box and nothing else;
 * formats must be copy-compatible (equal but for -srgb). */
static void test_texture_to_texture(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_TEXTURE_COMPRESSION_BC);
    stex_texture *a, *b;
    RTEST_CHECK_OK(create(d, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){16, 16, 2},
                          "bc1-rgba-unorm", 1, TU, &a));
    RTEST_CHECK_OK(create(d, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){12, 8, 1},
                          "bc1-rgba-unorm-srgb", 1, TU, &b));
    /* a: 4x4 blocks x 2 layers, each block's 8 bytes distinct */
    uint8_t src[2][4][4][8];
    fill(&src[0][0][0][0], sizeof src, 7);
    stex_copy_texture ca = {.texture = a};
    RTEST_CHECK_OK(stex_queue_write_texture(&ca, src, sizeof src, &(stex_copy_layout){0, 32, 4},
                                            (stex_extent3d){16, 16, 2}));
    /* blocks (1..2, 2..3) of layer 1 to blocks (1..2, 0..1) of b */
    stex_copy_texture from = {.texture = a, .origin = {4, 8, 1}};
    stex_copy_texture to = {.texture = b, .origin = {4, 0, 0}};
    RTEST_CHECK_OK(stex_copy_texture_to_texture(&from, &to, (stex_extent3d){8, 8, 1}));
    uint8_t got[2][3][8];
    stex_buffer *buf;
    RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = 512, .usage = BU}, &buf));
    stex_copy_texture cb = {.texture = b};
    RTEST_CHECK_OK(stex_copy_texture_to_buffer(&cb, buf, &(stex_copy_layout){0, 256, 0},
                                               (stex_extent3d){12, 8, 1}));
    for (int y = 0; y < 2; y++)
        memcpy(got[y], stex_buffer_data(buf) + 256 * y, sizeof got[y]);
    static const uint8_t zero[8];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++) {
            if (x == 0)
                assert_memory_equal(got[y][x], zero, 8); /* outside the box: untouched */
            else
                assert_memory_equal(got[y][x], src[1][2 + y][x], 8);
        }

    /* bc1 to bc4: same block bytes, not copy-compatible */
    stex_texture *c4;
    RTEST_CHECK_OK(create(d, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){16, 16, 1},
                          "bc4-r-unorm", 1, TU, &c4));
    stex_copy_texture t4 = {.texture = c4};
    expect_refusal(stex_copy_texture_to_texture(&ca, &t4, (stex_extent3d){4, 4, 1}),
                   STEX_VALIDATION_ERROR, "bc1 to bc4",
                   "formats bc1-rgba-unorm and bc4-r-unorm are not copy-compatible");
    /* the block rules hold on both sides */
    stex_copy_texture odd = {.texture = c4, .origin = {2, 0, 0}};
    stex_copy_texture a2 = {.texture = a, .origin = {0, 0, 0}};
    expect_refusal(stex_check_copy_texture_to_texture(&a2, &odd, (stex_extent3d){4, 4, 1}),
                   STEX_VALIDATION_ERROR, "destination origin", "origin.x 2 is not a multiple");
    stex_texture_destroy(c4);
    stex_buffer_destroy(buf);
    stex_texture_destroy(a);
    stex_texture_destroy(b);
    rtest_release(d);
}

/* stex does not decode BC blocks: a view a shader could sample is refused
 * with that reason, never read as zeros; a view without TEXTURE_BINDING
 * is made. */
/* stex does not decode BC: the views are made (WebGPU allows them), and
 * a bind group that would let a shader load or sample one is refused, naming
 * the format - never zeros read in silence. */
static void test_no_decoding(void **state)
{
    (void)state;
    stex_device *d = device_with(STEX_FEATURE_TEXTURE_COMPRESSION_BC);
    stex_texture *t;
    RTEST_CHECK_OK(create(d, STEX_TEXTURE_DIMENSION_2D, (stex_extent3d){8, 8, 1},
                          "bc7-rgba-unorm", 1, TU, &t));
    stex_texture_view *v = NULL;
    RTEST_CHECK_OK(stex_texture_create_view(t, NULL, &v));
    stex_wgsl_module *m;
    RTEST_CHECK_OK(stex_wgsl_module_create(
        "@group(0) @binding(0) var t : texture_2d<f32>;\n"
        "@group(0) @binding(1) var<storage, read_write> o : array<f32>;\n"
        "@compute @workgroup_size(1) fn main() { o[0] = textureLoad(t, vec2i(0), 0).x; }\n",
        "bc.wgsl", &m));
    stex_pipeline *p;
    RTEST_CHECK_OK(stex_wgsl_pipeline_create(d, m, "main", NULL, &p));
    stex_buffer *b;
    RTEST_CHECK_OK(stex_buffer_create(d, &(stex_buffer_desc){.size = 4,
                       .usage = STEX_BUFFER_USAGE_STORAGE}, &b));
    stex_bind_group_entry e[2] = {{.binding = 0, .view = v}, {.binding = 1, .buffer = b}};
    stex_bind_group *g = NULL;
    expect_refusal(stex_bind_group_create(p, e, 2, &g), STEX_VALIDATION_ERROR, "bind group",
                   "stex does not decode compressed format bc7-rgba-unorm");
    assert_null(g);
    stex_buffer_destroy(b);
    stex_pipeline_destroy(p);
    stex_wgsl_module_destroy(m);
    stex_texture_view_destroy(v);
    stex_texture_destroy(t);
    rtest_release(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create_rules),
        cmocka_unit_test(test_memory_in_blocks),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_copy_rules),
        cmocka_unit_test(test_texture_to_texture),
        cmocka_unit_test(test_no_decoding),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
