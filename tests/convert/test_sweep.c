/* Sweeps of the scalar conversions against independent references.
 *
 *   f32 -> f16          every profile's rule vs a double-arithmetic model;
 *                       spec vs F16C vcvtps2ph (round to nearest) and
 *                       lavapipe vs vcvtps2ph (round toward zero), where the
 *                       CPU has F16C
 *   f32 -> unorm/snorm  2, 8, 10, 16 bits, every profile's rounding vs exact
 *                       arithmetic in double (the product x*S is exact there)
 *                       or, for NVIDIA, the rational form of its rule:
 *                       q = round-half-down(floor(|x| 2^(m+4)) * S / 2^(m+4))
 *   f32 -> unorm/snorm  8 and 16 bits through each profile's store rules and
 *                       its pack4x8snorm (NaN, -1 and rounding together)
 *   f32 -> ufloat11/10  every profile's rule vs the double model
 *   f16 -> f32          all 65536 patterns vs ldexp and F16C vcvtph2ps
 *   unorm/snorm -> f32  all 8- and 16-bit codes, every profile: correct
 *                       rounding checked by comparing with both f32
 *                       neighbours, lavapipe's k * f32(1/S) in double
 *
 * `--exhaustive` runs all 2^32 f32 patterns; without it every 4099th (plus
 * the edges), which takes seconds. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert/profile.h"
#include "convert/scalar.h"
#include "stex/convert.h"

#if STEX_HAVE_F16C_REF
#include "f16c_ref.h"
#endif

static unsigned long long failures;

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            unsigned long long n_;                                                         \
            _Pragma("omp atomic capture") n_ = ++failures;                                 \
            if (n_ <= 20) {                                                                \
                _Pragma("omp critical(print)") { fprintf(stderr, __VA_ARGS__); }          \
            }                                                                              \
        }                                                                                  \
    } while (0)

static float fb(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- reference models (double arithmetic, written apart from scalar.h) ---- */

/* f32 -> small float (5-bit exponent, mb mantissa bits) in double. */
static uint32_t ref_small(const stex_float_rules *r, float x, unsigned mb, int has_sign)
{
    uint32_t u = bf(x), maxe = 30, inf = 31u << mb, quiet = 1u << (mb - 1);
    uint32_t sign = has_sign && signbit(x) ? 1u << (mb + 5) : 0;
    if (isnan(x)) {
        uint32_t pay = (u & 0x7fffff) >> (23 - mb);
        switch (r->nan) {
        case STEX_FLOAT_NAN_QUIET_PAYLOAD: return sign | inf | quiet | pay;
        case STEX_FLOAT_NAN_KEEP_PAYLOAD: return sign | inf | (pay ? pay : 1);
        case STEX_FLOAT_NAN_CANONICAL_SIGNED: return sign | inf | quiet;
        case STEX_FLOAT_NAN_ALL_ONES: return inf | ((1u << mb) - 1);
        }
    }
    if (!has_sign && signbit(x))
        return 0;
    double a = fabs((double)x);
    if (isinf(a))
        return sign | inf;
    double maxfin = ldexp(2.0 - ldexp(1.0, -(int)mb), 15);
    int e;
    frexp(a, &e);                       /* a in [2^(e-1), 2^e) */
    int qexp = (e - 1 < -14 ? -14 : e - 1) - (int)mb; /* quantum 2^qexp */
    double n = ldexp(a, -qexp);         /* exact: a has 24 bits */
    double k = r->round == STEX_FLOAT_ROUND_EVEN ? nearbyint(n) : trunc(n);
    double v = ldexp(k, qexp);
    if (v > maxfin)
        return sign | (r->overflow == STEX_FLOAT_OVERFLOW_INF ? inf : (maxe << mb) | ((1u << mb) - 1));
    if (v < ldexp(1.0, -14)) {          /* subnormal or zero: v = k' * 2^(-14-mb) */
        if (r->subnormal == STEX_FLOAT_SUBNORMAL_FLUSH)
            return sign;
        return sign | (uint32_t)ldexp(v, 14 + (int)mb);
    }
    int ve;
    double fr = frexp(v, &ve);          /* v = fr * 2^ve, fr in [0.5, 1) */
    uint32_t man = (uint32_t)ldexp(fr * 2.0 - 1.0, (int)mb);
    return sign | ((uint32_t)(ve - 1 + 15) << mb) | man;
}

