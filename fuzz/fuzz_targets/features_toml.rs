//! kompat's feature TOML: no panic, errors located, what parses renders and
//! parses back to the same declarations, and the fast path for the exported
//! shape reads exactly what the `toml` crate's reader reads (spans included).
#![no_main]

use kompat_formats::{parse_toml, parse_toml_general, render_toml};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_toml(text) {
        Ok(file) => {
            match parse_toml_general(text) {
                Ok(general) => assert_eq!(file, general, "the fast path and the general reader differ"),
                Err(errors) => panic!("the fast path accepted what the general reader rejects: {errors:?}"),
            }
            let _ = kompat_engine::validate(file.features.features());
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
