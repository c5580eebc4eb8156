/* The readers never crash on hostile input: random bytes, and valid files
 * with bytes flipped, truncated or extended, fed to every reader (meant to
 * run under -fsanitize=address,undefined).  Every read either succeeds with a
 * consistent image or fails with a message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "io_test.h"
#include "stex/stex.h"

static char dir[256];

typedef enum { R_BIN, R_NPY, R_PNG, R_INPUTS, R_BOUNDS } reader;

static void check_read(reader r, const char *path)
{
    stex_image img = {0};
    stex_inputs in = {0};
    stex_bounds b = {0};
    stex_status st;
    switch (r) {
    case R_BIN: st = stex_read_bin(path, &img, NULL); break;
    case R_NPY: st = stex_read_npy(path, STEX_FORMAT_UNDEFINED, &img); break;
    case R_PNG: st = stex_read_png(path, &img); break;
    case R_BOUNDS: st = stex_read_bounds(path, &b); break;
    default: st = stex_read_inputs(path, &in); break;
    }
    if (st == STEX_OK) {
        if (r == R_INPUTS) {
            assert_non_null(in.values);
        } else if (r == R_BOUNDS) { /* every value's record and reason there */
            volatile uint32_t sink = b.v[(size_t)b.width * b.height * b.depth * b.channels - 1].hi;
            (void)sink;
            for (uint32_t i = 0; i < b.nreasons; i++)
                assert_non_null(b.reasons[i]);
        } else {
            /* a consistent image: every texel addressable inside data */
            const stex_format_info *fi = stex_format_get(img.format);
            assert_non_null(fi);
            assert_true((size_t)img.bytes_per_row * img.rows_per_image * img.depth <= img.size);
            volatile uint8_t sink = *(stex_image_texel(&img, img.width - 1, img.height - 1,
                                                       img.depth - 1) + fi->bytes - 1);
            (void)sink;
        }
    } else {
        assert_true(st == STEX_FILE_FORMAT_ERROR || st == STEX_IO_ERROR ||
                    st == STEX_INVALID_ARGUMENT || st == STEX_OUT_OF_MEMORY);
        assert_true(stex_last_error()[0] != '\0');
        assert_null(img.data);
        assert_null(b.v);
    }
    stex_image_free(&img);
    stex_inputs_free(&in);
    stex_bounds_free(&b);
}

/* Mutations of one valid file: flips, truncations, extensions, and a
 * rewritten header field. */
static void mutate_and_read(reader r, const char *path, const char *extra_path,
                            const uint8_t *orig, size_t n, int rounds, uint64_t seed)
{
    uint8_t *buf = malloc(n + 64);
    for (int i = 0; i < rounds; i++) {
        memcpy(buf, orig, n);
        size_t len = n;
        switch (rng_next(&seed) % 4) {
        case 0: { /* flip a few bytes, mostly in the header */
            int k = 1 + (int)(rng_next(&seed) % 4);
            for (int j = 0; j < k; j++) {
                size_t at = rng_next(&seed) % (n < 160 ? n : (rng_next(&seed) & 1 ? 160 : n));
                buf[at] ^= (uint8_t)(1 + rng_next(&seed) % 255);
            }
            break;
        }
        case 1: len = rng_next(&seed) % n; break;
        case 2:
            len = n + 1 + rng_next(&seed) % 63;
            for (size_t j = n; j < len; j++)
                buf[j] = (uint8_t)rng_next(&seed);
            break;
        default: { /* a digit in the header becomes another */
            size_t at = rng_next(&seed) % (n < 128 ? n : 128);
            for (size_t j = at; j < (n < 128 ? n : 128); j++)
                if (buf[j] >= '0' && buf[j] <= '9') {
                    buf[j] = (uint8_t)('0' + rng_next(&seed) % 10);
                    break;
                }
        }
        }
        spit(r == R_BIN && extra_path ? extra_path : path, buf, len);
        check_read(r, path);
    }
    free(buf);
}

static void test_fuzz_random_bytes(void **state)
{
    (void)state;
    char p[512];
    uint64_t seed = 12345;
    uint8_t buf[512];
    const char *names[] = {"r.bin", "r.npy", "r.png", "r.inputs", "r.bin.allowed"};
    for (int r = 0; r < 5; r++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[r]);
        for (int i = 0; i < 200; i++) {
            size_t len = rng_next(&seed) % sizeof buf;
            for (size_t j = 0; j < len; j++)
                buf[j] = (uint8_t)rng_next(&seed);
            /* sometimes a right magic in front of the noise */
            if (i % 3 == 0 && r == R_NPY && len > 10)
                memcpy(buf, "\x93NUMPY\x01\x00", 8);
            if (i % 3 == 0 && r == R_PNG && len > 8)
                memcpy(buf, "\x89PNG\r\n\x1a\n", 8);
            if (i % 3 == 0 && r == R_INPUTS && len > 8)
                memcpy(buf, "STEXINP1", 8);
            if (i % 3 == 0 && r == R_BOUNDS && len > 8)
                memcpy(buf, "STEXBND1", 8);
            spit(p, buf, len);
            if (r == R_BIN) { /* noise as the sidecar of a valid-looking .bin */
                char side[520];
                snprintf(side, sizeof side, "%s.json", p);
                spit(side, buf, len);
            }
            check_read((reader)r, p);
        }
    }
    check_read(R_NPY, "/nonexistent/file.npy");
    check_read(R_PNG, dir); /* a directory */
}

