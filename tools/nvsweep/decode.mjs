// decode.mjs: a function's sweep file (sweep.mjs) back into the device's result bits.
//   node decode.mjs DIR FN [OUTDIR]   prints each sweep's summary; with OUTDIR writes
//                                     OUTDIR/FN-<base>.u32 (input bits, device bits interleaved, LE)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import process from 'node:process';
import { inputs, reference } from './sweep.mjs';

export function decode(dir, fn) {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'nvsweep.json'), 'utf8'));
  const buf = zlib.gunzipSync(fs.readFileSync(path.join(dir, `${fn}.bin.gz`)));
  const n = meta.count, out = [];
  let off = 0;
  for (const s of meta.sweeps.filter((w) => w.fn === fn && !w.dropped)) {
    const inp = inputs(s.kind, Number(s.base), n), ref = reference(fn, inp);
    const d = new Int8Array(buf.buffer, buf.byteOffset + off, n);
    off += n;
    const ne = buf.readUInt32LE(off);
    off += 4;
    const dev = new Uint32Array(n);
    for (let i = 0; i < n; i++) dev[i] = d[i] === -128 ? 0 : (ref[i] + d[i]) >>> 0;
    for (let k = 0; k < ne; k++, off += 8) dev[buf.readUInt32LE(off)] = buf.readUInt32LE(off + 4);
    out.push({ sweep: s, inp, dev, ref });
  }
  if (off !== buf.length) throw new Error(`${fn}: ${buf.length - off} bytes left over`);
  return out;
}

if (process.argv[1]?.endsWith('decode.mjs')) {
  const [dir, fn, outdir] = process.argv.slice(2);
  for (const { sweep, inp, dev } of decode(dir, fn)) {
    console.log(`${fn} ${sweep.base} ${sweep.inputs}`);
    if (outdir) {
      const both = new Uint32Array(2 * inp.length);
      for (let i = 0; i < inp.length; i++) { both[2 * i] = inp[i]; both[2 * i + 1] = dev[i]; }
      fs.mkdirSync(outdir, { recursive: true });
      fs.writeFileSync(path.join(outdir, `${fn}-${sweep.kind}-${sweep.base}.u32`), both);
    }
  }
}
