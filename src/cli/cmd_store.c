/* stex store: what textureStore writes for a value, and what textureLoad of
 * that texel returns, under a device profile. */
#include "cli/cli_kernel.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "stex/convert.h"

static const char *const CMD = "store";

static const char SYNOPSIS[] =
    "usage: stex store [--profile P] [--bits] [--json] FORMAT V0 [V1 V2 V3]\n"
    "       stex store [--profile P] --bits FORMAT < patterns\n\n"
    "Shows the bytes textureStore writes to one texel of FORMAT for the value\n"
    "(V0, V1, V2, V3) - in memory order, lowercase hex - and what textureLoad of\n"
    "that texel returns.  Give 1 to 4 values: missing ones are 0, and those past\n"
    "the format's channels are dropped, as textureStore drops them.\n\n"
    "Values are decimal numbers: vec4<f32> for unorm, snorm and float formats\n"
    "(nan, inf, -inf and -0 too), u32 for uint and i32 for sint formats.  A\n"
    "negative value is a value, not an option; options may come anywhere.\n"
    "Hex (0x3f000000) is refused unless --bits, and so is a leading zero (010).\n";

static const char EPILOGUE[] =
    "examples:\n"
    "  stex store rgba8unorm 1.5 -0.3 0.5 1       # ff0080ff: clamped, 127.5 -> 128\n"
    "  stex store rgba8unorm 0.5 0 0 1 --profile nvidia  # 7f: rounds half down\n"
    "  stex store rgba16float 65520                  # 007c000000000000: f16 overflow\n"
    "  stex store --profile lavapipe rgba16float 65519 nan 1e-7 -0\n"
    "  stex store --bits r32float 0x7f800001          # signalling NaN kept\n"
    "  stex store rgba8sint 200 -200 5 0             # 7f800500: clamped\n"
    "  printf '0x3f000000 0 0 0\\n' | stex store --bits --profile nvidia rgba8unorm\n\n"
    "exit status: 0 ok, 2 usage error (unknown or non-storage format, malformed\n"
    "number, wrong count, unknown profile) or unwritable output.\n";

typedef struct store_opts {
    stex_profile_id profile;
    bool bits, json;
} store_opts;

#define AT(field) offsetof(store_opts, field)
static const cli_option store_options[] = {
    {.name = "profile", .kind = CLI_CUSTOM, .parse = cli_parse_profile, .at = AT(profile),
     .metavar = "P", .help = "spec (default), lavapipe or nvidia: whose conversion rules"},
    {.name = "bits", .kind = CLI_FLAG, .at = AT(bits),
     .help = "values are 0x-prefixed 32-bit patterns (bitcast to f32 for\n"
             "float formats, u32 for uint, i32 for sint).  With no values,\n"
             "reads one vector per line (four hex patterns, 0x optional)\n"
             "from stdin and prints only the stored bytes, one line each"},
    {.name = "json", .kind = CLI_FLAG, .at = AT(json), .help = "print the result as JSON"},
    {0}};
#undef AT

const cli_spec cli_store_spec = {"store", SYNOPSIS, EPILOGUE, store_options};

static void list_storage_formats(FILE *f)
{
    fputs("the storage formats are:", f);
    for (int i = STEX_FORMAT_UNDEFINED + 1; i < STEX_FORMAT_COUNT; i++) {
        const stex_format_info *fi = stex_format_get((stex_format)i);
        if (fi && fi->storage != STEX_TIER_NEVER)
            fprintf(f, " %s", fi->name);
    }
    fputs("\n", f);
}

/* A 32-bit hex pattern, "0x"-prefixed unless `bare_ok`. */
static bool parse_pattern(const char *s, bool bare_ok, uint32_t *out)
{
    if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
        s += 2;
    else if (!bare_ok)
        return false;
    size_t len = strlen(s);
    if (len == 0 || len > 8 || strspn(s, "0123456789abcdefABCDEF") != len)
        return false;
    *out = (uint32_t)strtoul(s, NULL, 16);
    return true;
}

/* Why a decimal value is refused before it is read: strtof reads "0x..."
 * as a hex float and "010" as 10, where `stex eval` reads 0x as a bit
 * pattern and C as octal - the guide's rule is that numbers are decimal,
 * so both are refused, never silently given a third meaning. */
static const char *not_decimal(const char *s)
{
    const char *d = s + (*s == '-' || *s == '+');
    if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
        return "hex";
    if (d[0] == '0' && isdigit((unsigned char)d[1]))
        return "leading zero";
    return NULL;
}

