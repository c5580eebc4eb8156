/* The pictures of `stex race`: see race_picture.h. */
#include "cli/race_picture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

/* A 5x7 font: each glyph is 7 rows, bit 4 the leftmost pixel.  Lower case
 * is drawn as upper case; a character missing here as '?'. */
static const char FONT_CHARS[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:-()/=+%?";
static const uint8_t FONT[][7] = {
    {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* A */
    {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e}, /* B */
    {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}, /* C */
    {0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e}, /* D */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f}, /* E */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10}, /* F */
    {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f}, /* G */
    {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* H */
    {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* I */
    {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}, /* J */
    {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}, /* K */
    {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f}, /* L */
    {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11}, /* M */
    {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}, /* N */
    {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* O */
    {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10}, /* P */
    {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d}, /* Q */
    {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11}, /* R */
    {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e}, /* S */
    {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, /* T */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* U */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04}, /* V */
    {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a}, /* W */
    {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11}, /* X */
    {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04}, /* Y */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f}, /* Z */
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}, /* 0 */
    {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* 1 */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}, /* 2 */
    {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}, /* 3 */
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}, /* 4 */
    {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}, /* 5 */
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}, /* 6 */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}, /* 7 */
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}, /* 8 */
    {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}, /* 9 */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c}, /* . */
    {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08}, /* , */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00}, /* : */
    {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00}, /* - */
    {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}, /* ( */
    {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}, /* ) */
    {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}, /* / */
    {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00}, /* = */
    {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00}, /* + */
    {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}, /* % */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04}, /* ? */
};

enum { GLYPH_W = 5, GLYPH_H = 7, ADVANCE = 6, LINE = 9, GAP = 4, MARGIN = 6 };

typedef struct canvas {
    uint8_t *px; /* RGBA */
    uint32_t w, h;
} canvas;

static void fill(canvas *c, uint32_t x, uint32_t y, uint32_t n, const uint8_t rgb[3])
{
    for (uint32_t j = 0; j < n && y + j < c->h; j++)
        for (uint32_t i = 0; i < n && x + i < c->w; i++) {
            uint8_t *p = c->px + ((size_t)(y + j) * c->w + x + i) * 4;
            p[0] = rgb[0], p[1] = rgb[1], p[2] = rgb[2], p[3] = 255;
        }
}

static void glyph(canvas *c, uint32_t x, uint32_t y, uint32_t f, char ch)
{
    static const uint8_t white[3] = {235, 235, 235};
    if (ch >= 'a' && ch <= 'z')
        ch = (char)(ch - 'a' + 'A');
    if (ch == ' ')
        return;
    const char *at = strchr(FONT_CHARS, ch);
    const uint8_t *g = FONT[at && ch ? at - FONT_CHARS : (long)strlen(FONT_CHARS) - 1];
    for (uint32_t row = 0; row < GLYPH_H; row++)
        for (uint32_t col = 0; col < GLYPH_W; col++)
            if (g[row] >> (GLYPH_W - 1 - col) & 1)
                fill(c, x + col * f, y + row * f, f, white);
}

/* Draws text from (x, y) at font scale f, wrapping words at width `max`
 * pixels and starting a line at each '\n'; returns the number of lines.
 * c NULL: only counts them. */
static uint32_t text(canvas *c, uint32_t x, uint32_t y, uint32_t f, uint32_t max, const char *s)
{
    uint32_t per_line = max / (ADVANCE * f) ? max / (ADVANCE * f) : 1;
    uint32_t lines = 0;
    while (*s) {
        /* the longest run of whole words that fits, at least one character */
        size_t n = 0, fit = 0;
        while (s[n] && s[n] != '\n' && n < per_line) {
            n++;
            if (!s[n] || s[n] == ' ' || s[n] == '\n')
                fit = n;
        }
        if (!fit) /* one word longer than the line: cut it */
            fit = n;
        for (size_t i = 0; c && i < fit; i++)
            glyph(c, x + (uint32_t)i * ADVANCE * f, y + lines * LINE * f, f, s[i]);
        lines++;
        s += fit;
        while (*s == ' ')
            s++;
        if (*s == '\n')
            s++;
    }
    return lines;
}

uint32_t race_auto_scale(uint32_t width)
{
    return width < 64 ? 4 : width < 128 ? 2 : 1;
}

/* R, G, B of texel i decoded (spec profile) as doubles; false if the
 * format cannot be decoded. */
static bool rgb_of(const stex_image *img, uint32_t x, uint32_t y, double v[3], unsigned *nch)
{
    const stex_format_info *fi = stex_format_get(img->format);
    stex_vec4 t;
    if (stex_decode_texel(stex_profile_get(STEX_PROFILE_SPEC), img->format,
                          stex_image_texel(img, x, y, 0), &t))
        return false;
    *nch = fi->channels < 3 ? fi->channels : 3;
    for (unsigned c = 0; c < 3; c++)
        v[c] = fi->scalar == STEX_SCALAR_U32 ? t.u[c]
             : fi->scalar == STEX_SCALAR_I32 ? t.i[c] : (double)t.f[c];
    return true;
}

race_scale race_scale_of(const stex_image *const *images, uint32_t n)
{
    double lo = INFINITY, hi = -INFINITY;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t y = 0; y < images[i]->height; y++)
            for (uint32_t x = 0; x < images[i]->width; x++) {
                double v[3];
                unsigned nch;
                if (!rgb_of(images[i], x, y, v, &nch))
                    continue;
                for (unsigned c = 0; c < nch; c++)
                    if (isfinite(v[c])) {
                        lo = v[c] < lo ? v[c] : lo;
                        hi = v[c] > hi ? v[c] : hi;
                    }
            }
    if (lo > hi || (lo >= 0 && hi <= 1))
        return (race_scale){0, 1};
    return (race_scale){lo, hi};
}

