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
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "race/race_state.h"

/* ---- summaries ---- */

static inline uint64_t group_of(uint64_t key, bool by_workgroup)
{
    return by_workgroup ? key_wg(key) : key;
}

static void slot_insert(uint64_t s[2], uint64_t key, bool by_workgroup)
{
    uint64_t g = group_of(key, by_workgroup);
    if (!s[0])
        s[0] = key;
    else if (group_of(s[0], by_workgroup) == g) {
        if (key < s[0])
            s[0] = key;
    } else if (key < s[0]) {
        s[1] = s[0];
        s[0] = key;
    } else if (!s[1] || key < s[1])
        s[1] = key;
}

static inline bool acc_writes(int k)
{
    return k == STEX_RACE_ACCESS_WRITE || k == STEX_RACE_ACCESS_ATOMIC_WRITE;
}

static inline bool acc_atomic(int k)
{
    return k == STEX_RACE_ACCESS_ATOMIC_READ || k == STEX_RACE_ACCESS_ATOMIC_WRITE;
}

void judge_slots(const uint64_t slot[ACC_KINDS][2], bool by_workgroup, bool suppress_ww,
                 pair_pick *out)
{
    memset(out, 0, sizeof *out);
    for (int ka = 0; ka < ACC_KINDS; ka++)
        for (int kb = ka; kb < ACC_KINDS; kb++) {
            if (!(acc_writes(ka) || acc_writes(kb)) || (acc_atomic(ka) && acc_atomic(kb)))
                continue; /* reads never race with reads, atomics never with atomics */
            if (suppress_ww && ka == STEX_RACE_ACCESS_WRITE && kb == STEX_RACE_ACCESS_WRITE)
                continue;
            int rk = acc_writes(ka) && acc_writes(kb) ? STEX_RACE_WRITE_WRITE : STEX_RACE_READ_WRITE;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    uint64_t p = slot[ka][i], q = slot[kb][j];
                    if (!p || !q || group_of(p, by_workgroup) == group_of(q, by_workgroup))
                        continue;
                    uint64_t lo = p < q ? p : q, hi = p < q ? q : p;
                    uint8_t alo = (uint8_t)(p < q ? ka : kb), ahi = (uint8_t)(p < q ? kb : ka);
                    if (!out->found[rk] || lo < out->a[rk] || (lo == out->a[rk] && hi < out->b[rk])
                        || (lo == out->a[rk] && hi == out->b[rk]
                            && (alo < out->acc_a[rk]
                                || (alo == out->acc_a[rk] && ahi < out->acc_b[rk])))) {
                        /* the smallest pair; for it, the smallest (access a, access b) */
                        out->found[rk] = true;
                        out->a[rk] = lo;
                        out->b[rk] = hi;
                        out->acc_a[rk] = alo;
                        out->acc_b[rk] = ahi;
                    }
                }
        }
}

uint64_t race_value_word(const void *v, uint32_t n)
{
    if (n <= 4) { /* up to 32 bits: the value itself, exactly */
        uint32_t x = 0;
        memcpy(&x, v, n);
        return RACE_VALUE_HAS | ((uint64_t)n << 32) | x;
    }
    uint8_t b[16] = {0};
    memcpy(b, v, n > 16 ? 16 : n);
    uint64_t x, y;
    memcpy(&x, b, 8);
    memcpy(&y, b + 8, 8);
    uint64_t h = (x ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 31) ^ y) * 0x94d049bb133111ebull;
    h ^= (h >> 29) ^ n;
    return RACE_VALUE_HAS | (h & (RACE_VALUE_HAS - 1));
}

static uint64_t value_hash(const void *v, uint32_t n)
{
    uint8_t b[16] = {0};
    memcpy(b, v, n > 16 ? 16 : n);
    uint64_t x, y;
    memcpy(&x, b, 8);
    memcpy(&y, b + 8, 8);
    uint64_t h = (x ^ 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 31) ^ y) * 0x94d049bb133111ebull;
    return h ^ (h >> 29) ^ n;
}

