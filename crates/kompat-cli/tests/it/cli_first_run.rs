//! A first run on a repository nobody here wrote: `kompat lint` never stops
//! at a Helm chart's templates, a kustomize patch or vendored code
//! (`fixtures/first-run/`, in kubebuilder's and Helm's shapes), says what it
//! did not render, and leaves out what `exclude` and `--exclude` name.

use std::path::{Path, PathBuf};

use crate::common::{dir_with, findings_on_stderr, kompat_in};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/first-run")
}

/// Runs `kompat lint --format short ARGS` in `dir`: the exit code and the
/// findings, one per line.
fn lint(dir: &Path, args: &[&str]) -> (i32, Vec<String>, String) {
    let mut all = vec!["lint", "--format", "short"];
    all.extend(args);
    let (code, stdout, stderr) = findings_on_stderr(kompat_in(dir, &all));
    (code, stdout.lines().map(str::to_owned).collect(), stderr)
}

const RENDERER_NOTE: &str =
    "note[missing-input]: no renderer for Helm charts and kustomize directories: not rendered: ";

#[test]
fn a_controller_tree_with_a_chart_and_kustomize_is_linted_without_a_hard_stop() {
    let (code, findings, stderr) = lint(&fixture(), &[]);
    assert_eq!(code, 0, "{stderr}");
    let expected = [
        "note[missing-input]: no baseline (--baseline, or `baseline` in kompat.toml): `removed-gate`, `rewritten-history` did not run".to_owned(),
        format!(
            "{RENDERER_NOTE}Helm charts `./chart` (templates not read; values files checked); kustomize directories `./kubebuilder/config/crd`, `./kubebuilder/config/default`, `./kubebuilder/config/manager`"
        ),
    ];
    assert_eq!(findings, expected, "{stderr}");
    // The human format names the partial CRDs and how rendering comes.
    let (code, _, stderr) = findings_on_stderr(kompat_in(&fixture(), &["lint"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("= partial CRDs (kustomize patches) not checked as CRDs: `./kubebuilder/config/crd/patches/cainjection_in_widgets.yaml`, `./kubebuilder/config/crd/patches/webhook_in_widgets.yaml`"),
        "{stderr}"
    );
    assert!(stderr.contains("to render them, set `helm = \"helm\"` (charts) and `kustomize = [\"kubectl\", \"kustomize\"]` (kustomize directories) under `[render]` in kompat.toml (docs/config.md#render)"));
}

#[test]
fn named_patches_and_templates_are_not_hard_errors() {
    let patches = [
        "kubebuilder/config/crd/patches/webhook_in_widgets.yaml",
        "kubebuilder/config/crd/patches/cainjection_in_widgets.yaml",
        "kubebuilder/config/default/manager_webhook_patch.yaml",
        "chart/templates/deployment.yaml",
        "chart/templates/crds.yaml",
    ];
    for path in patches {
        let (code, findings, stderr) = lint(&fixture(), &["--no-config", "--kubernetes-version", "1.33", path]);
        assert_eq!(code, 0, "{path}: {stderr}");
        assert_eq!(findings.len(), 1, "{path}: {findings:?}");
        assert!(findings[0].starts_with(RENDERER_NOTE), "{path}: {findings:?}");
    }
    // Directories inside a chart's templates or below a kustomize directory.
    for path in ["chart/templates", "kubebuilder/config/crd/patches"] {
        let (code, findings, stderr) = lint(&fixture(), &["--no-config", path]);
        assert_eq!(code, 0, "{path}: {stderr}");
        assert_eq!(findings.len(), 1, "{path}: {findings:?}");
        assert!(findings[0].starts_with(RENDERER_NOTE), "{path}: {findings:?}");
    }
    // The full CRD of the same overlay is checked as a CRD: no note for it.
    let (code, findings, stderr) =
        lint(&fixture(), &["--no-config", "kubebuilder/config/crd/bases/batch.example.io_widgets.yaml"]);
    assert_eq!((code, findings.len()), (0, 1), "{findings:?}\n{stderr}");
    assert_eq!(findings[0], format!("{RENDERER_NOTE}kustomize directories `kubebuilder/config/crd`"));
}

const PARTIAL_CRD: &str =
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.io\n";

#[test]
fn a_partial_crd_is_an_error_outside_an_overlay_and_a_malformed_one_everywhere() {
    // Outside a kustomize directory, a CRD without `spec` is malformed.
    let dir = dir_with(&[("crds/widgets.yaml", PARTIAL_CRD)]);
    let (code, _, stderr) = lint(dir.path(), &["."]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("spec"), "{stderr}");
    // In one it is a patch.
    let dir = dir_with(&[("crds/widgets.yaml", PARTIAL_CRD), ("crds/kustomization.yaml", "resources: []\n")]);
    let (code, _, stderr) = lint(dir.path(), &["."]);
    assert_eq!(code, 0, "{stderr}");
    // Below one too.
    let dir = dir_with(&[
        ("config/crd/patches/widgets.yaml", PARTIAL_CRD),
        ("config/crd/kustomization.yml", "resources: []\n"),
    ]);
    let (code, _, stderr) = lint(dir.path(), &["."]);
    assert_eq!(code, 0, "{stderr}");
    // YAML that does not parse is malformed as what it is, in an overlay too.
    let broken = format!("{PARTIAL_CRD}spec: [\n");
    let dir = dir_with(&[("crds/widgets.yaml", &broken), ("crds/Kustomization", "resources: []\n")]);
    let (code, _, stderr) = lint(dir.path(), &["."]);
    assert_eq!(code, 2, "{stderr}");
}

/// A build script's CRD fragment with Go template actions, outside any
/// chart (cert-manager's `make/_shared_new/helm/crd.template.header.yaml`
/// shape), is a template: named in the note, never an input error. Broken
/// YAML without a template action is still malformed.
#[test]
fn a_template_outside_a_chart_is_named_not_an_error() {
    let fragment = "{{- if .Values.crds.enabled }}\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: \"widgets.example.io\"\n";
    let dir = dir_with(&[("make/helm/crd.template.header.yaml", fragment)]);
    let (code, findings, stderr) = lint(dir.path(), &["--no-config", "."]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        findings.iter().any(|f| f.starts_with("note[missing-input]: Go templates outside a chart, not read (no chart renders them): `./make/helm/crd.template.header.yaml`")),
        "{findings:?}"
    );
    let (code, _, stderr) = findings_on_stderr(kompat_in(dir.path(), &["lint", "--no-config", "."]));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("subject: renderer"), "{stderr}");
    let broken = fragment.replace("{{- if .Values.crds.enabled }}", "- [");
    let dir = dir_with(&[("make/helm/crd.yaml", &broken)]);
    let (code, _, stderr) = lint(dir.path(), &["--no-config", "."]);
    assert_eq!(code, 2, "{stderr}");
}

/// A manifest in UTF-16 with a byte order mark (argo-cd keeps one among its
/// test data) is YAML, read and judged like any other.
#[test]
fn a_utf16_manifest_is_read() {
    let text = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: web\n";
    let bytes: Vec<u8> = [0xFF, 0xFE].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
    let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("{err}"));
    std::fs::write(dir.path().join("pdb.yaml"), bytes).unwrap_or_else(|err| panic!("{err}"));
    let (code, findings, stderr) = lint(dir.path(), &["--no-config", "--kubernetes-version", "1.25", "pdb.yaml"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(findings.iter().any(|f| f.starts_with("pdb.yaml:1:13: error[removed-api-version]")), "{findings:?}");
}

#[test]
fn a_chart_is_known_by_its_chart_yaml() {
    let template = "{{- /*\nA template.\n*/}}\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n";
    let values = "featureGates:\n  NoSuchGate: true\n";
    let dir = dir_with(&[
        ("chart/Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n"),
        ("chart/templates/pdb.yaml", template),
        ("chart/charts/sub/Chart.yaml", "apiVersion: v2\nname: sub\nversion: 0.1.0\n"),
        ("chart/charts/sub/templates/crd.yaml", "{{- if .Values.crds }}\nkind: CustomResourceDefinition\n{{- end }}\n"),
        ("chart/values.yaml", values),
        // helm-unittest's suites (cert-manager's chart has them): their
        // `set:` values are test inputs.
        (
            "chart/tests/deployment_test.yaml",
            "suite: gates\ntests:\n- it: sets gates\n  set:\n    featureGates: OtherGate=true\n    extraArgs: [--feature-gates=TestOnlyGate=true]\n",
        ),
    ]);
    let (code, findings, stderr) = lint(dir.path(), &[".", "--kubernetes-version", "1.33"]);
    assert!(findings.iter().all(|f| !f.contains("TestOnlyGate") && !f.contains("deployment_test")), "{findings:?}");
    // The values are still deployment material: the unknown gate is judged
    // against Kubernetes' gates, as without a chart.
    assert!(findings.iter().any(|f| f.contains("NoSuchGate")), "{findings:?}");
    assert!(findings.iter().all(|f| !f.contains("pdb.yaml") && !f.contains("crd.yaml")), "{findings:?}");
    assert_ne!(code, 2, "{stderr}");
    let note = findings.iter().find(|f| f.starts_with(RENDERER_NOTE));
    assert_eq!(
        note.map(String::as_str),
        Some(
            format!(
                "{RENDERER_NOTE}Helm charts `./chart`, `./chart/charts/sub` (templates not read; values files checked)"
            )
            .as_str()
        )
    );
}

/// A tree whose `generated/` holds declarations with an error.
fn tree_with_generated(extra: &[(&'static str, &'static str)]) -> tempfile::TempDir {
    let bad = "[[feature]]\nname = \"Eager\"\nspecs = [{ version = \"1.31\", stage = \"Alpha\", default = true }]\n";
    let good = "[[feature]]\nname = \"Ok\"\nspecs = [{ version = \"1.31\", stage = \"Alpha\", default = false }]\n";
    let mut files = vec![("features.toml", good), ("generated/features.toml", bad)];
    files.extend(extra);
    dir_with(&files)
}

fn codes(dir: &Path, args: &[&str]) -> (i32, Vec<String>) {
    let mut all = vec!["-A", "missing-input"];
    all.extend(args);
    let (code, findings, stderr) = lint(dir, &all);
    assert_ne!(code, 2, "{stderr}");
    (code, findings)
}

#[test]
fn exclude_on_the_command_line_and_in_kompat_toml() {
    let alpha = "./generated/features.toml:3:57: error[alpha-enabled-by-default]: alpha feature Eager cannot be enabled by default";
    let dir = tree_with_generated(&[]);
    assert_eq!(codes(dir.path(), &["."]), (1, vec![alpha.to_owned()]));
    for glob in ["generated", "generated/", "/generated", "**/generated/*.toml", "generated/features.toml"] {
        assert_eq!(codes(dir.path(), &[".", "--exclude", glob]), (0, vec![]), "{glob}");
    }
    for glob in ["generate", "features.tom", "/features.toml/"] {
        assert_eq!(codes(dir.path(), &[".", "--exclude", glob]).0, 1, "{glob}");
    }
    // Repeatable; a named file is read whatever the globs.
    assert_eq!(codes(dir.path(), &[".", "--exclude", "x", "--exclude", "generated"]).0, 0);
    assert_eq!(codes(dir.path(), &["generated/features.toml", "--exclude", "generated"]).0, 1);
    // In kompat.toml, relative to its directory, wherever lint runs.
    let dir =
        tree_with_generated(&[("kompat.toml", "decls = [\".\"]\nexclude = [\"/generated/\"]\n"), ("sub/.keep", "")]);
    assert_eq!(codes(dir.path(), &[]), (0, vec![]));
    assert_eq!(codes(&dir.path().join("sub"), &[]), (0, vec![]));
    // A glob that does not compile is an error located in kompat.toml.
    let dir = tree_with_generated(&[("kompat.toml", "decls = [\".\"]\nexclude = [\"{a,b\"]\n")]);
    let (code, _, stderr) = lint(dir.path(), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("error: bad glob in `exclude`") && stderr.contains("--> kompat.toml:2:12"), "{stderr}");
    let (code, _, stderr) = lint(dir.path(), &["--no-config", ".", "--exclude", "{a,b"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("bad glob `{a,b` in --exclude"), "{stderr}");
}

#[test]
fn gitignore_is_honoured_as_ripgrep_honours_it() {
    let dir = tree_with_generated(&[(".gitignore", "generated/\n")]);
    // Not a git repository: ripgrep reads no .gitignore (without
    // --no-require-git), and neither does kompat.
    assert_eq!(codes(dir.path(), &["."]).0, 1);
    // In a git repository, it is honoured (a `.git` directory makes one).
    std::fs::create_dir(dir.path().join(".git")).expect("create .git");
    assert_eq!(codes(dir.path(), &["."]), (0, vec![]));
    // Named, an ignored file is read.
    assert_eq!(codes(dir.path(), &["generated/features.toml"]).0, 1);
}

#[test]
fn vendored_code_is_never_the_projects_own() {
    let bad = "[[feature]]\nname = \"Eager\"\nspecs = [{ version = \"1.31\", stage = \"Alpha\", default = true }]\n";
    let broken = "{{- /* not YAML */}}\nkind: [\n";
    for dir_name in ["vendor", "third_party", "node_modules"] {
        let toml = format!("{dir_name}/lib/features.toml");
        let yaml = format!("{dir_name}/lib/crd.yaml");
        let nested = format!("pkg/{dir_name}/features.toml");
        let crd = format!("{broken}# CustomResourceDefinition\n");
        let dir = dir_with(&[("features.toml", ""), (&toml, bad), (&yaml, &crd), (&nested, bad)]);
        let (code, findings, stderr) = lint(dir.path(), &["-A", "missing-input", "."]);
        assert_eq!((code, findings), (0, vec![]), "{dir_name}: {stderr}");
        // Named, it is read.
        assert_eq!(codes(dir.path(), &[&toml]).0, 1, "{dir_name}");
    }
    // The fixture's vendored gates are not the project's.
    let (code, stdout, stderr) = kompat_in(&fixture(), &["features"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("WidgetScaling") && !stdout.contains("Vendored") && !stdout.contains("ThirdParty"),
        "{stdout}"
    );
}

#[test]
fn exclude_in_kompat_toml_applies_to_every_command_reading_decls() {
    let other =
        "[[feature]]\nname = \"Generated\"\nspecs = [{ version = \"1.31\", stage = \"Alpha\", default = false }]\n";
    let ok = "[[feature]]\nname = \"Ok\"\nspecs = [{ version = \"1.31\", stage = \"Alpha\", default = false }]\n";
    let config = "binary_version = \"1.31\"\ndecls = [\".\"]\nexclude = [\"generated/\"]\n";
    let dir = dir_with(&[("kompat.toml", config), ("features.toml", ok), ("generated/features.toml", other)]);
    let (code, stdout, stderr) = kompat_in(dir.path(), &["features"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Ok") && !stdout.contains("Generated"), "{stdout}");
    let without = "binary_version = \"1.31\"\ndecls = [\".\"]\n";
    std::fs::write(dir.path().join("kompat.toml"), without).expect("write kompat.toml");
    let (code, stdout, stderr) = kompat_in(dir.path(), &["features"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Ok") && stdout.contains("Generated"), "{stdout}");
}

#[test]
fn exclude_on_the_command_line_of_the_query_commands() {
    let other =
        "[[feature]]\nname = \"Generated\"\nspecs = [{ version = \"1.31\", stage = \"Alpha\", default = false }]\n";
    let ok = "[[feature]]\nname = \"Ok\"\nspecs = [{ version = \"1.31\", stage = \"Alpha\", default = false }]\n";
    let dir = dir_with(&[("features.toml", ok), ("generated/features.toml", other)]);
    let run = |args: &[&str]| {
        let (code, stdout, stderr) = kompat_in(dir.path(), args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        stdout
    };
    let all = run(&["features", "--decls", ".", "--binary-version", "1.31"]);
    assert!(all.contains("Ok") && all.contains("Generated"), "{all}");
    let some = run(&["features", "--decls", ".", "--binary-version", "1.31", "--exclude", "generated"]);
    assert!(some.contains("Ok") && !some.contains("Generated"), "{some}");
    let (code, _, stderr) = kompat_in(dir.path(), &["features", "--decls", ".", "--exclude", "{a"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("bad glob `{a` in --exclude"), "{stderr}");
}
