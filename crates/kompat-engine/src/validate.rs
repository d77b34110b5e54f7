//! Registration validation of feature declarations.
//!
//! The rules and message texts are those of Kubernetes' newest
//! `featureGate.AddVersioned` and `AddDependencies`, plus the content rules of
//! its feature-gate linter (no Alpha spec enabled by default). Where Kubernetes
//! stops at the first error (and picks it in random map order), kompat collects
//! every problem of the declaration set, in declaration order.

use std::collections::HashMap;

use crate::feature::{FeatureDecl, SpecDecl};
use crate::kinds::kinds;
use kompat_runtime::feature::{spec_at, FeatureSpec, Stage};
use kompat_runtime::gate::{Feature, FeatureSet};
use kompat_runtime::gofmt::go_quote;

/// Which part of a declaration a problem is about, so callers holding source
/// spans can point at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// The feature as a whole (its name).
    Feature,
    /// A whole spec entry.
    Spec,
    Version,
    Stage,
    Default,
    LockToDefault,
    MinCompatibilityVersion,
    /// The `n`th declared dependency.
    Dependency(usize),
}

kinds! {
    /// The kind of a validation problem; its code is the variant in
    /// kebab-case.
    pub enum ProblemKind {
        SpecMissingVersion,
        SpecPatchVersion,
        MinCompatWithoutBaseEntry,
        MinCompatPatchVersion,
        MinCompatAboveVersion,
        DeprecatedWithoutInitialState,
        DecreasingVersion,
        DecreasingMinCompat,
        DuplicateSpec,
        StageChangeSameVersion,
        LockChangeSameVersion,
        TransitionWithoutChange,
        UnlockAfterLock,
        ResurrectFromDeprecated,
        StabilityRegression,
        ConflictingRedeclaration,
        AlphaEnabledByDefault,
        UnknownDependency,
        DependencyLessStable,
        DependencyDefaultDisabled,
        DependencyUnlocked,
        DependencyCycle,
    }
}

impl ProblemKind {
    /// True for the rules Kubernetes enforces at registration time (a binary
    /// with such a declaration panics at start-up). The others come from its
    /// linter.
    pub fn is_registration(self) -> bool {
        !matches!(self, ProblemKind::AlphaEnabledByDefault)
    }
}

/// One problem found in a declaration set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
    /// Index of the declaration (in the slice given to [`validate`]).
    pub decl: usize,
    /// Index of the spec within the declaration, when the problem is about one.
    pub spec: Option<usize>,
    pub field: Field,
    /// The Kubernetes message text.
    pub message: String,
}

/// The result of validation: the registered feature set (every feature whose
/// own specs are valid) and every problem found.
#[derive(Debug)]
pub struct Validated {
    pub set: FeatureSet,
    pub problems: Vec<Problem>,
}

impl Validated {
    pub fn has_registration_errors(&self) -> bool {
        self.problems.iter().any(|p| p.kind.is_registration())
    }
}

/// Validates a declaration set as `AddVersioned` then `AddDependencies` would,
/// collecting every problem. A name declared more than once is accepted when
/// the completed specs are identical, as Kubernetes does.
pub fn validate(decls: &[FeatureDecl]) -> Validated {
    let mut problems = Vec::new();
    let mut features: Vec<Feature> = Vec::new();
    // Names borrowed from the declarations, room for all of them at once.
    let mut by_name: HashMap<&str, usize> = HashMap::with_capacity(decls.len());
    let mut decl_of_feature: Vec<usize> = Vec::new();

    for (decl_idx, decl) in decls.iter().enumerate() {
        let (completed, ok) = complete_specs(decl_idx, decl, &mut problems);
        alpha_default_rule(decl_idx, decl, &mut problems);
        if !ok {
            continue;
        }
        if let Some(builtin) = kompat_runtime::gate::builtin_specs(&decl.name) {
            if completed != [builtin] {
                problems.push(Problem {
                    kind: ProblemKind::ConflictingRedeclaration,
                    decl: decl_idx,
                    spec: None,
                    field: Field::Feature,
                    message: format!(
                        "feature gate {} with different spec already exists: {}",
                        go_quote(&decl.name),
                        crate::feature::go_format_specs(&[builtin])
                    ),
                });
            }
            continue;
        }
        match by_name.get(decl.name.as_str()) {
            Some(&existing) => {
                if features[existing].specs != completed {
                    problems.push(Problem {
                        kind: ProblemKind::ConflictingRedeclaration,
                        decl: decl_idx,
                        spec: None,
                        field: Field::Feature,
                        message: format!(
                            "feature gate {} with different spec already exists: {}",
                            go_quote(&decl.name),
                            crate::feature::go_format_specs(&features[existing].specs)
                        ),
                    });
                }
            }
            None => {
                by_name.insert(&decl.name, features.len());
                decl_of_feature.push(decl_idx);
                features.push(Feature {
                    name: decl.name.clone(),
                    specs: completed,
                    dependencies: Vec::new(),
                    description: decl.description.clone(),
                    ratchet: decl.ratchet,
                });
            }
        }
    }

    resolve_dependencies(decls, &mut features, &by_name, &mut problems);

    // Cannot fail: `by_name` keeps names unique and every dependency index
    // comes from it; the empty set is never observed.
    let set = FeatureSet::from_features(features).unwrap_or_default();
    Validated { set, problems }
}

