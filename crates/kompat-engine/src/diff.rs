//! What changed between two versions, as release notes list it: for feature
//! gates, the gates added, whose stage changed, that were deprecated, whose
//! default flipped on or off, that were locked to their default and that
//! were removed; for APIs, those newly served, no longer served and newly
//! deprecated. Every change carries the release (a minor in `(from, to]`)
//! where it happened.
//!
//! Gates are resolved release by release with [`spec_at`] (min-compatibility
//! one minor below, as a server upgraded one minor at a time runs); APIs are
//! what [`served_apis`] serves with default flags at each release, so an API
//! off by default is neither new nor removed.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use kompat_runtime::feature::{spec_at, FeatureSpec, Stage};
use kompat_runtime::version::Version;

use crate::api::{served_apis, ApiSet, ServeError, ServeOptions};
use kompat_runtime::GroupVersionKind;

/// One gate to compare: its completed specs and, when it was removed, the
/// first release without it.
#[derive(Debug, Clone, Copy)]
pub struct GateInput<'a> {
    pub name: &'a str,
    pub specs: &'a [FeatureSpec],
    pub removed: Option<Version>,
    /// The release from which the specs are known: a gate read from a
    /// release that declared it without versions has one spec, at that
    /// release, whatever it was before. Changes up to and including it are
    /// not reported.
    pub known_since: Option<Version>,
}

/// What happened to a gate. The order is the order of the release notes'
/// sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GateChangeKind {
    /// The gate no longer exists.
    Removed,
    /// Now enabled by default.
    DefaultOn,
    /// Now disabled by default.
    DefaultOff,
    /// Now locked to its default.
    Locked,
    /// Now in the `Deprecated` stage.
    Deprecated,
    /// Its stage changed (other than to `Deprecated`): `Alpha` to `Beta`,
    /// `Beta` to `GA`, ...
    StageChanged,
    /// The gate appeared.
    Added,
}

impl GateChangeKind {
    /// Every kind, in the order of the release notes' sections.
    pub const ALL: [GateChangeKind; 7] = [
        GateChangeKind::Removed,
        GateChangeKind::DefaultOn,
        GateChangeKind::DefaultOff,
        GateChangeKind::Locked,
        GateChangeKind::Deprecated,
        GateChangeKind::StageChanged,
        GateChangeKind::Added,
    ];

    /// The stable name used in machine output (`default-on`, ...).
    pub fn name(self) -> &'static str {
        match self {
            GateChangeKind::Removed => "removed",
            GateChangeKind::DefaultOn => "default-on",
            GateChangeKind::DefaultOff => "default-off",
            GateChangeKind::Locked => "locked",
            GateChangeKind::Deprecated => "deprecated",
            GateChangeKind::StageChanged => "stage-changed",
            GateChangeKind::Added => "added",
        }
    }
}

/// One change of one gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GateChange {
    pub name: String,
    pub kind: GateChangeKind,
    /// The release where it happened.
    pub release: Version,
    /// The gate one release before ([`FeatureSpec::PRE_ALPHA`] for a gate
    /// added).
    pub before: FeatureSpec,
    /// The gate at the release; `None` for a gate removed.
    pub after: Option<FeatureSpec>,
}

/// What happened to an API (a group, version and kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ApiChangeKind {
    /// No longer served.
    Removed,
    /// Newly deprecated (and served).
    Deprecated,
    /// Newly served.
    New,
}

impl ApiChangeKind {
    /// Every kind, in the order of the release notes' sections.
    pub const ALL: [ApiChangeKind; 3] = [ApiChangeKind::Removed, ApiChangeKind::Deprecated, ApiChangeKind::New];

    /// The stable name used in machine output.
    pub fn name(self) -> &'static str {
        match self {
            ApiChangeKind::Removed => "removed",
            ApiChangeKind::Deprecated => "deprecated",
            ApiChangeKind::New => "new",
        }
    }
}

