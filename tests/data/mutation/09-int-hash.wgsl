// an integer hash in r32uint
@group(0) @binding(0) var out : texture_storage_2d<r32uint, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var h = id.x * 1664525u + id.y * 1013904223u;
  h = h ^ (h >> 16u);
  h = h * 2246822519u;
  h = h ^ (h >> 13u);
  textureStore(out, vec2<i32>(id.xy), vec4<u32>(h, 0u, 0u, 1u));
}
