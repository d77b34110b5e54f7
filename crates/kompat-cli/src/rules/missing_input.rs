//! `missing-input`: a rule family that could not run because something it
//! needs was not given (a binary version, a baseline, a Kubernetes version,
//! Rust or Go sources), or gate settings checked against Kubernetes' own
//! gates because no declarations were loaded, or Helm charts and kustomize
//! directories not rendered. Said once per missing input,
//! naming the rules; `require` in `[lint]` makes it an error.

use super::crd_lifecycle::CRD_LIFECYCLE_MISMATCH;
use super::deprecated_api_version::DEPRECATED_API_VERSION;
use super::gate_setting;
use super::locked_gate_cleanup::LOCKED_GATE_CLEANUP;
use super::orphaned_gate::ORPHANED_GATE;
use super::rbac_missing_replacement::RBAC_MISSING_REPLACEMENT;
use super::rbac_removed_resource::RBAC_REMOVED_RESOURCE;
use super::removed_api_version::REMOVED_API_VERSION;
use super::removed_gate::REMOVED_GATE;
use super::rewritten_history::REWRITTEN_HISTORY;
use super::storage_not_decodable::STORAGE_NOT_DECODABLE;
use super::storage_override_expired::STORAGE_OVERRIDE_EXPIRED;
use super::storage_version_without_kind::STORAGE_VERSION_WITHOUT_KIND;
use super::stored_before_written::STORED_BEFORE_WRITTEN;
use super::unknown_api_kind::UNKNOWN_API_KIND;
use super::unserved_api_version::UNSERVED_API_VERSION;
use super::Pass;
use crate::{Context, Judge};
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Says, once per missing input, which rules did not run because the input they need was not given: a binary version (the storage, window and lifecycle rules, and the checks of gate settings), a baseline (the removal and history rules), a Kubernetes version (the checks of Kubernetes manifests and of Kubernetes components' gate settings, counted), Rust or Go sources (`orphaned-gate`), the CRD manifest of kube-rs custom resources (`crd-lifecycle-mismatch`), Kubernetes' API data for a target newer than the newest release it was generated from (subject `kubernetes-data`: removals after that release are not known; said once for an upgrade path that ends past it); and says when gate settings are checked against Kubernetes' own feature gates because no declarations were loaded, and which Helm charts and kustomize directories were not rendered (their templates not read, their partial CRDs not checked as CRDs), which YAML files outside charts are Go templates (not read) and how to render them (`[render]` in kompat.toml), or were rendered without a Kubernetes version (subject `kubernetes-version`). The subject is the input's name (`binary-version`, `baseline`, `kubernetes-version`, `sources`, `declarations`, `crd-manifest`, `renderer`); `require = ["binary-version", ...]` in `[lint]` makes the note an error.
    ///
    /// ### Why is this bad?
    ///
    /// A clean run that skipped half of its rules looks exactly like a clean run that checked everything. Without a binary version, a storage version that no server can decode passes; without declarations, every gate of the project is "unrecognized".
    ///
    /// ### Example
    ///
    /// ```toml
    /// # kompat.toml without binary_version
    /// decls = ["apis.toml"]
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// binary_version = "1.37"
    /// decls = ["apis.toml"]
    ///
    /// [lint]
    /// require = ["binary-version"]
    /// ```
    pub MISSING_INPUT: Note, "rules did not run because an input they need is missing"
}

pub static PASS: Pass = Pass { rules: &[&MISSING_INPUT], check: Some(check) };

