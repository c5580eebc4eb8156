/* The summary detector, for pipelines without barriers.
 *
 * There no two invocations of a dispatch are ordered, so two accesses to a
 * location race iff they come from different invocations, at least one
 * writes and they are not both atomic.  Per location and thread, a word
 * holds the only invocation (key + read / write bits) seen so far by that
 * thread - the common case, updated inline by the builtins - or SHARED;
 * shared locations keep, per access kind, the two smallest distinct keys
 * (a pair packed in 64 bits, CAS with threads).  Two smallest per kind
 * decide every race kind and give the smallest conflicting pair exactly (if
 * a party of the smallest pair were not among the two smallest of its kind,
 * a smaller key of that kind would make a smaller pair).  Everything is a
 * function of the set of accesses.  Memory: 4 bytes per location and
 * thread, + 16 (32 for buffers) per shared location, + 8 with
 * suppress_same_value, mapped lazily zeroed; words and pairs are kept for
 * the next dispatch (words_take).  After the dispatch one
 * parallel pass folds the threads' words, counts the races and details the
 * first ones, in report order by construction. */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "race/race_state.h"

static void *map_zeroed(size_t bytes, bool huge)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (huge && bytes >= (4u << 20))
        madvise(p, bytes, MADV_HUGEPAGE); /* fewer page faults for dense arrays */
#else
    (void)huge;
#endif
    return p;
}

/* The words and pairs of a dispatch are dense (the words of every touched
 * run are read at the end; difundir shares every location), and a fresh
 * mapping costs a page fault and a page clear per page - on a virtual
 * machine as much as the dispatch itself.  So mappings go back to a small
 * process-wide cache for the next dispatch instead of being unmapped.  The
 * cache keeps at most CACHE_SLOTS mappings and CACHE_BYTES in all (resident
 * memory kept between dispatches).
 *
 * Words are not cleared for the next dispatch: each mapping keeps `next`,
 * a bound on the keys written into it, and the next dispatch numbers its
 * keys from there (race_shadow_head.key_base), so an old word reads as
 * stale - untouched.  The scan clears only what would not read so: SHARED
 * words, and the words and pairs of the runs it screened.  A race-free
 * kernel's scan then reads the touch marks and nothing else.  next == 1:
 * the mapping is all zero (fresh, or pairs the scan cleared). */
enum { CACHE_SLOTS = 4 };
#define CACHE_BYTES ((size_t)1 << 30)
static struct { void *p; size_t bytes; uint32_t next; } word_cache[CACHE_SLOTS];
static pthread_mutex_t word_cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* A mapping of at least `bytes` (its size in *map) whose keys are all below
 * *next; `zero`: every byte zero (*next = 1). */
static void *words_take(size_t bytes, bool zero, size_t *map, uint32_t *next)
{
    void *p = NULL;
    pthread_mutex_lock(&word_cache_lock);
    int best = -1;
    for (int i = 0; i < CACHE_SLOTS; i++) /* the smallest that fits */
        if (word_cache[i].p && word_cache[i].bytes >= bytes && (!zero || word_cache[i].next == 1)
            && (best < 0 || word_cache[i].bytes < word_cache[best].bytes))
            best = i;
    if (best >= 0) {
        p = word_cache[best].p;
        *map = word_cache[best].bytes;
        *next = word_cache[best].next;
        word_cache[best].p = NULL;
    }
    pthread_mutex_unlock(&word_cache_lock);
    if (p)
        return p;
    *map = bytes;
    *next = 1;
    return map_zeroed(bytes, true);
}

/* The word sites (head.wsite) need no zeroing: a site is read only beside
 * a word of the running dispatch, which wrote it first.  So their mapping
 * is kept for the next dispatch too - one, in a cache of its own (a word
 * mapping must never hold sites). */
static struct { void *p; size_t bytes; } site_cache;

static void *sites_take(size_t bytes, size_t *map)
{
    void *p = NULL;
    pthread_mutex_lock(&word_cache_lock);
    if (site_cache.p && site_cache.bytes >= bytes) {
        p = site_cache.p;
        *map = site_cache.bytes;
        site_cache.p = NULL;
    }
    pthread_mutex_unlock(&word_cache_lock);
    if (p)
        return p;
    *map = bytes;
    return map_zeroed(bytes, true);
}

