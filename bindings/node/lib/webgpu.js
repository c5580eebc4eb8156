'use strict';
// stex as a WebGPU implementation for Node.js: the WebGPU classes a compute
// test uses, on the native addon (../src), exported as the `webgpu` npm
// package exports them: create(flags) and globals.
//
// Submitted work runs on the queue's timeline (class Timeline), each
// dispatch off the JavaScript thread (src/addon_queue.c); later queue
// operations, mapAsync, onSubmittedWorkDone and popErrorScope settle after
// the work queued before them, in the order they were made.  Errors follow
// WebGPU: a TypeError for a malformed
// descriptor is thrown; anything the device rejects (a validation or
// out-of-memory error) goes to the innermost matching error scope, or to
// the device's uncapturederror event, and the object made is invalid
// (using it is itself an error).  An encoder's errors surface at finish().

const native = require('./native.js');

const GPUBufferUsage = Object.freeze({
  MAP_READ: 0x0001, MAP_WRITE: 0x0002, COPY_SRC: 0x0004, COPY_DST: 0x0008, INDEX: 0x0010,
  VERTEX: 0x0020, UNIFORM: 0x0040, STORAGE: 0x0080, INDIRECT: 0x0100, QUERY_RESOLVE: 0x0200,
});
const GPUTextureUsage = Object.freeze({
  COPY_SRC: 0x01, COPY_DST: 0x02, TEXTURE_BINDING: 0x04, STORAGE_BINDING: 0x08, RENDER_ATTACHMENT: 0x10,
});
const GPUMapMode = Object.freeze({ READ: 0x0001, WRITE: 0x0002 });
const GPUShaderStage = Object.freeze({ VERTEX: 0x1, FRAGMENT: 0x2, COMPUTE: 0x4 });

class GPUError { constructor(message) { this.message = String(message); } }
class GPUValidationError extends GPUError {}
class GPUOutOfMemoryError extends GPUError {}
class GPUInternalError extends GPUError {}
class GPUPipelineError extends Error {
  constructor(message, options = {}) { super(message); this.name = 'GPUPipelineError'; this.reason = options.reason; }
}
class GPUUncapturedErrorEvent extends Event {
  constructor(type, init) { super(type); this.error = init.error; }
}
class GPUDeviceLostInfo { constructor(reason, message) { this.reason = reason; this.message = message; } }

// A native failure as the GPUError WebGPU reports (TypeErrors are rethrown).
function gpuError(e) {
  if (e instanceof TypeError) throw e;
  if (e && e.code === 'type error') throw new TypeError(e.message); // stex's STEX_TYPE_ERROR
  if (e && e.code === 'out of memory') return new GPUOutOfMemoryError(e.message);
  if (e && e.code && !['validation error', 'invalid argument', 'shader-creation error'].includes(e.code)) return new GPUInternalError(e.message);
  return new GPUValidationError(e && e.message || String(e));
}

// WebIDL: a required dictionary member.
function need(dict, key, where) {
  if (dict === undefined || dict === null || dict[key] === undefined) throw new TypeError(`${where}: '${key}' is required`);
  return dict[key];
}

// ---- WebIDL's conversions: what every entry point does to its arguments
// before WebGPU's own rules run.  A failure is a TypeError, thrown at once
// (a rejected promise for a promise-returning method); getters that throw
// (a Proxy's traps, valueOf) propagate their exception as it is.

// A number for an integer type: ToNumber (BigInts and Symbols are TypeErrors).
function idlNumber(v, where) {
  if (typeof v === 'bigint' || typeof v === 'symbol') throw new TypeError(`${where}: a ${typeof v} is not a number (WebIDL)`);
  return Number(v);
}
// [EnforceRange] integer types: finite, truncated, inside [min, max].
function enforce(v, where, min, max) {
  const x = idlNumber(v, where);
  if (!Number.isFinite(x)) throw new TypeError(`${where}: ${x} is not finite ([EnforceRange])`);
  const t = Math.trunc(x);
  if (t < min || t > max) throw new TypeError(`${where}: ${t} is outside [${min}, ${max}] ([EnforceRange])`);
  return t + 0; // -0 is 0
}
const u32 = (v, where) => enforce(v, where, 0, 0xffffffff); // GPUSize32, GPUIndex32, GPUIntegerCoordinate, flags
const u64 = (v, where) => enforce(v, where, 0, Number.MAX_SAFE_INTEGER); // GPUSize64
// A member or optional argument: undefined keeps the default.
const optU32 = (v, where, dflt) => (v === undefined ? dflt : u32(v, where));
const optU64 = (v, where, dflt) => (v === undefined ? dflt : u64(v, where));
// unsigned long without [EnforceRange]: ToNumber, then modulo 2^32.
function ulong(v, where) {
  const x = idlNumber(v, where);
  return Number.isFinite(x) ? ((Math.trunc(x) % 2 ** 32) + 2 ** 32) % 2 ** 32 : 0;
}
// float / double (restricted): finite.
function finite(v, where) {
  const x = idlNumber(v, where);
  if (!Number.isFinite(x)) throw new TypeError(`${where}: ${x} is not a finite number (WebIDL)`);
  return x;
}
// DOMString / USVString: ToString (a Symbol is a TypeError).
function idlString(v, where) {
  if (typeof v === 'symbol') throw new TypeError(`${where}: a symbol is not a string (WebIDL)`);
  return String(v);
}
// An enum: a string among its values, else a TypeError.
function idlEnum(v, values, where) {
  const s = idlString(v, where);
  if (!values.includes(s)) throw new TypeError(`${where}: '${s}' is not a valid value`);
  return s;
}
// A dictionary: undefined and null are the empty one; another non-object a TypeError.
function dict(v, where) {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' && typeof v !== 'function') throw new TypeError(`${where}: not a dictionary`);
  return v;
}
// A sequence: an object with Symbol.iterator, read to the end.
function sequence(v, where) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || typeof v[Symbol.iterator] !== 'function') {
    throw new TypeError(`${where}: not a sequence (an iterable object)`);
  }
  return [...v];
}
// An interface type: an instance of cls (nullable: null, undefined as null).
function iface(v, cls, where, nullable = false) {
  if (nullable && (v === null || v === undefined)) return null;
  if (!(v instanceof cls)) throw new TypeError(`${where}: not a ${cls.name}`);
  return v;
}

// (sequence<T> or dictionary): an iterable object is the sequence.
const isIterable = (v) => v !== null && typeof v === 'object' && typeof v[Symbol.iterator] === 'function';

function extent3D(size, where) { // GPUExtent3D: a sequence or a dictionary, GPUIntegerCoordinates
  if (isIterable(size)) {
    const a = sequence(size, where).map((x, i) => u32(x, `${where}[${i}]`));
    if (a.length < 1 || a.length > 3) throw new TypeError(`${where}: a GPUExtent3D sequence has 1 to 3 members`);
    return { width: a[0], height: a[1] ?? 1, depthOrArrayLayers: a[2] ?? 1 };
  }
  size = dict(size, where);
  return {
    width: u32(need(size, 'width', where), `${where}.width`), height: optU32(size.height, `${where}.height`, 1),
    depthOrArrayLayers: optU32(size.depthOrArrayLayers, `${where}.depthOrArrayLayers`, 1),
  };
}

function origin3D(o, where = 'origin') { // GPUOrigin3D
  if (isIterable(o)) {
    const a = sequence(o, where).map((x, i) => u32(x, `${where}[${i}]`));
    if (a.length > 3) throw new TypeError(`${where}: a GPUOrigin3D sequence has at most 3 members`);
    return { x: a[0] ?? 0, y: a[1] ?? 0, z: a[2] ?? 0 };
  }
  o = dict(o, where);
  return { x: optU32(o.x, `${where}.x`, 0), y: optU32(o.y, `${where}.y`, 0), z: optU32(o.z, `${where}.z`, 0) };
}

const ENUMS = {
  textureDimension: ['1d', '2d', '3d'],
  viewDimension: ['1d', '2d', '2d-array', 'cube', 'cube-array', '3d'],
  aspect: ['all', 'stencil-only', 'depth-only'],
  addressMode: ['clamp-to-edge', 'repeat', 'mirror-repeat'],
  filter: ['nearest', 'linear'],
  compare: ['never', 'less', 'equal', 'less-equal', 'greater', 'not-equal', 'greater-equal', 'always'],
  bufferType: ['uniform', 'storage', 'read-only-storage'],
  samplerType: ['filtering', 'non-filtering', 'comparison'],
  sampleType: ['float', 'unfilterable-float', 'depth', 'sint', 'uint'],
  storageAccess: ['write-only', 'read-only', 'read-write'],
  errorFilter: ['validation', 'out-of-memory', 'internal'],
  powerPreference: ['low-power', 'high-performance'],
};
// A GPUTextureFormat: the enum's values are the formats stex knows.
function textureFormat(v, where) {
  const s = idlString(v, where);
  if (!native.isTextureFormat(s)) throw new TypeError(`${where}: '${s}' is not a GPUTextureFormat`);
  return s;
}
// An optional enum member: undefined keeps it undefined.
const optEnum = (v, values, where) => (v === undefined ? undefined : idlEnum(v, values, where));
// A label (USVString), '' when not given.
const idlLabel = (v, where) => (v === undefined ? '' : idlString(v, `${where} label`));

