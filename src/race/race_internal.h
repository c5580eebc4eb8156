/* Internal: the hooks the builtins and the dispatch call when race detection is on. */
#ifndef STEX_RACE_INTERNAL_H
#define STEX_RACE_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/race.h"

struct race_dispatch;
struct race_thread;
struct race_shadow;

/* Race summary word bits, set by the builtins' inline path too (shader/fast.h). */
#define STEX__RACE_READ (1u << 30)
#define STEX__RACE_WRITE (1u << 31)
#define STEX__RACE_KEY (STEX__RACE_READ - 1)
#define STEX__RACE_RUN_SHIFT 10 /* locations per run of the race_touch marks: 1024 */

/* What the detector needs to know of a dispatch. */
typedef struct race_geometry {
    uint32_t num_wg[3], wg_size[3], wg_invocations;
    uint64_t total_wg;
    uint32_t wg_memory_size;    /* bytes of var<workgroup> */
    int threads;                /* OpenMP threads that record */
    bool barriers;              /* the pipeline has barriers: the full detector */
    /* The executor's access sites (race_thread_site): writes site's
     * "file:line:col" into buf (false: unknown).  Set (the WGSL
     * interpreter): the full detector records a site beside each key it
     * keeps; NULL (C kernels): no sites. */
    bool (*site_name)(void *user, uint32_t site, char *buf, size_t size);
    /* The executor's names of memory locations (phase_executor's, with
     * site_user): byte `byte` of binding `ref` (a buffer: from the start of
     * the bound range), of var<workgroup> memory, or a storage texture's
     * variable, in the shader's terms ("data[17]", "part[1]", "img");
     * NULL or false: the report gives binding and word. */
    bool (*location_name)(void *user, stex_race_memory m, uint32_t ref, uint64_t byte,
                          char *buf, size_t size);
    void *site_user;
} race_geometry;

/* A dispatch's detector state.  Then race_dispatch_shadow for every
 * writable binding (the caller walks its bindings), then race_dispatch_ready. */
stex_status race_dispatch_begin(stex_race_detector *rd, const race_geometry *g,
                                struct race_dispatch **out);
/* The shadow of a texture mip (w x h x layers locations) or a buffer (w words,
 * h = 1), keyed by the resource: views of the same memory share one, whose
 * reports name the lowest binding reference `ref`.  The binding covers
 * locations first .. first + span - 1 of it (a buffer's bound range: a
 * race's element is named from the start of the binding that covers it).
 * NULL: out of memory. */
struct race_shadow *race_dispatch_shadow(struct race_dispatch *d, stex_race_memory m,
                                         uint32_t ref, const void *key, uint32_t mip,
                                         uint64_t w, uint64_t h, uint64_t count,
                                         uint64_t first, uint64_t span);
/* The summary words of a shadow (race_dispatch_summary only). */
struct race_shadow_head;
const struct race_shadow_head *race_shadow_summary(const struct race_shadow *s);
/* Every shadow is known: fixes the report order (and the summary keys). */
void race_dispatch_ready(struct race_dispatch *d);
/* Summary mode: the key of the dispatch's first invocation (keys are this
 * + linear invocation index; >= 1, see race_shadow_head.key_base). */
uint32_t race_dispatch_key_base(const struct race_dispatch *d);
/* Tests: numbering restarts (the kept words are cleared) where a dispatch's
 * keys would pass `limit` instead of RACE_KEY_LIMIT; 0 restores it. */
void race_summary_key_limit(uint32_t limit);
/* Cross-workgroup verdict, merge of the threads' findings into the detector. */
stex_status race_dispatch_end(struct race_dispatch *d);
void race_dispatch_free(struct race_dispatch *d);

struct race_thread *race_thread_create(struct race_dispatch *d);
/* Hands the thread's findings to the dispatch (thread-safe) and frees it. */
void race_thread_finish(struct race_thread *t);

