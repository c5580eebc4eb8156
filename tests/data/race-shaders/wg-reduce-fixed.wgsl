// wg-reduce.wgsl fixed: a workgroupBarrier() ends each step of the loop, so
// every read of a step comes after every write of the step before.
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
    workgroupBarrier();
  }
  if (lid == 0u) {
    sums[wg.x] = part[0];
  }
}
