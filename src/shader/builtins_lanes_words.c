/* The lane-batched texture builtins in word form (shader/lanes.h): the
 * coordinates and texel channels stay in the caller's per-lane word arrays,
 * so an executor with structure-of-arrays registers converts nothing per
 * call.  Each lane runs the code of the per-invocation builtin: the inline
 * fast path of shader/fast.h when its tag and bounds allow (without entering
 * the lane: that path reads no invocation id), else stex_lanes_enter and the
 * same stex__*_b path as builtins_lanes.c.  The hot cases (every lane
 * active, bounds below 2^31) have their own loops: a sampled rgba8unorm
 * load through the profile's code table, a raw 32-bit channel's load and
 * store, an rgba8unorm store through the profile's encoder.  No
 * semantics live here.  The buffer word forms take an element offset per
 * lane (or one for all lanes: a uniform's field is read once when the plain
 * path serves it - the same word, no effect - and handed to every lane). */
#include "convert/unorm8_row.h"
#include "shader/exec.h"
#include "shader/lanes.h"
#include "shader/tile.h"
#include "shader/window.h"
#include "race/race_internal.h"

/* a coordinate word as the builtins take it: i32 or u32, 0 when absent */
static inline int64_t coord(const uint32_t *a, uint32_t i, bool sign)
{
    if (!a)
        return 0;
    return sign ? (int64_t)(int32_t)a[i] : (int64_t)a[i];
}

/* for each active lane i in lane order, the mask read once per 64 lanes */
#define FOR_ACTIVE(l, i)                                                              \
    for (uint32_t base_ = 0, n_ = (l)->n; base_ < n_; base_ += 64)                    \
        for (uint64_t m_ = (l)->active[base_ >> 6]; m_; m_ &= m_ - 1)                 \
            for (uint32_t i = base_ + (uint32_t)__builtin_ctzll(m_), once_ = 1; once_ && i < n_; \
                 once_ = 0)

/* every lane active (n <= 64): a plain loop, no mask to walk */
static inline bool all_active(const stex_lanes *l)
{
    return l->n <= 64 && l->active[0] == (l->n == 64 ? ~0ull : (1ull << l->n) - 1);
}

/* the statements for each active lane i, in lane order (n read once: a
 * store through a word pointer could otherwise be l->n for the compiler) */
#define EACH_LANE(l, i, ...)                                                         \
    do {                                                                              \
        if (all_active(l)) {                                                          \
            for (uint32_t i = 0, n_ = (l)->n; i < n_; i++) { __VA_ARGS__ }           \
        } else {                                                                      \
            FOR_ACTIVE(l, i) { __VA_ARGS__ }                                          \
        }                                                                             \
    } while (0)

/* bounds below 2^31: an i32 coordinate below 0, as a u32 word, is above
 * them, so one unsigned compare serves both signs */
static inline bool small(const stex_fast_binding *b)
{
    return b->w < (1ull << 31) && b->h < (1ull << 31);
}

/* The block of binding b (4-byte texels) that lanes 0..63 cover, lane
 * 8 * ly + lx at (x0 + lx, y0 + ly) with x0 and y0 multiples of 8: its first
 * byte (shader/tile.h's Morton run), or NULL when the lanes are anything
 * else or the block is not one run in memory. */
static uint8_t *lanes_block8(const stex_lanes *l, const stex_fast_binding *b, const uint32_t *x,
                             const uint32_t *y)
{
    if (l->n != 64 || !y)
        return NULL;
    uint32_t x0 = x[0], y0 = y[0], bad = (x0 | y0) & (STEX__TILE - 1);
    for (uint32_t i = 0; i < 64; i++)
        bad |= (x[i] - x0 - (i & 7u)) | (y[i] - y0 - (i >> 3));
    return bad ? NULL : stex__tile8_block(b, x0, y0, 4);
}