/// What a run can be missing: the name `require` takes (the finding's
/// subject) and how to give it.
pub const INPUTS: [(&str, &str); 7] = [
    ("binary-version", "no binary version (--binary-version, or `binary_version` in kompat.toml)"),
    ("baseline", "no baseline (--baseline, or `baseline` in kompat.toml)"),
    (
        "kubernetes-version",
        "no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml)",
    ),
    ("sources", "no Rust or Go source among the inputs"),
    ("declarations", "no feature declarations loaded"),
    ("crd-manifest", "no CRD manifest among the inputs for kube-rs custom resources"),
    ("renderer", "no renderer for Helm charts and kustomize directories"),
];

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let own_features = (0..cx.decls.features().len()).any(|idx| !cx.is_reference_feature(idx));
    // Each rule as `code`, or `code` (the part that did not run).
    let all = |codes: &[&str]| -> Vec<String> { codes.iter().map(|c| format!("`{c}`")).collect() };
    let mut skipped = |input: &str, mut rules: Vec<String>, consequence: &str| {
        let Some((_, why)) = INPUTS.iter().find(|(name, _)| *name == input) else { return };
        if rules.is_empty() {
            return;
        }
        rules.sort_unstable();
        out.push(
            MISSING_INPUT
                .diag(format!("{why}: {consequence}{} did not run", rules.join(", ")), None)
                .with_subject(input.to_owned()),
        );
    };
    if cx.binary.is_none() {
        let mut rules = Vec::new();
        if own_features {
            rules.extend(all(&[LOCKED_GATE_CLEANUP.code]));
            if cx.baseline.is_some() {
                rules.extend(all(&[REWRITTEN_HISTORY.code]));
                rules.push(format!("`{}` (the removal deadlines of locked gates)", REMOVED_GATE.code));
            }
        }
        if !cx.decls.stored_before_written().is_empty() {
            rules.push(format!("`{}` (the window check)", STORED_BEFORE_WRITTEN.code));
        }
        if cx.apis.is_some() {
            rules.extend(all(&[
                STORAGE_NOT_DECODABLE.code,
                STORAGE_OVERRIDE_EXPIRED.code,
                STORAGE_VERSION_WITHOUT_KIND.code,
            ]));
        }
        // The project's settings; Kubernetes components' run at the
        // Kubernetes version.
        if cx.unjudged_settings(Judge::Project) > 0 {
            rules.extend(gate_setting::PASS.rules.iter().map(|r| format!("`{}`", r.code)));
        }
        skipped("binary-version", rules, "");
    }
    if cx.baseline.is_none() && own_features {
        skipped("baseline", all(&[REMOVED_GATE.code, REWRITTEN_HISTORY.code]), "");
    }
    let mut unchecked = Vec::new();
    let mut rules = Vec::new();
    if cx.manifests.is_none() && cx.manifest_objects > 0 {
        unchecked.push("Kubernetes manifests are not checked".to_owned());
        rules.extend(all(&[
            REMOVED_API_VERSION.code,
            DEPRECATED_API_VERSION.code,
            UNSERVED_API_VERSION.code,
            UNKNOWN_API_KIND.code,
        ]));
        // RBAC roles are judged at the target too.
        if cx.roles.iter().any(|r| !r.rules.is_empty()) {
            rules.extend(all(&[RBAC_REMOVED_RESOURCE.code, RBAC_MISSING_REPLACEMENT.code]));
        }
    }
    let settings = cx.unjudged_settings(Judge::Kubernetes);
    if settings > 0 {
        let (n, are) = if settings == 1 { ("1 gate setting".to_owned(), "is") } else { (format!("{settings} gate settings"), "are") };
        unchecked.push(format!("{n} of Kubernetes components {are} not checked"));
        rules.extend(gate_setting::PASS.rules.iter().map(|r| format!("`{}`", r.code)));
    }
    if !unchecked.is_empty() {
        skipped("kubernetes-version", rules, &format!("{}; ", unchecked.join(" and ")));
    }
    if cx.code.is_none() && own_features {
        skipped("sources", all(&[ORPHANED_GATE.code]), "");
    }
    // kube-rs custom resources whose CRD manifest is not among the inputs.
    if let Some(rust) = cx.decls.rust() {
        let manifests = || cx.crds.iter().flat_map(|i| &i.crds);
        let mut kinds: Vec<String> = rust
            .custom_resources
            .iter()
            .filter(|c| !manifests().any(|m| m.group.value == c.group && m.kind.value == c.kind))
            .map(|c| format!("`{}/{}`", c.group, c.kind))
            .collect();
        kinds.sort();
        kinds.dedup();
        if !kinds.is_empty() {
            let consequence = format!("the lifecycles of {} are not compared with a CRD; ", kinds.join(", "));
            skipped("crd-manifest", all(&[CRD_LIFECYCLE_MISMATCH.code]), &consequence);
        }
    }
    // A target past the built-in API data: what was removed after its
    // newest release is not known.
    let newest = crate::sources::manifests::newest_known_release();
    if let (Some(manifests), Some(newest)) = (cx.manifests, newest) {
        let target = manifests.serve.binary.unwrap_or(manifests.serve.emulation).max(manifests.serve.emulation);
        // On an upgrade path, once for the whole path (the same at every step).
        let (target, checked_at) = match cx.path {
            Some(path) => (path.last(), format!("up to Kubernetes {} (the path {path})", path.last())),
            None => (target, format!("at {}", manifests.target())),
        };
        if target > newest && cx.manifest_objects > 0 {
            out.push(
                MISSING_INPUT
                    .diag(
                        format!(
                            "no Kubernetes data after {newest}: the manifests are checked {checked_at}, and APIs removed after Kubernetes {newest} are not known"
                        ),
                        None,
                    )
                    .with_subject("kubernetes-data"),
            );
        }
    }
    unrendered(cx.unrendered, out);
    other_components(cx, out);
    if crate::uses_builtin_gates(cx.decls, cx.settings) {
        out.push(
            MISSING_INPUT
                .diag(
                    "no feature declarations loaded: gate settings are checked against Kubernetes' own feature gates",
                    None,
                )
                .with_subject("declarations")
                .with_notes([
                    "pass the declarations of your gates (PATH, --decls, or `decls` in kompat.toml)".to_owned()
                ]),
        );
    }
}

