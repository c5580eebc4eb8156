// The stex WebGPU provider's own tests (node --test; meson test --suite node).
// Each expectation comes from the WebGPU spec's rules or from arithmetic
// done here in JavaScript, not from stex.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { create, globals } from '../index.mjs';

const { GPUBufferUsage: BU, GPUTextureUsage: TU, GPUMapMode } = globals;

async function device(flags = [], desc = {}) {
  const gpu = create(flags);
  const adapter = await gpu.requestAdapter();
  return { gpu, adapter, device: await adapter.requestDevice(desc) };
}

async function readBack(dev, src, size) {
  const rb = dev.createBuffer({ size, usage: BU.MAP_READ | BU.COPY_DST });
  const enc = dev.createCommandEncoder();
  enc.copyBufferToBuffer(src, 0, rb, 0, size);
  dev.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const out = new Uint8Array(rb.getMappedRange().slice(0));
  rb.unmap();
  rb.destroy();
  return out;
}

async function compute(dev, code, resources, groups) {
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }) } });
  const bg = dev.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: resources.map((resource, binding) => ({ binding, resource })),
  });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(...groups);
  pass.end();
  dev.queue.submit([enc.finish()]);
  await dev.queue.onSubmittedWorkDone();
}

test('adapter and device: features and limits follow the profile', async () => {
  const spec = await device();
  assert.ok(spec.adapter.features.has('texture-formats-tier1'));
  assert.equal(spec.adapter.limits.maxTextureDimension2D, 8192); // WebGPU's default
  assert.equal(spec.device.limits.maxComputeWorkgroupSizeX, 256);
  assert.equal(spec.device.stex.profile, 'spec');
  assert.ok(spec.gpu.wgslLanguageFeatures.has('readonly_and_readwrite_storage_textures'));
  // lavapipe's adapter, as measured, offers no tier1 formats: asking is a TypeError
  const lp = await create(['profile=lavapipe']).requestAdapter();
  assert.ok(!lp.features.has('texture-formats-tier1'));
  await assert.rejects(lp.requestDevice({ requiredFeatures: ['texture-formats-tier1'] }), TypeError);
  const d = await lp.requestDevice();
  assert.equal(d.stex.profile, 'lavapipe');
  assert.equal(d.features.has('texture-formats-tier1'), false);
  // a device comes once per adapter; an unknown limit is refused
  await assert.rejects(lp.requestDevice(), { name: 'OperationError' });
  const a2 = await create().requestAdapter();
  await assert.rejects(a2.requestDevice({ requiredLimits: { maxWidgets: 1 } }), { name: 'OperationError' });
  assert.throws(() => create(['profile']), TypeError);
  assert.throws(() => create(['colour=blue']), TypeError);
  assert.throws(() => create(['profile=voodoo']), TypeError);
});

test('buffers: mappedAtCreation, writeBuffer, copies, clearBuffer and mapping rules', async () => {
  const { device: dev } = await device();
  const b = dev.createBuffer({ size: 16, usage: BU.COPY_SRC | BU.COPY_DST, mappedAtCreation: true });
  assert.equal(b.mapState, 'mapped');
  new Uint32Array(b.getMappedRange()).set([1, 2, 3, 0xdeadbeef]);
  b.unmap();
  assert.deepEqual([...new Uint32Array((await readBack(dev, b, 16)).buffer)], [1, 2, 3, 0xdeadbeef]);
  dev.queue.writeBuffer(b, 4, new Uint32Array([7, 8, 9]), 1, 1); // element 1 of the data: 8
  assert.deepEqual([...new Uint32Array((await readBack(dev, b, 16)).buffer)], [1, 8, 3, 0xdeadbeef]);
  const enc = dev.createCommandEncoder();
  enc.clearBuffer(b, 8, 8);
  dev.queue.submit([enc.finish()]);
  assert.deepEqual([...new Uint32Array((await readBack(dev, b, 16)).buffer)], [1, 8, 0, 0]);
  // MAP_WRITE: what is written into the mapping reaches the buffer at unmap
  const w = dev.createBuffer({ size: 8, usage: BU.MAP_WRITE | BU.COPY_SRC });
  await w.mapAsync(GPUMapMode.WRITE);
  new Uint8Array(w.getMappedRange(0, 8)).set([9, 8, 7, 6, 5, 4, 3, 2]);
  assert.throws(() => w.getMappedRange(0, 8), { name: 'OperationError' }); // overlaps
  w.unmap();
  assert.deepEqual([...(await readBack(dev, w, 8))], [9, 8, 7, 6, 5, 4, 3, 2]);
  // mapping a buffer without MAP_READ is a validation error, and the promise rejects
  dev.pushErrorScope('validation');
  await assert.rejects(b.mapAsync(GPUMapMode.READ), { name: 'OperationError' });
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
});

test('errors: scopes, uncapturederror, invalid objects, popErrorScope on an empty stack', async () => {
  const { device: dev } = await device();
  dev.pushErrorScope('out-of-memory');
  dev.pushErrorScope('validation');
  const bad = dev.createBuffer({ size: 16, usage: BU.MAP_READ | BU.STORAGE }); // MAP_READ only with COPY_DST
  const err = await dev.popErrorScope();
  assert.ok(err instanceof globals.GPUValidationError, String(err));
  assert.match(err.message, /MAP_READ|usage/i);
  assert.equal(await dev.popErrorScope(), null); // the out-of-memory scope saw nothing
  // no scope: the event
  const seen = [];
  dev.addEventListener('uncapturederror', (ev) => seen.push(ev.error));
  dev.queue.writeBuffer(bad, 0, new Uint32Array([1])); // an invalid buffer
  assert.equal(seen.length, 1);
  assert.ok(seen[0] instanceof globals.GPUValidationError);
  await assert.rejects(dev.popErrorScope(), { name: 'OperationError' });
  assert.throws(() => dev.pushErrorScope('nonsense'), TypeError);
  assert.throws(() => dev.createBuffer({ usage: BU.STORAGE }), TypeError); // size is required
  assert.throws(() => dev.createTexture({ size: [4, 4], format: 'rgba8unorm' }), TypeError); // usage is required
  // an encoder's errors surface at finish(), not before
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.end();
  pass.end();
  dev.pushErrorScope('validation');
  const cb = enc.finish();
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
  dev.pushErrorScope('validation');
  dev.queue.submit([cb]);
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
});

