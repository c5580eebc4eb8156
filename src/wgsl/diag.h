/* Internal: the WGSL front end's diagnostics.  Each is
 * `file:line:col: error: message [rule]`, followed by the source line and a
 * caret under the column; a module keeps every diagnostic of its compile. */
#ifndef STEX_WGSL_DIAG_H
#define STEX_WGSL_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct wg_loc {
    uint32_t line, col; /* 1-based; 0 = no position */
} wg_loc;

/* WGSL's severities (2.3 Diagnostics); only an error makes a module
 * invalid.  A diagnostic filter set to "off" records nothing. */
typedef enum wg_severity { WG_ERROR, WG_WARNING, WG_INFO } wg_severity;

typedef struct wg_diag {
    wg_loc loc;
    wg_severity severity;
    char rule[48];      /* the WGSL rule or section it breaks, e.g. "type-mismatch" */
    char message[256];
} wg_diag;

typedef struct wg_diags {
    const char *source;   /* the whole module (for the quoted line) */
    const char *filename;
    wg_diag *items;       /* errors, warnings and infos, n of them */
    size_t count;         /* the errors among them: the module is valid at 0 */
    size_t n, cap;
    bool quiet;           /* while lowering an inlined call: do not report twice */
    bool unevaluated;     /* in the operand a const '&&'/'||' skips: no evaluation errors */
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

/* Records a diagnostic of severity sev (WG_ERROR: as wg_error). */
void wg_report(wg_diags *d, wg_severity sev, wg_loc loc, const char *rule, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void wg_vreport(wg_diags *d, wg_severity sev, wg_loc loc, const char *rule, const char *fmt,
                va_list ap);
const char *wg_severity_name(wg_severity sev); /* "error", "warning", "info" */

/* Puts the diagnostics in the order of their positions (stable). */
void wg_diags_sort(wg_diags *d);
/* All diagnostics as text, sorted by position; malloc'ed ("" if none). */
char *wg_diags_text(const wg_diags *d);
void wg_diags_free(wg_diags *d);

#endif
