/* F16C reference conversions (f16c_ref.c, built with -mf16c). */
#ifndef STEX_TEST_F16C_REF_H
#define STEX_TEST_F16C_REF_H

#include <stdint.h>

int f16c_supported(void);
uint16_t f16c_from_f32_rne(float x);
uint16_t f16c_from_f32_rtz(float x);
float f16c_to_f32(uint16_t h);
/* Known IEEE results: NULL if the CPU gives them, else what failed. */
const char *f16c_self_check(void);
/* n conversions, 8 at a time with _mm256_cvtps_ph (the benchmark's limit) */
void f16c_from_f32_rne_n(const float *in, uint16_t *out, unsigned n);

#endif