test('shader modules: compilation messages with line and column; pipelines from invalid modules fail', async () => {
  const { device: dev } = await device();
  dev.pushErrorScope('validation');
  const m = dev.createShaderModule({ code: '@compute @workgroup_size(1)\nfn main() {\n  let x : u32 = 1.5;\n}\n' });
  const e = await dev.popErrorScope();
  assert.ok(e instanceof globals.GPUValidationError);
  const info = await m.getCompilationInfo();
  assert.ok(info.messages.length >= 1);
  assert.equal(info.messages[0].type, 'error');
  assert.equal(info.messages[0].lineNum, 3);
  assert.equal(info.messages[0].linePos, 17); // the initializer 1.5
  await assert.rejects(dev.createComputePipelineAsync({ layout: 'auto', compute: { module: m } }),
    (x) => x.name === 'GPUPipelineError' && x.reason === 'validation');
  const ok = dev.createShaderModule({ code: '@compute @workgroup_size(1) fn main() {}' });
  assert.equal((await ok.getCompilationInfo()).messages.length, 0);
  const p = await dev.createComputePipelineAsync({ layout: 'auto', compute: { module: ok, entryPoint: 'main' } });
  assert.ok(p instanceof globals.GPUComputePipeline);
  assert.throws(() => dev.createRenderPipeline({}), TypeError);
});

test('compute: a storage buffer transformed by a WGSL shader, with overridable constants', async () => {
  const { device: dev } = await device();
  const n = 1000;
  const input = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
  const buf = dev.createBuffer({ size: n * 4, usage: BU.STORAGE | BU.COPY_SRC | BU.COPY_DST });
  dev.queue.writeBuffer(buf, 0, input);
  const code = `override k : u32 = 3u;
@group(0) @binding(0) var<storage, read_write> v : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g : vec3<u32>) {
  if (g.x < arrayLength(&v)) { v[g.x] = (v[g.x] ^ (v[g.x] >> 7u)) * k + g.x; }
}`;
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }), constants: { k: 5 } } });
  const bg = dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(Math.ceil(n / 64));
  pass.end();
  dev.queue.submit([enc.finish()]);
  const got = new Uint32Array((await readBack(dev, buf, n * 4)).buffer);
  for (let i = 0; i < n; i++) {
    const x = input[i];
    assert.equal(got[i], (Math.imul((x ^ (x >>> 7)) >>> 0, 5) + i) >>> 0, `element ${i}`);
  }
});

test('storage textures: textureStore of k / 255 gives code k; textureDimensions of views', async () => {
  const { device: dev } = await device();
  const tex = dev.createTexture({ size: [37, 11], format: 'rgba8unorm', usage: TU.STORAGE_BINDING | TU.COPY_SRC });
  await compute(dev, `@group(0) @binding(0) var t : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) g : vec3<u32>) {
  let k = vec4<f32>(f32((g.x + g.y) % 256u), f32(g.x), f32(g.y), 255.0) / 255.0;
  textureStore(t, vec2<i32>(g.xy), k);
}`, [tex.createView()], [5, 2, 1]);
  const rb = dev.createBuffer({ size: 256 * 11, usage: BU.MAP_READ | BU.COPY_DST });
  const enc = dev.createCommandEncoder();
  enc.copyTextureToBuffer({ texture: tex }, { buffer: rb, bytesPerRow: 256 }, [37, 11]);
  dev.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const px = new Uint8Array(rb.getMappedRange());
  for (let y = 0; y < 11; y++) {
    for (let x = 0; x < 37; x++) {
      const o = y * 256 + x * 4;
      assert.deepEqual([...px.subarray(o, o + 4)], [(x + y) % 256, x, y, 255], `texel ${x},${y}`);
    }
  }
  rb.unmap();
  // textureDimensions of a mip-level view and textureNumLayers of an array view
  const out = dev.createBuffer({ size: 16, usage: BU.STORAGE | BU.COPY_SRC });
  const arr = dev.createTexture({ size: [37, 11, 5], mipLevelCount: 3, format: 'r32float', usage: TU.STORAGE_BINDING });
  await compute(dev, `@group(0) @binding(0) var t : texture_storage_2d_array<r32float, read>;
@group(0) @binding(1) var<storage, read_write> o : array<u32, 4>;
@compute @workgroup_size(1)
fn main() { let d = textureDimensions(t); o[0] = d.x; o[1] = d.y; o[2] = textureNumLayers(t); }`,
  [arr.createView({ dimension: '2d-array', baseMipLevel: 1, mipLevelCount: 1, baseArrayLayer: 1, arrayLayerCount: 3 }), { buffer: out }], [1, 1, 1]);
  assert.deepEqual([...new Uint32Array((await readBack(dev, out, 16)).buffer)].slice(0, 3), [18, 5, 3]); // 37 >> 1, 11 >> 1
  // an unknown format is a TypeError; an illegal storage format a validation error
  assert.throws(() => dev.createTexture({ size: [4, 4], format: 'rgba9unorm', usage: TU.COPY_SRC }), TypeError);
  dev.pushErrorScope('validation');
  dev.createTexture({ size: [0, 4], format: 'rgba8unorm', usage: TU.COPY_SRC });
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
});

