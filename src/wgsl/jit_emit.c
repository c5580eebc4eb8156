/* The JIT's code generator: a program's bytecode as one LLVM function that
 * runs a sub-group of `width` lanes the way the interpreter's run_lanes
 * does (interp.c), instruction by instruction:
 *
 * - a register is a vector of `width` words in the interpreter's register
 *   file (every lane at once: the width is the pipeline's, a constant of
 *   the code), so the arithmetic the JIT compiles itself is SIMD code over
 *   the lanes with the interpreter's operations - integer arithmetic,
 *   comparisons, selects, and the f32 operators where the profile's are the
 *   host's IEEE ones (stex_math_f32_is_ieee; a NaN result computed again by
 *   the math layer, as f32_lanes does);
 * - control flow is the interpreter's masks (ir.h): the execution mask in a
 *   local, the slots in the sub-group's memory, each jump a branch;
 * - every other instruction (memory, textures, the math layer's builtins,
 *   subgroup operations) calls the interpreter's own code for that one
 *   instruction (wg_jit_frame.step), which calls the same lane-batched
 *   builtins with the same race sites;
 * - a barrier returns with the next pc; the function starts with a switch
 *   on the pc it resumes at.
 * Steps count as in run_lanes (one per instruction), so --max-steps stops
 * a loop at the same instruction. */
#include "wgsl/jit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "wgsl/interp.h"

typedef struct emit {
    LLVMContextRef cx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMValueRef fn;
    LLVMTypeRef i1, i32, i64, ptr, v32, v64, vf, vmask, step_ty;
    uint32_t w;                /* lanes: the program's width */
    /* the lanes the vector types above hold (vw) from lane `off` (an i64):
     * every lane (w, 0), or inside a run of arithmetic a chunk of them */
    uint32_t vw;
    LLVMValueRef off;
    bool ieee;
    const wg_exec_program *xp;
    const stex_profile *prof;
    LLVMValueRef frame, regs, slots, all, exec_v, steps_v, check_at, n;
    LLVMBasicBlockRef *blocks; /* one per pc (ncode + 1) */
} emit;

static LLVMValueRef c32(emit *e, uint64_t v) { return LLVMConstInt(e->i32, v, false); }
static LLVMValueRef c64(emit *e, uint64_t v) { return LLVMConstInt(e->i64, v, false); }

/* a field of the frame, loaded or its address */
static LLVMValueRef field_at(emit *e, size_t off)
{
    LLVMValueRef idx = c64(e, off);
    return LLVMBuildGEP2(e->b, LLVMInt8TypeInContext(e->cx), e->frame, &idx, 1, "");
}
static LLVMValueRef field(emit *e, size_t off, LLVMTypeRef t)
{
    return LLVMBuildLoad2(e->b, t, field_at(e, off), "");
}
#define FIELD(e, name, t) field(e, offsetof(wg_jit_frame, name), t)
#define FIELD_AT(e, name) field_at(e, offsetof(wg_jit_frame, name))

static LLVMValueRef splat(emit *e, LLVMValueRef scalar, LLVMTypeRef vt)
{
    LLVMValueRef undef = LLVMGetUndef(vt);
    LLVMValueRef v = LLVMBuildInsertElement(e->b, undef, scalar, c32(e, 0), "");
    LLVMValueRef zeros = LLVMConstNull(LLVMVectorType(e->i32, e->vw));
    return LLVMBuildShuffleVector(e->b, v, undef, zeros, "");
}

/* the vector types for vw lanes from lane off */
static void set_lanes(emit *e, uint32_t vw, LLVMValueRef off)
{
    e->vw = vw;
    e->off = off;
    e->v32 = LLVMVectorType(e->i32, vw);
    e->v64 = LLVMVectorType(e->i64, vw);
    e->vf = LLVMVectorType(LLVMFloatTypeInContext(e->cx), vw);
    e->vmask = LLVMVectorType(e->i1, vw);
}
static LLVMValueRef vconst(emit *e, uint32_t v) { return splat(e, c32(e, v), e->v32); }

/* register r's words (every lane) */
static LLVMValueRef reg_ptr(emit *e, uint32_t r)
{
    LLVMValueRef idx = LLVMBuildAdd(e->b, c64(e, (uint64_t)r * e->w), e->off, "");
    return LLVMBuildGEP2(e->b, e->i32, e->regs, &idx, 1, "");
}
static LLVMValueRef load_reg(emit *e, uint32_t r)
{
    LLVMValueRef v = LLVMBuildLoad2(e->b, e->v32, reg_ptr(e, r), "");
    LLVMSetAlignment(v, 4);
    return v;
}
static void store_reg(emit *e, uint32_t r, LLVMValueRef v)
{
    LLVMValueRef s = LLVMBuildStore(e->b, v, reg_ptr(e, r));
    LLVMSetAlignment(s, 4);
}
static LLVMValueRef as_f(emit *e, LLVMValueRef v) { return LLVMBuildBitCast(e->b, v, e->vf, ""); }
static LLVMValueRef as_u(emit *e, LLVMValueRef v) { return LLVMBuildBitCast(e->b, v, e->v32, ""); }
static LLVMValueRef zext_bool(emit *e, LLVMValueRef m) { return LLVMBuildZExt(e->b, m, e->v32, ""); }

