//! End-to-end tests of the adoption helpers: shell completions, man pages,
//! `--version`, `kompat init`, and the GitHub Action / pre-commit hooks that
//! drive the binary.

use crate::common::kompat_in;

/// The visible subcommands, as `kompat --help` lists them.
fn subcommands() -> Vec<String> {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["--help"]);
    assert_eq!(code, 0, "{err}");
    let commands = out.split("Commands:").nth(1).and_then(|s| s.split("Options:").next()).unwrap_or("");
    // A command's line is indented by two spaces; a wrapped description
    // (clap's `wrap_help`, which another workspace member may enable), more.
    let names: Vec<String> = commands
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(String::from)
        .collect();
    assert!(names.len() >= 10, "too few subcommands parsed from --help: {names:?}");
    names
}

#[test]
fn completions_name_every_subcommand_in_every_shell() {
    let dir = std::env::temp_dir();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = kompat_in(&dir, &["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        for name in subcommands() {
            assert!(out.contains(&name), "{shell} completion lacks `{name}`");
        }
    }
}

#[test]
fn completions_reject_an_unknown_shell() {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["completions", "tcsh"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("invalid value 'tcsh'"), "{err}");
}

#[test]
fn manpage_on_stdout_has_name_synopsis_and_every_subcommand() {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["manpage"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(".ie \\n(.g .ds Aq"), "not roff: {}", &out[..out.len().min(80)]);
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS", ".SH SUBCOMMANDS"] {
        assert!(out.contains(section), "missing {section}");
    }
    for name in subcommands() {
        assert!(out.contains(&format!("kompat\\-{}", name.replace('-', "\\-"))), "man page lacks `{name}`");
    }
}

