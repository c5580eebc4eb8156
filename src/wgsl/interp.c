/* The interpreter: sub-groups of `width` lanes run the bytecode in lock
 * step, phase by phase (dispatch/phase.h).  Lanes are consecutive local
 * invocation indices; within a phase the sub-groups run in the order their
 * lanes first appear in phase_order (so width 1 follows the schedule
 * exactly), and each builtin handles its lanes in lane order.  Under the
 * interleaved schedule (phase_interleave) a workgroup runs in sub-groups of
 * a seeded width instead - its `width` when the program uses subgroup
 * operations - that take turns in a seeded order every 1 to 4 memory
 * accesses (run_interleaved), so races inside a workgroup show.
 *
 * Speed (docs/engine.md, "The WGSL interpreter's speed"): the default
 * sub-group is a whole 64-invocation workgroup, so one dispatch serves 64
 * lanes; the program arrives shortened by wg_optimize (opt.c), with its
 * literals in constant registers that fill_consts writes once per
 * workgroup; the loops over lanes are plain loops the compiler vectorises
 * (the profile's choice, IEEE or not, is read once per run); textures go
 * through the lane builtins' word forms, straight from and into the
 * registers. */
#include "wgsl/interp.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "convert/unorm8_row.h"
#include "dispatch/phase.h"
#include "shader/exec.h"
#include "shader/lanes.h"
#include "wgsl/executor.h"

#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
#include <emmintrin.h>
#endif

typedef struct subgroup {
    uint32_t pc;
    uint64_t exec;
    uint64_t all;        /* the lanes this sub-group has */
    uint32_t n;          /* lanes */
    uint32_t stride;     /* words between two registers: the sub-group width */
    uint32_t count;      /* the workgroup's sub-groups */
    uint32_t lid[64];
    uint32_t *r;         /* registers: r[reg * 64 + lane] */
    uint64_t *slot;
    uint64_t steps;
    uint32_t budget;     /* interleaved: memory accesses left before it yields */
    bool done;
} subgroup;

#define R(sg, reg) ((sg)->r + (size_t)(reg) * (sg)->stride)

static float as_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* off(a): a register's per-lane word offsets, or 0 */
static inline uint32_t off_of(const subgroup *sg, uint32_t reg, uint32_t lane)
{
    return reg == WG_NONE_REG ? 0 : R(sg, reg)[lane];
}

static inline uint32_t offs_k(const wg_program *p, const wg_ins *i, uint32_t k)
{
    return i->offs == WG_NO_OFFS ? k : p->pool[i->offs + k];
}

/* The word index of memory op i for lane l and word k; UINT64_MAX: none. */
static inline uint64_t word_at(const wg_program *p, const subgroup *sg, const wg_ins *i,
                               uint32_t l, uint32_t k)
{
    uint32_t o = off_of(sg, i->a, l);
    if (o == WG_NONE)
        return UINT64_MAX;
    return (uint64_t)o + i->e + offs_k(p, i, k);
}

static bool cmp_f32(const stex_profile *prof, int cmp, uint32_t a, uint32_t b)
{
    uint32_t in[2], lt_ab, lt_ba, eq;
    in[0] = a, in[1] = b;
    stex_math_eval(prof, STEX_MATH_LT_F32, in, &lt_ab);
    stex_math_eval(prof, STEX_MATH_EQ_F32, in, &eq);
    in[0] = b, in[1] = a;
    stex_math_eval(prof, STEX_MATH_LT_F32, in, &lt_ba);
    switch (cmp) {
    case CMP_LT: return lt_ab;
    case CMP_LE: return lt_ab || eq;
    case CMP_GT: return lt_ba;
    case CMP_GE: return lt_ba || eq;
    case CMP_EQ: return eq;
    default: return !eq;
    }
}

static uint32_t ncoords_of(uint32_t dim)
{
    return dim == STEX_VIEW_DIMENSION_1D ? 1 : dim == STEX_VIEW_DIMENSION_3D ? 3 : 2;
}

/* one coordinate of every lane: signed (i32) or unsigned (u32) */
static inline void coord(const subgroup *sg, uint32_t reg, bool is_signed, int64_t *out)
{
    const uint32_t *c = R(sg, reg);
    if (is_signed)
        for (uint32_t l = 0; l < sg->n; l++)
            out[l] = (int64_t)(int32_t)c[l];
    else
        for (uint32_t l = 0; l < sg->n; l++)
            out[l] = (int64_t)c[l];
}

static void coords(const subgroup *sg, const wg_ins *i, int64_t *x, int64_t *y, int64_t *z,
                   int64_t *lv)
{
    bool sc = i->n & 1, sl = i->n & 2;
    uint32_t nc = i->sub == STEX_VIEW_DIMENSION_1D ? 1 : i->sub == STEX_VIEW_DIMENSION_3D ? 3 : 2;
    coord(sg, i->a, sc, x);
    if (nc > 1)
        coord(sg, i->a + 1, sc, y);
    else
        memset(y, 0, sg->n * sizeof *y);
    if (i->b != WG_NONE_REG) /* array layer */
        coord(sg, i->b, sl, z);
    else if (nc > 2)
        coord(sg, i->a + 2, sc, z);
    else
        memset(z, 0, sg->n * sizeof *z);
    if (lv && i->c != WG_NONE_REG)
        coord(sg, i->c, sl, lv);
}

static inline int32_t s32(uint32_t u) { return (int32_t)u; }

/* registers d..d+count = a..a+count, every lane (memmove's order when they
 * overlap; registers are whole strides, so the words move as one run) */
static inline void copy_regs(const subgroup *sg, uint32_t d, uint32_t a, uint32_t count)
{
    uint32_t *dst = R(sg, d);
    const uint32_t *src = R(sg, a);
    size_t words = (size_t)count * sg->stride;
    if (words >= 64 && (dst + words <= src || src + words <= dst)) {
        memcpy(dst, src, words * sizeof *dst); /* whole 64-lane registers: the library's copy */
    } else if (dst + words <= src || src + words <= dst) {
        for (size_t k = 0; k < words; k++)
            dst[k] = src[k];
    } else {
        memmove(dst, src, words * sizeof *dst);
    }
}

/* bit l: lane l's word is not zero (a condition register), lanes < n */
static inline uint64_t lane_mask(const uint32_t *a, uint32_t n)
{
    uint64_t c = 0;
    uint32_t l = 0;
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
    const __m128i zero = _mm_setzero_si128();
    for (; l + 4 <= n; l += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(a + l));
        unsigned z = (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero)));
        c |= (uint64_t)(~z & 15u) << l;
    }
#endif
    for (; l < n; l++)
        c |= (uint64_t)(a[l] != 0) << l;
    return c;
}

/* n lanes of one comparison, the comparison chosen once */
#define CMP_LANES(T, conv)                                                          \
    do {                                                                            \
        uint32_t l;                                                                 \
        switch (cmp) {                                                              \
        case CMP_LT: for (l = 0; l < n; l++) d[l] = conv(a[l]) < conv(b[l]); break;  \
        case CMP_LE: for (l = 0; l < n; l++) d[l] = conv(a[l]) <= conv(b[l]); break; \
        case CMP_GT: for (l = 0; l < n; l++) d[l] = conv(a[l]) > conv(b[l]); break;  \
        case CMP_GE: for (l = 0; l < n; l++) d[l] = conv(a[l]) >= conv(b[l]); break; \
        case CMP_EQ: for (l = 0; l < n; l++) d[l] = conv(a[l]) == conv(b[l]); break; \
        default: for (l = 0; l < n; l++) d[l] = conv(a[l]) != conv(b[l]); break;     \
        }                                                                           \
    } while (0)
#define AS_U32(x) (x)
static void cmp_f32_ieee(int cmp, uint32_t n, uint32_t *restrict d, const uint32_t *a,
                         const uint32_t *b)
{
    CMP_LANES(float, as_f);
}
static void cmp_i32(int cmp, uint32_t n, uint32_t *restrict d, const uint32_t *a,
                    const uint32_t *b)
{
    CMP_LANES(int32_t, s32);
}
static void cmp_u32(int cmp, uint32_t n, uint32_t *restrict d, const uint32_t *a,
                    const uint32_t *b)
{
    CMP_LANES(uint32_t, AS_U32);
}
#undef CMP_LANES
#undef AS_U32

/* clamp(a, b, c) = min(max(a, b), c) of i32 (sign) or u32 lanes, four at a
 * time where SSE2 is there (it has no 32-bit min or max: a compare and a
 * blend, u32 compared with the sign bit flipped); returns the lanes done. */
static inline uint32_t clamp_sse2(bool sign, uint32_t n, uint32_t *d, const uint32_t *a,
                                  const uint32_t *b, const uint32_t *c)
{
    uint32_t l = 0;
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
    const __m128i flip = _mm_set1_epi32(sign ? 0 : (int)0x80000000u);
    for (; l + 4 <= n; l += 4) {
        __m128i va = _mm_loadu_si128((const __m128i *)(const void *)(a + l));
        __m128i vb = _mm_loadu_si128((const __m128i *)(const void *)(b + l));
        __m128i vc = _mm_loadu_si128((const __m128i *)(const void *)(c + l));
        __m128i gt = _mm_cmpgt_epi32(_mm_xor_si128(va, flip), _mm_xor_si128(vb, flip));
        __m128i m = _mm_or_si128(_mm_and_si128(gt, va), _mm_andnot_si128(gt, vb));
        __m128i lt = _mm_cmpgt_epi32(_mm_xor_si128(vc, flip), _mm_xor_si128(m, flip));
        __m128i r = _mm_or_si128(_mm_and_si128(lt, m), _mm_andnot_si128(lt, vc));
        _mm_storeu_si128((__m128i *)(void *)(d + l), r);
    }
#else
    (void)sign, (void)d, (void)a, (void)b, (void)c, (void)n;
#endif
    return l;
}

/* f32 + - * / and a * b + c (unfused) of an IEEE profile on the host's
 * operators, every lane at once.  A NaN result is computed again by the
 * math layer: the host's choice among NaN operands, and the NaN it
 * invents (x86: 0xffc00000), are not the profile's, and the compiler may
 * swap a commutative operation's operands.  NaNs are rare, so the lanes
 * only note whether one appeared. */
