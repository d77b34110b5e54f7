//! `kompat diff FROM TO`: the gate and API changes between two versions,
//! grouped as release notes list them. Without `--decls`, Kubernetes' own
//! gates (with the gates it removed) and built-in APIs; with it, the
//! project's declarations at its own versions. With manifests and settings
//! (PATH, `--config`), only the changes that touch them. The changes themselves are
//! `kompat_engine::diff`'s; this module loads the inputs and renders.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;

use kompat_engine::api::ApiSet;
use kompat_engine::diff::{ApiChange, ApiChangeKind, Diff, GateChange, GateChangeKind, GateInput};
use kompat_project::inputs::Kind;
use kompat_project::{Error, Result};
use kompat_runtime::{FeatureSpec, Stage, Version};
use serde::Serialize;

use super::{to_json, write_or_print};
use crate::cli::{DiffArgs, DiffFormat};

/// A gate to compare, owned.
struct Gate {
    name: String,
    specs: Vec<FeatureSpec>,
    removed: Option<Version>,
    known_since: Option<Version>,
}

pub fn run(args: DiffArgs) -> Result<ExitCode> {
    let from = version_arg("FROM", &args.from)?;
    let to = version_arg("TO", &args.to)?;
    kompat_engine::diff::check_versions(from, to).map_err(|err| Error::msg(err.to_string()))?;

    let owned_apis;
    let (gates, apis, notes, subject) = if args.decls.is_empty() {
        let (gates, notes) = kubernetes_gates(from, to);
        (gates, kompat_k8s::apis(), notes, Subject::Kubernetes)
    } else {
        let decls = kompat_project::load(&args.decls)?;
        let validated = decls.validate_strict()?;
        let gates = validated
            .set
            .features()
            .iter()
            .map(|f| Gate { name: f.name.clone(), specs: f.specs.clone(), removed: None, known_since: None })
            .collect();
        owned_apis = if decls.has_apis() { decls.api_set()? } else { ApiSet::default() };
        (gates, &owned_apis, Vec::new(), Subject::Declared)
    };
    let inputs: Vec<GateInput<'_>> = gates
        .iter()
        .map(|g| GateInput { name: &g.name, specs: &g.specs, removed: g.removed, known_since: g.known_since })
        .collect();
    let mut diff = kompat_engine::diff::diff(&inputs, apis, from, to).map_err(|err| Error::msg(err.to_string()))?;
    let mut notes = notes;
    if let Some(used) = Used::read(&args)? {
        notes.insert(0, used.filter(&mut diff));
    }
    let report = Report { subject, from, to, diff: &diff, notes: &notes };

    let text = match args.format {
        DiffFormat::Human => human(&report),
        DiffFormat::Json => to_json(&json(&report))?,
        DiffFormat::Markdown => markdown(&report),
        DiffFormat::Svg => svg(&report, &gates),
    };
    write_or_print(args.output.as_deref(), text)?;
    Ok(ExitCode::SUCCESS)
}

/// What the project's inputs use: the APIs of their Kubernetes objects and
/// the gates their settings set.
#[derive(Debug, Default)]
struct Used {
    /// (group, version, kind) of every object.
    apis: BTreeSet<(String, String, String)>,
    gates: BTreeSet<String>,
}

impl Used {
    /// The manifests and settings of PATH and of `--config`'s `decls`;
    /// `None` when neither names an input.
    fn read(args: &DiffArgs) -> Result<Option<Used>> {
        let config = args.config.as_deref().map(kompat_project::Config::load).transpose()?;
        let configured = config.as_ref().map(|c| c.decls.as_slice()).unwrap_or_default();
        let paths: Vec<PathBuf> = args.paths.iter().chain(configured).cloned().collect();
        if paths.is_empty() {
            return Ok(None);
        }
        let exclude = super::exclude(config.as_ref(), &[])?;
        let mut used = Used::default();
        for input in kompat_project::classify_excluding(&paths, &exclude)?.inputs {
            for object in input.manifest_objects()? {
                used.apis.insert((object.group.to_string(), object.version.to_string(), object.kind.to_string()));
            }
            if input.kind == Kind::Deployment {
                for setting in input.gate_settings()? {
                    if let Some((gate, _)) = setting.gate() {
                        used.gates.insert(gate.to_owned());
                    }
                }
            }
        }
        Ok(Some(used))
    }

