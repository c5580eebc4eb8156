// A function returning K.z of a module-scope const K, called from main after
// main's local K (a vec4<i32>) hides it: the callee must still read the module's
// K (3); stex gave 0. gen.mjs --on shadow seed 72564, reduced by hand.
//! dispatch 1 1 1
//! out 4
//! expect 00000000 00000000 00000000 00000003
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
const K: vec3<u32> = vec3<u32>(31u, 3u, 3u);
fn f() -> u32 {
  return extractBits(K.z, 9u, 0u);
}
fn g() -> u32 {
  return K.z;
}
@compute @workgroup_size(1)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
  out[0] = extractBits(K.z + lid.x, 9u, 0u);
  out[1] = extractBits(K.z, 1u, 0u);
  let K = vec4<i32>(2i);
  out[2] = f();
  out[3] = g();
}
