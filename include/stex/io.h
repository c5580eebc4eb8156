/*
 * stex/io.h - golden files and comparison.
 *
 * A readback (stex_image) holds texels exactly as copyTextureToBuffer lays
 * them out in a buffer: rows of bytes_per_row bytes (a multiple of 256),
 * images of rows_per_image rows, padding bytes zero.  It can be written and
 * read back as
 *   .bin   those very bytes, with a JSON sidecar X.bin.json (format, size,
 *          layout, profile, schedule, seed, kernel, stex version)
 *   .npy   the texels without padding, shape (depth, height, width, channels)
 *   .png   an 8- or 16-bit picture (docs/file-formats.md gives the rules)
 * and compared with a golden under a tolerance (exact, ulp:N, allowed).
 *
 *     stex_image img;
 *     stex_image_from_texture(tex, 0, &img);           // the copy's bytes
 *     stex_io_meta m = {.kernel = "decaer", .profile = "spec"};
 *     stex_write_image("out.bin", &img, &m);           // + out.bin.json
 *     stex_image golden;  stex_read_bin("golden.bin", &golden, NULL);
 *     stex_compare_result r;
 *     if (stex_compare(&golden, &img, (stex_tolerance){STEX_TOLERANCE_EXACT, 0},
 *                      NULL, &r) == STEX_MISMATCH) ...
 *     stex_image_free(&img);
 *
 * Writers never leave a half-written file: they write a temporary file in the
 * target's directory and rename() it into place.
 *
 * Failure: readers return STEX_IO_ERROR (cannot open/read), or
 * STEX_FILE_FORMAT_ERROR (bad magic, truncated data, size mismatch, absurd
 * dimensions) with the reason in stex_last_error(); the image is then empty
 * (data NULL) and needs no stex_image_free.  Writers return STEX_IO_ERROR and
 * leave no file behind.  stex_compare returns STEX_MISMATCH when a texel is
 * out of tolerance and STEX_INVALID_ARGUMENT when the images cannot be
 * compared (format or size differ).
 */
#ifndef STEX_IO_H
#define STEX_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/api.h"
#include "stex/convert.h"
#include "stex/format.h"
#include "stex/resource.h"
#include "stex/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Readers refuse anything larger: a guard against absurd headers. */
#define STEX_IO_MAX_DIMENSION 65536u        /* width, height */
#define STEX_IO_MAX_DEPTH 2048u             /* layers or depth */
#define STEX_IO_MAX_BYTES (1ull << 30)      /* texel data of one file */

/* A readback in copyTextureToBuffer's buffer layout. */
typedef struct stex_image {
    stex_format format;
    uint32_t width, height, depth;   /* depth = array layers or 3d depth */
    uint32_t bytes_per_row;          /* >= width * texel bytes */
    uint32_t rows_per_image;         /* >= height */
    uint8_t *data;                   /* bytes_per_row * rows_per_image * depth bytes */
    size_t size;
} stex_image;

/* A zeroed image of the format, with bytes_per_row = width * texel bytes
 * rounded up to 256 and rows_per_image = height. */
STEX_API stex_status stex_image_init(stex_image *img, stex_format f, uint32_t width, uint32_t height,
                                     uint32_t depth);
STEX_API void stex_image_free(stex_image *img);
/* Address of texel (x, y, z); NULL out of range. */
STEX_API uint8_t *stex_image_texel(const stex_image *img, uint32_t x, uint32_t y, uint32_t z);
/* Bytes per row of the WebGPU copy layout: width * texel bytes rounded up to 256. */
STEX_API uint32_t stex_copy_bytes_per_row(stex_format f, uint32_t width);

/* Mip level `mip` of a texture (all layers), read with
 * stex_copy_texture_to_buffer.  The texture needs COPY_SRC usage. */
STEX_API stex_status stex_image_from_texture(stex_texture *t, uint32_t mip, stex_image *out);

struct stex_inputs;

/* What the .bin sidecar records besides the layout.  Strings may be NULL
 * (written as null) when writing; after reading they are "" if absent. */
typedef struct stex_io_meta {
    const char *kernel;
    const char *profile;
    const char *schedule;
    uint64_t seed;
    bool has_seed;
    /* .bin only: the store inputs to write beside it as X.bin.inputs.  When
     * NULL, an X.bin.inputs left by an earlier run is removed, so that it
     * cannot be taken for this golden's. */
    const struct stex_inputs *inputs;
    /* .bin only: a JSON object (text) recorded as the sidecar's "run": how
     * the golden was made (docs/file-formats.md).  NULL: none. */
    const char *run_json;
    /* .bin only: the bounds of every value a conformant device may store
     * (an allowed golden), written beside it as X.bin.allowed and recorded
     * in the sidecar as "golden": "allowed".  NULL: an exact golden, and an
     * X.bin.allowed left by an earlier run is removed. */
    const struct stex_bounds *bounds;
} stex_io_meta;

