// The CTS queries of issue 15's storage-texture slices, compute-only.
//
// At CTS commit 3314e410 they list 1,573 cases: the stage of a case is a case
// parameter in read_only/read_write (shaderStage), textureStore:texel_formats
// (stage) and textureLoad:storage_textures_* (stage "c", "f", "v"), so the
// queries below keep the compute cases only; textureDimensions:storage and
// textureNumLayers:storage pick the stage per subcase, so their whole cases
// run and tools/cts/expectations.cjs skips the vertex and fragment subcases
// on stex. run_node takes one query per run, hence one entry per query.
const B = 'webgpu:shader,execution,expression,call,builtin';

export const CTS_COMMIT = '3314e4108692d0c201f0d381bf10ddc8dbbc7b69';

export const slices = [
  ['read_only', 'webgpu:api,operation,storage_texture,read_only:basic:shaderStage="compute";*', 200],
  ['read_write', 'webgpu:api,operation,storage_texture,read_write:basic:shaderStage="compute";*', 200],
  ['textureStore.texel_formats', `${B},textureStore:texel_formats:stage="compute";*`, 580],
  ['textureStore.bgra8unorm_swizzle', `${B},textureStore:bgra8unorm_swizzle:*`, 1],
  ['textureStore.out_of_bounds', `${B},textureStore:out_of_bounds:*`, 20],
  ['textureStore.out_of_bounds_array', `${B},textureStore:out_of_bounds_array:*`, 12],
  ['textureLoad.storage_1d', `${B},textureLoad:storage_textures_1d:stage="c";*`, 40],
  ['textureLoad.storage_2d', `${B},textureLoad:storage_textures_2d:stage="c";*`, 40],
  ['textureLoad.storage_2d_array', `${B},textureLoad:storage_textures_2d_array:stage="c";*`, 40],
  ['textureLoad.storage_3d', `${B},textureLoad:storage_textures_3d:stage="c";*`, 40],
  ['textureDimensions.storage', `${B},textureDimensions:storage:*`, 40],
  ['textureNumLayers.storage', `${B},textureNumLayers:storage:*`, 80],
  ['validation.textureStore', 'webgpu:shader,validation,expression,call,builtin,textureStore:*', 280],
];
