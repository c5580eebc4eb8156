// Lifetimes under stress (node --expose-gc --test; meson test --suite node):
// thousands of objects made and dropped come back to the native object
// counts of before (gpu.stex.liveObjects(), counted where the addon makes
// and frees its handles), mapAsync racing unmap() and destroy() settles as
// WebGPU's mapAsync, unmap and destroy algorithms say, and the resident
// set stays bounded over repeated rounds.  $STEX_STRESS_N scales the
// rounds (valgrind runs a small N).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { create, globals } from '../index.mjs';

const { GPUBufferUsage: BU, GPUTextureUsage: TU, GPUMapMode, GPUShaderStage: SS } = globals;
const N = Number(process.env.STEX_STRESS_N ?? 4000);

// A full collection: --expose-gc's gc(), else V8's flag set at run time.
const gc = globalThis.gc ?? (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc'));

const gpu = create();
const live = () => gpu.stex.liveObjects();
const total = (c) => Object.values(c).reduce((a, b) => a + b, 0);

// Collects until the counts equal `want` (finalisers run after the
// collection, from the event loop): bounded, then the last counts.
async function settle(want, tries = 100) {
  let now;
  for (let i = 0; i < tries; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
    now = live();
    if (Object.keys(want).every((k) => now[k] === want[k])) return now;
  }
  return now;
}

// Collects until the counts stop changing (what earlier tests dropped is
// gone): the baseline a test compares with.
async function quiesce() {
  let last = null;
  for (let i = 0, same = 0; i < 100 && same < 3; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
    const now = live();
    same = last && Object.keys(now).every((k) => now[k] === last[k]) ? same + 1 : 0;
    last = now;
  }
  return last;
}

async function newDevice() {
  return (await gpu.requestAdapter()).requestDevice();
}

const WGSL = `
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var img: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(2) var src: texture_2d<f32>;
@group(0) @binding(3) var smp: sampler;
@compute @workgroup_size(1) fn main() {
  out[0] = 1u;
  textureStore(img, vec2i(0), textureSampleLevel(src, smp, vec2f(0.5), 0.0));
}`;

const LAYOUT = [
  { binding: 0, visibility: SS.COMPUTE, buffer: { type: 'storage' } },
  { binding: 1, visibility: SS.COMPUTE, storageTexture: { format: 'rgba8unorm' } },
  { binding: 2, visibility: SS.COMPUTE, texture: {} },
  { binding: 3, visibility: SS.COMPUTE, sampler: {} },
];

// One round: n of each kind, the later kinds referencing the earlier
// ones, all dropped when it returns (the device too).  Returns the counts
// seen while everything was alive.
async function round(n) {
  const dev = await newDevice();
  const made = { GPUBuffer: 0, GPUTexture: 0, GPUTextureView: 0, GPUSampler: 0, GPUShaderModule: 0, GPUComputePipeline: 0, GPUBindGroupLayout: 0, GPUBindGroup: 0 };
  const keep = [], leftMapped = [], destroyed = [];
  const before = live();
  dev.pushErrorScope('validation');
  for (let i = 0; i < n; i++) {
    const b = dev.createBuffer({ size: 256 + 16 * (i % 7), usage: BU.STORAGE | BU.COPY_SRC | BU.COPY_DST, mappedAtCreation: i % 3 === 0 });
    if (i % 3 === 0) new Uint32Array(b.getMappedRange()).fill(i);
    if (i % 5 === 0) b.destroy(), made.GPUBuffer++, destroyed.push(b); // its bytes freed at once, the object kept
    else if (i % 6 === 3) made.GPUBuffer++, leftMapped.push(b); // dropped still mapped
    else {
      if (i % 3 === 0) b.unmap();
      made.GPUBuffer++, keep.push(b);
    }
  }
  const textures = [], views = [], samplers = [];
  for (let i = 0; i < n / 4; i++) {
    const t = dev.createTexture({ size: [4 + (i % 4), 4], format: 'rgba8unorm', usage: TU.STORAGE_BINDING | TU.TEXTURE_BINDING | TU.COPY_SRC });
    textures.push(t);
    views.push(t.createView(), t.createView());
    samplers.push(dev.createSampler({ magFilter: i % 2 ? 'linear' : 'nearest' }));
    made.GPUTexture++, made.GPUTextureView += 2, made.GPUSampler++;
  }
  const pipelines = [];
  for (let i = 0; i < Math.max(2, n / 50); i++) {
    const module = dev.createShaderModule({ code: WGSL });
    made.GPUShaderModule++;
    let layout = 'auto';
    if (i % 2) {
      layout = dev.createPipelineLayout({ bindGroupLayouts: [dev.createBindGroupLayout({ entries: LAYOUT })] });
      made.GPUBindGroupLayout++;
    }
    pipelines.push(dev.createComputePipeline({ layout, compute: { module } }));
    made.GPUComputePipeline++;
  }
  const encoders = [];
  for (let i = 0; i < n; i++) {
    const p = pipelines[i % pipelines.length];
    const k = i % textures.length;
    const bg = dev.createBindGroup({
      layout: p.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: keep[i % keep.length] } },
        { binding: 1, resource: views[2 * k] },
        { binding: 2, resource: views[2 * ((k + 1) % textures.length) + 1] },
        { binding: 3, resource: samplers[i % samplers.length] },
      ],
    });
    made.GPUBindGroup++;
    // command buffers never submitted, holding the pipeline, the group and copies
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(1);
    pass.end();
    enc.copyBufferToBuffer(keep[i % keep.length], 0, keep[(i + 1) % keep.length], 0, 16);
    encoders.push(enc.finish());
  }
  // counted before any await: the dispatches below run off the thread, and
  // the collector may take the shader modules (no pipeline holds one) meanwhile
  const during = live();
  for (const [k, v] of Object.entries(made)) assert.equal(during[k] - before[k], v, `${k} made`);
  // a few submitted: the work runs and the objects stay collectable
  dev.queue.submit(encoders.slice(0, 4));
  await dev.queue.onSubmittedWorkDone();
  assert.equal(await dev.popErrorScope(), null);
  return during;
}

