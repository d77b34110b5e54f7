//! Typed feature gates: the [`FeatureGates`] trait that `#[derive(FeatureGates)]`
//! implements for a fieldless enum, and [`TypedGate`], a runtime gate indexed
//! by that enum.
//!
//! The derive validates the declarations at compile time with the engine's
//! `validate` (`kompat-core`) and emits the completed specs as `static` tables, so at
//! run time nothing is parsed or validated: [`FeatureGates::feature_set`] is
//! built once from the tables, and [`TypedGate::enabled`] is an array index
//! (`variant as usize`), with no hashing.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::feature::{FeatureSpec, Ratchet};
use crate::gate::{Feature, FeatureGate, FeatureSet, FeatureState, GateError};
use crate::version::Version;

/// A lint suppression recorded on a feature gate with
/// `#[kompat(allow(code = "...", reason = "..."))]`. The derive stores it
/// (its `reason` is mandatory and non-empty); `kompat lint` honours it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LintAllow {
    /// The lint code being allowed, e.g. `orphaned-gate`.
    pub code: &'static str,
    /// Why the finding is acceptable.
    pub reason: &'static str,
}

/// A set of feature gates declared as a fieldless enum, one variant per gate,
/// in declaration order. Implemented by `#[derive(FeatureGates)]`; every table
/// has one entry per variant, indexed by [`FeatureGates::index`].
///
/// The tables are validated at compile time: the specs are complete (each
/// carries its inherited min-compatibility version) and the dependencies are
/// resolved to variant indices, sorted by gate name.
pub trait FeatureGates: Copy + 'static {
    /// Every variant, in declaration order (`ALL[i].index() == i`).
    const ALL: &'static [Self];
    /// The gate names (`--feature-gates` keys), indexed like [`Self::ALL`].
    const NAMES: &'static [&'static str];

    /// The completed versioned specs of every gate, oldest first.
    fn specs() -> &'static [&'static [FeatureSpec]];
    /// The indices of every gate's dependencies, sorted by dependency name.
    fn dependencies() -> &'static [&'static [usize]];
    /// Every gate's description (its doc comment), if any.
    fn descriptions() -> &'static [Option<&'static str>];
    /// Every gate's ratcheting marker, if any.
    fn ratchets() -> &'static [Option<Ratchet>];
    /// Every gate's lint suppressions.
    fn lint_allows() -> &'static [&'static [LintAllow]];

    /// The variant's position in declaration order.
    fn index(self) -> usize;
    /// The variant at `index`, if any.
    fn from_index(index: usize) -> Option<Self>;
    /// The variant whose gate name is `name`, if any.
    fn from_name(name: &str) -> Option<Self>;

    /// The registered feature set, built once from the tables.
    fn feature_set() -> Arc<FeatureSet>;

    /// The gate name (`--feature-gates` key) of the variant.
    fn name(self) -> &'static str {
        Self::NAMES.get(self.index()).copied().unwrap_or_default()
    }

    /// The completed specs of the variant, oldest first.
    fn spec_list(self) -> &'static [FeatureSpec] {
        Self::specs().get(self.index()).copied().unwrap_or_default()
    }

    /// A runtime gate at `emulation`; `min_compatibility` of `None` means
    /// emulation - 1.
    fn gate(emulation: Version, min_compatibility: Option<Version>) -> TypedGate<Self> {
        TypedGate::new(emulation, min_compatibility)
    }
}

/// Builds the [`FeatureSet`] of `F` from its tables. Generated
/// [`FeatureGates::feature_set`] impls call it once and cache the result.
/// The derive's tables always form a set; tables that break the trait's
/// contract (a name twice, a dependency index out of range: possible only in
/// a hand-written impl) give the empty set.
pub fn build_feature_set<F: FeatureGates>() -> FeatureSet {
    let specs = F::specs();
    let deps = F::dependencies();
    let descriptions = F::descriptions();
    let ratchets = F::ratchets();
    let features = F::NAMES
        .iter()
        .enumerate()
        .map(|(idx, name)| Feature {
            name: (*name).to_owned(),
            specs: specs.get(idx).map(|s| s.to_vec()).unwrap_or_default(),
            dependencies: deps.get(idx).map(|d| d.to_vec()).unwrap_or_default(),
            description: descriptions.get(idx).copied().flatten().map(str::to_owned),
            ratchet: ratchets.get(idx).copied().flatten(),
        })
        .collect();
    FeatureSet::from_features(features).unwrap_or_default()
}

/// A [`FeatureGate`] over the gates of `F`, queried by variant.
pub struct TypedGate<F: FeatureGates> {
    gate: FeatureGate,
    _features: PhantomData<fn() -> F>,
}

impl<F: FeatureGates> TypedGate<F> {
    /// A gate at `emulation`; `min_compatibility` of `None` means emulation - 1.
    pub fn new(emulation: Version, min_compatibility: Option<Version>) -> TypedGate<F> {
        TypedGate { gate: FeatureGate::new(F::feature_set(), emulation, min_compatibility), _features: PhantomData }
    }

    /// Whether `feature` is enabled. Constant time: an array index.
    #[inline]
    pub fn enabled(&self, feature: F) -> bool {
        self.gate.enabled(feature.index())
    }

