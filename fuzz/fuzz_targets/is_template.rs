//! `kompat_formats::yaml::is_template`: no panic on any text, and a text
//! without `{{` is never a template.
#![no_main]

use kompat_formats::yaml::is_template;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    assert!(!is_template(text) || text.contains("{{"));
});
