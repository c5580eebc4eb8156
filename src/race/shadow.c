/* Shadow memory and the happens-before verdict.
 *
 * Two summaries are kept, both functions of the *set* of accesses:
 *  - beside each bound writable texture mip / buffer, per location and per
 *    access kind, the two smallest accessors from distinct workgroups: judged
 *    at the end of the dispatch for cross-workgroup conflicts (nothing but
 *    the end of a dispatch orders two workgroups);
 *  - per thread, for the running workgroup's current barrier segment of each
 *    kind of memory, the two smallest distinct invocations per kind: judged
 *    when a barrier covering that memory is reached, or at the end of the
 *    workgroup (same-workgroup conflicts).
 * Every conflict found is a candidate; the report keeps, per location and
 * race kind, the smallest pair.  No step depends on the order accesses came
 * in, so the verdict does not depend on schedule, seed or thread count. */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "race/race_state.h"

/* ---- summaries ---- */

/* The full detector's value record: the same value word as the summary's
 * (exact up to 32 bits, a hash above), with the "differ" flag beside it. */
static void note_value(uint64_t *value, uint32_t *flags, const void *v, uint32_t n)
{
    uint64_t h = race_value_word(v, n);
    if (!(*flags & REC_HAS_VALUE)) {
        *value = h;
        *flags |= REC_HAS_VALUE;
    } else if (*value != h)
        *flags |= REC_VALUES_DIFFER;
}

static void emit(cand_vec *cv, const pair_pick *pk, const uint64_t slot[ACC_KINDS][2],
                 const uint32_t site[ACC_KINDS][2], uint32_t shadow, uint64_t wgkey,
                 uint64_t loc, bool same_wg)
{
    for (int rk = 0; rk < STEX_RACE_KIND_COUNT; rk++)
        if (pk->found[rk]) {
            race_cand c = {shadow, wgkey, loc, (uint8_t)rk, same_wg, pk->acc_a[rk], pk->acc_b[rk],
                           0, 0, pk->a[rk], pk->b[rk],
                           slot_site(slot, site, pk->acc_a[rk], pk->a[rk]),
                           slot_site(slot, site, pk->acc_b[rk], pk->b[rk])};
            cand_push(cv, &c);
        }
}

/* A segment's candidates under suppress_same_value: whether every write to
 * the location stored the same bytes is known only when the dispatch (or,
 * for var<workgroup>, the workgroup) ends, so the write-write pair judged
 * without suppression is kept too, marked: it counts iff the writes differ. */
static void emit_segment(cand_vec *cv, const uint64_t slot[ACC_KINDS][2],
                         const uint32_t site[ACC_KINDS][2], bool suppress, uint32_t shadow,
                         uint64_t wgkey, uint64_t loc)
{
    pair_pick pk;
    judge_slots(slot, 0, suppress, &pk);
    emit(cv, &pk, slot, site, shadow, wgkey, loc, true);
    if (!suppress)
        return;
    pair_pick all;
    judge_slots(slot, 0, false, &all);
    int ww = STEX_RACE_WRITE_WRITE;
    if (all.found[ww] && (!pk.found[ww] || all.a[ww] != pk.a[ww] || all.b[ww] != pk.b[ww]
                          || all.acc_a[ww] != pk.acc_a[ww] || all.acc_b[ww] != pk.acc_b[ww])) {
        race_cand c = {shadow, wgkey, loc, (uint8_t)ww, 1, all.acc_a[ww], all.acc_b[ww], 0, 1,
                       all.a[ww], all.b[ww], slot_site(slot, site, all.acc_a[ww], all.a[ww]),
                       slot_site(slot, site, all.acc_b[ww], all.b[ww])};
        cand_push(cv, &c);
    }
}

/* ---- the per-thread segment tables (same-workgroup conflicts) ---- */

typedef struct seg_ent {
    uint32_t shadow_plus1; /* 0 = empty */
    uint64_t loc;
    uint64_t slot[ACC_KINDS][2];
    uint32_t site[ACC_KINDS][2];
    uint64_t value;
    uint32_t flags;
} seg_ent;

typedef struct seg_tab {
    seg_ent *e;
    size_t cap, used;
    size_t *touched;
} seg_tab;