/* A texel on the scale: grey for one channel, R, G, (B) for more. */
static void texel_rgb(const stex_image *img, uint32_t x, uint32_t y, race_scale r, uint8_t out[3])
{
    double v[3];
    unsigned nch;
    out[0] = out[1] = out[2] = 0;
    if (!rgb_of(img, x, y, v, &nch))
        return;
    for (unsigned c = 0; c < nch; c++) {
        double t = isnan(v[c]) ? 0 : r.hi > r.lo ? (v[c] - r.lo) / (r.hi - r.lo) : 1;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        out[c] = (uint8_t)lround(t * 255);
    }
    if (nch == 1)
        out[1] = out[2] = out[0];
}

/* The heat map's colour: dark red to yellow by the size of the difference
 * (log scale, relative to the largest), blue where the detector flagged a
 * texel that agreed in every run, near black elsewhere. */
static void heat_rgb(uint64_t d, bool flagged, double top, uint8_t out[3])
{
    if (d) {
        double t = top > 0 ? log1p((double)d) / top : 1;
        out[0] = (uint8_t)(90 + 165 * t);
        out[1] = (uint8_t)(230 * t * t);
        out[2] = flagged ? 0 : (uint8_t)(200 * (1 - t));
    } else if (flagged) {
        out[0] = 50, out[1] = 110, out[2] = 255;
    } else {
        out[0] = out[1] = out[2] = 16;
    }
}

/* A picture stex writes: each side at most STEX_IO_MAX_DIMENSION, at most
 * STEX_IO_MAX_BYTES of RGBA. */
static stex_status check_size(const char *path, uint64_t width, uint64_t height)
{
    if (width <= STEX_IO_MAX_DIMENSION && height <= STEX_IO_MAX_DIMENSION &&
        width * height * 4 <= STEX_IO_MAX_BYTES)
        return STEX_OK;
    return stex_fail(STEX_INVALID_ARGUMENT,
                     "%s: the picture would be %llux%llu pixels, over what stex draws (%u a "
                     "side, %llu bytes); give a smaller --scale, --size or --iterations", path,
                     (unsigned long long)width, (unsigned long long)height,
                     STEX_IO_MAX_DIMENSION, (unsigned long long)STEX_IO_MAX_BYTES);
}

static void grid_size(uint32_t w, uint32_t h, uint32_t cells, uint32_t columns, uint32_t k,
                      uint64_t *gw, uint64_t *gh)
{
    uint32_t cols = columns < cells ? columns : cells, rows = (cells + cols - 1) / cols;
    *gw = ((uint64_t)cols * w + (uint64_t)(cols - 1) * GAP) * k;
    *gh = ((uint64_t)rows * h + (uint64_t)(rows - 1) * GAP) * k;
}

stex_status race_check_grid(const char *path, uint32_t w, uint32_t h, uint32_t cells,
                            uint32_t columns, uint32_t scale)
{
    uint64_t gw, gh;
    grid_size(w, h, cells, columns, scale ? scale : race_auto_scale(w), &gw, &gh);
    return check_size(path, gw, gh);
}

stex_status race_draw_png(const char *path, const race_drawing *d)
{
    const stex_image *first = d->images[0];
    uint32_t w = first->width, h = first->height, k = d->scale ? d->scale : 1;
    uint32_t cells = d->count + (d->differs ? 1 : 0);
    uint32_t cols = d->columns < cells ? d->columns : cells;
    uint64_t grid_w, grid_h;
    grid_size(w, h, cells, d->columns, k, &grid_w, &grid_h);
    uint32_t f = grid_w >= 600 ? 2 : 1;
    uint64_t width = grid_w > 40 * ADVANCE * f ? grid_w : 40 * ADVANCE * f;
    uint32_t lines = d->caption ? text(NULL, 0, 0, f, (uint32_t)(width - 2 * MARGIN), d->caption) : 0;
    uint64_t height = grid_h + (lines ? 2 * MARGIN + (uint64_t)lines * LINE * f : 0);
    stex_status st = check_size(path, width, height);
    if (st)
        return st;
    canvas c = {calloc((size_t)width * height, 4), (uint32_t)width, (uint32_t)height};
    if (!c.px)
        return stex_fail(STEX_OUT_OF_MEMORY, "%s: no memory for a %ux%u picture", path, c.w, c.h);
    for (size_t i = 0; i < (size_t)c.w * c.h; i++)
        c.px[4 * i + 3] = 255;
    double top = 0;
    for (size_t i = 0; d->differs && i < (size_t)w * h; i++)
        if (d->differs[i] && log1p((double)d->differs[i]) > top)
            top = log1p((double)d->differs[i]);
    for (uint32_t cell = 0; cell < cells; cell++) {
        uint32_t x0 = (cell % cols) * (w + GAP) * k, y0 = (cell / cols) * (h + GAP) * k;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint8_t rgb[3];
                size_t i = (size_t)y * w + x;
                if (cell < d->count)
                    texel_rgb(d->images[cell], x, y, d->range, rgb);
                else
                    heat_rgb(d->differs[i], d->flagged && d->flagged[i], top, rgb);
                fill(&c, x0 + x * k, y0 + y * k, k, rgb);
            }
    }
    if (lines)
        text(&c, MARGIN, (uint32_t)grid_h + MARGIN, f, c.w - 2 * MARGIN, d->caption);
    st = stex_write_png_rgba8(path, c.px, c.w, c.h);
    free(c.px);
    return st;
}
