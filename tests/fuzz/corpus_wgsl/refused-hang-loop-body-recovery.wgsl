@compute @workgroup_size(4)
fn main() { 2var x = 0; loop { x++; •™ß‡ > 3 { break; } } }
