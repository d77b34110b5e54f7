//! Charts and kustomize directories rendered by the renderers `[render]`
//! configures (the runs are `kompat_project::render`'s), and the rendered
//! objects located back in the project.
//!
//! - Kustomize: the root directories (those no other kustomize directory
//!   among the inputs includes) are rendered; the files their trees name
//!   are judged through the render only, not read again as inputs.
//! - Helm: each chart is rendered for the target cluster, `--kube-version`
//!   its Kubernetes version and `--api-versions` every group-version (and
//!   `G/V/Kind`) it serves by kompat's own serving table, with the CRDs
//!   among the inputs ([`api_versions`]).
//!
//! A rendered object and its gate settings are located in the file it came
//! from (the template, or the kustomize resource file), at the line with the
//! same text when there is one, else at the file's first line
//! ([`kompat_project::render::map_span`]). A rendered CRD is checked as the
//! rendered text, under the name `FILE (rendered)`.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use kompat_crd::Crd;
use kompat_diag::{Diagnostic, Location};
use kompat_engine::api::{served_apis, ServeOptions};
use kompat_formats::deploy::GateSetting;
use kompat_formats::manifest::ManifestObject;
use kompat_project::config::RenderConfig;
use kompat_project::inputs::{Input, Kind};
use kompat_project::render::{self, ChartJob, Failure, KustomizeTree, Limits, Rendered};
use kompat_project::SourceFile;
use kompat_runtime::Version;

use crate::{RenderFailure, Unrendered};

/// One rendered document, with what rendered it.
#[derive(Debug, Clone)]
pub struct RenderedDoc {
    pub document: render::Document,
    /// The chart or kustomize root directory.
    pub dir: PathBuf,
    /// How it was rendered, for the findings' notes: ``rendered by `helm
    /// template` at Kubernetes 1.33``.
    pub how: String,
}

/// What rendering the kustomize roots gave.
#[derive(Debug, Default)]
pub struct Overlays {
    pub documents: Vec<RenderedDoc>,
    /// The files the rendered trees consumed (normalized paths): judged
    /// through the render, not read again.
    consumed: HashSet<PathBuf>,
}

impl Overlays {
    /// Whether `path` is judged through a render.
    pub fn consumes(&self, path: &Path) -> bool {
        !self.consumed.is_empty() && self.consumed.contains(&render::normalize(path))
    }
}

/// The renderer program a command names, for messages.
fn program(command: &[String]) -> String {
    command.join(" ")
}

/// Renders the root kustomize directories among `overlays` when `[render]`
/// configures `kustomize`; what is not rendered stays in
/// `unrendered.overlays`, failures go to `unrendered.failed`.
pub fn render_overlays(config: Option<&RenderConfig>, overlays: &[PathBuf], unrendered: &mut Unrendered) -> Overlays {
    let mut out = Overlays::default();
    let Some((config, command)) = config.and_then(|c| Some((c, c.kustomize.as_ref()?))) else { return out };
    let limits = Limits::of(config);
    let roots = render::kustomize_roots(overlays);
    // The directories of the trees rendered or failed (normalized): named
    // by a finding or judged through the render, not by the note.
    let mut done: HashSet<PathBuf> = HashSet::new();
    let trees: Vec<&KustomizeTree> = roots
        .iter()
        .filter(|tree| !RenderConfig::target(&config.kustomize_dirs, &tree.root).is_some_and(|t| t.skip))
        .collect();
    // Rendered on every core (each render is its own sandboxed process,
    // under its own limits), gathered in the roots' order.
    let renders = kompat_rust::parallel::map(
        &trees,
        RENDER_STACK_BYTES,
        |tree| render::render_kustomize(command, tree, limits),
        |_, why| {
            let reason = match why {
                kompat_rust::parallel::Failure::Panicked => "internal error waiting for it",
                kompat_rust::parallel::Failure::NoThread => "no thread could be started to wait for it",
            };
            Err(Failure::Spawn { program: program(command), reason: reason.to_owned() })
        },
    );
    for (tree, rendered) in trees.into_iter().zip(renders) {
        match rendered {
            Ok(Rendered { documents }) => {
                let how = format!("rendered by `{}` from `{}`", program(command), tree.root.display());
                out.consumed.extend(tree.files.iter().cloned());
                out.documents.extend(documents.into_iter().map(|document| RenderedDoc {
                    document,
                    dir: tree.root.clone(),
                    how: how.clone(),
                }));
                done.extend(tree.dirs.iter().cloned());
            }
            Err(Failure::Missing { program }) => unrendered.missing_programs.push(program),
            Err(failure) => {
                unrendered.failed.push(failed(&tree.root, kustomization(tree), command, &failure));
                done.extend(tree.dirs.iter().cloned());
            }
        }
    }
    // What a skipped or unrendered root includes stays in the note.
    let left: HashSet<PathBuf> = roots
        .iter()
        .filter(|t| !done.contains(&render::normalize(&t.root)))
        .flat_map(|t| t.dirs.iter().cloned())
        .collect();
    unrendered.overlays.retain(|dir| {
        let dir = render::normalize(dir);
        !done.contains(&dir) || left.contains(&dir)
    });
    out
}