    /// Whether a change to this API touches the inputs: an object uses it,
    /// or, for a new API, another version of its kind.
    fn touches_api(&self, change: &ApiChange) -> bool {
        let gvk = &change.gvk;
        self.apis.iter().any(|(group, version, kind)| {
            *group == gvk.group && *kind == gvk.kind && (*version == gvk.version || change.kind == ApiChangeKind::New)
        })
    }

    /// Keeps the changes that touch the inputs; the note that says how many.
    fn filter(&self, diff: &mut Diff) -> String {
        let all = diff.gates.len() + diff.apis.len();
        diff.gates.retain(|c| self.gates.contains(&c.name));
        diff.apis.retain(|c| self.touches_api(c));
        let kept = diff.gates.len() + diff.apis.len();
        format!(
            "{kept} of {all} changes touch the inputs (the API versions of their objects: {}; the gates their settings set: {}); the others are not listed",
            self.apis.len(),
            self.gates.len()
        )
    }
}

fn version_arg(name: &str, value: &str) -> Result<Version> {
    Version::parse_flag(value).map_err(|err| Error::msg(format!("invalid {name} version `{value}`: {err}")))
}

/// Kubernetes' gates: the newest list and the gates removed after `from`,
/// with the notes on what the data cannot tell between `from` and `to`.
fn kubernetes_gates(from: Version, to: Version) -> (Vec<Gate>, Vec<String>) {
    let removed = kompat_k8s::removed_features();
    let mut decls = kompat_k8s::features().to_vec();
    decls.extend(removed.iter().filter(|g| g.removed > from).map(|g| g.to_decl()));
    let validated = kompat_engine::validate(&decls);
    let gates: Vec<Gate> = validated
        .set
        .features()
        .iter()
        .map(|f| {
            let gone = kompat_k8s::removed_feature(&f.name);
            // A gate read from a release that declared it without versions
            // has one spec, at the last release that had it.
            let known_since = gone
                .filter(|g| f.specs.len() == 1 && f.specs[0].version == g.removed.subtract_minor(1))
                .map(|_| f.specs[0].version);
            Gate { name: f.name.clone(), specs: f.specs.clone(), removed: gone.map(|g| g.removed), known_since }
        })
        .collect();

    let mut notes = Vec::new();
    // The removal table starts one release before its first removal.
    if let Some(first) = removed.iter().map(|g| g.removed).min() {
        let earliest = first.subtract_minor(1);
        if from < earliest {
            notes.push(format!(
                "feature gates removed before Kubernetes {first} are not in kompat's data: their changes are not \
                 listed"
            ));
        }
    }
    let newest = newest_kubernetes(&gates);
    if to > newest {
        notes.push(format!("Kubernetes {newest} is the newest release kompat knows: removals after it are not known"));
    }
    (gates, notes)
}

/// The newest Kubernetes release in the data: the newest spec of a gate or
/// API introduction (deprecations and removals may be planned for later).
fn newest_kubernetes(gates: &[Gate]) -> Version {
    let specs = gates.iter().flat_map(|g| g.specs.iter().map(|s| s.version));
    let apis = kompat_k8s::apis().apis().iter().map(|a| a.lifecycle.introduced);
    specs.chain(apis).max().unwrap_or(Version::new(1, 0))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Subject {
    Kubernetes,
    Declared,
}

struct Report<'a> {
    subject: Subject,
    from: Version,
    to: Version,
    diff: &'a Diff,
    notes: &'a [String],
}

impl Report<'_> {
    /// `Kubernetes 1.24 to 1.25` or `1.2 to 1.3`.
    fn range(&self) -> String {
        match self.subject {
            Subject::Kubernetes => format!("Kubernetes {} to {}", self.from, self.to),
            Subject::Declared => format!("{} to {}", self.from, self.to),
        }
    }

    fn is_empty(&self) -> bool {
        self.diff.gates.is_empty() && self.diff.apis.is_empty()
    }
}

fn gate_heading(kind: GateChangeKind) -> &'static str {
    match kind {
        GateChangeKind::Removed => "Feature gates removed",
        GateChangeKind::DefaultOn => "Feature gates now on by default",
        GateChangeKind::DefaultOff => "Feature gates now off by default",
        GateChangeKind::Locked => "Feature gates locked to their default",
        GateChangeKind::Deprecated => "Feature gates deprecated",
        GateChangeKind::StageChanged => "Feature gates changing stage",
        GateChangeKind::Added => "New feature gates",
    }
}

