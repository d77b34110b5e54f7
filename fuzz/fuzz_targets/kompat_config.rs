//! `kompat.toml`: no panic, every error located.
#![no_main]

use kompat_project::{Config, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let source = SourceFile::new(std::path::PathBuf::from("kompat.toml"), text.to_owned());
    if let Err(err) = Config::parse(source) {
        for failure in &err.diagnostics {
            assert!(failure.location.is_some(), "unlocated: {}", failure.message);
        }
    }
});
