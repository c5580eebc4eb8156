/* Allowed mode's shadows of textures and buffers (interp_ival.h): created on
 * a resource's first allowed-mode store, kept as long as the stex_allowed,
 * and read back as stex_allowed_output. */
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "stex/device.h"
#include "stex/format.h"
#include "stex/resource.h"
#include "wgsl/interp_ival.h"

stex_status stex_allowed_create(stex_allowed **out)
{
    if (!out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_allowed_create: out is NULL");
    stex_allowed *a = calloc(1, sizeof *a);
    if (!a || !(a->reasons = calloc(8, sizeof *a->reasons)) || !(a->reasons[0] = strdup(""))) {
        if (a)
            free(a->reasons);
        free(a);
        *out = NULL;
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_allowed_create: out of memory");
    }
    a->nreasons = 1, a->reasons_cap = 8;
    static _Atomic uint64_t serials;
    a->serial = ++serials;
    pthread_mutex_init(&a->lock, NULL);
    *out = a;
    return STEX_OK;
}

static void shadow_free(ival_shadow *s)
{
    if (!s)
        return;
    free(s->v);
    free(s->why);
    free(s->has);
    free(s);
}

void stex_allowed_destroy(stex_allowed *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; i < a->nsh; i++)
        shadow_free(a->sh[i]);
    for (uint32_t i = 0; i < a->nreasons; i++)
        free(a->reasons[i]);
    free(a->reasons);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

ival_shadow *ival_find(stex_allowed *a, const void *res, uint32_t mip)
{
    uint32_t n = a->nsh; /* entries below n are complete (published under the lock) */
    for (uint32_t i = 0; i < n; i++)
        if (a->sh[i]->res == res && a->sh[i]->mip == mip)
            return a->sh[i];
    return NULL;
}

bool ival_holds(stex_allowed *a, const void *res)
{
    uint32_t n = a->nsh;
    for (uint32_t i = 0; i < n; i++)
        if (a->sh[i]->res == res)
            return true;
    return false;
}

uint32_t ival_reason(stex_allowed *a, const char *text)
{
    pthread_mutex_lock(&a->lock);
    uint32_t r = 0;
    for (uint32_t i = 1; i < a->nreasons && !r; i++)
        if (!strcmp(a->reasons[i], text))
            r = i;
    if (!r && a->nreasons == a->reasons_cap) {
        char **m = realloc(a->reasons, 2 * a->reasons_cap * sizeof *m);
        if (m)
            a->reasons = m, a->reasons_cap *= 2;
    }
    if (!r && a->nreasons < a->reasons_cap && (a->reasons[a->nreasons] = strdup(text)))
        r = a->nreasons++;
    pthread_mutex_unlock(&a->lock);
    return r ? r : 1; /* out of memory: some other reason's text */
}

/* the type letter of a format's sampled type */
static char format_type(stex_format f)
{
    const stex_format_info *fi = stex_format_get(f);
    return !fi || fi->scalar == STEX_SCALAR_F32 ? 'f' : fi->scalar == STEX_SCALAR_I32 ? 'i' : 'u';
}

/* The sets of texel channels' decoded values already asked for, per thread
 * (a format's 8-bit codes give at most 256 values a channel). */
enum { CHANNEL_CACHE = 4096 };
static _Thread_local struct {
    uint64_t key[CHANNEL_CACHE]; /* format, channel, bits; 0: empty */
    stex_ival v[CHANNEL_CACHE];
} channel_cache;

stex_ival ival_texel_channel(stex_format f, unsigned c, const stex_vec4 *decoded)
{
    const stex_format_info *fi = stex_format_get(f);
    char t = format_type(f);
    uint32_t bits = decoded->u[c];
    if (!fi || c >= fi->channels)
        return stex_ival_of_bits(t, bits); /* 0, 0, 1: what textureLoad reads */
    /* a 32-bit channel holds its value exactly: itself, unless a special */
    if (fi->bits[c] == 32 &&
        (t != 'f' || ((bits >> 23 & 255) != 0 && (bits >> 23 & 255) != 255) ||
         !(bits & 0x7fffffffu)))
        return stex_ival_of_bits(t, bits);
    /* a decoded value is a value the channel can hold: stored again it
     * gives its own code, which loads as any device converts it */
    uint64_t key = ((uint64_t)f << 34 | (uint64_t)c << 32 | bits) + 1;
    uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 52) & (CHANNEL_CACHE - 1);
    if (channel_cache.key[h] == key)
        return channel_cache.v[h];
    stex_ival v = stex_ival_store(f, c, stex_ival_of_bits(t, bits));
    channel_cache.key[h] = key;
    channel_cache.v[h] = v;
    return v;
}

