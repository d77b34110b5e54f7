//! The Rust source reader (syn, the derives' own attribute parsing, the
//! nesting guard) as kompat reads a file, from memory (what
//! `kompat_project::load` does after reading): no panic, no stack overflow,
//! every error located; what loads validates and builds its API set without
//! panicking.
#![no_main]

use std::path::PathBuf;

use kompat_project::{Decls, Input, Kind, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let source = SourceFile::new(PathBuf::from("fuzz.rs"), text.to_owned());
    let input = Input::new(Kind::Rust, source, true);
    match Decls::from_inputs([input], &[]) {
        Ok(decls) => {
            let _ = decls.validate_strict();
            if decls.has_apis() {
                let _ = decls.api_set();
            }
        }
        Err(err) => {
            for failure in &err.diagnostics {
                assert!(failure.location.is_some(), "unlocated: {}", failure.message);
            }
        }
    }
});
