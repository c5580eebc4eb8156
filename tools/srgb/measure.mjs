// What a WebGPU implementation's textureLoad gives for every code of the
// -srgb formats (channels r, g, b; alpha is linear): one 256x1 texture per
// format holding code k in texel k, loaded by a compute shader, the f32
// bits read back.  Run with the `webgpu` npm package (Dawn) or any
// provider module: node measure-srgb.mjs [PROVIDER] > out.json
import path from 'node:path';
const prov = process.argv[2];
const m = prov ? await import(path.resolve(prov)) : await import('webgpu');
const mod = m.create ? m : m.default;
Object.assign(globalThis, mod.globals);
const gpu = mod.create([]);
const adapter = await gpu.requestAdapter();
const device = await adapter.requestDevice();
const out = { adapter: adapter.info ? { vendor: adapter.info.vendor, description: adapter.info.description } : {}, formats: {} };
for (const format of ['rgba8unorm-srgb', 'bgra8unorm-srgb']) {
  const tex = device.createTexture({ size: [256, 1], format, usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
  const px = new Uint8Array(256 * 4);
  for (let k = 0; k < 256; k++) px.set([k, k, k, k], k * 4);
  device.queue.writeTexture({ texture: tex }, px, { bytesPerRow: 1024 }, [256, 1]);
  const buf = device.createBuffer({ size: 256 * 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const code = `@group(0) @binding(0) var t : texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> o : array<vec4<u32>>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g : vec3<u32>) {
  o[g.x] = bitcast<vec4<u32>>(textureLoad(t, vec2<u32>(g.x, 0u), 0));
}`;
  const p = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }), entryPoint: 'main' } });
  const bg = device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [{ binding: 0, resource: tex.createView() }, { binding: 1, resource: { buffer: buf } }] });
  const rb = device.createBuffer({ size: 256 * 16, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass(); pass.setPipeline(p); pass.setBindGroup(0, bg); pass.dispatchWorkgroups(4); pass.end();
  enc.copyBufferToBuffer(buf, 0, rb, 0, 256 * 16);
  device.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const w = new Uint32Array(rb.getMappedRange().slice(0));
  rb.unmap();
  // per code: the f32 bits of the colour channel (r; g and b must agree) and of alpha
  const rgb = [], alpha = [];
  for (let k = 0; k < 256; k++) {
    if (w[k * 4] !== w[k * 4 + 1] || w[k * 4] !== w[k * 4 + 2]) throw new Error(`${format} code ${k}: channels differ`);
    rgb.push(w[k * 4].toString(16).padStart(8, '0'));
    alpha.push(w[k * 4 + 3].toString(16).padStart(8, '0'));
  }
  out.formats[format] = { rgb, alpha };
}
console.log(JSON.stringify(out));
process.exit(0);
