#!/usr/bin/env node
// Generates programs S..S+N-1 (gen.mjs) and runs each on one implementation,
// appending one JSON line per seed to FILE: {seed, expect, error?}.
// expect: hex words, "error" (refused), "timeout" or "crash" (the worker
// was restarted and the batch went on).  Seeds already in FILE are skipped,
// so an interrupted run resumes.  On Dawn every "error" is a generator bug
// and is counted and logged.
//
//   node tools/difftest/run.mjs --impl dawn|stex --from S --count N --out FILE.jsonl
//        [--timeout SECONDS] [--races] [--off FEATURES] [--on FEATURES]
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { featureOpts, generate } from './gen.mjs';
import { Runner, sane } from './pool.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
const impl = opt('--impl', 'dawn');
const from = Number(opt('--from', 0)), count = Number(opt('--count', 100));
const outFile = opt('--out', `${impl}-${from}-${count}.jsonl`);
const timeoutMs = Number(opt('--timeout', 30)) * 1000;
const gopts = featureOpts(args);

const done = new Set();
if (existsSync(outFile))
  for (const l of readFileSync(outFile, 'utf8').split('\n')) if (l.trim()) { try { done.add(JSON.parse(l).seed); } catch { /* torn line */ } }

const runner = new Runner(impl, { timeoutMs, races: args.includes('--races') });
if (!(await sane(runner))) { runner.close(); process.exit(3); }
const counts = {};
const t0 = Date.now();
let n = 0;
for (let seed = from; seed < from + count; seed++) {
  if (done.has(seed)) continue;
  const src = generate(seed, gopts);
  const r = await runner.run(src);
  const rec = { seed, expect: r.expect };
  if (r.error) rec.error = r.error;
  if (r.races) rec.races = r.races;
  appendFileSync(outFile, JSON.stringify(rec) + '\n');
  const kind = /^[0-9a-f]{8}( |$)/.test(r.expect) ? 'ran' : r.expect;
  counts[kind] = (counts[kind] || 0) + 1;
  if (kind !== 'ran' || r.races) console.error(`seed ${seed}: ${r.expect}${r.error ? ': ' + r.error : ''}${r.races ? ' RACES ' + r.races : ''}`);
  if (++n % 50 === 0) console.error(`${impl}: ${n} programs, ${JSON.stringify(counts)}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
runner.close();
console.log(`${impl} ${from}..${from + count - 1}: ${n} run now (${done.size} before), ${JSON.stringify(counts)}, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
process.exit(0);
