// The interleaved schedule through the provider: flag schedule=interleaved
// with a seed gives the bytes `stex race` gives for the same seed (the
// command's default lock-step width and the provider's are one), and a race
// inside a workgroup shows as outputs that differ between seeds.  The
// shader and its input are tests/data/race-shaders/wg-shift.json's; the
// command's outputs are named by FNV-1a hashes of their bytes, computed
// here too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create, globals } from '../index.mjs';

const { GPUBufferUsage: BU, GPUMapMode } = globals;
const data = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'tests', 'data',
                  'race-shaders');

function fnv1a(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  return h.toString(16).padStart(16, '0');
}

// The run file's one dispatch on the provider: its cells after it.
async function shift(name, flags) {
  const run = JSON.parse(readFileSync(join(data, `${name}.json`), 'utf8'));
  const code = readFileSync(join(data, run.shaderModules.m.file), 'utf8');
  const words = Uint32Array.from(run.buffers.cells.contents.u32);
  const gpu = create(flags);
  const device = await (await gpu.requestAdapter()).requestDevice();
  const cells = device.createBuffer({ size: words.byteLength, usage: BU.STORAGE | BU.COPY_SRC | BU.COPY_DST });
  device.queue.writeBuffer(cells, 0, words);
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module: device.createShaderModule({ code }) } });
  const bg = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: cells } }] });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bg);
  pass.dispatchWorkgroups(...run.steps[0].dispatchWorkgroups.workgroupCount);
  pass.end();
  const rb = device.createBuffer({ size: words.byteLength, usage: BU.MAP_READ | BU.COPY_DST });
  enc.copyBufferToBuffer(cells, 0, rb, 0, words.byteLength);
  device.queue.submit([enc.finish()]);
  await rb.mapAsync(GPUMapMode.READ);
  const out = new Uint8Array(rb.getMappedRange().slice(0));
  rb.unmap();
  device.destroy();
  return out;
}

// `stex race NAME.json --runs N --seed S --json`: seed -> output hash.
function raceHashes(name, seed, runs) {
  const out = execFileSync(process.env.STEX_BIN, ['race', join(data, `${name}.json`), '--runs', String(runs),
    '--seed', String(seed), '--threads', '1', '--json'], { encoding: 'utf8' });
  const report = JSON.parse(out);
  assert.equal(report.schedule, 'interleaved');
  return report;
}

test('schedule=interleaved: the provider gives stex race\'s bytes for each seed', { skip: !process.env.STEX_BIN }, async () => {
  const seed = 5, runs = 4;
  const report = raceHashes('wg-shift', seed, runs);
  const hashes = [];
  for (let s = seed; s < seed + runs; s++) {
    const bytes = await shift('wg-shift', ['schedule=interleaved', `seed=${s}`, 'threads=1']);
    hashes.push(fnv1a(bytes));
    // another thread count: the same bytes (the schedule is the seed's)
    assert.deepEqual(await shift('wg-shift', ['schedule=interleaved', `seed=${s}`, 'threads=2']), bytes);
  }
  for (const o of report.outputs) assert.equal(hashes[o.first_seed - seed], o.hash, `seed ${o.first_seed}`);
  assert.equal(new Set(hashes).size, report.distinct_outputs);
  assert.ok(report.distinct_outputs > 1, 'a race inside a workgroup shows');
});

test('schedule=interleaved: the fix gives one output, the shift computed here', async () => {
  const run = JSON.parse(readFileSync(join(data, 'wg-shift-fixed.json'), 'utf8'));
  const input = run.buffers.cells.contents.u32;
  const want = new Uint32Array(input.map((v, i) => (i % 64 < 63 ? input[i + 1] : v)));
  for (let s = 1; s <= 6; s++) {
    const got = await shift('wg-shift-fixed', ['schedule=interleaved', `seed=${s}`]);
    assert.deepEqual(new Uint32Array(got.buffer), want, `seed ${s}`);
  }
});

test('the subgroup flag defaults to the interpreter\'s lock-step width', async () => {
  const adapter = await create([]).requestAdapter();
  const help = process.env.STEX_BIN
    ? execFileSync(process.env.STEX_BIN, ['race', '--help'], { encoding: 'utf8' }) : '';
  const m = /--subgroup-size N[^(]*\(default (\d+)/.exec(help);
  if (process.env.STEX_BIN) assert.equal(adapter.info.subgroupMaxSize, Number(m[1]));
  assert.equal(adapter.info.subgroupMinSize, adapter.info.subgroupMaxSize);
  const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');
  const row = readme.split('\n').find((l) => l.startsWith('| `subgroup` |'));
  assert.equal(Number(row.split('|').at(-2).trim()), adapter.info.subgroupMaxSize);
});
