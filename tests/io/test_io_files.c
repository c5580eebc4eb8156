/* Golden files: .bin + sidecar, .npy and PNG written, read back, and checked
 * against independent expectations (WebGPU's copy layout, numpy's header
 * format, libpng reading the picture). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <jansson.h>
#include <png.h>

#include "io_test.h"
#include "stex/stex.h"

static char dir[256];

static void path_in(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s", dir, name);
}

/* Fills every texel of img with random bytes, valid for the format: float
 * channels are kept finite so that nothing depends on NaN handling. */
static void fill_random(stex_image *img, uint64_t seed)
{
    const stex_format_info *fi = stex_format_get(img->format);
    for (uint32_t z = 0; z < img->depth; z++)
        for (uint32_t y = 0; y < img->height; y++)
            for (uint32_t x = 0; x < img->width; x++) {
                uint8_t *t = stex_image_texel(img, x, y, z);
                for (unsigned b = 0; b < fi->bytes; b++)
                    t[b] = (uint8_t)rng_next(&seed);
                if (fi->type == STEX_CHANNEL_FLOAT && fi->bits[0] == 16)
                    for (unsigned b = 1; b < fi->bytes; b += 2)
                        t[b] &= 0x3b; /* exponent < 31 */
                if (fi->type == STEX_CHANNEL_FLOAT && fi->bits[0] == 32)
                    for (unsigned b = 3; b < fi->bytes; b += 4)
                        t[b] &= 0x3f;
            }
}

typedef struct layout_case {
    const char *format;
    uint32_t w, h, d;
    uint32_t bpr; /* expected bytes per row: ceil(w * bytes / 256) * 256 */
} layout_case;

static const layout_case layouts[] = {
    {"rgba8unorm", 5, 3, 1, 256},    {"rgba8unorm", 64, 2, 1, 256},
    {"rgba8unorm", 65, 2, 1, 512},   {"r8unorm", 1, 1, 1, 256},
    {"r32float", 70, 4, 2, 512},     {"rgba32float", 17, 3, 3, 512},
    {"rgba16float", 32, 5, 1, 256},  {"rg11b10ufloat", 9, 9, 1, 256},
    {"rgb10a2unorm", 3, 2, 4, 256},  {"bgra8unorm", 7, 7, 1, 256},
    {"rg16sint", 100, 1, 1, 512},    {"rgba16unorm", 40, 2, 1, 512},
};

