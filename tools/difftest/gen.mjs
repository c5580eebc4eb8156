#!/usr/bin/env node
// Random WGSL compute programs in the difftest case format (README.md):
// valid, terminating and race-free by construction, one program per seed.
//
//   node tools/difftest/gen.mjs SEED [--off FEATURE,...] [--on FEATURE,...]
//
// Features (all on unless noted): matrix pack atomic workgroup struct array
// ptr switch loop divmod float fdiv bitcastf call constexpr;
// off by default: fdivraw (f32 / and % by any value: 0/0, x/0 and inf * 0
// give NaN and infinities, whose bits lavapipe and stex do not agree on
// yet), transc (sin, exp, pow... which may differ by ulps),
// wildfloat (bitcast<f32> of any bits: NaN, infinities, denormals),
// ptrsugar (p.x for (*p).x), shadow (locals named as module-scope or
// outer declarations they hide).
//
// How validity holds:
//  - every operation that a const-expression could make an error (integer
//    + - * / %, <<, unary -, divisors, float / %, conversions of f32 to
//    integers, ldexp...) gets at least one runtime operand, and / and % a
//    runtime divisor; shift amounts are masked, clamp bounds are ordered
//    literals, extractBits/insertBits offsets and counts are literals with
//    offset + count <= 32 (or runtime values);
//  - array and vector indices are in bounds: a literal, x % N or
//    clamp(x, 0, N - 1);
//  - loops count with a counter of their own that only the loop writes,
//    increment it before anything that could continue, and stop at <= 6;
//    loops nest (through calls too) at most two deep;
//  - an index inside an index nests at most 16 deep, and a program nested
//    more than NESTING_MAX brackets deep is drawn again from its seed with
//    at most 2 (Tint's parser stops at depth 128);
//  - each invocation writes only out[base + k], k < K, base = its linear
//    index * K; workgroup data is written at [local_invocation_index] and
//    read after a workgroupBarrier() (at the top level of main); atomics
//    on out's tail and on var<workgroup> use one commutative op each.
import { pathToFileURL } from 'node:url';

export const FEATURES = ['matrix', 'pack', 'atomic', 'workgroup', 'struct', 'array', 'ptr',
  'switch', 'loop', 'divmod', 'float', 'fdiv', 'bitcastf', 'call', 'constexpr',
  'fdivraw', 'transc', 'wildfloat', 'ptrsugar', 'shadow'];
export const DEFAULT_OFF = ['fdivraw', 'transc', 'wildfloat', 'ptrsugar', 'shadow'];

export function makeRng(seed) {
  let a = (Math.imul(seed >>> 0, 0x9e3779b1) ^ 0x5bd1e995) >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const r = {
    u32: next,
    int: n => next() % n,
    range: (lo, hi) => lo + (next() % (hi - lo + 1)),
    chance: p => next() / 4294967296 < p,
    pick: a => a[next() % a.length],
    // [[weight, value], ...]
    wpick: pairs => {
      let tot = 0;
      for (const [w] of pairs) tot += w;
      let x = (next() / 4294967296) * tot;
      for (const [w, v] of pairs) { if ((x -= w) < 0) return v; }
      return pairs[pairs.length - 1][1];
    },
    shuffle: a => { for (let i = a.length - 1; i > 0; i--) { const j = next() % (i + 1); [a[i], a[j]] = [a[j], a[i]]; } return a; },
  };
  return r;
}

// ---- types ----
const I32 = { k: 's', s: 'i32', int: true, signed: true };
const U32 = { k: 's', s: 'u32', int: true };
const F32 = { k: 's', s: 'f32', float: true };
const BOOL = { k: 's', s: 'bool' };
const vecT = (n, e) => ({ k: 'v', n, e, s: `vec${n}<${e.s}>` });
const matT = (c, r) => ({ k: 'm', c, r, e: F32, col: vecT(r, F32), s: `mat${c}x${r}<f32>` });
const arrT = (e, n) => ({ k: 'a', e, n, s: `array<${e.s}, ${n}>` });
const isIntish = t => (t.k === 's' || t.k === 'v') && (t.k === 's' ? t : t.e).int;
const elemOf = t => (t.k === 's' ? t : t.e);
const same = (a, b) => a.s === b.s;
const LET = 'xyzw';

const RT = 1, CONST = 2; // expression modes: RT = has a runtime operand, CONST = a const-expression

class Gen {
  constructor(seed, opts = {}) {
    this.r = makeRng(seed);
    this.off = new Set(opts.off ?? DEFAULT_OFF);
    for (const f of opts.on ?? []) this.off.delete(f);
    this.n = 0;
    this.structs = [];
    this.funcs = [];
    this.globals = []; // module consts and private vars (scope entries)
    this.decls = []; // module-scope lines
    this.maxLoop = 2;
    this.ixDepth = 0; // indices being generated inside indices (index, inRead)
    this.ixMax = opts.ixMax ?? 16;
  }
  on(f) { return !this.off.has(f); }
  id(p) { return `${p}${this.n++}`; }

  // ---- literals ----
  lit(t) {
    const r = this.r;
    if (t.k !== 's') return this.construct(t, null, 0, CONST).s;
    if (t.s === 'bool') return r.chance(0.5) ? 'true' : 'false';
    if (t.s === 'i32') {
      const v = r.wpick([[6, () => r.range(-9, 9)], [1, () => 2147483647], [1, () => -2147483648],
        [1, () => r.u32() | 0], [1, () => -1], [1, () => r.range(-70000, 70000)]])();
      if (v === -2147483648) return 'i32(-2147483648)';
      return v < 0 ? `-${-v}i` : `${v}i`;
    }
    if (t.s === 'u32') {
      const v = r.wpick([[6, () => r.range(0, 16)], [1, () => 0xffffffff], [1, () => 0x80000000],
        [1, () => r.u32()], [1, () => r.range(0, 70000)]])();
      return r.chance(0.2) ? `0x${v.toString(16)}u` : `${v}u`;
    }
    // f32: exactly representable small values mostly
    const v = r.wpick([[6, () => r.range(-40, 40) / 4], [1, () => r.range(-1000, 1000) / 8],
      [1, () => r.pick([0.1, 0.3, 1e-3, 3.14159, 4096.5, 1000.25, 0.7])], [1, () => 0]])();
    const s = Number.isInteger(v) ? `${Math.abs(v)}.0f` : `${Math.abs(v)}f`;
    return v < 0 || Object.is(v, -0) ? `-${s}` : s;
  }

