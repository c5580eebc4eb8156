// The queue's work off the JavaScript thread (meson: node-queue, suite
// node): a dispatch runs on a worker thread while timers and promises go
// on; later queue operations, maps and onSubmittedWorkDone wait for it, as
// WebGPU's queue timeline orders them; the watchdog (flag timeout) loses
// the device on a dispatch that does not end; destroy() and the collector
// while work is in flight are safe; every flag value is checked.
// Expectations come from WebGPU's rules and arithmetic done here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { create, globals } from '../index.mjs';

const { GPUBufferUsage: BU, GPUMapMode } = globals;

async function device(flags = []) {
  const adapter = await create(flags).requestAdapter();
  return adapter.requestDevice();
}

// out[i] = N + i after a loop of N steps per invocation (N an override):
// long enough to see the event loop run meanwhile.
const LOOP = `
override N : u32 = 1u;
@group(0) @binding(0) var<storage, read_write> out : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var n = 0u;
  for (var k = 0u; k < N; k = k + 1u) { n = n + 1u; }
  out[id.x] = n + id.x;
}`;
// never ends: n wraps at 2^32 but the exit also needs id.x == 1000, which
// no invocation of one 64-wide workgroup has
const ENDLESS = `
@group(0) @binding(0) var<storage, read_write> out : array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var n = 0u;
  loop { n = n + 1u; if (n == 0u && id.x == 1000u) { break; } }
  out[id.x] = n;
}`;

function setup(dev, code, constants = {}) {
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }), constants } });
  const out = dev.createBuffer({ size: 256, usage: BU.STORAGE | BU.COPY_SRC | BU.COPY_DST });
  const bg = dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: out } }] });
  const encode = (x = 1, y = 1, z = 1) => {
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bg);
    pass.dispatchWorkgroups(x, y, z);
    pass.end();
    return enc;
  };
  return { pipeline, out, bg, encode };
}

async function words(dev, src) {
  const rb = dev.createBuffer({ size: 256, usage: BU.MAP_READ | BU.COPY_DST });
  const enc = dev.createCommandEncoder();
  enc.copyBufferToBuffer(src, 0, rb, 0, 256);
  dev.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const w = [...new Uint32Array(rb.getMappedRange())];
  rb.unmap();
  return w;
}

// The steps that make one dispatch last about `ms` here: timed once.
async function stepsFor(ms) {
  const dev = await device(['threads=1']);
  const n = 1000000;
  const s = setup(dev, LOOP, { N: n });
  let took = Infinity;
  for (let i = 0; i < 2; i++) { // the fastest of two: the first starts the threads
    const t0 = performance.now();
    dev.queue.submit([s.encode().finish()]);
    await dev.queue.onSubmittedWorkDone();
    took = Math.min(took, Math.max(1, performance.now() - t0));
  }
  dev.destroy();
  return Math.min(2 ** 31, Math.ceil(n * ms / took));
}

test('submit returns at once; timers fire and the results arrive in order while a dispatch runs', async () => {
  const n = await stepsFor(600);
  const dev = await device(['threads=1']);
  const s = setup(dev, LOOP, { N: n });
  let ticks = 0;
  const timer = setInterval(() => { ticks++; }, 10);
  const t0 = performance.now();
  dev.queue.submit([s.encode().finish()]);
  const returned = performance.now() - t0;
  // WebGPU's queue timeline: what is queued after the submit sees its work
  const read = words(dev, s.out); // a copy and a map queued behind it
  const done = dev.queue.onSubmittedWorkDone().then(() => performance.now() - t0);
  dev.queue.writeBuffer(s.out, 4, new Uint32Array([777])); // after the dispatch: it stays
  const tickAtStart = ticks;
  const w = await read;
  const took = await done;
  clearInterval(timer);
  assert.ok(took > 150, `the dispatch took ${took} ms`);
  assert.ok(returned < took / 5, `submit() took ${returned} ms of the work's ${took}`);
  assert.ok(ticks - tickAtStart >= 3, `${ticks - tickAtStart} timer ticks while it ran`);
  assert.equal(w[0], n); // N steps, + global id 0
  assert.equal(w[63], n + 63);
  // the copy was queued before writeBuffer: it shows the dispatch's word
  assert.equal(w[1], n + 1);
  assert.deepEqual((await words(dev, s.out)).slice(0, 3), [n, 777, n + 2]);
});

