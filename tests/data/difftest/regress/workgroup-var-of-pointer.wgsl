// A module-scope var whose store type is a pointer is invalid (WGSL: a
// var<workgroup>'s store type is plain, a var<private>'s constructible);
// stex once divided by the pointer's alignment of 0 (SIGFPE, issue 23).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
var<workgroup> foo : ptr<function, u32>;
@compute @workgroup_size(1) fn main() { out[0] = 1u; }
