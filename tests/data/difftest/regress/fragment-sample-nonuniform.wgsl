// textureSample under a branch on a fragment input is an error (derivative
// uniformity); stex once accepted it.
//! dispatch 1 1 1
//! out 1
//! expect error
@group(0) @binding(0) var<storage, read_write> out : array<u32, 1>;
@group(0) @binding(1) var t : texture_2d<f32>;
@group(0) @binding(2) var s : sampler;
@compute @workgroup_size(1) fn main() { out[0] = 1u; }
@fragment fn frag(@location(0) uv : vec2f) -> @location(0) vec4f { var c = vec4f(0); if (uv.x > 0.5) { c = textureSample(t, s, uv); } return c; }
