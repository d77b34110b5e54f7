//! The maintainers' generators end to end: `cargo xtask k8s-apis` on our own
//! fixture tree (`fixtures/k8s/`, written in the shapes of kubernetes/api and
//! of a Go module cache) and on a Git directory with release tags made here,
//! and `cargo xtask k8s-removed-features` on Go feature files release by
//! release (`fixtures/k8s/removed-features/`) and on `versioned_feature_list.yaml`s.

use std::path::{Path, PathBuf};
use std::process::Command;

use kompat_engine::api::{served_apis, ServeOptions};
use kompat_runtime::Version;
use kompat_testkit::files::dir_with;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs xtask in `dir` (no colour) and returns (exit code, stdout, stderr).
fn xtask_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("run xtask");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// (group, version, resource) that a server with the API table `toml`
/// serves at `emulation`.
fn served_at(toml: &str, emulation: &str) -> Vec<(String, String, String)> {
    let file = kompat_formats::parse_toml(toml).unwrap_or_else(|errors| panic!("{errors:?}"));
    let set = file.apis.build().unwrap_or_else(|errors| panic!("{errors:?}"));
    let emulation = Version::parse(emulation).expect("a version of this test");
    let served = served_apis(&set, &ServeOptions::new(emulation)).unwrap_or_else(|err| panic!("{err:?}"));
    served.resources.into_iter().map(|r| (r.group, r.version, r.resource)).collect()
}

#[test]
fn generates_from_a_module_cache() {
    let (code, stdout, stderr) = xtask_in(
        &repo(),
        &["k8s-apis", "--source", "fixtures/k8s/modcache", "--supplement", "fixtures/k8s/supplement.toml"],
    );
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert_eq!(stderr, "xtask k8s-apis: 11 API types from 3 module versions (5 API packages read)\n");
    insta::assert_snapshot!("k8s_apis_fixture_tree", stdout);
    // The generated table is a declaration file kompat reads (what
    // `kompat apis --decls apis.toml --emulation-version 1.28` serves).
    let served = served_at(&stdout, "1.28");
    assert!(served.contains(&("widgets.example.io".into(), "v1beta1".into(), "widgets".into())), "{served:?}");
}

#[test]
fn output_file_and_checkouts() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A module directory without `@version` is a checkout.
    let checkout = dir.path().join("api");
    copy_dir(&repo().join("fixtures/k8s/modcache/k8s.io/api@v0.31.0"), &checkout);
    let out = dir.path().join("out/apis.toml");
    let (code, _, stderr) = xtask_in(
        dir.path(),
        &[
            "k8s-apis",
            "--source",
            "api",
            "--source",
            &repo().join("fixtures/k8s/modcache/k8s.io/api@v0.30.0").display().to_string(),
            "-o",
            "out/apis.toml",
        ],
    );
    assert_eq!(code, 0, "stderr:\n{stderr}");
    let text = std::fs::read_to_string(&out).expect("the table is written");
    assert!(text.contains("# source: k8s.io/api v0.30.0 (1 version) and a checkout\n"), "{text}");
    // The checkout is newer than any release: Pod's lifecycle comes from it.
    assert!(text.contains("kind = \"Pod\"\nresource = \"pods\"\nintroduced = \"1.0\"\n"), "{text}");
    // Without the supplement, Endpoints gets kube's default plural.
    assert!(text.contains("resource = \"endpointses\""), "{text}");
}