// A BufferSource's bytes as a Uint8Array (no copy).
function bytesOf(data, where) {
  if (data instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && data instanceof SharedArrayBuffer)) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError(`${where}: not an ArrayBuffer, TypedArray or DataView`);
}

class GPUObjectBase {
  constructor(device, label) { this._device = device; this.label = label === undefined || label === null ? '' : idlString(label, 'label'); }
}

// ---- GPU, adapter ----

class GPUSupportedFeatures extends Set {}
class WGSLLanguageFeatures extends Set {}

class GPUAdapterInfo {
  // the sub-group is the interpreter's lanes run in lock step (flag subgroup)
  constructor(profile, width = 64) {
    this.vendor = 'stex';
    this.architecture = 'cpu-reference';
    this.device = `stex ${profile} profile`;
    this.description = `stex: WebGPU storage-texture semantics on the CPU, profile ${profile}`;
    this.subgroupMinSize = width;
    this.subgroupMaxSize = width;
    this.isFallbackAdapter = false;
  }
}

class GPU {
  constructor(config) {
    this._config = config;
    const probe = native.adapterInfo(native.adapterCreate(config.profile));
    this.wgslLanguageFeatures = new WGSLLanguageFeatures(probe.languageFeatures);
    // stex's own (docs: bindings/node/README.md, "Lifetimes and leaks"):
    // the native objects alive now, per WebGPU class, over the process.
    this.stex = { liveObjects: () => native.liveObjects() };
  }
  async requestAdapter(options) {
    options = dict(options, 'requestAdapter');
    optEnum(options.powerPreference, ENUMS.powerPreference, 'requestAdapter powerPreference');
    if (options.featureLevel !== undefined) options = { featureLevel: idlString(options.featureLevel, 'requestAdapter featureLevel') };
    if (options.featureLevel !== undefined && !['core', 'compatibility'].includes(options.featureLevel)) return null;
    return new GPUAdapter(this._config);
  }
  getPreferredCanvasFormat() { return 'rgba8unorm'; }
}

class GPUAdapter {
  constructor(config) {
    this._config = config;
    this._h = native.adapterCreate(config.profile);
    const info = native.adapterInfo(this._h);
    this.features = new GPUSupportedFeatures(info.features);
    this.limits = Object.freeze({ __proto__: GPUSupportedLimits.prototype, ...info.limits });
    this.info = new GPUAdapterInfo(config.profile, config.subgroupWidth ?? native.subgroupWidthDefault);
    this.isFallbackAdapter = false;
    this._consumed = false;
  }
  async requestDevice(desc) {
    desc = dict(desc, 'requestDevice');
    const features = desc.requiredFeatures === undefined ? [] : sequence(desc.requiredFeatures, 'requestDevice requiredFeatures').map((f) => idlString(f, 'requestDevice requiredFeatures'));
    // record<DOMString, GPUSize64>: each value a GPUSize64 (undefined: not asked)
    const limits = {};
    const rl = desc.requiredLimits === undefined ? {} : dict(desc.requiredLimits, 'requestDevice requiredLimits');
    for (const k of Object.keys(rl)) {
      const v = rl[k];
      if (v !== undefined) limits[k] = u64(v, `requestDevice requiredLimits.${k}`);
    }
    const queueLabel = desc.defaultQueue === undefined ? '' : idlLabel(dict(desc.defaultQueue, 'requestDevice defaultQueue').label, 'defaultQueue');
    desc = { label: idlLabel(desc.label, 'requestDevice'), defaultQueue: { label: queueLabel } };
    if (this._consumed) throw new DOMException('requestDevice: this adapter already gave a device', 'OperationError');
    for (const f of features) {
      if (!this.features.has(f)) throw new TypeError(`requestDevice: feature '${f}' is not offered by the adapter`);
    }
    let h;
    try {
      h = native.deviceCreate(this._h, features, limits);
    } catch (e) {
      if (e instanceof TypeError) throw e;
      throw new DOMException(e.message, 'OperationError');
    }
    this._consumed = true;
    return new GPUDevice(h, desc, this._config);
  }
}

class GPUSupportedLimits {}

// ---- device ----