/* an i64 lane mask (bit l: lane l) as a vector of i1 for the lanes from
 * off, and back */
static LLVMValueRef mask_vec(emit *e, LLVMValueRef m64)
{
    m64 = LLVMBuildLShr(e->b, m64, e->off, "");
    LLVMValueRef m = e->vw == 64 ? m64
                                 : LLVMBuildTrunc(e->b, m64, LLVMIntTypeInContext(e->cx, e->vw), "");
    return LLVMBuildBitCast(e->b, m, e->vmask, "");
}
static LLVMValueRef vec_mask(emit *e, LLVMValueRef v1)
{
    LLVMValueRef m = LLVMBuildBitCast(e->b, v1, LLVMIntTypeInContext(e->cx, e->vw), "");
    return e->vw == 64 ? m : LLVMBuildZExt(e->b, m, e->i64, "");
}
/* the sub-group's lanes among those from off, as vec_mask gives them */
static LLVMValueRef all_here(emit *e) { return LLVMBuildLShr(e->b, e->all, e->off, ""); }
/* lane_mask(): bit l when lane l's word is not zero, lanes < n (every lane) */
static LLVMValueRef lane_mask(emit *e, uint32_t r)
{
    LLVMValueRef ne = LLVMBuildICmp(e->b, LLVMIntNE, load_reg(e, r), vconst(e, 0), "");
    return LLVMBuildAnd(e->b, vec_mask(e, ne), e->all, "");
}

static LLVMValueRef slot_ptr(emit *e, uint32_t s)
{
    LLVMValueRef idx = c64(e, s);
    return LLVMBuildGEP2(e->b, e->i64, e->slots, &idx, 1, "");
}
static LLVMValueRef get_exec(emit *e) { return LLVMBuildLoad2(e->b, e->i64, e->exec_v, ""); }
static void set_exec(emit *e, LLVMValueRef v) { LLVMBuildStore(e->b, v, e->exec_v); }

/* the sub-group's state as the interpreter keeps it, before a call or a stop */
static void sync_out(emit *e)
{
    LLVMBuildStore(e->b, get_exec(e), FIELD(e, exec, e->ptr));
}

/* stop: pc and steps into the frame, return code */
static void stop_at(emit *e, uint32_t pc, int code)
{
    sync_out(e);
    LLVMBuildStore(e->b, c32(e, pc), FIELD_AT(e, pc));
    LLVMBuildStore(e->b, LLVMBuildLoad2(e->b, e->i64, e->steps_v, ""), FIELD_AT(e, steps));
    LLVMBuildRet(e->b, c32(e, (uint32_t)code));
}

static LLVMBasicBlockRef new_block(emit *e, const char *name)
{
    return LLVMAppendBasicBlockInContext(e->cx, e->fn, name);
}

/* f32 + - * / and a * b + c of an IEEE profile (interp.c's f32_lanes) */
static bool is_f32_ieee_fn(stex_math_fn fn)
{
    return fn == STEX_MATH_ADD_F32 || fn == STEX_MATH_SUB_F32 || fn == STEX_MATH_MUL_F32 ||
           fn == STEX_MATH_DIV_F32 || fn == STEX_MATH_MUL_ADD_F32 ||
           fn == STEX_MATH_ADD_MUL_F32 || fn == STEX_MATH_MUL_ADD_LET_F32;
}

static LLVMValueRef rt_fn(emit *e, const char *name, void *addr, LLVMTypeRef ty)
{
    (void)name;
    LLVMValueRef a = LLVMConstInt(e->i64, (uint64_t)(uintptr_t)addr, false);
    (void)ty;
    return LLVMConstIntToPtr(a, e->ptr);
}

