//! In-process rule tests with the expected findings written inline, under the
//! offending line, in rust-analyzer's manner:
//!
//! ```text
//! //- kompat.toml
//! binary_version = "1.37"
//! //- features.toml
//! [[feature]]
//! name = "Gadget"
//! #       ^^^^^^^^ error[feature-without-specs]: feature Gadget has no version specs
//! specs = []
//! ```
//!
//! `//- PATH` starts a file. A line `# ^^^ severity[code]: message` (`//` in
//! Rust sources) expects a finding whose span starts on the line above at the
//! first caret's column and covers as many characters as there are carets
//! (up to the end of that line); `#! severity[code]: message` expects a
//! finding about the file without a span, and `#!! severity[code]: message`
//! (in any file) one about no file at all. Files under `baseline/` are the
//! baseline, files under `reference/` reference inputs; `kompat.toml` is the
//! configuration; every other file is (CRD manifests are checked as
//! `kompat lint` checks them, without a baseline)
//! classified as `kompat lint` classifies its inputs (declarations,
//! deployment material, Kubernetes manifests, ...); manifests are checked
//! against a server of kompat.toml's `[kubernetes] version` (under `profile =
//! "kubernetes"`, `binary_version` too). The fixture runs through [`crate::lint`], levels and allowances
//! included, and the findings must be exactly the annotations; `missing-input`
//! notes (what the run lacked, not where) are compared only in fixtures that
//! name the code.

use std::path::Path;

use kompat_project::{Config, Decls};

use crate::Inputs;
use kompat_diag::Diagnostic;

/// One expected or actual finding, in a form that compares and prints well.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Annotation {
    file: String,
    /// 1-based line of the annotated line; 0 for a file-level finding.
    line: usize,
    /// 0-based character column and width of the carets.
    column: usize,
    width: usize,
    text: String,
}

/// Lints `fixture` and asserts that its findings are exactly its annotations
/// (or, under `UPDATE_EXPECT`, writes them into the caller's source).
#[track_caller]
pub fn check(fixture: &str) {
    let (expected, actual, annotated) = lint_fixture(fixture);
    if expected != actual {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            let file = std::panic::Location::caller().file();
            bless(file, fixture, &format!("\n{annotated}"));
            eprintln!("updated the fixture in {file}");
            return;
        }
        panic!(
            "findings differ from the annotations\n--- expected\n{}--- actual\n{}--- fixture with the actual findings\n{annotated}",
            list(&expected),
            list(&actual),
        );
    }
}

/// The expected and actual findings of `fixture`, sorted, and the fixture
/// annotated with the actual ones.
fn lint_fixture(fixture: &str) -> (Vec<Annotation>, Vec<Annotation>, String) {
    let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("tempdir: {err}"));
    let files = split(fixture);
    let mut expected = Vec::new();
    for (path, text) in &files {
        let full = dir.path().join(path);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|err| panic!("{}: {err}", parent.display()));
        }
        std::fs::write(&full, text).unwrap_or_else(|err| panic!("{}: {err}", full.display()));
        expected.extend(annotations(path, text));
    }
    let mut diags = run(dir.path(), &files);
    if !fixture.contains("[missing-input]") {
        diags.retain(|d| d.code() != crate::rules::missing_input::MISSING_INPUT.code);
    }
    let mut actual: Vec<Annotation> = diags.iter().map(|d| annotation_of(dir.path(), d)).collect();
    expected.sort();
    actual.sort();
    let annotated = annotate(&files, &actual);
    (expected, actual, annotated)
}

/// Replaces the raw string literal in `file` (a path as rustc was given it,
/// relative to the workspace root) whose contents are `old` by one holding
/// `new`, with as many `#` as it had or as `new` needs. Tests run in parallel: one lock
/// serialises the rewrites, and each reads the file afresh.
fn bless(file: &str, old: &str, new: &str) {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = if root.join(file).exists() { root.join(file) } else { Path::new(file).to_path_buf() };
    let source = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let found: Vec<(usize, usize, usize)> = source
        .match_indices(old)
        .filter_map(|(at, _)| {
            let hashes = source[..at].strip_suffix('"')?.bytes().rev().take_while(|&b| b == b'#').count();
            let open = at - 1 - hashes;
            let closing = format!("\"{}", "#".repeat(hashes));
            let raw = source[..open].ends_with('r') && source[at + old.len()..].starts_with(&closing);
            raw.then_some((open - 1, at + old.len() + closing.len(), hashes))
        })
        .collect();
    let [(start, end, mut hashes)] = found[..] else {
        panic!("UPDATE_EXPECT: the fixture is not exactly one raw string literal of {}", path.display());
    };
    hashes = hashes.max(1);
    while new.contains(&format!("\"{}", "#".repeat(hashes))) {
        hashes += 1;
    }
    let fence = "#".repeat(hashes);
    let updated = format!("{}r{fence}\"{new}\"{fence}{}", &source[..start], &source[end..]);
    std::fs::write(&path, updated).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
}

