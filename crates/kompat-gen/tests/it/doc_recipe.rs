//! The build-script recipe of docs/gen.md, built as written: its files are
//! extracted from the page, the dependencies pointed at this workspace, and
//! the crate built offline with cargo. A second build, with a misspelt stage,
//! must fail showing the located error the page shows (not a `Debug` dump).

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The fenced blocks of the page's build-script section: (info string, text).
fn blocks() -> Vec<(String, String)> {
    let page = std::fs::read_to_string(workspace().join("docs/gen.md")).expect("docs/gen.md");
    let start = page.find("## From a build script").expect("build-script section");
    let section = &page[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut out = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if let Some(info) = line.strip_prefix("```") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            out.push((info.to_owned(), body.join("\n") + "\n"));
        }
    }
    out
}

/// The files of the recipe, named by each block's first-line comment.
fn recipe() -> Vec<(String, String)> {
    let files: Vec<(String, String)> = blocks()
        .into_iter()
        .filter(|(info, _)| info == "toml" || info == "rust")
        .filter_map(|(_, text)| {
            let first = text.lines().next()?;
            let name = first.strip_prefix("# ").or_else(|| first.strip_prefix("// "))?;
            Some((name.to_owned(), text))
        })
        .collect();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Cargo.toml", "kompat.toml", "features.toml", "build.rs", "src/lib.rs"]);
    files
}

/// Writes the crate, its dependencies on this workspace's crates by path.
fn write_crate(dir: &Path, files: &[(String, String)]) {
    let ws = workspace().canonicalize().expect("workspace");
    for (name, text) in files {
        let mut text = text.clone();
        if name == "Cargo.toml" {
            for (dep, path, written, extra) in [
                (
                    "kompat-gen",
                    "crates/kompat-gen",
                    "{ version = \"0.1\", default-features = false }",
                    ", default-features = false",
                ),
                ("kompat", "crates/kompat", "\"0.1\"", ""),
            ] {
                let from = format!("\n{dep} = {written}\n");
                assert!(text.contains(&from), "the recipe depends on {dep} = {written}");
                text = text.replace(&from, &format!("\n{dep} = {{ path = {:?}{extra} }}\n", ws.join(path)));
            }
            text.push_str("\n[workspace]\n");
        }
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create dir");
        std::fs::write(path, text).expect("write recipe file");
    }
    // The workspace's versions, so the build needs nothing new offline.
    std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
}

/// The standard output of `cargo ARGS` in `dir`, which must succeed.
fn cargo(dir: &Path, args: &[&str]) -> String {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo).current_dir(dir).args(args).output().expect("run cargo");
    assert!(out.status.success(), "cargo {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `cargo build` of the crate in `dir`: (success, stderr).
fn build(dir: &Path) -> (bool, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // Its own target directory (the outer `cargo test` holds the
    // workspace's), kept between runs so only the recipe crate rebuilds.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("doc-recipe-target");
    let out = Command::new(cargo)
        .current_dir(dir)
        .args(["build", "--offline", "--quiet"])
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("run cargo");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_documented_recipe_builds_and_reports_mistakes_located() {
    let files = recipe();

    let good = tempfile::tempdir().expect("tempdir");
    write_crate(good.path(), &files);
    let (ok, stderr) = build(good.path());
    assert!(ok, "the recipe of docs/gen.md does not build:\n{stderr}");
    // A build script without Go declarations builds no tree-sitter (no C).
    let tree = cargo(good.path(), &["tree", "--offline", "-e", "normal,build", "--prefix", "none"]);
    assert!(tree.contains("kompat-gen"), "{tree}");
    assert!(!tree.contains("tree-sitter"), "the recipe builds tree-sitter:\n{tree}");

    // The same crate with `Alpha` misspelt: the build fails with the text
    // the page shows after `--- stderr`.
    let bad_files: Vec<(String, String)> = files
        .iter()
        .map(|(n, t)| match n.as_str() {
            "features.toml" => (n.clone(), t.replacen("\"Alpha\"", "\"Bta\"", 1)),
            _ => (n.clone(), t.clone()),
        })
        .collect();
    let bad = tempfile::tempdir().expect("tempdir");
    write_crate(bad.path(), &bad_files);
    let (ok, stderr) = build(bad.path());
    assert!(!ok, "a misspelt stage must fail the build");
    let shown = blocks().into_iter().find(|(info, _)| info == "text").expect("the error block").1;
    let expected = shown.split("--- stderr\n").nth(1).expect("the build script's stderr");
    for line in expected.lines() {
        assert!(stderr.contains(line), "`{line}` is not in the build's stderr:\n{stderr}");
    }
    assert!(!stderr.contains("diagnostics:") && !stderr.contains("Location"), "a Debug dump:\n{stderr}");
}
