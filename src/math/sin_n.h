/* Internal: stex_sin_n's variants, for the tests. */
#ifndef STEX_MATH_SIN_N_H
#define STEX_MATH_SIN_N_H

#include <stddef.h>

/* The best variant this machine runs: 1 scalar, 2 SSE2, 3 AVX2. */
int stex__sin_n_levels(void);
/* stex_sin_n through variant `level` (<= stex__sin_n_levels()). */
void stex__sin_n_level(int level, size_t n, const float *x, float *out);

#endif
