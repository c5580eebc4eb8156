'use strict';
// CTS expectations for stex.  run_node --expectations at CTS 3314e410 loads
// this file through ts-node's require (so CommonJS) and reads `expectations`:
// {query, expectation} entries; a query may name subcase parameters, and
// 'skip' skips every subcase it covers.
//
// stex runs compute only: createRenderPipeline is refused.  Most slices
// choose the stage per case and tools/cts/slices.mjs asks for the compute
// cases only; these two tests choose it per subcase, so each of their cases
// also holds vertex and fragment subcases, which need a render pipeline.
const B = 'webgpu:shader,execution,expression,call,builtin';

exports.expectations = [
  // textureDimensions of a storage texture read in a vertex shader: needs a render pipeline.
  { query: `${B},textureDimensions:storage:stage="vertex";*`, expectation: 'skip' },
  // textureDimensions of a storage texture in a fragment shader: needs a render pipeline.
  { query: `${B},textureDimensions:storage:stage="fragment";*`, expectation: 'skip' },
  // textureNumLayers of a storage texture array in a vertex shader: needs a render pipeline.
  { query: `${B},textureNumLayers:storage:stage="vertex";*`, expectation: 'skip' },
  // textureNumLayers of a storage texture array in a fragment shader: needs a render pipeline.
  { query: `${B},textureNumLayers:storage:stage="fragment";*`, expectation: 'skip' },
];
