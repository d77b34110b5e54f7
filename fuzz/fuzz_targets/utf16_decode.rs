//! The decoder of YAML files (UTF-8, or UTF-16 after a byte order mark):
//! no panic, and at most 1.5 bytes of UTF-8 per input byte.
#![no_main]

use kompat_project::source::decode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(text) = decode(data) {
        assert!(text.len() <= data.len() * 3 / 2);
    }
});
