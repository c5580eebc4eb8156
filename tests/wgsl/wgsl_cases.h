/*
 * tests/wgsl/wgsl_cases.h - tables of WGSL modules with the verdict the
 * WGSL spec gives them (most from the WebGPU CTS's shader,validation tests,
 * the case named beside each): each is created as a module and must be
 * valid, or refused with an error naming the expected rule.  Include after
 * <cmocka.h>.
 */
#ifndef STEX_TESTS_WGSL_CASES_H
#define STEX_TESTS_WGSL_CASES_H

#include <string.h>

#include "stex/stex.h"

typedef struct wgsl_case {
    const char *cts;  /* the CTS case it comes from */
    const char *src;
    const char *rule; /* NULL: valid; else the rule of the expected error, "[rule]" */
} wgsl_case;

static inline void wgsl_check_cases(const wgsl_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        stex_wgsl_module *m = NULL;
        stex_status st = stex_wgsl_module_create(c[i].src, "t.wgsl", &m);
        const char *text = m ? stex_wgsl_module_diagnostics(m) : "";
        if (!c[i].rule && st)
            fail_msg("%s: valid, refused:\n%s\n%s", c[i].cts, c[i].src, text);
        if (c[i].rule && !st)
            fail_msg("%s: invalid, accepted:\n%s", c[i].cts, c[i].src);
        if (c[i].rule && !strstr(text, c[i].rule))
            fail_msg("%s: refused without '%s':\n%s", c[i].cts, c[i].rule, text);
        stex_wgsl_module_destroy(m);
    }
}

#define WGSL_CHECK(table) wgsl_check_cases(table, sizeof table / sizeof table[0])

#endif
