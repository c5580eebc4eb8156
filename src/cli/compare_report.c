/* stex compare's report, as text for a person or JSON for a script: the
 * verdict, a summary of every differing texel (as numpy's assert_allclose
 * and a sanitizer's summary give one: how many, per channel the largest
 * difference, a histogram of distances, what the tolerance accepted), then
 * the first mismatches channel by channel in the values textureLoad
 * returns, their bytes beside them. */
#include "cli/compare_report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_kernel.h"

static const char CHANNEL[4] = {'r', 'g', 'b', 'a'};

/* Channel c of a texel as textureLoad returns it (the spec profile). */
static void value_text(stex_format f, const uint8_t *bytes, unsigned c, char *buf, size_t n)
{
    const stex_format_info *fi = stex_format_get(f);
    stex_vec4 v;
    if (stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), f, bytes, &v))
        snprintf(buf, n, "?");
    else if (fi->scalar == STEX_SCALAR_U32)
        snprintf(buf, n, "%" PRIu32, v.u[c]);
    else if (fi->scalar == STEX_SCALAR_I32)
        snprintf(buf, n, "%" PRId32, v.i[c]);
    else if (isnan(v.f[c]))
        snprintf(buf, n, "NaN");
    else if (isinf(v.f[c]))
        snprintf(buf, n, v.f[c] > 0 ? "inf" : "-inf");
    else
        snprintf(buf, n, "%.9g", (double)v.f[c]);
}

/* The channel's bit field as hex, as many digits as its bits take. */
static void code_text(const stex_format_info *fi, unsigned c, uint32_t code, char *buf, size_t n)
{
    snprintf(buf, n, "0x%0*" PRIx32, (fi->bits[c] + 3) / 4, code);
}

static const char *verdict_key(stex_channel_verdict v)
{
    switch (v) {
    case STEX_CHANNEL_SIGN_OF_ZERO:
        return "sign_of_zero";
    case STEX_CHANNEL_NAN_PAYLOAD:
        return "nan_payload";
    case STEX_CHANNEL_NAN_VS_NUMBER:
        return "nan_vs_number";
    case STEX_CHANNEL_DISTANCE:
        return "distance";
    default:
        return "equal";
    }
}

/* What sets a channel's two values apart, in words. */
static void distance_text(const stex_channel_diff *d, const char *unit, char *buf, size_t n)
{
    switch (d->verdict) {
    case STEX_CHANNEL_SIGN_OF_ZERO:
        snprintf(buf, n, "sign of zero");
        break;
    case STEX_CHANNEL_NAN_PAYLOAD:
        snprintf(buf, n, "NaN payload");
        break;
    case STEX_CHANNEL_NAN_VS_NUMBER:
        snprintf(buf, n, "NaN vs number");
        break;
    default:
        snprintf(buf, n, "%" PRIu64 " %s", d->diff, unit);
    }
}

/* A histogram bucket's distances: "0", "1", "4-7", "[2^20, 2^21)". */
static void bucket_text(unsigned k, const char *unit, char *buf, size_t n)
{
    if (k == STEX_COMPARE_NAN_BUCKET)
        snprintf(buf, n, "NaN vs number");
    else if (k == 0)
        snprintf(buf, n, "0 (bits only)");
    else if (k == 1)
        snprintf(buf, n, "1 %s", unit);
    else if (k <= 16)
        snprintf(buf, n, "%" PRIu64 "-%" PRIu64 " %s", (uint64_t)1 << (k - 1),
                 ((uint64_t)1 << k) - 1, unit);
    else
        snprintf(buf, n, "[2^%u, 2^%u) %s", k - 1, k, unit);
}

static void bucket_range(unsigned k, uint64_t *lo, uint64_t *hi)
{
    *lo = k ? (uint64_t)1 << (k - 1) : 0;
    *hi = k ? ((uint64_t)1 << k) - 1 : 0;
}

static void abs_text(const stex_format_info *fi, double d, char *buf, size_t n)
{
    if (isinf(d))
        snprintf(buf, n, "inf");
    else if (fi->scalar == STEX_SCALAR_F32)
        snprintf(buf, n, "%.6g", d);
    else
        snprintf(buf, n, "%.0f", d);
}

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0;
}