class GPUDevice extends EventTarget {
  constructor(h, desc, config) {
    super();
    this._h = h;
    this._config = config;
    this.label = desc.label ?? '';
    const info = native.deviceInfo(h);
    this.features = new GPUSupportedFeatures(info.features);
    this.limits = Object.freeze({ __proto__: GPUSupportedLimits.prototype, ...info.limits });
    this.adapterInfo = new GPUAdapterInfo(config.profile, config.subgroupWidth ?? native.subgroupWidthDefault);
    this.queue = new GPUQueue(this, desc.defaultQueue?.label);
    this._scopes = [];
    this._destroyed = false;
    this.onuncapturederror = null;
    this.lost = new Promise((resolve) => { this._resolveLost = resolve; });
    this._maps = new Set(); // WeakRefs to this device's buffers with a map pending or active
    // stops the dispatch running off the thread: destroy() raises it, and
    // the watchdog (flag timeout) is its deadline (src/addon_queue.c)
    this._cancel = native.cancelCreate();
    // stex's own: what no GPU reports (docs: bindings/node/README.md)
    this.stex = { profile: info.profile, raceReports: [], allowedBounds: (r, o) => this._allowedBounds(r, o) };
    // flag allowed=1: every pipeline keeps the sets a conformant device may hold
    this._allowed = config.allowed ? native.allowedCreate() : undefined;
  }
  // device.stex.allowedBounds(texture, {mipLevel}) or (buffer, {offset,
  // format, width, height}): after the work submitted so far, the bounds of
  // every value a conformant device may leave there, with check(readback).
  async _allowedBounds(resource, options = {}) {
    if (!this._allowed) throw new TypeError('device.stex.allowedBounds: create the provider with the flag allowed=1');
    if (!(resource instanceof GPUTexture) && !(resource instanceof GPUBuffer)) throw new TypeError('device.stex.allowedBounds: not a GPUTexture or GPUBuffer');
    if (resource._device !== this) throw new TypeError('device.stex.allowedBounds: the resource belongs to another device');
    if (!resource._h) throw new TypeError('device.stex.allowedBounds: the resource is destroyed or invalid');
    await this.queue.onSubmittedWorkDone();
    let h;
    try { h = native.allowedBounds(this._allowed, resource._h, options); } catch (e) { throw new TypeError(`device.stex.allowedBounds: ${e.message}`); }
    const info = native.boundsInfo(h);
    return Object.freeze({
      ...info,
      unconstrained: info.flags.reduce((n, f) => n + ((f & 4) ? 1 : 0), 0),
      // the readback (copyTextureToBuffer's bytes; layout {bytesPerRow,
      // rowsPerImage}, default unpadded rows) against the bounds
      check: (readback, layout = {}) => native.boundsCheck(h, readback, layout.bytesPerRow, layout.rowsPerImage),
    });
  }
  // Reports err (a GPUError) as WebGPU does: the innermost scope whose
  // filter it matches, else an uncapturederror event.  scopes: the stack
  // as it was when the failing work was queued (submit, writeBuffer).
  _error(err, scopes = this._scopes) {
    if (this._destroyed) return; // WebGPU: a lost device reports no errors
    const filter = err instanceof GPUOutOfMemoryError ? 'out-of-memory' : err instanceof GPUInternalError ? 'internal' : 'validation';
    for (let i = scopes.length - 1; i >= 0; i--) {
      if (scopes[i].filter === filter) {
        if (!scopes[i].error) scopes[i].error = err;
        return;
      }
    }
    const ev = new GPUUncapturedErrorEvent('uncapturederror', { error: err });
    if (typeof this.onuncapturederror === 'function') this.onuncapturederror(ev);
    this.dispatchEvent(ev);
  }
  // Runs fn (a native call); a failure becomes a device error and gives null.
  _try(fn) {
    if (this._destroyed) { return null; }
    try { return fn(); } catch (e) { this._error(gpuError(e)); return null; }
  }
  pushErrorScope(filter) {
    filter = idlEnum(filter, ENUMS.errorFilter, 'pushErrorScope: GPUErrorFilter');
    this._scopes.push({ filter, error: null });
  }
  popErrorScope() {
    const s = this._scopes.pop();
    if (!s) return Promise.reject(new DOMException('popErrorScope: the error scope stack is empty', 'OperationError'));
    // settles once the work queued in the scope has run (its errors are in)
    return new Promise((resolve) => this._later(() => resolve(s.error)));
  }
  // Queues step, which settles a promise, on the queue's timeline: behind
  // the work submitted before it and the steps queued before it (the map
  // of a mapAsync settles before an onSubmittedWorkDone asked after it, as
  // WebGPU requires).
  _later(step) { this.queue._timeline.push(step); }
  destroy() {
    if (this._destroyed) return;
    native.cancelRequest(this._cancel); // a dispatch running stops at its next check
    this._lose('destroyed', 'device.destroy() was called');
  }
  // The device is lost: its buffers unmapped (pending maps reject with
  // AbortError), its queue runs nothing more, it reports no errors.
  _lose(reason, message) {
    if (this._destroyed) return;
    for (const ref of [...this._maps]) ref.deref()?.unmap();
    this._maps.clear();
    this._destroyed = true;
    this._resolveLost(new GPUDeviceLostInfo(reason, message));
  }
  createBuffer(desc) {
    desc = dict(desc, 'createBuffer');
    const size = u64(need(desc, 'size', 'createBuffer'), 'createBuffer size');
    const usage = u32(need(desc, 'usage', 'createBuffer'), 'createBuffer usage');
    desc = { label: idlLabel(desc.label, 'createBuffer'), size, usage, mappedAtCreation: Boolean(desc.mappedAtCreation) };
    // WebGPU checks this on the content timeline: a RangeError, no buffer
    if (desc.mappedAtCreation && size % 4 !== 0) throw new RangeError('createBuffer: mappedAtCreation needs a size that is a multiple of 4');
    const h = this._try(() => native.bufferCreate(this._h, { size, usage }));
    return new GPUBuffer(this, h, desc);
  }
  createTexture(desc) {
    desc = dict(desc, 'createTexture');
    const size = extent3D(need(desc, 'size', 'createTexture'), 'createTexture size');
    const d = {
      dimension: optEnum(desc.dimension, ENUMS.textureDimension, 'createTexture dimension') ?? '2d', size,
      format: textureFormat(need(desc, 'format', 'createTexture'), 'createTexture format'),
      mipLevelCount: optU32(desc.mipLevelCount, 'createTexture mipLevelCount', 1),
      sampleCount: optU32(desc.sampleCount, 'createTexture sampleCount', 1), usage: u32(need(desc, 'usage', 'createTexture'), 'createTexture usage'),
    };
    if (desc.viewFormats !== undefined) sequence(desc.viewFormats, 'createTexture viewFormats').forEach((f) => textureFormat(f, 'createTexture viewFormats'));
    return new GPUTexture(this, this._try(() => native.textureCreate(this._h, d)), d, idlLabel(desc.label, 'createTexture'));
  }
  createSampler(desc) {
    desc = dict(desc, 'createSampler');
    const d = {};
    for (const k of ['addressModeU', 'addressModeV', 'addressModeW']) d[k] = optEnum(desc[k], ENUMS.addressMode, `createSampler ${k}`);
    for (const k of ['magFilter', 'minFilter', 'mipmapFilter']) d[k] = optEnum(desc[k], ENUMS.filter, `createSampler ${k}`);
    d.compare = optEnum(desc.compare, ENUMS.compare, 'createSampler compare');
    if (desc.lodMinClamp !== undefined) d.lodMinClamp = finite(desc.lodMinClamp, 'createSampler lodMinClamp');
    if (desc.lodMaxClamp !== undefined) d.lodMaxClamp = finite(desc.lodMaxClamp, 'createSampler lodMaxClamp');
    // [Clamp] unsigned short: NaN is 0, the rest rounded into [0, 65535]
    if (desc.maxAnisotropy !== undefined) {
      const x = idlNumber(desc.maxAnisotropy, 'createSampler maxAnisotropy');
      d.maxAnisotropy = Number.isNaN(x) ? 0 : Math.min(65535, Math.max(0, Math.round(x)));
      // WebGPU: at least 1 (the C API reads 0 as "not given")
      if (d.maxAnisotropy === 0) {
        this._error(new GPUValidationError('createSampler: maxAnisotropy 0 is below 1'));
        return new GPUSampler(this, null, idlLabel(desc.label, 'createSampler'));
      }
    }
    return new GPUSampler(this, this._try(() => native.samplerCreate(this._h, d)), idlLabel(desc.label, 'createSampler'));
  }
  createShaderModule(desc) {
    desc = dict(desc, 'createShaderModule');
    const code = idlString(need(desc, 'code', 'createShaderModule'), 'createShaderModule code');
    const lbl = idlLabel(desc.label, 'createShaderModule');
    let r = null;
    try { r = native.moduleCreate(this._h, code, lbl || 'shader.wgsl'); } catch (e) { this._error(gpuError(e)); }
    const m = new GPUShaderModule(this, r, lbl);
    if (r && r.errors) this._error(new GPUValidationError(`createShaderModule: the WGSL has ${r.errors} error(s):\n${r.diagnostics}`));
    return m;
  }
  _pipeline(desc, where) {
    desc = dict(desc, where);
    const compute = dict(need(desc, 'compute', where), `${where} compute`);
    const module = iface(need(compute, 'module', `${where} compute`), GPUShaderModule, `${where} compute.module`);
    let layout = need(desc, 'layout', where);
    if (!(layout instanceof GPUPipelineLayout) && idlString(layout, `${where} layout`) !== 'auto') throw new TypeError(`${where}: layout is neither 'auto' nor a GPUPipelineLayout`);
    if (!(layout instanceof GPUPipelineLayout)) layout = 'auto';
    const entryPoint = compute.entryPoint === undefined ? undefined : idlString(compute.entryPoint, `${where} compute.entryPoint`);
    // constants: record<USVString, GPUPipelineConstantValue>, a WebIDL double: NaN and infinities are TypeErrors
    const constants = Object.create(null); // a key "__proto__" is a key like any other
    const given = compute.constants === undefined ? {} : dict(compute.constants, `${where} compute.constants`);
    for (const k of Object.keys(given)) constants[k] = finite(given[k], `${where}: constants["${k}"]`);
    if (!module._h) return { h: null, error: new GPUValidationError(`${where}: the shader module is invalid`) };
    // a key holding U+0000 names no override (the native layer reads C strings)
    for (const k of Object.keys(constants)) {
      if (k.includes('\u0000')) return { h: null, error: new GPUValidationError(`${where}: constants key ${JSON.stringify(k)} is not the name or id of an override [pipeline-constants]`) };
    }
    if (module._device !== this) return { h: null, error: new GPUValidationError(`${where}: the shader module belongs to another device`) };
    if (layout !== 'auto' && layout._device !== this) return { h: null, error: new GPUValidationError(`${where}: the pipeline layout belongs to another device`) };
    let entries;
    if (layout !== 'auto') {
      if (!layout._valid) return { h: null, error: new GPUValidationError(`${where}: the pipeline layout is invalid`) };
      entries = layout._bgls.flatMap((bgl, group) => (bgl ? bgl._entries.map((e) => ({ ...e, group })) : []));
    }
    try {
      return { h: native.pipelineCreate(this._h, module._h, entryPoint, constants, entries, this._config.subgroupWidth, this._config.maxSteps, this._allowed, this._config.executor), layout };
    } catch (e) {
      return { h: null, error: gpuError(e) };
    }
  }
  createComputePipeline(desc) {
    const r = this._pipeline(desc, 'createComputePipeline');
    if (r.error) this._error(r.error);
    return new GPUComputePipeline(this, r.h, idlLabel(desc.label, 'createComputePipeline'), r.layout);
  }
  async createComputePipelineAsync(desc) {
    const r = this._pipeline(desc, 'createComputePipelineAsync');
    if (r.error) throw new GPUPipelineError(r.error.message, { reason: 'validation' });
    return new GPUComputePipeline(this, r.h, idlLabel(desc.label, 'createComputePipelineAsync'), r.layout);
  }
  createRenderPipeline() { throw new TypeError('createRenderPipeline: stex runs compute only'); }
  createRenderPipelineAsync() { return Promise.reject(new TypeError('createRenderPipelineAsync: stex runs compute only')); }
  createBindGroup(desc) {
    desc = dict(desc, 'createBindGroup');
    const layout = iface(need(desc, 'layout', 'createBindGroup'), GPUBindGroupLayout, 'createBindGroup layout');
    // WebIDL first, for every entry (a TypeError before any validation)
    const given = sequence(need(desc, 'entries', 'createBindGroup'), 'createBindGroup entries').map((e, i) => {
      const where = `createBindGroup entries[${i}]`;
      e = dict(e, where);
      const binding = u32(need(e, 'binding', where), `${where}.binding`);
      let r = need(e, 'resource', where);
      if (r instanceof GPUBuffer) r = { buffer: r };
      else if (!(r instanceof GPUTexture || r instanceof GPUTextureView || r instanceof GPUSampler || r instanceof GPUExternalTexture)) {
        // GPUBufferBinding, the union's dictionary
        r = dict(r, `${where}.resource`);
        r = {
          buffer: iface(need(r, 'buffer', `${where}.resource`), GPUBuffer, `${where}.resource.buffer`),
          offset: optU64(r.offset, `${where}.resource.offset`, 0), size: optU64(r.size, `${where}.resource.size`, undefined),
        };
      }
      return { binding, r };
    });
    const entries = [];
    const keep = [];
    for (const [i, { binding, r: res }] of given.entries()) {
      let r = res;
      if (r instanceof GPUTexture) r = r.createView();
      keep.push(r);
      if (r instanceof GPUTextureView) entries.push({ binding, view: r._h });
      else if (r instanceof GPUSampler) entries.push({ binding, sampler: r._h });
      // a destroyed buffer is valid here (WebGPU): submit() refuses it
      else if (r && r.buffer instanceof GPUBuffer) entries.push({ binding, buffer: r.buffer._h ?? r.buffer._kept, offset: r.offset ?? 0, size: r.size });
      else throw new TypeError(`createBindGroup: entries[${i}].resource is not a GPUBindingResource`);
      const last = entries[entries.length - 1];
      if (!(last.view ?? last.sampler ?? last.buffer)) {
        this._error(new GPUValidationError(`createBindGroup: entries[${i}] names an invalid resource`));
        return new GPUBindGroup(this, null, desc.label, keep);
      }
    }
    if (layout._device !== this) {
      this._error(new GPUValidationError('createBindGroup: the layout belongs to another device'));
      return new GPUBindGroup(this, null, desc.label, keep);
    }
    const target = layout._pipeline ? layout._pipeline._h : layout._h; // auto: (pipeline, group); explicit: its own
    if (!target) {
      this._error(new GPUValidationError('createBindGroup: the layout is invalid'));
      return new GPUBindGroup(this, null, desc.label, keep);
    }
    const h = this._try(() => native.bindGroupCreate(target, layout._pipeline ? layout._group : 0, entries));
    return new GPUBindGroup(this, h, desc.label, keep);
  }
  createBindGroupLayout(desc) {
    desc = dict(desc, 'createBindGroupLayout');
    const entries = sequence(need(desc, 'entries', 'createBindGroupLayout'), 'createBindGroupLayout entries').map((e, i) => {
      const where = `createBindGroupLayout entries[${i}]`;
      e = dict(e, where);
      const o = { binding: u32(need(e, 'binding', where), `${where}.binding`), visibility: u32(need(e, 'visibility', where), `${where}.visibility`) };
      // each binding member is a dictionary: present unless undefined (null is {})
      if (e.buffer !== undefined) {
        const b = dict(e.buffer, `${where}.buffer`);
        o.buffer = {
          type: optEnum(b.type, ENUMS.bufferType, `${where}.buffer.type`) ?? 'uniform', hasDynamicOffset: Boolean(b.hasDynamicOffset),
          minBindingSize: optU64(b.minBindingSize, `${where}.buffer.minBindingSize`, 0),
        };
      }
      if (e.sampler !== undefined) o.sampler = { type: optEnum(dict(e.sampler, `${where}.sampler`).type, ENUMS.samplerType, `${where}.sampler.type`) ?? 'filtering' };
      if (e.texture !== undefined) {
        const t = dict(e.texture, `${where}.texture`);
        o.texture = {
          sampleType: optEnum(t.sampleType, ENUMS.sampleType, `${where}.texture.sampleType`) ?? 'float',
          viewDimension: optEnum(t.viewDimension, ENUMS.viewDimension, `${where}.texture.viewDimension`) ?? '2d', multisampled: Boolean(t.multisampled),
        };
      }
      if (e.storageTexture !== undefined) {
        const t = dict(e.storageTexture, `${where}.storageTexture`);
        o.storageTexture = {
          access: optEnum(t.access, ENUMS.storageAccess, `${where}.storageTexture.access`) ?? 'write-only',
          format: textureFormat(need(t, 'format', `${where}.storageTexture`), `${where}.storageTexture.format`),
          viewDimension: optEnum(t.viewDimension, ENUMS.viewDimension, `${where}.storageTexture.viewDimension`) ?? '2d',
        };
      }
      if (e.externalTexture !== undefined) throw new TypeError('createBindGroupLayout: external textures are not available in compute on stex');
      return o;
    });
    return new GPUBindGroupLayout(this, null, 0, this._try(() => native.layoutCreate(this._h, entries)), entries, idlLabel(desc.label, 'createBindGroupLayout'));
  }
  createPipelineLayout(desc) {
    desc = dict(desc, 'createPipelineLayout');
    const bgls = sequence(need(desc, 'bindGroupLayouts', 'createPipelineLayout'), 'createPipelineLayout bindGroupLayouts');
    for (const b of bgls) if (b !== null && b !== undefined && !(b instanceof GPUBindGroupLayout)) throw new TypeError('createPipelineLayout: not a GPUBindGroupLayout');
    let valid = true;
    if (bgls.length > this.limits.maxBindGroups) {
      this._error(new GPUValidationError(`createPipelineLayout: ${bgls.length} bind group layouts, over maxBindGroups (${this.limits.maxBindGroups})`));
      valid = false;
    } else if (bgls.some((b) => b && b._device !== this)) {
      this._error(new GPUValidationError('createPipelineLayout: a bind group layout belongs to another device'));
      valid = false;
    } else if (bgls.some((b) => b && !b._h)) {
      this._error(new GPUValidationError('createPipelineLayout: a bind group layout is invalid, or was made by a pipeline with layout \'auto\''));
      valid = false;
    } else {
      // WebGPU: all the groups' entries together within the binding slot limits
      const all = bgls.flatMap((bgl, group) => (bgl ? bgl._entries.map((e) => ({ ...e, group })) : []));
      const h = this._try(() => native.layoutCreate(this._h, all, true));
      if (h) native.drop(h);
      else valid = false;
    }
    return new GPUPipelineLayout(this, bgls.map((b) => b ?? null), valid, desc.label);
  }
  createCommandEncoder(desc) { return new GPUCommandEncoder(this, dict(desc, 'createCommandEncoder').label); }
}

