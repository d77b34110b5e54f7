//! The `[render]` table (and `[kubernetes]`) of `kompat.toml`: no panic,
//! every error located, the render limits within their caps.
#![no_main]

use kompat_project::{render::Limits, Config, SourceFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Config::parse(SourceFile::new(std::path::PathBuf::from("kompat.toml"), text.to_owned())) {
        Ok(config) => {
            if let Some(render) = &config.render {
                let limits = Limits::of(render);
                assert!(limits.max_output <= 1024 << 20 && limits.timeout.as_secs() <= 3600);
            }
        }
        Err(err) => {
            for failure in &err.diagnostics {
                assert!(failure.location.as_ref().and_then(|l| l.line_col()).is_some(), "{}", failure.message);
            }
        }
    }
});
