/* Internal: semantic analysis and lowering, one pass.  Lowering an entry
 * point walks its body, checks every expression and statement against
 * WGSL's rules (types, conversions, scopes, builtins) and emits the
 * bytecode of ir.h; user functions are inlined at each call (so pointer
 * parameters resolve at compile time, and recursion - which WGSL forbids -
 * is found as a call already being inlined).  Const-expressions are
 * evaluated here (abstract numbers in int64 / double, then materialised). */
#ifndef STEX_WGSL_LOWER_H
#define STEX_WGSL_LOWER_H

#include "stex/dispatch.h"
#include "stex/math.h"
#include "wgsl/ast.h"
#include "wgsl/ir.h"
#include "wgsl/types.h"

/* One word of a compile-time constant: by the scalar kind of its type. */
typedef union wg_cword {
    int64_t i;   /* AbstractInt */
    double f;    /* AbstractFloat */
    uint32_t u;  /* bool, i32, u32, f32: the bits */
} wg_cword;

/* Where a reference points. */
typedef struct wg_ref {
    wg_space space;
    uint32_t binding;   /* STEX_BINDING(group, binding): uniform, storage, handle */
    uint32_t base;      /* function/private: register; memory: constant word offset */
    uint32_t dyn;       /* register with a dynamic word offset, or WG_NONE_REG */
    stex_access access; /* storage: read or read_write */
    bool halves;        /* memory holding f16: base, dyn and leaf offsets count
                         * 2-byte half-words instead of 32-bit words */
} wg_ref;

/* The bytes one unit of a memory reference's offsets covers. */
static inline uint32_t wg_ref_unit(const wg_ref *r) { return r->halves ? 2 : 4; }

typedef enum wg_val_kind { V_ERROR, V_CONST, V_REG, V_REF, V_PTR, V_HANDLE, V_VOID } wg_val_kind;

typedef struct wg_val {
    wg_val_kind kind;
    int type;         /* V_REF: the store type; V_PTR: the pointer type */
    uint32_t reg;     /* V_REG */
    wg_cword *c;      /* V_CONST: one per word */
    wg_ref ref;       /* V_REF, V_PTR, V_HANDLE (binding) */
    /* V_REG of an f32 product a * b (also through a `let`): its operands'
     * registers, so that `p + c` can be the profile's a * b + c, which some
     * devices contract into one rounding */
    bool mul;
    uint32_t mul_a, mul_b;
} wg_val;

/* A module-scope declaration's analysis, done once, on first use. */
typedef struct wg_global {
    const wg_decl *decl;
    int state;        /* 0 not yet, 1 in progress (a cycle if met again), 2 done */
    wg_val val;       /* const / override value, var reference, handle */
    int type;         /* struct / alias: the type */
    bool used;        /* statically used by the entry point being lowered */
    /* an override whose value the pipeline supplies (no default, or one that
     * depends on such an override), while checking the module: val is a
     * register of its type, so its uses are checked as run-time values */
    bool pending;
    uint32_t wg_offset; /* var<workgroup>: byte offset */
} wg_global;

typedef struct wg_sym {
    const char *name;
    wg_val val;
} wg_sym;

/* A loop or switch a 'break' (and, for a loop, a 'continue') leaves. */
typedef struct wg_construct {
    uint32_t break_slot, continue_slot; /* switch: its loop's continue slot, or UINT32_MAX */
    bool is_loop;
    /* a loop's body: its names declared before the statement being lowered,
     * and that count at the first 'continue' of the loop (UINT32_MAX: none) */
    uint32_t body_syms, continued_at;
} wg_construct;

typedef struct wg_fn_frame {
    const wg_decl *fn;
    int ret_type;
    uint32_t ret_reg;
    uint32_t ret_slot;
} wg_fn_frame;

typedef struct wg_override_value {
    const char *name;
    double value;
} wg_override_value;
/* Orders override values by name, for qsort and bsearch. */
int wg_override_cmp(const void *a, const void *b);

/* The first f32 and AbstractFloat zeros a module made (Dawn's front end). */
typedef struct wg_zeros {
    bool f32_set, afloat_set;
    uint32_t f32;
    double afloat;
} wg_zeros;

/* What one lowering may build (stex's own limits, rule [limits]): the
 * interpreter moves a value with a 16-bit word count, keeps an invocation's
 * registers in one array, and inlines every call. */
