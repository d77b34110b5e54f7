//! The lint engine of kompat: rules over declarations, APIs, CRD manifests,
//! Rust sources and deployment material, each declared once with a stable
//! kebab-case code, a default severity and a doc in clippy's template
//! ([`rules::all`] is the one registry); levels and allowances from
//! `kompat.toml` ([`config`]); and the run that collects every finding,
//! sorted.
//!
//! The `kompat` binary in this package parses arguments, loads the inputs and
//! renders what [`run`] returns; this library knows nothing of terminals or
//! output formats.

pub mod config;
pub mod facts;
pub mod images;
pub mod io;
pub mod rules;
pub mod sources;
#[cfg(test)]
mod test_support;

use std::path::PathBuf;

use kompat_diag::{Diagnostic, Location};
use kompat_engine::api::{storage_versions, ApiProblemKind, ApiSet, ResourceStorage, ServeOptions};
use kompat_engine::{validate, Validated};
use kompat_formats::deploy::GateSetting;
use kompat_formats::manifest::ManifestObject;
use kompat_formats::rbac::Role;
use kompat_project::{Config, Decls};
use kompat_runtime::{Version, VersionRange, WindowPolicy};

/// Everything the rules look at.
pub struct Context<'a> {
    pub decls: &'a Decls,
    pub validated: &'a Validated,
    /// The previously released declarations, when given.
    pub baseline: Option<&'a Decls>,
    pub binary: Option<Version>,
    pub window: WindowPolicy,
    pub apis: Option<&'a ApiSet>,
    /// Problems with the API declarations, located, with their kinds (`apis`
    /// holds everything well declared).
    pub api_problems: &'a [(ApiProblemKind, Diagnostic)],
    pub crds: &'a [rules::crd::CrdInput],
    /// CRDs installed in the cluster (`crds` in kompat.toml, `--crds`):
    /// custom resources are judged against them, they are not linted.
    pub cluster_crds: &'a [kompat_crd::Crd],
    /// The kinds that are CRDs (kube-rs custom resources, kinds of the CRD
    /// manifests): kube-apiserver's built-in storage rules skip them.
    pub crd_kinds: &'a rules::crd_lifecycle::CrdKinds<'a>,
    /// Where kube-apiserver stores each resource at every point of the
    /// window (with a binary version and APIs), CRD kinds left out: a CRD
    /// stores its manifest's `storage: true` version. Computed once for the
    /// storage rules.
    pub server_storage: &'a [StoragePoint],
    /// What Rust and Go sources say of gates, when some were read.
    pub code: Option<&'a sources::CodeReferences>,
    /// Gate settings found in deployment material.
    pub settings: &'a [GateSetting<Location>],
    /// The features gate settings are checked against: the declarations', or
    /// Kubernetes' own when nothing declares features ([`uses_builtin_gates`]).
    pub setting_gates: &'a Validated,
    /// Whether `setting_gates` are Kubernetes' own.
    pub builtin_gates: bool,
    /// The version components reading the settings run at: the binary
    /// version, or for Kubernetes' own gates (`builtin_gates`) the
    /// Kubernetes version (`Inputs::kubernetes`).
    pub setting_binary: Option<Version>,
    /// Kubernetes' gates at the Kubernetes version, for the settings of
    /// Kubernetes components when `setting_gates` are the project's (a kind
    /// configuration in a controller's repository): none without a
    /// Kubernetes version.
    pub kubernetes_gates: Option<(&'a Validated, Version)>,
    /// The Kubernetes manifests, checked against the target server.
    pub manifests: Option<&'a sources::manifests::Manifests<'a>>,
    /// The RBAC `Role`s and `ClusterRole`s among the manifests.
    pub roles: &'a [Role<Location>],
    /// The Kubernetes API server given on the command line, when a version
    /// is (`--runtime-config` in deployment material is checked against it).
    pub serve: Option<&'a ServeOptions>,
    /// How many Kubernetes objects the inputs hold (checked or not), but for
    /// `apiextensions.k8s.io/v1` CustomResourceDefinitions, served by every
    /// release the data covers: a CRD manifest alone needs no target version.
    pub manifest_objects: usize,
    /// The files of reference inputs: declarations the project does not own.
    pub reference: &'a [PathBuf],
    /// The charts and kustomize directories among the inputs, not rendered.
    pub unrendered: &'a Unrendered,
    /// The upgrade path this run is a step of (`--kubernetes-version A..B`),
    /// `None` for one Kubernetes release.
    pub path: Option<VersionRange>,
}