/* f32 -> m-bit magnitude code for 0 < a < 1, by rounding mode. */
static double ref_mag(stex_norm_round round, double a, unsigned m, int neg)
{
    double S = ldexp(1.0, (int)m) - 1.0;
    switch (round) {
    case STEX_NORM_ROUND_EXACT_EVEN: return nearbyint(a * S);
    case STEX_NORM_ROUND_EXACT_HALF_UP: return neg ? ceil(a * S - 0.5) : floor(a * S + 0.5);
    case STEX_NORM_ROUND_F32_EVEN: return nearbyintf((float)(a * S));
    case STEX_NORM_ROUND_FIXED4_HALF_DOWN: {
        double Y = floor(ldexp(a, (int)m + 4));
        return ceil(ldexp(Y * S, -(int)m - 4) - 0.5); /* ties go down */
    }
    }
    return -1;
}

static int32_t ref_norm(const stex_norm_rules *r, float x, unsigned n, int is_snorm)
{
    unsigned m = is_snorm ? n - 1 : n;
    int32_t S = (int32_t)((1u << m) - 1);
    int32_t lo = r->snorm_min == STEX_SNORM_MIN_FULL ? -S - 1 : -S;
    if (isnan(x)) {
        if (r->nan_unorm == STEX_NORM_NAN_MAX && !is_snorm)
            return S;
        if (!is_snorm)
            return 0;
        return r->nan_snorm == STEX_NORM_NAN_MAX ? S : r->nan_snorm == STEX_NORM_NAN_MIN ? lo : 0;
    }
    double c = is_snorm ? fmax(-1.0, fmin(1.0, x)) : fmax(0.0, fmin(1.0, x));
    if (c == 1.0)
        return S;
    if (c == -1.0)
        return lo;
    if (c == 0.0)
        return 0;
    double q = ref_mag(r->round, fabs(c), m, c < 0);
    return (int32_t)(c < 0 ? -q : q);
}

/* ---- the sweeps ---- */

static const stex_norm_round rounds[] = {STEX_NORM_ROUND_EXACT_EVEN, STEX_NORM_ROUND_EXACT_HALF_UP,
                                         STEX_NORM_ROUND_F32_EVEN,
                                         STEX_NORM_ROUND_FIXED4_HALF_DOWN};

