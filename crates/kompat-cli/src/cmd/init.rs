//! `kompat init`: a commented `kompat.toml` for the project in the working
//! directory.
//!
//! What it finds decides what it writes: a Rust crate (`Cargo.toml`) has its
//! declarations in `src`; a Go module (`go.mod`) in the top-level directories
//! holding Go files that import `k8s.io/component-base/featuregate`, and its
//! references in those whose Go files import such a package (`pkg` when no
//! file declares gates); kompat TOML declarations, Kubernetes manifests, CRDs
//! and Helm charts are listed too, so `kompat lint` checks them. Vendored
//! code, test data, tests, the web site and the docs never are. The
//! project's version and the Kubernetes version of its cluster are read
//! where the project states them ([`versions`]); a feature list to generate
//! is written only when some file declares gates. Each file is opened once
//! to tell what it is (the few that may state a version, once more), and
//! only its first [`SNIFF_BYTES`] are read. An existing `kompat.toml` is
//! never replaced.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use kompat_project::inputs::VENDORED_DIRS;
use kompat_project::{Error, Result};

use super::print_stdout;

mod versions;
use crate::cli::InitArgs;

/// How much of each file is read to tell what it is.
const SNIFF_BYTES: u64 = 64 * 1024;

/// The import that marks a Go file as declaring feature gates.
const FEATUREGATE_IMPORT: &str = "\"k8s.io/component-base/featuregate\"";

pub fn run(args: InitArgs) -> Result<ExitCode> {
    let dir = PathBuf::from(".");
    let target = Path::new(kompat_project::config::FILE_NAME);
    if !args.dry_run && std::fs::symlink_metadata(target).is_ok() {
        return Err(Error::in_file(
            target,
            "kompat.toml already exists; `kompat init` never replaces it (`kompat init --dry-run` prints what it would write)",
        ));
    }
    let project = detect(&dir)?;
    let text = render(&project);
    if args.dry_run {
        print_stdout(&text)?;
        return Ok(ExitCode::SUCCESS);
    }
    write_new(target, &text)?;
    anstream::eprintln!("kompat init: wrote kompat.toml ({})", project.kinds.join(", "));
    Ok(ExitCode::SUCCESS)
}

/// What `detect` found.
#[derive(Debug, Default)]
struct Project {
    /// `Rust crate`, `Go module`, `Kubernetes manifests`, ...
    kinds: Vec<&'static str>,
    /// The `decls` entries, relative to the project directory.
    decls: BTreeSet<String>,
    /// Manifests at the top of the project: `decls` takes a named file as
    /// declarations, so these are given to `kompat lint` on the command line.
    top_manifests: Vec<String>,
    /// Where Kubernetes keeps its feature list, when the layout is theirs.
    feature_list: &'static str,
    /// Helm charts and kustomize directories were found: `[render]`.
    renders: Renders,
    /// Whether some file declares feature gates: only then is there a
    /// feature list for `kompat gen` to write.
    declares: bool,
    /// The project's version and the cluster's, where the project states
    /// them.
    versions: versions::Versions,
    /// Directories below the listed ones that are never the project's
    /// (`docs/`, `testdata/`...): written as `exclude` globs.
    excluded: BTreeSet<&'static str>,
}

/// Directories whose files are never the project's: vendored code
/// ([`VENDORED_DIRS`], which `kompat lint` never walks), and these anywhere:
/// test data, documentation and design proposals, which are prose (a flag
/// in them is an example or a plan: a proposal names gates that do not
/// exist yet); and at the top its tests and its web site.
const NOT_THE_PROJECTS: [&str; 5] = ["testdata", "docs", "enhancements", "proposals", "keps"];
const NEVER_TOP: [&str; 3] = ["test", "tests/e2e", "site"];
/// Scripts: their kind and kubeadm configurations are deployment material
/// (judged at the Kubernetes version), their code never declarations.
const SCRIPTS: &str = "hack";

/// Whether `rel` lies in a directory `kompat init` never lists.
fn never(rel: &Path) -> bool {
    let text = rel.to_string_lossy().replace('\\', "/");
    NEVER_TOP.iter().any(|dir| text.starts_with(&format!("{dir}/")))
        || rel.components().any(|c| VENDORED_DIRS.iter().chain(&NOT_THE_PROJECTS).any(|n| c.as_os_str() == *n))
}

