// A workgroup sum of 64 values with a barrier missing inside the loop:
// invocation lid reads part[lid + s] while invocation lid + s may still be
// adding into it (the fix: workgroupBarrier() at the end of the loop body).
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;
var<workgroup> part: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wg: vec3u) {
  part[lid] = input[wg.x * 64u + lid];
  workgroupBarrier();
  for (var s = 32u; s > 0u; s = s / 2u) {
    if (lid < s) {
      part[lid] = part[lid] + part[lid + s];
    }
  }
  if (lid == 0u) {
    sums[wg.x] = part[0];
  }
}
