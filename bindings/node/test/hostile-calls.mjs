// The hostile-call list: every method of every WebGPU class the provider
// implements, called with wrong types, out-of-range numbers, BigInts,
// Proxies, strings holding U+0000, destroyed objects and objects of another
// device.  Standard WebGPU only, so that the same list runs on any provider:
// hostile.test.mjs runs it on stex and compares each outcome's kind with
// Dawn's (tests/data/node-hostile/dawn.json, written by hostile-record.mjs).
//
// An outcome's kind: 'none', 'validation' (an error in an error scope), a
// thrown or rejected 'TypeError', 'RangeError', 'OperationError', ...
// ('+validation' when both), 'trap' (the exception of the Proxy's own get
// trap, propagated), 'crash' (the process died: recorded for Dawn only).

export class Trap extends Error {}
// An object whose every property read throws (the exception must propagate).
export const trapProxy = () => new Proxy({}, { get() { throw new Trap('get trap'); }, has() { throw new Trap('has trap'); } });

const WGSL = `@group(0) @binding(0) var<storage, read_write> b : array<u32>;
@compute @workgroup_size(1) fn main() { b[0] = 1u; }`;

// Fixtures: made per case when they have state (maps, destroy), else once.
export async function fixtures(gpu) {
  const adapter = await gpu.requestAdapter();
  const dev = await adapter.requestDevice();
  const other = await (await gpu.requestAdapter()).requestDevice();
  const BU = globalThis.GPUBufferUsage, TU = globalThis.GPUTextureUsage;
  const lost = await (await gpu.requestAdapter()).requestDevice();
  lost.destroy();
  const make = (d) => {
    const module = d.createShaderModule({ code: WGSL });
    const pipeline = d.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const bgl = d.createBindGroupLayout({ entries: [{ binding: 0, visibility: 4, buffer: { type: 'storage' } }] });
    const dbgl = d.createBindGroupLayout({ entries: [{ binding: 0, visibility: 4, buffer: { type: 'storage', hasDynamicOffset: true } }] });
    const sbuf = d.createBuffer({ size: 1024, usage: BU.STORAGE | BU.COPY_SRC | BU.COPY_DST | BU.INDIRECT });
    const bindGroup = d.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: sbuf } }] });
    const dynGroup = d.createBindGroup({ layout: dbgl, entries: [{ binding: 0, resource: { buffer: sbuf, size: 16 } }] });
    const sampler = d.createSampler();
    return { module, pipeline, bgl, dbgl, sbuf, bindGroup, dynGroup, sampler, layout: d.createPipelineLayout({ bindGroupLayouts: [bgl] }) };
  };
  return { gpu, adapter, dev, other, lost, BU, TU, mine: make(dev), theirs: make(other) };
}

// The values tried at every argument or member, by what the IDL type is.
const ANY = () => [
  ['undefined', undefined], ['null', null], ['true', true], ['string', 'x'], ['nulstring', 'a\0b'],
  ['symbol', Symbol('s')], ['bigint', 16n], ['object', {}], ['array', []], ['function', () => 0], ['proxy', trapProxy()],
];
const NUMS = (bits) => [
  ['-1', -1], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity], ['1.5', 1.5], ['"16"', '16'],
  ['valueOf16', { valueOf: () => 16 }], ['2^32-1', 4294967295], ['2^32', 2 ** 32],
  ...(bits === 64 ? [['2^53-1', 2 ** 53 - 1], ['2^53', 2 ** 53], ['2^64', 2 ** 64]] : []), ['bigint0', 0n],
];
const STRS = () => [['unknown', 'nope'], ['nul', 'rgba8unorm\0x'], ['empty', '']];