/// What of the inputs is not checked until rendered: Helm charts (whose
/// templates are not read), kustomize directories, and the partial objects
/// (patches) of those that were skipped.
#[derive(Debug, Clone, Default)]
pub struct Unrendered {
    pub charts: Vec<PathBuf>,
    pub overlays: Vec<PathBuf>,
    /// Files of kustomize directories whose CRDs are partial (patches):
    /// well-formed YAML, not complete CRDs, so not checked as CRDs.
    pub partial: Vec<PathBuf>,
    /// YAML files outside charts that do not parse and hold Go template
    /// actions: fragments a build script renders, not read.
    pub templates: Vec<PathBuf>,
    /// Renderer programs `[render]` names that were not found.
    pub missing_programs: Vec<String>,
    /// Renders that failed: each a `render-failed` finding.
    pub failed: Vec<RenderFailure>,
    /// Charts rendered without a Kubernetes version (Helm's default).
    pub without_version: Vec<PathBuf>,
}

/// A chart or kustomize directory whose render failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderFailure {
    /// The chart or kustomize directory.
    pub dir: PathBuf,
    /// Its `Chart.yaml` or kustomization file, where the finding is.
    pub file: PathBuf,
    /// The renderer, as configured (`helm`, `kubectl kustomize`).
    pub command: String,
    /// What happened (`it exited with status 1`).
    pub reason: String,
    /// The first lines of the renderer's standard error.
    pub stderr: Vec<String>,
}

impl Unrendered {
    /// Whether no chart, kustomize directory or patch is left unrendered.
    pub fn is_empty(&self) -> bool {
        self.charts.is_empty() && self.overlays.is_empty() && self.partial.is_empty()
    }

    /// The CRDs of a CRD manifest; `None` for one that is not checked as
    /// CRDs, named here for the note: a kustomize patch (`partial_ok`:
    /// well-formed YAML in a kustomize directory, not a whole CRD), or a Go
    /// template outside a chart (a fragment a build script renders, not YAML
    /// until rendered). Any other manifest that does not parse is an error.
    pub fn crds_of(
        &mut self,
        source: &kompat_project::SourceFile,
        partial_ok: bool,
    ) -> Result<Option<Vec<kompat_crd::Crd>>, kompat_project::Error> {
        self.crds_from(source, partial_ok, kompat_crd::parse_manifests(&source.text))
    }

    /// [`Unrendered::crds_of`] with the manifest parsed already
    /// ([`kompat_crd::parse_manifests`] of its text).
    pub fn crds_from(
        &mut self,
        source: &kompat_project::SourceFile,
        partial_ok: bool,
        parsed: Result<Vec<kompat_crd::Crd>, Vec<kompat_formats::ParseError>>,
    ) -> Result<Option<Vec<kompat_crd::Crd>>, kompat_project::Error> {
        match parsed {
            Ok(parsed) => Ok(Some(parsed)),
            Err(_) if partial_ok => {
                self.partial.push(source.path.clone());
                Ok(None)
            }
            Err(_) if kompat_formats::yaml::is_template(&source.text) => {
                self.templates.push(source.path.clone());
                Ok(None)
            }
            Err(errors) => Err(source.parse_errors(errors)),
        }
    }
}

/// kube-apiserver's storage decisions at one (emulation, min-compatibility)
/// point of the window.
pub struct StoragePoint {
    pub emulation: Version,
    pub min_compatibility: Version,
    pub resources: Vec<ResourceStorage>,
}

/// [`Context::server_storage`]: the storage decisions at every point of the
/// window, without the kinds that are CRDs.
fn server_storage(
    apis: Option<&ApiSet>,
    binary: Option<Version>,
    window: WindowPolicy,
    crd_kinds: &rules::crd_lifecycle::CrdKinds<'_>,
) -> Vec<StoragePoint> {
    let (Some(set), Some(binary)) = (apis, binary) else { return Vec::new() };
    window
        .points(binary)
        .into_iter()
        .map(|(emulation, min_compatibility)| {
            let mut resources = storage_versions(set, emulation, min_compatibility, Some(binary));
            resources.retain(|s| !crd_kinds.is_crd(&s.group, &s.kind));
            StoragePoint { emulation, min_compatibility, resources }
        })
        .collect()
}

impl Context<'_> {
    /// Whether feature declaration `idx` comes from a reference input.
    pub fn is_reference_feature(&self, idx: usize) -> bool {
        self.decls.source_of(idx).is_some_and(|s| self.reference.contains(&s.path))
    }
}