// ---- resources ----

class GPUBuffer extends GPUObjectBase {
  constructor(device, h, desc) {
    super(device, desc.label);
    this._h = h;
    this.size = desc.size;
    this.usage = desc.usage;
    this.mapState = 'unmapped';
    this._mapping = null;
    this._pending = null; // WebGPU's [[pending_map]]: {resolve, reject}
    this._destroyed = false;
    // mapped even when invalid (WebGPU: the content timeline cannot know)
    if (desc.mappedAtCreation) this._map(GPUMapMode.WRITE, 0, desc.size, true);
  }
  // The device tracks buffers with a map pending or active (weakly: a
  // dropped buffer is still collected) so that device.destroy() unmaps them.
  _track(on) {
    const maps = this._device._maps;
    if (on) {
      this._ref ??= new WeakRef(this);
      maps.add(this._ref);
    } else if (this._ref) maps.delete(this._ref);
  }
  _map(mode, offset, size, atCreation) {
    this.mapState = 'mapped';
    this._mapping = { mode, offset, size, atCreation, ranges: [] };
    this._track(true);
  }
  mapAsync(mode, offset = 0, size) {
    try { // WebIDL's conversions: a rejected promise
      [mode, offset, size] = [u32(mode, 'mapAsync mode'), u64(offset, 'mapAsync offset'), optU64(size, 'mapAsync size', undefined)];
    } catch (e) { return Promise.reject(e); }
    const d = this._device;
    size = size ?? Math.max(0, this.size - offset);
    // WebGPU: a map already pending rejects at once, and nothing else
    if (this.mapState === 'pending') return Promise.reject(new DOMException('mapAsync: the buffer has a map pending', 'OperationError'));
    if (this.mapState === 'mapped') {
      // a device-timeline check: an error now, the rejection later, unless
      // unmap() first rejects the pending map with AbortError
      d._error(new GPUValidationError('mapAsync: the buffer is already mapped'));
      let entry;
      const p = new Promise((resolve, reject) => { entry = { resolve, reject }; });
      this._pending = entry;
      d._later(() => {
        if (this._pending !== entry) return;
        this._pending = null;
        entry.reject(new DOMException('mapAsync: the buffer is already mapped', 'OperationError'));
      });
      return p;
    }
    // WebGPU's device-timeline checks: a failure rejects the promise later
    // (OperationError, with a validation error now; AbortError when the
    // device is lost), unless unmap() cancelled the map first.
    let why = null;
    if (d._destroyed) why = 'lost';
    else if (this._destroyed) why = 'the buffer is destroyed';
    else if (!this._h) why = 'the buffer is invalid';
    else if (mode !== GPUMapMode.READ && mode !== GPUMapMode.WRITE) why = 'mode must be exactly one of READ and WRITE';
    else if ((mode === GPUMapMode.READ && !(this.usage & GPUBufferUsage.MAP_READ)) || (mode === GPUMapMode.WRITE && !(this.usage & GPUBufferUsage.MAP_WRITE))) {
      why = `the buffer's usage lacks MAP_${mode === GPUMapMode.READ ? 'READ' : 'WRITE'}`;
    } else if (offset % 8 !== 0 || size % 4 !== 0 || offset + size > this.size) why = 'offset must be a multiple of 8, size of 4, and the range inside the buffer';
    if (why && why !== 'lost') d._error(new GPUValidationError(`mapAsync: ${why}`));
    let entry;
    const p = new Promise((resolve, reject) => { entry = { resolve, reject }; });
    this._pending = entry;
    this.mapState = 'pending';
    this._track(true);
    d._later(() => {
      if (this._pending !== entry) return; // unmap() rejected it already
      this._pending = null;
      if (why || d._destroyed) {
        this.mapState = 'unmapped';
        this._track(false);
        entry.reject(why && why !== 'lost' ? new DOMException(`mapAsync: ${why}`, 'OperationError')
          : new DOMException('mapAsync: the device is lost', 'AbortError'));
        return;
      }
      this._map(mode, offset, size, false);
      entry.resolve();
    });
    return p;
  }
  getMappedRange(offset = 0, size) {
    [offset, size] = [u64(offset, 'getMappedRange offset'), optU64(size, 'getMappedRange size', undefined)];
    const m = this._mapping;
    if (this.mapState !== 'mapped' || !m) throw new DOMException('getMappedRange: the buffer is not mapped', 'OperationError');
    size = size ?? Math.max(0, this.size - offset); // WebGPU: to the buffer's end, not the mapping's
    if (offset % 8 !== 0 || size % 4 !== 0 || offset < m.offset || offset + size > m.offset + m.size) {
      throw new DOMException('getMappedRange: the range must lie in the mapped range, offset a multiple of 8, size of 4', 'OperationError');
    }
    for (const r of m.ranges) {
      if (offset < r.offset + r.size && r.offset < offset + size) throw new DOMException('getMappedRange: overlaps a range already returned', 'OperationError');
    }
    // A copy of the bytes; written back at unmap for a writable mapping.
    const ab = m.atCreation ? new ArrayBuffer(size) : native.bufferRead(this._h, offset, size);
    m.ranges.push({ offset, size, ab });
    return ab;
  }
  unmap() {
    if (this._pending) { // WebGPU: a pending map is rejected at once
      const p = this._pending;
      this._pending = null;
      p.reject(new DOMException('mapAsync: unmapped before the mapping resolved', 'AbortError'));
    }
    const m = this._mapping;
    if (m && m.mode === GPUMapMode.WRITE && this._h && !this._device._destroyed) {
      for (const r of m.ranges) if (r.ab.byteLength) native.bufferWrite(this._h, r.offset, new Uint8Array(r.ab), true);
    }
    if (m) for (const r of m.ranges) { try { structuredClone(r.ab, { transfer: [r.ab] }); } catch { /* already detached */ } }
    this._mapping = null;
    this.mapState = 'unmapped';
    this._track(false);
  }
  destroy() {
    this.unmap();
    this._destroyed = true;
    // The memory goes now, or once the work submitted before has run; the
    // native object stays in _kept, as WebGPU lets createBindGroup take a
    // destroyed buffer (submit refuses it).
    if (this._h) this._device.queue._afterWork(native.discard, this._h);
    this._kept = this._kept ?? this._h;
    this._h = null;
  }
}