#[test]
fn manpage_out_dir_writes_one_page_per_subcommand() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("man/man1");
    let (code, out, err) = kompat_in(dir.path(), &["manpage", "--out-dir", "man/man1"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let mut expected: Vec<String> = subcommands().iter().map(|n| format!("kompat-{n}.1")).collect();
    expected.push("kompat.1".into());
    expected.sort();
    let mut written: Vec<String> = std::fs::read_dir(&out_dir)
        .expect("out dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(written, expected);
    let lint = std::fs::read_to_string(out_dir.join("kompat-lint.1")).expect("lint page");
    assert!(lint.contains(".SH NAME\nkompat\\-lint"), "{lint}");
    assert!(lint.contains(".SH SYNOPSIS") && lint.contains("\\-\\-format"), "{lint}");
}

#[test]
fn version_names_the_commit_when_built_from_git() {
    let (code, out, err) = kompat_in(std::env::temp_dir().as_path(), &["--version"]);
    assert_eq!(code, 0, "{err}");
    let line = out.trim_end();
    let expected = concat!("kompat ", env!("CARGO_PKG_VERSION"));
    assert!(line.starts_with(expected), "{line}");
    let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if workspace.join(".git").exists() {
        // `kompat 0.1.0 (abc1234)` or `(abc1234-dirty)`.
        let inner = line.strip_prefix(expected).and_then(|s| s.strip_prefix(" (")).and_then(|s| s.strip_suffix(')'));
        let hash = inner.map(|s| s.trim_end_matches("-dirty")).unwrap_or("");
        assert!(hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit()), "no commit in `{line}`");
    } else {
        assert_eq!(line, expected);
    }
}

/// Runs `kompat init` in a project made of `files`, checks the `decls` it
/// writes, and that the written file drives `lint`, `gen --check` and `gen`.
/// `feature_list` is the `[[gen.output]]` written when some file declares
/// gates; `None` when none does (the entry is written commented).
fn check_init(files: &[(&str, &str)], decls: &str, feature_list: Option<&str>) {
    let dir = crate::common::dir_with(files);
    let (code, dry, err) = kompat_in(dir.path(), &["init", "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert!(!dir.path().join("kompat.toml").exists(), "--dry-run wrote a file");
    let (code, out, err) = kompat_in(dir.path(), &["init"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let written = std::fs::read_to_string(dir.path().join("kompat.toml")).expect("kompat.toml written");
    assert_eq!(written, dry, "--dry-run prints what init writes");
    assert!(written.contains(&format!("\ndecls = {decls}\n")), "{written}");
    let (code, _, err) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 0, "lint on the written kompat.toml: {err}");
    let Some(feature_list) = feature_list else {
        assert!(!written.contains("\n[[gen.output]]"), "{written}");
        assert!(written.contains("\n# [[gen.output]]\n# kind = \"k8s-yaml\"\n"), "{written}");
        return;
    };
    assert!(
        written.contains(&format!("\n[[gen.output]]\nkind = \"k8s-yaml\"\npath = \"{feature_list}\"\n")),
        "{written}"
    );
    // The feature list is not there yet: stale (1), not an input error (2).
    let (code, _, err) = kompat_in(dir.path(), &["gen", "--check"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("out of date"), "{err}");
    let (code, _, err) = kompat_in(dir.path(), &["gen"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = kompat_in(dir.path(), &["gen", "--check"]);
    assert_eq!(code, 0, "{err}");
}

const RUST_GATES: &str = "//! demo\n\nuse kompat::FeatureGates;\n\n#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]\npub enum Feature {\n    #[kompat(spec(version = \"0.1\", stage = \"Alpha\", default = false))]\n    Widgets,\n}\n";
const CARGO_TOML: &str = "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";
const GO_GATES: &str = "package features\n\nimport (\n\t\"k8s.io/component-base/featuregate\"\n)\n\nconst Widgets featuregate.Feature = \"Widgets\"\n";
const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
";
const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n";

#[test]
fn init_for_a_rust_crate() {
    check_init(&[("Cargo.toml", CARGO_TOML), ("src/lib.rs", "//! demo\n")], r#"["src"]"#, None);
    check_init(
        &[("Cargo.toml", CARGO_TOML), ("src/lib.rs", RUST_GATES)],
        r#"["src"]"#,
        Some("versioned_feature_list.yaml"),
    );
}

#[test]
fn init_for_a_go_module_lists_the_directories_declaring_gates() {
    check_init(
        &[
            ("go.mod", "module example.com/demo\n\ngo 1.22\n"),
            ("VERSION", "v1.2.0\n"),
            ("pkg/features/gates.go", GO_GATES),
            ("pkg/util/util.go", "package util\n"),
            ("staging/src/lib/features/gates.go", GO_GATES),
            ("cmd/main.go", "package main\n"),
            ("vendor/k8s.io/x/gates.go", GO_GATES),
            ("internal/gates_test.go", GO_GATES),
            ("test/compatibility_lifecycle/reference/.keep", ""),
        ],
        r#"["pkg", "staging"]"#,
        Some("test/compatibility_lifecycle/reference/versioned_feature_list.yaml"),
    );
}

#[test]
fn init_for_a_go_module_without_gates_falls_back_to_pkg() {
    check_init(&[("go.mod", "module example.com/demo\n"), ("pkg/a/a.go", "package a\n")], r#"["pkg"]"#, None);
}

#[test]
fn init_for_manifests_crds_and_charts() {
    check_init(
        &[
            ("config/crd/widgets.yaml", CRD),
            ("deploy.yaml", DEPLOYMENT),
            ("charts/web/Chart.yaml", "apiVersion: v2\nname: web\nversion: 0.1.0\n"),
            ("charts/web/values.yaml", "replicas: 1\n"),
            ("docs/notes.yaml", "title: not a manifest\n"),
        ],
        r#"["charts", "config"]"#,
        None,
    );
}

#[test]
fn init_names_top_level_manifests_for_lint() {
    let dir = crate::common::dir_with(&[("config/crd/widgets.yaml", CRD), ("deploy.yaml", DEPLOYMENT)]);
    let (code, out, err) = kompat_in(dir.path(), &["init", "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "decls = [\"config\"]\n# Manifests at the top level are checked when named:\n#   kompat lint deploy.yaml\n"
        ),
        "{out}"
    );
}

#[test]
fn init_for_manifests_only_at_the_top() {
    check_init(&[("deploy.yaml", DEPLOYMENT)], r#"["."]"#, None);
}

#[test]
fn init_never_replaces_a_kompat_toml() {
    let dir = crate::common::dir_with(&[
        ("Cargo.toml", CARGO_TOML),
        ("src/lib.rs", ""),
        ("kompat.toml", "decls = [\"x\"]\n"),
    ]);
    let (code, out, err) = kompat_in(dir.path(), &["init"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error: kompat.toml already exists"), "{err}");
    assert!(err.contains("--> kompat.toml"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.path().join("kompat.toml")).ok().as_deref(), Some("decls = [\"x\"]\n"));
}

#[test]
fn init_without_a_project_is_an_error() {
    let dir = crate::common::dir_with(&[("notes.txt", "hello\n")]);
    let (code, out, err) = kompat_in(dir.path(), &["init"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error: nothing to configure here"), "{err}");
    assert!(!dir.path().join("kompat.toml").exists());
}

use kompat_formats::yaml::{parse_documents, Node};

/// The repository root (the action and the hooks live there).
fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn yaml_file(name: &str) -> Node {
    let text = std::fs::read_to_string(repo_root().join(name)).expect("read YAML");
    let mut docs = parse_documents(&text).unwrap_or_else(|err| panic!("{name} is not YAML: {err:?}"));
    assert_eq!(docs.len(), 1, "{name}: one document");
    docs.remove(0)
}

fn text<'a>(node: &'a Node, key: &str) -> &'a str {
    node.get(key).and_then(Node::text).unwrap_or_else(|| panic!("no `{key}` in {node:?}"))
}

/// Runs the argument words of a `kompat ...` command line (without shell
/// expansions) on the demo project; a usage error would exit 2.
fn run_on_fixtures(line: &str) -> (i32, String, String) {
    let words: Vec<&str> =
        line.split_whitespace().skip(1).take_while(|w| !w.starts_with('"') && !w.starts_with('>')).collect();
    kompat_in(&repo_root().join("fixtures"), &words)
}

#[test]
fn github_action_installs_runs_and_uploads_sarif() {
    let action = yaml_file("action.yml");
    let runs = action.get("runs").expect("runs");
    assert_eq!(text(runs, "using"), "composite");
    let Some(Node::Seq(steps, _)) = runs.get("steps") else { panic!("no steps") };
    let scripts: Vec<&str> = steps.iter().filter_map(|s| s.get("run").and_then(Node::text)).collect();

    // Install: the package holding the `kompat` binary, from the action's checkout.
    let install = scripts.iter().flat_map(|s| s.lines()).find(|l| l.contains("cargo install")).expect("install");
    assert!(install.contains("--locked --path \"$KOMPAT_SOURCE/crates/kompat-cli\""), "{install}");
    let packages = workspace_packages();
    let package = installed_package(&packages, "cargo install --locked --path crates/kompat-cli").expect("the package");
    assert!(has_bin(package, "kompat"), "crates/kompat-cli does not build `kompat`");

    // Run: the command line is valid and writes one SARIF document.
    let lint = scripts.iter().flat_map(|s| s.lines()).map(str::trim).find(|l| l.starts_with("kompat ")).expect("run");
    assert!(lint.starts_with("kompat lint --format sarif --output \"$KOMPAT_SARIF\" "), "{lint}");
    let out_dir = tempfile::tempdir().expect("tempdir");
    let report = out_dir.path().join("kompat.sarif");
    let lint = lint.replace("\"$KOMPAT_SARIF\"", report.to_str().expect("UTF-8 path"));
    let (code, out, err) = run_on_fixtures(&lint);
    assert!(code == 0 || code == 1, "{lint}: exit {code}: {err}");
    assert_eq!(out, "", "the report goes to the file");
    let sarif = std::fs::read_to_string(&report).expect("the SARIF report is written");
    let sarif: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");

    // Upload.
    let upload = steps.iter().find_map(|s| s.get("uses").and_then(Node::text)).expect("upload step");
    assert!(upload.starts_with("github/codeql-action/upload-sarif@"), "{upload}");
}

#[test]
fn pre_commit_hooks_run_existing_subcommands() {
    let Node::Seq(hooks, _) = yaml_file(".pre-commit-hooks.yaml") else { panic!("hooks are a list") };
    let ids: Vec<&str> = hooks.iter().map(|h| text(h, "id")).collect();
    assert_eq!(ids, ["kompat-lint", "kompat-gen-check"]);
    for hook in &hooks {
        let entry = text(hook, "entry");
        assert_eq!(text(hook, "pass_filenames"), "false");
        let (code, _, err) = run_on_fixtures(entry);
        // Findings exit 1 (the demo has some); a usage error would exit 2.
        assert!(code == 0 || code == 1, "{entry}: exit {code}: {err}");
    }
}

/// The packages of the workspace, as `cargo metadata` reports them.
fn workspace_packages() -> Vec<serde_json::Value> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1", "--offline"])
        .current_dir(repo_root())
        .output()
        .expect("run cargo metadata");
    assert!(out.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&out.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata is JSON");
    metadata["packages"].as_array().expect("packages").clone()
}

/// Whether `package` builds a binary named `name`.
fn has_bin(package: &serde_json::Value, name: &str) -> bool {
    let targets = package["targets"].as_array().map(Vec::as_slice).unwrap_or_default();
    targets.iter().any(|t| t["name"] == name && t["kind"].as_array().is_some_and(|k| k.iter().any(|k| k == "bin")))
}

/// The package `cargo install` installs from the README's `--path PATH`, or
/// by name.
fn installed_package<'a>(packages: &'a [serde_json::Value], line: &str) -> Option<&'a serde_json::Value> {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[..3], ["cargo", "install", "--locked"], "{line}");
    match words[3..] {
        ["--path", path] => {
            let manifest = std::fs::canonicalize(repo_root().join(path).join("Cargo.toml")).ok()?;
            packages.iter().find(|p| p["manifest_path"].as_str().map(std::path::Path::new) == Some(&*manifest))
        }
        [name] => packages.iter().find(|p| p["name"] == name),
        _ => panic!("README install line `{line}` is neither `--path PATH` nor a package name: teach the test"),
    }
}

#[test]
fn readme_set_up_installs_the_package_holding_the_binary() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let start = readme.find("\n## Set-up").expect("a `## Set-up` section");
    let end = readme[start + 1..].find("\n## ").map_or(readme.len(), |i| start + 1 + i);
    let set_up = &readme[start..end];
    // The two set-up commands stay exactly as they are.
    assert!(set_up.contains("\ncargo run --bin kompat -- lint --config fixtures/kompat.toml\n"), "{set_up}");
    assert!(set_up.contains("\ncargo test\n"), "{set_up}");
    // Every install line installs the package that holds `kompat`: from the
    // clone by path, and by name once published (a package that may be).
    let packages = workspace_packages();
    let installs: Vec<&str> = readme.lines().map(str::trim).filter(|l| l.starts_with("cargo install ")).collect();
    assert!(installs.contains(&"cargo install --locked --path crates/kompat-cli"), "{installs:?}");
    assert!(installs.contains(&"cargo install --locked kompat-cli"), "{installs:?}");
    for line in installs {
        let package = installed_package(&packages, line).unwrap_or_else(|| panic!("`{line}`: no such package"));
        assert!(has_bin(package, "kompat"), "`{line}` installs no `kompat` binary: {}", package["name"]);
        assert!(package["publish"].is_null(), "`{line}`: the package is not publishable");
    }
}

/// Nothing a user reads, runs or uploads names a placeholder for the
/// project's address (it has none yet), and no manifest claims one.
#[test]
fn no_placeholder_address_anywhere_users_look() {
    let root = repo_root();
    let mut files = vec![
        root.join("README.md"),
        root.join("CONTRIBUTING.md"),
        root.join("action.yml"),
        root.join(".pre-commit-hooks.yaml"),
        root.join("Cargo.toml"),
    ];
    for dir in ["docs", "crates"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                files.extend(["Cargo.toml", "README.md"].map(|f| path.join(f)).into_iter().filter(|p| p.is_file()));
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    let placeholders = ["example.invalid", "<repository-url>", "OWNER/kompat", "repository =", "repository.workspace"];
    for file in files.iter().filter(|f| f.is_file()) {
        let text = std::fs::read_to_string(file).expect("read");
        for placeholder in placeholders {
            assert!(!text.contains(placeholder), "{} names `{placeholder}`", file.display());
        }
    }
    assert!(files.len() > 20, "too few files checked: {files:?}");
}
