// Inside an expression '--' is two minus signs: 3--7 is 10 and --x is x
// (no WGSL expression decrements); stex once refused 3--7.
//! dispatch 1 1 1
//! out 8
//! expect 0000000a 00000004 00000006 00000000 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out : array<u32, 8>;
@compute @workgroup_size(1) fn main() {
  var x = 5;
  x--;
  out[0] = u32(3--7);
  out[1] = u32(--x);
  out[2] = u32(2 --x);
  out[3] = u32(x- --x);
}
