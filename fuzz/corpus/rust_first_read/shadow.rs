struct Feature;
fn f(x: Feature) -> Flag2 { Gate2 }