test('objects made and dropped return the native counts to where they were', async () => {
  const baseline = await quiesce(); // the GPU's probe adapter goes too
  const during = await round(N); // asserts the counts went up by what it made
  assert.ok(total(during) > total(baseline) + 2 * N);
  const after = await settle(baseline);
  assert.deepEqual(after, baseline);
});

test('destroy(): the memory goes at once, the object with the collector; a destroyed object used is an error, not a crash', async () => {
  const dev = await newDevice();
  const c0 = live();
  (() => { // (a function of its own: no stale register of the async one holds a buffer)
    const bufs = Array.from({ length: N }, () => dev.createBuffer({ size: 64, usage: BU.STORAGE }));
    assert.equal(live().GPUBuffer, c0.GPUBuffer + N);
    for (const b of bufs) { b.destroy(); b.destroy(); } // twice is valid (WebGPU)
    // the objects stay while JavaScript holds them (WebGPU lets createBindGroup
    // and createView take destroyed ones), then go with the collector
    assert.equal(live().GPUBuffer, c0.GPUBuffer + N);
  })();
  assert.equal((await settle({ GPUBuffer: c0.GPUBuffer })).GPUBuffer, c0.GPUBuffer);
  // the bytes go at destroy(), even while a bind group holds the buffer:
  // 32 MiB of zeroed pages leave the resident set
  const big = dev.createBuffer({ size: 32 << 20, usage: BU.STORAGE });
  const holds = dev.createBindGroup({ layout: dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: SS.COMPUTE, buffer: { type: 'storage' } }] }), entries: [{ binding: 0, resource: { buffer: big } }] });
  const before = process.memoryUsage().rss;
  big.destroy();
  assert.ok(before - process.memoryUsage().rss >= 24 << 20, 'destroy() freed the bytes');
  assert.ok(holds);
  // a view keeps its texture object, freed with its last view
  const holder = { view: null };
  (() => {
    const t = dev.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: TU.TEXTURE_BINDING });
    holder.view = t.createView();
    t.destroy();
  })();
  assert.equal(live().GPUTexture, c0.GPUTexture + 1);
  holder.view = null;
  assert.equal((await settle({ GPUTexture: c0.GPUTexture })).GPUTexture, c0.GPUTexture);
  // a destroyed object used afterwards is a validation error, not a crash
  const b = dev.createBuffer({ size: 16, usage: BU.STORAGE | BU.COPY_DST });
  const t2 = dev.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: TU.TEXTURE_BINDING | TU.COPY_DST });
  const enc = dev.createCommandEncoder();
  enc.clearBuffer(b, 0, 16);
  const cb = enc.finish();
  b.destroy();
  t2.destroy();
  for (const use of [
    () => dev.queue.submit([cb]),
    () => dev.queue.writeBuffer(b, 0, new Uint8Array(4)),
    () => dev.queue.writeTexture({ texture: t2 }, new Uint8Array(64), { bytesPerRow: 16 }, [4, 4]),
  ]) {
    dev.pushErrorScope('validation');
    use();
    assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError, String(use));
  }
});