STEX__ALWAYS_INLINE bool f32_lanes(const stex_profile *prof, stex_math_fn fn, uint32_t n,
                                   uint32_t *d, const uint32_t *a, const uint32_t *b,
                                   const uint32_t *c)
{
    uint32_t tmp[64], l;
    bool three = fn == STEX_MATH_MUL_ADD_F32 || fn == STEX_MATH_ADD_MUL_F32 ||
                 fn == STEX_MATH_MUL_ADD_LET_F32;
    /* where d is an operand too, the operands must outlive the lanes */
    uint32_t *o = d == a || d == b || (three && d == c) ? tmp : d;
    uint32_t nan = 0;
#define F32_LANES(expr)                                                                          \
    for (l = 0; l < n; l++) {                                                                    \
        float r_ = (expr);                                                                       \
        o[l] = f_bits(r_);                                                                       \
        nan |= r_ != r_;                                                                         \
    }                                                                                            \
    break
    switch (fn) {
    case STEX_MATH_ADD_F32: F32_LANES(as_f(a[l]) + as_f(b[l]));
    case STEX_MATH_SUB_F32: F32_LANES(as_f(a[l]) - as_f(b[l]));
    case STEX_MATH_MUL_F32: F32_LANES(as_f(a[l]) * as_f(b[l]));
    case STEX_MATH_DIV_F32: F32_LANES(as_f(a[l]) / as_f(b[l]));
    default:
        /* a * b + c, a candidate for contraction: an IEEE profile does not
         * contract (stex_m_mul_add: the product rounded to f32, then the
         * sum); two statements, and the build's -ffp-contract=off keeps the
         * compiler from fusing them */
        for (l = 0; l < n; l++) {
            float prod = as_f(a[l]) * as_f(b[l]);
            float r_ = prod + as_f(c[l]);
            o[l] = f_bits(r_);
            nan |= r_ != r_;
        }
        break;
    }
#undef F32_LANES
    if (nan)
        for (l = 0; l < n; l++)
            if ((o[l] & 0x7fffffffu) > 0x7f800000u) {
                uint32_t in[3] = {a[l], b[l], three ? c[l] : 0};
                stex_math_eval(prof, fn, in, &o[l]);
            }
    if (o != d)
        for (l = 0; l < n; l++) /* inline: a call costs more than 64 words */
            d[l] = o[l];
    return true;
}

/* The math layer's operations that have no profile choice (integer
 * arithmetic wraps; integer conversions to f32 round to nearest even), and
 * f32 + - * / (and a * b + c, unfused) when the profile's are the host's IEEE operators
 * (stex_math_f32_is_ieee): computed here for every lane, without a call per
 * lane.  The same bits as stex_math_eval; false for anything else. */
STEX__ALWAYS_INLINE bool fast_math(const stex_profile *prof, stex_math_fn fn, bool ieee,
                                   uint32_t n, uint32_t *d, const uint32_t *a, const uint32_t *b,
                                   const uint32_t *c)
{
    uint32_t l;
    switch (fn) {
#define LANES(expr) for (l = 0; l < n; l++) { d[l] = (expr); } return true
    case STEX_MATH_ADD_I32: case STEX_MATH_ADD_U32: LANES(a[l] + b[l]);
    case STEX_MATH_SUB_I32: case STEX_MATH_SUB_U32: LANES(a[l] - b[l]);
    case STEX_MATH_MUL_I32: case STEX_MATH_MUL_U32: LANES(a[l] * b[l]);
    case STEX_MATH_SHL_I32: case STEX_MATH_SHL_U32: LANES(a[l] << (b[l] & 31));
    case STEX_MATH_SHR_U32: LANES(a[l] >> (b[l] & 31));
    case STEX_MATH_SHR_I32: LANES((uint32_t)(s32(a[l]) >> (b[l] & 31)));
    case STEX_MATH_MIN_I32: LANES(s32(a[l]) < s32(b[l]) ? a[l] : b[l]);
    case STEX_MATH_MIN_U32: LANES(a[l] < b[l] ? a[l] : b[l]);
    case STEX_MATH_CLAMP_I32: {
        /* 64 lanes: plain C, which the AVX2 copy vectorises with its own
         * min and max; other counts: SSE2 by hand */
        l = n == 64 ? 0 : clamp_sse2(true, n, d, a, b, c);
        for (; l < n; l++) {
            uint32_t m = s32(a[l]) > s32(b[l]) ? a[l] : b[l];
            d[l] = s32(m) < s32(c[l]) ? m : c[l];
        }
        return true;
    }
    case STEX_MATH_CLAMP_U32: {
        l = n == 64 ? 0 : clamp_sse2(false, n, d, a, b, c);
        for (; l < n; l++) {
            uint32_t m = a[l] > b[l] ? a[l] : b[l];
            d[l] = m < c[l] ? m : c[l];
        }
        return true;
    }
    case STEX_MATH_DIV_U32: LANES(b[l] ? a[l] / b[l] : a[l]);
    case STEX_MATH_REM_U32: LANES(b[l] ? a[l] % b[l] : 0);
    case STEX_MATH_DIV_I32:
        LANES(b[l] == 0 || (a[l] == 0x80000000u && b[l] == 0xffffffffu)
                  ? a[l] : (uint32_t)(s32(a[l]) / s32(b[l])));
    case STEX_MATH_REM_I32:
        LANES(b[l] == 0 || (a[l] == 0x80000000u && b[l] == 0xffffffffu)
                  ? 0 : (uint32_t)(s32(a[l]) % s32(b[l])));
    case STEX_MATH_ABS_I32: LANES(s32(a[l]) < 0 ? 0u - a[l] : a[l]);
    case STEX_MATH_NOT_I32: LANES(~a[l]);
    case STEX_MATH_NEG_I32: LANES(0u - a[l]);
    case STEX_MATH_I32_TO_U32: case STEX_MATH_U32_TO_I32:
    case STEX_MATH_BITCAST_U32_F32: case STEX_MATH_BITCAST_F32_I32: LANES(a[l]);
    case STEX_MATH_I32_TO_F32: LANES(f_bits((float)s32(a[l])));
    case STEX_MATH_U32_TO_F32: LANES(f_bits((float)a[l]));
    case STEX_MATH_ADD_F32: case STEX_MATH_SUB_F32: case STEX_MATH_MUL_F32:
    case STEX_MATH_DIV_F32: case STEX_MATH_MUL_ADD_F32: case STEX_MATH_ADD_MUL_F32:
    case STEX_MATH_MUL_ADD_LET_F32:
        return ieee && f32_lanes(prof, fn, n, d, a, b, c);
#undef LANES
    default:
        return false;
    }
}

/* textureLoad / textureStore without an array layer through the word
 * forms of the lane builtins: coordinates and channels straight from and
 * into the registers (i32 coordinates when bit 0 of n is set, as coords()). */
static void tex_words(const subgroup *sg, const stex_lanes *L, const wg_ins *i)
{
    uint32_t nc = ncoords_of(i->sub);
    const uint32_t *x = R(sg, i->a), *y = nc > 1 ? R(sg, i->a + 1) : NULL;
    const uint32_t *z = nc > 2 ? R(sg, i->a + 2) : NULL;
    bool sc = i->n & 1, sl = i->n & 2;
    if (i->op == OP_TEX_STORE) {
        const uint32_t *const v[4] = {R(sg, i->d), R(sg, i->d + 1), R(sg, i->d + 2),
                                      R(sg, i->d + 3)};
        stex_lanes_textureStore_words(L, i->imm, (stex_view_dimension)i->sub, x, y, z, sc,
                                      (stex_scalar_type)i->c, v);
        return;
    }
    uint32_t *const out[4] = {R(sg, i->d), R(sg, i->d + 1), R(sg, i->d + 2), R(sg, i->d + 3)};
    if (i->op == OP_TEX_LOAD_LEVEL)
        stex_lanes_textureLoad_level_2d_words(L, i->imm, x, y, sc,
                                              i->c != WG_NONE_REG ? R(sg, i->c) : NULL, sl, out);
    else
        stex_lanes_textureLoad_words(L, i->imm, (stex_view_dimension)i->sub, x, y, z, sc, out);
}

/* A memory op on memory holding f16 (sub = 1: offsets in half-words), lane
 * by lane: an f16 leaf (WG_OFF_HALF) moves its 2 bytes, any other leaf the
 * word at half-word / 2.  The word-offset ops above stay the fast path. */
static void mem_halves(const wg_program *p, subgroup *sg, const stex_lanes *L,
                       stex_invocation *inv, const wg_ins *i)
{
    bool wg = i->op == OP_WG_LOAD || i->op == OP_WG_STORE;
    bool load = i->op == OP_WG_LOAD || i->op == OP_BUF_LOAD;
    for (uint32_t l = 0; l < sg->n; l++) {
        if (!(sg->exec >> l & 1))
            continue;
        stex_lanes_enter(L, l);
        uint32_t base = off_of(sg, i->a, l);
        for (uint32_t k = 0; k < i->n; k++) {
            uint32_t o = offs_k(p, i, k);
            uint64_t h = base == WG_NONE ? UINT64_MAX
                                         : (uint64_t)base + i->e + (o & ~WG_OFF_HALF);
            uint64_t w = h == UINT64_MAX ? UINT64_MAX : h / 2;
            uint32_t *d = R(sg, i->d + k) + l;
            uint32_t v = load ? 0 : R(sg, i->b + k)[l];
            if (o & WG_OFF_HALF) {
                if (wg && load)
                    *d = exec_workgroup_load_half(inv, h);
                else if (wg)
                    exec_workgroup_store_half(inv, h, v);
                else if (load)
                    *d = exec_buffer_load_half(inv, i->imm, h);
                else
                    exec_buffer_store_half(inv, i->imm, h, v);
            } else if (wg && load) {
                *d = stex_workgroup_load_u32(inv, w);
            } else if (wg) {
                stex_workgroup_store_u32(inv, w, v);
            } else if (load) {
                *d = stex__buffer_load(inv, i->imm, w);
            } else {
                stex__buffer_store(inv, i->imm, w, v);
            }
        }
    }
}

/* The builtins devices approximate, sin to atan2 in math.def's order: a
 * call of the profile's function costs more than a scan of the lanes. */
static inline bool costly(stex_math_fn fn)
{
    return fn >= STEX_MATH_SIN_F32 && fn <= STEX_MATH_ATAN2_F32;
}

/* Which of math_once_per_value's patterns 64 lanes' words follow: bit 0
 * when every row repeats the first (x alone), bit 1 when every lane repeats
 * its row's first (y alone), bit 2 when every lane repeats the one up and
 * to the right (x + y).  Each row is read as the two halves the vector
 * stores that wrote it (a load across two recent stores waits for both),
 * its shifts done in registers. */
