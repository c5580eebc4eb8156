#!/usr/bin/env node
// Runs the storage-texture slices of the WebGPU CTS (tools/cts/slices.mjs) on
// one WebGPU implementation and writes one TSV row per case: slice, case,
// status (pass, fail, skip, warn, or notrun when the runner died before the
// case), and the first line of the log that decided the status.
//
//   node tools/cts/run.mjs --impl dawn --out dawn.tsv
//   node tools/cts/run.mjs --impl stex --flag profile=spec \
//        --expectations tools/cts/expectations.cjs --out stex-spec.tsv
//
// Options: --cts DIR (a checkout of the CTS at slices.mjs's commit, npm ci
// done; default /tmp/cts-3314); --provider MODULE (default: for dawn,
// dawn-provider.cjs here, npm webgpu with its globals installed; for stex,
// this checkout's bindings/node); --flag k=v (repeatable, passed as
// --gpu-provider-flag; stex gets timeout=60 unless given one); --expectations FILE; --out FILE (FILE.tsv.xz is
// written xz-compressed); --gc N (subcases between forced collections,
// under node --expose-gc; default 100, as issue 15 ran Dawn, whose native
// objects otherwise pile up); --only a,b (slice names, run in that order); --list NAME (run a
// named query list of tools/cts/lists.mjs instead of slices.mjs: compute-core,
// shader-execution, shader-validation, api-validation, api-operation);
// --timeout S (seconds a runner process may go without finishing a case
// before it is killed, default 600: the case is a crash, and the rest of
// its query is not run unless --after-timeout); --resume N (runner
// processes at most, default 60); --merge OLD (with --only: write OLD's
// rows with the slices run now replaced, in the list's order); --replay
// PID (run nothing: rebuild the table from the events a stopped run.mjs of
// that process id left in $TMPDIR/stex-cts-runs; the case it was in, and
// those after, are notrun).
// dawn runs on lavapipe: VK_DRIVER_FILES and VK_ICD_FILENAMES name its driver.
//
// The queries run in one process (tools/cts/multi_run.ts, copied into the
// CTS checkout: the CTS's run_node takes one query per process and
// transpiles its framework each time), which appends each case's result to
// a file as it ends.  Statuses beyond the CTS's: `oos` (out of scope: a
// skip that the expectations file asked for, whole case, with the entry's
// reason as the message; never a pass), `crash` (the case the runner was in
// when its process died or was killed) and `notrun`.  After a crash the
// rest runs on in a new process: the crashed query from the case after the
// crash, then the queries not reached.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { CTS_COMMIT, slices } from './slices.mjs';
import { listQueries } from './lists.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

function parseArgs(argv) {
  const o = { cts: '/tmp/cts-3314', flags: [], gc: 100, only: null, timeout: 600, resume: 60 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--impl') o.impl = v();
    else if (a === '--cts') o.cts = path.resolve(v());
    else if (a === '--provider') o.provider = path.resolve(v());
    else if (a === '--flag') o.flags.push(v());
    else if (a === '--expectations') o.expectations = path.resolve(v());
    else if (a === '--gc') o.gc = Number(v());
    else if (a === '--only') o.only = v().split(',');
    else if (a === '--out') o.out = v();
    else if (a === '--list') o.list = v();
    else if (a === '--timeout') o.timeout = Number(v());
    else if (a === '--resume') o.resume = Number(v());
    else if (a === '--after-timeout') o.afterTimeout = true;
    else if (a === '--merge') o.merge = v();
    else if (a === '--replay') o.replay = v();
    else throw new Error(`unknown option ${a}`);
  }
  if (o.impl !== 'dawn' && o.impl !== 'stex') throw new Error('--impl must be dawn or stex');
  if (!o.out) throw new Error('--out FILE is required');
  return o;
}

function lavapipeIcd() {
  for (const d of ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d']) {
    if (!existsSync(d)) continue;
    const f = readdirSync(d).filter(n => /^lvp_icd.*\.json$/.test(n)).sort();
    if (f.length) return path.join(d, f[0]);
  }
  return null;
}

