//! The registered feature set and the runtime feature gate.
//!
//! A [`FeatureGate`] is built once per (emulation, min-compatibility) version:
//! every feature's spec is resolved up front, so [`FeatureGate::enabled`] is an
//! array index. Setting gates follows Kubernetes' `Set` / `SetFromMap` rules and
//! messages, except that kompat processes keys in byte order and reports every
//! error rather than stopping at the first unknown gate.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::feature::{spec_at, FeatureSpec, Ratchet, Stage};
use crate::gofmt::{go_aggregate, go_quote};
use crate::version::Version;

/// A validated feature: name, completed specs, resolved dependencies.
///
/// Its dependencies are indices into the [`FeatureSet`] it is built into,
/// which checks them ([`FeatureSet::from_features`]); a set hands out its
/// features only by shared reference, so they cannot go stale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feature {
    /// The gate name (`--feature-gates` key).
    pub name: String,
    /// The completed versioned specs, oldest first.
    pub specs: Vec<FeatureSpec>,
    /// Indices into the owning [`FeatureSet`], sorted by name.
    pub dependencies: Vec<usize>,
    /// The description (a doc comment or YAML/TOML field), if any.
    pub description: Option<String>,
    /// The ratcheting marker, if any.
    pub ratchet: Option<Ratchet>,
}

/// The built-in gate of every Kubernetes feature gate that sets all alpha gates.
pub const ALL_ALPHA: &str = "AllAlpha";
/// The built-in gate of every Kubernetes feature gate that sets all beta gates.
pub const ALL_BETA: &str = "AllBeta";

/// The specs Kubernetes registers for `AllAlpha` and `AllBeta`.
pub fn builtin_specs(name: &str) -> Option<FeatureSpec> {
    let stage = match name {
        ALL_ALPHA => Stage::Alpha,
        ALL_BETA => Stage::Beta,
        _ => return None,
    };
    Some(FeatureSpec {
        version: Version::new(0, 0),
        default: false,
        lock_to_default: false,
        stage,
        min_compatibility_version: None,
    })
}

/// A registered, validated set of features, indexed by name.
///
/// **Invariant:** names are unique and every dependency index is in range, so
/// a gate over the set never indexes out of bounds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FeatureSet {
    features: Vec<Feature>,
    index: HashMap<String, usize, BuildHasherDefault<NameHasher>>,
}

/// The hasher of a set's name index: eight bytes at a time, one folded
/// multiply per word (the 128-bit product's halves xor-ed, as foldhash does,
/// so every input bit reaches the low bits the table's buckets come from;
/// rustc's FxHash multiply alone does not). SipHash, the standard one, made
/// [`FeatureGate::enabled_by_name`] slower than a plain `HashMap<&str, bool>`
/// (issue 18). Flooding is no concern: the index is built once from the
/// declared names, and a lookup adds nothing to it.
#[derive(Debug, Clone, Copy, Default)]
struct NameHasher(u64);

impl NameHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    #[inline]
    fn add(&mut self, word: u64) {
        let product = u128::from(self.0 ^ word) * u128::from(Self::SEED);
        self.0 = (product as u64) ^ ((product >> 64) as u64);
    }
}

