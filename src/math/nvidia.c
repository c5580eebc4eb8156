/*
 * math/nvidia.c - the NVIDIA GPU's arithmetic units as the nvidia profile
 * models them (division, the special-function unit's exp2, log2, sqrt,
 * inverseSqrt, sin, cos and reciprocal from measured tables, and exp, log,
 * pow, tan, sinh, cosh built from them); nvidia_lib.c builds the driver's
 * library functions from these and holds the profile's table.  Inputs
 * arrive flushed; results are flushed and NaNs canonicalised by the caller
 * (math/f32.c).  How close each model comes is in docs/profiles.md and
 * asserted by tests/math/test_replay.c.
 */
#include "math/nvidia_units.h"
#include "math/ops.h"

#include <pthread.h>
#include <stdlib.h>
#include <zlib.h>

/* flush-to-zero of an f32 result (the caller flushes too; the models need
 * it between steps) */
float stex_nv_ftz(float x)
{
    return m_is_subnormal(x) ? m_float(m_bits(x) & 0x80000000u) : x;
}

/* x / y as x * MUFU.RCP(y) (rcp below: the reciprocal unit's table, flushed),
 * then one multiply rounded to 24 bits and flushed if below 2^-126 (so
 * 0x00800001 / 0x3f800001 = 0x00800000 but 0x00ffffff / 2 = 0).  Measured
 * by tools/nvprobe: `a / b`, `1.0 / a` and `a * (1.0 / b)` on 16,384 rows of
 * every kind (tests/data/nvprobe); a correctly rounded reciprocal instead
 * misses 7% of them, though none of nvidia/wgslexpr.tsv's division rows. */
float stex_nv_div(float x, float y)
{
    double p = (double)x * (double)stex_nv_rcp(y); /* exact */
    if (fabs(p) < 0x1p-126 && fabs(ldexp((double)(float)ldexp(p, 64), -64)) < 0x1p-126)
        return copysignf(0.0f, (float)p);
    return (float)p;
}

/* The special-function unit's exp2, sqrt and inverseSqrt, measured on the
 * H200 for every mantissa (tools/nvsweep, tests/data/nvsweep): each result
 * is the correctly rounded value plus a correction of -2..+1 ulp read from a
 * table of 2^23 entries, 2 bits each (tools/nvsweep/mktables.c wrote them to
 * nvidia_sfu.gz, compiled in by embed.py, inflated on first use: 12 MiB):
 *   exp2: x = sign (n + f), f truncated to 23 fraction bits (k = f 2^23):
 *         2^n exp2(k 2^-23) for x >= 0, 2^-n exp2(-k 2^-23) for x < 0, the
 *         two tables as swept (every f32 of [0.5, 1), [1, 2), [8, 16) agrees)
 *   sqrt, inverseSqrt: by exponent parity and mantissa ([1, 2) and [2, 4)). */
enum { SFU_EXP2_POS, SFU_EXP2_NEG, SFU_SQRT, SFU_RSQ = 4, SFU_TABLES = 6 };
#define SFU_N (1u << 23)

extern const unsigned char stex__nvidia_sfu_gz[];
extern const size_t stex__nvidia_sfu_gz_size;

static uint8_t *sfu; /* "NVSFU1\0\0" and the packed tables; NULL if unreadable */
static pthread_once_t sfu_once = PTHREAD_ONCE_INIT;

static void sfu_load(void)
{
    size_t size = 8 + (size_t)SFU_TABLES * (SFU_N / 4);
    uint8_t *b = malloc(size);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!b || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        free(b);
        return;
    }
    z.next_in = (Bytef *)(uintptr_t)stex__nvidia_sfu_gz;
    z.avail_in = (uInt)stex__nvidia_sfu_gz_size;
    z.next_out = b;
    z.avail_out = (uInt)size;
    int rc = inflate(&z, Z_FINISH);
    inflateEnd(&z);
    if (rc != Z_STREAM_END || z.total_out != size || memcmp(b, "NVSFU1\0\0", 8)) {
        free(b);
        return;
    }
    sfu = b;
}

/* the device's result minus the correctly rounded one, in ulps (0 if the
 * tables could not be inflated) */
static int sfu_corr(int t, uint32_t i)
{
    pthread_once(&sfu_once, sfu_load);
    if (!sfu)
        return 0;
    unsigned c = sfu[8 + (size_t)t * (SFU_N / 4) + (i >> 2)] >> (2 * (i & 3)) & 3u;
    return c == 0 ? 0 : c == 1 ? 1 : c == 2 ? -1 : -2;
}

