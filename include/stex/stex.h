/*
 * stex/stex.h - everything: include this one header to use stex.
 *
 * Layers, each depending only on those before it (docs/ARCHITECTURE.md):
 *   status   error kinds and messages
 *   webgpu   WebGPU's enums (features, access, dimensions) and their names
 *   format   the format table and its queries
 *   convert  exact value <-> texel conversion under a named profile
 *   layout   tiled (8x8 blocks in Morton order) and linear addressing, cache lines
 *   device   adapter, device, limits, validation
 *   resource textures, views, buffers, samplers, copies
 *   shader   what a kernel sees: ids, bindings, WGSL builtins
 *   wgsl_math  WGSL's inexact math builtins (stex_sin)
 *   dispatch pipelines, bind groups, schedules, dispatchWorkgroups
 *   race     the race detector
 *   kernels  the lessons' kernels, ready to run
 *   io       golden files (.bin + sidecar, .npy, PNG) and comparison
 *   run      run files: a WebGPU program in JSON, executed
 */
#ifndef STEX_STEX_H
#define STEX_STEX_H

#include "stex/status.h"
#include "stex/cancel.h"
#include "stex/webgpu.h"
#include "stex/format.h"
#include "stex/convert.h"
#include "stex/math.h"
#include "stex/layout.h"
#include "stex/device.h"
#include "stex/resource.h"
#include "stex/shader.h"
#include "stex/wgsl_math.h"
#include "stex/interval.h"
#include "stex/dispatch.h"
#include "stex/race.h"
#include "stex/kernels.h"
#include "stex/io.h"
#include "stex/wgsl.h"
#include "stex/run.h"

#endif