impl Hasher for NameHasher {
    /// Whole words, the last one overlapping the one before; short inputs
    /// as two overlapping halves or three bytes. (A copy of the remainder
    /// into a word compiled to a `memcpy` call, which cost more than
    /// SipHash.) Equal inputs give equal words, which is all a hash needs.
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let word =
            |at: usize| u64::from_le_bytes(bytes.get(at..at + 8).and_then(|b| b.try_into().ok()).unwrap_or_default());
        let half = |at: usize| {
            u64::from(u32::from_le_bytes(bytes.get(at..at + 4).and_then(|b| b.try_into().ok()).unwrap_or_default()))
        };
        let len = bytes.len();
        if len >= 8 {
            let mut at = 0;
            while at + 8 <= len {
                self.add(word(at));
                at += 8;
            }
            if at < len {
                self.add(word(len - 8));
            }
        } else if len >= 4 {
            self.add(half(0) | half(len - 4) << 32);
        } else if let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) {
            let middle = bytes.get(len / 2).copied().unwrap_or_default();
            self.add(u64::from(first) | u64::from(middle) << 8 | u64::from(last) << 16);
        }
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Why [`FeatureSet::from_features`] rejected its features.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeatureSetError {
    /// Two features have the same name.
    DuplicateName {
        /// The name registered twice.
        name: String,
    },
    /// A dependency index does not name a feature of the set.
    DependencyOutOfRange {
        /// The feature whose dependency it is.
        feature: String,
        /// The index, at least the number of features.
        index: usize,
    },
}

impl fmt::Display for FeatureSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FeatureSetError::DuplicateName { name } => write!(f, "feature {name} is registered twice"),
            FeatureSetError::DependencyOutOfRange { feature, index } => {
                write!(f, "feature {feature} depends on feature #{index}, which does not exist")
            }
        }
    }
}

impl std::error::Error for FeatureSetError {}

impl FeatureSet {
    /// Builds a set from validated features (the engine's `validate`, or a
    /// [`FeatureGates`](crate::FeatureGates) type's tables). Fails on a name
    /// registered twice or a dependency index out of range.
    pub fn from_features(features: Vec<Feature>) -> Result<FeatureSet, FeatureSetError> {
        let mut index = HashMap::with_capacity_and_hasher(features.len(), BuildHasherDefault::default());
        for (idx, feature) in features.iter().enumerate() {
            if index.insert(feature.name.clone(), idx).is_some() {
                return Err(FeatureSetError::DuplicateName { name: feature.name.clone() });
            }
            if let Some(&dep) = feature.dependencies.iter().find(|&&dep| dep >= features.len()) {
                return Err(FeatureSetError::DependencyOutOfRange { feature: feature.name.clone(), index: dep });
            }
        }
        Ok(FeatureSet { features, index })
    }

    /// Every feature, in registration order (index order).
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    /// The number of features.
    pub fn len(&self) -> usize {
        self.features.len()
    }

    /// Whether the set has no features.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }

    /// The index of the named feature.
    #[inline]
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The named feature.
    pub fn get(&self, name: &str) -> Option<&Feature> {
        self.index_of(name).and_then(|i| self.features.get(i))
    }

    /// The gate name closest to `unknown` (a feature of the set, `AllAlpha`
    /// or `AllBeta`), for a "did you mean" hint ([`did_you_mean`]); `None`
    /// when nothing is close or `unknown` is a known name.
    ///
    /// [`did_you_mean`]: crate::suggest::did_you_mean
    pub fn suggest(&self, unknown: &str) -> Option<&str> {
        if self.index_of(unknown).is_some() {
            return None;
        }
        let names = self.features.iter().map(|f| f.name.as_str());
        crate::suggest::did_you_mean(unknown, names.chain([ALL_ALPHA, ALL_BETA]))
    }
}

/// A gate name the feature set does not have
/// ([`FeatureGate::enabled_by_name`]), with the closest name it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFeature {
    /// The name asked for.
    pub name: String,
    /// The closest known name, if one is close ([`FeatureSet::suggest`]).
    pub suggestion: Option<String>,
}

impl fmt::Display for UnknownFeature {
    /// Kubernetes' `unrecognized feature gate: X`, with a "did you mean"
    /// hint when a known name is close.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unrecognized feature gate: {}", self.name)?;
        match &self.suggestion {
            Some(s) => write!(f, " (did you mean `{s}`?)"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for UnknownFeature {}

/// Errors from setting feature gates; prints like Go's `utilerrors.NewAggregate`
/// (one message alone, several as `[a, b]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateError {
    /// Every message, in the order found.
    pub messages: Vec<String>,
}

impl fmt::Display for GateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&go_aggregate(&self.messages))
    }
}

