//! The first read of a Rust file found in a directory (`rust/early.rs`)
//! against a whole parse: when it releases the fuzzed file with every name
//! of the fixed declaring file's enum and aliases ruled out, the file is
//! never read again, so a whole parse of it next to the declaring file must
//! find no reference in it. Also: the first read never panics, whatever the
//! bytes (its guesses of enum and alias names slice the text by hand).
#![no_main]

use std::path::{Path, PathBuf};

use kompat_project::rust::{first_read_rules_out, scan_with, Parse};
use kompat_project::{Decls, SourceFile};
use libfuzzer_sys::fuzz_target;

/// The declaring file: an enum `Feature` with the aliases `Gate` and `Flag`.
const DECLARES: &str = include_str!("../../crates/kompat-project/tests/data/aliased_gates.rs");
const NAMES: [&str; 3] = ["Feature", "Flag", "Gate"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Some(ruled_out) = first_read_rules_out(text, &NAMES) else { return };
    if ruled_out != NAMES {
        return;
    }
    let files = vec![
        SourceFile::new(PathBuf::from("gates.rs"), DECLARES.to_owned()),
        SourceFile::new(PathBuf::from("f.rs"), text.to_owned()),
    ];
    let Ok(scan) = scan_with(&files, &mut Decls::default(), Parse::Every) else { return };
    let missed: Vec<&str> =
        scan.refs.iter().filter(|r| r.location.path() == Path::new("f.rs")).map(|r| r.gate.as_str()).collect();
    assert!(missed.is_empty(), "released with every name ruled out, yet it references {missed:?}");
});
