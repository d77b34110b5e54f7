//! `orphaned-gate`: a declared gate that no scanned Rust or Go code references.

use kompat_core::Field;

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "orphaned-gate";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Warning,
        summary: "a declared gate is never referenced in code".to_owned(),
        doc: doc(
            "When Rust or Go sources are linted, reports every declared gate that no code references: in Rust neither as `Feature::Gate` nor as `enabled(\"Gate\")`, in Go not as `features.Gate` (the package that declares it, under its import name; `_test.go` files do not count).",
            "An orphaned gate still changes what `--emulation-version` and `--feature-gates` accept, but flipping it changes nothing: emulation silently diverges from the release it claims to reproduce (kubernetes#130761). Either the code lost its gate check, or the gate should go through the removal rules.",
            "#[kompat(spec(version = \"1.35\", stage = \"Beta\", default = true))]\nWidgetCache,   // no `Feature::WidgetCache` anywhere",
            "if gate.enabled(Feature::WidgetCache) { /* ... */ }\n// or, when the gate is read elsewhere:\n#[kompat(allow(code = \"orphaned-gate\", reason = \"read by the scheduler plugin\"))]",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(rust) = cx.rust else { return };
    if rust.files == 0 {
        return;
    }
    for (idx, feature) in cx.decls.features.iter().enumerate() {
        if rust.refs.iter().any(|r| r.gate == feature.name) {
            continue;
        }
        out.push(Diagnostic {
            code: CODE,
            severity: Severity::Warning,
            message: format!("feature gate {} is declared but never referenced in code", feature.name),
            location: cx.decls.locate(idx, None, Field::Feature),
            subject: Some(feature.name.clone()),
            notes: Vec::new(),
            labels: Vec::new(),
        });
    }
}