/* "0.0244%", never "100%" for a part nor "0%" for some. */
static void percent_text(uint64_t part, uint64_t whole, char *buf, size_t n)
{
    double p = percent(part, whole);
    if (part && part < whole && p > 99.9)
        snprintf(buf, n, ">99.9%%");
    else if (part && p < 0.001)
        snprintf(buf, n, "<0.001%%");
    else
        snprintf(buf, n, "%.3g%%", p);
}

/* The summary block: counts, one row per channel, the histogram. */
static void print_summary(const compare_report *rep, const stex_format_info *fi,
                          const stex_compare_result *r)
{
    char share[16];
    percent_text(r->differing, r->texels, share, sizeof share);
    printf("summary: %" PRIu64 " of %" PRIu64 " texels differ (%s): %" PRIu64
           " accepted by %s, %" PRIu64 " beyond\n", r->differing, r->texels, share,
           r->tolerated, rep->tolerance, r->mismatches);
    printf("  channel  differing        max diff    max |golden - actual|\n");
    for (unsigned c = 0; c < r->channels; c++) {
        const stex_channel_summary *s = &r->channel[c];
        char md[32] = "-", ma[32] = "-";
        if (s->max_diff)
            snprintf(md, sizeof md, "%" PRIu64 " %s", s->max_diff, r->unit);
        if (s->max_diff)
            abs_text(fi, s->max_abs, ma, sizeof ma);
        printf("  %c       %10" PRIu64 "  %14s    %s\n", CHANNEL[c], s->differing, md, ma);
    }
    for (unsigned c = 0; c < r->channels; c++) {
        const stex_channel_summary *s = &r->channel[c];
        if (s->sign_of_zero)
            printf("  %c: %" PRIu64 " sign of zero (+0 against -0)\n", CHANNEL[c], s->sign_of_zero);
        if (s->nan_payload)
            printf("  %c: %" PRIu64 " NaN payload (two NaNs, their bits differ)\n", CHANNEL[c],
                   s->nan_payload);
        if (s->nan_vs_number)
            printf("  %c: %" PRIu64 " NaN against a number\n", CHANNEL[c], s->nan_vs_number);
    }
    uint64_t most = 0;
    for (unsigned k = 0; k < STEX_COMPARE_BUCKETS; k++)
        most = r->histogram[k].texels > most ? r->histogram[k].texels : most;
    printf("  distance             texels    beyond\n");
    for (unsigned k = 0; k < STEX_COMPARE_BUCKETS; k++) {
        const stex_compare_bucket *b = &r->histogram[k];
        if (!b->texels)
            continue;
        char label[40], bar[25];
        bucket_text(k, r->unit, label, sizeof label);
        size_t n = (size_t)((b->texels * 24 + most - 1) / most); /* at least one # */
        memset(bar, '#', n);
        bar[n] = '\0';
        printf("  %-18s %8" PRIu64 "  %8" PRIu64 "  %s\n", label, b->texels, b->beyond, bar);
    }
}

/* The first mismatches: the texel's bytes, then each channel that differs. */
static void print_listing(const stex_image *g, const stex_compare_result *r)
{
    const stex_format_info *fi = stex_format_get(g->format);
    printf("first mismatches: bytes in memory order, then each channel that differs\n"
           "as textureLoad reads it (golden, actual, distance):\n");
    for (uint32_t i = 0; i < r->listed; i++) {
        const stex_mismatch *m = &r->first[i];
        char gh[40], ah[40];
        cli_hex(m->golden, fi->bytes, gh);
        cli_hex(m->actual, fi->bytes, ah);
        printf("  (%u, %u, %u): golden %s, actual %s\n", m->x, m->y, m->z, gh, ah);
        for (unsigned c = 0; c < fi->channels; c++) {
            const stex_channel_diff *d = &m->channel[c];
            if (d->verdict == STEX_CHANNEL_EQUAL)
                continue;
            char gv[24], av[24], gc[16], ac[16], gcol[48], acol[48], dist[32];
            value_text(g->format, m->golden, c, gv, sizeof gv);
            value_text(g->format, m->actual, c, av, sizeof av);
            code_text(fi, c, d->golden_code, gc, sizeof gc);
            code_text(fi, c, d->actual_code, ac, sizeof ac);
            snprintf(gcol, sizeof gcol, "%s (%s)", gv, gc);
            snprintf(acol, sizeof acol, "%s (%s)", av, ac);
            distance_text(d, r->unit, dist, sizeof dist);
            printf("    %c  %-27s  %-27s  %s\n", CHANNEL[c], gcol, acol, dist);
        }
    }
    if (r->mismatches > r->listed)
        printf("  ... and %" PRIu64 " more\n", r->mismatches - r->listed);
}

