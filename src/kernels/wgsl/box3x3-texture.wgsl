@group(0) @binding(0) var origen : texture_2d<f32>;
@group(0) @binding(1) var destino : texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let tam = vec2<i32>(textureDimensions(destino));
  let c = vec2<i32>(id.xy);
  if (any(c >= tam)) { return; }
  var s = vec4<f32>(0.0);
  for (var dy = -1; dy <= 1; dy++) {
    for (var dx = -1; dx <= 1; dx++) {
      s += textureLoad(origen, clamp(c + vec2<i32>(dx, dy), vec2<i32>(0), tam - 1), 0);
    }
  }
  textureStore(destino, c, s / 9.0);
}
