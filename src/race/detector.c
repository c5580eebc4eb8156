/* The race detector object: options, counts, the race groups and the
 * first races in detail, with the texts that name them. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "race/race_state.h"

/* Location names (stex_race.name), kept in blocks that never move. */
typedef struct name_block {
    struct name_block *next;
    size_t used, cap;
    char text[];
} name_block;

struct stex_race_detector {
    stex_race_options opt;
    uint32_t dispatches;
    uint64_t count[STEX_RACE_KIND_COUNT];
    stex_race_binding_count *bc;
    size_t nbc, capbc;
    stex_race *races;
    size_t nraces, capraces;
    stex_race_group *groups;
    size_t ngroups, capgroups, last_group;
    bool force_full;            /* test hook: never the summary detector */
    uint64_t shadow_bytes;      /* of the last dispatch */
    char **texts;               /* the reported parties' source texts (stex_race_party.source) */
    size_t ntexts, captexts;
    name_block *names;          /* stex_race.name texts */
    const char *last_name;
    /* this dispatch's site -> text, direct-mapped (sites are a pipeline's) */
    struct site_memo { uint32_t site; const char *text; } memo[256];
};

static void texts_free(stex_race_detector *rd)
{
    for (size_t i = 0; i < rd->ntexts; i++)
        free(rd->texts[i]);
    rd->ntexts = 0;
    while (rd->names) {
        name_block *b = rd->names;
        rd->names = b->next;
        free(b);
    }
    rd->last_name = NULL;
    memset(rd->memo, 0, sizeof rd->memo);
}

/* A copy of location name s kept by the detector (the last one again when
 * equal: a texture's races all carry its variable's name); NULL: out of
 * memory. */
static const char *name_keep(stex_race_detector *rd, const char *s)
{
    if (rd->last_name && !strcmp(rd->last_name, s))
        return rd->last_name;
    size_t n = strlen(s) + 1;
    if (!rd->names || rd->names->used + n > rd->names->cap) {
        size_t cap = n > 65536 ? n : 65536;
        name_block *b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = rd->names;
        b->used = 0;
        b->cap = cap;
        rd->names = b;
    }
    char *t = rd->names->text + rd->names->used;
    memcpy(t, s, n);
    rd->names->used += n;
    return rd->last_name = t;
}

/* The text of site `site` of dispatch d, kept by the detector; NULL:
 * unknown (no site, or the executor does not name it) or out of memory. */
static const char *site_text(stex_race_detector *rd, const struct race_dispatch *d, uint32_t site)
{
    char buf[256];
    if (!site || !d->g.site_name || !d->g.site_name(d->g.site_user, site, buf, sizeof buf))
        return NULL;
    for (size_t i = rd->ntexts; i-- > 0;)
        if (!strcmp(rd->texts[i], buf))
            return rd->texts[i];
    if (rd->ntexts == rd->captexts) {
        size_t cap = rd->captexts ? 2 * rd->captexts : 16;
        char **v = realloc(rd->texts, cap * sizeof *v);
        if (!v)
            return NULL;
        rd->texts = v;
        rd->captexts = cap;
    }
    char *t = strdup(buf);
    if (t)
        rd->texts[rd->ntexts++] = t;
    return t;
}

/* site_text through the dispatch's memo. */
static const char *site_text_memo(stex_race_detector *rd, const struct race_dispatch *d,
                                  uint32_t site)
{
    if (!site || !d->g.site_name)
        return NULL;
    struct site_memo *m = &rd->memo[site & 255];
    if (m->site != site) {
        const char *t = site_text(rd, d, site);
        if (!t)
            return NULL;
        *m = (struct site_memo){site, t};
    }
    return m->text;
}

/* The binding of shadow s that covers location loc (the lowest such
 * reference), with the binding's first location in *first. */
static uint32_t covering(const struct race_shadow *s, uint64_t loc, uint64_t *first)
{
    uint32_t ref = s->binding;
    bool found = false;
    *first = 0;
    for (uint32_t i = 0; i < s->naliases; i++) {
        const struct shadow_alias *a = &s->alias[i];
        if (loc >= a->first && loc - a->first < a->span && (!found || a->ref < ref)) {
            ref = a->ref;
            *first = a->first;
            found = true;
        }
    }
    return ref;
}

/* The texts of race r of dispatch d: its parties' sources, its location's
 * name (the executor's, when it names locations). */
static void race_texts(stex_race_detector *rd, const struct race_dispatch *d, stex_race *r,
                       uint64_t first)
{
    r->a.source = site_text_memo(rd, d, r->a.site);
    r->b.source = site_text_memo(rd, d, r->b.site);
    r->name = NULL;
    if (!d->g.location_name)
        return;
    uint64_t byte = r->memory == STEX_RACE_MEMORY_TEXTURE ? 0 : (r->word - first) * 4;
    char buf[256];
    if (d->g.location_name(d->g.site_user, r->memory, r->binding, byte, buf, sizeof buf))
        r->name = name_keep(rd, buf);
}