test('races: the report of each dispatch reaches JavaScript (races=1)', async () => {
  const { device: dev } = await device(['races=1', 'schedule=shuffled', 'seed=7', 'threads=2']);
  const buf = dev.createBuffer({ size: 256, usage: BU.STORAGE });
  const events = [];
  dev.addEventListener('stexrace', (ev) => events.push(ev.report));
  // every invocation writes word 0: write-write races between different invocations
  await compute(dev, `@group(0) @binding(0) var<storage, read_write> v : array<u32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) i : u32) { v[0] = i; }`, [{ buffer: buf }], [2, 1, 1]);
  // each invocation its own word: no race
  await compute(dev, `@group(0) @binding(0) var<storage, read_write> v : array<u32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g : vec3<u32>) { v[g.x] = g.x; }`, [{ buffer: buf }], [2, 1, 1]);
  assert.equal(dev.stex.raceReports.length, 2);
  assert.equal(events.length, 2);
  const [racy, clean] = dev.stex.raceReports;
  // word 0 is one racing location, v[0]; the race names both invocations' sites
  assert.equal(racy.write_write, 1, JSON.stringify(racy));
  assert.equal(racy.locations[0].kind, 'write-write', JSON.stringify(racy));
  assert.equal(racy.locations[0].name, 'v[0]', JSON.stringify(racy));
  assert.equal(racy.groups.length, 1, JSON.stringify(racy));
  assert.equal(racy.groups[0].sites[0].source.line, 2, JSON.stringify(racy));
  assert.deepEqual([clean.total, clean.write_write, clean.read_write, clean.groups.length], [0, 0, 0, 0]);
});

test('races=all: every racing location in the report, not the first 100; races=1 keeps 100', async () => {
  // 256 invocations, each reads v[i + 1] and writes v[i] (an in-place shift):
  // v[1..255] race, 255 locations in one group of source sites
  const code = `@group(0) @binding(0) var<storage, read_write> v : array<u32, 257>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g : vec3<u32>) {
  v[g.x] = v[g.x + 1u];
}`;
  for (const [flag, listed] of [['all', 255], ['1', 100]]) {
    const { device: dev } = await device([`races=${flag}`, 'threads=2']);
    const buf = dev.createBuffer({ size: 257 * 4, usage: BU.STORAGE });
    await compute(dev, code, [{ buffer: buf }], [4, 1, 1]);
    const [r] = dev.stex.raceReports;
    assert.equal(r.total, 255, JSON.stringify(r.groups));
    assert.equal(r.locations.length, listed);
    assert.equal(r.truncated, listed < 255);
    assert.equal(r.groups.length, 1);
    assert.equal(r.groups[0].count, 255);
    assert.deepEqual(r.locations.slice(0, 2).map((l) => l.name), ['v[1]', 'v[2]']);
  }
  assert.throws(() => create(['races=every']), TypeError);
});

test('flags: subgroup (lanes in lock step) and visibility decide what a racy read sees', async () => {
  // each invocation reads word 0, then writes its index + 1 there: a race,
  // whose outcome the schedule, the sub-group width and visibility fix
  const racy = (size, id) => `@group(0) @binding(0) var<storage, read_write> v : array<u32, 4>;
@compute @workgroup_size(${size}) fn main(@builtin(${id}) w : vec3<u32>) {
  let seen = v[0]; v[w.x + 1u] = seen; v[0] = w.x + 1u;
}`;
  const run = async (flags, code, groups) => {
    const { device: dev } = await device(['schedule=in-order', 'threads=1', ...flags]);
    const buf = dev.createBuffer({ size: 16, usage: BU.STORAGE | BU.COPY_SRC });
    await compute(dev, code, [{ buffer: buf }], [groups, 1, 1]);
    return [...new Uint32Array((await readBack(dev, buf, 16)).buffer)].slice(1, 3);
  };
  const lanes = racy(2, 'local_invocation_id'), groups = racy(1, 'workgroup_id');
  // one lane at a time, in order: invocation 1 sees invocation 0's store
  assert.deepEqual(await run(['subgroup=1'], lanes, 1), [0, 1]);
  // both lanes in lock step: both read before either writes
  assert.deepEqual(await run(['subgroup=2'], lanes, 1), [0, 0]);
  // two workgroups in order: the second sees the first's store, unless
  // visibility is snapshot (another workgroup's stores are not seen)
  assert.deepEqual(await run([], groups, 2), [0, 1]);
  assert.deepEqual(await run(['visibility=snapshot'], groups, 2), [0, 0]);
  assert.throws(() => create(['subgroup=65']), TypeError);
  assert.throws(() => create(['visibility=sometimes']), /immediate or snapshot/);
  assert.throws(() => create(['colour=red']), /subgroup, visibility/);
});

test('copies: an explicit 0 in copySize is an empty copy, validated, not the default 1', async () => {
  const { device: dev } = await device();
  const src = dev.createTexture({ size: [4, 4, 2], format: 'rgba8unorm', usage: TU.COPY_SRC });
  const dst = dev.createTexture({ size: [4, 4, 2], format: 'rgba8unorm', usage: TU.COPY_DST });
  const copy = (size, z) => {
    const enc = dev.createCommandEncoder();
    enc.copyTextureToTexture({ texture: src, origin: [0, 0, z] }, { texture: dst, origin: [0, 0, z] }, size);
    dev.pushErrorScope('validation');
    dev.queue.submit([enc.finish()]);
    return dev.popErrorScope();
  };
  // at layer 2 of 2: zero layers fit, the default of one does not
  assert.equal(await copy({ width: 4, height: 4, depthOrArrayLayers: 0 }, 2), null);
  assert.ok((await copy({ width: 4, height: 4 }, 2)) instanceof globals.GPUValidationError);
  assert.equal(await copy([4, 0, 1], 0), null);
  // a destroyed texture: encoding and finish() are fine, submit() refuses it
  src.destroy();
  const enc = dev.createCommandEncoder();
  enc.copyTextureToTexture({ texture: src }, { texture: dst }, [4, 4, 1]);
  dev.pushErrorScope('validation');
  const cb = enc.finish();
  assert.equal(await dev.popErrorScope(), null);
  dev.pushErrorScope('validation');
  dev.queue.submit([cb]);
  assert.match((await dev.popErrorScope()).message, /destroyed/);
  // an invalid texture (its creation failed) beside a destroyed one: finish() reports it
  dev.pushErrorScope('validation');
  const bad = dev.createTexture({ size: [0, 4], format: 'rgba8unorm', usage: TU.COPY_DST });
  await dev.popErrorScope();
  const enc2 = dev.createCommandEncoder();
  enc2.copyTextureToTexture({ texture: src }, { texture: bad }, [4, 4, 1]);
  dev.pushErrorScope('validation');
  enc2.finish();
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
});

