// A resource variable takes no initializer; stex once accepted var<storage> x : u32 = 1u (CTS decl,var:module_scope_initializers).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var<storage> x : u32 = 1u;
@compute @workgroup_size(1) fn main() { out[0] = x; }