/* A race summary with sites (stex_fast_binding.site_*): whether binding b's
 * call may take the word forms' own recorded path - every lane active, no
 * written bytes to compare (suppress_same_value) - and, when it may, the
 * call's site handed to the race detector once. */
static bool site_path(const stex_lanes *l, const stex_fast_binding *b)
{
    if (!b->race || b->race_values || !all_active(l) || l->n > 64)
        return false;
    race_thread_site(l->inv->exec->race, l->site);
    return true;
}

/* The 64 lanes' accesses to the block of b at (x0, y0) (lanes_block8's),
 * recorded at once when race_note_site_8x8 can (false: nothing done). */
static bool site_note_block(const stex_lanes *l, const stex_fast_binding *b, uint32_t x0,
                            uint32_t y0, stex_race_access acc)
{
    const struct stex_exec *e = l->inv->exec;
    for (uint32_t i = 0; i < 64; i++)
        if (l->lid[i] != l->lid[0] + i)
            return false; /* keys are key0 + lane only for consecutive lanes */
    return race_note_site_8x8((race_shadow_head *)(void *)e->b[b->slot].shadow,
                              e->fast.race_tid, x0 + b->race_w * y0 + b->race_off, b->race_w,
                              e->race_key + l->lid[0], acc);
}

/* Lane i's access to race location loc of b, recorded as the out-of-line
 * builtin records it (race_note with sites: the key of the lane's
 * invocation, the call's site). */
static inline void site_note(const stex_lanes *l, const stex_fast_binding *b, uint32_t i,
                             uint64_t loc, stex_race_access acc)
{
    const struct stex_exec *e = l->inv->exec;
    race_note_site_fast((race_shadow_head *)(void *)e->b[b->slot].shadow, e->fast.race_tid, loc,
                        e->race_key + l->lid[i], acc);
}

static inline void put4(uint32_t *const out[4], uint32_t i, const stex_vec4 *v)
{
    out[0][i] = v->u[0], out[1][i] = v->u[1], out[2][i] = v->u[2], out[3][i] = v->u[3];
}

/* A buffer's words, read where the bytes are (4-aligned: buffers are). */
typedef uint32_t stex__u32_alias __attribute__((may_alias, aligned(4)));

/* If every off[i] < lim (i < n): out[i] = w[off[i]] and true; else false
 * and nothing written (out may be off).  Every off[i] < lim means the
 * words from off[r] to off[r] + 7 exist when a row's offsets are
 * consecutive.  Compiled for AVX2 too (its
 * gathers), the CPU's copy picked when the program loads. */
#if defined(__x86_64__) && defined(__clang__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default"))) /* never inlined */
#elif defined(__x86_64__) && defined(__GNUC__) && defined(__ELF__)
__attribute__((target_clones("avx2", "default"), noinline))
#endif
static bool gather_words(const stex__u32_alias *w, const uint32_t *off, uint32_t lim, uint32_t n,
                         uint32_t *out)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad |= off[i] >= lim;
    if (bad)
        return false;
    uint32_t tmp[64];
    n = n < 64 ? n : 64;
    /* rows of 8 lanes reading 8 consecutive words (an 8x8 workgroup's row of
     * a 2d array in a buffer): copied whole, no gather */
    uint32_t apart = n & 7;
    for (uint32_t i = 0; i < n; i++)
        apart |= off[i] - off[i & ~7u] - (i & 7u);
    if (!apart) {
        for (uint32_t r = 0; r < n; r += 8)
            memcpy(tmp + r, (const void *)(w + off[r]), 8 * sizeof *tmp);
    } else {
        for (uint32_t i = 0; i < n; i++)
            tmp[i] = w[off[i]];
    }
    memcpy(out, tmp, n * sizeof *out);
    return true;
}

/* word[i] = the 4-byte texel (x[i], y[i]) of a 2d level (col, row: its
 * layout's tables, shader/fast.h) for i < n <= 64; a lane outside w x h
 * (both below 2^31) reads texel (0, 0) and gets its bit in the mask
 * returned.  AVX2's gathers where the CPU has them. */