stex_ival ival_texel_get(const ival_shadow *s, uint64_t k)
{
    if (s->has[k])
        return s->v[k];
    uint64_t texel = k / 4;
    uint32_t x = (uint32_t)(texel % s->w), y = (uint32_t)(texel / s->w % s->h);
    uint32_t z = (uint32_t)(texel / s->w / s->h);
    stex_texture *t = (stex_texture *)(uintptr_t)s->res;
    stex_vec4 dv;
    /* any profile's decode: its value's set holds every device's */
    stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), s->format,
                      stex_texture_memory(t) + stex_texture_texel_offset(t, s->mip, x, y, z), &dv);
    return ival_texel_channel(s->format, (unsigned)(k % 4), &dv);
}

void ival_texel_put(ival_shadow *s, uint64_t k, stex_ival v, uint32_t why)
{
    s->v[k] = v;
    s->why[k] = v.flags & STEX_IVAL_ANY ? why : 0;
    s->has[k] = 1;
    s->gen++;
}

void ival_texture_hull(stex_allowed *a, ival_shadow *s, stex_ival out[4])
{
    pthread_mutex_lock(&a->lock);
    if (!s->hull_ok || s->hull_gen != s->gen) {
        char t = format_type(s->format);
        for (uint64_t k = 0; k < s->count; k++) {
            stex_ival v = ival_texel_get(s, k);
            s->hull[k % 4] = k < 4 ? v : stex_ival_join(t, s->hull[k % 4], v);
        }
        s->hull_gen = s->gen;
        s->hull_ok = s->count > 0;
    }
    for (unsigned c = 0; c < 4; c++)
        out[c] = s->hull_ok ? s->hull[c] : stex_ival_any(format_type(s->format));
    pthread_mutex_unlock(&a->lock);
}

/* Adds s (published for lock-free readers last); frees it when full. */
static ival_shadow *publish(stex_allowed *a, ival_shadow *s)
{
    pthread_mutex_lock(&a->lock);
    ival_shadow *old = ival_find(a, s->res, s->mip); /* another thread's, first */
    if (!old && a->nsh < IVAL_MAX_SHADOWS) {
        a->sh[a->nsh] = s;
        a->nsh++;
        old = s;
    }
    pthread_mutex_unlock(&a->lock);
    if (old != s)
        shadow_free(s);
    return old;
}

ival_shadow *ival_texture_shadow(stex_allowed *a, stex_texture *t, uint32_t mip,
                                 const stex_profile *p)
{
    ival_shadow *s = ival_find(a, t, mip);
    if (s)
        return s;
    const stex_texture_desc *d = stex_texture_get_desc(t);
    stex_extent3d e = stex_texture_mip_size(t, mip);
    if (!(s = calloc(1, sizeof *s)))
        return NULL;
    s->res = t, s->is_texture = true, s->mip = mip, s->format = d->format;
    s->w = e.width, s->h = e.height, s->layers = e.depth_or_array_layers;
    s->count = (uint64_t)s->w * s->h * s->layers * 4;
    /* no value yet: a texel's set is its bytes' until stored (ival_texel_get) */
    s->v = malloc(s->count * sizeof *s->v);
    s->why = calloc(s->count, sizeof *s->why);
    s->has = calloc(s->count, 1);
    if (!s->v || !s->why || !s->has) {
        shadow_free(s);
        return NULL;
    }
    (void)p;
    return publish(a, s);
}