/// Runs every rule and returns the findings sorted by file, line, column,
/// code (findings without a file last).
pub fn run(cx: &Context<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for pass in rules::PASSES {
        if let Some(check) = pass.check {
            check(cx, &mut out);
        }
    }
    Diagnostic::sort(&mut out);
    out
}

/// What one `kompat lint` run looks at, read by the caller.
pub struct Inputs<'a> {
    pub config: Option<&'a Config>,
    pub decls: &'a Decls,
    pub baseline: Option<&'a Decls>,
    pub binary: Option<Version>,
    /// The Kubernetes version of the cluster (`--kubernetes-version`, or
    /// `[kubernetes] version` in kompat.toml; under the Kubernetes profile
    /// the binary version too): Kubernetes components' settings and
    /// Kubernetes' own gates are judged at it, never at `binary`.
    pub kubernetes: Option<Version>,
    pub window: WindowPolicy,
    pub crds: &'a [rules::crd::CrdInput],
    /// CRDs installed in the cluster (`crds` in kompat.toml, `--crds`):
    /// custom resources are judged against them, they are not linted.
    pub cluster_crds: &'a [kompat_crd::Crd],
    pub settings: &'a [GateSetting<Location>],
    /// Objects of Kubernetes manifests.
    pub manifests: &'a [ManifestObject<Location>],
    /// The RBAC `Role`s and `ClusterRole`s among them.
    pub roles: &'a [Role<Location>],
    /// The API server manifests are checked against; `None` (no target
    /// version) leaves them unchecked.
    pub serve: Option<&'a ServeOptions>,
    /// The files of reference inputs (declarations the project does not
    /// own, among `decls`): they resolve gate names, and nothing located in
    /// them is reported.
    pub reference: &'a [PathBuf],
    /// Allowances written in the YAML and JSON manifests
    /// ([`rules::inline_allow::scan`]).
    pub inline_allows: &'a [rules::inline_allow::InlineAllow],
    /// The charts and kustomize directories among the inputs, not rendered.
    pub unrendered: &'a Unrendered,
}

/// A finding an allowance suppressed, kept for the formats that show
/// suppressed results (SARIF's `suppressions`).
#[derive(Debug, Clone)]
pub struct Suppressed {
    pub diagnostic: Diagnostic,
    pub kind: SuppressionKind,
    /// The allowance's reason.
    pub justification: String,
}

/// Where the allowance that suppressed a finding is written (SARIF's
/// `suppression.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SuppressionKind {
    /// In the linted source: `#[kompat(allow(...))]`, an inline allowance in
    /// a manifest.
    InSource,
    /// Outside it: `[[lint.allow]]` in kompat.toml, the recorded-findings
    /// file.
    External,
}

/// The findings of a run and the findings allowances suppressed.
#[derive(Debug, Clone, Default)]
pub struct Linted {
    pub findings: Vec<Diagnostic>,
    pub suppressed: Vec<Suppressed>,
}

/// Whether gate settings are checked against Kubernetes' own feature gates
/// (`kompat_k8s::features()`): there are settings of gates and no declared
/// feature, as when linting a kind or kubeadm configuration alone.
pub fn uses_builtin_gates(decls: &Decls, settings: &[GateSetting<Location>]) -> bool {
    decls.features().is_empty() && settings.iter().any(|s| s.gate().is_some() && !is_other_component(s))
}

/// Whether a setting configures another program than the project's own
/// binaries and Kubernetes' components (a CSI sidecar): not judged.
pub fn is_other_component<L>(setting: &GateSetting<L>) -> bool {
    matches!(setting.component, kompat_formats::deploy::Component::Other(_))
}

/// One group of settings judged against one set of gates at one version.
pub struct SettingGroup<'a> {
    pub gates: &'a Validated,
    pub binary: Version,
    /// Whether `gates` are Kubernetes' own.
    pub builtin: bool,
    pub settings: Vec<&'a GateSetting<Location>>,
}

/// Whose gates judge a setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judge {
    /// The project's gates at the project's version.
    Project,
    /// Kubernetes' gates at the Kubernetes version.
    Kubernetes,
    /// Nobody's: another program's setting (a CSI sidecar).
    Nobody,
}

