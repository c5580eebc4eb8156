#!/usr/bin/env node
// A long-lived runner of cases on one device, driven over stdin/stdout with
// JSON lines: in {id, src}, out {id, expect: "hex words" | "error", error?,
// races?}.  run.mjs and reduce.mjs keep one per implementation in a child
// process (pool.mjs), so a case that crashes or hangs stex loses nothing else.
//
//   node tools/difftest/worker.mjs --impl dawn|stex [--races]
import { createInterface } from 'node:readline';
import { hexWords, openDevice, runCase } from './case.mjs';

const args = process.argv.slice(2);
const impl = args[args.indexOf('--impl') + 1] || 'dawn';
const races = args.includes('--races');
// stex: lavapipe's profile and lock-step width, one thread, workgroups
// shuffled ($STEX_SCHEDULE: another schedule, e.g. interleaved - a
// race-free program gives the same words under every one)
const schedule = process.env.STEX_SCHEDULE || 'shuffled';
// $STEX_PROFILE: another profile (e.g. nvidia, whose unrolled loops must
// leave every integer word as it was: `--off float` programs)
const flags = impl === 'stex'
  ? [`profile=${process.env.STEX_PROFILE || 'lavapipe'}`, 'subgroup=8', 'threads=1', `schedule=${schedule}`, 'seed=1', ...(races ? ['races=1'] : [])]
  : [];
// $STEX_PROVIDER: another copy of bindings/node/index.mjs (a snapshot built
// apart from the shared tree, which may be mid-edit), else this checkout's
async function stexDevice() {
  const { create, globals } = await import(process.env.STEX_PROVIDER);
  Object.assign(globalThis, globals);
  const adapter = await create(flags).requestAdapter();
  return adapter.requestDevice();
}
const device = impl === 'stex' && process.env.STEX_PROVIDER ? await stexDevice() : await openDevice(impl, flags);
let lost = null;
device.lost?.then(i => { lost = i?.message || 'device lost'; });
device.addEventListener?.('uncapturederror', () => {});

const send = o => process.stdout.write(JSON.stringify(o) + '\n');
send({ ready: impl });
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const { id, src } = JSON.parse(line);
  let res;
  try {
    if (races) device.stex.raceReports.length = 0;
    const r = await runCase(device, src);
    res = r.error ? { id, expect: 'error', error: r.error } : { id, expect: hexWords(r.words) };
    if (r.error && /error\(s\):?$|^Error while parsing/.test(r.error)) {
      // the first diagnostics, with their lines
      const m = device.createShaderModule({ code: src });
      const info = await m.getCompilationInfo();
      const msgs = info.messages.filter(x => x.type === 'error').slice(0, 2);
      if (msgs.length) res.error = msgs.map(x => `${x.lineNum}:${x.linePos} ${x.message.split('\n')[0]}`).join(' | ');
    }
    if (races) {
      const bad = device.stex.raceReports.filter(rep => Object.values(rep.counts ?? {}).some(n => n > 0));
      if (bad.length) res.races = JSON.stringify(bad[0]).slice(0, 400);
    }
  } catch (e) {
    res = { id, expect: 'error', error: `exception: ${String(e?.message || e).split('\n')[0]}` };
  }
  if (lost) res.lost = lost;
  send(res);
  if (lost) process.exit(3);
}
process.exit(0);
