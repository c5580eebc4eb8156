/* Internal helpers of the io layer: crash-safe writes, whole-file reads,
 * little-endian access and per-format channel extraction. */
#ifndef STEX_IO_INTERNAL_H
#define STEX_IO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/sha256.h"
#include "stex/io.h"

/* A file being written: a temporary in the target's directory, renamed into
 * place when its batch commits.  Everything written is hashed (SHA-256). */
typedef struct io_tmpfile {
    FILE *f;
    char *tmp_path;
    char *final_path;
    io_sha256 sha;
} io_tmpfile;

stex_status io_tmp_open(io_tmpfile *t, const char *path);
/* Flushes and closes; on failure removes the temporary. Does not rename. */
stex_status io_tmp_close(io_tmpfile *t);
/* Closes (if open) and removes the temporary. Safe on a zeroed struct. */
void io_tmp_abort(io_tmpfile *t);
stex_status io_write_bytes(io_tmpfile *t, const void *p, size_t n);

/* Files written all or nothing: each io_batch_open gives a temporary to fill;
 * io_batch_commit renames them all into place (and removes the paths given
 * to io_batch_remove), or, if one step fails, puts every target back as it
 * was.  Either way the batch is empty afterwards; io_batch_abort drops it
 * without touching any target.  A zeroed io_batch is empty. */
enum { IO_BATCH_MAX = 32 };
typedef struct io_batch_item {
    io_tmpfile t;    /* t.tmp_path NULL: the target is to be removed */
    char *backup;    /* a hard link to the target's old content, while committing */
    bool done;       /* renamed (or removed) into place */
} io_batch_item;
typedef struct io_batch {
    size_t n;
    io_batch_item item[IO_BATCH_MAX];
} io_batch;

stex_status io_batch_open(io_batch *b, const char *path, io_tmpfile **out);
stex_status io_batch_remove(io_batch *b, const char *path);
stex_status io_batch_commit(io_batch *b);
void io_batch_abort(io_batch *b);

/* Opens a regular file for reading; refuses FIFOs, devices and directories
 * without blocking on them. */
stex_status io_open_regular(const char *path, FILE **out);
/* The writers, adding their file(s) to a batch (nothing is in place until
 * io_batch_commit).  io_add_inputs writes the hex SHA-256 of the file into
 * sha (unless NULL); io_add_bin adds X.bin, X.bin.json and, by
 * meta->inputs, X.bin.inputs or its removal. */
stex_status io_add_bin(io_batch *b, const char *path, const stex_image *img,
                       const stex_io_meta *meta);
stex_status io_add_npy(io_batch *b, const char *path, const stex_image *img);
stex_status io_add_png(io_batch *b, const char *path, const stex_image *img);
stex_status io_add_inputs(io_batch *b, const char *path, const stex_inputs *in, char sha[65]);

/* Reads a whole file of at most `max` bytes. */
stex_status io_read_file(const char *path, uint8_t **data, size_t *size, size_t max);

static inline uint16_t io_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t io_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void io_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void io_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16); p[3] = (uint8_t)(v >> 24);
}

/* True if the format's texels can be stored in a golden file (colour formats
 * stex can encode). Sets an error naming the format otherwise. */
stex_status io_check_format(stex_format f, const char *what);
/* Validates dimensions against the STEX_IO_MAX_* guards. */
stex_status io_check_dims(const char *what, uint32_t w, uint32_t h, uint32_t d);

/* Channel c (R,G,B,A = 0..3, as the format names them) of a texel, as its raw
 * code: the unsigned bit field for unorm/uint/float, sign-extended for
 * snorm/sint (returned in an int64).  bgra8unorm's R is byte 2. */
int64_t io_channel_code(const stex_format_info *fi, const uint8_t *texel, unsigned c);
/* A channel's code (its bit field) as a number in the channel's value
 * order: floats -inf < ... < -0 < +0 < ... < +inf, adjacent values 1
 * apart (NaNs land past inf: test io_code_is_nan first); snorm's -128 and
 * -127 (both -1.0) as one; ints as themselves. */
int64_t io_code_order(const stex_format_info *fi, unsigned c, uint32_t code);
bool io_code_is_nan(const stex_format_info *fi, unsigned c, uint32_t code);
/* X.bin.allowed into a batch; its hex SHA-256 into sha (unless NULL). */
stex_status io_add_bounds(io_batch *b, const char *path, const stex_bounds *bounds, char sha[65]);

/* The diff picture's legend (legend.c): one row per colour, a swatch, a
 * label and a count, drawn in a 5x7 pixel font (letters print upper-case). */
typedef struct io_legend_row {
    uint8_t rgb[3];
    char label[64];
    uint64_t count;
} io_legend_row;
/* Pixels the legend of n rows takes. */
void io_legend_size(const io_legend_row *rows, size_t n, uint32_t *w, uint32_t *h);
/* Draws it into an RGBA picture `width` pixels wide, top-left at (x0, y0). */
void io_legend_draw(uint8_t *rgba, uint32_t width, uint32_t x0, uint32_t y0,
                    const io_legend_row *rows, size_t n);
/* A diff picture: texel i (w x h, layers stacked) in the colour of
 * rows[paint[i]], scaled up to about 256 pixels, the legend below. */
stex_status io_write_paint_png(const char *path, const uint8_t *paint, uint32_t w, uint32_t h,
                               const io_legend_row *rows, size_t n);

#endif
