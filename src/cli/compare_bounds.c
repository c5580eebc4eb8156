/* stex compare against an allowed golden (its X.bin.allowed bounds): the
 * verdict, the values no rule constrains counted by their reason, and the
 * first values outside with the allowed range and the distance to its
 * nearest end, as text or as one JSON object (docs/file-formats.md). */
#include "cli/compare_report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli_kernel.h"

static const char CHANNEL[4] = {'r', 'g', 'b', 'a'};

/* A channel code's value as textureLoad returns it (spec profile). */
static void code_value(stex_format f, unsigned c, uint32_t code, char *buf, size_t n)
{
    const stex_format_info *fi = stex_format_get(f);
    uint8_t t[16] = {0};
    stex_vec4 v;
    stex_texel_set_code(f, t, c, code);
    if (stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), f, t, &v))
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

static void code_hex(stex_format f, unsigned c, uint32_t code, char *buf, size_t n)
{
    snprintf(buf, n, "0x%0*" PRIx32, (stex_format_get(f)->bits[c] + 3) / 4, code);
}

/* "[0.498039216, 0.501960814]", "0.5", "NaN only", with " or NaN". */
static void allowed_text(stex_format f, const stex_bound_miss *m, char *buf, size_t n)
{
    const stex_bound *b = &m->bound;
    char lo[32], hi[32];
    if (b->flags & STEX_BOUND_ONLY_NAN) {
        snprintf(buf, n, "only NaN");
        return;
    }
    char lh[16], hh[16];
    code_value(f, m->channel, b->lo, lo, sizeof lo);
    code_value(f, m->channel, b->hi, hi, sizeof hi);
    code_hex(f, m->channel, b->lo, lh, sizeof lh);
    code_hex(f, m->channel, b->hi, hh, sizeof hh);
    if (b->lo == b->hi)
        snprintf(buf, n, "%s (%s)%s", lo, lh, b->flags & STEX_BOUND_NAN ? " or NaN" : "");
    else
        snprintf(buf, n, "[%s, %s] (%s..%s)%s", lo, hi, lh, hh,
                 b->flags & STEX_BOUND_NAN ? " or NaN" : "");
}

static void distance_text(const stex_bound_miss *m, const char *unit, char *buf, size_t n)
{
    if (m->verdict == STEX_BOUND_NAN_OUTSIDE)
        snprintf(buf, n, "NaN, none allowed");
    else if (m->verdict == STEX_BOUND_NUMBER_OUTSIDE)
        snprintf(buf, n, "a number, only NaN allowed");
    else if (m->distance == 0)
        snprintf(buf, n, "sign of zero");
    else
        snprintf(buf, n, "%" PRIu64 " %s", m->distance, unit);
}

static const char *reason_text(const stex_bounds *b, uint32_t reason)
{
    return reason && reason <= b->nreasons ? b->reasons[reason - 1] : "no reason recorded";
}

static void print_verdict(const compare_report *rep, const stex_bounds *b,
                          const stex_bounds_result *r)
{
    const stex_format_info *fi = stex_format_get(b->format);
    if (rep->swizzled)
        printf("note: %s's B and R bytes swapped to compare with the %s golden\n",
               rep->actual_path, fi->name);
    if (!r->outside)
        printf("inside the allowed golden: %" PRIu64 " values of %" PRIu64 " %s texels "
               "(%ux%ux%u)\n", r->values, r->texels, fi->name, b->width, b->height, b->depth);
    else {
        printf("OUTSIDE the allowed golden: %" PRIu64 " of %" PRIu64 " values (%" PRIu64
               " of %" PRIu64 " %s texels, %ux%ux%u)\n", r->outside, r->values, r->outside_texels,
               r->texels, fi->name, b->width, b->height, b->depth);
        if (r->max_distance_unbounded)
            printf("  farthest: a NaN against numbers (no distance)%s\n",
                   r->max_distance ? "" : ", nothing else");
        if (r->max_distance)
            printf("  largest distance to the nearest allowed value: %" PRIu64 " %s\n",
                   r->max_distance, r->unit);
    }
    if (r->unconstrained) {
        printf("unconstrained: %" PRIu64 " value%s (any bits pass), by reason:\n",
               r->unconstrained, r->unconstrained == 1 ? "" : "s");
        uint64_t shown = 0;
        for (uint32_t i = 0; i < r->reasons_listed; i++) {
            printf("  %10" PRIu64 "  %s\n", r->by_reason[i].values,
                   reason_text(b, r->by_reason[i].reason));
            shown += r->by_reason[i].values;
        }
        if (shown < r->unconstrained)
            printf("  %10" PRIu64 "  (other reasons)\n", r->unconstrained - shown);
    }
    if (!r->outside)
        return;
    printf("first values outside (texel, channel: readback; allowed; distance):\n");
    for (uint32_t i = 0; i < r->listed; i++) {
        const stex_bound_miss *m = &r->first[i];
        char v[32], h[16], al[120], d[40];
        code_value(b->format, m->channel, m->code, v, sizeof v);
        code_hex(b->format, m->channel, m->code, h, sizeof h);
        allowed_text(b->format, m, al, sizeof al);
        distance_text(m, r->unit, d, sizeof d);
        printf("  (%u, %u, %u) %c: %s (%s); %s; %s\n", m->x, m->y, m->z, CHANNEL[m->channel], v,
               h, al, d);
    }
    if (r->outside > r->listed)
        printf("  ... and %" PRIu64 " more\n", r->outside - r->listed);
}

