/* Writing a readback by the file name's extension: the one caller of the
 * three writers (bin.c, npy.c, png.c), which themselves only use image.c. */
#include "io/io_internal.h"

#include <string.h>
#include <strings.h>

#include "common/error.h"

stex_file_kind stex_file_kind_of(const char *path)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot || strchr(dot, '/'))
        return STEX_FILE_UNKNOWN;
    if (!strcasecmp(dot, ".bin"))
        return STEX_FILE_BIN;
    if (!strcasecmp(dot, ".npy"))
        return STEX_FILE_NPY;
    if (!strcasecmp(dot, ".png"))
        return STEX_FILE_PNG;
    return STEX_FILE_UNKNOWN;
}

stex_status stex_write_images(size_t n, const char *const *paths, const stex_image *img,
                              const stex_io_meta *meta)
{
    io_batch b = {0};
    stex_status st = STEX_OK;
    for (size_t i = 0; !st && i < n; i++) {
        const char *path = paths[i];
        switch (stex_file_kind_of(path)) {
        case STEX_FILE_BIN:
            st = io_add_bin(&b, path, img, meta);
            break;
        case STEX_FILE_NPY:
            st = io_add_npy(&b, path, img);
            break;
        case STEX_FILE_PNG:
            st = io_add_png(&b, path, img);
            break;
        default:
            st = stex_fail(STEX_INVALID_ARGUMENT,
                           "write: cannot tell the file type of '%s'; use a name ending in .bin, "
                           ".npy or .png", path ? path : "");
        }
    }
    if (st) {
        io_batch_abort(&b);
        return st;
    }
    return io_batch_commit(&b);
}

stex_status stex_write_image(const char *path, const stex_image *img, const stex_io_meta *meta)
{
    return stex_write_images(1, &path, img, meta);
}