test('dispatchWorkgroupsIndirect reads its counts from an INDIRECT buffer at submit', async () => {
  const { device: dev } = await device();
  const out = dev.createBuffer({ size: 64, usage: BU.STORAGE | BU.COPY_SRC });
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code:
    '@group(0) @binding(0) var<storage, read_write> v : array<u32, 16>;\n@compute @workgroup_size(2) fn main(@builtin(global_invocation_id) g : vec3<u32>) { v[g.x] = g.x + 1u; }' }) } });
  const bg = dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: out } }] });
  const run = (args) => {
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroupsIndirect(args, 0);
    pass.end();
    dev.pushErrorScope('validation');
    dev.queue.submit([enc.finish()]);
    return dev.popErrorScope();
  };
  const args = dev.createBuffer({ size: 12, usage: GPUBufferUsage.INDIRECT | BU.COPY_DST });
  dev.queue.writeBuffer(args, 0, new Uint32Array([3, 1, 1]));
  assert.equal(await run(args), null);
  // 3 workgroups of 2: words 0..5 written, the rest untouched
  assert.deepEqual([...new Uint32Array((await readBack(dev, out, 64)).buffer)].slice(0, 8), [1, 2, 3, 4, 5, 6, 0, 0]);
  const notIndirect = dev.createBuffer({ size: 12, usage: BU.STORAGE | BU.COPY_DST });
  assert.match((await run(notIndirect)).message, /INDIRECT/);
});

test('createComputePipeline: constants must be finite numbers; a module or layout of another device is refused', async () => {
  const { device: a } = await device();
  const { device: b } = await device();
  const code = 'override cf : f32 = 0.0;\n@group(0) @binding(0) var<storage, read_write> v : array<f32>;\n@compute @workgroup_size(1) fn main() { v[0] = cf; }';
  const module = a.createShaderModule({ code });
  assert.throws(() => a.createComputePipeline({ layout: 'auto', compute: { module, constants: { cf: NaN } } }), TypeError);
  await assert.rejects(a.createComputePipelineAsync({ layout: 'auto', compute: { module, constants: { cf: Infinity } } }), TypeError);
  a.pushErrorScope('validation');
  a.createComputePipeline({ layout: 'auto', compute: { module, constants: { 'cf\u0000': 1 } } });
  assert.match((await a.popErrorScope()).message, /not the name or id of an override/);
  b.pushErrorScope('validation');
  b.createComputePipeline({ layout: 'auto', compute: { module } });
  assert.match((await b.popErrorScope()).message, /another device/);
  const layout = b.createPipelineLayout({ bindGroupLayouts: [] });
  a.pushErrorScope('validation');
  a.createComputePipeline({ layout, compute: { module } });
  assert.match((await a.popErrorScope()).message, /another device/);
});

test('queue writes refuse another device\'s buffer or texture', async () => {
  const { device: a } = await device();
  const { device: b } = await device();
  const buf = b.createBuffer({ size: 16, usage: BU.COPY_DST });
  const tex = b.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: TU.COPY_DST });
  a.pushErrorScope('validation');
  a.queue.writeBuffer(buf, 0, new Uint32Array(4));
  assert.match((await a.popErrorScope()).message, /another device/);
  a.pushErrorScope('validation');
  a.queue.writeTexture({ texture: tex }, new Uint8Array(64), { bytesPerRow: 16 }, [4, 4]);
  assert.match((await a.popErrorScope()).message, /another device/);
  b.pushErrorScope('validation');
  b.queue.writeTexture({ texture: tex }, new Uint8Array(64), { bytesPerRow: 16 }, [4, 4]);
  assert.equal(await b.popErrorScope(), null);
});

test('mapAsync and getMappedRange follow WebGPU\'s timelines and defaults', async () => {
  const { device: dev } = await device();
  const buf = dev.createBuffer({ size: 80, usage: BU.MAP_READ | BU.COPY_DST });
  // a map pending: a second mapAsync rejects at once, with no validation error
  dev.pushErrorScope('validation');
  const first = buf.mapAsync(GPUMapMode.READ, 0, 64);
  let early = false;
  const second = buf.mapAsync(GPUMapMode.READ).catch((e) => { early = true; return e; });
  await Promise.resolve();
  await Promise.resolve();
  assert.ok(early, 'the second mapAsync rejected before the first settled');
  assert.equal((await second).name, 'OperationError');
  assert.equal(await dev.popErrorScope(), null);
  await first;
  // getMappedRange() reaches to the buffer's end (80), past the mapped 64 bytes
  assert.throws(() => buf.getMappedRange(), { name: 'OperationError' });
  assert.equal(buf.getMappedRange(0, 64).byteLength, 64);
  // mapped: a validation error now and a later OperationError, or AbortError after unmap()
  dev.pushErrorScope('validation');
  const again = buf.mapAsync(GPUMapMode.READ);
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
  assert.equal(await again.catch((e) => e.name), 'OperationError');
  const aborted = buf.mapAsync(GPUMapMode.READ).catch((e) => e.name);
  buf.unmap();
  assert.equal(await aborted, 'AbortError');
  // writeBuffer of a byte count that is not a multiple of 4 throws
  const dst = dev.createBuffer({ size: 16, usage: BU.COPY_DST });
  assert.throws(() => dev.queue.writeBuffer(dst, 0, new Uint8Array(15)), { name: 'OperationError' });
  dev.queue.writeBuffer(dst, 0, new Uint8Array(15), 3); // 12 bytes from element 3
});

