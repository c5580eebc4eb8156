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
//   slice, one column per file (FILE=LABEL heads it LABEL), as a Markdown table; with a fourth figure,
//   out of scope, where a file has cases of status oos; then warn, crash and
//   notrun where there are any)
//   node tools/cts/compare.mjs --causes REFERENCE.tsv OTHER.tsv
//   (the other's failures, crashes and unrun cases where the reference
//   passes, grouped by the first log line with numbers and quoted text
//   blanked, largest group first, with up to 3 example cases each)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const STATUSES = ['pass', 'fail', 'skip', 'oos', 'warn', 'crash', 'notrun'];

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

const fmt = c => STATUSES.filter(s => c[s] || ['pass', 'fail', 'skip'].includes(s))
  .map(s => `${s} ${c[s]}`).join(', ');

// A skip's reason without the subcase and its parameters, so equal reasons group.
const reason = m => m.replace(/^SKIP: /, '').replace(/subcase: \S*/g, '').trim();

function table(files) {
  // FILE=LABEL names a column LABEL.
  const ts = files.map(f => {
    const [file, label] = f.split('=');
    const t = load(file);
    if (label) t.file = label;
    return t;
  });
  const slices = [...new Set(ts.flatMap(t => [...t.rows.values()].map(r => r.slice)))];
  // pass / fail / skip, then out of scope where any file has some, then
  // whatever else happened (warn, crash, notrun) by name.
  const anyOos = ts.some(t => counts(t.rows, null).oos);
  const cell = (t, s) => {
    if (s !== null && ![...t.rows.values()].some(r => r.slice === s)) return '-';
    const c = counts(t.rows, s);
    const extra = ['warn', 'crash', 'notrun'].filter(k => c[k]).map(k => `${k} ${c[k]}`);
    return `${c.pass} / ${c.fail} / ${c.skip}${anyOos ? ` / ${c.oos}` : ''}` +
      (extra.length ? ` (${extra.join(', ')})` : '');
  };
  if (anyOos) console.log('pass / fail / skip / out of scope' + '\n');
  console.log(`| slice | ${ts.map(t => t.file).join(' | ')} |`);
  console.log(`| --- |${ts.map(() => ' --- |').join('')}`);
  for (const s of slices) console.log(`| ${s} | ${ts.map(t => cell(t, s)).join(' | ')} |`);
  console.log(`| total | ${ts.map(t => cell(t, null)).join(' | ')} |`);
}

// A first log line with the subcase, numbers and quoted text blanked, so
// that failures of one cause group together.
const causeOf = m => m.replace(/^\(in subcase: [^)]*\) /, '')
  .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, '"…"')
  .replace(/\b0x[0-9a-f]+\b|-?\b\d+(\.\d+)?(e[-+]?\d+)?\b/gi, 'N')
  .slice(0, 160);

function causes(fa, fb) {
  const a = load(fa);
  const b = load(fb);
  const groups = new Map();
  for (const [k, ra] of a.rows) {
    const rb = b.rows.get(k);
    if (ra.status !== 'pass' || !rb || ['pass', 'skip', 'oos'].includes(rb.status)) continue;
    const g = `${rb.status}\t${causeOf(rb.message)}`;
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push([k, rb.message]);
  }
  for (const [g, list] of [...groups].sort((x, y) => y[1].length - x[1].length)) {
    console.log(`${list.length}\t${g}`);
    for (const [k, m] of list.slice(0, 3)) console.log(`\t${k}\n\t\t${m.slice(0, 300)}`);
  }
}

function main() {
  if (process.argv[2] === '--table') return table(process.argv.slice(3));
  if (process.argv[2] === '--causes') return causes(process.argv[3], process.argv[4]);
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
