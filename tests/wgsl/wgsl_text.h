/* A growing text for tests that build WGSL (or any text) piece by piece:
 * add() appends printf-style, repeat() appends a string n times.  Include
 * after <cmocka.h>. */
#ifndef STEX_TESTS_WGSL_TEXT_H
#define STEX_TESTS_WGSL_TEXT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct text {
    char *s;
    size_t n, cap;
} text;

static inline void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)k + 1 > t->cap) {
        t->cap = (t->n + (size_t)k + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

static inline void repeat(text *t, const char *s, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        add(t, "%s", s);
}

#endif
