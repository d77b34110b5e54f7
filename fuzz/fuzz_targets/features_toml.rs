//! kompat's feature TOML: no panic, errors located, and what parses renders
//! and parses back to the same declarations.
#![no_main]

use kompat_decls::{parse_toml, render_toml};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_toml(text) {
        Ok(file) => {
            let _ = kompat_core::validate(file.features.features());
            let rendered = render_toml(file.features.features());
            let again = parse_toml(&rendered).expect("rendered TOML parses");
            assert_eq!(again.features.features(), file.features.features());
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            for e in &errors {
                let span = e.span.unwrap_or_else(|| panic!("unlocated: {}", e.message));
                assert!(span.start <= span.end && span.end <= text.len(), "{}", e.message);
            }
        }
    }
});