static unsigned patterns(const uint32_t *a)
{
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
    __m128i dx = _mm_setzero_si128(), dy = dx, dd = dx;
    const __m128i low3 = _mm_setr_epi32(-1, -1, -1, 0); /* a row's lanes 4..6 */
    __m128i plo = _mm_loadu_si128((const __m128i *)(const void *)a);
    __m128i phi = _mm_loadu_si128((const __m128i *)(const void *)(a + 4));
    for (uint32_t r = 0; r < 8; r++) {
        __m128i lo = plo, hi = phi;
        if (r) {
            lo = _mm_loadu_si128((const __m128i *)(const void *)(a + 8 * r));
            hi = _mm_loadu_si128((const __m128i *)(const void *)(a + 8 * r + 4));
            dx = _mm_or_si128(dx, _mm_or_si128(_mm_xor_si128(lo, plo), _mm_xor_si128(hi, phi)));
            /* the row above, one lane to the right: its lanes 1..4 and 5..7 */
            __m128i s_lo = _mm_or_si128(_mm_srli_si128(plo, 4), _mm_slli_si128(phi, 12));
            __m128i s_hi = _mm_srli_si128(phi, 4);
            dd = _mm_or_si128(dd, _mm_or_si128(_mm_xor_si128(lo, s_lo),
                                               _mm_and_si128(_mm_xor_si128(hi, s_hi), low3)));
        }
        __m128i first = _mm_shuffle_epi32(lo, 0);
        dy = _mm_or_si128(dy, _mm_or_si128(_mm_xor_si128(lo, first), _mm_xor_si128(hi, first)));
        plo = lo, phi = hi;
    }
    const __m128i zero = _mm_setzero_si128();
    return (unsigned)(_mm_movemask_epi8(_mm_cmpeq_epi32(dx, zero)) == 0xffff) |
           (unsigned)(_mm_movemask_epi8(_mm_cmpeq_epi32(dy, zero)) == 0xffff) << 1 |
           (unsigned)(_mm_movemask_epi8(_mm_cmpeq_epi32(dd, zero)) == 0xffff) << 2;
#else
    uint32_t dx = 0, dy = 0, dd = 0;
    for (uint32_t l = 0; l < 64; l++) {
        uint32_t x = l % 8;
        dy |= a[l] ^ a[l - x];
        if (l >= 8) {
            dx |= a[l] ^ a[l - 8];
            if (x < 7)
                dd |= a[l] ^ a[l - 7];
        }
    }
    return (unsigned)!dx | (unsigned)!dy << 1 | (unsigned)!dd << 2;
#endif
}

/* out = fn(a[, b[, c]]) for n lanes of an f32 -> f32 form with nargs
 * arguments: the math layer's n-lane calls. */
static void call_f32(const stex_profile *prof, stex_math_fn fn, uint32_t nargs, uint32_t n,
                     const float *a, const float *b, const float *c, float *out)
{
    if (nargs == 1)
        stex_math_f32_unary(prof, fn, n, a, out);
    else if (nargs == 2)
        stex_math_f32_binary(prof, fn, n, a, b, out);
    else
        stex_math_f32_ternary(prof, fn, n, a, b, c, out);
}

/* d = fn(a[, b]) (nargs 1 or 2; b == a for one) on 64 lanes, an 8x8
 * workgroup's: when the arguments depend on x alone (every row repeats the
 * first), on y alone (every lane repeats its row's first) or on x + y
 * (every lane repeats the one up and to the right), fn is called for the
 * 8, 8 or 15 lanes that differ and the others take their results
 * (`sin(uv.x * 12.0)`, `sin(uv.y * 12.0)`, `sin((uv.x + uv.y) * 8.0)`).
 * The same bits in give the same bits out in every profile, so every lane
 * gets what a call of its own would give.  False, and nothing written,
 * for any other pattern. */
static bool math_once_per_value(const stex_profile *prof, stex_math_fn fn, uint32_t nargs,
                                const uint32_t *a, const uint32_t *b, uint32_t *d)
{
    float ca[16], cb[16], co[16];
    uint32_t m = 0;
    enum { NONE, BY_X, BY_Y, BY_DIAGONAL } kind = NONE;
    unsigned both = patterns(a) & (b == a ? 7u : patterns(b));
    if (both & 1)
        kind = BY_X;
    else if (both & 2)
        kind = BY_Y;
    else if (both & 4)
        kind = BY_DIAGONAL;
    if (kind == NONE)
        return false;
    /* the lanes computed: row 0 (x, diagonal), column 0 (y), column 7 (diagonal) */
    if (kind != BY_Y)
        for (; m < 8; m++)
            memcpy(&ca[m], &a[m], 4), memcpy(&cb[m], &b[m], 4);
    for (uint32_t r = kind == BY_Y ? 0 : 1; kind != BY_X && r < 8; r++, m++) {
        uint32_t l = 8 * r + (kind == BY_Y ? 0 : 7);
        memcpy(&ca[m], &a[l], 4), memcpy(&cb[m], &b[l], 4);
    }
    call_f32(prof, fn, nargs, m, ca, cb, NULL, co);
    /* straight into d (a or b may be d: every argument was copied out);
     * the diagonal's lane (x, r) has the argument of diagonal x + r,
     * computed as co[x + r] (row 0, then column 7): row r is co[r .. r + 7] */
    for (uint32_t r = 0; r < 8; r++) {
        uint32_t *row = d + 8 * r;
        if (kind == BY_Y)
            for (uint32_t x = 0; x < 8; x++)
                memcpy(&row[x], &co[r], 4);
        else
            memcpy(row, co + (kind == BY_DIAGONAL ? r : 0), 8 * 4);
    }
    return true;
}

/* Two words combined by a reduction or scan: and/or/xor, integer min/max
 * (imm UINT32_MAX), else the math fn the lowering chose under the profile. */
static uint32_t sg_combine(const wg_ins *i, const stex_profile *prof, uint32_t x, uint32_t y)
{
    if (i->sub == WG_SG_AND)
        return x & y;
    if (i->sub == WG_SG_OR)
        return x | y;
    if (i->sub == WG_SG_XOR)
        return x ^ y;
    if (i->imm == UINT32_MAX) { /* e = 1: max */
        bool lt = i->c == TY_I32 ? (int32_t)x < (int32_t)y : x < y;
        return lt != (i->e == 1) ? x : y;
    }
    uint32_t in[2] = {x, y}, out = 0;
    stex_math_eval(prof, (stex_math_fn)i->imm, in, &out);
    return out;
}

/* OP_SUBGROUP: the lanes in exec are the active invocations of the
 * sub-group, in lane order; a reduction combines them first to last. */
static void subgroup_op(const wg_ins *i, const subgroup *sg, const stex_profile *prof,
                        uint32_t *const regs, size_t stride, uint32_t n)
{
#define SR(reg) (regs + (size_t)(reg) * stride)
    const uint64_t m = sg->exec;
    const uint32_t first = m ? (uint32_t)__builtin_ctzll(m) : 0;
    uint32_t *d = SR(i->d);
    switch (i->sub) {
    case WG_SG_LANE:
        for (uint32_t l = 0; l < n; l++)
            d[l] = l;
        return;
    case WG_SG_SIZE:
        for (uint32_t l = 0; l < n; l++)
            d[l] = (uint32_t)sg->stride;
        return;
    case WG_SG_ID: case WG_SG_COUNT:
        for (uint32_t l = 0; l < n; l++)
            d[l] = i->sub == WG_SG_ID ? sg->lid[0] / sg->stride : sg->count;
        return;
    case WG_SG_ELECT:
        for (uint32_t l = 0; l < n; l++)
            d[l] = l == first;
        return;
    case WG_SG_BALLOT: case WG_SG_ALL: case WG_SG_ANY: {
        const uint32_t *a = SR(i->a);
        uint64_t bits = 0;
        for (uint32_t l = 0; l < n; l++)
            if ((m >> l & 1) && a[l])
                bits |= 1ull << l;
        if (i->sub == WG_SG_BALLOT) {
            for (uint32_t l = 0; l < n; l++) {
                SR(i->d)[l] = (uint32_t)bits, SR(i->d + 1)[l] = (uint32_t)(bits >> 32);
                SR(i->d + 2)[l] = SR(i->d + 3)[l] = 0;
            }
        } else {
            uint32_t v = i->sub == WG_SG_ALL ? bits == m : bits != 0;
            for (uint32_t l = 0; l < n; l++)
                d[l] = v;
        }
        return;
    }
    default:
        break;
    }
    for (uint32_t k = 0; k < i->n; k++) {
        const uint32_t *a = SR(i->a + k), *b = i->b == WG_NONE_REG ? NULL : SR(i->b);
        uint32_t *o = SR(i->d + k), tmp[64];
        if (i->sub >= WG_SG_REDUCE && i->sub <= WG_SG_XOR) {
            bool scan = i->sub == WG_SG_INCLUSIVE || i->sub == WG_SG_EXCLUSIVE;
            uint32_t acc = 0;
            bool have = false;
            for (uint32_t l = 0; l < n; l++) {
                if (!(m >> l & 1))
                    continue;
                if (i->sub == WG_SG_EXCLUSIVE)
                    tmp[l] = have ? acc : i->e; /* the identity, from the lowering */
                acc = have ? sg_combine(i, prof, acc, a[l]) : a[l];
                have = true;
                if (i->sub == WG_SG_INCLUSIVE)
                    tmp[l] = acc;
            }
            for (uint32_t l = 0; l < n; l++)
                o[l] = scan ? ((m >> l & 1) ? tmp[l] : 0) : acc;
            continue;
        }
        /* the lane each lane reads; one outside the sub-group reads 0 (WGSL:
         * indeterminate; lavapipe measured: tests/data/difftest/regress/subgroups.wgsl) */
        for (uint32_t l = 0; l < n; l++) {
            uint32_t src = l;
            switch (i->sub) {
            case WG_SG_BROADCAST: case WG_SG_SHUFFLE: src = b[l]; break;
            case WG_SG_BROADCAST_FIRST: src = first; break;
            case WG_SG_SHUFFLE_XOR: src = l ^ b[l]; break;
            case WG_SG_SHUFFLE_UP: src = l - b[l]; break;
            case WG_SG_SHUFFLE_DOWN: src = l + b[l]; break;
            case WG_SG_QUAD_BROADCAST: src = (l & ~3u) + (b[l] & 3u); break;
            case WG_SG_QUAD_SWAP_X: src = l ^ 1u; break;
            case WG_SG_QUAD_SWAP_Y: src = l ^ 2u; break;
            case WG_SG_QUAD_SWAP_DIAGONAL: src = l ^ 3u; break;
            }
            tmp[l] = src < n ? a[src] : 0;
        }
        memcpy(o, tmp, n * sizeof *o);
    }
#undef SR
}

