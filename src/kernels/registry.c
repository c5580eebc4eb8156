/* The kernels stex knows by name, in lesson order. */
#include <string.h>

#include "kernels/instance.h"
#include "kernels/kernels_text.h"

static const stex_kernel *const registry[] = {
    &kernels_generar,          /* lesson 003 */
    &kernels_decaer,           /* lesson 000 */
    &kernels_difundir,         /* lesson 000 */
    &kernels_difundir_pingpong,
    &kernels_blur,             /* lesson 001 */
    &kernels_histogram,        /* lesson 002 */
    &kernels_box3x3_texture,   /* lesson 002 / perf.mjs */
    &kernels_box3x3_buffer,
};

size_t stex_kernel_count(void) { return sizeof registry / sizeof registry[0]; }

const stex_kernel *stex_kernel_at(size_t i)
{
    return i < stex_kernel_count() ? registry[i] : NULL;
}

const stex_kernel *stex_kernel_find(const char *name)
{
    for (size_t i = 0; name && i < stex_kernel_count(); i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}

const char *stex_kernel_file(const char *name, size_t *size)
{
    for (size_t i = 0; name && i < kernels_text_file_count; i++)
        if (!strcmp(kernels_text_files[i].name, name)) {
            if (size)
                *size = kernels_text_files[i].size;
            return kernels_text_files[i].text;
        }
    return NULL;
}