static void sites_give(void *p, size_t map)
{
    if (!p)
        return;
    pthread_mutex_lock(&word_cache_lock);
    if (!site_cache.p && map <= CACHE_BYTES) {
        site_cache.p = p;
        site_cache.bytes = map;
        p = NULL;
    }
    pthread_mutex_unlock(&word_cache_lock);
    if (p)
        munmap(p, map);
}

void stex_race_release_memory(void)
{
    pthread_mutex_lock(&word_cache_lock);
    for (int i = 0; i < CACHE_SLOTS; i++)
        if (word_cache[i].p) {
            munmap(word_cache[i].p, word_cache[i].bytes);
            word_cache[i].p = NULL;
        }
    if (site_cache.p) {
        munmap(site_cache.p, site_cache.bytes);
        site_cache.p = NULL;
    }
    pthread_mutex_unlock(&word_cache_lock);
}

/* Gives back a mapping; `clean`: every key in it is below `next` and no
 * word is SHARED (next == 1: every byte is zero). */
static void words_give(void *p, size_t map, bool clean, uint32_t next)
{
    if (!p)
        return;
    if (clean) {
        pthread_mutex_lock(&word_cache_lock);
        size_t total = map;
        int slot = -1;
        for (int i = 0; i < CACHE_SLOTS; i++) {
            total += word_cache[i].p ? word_cache[i].bytes : 0;
            if (!word_cache[i].p && slot < 0)
                slot = i;
        }
        if (slot >= 0 && total <= CACHE_BYTES) {
            word_cache[slot].p = p;
            word_cache[slot].bytes = map;
            word_cache[slot].next = next;
            p = NULL;
        }
        pthread_mutex_unlock(&word_cache_lock);
    }
    if (p)
        munmap(p, map);
}

static size_t loc_count(const struct race_shadow *s) { return (size_t)(s->h.count ? s->h.count : 1); }
static size_t word_bytes(const struct race_shadow *s) { return loc_count(s) * 4 * s->h.nthreads; }
static size_t pair_bytes(const struct race_shadow *s) { return loc_count(s) * 8 * s->h.stride; }
static size_t value_bytes(const struct race_shadow *s) { return loc_count(s) * 8; }

bool summary_shadow_alloc(struct race_shadow *s, bool atomics, bool values, uint32_t threads,
                          bool sites)
{
    s->h.mt = threads > 1;
    s->h.nthreads = threads ? threads : 1;
    s->h.stride = atomics ? 4 : 2;
    s->h.word_clean = false;
    s->h.runs = (loc_count(s) + RACE_RUN - 1) >> RACE_RUN_SHIFT;
    if (!(s->h.touch = calloc(2 * s->h.nthreads * s->h.runs, sizeof *s->h.touch)))
        return false;
    s->h.mixed = s->h.touch + s->h.nthreads * s->h.runs;
    uint32_t zero_next;
    s->h.word_clean = false;
    if (!(s->h.word = words_take(word_bytes(s), false, &s->h.word_map, &s->h.key_next))
        || !(s->h.pairs = words_take(pair_bytes(s), true, &s->h.pair_map, &zero_next))
        || (values && !(s->h.value = map_zeroed(value_bytes(s), true))))
        return false;
    if (sites) {
        s->h.psite_map = pair_bytes(s);
        if (!(s->h.wsite = sites_take(word_bytes(s) * 2, &s->h.wsite_map))
            || !(s->h.psite = map_zeroed(s->h.psite_map, true)))
            return false;
    }
    s->h.key_base = s->h.key_next;
    return true;
}

/* The dispatch's keys: key_base + linear index, key_base >= every shadow's
 * key_next; where the keys would not fit below RACE_KEY_LIMIT, the words
 * are cleared and numbering restarts at 1.  total: invocations. */
static _Atomic uint32_t key_limit_test; /* race_summary_key_limit */

void race_summary_key_limit(uint32_t limit) { key_limit_test = limit; }

