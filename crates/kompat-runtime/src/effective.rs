//! Effective versions: binary, emulation and min-compatibility, with defaults
//! and range validation (`compatibility.EffectiveVersion`).

use crate::version::Version;

/// How far below the binary version emulation and min-compatibility may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowPolicy {
    /// Releases below the binary version still supported (Kubernetes: 3).
    pub skew: u32,
    /// An absolute floor for both versions (Kubernetes: 1.31).
    pub floor: Option<Version>,
}

impl WindowPolicy {
    /// N-3, floored at 1.31, as `kubeEffectiveVersionFloors`.
    pub const KUBERNETES: WindowPolicy = WindowPolicy { skew: 3, floor: Some(Version::new(1, 31)) };

    /// N-3 with no absolute floor: the default for other projects.
    pub const DEFAULT: WindowPolicy = WindowPolicy { skew: 3, floor: None };

    /// The lowest emulation and min-compatibility version allowed for `binary`.
    pub fn floor_for(&self, binary: Version) -> Version {
        let floor = binary.subtract_minor(self.skew);
        match self.floor {
            Some(abs) if floor < abs => abs,
            _ => floor,
        }
    }

    /// Resolves the effective versions as kube components do: emulation
    /// defaults to the binary version; min-compatibility defaults to
    /// emulation - 1, floored. Out-of-range values are errors with the
    /// Kubernetes message texts (both may be reported).
    pub fn resolve(
        &self,
        binary: Version,
        emulation: Option<Version>,
        min_compatibility: Option<Version>,
    ) -> Result<EffectiveVersion, Vec<String>> {
        let floor = self.floor_for(binary);
        let emulation = emulation.unwrap_or(binary);
        let min_compatibility = min_compatibility.unwrap_or_else(|| emulation.subtract_minor(1).max(floor));
        let mut errors = Vec::new();
        if emulation > binary || emulation < floor {
            errors.push(format!("emulation version {emulation} is not between [{floor}, {binary}.0]"));
        }
        if min_compatibility > emulation || min_compatibility < floor {
            errors.push(format!(
                "minCompatibilityVersion version {min_compatibility} is not between [{floor}, {emulation}]"
            ));
        }
        if errors.is_empty() {
            Ok(EffectiveVersion { binary, emulation, min_compatibility })
        } else {
            Err(errors)
        }
    }

    /// Every (emulation, min-compatibility) pair the window allows for
    /// `binary`, by emulation version then min-compatibility version.
    pub fn points(&self, binary: Version) -> Vec<(Version, Version)> {
        let floor = self.floor_for(binary);
        floor.range_to(binary).flat_map(|emu| floor.range_to(emu).map(move |mc| (emu, mc))).collect()
    }

    /// Every emulation version the window allows for `binary`, oldest first.
    pub fn emulation_versions(&self, binary: Version) -> Vec<Version> {
        self.floor_for(binary).range_to(binary).collect()
    }
}

/// A component's versions after defaulting and validation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EffectiveVersion {
    /// The binary version.
    pub binary: Version,
    /// The emulation version (`--emulated-version`).
    pub emulation: Version,
    /// The min-compatibility version (`--min-compatibility-version`).
    pub min_compatibility: Version,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }

    #[track_caller]
    fn check(policy: WindowPolicy, binary: &str, emu: Option<&str>, mc: Option<&str>, expected: &str) {
        let got = policy.resolve(v(binary), emu.map(v), mc.map(v));
        let got = match got {
            Ok(e) => format!("ok {} {} {}", e.binary, e.emulation, e.min_compatibility),
            Err(errs) => errs.join(" | "),
        };
        assert_eq!(got, expected);
    }

    #[test]
    fn kubernetes_window() {
        let k = WindowPolicy::KUBERNETES;
        check(k, "1.35", None, None, "ok 1.35 1.35 1.34");
        check(k, "1.35", Some("1.32"), None, "ok 1.35 1.32 1.32");
        check(k, "1.34", Some("1.31"), None, "ok 1.34 1.31 1.31");
        check(k, "1.33", Some("1.31"), None, "ok 1.33 1.31 1.31");
        check(k, "1.35", Some("1.31"), None, "emulation version 1.31 is not between [1.32, 1.35.0] | minCompatibilityVersion version 1.32 is not between [1.32, 1.31]");
        check(k, "1.35", Some("1.36"), None, "emulation version 1.36 is not between [1.32, 1.35.0]");
        check(
            k,
            "1.35",
            Some("1.34"),
            Some("1.35"),
            "minCompatibilityVersion version 1.35 is not between [1.32, 1.34]",
        );
        check(k, "1.35", Some("1.34"), Some("1.32"), "ok 1.35 1.34 1.32");
    }

    #[test]
    fn default_window_has_no_absolute_floor() {
        let d = WindowPolicy::DEFAULT;
        check(d, "0.20", Some("0.17"), None, "ok 0.20 0.17 0.17");
        check(d, "0.20", Some("0.16"), None, "emulation version 0.16 is not between [0.17, 0.20.0] | minCompatibilityVersion version 0.17 is not between [0.17, 0.16]");
        check(d, "0.2", None, None, "ok 0.2 0.2 0.1");
        let versions: Vec<String> = d.emulation_versions(v("0.2")).iter().map(|v| v.to_string()).collect();
        assert_eq!(versions, ["0.0", "0.1", "0.2"]);
        let points: Vec<String> = d.points(v("0.2")).iter().map(|(e, m)| format!("{e}/{m}")).collect();
        assert_eq!(points, ["0.0/0.0", "0.1/0.0", "0.1/0.1", "0.2/0.0", "0.2/0.1", "0.2/0.2"]);
    }
}
