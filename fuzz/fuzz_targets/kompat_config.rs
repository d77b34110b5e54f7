//! `kompat.toml`: no panic, every error located at a line and column.
#![no_main]

use kompat_project::{Config, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let source = SourceFile::new(std::path::PathBuf::from("kompat.toml"), text.to_owned());
    if let Err(err) = Config::parse(source) {
        for failure in &err.diagnostics {
            let at = failure.location.as_ref().and_then(|l| l.line_col());
            assert!(at.is_some(), "no line:col: {}", failure.message);
        }
    }
});