static void emit_f32(emit *e, const wg_ins *i, stex_math_fn fn)
{
    LLVMValueRef a = as_f(e, load_reg(e, i->a)), b = as_f(e, load_reg(e, i->b)), r;
    bool three = fn == STEX_MATH_MUL_ADD_F32 || fn == STEX_MATH_ADD_MUL_F32 ||
                 fn == STEX_MATH_MUL_ADD_LET_F32;
    switch (fn) {
    case STEX_MATH_ADD_F32: r = LLVMBuildFAdd(e->b, a, b, ""); break;
    case STEX_MATH_SUB_F32: r = LLVMBuildFSub(e->b, a, b, ""); break;
    case STEX_MATH_MUL_F32: r = LLVMBuildFMul(e->b, a, b, ""); break;
    case STEX_MATH_DIV_F32: r = LLVMBuildFDiv(e->b, a, b, ""); break;
    default: /* the product rounded, then the sum: an IEEE profile does not contract */
        r = LLVMBuildFAdd(e->b, LLVMBuildFMul(e->b, a, b, ""),
                          as_f(e, load_reg(e, i->c)), "");
        break;
    }
    /* a NaN in lanes < n: the math layer's NaN for those lanes */
    LLVMValueRef isnan = LLVMBuildFCmp(e->b, LLVMRealUNO, r, r, "");
    LLVMValueRef any = LLVMBuildAnd(e->b, vec_mask(e, isnan), all_here(e), "");
    LLVMValueRef ru = as_u(e, r);
    LLVMBasicBlockRef here = LLVMGetInsertBlock(e->b);
    LLVMBasicBlockRef fix = new_block(e, "nan"), done = new_block(e, "");
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, any, c64(e, 0), ""), fix, done);
    LLVMPositionBuilderAtEnd(e->b, fix);
    LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(e->fn);
    LLVMBuilderRef ab = LLVMCreateBuilderInContext(e->cx);
    LLVMPositionBuilder(ab, entry, LLVMGetFirstInstruction(entry));
    LLVMValueRef tmp = LLVMBuildAlloca(ab, e->v32, "nan_tmp");
    LLVMDisposeBuilder(ab);
    LLVMSetAlignment(LLVMBuildStore(e->b, ru, tmp), 4);
    LLVMTypeRef params[] = {e->ptr, e->i32, e->i32, e->ptr, e->ptr, e->ptr, e->ptr};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(e->cx), params, 7, false);
    /* the lanes < n of these: n - off, at most vw */
    LLVMValueRef left = LLVMBuildSub(e->b, e->n, LLVMBuildTrunc(e->b, e->off, e->i32, ""), "");
    LLVMValueRef lanes = LLVMBuildSelect(
        e->b, LLVMBuildICmp(e->b, LLVMIntSLT, left, c32(e, 0), ""), c32(e, 0),
        LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, left, c32(e, e->vw), ""),
                        c32(e, e->vw), left, ""), "");
    /* the dispatch's profile, from the frame: the code is shared by every
     * profile of the same IEEE-ness (jit.c's cache), each with its NaNs */
    LLVMValueRef args[] = {FIELD(e, prof, e->ptr), c32(e, fn), lanes, tmp,
                           reg_ptr(e, i->a), reg_ptr(e, i->b),
                           three ? reg_ptr(e, i->c) : LLVMConstNull(e->ptr)};
    LLVMBuildCall2(e->b, fty, rt_fn(e, "wg_jit_rt_f32_nan", (void *)wg_jit_rt_f32_nan, fty),
                   args, 7, "");
    LLVMValueRef fixed = LLVMBuildLoad2(e->b, e->v32, tmp, "");
    LLVMSetAlignment(fixed, 4);
    LLVMBasicBlockRef fix_end = LLVMGetInsertBlock(e->b);
    LLVMBuildBr(e->b, done);
    LLVMPositionBuilderAtEnd(e->b, done);
    LLVMValueRef phi = LLVMBuildPhi(e->b, e->v32, "");
    LLVMValueRef vals[] = {ru, fixed};
    LLVMBasicBlockRef from[] = {here, fix_end};
    LLVMAddIncoming(phi, vals, from, 2);
    store_reg(e, i->d, phi);
}

/* The integer functions emit_math compiles (interp.c's fast_math). */
static bool int_native(stex_math_fn fn)
{
    switch (fn) {
    case STEX_MATH_ADD_I32: case STEX_MATH_ADD_U32: case STEX_MATH_SUB_I32:
    case STEX_MATH_SUB_U32: case STEX_MATH_MUL_I32: case STEX_MATH_MUL_U32:
    case STEX_MATH_SHL_I32: case STEX_MATH_SHL_U32: case STEX_MATH_SHR_U32:
    case STEX_MATH_SHR_I32: case STEX_MATH_MIN_I32: case STEX_MATH_MIN_U32:
    case STEX_MATH_CLAMP_I32: case STEX_MATH_CLAMP_U32: case STEX_MATH_DIV_U32:
    case STEX_MATH_REM_U32: case STEX_MATH_DIV_I32: case STEX_MATH_REM_I32:
    case STEX_MATH_ABS_I32: case STEX_MATH_NOT_I32: case STEX_MATH_NEG_I32:
    case STEX_MATH_I32_TO_U32: case STEX_MATH_U32_TO_I32: case STEX_MATH_BITCAST_U32_F32:
    case STEX_MATH_BITCAST_F32_I32: case STEX_MATH_I32_TO_F32: case STEX_MATH_U32_TO_F32:
        return true;
    default:
        return false;
    }
}

/* Whether instruction i is arithmetic on every lane that emit_ins compiles
 * lane by lane (no stop, no jump, no call but a NaN's): a run of them
 * becomes one loop over chunks of lanes, its values kept in registers. */
static bool lanewise(const emit *e, const wg_ins *i)
{
    switch ((wg_opcode)i->op) {
    case OP_CONST: case OP_BITS: case OP_SELECT:
        return true;
    case OP_MOV: /* every word loaded, then stored: memmove's result, lane by lane */
        return i->n <= 16;
    case OP_MOVM:
        return i->n <= 16 && (i->d == i->a || i->d >= i->a + i->n || i->a >= i->d + i->n);
    case OP_MATH: {
        stex_math_fn fn = (stex_math_fn)i->imm;
        return int_native(fn) || (e->ieee && is_f32_ieee_fn(fn));
    }
    case OP_CMP:
        return i->sub <= CMP_NE && (i->n != TY_F32 || e->ieee);
    case OP_ADDR:
        return !i->c;
    default:
        return false;
    }
}

/* OP_MATH the interpreter computes without the math layer (fast_math):
 * false for any other function */
