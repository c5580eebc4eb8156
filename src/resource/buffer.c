/* Buffers: linear, zeroed, 16-byte aligned bytes; queue.writeBuffer. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "resource/internal.h"

stex_status stex_buffer_create(stex_device *d, const stex_buffer_desc *desc, stex_buffer **out)
{
    if (out)
        *out = NULL;
    if (!d || !desc || !out)
        return stex_fail(STEX_INVALID_ARGUMENT, "createBuffer: device, descriptor and out must not be NULL");
    /* every GPUBufferUsage bit; those of drawing and queries are only kept */
    const uint32_t known = STEX_BUFFER_USAGE_MAP_READ | STEX_BUFFER_USAGE_MAP_WRITE |
                           STEX_BUFFER_USAGE_COPY_SRC | STEX_BUFFER_USAGE_COPY_DST |
                           STEX_BUFFER_USAGE_INDEX | STEX_BUFFER_USAGE_VERTEX |
                           STEX_BUFFER_USAGE_UNIFORM | STEX_BUFFER_USAGE_STORAGE |
                           STEX_BUFFER_USAGE_INDIRECT | STEX_BUFFER_USAGE_QUERY_RESOLVE;
    if (desc->usage & ~known)
        return stex_fail(STEX_VALIDATION_ERROR, "createBuffer: usage 0x%x has unknown bits 0x%x",
                         desc->usage, desc->usage & ~known);
    if (desc->usage == 0)
        return stex_fail(STEX_VALIDATION_ERROR, "createBuffer: usage must not be 0");
    if ((desc->usage & STEX_BUFFER_USAGE_MAP_READ) &&
        (desc->usage & ~(uint32_t)(STEX_BUFFER_USAGE_MAP_READ | STEX_BUFFER_USAGE_COPY_DST)))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBuffer: usage 0x%x; MAP_READ may only be combined with COPY_DST", desc->usage);
    if ((desc->usage & STEX_BUFFER_USAGE_MAP_WRITE) &&
        (desc->usage & ~(uint32_t)(STEX_BUFFER_USAGE_MAP_WRITE | STEX_BUFFER_USAGE_COPY_SRC)))
        return stex_fail(STEX_VALIDATION_ERROR,
                         "createBuffer: usage 0x%x; MAP_WRITE may only be combined with COPY_SRC", desc->usage);
    uint64_t max = stex_device_limits(d)->max_buffer_size;
    if (desc->size > max)
        return stex_fail(STEX_VALIDATION_ERROR, "createBuffer: size %" PRIu64 " exceeds maxBufferSize %" PRIu64,
                         desc->size, max);
    /* Any size is valid (WebGPU asks for a multiple of 4 only with
     * mappedAtCreation, which the Node provider checks); the memory is
     * rounded up to whole 16-byte units, zeroed, so word reads of the last
     * bytes stay inside it.  Bindings and copies keep their own multiple-of-4
     * rules. */
    stex_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return stex_fail(STEX_OUT_OF_MEMORY, "createBuffer: out of memory");
    size_t bytes = (size_t)((desc->size + 15) / 16 * 16);
    b->data = aligned_alloc(16, bytes ? bytes : 16);
    if (!b->data) {
        free(b);
        return stex_fail(STEX_OUT_OF_MEMORY, "createBuffer: cannot allocate %" PRIu64 " bytes", desc->size);
    }
    memset(b->data, 0, bytes ? bytes : 16);
    b->device = d;
    b->size = desc->size;
    b->usage = desc->usage;
    *out = b;
    return STEX_OK;
}

void stex_buffer_destroy(stex_buffer *b)
{
    if (!b)
        return;
    free(b->data);
    free(b);
}

void stex_buffer_discard(stex_buffer *b)
{
    if (!b)
        return;
    free(b->data);
    b->data = NULL;
}

bool stex_buffer_discarded(const stex_buffer *b) { return b && !b->data; }

uint64_t stex_buffer_size(const stex_buffer *b) { return b->size; }
stex_device *stex_buffer_device(const stex_buffer *b) { return b->device; }
uint32_t stex_buffer_usage(const stex_buffer *b) { return b->usage; }
uint8_t *stex_buffer_data(stex_buffer *b) { return b->data; }

stex_status stex_queue_write_buffer(stex_buffer *b, uint64_t offset, const void *data, size_t size)
{
    if (!b || (!data && size))
        return stex_fail(STEX_INVALID_ARGUMENT, "writeBuffer: buffer and data must not be NULL");
    if (!(b->usage & STEX_BUFFER_USAGE_COPY_DST))
        return stex_fail(STEX_VALIDATION_ERROR, "writeBuffer: buffer usage 0x%x lacks COPY_DST", b->usage);
    if (offset % 4)
        return stex_fail(STEX_VALIDATION_ERROR, "writeBuffer: bufferOffset %" PRIu64 " is not a multiple of 4",
                         offset);
    if (size % 4)
        return stex_fail(STEX_VALIDATION_ERROR, "writeBuffer: size %zu is not a multiple of 4", size);
    if (offset > b->size || size > b->size - offset)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "writeBuffer: bufferOffset %" PRIu64 " + size %zu exceeds the buffer size %" PRIu64,
                         offset, size, b->size);
    if (!b->data)
        return RESOURCE_DESTROYED("writeBuffer");
    if (size)
        memcpy(b->data + offset, data, size);
    return STEX_OK;
}

/* Typed words: memcpy keeps the access free of aliasing and alignment traps. */
static bool word_ok(const stex_buffer *b, uint64_t offset)
{
    return b && b->data && offset % 4 == 0 && offset <= b->size && b->size - offset >= 4;
}

#define TYPED(name, type)                                                        \
    bool stex_buffer_read_##name(const stex_buffer *b, uint64_t offset, type *out) \
    {                                                                            \
        if (!word_ok(b, offset))                                                 \
            return false;                                                        \
        memcpy(out, b->data + offset, 4);                                        \
        return true;                                                             \
    }                                                                            \
    bool stex_buffer_write_##name(stex_buffer *b, uint64_t offset, type v)       \
    {                                                                            \
        if (!word_ok(b, offset))                                                 \
            return false;                                                        \
        memcpy(b->data + offset, &v, 4);                                         \
        return true;                                                             \
    }
TYPED(u32, uint32_t)
TYPED(i32, int32_t)
TYPED(f32, float)
#undef TYPED