static void test_fuzz_mutated_files(void **state)
{
    (void)state;
    stex_image img;
    assert_int_equal(stex_image_init(&img, STEX_FORMAT_RGBA16FLOAT, 7, 5, 2), STEX_OK);
    for (size_t i = 0; i < img.size; i++)
        img.data[i] = (uint8_t)(i * 7);
    char p[512], side[520];
    size_t n;
    uint8_t *orig;

    snprintf(p, sizeof p, "%s/m.npy", dir);
    assert_int_equal(stex_write_npy(p, &img), STEX_OK);
    orig = slurp(p, &n);
    mutate_and_read(R_NPY, p, NULL, orig, n, 800, 1);
    free(orig);

    snprintf(p, sizeof p, "%s/m.png", dir);
    assert_int_equal(stex_write_png(p, &img), STEX_OK);
    orig = slurp(p, &n);
    mutate_and_read(R_PNG, p, NULL, orig, n, 300, 2);
    free(orig);

    /* .bin: mutate the sidecar (the data file stays valid), then the data */
    snprintf(p, sizeof p, "%s/m.bin", dir);
    snprintf(side, sizeof side, "%s.json", p);
    assert_int_equal(stex_write_bin(p, &img, NULL), STEX_OK);
    orig = slurp(side, &n);
    mutate_and_read(R_BIN, p, side, orig, n, 800, 3);
    spit(side, orig, n);
    free(orig);
    orig = slurp(p, &n);
    mutate_and_read(R_BIN, p, p, orig, n, 100, 4);
    free(orig);

    stex_inputs in;
    assert_int_equal(stex_inputs_init(&in, STEX_SCALAR_U32, 4, 3, 1), STEX_OK);
    snprintf(p, sizeof p, "%s/m.inputs", dir);
    assert_int_equal(stex_write_inputs(p, &in), STEX_OK);
    orig = slurp(p, &n);
    mutate_and_read(R_INPUTS, p, NULL, orig, n, 400, 5);
    free(orig);
    stex_inputs_free(&in);

    stex_bounds b; /* a few values of each kind, two reasons */
    assert_int_equal(stex_bounds_init(&b, STEX_FORMAT_RGBA16FLOAT, 3, 2, 1), STEX_OK);
    for (size_t i = 0; i < 24; i++)
        b.v[i] = (stex_bound){0x3c00, (uint32_t)(0x3c00 + i), i % 5 == 0 ? STEX_BOUND_NAN : 0, 0};
    b.v[7] = (stex_bound){0, 0, STEX_BOUND_ANY, stex_bounds_reason(&b, "line 3: a reason")};
    b.v[9] = (stex_bound){0, 0, STEX_BOUND_ANY, stex_bounds_reason(&b, "line 9: another")};
    snprintf(p, sizeof p, "%s/m.bin.allowed", dir);
    assert_int_equal(stex_write_bounds(p, &b), STEX_OK);
    orig = slurp(p, &n);
    mutate_and_read(R_BOUNDS, p, NULL, orig, n, 600, 6);
    free(orig);
    stex_bounds_free(&b);
    stex_image_free(&img);
}

/* Headers that claim absurd sizes are refused before any allocation. */
static void test_absurd_headers(void **state)
{
    (void)state;
    char p[512];
    snprintf(p, sizeof p, "%s/big.npy", dir);
    static const char *const dicts[] = {
        "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 1, 1, 1), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 100000, 100000, 4), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999999, 1), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4, 4, 1), }",
        "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 4, 4, 1), }",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 4, 4, 1), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 4, 4, 5), }",
    };
    for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++) {
        uint8_t buf[256] = "\x93NUMPY\x01\x00";
        size_t dn = strlen(dicts[i]);
        size_t hlen = ((10 + dn + 1 + 63) & ~(size_t)63) - 10;
        buf[8] = (uint8_t)hlen;
        buf[9] = 0;
        memset(buf + 10, ' ', hlen);
        memcpy(buf + 10, dicts[i], dn);
        buf[9 + hlen] = '\n';
        spit(p, buf, 10 + hlen + 64);
        stex_image img;
        assert_int_equal(stex_read_npy(p, STEX_FORMAT_UNDEFINED, &img), STEX_FILE_FORMAT_ERROR);
    }
    /* a sidecar that claims 65536 x 65536 rgba32float */
    snprintf(p, sizeof p, "%s/big.bin", dir);
    spit(p, "xxxx", 4);
    char side[520];
    snprintf(side, sizeof side, "%s.json", p);
    const char *js = "{\"format\": \"rgba32float\", \"size\": [65536, 65536, 1], "
                     "\"bytesPerRow\": 1048576, \"rowsPerImage\": 65536}";
    spit(side, js, strlen(js));
    stex_image img;
    assert_int_equal(stex_read_bin(p, &img, NULL), STEX_FILE_FORMAT_ERROR);
    const char *js2 = "{\"format\": \"rgba8unorm\", \"size\": [4, 4, 1], "
                      "\"bytesPerRow\": 100, \"rowsPerImage\": 4}";
    spit(side, js2, strlen(js2));
    assert_int_equal(stex_read_bin(p, &img, NULL), STEX_FILE_FORMAT_ERROR);
    assert_non_null(strstr(stex_last_error(), "256"));
}

int main(void)
{
    scratch_make(dir, sizeof dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_random_bytes),
        cmocka_unit_test(test_fuzz_mutated_files),
        cmocka_unit_test(test_absurd_headers),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    scratch_remove(dir);
    return rc;
}
