// Measures WebGPU's sampling builtins on a real WebGPU stack and writes a TSV of
// the inputs and the result bits, for stex's sampling profiles to reproduce.
//
//   VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json \
//   NODE_PATH=/work/peer-cache/peer/node_modules \
//     node tools/measure_sampling.mjs --out tests/data/lavapipe-sampling.tsv
//   gzip -9n tests/data/lavapipe-sampling.tsv
//
// (any WebGPU: drop VK_DRIVER_FILES to let Dawn pick the machine's GPU, and
// write e.g. tests/data/nvidia-sampling.tsv).  Needs node and the `webgpu`
// npm package (Dawn) on NODE_PATH; uses the standard WebGPU API only.
//
// Output, one record per line, tab-separated:
//   #  comment (the command, the adapter)
//   T  texture  format  dimension  w  h  d  mips  mip  hex-of-the-level
//        (the level's texels as writeTexture takes them, tightly packed)
//   C  config  texture  viewDimension  wgsl-call  sampler-json
//   R  config  case  in0..in11  out0..out3
//        in: coords x y z w, level, depth_ref, ddx x y z, ddy x y z (f32 bits,
//        hex); coords.w holds the array index (as an f32 value) where the
//        call takes one; out: the result's four 32-bit words (hex; a scalar
//        result fills out0, the rest 0)
import fs from 'node:fs';
import process from 'node:process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// ---- deterministic inputs ----
let seed = 0x2545f491;
function rnd() { // xorshift32 in [0, 1)
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
const bits = (x) => { f32[0] = x; return u32[0]; };
const fround = Math.fround;
const hex8 = (u) => (u >>> 0).toString(16).padStart(8, '0');
const hexBytes = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');

// ---- textures: contents per level ----
const BPP = { rgba16float: 8, rgba8unorm: 4, depth16unorm: 2, r32float: 4 };
function levelSize(dim, w, h, d, m) {
  const s = (n) => Math.max(1, n >> m);
  return dim === '3d' ? [s(w), s(h), s(d)] : [s(w), s(h), d];
}
function levelData(format, n) {
  const b = new Uint8Array(n * BPP[format]);
  const dv = new DataView(b.buffer);
  for (let i = 0; i < n; i++) {
    if (format === 'rgba16float') {
      for (let c = 0; c < 4; c++) { // finite halves in [0, 4), a random mantissa
        const e = 1 + Math.floor(rnd() * 16), m = Math.floor(rnd() * 1024);
        dv.setUint16(i * 8 + c * 2, (e << 10) | m, true);
      }
    } else if (format === 'rgba8unorm') {
      for (let c = 0; c < 4; c++) b[i * 4 + c] = Math.floor(rnd() * 256);
    } else if (format === 'depth16unorm') {
      dv.setUint16(i * 2, Math.floor(rnd() * 65536), true);
    } else {
      dv.setFloat32(i * 4, fround(rnd() * 4 - 1), true);
    }
  }
  return b;
}

const TEXTURES = {
  t2d: { format: 'rgba16float', dim: '2d', w: 7, h: 5, d: 1, mips: 3 },
  t2d8: { format: 'rgba8unorm', dim: '2d', w: 7, h: 5, d: 1, mips: 3 },
  t2dpot: { format: 'rgba16float', dim: '2d', w: 8, h: 4, d: 1, mips: 2 },
  tarr: { format: 'rgba16float', dim: '2d', w: 5, h: 4, d: 3, mips: 2 },
  t3d: { format: 'rgba16float', dim: '3d', w: 5, h: 4, d: 3, mips: 2 },
  tcube: { format: 'rgba16float', dim: '2d', w: 4, h: 4, d: 12, mips: 3 },
  tdepth: { format: 'depth16unorm', dim: '2d', w: 5, h: 4, d: 1, mips: 1 },
  tdeptharr: { format: 'depth16unorm', dim: '2d', w: 4, h: 4, d: 12, mips: 1 },
};

// ---- the configurations: texture, view, WGSL call, sampler ----
const ADDR = ['clamp-to-edge', 'repeat', 'mirror-repeat'];
const FILT = ['nearest', 'linear'];
const CMP = ['never', 'less', 'equal', 'less-equal', 'greater', 'not-equal', 'greater-equal', 'always'];
const configs = [];
function cfg(texture, view, call, sampler, gen, wgslType) {
  configs.push({ id: configs.length, texture, view, call, sampler, gen, wgslType });
}
const uv = () => [fround(rnd() * 4 - 1.5), fround(rnd() * 4 - 1.5)];
const uvIn = () => [fround(rnd() * 1.2 - 0.1), fround(rnd() * 1.2 - 0.1)];
const LEVELS = [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.75, -0.5, 0.49999997, 0.50000006];
const level = () => LEVELS[Math.floor(rnd() * LEVELS.length)];
function dir() { // a cube direction: random, on a face, an edge or a corner
  const k = rnd();
  const r = () => fround(rnd() * 2 - 1);
  if (k < 0.6) return [r(), r(), r()];
  const v = [r(), r(), r()], a = Math.floor(rnd() * 3), s = rnd() < 0.5 ? -1 : 1;
  v[a] = s;
  if (k > 0.85) v[(a + 1) % 3] = rnd() < 0.5 ? -1 : 1; // an edge
  if (k > 0.95) v[(a + 2) % 3] = rnd() < 0.5 ? -1 : 1; // a corner
  return v;
}
const N = 64;

// (b) textureSampleLevel, 2d, every address mode pair, filter and mipmap filter, two formats
for (const tex of ['t2d', 't2d8']) {
  for (const au of ADDR) for (const av of ADDR) for (const f of FILT) for (const mf of FILT) {
    cfg(tex, '2d', 'textureSampleLevel(t, s, c.xy, e.x)',
      { addressModeU: au, addressModeV: av, magFilter: f, minFilter: f, mipmapFilter: mf },
      () => ({ c: [...uv(), 0, 0], level: level() }), 'texture_2d<f32>');
  }
}
// power-of-two sizes take other paths in llvmpipe
for (const au of ADDR) for (const f of FILT) {
  cfg('t2dpot', '2d', 'textureSampleLevel(t, s, c.xy, e.x)',
    { addressModeU: au, addressModeV: au, magFilter: f, minFilter: f, mipmapFilter: 'linear' },
    () => ({ c: [...uv(), 0, 0], level: level() }), 'texture_2d<f32>');
}
// magFilter and minFilter differing, lodMinClamp / lodMaxClamp
cfg('t2d', '2d', 'textureSampleLevel(t, s, c.xy, e.x)',
  { magFilter: 'linear', minFilter: 'nearest', mipmapFilter: 'linear' },
  () => ({ c: [...uvIn(), 0, 0], level: level() }), 'texture_2d<f32>');
cfg('t2d', '2d', 'textureSampleLevel(t, s, c.xy, e.x)',
  { magFilter: 'nearest', minFilter: 'linear', mipmapFilter: 'nearest', lodMinClamp: 0.5, lodMaxClamp: 1.25 },
  () => ({ c: [...uvIn(), 0, 0], level: level() }), 'texture_2d<f32>');
// 2d-array (array index out of range included), 3d, cube, cube-array
for (const f of FILT) {
  cfg('tarr', '2d-array', 'textureSampleLevel(t, s, c.xy, i32(c.w), e.x)',
    { addressModeU: 'repeat', addressModeV: 'mirror-repeat', magFilter: f, minFilter: f, mipmapFilter: f },
    () => ({ c: [...uv(), 0, Math.floor(rnd() * 5) - 1], level: level() }), 'texture_2d_array<f32>');
  for (const aw of ADDR) {
    cfg('t3d', '3d', 'textureSampleLevel(t, s, c.xyz, e.x)',
      { addressModeU: 'clamp-to-edge', addressModeV: 'repeat', addressModeW: aw, magFilter: f, minFilter: f, mipmapFilter: f },
      () => ({ c: [...uv(), fround(rnd() * 4 - 1.5), 0], level: level() }), 'texture_3d<f32>');
  }
  for (const mf of FILT) {
    cfg('tcube', 'cube', 'textureSampleLevel(t, s, c.xyz, e.x)',
      { magFilter: f, minFilter: f, mipmapFilter: mf },
      () => ({ c: [...dir(), 0], level: level() }), 'texture_cube<f32>');
  }
  cfg('tcube', 'cube-array', 'textureSampleLevel(t, s, c.xyz, i32(c.w), e.x)',
    { magFilter: f, minFilter: f, mipmapFilter: 'linear' },
    () => ({ c: [...dir(), Math.floor(rnd() * 4) - 1], level: level() }), 'texture_cube_array<f32>');
}
// offsets
for (const off of ['vec2(1, -2)', 'vec2(-8, 7)']) {
  cfg('t2d', '2d', `textureSampleLevel(t, s, c.xy, e.x, ${off})`,
    { addressModeU: 'repeat', addressModeV: 'clamp-to-edge', magFilter: 'linear', minFilter: 'linear', mipmapFilter: 'linear' },
    () => ({ c: [...uv(), 0, 0], level: level() }), 'texture_2d<f32>');
}
cfg('tarr', '2d-array', 'textureSampleLevel(t, s, c.xy, i32(c.w), e.x, vec2(2, 1))',
  { magFilter: 'nearest', minFilter: 'nearest' },
  () => ({ c: [...uvIn(), 0, Math.floor(rnd() * 3)], level: level() }), 'texture_2d_array<f32>');
cfg('t3d', '3d', 'textureSampleLevel(t, s, c.xyz, e.x, vec3(-1, 0, 1))',
  { addressModeW: 'repeat', magFilter: 'linear', minFilter: 'linear' },
  () => ({ c: [...uvIn(), fround(rnd()), 0], level: level() }), 'texture_3d<f32>');
// (c) comparison samplers: every function, nearest and linear
const dref = () => { const k = rnd(); return k < 0.1 ? fround(-0.5) : k < 0.2 ? fround(1.5) : fround(rnd()); };
for (const cmp of CMP) for (const f of FILT) {
  cfg('tdepth', '2d', 'textureSampleCompareLevel(t, s, c.xy, e.y)',
    { compare: cmp, magFilter: f, minFilter: f, addressModeU: 'repeat' },
    () => ({ c: [...uv(), 0, 0], dref: dref() }), 'texture_depth_2d');
}
cfg('tdeptharr', '2d-array', 'textureSampleCompareLevel(t, s, c.xy, i32(c.w), e.y)',
  { compare: 'less', magFilter: 'linear', minFilter: 'linear' },
  () => ({ c: [...uvIn(), 0, Math.floor(rnd() * 14) - 1], dref: dref() }), 'texture_depth_2d_array');
cfg('tdeptharr', 'cube', 'textureSampleCompareLevel(t, s, c.xyz, e.y)',
  { compare: 'greater-equal', magFilter: 'linear', minFilter: 'linear' },
  () => ({ c: [...dir(), 0], dref: dref() }), 'texture_depth_cube');
cfg('tdeptharr', 'cube-array', 'textureSampleCompareLevel(t, s, c.xyz, i32(c.w), e.y)',
  { compare: 'less-equal', magFilter: 'nearest', minFilter: 'nearest' },
  () => ({ c: [...dir(), Math.floor(rnd() * 3)], dref: dref() }), 'texture_depth_cube_array');
// (d) gather
for (let comp = 0; comp < 4; comp++) {
  cfg('t2d', '2d', `textureGather(${comp}, t, s, c.xy)`,
    { addressModeU: ADDR[comp % 3], addressModeV: ADDR[(comp + 1) % 3], magFilter: 'linear', minFilter: 'linear' },
    () => ({ c: [...uv(), 0, 0] }), 'texture_2d<f32>');
}
cfg('t2d', '2d', 'textureGather(1, t, s, c.xy, vec2(-3, 2))', { addressModeU: 'repeat', addressModeV: 'repeat' },
  () => ({ c: [...uv(), 0, 0] }), 'texture_2d<f32>');
cfg('tarr', '2d-array', 'textureGather(2, t, s, c.xy, i32(c.w))', {},
  () => ({ c: [...uvIn(), 0, Math.floor(rnd() * 3)] }), 'texture_2d_array<f32>');
cfg('tcube', 'cube', 'textureGather(0, t, s, c.xyz)', {},
  () => ({ c: [...dir(), 0] }), 'texture_cube<f32>');
cfg('tdepth', '2d', 'textureGather(t, s, c.xy)', { addressModeU: 'mirror-repeat' },
  () => ({ c: [...uv(), 0, 0] }), 'texture_depth_2d');
for (const cmp of ['less', 'greater-equal']) {
  cfg('tdepth', '2d', 'textureGatherCompare(t, s, c.xy, e.y)', { compare: cmp },
    () => ({ c: [...uv(), 0, 0], dref: dref() }), 'texture_depth_2d');
}
// (e) gradients and base-clamp-to-edge
const g = () => fround((rnd() - 0.5) * (rnd() < 0.5 ? 0.2 : 2));
for (const mf of FILT) {
  cfg('t2d', '2d', 'textureSampleGrad(t, s, c.xy, gx.xy, gy.xy)',
    { magFilter: 'linear', minFilter: 'linear', mipmapFilter: mf },
    () => ({ c: [...uvIn(), 0, 0], gx: [g(), g(), 0], gy: [g(), g(), 0] }), 'texture_2d<f32>');
}
cfg('t3d', '3d', 'textureSampleGrad(t, s, c.xyz, gx.xyz, gy.xyz)',
  { magFilter: 'linear', minFilter: 'linear', mipmapFilter: 'linear' },
  () => ({ c: [...uvIn(), fround(rnd()), 0], gx: [g(), g(), g()], gy: [g(), g(), g()] }), 'texture_3d<f32>');
cfg('tcube', 'cube', 'textureSampleGrad(t, s, c.xyz, gx.xyz, gy.xyz)',
  { magFilter: 'linear', minFilter: 'linear', mipmapFilter: 'nearest' },
  () => ({ c: [...dir(), 0], gx: [g(), g(), g()], gy: [g(), g(), g()] }), 'texture_cube<f32>');
cfg('t2d', '2d', 'textureSampleBaseClampToEdge(t, s, c.xy)',
  { addressModeU: 'repeat', addressModeV: 'mirror-repeat', magFilter: 'linear', minFilter: 'linear', mipmapFilter: 'linear' },
  () => ({ c: [...uv(), 0, 0] }), 'texture_2d<f32>');

// ---- running ----
function parseArgs(argv) {
  const a = { out: 'tests/data/lavapipe-sampling.tsv', only: null };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') a.out = argv[++i];
    else if (argv[i] === '--only') a.only = new Set(argv[++i].split(',').map(Number));
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return a;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const webgpu = require('webgpu');
  Object.assign(globalThis, webgpu.globals);
  const gpu = webgpu.create([]);
  const adapter = await gpu.requestAdapter();
  if (!adapter) throw new Error('no WebGPU adapter');
  const device = await adapter.requestDevice();
  const info = adapter.info || {};
  const env = ['VK_DRIVER_FILES', 'NODE_PATH'].filter((k) => process.env[k]).map((k) => `${k}=${process.env[k]}`);
  const lines = [`# ${[...env, 'node', 'tools/measure_sampling.mjs', ...process.argv.slice(2)].join(' ')}`,
    `# adapter: ${info.vendor || '?'} / ${info.architecture || '?'} / ${info.device || '?'} / ${info.description || '?'}`,
    `# node ${process.versions.node}`];
  const U = globalThis.GPUTextureUsage, B = globalThis.GPUBufferUsage;

  const textures = {};
  for (const [name, t] of Object.entries(TEXTURES)) {
    const tex = device.createTexture({ size: [t.w, t.h, t.d], dimension: t.dim, format: t.format,
      mipLevelCount: t.mips, usage: U.TEXTURE_BINDING | U.COPY_DST });
    for (let m = 0; m < t.mips; m++) {
      const [w, h, d] = levelSize(t.dim, t.w, t.h, t.d, m);
      const data = levelData(t.format, w * h * d);
      device.queue.writeTexture({ texture: tex, mipLevel: m }, data,
        { bytesPerRow: w * BPP[t.format], rowsPerImage: h }, [w, h, d]);
      lines.push(['T', name, t.format, t.dim, t.w, t.h, t.d, t.mips, m, hexBytes(data)].join('\t'));
    }
    textures[name] = tex;
  }
  let errors = 0;
  for (const c of configs) {
    const cases = [];
    for (let k = 0; k < N; k++) cases.push(c.gen()); // drawn even when skipped: --only keeps inputs
    if (args.only && !args.only.has(c.id)) continue;
    const comparison = c.sampler.compare !== undefined;
    lines.push(['C', c.id, c.texture, c.view, c.call, JSON.stringify(c.sampler)].join('\t'));
    const code = `
@group(0) @binding(0) var t : ${c.wgslType};
@group(0) @binding(1) var s : ${comparison ? 'sampler_comparison' : 'sampler'};
@group(0) @binding(2) var<storage, read> inp : array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> outp : array<vec4<u32>>;
fn result(v : f32) -> vec4<u32> { return vec4<u32>(bitcast<u32>(v), 0u, 0u, 0u); }
fn result4(v : vec4<f32>) -> vec4<u32> { return bitcast<vec4<u32>>(v); }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let i = id.x;
  if (i >= ${N}u) { return; }
  let c = inp[i * 4u];
  let e = inp[i * 4u + 1u];
  let gx = inp[i * 4u + 2u];
  let gy = inp[i * 4u + 3u];
  outp[i] = ${c.wgslType.startsWith('texture_depth') && !c.call.startsWith('textureGather') ? 'result' : 'result4'}(${c.call});
}`;
    const inp = new Float32Array(N * 16);
    cases.forEach((x, k) => {
      inp.set(x.c, k * 16);
      inp.set([x.level ?? 0, x.dref ?? 0, 0, 0], k * 16 + 4);
      inp.set([...(x.gx ?? [0, 0, 0]), 0], k * 16 + 8);
      inp.set([...(x.gy ?? [0, 0, 0]), 0], k * 16 + 12);
    });
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code });
    const pipe = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const sampler = device.createSampler(c.sampler);
    const view = textures[c.texture].createView({ dimension: c.view });
    const ib = device.createBuffer({ size: inp.byteLength, usage: B.STORAGE | B.COPY_DST });
    device.queue.writeBuffer(ib, 0, inp);
    const ob = device.createBuffer({ size: N * 16, usage: B.STORAGE | B.COPY_SRC });
    const rb = device.createBuffer({ size: N * 16, usage: B.MAP_READ | B.COPY_DST });
    const bg = device.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries: [
      { binding: 0, resource: view }, { binding: 1, resource: sampler },
      { binding: 2, resource: { buffer: ib } }, { binding: 3, resource: { buffer: ob } }] });
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipe);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(1);
    pass.end();
    enc.copyBufferToBuffer(ob, 0, rb, 0, N * 16);
    device.queue.submit([enc.finish()]);
    const err = await device.popErrorScope();
    if (err) {
      errors++;
      lines.push(`# config ${c.id}: ${err.message.split('\n')[0]}`);
      continue;
    }
    await rb.mapAsync(globalThis.GPUMapMode.READ);
    const out = new Uint32Array(rb.getMappedRange().slice(0));
    rb.unmap();
    cases.forEach((x, k) => {
      const ins = [...inp.subarray(k * 16, k * 16 + 6), ...inp.subarray(k * 16 + 8, k * 16 + 11),
        ...inp.subarray(k * 16 + 12, k * 16 + 15)].map((v) => hex8(bits(v)));
      const outs = [...out.subarray(k * 4, k * 4 + 4)].map(hex8);
      lines.push(['R', c.id, k, ...ins, ...outs].join('\t'));
    });
    ib.destroy(); ob.destroy(); rb.destroy();
  }
  fs.writeFileSync(args.out, lines.join('\n') + '\n');
  console.log(`wrote ${args.out}: ${configs.length} configurations, ${errors} refused`);
  process.exit(0);
}
main().catch((e) => { console.error(e); process.exit(1); });