typedef enum stop { STOP_BARRIER, STOP_END, STOP_ERROR, STOP_YIELD } stop;

/* The instructions that access memory another invocation may touch: where
 * the interleaved schedule lets another sub-group run. */
static inline bool is_access(uint8_t op)
{
    return op == OP_BUF_LOAD || op == OP_BUF_STORE || op == OP_WG_LOAD || op == OP_WG_STORE ||
           op == OP_ATOMIC || op == OP_TEX_LOAD || op == OP_TEX_LOAD_LEVEL || op == OP_TEX_STORE;
}

/* Runs sub-group sg from its pc until a barrier, the end, or an error; n
 * is sg->n, a constant where run() expands this for full sub-groups.
 * interleave (a constant too): also stop (STOP_YIELD, resumed at sg->pc)
 * once sg->budget memory accesses have run.  single (a constant): run the
 * one instruction at sg->pc and stop with STOP_YIELD - the JIT's way to
 * run an instruction it does not compile itself (jit.h). */
STEX__ALWAYS_INLINE stop run_lanes(const wg_exec_program *xp, subgroup *sg, stex_invocation *inv,
                                   const stex_profile *prof, uint8_t *kind, const uint32_t n,
                                   const bool interleave, const bool single)
{
    const wg_program *p = &xp->prog;
    const bool ieee = stex_math_f32_is_ieee(prof);
    stex_lanes L = {inv, sg->lid, &sg->exec, n, 0};
    /* the registers' base and stride in locals (a 64-lane sub-group's
     * stride is 64): a register store could otherwise alias sg->stride, a
     * uint32_t too, and force its reload at every instruction */
    uint32_t *const regs = sg->r;
    const size_t stride = n == 64 ? 64 : sg->stride;
#define RR(reg) (regs + (size_t)(reg) * stride)
    /* pc and the step count in locals, stored back at every stop */
    uint32_t pc = sg->pc;
    uint64_t steps = sg->steps;
    /* a loop's end compares the steps with one bound: the step limit, or
     * sooner the next look at the dispatch's cancel flag (stex/cancel.h) */
    const uint64_t every = 1u << 16;
    uint64_t check_at = steps + every < xp->max_steps ? steps + every : xp->max_steps;
#define STOP(s) do { sg->pc = pc; sg->steps = steps; return (s); } while (0)
    for (;;) {
        const wg_ins *i = &p->code[pc++];
        L.site = pc; /* the race report's site: instruction index + 1 (wg_site_name) */
        steps++;
        switch ((wg_opcode)i->op) {
        case OP_CONST: {
            uint32_t *d = RR(i->d);
            for (uint32_t l = 0; l < n; l++)
                d[l] = i->imm;
            break;
        }
        case OP_MOV:
            if (i->d != i->a)
                copy_regs(sg, i->d, i->a, i->n);
            break;
        case OP_MOVM:
            if (sg->exec == sg->all) { /* every lane: whole registers, in the same order */
                if (i->d != i->a)
                    copy_regs(sg, i->d, i->a, i->n);
                break;
            }
            for (uint32_t k = 0; k < i->n; k++) {
                uint32_t *d = RR(i->d + k);
                const uint32_t *a = RR(i->a + k);
                for (uint32_t l = 0; l < n; l++)
                    if (sg->exec >> l & 1)
                        d[l] = a[l];
            }
            break;
        case OP_MATH: {
            uint32_t *d = RR(i->d);
            const uint32_t *a = RR(i->a), *b = RR(i->b), *c = RR(i->c);
            stex_math_fn fn = (stex_math_fn)i->imm;
            if (fast_math(prof, fn, ieee, n, d, a, b, c))
                break;
            if (i->sub && n == 64 && i->n <= 2 && costly(fn) &&
                math_once_per_value(prof, fn, i->n, a, i->n == 2 ? b : a, d))
                break;
            if (i->sub) { /* f32 -> f32 forms: one call for every lane */
                float out[64];
                call_f32(prof, fn, i->n, n, (const float *)(const void *)a,
                         (const float *)(const void *)b, (const float *)(const void *)c, out);
                memcpy(d, out, n * sizeof *d);
            } else {
                for (uint32_t l = 0; l < n; l++) {
                    uint32_t in[3] = {a[l], b[l], c[l]}, o[2];
                    stex_math_eval(prof, fn, in, o);
                    d[l] = o[0];
                }
            }
            break;
        }
        case OP_MATHV: {
            if (i->imm == STEX_MATH_UNPACK4X8UNORM) {
                /* the profile's table of code values (the dispatch's, as the
                 * math layer's stex_unpack4x8unorm): never NaN */
                const uint32_t *a = RR(i->a);
                const float *t = ((const stex_exec_fast *)(const void *)inv->exec)->unpack_u8;
                /* every lane (n <= 64) on SIMD lanes (convert/unorm8_row.h), straight
                 * into the registers - through a copy of the operand if it is among them */
                uint32_t copy[64];
                if (i->a >= i->d && i->a < i->d + 4)
                    a = memcpy(copy, a, n * sizeof *a);
                stex__unorm8_unrow(t, n, a, (float *)(void *)RR(i->d),
                                   (float *)(void *)RR(i->d + 1),
                                   (float *)(void *)RR(i->d + 2),
                                   (float *)(void *)RR(i->d + 3));
                break;
            }
            if (i->imm == STEX_MATH_PACK4X8UNORM) {
                /* the convert layer's rule (stex__fast_invocation_pack4x8unorm)
                 * for every lane at once on SIMD lanes */
                const stex_exec_fast *e = (const stex_exec_fast *)(const void *)inv->exec;
                float f[4][64];
                for (uint32_t k = 0; k < 4; k++)
                    memcpy(f[k], RR(i->a + k), n * sizeof(float));
                stex__unorm8_row(e->pack_u8_round, e->pack_u8_nan, n, f[0], f[1], f[2], f[3],
                                 RR(i->d));
                break;
            }
            const stex_math_fn_info *info = stex_math_fn_get((stex_math_fn)i->imm);
            for (uint32_t l = 0; l < n; l++) {
                uint32_t in[4], o[4];
                for (uint32_t k = 0; k < info->in_words; k++)
                    in[k] = RR(i->a + k)[l];
                stex_math_eval(prof, (stex_math_fn)i->imm, in, o);
                for (uint32_t k = 0; k < info->out_words; k++)
                    RR(i->d + k)[l] = o[k];
            }
            break;
        }
        case OP_CMP: {
            uint32_t *d = RR(i->d);
            const uint32_t *a = RR(i->a), *b = RR(i->b);
            if (i->n == TY_F32 && ieee) {
                /* the math layer's lt / eq are the host's IEEE comparisons once
                 * no input is flushed (an IEEE profile keeps subnormals) */
                cmp_f32_ieee(i->sub, n, d, a, b);
            } else if (i->n == TY_F32) {
                for (uint32_t l = 0; l < n; l++)
                    d[l] = cmp_f32(prof, i->sub, a[l], b[l]);
            } else if (i->n == TY_I32) {
                cmp_i32(i->sub, n, d, a, b);
            } else {
                cmp_u32(i->sub, n, d, a, b);
            }
            break;
        }
        case OP_BITS: {
            uint32_t *d = RR(i->d);
            const uint32_t *a = RR(i->a), *b = RR(i->b);
            uint32_t l;
            switch (i->sub) {
            case BITS_AND: for (l = 0; l < n; l++) d[l] = a[l] & b[l]; break;
            case BITS_OR: for (l = 0; l < n; l++) d[l] = a[l] | b[l]; break;
            case BITS_XOR: for (l = 0; l < n; l++) d[l] = a[l] ^ b[l]; break;
            case BITS_NOT: for (l = 0; l < n; l++) d[l] = ~a[l]; break;
            default: for (l = 0; l < n; l++) d[l] = !a[l]; break;
            }
            break;
        }
        case OP_SELECT: {
            uint32_t *d = RR(i->d);
            const uint32_t *a = RR(i->a), *b = RR(i->b), *c = RR(i->c);
            for (uint32_t l = 0; l < n; l++)
                d[l] = c[l] ? b[l] : a[l];
            break;
        }
        case OP_LOADIDX:
            for (uint32_t l = 0; l < n; l++) {
                uint32_t o = RR(i->b)[l];
                for (uint32_t k = 0; k < i->n; k++)
                    RR(i->d + k)[l] = o == WG_NONE ? 0 : RR(i->a + o + k)[l];
            }
            break;
        case OP_STOREIDX:
            for (uint32_t l = 0; l < n; l++) {
                uint32_t o = RR(i->b)[l];
                if (!(sg->exec >> l & 1) || o == WG_NONE)
                    continue;
                for (uint32_t k = 0; k < i->n; k++)
                    RR(i->d + o + k)[l] = RR(i->a + k)[l];
            }
            break;
        case OP_ADDR:
            if (!i->c && i->a == WG_NONE_REG) { /* runtime-sized from word 0 */
                uint32_t *d = RR(i->d);
                const uint32_t *b = RR(i->b);
                if (i->imm == 1) { /* one word per element: the index, WG_NONE kept */
                    for (uint32_t l = 0; l < n; l++)
                        d[l] = b[l];
                    break;
                }
                for (uint32_t l = 0; l < n; l++) {
                    uint64_t w = (uint64_t)b[l] * i->imm;
                    d[l] = w >= WG_NONE ? WG_NONE : (uint32_t)w;
                }
                break;
            }
            if (!i->c && i->a != WG_NONE_REG) { /* runtime-sized: no bounds rule here */
                uint32_t *d = RR(i->d);
                const uint32_t *a = RR(i->a), *b = RR(i->b);
                for (uint32_t l = 0; l < n; l++) {
                    uint64_t w = (uint64_t)a[l] + (uint64_t)b[l] * i->imm;
                    d[l] = a[l] == WG_NONE || w >= WG_NONE ? WG_NONE : (uint32_t)w;
                }
                break;
            }
            for (uint32_t l = 0; l < n; l++) {
                uint32_t base = off_of(sg, i->a, l), idx = RR(i->b)[l], at = idx;
                if (base == WG_NONE) {
                    RR(i->d)[l] = WG_NONE;
                    continue;
                }
                if (i->c) {
                    stex_oob_action act = stex_math_oob(prof, (stex_array_kind)i->sub, i->c, i->n,
                                                        idx, &at);
                    if (act == STEX_OOB_ZERO) {
                        RR(i->d)[l] = WG_NONE;
                        continue;
                    }
                }
                uint64_t w = (uint64_t)base + (uint64_t)at * i->imm;
                RR(i->d)[l] = w >= WG_NONE ? WG_NONE : (uint32_t)w;
            }
            break;
        case OP_BUF_LOAD: /* word k of each lane: off(a) + e + offs[k] (word_at) */
            if (i->sub) {
                mem_halves(p, sg, &L, inv, i);
                break;
            }
            if (i->c == 1 && i->a == WG_NONE_REG) { /* a uniform's constant words: every lane */
                stex_lanes all = L;
                all.active = &sg->all;
                for (uint32_t k = 0; k < i->n; k++)
                    stex_lanes_buffer_load_words(&all, i->imm, NULL, WG_NONE,
                                                 (uint64_t)i->e + offs_k(p, i, k), RR(i->d + k));
                break;
            }
            for (uint32_t k = 0; k < i->n; k++)
                stex_lanes_buffer_load_words(&L, i->imm, i->a == WG_NONE_REG ? NULL : RR(i->a),
                                             WG_NONE, (uint64_t)i->e + offs_k(p, i, k),
                                             RR(i->d + k));
            break;
        case OP_BUF_STORE:
            if (i->sub) {
                mem_halves(p, sg, &L, inv, i);
                break;
            }
            for (uint32_t k = 0; k < i->n; k++)
                stex_lanes_buffer_store_words(&L, i->imm, i->a == WG_NONE_REG ? NULL : RR(i->a),
                                              WG_NONE, (uint64_t)i->e + offs_k(p, i, k),
                                              RR(i->b + k));
            break;
        case OP_WG_LOAD:
        case OP_WG_STORE:
            if (i->sub) {
                mem_halves(p, sg, &L, inv, i);
                break;
            }
            for (uint32_t l = 0; l < n; l++) {
                if (!(sg->exec >> l & 1))
                    continue;
                stex_lanes_enter(&L, l);
                for (uint32_t k = 0; k < i->n; k++) {
                    uint64_t w = word_at(p, sg, i, l, k);
                    if (i->op == OP_WG_LOAD)
                        RR(i->d + k)[l] = stex_workgroup_load_u32(inv, w);
                    else
                        stex_workgroup_store_u32(inv, w, RR(i->b + k)[l]);
                }
            }
            break;
        case OP_ATOMIC: {
            if (i->n) { /* var<workgroup>: one workgroup runs on one thread */
                for (uint32_t l = 0; l < n; l++) {
                    if (!(sg->exec >> l & 1))
                        continue;
                    stex_lanes_enter(&L, l);
                    uint64_t w = word_at(p, sg, i, l, 0);
                    bool ex;
                    uint32_t c = i->c != WG_NONE_REG ? RR(i->c)[l] : 0;
                    RR(i->d)[l] = exec_workgroup_atomic(inv, (stex_atomic_op)i->sub, w,
                                                           RR(i->b)[l], c, &ex);
                    if (i->sub == STEX_ATOMIC_COMPARE_EXCHANGE)
                        RR(i->d + 1)[l] = ex;
                }
                break;
            }
            uint64_t idx[64];
            uint32_t old[64];
            bool ex[64], cx = i->sub == STEX_ATOMIC_COMPARE_EXCHANGE;
            for (uint32_t l = 0; l < n; l++)
                idx[l] = word_at(p, sg, i, l, 0);
            stex_lanes_atomic(&L, (stex_atomic_op)i->sub, i->imm, idx, RR(i->b),
                              cx ? RR(i->c) : NULL, old, cx ? ex : NULL);
            for (uint32_t l = 0; l < n; l++)
                if (sg->exec >> l & 1) {
                    RR(i->d)[l] = old[l];
                    if (cx)
                        RR(i->d + 1)[l] = ex[l];
                }
            break;
        }
        case OP_TEX_LOAD:
        case OP_TEX_LOAD_LEVEL:
        case OP_TEX_STORE: {
            if (i->b == WG_NONE_REG) { /* no array layer: the word forms */
                tex_words(sg, &L, i);
                break;
            }
            int64_t x[64], y[64], z[64], lv[64];
            coords(sg, i, x, y, z, i->op == OP_TEX_LOAD_LEVEL ? lv : NULL);
            if (i->op == OP_TEX_STORE) {
                stex_value v[64];
                for (uint32_t l = 0; l < n; l++)
                    v[l].type = (stex_scalar_type)i->c;
                for (uint32_t k = 0; k < 4; k++) {
                    const uint32_t *src = RR(i->d + k);
                    for (uint32_t l = 0; l < n; l++)
                        v[l].v.u[k] = src[l];
                }
                stex_lanes_textureStore(&L, i->imm, (stex_view_dimension)i->sub, x, y, z, v);
                break;
            }
            stex_vec4 out4[64];
            if (i->op == OP_TEX_LOAD_LEVEL) {
                stex_lanes_textureLoad_level_2d(&L, i->imm, x, y, lv, out4);
            } else {
                stex_value out[64];
                stex_lanes_textureLoad(&L, i->imm, (stex_view_dimension)i->sub, x, y, z, out);
                for (uint32_t l = 0; l < n; l++)
                    out4[l] = out[l].v;
            }
            if (sg->exec == sg->all) {
                for (uint32_t k = 0; k < 4; k++) {
                    uint32_t *d = RR(i->d + k);
                    for (uint32_t l = 0; l < n; l++)
                        d[l] = out4[l].u[k];
                }
                break;
            }
            for (uint32_t l = 0; l < n; l++)
                if (sg->exec >> l & 1)
                    for (int k = 0; k < 4; k++)
                        RR(i->d + (uint32_t)k)[l] = out4[l].u[k];
            break;
        }
        case OP_TEX_SAMPLE: {
            float u[64], v[64], lv[64];
            stex_vec4 out[64];
            for (uint32_t l = 0; l < n; l++) {
                u[l] = as_f(RR(i->a)[l]);
                v[l] = as_f(RR(i->b)[l]);
                lv[l] = as_f(RR(i->c)[l]);
            }
            stex_lanes_textureSampleLevel_2d(&L, i->imm, i->e, u, v, lv, out);
            for (uint32_t l = 0; l < n; l++)
                if (sg->exec >> l & 1)
                    for (int k = 0; k < 4; k++)
                        RR(i->d + (uint32_t)k)[l] = f_bits(out[l].f[k]);
            break;
        }
        case OP_TEX_DIMS: {
            /* the same for every lane: asked once, through the first lane's invocation */
            stex_lanes_enter(&L, 0);
            uint32_t dims[3] = {0, 0, 0};
            if (i->sub) {
                dims[0] = stex_textureNumLayers(inv, i->imm);
            } else if (i->c == STEX_VIEW_DIMENSION_1D) {
                dims[0] = stex_textureDimensions_1d(inv, i->imm);
            } else if (i->c == STEX_VIEW_DIMENSION_3D) {
                stex_uvec3 v = stex_textureDimensions_3d(inv, i->imm);
                dims[0] = v.x, dims[1] = v.y, dims[2] = v.z;
            } else {
                stex_uvec2 v = stex_textureDimensions_2d(inv, i->imm);
                dims[0] = v.x, dims[1] = v.y;
            }
            for (uint32_t k = 0; k < i->n; k++) {
                uint32_t *d = RR(i->d + k), v = dims[k];
                for (uint32_t l = 0; l < n; l++)
                    d[l] = v;
            }
            break;
        }
        case OP_TEX_FETCH: {
            int64_t x[64], y[64], z[64], ls[64];
            stex_value out[64];
            coords(sg, i, x, y, z, ls);
            stex_lanes_textureLoad_sampled(&L, i->imm, (stex_view_dimension)i->sub, x, y, z, ls,
                                           out);
            for (uint32_t l = 0; l < n; l++)
                if (sg->exec >> l & 1)
                    for (int k = 0; k < 4; k++)
                        RR(i->d + (uint32_t)k)[l] = out[l].v.u[k];
            break;
        }
        case OP_TEX_SAMPLE_ANY: {
            const uint32_t *q = p->pool + i->offs;
            stex_sample_args args[64];
            stex_vec4 out[64];
            for (uint32_t l = 0; l < n; l++) {
                stex_sample_args *s = &args[l];
                memset(s, 0, sizeof *s);
                s->fn = (stex_sample_fn)q[WG_SP_FN];
                s->component = q[WG_SP_COMPONENT];
                for (int k = 0; k < 3; k++) {
                    s->offset[k] = (int32_t)q[WG_SP_OFF0 + k];
                    if ((uint32_t)k < q[WG_SP_NCOORDS])
                        s->coord[k] = as_f(RR(i->a + (uint32_t)k)[l]);
                    if (q[WG_SP_DDX] != WG_NONE_REG && (uint32_t)k < q[WG_SP_NCOORDS]) {
                        s->ddx[k] = as_f(RR(q[WG_SP_DDX] + (uint32_t)k)[l]);
                        s->ddy[k] = as_f(RR(q[WG_SP_DDY] + (uint32_t)k)[l]);
                    }
                }
                if (q[WG_SP_ARRAY] != WG_NONE_REG) {
                    uint32_t u = RR(q[WG_SP_ARRAY])[l];
                    s->array_index = q[WG_SP_ARRAY_SIGNED] ? (int64_t)(int32_t)u : (int64_t)u;
                }
                if (q[WG_SP_LEVEL] != WG_NONE_REG) {
                    uint32_t u = RR(q[WG_SP_LEVEL])[l];
                    s->level = q[WG_SP_LEVEL_KIND] == 0 ? as_f(u)
                             : q[WG_SP_LEVEL_KIND] == 1 ? (float)(int32_t)u : (float)u;
                }
                if (q[WG_SP_DREF] != WG_NONE_REG)
                    s->depth_ref = as_f(RR(q[WG_SP_DREF])[l]);
            }
            stex_lanes_textureSample(&L, i->imm, i->e, args, out);
            for (uint32_t l = 0; l < n; l++)
                if (sg->exec >> l & 1)
                    for (int k = 0; k < 4; k++)
                        RR(i->d + (uint32_t)k)[l] = out[l].u[k];
            break;
        }
        case OP_TEX_QUERY:
            /* the level may differ per lane: asked lane by lane */
            for (uint32_t l = 0; l < n; l++) {
                if (!(sg->exec >> l & 1))
                    continue;
                stex_lanes_enter(&L, l);
                int64_t lv = 0;
                if (i->a != WG_NONE_REG) {
                    uint32_t u = RR(i->a)[l];
                    lv = i->b ? (int64_t)(int32_t)u : (int64_t)u;
                }
                uint32_t q[3] = {0, 0, 0};
                if (i->sub == WG_QUERY_DIMS) {
                    stex_uvec3 v = stex_textureDimensions_level(inv, i->imm, lv);
                    q[0] = v.x, q[1] = v.y, q[2] = v.z;
                } else if (i->sub == WG_QUERY_LAYERS) {
                    q[0] = stex_textureNumLayers(inv, i->imm);
                } else if (i->sub == WG_QUERY_LEVELS) {
                    q[0] = stex_textureNumLevels(inv, i->imm);
                } else {
                    q[0] = stex_textureNumSamples(inv, i->imm);
                }
                for (uint32_t k = 0; k < i->n; k++)
                    RR(i->d + k)[l] = q[k];
            }
            break;
        case OP_SUBGROUP:
            subgroup_op(i, sg, prof, regs, stride, n);
            break;
        case OP_ARRAY_LEN: {
            stex_lanes_enter(&L, 0);
            uint32_t bytes = stex_arrayLength(inv, i->imm, 1);
            uint32_t len = bytes > i->a ? (bytes - i->a) / i->b : 0;
            for (uint32_t l = 0; l < n; l++)
                RR(i->d)[l] = len;
            break;
        }
        case OP_BARRIER:
            *kind = i->sub;
            STOP(STOP_BARRIER);
        case OP_IF: {
            uint64_t c = lane_mask(RR(i->a), n);
            sg->slot[i->imm] = sg->exec & ~c;
            sg->exec &= c;
            if (!sg->exec)
                pc = i->b;
            break;
        }
        case OP_ELSE: {
            uint64_t t = sg->slot[i->imm];
            sg->slot[i->imm] = sg->exec;
            sg->exec = t;
            if (!sg->exec)
                pc = i->b;
            break;
        }
        case OP_ENDIF:
        case OP_MERGE:
            sg->exec |= sg->slot[i->imm];
            break;
        case OP_MASK_CLEAR:
            sg->slot[i->imm] = 0;
            break;
        case OP_EXIT:
            sg->slot[i->imm] |= sg->exec;
            sg->exec = 0;
            break;
        case OP_BREAK_IF:
        case OP_BREAK_JUMP: {
            uint64_t c = lane_mask(RR(i->a), n);
            sg->slot[i->imm] |= sg->exec & c;
            sg->exec &= ~c;
            if (!sg->exec && i->op == OP_BREAK_JUMP)
                pc = i->b;
            break;
        }
        case OP_LOOP_END:
            if (sg->exec) {
                if (steps > check_at && steps > xp->max_steps) {
                    uint32_t first = (uint32_t)__builtin_ctzll(sg->exec);
                    stex_lanes_enter(&L, first);
                    exec_shader_error(inv, "%s:%u: the loop ran past --max-steps (%llu "
                                      "instructions of one sub-group in one workgroup) "
                                      "[max-steps]", xp->filename, i->line,
                                      (unsigned long long)xp->max_steps);
                    STOP(STOP_ERROR);
                }
                if (steps > check_at) {
                    if (stex_cancel_check(inv->exec->ctx->cancel)) {
                        exec_shader_error(inv, "%s:%u: stopped (the dispatch was cancelled)",
                                          xp->filename, i->line);
                        STOP(STOP_ERROR); /* the dispatch returns STEX_CANCELLED */
                    }
                    check_at = steps + every < xp->max_steps ? steps + every : xp->max_steps;
                }
                pc = i->b;
            } else {
                sg->exec = sg->slot[i->imm];
            }
            break;
        case OP_END:
            STOP(STOP_END);
        }
        if (interleave && is_access(i->op) && --sg->budget == 0)
            STOP(STOP_YIELD);
        if (single)
            STOP(STOP_YIELD);
    }
#undef STOP
#undef RR
}

