// A buffer read only under "false && ...": the right operand never runs,
// but the variable is still statically used by the entry point, so the
// 'auto' layout has binding 1 (stex dropped it with the folded operand and
// refused the bind group; gen.mjs seed 100117).
//! dispatch 1 1 1
//! out 2
//! in 4
//! expect 00000005 00000002
@group(0) @binding(0) var<storage, read_write> out: array<u32, 2>;
@group(0) @binding(1) var<storage, read> in: array<u32, 4>;
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) l: u32) {
  out[0] = 5u;
  if (false && (in[l] > 3u)) {
    out[0] = 6u;
  }
  out[1] = select(1u, 2u, true || (in[1] == 0u));
}
