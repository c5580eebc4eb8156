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
// --gpu-provider-flag); --expectations FILE; --out FILE (FILE.tsv.xz is
// written xz-compressed); --gc N (subcases between forced collections,
// under node --expose-gc; default 100, as issue 15 ran Dawn, whose native
// objects otherwise pile up); --only a,b (slice names).
// dawn runs on lavapipe: VK_DRIVER_FILES and VK_ICD_FILENAMES name its driver.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CTS_COMMIT, slices } from './slices.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

function parseArgs(argv) {
  const o = { cts: '/tmp/cts-3314', flags: [], gc: 100, only: null };
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

// run_node --verbose prints "[status] NAME (Nms). Log:" per case, then its
// logs, each "  - " first and "    " on its continuation lines.
function parseVerbose(text) {
  const results = new Map();
  let cur = null;
  for (const line of text.split('\n')) {
    const m = /^\[(pass|fail|skip|warn)\] (\S+) \([0-9.]+ms\)\. Log:$/.exec(line);
    if (m) {
      cur = { status: m[1], logs: [] };
      results.set(m[2], cur);
    } else if (cur && line.startsWith('  - ')) {
      cur.logs.push(line.slice(4));
    } else if (cur && line.startsWith('    ') && cur.logs.length) {
      cur.logs[cur.logs.length - 1] += '\n' + line.slice(4);
    } else {
      cur = null;
    }
  }
  return results;
}

function main() {
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
  }
  const common = ['--gpu-provider', provider];
  for (const f of o.flags) common.push('--gpu-provider-flag', f);
  if (o.expectations) common.push('--expectations', o.expectations);

  const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: o.cts, encoding: 'utf8' });
  const ctsCommit = (head.stdout ?? '').trim() || 'unknown';
  if (ctsCommit !== CTS_COMMIT)
    process.stderr.write(`warning: the CTS in ${o.cts} is at ${ctsCommit}, slices.mjs is for ${CTS_COMMIT}\n`);

  const rows = [];
  const counts = {};
  for (const [name, query, expected] of slices) {
    if (o.only && !o.only.includes(name)) continue;
    const list = spawnSync('node', ['tools/run_node', '--list', query], {
      cwd: o.cts,
      encoding: 'utf8',
    });
    const cases = list.stdout.split('\n').filter(l => l.startsWith('webgpu:'));
    if (cases.length !== expected)
      process.stderr.write(`${name}: ${cases.length} cases listed, slices.mjs says ${expected}\n`);
    const args = ['--expose-gc', 'tools/run_node', '--verbose', '--quiet',
      '--subcases-between-attempting-gc', String(o.gc), ...common, query];
    const t0 = Date.now();
    const r = spawnSync('node', args, {
      cwd: o.cts, env, encoding: 'utf8', maxBuffer: 1 << 30,
    });
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    const results = parseVerbose(r.stdout ?? '');
    const c = { pass: 0, fail: 0, skip: 0, warn: 0, notrun: 0 };
    for (const name_ of cases) {
      const res = results.get(name_);
      const status = res ? res.status : 'notrun';
      c[status]++;
      const msg = res ? firstLine(status, res.logs)
        : `runner exited ${r.status ?? r.signal} before this case`;
      rows.push([name, name_, status, msg]);
    }
    counts[name] = c;
    process.stderr.write(`${name}: ${JSON.stringify(c)} exit ${r.status ?? r.signal} ${secs}s\n`);
    if (c.notrun) {
      const tail = (r.stderr ?? '').trim().split('\n').slice(-5).join(' | ');
      process.stderr.write(`  runner's stderr ends: ${tail}\n`);
    }
  }
  const header = [
    `# cts=${ctsCommit} impl=${o.impl} provider=${path.relative(root, provider) || provider}` +
      ` flags=${o.flags.join(',') || '-'} expectations=${o.expectations ? path.relative(root, o.expectations) : '-'}` +
      ` gc=${o.gc} node=${process.version}`,
    'slice\tcase\tstatus\tmessage',
  ];
  const text = header.concat(rows.map(r => r.join('\t'))).join('\n') + '\n';
  // NAME.tsv.xz: written through xz -9, as tests/data keeps large tables.
  if (o.out.endsWith('.xz')) writeFileSync(o.out, execFileSync('xz', ['-9', '-c'], { input: text }));
  else writeFileSync(o.out, text);
}

main();
