// Atomics live only in read_write storage (or workgroup memory); stex once accepted one in read-only storage (CTS decl,var:module_scope_types).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var<storage> a : atomic<u32>;
@compute @workgroup_size(1) fn main() { out[0] = atomicLoad(&a); }
