/* The race report, as text for people and as JSON for tools: the counts,
 * the groups by source sites (each with one example), the races kept in
 * detail, and (text) a summary line.  The JSON is the "races" object of
 * docs/file-formats.md, which docs/schema/stex-run.schema.json describes. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "stex/race.h"

/* A binding as WGSL writes it; the reference packs the group in its high
 * 16 bits (stex/shader.h's STEX_BINDING). */
static uint32_t group_of(uint32_t ref) { return ref >> 16; }
static uint32_t number_of(uint32_t ref) { return ref & 0xffffu; }

static const char *binding_text(uint32_t ref, char buf[40])
{
    snprintf(buf, 40, "@group(%u) @binding(%u)", group_of(ref), number_of(ref));
    return buf;
}

static const char *plural(uint64_t n, const char *s) { return n == 1 ? "" : s; }

/* "(x, y)" or "(x, y, z)" */
static void texel_text(const stex_race *r, char *buf, size_t size)
{
    if (r->coord[2])
        snprintf(buf, size, "(%u, %u, %u)", r->coord[0], r->coord[1], r->coord[2]);
    else
        snprintf(buf, size, "(%u, %u)", r->coord[0], r->coord[1]);
}

/* The location in the shader's terms when the executor named it:
 * "img (@group(2) @binding(1)) texel (3, 4)", "data[17] (@group(0)
 * @binding(0))", "part[1] in workgroup (3, 0, 0)"; else by binding and word. */
static void where(const stex_race *r, char *buf, size_t size)
{
    char ref[40], t[48], mip[24] = "";
    if (r->memory == STEX_RACE_MEMORY_TEXTURE) {
        texel_text(r, t, sizeof t);
        if (r->mip_level)
            snprintf(mip, sizeof mip, " mip %u", r->mip_level);
        if (r->name)
            snprintf(buf, size, "%s (%s) texel %s%s", r->name, binding_text(r->binding, ref), t,
                     mip);
        else
            snprintf(buf, size, "texture %s texel %s%s", binding_text(r->binding, ref), t, mip);
    } else if (r->memory == STEX_RACE_MEMORY_BUFFER) {
        if (r->name)
            snprintf(buf, size, "%s (%s)", r->name, binding_text(r->binding, ref));
        else
            snprintf(buf, size, "buffer %s word %llu", binding_text(r->binding, ref),
                     (unsigned long long)r->word);
    } else {
        const uint32_t *w = r->a.workgroup_id;
        if (r->name)
            snprintf(buf, size, "%s in workgroup (%u, %u, %u)", r->name, w[0], w[1], w[2]);
        else
            snprintf(buf, size, "var<workgroup> word %llu in workgroup (%u, %u, %u)",
                     (unsigned long long)r->word, w[0], w[1], w[2]);
    }
}

char *stex_race_location_text(const stex_race *r, char *buf, size_t size)
{
    if (size)
        where(r, buf, size);
    return buf;
}

static void party_text(FILE *f, const char *indent, const char *tag, const stex_race_party *p)
{
    fprintf(f, "%s%s: workgroup (%u, %u, %u) local (%u, %u, %u) %s", indent, tag,
            p->workgroup_id[0], p->workgroup_id[1], p->workgroup_id[2],
            p->local_invocation_id[0], p->local_invocation_id[1], p->local_invocation_id[2],
            stex_race_access_name(p->access));
    if (p->source)
        fprintf(f, " at %s", p->source);
    fputc('\n', f);
}

/* How a group's races relate to workgroups, in words. */
static void scope_text(const stex_race_group *g, char *buf, size_t size)
{
    unsigned long long n = g->count, same = g->same_workgroup;
    if (same == n)
        snprintf(buf, size, "%s inside one workgroup: no barrier orders the two accesses",
                 n == 1 ? "it is" : n == 2 ? "both" : "all");
    else if (!same)
        snprintf(buf, size, "%s between two workgroups: only the dispatch's end orders them",
                 n == 1 ? "it is" : n == 2 ? "both" : "all");
    else
        snprintf(buf, size, "%llu inside one workgroup (no barrier), %llu between two", same,
                 n - same);
}

static void group_text(FILE *f, size_t i, size_t n, const stex_race_group *g)
{
    char scope[96], w[320];
    scope_text(g, scope, sizeof scope);
    fprintf(f, "group %zu of %zu: %s at %llu location%s\n", i + 1, n,
            stex_race_kind_name(g->kind), (unsigned long long)g->count, plural(g->count, "s"));
    for (int k = 0; k < 2; k++)
        fprintf(f, "  %-5s at %s\n", stex_race_access_name(g->sites[k].access),
                g->sites[k].source ? g->sites[k].source : "(unknown: no source sites)");
    fprintf(f, "  %s\n", scope);
    where(&g->example, w, sizeof w);
    fprintf(f, "  e.g. %s, dispatch %u:\n", w, g->example.dispatch);
    party_text(f, "    ", "a", &g->example.a);
    party_text(f, "    ", "b", &g->example.b);
}

