use crate::gates::{Feature as F};
fn f() { F::WatchList; }
