'use strict';
// Dawn (npm `webgpu`) as a CTS --gpu-provider.  The CTS at 3314e410 calls
// only create(flags); the tests also need WebGPU's globals (GPUTextureUsage,
// GPUBufferUsage, ...), which Node lacks and npm webgpu exports without
// installing, so this wrapper sets them on globalThis first.  stex's
// provider does that itself.  $CTS_DAWN_MODULE names the package (default:
// the peer harness's copy, the first of these that exists).
const fs = require('fs');
const where = [process.env.CTS_DAWN_MODULE, '/work/shared/peer/node_modules/webgpu',
  '/work/peer-cache/peer/node_modules/webgpu'].filter(Boolean);
const dawn = require(where.find(p => fs.existsSync(p)) ?? where[0]);
for (const [k, v] of Object.entries(dawn.globals)) if (!(k in globalThis)) globalThis[k] = v;
module.exports = { create: flags => dawn.create(flags), globals: dawn.globals };
