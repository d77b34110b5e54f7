//! Every registration and content rule, with Kubernetes' message texts.

use kompat_engine::validate;

/// Validates `input` (see `common` for the notation) and compares the
/// problems, one per line as `code: message`, with `expected`.
#[track_caller]
fn check(input: &str, expected: &str) {
    let validated = validate(&crate::common::decls(input));
    let got: Vec<String> = validated.problems.iter().map(|p| format!("{}: {}", p.kind.code(), p.message)).collect();
    let expected: Vec<&str> = expected.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    assert_eq!(got, expected);
}

#[test]
fn valid_declarations_have_no_problems() {
    check(
        "
        WatchList: 1.27 Alpha f; 1.32 Beta t; 1.33 Beta f; 1.34 Beta t
        KMSv1: 1.0 GA t; 1.28 Deprecated t; 1.29 Deprecated f
        DRAFractionalCapacityRange: 1.37 Beta f; 1.37 Beta t mcv=1.37
        StatefulSetSemanticRevisionComparison: 1.0 Beta t
        LockedLater: 1.30 GA t; 1.31 GA t locked
        Empty:
        ",
        "",
    );
}

#[test]
fn missing_and_patch_versions() {
    check("A: - Alpha f", "spec-missing-version: feature \"A\" did not provide a version");
    check("A: 1.31.2 Alpha f", "spec-patch-version: feature \"A\" specified patch version: 1.31.2");
}

#[test]
fn min_compatibility_rules() {
    check(
        "A: 1.31 Beta t mcv=1.31",
        "min-compat-without-base-entry: feature \"A\" specified MinCompatibilityVersion: 1.31 without a preceding entry at the same Version without MinCompatibilityVersion set",
    );
    check(
        "A: 1.30 Beta f; 1.31 Beta t mcv=1.31",
        "min-compat-without-base-entry: feature \"A\" specified MinCompatibilityVersion: 1.31 without a preceding entry at the same Version without MinCompatibilityVersion set",
    );
    check(
        "A: 1.31 Beta f; 1.31 Beta t mcv=1.31.1",
        "min-compat-patch-version: feature \"A\" specified patch MinCompatibilityVersion: 1.31.1",
    );
    check(
        "A: 1.31 Beta f; 1.31 Beta t mcv=1.32",
        "min-compat-above-version: feature \"A\" MinCompatibilityVersion 1.32 greater than Version 1.31",
    );
    check(
        "A: 1.31 Beta f; 1.31 Beta t mcv=1.31; 1.31 Beta f mcv=1.30",
        "decreasing-min-compat: feature \"A\" lists min compatibility version transitions in decreasing order (1.30 < 1.31)",
    );
}

#[test]
fn deprecated_first_needs_initial_state() {
    check(
        "A: 1.31 Deprecated f",
        "deprecated-without-initial-state: feature \"A\" introduced as deprecated must provide a 1.0 entry indicating initial state",
    );
    // Only the minor is checked, as in Kubernetes.
    check("A: 2.0 Deprecated f", "");
    check("A: 1.0 Deprecated f", "");
}

#[test]
fn ordering_and_duplicates() {
    check(
        "A: 1.31 Alpha f; 1.30 Beta f",
        "decreasing-version: feature \"A\" lists version transitions in decreasing order (1.30 < 1.31)",
    );
    check(
        "A: 1.31 Beta f; 1.31 Beta t",
        "duplicate-spec: feature \"A\" lists duplicate entries with the same versions (1.31 = 1.31)",
    );
    check(
        "A: 1.31 Beta f; 1.31 GA t mcv=1.31",
        "stage-change-same-version: feature \"A\" lists stability changes with the same version (BETA -> )",
    );
    check(
        "A: 1.31 GA t; 1.31 GA t locked mcv=1.31",
        "lock-change-same-version: feature \"A\" lists locked to default changes with the same version (false -> true)",
    );
    check(
        "A: 1.30 Beta f; 1.31 Beta f",
        "transition-without-change: feature \"A\" lists transition without stability change (1.30 -> 1.31)",
    );
}