  // ---- scope ----
  // entry: { name, t, mut (assignable), rt (not a const-expression), ptr: 'function'|'private'|null, root, fnOk }
  visible(ctx) {
    // innermost declaration of each name (a shadowed one is out of sight)
    const byName = new Map();
    for (const v of this.globals) if (!ctx.fn || v.fnOk) byName.set(v.name, v);
    for (const sc of ctx.scopes) for (const v of sc) { byName.delete(v.name); byName.set(v.name, v); }
    return [...byName.values()];
  }
  // a name for a new local: fresh, or (feature shadow) one that hides a
  // module-scope or outer declaration
  localName(ctx) {
    if (this.on('shadow') && !ctx.scopes[ctx.scopes.length - 1].loopBody && this.r.chance(0.2)) {
      const inner = new Set(ctx.scopes[ctx.scopes.length - 1].map(v => v.name));
      const c = this.visible(ctx).filter(v => !inner.has(v.name) && !/^(base|inv|lc\d+|h\d)$/.test(v.name) &&
        (ctx.scopes.length > 1 || this.globals.includes(v)));
      if (c.length) return this.r.pick(c).name;
    }
    return this.id('v');
  }
  base(v) { return v.ptr ? `(*${v.name})` : v.name; }

  // all access paths (steps) from a variable: [{t, steps}]
  paths(t, depth, lvalue) {
    const res = [{ t, steps: [] }];
    if (depth <= 0) return res;
    const sub = (st, step) => {
      for (const p of this.paths(st, depth - 1, lvalue)) res.push({ t: p.t, steps: [step, ...p.steps] });
    };
    if (t.k === 'v') {
      for (let i = 0; i < t.n; i++) res.push({ t: t.e, steps: [{ m: LET[i] }] });
      res.push({ t: t.e, steps: [{ idx: t.n }] });
      if (!lvalue && t.n > 1) {
        const n = this.r.range(2, 4);
        const sw = Array.from({ length: n }, () => LET[this.r.int(t.n)]).join('');
        res.push({ t: vecT(n, t.e), steps: [{ m: sw }] });
      }
    } else if (t.k === 'a') sub(t.e, { idx: t.n });
    else if (t.k === 'm') sub(t.col, { idx: t.c });
    else if (t.k === 'st') for (const f of t.fields) sub(f.t, { m: f.n });
    return res;
  }
  emitPath(v, steps, ctx, mode) {
    let s = this.base(v);
    if (v.ptr && steps.length && steps[0].m && this.on('ptrsugar') && this.r.chance(0.5)) s = v.name;
    for (const st of steps) {
      if (st.m) s += `.${st.m}`;
      else s += `[${this.index(st.idx, ctx, mode)}]`;
    }
    return s;
  }
  index(n, ctx, mode) {
    const r = this.r;
    if (mode === CONST || r.chance(0.35)) return `${r.int(n)}`;
    // an index inside an index inside...: each level may read a path with
    // indices of its own, so the nesting has no bound of its own (gen.mjs
    // overflowed its stack on seed 201571 --off float): past ixMax levels
    // a literal (generate() below keeps the whole program shallow)
    if (this.ixDepth >= this.ixMax) return `${r.int(n)}`;
    const inner = (t, f) => { this.ixDepth++; try { return f(this.expr(t, ctx, 1, mode === RT ? RT : 0).s); } finally { this.ixDepth--; } };
    if (r.chance(0.6)) return inner(U32, e => `(${e} % ${n}u)`);
    return inner(I32, e => `clamp(${e}, 0i, ${n - 1}i)`);
  }
  // variable reads of type t
  reads(t, ctx, mode) {
    const cands = [];
    for (const v of this.visible(ctx)) {
      if (mode === RT && !v.rt) continue;
      if (mode === CONST && v.rt) continue;
      for (const p of this.paths(v.t, 3, false)) if (same(p.t, t)) cands.push([v, p.steps]);
    }
    return cands;
  }
  lvalues(t, ctx) {
    const cands = [];
    for (const v of this.visible(ctx)) {
      if (!v.mut) continue;
      for (const p of this.paths(v.t, 3, true)) if (!t || same(p.t, t)) cands.push([v, p]);
    }
    return cands;
  }

  // ---- expressions: { s, c } (c: a const-expression) ----
  leaf(t, ctx, mode) {
    const r = this.r;
    const reads = this.reads(t, ctx, mode);
    if (reads.length && (mode === RT || r.chance(0.75))) {
      const [v, steps] = r.pick(reads);
      return { s: this.emitPath(v, steps, ctx, mode), c: !v.rt };
    }
    if (mode !== RT) return { s: this.lit(t), c: true };
    return this.rtFallback(t, ctx);
  }
  inRead(ctx) {
    if (this.r.chance(0.5) || this.ixDepth >= this.ixMax) return `in[${this.r.int(this.nin)}]`;
    this.ixDepth++;
    try { return `in[(${this.expr(U32, ctx, 1, 0).s} % ${this.nin}u)]`; } finally { this.ixDepth--; }
  }
  rtFallback(t, ctx) {
    const r = this.r;
    const u = () => this.inRead(ctx);
    if (t.k === 's') {
      if (t.s === 'u32') return { s: u(), c: false };
      if (t.s === 'i32') return { s: r.chance(0.5) ? `i32(${u()})` : `bitcast<i32>(${u()})`, c: false };
      if (t.s === 'f32') return { s: `f32(${u()} & 0xffu)`, c: false };
      return { s: `(${u()} > 0x7fffffffu)`, c: false };
    }
    return this.construct(t, ctx, 1, RT);
  }
  // a value of composite type t built from parts
  construct(t, ctx, d, mode) {
    const r = this.r;
    const parts = [];
    const n = t.k === 'v' ? t.n : t.k === 'm' ? t.c : t.k === 'a' ? t.n : t.fields.length;
    const et = i => (t.k === 'v' ? t.e : t.k === 'm' ? t.col : t.k === 'a' ? t.e : t.fields[i].t);
    const rti = mode === RT ? r.int(n) : -1;
    let c = true;
    if (t.k === 'v' && mode !== RT && r.chance(0.25)) { // splat
      const e = ctx ? this.expr(t.e, ctx, d - 1, mode) : { s: this.lit(t.e), c: true };
      return { s: `${t.s}(${e.s})`, c: e.c };
    }
    if (t.k === 'v' && t.n >= 3 && ctx && r.chance(0.3)) { // vec3(vec2, s)
      const first = r.chance(0.5);
      const a = this.expr(vecT(2, t.e), ctx, d - 1, mode === RT && first ? RT : mode === CONST ? CONST : 0);
      const rest = [];
      for (let i = 2; i < t.n; i++) rest.push(this.expr(t.e, ctx, d - 1, mode === RT && !first && i === 2 ? RT : mode === CONST ? CONST : 0));
      const all = first ? [a, ...rest] : [...rest, a];
      return { s: `${t.s}(${all.map(x => x.s).join(', ')})`, c: all.every(x => x.c) };
    }
    for (let i = 0; i < n; i++) {
      const m = i === rti ? RT : mode === CONST ? CONST : 0;
      const e = ctx ? this.expr(et(i), ctx, d - 1, m) : { s: this.lit(et(i)), c: true };
      c &&= e.c;
      parts.push(e.s);
    }
    return { s: `${t.s}(${parts.join(', ')})`, c };
  }