/// The files of a fixture, in order.
fn split(fixture: &str) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    for line in fixture.lines() {
        if let Some(path) = line.strip_prefix("//- ") {
            files.push((path.trim().to_owned(), String::new()));
        } else if let Some((_, text)) = files.last_mut() {
            text.push_str(line);
            text.push('\n');
        } else if !line.trim().is_empty() {
            panic!("fixture text before the first `//- PATH` line: {line:?}");
        }
    }
    files
}

/// The comment marker of annotations in `path`.
fn comment(path: &str) -> &'static str {
    if path.ends_with(".rs") {
        "//"
    } else {
        "#"
    }
}

/// The annotation a comment line holds, if any: `(column, width)` of the
/// carets (none for a file-level `#!`) and the expected text. A span that
/// starts in column 0, where the comment marker stands, is written
/// `#@0 ^^^ ...`.
fn parse_annotation(marker: &str, line: &str) -> Option<(Option<(usize, usize)>, String)> {
    let rest = line.trim_start().strip_prefix(marker)?;
    if let Some(text) = rest.strip_prefix("!!") {
        return Some((Some((usize::MAX, 0)), text.trim().to_owned()));
    }
    if let Some(text) = rest.strip_prefix('!') {
        return Some((None, text.trim().to_owned()));
    }
    let (column, carets) = match rest.strip_prefix("@0") {
        Some(after) => (Some(0), after.trim_start()),
        None => (None, rest.trim_start()),
    };
    if !carets.starts_with('^') {
        return None;
    }
    let caret_start = line.len() - carets.len();
    let width = carets.chars().take_while(|&c| c == '^').count();
    let text = carets[width..].trim().to_owned();
    Some((Some((column.unwrap_or_else(|| line[..caret_start].chars().count()), width)), text))
}

fn annotations(path: &str, text: &str) -> Vec<Annotation> {
    let mut out = Vec::new();
    let mut target = 0;
    for (idx, line) in text.lines().enumerate() {
        match parse_annotation(comment(path), line) {
            Some((Some((usize::MAX, _)), text)) => {
                out.push(Annotation { file: String::new(), line: 0, column: 0, width: 0, text })
            }
            Some((Some((column, width)), text)) => {
                out.push(Annotation { file: path.to_owned(), line: target, column, width, text })
            }
            Some((None, text)) => out.push(Annotation { file: path.to_owned(), line: 0, column: 0, width: 0, text }),
            None => target = idx + 1,
        }
    }
    out
}

