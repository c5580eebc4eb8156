// stex race --html in a real browser: Debian's chromium, headless, driven by
// puppeteer-core (tests/browser/README.md).  Exit 77 (meson's "skipped") only
// when chromium or puppeteer-core is missing; CI installs both.
//
//   node tests/browser/race_report.mjs            (STEX_BIN: the stex command)
//   STEX_UPDATE_REFERENCE=1 node ...              writes the reference screenshot
//   STEX_SCREENSHOT_DIR=docs/images node ...      writes the guide's screenshots
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const skip = (why) => { console.log(`SKIP: ${why}`); process.exit(77); };
let failures = 0, passes = 0;
const check = (ok, what) => {
  if (ok) { passes++; console.log(`ok - ${what}`); }
  else { failures++; console.log(`not ok - ${what}`); }
};

const chromium = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"]
  .find((p) => p && fs.existsSync(p));
if (!chromium) skip("no chromium (apt-get install chromium; or set CHROMIUM)");
let puppeteer;
try {
  puppeteer = (await import(pathToFileURL(path.join(here, "node_modules/puppeteer-core/lib/esm/puppeteer/puppeteer-core.js")).href)).default;
} catch (e) {
  skip(`no puppeteer-core in tests/browser/node_modules (run \`npm ci\` in tests/browser): ${e.message}`);
}
const stex = process.env.STEX_BIN;
if (!stex || !fs.existsSync(stex)) { console.log("STEX_BIN must name the stex command"); process.exit(1); }

// The lesson's racy diffusion, one thread so the runs repeat exactly; the
// reference screenshot was made by this same command (README.md).
const work = fs.mkdtempSync(path.join(os.tmpdir(), "stex-browser-"));
const page_path = path.join(work, "difundir.html");
const RACE_ARGS = ["race", "difundir", "--size", "32x32", "--iterations", "8", "--runs", "10",
                   "--threads", "1", "--html", page_path];
