// wg-shift.wgsl fixed: every invocation reads first, a storageBarrier()
// orders the reads before the writes inside the workgroup, then each
// writes its own cell.
@group(0) @binding(0) var<storage, read_write> cells: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wg: vec3u) {
  let i = wg.x * 64u + lid;
  var v = cells[i];
  if (lid < 63u) {
    v = cells[i + 1u];
  }
  storageBarrier();
  cells[i] = v;
}