/* What a read sidecar held (owned storage, nothing to free). */
typedef struct stex_io_meta_read {
    char kernel[64];
    char profile[32];
    char schedule[32];
    char stex_version[32];
    uint64_t seed;
    bool has_seed;
    /* The SHA-256 (hex) the sidecar records of X.bin.inputs; "" when the
     * golden was written without inputs.  has_inputs_hash is false for
     * sidecars older than the hashes (then nothing can be checked). */
    char inputs_sha256[65];
    bool has_inputs_hash;
    /* "golden": "allowed": the bounds in X.bin.allowed, whose SHA-256 (hex)
     * the sidecar records (stex_read_bounds checks it). */
    bool allowed;
    char allowed_sha256[65];
} stex_io_meta_read;

/* ---- .bin + .bin.json ---- */
STEX_API stex_status stex_write_bin(const char *path, const stex_image *img, const stex_io_meta *meta);
/* Reads path and path.json; meta may be NULL.  Refuses (FILE_FORMAT_ERROR)
 * a data file whose SHA-256 is not the one its sidecar records. */
STEX_API stex_status stex_read_bin(const char *path, stex_image *out, stex_io_meta_read *meta);
/* A raw readback without a sidecar: the caller gives the layout
 * (rows_per_image 0 = height).  bytes_per_row is a multiple of 256 (the
 * copy's rule) or exactly width x texel bytes (an unpadded readback).  The file may hold the full
 * bytes_per_row * rows_per_image * depth bytes or WebGPU's minimum (the last
 * row unpadded). */
STEX_API stex_status stex_read_bin_raw(const char *path, stex_format f, uint32_t width, uint32_t height,
                                       uint32_t depth, uint32_t bytes_per_row, uint32_t rows_per_image,
                                       stex_image *out);

/* ---- .npy ---- */
/* numpy dtype string of a format ("|u1", "<f2", "<u4" ...) and the number of
 * channels the array has (packed formats: one '<u4' channel). NULL if none. */
STEX_API const char *stex_npy_dtype(stex_format f, uint32_t *channels);
STEX_API stex_status stex_write_npy(const char *path, const stex_image *img);
/* f = UNDEFINED: inferred from dtype and channel count (u1 -> unorm,
 * i1 -> snorm, u2/u4 -> uint, i2/i4 -> sint, f2/f4 -> float); else the file
 * must match f.  Shapes (D,H,W,C), (H,W,C) and (H,W) are accepted. */
STEX_API stex_status stex_read_npy(const char *path, stex_format f, stex_image *out);

/* ---- .png ---- */
STEX_API stex_status stex_write_png(const char *path, const stex_image *img);
/* Any PNG, converted to 8-bit RGBA: an rgba8unorm image. */
STEX_API stex_status stex_read_png(const char *path, stex_image *out);
/* The picture stex_write_png draws, as 8-bit RGBA (16-bit samples keep
 * their high byte; grey is spread to R,G,B): width x (height * depth) pixels,
 * malloc'ed into *rgba (free() it). */
STEX_API stex_status stex_image_render_rgba8(const stex_image *img, uint8_t **rgba);
/* An 8-bit RGBA picture from raw pixels (width * height * 4 bytes). */
STEX_API stex_status stex_write_png_rgba8(const char *path, const uint8_t *rgba, uint32_t width,
                                          uint32_t height);

/* ---- by extension (.bin, .npy, .png) ---- */
typedef enum stex_file_kind {
    STEX_FILE_UNKNOWN = 0, STEX_FILE_BIN, STEX_FILE_NPY, STEX_FILE_PNG
} stex_file_kind;
STEX_API stex_file_kind stex_file_kind_of(const char *path);
STEX_API stex_status stex_write_image(const char *path, const stex_image *img, const stex_io_meta *meta);
/* The image to each of n paths, all or nothing: if one cannot be written,
 * every target (and companion) is left as it was. */
STEX_API stex_status stex_write_images(size_t n, const char *const *paths, const stex_image *img,
                              const stex_io_meta *meta);

/* ---- recorded store inputs (X.bin.inputs), for the `allowed` tolerance ----
 * The vec4 each texel was last stored with, so that a comparison can accept
 * every byte pattern the spec permits for that value. */
