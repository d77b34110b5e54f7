//! Released Rust files are read again only for the derived enums' names
//! their first read did not search for: through the real (parallel) reads
//! of a directory, the findings are a full parse's, and where the count of
//! second reads does not depend on the order the files are read in, it is
//! what the names known at each first read allow. (Every order is checked
//! one by one in `kompat-rust`'s `early.rs` tests.)

use std::path::Path;

use kompat_project::{classify, Kind, Read, RustFiles};
use kompat_rust::{scan, scan_with, Parse, Rereads};

const GATES: &str = r#"
#[derive(Clone, Copy, kompat::FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    A,
}
"#;
const PLAIN: &str = "fn main() { std::io::stdout(); }\n";

/// A tree of `files` (paths with directories) and `plain` files with
/// nothing to find, deeper than the others.
fn tree(files: &[(&str, &str)], plain: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|err| panic!("{err}"));
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|err| panic!("{err}"));
        }
        std::fs::write(path, text).unwrap_or_else(|err| panic!("{err}"));
    };
    for (name, text) in files {
        write(name, text);
    }
    for i in 0..plain {
        write(&format!("src/deep/er/plain{i}.rs"), PLAIN);
    }
    dir
}

fn rust_files(dir: &Path) -> Vec<Read> {
    let classified = classify(&[dir.to_owned()]).unwrap_or_else(|err| panic!("{err}"));
    classified.inputs.into_iter().filter(|i| i.kind == Kind::Rust).map(|i| i.file).collect()
}

/// The references found with and without the prefilter (which must agree),
/// and how many times released files were read again (as `scan` reports
/// it).
fn check(files: &[(&str, &str)], plain: usize, refs: &[&str]) -> (usize, usize) {
    let dir = tree(files, plain);
    let read = rust_files(dir.path());
    let released = read.iter().filter(|f| matches!(f, Read::Released(_))).count();
    let mut found = Vec::new();
    let mut rereads = 0;
    for parse in [Parse::Candidates, Parse::Every] {
        // The fast path through the public `scan`, which counts the files
        // read again; the oracle through `scan_with`.
        let mut files = RustFiles(read.clone());
        let scan = match parse {
            Parse::Candidates => scan(&mut files),
            Parse::Every => scan_with(&mut files, parse),
        }
        .unwrap_or_else(|e| panic!("{e:?}"))
        .scan;
        let mut got: Vec<String> = scan
            .refs
            .iter()
            .map(|r| {
                format!("{} {}", r.gate, r.location.path().strip_prefix(dir.path()).unwrap_or(Path::new("")).display())
            })
            .collect();
        got.sort();
        found.push(got);
        if parse == Parse::Candidates {
            let Rereads { read_again, released: counted } = scan.rereads;
            assert_eq!(counted, released);
            rereads = read_again;
        }
    }
    assert_eq!(found[0], found[1]);
    assert_eq!(found[0], refs);
    (rereads, released)
}

#[test]
fn without_a_derived_enum_nothing_is_read_again() {
    let uses = ("src/uses.rs", "fn f() { Feature::A; }\n");
    assert_eq!(check(&[uses], 20, &[]), (0, 21));
}

#[test]
fn a_name_the_guess_misses_has_every_released_file_read_again() {
    // The enum's name is not where the guess looks (after an attribute on
    // its line): every released file is searched for it, whatever the
    // order of the reads.
    let hidden = GATES.replace(")]\npub enum", ")] #[repr(u8)] pub enum");
    let uses = ("src/uses.rs", "fn f() { Feature::A; }\n");
    assert_eq!(check(&[("src/gates.rs", &hidden), uses], 20, &["A src/uses.rs"]), (21, 21));
    // A string before it naming another enum does not hide it: the
    // findings are a full parse's, and a released file is read again at
    // most once. Which ones are depends on the files the walk's threads read
    // before the declaring one (on a loaded machine, possibly all of them):
    // every order is counted in `kompat-rust`'s `early.rs` tests
    // (`wrong_guesses_cost_reads_never_findings`).
    let literal = GATES.replace("pub enum", "#[doc = \"\nenum Fake\"]\npub enum");
    let (rereads, released) = check(&[("src/gates.rs", &literal), uses], 20, &["A src/uses.rs"]);
    assert!(rereads <= released, "{rereads} of {released}");
}

#[test]
fn files_read_in_any_order_find_what_a_full_parse_finds() {
    // The declaring file is read first (nearest the root), the alias and
    // its users after it; how many files are read again depends on which
    // reads the threads run at the same time (every order is counted in
    // `kompat-rust`'s `early.rs` tests), the findings do not.
    let alias = ("src/a/alias.rs", "pub use crate::gates::Feature as Gate;\n");
    let user = ("src/a/b/user.rs", "fn f() { Gate::A; }\n");
    let uses = ("src/a/b/uses.rs", "fn f() { crate::gates::Feature::A; }\n");
    let files = [("src/gates.rs", GATES), alias, user, uses];
    let (rereads, released) = check(&files, 200, &["A src/a/b/user.rs", "A src/a/b/uses.rs"]);
    assert_eq!(released, 203);
    // Each file that names the enum or the alias at least.
    assert!(rereads >= 3, "{rereads} of {released}");
}
