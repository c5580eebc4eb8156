@group(0) @binding(0) var origen  : texture_2d<f32>;
@group(0) @binding(1) var smp     : sampler;
@group(0) @binding(2) var destino : texture_storage_2d<rgba16float, write>;

struct Params { direccion : vec2<f32>, radio : f32 };
@group(0) @binding(3) var<uniform> params : Params;

const PESOS = array<f32, 5>(0.227027, 0.194594, 0.121621, 0.054054, 0.016216);

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id : vec3<u32>) {
  let tam = textureDimensions(destino);
  if (any(id.xy >= tam)) { return; }

  let uv = (vec2<f32>(id.xy) + vec2<f32>(0.5)) / vec2<f32>(tam);
  let paso = params.direccion * params.radio / vec2<f32>(tam);

  var suma = textureSampleLevel(origen, smp, uv, 0.0) * PESOS[0];
  for (var i = 1; i < 5; i = i + 1) {
    let d = paso * f32(i);
    suma = suma + textureSampleLevel(origen, smp, uv + d, 0.0) * PESOS[i];
    suma = suma + textureSampleLevel(origen, smp, uv - d, 0.0) * PESOS[i];
  }

  textureStore(destino, vec2<i32>(id.xy), suma);
}
