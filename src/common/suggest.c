/* "did you mean": the nearest known name by edit distance (suggest.h). */
#include "common/suggest.h"

#include <ctype.h>
#include <string.h>

enum { SUGGEST_MAX_LEN = 64 }; /* longer words are compared by nothing */

/* Optimal string alignment distance (Damerau-Levenshtein without repeated
 * edits of one substring), letters without case. */
static size_t distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > SUGGEST_MAX_LEN || m > SUGGEST_MAX_LEN)
        return (size_t)-1;
    size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
            size_t best = d[i - 1][j - 1] + (ai != bj);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == bj && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

void stex_suggest_init(stex_suggestion *s, const char *word)
{
    s->word = word ? word : "";
    s->best = NULL;
    s->dist = (size_t)-1;
}

void stex_suggest_offer(stex_suggestion *s, const char *candidate)
{
    if (!candidate || !strcmp(candidate, s->word))
        return;
    size_t d = distance(s->word, candidate);
    if (d < s->dist) {
        s->dist = d;
        s->best = candidate;
    }
}

const char *stex_suggest_best(const stex_suggestion *s)
{
    size_t limit = strlen(s->word) <= 4 ? 1 : 2;
    return s->best && s->dist <= limit ? s->best : NULL;
}

const char *stex_suggest(const char *word, const char *const *names, size_t n)
{
    stex_suggestion s;
    stex_suggest_init(&s, word);
    for (size_t i = 0; i < n; i++)
        stex_suggest_offer(&s, names[i]);
    return stex_suggest_best(&s);
}