impl<'a> Context<'a> {
    /// Whose gates judge `setting`: a Kubernetes component's are judged
    /// against Kubernetes' gates (every setting is, when nothing declares
    /// features), the project's own against the project's, another
    /// program's against none. A gate the project declares, or its baseline
    /// did, is the project's wherever it is set (a project whose gates are
    /// Kubernetes' own).
    pub fn judge(&self, setting: &GateSetting<Location>) -> Judge {
        use kompat_formats::deploy::Component;
        if is_other_component(setting) {
            return Judge::Nobody;
        }
        if self.builtin_gates {
            return Judge::Kubernetes;
        }
        let projects = |name: &str| {
            self.setting_gates.set.index_of(name).is_some()
                || self.baseline.is_some_and(|b| b.features().iter().any(|f| f.name == name))
        };
        match setting.gate() {
            Some((name, _)) if setting.component == Component::Kubernetes && !projects(name) => Judge::Kubernetes,
            _ => Judge::Project,
        }
    }

    /// The settings by the gates that judge them: Kubernetes components'
    /// against Kubernetes' gates at the Kubernetes version, the project's
    /// against `setting_gates` at the project's version; other components'
    /// settings nowhere. Without the version a group needs, its settings are
    /// not judged (`missing-input` counts them).
    pub fn setting_groups(&self) -> Vec<SettingGroup<'a>> {
        let mut groups = Vec::new();
        let of = |judge: Judge| self.settings.iter().filter(|s| self.judge(s) == judge).collect::<Vec<_>>();
        if self.builtin_gates {
            if let Some(binary) = self.setting_binary {
                groups.push(SettingGroup {
                    gates: self.setting_gates,
                    binary,
                    builtin: true,
                    settings: of(Judge::Kubernetes),
                });
            }
            return groups;
        }
        if let Some(binary) = self.setting_binary {
            groups.push(SettingGroup {
                gates: self.setting_gates,
                binary,
                builtin: false,
                settings: of(Judge::Project),
            });
        }
        if let Some((gates, binary)) = self.kubernetes_gates {
            groups.push(SettingGroup { gates, binary, builtin: true, settings: of(Judge::Kubernetes) });
        }
        groups
    }

    /// The gate settings `judge` judges that are not judged for want of the
    /// version they are judged at.
    pub fn unjudged_settings(&self, judge: Judge) -> usize {
        let version = match (judge, self.builtin_gates) {
            (Judge::Nobody, _) => return 0,
            (Judge::Kubernetes, false) => self.kubernetes_gates.map(|(_, at)| at),
            (Judge::Project, true) => return 0,
            _ => self.setting_binary,
        };
        if version.is_some() {
            return 0;
        }
        self.settings.iter().filter(|s| s.gate().is_some() && self.judge(s) == judge).count()
    }
}

/// Kubernetes' gates as a release `at` accepts them: the newest list
/// (`kompat_k8s::features()`) and the gates removed after `at`, with their
/// last specs (a 1.33 kubelet still knows a gate removed in 1.34).
fn builtin_gates_at(at: Option<Version>) -> Vec<kompat_engine::FeatureDecl> {
    let mut gates = kompat_k8s::features().to_vec();
    if let Some(at) = at {
        gates.extend(kompat_k8s::removed_features().iter().filter(|g| g.removed > at).map(|g| g.to_decl()));
    }
    gates
}

/// The stack of each thread running rule passes: as the main thread's.
const RULE_STACK_BYTES: usize = 8 << 20;

/// The findings of one pass.
fn run_check(check: rules::Check, cx: &Context<'_>) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    check(cx, &mut found);
    found
}

/// `parts` joined in order, in the largest part's buffer: grown once to the
/// exact total, the parts before it moved in front of its items, those
/// after it appended. A part of hundreds of thousands of items (one pass's
/// findings, one file's objects) is neither copied nor held twice; each
/// item of the others is moved once, or twice before the largest.
pub fn concat_in_order<T>(mut parts: Vec<Vec<T>>) -> Vec<T> {
    let Some(largest) = (0..parts.len()).max_by_key(|&i| parts[i].len()) else { return Vec::new() };
    let total = parts.iter().map(Vec::len).sum::<usize>();
    let after = parts.split_off(largest + 1);
    let mut joined = parts.pop().unwrap_or_default();
    joined.reserve_exact(total - joined.len());
    let mut before = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        before.extend(part);
    }
    if !before.is_empty() {
        joined.splice(0..0, before);
    }
    for part in after {
        joined.extend(part);
    }
    joined
}

/// An `apiextensions.k8s.io/v1` CustomResourceDefinition.
fn is_v1_crd<L>(object: &ManifestObject<L>) -> bool {
    &*object.group == "apiextensions.k8s.io" && &*object.version == "v1" && &*object.kind == "CustomResourceDefinition"
}