// The log that explains a status: for a skip the first subcase's or case's
// SKIP reason the test gave (not the summary "all subcases were skipped",
// nor a skip by the expectations file, where another is there), otherwise the
// first log that is not a skip, an info or a debug message.  A subcase's log
// starts "(in subcase: PARAMS) "; a skip's reason is kept without it, so
// equal reasons read alike, a failure's with it.
const SUBCASE = /^\(in subcase: [^)]*\) /;
function firstLine(status, logs) {
  if (status === 'pass') return '';
  const bare = l => l.replace(SUBCASE, '');
  let pick;
  if (status === 'skip') {
    const skips = logs.map(l => bare(l).replace(/^SKIP: subcase skipped: /, 'SKIP: '))
      .filter(l => l.startsWith('SKIP'));
    const told = /^SKIP: (all subcases were skipped|Skipped by expectations)/;
    pick = skips.find(l => !told.test(l)) ?? skips[0] ?? logs[0];
  } else {
    pick = logs.find(l => !/^(SKIP|INFO|DEBUG)\b/.test(bare(l)));
  }
  if (!pick) return '';
  return pick.split('\n')[0].replace(/\s+/g, ' ').trim().slice(0, 400);
}

// A case name is SUITE:FILE:TEST:PARAMS.  An expectation covers a whole
// case when its query names the case's file (or a prefix of it with ",*"),
// its test (or every test: ":*") and only parameters the case has, with the
// same values; an expectation parameter the case lacks is a subcase one, so
// the case also holds subcases outside it.
function splitName(name) {
  const p = name.split(':');
  return [p[0], p[1] ?? '', p[2] ?? '', p.slice(3).join(':')];
}
function coversCase(query, name) {
  const [qs, qf, qt, qp] = splitName(query);
  const [cs, cf, ct, cp] = splitName(name);
  if (qs !== cs) return false;
  if (qf.endsWith('*')) return cf.startsWith(qf.slice(0, -1));
  if (qf !== cf) return false;
  if (qt === '*' || qt === '') return true;
  if (qt.endsWith('*')) return ct.startsWith(qt.slice(0, -1));
  if (qt !== ct) return false;
  const have = new Set(cp.split(';'));
  const want = qp.split(';').filter(x => x && x !== '*');
  if (!qp.endsWith('*') && want.length !== have.size) return false;
  return want.every(kv => have.has(kv));
}

function loadExpectations(file) {
  if (!file) return [];
  return createRequire(import.meta.url)(file).expectations
    .filter(e => e.expectation === 'skip');
}

// tools/cts/multi_run.ts runs many queries in one process; it lives in
// the CTS checkout, beside cmdline.ts, with a launcher beside run_node.
const MULTI = 'src/common/runtime/stex_multi_run.ts';
const LAUNCHER = 'tools/stex_multi_run';
function installRunner(cts) {
  const want = readFileSync(path.join(here, 'multi_run.ts'), 'utf8');
  const at = path.join(cts, MULTI);
  if (!existsSync(at) || readFileSync(at, 'utf8') !== want) writeFileSync(at, want);
  const launcher = "require('../src/common/tools/setup-ts-in-node.js');\n" +
    "require('../src/common/runtime/stex_multi_run.ts');\n";
  const lat = path.join(cts, LAUNCHER);
  if (!existsSync(lat) || readFileSync(lat, 'utf8') !== launcher) writeFileSync(lat, launcher);
}