static void sweep_f32(uint64_t stride)
{
    /* the full sweep skips what the strided one already covers cheaply: the
     * 2- and 10-bit widths and the profile-level checks (same functions,
     * rules covered by the generic rounding loop) */
    int full = stride == 1;
    const stex_profile *prof[STEX_PROFILE_COUNT];
    for (int i = 0; i < STEX_PROFILE_COUNT; i++)
        prof[i] = stex_profile_get((stex_profile_id)i);
#if STEX_HAVE_F16C_REF
    int have_f16c = f16c_supported();
    if (!have_f16c)
        printf("sweep: this CPU lacks F16C; the software reference alone is used\n");
    const char *bad = have_f16c ? f16c_self_check() : NULL;
    if (bad) {
        printf("FAIL: the F16C reference gives a wrong IEEE result for %s\n", bad);
        failures++;
    }
#endif
    unsigned long long count = 0;
    /* the stride visits every exponent and sign; the edges are added below */
    int64_t total = (int64_t)((UINT64_C(1) << 32) / stride) + 1;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : count)
    for (int64_t i = 0; i < total + 64; i++) {
        uint32_t u;
        if (i < total)
            u = (uint32_t)((uint64_t)i * stride);
        else /* a few hand-picked edges the stride may miss */
            u = (uint32_t[]){0x3f000000, 0x3f800000, 0x3f7fffff, 0x477fefff, 0x477ff000,
                             0x477ff001, 0x33000000, 0x33000001, 0x387fe000, 0x387ff000,
                             0x3c20a0a1, 0x3b808081, 0x37800080, 0x477fe000, 0x7f800001,
                             0xff800001, 0x7fc00000, 0x7f800000, 0xff800000, 0x80000000,
                             0x00000001, 0x80000001, 0x3effffff, 0x3f000001, 0xbf000000,
                             0x3e800000, 0x47800000, 0x477c0000, 0x3a800000, 0x3a7fffff,
                             0x3c010204, 0x477fffff}[(i - total) % 32];
        float x = fb(u);
        count++;
        if (full && (u & 0x0fffffff) == 0 && i < total) {
#pragma omp critical(print)
            {
                printf("sweep: at %08x\n", u);
                fflush(stdout);
            }
        }
        for (int pi = 0; pi < STEX_PROFILE_COUNT; pi++) {
            const stex_profile *p = prof[pi];
            const char *pn = stex_profile_name((stex_profile_id)pi);
            uint32_t h = stex_f32_to_f16(p, x), want = ref_small(&p->store_f16, x, 10, 1);
            CHECK(h == want, "[%s] f32->f16 %08x: expected %04x (double model), got %04x\n", pn, u,
                  want, h);
            /* the profile's own store and pack rules, NaN and -1 included */
            for (unsigned n = 8; !full && n <= 16; n += 8) {
                int32_t gu = (int32_t)stex_f32_to_unorm(p, x, n);
                int32_t wu = ref_norm(&p->store_norm, x, n, 0);
                int32_t gs = stex_f32_to_snorm(p, x, n), ws = ref_norm(&p->store_norm, x, n, 1);
                CHECK(gu == wu && gs == ws,
                      "[%s] store %08x: unorm%u expected %d got %d, snorm%u expected %d got %d\n",
                      pn, u, n, wu, gu, n, ws, gs);
            }
            if (!full) {
                float pv[4] = {x, x, x, x};
                uint32_t pk = stex_pack4x8snorm(p, pv);
                uint32_t pw = ((uint32_t)ref_norm(&p->pack_norm, x, 8, 1) & 0xff) * 0x01010101u;
                CHECK(pk == pw, "[%s] pack4x8snorm %08x: expected %08x, got %08x\n", pn, u, pw, pk);
            }
            for (unsigned mb = 5; mb <= 6; mb++) {
                uint32_t g = stex_float_to_small(&p->store_ufloat, u, mb, false);
                uint32_t w = ref_small(&p->store_ufloat, x, mb, 0);
                CHECK(g == w, "[%s] f32->ufloat%u %08x: expected %03x, got %03x\n", pn, mb + 5, u,
                      w, g);
            }
        }
        for (size_t ri = 0; ri < sizeof rounds / sizeof *rounds; ri++) {
            stex_norm_rules r = {rounds[ri], STEX_NORM_NAN_ZERO, STEX_NORM_NAN_ZERO,
                                 STEX_SNORM_MIN_SYMMETRIC};
            static const unsigned widths[] = {2, 8, 10, 16};
            for (unsigned wi = 0; wi < 4; wi++) {
                unsigned n = widths[wi];
                if (full && (n == 2 || n == 10))
                    continue;
                int32_t gu = (int32_t)stex_norm_to_unorm(&r, x, n), wu = ref_norm(&r, x, n, 0);
                CHECK(gu == wu, "[round %d] f32->unorm%u %08x (%.9g): expected %d, got %d\n",
                      (int)rounds[ri], n, u, (double)x, wu, gu);
                if (n >= 8) {
                    int32_t gs = stex_norm_to_snorm(&r, x, n), ws = ref_norm(&r, x, n, 1);
                    CHECK(gs == ws, "[round %d] f32->snorm%u %08x (%.9g): expected %d, got %d\n",
                          (int)rounds[ri], n, u, (double)x, ws, gs);
                }
            }
        }
#if STEX_HAVE_F16C_REF
        if (have_f16c) {
            uint16_t hs = stex_f32_to_f16(prof[STEX_PROFILE_SPEC], x), hc = f16c_from_f32_rne(x);
            CHECK(hs == hc, "[spec] f32->f16 %08x: F16C RNE gives %04x, stex %04x\n", u, hc, hs);
            uint16_t hl = stex_f32_to_f16(prof[STEX_PROFILE_LAVAPIPE], x), hz = f16c_from_f32_rtz(x);
            CHECK(hl == hz, "[lavapipe] f32->f16 %08x: F16C RTZ gives %04x, stex %04x\n", u, hz, hl);
        }
#endif
    }
    printf("sweep: %llu f32 patterns (stride %llu), 3 profiles x (f16, ufloat11, ufloat10) + "
           "4 roundings x (unorm %s, snorm %s)%s\n", count, (unsigned long long)stride,
           full ? "8/16" : "2/8/10/16", full ? "8/16" : "8/10/16",
           full ? "" : " + each profile's store/pack norm rules");
}

