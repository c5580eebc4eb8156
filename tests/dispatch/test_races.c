/* The race detector against an independent oracle.
 *
 * Each corpus entry is a tiny program (loads, stores, atomics, barriers, with
 * addresses relative to the invocation) run by one interpreting kernel.  The
 * oracle runs the same program on paper: it lists every access with its
 * workgroup, invocation and barrier epochs, and compares every pair with the
 * happens-before rule (O(n^2), no shadow, no summary).  The detector must
 * report exactly the oracle's set of (location, kind) - no false positive, no
 * miss - with parties that really conflict, and the same report for every
 * schedule, seed, thread count and visibility mode.  Racy programs come in
 * pairs with their fix, as in Oclgrind's corpus. */
#include "dtest.h"
#include "race/race_internal.h"

enum { TW = 16, TH = 8, WX = 4, WY = 4, NWX = TW / WX, NWY = TH / WY, PER = WX * WY };

typedef enum opk {
    END = 0, TLOAD, TSTORE, T1LOAD, BLOAD, BSTORE, BATOMIC, BATOMICLOAD, WLOAD, WSTORE,
    BAR_WG, BAR_STORAGE, BAR_TEXTURE
} opk;
typedef enum addr { A_G, A_LOCAL, A_WG, A_MIRROR, A_FIXED } addr;
typedef enum val { V_GID, V_CONST } val;

typedef struct op {
    opk k;
    addr a;
    int dx, dy;
    val v;
} op;

typedef struct race_case {
    const char *name;
    op prog[8];
    bool racy;          /* what the lessons say (a sanity check of the oracle) */
    bool suppress;      /* suppress_same_value */
} race_case;

#define P(...) {__VA_ARGS__, {END, 0, 0, 0, 0}}

static const race_case corpus[] = {
    {"decaer: own texel in place", P({TLOAD, A_G, 0, 0, 0}, {TSTORE, A_G, 0, 0, V_GID}), false, false},
    {"difundir: neighbours in place", P({TLOAD, A_G, -1, 0, 0}, {TLOAD, A_G, 1, 0, 0}, {TLOAD, A_G, 0, -1, 0},
                                        {TLOAD, A_G, 0, 1, 0}, {TSTORE, A_G, 0, 0, V_GID}), true, false},
    {"difundir fixed: ping-pong", P({T1LOAD, A_G, -1, 0, 0}, {T1LOAD, A_G, 1, 0, 0}, {T1LOAD, A_G, 0, -1, 0},
                                    {T1LOAD, A_G, 0, 1, 0}, {TSTORE, A_G, 0, 0, V_GID}), false, false},
    {"write-write across workgroups", P({TSTORE, A_LOCAL, 0, 0, V_GID}), true, false},
    {"write-write inside a workgroup", P({TSTORE, A_WG, 0, 0, V_GID}), true, false},
    {"fixed: one writer per texel", P({TSTORE, A_G, 0, 0, V_GID}), false, false},
    {"atomics do not race", P({BATOMIC, A_FIXED, 3, 0, 0}, {BATOMICLOAD, A_FIXED, 3, 0, 0}), false, false},
    {"plain read of an atomic counter", P({BATOMIC, A_FIXED, 3, 0, 0}, {BLOAD, A_FIXED, 3, 0, 0}), true, false},
    {"buffer: read the next word", P({BSTORE, A_G, 0, 0, V_GID}, {BLOAD, A_G, 1, 0, 0}), true, false},
    {"buffer fixed: own word", P({BLOAD, A_G, 0, 0, 0}, {BSTORE, A_G, 0, 0, V_GID}), false, false},
    {"reduction with workgroupBarrier", P({WSTORE, A_G, 0, 0, V_GID}, {BAR_WG, 0, 0, 0, 0},
                                          {WLOAD, A_MIRROR, 0, 0, 0}), false, false},
    {"reduction missing its barrier", P({WSTORE, A_G, 0, 0, V_GID}, {WLOAD, A_MIRROR, 0, 0, 0}), true, false},
    {"barrier in the wrong place", P({BAR_WG, 0, 0, 0, 0}, {WSTORE, A_G, 0, 0, V_GID},
                                     {WLOAD, A_MIRROR, 0, 0, 0}), true, false},
    {"storageBarrier does not cover textures", P({TSTORE, A_G, 0, 0, V_GID}, {BAR_STORAGE, 0, 0, 0, 0},
                                                 {TLOAD, A_MIRROR, 0, 0, 0}), true, false},
    {"textureBarrier mirror copy", P({TSTORE, A_G, 0, 0, V_GID}, {BAR_TEXTURE, 0, 0, 0, 0},
                                     {TLOAD, A_MIRROR, 0, 0, 0}), false, false},
    {"textureBarrier does not cross workgroups", P({TSTORE, A_G, 0, 0, V_GID}, {BAR_TEXTURE, 0, 0, 0, 0},
                                                   {TLOAD, A_G, 1, 0, 0}), true, false},
    {"storageBarrier orders buffer words", P({BSTORE, A_G, 0, 0, V_GID}, {BAR_STORAGE, 0, 0, 0, 0},
                                             {BLOAD, A_MIRROR, 0, 0, 0}), false, false},
    {"textureBarrier does not cover buffers", P({BSTORE, A_G, 0, 0, V_GID}, {BAR_TEXTURE, 0, 0, 0, 0},
                                                {BLOAD, A_MIRROR, 0, 0, 0}), true, false},
    {"same value everywhere, reported", P({TSTORE, A_FIXED, 2, 1, V_CONST}), true, false},
    {"same value everywhere, suppressed", P({TSTORE, A_FIXED, 2, 1, V_CONST}), false, true},
    {"different values, not suppressed", P({TSTORE, A_FIXED, 2, 1, V_GID}), true, true},
};

