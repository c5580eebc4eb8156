/*
 * stex/status.h - status codes and error messages shared by every layer.
 *
 * Every fallible stex function returns a stex_status.  STEX_OK is zero, so
 * `if (st) ...` reads as "if it failed".  The status says which *kind* of
 * error happened, using WebGPU's own vocabulary (a GPUValidationError, a
 * TypeError, a shader-creation error); stex_last_error() gives the full
 * sentence, which names the broken rule and the offending values:
 *
 *     stex_texture *t;
 *     if (stex_texture_create(dev, &desc, &t) != STEX_OK)
 *         fprintf(stderr, "%s\n", stex_last_error());
 *
 * The message is kept per thread (like errno), so threads never see each
 * other's messages.  The library never prints and never exits.
 */
#ifndef STEX_STATUS_H
#define STEX_STATUS_H

#include "stex/api.h"

/* The library's version (meson.build's project version). */
#define STEX_VERSION "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* X(id, name, meaning) - the single table of status codes. */
#define STEX_STATUSES(X)                                                                  \
    X(OK, "ok", "no error")                                                               \
    X(VALIDATION_ERROR, "validation error",                                               \
      "a WebGPU validation rule was broken (GPUValidationError)")                         \
    X(TYPE_ERROR, "type error",                                                           \
      "the request is malformed or asks for something the adapter lacks (TypeError)")     \
    X(SHADER_ERROR, "shader-creation error",                                              \
      "the kernel does something WGSL rejects at shader creation")                        \
    X(OUT_OF_MEMORY, "out of memory", "an allocation failed (GPUOutOfMemoryError)")       \
    X(INVALID_ARGUMENT, "invalid argument", "a stex function was called with a bad argument") \
    X(IO_ERROR, "I/O error", "a file could not be read or written")                       \
    X(FILE_FORMAT_ERROR, "malformed file", "a file's contents do not follow its format")  \
    X(MISMATCH, "mismatch", "a comparison found differences")                            \
    X(CANCELLED, "cancelled",                                                             \
      "the work was stopped before its end (a time limit or an interrupt: stex/cancel.h)")

typedef enum stex_status {
#define STEX_STATUS_ENUM_(id, name, meaning) STEX_##id,
    STEX_STATUSES(STEX_STATUS_ENUM_)
#undef STEX_STATUS_ENUM_
    STEX_STATUS_COUNT
} stex_status;

/* Short name of a status ("validation error"); "unknown status" if out of range. */
STEX_API const char *stex_status_name(stex_status st);
/* One-line description of what the status means in general. */
STEX_API const char *stex_status_meaning(stex_status st);
/* The full message of the last failure on this thread ("" if none yet). */
STEX_API const char *stex_last_error(void);
/* Forget the last message on this thread. */
STEX_API void stex_clear_error(void);

#ifdef __cplusplus
}
#endif
#endif