/* .bin: the file is the copy layout, byte for byte; the sidecar says so. */
static void test_bin_round_trip(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        const layout_case *c = &layouts[i];
        stex_format f = stex_format_from_name(c->format);
        stex_image img, back;
        assert_int_equal(stex_image_init(&img, f, c->w, c->h, c->d), STEX_OK);
        assert_int_equal(img.bytes_per_row, c->bpr);
        fill_random(&img, 1000 + i);
        char p[512], side[520];
        path_in(p, sizeof p, "g.bin");
        snprintf(side, sizeof side, "%s.json", p);
        stex_io_meta m = {.kernel = "decaer", .profile = "nvidia", .schedule = "shuffled",
                          .seed = 77, .has_seed = true};
        assert_int_equal(stex_write_bin(p, &img, &m), STEX_OK);
        size_t n;
        uint8_t *raw = slurp(p, &n);
        if (n != (size_t)c->bpr * c->h * c->d || memcmp(raw, img.data, n))
            fail_msg("%s %ux%ux%u: file of %zu bytes, expected the %u x %u x %u copy layout",
                     c->format, c->w, c->h, c->d, n, c->bpr, c->h, c->d);
        free(raw);
        /* the sidecar, read by jansson on its own */
        json_error_t je;
        json_t *o = json_load_file(side, 0, &je);
        assert_non_null(o);
        assert_string_equal(json_string_value(json_object_get(o, "format")), c->format);
        json_t *sz = json_object_get(o, "size");
        assert_int_equal(json_integer_value(json_array_get(sz, 0)), c->w);
        assert_int_equal(json_integer_value(json_array_get(sz, 1)), c->h);
        assert_int_equal(json_integer_value(json_array_get(sz, 2)), c->d);
        assert_int_equal(json_integer_value(json_object_get(o, "bytes_per_row")), c->bpr);
        assert_int_equal(json_integer_value(json_object_get(o, "rows_per_image")), c->h);
        assert_string_equal(json_string_value(json_object_get(o, "profile")), "nvidia");
        assert_string_equal(json_string_value(json_object_get(o, "schedule")), "shuffled");
        assert_int_equal(json_integer_value(json_object_get(o, "seed")), 77);
        assert_string_equal(json_string_value(json_object_get(o, "stex_version")), STEX_VERSION);
        json_decref(o);

        stex_io_meta_read mr;
        assert_int_equal(stex_read_bin(p, &back, &mr), STEX_OK);
        assert_int_equal(back.format, f);
        assert_int_equal(back.size, img.size);
        assert_memory_equal(back.data, img.data, img.size);
        assert_string_equal(mr.kernel, "decaer");
        assert_true(mr.has_seed && mr.seed == 77);
        stex_image_free(&back);

        /* raw: the same bytes without the sidecar, and WebGPU's minimum size */
        remove(side);
        assert_int_not_equal(stex_read_bin(p, &back, NULL), STEX_OK);
        assert_int_equal(stex_read_bin_raw(p, f, c->w, c->h, c->d, c->bpr, 0, &back), STEX_OK);
        assert_memory_equal(back.data, img.data, img.size);
        stex_image_free(&back);
        size_t minimum = (size_t)c->bpr * c->h * (c->d - 1) + (size_t)c->bpr * (c->h - 1) +
                         (size_t)c->w * stex_format_get(f)->bytes;
        spit(p, img.data, minimum);
        assert_int_equal(stex_read_bin_raw(p, f, c->w, c->h, c->d, c->bpr, c->h, &back), STEX_OK);
        assert_memory_equal(back.data, img.data, img.size);
        stex_image_free(&back);
        spit(p, img.data, minimum - 1);
        assert_int_equal(stex_read_bin_raw(p, f, c->w, c->h, c->d, c->bpr, c->h, &back),
                         STEX_FILE_FORMAT_ERROR);
        assert_non_null(strstr(stex_last_error(), "truncated"));
        assert_null(back.data);
        remove(p);
        stex_image_free(&img);
    }
    assert_int_equal(scratch_count(dir), 0);
}

