/* The race detector object: options, counts and the first races in detail. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "race/race_state.h"

struct stex_race_detector {
    stex_race_options opt;
    uint32_t dispatches;
    uint64_t count[STEX_RACE_KIND_COUNT];
    stex_race_binding_count *bc;
    size_t nbc, capbc;
    stex_race *races;
    size_t nraces;
    bool force_full;            /* test hook: never the summary detector */
    uint64_t shadow_bytes;      /* of the last dispatch */
    char **texts;               /* the reported parties' source texts (stex_race_party.source) */
    size_t ntexts, captexts;
};

static void texts_free(stex_race_detector *rd)
{
    for (size_t i = 0; i < rd->ntexts; i++)
        free(rd->texts[i]);
    rd->ntexts = 0;
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
    rd->races = calloc(rd->opt.max_reported, sizeof *rd->races);
    if (!rd->races) {
        free(rd);
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_race_detector_create: out of memory");
    }
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
    free(rd);
}

void stex_race_detector_reset(stex_race_detector *rd)
{
    rd->dispatches = 0;
    memset(rd->count, 0, sizeof rd->count);
    rd->nbc = 0;
    rd->nraces = 0;
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
        if (rd->nraces < rd->opt.max_reported) {
            r.a.source = site_text(rd, d, r.a.site);
            r.b.source = site_text(rd, d, r.b.site);
        }
        if (c[i].shadow == WG_SHADOW) {
            r.memory = STEX_RACE_MEMORY_WORKGROUP;
            r.binding = STEX_RACE_NO_BINDING;
            r.word = c[i].loc;
        } else {
            const struct race_shadow *s = d->shadows[c[i].shadow];
            r.memory = s->memory;
            r.binding = s->binding;
            if (s->memory == STEX_RACE_MEMORY_TEXTURE) {
                r.mip_level = s->mip;
                r.coord[0] = (uint32_t)(c[i].loc % s->h.g.w);
                r.coord[1] = (uint32_t)(c[i].loc / s->h.g.w % s->h.g.h);
                r.coord[2] = (uint32_t)(c[i].loc / (s->h.g.w * s->h.g.h));
            } else
                r.word = c[i].loc;
        }
        if (c[i].counted) {
            if (rd->nraces < rd->opt.max_reported)
                rd->races[rd->nraces++] = r;
            continue;
        }
        rd->count[r.kind]++;
        stex_race_binding_count *bc = binding_count(rd, r.binding, r.memory);
        if (!bc)
            return stex_fail(STEX_OUT_OF_MEMORY, "race detector: out of memory");
        bc->count[r.kind]++;
        if (rd->nraces < rd->opt.max_reported)
            rd->races[rd->nraces++] = r;
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
