//! Kubernetes upgrade paths `A..B` (files and command lines) and
//! `[kubernetes] version` in `kompat.toml`: no panic, every accepted path
//! short (each step is a lint run) and within one major, every error of the
//! configuration located.
#![no_main]

use kompat_project::{Config, SourceFile};
use kompat_runtime::{Version, VersionRange};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for parse in [Version::parse, Version::parse_flag] {
        if let Ok(range) = VersionRange::parse_with(text, parse) {
            assert!(range.steps().count() <= VersionRange::MAX_STEPS as usize);
            assert_eq!(range.first().major, range.last().major);
        }
    }
    let toml = format!("[kubernetes]\nversion = {text:?}\n");
    match Config::parse(SourceFile::new(std::path::PathBuf::from("kompat.toml"), toml)) {
        Ok(config) => assert!(config.kubernetes_path.is_none_or(|p| p.steps().count() <= 100)),
        Err(err) => assert!(err.diagnostics.iter().all(|d| d.location.is_some())),
    }
});
