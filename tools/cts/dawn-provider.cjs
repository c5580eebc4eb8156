'use strict';
// Dawn (npm `webgpu`) as a CTS --gpu-provider.  The CTS at 3314e410 calls
// only create(flags); the tests also need WebGPU's globals (GPUTextureUsage,
// GPUBufferUsage, ...), which Node lacks and npm webgpu exports without
// installing, so this wrapper sets them on globalThis first.  stex's
// provider does that itself.  $CTS_DAWN_MODULE names the package (default:
// the peer harness's copy).
const dawn = require(process.env.CTS_DAWN_MODULE || '/work/peer-cache/peer/node_modules/webgpu');
for (const [k, v] of Object.entries(dawn.globals)) if (!(k in globalThis)) globalThis[k] = v;
module.exports = { create: flags => dawn.create(flags), globals: dawn.globals };
