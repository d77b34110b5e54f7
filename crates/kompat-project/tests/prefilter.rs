//! The byte prefilter of the Rust reader changes nothing: on every fixture
//! directory, scanning only the candidate files finds exactly what parsing
//! every file finds (declarations, references, allowances and errors).

use std::path::{Path, PathBuf};

use kompat_project::rust::{scan_with, Parse};
use kompat_project::{classify, Decls, Kind, SourceFile};

/// What a scan of `files` yields, rendered for comparison.
fn findings(files: &[SourceFile], parse: Parse) -> String {
    let mut decls = Decls::default();
    let scan = scan_with(files, &mut decls, parse);
    format!("{scan:#?}\n{decls:#?}")
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
        // A directory that does not classify (a deliberately broken
        // fixture) has nothing for the Rust reader.
        let Ok(classified) = classify(std::slice::from_ref(&dir)) else { continue };
        let files: Vec<SourceFile> =
            classified.inputs.into_iter().filter(|i| i.kind == Kind::Rust).map(|i| i.source).collect();
        if files.is_empty() {
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
    let classified = classify(&[dir]).unwrap_or_else(|err| panic!("{err}"));
    let files: Vec<SourceFile> =
        classified.inputs.into_iter().filter(|i| i.kind == Kind::Rust).map(|i| i.source).collect();
    for parse in [Parse::Candidates, Parse::Every] {
        let mut decls = Decls::default();
        let scan = scan_with(&files, &mut decls, parse).unwrap_or_else(|err| panic!("{err}"));
        let declared: Vec<&str> = decls.features().iter().map(|f| f.name.as_str()).collect();
        let unused: Vec<&str> =
            declared.iter().copied().filter(|name| !scan.refs.iter().any(|r| r.gate == *name)).collect();
        assert_eq!(declared.len(), 10, "{parse:?}");
        assert_eq!(unused, ["LeaderElectionV2"], "{parse:?}");
    }
}
