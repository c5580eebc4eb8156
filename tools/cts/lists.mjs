// Named lists of WebGPU CTS queries for tools/cts/run.mjs --list NAME, at
// CTS commit 3314e410 (slices.mjs's CTS_COMMIT).  Each entry is
// [name, query, cases], cases being the count the query listed there (run.mjs
// warns when it lists another), or null where the list is made from the
// checkout's files.
//
// compute-core: issue 23's 52 queries, the compute side of the CTS an
//   issue filer ran on stex (9,296 cases here): shader,execution's control
//   flow, memory model, zero-initialisation, compute builtins, padding,
//   memory layout, robust access, subsets of the expression tests (access,
//   unary, binary, builtins, atomics); shader,validation's uniformity and
//   declarations; api,validation's createBindGroup and createBindGroupLayout.
// shader-execution, shader-validation, api-validation, api-operation: every
//   spec file under webgpu:shader,execution / shader,validation /
//   api,validation / api,operation, one query per file, made from the CTS
//   checkout's src/webgpu tree.  What a compute-only implementation cannot
//   run (render pipelines and passes, vertex and fragment stages, external
//   textures, canvas) is in tools/cts/expectations.cjs, with its reason;
//   run.mjs counts those cases as out of scope (status `oos`).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const E = 'webgpu:shader,execution';
const X = `${E},expression`;
const B = `${X},call,builtin`;
const V = 'webgpu:shader,validation';

export const computeCore = [
  // shader,execution: control flow, memory, compute builtins, layout
  ['flow_control', `${E},flow_control,*`, 140],
  ['zero_init', `${E},zero_init:*`, 348],
  ['compute_builtins', `${E},shader_io,compute_builtins:*`, 148],
  ['padding', `${E},padding:*`, 20],
  ['memory_layout', `${E},memory_layout:*`, 774],
  ['robust_access', `${E},robust_access:*`, 486],
  // shader,execution: expressions
  ['access.array', `${X},access,array,*`, 100],
  ['access.matrix', `${X},access,matrix,*`, 333],
  ['access.structure', `${X},access,structure,*`, 50],
  ['access.vector', `${X},access,vector,*`, 264],
  ['unary.i32_arithmetic', `${X},unary,i32_arithmetic:*`, 16],
  ['unary.i32_complement', `${X},unary,i32_complement:*`, 16],
  ['unary.u32_complement', `${X},unary,u32_complement:*`, 16],
  ['unary.bool_logical', `${X},unary,bool_logical:*`, 16],
  ['unary.f32_arithmetic', `${X},unary,f32_arithmetic:*`, 16],
  ['binary.i32_arithmetic', `${X},binary,i32_arithmetic:*`, 340],
  ['binary.u32_arithmetic', `${X},binary,u32_arithmetic:*`, 340],
  ['binary.bitwise', `${X},binary,bitwise:*`, 240],
  ['binary.bitwise_shift', `${X},binary,bitwise_shift:*`, 136],
  ['binary.bool_logical', `${X},binary,bool_logical:*`, 104],
  ['binary.i32_comparison', `${X},binary,i32_comparison:*`, 96],
  ['binary.u32_comparison', `${X},binary,u32_comparison:*`, 96],
  ['binary.f32_addition', `${X},binary,f32_addition:*`, 68],
  ['binary.f32_multiplication', `${X},binary,f32_multiplication:*`, 68],
  ['atomicAdd', `${B},atomics,atomicAdd:*`, 64],
  ['atomicSub', `${B},atomics,atomicSub:*`, 65],
  ['atomicMin', `${B},atomics,atomicMin:*`, 64],
  ['atomicMax', `${B},atomics,atomicMax:*`, 64],
  ['atomicLoad', `${B},atomics,atomicLoad:*`, 128],
  ['atomicCompareExchangeWeak', `${B},atomics,atomicCompareExchangeWeak:*`, 164],
  ['builtin.abs', `${B},abs:*`, 72],
  ['builtin.clamp', `${B},clamp:*`, 72],
  ['builtin.min', `${B},min:*`, 72],
  ['builtin.max', `${B},max:*`, 72],
  ['builtin.select', `${B},select:*`, 196],
  ['builtin.countOneBits', `${B},countOneBits:*`, 32],
  ['builtin.extractBits', `${B},extractBits:*`, 32],
  ['builtin.insertBits', `${B},insertBits:*`, 32],
  ['builtin.firstLeadingBit', `${B},firstLeadingBit:*`, 32],
  ['builtin.reverseBits', `${B},reverseBits:*`, 32],
  ['builtin.workgroupBarrier', `${B},workgroupBarrier:*`, 4],
  ['builtin.storageBarrier', `${B},storageBarrier:*`, 4],
  ['builtin.workgroupUniformLoad', `${B},workgroupUniformLoad:*`, 40],
  // shader,validation
  ['validation.uniformity', `${V},uniformity,*`, 453],
  ['validation.decl', `${V},decl,*`, 1020],
  // api,validation
  ['api.createBindGroup', 'webgpu:api,validation,createBindGroup:*', 1897],
  ['api.createBindGroupLayout', 'webgpu:api,validation,createBindGroupLayout:*', 368],
  // shader,execution: the memory model, last: on an interpreter each case
  // runs 1,024 workgroups of 256 invocations through 1,024 stress iterations
  ['memory_model.atomicity', `${E},memory_model,atomicity:*`, 3],
  ['memory_model.barrier', `${E},memory_model,barrier:*`, 36],
  ['memory_model.coherence', `${E},memory_model,coherence:*`, 27],
  ['memory_model.weak', `${E},memory_model,weak:*`, 12],
  ['memory_model.adjacent', `${E},memory_model,adjacent:*`, 8],
];

// One query per spec file under src/webgpu/DIR, named by its path below DIR.
function specFiles(cts, dir) {
  const base = path.join(cts, 'src/webgpu', dir);
  const out = [];
  const walk = d => {
    for (const n of readdirSync(d).sort()) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.spec.ts')) out.push(path.relative(base, p).slice(0, -'.spec.ts'.length));
    }
  };
  walk(base);
  const prefix = dir.split('/').join(',');
  return out.map(r => [r.split('/').join('.'), `webgpu:${prefix},${r.split('/').join(',')}:*`, null]);
}

const generated = {
  'shader-execution': 'shader/execution',
  'shader-validation': 'shader/validation',
  'api-validation': 'api/validation',
  'api-operation': 'api/operation',
};

export const listNames = ['compute-core', ...Object.keys(generated)];

export function listQueries(name, cts) {
  if (name === 'compute-core') return computeCore;
  if (generated[name]) return specFiles(cts, generated[name]);
  throw new Error(`no list ${name}: the lists are ${listNames.join(', ')}`);
}
