// The nvidia profile against the NVIDIA GPU's own results: the probes of tools/nvprobe measured
// on an H100 (tests/data/nvprobe; the device and the command are in its README), replayed on
// stex under profile=nvidia.  Each probe named in EXACT must give the device's bits on every
// row; the others (compiler rewrites not modelled yet, issue 28) are reported, not asserted.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { loadGPU, runProbes } from '../../../tools/nvprobe/probe.mjs';

const DATA = new URL('../../../tests/data/nvprobe/', import.meta.url);

// Probes stex reproduces on every measured row, by what they show.
const EXACT = {
  'h100-round1.json.gz': [
    // contraction of a * b + c in the forms the lowering fuses
    'mad', 'mad_rev', 'let_mad', 'two_products', 'vec2_mad_y', 'vec3_mad_y', 'mix',
    // division: x * MUFU.RCP(y); constants' reciprocals folded
    'div', 'recip', 'recip_mul', 'div_const3', 'div_const01', 'div_pow2', 'rem',
    // builtins on subnormals and -0 (flushing, the sign of zero)
    'copy', 'neg', 'abs', 'min', 'max', 'sign', 'ceil', 'round', 'trunc', 'saturate', 'select',
    'add', 'mul', 'fma', 'ldexp', 'frexp_fract', 'modf_fract', 'step', 'degrees', 'radians',
    // the special-function unit and what is built from it
    'sqrt', 'inverseSqrt', 'exp', 'exp2', 'log', 'log2', 'pow', 'sin', 'cos', 'tan', 'sinh', 'cosh',
    'exp_from_exp2', 'log_from_log2', 'pow_pos', 'sinh_b', 'cosh_b',
  ],
};

function load(name) {
  const d = JSON.parse(zlib.gunzipSync(fs.readFileSync(new URL(name, DATA))));
  const b = Buffer.from(d.inputs, 'base64');
  return { d, inp: new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length)) };
}

function probeOf(rec) {
  const own = /\blet r\b/.test(rec.expr) ? { body: rec.expr } : { expr: rec.expr };
  return { name: rec.name, decls: rec.decls, ...own };
}

const gpu = await loadGPU('stex', ['profile=nvidia']);
const device = await (await gpu.requestAdapter()).requestDevice();

for (const [file, names] of Object.entries(EXACT)) {
  test(`nvidia profile reproduces ${file}`, async () => {
    const { d, inp } = load(file);
    const report = [];
    for (const rec of d.probes) {
      if (rec.error) continue;
      const ob = Buffer.from(rec.out, 'base64');
      const want = new Uint32Array(ob.buffer.slice(ob.byteOffset, ob.byteOffset + ob.length));
      const [got] = await runProbes(device, [probeOf(rec)], inp);
      assert.ok(!got.error, `${rec.name}: ${got.error}`);
      let same = 0, first = -1;
      for (let i = 0; i < want.length; i++) {
        if (got.out[i] === want[i]) same++;
        else if (first < 0) first = i;
      }
      report.push(`${rec.name} ${same}/${want.length}`);
      if (names.includes(rec.name)) {
        assert.equal(same, want.length, `${rec.name} (${rec.expr}): row ${first} gives ` +
          `0x${got.out[first]?.toString(16)}, the device 0x${want[first]?.toString(16)}`);
      }
    }
    for (const n of names) assert.ok(d.probes.some((r) => r.name === n), `${n} not in ${file}`);
    console.log(`${file}: ${report.join(', ')}`);
  });
}