fn api_heading(kind: ApiChangeKind) -> &'static str {
    match kind {
        ApiChangeKind::Removed => "APIs no longer served",
        ApiChangeKind::Deprecated => "APIs deprecated",
        ApiChangeKind::New => "New APIs",
    }
}

/// `Beta, on by default` / `GA, locked to true`.
fn state(spec: &FeatureSpec) -> String {
    if spec.lock_to_default {
        format!("{}, locked to {}", spec.stage.name(), spec.default)
    } else {
        format!("{}, {} by default", spec.stage.name(), if spec.default { "on" } else { "off" })
    }
}

/// What a gate change says after the gate's name.
fn gate_detail(change: &GateChange) -> String {
    let after = change.after.as_ref();
    match change.kind {
        GateChangeKind::Removed => format!("was {}", state(&change.before)),
        GateChangeKind::StageChanged => match after {
            Some(after) => format!("{} to {}", change.before.stage.name(), state(after)),
            None => String::new(),
        },
        _ => after.map_or_else(String::new, state),
    }
}

/// What an API change says after the API's name.
fn api_detail(change: &ApiChange) -> String {
    match &change.replacement {
        Some(replacement) if change.kind != ApiChangeKind::New => format!("use {replacement}"),
        _ => String::new(),
    }
}

/// Groups the changes by kind, keeping each kind's order.
fn grouped<T, K: Ord + Copy>(items: &[T], kind: impl Fn(&T) -> K) -> BTreeMap<K, Vec<&T>> {
    let mut groups: BTreeMap<K, Vec<&T>> = BTreeMap::new();
    for item in items {
        groups.entry(kind(item)).or_default().push(item);
    }
    groups
}

fn human(report: &Report<'_>) -> String {
    let mut out = format!("Changes from {}\n", report.range());
    if report.is_empty() {
        out.push_str("\nNo changes.\n");
    }
    let mut section = |heading: &str, lines: Vec<(Version, String, String)>| {
        out.push_str(&format!("\n{heading}:\n"));
        let width = lines.iter().map(|(_, name, _)| name.chars().count()).max().unwrap_or(0);
        for (release, name, detail) in lines {
            let line = format!("  {release:<5}  {name:<width$}  {detail}");
            out.push_str(line.trim_end());
            out.push('\n');
        }
    };
    for (kind, changes) in grouped(&report.diff.gates, |c| c.kind) {
        section(gate_heading(kind), changes.iter().map(|c| (c.release, c.name.clone(), gate_detail(c))).collect());
    }
    for (kind, changes) in grouped(&report.diff.apis, |c| c.kind) {
        section(api_heading(kind), changes.iter().map(|c| (c.release, c.gvk.to_string(), api_detail(c))).collect());
    }
    for note in report.notes {
        out.push_str(&format!("\nnote: {note}\n"));
    }
    out
}

fn markdown(report: &Report<'_>) -> String {
    let mut out = format!("# Changes from {}\n", report.range());
    for note in report.notes {
        out.push_str(&format!("\n> **Note:** {note}.\n"));
    }
    if report.is_empty() {
        out.push_str("\nNo changes.\n");
    }
    let item = |release: Version, name: &str, detail: String| {
        let detail = if detail.is_empty() { String::new() } else { format!(": {detail}") };
        format!("- `{name}` ({release}){detail}\n")
    };
    for (kind, changes) in grouped(&report.diff.gates, |c| c.kind) {
        out.push_str(&format!("\n## {}\n\n", gate_heading(kind)));
        for c in changes {
            out.push_str(&item(c.release, &c.name, gate_detail(c)));
        }
    }
    for (kind, changes) in grouped(&report.diff.apis, |c| c.kind) {
        out.push_str(&format!("\n## {}\n\n", api_heading(kind)));
        for c in changes {
            let detail = match &c.replacement {
                Some(r) if c.kind != ApiChangeKind::New => format!("use `{r}`"),
                _ => String::new(),
            };
            out.push_str(&item(c.release, &c.gvk.to_string(), detail));
        }
    }
    out
}

/// A gate's resolved state in JSON.
#[derive(Serialize)]
struct JsonState {
    stage: &'static str,
    default: bool,
    locked: bool,
}

