//! Registration and content rules: every problem `kompat_core::validate`
//! finds (Kubernetes' `AddVersioned` / `AddDependencies` and its linter's
//! no-Alpha-on-by-default rule), at the span of the offending value.

use kompat_core::{Field, ProblemKind};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, SecondaryLabel, Severity};

const REGISTRATION_WHY: &str = "Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.";

/// (kind, summary, what it does, example, use instead)
const DOCS: &[(ProblemKind, &str, &str, &str, &str)] = &[
    (
        ProblemKind::MissingVersion,
        "a spec names no version",
        "Checks that every spec names the version it starts at.",
        r#"specs = [{ stage = "Alpha", default = false }]"#,
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }]"#,
    ),
    (
        ProblemKind::PatchVersion,
        "a spec version is not MAJOR.MINOR",
        "Checks that spec versions are `MAJOR.MINOR`.",
        r#"specs = [{ version = "1.31.2", stage = "Alpha", default = false }]"#,
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }]"#,
    ),
    (
        ProblemKind::MinCompatWithoutBaseEntry,
        "a spec with minCompatibilityVersion has no entry at its version without one",
        "Checks that a spec with `minCompatibilityVersion` follows an entry at the same version without one.",
        r#"specs = [{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" }]"#,
        r#"specs = [
  { version = "1.37", stage = "Beta", default = false },
  { version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" },
]"#,
    ),
    (
        ProblemKind::PatchMinCompat,
        "a minCompatibilityVersion is not MAJOR.MINOR",
        "Checks that `minCompatibilityVersion` is `MAJOR.MINOR`.",
        r#"{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37.1" }"#,
        r#"{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" }"#,
    ),
    (
        ProblemKind::MinCompatAboveVersion,
        "a minCompatibilityVersion is above the spec's version",
        "Checks that `minCompatibilityVersion` is not above the spec's version.",
        r#"{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.38" }"#,
        r#"{ version = "1.38", stage = "Beta", default = true, minCompatibilityVersion = "1.38" }"#,
    ),
    (
        ProblemKind::DeprecatedWithoutInitialState,
        "a gate introduced as Deprecated has no 1.0 entry stating its initial behaviour",
        "Checks that a gate introduced as Deprecated first states its initial behaviour with a `1.0` entry.",
        r#"specs = [{ version = "1.31", stage = "Deprecated", default = false }]"#,
        r#"specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.31", stage = "Deprecated", default = false },
]"#,
    ),
    (
        ProblemKind::DecreasingVersion,
        "spec versions decrease",
        "Checks that spec versions never decrease.",
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }, { version = "1.30", stage = "Beta", default = true }]"#,
        r#"specs = [{ version = "1.30", stage = "Alpha", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::DecreasingMinCompat,
        "min-compatibility versions decrease at one version",
        "Checks that min-compatibility versions never decrease.",
        r#"{ version = "1.37", minCompatibilityVersion = "1.37", ... }, { version = "1.37", minCompatibilityVersion = "1.36", ... }"#,
        r#"{ version = "1.37", minCompatibilityVersion = "1.36", ... }, { version = "1.37", minCompatibilityVersion = "1.37", ... }"#,
    ),
    (
        ProblemKind::DuplicateEntry,
        "two specs share version and min-compatibility version",
        "Checks that no two specs share both version and min-compatibility version.",
        r#"specs = [{ version = "1.31", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
        r#"specs = [{ version = "1.31", stage = "Beta", default = false }, { version = "1.32", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::StabilityChangeSameVersion,
        "specs at the same version differ in stage",
        "Checks that specs at the same version keep the same stage.",
        r#"{ version = "1.31", stage = "Beta", ... }, { version = "1.31", stage = "GA", minCompatibilityVersion = "1.31", ... }"#,
        r#"{ version = "1.31", stage = "Beta", ... }, { version = "1.32", stage = "GA", ... }"#,
    ),
    (
        ProblemKind::LockChangeSameVersion,
        "specs at the same version differ in lockToDefault",
        "Checks that specs at the same version keep the same `lockToDefault`.",
        r#"{ version = "1.31", stage = "GA", default = true }, { version = "1.31", stage = "GA", default = true, lockToDefault = true, minCompatibilityVersion = "1.31" }"#,
        r#"{ version = "1.31", stage = "GA", default = true }, { version = "1.32", stage = "GA", default = true, lockToDefault = true }"#,
    ),
    (
        ProblemKind::TransitionWithoutChange,
        "a spec changes neither stage, default nor lock",
        "Checks that every spec changes the stage, the default or the lock.",
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = false }]"#,
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::UnlockAfterLock,
        "a gate locked to its default is unlocked again",
        "Checks that a gate locked to its default stays locked.",
        r#"specs = [{ version = "1.30", stage = "GA", default = true, lockToDefault = true }, { version = "1.31", stage = "Deprecated", default = true }]"#,
        r#"specs = [{ version = "1.30", stage = "GA", default = true, lockToDefault = true }, { version = "1.31", stage = "Deprecated", default = true, lockToDefault = true }]"#,
    ),
    (
        ProblemKind::ResurrectFromDeprecated,
        "a Deprecated gate moves to another stage",
        "Checks that Deprecated is a terminal stage.",
        r#"specs = [{ version = "1.0", stage = "GA", default = true }, { version = "1.30", stage = "Deprecated", default = false }, { version = "1.31", stage = "GA", default = true }]"#,
        r#"specs = [{ version = "1.0", stage = "GA", default = true }, { version = "1.30", stage = "Deprecated", default = false }]"#,
    ),
    (
        ProblemKind::StabilityRegression,
        "a gate moves back to a less stable stage",
        "Checks that a gate never moves back from GA to Beta or Alpha, or from Beta to Alpha.",
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Alpha", default = false }]"#,
        r#"specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::ConflictingRedeclaration,
        "a gate is declared in several places with different specs",
        "Checks that a gate declared in several places has the same specs everywhere.",
        r#"# a.toml: { version = "1.31", stage = "Alpha", ... }   b.toml: { version = "1.31", stage = "Beta", ... }"#,
        r#"# declare the gate once, or identically"#,
    ),
    (
        ProblemKind::AlphaEnabledByDefault,
        "an Alpha spec is enabled by default",
        "Checks that no Alpha spec is enabled by default (Kubernetes' feature-gate linter rule).",
        r#"specs = [{ version = "1.31", stage = "Alpha", default = true }]"#,
        r#"specs = [{ version = "1.31", stage = "Alpha", default = false }, { version = "1.32", stage = "Beta", default = true }]"#,
    ),
    (
        ProblemKind::UnknownDependency,
        "a dependency names an undeclared gate",
        "Checks that every dependency names a declared gate.",
        r#"dependencies = ["NoSuchGate"]"#,
        r#"dependencies = ["DeclaredGate"]"#,
    ),
    (
        ProblemKind::DependencyStability,
        "a gate depends on a less stable gate",
        "Checks that a gate never depends on a less stable gate at any of its versions.",
        r#"# Beta gate depending on an Alpha gate at 1.31"#,
        r#"# promote the dependency first, or keep the dependent at Alpha"#,
    ),
    (
        ProblemKind::DependencyDefault,
        "a gate enabled by default depends on a gate disabled by default",
        "Checks that a gate enabled by default never depends on a gate disabled by default.",
        r#"# Dep: Beta, default = true; Base: Beta, default = false"#,
        r#"# enable Base by default first"#,
    ),
    (
        ProblemKind::DependencyLock,
        "a locked gate depends on an unlocked gate",
        "Checks that a locked gate never depends on an unlocked gate.",
        r#"# Dep: GA, lockToDefault = true; Base: GA, unlocked"#,
        r#"# lock Base first"#,
    ),
    (
        ProblemKind::DependencyCycle,
        "dependencies form a cycle",
        "Checks that dependencies form no cycle.",
        r#"# A depends on B, B depends on A"#,
        r#"# break the cycle"#,
    ),
];