/* Report order of two races (stex_race_reported's). */
static int race_order(const stex_race *a, const stex_race *b)
{
#define CMP_(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    CMP_(dispatch);
    CMP_(memory);
    CMP_(binding);
    CMP_(mip_level);
    for (int k = 2; k >= 0; k--) /* workgroup memory: its workgroup first */
        CMP_(a.workgroup_id[k]);
    for (int k = 2; k >= 0; k--)
        CMP_(coord[k]);
    CMP_(word);
    CMP_(kind);
#undef CMP_
    return 0;
}

/* Texts in natural order: runs of digits by value ("a:9:2" before "a:10:1"). */
static int natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            unsigned long long x = strtoull(a, (char **)&a, 10), y = strtoull(b, (char **)&b, 10);
            if (x != y)
                return x < y ? -1 : 1;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++, b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* A group's sides in order: by source (unknown first; file, line, column),
 * then access. */
static int side_cmp(const stex_race_site *x, const stex_race_site *y)
{
    if (x->source != y->source) {
        if (!x->source || !y->source)
            return x->source ? 1 : -1;
        int c = natural_cmp(x->source, y->source);
        if (c)
            return c;
    }
    return x->access != y->access ? (x->access < y->access ? -1 : 1) : 0;
}

static bool group_is(const stex_race_group *g, const stex_race *r, const stex_race_site s[2])
{
    return g->kind == r->kind && g->memory == r->memory && g->binding == r->binding &&
           g->sites[0].access == s[0].access && g->sites[0].source == s[0].source &&
           g->sites[1].access == s[1].access && g->sites[1].source == s[1].source;
}

/* Adds `count` races (`same` of them inside one workgroup) of r's group,
 * r their first: r's parties' sources are set (interned, so equal texts are
 * equal pointers), its name is filled in when it becomes the example. */
static stex_status group_fold(stex_race_detector *rd, const struct race_dispatch *d,
                              stex_race *r, uint64_t first, uint64_t count, uint64_t same)
{
    r->a.source = site_text_memo(rd, d, r->a.site);
    r->b.source = site_text_memo(rd, d, r->b.site);
    stex_race_site s[2] = {{r->a.access, r->a.site, r->a.source},
                           {r->b.access, r->b.site, r->b.source}};
    if (side_cmp(&s[1], &s[0]) < 0) {
        stex_race_site t = s[0];
        s[0] = s[1];
        s[1] = t;
    }
    stex_race_group *g = NULL;
    if (rd->last_group < rd->ngroups && group_is(&rd->groups[rd->last_group], r, s))
        g = &rd->groups[rd->last_group];
    for (size_t i = 0; !g && i < rd->ngroups; i++)
        if (group_is(&rd->groups[i], r, s)) {
            g = &rd->groups[i];
            rd->last_group = i;
        }
    if (g) {
        g->count += count;
        g->same_workgroup += same;
        if (race_order(r, &g->example) < 0) {
            race_texts(rd, d, r, first);
            g->example = *r;
        }
        return STEX_OK;
    }
    if (rd->ngroups == rd->capgroups) {
        size_t cap = rd->capgroups ? 2 * rd->capgroups : 8;
        stex_race_group *v = realloc(rd->groups, cap * sizeof *v);
        if (!v)
            return stex_fail(STEX_OUT_OF_MEMORY, "race detector: out of memory");
        rd->groups = v;
        rd->capgroups = cap;
    }
    race_texts(rd, d, r, first);
    rd->last_group = rd->ngroups;
    rd->groups[rd->ngroups++] = (stex_race_group){r->kind, r->memory, r->binding, {s[0], s[1]},
                                                  count, same, *r};
    return STEX_OK;
}

/* The largest group first, then by example. */
static int group_rank(const void *pa, const void *pb)
{
    const stex_race_group *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return race_order(&a->example, &b->example);
}

void race_detector_force_full(stex_race_detector *rd, bool on) { rd->force_full = on; }
bool detector_force_full(const stex_race_detector *rd) { return rd->force_full; }
uint64_t race_detector_shadow_bytes(const stex_race_detector *rd) { return rd->shadow_bytes; }

size_t detector_room(const stex_race_detector *rd)
{
    return rd->opt.max_reported - rd->nraces;
}

void detector_dispatch_done(stex_race_detector *rd, uint64_t shadow_bytes)
{
    rd->shadow_bytes = shadow_bytes;
    rd->dispatches++;
    memset(rd->memo, 0, sizeof rd->memo); /* the next dispatch's sites are its pipeline's */
    if (rd->ngroups > 1)
        qsort(rd->groups, rd->ngroups, sizeof *rd->groups, group_rank);
    rd->last_group = 0;
}

