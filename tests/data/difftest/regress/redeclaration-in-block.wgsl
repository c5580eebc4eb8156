// A name declared twice in one block is an error (a parameter and the
// body's top level are one scope); stex once accepted both (CTS
// decl,compound_statement:decl_conflict).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
fn f(a : u32) -> u32 { let a = 1u; return a; }
@compute @workgroup_size(1) fn main() { var b : u32; var b : u32; out[0] = f(b); }
