/*
 * shader/window.c - textureLoad's window (see window.h).
 */
#include "shader/window.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define WINDOW_AVX2 1
#else
#define WINDOW_AVX2 0
#endif

/* Texels around the lanes' rectangle that a fill copies too: an image
 * filter's later loads are the first one's shifted by a texel or two. */
#define MARGIN 2u

static bool inside(const stex_window *win, const uint32_t box[4])
{
    return box[0] >= win->x0 && box[1] - win->x0 < win->w && box[2] >= win->y0
           && box[3] - win->y0 < win->h;
}

/* Texels i0.. of row `row` (w of them) decoded into the planes at c + at. */
static void fill_row_scalar(const float *t, const uint8_t *row, const uint64_t *col, uint32_t i0,
                            uint32_t w, float *const c[4], uint32_t at)
{
    for (uint32_t i = i0; i < w; i++) {
        const uint8_t *p = row + col[i];
        for (int k = 0; k < 4; k++)
            c[k][at + i] = t[p[k]];
    }
}

/* Copies the rectangle, decoding each texel through the profile's value
 * of each code (b->u8_value: the very table the other loads use). */
static void fill(stex_window *win, const stex_fast_binding *b, uint32_t x0, uint32_t y0,
                 uint32_t w, uint32_t h)
{
    const float *t = b->u8_value;
    const uint64_t *col = b->col + x0;
    float *const c[4] = {win->c[0], win->c[1], win->c[2], win->c[3]};
    /* scalar: on some CPUs (AMD Zen 4) AVX2 gathers of the texels and of
     * their values were measured slower than these loads */
    for (uint32_t j = 0; j < h; j++)
        fill_row_scalar(t, b->memory + b->row[y0 + j], col, 0, w, c, j * w);
    win->memory = b->memory;
    win->x0 = x0, win->y0 = y0, win->w = w, win->h = h;
}

/* box = the lanes' smallest and largest x and y (xmin, xmax, ymin, ymax);
 * true if every 8 lanes are a row: consecutive x on one y. */
static bool bounds_scalar(const uint32_t *x, const uint32_t *y, uint32_t n, uint32_t box[4])
{
    bool rows = n % 8 == 0;
    for (uint32_t i = 0; i < n; i++) {
        box[0] = x[i] < box[0] ? x[i] : box[0];
        box[1] = x[i] > box[1] ? x[i] : box[1];
        box[2] = y[i] < box[2] ? y[i] : box[2];
        box[3] = y[i] > box[3] ? y[i] : box[3];
        rows &= (x[i] == x[i & ~7u] + (i & 7u)) & (y[i] == y[i & ~7u]);
    }
    return rows;
}

#if WINDOW_AVX2
__attribute__((target("avx2"))) static uint32_t hmin(__m256i v)
{
    __m128i m = _mm_min_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    m = _mm_min_epu32(m, _mm_shuffle_epi32(m, 0x4e));
    return (uint32_t)_mm_cvtsi128_si32(_mm_min_epu32(m, _mm_shuffle_epi32(m, 0xb1)));
}

__attribute__((target("avx2"))) static uint32_t hmax(__m256i v)
{
    __m128i m = _mm_max_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    m = _mm_max_epu32(m, _mm_shuffle_epi32(m, 0x4e));
    return (uint32_t)_mm_cvtsi128_si32(_mm_max_epu32(m, _mm_shuffle_epi32(m, 0xb1)));
}

__attribute__((target("avx2"))) static bool bounds_avx2(const uint32_t *x, const uint32_t *y,
                                                        uint32_t n, uint32_t box[4])
{
    const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i x0 = _mm256_set1_epi32(-1), x1 = _mm256_setzero_si256(), y0 = x0, y1 = x1;
    __m256i rows = _mm256_set1_epi32(-1);
    uint32_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
        __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)(y + i));
        x0 = _mm256_min_epu32(x0, xv), x1 = _mm256_max_epu32(x1, xv);
        y0 = _mm256_min_epu32(y0, yv), y1 = _mm256_max_epu32(y1, yv);
        __m256i want = _mm256_add_epi32(_mm256_set1_epi32((int)x[i]), step);
        rows = _mm256_and_si256(rows, _mm256_and_si256(_mm256_cmpeq_epi32(xv, want),
                                                       _mm256_cmpeq_epi32(yv, _mm256_set1_epi32((int)y[i]))));
    }
    box[0] = hmin(x0), box[1] = hmax(x1), box[2] = hmin(y0), box[3] = hmax(y1);
    bool tail = bounds_scalar(x + i, y + i, n - i, box);
    return i == n && tail && _mm256_movemask_ps(_mm256_castsi256_ps(rows)) == 0xff;
}
#endif

