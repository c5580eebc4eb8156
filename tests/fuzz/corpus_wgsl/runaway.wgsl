@group(0) @binding(0) var<storage, read_write> output : array<u32>;
@compute @workgroup_size(1)
fn spin() {
  var i = 0u;
  while (output[0] == 0u) {
    i++;
  }
  output[1] = i;
}