// One runner process over QUERIES; resolves to its events and how it ended.
// It is killed when its output has not grown for o.timeout seconds.
function runBatch(o, env, common, queries, list) {
  const tag = `${process.pid}-${Date.now()}`;
  // Each process's events stay in $TMPDIR/stex-cts-runs (for reading while
  // a run goes on, and after a crash).
  const dir = path.join(tmpdir(), 'stex-cts-runs');
  mkdirSync(dir, { recursive: true });
  const qfile = path.join(dir, `${tag}-queries.txt`);
  const ofile = path.join(dir, `${tag}-events.jsonl`);
  writeFileSync(qfile, queries.join('\n') + '\n');
  writeFileSync(ofile, '');
  const args = ['--expose-gc', LAUNCHER, '--queries', qfile, '--out', ofile,
    '--subcases-between-attempting-gc', String(o.gc)];
  if (list) args.push('--list');
  else args.push(...common);
  return new Promise(resolve => {
    const child = spawn('node', args, { cwd: o.cts, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', d => { stderr = (stderr + d).slice(-4000); });
    let size = 0;
    let still = Date.now();
    let timedOut = false;
    const timer = setInterval(() => {
      const now = statSync(ofile).size;
      if (now !== size) { size = now; still = Date.now(); }
      else if (Date.now() - still > o.timeout * 1000) { timedOut = true; child.kill('SIGKILL'); }
    }, 2000);
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      const events = [];
      for (const l of readFileSync(ofile, 'utf8').split('\n')) {
        if (!l) continue;
        try { events.push(JSON.parse(l)); } catch { /* a line cut by the crash */ }
      }
      const how = timedOut ? `made no progress for ${o.timeout}s and was killed`
        : `exited ${code ?? signal}`;
      const tail = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' | ').slice(0, 300);
      resolve({ events, how, tail, timedOut, clean: !timedOut && code === 0 });
    });
  });
}

// The cases of every query, in one listing process.
async function listAll(o, env, queries) {
  const { events, how } = await runBatch(o, env, [], queries, true);
  const cases = new Map(queries.map(q => [q, []]));
  let cur = null;
  for (const e of events) {
    if (e.query !== undefined) cur = e.query;
    else if (e.listed !== undefined) cases.get(cur).push(e.listed);
  }
  const ended = new Set(events.filter(e => e.done !== undefined).map(e => e.done));
  const missing = queries.filter(q => !ended.has(q));
  if (missing.length) throw new Error(`listing ${how} before ${missing[0]}`);
  return cases;
}

// The events files a run.mjs process left, oldest first.
function replayFiles(pid) {
  const dir = path.join(tmpdir(), 'stex-cts-runs');
  return readdirSync(dir).filter(n => n.startsWith(`${pid}-`) && n.endsWith('-events.jsonl'))
    .sort().map(n => readFileSync(path.join(dir, n), 'utf8').split('\n').filter(Boolean)
      .flatMap(l => { try { return [JSON.parse(l)]; } catch { return []; } }));
}
function replayListing(pid, queries) {
  const ev = replayFiles(pid).find(evs => evs.some(e => e.listed !== undefined));
  const cases = new Map(queries.map(q => [q, []]));
  let cur = null;
  for (const e of ev ?? []) {
    if (e.query !== undefined) cur = e.query;
    else if (e.listed !== undefined) cases.get(cur)?.push(e.listed);
  }
  return cases;
}
function replayRun(pid) {
  const done = new Map();
  const notes = [];
  const runs = replayFiles(pid).filter(evs => !evs.some(e => e.listed !== undefined));
  runs.forEach((events, i) => {
    let begun = null;
    for (const e of events) {
      if (e.begin !== undefined) begun = e.begin;
      else if (e.case !== undefined) {
        done.set(e.case, { status: e.status, msg: firstLine(e.status, e.logs), ms: e.ms });
        begun = null;
      }
    }
    if (begun && i < runs.length - 1) {
      done.set(begun, { status: 'crash', msg: 'runner died in this case (replayed)' });
      notes.push(`crash in ${begun}`);
    } else if (begun) {
      done.set(begun, { status: 'notrun', msg: 'not run: the run was stopped in this case' });
    }
  });
  return { done, notes, spawns: runs.length };
}

