/* Is a stored texel one the WebGPU/WGSL rules permit for a value?  The
 * tolerance of `stex compare --allowed`: per channel, every encoding some
 * conforming device may produce (and every one the three profiles produce).
 *
 *   unorm/snorm  either of the two integers nearest the exact x*S (one if
 *                exact); snorm x <= -1 -> -S or -(S+1); NaN -> 0, +S or -S
 *   f16, ufloat  either neighbour of x (round up or down); a subnormal result
 *                may be flushed to zero; past 65504: 65504 or inf; NaN -> any
 *                NaN; ufloat negatives -> 0
 *   f32          the same bits; a subnormal may be flushed; NaN -> any NaN
 *   integers     clamped to the channel (WGSL), 32-bit ones unchanged */
#include <inttypes.h>
#include <stdio.h>

#include "common/error.h"
#include "convert/scalar.h"
#include "stex/convert.h"

/* Channel codes (right-aligned) in R,G,B,A order. */
static void raw_codes(const stex_format_info *fi, const uint8_t *b, uint32_t k[4])
{
    uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    switch (fi->packing) {
    case STEX_PACKING_BGRA:
    case STEX_PACKING_SRGB_BGRA:
        k[0] = b[2], k[1] = b[1], k[2] = b[0], k[3] = b[3];
        return;
    case STEX_PACKING_RGB10A2:
        k[0] = w & 0x3ff, k[1] = (w >> 10) & 0x3ff, k[2] = (w >> 20) & 0x3ff, k[3] = w >> 30;
        return;
    case STEX_PACKING_RG11B10:
        k[0] = w & 0x7ff, k[1] = (w >> 11) & 0x7ff, k[2] = w >> 22, k[3] = 0;
        return;
    default: {
        unsigned off = 0;
        for (unsigned c = 0; c < 4; c++) {
            unsigned nb = fi->bits[c] / 8;
            k[c] = 0;
            for (unsigned i = 0; i < nb; i++)
                k[c] |= (uint32_t)b[off + i] << (8 * i);
            off += nb;
        }
    }
    }
}

typedef struct verdict {
    bool ok;
    char allowed[96]; /* what would have been accepted, for the message */
} verdict;

/* Two nearest integers to |x| * (2^m - 1), 0 < |x| < 1. */
static void norm_neighbours(uint32_t ax, unsigned m, int32_t *lo, int32_t *hi)
{
    uint32_t e = ax >> 23, man = ax & 0x7fffff;
    uint64_t M = e ? (man | 0x800000u) : man, P = M * ((UINT64_C(1) << m) - 1);
    unsigned sh = 150 - (e ? e : 1);
    uint64_t q = sh > 63 ? 0 : P >> sh;
    bool exact = sh <= 63 ? (P & ((UINT64_C(1) << sh) - 1)) == 0 : P == 0;
    *lo = (int32_t)q;
    *hi = (int32_t)(exact ? q : q + 1);
}

static verdict norm_ok(uint32_t u, uint32_t code, unsigned n, bool is_snorm)
{
    verdict v = {false, ""};
    unsigned m = is_snorm ? n - 1 : n;
    int32_t S = (int32_t)((1u << m) - 1);
    int32_t q = is_snorm ? (int32_t)(code << (32 - n)) >> (32 - n) : (int32_t)code;
    uint32_t ax = u & 0x7fffffff;
    bool neg = u >> 31;
    int32_t a, b;
    if (ax > 0x7f800000) {
        v.ok = q == 0 || q == S || (is_snorm && (q == -S || q == -S - 1));
        snprintf(v.allowed, sizeof v.allowed, is_snorm ? "0, %d or %d for NaN" : "0 or %d for NaN",
                 (int)S, (int)-S);
        return v;
    }
    if (ax == 0 || (neg && !is_snorm)) {
        a = b = 0;
    } else if (ax >= 0x3f800000) {
        a = neg ? -S : S;
        b = neg ? -S - 1 : S;
    } else {
        norm_neighbours(ax, m, &a, &b);
        if (neg)
            a = -a, b = -b;
    }
    v.ok = q == a || q == b;
    if (a == b)
        snprintf(v.allowed, sizeof v.allowed, "%d", (int)a);
    else
        snprintf(v.allowed, sizeof v.allowed, "%d or %d", (int)a, (int)b);
    return v;
}

