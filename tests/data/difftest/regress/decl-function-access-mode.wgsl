// A function-scope var names no access mode; stex once accepted var<function, read> (CTS decl,var:explicit_access_mode).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;

@compute @workgroup_size(1) fn main() { var<function, read> v : u32; out[0] = v; }
