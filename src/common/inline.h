/* Internal: compiler hints shared by the inline fast paths (convert, shader). */
#ifndef STEX_COMMON_INLINE_H
#define STEX_COMMON_INLINE_H

#ifndef STEX__ALWAYS_INLINE /* also defined by stex/shader.h */
#if defined(__GNUC__)
#define STEX__ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define STEX__ALWAYS_INLINE static inline
#endif
#endif

#if defined(__GNUC__)
/* The out-of-line halves of the builtins: laid out away from the kernel. */
#define STEX__COLD __attribute__((cold))
#define STEX__LIKELY(c) __builtin_expect(!!(c), 1)
#define STEX__UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define STEX__COLD
#define STEX__LIKELY(c) (c)
#define STEX__UNLIKELY(c) (c)
#endif

/* A value the compiler must treat as unknown: an f32 product stays rounded
 * to f32 instead of being fused into a following add. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && defined(__SSE__)
#define STEX__OPAQUE(v) __asm__("" : "+x"(v))
#elif defined(__GNUC__)
#define STEX__OPAQUE(v) __asm__("" : "+m"(v))
#else
#define STEX__OPAQUE(v) ((void)0) /* C11 does not contract across statements */
#endif

#endif