/* The readback of a real texture: every texel where writeTexture put it. */
static void test_bin_from_texture(void **state)
{
    (void)state;
    static const struct { const char *format; uint32_t w, h, layers; } cases[] = {
        {"rgba8unorm", 13, 9, 1}, {"r32float", 70, 3, 1}, {"rgba16float", 8, 8, 3},
        {"rg32uint", 33, 2, 2},
    };
    stex_adapter *a;
    stex_device *d;
    assert_int_equal(stex_adapter_create(NULL, &a), STEX_OK);
    stex_device_desc dd = {.required_features = STEX_FEATURE_TEXTURE_FORMATS_TIER2};
    assert_int_equal(stex_device_create(a, &dd, &d), STEX_OK);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_format f = stex_format_from_name(cases[i].format);
        uint32_t bpp = stex_format_get(f)->bytes, w = cases[i].w, h = cases[i].h,
                 l = cases[i].layers;
        stex_texture_desc td = {.size = {w, h, l}, .format = f,
                                .usage = STEX_USAGE_STORAGE_BINDING | STEX_USAGE_COPY_SRC |
                                         STEX_USAGE_COPY_DST};
        stex_texture *t;
        assert_int_equal(stex_texture_create(d, &td, &t), STEX_OK);
        size_t n = (size_t)w * h * l * bpp;
        uint8_t *src = malloc(n);
        uint64_t seed = 99 + i;
        for (size_t b = 0; b < n; b++)
            src[b] = (uint8_t)rng_next(&seed);
        stex_copy_texture dst = {.texture = t};
        stex_copy_layout lay = {.bytes_per_row = w * bpp, .rows_per_image = h};
        assert_int_equal(stex_queue_write_texture(&dst, src, n, &lay, (stex_extent3d){w, h, l}),
                         STEX_OK);
        stex_image img;
        assert_int_equal(stex_image_from_texture(t, 0, &img), STEX_OK);
        char p[512];
        path_in(p, sizeof p, "t.bin");
        assert_int_equal(stex_write_bin(p, &img, NULL), STEX_OK);
        size_t fn;
        uint8_t *file = slurp(p, &fn);
        uint32_t bpr = (w * bpp + 255) / 256 * 256;
        assert_int_equal(fn, (size_t)bpr * h * l);
        for (uint32_t z = 0; z < l; z++)
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++) {
                    const uint8_t *want = src + (((size_t)z * h + y) * w + x) * bpp;
                    const uint8_t *got = file + ((size_t)z * h + y) * bpr + (size_t)x * bpp;
                    if (memcmp(want, got, bpp))
                        fail_msg("%s texel (%u,%u,%u): file bytes differ from what "
                                 "writeTexture stored", cases[i].format, x, y, z);
                }
        /* padding bytes are zero */
        for (uint32_t row = 0; row < h * l; row++)
            for (uint32_t b = w * bpp; b < bpr; b++)
                assert_int_equal(file[(size_t)row * bpr + b], 0);
        free(file);
        free(src);
        remove(p);
        char side[520];
        snprintf(side, sizeof side, "%s.json", p);
        remove(side);
        stex_image_free(&img);
        stex_texture_destroy(t);
    }
    stex_device_destroy(d);
    stex_adapter_destroy(a);
}

/* .npy: numpy's v1.0 header, byte for byte, then the texels without padding. */
static void test_npy(void **state)
{
    (void)state;
    static const struct { const char *format; const char *descr; unsigned ch; } cases[] = {
        {"rgba8unorm", "|u1", 4},  {"rgba8snorm", "|i1", 4},  {"r8uint", "|u1", 1},
        {"rg8sint", "|i1", 2},     {"rgba16float", "<f2", 4}, {"r16float", "<f2", 1},
        {"rgba16uint", "<u2", 4},  {"rg16snorm", "<i2", 2},   {"rgba16unorm", "<u2", 4},
        {"r32float", "<f4", 1},    {"rg32sint", "<i4", 2},    {"rgba32uint", "<u4", 4},
        {"rgb10a2unorm", "<u4", 1}, {"rgb10a2uint", "<u4", 1}, {"rg11b10ufloat", "<u4", 1},
        {"bgra8unorm", "|u1", 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        stex_format f = stex_format_from_name(cases[i].format);
        uint32_t w = 5 + (uint32_t)i, h = 3, d = 1 + (uint32_t)(i % 2);
        stex_image img, back;
        assert_int_equal(stex_image_init(&img, f, w, h, d), STEX_OK);
        fill_random(&img, 7 + i);
        char p[512];
        path_in(p, sizeof p, "a.npy");
        assert_int_equal(stex_write_npy(p, &img), STEX_OK);
        size_t n;
        uint8_t *file = slurp(p, &n);
        char dict[200];
        int dn = snprintf(dict, sizeof dict,
                          "{'descr': '%s', 'fortran_order': False, 'shape': (%u, %u, %u, %u), }",
                          cases[i].descr, d, h, w, cases[i].ch);
        assert_memory_equal(file, "\x93NUMPY\x01\x00", 8);
        size_t hlen = file[8] | (size_t)file[9] << 8;
        assert_int_equal((10 + hlen) % 64, 0);
        if (memcmp(file + 10, dict, (size_t)dn))
            fail_msg("%s: header '%.*s', expected '%s'", cases[i].format, (int)hlen, file + 10,
                     dict);
        for (size_t b = 10 + (size_t)dn; b < 9 + hlen; b++)
            assert_int_equal(file[b], ' ');
        assert_int_equal(file[9 + hlen], '\n');
        uint32_t bpp = stex_format_get(f)->bytes;
        assert_int_equal(n, 10 + hlen + (size_t)w * h * d * bpp);
        for (uint32_t z = 0; z < d; z++)
            for (uint32_t y = 0; y < h; y++)
                assert_memory_equal(file + 10 + hlen + (((size_t)z * h + y) * w) * bpp,
                                    stex_image_texel(&img, 0, y, z), (size_t)w * bpp);
        free(file);
        assert_int_equal(stex_read_npy(p, f, &back), STEX_OK);
        assert_memory_equal(back.data, img.data, img.size);
        stex_image_free(&back);
        /* a format whose dtype differs is refused with both named */
        stex_format other = cases[i].descr[1] == 'f' ? STEX_FORMAT_R32UINT : STEX_FORMAT_RGBA32FLOAT;
        assert_int_equal(stex_read_npy(p, other, &back), STEX_FILE_FORMAT_ERROR);
        assert_non_null(strstr(stex_last_error(), cases[i].descr));
        remove(p);
        stex_image_free(&img);
    }
    /* inference from dtype and channels */
    stex_image img, back;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RG32FLOAT, 4, 4, 1), STEX_OK);
    char p[512];
    path_in(p, sizeof p, "b.npy");
    assert_int_equal(stex_write_npy(p, &img), STEX_OK);
    assert_int_equal(stex_read_npy(p, STEX_FORMAT_UNDEFINED, &back), STEX_OK);
    assert_int_equal(back.format, STEX_FORMAT_RG32FLOAT);
    stex_image_free(&back);
    stex_image_free(&img);
    remove(p);
}