/// One note naming the other programs (CSI sidecars...) whose settings are
/// not judged: neither the project's gates nor Kubernetes' are theirs.
fn other_components(cx: &crate::Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut names: Vec<String> = Vec::new();
    for setting in cx.settings {
        if let kompat_formats::deploy::Component::Other(name) = &setting.component {
            let at = format!("`{name}` ({})", setting.location.path().display());
            if !names.iter().any(|n| n.starts_with(&format!("`{name}` ("))) {
                names.push(at);
            }
        }
    }
    if names.is_empty() {
        return;
    }
    out.push(
        MISSING_INPUT
            .diag(
                format!(
                    "gate settings of other components are not checked: {} (neither the project's gates nor Kubernetes' are theirs)",
                    names.join(", ")
                ),
                None,
            )
            .with_subject("other-components"),
    );
}

/// How `[render]` turns rendering on, for the note that names what was not
/// rendered.
pub const ENABLE_RENDERING: &str = "to render them, set `helm = \"helm\"` (charts) and `kustomize = [\"kubectl\", \"kustomize\"]` (kustomize directories) under `[render]` in kompat.toml (docs/config.md#render)";

/// One note naming every chart and kustomize directory not rendered, and
/// the partial objects (patches) left unchecked; one naming the charts
/// rendered without a Kubernetes version.
fn unrendered(unrendered: &crate::Unrendered, out: &mut Vec<Diagnostic>) {
    let list = |paths: &[std::path::PathBuf]| -> String {
        paths.iter().map(|p| format!("`{}`", p.display())).collect::<Vec<_>>().join(", ")
    };
    if !unrendered.without_version.is_empty() {
        out.push(
            MISSING_INPUT
                .diag(
                    format!(
                        "no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml): Helm charts {} were rendered for Helm's default Kubernetes version and API versions, not the target cluster's",
                        list(&unrendered.without_version)
                    ),
                    None,
                )
                .with_subject("kubernetes-version"),
        );
    }
    if !unrendered.templates.is_empty() {
        out.push(
            MISSING_INPUT
                .diag(
                    format!(
                        "Go templates outside a chart, not read (no chart renders them): {}",
                        list(&unrendered.templates)
                    ),
                    None,
                )
                .with_subject("renderer"),
        );
    }
    if unrendered.is_empty() {
        return;
    }
    let mut parts = Vec::new();
    if !unrendered.charts.is_empty() {
        parts.push(format!("Helm charts {} (templates not read; values files checked)", list(&unrendered.charts)));
    }
    if !unrendered.overlays.is_empty() {
        parts.push(format!("kustomize directories {}", list(&unrendered.overlays)));
    }
    if parts.is_empty() {
        // Every chart and directory rendered or failed (`render-failed`):
        // only the patches of those that failed are left.
        out.push(
            MISSING_INPUT
                .diag(
                    format!(
                        "kustomize patches not checked as CRDs (their kustomize directory did not render): {}",
                        list(&unrendered.partial)
                    ),
                    None,
                )
                .with_subject("renderer"),
        );
        return;
    }
    let mut notes = Vec::new();
    if !unrendered.partial.is_empty() {
        notes.push(format!(
            "partial CRDs (kustomize patches) not checked as CRDs: {}",
            list(&unrendered.partial)
        ));
    }
    let mut missing = unrendered.missing_programs.clone();
    missing.sort();
    missing.dedup();
    if missing.is_empty() {
        notes.push(ENABLE_RENDERING.to_owned());
    } else {
        let names: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
        notes.push(format!(
            "{} (named under `[render]` in kompat.toml) not found: install it, or name it by its path (docs/config.md#render)",
            names.join(", ")
        ));
    }
    let what = parts.join("; ");
    out.push(
        MISSING_INPUT
            .diag(format!("no renderer for Helm charts and kustomize directories: not rendered: {what}"), None)
            .with_subject("renderer")
            .with_notes(notes),
    );
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    /// The `renderer` notes for what was left unrendered.
    fn renderer_notes(unrendered: &crate::Unrendered) -> Vec<String> {
        let mut out = Vec::new();
        super::unrendered(unrendered, &mut out);
        out.iter().map(|d| format!("{} {:?}", d.message, d.notes)).collect()
    }

    #[test]
    fn what_was_not_rendered_and_why() {
        let patch = std::path::PathBuf::from("config/crd/patches/webhook.yaml");
        // Every directory rendered or failed: the patches of a failed one.
        let failed = crate::Unrendered { partial: vec![patch.clone()], ..crate::Unrendered::default() };
        assert_eq!(
            renderer_notes(&failed),
            ["kustomize patches not checked as CRDs (their kustomize directory did not render): `config/crd/patches/webhook.yaml` []"]
        );
        // A renderer named but not installed.
        let missing = crate::Unrendered {
            charts: vec!["chart".into()],
            missing_programs: vec!["helm".to_owned(), "helm".to_owned()],
            ..crate::Unrendered::default()
        };
        assert_eq!(
            renderer_notes(&missing),
            ["no renderer for Helm charts and kustomize directories: not rendered: Helm charts `chart` (templates not read; values files checked) [\"`helm` (named under `[render]` in kompat.toml) not found: install it, or name it by its path (docs/config.md#render)\"]"]
        );
        assert!(renderer_notes(&crate::Unrendered::default()).is_empty());
    }

    #[test]
    fn no_binary_version_no_baseline_no_sources() {
        check(
            r##"
//- features.toml
#!! note[missing-input]: no binary version (--binary-version, or `binary_version` in kompat.toml): `locked-gate-cleanup` did not run
#!! note[missing-input]: no baseline (--baseline, or `baseline` in kompat.toml): `removed-gate`, `rewritten-history` did not run
#!! note[missing-input]: no Rust or Go source among the inputs: `orphaned-gate` did not run
[[feature]]
name = "Ancient"
specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.20", stage = "GA", default = true, lockToDefault = true },
]
"##,
        );
    }

    #[test]
    fn partly_run_rules_say_which_part() {
        check(
            r##"
//- baseline/features.toml
[[feature]]
name = "Locked"
specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.35", stage = "GA", default = true, lockToDefault = true },
]
//- features.toml
#!! note[missing-input]: no Rust or Go source among the inputs: `orphaned-gate` did not run
#!! note[missing-input]: no binary version (--binary-version, or `binary_version` in kompat.toml): `locked-gate-cleanup`, `removed-gate` (the removal deadlines of locked gates), `rewritten-history`, `stored-before-written` (the window check) did not run
[[feature]]
name = "Other"
specs = [{ version = "1.36", stage = "Alpha", default = false }]

[[stored_before_written]]
name = "quantity"
readable_since = "1.36"
written_since = "1.37"
"##,
        );
    }

    #[test]
    fn required_input_is_an_error() {
        check(
            r##"
//- kompat.toml
[lint]
require = ["binary-version"]
//- apis.toml
#!! error[missing-input]: no binary version (--binary-version, or `binary_version` in kompat.toml): `storage-not-decodable`, `storage-override-expired`, `storage-version-without-kind` did not run
[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"
"##,
        );
    }

    #[test]
    fn settings_without_declarations() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.37"
//- kubelet.yaml
#!! note[missing-input]: no feature declarations loaded: gate settings are checked against Kubernetes' own feature gates
kind: KubeletConfiguration
featureGates:
  NodeSwap: true
# ^^^^^^^^ warning[ga-gate-setting]: a 1.37 component logs "Setting GA feature gate NodeSwap=true. It will be removed in a future release."
"##,
        );
    }

    #[test]
    fn unchecked_manifests() {
        check(
            r##"
//- deploy.yaml
#!! note[missing-input]: no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml): Kubernetes manifests are not checked; `deprecated-api-version`, `removed-api-version`, `unknown-api-kind`, `unserved-api-version` did not run
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
"##,
        );
    }

    /// The project's version is not Kubernetes': settings of Kubernetes
    /// components wait for the Kubernetes version, counted.
    #[test]
    fn kubernetes_settings_without_a_kubernetes_version() {
        check(
            r##"
//- kompat.toml
binary_version = "0.5"
//- features.toml
[[feature]]
name = "WidgetCache"
specs = [{ version = "0.5", stage = "Alpha", default = false }]
//- hack/kind-config.yaml
#!! note[missing-input]: no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml): Kubernetes manifests are not checked and 2 gate settings of Kubernetes components are not checked; `deprecated-api-version`, `locked-gate-setting`, `prealpha-gate-setting`, `removed-api-version`, `removed-gate-setting`, `unknown-api-kind`, `unknown-gate-setting`, `unserved-api-version` did not run
#!! note[missing-input]: no Rust or Go source among the inputs: `orphaned-gate` did not run
#!! note[missing-input]: no baseline (--baseline, or `baseline` in kompat.toml): `removed-gate`, `rewritten-history` did not run
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
featureGates:
  GangScheduling: true
  GenericWorkload: true
"##,
        );
        // Under the Kubernetes profile the project's version is Kubernetes'.
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
[window]
profile = "kubernetes"
//- kubelet.yaml
#!! note[missing-input]: no feature declarations loaded: gate settings are checked against Kubernetes' own feature gates
kind: KubeletConfiguration
featureGates:
  NoSuchGate: true
# ^^^^^^^^^^ error[unknown-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: NoSuchGate
"##,
        );
    }

    #[test]
    fn nothing_missing_nothing_said() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- baseline/features.toml