/// Runs every rule over `inputs`, drops the findings located in reference
/// inputs, then applies `#[kompat(allow(...))]` attributes, `[lint.levels]`,
/// `[[lint.allow]]` and `[lint] require`; sorted findings.
/// Errors are input errors: an API set that cannot be built, unknown codes in
/// `[lint]`.
pub fn lint(inputs: &Inputs<'_>) -> Result<Vec<Diagnostic>, kompat_project::Error> {
    lint_with_suppressed(inputs).map(|linted| linted.findings)
}

/// [`lint`], keeping the findings that `#[kompat(allow(...))]`, inline
/// allowances in manifests and `[[lint.allow]]` in kompat.toml suppressed.
pub fn lint_with_suppressed(inputs: &Inputs<'_>) -> Result<Linted, kompat_project::Error> {
    let prepared = Prepared::new(inputs)?;
    let at = StepAt { kubernetes: inputs.kubernetes, serve: inputs.serve, manifests: inputs.manifests, path: None };
    let (diags, _) = prepared.run_at(inputs, &at, true, |_| false)?;
    prepared.finish(inputs, diags)
}

/// What one step of an upgrade path changes in the inputs: the API server
/// of that Kubernetes release, and the objects that exist only at it (a Helm
/// chart rendered with `--kube-version V`), judged with the inputs' own.
#[derive(Debug, Clone, Default)]
pub struct Step {
    pub serve: Option<ServeOptions>,
    pub manifests: Vec<ManifestObject<Location>>,
}

/// [`lint_with_suppressed`] along an upgrade path of Kubernetes releases
/// (`--kubernetes-version A..B`): the rules that judge the Kubernetes version
/// ([`rules::judges_kubernetes_version`]) run at every minor of the path, with
/// what `step` returns for it, the others once; a finding reported the same
/// at every step is reported once as it is, any other once, at the first
/// step it appears at, its message naming that step
/// (`... (from Kubernetes 1.32 on the path 1.30..1.34)`). Levels and
/// allowances apply to the merged findings.
pub fn lint_path(
    inputs: &Inputs<'_>,
    path: VersionRange,
    step: &mut dyn FnMut(Version) -> Result<Step, kompat_project::Error>,
) -> Result<Linted, kompat_project::Error> {
    let prepared = Prepared::new(inputs)?;
    let steps: Vec<Version> = path.steps().collect();
    let mut once = Vec::new();
    let mut per_step = Vec::with_capacity(steps.len());
    for (idx, &version) in steps.iter().enumerate() {
        let Step { serve, manifests } = step(version)?;
        let objects: std::borrow::Cow<'_, [ManifestObject<Location>]> = if manifests.is_empty() {
            std::borrow::Cow::Borrowed(inputs.manifests)
        } else {
            std::borrow::Cow::Owned(inputs.manifests.iter().cloned().chain(manifests).collect())
        };
        let at = StepAt { kubernetes: Some(version), serve: serve.as_ref(), manifests: &objects, path: Some(path) };
        let (others, judged) = prepared.run_at(inputs, &at, idx == 0, rules::judges_kubernetes_version)?;
        once.extend(others);
        per_step.push(judged);
    }
    once.extend(merge_steps(path, &steps, per_step));
    prepared.finish(inputs, once)
}

