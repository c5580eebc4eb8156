/* Internal: the WGSL front end's diagnostics.  Each is
 * `file:line:col: error: message [rule]`, followed by the source line and a
 * caret under the column; a module keeps every diagnostic of its compile. */
#ifndef STEX_WGSL_DIAG_H
#define STEX_WGSL_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wg_loc {
    uint32_t line, col; /* 1-based; 0 = no position */
} wg_loc;

typedef struct wg_diag {
    wg_loc loc;
    char rule[48];      /* the WGSL rule or section it breaks, e.g. "type-mismatch" */
    char message[256];
} wg_diag;

typedef struct wg_diags {
    const char *source;   /* the whole module (for the quoted line) */
    const char *filename;
    wg_diag *items;
    size_t count, cap;
    bool quiet;           /* while lowering an inlined call: do not report twice */
} wg_diags;

/* The errors one module records; past them one "more than N errors" note. */
enum { WG_MAX_DIAGS = 1000 };

/* Records an error (dropped when quiet or when the same position and message
 * are already recorded). */
void wg_error(wg_diags *d, wg_loc loc, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* All diagnostics as text, sorted by position; malloc'ed ("" if none). */
char *wg_diags_text(const wg_diags *d);
void wg_diags_free(wg_diags *d);

#endif
