// A var<storage> holds host-shareable types only: no bool; stex once accepted it (CTS decl,var:module_scope_types).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var<storage> b : array<bool, 2>;
@compute @workgroup_size(1) fn main() { out[0] = u32(b[0]); }
