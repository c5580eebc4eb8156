// f32(false) is the module's first f32 zero, +0, so the const product
// -79.875 * K0 (IEEE -0) is +0 under Dawn's front end (one f32 zero per
// module, the first it makes); stex did not count a bool's conversion as
// making a zero and gave -0 (gen.mjs seed 700141, reduced: a var<private>
// initialised with a const matrix times K0).
//! dispatch 1 1 1
//! out 4
//! expect 00000000 00000000 00000000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
const K0: f32 = f32(false);
var<private> g3: mat3x4<f32> = (mat3x4<f32>(vec4<f32>(-33.125f, 3.5f, 3.14159f, 1.0f), vec4<f32>(5.75f, 9.75f, -78.25f, -5.25f), vec4<f32>(-79.875f)) * K0);
@compute @workgroup_size(1)
fn main() {
  out[0] = bitcast<u32>(g3[2].z);
  out[1] = bitcast<u32>(-79.875f * K0);
  out[2] = bitcast<u32>(g3[1].w);
}
