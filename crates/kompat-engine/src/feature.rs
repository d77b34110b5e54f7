//! Feature declarations as written (before validation), the stored-before-written
//! markers of upgrade plans, and Go's formatting of spec lists in registration
//! messages. The validated model (stages, specs, resolution) is
//! `kompat-runtime`'s (`kompat_runtime::feature`).

use kompat_runtime::feature::{FeatureSpec, Ratchet, Stage};

use kompat_runtime::version::{Version, VersionLit};

/// Formats a spec list the way Go's `%v` prints `VersionedSpecs`,
/// e.g. `[{true false BETA 1.31 <nil>}]`.
pub fn go_format_specs(specs: &[FeatureSpec]) -> String {
    let items: Vec<String> = specs
        .iter()
        .map(|s| {
            let mcv = s.min_compatibility_version.map_or_else(|| "<nil>".to_owned(), |v| v.to_string());
            format!("{{{} {} {} {} {}}}", s.default, s.lock_to_default, s.stage.runtime_str(), s.version, mcv)
        })
        .collect();
    format!("[{}]", items.join(" "))
}

/// A spec as declared, before validation: versions are literals that may be
/// missing or carry a patch component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecDecl {
    pub version: Option<VersionLit>,
    pub default: bool,
    pub lock_to_default: bool,
    pub stage: Stage,
    pub min_compatibility_version: Option<VersionLit>,
}

/// A feature as declared in a source (YAML, TOML or Rust).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FeatureDecl {
    pub name: String,
    pub specs: Vec<SpecDecl>,
    /// Features this one depends on (`AddDependencies`).
    pub dependencies: Vec<String>,
    pub description: Option<String>,
    pub ratchet: Option<Ratchet>,
}

/// Something a server stores that older readers must understand before any
/// server writes it: a CEL library, an enum value, a new field. Readers
/// tolerate it from `readable_since`; servers emulating `written_since` or
/// later write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBeforeWritten {
    pub name: String,
    /// What it is, free text (`cel-library`, `enum-value`, `field`, ...).
    pub kind: Option<String>,
    pub readable_since: Version,
    pub written_since: Version,
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

    #[test]
    fn go_formatting_of_specs() {
        let specs = [spec("1.0", Stage::GA, true, false, None), spec("1.37", Stage::Beta, true, false, Some("1.37"))];
        assert_eq!(go_format_specs(&specs), "[{true false  1.0 <nil>} {true false BETA 1.37 1.37}]");
    }
}