uint32_t summary_key_base(struct race_shadow **shadows, uint32_t n, uint64_t total)
{
    uint32_t base = 1, limit = key_limit_test ? key_limit_test : RACE_KEY_LIMIT;
    for (uint32_t k = 0; k < n; k++)
        if (shadows[k]->h.key_next > base)
            base = shadows[k]->h.key_next;
    if ((uint64_t)base - 1 + total >= (uint64_t)limit - 1) {
        for (uint32_t k = 0; k < n; k++)
            if (shadows[k]->h.key_next > 1) {
                memset(shadows[k]->h.word, 0, shadows[k]->h.word_map);
                shadows[k]->h.key_next = 1;
            }
        base = 1;
    }
    for (uint32_t k = 0; k < n; k++)
        shadows[k]->h.key_base = base;
    return base;
}

static uint64_t resident(const volatile void *p, size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t n = (bytes + (size_t)page - 1) / (size_t)page;
    unsigned char *v = malloc(n ? n : 1);
    uint64_t r = 0;
    if (v && mincore((void *)p, bytes, v) == 0)
        for (size_t i = 0; i < n; i++)
            r += v[i] & 1;
    free(v);
    return r * (uint64_t)page;
}

uint64_t summary_shadow_resident(const struct race_shadow *s)
{
    return resident(s->h.word, word_bytes(s)) + resident(s->h.pairs, pair_bytes(s))
           + (s->h.value ? resident(s->h.value, value_bytes(s)) : 0);
}

void summary_shadow_free(struct race_shadow *s, uint64_t invocations)
{
    words_give(s->h.word, s->h.word_map, s->h.word_clean,
               (uint32_t)(s->h.key_base + invocations));
    words_give((void *)s->h.pairs, s->h.pair_map, s->h.word_clean, 1);
    free(s->h.touch);
    s->h.touch = s->h.mixed = NULL;
    if (s->h.value)
        munmap((void *)s->h.value, value_bytes(s));
    s->h.word = NULL;
    s->h.pairs = s->h.value = NULL;
    sites_give(s->h.wsite, s->h.wsite_map);
    if (s->h.psite)
        munmap(s->h.psite, s->h.psite_map);
    s->h.wsite = s->h.psite = NULL;
}

/* race_pair_insert with the keys' sites (a's << 32 | b's in *ps), under the
 * location's lock when threads share the pairs: the keys are
 * race_pair_insert's, each key's site the smallest of its accesses. */
static void pair_insert_site(race_shadow_head *s, uint64_t loc, int acc, uint32_t k,
                             uint32_t site, bool mt)
{
    _Atomic uint64_t *p = s->pairs + (uint64_t)s->stride * loc + acc;
    uint64_t *ps = s->psite + (uint64_t)s->stride * loc + acc;
    atomic_flag *lock = mt ? &s->locks[(loc * 31 + (uint64_t)acc) & 4095] : NULL;
    if (lock)
        while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
            ;
    uint64_t old = atomic_load_explicit(p, memory_order_relaxed);
    uint32_t a = (uint32_t)(old >> 32), b = (uint32_t)old;
    uint32_t sa = (uint32_t)(*ps >> 32), sb = (uint32_t)*ps;
    if (!a) {
        a = k;
        sa = site;
    } else if (k == a)
        sa = site_min(sa, site);
    else if (k == b)
        sb = site_min(sb, site);
    else if (k < a) {
        b = a;
        sb = sa;
        a = k;
        sa = site;
    } else if (!b || k < b) {
        b = k;
        sb = site;
    }
    atomic_store_explicit(p, ((uint64_t)a << 32) | b, memory_order_relaxed);
    *ps = ((uint64_t)sa << 32) | sb;
    if (lock)
        atomic_flag_clear_explicit(lock, memory_order_release);
}