/// Broken inputs: exit 2, located errors, nothing written.
#[track_caller]
fn check_error(files: &[(&str, &str)], expected: &str) {
    let mut all = vec![("api@v0.30.0/go.mod", "module k8s.io/api\n")];
    all.extend_from_slice(files);
    let dir = dir_with(&all);
    let (code, stdout, stderr) = xtask_in(dir.path(), &["k8s-apis", "--source", "api@v0.30.0", "-o", "apis.toml"]);
    assert_eq!(code, 2, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(!dir.path().join("apis.toml").exists(), "a file was written");
    let first: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error") || l.contains("-->")).collect();
    assert_eq!(first.join("\n"), expected.trim(), "stderr:\n{stderr}");
}

const LIFECYCLE: &str =
    "package v1\n\nfunc (in *Thing) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 30\n}\n";
const REGISTER: &str =
    "package v1\n\nvar SchemeGroupVersion = schema.GroupVersion{Group: \"things.example.io\", Version: \"v1\"}\n";

#[test]
fn problems_are_located() {
    check_error(
        &[(
            "api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go",
            "package v1\n\nfunc (in *Thing) APILifecycleIntroduced() (major, minor int) {\n\treturn 1 30\n}\n",
        )],
        "error: Go syntax error\n  --> api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go:4:9",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
        ],
        "error: type Thing has a lifecycle but is not declared in the package\n  --> api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go:3:11",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/doc.go", "// +groupName=other.example.io\npackage v1\n"),
        ],
        "error: +groupName=other.example.io differs from the group \"things.example.io\" that register.go's SchemeGroupVersion registers\n  --> api@v0.30.0/things/v1/doc.go:1:1",
    );
    check_error(
        &[("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE)],
        "error: cannot tell the package's group: no SchemeGroupVersion in register.go and no +groupName in doc.go\n  --> api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/types.go", "package v1\n\n// +genclient\ntype Thing struct {\n"),
        ],
        "error: Go syntax error\n  --> api@v0.30.0/things/v1/types.go:4:1",
    );
    // The hand-written lifecycle.go: its problems are located there.
    let types = "package v1\n\n// +genclient\ntype Thing struct{}\n";
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/types.go", types),
            ("api@v0.30.0/things/v1/lifecycle.go", &LIFECYCLE.replace("30", "31")),
        ],
        "error: Thing has a second APILifecycleIntroduced method\n  --> api@v0.30.0/things/v1/lifecycle.go:3:1",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/types.go", types),
            ("api@v0.30.0/things/v1/lifecycle.go", &LIFECYCLE.replace("Thing", "Ghost")),
        ],
        "error: type Ghost has a lifecycle but is not declared in the package\n  --> api@v0.30.0/things/v1/lifecycle.go:3:11",
    );
}