fn detect(dir: &Path) -> Result<Project> {
    let mut project = Project { feature_list: "versioned_feature_list.yaml", ..Project::default() };
    let rust = dir.join("Cargo.toml").is_file();
    let go = dir.join("go.mod").is_file();
    if rust {
        project.kinds.push("Rust crate");
        if dir.join("src").is_dir() {
            project.decls.insert("src".into());
        }
    }
    let module = match go {
        true => std::fs::read_to_string(dir.join("go.mod")).ok().and_then(|t| kompat_project::go::module_directive(&t)),
        false => None,
    };
    let mut go_dirs = BTreeSet::new();
    // Every directory with Go code: the module's code when no package
    // declares gates (Kubernetes' `k8s.io/api`, say).
    let mut go_tops = BTreeSet::new();
    // The Go packages that declare gates, and the files that may import them.
    let mut declaring_packages = BTreeSet::new();
    // Each other Go file's imports of the module's own packages.
    let mut go_files: Vec<(String, Vec<String>)> = Vec::new();
    let mut manifests = BTreeSet::new();
    let mut charts = BTreeSet::new();
    let mut found = versions::Found::default();
    for path in kompat_project::walk_files(dir)? {
        let Ok(rel) = path.strip_prefix(dir) else { continue };
        let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
        found.look(rel, name, &path)?;
        if never(rel) {
            // Nested ones are walked by `kompat lint` unless excluded (it
            // never walks vendored code).
            let nested = rel.parent().into_iter().flat_map(Path::components).skip(1);
            for component in nested {
                let nested = NOT_THE_PROJECTS.iter().find(|n| component.as_os_str() == **n);
                project.excluded.extend(nested.copied());
            }
            continue;
        }
        let Some(entry) = top_entry(rel) else { continue };
        let scripts = entry == SCRIPTS;
        if go && is_declaring_go(rel, name) && !scripts {
            if rel.components().count() > 1 {
                go_tops.insert(entry.clone());
            }
            let text = sniff(&path)?;
            if text.contains(FEATUREGATE_IMPORT) {
                project.declares = true;
                go_dirs.insert(entry.clone());
                if let (Some(module), Some(parent)) = (&module, rel.parent()) {
                    declaring_packages.insert(format!("{module}/{}", parent.to_string_lossy().replace('\\', "/")));
                }
            } else if let (Some(module), true) = (&module, rel.components().count() > 1) {
                go_files.push((entry, own_imports(&text, module)));
            }
        } else if rust && name.ends_with(".rs") && !matches!(entry.as_str(), "tests" | "benches" | "examples" | SCRIPTS)
        {
            let text = sniff(&path)?;
            if text.contains("FeatureGates") && text.contains("derive") {
                project.declares = true;
                project.decls.insert(entry);
            } else if text.contains("ApiLifecycle") && text.contains("derive") {
                project.decls.insert(entry);
            }
        } else if name == "Chart.yaml" {
            project.renders.charts = true;
            charts.insert(entry);
        } else if matches!(name, "kustomization.yaml" | "kustomization.yml" | "Kustomization") {
            project.renders.kustomize = true;
        } else if name.ends_with(".toml") && !matches!(name, "Cargo.toml" | "kompat.toml") && !scripts {
            let text = sniff(&path)?;
            let declares = text.lines().any(|l| l.trim() == "[[feature]]");
            if declares || text.lines().any(|l| l.trim() == "[[api]]") {
                project.declares |= declares;
                project.decls.insert(entry);
            }
        } else if (name.ends_with(".yaml") || name.ends_with(".yml")) && is_manifest(&sniff(&path)?) {
            manifests.insert(entry);
        }
    }
    project.versions = found.finish(dir)?;
    if go {
        project.kinds.push("Go module");
        // The directories whose code reads the gates (imports a declaring
        // package): `orphaned-gate` needs the references.
        for (entry, imports) in go_files {
            if imports.iter().any(|i| declaring_packages.contains(i)) {
                go_dirs.insert(entry);
            }
        }
        if go_dirs.is_empty() && dir.join("pkg").is_dir() {
            go_dirs.insert("pkg".into());
        }
        if go_dirs.is_empty() {
            go_dirs = go_tops;
        }
        if dir.join("test/compatibility_lifecycle/reference").is_dir() {
            project.feature_list = "test/compatibility_lifecycle/reference/versioned_feature_list.yaml";
        }
        project.decls.extend(go_dirs);
    }
    if !manifests.is_empty() {
        project.kinds.push("Kubernetes manifests");
        for entry in manifests {
            if dir.join(&entry).is_dir() {
                project.decls.insert(entry);
            } else {
                project.top_manifests.push(entry);
            }
        }
    }
    if !charts.is_empty() {
        project.kinds.push("Helm charts");
        project.decls.extend(charts);
    }
    if project.decls.is_empty() && !project.top_manifests.is_empty() {
        // Nothing else: the manifests are the project.
        project.decls.insert(".".into());
        project.top_manifests.clear();
    }
    if project.decls.is_empty() {
        return Err(Error::msg(
            "nothing to configure here: no Cargo.toml with a src directory, no go.mod, no Kubernetes manifests or charts \
             (run `kompat init` in the project's root directory)",
        ));
    }
    Ok(project)
}

