@group(0) @binding(0) var<storage, read> input : array<u32>;
@group(0) @binding(1) var<storage, read_write> output : array<u32>;
var<workgroup> partial : array<u32, 64>;
@compute @workgroup_size(64)
fn reduce(@builtin(local_invocation_index) lid : u32,
          @builtin(workgroup_id) wid : vec3<u32>) {
  partial[lid] = input[wid.x * 64u + lid];
  workgroupBarrier();
  for (var stride = 32u; stride > 0u; stride >>= 1u) {
    if (lid < stride) { partial[lid] += partial[lid + stride]; }
    workgroupBarrier();
  }
  if (lid == 0u) { output[wid.x] = partial[0]; }
}
