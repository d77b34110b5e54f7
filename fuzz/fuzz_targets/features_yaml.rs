//! Kubernetes' versioned_feature_list.yaml: no panic, errors located, and
//! what parses renders and parses back to the same bytes.
#![no_main]

use kompat_formats::{parse_k8s_yaml, render_k8s_yaml};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_k8s_yaml(text) {
        Ok(file) => {
            let _ = kompat_engine::validate(file.features());
            let rendered = render_k8s_yaml(file.features());
            let again = parse_k8s_yaml(&rendered).expect("rendered YAML parses");
            assert_eq!(render_k8s_yaml(again.features()), rendered);
        }
        Err(errors) => {
            assert!(!errors.is_empty());
            for e in &errors {
                if let Some(span) = e.span {
                    assert!(span.start <= span.end && span.end <= text.len(), "{}", e.message);
                }
            }
        }
    }
});
