// Flag executor=jit: pipelines compiled to native code give the
// interpreter's bytes (the reference: the same program under flag
// executor=interp, the default), under each profile and two lock-step
// widths; a bad value is a TypeError naming the flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { create, globals } from '../index.mjs';

const { GPUBufferUsage: BU, GPUMapMode } = globals;

// loops, branches, f32 and integer arithmetic, var<workgroup> and a barrier
const code = `
@group(0) @binding(0) var<storage, read_write> out : array<u32>;
var<workgroup> part : array<f32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li : u32, @builtin(workgroup_id) wg : vec3u) {
  var x = f32(li) * 0.37 + f32(wg.x);
  var k = 0u;
  loop {
    if (k >= li % 7u) { break; }
    x = x * 1.0001 - 0.5 / (x + 3.0);
    k++;
  }
  part[li] = select(x, -x, (li & 1u) == 0u);
  workgroupBarrier();
  let y = part[63u - li] + sqrt(abs(part[li]));
  out[wg.x * 64u + li] = bitcast<u32>(y) ^ u32(i32(li) / -3);
}`;

async function run(flags) {
  const adapter = await create(flags).requestAdapter();
  const dev = await adapter.requestDevice();
  const pipeline = dev.createComputePipeline({ layout: 'auto', compute: { module: dev.createShaderModule({ code }) } });
  const buf = dev.createBuffer({ size: 4 * 64 * 3, usage: BU.STORAGE | BU.COPY_SRC });
  const rb = dev.createBuffer({ size: 4 * 64 * 3, usage: BU.COPY_DST | BU.MAP_READ });
  const bg = dev.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: buf } }] });
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(3);
  pass.end();
  enc.copyBufferToBuffer(buf, 0, rb, 0, 4 * 64 * 3);
  dev.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const bytes = new Uint8Array(rb.getMappedRange().slice(0));
  rb.unmap();
  dev.destroy();
  return bytes;
}

for (const profile of ['spec', 'lavapipe', 'nvidia'])
  for (const subgroup of ['64', '8'])
    test(`executor=jit: the interpreter's bytes (${profile}, subgroup=${subgroup})`, async () => {
      const flags = [`profile=${profile}`, `subgroup=${subgroup}`];
      const interp = await run(flags);
      const jit = await run([...flags, 'executor=jit']);
      assert.ok(interp.some((b) => b !== 0)); // the program wrote something
      assert.deepEqual(jit, interp);
    });

test('executor: a value other than interp or jit is refused', () => {
  assert.throws(() => create(['executor=llvm']), { name: 'TypeError', message: /stex flag 'executor=llvm'/ });
});