enum { SEG_WORKGROUP = RACE_CLASS_WORKGROUP, SEG_BUFFER = RACE_CLASS_BUFFER,
       SEG_TEXTURE = RACE_CLASS_TEXTURE, SEG_COUNT = RACE_CLASS_COUNT };

struct race_thread {
    struct race_dispatch *d;
    uint64_t wg;
    seg_tab seg[SEG_COUNT];
    cand_vec found;
    /* var<workgroup> under suppress_same_value: the running workgroup's
     * value words (RACE_VALUE_*), and its candidates waiting for them */
    _Atomic uint64_t *wg_values;
    uint32_t wg_words;
    cand_vec wg_pending;
    uint32_t tid;               /* OpenMP thread number: its summary words */
    uint32_t site;              /* of the next accesses (race_thread_site) */
};

void race_thread_site(struct race_thread *t, uint32_t site)
{
    t->site = site;
    if (t->tid < t->d->nthread_site)
        t->d->thread_site[t->tid] = site;
}

static size_t seg_hash(uint32_t s, uint64_t loc, size_t mask)
{
    uint64_t h = (loc * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)s * 0xc2b2ae3d27d4eb4full);
    return (size_t)(h ^ (h >> 29)) & mask;
}

static seg_ent *seg_find(seg_tab *t, uint32_t s1, uint64_t loc)
{
    size_t mask = t->cap - 1, i = seg_hash(s1, loc, mask);
    while (t->e[i].shadow_plus1 && (t->e[i].shadow_plus1 != s1 || t->e[i].loc != loc))
        i = (i + 1) & mask;
    return &t->e[i];
}

static bool seg_grow(seg_tab *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    seg_tab n = {calloc(cap, sizeof(seg_ent)), cap, 0, malloc(cap * sizeof(size_t))};
    if (!n.e || !n.touched) {
        free(n.e);
        free(n.touched);
        return false;
    }
    for (size_t i = 0; i < t->used; i++) {
        const seg_ent *o = &t->e[t->touched[i]];
        seg_ent *x = seg_find(&n, o->shadow_plus1, o->loc);
        *x = *o;
        n.touched[n.used++] = (size_t)(x - n.e);
    }
    free(t->e);
    free(t->touched);
    *t = n;
    return true;
}

static void seg_note(struct race_thread *t, int cls, uint32_t shadow, uint64_t loc, uint64_t key,
                     stex_race_access acc, const void *value, uint32_t n)
{
    seg_tab *tab = &t->seg[cls];
    if (2 * (tab->used + 1) > tab->cap && !seg_grow(tab)) {
        atomic_store(&t->d->oom, true);
        return;
    }
    seg_ent *e = seg_find(tab, shadow + 1, loc);
    if (!e->shadow_plus1) {
        e->shadow_plus1 = shadow + 1;
        e->loc = loc;
        tab->touched[tab->used++] = (size_t)(e - tab->e);
    }
    slot_insert_site(e->slot[acc], e->site[acc], key, t->site, 0);
    if (value)
        note_value(&e->value, &e->flags, value, n);
}

static void seg_flush(struct race_thread *t, int cls)
{
    seg_tab *tab = &t->seg[cls];
    if (!tab->used)
        return; /* the common case at a workgroup's end: nothing recorded out of line */
    bool suppress = t->d->rd ? stex_race_detector_options(t->d->rd)->suppress_same_value : false;
    cand_vec *out = cls == SEG_WORKGROUP && suppress ? &t->wg_pending : &t->found;
    for (size_t i = 0; i < tab->used; i++) {
        seg_ent *e = &tab->e[tab->touched[i]];
        uint32_t s = e->shadow_plus1 - 1;
        emit_segment(out, (const uint64_t(*)[2])e->slot, (const uint32_t(*)[2])e->site, suppress,
                     s, s == WG_SHADOW ? t->wg : 0, e->loc);
        memset(e, 0, sizeof *e);
    }
    tab->used = 0;
}