/* a positive correctly rounded value moved by d ulps */
static float nudge(float v, int d)
{
    return m_float((uint32_t)((int64_t)m_bits(v) + d));
}

float stex_nv_ex2(float x)
{
    x = stex_nv_ftz(x);
    if (!isfinite(x))
        return stex_m_correct1(STEX_MATH_EXP2_F32, x);
    double a = fabs((double)x), n = floor(a);
    uint32_t k = (uint32_t)((a - n) * 0x1p23); /* truncated */
    float fk = (float)((double)k * 0x1p-23);
    if (n > 200)
        n = 200; /* beyond any f32 result: ldexp saturates */
    if (x >= 0.0f)
        return stex_nv_ftz(ldexpf(nudge(stex_m_correct1(STEX_MATH_EXP2_F32, fk),
                                sfu_corr(SFU_EXP2_POS, k)), (int)n));
    return stex_nv_ftz(ldexpf(nudge(stex_m_correct1(STEX_MATH_EXP2_F32, -fk),
                            sfu_corr(SFU_EXP2_NEG, k)), -(int)n));
}

/* sqrt and inverseSqrt of a positive normal x: the table of x's exponent
 * parity at its mantissa */
static float sfu_root(stex_math_fn fn, int t, float x)
{
    x = stex_nv_ftz(x);
    float v = stex_m_correct1(fn, x);
    if (!(x > 0.0f) || !isfinite(x))
        return v;
    uint32_t u = m_bits(x);
    int odd = (int)((u >> 23) - 127u) & 1;
    return nudge(v, sfu_corr(t + odd, u & 0x7fffffu));
}

float stex_nv_sqrt(float x) { return sfu_root(STEX_MATH_SQRT_F32, SFU_SQRT, x); }
float stex_nv_rsqrt(float x) { return sfu_root(STEX_MATH_INVERSESQRT_F32, SFU_RSQ, x); }

/* MUFU.LG2 as measured on the H200 (tools/nvsweep, tests/data/nvsweep):
 * x = 2^e m, m in [1, 2).  The unit gives a value L(m) (x >= 1) or L'(m)
 * (x < 1: a different table; log2(0.5) is -1 + 2^-23) and the result is
 * e + L(m) rounded toward zero to f32.  The sweeps of [2, 4) and [8, 16)
 * are RZ(e + A(m)) for every mantissa with A the result over [1, 2), so
 * RZ(e + A) is exact for e >= 1; likewise RZ(e + 1 + D) for e <= -2, with D
 * the result over [0.5, 1) (its grid divides that of the sum, so the two
 * roundings toward zero compose; not swept beyond [0.5, 1)).  A and D are
 * read from two tables of 2^23 entries: int8 ulps from the correctly
 * rounded value plus a sorted list of exceptions (mkdelta.c wrote them to
 * nvidia_lg2.gz, embedded by embed.py, inflated on first use: 16 MiB). */
extern const unsigned char stex__nvidia_lg2_gz[];
extern const size_t stex__nvidia_lg2_gz_size;

typedef struct dtable {
    const int8_t *delta;  /* [SFU_N] */
    const uint8_t *exc;   /* n pairs (u32 index, u32 bits), little-endian */
    uint32_t n;
} dtable;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* inflates a gzip of magic[8] and ntab tables (mkdelta.c's format) into a
 * new buffer, or NULL */
static uint8_t *dtable_load(const unsigned char *gz, size_t gz_size, const char *magic, int ntab,
                            dtable *out)
{
    size_t cap = 8 + (size_t)ntab * ((size_t)SFU_N + 4 + 8 * (size_t)SFU_N / 64), size;
    uint8_t *b = malloc(cap);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (!b || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        free(b);
        return NULL;
    }
    z.next_in = (Bytef *)(uintptr_t)gz;
    z.avail_in = (uInt)gz_size;
    z.next_out = b;
    z.avail_out = (uInt)cap;
    int rc = inflate(&z, Z_FINISH);
    size = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END || size < 8 || memcmp(b, magic, 8)) {
        free(b);
        return NULL;
    }
    size_t at = 8;
    for (int k = 0; k < ntab; k++) {
        if (size - at < (size_t)SFU_N + 4) {
            free(b);
            return NULL;
        }
        out[k].delta = (const int8_t *)(b + at);
        out[k].n = le32(b + at + SFU_N);
        at += (size_t)SFU_N + 4;
        if ((size - at) / 8 < out[k].n) {
            free(b);
            return NULL;
        }
        out[k].exc = b + at;
        at += 8 * (size_t)out[k].n;
    }
    return b;
}