enum {
    WG_MAX_VALUE_WORDS = 65535,       /* one value: 256 KiB */
    WG_MAX_REGS = 1u << 20,           /* an invocation's registers: 4 MiB */
    WG_MAX_CODE = 1u << 21,           /* instructions of one entry point, calls inlined */
    WG_MAX_INLINED_CALLS = 1u << 18,  /* user-function calls inlined into one entry point */
    WG_MAX_MODULE_INLINED = 1u << 17, /* ... into all of a module's functions, checked alone */
};

typedef struct wg_ctx {
    wg_arena *arena;
    stex_const_rule const_rule; /* the module's: WGSL's or Dawn's front end */
    stex_matmul_rule matmul;    /* the module's profile's matrix products */
    bool unroll;                /* the profile's compiler unrolls counted loops (nvidia) */
    bool quantize_ftz;          /* quantizeToF16 flushes f16 subnormals to a signed zero (nvidia) */
    uint32_t unrolled;          /* syntax nodes lowered by unrolling so far (bounded) */
    uint32_t in_unrolled;       /* inside an unrolled loop: temporaries not reused */
    wg_zeros *zeros;            /* the module's first zeros (wg_f32_const) */
    wg_diags *d;
    wg_types *types;
    const wg_ast *ast;
    wg_global *globals;     /* one per ast decl */
    const wg_override_value *overrides; /* sorted by name (wg_override_cmp) */
    uint32_t noverrides;
    /* lowering state */
    wg_program *prog;
    uint32_t reg_next;
    wg_sym *syms;
    uint32_t nsyms, syms_cap;
    wg_fn_frame *frames;    /* the calls being inlined, outermost first */
    uint32_t nframes, frames_cap;
    wg_construct *cons;     /* the loops and switches around, innermost last */
    uint32_t nbreak, cons_cap;
    uint32_t break_base;    /* the first of them in the function being lowered */
    uint32_t sym_base;      /* the first local name of the function being lowered */
    uint32_t block_base;    /* the first local name of the innermost block */
    uint32_t continuing_of; /* in a continuing block: its loop's place in cons, plus one; else 0 */
    uint32_t skipped_from, skipped_to; /* the body's names a 'continue' skips, which its
                                        * continuing block must not use */
    uint32_t wg_memory;     /* bytes of var<workgroup> laid out so far */
    bool uses_barriers;
    bool pipeline;          /* lowering for a pipeline: every override used has a value */
    uint32_t pending_uses;  /* uses of pending overrides so far (wg_global.pending) */
    uint32_t override_uses; /* uses of any override so far: a const may not depend on one */
    uint32_t var_uses;      /* uses of module-scope variables so far: an override-expression
                             * names none */
    bool wg_memory_pending; /* a var<workgroup> array's element count is an override
                             * without a value: wg_memory counts it as one element */
    bool oom;
    bool limit_hit;         /* a [limits] error was reported: lowering winds down */
    uint32_t inlined;       /* user-function calls inlined so far */
    uint32_t *inline_total; /* the module's count while it is checked (WG_MAX_MODULE_INLINED) */
    bool *queued;           /* per global: met by lower_module.c's prepare (its walk) */
    /* lowering a function on its own, not for a @compute or @vertex entry
     * point (a @fragment entry, or a helper): the fragment stage's builtins
     * (implicit-derivative sampling, dpdx..., discard) type-check and lower to
     * zeros that never run; for a compute or vertex entry point, and every
     * function it calls, they are errors */
    bool stage_free;
    /* the fragment-stage builtins met while !stage_free, and the first one
     * since the called body being lowered began (such a body reports nothing
     * itself: its call does) */
    uint32_t stage_uses;
    const char *stage_use_name;
    wg_loc stage_use_loc;
    uint32_t line;          /* of the statement being lowered */
} wg_ctx;

/* Constant values as the module's front end keeps them.  Dawn's holds one
 * constant per value, compared with ==, so -0 and +0 are one constant: the
 * first f32 zero (and, apart, the first AbstractFloat zero) a module makes
 * is every later one.  Under WGSL's rule the value is returned as it is. */
uint32_t wg_f32_const(wg_ctx *x, uint32_t bits);
double wg_afloat_const(wg_ctx *x, double v);
/* The same for the f32 words of math function fn's results, in place. */
void wg_f32_results(wg_ctx *x, stex_math_fn fn, uint32_t *out);