typedef struct stex_inputs {
    stex_scalar_type scalar;
    uint32_t width, height, depth;
    stex_vec4 *values;   /* width * height * depth, x fastest */
    uint8_t *stored;     /* 1 if the texel was stored, 0 if it kept its initial value */
    char sha256[65];     /* stex_read_inputs: the SHA-256 (hex) of the file read */
} stex_inputs;

STEX_API stex_status stex_inputs_init(stex_inputs *in, stex_scalar_type scalar, uint32_t width,
                                      uint32_t height, uint32_t depth);
STEX_API void stex_inputs_free(stex_inputs *in);
STEX_API void stex_inputs_set(stex_inputs *in, uint32_t x, uint32_t y, uint32_t z, const stex_vec4 *v);
STEX_API stex_status stex_write_inputs(const char *path, const stex_inputs *in);
STEX_API stex_status stex_read_inputs(const char *path, stex_inputs *out);


/* ---- comparison ---- */
typedef enum stex_tolerance_kind {
    STEX_TOLERANCE_EXACT = 0,  /* every texel byte equal */
    STEX_TOLERANCE_ULP,        /* each channel within n units (LSB, or ULP for floats) */
    STEX_TOLERANCE_ALLOWED     /* any value the spec permits for the recorded input */
} stex_tolerance_kind;

typedef struct stex_tolerance {
    stex_tolerance_kind kind;
    uint32_t ulp;
} stex_tolerance;

/* "exact", "ulp:N", "allowed". */
STEX_API bool stex_tolerance_parse(const char *s, stex_tolerance *out);

#define STEX_COMPARE_LISTED 10

/* How one channel of two texels differs.  Distances count in the format's
 * units; the three kinds without one are named, never "0 ULP". */
typedef enum stex_channel_verdict {
    STEX_CHANNEL_EQUAL = 0,     /* the same bits */
    STEX_CHANNEL_DISTANCE,      /* two numbers `diff` units apart (diff >= 1) */
    STEX_CHANNEL_SIGN_OF_ZERO,  /* +0 against -0: equal as numbers, bits differ */
    STEX_CHANNEL_NAN_PAYLOAD,   /* two NaNs with different bits */
    STEX_CHANNEL_NAN_VS_NUMBER  /* a NaN against a number: no distance */
} stex_channel_verdict;

typedef struct stex_channel_diff {
    stex_channel_verdict verdict;
    uint64_t diff;                      /* units; 0 unless DISTANCE, UINT64_MAX for NaN */
    uint32_t golden_code, actual_code;  /* the channel's bit field in each texel */
} stex_channel_diff;

/* Channel c (0..3 = R, G, B, A as the format names them, whatever the byte
 * order) of two texels of format f; EQUAL for a channel f lacks. */
STEX_API stex_channel_diff stex_channel_compare(stex_format f, const uint8_t *golden,
                                                const uint8_t *actual, unsigned c);

typedef struct stex_mismatch {
    uint32_t x, y, z;
    uint8_t golden[16], actual[16];  /* texel bytes, memory order */
    uint64_t diff;                   /* largest channel difference, format units */
    stex_channel_diff channel[4];    /* R, G, B, A (stex_channel_compare) */
} stex_mismatch;

/* One channel over the whole comparison (texels whose bytes differ). */
typedef struct stex_channel_summary {
    uint64_t differing;      /* texels whose channel bits differ */
    uint64_t max_diff;       /* largest distance, format units (0: none) */
    double max_abs;          /* largest |golden - actual| of the values textureLoad
                              * returns (spec profile); INFINITY for inf against
                              * a finite value; NaNs left out */
    uint64_t sign_of_zero, nan_payload, nan_vs_number;  /* texels of each kind */
} stex_channel_summary;

/* The histogram of distances: differing texels by their distance d (the
 * largest channel's).  Bucket 0: d = 0 (bits differ, numbers do not: a sign
 * of zero, a NaN payload); bucket k (1..32): 2^(k-1) <= d < 2^k (32 also
 * takes anything larger); STEX_COMPARE_NAN_BUCKET: a NaN against a number. */
#define STEX_COMPARE_BUCKETS 34
#define STEX_COMPARE_NAN_BUCKET 33

typedef struct stex_compare_bucket {
    uint64_t texels;  /* differing texels at this distance */
    uint64_t beyond;  /* of which out of tolerance (the rest were accepted) */
} stex_compare_bucket;

