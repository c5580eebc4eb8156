// pass 1 of 2: entry point acumular
@group(0) @binding(0) var<storage, read_write> acumulador : array<atomic<u32>>;
@group(0) @binding(1) var<uniform> dims : vec2<u32>;
@group(0) @binding(2) var<storage, read> puntos : array<vec2<u32>>;

fn calcularPosicion(i : u32) -> vec2<u32> { return puntos[i]; }

@compute @workgroup_size(64)
fn acumular(@builtin(global_invocation_id) id : vec3<u32>) {
  if (id.x >= arrayLength(&puntos)) { return; }
  let p = calcularPosicion(id.x);            // posición arbitraria en pantalla
  if (any(p >= dims)) { return; }
  atomicAdd(&acumulador[p.y * dims.x + p.x], 1u);
}

// pass 2 of 2: entry point presentar
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