/* End of a workgroup: its var<workgroup> writes are all known. */
static void wg_pending_settle(struct race_thread *t)
{
    for (size_t i = 0; i < t->wg_pending.n; i++) {
        const race_cand *c = &t->wg_pending.v[i];
        if (c->needs_differ && c->loc < t->wg_words
            && !(atomic_load_explicit(&t->wg_values[c->loc], memory_order_relaxed)
                 & RACE_VALUE_DIFFER))
            continue;
        race_cand k = *c;
        k.needs_differ = 0;
        cand_push(&t->found, &k);
    }
    t->wg_pending.n = 0;
    if (t->wg_values)
        memset((void *)t->wg_values, 0, t->wg_words * sizeof *t->wg_values);
}

struct race_thread *race_thread_create(struct race_dispatch *d)
{
    struct race_thread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->d = d;
    t->tid = (uint32_t)omp_get_thread_num();
    t->wg_words = d->g.wg_memory_size / 4;
    if (t->wg_words && stex_race_detector_options(d->rd)->suppress_same_value
        && !(t->wg_values = calloc(t->wg_words, sizeof *t->wg_values))) {
        free(t);
        return NULL;
    }
    for (int c = 0; c < SEG_COUNT; c++)
        if (!seg_grow(&t->seg[c])) {
            for (int k = 0; k < SEG_COUNT; k++) {
                free(t->seg[k].e);
                free(t->seg[k].touched);
            }
            free((void *)t->wg_values);
            free(t);
            return NULL;
        }
    return t;
}

/* Threads hand their findings to the dispatch one at a time.  A mutex, not
 * a named OpenMP critical section: that would export its lock's symbol. */
static pthread_mutex_t merge_lock = PTHREAD_MUTEX_INITIALIZER;

void race_thread_finish(struct race_thread *t)
{
    struct race_dispatch *d = t->d;
    pthread_mutex_lock(&merge_lock);
    for (size_t i = 0; i < t->found.n; i++)
        cand_push(&d->found, &t->found.v[i]);
    if (t->found.oom || d->found.oom || t->wg_pending.oom)
        atomic_store(&d->oom, true);
    pthread_mutex_unlock(&merge_lock);
    free((void *)t->wg_values);
    free(t->wg_pending.v);
    for (int c = 0; c < SEG_COUNT; c++) {
        free(t->seg[c].e);
        free(t->seg[c].touched);
    }
    free(t->found.v);
    free(t);
}

void race_workgroup_begin(struct race_thread *t, uint64_t wg)
{
    t->wg = wg;
}

void race_workgroup_end(struct race_thread *t)
{
    for (int c = 0; c < SEG_COUNT; c++)
        seg_flush(t, c);
    wg_pending_settle(t);
}

void race_barrier(struct race_thread *t, race_class kind)
{
    seg_flush(t, (int)kind);
}

/* ---- the dispatch-wide shadows (cross-workgroup conflicts) ---- */

static shadow_rec *shadow_at(struct race_dispatch *d, struct race_shadow *s, uint64_t loc)
{
    if (loc >= s->h.count)
        return NULL;
    uint64_t c = loc / SHADOW_CHUNK;
    shadow_rec *chunk = atomic_load_explicit(&s->chunks[c], memory_order_acquire);
    if (!chunk) {
        shadow_rec *fresh = calloc(SHADOW_CHUNK, sizeof *fresh
                                                     + (d->g.site_name ? sizeof(site_rec) : 0));
        if (!fresh) {
            atomic_store(&d->oom, true);
            return NULL;
        }
        shadow_rec *expected = NULL;
        if (atomic_compare_exchange_strong(&s->chunks[c], &expected, fresh))
            chunk = fresh;
        else {
            free(fresh);
            chunk = expected;
        }
    }
    return &chunk[loc % SHADOW_CHUNK];
}

/* The sites beside record r of location loc; NULL: the dispatch keeps none. */
static site_rec *rec_sites(const struct race_dispatch *d, const shadow_rec *r, uint64_t loc)
{
    if (!d->g.site_name)
        return NULL;
    uint64_t i = loc % SHADOW_CHUNK;
    return (site_rec *)(void *)((shadow_rec *)r - i + SHADOW_CHUNK) + i;
}