/* ---- lower.c: the context, registers, emission ---- */
/* Reports a [limits] error (also inside an inlined body, whose own errors
 * are quiet) once per lowering; every later step returns at once. */
void wg_limit(wg_ctx *x, wg_loc loc, const char *fmt, unsigned n);
/* False (after the [limits] error) when the thread's stack is nearly used
 * up or a limit was hit: the recursive steps ask it first. */
bool wg_deeper(wg_ctx *x, wg_loc loc);
uint32_t wg_reg_alloc(wg_ctx *x, uint32_t words);
/* Room for element n of a growing array (*arr, *cap elements of elem
 * bytes), doubling it; false (x->oom set) when out of memory. */
bool wg_grow(wg_ctx *x, void **arr, uint32_t *cap, uint32_t n, size_t elem);
uint32_t wg_slot_alloc(wg_ctx *x);

/* lower_unroll.c: the trips of a `for` loop the nvidia profile unrolls */
enum { WG_UNROLL_MAX_TRIPS = 16, WG_UNROLL_MAX_NODES = 4096 /* one loop's copies */,
       WG_UNROLL_MAX_TOTAL = 32768 /* a module's unrolled nodes */, WG_UNROLL_MAX_CODE = 16384,
       WG_UNROLL_MAX_REGS = 16384 /* temporaries kept, not reused, up to here */ };
bool wg_unroll_trips(const wg_stmt *s, int64_t values[WG_UNROLL_MAX_TRIPS], uint32_t *trips,
                     uint32_t *nodes);
wg_ins *wg_emit(wg_ctx *x, wg_opcode op);
uint32_t wg_pool_add(wg_ctx *x, const uint32_t *offs, uint32_t n);
wg_cword *wg_cwords(wg_ctx *x, uint32_t n);
void wg_scope_push(wg_ctx *x, const char *name, wg_val v);
const wg_val *wg_lookup_local(const wg_ctx *x, const char *name);
int32_t wg_local_index(const wg_ctx *x, const char *name); /* into x->syms, or -1 */
const char *wg_tname(const wg_ctx *x, int type); /* a type's name (rotating static buffers) */
#define WG_ERR(x, loc, rule, ...) wg_error((x)->d, (loc), (rule), __VA_ARGS__)
static inline wg_val wg_error_val(void) { return (wg_val){.kind = V_ERROR, .type = T_VOID}; }
/* A run-time value of `type` that is all zero bits (the stand-in result of a
 * builtin that only a stage stex does not run can call). */
wg_val wg_zero_reg(wg_ctx *x, int type);
/* A fragment-stage builtin `what` at loc where a compute shader runs: the
 * error (or, inside a called body, a note for the call site). */
void wg_stage_error(wg_ctx *x, wg_loc loc, const char *rule, const char *what,
                    const char *message);

/* ---- lower_module.c: module scope ---- */
/* The global for an identifier, analysed on first use (NULL if none). */
wg_global *wg_global_find(wg_ctx *x, const char *name, wg_loc loc);
/* True if the module enables f16; else reports that `what` needs it. */
bool wg_need_f16(wg_ctx *x, wg_loc loc, const char *what);
/* Resolves a type expression (vec2<f32>, array<u32, 4>, a struct name); -1 on error. */
int wg_resolve_type(wg_ctx *x, const wg_expr *e);
/* False, after the error at type expression te's count (or the alias that
 * names it), when `type` is an array whose count is an override-expression
 * (WGSL 6.2.9: only a var<workgroup> holds one), `what` the declaration. */
bool wg_not_override_sized(wg_ctx *x, int type, const wg_expr *te, const char *what);
/* The value of @location(n) attribute a (a non-negative const-expression) in
 * *out; false after the error. */
bool wg_location(wg_ctx *x, const wg_attr *a, int64_t *out);
/* Whether an identifier names a type (so `name(...)` is a constructor). */
bool wg_names_type(wg_ctx *x, const char *name);
/* An override's key in a pipeline's constants: its @id in decimal, else its name. */
const char *wg_override_key(wg_ctx *x, const wg_decl *d, char *buf, size_t size);
/* matCxR (template <f32> or inferred) or matCxRf: C and R in 2..4; false if not. */
bool wg_mat_name(const char *n, uint32_t *cols, uint32_t *rows, bool *shorthand);

