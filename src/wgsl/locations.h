/* Internal: a pipeline's memory locations named in WGSL's terms, for the
 * race reports (phase_executor.location_name): a storage buffer's word as
 * the element it holds ("data[17]", "stats.bins[3]", "p[2].pos.y"), a
 * var<workgroup> word as "part[1]", a storage texture by its variable's
 * name.  Built from the lowering's globals and types, and kept by the
 * pipeline, which may outlive its module. */
#ifndef STEX_WGSL_LOCATIONS_H
#define STEX_WGSL_LOCATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/race.h"
#include "wgsl/lower.h"

typedef struct wg_locmap wg_locmap;

/* The storage bindings and var<workgroup> variables of the globals the
 * entry point uses (globals[0 .. n-1], the lowering's); NULL when out of
 * memory (the reports then give words, not names). */
wg_locmap *wg_locmap_build(const wg_types *ts, const wg_global *globals, uint32_t n);
void wg_locmap_free(wg_locmap *m);

/* The name of byte `byte` of binding `ref` (STEX_BINDING(group, binding);
 * buffers: from the start of the bound range) or of var<workgroup> memory
 * (ref ignored), or of a storage texture's variable (byte ignored), into
 * buf; false when no variable holds it. */
bool wg_locmap_name(const wg_locmap *m, stex_race_memory mem, uint32_t ref, uint64_t byte,
                    char *buf, size_t size);

#endif
