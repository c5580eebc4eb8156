/* Internal: the allowed-mode executor (interp_ival.c) and the shadows it
 * keeps beside a program's resources (interp_ival_state.c).
 *
 * In allowed mode every float word a WGSL program computes is the set of
 * values a conformant device may hold there (stex/interval.h), carried
 * beside the word the dispatch's profile computes (the "nominal" bits,
 * always inside the set).  A word with no shadow is exactly its bits.
 * Resources keep shadows as long as the stex_allowed that holds them, so a
 * later dispatch reads the sets an earlier one stored. */
#ifndef STEX_WGSL_INTERP_IVAL_H
#define STEX_WGSL_INTERP_IVAL_H

#include <pthread.h>

#include "stex/interval.h"
#include "stex/wgsl.h"
#include "wgsl/interp.h"

/* The shadow of one texture level (4 values per texel, the sets
 * textureLoad may return) or one buffer (a value per 32-bit word; has[k]
 * 0: the word holds exactly its bytes). */
typedef struct ival_shadow {
    const void *res;         /* stex_texture or stex_buffer */
    bool is_texture;
    uint32_t mip;
    stex_format format;      /* textures */
    uint32_t w, h, layers;   /* textures: the level's size */
    uint64_t count;          /* values */
    stex_ival *v;
    uint32_t *why;           /* an ANY value's reason (stex_allowed's table), else 0 */
    uint8_t *has;            /* 0: the value its bytes give; buffers: else the word's
                              * type letter (textures: 1) */
    /* textures: stores so far, and the hull of every value as of hull_gen */
    _Atomic uint64_t gen;
    uint64_t hull_gen;
    bool hull_ok;
    stex_ival hull[4];
} ival_shadow;

enum { IVAL_MAX_SHADOWS = 1024 };

struct stex_allowed {
    pthread_mutex_t lock;
    ival_shadow *sh[IVAL_MAX_SHADOWS]; /* never moved: read without the lock */
    _Atomic uint32_t nsh;
    char **reasons;          /* reasons[0] unused: 0 means none */
    uint32_t nreasons, reasons_cap;
    uint64_t serial;         /* never reused: keys the executor's cache of reasons */
};

/* The shadow of texture t's level mip, every texel its bytes' sets at
 * first (NULL: out of memory, or no room).  Thread-safe. */
ival_shadow *ival_texture_shadow(stex_allowed *a, stex_texture *t, uint32_t mip,
                                 const stex_profile *p);
/* Value k (texel k / 4, channel k % 4) of a texture's shadow: the set
 * stored there, or what textureLoad may read of its bytes. */
stex_ival ival_texel_get(const ival_shadow *s, uint64_t k);
void ival_texel_put(ival_shadow *s, uint64_t k, stex_ival v, uint32_t why);
/* Per channel, the hull of every texel's set of a texture level (for a
 * textureLoad out of bounds, which may read any texel): computed once per
 * run of stores.  Call it only where no store can run meanwhile (the
 * texture bound read-only in this dispatch).  Thread-safe. */
void ival_texture_hull(stex_allowed *a, ival_shadow *s, stex_ival out[4]);
/* The shadow of buffer b, every word exact at first (NULL: out of memory). */
ival_shadow *ival_buffer_shadow(stex_allowed *a, stex_buffer *b);
/* The existing shadow of a resource, or NULL. */
ival_shadow *ival_find(stex_allowed *a, const void *res, uint32_t mip);
/* Whether any level of res holds sets. */
bool ival_holds(stex_allowed *a, const void *res);
/* The index of reason text (added once), > 0; 1 when out of memory. */
uint32_t ival_reason(stex_allowed *a, const char *text);

/* The set channel c of a texel of format f holding these bytes' decoded
 * value gives textureLoad on any device (WebGPU's load conversions). */
stex_ival ival_texel_channel(stex_format f, unsigned c, const stex_vec4 *decoded);

/* run_workgroup of the allowed-mode executor; user is a wg_exec_program
 * whose `allowed` is set. */
void wg_ival_run_workgroup(const stex_workgroup *w, void *user);

#endif