test('the watchdog (flag timeout) loses the device on a dispatch that never ends', async () => {
  const dev = await device(['timeout=1']);
  const s = setup(dev, ENDLESS);
  let ticks = 0;
  const timer = setInterval(() => { ticks++; }, 20);
  const t0 = performance.now();
  dev.queue.submit([s.encode().finish()]);
  const info = await dev.lost;
  const took = performance.now() - t0;
  clearInterval(timer);
  assert.equal(info.reason, 'unknown');
  assert.match(info.message, /watchdog/);
  assert.match(info.message, /timeout=1 s/);
  assert.ok(took >= 1000 && took < 2000, `lost after ${took} ms`);
  assert.ok(ticks >= 20, `${ticks} timer ticks while it ran`);
  // a lost device: later work runs nothing, maps abort, errors are not reported
  const rb = dev.createBuffer({ size: 4, usage: BU.MAP_READ });
  await assert.rejects(rb.mapAsync(GPUMapMode.READ), { name: 'AbortError' });
  dev.queue.submit([s.encode().finish()]);
  await dev.queue.onSubmittedWorkDone();
});

test('the watchdog: dispatchWorkgroups(65535, 65535, 65535) of a short shader', async () => {
  const dev = await device(['timeout=0.5']);
  const s = setup(dev, LOOP);
  const t0 = performance.now();
  dev.queue.submit([s.encode(65535, 65535, 65535).finish()]);
  const info = await dev.lost;
  const took = performance.now() - t0;
  assert.equal(info.reason, 'unknown');
  assert.ok(took >= 500 && took < 1500, `lost after ${took} ms`);
});

test('max-steps: the interpreter\'s step limit as a flag; the loop is a validation error, the device stays', async () => {
  const dev = await device(['max-steps=100000']);
  const s = setup(dev, ENDLESS);
  dev.pushErrorScope('validation');
  const t0 = performance.now();
  dev.queue.submit([s.encode().finish()]);
  const err = await dev.popErrorScope(); // settles after the submitted work
  assert.ok(performance.now() - t0 < 1000);
  assert.ok(err instanceof globals.GPUValidationError, String(err));
  assert.match(err.message, /max-steps \(100000 /);
  const lost = await Promise.race([dev.lost, new Promise((r) => setTimeout(() => r('alive'), 50))]);
  assert.equal(lost, 'alive');
});

test('destroy() and the collector while work is in flight', async () => {
  const n = await stepsFor(300);
  // a buffer destroyed while the dispatch writes it: its memory goes after
  const dev = await device(['threads=1']);
  const s = setup(dev, LOOP, { N: n });
  dev.queue.submit([s.encode().finish()]);
  const read = words(dev, s.out); // a copy submitted before destroy() still reads it (WebGPU)
  s.out.destroy();
  assert.deepEqual((await read).slice(0, 2), [n, n + 1]);
  await dev.queue.onSubmittedWorkDone();
  dev.pushErrorScope('validation');
  dev.queue.submit([s.encode().finish()]); // WebGPU: a destroyed buffer is refused at submit
  assert.ok(await dev.popErrorScope());

  // everything dropped and collected meanwhile: the work keeps what it uses
  let keep = await device(['threads=1']);
  let t = setup(keep, LOOP, { N: n });
  const q = keep.queue;
  q.submit([t.encode().finish()]);
  t = null;
  for (let i = 0; i < 3 && globalThis.gc; i++) { globalThis.gc(); await new Promise((r) => setTimeout(r, 10)); }
  await q.onSubmittedWorkDone();
  keep = null;

  // device.destroy() stops the dispatch at once: lost 'destroyed', not the watchdog
  const d3 = await device(['timeout=30']);
  const e = setup(d3, ENDLESS);
  d3.queue.submit([e.encode().finish()]);
  await new Promise((r) => setTimeout(r, 200));
  const t0 = performance.now();
  d3.destroy();
  e.out.destroy();
  await d3.queue.onSubmittedWorkDone();
  assert.ok(performance.now() - t0 < 500);
  assert.equal((await d3.lost).reason, 'destroyed');
});

test('flags: every value is checked; a bad one is a TypeError naming the flag', () => {
  for (const f of ['races=2', 'seed=-1', 'seed=1e3', 'seed=0x10', 'threads=abc', 'threads=-1', 'subgroup=0',
    'subgroup=65', 'profile=metal', 'schedule=random', 'visibility=later', 'timeout=-1', 'timeout=abc',
    'timeout=', 'max-steps=0', 'max-steps=1.5', 'max-steps=99999999999999999999', 'colour=red', 'races']) {
    assert.throws(() => create([f]), (e) => e instanceof TypeError && e.message.includes(f.split('=')[0]), f);
  }
  for (const f of ['races=1', 'races=0', 'seed=18', 'threads=0', 'threads=2', 'subgroup=8', 'profile=nvidia',
    'schedule=shuffled', 'visibility=snapshot', 'timeout=0', 'timeout=2.5', 'max-steps=1000']) {
    assert.ok(create([f]), f);
  }
});