void race_note_site(race_shadow_head *s, uint32_t tid, uint64_t loc, uint32_t key,
                    stex_race_access acc)
{
    uint32_t site = s->thread_site[tid];
    uint32_t *wp = s->word + (uint64_t)tid * s->count + loc;
    uint64_t *sp = s->wsite + (uint64_t)tid * s->count + loc;
    uint32_t w = *wp;
    if (w == RACE_WORD_SHARED) {
        pair_insert_site(s, loc, acc, key, site, s->mt);
        return;
    }
    if ((w & RACE_WORD_KEY) < s->key_base)
        w = 0; /* stale: an earlier dispatch's */
    s->touch[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
    if (acc >= STEX_RACE_ACCESS_ATOMIC_READ || (w && (w & RACE_WORD_KEY) != key)) {
        s->mixed[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
        pair_insert_site(s, loc, acc, key, site, s->mt);
        if (w & RACE_WORD_READ)
            pair_insert_site(s, loc, STEX_RACE_ACCESS_READ, w & RACE_WORD_KEY,
                             (uint32_t)(*sp >> 32), s->mt);
        if (w & RACE_WORD_WRITE)
            pair_insert_site(s, loc, STEX_RACE_ACCESS_WRITE, w & RACE_WORD_KEY, (uint32_t)*sp,
                             s->mt);
        *wp = RACE_WORD_SHARED;
        return;
    }
    uint64_t old = w ? *sp : 0; /* a fresh word: its sites start here */
    uint32_t rs = (uint32_t)(old >> 32), ws = (uint32_t)old;
    if (acc == STEX_RACE_ACCESS_WRITE)
        ws = site_min(ws, site);
    else
        rs = site_min(rs, site);
    *sp = ((uint64_t)rs << 32) | ws;
    *wp = w | key | (acc == STEX_RACE_ACCESS_WRITE ? RACE_WORD_WRITE : RACE_WORD_READ);
}

bool race_note_site_8x8_scalar(race_shadow_head *s, uint32_t tid, uint64_t first,
                               uint64_t stride, uint32_t key0, stex_race_access acc)
{
    if (acc >= STEX_RACE_ACCESS_ATOMIC_READ || first + stride * 7 + 8 > s->count)
        return false;
    uint32_t *w0 = s->word + (uint64_t)tid * s->count + first;
    uint64_t *s0 = s->wsite + (uint64_t)tid * s->count + first;
    uint32_t base = s->key_base, bad = 0;
    for (uint32_t ly = 0; ly < 8; ly++)
        for (uint32_t lx = 0; lx < 8; lx++) {
            /* a shared word's key bits are all ones: never a key */
            uint32_t kw = w0[stride * ly + lx] & RACE_WORD_KEY, key = key0 + 8 * ly + lx;
            bad |= (kw >= base) & (kw != key);
        }
    if (bad)
        return false;
    uint32_t site = s->thread_site[tid], bit = acc == STEX_RACE_ACCESS_WRITE ? RACE_WORD_WRITE
                                                                            : RACE_WORD_READ;
    int shift = acc == STEX_RACE_ACCESS_WRITE ? 0 : 32; /* the site's half */
    for (uint32_t ly = 0; ly < 8; ly++) {
        uint32_t *wp = w0 + stride * ly;
        uint64_t *sp = s0 + stride * ly;
        for (uint32_t lx = 0; lx < 8; lx++) {
            uint32_t w = wp[lx], fresh = (w & RACE_WORD_KEY) < base;
            uint64_t old = fresh ? 0 : sp[lx];
            uint32_t m = (uint32_t)(old >> shift);
            m = site_min(m, site);
            sp[lx] = (old & ~((uint64_t)UINT32_MAX << shift)) | (uint64_t)m << shift;
            wp[lx] = (fresh ? 0 : w) | (key0 + 8 * ly + lx) | bit;
        }
        uint64_t loc = first + stride * ly;
        s->touch[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
        s->touch[tid * s->runs + ((loc + 7) >> RACE_RUN_SHIFT)] = 1;
    }
    return true;
}


#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* The scalar form's steps on eight locations (a row) per vector: keys and
 * words below 2^31 compare as signed; sites are 32-bit halves of 64-bit
 * lanes, their "smaller known" min(m - 1, site - 1) + 1 taken with 64-bit
 * compares of the 32-bit values. */
__attribute__((target("avx2"))) static bool note_8x8_avx2(race_shadow_head *s, uint32_t tid,
                                                          uint64_t first, uint64_t stride,
                                                          uint32_t key0, stex_race_access acc)
{
    if (acc >= STEX_RACE_ACCESS_ATOMIC_READ || first + stride * 7 + 8 > s->count)
        return false;
    uint32_t *w0 = s->word + (uint64_t)tid * s->count + first;
    uint64_t *s0 = s->wsite + (uint64_t)tid * s->count + first;
    const __m256i mask = _mm256_set1_epi32((int)RACE_WORD_KEY);
    const __m256i base1 = _mm256_set1_epi32((int)s->key_base - 1);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i bad = _mm256_setzero_si256();
    for (uint32_t ly = 0; ly < 8; ly++) {
        __m256i kw = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(w0 + stride * ly)), mask);
        __m256i key = _mm256_add_epi32(_mm256_set1_epi32((int)(key0 + 8 * ly)), lane);
        bad = _mm256_or_si256(bad, _mm256_andnot_si256(_mm256_cmpeq_epi32(kw, key),
                                                       _mm256_cmpgt_epi32(kw, base1)));
    }
    if (!_mm256_testz_si256(bad, bad))
        return false;
    uint32_t site = s->thread_site[tid];
    int write = acc == STEX_RACE_ACCESS_WRITE;
    const __m256i bit = _mm256_set1_epi32((int)(write ? RACE_WORD_WRITE : RACE_WORD_READ));
    const __m256i low = _mm256_set1_epi64x(UINT32_MAX);
    const __m256i t = _mm256_set1_epi64x((long long)(uint32_t)(site - 1u));
    for (uint32_t ly = 0; ly < 8; ly++) {
        uint32_t *wp = w0 + stride * ly;
        uint64_t *sp = s0 + stride * ly;
        __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)wp);
        __m256i keep = _mm256_cmpgt_epi32(_mm256_and_si256(w, mask), base1); /* not stale */
        __m256i key = _mm256_add_epi32(_mm256_set1_epi32((int)(key0 + 8 * ly)), lane);
        _mm256_storeu_si256((__m256i *)(void *)wp,
                            _mm256_or_si256(_mm256_or_si256(_mm256_and_si256(w, keep), key), bit));
        for (int half = 0; half < 2; half++) {
            __m256i k64 = _mm256_cvtepi32_epi64(half ? _mm256_extracti128_si256(keep, 1)
                                                     : _mm256_castsi256_si128(keep));
            __m256i old = _mm256_and_si256(
                _mm256_loadu_si256((const __m256i *)(const void *)(sp + 4 * half)), k64);
            __m256i m = write ? _mm256_and_si256(old, low) : _mm256_srli_epi64(old, 32);
            m = _mm256_and_si256(_mm256_sub_epi64(m, _mm256_set1_epi64x(1)), low);
            m = _mm256_blendv_epi8(m, t, _mm256_cmpgt_epi64(m, t));
            m = _mm256_and_si256(_mm256_add_epi64(m, _mm256_set1_epi64x(1)), low);
            __m256i v = write ? _mm256_or_si256(_mm256_andnot_si256(low, old), m)
                              : _mm256_or_si256(_mm256_and_si256(old, low), _mm256_slli_epi64(m, 32));
            _mm256_storeu_si256((__m256i *)(void *)(sp + 4 * half), v);
        }
        uint64_t loc = first + stride * ly;
        s->touch[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
        s->touch[tid * s->runs + ((loc + 7) >> RACE_RUN_SHIFT)] = 1;
    }
    return true;
}
#endif

