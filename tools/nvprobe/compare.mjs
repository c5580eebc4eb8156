// compare.mjs: a device's probe file (probe.mjs) against stex, row by row.  For each probe: rows
// identical to stex under profile=nvidia and under profile=spec, and rows identical to each of its
// models (rewritings of the expression, probes.mjs) run on stex under profile=nvidia - the model
// matching every row is what the device's compiler did.  With --rows-out DIR, the rows where stex
// (nvidia) differs, per probe, as TSV (a..h, device, stex, the row's kind).
//
//   STEX_NODE_ADDON=... node compare.mjs DEVICE.json.gz [--group G] [--only a,b] [--json OUT.json]
import fs from 'node:fs';
import zlib from 'node:zlib';
import process from 'node:process';
import { PROBES } from './probes.mjs';
import { loadGPU, runProbes } from './probe.mjs';

const hex = (u) => '0x' + (u >>> 0).toString(16).padStart(8, '0');

async function stexDevice(profile) {
  const gpu = await loadGPU('stex', [`profile=${profile}`]);
  return (await gpu.requestAdapter()).requestDevice();
}

async function main() {
  const argv = process.argv.slice(2);
  const o = { file: null, group: null, only: null, json: null, rowsOut: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], v = () => argv[++i];
    if (k === '--group') o.group = v();
    else if (k === '--only') o.only = v().split(',');
    else if (k === '--json') o.json = v();
    else if (k === '--rows-out') o.rowsOut = v();
    else o.file = k;
  }
  const dev = JSON.parse(zlib.gunzipSync(fs.readFileSync(o.file)));
  const b = Buffer.from(dev.inputs, 'base64');
  const inp = new Uint32Array(b.buffer, b.byteOffset, b.length / 4).slice();
  const fin = new Float32Array(inp.buffer);
  const nv = await stexDevice('nvidia'), spec = await stexDevice('spec');
  const rows = [];
  // the file's own probes (their expressions as measured); models from probes.mjs where the
  // expression there is still the same
  for (const d of dev.probes) {
    const def = PROBES.find((x) => x.name === d.name);
    const same = def && (def.expr || def.body) === d.expr;
    const p = { name: d.name, group: def ? def.group : '?', decls: d.decls || (same ? def.decls : undefined),
      models: same ? def.models : {},
      ...(/\blet r\b/.test(d.expr) ? { body: d.expr } : { expr: d.expr }) };
    if (o.group && p.group !== o.group) continue;
    if (o.only && !o.only.includes(p.name)) continue;
    if (d.error) { rows.push({ name: p.name, group: p.group, error: d.error }); continue; }
    const db = Buffer.from(d.out, 'base64');
    const devOut = new Uint32Array(db.buffer, db.byteOffset, db.length / 4);
    const n = devOut.length;
    const count = (out) => { let k = 0; for (let i = 0; i < n; i++) k += out[i] === devOut[i]; return k; };
    const [rn] = await runProbes(nv, [p], inp);
    const [rs] = await runProbes(spec, [p], inp);
    const models = {};
    for (const [m, expr] of Object.entries(p.models || {})) {
      const [rm] = await runProbes(nv, [{ name: m, expr, decls: p.decls }], inp);
      models[m] = rm.error ? 'error' : count(rm.out);
    }
    const row = { name: p.name, group: p.group, rows: n, nvidia: count(rn.out), spec: count(rs.out), models };
    rows.push(row);
    if (o.rowsOut && row.nvidia < n) {
      fs.mkdirSync(o.rowsOut, { recursive: true });
      const lines = [];
      for (let i = 0; i < n; i++) {
        if (rn.out[i] === devOut[i]) continue;
        lines.push([0, 1, 2, 3, 4, 5, 6, 7].map((j) => `${hex(inp[i * 8 + j])}(${fin[i * 8 + j]})`).concat(hex(devOut[i]), hex(rn.out[i]), `kind${i % 8}`).join('\t'));
      }
      fs.writeFileSync(`${o.rowsOut}/${p.name}.tsv`, lines.join('\n') + '\n');
    }
    const ms = Object.entries(models).map(([m, k]) => `${m} ${k}`).join(', ');
    console.log(`${p.group.padEnd(9)} ${p.name.padEnd(15)} nvidia ${String(row.nvidia).padStart(5)}/${n}  spec ${String(row.spec).padStart(5)}${ms ? '  models: ' + ms : ''}`);
  }
  if (o.json) fs.writeFileSync(o.json, JSON.stringify({ device: dev.adapter, rows }, null, 1) + '\n');
  process.exit(0);
}

main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