  expr(t, ctx, d, mode = 0) {
    const r = this.r;
    if (d <= 0 || r.chance(0.28)) return this.leaf(t, ctx, mode);
    let ops = this.opsFor(t, ctx);
    if (mode === CONST) ops = ops.filter(o => !o.unsafe && !o.rtOnly);
    if (!ops.length) return this.leaf(t, ctx, mode);
    return this.apply(r.wpick(ops.map(o => [o.w ?? 1, o])), ctx, d, mode);
  }
  // op: { args: [type | {raw} | {t, rt: true}], f(...s), unsafe, w }
  apply(op, ctx, d, mode) {
    const r = this.r;
    const exprIdx = op.args.map((a, i) => (a.raw === undefined && !a.rt ? i : -1)).filter(i => i >= 0);
    let rtIdx = -1;
    if (op.rtArg !== undefined && mode !== CONST) rtIdx = op.rtArg;
    else if ((mode === RT || (op.unsafe && mode !== CONST)) && exprIdx.length) rtIdx = r.pick(exprIdx);
    const parts = op.args.map((a, i) => {
      if (a.raw !== undefined) return { s: a.raw, c: true };
      if (a.rt) return this.expr(a.t, ctx, d - 1, RT);
      return this.expr(a, ctx, d - 1, i === rtIdx ? RT : mode === CONST ? CONST : 0);
    });
    return { s: op.f(...parts.map(p => p.s)), c: !op.rtOnly && parts.every(p => p.c) };
  }

