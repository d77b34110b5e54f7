// The README's enum plus a second doc paragraph (a fragment `include!`d by
// tests; the README's copy runs as a doctest of the `kompat` crate).

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
#[kompat(crate = "kompat")] // optional; the default is `::kompat`
pub enum Feature {
    /// Doc comments become the description.
    ///
    /// Second paragraph.
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.32", stage = "Beta", default = true))]
    WatchList,

    #[kompat(name = "KMSv1")] // the gate name, when it differs from the variant
    #[kompat(spec(version = "1.0", stage = "GA", default = true))]
    #[kompat(spec(version = "1.28", stage = "Deprecated", default = true))]
    #[kompat(spec(version = "1.29", stage = "Deprecated", default = false, locked = true))]
    KmsV1,

    #[kompat(depends_on(WatchList))]
    #[kompat(ratchet(tolerated_since = "1.31"))]
    #[kompat(allow(code = "orphaned-gate", reason = "read by the scheduler plugin, not this crate"))]
    #[kompat(spec(version = "1.37", stage = "Beta", default = false))]
    #[kompat(spec(version = "1.37", stage = "Beta", default = true, min_compatibility = "1.37"))]
    Dra,
}