static uint64_t gather_texels_scalar(const uint8_t *mem, const uint64_t *col,
                                     const uint64_t *row, uint32_t w, uint32_t h,
                                     const uint32_t *x, const uint32_t *y, uint32_t n,
                                     uint32_t *word)
{
    uint64_t oob = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t xi = x[i], yi = y[i], in = (xi < w) & (yi < h);
        memcpy(&word[i], mem + (in ? col[xi] + row[yi] : 0), 4);
        oob |= (uint64_t)!in << i;
    }
    return oob;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define GATHER_AVX2 1
__attribute__((target("avx2"))) static uint64_t gather_texels_avx2(
    const uint8_t *mem, const uint64_t *col, const uint64_t *row, uint32_t w, uint32_t h,
    const uint32_t *x, const uint32_t *y, uint32_t n, uint32_t *word)
{
    const __m256i bias = _mm256_set1_epi32(INT32_MIN); /* unsigned order as signed */
    const __m256i wb = _mm256_set1_epi32((int)(w ^ 0x80000000u));
    const __m256i hb = _mm256_set1_epi32((int)(h ^ 0x80000000u));
    uint64_t oob = 0;
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
        __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)(y + i));
        __m256i in = _mm256_and_si256(_mm256_cmpgt_epi32(wb, _mm256_xor_si256(xv, bias)),
                                      _mm256_cmpgt_epi32(hb, _mm256_xor_si256(yv, bias)));
        oob |= (uint64_t)(~(unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(in)) & 0xffu) << i;
        xv = _mm256_and_si256(xv, in); /* out of bounds: texel (0, 0) */
        yv = _mm256_and_si256(yv, in);
        __m128i w4[2];
        /* a row: 8 lanes in bounds at consecutive x on one y (an 8x8
         * workgroup's row, shifted or not) - its column offsets are 8
         * consecutive entries and its row offset one: loaded, not gathered */
        __m256i x0 = _mm256_set1_epi32(x[i]), y0 = _mm256_set1_epi32(y[i]);
        __m256i want = _mm256_add_epi32(x0, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        __m256i same = _mm256_and_si256(_mm256_cmpeq_epi32(xv, want), _mm256_cmpeq_epi32(yv, y0));
        if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_and_si256(same, in))) == 0xff) {
            __m256i r = _mm256_set1_epi64x((long long)row[y[i]]);
            for (int half = 0; half < 2; half++) {
                __m256i at = _mm256_add_epi64(
                    _mm256_loadu_si256((const __m256i *)(const void *)(col + x[i] + 4 * half)), r);
                w4[half] = _mm256_i64gather_epi32((const int *)(const void *)mem, at, 1);
            }
            _mm256_storeu_si256((__m256i *)(void *)(word + i), _mm256_set_m128i(w4[1], w4[0]));
            continue;
        }
        for (int half = 0; half < 2; half++) {
            __m128i xs = half ? _mm256_extracti128_si256(xv, 1) : _mm256_castsi256_si128(xv);
            __m128i ys = half ? _mm256_extracti128_si256(yv, 1) : _mm256_castsi256_si128(yv);
            __m256i at = _mm256_add_epi64(
                _mm256_i32gather_epi64((const long long *)(const void *)col, xs, 8),
                _mm256_i32gather_epi64((const long long *)(const void *)row, ys, 8));
            w4[half] = _mm256_i64gather_epi32((const int *)(const void *)mem, at, 1);
        }
        _mm256_storeu_si256((__m256i *)(void *)(word + i), _mm256_set_m128i(w4[1], w4[0]));
    }
    if (i < n)
        oob |= gather_texels_scalar(mem, col, row, w, h, x + i, y + i, n - i, word + i) << i;
    return oob;
}
#else
#define GATHER_AVX2 0
#endif