stex_status stex_race_detector_create(const stex_race_options *opt, stex_race_detector **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_race_detector_create: out is NULL");
    stex_race_detector *rd = calloc(1, sizeof *rd);
    if (!rd)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_race_detector_create: out of memory");
    if (opt)
        rd->opt = *opt;
    if (!rd->opt.max_reported)
        rd->opt.max_reported = 100;
    *out = rd;
    return STEX_OK;
}

void stex_race_detector_destroy(stex_race_detector *rd)
{
    if (!rd)
        return;
    texts_free(rd);
    free(rd->texts);
    free(rd->bc);
    free(rd->races);
    free(rd->groups);
    free(rd);
}

void stex_race_detector_reset(stex_race_detector *rd)
{
    rd->dispatches = 0;
    memset(rd->count, 0, sizeof rd->count);
    rd->nbc = 0;
    rd->nraces = 0;
    rd->ngroups = 0;
    rd->last_group = 0;
    texts_free(rd);
}

const stex_race_options *stex_race_detector_options(const stex_race_detector *rd)
{
    return &rd->opt;
}

const char *stex_race_kind_name(stex_race_kind k)
{
    static const char *const n[] = {"write-write", "read-write"};
    return (unsigned)k < STEX_RACE_KIND_COUNT ? n[k] : "?";
}

const char *stex_race_access_name(stex_race_access a)
{
    static const char *const n[] = {"read", "write", "atomic-read", "atomic-write"};
    return (unsigned)a < 4 ? n[a] : "?";
}

const char *stex_race_memory_name(stex_race_memory m)
{
    static const char *const n[] = {"texture", "buffer", "workgroup"};
    return (unsigned)m < 3 ? n[m] : "?";
}

uint64_t stex_race_count(const stex_race_detector *rd, stex_race_kind kind)
{
    if (kind == STEX_RACE_ANY)
        return rd->count[0] + rd->count[1];
    return (unsigned)kind < STEX_RACE_KIND_COUNT ? rd->count[kind] : 0;
}

uint32_t stex_race_dispatch_count(const stex_race_detector *rd) { return rd->dispatches; }

size_t stex_race_binding_counts(const stex_race_detector *rd, const stex_race_binding_count **out)
{
    *out = rd->bc;
    return rd->nbc;
}

size_t stex_race_reported(const stex_race_detector *rd) { return rd->nraces; }

const stex_race *stex_race_get(const stex_race_detector *rd, size_t i)
{
    return i < rd->nraces ? &rd->races[i] : NULL;
}

size_t stex_race_group_count(const stex_race_detector *rd) { return rd->ngroups; }

const stex_race_group *stex_race_group_get(const stex_race_detector *rd, size_t i)
{
    return i < rd->ngroups ? &rd->groups[i] : NULL;
}

/* Keeps r in detail (room permitting); false: out of memory. */
static bool keep_race(stex_race_detector *rd, const stex_race *r)
{
    if (rd->nraces >= rd->opt.max_reported)
        return true;
    if (rd->nraces == rd->capraces) {
        size_t cap = rd->capraces ? 2 * rd->capraces : 64;
        if (cap > rd->opt.max_reported)
            cap = rd->opt.max_reported;
        stex_race *v = realloc(rd->races, cap * sizeof *v);
        if (!v)
            return false;
        rd->races = v;
        rd->capraces = cap;
    }
    rd->races[rd->nraces++] = *r;
    return true;
}

static stex_race_binding_count *binding_count(stex_race_detector *rd, uint32_t binding,
                                              stex_race_memory m)
{
    size_t i = 0;
    while (i < rd->nbc && (rd->bc[i].memory < m || (rd->bc[i].memory == m && rd->bc[i].binding < binding)))
        i++;
    if (i < rd->nbc && rd->bc[i].binding == binding && rd->bc[i].memory == m)
        return &rd->bc[i];
    if (rd->nbc == rd->capbc) {
        size_t cap = rd->capbc ? rd->capbc * 2 : 8;
        stex_race_binding_count *v = realloc(rd->bc, cap * sizeof *v);
        if (!v)
            return NULL;
        rd->bc = v;
        rd->capbc = cap;
    }
    memmove(&rd->bc[i + 1], &rd->bc[i], (rd->nbc - i) * sizeof *rd->bc);
    memset(&rd->bc[i], 0, sizeof rd->bc[i]);
    rd->bc[i].binding = binding;
    rd->bc[i].memory = m;
    rd->nbc++;
    return &rd->bc[i];
}

