@compute @workgroup_size(4)
fn main() { var x = 0; loop { x++; if x > 3 { break; } } }