[[feature]]
name = "WidgetCache"
specs = [{ version = "1.36", stage = "Alpha", default = false }]
//- features.toml
#!! note[missing-input]: no Rust or Go source among the inputs: `orphaned-gate` did not run
[[feature]]
name = "WidgetCache"
specs = [{ version = "1.36", stage = "Alpha", default = false }]
"##,
        );
    }

    #[test]
    fn kube_rs_types_without_their_crd() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- src/lib.rs
//!! note[missing-input]: no CRD manifest among the inputs for kube-rs custom resources: the lifecycles of `example.io/Widget` are not compared with a CRD; `crd-lifecycle-mismatch` did not run
#[derive(kube::CustomResource, kompat::ApiLifecycle)]
#[kube(group = "example.io", version = "v1", kind = "Widget")]
#[kompat(api(introduced = "1.35"))]
pub struct WidgetSpec {}
"##,
        );
    }

    #[test]
    fn a_kubernetes_version_past_the_data() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.40"
//- deploy/web.yaml
#!! note[missing-input]: no Kubernetes data after 1.37: the manifests are checked at Kubernetes 1.40, and APIs removed after Kubernetes 1.37 are not known
apiVersion: apps/v1
kind: Deployment
"##,
        );
        // Within the data: no note.
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.37"
//- deploy/web.yaml
apiVersion: apps/v1
kind: Deployment
"##,
        );
    }

    #[test]
    fn an_upgrade_path_past_the_data() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.36..1.39"
//- deploy/web.yaml
#!! note[missing-input]: no Kubernetes data after 1.37: the manifests are checked up to Kubernetes 1.39 (the path 1.36..1.39), and APIs removed after Kubernetes 1.37 are not known
apiVersion: apps/v1
kind: Deployment
"##,
        );
    }
}
