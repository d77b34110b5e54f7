//! The first read of a Rust file found in a directory (`early.rs` of `kompat-rust`)
//! against a whole parse: when it releases the fuzzed file with every name
//! of the fixed declaring file's enum and aliases ruled out, the file is
//! never read again, so a whole parse of it next to the declaring file must
//! find no reference in it. Also: the first read never panics, whatever the
//! bytes (its guesses of enum and alias names slice the text by hand).
#![no_main]

use std::path::Path;

use kompat_rust::memory::{Text, Texts};
use kompat_rust::{first_read_rules_out, scan_with, Parse};
use libfuzzer_sys::fuzz_target;

/// The declaring file: an enum `Feature` with the aliases `Gate` and `Flag`.
const DECLARES: &str = include_str!("../../crates/kompat-rust/tests/data/aliased_gates.rs");
const NAMES: [&str; 3] = ["Feature", "Flag", "Gate"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some(ruled_out) = first_read_rules_out(text, &NAMES) else { return };
    if ruled_out != NAMES {
        return;
    }
    let mut files = Texts::default();
    files.push(Text::new("gates.rs", DECLARES));
    files.push(Text::new("f.rs", text));
    let Ok(found) = scan_with(&mut files, Parse::Every) else { return };
    let missed: Vec<&str> =
        found.scan.refs.iter().filter(|r| r.location.path() == Path::new("f.rs")).map(|r| r.gate.as_str()).collect();
    assert!(missed.is_empty(), "released with every name ruled out, yet it references {missed:?}");
});
