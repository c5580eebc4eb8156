// A variable assigned a uniform value in one branch only may still hold its
// non-uniform value after it, and x += v keeps x's own: a barrier under
// either is an error (Dawn refuses both; the first is checked here).
//! dispatch 1 1 1
//! out 4
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 4>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) l : u32) {
  var x = l;
  if (out[0] == 0u) { x = 7u; }
  if (x > 0u) { workgroupBarrier(); }
  out[l] = x;
}