void race_access(struct race_thread *t, struct race_shadow *s, uint64_t loc, uint32_t lid,
                 stex_race_access acc, const void *value, uint32_t n)
{
    struct race_dispatch *d = t->d;
    if (race_summary(s)) {
        race_note(s, t->tid, loc, (uint32_t)(t->wg * d->invocations + lid + d->key_base), acc,
                  value, n);
        return;
    }
    uint64_t key = acc_key(t->wg, lid, d->lid_bits);
    shadow_rec *r = shadow_at(d, s, loc);
    if (r) {
        atomic_flag *lock = &d->locks[(loc * 31 + s->id) & 4095];
        while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
            ;
        site_rec *sr = rec_sites(d, r, loc);
        if (sr)
            slot_insert_site(r->slot[acc], sr->site[acc], key, t->site, d->lid_bits);
        else
            slot_insert(r->slot[acc], key, d->lid_bits);
        if (value)
            note_value(&r->value, &r->flags, value, n);
        atomic_flag_clear_explicit(lock, memory_order_release);
    }
    seg_note(t, s->memory == STEX_RACE_MEMORY_TEXTURE ? SEG_TEXTURE : SEG_BUFFER, s->id, loc, key,
             acc, value, n);
}

void race_workgroup_access(struct race_thread *t, uint64_t word, uint32_t lid,
                           stex_race_access acc, const void *value, uint32_t n)
{
    if (value && word < t->wg_words && t->wg_values)
        race_value_note(&t->wg_values[word], race_value_word(value, n));
    seg_note(t, SEG_WORKGROUP, WG_SHADOW, word, acc_key(t->wg, lid, t->d->lid_bits), acc,
             value, n);
}

static int shadow_rank(const void *pa, const void *pb)
{
    const struct race_shadow *a = *(struct race_shadow *const *)pa, *b = *(struct race_shadow *const *)pb;
#define CMP_(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMP_(memory);
    CMP_(binding);
    CMP_(mip);
#undef CMP_
    return 0;
}

static struct race_shadow *shadow_new(stex_race_memory m, uint32_t binding, uint32_t mip,
                                      const void *key, uint64_t w, uint64_t h, uint64_t count)
{
    struct race_shadow *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->memory = m;
    s->binding = binding;
    s->mip = mip;
    s->key = key;
    s->h.g.w = w;
    s->h.g.h = h;
    s->h.count = count;
    s->nchunks = (count + SHADOW_CHUNK - 1) / SHADOW_CHUNK;
    s->chunks = calloc(s->nchunks ? s->nchunks : 1, sizeof *s->chunks);
    if (!s->chunks) {
        free(s);
        return NULL;
    }
    return s;
}

static void shadow_free(struct race_shadow *s, uint64_t invocations)
{
    if (!s)
        return;
    summary_shadow_free(s, invocations);
    for (uint64_t i = 0; i < s->nchunks; i++)
        free(atomic_load(&s->chunks[i]));
    free(s->chunks);
    free(s);
}

bool race_dispatch_summary(const struct race_dispatch *d) { return d->summary; }

/* Keeps the smallest pair per (location, kind) of sorted candidates. */
static size_t dedup(cand_vec *cv)
{
    size_t m = 0;
    for (size_t i = 0; i < cv->n; i++) {
        const race_cand *c = &cv->v[i];
        if (m) {
            const race_cand *p = &cv->v[m - 1];
            if (p->shadow == c->shadow && p->wgkey == c->wgkey && p->loc == c->loc
                && p->kind == c->kind)
                continue;
        }
        cv->v[m++] = *c;
    }
    return m;
}