/// The quoted import paths of a Go text that name packages of `module`.
fn own_imports(text: &str, module: &str) -> Vec<String> {
    let prefix = format!("\"{module}/");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(&prefix) {
        let path = &rest[at + 1..];
        let end = path.find('"').unwrap_or(path.len());
        out.push(path[..end].to_owned());
        rest = &path[end..];
    }
    out
}

/// The first component of `rel` when it is a directory below the project,
/// else `rel` itself (a file at the top): what goes into `decls`.
fn top_entry(rel: &Path) -> Option<String> {
    let mut components = rel.components();
    let first = match components.next()? {
        Component::Normal(first) => first.to_str()?,
        _ => return None,
    };
    match components.next() {
        Some(_) => Some(first.to_owned()),
        None => Some(rel.to_str()?.to_owned()),
    }
}

/// A Go file the Go reader reads for declarations (not tests, not
/// generated, not vendored or test data).
fn is_declaring_go(rel: &Path, name: &str) -> bool {
    name.ends_with(".go")
        && !name.ends_with("_test.go")
        && !name.starts_with("zz_generated")
        && !rel.components().any(|c| matches!(c.as_os_str().to_str(), Some("vendor" | "testdata")))
}

/// A Kubernetes object: some line starts with `apiVersion:` and some with
/// `kind:`.
fn is_manifest(text: &str) -> bool {
    let mut api_version = false;
    let mut kind = false;
    for line in text.lines() {
        api_version |= line.starts_with("apiVersion:");
        kind |= line.starts_with("kind:");
    }
    api_version && kind
}

/// The first [`SNIFF_BYTES`] of a file, lossily as text.
fn sniff(path: &Path) -> Result<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(SNIFF_BYTES).read_to_end(&mut bytes))
        .map_err(|err| Error::io(path, &err))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// A TOML string literal.
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