/* 64 lanes (the default: an 8x8 workgroup) get their own copy of the
 * interpreter loop, where every loop over lanes has a constant trip count
 * the compiler vectorises without remainder; other widths share one.  On
 * x86-64 the 64-lane copy is compiled a second time for AVX2 (8 lanes per
 * instruction, the same operations: no FMA), taken where the CPU has it. */
#if defined(__x86_64__) && defined(__GNUC__)
#define RUN_AVX2 1
__attribute__((target("avx2"), noinline)) static stop run64_avx2(const wg_exec_program *xp,
                                                                 subgroup *sg,
                                                                 stex_invocation *inv,
                                                                 const stex_profile *prof,
                                                                 uint8_t *kind)
{
    return run_lanes(xp, sg, inv, prof, kind, 64, false, false);
}
#else
#define RUN_AVX2 0
#endif

/* ---- the JIT's side (jit.h) ----
 * A compiled program runs on the same sub-group state; what it does not
 * compile itself it hands back one instruction at a time to run_lanes
 * (single), so both executors share every instruction's code but the
 * arithmetic and control flow the JIT emits. */
#if RUN_AVX2
__attribute__((target("avx2"), noinline)) static stop step64_avx2(const wg_exec_program *xp,
                                                                  subgroup *sg,
                                                                  stex_invocation *inv,
                                                                  const stex_profile *prof,
                                                                  uint8_t *kind)
{
    return run_lanes(xp, sg, inv, prof, kind, 64, false, true);
}
#endif

