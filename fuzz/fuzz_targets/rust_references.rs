//! The Rust reference pass against its oracle: the fuzzed text, cut into
//! up to three files at lines `//--`, is scanned next to a fixed declaring
//! file (a derived enum with an alias) once as `kompat lint` does (only the
//! candidate files, and in them only the items that can matter: the
//! prefilter and `select.rs` of `kompat-rust`) and once parsing every file whole. When
//! the whole parse succeeds, the fast one must find exactly the same
//! declarations, references and allowances. (When it fails, the fast one
//! may succeed: a syntax error in a file or an item that cannot reference a
//! gate is the compiler's to report; see docs/limits.md.) A reference is
//! compared by its gate and file: proc-macro2 records no positions when
//! built for fuzzing (`cfg(fuzzing)`), so where a reference is written is
//! left to the test suite (`crates/kompat-rust/tests/it/prefilter.rs` and the selection
//! tests of `crates/kompat-rust/src/lib.rs` compare positions too).
#![no_main]

use kompat_rust::memory::{Text, Texts};
use kompat_rust::{scan_with, Parse};
use libfuzzer_sys::fuzz_target;

/// The declaring file every input is scanned with: two gates and aliases
/// visible beyond their module, so that selection has names, variants and
/// aliases to look for.
const DECLARES: &str = include_str!("../../crates/kompat-rust/tests/data/aliased_gates.rs");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut files = Texts::default();
    files.push(Text::new("gates.rs", DECLARES));
    for (i, part) in text.split("\n//--\n").take(3).enumerate() {
        files.push(Text::new(format!("f{i}.rs"), part));
    }
    let run = |parse| {
        scan_with(&mut files.clone(), parse).map(|found| {
            let scan = &found.scan;
            let refs: Vec<(&std::path::Path, &str)> =
                scan.refs.iter().map(|r| (r.location.path(), r.gate.as_str())).collect();
            format!("{refs:#?}\n{:#?}\n{:#?}\n{:#?}", scan.allows, scan.custom_resources, found.declared)
        })
    };
    let Ok(whole) = run(Parse::Every) else { return };
    match run(Parse::Candidates) {
        Ok(fast) => assert_eq!(fast, whole, "the fast path's findings differ from a whole parse's"),
        Err(err) => panic!("the fast path failed where a whole parse did not: {err:?}"),
    }
});
