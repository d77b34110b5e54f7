//! Kubernetes' feature gates that a release removed: for each gate that some
//! release's Go feature files declare and the newest release does not, the
//! release that removed it and its last versioned specs.
//!
//! [`removed_gates`] computes them from the gate lists of consecutive
//! releases, [`render`] writes the checked-in table
//! (`data/removed-features.toml`) and [`parse`] reads it back. Text in,
//! values out: the `cargo xtask k8s-removed-features` command reads the releases.

use std::collections::BTreeMap;
use std::fmt;

use kompat_engine::{FeatureDecl, SpecDecl};
use kompat_formats::ParseError;
use kompat_runtime::{Stage, Version, VersionLit};
use kompat_span::Span;
use serde::Deserialize;
use toml::Spanned;

/// One release's gates, as its Go feature files declare them.
#[derive(Debug, Clone)]
pub struct Release {
    /// The release (major.minor).
    pub version: Version,
    /// Where the gates were read from, for the table's header
    /// (`k8s.io/kubernetes@v1.34.7`).
    pub source: String,
    pub features: Vec<FeatureDecl>,
}

/// A gate a Kubernetes release removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedGate {
    pub name: String,
    /// The first release without the gate.
    pub removed: Version,
    /// The gate's specs in the last release that had it (one spec at that
    /// release when it was declared in an unversioned map there).
    pub specs: Vec<SpecDecl>,
}

impl RemovedGate {
    /// The gate's last state: `GA, locked to true since 1.32`.
    pub fn last_state(&self) -> String {
        let Some(last) = self.specs.last() else { return "no specs".to_owned() };
        let since = last.version.as_ref().map_or_else(String::new, |v| format!(" since {v}"));
        let stage = last.stage.name();
        if last.lock_to_default {
            format!("{stage}, locked to {}{since}", last.default)
        } else {
            let on = if last.default { "on" } else { "off" };
            format!("{stage}, {on} by default{since}")
        }
    }

    /// The gate as a declaration with its last specs (what a release before
    /// the removal accepts).
    pub fn to_decl(&self) -> FeatureDecl {
        FeatureDecl { name: self.name.clone(), specs: self.specs.clone(), ..FeatureDecl::default() }
    }
}

impl fmt::Display for RemovedGate {
    /// `feature gate "X" was removed in Kubernetes 1.34 (last: GA, locked to true since 1.32)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "feature gate {:?} was removed in Kubernetes {} (last: {})",
            self.name,
            self.removed,
            self.last_state()
        )
    }
}

/// Adds a release's gates from unversioned `FeatureSpec` maps (how
/// Kubernetes declared most gates before 1.32; one spec each, at the release)
/// to its versioned ones: a gate in a versioned map keeps its versioned specs,
/// a gate in several unversioned maps is added once. Two unversioned
/// declarations of a gate with different specs are an error naming it
/// (Kubernetes' feature gate refuses to register them both).
pub fn add_unversioned(features: &mut Vec<FeatureDecl>, unversioned: Vec<FeatureDecl>) -> Result<(), String> {
    let versioned: std::collections::HashSet<String> = features.iter().map(|f| f.name.clone()).collect();
    let mut added: BTreeMap<String, Vec<SpecDecl>> = BTreeMap::new();
    for feature in unversioned {
        if versioned.contains(&feature.name) {
            continue;
        }
        match added.get(&feature.name) {
            Some(specs) if *specs != feature.specs => return Err(feature.name),
            Some(_) => {}
            None => {
                added.insert(feature.name.clone(), feature.specs.clone());
                features.push(feature);
            }
        }
    }
    Ok(())
}

/// Why the releases cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReleasesProblem {
    /// No release, or only one: nothing can have been removed.
    TooFew,
    /// The same minor twice.
    Duplicate(Version),
    /// A minor missing between two given ones: a gate last seen before the
    /// gap could have been removed in any release of it.
    Gap { after: Version, next: Version },
}

impl fmt::Display for ReleasesProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReleasesProblem::TooFew => write!(f, "at least two releases are needed to find removed gates"),
            ReleasesProblem::Duplicate(v) => write!(f, "release {v} is given twice"),
            ReleasesProblem::Gap { after, next } => write!(
                f,
                "releases {after} and {next} are not consecutive: every minor release in between is needed to tell when a gate was removed"
            ),
        }
    }
}

/// The gates that some release declares and the newest does not, sorted by
/// name: each removed in the release after the last one that has it, with
/// the specs it had there. The releases must be consecutive minors (in any
/// order); the newest is the reference list.
pub fn removed_gates(releases: &[Release]) -> Result<Vec<RemovedGate>, ReleasesProblem> {
    let mut sorted: Vec<&Release> = releases.iter().collect();
    sorted.sort_by_key(|r| r.version);
    if sorted.len() < 2 {
        return Err(ReleasesProblem::TooFew);
    }
    for pair in sorted.windows(2) {
        let (a, b) = (pair[0].version, pair[1].version);
        if a == b {
            return Err(ReleasesProblem::Duplicate(a));
        }
        if a.add_minor(1) != b {
            return Err(ReleasesProblem::Gap { after: a, next: b });
        }
    }
    // Last appearance of every gate: (index of the release, its specs).
    let mut last: BTreeMap<&str, (usize, &[SpecDecl])> = BTreeMap::new();
    for (idx, release) in sorted.iter().enumerate() {
        for feature in &release.features {
            last.insert(&feature.name, (idx, &feature.specs));
        }
    }
    let newest = sorted.len() - 1;
    Ok(last
        .into_iter()
        .filter(|(_, (idx, _))| *idx < newest)
        .map(|(name, (idx, specs))| RemovedGate {
            name: name.to_owned(),
            removed: sorted[idx + 1].version,
            specs: specs.to_vec(),
        })
        .collect())
}