#[test]
fn lock_and_stability_monotonicity() {
    check(
        "A: 1.30 GA t locked; 1.31 Deprecated t",
        "unlock-after-lock: feature \"A\" must not unlock after locking to default",
    );
    check(
        "A: 1.0 GA t; 1.30 Deprecated f; 1.31 GA t",
        "resurrect-from-deprecated: deprecated feature \"A\" must not resurrect from its terminal state",
    );
    check(
        "A: 1.30 Beta f; 1.31 Alpha f",
        "stability-regression: feature \"A\" regresses stability from more stable level to ALPHA in 1.31",
    );
    check(
        "A: 1.30 GA t; 1.31 Beta t",
        "stability-regression: feature \"A\" regresses stability from more stable level to BETA in 1.31",
    );
    check(
        "A: 1.29 GA t; 1.30 Beta t; 1.31 GA t",
        "stability-regression: feature \"A\" regresses stability from more stable level to BETA in 1.30",
    );
}

#[test]
fn collects_every_problem_in_declaration_order() {
    check(
        "
        A: 1.31 Alpha t; 1.30 Alpha f
        B: 1.2.3 Beta f
        ",
        "
        decreasing-version: feature \"A\" lists version transitions in decreasing order (1.30 < 1.31)
        alpha-enabled-by-default: alpha feature A cannot be enabled by default
        spec-patch-version: feature \"B\" specified patch version: 1.2.3
        ",
    );
}

#[test]
fn redeclaration() {
    check("A: 1.31 Alpha f\nA: 1.31 Alpha f", "");
    check(
        "A: 1.31 Alpha f\nA: 1.31 Beta f",
        "conflicting-redeclaration: feature gate \"A\" with different spec already exists: [{false false ALPHA 1.31 <nil>}]",
    );
    check("AllAlpha: 0.0 Alpha f", "");
    check(
        "AllBeta: 1.0 Beta t",
        "conflicting-redeclaration: feature gate \"AllBeta\" with different spec already exists: [{false false BETA 0.0 <nil>}]",
    );
}

#[test]
fn alpha_enabled_by_default() {
    check("A: 1.31 Alpha t", "alpha-enabled-by-default: alpha feature A cannot be enabled by default");
}

#[test]
fn dependencies() {
    check(
        "
        Base: 1.30 Alpha f; 1.32 Beta t; 1.34 GA t locked
        Dep: 1.31 Alpha f; 1.33 Beta t | deps=Base
        ",
        "",
    );
    check(
        "Dep: 1.31 Alpha f | deps=Nope",
        "unknown-dependency: cannot add dependency from Dep to unknown feature Nope",
    );
    check(
        "
        Base: 1.30 Alpha f
        Dep: 1.31 Alpha f | deps=base
        ",
        "unknown-dependency: cannot add dependency from Dep to unknown feature base (did you mean `Base`?)",
    );
    check(
        "
        Base: 1.30 Alpha f
        Dep: 1.31 Beta f | deps=Base
        ",
        "dependency-less-stable: BETA feature Dep cannot depend on ALPHA feature Base at version 1.31",
    );
    check(
        "
        Base: 1.30 Beta f
        Dep: 1.31 Beta t | deps=Base
        ",
        "dependency-default-disabled: default-enabled feature Dep cannot depend on default-disabled feature Base at version 1.31",
    );
    check(
        "
        Base: 1.30 GA t
        Dep: 1.31 GA t locked | deps=Base
        ",
        "dependency-unlocked: locked-to-default feature Dep cannot depend on unlocked feature Base at version 1.31",
    );
    check(
        "
        Base: 1.30 Deprecated f
        Dep: 1.31 GA t | deps=Base
        ",
        "
        deprecated-without-initial-state: feature \"Base\" introduced as deprecated must provide a 1.0 entry indicating initial state
        unknown-dependency: cannot add dependency from Dep to unknown feature Base
        ",
    );
    // The GA prerelease prints as an empty string, so the message starts with a space.
    check(
        "
        Base: 1.0 GA t; 1.30 Deprecated t
        Dep: 1.31 GA t | deps=Base
        ",
        "dependency-less-stable:  feature Dep cannot depend on DEPRECATED feature Base at version 1.31",
    );
    check(
        "
        A: 1.30 Alpha f | deps=B
        B: 1.30 Alpha f | deps=A
        ",
        "dependency-cycle: cycle detected with feature A",
    );
}

#[test]
fn codes_are_unique_kebab_case() {
    let mut codes: Vec<&str> = kompat_engine::ProblemKind::ALL.iter().map(|k| k.code()).collect();
    for code in &codes {
        assert!(code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'), "{code} is not kebab-case");
    }
    codes.sort_unstable();
    let n = codes.len();
    codes.dedup();
    assert_eq!(codes.len(), n, "duplicate problem codes");
}
