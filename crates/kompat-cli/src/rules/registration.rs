//! Registration and content rules: every problem `kompat_engine::validate`
//! finds (Kubernetes' `AddVersioned` / `AddDependencies` and its linter's
//! no-Alpha-on-by-default rule), at the span of the offending value.

use kompat_diag::{declare_rules, Label};
use kompat_engine::{Field, ProblemKind};

use super::Pass;
use crate::Context;
use kompat_diag::Diagnostic;

declare_rules! {
    for ProblemKind {
        /// ### What it does
        ///
        /// Checks that every spec names the version it starts at.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ stage = "Alpha", default = false }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Alpha", default = false }]
        /// ```
        SpecMissingVersion: Error, "a spec names no version",

        /// ### What it does
        ///
        /// Checks that spec versions are `MAJOR.MINOR`.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.31.2", stage = "Alpha", default = false }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Alpha", default = false }]
        /// ```
        SpecPatchVersion: Error, "a spec version is not MAJOR.MINOR",

        /// ### What it does
        ///
        /// Checks that a spec with `minCompatibilityVersion` follows an entry at the same version without one.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [
        ///   { version = "1.37", stage = "Beta", default = false },
        ///   { version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" },
        /// ]
        /// ```
        MinCompatWithoutBaseEntry: Error, "a spec with minCompatibilityVersion has no entry at its version without one",

        /// ### What it does
        ///
        /// Checks that `minCompatibilityVersion` is `MAJOR.MINOR`.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// { version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37.1" }
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// { version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" }
        /// ```
        MinCompatPatchVersion: Error, "a minCompatibilityVersion is not MAJOR.MINOR",

        /// ### What it does
        ///
        /// Checks that `minCompatibilityVersion` is not above the spec's version.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// { version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.38" }
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// { version = "1.38", stage = "Beta", default = true, minCompatibilityVersion = "1.38" }
        /// ```
        MinCompatAboveVersion: Error, "a minCompatibilityVersion is above the spec's version",

        /// ### What it does
        ///
        /// Checks that a gate introduced as Deprecated first states its initial behaviour with a `1.0` entry.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Deprecated", default = false }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [
        ///   { version = "1.0", stage = "GA", default = true },
        ///   { version = "1.31", stage = "Deprecated", default = false },
        /// ]
        /// ```
        DeprecatedWithoutInitialState: Error, "a gate introduced as Deprecated has no 1.0 entry stating its initial behaviour",

        /// ### What it does
        ///
        /// Checks that spec versions never decrease.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Alpha", default = false }, { version = "1.30", stage = "Beta", default = true }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.30", stage = "Alpha", default = false }, { version = "1.31", stage = "Beta", default = true }]
        /// ```
        DecreasingVersion: Error, "spec versions decrease",

        /// ### What it does
        ///
        /// Checks that min-compatibility versions never decrease.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// { version = "1.37", minCompatibilityVersion = "1.37", ... }, { version = "1.37", minCompatibilityVersion = "1.36", ... }
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// { version = "1.37", minCompatibilityVersion = "1.36", ... }, { version = "1.37", minCompatibilityVersion = "1.37", ... }
        /// ```
        DecreasingMinCompat: Error, "min-compatibility versions decrease at one version",

        /// ### What it does
        ///
        /// Checks that no two specs share both version and min-compatibility version.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Beta", default = false }, { version = "1.32", stage = "Beta", default = true }]
        /// ```
        DuplicateSpec: Error, "two specs share version and min-compatibility version",

        /// ### What it does
        ///
        /// Checks that specs at the same version keep the same stage.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// { version = "1.31", stage = "Beta", ... }, { version = "1.31", stage = "GA", minCompatibilityVersion = "1.31", ... }
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// { version = "1.31", stage = "Beta", ... }, { version = "1.32", stage = "GA", ... }
        /// ```
        StageChangeSameVersion: Error, "specs at the same version differ in stage",

        /// ### What it does
        ///
        /// Checks that specs at the same version keep the same `lockToDefault`.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// { version = "1.31", stage = "GA", default = true }, { version = "1.31", stage = "GA", default = true, lockToDefault = true, minCompatibilityVersion = "1.31" }
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// { version = "1.31", stage = "GA", default = true }, { version = "1.32", stage = "GA", default = true, lockToDefault = true }
        /// ```
        LockChangeSameVersion: Error, "specs at the same version differ in lockToDefault",

        /// ### What it does
        ///
        /// Checks that every spec changes the stage, the default or the lock.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = false }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]
        /// ```
        TransitionWithoutChange: Error, "a spec changes neither stage, default nor lock",

        /// ### What it does
        ///
        /// Checks that a gate locked to its default stays locked.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.30", stage = "GA", default = true, lockToDefault = true }, { version = "1.31", stage = "Deprecated", default = true }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.30", stage = "GA", default = true, lockToDefault = true }, { version = "1.31", stage = "Deprecated", default = true, lockToDefault = true }]
        /// ```
        UnlockAfterLock: Error, "a gate locked to its default is unlocked again",

        /// ### What it does
        ///
        /// Checks that Deprecated is a terminal stage.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.0", stage = "GA", default = true }, { version = "1.30", stage = "Deprecated", default = false }, { version = "1.31", stage = "GA", default = true }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.0", stage = "GA", default = true }, { version = "1.30", stage = "Deprecated", default = false }]
        /// ```
        ResurrectFromDeprecated: Error, "a Deprecated gate moves to another stage",

        /// ### What it does
        ///
        /// Checks that a gate never moves back from GA to Beta or Alpha, or from Beta to Alpha.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Alpha", default = false }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.30", stage = "Beta", default = false }, { version = "1.31", stage = "Beta", default = true }]
        /// ```
        StabilityRegression: Error, "a gate moves back to a less stable stage",

        /// ### What it does
        ///
        /// Checks that a gate declared in several places has the same specs everywhere.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// # a.toml: { version = "1.31", stage = "Alpha", ... }   b.toml: { version = "1.31", stage = "Beta", ... }
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// # declare the gate once, or identically
        /// ```
        ConflictingRedeclaration: Error, "a gate is declared in several places with different specs",

        /// ### What it does
        ///
        /// Checks that no Alpha spec is enabled by default (Kubernetes' feature-gate linter rule).
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature-gate linter forbids it: Alpha features are unsupported under emulation, and an Alpha gate on by default changes behaviour nobody opted into.
        ///
        /// ### Example
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Alpha", default = true }]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// specs = [{ version = "1.31", stage = "Alpha", default = false }, { version = "1.32", stage = "Beta", default = true }]
        /// ```
        AlphaEnabledByDefault: Error, "an Alpha spec is enabled by default",

        /// ### What it does
        ///
        /// Checks that every dependency names a declared gate.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// dependencies = ["NoSuchGate"]
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// dependencies = ["DeclaredGate"]
        /// ```
        UnknownDependency: Error, "a dependency names an undeclared gate",

        /// ### What it does
        ///
        /// Checks that a gate never depends on a less stable gate at any of its versions.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// # Beta gate depending on an Alpha gate at 1.31
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// # promote the dependency first, or keep the dependent at Alpha
        /// ```
        DependencyLessStable: Error, "a gate depends on a less stable gate",

        /// ### What it does
        ///
        /// Checks that a gate enabled by default never depends on a gate disabled by default.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// # Dep: Beta, default = true; Base: Beta, default = false
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// # enable Base by default first
        /// ```
        DependencyDefaultDisabled: Error, "a gate enabled by default depends on a gate disabled by default",

        /// ### What it does
        ///
        /// Checks that a locked gate never depends on an unlocked gate.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// # Dep: GA, lockToDefault = true; Base: GA, unlocked
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// # lock Base first
        /// ```
        DependencyUnlocked: Error, "a locked gate depends on an unlocked gate",

        /// ### What it does
        ///
        /// Checks that dependencies form no cycle.
        ///
        /// ### Why is this bad?
        ///
        /// Kubernetes' feature gate rejects this declaration when it is registered: a component built with it fails at start-up, and until it is fixed every answer about emulated versions is unreliable.
        ///
        /// ### Example
        ///
        /// ```toml
        /// # A depends on B, B depends on A
        /// ```
        ///
        /// ### Use instead
        ///
        /// ```toml
        /// # break the cycle
        /// ```
        DependencyCycle: Error, "dependencies form a cycle",
    }
}