void race_workgroup_begin(struct race_thread *t, uint64_t wg);
/* End of the workgroup: every pending same-workgroup segment is judged. */
void race_workgroup_end(struct race_thread *t);
/* A barrier reached by the whole workgroup: judges the segment of the memory it covers. */
/* The kinds of memory a barrier orders: workgroupBarrier var<workgroup>,
 * storageBarrier storage buffers, textureBarrier storage textures
 * (shader/exec.h's exec_barrier takes these values). */
typedef enum race_class {
    RACE_CLASS_WORKGROUP = 0, RACE_CLASS_BUFFER, RACE_CLASS_TEXTURE, RACE_CLASS_COUNT
} race_class;
/* A barrier of class `kind`: the running workgroup's accesses to that
 * memory before it are ordered before those after it. */
void race_barrier(struct race_thread *t, race_class kind);
/* The site (race_geometry.site_name) of the thread's next accesses; 0 = unknown. */
void race_thread_site(struct race_thread *t, uint32_t site);

/* One access by invocation `lid` of the running workgroup to location `loc`
 * of a shadow; `value` (n bytes) is what a write stored. */
void race_access(struct race_thread *t, struct race_shadow *s, uint64_t loc, uint32_t lid,
                 stex_race_access acc, const void *value, uint32_t n);
/* The same for var<workgroup> word `word`. */
void race_workgroup_access(struct race_thread *t, uint64_t word, uint32_t lid,
                           stex_race_access acc, const void *value, uint32_t n);

/* Shadow geometry and, for dispatches run by the summary detector
 * (pipelines without barriers), the summary arrays the builtins update
 * inline.  The head of every struct race_shadow. */
struct race_shadow_geom {
    uint64_t w, h; /* texture mip width, height; buffers: w = words, h = 1 */
};
typedef struct race_shadow_head {
    struct race_shadow_geom g;
    uint64_t count;            /* locations */
    /* Summary mode (NULL: the full detector).  Per location and per thread
     * one 32-bit word, written only by its thread: 0 (untouched), or the key
     * of the only invocation that accessed it from this thread (key = linear
     * invocation index + 1, < 2^30) with a bit per plain access kind it
     * made, or RACE_WORD_SHARED once a second invocation (or an atomic) came:
     * then `pairs` (shared by the threads, updated by CAS) holds, for each
     * access kind, the two smallest distinct keys (packed in 64 bits,
     * smallest in the high half).  The end of the dispatch folds the
     * threads' words together. */
    uint32_t *word;            /* nthreads * count */
    size_t word_map;           /* bytes of the mapping `word` lies in */
    bool word_clean;           /* the end-of-dispatch scan ran: no SHARED word, pairs zero */
    /* Keys of this dispatch are key_base + linear invocation index (>= 1).
     * The words are not cleared between dispatches: a word whose key part
     * is below key_base is stale - left by an earlier dispatch - and means
     * untouched.  key_next: the mapping's bound when taken (every key in
     * it is below); the dispatch's key_base is the largest key_next of its
     * shadows (race_dispatch_ready). */
    uint32_t key_base, key_next;
    size_t pair_map;           /* bytes of the mapping `pairs` lies in */
    uint32_t nthreads;
    _Atomic uint64_t *pairs;   /* `stride` per location; pages touched only where shared */
    uint32_t stride;           /* 2 (reads, writes) for textures, 4 with atomics for buffers */
    _Atomic uint64_t *value;   /* suppress_same_value: RACE_VALUE_* word */
    /* Per thread and per run of RACE_RUN locations, 1 once the thread
     * accessed a location of the run (touch) / moved one to the pairs
     * (mixed).  A run touched by one thread only and not mixed cannot race:
     * the scan only clears its words. */
    uint16_t *touch, *mixed;   /* nthreads * runs each (16-bit: see shader.h) */
    uint64_t runs;
    bool mt;                   /* more than one thread: pair updates use CAS */
    /* Sites (race_geometry.site_name set; else NULL): per thread and
     * location, the sites of the word's key (read site << 32 | write site,
     * meaningful where the word is not stale); per pair, the sites of its
     * two keys (a's << 32 | b's), kept with the keys under `locks` (then
     * every pair update takes race_note_site).  thread_site: each thread's
     * current site (race_thread_site). */
    uint64_t *wsite, *psite;
    size_t wsite_map, psite_map;
    const uint32_t *thread_site;
    atomic_flag *locks;        /* 4096 */
} race_shadow_head;

