//! The Rust source reader (syn, the derives' own attribute parsing, the
//! nesting guard), through a file as kompat reads it: no panic, no stack
//! overflow, every error located; what loads validates and builds its API
//! set without panicking.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// One file per fuzzing process, rewritten for every input.
fn path() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| std::env::temp_dir().join(format!("kompat-fuzz-{}.rs", std::process::id())))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if std::fs::write(path(), text).is_err() {
        return;
    }
    match kompat_project::load(std::slice::from_ref(path())) {
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