static bool emit_math(emit *e, const wg_ins *i)
{
    stex_math_fn fn = (stex_math_fn)i->imm;
    if (is_f32_ieee_fn(fn)) {
        if (!e->ieee)
            return false;
        emit_f32(e, i, fn);
        return true;
    }
    LLVMBuilderRef b = e->b;
    LLVMValueRef a, bb, c, r, zero = vconst(e, 0), one = vconst(e, 1);
#define A (a = load_reg(e, i->a))
#define B (bb = load_reg(e, i->b))
#define C (c = load_reg(e, i->c))
    switch (fn) {
    case STEX_MATH_ADD_I32: case STEX_MATH_ADD_U32: r = LLVMBuildAdd(b, A, B, ""); break;
    case STEX_MATH_SUB_I32: case STEX_MATH_SUB_U32: r = LLVMBuildSub(b, A, B, ""); break;
    case STEX_MATH_MUL_I32: case STEX_MATH_MUL_U32: r = LLVMBuildMul(b, A, B, ""); break;
    case STEX_MATH_SHL_I32: case STEX_MATH_SHL_U32:
        r = LLVMBuildShl(b, A, LLVMBuildAnd(b, B, vconst(e, 31), ""), "");
        break;
    case STEX_MATH_SHR_U32: r = LLVMBuildLShr(b, A, LLVMBuildAnd(b, B, vconst(e, 31), ""), ""); break;
    case STEX_MATH_SHR_I32: r = LLVMBuildAShr(b, A, LLVMBuildAnd(b, B, vconst(e, 31), ""), ""); break;
    case STEX_MATH_MIN_I32: A, B; r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, a, bb, ""), a, bb, ""); break;
    case STEX_MATH_MIN_U32: A, B; r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, a, bb, ""), a, bb, ""); break;
    case STEX_MATH_CLAMP_I32: case STEX_MATH_CLAMP_U32: {
        bool s = fn == STEX_MATH_CLAMP_I32;
        A, B, C;
        LLVMValueRef m = LLVMBuildSelect(b, LLVMBuildICmp(b, s ? LLVMIntSGT : LLVMIntUGT, a, bb, ""),
                                         a, bb, "");
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, s ? LLVMIntSLT : LLVMIntULT, m, c, ""), m, c, "");
        break;
    }
    case STEX_MATH_DIV_U32: case STEX_MATH_REM_U32: {
        A, B;
        LLVMValueRef z = LLVMBuildICmp(b, LLVMIntEQ, bb, zero, "");
        LLVMValueRef safe = LLVMBuildSelect(b, z, one, bb, "");
        r = fn == STEX_MATH_DIV_U32 ? LLVMBuildSelect(b, z, a, LLVMBuildUDiv(b, a, safe, ""), "")
                                    : LLVMBuildSelect(b, z, zero, LLVMBuildURem(b, a, safe, ""), "");
        break;
    }
    case STEX_MATH_DIV_I32: case STEX_MATH_REM_I32: {
        A, B;
        LLVMValueRef bad = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, bb, zero, ""),
                                       LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, a, vconst(e, 0x80000000u), ""),
                                                    LLVMBuildICmp(b, LLVMIntEQ, bb, vconst(e, 0xffffffffu), ""), ""), "");
        LLVMValueRef safe = LLVMBuildSelect(b, bad, one, bb, "");
        r = fn == STEX_MATH_DIV_I32 ? LLVMBuildSelect(b, bad, a, LLVMBuildSDiv(b, a, safe, ""), "")
                                    : LLVMBuildSelect(b, bad, zero, LLVMBuildSRem(b, a, safe, ""), "");
        break;
    }
    case STEX_MATH_ABS_I32:
        A;
        r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, a, zero, ""), LLVMBuildSub(b, zero, a, ""), a, "");
        break;
    case STEX_MATH_NOT_I32: r = LLVMBuildNot(b, A, ""); break;
    case STEX_MATH_NEG_I32: r = LLVMBuildSub(b, zero, A, ""); break;
    case STEX_MATH_I32_TO_U32: case STEX_MATH_U32_TO_I32:
    case STEX_MATH_BITCAST_U32_F32: case STEX_MATH_BITCAST_F32_I32: r = A; break;
    case STEX_MATH_I32_TO_F32: r = as_u(e, LLVMBuildSIToFP(b, A, e->vf, "")); break;
    case STEX_MATH_U32_TO_F32: r = as_u(e, LLVMBuildUIToFP(b, A, e->vf, "")); break;
    default:
        return false;
    }
#undef A
#undef B
#undef C
    store_reg(e, i->d, r);
    return true;
}

static bool emit_cmp(emit *e, const wg_ins *i)
{
    static const LLVMIntPredicate sp[] = {LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE,
                                          LLVMIntEQ, LLVMIntNE};
    static const LLVMIntPredicate up[] = {LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE,
                                          LLVMIntEQ, LLVMIntNE};
    /* C's < <= > >= == on floats are ordered, != unordered */
    static const LLVMRealPredicate fp[] = {LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE,
                                           LLVMRealOEQ, LLVMRealUNE};
    if (i->sub > CMP_NE)
        return false;
    LLVMValueRef a = load_reg(e, i->a), b = load_reg(e, i->b), r;
    if (i->n == TY_F32) {
        if (!e->ieee) /* the profile flushes: the math layer's comparisons */
            return false;
        r = LLVMBuildFCmp(e->b, fp[i->sub], as_f(e, a), as_f(e, b), "");
    } else {
        r = LLVMBuildICmp(e->b, i->n == TY_I32 ? sp[i->sub] : up[i->sub], a, b, "");
    }
    store_reg(e, i->d, zext_bool(e, r));
    return true;
}

