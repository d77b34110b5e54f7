//! The CRD conversions TOML, checked against a fixed CRD: no panic, errors
//! located.
#![no_main]

use std::sync::OnceLock;

use kompat_crd::{check_conversions, check_crd, parse_conversions, parse_manifests, Crd};
use libfuzzer_sys::fuzz_target;

const MANIFEST: &str = include_str!("../../fixtures/crd/kube-rs/widget-merged.yaml");

fn crds() -> &'static [Crd] {
    static CRDS: OnceLock<Vec<Crd>> = OnceLock::new();
    CRDS.get_or_init(|| parse_manifests(MANIFEST).unwrap_or_default())
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_conversions(text) {
        Ok(conversions) => {
            for crd in crds() {
                let _ = check_crd(crd, Some(&conversions));
                let _ = check_conversions(crd, &conversions);
            }
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