static uint64_t gather_texels(const uint8_t *mem, const uint64_t *col, const uint64_t *row,
                              uint32_t w, uint32_t h, const uint32_t *x, const uint32_t *y,
                              uint32_t n, uint32_t *word)
{
#if GATHER_AVX2
    if (__builtin_cpu_supports("avx2")) /* a read of the CPU model filled once */
        return gather_texels_avx2(mem, col, row, w, h, x, y, n, word);
#endif
    return gather_texels_scalar(mem, col, row, w, h, x, y, n, word);
}

void stex_lanes_textureLoad_words(const stex_lanes *l, uint32_t binding, stex_view_dimension dim,
                                  const uint32_t *x, const uint32_t *y, const uint32_t *z,
                                  bool sign, uint32_t *const out[4])
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    bool hot = b->raw32 && !z && dim != STEX_VIEW_DIMENSION_3D && small(b);
    /* recorded: the race summary with sites records this binding (site_*) */
    bool rec = hot && b->load_tag != (uint32_t)dim && b->site_load_tag == (uint32_t)dim &&
               site_path(l, b);
    if ((b->load_tag == (uint32_t)dim || rec) && hot && all_active(l)) {
        /* one 32-bit channel kept bit for bit (stex__load_at's raw32 case);
         * recorded, each lane's read recorded in lane order too */
        uint32_t w = (uint32_t)b->w, h = (uint32_t)b->h, n = l->n, one = b->alpha_one;
        const uint8_t *mem = b->memory;
        const uint64_t *col = b->col, *row = b->row;
        uint32_t *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
        const uint8_t *block = STEX__TILE_LITTLE_ENDIAN ? lanes_block8(l, b, x, y) : NULL;
        if (block && (!rec || site_note_block(l, b, x[0], y[0], STEX_RACE_ACCESS_READ))) {
            stex__tile8_get32(o0, block);
            for (uint32_t i = 0; i < 64; i++)
                o1[i] = 0, o2[i] = 0, o3[i] = one;
            return;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t xi = x[i], yi = y ? y[i] : 0;
            if (STEX__LIKELY((xi < w) & (yi < h))) {
                uint32_t v;
                memcpy(&v, mem + col[xi] + row[yi], 4);
                if (rec)
                    site_note(l, b, i, xi + b->race_w * yi + b->race_off, STEX_RACE_ACCESS_READ);
                o0[i] = v, o1[i] = 0, o2[i] = 0, o3[i] = one;
                continue;
            }
            stex_lanes_enter(l, i);
            stex_value r = stex__load_b(l->inv, b, binding, dim, coord(x, i, sign),
                                        coord(y, i, sign), 0);
            put4(out, i, &r.v);
        }
        return;
    }
    EACH_LANE(l, i, {
        int64_t xi = coord(x, i, sign), yi = coord(y, i, sign), zi = coord(z, i, sign);
        bool in = ((uint64_t)xi < b->w) & ((uint64_t)yi < b->h) & ((uint64_t)zi < b->d);
        stex_value r;
        if (STEX__LIKELY((b->load_tag == (uint32_t)dim) & in)) {
            r = stex__load_at(l->inv, b, xi, yi, zi, false);
        } else {
            stex_lanes_enter(l, i);
            r = stex__load_b(l->inv, b, binding, dim, xi, yi, zi);
        }
        put4(out, i, &r.v);
    });
}