typedef struct ids {
    int gx, gy, lx, ly, wx, wy, lid, wg;
} ids;

static bool uses_barriers(const op *p)
{
    for (; p->k != END; p++)
        if (p->k >= BAR_WG)
            return true;
    return false;
}

static void where(const op *o, const ids *id, int *x, int *y)
{
    switch (o->a) {
    case A_G: *x = id->gx + o->dx; *y = id->gy + o->dy; break;
    case A_LOCAL: *x = id->lx + o->dx; *y = id->ly + o->dy; break;
    case A_WG: *x = id->wx + o->dx; *y = id->wy + o->dy; break;
    case A_MIRROR: *x = id->wx * WX + (WX - 1 - id->lx); *y = id->wy * WY + (WY - 1 - id->ly); break;
    default: *x = o->dx; *y = o->dy; break; /* A_FIXED */
    }
}

/* buffer word of an (x, y) pair: the texel grid laid out linearly */
static uint64_t buf_word(int x, int y)
{
    return x >= 0 && x < TW && y >= 0 && y < TH ? (uint64_t)(y * TW + x) : UINT64_MAX / 8;
}

/* var<workgroup> word: (x, y) relative to the workgroup's tile */
static uint64_t wg_word(const ids *id, int x, int y)
{
    int rx = x - id->wx * WX, ry = y - id->wy * WY;
    return rx >= 0 && rx < WX && ry >= 0 && ry < WY ? (uint64_t)(ry * WX + rx) : 1u << 20;
}

static uint32_t value_of(const op *o, const ids *id)
{
    return o->v == V_CONST ? 42u : (uint32_t)(id->gx + 1000 * id->gy + 1);
}

static ids ids_of(const stex_invocation *inv)
{
    ids id = {(int)inv->global_invocation_id[0], (int)inv->global_invocation_id[1],
              (int)inv->local_invocation_id[0], (int)inv->local_invocation_id[1],
              (int)inv->workgroup_id[0], (int)inv->workgroup_id[1],
              (int)inv->local_invocation_index, (int)(inv->workgroup_id[0] + NWX * inv->workgroup_id[1])};
    return id;
}

static void interpret(const stex_invocation *inv)
{
    const op *p = inv->params;
    ids id = ids_of(inv);
    uint32_t acc = 0;
    for (; p->k != END; p++) {
        int x, y;
        where(p, &id, &x, &y);
        switch (p->k) {
        case TLOAD: acc += stex_textureLoad_2d(inv, 0, x, y).v.u[0]; break;
        case T1LOAD: acc += stex_textureLoad_2d(inv, 1, x, y).v.u[0]; break;
        case TSTORE: stex_textureStore_2d(inv, 0, x, y, stex_u32x4(value_of(p, &id), 0, 0, 0)); break;
        case BLOAD: acc += stex_buffer_load_u32(inv, 2, buf_word(x, y)); break;
        case BSTORE: stex_buffer_store_u32(inv, 2, buf_word(x, y), value_of(p, &id)); break;
        case BATOMIC: stex_atomicAdd(inv, 2, buf_word(x, y), 1); break;
        case BATOMICLOAD: acc += stex_atomicLoad(inv, 2, buf_word(x, y)); break;
        case WLOAD: acc += stex_workgroup_load_u32(inv, wg_word(&id, x, y)); break;
        case WSTORE: stex_workgroup_store_u32(inv, wg_word(&id, x, y), value_of(p, &id)); break;
        case BAR_WG: stex_workgroupBarrier(inv); break;
        case BAR_STORAGE: stex_storageBarrier(inv); break;
        case BAR_TEXTURE: stex_textureBarrier(inv); break;
        case END: break;
        }
    }
    (void)acc;
}

/* ---- the oracle ---- */

typedef struct access {
    int mem;            /* STEX_RACE_MEMORY_* */
    uint64_t loc;       /* texel (y * TW + x), buffer word, or wg * 64 + workgroup word */
    stex_race_access kind;
    int wg, lid;
    int epoch;          /* barriers covering this memory passed so far */
    uint32_t value;
} access;

typedef struct expect {
    int mem;
    uint64_t loc;
    stex_race_kind kind;
} expect;