static void note_value(uint64_t *value, uint32_t *flags, const void *v, uint32_t n)
{
    uint64_t h = value_hash(v, n);
    if (!(*flags & REC_HAS_VALUE)) {
        *value = h;
        *flags |= REC_HAS_VALUE;
    } else if (*value != h)
        *flags |= REC_VALUES_DIFFER;
}

void cand_push(cand_vec *cv, const race_cand *c)
{
    if (cv->n == cv->cap) {
        size_t cap = cv->cap ? cv->cap * 2 : 256;
        race_cand *v = realloc(cv->v, cap * sizeof *v);
        if (!v) {
            cv->oom = true;
            return;
        }
        cv->v = v;
        cv->cap = cap;
    }
    cv->v[cv->n++] = *c;
}

int cand_cmp(const void *pa, const void *pb)
{
    const race_cand *a = pa, *b = pb;
#define CMP_(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMP_(shadow);
    CMP_(wgkey);
    CMP_(loc);
    CMP_(kind);
    CMP_(a);
    CMP_(b);
#undef CMP_
    return 0;
}

static void emit(cand_vec *cv, const pair_pick *pk, uint32_t shadow, uint64_t wgkey, uint64_t loc,
                 bool same_wg)
{
    for (int rk = 0; rk < STEX_RACE_KIND_COUNT; rk++)
        if (pk->found[rk]) {
            race_cand c = {shadow, wgkey, loc, (uint8_t)rk, same_wg, pk->acc_a[rk], pk->acc_b[rk],
                           0, 0, pk->a[rk], pk->b[rk]};
            cand_push(cv, &c);
        }
}

/* A segment's candidates under suppress_same_value: whether every write to
 * the location stored the same bytes is known only when the dispatch (or,
 * for var<workgroup>, the workgroup) ends, so the write-write pair judged
 * without suppression is kept too, marked: it counts iff the writes differ. */
static void emit_segment(cand_vec *cv, const uint64_t slot[ACC_KINDS][2], bool suppress,
                         uint32_t shadow, uint64_t wgkey, uint64_t loc)
{
    pair_pick pk;
    judge_slots(slot, false, suppress, &pk);
    emit(cv, &pk, shadow, wgkey, loc, true);
    if (!suppress)
        return;
    pair_pick all;
    judge_slots(slot, false, false, &all);
    int ww = STEX_RACE_WRITE_WRITE;
    if (all.found[ww] && (!pk.found[ww] || all.a[ww] != pk.a[ww] || all.b[ww] != pk.b[ww]
                          || all.acc_a[ww] != pk.acc_a[ww] || all.acc_b[ww] != pk.acc_b[ww])) {
        race_cand c = {shadow, wgkey, loc, (uint8_t)ww, 1, all.acc_a[ww], all.acc_b[ww], 0, 1,
                       all.a[ww], all.b[ww]};
        cand_push(cv, &c);
    }
}

/* ---- the per-thread segment tables (same-workgroup conflicts) ---- */

typedef struct seg_ent {
    uint32_t shadow_plus1; /* 0 = empty */
    uint64_t loc;
    uint64_t slot[ACC_KINDS][2];
    uint64_t value;
    uint32_t flags;
} seg_ent;

typedef struct seg_tab {
    seg_ent *e;
    size_t cap, used;
    size_t *touched;
} seg_tab;

enum { SEG_WORKGROUP = EXEC_BARRIER_WORKGROUP, SEG_BUFFER = EXEC_BARRIER_STORAGE,
       SEG_TEXTURE = EXEC_BARRIER_TEXTURE, SEG_COUNT };

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
};

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
    slot_insert(e->slot[acc], key, false);
    if (value)
        note_value(&e->value, &e->flags, value, n);
}