/* One value of the format's scalar type, decimal or (bits) 0x pattern. */
static bool parse_value(const char *s, stex_scalar_type t, bool bits, uint32_t *out)
{
    char *end;
    errno = 0;
    if (bits)
        return parse_pattern(s, false, out);
    if (!*s || isspace((unsigned char)*s) || not_decimal(s))
        return false;
    if (t == STEX_SCALAR_F32) {
        float v = strtof(s, &end);
        if (*end)
            return false;
        memcpy(out, &v, 4);
        return true;
    }
    if (t == STEX_SCALAR_U32) {
        if (*s == '-' || *s == '+')
            return false;
        unsigned long long v = strtoull(s, &end, 10);
        if (*end || errno || v > UINT32_MAX)
            return false;
        *out = (uint32_t)v;
        return true;
    }
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v < INT32_MIN || v > INT32_MAX)
        return false;
    *out = (uint32_t)(int32_t)v;
    return true;
}

static void print_scalar(FILE *f, stex_scalar_type t, uint32_t u, bool json)
{
    if (t == STEX_SCALAR_U32) {
        fprintf(f, "%" PRIu32, u);
    } else if (t == STEX_SCALAR_I32) {
        fprintf(f, "%" PRId32, (int32_t)u);
    } else {
        float v;
        memcpy(&v, &u, 4);
        if (isnan(v))
            fputs(json ? "\"nan\"" : "nan", f);
        else if (isinf(v))
            fputs(json ? (v > 0 ? "\"inf\"" : "\"-inf\"") : (v > 0 ? "inf" : "-inf"), f);
        else
            fprintf(f, "%.9g", (double)v);
    }
}

static void print_hex(FILE *f, const uint8_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%02x", b[i]);
}

/* --bits without values: one vector per line of stdin, read whole whatever
 * its length (getline), numbered from 1 for the messages. */
static int batch(const stex_profile *p, stex_format fmt)
{
    const stex_format_info *fi = stex_format_get(fmt);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned lineno = 0;
    int rc = CLI_OK;
    while (!rc && (len = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) {
            rc = cli_usage(CMD, "stdin line %u: holds a NUL byte (the input must be text)", lineno);
            break;
        }
        char *tok[5], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(line, " \t\r\n", &save); t && n < 5;
             t = strtok_r(NULL, " \t\r\n", &save))
            tok[n++] = t;
        if (n == 0)
            continue;
        stex_vec4 v = {.u = {0, 0, 0, 0}};
        if (n != 4) {
            rc = cli_usage(CMD, "stdin line %u: expected 4 hex bit patterns, got %s%d", lineno,
                           n == 5 ? "more than " : "", n == 5 ? 4 : n);
            break;
        }
        for (int i = 0; !rc && i < 4; i++)
            if (!parse_pattern(tok[i], true, &v.u[i]))
                rc = cli_usage(CMD, "stdin line %u: '%.40s%s' is not a 32-bit hex pattern", lineno,
                               tok[i], strlen(tok[i]) > 40 ? "..." : "");
        if (rc)
            break;
        uint8_t bytes[16];
        stex_encode_texel(p, fmt, &v, bytes);
        print_hex(stdout, bytes, fi->bytes);
        fputc('\n', stdout);
    }
    if (!rc && ferror(stdin))
        rc = cli_usage(CMD, "cannot read stdin after line %u", lineno);
    free(line);
    return rc;
}

/* The format argument: a storage format, or a usage error listing them. */
static bool storage_format(const char *name, stex_format *out)
{
    stex_format fmt = stex_format_from_name(name);
    if (fmt == STEX_FORMAT_UNDEFINED) {
        char near[96];
        cli_usage(CMD, "unknown format '%s'%s", name, cli_near_format(near, sizeof near, name));
        list_storage_formats(stderr);
        return false;
    }
    if (!stex_encoder(fmt) || stex_format_get(fmt)->storage == STEX_TIER_NEVER) {
        cli_usage(CMD, "%s is not a storage format: textureStore cannot write it", name);
        list_storage_formats(stderr);
        return false;
    }
    *out = fmt;
    return true;
}