static bool writes(stex_race_access k) { return k == STEX_RACE_ACCESS_WRITE || k == STEX_RACE_ACCESS_ATOMIC_WRITE; }
static bool atomic(stex_race_access k) { return k >= STEX_RACE_ACCESS_ATOMIC_READ; }

static size_t oracle_accesses(const op *prog, access *out)
{
    size_t n = 0;
    for (int wg = 0; wg < NWX * NWY; wg++)
        for (int lid = 0; lid < PER; lid++) {
            ids id = {0};
            id.wx = wg % NWX;
            id.wy = wg / NWX;
            id.lx = lid % WX;
            id.ly = lid / WX;
            id.gx = id.wx * WX + id.lx;
            id.gy = id.wy * WY + id.ly;
            id.lid = lid;
            id.wg = wg;
            int epoch[3] = {0, 0, 0}; /* texture, buffer, workgroup */
            for (const op *p = prog; p->k != END; p++) {
                int x, y;
                where(p, &id, &x, &y);
                access a = {0, 0, STEX_RACE_ACCESS_READ, wg, lid, 0, value_of(p, &id)};
                bool in = true;
                switch (p->k) {
                case TLOAD: case TSTORE:
                    a.mem = STEX_RACE_MEMORY_TEXTURE;
                    in = x >= 0 && x < TW && y >= 0 && y < TH;
                    a.loc = (uint64_t)(y * TW + x);
                    a.kind = p->k == TSTORE ? STEX_RACE_ACCESS_WRITE : STEX_RACE_ACCESS_READ;
                    a.epoch = epoch[0];
                    break;
                case BLOAD: case BSTORE: case BATOMIC: case BATOMICLOAD:
                    a.mem = STEX_RACE_MEMORY_BUFFER;
                    a.loc = buf_word(x, y);
                    in = a.loc < TW * TH;
                    a.kind = p->k == BLOAD ? STEX_RACE_ACCESS_READ : p->k == BSTORE ? STEX_RACE_ACCESS_WRITE
                             : p->k == BATOMIC ? STEX_RACE_ACCESS_ATOMIC_WRITE : STEX_RACE_ACCESS_ATOMIC_READ;
                    a.epoch = epoch[1];
                    break;
                case WLOAD: case WSTORE:
                    a.mem = STEX_RACE_MEMORY_WORKGROUP;
                    in = wg_word(&id, x, y) < PER;
                    a.loc = (uint64_t)wg * 64 + wg_word(&id, x, y);
                    a.kind = p->k == WSTORE ? STEX_RACE_ACCESS_WRITE : STEX_RACE_ACCESS_READ;
                    a.epoch = epoch[2];
                    break;
                case BAR_TEXTURE: epoch[0]++; in = false; break;
                case BAR_STORAGE: epoch[1]++; in = false; break;
                case BAR_WG: epoch[2]++; in = false; break;
                default: in = false;
                }
                if (in)
                    out[n++] = a;
            }
        }
    return n;
}

static bool all_writes_same(const access *a, size_t n, int mem, uint64_t loc)
{
    bool have = false;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i].mem == mem && a[i].loc == loc && a[i].kind == STEX_RACE_ACCESS_WRITE) {
            if (have && a[i].value != v)
                return false;
            have = true;
            v = a[i].value;
        }
    return true;
}

static bool conflict(const access *a, const access *b, bool suppress_same, const access *all, size_t n)
{
    if (a->mem != b->mem || a->loc != b->loc)
        return false;
    if (!writes(a->kind) && !writes(b->kind))
        return false;
    if (atomic(a->kind) && atomic(b->kind))
        return false;
    if (a->wg == b->wg && a->lid == b->lid)
        return false;
    if (a->wg == b->wg && a->epoch != b->epoch)
        return false; /* a covering barrier orders them */
    if (suppress_same && a->kind == STEX_RACE_ACCESS_WRITE && b->kind == STEX_RACE_ACCESS_WRITE
        && all_writes_same(all, n, a->mem, a->loc))
        return false;
    return true;
}

static size_t oracle_races(const access *a, size_t n, bool suppress, expect *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            if (!conflict(&a[i], &a[j], suppress, a, n))
                continue;
            expect e = {a[i].mem, a[i].loc,
                        writes(a[i].kind) && writes(a[j].kind) ? STEX_RACE_WRITE_WRITE : STEX_RACE_READ_WRITE};
            bool dup = false;
            for (size_t k = 0; k < m && !dup; k++)
                dup = out[k].mem == e.mem && out[k].loc == e.loc && out[k].kind == e.kind;
            if (!dup)
                out[m++] = e;
        }
    return m;
}

/* ---- running the detector ---- */

typedef struct rig {
    stex_device *dev;
    stex_texture *t, *t1;
    stex_texture_view *v, *v1;
    stex_buffer *b;
} rig;

static void rig_make(rig *r)
{
    r->dev = dt_device();
    r->t = dt_texture(r->dev, 0, TW, TH, 1, STEX_FORMAT_R32UINT, 1);
    r->t1 = dt_texture(r->dev, 0, TW, TH, 1, STEX_FORMAT_R32UINT, 1);
    r->v = dt_view(r->t, NULL);
    r->v1 = dt_view(r->t1, NULL);
    r->b = dt_buffer(r->dev, 4 * TW * TH, STEX_BUFFER_USAGE_STORAGE);
}