static void seg_flush(struct race_thread *t, int cls)
{
    seg_tab *tab = &t->seg[cls];
    bool suppress = t->d->rd ? stex_race_detector_options(t->d->rd)->suppress_same_value : false;
    cand_vec *out = cls == SEG_WORKGROUP && suppress ? &t->wg_pending : &t->found;
    for (size_t i = 0; i < tab->used; i++) {
        seg_ent *e = &tab->e[tab->touched[i]];
        uint32_t s = e->shadow_plus1 - 1;
        emit_segment(out, (const uint64_t(*)[2])e->slot, suppress, s, s == WG_SHADOW ? t->wg : 0,
                     e->loc);
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
    t->wg_words = d->ctx->wg_memory_size / 4;
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

void race_thread_finish(struct race_thread *t)
{
    struct race_dispatch *d = t->d;
#pragma omp critical(stex_race_merge)
    {
        for (size_t i = 0; i < t->found.n; i++)
            cand_push(&d->found, &t->found.v[i]);
        if (t->found.oom || d->found.oom || t->wg_pending.oom)
            atomic_store(&d->oom, true);
    }
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

void race_barrier(struct race_thread *t, exec_barrier kind)
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
        shadow_rec *fresh = calloc(SHADOW_CHUNK, sizeof *fresh);
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

void race_access(struct race_thread *t, struct race_shadow *s, uint64_t loc, uint32_t lid,
                 stex_race_access acc, const void *value, uint32_t n)
{
    struct race_dispatch *d = t->d;
    if (race_summary(s)) {
        race_note(s, t->tid, loc, (uint32_t)(t->wg * d->invocations + lid + 1), acc, value, n);
        return;
    }
    uint64_t key = acc_key(t->wg, lid);
    shadow_rec *r = shadow_at(d, s, loc);
    if (r) {
        atomic_flag *lock = &d->locks[(loc * 31 + s->id) & 4095];
        while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
            ;
        slot_insert(r->slot[acc], key, true);
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
    seg_note(t, SEG_WORKGROUP, WG_SHADOW, word, acc_key(t->wg, lid), acc, value, n);
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

static void shadow_free(struct race_shadow *s)
{
    if (!s)
        return;
    summary_shadow_free(s);
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

stex_status race_dispatch_begin(stex_race_detector *rd, exec_dispatch *ctx,
                                struct race_dispatch **out)
{
    struct race_dispatch *d = calloc(1, sizeof *d);
    if (!d)
        return STEX_OUT_OF_MEMORY;
    d->rd = rd;
    d->ctx = ctx;
    for (int i = 0; i < 4096; i++)
        atomic_flag_clear(&d->locks[i]);
    /* Without barriers no two invocations are ordered: the per-location
     * summary decides (keys are 32-bit linear invocation indices). */
    d->invocations = ctx->wg_invocations;
    d->summary = !ctx->fibers && !detector_force_full(rd)
                 && ctx->total_wg * ctx->wg_invocations < RACE_KEY_LIMIT - 1;
    bool values = stex_race_detector_options(rd)->suppress_same_value;
    d->shadows = calloc(ctx->nb ? ctx->nb : 1, sizeof *d->shadows);
    if (!d->shadows) {
        free(d);
        return STEX_OUT_OF_MEMORY;
    }
    /* Only writable bindings can race: WebGPU's usage scope keeps read-only
     * bindings off memory that the dispatch writes. */
    for (uint32_t i = 0; i < ctx->nb; i++) {
        exec_binding *b = &ctx->b[i];
        bool tex = b->type == STEX_BINDING_STORAGE_TEXTURE && b->access != STEX_ACCESS_READ_ONLY;
        bool buf = b->type == STEX_BINDING_STORAGE_BUFFER;
        if (!tex && !buf)
            continue;
        const void *key = tex ? (const void *)b->texture : (const void *)b->buffer;
        for (uint32_t k = 0; k < d->nshadows && !b->shadow; k++)
            if (d->shadows[k]->key == key && (!tex || d->shadows[k]->mip == b->mip))
                b->shadow = d->shadows[k];
        if (b->shadow)
            continue;
        struct race_shadow *s;
        if (tex) {
            stex_extent3d m = stex_texture_mip_size(b->texture, b->mip);
            const stex_texture_desc *td = stex_texture_get_desc(b->texture);
            uint64_t w = m.width ? m.width : 1, h = m.height ? m.height : 1;
            uint64_t layers = td->dimension == STEX_TEXTURE_DIMENSION_3D ? m.depth_or_array_layers
                              : td->size.depth_or_array_layers;
            if (!layers)
                layers = 1;
            s = shadow_new(STEX_RACE_MEMORY_TEXTURE, b->ref, b->mip, key, w, h, w * h * layers);
        } else {
            uint64_t words = stex_buffer_size(b->buffer) / 4;
            s = shadow_new(STEX_RACE_MEMORY_BUFFER, b->ref, 0, key, words, 1, words);
        }
        if (s && d->summary && !summary_shadow_alloc(s, buf, values, (uint32_t)ctx->threads)) {
            shadow_free(s);
            s = NULL;
        }
        if (!s) {
            race_dispatch_free(d);
            return STEX_OUT_OF_MEMORY;
        }
        d->shadows[d->nshadows++] = s;
        b->shadow = s;
    }
    /* the inline builtins (shader.h) update the words themselves */
    for (uint32_t i = 0; d->summary && i < ctx->nb; i++) {
        exec_binding *b = &ctx->b[i];
        if (!b->shadow)
            continue;
        stex_fast_binding *f = &ctx->fb[i];
        const race_shadow_head *h = &b->shadow->h;
        f->race = h->word;
        f->race_touch = h->touch;
        f->race_runs = h->runs;
        /* the inline builtins take their race path on these tags (shader.h) */
        if (f->load_tag != EXEC_TAG_NONE)
            f->load_tag |= STEX__TAG_RACE;
        if (f->store_tag != EXEC_TAG_NONE)
            f->store_tag |= STEX__TAG_RACE;
        f->buf_load |= f->buf_load ? STEX__TAG_RACE : 0;
        f->buf_store |= f->buf_store ? STEX__TAG_RACE : 0;
        f->race_count = h->count;
        f->race_values = h->value != NULL;
        if (b->type == STEX_BINDING_STORAGE_TEXTURE) {
            f->race_w = h->g.w;
            f->race_h = h->g.h;
            f->race_z0 = b->dim == STEX_VIEW_DIMENSION_3D ? 0 : b->base_layer;
            f->race_bpp = b->bpp;
        } else { /* buffer word index + offset / 4 */
            f->race_w = f->race_h = 1;
            f->race_z0 = b->offset / 4;
            f->race_bpp = 4;
        }
    }
    qsort(d->shadows, d->nshadows, sizeof *d->shadows, shadow_rank);
    for (uint32_t k = 0; k < d->nshadows; k++)
        d->shadows[k]->id = k;
    *out = d;
    return STEX_OK;
}

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
            bytes += SHADOW_CHUNK * sizeof *chunk;
            for (uint32_t i = 0; i < SHADOW_CHUNK; i++) {
                const shadow_rec *r = &chunk[i];
                if (!r->flags && !r->slot[0][0] && !r->slot[1][0] && !r->slot[2][0]
                    && !r->slot[3][0])
                    continue;
                pair_pick pk;
                judge_slots(r->slot, true, suppress && !(r->flags & REC_VALUES_DIFFER), &pk);
                emit(&d->found, &pk, s->id, 0, c * SHADOW_CHUNK + i, false);
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
    uint64_t (*counts)[STEX_RACE_KIND_COUNT] = calloc(d->nshadows + 1, sizeof *counts);
    stex_status st = counts ? summary_dispatch_end(d, &details, counts) : STEX_OUT_OF_MEMORY;
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
    free(counts);
    return st ? stex_fail(st, "race detector: out of memory") : STEX_OK;
}

void race_dispatch_free(struct race_dispatch *d)
{
    if (!d)
        return;
    for (uint32_t k = 0; k < d->nshadows; k++)
        shadow_free(d->shadows[k]);
    for (uint32_t i = 0; d->ctx && i < d->ctx->nb; i++)
        d->ctx->b[i].shadow = NULL;
    free(d->shadows);
    free(d->found.v);
    free(d);
}
