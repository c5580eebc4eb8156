// f16expr: how a WebGPU implementation evaluates WGSL's f16 operations and builtins, measured
// for the math layer's f16 profile choices (docs/profiles.md, "f16").  Runs on the peer
// harness's node + `webgpu` (Dawn) setup, the same way as its tests/wgslexpr.mjs:
//
//   cd PEER && VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json \
//       node /path/to/stex/tools/f16expr.mjs --peer . --out OUT_DIR   # lavapipe
//   cd PEER && node /path/to/stex/tools/f16expr.mjs --peer . --out OUT_DIR   # the default adapter
//
// PEER is the peer harness folder with its node_modules (npm install done).  The device must
// offer `shader-f16`.  Writes OUT_DIR/f16expr.tsv: comment lines (#), then one row per case,
// tab-separated: op, signature, source, inputs, output.  (A run stopped part way continues
// where it stopped when run again: see OUT_DIR/parts.)
//   signature  argument types '->' result types, as stex/math.def spells them
//   source     storage: the arguments read at run time from a storage buffer (u32 words,
//              bitcast), the results written back through bitcast
//   inputs     the argument bit patterns, comma-separated, vectors flattened: f16 as 4 hex
//              digits, 32-bit types as 8
//   output     the result bit patterns in the same spelling (frexp/modf: both members)
// Each (op, signature) group is one compute shader over all its inputs: one-argument f16
// functions over all 65,536 bit patterns, two- and three-argument ones over a grid.
import fs from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
const PEER = path.resolve(opt('--peer', '.'));
const OUT = opt('--out', 'results');
const ONLY = opt('--only', null); // a comma-separated list of ops, for quick runs
const { getGPU, scoped, emptyBuffer, readBuffer, bindGroup, adapterInfo, runtimeInfo } =
  await import(path.join(PEER, 'lib', 'gpu.mjs'));

// ------------------------------------------------------------------ inputs
function rng32(seed) { // mulberry32
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0);
  };
}
const ALL16 = Array.from({ length: 65536 }, (_, i) => i);
// f16 values for grids: zeros, subnormals, normals near the ends, one, small integers,
// infinities and NaNs of both signs, then random patterns
const SPECIAL16 = [0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400,
  0x0401, 0x7bff, 0xfbff, 0x7bfe, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x3800, 0xb800, 0x4000, 0xc000,
  0x4200, 0x4500, 0x4900, 0x3555, 0x2e66, 0x4248, 0x5640, 0x7800, 0x1000, 0x0800,
  0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7d23, 0x7fff];
function set16(n, seed) {
  // small sets: specials spread over the list, then random patterns
  const base = n >= 2 * SPECIAL16.length ? SPECIAL16
    : SPECIAL16.filter((_, i) => i % Math.ceil((2 * SPECIAL16.length) / n) === 0);
  const r = rng32(seed), s = new Set(base), out = [...base];
  while (out.length < n) { const v = r() & 0xffff; if (!s.has(v)) { s.add(v); out.push(v); } }
  return out;
}
const cross = (...sets) => sets.reduce((acc, s) => acc.flatMap((t) => s.map((x) => [...t, x])), [[]]);
function f32For16() { // f32 inputs for f32 -> f16: every f16 widened, the halfway points and their neighbours, randoms
  const b = new Uint32Array(1), f = new Float32Array(b.buffer), out = [];
  const toF32 = (h) => { // exact widening
    const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
    return e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1024 + m) * 2 ** (e - 25);
  };
  for (let h = 0; h < 0x7c00; h += 1) {
    for (const sg of [1, -1]) {
      f[0] = sg * toF32(h); const v = b[0];
      if (h % 16 === 0) out.push(v);
      if (h < 0x7bff && h % 4 === 1) { f[0] = sg * (toF32(h) + toF32(h + 1)) / 2; out.push(b[0], b[0] + 1, b[0] - 1); }
    }
  }
  const r = rng32(0xf32f16);
  for (let i = 0; i < 2048; i++) out.push(r());
  out.push(0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345, 0x477fe000, 0x477fefff,
    0x477ff000, 0x477ff001, 0x47800000, 0x7f7fffff, 0xff7fffff, 0x33000000, 0x33000001, 0x32ffffff, 0x00000001);
  return [...new Set(out.map((x) => x >>> 0))];
}
const INT_IN = (() => {
  const v = [0, 1, -1, 2, 2047, 2048, 2049, 2050, 2051, 4097, 4099, 65503, 65504, 65505, 65519, 65520, 65535, 65536,
    -65504, -65519, -65520, -65536, 0x7fffffff, -0x80000000, 1000, -1000, 12345, -12345, 100000, -100000];
  const r = rng32(0x1d16);
  for (let i = 0; i < 2000; i++) v.push((r() & 0x1ffff) - 0x10000);
  for (let i = 0; i < 200; i++) v.push(r() | 0);
  return [...new Set(v.map((x) => x >>> 0))];
})();
const LDEXP_E = [-40, -30, -26, -25, -24, -20, -15, -14, -13, -2, -1, 0, 1, 2, 10, 14, 15, 16, 17, 29, 30, 31, 32, 40,
  127, 128, -127, -128, 0x7fffffff, -0x80000000].map((x) => x >>> 0);

