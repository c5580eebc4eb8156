#!/usr/bin/env node
// Reduces a program on which stex and Dawn differ to a small one that still
// differs the same way (stex gives other words, or refuses, or crashes),
// and writes it as a case with Dawn's "//! expect" line.
//
//   node tools/difftest/reduce.mjs --seed S [--off F,..] [--on F,..] [--out FILE.wgsl]
//   node tools/difftest/reduce.mjs --file CASE.wgsl [--out FILE.wgsl]
//
// Steps, repeated until none helps: one workgroup of one invocation (and
// out shrunk to its words), then deleting blocks (if/else chains, loops,
// switch clauses, functions, structs) and else-branches, unwrapping blocks,
// deleting lines, and replacing a parenthesised binary expression "(a op b)"
// by a or b.  A candidate is kept only if Dawn runs it and stex still
// differs.  Never touched, so that no candidate can race, index out of
// bounds or loop forever: workgroupBarrier() lines, loop counters, "% N"
// index guards, "(abs(x) + 1.0f)" divisors and the masks of bitcast floats.
import { readFileSync, writeFileSync } from 'node:fs';
import { featureOpts, generate, usesInput } from './gen.mjs';
import { Runner, sane } from './pool.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); return i >= 0 ? args[i + 1] : d; };
const seed = opt('--seed');
let src = seed !== undefined ? generate(Number(seed), featureOpts(args)) : readFileSync(opt('--file'), 'utf8');
src = src.split('\n').filter(l => !l.startsWith('//! expect')).join('\n');
const outFile = opt('--out', `/tmp/difftest-reduced-${seed ?? 'file'}.wgsl`);
const verbose = args.includes('-v');

const dawn = new Runner('dawn', { timeoutMs: 30000 });
const stex = new Runner('stex', { timeoutMs: 20000 });
const isWords = e => /^[0-9a-f]{8}( |$)/.test(e);
const klass = e => (isWords(e) ? 'words' : e);

// drop the input binding when nothing reads it (an unused binding is an error in the bind group)
function normalize(s) {
  if (usesInput(s)) return s;
  return s.split('\n').filter(l => !l.startsWith('//! in ')).join('\n');
}

const cache = new Map();
let tries = 0;
async function check(s) {
  s = normalize(s);
  if (cache.has(s)) return cache.get(s);
  tries++;
  const st = await stex.run(s);
  let res = null;
  if (!(goal.stex === 'words' && !isWords(st.expect))) {
    const d = await dawn.run(s);
    if (isWords(d.expect) && d.expect !== st.expect && klass(st.expect) === goal.stex) res = { src: s, dawn: d, stex: st };
  }
  cache.set(s, res);
  return res;
}

if (!(await sane(stex)) || !(await sane(dawn))) process.exit(3);
const goal = { stex: null };
{
  const st = await stex.run(normalize(src));
  goal.stex = klass(st.expect);
}
let best = await check(src);
if (!best) {
  console.error('stex and Dawn agree on this program (or Dawn refuses it): nothing to reduce');
  process.exit(2);
}
console.error(`start: ${src.split('\n').length} lines, stex ${goal.stex}`);