execFileSync(stex, RACE_ARGS, { stdio: ["ignore", "inherit", "inherit"] });
const html = fs.readFileSync(page_path, "utf8");
check(!/(src|href)\s*=\s*["']?(https?:)?\/\//i.test(html), "the page names no network address");

// What the shader's text says, independently of stex: the racing accesses
// are its textureLoad lines (reads of neighbours) and its textureStore line.
const wgsl = fs.readFileSync(path.join(root, "src/kernels/wgsl/difundir.wgsl"), "utf8").split("\n");
const loadLines = [], storeLines = [];
wgsl.forEach((t, i) => {
  if (/textureLoad/.test(t)) loadLines.push(i + 1);
  if (/textureStore/.test(t)) storeLines.push(i + 1);
});

const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  // CI runs as root: chromium's sandbox refuses root
  // WebGPU on SwiftShader (the page's "run on this GPU"); no GPU process
  // rasterizing the page itself, so the screenshots stay the same
  args: ["--no-sandbox", "--enable-unsafe-webgpu", "--font-render-hinting=none", "--force-device-scale-factor=1"],
});
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900, deviceScaleFactor: 1 });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
  page.on("request", (r) => { if (!/^(file|data|about):/.test(r.url())) errors.push(`network: ${r.url()}`); });
  await page.goto(pathToFileURL(page_path).href, { waitUntil: "load" });
  check(errors.length === 0, `the page loads with no console error (${errors.join("; ") || "none"})`);

  // the source: racing lines marked, exactly the loads and the store
  const racing = await page.$$eval("#source .line.racing .no", (ns) => ns.map((n) => +n.textContent));
  const expected = [...loadLines, ...storeLines].sort((a, b) => a - b);
  // (each racing location is reported with one pair of accesses, so not
  // every load line need be named; every one named must be a load or the store)
  check(racing.length >= 2 && racing.every((l) => expected.includes(l)) &&
        storeLines.every((l) => racing.includes(l)) && racing.some((l) => loadLines.includes(l)),
        `racing lines ${racing} are the textureStore line ${storeLines} and textureLoad lines among ${loadLines}`);
  const groups = await page.$$eval("#groups li.group", (ls) => ls.map((l) => l.textContent));
  check(groups.length >= 1 && groups.every((g) => /read-write on texture/.test(g)),
        `race groups listed, read-write on the texture (${groups.length})`);

  // click texel (8, 8): written by workgroup (1,1,0) invocation (0,0,0), read
  // by its left neighbour in workgroup (0,1,0): nothing orders two workgroups
  const box = await (await page.$("#differences")).boundingBox();
  const [W, H] = [32, 32];
  await page.mouse.click(box.x + (8.5 / W) * box.width, box.y + (8.5 / H) * box.height);
  const info = await page.$eval("#texel-info", (e) => e.textContent);
  const items = await page.$$eval("#texel-races li", (ls) => ls.map((l) => l.textContent));
  check(/texel \(8, 8\)/.test(info) && /flagged by the race detector/.test(info),
        "a click on texel (8, 8) names it, flagged");
  check(items.length >= 1 && items.every((t) => /read-write/.test(t)) &&
        items.some((t) => /workgroup \(1,1,0\) invocation \(0,0,0\) write at difundir\.wgsl:(\d+)/.test(t)),
        `its races list the writer, workgroup (1,1,0) invocation (0,0,0): ${items[0] || "none"}`);
  const linked = await page.$$eval("#texel-races a[href^='#L-']", (as) => as.map((a) => +a.textContent.split(":")[1]));
  check(linked.length > 0 && linked.every((l) => expected.includes(l)) && linked.some((l) => storeLines.includes(l)),
        `its source links point at the racing lines (${[...new Set(linked)]})`);
  const lit = await page.$$eval("#source .line.lit .no", (ns) => ns.map((n) => +n.textContent));
  check(lit.some((l) => storeLines.includes(l)), `the clicked texel's source lines are lit (${lit})`);
  if (process.env.STEX_SCREENSHOT_DIR) {
    fs.mkdirSync(process.env.STEX_SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(process.env.STEX_SCREENSHOT_DIR, "race-report-texel.png"),
                            clip: { x: 0, y: 0, width: 1280, height: 900 } });
  }

  // the slider: frame 1 and frame 8 differ (heat moves in every dispatch)
  const frameData = () => page.$eval("#frame-canvas", (c) => c.toDataURL());
  const setSlider = (v) => page.$eval("#frame-slider", (s, v) => {
    s.value = String(v); s.dispatchEvent(new Event("input"));
  }, v);
  await setSlider(0);
  const [f0, l0] = [await frameData(), await page.$eval("#frame-label", (e) => e.textContent)];
  const max = await page.$eval("#frame-slider", (s) => +s.max);
  await setSlider(max);
  const [f1, l1] = [await frameData(), await page.$eval("#frame-label", (e) => e.textContent)];
  check(max === 7, `the slider spans the 8 dispatches (max ${max})`);
  check(f0 !== f1 && l0 !== l1 && /dispatch 8 of 8/.test(l1), `the slider changes the frame (${l1})`);
  await setSlider(0);

  // the screenshot: the runs' pictures without their captions (text is the
  // font's business), against the stored one within a small tolerance
  await page.evaluate(() => {
    document.querySelectorAll(".lit").forEach((e) => e.classList.remove("lit"));
    document.querySelectorAll("canvas").forEach((c) => { c.selected = null; });
    document.getElementById("grid-toggle").dispatchEvent(new Event("change"));
    const s = document.createElement("style");
    s.textContent = "figcaption { display: none; }";
    document.head.append(s);
  });
  const shot = await (await page.$("#outputs")).screenshot({ type: "png" });
  const ref = path.join(root, "tests/data/race_report_difundir.png");
  if (process.env.STEX_UPDATE_REFERENCE) {
    fs.writeFileSync(ref, shot);
    console.log(`wrote ${ref}`);
  }
  const cmp = await page.evaluate(async (a, b) => {
    const load = (b64) => new Promise((ok, bad) => {
      const i = new Image(); i.onload = () => ok(i); i.onerror = bad; i.src = "data:image/png;base64," + b64;
    });
    const [x, y] = [await load(a), await load(b)];
    if (x.width !== y.width || x.height !== y.height)
      return { size: `${x.width}x${x.height} against ${y.width}x${y.height}`, off: -1 };
    const px = (i) => { const c = document.createElement("canvas"); c.width = i.width; c.height = i.height;
      const g = c.getContext("2d"); g.drawImage(i, 0, 0); return g.getImageData(0, 0, i.width, i.height).data; };
    const [p, q] = [px(x), px(y)];
    let off = 0;
    for (let k = 0; k < p.length; k += 4)
      if (Math.abs(p[k] - q[k]) > 24 || Math.abs(p[k + 1] - q[k + 1]) > 24 || Math.abs(p[k + 2] - q[k + 2]) > 24) off++;
    return { size: `${x.width}x${x.height}`, off, total: p.length / 4 };
  }, Buffer.from(shot).toString("base64"), fs.readFileSync(ref).toString("base64"));
  if (cmp.off !== 0) fs.writeFileSync(path.join(work, "race_report_difundir.actual.png"), shot);
  check(cmp.off >= 0 && cmp.off <= cmp.total * 0.005,
        `the screenshot matches tests/data/race_report_difundir.png (${cmp.size}, ${cmp.off} pixels ` +
        `off by more than 24 of 255${cmp.off ? "; actual in " + work : ""})`);

  // the same run file on the browser's own GPU, 4 times, beside stex's runs
  const hasGPU = await page.evaluate(() => !!navigator.gpu);
  if (hasGPU) {
    await page.$eval("#gpu-n", (e) => { e.value = "4"; });
    await page.click("#gpu-run");
    await page.waitForFunction(() => /^(done|could not)/.test(document.getElementById("gpu-status").textContent),
                               { timeout: 240000 });
    const status = await page.$eval("#gpu-status", (e) => e.textContent);
    const shown = await page.$$eval("#gpu-outputs canvas", (cs) => cs.length);
    const m = /^done: (\d+) distinct outputs? in 4 runs/.exec(status);
    check(m && +m[1] === shown && shown >= 1, `the run file ran 4 times on this browser's GPU: ${status}`);
    // what this GPU computed is a diffusion of the same input: every value
    // within [0, the input's largest] (an average of four neighbours, 0
    // outside the texture, never leaves it, racing or not), and not the input
    const bound = await page.evaluate(() => {
      const d = JSON.parse(document.getElementById("stex-data").textContent);
      const bin = atob(d.gpu.files["input.bin"]), bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const input = new Float32Array(bytes.buffer), top = Math.max(...input);
      const out = document.getElementById("gpu-0").values;
      return {n: out.length, inRange: out.every((v) => v >= 0 && v <= top),
              changed: out.some((v, i) => v !== input[i])};
    });
    check(bound.n === 32 * 32 && bound.inRange && bound.changed,
          `the GPU's output is a diffusion of the input (${bound.n} values within [0, max input], changed)`);
  } else {
    const status = await page.$eval("#gpu-status", (e) => e.textContent);
    check(/no WebGPU/.test(status), `without WebGPU the page says so: ${status}`);
  }

  if (process.env.STEX_SCREENSHOT_DIR) {
    await page.reload({ waitUntil: "load" });
    await page.screenshot({ path: path.join(process.env.STEX_SCREENSHOT_DIR, "race-report.png"),
                            clip: { x: 0, y: 0, width: 1280, height: 720 } });
  }
  check(errors.length === 0, `no console error after the clicks (${errors.join("; ") || "none"})`);

  // The teacher's racy shaders (tests/data/race-shaders): workgroup memory
  // (reduce, prefix), a buffer in @group(1) (shift), a texture in @group(2)
  // (blur), atomics mixed with plain accesses (stats).  Their racing lines
  // come from the shaders' text: the lines holding each racing access.
  const TEACHER = {
    reduce: ["part[lid + s]", "part[lid] = part"],
    prefix: ["data[i - d]", "data[i] ="],
    shift: ["cells[i + 1u]", "cells[i] ="],
    blur: ["textureLoad(img, max", "textureStore(img"],
    stats: ["total + 1u", "total =", "stats.bins[v % 8u] + 1u", "stats.bins[v % 8u] ="],
  };
  const shaders = path.join(root, "tests/data/race-shaders");
  for (const [name, marks] of Object.entries(TEACHER)) {
    const dir = fs.mkdtempSync(path.join(work, name + "-"));
    for (const f of [name + ".json", name + ".wgsl"]) fs.copyFileSync(path.join(shaders, f), path.join(dir, f));
    const out = path.join(dir, name + ".html");
    execFileSync(stex, ["race", path.join(dir, name + ".json"), "--runs", "6", "--threads", "1", "--html", out],
                 { stdio: ["ignore", "ignore", "inherit"] });
    const text = fs.readFileSync(path.join(dir, name + ".wgsl"), "utf8").split("\n");
    const code = (t) => !/^\s*\/\//.test(t); // the first code line holding it, not a comment
    const want = [...new Set(marks.map((m) => text.findIndex((t) => code(t) && t.includes(m)) + 1))]
      .sort((a, b) => a - b);
    errors.length = 0;
    await page.goto(pathToFileURL(out).href, { waitUntil: "load" });
    check(errors.length === 0, `${name}: the page loads with no console error (${errors.join("; ") || "none"})`);
    const lines = await page.$$eval("#source .line.racing .no", (ns) => ns.map((n) => +n.textContent));
    check(want.every((l) => l > 0) && JSON.stringify([...new Set(lines)].sort((a, b) => a - b)) === JSON.stringify(want),
          `${name}: the racing lines are ${want} (the page marks ${lines})`);
    // click what the detector flagged: a var<workgroup> word in its
    // workgroup's panel, else the first flagged texel or element
    const at = await page.evaluate(() => {
      const wg = D.races.list.find((r) => r.memory === "workgroup");
      if (wg) {
        const c = document.querySelector("canvas.wgmem"), cols = c.width / 12;
        c.scrollIntoView({ block: "center" });
        const r = c.getBoundingClientRect();
        return { x: r.x + (wg.word % cols) * 12 + 6, y: r.y + Math.floor(wg.word / cols) * 12 + 6 };
      }
      const i = D.flagged.findIndex((f) => f);
      const c = document.getElementById("differences");
      c.scrollIntoView({ block: "center" });
      const r = c.getBoundingClientRect();
      const [cx, cy] = cellOf(i);
      return { x: r.x + (cx + 0.5) / GW * r.width, y: r.y + (cy + 0.5) / GH * r.height };
    });
    await page.mouse.click(at.x, at.y);
    const listed = await page.$$eval("#texel-races li", (ls) => ls.map((l) => l.textContent));
    const linked = await page.$$eval("#texel-races a[href^='#L-']", (as) => as.map((a) => +a.textContent.split(":")[1]));
    check(listed.length >= 1 && listed.every((t) => /read-write|write-write/.test(t)) &&
          linked.length > 0 && linked.every((l) => want.includes(l)),
          `${name}: a click on a flagged location lists its races and their lines (${listed[0] || "none"})`);
    // one dispatch: the slider moves over the workgroups' barrier phases
    const fmax = await page.$eval("#frame-slider", (s) => +s.max);
    await page.$eval("#frame-slider", (s) => { s.value = "0"; s.dispatchEvent(new Event("input")); });
    const first = await page.$eval("#frame-label", (e) => e.textContent);
    await page.$eval("#frame-slider", (s) => { s.value = s.max; s.dispatchEvent(new Event("input")); });
    const lastLabel = await page.$eval("#frame-label", (e) => e.textContent);
    check(fmax >= 2 && /workgroup \(\d+, \d+, \d+\)/.test(first) && /the dispatch done/.test(lastLabel),
          `${name}: the slider spans the workgroups' phases (${fmax + 1} frames: "${first}" ... "${lastLabel}")`);
  }
  check(errors.length === 0, `no console error in the teacher's pages (${errors.join("; ") || "none"})`);
} finally {
  await browser.close();
}
console.log(`${passes} passed, ${failures} failed`);
if (!failures) fs.rmSync(work, { recursive: true, force: true });
process.exit(failures ? 1 : 0);
