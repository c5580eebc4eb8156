'use strict';
// Loads the native addon (stex.node, built by meson into
// BUILD/bindings/node/): $STEX_NODE_ADDON when set, else the build
// directories of this checkout (build/, then any build*/), else beside
// this file (an installed copy).
const fs = require('node:fs');
const path = require('node:path');

function candidates() {
  const out = [];
  if (process.env.STEX_NODE_ADDON) return [path.resolve(process.env.STEX_NODE_ADDON)];
  const root = path.resolve(__dirname, '..', '..', '..');
  out.push(path.join(root, 'build', 'bindings', 'node', 'stex.node'));
  try {
    for (const d of fs.readdirSync(root).sort()) {
      if (d.startsWith('build') && d !== 'build') out.push(path.join(root, d, 'bindings', 'node', 'stex.node'));
    }
  } catch { /* not a checkout */ }
  out.push(path.join(__dirname, 'stex.node'));
  return out;
}

function load() {
  const tried = candidates();
  for (const p of tried) {
    if (fs.existsSync(p)) return require(p);
  }
  throw new Error(`stex: the native addon stex.node was not found (build it with meson; tried ${tried.join(', ')}; or set STEX_NODE_ADDON)`);
}

module.exports = load();
