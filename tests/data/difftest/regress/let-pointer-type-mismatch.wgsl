// let p : ptr<function, i32> = &x with x a u32 is a type mismatch; stex once
// accepted it (CTS decl,let:initializer).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@compute @workgroup_size(1) fn main() { var x : u32; let p : ptr<function, i32> = &x; out[0] = x; }