/* A PNG read back by libpng itself. */
typedef struct png_pixels {
    uint32_t w, h;
    int depth, color;
    uint16_t *s; /* samples, as many per pixel as the colour type has */
    int ch;
} png_pixels;

static void read_png_libpng(const char *path, png_pixels *out)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png)))
        fail_msg("libpng could not read %s", path);
    png_init_io(png, f);
    png_read_info(png, info);
    out->w = png_get_image_width(png, info);
    out->h = png_get_image_height(png, info);
    out->depth = png_get_bit_depth(png, info);
    out->color = png_get_color_type(png, info);
    out->ch = png_get_channels(png, info);
    size_t rb = png_get_rowbytes(png, info);
    uint8_t *rows = malloc(rb * out->h);
    for (uint32_t y = 0; y < out->h; y++)
        png_read_row(png, rows + y * rb, NULL);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    out->s = malloc(sizeof *out->s * out->w * out->h * out->ch);
    for (size_t i = 0; i < (size_t)out->w * out->h * out->ch; i++)
        out->s[i] = out->depth == 16 ? (uint16_t)(rows[2 * i] << 8 | rows[2 * i + 1]) : rows[i];
    free(rows);
}

static void test_png(void **state)
{
    (void)state;
    char p[512];
    path_in(p, sizeof p, "a.png");
    /* rgba8unorm: as stored; bgra8unorm: swizzled to RGBA */
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_BGRA8UNORM, 6, 4, 2), STEX_OK);
    fill_random(&img, 5);
    assert_int_equal(stex_write_png(p, &img), STEX_OK);
    png_pixels px;
    read_png_libpng(p, &px);
    assert_int_equal(px.w, 6);
    assert_int_equal(px.h, 8); /* layers stacked */
    assert_int_equal(px.depth, 8);
    assert_int_equal(px.color, PNG_COLOR_TYPE_RGBA);
    for (uint32_t z = 0; z < 2; z++)
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 6; x++) {
                const uint8_t *t = stex_image_texel(&img, x, y, z);
                const uint16_t *s = px.s + (((size_t)z * 4 + y) * 6 + x) * 4;
                assert_int_equal(s[0], t[2]);
                assert_int_equal(s[1], t[1]);
                assert_int_equal(s[2], t[0]);
                assert_int_equal(s[3], t[3]);
            }
    free(px.s);
    stex_image_free(&img);

    /* rgba16unorm: a 16-bit PNG with the stored values */
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RGBA16UNORM, 3, 2, 1), STEX_OK);
    fill_random(&img, 6);
    assert_int_equal(stex_write_png(p, &img), STEX_OK);
    read_png_libpng(p, &px);
    assert_int_equal(px.depth, 16);
    for (uint32_t i = 0; i < 6 * 4; i++) {
        const uint8_t *t = stex_image_texel(&img, (i / 4) % 3, i / 12, 0) + 2 * (i % 4);
        assert_int_equal(px.s[i], t[0] | t[1] << 8);
    }
    free(px.s);
    stex_image_free(&img);

    /* r8snorm: grey, offset binary (-128 -> 0, 0 -> 128, 127 -> 255) */
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_R8SNORM, 3, 1, 1), STEX_OK);
    img.data[0] = 0x80, img.data[1] = 0x00, img.data[2] = 0x7f;
    assert_int_equal(stex_write_png(p, &img), STEX_OK);
    read_png_libpng(p, &px);
    assert_int_equal(px.color, PNG_COLOR_TYPE_GRAY);
    assert_int_equal(px.s[0], 0);
    assert_int_equal(px.s[1], 128);
    assert_int_equal(px.s[2], 255);
    free(px.s);
    stex_image_free(&img);

    /* r32float in [0,1]: round(v * 255); outside: the finite range */
    static const struct { float v[4]; uint8_t want[4]; } fl[] = {
        {{0.0f, 0.5f, 1.0f, 0.25f}, {0, 128, 255, 64}},
        {{-1.0f, 0.0f, 3.0f, 1.0f}, {0, 64, 255, 128}},
    };
    for (size_t c = 0; c < 2; c++) {
        assert_int_equal(stex_image_init(&img, STEX_FORMAT_R32FLOAT, 4, 1, 1), STEX_OK);
        memcpy(img.data, fl[c].v, 16);
        assert_int_equal(stex_write_png(p, &img), STEX_OK);
        read_png_libpng(p, &px);
        for (int i = 0; i < 4; i++)
            if (px.s[i] != fl[c].want[i])
                fail_msg("r32float %g -> %u, expected %u", fl[c].v[i], px.s[i], fl[c].want[i]);
        free(px.s);
        stex_image_free(&img);
    }

    /* reading: a grey 8-bit PNG written by libpng becomes rgba8unorm (g,g,g,255) */
    {
        FILE *f = fopen(p, "wb");
        png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
        png_infop info = png_create_info_struct(png);
        if (setjmp(png_jmpbuf(png)))
            fail_msg("libpng write failed");
        png_init_io(png, f);
        png_set_IHDR(png, info, 3, 2, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        uint8_t r0[3] = {0, 100, 255}, r1[3] = {7, 8, 9};
        png_write_row(png, r0);
        png_write_row(png, r1);
        png_write_end(png, NULL);
        png_destroy_write_struct(&png, &info);
        fclose(f);
        assert_int_equal(stex_read_png(p, &img), STEX_OK);
        assert_int_equal(img.format, STEX_FORMAT_RGBA8UNORM);
        assert_int_equal(img.width, 3);
        assert_int_equal(img.height, 2);
        const uint8_t want[2][3] = {{0, 100, 255}, {7, 8, 9}};
        for (uint32_t y = 0; y < 2; y++)
            for (uint32_t x = 0; x < 3; x++) {
                const uint8_t *t = stex_image_texel(&img, x, y, 0);
                assert_int_equal(t[0], want[y][x]);
                assert_int_equal(t[1], want[y][x]);
                assert_int_equal(t[2], want[y][x]);
                assert_int_equal(t[3], 255);
            }
        stex_image_free(&img);
    }
    remove(p);
}