/* ---- io_rules.c: an entry point's inputs and outputs ---- */
/* Checks fn's built-in values and @location inputs and outputs for a shader
 * of `stage` ("compute", "vertex", "fragment"). */
void wg_entry_io_check(wg_ctx *x, const wg_decl *fn, const char *stage);

/* ---- lower_expr.c: expressions ---- */
wg_val wg_expr_lower(wg_ctx *x, const wg_expr *e);
/* A value as a register (loads references, materialises constants as `type`). */
uint32_t wg_to_reg(wg_ctx *x, wg_val v, wg_loc loc);
/* The value converted to `type` (automatic conversions only); V_ERROR with a message if not. */
wg_val wg_convert(wg_ctx *x, wg_val v, int type, wg_loc loc, const char *what);
wg_val wg_load(wg_ctx *x, wg_val v, wg_loc loc);  /* V_REF -> V_REG; others unchanged */
void wg_store(wg_ctx *x, const wg_ref *r, int type, uint32_t reg, wg_loc loc);
/* A constant of a concrete type, materialised into a register. */
uint32_t wg_const_reg(wg_ctx *x, const wg_cword *c, int type);
wg_val wg_const_scalar(wg_ctx *x, int type, wg_cword w);
/* Converts constant words of type `from` to `to` (abstract -> concrete); false if out of range. */
bool wg_const_convert(wg_ctx *x, const wg_cword *in, int from, wg_cword *out, int to);
/* The address of a ref's element `idx` (a register of i32/u32) of an array or vector. */
wg_ref wg_ref_index(wg_ctx *x, const wg_ref *r, const wg_type *agg, uint32_t idx_reg, wg_loc loc);
/* Unifies two operand types for a binary operator; -1 if they do not. */
int wg_common_type(wg_ctx *x, int a, int b);
/* Emits fn (by op name) per component over scalar/vector registers; result in a new register. */
uint32_t wg_emit_math(wg_ctx *x, const char *op, int type, const uint32_t *args, uint32_t nargs,
                      int result_type, wg_loc loc);

/* ---- lower_call.c: calls ---- */
wg_val wg_call_lower(wg_ctx *x, const wg_expr *e);
/* lower_texture.c: the builtins on sampled textures that it lowers (by
 * name), and the call itself (argument 0 a sampled texture handle). */
bool wg_sampled_texture_call_is(const char *name);
wg_val wg_sampled_texture_call(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a);
/* lower_texture.c: the sampling builtins (textureSampleLevel of every
 * overload, textureSampleGrad, textureSampleCompareLevel, textureGather,
 * textureGatherCompare, textureSampleBaseClampToEdge; the fragment-only
 * ones refused). */
bool wg_sample_call_is(const char *name);
wg_val wg_sample_call(wg_ctx *x, const wg_expr *e, const char *name, wg_val *a);

/* ---- const_call.c: builtin calls on constants, one component ---- */
/* Builtin `name` on n constant words of the concrete scalar kind k (ldexp's
 * exponent i32, extractBits' / insertBits' offset and count u32), through
 * the math layer's const evaluation; nout result words (frexp, modf: 2).
 * false on a WGSL const-evaluation error (reported at loc). */
bool wg_const_word(wg_ctx *x, const char *name, wg_type_kind k, const wg_cword *in, uint32_t n,
                   wg_cword *out, uint32_t nout, wg_loc loc);
/* The same on AbstractInt (is_int) or AbstractFloat words. */
bool wg_const_abstract_word(wg_ctx *x, const char *name, bool is_int, const wg_cword *in,
                            uint32_t n, wg_cword *out, wg_loc loc);

/* ---- lower_vector.c: vector and matrix builtins, constant matrices ---- */
bool wg_is_vector_builtin(const char *name); /* dot, cross, length, ..., determinant */
wg_val wg_vector_builtin(wg_ctx *x, const wg_expr *e, const char *name, wg_val *args);
/* a <op> b (+, -, *) of constant matrices, vectors and scalars of one
 * scalar type, with the result type rtype. */
wg_val wg_mat_fold(wg_ctx *x, wg_tok_kind op, wg_val a, wg_val b, int rtype, wg_loc loc);

/* ---- lower_stmt.c: statements and entry points ---- */
void wg_block_lower(wg_ctx *x, const wg_stmt *s);
wg_val wg_user_call(wg_ctx *x, const wg_decl *fn, const wg_expr *call);

#endif