pub static PASS: Pass = Pass {
    rules: RULES,
    check: Some(check),
};

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
                .map(|location| Label { location, message: "also declared here".to_owned() })
                .take(1)
                .collect(),
            _ => Vec::new(),
        };
        let mut diag = rule_of(problem.kind)
            .diag(problem.message.clone(), cx.decls.locate(problem.decl, problem.spec, problem.field))
            .with_labels(labels);
        diag.subject = subject.map(Into::into);
        out.push(diag);
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn alpha_enabled_by_default() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Eager"
specs = [
  { version = "1.36", stage = "Alpha", default = true },
#                                                ^^^^ error[alpha-enabled-by-default]: alpha feature Eager cannot be enabled by default
]
"##,
        );
    }

    #[test]
    fn conflicting_redeclaration() {
        check(
            r##"
//- controller.toml
[[feature]]
name = "SharedGate"
specs = [
  { version = "1.31", stage = "Beta", default = false },
]
//- scheduler.toml
[[feature]]
name = "SharedGate"
#      ^^^^^^^^^^^^ error[conflicting-redeclaration]: feature gate "SharedGate" with different spec already exists: [{false false BETA 1.31 <nil>}]
specs = [
  { version = "1.31", stage = "Alpha", default = false },
]
"##,
        );
    }

    #[test]
    fn decreasing_min_compat() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Readers"
