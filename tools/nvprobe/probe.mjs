// nvprobe: small WGSL expressions, each written to isolate one thing a shader compiler may do to
// arithmetic (contraction, reciprocal division, reassociation with constants, flushing, the sign of
// zero, how a builtin is built), run on one WebGPU device over the same rows of inputs.  Issue 28's
// measurements: run on the NVIDIA device through Dawn, then locally on stex's provider under
// `profile=nvidia`, and compared row by row (compare.mjs).
//
//   node probe.mjs --out FILE.json.gz [--impl dawn|stex] [--flag k=v]... [--only a,b] [--rows N]
//
// --impl dawn (default) loads npm `webgpu` (NODE_PATH, as ../nvsweep/sweep.mjs); --impl stex loads
// this checkout's provider ($STEX_NODE_ADDON picks the addon), with --flag profile=nvidia by default.
// The file: {adapter, rows, inputs (base64 u32[rows*8]: a..h per row), probes: [{name, expr,
// decls, out (base64 u32[rows])}]}: `expr` is the probe's expression, or its body when it sets `r`
// itself (a body holds a `let r`).  Inputs are a deterministic function of the row count (inputs.mjs).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import process from 'node:process';
import { createRequire } from 'node:module';
import { PROBES } from './probes.mjs';
import { makeInputs } from './inputs.mjs';

function shader(p) {
  return `${p.decls || ''}
@group(0) @binding(0) var<storage, read> inp : array<u32>;
@group(0) @binding(1) var<storage, read_write> outp : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid : vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&outp)) { return; }
  let a = bitcast<f32>(inp[i * 8u]);
  let b = bitcast<f32>(inp[i * 8u + 1u]);
  let c = bitcast<f32>(inp[i * 8u + 2u]);
  let d = bitcast<f32>(inp[i * 8u + 3u]);
  let e = bitcast<f32>(inp[i * 8u + 4u]);
  let f = bitcast<f32>(inp[i * 8u + 5u]);
  let g = bitcast<f32>(inp[i * 8u + 6u]);
  let h = bitcast<f32>(inp[i * 8u + 7u]);
  ${p.body ? p.body : `let r : f32 = ${p.expr};`}
  outp[i] = bitcast<u32>(r);
}
`;
}

// Runs each probe {name, expr | body, decls} over the rows inp (u32[rows * 8]) on device: [{name,
// expr, out: Uint32Array} or {name, expr, error}].
export async function runProbes(device, probes, inp) {
  const n = inp.length / 8, results = [];
  const inBuf = device.createBuffer({ size: inp.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const outBuf = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readBuf = device.createBuffer({ size: n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(inBuf, 0, inp);
  for (const p of probes) {
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code: shader(p) });
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [
      { binding: 0, resource: { buffer: inBuf } }, { binding: 1, resource: { buffer: outBuf } }] });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(Math.ceil(n / 64));
    pass.end();
    enc.copyBufferToBuffer(outBuf, 0, readBuf, 0, n * 4);
    device.queue.submit([enc.finish()]);
    const err = await device.popErrorScope();
    if (err) { results.push({ name: p.name, expr: p.expr || p.body, decls: p.decls, error: err.message }); continue; }
    await readBuf.mapAsync(GPUMapMode.READ);
    results.push({ name: p.name, expr: p.expr || p.body, decls: p.decls, out: new Uint32Array(readBuf.getMappedRange().slice(0)) });
    readBuf.unmap();
  }
  inBuf.destroy(); outBuf.destroy(); readBuf.destroy();
  return results;
}

export async function loadGPU(impl, flags) {
  if (impl === 'stex') {
    const { create, globals } = await import('../../bindings/node/index.mjs');
    Object.assign(globalThis, globals);
    return create(flags.length ? flags : ['profile=nvidia']);
  }
  const tries = (process.env.NODE_PATH || '').split(':').filter(Boolean);
  let mod = null;
  for (const dir of tries) {
    try { mod = createRequire(path.resolve(dir, 'x.js'))('webgpu'); break; } catch { /* next */ }
  }
  if (!mod) mod = await import('webgpu');
  mod = mod.create ? mod : mod.default;
  Object.assign(globalThis, mod.globals);
  return mod.create(flags);
}

async function main() {
  const o = { out: null, impl: 'dawn', flags: [], only: null, rows: 4096 };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], v = () => argv[++i];
    if (k === '--out') o.out = v();
    else if (k === '--impl') o.impl = v();
    else if (k === '--flag') o.flags.push(v());
    else if (k === '--only') o.only = v().split(',');
    else if (k === '--rows') o.rows = Number(v());
    else { console.error(`unknown argument ${k}`); process.exit(2); }
  }
  if (!o.out) { console.error('usage: node probe.mjs --out FILE.json.gz [--impl dawn|stex] [--flag k=v] [--only a,b] [--rows N]'); process.exit(2); }
  const gpu = await loadGPU(o.impl, o.flags);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('no adapter');
  const device = await adapter.requestDevice();
  const info = adapter.info || {};
  const n = o.rows, inp = makeInputs(n);
  const res = { tool: 'tools/nvprobe/probe.mjs', argv: process.argv.slice(2), date: new Date().toISOString(),
    impl: o.impl, flags: o.flags,
    adapter: { vendor: info.vendor, architecture: info.architecture, device: info.device, description: info.description },
    node: process.versions.node, rows: n, inputs: Buffer.from(inp.buffer).toString('base64'), probes: [] };
  const t0 = Date.now();
  const list = PROBES.filter((p) => !o.only || o.only.includes(p.name));
  for (const r of await runProbes(device, list, inp)) {
    if (r.error) console.log(`${r.name}: refused: ${r.error.split('\n')[0]}`);
    res.probes.push({ name: r.name, expr: r.expr, ...(r.decls ? { decls: r.decls } : {}), ...(r.error ? { error: r.error } : { out: Buffer.from(r.out.buffer).toString('base64') }) });
  }
  res.seconds = (Date.now() - t0) / 1000;
  fs.mkdirSync(path.dirname(path.resolve(o.out)), { recursive: true });
  fs.writeFileSync(o.out, zlib.gzipSync(JSON.stringify(res)));
  console.log(`${res.probes.length} probes x ${n} rows on ${info.description || info.vendor || o.impl} in ${res.seconds} s -> ${o.out}`);
  device.destroy();
  process.exit(0);
}

if (process.argv[1]?.endsWith('probe.mjs')) main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
