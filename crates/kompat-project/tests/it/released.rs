//! Rust files found in a directory keep their text only while it can
//! matter: those that cannot declare or reference a gate without a derived
//! enum's name are released after their first read and read again only when
//! the Rust reader searches for such a name; the findings are the same.

use std::path::Path;

use kompat_project::{classify, Kind, Read, RustFiles};
use kompat_rust::{scan_with, Parse};

const GATES: &str = r#"
#[derive(Clone, Copy, kompat::FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    A,
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    B,
}
"#;

/// (file name, text, whether its text is held after classification)
const FILES: [(&str, &str, bool); 4] = [
    ("gates.rs", GATES, true),
    ("calls.rs", "fn f(g: &G) -> bool { g.enabled(\"A\") }\n", true),
    ("paths.rs", "fn f() -> bool {\n    matches!(x(), Feature::B)\n}\n", false),
    ("plain.rs", "fn main() { std::io::stdout(); }\n", false),
];

fn tree(files: &[(&str, &str, bool)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("{err}"));
    for (name, text, _) in files {
        std::fs::write(dir.path().join(name), text).unwrap_or_else(|err| panic!("{err}"));
    }
    dir
}

fn rust_files(dir: &Path) -> Vec<Read> {
    let classified = classify(&[dir.to_owned()]).unwrap_or_else(|err| panic!("{err}"));
    classified.inputs.into_iter().filter(|i| i.kind == Kind::Rust).map(|i| i.file).collect()
}

fn name(file: &Read) -> String {
    file.path().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The files scanned as `parse` says; an error rendered.
fn scan(files: &[Read], parse: Parse) -> Result<kompat_rust::RustScan, String> {
    let mut files = RustFiles(files.to_vec());
    scan_with(&mut files, parse)
        .map(|found| found.scan)
        .map_err(|err| err.iter().map(kompat_diag::Diagnostic::one_line).collect::<Vec<_>>().join("\n"))
}

#[test]
fn texts_are_held_only_where_they_can_matter() {
    let dir = tree(&FILES);
    let files = rust_files(dir.path());
    let mut got: Vec<(String, bool)> = files.iter().map(|f| (name(f), matches!(f, Read::Held(_)))).collect();
    got.sort();
    let mut expected: Vec<(String, bool)> = FILES.iter().map(|(n, _, held)| ((*n).to_owned(), *held)).collect();
    expected.sort();
    assert_eq!(got, expected);
    for file in &files {
        let text = FILES.iter().find(|(n, _, _)| *n == name(file)).map_or("", |(_, t, _)| *t);
        if let Read::Held(held) = file {
            assert_eq!(&*held.text, text, "{}", name(file));
        }
    }
}

#[test]
fn released_files_are_read_again_for_the_derived_enums_names() {
    let dir = tree(&FILES);
    let files = rust_files(dir.path());
    for parse in [Parse::Candidates, Parse::Every] {
        let scan = scan(&files, parse).unwrap_or_else(|err| panic!("{err}"));
        let mut refs: Vec<String> = scan
            .refs
            .iter()
            .map(|r| {
                let (line, col) = r.location.line_col().unwrap_or_default();
                format!("{} {}:{line}:{col}", r.gate, r.location.path().file_name().unwrap_or_default().display())
            })
            .collect();
        refs.sort();
        assert_eq!(refs, ["A calls.rs:1:33", "B paths.rs:2:28"], "{parse:?}");
    }
}

#[test]
fn a_released_file_gone_before_it_is_read_again_is_an_error() {
    let dir = tree(&FILES);
    let files = rust_files(dir.path());
    std::fs::remove_file(dir.path().join("paths.rs")).unwrap_or_else(|err| panic!("{err}"));
    let err = scan(&files, Parse::Candidates).map(|_| ());
    let gone = dir.path().join("paths.rs");
    assert_eq!(err, Err(format!("{0}: {0} was removed while its directory was read", gone.display())));
    // Without a derived enum, nothing is read again.
    let dir = tree(&FILES[1..]);
    let files = rust_files(dir.path());
    std::fs::remove_file(dir.path().join("paths.rs")).unwrap_or_else(|err| panic!("{err}"));
    let scan = scan(&files, Parse::Candidates).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(scan.refs.len(), 1);
}