/* OP_ADDR of a runtime-sized array (c = 0: no bounds rule here) */
static bool emit_addr(emit *e, const wg_ins *i)
{
    if (i->c)
        return false; /* the profile's out-of-bounds rule: the interpreter's */
    LLVMBuilderRef b = e->b;
    LLVMTypeRef v64 = e->v64;
    LLVMValueRef bw = load_reg(e, i->b);
    if (i->a == WG_NONE_REG && i->imm == 1) {
        store_reg(e, i->d, bw);
        return true;
    }
    LLVMValueRef w = LLVMBuildMul(b, LLVMBuildZExt(b, bw, v64, ""),
                                  splat(e, c64(e, i->imm), v64), "");
    LLVMValueRef none = vconst(e, WG_NONE);
    LLVMValueRef bad;
    if (i->a != WG_NONE_REG) {
        LLVMValueRef aw = load_reg(e, i->a);
        w = LLVMBuildAdd(b, LLVMBuildZExt(b, aw, v64, ""), w, "");
        bad = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, aw, none, ""),
                          LLVMBuildICmp(b, LLVMIntUGE, w, splat(e, c64(e, WG_NONE), v64), ""), "");
    } else {
        bad = LLVMBuildICmp(b, LLVMIntUGE, w, splat(e, c64(e, WG_NONE), v64), "");
    }
    store_reg(e, i->d, LLVMBuildSelect(b, bad, none, LLVMBuildTrunc(b, w, e->v32, ""), ""));
    return true;
}

/* OP_MOVM: lanes in exec; whole registers when every lane is (copy_regs:
 * memmove's order), else register by register, as the interpreter */
static void emit_movm(emit *e, const wg_ins *i)
{
    if (i->d == i->a && i->n)
        return; /* either way every word keeps its value */
    LLVMValueRef exec = get_exec(e);
    bool overlap = i->n > 1 && i->d < i->a + i->n && i->a < i->d + i->n;
    LLVMBasicBlockRef whole = NULL, done = NULL;
    if (overlap) {
        whole = new_block(e, "movm_all");
        LLVMBasicBlockRef part = new_block(e, "movm_part");
        done = new_block(e, "");
        LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, exec, e->all, ""), whole, part);
        LLVMPositionBuilderAtEnd(e->b, whole);
        LLVMBuildMemMove(e->b, reg_ptr(e, i->d), 4, reg_ptr(e, i->a), 4,
                         c64(e, (uint64_t)i->n * e->w * 4));
        LLVMBuildBr(e->b, done);
        LLVMPositionBuilderAtEnd(e->b, part);
    }
    LLVMValueRef m = mask_vec(e, exec);
    for (uint32_t k = 0; k < i->n; k++)
        store_reg(e, i->d + k, LLVMBuildSelect(e->b, m, load_reg(e, i->a + k),
                                               load_reg(e, i->d + k), ""));
    if (overlap) {
        LLVMBuildBr(e->b, done);
        LLVMPositionBuilderAtEnd(e->b, done);
    }
}

/* The interpreter's code for instruction pc; a stop it makes (none is
 * expected of the instructions it is given) returns at once. */
static void emit_step(emit *e, uint32_t pc)
{
    sync_out(e);
    LLVMTypeRef fty = e->step_ty;
    LLVMValueRef stepf = FIELD(e, step, e->ptr);
    LLVMValueRef args[] = {e->frame, c32(e, pc)};
    LLVMValueRef r = LLVMBuildCall2(e->b, fty, stepf, args, 2, "");
    LLVMBasicBlockRef stopb = new_block(e, "step_stop"), on = new_block(e, "");
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntEQ, r, c32(e, (uint32_t)-1), ""), on, stopb);
    LLVMPositionBuilderAtEnd(e->b, stopb);
    /* step wrote the pc; the steps are this function's */
    LLVMBuildStore(e->b, LLVMBuildLoad2(e->b, e->i64, e->steps_v, ""), FIELD_AT(e, steps));
    LLVMBuildRet(e->b, r);
    LLVMPositionBuilderAtEnd(e->b, on);
}

/* the next check of the step count: the limit, or sooner the cancel flag */
static LLVMValueRef next_check(emit *e, LLVMValueRef steps, LLVMValueRef max)
{
    LLVMValueRef s = LLVMBuildAdd(e->b, steps, c64(e, 1u << 16), "");
    return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntULT, s, max, ""), s, max, "");
}

