// A histogram whose counters are plain u32s: two invocations that add to
// the same bin (or to the total) read and write it unordered (the fix:
// atomic<u32> counters and atomicAdd).
struct Stats {
  total: u32,
  bins: array<u32, 8>,
}
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> stats: Stats;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let v = values[gid.x];
  stats.total = stats.total + 1u;
  stats.bins[v % 8u] = stats.bins[v % 8u] + 1u;
}
