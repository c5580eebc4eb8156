/*
 * stex/race.h - the race detector: which texels and buffer words two
 * invocations of one dispatch touch without a happens-before between them.
 *
 * Pass a detector in stex_dispatch_options.races; the dispatch then records,
 * beside every bound texture, buffer and the workgroup memory, who read and
 * who wrote each location.  Two accesses conflict when at least one writes
 * and they are not both atomic; they race unless a barrier that covers that
 * memory separates them inside one workgroup (textureBarrier: storage
 * textures, storageBarrier: storage buffers, workgroupBarrier: var<workgroup>)
 * - nothing orders different workgroups but the end of the dispatch.
 *
 *     stex_race_detector *rd;  stex_race_detector_create(NULL, &rd);
 *     stex_dispatch_options o = {.races = rd};
 *     stex_dispatch(p, g, 32, 32, 1, &o);
 *     if (stex_race_count(rd, STEX_RACE_ANY)) stex_race_report_text(rd, stdout);
 *
 * The verdict (which locations race, with which kind, and the two parties
 * named) is a function of the set of accesses, never of the schedule, seed or
 * thread count: docs/engine.md explains why.  Detectors accumulate over
 * several dispatches until stex_race_detector_reset.
 *
 * Memory: for pipelines without barriers each thread keeps 4 bytes per
 * location of every writable binding; those words stay mapped after the
 * dispatch, zeroed, for the next one (at most 1 GiB per process), because
 * mapping them afresh costs page faults on every dispatch.
 * stex_race_release_memory() gives them back to the system.
 *
 * Failure: create returns STEX_OUT_OF_MEMORY / STEX_INVALID_ARGUMENT; the
 * report writers return STEX_IO_ERROR when the FILE* fails, the string
 * versions return NULL when out of memory.
 */
#ifndef STEX_RACE_H
#define STEX_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stex/api.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stex_race_detector stex_race_detector;

typedef struct stex_race_options {
    bool suppress_same_value; /* write-write where every writer stored the same bytes: not reported */
    uint32_t max_reported;    /* races kept in detail; 0 = 100, STEX_RACE_ALL every one
                               * (counts and groups are always complete) */
} stex_race_options;

#define STEX_RACE_ALL UINT32_MAX /* max_reported: keep every race in detail */

typedef enum stex_race_kind {
    STEX_RACE_WRITE_WRITE = 0,
    STEX_RACE_READ_WRITE,
    STEX_RACE_KIND_COUNT,
    STEX_RACE_ANY = STEX_RACE_KIND_COUNT /* for stex_race_count */
} stex_race_kind;

/* What one party did to the location. */
typedef enum stex_race_access {
    STEX_RACE_ACCESS_READ = 0, STEX_RACE_ACCESS_WRITE,
    STEX_RACE_ACCESS_ATOMIC_READ, STEX_RACE_ACCESS_ATOMIC_WRITE
} stex_race_access;

/* Which memory the location is in. */
typedef enum stex_race_memory {
    STEX_RACE_MEMORY_TEXTURE = 0, STEX_RACE_MEMORY_BUFFER, STEX_RACE_MEMORY_WORKGROUP
} stex_race_memory;

#define STEX_RACE_NO_BINDING UINT32_MAX /* binding of var<workgroup> races */

typedef struct stex_race_party {
    uint32_t workgroup_id[3];
    uint32_t local_invocation_id[3];
    stex_race_access access;
    /* Where in the shader: the executor's access site (the WGSL interpreter:
     * its instruction; 0 = unknown, as for C kernels) and, when the executor
     * names its sites, "file:line:col" (owned by the detector, valid until
     * reset/destroy; NULL = unknown).  Of the party's accesses of this kind
     * to the location, the smallest site: a function of the set of accesses. */
    uint32_t site;
    const char *source;
} stex_race_party;

typedef struct stex_race {
    uint32_t dispatch;        /* 0 for the first dispatch since create/reset */
    uint32_t binding;         /* STEX_BINDING(group, binding) (the lowest when views alias) */
    stex_race_memory memory;
    uint32_t coord[3];        /* texture: x, y, z-or-layer of the texture's mip level */
    uint32_t mip_level;       /* texture only */
    uint64_t word;            /* buffer: 32-bit word of the buffer; workgroup memory: of
                               * the workgroup's var<workgroup> memory */
    stex_race_kind kind;
    bool same_workgroup;      /* both parties in one workgroup (missing/misplaced barrier) */
    stex_race_party a, b;     /* a < b by (workgroup, local_invocation_index) */
    /* The location in the shader's terms, when the executor names it (the
     * WGSL interpreter): a buffer's element or member path ("data[17]",
     * "stats.bins[3]", "p[2].pos.y"; a word holding two f16 values is named
     * by the first), a var<workgroup> element ("part[1]", in the parties'
     * workgroup), a storage texture's variable ("img"); NULL: unknown (C
     * kernels).  Owned by the detector, valid until reset/destroy. */
    const char *name;
} stex_race;