static void rig_free(rig *r)
{
    stex_texture_view_destroy(r->v);
    stex_texture_view_destroy(r->v1);
    stex_texture_destroy(r->t);
    stex_texture_destroy(r->t1);
    stex_buffer_destroy(r->b);
    dt_release(r->dev);
}

/* true: every dispatch uses the full (barrier-aware) detector, never the summary */
static bool force_full;

static char *run_detector(rig *r, const race_case *c, const stex_dispatch_options *base,
                          stex_race_detector **out)
{
    stex_layout_entry e[3] = {dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32UINT, 0),
                              dt_storage_entry(1, STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32UINT, 0),
                              dt_buffer_entry(2, STEX_BINDING_STORAGE_BUFFER)};
    stex_pipeline_desc pd = {.kernel = interpret, .workgroup_size = {WX, WY, 1}, .entries = e,
                             .entry_count = 3, .workgroup_memory_size = 4 * PER,
                             .uses_barriers = uses_barriers(c->prog)};
    stex_pipeline *p;
    stex_bind_group *g;
    DT_OK(stex_pipeline_create(r->dev, &pd, &p));
    stex_bind_group_entry be[3] = {{.binding = 0, .view = r->v}, {.binding = 1, .view = r->v1},
                                   {.binding = 2, .buffer = r->b}};
    DT_OK(stex_bind_group_create(p, be, 3, &g));
    stex_race_options ro = {.suppress_same_value = c->suppress, .max_reported = 100000};
    stex_race_detector *rd;
    DT_OK(stex_race_detector_create(&ro, &rd));
    race_detector_force_full(rd, force_full);
    stex_dispatch_options o = *base;
    o.races = rd;
    o.params = c->prog;
    DT_OK(stex_dispatch(p, g, NWX, NWY, 1, &o));
    char *json = stex_race_report_json_string(rd);
    assert_non_null(json);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    if (out)
        *out = rd;
    else
        stex_race_detector_destroy(rd);
    return json;
}

static uint64_t loc_of(const stex_race *r)
{
    if (r->memory == STEX_RACE_MEMORY_TEXTURE)
        return (uint64_t)r->coord[1] * TW + r->coord[0];
    if (r->memory == STEX_RACE_MEMORY_WORKGROUP)
        return (uint64_t)(r->a.workgroup_id[0] + NWX * r->a.workgroup_id[1]) * 64 + r->word;
    return r->word;
}

/* Did party p really make an access of its kind to the location? */
static bool party_accessed(const stex_race_party *p, int mem, uint64_t loc, const access *a, size_t n,
                           access *found)
{
    int wg = (int)(p->workgroup_id[0] + NWX * p->workgroup_id[1]);
    int lid = (int)(p->local_invocation_id[0] + WX * p->local_invocation_id[1]);
    for (size_t i = 0; i < n; i++)
        if (a[i].mem == mem && a[i].loc == loc && a[i].wg == wg && a[i].lid == lid && a[i].kind == p->access) {
            *found = a[i];
            return true;
        }
    return false;
}

static void check_case(rig *r, const race_case *c)
{
    static access acc[NWX * NWY * PER * 8];
    static expect want[NWX * NWY * PER * 8];
    size_t na = oracle_accesses(c->prog, acc);
    size_t nw = oracle_races(acc, na, c->suppress, want);
    if ((nw > 0) != c->racy)
        fail_msg("%s: the oracle finds %zu races, the lessons say %s", c->name, nw,
                 c->racy ? "racy" : "race-free");
    stex_dispatch_options o = {.threads = 1};
    stex_race_detector *rd;
    char *json = run_detector(r, c, &o, &rd);
    size_t n = stex_race_reported(rd);
    if (n != nw || stex_race_count(rd, STEX_RACE_ANY) != nw)
        fail_msg("%s: detector reports %zu races (count %llu), oracle %zu\n%s", c->name, n,
                 (unsigned long long)stex_race_count(rd, STEX_RACE_ANY), nw, json);
    for (size_t i = 0; i < n; i++) {
        const stex_race *x = stex_race_get(rd, i);
        uint64_t loc = loc_of(x);
        bool listed = false;
        for (size_t k = 0; k < nw && !listed; k++)
            listed = want[k].mem == (int)x->memory && want[k].loc == loc && want[k].kind == x->kind;
        if (!listed)
            fail_msg("%s: false positive: %s race at %s location %llu", c->name,
                     stex_race_kind_name(x->kind), stex_race_memory_name(x->memory),
                     (unsigned long long)loc);
        access pa, pb;
        if (!party_accessed(&x->a, (int)x->memory, loc, acc, na, &pa)
            || !party_accessed(&x->b, (int)x->memory, loc, acc, na, &pb)
            || !conflict(&pa, &pb, c->suppress, acc, na))
            fail_msg("%s: race %zu names parties that do not conflict", c->name, i);
        if (x->same_workgroup != (pa.wg == pb.wg))
            fail_msg("%s: race %zu: same_workgroup flag wrong", c->name, i);
    }
    /* the verdict does not depend on schedule, seed, threads or visibility */
    for (int s = 0; s < 4; s++)
        for (uint64_t seed = 1; seed <= (s == STEX_SCHEDULE_SHUFFLED ? 8u : 1u); seed++)
            for (int threads = 1; threads <= 2; threads++) {
                /* s == 3: snapshot visibility, shuffled */
                stex_dispatch_options o2 = {.schedule = s == 3 ? STEX_SCHEDULE_SHUFFLED : (stex_schedule)s,
                                            .seed = seed, .threads = threads,
                                            .visibility = s == 3 ? STEX_VISIBILITY_SNAPSHOT
                                                                 : STEX_VISIBILITY_IMMEDIATE};
                char *j2 = run_detector(r, c, &o2, NULL);
                if (strcmp(json, j2))
                    fail_msg("%s: report differs under %s seed %llu, %d threads, %s visibility",
                             c->name, stex_schedule_name(o2.schedule), (unsigned long long)seed,
                             threads, stex_visibility_name(o2.visibility));
                free(j2);
            }
    free(json);
    stex_race_detector_destroy(rd);
}

