/* Internal to the race layer: shadow records, candidates, the detector. */
#ifndef STEX_RACE_STATE_H
#define STEX_RACE_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#include "race/race_internal.h"

enum { ACC_KINDS = 4 };            /* stex_race_access values */
#define SHADOW_CHUNK 4096u
#define WG_SHADOW (UINT32_MAX - 1) /* shadow id of var<workgroup>; +1 must not wrap to 0 */

/* An accessor: ((workgroup << lid_bits) | local_invocation_index) + 1, 0 =
 * none, with lid_bits (per dispatch, race_dispatch.lid_bits) just wide enough
 * for the workgroup's largest local index.  Keys order accessors by
 * (workgroup, local index); (key - 1) >> lid_bits is the workgroup, and
 * (key - 1) >> 0 tells invocations apart (see group_of in shadow.c). */
static inline uint64_t acc_key(uint64_t wg, uint32_t lid, unsigned lid_bits)
{
    return ((wg << lid_bits) | lid) + 1;
}
static inline uint64_t key_wg(uint64_t key, unsigned lid_bits) { return (key - 1) >> lid_bits; }
static inline uint32_t key_lid(uint64_t key, unsigned lid_bits)
{
    return (uint32_t)((key - 1) & ((1ull << lid_bits) - 1));
}

/* Per location, per access kind: the smallest accessor of the smallest
 * workgroup, and the smallest accessor of the second smallest workgroup.
 * A function of the set of accesses - never of their order. */
typedef struct shadow_rec {
    uint64_t slot[ACC_KINDS][2];
    uint64_t value;   /* hash of some written value */
    uint32_t flags;   /* REC_HAS_VALUE, REC_VALUES_DIFFER */
} shadow_rec;
/* Beside each shadow_rec when the executor names sites
 * (race_geometry.site_name): each slot's smallest site (slot_insert_site).
 * A chunk then holds SHADOW_CHUNK shadow_recs, then SHADOW_CHUNK site_recs. */
typedef struct site_rec {
    uint32_t site[ACC_KINDS][2];
} site_rec;
#define REC_HAS_VALUE 1u
#define REC_VALUES_DIFFER 2u

struct race_shadow {
    race_shadow_head h;         /* first: the inline hooks read it */
    uint32_t id;                /* rank by (memory, binding, mip): the report order */
    stex_race_memory memory;
    uint32_t binding, mip;
    const void *key;            /* texture or buffer */
    /* the bindings over it (race_dispatch_shadow): a race is named from
     * the start of the one that covers its location */
    struct shadow_alias {
        uint32_t ref;
        uint64_t first, span;
    } alias[4];
    uint32_t naliases;

    _Atomic(shadow_rec *) *chunks;
    uint64_t nchunks;
};

typedef struct race_cand {
    uint32_t shadow;
    uint64_t wgkey;             /* workgroup memory: the workgroup; else 0 */
    uint64_t loc;
    uint8_t kind;               /* stex_race_kind */
    uint8_t same_wg;
    uint8_t acc_a, acc_b;
    uint8_t counted;            /* already in the counts (summary details) */
    uint8_t needs_differ;       /* write-write kept only if the location's writes differ */
    uint64_t a, b;              /* accessor keys, a < b */
    uint32_t site_a, site_b;    /* their access sites (0 = unknown) */
} race_cand;

typedef struct cand_vec {
    race_cand *v;
    size_t n, cap;
    bool oom;
} cand_vec;
void cand_push(cand_vec *cv, const race_cand *c);

/* Lexicographic order of candidates: the report order. */
int cand_cmp(const void *a, const void *b);

/* The races of one dispatch in one group (stex_race_group) as the summary
 * detector counts them beyond its details: the first candidate and how
 * many (same: inside one workgroup).  Key: shadow, kind, and the two
 * (site, access) sides in either order. */
typedef struct cand_group {
    race_cand ex;
    uint64_t count, same;
} cand_group;
typedef struct group_vec {
    cand_group *v;
    size_t n, cap, last;
    bool oom;
} group_vec;
/* Adds `count` races of c's group (c the first unless the group exists). */
void group_vec_fold(group_vec *g, const race_cand *c, uint64_t count, uint64_t same);

/* Judges one access summary (two smallest per kind) and emits the smallest
 * conflicting pair per race kind.  Two accessors are unordered when their
 * keys differ after `group_shift`: lid_bits (different workgroups) or 0
 * (different invocations). */