// ------------------------------------------------------------------ groups
// { op, args: [types], results: [types], expr(a, b, c): string | [strings], inputs: [[words]] }
const G = [];
// one-argument functions the devices approximate: every f16; exact ones: 4,096 patterns (every
// 16th, with the specials)
const SOME16 = [...new Set([...SPECIAL16, ...ALL16.filter((x) => x % 16 === 5)])];
const un = (op, expr, results = ['f16'], all = false) =>
  G.push({ op, args: ['f16'], results, expr, inputs: (all ? ALL16 : SOME16).map((x) => [x]) });
const GRID2 = cross(set16(128, 0x2a), set16(128, 0x2b));
const GRID3 = cross(set16(24, 0x3a), set16(24, 0x3b), set16(24, 0x3c));
const bin = (op, expr, results = ['f16']) => G.push({ op, args: ['f16', 'f16'], results, expr, inputs: GRID2 });
const ter = (op, expr) => G.push({ op, args: ['f16', 'f16', 'f16'], results: ['f16'], expr, inputs: GRID3 });

bin('add', (a, b) => `${a} + ${b}`); bin('sub', (a, b) => `${a} - ${b}`);
bin('mul', (a, b) => `${a} * ${b}`); bin('div', (a, b) => `${a} / ${b}`);
bin('rem', (a, b) => `${a} % ${b}`);
un('neg', (a) => `-(${a})`);
bin('lt', (a, b) => `${a} < ${b}`, ['bool']); bin('eq', (a, b) => `${a} == ${b}`, ['bool']);
ter('mul_add', (a, b, c) => `${a} * ${b} + ${c}`); ter('add_mul', (a, b, c) => `${c} + ${a} * ${b}`);
ter('fma', (a, b, c) => `fma(${a}, ${b}, ${c})`);
for (const f of ['sin', 'cos', 'tan', 'exp', 'exp2', 'log', 'log2', 'sqrt', 'inverseSqrt', 'tanh', 'atan', 'asin',
  'acos', 'sinh', 'cosh', 'asinh', 'acosh', 'atanh']) un(f, (a) => `${f}(${a})`, ['f16'], true);
for (const f of ['floor', 'ceil', 'round', 'trunc', 'fract', 'abs', 'sign', 'saturate', 'degrees', 'radians'])
  un(f, (a) => `${f}(${a})`);
un('frexp', (a) => [`frexp(${a}).fract`, `frexp(${a}).exp`], ['f16', 'i32']);
un('modf', (a) => [`modf(${a}).fract`, `modf(${a}).whole`], ['f16', 'f16']);
bin('pow', (a, b) => `pow(${a}, ${b})`); bin('atan2', (a, b) => `atan2(${a}, ${b})`);
bin('min', (a, b) => `min(${a}, ${b})`); bin('max', (a, b) => `max(${a}, ${b})`);
bin('step', (a, b) => `step(${a}, ${b})`);
G.push({ op: 'ldexp', args: ['f16', 'i32'], results: ['f16'], expr: (a, b) => `ldexp(${a}, ${b})`,
  inputs: cross(set16(512, 0x1e), LDEXP_E) });
