'use strict';
// stex's WebGPU provider for Node.js (CommonJS): create(flags) and globals,
// as the `webgpu` npm package exports them.  See README.md here.
module.exports = require('./lib/webgpu.js');
