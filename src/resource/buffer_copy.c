/* copyBufferToBuffer and clearBuffer (GPUCommandEncoder), with WebGPU's
 * rules: 4-byte alignment, COPY_SRC / COPY_DST usage, ranges inside the
 * buffers, and no copy of a buffer onto itself. */
#include <inttypes.h>
#include <string.h>

#include "common/error.h"
#include "resource/internal.h"

/* offset + size inside a buffer of `total` bytes, without overflow. */
static bool in_range(uint64_t offset, uint64_t size, uint64_t total)
{
    return offset <= total && size <= total - offset;
}

/* run: copy when the rules hold (false: only check them) */
static stex_status b2b(const stex_buffer *src, uint64_t src_offset, stex_buffer *dst,
                       uint64_t dst_offset, uint64_t size, bool run)
{
    const char *op = "copyBufferToBuffer";
    if (!src || !dst)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: source and destination must not be NULL", op);
    if (src == dst)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: source and destination are the same buffer", op);
    if (!(src->usage & STEX_BUFFER_USAGE_COPY_SRC))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: source buffer usage 0x%x lacks COPY_SRC", op,
                         src->usage);
    if (!(dst->usage & STEX_BUFFER_USAGE_COPY_DST))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: destination buffer usage 0x%x lacks COPY_DST",
                         op, dst->usage);
    if (size % 4 || src_offset % 4 || dst_offset % 4)
        return stex_fail(STEX_VALIDATION_ERROR,
                         "%s: size %" PRIu64 ", sourceOffset %" PRIu64 " and destinationOffset %"
                         PRIu64 " must be multiples of 4", op, size, src_offset, dst_offset);
    if (!in_range(src_offset, size, src->size))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: sourceOffset %" PRIu64 " + size %" PRIu64
                         " exceeds the source size %" PRIu64, op, src_offset, size, src->size);
    if (!in_range(dst_offset, size, dst->size))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: destinationOffset %" PRIu64 " + size %" PRIu64
                         " exceeds the destination size %" PRIu64, op, dst_offset, size, dst->size);
    if (run && (!src->data || !dst->data))
        return RESOURCE_DESTROYED(op);
    if (run && size)
        memcpy(dst->data + dst_offset, src->data + src_offset, (size_t)size);
    return STEX_OK;
}

stex_status stex_copy_buffer_to_buffer(const stex_buffer *src, uint64_t src_offset, stex_buffer *dst,
                                       uint64_t dst_offset, uint64_t size)
{
    return b2b(src, src_offset, dst, dst_offset, size, true);
}

stex_status stex_check_copy_buffer_to_buffer(const stex_buffer *src, uint64_t src_offset,
                                             const stex_buffer *dst, uint64_t dst_offset,
                                             uint64_t size)
{
    return b2b(src, src_offset, (stex_buffer *)(uintptr_t)dst, dst_offset, size, false);
}

static stex_status clear(stex_buffer *b, uint64_t offset, uint64_t size, bool run)
{
    const char *op = "clearBuffer";
    if (!b)
        return stex_fail(STEX_INVALID_ARGUMENT, "%s: buffer must not be NULL", op);
    if (!(b->usage & STEX_BUFFER_USAGE_COPY_DST))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: buffer usage 0x%x lacks COPY_DST", op, b->usage);
    if (size == UINT64_MAX)
        size = offset <= b->size ? b->size - offset : 0;
    if (size % 4 || offset % 4)
        return stex_fail(STEX_VALIDATION_ERROR, "%s: offset %" PRIu64 " and size %" PRIu64
                         " must be multiples of 4", op, offset, size);
    if (!in_range(offset, size, b->size))
        return stex_fail(STEX_VALIDATION_ERROR, "%s: offset %" PRIu64 " + size %" PRIu64
                         " exceeds the buffer size %" PRIu64, op, offset, size, b->size);
    if (run && !b->data)
        return RESOURCE_DESTROYED(op);
    if (run && size)
        memset(b->data + offset, 0, (size_t)size);
    return STEX_OK;
}

stex_status stex_clear_buffer(stex_buffer *b, uint64_t offset, uint64_t size)
{
    return clear(b, offset, size, true);
}

stex_status stex_check_clear_buffer(const stex_buffer *b, uint64_t offset, uint64_t size)
{
    return clear((stex_buffer *)(uintptr_t)b, offset, size, false);
}