test('lifetimes: a view and a bind group keep what they use after JavaScript drops it', async () => {
  const { device: dev } = await device();
  let tex = dev.createTexture({ size: [8, 8], format: 'r32float', usage: TU.STORAGE_BINDING | TU.COPY_SRC });
  const view = tex.createView();
  const out = dev.createBuffer({ size: 16, usage: BU.STORAGE | BU.COPY_SRC });
  tex = null;
  for (let i = 0; i < 200; i++) dev.createBuffer({ size: 1 << 16, usage: BU.STORAGE }); // garbage to collect
  if (globalThis.gc) globalThis.gc();
  await compute(dev, `@group(0) @binding(0) var t : texture_storage_2d<r32float, read>;
@group(0) @binding(1) var<storage, read_write> o : array<u32, 4>;
@compute @workgroup_size(1) fn main() { o[0] = textureDimensions(t).x; }`, [view, { buffer: out }], [1, 1, 1]);
  assert.equal(new Uint32Array((await readBack(dev, out, 16)).buffer)[0], 8);
});

test('samplers: textureSampleLevel with a nearest sampler at texel centres decodes code k as k / 255', async () => {
  const { device: dev } = await device();
  const W = 4, H = 4;
  const tex = dev.createTexture({ size: [W, H], format: 'rgba8unorm', usage: TU.TEXTURE_BINDING | TU.COPY_DST });
  const bytes = Uint8Array.from({ length: W * H * 4 }, (_, i) => (i * 37 + 11) & 255);
  dev.queue.writeTexture({ texture: tex }, bytes, { bytesPerRow: W * 4 }, [W, H]);
  const out = dev.createBuffer({ size: W * H * 16, usage: BU.STORAGE | BU.COPY_SRC });
  const sampler = dev.createSampler({ magFilter: 'nearest', minFilter: 'nearest' });
  await compute(dev, `@group(0) @binding(0) var t : texture_2d<f32>;
@group(0) @binding(1) var s : sampler;
@group(0) @binding(2) var<storage, read_write> o : array<vec4<f32>>;
@compute @workgroup_size(4, 4)
fn main(@builtin(global_invocation_id) g : vec3<u32>) {
  let uv = (vec2<f32>(g.xy) + 0.5) / vec2<f32>(4.0, 4.0);
  o[g.y * 4u + g.x] = textureSampleLevel(t, s, uv, 0.0);
}`, [tex.createView(), sampler, { buffer: out }], [1, 1, 1]);
  const got = new Float32Array((await readBack(dev, out, W * H * 16)).buffer);
  for (let i = 0; i < W * H * 4; i++) assert.equal(got[i], Math.fround(bytes[i] / 255), `channel ${i}`);
  assert.throws(() => dev.createSampler({ magFilter: 'cubic' }), TypeError);
});

test('explicit layouts: one bind group serves two pipelines of one layout; an auto layout serves only its pipeline', async () => {
  const { device: dev } = await device();
  const SS = globals.GPUShaderStage;
  const bgl = dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: SS.COMPUTE, buffer: { type: 'storage' } }] });
  const layout = dev.createPipelineLayout({ bindGroupLayouts: [bgl] });
  const src = (op) => `@group(0) @binding(0) var<storage, read_write> v : array<u32>;
@compute @workgroup_size(4) fn main(@builtin(global_invocation_id) g : vec3<u32>) { v[g.x] = ${op}; }`;
  const mk = (code, l) => dev.createComputePipeline({ layout: l, compute: { module: dev.createShaderModule({ code }) } });
  const add = mk(src('v[g.x] + 10u'), layout), mul = mk(src('v[g.x] * 3u'), layout);
  assert.equal(add.getBindGroupLayout(0), bgl);
  const buf = dev.createBuffer({ size: 16, usage: BU.STORAGE | BU.COPY_SRC | BU.COPY_DST });
  dev.queue.writeBuffer(buf, 0, new Uint32Array([1, 2, 3, 4]));
  const bg = dev.createBindGroup({ layout: bgl, entries: [{ binding: 0, resource: { buffer: buf } }] });
  const run = (p, group) => {
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(1);
    pass.end();
    dev.queue.submit([enc.finish()]);
  };
  dev.pushErrorScope('validation');
  run(add, bg);
  run(mul, bg);
  assert.equal(await dev.popErrorScope(), null);
  assert.deepEqual([...new Uint32Array((await readBack(dev, buf, 16)).buffer)], [33, 36, 39, 42]); // (x + 10) * 3
  // a bind group of one pipeline's 'auto' layout does not serve another pipeline
  const auto1 = mk(src('1u'), 'auto'), auto2 = mk(src('2u'), 'auto');
  const bgAuto = dev.createBindGroup({ layout: auto1.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] });
  dev.pushErrorScope('validation');
  run(auto2, bgAuto);
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
  // a layout that does not fit the shader (read-only where it writes), and an entry with two kinds
  dev.pushErrorScope('validation');
  const ro = dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: SS.COMPUTE, buffer: { type: 'read-only-storage' } }] });
  mk(src('0u'), dev.createPipelineLayout({ bindGroupLayouts: [ro] }));
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
  dev.pushErrorScope('validation');
  dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: SS.COMPUTE, buffer: {}, sampler: {} }] });
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
  assert.throws(() => dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: SS.COMPUTE, storageTexture: {} }] }), TypeError);
});

test('a format whose feature the device lacks is a TypeError (WebGPU: required features of a format)', async () => {
  const { device: dev } = await device(['profile=lavapipe']); // no texture-formats-tier1
  assert.throws(() => dev.createTexture({ size: [4, 4], format: 'r16unorm', usage: TU.TEXTURE_BINDING }), TypeError);
  const { device: full } = await device([], { requiredFeatures: ['texture-formats-tier1'] });
  full.pushErrorScope('validation');
  full.createTexture({ size: [4, 4], format: 'r16unorm', usage: TU.TEXTURE_BINDING });
  assert.equal(await full.popErrorScope(), null);
});

