// Only var<storage> names an access mode; stex once accepted var<private, read> (CTS decl,var:explicit_access_mode).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
var<private, read> p : u32;
@compute @workgroup_size(1) fn main() { out[0] = p; }