typedef struct stex_compare_result {
    uint64_t texels;          /* compared */
    uint64_t mismatches;      /* out of tolerance */
    uint64_t differing;       /* not byte-identical (>= mismatches) */
    uint64_t tolerated;       /* differing, but accepted by the tolerance */
    uint64_t max_diff;        /* largest channel difference, format units */
    bool max_diff_unbounded;  /* a NaN against a number, or an infinite distance */
    const char *unit;         /* "LSB" or "ULP" */
    uint32_t listed;          /* first mismatches, in x, y, z order */
    stex_mismatch first[STEX_COMPARE_LISTED];
    unsigned channels;                  /* the format's */
    stex_channel_summary channel[4];    /* R, G, B, A */
    stex_compare_bucket histogram[STEX_COMPARE_BUCKETS];
} stex_compare_result;

/* Difference of one texel in the format's units (max over channels);
 * UINT64_MAX for NaN against non-NaN. */
STEX_API uint64_t stex_texel_diff(stex_format f, const uint8_t *a, const uint8_t *b);

/* A readback whose four 8-bit channels lie in B, G, R, A order (a canvas's
 * or swap chain's bgra8unorm) taken as `as`: bytes 0 and 2 of every texel
 * swapped and the image relabelled.  Both formats must have four 8-bit
 * channels of one type and the same sRGB-ness (bgra8unorm -> rgba8unorm,
 * or rgba8unorm -> rgba8unorm for bytes mislabelled RGBA). */
STEX_API stex_status stex_image_swap_rb(stex_image *img, stex_format as);

/* inputs: required for ALLOWED (same size as the images), ignored otherwise. */
STEX_API stex_status stex_compare(const stex_image *golden, const stex_image *actual, stex_tolerance tol,
                         const stex_inputs *inputs, stex_compare_result *res);
/* A picture of the differences, width x (height * depth) (layers stacked),
 * each texel k x k pixels with k = 256 / the longer side (at least 1):
 * equal texels dark grey, differing-but-tolerated blue, mismatches red (1
 * unit) to yellow (4096 units or more) by the size of the difference, a NaN
 * against a number magenta.  A legend band below the texels (the picture
 * widened when it is narrower than the legend, with black) names each
 * colour and counts its texels (docs/file-formats.md gives its layout). */
STEX_API stex_status stex_write_diff_png(const char *path, const stex_image *golden,
                                         const stex_image *actual, stex_tolerance tol,
                                         const stex_inputs *inputs);

/* ---- bounds: an allowed golden (X.bin.allowed, docs/file-formats.md) ----
 * For each channel of each texel, the codes (the channel's bit field, as
 * stex_channel_diff's) of the least and greatest value a conformant device
 * may leave there, in the value order -inf < ... < -0 < +0 < ... < +inf
 * for float channels, the integer order otherwise (snorm's two codes of
 * -1 are one value).  A value inside [lo, hi] passes; a NaN passes where
 * STEX_BOUND_NAN is set; an unconstrained value (STEX_BOUND_ANY) passes
 * whatever it holds and is counted with its reason. */
#define STEX_BOUND_NAN 1u        /* any NaN may be stored too */
#define STEX_BOUND_ONLY_NAN 2u   /* only a NaN (lo, hi unused); implies NAN */
#define STEX_BOUND_ANY 4u        /* unconstrained: any bits (reason says why) */
#define STEX_BOUND_FLAGS 7u

typedef struct stex_bound {
    uint32_t lo, hi;   /* codes of the least and greatest allowed value */
    uint32_t flags;    /* STEX_BOUND_* */
    uint32_t reason;   /* ANY: 1 + an index into stex_bounds.reasons; 0 none */
} stex_bound;

typedef struct stex_bounds {
    stex_format format;
    uint32_t width, height, depth;
    unsigned channels;       /* the format's */
    stex_bound *v;           /* x fastest, then y, z; the channels innermost */
    char **reasons;          /* why values are unconstrained ("line 12: ...") */
    uint32_t nreasons;
    char sha256[65];         /* stex_read_bounds: the SHA-256 (hex) of the file */
} stex_bounds;

/* Every value the point of code 0 (what a zeroed texture reads). */
STEX_API stex_status stex_bounds_init(stex_bounds *b, stex_format f, uint32_t width,
                                      uint32_t height, uint32_t depth);
STEX_API void stex_bounds_free(stex_bounds *b);
/* Channel c of texel (x, y, z); NULL out of range. */
STEX_API stex_bound *stex_bounds_at(const stex_bounds *b, uint32_t x, uint32_t y, uint32_t z,
                                    unsigned c);
