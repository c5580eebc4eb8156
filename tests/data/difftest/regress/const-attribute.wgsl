// @const is no attribute a shader may write (WGSL marks builtins with it in
// its own text); stex once accepted it (CTS decl,const:placement).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@const fn f() -> u32 { return 1u; }
@compute @workgroup_size(1) fn main() { out[0] = f(); }