static void test_corpus(void **state)
{
    (void)state;
    rig r;
    rig_make(&r);
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++)
        check_case(&r, &corpus[i]);
    rig_free(&r);
}

static void test_report_formats(void **state)
{
    (void)state;
    rig r;
    rig_make(&r);
    stex_race_detector *rd;
    stex_dispatch_options o = {.threads = 1};
    char *json = run_detector(&r, &corpus[1], &o, &rd); /* difundir */
    char *text = stex_race_report_text_string(rd);
    assert_non_null(text);
    assert_non_null(strstr(text, "read-write"));
    assert_non_null(strstr(text, "texture @group(0) @binding(0) texel"));
    assert_non_null(strstr(text, "RACE SUMMARY: "));
    assert_non_null(strstr(json, "\"kind\": \"read-write\""));
    /* counts per binding add up to the totals */
    const stex_race_binding_count *bc;
    size_t nb = stex_race_binding_counts(rd, &bc);
    uint64_t sum = 0;
    for (size_t i = 0; i < nb; i++)
        sum += bc[i].count[0] + bc[i].count[1];
    assert_int_equal(sum, stex_race_count(rd, STEX_RACE_ANY));
    /* max_reported truncates the detail, never the counts */
    stex_race_options ro = {.max_reported = 3};
    stex_race_detector *small;
    DT_OK(stex_race_detector_create(&ro, &small));
    stex_layout_entry e[3] = {dt_storage_entry(0, STEX_ACCESS_READ_WRITE, STEX_FORMAT_R32UINT, 0),
                              dt_storage_entry(1, STEX_ACCESS_READ_ONLY, STEX_FORMAT_R32UINT, 0),
                              dt_buffer_entry(2, STEX_BINDING_STORAGE_BUFFER)};
    stex_pipeline_desc pd = {.kernel = interpret, .workgroup_size = {WX, WY, 1}, .entries = e,
                             .entry_count = 3, .workgroup_memory_size = 64};
    stex_pipeline *p;
    stex_bind_group *g;
    DT_OK(stex_pipeline_create(r.dev, &pd, &p));
    stex_bind_group_entry be[3] = {{.binding = 0, .view = r.v}, {.binding = 1, .view = r.v1},
                                   {.binding = 2, .buffer = r.b}};
    DT_OK(stex_bind_group_create(p, be, 3, &g));
    stex_dispatch_options o2 = {.races = small, .params = corpus[1].prog};
    DT_OK(stex_dispatch(p, g, NWX, NWY, 1, &o2));
    assert_int_equal(stex_race_reported(small), 3);
    assert_int_equal(stex_race_count(small, STEX_RACE_ANY), stex_race_count(rd, STEX_RACE_ANY));
    /* ... nor the groups: every race in one, the same groups either way */
    uint64_t in_groups = 0;
    assert_int_equal(stex_race_group_count(small), stex_race_group_count(rd));
    for (size_t i = 0; i < stex_race_group_count(small); i++) {
        in_groups += stex_race_group_get(small, i)->count;
        assert_int_equal(stex_race_group_get(small, i)->count, stex_race_group_get(rd, i)->count);
    }
    assert_int_equal(in_groups, stex_race_count(rd, STEX_RACE_ANY));
    for (size_t i = 0; i < 3; i++)
        assert_memory_equal(stex_race_get(small, i), stex_race_get(rd, i), sizeof(stex_race));
    DT_OK(stex_dispatch(p, g, NWX, NWY, 1, &o2)); /* accumulates */
    assert_int_equal(stex_race_dispatch_count(small), 2);
    assert_int_equal(stex_race_count(small, STEX_RACE_ANY), 2 * stex_race_count(rd, STEX_RACE_ANY));
    stex_race_detector_reset(small);
    assert_int_equal(stex_race_count(small, STEX_RACE_ANY), 0);
    stex_race_detector_destroy(small);
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    free(text);
    free(json);
    stex_race_detector_destroy(rd);
    rig_free(&r);
}