test('copyTextureToTexture: a box between textures, read back through a buffer; a refused copy changes nothing', async () => {
  const { device: dev } = await device();
  const src = dev.createTexture({ size: [8, 8], format: 'rgba8unorm', usage: TU.COPY_SRC | TU.COPY_DST });
  const dst = dev.createTexture({ size: [8, 8], format: 'rgba8unorm', usage: TU.COPY_SRC | TU.COPY_DST });
  const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
  dev.queue.writeTexture({ texture: src }, bytes, { bytesPerRow: 32 }, [8, 8]);
  let enc = dev.createCommandEncoder();
  enc.copyTextureToTexture({ texture: src, origin: [1, 2] }, { texture: dst, origin: { x: 4, y: 0 } }, [3, 2]);
  const rb = dev.createBuffer({ size: 256 * 8, usage: BU.COPY_DST | BU.MAP_READ });
  enc.copyTextureToBuffer({ texture: dst }, { buffer: rb, bytesPerRow: 256 }, [8, 8]);
  dev.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const px = new Uint8Array(rb.getMappedRange());
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const inBox = x >= 4 && x < 7 && y < 2;
      const want = inBox ? [...bytes.subarray(((y + 2) * 8 + (x - 3)) * 4, ((y + 2) * 8 + (x - 3)) * 4 + 4)] : [0, 0, 0, 0];
      assert.deepEqual([...px.subarray(y * 256 + x * 4, y * 256 + x * 4 + 4)], want, `texel ${x},${y}`);
    }
  }
  rb.unmap();
  const other = dev.createTexture({ size: [8, 8], format: 'r32float', usage: TU.COPY_DST });
  enc = dev.createCommandEncoder();
  enc.copyTextureToTexture({ texture: src }, { texture: other }, [1, 1]);
  dev.pushErrorScope('validation');
  dev.queue.submit([enc.finish()]);
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
});

test('create() sets WebGPU\'s globals where the runtime has none (as Dawn\'s does): tests name them unimported', () => {
  create([]);
  assert.equal(globalThis.GPUBufferUsage.STORAGE, 0x80); // WebGPU's constant
  assert.equal(globalThis.GPUTextureUsage.STORAGE_BINDING, 0x08);
  assert.equal(typeof globalThis.GPUExternalTexture, 'function');
  assert.equal(globalThis.GPUMapMode, globals.GPUMapMode);
});

test('-srgb sampled loads: the profile\'s curve (lavapipe: as Dawn on lavapipe returned it)', async () => {
  const { readFileSync } = await import('node:fs');
  const data = JSON.parse(readFileSync(new URL('../../../tests/data/lavapipe-srgb-decode.json', import.meta.url)));
  for (const [flags, check] of [
    [['profile=lavapipe'], (k, got) => assert.equal(got.toString(16).padStart(8, '0'), data.formats['rgba8unorm-srgb'].rgb[k], `code ${k}`)],
    [['profile=spec'], (k, got) => { // the EOTF of k / 255 to f32 precision
      const c = k / 255, want = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      const f = new Float32Array(new Uint32Array([got]).buffer)[0];
      assert.ok(Math.abs(f - want) <= want * 2 ** -23, `code ${k}: ${f} vs ${want}`);
    }],
  ]) {
    const { device: dev } = await device(flags);
    const tex = dev.createTexture({ size: [256, 1], format: 'rgba8unorm-srgb', usage: TU.TEXTURE_BINDING | TU.COPY_DST });
    dev.queue.writeTexture({ texture: tex }, Uint8Array.from({ length: 1024 }, (_, i) => i >> 2), { bytesPerRow: 1024 }, [256, 1]);
    const out = dev.createBuffer({ size: 256 * 4, usage: BU.STORAGE | BU.COPY_SRC });
    await compute(dev, `@group(0) @binding(0) var t : texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> o : array<u32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g : vec3<u32>) {
  o[g.x] = bitcast<u32>(textureLoad(t, vec2<u32>(g.x, 0u), 0).g);
}`, [tex.createView(), { buffer: out }], [4, 1, 1]);
    const got = new Uint32Array((await readBack(dev, out, 1024)).buffer);
    for (let k = 0; k < 256; k++) check(k, got[k]);
  }
});

test('an encoder checks each command at finish(), as WebGPU does: copies and dispatches', async () => {
  const { device: dev } = await device();
  const noSrc = dev.createBuffer({ size: 16, usage: BU.COPY_DST });
  const dst = dev.createBuffer({ size: 16, usage: BU.COPY_DST | BU.MAP_READ });
  let enc = dev.createCommandEncoder();
  enc.copyBufferToBuffer(noSrc, 0, dst, 0, 16); // the source lacks COPY_SRC
  dev.pushErrorScope('validation');
  const cb = enc.finish();
  const e = await dev.popErrorScope();
  assert.ok(e instanceof globals.GPUValidationError);
  assert.match(e.message, /COPY_SRC/);
  dev.pushErrorScope('validation');
  dev.queue.submit([cb]); // an invalid command buffer
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
  // a dispatch without the bind group its pipeline's layout needs
  const p = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code:
    '@group(0) @binding(0) var<storage, read_write> v : array<u32>;\n@compute @workgroup_size(1) fn main() { v[0] = 1u; }' }) } });
  enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(p);
  pass.dispatchWorkgroups(1);
  pass.end();
  dev.pushErrorScope('validation');
  enc.finish();
  const e2 = await dev.popErrorScope();
  assert.ok(e2 instanceof globals.GPUValidationError);
  assert.match(e2.message, /@group\(0\)/);
});

