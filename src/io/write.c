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

stex_status stex_write_image(const char *path, const stex_image *img, const stex_io_meta *meta)
{
    switch (stex_file_kind_of(path)) {
    case STEX_FILE_BIN:
        return stex_write_bin(path, img, meta);
    case STEX_FILE_NPY:
        return stex_write_npy(path, img);
    case STEX_FILE_PNG:
        return stex_write_png(path, img);
    default:
        return stex_fail(STEX_INVALID_ARGUMENT,
                         "write: cannot tell the file type of '%s'; use a name ending in .bin, "
                         ".npy or .png", path ? path : "");
    }
}