ter('clamp', (a, b, c) => `clamp(${a}, ${b}, ${c})`); ter('smoothstep', (a, b, c) => `smoothstep(${a}, ${b}, ${c})`);
ter('mix', (a, b, c) => `mix(${a}, ${b}, ${c})`);
// conversions and bitcasts
un('convert', (a) => `i32(${a})`, ['i32']);
un('convert', (a) => `u32(${a})`, ['u32']);
un('convert', (a) => `f32(${a})`, ['f32']);
un('convert', (a) => `bool(${a})`, ['bool']);
G.push({ op: 'convert', args: ['f32'], results: ['f16'], expr: (a) => `f16(${a})`, inputs: f32For16().map((x) => [x]) });
G.push({ op: 'convert', args: ['i32'], results: ['f16'], expr: (a) => `f16(${a})`, inputs: INT_IN.map((x) => [x]) });
G.push({ op: 'convert', args: ['u32'], results: ['f16'], expr: (a) => `f16(${a})`, inputs: INT_IN.map((x) => [x]) });
G.push({ op: 'convert', args: ['bool'], results: ['f16'], expr: (a) => `f16(${a})`, inputs: [[0], [1]] });
G.push({ op: 'bitcast', args: ['u32'], results: ['vec2<f16>'], expr: (a) => `bitcast<vec2<f16>>(${a})`,
  inputs: [0, 1, 0x3c00bc00, 0x7c00fc00, 0x7e007c01, 0x7fff8001, 0xdeadbeef, 0xffffffff, 0x00010000].map((x) => [x >>> 0]) });
G.push({ op: 'bitcast', args: ['vec2<f16>'], results: ['u32'], expr: (a) => `bitcast<u32>(${a})`,
  inputs: cross(SPECIAL16, [0x0000, 0x7c01, 0x3c00, 0xfe00]) });
// ------------------------------------------------------------------ shaders
const lanes = (t) => { const m = /^vec(\d)</.exec(t); return m ? +m[1] : 1; };
const elem = (t) => { const m = /^vec\d<(\w+)>$/.exec(t); return m ? m[1] : t; };
function scalarLoad(t, w) {
  if (t === 'f16') return `bitcast<vec2<f16>>(${w}).x`;
  if (t === 'f32' || t === 'i32') return `bitcast<${t}>(${w})`;
  if (t === 'bool') return `(${w} != 0u)`;
  return w;
}
function scalarStore(t, v) {
  if (t === 'f16') return `bitcast<u32>(vec2<f16>(${v}, 0.0h))`;
  if (t === 'bool') return `select(0u, 1u, ${v})`;
  return `bitcast<u32>(${v})`;
}
function shader(g, n, K, M) {
  let off = 0;
  const lines = [];
  const names = g.args.map((t, j) => {
    const w = lanes(t), parts = [];
    for (let k = 0; k < w; k++) parts.push(scalarLoad(elem(t), `inp[b + ${off + k}u]`));
    off += w;
    lines.push(`  let a${j} : ${t} = ${w === 1 ? parts[0] : `${t}(${parts.join(', ')})`};`);
    return `a${j}`;
  });
  let oo = 0;
  [].concat(g.expr(...names)).forEach((e, j) => {
    const t = g.results[j], w = lanes(t);
    lines.push(`  let r${j} : ${t} = ${e};`);
    for (let k = 0; k < w; k++)
      lines.push(`  outp[o + ${oo + k}u] = ${scalarStore(elem(t), w === 1 ? `r${j}` : `r${j}[${k}]`)};`);
    oo += w;
  });
  return `enable f16;
@group(0) @binding(0) var<storage, read> inp : array<u32>;
@group(0) @binding(1) var<storage, read_write> outp : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x;
  if (i >= ${n}u) { return; }
  let b = i * ${K}u;
  let o = i * ${M}u;
${lines.join('\n')}
}
`;
}

const words = (types) => types.reduce((s, t) => s + lanes(t), 0);
const hex = (t, u) => (elem(t) === 'f16' ? (u & 0xffff).toString(16).padStart(4, '0') : (u >>> 0).toString(16).padStart(8, '0'));
function spell(types, ws) {
  const out = [];
  let k = 0;
  for (const t of types) for (let j = 0; j < lanes(t); j++) out.push(hex(t, ws[k++]));
  return out.join(',');
}