test('submit: a destroyed or mapped resource in any command buffer fails the whole submit', async () => {
  const dev = await newDevice();
  const x = dev.createBuffer({ size: 16, usage: BU.STORAGE | BU.COPY_SRC | BU.COPY_DST, mappedAtCreation: true });
  new Uint32Array(x.getMappedRange()).fill(7);
  x.unmap();
  const clearX = () => { const e = dev.createCommandEncoder(); e.clearBuffer(x); return e.finish(); };
  const module = dev.createShaderModule({ code: WGSL });
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module } });
  const withGroup = (buf, tex) => {
    const bg = dev.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: { buffer: buf } },
        { binding: 1, resource: tex.createView() },
        { binding: 2, resource: dev.createTexture({ size: [1, 1], format: 'rgba8unorm', usage: TU.TEXTURE_BINDING }).createView() },
        { binding: 3, resource: dev.createSampler() },
      ],
    });
    const e = dev.createCommandEncoder();
    const pass = e.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(1);
    pass.end();
    return e.finish();
  };
  const storage = () => dev.createBuffer({ size: 16, usage: BU.STORAGE });
  const image = () => dev.createTexture({ size: [1, 1], format: 'rgba8unorm', usage: TU.STORAGE_BINDING });
  const mapped = dev.createBuffer({ size: 16, usage: BU.MAP_READ | BU.COPY_DST });
  const cases = {
    'bind group buffer destroyed': () => { const b = storage(); const cb = withGroup(b, image()); b.destroy(); return cb; },
    'bind group texture destroyed': () => { const t = image(); const cb = withGroup(storage(), t); t.destroy(); return cb; },
    'copy into a buffer with a map pending': () => {
      const e = dev.createCommandEncoder();
      e.copyBufferToBuffer(x, 0, mapped, 0, 16);
      const cb = e.finish();
      mapped.mapAsync(GPUMapMode.READ).catch(() => {});
      return cb;
    },
  };
  for (const [what, make] of Object.entries(cases)) {
    const bad = make();
    dev.pushErrorScope('validation');
    dev.queue.submit([clearX(), bad]); // WebGPU: nothing of this submit runs
    assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError, what);
    mapped.unmap();
    const rb = dev.createBuffer({ size: 16, usage: BU.MAP_READ | BU.COPY_DST });
    const e = dev.createCommandEncoder();
    e.copyBufferToBuffer(x, 0, rb, 0, 16);
    dev.queue.submit([e.finish()]);
    await rb.mapAsync(GPUMapMode.READ);
    assert.deepEqual([...new Uint32Array(rb.getMappedRange())], [7, 7, 7, 7], `${what}: the clear ran`);
  }
  // writeBuffer into a buffer with a map pending or mapped: a validation error, nothing written
  const m = dev.createBuffer({ size: 16, usage: BU.MAP_READ | BU.COPY_DST });
  const mp = m.mapAsync(GPUMapMode.READ);
  for (const when of ['pending', 'mapped']) {
    dev.pushErrorScope('validation');
    dev.queue.writeBuffer(m, 0, new Uint32Array([1, 2, 3, 4]));
    assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError, when);
    await mp;
  }
  assert.deepEqual([...new Uint32Array(m.getMappedRange())], [0, 0, 0, 0]);
  // mappedAtCreation: a size not a multiple of 4 is a RangeError (no
  // validation error); an invalid buffer is mapped all the same
  dev.pushErrorScope('validation');
  assert.throws(() => dev.createBuffer({ size: 6, usage: BU.COPY_DST, mappedAtCreation: true }), RangeError);
  assert.equal(await dev.popErrorScope(), null);
  dev.pushErrorScope('validation');
  const inv = dev.createBuffer({ size: 16, usage: BU.MAP_READ | BU.STORAGE, mappedAtCreation: true }); // MAP_READ only with COPY_DST
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);
  assert.equal(inv.mapState, 'mapped');
  assert.equal(inv.getMappedRange().byteLength, 16);
  inv.unmap();
  assert.equal(inv.mapState, 'unmapped');
  // the same dispatch with live resources is valid
  dev.pushErrorScope('validation');
  dev.queue.submit([withGroup(storage(), image())]);
  assert.equal(await dev.popErrorScope(), null);
});

