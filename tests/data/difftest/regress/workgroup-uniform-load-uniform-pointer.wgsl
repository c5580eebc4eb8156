// workgroupUniformLoad through a uniform index (the workgroup id) is valid.
//! dispatch 1 1 1
//! out 4
//! expect 00000003 00000003 00000003 00000003
@group(0) @binding(0) var<storage, read_write> out : array<u32, 4>;
var<workgroup> w : array<u32, 4>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) l : u32, @builtin(workgroup_id) g : vec3u) { w[l] = l + 1u; out[l] = workgroupUniformLoad(&w[g.x + 2u]); }