bool race_note_site_8x8(race_shadow_head *s, uint32_t tid, uint64_t first, uint64_t stride,
                        uint32_t key0, stex_race_access acc)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (__builtin_cpu_supports("avx2")) /* a read of the CPU model filled once */
        return note_8x8_avx2(s, tid, first, stride, key0, acc);
#endif
    return race_note_site_8x8_scalar(s, tid, first, stride, key0, acc);
}

void race_share(race_shadow_head *s, uint32_t tid, uint64_t loc, uint32_t w, uint32_t key,
                stex_race_access acc)
{
    _Atomic uint64_t *p = s->pairs + (uint64_t)s->stride * loc;
    s->mixed[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
    race_pair_insert(p + acc, key, s->mt);
    if (w == RACE_WORD_SHARED)
        return;
    if (w & RACE_WORD_READ)
        race_pair_insert(p + STEX_RACE_ACCESS_READ, w & RACE_WORD_KEY, s->mt);
    if (w & RACE_WORD_WRITE)
        race_pair_insert(p + STEX_RACE_ACCESS_WRITE, w & RACE_WORD_KEY, s->mt);
    s->word[(uint64_t)tid * s->count + loc] = RACE_WORD_SHARED;
}

/* ---- the verdict ---- */

static inline uint32_t pa(uint64_t p) { return (uint32_t)(p >> 32); }
static inline uint32_t pb(uint64_t p) { return (uint32_t)p; }

/* Do sets X and Y hold two different keys, one from each? */
static inline bool distinct(uint64_t x, uint64_t y)
{
    return pa(x) && pa(y) && (pb(x) || pb(y) || pa(x) != pa(y));
}

typedef struct verdict_in {
    uint64_t r, w, ar, aw;
    bool suppress_ww;
} verdict_in;

/* Which race kinds the location has: bit STEX_RACE_WRITE_WRITE, bit STEX_RACE_READ_WRITE. */
static inline unsigned verdict(const verdict_in *v)
{
    unsigned k = 0;
    if ((pb(v->w) && !v->suppress_ww) || distinct(v->w, v->aw))
        k |= 1u << STEX_RACE_WRITE_WRITE;
    if (distinct(v->r, v->w) || distinct(v->r, v->aw) || distinct(v->ar, v->w))
        k |= 1u << STEX_RACE_READ_WRITE;
    return k;
}

/* Summary key (key_base + linear index) -> the full detector's key (workgroup, local index). */
static uint64_t full_key(uint32_t k, const struct race_dispatch *d)
{
    if (!k)
        return 0;
    uint64_t i = (uint64_t)k - d->key_base;
    return acc_key(i / d->invocations, (uint32_t)(i % d->invocations), d->lid_bits);
}

/* The location's races, one per kind found, into out[]; returns how many. */
static size_t detail(const verdict_in *v, const uint64_t ps[ACC_KINDS],
                     const struct race_dispatch *d, uint32_t shadow, uint64_t loc,
                     race_cand out[STEX_RACE_KIND_COUNT])
{
    size_t n = 0;
    uint64_t slot[ACC_KINDS][2];
    uint32_t site[ACC_KINDS][2];
    const uint64_t p[ACC_KINDS] = {v->r, v->w, v->ar, v->aw};
    for (int k = 0; k < ACC_KINDS; k++) {
        slot[k][0] = full_key(pa(p[k]), d);
        slot[k][1] = full_key(pb(p[k]), d);
        site[k][0] = (uint32_t)(ps[k] >> 32);
        site[k][1] = (uint32_t)ps[k];
    }
    pair_pick pk;
    judge_slots((const uint64_t(*)[2])slot, 0, v->suppress_ww, &pk);
    for (int rk = 0; rk < STEX_RACE_KIND_COUNT; rk++)
        if (pk.found[rk]) {
            race_cand c = {shadow, 0, loc, (uint8_t)rk,
                           key_wg(pk.a[rk], d->lid_bits) == key_wg(pk.b[rk], d->lid_bits), pk.acc_a[rk], pk.acc_b[rk], 1, 0,
                           pk.a[rk], pk.b[rk],
                           slot_site((const uint64_t(*)[2])slot, (const uint32_t(*)[2])site,
                                     pk.acc_a[rk], pk.a[rk]),
                           slot_site((const uint64_t(*)[2])slot, (const uint32_t(*)[2])site,
                                     pk.acc_b[rk], pk.b[rk])};
            out[n++] = c;
        }
    return n;
}

enum { BLOCK = 1u << 16 }; /* locations per unit of the parallel pass */

typedef struct block_out {
    uint64_t count[STEX_RACE_KIND_COUNT];
    cand_vec c;
    group_vec g;  /* every race of the block, grouped */
} block_out;

/* A location the screen flagged (two keys, or a shared word): fold the
 * threads' single words into the pairs, judge, count, detail. */
static void judge_location(const struct race_shadow *s, uint64_t i, bool suppress,
                           const struct race_dispatch *d, size_t room, block_out *o)
{
    const uint32_t *word = s->h.word;
    uint32_t nt = s->h.nthreads;
    _Atomic uint64_t *p = s->h.pairs + (uint64_t)s->h.stride * i;
    verdict_in v;
    v.r = atomic_load_explicit(&p[0], memory_order_relaxed);
    v.w = atomic_load_explicit(&p[1], memory_order_relaxed);
    for (uint32_t t = 0; t < nt; t++) { /* fold the single words in (blocks are disjoint) */
        uint32_t w = word[(uint64_t)t * s->h.count + i];
        if ((w & RACE_WORD_KEY) >= s->h.key_base && w != RACE_WORD_SHARED) { /* not stale */
            if (s->h.wsite) {
                race_shadow_head *h = (race_shadow_head *)&s->h;
                uint64_t st = s->h.wsite[(uint64_t)t * s->h.count + i];
                if (w & RACE_WORD_READ)
                    pair_insert_site(h, i, STEX_RACE_ACCESS_READ, w & RACE_WORD_KEY,
                                     (uint32_t)(st >> 32), false);
                if (w & RACE_WORD_WRITE)
                    pair_insert_site(h, i, STEX_RACE_ACCESS_WRITE, w & RACE_WORD_KEY,
                                     (uint32_t)st, false);
                v.r = atomic_load_explicit(&p[0], memory_order_relaxed);
                v.w = atomic_load_explicit(&p[1], memory_order_relaxed);
                continue;
            }
            /* into the local copies only: the pairs are zeroed below */
            uint64_t k = (uint64_t)(w & RACE_WORD_KEY) << 32;
            if (w & RACE_WORD_READ)
                v.r = race_pair_join(v.r, k);
            if (w & RACE_WORD_WRITE)
                v.w = race_pair_join(v.w, k);
        }
    }
    uint64_t ps[ACC_KINDS] = {0};
    for (uint32_t k = 0; s->h.psite && k < s->h.stride; k++)
        ps[k] = s->h.psite[(uint64_t)s->h.stride * i + k];
    v.ar = s->h.stride > 2 ? atomic_load_explicit(&p[2], memory_order_relaxed) : 0;
    v.aw = s->h.stride > 2 ? atomic_load_explicit(&p[3], memory_order_relaxed) : 0;
    v.suppress_ww = suppress && s->h.value
                    && !(atomic_load_explicit(&s->h.value[i], memory_order_relaxed)
                         & RACE_VALUE_DIFFER);
    /* the only pairs written are those of the locations judged here: zero
     * again for the next dispatch (words_give) */
    atomic_store_explicit(&p[0], 0, memory_order_relaxed);
    atomic_store_explicit(&p[1], 0, memory_order_relaxed);
    if (s->h.stride > 2) {
        atomic_store_explicit(&p[2], 0, memory_order_relaxed);
        atomic_store_explicit(&p[3], 0, memory_order_relaxed);
    }
    unsigned k = verdict(&v);
    if (!k)
        return;
    for (int rk = 0; rk < STEX_RACE_KIND_COUNT; rk++)
        o->count[rk] += (k >> rk) & 1;
    race_cand c[STEX_RACE_KIND_COUNT];
    size_t n = detail(&v, ps, d, s->id, i, c);
    for (size_t j = 0; j < n; j++) {
        group_vec_fold(&o->g, &c[j], 1, c[j].same_wg);
        if (o->c.n < room)
            cand_push(&o->c, &c[j]);
    }
}

enum { RUN = RACE_RUN }; /* locations screened together: one run of the touch marks */

static void scan_block(const struct race_shadow *s, uint64_t lo, uint64_t hi, bool suppress,
                       const struct race_dispatch *d, size_t room, block_out *o)
{
    uint32_t *word = s->h.word;
    uint32_t nt = s->h.nthreads;
    uint32_t key[RUN];
    uint8_t shared[RUN];
    for (uint64_t r = lo; r < hi; r += RUN) {
        uint32_t n = hi - r < RUN ? (uint32_t)(hi - r) : RUN;
        uint64_t run = r >> RACE_RUN_SHIFT;
        uint32_t users = 0;
        uint64_t touched = 0; /* threads with accesses in the run (the first 64) */
        bool mixed = false;
        for (uint32_t t = 0; t < nt; t++) {
            if (s->h.touch[t * s->h.runs + run]) {
                users++;
                touched |= t < 64 ? 1ull << t : 0;
            }
            mixed |= s->h.mixed[t * s->h.runs + run] != 0;
        }
        if (users <= 1 && !mixed)
            continue; /* untouched, or one invocation per location: no race; the
                       * words stay, stale for the next dispatch (words_give) */
        /* The screen reads each thread's words as one stream, without branches:
         * one key everywhere (or none) means no race - the common case.  A
         * shared word's key part is RACE_WORD_KEY, never a real key; a stale
         * word's is below key_base and counts as none. */
        memset(key, 0, n * sizeof *key);
        memset(shared, 0, n);
        const uint32_t base = s->h.key_base;
        for (uint32_t t = 0; t < nt; t++) {
            /* a thread that did not touch the run has only stale words there:
             * not read (reading would map pages that later writes must copy) */
            if (t < 64 && !(touched >> t & 1))
                continue;
            const uint32_t *wt = word + (uint64_t)t * s->h.count + r;
            for (uint32_t j = 0; j < n; j++) {
                uint32_t w = wt[j], kw = w & RACE_WORD_KEY;
                kw = kw >= base ? kw : 0;
                shared[j] |= (w == RACE_WORD_SHARED)
                             | ((kw != 0) & (key[j] != 0) & (kw != key[j]));
                key[j] = kw ? kw : key[j];
            }
        }
        for (uint32_t j = 0; j < n; j++)
            if (shared[j])
                judge_location(s, r + j, suppress, d, room, o);
        for (uint32_t t = 0; t < nt; t++) /* clean for the next dispatch (words_give) */
            if (t >= 64 || touched >> t & 1)
                memset(word + (uint64_t)t * s->h.count + r, 0, n * sizeof *word);
    }
}

stex_status summary_dispatch_end(struct race_dispatch *d, cand_vec *details,
                                 uint64_t (*counts)[STEX_RACE_KIND_COUNT], group_vec *groups)
{
    bool suppress = stex_race_detector_options(d->rd)->suppress_same_value;
    size_t room = detector_room(d->rd);
    int threads = d->g.threads > 0 ? d->g.threads : 1;
    for (uint32_t k = 0; k < d->nshadows; k++) {
        struct race_shadow *s = d->shadows[k];
        uint64_t nblocks = (s->h.count + BLOCK - 1) / BLOCK;
        if (!nblocks)
            continue;
        block_out *bo = calloc(nblocks, sizeof *bo);
        if (!bo)
            return STEX_OUT_OF_MEMORY;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1 && nblocks > 1)
        for (uint64_t b = 0; b < nblocks; b++) {
            uint64_t hi = (b + 1) * BLOCK < s->h.count ? (b + 1) * BLOCK : s->h.count;
            scan_block(s, b * BLOCK, hi, suppress, d, room, &bo[b]);
        }
        /* blocks in location order: the first `room` details, every count */
        bool oom = false;
        for (uint64_t b = 0; b < nblocks; b++) {
            for (int rk = 0; rk < STEX_RACE_KIND_COUNT; rk++)
                counts[k][rk] += bo[b].count[rk];
            for (size_t i = 0; i < bo[b].c.n && details->n < room; i++)
                cand_push(details, &bo[b].c.v[i]);
            /* in block order: each group's first candidate stays its first */
            for (size_t i = 0; i < bo[b].g.n; i++)
                group_vec_fold(groups, &bo[b].g.v[i].ex, bo[b].g.v[i].count, bo[b].g.v[i].same);
            oom |= bo[b].c.oom || bo[b].g.oom;
            free(bo[b].c.v);
            free(bo[b].g.v);
        }
        free(bo);
        s->h.word_clean = true;
        if (oom || details->oom || groups->oom)
            return STEX_OUT_OF_MEMORY;
    }
    return STEX_OK;
}
