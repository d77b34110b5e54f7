//! Bounded, deterministic mutation fuzzing of the Rust reader's reference
//! pass: on mutations of referring files, reading only the candidate files
//! and their items that can matter finds exactly what a whole parse finds,
//! positions included; a file the first read of a walk releases with every
//! name ruled out references none.

use kompat_testkit::mutate;

use kompat_rust::memory::{Text, Texts};
use kompat_rust::{first_read_rules_out, scan_with, Parse};
use mutate::{mutate, Rng};

/// A declaring file with an alias and a type alias visible beyond it.
const GATES: &str = include_str!("../data/aliased_gates.rs");

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
    let mut rng = Rng(0x6b6f_6d70_6174_0203);
    let (mut compared, mut with_refs) = (0, 0);
    for i in 0..mutate::iterations(1500) {
        let mut files = Texts::default();
        files.push(Text::new("gates.rs", GATES));
        for (j, seed) in REFERRING.iter().enumerate() {
            // One file mutated at a time, the others as written.
            let text = if j == i % REFERRING.len() { mutate(seed, &mut rng) } else { (*seed).to_owned() };
            files.push(Text::new(format!("f{j}.rs"), text));
        }
        let run = |parse| scan_with(&mut files.clone(), parse).map(|found| format!("{found:#?}"));
        let Ok(whole) = run(Parse::Every) else { continue };
        match run(Parse::Candidates) {
            Ok(fast) => assert_eq!(fast, whole, "{files:#?}"),
            Err(err) => panic!("the fast path failed where a whole parse did not: {err:?}\n{files:#?}"),
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

/// The first read of a file found in a directory (`early.rs`) against a
/// whole parse, on mutations of referring files (as the fuzz target
/// `rust_first_read` does): a file it releases with every name of the
/// declaring file's enum and aliases ruled out is never read again, so a
/// whole parse must find no reference in it.
#[test]
fn first_reads_rule_out_only_names_a_file_cannot_reference() {
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
        let mut files = Texts::default();
        files.push(Text::new("gates.rs", GATES));
        files.push(Text::new("f.rs", text.clone()));
        let Ok(found) = scan_with(&mut files, Parse::Every) else { continue };
        parsed += 1;
        let missed: Vec<&str> = found
            .scan
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
