/* Internal: "did you mean" - the known name nearest a mistyped one, by
 * edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours, letters compared without case). */
#ifndef STEX_COMMON_SUGGEST_H
#define STEX_COMMON_SUGGEST_H

#include <stddef.h>

/* Candidates are offered one by one; the nearest close enough is kept. */
typedef struct stex_suggestion {
    const char *word; /* what was typed */
    const char *best; /* the nearest candidate so far, NULL none */
    size_t dist;
} stex_suggestion;

void stex_suggest_init(stex_suggestion *s, const char *word);
void stex_suggest_offer(stex_suggestion *s, const char *candidate);
/* The nearest candidate if it is close enough to be what was meant (at most
 * 1 edit for a word of up to 4 characters, 2 for a longer one, and never the
 * word itself), else NULL. */
const char *stex_suggest_best(const stex_suggestion *s);
/* The same over an array of n names. */
const char *stex_suggest(const char *word, const char *const *names, size_t n);

#endif
