/* The CPU's own f32 <-> f16 conversion (F16C: vcvtps2ph / vcvtph2ps), the
 * physical reference for the sweeps and the benchmark.  Built with -mf16c;
 * call only when f16c_supported() says the CPU has it. */
#include <immintrin.h>
#include <stdint.h>

#include "f16c_ref.h"

int f16c_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("f16c");
}

uint16_t f16c_from_f32_rne(float x)
{
    return (uint16_t)_cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT);
}

uint16_t f16c_from_f32_rtz(float x)
{
    return (uint16_t)_cvtss_sh(x, _MM_FROUND_TO_ZERO);
}

float f16c_to_f32(uint16_t h)
{
    return _cvtsh_ss(h);
}

void f16c_from_f32_rne_n(const float *in, uint16_t *out, unsigned n)
{
    unsigned i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(out + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; i++)
        out[i] = f16c_from_f32_rne(in[i]);
}