/* Writes replace a file whole, leave no temporary behind, and leave nothing
 * at all when they fail. */
static void test_atomic_writes(void **state)
{
    (void)state;
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RGBA8UNORM, 4, 4, 1), STEX_OK);
    char p[512];
    path_in(p, sizeof p, "x.npy");
    assert_int_equal(stex_write_npy(p, &img), STEX_OK);
    img.data[0] = 42;
    assert_int_equal(stex_write_npy(p, &img), STEX_OK);
    assert_int_equal(scratch_count(dir), 1);
    stex_image back;
    assert_int_equal(stex_read_npy(p, STEX_FORMAT_RGBA8UNORM, &back), STEX_OK);
    assert_int_equal(back.data[0], 42);
    stex_image_free(&back);
    remove(p);

    /* an unwritable place: a missing directory, and a read-only one */
    const char *bad[] = {"/nonexistent-stex-dir/x.bin", "/proc/stex-test.bin", NULL};
    char ro[512], rop[600];
    path_in(ro, sizeof ro, "ro");
    mkdir(ro, 0500);
    snprintf(rop, sizeof rop, "%s/x.png", ro);
    for (int i = 0; bad[i]; i++) {
        assert_int_equal(stex_write_image(bad[i], &img, NULL), STEX_IO_ERROR);
        assert_non_null(strstr(stex_last_error(), bad[i]));
    }
    if (geteuid() != 0) { /* root writes into read-only directories */
        assert_int_equal(stex_write_image(rop, &img, NULL), STEX_IO_ERROR);
        assert_int_equal(scratch_count(ro), 0);
    }
    /* the .bin and its sidecar come together or not at all */
    char bin[600];
    snprintf(bin, sizeof bin, "%s/y.bin", ro);
    if (geteuid() != 0) {
        assert_int_equal(stex_write_bin(bin, &img, NULL), STEX_IO_ERROR);
        assert_int_equal(scratch_count(ro), 0);
    }
    rmdir(ro);
    /* works as root too: the sidecar's name is taken by a non-empty
     * directory, so its rename fails after the .bin's succeeded; the .bin
     * must go too, and no temporary may stay */
    char zbin[512], zside[600], zfile[700];
    path_in(zbin, sizeof zbin, "z.bin");
    snprintf(zside, sizeof zside, "%s.json", zbin);
    snprintf(zfile, sizeof zfile, "%s/keep", zside);
    mkdir(zside, 0700);
    spit(zfile, "x", 1);
    assert_int_equal(stex_write_bin(zbin, &img, NULL), STEX_IO_ERROR);
    assert_int_equal(access(zbin, F_OK), -1);
    assert_int_equal(scratch_count(dir), 1); /* only the directory */
    remove(zfile);
    rmdir(zside);
    assert_int_equal(stex_write_image("noext", &img, NULL), STEX_INVALID_ARGUMENT);
    stex_image_free(&img);
    assert_int_equal(scratch_count(dir), 0);
}

