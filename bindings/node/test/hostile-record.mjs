// Runs the hostile-call list (hostile-calls.mjs) on a WebGPU provider and
// writes each case's outcome kind as JSON:
//
//   node bindings/node/test/hostile-record.mjs --provider PATH [--out FILE]
//
// PATH: a module exporting create() and globals (the `webgpu` npm package's
// index.js, or bindings/node/index.mjs).  A provider that dies on a case
// (Dawn's node binding aborts on some conversions) is restarted after it:
// each case runs in a child process that goes on until its list ends or
// it dies; the case it died in is recorded as 'crash'.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { cases, classify, fixtures } from './hostile-calls.mjs';

const arg = (k) => { const i = process.argv.indexOf(k); return i > 0 ? process.argv[i + 1] : undefined; };
const provider = arg('--provider');
if (!provider) {
  console.error('usage: hostile-record.mjs --provider PATH [--out FILE]');
  process.exit(2);
}

// The child writes its lines to a file of its own (a provider may print on
// stdout, and a write() done survives the process's death).
if (arg('--child') !== undefined) { // run cases from --child N on, one JSON line each
  const mod = await import(pathToFileURL(path.resolve(provider)).href);
  const { create, globals } = mod.default && !mod.create ? mod.default : mod;
  Object.assign(globalThis, globals);
  const f = await fixtures(create([]));
  f.dev.addEventListener?.('uncapturederror', () => {});
  const list = cases(f);
  for (let i = Number(arg('--child')); i < list.length; i++) {
    appendFileSync(arg('--lines'), `${JSON.stringify({ i, name: list[i][0], start: true })}\n`);
    const kind = await classify(f.dev, list[i][1]);
    appendFileSync(arg('--lines'), `${JSON.stringify({ i, name: list[i][0], kind })}\n`);
  }
  process.exit(0);
}

const outcomes = {};
let from = 0;
const dir = mkdtempSync(path.join(tmpdir(), 'hostile-'));
for (let run = 0; ; run++) {
  const lines = path.join(dir, `run${run}.jsonl`);
  writeFileSync(lines, '');
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--provider', provider, '--child', String(from), '--lines', lines],
    { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600000 });
  let started = null;
  for (const line of readFileSync(lines, 'utf8').split('\n').filter(Boolean)) {
    let o;
    try { o = JSON.parse(line); } catch { continue; }
    if (o.start) started = o;
    else { outcomes[o.name] = o.kind; started = null; }
  }
  if (r.status === 0 && !started) break;
  if (!started) { console.error(r.stderr); throw new Error(`the provider died before its first case (status ${r.status})`); }
  outcomes[started.name] = 'crash';
  from = started.i + 1;
}
rmSync(dir, { recursive: true });
const out = { command: `node bindings/node/test/hostile-record.mjs --provider ${provider}`, outcomes };
if (arg('--out')) writeFileSync(arg('--out'), `${JSON.stringify(out, null, 1)}\n`);
else console.log(JSON.stringify(out, null, 1));