#define RACE_WORD_READ STEX__RACE_READ /* shader/fast.h's inline path sets them too */
#define RACE_WORD_WRITE STEX__RACE_WRITE
#define RACE_WORD_KEY (RACE_WORD_READ - 1)
#define RACE_WORD_SHARED UINT32_MAX
#define RACE_KEY_LIMIT RACE_WORD_KEY /* keys must stay below */

#define RACE_VALUE_HAS (1ull << 62)
#define RACE_VALUE_DIFFER (1ull << 63)

/* A pair: the two smallest distinct keys inserted into it, packed a << 32 |
 * b (a < b, or b = 0; a = 0: empty) - a function of the set of keys
 * inserted, whatever their order.
 *
 * The two smallest distinct keys of pairs x and y: what inserting y's keys
 * into x one by one leaves.  Branch-free: with 0 read as "above every key" (k -
 * 1 wraps), the smaller of the two a's comes first, then the smallest of
 * the larger a (unless both a's are one key) and the two b's - a b is
 * never the first, being above its own a. */
static inline uint32_t race_min32(uint32_t a, uint32_t b) { return a < b ? a : b; }
static inline uint64_t race_pair_join(uint64_t x, uint64_t y)
{
    uint32_t xa = (uint32_t)(x >> 32) - 1, xb = (uint32_t)x - 1;
    uint32_t ya = (uint32_t)(y >> 32) - 1, yb = (uint32_t)y - 1;
    uint32_t a = race_min32(xa, ya), hi = xa == ya ? UINT32_MAX : (xa < ya ? ya : xa);
    uint32_t b = race_min32(hi, race_min32(xb, yb));
    return ((uint64_t)(a + 1) << 32) | (uint32_t)(b + 1);
}

/* Inserts every key of pair y into *p at once, with one compare-and-swap. */
static inline void race_pair_merge(_Atomic uint64_t *p, uint64_t y, bool mt)
{
    if (!y)
        return;
    uint64_t old = atomic_load_explicit(p, memory_order_relaxed);
    for (;;) {
        uint64_t nw = old ? race_pair_join(old, y) : y; /* often the location's first keys */
        if (nw == old)
            return;
        if (!mt) {
            atomic_store_explicit(p, nw, memory_order_relaxed);
            return;
        }
        if (atomic_compare_exchange_weak_explicit(p, &old, nw, memory_order_relaxed,
                                                  memory_order_relaxed))
            return;
    }
}

/* Inserts key k into pair *p: the pair {k} merged in. */
static inline void race_pair_insert(_Atomic uint64_t *p, uint32_t k, bool mt)
{
    race_pair_merge(p, (uint64_t)k << 32, mt);
}

/* The value word: 0, then the first value seen (RACE_VALUE_HAS | bits),
 * then RACE_VALUE_DIFFER once two different values were seen - whatever
 * came first, DIFFER ends up set iff the set holds two values. */
uint64_t race_value_word(const void *v, uint32_t n);
static inline void race_value_note(_Atomic uint64_t *p, uint64_t h)
{
    uint64_t old = atomic_load_explicit(p, memory_order_relaxed);
    while (old != h && !(old & RACE_VALUE_DIFFER)) {
        uint64_t nw = old ? RACE_VALUE_DIFFER : h;
        if (atomic_compare_exchange_weak_explicit(p, &old, nw, memory_order_relaxed,
                                                  memory_order_relaxed))
            return;
    }
}

/* Moves a location to its pairs: what this thread's word w says, then this access. */
void race_share(race_shadow_head *s, uint32_t tid, uint64_t loc, uint32_t w, uint32_t key,
                stex_race_access acc);

/* race_note with sites (head.wsite set): the same words, pairs and marks,
 * with the sites beside (summary.c). */
