#!/usr/bin/env node
// The WebGPU CTS's acceptance intervals (src/webgpu/util/floating_point.ts,
// its FPInterval machinery) for the inputs of stex's measured rows, one row
// each: op, signature, inputs, lo, hi (x and the f32 bits of an f32 value,
// else a decimal; "any" when unbounded).  The test
// math_interval compares stex_ival_eval with them (tests/math/test_interval.c).
//
//   cd /tmp/cts-3314 && node $STEX/tools/cts/intervals.js \
//       $STEX/tests/data/wgslexpr-lavapipe.tsv.gz f32 | gzip -9 > $STEX/tests/data/cts-intervals-f32.tsv.gz
//   ... f16expr-lavapipe.tsv.gz f16 --every 16 | gzip -9 > .../cts-intervals-f16.tsv.gz
//
// Run it inside a CTS checkout (tools/cts/slices.mjs's commit, npm ci done):
// it loads the CTS's TypeScript through the CTS's own ts-node setup.
const cts = process.cwd();
require(`${cts}/src/common/tools/setup-ts-in-node.js`);
const { FP } = require(`${cts}/src/webgpu/util/floating_point.ts`);
const zlib = require('zlib');
const fs = require('fs');
const [, , inFile, kind, everyFlag, everyN] = process.argv;
const every = everyFlag === '--every' ? Number(everyN) : 1;
let row = 0;
const T = FP[kind];
const buf = new ArrayBuffer(4), dv = new DataView(buf);
const f32 = h => { dv.setUint32(0, parseInt(h, 16)); return dv.getFloat32(0); };
const f16 = h => { const u = parseInt(h, 16); dv.setUint16(0, u); return dv.getFloat16 ? dv.getFloat16(0) : half(u); };
function half(u) { const s = u & 0x8000 ? -1 : 1, e = (u >> 10) & 31, m = u & 1023;
  if (e === 0) return s * m * 2 ** -24; if (e === 31) return m ? NaN : s * Infinity; return s * (1 + m / 1024) * 2 ** (e - 15); }
const val = kind === 'f16' ? f16 : f32;
const span = iv => Array.isArray(iv) ? T.spanIntervals(...iv) : iv;
const ops = {
  add: (a, b) => T.additionInterval(a, b), sub: (a, b) => T.subtractionInterval(a, b),
  mul: (a, b) => T.multiplicationInterval(a, b), div: (a, b) => T.divisionInterval(a, b),
  rem: (a, b) => T.remainderInterval(a, b), neg: a => T.negationInterval(a),
  fma: (a, b, c) => T.fmaInterval(a, b, c), sin: a => T.sinInterval(a), cos: a => T.cosInterval(a),
  tan: a => T.tanInterval(a), exp: a => T.expInterval(a), exp2: a => T.exp2Interval(a),
  log: a => T.logInterval(a), log2: a => T.log2Interval(a), sqrt: a => T.sqrtInterval(a),
  inverseSqrt: a => T.inverseSqrtInterval(a), tanh: a => T.tanhInterval(a), atan: a => T.atanInterval(a),
  asin: a => T.asinInterval(a), acos: a => T.acosInterval(a), sinh: a => T.sinhInterval(a),
  cosh: a => T.coshInterval(a), asinh: a => T.asinhInterval(a), acosh: a => span(T.acoshIntervals(a)),
  atanh: a => T.atanhInterval(a), pow: (a, b) => T.powInterval(a, b), atan2: (a, b) => T.atan2Interval(a, b),
  floor: a => T.floorInterval(a), ceil: a => T.ceilInterval(a), round: a => T.roundInterval(a),
  trunc: a => T.truncInterval(a), fract: a => T.fractInterval(a), abs: a => T.absInterval(a),
  sign: a => T.signInterval(a), saturate: a => T.saturateInterval(a), degrees: a => T.degreesInterval(a),
  radians: a => T.radiansInterval(a), min: (a, b) => T.minInterval(a, b), max: (a, b) => T.maxInterval(a, b),
  step: (a, b) => T.stepInterval(a, b), clamp: (a, b, c) => span(T.clampIntervals(a, b, c)),
  smoothstep: (a, b, c) => T.smoothStepInterval(a, b, c), mix: (a, b, c) => span(T.mixIntervals(a, b, c)),
};
// an endpoint: x and the f32 bits when it is an f32 value (every f16 one is), else its decimal
const num = x => {
  if (Math.fround(x) !== x) return String(x);
  dv.setFloat32(0, x);
  return 'x' + dv.getUint32(0).toString(16).padStart(8, '0');
};
const text = zlib.gunzipSync(fs.readFileSync(inFile)).toString();
const out = [];
const sig1 = kind === 'f16' ? 'f16' : 'f32';
for (const line of text.split('\n')) {
  if (!line || line[0] === '#' || row++ % every) continue;
  const c = line.split('\t');
  const op = c[0], sig = c[1], inputs = c[c.length - 2];
  if (!ops[op] || !sig.endsWith('->' + sig1) || sig.includes('i32')) continue;
  const args = inputs.split(',').map(val);
  if (args.some(x => !Number.isFinite(x))) continue; // the CTS skips non-finite inputs at run time
  let iv;
  try { iv = ops[op](...args); } catch (e) { continue; }
  const any = !Number.isFinite(iv.begin) || !Number.isFinite(iv.end);
  out.push([op, sig, inputs, any ? 'any' : num(iv.begin), any ? 'any' : num(iv.end)].join('\t'));
}
process.stdout.write(`# the WebGPU CTS's acceptance intervals (${kind}, src/webgpu/util/floating_point.ts at the CTS commit of tools/cts/slices.mjs) for the inputs of ${require('path').basename(inFile)}; ${every > 1 ? `every ${every}th row; ` : ''}written by tools/cts/intervals.js\n# columns: op, signature, inputs (hex words), lo, hi (x and f32 bits, or a decimal number; "any" when unbounded)\n`);
process.stdout.write(out.join('\n') + '\n');
