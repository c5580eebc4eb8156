// Two variables at one @group/@binding used by one entry point are an
// error; stex once accepted them (CTS decl,var:binding_collisions).
//! dispatch 1 1 1
//! out 1
//! in 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var<storage> a : u32;
@group(0) @binding(1) var<storage> b : u32;
@compute @workgroup_size(1) fn main() { out[0] = a + b; }
