/* Internal: the register bytecode the interpreter runs for all lanes of a
 * sub-group at once.
 *
 * Registers are 32-bit words, one per lane (structure of arrays: register r
 * of lane i is regs[r * width + i]).  Arithmetic computes every lane of its
 * destination (temporaries only); writes to variables (OP_MOVM, OP_STOREIDX)
 * and every builtin with an effect use the execution mask `exec`.
 *
 * Structured control flow keeps masks in slots the lowering numbers (an if
 * uses one, a loop two, a function call one): OP_IF saves the else lanes,
 * OP_ELSE swaps in the else lanes and saves the lanes that finished the
 * then-branch, OP_ENDIF joins them; break/continue/return move the running
 * lanes into their construct's slot, which the construct's end merges back. */
#ifndef STEX_WGSL_IR_H
#define STEX_WGSL_IR_H

#include <stdint.h>

#include "stex/math.h"
#include "wgsl/types.h"

typedef enum wg_opcode {
    OP_CONST,      /* d = imm (all lanes) */
    OP_MOV,        /* d[0..n) = a[0..n) (all lanes) */
    OP_MOVM,       /* d[0..n) = a[0..n), lanes in exec */
    OP_MATH,       /* d.. = fn(a, b, c) per lane: the math layer; scalar arguments */
    OP_MATHV,      /* d[0..out) = fn(a[0..in)): vector arguments (pack, unpack) */
    OP_CMP,        /* d = a <cmp> b; sub = comparison, n = scalar type */
    OP_BITS,       /* d = a & | ^ b, or ~a / !a; sub = which */
    OP_SELECT,     /* d[0..n) = c ? b : a (c: one bool, or n bools when imm) */
    OP_LOADIDX,    /* d[0..n) = regs[a + off(b) + k]; off = WG_NONE: 0 */
    OP_STOREIDX,   /* regs[d + off(b) + k] = a[0..n), exec lanes; off = WG_NONE: dropped */
    OP_ADDR,       /* d = off(a) + element(b) * imm, a = WG_NONE_REG for 0; c = count
                    * (0: runtime-sized, bounds left to the memory access), sub =
                    * stex_array_kind, n = element bytes: the profile's out-of-bounds
                    * rule (stex_math_oob); WG_NONE (no element) propagates */
    /* memory: word W = off(a) + e + offs[k] of binding imm or of var<workgroup>;
     * sub = 1 (memory holding f16): those count half-words, and a leaf whose
     * offs[k] has WG_OFF_HALF is the f16 at half-word W (2 bytes), any other
     * the word at W / 2 */
    OP_BUF_LOAD,   /* d[k] = word W, k < n; c = 1: a uniform's words at a constant
                    * place (a = WG_NONE_REG), loaded for every lane */
    OP_BUF_STORE,  /* word W = b[k], exec lanes */
    OP_WG_LOAD,    /* d[k] = workgroup word W */
    OP_WG_STORE,   /* workgroup word W = b[k], exec lanes */
    OP_ATOMIC,     /* d = atomic sub (stex_atomic_op) on word W, value b, compare c
                    * (WG_NONE_REG: none); COMPARE_EXCHANGE: d + 1 = exchanged;
                    * n = 1: var<workgroup> */
    OP_TEX_LOAD,   /* d[0..4) = textureLoad(binding imm, a, b, c); sub = dim */
    OP_TEX_STORE,  /* textureStore(binding imm, a, b, c, value d[0..4)); sub = dim, n = scalar */
    OP_TEX_LOAD_LEVEL, /* d[0..4) = textureLoad(texture_2d imm, a, b, level c) */
    OP_TEX_SAMPLE, /* d[0..4) = textureSampleLevel(texture imm, sampler n, a, b, level c) */
    OP_TEX_DIMS,   /* d[0..n) = textureDimensions(binding imm) (n words); sub: 1 = layers */
    OP_ARRAY_LEN,  /* d = (bytes bound at binding imm - a) / b */
    /* sampled textures of every kind (lower_texture.c) */
    OP_TEX_FETCH,  /* d[0..4) = textureLoad(texture imm; coordinates a, sub = dim; array
                    * index b; level or sample index c; n = signedness as OP_TEX_LOAD) */
    OP_TEX_QUERY,  /* d[0..n) = query sub (WG_QUERY_*) of texture imm at level a
                    * (WG_NONE_REG: 0), b = 1 when a is signed */
    OP_TEX_SAMPLE_ANY, /* d[0..4) = a sampling builtin on texture imm with sampler e at
                        * coordinates a; its other operands in the pool at offs (WG_SP_*) */
    OP_BARRIER,    /* sub = exec_barrier kind */
    OP_IF,         /* slot imm; a = condition; jump to b (the ELSE) if no lane takes it */
    OP_ELSE,       /* slot imm; jump to b (the ENDIF) if no lane takes it */
    OP_ENDIF,      /* slot imm */
    OP_MASK_CLEAR, /* slot imm = 0 (loop / switch / call start) */
    OP_EXIT,       /* slot imm |= exec; exec = 0 (break, continue, return) */
    OP_MERGE,      /* exec |= slot imm (continuing start, switch end, call end) */
    OP_BREAK_IF,   /* slot imm |= exec & a; exec &= ~a */
    OP_LOOP_END,   /* if exec: jump to b, else exec = slot imm */
    OP_END,        /* the entry point returns */
    OP_SUBGROUP,   /* d[0..) = subgroup operation sub (WG_SG_*) over the sub-group's
                    * lanes in exec: value a (n words), lane or delta b (1 word; or
                    * WG_NONE_REG); imm = the stex_math_fn combining two words
                    * (add, mul, min, max; UINT32_MAX: integer min, or max when
                    * e = 1), c = the scalar kind (wg_type_kind); an exclusive
                    * scan's identity in e */

    /* ---- made by the optimisation pass (opt.c), never by the lowering ---- */
    OP_BREAK_JUMP  /* OP_BREAK_IF, then jump to b (its loop's LOOP_END) if no lane
                    * runs on: the code between does nothing without lanes */
} wg_opcode;