static void emit_loop_end(emit *e, const wg_ins *i, uint32_t pc)
{
    LLVMBasicBlockRef again = new_block(e, "loop_again"), leave = new_block(e, "loop_leave");
    LLVMValueRef exec = get_exec(e);
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, exec, c64(e, 0), ""), again, leave);
    LLVMPositionBuilderAtEnd(e->b, leave);
    set_exec(e, LLVMBuildLoad2(e->b, e->i64, slot_ptr(e, i->imm), ""));
    LLVMBuildBr(e->b, e->blocks[pc + 1]);
    LLVMPositionBuilderAtEnd(e->b, again);
    LLVMValueRef steps = LLVMBuildLoad2(e->b, e->i64, e->steps_v, "");
    LLVMBasicBlockRef check = new_block(e, "loop_check"), jump = new_block(e, "");
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntUGT, steps,
                                        LLVMBuildLoad2(e->b, e->i64, e->check_at, ""), ""),
                    check, jump);
    LLVMPositionBuilderAtEnd(e->b, check);
    sync_out(e);
    LLVMBuildStore(e->b, steps, FIELD_AT(e, steps));
    LLVMValueRef args[] = {e->frame, c32(e, pc)};
    LLVMValueRef r = LLVMBuildCall2(e->b, e->step_ty, FIELD(e, loop_check, e->ptr), args, 2, "");
    LLVMBasicBlockRef err = new_block(e, "loop_error"), ok = new_block(e, "");
    LLVMBuildCondBr(e->b, LLVMBuildICmp(e->b, LLVMIntNE, r, c32(e, 0), ""), err, ok);
    LLVMPositionBuilderAtEnd(e->b, err);
    stop_at(e, pc + 1, WG_JIT_ERROR);
    LLVMPositionBuilderAtEnd(e->b, ok);
    LLVMBuildStore(e->b, next_check(e, steps, FIELD(e, max_steps, e->i64)), e->check_at);
    LLVMBuildBr(e->b, jump);
    LLVMPositionBuilderAtEnd(e->b, jump);
    LLVMBuildBr(e->b, e->blocks[i->b]);
}

/* An arithmetic instruction on the lanes the vector types hold; false
 * where the JIT leaves it to the interpreter. */
static bool emit_arith(emit *e, const wg_ins *i)
{
    LLVMBuilderRef b = e->b;
    bool native = true;
    switch ((wg_opcode)i->op) {
    case OP_CONST: store_reg(e, i->d, vconst(e, i->imm)); break;
    case OP_MOV:
        if (i->d != i->a && e->vw < e->w) { /* a chunk of lanes: load all, then store */
            LLVMValueRef v[16];
            for (uint32_t k = 0; k < i->n; k++)
                v[k] = load_reg(e, i->a + k);
            for (uint32_t k = 0; k < i->n; k++)
                store_reg(e, i->d + k, v[k]);
        } else if (i->d != i->a) {
            LLVMBuildMemMove(b, reg_ptr(e, i->d), 4, reg_ptr(e, i->a), 4,
                             c64(e, (uint64_t)i->n * e->w * 4));
        }
        break;
    case OP_MOVM: emit_movm(e, i); break;
    case OP_MATH: native = emit_math(e, i); break;
    case OP_CMP: native = emit_cmp(e, i); break;
    case OP_BITS: {
        LLVMValueRef a = load_reg(e, i->a), r;
        switch (i->sub) {
        case BITS_AND: r = LLVMBuildAnd(b, a, load_reg(e, i->b), ""); break;
        case BITS_OR: r = LLVMBuildOr(b, a, load_reg(e, i->b), ""); break;
        case BITS_XOR: r = LLVMBuildXor(b, a, load_reg(e, i->b), ""); break;
        case BITS_NOT: r = LLVMBuildNot(b, a, ""); break;
        default: r = zext_bool(e, LLVMBuildICmp(b, LLVMIntEQ, a, vconst(e, 0), "")); break;
        }
        store_reg(e, i->d, r);
        break;
    }
    case OP_SELECT: {
        LLVMValueRef a = load_reg(e, i->a), bv = load_reg(e, i->b), c = load_reg(e, i->c);
        store_reg(e, i->d, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, c, vconst(e, 0), ""),
                                           bv, a, ""));
        break;
    }
    case OP_ADDR: native = emit_addr(e, i); break;
    default:
        native = false;
        break;
    }
    return native;
}

/* One instruction at the builder's block; false (and why) where the JIT
 * cannot run it (the pipeline then runs on the interpreter). */