/* Pipelines without barriers go to the summary detector; the full detector
 * must give byte-identical reports (counts, order, locations, parties). */
static void same_reports(rig *r, const race_case *c)
{
    for (int s = 0; s < 3; s++)
        for (int threads = 1; threads <= 2; threads++) {
            stex_dispatch_options o = {.schedule = (stex_schedule)s, .seed = 7, .threads = threads};
            force_full = false;
            char *summary = run_detector(r, c, &o, NULL);
            force_full = true;
            char *full = run_detector(r, c, &o, NULL);
            force_full = false;
            if (strcmp(summary, full))
                fail_msg("%s (%s, %d threads): the summary detector and the full detector "
                         "disagree\nsummary: %s\nfull: %s", c->name,
                         stex_schedule_name(o.schedule), threads, summary, full);
            free(summary);
            free(full);
        }
}

static void test_summary_equals_full(void **state)
{
    (void)state;
    rig r;
    rig_make(&r);
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++)
        if (!uses_barriers(corpus[i].prog))
            same_reports(&r, &corpus[i]);
    rig_free(&r);
}

/* Random barrier-free programs (seeded): the summary detector against the
 * oracle (every check of the corpus) and against the full detector. */
static void test_random_programs(void **state)
{
    (void)state;
    rig r;
    rig_make(&r);
    static const opk kinds[] = {TLOAD, TSTORE, T1LOAD, BLOAD, BSTORE, BATOMIC, BATOMICLOAD,
                                WLOAD, WSTORE};
    uint64_t x = 0x5eedf00dull;
#define RND(n) ((x = x * 6364136223846793005ull + 1442695040888963407ull), (int)((x >> 33) % (n)))
    for (int k = 0; k < 30; k++) {
        race_case c = {"random", {{END, 0, 0, 0, 0}}, false, RND(2) == 1};
        int n = 1 + RND(4);
        for (int i = 0; i < n; i++) {
            op o = {kinds[RND(9)], (addr)RND(5), RND(3) - 1, RND(3) - 1, (val)RND(2)};
            if (o.a == A_FIXED) {
                o.dx = RND(3);
                o.dy = RND(2);
            }
            c.prog[i] = o;
        }
        static access acc[NWX * NWY * PER * 8];
        static expect want[NWX * NWY * PER * 8];
        c.racy = oracle_races(acc, oracle_accesses(c.prog, acc), c.suppress, want) > 0;
        char name[256];
        int len = snprintf(name, sizeof name, "random %d (suppress %d):", k, c.suppress);
        for (int i = 0; i < n && len < 200; i++)
            len += snprintf(name + len, sizeof name - (size_t)len, " {%d,%d,%d,%d,%d}", c.prog[i].k,
                            c.prog[i].a, c.prog[i].dx, c.prog[i].dy, c.prog[i].v);
        c.name = name;
        check_case(&r, &c);
        same_reports(&r, &c);
    }
#undef RND
    rig_free(&r);
}

/* ---- race_note_set (several accesses of a location at once) against race_note ---- */

static uint64_t rnd_next(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return *x >> 33;
}

/* The pair of a set of keys, computed from the set itself: its two
 * smallest distinct keys, a << 32 | b (b = 0 with one key; 0 when empty). */
static uint64_t pair_of(const uint32_t *keys, int n)
{
    uint32_t a = 0, b = 0;
    for (int i = 0; i < n; i++)
        if (!a || keys[i] < a)
            a = keys[i];
    for (int i = 0; i < n; i++)
        if (keys[i] != a && (!b || keys[i] < b))
            b = keys[i];
    return (uint64_t)a << 32 | b;
}

/* race_pair_insert key by key, race_pair_join and race_pair_merge of two
 * pairs, against the pair of the set (pair_of), on small keys (ties and
 * empty halves are common). */
static void test_pair_join(void **state)
{
    (void)state;
    uint64_t x = 0x7a1full;
    for (int it = 0; it < 20000; it++) {
        _Atomic uint64_t a = 0, b = 0, ab = 0;
        uint32_t keys[8];
        int na = (int)rnd_next(&x) % 4, nb = (int)rnd_next(&x) % 4;
        for (int i = 0; i < na + nb; i++) {
            uint32_t k = keys[i] = 1 + (uint32_t)(rnd_next(&x) % 6);
            race_pair_insert(i < na ? &a : &b, k, false);
            race_pair_insert(&ab, k, it % 3 == 0);
        }
        assert_int_equal(a, pair_of(keys, na));
        assert_int_equal(b, pair_of(keys + na, nb));
        assert_int_equal(ab, pair_of(keys, na + nb));
        _Atomic uint64_t merged = a;
        race_pair_merge(&merged, b, it % 2);
        assert_int_equal(race_pair_join(a, b), ab);
        assert_int_equal(merged, ab);
    }
}

