// a branch on an integer condition with float work on both sides
@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var v = f32(id.x) * 0.5;
  if ((id.x + id.y) % 3u == 0u) {
    v = v * v - 1.0;
  } else {
    v = v + f32(id.y) * 0.25;
  }
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(v, 0.0, 0.0, 1.0));
}