void compare_bounds_print_text(const compare_report *rep, const stex_bounds *b,
                               const stex_bounds_result *r)
{
    print_verdict(rep, b, r);
    if (rep->diff)
        printf("wrote %s (its legend below the texels)\n", rep->diff);
}

/* A value for JSON: a number, or NaN / inf as a string. */
static void json_code_value(stex_format f, unsigned c, uint32_t code)
{
    char buf[32];
    code_value(f, c, code, buf, sizeof buf);
    if (!strcmp(buf, "NaN") || !strcmp(buf, "inf") || !strcmp(buf, "-inf") || !strcmp(buf, "?"))
        printf("\"%s\"", buf);
    else
        fputs(buf, stdout);
}

static const char *verdict_key(stex_bound_verdict v)
{
    switch (v) {
    case STEX_BOUND_NAN_OUTSIDE:
        return "nan_outside";
    case STEX_BOUND_NUMBER_OUTSIDE:
        return "number_outside";
    default:
        return "outside";
    }
}

static void json_miss(const stex_bounds *b, const stex_bound_miss *m)
{
    char h[16], lo[16], hi[16], near[16];
    code_hex(b->format, m->channel, m->code, h, sizeof h);
    code_hex(b->format, m->channel, m->bound.lo, lo, sizeof lo);
    code_hex(b->format, m->channel, m->bound.hi, hi, sizeof hi);
    code_hex(b->format, m->channel, m->nearest, near, sizeof near);
    bool only_nan = m->bound.flags & STEX_BOUND_ONLY_NAN;
    printf("{\"x\": %u, \"y\": %u, \"z\": %u, \"channel\": \"%c\", \"actual\": ", m->x, m->y,
           m->z, CHANNEL[m->channel]);
    json_code_value(b->format, m->channel, m->code);
    printf(", \"actual_bits\": \"%s\", \"allowed\": ", h);
    if (only_nan)
        fputs("null", stdout);
    else {
        fputs("[", stdout);
        json_code_value(b->format, m->channel, m->bound.lo);
        fputs(", ", stdout);
        json_code_value(b->format, m->channel, m->bound.hi);
        printf("]");
    }
    if (only_nan)
        fputs(", \"allowed_bits\": null", stdout);
    else
        printf(", \"allowed_bits\": [\"%s\", \"%s\"]", lo, hi);
    printf(", \"nan_allowed\": %s, \"verdict\": \"%s\", \"distance\": ",
           m->bound.flags & STEX_BOUND_NAN ? "true" : "false", verdict_key(m->verdict));
    if (m->distance == UINT64_MAX)
        fputs("null, \"nearest_bits\": null}", stdout);
    else
        printf("%" PRIu64 ", \"nearest_bits\": \"%s\"}", m->distance, near);
}

void compare_bounds_print_json(const compare_report *rep, const stex_bounds *b,
                               const stex_bounds_result *r)
{
    const stex_format_info *fi = stex_format_get(b->format);
    printf("{\"inside\": %s, \"golden\": \"allowed\", \"format\": \"%s\", \"actual_format\": "
           "\"%s\", \"swizzle\": %s, \"size\": [%u, %u, %u], \"texels\": %" PRIu64
           ", \"values\": %" PRIu64 ", \"inside_values\": %" PRIu64 ", \"outside\": %" PRIu64
           ", \"outside_texels\": %" PRIu64 ", \"unconstrained\": %" PRIu64
           ", \"max_distance\": ", r->outside ? "false" : "true", fi->name,
           stex_format_name(rep->actual_format), rep->swizzled ? "\"bgra\"" : "null", b->width,
           b->height, b->depth, r->texels, r->values, r->inside, r->outside, r->outside_texels,
           r->unconstrained);
    if (r->max_distance_unbounded)
        fputs("null", stdout);
    else
        printf("%" PRIu64, r->max_distance);
    printf(", \"unit\": \"%s\", \"unconstrained_by_reason\": [", r->unit);
    for (uint32_t i = 0; i < r->reasons_listed; i++) {
        printf("%s{\"reason\": ", i ? ", " : "");
        uint32_t k = r->by_reason[i].reason;
        if (k && k <= b->nreasons)
            cli_json_string(stdout, b->reasons[k - 1]);
        else
            fputs("null", stdout);
        printf(", \"values\": %" PRIu64 "}", r->by_reason[i].values);
    }
    fputs("], \"first_outside\": [", stdout);
    for (uint32_t i = 0; i < r->listed; i++) {
        fputs(i ? ", " : "", stdout);
        json_miss(b, &r->first[i]);
    }
    fputs("], \"diff_png\": ", stdout);
    if (rep->diff)
        cli_json_string(stdout, rep->diff);
    else
        fputs("null", stdout);
    puts("}");
}
