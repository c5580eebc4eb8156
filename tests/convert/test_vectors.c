/* Replays the conformance vectors measured on real devices (tests/data/
 * lavapipe-vectors.tsv, nvidia-vectors.tsv; columns op, format, in, out,
 * label - the files' headers explain them) through the matching profile.
 *
 *   store            stex_encode_texel, bytes in memory order
 *   pack             stex_pack4x8unorm ... (the format column names the builtin)
 *   load-storage, load-sampled, load-storage-rw
 *                    stex_decode_texel of a texel whose channel r holds `in`
 *   sample-linear    textureSampleLevel at the exact centre of texel v in a
 *                    256-wide texture whose texel v holds raw v (peer/tests/
 *                    load.mjs); only rows differing from load-storage are listed.
 *     nvidia:   stex_decode_texel_filtered must give `out` (snorm8 widened to
 *               snorm16, f16 NaN -> 0x7fffe000).
 *     lavapipe: every listed row is explained by neighbour contamination: the
 *               zero-weight texels (x+1, y), (x, y+1), (x+1, y+1) (clamped to
 *               the edge) still enter the filter, so an inf or NaN among the
 *               four gives NaN (0 * inf).  The test checks that each listed
 *               row is NaN with a non-finite texel among the four, and that
 *               no texel whose four are all finite is listed.  Which NaN
 *               comes out is the filter's arithmetic, not a conversion: not
 *               modelled here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stex/convert.h"

typedef struct counts {
    unsigned rows, store, pack, load, sample, failures;
} counts;

static void fail_row(counts *n, const char *profile, const char *line, const char *fmt, ...)
{
    if (n->failures++ < 25) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "[%s] ", profile);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n    row: %s\n", line);
        va_end(ap);
    }
}

static int parse_hex_list(const char *s, uint32_t *out, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        out[n++] = (uint32_t)strtoul(s, &end, 16);
        if (end == s)
            return -1;
        s = end;
        while (*s == ' ')
            s++;
    }
    return n;
}

static void hex_bytes(const uint8_t *b, unsigned n, char *out)
{
    for (unsigned i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", b[i]);
}

/* Byte offset of channel r's code and its byte count, for the load rows. */
static void put_channel_r(stex_format f, uint32_t raw, uint8_t *texel)
{
    const stex_format_info *fi = stex_format_get(f);
    memset(texel, 0, 16);
    unsigned off = fi->packing == STEX_PACKING_BGRA ? 2 : 0;
    for (unsigned i = 0; i < fi->bits[0] / 8; i++)
        texel[off + i] = (uint8_t)(raw >> (8 * i));
}

static uint32_t pack_builtin(const stex_profile *p, const char *name, const uint32_t in[4], int *ok)
{
    float v[4];
    memcpy(v, in, sizeof v);
    *ok = 1;
    if (!strcmp(name, "pack4x8unorm")) return stex_pack4x8unorm(p, v);
    if (!strcmp(name, "pack4x8snorm")) return stex_pack4x8snorm(p, v);
    if (!strcmp(name, "pack2x16unorm")) return stex_pack2x16unorm(p, v);
    if (!strcmp(name, "pack2x16snorm")) return stex_pack2x16snorm(p, v);
    if (!strcmp(name, "pack2x16float")) return stex_pack2x16float(p, v);
    *ok = 0;
    return 0;
}

static int f16_nonfinite(uint32_t h)
{
    return (h & 0x7c00) == 0x7c00;
}

/* lavapipe: sample-linear rows of one format, checked for contamination. */
typedef struct linear_rows {
    char format[32];
    uint8_t listed[65536];
    uint32_t out[65536];
} linear_rows;

static void check_contamination(const linear_rows *lr, counts *n, const char *profile)
{
    if (!lr->format[0])
        return;
    stex_format f = stex_format_from_name(lr->format);
    const stex_format_info *fi = stex_format_get(f);
    if (!fi || fi->type != STEX_CHANNEL_FLOAT || fi->bits[0] != 16) {
        char line[80];
        snprintf(line, sizeof line, "sample-linear %s", lr->format);
        fail_row(n, profile, line, "sample-linear rows for a format this test does not model");
        return;
    }
    for (uint32_t v = 0; v < 65536; v++) {
        uint32_t x = v & 255, y = v >> 8, x1 = x < 255 ? x + 1 : x, y1 = y < 255 ? y + 1 : y;
        uint32_t four[4] = {v, y * 256 + x1, y1 * 256 + x, y1 * 256 + x1};
        int contaminated = 0;
        for (int i = 0; i < 4; i++)
            contaminated |= f16_nonfinite(four[i]);
        if (lr->listed[v]) {
            n->sample++;
            uint32_t o = lr->out[v];
            if (!contaminated || (o & 0x7fffffff) <= 0x7f800000) {
                char line[80];
                snprintf(line, sizeof line, "sample-linear %s %04x -> %08x", lr->format, v, o);
                fail_row(n, profile, line,
                         "differs from the load path but is not a NaN with an inf/NaN texel "
                         "among (x,y) (x+1,y) (x,y+1) (x+1,y+1)");
            }
        }
        /* unlisted rows equal load-storage, which the load rows check */
    }
}

