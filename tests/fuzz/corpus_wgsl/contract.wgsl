@group(0) @binding(0) var<storage, read_write> io : array<u32, 8>;
@compute @workgroup_size(1)
fn main() {
  let a = bitcast<f32>(io[0]);
  let b = bitcast<f32>(io[1]);
  let c = bitcast<f32>(io[2]);
  io[3] = bitcast<u32>(a * b + c);
  io[4] = bitcast<u32>(c + a * b);
  let p = a * b;
  io[5] = bitcast<u32>(p + c);
  io[6] = bitcast<u32>(fma(a, b, c));
}