specs = [
  { version = "1.35", stage = "Beta", default = false },
  { version = "1.35", stage = "Beta", default = true, minCompatibilityVersion = "1.35" },
  { version = "1.35", stage = "Beta", default = false, minCompatibilityVersion = "1.34" },
#                                                                                ^^^^^^ error[decreasing-min-compat]: feature "Readers" lists min compatibility version transitions in decreasing order (1.34 < 1.35)
]
"##,
        );
    }

    #[test]
    fn decreasing_version() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Backwards"
specs = [
  { version = "1.36", stage = "Beta", default = false },
  { version = "1.35", stage = "GA", default = true },
#             ^^^^^^ error[decreasing-version]: feature "Backwards" lists version transitions in decreasing order (1.35 < 1.36)
]
"##,
        );
    }

    #[test]
    fn dependency_cycle() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Chicken"
#      ^^^^^^^^^ error[dependency-cycle]: cycle detected with feature Chicken
dependencies = ["Egg"]
specs = [
  { version = "1.31", stage = "Alpha", default = false },
]

[[feature]]
name = "Egg"
dependencies = ["Chicken"]
specs = [
  { version = "1.31", stage = "Alpha", default = false },
]
"##,
        );
    }

    #[test]
    fn dependency_default_disabled() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Base"
specs = [
  { version = "1.31", stage = "Beta", default = false },
]

[[feature]]
name = "Dependent"
dependencies = ["Base"]
#               ^^^^^^ error[dependency-default-disabled]: default-enabled feature Dependent cannot depend on default-disabled feature Base at version 1.31
specs = [
  { version = "1.31", stage = "Beta", default = true },
]
"##,
        );
    }

    #[test]
    fn dependency_less_stable() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Base"
specs = [
  { version = "1.31", stage = "Alpha", default = false },
]

[[feature]]
name = "Dependent"
dependencies = ["Base"]
#               ^^^^^^ error[dependency-less-stable]: BETA feature Dependent cannot depend on ALPHA feature Base at version 1.31
specs = [
  { version = "1.31", stage = "Beta", default = false },
]
"##,
        );
    }

    #[test]
    fn dependency_unlocked() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Base"
specs = [
  { version = "1.31", stage = "GA", default = true },
]

[[feature]]
name = "Dependent"
dependencies = ["Base"]
#               ^^^^^^ error[dependency-unlocked]: locked-to-default feature Dependent cannot depend on unlocked feature Base at version 1.31
specs = [
  { version = "1.31", stage = "GA", default = true, lockToDefault = true },
]
"##,
        );
    }

    #[test]
    fn deprecated_without_initial_state() {
        check(
            r##"
//- features.toml
[[feature]]
name = "BornDeprecated"
specs = [
  { version = "1.31", stage = "Deprecated", default = false },
#                             ^^^^^^^^^^^^ error[deprecated-without-initial-state]: feature "BornDeprecated" introduced as deprecated must provide a 1.0 entry indicating initial state
]
"##,
        );
    }

    #[test]
    fn duplicate_spec() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Twice"