stex_status stex_race_report_text_limit(const stex_race_detector *rd, uint64_t locations,
                                        FILE *f)
{
    uint64_t ww = stex_race_count(rd, STEX_RACE_WRITE_WRITE), rw = stex_race_count(rd, STEX_RACE_READ_WRITE);
    uint32_t nd = stex_race_dispatch_count(rd);
    fprintf(f, "races: %llu racing location%s (read-write %llu, write-write %llu) in %u "
               "dispatch%s\n", (unsigned long long)(ww + rw), plural(ww + rw, "s"),
            (unsigned long long)rw, (unsigned long long)ww, nd, plural(nd, "es"));
    size_t ng = stex_race_group_count(rd);
    for (size_t i = 0; i < ng; i++)
        group_text(f, i, ng, stex_race_group_get(rd, i));
    size_t n = stex_race_reported(rd);
    if ((uint64_t)n > locations)
        n = (size_t)locations;
    if (n)
        fprintf(f, "locations (the first %zu of %llu):\n", n, (unsigned long long)(ww + rw));
    for (size_t i = 0; i < n; i++) {
        const stex_race *r = stex_race_get(rd, i);
        char w[320];
        where(r, w, sizeof w);
        fprintf(f, "  dispatch %u, %s: %s, %s\n", r->dispatch, w, stex_race_kind_name(r->kind),
                r->same_workgroup ? "same workgroup" : "different workgroups");
        party_text(f, "    ", "a", &r->a);
        party_text(f, "    ", "b", &r->b);
    }
    fprintf(f, "RACE SUMMARY: %llu racing location%s in %zu group%s (%llu read-write, %llu "
               "write-write)\n", (unsigned long long)(ww + rw), plural(ww + rw, "s"), ng,
            plural(ng, "s"), (unsigned long long)rw, (unsigned long long)ww);
    return ferror(f) ? stex_fail(STEX_IO_ERROR, "race report: write failed") : STEX_OK;
}

stex_status stex_race_report_text(const stex_race_detector *rd, FILE *f)
{
    return stex_race_report_text_limit(rd, UINT64_MAX, f);
}