static bool emit_ins(emit *e, const wg_ins *i, uint32_t pc, wg_jit_stats *st, char *why,
                     size_t why_size)
{
    uint32_t nc = e->xp->prog.ncode;
    LLVMBuilderRef b = e->b;
    bool native = true;
    switch ((wg_opcode)i->op) {
    case OP_CONST: case OP_MOV: case OP_MOVM: case OP_MATH: case OP_CMP: case OP_BITS:
    case OP_SELECT: case OP_ADDR:
        native = emit_arith(e, i);
        break;
    case OP_IF: {
        LLVMValueRef c = lane_mask(e, i->a), exec = get_exec(e);
        LLVMBuildStore(b, LLVMBuildAnd(b, exec, LLVMBuildNot(b, c, ""), ""), slot_ptr(e, i->imm));
        LLVMValueRef x = LLVMBuildAnd(b, exec, c, "");
        set_exec(e, x);
        if (i->b > nc)
            goto bad_jump;
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, x, c64(e, 0), ""), e->blocks[i->b],
                        e->blocks[pc + 1]);
        goto counted;
    }
    case OP_ELSE: {
        LLVMValueRef sp = slot_ptr(e, i->imm), t = LLVMBuildLoad2(b, e->i64, sp, "");
        LLVMBuildStore(b, get_exec(e), sp);
        set_exec(e, t);
        if (i->b > nc)
            goto bad_jump;
        LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, t, c64(e, 0), ""), e->blocks[i->b],
                        e->blocks[pc + 1]);
        goto counted;
    }
    case OP_ENDIF: case OP_MERGE:
        set_exec(e, LLVMBuildOr(b, get_exec(e), LLVMBuildLoad2(b, e->i64, slot_ptr(e, i->imm), ""), ""));
        break;
    case OP_MASK_CLEAR: LLVMBuildStore(b, c64(e, 0), slot_ptr(e, i->imm)); break;
    case OP_EXIT: {
        LLVMValueRef sp = slot_ptr(e, i->imm);
        LLVMBuildStore(b, LLVMBuildOr(b, LLVMBuildLoad2(b, e->i64, sp, ""), get_exec(e), ""), sp);
        set_exec(e, c64(e, 0));
        break;
    }
    case OP_BREAK_IF: case OP_BREAK_JUMP: {
        LLVMValueRef c = lane_mask(e, i->a), exec = get_exec(e), sp = slot_ptr(e, i->imm);
        LLVMBuildStore(b, LLVMBuildOr(b, LLVMBuildLoad2(b, e->i64, sp, ""),
                                      LLVMBuildAnd(b, exec, c, ""), ""), sp);
        LLVMValueRef x = LLVMBuildAnd(b, exec, LLVMBuildNot(b, c, ""), "");
        set_exec(e, x);
        if (i->op == OP_BREAK_JUMP) {
            if (i->b > nc)
                goto bad_jump;
            LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, x, c64(e, 0), ""), e->blocks[i->b],
                            e->blocks[pc + 1]);
            goto counted;
        }
        break;
    }
    case OP_LOOP_END:
        if (i->b > nc)
            goto bad_jump;
        emit_loop_end(e, i, pc);
        goto counted;
    case OP_BARRIER:
        LLVMBuildStore(b, c32(e, i->sub), FIELD_AT(e, kind));
        stop_at(e, pc + 1, WG_JIT_BARRIER);
        goto counted;
    case OP_END:
        stop_at(e, pc + 1, WG_JIT_END);
        goto counted;
    case OP_BUF_LOAD: case OP_BUF_STORE: case OP_WG_LOAD: case OP_WG_STORE: case OP_ATOMIC:
    case OP_TEX_LOAD: case OP_TEX_STORE: case OP_TEX_LOAD_LEVEL: case OP_TEX_SAMPLE:
    case OP_TEX_DIMS: case OP_ARRAY_LEN: case OP_TEX_FETCH: case OP_TEX_QUERY:
    case OP_TEX_SAMPLE_ANY: case OP_SUBGROUP: case OP_MATHV: case OP_LOADIDX: case OP_STOREIDX:
        native = false;
        break;
    default:
        snprintf(why, why_size, "opcode %u at instruction %u is not one the JIT knows",
                 (unsigned)i->op, pc);
        return false;
    }
    if (!native) {
        emit_step(e, pc);
        st->stepped++;
        st->stepped_ops |= 1ull << (i->op & 63);
    } else {
        st->native++;
    }
    LLVMBuildBr(b, e->blocks[pc + 1]);
    return true;
counted:
    st->native++;
    return true;
bad_jump:
    snprintf(why, why_size, "a jump past the program's end at instruction %u", pc);
    return false;
}