#[test]
fn sources_that_are_not_modules() {
    let dir = dir_with(&[("empty/README", "nothing here\n")]);
    let (code, _, stderr) = xtask_in(dir.path(), &["k8s-apis", "--source", "empty"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: empty is neither a Go module (no go.mod) nor a Go module cache"), "{stderr}");
    let (code, _, stderr) = xtask_in(dir.path(), &["k8s-apis", "--source", "missing"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: "), "{stderr}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy fixture");
        }
    }
}

/// `cargo xtask k8s-removed-features` on our own Go feature files
/// (`fixtures/k8s/removed-features/`, in the shapes of k8s.io/kubernetes
/// pkg/features and a staging module): two releases read with the Go
/// reader, the newest list a kompat TOML.
#[test]
fn removed_features_from_go_feature_files() {
    let dir = "fixtures/k8s/removed-features";
    let (code, stdout, stderr) = xtask_in(
        &repo(),
        &[
            "k8s-removed-features",
            "--release",
            &format!("1.34={dir}/v1.34"),
            "--release",
            &format!("1.35={dir}/features.toml"),
            "--release",
            &format!("1.33={dir}/v1.33"),
        ],
    );
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert!(stderr.ends_with("xtask k8s-removed-features: 3 removed gates\n"), "{stderr}");
    insta::assert_snapshot!("k8s_removed_features_fixture", stdout);
    let gates = kompat_k8s::removed::parse(&stdout).unwrap_or_else(|errors| panic!("{errors:?}"));
    let removed: Vec<String> = gates.iter().map(|g| g.to_string()).collect();
    assert_eq!(
        removed,
        [
            "feature gate \"LegacyPolling\" was removed in Kubernetes 1.34 (last: Alpha, off by default since 1.29)",
            "feature gate \"LegacyWatchCache\" was removed in Kubernetes 1.35 (last: Deprecated, locked to false since 1.34)",
            "feature gate \"WidgetSharding\" was removed in Kubernetes 1.34 (last: GA, locked to true since 1.32)",
        ]
    );
}

/// A release in the shape of those before 1.32 (`fixtures/k8s/removed-features/v1.32`):
/// unversioned `FeatureSpec` maps in two modules and a versioned map. Each
/// unversioned spec is the state at 1.32, a gate in both kinds of map keeps
/// its versioned specs (OldQuota), one repeated with the same spec is read
/// once (LegacyListCache); `kompat export` reads the versioned map only.
#[test]
fn removed_features_with_unversioned_maps() {
    let dir = "fixtures/k8s/removed-features";
    let releases = [("1.32", "v1.32"), ("1.33", "v1.33"), ("1.34", "v1.34"), ("1.35", "features.toml")];
    let mut args = vec!["k8s-removed-features".to_owned()];
    for (version, path) in releases {
        args.extend(["--release".to_owned(), format!("{version}={dir}/{path}")]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = xtask_in(&repo(), &args);
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert!(stderr.contains("xtask k8s-removed-features: 1.32: 6 gates (v1.32)\n"), "{stderr}");
    insta::assert_snapshot!("k8s_removed_features_unversioned", stdout);
    let gates = kompat_k8s::removed::parse(&stdout).unwrap_or_else(|errors| panic!("{errors:?}"));
    let removed: Vec<String> = gates.iter().map(|g| format!("{} {} {}", g.name, g.removed, g.last_state())).collect();
    assert_eq!(
        removed,
        [
            "InTreeWidgetUnregister 1.33 Alpha, off by default since 1.32",
            "LegacyListCache 1.33 GA, locked to true since 1.32",
            "LegacyPolling 1.34 Alpha, off by default since 1.29",
            "LegacyWatchCache 1.35 Deprecated, locked to false since 1.34",
            "OldQuota 1.33 Beta, on by default since 1.31",
            "WidgetSharding 1.34 GA, locked to true since 1.32",
        ]
    );
    // What `kompat export --decls {dir}/v1.32` reads there: the maps as
    // component-base registers them (unversioned specs at 0.0), where
    // OldQuota's and WidgetSharding's two different declarations are
    // component-base's registration error.
    let decls = kompat_project::load(&[repo().join(format!("{dir}/v1.32"))]).unwrap_or_else(|err| panic!("{err:?}"));
    let problems: Vec<String> =
        kompat_engine::validate(decls.features()).problems.into_iter().map(|p| p.message).collect();
    for expected in [
        "feature gate \"OldQuota\" with different spec already exists: [{true false BETA 0.0 <nil>}]",
        "feature gate \"WidgetSharding\" with different spec already exists: [{true true  0.0 <nil>}]",
    ] {
        assert!(problems.iter().any(|p| p == expected), "{expected}\n{problems:?}");
    }
}

#[test]
fn removed_features_input_errors() {
    let dir = "fixtures/k8s/removed-features";
    let conflicting = dir_with(&[
        ("a.toml", "[[feature]]\nname = \"X\"\nspecs = [{ version = \"1.30\", stage = \"Alpha\", default = false }]\n"),
        ("b.toml", "[[feature]]\nname = \"X\"\nspecs = [{ version = \"1.30\", stage = \"Beta\", default = true }]\n"),
    ]);
    let conflicting = format!("1.34={}", conflicting.path().display());
    let go = |body: &str| {
        format!("package features\n\nimport \"k8s.io/component-base/featuregate\"\n\nvar m = map[featuregate.Feature]featuregate.FeatureSpec{{\n{body}}}\n")
    };
    let unversioned = dir_with(&[
        ("a.go", &go("\tX: {Default: false, PreRelease: featuregate.Alpha},\n")),
        ("b.go", &go("\tX: {Default: true, PreRelease: featuregate.Beta},\n")),
    ]);
    let unversioned = format!("1.31={}", unversioned.path().display());
    let bad_spec = dir_with(&[("a.go", &go("\tX: {Default: false},\n"))]);
    let bad_spec = format!("1.31={}", bad_spec.path().display());
    let cases: [(&[&str], &str); 6] = [
        (&["--release", "1.33"], "error: invalid value for --release: \"1.33\" is not VERSION=PATH"),
        (&["--release", &format!("x=1.33={dir}/v1.33")], "error: invalid value for --release: "),
        (
            &["--release", &format!("1.33={dir}/v1.33"), "--release", &format!("1.35={dir}/features.toml")],
            "error: --release: releases 1.33 and 1.35 are not consecutive: every minor release in between is needed to tell when a gate was removed",
        ),
        (&["--release", &conflicting], "error: release 1.34: feature gate X is declared twice with different specs"),
        (&["--release", &unversioned], "error: release 1.31: feature gate X is declared twice with different specs"),
        (&["--release", &bad_spec], "error: FeatureSpec has no PreRelease\n"),
    ];
    for (args, expected) in cases {
        let out = tempfile::tempdir().expect("tempdir");
        let output = out.path().join("removed.toml").display().to_string();
        let mut all = vec!["k8s-removed-features", "-o", &output];
        all.extend_from_slice(args);
        let (code, _, stderr) = xtask_in(&repo(), &all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.starts_with(expected), "{args:?}: {stderr}");
        assert!(!out.path().join("removed.toml").exists(), "{args:?}: a file was written");
    }
}

/// Runs git in `dir` (no user configuration), which must succeed.
fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .args(["-c", "user.name=kompat", "-c", "user.email=kompat@example.invalid", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Commits the tree of `dir` as it is now and tags the commit.
fn commit_and_tag(dir: &Path, tag: &str) {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", tag]);
    git(dir, &["tag", tag]);
}

const GADGETS_REGISTER: &str = "package v1alpha1\n\nconst GroupName = \"gadgets.example.io\"\n\nvar SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: \"v1alpha1\"}\n";
const GADGETS_TYPES: &str = "package v1alpha1\n\n// +genclient\n\n// Gadget has no lifecycle tags.\ntype Gadget struct{}\n\n// GadgetList is a list.\ntype GadgetList struct{}\n\n// +genclient\n// +genclient:nonNamespaced\n// +resourceName=doohickeys\n\n// Doohickey comes in 1.21.\ntype Doohickey struct{}\n";

/// `--git`: the newest patch tag of each release from `--since` on is read;
/// kinds with a prerelease-lifecycle file keep it, the others are introduced
/// in the first release that defines them and removed in the first that no
/// longer does; the tags read are in the header.
#[test]
fn generates_from_release_tags_of_a_git_directory() {
    let fixture = repo().join("fixtures/k8s/modcache/k8s.io/api@v0.30.0");
    let work = tempfile::tempdir().expect("tempdir");
    let dir = work.path();
    git(dir, &["init", "-q"]);
    std::fs::write(dir.join("go.mod"), "module k8s.io/api\n\ngo 1.22\n").expect("write");
    // 1.19: before --since, not read.
    std::fs::create_dir_all(dir.join("old/v1alpha1")).expect("mkdir");
    std::fs::write(dir.join("old/v1alpha1/register.go"), GADGETS_REGISTER.replace("gadgets", "old")).expect("write");
    std::fs::write(dir.join("old/v1alpha1/types.go"), GADGETS_TYPES).expect("write");
    commit_and_tag(dir, "kubernetes-1.19.0");
    std::fs::remove_dir_all(dir.join("old")).expect("rm");
    // 1.20: a package with a lifecycle file and one without.
    copy_dir(&fixture.join("widgets"), &dir.join("widgets"));
    std::fs::create_dir_all(dir.join("gadgets/v1alpha1")).expect("mkdir");
    std::fs::write(dir.join("gadgets/v1alpha1/register.go"), GADGETS_REGISTER).expect("write");
    let only_gadget = GADGETS_TYPES.split("// +genclient\n// +genclient:nonNamespaced").next().unwrap_or_default();
    std::fs::write(dir.join("gadgets/v1alpha1/types.go"), only_gadget).expect("write");
    // Not API packages: test data, and a directory not named as a version.
    std::fs::create_dir_all(dir.join("testdata/v1")).expect("mkdir");
    std::fs::write(dir.join("testdata/v1/register.go"), GADGETS_REGISTER.replace("gadgets", "testdata"))
        .expect("write");
    std::fs::write(dir.join("testdata/v1/types.go"), GADGETS_TYPES).expect("write");
    commit_and_tag(dir, "kubernetes-1.20.0");
    commit_and_tag(dir, "kubernetes-1.20.1");
    // 1.21 (patch 2 is the newest), with a release candidate of 1.22 that is not read.
    std::fs::write(dir.join("gadgets/v1alpha1/types.go"), GADGETS_TYPES).expect("write");
    commit_and_tag(dir, "kubernetes-1.21.0");
    commit_and_tag(dir, "kubernetes-1.21.2");
    std::fs::remove_dir_all(dir.join("gadgets")).expect("rm");
    commit_and_tag(dir, "kubernetes-1.22.0-rc.0");
    // 1.22: v1alpha1 is gone.
    commit_and_tag(dir, "kubernetes-1.22.0");

    let git_dir = dir.join(".git");
    let git_arg = git_dir.to_str().expect("a UTF-8 path");
    let (code, stdout, stderr) = xtask_in(&repo(), &["k8s-apis", "--git", git_arg, "--since", "1.20"]);
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert!(stderr.starts_with("xtask k8s-apis: 4 API types from 1 Git directories ("), "{stderr}");
    assert!(stderr.contains("xtask k8s-apis: 1.21: 4 kinds in 2 group-versions defined; 4 in 2 listed"), "{stderr}");
    assert!(stdout.contains("# source: k8s.io/api (3 tags): kubernetes-1.20.1 kubernetes-1.21.2 kubernetes-1.22.0\n"));
    let table = kompat_formats::parse_toml(&stdout).unwrap_or_else(|errors| panic!("{errors:?}\n{stdout}"));
    let found: Vec<String> = table
        .apis
        .config()
        .apis
        .iter()
        .map(|a| {
            let v = |v: Option<Version>| v.map_or("-".to_owned(), |v| v.to_string());
            let introduced = v(a.introduced);
            format!(
                "{}/{}/{} {} {introduced} {} {}",
                a.group,
                a.version,
                a.kind,
                a.resource,
                v(a.deprecated),
                v(a.removed)
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            "gadgets.example.io/v1alpha1/Doohickey doohickeys 1.21 1.22 1.22",
            "gadgets.example.io/v1alpha1/Gadget gadgets 1.20 1.22 1.22",
            // From the lifecycle file, not from the releases.
            "widgets.example.io/v1beta1/Gizmo gizmoes 1.21 1.24 1.27",
            "widgets.example.io/v1beta1/Widget widgets 1.20 1.26 1.29",
        ]
    );
    // No release tag at or after --since.
    let (code, _, stderr) = xtask_in(&repo(), &["k8s-apis", "--git", git_arg, "--since", "1.30"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("has no release tag kubernetes-1.N.P from 1.30 on"), "{stderr}");
}

/// One gate of a `versioned_feature_list.yaml`, at `(version, stage, default)` specs.
fn feature_list_gate(name: &str, specs: &[(&str, &str, bool)]) -> String {
    let mut out = format!("- name: {name}\n  versionedSpecs:\n");
    for (version, stage, default) in specs {
        out.push_str(&format!(
            "  - default: {default}\n    lockToDefault: false\n    preRelease: {stage}\n    version: \"{version}\"\n"
        ));
    }
    out
}

/// Kubernetes' own `versioned_feature_list.yaml` of each release (ours, small):
/// a gate present in releases N and N+1 and absent from N+2 is removed in
/// N+2, with its N+1 specs; one absent from N+1 on is removed in N+1; one
/// that stays is not removed.
#[test]
fn removed_features_from_feature_lists_n_n1_n2() {
    let kept = feature_list_gate("Kept", &[("1.30", "Alpha", false)]);
    let two = feature_list_gate("TwoReleases", &[("1.31", "Alpha", false)]);
    let two_beta = feature_list_gate("TwoReleases", &[("1.31", "Alpha", false), ("1.33", "Beta", true)]);
    let one = feature_list_gate("OneRelease", &[("1.32", "Beta", true)]);
    let dir = dir_with(&[
        ("1.32/versioned_feature_list.yaml", &format!("{kept}{one}{two}")),
        ("1.33/versioned_feature_list.yaml", &format!("{kept}{two_beta}")),
        ("1.34/versioned_feature_list.yaml", &kept),
    ]);
    let arg = |n: &str| format!("--release={n}={}", dir.path().join(n).join("versioned_feature_list.yaml").display());
    let (code, stdout, stderr) = xtask_in(&repo(), &["k8s-removed-features", &arg("1.32"), &arg("1.33"), &arg("1.34")]);
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert!(stderr.ends_with("xtask k8s-removed-features: 2 removed gates\n"), "{stderr}");
    let gates = kompat_k8s::removed::parse(&stdout).unwrap_or_else(|errors| panic!("{errors:?}\n{stdout}"));
    let got: Vec<String> = gates.iter().map(|g| format!("{} {} {}", g.name, g.removed, g.last_state())).collect();
    assert_eq!(
        got,
        ["OneRelease 1.33 Beta, on by default since 1.32", "TwoReleases 1.34 Beta, on by default since 1.33"]
    );
    assert!(stdout.contains("# release 1.32: 3 gates (versioned_feature_list.yaml)\n"), "{stdout}");
}

/// The drivers name exactly the scripts there are: `bench NAME` runs
/// `scripts/bench-NAME` and `gen-tree LANG` `scripts/gen-LANG-tree`.
#[test]
fn drivers_name_exactly_the_scripts() {
    let mut scripts: Vec<String> = std::fs::read_dir(repo().join("scripts"))
        .expect("scripts/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    scripts.sort();
    let check = |subcommand: &str, expected: Vec<String>| {
        let (code, _, stderr) = xtask_in(&repo(), &[subcommand, "no-such-driver"]);
        assert_eq!(code, 2, "{stderr}");
        let values = stderr.split("[possible values: ").nth(1).and_then(|s| s.split(']').next()).unwrap_or_default();
        let mut values: Vec<String> = values.split(", ").map(String::from).collect();
        values.sort();
        assert_eq!(values, expected, "{stderr}");
    };
    let benches = scripts.iter().filter_map(|s| s.strip_prefix("bench-")).map(String::from).collect();
    check("bench", benches);
    let trees = scripts
        .iter()
        .filter_map(|s| s.strip_prefix("gen-").and_then(|s| s.strip_suffix("-tree")))
        .map(String::from)
        .collect();
    check("gen-tree", trees);
    assert!(scripts.iter().any(|s| s == "fuzz"), "{scripts:?}");
}

/// `scripts/fuzz` (what `cargo xtask fuzz` runs) knows every target of
/// `fuzz/Cargo.toml`, each with a budget, and no other.
#[test]
fn the_fuzz_script_runs_every_fuzz_target() {
    let cargo = std::fs::read_to_string(repo().join("fuzz/Cargo.toml")).expect("fuzz/Cargo.toml");
    let mut targets: Vec<&str> = cargo
        .lines()
        .filter_map(|l| l.strip_prefix("name = \"").and_then(|l| l.strip_suffix('"')))
        .filter(|name| *name != "kompat-fuzz")
        .collect();
    targets.sort_unstable();
    let script = std::fs::read_to_string(repo().join("scripts/fuzz")).expect("scripts/fuzz");
    let all =
        script.lines().find_map(|l| l.strip_prefix("all=(").and_then(|l| l.strip_suffix(')'))).expect("all=(...)");
    let mut listed: Vec<&str> = all.split_whitespace().collect();
    listed.sort_unstable();
    assert_eq!(listed, targets);
    for target in targets {
        assert!(script.contains(&format!("  [{target}]=")), "no budget for {target}");
        assert!(repo().join("fuzz/corpus").join(target).is_dir(), "no seeds for {target}");
        assert!(repo().join(format!("fuzz/fuzz_targets/{target}.rs")).is_file(), "{target}");
    }
}
