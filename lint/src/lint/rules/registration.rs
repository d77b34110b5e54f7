//! Registration and content rules: every problem `kompat_core::validate`
//! finds (Kubernetes' `AddVersioned` / `AddDependencies` and its linter's
//! no-Alpha-on-by-default rule), at the span of the offending value.

use kompat_core::ProblemKind;

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

const REGISTRATION_WHY: &str = "Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.";

/// (kind, what it does, example, use instead)
const DOCS: &[(ProblemKind, &str, &str, &str)] = &[
    (
        ProblemKind::MissingVersion,
        "Checks that every spec names the version it starts at.",
        r#"specs = [{ stage = "Alpha", default = false }]"#,
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }]"#,
    ),
    (
        ProblemKind::PatchVersion,
        "Checks that spec versions are `MAJOR.MINOR`.",
        r#"specs = [{ version = "1.31.2", stage = "Alpha", default = false }]"#,
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }]"#,
    ),
    (
        ProblemKind::MinCompatWithoutBaseEntry,
        "Checks that a spec with `minCompatibilityVersion` follows an entry at the same version without one.",
        r#"specs = [{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" }]"#,
        r#"specs = [
  { version = "1.37", stage = "Beta", default = false },
  { version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" },
]"#,
    ),
    (
        ProblemKind::PatchMinCompat,
        "Checks that `minCompatibilityVersion` is `MAJOR.MINOR`.",
        r#"{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37.1" }"#,
        r#"{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" }"#,
    ),
    (
        ProblemKind::MinCompatAboveVersion,
        "Checks that `minCompatibilityVersion` is not above the spec's version.",
        r#"{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.38" }"#,
        r#"{ version = "1.38", stage = "Beta", default = true, minCompatibilityVersion = "1.38" }"#,
    ),
    (
        ProblemKind::DeprecatedWithoutInitialState,
        "Checks that a gate introduced as Deprecated first states its initial behaviour with a `1.0` entry.",
        r#"specs = [{ version = "1.31", stage = "Deprecated", default = false }]"#,
        r#"specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.31", stage = "Deprecated", default = false },
]"#,
    ),
    (
        ProblemKind::DecreasingVersion,
        "Checks that spec versions never decrease.",
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }, { version = "1.30", stage = "Beta", default = true }]"#,
        r#"specs = [{ version = "1.30", stage = "Alpha", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::DecreasingMinCompat,
        "Checks that min-compatibility versions never decrease.",
        r#"{ version = "1.37", minCompatibilityVersion = "1.37", ... }, { version = "1.37", minCompatibilityVersion = "1.36", ... }"#,
        r#"{ version = "1.37", minCompatibilityVersion = "1.36", ... }, { version = "1.37", minCompatibilityVersion = "1.37", ... }"#,
    ),
    (
        ProblemKind::DuplicateEntry,
        "Checks that no two specs share both version and min-compatibility version.",
        r#"specs = [{ version = "1.31", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
        r#"specs = [{ version = "1.31", stage = "Beta", default = false }, { version = "1.32", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::StabilityChangeSameVersion,
        "Checks that specs at the same version keep the same stage.",
        r#"{ version = "1.31", stage = "Beta", ... }, { version = "1.31", stage = "GA", minCompatibilityVersion = "1.31", ... }"#,
        r#"{ version = "1.31", stage = "Beta", ... }, { version = "1.32", stage = "GA", ... }"#,
    ),
    (
        ProblemKind::LockChangeSameVersion,
        "Checks that specs at the same version keep the same `lockToDefault`.",
        r#"{ version = "1.31", stage = "GA", default = true }, { version = "1.31", stage = "GA", default = true, lockToDefault = true, minCompatibilityVersion = "1.31" }"#,
        r#"{ version = "1.31", stage = "GA", default = true }, { version = "1.32", stage = "GA", default = true, lockToDefault = true }"#,
    ),
    (
        ProblemKind::TransitionWithoutChange,
        "Checks that every spec changes the stage, the default or the lock.",
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = false }]"#,
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::UnlockAfterLock,
        "Checks that a gate locked to its default stays locked.",
        r#"specs = [{ version = "1.30", stage = "GA", default = true, lockToDefault = true }, { version = "1.31", stage = "Deprecated", default = true }]"#,
        r#"specs = [{ version = "1.30", stage = "GA", default = true, lockToDefault = true }, { version = "1.31", stage = "Deprecated", default = true, lockToDefault = true }]"#,
    ),
    (
        ProblemKind::ResurrectFromDeprecated,
        "Checks that Deprecated is a terminal stage.",
        r#"specs = [{ version = "1.0", stage = "GA", default = true }, { version = "1.30", stage = "Deprecated", default = false }, { version = "1.31", stage = "GA", default = true }]"#,
        r#"specs = [{ version = "1.0", stage = "GA", default = true }, { version = "1.30", stage = "Deprecated", default = false }]"#,
    ),
    (
        ProblemKind::StabilityRegression,
        "Checks that a gate never moves back from GA to Beta or Alpha, or from Beta to Alpha.",
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Alpha", default = false }]"#,
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::ConflictingRedeclaration,
        "Checks that a gate declared in several places has the same specs everywhere.",
        r#"# a.toml: { version = "1.31", stage = "Alpha", ... }   b.toml: { version = "1.31", stage = "Beta", ... }"#,
        r#"# declare the gate once, or identically"#,
    ),
    (
        ProblemKind::AlphaEnabledByDefault,
        "Checks that no Alpha spec is enabled by default (Kubernetes' feature-gate linter rule).",
        r#"specs = [{ version = "1.31", stage = "Alpha", default = true }]"#,
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }, { version = "1.32", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::UnknownDependency,
        "Checks that every dependency names a declared gate.",
        r#"dependencies = ["NoSuchGate"]"#,
        r#"dependencies = ["DeclaredGate"]"#,
    ),
    (
        ProblemKind::DependencyStability,
        "Checks that a gate never depends on a less stable gate at any of its versions.",
        r#"# Beta gate depending on an Alpha gate at 1.31"#,
        r#"# promote the dependency first, or keep the dependent at Alpha"#,
    ),
    (
        ProblemKind::DependencyDefault,
        "Checks that a gate enabled by default never depends on a gate disabled by default.",
        r#"# Dep: Beta, default = true; Base: Beta, default = false"#,
        r#"# enable Base by default first"#,
    ),
    (
        ProblemKind::DependencyLock,
        "Checks that a locked gate never depends on an unlocked gate.",
        r#"# Dep: GA, lockToDefault = true; Base: GA, unlocked"#,
        r#"# lock Base first"#,
    ),
    (
        ProblemKind::DependencyCycle,
        "Checks that dependencies form no cycle.",
        r#"# A depends on B, B depends on A"#,
        r#"# break the cycle"#,
    ),
];

pub fn rules() -> Vec<Rule> {
    DOCS.iter()
        .map(|(kind, what, example, fix)| {
            let why = if kind.is_registration() {
                REGISTRATION_WHY
            } else {
                "Kubernetes' feature-gate linter forbids it: Alpha features are unsupported under emulation, and an Alpha gate on by default changes behaviour nobody opted into."
            };
            Rule {
                code: kind.code(),
                severity: Severity::Error,
                summary: what.trim_end_matches('.').to_owned(),
                doc: doc(what, why, example, fix),
            }
        })
        .collect()
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for problem in &cx.validated.problems {
        let subject = cx.decls.features.get(problem.decl).map(|d| d.name.clone());
        out.push(Diagnostic {
            code: problem.kind.code(),
            severity: Severity::Error,
            message: problem.message.clone(),
            location: cx.decls.locate(problem.decl, problem.spec, problem.field),
            subject,
            notes: Vec::new(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_problem_kind_is_documented() {
        for kind in ProblemKind::ALL {
            assert!(DOCS.iter().any(|(k, ..)| *k == kind), "{} has no doc", kind.code());
        }
        assert_eq!(DOCS.len(), ProblemKind::ALL.len());
    }
}