/// The stack of a thread that waits for a render.
const RENDER_STACK_BYTES: usize = 1 << 20;

fn kustomization(tree: &KustomizeTree) -> PathBuf {
    render::kustomization_file(&tree.root).unwrap_or_else(|| tree.root.join("kustomization.yaml"))
}

fn failed(dir: &Path, file: PathBuf, command: &[String], failure: &Failure) -> RenderFailure {
    RenderFailure {
        dir: dir.to_owned(),
        file,
        command: program(command),
        reason: failure.reason(),
        stderr: failure.stderr().to_vec(),
    }
}

/// The `--api-versions` of a cluster that serves as `serve` says: every
/// built-in group-version and `G/V/Kind` served, and the served versions of
/// `crds` (the CRDs among the inputs and installed in the cluster).
pub fn api_versions<'a>(serve: &ServeOptions, crds: impl IntoIterator<Item = &'a Crd>) -> Vec<String> {
    let set = kompat_k8s::apis();
    let mut served: Vec<(String, String, String)> = Vec::new();
    if let Ok(answer) = served_apis(set, serve) {
        let kinds: BTreeMap<(&str, &str, &str), &str> =
            set.apis().iter().map(|a| ((a.group(), a.version(), a.resource.as_str()), a.kind())).collect();
        for gvr in &answer.resources {
            let kind = kinds.get(&(gvr.group.as_str(), gvr.version.as_str(), gvr.resource.as_str()));
            served.push((gvr.group.clone(), gvr.version.clone(), kind.map(|k| (*k).to_owned()).unwrap_or_default()));
        }
    }
    for crd in crds {
        for version in crd.versions.iter().filter(|v| v.served.value) {
            served.push((crd.group.value.clone(), version.name.value.clone(), crd.kind.value.clone()));
        }
    }
    render::api_versions(served.iter().map(|(g, v, k)| (g.as_str(), v.as_str(), k.as_str())))
}

/// Renders each chart when `[render]` configures `helm`, for a cluster at
/// `kube` serving `api_versions` (Helm's defaults without a version).
pub fn render_charts(
    config: Option<&RenderConfig>,
    charts: &[PathBuf],
    kube: Option<Version>,
    api_versions: &[String],
    unrendered: &mut Unrendered,
) -> Vec<RenderedDoc> {
    let mut out = Vec::new();
    let Some((config, command)) = config.and_then(|c| Some((c, c.helm.as_ref()?))) else { return out };
    let limits = Limits::of(config);
    let mut left = Vec::new();
    for chart in charts {
        // A subchart renders with its parent (sorted first), unless that
        // one is not rendered.
        if let Some(parent) = charts.iter().find(|p| *p != chart && chart.starts_with(p.join("charts"))) {
            if left.contains(parent) {
                left.push(chart.clone());
            }
            continue;
        }
        if RenderConfig::target(&config.charts, chart).is_some_and(|t| t.skip) {
            left.push(chart.clone());
            continue;
        }
        let job = ChartJob::configured(chart, config, kube, api_versions);
        match render::render_chart(command, &job, limits) {
            Ok(Rendered { documents }) => {
                let at = match kube {
                    Some(v) => format!("at Kubernetes {v}"),
                    None => "at Helm's default Kubernetes version".to_owned(),
                };
                let how = format!("rendered by `{} template` {at}", program(command));
                if kube.is_none() {
                    unrendered.without_version.push(chart.clone());
                }
                out.extend(documents.into_iter().map(|document| RenderedDoc {
                    document,
                    dir: chart.clone(),
                    how: how.clone(),
                }));
            }
            Err(Failure::Missing { program }) => {
                unrendered.missing_programs.push(program);
                left.push(chart.clone());
            }
            Err(failure) => unrendered.failed.push(failed(chart, chart.join("Chart.yaml"), command, &failure)),
        }
    }
    let left: HashSet<PathBuf> = left.into_iter().collect();
    unrendered.charts.retain(|chart| left.contains(chart));
    out
}

/// What a rendered document holds, located.
#[derive(Debug, Default)]
pub struct Located {
    pub objects: Vec<ManifestObject<Location>>,
    pub settings: Vec<GateSetting<Location>>,
    /// The document as a CRD manifest, with its CRDs, when it is one.
    pub crd: Option<(SourceFile, Vec<Crd>)>,
    /// Where each finding located in the origin came from.
    pub origin: Option<PathBuf>,
}