// Issue 23's API rules, each as the spec states it and as Dawn (npm webgpu,
// on lavapipe) answered the same calls.
test('binding slot limits count per shader stage; the vertex and fragment storage limits exist', async () => {
  const { adapter, device: dev } = await device();
  // GPUSupportedLimits' defaults (spec limits table), adapter and device alike
  const want = {
    maxStorageBuffersInVertexStage: 8, maxStorageBuffersInFragmentStage: 8,
    maxStorageTexturesInVertexStage: 4, maxStorageTexturesInFragmentStage: 4,
    maxBindGroupsPlusVertexBuffers: 24, maxImmediateSize: 64, maxVertexBuffers: 8,
    maxVertexAttributes: 16, maxVertexBufferArrayStride: 2048, maxInterStageShaderVariables: 16,
    maxColorAttachments: 8, maxColorAttachmentBytesPerSample: 32,
  };
  for (const [k, v] of Object.entries(want)) {
    assert.equal(adapter.limits[k], v, k);
    assert.equal(dev.limits[k], v, k);
  }
  // requestable: a core device's vertex and fragment limits equal the all-stages one
  const d2 = await (await create().requestAdapter()).requestDevice({ requiredLimits: { maxStorageTexturesInFragmentStage: 4 } });
  assert.equal(d2.limits.maxStorageTexturesInFragmentStage, d2.limits.maxStorageTexturesPerShaderStage);
  const C = globals.GPUShaderStage.COMPUTE, F = globals.GPUShaderStage.FRAGMENT;
  const st = (binding, visibility) => ({ binding, visibility, storageTexture: { access: 'read-only', format: 'r32float' } });
  const expect = async (what, f, error) => {
    dev.pushErrorScope('validation');
    f();
    const e = await dev.popErrorScope();
    if (error) assert.match(e?.message ?? 'no error', error, what);
    else assert.equal(e, null, what);
  };
  // "exceeds the binding slot limits": 4 compute + 4 fragment storage textures fit
  await expect('4C+4F', () => dev.createBindGroupLayout({ entries: [0, 1, 2, 3].map((i) => st(i, C)).concat([4, 5, 6, 7].map((i) => st(i, F))) }));
  // COMPUTE|FRAGMENT counts in both stages: 3 + 2 = 5 compute ones
  await expect('3C+2CF', () => dev.createBindGroupLayout({ entries: [0, 1, 2].map((i) => st(i, C)).concat([3, 4].map((i) => st(i, C | F))) }), /maxStorageTexturesPerShaderStage/);
  // createPipelineLayout counts all its groups together
  const b3 = dev.createBindGroupLayout({ entries: [0, 1, 2].map((i) => st(i, C)) });
  const b3f = dev.createBindGroupLayout({ entries: [0, 1, 2].map((i) => st(i, F)) });
  await expect('3C+3F layout', () => dev.createPipelineLayout({ bindGroupLayouts: [b3, b3f] }));
  await expect('3C+3C layout', () => dev.createPipelineLayout({ bindGroupLayouts: [b3, b3] }), /maxStorageTexturesPerShaderStage/);
});

test('two writable bindings of one buffer range or texture subresource: finish() fails (aliasing a writable resource)', async () => {
  const { device: dev } = await device();
  const buf = dev.createBuffer({ size: 1024, usage: BU.STORAGE });
  const p = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code:
    '@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@group(0) @binding(1) var<storage, read_write> b: array<u32>;\n' +
    '@compute @workgroup_size(1) fn main() { a[0] = 1u; b[0] = 2u; }' }) } });
  const finish = async (entries, pipeline = p) => {
    const g = dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, g);
    pass.dispatchWorkgroups(1);
    pass.end();
    dev.pushErrorScope('validation');
    enc.finish();
    return dev.popErrorScope();
  };
  // [0, 512) against [256, 512): overlap, an error (Dawn: "Writable storage
  // buffer binding aliasing found"); against [512, 768): the usage scope
  // storage exception allows disjoint ranges
  const e1 = await finish([{ binding: 0, resource: { buffer: buf, offset: 0, size: 512 } }, { binding: 1, resource: { buffer: buf, offset: 256, size: 256 } }]);
  assert.match(e1?.message ?? 'no error', /alias a writable resource/);
  assert.equal(await finish([{ binding: 0, resource: { buffer: buf, offset: 0, size: 512 } }, { binding: 1, resource: { buffer: buf, offset: 512, size: 256 } }]), null);
  const tex = dev.createTexture({ size: [4, 4], format: 'r32float', usage: TU.STORAGE_BINDING });
  const pt = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code:
    '@group(0) @binding(0) var a: texture_storage_2d<r32float, write>;\n@group(0) @binding(1) var b: texture_storage_2d<r32float, write>;\n' +
    '@compute @workgroup_size(1) fn main() { textureStore(a, vec2u(0), vec4f(1)); textureStore(b, vec2u(0), vec4f(2)); }' }) } });
  const e2 = await finish([{ binding: 0, resource: tex.createView() }, { binding: 1, resource: tex.createView() }], pt);
  assert.match(e2?.message ?? 'no error', /alias a writable resource/);
  // dispatchWorkgroupsIndirect's buffer is in the usage scope ("input"): bound
  // as writable storage too, whatever the ranges, finish() fails (Dawn and the
  // CTS's buffer_usage_in_one_compute_pass_with_one_dispatch agree)
  const ind = dev.createBuffer({ size: 1024, usage: BU.STORAGE | BU.INDIRECT });
  for (const [args, bad] of [[ind, true], [dev.createBuffer({ size: 16, usage: BU.INDIRECT }), false]]) {
    const g = dev.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: ind, offset: 256, size: 256 } }, { binding: 1, resource: { buffer: ind, offset: 512, size: 256 } }] });
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p);
    pass.setBindGroup(0, g);
    pass.dispatchWorkgroupsIndirect(args, 0);
    pass.end();
    dev.pushErrorScope('validation');
    enc.finish();
    const e = await dev.popErrorScope();
    if (bad) assert.match(e?.message ?? 'no error', /indirect buffer/);
    else assert.equal(e, null);
  }
});

test('layout \'auto\' of a shader using only @group(1): group 0 is an empty bind group layout', async () => {
  const { device: dev } = await device();
  const p = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code:
    '@group(1) @binding(0) var<storage, read_write> b: array<u32>;\n@compute @workgroup_size(1) fn main() { b[0] = 7u; }' }) } });
  const buf = dev.createBuffer({ size: 16, usage: BU.STORAGE | BU.COPY_SRC });
  dev.pushErrorScope('validation');
  const g0 = dev.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [] });
  const g1 = dev.createBindGroup({ layout: p.getBindGroupLayout(1), entries: [{ binding: 0, resource: { buffer: buf } }] });
  for (const set0 of [true, false]) { // Dawn accepts both
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p);
    if (set0) pass.setBindGroup(0, g0);
    pass.setBindGroup(1, g1);
    pass.dispatchWorkgroups(1);
    pass.end();
    dev.queue.submit([enc.finish()]);
  }
  assert.equal(await dev.popErrorScope(), null);
  assert.equal(new Uint32Array((await readBack(dev, buf, 16)).buffer)[0], 7);
  // an empty layout has no binding 0
  dev.pushErrorScope('validation');
  dev.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] });
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
});

