// wg-tile-shift.wgsl fixed: each invocation loads, a textureBarrier()
// orders the workgroup's loads before its stores, then it stores.
@group(1) @binding(0) var img: texture_storage_2d<r32uint, read_write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u,
        @builtin(local_invocation_id) lid: vec3u) {
  let p = vec2i(gid.xy);
  var v = textureLoad(img, p);
  if (lid.x < 7u) {
    v = textureLoad(img, p + vec2i(1, 0));
  }
  textureBarrier();
  textureStore(img, p, v);
}
