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