/* The reason's number for stex_bound.reason (1, 2, ...; the same text gets
 * the same number); 0 when out of memory. */
STEX_API uint32_t stex_bounds_reason(stex_bounds *b, const char *text);
STEX_API stex_status stex_write_bounds(const char *path, const stex_bounds *b);
/* Reads X.bin.allowed; refuses a bound whose lo lies above its hi, unknown
 * flags, a reason number past the table, and a truncated file. */
STEX_API stex_status stex_read_bounds(const char *path, stex_bounds *out);
/* The allowed golden X.bin: its sidecar, which must say "golden":
 * "allowed", X.bin.allowed, which must be the file the sidecar's hash
 * names and of the sidecar's format and size, and X.bin (the exact output
 * of the profile that made it) into *img unless img is NULL. */
STEX_API stex_status stex_read_allowed_golden(const char *path, stex_bounds *out,
                                              stex_image *img, stex_io_meta_read *meta);
/* How many units apart a bound's lo and hi are (ULP for float channels,
 * LSB otherwise; +0 and -0 count as one value): 0 for a point.
 * UINT64_MAX for an unconstrained or NaN-only value. */
STEX_API uint64_t stex_bound_width(stex_format f, unsigned c, const stex_bound *b);

/* How one channel's value stands against its bound. */
typedef enum stex_bound_verdict {
    STEX_BOUND_INSIDE = 0,
    STEX_BOUND_UNCONSTRAINED,   /* STEX_BOUND_ANY: anything passes */
    STEX_BOUND_OUTSIDE,         /* a number `distance` units from the nearest allowed */
    STEX_BOUND_NAN_OUTSIDE,     /* a NaN where only numbers are allowed */
    STEX_BOUND_NUMBER_OUTSIDE   /* a number where only a NaN is allowed */
} stex_bound_verdict;

typedef struct stex_bound_miss {
    uint32_t x, y, z, channel;
    uint32_t code;            /* the readback's */
    uint32_t nearest;         /* the nearest allowed code (lo or hi) */
    uint64_t distance;        /* units to it; UINT64_MAX when there is none (NaN) */
    stex_bound_verdict verdict;
    stex_bound bound;
} stex_bound_miss;

#define STEX_BOUNDS_REASONS_LISTED 16

typedef struct stex_reason_count {
    uint32_t reason;   /* as stex_bound.reason */
    uint64_t values;
} stex_reason_count;

typedef struct stex_bounds_result {
    uint64_t texels, values;   /* compared: texels, and their channels */
    uint64_t inside;           /* values inside their bounds */
    uint64_t outside;          /* values outside (the texels: outside_texels) */
    uint64_t outside_texels;
    uint64_t unconstrained;    /* values that are STEX_BOUND_ANY */
    uint64_t max_distance;     /* largest distance of a value outside */
    bool max_distance_unbounded;  /* a NaN where none is allowed, or the reverse */
    const char *unit;          /* "ULP" or "LSB" */
    uint32_t listed;           /* the first values outside, in x, y, z, channel order */
    stex_bound_miss first[STEX_COMPARE_LISTED];
    /* the unconstrained values by reason, most first (reason 0: none given) */
    uint32_t reasons_listed;
    stex_reason_count by_reason[STEX_BOUNDS_REASONS_LISTED];
} stex_bounds_result;

/* Sets channel c (R, G, B, A) of a texel of format f to a code (the
 * channel's bit field, as stex_bound and stex_channel_diff hold it). */
STEX_API void stex_texel_set_code(stex_format f, uint8_t *texel, unsigned c, uint32_t code);
/* Channel c of texel bytes of format f against its bound. */
STEX_API stex_bound_verdict stex_bound_check(stex_format f, unsigned c, const stex_bound *b,
                                             const uint8_t *texel, stex_bound_miss *miss);
/* A readback against bounds of its format and size: STEX_OK when every
 * value is inside, STEX_MISMATCH when one is outside, STEX_INVALID_ARGUMENT
 * when they cannot be compared. */
STEX_API stex_status stex_compare_bounds(const stex_bounds *b, const stex_image *actual,
                                         stex_bounds_result *res);
/* The diff picture against bounds (as stex_write_diff_png's, each texel
 * its worst channel's colour): inside dark grey, unconstrained blue,
 * outside red (1 unit) to yellow (4096 or more), a sign of zero cyan, a
 * NaN where none may be (or a number where only NaN may) magenta. */
STEX_API stex_status stex_write_bounds_diff_png(const char *path, const stex_bounds *b,
                                                const stex_image *actual);

#ifdef __cplusplus
}
#endif
#endif
