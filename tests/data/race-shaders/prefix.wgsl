// An in-place prefix sum (Hillis-Steele) with a barrier too few: in each
// step invocation i reads data[i - d] while invocation i - d overwrites it
// (the fix: read into a local, storageBarrier(), then write).
@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
  for (var d = 1u; d < 64u; d = d * 2u) {
    if (i >= d) {
      data[i] = data[i] + data[i - d];
    }
    storageBarrier();
  }
}
