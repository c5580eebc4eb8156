/* Internal: the hooks the builtins and the dispatch call when race detection is on. */
#ifndef STEX_RACE_INTERNAL_H
#define STEX_RACE_INTERNAL_H

#include <stdint.h>

#include "shader/exec.h"
#include "stex/race.h"

struct race_dispatch;
struct race_thread;
struct race_shadow;

/* Creates one shadow per bound texture mip / buffer (views of the same
 * memory share one) and sets exec_binding.shadow. */
stex_status race_dispatch_begin(stex_race_detector *rd, exec_dispatch *ctx,
                                struct race_dispatch **out);
/* Cross-workgroup verdict, merge of the threads' findings into the detector. */
stex_status race_dispatch_end(struct race_dispatch *d);
void race_dispatch_free(struct race_dispatch *d);

struct race_thread *race_thread_create(struct race_dispatch *d);
/* Hands the thread's findings to the dispatch (thread-safe) and frees it. */
void race_thread_finish(struct race_thread *t);

void race_workgroup_begin(struct race_thread *t, uint64_t wg);
/* End of the workgroup: every pending same-workgroup segment is judged. */
void race_workgroup_end(struct race_thread *t);
/* A barrier reached by the whole workgroup: judges the segment of the memory it covers. */
void race_barrier(struct race_thread *t, exec_barrier kind);

/* One access by invocation `lid` of the running workgroup to location `loc`
 * of a shadow; `value` (n bytes) is what a write stored. */
void race_access(struct race_thread *t, struct race_shadow *s, uint64_t loc, uint32_t lid,
                 stex_race_access acc, const void *value, uint32_t n);
/* The same for var<workgroup> word `word`. */
void race_workgroup_access(struct race_thread *t, uint64_t word, uint32_t lid,
                           stex_race_access acc, const void *value, uint32_t n);

/* Location index of a texel of binding b inside its shadow. */
static inline uint64_t race_texel_loc(const struct race_shadow *s, const exec_binding *b,
                                      int64_t x, int64_t y, int64_t z);

/* Shadow geometry, visible for race_texel_loc. */
struct race_shadow_geom {
    uint64_t w, h; /* texture mip width, height; buffers: w = words, h = 1 */
};
const struct race_shadow_geom *race_shadow_geometry(const struct race_shadow *s);

static inline uint64_t race_texel_loc(const struct race_shadow *s, const exec_binding *b,
                                      int64_t x, int64_t y, int64_t z)
{
    const struct race_shadow_geom *g = race_shadow_geometry(s);
    uint64_t layer = (uint64_t)z + (b->dim == STEX_VIEW_DIMENSION_3D ? 0 : b->base_layer);
    return (uint64_t)x + g->w * ((uint64_t)y + g->h * layer);
}

#endif
