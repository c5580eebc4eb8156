/*
 * Allowed mode on the lessons' kernels (issue 27, soundness): each kernel's
 * WGSL run with stex_wgsl_options.allowed gives, per output value, the set
 * a conformant device may leave there; every texel a real device left must
 * lie inside.  Lavapipe's bytes come from conformance/lavapipe (decaer's
 * first16, blur_output.hex, histogram's count table) or, where only a hash
 * was recorded, from the lavapipe profile's run whose SHA-256 equals the
 * device's (so they are the device's bytes).  No NVIDIA kernel output was
 * recorded: the nvidia profile's (the model fitted to the H200's measured
 * vectors) stands for it.  The racy difundir is left out: its output
 * depends on the schedule, which allowed mode does not enumerate.
 */
#include "kernel_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static stex_status make_allowed(void *user, stex_device *d, const stex_kernel_pass *pass,
                                stex_pipeline **out)
{
    stex_wgsl_module *m;
    stex_status st = stex_wgsl_module_create(pass->wgsl, pass->entry_point, &m);
    if (st) {
        print_error("%s", stex_wgsl_module_diagnostics(m));
        stex_wgsl_module_destroy(m);
        return st;
    }
    stex_wgsl_options o = {.allowed = user};
    st = stex_wgsl_pipeline_create(d, m, pass->entry_point, &o, out);
    stex_wgsl_module_destroy(m);
    return st;
}

/* The kernel's WGSL in allowed mode on setup s: the output's sets. */
static void allowed_output(const char *kernel, const stex_kernel_setup *s, stex_allowed **a,
                           stex_allowed_output *out)
{
    assert_int_equal(stex_allowed_create(a), STEX_OK);
    stex_kernel_setup ws = s ? *s : (stex_kernel_setup){0};
    ws.create_pipeline = make_allowed;
    ws.create_pipeline_user = *a;
    stex_kernel_instance *ki = kt_create(kernel, &ws);
    stex_dispatch_options o = {.threads = 2};
    kt_dispatch(ki, &o);
    stex_texture *t = stex_kernel_instance_output_texture(ki);
    stex_buffer *b = stex_kernel_instance_output_buffer(ki);
    stex_status st = t ? stex_allowed_texture(*a, t, 0, out)
                       : stex_allowed_buffer(*a, b, 0, stex_buffer_size(b), out);
    if (st)
        fail_msg("%s: %s", kernel, stex_last_error());
    stex_kernel_instance_destroy(ki);
}

/* The C kernel's output under a profile (optionally its SHA-256 checked
 * against kernels.json's `sha_path`: then they are the device's bytes). */
static uint8_t *profile_output(const char *kernel, const stex_kernel_setup *s, stex_profile_id p,
                               const char *sha_path, size_t *n)
{
    stex_dispatch_options o = {.threads = 2, .profile = stex_profile_get(p)};
    uint8_t *out = kt_run(kernel, s, &o, n);
    if (sha_path) {
        char hex[65];
        kt_sha256(out, *n, hex);
        assert_string_equal(hex, kt_json_string(kt_conformance(), sha_path));
    }
    return out;
}

/* Every texel of `bytes` (tightly packed, the output's texel order) inside
 * the sets; buffers: every word. */
static void assert_inside(const stex_allowed_output *o, const uint8_t *bytes, size_t n,
                          const char *what)
{
    size_t bad = 0, values = 0;
    if (!o->is_texture) {
        assert_int_equal(n, (size_t)o->width * 4);
        for (size_t k = 0; k < o->width; k++) {
            uint32_t w;
            memcpy(&w, bytes + 4 * k, 4);
            values++;
            if (!stex_ival_contains_bits(o->word_type == 'x' ? 'u' : o->word_type, &o->v[k], w) &&
                bad++ < 5)
                print_error("%s: word %zu = %08x outside\n", what, k, w);
        }
    } else {
        const stex_format_info *fi = stex_format_get(o->format);
        size_t texels = (size_t)o->width * o->height * o->layers;
        assert_int_equal(n, texels * fi->bytes);
        char t = fi->scalar == STEX_SCALAR_F32 ? 'f' : fi->scalar == STEX_SCALAR_I32 ? 'i' : 'u';
        for (size_t k = 0; k < texels; k++) {
            stex_vec4 v;
            assert_int_equal(stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), o->format,
                                               bytes + k * fi->bytes, &v), STEX_OK);
            for (unsigned c = 0; c < fi->channels; c++) {
                values++;
                if (stex_ival_contains_bits(t, &o->v[4 * k + c], v.u[c]))
                    continue;
                if (bad++ < 5) {
                    char set[128];
                    stex_ival_format(t, &o->v[4 * k + c], set, sizeof set);
                    print_error("%s: texel %zu (%zu, %zu) channel %u = %08x outside %s\n", what,
                                k, k % o->width, k / o->width, c, v.u[c], set);
                }
            }
        }
    }
    if (bad)
        fail_msg("%s: %zu of %zu values outside the allowed sets", what, bad, values);
}