  opsFor(t, ctx) {
    const r = this.r, ops = [];
    const add = (w, args, f, extra = {}) => ops.push({ w, args, f, ...extra });
    const bin = o => (a, b) => `(${a} ${o} ${b})`;
    const call = n => (...a) => `${n}(${a.join(', ')})`;
    const vecOf = (n, e) => (t.k === 'v' ? vecT(t.n, e) : e);
    const e = elemOf(t);
    // user functions returning t
    if (this.on('call')) {
      for (const f of this.funcs) {
        if (f.ret && same(f.ret, t) && ctx.loopDepth + f.loopDepth <= this.maxLoop) {
          const args = this.callArgs(f, ctx);
          if (args) add(2, [], () => `${f.name}(${args.map(a => (typeof a === 'string' ? a : this.expr(a, ctx, 2, 0).s)).join(', ')})`, { rtOnly: true });
        }
      }
    }
    if (t.k === 's' || t.k === 'v') {
      // component or swizzle of a wider vector expression
      {
        const n = r.range(2, 4), src = vecT(n, e);
        const k = t.k === 'v' ? t.n : 1;
        const sw = Array.from({ length: k }, () => LET[r.int(n)]).join('');
        add(1, [src], a => `${a}.${sw}`);
      }
      add(0.5, [t, t, t.k === 'v' && r.chance(0.5) ? vecT(t.n, BOOL) : BOOL], call('select'));
    }
    if (t.k === 's' || t.k === 'v') {
      if (e.int) {
        const V = x => vecOf(0, x);
        add(2, [t, t], bin('+'), { unsafe: true });
        add(2, [t, t], bin('-'), { unsafe: true });
        add(2, [t, t], bin('*'), { unsafe: true });
        if (t.k === 'v') add(1, [t, e], bin(r.pick(['+', '*', '-'])), { unsafe: true });
        if (this.on('divmod')) {
          add(1.5, [t, t], bin('/'), { rtArg: 1, unsafe: true });
          add(1.5, [t, t], bin('%'), { rtArg: 1, unsafe: true });
        }
        add(1.5, [t, t], bin('&'));
        add(1.5, [t, t], bin('|'));
        add(1.5, [t, t], bin('^'));
        const mask = t.k === 'v' ? `${V(U32).s}(31u)` : '31u';
        add(1, [t, V(U32)], (a, b) => `(${a} << (${b} & ${mask}))`, { unsafe: true });
        add(1, [t, V(U32)], (a, b) => `(${a} >> (${b} & ${mask}))`);
        add(0.7, [t], a => `(~${a})`);
        if (e.signed) add(0.7, [t], a => `(-(${a}))`, { unsafe: true });
        add(0.7, [t], call('abs'), { unsafe: e.signed });
        add(1, [t, t], call(r.pick(['min', 'max'])));
        const lo = e.signed ? r.range(-20, 5) : r.range(0, 5), hi = lo + r.range(0, 30);
        const sfx = e.signed ? 'i' : 'u';
        const bound = x => (t.k === 'v' ? `${t.s}(${x}${sfx})` : `${x}${sfx}`);
        add(0.5, [t, { raw: bound(lo) }, { raw: bound(hi) }], call('clamp'));
        for (const b of ['countOneBits', 'reverseBits', 'firstLeadingBit', 'firstTrailingBit', 'countLeadingZeros', 'countTrailingZeros'])
          add(0.25, [t], call(b));
        const o = r.range(0, 31), c = r.range(0, 32 - o);
        add(0.4, [t, { raw: `${o}u` }, { raw: `${c}u` }], call('extractBits'));
        add(0.4, [t, t, { raw: `${o}u` }, { raw: `${c}u` }], call('insertBits'));
        add(0.2, [t, { t: U32, rt: true }, { t: U32, rt: true }], (a, b, c2) => `extractBits(${a}, ${b}, ${c2})`, { rtOnly: true });
        add(0.2, [t, t, { t: U32, rt: true }, { t: U32, rt: true }], (a, b, c2, d2) => `insertBits(${a}, ${b}, ${c2}, ${d2})`, { rtOnly: true });
        if (e.signed) add(0.3, [t], call('sign'));
        // run-time values of the edge cases: 0, all ones (-1), INT_MIN
        const z = t.k === 'v' ? `${t.s}(0${sfx})` : `0${sfx}`;
        const ones = t.k === 'v' ? `${t.s}(${e.signed ? '-1i' : '0xffffffffu'})` : e.signed ? '-1i' : '0xffffffffu';
        add(0.5, [t], a => `(${a} & ${z})`, { rtArg: 0 });
        add(0.5, [t], a => `(${a} | ${ones})`, { rtArg: 0 });
        if (e.signed) add(0.3, [t], a => `((${a} & ${z}) | ${t.k === 'v' ? `${t.s}(i32(-2147483648))` : 'i32(-2147483648)'})`, { rtArg: 0 });
        // conversions
        const other = e.signed ? U32 : I32;
        add(1, [V(other)], a => `${t.s}(${a})`);
        add(0.5, [V(other)], a => `bitcast<${t.s}>(${a})`);
        if (this.on('float')) {
          add(0.6, [V(F32)], a => `${t.s}(${a})`, { unsafe: true });
          add(0.4, [V(F32)], a => `bitcast<${t.s}>(${a})`);
        }
        add(0.3, [V(BOOL)], a => `${t.s}(${a})`);
        if (t.k === 's') {
          const n = r.range(2, 4);
          add(0.5, [vecT(n, e), vecT(n, e)], call('dot'), { unsafe: true });
          if (!e.signed) {
            add(1.5, [], () => this.inRead(ctx), { rtOnly: true });
            if (this.on('pack') && this.on('float')) {
              add(0.2, [vecT(4, F32)], call(r.pick(['pack4x8snorm', 'pack4x8unorm'])));
              add(0.2, [vecT(2, F32)], call(r.pick(['pack2x16snorm', 'pack2x16unorm'])));
              add(0.1, [vecT(2, F32)], call('pack2x16float'), { unsafe: true });
            }
          }
        }
      } else if (e.float) {
        add(2, [t, t], bin('+'));
        add(2, [t, t], bin('-'));
        add(2, [t, t], bin('*'));
        if (t.k === 'v') add(1, [t, F32], bin(r.pick(['+', '*', '-'])));
        if (t.k === 'v') add(1, [F32, t], bin(r.pick(['*', '-'])));
        if (this.on('fdiv')) {
          add(1, [t, t], (a, b) => `(${a} / (abs(${b}) + 1.0f))`);
        }
        if (this.on('fdivraw')) {
          add(0.4, [t, t], bin('/'), { rtArg: 1, unsafe: true });
          add(0.3, [t, t], bin('%'), { rtArg: 1, unsafe: true });
        }
        add(0.7, [t], a => `(-(${a}))`);
        for (const b of ['abs', 'floor', 'ceil', 'round', 'trunc', 'fract', 'sign', 'saturate'])
          add(0.2, [t], call(b));
        add(0.5, [t], a => `sqrt(abs(${a}))`);
        add(1, [t, t], call(r.pick(['min', 'max'])));
        const lo = r.range(-20, 4) / 2, hi = lo + r.range(0, 20) / 2;
        const fl = x => (Number.isInteger(x) ? `${x}.0f` : `${x}f`);
        const bound = x => (t.k === 'v' ? `${t.s}(${fl(x)})` : fl(x));
        add(0.5, [t, { raw: bound(lo) }, { raw: bound(hi) }], call('clamp'));
        add(0.4, [t, t, t], call('mix'));
        add(0.3, [t, t, t], call('fma'));
        add(0.3, [t, t], call('step'));
        add(0.2, [t], a => `modf(${a}).fract`);
        add(0.2, [t], a => `frexp(${a}).fract`);
        add(0.2, [t, vecOf(0, I32)], (a, b) => `ldexp(${a}, clamp(${b}, ${t.k === 'v' ? `${vecOf(0, I32).s}(-12i), ${vecOf(0, I32).s}(12i)` : '-12i, 12i'}))`);
        add(0.2, [t], call('quantizeToF16'), { unsafe: true });
        add(1, [vecOf(0, I32)], a => `${t.s}(${a})`);
        add(1, [vecOf(0, U32)], a => `${t.s}(${a})`);
        add(0.3, [vecOf(0, BOOL)], a => `${t.s}(${a})`);
        if (this.on('bitcastf'))
          add(0.5, [vecOf(0, U32)], a => (t.k === 'v'
            ? `bitcast<${t.s}>((${a} & ${vecOf(0, U32).s}(0x87ffffffu)) | ${vecOf(0, U32).s}(0x3c000000u))`
            : `bitcast<f32>((${a} & 0x87ffffffu) | 0x3c000000u)`));
        if (this.on('wildfloat')) add(0.5, [vecOf(0, U32)], a => `bitcast<${t.s}>(${a})`);
        if (this.on('transc')) {
          for (const b of ['sin', 'cos', 'tanh', 'atan', 'exp2'])
            add(0.1, [t], a => `${b}(clamp(${a}, ${bound(-10)}, ${bound(10)}))`, { unsafe: true });
          add(0.1, [t], a => `log2(abs(${a}) + ${bound(1)})`, { unsafe: true });
          add(0.1, [t], a => `exp(clamp(${a}, ${bound(-10)}, ${bound(10)}))`, { unsafe: true });
          add(0.1, [t, t], (a, b) => `pow(abs(${a}) + ${bound(0.5)}, clamp(${b}, ${bound(-4)}, ${bound(4)}))`, { unsafe: true });
          add(0.1, [t], a => `inverseSqrt(abs(${a}) + ${bound(1)})`, { unsafe: true });
          add(0.1, [t, t], call('atan2'), { unsafe: true });
        }
        if (t.k === 's') {
          const n = r.range(2, 4);
          add(0.5, [vecT(n, F32), vecT(n, F32)], call('dot'));
          add(0.3, [vecT(n, F32)], call('length'));
          add(0.2, [vecT(n, F32), vecT(n, F32)], call('distance'));
          if (this.on('matrix')) { const k = r.range(2, 4); add(0.3, [matT(k, k)], call('determinant')); }
          if (this.on('pack')) {
            add(0.2, [U32], a => `${r.pick(['unpack4x8snorm', 'unpack4x8unorm'])}(${a}).${LET[r.int(4)]}`);
            add(0.2, [U32], a => `${r.pick(['unpack2x16snorm', 'unpack2x16unorm'])}(${a}).${LET[r.int(2)]}`);
            add(0.1, [U32], a => `unpack2x16float(${a} & 0x3fff3fffu).${LET[r.int(2)]}`);
          }
        } else {
          if (t.n === 3) add(0.3, [t, t], call('cross'));
          if (this.on('matrix')) {
            const k = r.range(2, 4);
            add(0.6, [matT(k, t.n), vecT(k, F32)], bin('*'));
            add(0.4, [vecT(k, F32), matT(t.n, k)], bin('*'));
          }
          if (this.on('pack') && t.n === 4) add(0.2, [U32], call(r.pick(['unpack4x8snorm', 'unpack4x8unorm'])));
          if (this.on('pack') && t.n === 2) add(0.2, [U32], call(r.pick(['unpack2x16snorm', 'unpack2x16unorm'])));
        }
      } else { // bool
        const ct = r.pick(this.on('float') ? [I32, U32, F32] : [I32, U32]);
        const cmp = r.pick(['<', '<=', '>', '>=', '==', '!=']);
        if (t.k === 's') {
          add(3, [ct, ct], bin(cmp));
          const n = r.range(2, 4);
          add(0.7, [vecT(n, ct), vecT(n, ct)], (a, b) => `${r.pick(['all', 'any'])}(${a} ${cmp} ${b})`);
          add(1, [t, t], bin(r.pick(['&&', '||'])));
        } else add(2, [vecT(t.n, ct), vecT(t.n, ct)], bin(cmp));
        add(1, [t], a => `(!${a})`);
        add(0.5, [t, t], bin(r.pick(['&', '|'])));
        if (t.k === 's') add(0.3, [r.pick([I32, U32, F32])], a => `bool(${a})`);
      }
      if (t.k === 'v') ops.push({ w: 1.5, run: (c, d, m) => this.construct(t, c, d, m) });
    } else if (t.k === 'm') {
      add(1, [t, t], bin(r.pick(['+', '-'])));
      add(1, [t, F32], bin('*'));
      const k = r.range(2, 4);
      add(1, [matT(k, t.r), matT(t.c, k)], bin('*'));
      add(0.7, [matT(t.r, t.c)], call('transpose'));
      ops.push({ w: 1.5, run: (c, d, m) => this.construct(t, c, d, m) });
    } else {
      ops.push({ w: 1, run: (c, d, m) => this.construct(t, c, d, m) });
    }
    return ops;
  }