static stex_race_party party(const struct race_dispatch *d, uint64_t key, uint8_t acc)
{
    stex_race_party p;
    uint64_t wg = key_wg(key, d->lid_bits);
    uint32_t lid = key_lid(key, d->lid_bits);
    const uint32_t *nw = d->g.num_wg, *sz = d->g.wg_size;
    p.workgroup_id[0] = (uint32_t)(wg % nw[0]);
    p.workgroup_id[1] = (uint32_t)(wg / nw[0] % nw[1]);
    p.workgroup_id[2] = (uint32_t)(wg / ((uint64_t)nw[0] * nw[1]));
    p.local_invocation_id[0] = lid % sz[0];
    p.local_invocation_id[1] = lid / sz[0] % sz[1];
    p.local_invocation_id[2] = lid / (sz[0] * sz[1]);
    p.access = (stex_race_access)acc;
    p.site = 0;
    p.source = NULL;
    return p;
}

/* r's location from candidate c: memory, binding (the one covering it),
 * texel or word; returns the covering binding's first location. */
static uint64_t race_fill(stex_race *r, const struct race_dispatch *d, const race_cand *c)
{
    uint64_t first = 0;
    if (c->shadow == WG_SHADOW) {
        r->memory = STEX_RACE_MEMORY_WORKGROUP;
        r->binding = STEX_RACE_NO_BINDING;
        r->word = c->loc;
        return 0;
    }
    const struct race_shadow *s = d->shadows[c->shadow];
    r->memory = s->memory;
    r->binding = covering(s, c->loc, &first);
    if (s->memory == STEX_RACE_MEMORY_TEXTURE) {
        r->mip_level = s->mip;
        r->coord[0] = (uint32_t)(c->loc % s->h.g.w);
        r->coord[1] = (uint32_t)(c->loc / s->h.g.w % s->h.g.h);
        r->coord[2] = (uint32_t)(c->loc / (s->h.g.w * s->h.g.h));
    } else
        r->word = c->loc;
    return first;
}

stex_status detector_add(stex_race_detector *rd, const struct race_dispatch *d,
                         const race_cand *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        stex_race r;
        memset(&r, 0, sizeof r);
        r.dispatch = rd->dispatches;
        r.kind = (stex_race_kind)c[i].kind;
        r.same_workgroup = c[i].same_wg;
        r.a = party(d, c[i].a, c[i].acc_a);
        r.b = party(d, c[i].b, c[i].acc_b);
        r.a.site = c[i].site_a;
        r.b.site = c[i].site_b;
        uint64_t first = race_fill(&r, d, &c[i]);
        /* counts per binding: the lowest binding of the memory, as the
         * summary detector counts */
        uint32_t counted_as = c[i].shadow == WG_SHADOW ? STEX_RACE_NO_BINDING
                                                       : d->shadows[c[i].shadow]->binding;
        if (!c[i].counted) { /* summary details: counted and grouped already */
            rd->count[r.kind]++;
            stex_race_binding_count *bc = binding_count(rd, counted_as, r.memory);
            if (!bc)
                return stex_fail(STEX_OUT_OF_MEMORY, "race detector: out of memory");
            bc->count[r.kind]++;
            stex_status st = group_fold(rd, d, &r, first, 1, r.same_workgroup);
            if (st)
                return st;
        }
        if (rd->nraces < rd->opt.max_reported) {
            race_texts(rd, d, &r, first);
            if (!keep_race(rd, &r))
                return stex_fail(STEX_OUT_OF_MEMORY, "race detector: out of memory");
        }
    }
    return STEX_OK;
}

stex_status detector_add_groups(stex_race_detector *rd, const struct race_dispatch *d,
                                const cand_group *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        stex_race r;
        memset(&r, 0, sizeof r);
        r.dispatch = rd->dispatches;
        r.kind = (stex_race_kind)g[i].ex.kind;
        r.same_workgroup = g[i].ex.same_wg;
        r.a = party(d, g[i].ex.a, g[i].ex.acc_a);
        r.b = party(d, g[i].ex.b, g[i].ex.acc_b);
        r.a.site = g[i].ex.site_a;
        r.b.site = g[i].ex.site_b;
        uint64_t first = race_fill(&r, d, &g[i].ex);
        stex_status st = group_fold(rd, d, &r, first, g[i].count, g[i].same);
        if (st)
            return st;
    }
    return STEX_OK;
}

stex_status detector_add_counts(stex_race_detector *rd, uint32_t binding, stex_race_memory m,
                                const uint64_t count[STEX_RACE_KIND_COUNT])
{
    if (!count[0] && !count[1])
        return STEX_OK;
    stex_race_binding_count *bc = binding_count(rd, binding, m);
    if (!bc)
        return stex_fail(STEX_OUT_OF_MEMORY, "race detector: out of memory");
    for (int k = 0; k < STEX_RACE_KIND_COUNT; k++) {
        bc->count[k] += count[k];
        rd->count[k] += count[k];
    }
    return STEX_OK;
}