/* Recorded inputs survive a round trip. */
static void test_inputs_file(void **state)
{
    (void)state;
    stex_inputs in, back;
    assert_int_equal(stex_inputs_init(&in, STEX_SCALAR_F32, 3, 2, 1), STEX_OK);
    stex_vec4 v = {.f = {0.5f, -1.0f, 65520.0f, 1.0f}};
    stex_inputs_set(&in, 2, 1, 0, &v);
    char p[512];
    path_in(p, sizeof p, "g.bin.inputs");
    assert_int_equal(stex_write_inputs(p, &in), STEX_OK);
    size_t n;
    uint8_t *file = slurp(p, &n);
    assert_int_equal(n, 24 + 6 * 20);
    assert_memory_equal(file, "STEXINP1", 8);
    free(file);
    assert_int_equal(stex_read_inputs(p, &back), STEX_OK);
    assert_int_equal(back.stored[5], 1);
    assert_int_equal(back.stored[0], 0);
    assert_memory_equal(&back.values[5], &v, sizeof v);
    stex_inputs_free(&back);
    stex_inputs_free(&in);
    remove(p);
}

int main(void)
{
    scratch_make(dir, sizeof dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bin_round_trip), cmocka_unit_test(test_bin_from_texture),
        cmocka_unit_test(test_npy),            cmocka_unit_test(test_png),
        cmocka_unit_test(test_atomic_writes),  cmocka_unit_test(test_inputs_file),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(dir);
    return rc;
}