/// The checked-in table: an `@generated` header naming each release read,
/// then one `[[removed]]` entry per gate.
pub fn render(releases: &[Release], gates: &[RemovedGate]) -> String {
    let mut sorted: Vec<&Release> = releases.iter().collect();
    sorted.sort_by_key(|r| r.version);
    let mut out = String::from(
        "# @generated by `cargo xtask k8s-removed-features` from Kubernetes' feature lists\n\
         # (versioned_feature_list.yaml) or Go feature files (the `featuregate.VersionedSpecs` maps\n\
         # of k8s.io/kubernetes pkg/features and the staging modules, and their unversioned\n\
         # `featuregate.FeatureSpec` maps, each spec taken as the state at that release), read\n\
         # release by release; do not edit by hand. scripts/gen-k8s-removed-features regenerates\n\
         # it from kubernetes/kubernetes at its release tags. A gate is listed when one of the\n\
         # releases below declares it and the newest does not: `removed` is the first one\n\
         # without it, `specs` its specs in the last one that had it.\n",
    );
    for release in &sorted {
        out.push_str(&format!(
            "# release {}: {} gates ({})\n",
            release.version,
            release.features.len(),
            release.source
        ));
    }
    out.push_str(&format!("# {} removed gates.\n", gates.len()));
    out.push_str(&render_gates(gates));
    out
}

/// The table's entries, without the header: one `[[removed]]` per gate,
/// each preceded by an empty line.
pub fn render_gates(gates: &[RemovedGate]) -> String {
    let mut out = String::new();
    for gate in gates {
        out.push_str("\n[[removed]]\n");
        out.push_str(&format!("name = {}\n", toml::Value::String(gate.name.clone())));
        out.push_str(&format!("removed = \"{}\"\n", gate.removed));
        out.push_str(&kompat_formats::render_specs_toml(&gate.specs));
    }
    out
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableRow {
    #[serde(default)]
    removed: Vec<GateRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GateRow {
    name: String,
    removed: Spanned<String>,
    specs: Vec<SpecRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecRow {
    version: Option<Spanned<String>>,
    stage: Spanned<String>,
    default: bool,
    #[serde(rename = "lockToDefault", default)]
    lock_to_default: bool,
    #[serde(rename = "minCompatibilityVersion")]
    min_compatibility_version: Option<Spanned<String>>,
}

fn at<T>(value: &Spanned<T>, message: String) -> ParseError {
    ParseError::at(Span::new(value.span().start, value.span().end), message)
}

/// Reads a table that [`render`] wrote; every error is located (the table
/// is generated, so an error points at a hand edit).
pub fn parse(text: &str) -> Result<Vec<RemovedGate>, Vec<ParseError>> {
    let table: TableRow = toml::from_str(text).map_err(|err| {
        let span = err.span().map_or(Span::new(0, 0), |r| Span::new(r.start, r.end));
        vec![ParseError::at(span, err.message().to_owned())]
    })?;
    let mut errors = Vec::new();
    let mut gates = Vec::new();
    for row in table.removed {
        let version_lit =
            |value: &Spanned<String>, errors: &mut Vec<ParseError>| match VersionLit::parse(value.get_ref()) {
                Ok(v) => Some(v),
                Err(err) => {
                    errors.push(at(value, format!("removed gate {}: {err}", row.name)));
                    None
                }
            };
        let removed = match Version::parse(row.removed.get_ref()) {
            Ok(v) => Some(v),
            Err(err) => {
                errors.push(at(&row.removed, format!("removed gate {}: {err}", row.name)));
                None
            }
        };
        let mut specs = Vec::new();
        for spec in &row.specs {
            let version = spec.version.as_ref().map(|v| version_lit(v, &mut errors));
            let mcv = spec.min_compatibility_version.as_ref().map(|v| version_lit(v, &mut errors));
            let stage = Stage::from_name(spec.stage.get_ref());
            if stage.is_none() {
                errors.push(at(
                    &spec.stage,
                    format!("removed gate {}: unknown stage {:?}", row.name, spec.stage.get_ref()),
                ));
            }
            if let (Some(stage), Some(version), Some(min_compatibility_version)) =
                (stage, version.map_or(Some(None), |v| v.map(Some)), mcv.map_or(Some(None), |v| v.map(Some)))
            {
                specs.push(SpecDecl {
                    version,
                    default: spec.default,
                    lock_to_default: spec.lock_to_default,
                    stage,
                    min_compatibility_version,
                });
            }
        }
        if let Some(removed) = removed {
            gates.push(RemovedGate { name: row.name, removed, specs });
        }
    }
    if errors.is_empty() {
        Ok(gates)
    } else {
        Err(errors)
    }
}
