/* Internal: the JIT (--executor jit) - a pipeline's optimised bytecode
 * compiled through LLVM (jit.c, jit_emit.c) into one native function that
 * runs a sub-group from a resume point to its next barrier or its end,
 * exactly as the interpreter's run_lanes would (interp.c).
 *
 * The compiled code works on the interpreter's own sub-group state: the
 * registers (register r of lane l at regs[r * width + l]), the execution
 * mask and the mask slots, so that an instruction the JIT does not compile
 * itself is run by the interpreter's code for that one instruction
 * (wg_jit_frame.step), and a sub-group may stop in one executor and go on
 * in the other.  Only built with LLVM (STEX_HAVE_JIT); without it a
 * pipeline that asks for the JIT runs on the interpreter. */
#ifndef STEX_WGSL_JIT_H
#define STEX_WGSL_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stex/math.h"

struct wg_exec_program;

/* What a compiled function reads and writes: the interpreter fills it in
 * before each call (interp.c, run_jit) and reads pc, steps and kind back. */
typedef struct wg_jit_frame {
    uint32_t *regs;        /* the sub-group's registers (stride: the program's width) */
    uint64_t *exec;        /* the execution mask, kept in the sub-group */
    uint64_t *slot;        /* the mask slots */
    void *sg;              /* the interpreter's sub-group, for step and loop_check */
    uint64_t all;          /* the lanes the sub-group has */
    uint64_t steps;        /* in and out: instructions run in this workgroup */
    uint64_t max_steps;
    uint32_t n;            /* lanes */
    uint32_t pc;           /* in: where to resume; out: where it stopped */
    uint32_t kind;         /* out: a barrier's exec_barrier kind */
    uint32_t pad;
    /* the interpreter's code for instruction pc on the sub-group:
     * -1 when it ran on, else how it stopped (wg_jit_stop) */
    int (*step)(struct wg_jit_frame *f, uint32_t pc);
    /* a loop's end past the step count's next check (the step limit, the
     * cancel flag): 0 runs on, else stop with WG_JIT_ERROR */
    int (*loop_check)(struct wg_jit_frame *f, uint32_t pc);
    const stex_profile *prof;
} wg_jit_frame;

/* How a compiled function returns: the interpreter's stop codes. */
enum { WG_JIT_BARRIER = 0, WG_JIT_END = 1, WG_JIT_ERROR = 2 };

/* The most instructions times lanes the JIT hands LLVM: its compile time
 * grows with both (about 1 ms per instruction at width 64, bench_jit), so
 * a larger program runs on the interpreter and a module's compile stays
 * within seconds however large it is. */
enum { WG_JIT_MAX_LANE_INSTRUCTIONS = 2048 * 64, WG_JIT_MAX_INSTRUCTIONS = 8192 };

typedef int (*wg_jit_fn)(wg_jit_frame *f);

typedef struct wg_jit_code wg_jit_code;

/* What the JIT made of a program: how many instructions it compiled
 * itself and how many it left to the interpreter's step, and the opcodes
 * of the latter (bit op). */
typedef struct wg_jit_stats {
    uint32_t native, stepped;
    uint64_t stepped_ops;
    double compile_ms;     /* this compile's (0 when the cache had it) */
    bool cached;
} wg_jit_stats;

/* The compiled function of xp's program (its width, consts and code) under
 * profile prof, from the process's cache (module + pipeline + profile: the
 * same bytecode, width and profile share one) or compiled now.  NULL, with
 * why (a sentence naming the construct), when it cannot: the pipeline
 * then runs on the interpreter.  Thread-safe. */
wg_jit_code *wg_jit_get(const struct wg_exec_program *xp, const stex_profile *prof,
                        wg_jit_stats *stats, char *why, size_t why_size);
wg_jit_fn wg_jit_entry(const wg_jit_code *c);
/* Drops the pipeline's reference (the code stays cached for the process). */
void wg_jit_put(wg_jit_code *c);

/* Internal to the JIT: the IR of xp's program (jit_emit.c). */
struct LLVMOpaqueModule;
struct LLVMOpaqueContext;
bool wg_jit_emit(const struct wg_exec_program *xp, const stex_profile *prof,
                 struct LLVMOpaqueContext *ctx, struct LLVMOpaqueModule *mod, const char *name,
                 wg_jit_stats *stats, char *why, size_t why_size);

/* Runtime helpers the compiled code calls (jit_rt.c): n lanes of f32 fn
 * (+ - * / or a * b + c) of an IEEE profile, in out already the host's
 * result, each NaN lane computed again by the math layer (the interpreter's
 * f32_lanes). */
void wg_jit_rt_f32_nan(const stex_profile *prof, uint32_t fn, uint32_t n, uint32_t *out,
                       const uint32_t *a, const uint32_t *b, const uint32_t *c);

#endif
