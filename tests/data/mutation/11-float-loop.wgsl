// a float accumulation over a fixed integer loop
@group(0) @binding(0) var out : texture_storage_2d<r32float, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  var acc = 0.0;
  let step = f32(id.x + 1u) * 0.01;
  for (var i = 0u; i < 8u; i++) {
    acc = acc + step * f32(i + id.y);
  }
  textureStore(out, vec2<i32>(id.xy), vec4<f32>(acc, 0.0, 0.0, 1.0));
}
