//! Rendering end to end: `kompat lint` on a Helm chart and a kustomize tree
//! (`fixtures/render/`) with the real `helm` and `kubectl` when they are
//! installed (`KOMPAT_TEST_HELM` / `KOMPAT_TEST_KUBECTL`, else on `PATH`;
//! `.ci/run` installs them), and with fake renderers (shell scripts written
//! by the tests) everywhere: what helm is asked for, where findings are
//! located, and every way a render fails.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{dir_with, kompat_in_env};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/render")
}

/// A real tool: `$VAR`, else `name` on `PATH`.
fn tool(var: &str, name: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var).map(PathBuf::from).filter(|p| p.is_file()) {
        return Some(path);
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

/// `helm` and `kubectl` in one directory to put first on `PATH`, or `None`
/// (and a note saying what was skipped) when either is absent.
fn real_tools(what: &str) -> Option<tempfile::TempDir> {
    let (Some(helm), Some(kubectl)) = (tool("KOMPAT_TEST_HELM", "helm"), tool("KOMPAT_TEST_KUBECTL", "kubectl")) else {
        eprintln!(
            "note: helm or kubectl is not installed, so {what} was not checked with the real tools \
             (set KOMPAT_TEST_HELM and KOMPAT_TEST_KUBECTL, or put them on PATH; .ci/run installs them). \
             Passing without this check."
        );
        return None;
    };
    let bin = tempfile::tempdir().expect("tempdir");
    std::os::unix::fs::symlink(helm, bin.path().join("helm")).expect("link helm");
    std::os::unix::fs::symlink(kubectl, bin.path().join("kubectl")).expect("link kubectl");
    Some(bin)
}

/// Runs kompat in `dir` with `bin` first on `PATH`: (exit code, stdout,
/// stderr).
fn kompat_with(bin: Option<&Path>, dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut path = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect::<Vec<_>>();
    if let Some(bin) = bin {
        path.insert(0, bin.to_owned());
    }
    let path = std::env::join_paths(path).expect("PATH");
    kompat_in_env(dir, args, &[("PATH", path.as_os_str())])
}

/// Every file below `dir` with its size, sorted: what a render must not
/// change.
fn listing(dir: &Path) -> Vec<(PathBuf, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let path = entry.path();
            let meta = entry.metadata().expect("metadata");
            if meta.is_dir() {
                stack.push(path);
            } else {
                out.push((path, meta.len()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_chart_and_the_kustomize_tree_rendered_by_the_real_tools() {
    let Some(bin) = real_tools("the rendering of fixtures/render") else { return };
    let before = listing(&fixture());
    for version in ["1.25", "1.20"] {
        let (code, stdout, stderr) =
            kompat_with(Some(bin.path()), &fixture(), &["lint", ".", "--kubernetes-version", version]);
        assert_eq!(stdout, "");
        insta::assert_snapshot!(format!("real_tools_at_{version}"), format!("exit {code}\n{stderr}"));
    }
    // The chart's switches rendered for the target: at 1.25 the PDB is
    // policy/v1 and the CronJob batch/v1, so neither is removed there.
    let (_, stdout, _) =
        kompat_with(Some(bin.path()), &fixture(), &["lint", ".", "--kubernetes-version", "1.25", "--format", "short"]);
    assert!(!stdout.contains("policy/v1beta1") && !stdout.contains("batch/v1beta1"), "{stdout}");
    assert_eq!(listing(&fixture()), before, "a render wrote into the project");
}

/// On an upgrade path each step renders the chart for its own release: the
/// PDB and CronJob switch to their GA versions as they arrive, so neither
/// old version is reported removed (one render for 1.20 would be, from
/// 1.25), while the Ingress, which the chart never switches, is a warning
/// then an error, each with its steps.
#[test]
fn on_an_upgrade_path_the_chart_renders_at_every_step() {
    let Some(bin) = real_tools("the rendering of fixtures/render along a path") else { return };
    let (code, out, err) = kompat_with(
        Some(bin.path()),
        &fixture(),
        &["lint", ".", "--kubernetes-version", "1.20..1.25", "--format", "short"],
    );
    let stdout = format!("{out}{err}");
    assert_eq!(code, 1, "{stdout}");
    assert!(!stdout.contains("policy/v1beta1") && !stdout.contains("batch/v1beta1"), "{stdout}");
    assert!(stdout.contains("warning[deprecated-api-version]: networking.k8s.io/v1beta1 Ingress is deprecated in v1.19+, unavailable in v1.22+; use networking.k8s.io/v1 Ingress (from Kubernetes 1.20 to 1.21 on the path 1.20..1.25)"), "{stdout}");
    assert!(stdout.contains("error[removed-api-version]: no matches for kind \"Ingress\" in version \"networking.k8s.io/v1beta1\" on Kubernetes 1.22: removed in 1.22; use networking.k8s.io/v1 Ingress (from Kubernetes 1.22 on the path 1.20..1.25)"), "{stdout}");
}

#[test]
fn without_rendering_the_cluster_api_shape_has_false_conversion_findings() {
    // The same tree without [render]: the CRD base lacks the webhook its
    // patch adds, so the conversion rules fire on it; rendered (above),
    // they skip it.
    let (code, _, stderr) = kompat_with(
        None,
        &fixture(),
        &["lint", ".", "--no-config", "--kubernetes-version", "1.25", "--format", "short"],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("error[undeclared-conversion]"), "{stderr}");
    assert!(stderr.contains("no renderer for Helm charts and kustomize directories"), "{stderr}");
}

#[test]
fn a_remote_kustomize_resource_fails_fast_without_the_network() {
    let Some(bin) = real_tools("a remote kustomize resource") else { return };
    let dir = dir_with(&[
        ("kompat.toml", "[render]\nkustomize = [\"kubectl\", \"kustomize\"]\ntimeout_seconds = 60\n"),
        (
            "deploy/kustomization.yaml",
            "resources:\n- https://raw.githubusercontent.com/kubernetes/website/main/content/en/examples/application/deployment.yaml\n",
        ),
    ]);
    let start = Instant::now();
    let (code, _, stderr) = kompat_with(Some(bin.path()), dir.path(), &["lint", ".", "--format", "short"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(start.elapsed() < Duration::from_secs(30), "{:?}", start.elapsed());
    assert!(stderr.contains("warning[render-failed]: `./deploy` did not render: it exited with status 1"), "{stderr}");
    assert_eq!(listing(dir.path()).len(), 2, "a render wrote into the project");
}

/// A fake renderer: an executable shell script at `dir/bin/name`.
fn fake(dir: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let path = bin.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

const CHART: &str = "apiVersion: v2\nname: web\nversion: 0.1.0\n";
const PDB_TEMPLATE: &str = "{{- if .Capabilities.APIVersions.Has \"policy/v1/PodDisruptionBudget\" }}\napiVersion: policy/v1\n{{- else }}\napiVersion: policy/v1beta1\n{{- end }}\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n";

/// A fake helm that renders the PDB template as helm would, from the
/// `--api-versions` it is given, and says on stderr what it was asked.
const FAKE_HELM: &str = r#"
case " $* " in
  *" --api-versions policy/v1/PodDisruptionBudget "*) v=policy/v1 ;;
  *) v=policy/v1beta1 ;;
esac
kube=none
prev=
for a in "$@"; do [ "$prev" = --kube-version ] && kube=$a; prev=$a; done
echo "asked: $1 $2 kube-version=$kube" >&2
printf -- '---\n# Source: web/templates/pdb.yaml\napiVersion: %s\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n' "$v"
"#;

#[test]
fn helm_is_asked_for_the_target_cluster_and_findings_are_in_the_template() {
    let dir = dir_with(&[
        ("kompat.toml", "[render]\nhelm = \"bin/helm\"\n"),
        ("chart/Chart.yaml", CHART),
        ("chart/templates/pdb.yaml", PDB_TEMPLATE),
    ]);
    fake(dir.path(), "helm", FAKE_HELM);
    // At 1.20 policy/v1 PDBs are not served: helm renders policy/v1beta1,
    // deprecated from 1.21 (no finding at 1.20).
    let (code, _, stderr) =
        kompat_with(None, dir.path(), &["lint", "chart", "--kubernetes-version", "1.20", "--format", "short"]);
    assert_eq!((code, stderr.as_str()), (0, "kompat lint: 0 errors, 0 warnings, 0 notes\n"));
    // At 1.21 the cluster serves policy/v1: helm renders it.
    let (code, _, stderr) =
        kompat_with(None, dir.path(), &["lint", "chart", "--kubernetes-version", "1.21", "--format", "short"]);
    assert_eq!((code, stderr.as_str()), (0, "kompat lint: 0 errors, 0 warnings, 0 notes\n"));
    // A fake that ignores the api-versions renders the removed version:
    // located at the template's own line for it, the note saying how.
    fake(dir.path(), "helm", "printf -- '---\\n# Source: web/templates/pdb.yaml\\napiVersion: policy/v1beta1\\nkind: PodDisruptionBudget\\n'");
    let (code, _, stderr) = kompat_with(None, dir.path(), &["lint", "chart", "--kubernetes-version", "1.25"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("fake_helm_removed_api_in_template", stderr);
}

#[test]
fn without_a_kubernetes_version_helm_renders_with_its_defaults_and_a_note_says_so() {
    let dir = dir_with(&[
        ("kompat.toml", "[render]\nhelm = \"bin/helm\"\n"),
        ("chart/Chart.yaml", CHART),
        ("chart/templates/pdb.yaml", PDB_TEMPLATE),
    ]);
    fake(dir.path(), "helm", "echo \"$@\" | grep -q -- --kube-version && exit 9; printf 'kind: X\\n'");
    let (code, _, stderr) = kompat_with(None, dir.path(), &["lint", "chart", "--format", "short"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr,
        "note[missing-input]: no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml): \
         Helm charts `chart` were rendered for Helm's default Kubernetes version and API versions, not the target cluster's\n\
         kompat lint: 0 errors, 0 warnings, 1 note\n"
    );
}

/// `kompat lint chart` with `body` as helm and `[render]` extra keys: the
/// short findings.
fn failing(body: &str, extra: &str) -> (i32, String, Duration) {
    let dir = dir_with(&[
        ("kompat.toml", &format!("[render]\nhelm = \"bin/helm\"\n{extra}")),
        ("chart/Chart.yaml", CHART),
        ("chart/templates/pdb.yaml", PDB_TEMPLATE),
    ]);
    fake(dir.path(), "helm", body);
    let start = Instant::now();
    let (code, _, stderr) =
        kompat_with(None, dir.path(), &["lint", "chart", "--kubernetes-version", "1.33", "--format", "human"]);
    (code, stderr, start.elapsed())
}

#[test]
fn every_failed_render_is_a_warning_never_an_input_error() {
    let (code, stderr, _) = failing("echo 'Error: template: web/templates/pdb.yaml:3: unexpected EOF' >&2; exit 1", "");
    assert_eq!(code, 0);
    insta::assert_snapshot!("fake_helm_exits_1", stderr);

    let (code, stderr, took) = failing("echo rendering >&2; exec sleep 30", "timeout_seconds = 1\n");
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(15), "{took:?}");
    insta::assert_snapshot!("fake_helm_times_out", stderr);

    let (code, stderr, took) = failing("exec yes 'apiVersion: v1'", "max_output_mib = 1\n");
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(15), "{took:?}");
    insta::assert_snapshot!("fake_helm_floods", stderr);

    // Made to exit 2 by a level, like any warning: `deny` makes it exit 1.
    let (code, _, _) = failing("exit 1", "[lint.levels]\nrender-failed = \"deny\"\n");
    assert_eq!(code, 1);
}

#[test]
fn a_renderer_that_is_not_installed_is_the_renderer_note() {
    let dir = dir_with(&[
        ("kompat.toml", "[render]\nhelm = \"kompat-test-no-such-helm\"\n"),
        ("chart/Chart.yaml", CHART),
        ("chart/templates/pdb.yaml", PDB_TEMPLATE),
    ]);
    let (code, _, stderr) = kompat_with(None, dir.path(), &["lint", "chart", "--kubernetes-version", "1.33"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("renderer_not_installed", stderr);
}

#[test]
fn a_bad_render_key_is_a_located_input_error() {
    let dir = dir_with(&[("kompat.toml", "[render]\ntimeout_seconds = \"soon\"\n"), ("chart/Chart.yaml", CHART)]);
    let (code, _, stderr) = kompat_with(None, dir.path(), &["lint", "chart"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("kompat.toml:2:19"), "{stderr}");
}

#[test]
fn a_kustomize_tree_renders_once_through_its_root() {
    // A fake kustomize that renders the CRD with its webhook, as kustomize
    // would apply the patch.
    let crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.io\nspec:\n  group: example.io\n  names:\n    kind: Widget\n    plural: widgets\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n";
    let patch = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.io\nspec:\n  conversion:\n    strategy: Webhook\n";
    let rendered = format!("{crd}  conversion:\n    strategy: Webhook\n---\napiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: w-web\n");
    let dir = dir_with(&[
        ("kompat.toml", "[render]\nkustomize = [\"bin/kustomize\", \"build\"]\n[kubernetes]\nversion = \"1.33\"\n"),
        ("config/crd/kustomization.yaml", "resources:\n- bases/widgets.yaml\npatches:\n- path: patches/webhook.yaml\n"),
        ("config/crd/bases/widgets.yaml", crd),
        ("config/crd/patches/webhook.yaml", patch),
        ("config/default/kustomization.yaml", "namePrefix: w-\nresources:\n- ../crd\n- web.yaml\n"),
        ("config/default/web.yaml", "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n"),
        ("rendered.txt", &rendered),
    ]);
    fake(dir.path(), "kustomize", "[ \"$1\" = build ] || exit 5; cat \"$(dirname \"$0\")/../rendered.txt\"");
    let (code, _, stderr) = kompat_with(None, dir.path(), &["lint", "config", "--format", "short"]);
    assert_eq!(code, 1, "{stderr}");
    // The Ingress once (in its resource file, not again directly), the
    // CRD's webhook seen, the patch never a CRD of its own.
    insta::assert_snapshot!("fake_kustomize_tree", stderr);
}

#[test]
fn init_writes_the_render_table_for_the_renderers_on_path() {
    let dir = dir_with(&[
        ("chart/Chart.yaml", CHART),
        ("chart/templates/pdb.yaml", PDB_TEMPLATE),
        ("config/default/kustomization.yaml", "resources: []\n"),
    ]);
    fake(dir.path(), "helm", "exit 0");
    let (code, out, err) = kompat_with(Some(&dir.path().join("bin")), dir.path(), &["init", "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\n[render]\nhelm = \"helm\"\n"), "{out}");
    // kubectl or kustomize may be installed here; either way the key is
    // there, set or commented.
    assert!(out.contains("kustomize = ["), "{out}");
    let config: toml::Table = toml::from_str(&out).unwrap_or_else(|err| panic!("{err}\n{out}"));
    assert_eq!(config["render"]["helm"].as_str(), Some("helm"));
}
