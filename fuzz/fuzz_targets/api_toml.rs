//! API declarations in kompat TOML (one parse of the whole file), and `ApiSet::build` with every check on what
//! parses: no panic, every problem located in the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let errors = match kompat_decls::parse_toml(text).map(|file| file.apis) {
        Ok(file) => match file.build() {
            Ok(_) => return,
            Err(errors) => errors,
        },
        Err(errors) => errors,
    };
    assert!(!errors.is_empty());
    for e in &errors {
        if let Some(span) = e.span {
            assert!(span.start <= span.end && span.end <= text.len(), "{}", e.message);
        }
    }
});
