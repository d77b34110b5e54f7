//! Bounded, deterministic mutation fuzzing of the inline allowances in
//! manifests (`ignore-check.kompat.io/<code>` annotations, `# kompat:allow`
//! comments): no input may make the scan or its application panic, and every
//! allowance is located inside its file, in the object it covers.

use kompat_testkit::mutate;

use std::path::PathBuf;

use kompat_cli::rules::inline_allow::{apply, scan};
use kompat_cli::rules::unused_allowance::UNUSED_ALLOWANCE;
use kompat_project::SourceFile;
use mutate::{mutate, Rng};

const SEED: &str = "# kompat:allow(removed-api-version, deprecated-api-version) staging only
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: web
  annotations:
    ignore-check.kompat.io/removed-api-version: \"until the 1.21 cluster is retired\"
    ignore-check.kompat.io/unserved-api-version: \"\"
---
apiVersion: v1
kind: List
items:
- apiVersion: policy/v1beta1
  kind: PodSecurityPolicy
  metadata: {name: restricted, annotations: {ignore-check.kompat.io/removed-api-version: why}}
- apiVersion: v1  # kompat:allow(unknown-code) a trailing comment
  kind: Service
  metadata: {name: web}
";

#[test]
fn scan_and_apply_never_panic() {
    let mut rng = Rng(0x6b6f_6d70_6174_0201);
    let mut found = 0;
    let rules = kompat_cli::rules::all();
    for _ in 0..mutate::iterations(2000) {
        let text = mutate(SEED, &mut rng);
        let source = SourceFile::new(PathBuf::from("m.yaml"), text.clone());
        let allows = scan(&source);
        found += allows.len();
        for allow in &allows {
            for location in [&allow.location, &allow.code_location] {
                let range = location.range().unwrap_or_else(|| panic!("unlocated allowance in\n{text}"));
                assert!(range.start <= range.end && range.end <= text.len(), "{text}");
            }
            assert!(allow.scope.start <= allow.scope.end && allow.scope.end <= text.len(), "{text}");
        }
        // A finding at every allowance, of its code: applying never panics.
        let diags = allows.iter().map(|a| UNUSED_ALLOWANCE.diag(a.code.clone(), a.code_location.clone())).collect();
        let _ = apply(diags, &allows, &rules);
    }
    assert!(found > 0, "the mutations never kept an allowance");
}