static void print_swizzle_note(const compare_report *rep, const stex_image *g)
{
    if (!rep->swizzled)
        return;
    if (rep->actual_format != g->format)
        printf("note: %s is %s:\n  compared with the %s golden, its B and R bytes swapped\n",
               rep->actual_path, stex_format_name(rep->actual_format), stex_format_name(g->format));
    else
        printf("note: --swizzle bgra: %s's bytes read as B, G, R, A\n", rep->actual_path);
}

void compare_print_text(const compare_report *rep, const stex_image *g,
                        const stex_compare_result *r, bool equal)
{
    const stex_format_info *fi = stex_format_get(g->format);
    print_swizzle_note(rep, g);
    if (equal)
        printf("equal within %s: %" PRIu64 " %s texels (%ux%ux%u)%s\n", rep->tolerance, r->texels,
               fi->name, g->width, g->height, g->depth,
               r->differing ? "" : ", every byte the same");
    else
        printf("MISMATCH: %" PRIu64 " of %" PRIu64 " %s texels (%ux%ux%u) differ beyond %s\n",
               r->mismatches, r->texels, fi->name, g->width, g->height, g->depth, rep->tolerance);
    if (r->differing)
        print_summary(rep, fi, r);
    if (!equal)
        print_listing(g, r);
    if (rep->diff)
        printf("wrote %s (its legend below the texels)\n", rep->diff);
}

/* ---- JSON ---- */

static void json_value(stex_format f, const uint8_t *bytes, unsigned c)
{
    char buf[32];
    value_text(f, bytes, c, buf, sizeof buf);
    /* NaN and infinities, which JSON numbers cannot hold, as strings */
    if (!strcmp(buf, "NaN") || !strcmp(buf, "inf") || !strcmp(buf, "-inf") || !strcmp(buf, "?"))
        printf("\"%s\"", buf);
    else
        fputs(buf, stdout);
}

static void json_hex(const char *key, const uint8_t *p, unsigned n)
{
    char hex[40];
    cli_hex(p, n, hex);
    printf("\"%s\": \"%s\"", key, hex);
}

/* "KEY": [0.5, 1, 0, 1]: the texel's channels as textureLoad returns them. */
static void json_values(const char *key, stex_format f, const uint8_t *bytes)
{
    printf("\"%s\": ", key);
    for (unsigned c = 0; c < stex_format_get(f)->channels; c++) {
        fputs(c ? ", " : "[", stdout);
        json_value(f, bytes, c);
    }
    fputs("]", stdout);
}

static void json_channels(const stex_image *g, const stex_mismatch *m)
{
    const stex_format_info *fi = stex_format_get(g->format);
    fputs(", \"channels\": [", stdout);
    const char *sep = "";
    for (unsigned c = 0; c < fi->channels; c++) {
        const stex_channel_diff *d = &m->channel[c];
        if (d->verdict == STEX_CHANNEL_EQUAL)
            continue;
        char gc[16], ac[16];
        code_text(fi, c, d->golden_code, gc, sizeof gc);
        code_text(fi, c, d->actual_code, ac, sizeof ac);
        printf("%s{\"channel\": \"%c\", \"golden\": ", sep, CHANNEL[c]);
        json_value(g->format, m->golden, c);
        fputs(", \"actual\": ", stdout);
        json_value(g->format, m->actual, c);
        printf(", \"golden_bits\": \"%s\", \"actual_bits\": \"%s\", \"verdict\": \"%s\", "
               "\"diff\": ", gc, ac, verdict_key(d->verdict));
        if (d->verdict == STEX_CHANNEL_DISTANCE)
            printf("%" PRIu64 "}", d->diff);
        else
            fputs(d->verdict == STEX_CHANNEL_NAN_VS_NUMBER ? "null}" : "0}", stdout);
        sep = ", ";
    }
    fputs("]", stdout);
}