impl std::error::Error for GateError {}

/// Parses a `--feature-gates` value (`A=true,B=false`) the way Kubernetes'
/// `featureGate.Set` does: empty items skipped, keys and values trimmed, Go's
/// `strconv.ParseBool` spellings, the last of repeated keys wins.
pub fn parse_feature_gates(value: &str) -> Result<BTreeMap<String, bool>, GateError> {
    let mut map = BTreeMap::new();
    for item in value.split(',') {
        if item.is_empty() {
            continue;
        }
        let (key, raw) = match item.split_once('=') {
            Some((k, v)) => (k.trim(), v.trim()),
            None => return Err(GateError { messages: vec![format!("missing bool value for {}", item.trim())] }),
        };
        let value = parse_go_bool(raw).ok_or_else(|| GateError {
            messages: vec![format!(
                "invalid value of {key}={raw}, err: strconv.ParseBool: parsing {}: invalid syntax",
                go_quote(raw)
            )],
        })?;
        map.insert(key.to_owned(), value);
    }
    Ok(map)
}

/// Go's `strconv.ParseBool`.
pub fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// What a feature is at the gate's versions, after any explicit setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeatureState {
    /// The spec in force at the gate's versions.
    pub spec: FeatureSpec,
    /// Whether the feature is enabled.
    pub enabled: bool,
    /// Whether it was set explicitly (by `--feature-gates` or a map).
    pub explicitly_set: bool,
}

/// A feature gate at fixed (emulation, min-compatibility) versions.
#[derive(Debug, Clone)]
pub struct FeatureGate {
    set: Arc<FeatureSet>,
    emulation: Version,
    min_compatibility: Version,
    specs: Vec<FeatureSpec>,
    enabled: Vec<bool>,
    explicit: Vec<bool>,
    /// Everything set so far, kept even when validation fails (`enabledRaw`).
    raw: BTreeMap<String, bool>,
}

impl FeatureGate {
    /// A gate at `emulation`; `min_compatibility` of `None` means emulation - 1.
    pub fn new(set: Arc<FeatureSet>, emulation: Version, min_compatibility: Option<Version>) -> FeatureGate {
        let min_compatibility = min_compatibility.unwrap_or_else(|| emulation.subtract_minor(1));
        let specs: Vec<FeatureSpec> =
            set.features().iter().map(|f| spec_at(&f.specs, emulation, Some(min_compatibility))).collect();
        let enabled = specs.iter().map(|s| s.default).collect();
        let explicit = vec![false; specs.len()];
        FeatureGate { set, emulation, min_compatibility, specs, enabled, explicit, raw: BTreeMap::new() }
    }

    /// The features the gate is over.
    pub fn feature_set(&self) -> &FeatureSet {
        &self.set
    }

    /// The emulation version the gate resolves at.
    pub fn emulation_version(&self) -> Version {
        self.emulation
    }

    /// The min-compatibility version the gate resolves at.
    pub fn min_compatibility_version(&self) -> Version {
        self.min_compatibility
    }

    /// Whether the feature at `idx` (its index in the feature set) is enabled;
    /// an index outside the set is not. Constant time.
    #[inline]
    pub fn enabled(&self, idx: usize) -> bool {
        self.enabled.get(idx).copied().unwrap_or(false)
    }

    /// Whether the named feature is enabled; an unknown name is an error
    /// that names the closest known one. One lookup in the set's name index,
    /// whose own hasher takes eight bytes at a time.
    #[inline]
    pub fn enabled_by_name(&self, name: &str) -> Result<bool, UnknownFeature> {
        match self.set.index_of(name) {
            Some(i) => Ok(self.enabled[i]),
            None => {
                Err(UnknownFeature { name: name.to_owned(), suggestion: self.set.suggest(name).map(str::to_owned) })
            }
        }
    }

