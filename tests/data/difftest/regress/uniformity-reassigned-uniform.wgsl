// A whole variable assigned a uniform value is uniform again (WGSL's
// uniformity analysis), read directly or through a pointer taken before;
// stex once kept it non-uniform (CTS uniformity:function_variables,
// pointers:contents_scalar_uniform2).
//! dispatch 1 1 1
//! out 4
//! expect 00000009 00000009 00000009 00000009
@group(0) @binding(0) var<storage, read_write> out : array<u32, 4>;
@compute @workgroup_size(4) fn main(@builtin(local_invocation_index) l : u32) {
  var x = l;
  let p = &x;
  x = 7u;
  if (*p > 0u) { workgroupBarrier(); }
  var y = l;
  y = 2u;
  if (y > 1u) { workgroupBarrier(); }
  out[l] = x + y;
}
