/* The race report, as text for people and as JSON for tools. */
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

static const char *binding_text(uint32_t ref, char buf[32])
{
    if (ref >> 16)
        snprintf(buf, 32, "@group(%u) @binding(%u)", ref >> 16, ref & 0xffffu);
    else
        snprintf(buf, 32, "@binding(%u)", ref);
    return buf;
}

static void where(const stex_race *r, char *buf, size_t size)
{
    char ref[32];
    if (r->memory == STEX_RACE_MEMORY_TEXTURE)
        snprintf(buf, size, "texture %s mip %u texel (%u, %u, %u)", binding_text(r->binding, ref),
                 r->mip_level, r->coord[0], r->coord[1], r->coord[2]);
    else if (r->memory == STEX_RACE_MEMORY_BUFFER)
        snprintf(buf, size, "buffer %s word %llu", binding_text(r->binding, ref),
                 (unsigned long long)r->word);
    else
        snprintf(buf, size, "var<workgroup> word %llu", (unsigned long long)r->word);
}

static void party_text(FILE *f, const char *tag, const stex_race_party *p)
{
    fprintf(f, "    %s: workgroup (%u, %u, %u) local (%u, %u, %u) %s", tag, p->workgroup_id[0],
            p->workgroup_id[1], p->workgroup_id[2], p->local_invocation_id[0],
            p->local_invocation_id[1], p->local_invocation_id[2], stex_race_access_name(p->access));
    if (p->source)
        fprintf(f, " at %s", p->source);
    fputc('\n', f);
}

stex_status stex_race_report_text(const stex_race_detector *rd, FILE *f)
{
    uint64_t ww = stex_race_count(rd, STEX_RACE_WRITE_WRITE), rw = stex_race_count(rd, STEX_RACE_READ_WRITE);
    fprintf(f, "races: %llu locations (write-write %llu, read-write %llu) in %u dispatch%s\n",
            (unsigned long long)(ww + rw), (unsigned long long)ww, (unsigned long long)rw,
            stex_race_dispatch_count(rd), stex_race_dispatch_count(rd) == 1 ? "" : "es");
    const stex_race_binding_count *bc;
    size_t nb = stex_race_binding_counts(rd, &bc);
    for (size_t i = 0; i < nb; i++) {
        if (bc[i].binding == STEX_RACE_NO_BINDING)
            fprintf(f, "  var<workgroup>:");
        else
        {
            char ref[32];
            fprintf(f, "  %s %s:", binding_text(bc[i].binding, ref), stex_race_memory_name(bc[i].memory));
        }
        fprintf(f, " write-write %llu, read-write %llu\n",
                (unsigned long long)bc[i].count[STEX_RACE_WRITE_WRITE],
                (unsigned long long)bc[i].count[STEX_RACE_READ_WRITE]);
    }
    size_t n = stex_race_reported(rd);
    if (n)
        fprintf(f, "first %zu:\n", n);
    for (size_t i = 0; i < n; i++) {
        const stex_race *r = stex_race_get(rd, i);
        char w[128];
        where(r, w, sizeof w);
        fprintf(f, "  dispatch %u %s: %s, %s\n", r->dispatch, w, stex_race_kind_name(r->kind),
                r->same_workgroup ? "same workgroup (no covering barrier between them)"
                                  : "different workgroups");
        party_text(f, "a", &r->a);
        party_text(f, "b", &r->b);
    }
    return ferror(f) ? stex_fail(STEX_IO_ERROR, "race report: write failed") : STEX_OK;
}

static json_t *u3(const uint32_t v[3])
{
    return json_pack("[I, I, I]", (json_int_t)v[0], (json_int_t)v[1], (json_int_t)v[2]);
}