const PROTECT = /workgroupBarrier|\blc\d+\+\+|break if|\(lc\d+ >= /;
const LOOPHEAD = /^\s*(for \(|while \(|loop \{)/;
const NOSIMPLIFY = [/ % \d+u\)$/, /^\(abs\(.*\) \+ 1\.0f\)$/, /0x87ffffffu|0x3c000000u|0x3fff3fffu/];

function structure(lines) {
  // for each line: index of the matching close of a block it opens, owner loop of protected lines
  const close = new Array(lines.length).fill(-1), stack = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i].trim();
    if (l.startsWith('//')) continue;
    const opens = (l.match(/\{/g) || []).length, closes = (l.match(/\}/g) || []).length;
    if (l.startsWith('}') && l.endsWith('{')) continue; // } else {: the block goes on
    if (opens > closes) stack.push(i);
    else if (closes > opens) { const o = stack.pop(); if (o !== undefined) close[o] = i; }
  }
  const owner = new Array(lines.length).fill(-1), loops = [];
  for (let i = 0; i < lines.length; i++) {
    while (loops.length && close[loops[loops.length - 1]] < i) loops.pop();
    if (LOOPHEAD.test(lines[i]) && close[i] >= 0) loops.push(i);
    if (PROTECT.test(lines[i])) owner[i] = lines[i].includes('workgroupBarrier') ? -2 : (loops.length ? loops[loops.length - 1] : -2);
  }
  return { close, owner };
}
const allowed = (owner, a, b, keep = new Set()) => {
  for (let i = a; i <= b; i++) {
    if (keep.has(i) || owner[i] === -1) continue;
    if (owner[i] === -2 || owner[i] < a || owner[i] > b) return false;
  }
  return true;
};

function* candidates(s) {
  const lines = s.split('\n');
  // one invocation, or one workgroup
  const wg = /@workgroup_size\(([^)]*)\)/.exec(s);
  if (wg && wg[1] !== '1, 1, 1') {
    const nat = /array<atomic<u32>, (\d+)>/.exec(s);
    const na = nat ? Number(nat[1]) : 0;
    yield s.replace(/\/\/! dispatch .*/, '//! dispatch 1 1 1').replace(/@workgroup_size\([^)]*\)/, '@workgroup_size(1, 1, 1)')
      .replace(/\/\/! out \d+/, `//! out ${8 + na}`)
      .replace(/(var<storage, read_write> out: array<u32, )\d+>/, '$18>').replace(/(  v: array<u32, )\d+>/, '$18>');
  }
  if (!/\/\/! dispatch 1 1 1/.test(s)) yield s.replace(/\/\/! dispatch .*/, '//! dispatch 1 1 1');
  const { close, owner } = structure(lines);
  const body = i => !lines[i].startsWith('//!');
  const del = (a, b) => [...lines.slice(0, a), ...lines.slice(b + 1)].join('\n');
  // blocks, biggest first
  const blocks = [];
  for (let i = 0; i < lines.length; i++) if (close[i] > i && body(i)) blocks.push([i, close[i]]);
  blocks.sort((x, y) => (y[1] - y[0]) - (x[1] - x[0]));
  for (const [a, b] of blocks) if (allowed(owner, a, b) && !/^fn main|^@compute/.test(lines[a])) yield del(a, b);
  // else branches
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\} else/.test(lines[i])) continue;
    let j = i + 1, depth = 0;
    for (; j < lines.length; j++) {
      const t = lines[j].trim();
      if (t.startsWith('}') && depth === 0) { if (!t.endsWith('{')) break; continue; }
      depth += (t.match(/\{/g) || []).length - (t.match(/\}/g) || []).length;
    }
    if (allowed(owner, i, j - 1)) yield del(i, j - 1);
  }
  // unwrap a block: keep its body
  for (const [a, b] of blocks) {
    if (lines[b].trim() !== '}' || /^(fn |struct |@compute|switch|\s*switch|\s*case|\s*default|\s*continuing)/.test(lines[a].trim())) continue;
    if (/^\s*(switch|case |default|continuing)/.test(lines[a])) continue;
    if (PROTECT.test(lines[a])) continue;
    yield [...lines.slice(0, a), ...lines.slice(a + 1, b), ...lines.slice(b + 1)].join('\n');
  }
  // single lines
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = lines[i].trim();
    if (!body(i) || !t || t.endsWith('{') || t === '}' || PROTECT.test(t) || /^fn |^@/.test(t)) continue;
    yield del(i, i);
  }
  // (a op b) -> a or b
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!body(i) || PROTECT.test(l) || LOOPHEAD.test(l) || /^\s*(fn |@|struct |var<storage)/.test(l)) continue;
    for (const g of groups(l)) {
      for (const part of [g.a, g.b]) yield [...lines.slice(0, i), l.slice(0, g.start) + part + l.slice(g.end + 1), ...lines.slice(i + 1)].join('\n');
    }
  }
}

// parenthesised "(a op b)" groups of a line, outermost first
function groups(l) {
  const res = [];
  for (let i = 0; i < l.length; i++) {
    if (l[i] !== '(') continue;
    if (i > 0 && /[\w>]/.test(l[i - 1])) continue; // a call or constructor
    let d = 0, j = i, split = -1, opLen = 0, nsplit = 0;
    for (; j < l.length; j++) {
      const c = l[j];
      if (c === '(' || c === '[') d++;
      else if (c === ')' || c === ']') { d--; if (d === 0) break; }
      else if (d === 1 && c === ' ') {
        const m = /^ (\+|-|\*|\/|%|&&|\|\||&|\||\^|<<|>>|<=|>=|<|>|==|!=) /.exec(l.slice(j));
        if (m) { if (split < 0) { split = j; opLen = m[0].length; } nsplit++; }
      }
    }
    if (j >= l.length || split < 0 || nsplit !== 1) continue;
    const text = l.slice(i, j + 1);
    if (NOSIMPLIFY.some(re => re.test(text))) continue;
    res.push({ start: i, end: j, a: l.slice(i + 1, split), b: l.slice(split + opLen, j) });
  }
  return res;
}

let progress = true, round = 0;
while (progress) {
  progress = false;
  round++;
  for (const cand of candidates(best.src)) {
    if (cand === best.src) continue;
    const r = await check(cand);
    if (r) {
      best = r;
      progress = true;
      if (verbose) console.error(`round ${round}: ${best.src.split('\n').length} lines (${tries} tries)`);
      break; // restart with the smaller program's candidates
    }
  }
}

const wd = best.dawn.expect.split(' '), ws = isWords(best.stex.expect) ? best.stex.expect.split(' ') : [];
const differ = ws.length ? wd.map((w, i) => (w !== ws[i] ? `out[${i}] = ${ws[i]}, Dawn ${w}` : null)).filter(Boolean) : [];
const what = ws.length ? `stex: ${differ.slice(0, 4).join('; ')}${differ.length > 4 ? ` (${differ.length} words)` : ''}`
  : `stex: ${best.stex.expect}${best.stex.error ? ': ' + best.stex.error : ''}`;
const lines = best.src.split('\n');
const at = lines.findLastIndex(l => l.startsWith('//! '));
lines.splice(at + 1, 0, `//! expect ${best.dawn.expect}`);
const head = `// reduced from ${seed !== undefined ? `gen.mjs seed ${seed}` : opt('--file')} by reduce.mjs; ${what}\n`;
writeFileSync(outFile, head + lines.join('\n'));
console.log(`${outFile}: ${best.src.split('\n').length} lines after ${tries} tries; ${what}`);
dawn.close(); stex.close();
process.exit(0);