test('mapAsync racing unmap() and destroy(): AbortError at once, then OperationError from getMappedRange', async () => {
  const dev = await newDevice();
  const pending = Symbol('pending');
  // Settled already? (a promise settled before this call wins the race)
  const state = (p) => Promise.race([p, Promise.resolve(pending)]).then((v) => (v === pending ? v : 'resolved'), (e) => e.name);

  const b = dev.createBuffer({ size: 64, usage: BU.MAP_READ | BU.COPY_DST });
  const p1 = b.mapAsync(GPUMapMode.READ);
  assert.equal(b.mapState, 'pending');
  b.destroy(); // WebGPU: destroy() calls unmap(), which rejects the pending map
  assert.equal(b.mapState, 'unmapped');
  assert.equal(await state(p1), 'AbortError');
  assert.throws(() => b.getMappedRange(), { name: 'OperationError' });
  dev.pushErrorScope('validation');
  await assert.rejects(b.mapAsync(GPUMapMode.READ), { name: 'OperationError' }); // destroyed
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);

  // unmap() while pending, then a new map at once: the first rejects, the second maps
  const c = dev.createBuffer({ size: 64, usage: BU.MAP_READ | BU.COPY_DST });
  const q1 = c.mapAsync(GPUMapMode.READ);
  c.unmap();
  const q2 = c.mapAsync(GPUMapMode.READ, 0, 32);
  await assert.rejects(q1, { name: 'AbortError' });
  await q2;
  assert.equal(c.mapState, 'mapped');
  const r = c.getMappedRange(0, 32);
  assert.equal(r.byteLength, 32);
  assert.throws(() => c.getMappedRange(32, 32), { name: 'OperationError' }); // outside the mapped range
  // a second map while mapped: OperationError and a validation error
  dev.pushErrorScope('validation');
  await assert.rejects(c.mapAsync(GPUMapMode.READ), { name: 'OperationError' });
  assert.ok((await dev.popErrorScope()) instanceof globals.GPUValidationError);

  // destroy() of a mapped buffer detaches the ranges it gave
  c.destroy();
  assert.equal(r.byteLength, 0);
  assert.equal(c.mapState, 'unmapped');
  assert.throws(() => c.getMappedRange(0, 8), { name: 'OperationError' });

  // many at once: every map settles, the ones cancelled with AbortError, none mapped after destroy
  const bufs = Array.from({ length: N }, () => dev.createBuffer({ size: 256, usage: BU.MAP_WRITE | BU.COPY_SRC }));
  const maps = bufs.map((x) => x.mapAsync(GPUMapMode.WRITE));
  bufs.forEach((x, i) => { if (i % 3 === 0) x.destroy(); else if (i % 3 === 1) x.unmap(); });
  const res = await Promise.allSettled(maps);
  res.forEach((s, i) => {
    if (i % 3 === 2) assert.equal(s.status, 'fulfilled');
    else assert.equal(s.reason?.name, 'AbortError', `map ${i}`);
    assert.equal(bufs[i].mapState, i % 3 === 2 ? 'mapped' : 'unmapped');
  });
});