typedef struct jit_run {
    wg_jit_frame f;  /* first: the compiled code's frame is this */
    const wg_exec_program *xp;
    stex_invocation *inv;
} jit_run;

/* wg_jit_frame.step: instruction pc, through the interpreter's own code */
static int jit_step(wg_jit_frame *f, uint32_t pc)
{
    jit_run *j = (jit_run *)(void *)f;
    subgroup *sg = f->sg;
    uint64_t steps = sg->steps;
    uint8_t kind = 0;
    stop s;
    sg->pc = pc;
#if RUN_AVX2
    if (sg->n == 64 && __builtin_cpu_supports("avx2"))
        s = step64_avx2(j->xp, sg, j->inv, f->prof, &kind);
    else
#endif
    if (sg->n == 64)
        s = run_lanes(j->xp, sg, j->inv, f->prof, &kind, 64, false, true);
    else
        s = run_lanes(j->xp, sg, j->inv, f->prof, &kind, sg->n, false, true);
    sg->steps = steps; /* the JIT counts its own */
    if (s == STOP_YIELD)
        return -1;
    f->pc = sg->pc;
    f->kind = kind;
    return (int)s;
}

/* wg_jit_frame.loop_check: the step limit and the cancel flag at a loop's
 * end, as run_lanes' OP_LOOP_END (f->steps: the count with the loop end) */
static int jit_loop_check(wg_jit_frame *f, uint32_t pc)
{
    jit_run *j = (jit_run *)(void *)f;
    subgroup *sg = f->sg;
    const wg_exec_program *xp = j->xp;
    const wg_ins *i = &xp->prog.code[pc];
    stex_lanes L = {j->inv, sg->lid, &sg->exec, sg->n, pc + 1};
    if (f->steps > xp->max_steps) {
        uint32_t first = (uint32_t)__builtin_ctzll(sg->exec);
        stex_lanes_enter(&L, first);
        exec_shader_error(j->inv, "%s:%u: the loop ran past --max-steps (%llu "
                          "instructions of one sub-group in one workgroup) "
                          "[max-steps]", xp->filename, i->line,
                          (unsigned long long)xp->max_steps);
        return 1;
    }
    if (stex_cancel_check(j->inv->exec->ctx->cancel)) {
        exec_shader_error(j->inv, "%s:%u: stopped (the dispatch was cancelled)",
                          xp->filename, i->line);
        return 1;
    }
    return 0;
}

static stop run_jit(const wg_exec_program *xp, subgroup *sg, stex_invocation *inv,
                    const stex_profile *prof, uint8_t *kind)
{
    jit_run j = {{.regs = sg->r, .exec = &sg->exec, .slot = sg->slot, .sg = sg, .all = sg->all,
                  .steps = sg->steps, .max_steps = xp->max_steps, .n = sg->n, .pc = sg->pc,
                  .step = jit_step, .loop_check = jit_loop_check, .prof = prof},
                 xp, inv};
    int s = xp->jit_fn(&j.f);
    sg->pc = j.f.pc;
    sg->steps = j.f.steps;
    *kind = (uint8_t)j.f.kind;
    return (stop)s;
}

static stop run(const wg_exec_program *xp, subgroup *sg, stex_invocation *inv,
                const stex_profile *prof, uint8_t *kind)
{
    /* the JIT's code is the program's at its width under its profile */
    if (xp->jit_fn && prof == xp->jit_prof && sg->stride == xp->width)
        return run_jit(xp, sg, inv, prof, kind);
#if RUN_AVX2
    if (sg->n == 64 && __builtin_cpu_supports("avx2"))
        return run64_avx2(xp, sg, inv, prof, kind);
#endif
    if (sg->n == 64)
        return run_lanes(xp, sg, inv, prof, kind, 64, false, false);
    return run_lanes(xp, sg, inv, prof, kind, sg->n, false, false);
}

/* run() under the interleaved schedule, yielding (64 lanes: their own copy) */
static stop run_yielding(const wg_exec_program *xp, subgroup *sg, stex_invocation *inv,
                         const stex_profile *prof, uint8_t *kind)
{
    if (sg->n == 64)
        return run_lanes(xp, sg, inv, prof, kind, 64, true, false);
    return run_lanes(xp, sg, inv, prof, kind, sg->n, true, false);
}

/* ---- which registers a workgroup must zero ----
 * A forward pass over the bytecode keeps the registers surely written on
 * every path (a must-analysis): a jump's target meets the registers of
 * every jump to it and of its fall-through.  Only OP_LOOP_END jumps back,
 * to its loop's start, with at least the registers the start had (every
 * path to the loop's end runs through its start), so a back edge changes
 * no set.  Writes that keep some lanes (the exec mask, an index) count as
 * reads; an index into an array variable reads every register from the
 * array's first on.  Any register read before it is surely written goes
 * into zero_regs. */
typedef struct regset {
    uint64_t *w;
    uint32_t words, nregs;
    uint32_t ids;  /* the builtin id registers read */
} regset;

static void rs_read(regset *def, uint64_t *zero, uint32_t r, uint32_t count)
{
    for (uint32_t k = 0; k < count && r < def->nregs && k < def->nregs - r; k++) {
        if (r + k < REG_FIRST_FREE)
            def->ids |= 1u << (r + k);
        if (!(def->w[(r + k) >> 6] >> ((r + k) & 63) & 1))
            zero[(r + k) >> 6] |= 1ull << ((r + k) & 63);
    }
}

