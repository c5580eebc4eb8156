// 'continue' in an if whose condition calls a function that holds a switch:
// stex said "'continue' outside a loop" (gen.mjs seed 12, reduced by hand).
//! dispatch 1 1 1
//! out 2
//! expect 00000007 00000004
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
fn f() -> u32 {
  switch (6i) {
    default: {
    }
  }
  return 3u;
}
@compute @workgroup_size(1)
fn main() {
  var n = 0u;
  loop {
    n++;
    if (n != f()) { continue; }
    out[0] = 7u;
    continuing {
      break if n >= 4u;
    }
  }
  out[1] = n;
}
