// A teacher's in-place shift of each 8x8 tile of a texture (bound in group
// 1) one texel to the left: invocation (x, y) reads texel (x + 1, y) while
// invocation (x + 1, y) of the same workgroup writes it.  The fix:
// wg-tile-shift-fixed.wgsl.
@group(1) @binding(0) var img: texture_storage_2d<r32uint, read_write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u,
        @builtin(local_invocation_id) lid: vec3u) {
  let p = vec2i(gid.xy);
  if (lid.x < 7u) {
    textureStore(img, p, textureLoad(img, p + vec2i(1, 0)));
  }
}
