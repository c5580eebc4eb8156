#!/usr/bin/env node
// Writes tests/data/difftest/corpus.wgsl.gz: the gen.mjs programs of a fixed
// seed range (default features), each measured on Dawn on lavapipe, as
// cases opened by "//! case seed-N" (tests/wgsl/test_wgsl_difftest.c runs
// them on stex).  Seeds in EXCLUDED (README.md "known differences": stex
// still differs there and the bug is not fixed yet) are left out.
//
//   node tools/difftest/make-corpus.mjs [--from 100000] [--count 300] [--out FILE] [--check-stex]
// --check-stex also runs each program on stex and lists the seeds that differ;
// --dawn FILE.jsonl takes Dawn's words from a run.mjs output of the same
// seeds (and the same gen.mjs) instead of running Dawn again.
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { generate } from './gen.mjs';
import { Runner, sane } from './pool.mjs';

export const FROM = 100000, COUNT = 300;
// seed -> why it is left out (a stex bug not fixed yet; README.md lists the reduced programs)
export const EXCLUDED = new Map([
  [100021, 'sign of a zero after NIR folding: regress/float-sub-zero-sign-folded.wgsl'],
  [100024, 'NIR reassociates constants in f32 adds: regress/float-add-constant-reassociation.wgsl'],
  [100117, 'static use under false &&: regress/static-use-under-false-and.wgsl'],
  [100208, 'x * 0.0 is +0.0 on lavapipe: regress/float-mul-zero-sign.wgsl'],
  [100217, 'const determinant of a mat4x4: regress/const-determinant-4x4.wgsl'],
]);

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
const from = Number(opt('--from', FROM)), count = Number(opt('--count', COUNT));
const out = opt('--out', new URL('../../tests/data/difftest/corpus.wgsl.gz', import.meta.url).pathname);
const dawn = new Runner('dawn', { timeoutMs: 60000 });
const known = new Map();
if (opt('--dawn')) for (const l of readFileSync(opt('--dawn'), 'utf8').split('\n')) if (l.trim()) { const r = JSON.parse(l); known.set(r.seed, r); }
const stex = args.includes('--check-stex') ? new Runner('stex', { timeoutMs: 30000 }) : null;
if (!(await sane(dawn)) || (stex && !(await sane(stex)))) process.exit(3);
const cases = [], differ = [];
let refused = 0;
for (let seed = from; seed < from + count; seed++) {
  if (EXCLUDED.has(seed)) continue;
  const src = generate(seed);
  const d = known.get(seed) ?? await dawn.run(src);
  if (!/^[0-9a-f]{8}( |$)/.test(d.expect)) { // a generator bug: leave it out, say so
    refused++;
    console.error(`seed ${seed}: Dawn: ${d.expect} ${d.error ?? ''}`);
    continue;
  }
  if (stex) {
    const s = await stex.run(src);
    if (s.expect !== d.expect) { differ.push(seed); console.error(`seed ${seed}: stex differs${s.error ? ': ' + s.error : ''}`); }
  }
  const lines = src.replace(/\n$/, '').split('\n');
  const at = lines.findLastIndex(l => l.startsWith('//! '));
  lines.splice(at + 1, 0, `//! expect ${d.expect}`);
  cases.push(`//! case seed-${seed}\n${lines.join('\n')}\n`);
}
const gz = gzipSync(Buffer.from(cases.join('')), { level: 9 });
writeFileSync(out, gz);
console.log(`${out}: ${cases.length} cases (seeds ${from}..${from + count - 1}, ${EXCLUDED.size} excluded, ${refused} refused by Dawn), ${gz.length} bytes`);
if (stex) console.log(`stex differs on ${differ.length}: ${differ.join(' ')}`);
dawn.close(); stex?.close();
process.exit(0);
