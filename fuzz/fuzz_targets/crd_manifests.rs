//! CRD manifests, and every check on what parses (single-manifest checks,
//! old -> new against itself, the migration plan): no panic, errors located.
#![no_main]

use kompat_crd::{check_crd, check_upgrade, migration_plan, parse_manifests};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_manifests(text) {
        Ok(crds) => {
            for crd in &crds {
                let _ = check_crd(crd, None);
                let _ = check_upgrade(crd, crd, None);
                let _ = migration_plan(crd, crd);
            }
            if let [old, new, ..] = crds.as_slice() {
                let _ = check_upgrade(old, new, None);
                let _ = migration_plan(old, new);
            }
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