pub fn rules() -> Vec<Rule> {
    DOCS.iter()
        .map(|(kind, summary, what, example, fix)| {
            let why = if kind.is_registration() {
                REGISTRATION_WHY
            } else {
                "Kubernetes' feature-gate linter forbids it: Alpha features are unsupported under emulation, and an Alpha gate on by default changes behaviour nobody opted into."
            };
            Rule {
                code: kind.code(),
                severity: Severity::Error,
                summary: (*summary).to_owned(),
                doc: doc(what, why, example, fix),
            }
        })
        .collect()
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for problem in &cx.validated.problems {
        let subject = cx.decls.features().get(problem.decl).map(|d| d.name.clone());
        // A conflicting redeclaration also points at the other declaration.
        let labels = match (&problem.kind, &subject) {
            (ProblemKind::ConflictingRedeclaration, Some(name)) => cx
                .decls
                .features()
                .iter()
                .enumerate()
                .filter(|&(i, f)| i != problem.decl && f.name == *name)
                .filter_map(|(i, _)| cx.decls.locate(i, None, Field::Feature))
                .map(|location| SecondaryLabel { location, message: "also declared here".to_owned() })
                .take(1)
                .collect(),
            _ => Vec::new(),
        };
        out.push(Diagnostic {
            code: problem.kind.code(),
            severity: Severity::Error,
            message: problem.message.clone(),
            location: cx.decls.locate(problem.decl, problem.spec, problem.field),
            subject,
            notes: Vec::new(),
            labels,
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