void stex_lanes_textureStore_words(const stex_lanes *l, uint32_t binding,
                                   stex_view_dimension dim, const uint32_t *x,
                                   const uint32_t *y, const uint32_t *z, bool sign,
                                   stex_scalar_type type, const uint32_t *const v[4])
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    uint32_t tag = (uint32_t)dim | ((uint32_t)type << 8);
    bool raw = b->raw32, rgba8 = b->enc_codec == STEX__CODEC_RGBA8UNORM;
    bool hot = (raw || rgba8) && !z && dim != STEX_VIEW_DIMENSION_3D && small(b);
    /* recorded: the race summary with sites records this binding (site_*) */
    bool rec = hot && b->store_tag != tag && b->site_store_tag == tag && site_path(l, b);
    if ((b->store_tag == tag || rec) && hot && all_active(l)) {
        /* the two hot encoders of stex__store_at, one loop each; an
         * out-of-bounds store is discarded (no lane to enter, nothing
         * recorded) */
        uint32_t w = (uint32_t)b->w, h = (uint32_t)b->h, n = l->n;
        uint8_t *mem = b->memory;
        const uint64_t *col = b->col, *row = b->row;
        const uint32_t *v0 = v[0], *v1 = v[1], *v2 = v[2], *v3 = v[3];
        /* the texels' words, every lane's encoded at once (a lane out of
         * bounds is then dropped: encoding has no effect) */
        uint32_t t[64];
        const uint32_t *word = v0;
        if (!raw && n <= 64) {
            float f[4][64]; /* the registers' bits as floats (no aliasing) */
            memcpy(f[0], v0, n * 4), memcpy(f[1], v1, n * 4);
            memcpy(f[2], v2, n * 4), memcpy(f[3], v3, n * 4);
            stex__unorm8_row(b->u8_round, b->u8_nan, n, f[0], f[1], f[2], f[3], t);
            word = t;
        }
        uint8_t *block = STEX__TILE_LITTLE_ENDIAN ? lanes_block8(l, b, x, y) : NULL;
        if (block && (raw || n <= 64) &&
            (!rec || site_note_block(l, b, x[0], y[0], STEX_RACE_ACCESS_WRITE))) {
            stex__tile8_put32(block, word);
            return;
        }
        uint32_t round = b->u8_round, nan = b->u8_nan;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t xi = x[i], yi = y ? y[i] : 0;
            if (!((xi < w) & (yi < h)))
                continue;
            uint8_t *p = mem + col[xi] + row[yi];
            if (rec)
                site_note(l, b, i, xi + b->race_w * yi + b->race_off, STEX_RACE_ACCESS_WRITE);
            if (raw) {
                stex__store32(p, word[i]);
            } else if (n <= 64) {
                stex__put_le32(p, word[i]);
            } else {
                uint32_t u[4] = {v0[i], v1[i], v2[i], v3[i]};
                float f[4];
                memcpy(f, u, sizeof f);
                stex__put_le32(p, stex__unorm8x4(round, nan, f));
            }
        }
        return;
    }
    EACH_LANE(l, i, {
        int64_t xi = coord(x, i, sign), yi = coord(y, i, sign), zi = coord(z, i, sign);
        stex_value val;
        val.type = type;
        val.v.u[0] = v[0][i], val.v.u[1] = v[1][i], val.v.u[2] = v[2][i], val.v.u[3] = v[3][i];
        if (STEX__LIKELY(b->store_tag == tag)) {
            stex__store_at(l->inv, b, xi, yi, zi, &val, false);
            continue;
        }
        stex_lanes_enter(l, i);
        stex__store_b(l->inv, b, binding, dim, xi, yi, zi, &val);
    });
}

