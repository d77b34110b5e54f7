//! Bounded, deterministic mutation fuzzing of what kompat-project reads. The
//! Rust source reader: no mutation of a file with both derives may make
//! loading it panic, a file that is not Rust is a located error, and whatever
//! loads builds its API set and validates its gates without panicking. The
//! reference pass: on mutations of referring files, reading only the
//! candidate files and their items that can matter finds exactly what a
//! whole parse finds, positions included; a file the first read of a walk
//! releases with every name ruled out references none. And `kompat.toml`:
//! every error located, no panic.

use kompat_testkit::mutate;

use mutate::{mutate, Rng};

const SEED: &str = r#"use kompat::{ApiLifecycle, FeatureGates};

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    /// Docs.
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.32", stage = "Beta", default = true, min_compatibility = "1.31"))]
    WatchList,
    #[kompat(name = "KMSv1", depends_on(WatchList), ratchet(tolerated_since = "1.31"))]
    #[kompat(allow(code = "orphaned-gate", reason = "elsewhere"))]
    #[kompat(spec(version = "1.0", stage = "GA", default = true, locked = true))]
    KmsV1,
}

pub mod v1beta1 {
    #[derive(kompat::ApiLifecycle)]
    #[kube(group = "batch", version = "v1beta1", kind = "CronJob", namespaced)]
    #[kompat(api(resource = "cronjobs", introduced = "1.8", deprecated = "1.21", replacement = "batch/v1/CronJob"))]
    pub struct CronJobSpec;
}

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", kind = "CronJob", resource = "cronjobs", introduced = "1.21"))]
pub struct CronJob;

pub fn uses(gate: &kompat::TypedGate<Feature>) -> bool {
    gate.enabled(Feature::WatchList) && gate.enabled_by_name("KMSv1")
}
"#;

#[test]
fn rust_reader_never_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("lib.rs");
    let mut rng = Rng(0x6b6f_6d70_6174_0201);
    let (mut loaded, mut with_apis) = (0, 0);
    for _ in 0..mutate::iterations(2000) {
        let input = mutate(SEED, &mut rng);
        std::fs::write(&path, &input).expect("write");
        match kompat_project::load(std::slice::from_ref(&path)) {
            Ok(decls) => {
                loaded += 1;
                let _ = decls.validate_strict();
                if decls.has_apis() {
                    with_apis += 1;
                    let _ = decls.api_set();
                }
            }
            Err(err) => {
                for failure in &err.diagnostics {
                    assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                }
            }
        }
    }
    assert!(loaded > 0 && with_apis > 0, "loaded {loaded}, with APIs {with_apis}");
}

/// A declaring file with an alias and a type alias visible beyond it.
const GATES: &str = include_str!("data/aliased_gates.rs");

/// Referring files, each with what selection must get right: glob imports
/// and bare variants, items that shadow them, aliases and type aliases,
/// `Self` in an impl, re-exports, macros and gate-name strings, nested
/// modules, and ordinary code to skip.
const REFERRING: [&str; 3] = [
    r#"use crate::gates::Feature::*;
use crate::gates::Gate as G2;
type F = G2;
fn f(g: &G) -> bool { g.enabled(WatchList) && g.enabled(F::Other) }
struct Other;
fn h() -> std::io::Result<()> { let _ = Other; Ok(()) }
pub fn plain(path: &std::path::Path) -> Vec<u8> { std::fs::read(path).unwrap_or_default() }
"#,
    r#"use super::*;
mod m { use super::*; fn f() { Feature::Other; } }
impl Flag { fn k() -> Self { Self::WatchList } }
pub use crate::gates::Gate;
const WatchList: u8 = 0;
fn b() -> u8 { WatchList }
"#,
    r#"macro_rules! on { ($g:expr) => { $g } }
fn f(g: &Gates) { if on!(g.enabled(Feature::WatchList)) { tracing::info!("{:?}", Feature::Other); } }
fn s(g: &Gates) -> bool { g.enabled_by_name("WatchList").unwrap_or(false) && is_enabled::<u8>("Other") }
impl Thing { pub fn new() -> Self { Self { id: 0 } } }
"#,
];