bool wg_jit_emit(const wg_exec_program *xp, const stex_profile *prof, LLVMContextRef cx,
                 LLVMModuleRef mod, const char *name, wg_jit_stats *st, char *why,
                 size_t why_size)
{
    const wg_program *p = &xp->prog;
    emit e = {.cx = cx, .mod = mod, .w = xp->width, .ieee = stex_math_f32_is_ieee(prof),
              .xp = xp, .prof = prof};
    if (!e.w || e.w > 64) {
        snprintf(why, why_size, "a sub-group width of %u", e.w);
        return false;
    }
    /* LLVM 15's x86 code generator crashes on some vectors of i1 whose
     * length is no power of two (a constant `bitcast i5 to <5 x i1>` under
     * a select, on hosts without AVX-512) and gives wrong lanes on others */
    if (e.w & (e.w - 1)) {
        snprintf(why, why_size, "a sub-group width of %u, which is no power of two", e.w);
        return false;
    }
    if (p->ncode > WG_JIT_MAX_INSTRUCTIONS ||
        (uint64_t)p->ncode * e.w > WG_JIT_MAX_LANE_INSTRUCTIONS) {
        snprintf(why, why_size, "a program of %u instructions at width %u, past the %u "
                 "instructions times lanes the JIT compiles", p->ncode, e.w,
                 (unsigned)WG_JIT_MAX_LANE_INSTRUCTIONS);
        return false;
    }
    e.i1 = LLVMInt1TypeInContext(cx);
    e.i32 = LLVMInt32TypeInContext(cx);
    e.i64 = LLVMInt64TypeInContext(cx);
    e.ptr = LLVMPointerTypeInContext(cx, 0);
    set_lanes(&e, e.w, LLVMConstInt(e.i64, 0, false));
    LLVMTypeRef sp[] = {e.ptr, e.i32};
    e.step_ty = LLVMFunctionType(e.i32, sp, 2, false);
    LLVMTypeRef fp[] = {e.ptr};
    e.fn = LLVMAddFunction(mod, name, LLVMFunctionType(e.i32, fp, 1, false));
    e.b = LLVMCreateBuilderInContext(cx);
    e.blocks = calloc(p->ncode + 1, sizeof *e.blocks);
    if (!e.blocks) {
        LLVMDisposeBuilder(e.b);
        snprintf(why, why_size, "out of memory");
        return false;
    }
    LLVMBasicBlockRef entry = new_block(&e, "entry");
    for (uint32_t pc = 0; pc <= p->ncode; pc++)
        e.blocks[pc] = new_block(&e, "");
    LLVMPositionBuilderAtEnd(e.b, entry);
    e.frame = LLVMGetParam(e.fn, 0);
    e.regs = FIELD(&e, regs, e.ptr);
    e.slots = FIELD(&e, slot, e.ptr);
    e.all = FIELD(&e, all, e.i64);
    e.n = FIELD(&e, n, e.i32);
    e.exec_v = LLVMBuildAlloca(e.b, e.i64, "exec");
    e.steps_v = LLVMBuildAlloca(e.b, e.i64, "steps");
    e.check_at = LLVMBuildAlloca(e.b, e.i64, "check_at");
    LLVMValueRef steps = FIELD(&e, steps, e.i64);
    LLVMBuildStore(e.b, LLVMBuildLoad2(e.b, e.i64, FIELD(&e, exec, e.ptr), ""), e.exec_v);
    LLVMBuildStore(e.b, steps, e.steps_v);
    LLVMBuildStore(e.b, next_check(&e, steps, FIELD(&e, max_steps, e.i64)), e.check_at);
    /* resume: pc 0 or the instruction after a barrier */
    uint32_t nresume = 0;
    for (uint32_t pc = 0; pc < p->ncode; pc++)
        nresume += p->code[pc].op == OP_BARRIER;
    LLVMValueRef sw = LLVMBuildSwitch(e.b, FIELD(&e, pc, e.i32), e.blocks[0], nresume);
    for (uint32_t pc = 0; pc < p->ncode; pc++)
        if (p->code[pc].op == OP_BARRIER)
            LLVMAddCase(sw, c32(&e, pc + 1), e.blocks[pc + 1]);
    /* the instructions a jump or a resume reaches: a run of arithmetic
     * (lanewise) starts at one or goes on past none */
    bool *leader = calloc(p->ncode + 1, sizeof *leader);
    bool ok = leader != NULL;
    for (uint32_t pc = 0; ok && pc < p->ncode; pc++) {
        const wg_ins *i = &p->code[pc];
        if ((i->op == OP_IF || i->op == OP_ELSE || i->op == OP_BREAK_JUMP ||
             i->op == OP_LOOP_END) && i->b <= p->ncode)
            leader[i->b] = true;
        if (i->op == OP_BARRIER)
            leader[pc + 1] = true;
    }
    /* a run's lanes in chunks of 8 (an AVX2 register of words) when the
     * width has them, else all at once */
    uint32_t chunk = e.w % 8 == 0 ? 8 : e.w;
    for (uint32_t pc = 0; ok && pc < p->ncode; pc++) {
        LLVMPositionBuilderAtEnd(e.b, e.blocks[pc]);
        uint32_t end = pc;
        while (end < p->ncode && lanewise(&e, &p->code[end]) && (end == pc || !leader[end]))
            end++;
        LLVMValueRef s = LLVMBuildLoad2(e.b, e.i64, e.steps_v, "");
        LLVMBuildStore(e.b, LLVMBuildAdd(e.b, s, c64(&e, end > pc ? end - pc : 1), ""),
                       e.steps_v);
        if (end == pc) {
            ok = emit_ins(&e, &p->code[pc], pc, st, why, why_size);
            continue;
        }
        /* pc .. end: one loop over the chunks, each running every instruction */
        uint32_t nchunks = e.w / chunk;
        LLVMBasicBlockRef pre = LLVMGetInsertBlock(e.b), body = new_block(&e, "lanes");
        LLVMBuildBr(e.b, body);
        LLVMPositionBuilderAtEnd(e.b, body);
        LLVMValueRef ci = LLVMBuildPhi(e.b, e.i64, "chunk");
        set_lanes(&e, chunk, LLVMBuildMul(e.b, ci, c64(&e, chunk), ""));
        for (uint32_t k = pc; k < end; k++) {
            emit_arith(&e, &p->code[k]);
            st->native++;
        }
        set_lanes(&e, e.w, c64(&e, 0));
        LLVMValueRef next = LLVMBuildAdd(e.b, ci, c64(&e, 1), "");
        LLVMBasicBlockRef last = LLVMGetInsertBlock(e.b);
        LLVMBuildCondBr(e.b, LLVMBuildICmp(e.b, LLVMIntULT, next, c64(&e, nchunks), ""), body,
                        e.blocks[end]);
        LLVMValueRef inc[] = {c64(&e, 0), next};
        LLVMBasicBlockRef from[] = {pre, last};
        LLVMAddIncoming(ci, inc, from, 2);
        /* the instructions inside the run have no block of their own */
        for (uint32_t k = pc + 1; k < end; k++) {
            LLVMDeleteBasicBlock(e.blocks[k]);
            e.blocks[k] = NULL;
        }
        pc = end - 1;
    }
    free(leader);
    if (ok) { /* past the last instruction: as the interpreter, the end */
        LLVMPositionBuilderAtEnd(e.b, e.blocks[p->ncode]);
        stop_at(&e, p->ncode, WG_JIT_END);
    }
    LLVMDisposeBuilder(e.b);
    free(e.blocks);
    return ok;
}
