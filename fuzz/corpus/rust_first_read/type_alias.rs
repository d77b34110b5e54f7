pub type G = crate::gates::Gate;
fn f() -> bool { matches!(x(), G::Other) }
