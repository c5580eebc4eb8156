// An in-place horizontal blur on a texture in bind group 2: each texel
// becomes the mean of itself and its left neighbour, which another
// invocation may already have overwritten (the fix: two textures).
@group(2) @binding(1) var img: texture_storage_2d<r32float, read_write>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let p = vec2i(gid.xy);
  let left = textureLoad(img, max(p - vec2i(1, 0), vec2i(0)));
  let here = textureLoad(img, p);
  textureStore(img, p, (left + here) * 0.5);
}
