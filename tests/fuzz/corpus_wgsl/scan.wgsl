@group(0) @binding(0) var<storage, read> input : array<u32>;
@group(0) @binding(1) var<storage, read_write> output : array<u32>;
var<workgroup> buf : array<u32, 64>;
@compute @workgroup_size(64)
fn scan(@builtin(local_invocation_index) lid : u32,
        @builtin(global_invocation_id) gid : vec3<u32>) {
  buf[lid] = input[gid.x];
  workgroupBarrier();
  var offset = 1u;
  loop {
    var v = buf[lid];
    if (lid >= offset) { v += buf[lid - offset]; }
    workgroupBarrier();
    buf[lid] = v;
    workgroupBarrier();
    offset *= 2u;
    continuing { break if offset >= 64u; }
  }
  output[gid.x] = buf[lid];
}
