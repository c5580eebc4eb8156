// One difftest case: WGSL with a header of "//!" lines (README.md), run on
// a WebGPU device.  Shared by measure.mjs and the random-program tools.
export const INPUT_MUL = 2654435761;

export function parseHeader(src) {
  const c = { groups: null, nout: 0, nin: 0, expect: null, features: [] };
  for (const line of src.split('\n')) {
    const m = /^\/\/! (\w+)(?: (.*))?$/.exec(line);
    if (!m) continue;
    const [, key, val = ''] = m;
    if (key === 'dispatch') c.groups = val.trim().split(/\s+/).map(Number);
    else if (key === 'out') c.nout = Number(val);
    else if (key === 'in') c.nin = Number(val);
    else if (key === 'uniform') c.nuniform = Number(val);
    else if (key === 'expect') c.expect = val.trim();
    else if (key === 'features') c.features = val.trim().split(',');
  }
  if (!c.nout) throw new Error('no "//! out N" line');
  if (!c.groups || c.groups.length !== 3) throw new Error('no "//! dispatch X Y Z" line');
  return c;
}

// Runs src on device; resolves to { words: Uint32Array } or { error: text }.
export async function runCase(device, src) {
  const c = parseHeader(src);
  device.pushErrorScope('validation');
  device.pushErrorScope('internal');
  const module = device.createShaderModule({ code: src });
  const pipeline = device.createComputePipeline({
    layout: 'auto', compute: { module, entryPoint: 'main' },
  });
  const internal = await device.popErrorScope();
  const invalid = await device.popErrorScope();
  if (invalid || internal) return { error: (invalid || internal).message.split('\n')[0] };
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const out = device.createBuffer({ size: c.nout * 4, usage });
  const entries = [{ binding: 0, resource: { buffer: out } }];
  const input = (words, use) => {
    const b = device.createBuffer({ size: words * 4, usage: use, mappedAtCreation: true });
    const w = new Uint32Array(b.getMappedRange());
    for (let i = 0; i < words; i++) w[i] = Math.imul(i, INPUT_MUL) >>> 0;
    b.unmap();
    return b;
  };
  let inb = null, uni = null;
  if (c.nin) {
    inb = input(c.nin, usage);
    entries.push({ binding: 1, resource: { buffer: inb } });
  }
  if (c.nuniform) {
    uni = input(c.nuniform, GPUBufferUsage.UNIFORM);
    entries.push({ binding: 2, resource: { buffer: uni } });
  }
  const read = device.createBuffer({ size: c.nout * 4,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.pushErrorScope('validation');
  const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(...c.groups);
  pass.end();
  enc.copyBufferToBuffer(out, 0, read, 0, c.nout * 4);
  device.queue.submit([enc.finish()]);
  const err = await device.popErrorScope();
  if (err) return { error: err.message.split('\n')[0] };
  await read.mapAsync(GPUMapMode.READ);
  const words = new Uint32Array(read.getMappedRange().slice(0));
  read.unmap();
  out.destroy(); read.destroy(); inb?.destroy(); uni?.destroy();
  return { words };
}

export const hexWords = w => Array.from(w, x => x.toString(16).padStart(8, '0')).join(' ');

// navigator.gpu's object of an implementation: "dawn" (npm webgpu from
// ../shared/peer, on lavapipe) or "stex" (bindings/node with flags).
export async function openGpu(impl, flags = []) {
  if (impl === 'dawn') {
    const { createRequire } = await import('node:module');
    const peer = process.env.STEX_PEER || new URL('../../../shared/peer/', import.meta.url).pathname;
    const require = createRequire(peer + 'package.json');
    const { create, globals } = require('webgpu');
    Object.assign(globalThis, globals);
    process.env.XDG_RUNTIME_DIR ??= '/tmp';
    return create(flags);
  }
  const { create, globals } = await import('../../bindings/node/index.mjs');
  Object.assign(globalThis, globals);
  return create(flags.length ? flags : ['profile=lavapipe', 'subgroup=8']);
}

const keep = []; // Dawn's instance must outlive its devices
export async function openDevice(impl, flags, requiredFeatures = []) {
  const gpu = await openGpu(impl, flags);
  keep.push(gpu);
  const adapter = await gpu.requestAdapter();
  return adapter.requestDevice({ requiredFeatures });
}
