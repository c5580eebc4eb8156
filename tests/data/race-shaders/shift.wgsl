// An in-place shift left by one, on a buffer in bind group 1: invocation i
// reads cells[i + 1] while invocation i + 1 writes it - in the same
// workgroup, or at a workgroup's edge in the next one (the fix: two buffers).
@group(1) @binding(2) var<storage, read_write> cells: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let i = gid.x;
  if (i + 1u < arrayLength(&cells)) {
    cells[i] = cells[i + 1u];
  }
}
