use crate::gates::Gate as G2;
type F = G2;
fn f() { F::WatchList; }
pub use crate::gates::Flag;
fn g() -> std::io::Result<()> { Ok(()) }
//--
use crate::Flag as X;
impl X { fn k() { Self::Other; } }
