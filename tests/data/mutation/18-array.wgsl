// a lookup table in a private array
@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;
const weights = array<f32, 5>(0.0625, 0.25, 0.375, 0.25, 0.0625);
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var s = 0.0;
  for (var i = 0u; i < 5u; i++) {
    s = s + weights[i] * f32((id.x + i) % 7u);
  }
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(s + f32(id.y), 0.0, 0.0, 1.0));
}