// Each method: how to call it with args, its valid arguments (a function of
// the per-case fixtures), and the IDL type of each argument: 'u32', 'u64',
// 'enum', 'str', 'iface', 'any', 'data', or a dictionary {member: type}.
// A type name in a dictionary may be followed by '!' (required, so
// 'undefined' there is also tried).
function methods(f) {
  const { BU, TU } = f;
  const buf = (usage = BU.COPY_DST | BU.COPY_SRC, size = 256) => f.dev.createBuffer({ size, usage });
  const tex = () => f.dev.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: TU.COPY_DST | TU.COPY_SRC | TU.STORAGE_BINDING | TU.TEXTURE_BINDING });
  const withPass = (fn) => () => {
    const enc = f.dev.createCommandEncoder();
    const p = enc.beginComputePass();
    fn(p);
    p.end();
    enc.finish();
  };
  const withEnc = (fn) => () => {
    const enc = f.dev.createCommandEncoder();
    fn(enc);
    enc.finish();
  };
  const layout = { offset: 'u64', bytesPerRow: 'u32', rowsPerImage: 'u32' };
  const copyTex = { texture: 'iface!', mipLevel: 'u32', origin: 'any', aspect: 'enum' };
  return [
    ['GPU.requestAdapter', (a) => f.gpu.requestAdapter(...a), () => [{}], [{ powerPreference: 'enum', forceFallbackAdapter: 'any' }]],
    ['GPUAdapter.requestDevice', async (a) => (await f.gpu.requestAdapter()).requestDevice(...a), () => [{ requiredFeatures: [], requiredLimits: {} }],
      [{ requiredFeatures: 'seq', requiredLimits: 'any', label: 'str' }]],
    ['GPUAdapter.requestDevice limits', async (a) => (await f.gpu.requestAdapter()).requestDevice({ requiredLimits: a[0] }), () => [{ maxBindGroups: 4 }],
      [{ maxBindGroups: 'u64', maxBufferSize: 'u64' }]],
    ['GPUDevice.createBuffer', (a) => f.dev.createBuffer(...a), () => [{ size: 16, usage: BU.COPY_DST }], [{ size: 'u64!', usage: 'u32!', mappedAtCreation: 'any', label: 'str' }]],
    ['GPUDevice.createTexture', (a) => f.dev.createTexture(...a), () => [{ size: [4, 4], format: 'rgba8unorm', usage: TU.COPY_DST }],
      [{ size: 'any!', format: 'enum!', usage: 'u32!', dimension: 'enum', mipLevelCount: 'u32', sampleCount: 'u32', viewFormats: 'seq' }]],
    ['GPUDevice.createTexture size', (a) => f.dev.createTexture({ size: a[0], format: 'rgba8unorm', usage: TU.COPY_DST }), () => [{ width: 4, height: 4 }],
      [{ width: 'u32!', height: 'u32', depthOrArrayLayers: 'u32' }]],
    ['GPUDevice.createSampler', (a) => f.dev.createSampler(...a), () => [{}],
      [{ addressModeU: 'enum', magFilter: 'enum', mipmapFilter: 'enum', lodMinClamp: 'f32', lodMaxClamp: 'f32', compare: 'enum', maxAnisotropy: 'any' }]],
    ['GPUDevice.createShaderModule', (a) => f.dev.createShaderModule(...a), () => [{ code: WGSL }], [{ code: 'str!', label: 'str' }]],
    ['GPUDevice.createBindGroupLayout', (a) => f.dev.createBindGroupLayout(...a), () => [{ entries: [{ binding: 0, visibility: 4, buffer: {} }] }], [{ entries: 'seq!' }]],
    ['GPUDevice.createBindGroupLayout entry', (a) => f.dev.createBindGroupLayout({ entries: [a[0]] }), () => [{ binding: 0, visibility: 4, buffer: { type: 'storage' } }],
      [{ binding: 'u32!', visibility: 'u32!', buffer: 'any', storageTexture: 'any' }]],
    ['GPUDevice.createBindGroupLayout buffer', (a) => f.dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: 4, buffer: a[0] }] }), () => [{ type: 'storage' }],
      [{ type: 'enum', hasDynamicOffset: 'any', minBindingSize: 'u64' }]],
    ['GPUDevice.createBindGroupLayout storageTexture', (a) => f.dev.createBindGroupLayout({ entries: [{ binding: 0, visibility: 4, storageTexture: a[0] }] }),
      () => [{ format: 'rgba8unorm', access: 'write-only' }], [{ format: 'enum!', access: 'enum', viewDimension: 'enum' }]],
    ['GPUDevice.createPipelineLayout', (a) => f.dev.createPipelineLayout(...a), () => [{ bindGroupLayouts: [f.mine.bgl] }], [{ bindGroupLayouts: 'seq!' }]],
    ['GPUDevice.createComputePipeline', (a) => f.dev.createComputePipeline(...a), () => [{ layout: 'auto', compute: { module: f.mine.module, entryPoint: 'main' } }],
      [{ layout: 'iface!', compute: 'any!' }]],
    ['GPUDevice.createComputePipeline compute', (a) => f.dev.createComputePipeline({ layout: 'auto', compute: a[0] }), () => [{ module: f.mine.module, entryPoint: 'main' }],
      [{ module: 'iface!', entryPoint: 'str', constants: 'any' }]],
    ['GPUDevice.createComputePipelineAsync', (a) => f.dev.createComputePipelineAsync(...a), () => [{ layout: 'auto', compute: { module: f.mine.module } }],
      [{ layout: 'iface!', compute: 'any!' }]],
    ['GPUDevice.createBindGroup', (a) => f.dev.createBindGroup(...a), () => [{ layout: f.mine.bgl, entries: [{ binding: 0, resource: { buffer: f.mine.sbuf } }] }],
      [{ layout: 'iface!', entries: 'seq!' }]],
    ['GPUDevice.createBindGroup entry', (a) => f.dev.createBindGroup({ layout: f.mine.bgl, entries: [a[0]] }), () => [{ binding: 0, resource: { buffer: f.mine.sbuf } }],
      [{ binding: 'u32!', resource: 'iface!' }]],
    ['GPUDevice.createBindGroup buffer binding', (a) => f.dev.createBindGroup({ layout: f.mine.bgl, entries: [{ binding: 0, resource: a[0] }] }),
      () => [{ buffer: f.mine.sbuf, offset: 0, size: 16 }], [{ buffer: 'iface!', offset: 'u64', size: 'u64' }]],
    ['GPUDevice.createCommandEncoder', (a) => f.dev.createCommandEncoder(...a), () => [{}], [{ label: 'str' }]],
    ['GPUDevice.pushErrorScope', (a) => { f.dev.pushErrorScope(...a); return f.dev.popErrorScope().then(() => undefined); }, () => ['validation'], ['enum']],
    ['GPUBuffer.mapAsync', (a) => buf(BU.MAP_READ | BU.COPY_DST, 64).mapAsync(...a), () => [1, 0, 64], ['u32', 'u64', 'u64']],
    ['GPUBuffer.getMappedRange', (a) => f.dev.createBuffer({ size: 64, usage: BU.COPY_DST, mappedAtCreation: true }).getMappedRange(...a), () => [0, 64], ['u64', 'u64']],
    ['GPUTexture.createView', (a) => tex().createView(...a), () => [{}],
      [{ format: 'enum', dimension: 'enum', aspect: 'enum', baseMipLevel: 'u32', mipLevelCount: 'u32', baseArrayLayer: 'u32', arrayLayerCount: 'u32' }]],
    ['GPUComputePipeline.getBindGroupLayout', (a) => f.mine.pipeline.getBindGroupLayout(...a), () => [0], ['ulong']],
    ['GPUCommandEncoder.beginComputePass', (a) => withEnc((e) => e.beginComputePass(...a).end())(), () => [{}], [{ label: 'str', timestampWrites: 'any' }]],
    ['GPUCommandEncoder.copyBufferToBuffer', (a) => withEnc((e) => e.copyBufferToBuffer(...a))(), () => [buf(), 0, buf(), 0, 16], ['iface', 'u64', 'iface', 'u64', 'u64']],
    ['GPUCommandEncoder.copyBufferToBuffer short', (a) => withEnc((e) => e.copyBufferToBuffer(...a))(), () => [buf(), buf(), 16], ['iface', 'iface', 'u64']],
    ['GPUCommandEncoder.copyBufferToTexture', (a) => withEnc((e) => e.copyBufferToTexture(...a))(), () => [{ buffer: buf(), bytesPerRow: 256 }, { texture: tex() }, [1, 1]],
      [{ buffer: 'iface!', ...layout }, copyTex, 'any']],
    ['GPUCommandEncoder.copyTextureToBuffer', (a) => withEnc((e) => e.copyTextureToBuffer(...a))(), () => [{ texture: tex() }, { buffer: buf(), bytesPerRow: 256 }, [1, 1]],
      [copyTex, { buffer: 'iface!', ...layout }, 'any']],
    ['GPUCommandEncoder.copyTextureToTexture', (a) => withEnc((e) => e.copyTextureToTexture(...a))(), () => [{ texture: tex() }, { texture: tex(), origin: [1, 1] }, [1, 1]],
      [copyTex, copyTex, 'any']],
    ['GPUCommandEncoder.copy size', (a) => withEnc((e) => e.copyTextureToTexture({ texture: tex() }, { texture: tex() }, a[0]))(), () => [{ width: 1 }],
      [{ width: 'u32!', height: 'u32', depthOrArrayLayers: 'u32' }]],
    ['GPUCommandEncoder.copy origin', (a) => withEnc((e) => e.copyTextureToTexture({ texture: tex(), origin: a[0] }, { texture: tex() }, [1]))(), () => [{ x: 1 }],
      [{ x: 'u32', y: 'u32', z: 'u32' }]],
    ['GPUCommandEncoder.clearBuffer', (a) => withEnc((e) => e.clearBuffer(...a))(), () => [buf(), 0, 16], ['iface', 'u64', 'u64']],
    ['GPUCommandEncoder.pushDebugGroup', (a) => withEnc((e) => { e.pushDebugGroup(...a); e.popDebugGroup(); })(), () => ['g'], ['str']],
    ['GPUCommandEncoder.insertDebugMarker', (a) => withEnc((e) => e.insertDebugMarker(...a))(), () => ['m'], ['str']],
    ['GPUCommandEncoder.finish', (a) => f.dev.createCommandEncoder().finish(...a), () => [{}], [{ label: 'str' }]],
    ['GPUComputePassEncoder.setPipeline', (a) => withPass((p) => p.setPipeline(...a))(), () => [f.mine.pipeline], ['iface']],
    ['GPUComputePassEncoder.setBindGroup', (a) => withPass((p) => p.setBindGroup(...a))(), () => [0, f.mine.bindGroup, []], ['u32', 'iface', 'seq']],
    ['GPUComputePassEncoder.setBindGroup data', (a) => withPass((p) => p.setBindGroup(...a))(), () => [0, f.mine.dynGroup, new Uint32Array([0, 256]), 1, 1],
      ['u32', 'iface', 'data', 'u64', 'u32']],
    ['GPUComputePassEncoder.dispatchWorkgroups', (a) => withPass((p) => { p.setPipeline(f.mine.pipeline); p.setBindGroup(0, f.mine.bindGroup); p.dispatchWorkgroups(...a); })(),
      () => [1, 1, 1], ['u32', 'u32', 'u32']],
    ['GPUComputePassEncoder.dispatchWorkgroupsIndirect', (a) => withPass((p) => { p.setPipeline(f.mine.pipeline); p.setBindGroup(0, f.mine.bindGroup); p.dispatchWorkgroupsIndirect(...a); })(),
      () => [buf(BU.INDIRECT, 16), 0], ['iface', 'u64']], // its own buffer: the bound one is writable storage
    ['GPUComputePassEncoder.pushDebugGroup', (a) => withPass((p) => { p.pushDebugGroup(...a); p.popDebugGroup(); })(), () => ['g'], ['str']],
    ['GPUComputePassEncoder.insertDebugMarker', (a) => withPass((p) => p.insertDebugMarker(...a))(), () => ['m'], ['str']],
    ['GPUQueue.submit', (a) => f.dev.queue.submit(...a), () => [[f.dev.createCommandEncoder().finish()]], ['seq']],
    ['GPUQueue.writeBuffer', (a) => f.dev.queue.writeBuffer(...a), () => [buf(), 0, new Uint8Array(16), 0, 16], ['iface', 'u64', 'data', 'u64', 'u64']],
    ['GPUQueue.writeTexture', (a) => f.dev.queue.writeTexture(...a), () => [{ texture: tex() }, new Uint8Array(64), { bytesPerRow: 16 }, [4, 1]],
      [copyTex, 'data', layout, 'any']],
    ['GPUQueue.writeTexture layout', (a) => f.dev.queue.writeTexture({ texture: tex() }, new Uint8Array(64), a[0], [1, 1]), () => [{ bytesPerRow: 256 }], [layout]],
  ];
}