stex_status race_dispatch_begin(stex_race_detector *rd, const race_geometry *g,
                                struct race_dispatch **out)
{
    struct race_dispatch *d = calloc(1, sizeof *d);
    if (!d)
        return STEX_OUT_OF_MEMORY;
    d->rd = rd;
    d->g = *g;
    for (int i = 0; i < 4096; i++)
        atomic_flag_clear(&d->locks[i]);
    /* Without barriers no two invocations are ordered: the per-location
     * summary decides (keys are 32-bit linear invocation indices). */
    d->invocations = g->wg_invocations;
    while (d->lid_bits < 32 && (1ull << d->lid_bits) < g->wg_invocations)
        d->lid_bits++;
    if (g->total_wg > (UINT64_MAX >> d->lid_bits) - 1) { /* acc_key would wrap */
        free(d);
        return stex_fail(STEX_INVALID_ARGUMENT, "race detector: %llu workgroups of %u "
                         "invocations are more than its 64-bit keys can name",
                         (unsigned long long)g->total_wg, g->wg_invocations);
    }
    d->summary = !g->barriers && !detector_force_full(rd)
                 && g->total_wg * g->wg_invocations < RACE_KEY_LIMIT - 1;
    if (g->site_name) {
        d->nthread_site = g->threads > 0 ? (uint32_t)g->threads : 1;
        if (!(d->thread_site = calloc(d->nthread_site, sizeof *d->thread_site))) {
            free(d);
            return stex_fail(STEX_OUT_OF_MEMORY, "race detector: out of memory");
        }
    }
    *out = d;
    return STEX_OK;
}

bool race_dispatch_sites(const struct race_dispatch *d) { return d->g.site_name != NULL; }

/* Binding `ref` covers locations first .. first + span - 1 of s (the first
 * four bindings of a resource are told apart; more are rare). */
static void shadow_alias_add(struct race_shadow *s, uint32_t ref, uint64_t first, uint64_t span)
{
    if (s->naliases < sizeof s->alias / sizeof s->alias[0])
        s->alias[s->naliases++] = (struct shadow_alias){ref, first, span};
}

