//! `feature-without-specs`: a declared feature with no versioned specs.

use kompat_core::Field;

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "feature-without-specs";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "a feature has no versioned specs".to_owned(),
        doc: doc(
            "Checks that every declared feature has at least one versioned spec.",
            "A feature without specs does not exist at any version: it can never be enabled, its lifecycle is unknown, and Kubernetes' linter refuses to reason about its removal (`feature X has no version specs`).",
            "[[feature]]\nname = \"WidgetCache\"\nspecs = []",
            "[[feature]]\nname = \"WidgetCache\"\nspecs = [{ version = \"1.37\", stage = \"Alpha\", default = false }]",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (idx, feature) in cx.decls.features().iter().enumerate() {
        if feature.specs.is_empty() {
            out.push(Diagnostic {
                code: CODE,
                severity: Severity::Error,
                message: format!("feature {} has no version specs", feature.name),
                location: cx.decls.locate(idx, None, Field::Feature),
                subject: Some(feature.name.clone()),
                notes: Vec::new(),
                labels: Vec::new(),
            });
        }
    }
}