impl JsonState {
    fn of(spec: &FeatureSpec) -> Option<JsonState> {
        (spec.stage != Stage::PreAlpha).then(|| JsonState {
            stage: spec.stage.name(),
            default: spec.default,
            locked: spec.lock_to_default,
        })
    }
}

#[derive(Serialize)]
struct JsonGate<'a> {
    name: &'a str,
    change: &'static str,
    release: String,
    before: Option<JsonState>,
    after: Option<JsonState>,
}

#[derive(Serialize)]
struct JsonApi<'a> {
    group: &'a str,
    version: &'a str,
    kind: &'a str,
    resource: &'a str,
    change: &'static str,
    release: String,
    replacement: Option<String>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    from: String,
    to: String,
    source: &'static str,
    gates: Vec<JsonGate<'a>>,
    apis: Vec<JsonApi<'a>>,
    notes: &'a [String],
}

fn json<'a>(report: &'a Report<'a>) -> JsonReport<'a> {
    JsonReport {
        from: report.from.to_string(),
        to: report.to.to_string(),
        source: match report.subject {
            Subject::Kubernetes => "kubernetes",
            Subject::Declared => "declarations",
        },
        gates: report
            .diff
            .gates
            .iter()
            .map(|c| JsonGate {
                name: &c.name,
                change: c.kind.name(),
                release: c.release.to_string(),
                before: JsonState::of(&c.before),
                after: c.after.as_ref().and_then(JsonState::of),
            })
            .collect(),
        apis: report
            .diff
            .apis
            .iter()
            .map(|c| JsonApi {
                group: &c.gvk.group,
                version: &c.gvk.version,
                kind: &c.gvk.kind,
                resource: &c.resource,
                change: c.kind.name(),
                release: c.release.to_string(),
                replacement: c.replacement.as_ref().map(ToString::to_string),
            })
            .collect(),
        notes: report.notes,
    }
}

/// The gates that changed, one row each, one column per release from FROM
/// to TO (`kompat_gen::svg`'s timeline), TO emphasised.
fn svg(report: &Report<'_>, gates: &[Gate]) -> String {
    use kompat_gen::svg::{gate_cell, render_timeline, Cell, LegendEntry, Row, RowGroup, Timeline, Tone};
    let releases: Vec<Version> = report.from.range_to(report.to).collect();
    let mut changed: Vec<&str> = report.diff.gates.iter().map(|c| c.name.as_str()).collect();
    changed.sort_unstable();
    changed.dedup();
    let rows: Vec<Row> = changed
        .iter()
        .filter_map(|name| gates.iter().find(|g| g.name == *name))
        .map(|gate| Row {
            label: gate.name.clone(),
            cells: releases
                .iter()
                .map(|&release| match gate.removed {
                    Some(removed) if removed <= release => Cell::new(Tone::Removed, "removed"),
                    _ => gate_cell(&kompat_runtime::spec_at(&gate.specs, release, None)),
                })
                .collect(),
        })
        .collect();
    let legend = |sample: Cell, meaning: &str| LegendEntry { sample, meaning: meaning.to_owned() };
    render_timeline(&Timeline {
        id: "kompat-diff".to_owned(),
        title: format!("Feature gates that changed from {}", report.range()),
        description: format!(
            "One row per feature gate that changed between {} and {} ({} in all), one column per release. Each \
             cell names the gate's stage at that release (α alpha, β beta, GA, dep deprecated) and its default (on \
             or off; off is also drawn with a dashed outline); a gate locked to its default says locked, a gate \
             removed says removed. Empty cells: the gate does not exist yet.",
            report.from,
            report.to,
            rows.len()
        ),
        comments: Vec::new(),
        columns: releases.iter().map(ToString::to_string).collect(),
        band: None,
        marked_column: releases.len().checked_sub(1),
        groups: vec![RowGroup { heading: None, rows }],
        legend: vec![
            legend(Cell::new(Tone::Alpha, "α off").dashed(true), "alpha, off by default"),
            legend(Cell::new(Tone::Beta, "β on"), "beta, on by default"),
            legend(Cell::new(Tone::Ga, "GA on").note("locked"), "GA, locked to its default"),
            legend(Cell::new(Tone::Deprecated, "dep off").dashed(true), "deprecated"),
            legend(Cell::new(Tone::Removed, "removed"), "removed"),
        ],
    })
}
