@group(0) @binding(0) var salida : texture_storage_2d<rgba8unorm, write>;

struct Params { tiempo : f32 };
@group(0) @binding(1) var<uniform> params : Params;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let tam = textureDimensions(salida);
  if (id.x >= tam.x || id.y >= tam.y) { return; }

  let uv = vec2<f32>(id.xy) / vec2<f32>(tam);
  let color = vec3<f32>(
    0.5 + 0.5 * sin(uv.x * 12.0 + params.tiempo),
    0.5 + 0.5 * sin(uv.y * 12.0 + params.tiempo * 1.3),
    0.5 + 0.5 * sin((uv.x + uv.y) * 8.0 - params.tiempo));

  textureStore(salida, vec2<i32>(id.xy), vec4<f32>(color, 1.0));
}