// Runs every query; after a crash the rest of its query runs on in a new
// process (a test whose cases are all left as one query, the others case by
// case), with the queries not reached yet.
async function runAll(o, env, common, items) {
  const done = new Map();
  const notes = [];
  let queue = items.map(it => ({ q: it.query, cs: it.cases }));
  let spawns = 0;
  while (queue.length) {
    if (spawns >= o.resume) {
      for (const { cs } of queue)
        for (const c of cs) done.set(c, { status: 'notrun', msg: `not run: ${o.resume} runner processes spent` });
      break;
    }
    spawns++;
    const t0 = Date.now();
    const { events, how, tail, clean, timedOut } = await runBatch(o, env, common, queue.map(x => x.after ? `${x.q}\t${x.after}` : x.q), false);
    let begun = null;
    let current = null;
    for (const e of events) {
      if (e.query !== undefined) current = e.query;
      else if (e.begin !== undefined) begun = e.begin;
      else if (e.case !== undefined) {
        done.set(e.case, { status: e.status, msg: firstLine(e.status, e.logs), ms: e.ms });
        begun = null;
      }
    }
    const ended = new Set(events.filter(e => e.done !== undefined).map(e => e.done));
    const next = [];
    for (const item of queue) {
      if (ended.has(item.q)) {
        for (const c of item.cs)
          if (!done.has(c)) done.set(c, { status: 'notrun', msg: 'not run: the query ended without it' });
        continue;
      }
      const left = item.cs.filter(c => !done.has(c));
      if (!clean && !begun && item.q === current) {
        // It died between cases, or loading the query's files.
        const err = events.find(e => e.error !== undefined)?.error?.split('\n')[0] ?? tail;
        for (const c of left)
          done.set(c, { status: 'notrun', msg: `not run: runner ${how} in this query, between cases: ${err}`.slice(0, 400) });
        notes.push(`runner ${how} in ${item.q} between cases: ${err}`);
        continue;
      }
      if (left.length === item.cs.length && !item.cs.includes(begun)) { next.push(item); continue; }
      if (begun && item.cs.includes(begun)) {
        done.set(begun, { status: 'crash', msg: `runner ${how} in this case; stderr: ${tail}` });
        notes.push(`crash in ${begun} (${how}); stderr ends: ${tail}`);
        if (timedOut && !o.afterTimeout) {
          // One case this slow: its query's others are likely as slow.
          for (const c of left)
            if (!done.has(c)) done.set(c, { status: 'notrun', msg: `not run: ${begun} timed out before it` });
          continue;
        }
      }
      // The rest of the query, in the next process: from after the crash.
      const rest = left.filter(c => !done.has(c));
      if (rest.length) next.push({ q: item.q, cs: rest, after: begun ?? item.after });
    }
    process.stderr.write(`runner process ${spawns}: ${((Date.now() - t0) / 1000).toFixed(0)}s, ${how}` +
      `${clean ? '' : `, ${next.length} queries left`}\n`);
    queue = next;
  }
  return { done, notes, spawns };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const env = { ...process.env };
  let provider = o.provider;
  if (o.impl === 'dawn') {
    provider ??= path.join(here, 'dawn-provider.cjs');
    const icd = lavapipeIcd();
    if (!icd) throw new Error('no lavapipe driver file (lvp_icd*.json) found');
    env.VK_DRIVER_FILES = icd;
    env.VK_ICD_FILENAMES = icd;
  } else {
    provider ??= path.join(root, 'bindings/node/index.js');
    // the provider's watchdog (default 10 s a dispatch) generous here: a
    // CTS case is judged by its result, not by how long a CPU takes
    if (!o.flags.some((f) => f.startsWith('timeout='))) o.flags.push('timeout=60');
  }
  const common = ['--gpu-provider', provider];
  for (const f of o.flags) common.push('--gpu-provider-flag', f);
  if (o.expectations) common.push('--expectations', o.expectations);
  const skips = loadExpectations(o.expectations);

  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: o.cts, encoding: 'utf8' });
  const ctsCommit = (head.stdout ?? '').trim() || 'unknown';
  if (ctsCommit !== CTS_COMMIT)
    process.stderr.write(`warning: the CTS in ${o.cts} is at ${ctsCommit}, slices.mjs is for ${CTS_COMMIT}\n`);

  // --only also orders: its slices run in the order it names them.
  const entries = (o.list ? listQueries(o.list, o.cts) : slices)
    .filter(([name]) => !o.only || o.only.includes(name));
  if (o.only) entries.sort((a, b) => o.only.indexOf(a[0]) - o.only.indexOf(b[0]));
  installRunner(o.cts);
  const listed = o.replay ? replayListing(o.replay, entries.map(e => e[1]))
    : await listAll(o, env, entries.map(e => e[1]));
  const items = entries.map(([name, query, expected]) => {
    const cases = listed.get(query);
    if (expected !== undefined && expected !== null && cases.length !== expected)
      process.stderr.write(`${name}: ${cases.length} cases listed, the list says ${expected}\n`);
    return { name, query, cases };
  });
  process.stderr.write(`${items.length} queries, ${items.reduce((n, it) => n + it.cases.length, 0)} cases\n`);
  const header = [
    `# cts=${ctsCommit} impl=${o.impl} provider=${path.relative(root, provider) || provider}` +
      ` flags=${o.flags.join(',') || '-'} expectations=${o.expectations ? path.relative(root, o.expectations) : '-'}` +
      ` gc=${o.gc} node=${process.version}${o.list ? ` list=${o.list}` : ''}` +
      (o.replay ? ` replayed=${o.replay}` : ''),
    'slice\tcase\tstatus\tmessage',
  ];
  const t0 = Date.now();
  const { done, notes, spawns } = o.replay ? replayRun(o.replay) : await runAll(o, env, common, items);
  const rows = [];
  for (const { name, cases } of items) {
    const c = { pass: 0, fail: 0, skip: 0, warn: 0, oos: 0, crash: 0, notrun: 0 };
    let ms = 0;
    for (const name_ of cases) {
      let { status, msg, ms: t = 0 } = done.get(name_) ?? { status: 'notrun', msg: 'not run' };
      ms += t;
      if (status === 'skip') {
        const e = skips.find(x => coversCase(x.query, name_));
        if (e) {
          status = 'oos';
          msg = `out of scope: ${e.reason ?? e.query}`;
        }
      }
      c[status]++;
      rows.push([name, name_, status, msg]);
    }
    process.stderr.write(`${name}: ${JSON.stringify(c)} ${(ms / 1000).toFixed(1)}s in cases\n`);
  }
  for (const n of notes) process.stderr.write(`${n}\n`);
  process.stderr.write(`${spawns} runner process(es), ${((Date.now() - t0) / 1000).toFixed(0)}s\n`);
  if (o.merge) {
    const oldText = o.merge.endsWith('.xz')
      ? execFileSync('xz', ['-dc', o.merge], { encoding: 'utf8', maxBuffer: 1 << 30 })
      : readFileSync(o.merge, 'utf8');
    const lines = oldText.split('\n').filter(l => l && !l.startsWith('#') && !l.startsWith('slice\t'));
    const ran = new Set(items.map(it => it.name));
    const all = (o.list ? listQueries(o.list, o.cts) : slices).map(e => e[0]);
    const byName = new Map(all.map(n => [n, []]));
    for (const l of lines) {
      const n = l.split('\t')[0];
      if (!ran.has(n)) byName.get(n)?.push(l.split('\t'));
    }
    for (const r of rows) byName.get(r[0]).push(r);
    rows.length = 0;
    for (const n of all) rows.push(...byName.get(n));
    header[0] += ` merged=${[...ran].join(',')} into ${path.basename(o.merge)}`;
  }
  const text = header.concat(rows.map(r => r.join('\t'))).join('\n') + '\n';
  // NAME.tsv.xz: written through xz -9, as tests/data keeps large tables.
  if (o.out.endsWith('.xz')) writeFileSync(o.out, execFileSync('xz', ['-9', '-c'], { input: text, maxBuffer: 1 << 30 }));
  else writeFileSync(o.out, text);
}

await main();
