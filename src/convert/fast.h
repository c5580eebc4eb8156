/*
 * convert/fast.h - what the inline codecs of stex/shader.h need from a
 * profile: which formats they handle, its unorm8 rules and decode table.
 */
#ifndef STEX_CONVERT_FAST_H
#define STEX_CONVERT_FAST_H

#include <stdint.h>

#include "convert/profile.h"

/* The value of each unorm8 code under decode rule d: 256 entries built once
 * from the converter's own stex_unorm_value. */
const float *stex__unorm8_values(stex_norm_decode d);
/* Which of stex__unorm8_values' tables value is: 0 the exact one (k / 255
 * correctly rounded), 1 the multiplied one (f32(k * f32(1/255))), -1 neither. */
int stex__unorm8_values_kind(const float *value);

typedef struct stex_fast_codec {
    uint32_t enc, dec;        /* STEX__CODEC_* of stex/shader.h */
    uint32_t u8_round, u8_nan; /* the store rule and the code a NaN stores */
    const float *u8_value;    /* the load values */
    uint32_t f16_even;        /* rgba16float: stores round to nearest even (else toward zero) */
} stex_fast_codec;

/* The inline codec of format f under profile p (STEX__CODEC_CALL if none). */
stex_fast_codec stex__fast_codec(const stex_profile *p, stex_format f);

/* unorm8 store rule r as STEX__UNORM8_* and NaN's code. */
void stex__unorm8_rule(const stex_norm_rules *r, uint32_t *round, uint32_t *nan);

#endif
