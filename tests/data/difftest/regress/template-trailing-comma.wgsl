// A template list may end with a comma: var<private,>, var<storage, read,>;
// stex once refused them (CTS decl,var:address_space_access_mode).
//! dispatch 1 1 1
//! out 2
//! in 4
//! expect 00000003 9e3779b1
@group(0) @binding(0) var<storage, read_write,> out : array<u32, 2>;
var<private,> p : u32 = 3u;
@group(0) @binding(1) var<storage,read,> q : array<u32, 4,>;
@compute @workgroup_size(1) fn main() { out[0] = p; out[1] = q[1]; }