/* entry i of a table: the reference value cr (positive or negative) moved by
 * the delta in ulps of magnitude, or the exception's bits */
static float dtable_get(const dtable *tab, uint32_t i, float cr)
{
    int d = tab->delta[i];
    if (d != -128) {
        uint32_t u = m_bits(cr);
        return m_float((u & 0x80000000u) | (uint32_t)((int64_t)(u & 0x7fffffffu) + d));
    }
    uint32_t lo = 0, hi = tab->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, at = le32(tab->exc + 8 * (size_t)mid);
        if (at == i)
            return m_float(le32(tab->exc + 8 * (size_t)mid + 4));
        if (at < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return cr;
}

static uint8_t *lg2_buf;
static dtable lg2_tab[2]; /* 0: [1, 2), 1: [0.5, 1) */
static pthread_once_t lg2_once = PTHREAD_ONCE_INIT;

static void lg2_load(void)
{
    lg2_buf = dtable_load(stex__nvidia_lg2_gz, stex__nvidia_lg2_gz_size, "NVLG2\0\0\0", 2, lg2_tab);
}

/* the device's log2 of 2^-t m (t = 0, 1; mantissa bits i) */
static float lg2_table_value(int t, uint32_t i)
{
    float x = m_float((t ? 0x3f000000u : 0x3f800000u) | i);
    float cr = stex_m_correct1(STEX_MATH_LOG2_F32, x);
    pthread_once(&lg2_once, lg2_load);
    return lg2_buf ? dtable_get(&lg2_tab[t], i, cr) : cr;
}

/* a + b rounded toward zero to f32 (a, b doubles holding f32 values or
 * small integers; the sum is exact as s + err) */
float stex_nv_add_rz(double a, double b)
{
    double s = a + b, bp = s - a, ap = s - bp, err = (a - ap) + (b - bp);
    float f = (float)s;
    double mf = fabs((double)f), ms = fabs(s), me = s < 0 ? -err : err;
    if (mf > ms || (mf == ms && me < 0))
        f = nextafterf(f, 0.0f);
    return f;
}

float stex_nv_lg2(float x)
{
    x = stex_nv_ftz(x);
    if (!(x > 0.0f) || !isfinite(x))
        return stex_m_correct1(STEX_MATH_LOG2_F32, x);
    uint32_t u = m_bits(x), i = u & 0x7fffffu;
    int e = (int)(u >> 23) - 127;
    if (e >= 0)
        return e == 0 ? lg2_table_value(0, i) : stex_nv_add_rz((double)e, (double)lg2_table_value(0, i));
    float d = lg2_table_value(1, i);
    return e == -1 ? d : stex_nv_add_rz((double)(e + 1), (double)d);
}

float stex_nv_mul(float a, float b)
{
    return stex_nv_ftz(stex_nv_ftz(a) * stex_nv_ftz(b));
}

float stex_nv_add(float a, float b)
{
    return stex_nv_ftz(stex_nv_ftz(a) + stex_nv_ftz(b));
}

/* MUFU.SIN / MUFU.COS as measured on the H200 (every f32 of [0.5, 8)):
 * t = x * f32(1/(2 pi)) rounded toward zero to f32 (FMUL.RZ), its fraction
 * read as 25-bit fixed point (truncated), q; cos adds a quarter turn (2^23).
 * Quadrant Q = q >> 23 and r = q mod 2^23 index one table of the first
 * quadrant: S[r] in quadrants 0 and 2, S[2^23 - 1 - r] (r's bits
 * complemented) in 1 and 3, negated in 2 and 3.  S (2^23 entries, int8 ulps
 * from the correctly rounded sin of f32(j 2 pi / 2^25) plus exceptions) is in
 * nvidia_sin.gz (tools/nvsweep/mkdelta.c, embedded by embed.py, inflated on
 * first use: 8 MiB, with the reciprocal table below); every swept sin and
 * cos agrees with it.  Negative x:
 * sin odd, cos even (sign and magnitude, as the device's rows show).  An
 * integer number of revolutions (|t| >= 2^23) gives sin 0 and cos 1. */
extern const unsigned char stex__nvidia_sin_gz[];
extern const size_t stex__nvidia_sin_gz_size;

static uint8_t *sin_buf;
static dtable sin_tab[2]; /* 0: S, 1: MUFU.RCP of [1, 2) */
static pthread_once_t sin_once = PTHREAD_ONCE_INIT;

static void sin_load(void)
{
    sin_buf = dtable_load(stex__nvidia_sin_gz, stex__nvidia_sin_gz_size, "NVSIN\0\0\0", 2, sin_tab);
}

static float sin_quadrant(uint32_t j)
{
    float cr = stex_m_correct1(STEX_MATH_SIN_F32, (float)((double)j * (6.283185307179586 / 33554432.0)));
    pthread_once(&sin_once, sin_load);
    return sin_buf ? dtable_get(&sin_tab[0], j, cr) : cr;
}

static float sincos_rev(float x, int cosine)
{
    x = stex_nv_ftz(x);
    if (!isfinite(x))
        return NAN;
    double p = fabs((double)x) * (double)(float)(1.0 / (2.0 * M_PI)); /* exact */
    float t = (float)p;
    if ((double)t > p)
        t = nextafterf(t, 0.0f);
    uint32_t q = (uint32_t)ldexp((double)t - floor((double)t), 25);
    if (cosine)
        q = (q + SFU_N) & (4 * SFU_N - 1);
    uint32_t Q = q >> 23, r = q & (SFU_N - 1);
    float v = sin_quadrant(Q & 1 ? SFU_N - 1 - r : r);
    if (Q >= 2)
        v = -v;
    if (!cosine && signbit(x)) /* sin(-0) = -0, also for a flushed -subnormal (measured) */
        v = -v;
    return stex_nv_ftz(v);
}

float stex_nv_sin(float x) { return sincos_rev(x, 0); }
float stex_nv_cos(float x) { return sincos_rev(x, 1); }

/* MUFU.RCP as measured on the H200 (every f32 of [1, 2), the sweep of
 * `1.0 / x`; 13 % of the mantissas 1 ulp from the correctly rounded value):
 * y = +-2^e m, the table's 1/m scaled by 2^-e, flushed below 2^-126.  The
 * table is nvidia_sin.gz's second. */
float stex_nv_rcp(float y)
{
    y = stex_nv_ftz(y);
    if (y == 0.0f || !isfinite(y))
        return 1.0f / y;
    uint32_t u = m_bits(y), i = u & 0x7fffffu;
    int e = (int)((u >> 23) & 0xffu) - 127;
    float m = m_float(0x3f800000u | i), cr = 1.0f / m;
    pthread_once(&sin_once, sin_load);
    double r = ldexp((double)(sin_buf ? dtable_get(&sin_tab[1], i, cr) : cr), -e);
    if (r < 0x1p-126)
        r = 0.0;
    return (float)((u >> 31) ? -r : r);
}

/* tan as sin(x) * MUFU.RCP(cos(x)) (every row of the device's file) */
float stex_nv_tan(float x) { return stex_nv_mul(stex_nv_sin(x), stex_nv_rcp(stex_nv_cos(x))); }

/* exp, log, pow, sinh, cosh through exp2/log2, as GLSL.std.450 compilers
 * expand them: exp(x) = stex_nv_ex2(x * log2 e), log(x) = stex_nv_lg2(x) * ln 2,
 * pow(x, y) = stex_nv_ex2(stex_nv_lg2(x) * y), sinh/cosh = (e^x -+ e^-x) * 0.5 */
float stex_nv_exp(float x) { return stex_nv_ex2(stex_nv_mul(x, (float)M_LOG2E)); }
float stex_nv_log(float x) { return stex_nv_mul(stex_nv_lg2(x), (float)M_LN2); }
float stex_nv_pow(float x, float y) { return stex_nv_ex2(stex_nv_mul(stex_nv_lg2(x), y)); }
float stex_nv_sinh(float x) { return stex_nv_mul(stex_nv_add(stex_nv_exp(x), -stex_nv_exp(-x)), 0.5f); }
float stex_nv_cosh(float x) { return stex_nv_mul(stex_nv_add(stex_nv_exp(x), stex_nv_exp(-x)), 0.5f); }

/* The three tables inflated at once (~0.4 s the first time in a process),
 * before a pipeline's first dispatch rather than inside it. */
void stex_nv_prepare(void)
{
    pthread_once(&sfu_once, sfu_load);
    pthread_once(&lg2_once, lg2_load);
    pthread_once(&sin_once, sin_load);
}

unsigned stex_nv_loaded(void)
{
    return (sfu != NULL) + (lg2_buf != NULL) + (sin_buf != NULL);
}