    /// The resolved spec and state of the feature at `idx`.
    pub fn state(&self, idx: usize) -> FeatureState {
        FeatureState { spec: self.specs[idx], enabled: self.enabled[idx], explicitly_set: self.explicit[idx] }
    }

    /// Applies a `--feature-gates` flag value. On success returns the warnings
    /// Kubernetes logs (setting a GA or Deprecated gate).
    pub fn set(&mut self, value: &str) -> Result<Vec<String>, GateError> {
        let map = parse_feature_gates(value)?;
        self.set_from_map(&map)
    }

    /// `SetFromMap`: merges `map` into everything set so far, then re-derives
    /// the enabled values. On error nothing changes but the raw settings.
    pub fn set_from_map(&mut self, map: &BTreeMap<String, bool>) -> Result<Vec<String>, GateError> {
        for (k, v) in map {
            self.raw.insert(k.clone(), *v);
        }
        let applied = self.apply_raw()?;
        self.enabled = applied.enabled;
        self.explicit = applied.explicit;
        Ok(applied.warnings)
    }

    /// `Validate`: re-checks the raw settings at the gate's versions.
    pub fn validate(&self) -> Result<(), GateError> {
        self.apply_raw().map(|_| ())
    }

    fn apply_raw(&self) -> Result<Applied, GateError> {
        let mut errors = Vec::new();
        let mut warnings = Vec::new();
        let mut explicit_values: Vec<Option<bool>> = vec![None; self.specs.len()];
        let mut specials: Vec<(Stage, bool)> = Vec::new();
        let emu = self.emulation;
        let mc = self.min_compatibility;
        for (key, &value) in &self.raw {
            if let Some(builtin) = builtin_specs(key) {
                specials.push((builtin.stage, value));
                continue;
            }
            let Some(idx) = self.set.index_of(key) else {
                errors.push(format!("unrecognized feature gate: {key}"));
                continue;
            };
            let spec = self.specs[idx];
            if spec.lock_to_default && spec.default != value {
                errors.push(format!("cannot set feature gate {key} to {value}, feature is locked to {}", spec.default));
                continue;
            }
            if spec.stage == Stage::PreAlpha {
                errors.push(format!(
                    "cannot set feature gate {key} to {value}, feature is PreAlpha at emulated version {emu}, min compatibility version {mc}"
                ));
                continue;
            }
            explicit_values[idx] = Some(value);
            match spec.stage {
                Stage::Deprecated => warnings.push(format!(
                    "Setting deprecated feature gate {key}={value}. It will be removed in a future release."
                )),
                Stage::GA => warnings
                    .push(format!("Setting GA feature gate {key}={value}. It will be removed in a future release.")),
                _ => (),
            }
        }
        if !errors.is_empty() {
            return Err(GateError { messages: errors });
        }
        let explicit: Vec<bool> = explicit_values.iter().map(Option::is_some).collect();
        let mut enabled: Vec<bool> =
            explicit_values.iter().zip(&self.specs).map(|(explicit, spec)| explicit.unwrap_or(spec.default)).collect();
        // AllAlpha / AllBeta apply to features not set explicitly.
        for (stage, value) in specials {
            for (idx, spec) in self.specs.iter().enumerate() {
                if spec.stage == stage && explicit_values[idx].is_none() {
                    enabled[idx] = value;
                }
            }
        }
        for (idx, feature) in self.set.features().iter().enumerate() {
            if !enabled[idx] || feature.dependencies.is_empty() {
                continue;
            }
            let disabled: Vec<&str> = feature
                .dependencies
                .iter()
                .filter(|&&dep| !enabled[dep])
                .map(|&dep| self.set.features()[dep].name.as_str())
                .collect();
            if !disabled.is_empty() {
                errors.push(format!(
                    "{} is enabled, but depends on features that are disabled: [{}]",
                    feature.name,
                    disabled.join(" ")
                ));
            }
        }
        if !errors.is_empty() {
            return Err(GateError { messages: errors });
        }
        Ok(Applied { enabled, explicit, warnings })
    }