/// One change of one API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiChange {
    pub gvk: GroupVersionKind,
    pub resource: String,
    pub kind: ApiChangeKind,
    /// The release where it happened.
    pub release: Version,
    /// The API to move to, when the declarations name one.
    pub replacement: Option<GroupVersionKind>,
}

/// The changes between two versions, each list sorted by kind, release,
/// then name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Diff {
    pub gates: Vec<GateChange>,
    pub apis: Vec<ApiChange>,
}

/// Why two versions cannot be compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiffError {
    /// `from` is not older than `to`.
    NotAscending { from: Version, to: Version },
    /// The versions are in different major versions (releases step by minor).
    MajorDiffers { from: Version, to: Version },
    /// The API server would not start at a release.
    Serve { release: Version, error: ServeError },
}

impl fmt::Display for DiffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffError::NotAscending { from, to } => {
                write!(f, "FROM ({from}) must be older than TO ({to})")
            }
            DiffError::MajorDiffers { from, to } => {
                write!(f, "FROM ({from}) and TO ({to}) must have the same major version")
            }
            DiffError::Serve { release, error } => write!(f, "at {release}: {error}"),
        }
    }
}

impl std::error::Error for DiffError {}

/// Checks that `from` is older than `to`, in the same major version.
pub fn check_versions(from: Version, to: Version) -> Result<(), DiffError> {
    if from >= to {
        Err(DiffError::NotAscending { from, to })
    } else if from.major != to.major {
        Err(DiffError::MajorDiffers { from, to })
    } else {
        Ok(())
    }
}