fn render(project: &Project) -> String {
    let decls: Vec<String> = project.decls.iter().map(|d| quoted(d)).collect();
    let list = quoted(project.feature_list);
    let top = match project.top_manifests.is_empty() {
        true => String::new(),
        false => format!(
            "# Manifests at the top level are checked when named:\n#   kompat lint {}\n",
            project.top_manifests.join(" ")
        ),
    };
    format!(
        r#"# kompat.toml, written by `kompat init` for: {kinds}.
# Paths are relative to this file. `kompat lint` checks the project,
# `kompat gen` writes the outputs below and `kompat gen --check` (in CI)
# fails when one is stale.

{binary}
# Where the declarations are: Rust sources (#[derive(FeatureGates)],
# #[derive(ApiLifecycle)]), Go featuregate specs, kompat TOML files and
# feature lists. `kompat lint` also checks the CRD manifests and the
# deployment material (--feature-gates flags, featureGates: maps) found here.
decls = [{decls}]
{exclude}{top}
# The feature list as last released: the removal and history rules compare
# the declarations with it.
# baseline = {list}

# Declarations the project does not own (Kubernetes' list, another
# component's gates): they resolve gate names, and nothing located in them is
# reported.
# reference = ["third_party/versioned_feature_list.yaml"]

{kubernetes}
# The images of the project's own binaries: the settings of containers
# running them are judged against the project's gates, other containers'
# (sidecars) are not judged. Unset, they are inferred from the binaries under
# cmd/, the Go module, the Cargo package and the charts.
# [project]
# images = ["registry.example.com/widget/widget-controller"]

# [window]
# profile = "kubernetes"   # N-3, floored at 1.31, and the project's versions are
#                          # Kubernetes': one sets both; or "default" (N-3)

{gen}
# Inputs whose absence is an error rather than a note saying which rules did
# not run (`kompat explain missing-input`):
# [lint]
# require = ["binary-version", "baseline"]
#
# Rule levels (`kompat explain --list` lists the rules):
# [lint.levels]
# locked-gate-cleanup = "deny"   # allow | warn | deny
#
# Suppress one finding, with a reason:
# [[lint.allow]]
# code = "removed-gate"
# subject = "SomeFeature"
# reason = "why this is fine"
"#,
        kinds = project.kinds.join(", "),
        decls = decls.join(", "),
        exclude = render_exclude(&project.excluded),
        binary = versions::render_binary(&project.versions),
        kubernetes = versions::render_kubernetes(&project.versions),
        gen = render_gen(project, &list),
    ) + &render_table(project.renders, |program| kompat_project::render::find_program(program).is_some())
}

/// The `exclude` line for the directories below `decls` that are never the
/// project's (gitignore globs: `docs/` is every directory named docs).
fn render_exclude(excluded: &BTreeSet<&'static str>) -> String {
    if excluded.is_empty() {
        return String::new();
    }
    let globs: Vec<String> = excluded.iter().map(|dir| format!("\"{dir}/\"")).collect();
    format!(
        "# Documentation, design proposals and test data are not the project's\n\
         # settings: a flag in them is an example, a plan or a test case.\n\
         exclude = [{}]\n",
        globs.join(", ")
    )
}

/// What needs a renderer.
#[derive(Debug, Default, Clone, Copy)]
struct Renders {
    charts: bool,
    kustomize: bool,
}

/// The `[render]` table for a project with charts or kustomize
/// directories: the renderers `on_path` finds are set, the others written
/// as comments.
fn render_table(renders: Renders, on_path: impl Fn(&str) -> bool) -> String {
    if !renders.charts && !renders.kustomize {
        return String::new();
    }
    let line =
        |found: bool, text: &str| if found { format!("{text}\n") } else { format!("# {text}   # not on PATH\n") };
    let mut lines = vec!["\n# Helm charts and kustomize directories are rendered (`helm template`, `kubectl\n\
         # kustomize`) without network, with a time limit and an output cap, and the\n\
         # objects checked; without a renderer a note names what was not rendered.\n"
        .to_owned()];
    let mut any = false;
    let mut body = String::new();
    if renders.charts {
        any |= on_path("helm");
        body.push_str(&line(on_path("helm"), "helm = \"helm\""));
    }
    if renders.kustomize {
        let (found, command) = match (on_path("kubectl"), on_path("kustomize")) {
            (false, true) => (true, "kustomize = [\"kustomize\", \"build\"]"),
            (kubectl, _) => (kubectl, "kustomize = [\"kubectl\", \"kustomize\"]"),
        };
        any |= found;
        body.push_str(&line(found, command));
    }
    lines.push(line(any, "[render]"));
    lines.push(body);
    lines.push("# timeout_seconds = 60\n# max_output_mib = 32\n".to_owned());
    lines.concat()
}

