//! Typed feature gates: the [`FeatureGates`] trait that `#[derive(FeatureGates)]`
//! implements for a fieldless enum, and [`TypedGate`], a runtime gate indexed
//! by that enum.
//!
//! The derive validates the declarations at compile time with the engine's
//! `validate` (`kompat-engine`) and emits the completed specs as `static` tables, so at
//! run time nothing is parsed or validated: [`FeatureGates::feature_set`] is
//! built once from the tables, and [`TypedGate::enabled`] is an array index
//! (`variant as usize`), with no hashing, into flags the typed gate holds
//! inline: the derive knows the number of gates and names the array type
//! ([`FeatureGates::Flags`], `[bool; N]`), so a constant variant is one load
//! at a constant offset, with the bounds check folded away.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::feature::{FeatureSpec, Ratchet};
use crate::gate::{Feature, FeatureGate, FeatureSet, FeatureState, GateError};
use crate::version::Version;

/// A set of feature gates declared as a fieldless enum, one variant per gate,
/// in declaration order. Implemented by `#[derive(FeatureGates)]`; every table
/// has one entry per variant, indexed by [`FeatureGates::index`].
///
/// The tables are validated at compile time: the specs are complete (each
/// carries its inherited min-compatibility version) and the dependencies are
/// resolved to variant indices, sorted by gate name.
///
/// A hand-written impl names its flag array too: `type Flags = [bool; N];`
/// with `N` the number of gates (`NAMES.len()`); another length is a compile
/// error when a [`TypedGate`] of the type is built (`cargo build`; `cargo
/// check` does not evaluate it):
///
/// ```compile_fail,E0080
/// # use kompat_runtime::{FeatureGates, FeatureSet, FeatureSpec, Ratchet, Version};
/// # use std::sync::Arc;
/// #[derive(Clone, Copy)]
/// enum Gate {
///     Only,
/// }
///
/// impl FeatureGates for Gate {
///     type Flags = [bool; 2]; // one gate: must be [bool; 1]
///     const ALL: &'static [Gate] = &[Gate::Only];
///     const NAMES: &'static [&'static str] = &["Only"];
/// #   fn specs() -> &'static [&'static [FeatureSpec]] { &[&[]] }
/// #   fn dependencies() -> &'static [&'static [usize]] { &[&[]] }
/// #   fn descriptions() -> &'static [Option<&'static str>] { &[None] }
/// #   fn ratchets() -> &'static [Option<Ratchet>] { &[None] }
/// #   fn index(self) -> usize { self as usize }
/// #   fn from_index(index: usize) -> Option<Gate> { Gate::ALL.get(index).copied() }
/// #   fn from_name(name: &str) -> Option<Gate> { (name == "Only").then_some(Gate::Only) }
/// #   fn feature_set() -> Arc<FeatureSet> { Arc::new(kompat_runtime::typed::build_feature_set::<Gate>()) }
///     // ...
/// }
///
/// let gate = Gate::gate(Version::new(1, 0), None);
/// ```
///
/// and an impl without it (written before kompat had it) is an error that
/// names the missing item, with the fix `type Flags = [bool; N];`:
///
/// ```compile_fail,E0046
/// # use kompat_runtime::{FeatureGates, FeatureSet, FeatureSpec, Ratchet};
/// # use std::sync::Arc;
/// # #[derive(Clone, Copy)]
/// # enum Gate {
/// #     Only,
/// # }
/// impl FeatureGates for Gate {
///     const ALL: &'static [Gate] = &[Gate::Only];
///     const NAMES: &'static [&'static str] = &["Only"];
/// #   fn specs() -> &'static [&'static [FeatureSpec]] { &[&[]] }
/// #   fn dependencies() -> &'static [&'static [usize]] { &[&[]] }
/// #   fn descriptions() -> &'static [Option<&'static str>] { &[None] }
/// #   fn ratchets() -> &'static [Option<Ratchet>] { &[None] }
/// #   fn index(self) -> usize { self as usize }
/// #   fn from_index(index: usize) -> Option<Gate> { Gate::ALL.get(index).copied() }
/// #   fn from_name(name: &str) -> Option<Gate> { (name == "Only").then_some(Gate::Only) }
/// #   fn feature_set() -> Arc<FeatureSet> { Arc::new(kompat_runtime::typed::build_feature_set::<Gate>()) }
///     // ...
/// }
/// ```
pub trait FeatureGates: Copy + 'static {
    /// The typed gate's enabled flags, held inline: `[bool; N]` with `N` the
    /// number of gates (`NAMES.len()`), so that [`TypedGate::enabled`] with
    /// a constant variant compiles to one load at a constant offset.
    type Flags: GateFlags;
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

/// The storage of a typed gate's enabled flags: `[bool; N]`, for any `N`
/// (the only implementations; the trait is sealed).
pub trait GateFlags: Copy + fmt::Debug + Send + Sync + 'static + sealed::Sealed {
    /// The number of flags, `N`.
    const LEN: usize;
    /// Every flag off.
    fn all_off() -> Self;
    /// The flags, by gate index.
    fn as_slice(&self) -> &[bool];
    /// The flags, by gate index, to write.
    fn as_mut_slice(&mut self) -> &mut [bool];
}