specs = [
  { version = "1.31", stage = "Beta", default = false },
  { version = "1.31", stage = "Beta", default = true },
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[duplicate-spec]: feature "Twice" lists duplicate entries with the same versions (1.31 = 1.31)
]
"##,
        );
    }

    #[test]
    fn lock_change_same_version() {
        check(
            r##"
//- features.toml
[[feature]]
name = "LockedLater"
specs = [
  { version = "1.31", stage = "GA", default = true },
  { version = "1.31", stage = "GA", default = true, lockToDefault = true, minCompatibilityVersion = "1.31" },
#                                                                   ^^^^ error[lock-change-same-version]: feature "LockedLater" lists locked to default changes with the same version (false -> true)
]
"##,
        );
    }

    #[test]
    fn min_compat_above_version() {
        check(
            r##"
//- features.toml
[[feature]]
name = "FutureReaders"
specs = [
  { version = "1.36", stage = "Beta", default = false },
  { version = "1.36", stage = "Beta", default = true, minCompatibilityVersion = "1.37" },
#                                                                               ^^^^^^ error[min-compat-above-version]: feature "FutureReaders" MinCompatibilityVersion 1.37 greater than Version 1.36
]
"##,
        );
    }

    #[test]
    fn min_compat_patch_version() {
        check(
            r##"
//- features.toml
[[feature]]
name = "PatchMinCompat"
specs = [
  { version = "1.36", stage = "Beta", default = false },
  { version = "1.36", stage = "Beta", default = true, minCompatibilityVersion = "1.36.1" },
#                                                                               ^^^^^^^^ error[min-compat-patch-version]: feature "PatchMinCompat" specified patch MinCompatibilityVersion: 1.36.1
]
"##,
        );
    }

    #[test]
    fn min_compat_without_base_entry() {
        check(
            r##"
//- features.toml
[[feature]]
name = "NoBase"
specs = [
  { version = "1.37", stage = "Beta", default = true, minCompatibilityVersion = "1.37" },
#                                                                               ^^^^^^ error[min-compat-without-base-entry]: feature "NoBase" specified MinCompatibilityVersion: 1.37 without a preceding entry at the same Version without MinCompatibilityVersion set
]
"##,
        );
    }

    #[test]
    fn resurrect_from_deprecated() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Lazarus"
specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.30", stage = "Deprecated", default = false },
  { version = "1.31", stage = "GA", default = true },
#                             ^^^^ error[resurrect-from-deprecated]: deprecated feature "Lazarus" must not resurrect from its terminal state
]
"##,
        );
    }

    #[test]
    fn spec_missing_version() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Unversioned"
specs = [
  { stage = "Alpha", default = false },
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[spec-missing-version]: feature "Unversioned" did not provide a version
]
"##,
        );
    }

    #[test]
    fn spec_patch_version() {
        check(
            r##"
//- features.toml
[[feature]]
name = "PatchLevel"
specs = [
  { version = "1.31.2", stage = "Alpha", default = false },
#             ^^^^^^^^ error[spec-patch-version]: feature "PatchLevel" specified patch version: 1.31.2
]
"##,
        );
    }

    #[test]
    fn stability_regression() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Demoted"
specs = [
  { version = "1.30", stage = "Beta", default = false },
  { version = "1.31", stage = "Alpha", default = false },
#                             ^^^^^^^ error[stability-regression]: feature "Demoted" regresses stability from more stable level to ALPHA in 1.31
]
"##,
        );
    }

    #[test]
    fn stage_change_same_version() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Promoted"
specs = [
  { version = "1.31", stage = "Beta", default = true },
  { version = "1.31", stage = "GA", default = true, minCompatibilityVersion = "1.31" },
#                             ^^^^ error[stage-change-same-version]: feature "Promoted" lists stability changes with the same version (BETA -> )
]
"##,
        );
    }

    #[test]
    fn transition_without_change() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Idle"
specs = [
  { version = "1.30", stage = "Beta", default = false },
  { version = "1.31", stage = "Beta", default = false },
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[transition-without-change]: feature "Idle" lists transition without stability change (1.30 -> 1.31)
]
"##,
        );
    }

    #[test]
    fn unknown_dependency() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Dependent"
dependencies = ["NoSuchGate"]
#               ^^^^^^^^^^^^ error[unknown-dependency]: cannot add dependency from Dependent to unknown feature NoSuchGate
specs = [
  { version = "1.31", stage = "Alpha", default = false },
]
"##,
        );
    }

    #[test]
    fn unlock_after_lock() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Unlocked"
specs = [
  { version = "1.30", stage = "GA", default = true, lockToDefault = true },
  { version = "1.31", stage = "Deprecated", default = true },
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[unlock-after-lock]: feature "Unlocked" must not unlock after locking to default
]
"##,
        );
    }
}
