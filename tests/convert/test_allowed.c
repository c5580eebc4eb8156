/* stex_texel_allowed: the spec's tolerance.  It must accept what real
 * devices stored (every store row of both conformance files), what each
 * profile stores, and reject an encoding off by two codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/convert.h"

static void parse_hex_bytes(const char *s, uint8_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        sscanf(s + 2 * i, "%2hhx", &b[i]);
}

/* Every device-stored texel in a conformance file is allowed. */
static void device_rows_allowed(const char *file)
{
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024], line[512], why[256];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", file);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    unsigned rows = 0, bad = 0;
    while (fgets(line, sizeof line, fp)) {
        char fmt[32], in[4][16], out[40];
        if (strncmp(line, "store\t", 6) ||
            sscanf(line, "store\t%31s\t%15s %15s %15s %15s\t%39s", fmt, in[0], in[1], in[2], in[3],
                   out) != 6)
            continue;
        stex_format f = stex_format_from_name(fmt);
        stex_vec4 v;
        uint8_t b[16];
        for (int c = 0; c < 4; c++)
            v.u[c] = (uint32_t)strtoul(in[c], NULL, 16);
        parse_hex_bytes(out, b, stex_format_get(f)->bytes);
        rows++;
        if (stex_texel_allowed_explain(f, &v, b, why, sizeof why) != STEX_OK && bad++ < 10)
            fprintf(stderr, "%s: device row refused: %s", file, line), fprintf(stderr, "  %s\n", why);
    }
    fclose(fp);
    printf("%s: %u device texels, %u refused\n", file, rows, bad);
    assert_true(rows > 1000);
    assert_int_equal(bad, 0);
}

static void test_device_rows_allowed(void **state)
{
    (void)state;
    device_rows_allowed("lavapipe-vectors.tsv");
    device_rows_allowed("nvidia-vectors.tsv");
}

/* Channel code access for the off-by-two mutation (plain formats only). */
static int plain_channel(const stex_format_info *fi, unsigned c, unsigned *off, unsigned *nb)
{
    if (fi->packing != STEX_PACKING_PLAIN || c >= fi->channels || fi->bits[c] % 8)
        return 0;
    *nb = fi->bits[c] / 8;
    *off = c * *nb;
    return 1;
}

static uint32_t get_code(const uint8_t *b, unsigned off, unsigned nb)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < nb; i++)
        v |= (uint32_t)b[off + i] << (8 * i);
    return v;
}

static void set_code(uint8_t *b, unsigned off, unsigned nb, uint32_t v)
{
    for (unsigned i = 0; i < nb; i++)
        b[off + i] = (uint8_t)(v >> (8 * i));
}

