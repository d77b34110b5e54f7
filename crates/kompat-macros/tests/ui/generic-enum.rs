//! Generic enums are rejected.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature<T> {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    Dra(std::marker::PhantomData<T>),
}

fn main() {}
