// dpdx in a fragment shader's non-uniform control flow is an error (WGSL's
// derivative_uniformity); stex once accepted it (CTS uniformity:basics, fragment).
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
@compute @workgroup_size(1) fn main() { out[0] = 1u; }
@fragment fn frag(@builtin(position) p : vec4f) -> @location(0) vec4f { if (p.x > 0.5) { return vec4f(dpdx(p.x)); } return vec4f(0); }
