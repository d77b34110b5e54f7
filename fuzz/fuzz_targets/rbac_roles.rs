//! RBAC `Role`/`ClusterRole` rules from YAML and JSON manifests (`List`
//! items too): no panic, bounded output, every location inside the input.
#![no_main]

use kompat_formats::{rbac::roles_in, yaml::parse_documents};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(docs) = parse_documents(text) else { return };
    for role in roles_in(&docs) {
        assert!(role.location.end <= text.len());
        for rule in &role.rules {
            for resource in &rule.resources {
                assert!(resource.location.start <= resource.location.end && resource.location.end <= text.len());
            }
        }
    }
});