static int by_width(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* A set's width in the output's own units: ULP of a float channel's type
 * (f16 for 16-bit ones), codes of a normalized or integer channel. */
static double width_of(const stex_allowed_output *o, size_t k)
{
    if (!o->is_texture)
        return stex_ival_width_ulps(o->word_type == 'x' ? 'u' : o->word_type, &o->v[k]);
    const stex_format_info *fi = stex_format_get(o->format);
    unsigned c = (unsigned)(k % 4);
    if (o->v[k].flags & STEX_IVAL_ANY)
        return INFINITY;
    if (fi->type == STEX_CHANNEL_FLOAT)
        return stex_ival_width_ulps(fi->bits[c] == 16 ? 'h' : 'f', &o->v[k]);
    uint32_t lo, hi;
    stex_ival_channel_codes(o->format, c, o->v[k], &lo, &hi);
    return fi->type == STEX_CHANNEL_SNORM || fi->type == STEX_CHANNEL_SINT
               ? (double)(int32_t)(hi << (32 - fi->bits[c])) / (1u << (32 - fi->bits[c])) -
                     (double)(int32_t)(lo << (32 - fi->bits[c])) / (1u << (32 - fi->bits[c]))
               : (double)hi - (double)lo;
}

/* How tight the sets are: values, unconstrained ones, the median width
 * (width_of).  Returns the median. */
static double tightness(const stex_allowed_output *o, const char *what, size_t *any)
{
    size_t n = o->is_texture ? (size_t)o->width * o->height * o->layers * 4 : o->width, m = 0;
    unsigned channels = o->is_texture ? stex_format_get(o->format)->channels : 1;
    double *w = malloc((n ? n : 1) * sizeof *w);
    assert_non_null(w);
    *any = 0;
    for (size_t k = 0; k < n; k++) {
        if (o->is_texture && k % 4 >= channels)
            continue;
        *any += (o->v[k].flags & STEX_IVAL_ANY) != 0;
        w[m++] = width_of(o, k);
    }
    qsort(w, m, sizeof *w, by_width);
    double med = m ? w[m / 2] : 0;
    /* the reasons of the unconstrained values, each once */
    for (uint32_t r = 1; r < o->nreasons; r++) {
        size_t count = 0;
        for (size_t k = 0; k < n; k++)
            count += o->reason[k] == r && (!o->is_texture || k % 4 < channels);
        if (count)
            print_message("  %zu unconstrained: %s\n", count, o->reasons[r]);
    }
    print_message("%s: %zu values, %zu unconstrained, median width %g %s\n", what, m, *any,
                  med, o->is_texture && stex_format_get(o->format)->type != STEX_CHANNEL_FLOAT
                           ? "codes" : "ULP");
    free(w);
    return med;
}

/* Every value of every profile (spec, lavapipe, nvidia) inside: each is a
 * legal device's choice. */
static void profiles_inside(const char *kernel, const stex_kernel_setup *s,
                            const stex_allowed_output *o, const char *lavapipe_sha)
{
    static const stex_profile_id ids[] = {STEX_PROFILE_SPEC, STEX_PROFILE_LAVAPIPE,
                                          STEX_PROFILE_NVIDIA};
    for (size_t p = 0; p < 3; p++) {
        size_t n;
        uint8_t *out = profile_output(kernel, s, ids[p],
                                      ids[p] == STEX_PROFILE_LAVAPIPE ? lavapipe_sha : NULL, &n);
        char what[128];
        snprintf(what, sizeof what, "%s under %s", kernel, stex_profile_name(ids[p]));
        assert_inside(o, out, n, what);
        free(out);
    }
}

static void decaer(void **state)
{
    (void)state;
    stex_allowed *a;
    stex_allowed_output o;
    allowed_output("decaer", NULL, &a, &o);
    size_t any;
    /* one correctly rounded product of exact inputs: its two neighbours at most */
    assert_true(tightness(&o, "decaer", &any) <= 1);
    assert_true(any <= 16); /* the specials (infinities, NaN) at most */
    /* lavapipe's own words for the 16 specials (NaN, infinities, subnormals) */
    json_t *j = kt_conformance();
    for (size_t i = 0; i < 16; i++) {
        char path[64];
        snprintf(path, sizeof path, "decaer.first16.%zu.out", i);
        uint32_t want = (uint32_t)strtoul(kt_json_string(j, path), NULL, 16);
        if (!stex_ival_contains_bits('f', &o.v[4 * i], want)) {
            char set[128];
            stex_ival_format('f', &o.v[4 * i], set, sizeof set);
            fail_msg("decaer special %zu: lavapipe stored %08x, outside %s", i, want, set);
        }
    }
    profiles_inside("decaer", NULL, &o, "decaer.output_sha256");
    stex_allowed_output_free(&o);
    stex_allowed_destroy(a);
}

/* The harness's ping-pong experiments: the hot texel and the random field,
 * one and ten dispatches (sets read back by each next dispatch). */
static void difundir_pingpong(void **state)
{
    (void)state;
    static const struct { const char *variant; uint32_t n; int index; } x[] = {
        {"hot", 1, 0}, {"hot", 10, 1}, {"random", 1, 2}, {"random", 10, 3}};
    for (size_t e = 0; e < sizeof x / sizeof *x; e++) {
        stex_kernel_setup s = {.variant = x[e].variant, .iterations = x[e].n};
        stex_allowed *a;
        stex_allowed_output o;
        allowed_output("difundir-pingpong", &s, &a, &o);
        size_t any;
        char what[64];
        snprintf(what, sizeof what, "difundir-pingpong %s x%u", x[e].variant, x[e].n);
        tightness(&o, what, &any);
        char sha[96];
        snprintf(sha, sizeof sha, "difundir.experiments.%d.pingpong.sha256", x[e].index);
        profiles_inside("difundir-pingpong", &s, &o, sha);
        stex_allowed_output_free(&o);
        stex_allowed_destroy(a);
    }
}

static uint8_t *read_hex(const char *name, size_t *size)
{
    char *path = kt_data_path(name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    size_t cap = 1 << 16, n = 0;
    uint8_t *out = malloc(cap);
    char line[4096];
    while (out && fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        for (char *p = line; p[0] && p[1] && p[0] != '\n'; p += 2) {
            unsigned v;
            if (sscanf(p, "%2x", &v) != 1)
                fail_msg("%s: bad hex near byte %zu", path, n);
            if (n == cap && !(out = realloc(out, cap *= 2)))
                break;
            out[n++] = (uint8_t)v;
        }
    }
    fclose(f);
    free(path);
    *size = n;
    return out;
}

static void blur(void **state)
{
    (void)state;
    stex_allowed *a;
    stex_allowed_output o;
    allowed_output("blur", NULL, &a, &o);
    size_t any;
    tightness(&o, "blur", &any);
    size_t n;
    uint8_t *dev = read_hex("lavapipe-blur_output.hex", &n); /* the device's bytes */
    assert_inside(&o, dev, n, "blur, lavapipe's bytes");
    free(dev);
    profiles_inside("blur", NULL, &o, "blur.output_sha256");
    stex_allowed_output_free(&o);
    stex_allowed_destroy(a);
}

static void histogram(void **state)
{
    (void)state;
    stex_allowed *a;
    stex_allowed_output o;
    allowed_output("histogram", NULL, &a, &o);
    size_t any;
    tightness(&o, "histogram", &any);
    profiles_inside("histogram", NULL, &o, "histogram.output_sha256");
    stex_allowed_output_free(&o);
    stex_allowed_destroy(a);
}

/* No device output recorded for these: the profiles' (each a legal
 * device's choices) at a small size. */
static void generar_box3x3(void **state)
{
    (void)state;
    static const char *names[] = {"generar", "box3x3-texture", "box3x3-buffer"};
    for (size_t k = 0; k < 3; k++) {
        stex_kernel_setup s = {.width = 67, .height = 45, .time = 0.75f};
        stex_allowed *a;
        stex_allowed_output o;
        allowed_output(names[k], &s, &a, &o);
        size_t any;
        tightness(&o, names[k], &any);
        profiles_inside(names[k], &s, &o, NULL);
        stex_allowed_output_free(&o);
        stex_allowed_destroy(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decaer),
        cmocka_unit_test(difundir_pingpong),
        cmocka_unit_test(blur),
        cmocka_unit_test(histogram),
        cmocka_unit_test(generar_box3x3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
