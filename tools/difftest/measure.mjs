#!/usr/bin/env node
// Runs difftest case files (README.md) on Dawn on lavapipe or on stex's
// Node provider and prints each result; --write puts Dawn's result into the
// file's "//! expect" line (how tests/data/difftest/regress/ is measured).
//
//   node tools/difftest/measure.mjs [--impl dawn|stex] [--write] FILE.wgsl...
import { readFileSync, writeFileSync } from 'node:fs';
import { hexWords, openDevice, parseHeader, runCase } from './case.mjs';

const args = process.argv.slice(2);
let impl = 'dawn', write = false;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--impl') impl = args[++i];
  else if (args[i] === '--write') write = true;
  else files.push(args[i]);
}
if (write && impl !== 'dawn') throw new Error('--write keeps Dawn\'s results only');
const devices = new Map(); // one per feature set
for (const f of files) {
  const src = readFileSync(f, 'utf8');
  const features = parseHeader(src).features.join(',');
  if (!devices.has(features))
    devices.set(features, await openDevice(impl, [], features ? features.split(',') : []));
  const device = devices.get(features);
  const r = await runCase(device, src);
  const expect = r.error ? 'error' : hexWords(r.words);
  console.log(`${f}: ${r.error ? 'error: ' + r.error : expect}`);
  if (write) {
    const lines = src.split('\n').filter(l => !l.startsWith('//! expect'));
    const at = lines.findLastIndex(l => l.startsWith('//! '));
    lines.splice(at + 1, 0, `//! expect ${expect}`);
    writeFileSync(f, lines.join('\n'));
  }
}
process.exit(0);