/// Checks one declaration's specs in order and completes them (inheriting
/// min-compatibility versions). Each spec reports at most its first problem,
/// as Kubernetes does; later specs are compared with it as written, so one
/// mistake causes no follow-on problems. Returns the completed specs and whether the
/// declaration is free of registration problems.
fn complete_specs(decl_idx: usize, decl: &FeatureDecl, problems: &mut Vec<Problem>) -> (Vec<FeatureSpec>, bool) {
    let name = Quoted(&decl.name);
    let mut ok = true;
    let mut completed: Vec<FeatureSpec> = Vec::new();
    let mut history = History::default();
    for (idx, spec) in decl.specs.iter().enumerate() {
        match check_spec(name, idx, spec, &history) {
            Ok(done) => {
                completed.push(done);
                history.record(done);
            }
            Err((kind, field, message)) => {
                ok = false;
                // Later specs are compared with this one as written, so that
                // one mistake is reported once.
                if let Some(version) = spec.version.as_ref().and_then(|v| v.as_major_minor()) {
                    let mcv = spec.min_compatibility_version.as_ref().and_then(|v| v.as_major_minor());
                    history.record(FeatureSpec {
                        version,
                        default: spec.default,
                        lock_to_default: spec.lock_to_default,
                        stage: spec.stage,
                        min_compatibility_version: mcv.or(history.last.and_then(|l| l.min_compatibility_version)),
                    });
                }
                problems.push(Problem { kind, decl: decl_idx, spec: Some(idx), field, message });
            }
        }
    }
    (completed, ok)
}

/// What the specs accepted so far established.
#[derive(Default)]
struct History {
    last: Option<FeatureSpec>,
    was_beta: bool,
    was_ga: bool,
    was_deprecated: bool,
    was_locked: bool,
}

impl History {
    fn record(&mut self, spec: FeatureSpec) {
        self.last = Some(spec);
        self.was_beta |= spec.stage == Stage::Beta;
        self.was_ga |= spec.stage == Stage::GA;
        self.was_deprecated |= spec.stage == Stage::Deprecated;
        self.was_locked |= spec.lock_to_default;
    }
}

type SpecProblem = (ProblemKind, Field, String);

/// A feature name shown Go-quoted (`%q`), quoted only when a message is
/// written: most specs have no problem, and quoting every name was a fifth
/// of validating Kubernetes' list (issue 18).
#[derive(Clone, Copy)]
struct Quoted<'a>(&'a str);

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&go_quote(self.0))
    }
}