/* Inputs: a strided sweep of f32 patterns plus integers, per format. */
static void test_profiles_allowed_and_off_by_two_refused(void **state)
{
    (void)state;
    unsigned checked = 0, refused_mut = 0, bad = 0;
    char why[256];
    for (int fi_ = STEX_FORMAT_UNDEFINED + 1; fi_ < STEX_FORMAT_COUNT; fi_++) {
        stex_format f = (stex_format)fi_;
        const stex_format_info *fi = stex_format_get(f);
        if (!stex_encoder(f))
            continue;
        for (uint64_t s = 0; s < (UINT64_C(1) << 32); s += 1000003) {
            uint32_t u = (uint32_t)s;
            if (fi->scalar == STEX_SCALAR_F32 && (s / 1000003) % 3 == 0)
                u = (u & 0x80ffffff) | 0x3e000000 | ((u >> 24 & 1) << 24); /* near [0.125, 1) */
            stex_vec4 v = {.u = {u, u ^ 0x80000000, u >> 3, u * 2654435761u}};
            for (int pi = 0; pi < STEX_PROFILE_COUNT; pi++) {
                const stex_profile *p = stex_profile_get((stex_profile_id)pi);
                uint8_t b[16];
                stex_encode_texel(p, f, &v, b);
                checked++;
                if (stex_texel_allowed_explain(f, &v, b, why, sizeof why) != STEX_OK && bad++ < 10)
                    fprintf(stderr, "[%s] own encoding refused: %s\n",
                            stex_profile_name((stex_profile_id)pi), why);
                /* off by two in channel 0 (unless the input is NaN, or 32-bit
                 * float/int where +-2 would be another value's exact bits) */
                unsigned off, nb;
                if (!plain_channel(fi, 0, &off, &nb) || nb == 4)
                    continue;
                if (fi->scalar == STEX_SCALAR_F32 && (u & 0x7fffffff) > 0x7f800000)
                    continue;
                uint32_t k = get_code(b, off, nb), max = nb == 1 ? 0xff : 0xffff;
                uint32_t k2 = k + 2 <= max ? k + 2 : k - 2;
                if (fi->type == STEX_CHANNEL_SNORM && ((k2 ^ k) & (1u << (8 * nb - 1))))
                    k2 = k - 2 < k ? k - 2 : k + 2; /* stay on the same side of zero */
                if (fi->type == STEX_CHANNEL_FLOAT && (k & 0x7fff) <= 2)
                    continue; /* +-2 ulp of a (flushable) tiny value may be a zero */
                set_code(b, off, nb, k2 & max);
                if (stex_texel_allowed(f, &v, b))
                    fprintf(stderr, "[%s] %s input %08x: off-by-two code %x (from %x) accepted\n",
                            stex_profile_name((stex_profile_id)pi), fi->name, u, k2, k),
                        bad++;
                else
                    refused_mut++;
            }
        }
    }
    printf("%u encodings allowed, %u off-by-two encodings refused\n", checked, refused_mut);
    assert_int_equal(bad, 0);
    assert_true(refused_mut > 10000);
}

typedef struct tol_case {
    const char *format;
    uint32_t in[4];
    const char *bytes;
    int allowed;
    const char *why;
} tol_case;

