/* Argument helpers shared by the subcommands. */
#include "cli/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "stex %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see `stex %s --help`)\n", cmd);
    return CLI_USAGE;
}

bool cli_parse_u64(const char *cmd, const char *what, const char *s, uint64_t *out)
{
    /* Decimal only: no sign, no "0x", and no leading zero, which C and
     * strtoull(base 0) read as octal - refused rather than silently meant
     * one way or the other. */
    size_t len = s ? strlen(s) : 0;
    if (len == 0 || strspn(s, "0123456789") != len) {
        cli_usage(cmd, "%s: '%s' is not a decimal integer (digits 0-9 only: no sign, no 0x)",
                  what, s ? s : "");
        return false;
    }
    if (len > 1 && s[0] == '0') {
        cli_usage(cmd, "%s: '%s' has a leading zero; numbers are decimal, write them without "
                       "one", what, s);
        return false;
    }
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno == ERANGE) {
        cli_usage(cmd, "%s: '%s' is too large (at most %" PRIu64 ")", what, s, UINT64_MAX);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_u32(const char *cmd, const char *what, const char *s, uint32_t *out)
{
    uint64_t v;
    if (!cli_parse_u64(cmd, what, s, &v))
        return false;
    if (v > UINT32_MAX) {
        cli_usage(cmd, "%s: %s is larger than %" PRIu32, what, s, UINT32_MAX);
        return false;
    }
    *out = (uint32_t)v;
    return true;
}

bool cli_parse_u32_range(const char *cmd, const char *what, const char *s, uint32_t lo,
                         uint32_t hi, uint32_t *out)
{
    uint32_t v;
    if (!cli_parse_u32(cmd, what, s, &v))
        return false;
    if (v < lo || v > hi) {
        cli_usage(cmd, "%s: expected %" PRIu32 "..%" PRIu32 ", got '%s'", what, lo, hi, s);
        return false;
    }
    *out = v;
    return true;
}

bool cli_parse_size(const char *cmd, const char *what, const char *s, uint32_t out[3])
{
    uint32_t v[3] = {1, 1, 1};
    const char *p = s ? s : "";
    for (int i = 0; i < 3; i++) {
        char *end;
        if (*p < '1' || *p > '9') /* a part is >= 1 and has no leading zero */
            goto bad;
        errno = 0;
        unsigned long n = strtoul(p, &end, 10);
        if (errno || n > UINT32_MAX)
            goto bad;
        v[i] = (uint32_t)n;
        if (*end == '\0') {
            memcpy(out, v, sizeof v);
            return true;
        }
        if (*end != 'x' || i == 2)
            goto bad;
        p = end + 1;
    }
bad:
    cli_usage(cmd, "%s: expected W, WxH or WxHxL with every part >= 1, got '%s'", what,
              s ? s : "");
    return false;
}

void cli_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}
