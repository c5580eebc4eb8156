/* Morton (Z-order) index variants: table, BMI2 pdep, and the inverse. */
#include "stex/layout.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_PDEP_TARGET 1
#else
#define HAVE_PDEP_TARGET 0
#endif

/* spread[v] = the 8 bits of v moved to the even bit positions. */
static uint16_t spread[256];
static int spread_ready;

static void spread_init(void)
{
    for (uint32_t v = 0; v < 256; v++)
        spread[v] = (uint16_t)stex_morton_spread16(v);
    __atomic_store_n(&spread_ready, 1, __ATOMIC_RELEASE);
}

uint32_t stex_morton2_table(uint32_t x, uint32_t y)
{
    if (!__atomic_load_n(&spread_ready, __ATOMIC_ACQUIRE))
        spread_init(); /* idempotent: racing initialisers write the same values */
    uint32_t sx = spread[x & 255] | ((uint32_t)spread[(x >> 8) & 255] << 16);
    uint32_t sy = spread[y & 255] | ((uint32_t)spread[(y >> 8) & 255] << 16);
    return sx | (sy << 1);
}

#if HAVE_PDEP_TARGET
__attribute__((target("bmi2"))) static uint32_t pdep_impl(uint32_t x, uint32_t y)
{
    return _pdep_u32(x & 0xffffu, 0x55555555u) | _pdep_u32(y & 0xffffu, 0xaaaaaaaau);
}
bool stex_morton2_pdep_available(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2");
}
uint32_t stex_morton2_pdep(uint32_t x, uint32_t y) { return pdep_impl(x, y); }
#else
bool stex_morton2_pdep_available(void) { return false; }
uint32_t stex_morton2_pdep(uint32_t x, uint32_t y) { return stex_morton2(x, y); }
#endif

static uint32_t compact(uint32_t v)
{
    v &= 0x55555555u;
    v = (v | (v >> 1)) & 0x33333333u;
    v = (v | (v >> 2)) & 0x0f0f0f0fu;
    v = (v | (v >> 4)) & 0x00ff00ffu;
    v = (v | (v >> 8)) & 0x0000ffffu;
    return v;
}

void stex_morton2_decode(uint32_t m, uint32_t *x, uint32_t *y)
{
    *x = compact(m);
    *y = compact(m >> 1);
}