static bool bounds(const uint32_t *x, const uint32_t *y, uint32_t n, uint32_t box[4])
{
    box[0] = box[2] = UINT32_MAX, box[1] = box[3] = 0;
#if WINDOW_AVX2
    if (__builtin_cpu_supports("avx2")) /* a read of the CPU model filled once */
        return bounds_avx2(x, y, n, box);
#endif
    return bounds_scalar(x, y, n, box);
}

const stex_window *stex__window_for(stex_windows **ws, const stex_fast_binding *b,
                                    const uint32_t *x, const uint32_t *y, uint32_t n, bool *rows)
{
    uint32_t box[4];
    *rows = bounds(x, y, n, box);
    if (!n || box[1] >= b->w || box[3] >= b->h)
        return NULL; /* a lane out of bounds: the caller's rules */
    stex_windows *s = *ws;
    uint32_t k = STEX__WINDOWS;
    for (uint32_t j = 0; s && j < STEX__WINDOWS; j++) {
        if (s->win[j].memory != b->memory)
            continue;
        if (inside(&s->win[j], box))
            return &s->win[j];
        k = j; /* this texture's window, elsewhere: moved below if worth it */
    }
    /* the rectangle grown by the margin, within the level */
    uint32_t x0 = box[0] > MARGIN ? box[0] - MARGIN : 0, y0 = box[2] > MARGIN ? box[2] - MARGIN : 0;
    uint64_t x1 = (uint64_t)box[1] + MARGIN + 1, y1 = (uint64_t)box[3] + MARGIN + 1;
    uint32_t w = (uint32_t)((x1 < b->w ? x1 : b->w) - x0);
    uint32_t h = (uint32_t)((y1 < b->h ? y1 : b->h) - y0);
    /* worth it when the rectangle is not much larger than the lanes: a
     * neighbourhood, not scattered loads */
    uint64_t area = (uint64_t)w * h;
    if (area > STEX__WINDOW_TEXELS || area > 6u * (n > 16 ? n : 16))
        return NULL;
    if (!s && !(s = *ws = calloc(1, sizeof *s)))
        return NULL;
    if (k == STEX__WINDOWS)
        k = (s->last + 1) % STEX__WINDOWS;
    s->last = k;
    fill(&s->win[k], b, x0, y0, w, h);
    return &s->win[k];
}

#if WINDOW_AVX2
__attribute__((target("avx2"))) static void rows_avx2(const stex_window *win, const uint32_t *x,
                                                      const uint32_t *y, uint32_t n,
                                                      float *const o[4])
{
    const uint32_t x0 = win->x0, y0 = win->y0, w = win->w;
    for (uint32_t i = 0; i < n; i += 8) {
        uint32_t at = (y[i] - y0) * w + (x[i] - x0);
        __m256 v0 = _mm256_loadu_ps(win->c[0] + at), v1 = _mm256_loadu_ps(win->c[1] + at);
        __m256 v2 = _mm256_loadu_ps(win->c[2] + at), v3 = _mm256_loadu_ps(win->c[3] + at);
        _mm256_storeu_ps(o[0] + i, v0), _mm256_storeu_ps(o[1] + i, v1);
        _mm256_storeu_ps(o[2] + i, v2), _mm256_storeu_ps(o[3] + i, v3);
    }
}
#endif

void stex__window_read(const stex_window *win, const uint32_t *x, const uint32_t *y, uint32_t n,
                       bool rows, uint32_t *const out[4])
{
    /* out may be x's or y's registers: each lane's (or row's) coordinates
     * are read before its outputs are written */
    const uint32_t x0 = win->x0, y0 = win->y0, w = win->w;
    float *const o[4] = {(float *)(void *)out[0], (float *)(void *)out[1],
                         (float *)(void *)out[2], (float *)(void *)out[3]};
    if (rows) { /* 8 consecutive floats of each plane per 8 lanes */
#if WINDOW_AVX2
        if (__builtin_cpu_supports("avx2")) {
            rows_avx2(win, x, y, n, o);
            return;
        }
#endif
        for (uint32_t i = 0; i < n; i += 8) {
            uint32_t at = (y[i] - y0) * w + (x[i] - x0);
            float v[4][8];
            for (int k = 0; k < 4; k++)
                memcpy(v[k], win->c[k] + at, sizeof v[k]);
            for (int k = 0; k < 4; k++)
                memcpy(o[k] + i, v[k], sizeof v[k]);
        }
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (y[i] - y0) * w + (x[i] - x0);
        float v[4] = {win->c[0][at], win->c[1][at], win->c[2][at], win->c[3][at]};
        for (int k = 0; k < 4; k++)
            memcpy(o[k] + i, &v[k], sizeof v[k]);
    }
}