void race_note_site(race_shadow_head *s, uint32_t tid, uint64_t loc, uint32_t key,
                    stex_race_access acc);

/* The smaller known site of two (0 = unknown). */
static inline uint32_t site_min(uint32_t a, uint32_t b)
{
    return !a ? b : !b ? a : a < b ? a : b;
}

#define RACE_RUN_SHIFT STEX__RACE_RUN_SHIFT
#define RACE_RUN (1u << RACE_RUN_SHIFT)

/* race_note_site for 64 accesses of one kind and site, each by the
 * invocation with key key0 + 8 * ly + lx on its own location first +
 * stride * ly + lx (lx, ly < 8): when every word is stale or already that
 * invocation's, writes what the 64 calls would (words, sites, touch marks)
 * and returns true; otherwise writes nothing and returns false.  AVX2
 * where the CPU has it (summary.c); race_note_site_8x8_scalar is the
 * same for the tests to compare. */
bool race_note_site_8x8(race_shadow_head *s, uint32_t tid, uint64_t first, uint64_t stride,
                        uint32_t key0, stex_race_access acc);
bool race_note_site_8x8_scalar(race_shadow_head *s, uint32_t tid, uint64_t first,
                               uint64_t stride, uint32_t key0, stex_race_access acc);

/* race_note_site for a run of accesses of one site (the thread's, as
 * race_thread_site set it): its common case - a location this thread holds
 * for no other invocation - inline, anything else out of line.  The same
 * words, sites, pairs and marks as race_note_site. */
