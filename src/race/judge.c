/* Judging a location's accessors: which pairs race, the value words that
 * tell same-value writes apart, and the candidate list both detectors
 * (shadow.c, summary.c) fill and sort. */
#include <stdlib.h>
#include <string.h>

#include "race/race_state.h"

static inline bool acc_writes(int k)
{
    return k == STEX_RACE_ACCESS_WRITE || k == STEX_RACE_ACCESS_ATOMIC_WRITE;
}

static inline bool acc_atomic(int k)
{
    return k == STEX_RACE_ACCESS_ATOMIC_READ || k == STEX_RACE_ACCESS_ATOMIC_WRITE;
}

void judge_slots(const uint64_t slot[ACC_KINDS][2], unsigned group_shift, bool suppress_ww,
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
                    if (!p || !q || group_of(p, group_shift) == group_of(q, group_shift))
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
    CMP_(site_a); /* the same pair from two barrier segments: the smallest sites */
    CMP_(site_b);
#undef CMP_
    return 0;
}


/* The (site, access) sides of c, the smaller first. */
static void sides_of(const race_cand *c, uint64_t out[2])
{
    uint64_t x = (uint64_t)c->site_a << 8 | c->acc_a, y = (uint64_t)c->site_b << 8 | c->acc_b;
    out[0] = x < y ? x : y;
    out[1] = x < y ? y : x;
}

static bool same_group(const race_cand *a, const race_cand *b)
{
    uint64_t sa[2], sb[2];
    sides_of(a, sa);
    sides_of(b, sb);
    return a->shadow == b->shadow && a->kind == b->kind && sa[0] == sb[0] && sa[1] == sb[1];
}

void group_vec_fold(group_vec *g, const race_cand *c, uint64_t count, uint64_t same)
{
    cand_group *hit = NULL;
    if (g->last < g->n && same_group(&g->v[g->last].ex, c))
        hit = &g->v[g->last];
    for (size_t i = 0; !hit && i < g->n; i++)
        if (same_group(&g->v[i].ex, c)) {
            hit = &g->v[i];
            g->last = i;
        }
    if (!hit) {
        if (g->n == g->cap) {
            size_t cap = g->cap ? 2 * g->cap : 8;
            cand_group *v = realloc(g->v, cap * sizeof *v);
            if (!v) {
                g->oom = true;
                return;
            }
            g->v = v;
            g->cap = cap;
        }
        g->last = g->n;
        hit = &g->v[g->n++];
        *hit = (cand_group){*c, 0, 0};
    }
    hit->count += count;
    hit->same += same;
}