ival_shadow *ival_buffer_shadow(stex_allowed *a, stex_buffer *b)
{
    ival_shadow *s = ival_find(a, b, 0);
    if (s)
        return s;
    if (!(s = calloc(1, sizeof *s)))
        return NULL;
    s->res = b;
    s->count = stex_buffer_size(b) / 4;
    s->v = calloc(s->count ? s->count : 1, sizeof *s->v);
    s->why = calloc(s->count ? s->count : 1, sizeof *s->why);
    s->has = calloc(s->count ? s->count : 1, 1);
    if (!s->v || !s->why || !s->has) {
        shadow_free(s);
        return NULL;
    }
    return publish(a, s);
}

static stex_status out_alloc(stex_allowed_output *out, uint64_t n, const char *what)
{
    out->v = malloc((n ? n : 1) * sizeof *out->v);
    out->reason = calloc(n ? n : 1, sizeof *out->reason);
    if (!out->v || !out->reason) {
        stex_allowed_output_free(out);
        return stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", what);
    }
    return STEX_OK;
}

stex_status stex_allowed_texture(stex_allowed *a, stex_texture *t, uint32_t mip,
                                 stex_allowed_output *out)
{
    if (!a || !t || !out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_allowed_texture: NULL argument");
    memset(out, 0, sizeof *out);
    if (mip >= stex_texture_get_desc(t)->mip_level_count)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_allowed_texture: the texture has no mip "
                         "level %u", mip);
    /* a level no allowed dispatch stored to: what its bytes load as */
    ival_shadow *s = ival_texture_shadow(a, t, mip,
                                         stex_device_profile(stex_texture_device(t)));
    if (!s)
        return stex_fail(STEX_OUT_OF_MEMORY, "stex_allowed_texture: out of memory");
    stex_status st = out_alloc(out, s->count, "stex_allowed_texture");
    if (st)
        return st;
    out->is_texture = true;
    out->format = s->format;
    out->width = s->w, out->height = s->h, out->layers = s->layers;
    for (uint64_t k = 0; k < s->count; k++) {
        out->v[k] = ival_texel_get(s, k);
        out->reason[k] = s->has[k] ? s->why[k] : 0;
    }
    out->reasons = (const char *const *)a->reasons;
    out->nreasons = a->nreasons;
    return STEX_OK;
}

stex_status stex_allowed_buffer(stex_allowed *a, stex_buffer *b, uint64_t offset, uint64_t size,
                                stex_allowed_output *out)
{
    if (!a || !b || !out)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_allowed_buffer: NULL argument");
    memset(out, 0, sizeof *out);
    uint64_t bytes = stex_buffer_size(b);
    if (offset % 4 || size % 4 || offset > bytes || size > bytes - offset)
        return stex_fail(STEX_INVALID_ARGUMENT, "stex_allowed_buffer: bytes %llu..%llu are not "
                         "whole words inside the buffer's %llu", (unsigned long long)offset,
                         (unsigned long long)(offset + size), (unsigned long long)bytes);
    uint64_t first = offset / 4, n = size / 4;
    stex_status st = out_alloc(out, n, "stex_allowed_buffer");
    if (st)
        return st;
    const ival_shadow *s = ival_find(a, b, 0);
    const uint8_t *data = stex_buffer_data(b);
    char type = 0; /* the words' type where sets were stored, or 'x' */
    for (uint64_t k = 0; s && k < n; k++) {
        char t = (char)s->has[first + k];
        if (t)
            type = !type || type == t ? t : 'x';
    }
    type = type ? type : 'x';
    for (uint64_t k = 0; k < n; k++) {
        uint32_t bits;
        memcpy(&bits, data + (first + k) * 4, 4);
        if (s && s->has[first + k]) {
            out->v[k] = s->v[first + k];
            out->reason[k] = s->why[first + k];
        } else { /* exact: its bits, read as the words around it are */
            out->v[k] = stex_ival_of_bits(type == 'x' ? 'u' : type, bits);
        }
    }
    out->format = STEX_FORMAT_UNDEFINED;
    out->width = (uint32_t)n, out->height = out->layers = 1;
    out->word_type = type;
    out->reasons = (const char *const *)a->reasons;
    out->nreasons = a->nreasons;
    return STEX_OK;
}

void stex_allowed_output_free(stex_allowed_output *o)
{
    if (!o)
        return;
    free(o->v);
    free(o->reason);
    o->v = NULL;
    o->reason = NULL;
}