/* Is f the f32 nearest to k / S?  Both neighbours must be farther (exact in double). */
static int correctly_rounded(float f, int32_t k, double S)
{
    double err = fabs((double)f * S - k);
    double up = fabs((double)nextafterf(f, INFINITY) * S - k);
    double dn = fabs((double)nextafterf(f, -INFINITY) * S - k);
    return err < up && err < dn;
}

static void sweep_decodes(void)
{
    for (int pi = 0; pi < STEX_PROFILE_COUNT; pi++) {
        const stex_profile *p = stex_profile_get((stex_profile_id)pi);
        const char *pn = stex_profile_name((stex_profile_id)pi);
        /* f16 -> f32: all 65536 */
        for (uint32_t h = 0; h < 65536; h++) {
            uint32_t got = bf(stex_f16_to_f32(p, (uint16_t)h));
            uint32_t e = (h >> 10) & 31, m = h & 0x3ff, s = (h >> 15) << 31, want;
            if (e == 31 && m)
                want = s | 0x7f800000 | m << 13 | (p->load_f16_nan == STEX_NAN_DECODE_QUIET ? 0x400000 : 0);
            else if (e == 31)
                want = s | 0x7f800000;
            else
                want = bf((float)(ldexp(e ? 1024 + m : m, (e ? (int)e : 1) - 25) * (s ? -1 : 1)));
            CHECK(got == want, "[%s] f16->f32 %04x: expected %08x, got %08x\n", pn, h, want, got);
#if STEX_HAVE_F16C_REF
            if (pi == STEX_PROFILE_SPEC && f16c_supported()) {
                uint32_t c = bf(f16c_to_f32((uint16_t)h));
                CHECK(got == c, "[spec] f16->f32 %04x: F16C gives %08x, stex %08x\n", h, c, got);
            }
#endif
        }
        /* unorm/snorm 8 and 16 bits: every code */
        for (unsigned n = 8; n <= 16; n += 8) {
            double Su = ldexp(1.0, (int)n) - 1, Ss = ldexp(1.0, (int)n - 1) - 1;
            for (int32_t k = 0; k <= (int32_t)Su; k++) {
                float f = stex_unorm_to_f32(p, (uint32_t)k, n);
                if (p->load_norm == STEX_NORM_DECODE_EXACT)
                    CHECK(correctly_rounded(f, k, Su),
                          "[%s] unorm%u %d -> %.9g is not the nearest f32 to k/S\n", pn, n, k,
                          (double)f);
                else
                    CHECK(f == (float)((double)k * (double)(1.0f / (float)Su)),
                          "[%s] unorm%u %d -> %.9g, not f32(k * f32(1/S))\n", pn, n, k, (double)f);
            }
            for (int32_t k = -(int32_t)Ss - 1; k <= (int32_t)Ss; k++) {
                float f = stex_snorm_to_f32(p, k, n);
                if (k <= -(int32_t)Ss)
                    CHECK(f == -1.0f, "[%s] snorm%u %d -> %.9g, expected -1\n", pn, n, k, (double)f);
                else if (p->load_norm == STEX_NORM_DECODE_EXACT)
                    CHECK(correctly_rounded(f, k, Ss),
                          "[%s] snorm%u %d -> %.9g is not the nearest f32 to k/S\n", pn, n, k,
                          (double)f);
                else
                    CHECK(f == (float)((double)k * (double)(1.0f / (float)Ss)),
                          "[%s] snorm%u %d -> %.9g, not f32(k * f32(1/S))\n", pn, n, k, (double)f);
            }
        }
    }
    printf("sweep: all 65536 f16 and every 8/16-bit unorm/snorm code decoded in 3 profiles\n");
}

int main(int argc, char **argv)
{
    int exhaustive = argc > 1 && !strcmp(argv[1], "--exhaustive");
    fesetround(FE_TONEAREST);
    sweep_decodes();
    sweep_f32(exhaustive ? 1 : 4099);
    printf("%llu failures\n", failures);
    return failures ? 1 : 0;
}
