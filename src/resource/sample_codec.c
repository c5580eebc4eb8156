/* Table decoders for sampled texels (sample_codec.h).  A linear filter reads
 * four texels per level, and the generic decoder costs hundreds of
 * instructions per texel; a table lookup per channel gives the same bits.
 * Tables are filled by calling the format's decoder on every code, with the
 * channels holding different codes, and are used only when every channel
 * decodes independently of the others to the same table (8-bit: one table
 * per channel). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "resource/sample_codec.h"

/* Code of channel c when channel 0 holds k: a bijection per channel, so one
 * pass over k decodes every code in every channel, with unequal neighbours. */
static uint32_t spread(uint32_t k, uint32_t c, uint32_t mask)
{
    return (k + c * 0x9e5bu) & mask;
}

static bool build_u8(sample_codec *sc, const stex_profile *p, stex_decode_fn dec, uint32_t n)
{
    for (uint32_t k = 0; k < 256; k++) {
        uint8_t t[16] = {0};
        for (uint32_t c = 0; c < n; c++)
            t[c] = (uint8_t)spread(k, c, 0xff);
        stex_vec4 v;
        dec(p, t, &v);
        for (uint32_t c = 0; c < n; c++)
            sc->t8[c][spread(k, c, 0xff)] = v.u[c];
    }
    /* a second pass with other neighbours: a channel must not depend on them */
    for (uint32_t k = 0; k < 256; k++) {
        uint8_t t[16] = {0};
        for (uint32_t c = 0; c < n; c++)
            t[c] = (uint8_t)spread(k * 7u, c + 3, 0xff);
        stex_vec4 v;
        dec(p, t, &v);
        for (uint32_t c = 0; c < n; c++)
            if (v.u[c] != sc->t8[c][t[c]])
                return false;
    }
    return true;
}

static bool build_u16(sample_codec *sc, const stex_profile *p, stex_decode_fn dec, uint32_t n)
{
    uint32_t *tab = malloc(4 * 65536 * sizeof *tab);
    if (!tab)
        return false;
    for (uint32_t k = 0; k < 65536; k++) {
        uint8_t t[16] = {0};
        for (uint32_t c = 0; c < n; c++) {
            uint32_t h = spread(k, c, 0xffff);
            t[2 * c] = (uint8_t)h;
            t[2 * c + 1] = (uint8_t)(h >> 8);
        }
        stex_vec4 v;
        dec(p, t, &v);
        for (uint32_t c = 0; c < n; c++)
            tab[c * 65536 + spread(k, c, 0xffff)] = v.u[c];
    }
    for (uint32_t c = 1; c < n; c++)
        if (memcmp(tab, tab + c * 65536, 65536 * sizeof *tab)) {
            free(tab);
            return false;
        }
    uint32_t *one = realloc(tab, 65536 * sizeof *tab);
    sc->t16 = one ? one : tab;
    return true;
}

bool sample_fits_8unorm(const stex_format_info *fi)
{
    if (!fi || fi->type != STEX_CHANNEL_UNORM ||
        (fi->packing != STEX_PACKING_PLAIN && fi->packing != STEX_PACKING_BGRA))
        return false;
    for (int c = 0; c < fi->channels; c++)
        if (fi->bits[c] != 8)
            return false;
    return true;
}

static bool build_tables(sample_codec *sc, const stex_format_info *fi, const stex_profile *p,
                         stex_decode_fn dec)
{
    if (!fi || !dec || fi->kind != STEX_KIND_COLOR || fi->packing != STEX_PACKING_PLAIN ||
        fi->channels < 1 || fi->channels > 4)
        return false;
    uint32_t n = fi->channels, bits = fi->bits[0];
    for (uint32_t c = 1; c < n; c++)
        if (fi->bits[c] != bits)
            return false;
    if ((bits != 8 && bits != 16) || fi->bytes != n * bits / 8)
        return false;
    sc->channels = n;
    uint8_t zero[16] = {0};
    stex_vec4 z;
    dec(p, zero, &z);
    for (uint32_t c = n; c < 4; c++)
        sc->rest[c] = z.u[c];
    if (!(bits == 8 ? build_u8(sc, p, dec, n) : build_u16(sc, p, dec, n)))
        return false;
    sc->kind = bits == 8 ? SAMPLE_CODEC_U8 : SAMPLE_CODEC_U16;
    return true;
}

static sample_codec *build(const stex_profile *p, stex_format f, stex_decode_fn dec)
{
    const stex_format_info *fi = stex_format_get(f);
    sample_codec *sc = calloc(1, sizeof *sc);
    if (!sc)
        return NULL;
    sc->f32 = fi && fi->scalar == STEX_SCALAR_F32;
    sc->fits8 = sample_fits_8unorm(fi);
    if (!build_tables(sc, fi, p, dec))
        sc->kind = SAMPLE_CODEC_DECODER;
    return sc;
}

/* One slot per (profile, format); a built codec is published once and never
 * freed (a losing racer frees its own copy). */
_Atomic(const sample_codec *) sample_codec_cache[STEX_PROFILE_COUNT][STEX_FORMAT_COUNT];

const sample_codec *sample_codec_get(const stex_profile *p, stex_format f, stex_decode_fn dec)
{
    unsigned id = (unsigned)stex_profile_id_of(p);
    if (id >= STEX_PROFILE_COUNT || (unsigned)f >= STEX_FORMAT_COUNT || !p)
        return NULL;
    const sample_codec *sc = atomic_load_explicit(&sample_codec_cache[id][f], memory_order_acquire);
    if (sc)
        return sc;
    sample_codec *mine = build(p, f, dec);
    const sample_codec *expected = NULL;
    if (!mine)
        return NULL;
    if (atomic_compare_exchange_strong_explicit(&sample_codec_cache[id][f], &expected, mine,
                                                memory_order_acq_rel, memory_order_acquire))
        return mine;
    free((void *)mine->t16);
    free(mine);
    return expected;
}
