/* The lowering context: registers, mask slots, instructions, scopes. */
#include "wgsl/lower.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wgsl/stack.h"

void wg_limit(wg_ctx *x, wg_loc loc, const char *fmt, unsigned n)
{
    if (x->limit_hit)
        return;
    x->limit_hit = true;
    bool quiet = x->d->quiet;
    x->d->quiet = false;
    char msg[200];
    snprintf(msg, sizeof msg, fmt, n);
    wg_error(x->d, loc, "limits", "%s", msg);
    x->d->quiet = quiet;
}

bool wg_deeper(wg_ctx *x, wg_loc loc)
{
    if (!x->limit_hit && !wg_stack_ok())
        wg_limit(x, loc, "nested too deeply for the stack of the thread compiling it (%u KiB "
                 "kept free): calls inline into each other's nested blocks and expressions",
                 WG_STACK_RESERVE / 1024);
    return !x->limit_hit;
}

uint32_t wg_reg_alloc(wg_ctx *x, uint32_t words)
{
    uint32_t r = x->reg_next;
    if (words > WG_MAX_VALUE_WORDS) {
        wg_limit(x, (wg_loc){x->line, 1}, "a value of more than %u words (256 KiB): stex holds "
                 "no larger value in registers", WG_MAX_VALUE_WORDS);
        return r;
    }
    if (r + (words ? words : 1) > WG_MAX_REGS) {
        wg_limit(x, (wg_loc){x->line, 1}, "more than %u registers (4 MiB) per invocation for "
                 "its variables and values", WG_MAX_REGS);
        return r;
    }
    x->reg_next += words ? words : 1;
    if (x->reg_next > x->prog->nregs)
        x->prog->nregs = x->reg_next;
    return r;
}

uint32_t wg_slot_alloc(wg_ctx *x)
{
    return x->prog->nslots++;
}

wg_ins *wg_emit(wg_ctx *x, wg_opcode op)
{
    static wg_ins sink; /* after running out of memory: written, never run */
    wg_program *p = x->prog;
    if (p->ncode >= WG_MAX_CODE) {
        wg_limit(x, (wg_loc){x->line, 1}, "more than %u instructions once its calls are "
                 "inlined", WG_MAX_CODE);
        memset(&sink, 0, sizeof sink);
        return &sink;
    }
    if (p->ncode == p->cap) {
        uint32_t cap = p->cap ? 2 * p->cap : 256;
        wg_ins *c = realloc(p->code, cap * sizeof *c);
        if (!c) {
            x->oom = true;
            memset(&sink, 0, sizeof sink);
            return &sink;
        }
        p->code = c;
        p->cap = cap;
    }
    wg_ins *i = &p->code[p->ncode++];
    memset(i, 0, sizeof *i);
    i->op = (uint8_t)op;
    i->offs = WG_NO_OFFS;
    i->line = x->line;
    return i;
}

uint32_t wg_pool_add(wg_ctx *x, const uint32_t *offs, uint32_t n)
{
    wg_program *p = x->prog;
    bool identity = true;
    for (uint32_t i = 0; i < n; i++)
        identity &= offs[i] == i;
    if (identity)
        return WG_NO_OFFS;
    if (p->npool + n > p->pool_cap) {
        uint32_t cap = p->pool_cap ? 2 * p->pool_cap : 256;
        while (cap < p->npool + n)
            cap *= 2;
        uint32_t *np = realloc(p->pool, cap * sizeof *np);
        if (!np) {
            x->oom = true;
            return WG_NO_OFFS;
        }
        p->pool = np;
        p->pool_cap = cap;
    }
    memcpy(p->pool + p->npool, offs, n * sizeof *offs);
    p->npool += n;
    return p->npool - n;
}

wg_cword *wg_cwords(wg_ctx *x, uint32_t n)
{
    wg_cword *c = wg_alloc(x->arena, (n ? n : 1) * sizeof *c);
    if (!c) {
        x->oom = true;
        static wg_cword sink[64];
        return sink;
    }
    return c;
}

bool wg_grow(wg_ctx *x, void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
    if (n < *cap)
        return true;
    uint32_t c = *cap ? 2 * *cap : 16;
    void *p = realloc(*arr, c * elem);
    if (!p) {
        x->oom = true;
        return false;
    }
    *arr = p;
    *cap = c;
    return true;
}

void wg_scope_push(wg_ctx *x, const char *name, wg_val v)
{
    if (wg_grow(x, (void **)&x->syms, &x->syms_cap, x->nsyms, sizeof *x->syms))
        x->syms[x->nsyms++] = (wg_sym){name, v};
}

int32_t wg_local_index(const wg_ctx *x, const char *name)
{
    for (uint32_t i = x->nsyms; i-- > x->sym_base;) /* a callee never sees its caller's */
        if (x->syms[i].name && !strcmp(x->syms[i].name, name))
            return (int32_t)i;
    return -1;
}

const wg_val *wg_lookup_local(const wg_ctx *x, const char *name)
{
    int32_t i = wg_local_index(x, name);
    return i < 0 ? NULL : &x->syms[i].val;
}

const char *wg_tname(const wg_ctx *x, int type)
{
    static _Thread_local char bufs[4][128];
    static _Thread_local int next;
    char *b = bufs[next++ & 3];
    if (type < 0)
        return "?";
    return wg_type_name(x->types, type, b, 128);
}

wg_val wg_zero_reg(wg_ctx *x, int type)
{
    uint32_t words = wg_ty(x->types, type)->words, d = wg_reg_alloc(x, words);
    for (uint32_t k = 0; k < words && !x->limit_hit; k++) { /* a limit: stop emitting */
        wg_ins *i = wg_emit(x, OP_CONST);
        i->d = d + k;
        i->imm = 0;
    }
    return (wg_val){.kind = V_REG, .type = type, .reg = d};
}

void wg_stage_error(wg_ctx *x, wg_loc loc, const char *rule, const char *what,
                    const char *message)
{
    x->stage_uses++;
    if (!x->stage_use_name) { /* the first since the body being lowered began */
        x->stage_use_name = what;
        x->stage_use_loc = loc;
    }
    WG_ERR(x, loc, rule, "%s", message);
}

uint32_t wg_f32_const(wg_ctx *x, uint32_t bits)
{
    if (x->const_rule != STEX_CONST_TINT || (bits & 0x7fffffffu) || !x->zeros)
        return bits;
    if (!x->zeros->f32_set)
        x->zeros->f32_set = true, x->zeros->f32 = bits;
    return x->zeros->f32;
}

double wg_afloat_const(wg_ctx *x, double v)
{
    if (x->const_rule != STEX_CONST_TINT || v != 0.0 || !x->zeros)
        return v;
    if (!x->zeros->afloat_set)
        x->zeros->afloat_set = true, x->zeros->afloat = v;
    return x->zeros->afloat;
}

void wg_f32_results(wg_ctx *x, stex_math_fn fn, uint32_t *out)
{
    const stex_math_fn_info *info = stex_math_fn_get(fn);
    const char *r = info ? strstr(info->sig, "->") : NULL;
    char t[16];
    int n = r ? stex_math_word_types(r + 2, t, 16) : 0;
    for (int w = 0; w < n && w < (int)info->out_words; w++)
        if (t[w] == 'f')
            out[w] = wg_f32_const(x, out[w]);
}