void stex_lanes_textureLoad_level_2d_words(const stex_lanes *l, uint32_t binding,
                                           const uint32_t *x, const uint32_t *y, bool sign,
                                           const uint32_t *level, bool lsign,
                                           uint32_t *const out[4])
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    const stex_exec_fast *e = (const stex_exec_fast *)(const void *)l->inv->exec;
    bool rgba8 = b->sampled_2d && b->dec_codec == STEX__CODEC_RGBA8UNORM;
    const float *t = b->u8_value;
    uint32_t levels = 0; /* the levels' bits or'ed: 0 when every lane asks level 0 */
    if (level) /* a loop the compiler vectorises */
        for (uint32_t i = 0; i < l->n; i++)
            levels |= level[i];
    if (rgba8 && !levels && all_active(l) && small(b)) {
        uint32_t w = (uint32_t)b->w, h = (uint32_t)b->h, n = l->n;
        /* in locals: the stores below could otherwise alias them for the compiler */
        const uint8_t *mem = b->memory;
        const uint64_t *col = b->col, *row = b->row;
        uint32_t *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];
        if (stex__window_read_rows(l->inv->exec->windows, b, x, y, n, out))
            return;
        bool rows;
        const stex_window *win =
            n <= 64 ? stex__window_for(&l->inv->exec->windows, b, x, y, n, &rows) : NULL;
        if (win) { /* every lane inside the thread's decoded copy */
            stex__window_read(win, x, y, n, rows, out);
            return;
        }
        if (n <= 64) {
            /* every lane's texel word gathered, then decoded at once on SIMD
             * lanes; a lane out of bounds reads texel 0 and is redone below */
            uint32_t word[64] = {0};
            uint64_t oob = gather_texels(mem, col, row, w, h, x, y, n, word);
            /* the lanes out of bounds first: the outputs may be the coordinates' registers */
            stex_vec4 slow[64];
            for (uint64_t m = oob; m; m &= m - 1) {
                uint32_t i = (uint32_t)__builtin_ctzll(m);
                stex_lanes_enter(l, i);
                slow[i] = stex__load_level_b(l->inv, b, binding, coord(x, i, sign),
                                             coord(y, i, sign), coord(level, i, lsign));
            }
            stex__unorm8_unrow(t, n, word, (float *)(void *)o0, (float *)(void *)o1,
                               (float *)(void *)o2, (float *)(void *)o3);
            for (; oob; oob &= oob - 1) {
                uint32_t i = (uint32_t)__builtin_ctzll(oob);
                put4(out, i, &slow[i]);
            }
            return;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t xi = x[i], yi = y[i];
            if (STEX__LIKELY((xi < w) & (yi < h))) {
                const uint8_t *p = mem + col[xi] + row[yi];
                uint32_t f[4];
                memcpy(&f[0], &t[p[0]], 4);
                memcpy(&f[1], &t[p[1]], 4);
                memcpy(&f[2], &t[p[2]], 4);
                memcpy(&f[3], &t[p[3]], 4);
                o0[i] = f[0], o1[i] = f[1], o2[i] = f[2], o3[i] = f[3];
                continue;
            }
            stex_lanes_enter(l, i);
            stex_vec4 r = stex__load_level_b(l->inv, b, binding, coord(x, i, sign),
                                             coord(y, i, sign), coord(level, i, lsign));
            put4(out, i, &r);
        }
        return;
    }
    FOR_ACTIVE(l, i) {
        int64_t xi = coord(x, i, sign), yi = coord(y, i, sign), lv = coord(level, i, lsign);
        bool fast = b->sampled_2d & (lv == 0) & ((uint64_t)xi < b->w) & ((uint64_t)yi < b->h);
        if (STEX__LIKELY(fast & rgba8)) { /* stex__decode_fast's rgba8unorm case */
            const uint8_t *p = b->memory + b->col[xi] + b->row[yi];
            float f[4] = {t[p[0]], t[p[1]], t[p[2]], t[p[3]]};
            memcpy(&out[0][i], &f[0], 4);
            memcpy(&out[1][i], &f[1], 4);
            memcpy(&out[2][i], &f[2], 4);
            memcpy(&out[3][i], &f[3], 4);
            continue;
        }
        stex_vec4 r;
        if (fast) {
            r = stex__decode_fast(e->profile, b, b->memory + b->col[xi] + b->row[yi]);
        } else {
            stex_lanes_enter(l, i);
            r = stex__load_level_b(l->inv, b, binding, xi, yi, lv);
        }
        put4(out, i, &r);
    }
}

static inline uint64_t word_index(const uint32_t *off, uint32_t none, uint64_t add, uint32_t i)
{
    if (!off)
        return add;
    return off[i] == none ? UINT64_MAX : off[i] + add;
}