// Values for one IDL type (each [name, value]); fx gives the wrong
// interfaces, destroyed objects and another device's objects.
function valuesFor(type, f) {
  const t = type.replace('!', '');
  const v = ANY();
  if (t === 'u32' || t === 'ulong' || t === 'f32') v.push(...NUMS(32));
  if (t === 'u64') v.push(...NUMS(64));
  if (t === 'enum' || t === 'str') v.push(...STRS());
  if (t === 'iface' || t === 'any') {
    const b = f.dev.createBuffer({ size: 16, usage: f.BU.COPY_DST });
    b.destroy();
    const x = f.dev.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: f.TU.COPY_DST });
    x.destroy();
    v.push(['destroyed buffer', b], ['destroyed texture', x], ['other device buffer', f.other.createBuffer({ size: 256, usage: f.BU.COPY_DST | f.BU.COPY_SRC })],
      ['other device pipeline', f.theirs.pipeline], ['other device bind group', f.theirs.bindGroup], ['other device module', f.theirs.module],
      ['other device layout', f.theirs.bgl], ['sampler', f.mine.sampler]);
  }
  if (t === 'seq') v.push(['string seq', 'abc'], ['iterable throws', { [Symbol.iterator]() { throw new Trap('iterator'); } }], ['[undefined]', [undefined]], ['[proxy]', [trapProxy()]]);
  if (t === 'data') v.push(['Uint32Array', new Uint32Array(4)], ['ArrayBuffer', new ArrayBuffer(16)], ['DataView', new DataView(new ArrayBuffer(16))], ['Float64Array', new Float64Array(2)]);
  return v;
}

