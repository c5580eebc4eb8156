// A function-scope var takes no @group/@binding (a statement takes only
// @diagnostic); stex once accepted it (CTS decl,var:binding_point_on_function_var).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@compute @workgroup_size(1) fn main() { @group(0) @binding(1) var x : u32; out[0] = x; }
