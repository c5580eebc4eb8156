#!/usr/bin/env node
// Compares two run.mjs outputs seed by seed (A is normally Dawn).
//
//   node tools/difftest/compare.mjs A.jsonl B.jsonl [--words]
// Prints the counts and each differing seed (with the first differing word
// under --words); exit status 1 when any differ.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const files = args.filter(a => !a.startsWith('--'));
const words = args.includes('--words');
const load = f => {
  const m = new Map();
  for (const l of readFileSync(f, 'utf8').split('\n')) {
    if (!l.trim()) continue;
    try { const r = JSON.parse(l); m.set(r.seed, r); } catch { /* torn line */ }
  }
  return m;
};
const [A, B] = files.map(load);
let same = 0, both = 0, aRefused = 0, raced = 0, signs = 0;
const diff = [];
for (const [seed, a] of A) {
  const b = B.get(seed);
  if (!b) continue;
  both++;
  if (b.races) raced++;
  if (a.expect === 'error') { aRefused++; }
  if (a.expect === b.expect) { same++; continue; }
  let what;
  if (!/^[0-9a-f]{8}( |$)/.test(a.expect) || !/^[0-9a-f]{8}( |$)/.test(b.expect)) what = `${a.expect.slice(0, 12)} vs ${b.expect.slice(0, 12)}${b.error ? ': ' + b.error : ''}`;
  else {
    const wa = a.expect.split(' '), wb = b.expect.split(' ');
    const idx = wa.findIndex((w, i) => w !== wb[i]);
    const nd = wa.filter((w, i) => w !== wb[i]).length;
    // a float's sign alone: the difference stays in bit 31 through the hash words too
    const signOnly = wa.every((w, i) => w === wb[i] || ((parseInt(w, 16) ^ parseInt(wb[i], 16)) >>> 0) === 0x80000000);
    if (signOnly) signs++;
    what = `${nd} words differ${signOnly ? ' (sign bit only)' : ''}${words ? `, first out[${idx}]: ${wa[idx]} vs ${wb[idx]}` : ''}`;
  }
  diff.push([seed, what]);
}
for (const [seed, what] of diff) console.log(`seed ${seed}: ${what}`);
console.log(`${both} seeds in both: ${same} identical, ${diff.length} differ (${signs} in sign bits only); ` +
  `${aRefused} refused by ${files[0]}${raced ? `, ${raced} with races reported by ${files[1]}` : ''}`);
if (diff.length) console.log(`differing seeds: ${diff.map(d => d[0]).join(' ')}`);
process.exit(diff.length ? 1 : 0);