/* OP_SUBGROUP operations (the `subgroups` feature): the sub-group is the
 * interpreter's lanes run in lock step, its size their width */
enum {
    WG_SG_LANE, WG_SG_SIZE,                 /* @builtin(subgroup_invocation_id / _size) */
    WG_SG_ID, WG_SG_COUNT,                  /* @builtin(subgroup_id / num_subgroups) */
    WG_SG_ELECT, WG_SG_BALLOT, WG_SG_ALL, WG_SG_ANY,
    WG_SG_BROADCAST, WG_SG_BROADCAST_FIRST,
    WG_SG_SHUFFLE, WG_SG_SHUFFLE_XOR, WG_SG_SHUFFLE_UP, WG_SG_SHUFFLE_DOWN,
    WG_SG_REDUCE, WG_SG_INCLUSIVE, WG_SG_EXCLUSIVE, /* with imm's fn (or c: and/or/xor) */
    WG_SG_AND, WG_SG_OR, WG_SG_XOR,
    WG_SG_QUAD_BROADCAST, WG_SG_QUAD_SWAP_X, WG_SG_QUAD_SWAP_Y, WG_SG_QUAD_SWAP_DIAGONAL
};

/* OP_TEX_QUERY queries */
enum { WG_QUERY_DIMS, WG_QUERY_LAYERS, WG_QUERY_LEVELS, WG_QUERY_SAMPLES };

/* OP_TEX_SAMPLE_ANY's operands in the pool: the stex_sample_fn, the gather
 * component, the constant offset, the number of coordinates, registers
 * (WG_NONE_REG: none) of the array index, the level (its kind: 0 f32, 1 i32,
 * 2 u32), depth_ref, ddx and ddy (vectors of the coordinates' size). */
enum { WG_SP_FN, WG_SP_COMPONENT, WG_SP_OFF0, WG_SP_OFF1, WG_SP_OFF2, WG_SP_NCOORDS,
       WG_SP_ARRAY, WG_SP_ARRAY_SIGNED, WG_SP_LEVEL, WG_SP_LEVEL_KIND, WG_SP_DREF, WG_SP_DDX,
       WG_SP_DDY, WG_SP_COUNT };

/* OP_CMP comparisons and OP_BITS operations */
enum { CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_EQ, CMP_NE };
enum { BITS_AND, BITS_OR, BITS_XOR, BITS_NOT, BITS_LNOT };

typedef struct wg_ins {
    uint8_t op;
    uint8_t sub;
    uint16_t n;
    uint32_t d, a, b, c;
    uint32_t imm;
    uint32_t e;            /* memory ops: constant word offset added to off(a) */
    uint32_t line;         /* source line, for runtime errors */
    uint32_t col;          /* memory ops: the access's column (wg_ins_at), else 0 */
    uint32_t offs;         /* memory ops: pool index of n word offsets (WG_NO_OFFS: 0, 1, 2, ...) */
} wg_ins;

/* Registers every program starts with, filled per lane by the interpreter. */
enum {
    REG_GLOBAL_ID = 0,      /* 3 words */
    REG_LOCAL_ID = 3,       /* 3 */
    REG_LOCAL_INDEX = 6,    /* 1 */
    REG_WORKGROUP_ID = 7,   /* 3 */
    REG_NUM_WORKGROUPS = 10, /* 3 */
    REG_FIRST_FREE = 13
};

/* OP_CONST's sub in the nvidia profile's unrolled loops: the counter of one
 * copy of the body, e the instruction after the copy (read and cleared by
 * opt_nvidia.c). */
#define WG_CONST_COPY 1

#define WG_NONE UINT32_MAX     /* a word offset meaning "no element" */
#define WG_NONE_REG UINT32_MAX /* no register */
#define WG_NO_OFFS UINT32_MAX
/* A pool offset's flag, in memory ops with sub = 1 (memory holding f16, offsets
 * in 2-byte half-words): the leaf is one f16, else a 32-bit word. */
#define WG_OFF_HALF 0x80000000u

/* A memory op's source position (its race-report site), where known. */
static inline void wg_ins_at(wg_ins *i, uint32_t line, uint32_t col)
{
    if (line) {
        i->line = line;
        i->col = col;
    }
}

typedef struct wg_program {
    wg_ins *code;
    uint32_t ncode, cap;
    uint32_t nregs;         /* registers per lane */
    uint32_t nslots;        /* mask slots */
    uint32_t ret_slot;      /* the entry point's return slot */
    uint32_t *pool;         /* word-offset tables (wg_ins.offs) */
    uint32_t npool, pool_cap;
} wg_program;

#endif