static inline void race_note_site_fast(race_shadow_head *s, uint32_t tid, uint64_t loc,
                                       uint32_t key, stex_race_access acc)
{
    if (loc >= s->count)
        return;
    uint64_t i = (uint64_t)tid * s->count + loc;
    uint32_t w = s->word[i];
    if (w != RACE_WORD_SHARED && (w & RACE_WORD_KEY) < s->key_base)
        w = 0; /* stale: an earlier dispatch's */
    if (w == RACE_WORD_SHARED || acc >= STEX_RACE_ACCESS_ATOMIC_READ ||
        (w && (w & RACE_WORD_KEY) != key)) {
        race_note_site(s, tid, loc, key, acc);
        return;
    }
    s->touch[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
    uint32_t site = s->thread_site[tid];
    uint64_t old = w ? s->wsite[i] : 0; /* a fresh word: its sites start here */
    uint32_t rs = (uint32_t)(old >> 32), ws = (uint32_t)old, *m = acc == STEX_RACE_ACCESS_WRITE ? &ws : &rs;
    *m = site_min(*m, site);
    s->wsite[i] = ((uint64_t)rs << 32) | ws;
    s->word[i] = w | key | (acc == STEX_RACE_ACCESS_WRITE ? RACE_WORD_WRITE : RACE_WORD_READ);
}

/* One access to a summary shadow by the invocation with key `key`, running
 * on thread `tid`.  The common case - the location's only invocation so far
 * on this thread - costs a load and a store. */
static inline void race_note(struct race_shadow *sh, uint32_t tid, uint64_t loc, uint32_t key,
                             stex_race_access acc, const void *value, uint32_t n)
{
    race_shadow_head *s = (race_shadow_head *)(void *)sh;
    if (loc >= s->count)
        return;
    if (value && s->value)
        race_value_note(s->value + loc, race_value_word(value, n));
    if (s->wsite) {
        race_note_site(s, tid, loc, key, acc);
        return;
    }
    uint32_t *wp = s->word + (uint64_t)tid * s->count + loc;
    uint32_t w = *wp;
    if (w == RACE_WORD_SHARED) {
        /* already moved to the pairs by this thread, which then marked the
         * run touched and mixed: only the pair of this access kind changes */
        race_pair_insert(s->pairs + (uint64_t)s->stride * loc + acc, key, s->mt);
        return;
    }
    if ((w & RACE_WORD_KEY) < s->key_base)
        w = 0; /* stale: an earlier dispatch's */
    uint32_t bit = acc == STEX_RACE_ACCESS_WRITE ? RACE_WORD_WRITE : RACE_WORD_READ;
    s->touch[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
    if (acc >= STEX_RACE_ACCESS_ATOMIC_READ || (w && (w & RACE_WORD_KEY) != key)) {
        race_share(s, tid, loc, w, key, acc); /* also when w is RACE_WORD_SHARED */
        return;
    }
    *wp = w | key | bit;
}

/* Several plain accesses (no atomics, no values, no sites) of thread `tid`
 * to location `loc` at once, as race_note records them one by one: rp the
 * two smallest distinct keys that read it, wq the two smallest that wrote
 * it, each packed as a pair is (a << 32 | b, a < b; 0: fewer); `one`: a
 * single key made them all (then rp and wq hold that key or nothing).  A
 * pair keeps the two smallest keys inserted and the word becomes shared on
 * a second key, so both end as race_note's calls leave them, whatever
 * their order.  The keys of each kind go into the pair together
 * (race_pair_merge). */
static inline void race_note_set(struct race_shadow *sh, uint32_t tid, uint64_t loc,
                                 uint64_t rp, uint64_t wq, bool one)
{
    race_shadow_head *s = (race_shadow_head *)(void *)sh;
    if (loc >= s->count)
        return;
    uint32_t *wp = s->word + (uint64_t)tid * s->count + loc;
    _Atomic uint64_t *p = s->pairs + (uint64_t)s->stride * loc;
    uint32_t old = *wp;
    if (old != RACE_WORD_SHARED) {
        if ((old & RACE_WORD_KEY) < s->key_base)
            old = 0; /* stale: an earlier dispatch's */
        s->touch[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
        uint32_t k = (uint32_t)((rp ? rp : wq) >> 32);
        if (one && (!old || (old & RACE_WORD_KEY) == k)) {
            *wp = old | k | (rp ? RACE_WORD_READ : 0) | (wq ? RACE_WORD_WRITE : 0);
            return;
        }
        s->mixed[tid * s->runs + (loc >> RACE_RUN_SHIFT)] = 1;
        uint64_t ok = (uint64_t)(old & RACE_WORD_KEY) << 32; /* the word's key joins the set */
        if (old & RACE_WORD_READ)
            rp = race_pair_join(rp, ok);
        if (old & RACE_WORD_WRITE)
            wq = race_pair_join(wq, ok);
        *wp = RACE_WORD_SHARED;
    }
    race_pair_merge(p + STEX_RACE_ACCESS_READ, rp, s->mt);
    race_pair_merge(p + STEX_RACE_ACCESS_WRITE, wq, s->mt);
}

static inline bool race_summary(const struct race_shadow *sh)
{
    return ((const race_shadow_head *)(const void *)sh)->word != NULL;
}

static inline const struct race_shadow_geom *race_shadow_geometry(const struct race_shadow *s)
{
    return &((const race_shadow_head *)(const void *)s)->g;
}

/* Location index of texel (x, y, z) of a view inside its shadow; z0: the
 * view's first layer in the texture (0 for a 3d view). */
static inline uint64_t race_texel_loc(const struct race_shadow *s, uint64_t z0, int64_t x,
                                      int64_t y, int64_t z)
{
    const struct race_shadow_geom *g = race_shadow_geometry(s);
    return (uint64_t)x + g->w * ((uint64_t)y + g->h * ((uint64_t)z + z0));
}

/* Summary mode: the inline builtins may record (no snapshot visibility). */
bool race_dispatch_summary(const struct race_dispatch *d);
/* The dispatch keeps sites (race_geometry.site_name): every access goes out
 * of line (race_note / race_access), none through the inline marks. */
bool race_dispatch_sites(const struct race_dispatch *d);

/* Test hook: force the full (barrier-aware) detector for every dispatch. */
void race_detector_force_full(stex_race_detector *rd, bool on);
/* Shadow bytes allocated by the last dispatch (summary: mapped lazily). */
uint64_t race_detector_shadow_bytes(const stex_race_detector *rd);

#endif
