// workgroupUniformLoad's pointer must be uniform: &w[l] with l the local
// index is an error; stex once accepted it (CTS uniformity, workgroupUniformLoad).
//! dispatch 1 1 1
//! out 4
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 4>;
var<workgroup> w : array<u32, 4>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) l : u32) { w[l] = l; out[l] = workgroupUniformLoad(&w[l]); }
