// A var<uniform> has a fixed footprint: no runtime-sized array; stex once accepted it (CTS decl,var:module_scope_types).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var<uniform> u : array<vec4u>;
@compute @workgroup_size(1) fn main() { out[0] = u[0].x; }