/// The `[[gen.output]]` entry: the feature list, when some file declares
/// gates; else a comment (there is nothing to render).
fn render_gen(project: &Project, list: &str) -> String {
    let entry = format!("[[gen.output]]\nkind = \"k8s-yaml\"\npath = {list}\n");
    if project.declares {
        return format!(
            "# `kompat gen` writes the feature list in Kubernetes' format; commit it, so\n\
             # reviews show every lifecycle change.\n{entry}"
        );
    }
    let commented: String = entry.lines().map(|l| format!("# {l}\n")).collect();
    format!(
        "# No file here declares feature gates, so `kompat gen` has nothing to write;\n\
         # once some do, it writes their feature list:\n{commented}"
    )
}

/// Creates `path` with `text`; never replaces a file (even one created since
/// the check), and leaves no partial file behind.
fn write_new(path: &Path, text: &str) -> Result<()> {
    let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(path).map_err(|err| {
        if err.kind() == std::io::ErrorKind::AlreadyExists {
            Error::in_file(path, "kompat.toml already exists; `kompat init` never replaces it")
        } else {
            Error::io(path, &err)
        }
    })?;
    if let Err(err) = file.write_all(text.as_bytes()).and_then(|()| file.sync_all()) {
        drop(file);
        let _ = std::fs::remove_file(path);
        return Err(Error::io(path, &err));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(charts: bool, kustomize: bool, on_path: &[&str], expected: &str) {
        let got = render_table(Renders { charts, kustomize }, |p| on_path.contains(&p));
        // Only the table's lines, past the comment introducing it.
        let table: String = got
            .lines()
            .filter(|l| !l.starts_with("# ") || l.contains('=') || l.contains("[render]"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(table.trim(), expected.trim(), "{got}");
        if !got.is_empty() {
            let parsed = toml::from_str::<toml::Table>(&got).unwrap_or_else(|err| panic!("{err}\n{got}"));
            assert_eq!(parsed.contains_key("render"), expected.starts_with("[render]"), "{got}");
        }
    }

    #[test]
    fn directories_never_listed() {
        for (rel, expected) in [
            ("vendor/k8s.io/api/x.yaml", true),
            ("pkg/third_party/x.go", true),
            ("pkg/foo/testdata/x.yaml", true),
            ("test/e2e/pod.yaml", true),
            ("tests/e2e/pod.yaml", true),
            ("site/content/x.md", true),
            ("docs/x.yaml", true),
            ("vertical-pod-autoscaler/docs/features.md", true),
            ("vertical-pod-autoscaler/enhancements/8818-in-place-only/README.md", true),
            ("tests/unit.rs", false),
            ("hack/kind-config.yaml", false),
            ("pkg/test/x.go", false),
            ("config/manager/manager.yaml", false),
        ] {
            assert_eq!(never(Path::new(rel)), expected, "{rel}");
        }
    }

    #[test]
    fn render_table_for_what_is_installed() {
        check(false, false, &["helm", "kubectl"], "");
        check(true, false, &["helm"], "[render]\nhelm = \"helm\"\n# timeout_seconds = 60\n# max_output_mib = 32");
        check(
            true,
            true,
            &["helm", "kubectl", "kustomize"],
            "[render]\nhelm = \"helm\"\nkustomize = [\"kubectl\", \"kustomize\"]\n# timeout_seconds = 60\n# max_output_mib = 32",
        );
        check(
            false,
            true,
            &["kustomize"],
            "[render]\nkustomize = [\"kustomize\", \"build\"]\n# timeout_seconds = 60\n# max_output_mib = 32",
        );
        check(
            true,
            true,
            &["kubectl"],
            "[render]\n# helm = \"helm\"   # not on PATH\nkustomize = [\"kubectl\", \"kustomize\"]\n# timeout_seconds = 60\n# max_output_mib = 32",
        );
        check(
            true,
            false,
            &[],
            "# [render]   # not on PATH\n# helm = \"helm\"   # not on PATH\n# timeout_seconds = 60\n# max_output_mib = 32",
        );
    }

    #[test]
    fn imports_of_the_module_own_packages() {
        let text = "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/widget/pkg/features\"\n\tx \"example.com/widget/internal/util\"\n\t\"example.com/widgets/other\"\n)\n";
        assert_eq!(
            own_imports(text, "example.com/widget"),
            ["example.com/widget/pkg/features", "example.com/widget/internal/util"]
        );
        assert!(own_imports("package a\n", "example.com/widget").is_empty());
    }
}