static const tol_case tol_cases[] = {
    {"rgba8unorm", {0x3f000000, 0, 0, 0}, "7f000000", 1, "127.5: 127 (NVIDIA) allowed"},
    {"rgba8unorm", {0x3f000000, 0, 0, 0}, "80000000", 1, "127.5: 128 (spec, lavapipe) allowed"},
    {"rgba8unorm", {0x3f000000, 0, 0, 0}, "7e000000", 0, "126 is two codes from 127.5"},
    {"rgba8unorm", {0x3f000000, 0, 0, 0}, "81000000", 0, "129 too"},
    {"rgba8unorm", {0x3f800000, 0, 0, 0}, "fe000000", 0, "1.0 is exact: 255 only"},
    {"rgba8unorm", {0x7fc00000, 0, 0, 0}, "ff000000", 1, "NaN -> 255 (lavapipe)"},
    {"rgba8unorm", {0x7fc00000, 0, 0, 0}, "00000000", 1, "NaN -> 0 (spec, NVIDIA)"},
    {"rgba8unorm", {0x7fc00000, 0, 0, 0}, "80000000", 0, "NaN -> 128: no device does that"},
    {"rgba8snorm", {0xbf800000, 0, 0, 0}, "80000000", 1, "-1 -> -128 allowed"},
    {"rgba8snorm", {0xbf800000, 0, 0, 0}, "81000000", 1, "-1 -> -127"},
    {"rgba8snorm", {0xbf800000, 0, 0, 0}, "82000000", 0, "-126 refused"},
    {"rgba16float", {0x477fef00, 0, 0, 0}, "ff7b0000", 1, "65519 -> 65504"},
    {"rgba16float", {0x477fef00, 0, 0, 0}, "007c0000", 1, "65519 -> inf (rounded up past 65504)"},
    {"rgba16float", {0x49742400, 0, 0, 0}, "ff7b0000", 1, "1e6 -> 65504 (saturate)"},
    {"rgba16float", {0x49742400, 0, 0, 0}, "007c0000", 1, "1e6 -> inf"},
    {"rgba16float", {0x3f803000, 0, 0, 0}, "013c0000", 1, "1+3*2^-11 rounded down"},
    {"rgba16float", {0x3f803000, 0, 0, 0}, "023c0000", 1, "rounded up"},
    {"rgba16float", {0x3f803000, 0, 0, 0}, "033c0000", 0, "two ulps away"},
    {"rgba16float", {0x33c00000, 0, 0, 0}, "00000000", 1, "a subnormal result may be flushed"},
    {"rgba16float", {0x7f800001, 0, 0, 0}, "017c0000", 1, "any NaN for NaN"},
    {"rgba16float", {0x7f800001, 0, 0, 0}, "007c0000", 0, "inf is not a NaN"},
    {"r32float", {0x00000001, 0, 0, 0}, "00000000", 1, "f32 subnormal flushed"},
    {"r32float", {0x00000001, 0, 0, 0}, "02000000", 0, "f32 other bits"},
    {"r32float", {0x7fc00000, 0, 0, 0}, "0100807f", 1, "f32 any NaN"},
    {"rgba8uint", {300, 0, 0, 0}, "ff000000", 1, "clamp"},
    {"rgba8uint", {300, 0, 0, 0}, "2c000000", 0, "wrapping (300 & 255) is not WGSL's rule"},
    {"rg11b10ufloat", {0xbf800000, 0, 0, 0}, "00000000", 1, "negative -> 0"},
    {"rgb10a2unorm", {0, 0, 0, 0x3f000000}, "00000040", 1, "alpha 1.5 -> 1 (NVIDIA)"},
    {"rgb10a2unorm", {0, 0, 0, 0x3f000000}, "00000080", 1, "alpha 1.5 -> 2"},
    {"rgb10a2unorm", {0, 0, 0, 0x3f000000}, "000000c0", 0, "alpha 3 refused"},
    {"bgra8unorm", {0x3f800000, 0, 0, 0}, "0000ff00", 1, "red lies in byte 2"},
    {"bgra8unorm", {0x3f800000, 0, 0, 0}, "ff000000", 0, "byte 0 is blue"},
};

static void test_tolerance_table(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof tol_cases / sizeof *tol_cases; i++) {
        const tol_case *c = &tol_cases[i];
        stex_format f = stex_format_from_name(c->format);
        stex_vec4 v;
        uint8_t b[16] = {0};
        memcpy(v.u, c->in, sizeof v.u);
        /* the table spells the channels it is about; the rest of the texel is 0 */
        parse_hex_bytes(c->bytes, b, (unsigned)strlen(c->bytes) / 2);
        char why[256];
        stex_status st = stex_texel_allowed_explain(f, &v, b, why, sizeof why);
        if ((st == STEX_OK) != c->allowed) {
            fprintf(stderr, "%s in %08x bytes %s: expected %s (%s); %s\n", c->format, c->in[0],
                    c->bytes, c->allowed ? "allowed" : "refused", c->why, why);
            bad++;
        }
        if (!c->allowed && (st != STEX_MISMATCH || !strstr(why, "allows") ||
                            !strstr(stex_last_error(), c->format)))
            fprintf(stderr, "%s: the refusal does not explain itself: %s\n", c->format, why), bad++;
    }
    stex_vec4 v = {.u = {0, 0, 0, 0}};
    uint8_t b[16] = {0};
    assert_int_equal(stex_texel_allowed_explain(STEX_FORMAT_DEPTH32FLOAT, &v, b, NULL, 0),
                     STEX_INVALID_ARGUMENT);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tolerance_table),
        cmocka_unit_test(test_device_rows_allowed),
        cmocka_unit_test(test_profiles_allowed_and_off_by_two_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