/* One side of a race group: an access kind at a site (as stex_race_party). */
typedef struct stex_race_site {
    stex_race_access access;
    uint32_t site;
    const char *source;       /* "file:line:col"; NULL: unknown */
} stex_race_site;

/* The races of one pair of source sites: every racing location whose two
 * reported parties made these accesses at these sites (sites[0] the one
 * whose source sorts first, then by access), of one kind, in one binding
 * (or var<workgroup>).  Counts are complete whatever max_reported is. */
typedef struct stex_race_group {
    stex_race_kind kind;
    stex_race_memory memory;
    uint32_t binding;         /* as stex_race.binding */
    stex_race_site sites[2];
    uint64_t count;           /* racing locations */
    uint64_t same_workgroup;  /* of them, races between invocations of one workgroup */
    stex_race example;        /* the group's first location in the report order */
} stex_race_group;

typedef struct stex_race_binding_count {
    uint32_t binding;
    stex_race_memory memory;
    uint64_t count[STEX_RACE_KIND_COUNT];
} stex_race_binding_count;

STEX_API stex_status stex_race_detector_create(const stex_race_options *opt, stex_race_detector **out);
STEX_API void stex_race_detector_destroy(stex_race_detector *rd);
/* Forget every result (the options stay). */
STEX_API void stex_race_detector_reset(stex_race_detector *rd);
STEX_API const stex_race_options *stex_race_detector_options(const stex_race_detector *rd);

STEX_API const char *stex_race_kind_name(stex_race_kind k);     /* "write-write", "read-write" */
STEX_API const char *stex_race_access_name(stex_race_access a); /* "read", "write", "atomic-read", "atomic-write" */
STEX_API const char *stex_race_memory_name(stex_race_memory m); /* "texture", "buffer", "workgroup" */

/* Racing locations of a kind (a location counts once per kind). */
STEX_API uint64_t stex_race_count(const stex_race_detector *rd, stex_race_kind kind);
/* Dispatches recorded since create/reset. */
STEX_API uint32_t stex_race_dispatch_count(const stex_race_detector *rd);
/* Per-binding counts, sorted by (dispatch-independent) binding number. */
STEX_API size_t stex_race_binding_counts(const stex_race_detector *rd, const stex_race_binding_count **out);
/* The first max_reported races in a deterministic order: dispatch, memory,
 * binding, mip, layer/z, y, x (or word), kind. */
STEX_API size_t stex_race_reported(const stex_race_detector *rd);
/* Valid until the next dispatch recorded, reset or destroy. */
STEX_API const stex_race *stex_race_get(const stex_race_detector *rd, size_t i);
/* The race groups (stex_race_group), the largest count first (then by their
 * examples' report order): a function of the set of accesses, like the
 * verdict.  Valid until the next dispatch recorded, reset or destroy. */
STEX_API size_t stex_race_group_count(const stex_race_detector *rd);
STEX_API const stex_race_group *stex_race_group_get(const stex_race_detector *rd, size_t i);

/* Unmaps the shadow memory kept between dispatches (see above); the next
 * dispatch with detection maps it again.  Do not call it while a dispatch
 * with race detection runs. */
STEX_API void stex_race_release_memory(void);

/* Where race r is, as the reports word it: "img (@group(2) @binding(1))
 * texel (3, 4)", "data[17] (@group(0) @binding(0))", "part[1] in workgroup
 * (3, 0, 0)", or by binding and word when the location has no name.
 * Writes at most size bytes (NUL included) and returns buf. */
STEX_API char *stex_race_location_text(const stex_race *r, char *buf, size_t size);

/* Human-readable and JSON reports: the counts, the groups with an example
 * each, then the races kept in detail, and a summary line (text).  The JSON
 * is the "races" object of docs/file-formats.md (docs/schema/
 * stex-run.schema.json).  The _limit versions list at most `locations` of
 * the races kept (UINT64_MAX: all; the others list all). */
STEX_API stex_status stex_race_report_text(const stex_race_detector *rd, FILE *f);
STEX_API stex_status stex_race_report_json(const stex_race_detector *rd, FILE *f);
STEX_API char *stex_race_report_text_string(const stex_race_detector *rd); /* free() it */
STEX_API char *stex_race_report_json_string(const stex_race_detector *rd); /* free() it */
STEX_API stex_status stex_race_report_text_limit(const stex_race_detector *rd,
                                                 uint64_t locations, FILE *f);
STEX_API char *stex_race_report_json_limit(const stex_race_detector *rd,
                                           uint64_t locations); /* free() it */

#ifdef __cplusplus
}
#endif
#endif