  // arguments for a call of f: strings for pointers, types for values; null if impossible
  callArgs(f, ctx) {
    const used = new Set();
    const args = [];
    for (const p of f.params) {
      if (!p.ptr) { args.push(p.t); continue; }
      const cands = this.visible(ctx).filter(v => same(v.t, p.t) && !used.has(v.root) &&
        (v.ptr ? v.ptr === p.ptr : (p.ptr === 'function' ? v.local && v.mut : v.privB)) &&
        (p.ptr !== 'private' || v.privB) && (v.ptr || v.mut));
      if (!cands.length) return null;
      const v = this.r.pick(cands);
      used.add(v.root);
      args.push(v.ptr ? v.name : `&${v.name}`);
    }
    return args;
  }
}

// apply() for constructor ops
const origApply = Gen.prototype.apply;
Gen.prototype.apply = function (op, ctx, d, mode) {
  if (op.run) return op.run(ctx, d, mode);
  return origApply.call(this, op, ctx, d, mode);
};

// ---- statements ----
Object.assign(Gen.prototype, {
  randType(ctx, simple = false) {
    const r = this.r;
    const sc = () => r.wpick([[35, I32], [35, U32], [this.on('float') ? 20 : 0, F32], [10, BOOL]]);
    const choices = [[55, 'scalar'], [25, 'vec']];
    if (!simple) {
      if (this.on('array')) choices.push([8, 'array']);
      if (this.on('struct') && this.structs.length) choices.push([6, 'struct']);
      if (this.on('matrix') && this.on('float')) choices.push([6, 'mat']);
    }
    switch (r.wpick(choices.map(([w, v]) => [w, v]))) {
      case 'scalar': return sc();
      case 'vec': return vecT(r.range(2, 4), sc());
      case 'array': return arrT(r.chance(0.7) ? sc() : vecT(r.range(2, 4), sc()), r.range(2, 6));
      case 'struct': return r.pick(this.structs);
      default: return matT(r.range(2, 4), r.range(2, 4));
    }
  },
  declare(ctx, v) { ctx.scopes[ctx.scopes.length - 1].push(v); },
  // u32 digest of the value of an access path
  digest(s, t) {
    if (t.k === 's') {
      if (t.s === 'u32') return s;
      if (t.s === 'bool') return `select(0u, 1u, ${s})`;
      return `bitcast<u32>(${s})`;
    }
    const n = t.k === 'v' ? t.n : t.k === 'm' ? t.c : t.k === 'a' ? t.n : t.fields.length;
    const parts = [];
    for (let i = 0; i < n; i++) {
      if (t.k === 'v') parts.push(this.digest(`${s}.${LET[i]}`, t.e));
      else if (t.k === 'm') parts.push(this.digest(`${s}[${i}]`, t.col));
      else if (t.k === 'a') parts.push(this.digest(`${s}[${i}]`, t.e));
      else parts.push(this.digest(`${s}.${t.fields[i].n}`, t.fields[i].t));
    }
    return parts.reduce((acc, p) => `((${acc} * 0x9e3779b1u) ^ ${p})`);
  },
  bool(ctx) { return this.expr(BOOL, ctx, this.r.range(1, 3), 0).s; },

  block(ctx, ind, n, kind = {}) {
    const sc = [];
    // a loop body's declarations are in scope in its continuing block too
    if (kind.loopDepth !== undefined) sc.loopBody = true;
    ctx.scopes.push(sc);
    const saved = { ...ctx };
    Object.assign(ctx, kind);
    const lines = [];
    for (let i = 0; i < n && ctx.budget > 0; i++) lines.push(...this.stmt(ctx, ind));
    if (kind.tail) lines.push(...kind.tail());
    Object.assign(ctx, { inLoop: saved.inLoop, inSwitch: saved.inSwitch, loopDepth: saved.loopDepth, depth: saved.depth });
    ctx.scopes.pop();
    return lines;
  },

  stmt(ctx, ind) {
    const r = this.r;
    ctx.budget--;
    const I = '  '.repeat(ind);
    const nest = ctx.depth < 3;
    const choices = [[5, 'let'], [4, 'var'], [7, 'assign'], [1, 'incdec']];
    if (ctx.isMain) choices.push([4, 'out']);
    if (ctx.isMain && this.natom) choices.push([1.5, 'satomic']);
    if (nest) choices.push([4, 'if'], [1, 'block']);
    if (nest && this.on('switch')) choices.push([2, 'switch']);
    if (nest && this.on('loop') && ctx.loopDepth < this.maxLoop) choices.push([3, 'loop']);
    if (ctx.inLoop) choices.push([2, 'brk']);
    if (!ctx.isMain && ctx.fn) choices.push([1.5, 'ret']);
    if (this.on('call') && this.funcs.length) choices.push([2, 'call']);
    if (this.on('ptr')) choices.push([0.7, 'ptrlet']);
    if (this.on('constexpr')) choices.push([0.7, 'const']);
    switch (r.wpick(choices)) {
      case 'let': {
        const t = this.randType(ctx);
        const name = this.localName(ctx);
        const e = this.expr(t, ctx, r.range(1, 4));
        this.declare(ctx, { name, t, mut: false, rt: true, root: name });
        return [`${I}let ${name}${r.chance(0.3) ? `: ${t.s}` : ''} = ${e.s};`];
      }
      case 'var': {
        const t = this.randType(ctx);
        const name = this.localName(ctx);
        const line = r.chance(0.15) ? `${I}var ${name}: ${t.s};` : `${I}var ${name}: ${t.s} = ${this.expr(t, ctx, r.range(1, 4)).s};`;
        this.declare(ctx, { name, t, mut: true, rt: true, root: name, local: true });
        return [line];
      }
      case 'const': {
        const t = this.randType(ctx, true);
        const name = this.id('c');
        const e = this.expr(t, ctx, r.range(1, 3), CONST);
        this.declare(ctx, { name, t, mut: false, rt: false, root: name });
        return [`${I}const ${name}: ${t.s} = ${e.s};`];
      }
      case 'ptrlet': {
        const cands = this.visible(ctx).filter(v => v.mut && !v.ptr && (v.local || v.privA || (ctx.isMain && v.privB)));
        if (!cands.length) return [];
        const v = r.pick(cands);
        const name = this.id('p');
        this.declare(ctx, { name, t: v.t, mut: true, rt: true, ptr: v.local ? 'function' : 'private', root: v.root, local: false, privA: v.privA, privB: v.privB });
        return [`${I}let ${name} = &${v.name};`];
      }
      case 'assign': {
        const cands = this.lvalues(null, ctx);
        if (!cands.length) return [];
        const [v, p] = r.pick(cands);
        const lhs = this.emitPath(v, p.steps, ctx, 0);
        const t = p.t, e = elemOf(t);
        if ((t.k === 's' || t.k === 'v') && e.s !== 'bool' && r.chance(0.4)) {
          const ops = e.int ? ['+=', '-=', '*=', '&=', '|=', '^=', '/=', '%=', '<<=', '>>='] : ['+=', '-=', '*='];
          const op = r.pick(this.on('divmod') ? ops : ops.filter(o => o !== '/=' && o !== '%='));
          if (op === '<<=' || op === '>>=') {
            const ut = t.k === 'v' ? vecT(t.n, U32) : U32;
            const m = t.k === 'v' ? `${ut.s}(31u)` : '31u';
            return [`${I}${lhs} ${op} (${this.expr(ut, ctx, 2).s} & ${m});`];
          }
          const rhs = this.expr(t, ctx, r.range(1, 3), op === '/=' || op === '%=' ? RT : 0);
          return [`${I}${lhs} ${op} ${rhs.s};`];
        }
        return [`${I}${lhs} = ${this.expr(t, ctx, r.range(1, 4)).s};`];
      }
      case 'incdec': {
        const cands = this.lvalues(null, ctx).filter(([, p]) => p.t.k === 's' && p.t.int);
        if (!cands.length) return [];
        const [v, p] = r.pick(cands);
        return [`${I}${this.emitPath(v, p.steps, ctx, 0)}${r.pick(['++', '--'])};`];
      }
      case 'out': {
        const k = r.chance(0.85) ? `${r.int(this.K - 2)}u` : `(${this.expr(U32, ctx, 1).s} % ${this.K - 2}u)`;
        const t = this.randType(ctx);
        const e = this.expr(t, ctx, r.range(1, 4));
        const tmp = this.id('o');
        if (t.k === 's') return [`${I}${this.outRef(`base + ${k}`)} = ${this.digest(`(${e.s})`, t)};`];
        return [`${I}{`, `${I}  let ${tmp} = ${e.s};`, `${I}  ${this.outRef(`base + ${k}`)} = ${this.digest(tmp, t)};`, `${I}}`];
      }
      case 'satomic': {
        const j = r.int(this.natom);
        return [`${I}${this.atomOps[j]}(&out.a[${j}], ${this.expr(U32, ctx, r.range(1, 3)).s});`];
      }
      case 'if': {
        const lines = [`${I}if (${this.bool(ctx)}) {`];
        ctx.depth++;
        lines.push(...this.block(ctx, ind + 1, r.range(1, 3)));
        let k = r.int(3);
        while (k-- > 0) {
          if (k > 0 || r.chance(0.5)) lines.push(`${I}} else if (${this.bool(ctx)}) {`);
          else { lines.push(`${I}} else {`); k = 0; }
          lines.push(...this.block(ctx, ind + 1, r.range(1, 3)));
        }
        ctx.depth--;
        lines.push(`${I}}`);
        return lines;
      }
      case 'block': {
        ctx.depth++;
        const body = this.block(ctx, ind + 1, r.range(1, 3));
        ctx.depth--;
        return [`${I}{`, ...body, `${I}}`];
      }
      case 'switch': {
        const st = r.chance(0.5) ? I32 : U32;
        const sel = this.expr(st, ctx, r.range(1, 3), RT).s;
        const pool = r.shuffle(Array.from({ length: 20 }, (_, i) => (st === I32 ? i - 4 : i)));
        const sfx = st === I32 ? 'i' : 'u';
        const ncl = r.range(1, 4);
        const defAt = r.int(ncl + 1);
        const lines = [`${I}switch (${sel}) {`];
        ctx.depth++;
        for (let c = 0; c <= ncl; c++) {
          let head;
          if (c === defAt && c === ncl) head = 'default';
          else {
            const sels = [];
            for (let k = r.range(1, 3); k > 0 && pool.length; k--) { const v = pool.pop(); sels.push(v < 0 ? `-${-v}${sfx}` : `${v}${sfx}`); }
            if (c === defAt) sels.splice(r.int(sels.length + 1), 0, 'default');
            head = `case ${sels.join(', ')}`;
          }
          lines.push(`${I}  ${head}: {`);
          // the closing break sees the clause's declarations (they may hide outer names)
          const tail = () => (r.chance(0.2) ? [`${I}    if (${this.bool(ctx)}) { break; }`] : []);
          lines.push(...this.block(ctx, ind + 2, r.range(0, 2), { inSwitch: true, tail }));
          lines.push(`${I}  }`);
        }
        ctx.depth--;
        lines.push(`${I}}`);
        return lines;
      }
      case 'loop': {
        const n = r.range(1, 6);
        const lc = this.id('lc');
        const body = kind => {
          ctx.depth++;
          ctx.scopes.push([{ name: lc, t: kind === 'for' ? I32 : U32, mut: false, rt: true, root: lc }]);
          const b = this.block(ctx, ind + 1, r.range(1, 4), { inLoop: true, inSwitch: false, loopDepth: ctx.loopDepth + 1 });
          ctx.scopes.pop();
          ctx.depth--;
          return b;
        };
        const form = r.pick(['for', 'while', 'loop', 'loop2']);
        if (form === 'for') {
          return [`${I}for (var ${lc} = 0i; ${lc} < ${n}i; ${lc}++) {`, ...body('for'), `${I}}`];
        }
        // the counter is declared outside the loop, so it is in scope after it: keep it out of the scope list
        if (form === 'while')
          return [`${I}var ${lc} = 0u;`, `${I}while (${lc} < ${n}u) {`, `${I}  ${lc}++;`, ...body(), `${I}}`];
        if (form === 'loop')
          return [`${I}var ${lc} = 0u;`, `${I}loop {`, `${I}  ${lc}++;`, ...body(), `${I}  continuing {`,
            ...(r.chance(0.5) ? this.continuing(ctx, ind + 2) : []), `${I}    break if ${lc} >= ${n}u;`, `${I}  }`, `${I}}`];
        return [`${I}var ${lc} = 0u;`, `${I}loop {`, `${I}  if (${lc} >= ${n}u) { break; }`, `${I}  ${lc}++;`, ...body(), `${I}}`];
      }
      case 'brk': {
        const what = ctx.inSwitch ? 'break' : r.pick(['break', 'continue']);
        return [`${I}if (${this.bool(ctx)}) { ${what}; }`];
      }
      case 'ret': {
        const f = ctx.fn;
        return [`${I}if (${this.bool(ctx)}) { return${f.ret ? ' ' + this.expr(f.ret, ctx, r.range(1, 3)).s : ''}; }`];
      }
      case 'call': {
        const fs = this.funcs.filter(f => ctx.loopDepth + f.loopDepth <= this.maxLoop);
        if (!fs.length) return [];
        const f = r.pick(fs);
        const args = this.callArgs(f, ctx);
        if (!args) return [];
        const a = args.map(x => (typeof x === 'string' ? x : this.expr(x, ctx, 2).s)).join(', ');
        if (f.ret) {
          if (r.chance(0.5)) {
            const name = this.id('v');
            this.declare(ctx, { name, t: f.ret, mut: false, rt: true, root: name });
            return [`${I}let ${name} = ${f.name}(${a});`];
          }
          return [`${I}_ = ${f.name}(${a});`];
        }
        return [`${I}${f.name}(${a});`];
      }
    }
    return [];
  },
  continuing(ctx, ind) {
    const cands = this.lvalues(null, ctx).filter(([, p]) => p.t.k === 's' && p.t.int);
    if (!cands.length) return [];
    const [v, p] = this.r.pick(cands);
    return [`${'  '.repeat(ind)}${this.emitPath(v, p.steps, ctx, 0)} += ${this.expr(p.t, ctx, 2).s};`];
  },
  outRef(i) { return this.natom ? `out.v[${i}]` : `out[${i}]`; },
});

