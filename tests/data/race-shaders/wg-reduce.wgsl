// A teacher's workgroup sum of 64 values, a barrier missing inside the
// loop: invocation lid reads part[lid + s] while invocation lid + s may
// still be adding into it.  Run in lock step (all 64 invocations doing each
// instruction together) it happens to give the right sums; run in any other
// order it does not.  The fix: wg-reduce-fixed.wgsl.
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
var<workgroup> part: array<u32, 64>;

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