void stex_lanes_buffer_load_words(const stex_lanes *l, uint32_t binding, const uint32_t *off,
                                  uint32_t none, uint64_t add, uint32_t *out)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    bool plain = b->buf_load == STEX__BUF_WORDS;
    if (plain && !off && add < b->buf_words) { /* one word for every lane */
        uint32_t v;
        memcpy(&v, b->buf + add * 4, 4);
        EACH_LANE(l, i, out[i] = v;);
        return;
    }
    if (plain && off && all_active(l) && l->n <= 64 && add < b->buf_words) {
        /* every lane's word in range: one check over all lanes, then a loop
         * of loads the AVX2 copy turns into gathers */
        uint64_t room = b->buf_words - add; /* words from add on */
        /* an offset at or above lim is out of range or `none` */
        uint32_t lim = room < none ? (uint32_t)room : none;
        if (gather_words((const stex__u32_alias *)(const void *)(b->buf + add * 4), off, lim,
                         l->n, out))
            return;
    }
    if (!plain && b->site_buf_load == STEX__BUF_WORDS && site_path(l, b)) {
        /* recorded by the race summary with sites: words in range read here,
         * each lane's read recorded in lane order */
        for (uint32_t i = 0, n = l->n; i < n; i++) {
            uint64_t idx = word_index(off, none, add, i);
            if (STEX__LIKELY(idx < b->buf_words)) {
                memcpy(&out[i], b->buf + idx * 4, 4);
                site_note(l, b, i, idx + b->race_off, STEX_RACE_ACCESS_READ);
                continue;
            }
            stex_lanes_enter(l, i);
            out[i] = stex__buffer_load_b(l->inv, b, binding, idx);
        }
        return;
    }
    if (plain && off && all_active(l)) { /* words in range read inline, in one loop */
        const uint8_t *buf = b->buf;
        uint64_t words = b->buf_words;
        for (uint32_t i = 0, n = l->n; i < n; i++) {
            uint64_t idx = off[i] == none ? UINT64_MAX : off[i] + add;
            if (STEX__LIKELY(idx < words)) {
                memcpy(&out[i], buf + idx * 4, 4);
                continue;
            }
            stex_lanes_enter(l, i);
            out[i] = stex__buffer_load_b(l->inv, b, binding, idx);
        }
        return;
    }
    EACH_LANE(l, i, {
        uint64_t idx = word_index(off, none, add, i);
        if (STEX__LIKELY(plain & (idx < b->buf_words))) {
            memcpy(&out[i], b->buf + idx * 4, 4);
            continue;
        }
        stex_lanes_enter(l, i);
        out[i] = stex__buffer_load_b(l->inv, b, binding, idx);
    });
}

void stex_lanes_buffer_store_words(const stex_lanes *l, uint32_t binding, const uint32_t *off,
                                   uint32_t none, uint64_t add, const uint32_t *v)
{
    const stex_fast_binding *b = stex__fast(l->inv, binding);
    bool plain = b->buf_store == STEX__BUF_WORDS;
    if (!plain && b->site_buf_store == STEX__BUF_WORDS && site_path(l, b)) {
        /* recorded by the race summary with sites (as the load above) */
        for (uint32_t i = 0, n = l->n; i < n; i++) {
            uint64_t idx = word_index(off, none, add, i);
            if (STEX__LIKELY(idx < b->buf_words)) {
                site_note(l, b, i, idx + b->race_off, STEX_RACE_ACCESS_WRITE);
                stex__store32(b->buf + idx * 4, v[i]);
                continue;
            }
            stex_lanes_enter(l, i);
            stex__buffer_store_b(l->inv, b, binding, idx, v[i]);
        }
        return;
    }
    EACH_LANE(l, i, {
        uint64_t idx = word_index(off, none, add, i);
        if (STEX__LIKELY(plain & (idx < b->buf_words))) {
            stex__store32(b->buf + idx * 4, v[i]);
            continue;
        }
        stex_lanes_enter(l, i);
        stex__buffer_store_b(l->inv, b, binding, idx, v[i]);
    });
}
