// nvsweep: every f32 mantissa through a device's special functions (WGSL exp2, log2, inverseSqrt,
// sqrt, 1.0/x, sin, cos), one compute dispatch per range of 2^23 inputs, read back and written as
// compact files of differences against the correctly rounded value.  Standard WebGPU API only
// (node + npm `webgpu`, i.e. Dawn, as the peer harness).  README.md says how to run it.
//
//   node sweep.mjs --out DIR [--only exp2,log2] [--count N] [--webgpu PATH/node_modules]
//
// Output, per function F (one file each, at most 8 files):
//   DIR/F.bin.gz   for each sweep of F, in the order of DIR/nvsweep.json:
//                    int8[N]  d = device bits - reference bits (as integers), -128 = see the exceptions
//                    u32      number of exceptions, then that many (u32 index, u32 device bits)
//                  little-endian, gzip-compressed
//   DIR/nvsweep.json  adapter, runtime, each sweep's inputs and reference, histograms, timings
// The reference is Math.fround of the double function (Math.fround(1 / Math.sqrt(x)) for
// inverseSqrt): correctly rounded except within ~2^-29 ulp of a halfway point, where a decoder
// must recompute it the same way (decode.mjs does).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import process from 'node:process';
import { createRequire } from 'node:module';

const N = 1 << 23;

// Inputs: kind 'bits' = base | i (every f32 of one binade); kind 'fix' = sign * i * 2^-23 (the
// fixed-point fractions of [0, 1) or (-1, 0]).
const SWEEPS = [
  ['exp2', 'fix', 0, 'x = i * 2^-23: [0, 1) in steps of 2^-23'],
  ['exp2', 'fix', 1, 'x = -i * 2^-23: (-1, 0] in steps of 2^-23'],
  ['exp2', 'bits', 0x3f000000, 'x = every f32 of [0.5, 1)'],
  ['exp2', 'bits', 0x3f800000, 'x = every f32 of [1, 2)'],
  ['exp2', 'bits', 0x41000000, 'x = every f32 of [8, 16)'],
  ['log2', 'bits', 0x3f800000, 'x = every f32 of [1, 2)'],
  ['log2', 'bits', 0x40000000, 'x = every f32 of [2, 4)'],
  ['log2', 'bits', 0x3f000000, 'x = every f32 of [0.5, 1)'],
  ['log2', 'bits', 0x41000000, 'x = every f32 of [8, 16)'],
  ['inverseSqrt', 'bits', 0x3f800000, 'x = every f32 of [1, 2)'],
  ['inverseSqrt', 'bits', 0x40000000, 'x = every f32 of [2, 4)'],
  ['sqrt', 'bits', 0x3f800000, 'x = every f32 of [1, 2)'],
  ['sqrt', 'bits', 0x40000000, 'x = every f32 of [2, 4)'],
  ['recip', 'bits', 0x3f800000, 'x = every f32 of [1, 2)'],
  ['sin', 'bits', 0x3f000000, 'x = every f32 of [0.5, 1)'],
  ['sin', 'bits', 0x3f800000, 'x = every f32 of [1, 2)'],
  ['sin', 'bits', 0x40000000, 'x = every f32 of [2, 4)'],
  ['sin', 'bits', 0x40800000, 'x = every f32 of [4, 8)'],
  ['cos', 'bits', 0x3f000000, 'x = every f32 of [0.5, 1)'],
  ['cos', 'bits', 0x3f800000, 'x = every f32 of [1, 2)'],
  ['cos', 'bits', 0x40000000, 'x = every f32 of [2, 4)'],
  ['cos', 'bits', 0x40800000, 'x = every f32 of [4, 8)'],
];

const WGSL = { exp2: 'exp2(x)', log2: 'log2(x)', inverseSqrt: 'inverseSqrt(x)', sqrt: 'sqrt(x)',
  recip: '1.0 / x', sin: 'sin(x)', cos: 'cos(x)' };
export const REF = { exp2: (x) => Math.pow(2, x), log2: Math.log2, inverseSqrt: (x) => 1 / Math.sqrt(x),
  sqrt: Math.sqrt, recip: (x) => 1 / x, sin: Math.sin, cos: Math.cos };

// the inputs of one sweep, as f32 bits
export function inputs(kind, base, n = N) {
  const u = new Uint32Array(n), f = new Float32Array(u.buffer);
  for (let i = 0; i < n; i++) {
    if (kind === 'bits') u[i] = (base | i) >>> 0;
    else f[i] = (base ? -i : i) * 2 ** -23;
  }
  return u;
}

// the reference results, as f32 bits
export function reference(fn, inBits) {
  const fin = new Float32Array(inBits.buffer, inBits.byteOffset, inBits.length);
  const out = new Float32Array(inBits.length), ref = REF[fn];
  for (let i = 0; i < fin.length; i++) out[i] = ref(fin[i]);
  return new Uint32Array(out.buffer);
}

// int8 differences with -128 escapes and the exception list
export function encode(dev, ref) {
  const d = new Int8Array(dev.length), exc = [], hist = {};
  for (let i = 0; i < dev.length; i++) {
    const a = dev[i], b = ref[i];
    const diff = ((a >>> 31) === (b >>> 31)) ? (a & 0x7fffffff) - (b & 0x7fffffff) : null;
    const key = diff === null ? 'sign' : (diff > 127 || diff < -127) ? 'big' : String(diff);
    hist[key] = (hist[key] || 0) + 1;
    if (key === 'sign' || key === 'big') { d[i] = -128; exc.push(i, a); } else d[i] = diff;
  }
  const e = new Uint32Array(1 + exc.length);
  e[0] = exc.length / 2;
  e.set(exc, 1);
  return { bytes: [Buffer.from(d.buffer), Buffer.from(e.buffer)], hist, exceptions: exc.length / 2 };
}