impl<const N: usize> GateFlags for [bool; N] {
    const LEN: usize = N;

    fn all_off() -> [bool; N] {
        [false; N]
    }

    #[inline]
    fn as_slice(&self) -> &[bool] {
        self
    }

    fn as_mut_slice(&mut self) -> &mut [bool] {
        self
    }
}

mod sealed {
    /// Keeps [`super::GateFlags`] to `[bool; N]`.
    pub trait Sealed {}
    impl<const N: usize> Sealed for [bool; N] {}
}

/// A [`FeatureGate`] over the gates of `F`, queried by variant.
///
/// Besides the untyped gate it holds a copy of the enabled flags inline
/// (`F::Flags`, `[bool; N]`), refreshed whenever a setting changes them, so
/// that [`TypedGate::enabled`] reads no heap pointer or length.
pub struct TypedGate<F: FeatureGates> {
    gate: FeatureGate,
    flags: F::Flags,
    _features: PhantomData<fn() -> F>,
}

impl<F: FeatureGates> TypedGate<F> {
    /// A gate at `emulation`; `min_compatibility` of `None` means emulation - 1.
    ///
    /// `F::Flags` must be `[bool; N]` with `N == F::NAMES.len()`: another
    /// length (only possible in a hand-written impl) fails to compile here.
    pub fn new(emulation: Version, min_compatibility: Option<Version>) -> TypedGate<F> {
        const {
            assert!(
                <F::Flags as GateFlags>::LEN == F::NAMES.len(),
                "`FeatureGates::Flags` must be `[bool; N]` with N the number of gates (`NAMES.len()`)"
            )
        };
        let gate = FeatureGate::new(F::feature_set(), emulation, min_compatibility);
        let mut typed = TypedGate { gate, flags: F::Flags::all_off(), _features: PhantomData };
        typed.copy_flags();
        typed
    }

    /// Copies the untyped gate's enabled flags into the inline array.
    fn copy_flags(&mut self) {
        for (idx, flag) in self.flags.as_mut_slice().iter_mut().enumerate() {
            *flag = self.gate.enabled(idx);
        }
    }

    /// Whether `feature` is enabled. Constant time: an index into the array
    /// the gate holds inline (one load for a constant variant).
    #[inline]
    pub fn enabled(&self, feature: F) -> bool {
        self.flags.as_slice().get(feature.index()).copied().unwrap_or(false)
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
        let result = self.gate.set(value);
        self.copy_flags();
        result
    }

    /// `SetFromMap` (see [`FeatureGate::set_from_map`]).
    pub fn set_from_map(&mut self, map: &BTreeMap<String, bool>) -> Result<Vec<String>, GateError> {
        let result = self.gate.set_from_map(map);
        self.copy_flags();
        result
    }

    /// Sets typed features explicitly, as `SetFromMap` with their names.
    pub fn set_features(&mut self, features: &[(F, bool)]) -> Result<Vec<String>, GateError> {
        let map = features.iter().map(|(f, v)| (f.name().to_owned(), *v)).collect();
        self.set_from_map(&map)
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
        TypedGate { gate: self.gate.clone(), flags: self.flags, _features: PhantomData }
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
    pub use crate::typed::{build_feature_set, FeatureGates, TypedGate};
    pub use crate::version::Version;
    pub use std::clone::Clone;
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
        type Flags = [bool; 2];
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

    /// Applies `flag` to a fresh gate at 1.2, through `set` and through
    /// `set_from_map`, and checks the outcome and that the inline flags
    /// read what the untyped gate reads.
    fn check_set(flag: &str, ok: bool, expected: [bool; 2]) {
        let mut by_flag = Demo::gate(Version::new(1, 2), None);
        let mut by_map = by_flag.clone();
        assert_eq!(by_flag.set(flag).is_ok(), ok, "{flag}");
        if let Ok(map) = crate::gate::parse_feature_gates(flag) {
            assert_eq!(by_map.set_from_map(&map).is_ok(), ok, "{flag}");
        }
        for gate in [&by_flag, &by_map] {
            let typed = [Demo::Old, Demo::New].map(|d| gate.enabled(d));
            let untyped = [Demo::Old, Demo::New].map(|d| gate.untyped().enabled(d.index()));
            assert_eq!((typed, untyped), (expected, expected), "{flag}");
        }
    }

    #[test]
    fn inline_flags_follow_every_setting() {
        check_set("", true, [true, true]);
        check_set("New=false", true, [true, false]);
        check_set("New=false,New=true", true, [true, true]);
        check_set("Old=true,New=false", true, [true, false]);
        // Errors change nothing: Old is locked to true, Nope is unknown.
        check_set("Old=false", false, [true, true]);
        check_set("New=false,Nope=true", false, [true, true]);
        check_set("New=maybe", false, [true, true]);
    }
}
