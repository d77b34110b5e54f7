use crate::gates::Flag::*;
fn f() { WatchList; }