class GPUTexture extends GPUObjectBase {
  constructor(device, h, d, label) {
    super(device, label);
    this._h = h;
    this.width = d.size.width;
    this.height = d.size.height;
    this.depthOrArrayLayers = d.size.depthOrArrayLayers;
    this.mipLevelCount = d.mipLevelCount;
    this.sampleCount = d.sampleCount;
    this.dimension = d.dimension;
    this.format = d.format;
    this.usage = d.usage;
  }
  createView(desc) {
    desc = dict(desc, 'createView');
    desc = {
      label: desc.label, format: desc.format === undefined ? undefined : textureFormat(desc.format, 'createView format'),
      dimension: optEnum(desc.dimension, ENUMS.viewDimension, 'createView dimension'), aspect: optEnum(desc.aspect, ENUMS.aspect, 'createView aspect'),
      baseMipLevel: optU32(desc.baseMipLevel, 'createView baseMipLevel', undefined), mipLevelCount: optU32(desc.mipLevelCount, 'createView mipLevelCount', undefined),
      baseArrayLayer: optU32(desc.baseArrayLayer, 'createView baseArrayLayer', undefined),
      arrayLayerCount: optU32(desc.arrayLayerCount, 'createView arrayLayerCount', undefined), usage: optU32(desc.usage, 'createView usage', undefined),
    };
    const d = this._device;
    const h = this._h ?? this._kept; // a destroyed texture may still be viewed (WebGPU)
    if (!h) {
      d._error(new GPUValidationError('createView: the texture is invalid'));
      return new GPUTextureView(d, null, desc.label);
    }
    const v = new GPUTextureView(d, d._try(() => native.viewCreate(h, desc)), desc.label);
    v._texture = this; // submit() checks that it is not destroyed
    return v;
  }
  destroy() { // the memory goes (after the work submitted); the object stays in _kept, as for buffers
    this._destroyed = true;
    if (this._h) this._device.queue._afterWork(native.discard, this._h);
    this._kept = this._kept ?? this._h;
    this._h = null;
  }
}

class GPUTextureView extends GPUObjectBase { constructor(device, h, label) { super(device, label); this._h = h; } }
class GPUSampler extends GPUObjectBase { constructor(device, h, label) { super(device, label); this._h = h; } }

class GPUCompilationMessage {
  constructor(m) { Object.assign(this, m); }
}
class GPUCompilationInfo { constructor(messages) { this.messages = Object.freeze(messages); } }

class GPUShaderModule extends GPUObjectBase {
  constructor(device, r, label) {
    super(device, label);
    this._h = r && !r.errors ? r.module : null;
    this._diagnostics = r ? r.diagnostics : '';
  }
  // stex's diagnostics ("file:line:col: error: message [rule]", then the
  // source line and a caret) as GPUCompilationMessages.
  async getCompilationInfo() {
    const messages = [];
    for (const line of this._diagnostics.split('\n')) {
      const m = /^.*?:(\d+):(\d+): (error|warning|note|info): (.*)$/.exec(line);
      if (m) {
        messages.push(new GPUCompilationMessage({
          message: m[4], type: m[3] === 'note' ? 'info' : m[3], lineNum: Number(m[1]), linePos: Number(m[2]), offset: 0, length: 0,
        }));
      }
    }
    return new GPUCompilationInfo(messages);
  }
}

// A bind group layout: a pipeline's 'auto' one (pipeline, group), or one
// of createBindGroupLayout (its own native layout handle and entries).
class GPUBindGroupLayout extends GPUObjectBase {
  constructor(device, pipeline, group, h = null, entries = null, label = '') {
    super(device, label);
    this._pipeline = pipeline;
    this._group = group;
    this._h = h;
    this._entries = entries;
  }
}
class GPUPipelineLayout extends GPUObjectBase {
  constructor(device, bgls, valid, label) { super(device, label); this._bgls = bgls; this._valid = valid; }
}
class GPUComputePipeline extends GPUObjectBase {
  constructor(device, h, label, layout = 'auto') { super(device, label); this._h = h; this._layout = layout; }
  getBindGroupLayout(index) {
    index = ulong(index, 'getBindGroupLayout index'); // unsigned long (no [EnforceRange]): modulo 2^32
    if (!Number.isInteger(index) || index < 0 || index >= this._device.limits.maxBindGroups) {
      this._device._error(new GPUValidationError(`getBindGroupLayout(${index}): not below maxBindGroups`));
    }
    if (this._layout !== 'auto') {
      const b = this._layout._bgls[index];
      if (b) return b;
      this._device._error(new GPUValidationError(`getBindGroupLayout(${index}): the pipeline layout has no bind group layout there`));
      return new GPUBindGroupLayout(this._device, null, index);
    }
    return new GPUBindGroupLayout(this._device, this, index);
  }
}
// Named by tests (instanceof); stex binds no external textures (compute has
// no video frames to import), so none is ever made.
class GPUExternalTexture extends GPUObjectBase {}
class GPUBindGroup extends GPUObjectBase {
  constructor(device, h, label, resources) { super(device, label); this._h = h; this._resources = resources; }
}

// ---- commands ----

class GPUCommandBuffer extends GPUObjectBase {
  constructor(device, commands, label) { super(device, label); this._commands = commands; }
}

