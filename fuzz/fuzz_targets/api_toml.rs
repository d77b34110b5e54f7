//! API declarations in kompat TOML (one parse of the whole file), and `ApiSet::build` with every check on what
//! parses: no panic, every problem located in the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Parse errors are all located; a problem of the API set as a whole
    // (from `build`) may be about the file as a whole.
    let (errors, parsed) = match kompat_formats::parse_toml(text).map(|file| file.apis) {
        Ok(file) => match file.build() {
            Ok(_) => return,
            Err(errors) => (errors, true),
        },
        Err(errors) => (errors, false),
    };
    assert!(!errors.is_empty());
    for e in &errors {
        match e.span {
            Some(span) => assert!(span.start <= span.end && span.end <= text.len(), "{}", e.message),
            None => assert!(parsed, "unlocated: {}", e.message),
        }
    }
});