/* The values after FORMAT into v (missing ones stay 0). */
static int parse_values(const store_opts *o, const stex_format_info *fi, const char *name,
                        int n, const char *const *vals, stex_vec4 *v)
{
    if (n < 1 || n > 4)
        return cli_usage(CMD, "%s has %u channel%s: give 1 to 4 values (missing ones are 0, "
                              "those past the channels dropped), got %d", name, fi->channels,
                         fi->channels == 1 ? "" : "s", n);
    for (int i = 0; i < n; i++) {
        const char *why = o->bits ? NULL : not_decimal(vals[i]);
        if (why && !strcmp(why, "hex"))
            return cli_usage(CMD, "value %d: '%s' is hex; values are decimal numbers, and a "
                                  "bit pattern needs --bits (stex store --bits %s %s)",
                             i, vals[i], name, vals[i]);
        if (why)
            return cli_usage(CMD, "value %d: '%s' has a leading zero; values are decimal "
                                  "numbers (never octal): write it without the zero",
                             i, vals[i]);
        if (!parse_value(vals[i], fi->scalar, o->bits, &v->u[i]))
            return cli_usage(CMD, "value %d: '%s' is not %s", i, vals[i],
                             o->bits ? "a 0x-prefixed 32-bit pattern (e.g. 0x3f800000)"
                             : fi->scalar == STEX_SCALAR_F32 ? "a decimal number (or nan, inf, -inf)"
                             : fi->scalar == STEX_SCALAR_U32 ? "a u32 (0 to 4294967295)"
                                                             : "an i32 (-2147483648 to 2147483647)");
    }
    return CLI_OK;
}

static void print_json(const char *name, const char *pname, const stex_format_info *fi,
                       const stex_vec4 *v, const uint8_t *bytes, const stex_vec4 *back)
{
    printf("{\"format\": \"%s\", \"profile\": \"%s\", \"input\": [", name, pname);
    for (int i = 0; i < 4; i++) {
        print_scalar(stdout, fi->scalar, v->u[i], true);
        printf(i < 3 ? ", " : "], \"input_bits\": [");
    }
    for (int i = 0; i < 4; i++)
        printf("\"0x%08" PRIx32 "\"%s", v->u[i], i < 3 ? ", " : "], \"bytes\": \"");
    print_hex(stdout, bytes, fi->bytes);
    printf("\", \"load\": [");
    for (int i = 0; i < 4; i++) {
        print_scalar(stdout, fi->scalar, back->u[i], true);
        printf(i < 3 ? ", " : "], \"load_bits\": [");
    }
    for (int i = 0; i < 4; i++)
        printf("\"0x%08" PRIx32 "\"%s", back->u[i], i < 3 ? ", " : "]}\n");
}

static void print_text(const char *name, const char *pname, const stex_format_info *fi,
                       const stex_vec4 *v, const uint8_t *bytes, const stex_vec4 *back)
{
    printf("%s, profile %s\n  input        ", name, pname);
    for (int i = 0; i < 4; i++) {
        print_scalar(stdout, fi->scalar, v->u[i], false);
        printf(i < 3 ? " " : "   (bits");
    }
    for (int i = 0; i < 4; i++)
        printf(" %08" PRIx32 "%s", v->u[i], i < 3 ? "" : ")\n  bytes        ");
    print_hex(stdout, bytes, fi->bytes);
    printf("   (memory order, %u byte%s)\n  textureLoad  ", fi->bytes, fi->bytes == 1 ? "" : "s");
    for (int i = 0; i < 4; i++) {
        print_scalar(stdout, fi->scalar, back->u[i], false);
        printf(i < 3 ? " " : "   (bits");
    }
    for (int i = 0; i < 4; i++)
        printf(" %08" PRIx32 "%s", back->u[i], i < 3 ? "" : ")\n");
    if (fi->packing == STEX_PACKING_BGRA)
        printf("  note         bgra8unorm storage is write-only; the load is texture_2d<f32>'s\n");
}

int cli_store(int argc, char **argv)
{
    store_opts o = {.profile = STEX_PROFILE_SPEC};
    cli_args a;
    int rc = cli_parse(&cli_store_spec, argc, argv, &o, &a);
    if (rc || a.help)
        return rc;
    if (a.count == 0)
        return cli_usage(CMD, "missing FORMAT");
    const char *name = a.value[0];
    stex_format fmt;
    if (!storage_format(name, &fmt))
        return CLI_USAGE;
    const stex_format_info *fi = stex_format_get(fmt);
    const stex_profile *p = stex_profile_get(o.profile);
    if (a.count == 1 && o.bits)
        return batch(p, fmt);
    stex_vec4 v = {.u = {0, 0, 0, 0}};
    if ((rc = parse_values(&o, fi, name, a.count - 1, a.value + 1, &v)))
        return rc;
    uint8_t bytes[16];
    stex_vec4 back;
    stex_encode_texel(p, fmt, &v, bytes);
    stex_decode_texel(p, fmt, bytes, &back);
    const char *pname = stex_profile_name(o.profile);
    if (o.json)
        print_json(name, pname, fi, &v, bytes, &back);
    else
        print_text(name, pname, fi, &v, bytes, &back);
    return CLI_OK;
}
