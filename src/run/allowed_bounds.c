/* An allowed golden's bounds (stex/io.h) from what the allowed-mode executor
 * says a conformant device may leave in an output (stex_allowed_output):
 * per channel the codes of the least and greatest value, NaN, or
 * unconstrained with its reason. */
#include <stdio.h>
#include <string.h>

#include "common/error.h"
#include "run/run_internal.h"
#include "stex/wgsl.h"

/* The bound of one value set of a channel of format f. */
static stex_bound bound_of(stex_bounds *b, stex_format f, unsigned c, stex_ival v,
                           const char *why)
{
    stex_bound out = {0, 0, 0, 0};
    if (v.flags & STEX_IVAL_ANY) {
        out.flags = STEX_BOUND_ANY;
        out.reason = why && why[0] ? stex_bounds_reason(b, why) : 0;
        return out;
    }
    if (v.flags & STEX_IVAL_NO_NUMBER)
        return (stex_bound){0, 0, STEX_BOUND_NAN | STEX_BOUND_ONLY_NAN, 0};
    stex_ival_channel_codes(f, c, v, &out.lo, &out.hi);
    out.flags = v.flags & STEX_IVAL_NAN ? STEX_BOUND_NAN : 0;
    return out;
}

/* The exact value of channel c of texel t of the image, as a bound: its
 * code, or "only NaN" for a NaN (a NaN is never a bound's end). */
static stex_bound exact_code(const stex_image *img, uint64_t t, unsigned c)
{
    uint64_t x = t % img->width, row = t / img->width;
    const uint8_t *p = stex_image_texel(img, (uint32_t)x, (uint32_t)(row % img->height),
                                        (uint32_t)(row / img->height));
    stex_vec4 v;
    if (stex_format_get(img->format)->scalar == STEX_SCALAR_F32 &&
        !stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), img->format, p, &v) &&
        v.f[c] != v.f[c])
        return (stex_bound){0, 0, STEX_BOUND_NAN | STEX_BOUND_ONLY_NAN, 0};
    uint32_t code = stex_channel_compare(img->format, p, p, c).golden_code;
    return (stex_bound){code, code, 0, 0};
}

/* The word type a 32-bit channel of this kind holds. */
static char word_type_of(const stex_format_info *fi)
{
    switch (fi->type) {
    case STEX_CHANNEL_FLOAT:
        return 'f';
    case STEX_CHANNEL_SINT:
        return 'i';
    case STEX_CHANNEL_UINT:
        return 'u';
    default:
        return 0;
    }
}

static const stex_format R32_OF[] = {['f'] = STEX_FORMAT_R32FLOAT, ['i'] = STEX_FORMAT_R32SINT,
                                     ['u'] = STEX_FORMAT_R32UINT};

/* A buffer output read as texels of img's format: a 32-bit channel of the
 * words' own type takes the word's set; any other channel its exact code,
 * unless the word it lies in is uncertain (then it is unconstrained). */
static void buffer_bounds(const stex_allowed_output *o, const stex_image *img, stex_bounds *b)
{
    const stex_format_info *fi = stex_format_get(img->format);
    uint64_t texels = (uint64_t)img->width * img->height * img->depth;
    char why[160];
    for (uint64_t t = 0; t < texels; t++) {
        unsigned off = 0;
        for (unsigned c = 0; c < fi->channels; off += fi->bits[c] / 8, c++) {
            stex_bound *out = &b->v[t * fi->channels + c];
            uint64_t word = (t * fi->bytes + off) / 4;
            if (word >= o->width) {
                *out = exact_code(img, t, c);
                continue;
            }
            stex_ival v = o->v[word];
            char wt = o->word_type;
            bool same = fi->bits[c] == 32 && wt && wt == word_type_of(fi);
            if (same || (v.flags & STEX_IVAL_ANY)) {
                const char *r = o->reason && o->reason[word] < o->nreasons
                                    ? o->reasons[o->reason[word]] : NULL;
                *out = bound_of(b, same ? R32_OF[(unsigned char)wt] : img->format, c, v, r);
            } else if (wt == 'x' || wt == 0 || stex_ival_is_point(wt, &v))
                *out = exact_code(img, t, c);
            else {
                snprintf(why, sizeof why, "a buffer word of uncertain %s read as %s texels",
                         wt == 'f' ? "f32" : wt == 'h' ? "f16" : wt == 'i' ? "i32" : "u32",
                         fi->name);
                *out = (stex_bound){0, 0, STEX_BOUND_ANY, stex_bounds_reason(b, why)};
            }
        }
    }
}

stex_status stex_bounds_from_allowed(const stex_allowed_output *o, const stex_image *img,
                                     stex_bounds *b)
{
    memset(b, 0, sizeof *b);
    if (!o || !o->v || !img || !img->data)
        return stex_fail(STEX_INVALID_ARGUMENT, "bounds: no allowed sets or no image");
    if (o->is_texture && (o->format != img->format || o->width != img->width ||
                          o->height != img->height || o->layers != img->depth))
        return stex_fail(STEX_INVALID_ARGUMENT, "bounds: the sets are of %ux%ux%u %s texels, "
                                                "the image %ux%ux%u %s", o->width, o->height,
                         o->layers, stex_format_name(o->format), img->width, img->height,
                         img->depth, stex_format_name(img->format));
    stex_status st = stex_bounds_init(b, img->format, img->width, img->height, img->depth);
    if (st)
        return st;
    if (!o->is_texture) {
        buffer_bounds(o, img, b);
        return STEX_OK;
    }
    uint64_t texels = (uint64_t)img->width * img->height * img->depth;
    for (uint64_t t = 0; t < texels; t++)
        for (unsigned c = 0; c < b->channels; c++) {
            uint64_t k = t * 4 + c;
            const char *r = o->reason && o->reason[k] < o->nreasons ? o->reasons[o->reason[k]]
                                                                    : NULL;
            b->v[t * b->channels + c] = bound_of(b, img->format, c, o->v[k], r);
        }
    return STEX_OK;
}

stex_status run_output_bounds(stex_run *r, const run_output *o, const char *path,
                              const stex_image *img, stex_bounds *out)
{
    memset(out, 0, sizeof *out);
    stex_allowed *a = r->opt.allowed;
    stex_allowed_output ao = {0};
    stex_status st;
    if (o->buffer) {
        stex_buffer *b = run_table_find(&r->buffers, o->buffer);
        uint64_t bytes = (uint64_t)img->width * stex_format_get(img->format)->bytes *
                         img->height * img->depth;
        st = b ? stex_allowed_buffer(a, b, o->offset, bytes, &ao)
               : run_fail(r, STEX_FILE_FORMAT_ERROR, path, "buffer '%s' is not declared",
                          o->buffer);
    } else {
        stex_texture *t = run_table_find(&r->textures, o->texture);
        st = t ? stex_allowed_texture(a, t, o->mip, &ao)
               : run_fail(r, STEX_FILE_FORMAT_ERROR, path, "texture '%s' is not declared",
                          o->texture);
    }
    if (!st)
        st = stex_bounds_from_allowed(&ao, img, out);
    stex_allowed_output_free(&ao);
    return st ? run_wrap(r, st, path) : STEX_OK;
}