class GPUComputePassEncoder extends GPUObjectBase {
  constructor(encoder, label, ended = false) {
    super(encoder._device, label);
    this._encoder = encoder;
    this._pipeline = null;
    this._groups = [];
    this._ended = ended; // begun on a finished encoder: ended from the start
  }
  _record(what, cmd) {
    if (this._ended) { this._encoder._fail(`${what}: the pass has ended`); return; }
    this._encoder._commands.push(cmd);
  }
  setPipeline(pipeline) {
    iface(pipeline, GPUComputePipeline, 'setPipeline');
    if (this._ended) { this._encoder._fail('setPipeline: the pass has ended'); return; }
    if (pipeline._device !== this._device) { this._encoder._fail('setPipeline: the pipeline belongs to another device'); return; }
    this._pipeline = pipeline;
  }
  // setBindGroup(index, bindGroup, dynamicOffsets = []) or
  // setBindGroup(index, bindGroup, Uint32Array data, dataStart, dataLength):
  // WebIDL picks the overload by the number of arguments.
  setBindGroup(index, group, ...rest) {
    if (arguments.length < 2 || arguments.length === 4) throw new TypeError(`setBindGroup: no overload takes ${arguments.length} arguments`);
    index = u32(index, 'setBindGroup index'); // GPUIndex32
    group = iface(group, GPUBindGroup, 'setBindGroup bindGroup', true);
    let dyn;
    if (arguments.length === 5) {
      const [data, start, length] = rest;
      if (!(data instanceof Uint32Array)) throw new TypeError('setBindGroup: dynamicOffsetsData is not a Uint32Array');
      const s = u64(start, 'setBindGroup dynamicOffsetsDataStart'), n = u32(length, 'setBindGroup dynamicOffsetsDataLength');
      // WebGPU's content timeline: the slice must lie inside the array
      if (s > data.length) throw new RangeError(`setBindGroup: dynamicOffsetsDataStart ${s} is past the array's ${data.length} elements`);
      if (n > data.length - s) throw new RangeError(`setBindGroup: dynamicOffsetsDataStart ${s} + dynamicOffsetsDataLength ${n} is past the array's ${data.length} elements`);
      dyn = Array.from(data.subarray(s, s + n));
    } else {
      dyn = rest[0] === undefined ? [] : sequence(rest[0], 'setBindGroup dynamicOffsets').map((o, i) => u32(o, `setBindGroup dynamicOffsets[${i}]`));
    }
    if (this._ended) { this._encoder._fail('setBindGroup: the pass has ended'); return; }
    // WebGPU: index < maxBindGroups, checked before anything is kept there
    if (index >= this._device.limits.maxBindGroups) { this._encoder._fail(`setBindGroup: index ${index} is not below maxBindGroups (${this._device.limits.maxBindGroups})`); return; }
    if (group && group._device !== this._device) { this._encoder._fail('setBindGroup: the bind group belongs to another device'); return; }
    // WebGPU: a null bind group has no dynamic offsets (its count is 0)
    if (!group && dyn.length) { this._encoder._fail(`setBindGroup: ${dyn.length} dynamic offsets for a null bind group`); return; }
    this._groups[index] = group ? { group, offsets: dyn } : undefined;
  }
  dispatchWorkgroups(x, y = 1, z = 1) {
    [x, y, z] = [u32(x, 'dispatchWorkgroups workgroupCountX'), u32(y, 'dispatchWorkgroups workgroupCountY'), u32(z, 'dispatchWorkgroups workgroupCountZ')];
    this._record('dispatchWorkgroups', { op: 'dispatch', pipeline: this._pipeline, groups: [...this._groups], x, y, z });
  }
  dispatchWorkgroupsIndirect(buffer, offset) {
    iface(buffer, GPUBuffer, 'dispatchWorkgroupsIndirect indirectBuffer');
    offset = u64(offset, 'dispatchWorkgroupsIndirect indirectOffset');
    if (buffer._device !== this._device) { this._encoder._fail('dispatchWorkgroupsIndirect: the buffer belongs to another device'); return; }
    this._record('dispatchWorkgroupsIndirect', { op: 'dispatch', pipeline: this._pipeline, groups: [...this._groups], indirect: { buffer, offset } });
  }
  pushDebugGroup(groupLabel) { debugString(arguments.length, groupLabel, 'pushDebugGroup'); }
  popDebugGroup() {}
  insertDebugMarker(markerLabel) { debugString(arguments.length, markerLabel, 'insertDebugMarker'); }
  end() {
    if (this._ended) { this._encoder._fail('end: the pass has already ended'); return; }
    this._ended = true;
    this._encoder._pass = null;
  }
}

class GPUCommandEncoder extends GPUObjectBase {
  constructor(device, label) {
    super(device, label);
    this._commands = [];
    this._error = null;
    this._pass = null;
    this._finished = false;
  }
  _fail(message) { if (!this._error) this._error = new GPUValidationError(message); }
  // WebGPU's "validate the encoder state": a finished encoder reports a
  // validation error at once (no finish() will); a locked one (a pass open)
  // becomes invalid.
  _ended(what) {
    if (this._finished) this._device._error(new GPUValidationError(`${what}: the encoder has finished`));
    return this._finished;
  }
  _recordCopy(what, cmd) {
    if (this._ended(what)) return;
    if (this._pass) this._fail(`${what}: a pass is open`);
    this._commands.push(cmd);
  }
  beginComputePass(desc) {
    desc = dict(desc, 'beginComputePass');
    if (desc.timestampWrites !== undefined) { // stex has no GPUQuerySet: no value is one
      need(dict(desc.timestampWrites, 'beginComputePass timestampWrites'), 'querySet', 'beginComputePass timestampWrites');
      throw new TypeError('beginComputePass: timestampWrites.querySet is not a GPUQuerySet');
    }
    if (this._ended('beginComputePass')) return new GPUComputePassEncoder(this, desc.label, true);
    if (this._pass) this._fail('beginComputePass: a pass is already open');
    this._pass = new GPUComputePassEncoder(this, desc.label);
    return this._pass;
  }
  beginRenderPass() { throw new TypeError('beginRenderPass: stex runs compute only'); }
  // (source, sourceOffset, destination, destinationOffset[, size]) or
  // (source, destination[, size]): WebIDL picks by the number of arguments.
  copyBufferToBuffer(src, a, b, c, d) {
    const n = arguments.length, where = 'copyBufferToBuffer';
    if (n < 2) throw new TypeError(`${where}: at least 2 arguments, ${n} given`);
    iface(src, GPUBuffer, `${where} source`);
    let so = 0, dst, doff = 0, size;
    if (n >= 4) {
      so = u64(a, `${where} sourceOffset`);
      dst = iface(b, GPUBuffer, `${where} destination`);
      doff = u64(c, `${where} destinationOffset`);
      size = optU64(d, `${where} size`, undefined);
    } else {
      dst = iface(a, GPUBuffer, `${where} destination`);
      size = optU64(b, `${where} size`, undefined);
    }
    if (src._device !== this._device || dst._device !== this._device) this._fail(`${where}: a buffer belongs to another device`);
    // not given: the rest of the source (WebGPU; below 0 is the copy's own error)
    this._recordCopy(where, { op: 'b2b', src, so, dst, doff, size: size ?? Math.max(0, src.size - so) });
  }
  copyBufferToTexture(source, destination, size) {
    const where = 'copyBufferToTexture';
    const s = texelCopyBuffer(source, `${where} source`), t = texelCopyTexture(destination, `${where} destination`);
    this._recordCopy(where, { op: 'b2t', source: s, destination: t, size: extent3D(size, `${where} copySize`) });
    this._sameDevice(where, s.buffer, t.texture);
  }
  copyTextureToBuffer(source, destination, size) {
    const where = 'copyTextureToBuffer';
    const t = texelCopyTexture(source, `${where} source`), b = texelCopyBuffer(destination, `${where} destination`);
    this._recordCopy(where, { op: 't2b', source: t, destination: b, size: extent3D(size, `${where} copySize`) });
    this._sameDevice(where, t.texture, b.buffer);
  }
  copyTextureToTexture(source, destination, size) {
    const where = 'copyTextureToTexture';
    const s = texelCopyTexture(source, `${where} source`), t = texelCopyTexture(destination, `${where} destination`);
    this._recordCopy(where, { op: 't2t', source: s, destination: t, size: extent3D(size, `${where} copySize`) });
    this._sameDevice(where, s.texture, t.texture);
  }
  clearBuffer(buffer, offset = 0, size) {
    iface(buffer, GPUBuffer, 'clearBuffer buffer');
    [offset, size] = [u64(offset, 'clearBuffer offset'), optU64(size, 'clearBuffer size', undefined)];
    this._sameDevice('clearBuffer', buffer);
    this._recordCopy('clearBuffer', { op: 'clear', buffer, offset, size: size ?? Math.max(0, buffer.size - offset) });
  }
  _sameDevice(where, ...objects) {
    if (objects.some((o) => o._device !== this._device)) this._fail(`${where}: an object belongs to another device`);
  }
  pushDebugGroup(groupLabel) { debugString(arguments.length, groupLabel, 'pushDebugGroup'); }
  popDebugGroup() {}
  insertDebugMarker(markerLabel) { debugString(arguments.length, markerLabel, 'insertDebugMarker'); }
  finish(desc) {
    desc = dict(desc, 'finish');
    if (this._finished) this._fail('finish: the encoder has already finished');
    if (this._pass) this._fail('finish: a pass is still open');
    this._finished = true;
    for (const c of this._commands) { // each command's rules, as WebGPU checks them at encoding
      if (this._error) break;
      // a destroyed buffer or texture is valid to encode and submit() refuses
      // it (its native object is gone: nothing left to check); an invalid one
      // (its creation failed) is an error here
      const used = usedBy(c).filter((r) => r instanceof GPUBuffer || r instanceof GPUTexture);
      if (used.some((r) => r._destroyed) && !used.some((r) => !r._destroyed && !r._h)) continue;
      try { this._device.queue._run(c, true); } catch (e) {
        if (e instanceof TypeError) throw e;
        this._error = e instanceof GPUError ? e : gpuError(e);
      }
    }
    if (this._error) {
      this._device._error(this._error);
      return new GPUCommandBuffer(this._device, null, desc.label);
    }
    return new GPUCommandBuffer(this._device, this._commands, desc.label);
  }
}

// The buffers and textures command c uses, whose state submit() checks.
function usedBy(c) {
  const res = (r) => (r instanceof GPUTextureView ? r._texture : r && r.buffer instanceof GPUBuffer ? r.buffer : r);
  switch (c.op) {
    case 'b2b': return [c.src, c.dst];
    case 'clear': return [c.buffer];
    case 'b2t': return [c.source.buffer, c.destination.texture];
    case 't2b': return [c.source.texture, c.destination.buffer];
    case 't2t': return [c.source.texture, c.destination.texture];
    case 'dispatch': return [c.indirect?.buffer, ...c.groups.flatMap((g) => (g ? g.group._resources.map(res) : []))];
    default: return [];
  }
}