test('a destroyed buffer or texture: createView and createBindGroup are valid, submit() refuses it', async () => {
  // the CTS's createBindGroup buffer,resource_state and texture,resource_state:
  // only an invalid resource is an error there
  const { device: dev } = await device();
  const C = globals.GPUShaderStage.COMPUTE;
  const buf = dev.createBuffer({ size: 16, usage: BU.STORAGE });
  const tex = dev.createTexture({ size: [4, 4], format: 'r32float', usage: TU.TEXTURE_BINDING });
  buf.destroy();
  tex.destroy();
  const bl = dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: C, buffer: { type: 'storage' } }] });
  const tl = dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: C, texture: { sampleType: 'unfilterable-float' } }] });
  dev.pushErrorScope('validation');
  const g = dev.createBindGroup({ layout: bl, entries: [{ binding: 0, resource: { buffer: buf } }] });
  dev.createBindGroup({ layout: bl, entries: [{ binding: 0, resource: buf }] });
  dev.createBindGroup({ layout: tl, entries: [{ binding: 0, resource: tex.createView() }] });
  dev.createBindGroup({ layout: tl, entries: [{ binding: 0, resource: tex }] });
  assert.equal(await dev.popErrorScope(), null);
  const p = dev.createComputePipeline({ layout: dev.createPipelineLayout({ bindGroupLayouts: [bl] }), compute: { module: dev.createShaderModule({ code:
    '@group(0) @binding(0) var<storage, read_write> a: array<u32>;\n@compute @workgroup_size(1) fn main() { a[0] = 1u; }' }) } });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(p);
  pass.setBindGroup(0, g);
  pass.dispatchWorkgroups(1);
  pass.end();
  dev.pushErrorScope('validation');
  const cb = enc.finish();
  assert.equal(await dev.popErrorScope(), null);
  dev.pushErrorScope('validation');
  dev.queue.submit([cb]);
  assert.match((await dev.popErrorScope())?.message ?? 'no error', /destroyed/);
});

test('createBindGroup and createPipelineLayout: a buffer range of size 0 is empty; a layout or resource of another device is refused', async () => {
  // spec createBindGroup: the bound part "has non-zero size"; every resource
  // and the layout "valid to use with" the device (the CTS's
  // buffer_offset_and_size_for_bind_groups_match and *,device_mismatch)
  const { device: dev } = await device();
  const { device: other } = await device();
  const C = globals.GPUShaderStage.COMPUTE;
  const bl = dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: C, buffer: { type: 'storage' } }] });
  const buf = dev.createBuffer({ size: 256, usage: BU.STORAGE });
  const theirs = other.createBuffer({ size: 256, usage: BU.STORAGE });
  const theirLayout = other.createBindGroupLayout({ entries: [{ binding: 0, visibility: C, buffer: { type: 'storage' } }] });
  for (const [what, desc] of [
    ['size 0', { layout: bl, entries: [{ binding: 0, resource: { buffer: buf, size: 0 } }] }],
    ['another device\'s buffer', { layout: bl, entries: [{ binding: 0, resource: { buffer: theirs } }] }],
    ['another device\'s layout', { layout: theirLayout, entries: [{ binding: 0, resource: { buffer: buf } }] }],
  ]) {
    dev.pushErrorScope('validation');
    dev.createBindGroup(desc);
    assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError, what);
  }
  // createPipelineLayout: each layout "valid to use with" the device too
  dev.pushErrorScope('validation');
  dev.createPipelineLayout({ bindGroupLayouts: [bl, theirLayout] });
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError, 'pipeline layout');
  dev.pushErrorScope('validation');
  dev.createBindGroup({ layout: bl, entries: [{ binding: 0, resource: { buffer: buf, size: 256 } }] });
  dev.createBindGroup({ layout: bl, entries: [{ binding: 0, resource: { buffer: buf } }] });
  assert.equal(await dev.popErrorScope(), null);
});

test('subgroups: the feature, the adapter\'s sub-group size, subgroupAdd over the lock-step lanes', async () => {
  const { adapter, device: dev } = await device(['profile=lavapipe', 'subgroup=8'],
                                                { requiredFeatures: ['subgroups'] });
  assert.ok(adapter.features.has('subgroups'));
  assert.equal(adapter.info.subgroupMinSize, 8);
  assert.equal(adapter.info.subgroupMaxSize, 8);
  const out = dev.createBuffer({ size: 4 * 32, usage: BU.STORAGE | BU.COPY_SRC });
  await compute(dev, `enable subgroups;
    @group(0) @binding(0) var<storage, read_write> out : array<u32, 32>;
    @compute @workgroup_size(32) fn main(@builtin(local_invocation_index) l : u32,
                                         @builtin(subgroup_invocation_id) s : u32) {
      out[l] = subgroupAdd(l) * 100u + s;
    }`, [{ buffer: out }], [1]);
  const w = new Uint32Array((await readBack(dev, out, 4 * 32)).buffer);
  for (let l = 0; l < 32; l++) {
    const first = l - (l % 8); // the sum of the 8 lanes of l's sub-group, as WGSL defines it
    let sum = 0;
    for (let k = first; k < first + 8; k++) sum += k;
    assert.equal(w[l], sum * 100 + (l % 8));
  }
  // without the feature, 'enable subgroups;' is refused at pipeline creation
  const { device: plain } = await device(['profile=lavapipe']);
  plain.pushErrorScope('validation');
  plain.createComputePipeline({ layout: 'auto', compute: { module: plain.createShaderModule({
    code: 'enable subgroups;\n@compute @workgroup_size(1) fn main() {}' }) } });
  assert.ok(await plain.popErrorScope());
});