enum { NS_LOCS = 64, NS_WG = 8, NS_INV = 8, NS_MAX = 12 };

typedef struct ns_acc { uint32_t lid; bool write; } ns_acc;

/* One dispatch of hand-built accesses (per location and recording thread,
 * up to NS_MAX plain accesses): one by one through race_note, or in one or
 * two race_note_set calls per (thread, location).  The JSON report. */
static char *note_dispatch(const ns_acc (*acc)[2][NS_MAX], const int (*n)[2], bool sets,
                           uint64_t seed, uint64_t *races)
{
    stex_race_options ro = {.max_reported = 1u << 16};
    stex_race_detector *rd;
    assert_int_equal(stex_race_detector_create(&ro, &rd), STEX_OK);
    race_geometry g = {.num_wg = {NS_WG, 1, 1}, .wg_size = {NS_INV, 1, 1},
                       .wg_invocations = NS_INV, .total_wg = NS_WG, .threads = 2};
    struct race_dispatch *d;
    static const int texture = 0; /* the shadow's identity */
    for (int rep = 0; rep < 2; rep++) { /* the second dispatch finds stale words */
        assert_int_equal(race_dispatch_begin(rd, &g, &d), STEX_OK);
        struct race_shadow *sh = race_dispatch_shadow(d, STEX_RACE_MEMORY_TEXTURE, 0, &texture,
                                                      0, NS_LOCS, 1, NS_LOCS, 0, NS_LOCS);
        assert_non_null(sh);
        race_dispatch_ready(d);
        uint32_t base = race_dispatch_key_base(d);
        uint64_t x = seed;
        for (uint64_t loc = 0; loc < NS_LOCS; loc++)
            for (uint32_t t = 0; t < 2; t++) {
                const ns_acc *a = acc[loc][t];
                int m = n[loc][t], cut = m ? (int)(rnd_next(&x) % (uint64_t)(m + 1)) : 0;
                if (!sets) {
                    for (int i = m - 1; i >= 0; i--) /* another order than the sets' */
                        race_note(sh, t, loc, base + a[i].lid, a[i].write ? STEX_RACE_ACCESS_WRITE
                                                                         : STEX_RACE_ACCESS_READ,
                                  NULL, 0);
                    continue;
                }
                for (int part = 0; part < 2; part++) { /* [0, cut) then [cut, m) */
                    _Atomic uint64_t rp = 0, wq = 0;
                    uint32_t first = 0;
                    bool one = true;
                    for (int i = part ? cut : 0; i < (part ? m : cut); i++) {
                        uint32_t k = base + a[i].lid;
                        race_pair_insert(a[i].write ? &wq : &rp, k, false);
                        one &= !first || first == k;
                        first = k;
                    }
                    if (rp || wq)
                        race_note_set(sh, t, loc, rp, wq, one);
                }
            }
        assert_int_equal(race_dispatch_end(d), STEX_OK);
        race_dispatch_free(d);
    }
    char *json = stex_race_report_json_string(rd);
    *races = stex_race_count(rd, STEX_RACE_ANY);
    stex_race_detector_destroy(rd);
    return json;
}

/* Random access sets, among them a single invocation's, one reader and one
 * writer, many readers, and nothing: the same report both ways. */
static void test_note_set_equals_note(void **state)
{
    (void)state;
    static ns_acc acc[NS_LOCS][2][NS_MAX];
    static int n[NS_LOCS][2];
    uint64_t x = 0xd1f0ull;
    for (int it = 0; it < 40; it++) {
        for (int loc = 0; loc < NS_LOCS; loc++)
            for (int t = 0; t < 2; t++) {
                int shape = (int)(rnd_next(&x) % 4);
                n[loc][t] = shape == 0 ? 0 : (int)(rnd_next(&x) % NS_MAX) + 1;
                uint32_t lid0 = (uint32_t)(rnd_next(&x) % (NS_WG * NS_INV));
                for (int i = 0; i < n[loc][t]; i++) {
                    /* shape 1: one invocation; 2: a few; 3: any */
                    uint32_t span = shape == 1 ? 1 : shape == 2 ? 3 : NS_WG * NS_INV;
                    acc[loc][t][i].lid = (lid0 + (uint32_t)(rnd_next(&x) % span))
                                         % (NS_WG * NS_INV);
                    acc[loc][t][i].write = rnd_next(&x) % 3 == 0;
                }
            }
        uint64_t races, races_sets;
        char *one_by_one = note_dispatch((const ns_acc(*)[2][NS_MAX])acc,
                                         (const int(*)[2])n, false, x, &races);
        char *sets = note_dispatch((const ns_acc(*)[2][NS_MAX])acc, (const int(*)[2])n, true, x,
                                   &races_sets);
        /* the patterns race at some locations and not at others */
        assert_true(races > 0 && races < 2 * 2 * NS_LOCS); /* 2 dispatches, 2 kinds */
        assert_int_equal(races, races_sets);
        if (strcmp(one_by_one, sets))
            fail_msg("pattern %d: race_note_set's report differs from race_note's\n"
                     "race_note: %s\nrace_note_set: %s", it, one_by_one, sets);
        free(one_by_one);
        free(sets);
    }
}