// A debug group's or marker's label: a required USVString.
function debugString(argc, v, where) {
  if (argc < 1) throw new TypeError(`${where}: 1 argument required, 0 given`);
  idlString(v, where);
}

// GPUTexelCopyBufferLayout / GPUTexelCopyBufferInfo / GPUTexelCopyTextureInfo,
// converted: plain objects of checked members (bytesPerRow and rowsPerImage
// undefined when not given; every GPUSize32 value, 4294967295 included,
// reaches the copy's rules as itself).
function texelLayout(x, where) {
  x = dict(x, where);
  return {
    offset: optU64(x.offset, `${where}.offset`, 0), bytesPerRow: optU32(x.bytesPerRow, `${where}.bytesPerRow`, undefined),
    rowsPerImage: optU32(x.rowsPerImage, `${where}.rowsPerImage`, undefined),
  };
}
function texelCopyBuffer(x, where) {
  const l = texelLayout(x, where);
  return { buffer: iface(need(x, 'buffer', where), GPUBuffer, `${where}.buffer`), ...l };
}
function texelCopyTexture(x, where) {
  x = dict(x, where);
  return {
    texture: iface(need(x, 'texture', where), GPUTexture, `${where}.texture`), mipLevel: optU32(x.mipLevel, `${where}.mipLevel`, 0),
    origin: origin3D(x.origin, `${where}.origin`), aspect: optEnum(x.aspect, ENUMS.aspect, `${where}.aspect`) ?? 'all',
  };
}

function copyLayout(x) { // bytesPerRow and rowsPerImage stay undefined when not given
  return { offset: x.offset ?? 0, bytesPerRow: x.bytesPerRow, rowsPerImage: x.rowsPerImage };
}
// queued: for a command submitted before its buffer or texture was
// destroyed, which still runs on it (WebGPU destroys it after the work
// queued before destroy(); the memory goes then: GPUQueue._afterWork).
function copyTexture(x, queued = false) {
  const h = x.texture && (x.texture._h ?? (queued ? x.texture._kept : null));
  if (!h) throw new GPUValidationError('the texture is invalid or destroyed');
  return { texture: h, mipLevel: x.mipLevel ?? 0, origin: origin3D(x.origin), aspect: x.aspect ?? 'all' };
}
function handle(obj, what, queued = false) {
  const h = obj && (obj._h ?? (queued ? obj._kept : null));
  if (!h) throw new GPUValidationError(`${what} is invalid or destroyed`);
  return h;
}

// The queue timeline: steps run one after another in the order queued; a
// step that returns a promise (a dispatch running off the JavaScript
// thread, src/addon_queue.c) holds back the steps after it until it
// settles.  Queued steps run in a microtask; run(step) runs it at once
// when nothing is waiting (a submit's errors then come before it returns).
class Timeline {
  constructor() { this._steps = []; this._busy = false; this._kicked = false; }
  get idle() { return !this._busy && this._steps.length === 0; }
  push(step) {
    this._steps.push(step);
    if (this._busy || this._kicked) return;
    this._kicked = true;
    queueMicrotask(() => { this._kicked = false; this._pump(); });
  }
  run(step) { if (this.idle) this._start(step); else this.push(step); }
  _start(step) {
    const r = step();
    if (r && typeof r.then === 'function') {
      this._busy = true;
      const next = () => { this._busy = false; this._pump(); };
      r.then(next, next);
    }
  }
  _pump() { while (!this._busy && this._steps.length) this._start(this._steps.shift()); }
}

class GPUQueue extends GPUObjectBase {
  constructor(device, label) { super(device, label); this._timeline = new Timeline(); }
  // fn(arg) now when no work is queued, else once the work queued before
  // has run: what frees or writes memory that work may be using.
  _afterWork(fn, arg) { this._timeline.run(() => { fn(arg); }); }
  // Runs command c; check: only its rules, as the encoder checks them at
  // finish() (the run checks them again: a resource may be destroyed since).
  _run(c, check = false) {
    const d = this._device, cfg = d._config;
    switch (c.op) {
      case 'b2b': return native.bufferCopy(handle(c.src, 'the source buffer', !check), c.so, handle(c.dst, 'the destination buffer', !check), c.doff, c.size, check);
      case 'clear': return native.bufferClear(handle(c.buffer, 'the buffer', !check), c.offset, c.size, check);
      case 'b2t': return native.bufferToTexture({ buffer: handle(c.source.buffer, 'the buffer', !check), ...copyLayout(c.source) }, copyTexture(c.destination, !check), c.size, check);
      case 't2t': return native.textureToTexture(copyTexture(c.source, !check), copyTexture(c.destination, !check), c.size, check);
      case 't2b': return native.textureToBuffer(copyTexture(c.source, !check), { buffer: handle(c.destination.buffer, 'the buffer', !check), ...copyLayout(c.destination) }, c.size, check);
      case 'dispatch': {
        if (!c.pipeline) throw new GPUValidationError('dispatchWorkgroups: no pipeline is set');
        let { x, y, z } = c;
        if (c.indirect) {
          const ib = c.indirect.buffer;
          if (check) {
            if (!(ib.usage & GPUBufferUsage.INDIRECT)) throw new GPUValidationError('dispatchWorkgroupsIndirect: the buffer\'s usage lacks INDIRECT');
            if (c.indirect.offset % 4 || c.indirect.offset + 12 > ib.size) throw new GPUValidationError('dispatchWorkgroupsIndirect: indirectOffset must be a multiple of 4 with 12 bytes after it in the buffer');
            x = y = z = 0; // the counts are read when it runs
          } else {
            [x, y, z] = new Uint32Array(native.bufferRead(handle(ib, 'the indirect buffer', !check), c.indirect.offset, 12));
            const max = d.limits.maxComputeWorkgroupsPerDimension;
            if (x > max || y > max || z > max) return undefined; // WebGPU: an indirect dispatch over the limit does nothing
          }
        }
        const groups = c.groups.map((g) => (g ? { group: handle(g.group, 'a bind group', !check), offsets: g.offsets } : {}));
        const ind = check && c.indirect ? handle(c.indirect.buffer, 'the indirect buffer', !check) : undefined; // in the usage scope
        if (check) return native.dispatch(handle(c.pipeline, 'the pipeline', !check), groups, x, y, z, cfg.dispatch, check, ind);
        // off this thread: a promise of the race report (flag races=1)
        const run = { cancel: d._cancel, timeout: cfg.timeout };
        return native.dispatch(handle(c.pipeline, 'the pipeline', !check), groups, x, y, z, cfg.dispatch, false, undefined, run).then((report) => {
          if (!report || d._destroyed) return;
          const r = JSON.parse(report);
          d.stex.raceReports.push(r);
          const ev = new Event('stexrace');
          ev.report = r;
          d.dispatchEvent(ev);
        });
      }
      default: throw new GPUInternalError(`unknown command ${c.op}`);
    }
  }
  // WebGPU's submit rules, or null: a failure runs none of the buffers.
  _submitError(cbs) {
    if (new Set(cbs).size !== cbs.length) return 'a command buffer is given twice';
    for (const cb of cbs) {
      if (!cb._commands) return 'a command buffer is invalid';
      if (cb._device !== this._device) return 'a command buffer belongs to another device';
      if (cb._submitted) return 'a command buffer was already submitted';
      for (const c of cb._commands) {
        for (const r of usedBy(c)) {
          if (r instanceof GPUBuffer && r._destroyed) return 'a buffer it uses is destroyed';
          if (r instanceof GPUBuffer && r.mapState !== 'unmapped') return 'a buffer it uses is mapped or has a map pending';
          if (r instanceof GPUTexture && r._destroyed) return 'a texture it uses is destroyed';
        }
      }
    }
    return null;
  }
  submit(buffers) {
    const d = this._device;
    const cbs = [...buffers];
    for (const cb of cbs) if (!(cb instanceof GPUCommandBuffer)) throw new TypeError('submit: not a GPUCommandBuffer');
    const why = this._submitError(cbs);
    for (const cb of cbs) cb._submitted = true; // submitted or invalidated: not again
    if (why) { d._error(new GPUValidationError(`submit: ${why}`)); return; }
    if (d._destroyed) return; // a lost device runs nothing
    // The commands run on the queue timeline, after the work submitted
    // before; their errors go to the scopes open now.
    const lists = cbs.map((cb) => cb._commands), scopes = d._scopes.slice();
    this._timeline.run(() => this._runLists(lists, scopes, 0, 0));
  }
  // Runs lists[i] from command k on, then the lists after it; a command
  // that fails ends its command buffer.  A promise while a dispatch runs.
  _runLists(lists, scopes, i, k) {
    const d = this._device;
    for (; i < lists.length; i++, k = 0) {
      for (; k < lists[i].length; k++) {
        if (d._destroyed) return undefined; // a lost device runs nothing more
        let r;
        try { r = this._run(lists[i][k]); } catch (e) { this._failed(e, scopes); break; }
        if (r && typeof r.then === 'function') {
          const [ni, nk] = [i, k + 1];
          return r.then(() => this._runLists(lists, scopes, ni, nk),
            (e) => { this._failed(e, scopes); return this._runLists(lists, scopes, ni + 1, 0); });
        }
      }
    }
    return undefined;
  }
  // A dispatch that failed off the thread: stopped by the watchdog (the
  // device is lost, as a browser's GPU watchdog loses it), by destroy()
  // (nothing to report), or a shader error (a validation error).
  _failed(e, scopes) {
    const d = this._device;
    if (e && e.code === 'cancelled') {
      d._lose('unknown', `stex watchdog: a dispatch ran longer than the provider flag timeout=${d._config.timeout} s and was stopped; the device is lost (${e.message})`);
      return;
    }
    let err = e;
    // finish() threw the TypeErrors already: one now (a queued command
    // whose arguments changed meaning) is the command's failure, not the caller's
    if (!(e instanceof GPUError)) try { err = gpuError(e); } catch (t) { err = new GPUValidationError(t.message); }
    d._error(err, scopes);
  }
  writeBuffer(buffer, bufferOffset, data, dataOffset = 0, size) {
    const d = this._device;
    iface(buffer, GPUBuffer, 'writeBuffer buffer'); // WebIDL: a texture here is a TypeError
    bufferOffset = u64(bufferOffset, 'writeBuffer bufferOffset');
    let bytes = bytesOf(data, 'writeBuffer');
    [dataOffset, size] = [u64(dataOffset, 'writeBuffer dataOffset'), optU64(size, 'writeBuffer size', undefined)];
    const unit = ArrayBuffer.isView(data) && data.BYTES_PER_ELEMENT ? data.BYTES_PER_ELEMENT : 1;
    const start = dataOffset * unit, len = size === undefined ? bytes.byteLength - start : size * unit;
    if (start > bytes.byteLength || len < 0 || start + len > bytes.byteLength) throw new DOMException('writeBuffer: the data range is outside data', 'OperationError');
    if (len % 4) throw new DOMException(`writeBuffer: the size in bytes, ${len}, is not a multiple of 4`, 'OperationError');
    bytes = bytes.subarray(start, start + len);
    if (!buffer || !buffer._h) { d._error(new GPUValidationError('writeBuffer: the buffer is invalid or destroyed')); return; }
    if (buffer._device !== d) { d._error(new GPUValidationError('writeBuffer: the buffer belongs to another device')); return; }
    if (buffer.mapState !== 'unmapped') { d._error(new GPUValidationError('writeBuffer: the buffer is mapped or has a map pending')); return; }
    if (this._timeline.idle) { d._try(() => native.bufferWrite(buffer._h, bufferOffset, bytes, false)); return; }
    // behind the work submitted before it, with the bytes as they are now
    const h = buffer._h, copy = bytes.slice(), scopes = d._scopes.slice();
    this._timeline.push(() => {
      if (d._destroyed) return;
      try { native.bufferWrite(h, bufferOffset, copy, false); } catch (e) { this._failed(e, scopes); }
    });
  }
  writeTexture(destination, data, layout, size) {
    const d = this._device;
    destination = texelCopyTexture(destination, 'writeTexture destination');
    const bytes = bytesOf(data, 'writeTexture');
    layout = texelLayout(layout, 'writeTexture dataLayout');
    size = extent3D(size, 'writeTexture size');
    if (destination.texture._device !== d) {
      d._error(new GPUValidationError('writeTexture: the texture belongs to another device'));
      return;
    }
    const scopes = d._scopes.slice(), idle = this._timeline.idle;
    const write = (dst, b) => {
      if (d._destroyed) return;
      try { native.textureWrite(dst, b, copyLayout(layout), size); } catch (e) { d._error(e instanceof GPUError ? e : gpuError(e), scopes); }
    };
    let dst;
    try { dst = copyTexture(destination); } catch (e) { d._error(e instanceof GPUError ? e : gpuError(e)); return; }
    if (idle) write(dst, bytes);
    else { const copy = bytes.slice(); this._timeline.push(() => write(dst, copy)); } // behind the work submitted before
  }
  // Settles after the work submitted before has run and after the maps
  // asked before it (WebGPU), also once the device is lost.
  onSubmittedWorkDone() { return new Promise((resolve) => this._device._later(resolve)); }
}

