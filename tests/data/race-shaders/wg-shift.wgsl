// A teacher's in-place shift left by one inside each workgroup's 64 cells
// of a buffer: invocation lid reads cells[i + 1] while invocation lid + 1
// of the same workgroup writes it.  The fix: wg-shift-fixed.wgsl.
@group(0) @binding(0) var<storage, read_write> cells: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wg: vec3u) {
  let i = wg.x * 64u + lid;
  if (lid < 63u) {
    cells[i] = cells[i + 1u];
  }
}
