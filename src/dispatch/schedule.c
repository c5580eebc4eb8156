/* Schedules: the order workgroups start in, and the order of invocations
 * inside a workgroup.  SHUFFLED uses a seeded bijection computed on the fly,
 * so a dispatch of millions of workgroups needs no permutation table. */
#include <string.h>

#include "dispatch/dispatch_internal.h"

static const char *const schedule_names[] = {"in-order", "reversed", "shuffled", "interleaved"};
static const char *const visibility_names[] = {"immediate", "snapshot"};
static const char *const oob_names[] = {"zero", "zero-alpha-one", "random-texel"};

#define NAME_FNS(type, prefix, table)                                          \
    const char *prefix##_name(type v)                                          \
    {                                                                          \
        return (unsigned)v < sizeof table / sizeof table[0] ? table[v] : "?";  \
    }                                                                          \
    bool prefix##_from_name(const char *name, type *out)                       \
    {                                                                          \
        for (unsigned i = 0; name && i < sizeof table / sizeof table[0]; i++)  \
            if (strcmp(name, table[i]) == 0) {                                 \
                *out = (type)i;                                                \
                return true;                                                   \
            }                                                                  \
        return false;                                                          \
    }

NAME_FNS(stex_schedule, stex_schedule, schedule_names)
NAME_FNS(stex_visibility, stex_visibility, visibility_names)
NAME_FNS(stex_oob_load, stex_oob_load, oob_names)

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t sched_mix(uint64_t a, uint64_t b)
{
    return mix64(a ^ mix64(b + 0x9e3779b97f4a7c15ull));
}

void perm_init(perm *p, uint64_t n, stex_schedule kind, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    p->kind = kind;
    unsigned bits = 2;
    while (bits < 64 && (1ull << bits) < n)
        bits += 2;
    p->half_bits = bits / 2;
    p->mask = (1ull << p->half_bits) - 1;
    for (int r = 0; r < 4; r++)
        p->keys[r] = sched_mix(seed, (uint64_t)r + 1);
}

/* One balanced Feistel network: a bijection of [0, 4^half_bits). */
static uint64_t feistel(const perm *p, uint64_t x)
{
    uint64_t l = x >> p->half_bits, r = x & p->mask;
    for (int k = 0; k < 4; k++) {
        uint64_t t = l ^ (mix64(r ^ p->keys[k]) & p->mask);
        l = r;
        r = t;
    }
    return (l << p->half_bits) | r;
}

uint64_t perm_at(const perm *p, uint64_t i)
{
    switch (p->kind) {
    case STEX_SCHEDULE_REVERSED:
        return p->n - 1 - i;
    case STEX_SCHEDULE_SHUFFLED:
    case STEX_SCHEDULE_INTERLEAVED: {
        /* cycle-walking keeps the bijection inside [0, n) */
        uint64_t x = feistel(p, i);
        while (x >= p->n)
            x = feistel(p, x);
        return x;
    }
    default:
        return i;
    }
}

void sched_shuffle(uint32_t *order, uint32_t n, uint64_t seed)
{
    uint64_t r = mix64(seed) | 1; /* xorshift64* state: never 0 */
    for (uint32_t i = n - 1; i > 0; i--) {
        r ^= r >> 12;
        r ^= r << 25;
        r ^= r >> 27;
        uint64_t k = (r * 0x2545f4914f6cdd1dull) >> 32;
        uint32_t j = (uint32_t)((k * (i + 1)) >> 32); /* uniform in [0, i] */
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

void sched_invocation_order(uint32_t *order, uint32_t n, stex_schedule kind, uint64_t seed)
{
    for (uint32_t i = 0; i < n; i++)
        order[i] = kind == STEX_SCHEDULE_REVERSED ? n - 1 - i : i;
    if (kind == STEX_SCHEDULE_SHUFFLED || kind == STEX_SCHEDULE_INTERLEAVED)
        sched_shuffle(order, n, seed);
}
