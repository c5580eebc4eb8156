// A function that returns a constant: after a call, from both arms of an
// if, and alone.  stex once emitted the copy into the result before the
// constant it copies (issue 23): h() gave 4, g() a stale value, f() 0.
//! dispatch 1 1 1
//! out 8
//! expect 00000004 00000000 00000000 00000000 00000007 00000309 00000018 00000044
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
var<private> cnt : u32;
fn push_output(v : u32) { out[cnt] = v; cnt++; }
fn h() -> u32 { push_output(4u); return 7u; }
fn f() -> u32 { return 777u; }
fn g(c : bool) -> i32 { if (c) { return 24; } else { return 68; } }
@compute @workgroup_size(1) fn main() {
  let a = h();
  out[4] = a;
  out[5] = f();
  out[6] = u32(g(out[0] == 4u));
  out[7] = u32(g(out[0] != 4u));
}
