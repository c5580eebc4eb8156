// bitcast<f32> of an AbstractInt takes it as an i32: 2147483648 is out of
// range (Dawn refuses it), unlike bitcast<u32>'s (abstract-int-edges.wgsl).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@compute @workgroup_size(1) fn main() { out[0] = u32(bitcast<f32>(2147483648)); }