/* race_note_site_8x8 (AVX2 where the CPU has it) against its scalar form:
 * blocks of words stale or this dispatch's own (written) and, every fourth
 * round, some another invocation's or shared (refused), with sites known
 * and unknown, for reads and writes - the same verdict, words, sites and
 * touch marks. */
static void test_block_marks_agree(void **state)
{
    (void)state;
    enum { W = 24, H = 20, COUNT = W * H, RUNS = (COUNT >> STEX__RACE_RUN_SHIFT) + 1 };
    static uint32_t word[2][COUNT];
    static uint64_t site[2][COUNT];
    static uint16_t touch[2][RUNS];
    uint32_t thread_site = 0;
    race_shadow_head h[2];
    for (int v = 0; v < 2; v++)
        h[v] = (race_shadow_head){.count = COUNT, .word = word[v], .key_base = 1000,
                                  .nthreads = 1, .touch = touch[v], .runs = RUNS,
                                  .wsite = site[v], .thread_site = &thread_site};
    uint64_t rng = 12345;
    int passed = 0;
    for (int round = 0; round < 2000; round++) {
        uint32_t x0 = (uint32_t)(round % 3) * 8, y0 = (uint32_t)(round / 3 % 3) * 6;
        uint32_t key0 = 1000 + 64 * (uint32_t)(round % 5);
        for (uint32_t i = 0; i < COUNT; i++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            uint32_t r = (uint32_t)(rng >> 33), kind = r % (round % 4 ? 14 : 16);
            uint32_t loc_key = key0 + (i % W - x0) % 8 + 8 * ((i / W - y0) % 8);
            /* mostly stale or the block's own key, so that blocks pass */
            uint32_t w = kind < 6 ? r % 1000 : kind < 14 ? loc_key : kind < 15 ? 2000 + r % 64
                                                                                : RACE_WORD_SHARED;
            if (w != RACE_WORD_SHARED && kind >= 6)
                w |= (r >> 8 & 1 ? RACE_WORD_READ : 0) | (r >> 9 & 1 ? RACE_WORD_WRITE : 0);
            word[0][i] = word[1][i] = w;
            site[0][i] = site[1][i] = (r >> 10 & 3) ? (uint64_t)(r >> 12 & 7) << 32 | (r >> 15 & 7)
                                                      : 0;
        }
        memset(touch, 0, sizeof touch);
        thread_site = (uint32_t)(round % 4); /* 0: unknown */
        stex_race_access acc = round & 1 ? STEX_RACE_ACCESS_WRITE : STEX_RACE_ACCESS_READ;
        uint64_t first = x0 + (uint64_t)W * y0;
        bool a = race_note_site_8x8(&h[0], 0, first, W, key0, acc);
        bool b = race_note_site_8x8_scalar(&h[1], 0, first, W, key0, acc);
        assert_int_equal(a, b);
        passed += a;
        assert_memory_equal(word[0], word[1], sizeof word[0]);
        assert_memory_equal(site[0], site[1], sizeof site[0]);
        assert_memory_equal(touch[0], touch[1], sizeof touch[0]);
    }
    assert_true(passed > 1000); /* most rounds (no foreign word) write the block */
}

static void write_nothing(const stex_invocation *inv) { (void)inv; }

/* A dispatch with the race detector on a pipeline that binds nothing (the
 * provider fuzz target's tests/fuzz/corpus_calls/race-nothing-bound): no
 * shadow memory at all, no race; it once sorted an empty, NULL list, which
 * UBSan reports (qsort's first argument is declared nonnull). */
static void test_nothing_bound(void **state)
{
    (void)state;
    stex_device *dev = dt_device();
    stex_pipeline_desc pd = {.kernel = write_nothing, .workgroup_size = {4, 1, 1}};
    stex_pipeline *p;
    stex_bind_group *g;
    stex_race_detector *rd;
    DT_OK(stex_pipeline_create(dev, &pd, &p));
    DT_OK(stex_bind_group_create(p, NULL, 0, &g));
    for (int force = 0; force < 2; force++) { /* the summary and the full detector */
        DT_OK(stex_race_detector_create(NULL, &rd));
        race_detector_force_full(rd, force);
        DT_OK(stex_dispatch(p, g, 2, 1, 1, &(stex_dispatch_options){.races = rd}));
        assert_int_equal(stex_race_count(rd, STEX_RACE_ANY), 0);
        stex_race_detector_destroy(rd);
    }
    stex_bind_group_destroy(g);
    stex_pipeline_destroy(p);
    dt_release(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_bound),
        cmocka_unit_test(test_block_marks_agree),
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_summary_equals_full),
        cmocka_unit_test(test_random_programs),
        cmocka_unit_test(test_report_formats),
        cmocka_unit_test(test_pair_join),
        cmocka_unit_test(test_note_set_equals_note),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
