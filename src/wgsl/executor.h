/* Internal: which executor runs a pipeline (executor.c): the interpreter,
 * or the JIT's compiled code where it has it, and the notices that say
 * where a pipeline asked for the JIT and got the interpreter. */
#ifndef STEX_WGSL_EXECUTOR_H
#define STEX_WGSL_EXECUTOR_H

#include "stex/wgsl.h"
#include "wgsl/interp.h"

/* After wg_prepare: xp's compiled code under profile prof when executor is
 * the JIT and it can compile xp (else a notice, once, and the
 * interpreter).  Never fails: the interpreter is the fallback. */
void wg_executor_setup(wg_exec_program *xp, const stex_profile *prof,
                       stex_wgsl_executor executor);
/* What wg_executor_setup did in this process (tests, benchmarks):
 * pipelines given compiled code (compiled now or from the cache), pipelines
 * that asked for the JIT and run on the interpreter, and over the compiled
 * ones the instructions compiled to native code and those left to the
 * interpreter's step. */
typedef struct wg_executor_counts {
    uint64_t jit, fallback, native, stepped;
    uint64_t compiled;     /* of the JIT pipelines, those compiled (not cached) */
    double compile_ms;     /* their compile time, in all */
} wg_executor_counts;
void wg_executor_get_counts(wg_executor_counts *out);

/* Frees what wg_executor_setup took. */
void wg_executor_release(wg_exec_program *xp);

/* A notice, given to stex_wgsl_set_notice's function the first time its
 * text is seen in this process (printf-style). */
void wg_notice_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