/* A small float (mb mantissa bits) stored for f32 bits u. */
static verdict small_ok(uint32_t u, uint32_t code, unsigned mb, bool has_sign)
{
    static const stex_float_rules trunc = {STEX_FLOAT_ROUND_ZERO, STEX_FLOAT_OVERFLOW_SATURATE,
                                           STEX_FLOAT_SUBNORMAL_KEEP,
                                           STEX_FLOAT_NAN_QUIET_PAYLOAD};
    verdict v = {false, ""};
    uint32_t inf = 0x1fu << mb, mag_mask = inf | (inf - 1);
    bool code_nan = (code & mag_mask) > inf;
    if ((u & 0x7fffffff) > 0x7f800000) {
        v.ok = code_nan;
        snprintf(v.allowed, sizeof v.allowed, "any NaN");
        return v;
    }
    if (!has_sign && (u >> 31)) {
        v.ok = code == 0;
        snprintf(v.allowed, sizeof v.allowed, "0 (negative values)");
        return v;
    }
    uint32_t lo = stex_float_to_small(&trunc, u, mb, has_sign);
    uint32_t back = stex_small_to_float(STEX_NAN_DECODE_QUIET, lo, mb, has_sign);
    uint32_t hi = back == u || (lo & mag_mask) == inf ? lo : lo + 1; /* next in magnitude */
    bool zero_ok = (lo & mag_mask) < (1u << mb) || (hi & mag_mask) < (1u << mb);
    v.ok = code == lo || code == hi || (zero_ok && (code & mag_mask) == 0);
    const char *flush = zero_ok ? " (or a flushed zero)" : "";
    if (hi != lo)
        snprintf(v.allowed, sizeof v.allowed, "0x%" PRIx32 " or 0x%" PRIx32 "%s", lo, hi, flush);
    else
        snprintf(v.allowed, sizeof v.allowed, "0x%" PRIx32 "%s", lo, flush);
    return v;
}

static verdict f32_ok(uint32_t u, uint32_t code)
{
    verdict v = {false, ""};
    if ((u & 0x7fffffff) > 0x7f800000) {
        v.ok = (code & 0x7fffffff) > 0x7f800000;
        snprintf(v.allowed, sizeof v.allowed, "any NaN");
    } else if ((u & 0x7f800000) == 0 && (u & 0x7fffff)) {
        v.ok = code == u || (code & 0x7fffffff) == 0;
        snprintf(v.allowed, sizeof v.allowed, "0x%08" PRIx32 " or a flushed zero", u);
    } else {
        v.ok = code == u;
        snprintf(v.allowed, sizeof v.allowed, "0x%08" PRIx32 " (the same bits)", u);
    }
    return v;
}

static verdict int_ok(stex_channel_type t, uint32_t u, uint32_t code, unsigned n)
{
    verdict v = {false, ""};
    uint32_t want;
    if (n == 32) {
        want = u;
    } else if (t == STEX_CHANNEL_UINT) {
        uint32_t max = (1u << n) - 1;
        want = u > max ? max : u;
    } else {
        int32_t hi = (int32_t)((1u << (n - 1)) - 1), lo = -hi - 1, i = (int32_t)u;
        want = (uint32_t)(i > hi ? hi : i < lo ? lo : i) & ((1u << n) - 1);
    }
    v.ok = code == want;
    snprintf(v.allowed, sizeof v.allowed, "0x%" PRIx32 " (clamped to %u bits)", want, n);
    return v;
}

stex_status stex_texel_allowed_explain(stex_format f, const stex_vec4 *input,
                                       const uint8_t *bytes, char *why, size_t why_size)
{
    const stex_format_info *fi = stex_format_get(f);
    if (why && why_size)
        why[0] = '\0';
    if (!fi || !stex_encoder(f) || !input || !bytes)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_texel_allowed: format %s is not encodable "
                                                "or an argument is NULL", stex_format_name(f));
    uint32_t k[4];
    raw_codes(fi, bytes, k);
    unsigned nch = fi->packing == STEX_PACKING_BGRA || fi->packing == STEX_PACKING_RGB10A2 ? 4
                                                                                           : fi->channels;
    for (unsigned c = 0; c < nch; c++) {
        unsigned n = fi->bits[c];
        uint32_t u = input->u[c];
        verdict v;
        switch (fi->type) {
        case STEX_CHANNEL_UNORM: v = norm_ok(u, k[c], n, false); break;
        case STEX_CHANNEL_SNORM: v = norm_ok(u, k[c], n, true); break;
        case STEX_CHANNEL_FLOAT: v = n == 32 ? f32_ok(u, k[c]) : small_ok(u, k[c], 10, true); break;
        case STEX_CHANNEL_UFLOAT: v = small_ok(u, k[c], n - 5, false); break;
        default: v = int_ok(fi->type, u, k[c], n); break;
        }
        if (!v.ok) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "%s channel %c: input 0x%08" PRIx32 " (%g) stored code 0x%" PRIx32
                     "; the WebGPU/WGSL conversion allows %s",
                     fi->name, "rgba"[c], u,
                     fi->scalar == STEX_SCALAR_F32 ? (double)input->f[c]
                     : fi->scalar == STEX_SCALAR_I32 ? (double)input->i[c]
                                                     : (double)input->u[c],
                     k[c], v.allowed);
            if (why && why_size)
                snprintf(why, why_size, "%s", msg);
            return stex_fail(STEX_MISMATCH, "%s", msg);
        }
    }
    return STEX_OK;
}

bool stex_texel_allowed(stex_format f, const stex_vec4 *input, const uint8_t *bytes)
{
    return stex_texel_allowed_explain(f, input, bytes, NULL, 0) == STEX_OK;
}
