// Two variables may share a binding point when no entry point uses both.
//! dispatch 1 1 1
//! out 1
//! in 1
//! expect 00000005
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var<storage> a : u32;
@group(0) @binding(1) var<storage> b : u32;
@compute @workgroup_size(1) fn main() { out[0] = a + 5u; }
@compute @workgroup_size(1) fn other() { out[0] = b; }