test('device.destroy() with maps pending and objects alive: AbortError, lost, no errors after', async () => {
  const c0 = await quiesce();
  await (async () => {
    const dev = await newDevice();
    let uncaptured = 0;
    dev.addEventListener('uncapturederror', () => uncaptured++);
    const mapped = dev.createBuffer({ size: 64, usage: BU.MAP_WRITE | BU.COPY_SRC });
    await mapped.mapAsync(GPUMapMode.WRITE);
    const range = mapped.getMappedRange();
    const pending = Array.from({ length: 8 }, () => dev.createBuffer({ size: 64, usage: BU.MAP_READ | BU.COPY_DST }));
    const maps = pending.map((x) => x.mapAsync(GPUMapMode.READ));
    const atCreation = dev.createBuffer({ size: 16, usage: BU.STORAGE, mappedAtCreation: true });
    const alive = [dev.createTexture({ size: [8, 8], format: 'r32float', usage: TU.STORAGE_BINDING }), dev.createSampler(), dev.createShaderModule({ code: WGSL })];
    dev.destroy();
    // WebGPU: destroy() unmaps every buffer of the device
    for (const x of [...pending, mapped, atCreation]) assert.equal(x.mapState, 'unmapped');
    assert.equal(range.byteLength, 0);
    for (const s of await Promise.allSettled(maps)) assert.equal(s.reason?.name, 'AbortError');
    assert.equal((await dev.lost).reason, 'destroyed');
    // after: maps abort (the device is lost), work is "done", no error is reported
    await assert.rejects(pending[0].mapAsync(GPUMapMode.READ), { name: 'AbortError' });
    await dev.queue.onSubmittedWorkDone();
    const b = dev.createBuffer({ size: 3, usage: BU.STORAGE | BU.MAP_READ }); // invalid twice over
    dev.queue.writeBuffer(b, 0, new Uint8Array(4));
    dev.destroy(); // twice is valid
    assert.equal(uncaptured, 0);
    assert.ok(alive.length);
  })();
  assert.deepEqual(await settle(c0), c0);
});

test('promise order: maps asked before onSubmittedWorkDone settle before it', async () => {
  const dev = await newDevice();
  const log = [];
  const bufs = Array.from({ length: 6 }, () => dev.createBuffer({ size: 16, usage: BU.MAP_READ | BU.COPY_DST }));
  const all = [];
  for (let i = 0; i < 3; i++) all.push(bufs[i].mapAsync(GPUMapMode.READ).then(() => log.push(`map${i}`)));
  all.push(dev.queue.onSubmittedWorkDone().then(() => log.push('done0')));
  for (let i = 3; i < 6; i++) all.push(bufs[i].mapAsync(GPUMapMode.READ).then(() => log.push(`map${i}`)));
  all.push(dev.queue.onSubmittedWorkDone().then(() => log.push('done1')));
  await Promise.all(all);
  const at = (s) => log.indexOf(s);
  for (let i = 0; i < 3; i++) assert.ok(at(`map${i}`) < at('done0'), log.join(' '));
  for (let i = 0; i < 6; i++) assert.ok(at(`map${i}`) < at('done1'), log.join(' '));
});

test('resident memory stays bounded over repeated rounds', async () => {
  const dev = await newDevice();
  const big = 64 * 1024;
  const rounds = 8, n = Math.max(16, Math.min(256, N / 4)); // n x 3 x 64 KiB per round
  const rss = [];
  const c0 = await quiesce();
  // in a function of its own: no frame of this test holds its last objects
  const fill = (r) => {
    for (let i = 0; i < n; i++) {
      const b = dev.createBuffer({ size: big, usage: BU.STORAGE | BU.COPY_DST });
      dev.queue.writeBuffer(b, 0, new Uint8Array(big).fill(r)); // touch every page
      if (i % 2) b.destroy(); // the others go with the collector
      const t = dev.createTexture({ size: [64, 64], format: 'rgba32float', usage: TU.STORAGE_BINDING }); // 64 KiB
      t.createView();
    }
  };
  for (let r = 0; r < rounds; r++) {
    fill(r);
    const c = await settle(c0);
    assert.equal(c.GPUBuffer, c0.GPUBuffer);
    assert.equal(c.GPUTexture, c0.GPUTexture);
    rss.push(process.memoryUsage().rss);
  }
  // Unfreed, each round would add n x 192 KiB, so the last four rounds' peak
  // would stand four rounds above the first four's; allow half a round.
  // (Peaks, not single samples: the allocator gives pages back now and then,
  // and one low sample would look like growth after it.)
  const perRound = n * 3 * big;
  const peak = (a) => Math.max(...a);
  const growth = peak(rss.slice(rounds / 2)) - peak(rss.slice(0, rounds / 2));
  assert.ok(growth < perRound / 2, `rss peak grew ${(growth / 2 ** 20).toFixed(1)} MiB from the first ${rounds / 2} rounds to the last ${rounds / 2}, each round ${(perRound / 2 ** 20).toFixed(1)} MiB: ${rss.map((x) => (x / 2 ** 20).toFixed(0)).join(' ')}`);
  assert.ok(dev); // the device stays alive throughout
});
