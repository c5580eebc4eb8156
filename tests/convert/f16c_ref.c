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

/* IEEE 754 binary16 results the instruction must give (normal, largest
 * finite, overflow by rounding mode, smallest subnormal, a tie to even,
 * -0, and back): NULL when all hold, else what failed.  The sweeps check it
 * before using the CPU as their reference. */
const char *f16c_self_check(void)
{
    static const struct {
        float x;
        uint16_t rne, rtz;
    } to16[] = {
        {1.0f, 0x3c00, 0x3c00},     {65504.0f, 0x7bff, 0x7bff}, {65520.0f, 0x7c00, 0x7bff},
        {0x1p-24f, 0x0001, 0x0001}, {0x1p-25f, 0x0000, 0x0000}, {0x1.8p-24f, 0x0002, 0x0001},
        {-0.0f, 0x8000, 0x8000},
    };
    for (unsigned i = 0; i < sizeof to16 / sizeof to16[0]; i++)
        if (f16c_from_f32_rne(to16[i].x) != to16[i].rne
            || f16c_from_f32_rtz(to16[i].x) != to16[i].rtz)
            return "an f32 -> f16 conversion";
    if (f16c_to_f32(0x7bff) != 65504.0f || f16c_to_f32(0x0001) != 0x1p-24f
        || f16c_to_f32(0xc000) != -2.0f)
        return "an f16 -> f32 conversion";
    return NULL;
}