static void rs_write(regset *def, uint32_t r, uint32_t count)
{
    for (uint32_t k = 0; k < count && r < def->nregs && k < def->nregs - r; k++)
        def->w[(r + k) >> 6] |= 1ull << ((r + k) & 63);
}

static uint32_t ncoords(uint32_t dim)
{
    return dim == STEX_VIEW_DIMENSION_1D ? 1 : dim == STEX_VIEW_DIMENSION_3D ? 3 : 2;
}

bool wg_prepare(wg_exec_program *xp)
{
    const wg_program *p = &xp->prog;
    uint32_t nregs = p->nregs, words = (nregs + 63) / 64 + 1, nc = p->ncode;
    uint64_t *zero = calloc(words, sizeof *zero);
    uint64_t *cur = calloc(words, sizeof *cur);
    uint64_t *in = calloc((size_t)(nc + 1) * words, sizeof *in); /* meet of jumps to pc */
    uint8_t *jumped = calloc(nc + 1, 1);
    bool ok = zero && cur && in && jumped;
    if (ok) {
        regset def = {cur, words, nregs, 0};
        bool reach = true; /* the fall-through reaches this pc */
        rs_write(&def, 0, REG_FIRST_FREE < nregs ? REG_FIRST_FREE : nregs);
        rs_write(&def, xp->const_reg, xp->nconsts); /* filled at the start, like the ids */
        for (uint32_t pc = 0; pc < nc; pc++) {
            const wg_ins *i = &p->code[pc];
            uint64_t *j = in + (size_t)pc * words;
            if (jumped[pc]) {
                for (uint32_t k = 0; k < words; k++)
                    cur[k] = reach ? cur[k] & j[k] : j[k];
                reach = true;
            } else if (!reach) {
                /* reached by no path seen: assume nothing written */
                memset(cur, 0, words * sizeof *cur);
                reach = true;
            }
#define RD(r, cnt) do { if ((r) != WG_NONE_REG) rs_read(&def, zero, (r), (cnt)); } while (0)
#define WR(r, cnt) rs_write(&def, (r), (cnt))
            switch ((wg_opcode)i->op) {
            case OP_CONST: WR(i->d, 1); break;
            case OP_MOV: RD(i->a, i->n); WR(i->d, i->n); break;
            case OP_MOVM: RD(i->a, i->n); RD(i->d, i->n); WR(i->d, i->n); break;
            case OP_MATH: RD(i->a, 1); RD(i->b, 1); RD(i->c, 1); WR(i->d, 1); break;
            case OP_MATHV: {
                const stex_math_fn_info *info = stex_math_fn_get((stex_math_fn)i->imm);
                RD(i->a, info ? info->in_words : nregs);
                WR(i->d, info ? info->out_words : 0);
                break;
            }
            case OP_CMP: RD(i->a, 1); RD(i->b, 1); WR(i->d, 1); break;
            case OP_BITS: RD(i->a, 1); RD(i->b, 1); WR(i->d, 1); break;
            case OP_SELECT:
                RD(i->a, i->n); RD(i->b, i->n); RD(i->c, i->imm ? i->n : 1); WR(i->d, 1);
                break;
            case OP_LOADIDX: RD(i->b, 1); RD(i->a, nregs); WR(i->d, i->n); break;
            case OP_STOREIDX: RD(i->b, 1); RD(i->a, i->n); RD(i->d, nregs); break;
            case OP_ADDR: RD(i->a, 1); RD(i->b, 1); WR(i->d, 1); break;
            case OP_BUF_LOAD: case OP_WG_LOAD:
                RD(i->a, 1); RD(i->d, i->n); WR(i->d, i->n);
                break;
            case OP_BUF_STORE: case OP_WG_STORE: RD(i->a, 1); RD(i->b, i->n); break;
            case OP_ATOMIC:
                RD(i->a, 1); RD(i->b, 1); RD(i->c, 1); RD(i->d, 1); WR(i->d, 1);
                break;
            case OP_TEX_LOAD: case OP_TEX_LOAD_LEVEL: case OP_TEX_STORE:
                RD(i->a, ncoords(i->sub)); RD(i->b, 1);
                if (i->op == OP_TEX_LOAD_LEVEL)
                    RD(i->c, 1);
                RD(i->d, 4); WR(i->d, 4);
                break;
            case OP_TEX_SAMPLE: RD(i->a, 1); RD(i->b, 1); RD(i->c, 1); RD(i->d, 4); WR(i->d, 4); break;
            case OP_TEX_DIMS: WR(i->d, i->n); break;
            case OP_TEX_FETCH:
                RD(i->a, ncoords(i->sub)); RD(i->b, 1); RD(i->c, 1); RD(i->d, 4); WR(i->d, 4);
                break;
            case OP_TEX_QUERY: RD(i->a, 1); RD(i->d, i->n); WR(i->d, i->n); break;
            case OP_TEX_SAMPLE_ANY: {
                const uint32_t *q = p->pool + i->offs;
                RD(i->a, q[WG_SP_NCOORDS]); RD(q[WG_SP_ARRAY], 1); RD(q[WG_SP_LEVEL], 1);
                RD(q[WG_SP_DREF], 1); RD(q[WG_SP_DDX], q[WG_SP_NCOORDS]);
                RD(q[WG_SP_DDY], q[WG_SP_NCOORDS]); RD(i->d, 4); WR(i->d, 4);
                break;
            }
            case OP_ARRAY_LEN: WR(i->d, 1); break;
            case OP_SUBGROUP: {
                uint32_t out = i->sub == WG_SG_BALLOT ? 4 : i->sub <= WG_SG_ANY ? 1 : i->n;
                if (i->sub > WG_SG_COUNT)
                    RD(i->a, i->sub <= WG_SG_ANY ? 1 : i->n);
                RD(i->b, 1); RD(i->d, out); WR(i->d, out);
                break;
            }
            case OP_IF: case OP_BREAK_IF: case OP_BREAK_JUMP: RD(i->a, 1); break;
            case OP_BARRIER: case OP_ELSE: case OP_ENDIF: case OP_MASK_CLEAR: case OP_EXIT:
            case OP_MERGE: case OP_LOOP_END: case OP_END:
                break;
            default:
                ok = false; /* an instruction this pass does not know: zero everything */
                break;
            }
#undef RD
#undef WR
            bool fwd = (i->op == OP_IF || i->op == OP_ELSE || i->op == OP_BREAK_JUMP) &&
                       i->b > pc && i->b <= nc;
            if (fwd) {
                uint64_t *t = in + (size_t)i->b * words;
                for (uint32_t k = 0; k < words; k++)
                    t[k] = jumped[i->b] ? t[k] & cur[k] : cur[k];
                jumped[i->b] = 1;
            } else if (i->op == OP_IF || i->op == OP_ELSE || i->op == OP_BREAK_JUMP ||
                       (i->op == OP_LOOP_END && i->b > pc)) {
                ok = false; /* a jump this pass does not know: zero everything */
            }
            if (i->op == OP_END)
                reach = false;
        }
        if (ok) { /* the runs of zero */
            uint32_t *runs = malloc((nregs + 1) * sizeof *runs), nr = 0;
            for (uint32_t r = 0; runs && r < nregs;) {
                if (!(zero[r >> 6] >> (r & 63) & 1)) {
                    r++;
                    continue;
                }
                uint32_t e = r + 1;
                while (e < nregs && zero[e >> 6] >> (e & 63) & 1)
                    e++;
                runs[nr++] = r, runs[nr++] = e - r;
                r = e;
            }
            xp->zero_runs = runs;
            xp->nzero_runs = nr / 2;
            xp->id_regs = def.ids;
        }
        /* else a program this pass does not know: zero_runs NULL, every register zeroed */
    }
    if (!xp->zero_runs)
        xp->id_regs = (1u << REG_FIRST_FREE) - 1;
    xp->uses_subgroups = false;
    for (uint32_t pc = 0; pc < nc; pc++)
        xp->uses_subgroups |= p->code[pc].op == OP_SUBGROUP;
    free(zero);
    free(cur);
    free(in);
    free(jumped);
    return xp->zero_runs != NULL;
}

void wg_unprepare(wg_exec_program *xp)
{
    free(xp->zero_runs);
    xp->zero_runs = NULL;
}

/* Small workgroups' state on the stack: up to 64 sub-groups (a workgroup of
 * 64 one lane at a time, as the interleaved schedule may run it) of at most
 * STACK_LANES invocations in all. */
enum { STACK_GROUPS = 64, STACK_REGS = 8192, STACK_SLOTS = 2048, STACK_LANES = 512 };

/* The ids of every lane into the builtin registers the program reads
 * (phase_invocation's ids). */
static void fill_ids(const stex_workgroup *w, subgroup *sg, uint32_t ids,
                     const uint32_t (*plane)[STACK_LANES])
{
    const stex_invocation *wi = w->inv;
    const uint32_t n = sg->n, lid0 = sg->lid[0]; /* a sub-group's lanes are consecutive */
    const uint32_t (*wl)[3] = w->lid + lid0;
    for (uint32_t c = 0; c < 3; c++) {
        /* each register through a local pointer: its stores cannot be w's;
         * the local ids from their planes when there are (contiguous) */
        const uint32_t *pc = plane ? plane[c] + lid0 : NULL;
        if (ids >> (REG_LOCAL_ID + c) & 1) {
            uint32_t *d = R(sg, REG_LOCAL_ID + c);
            if (pc)
                memcpy(d, pc, n * sizeof *d);
            else
                for (uint32_t l = 0; l < n; l++)
                    d[l] = wl[l][c];
        }
        if (ids >> (REG_GLOBAL_ID + c) & 1) {
            uint32_t *d = R(sg, REG_GLOBAL_ID + c), base = w->base[c];
            if (pc)
                for (uint32_t l = 0; l < n; l++)
                    d[l] = base + pc[l];
            else
                for (uint32_t l = 0; l < n; l++)
                    d[l] = base + wl[l][c];
        }
        if (ids >> (REG_WORKGROUP_ID + c) & 1) {
            uint32_t *d = R(sg, REG_WORKGROUP_ID + c), v = wi->workgroup_id[c];
            for (uint32_t l = 0; l < n; l++)
                d[l] = v;
        }
        if (ids >> (REG_NUM_WORKGROUPS + c) & 1) {
            uint32_t *d = R(sg, REG_NUM_WORKGROUPS + c), v = wi->num_workgroups[c];
            for (uint32_t l = 0; l < n; l++)
                d[l] = v;
        }
    }
    if (ids >> REG_LOCAL_INDEX & 1) {
        uint32_t *d = R(sg, REG_LOCAL_INDEX);
        for (uint32_t l = 0; l < n; l++)
            d[l] = lid0 + l;
    }
}

