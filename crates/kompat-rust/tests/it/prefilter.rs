//! The byte prefilter of the Rust reader changes nothing: on every fixture
//! directory, scanning only the candidate files finds exactly what parsing
//! every file finds (declarations, references, allowances and errors).

use std::path::{Path, PathBuf};

use kompat_rust::memory::{Text, Texts};
use kompat_rust::{scan_with, Parse};

/// What a scan of `files` yields, rendered for comparison.
fn findings(files: &Texts, parse: Parse) -> String {
    format!("{:#?}", scan_with(&mut files.clone(), parse))
}

/// Every Rust file below `dir` (hidden entries skipped), in path order.
fn rust_files(dir: &Path) -> Texts {
    let mut paths = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                continue;
            }
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut files = Texts::default();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        files.push(Text::new(path, text));
    }
    files
}

/// Every directory under `fixtures/` (and `fixtures/` itself).
fn fixture_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut dirs = vec![root.clone()];
    let mut i = 0;
    while i < dirs.len() {
        if let Ok(entries) = std::fs::read_dir(&dirs[i]) {
            let mut children: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect();
            children.sort();
            dirs.extend(children);
        }
        i += 1;
    }
    dirs
}

#[test]
fn fast_path_finds_what_a_full_parse_finds() {
    let mut compared = 0;
    let mut refs = 0;
    for dir in fixture_dirs() {
        let files = rust_files(&dir);
        if files.paths().next().is_none() {
            continue;
        }
        let fast = findings(&files, Parse::Candidates);
        assert_eq!(fast, findings(&files, Parse::Every), "{}", dir.display());
        compared += 1;
        refs += fast.matches("GateRef {").count();
    }
    // The comparison is not vacuous: fixtures with Rust code and references.
    assert!(compared >= 4, "only {compared} fixture directories hold Rust sources");
    assert!(refs > 0, "no gate reference in the fixtures");
}

/// The operator fixture uses its gates through aliases (`pub use ... as`,
/// `use ... as F`), glob imports, `Self::`, macros and a test module under
/// `use super::*`: with and without the prefilter, every gate but the one
/// it declares ahead of use is referenced.
#[test]
fn operator_fixture_references_its_gates_either_way() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/operator");
    let files = rust_files(&dir);
    for parse in [Parse::Candidates, Parse::Every] {
        let found = scan_with(&mut files.clone(), parse).unwrap_or_else(|err| panic!("{err:?}"));
        let declared: Vec<&str> =
            found.declared.iter().flat_map(|d| d.features.features()).map(|f| f.name.as_str()).collect();
        let unused: Vec<&str> =
            declared.iter().copied().filter(|name| !found.scan.refs.iter().any(|r| r.gate == *name)).collect();
        assert_eq!(declared.len(), 10, "{parse:?}");
        assert_eq!(unused, ["LeaderElectionV2"], "{parse:?}");
    }
}

/// kompat's own crates: many files that name the derives (their tests'
/// sources, in strings and in code), derived enums in test modules, and
/// the names `Feature` and `Gate` everywhere. Reading only the items that
/// name a derive, then only those that can reference a gate, finds what
/// parsing every file whole finds, each derive's errors included.
#[test]
fn own_crates_read_the_same_either_way() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let files = rust_files(&root);
    assert!(files.paths().count() > 300, "kompat's crates hold Rust sources");
    let fast = findings(&files, Parse::Candidates);
    assert_eq!(fast, findings(&files, Parse::Every));
    // Not vacuous: the derives' UI tests are errors of their own.
    assert!(fast.contains("missing `reason` in `allow(...)`"), "{fast}");
    // Without them, declarations and references.
    let mut ok = kompat_rust::memory::Texts::default();
    for path in files.paths().filter(|path| !path.to_string_lossy().contains("tests/ui/")) {
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        ok.push(Text::new(path.to_owned(), text));
    }
    let fast = findings(&ok, Parse::Candidates);
    assert_eq!(fast, findings(&ok, Parse::Every));
    let (declared, refs) = (fast.matches("Declared {").count(), fast.matches("GateRef {").count());
    assert!(declared >= 3 && refs >= 5, "{declared} declaring files, {refs} references");
}