// The cases: [name, async fn], names stable across providers and runs.
export function cases(f) {
  const out = [];
  for (const [name, call, args, types] of methods(f)) {
    out.push([`${name} valid`, () => call(args())]);
    out.push([`${name} no arguments`, () => call([])]);
    types.forEach((type, k) => {
      if (typeof type === 'string') {
        for (const [vn, v] of valuesFor(type, f)) {
          out.push([`${name} arg${k}=${vn}`, () => { const a = args(); a[k] = v; return call(a); }]);
        }
        return;
      }
      for (const [m, mt] of Object.entries(type)) {
        for (const [vn, v] of valuesFor(mt, f)) {
          if (vn === 'undefined' && !mt.endsWith('!')) continue;
          out.push([`${name} arg${k}.${m}=${vn}`, () => { const a = args(); a[k] = { ...a[k], [m]: v }; return call(a); }]);
        }
      }
    });
  }
  // the findings of issue 24, by name
  out.push(['finding setBindGroup(4294967294)', () => methods(f).find((m) => m[0] === 'GPUComputePassEncoder.setBindGroup')[1]([4294967294, f.mine.bindGroup])]);
  out.push(['finding dynamic-offset slice past the end', () => methods(f).find((m) => m[0] === 'GPUComputePassEncoder.setBindGroup data')[1]([0, f.mine.dynGroup, new Uint32Array([0, 256]), 1, 2])]);
  out.push(['finding dynamic-offset start past the end', () => methods(f).find((m) => m[0] === 'GPUComputePassEncoder.setBindGroup data')[1]([0, f.mine.dynGroup, new Uint32Array([0, 256]), 3, 0])]);
  const tex = () => f.dev.createTexture({ size: [4, 4], format: 'rgba8unorm', usage: f.TU.COPY_DST });
  out.push(['finding rowsPerImage 4294967295', () => f.dev.queue.writeTexture({ texture: tex() }, new Uint8Array(64), { bytesPerRow: 256, rowsPerImage: 4294967295 }, [1, 1])]);
  out.push(['finding bytesPerRow 4294967295', () => f.dev.queue.writeTexture({ texture: tex() }, new Uint8Array(64), { bytesPerRow: 4294967295 }, [1, 1])]);
  out.push(['finding copy height 4294967295', () => f.dev.queue.writeTexture({ texture: tex() }, new Uint8Array(64), { bytesPerRow: 256 }, [1, 4294967295])]);
  out.push(['finding WGSL with U+0000', async () => {
    const m = f.dev.createShaderModule({ code: `${WGSL}\0 garbage` });
    const info = await m.getCompilationInfo();
    if (!info.messages.some((x) => x.type === 'error')) throw new Error('no error message');
  }]);
  // objects in every state: destroyed, mapped, finished, ended, submitted
  const BU = f.BU;
  const mk = (usage = BU.COPY_DST | BU.COPY_SRC, size = 64) => f.dev.createBuffer({ size, usage });
  const gone = (b) => { b.destroy(); return b; };
  const state = {
    'buffer destroy twice': () => gone(gone(mk())),
    'buffer unmap when unmapped': () => mk().unmap(),
    'texture destroy twice': () => { const t = tex(); t.destroy(); t.destroy(); },
    'getMappedRange on a destroyed buffer': () => gone(f.dev.createBuffer({ size: 64, usage: BU.COPY_DST, mappedAtCreation: true })).getMappedRange(),
    'getMappedRange when unmapped': () => mk().getMappedRange(),
    'mapAsync on a destroyed buffer': () => gone(mk(BU.MAP_READ | BU.COPY_DST)).mapAsync(1),
    'mapAsync twice': () => { const b = mk(BU.MAP_READ | BU.COPY_DST); const p = b.mapAsync(1); return b.mapAsync(1).finally(() => p); },
    'mapAsync without MAP_READ usage': () => mk().mapAsync(1),
    'mapAsync with mode 3': () => mk(BU.MAP_READ | BU.COPY_DST).mapAsync(3),
    'writeBuffer to a destroyed buffer': () => f.dev.queue.writeBuffer(gone(mk()), 0, new Uint8Array(4)),
    'writeBuffer to a mapped buffer': () => f.dev.queue.writeBuffer(f.dev.createBuffer({ size: 64, usage: BU.COPY_DST, mappedAtCreation: true }), 0, new Uint8Array(4)),
    'writeBuffer to another device\'s buffer': () => f.dev.queue.writeBuffer(f.other.createBuffer({ size: 64, usage: BU.COPY_DST }), 0, new Uint8Array(4)),
    'writeTexture to a destroyed texture': () => { const t = tex(); t.destroy(); f.dev.queue.writeTexture({ texture: t }, new Uint8Array(4), {}, [1]); },
    'createView of a destroyed texture': () => { const t = tex(); t.destroy(); t.createView(); },
    'createBindGroup of a destroyed buffer': () => f.dev.createBindGroup({ layout: f.mine.bgl, entries: [{ binding: 0, resource: { buffer: gone(f.dev.createBuffer({ size: 64, usage: BU.STORAGE })) } }] }),
    'submit using a destroyed buffer': () => { const b = mk(); const e = f.dev.createCommandEncoder(); e.clearBuffer(b); const cb = e.finish(); b.destroy(); f.dev.queue.submit([cb]); },
    'submit a command buffer twice': () => { const cb = f.dev.createCommandEncoder().finish(); f.dev.queue.submit([cb]); f.dev.queue.submit([cb]); },
    'submit one command buffer twice in a call': () => { const cb = f.dev.createCommandEncoder().finish(); f.dev.queue.submit([cb, cb]); },
    'submit another device\'s command buffer': () => f.dev.queue.submit([f.other.createCommandEncoder().finish()]),
    'finish twice': () => { const e = f.dev.createCommandEncoder(); e.finish(); e.finish(); },
    'encode after finish': () => { const e = f.dev.createCommandEncoder(); e.finish(); e.clearBuffer(mk()); },
    'finish with a pass open': () => { const e = f.dev.createCommandEncoder(); e.beginComputePass(); e.finish(); },
    'pass end twice': () => { const e = f.dev.createCommandEncoder(); const p = e.beginComputePass(); p.end(); p.end(); e.finish(); },
    'pass used after end': () => { const e = f.dev.createCommandEncoder(); const p = e.beginComputePass(); p.end(); p.dispatchWorkgroups(1); e.finish(); },
    'dispatch with no pipeline': () => { const e = f.dev.createCommandEncoder(); const p = e.beginComputePass(); p.dispatchWorkgroups(1); p.end(); e.finish(); },
    'dispatch with no bind group': () => { const e = f.dev.createCommandEncoder(); const p = e.beginComputePass(); p.setPipeline(f.mine.pipeline); p.dispatchWorkgroups(1); p.end(); e.finish(); },
    'dispatch over maxComputeWorkgroupsPerDimension': () => { const e = f.dev.createCommandEncoder(); const p = e.beginComputePass(); p.setPipeline(f.mine.pipeline); p.setBindGroup(0, f.mine.bindGroup); p.dispatchWorkgroups(65536); p.end(); e.finish(); },
    'popErrorScope on an empty stack': async () => { const d = await (await f.gpu.requestAdapter()).requestDevice(); await d.popErrorScope(); },
    'requestDevice twice on one adapter': async () => { const a = await f.gpu.requestAdapter(); await a.requestDevice(); await a.requestDevice(); },
    'requestDevice with an unknown feature': async () => (await f.gpu.requestAdapter()).requestDevice({ requiredFeatures: ['no-such-feature'] }),
    'requestDevice with an unknown limit': async () => (await f.gpu.requestAdapter()).requestDevice({ requiredLimits: { maxWidgets: 1 } }),
    'getCompilationInfo of an invalid module': () => f.dev.createShaderModule({ code: 'fn (' }).getCompilationInfo(),
    'pipeline of an invalid module': () => f.dev.createComputePipeline({ layout: 'auto', compute: { module: f.dev.createShaderModule({ code: 'fn (' }) } }),
    'pipeline with no such entry point': () => f.dev.createComputePipeline({ layout: 'auto', compute: { module: f.mine.module, entryPoint: 'nope' } }),
    'pipeline with a constant no override has': () => f.dev.createComputePipeline({ layout: 'auto', compute: { module: f.mine.module, constants: { nope: 1 } } }),
    'async pipeline of an invalid module': () => f.dev.createComputePipelineAsync({ layout: 'auto', compute: { module: f.dev.createShaderModule({ code: 'fn (' }) } }),
    'getBindGroupLayout(4)': () => f.mine.pipeline.getBindGroupLayout(4),
    'bind group of another device\'s layout': () => f.dev.createBindGroup({ layout: f.theirs.bgl, entries: [{ binding: 0, resource: { buffer: f.mine.sbuf } }] }),
    'pipeline layout with another device\'s layout': () => f.dev.createPipelineLayout({ bindGroupLayouts: [f.theirs.bgl] }),
    'device destroy twice': async () => { const d = await (await f.gpu.requestAdapter()).requestDevice(); d.destroy(); d.destroy(); },
    'onSubmittedWorkDone': () => f.dev.queue.onSubmittedWorkDone(),
    'createRenderPipeline': () => f.dev.createRenderPipeline({}),
  };
  for (const [name, fn] of Object.entries(state)) out.push([`state: ${name}`, fn]);
  // a lost device: calls do nothing and report nothing
  out.push(['lost device createBuffer', () => f.lost.createBuffer({ size: 16, usage: f.BU.COPY_DST })]);
  out.push(['lost device createBuffer invalid', () => f.lost.createBuffer({ size: 16, usage: 0 })]);
  out.push(['lost device writeBuffer', () => f.lost.queue.writeBuffer(f.lost.createBuffer({ size: 16, usage: f.BU.COPY_DST }), 0, new Uint8Array(16))]);
  out.push(['lost device createBuffer TypeError', () => f.lost.createBuffer({ size: -1, usage: f.BU.COPY_DST })]);
  out.push(['lost device submit', () => f.lost.queue.submit([f.lost.createCommandEncoder().finish()])]);
  return out;
}

// The kind of an exception (see the top).
export function kindOf(e) {
  if (e instanceof Trap) return 'trap';
  if (e && e.name === 'GPUPipelineError') return 'GPUPipelineError';
  if (e instanceof TypeError) return 'TypeError';
  if (e instanceof RangeError) return 'RangeError';
  if (typeof DOMException !== 'undefined' && e instanceof DOMException) return e.name;
  return `Error(${e && e.name})`;
}

// Runs case fn on device dev inside error scopes; the outcome's kind.
export async function classify(dev, fn) {
  dev.pushErrorScope('internal');
  dev.pushErrorScope('out-of-memory');
  dev.pushErrorScope('validation');
  let kind = 'none';
  try {
    await fn();
  } catch (e) {
    kind = kindOf(e);
  }
  const v = await dev.popErrorScope(), o = await dev.popErrorScope(), i = await dev.popErrorScope();
  const scoped = v ? 'validation' : o ? 'out-of-memory' : i ? 'internal' : null;
  if (!scoped) return kind;
  return kind === 'none' ? scoped : `${kind}+${scoped}`;
}