// ---- the provider ----

// flags: strings "key=value" as the CTS's and the peer harness's
// --gpu-provider-flag give them (bindings/node/README.md, "Flags"): each
// value is checked, and a bad one is a TypeError naming the flag.
const DEFAULT_TIMEOUT_S = 10; // a browser's GPU watchdog allows a few seconds
const FLAG_VALUES = {
  profile: (v, c) => { c.profile = oneOf(v, ['spec', 'lavapipe', 'nvidia']); },
  schedule: (v, c) => { c.dispatch.schedule = oneOf(v, ['in-order', 'reversed', 'shuffled', 'interleaved']); },
  seed: (v, c) => { c.dispatch.seed = whole(v, 0, Number.MAX_SAFE_INTEGER, 'a seed'); },
  threads: (v, c) => { c.dispatch.threads = whole(v, 0, 4096, 'a thread count (0: all cores)'); },
  subgroup: (v, c) => { c.subgroupWidth = whole(v, 1, 64, 'a width'); },
  visibility: (v, c) => { c.dispatch.visibility = oneOf(v, ['immediate', 'snapshot']); },
  races: (v, c) => {
    // all: every racing location in each report (as `stex run --races all`), not the first 100
    const on = ['1', 'on', 'true', 'all'].includes(oneOf(v, ['0', '1', 'off', 'on', 'false', 'true', 'all']));
    c.dispatch.raceCheck = on;
    c.dispatch.raceAll = v === 'all';
  },
  timeout: (v, c) => {
    const s = /^(\d+(\.\d*)?|\.\d+)$/.test(v) ? Number(v) : NaN;
    if (!(s >= 0 && s <= 1e9)) throw new RangeError('not a number of seconds in [0, 1e9] (0: no watchdog)');
    c.timeout = s;
  },
  'max-steps': (v, c) => { c.maxSteps = whole(v, 1, Number.MAX_SAFE_INTEGER, 'a step count'); },
  // jit: pipelines compiled to native code (the interpreter's results; the
  // interpreter where the build has no JIT, said once on stderr)
  executor: (v, c) => { c.executor = oneOf(v, ['interp', 'jit']); },
  // 1: pipelines run in allowed mode (docs/intervals.md), device.stex.allowedBounds answers
  allowed: (v, c) => { c.allowed = ['1', 'on', 'true'].includes(oneOf(v, ['0', '1', 'off', 'on', 'false', 'true'])); },
};
const FLAGS = Object.keys(FLAG_VALUES);
function oneOf(v, values) {
  if (!values.includes(v)) throw new RangeError(`not one of ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`);
  return v;
}
function whole(v, lo, hi, what) { // decimal digits only: no sign, exponent, hex or blanks
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= lo && n <= hi)) throw new RangeError(`not ${what}: a whole number in [${lo}, ${hi}]`);
  return n;
}
function parseFlags(flags) {
  const config = {
    profile: 'spec', subgroupWidth: undefined, timeout: DEFAULT_TIMEOUT_S, maxSteps: undefined,
    dispatch: { schedule: 'in-order', seed: 0, threads: 0, raceCheck: false, raceAll: false },
  };
  for (const f of [...(flags ?? [])]) {
    const m = /^([a-z-]+)=(.*)$/s.exec(String(f));
    if (!m) throw new TypeError(`stex flag '${f}': not key=value`);
    const [, k, v] = m;
    if (!Object.hasOwn(FLAG_VALUES, k)) throw new TypeError(`stex flag '${k}': not one of ${FLAGS.join(', ')}`);
    try { FLAG_VALUES[k](v, config); } catch (e) { throw new TypeError(`stex flag '${k}=${v}': ${e.message}`); }
  }
  return config;
}


const globals = {
  GPU, GPUAdapter, GPUAdapterInfo, GPUDevice, GPUQueue, GPUBuffer, GPUTexture, GPUTextureView, GPUSampler,
  GPUShaderModule, GPUCompilationInfo, GPUCompilationMessage, GPUComputePipeline, GPUBindGroupLayout, GPUPipelineLayout, GPUBindGroup, GPUExternalTexture,
  GPUCommandEncoder, GPUCommandBuffer, GPUComputePassEncoder, GPUSupportedFeatures, GPUSupportedLimits,
  WGSLLanguageFeatures, GPUError, GPUValidationError, GPUOutOfMemoryError, GPUInternalError, GPUPipelineError,
  GPUUncapturedErrorEvent, GPUDeviceLostInfo, GPUBufferUsage, GPUTextureUsage, GPUMapMode, GPUShaderStage,
};

// As Dawn's create() does, the WebGPU globals (GPUBufferUsage, the
// classes, ...) are set on globalThis where the runtime has none: tests
// written for a browser name them without importing anything.
function create(flags = []) {
  const gpu = new GPU(parseFlags(flags));
  for (const [k, v] of Object.entries(globals)) if (!(k in globalThis)) globalThis[k] = v;
  return gpu;
}

module.exports = { create, globals };
