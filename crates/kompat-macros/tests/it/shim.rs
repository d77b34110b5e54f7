//! The proc-macro crate stays a shim (issue 29): in a user's clean build it
//! is the last unit before the user's own crate, compiled in the build's
//! tail, so its parsing, validation and expansion live in
//! `kompat-derive-internals` (built earlier) and it depends on nothing else
//! that needs compiling for it.

use std::path::Path;

/// The names in `[dependencies]` of `manifest`.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            out.push(line.split(['=', '.', ' ']).next().unwrap_or(line).to_owned());
        }
    }
    out
}

#[test]
fn the_dependency_parser_reads_only_the_dependencies_table() {
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\n# a comment\na.workspace = true\nb = \"1\"\nc = { path = \"../c\" }\n\n[dev-dependencies]\nd = \"1\"\n";
    assert_eq!(dependencies(manifest), ["a", "b", "c"]);
    assert_eq!(dependencies("[dev-dependencies]\nd = \"1\"\n"), Vec::<String>::new());
}

#[test]
fn the_macro_crate_depends_only_on_the_internals_and_the_token_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("read Cargo.toml");
    let mut deps = dependencies(&manifest);
    deps.sort();
    assert_eq!(deps, ["kompat-derive-internals", "proc-macro2", "syn"], "kompat-macros' [dependencies]");
}

#[test]
fn the_macro_crate_holds_only_its_entry_points() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<String> = std::fs::read_dir(&src)
        .expect("read src/")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    // `tests.rs` is `#[cfg(test)]`: the expansion snapshots.
    assert_eq!(files, ["lib.rs", "tests.rs"], "kompat-macros' src/ (the expansion belongs in the internals)");
}