struct race_shadow *race_dispatch_shadow(struct race_dispatch *d, stex_race_memory m,
                                         uint32_t ref, const void *key, uint32_t mip,
                                         uint64_t w, uint64_t h, uint64_t count,
                                         uint64_t first, uint64_t span)
{
    for (uint32_t k = 0; k < d->nshadows; k++)
        if (d->shadows[k]->key == key && d->shadows[k]->mip == mip) {
            if (ref < d->shadows[k]->binding)
                d->shadows[k]->binding = ref; /* reports name the lowest binding */
            shadow_alias_add(d->shadows[k], ref, first, span);
            return d->shadows[k];
        }
    struct race_shadow **grown = realloc(d->shadows, (d->nshadows + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    d->shadows = grown;
    struct race_shadow *s = shadow_new(m, ref, mip, key, w, h, count);
    bool values = stex_race_detector_options(d->rd)->suppress_same_value;
    if (s && d->summary && !summary_shadow_alloc(s, m == STEX_RACE_MEMORY_BUFFER, values,
                                                 (uint32_t)d->g.threads, d->thread_site != NULL)) {
        shadow_free(s, 0);
        s = NULL;
    }
    if (s && d->summary && d->thread_site) {
        s->h.thread_site = d->thread_site;
        s->h.locks = d->locks;
    }
    if (s) {
        shadow_alias_add(s, ref, first, span);
        d->shadows[d->nshadows++] = s;
    }
    return s;
}

const race_shadow_head *race_shadow_summary(const struct race_shadow *s)
{
    return &s->h;
}

void race_dispatch_ready(struct race_dispatch *d)
{
    if (d->nshadows) /* nothing bound: no list at all (qsort may not take NULL) */
        qsort(d->shadows, d->nshadows, sizeof *d->shadows, shadow_rank);
    for (uint32_t k = 0; k < d->nshadows; k++)
        d->shadows[k]->id = k;
    d->key_base = d->summary ? summary_key_base(d->shadows, d->nshadows,
                                                d->g.total_wg * d->g.wg_invocations)
                             : 1;
}

uint32_t race_dispatch_key_base(const struct race_dispatch *d) { return d->key_base; }

static stex_status summary_end(struct race_dispatch *d);

stex_status race_dispatch_end(struct race_dispatch *d)
{
    if (d->summary)
        return summary_end(d);
    bool suppress = stex_race_detector_options(d->rd)->suppress_same_value;
    uint64_t bytes = 0;
    for (uint32_t k = 0; k < d->nshadows; k++) {
        struct race_shadow *s = d->shadows[k];
        for (uint64_t c = 0; c < s->nchunks; c++) {
            shadow_rec *chunk = atomic_load(&s->chunks[c]);
            if (!chunk)
                continue;
            bytes += SHADOW_CHUNK * (sizeof *chunk + (d->g.site_name ? sizeof(site_rec) : 0));
            for (uint32_t i = 0; i < SHADOW_CHUNK; i++) {
                const shadow_rec *r = &chunk[i];
                if (!r->flags && !r->slot[0][0] && !r->slot[1][0] && !r->slot[2][0]
                    && !r->slot[3][0])
                    continue;
                pair_pick pk;
                judge_slots(r->slot, d->lid_bits, suppress && !(r->flags & REC_VALUES_DIFFER), &pk);
                static const site_rec none;
                const site_rec *sr = rec_sites(d, r, c * SHADOW_CHUNK + i);
                emit(&d->found, &pk, (const uint64_t(*)[2])r->slot,
                     (const uint32_t(*)[2])(sr ? sr : &none)->site, s->id, 0,
                     c * SHADOW_CHUNK + i, false);
            }
        }
    }
    if (d->found.oom || atomic_load(&d->oom))
        return STEX_OUT_OF_MEMORY;
    /* same-workgroup write-write pairs that count only if the writes differ */
    size_t kept = 0;
    for (size_t i = 0; i < d->found.n; i++) {
        race_cand *c = &d->found.v[i];
        if (c->needs_differ && c->shadow != WG_SHADOW) {
            const shadow_rec *r = shadow_at(d, d->shadows[c->shadow], c->loc);
            if (r && !(r->flags & REC_VALUES_DIFFER))
                continue;
            c->needs_differ = 0;
        }
        d->found.v[kept++] = *c;
    }
    d->found.n = kept;
    if (d->found.n)
        qsort(d->found.v, d->found.n, sizeof *d->found.v, cand_cmp);
    size_t m = dedup(&d->found);
    stex_status st = detector_add(d->rd, d, d->found.v, m);
    detector_dispatch_done(d->rd, bytes);
    return st;
}

/* Summary mode: the shadows' verdict (in report order, counts complete,
 * detail for the first races), then var<workgroup> from the threads. */
static stex_status summary_end(struct race_dispatch *d)
{
    cand_vec details = {0};
    group_vec groups = {0};
    uint64_t (*counts)[STEX_RACE_KIND_COUNT] = calloc(d->nshadows + 1, sizeof *counts);
    stex_status st = counts ? summary_dispatch_end(d, &details, counts, &groups)
                            : STEX_OUT_OF_MEMORY;
    if (!st)
        st = detector_add_groups(d->rd, d, groups.v, groups.n);
    if (!st && (d->found.oom || atomic_load(&d->oom)))
        st = STEX_OUT_OF_MEMORY;
    uint64_t bytes = 0;
    for (uint32_t k = 0; !st && k < d->nshadows; k++) {
        const struct race_shadow *s = d->shadows[k];
        bytes += summary_shadow_resident(s);
        size_t n0 = 0;
        while (n0 < details.n && details.v[n0].shadow == k)
            n0++;
        st = detector_add(d->rd, d, details.v, n0);
        if (!st)
            st = detector_add_counts(d->rd, s->binding, s->memory, counts[k]);
        if (n0) {
            memmove(details.v, details.v + n0, (details.n - n0) * sizeof *details.v);
            details.n -= n0;
        }
    }
    if (!st && d->found.n) {
        qsort(d->found.v, d->found.n, sizeof *d->found.v, cand_cmp);
        st = detector_add(d->rd, d, d->found.v, dedup(&d->found));
    }
    if (!st)
        detector_dispatch_done(d->rd, bytes);
    free(details.v);
    free(groups.v);
    free(counts);
    return st ? stex_fail(st, "race detector: out of memory") : STEX_OK;
}

void race_dispatch_free(struct race_dispatch *d)
{
    if (!d)
        return;
    for (uint32_t k = 0; k < d->nshadows; k++)
        shadow_free(d->shadows[k], d->g.total_wg * d->g.wg_invocations);
    free(d->shadows);
    free(d->found.v);
    free(d->thread_site);
    free(d);
}