/// The `AddVersioned` checks of one spec, in Kubernetes' order.
fn check_spec(name: Quoted<'_>, idx: usize, spec: &SpecDecl, history: &History) -> Result<FeatureSpec, SpecProblem> {
    let Some(version_lit) = &spec.version else {
        return Err((
            ProblemKind::SpecMissingVersion,
            Field::Spec,
            format!("feature {name} did not provide a version"),
        ));
    };
    let Some(version) = version_lit.as_major_minor() else {
        return Err((
            ProblemKind::SpecPatchVersion,
            Field::Version,
            format!("feature {name} specified patch version: {version_lit}"),
        ));
    };
    let last = history.last;
    let mut mcv = None;
    if let Some(mcv_lit) = &spec.min_compatibility_version {
        if last.is_none_or(|l| l.version != version) {
            return Err((
                ProblemKind::MinCompatWithoutBaseEntry,
                Field::MinCompatibilityVersion,
                format!(
                    "feature {name} specified MinCompatibilityVersion: {mcv_lit} without a preceding entry at the same Version without MinCompatibilityVersion set"
                ),
            ));
        }
        let Some(m) = mcv_lit.as_major_minor() else {
            return Err((
                ProblemKind::MinCompatPatchVersion,
                Field::MinCompatibilityVersion,
                format!("feature {name} specified patch MinCompatibilityVersion: {mcv_lit}"),
            ));
        };
        if m > version {
            return Err((
                ProblemKind::MinCompatAboveVersion,
                Field::MinCompatibilityVersion,
                format!("feature {name} MinCompatibilityVersion {m} greater than Version {version}"),
            ));
        }
        mcv = Some(m);
    }
    if idx == 0 && spec.stage == Stage::Deprecated && version.minor != 0 {
        return Err((
            ProblemKind::DeprecatedWithoutInitialState,
            Field::Stage,
            format!("feature {name} introduced as deprecated must provide a 1.0 entry indicating initial state"),
        ));
    }
    if let Some(last) = last {
        if version < last.version {
            return Err((
                ProblemKind::DecreasingVersion,
                Field::Version,
                format!("feature {name} lists version transitions in decreasing order ({version} < {})", last.version),
            ));
        }
        if let (Some(m), Some(last_m)) = (mcv, last.min_compatibility_version) {
            if m < last_m {
                return Err((
                    ProblemKind::DecreasingMinCompat,
                    Field::MinCompatibilityVersion,
                    format!(
                        "feature {name} lists min compatibility version transitions in decreasing order ({m} < {last_m})"
                    ),
                ));
            }
        }
        if version == last.version {
            if mcv == last.min_compatibility_version {
                return Err((
                    ProblemKind::DuplicateSpec,
                    Field::Spec,
                    format!(
                        "feature {name} lists duplicate entries with the same versions ({version} = {})",
                        last.version
                    ),
                ));
            }
            if spec.stage != last.stage {
                return Err((
                    ProblemKind::StageChangeSameVersion,
                    Field::Stage,
                    format!(
                        "feature {name} lists stability changes with the same version ({} -> {})",
                        last.stage.runtime_str(),
                        spec.stage.runtime_str()
                    ),
                ));
            }
            if spec.lock_to_default != last.lock_to_default {
                return Err((
                    ProblemKind::LockChangeSameVersion,
                    Field::LockToDefault,
                    format!(
                        "feature {name} lists locked to default changes with the same version ({} -> {})",
                        last.lock_to_default, spec.lock_to_default
                    ),
                ));
            }
        }
        if spec.stage == last.stage && spec.default == last.default && spec.lock_to_default == last.lock_to_default {
            return Err((
                ProblemKind::TransitionWithoutChange,
                Field::Spec,
                format!("feature {name} lists transition without stability change ({} -> {version})", last.version),
            ));
        }
        if history.was_locked && !spec.lock_to_default {
            return Err((
                ProblemKind::UnlockAfterLock,
                Field::LockToDefault,
                format!("feature {name} must not unlock after locking to default"),
            ));
        }
        if spec.stage != Stage::Deprecated && history.was_deprecated {
            return Err((
                ProblemKind::ResurrectFromDeprecated,
                Field::Stage,
                format!("deprecated feature {name} must not resurrect from its terminal state"),
            ));
        }
        if (spec.stage == Stage::Alpha && (history.was_beta || history.was_ga))
            || (spec.stage == Stage::Beta && history.was_ga)
        {
            return Err((
                ProblemKind::StabilityRegression,
                Field::Stage,
                format!(
                    "feature {name} regresses stability from more stable level to {} in {version}",
                    spec.stage.runtime_str()
                ),
            ));
        }
    }
    Ok(FeatureSpec {
        version,
        default: spec.default,
        lock_to_default: spec.lock_to_default,
        stage: spec.stage,
        min_compatibility_version: mcv.or(last.and_then(|l| l.min_compatibility_version)),
    })
}

/// The linter's content rule: an Alpha spec must not be enabled by default.
fn alpha_default_rule(decl_idx: usize, decl: &FeatureDecl, problems: &mut Vec<Problem>) {
    if let Some(idx) = decl.specs.iter().position(|s| s.stage == Stage::Alpha && s.default) {
        problems.push(Problem {
            kind: ProblemKind::AlphaEnabledByDefault,
            decl: decl_idx,
            spec: Some(idx),
            field: Field::Default,
            message: format!("alpha feature {} cannot be enabled by default", decl.name),
        });
    }
}