fn run(root: &Path, files: &[(String, String)]) -> Vec<Diagnostic> {
    let mut inputs = Vec::new();
    let mut baseline = Vec::new();
    let mut reference = Vec::new();
    let mut config = None;
    for (path, _) in files {
        let full = root.join(path);
        if path == "kompat.toml" {
            config = Some(full);
        } else if path.starts_with("baseline/") {
            baseline.push(full);
        } else if path.starts_with("reference/") {
            reference.push(full.clone());
            inputs.push(full);
        } else {
            inputs.push(full);
        }
    }
    let config: Option<Config> = config.map(|p| {
        Config::discover(Some(&p)).unwrap_or_else(|err| panic!("{err}")).unwrap_or_else(|| panic!("no config"))
    });
    // Classified as `kompat lint` classifies its inputs.
    let mut decl_inputs = Vec::new();
    let mut settings = Vec::new();
    let mut manifests = Vec::new();
    let mut roles = Vec::new();
    let mut inline_allows = Vec::new();
    let mut crds = Vec::new();
    let exclude = config.as_ref().map(|c| c.exclude.clone()).unwrap_or_default();
    let classified =
        kompat_project::inputs::classify_excluding(&inputs, &exclude).unwrap_or_else(|err| panic!("{err}"));
    let mut unrendered = crate::Unrendered {
        charts: classified.charts.clone(),
        overlays: classified.overlays.clone(),
        ..crate::Unrendered::default()
    };
    let render_config = config.as_ref().and_then(|c| c.render.as_ref());
    let overlays = crate::sources::rendered::render_overlays(render_config, &classified.overlays, &mut unrendered);
    for input in classified.inputs {
        if overlays.consumes(input.path()) {
            continue;
        }
        if let Some(source) = input.source() {
            inline_allows.extend(crate::rules::inline_allow::scan(source));
        }
        manifests.extend(input.manifest_objects().unwrap_or_else(|err| panic!("{err}")));
        roles.extend(input.rbac_roles());
        if input.kind == kompat_project::inputs::Kind::CrdManifest {
            let partial_ok = input.in_overlay && input.is_well_formed();
            let Some(source) = input.into_source() else { continue };
            let Some(parsed) = unrendered.crds_of(&source, partial_ok).unwrap_or_else(|err| panic!("{err}")) else {
                continue;
            };
            crds.push(crate::rules::crd::CrdInput::manifest(source, parsed, Vec::new(), None));
        } else if input.kind == kompat_project::inputs::Kind::Deployment {
            settings.extend(input.gate_settings().unwrap_or_else(|err| panic!("{err}")));
        } else if input.is_declarations() {
            decl_inputs.push(input);
        }
    }
    let decls = Decls::from_inputs(decl_inputs, &classified.go_sources).unwrap_or_else(|err| panic!("{err}"));
    let baseline =
        (!baseline.is_empty()).then(|| kompat_project::load(&baseline).unwrap_or_else(|err| panic!("{err}")));
    // Manifests are checked against a server of the Kubernetes version
    // (`[kubernetes] version`, or under the Kubernetes profile
    // `binary_version` too).
    let (binary, kubernetes) = config.as_ref().map(kompat_project::Config::versions).unwrap_or_default();
    let serve = kubernetes.map(kompat_engine::api::ServeOptions::new);
    // `crds` of kompat.toml: CRDs installed in the cluster.
    let mut cluster_crds = Vec::new();
    for path in config.as_ref().map(|c| c.crds.as_slice()).unwrap_or_default() {
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        cluster_crds.extend(kompat_crd::parse_manifests(&text).unwrap_or_else(|err| panic!("{err:?}")));
    }
    // Rendered as `kompat lint` renders.
    let mut docs = overlays.documents;
    let api_versions = serve
        .as_ref()
        .map(|s| crate::sources::rendered::api_versions(s, crds.iter().flat_map(|i| &i.crds)))
        .unwrap_or_default();
    let at = serve.as_ref().map(|s| s.emulation);
    docs.extend(crate::sources::rendered::render_charts(
        render_config,
        &classified.charts,
        at,
        &api_versions,
        &mut unrendered,
    ));
    for doc in &docs {
        let located = crate::sources::rendered::locate(doc, &mut unrendered);
        manifests.extend(located.objects);
        settings.extend(located.settings);
        if let Some((source, parsed)) = located.crd {
            crds.push(crate::rules::crd::CrdInput::manifest(source, parsed, Vec::new(), None));
        }
    }
    let inputs = Inputs {
        config: config.as_ref(),
        decls: &decls,
        baseline: baseline.as_ref(),
        binary,
        kubernetes,
        window: config.as_ref().map_or(kompat_runtime::WindowPolicy::DEFAULT, |c| c.window),
        crds: &crds,
        cluster_crds: &cluster_crds,
        settings: &settings,
        manifests: &manifests,
        roles: &roles,
        serve: serve.as_ref(),
        reference: &reference,
        inline_allows: &inline_allows,
        unrendered: &unrendered,
    };
    // `[kubernetes] version = "A..B"`: every release of the path.
    let diags = match config.as_ref().and_then(|c| c.kubernetes_path).filter(|p| !p.is_single()) {
        Some(path) => crate::lint_path(&inputs, path, &mut |v| {
            Ok(crate::Step { serve: Some(kompat_engine::api::ServeOptions::new(v)), manifests: Vec::new() })
        })
        .map(|linted| linted.findings),
        None => crate::lint(&inputs),
    }
    .unwrap_or_else(|err| panic!("{err}"));
    // A rule states its severity once: before levels apply, every finding
    // has its rule's.
    for d in &diags {
        let rule = d.code.and_then(crate::rules::find).unwrap_or_else(|| panic!("unregistered code in {d:?}"));
        let leveled = config.as_ref().and_then(|c| c.lint.as_ref()).is_some_and(|l| {
            l.levels.iter().any(|x| crate::rules::canonical(&x.code) == rule.code)
                || (rule.code == "missing-input"
                    && l.require.iter().any(|(r, _)| d.subject.as_deref() == Some(r.as_str())))
        });
        assert!(
            leveled || d.severity == rule.severity,
            "{} emitted at {:?}, declared {:?}",
            rule.code,
            d.severity,
            rule.severity
        );
    }
    diags
}

