@group(0) @binding(0) var<storage, read> acumulador : array<u32>;
@group(0) @binding(1) var salida : texture_storage_2d<rgba16float, write>;

@compute @workgroup_size(8, 8)
fn presentar(@builtin(global_invocation_id) id : vec3<u32>) {
  let tam = textureDimensions(salida);
  if (any(id.xy >= tam)) { return; }
  let n = f32(acumulador[id.y * tam.x + id.x]);
  let v = log(1.0 + n) / log(1.0 + 1000.0);
  textureStore(salida, vec2<i32>(id.xy), vec4<f32>(v, v, v, 1.0));
}
