#!/usr/bin/env node
// Compares two per-case TSVs written by tools/cts/run.mjs (plain or .xz):
// the first is the reference (Dawn on lavapipe), the second the
// implementation under test (stex).  Prints the status counts per slice on
// each side, the cases the reference passes that the other does not, what
// the other does with the reference's failures, and the skips on each side
// grouped by reason.  Exit status 1 when the reference passes a case the
// other fails, warns on or leaves unrun.
//
//   node tools/cts/compare.mjs tests/data/cts/dawn-lavapipe.tsv.xz tests/data/cts/stex-spec.tsv.xz
//   node tools/cts/compare.mjs --table A.tsv B.tsv ...   (pass / fail / skip per
//   slice, one column per file, as a Markdown table)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const STATUSES = ['pass', 'fail', 'skip', 'warn', 'notrun'];

function load(file) {
  const text = file.endsWith('.xz')
    ? execFileSync('xz', ['-dc', file], { encoding: 'utf8', maxBuffer: 1 << 28 })
    : readFileSync(file, 'utf8');
  const rows = new Map();
  let header = '';
  for (const line of text.split('\n')) {
    if (!line) continue;
    if (line.startsWith('#')) {
      header = line.slice(2);
      continue;
    }
    const [slice, name, status, message = ''] = line.split('\t');
    if (slice === 'slice') continue;
    rows.set(name, { slice, status, message });
  }
  return { file: path.basename(file), header, rows };
}

function counts(rows, slice) {
  const c = Object.fromEntries(STATUSES.map(s => [s, 0]));
  for (const r of rows.values()) if (slice === null || r.slice === slice) c[r.status]++;
  return c;
}

const fmt = c => STATUSES.filter(s => c[s] || s !== 'warn' && s !== 'notrun')
  .map(s => `${s} ${c[s]}`).join(', ');

// A skip's reason without the subcase and its parameters, so equal reasons group.
const reason = m => m.replace(/^SKIP: /, '').replace(/subcase: \S*/g, '').trim();

function table(files) {
  const ts = files.map(load);
  const slices = [...new Set(ts.flatMap(t => [...t.rows.values()].map(r => r.slice)))];
  const cell = (t, s) => {
    const c = counts(t.rows, s);
    const extra = c.warn || c.notrun ? ` (warn ${c.warn}, notrun ${c.notrun})` : '';
    return `${c.pass} / ${c.fail} / ${c.skip}${extra}`;
  };
  console.log(`| slice | ${ts.map(t => t.file).join(' | ')} |`);
  console.log(`| --- |${ts.map(() => ' --- |').join('')}`);
  for (const s of slices) console.log(`| ${s} | ${ts.map(t => cell(t, s)).join(' | ')} |`);
  console.log(`| total | ${ts.map(t => cell(t, null)).join(' | ')} |`);
}

function main() {
  if (process.argv[2] === '--table') return table(process.argv.slice(3));
  const [fa, fb] = process.argv.slice(2);
  if (!fa || !fb) {
    console.error('usage: compare.mjs REFERENCE.tsv OTHER.tsv');
    process.exit(2);
  }
  const a = load(fa);
  const b = load(fb);
  console.log(`reference: ${a.file} (${a.header})`);
  console.log(`other:     ${b.file} (${b.header})\n`);

  const slices = [...new Set([...a.rows.values(), ...b.rows.values()].map(r => r.slice))];
  console.log('## Counts per slice (reference | other)');
  for (const s of slices) console.log(`${s}: ${fmt(counts(a.rows, s))} | ${fmt(counts(b.rows, s))}`);
  console.log(`total: ${fmt(counts(a.rows, null))} | ${fmt(counts(b.rows, null))}\n`);

  const onlyA = [...a.rows.keys()].filter(k => !b.rows.has(k));
  const onlyB = [...b.rows.keys()].filter(k => !a.rows.has(k));
  if (onlyA.length || onlyB.length)
    console.log(`cases only in the reference: ${onlyA.length}, only in the other: ${onlyB.length}\n`);

  let bad = 0;
  console.log('## Cases the reference passes that the other does not');
  for (const [k, ra] of a.rows) {
    const rb = b.rows.get(k);
    if (ra.status !== 'pass' || !rb || rb.status === 'pass') continue;
    if (rb.status !== 'skip') bad++;
    console.log(`${rb.status}\t${k}\t${rb.message}`);
  }
  console.log('');

  console.log("## The reference's failures, and the other's status");
  for (const [k, ra] of a.rows) {
    if (ra.status !== 'fail' && ra.status !== 'warn' && ra.status !== 'notrun') continue;
    const rb = b.rows.get(k);
    console.log(`${rb ? rb.status : 'absent'}\t${k}\n\treference: ${ra.message}` +
      (rb && rb.status !== 'pass' ? `\n\tother: ${rb.message}` : ''));
  }
  console.log('');

  for (const [side, t, u] of [['reference', a, b], ['other', b, a]]) {
    console.log(`## Skips of the ${side} by reason (with the ${side === 'reference' ? 'other' : 'reference'}'s status of those cases)`);
    const groups = new Map();
    for (const [k, r] of t.rows) {
      if (r.status !== 'skip') continue;
      const g = reason(r.message);
      if (!groups.has(g)) groups.set(g, Object.fromEntries(STATUSES.map(s => [s, 0])));
      const ru = u.rows.get(k);
      if (ru) groups.get(g)[ru.status]++;
    }
    for (const [g, c] of [...groups].sort((x, y) => x[0].localeCompare(y[0])))
      console.log(`${STATUSES.reduce((n, s) => n + c[s], 0)}\t${g}\t[${fmt(c)}]`);
    console.log('');
  }
  console.log(`reference passes that the other fails, warns on or leaves unrun: ${bad}`);
  process.exit(bad ? 1 : 0);
}

main();
