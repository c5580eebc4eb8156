/* The diff picture's legend: a swatch of each colour, the number of texels
 * painted with it and what it means, so that the picture explains itself
 * when it is opened alone.  Text is drawn in a 5x7 pixel font. */
#include "io/io_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

/* Rows of 5 pixels, top to bottom; bit 4 is the leftmost pixel. */
static const uint8_t GLYPH[64][7] = {
    ['0' - 32] = {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e},
    ['1' - 32] = {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e},
    ['2' - 32] = {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f},
    ['3' - 32] = {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e},
    ['4' - 32] = {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02},
    ['5' - 32] = {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e},
    ['6' - 32] = {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e},
    ['7' - 32] = {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
    ['8' - 32] = {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e},
    ['9' - 32] = {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c},
    ['A' - 32] = {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11},
    ['B' - 32] = {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e},
    ['C' - 32] = {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e},
    ['D' - 32] = {0x1e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1e},
    ['E' - 32] = {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f},
    ['F' - 32] = {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10},
    ['G' - 32] = {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f},
    ['H' - 32] = {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11},
    ['I' - 32] = {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e},
    ['J' - 32] = {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c},
    ['K' - 32] = {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11},
    ['L' - 32] = {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f},
    ['M' - 32] = {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11},
    ['N' - 32] = {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11},
    ['O' - 32] = {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e},
    ['P' - 32] = {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10},
    ['Q' - 32] = {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d},
    ['R' - 32] = {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11},
    ['S' - 32] = {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e},
    ['T' - 32] = {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},
    ['U' - 32] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e},
    ['V' - 32] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04},
    ['W' - 32] = {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a},
    ['X' - 32] = {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11},
    ['Y' - 32] = {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04},
    ['Z' - 32] = {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f},
    ['+' - 32] = {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00},
    ['-' - 32] = {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00},
    [':' - 32] = {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00},
    ['.' - 32] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c},
    [',' - 32] = {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08},
    ['(' - 32] = {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02},
    [')' - 32] = {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08},
    ['/' - 32] = {0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x10},
    ['%' - 32] = {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03},
    ['=' - 32] = {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00},
    ['>' - 32] = {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08},
    ['<' - 32] = {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02},
};

/* Layout in pixels (docs/file-formats.md describes the same). */
enum {
    MARGIN = 4,           /* around the legend */
    ROW = 11,             /* one row: a 9-pixel swatch and 2 pixels of space */
    SWATCH = 9,           /* the swatch, a 1-pixel light grey frame around its colour */
    TEXT_X = MARGIN + SWATCH + 6,
    ADVANCE = 6,          /* a 5-pixel glyph and a pixel of space */
};

static const uint8_t INK[3] = {255, 255, 255}, FRAME[3] = {160, 160, 160};

static void put(uint8_t *rgba, uint32_t width, uint32_t x, uint32_t y, const uint8_t rgb[3])
{
    memcpy(rgba + ((size_t)y * width + x) * 4, rgb, 3);
}

static void draw_text(uint8_t *rgba, uint32_t width, uint32_t x, uint32_t y, const char *s)
{
    for (; *s; s++, x += ADVANCE) {
        int ch = toupper((unsigned char)*s);
        if (ch < 32 || ch >= 96)
            continue;
        for (unsigned r = 0; r < 7; r++)
            for (unsigned c = 0; c < 5; c++)
                if (GLYPH[ch - 32][r] & (0x10 >> c))
                    put(rgba, width, x + c, y + r, INK);
    }
}

/* "    4083  EQUAL": the count right-aligned in as many digits as the
 * largest takes. */
static size_t row_text(const io_legend_row *rows, size_t n, size_t i, char *buf, size_t len)
{
    int digits = 1;
    for (size_t k = 0; k < n; k++) {
        int d = snprintf(NULL, 0, "%llu", (unsigned long long)rows[k].count);
        digits = d > digits ? d : digits;
    }
    int w = snprintf(buf, len, "%*llu  %s", digits, (unsigned long long)rows[i].count,
                     rows[i].label);
    return w < 0 ? 0 : (size_t)w;
}

void io_legend_size(const io_legend_row *rows, size_t n, uint32_t *w, uint32_t *h)
{
    size_t longest = 0;
    char buf[96];
    for (size_t i = 0; i < n; i++) {
        size_t k = row_text(rows, n, i, buf, sizeof buf);
        longest = k > longest ? k : longest;
    }
    *w = (uint32_t)(TEXT_X + longest * ADVANCE + MARGIN);
    *h = (uint32_t)(2 * MARGIN + n * ROW);
}

void io_legend_draw(uint8_t *rgba, uint32_t width, uint32_t x0, uint32_t y0,
                    const io_legend_row *rows, size_t n)
{
    char buf[96];
    for (size_t i = 0; i < n; i++) {
        uint32_t y = y0 + MARGIN + (uint32_t)i * ROW, x = x0 + MARGIN;
        for (uint32_t dy = 0; dy < SWATCH; dy++)
            for (uint32_t dx = 0; dx < SWATCH; dx++) {
                bool edge = !dx || !dy || dx == SWATCH - 1 || dy == SWATCH - 1;
                put(rgba, width, x + dx, y + dy, edge ? FRAME : rows[i].rgb);
            }
        row_text(rows, n, i, buf, sizeof buf);
        draw_text(rgba, width, x0 + TEXT_X, y + 1, buf);
    }
}

stex_status io_write_paint_png(const char *path, const uint8_t *paint, uint32_t w, uint32_t h,
                               const io_legend_row *rows, size_t n)
{
    /* a small texture is scaled up (whole pixels per texel) until the
     * picture is about 256 pixels on its longer side, so one texel shows;
     * the legend goes below, the picture widened (black) if it is narrower */
    uint32_t longer = w > h ? w : h, k = longer >= 256 ? 1 : 256 / longer;
    uint32_t lw, lh;
    io_legend_size(rows, n, &lw, &lh);
    uint32_t pw = w * k > lw ? w * k : lw, ph = h * k + lh;
    uint8_t *rgba = calloc((size_t)pw * ph, 4);
    if (!rgba)
        return stex_fail(STEX_OUT_OF_MEMORY, "diff picture: out of memory");
    for (size_t i = 0; i < (size_t)pw * ph; i++)
        rgba[i * 4 + 3] = 255;
    for (uint32_t y = 0; y < h * k; y++)
        for (uint32_t x = 0; x < w * k; x++)
            memcpy(rgba + ((size_t)y * pw + x) * 4, rows[paint[(size_t)(y / k) * w + x / k]].rgb, 3);
    io_legend_draw(rgba, pw, 0, h * k, rows, n);
    stex_status st = stex_write_png_rgba8(path, rgba, pw, ph);
    free(rgba);
    return st;
}