/// The findings of every step merged: each (code, location, subject) once,
/// unchanged when it is the same at every step, else the first step's with
/// the steps it appears at.
fn merge_steps(path: VersionRange, steps: &[Version], per_step: Vec<Vec<Diagnostic>>) -> Vec<Diagnostic> {
    type Key = (Option<&'static str>, Option<(PathBuf, Option<(usize, usize)>)>, Option<kompat_diag::Text>, usize);
    struct Seen {
        first: Diagnostic,
        steps: Vec<usize>,
        same: bool,
    }
    let mut order: Vec<Key> = Vec::new();
    let mut seen: std::collections::HashMap<Key, Seen> = std::collections::HashMap::new();
    for (idx, diags) in per_step.into_iter().enumerate() {
        let mut count: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
        for diag in diags {
            let location = diag.location.as_ref().map(|l| (l.path().to_owned(), l.range().map(|r| (r.start, r.end))));
            let mut key = (diag.code, location, diag.subject.clone(), 0);
            let n = count.entry(key.clone()).or_default();
            key.3 = *n;
            *n += 1;
            match seen.get_mut(&key) {
                Some(s) => {
                    s.same &= s.first.message == diag.message;
                    s.steps.push(idx);
                }
                None => {
                    order.push(key.clone());
                    seen.insert(key, Seen { first: diag, steps: vec![idx], same: true });
                }
            }
        }
    }
    let last = steps.len().saturating_sub(1);
    let mut out = Vec::with_capacity(order.len());
    for key in order {
        let Some(Seen { mut first, steps: at, same }) = seen.remove(&key) else { continue };
        if !(same && at.len() == steps.len()) {
            first.message.push_str(&steps_note(path, steps, &at, last));
        }
        out.push(first);
    }
    out
}

/// ` (from Kubernetes 1.32 on the path 1.30..1.34)`: the steps (indices of
/// `steps`) a finding appears at.
fn steps_note(path: VersionRange, steps: &[Version], at: &[usize], last: usize) -> String {
    let (Some(&first), Some(&end)) = (at.first(), at.last()) else { return String::new() };
    let contiguous = end - first + 1 == at.len();
    let when = if !contiguous {
        format!("first at Kubernetes {}", steps[first])
    } else if end == last {
        format!("from Kubernetes {}", steps[first])
    } else if first == end {
        format!("at Kubernetes {} only", steps[first])
    } else {
        format!("from Kubernetes {} to {}", steps[first], steps[end])
    };
    format!(" ({when} on the path {path})")
}

/// The Kubernetes release one run judges at.
struct StepAt<'a> {
    kubernetes: Option<Version>,
    serve: Option<&'a ServeOptions>,
    manifests: &'a [ManifestObject<Location>],
    /// The upgrade path the step is one of.
    path: Option<VersionRange>,
}

/// What a run computes once, whatever the Kubernetes release.
struct Prepared<'a> {
    code: Option<sources::CodeReferences>,
    apis: Option<ApiSet>,
    api_problems: Vec<(ApiProblemKind, Diagnostic)>,
    validated: Validated,
    builtin: bool,
    crd_kinds: rules::crd_lifecycle::CrdKinds<'a>,
    server_storage: Vec<StoragePoint>,
    all_rules: Vec<&'static kompat_diag::Rule>,
    lint_config: config::LintPolicy,
}

