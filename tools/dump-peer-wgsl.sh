#!/usr/bin/env bash
# Dumps every WGSL module the peer harness's tests create, with Dawn's verdict
# on it, into tests/data/peer-wgsl.txt.gz (read by tests/wgsl/
# test_wgsl_peer_corpus.c).
#
#   tools/dump-peer-wgsl.sh PEER NODE_MODULES [OUT]
#
# PEER: the harness (../shared/peer); NODE_MODULES: its npm packages
# installed (bench/peer.py --cache DIR leaves them in DIR/peer/node_modules);
# OUT defaults to tests/data/peer-wgsl.txt.gz.  Runs the harness under node
# (Dawn) on Mesa's lavapipe, from a copy whose device creation is wrapped so
# that each createShaderModule writes its code and, when getCompilationInfo
# reports an error, Dawn's messages, and each createComputePipeline with
# layout 'auto' records a validation error.  The harness itself is not
# changed.
set -euo pipefail
peer=$(realpath "$1")
modules=$(realpath "$2")
out=$(realpath -m "${3:-$(dirname "$0")/../tests/data/peer-wgsl.txt.gz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r "$peer/harness.mjs" "$peer/lib" "$peer/tests" "$peer/package.json" "$work/"
ln -s "$modules" "$work/node_modules"
python3 - "$work/harness.mjs" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
hook = r'''
import crypto from 'node:crypto';
// every module the tests create: DUMP/TEST-HASH.wgsl, and .dawn-error beside it
function dumpModules(dev, plain = false) {
  const dir = process.env.WGSL_DUMP;
  if (!dev || !dir || dev.__dumped) return dev;
  const orig = dev.createShaderModule.bind(dev);
  const names = new WeakMap();
  dev.createShaderModule = (desc) => {
    const name = `${process.env.WGSL_TEST}${plain ? '-nofeatures' : ''}-${crypto.createHash('sha256').update(desc.code).digest('hex').slice(0, 16)}`;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, name + '.wgsl'), desc.code);
    if (plain) fs.writeFileSync(path.join(dir, name + '.plain-device'), '');
    const mod = orig(desc);
    names.set(mod, name);
    mod.getCompilationInfo().then((ci) => {
      const errs = ci.messages.filter((m) => m.type === 'error');
      if (errs.length) fs.writeFileSync(path.join(dir, name + '.dawn-error'),
        errs.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('\n') + '\n');
    });
    return mod;
  };
  // a pipeline with layout 'auto' that Dawn refuses: .dawn-pipeline-error
  const origPipe = dev.createComputePipeline.bind(dev);
  dev.createComputePipeline = (desc) => {
    const name = names.get(desc.compute.module);
    if (!name || desc.layout !== 'auto') return origPipe(desc);
    dev.pushErrorScope('validation');
    const pipe = origPipe(desc);
    dev.popErrorScope().then((e) => {
      if (e) fs.writeFileSync(path.join(dir, name + '.dawn-pipeline-error'), e.message + '\n');
    });
    return pipe;
  };
  dev.__dumped = true;
  return dev;
}
'''
def sub(old, new):
    global s
    if old not in s:
        sys.exit(f"dump-peer-wgsl: the harness has changed; not found: {old}")
    s = s.replace(old, new, 1)
sub("const TESTS = [", hook + "\nconst TESTS = [")
sub("const device = await adapter.requestDevice({ requiredFeatures });",
    "const device = dumpModules(await adapter.requestDevice({ requiredFeatures }));")
sub("return a2 ? a2.requestDevice() : null;", "return a2 ? dumpModules(await a2.requestDevice(), true) : null;")
open(p, "w").write(s)
PY

export VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json LP_NUM_THREADS=2 WGSL_DUMP="$work/dump"
for t in dims conversion load oob access kernels perf wgslexpr; do
    echo "[dump-peer-wgsl] $t"
    (cd "$work" && WGSL_TEST=$t node harness.mjs --impl dawn-lavapipe --out "$work/out-$t" \
        --only "$t" --perf-size 64 --race-runs 2 >"$work/$t.log" 2>&1) \
        || { echo "harness test $t failed:"; tail -5 "$work/$t.log"; exit 1; }
done

# one record per distinct module: "=== NAME valid|error|pipeline-error
# features|no-features [LINE:COL of Dawn's first error]", then its text (pipeline-error: the module compiles,
# its pipeline with layout 'auto' does not; no-features: made on the
# harness's second device, which has no optional feature, else on its main
# device with every feature lavapipe offers)
features=$(node -e 'const i = JSON.parse(require("fs").readFileSync(process.argv[1]));
  console.log(i.device_features.join(","))' "$work/out-dims/info.json")
( cd "$work/dump"
  echo "# device-features: $features"
  for f in $(ls *.wgsl | sort); do
      n=${f%.wgsl}
      at=
      if [ -e "$n.dawn-error" ]; then v=error; at=" $(head -1 "$n.dawn-error" | cut -d: -f1,2)"
      elif [ -e "$n.dawn-pipeline-error" ]; then v=pipeline-error
      else v=valid; fi
      if [ -e "$n.plain-device" ]; then dev=no-features; else dev=features; fi
      echo "=== $n $v $dev$at"
      cat "$f"
      [ -z "$(tail -c1 "$f")" ] || echo
  done ) | gzip -9n >"$out"
echo "[dump-peer-wgsl] $(ls "$work"/dump/*.wgsl | wc -l) modules ($(ls "$work"/dump/*.dawn-error 2>/dev/null | wc -l) refused by Dawn) -> $out"