async function runGroup(device, g) {
  const n = g.inputs.length, K = words(g.args), M = words(g.results);
  const code = shader(g, n, K, M);
  const inData = new Uint32Array(Math.max(1, n * K));
  g.inputs.forEach((ws, i) => ws.forEach((w, k) => { inData[i * K + k] = w; }));
  let result = null;
  const r = await scoped(device, async () => {
    const module = device.createShaderModule({ code });
    const pipe = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const S = globalThis.GPUBufferUsage.STORAGE;
    const bi = emptyBuffer(device, inData.byteLength, S), bo = emptyBuffer(device, n * M * 4, S);
    device.queue.writeBuffer(bi, 0, inData);
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipe); pass.setBindGroup(0, bindGroup(device, pipe, [{ buffer: bi }, { buffer: bo }]));
    pass.dispatchWorkgroups(Math.ceil(n / 64));
    pass.end();
    device.queue.submit([enc.finish()]);
    const bytes = await readBuffer(device, bo, n * M * 4);
    result = new Uint32Array(bytes.buffer, bytes.byteOffset, n * M);
    bi.destroy(); bo.destroy();
  });
  if (!r.ok) throw new Error([r.exception, ...r.errors].filter(Boolean).join(' | ') + '\n' + code);
  const sig = `${g.args.join(',')}->${g.results.join(',')}`;
  const rows = [];
  for (let i = 0; i < n; i++)
    rows.push(`${g.op}\t${sig}\tstorage\t${spell(g.args, g.inputs[i])}\t${spell(g.results, Array.from(result.subarray(i * M, i * M + M)))}`);
  return { sig, expr: shader(g, 1, K, M).split('\n').filter((l) => /let r\d/.test(l)).map((l) => l.trim()).join(' '), rows };
}

const { gpu, binding } = await getGPU({});
const adapter = await gpu.requestAdapter();
if (!adapter.features.has('shader-f16')) {
  console.error('f16expr: the adapter does not offer shader-f16; nothing measured');
  process.exit(2);
}
const device = await adapter.requestDevice({ requiredFeatures: ['shader-f16'] });
const head = [
  '# f16expr: WGSL f16 results measured on a WebGPU implementation (stex tools/f16expr.mjs)',
  `# adapter=${JSON.stringify(adapterInfo(adapter))} runtime=${JSON.stringify(runtimeInfo())} binding=${binding}`,
  `# date=${new Date().toISOString()}`,
  '# columns: op, signature, source, inputs, output (f16 as 4 hex digits, 32-bit types as 8; vectors flattened)',
];
// Each group is written to OUT_DIR/parts/NNN.tsv as it completes and skipped when already there,
// so that a run the driver kills part way can be continued by running the command again.
const parts = path.join(OUT, 'parts');
fs.mkdirSync(parts, { recursive: true });
for (const [idx, g] of G.entries()) {
  if (ONLY && !ONLY.split(',').includes(g.op)) continue;
  const part = path.join(parts, `${String(idx).padStart(3, '0')}.tsv`);
  if (fs.existsSync(part)) continue;
  const t0 = Date.now();
  const res = await runGroup(device, g);
  fs.writeFileSync(part + '.tmp', `# expr ${g.op} ${res.sig}: ${res.expr}\n` + res.rows.join('\n') + '\n');
  fs.renameSync(part + '.tmp', part);
  console.error(`f16expr: ${g.op} ${res.sig}: ${res.rows.length} rows, ${Date.now() - t0} ms`);
}
const exprs = [], body = [];
for (const [idx, g] of G.entries()) {
  if (ONLY && !ONLY.split(',').includes(g.op)) continue;
  const lines = fs.readFileSync(path.join(parts, `${String(idx).padStart(3, '0')}.tsv`), 'utf8').trimEnd().split('\n');
  exprs.push(lines[0]);
  for (let i = 1; i < lines.length; i++) body.push(lines[i]);
}
const file = path.join(OUT, 'f16expr.tsv');
fs.writeFileSync(file, [...head, ...exprs].join('\n') + '\n' + body.join('\n') + '\n');
console.error(`f16expr: wrote ${file} (${body.length} rows)`);
process.exit(0);