/// The objects, gate settings and CRDs of a rendered document, located in
/// the file it came from (see the module documentation). A rendered CRD
/// kompat cannot read is a failed render of its directory.
pub fn locate(doc: &RenderedDoc, unrendered: &mut Unrendered) -> Located {
    let origin = doc.document.origin.as_ref();
    let label = match origin {
        Some(origin) => format!("{} (rendered)", origin.path.display()),
        None => format!("{} (rendered)", doc.dir.display()),
    };
    let text = doc.document.text.clone();
    let names_crd = text.contains("CustomResourceDefinition");
    // Read as a file of its own would be, under a name ending in `.yaml`.
    let scratch = PathBuf::from(format!("{label}.yaml"));
    // A CRD is a manifest, not deployment material: its schema sets no gate.
    let kind = if names_crd { Kind::CrdManifest } else { Kind::Deployment };
    let input = Input::new(kind, SourceFile::new(scratch.clone(), text.clone()), false);
    let remap = |location: Location| -> Location {
        let Some(span) = location.range() else { return location };
        match origin {
            Some(origin) => match render::map_span(&text, span.start..span.end, &origin.text) {
                Some(range) => origin.locate(range.start, range.end),
                None => origin.locate(0, 0),
            },
            None => SourceFile::new(PathBuf::from(&label), text.clone()).locate(span.start, span.end),
        }
    };
    let mut located = Located { origin: origin.map(|o| o.path.clone()), ..Located::default() };
    // YAML beyond the parser's limits or that does not parse renders nothing
    // to check.
    located.objects = input.manifest_objects().unwrap_or_default().into_iter().map(|o| o.map_location(remap)).collect();
    located.settings = input.gate_settings().unwrap_or_default().into_iter().map(|s| s.map_location(remap)).collect();
    if names_crd {
        let source = SourceFile::new(PathBuf::from(&label), text.clone());
        match kompat_crd::parse_manifests(&source.text) {
            Ok(crds) if !crds.is_empty() => located.crd = Some((source, crds)),
            Ok(_) => {}
            Err(errors) => {
                let first = errors.first().map(|e| e.message.clone()).unwrap_or_default();
                let file = origin.map_or_else(|| doc.dir.clone(), |o| o.path.clone());
                unrendered.failed.push(RenderFailure {
                    dir: doc.dir.clone(),
                    file,
                    command: doc.how.clone(),
                    reason: format!("it rendered a CRD kompat cannot read: {first}"),
                    stderr: Vec::new(),
                });
            }
        }
    }
    located
}

/// Says in each finding located in a rendered file how it was rendered;
/// a finding two renders share (a base two overlays include) is kept once.
pub fn annotate(findings: &mut Vec<Diagnostic>, rendered: &BTreeMap<PathBuf, String>) {
    if rendered.is_empty() {
        return;
    }
    let mut seen = HashSet::new();
    findings.retain(|d| {
        let Some(location) = &d.location else { return true };
        let path = location.path();
        let from_render = rendered.contains_key(path) || path.to_str().is_some_and(|p| p.ends_with(" (rendered)"));
        !from_render || seen.insert((d.code, d.message.clone(), location.display(), d.subject.clone()))
    });
    for d in findings.iter_mut() {
        let Some(path) = d.location.as_ref().map(|l| l.path().to_owned()) else { continue };
        if let Some(how) = rendered.get(&path) {
            d.notes.push(format!("{how}; shown at the same text in this file, else at its first line"));
        } else if let Some(how) =
            path.to_str().and_then(|p| p.strip_suffix(" (rendered)")).and_then(|p| rendered.get(Path::new(p)))
        {
            d.notes.push(format!("{how}; shown as rendered"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether each name is among the `--api-versions` of a cluster at
    /// `version`, with a `example.io` CRD serving `v1` but not `v1alpha1`.
    #[track_caller]
    fn check(version: &str, expected: &[(&str, bool)]) {
        let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.io\nspec:\n  group: example.io\n  names:\n    kind: Widget\n    plural: widgets\n  scope: Namespaced\n  versions:\n  - name: v1alpha1\n    served: false\n    storage: false\n  - name: v1\n    served: true\n    storage: true\n";
        let crds = kompat_crd::parse_manifests(crd).unwrap_or_else(|err| panic!("{err:?}"));
        let at = Version::parse(version).unwrap_or_else(|err| panic!("{err}"));
        let got = api_versions(&ServeOptions::new(at), &crds);
        for (name, served) in expected {
            assert_eq!(got.iter().any(|g| g == name), *served, "{name} at {version}");
        }
    }

    #[test]
    fn api_versions_follow_the_serving_table() {
        check(
            "1.20",
            &[
                ("policy/v1beta1/PodDisruptionBudget", true),
                ("policy/v1/PodDisruptionBudget", false),
                ("batch/v1beta1/CronJob", true),
                ("batch/v1/CronJob", false),
                ("v1/Pod", true),
                ("v1", true),
                ("example.io/v1/Widget", true),
                ("example.io/v1alpha1/Widget", false),
            ],
        );
        check(
            "1.25",
            &[
                ("policy/v1beta1/PodDisruptionBudget", false),
                ("policy/v1/PodDisruptionBudget", true),
                ("policy/v1", true),
                ("batch/v1/CronJob", true),
                ("networking.k8s.io/v1beta1/Ingress", false),
                ("example.io/v1", true),
            ],
        );
    }
}
