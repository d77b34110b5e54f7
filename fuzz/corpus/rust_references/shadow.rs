use crate::gates::*;
fn a() { Feature::WatchList; }
const WatchList: u8 = 0;
fn b() -> u8 { WatchList }
struct Feature;
fn c() { Other; }
//--
#![allow(dead_code)]
//! Doc.
/// Item doc.
#[cfg(test)]
mod tests { use super::*; #[test] fn t() { assert!(Gate::Other != Gate::WatchList); } }
