use crate::gates::Feature::*;
fn f(g: &G) -> bool { g.enabled(WatchList) }
struct Other;
fn h() { let _ = Other; }
//--
use super::*;
mod m { use super::*; fn f() { Feature::Other; } }
