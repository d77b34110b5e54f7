//! Feature gate model: stages, versioned specs, and the resolution of a
//! feature at an (emulation, min-compatibility) version.

use std::fmt;

use crate::version::Version;

/// Stability stage of a feature (`prerelease` in Kubernetes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Synthetic: the feature does not exist at the version asked about.
    PreAlpha,
    /// `Alpha`: off by default, may change or disappear.
    Alpha,
    /// `Beta`: well tested, on or off by default.
    Beta,
    /// `GA`: generally available; the gate will be removed.
    GA,
    /// `Deprecated`: going away; the gate will be removed.
    Deprecated,
}

impl Stage {
    /// Stages a declaration may use, in lifecycle order.
    pub const DECLARABLE: [Stage; 4] = [Stage::Alpha, Stage::Beta, Stage::GA, Stage::Deprecated];

    /// The Go identifier Kubernetes writes in `versioned_feature_list.yaml`
    /// (`Alpha`, `Beta`, `GA`, `Deprecated`); `PreAlpha` for the synthetic stage.
    pub fn name(self) -> &'static str {
        match self {
            Stage::PreAlpha => "PreAlpha",
            Stage::Alpha => "Alpha",
            Stage::Beta => "Beta",
            Stage::GA => "GA",
            Stage::Deprecated => "Deprecated",
        }
    }

    /// Parses a declarable stage name (`Alpha`, `Beta`, `GA`, `Deprecated`).
    pub fn from_name(name: &str) -> Option<Stage> {
        Stage::DECLARABLE.into_iter().find(|s| s.name() == name)
    }

    /// The runtime `prerelease` string used in Kubernetes messages, metrics
    /// and help text: `ALPHA`, `BETA`, `""` for GA, `DEPRECATED`, `PRE-ALPHA`.
    pub fn runtime_str(self) -> &'static str {
        match self {
            Stage::PreAlpha => "PRE-ALPHA",
            Stage::Alpha => "ALPHA",
            Stage::Beta => "BETA",
            Stage::GA => "",
            Stage::Deprecated => "DEPRECATED",
        }
    }

    /// `stabilityOrder` from the dependency rules: a feature may not depend on
    /// a feature of lower order.
    pub fn stability_order(self) -> i32 {
        match self {
            Stage::Deprecated => 0,
            Stage::PreAlpha | Stage::Alpha => 1,
            Stage::Beta => 2,
            Stage::GA => 3,
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One validated, completed entry of a feature's versioned specs.
/// `min_compatibility_version` holds the inherited value after completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FeatureSpec {
    /// The version from which the spec applies.
    pub version: Version,
    /// Whether the feature is enabled by default.
    pub default: bool,
    /// `LockToDefault`: the feature cannot be set to anything but its default.
    pub lock_to_default: bool,
    /// The stability stage.
    pub stage: Stage,
    /// The spec applies only once the min-compatibility version reaches this.
    pub min_compatibility_version: Option<Version>,
}

impl FeatureSpec {
    /// The synthetic spec returned when no declared spec applies.
    pub const PRE_ALPHA: FeatureSpec = FeatureSpec {
        version: Version::new(0, 0),
        default: false,
        lock_to_default: false,
        stage: Stage::PreAlpha,
        min_compatibility_version: None,
    };
}

/// Marks a gate whose enablement lets the server write data (new values,
/// relaxed validation, new fields) that older readers must tolerate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratchet {
    /// The first version whose readers tolerate what the gate writes.
    pub tolerated_since: Version,
}

/// Picks the spec in force at (emulation, min-compatibility), scanning newest
/// first and skipping specs whose min-compatibility version is not reached;
/// the synthetic PreAlpha spec when none applies. `min_compat` of `None`
/// means `emulation - 1`.
pub fn spec_at(specs: &[FeatureSpec], emulation: Version, min_compat: Option<Version>) -> FeatureSpec {
    let min_compat = min_compat.unwrap_or_else(|| emulation.subtract_minor(1));
    specs
        .iter()
        .rev()
        .find(|spec| spec.version <= emulation && spec.min_compatibility_version.is_none_or(|mcv| min_compat >= mcv))
        .copied()
        .unwrap_or(FeatureSpec::PRE_ALPHA)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(version: &str, stage: Stage, default: bool, lock: bool, mcv: Option<&str>) -> FeatureSpec {
        FeatureSpec {
            version: Version::parse(version).unwrap(),
            default,
            lock_to_default: lock,
            stage,
            min_compatibility_version: mcv.map(|v| Version::parse(v).unwrap()),
        }
    }

    #[track_caller]
    fn check(specs: &[FeatureSpec], emu: &str, mc: Option<&str>, expected: &str) {
        let got = spec_at(specs, Version::parse(emu).unwrap(), mc.map(|v| Version::parse(v).unwrap()));
        let got = format!("{}/{}/{}", got.stage, got.default, got.lock_to_default);
        assert_eq!(got, expected, "at ({emu}, {mc:?})");
    }

    #[test]
    fn resolves_newest_applicable_spec() {
        // WatchList as in the 1.37-dev data.
        let watch_list = [
            spec("1.27", Stage::Alpha, false, false, None),
            spec("1.32", Stage::Beta, true, false, None),
            spec("1.33", Stage::Beta, false, false, None),
            spec("1.34", Stage::Beta, true, false, None),
        ];
        check(&watch_list, "1.26", None, "PreAlpha/false/false");
        check(&watch_list, "1.27", None, "Alpha/false/false");
        check(&watch_list, "1.32", None, "Beta/true/false");
        check(&watch_list, "1.33", None, "Beta/false/false");
        check(&watch_list, "1.34", None, "Beta/true/false");
    }

    #[test]
    fn skips_specs_above_min_compatibility() {
        let dra = [spec("1.37", Stage::Beta, false, false, None), spec("1.37", Stage::Beta, true, false, Some("1.37"))];
        check(&dra, "1.36", None, "PreAlpha/false/false");
        check(&dra, "1.37", None, "Beta/false/false");
        check(&dra, "1.37", Some("1.36"), "Beta/false/false");
        check(&dra, "1.37", Some("1.37"), "Beta/true/false");
    }

    #[test]
    fn stage_strings() {
        let names: Vec<&str> = Stage::DECLARABLE.iter().map(|s| s.name()).collect();
        assert_eq!(names, ["Alpha", "Beta", "GA", "Deprecated"]);
        assert_eq!(Stage::from_name("GA"), Some(Stage::GA));
        assert_eq!(Stage::from_name("PreAlpha"), None);
        assert_eq!(Stage::from_name("ga"), None);
        assert_eq!(Stage::GA.runtime_str(), "");
        assert_eq!(Stage::PreAlpha.runtime_str(), "PRE-ALPHA");
    }
}