    /// Whether the gate called `name` is enabled; an error naming the
    /// closest gate when `F` has no such gate (see
    /// [`FeatureGate::enabled_by_name`]).
    #[inline]
    pub fn enabled_by_name(&self, name: &str) -> Result<bool, crate::UnknownFeature> {
        self.gate.enabled_by_name(name)
    }

    /// The resolved spec and state of `feature`.
    pub fn state(&self, feature: F) -> FeatureState {
        self.gate.state(feature.index())
    }

    /// Applies a `--feature-gates` flag value (see [`FeatureGate::set`]).
    pub fn set(&mut self, value: &str) -> Result<Vec<String>, GateError> {
        self.gate.set(value)
    }

    /// `SetFromMap` (see [`FeatureGate::set_from_map`]).
    pub fn set_from_map(&mut self, map: &BTreeMap<String, bool>) -> Result<Vec<String>, GateError> {
        self.gate.set_from_map(map)
    }

    /// Sets typed features explicitly, as `SetFromMap` with their names.
    pub fn set_features(&mut self, features: &[(F, bool)]) -> Result<Vec<String>, GateError> {
        let map = features.iter().map(|(f, v)| (f.name().to_owned(), *v)).collect();
        self.gate.set_from_map(&map)
    }

    /// The untyped gate.
    pub fn untyped(&self) -> &FeatureGate {
        &self.gate
    }

    /// Unwraps the untyped gate.
    pub fn into_untyped(self) -> FeatureGate {
        self.gate
    }
}

impl<F: FeatureGates> Clone for TypedGate<F> {
    fn clone(&self) -> TypedGate<F> {
        TypedGate { gate: self.gate.clone(), _features: PhantomData }
    }
}

impl<F: FeatureGates> fmt::Debug for TypedGate<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedGate").field("gate", &self.gate).finish()
    }
}

/// Paths used by the code `#[derive(FeatureGates)]` generates. Not public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::api::{ApiEntry, ApiLifecycle, StaticGvk};
    pub use crate::feature::{FeatureSpec, Ratchet, Stage};
    pub use crate::gate::FeatureSet;
    pub use crate::typed::{build_feature_set, FeatureGates, LintAllow};
    pub use crate::version::Version;
    pub use std::option::Option::{self, None, Some};
    pub use std::sync::{Arc, OnceLock};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::feature::Stage;

    /// A hand-written impl, as the derive would generate it.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Demo {
        Old,
        New,
    }

    static OLD: [FeatureSpec; 1] = [FeatureSpec {
        version: Version::new(1, 0),
        default: true,
        lock_to_default: true,
        stage: Stage::GA,
        min_compatibility_version: None,
    }];
    static NEW: [FeatureSpec; 1] = [FeatureSpec {
        version: Version::new(1, 2),
        default: true,
        lock_to_default: false,
        stage: Stage::Beta,
        min_compatibility_version: None,
    }];

    impl FeatureGates for Demo {
        const ALL: &'static [Demo] = &[Demo::Old, Demo::New];
        const NAMES: &'static [&'static str] = &["Old", "New"];
        fn specs() -> &'static [&'static [FeatureSpec]] {
            static SPECS: [&[FeatureSpec]; 2] = [&OLD, &NEW];
            &SPECS
        }
        fn dependencies() -> &'static [&'static [usize]] {
            &[&[], &[0]]
        }
        fn descriptions() -> &'static [Option<&'static str>] {
            &[None, Some("new")]
        }
        fn ratchets() -> &'static [Option<Ratchet>] {
            &[None, None]
        }
        fn lint_allows() -> &'static [&'static [LintAllow]] {
            &[&[], &[]]
        }
        fn index(self) -> usize {
            self as usize
        }
        fn from_index(index: usize) -> Option<Demo> {
            Demo::ALL.get(index).copied()
        }
        fn from_name(name: &str) -> Option<Demo> {
            Demo::NAMES.iter().position(|n| *n == name).and_then(Demo::from_index)
        }
        fn feature_set() -> Arc<FeatureSet> {
            static SET: std::sync::OnceLock<Arc<FeatureSet>> = std::sync::OnceLock::new();
            SET.get_or_init(|| Arc::new(build_feature_set::<Demo>())).clone()
        }
    }

    #[test]
    fn typed_gate_indexes_by_variant() {
        let mut gate = Demo::gate(Version::new(1, 2), None);
        assert!(gate.enabled(Demo::Old));
        assert!(gate.enabled(Demo::New));
        assert_eq!(gate.state(Demo::New).spec.stage, Stage::Beta);
        assert_eq!(gate.set_features(&[(Demo::New, false)]).map_err(|e| e.to_string()), Ok(vec![]));
        assert!(!gate.enabled(Demo::New));
        let early = Demo::gate(Version::new(1, 1), None);
        assert!(!early.enabled(Demo::New));
        assert_eq!(Demo::from_name("New"), Some(Demo::New));
        assert_eq!(early.enabled_by_name("Old"), Ok(true));
        assert_eq!(early.enabled_by_name("New"), Ok(false));
        assert!(early.enabled_by_name("Newer").is_err());
        assert_eq!(Demo::New.name(), "New");
        assert_eq!(Demo::feature_set().get("New").map(|f| f.dependencies.clone()), Some(vec![0]));
        assert_eq!(Demo::feature_set().get("New").and_then(|f| f.description.clone()).as_deref(), Some("new"));
    }
}
