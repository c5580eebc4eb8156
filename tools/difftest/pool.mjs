// A worker.mjs child process per implementation, restarted when it dies or
// a case takes longer than the timeout; run(src) never throws.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const WORKER = new URL('./worker.mjs', import.meta.url).pathname;

export class Runner {
  constructor(impl, { timeoutMs = 30000, races = false, env = process.env } = {}) {
    Object.assign(this, { impl, timeoutMs, races, env, child: null, seq: 0, waiting: null, starts: 0 });
  }
  async start() {
    const args = [WORKER, '--impl', this.impl, ...(this.races ? ['--races'] : [])];
    const child = spawn(process.execPath, args, { env: this.env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.starts++;
    this.stderr = '';
    child.stderr.on('data', d => { this.stderr = (this.stderr + d).slice(-2000); });
    const rl = createInterface({ input: child.stdout });
    let ready;
    const readyP = new Promise(res => { ready = res; });
    rl.on('line', line => {
      let m;
      try { m = JSON.parse(line); } catch { return; }
      if (m.ready) return ready(true);
      if (this.waiting && m.id === this.waiting.id) { const w = this.waiting; this.waiting = null; w.resolve(m); }
    });
    child.on('exit', (code, sig) => {
      if (this.child === child) this.child = null;
      ready(false);
      if (this.waiting) {
        const w = this.waiting; this.waiting = null;
        w.resolve({ expect: 'crash', error: `worker exited (${sig || code}): ${this.stderr.split('\n').filter(l => l && !/^Warning:/.test(l)).slice(-3).join(' | ')}` });
      }
    });
    const ok = await Promise.race([readyP, new Promise(r => setTimeout(() => r(false), 60000))]);
    if (!ok) { this.kill(); throw new Error(`${this.impl} worker did not start: ${this.stderr}`); }
  }
  kill() {
    const c = this.child;
    this.child = null;
    if (c) { try { c.kill('SIGKILL'); } catch { /* gone */ } }
  }
  async run(src) {
    if (!this.child) await this.start();
    const id = ++this.seq;
    const p = new Promise(resolve => { this.waiting = { id, resolve }; });
    this.child.stdin.write(JSON.stringify({ id, src }) + '\n');
    let timer;
    const t = new Promise(resolve => { timer = setTimeout(() => resolve({ expect: 'timeout', error: `no answer in ${this.timeoutMs} ms` }), this.timeoutMs); });
    const r = await Promise.race([p, t]);
    clearTimeout(timer);
    if (r.expect === 'timeout') { this.waiting = null; this.kill(); }
    if (r.expect === 'crash') this.kill();
    delete r.id;
    return r;
  }
  close() { if (this.child) { this.child.stdin.end(); const c = this.child; setTimeout(() => { try { c.kill('SIGKILL'); } catch { /* gone */ } }, 2000).unref(); } }
}

// A program every implementation must run: a stex build caught mid-edit
// (the tree is shared) fails it, and then nothing it says counts.
export const SANITY = `//! dispatch 1 1 1
//! out 2
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
@compute @workgroup_size(1) fn main() { out[0] = 7u; out[1] = 0x12345678u; }
`;
export async function sane(runner) {
  const r = await runner.run(SANITY);
  if (r.expect === '00000007 12345678') return true;
  console.error(`${runner.impl} fails the sanity program (${r.expect}: ${r.error ?? ''}); is its build broken?`);
  return false;
}