/// The gate and API changes between `from` and `to`.
pub fn diff(gates: &[GateInput<'_>], apis: &ApiSet, from: Version, to: Version) -> Result<Diff, DiffError> {
    check_versions(from, to)?;
    Ok(Diff { gates: diff_gates(gates, from, to)?, apis: diff_apis(apis, from, to)? })
}

/// The gate changes between `from` and `to`, sorted by kind, release, name.
pub fn diff_gates(gates: &[GateInput<'_>], from: Version, to: Version) -> Result<Vec<GateChange>, DiffError> {
    check_versions(from, to)?;
    let mut out = Vec::new();
    for gate in gates {
        if gate.removed.is_some_and(|removed| removed <= from) {
            continue;
        }
        let mut before = spec_at(gate.specs, from, None);
        for release in from.add_minor(1).range_to(to) {
            if gate.removed.is_some_and(|removed| removed <= release) {
                if before.stage != Stage::PreAlpha {
                    out.push(change(gate.name, GateChangeKind::Removed, release, before, None));
                }
                break;
            }
            let after = spec_at(gate.specs, release, None);
            let known = gate.known_since.is_none_or(|since| release > since);
            for kind in step_kinds(&before, &after).into_iter().filter(|_| known) {
                out.push(change(gate.name, kind, release, before, Some(after)));
            }
            before = after;
        }
    }
    out.sort_by(|a, b| (a.kind, a.release, &a.name).cmp(&(b.kind, b.release, &b.name)));
    Ok(out)
}

fn change(
    name: &str,
    kind: GateChangeKind,
    release: Version,
    before: FeatureSpec,
    after: Option<FeatureSpec>,
) -> GateChange {
    GateChange { name: name.to_owned(), kind, release, before, after }
}

/// The kinds of change from one release's spec to the next's.
fn step_kinds(before: &FeatureSpec, after: &FeatureSpec) -> Vec<GateChangeKind> {
    let mut kinds = Vec::new();
    if before.stage == Stage::PreAlpha {
        if after.stage != Stage::PreAlpha {
            kinds.push(GateChangeKind::Added);
        }
        return kinds;
    }
    if after.stage == Stage::PreAlpha {
        // The specs never go back to PreAlpha once a gate exists; nothing
        // to report if a declaration does.
        return kinds;
    }
    if before.stage != after.stage {
        kinds.push(if after.stage == Stage::Deprecated {
            GateChangeKind::Deprecated
        } else {
            GateChangeKind::StageChanged
        });
    }
    if before.default != after.default {
        kinds.push(if after.default { GateChangeKind::DefaultOn } else { GateChangeKind::DefaultOff });
    }
    if !before.lock_to_default && after.lock_to_default {
        kinds.push(GateChangeKind::Locked);
    }
    kinds
}

/// The API changes between `from` and `to` (APIs served with default flags,
/// binary and emulation version at each release), sorted by kind, release,
/// then group, version, kind.
pub fn diff_apis(set: &ApiSet, from: Version, to: Version) -> Result<Vec<ApiChange>, DiffError> {
    check_versions(from, to)?;
    let releases: Vec<Version> = from.range_to(to).collect();
    let index: HashMap<(&str, &str, &str), usize> =
        set.apis().iter().enumerate().map(|(idx, a)| ((a.group(), a.version(), a.resource.as_str()), idx)).collect();
    let served: Vec<BTreeSet<usize>> = releases
        .iter()
        .map(|&release| served_at(set, &index, release).map_err(|error| DiffError::Serve { release, error }))
        .collect::<Result<_, _>>()?;
    let (Some(first), Some(last)) = (served.first(), served.last()) else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for (idx, api) in set.apis().iter().enumerate() {
        let entry = |kind, release| ApiChange {
            gvk: api.gvk.clone(),
            resource: api.resource.clone(),
            kind,
            release,
            replacement: api.replacement.clone(),
        };
        let at_from = first.contains(&idx);
        let at_to = last.contains(&idx);
        if at_from != at_to {
            // The release from which the state of `to` holds to the end.
            let start = served.iter().rposition(|s| s.contains(&idx) != at_to).map_or(0, |p| p + 1);
            let kind = if at_to { ApiChangeKind::New } else { ApiChangeKind::Removed };
            out.push(entry(kind, releases[start]));
        }
        if let Some(deprecated) = api.lifecycle.deprecated.filter(|&d| d > from && d <= to) {
            let step = releases.iter().position(|&r| r == deprecated);
            if step.is_some_and(|s| served[s].contains(&idx)) {
                out.push(entry(ApiChangeKind::Deprecated, deprecated));
            }
        }
    }
    out.sort_by(|a, b| (a.kind, a.release, &a.gvk).cmp(&(b.kind, b.release, &b.gvk)));
    Ok(out)
}

/// The APIs (indices into `set.apis()`) served at `release` with default
/// flags.
fn served_at(
    set: &ApiSet,
    index: &HashMap<(&str, &str, &str), usize>,
    release: Version,
) -> Result<BTreeSet<usize>, ServeError> {
    let served = served_apis(set, &ServeOptions::new(release))?;
    Ok(served
        .resources
        .iter()
        .filter_map(|r| index.get(&(r.group.as_str(), r.version.as_str(), r.resource.as_str())).copied())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ApiConfig, ApiDecl};

    fn v(text: &str) -> Version {
        Version::parse(text).unwrap()
    }

    /// Specs from `1.28 Alpha off; 1.30 Beta on; 1.32 GA on locked`.
    fn specs(text: &str) -> Vec<FeatureSpec> {
        text.split(';')
            .map(|spec| {
                let words: Vec<&str> = spec.split_whitespace().collect();
                FeatureSpec {
                    version: v(words[0]),
                    stage: Stage::from_name(words[1]).unwrap(),
                    default: words[2] == "on",
                    lock_to_default: words.get(3) == Some(&"locked"),
                    min_compatibility_version: None,
                }
            })
            .collect()
    }

    /// One line per change: `RELEASE KIND NAME`.
    fn render_gates(changes: &[GateChange]) -> String {
        changes.iter().map(|c| format!("{} {} {}\n", c.release, c.kind.name(), c.name)).collect()
    }

    /// Gates as `Name [removed X] [known Y]: specs`, one a line; `from..to`.
    #[track_caller]
    fn check_gates(gates: &str, range: &str, expected: &str) {
        type Parsed = (String, Vec<FeatureSpec>, Option<Version>, Option<Version>);
        let parsed: Vec<Parsed> = gates
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let (head, rest) = line.split_once(':').unwrap();
                let (head, known_since) = match head.trim().split_once(" known ") {
                    Some((head, since)) => (head, Some(v(since))),
                    None => (head.trim(), None),
                };
                let (name, removed) = match head.split_once(" removed ") {
                    Some((name, removed)) => (name, Some(v(removed))),
                    None => (head, None),
                };
                (name.to_owned(), specs(rest), removed, known_since)
            })
            .collect();
        let inputs: Vec<GateInput<'_>> = parsed
            .iter()
            .map(|(name, specs, removed, known_since)| GateInput {
                name,
                specs,
                removed: *removed,
                known_since: *known_since,
            })
            .collect();
        let (from, to) = range.split_once("..").unwrap();
        let changes = diff_gates(&inputs, v(from), v(to)).unwrap();
        assert_eq!(render_gates(&changes), expected);
    }

    #[test]
    fn gate_changes() {
        // Nothing happens inside the range.
        check_gates("A: 1.20 Alpha off", "1.25..1.26", "");
        // Added in the range, at its first release.
        check_gates("A: 1.26 Alpha off", "1.25..1.30", "1.26 added A\n");
        // Added exactly at FROM: not a change.
        check_gates("A: 1.25 Alpha off", "1.25..1.30", "");
        // Added exactly at TO: a change.
        check_gates("A: 1.30 Alpha off", "1.25..1.30", "1.30 added A\n");
        // Beta on by default: a stage change and a default flip, same release.
        check_gates("A: 1.20 Alpha off; 1.27 Beta on", "1.25..1.30", "1.27 default-on A\n1.27 stage-changed A\n");
        // Beta off by default: a stage change only.
        check_gates("A: 1.20 Alpha off; 1.27 Beta off", "1.25..1.30", "1.27 stage-changed A\n");
        // GA and locked.
        check_gates("A: 1.20 Beta on; 1.28 GA on locked", "1.25..1.30", "1.28 locked A\n1.28 stage-changed A\n");
        // Each step of a gate is its own change.
        check_gates(
            "A: 1.26 Alpha off; 1.28 Beta on; 1.30 GA on locked",
            "1.25..1.30",
            "1.28 default-on A\n1.30 locked A\n1.28 stage-changed A\n1.30 stage-changed A\n1.26 added A\n",
        );
        // Deprecated and off.
        check_gates("A: 1.20 Beta on; 1.29 Deprecated off", "1.25..1.30", "1.29 default-off A\n1.29 deprecated A\n");
        // Removed in the range, after its last state.
        check_gates("A removed 1.29: 1.20 GA on locked", "1.25..1.30", "1.29 removed A\n");
        // Removed at or before FROM: not in the diff at all.
        check_gates("A removed 1.25: 1.20 GA on locked", "1.25..1.30", "");
        // Removed after TO: still there.
        check_gates("A removed 1.31: 1.20 GA on locked", "1.25..1.30", "");
        // Changes after the removal are not reported.
        check_gates("A removed 1.27: 1.20 Beta on; 1.28 GA on locked", "1.25..1.30", "1.27 removed A\n");
        // Specs known only from a release: nothing up to it is reported.
        check_gates("A removed 1.31 known 1.30: 1.30 GA on locked", "1.25..1.31", "1.31 removed A\n");
        check_gates(
            "A known 1.27: 1.27 Beta on; 1.29 GA on locked",
            "1.25..1.30",
            "1.29 locked A\n1.29 stage-changed A\n",
        );
        // Sorted by kind, then release, then name.
        check_gates(
            "B: 1.27 Alpha off\nA: 1.27 Alpha off\nC: 1.26 Alpha off\nD removed 1.30: 1.20 GA on locked",
            "1.25..1.30",
            "1.30 removed D\n1.26 added C\n1.27 added A\n1.27 added B\n",
        );
    }

    /// APIs as `group/version/Kind resource introduced [dep=X] [rem=Y] [on|off]`.
    fn api_set(text: &str) -> ApiSet {
        let apis = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let gvk: Vec<&str> = words[0].split('/').collect();
                let mut decl = ApiDecl {
                    group: gvk[0].to_owned(),
                    version: gvk[1].to_owned(),
                    kind: gvk[2].to_owned(),
                    resource: words[1].to_owned(),
                    introduced: Some(v(words[2])),
                    ..ApiDecl::default()
                };
                for word in &words[3..] {
                    match word.split_once('=') {
                        Some(("dep", x)) => decl.deprecated = Some(v(x)),
                        Some(("rem", x)) => decl.removed = Some(v(x)),
                        _ => decl.enabled_by_default = Some(*word == "on"),
                    }
                }
                decl
            })
            .collect();
        ApiSet::build(&ApiConfig { apis, ..ApiConfig::default() }).unwrap()
    }

    #[track_caller]
    fn check_apis(apis: &str, range: &str, expected: &str) {
        let set = api_set(apis);
        let (from, to) = range.split_once("..").unwrap();
        let changes = diff_apis(&set, v(from), v(to)).unwrap();
        let text: String = changes.iter().map(|c| format!("{} {} {}\n", c.release, c.kind.name(), c.gvk)).collect();
        assert_eq!(text, expected);
    }

    #[test]
    fn api_changes() {
        // Served throughout, never deprecated.
        check_apis("apps/v1/Deployment deployments 1.9", "1.25..1.30", "");
        // Introduced in the range.
        check_apis("apps/v1/Deployment deployments 1.27", "1.25..1.30", "1.27 new apps/v1/Deployment\n");
        // Removed in the range (deprecated before it).
        check_apis(
            "batch/v1beta1/CronJob cronjobs 1.8 dep=1.21 rem=1.25 on",
            "1.24..1.25",
            "1.25 removed batch/v1beta1/CronJob\n",
        );
        // Deprecated, then removed, both in the range.
        check_apis(
            "batch/v1beta1/CronJob cronjobs 1.8 dep=1.21 rem=1.25 on",
            "1.20..1.26",
            "1.25 removed batch/v1beta1/CronJob\n1.21 deprecated batch/v1beta1/CronJob\n",
        );
        // A beta API off by default is never served: no change at all.
        check_apis("example.com/v1beta1/Widget widgets 1.26 dep=1.28 rem=1.30 off", "1.25..1.31", "");
        // Deprecated exactly at FROM: not new.
        check_apis("apps/v1/Deployment deployments 1.9 dep=1.25", "1.25..1.30", "");
        // Removed at FROM: nothing.
        check_apis("apps/v1/Deployment deployments 1.9 dep=1.20 rem=1.25", "1.25..1.30", "");
        // Introduced and removed inside the range: neither at FROM nor at TO.
        check_apis("apps/v1/Deployment deployments 1.26 rem=1.28", "1.25..1.30", "");
        // Sorted by kind, release, then group/version/kind.
        check_apis(
            "b.example/v1/B bs 1.27\na.example/v1/A as 1.27\nc.example/v1/C cs 1.26",
            "1.25..1.30",
            "1.26 new c.example/v1/C\n1.27 new a.example/v1/A\n1.27 new b.example/v1/B\n",
        );
    }

    #[test]
    fn versions_are_checked() {
        assert_eq!(
            diff_gates(&[], v("1.30"), v("1.30")).map_err(|e| e.to_string()),
            Err("FROM (1.30) must be older than TO (1.30)".to_owned())
        );
        assert_eq!(
            diff_gates(&[], v("1.31"), v("1.30")).map_err(|e| e.to_string()),
            Err("FROM (1.31) must be older than TO (1.30)".to_owned())
        );
        assert_eq!(
            diff_apis(&ApiSet::default(), v("1.30"), v("2.1")).map_err(|e| e.to_string()),
            Err("FROM (1.30) and TO (2.1) must have the same major version".to_owned())
        );
    }
}