static void json_summary(const stex_format_info *fi, const stex_compare_result *r)
{
    printf(", \"summary\": {\"differing_percent\": %.6g, \"channels\": [",
           percent(r->differing, r->texels));
    for (unsigned c = 0; c < r->channels; c++) {
        const stex_channel_summary *s = &r->channel[c];
        printf("%s{\"channel\": \"%c\", \"differing\": %" PRIu64 ", \"max_diff\": %" PRIu64
               ", \"max_abs\": ", c ? ", " : "", CHANNEL[c], s->differing, s->max_diff);
        if (isinf(s->max_abs))
            fputs("\"inf\"", stdout);
        else if (fi->scalar == STEX_SCALAR_F32)
            printf("%.9g", s->max_abs);
        else
            printf("%.0f", s->max_abs);
        printf(", \"sign_of_zero\": %" PRIu64 ", \"nan_payload\": %" PRIu64
               ", \"nan_vs_number\": %" PRIu64 "}", s->sign_of_zero, s->nan_payload,
               s->nan_vs_number);
    }
    fputs("], \"histogram\": [", stdout);
    const char *sep = "";
    for (unsigned k = 0; k < STEX_COMPARE_BUCKETS; k++) {
        const stex_compare_bucket *b = &r->histogram[k];
        if (!b->texels)
            continue;
        uint64_t lo, hi;
        bucket_range(k, &lo, &hi);
        if (k == STEX_COMPARE_NAN_BUCKET)
            printf("%s{\"min\": null, \"max\": null", sep);
        else
            printf("%s{\"min\": %" PRIu64 ", \"max\": %" PRIu64, sep, lo, hi);
        printf(", \"texels\": %" PRIu64 ", \"beyond\": %" PRIu64 "}", b->texels, b->beyond);
        sep = ", ";
    }
    fputs("]}", stdout);
}

void compare_print_json(const compare_report *rep, const stex_image *g,
                        const stex_compare_result *r, bool equal)
{
    const stex_format_info *fi = stex_format_get(g->format);
    printf("{\"equal\": %s, \"tolerance\": ", equal ? "true" : "false");
    cli_json_string(stdout, rep->tolerance);
    printf(", \"format\": \"%s\", \"actual_format\": \"%s\", \"swizzle\": %s, "
           "\"size\": [%u, %u, %u], \"texels\": %" PRIu64 ", \"mismatches\": %" PRIu64
           ", \"differing\": %" PRIu64 ", \"tolerated\": %" PRIu64 ", \"max_diff\": ",
           fi->name, stex_format_name(rep->actual_format), rep->swizzled ? "\"bgra\"" : "null",
           g->width, g->height, g->depth, r->texels, r->mismatches, r->differing, r->tolerated);
    if (r->max_diff_unbounded)
        fputs("null", stdout);
    else
        printf("%" PRIu64, r->max_diff);
    printf(", \"unit\": \"%s\"", r->unit);
    json_summary(fi, r);
    fputs(", \"first_mismatches\": [", stdout);
    for (uint32_t i = 0; i < r->listed; i++) {
        const stex_mismatch *m = &r->first[i];
        printf("%s{\"x\": %u, \"y\": %u, \"z\": %u, ", i ? ", " : "", m->x, m->y, m->z);
        json_hex("golden", m->golden, fi->bytes);
        fputs(", ", stdout);
        json_hex("actual", m->actual, fi->bytes);
        fputs(", ", stdout);
        json_values("golden_values", g->format, m->golden);
        fputs(", ", stdout);
        json_values("actual_values", g->format, m->actual);
        json_channels(g, m);
        if (m->diff == UINT64_MAX)
            fputs(", \"diff\": null}", stdout);
        else
            printf(", \"diff\": %" PRIu64 "}", m->diff);
    }
    fputs("], \"diff_png\": ", stdout);
    if (rep->diff)
        cli_json_string(stdout, rep->diff);
    else
        fputs("null", stdout);
    puts("}");
}