/* Row r's place in win (*at) if its 8 lanes are consecutive x on one y
 * inside win; a row that is not gives false. */
static bool row_at(const stex_window *win, const uint32_t *x, const uint32_t *y, uint32_t *at)
{
    uint32_t dx = x[0] - win->x0, dy = y[0] - win->y0;
    if (win->w < 8 || dx > win->w - 8 || dy >= win->h)
        return false;
    *at = dy * win->w + dx;
    return true;
}

#if WINDOW_AVX2
/* Are the 8n lanes rows of 8 consecutive x on one y? */
__attribute__((target("avx2"))) static bool rows_of_8_avx2(const uint32_t *x, const uint32_t *y,
                                                           uint32_t n)
{
    const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i ok = _mm256_set1_epi32(-1);
    for (uint32_t i = 0; i < n; i += 8) {
        __m256i xv = _mm256_loadu_si256((const __m256i *)(const void *)(x + i));
        __m256i yv = _mm256_loadu_si256((const __m256i *)(const void *)(y + i));
        __m256i want = _mm256_add_epi32(_mm256_set1_epi32((int)x[i]), step);
        ok = _mm256_and_si256(ok, _mm256_and_si256(_mm256_cmpeq_epi32(xv, want),
                                                   _mm256_cmpeq_epi32(yv, _mm256_set1_epi32((int)y[i]))));
    }
    return _mm256_movemask_ps(_mm256_castsi256_ps(ok)) == 0xff;
}
#endif

#if WINDOW_AVX2
/* Row r of each plane, 8 floats from win's plane at at[r], to out[k] + 8r. */
__attribute__((target("avx2"))) static void copy_rows_avx2(const stex_window *win,
                                                           const uint32_t *at, uint32_t rows,
                                                           uint32_t *const out[4])
{
    float *o0 = (float *)(void *)out[0], *o1 = (float *)(void *)out[1];
    float *o2 = (float *)(void *)out[2], *o3 = (float *)(void *)out[3];
    for (uint32_t r = 0; r < rows; r++) {
        __m256 v0 = _mm256_loadu_ps(win->c[0] + at[r]), v1 = _mm256_loadu_ps(win->c[1] + at[r]);
        __m256 v2 = _mm256_loadu_ps(win->c[2] + at[r]), v3 = _mm256_loadu_ps(win->c[3] + at[r]);
        _mm256_storeu_ps(o0 + 8 * r, v0), _mm256_storeu_ps(o1 + 8 * r, v1);
        _mm256_storeu_ps(o2 + 8 * r, v2), _mm256_storeu_ps(o3 + 8 * r, v3);
    }
}
#endif

static bool rows_of_8(const uint32_t *x, const uint32_t *y, uint32_t n)
{
#if WINDOW_AVX2
    if (__builtin_cpu_supports("avx2"))
        return rows_of_8_avx2(x, y, n);
#endif
    bool rows = true;
    for (uint32_t i = 0; i < n; i++)
        rows &= (x[i] == x[i & ~7u] + (i & 7u)) & (y[i] == y[i & ~7u]);
    return rows;
}

bool stex__window_read_rows(const stex_windows *ws, const stex_fast_binding *b,
                            const uint32_t *x, const uint32_t *y, uint32_t n,
                            uint32_t *const out[4])
{
    if (!ws || !n || n % 8 || n > 64)
        return false;
    for (uint32_t j = 0; j < STEX__WINDOWS; j++) {
        const stex_window *win = &ws->win[j];
        if (win->memory != b->memory)
            continue;
        uint32_t at[8], r = 0;
        while (r < n / 8 && row_at(win, x + 8 * r, y + 8 * r, &at[r]))
            r++;
        if (r < n / 8)
            continue; /* the texture's other window may hold it */
        if (!rows_of_8(x, y, n))
            return false;
        /* every row checked first: out may be the coordinates' registers */
#if WINDOW_AVX2
        if (__builtin_cpu_supports("avx2")) {
            copy_rows_avx2(win, at, n / 8, out);
            return true;
        }
#endif
        for (r = 0; r < n / 8; r++)
            for (int k = 0; k < 4; k++)
                memcpy(out[k] + 8 * r, win->c[k] + at[r], 8 * sizeof(float));
        return true;
    }
    return false;
}