// ---- the module ----
Object.assign(Gen.prototype, {
  structsGen() {
    const r = this.r;
    const ns = this.on('struct') ? r.int(3) : 0;
    for (let i = 0; i < ns; i++) {
      const fields = [];
      const nf = r.range(1, 4);
      for (let k = 0; k < nf; k++) {
        const t = r.chance(0.2) && this.structs.length ? r.pick(this.structs) : this.randType(null, r.chance(0.6));
        fields.push({ n: `f${k}`, t: t.k === 'st' || t.k === 'a' || t.k === 'm' ? t : t });
      }
      const st = { k: 'st', s: `S${i}`, fields };
      this.decls.push(`struct S${i} {`, ...fields.map(f => `  ${f.n}: ${f.t.s},`), `}`);
      this.structs.push(st);
    }
  },
  globalsGen() {
    const r = this.r;
    const ctx = { scopes: [], fn: null, loopDepth: 0 };
    for (let i = r.int(3); i > 0; i--) {
      if (!this.on('constexpr')) break;
      const t = this.randType(ctx);
      const name = this.id('K');
      const e = this.expr(t, ctx, r.range(0, 3), CONST);
      this.decls.push(`const ${name}: ${t.s} = ${e.s};`);
      this.globals.push({ name, t, mut: false, rt: false, root: name, fnOk: true });
    }
    for (let i = r.int(4); i > 0; i--) {
      const t = this.randType(ctx);
      const name = this.id('g');
      const B = this.on('ptr') && r.chance(0.4);
      if (r.chance(0.3)) this.decls.push(`var<private> ${name}: ${t.s};`);
      else this.decls.push(`var<private> ${name}: ${t.s} = ${this.expr(t, ctx, r.range(0, 2), CONST).s};`);
      this.globals.push({ name, t, mut: true, rt: true, root: name, fnOk: !B, privA: !B, privB: B });
    }
  },
  funcGen() {
    const r = this.r;
    const name = this.id('fn');
    const params = [];
    for (let i = r.int(4); i > 0; i--) {
      const t = this.randType(null);
      let ptr = null;
      if (this.on('ptr') && r.chance(0.3)) ptr = r.chance(0.6) ? 'function' : 'private';
      params.push({ name: this.id('a'), t, ptr });
    }
    const ret = r.chance(params.some(p => p.ptr) ? 0.6 : 0.85) ? this.randType(null) : null;
    const f = { name, params, ret, loopDepth: 0 };
    const ctx = { scopes: [params.map(p => ({ name: p.name, t: p.t, mut: !!p.ptr, rt: true, ptr: p.ptr, root: p.name, privB: p.ptr === 'private' }))],
      fn: f, isMain: false, loopDepth: 0, depth: 1, budget: r.range(3, 10), inLoop: false, inSwitch: false };
    // track how deep loops go inside (for the call budget)
    const realStmt = this.stmt;
    let maxLd = 0;
    this.stmt = function (c, ind) { if (c.loopDepth > maxLd) maxLd = c.loopDepth; return realStmt.call(this, c, ind); };
    this.maxLoop = 1; // loops in functions nest one deep
    const lines = [];
    while (ctx.budget > 0) lines.push(...this.stmt(ctx, 1));
    this.stmt = realStmt;
    this.maxLoop = 2;
    const loopy = l => /\b(for|while|loop) [({]|\bloop \{/.test(l);
    f.loopDepth = maxLd > 0 || lines.some(l => loopy(l) || this.funcs.some(g => g.loopDepth && l.includes(`${g.name}(`))) ? 1 : 0;
    if (ret) lines.push(`  return ${this.expr(ret, ctx, r.range(1, 3)).s};`);
    const ps = params.map(p => `${p.name}: ${p.ptr ? `ptr<${p.ptr}, ${p.t.s}>` : p.t.s}`).join(', ');
    this.decls.push(`fn ${name}(${ps})${ret ? ' -> ' + ret.s : ''} {`, ...lines, `}`);
    this.funcs.push(f);
  },
  program() {
    const r = this.r;
    const wg = r.pick([[4, 1, 1], [8, 2, 1], [64, 1, 1], [2, 2, 2], [16, 1, 1], [1, 1, 1], [32, 1, 1], [3, 3, 1], [8, 1, 1]]);
    const wgs = wg[0] * wg[1] * wg[2];
    let disp = r.pick([[1, 1, 1], [2, 1, 1], [3, 1, 1], [2, 2, 1], [1, 2, 2], [4, 1, 1]]);
    while (wgs * disp[0] * disp[1] * disp[2] > 128) disp = [1, 1, 1];
    const ninv = wgs * disp[0] * disp[1] * disp[2];
    this.K = 8;
    this.nin = r.pick([16, 32, 64]);
    this.natom = this.on('atomic') && r.chance(0.4) ? r.range(1, 4) : 0;
    this.atomOps = Array.from({ length: this.natom }, () => r.pick(['atomicAdd', 'atomicSub', 'atomicOr', 'atomicMax', 'atomicXor', 'atomicMin', 'atomicAnd']));
    const nv = ninv * this.K;
    this.structsGen();
    this.globalsGen();
    const nf = this.on('call') ? r.int(4) : 0;
    for (let i = 0; i < nf; i++) this.funcGen();

    // main
    const ctx = { scopes: [[]], fn: { ret: null }, isMain: true, loopDepth: 0, depth: 0, budget: 0, inLoop: false, inSwitch: false };
    const top = ctx.scopes[0];
    for (const b of [['lid', vecT(3, U32)], ['gid', vecT(3, U32)], ['wid', vecT(3, U32)], ['lidx', U32]])
      top.push({ name: b[0], t: b[1], mut: false, rt: true, root: b[0] });
    const body = [];
    body.push(`  let inv = (wid.x + wid.y * ${disp[0]}u + wid.z * ${disp[0] * disp[1]}u) * ${wgs}u + lidx;`);
    body.push(`  let base = inv * ${this.K}u;`);
    top.push({ name: 'inv', t: U32, mut: false, rt: true, root: 'inv' });
    const wgDecls = [];
    const nseg = r.range(1, 3);
    for (let s = 0; s < nseg; s++) {
      ctx.budget = r.range(3, 12);
      while (ctx.budget > 0) body.push(...this.stmt(ctx, 1));
      if (s === nseg - 1 || !this.on('workgroup')) continue;
      // a workgroup phase at the top level of main
      if (r.chance(0.6)) {
        const t = r.pick(this.on('float') ? [U32, I32, F32, vecT(2, F32), vecT(4, U32)] : [U32, I32]);
        const w = this.id('wg');
        wgDecls.push(`var<workgroup> ${w}: array<${t.s}, ${wgs}>;`);
        body.push(`  ${w}[lidx] = ${this.expr(t, ctx, r.range(1, 3)).s};`);
        body.push(`  workgroupBarrier();`);
        const name = this.id('x');
        const idx = r.pick([`(lidx + ${r.range(1, 7)}u) % ${wgs}u`, `${wgs - 1}u - lidx`, `(lidx * ${r.pick([3, 5, 7])}u + 1u) % ${wgs}u`, `${r.int(wgs)}u`]);
        body.push(`  let ${name} = ${w}[${idx}];`);
        top.push({ name, t, mut: false, rt: true, root: name });
      } else {
        const t = r.pick([U32, I32]);
        const w = this.id('wa');
        wgDecls.push(`var<workgroup> ${w}: atomic<${t.s}>;`);
        const op = r.pick(['atomicAdd', 'atomicSub', 'atomicOr', 'atomicMax', 'atomicXor', 'atomicMin', 'atomicAnd']);
        if (op === 'atomicMin' || op === 'atomicAnd') {
          body.push(`  if (lidx == 0u) { atomicStore(&${w}, ${this.lit(t)}); }`);
          body.push(`  workgroupBarrier();`);
        }
        body.push(`  ${op}(&${w}, ${this.expr(t, ctx, r.range(1, 3)).s});`);
        body.push(`  workgroupBarrier();`);
        const name = this.id('x');
        body.push(`  let ${name} = atomicLoad(&${w});`);
        top.push({ name, t, mut: false, rt: true, root: name });
      }
    }
    // digests of everything main can see at the top level
    const vis = this.visible(ctx).filter(v => !v.ptr && v.rt && !['lid', 'gid', 'wid', 'lidx', 'inv'].includes(v.name));
    const halves = [[], []];
    vis.forEach((v, i) => halves[i % 2].push(v));
    halves.forEach((vs, h) => {
      const hn = `h${h}`;
      body.push(`  var ${hn} = ${h === 0 ? 'inv' : '0x2545f491u'};`);
      for (const v of vs) body.push(`  ${hn} = (${hn} * 0x01000193u) ^ ${this.digest(v.name, v.t)};`);
      body.push(`  ${this.outRef(`base + ${this.K - 2 + h}u`)} = ${hn};`);
    });

    const nout = nv + this.natom;
    const lines = [];
    const usesIn = usesInput([...this.decls, 'fn main() {', ...body, '}'].join('\n'));
    lines.push(`//! dispatch ${disp.join(' ')}`, `//! out ${nout}`);
    if (usesIn) lines.push(`//! in ${this.nin}`);
    if (this.natom) {
      lines.push(`struct Out {`, `  v: array<u32, ${nv}>,`, `  a: array<atomic<u32>, ${this.natom}>,`, `}`);
      lines.push(`@group(0) @binding(0) var<storage, read_write> out: Out;`);
    } else lines.push(`@group(0) @binding(0) var<storage, read_write> out: array<u32, ${nv}>;`);
    if ([...body, ...this.decls].some(l => /\bin\[/.test(l))) lines.push(`@group(0) @binding(1) var<storage, read> in: array<u32, ${this.nin}>;`);
    lines.push(...wgDecls, ...this.decls);
    lines.push(`@compute @workgroup_size(${wg.join(', ')})`);
    lines.push(`fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>,`);
    lines.push(`        @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lidx: u32) {`);
    lines.push(...body, `}`, '');
    return lines.join('\n');
  },
});

// whether the entry point reads "in" (itself or through the functions it
// calls): an unused binding is not in the auto layout, and binding it fails
export function usesInput(src) {
  const fns = new Map();
  let cur = null;
  for (const l of src.split('\n')) {
    const m = /^fn (\w+)\(/.exec(l);
    if (m) { cur = { name: m[1], text: '' }; fns.set(m[1], cur); continue; }
    if (cur) { if (l === '}') cur = null; else cur.text += l + '\n'; }
  }
  const seen = new Set(), todo = ['main'];
  while (todo.length) {
    const f = fns.get(todo.pop());
    if (!f || seen.has(f.name)) continue;
    seen.add(f.name);
    if (/\bin\[/.test(f.text)) return true;
    for (const g of fns.keys()) if (new RegExp(`\\b${g}\\(`).test(f.text)) todo.push(g);
  }
  return false;
}

// the deepest nesting of ( [ { in a program's text
export function nesting(src) {
  let d = 0, m = 0;
  for (const ch of src) {
    if (ch === '(' || ch === '[' || ch === '{') m = Math.max(m, ++d);
    else if (ch === ')' || ch === ']' || ch === '}') d--;
  }
  return m;
}

// Tint refuses a module nested deeper than its parser's limit of 128
// ("maximum parser recursive depth reached", seed 300290 at 127); WGSL
// implementations may have limits of their own, so a program nested deeper
// than NESTING_MAX is drawn again from the same seed with indices inside
// indices at most two deep. Programs within the bound are the ones the
// seed always gave.
export const NESTING_MAX = 64;
export function generate(seed, opts = {}) {
  const src = new Gen(seed, opts).program();
  if (nesting(src) <= NESTING_MAX) return src;
  return new Gen(seed, { ...opts, ixMax: 2 }).program();
}

// --off a,b / --on c parsing shared by the tools
export function featureOpts(args) {
  const off = new Set(DEFAULT_OFF);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--off') for (const f of args[++i].split(',')) off.add(f);
    else if (args[i] === '--on') for (const f of args[++i].split(',')) off.delete(f);
  }
  return { off: [...off] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const seed = Number(args.find(a => /^\d+$/.test(a)) ?? 1);
  process.stdout.write(generate(seed, featureOpts(args)));
}
