/*
 * math/interval_store.c - what textureStore of a set of values leaves in a
 * texel channel, under every conversion WebGPU allows.
 */
#include "math/interval_internal.h"

stex_ival stex_ival_store(stex_format f, unsigned c, stex_ival v)
{
    (void)f, (void)c, (void)v;
    return stex_iv_any_float();
}

void stex_ival_channel_codes(stex_format f, unsigned c, stex_ival stored, uint32_t *lo_code,
                             uint32_t *hi_code)
{
    (void)f, (void)c, (void)stored;
    *lo_code = 0;
    *hi_code = 0;
}