/* The constant registers of wg_optimize, every lane. */
static void fill_consts(const wg_exec_program *xp, subgroup *sg)
{
    for (uint32_t k = 0, stride = sg->stride; k < xp->nconsts; k++) {
        uint32_t *d = R(sg, xp->const_reg + k), v = xp->consts[k];
        for (uint32_t l = 0; l < stride; l++)
            d[l] = v;
    }
}

/* Zeroes the registers of xp->zero_runs (all when there are none). */
static void zero_regs(const wg_exec_program *xp, subgroup *sg)
{
    if (!xp->zero_runs) {
        memset(sg->r, 0, (size_t)xp->prog.nregs * sg->stride * sizeof *sg->r);
        return;
    }
    for (uint32_t k = 0; k < xp->nzero_runs; k++)
        memset(R(sg, xp->zero_runs[2 * k]), 0,
               (size_t)xp->zero_runs[2 * k + 1] * sg->stride * sizeof *sg->r);
}


uint64_t wg_program_uid(void)
{
    static atomic_uint_fast64_t next;
    return (uint64_t)atomic_fetch_add(&next, 1) + 1;
}

/* A thread's registers for small workgroups, kept from one workgroup to the
 * next so that the constant registers stay filled while the thread runs the
 * same program (uid: its wg_program_uid; 0: none).  The program never
 * writes them, and zero_runs never covers them unless it is NULL (every
 * register zeroed: refilled). */
static _Thread_local struct {
    uint64_t uid;
    uint32_t width;   /* the sub-group width the constant registers were laid out for */
    uint32_t r[STACK_REGS];
    /* the workgroup's local ids as planes (x, y, z), of program lid_uid */
    uint64_t lid_uid;
    uint32_t lid[3][STACK_LANES];
} kept;

/* The interleaved schedule's sub-group width for a workgroup: 1, 2, 4, ...
 * below the program's width, or that width, drawn with `seed`; always the
 * program's width when it uses subgroup operations (they must see the
 * sub-groups that subgroup_size names). */
static uint32_t interleaved_width(const wg_exec_program *xp, uint64_t seed)
{
    if (xp->uses_subgroups)
        return xp->width;
    uint32_t count = 1; /* the widths below xp->width, and xp->width */
    while ((1u << (count - 1)) < xp->width)
        count++;
    uint32_t k = (uint32_t)(seed % count);
    return k == count - 1 ? xp->width : 1u << k;
}

static uint64_t turn_mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Reports each lane of a sub-group that stopped with s (not STOP_YIELD). */
static void report_stop(struct stex_exec *e, const wg_program *p, subgroup *sg, stop s,
                        uint8_t kind)
{
    if (s != STOP_BARRIER) { /* every lane returned (lanes are consecutive) */
        phase_return_range(e, sg->lid[0], sg->n);
        sg->done = true;
        return;
    }
    for (uint32_t l = 0; l < sg->n; l++) {
        if (sg->exec >> l & 1)
            phase_arrive(e, sg->lid[l], (exec_barrier)kind, sg->pc - 1);
        else if (!(sg->slot[p->ret_slot] >> l & 1))
            /* in another branch of divergent control flow: not at this barrier */
            phase_arrive(e, sg->lid[l], (exec_barrier)kind, (sg->pc - 1) | 0x80000000u);
        else
            phase_return(e, sg->lid[l]);
    }
}

/* One phase under the interleaved schedule: the sub-groups take turns
 * drawn with `seed`, each running 1 to 4 memory accesses (or on to its
 * barrier or end) before the next turn is drawn, until every one stopped.
 * live: room for ngroups indices. */
static void run_interleaved(const wg_exec_program *xp, subgroup *sgs, uint32_t ngroups,
                            uint32_t *live, struct stex_exec *e, stex_invocation *inv,
                            const stex_profile *prof, uint64_t seed)
{
    uint32_t nlive = 0;
    for (uint32_t g = 0; g < ngroups; g++) {
        if (!sgs[g].done)
            live[nlive++] = g;
        else /* cannot happen after PHASE_NEXT; reported for safety */
            phase_return_range(e, sgs[g].lid[0], sgs[g].n);
    }
    for (uint64_t turn = 0; nlive; turn++) {
        uint64_t x = turn_mix(seed + turn);
        uint32_t k = (uint32_t)((x >> 32) % nlive);
        subgroup *sg = &sgs[live[k]];
        sg->budget = 1 + (uint32_t)(x & 3);
        uint8_t kind = 0;
        stop s = run_yielding(xp, sg, inv, prof, &kind);
        if (s == STOP_YIELD)
            continue;
        report_stop(e, &xp->prog, sg, s, kind);
        live[k] = live[--nlive];
    }
}

/* The JIT's code runs sub-groups in lock step to their barriers; the
 * interleaved schedule's turns between memory accesses are the
 * interpreter's (said once). */
static void jit_interleaved_notice(void)
{
    static atomic_bool said;
    if (!atomic_exchange(&said, true))
        wg_notice_once("executor jit: the interleaved schedule runs on the interpreter (its "
                       "sub-groups take turns between memory accesses)");
}

void wg_run_workgroup(const stex_workgroup *w, void *user)
{
    const wg_exec_program *xp = user;
    const wg_program *p = &xp->prog;
    struct stex_exec *e = w->inv->exec;
    const stex_profile *prof = stex_invocation_profile(w->inv);
    uint64_t iseed = 0;
    bool interleaved = phase_interleave(e, &iseed);
    if (interleaved && xp->jit_fn)
        jit_interleaved_notice();
    uint32_t total = w->size[0] * w->size[1] * w->size[2];
    uint32_t width = interleaved ? interleaved_width(xp, iseed) : xp->width;
    uint32_t ngroups = (total + width - 1) / width;
    size_t regs_per = (size_t)p->nregs * width, nslots = (size_t)ngroups * (p->nslots + 1);
    /* small workgroups keep their state on the stack; registers are zeroed
     * as zero_runs says */
    subgroup sgs_s[STACK_GROUPS];
    uint64_t slots_s[STACK_SLOTS];
    uint32_t ran_s[STACK_GROUPS]; /* flags, or the interleaved schedule's live sub-groups */
    bool small = total <= STACK_LANES && ngroups <= STACK_GROUPS &&
                 ngroups * regs_per <= STACK_REGS &&
                 nslots <= STACK_SLOTS;
    subgroup *sgs = small ? sgs_s : calloc(ngroups, sizeof *sgs);
    uint32_t *regs = small ? kept.r : malloc((ngroups * regs_per + 1) * sizeof *regs);
    /* uid 0 is no program's (wg_program_uid starts at 1): never taken as kept */
    bool consts_kept = small && xp->uid && kept.uid == xp->uid && kept.width == width &&
                       xp->zero_runs;
    if (small && (!xp->uid || kept.lid_uid != xp->uid)) { /* total <= STACK_LANES */
        for (uint32_t l = 0; l < total; l++)
            for (uint32_t c = 0; c < 3; c++)
                kept.lid[c][l] = w->lid[l][c];
        kept.lid_uid = xp->uid;
    }
    uint64_t *slots = small ? slots_s : calloc(nslots, sizeof *slots);
    uint32_t *ran = small ? ran_s : malloc(ngroups * sizeof *ran);
    if (small) /* the sub-groups' fields are all set below */
        memset(slots, 0, nslots * sizeof *slots);
    stex_invocation inv = *w->inv;
    if (!sgs || !regs || !slots || !ran) {
        exec_shader_error(w->inv, "the WGSL interpreter ran out of memory");
        for (uint32_t l = 0; l < total; l++)
            phase_return(e, l);
        phase_end(e);
        goto done;
    }
    for (uint32_t g = 0; g < ngroups; g++) {
        subgroup *sg = &sgs[g];
        sg->pc = 0, sg->steps = 0, sg->done = false;
        sg->n = total - g * width < width ? total - g * width : width;
        for (uint32_t l = 0; l < 64; l++) /* lanes past n: 0, as before any use */
            sg->lid[l] = l < sg->n ? g * width + l : 0;
        sg->all = sg->n == 64 ? ~0ull : (1ull << sg->n) - 1;
        sg->exec = sg->all;
        sg->stride = width;
        sg->count = ngroups;
        sg->r = regs + g * regs_per;
        sg->slot = slots + (size_t)g * (p->nslots + 1);
        zero_regs(xp, sg);
        fill_ids(w, sg, xp->id_regs, small ? (const uint32_t(*)[STACK_LANES])kept.lid : NULL);
        if (!consts_kept)
            fill_consts(xp, sg);
    }
    if (small) {
        kept.uid = xp->zero_runs ? xp->uid : 0;
        kept.width = width;
    }
    for (;;) {
        if (interleaved) {
            phase_interleave(e, &iseed); /* this phase's */
            run_interleaved(xp, sgs, ngroups, ran, e, &inv, prof, iseed);
            if (phase_end(e) != PHASE_NEXT)
                break;
            continue;
        }
        /* one sub-group (the whole workgroup) needs no order: it runs alone */
        const uint32_t *order = ngroups > 1 ? phase_order(e) : NULL;
        memset(ran, 0, ngroups * sizeof *ran);
        for (uint32_t k = 0; k < (ngroups == 1 && total ? 1 : total); k++) {
            uint32_t g = order ? order[k] / width : 0;
            if (ran[g])
                continue;
            ran[g] = 1;
            subgroup *sg = &sgs[g];
            if (sg->done) { /* cannot happen after PHASE_NEXT; reported for safety */
                for (uint32_t l = 0; l < sg->n; l++)
                    phase_return(e, sg->lid[l]);
                continue;
            }
            uint8_t kind = 0;
            report_stop(e, p, sg, run(xp, sg, &inv, prof, &kind), kind);
        }
        if (phase_end(e) != PHASE_NEXT)
            break;
    }
done:
    if (!small) {
        free(sgs);
        free(regs);
        free(slots);
        free(ran);
    }
}

bool wg_site_name(void *user, uint32_t site, char *buf, size_t size)
{
    const wg_exec_program *xp = user;
    if (!site || site > xp->prog.ncode || !xp->prog.code[site - 1].line)
        return false;
    const wg_ins *i = &xp->prog.code[site - 1];
    if (i->col)
        snprintf(buf, size, "%s:%u:%u", xp->filename, i->line, i->col);
    else
        snprintf(buf, size, "%s:%u", xp->filename, i->line);
    return true;
}
