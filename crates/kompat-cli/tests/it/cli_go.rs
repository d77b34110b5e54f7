//! Go trees end to end: the fixtures in Kubernetes' and Kueue's shapes
//! (`fixtures/go/`) exported byte for byte, kept fresh by `kompat gen`,
//! linted with Go references; discovery rules on small trees; every reader
//! error located (snapshots).

use std::path::{Path, PathBuf};

use crate::common::{dir_with, findings_on_stderr, kompat_in};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/go")
}

const LIST: &str = "test/compatibility_lifecycle/reference/versioned_feature_list.yaml";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|err| format!("<{}: {err}>", path.display()))
}

#[test]
fn export_writes_the_committed_list() {
    for (project, decls) in [("kube", &["pkg", "staging"][..]), ("kueue", &["pkg"][..])] {
        let dir = fixtures().join(project);
        let mut args = vec!["export", "--format", "k8s-yaml"];
        for d in decls {
            args.extend(["--decls", d]);
        }
        let (code, stdout, stderr) = kompat_in(&dir, &args);
        assert_eq!(code, 0, "{project}: {stderr}");
        assert_eq!(stdout, read(&dir.join(LIST)), "{project}");
    }
}

#[test]
fn doc_comments_are_descriptions() {
    let dir = fixtures().join("kube");
    let (code, stdout, stderr) =
        kompat_in(&dir, &["export", "--decls", "pkg", "--decls", "staging", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    // StreamingList is keyed `genericfeatures.StreamingList` in pkg/features;
    // its constant and doc comment are in the staging package.
    for expected in [
        "\"description\": \"owner: @list-maintainers\\n\\nStreams list responses as watch events.\"",
        "\"description\": \"owner: @widget-maintainers\\nkep: KEP-1001\\n\\nCaches widgets between reconciles.\"",
    ] {
        assert!(stdout.contains(expected), "{expected}\n{stdout}");
    }
}

#[test]
fn gen_check_and_lint_replace_the_scripts() {
    let cases = [
        (
            "kube",
            "pkg/features/kube_features.go:42:2: warning[orphaned-gate]: feature gate LegacyCriApi is declared but never referenced in code\n\
             pkg/widget/controller.go:28:53: warning[unknown-gate-reference]: feature gate Unregistered is not declared\n\
             staging/src/k8s.io/apiserver/pkg/features/kube_features.go:30:2: warning[orphaned-gate]: feature gate AsyncAudit is declared but never referenced in code",
        ),
        (
            "kueue",
            "pkg/features/kube_features.go:43:73: warning[locked-gate-cleanup]: feature PartialAdmission has been locked to default since 0.10 (10 releases) and should be cleaned up\n\
             pkg/features/kube_features.go:49:2: warning[orphaned-gate]: feature gate PendingWorkloadsView is declared but never referenced in code",
        ),
    ];
    for (project, expected) in cases {
        let dir = fixtures().join(project);
        let (code, stdout, stderr) = kompat_in(&dir, &["gen", "--check"]);
        assert_eq!((code, stdout.as_str()), (0, ""), "{project}: {stderr}");
        let (code, stdout, stderr) = findings_on_stderr(kompat_in(&dir, &["lint", "--format", "short"]));
        assert_eq!(code, 0, "{project}: {stderr}");
        assert_eq!(stdout.trim_end(), expected, "{project}");
    }
}

const GATES: &str = "package features\n\nimport (\n\t\"k8s.io/apimachinery/pkg/util/version\"\n\t\"k8s.io/component-base/featuregate\"\n)\n\nconst (\n\tKept featuregate.Feature = \"Kept\"\n\tDropped featuregate.Feature = \"Dropped\"\n)\n\nvar gates = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tKept: {{Version: version.MustParse(\"1.35\"), Default: false, PreRelease: featuregate.Alpha}},\n\tDropped: {{Version: version.MustParse(\"1.35\"), Default: true, PreRelease: featuregate.Beta}},\n}\n";

const USER: &str = "package user\n\nimport (\n\tfeats \"example.io/app/pkg/features\"\n)\n\nfunc run(enabled func(string) bool) bool {\n\treturn feats.Enabled(feats.Kept) && feats.Enabled(feats.Dropped)\n}\n";

/// `kompat <args>` in a directory of `files`: (exit code, stdout, stderr).
fn run(files: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let dir = dir_with(files);
    kompat_in(dir.path(), args)
}

fn names(yaml: &str) -> Vec<&str> {
    yaml.lines().filter_map(|l| l.strip_prefix("- name: ")).collect()
}

#[test]
fn discovery_in_directories() {
    let vendored = GATES.replace("Kept", "Vendored").replace("Dropped", "AlsoVendored");
    let files = [
        ("go.mod", "module example.io/app\n"),
        ("pkg/features/features.go", GATES),
        ("pkg/features/testdata/t.go", &GATES.replace("Kept", "FromTestdata") as &str),
        ("pkg/features/features_test.go", &GATES.replace("Kept", "FromTest") as &str),
        ("pkg/features/zz_generated.go", &GATES.replace("Kept", "FromGenerated") as &str),
        ("vendor/example.io/lib/features/f.go", &vendored as &str),
    ];
    let (code, stdout, stderr) = run(&files, &["export", "--decls", ".", "--format", "k8s-yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(names(&stdout), ["Dropped", "Kept"]);
    // Named, vendor/ and testdata/ are read; so is a named test file.
    for (path, expected) in [
        ("vendor", &["AlsoVendored", "Vendored"][..]),
        ("pkg/features/testdata", &["Dropped", "FromTestdata"][..]),
        ("pkg/features/features_test.go", &["Dropped", "FromTest"][..]),
    ] {
        let (code, stdout, stderr) = run(&files, &["export", "--decls", path, "--format", "k8s-yaml"]);
        assert_eq!(code, 0, "{path}: {stderr}");
        assert_eq!(names(&stdout), expected, "{path}");
    }
}

#[test]
fn the_same_gate_in_two_packages_is_read_once() {
    let files = [
        ("a/go.mod", "module example.io/a\n"),
        ("a/features/f.go", GATES),
        ("b/go.mod", "module example.io/b\n"),
        ("b/features/f.go", GATES),
    ];
    let (code, stdout, stderr) = run(&files, &["export", "--decls", "a", "--decls", "b", "--format", "k8s-yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(names(&stdout), ["Dropped", "Kept"]);
    let changed = GATES.replace("Default: true", "Default: false");
    let files = [("a/features/f.go", GATES), ("b/features/f.go", &changed as &str)];
    let (code, stdout, stderr) = run(&files, &["export", "--decls", "a", "--decls", "b", "--format", "k8s-yaml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with("error: multiple conflicting specs found for feature:Dropped, [\n[{true false Beta 1.35}], \n[{false false Beta 1.35}]] (first declared at a/features/f.go:15:2)\n"),
        "{stderr}"
    );
    assert!(stderr.contains("--> b/features/f.go:15:2"), "{stderr}");
}

#[test]
fn removing_a_beta_gate_that_code_still_checks() {
    let before = [("go.mod", "module example.io/app\n"), ("pkg/features/features.go", GATES), ("cmd/user.go", USER)];
    let dir = dir_with(&before);
    let (code, baseline, stderr) = kompat_in(dir.path(), &["export", "--decls", "pkg", "--format", "k8s-yaml"]);
    assert_eq!(code, 0, "{stderr}");
    let removed = GATES.replace(
        "\tDropped: {{Version: version.MustParse(\"1.35\"), Default: true, PreRelease: featuregate.Beta}},\n",
        "",
    );
    let after = [
        ("go.mod", "module example.io/app\n"),
        ("pkg/features/features.go", &removed as &str),
        ("cmd/user.go", USER),
        ("list.yaml", &baseline as &str),
    ];
    let (code, stdout, stderr) = findings_on_stderr(run(
        &after,
        &["lint", "pkg", "cmd", "--baseline", "list.yaml", "--binary-version", "1.36", "--format", "short"],
    ));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stdout.trim_end(),
        "cmd/user.go:8:58: error[removed-gate-reference]: feature gate Dropped was removed but is still referenced\n\
         list.yaml:4:9: error[removed-gate]: feature Dropped cannot be removed while in beta"
    );
}

#[test]
fn reader_errors_are_located() {
    let dir = fixtures().join("errors");
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(&dir).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
    entries.sort();
    assert!(entries.len() >= 15, "{entries:?}");
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let (code, stdout, stderr) = kompat_in(&dir, &["export", "--decls", &name, "--format", "k8s-yaml"]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{name}: {stderr}");
        assert!(stderr.starts_with("error: "), "{name}: {stderr}");
        assert!(stderr.contains(&format!("--> {name}:")), "{name} is not located: {stderr}");
        insta::assert_snapshot!(format!("go_error_{}", name.trim_end_matches(".go")), stderr);
    }
}

#[test]
fn verify_messages_are_kubernetes() {
    let root = fixtures().join("kueue");
    let features = read(&root.join("pkg/features/kube_features.go"))
        .replace("version.MustParse(\"0.9\"), Default: false", "version.MustParse(\"0.9\"), Default: true");
    let files = [
        ("go.mod", read(&root.join("go.mod"))),
        ("kompat.toml", read(&root.join("kompat.toml"))),
        (LIST, read(&root.join(LIST))),
        ("pkg/features/kube_features.go", features),
        ("pkg/scheduler/scheduler.go", read(&root.join("pkg/scheduler/scheduler.go"))),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let dir = dir_with(&files);
    let (code, stdout, _) = kompat_in(dir.path(), &["gen", "--check"]);
    assert_eq!(code, 1);
    assert!(
        stdout.starts_with(&format!("detected diff in versioned feature list ({LIST}), diff: \n--- a/{LIST}\n")),
        "{stdout}"
    );
    assert!(stdout.contains("\n-  - default: false\n+  - default: true\n"), "{stdout}");
    let (code, stdout, _) = findings_on_stderr(kompat_in(dir.path(), &["lint", "--format", "short"]));
    assert_eq!(code, 1);
    assert!(
        stdout.contains("pkg/features/kube_features.go:50:48: error[alpha-enabled-by-default]: alpha feature PendingWorkloadsView cannot be enabled by default"),
        "{stdout}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_go_is_an_error_not_a_hang() {
    let dir = dir_with(&[]);
    let fifo = dir.path().join("gates.go");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    if !made {
        eprintln!("mkfifo is not available; nothing to check");
        return;
    }
    let (code, stdout, stderr) = kompat_in(dir.path(), &["export", "--decls", "gates.go", "--format", "k8s-yaml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error: cannot read gates.go: it is a FIFO, not a regular file"), "{stderr}");
}

#[test]
fn oversized_go_files_are_errors_when_they_would_be_parsed() {
    let mut big = String::from(GATES);
    big.push_str(&"// padding to make the file larger than kompat parses\n".repeat(90_000));
    let (code, stdout, stderr) = run(&[("big.go", &big)], &["export", "--decls", "big.go", "--format", "k8s-yaml"]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error: big.go has 4"), "{stderr}");
    assert!(stderr.contains("kompat parses Go files of at most 4194304 bytes"), "{stderr}");
    // A large file that cannot declare gates is skipped after a byte search.
    let unrelated = big.replace("k8s.io/component-base/featuregate", "example.io/other");
    let (code, stdout, stderr) =
        run(&[("big.go", &unrelated)], &["export", "--decls", "big.go", "--format", "k8s-yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(names(&stdout).is_empty());
}

/// A controller in jobset's and cluster-api's shape (`fixtures/go/controller`):
/// unversioned gates registered with `Add`, a versioned map passed inline to
/// `AddVersioned`, a gate read only inside its package. Every reference
/// counts, so the only findings are the true ones: a gate nothing reads and a
/// constant no map registers. `TLSOptions` has been GA and locked "since 0.0"
/// as component-base stores it, which is no version it was locked at:
/// `locked-gate-cleanup` does not judge it.
#[test]
fn unversioned_gates_are_declarations() {
    let dir = fixtures().join("controller");
    let (code, stdout, stderr) = findings_on_stderr(kompat_in(&dir, &["lint", "--format", "short"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout.trim_end(),
        "internal/controller/controller.go:15:72: warning[unknown-gate-reference]: feature gate Unregistered is not declared\n\
         pkg/features/features.go:51:2: warning[orphaned-gate]: feature gate LegacyStatus is declared but never referenced in code\n\
         note[missing-input]: no baseline (--baseline, or `baseline` in kompat.toml): `removed-gate`, `rewritten-history` did not run"
    );
    // One spec for every version: unversioned gates resolve the same at any
    // emulation version; the inline versioned one follows its specs.
    for (version, name) in [("0.6", "features_at_0.6"), ("0.4", "features_at_0.4")] {
        let (code, stdout, stderr) = kompat_in(&dir, &["features", "--emulation-version", version]);
        assert_eq!(code, 0, "{stderr}");
        insta::assert_snapshot!(format!("controller_{name}"), stdout);
    }
    // Settings and did-you-mean know them; a locked gate is locked.
    let (code, _, stderr) = kompat_in(&dir, &["features", "--feature-gates", "InPlaceRestrt=true"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: unrecognized feature gate: InPlaceRestrt\n  = `InPlaceRestrt`: did you mean `InPlaceRestart`?\n"
    );
    let (code, _, stderr) = kompat_in(&dir, &["features", "--feature-gates", "TLSOptions=false"]);
    assert_eq!(
        (code, stderr.as_str()),
        (2, "error: cannot set feature gate TLSOptions to false, feature is locked to true\n")
    );
}

/// `export --format k8s-yaml` is the tool's list: it reads neither the
/// unversioned map nor the inline one, and a note says so. JSON lists every
/// gate, an unversioned one with its one spec at 0.0.
#[test]
fn k8s_yaml_leaves_out_what_the_tool_does_not_read() {
    let dir = fixtures().join("controller");
    let (code, stdout, stderr) = kompat_in(&dir, &["export", "--format", "k8s-yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.ends_with("\n[]\n"), "{stdout}");
    assert_eq!(
        stderr,
        "note: the k8s-yaml list leaves out 6 gates (5 declared in unversioned FeatureSpec maps, 1 declared in VersionedSpecs maps inside functions), which Kubernetes' compatibility_lifecycle tool does not read\n"
    );
    let (code, stdout, stderr) = kompat_in(&dir, &["export", "--format", "json"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    insta::assert_snapshot!("controller_export_json", stdout);
    // Next to a versioned map, only the unversioned gates are left out.
    let files = [
        ("go.mod", "module example.io/app\n"),
        ("pkg/features/versioned.go", GATES),
        (
            "pkg/features/unversioned.go",
            "package features\n\nimport \"k8s.io/component-base/featuregate\"\n\nvar old = map[featuregate.Feature]featuregate.FeatureSpec{\n\tOld: {Default: false, PreRelease: featuregate.Alpha},\n}\n",
        ),
    ];
    let (code, stdout, stderr) = run(&files, &["export", "--decls", "pkg", "--format", "k8s-yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(names(&stdout), ["Dropped", "Kept"]);
    assert_eq!(
        stderr,
        "note: the k8s-yaml list leaves out 1 gate declared in unversioned FeatureSpec maps, which Kubernetes' compatibility_lifecycle tool does not read\n"
    );
    let (code, stdout, stderr) = run(&files, &["export", "--decls", "pkg", "--format", "toml"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(stdout.lines().filter(|l| l.starts_with("name = ")).count(), 3, "{stdout}");
}

const UNVERSIONED: &str = "package features\n\nimport \"k8s.io/component-base/featuregate\"\n\nvar gates = map[featuregate.Feature]featuregate.FeatureSpec{\n\tX: {Default: false, PreRelease: featuregate.Alpha},\n\tY: {Default: true, PreRelease: featuregate.Beta},\n}\n";

/// component-base registers a gate once: the same spec again is accepted,
/// another is an error, whether the other declaration is versioned or not.
#[test]
fn a_gate_registered_twice_must_have_the_same_spec() {
    let same = "package features\n\nimport \"k8s.io/component-base/featuregate\"\n\nfunc init() {\n\t_ = map[featuregate.Feature]featuregate.FeatureSpec{\n\t\tX: {Default: false, PreRelease: featuregate.Alpha},\n\t}\n}\n";
    let files = [("pkg/features/a.go", UNVERSIONED), ("pkg/features/b.go", same)];
    let (code, stdout, stderr) = run(&files, &["export", "--decls", "pkg", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.matches("\"name\": \"X\"").count(), 1, "{stdout}");
    let other = same.replace("featuregate.Alpha", "featuregate.Beta");
    let files = [("pkg/features/a.go", UNVERSIONED), ("pkg/features/b.go", &other as &str)];
    let (code, _, stderr) = run(&files, &["export", "--decls", "pkg", "--format", "json"]);
    assert_eq!(code, 2, "{stderr}");
    insta::assert_snapshot!("unversioned_conflict", stderr);
}

/// Promoting an unversioned gate changes its one spec in place, and removing
/// one is not judged by Kubernetes' removal rules (it has no history): no
/// `rewritten-history`, no `removed-gate`.
#[test]
fn unversioned_gates_have_no_history_to_rewrite() {
    let promoted = UNVERSIONED
        .replace("Default: false, PreRelease: featuregate.Alpha", "Default: true, PreRelease: featuregate.Beta")
        .replace("\tY: {Default: true, PreRelease: featuregate.Beta},\n", "");
    // A versioned gate released in 1.1 next to them: specs at 0.0 are
    // released ones for the rules.
    let versioned = "package features\n\nimport (\n\t\"k8s.io/apimachinery/pkg/util/version\"\n\t\"k8s.io/component-base/featuregate\"\n)\n\nvar v = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tV: {{Version: version.MajorMinor(1, 1), Default: false, PreRelease: featuregate.Alpha}},\n}\n";
    let files = [
        ("old/features/f.go", UNVERSIONED),
        ("old/features/v.go", versioned),
        ("new/features/f.go", &promoted as &str),
        ("new/features/v.go", versioned),
        (
            "new/user/u.go",
            "package user\n\nimport \"example.io/new/features\"\n\nvar _ = features.X\nvar _ = features.V\n",
        ),
        ("new/go.mod", "module example.io/new\n"),
    ];
    let (code, stdout, stderr) = findings_on_stderr(run(
        &files,
        &["lint", "--no-config", "new", "--baseline", "old", "--binary-version", "1.2", "--format", "short"],
    ));
    assert_eq!((code, stdout.as_str()), (0, ""), "{stderr}");
}
