/* The profile side of the inline codecs of stex/shader.h: a 256-entry table
 * per unorm decode rule, filled by the converter itself so the two cannot
 * diverge, and the store rule as the small integers the inline encoder reads. */
#include <pthread.h>
#include <string.h>

#include "convert/fast.h"
#include "convert/scalar.h"
#include "convert/codec_inline.h"

static float unorm8_table[2][256]; /* [stex_norm_decode] */
static pthread_once_t unorm8_once = PTHREAD_ONCE_INIT;

static void unorm8_fill(void)
{
    for (int k = 0; k < 256; k++) {
        unorm8_table[STEX_NORM_DECODE_EXACT][k] = stex_unorm_value(STEX_NORM_DECODE_EXACT, k, 8);
        unorm8_table[STEX_NORM_DECODE_MUL_RECIP][k] =
            stex_unorm_value(STEX_NORM_DECODE_MUL_RECIP, k, 8);
    }
}

const float *stex__unorm8_values(stex_norm_decode d)
{
    pthread_once(&unorm8_once, unorm8_fill);
    return unorm8_table[d == STEX_NORM_DECODE_MUL_RECIP];
}

int stex__unorm8_values_kind(const float *value)
{
    pthread_once(&unorm8_once, unorm8_fill);
    return value == unorm8_table[0] ? 0 : value == unorm8_table[1] ? 1 : -1;
}

void stex__unorm8_rule(const stex_norm_rules *r, uint32_t *round, uint32_t *nan)
{
    switch (r->round) {
    case STEX_NORM_ROUND_EXACT_EVEN: *round = STEX__UNORM8_EXACT_EVEN; break;
    case STEX_NORM_ROUND_EXACT_HALF_UP: *round = STEX__UNORM8_EXACT_HALF_UP; break;
    case STEX_NORM_ROUND_F32_EVEN: *round = STEX__UNORM8_F32_EVEN; break;
    case STEX_NORM_ROUND_FIXED4_HALF_DOWN: *round = STEX__UNORM8_FIXED4; break;
    }
    *nan = r->nan_unorm == STEX_NORM_NAN_MAX ? 255 : 0;
}

stex_fast_codec stex__fast_codec(const stex_profile *p, stex_format f)
{
    stex_fast_codec c = {STEX__CODEC_CALL, STEX__CODEC_CALL, 0, 0, NULL, 0};
    uint32_t id = f == STEX_FORMAT_RGBA8UNORM   ? STEX__CODEC_RGBA8UNORM
                  : f == STEX_FORMAT_BGRA8UNORM ? STEX__CODEC_BGRA8UNORM
                                                : STEX__CODEC_CALL;
    if (f == STEX_FORMAT_RGBA16FLOAT && p) { /* the two roundings the inline store knows */
        if (p->store_f16.round == STEX_FLOAT_ROUND_EVEN || p->store_f16.round == STEX_FLOAT_ROUND_ZERO)
            c.enc = STEX__CODEC_RGBA16FLOAT;
        c.f16_even = p->store_f16.round == STEX_FLOAT_ROUND_EVEN;
        return c;
    }
    if (id == STEX__CODEC_CALL || !p)
        return c;
    c.enc = c.dec = id;
    stex__unorm8_rule(&p->store_norm, &c.u8_round, &c.u8_nan);
    c.u8_value = stex__unorm8_values(p->load_norm);
    return c;
}
