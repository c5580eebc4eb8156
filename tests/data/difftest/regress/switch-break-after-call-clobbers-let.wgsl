// A let holding a call's result, then in a switch clause another call of the
// same function (which loops) and a break: afterwards the let read 0 on stex
// for the invocation that took the break (gen.mjs seed 1255, reduced by hand).
//! dispatch 1 1 1
//! out 4
//! expect d959e651 d959e651 d959e651 d959e651
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
fn f(a: i32) -> vec4<u32> {
  var n = 0u;
  loop {
    n++;
    continuing {
      break if n >= 6u;
    }
  }
  return vec4<u32>(3646547537u);
}
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) l: u32) {
  let v = f(1);
  switch (l) {
    case 1u, 2u: {
      _ = f(2);
      if (l == 1u) { break; }
    }
    default: {
    }
  }
  out[l] = v.w;
}
