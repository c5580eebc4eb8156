'use strict';
// CTS expectations for stex.  run_node --expectations at CTS 3314e410 (and
// tools/cts/multi_run.ts) load this file through require and read
// `expectations`: {query, expectation} entries; a query may name subcase
// parameters, and 'skip' skips every subcase it covers.  `reason` is ours:
// tools/cts/run.mjs counts a case that an entry skips whole as out of scope
// (status `oos`, with the reason), never as a pass.
//
// stex runs compute only: createRenderPipeline and beginRenderPass are
// refused, and it has no external textures or canvas.  So out of scope are
// the tests of render pipelines and passes, of vertex and fragment stages,
// of external textures, and of copies from images and canvases.  Entries
// name the smallest unit that holds only such work: a file, a test, or a
// test's stage parameter.  Tests that mix compute with render in one case
// (most of api,operation's texture tests fill or read textures by
// rendering) are not listed: they run, and fail where they render.
const B = 'webgpu:shader,execution,expression,call,builtin';
const R = 'needs a render pipeline (stex runs compute only)';

const entries = [];
const skip = (query, reason) => entries.push({ query, expectation: 'skip', reason });

// Subcases that choose the stage: the case also holds compute subcases.
// textureDimensions of a storage texture read in a vertex shader: needs a render pipeline.
skip(`${B},textureDimensions:storage:stage="vertex";*`, `vertex stage: ${R}`);
// textureDimensions of a storage texture in a fragment shader: needs a render pipeline.
skip(`${B},textureDimensions:storage:stage="fragment";*`, `fragment stage: ${R}`);
// textureNumLayers of a storage texture array in a vertex shader: needs a render pipeline.
skip(`${B},textureNumLayers:storage:stage="vertex";*`, `vertex stage: ${R}`);
// textureNumLayers of a storage texture array in a fragment shader: needs a render pipeline.
skip(`${B},textureNumLayers:storage:stage="fragment";*`, `fragment stage: ${R}`);

// shader,execution tests with a case parameter for the stage (at 3314e410):
// their vertex and fragment cases.
const stageCases = [
  ['storageBarrier:stage', ['stage="fragment"', 'stage="vertex"']],
  ['textureGather:depth_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureGather:depth_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureGather:depth_array_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureGather:depth_array_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureGather:sampled_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureGather:sampled_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureGather:sampled_array_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureGather:sampled_array_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureGatherCompare:array_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureGatherCompare:array_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureGatherCompare:sampled_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureGatherCompare:sampled_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureLoad:arrayed', ['stage="f"', 'stage="v"']],
  ['textureLoad:depth', ['stage="f"', 'stage="v"']],
  ['textureLoad:external', ['stage="f"', 'stage="v"']],
  ['textureLoad:multisampled', ['stage="f"', 'stage="v"']],
  ['textureLoad:sampled_1d', ['stage="f"', 'stage="v"']],
  ['textureLoad:sampled_2d', ['stage="f"', 'stage="v"']],
  ['textureLoad:sampled_3d', ['stage="f"', 'stage="v"']],
  ['textureLoad:storage_textures_1d', ['stage="f"', 'stage="v"']],
  ['textureLoad:storage_textures_2d', ['stage="f"', 'stage="v"']],
  ['textureLoad:storage_textures_2d_array', ['stage="f"', 'stage="v"']],
  ['textureLoad:storage_textures_3d', ['stage="f"', 'stage="v"']],
  ['textureSampleBaseClampToEdge:2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleCompareLevel:2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleCompareLevel:3d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleCompareLevel:arrayed_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleCompareLevel:arrayed_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleGrad:sampled_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleGrad:sampled_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleGrad:sampled_array_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleGrad:sampled_array_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:depth_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:depth_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:depth_array_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:sampled_1d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:sampled_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:sampled_2d_coords,lodClamp', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:sampled_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:sampled_3d_coords,lodClamp', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:sampled_array_2d_coords', ['stage="f"', 'stage="v"']],
  ['textureSampleLevel:sampled_array_3d_coords', ['stage="f"', 'stage="v"']],
  ['textureStore:texel_formats', ['stage="fragment"']],
  ['texture_utils:weights', ['stage="fragment"', 'stage="vertex"']],
  ['workgroupBarrier:stage', ['stage="fragment"', 'stage="vertex"']],
];
for (const [test, stages] of stageCases)
  for (const st of stages)
    skip(`${B},${test}:${st};*`, `${/"(v|vertex)"/.test(st) ? 'vertex' : 'fragment'} stage: ${R}`);

// shader,execution files of vertex and fragment stages only.
for (const f of [
  'shader_io,fragment_builtins', 'shader_io,vertex_builtins', 'shader_io,user_io',
  'robust_access_vertex', 'statement,discard',
])
  skip(`webgpu:shader,execution,${f}:*`, `vertex or fragment stage: ${R}`);
// Derivatives and implicit-LOD sampling exist in fragment shaders only.
for (const f of [
  'dpdx', 'dpdxCoarse', 'dpdxFine', 'dpdy', 'dpdyCoarse', 'dpdyFine',
  'fwidth', 'fwidthCoarse', 'fwidthFine', 'textureSample', 'textureSampleBias',
  'textureSampleCompare',
])
  skip(`${B},${f}:*`, `fragment-only builtin: ${R}`);
skip(`${B},textureLoad:external:*`, 'external textures: stex has none');

// api files about render pipelines, render passes, render bundles, drawing,
// vertex input and external images.
for (const f of [
  'api,validation,render_pipeline,*', 'api,validation,render_pass,*',
  'api,validation,encoding,cmds,render,*', 'api,validation,encoding,beginRenderPass:*',
  'api,validation,encoding,createRenderBundleEncoder:*', 'api,validation,encoding,render_bundle:*',
  'api,validation,encoding,cmds,index_access:*',
  'api,validation,resource_usages,texture,in_render_common:*',
  'api,validation,resource_usages,texture,in_render_misc:*',
  'api,validation,capability_checks,features,clip_distances:*',
  'api,validation,capability_checks,limits,maxColorAttachments:*',
  'api,validation,capability_checks,limits,maxColorAttachmentBytesPerSample:*',
  'api,validation,capability_checks,limits,maxInterStageShaderVariables:*',
  'api,validation,capability_checks,limits,maxVertexAttributes:*',
  'api,validation,capability_checks,limits,maxVertexBufferArrayStride:*',
  'api,validation,capability_checks,limits,maxVertexBuffers:*',
  'api,validation,capability_checks,limits,maxBindGroupsPlusVertexBuffers:*',
  'api,validation,texture,rg11b10ufloat_renderable:*',
  'api,operation,render_pass,*', 'api,operation,render_pipeline,*',
  'api,operation,rendering,*', 'api,operation,vertex_state,*',
  'api,operation,command_buffer,render,*',
  'api,operation,command_buffer,queries,occlusionQuery:*',
  'api,operation,memory_sync,texture,readonly_depth_stencil:*',
  'api,operation,sampling,*',
])
  skip(`webgpu:${f}`, R);
for (const f of [
  'api,validation,createBindGroup:external_texture,*',
  'api,validation,gpu_external_texture_expiration:*',
  'api,validation,queue,copyToTexture,CopyExternalImageToTexture:*',
])
  skip(`webgpu:${f}`, 'external textures and images: stex has none (no canvas, no DOM images)');

exports.expectations = entries;
