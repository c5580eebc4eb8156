// device.stex.allowedBounds (flag allowed=1): the bounds of every value a
// conformant device may leave in a texture or a buffer, and a readback
// checked against them.  The expectations are WGSL's rules worked out here:
// a quotient lies within 2.5 ULP of the exact value, so the correctly
// rounded one and 2 floats either side pass, 6 floats away fail (under any
// reading: the CTS's rounds each end outward once more); sin of an
// argument outside [-pi, pi] is any value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { create, globals } from '../index.mjs';

const { GPUBufferUsage: BU, GPUTextureUsage: TU, GPUMapMode } = globals;

async function device(flags) {
  const adapter = await create(flags).requestAdapter();
  return adapter.requestDevice();
}

// f32 arithmetic of this test: the next floats by bits (positive values)
const f32 = new Float32Array(1), u32 = new Uint32Array(f32.buffer);
function stepFloat(v, k) { f32[0] = v; u32[0] += k; return f32[0]; }

async function run(dev, code, resource) {
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }) } });
  const bg = dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource }] });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(1);
  pass.end();
  dev.queue.submit([enc.finish()]);
}

async function mapped(dev, rb) {
  await rb.mapAsync(GPUMapMode.READ);
  const out = new Uint8Array(rb.getMappedRange().slice(0));
  rb.unmap();
  return out;
}

test('a texture: 1 / (2x + 3) within 2.5 ULP, sin(100 x) unconstrained', async () => {
  const dev = await device(['allowed=1']);
  const tex = dev.createTexture({ size: [8, 1], format: 'r32float', usage: TU.STORAGE_BINDING | TU.COPY_SRC });
  await run(dev, `
@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;
@compute @workgroup_size(8, 1)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var v = 1.0 / f32(2u * id.x + 3u);
  if (id.x == 7u) { v = sin(f32(id.x) * 100.0); }
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(v, 0.0, 0.0, 1.0));
}`, tex.createView());
  const rb = dev.createBuffer({ size: 256, usage: BU.MAP_READ | BU.COPY_DST });
  const enc = dev.createCommandEncoder();
  enc.copyTextureToBuffer({ texture: tex }, { buffer: rb, bytesPerRow: 256 }, [8, 1]);
  dev.queue.submit([enc.finish()]);
  const bytes = await mapped(dev, rb);
  const b = await dev.stex.allowedBounds(tex);
  assert.equal(b.format, 'r32float');
  assert.deepEqual(b.size, [8, 1, 1]);
  assert.equal(b.lo.length, 8);
  assert.equal(b.unconstrained, 1);
  assert.match(b.reasons[b.reason[7] - 1], /sin/);
  let r = b.check(bytes, { bytesPerRow: 256 });
  assert.equal(r.inside, true);
  assert.equal(r.unconstrained, 1);
  // another device's legal quotients, and one 4 ULP away
  const words = new Float32Array(bytes.buffer, 0, 8);
  for (let x = 0; x < 7; x++) {
    const q = Math.fround(1 / (2 * x + 3));
    for (const k of [-2, 2]) {
      const moved = new Float32Array(words);
      moved[x] = stepFloat(q, k);
      assert.equal(b.check(moved).inside, true, `x = ${x}: ${k} ULP`);
    }
    const far = new Float32Array(words);
    far[x] = stepFloat(q, 6);
    r = b.check(far);
    assert.equal(r.inside, false, `x = ${x}: 6 ULP`);
    assert.equal(r.outside, 1);
    assert.equal(r.firstOutside[0].x, x);
    assert.ok(r.firstOutside[0].distance >= 1 && r.firstOutside[0].distance <= 4);
    assert.equal(r.unit, 'ULP');
  }
  const nan = new Float32Array(words);
  nan[7] = NaN; // unconstrained: anything passes
  assert.equal(b.check(nan).inside, true);
  nan[0] = NaN;
  r = b.check(nan);
  assert.equal(r.firstOutside[0].verdict, 'nan_outside');
  assert.equal(r.firstOutside[0].distance, null);
  assert.throws(() => b.check(new Uint8Array(8)), TypeError); // too few bytes
  dev.destroy();
});

test('a buffer read as r32float texels: (x + 1) / 9', async () => {
  const dev = await device(['allowed=1']);
  const buf = dev.createBuffer({ size: 32, usage: BU.STORAGE | BU.COPY_SRC });
  await run(dev, `
@group(0) @binding(0) var<storage, read_write> v : array<f32>;
@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  v[id.x] = f32(id.x + 1u) / 9.0;
}`, { buffer: buf });
  const rb = dev.createBuffer({ size: 32, usage: BU.MAP_READ | BU.COPY_DST });
  const enc = dev.createCommandEncoder();
  enc.copyBufferToBuffer(buf, 0, rb, 0, 32);
  dev.queue.submit([enc.finish()]);
  const bytes = await mapped(dev, rb);
  const b = await dev.stex.allowedBounds(buf, { format: 'r32float', width: 8, height: 1 });
  assert.equal(b.check(bytes).inside, true);
  const words = new Float32Array(bytes.buffer);
  for (let x = 0; x < 8; x++) {
    const q = Math.fround((x + 1) / 9);
    const moved = new Float32Array(words);
    moved[x] = stepFloat(q, -2);
    assert.equal(b.check(moved).inside, true);
    moved[x] = stepFloat(q, -6);
    assert.equal(b.check(moved).inside, false);
  }
  await assert.rejects(dev.stex.allowedBounds(buf, { format: 'r32float', width: 9, height: 1 }), TypeError);
  dev.destroy();
});

test('without the flag, and on what is not a resource', async () => {
  const dev = await device([]);
  const buf = dev.createBuffer({ size: 16, usage: BU.STORAGE });
  await assert.rejects(dev.stex.allowedBounds(buf, { format: 'r32float', width: 4, height: 1 }), /allowed=1/);
  dev.destroy();
  const on = await device(['allowed=1']);
  await assert.rejects(on.stex.allowedBounds({}), TypeError);
  assert.throws(() => create(['allowed=2']), TypeError);
  on.destroy();
});
