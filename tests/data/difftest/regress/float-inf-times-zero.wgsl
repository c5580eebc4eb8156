// Non-finite f32 results at run time: 0/0, -NaN, x % 0, 1/0, inf - inf,
// sqrt(-1), and inf * 0, which lavapipe gives as +0.0 (stex: NaN).
//! dispatch 1 1 1
//! out 8
//! expect ffc00000 ffc00000 7fc00000 ffc00000 7f800000 ffc00000 ffc00000 00000000
@group(0) @binding(0) var<storage, read_write> out: array<u32, 8>;
var<private> z: f32;
var<private> one: f32 = 1.0;
@compute @workgroup_size(1)
fn main() {
  let n = z / z;
  out[0] = bitcast<u32>(n);
  out[1] = bitcast<u32>(n + n);
  out[2] = bitcast<u32>(-n);
  out[3] = bitcast<u32>(z % z);
  out[4] = bitcast<u32>(one / z);
  out[5] = bitcast<u32>(one / z - one / z);
  out[6] = bitcast<u32>(sqrt(z - one));
  out[7] = bitcast<u32>((one / z) * z);
}