fn annotation_of(root: &Path, d: &Diagnostic) -> Annotation {
    // Messages that name a place in another file name it relative to the
    // fixture.
    let message = d.message.replace(&format!("{}/", root.display()), "");
    let text = format!("{}[{}]: {}", d.severity.as_str(), d.code(), message);
    let Some(loc) = &d.location else {
        return Annotation { file: String::new(), line: 0, column: 0, width: 0, text };
    };
    let file = loc.path().strip_prefix(root).unwrap_or(loc.path()).display().to_string();
    match (loc.line_col(), loc.snippet()) {
        (Some((line, col)), Some(snippet)) => {
            let width = snippet.split('\n').next().unwrap_or("").chars().count().max(1);
            Annotation { file, line, column: col - 1, width, text }
        }
        _ => Annotation { file, line: 0, column: 0, width: 0, text },
    }
}

fn list(items: &[Annotation]) -> String {
    items.iter().map(|a| format!("{}:{}:{} (+{}) {}\n", a.file, a.line, a.column, a.width, a.text)).collect()
}

/// The fixture with the actual findings as annotations, to copy into a test.
fn annotate(files: &[(String, String)], actual: &[Annotation]) -> String {
    let mut out = String::new();
    for a in actual.iter().filter(|a| a.file.is_empty()) {
        out.push_str(&format!("#!! {}\n", a.text));
    }
    for (path, text) in files {
        out.push_str(&format!("//- {path}\n"));
        let comment = comment(path);
        for a in actual.iter().filter(|a| a.file == *path && a.line == 0) {
            out.push_str(&format!("{comment}! {}\n", a.text));
        }
        for (idx, line) in text.lines().enumerate() {
            if parse_annotation(comment, line).is_some() {
                continue;
            }
            out.push_str(line);
            out.push('\n');
            for a in actual.iter().filter(|a| a.file == *path && a.line == idx + 1) {
                let carets = "^".repeat(a.width);
                match a.column.checked_sub(comment.len()) {
                    Some(pad) => out.push_str(&format!("{comment}{}{carets} {}\n", " ".repeat(pad), a.text)),
                    None => out.push_str(&format!("{comment}@0 {carets} {}\n", a.text)),
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bless_rewrites_exactly_the_literal_holding_the_fixture() {
        let check = |source: &str, old: &str, new: &str, expected: &str| {
            let dir = tempfile::tempdir().expect("tempdir");
            let path = dir.path().join("x.rs");
            std::fs::write(&path, source).expect("write");
            bless(path.to_str().expect("a UTF-8 path"), old, new);
            assert_eq!(std::fs::read_to_string(&path).expect("read"), expected);
        };
        check(
            "a(r#\"\nold\n\"#);\nb(r#\"\nother\n\"#);\n",
            "\nold\n",
            "\nnew\n",
            "a(r#\"\nnew\n\"#);\nb(r#\"\nother\n\"#);\n",
        );
        check("a(r##\"x\"##);\n", "x", "y", "a(r##\"y\"##);\n");
        // A new text that holds `"#` gets a longer fence.
        check("a(r#\"x\"#);\n", "x", "say \"#hi\"", "a(r##\"say \"#hi\"\"##);\n");
    }

    #[test]
    fn annotations_point_at_the_line_above() {
        let text = "a = 1\nname = \"X\"\n#      ^^^ error[c]: m\n#! note[d]: whole\n";
        let found = annotations("f.toml", text);
        assert_eq!(
            found,
            [
                Annotation { file: "f.toml".into(), line: 2, column: 7, width: 3, text: "error[c]: m".into() },
                Annotation { file: "f.toml".into(), line: 0, column: 0, width: 0, text: "note[d]: whole".into() },
            ]
        );
        // A comment without carets is not an annotation, and an attribute is
        // not a comment in Rust.
        assert!(annotations("f.toml", "# just a comment\n").is_empty());
        assert!(annotations("f.rs", "#![allow(x)]\n#[derive(A)]\n").is_empty());
        // Column 0 is written `@0`.
        let found = annotations("f.toml", "[[x]]\n#@0 ^^^^^ warning[c]: m\n");
        assert_eq!(
            found,
            [Annotation { file: "f.toml".into(), line: 1, column: 0, width: 5, text: "warning[c]: m".into() }]
        );
    }
}