impl<'a> Prepared<'a> {
    fn new(inputs: &Inputs<'a>) -> Result<Prepared<'a>, kompat_project::Error> {
        let decls = inputs.decls;
        let code = code_references(decls)?;
        let (apis, api_problems) = if decls.has_apis() {
            let (set, problems) = decls.api_set_partial();
            (Some(set), problems)
        } else {
            (None, Vec::new())
        };
        let validated = validate(decls.features());
        let builtin = uses_builtin_gates(decls, inputs.settings);
        let crd_kinds = rules::crd_lifecycle::CrdKinds::new(decls, inputs.crds);
        let server_storage = server_storage(apis.as_ref(), inputs.binary, inputs.window, &crd_kinds);
        let all_rules = rules::all();
        let lint_config = config::LintPolicy::from_config(inputs.config, &all_rules)?;
        Ok(Prepared { code, apis, api_problems, validated, builtin, crd_kinds, server_storage, all_rules, lint_config })
    }

    /// Runs the rules at one Kubernetes release: the passes `judged` picks
    /// (second), and with `others` every other pass too (first).
    fn run_at(
        &self,
        inputs: &Inputs<'_>,
        at: &StepAt<'_>,
        others: bool,
        judged: fn(&rules::Pass) -> bool,
    ) -> Result<(Vec<Diagnostic>, Vec<Diagnostic>), kompat_project::Error> {
        let decls = inputs.decls;
        let builtin = self.builtin;
        // Kubernetes' own gates are judged at the Kubernetes version, the
        // project's at the project's.
        let setting_binary = if builtin { at.kubernetes } else { inputs.binary };
        let builtin_gates = builtin.then(|| validate(&builtin_gates_at(setting_binary)));
        // A Kubernetes component's settings in a project with gates of its own.
        let kubernetes_binary = at.kubernetes.filter(|_| {
            !builtin && inputs.settings.iter().any(|s| s.component == kompat_formats::deploy::Component::Kubernetes)
        });
        let kubernetes_gates = kubernetes_binary.map(|at| validate(&builtin_gates_at(Some(at))));
        let manifests = match at.serve {
            Some(serve) if !at.manifests.is_empty() => {
                // The project's APIs join the built-in set when they are sound
                // (their problems are findings of their own).
                let project = (decls.has_apis() && self.api_problems.is_empty()).then(|| decls.api_config());
                Some(sources::manifests::Manifests::check(at.manifests, project.as_ref(), serve)?)
            }
            _ => None,
        };
        let cx = Context {
            decls,
            validated: &self.validated,
            baseline: inputs.baseline,
            binary: inputs.binary,
            window: inputs.window,
            apis: self.apis.as_ref(),
            api_problems: &self.api_problems,
            crds: inputs.crds,
            cluster_crds: inputs.cluster_crds,
            crd_kinds: &self.crd_kinds,
            server_storage: &self.server_storage,
            code: self.code.as_ref(),
            settings: inputs.settings,
            setting_gates: builtin_gates.as_ref().unwrap_or(&self.validated),
            builtin_gates: builtin,
            setting_binary,
            kubernetes_gates: kubernetes_gates.as_ref().zip(kubernetes_binary),
            manifests: manifests.as_ref(),
            roles: inputs.roles,
            serve: at.serve,
            manifest_objects: at.manifests.iter().filter(|o| !is_v1_crd(o)).count(),
            reference: inputs.reference,
            unrendered: inputs.unrendered,
            path: at.path,
        };
        // The passes run on every core; their findings are gathered in the
        // passes' order, as one thread would have found them.
        let checks: Vec<(bool, rules::Check)> = rules::PASSES
            .iter()
            .filter_map(|pass| {
                let check = pass.check?;
                let picked = judged(pass);
                (picked || others).then_some((picked, check))
            })
            .collect();
        let found = kompat_rust::parallel::map(
            &checks,
            RULE_STACK_BYTES,
            |(_, check)| Some(run_check(*check, &cx)),
            |_, _| None,
        );
        let (mut rest, mut picked) = (Vec::new(), Vec::new());
        for ((is_picked, check), found) in checks.iter().zip(found) {
            // A pass that panicked, or that no thread ran, runs again here:
            // a panic is this thread's, as before.
            let found = found.unwrap_or_else(|| run_check(*check, &cx));
            if *is_picked {
                picked.push(found);
            } else {
                rest.push(found);
            }
        }
        Ok((concat_in_order(rest), concat_in_order(picked)))
    }

    /// Drops the findings located in reference inputs, then applies
    /// allowances and levels; sorted.
    fn finish(&self, inputs: &Inputs<'_>, mut diags: Vec<Diagnostic>) -> Result<Linted, kompat_project::Error> {
        // Nothing about files the project does not own.
        diags.retain(|d| d.location.as_ref().is_none_or(|l| !inputs.reference.iter().any(|r| r == l.path())));
        // `#[kompat(allow(code = ..., reason = ...))]` on a gate suppresses that
        // code for that gate.
        let mut suppressed = Vec::new();
        if let Some(rust) = &inputs.decls.rust() {
            let (kept, allowed) = config::apply_source_allows(diags, &rust.allows, &self.all_rules);
            diags = kept;
            suppressed.extend(allowed);
        }
        // `ignore-check.kompat.io/<code>` annotations and `# kompat:allow(<code>)`
        // comments suppress that code in their object.
        let (kept, allowed) = rules::inline_allow::apply(diags, inputs.inline_allows, &self.all_rules);
        suppressed.extend(allowed);
        let (mut diags, allowed) = self.lint_config.apply(kept);
        suppressed.extend(allowed);
        Diagnostic::sort(&mut diags);
        Ok(Linted { findings: diags, suppressed })
    }
}

/// What code says about gates, for the reference rules: the Rust scan's
/// references, and the Go references (read here, so that commands other
/// than `lint` never pay for them).
fn code_references(decls: &Decls) -> Result<Option<sources::CodeReferences>, kompat_project::Error> {
    let mut code = decls.rust().map(|rust| sources::CodeReferences { files: rust.files, refs: rust.refs.clone() });
    if let Some(go) = decls.go() {
        let refs = kompat_project::go::references(go)?;
        let code = code.get_or_insert_with(Default::default);
        code.files += go.files.len();
        code.refs.extend(refs);
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::deprecated_api_version::DEPRECATED_API_VERSION;
    use rules::removed_api_version::REMOVED_API_VERSION;

    /// `concat_in_order` of parts written as `"ab|c|"` (one letter an item,
    /// `|` between parts): the items in order. With room in every part for
    /// the others, they are in the largest part's buffer (moved around it,
    /// never copied); with no room in any, the result has the exact size.
    #[track_caller]
    fn check_concat(parts: &str, expected: &str) {
        let parts = |room: usize| -> Vec<Vec<char>> {
            match parts {
                "" => Vec::new(),
                _ => parts
                    .split('|')
                    .map(|p| {
                        let mut part: Vec<char> = p.chars().collect();
                        part.shrink_to_fit();
                        part.reserve_exact(room);
                        part
                    })
                    .collect(),
            }
        };
        let roomy = parts(16);
        let largest = (0..roomy.len()).max_by_key(|&i| roomy[i].len()).filter(|&i| !roomy[i].is_empty());
        let kept = largest.map(|i| roomy[i].as_ptr());
        let joined = concat_in_order(roomy);
        assert_eq!(joined.iter().collect::<String>(), expected);
        if let Some(kept) = kept {
            assert_eq!(joined.as_ptr(), kept, "the largest part is moved, not copied");
        }
        let exact = concat_in_order(parts(0));
        assert_eq!(exact.iter().collect::<String>(), expected);
        assert_eq!(exact.capacity(), exact.len(), "the exact size");
    }

    #[test]
    fn parts_join_in_order() {
        check_concat("", "");
        check_concat("|", "");
        check_concat("abc", "abc");
        check_concat("a|bcd|e", "abcde");
        check_concat("|bcd|e", "bcde");
        check_concat("ab|c|", "abc");
        check_concat("ab|c|de", "abcde");
        check_concat("|a||b|", "ab");
        check_concat("a|b|c|defg", "abcdefg");
        check_concat("abcd|e|f", "abcdef");
        check_concat("ab|cd", "abcd");
        check_concat("||abc||d|", "abcd");
    }

    /// Merges findings given per step as `code subject message` (the code
    /// `d` for deprecated-api-version, `r` for removed-api-version) over
    /// 1.30..1.33; the merged messages.
    #[track_caller]
    fn check(per_step: [&[&str]; 4], expected: &[&str]) {
        let path = VersionRange::new(Version::new(1, 30), Version::new(1, 33)).expect("a path");
        let steps: Vec<Version> = path.steps().collect();
        let per_step = per_step
            .iter()
            .map(|diags| {
                diags
                    .iter()
                    .map(|d| {
                        let mut parts = d.splitn(3, ' ');
                        let (code, subject, message) =
                            (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
                        let rule = if code == "d" { &DEPRECATED_API_VERSION } else { &REMOVED_API_VERSION };
                        rule.diag(message, None).with_subject(subject)
                    })
                    .collect()
            })
            .collect();
        let got: Vec<String> = merge_steps(path, &steps, per_step)
            .into_iter()
            .map(|d| format!("{} {}", d.code.unwrap_or("-"), d.message))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn findings_merged_along_a_path() {
        // The same at every step: as it is.
        check([&["r a gone"], &["r a gone"], &["r a gone"], &["r a gone"]], &["removed-api-version gone"]);
        // At every step, its message naming the step: the first step's.
        check(
            [&["r a on 1.30"], &["r a on 1.31"], &["r a on 1.32"], &["r a on 1.33"]],
            &["removed-api-version on 1.30 (from Kubernetes 1.30 on the path 1.30..1.33)"],
        );
        // A warning, then an error.
        check(
            [&[], &["d a old"], &["r a gone at 1.32"], &["r a gone at 1.33"]],
            &[
                "deprecated-api-version old (at Kubernetes 1.31 only on the path 1.30..1.33)",
                "removed-api-version gone at 1.32 (from Kubernetes 1.32 on the path 1.30..1.33)",
            ],
        );
        check(
            [&["d a old"], &["d a old"], &[], &[]],
            &["deprecated-api-version old (from Kubernetes 1.30 to 1.31 on the path 1.30..1.33)"],
        );
        // The same everywhere it appears, but not at every step.
        check(
            [&[], &[], &[], &["r a gone"]],
            &["removed-api-version gone (from Kubernetes 1.33 on the path 1.30..1.33)"],
        );
        // It comes and goes.
        check(
            [&["d a old"], &[], &["d a old"], &[]],
            &["deprecated-api-version old (first at Kubernetes 1.30 on the path 1.30..1.33)"],
        );
        // Subjects tell findings apart, and two of one key at a step are two.
        check(
            [&["r a x", "r b y", "r b z"], &["r a x", "r b y", "r b z"], &["r a x", "r b y"], &["r a x", "r b y"]],
            &[
                "removed-api-version x",
                "removed-api-version y",
                "removed-api-version z (from Kubernetes 1.30 to 1.31 on the path 1.30..1.33)",
            ],
        );
    }
}