/// Reading only the items that can matter (`Parse::Candidates`) against
/// parsing every file whole (`Parse::Every`), on mutations of the referring
/// files: where the whole parse succeeds, the findings are the same,
/// positions included. (Where it fails the fast path may succeed: a syntax
/// error in an item that cannot reference a gate is the compiler's.)
#[test]
fn selection_finds_what_a_whole_parse_finds() {
    use kompat_project::rust::{scan_with, Parse};
    let mut rng = Rng(0x6b6f_6d70_6174_0203);
    let (mut compared, mut with_refs) = (0, 0);
    for i in 0..mutate::iterations(1500) {
        let mut files = vec![kompat_project::SourceFile::new("gates.rs".into(), GATES.to_owned())];
        for (j, seed) in REFERRING.iter().enumerate() {
            // One file mutated at a time, the others as written.
            let text = if j == i % REFERRING.len() { mutate(seed, &mut rng) } else { (*seed).to_owned() };
            files.push(kompat_project::SourceFile::new(format!("f{j}.rs").into(), text));
        }
        let run = |parse| {
            let mut decls = kompat_project::Decls::default();
            scan_with(&files, &mut decls, parse).map(|scan| format!("{scan:#?}\n{decls:#?}"))
        };
        let Ok(whole) = run(Parse::Every) else { continue };
        match run(Parse::Candidates) {
            Ok(fast) => assert_eq!(fast, whole, "{:#?}", &files[1..]),
            Err(err) => panic!("the fast path failed where a whole parse did not: {err}\n{:#?}", &files[1..]),
        }
        compared += 1;
        with_refs += usize::from(whole.contains("GateRef {"));
    }
    // Not vacuous: a mutation breaks the whole parse more often than not
    // (a syntax error anywhere), but a tenth of them and more still parse
    // and hold references.
    let total = mutate::iterations(1500);
    assert!(compared * 10 > total && with_refs * 10 > total, "{compared} compared, {with_refs} with references");
}

/// Referring files without a gate call (a call keeps a file's text): they
/// name the enum and its aliases in every way a reference can (a path, an
/// alias of their own, a type alias, a glob import, `Self` in an impl) and
/// in ways that cannot be one (a struct of the same name).
const RELEASABLE: [&str; 3] = [
    "use crate::gates::{Feature as F};\nfn f() -> bool { matches!(x(), F::WatchList) }\nfn g() -> std::io::Result<()> { Ok(()) }\n",
    "pub type G = crate::gates::Gate;\nstruct Flag;\nfn f(x: Flag) -> bool { matches!(x, G::Other) || y(Feature::WatchList) }\n",
    "use crate::gates::Flag::*;\nimpl Feature { fn f() { Self::Other; } }\nfn h() { let _ = WatchList; }\n",
];

/// The first read of a file found in a directory (`rust/early.rs`) against a
/// whole parse, on mutations of referring files (as the fuzz target
/// `rust_first_read` does): a file it releases with every name of the
/// declaring file's enum and aliases ruled out is never read again, so a
/// whole parse must find no reference in it.
#[test]
fn first_reads_rule_out_only_names_a_file_cannot_reference() {
    use kompat_project::rust::{first_read_rules_out, scan_with, Parse};
    const NAMES: [&str; 3] = ["Feature", "Flag", "Gate"];
    let mut rng = Rng(0x6b6f_6d70_6174_0204);
    let (mut released, mut parsed, mut kept) = (0, 0, 0);
    for i in 0..mutate::iterations(1500) {
        let text = mutate(RELEASABLE[i % RELEASABLE.len()], &mut rng);
        if first_read_rules_out(&text, &NAMES).is_none_or(|ruled_out| ruled_out != NAMES) {
            kept += 1;
            continue;
        }
        released += 1;
        let files = vec![
            kompat_project::SourceFile::new("gates.rs".into(), GATES.to_owned()),
            kompat_project::SourceFile::new("f.rs".into(), text.clone()),
        ];
        let Ok(scan) = scan_with(&files, &mut kompat_project::Decls::default(), Parse::Every) else { continue };
        parsed += 1;
        let missed: Vec<&str> = scan
            .refs
            .iter()
            .filter(|r| r.location.path() == std::path::Path::new("f.rs"))
            .map(|r| r.gate.as_str())
            .collect();
        assert!(missed.is_empty(), "released with every name ruled out, yet it references {missed:?}:\n{text}");
    }
    // Not vacuous: mutations that break every reference are released and
    // checked, and most are kept or read again.
    assert!(released > 0 && parsed > 0 && kept > released, "{released} released, {parsed} parsed, {kept} kept");
}

const CONFIG_SEED: &str = "binary_version = \"1.37\"\ndecls = [\"features.toml\", \"apis.toml\"]\nbaseline = \"old.toml\"\n\n[window]\nprofile = \"kubernetes\"\nskew = 3\n\n[lint.levels]\norphaned-gate = \"deny\"\n\n[[lint.allow]]\ncode = \"locked-gate-cleanup\"\nsubject = \"KMSv1\"\nreason = \"kept for the 1.36 rollback\"\n\n[[gen.output]]\nkind = \"rust\"\npath = \"generated/features.rs\"\n";

/// `kompat.toml`: no mutation may make reading it panic, and every error
/// is located.
#[test]
fn config_parser_never_panics() {
    let mut rng = Rng(0x6b6f_6d70_6174_0202);
    let mut accepted = 0;
    for _ in 0..mutate::iterations(3000) {
        let input = mutate(CONFIG_SEED, &mut rng);
        let source = kompat_project::SourceFile::new(std::path::PathBuf::from("kompat.toml"), input.clone());
        match kompat_project::Config::parse(source) {
            Ok(_) => accepted += 1,
            Err(err) => {
                for failure in &err.diagnostics {
                    assert!(failure.location.is_some(), "unlocated: {}\n{input}", failure.message);
                }
            }
        }
    }
    assert!(accepted > 0, "the mutations never produced a valid configuration");
}