/// `AddDependencies`: resolves names, checks every dependent spec against the
/// dependency's spec at that version, then looks for cycles.
fn resolve_dependencies(
    decls: &[FeatureDecl],
    features: &mut [Feature],
    by_name: &HashMap<&str, usize>,
    problems: &mut Vec<Problem>,
) {
    let feature_decl: HashMap<&str, usize> = decls
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.dependencies.is_empty())
        .map(|(i, d)| (d.name.as_str(), i))
        .collect();
    for feature_idx in 0..features.len() {
        let name = features[feature_idx].name.clone();
        let Some(&decl_idx) = feature_decl.get(name.as_str()) else {
            continue;
        };
        let mut deps: Vec<(usize, &str)> =
            decls[decl_idx].dependencies.iter().enumerate().map(|(i, d)| (i, d.as_str())).collect();
        deps.sort_by(|a, b| a.1.cmp(b.1));
        deps.dedup_by(|a, b| a.1 == b.1);
        let mut resolved = Vec::new();
        for (dep_pos, dep_name) in deps {
            let mut push = |kind, message| {
                problems.push(Problem { kind, decl: decl_idx, spec: None, field: Field::Dependency(dep_pos), message })
            };
            let Some(&dep_idx) = by_name.get(dep_name) else {
                // Kubernetes' message, with the hint every unknown gate name gets.
                let hint = kompat_runtime::suggest::did_you_mean(dep_name, features.iter().map(|f| f.name.as_str()))
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                push(
                    ProblemKind::UnknownDependency,
                    format!("cannot add dependency from {name} to unknown feature {dep_name}{hint}"),
                );
                continue;
            };
            resolved.push(dep_idx);
            let dep_specs = &features[dep_idx].specs;
            for spec in features[feature_idx].specs.iter().rev() {
                let dep_spec = spec_at(dep_specs, spec.version, spec.min_compatibility_version);
                if spec.stage.stability_order() > dep_spec.stage.stability_order() {
                    push(
                        ProblemKind::DependencyLessStable,
                        format!(
                            "{} feature {name} cannot depend on {} feature {dep_name} at version {}",
                            spec.stage.runtime_str(),
                            dep_spec.stage.runtime_str(),
                            spec.version
                        ),
                    );
                    break;
                }
                if spec.default && !dep_spec.default {
                    push(
                        ProblemKind::DependencyDefaultDisabled,
                        format!(
                            "default-enabled feature {name} cannot depend on default-disabled feature {dep_name} at version {}",
                            spec.version
                        ),
                    );
                    break;
                }
                if spec.lock_to_default && !dep_spec.lock_to_default {
                    push(
                        ProblemKind::DependencyUnlocked,
                        format!(
                            "locked-to-default feature {name} cannot depend on unlocked feature {dep_name} at version {}",
                            spec.version
                        ),
                    );
                    break;
                }
            }
        }
        features[feature_idx].dependencies = resolved;
    }

    // Cycle detection: depth-first, in declaration order, reporting each cycle
    // once, at the feature where the walk closes it.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Visiting,
        Done,
    }
    let mut marks = vec![Mark::New; features.len()];
    fn visit(idx: usize, features: &[Feature], marks: &mut [Mark], cycles: &mut Vec<usize>) {
        match marks[idx] {
            Mark::Done => return,
            Mark::Visiting => {
                cycles.push(idx);
                return;
            }
            Mark::New => (),
        }
        marks[idx] = Mark::Visiting;
        for &dep in &features[idx].dependencies {
            visit(dep, features, marks, cycles);
        }
        marks[idx] = Mark::Done;
    }
    let mut cycles = Vec::new();
    for idx in 0..features.len() {
        visit(idx, features, &mut marks, &mut cycles);
    }
    cycles.sort_unstable();
    cycles.dedup();
    for idx in cycles {
        let name = &features[idx].name;
        problems.push(Problem {
            kind: ProblemKind::DependencyCycle,
            decl: feature_decl.get(name.as_str()).copied().unwrap_or(0),
            spec: None,
            field: Field::Feature,
            message: format!("cycle detected with feature {name}"),
        });
    }
}