typedef struct pair_pick {
    bool found[STEX_RACE_KIND_COUNT];
    uint64_t a[STEX_RACE_KIND_COUNT], b[STEX_RACE_KIND_COUNT];
    uint8_t acc_a[STEX_RACE_KIND_COUNT], acc_b[STEX_RACE_KIND_COUNT];
} pair_pick;
void judge_slots(const uint64_t slot[ACC_KINDS][2], unsigned group_shift, bool suppress_ww,
                 pair_pick *out);

struct race_dispatch {
    stex_race_detector *rd;
    race_geometry g;
    struct race_shadow **shadows;
    uint32_t nshadows;
    atomic_flag locks[4096];
    cand_vec found;
    atomic_bool oom;
    bool summary;               /* no barriers: the per-location summary decides */
    uint32_t invocations;       /* per workgroup (summary keys) */
    uint32_t key_base;          /* summary keys: key_base + linear invocation index */
    unsigned lid_bits;          /* accessor keys (acc_key) */
    uint32_t *thread_site;      /* sites: each recording thread's current site, else NULL */
    uint32_t nthread_site;
};

/* detector.c: adds a dispatch's sorted, deduplicated races (one count each). */
stex_status detector_add(stex_race_detector *rd, const struct race_dispatch *d,
                         const race_cand *c, size_t n);
/* Adds a dispatch's groups (the summary detector's complete counts). */
stex_status detector_add_groups(stex_race_detector *rd, const struct race_dispatch *d,
                                const cand_group *g, size_t n);
/* Adds counts of a binding without detail. */
stex_status detector_add_counts(stex_race_detector *rd, uint32_t binding, stex_race_memory m,
                                const uint64_t count[STEX_RACE_KIND_COUNT]);
/* Room left for detailed races; the end of a dispatch; shadow statistics. */
size_t detector_room(const stex_race_detector *rd);
void detector_dispatch_done(stex_race_detector *rd, uint64_t shadow_bytes);
bool detector_force_full(const stex_race_detector *rd);

/* summary.c: the summary detector's shadows and verdict. */
bool summary_shadow_alloc(struct race_shadow *s, bool atomics, bool values, uint32_t threads,
                          bool sites);
/* invocations: the dispatch's (the words' keys end below key_base + invocations) */
void summary_shadow_free(struct race_shadow *s, uint64_t invocations);
uint32_t summary_key_base(struct race_shadow **shadows, uint32_t n, uint64_t total);
uint64_t summary_shadow_resident(const struct race_shadow *s); /* bytes in RAM */
stex_status summary_dispatch_end(struct race_dispatch *d, cand_vec *details,
                                 uint64_t (*counts)[STEX_RACE_KIND_COUNT], group_vec *groups);

/* Shared by both detectors (shadow.c, summary.c) and judge.c. */
/* The group two accessors must differ in to be unordered: the workgroup
 * (shift = lid_bits) or the invocation (shift = 0). */
static inline uint64_t group_of(uint64_t key, unsigned shift)
{
    return (key - 1) >> shift;
}

static inline void slot_insert(uint64_t s[2], uint64_t key, unsigned shift)
{
    uint64_t g = group_of(key, shift);
    if (!s[0])
        s[0] = key;
    else if (group_of(s[0], shift) == g) {
        if (key < s[0])
            s[0] = key;
    } else if (key < s[0]) {
        s[1] = s[0];
        s[0] = key;
    } else if (!s[1] || key < s[1])
        s[1] = key;
}

/* slot_insert keeping, beside each kept key, the smallest known site of
 * that key's accesses (site_min): the keys are slot_insert's, the sites a
 * function of the set of (key, site) accesses. */
static inline void slot_insert_site(uint64_t s[2], uint32_t st[2], uint64_t key, uint32_t site,
                                    unsigned shift)
{
    uint64_t g = group_of(key, shift);
    if (!s[0]) {
        s[0] = key;
        st[0] = site;
    } else if (key == s[0])
        st[0] = site_min(st[0], site);
    else if (group_of(s[0], shift) == g) {
        if (key < s[0]) {
            s[0] = key;
            st[0] = site;
        }
    } else if (key < s[0]) {
        s[1] = s[0];
        st[1] = st[0];
        s[0] = key;
        st[0] = site;
    } else if (key == s[1])
        st[1] = site_min(st[1], site);
    else if (!s[1] || key < s[1]) {
        s[1] = key;
        st[1] = site;
    }
}

/* The site kept beside key `key` of access kind `acc` (0: none). */
static inline uint32_t slot_site(const uint64_t slot[ACC_KINDS][2],
                                 const uint32_t site[ACC_KINDS][2], uint8_t acc, uint64_t key)
{
    return slot[acc][0] == key ? site[acc][0] : slot[acc][1] == key ? site[acc][1] : 0;
}

#endif
