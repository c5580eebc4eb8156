// workgroupUniformLoad of an atomic<T> gives its T (WGSL's overload for
// atomics); stex once refused loading the atomic.
//! dispatch 2 1 1
//! out 8
//! expect 0000000a fffffffa 0000000a fffffffa 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
var<workgroup> at : atomic<u32>;
var<workgroup> ai : atomic<i32>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) l : u32,
                                    @builtin(workgroup_id) w : vec3u) {
  atomicAdd(&at, l + 1u);
  atomicSub(&ai, i32(l));
  let t = workgroupUniformLoad(&at);
  let i = workgroupUniformLoad(&ai);
  if (l == 0u) { out[w.x * 2u] = t; out[w.x * 2u + 1u] = bitcast<u32>(i); }
}