/* "file:line:col" -> {"file", "line", "column"} (the file may hold ':'). */
static json_t *source_json(const char *s)
{
    const char *c2 = strrchr(s, ':');
    const char *c1 = c2 ? c2 : s;
    while (c1 > s && c1[-1] != ':')
        c1--;
    unsigned line, col;
    if (!c2 || c1 == s || sscanf(c1, "%u:%u", &line, &col) != 2)
        return json_pack("{s:s}", "text", s);
    return json_pack("{s:s%, s:I, s:I}", "file", s, (size_t)(c1 - 1 - s), "line",
                     (json_int_t)line, "column", (json_int_t)col);
}

static json_t *party_json(const stex_race_party *p)
{
    json_t *j = json_pack("{s:o, s:o, s:s}", "workgroup_id", u3(p->workgroup_id),
                          "local_invocation_id", u3(p->local_invocation_id), "access",
                          stex_race_access_name(p->access));
    if (j && p->site) {
        json_object_set_new(j, "site", json_integer(p->site));
        if (p->source)
            json_object_set_new(j, "source", source_json(p->source));
    }
    return j;
}

static json_t *report_json(const stex_race_detector *rd)
{
    json_t *root = json_object();
    json_object_set_new(root, "dispatches", json_integer(stex_race_dispatch_count(rd)));
    json_object_set_new(root, "counts", json_pack("{s:I, s:I}", "write-write",
                        (json_int_t)stex_race_count(rd, STEX_RACE_WRITE_WRITE), "read-write",
                        (json_int_t)stex_race_count(rd, STEX_RACE_READ_WRITE)));
    json_t *bindings = json_array();
    const stex_race_binding_count *bc;
    size_t nb = stex_race_binding_counts(rd, &bc);
    for (size_t i = 0; i < nb; i++) {
        json_t *b = json_pack("{s:s, s:I, s:I}", "memory", stex_race_memory_name(bc[i].memory),
                              "write-write", (json_int_t)bc[i].count[STEX_RACE_WRITE_WRITE],
                              "read-write", (json_int_t)bc[i].count[STEX_RACE_READ_WRITE]);
        bool none = bc[i].binding == STEX_RACE_NO_BINDING;
        json_object_set_new(b, "group", none ? json_null()
                                             : json_integer(group_of(bc[i].binding)));
        json_object_set_new(b, "binding", none ? json_null()
                                               : json_integer(number_of(bc[i].binding)));
        json_array_append_new(bindings, b);
    }
    json_object_set_new(root, "bindings", bindings);
    json_t *races = json_array();
    size_t n = stex_race_reported(rd);
    for (size_t i = 0; i < n; i++) {
        const stex_race *r = stex_race_get(rd, i);
        json_t *j = json_pack("{s:I, s:s, s:s, s:b, s:o, s:o}", "dispatch", (json_int_t)r->dispatch,
                              "memory", stex_race_memory_name(r->memory), "kind",
                              stex_race_kind_name(r->kind), "same_workgroup", r->same_workgroup,
                              "a", party_json(&r->a), "b", party_json(&r->b));
        if (r->memory == STEX_RACE_MEMORY_TEXTURE) {
            json_object_set_new(j, "group", json_integer(group_of(r->binding)));
            json_object_set_new(j, "binding", json_integer(number_of(r->binding)));
            json_object_set_new(j, "mip_level", json_integer(r->mip_level));
            json_object_set_new(j, "texel", u3(r->coord));
        } else {
            if (r->memory == STEX_RACE_MEMORY_BUFFER) {
                json_object_set_new(j, "group", json_integer(group_of(r->binding)));
                json_object_set_new(j, "binding", json_integer(number_of(r->binding)));
            }
            json_object_set_new(j, "word", json_integer((json_int_t)r->word));
        }
        json_array_append_new(races, j);
    }
    json_object_set_new(root, "races", races);
    json_object_set_new(root, "truncated",
                        json_boolean(stex_race_count(rd, STEX_RACE_ANY) > (uint64_t)n));
    return root;
}

stex_status stex_race_report_json(const stex_race_detector *rd, FILE *f)
{
    json_t *root = report_json(rd);
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

char *stex_race_report_json_string(const stex_race_detector *rd)
{
    json_t *root = report_json(rd);
    if (!root)
        return NULL;
    char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return s;
}
