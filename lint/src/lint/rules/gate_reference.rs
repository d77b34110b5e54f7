//! `removed-gate-reference` and `unknown-gate-reference`: code that names a
//! gate the declarations do not have.

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const REMOVED: &str = "removed-gate-reference";
pub const UNKNOWN: &str = "unknown-gate-reference";

pub fn rules() -> Vec<Rule> {
    vec![
        Rule {
            code: REMOVED,
            severity: Severity::Error,
            summary: "code references a gate that was removed".to_owned(),
            doc: doc(
                "Reports references in code (Rust `enabled(\"Gate\")`, Go `features.Gate`) to a gate that the baseline declares and the current declarations no longer do, pointing at the baseline's declaration.",
                "The runtime gate panics on an unregistered name (Kubernetes: `feature \"X\" is not registered in FeatureGate`), and the code path it guards is now dead or always on without anyone deciding which.",
                "// baseline declares LegacyPolling; it was deleted\nif gate.enabled(\"LegacyPolling\") { poll() }",
                "// delete the branch together with the gate\nwatch()",
            ),
        },
        Rule {
            code: UNKNOWN,
            severity: Severity::Warning,
            summary: "code references a gate that is not declared".to_owned(),
            doc: doc(
                "Reports `enabled(\"Gate\")`-style references, and Go `featuregate.Feature` constants used as `features.Gate` but registered in no map, to a name no declaration or baseline knows.",
                "The name is misspelt, or belongs to a gate declared somewhere kompat was not shown; at run time the lookup fails.",
                "gate.enabled(\"WidgetCahce\")",
                "gate.enabled(\"WidgetCache\")",
            ),
        },
    ]
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(rust) = cx.rust else { return };
    for r in &rust.refs {
        if cx.decls.features.iter().any(|f| f.name == r.gate) {
            continue;
        }
        let (code, severity, message, labels) = match super::tombstone(cx, &r.gate) {
            Some(tomb) => (
                REMOVED,
                Severity::Error,
                format!("feature gate {} was removed but is still referenced", r.gate),
                vec![tomb],
            ),
            None => (UNKNOWN, Severity::Warning, format!("feature gate {} is not declared", r.gate), Vec::new()),
        };
        out.push(Diagnostic {
            code,
            severity,
            message,
            location: Some(r.location.clone()),
            subject: Some(r.gate.clone()),
            notes: Vec::new(),
            labels,
        });
    }
}