    /// `KnownFeatures()`: one help line per settable gate, in byte order, as in
    /// the `--feature-gates` flag help. GA, Deprecated and PreAlpha gates are
    /// hidden; a gate whose spec depends on the min-compatibility version gets
    /// both variants.
    pub fn known_features(&self) -> Vec<String> {
        let mut lines = vec![
            format!("{ALL_ALPHA}=true|false (ALPHA - default=false)"),
            format!("{ALL_BETA}=true|false (BETA - default=false)"),
        ];
        for feature in self.set.features() {
            let at_mc = spec_at(&feature.specs, self.emulation, Some(self.min_compatibility));
            let at_emu = spec_at(&feature.specs, self.emulation, Some(self.emulation));
            let line = if at_mc == at_emu {
                help_string(&feature.name, &at_mc, false)
            } else {
                let parts: Vec<String> =
                    [help_string(&feature.name, &at_mc, false), help_string(&feature.name, &at_emu, true)]
                        .into_iter()
                        .filter(|s| !s.is_empty())
                        .collect();
                parts.join(", or ")
            };
            if !line.is_empty() {
                lines.push(line);
            }
        }
        lines.sort();
        lines
    }

    /// Go's `String()` of the gate: sorted `name=value` pairs of explicitly set
    /// features.
    pub fn flag_string(&self) -> String {
        let mut pairs: Vec<String> = self
            .set
            .features()
            .iter()
            .enumerate()
            .filter(|(idx, _)| self.explicit[*idx])
            .map(|(idx, f)| format!("{}={}", f.name, self.enabled[idx]))
            .collect();
        pairs.sort();
        pairs.join(",")
    }
}

struct Applied {
    enabled: Vec<bool>,
    explicit: Vec<bool>,
    warnings: Vec<String>,
}

/// `FeatureSpec.HelpString`.
fn help_string(name: &str, spec: &FeatureSpec, include_compat: bool) -> String {
    if matches!(spec.stage, Stage::GA | Stage::Deprecated | Stage::PreAlpha) {
        return String::new();
    }
    let mut s = format!("{name}=true|false ({} - default={})", spec.stage.runtime_str(), spec.default);
    if include_compat {
        if let Some(mcv) = spec.min_compatibility_version {
            s.push_str(&format!(" if --min-compatibility-version>={mcv}"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(name: &str, dependencies: &[usize]) -> Feature {
        Feature {
            name: name.to_owned(),
            specs: Vec::new(),
            dependencies: dependencies.to_vec(),
            description: None,
            ratchet: None,
        }
    }

    #[track_caller]
    fn check(features: &[(&str, &[usize])], expected: Result<&[&str], &str>) {
        let set = FeatureSet::from_features(features.iter().map(|(n, d)| feature(n, d)).collect());
        let got =
            set.map(|s| s.features().iter().map(|f| f.name.clone()).collect::<Vec<_>>()).map_err(|e| e.to_string());
        let expected = expected.map(|names| names.iter().map(|n| n.to_string()).collect()).map_err(str::to_owned);
        assert_eq!(got, expected);
    }

    #[test]
    fn feature_sets_check_names_and_dependency_indices() {
        check(&[], Ok(&[]));
        check(&[("A", &[]), ("B", &[0])], Ok(&["A", "B"]));
        check(&[("A", &[1]), ("B", &[0])], Ok(&["A", "B"]));
        check(&[("A", &[]), ("A", &[])], Err("feature A is registered twice"));
        check(&[("A", &[]), ("B", &[2])], Err("feature B depends on feature #2, which does not exist"));
        check(&[("A", &[0])], Ok(&["A"]));
    }
}
