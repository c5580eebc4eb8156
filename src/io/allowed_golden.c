/* Reading an allowed golden: X.bin with its sidecar (bin.c) and the bounds
 * beside it (bounds.c), which must belong together. */
#include "io/io_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/error.h"

stex_status stex_read_allowed_golden(const char *path, stex_bounds *out, stex_image *img,
                                     stex_io_meta_read *meta)
{
    memset(out, 0, sizeof *out);
    stex_io_meta_read m;
    stex_image g;
    stex_status st = stex_read_bin(path, &g, &m);
    if (st)
        return st;
    if (meta)
        *meta = m;
    if (!m.allowed) {
        stex_image_free(&g);
        return stex_fail(STEX_FILE_FORMAT_ERROR,
                         "%s is an exact golden: its sidecar does not say \"golden\": "
                         "\"allowed\" (make one with `stex run ... --golden allowed`)", path);
    }
    size_t n = strlen(path) + sizeof ".allowed";
    char *bpath = malloc(n);
    if (!bpath) {
        stex_image_free(&g);
        return stex_fail(STEX_OUT_OF_MEMORY, "%s: out of memory", path);
    }
    snprintf(bpath, n, "%s.allowed", path);
    st = stex_read_bounds(bpath, out);
    if (!st && strcmp(out->sha256, m.allowed_sha256))
        st = stex_fail(STEX_FILE_FORMAT_ERROR,
                       "%s does not belong to %s: the sidecar records its SHA-256 as %.12s..., "
                       "the file's is %.12s... (written by another run); make the golden again",
                       bpath, path, m.allowed_sha256, out->sha256);
    else if (!st && (out->format != g.format || out->width != g.width ||
                     out->height != g.height || out->depth != g.depth))
        st = stex_fail(STEX_FILE_FORMAT_ERROR,
                       "%s holds bounds of %ux%ux%u %s texels, but its golden is %ux%ux%u %s",
                       bpath, out->width, out->height, out->depth, stex_format_name(out->format),
                       g.width, g.height, g.depth, stex_format_name(g.format));
    free(bpath);
    if (st)
        stex_bounds_free(out);
    if (st || !img)
        stex_image_free(&g);
    else
        *img = g;
    return st;
}