static json_t *u3(const uint32_t v[3])
{
    return json_pack("[I, I, I]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

/* "file:line:col" -> {"file", "line", "column"} (the file may hold ':';
 * line and column 0 when the text has none); NULL -> null. */
static json_t *source_json(const char *s)
{
    if (!s)
        return json_null();
    unsigned line = 0, col = 0;
    size_t n = strlen(s);
    const char *c2 = strrchr(s, ':');
    if (c2 && sscanf(c2 + 1, "%u", &col) == 1) {
        const char *c1 = c2;
        while (c1 > s && c1[-1] != ':')
            c1--;
        if (c1 > s && sscanf(c1, "%u:", &line) == 1)
            n = (size_t)(c1 - 1 - s);
        else { /* "file:line" */
            line = col;
            col = 0;
            n = (size_t)(c2 - s);
        }
    }
    return json_pack("{s:s%, s:I, s:I}", "file", s, n, "line", (json_int_t)line, "column",
                     (json_int_t)col);
}

static json_t *party_json(const stex_race_party *p)
{
    return json_pack("{s:o, s:o, s:s, s:I, s:o}", "workgroup_id", u3(p->workgroup_id),
                     "local_invocation_id", u3(p->local_invocation_id), "access",
                     stex_race_access_name(p->access), "site", (json_int_t)p->site, "source",
                     source_json(p->source));
}

/* A binding's group and number, or null twice for var<workgroup>. */
static void binding_json(json_t *j, stex_race_memory m, uint32_t ref)
{
    bool none = m == STEX_RACE_MEMORY_WORKGROUP || ref == STEX_RACE_NO_BINDING;
    json_object_set_new(j, "group", none ? json_null() : json_integer(group_of(ref)));
    json_object_set_new(j, "binding", none ? json_null() : json_integer(number_of(ref)));
}

/* The variable of a location's name: "data" of "data[17]", "stats" of "stats.bins[3]". */
static json_t *variable_json(const char *name)
{
    return name ? json_stringn(name, strcspn(name, "[.")) : json_null();
}

static json_t *race_json(const stex_race *r)
{
    char w[320];
    where(r, w, sizeof w);
    json_t *j = json_pack("{s:I, s:s, s:s}", "dispatch", (json_int_t)r->dispatch, "kind",
                          stex_race_kind_name(r->kind), "memory",
                          stex_race_memory_name(r->memory));
    binding_json(j, r->memory, r->binding);
    bool tex = r->memory == STEX_RACE_MEMORY_TEXTURE;
    json_object_set_new(j, "variable", variable_json(r->name));
    json_object_set_new(j, "name", r->name ? json_string(r->name) : json_null());
    json_object_set_new(j, "text", json_string(w));
    json_object_set_new(j, "texel", tex ? u3(r->coord) : json_null());
    json_object_set_new(j, "mip_level", tex ? json_integer(r->mip_level) : json_null());
    json_object_set_new(j, "word", tex ? json_null() : json_integer((json_int_t)r->word));
    json_object_set_new(j, "same_workgroup", json_boolean(r->same_workgroup));
    json_object_set_new(j, "a", party_json(&r->a));
    json_object_set_new(j, "b", party_json(&r->b));
    return j;
}

static json_t *group_json(const stex_race_group *g)
{
    json_t *j = json_pack("{s:s, s:I, s:I, s:s}", "kind", stex_race_kind_name(g->kind), "count",
                          (json_int_t)g->count, "same_workgroup", (json_int_t)g->same_workgroup,
                          "memory", stex_race_memory_name(g->memory));
    binding_json(j, g->memory, g->binding);
    json_object_set_new(j, "variable", variable_json(g->example.name));
    json_t *sites = json_array();
    for (int k = 0; k < 2; k++)
        json_array_append_new(sites, json_pack("{s:s, s:I, s:o}", "access",
                                               stex_race_access_name(g->sites[k].access), "site",
                                               (json_int_t)g->sites[k].site, "source",
                                               source_json(g->sites[k].source)));
    json_object_set_new(j, "sites", sites);
    json_object_set_new(j, "example", race_json(&g->example));
    return j;
}

static json_t *report_json(const stex_race_detector *rd, uint64_t locations)
{
    uint64_t ww = stex_race_count(rd, STEX_RACE_WRITE_WRITE), rw = stex_race_count(rd, STEX_RACE_READ_WRITE);
    json_t *root = json_pack("{s:I, s:I, s:I, s:I}", "total", (json_int_t)(ww + rw),
                             "write_write", (json_int_t)ww, "read_write", (json_int_t)rw,
                             "dispatches", (json_int_t)stex_race_dispatch_count(rd));
    if (!root)
        return NULL;
    json_t *bindings = json_array();
    const stex_race_binding_count *bc;
    size_t nb = stex_race_binding_counts(rd, &bc);
    for (size_t i = 0; i < nb; i++) {
        json_t *b = json_pack("{s:s}", "memory", stex_race_memory_name(bc[i].memory));
        binding_json(b, bc[i].memory, bc[i].binding);
        json_object_set_new(b, "write_write", json_integer((json_int_t)bc[i].count[STEX_RACE_WRITE_WRITE]));
        json_object_set_new(b, "read_write", json_integer((json_int_t)bc[i].count[STEX_RACE_READ_WRITE]));
        json_array_append_new(bindings, b);
    }
    json_object_set_new(root, "bindings", bindings);
    json_t *groups = json_array();
    for (size_t i = 0; i < stex_race_group_count(rd); i++)
        json_array_append_new(groups, group_json(stex_race_group_get(rd, i)));
    json_object_set_new(root, "groups", groups);
    json_t *races = json_array();
    size_t n = stex_race_reported(rd);
    if ((uint64_t)n > locations)
        n = (size_t)locations;
    for (size_t i = 0; i < n; i++)
        json_array_append_new(races, race_json(stex_race_get(rd, i)));
    json_object_set_new(root, "locations", races);
    json_object_set_new(root, "truncated", json_boolean(ww + rw > (uint64_t)n));
    return root;
}

stex_status stex_race_report_json(const stex_race_detector *rd, FILE *f)
{
    json_t *root = report_json(rd, UINT64_MAX);
    if (!root)
        return stex_fail(STEX_OUT_OF_MEMORY, "race report: out of memory");
    int rc = json_dumpf(root, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    fputc('\n', f);
    return rc || ferror(f) ? stex_fail(STEX_IO_ERROR, "race report: write failed") : STEX_OK;
}

char *stex_race_report_text_string(const stex_race_detector *rd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    stex_race_report_text(rd, f);
    fclose(f);
    return buf;
}

char *stex_race_report_json_limit(const stex_race_detector *rd, uint64_t locations)
{
    json_t *root = report_json(rd, locations);
    if (!root)
        return NULL;
    char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}

char *stex_race_report_json_string(const stex_race_detector *rd)
{
    return stex_race_report_json_limit(rd, UINT64_MAX);
}