static void replay(const char *file, stex_profile_id pid)
{
    const stex_profile *p = stex_profile_get(pid);
    const char *pname = stex_profile_name(pid);
    const char *dir = getenv("STEX_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", file);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s (STEX_TEST_DATA)", path);
    counts n = {0};
    linear_rows *lr = calloc(1, sizeof *lr);
    assert_non_null(lr);
    char line[512];
    while (fgets(line, sizeof line, fp)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = '\0';
        char copy[512];
        snprintf(copy, sizeof copy, "%s", line);
        char *op = strtok(copy, "\t"), *fmt = strtok(NULL, "\t"), *in = strtok(NULL, "\t"),
             *out = strtok(NULL, "\t");
        if (!op || !fmt || !in || !out) {
            fail_row(&n, pname, line, "malformed row");
            continue;
        }
        n.rows++;
        uint32_t iv[4] = {0};
        int nin = parse_hex_list(in, iv, 4);
        if (!strcmp(op, "store")) {
            stex_format f = stex_format_from_name(fmt);
            stex_vec4 v;
            memcpy(v.u, iv, sizeof iv);
            uint8_t bytes[16];
            char got[40];
            if (nin != 4 || stex_encode_texel(p, f, &v, bytes) != STEX_OK) {
                fail_row(&n, pname, line, "cannot encode format %s", fmt);
                continue;
            }
            hex_bytes(bytes, stex_format_get(f)->bytes, got);
            n.store++;
            if (strcmp(got, out))
                fail_row(&n, pname, line, "store %s in %s: expected %s, got %s", fmt, in, out, got);
        } else if (!strcmp(op, "pack")) {
            int ok;
            uint32_t got = pack_builtin(p, fmt, iv, &ok), want = (uint32_t)strtoul(out, NULL, 16);
            n.pack++;
            if (!ok)
                fail_row(&n, pname, line, "unknown pack builtin %s", fmt);
            else if (got != want)
                fail_row(&n, pname, line, "%s(%s): expected %08x, got %08x", fmt, in, want, got);
        } else if (!strncmp(op, "load-", 5) || !strcmp(op, "sample-nearest") ||
                   (!strcmp(op, "sample-linear") && pid != STEX_PROFILE_LAVAPIPE)) {
            stex_format f = stex_format_from_name(fmt);
            uint8_t texel[16];
            stex_vec4 v;
            uint32_t want = (uint32_t)strtoul(out, NULL, 16);
            if (!stex_encoder(f)) {
                fail_row(&n, pname, line, "unknown format %s", fmt);
                continue;
            }
            put_channel_r(f, iv[0], texel);
            int filtered = !strcmp(op, "sample-linear");
            if (filtered)
                stex_decode_texel_filtered(p, f, texel, &v);
            else
                stex_decode_texel(p, f, texel, &v);
            if (filtered)
                n.sample++;
            else
                n.load++;
            if (v.u[0] != want)
                fail_row(&n, pname, line, "%s %s raw %s: expected f32 %08x, got %08x", op, fmt, in,
                         want, v.u[0]);
        } else if (!strcmp(op, "sample-linear")) {
            if (lr->format[0] && strcmp(lr->format, fmt)) {
                check_contamination(lr, &n, pname);
                memset(lr, 0, sizeof *lr);
            }
            snprintf(lr->format, sizeof lr->format, "%s", fmt);
            lr->listed[iv[0] & 0xffff] = 1;
            lr->out[iv[0] & 0xffff] = (uint32_t)strtoul(out, NULL, 16);
        } else {
            fail_row(&n, pname, line, "unknown op %s", op);
        }
    }
    check_contamination(lr, &n, pname);
    free(lr);
    fclose(fp);
    printf("[%s] %s: %u rows: %u store, %u pack, %u load, %u sample; %u failures\n", pname, file,
           n.rows, n.store, n.pack, n.load, n.sample, n.failures);
    assert_int_equal(n.store + n.pack + n.load + n.sample, n.rows); /* nothing skipped */
    assert_int_equal(n.failures, 0);
}

static void test_lavapipe_vectors(void **state)
{
    (void)state;
    replay("lavapipe-vectors.tsv", STEX_PROFILE_LAVAPIPE);
}

static void test_nvidia_vectors(void **state)
{
    (void)state;
    replay("nvidia-vectors.tsv", STEX_PROFILE_NVIDIA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lavapipe_vectors),
        cmocka_unit_test(test_nvidia_vectors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