function shader(fn) {
  return `@group(0) @binding(0) var<storage, read> inp : array<u32>;
@group(0) @binding(1) var<storage, read_write> outp : array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&outp)) { return; }
  let x = bitcast<f32>(inp[i]);
  let r : f32 = ${WGSL[fn]};
  outp[i] = bitcast<u32>(r);
}
`;
}

async function loadWebGPU(explicit) {
  const tries = [];
  if (explicit) tries.push(explicit);
  if (process.env.NODE_PATH) tries.push(...process.env.NODE_PATH.split(':').filter(Boolean));
  for (const dir of tries) {
    const req = createRequire(path.resolve(dir, 'x.js'));
    try { return req('webgpu'); } catch { /* next */ }
  }
  return import('webgpu');
}

async function main() {
  const a = { out: null, only: null, count: N, webgpu: null };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], next = () => argv[++i];
    if (k === '--out') a.out = next();
    else if (k === '--only') a.only = next().split(',');
    else if (k === '--count') a.count = Number(next());
    else if (k === '--webgpu') a.webgpu = next();
    else { console.error(`unknown argument ${k}`); process.exit(2); }
  }
  if (!a.out) { console.error('usage: node sweep.mjs --out DIR [--only fn,...] [--count N] [--webgpu DIR]'); process.exit(2); }
  const t0 = Date.now();
  const m = await loadWebGPU(a.webgpu);
  const mod = m.create ? m : m.default;
  Object.assign(globalThis, mod.globals);
  const gpu = mod.create([]);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('no adapter');
  const device = await adapter.requestDevice({ requiredLimits: {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize } });
  device.addEventListener('uncapturederror', (e) => console.error('uncaptured:', e.error.message));
  const info = adapter.info || {};
  const meta = { tool: 'tools/nvsweep/sweep.mjs', argv: process.argv.slice(2), date: new Date().toISOString(),
    adapter: { vendor: info.vendor, architecture: info.architecture, device: info.device, description: info.description },
    node: process.versions.node, count: a.count,
    format: 'per function F: F.bin.gz = gzip of, per sweep in order: int8[count] (device - reference bits, -128 = exception), u32 n, n x (u32 index, u32 device bits), sweeps marked dropped left out; reference = Math.fround(double function of x)',
    sweeps: [] };
  fs.mkdirSync(a.out, { recursive: true });
  const n = a.count, bytes = n * 4;
  const inBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const outBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const files = {};
  for (const [fn, kind, base, what] of SWEEPS) {
    if (a.only && !a.only.includes(fn)) continue;
    const t1 = Date.now();
    const inp = inputs(kind, base, n);
    device.queue.writeBuffer(inBuf, 0, inp);
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code: shader(fn) });
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [
      { binding: 0, resource: { buffer: inBuf } }, { binding: 1, resource: { buffer: outBuf } }] });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    const groups = Math.ceil(n / 256);
    pass.dispatchWorkgroups(groups); // 2^23 / 256 = 32768 <= 65535
    pass.end();
    enc.copyBufferToBuffer(outBuf, 0, readBuf, 0, bytes);
    device.queue.submit([enc.finish()]);
    const err = await device.popErrorScope();
    if (err) throw new Error(`${fn}: ${err.message}`);
    await readBuf.mapAsync(GPUMapMode.READ);
    const dev = new Uint32Array(readBuf.getMappedRange().slice(0));
    readBuf.unmap();
    const ref = reference(fn, inp);
    const e = encode(dev, ref);
    (files[fn] ||= []).push(...e.bytes);
    const exact = e.hist['0'] || 0;
    meta.sweeps.push({ fn, wgsl: WGSL[fn], kind, base: '0x' + base.toString(16).padStart(8, '0'), inputs: what,
      exact_vs_reference: exact, histogram: e.hist, exceptions: e.exceptions, seconds: (Date.now() - t1) / 1000 });
    console.log(`${fn.padEnd(12)} ${what.padEnd(42)} ${exact}/${n} equal to the reference, ${e.exceptions} exceptions, ` +
      `${JSON.stringify(e.hist).slice(0, 120)} (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
  }
  const LIMIT = 15.5 * 2 ** 20; // the device tool brings back files of at most 16 MiB
  for (const [fn, parts] of Object.entries(files)) {
    let gz = zlib.gzipSync(Buffer.concat(parts), { level: 6 });
    while (gz.length > LIMIT && parts.length > 2) { // drop the last sweep of fn (its two parts) until it fits
      parts.splice(-2, 2);
      const dropped = meta.sweeps.filter((w) => w.fn === fn && !w.dropped).pop();
      dropped.dropped = true;
      console.log(`${fn}: over ${LIMIT} bytes, sweep '${dropped.inputs}' left out of the file`);
      gz = zlib.gzipSync(Buffer.concat(parts), { level: 6 });
    }
    fs.writeFileSync(path.join(a.out, `${fn}.bin.gz`), gz);
    console.log(`${fn}.bin.gz: ${(gz.length / 2 ** 20).toFixed(2)} MiB`);
  }
  meta.seconds = (Date.now() - t0) / 1000;
  fs.writeFileSync(path.join(a.out, 'nvsweep.json'), JSON.stringify(meta, null, 1) + '\n');
  device.destroy();
  console.log(`done in ${meta.seconds} s`);
  process.exit(0);
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('sweep.mjs')) {
  main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
}
