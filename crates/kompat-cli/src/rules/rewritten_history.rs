//! `rewritten-history`: specs of released versions that differ from the
//! baseline.

use kompat_engine::{FeatureDecl, Field, SpecDecl};
use kompat_runtime::Version;

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::{Diagnostic, Label};

declare_rule! {
    /// ### What it does
    ///
    /// Compares every gate with the baseline and checks that the specs of versions already released are unchanged: those below the binary version and below the baseline's newest version. The baseline is the list committed before the change, taken on a development branch: its newest version is the release then under development, so specs at or above it were not released yet and may still change. A Go gate declared in an unversioned `FeatureSpec` map, now or in the baseline, has one spec for every version, changed in place to promote it: it has no history to rewrite and is not judged.
    ///
    /// ### Why is this bad?
    ///
    /// Emulating a released version must reproduce that release. Changing what a gate was in 1.35 after 1.35 shipped makes `--emulation-version=1.35` disagree with the real 1.35, which is exactly what emulation promises not to do.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # baseline: { version = "1.35", stage = "Beta", default = false }
    /// # current:  { version = "1.35", stage = "Beta", default = true }   (binary 1.37)
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # leave 1.35 as it was, add a new spec:
    /// { version = "1.37", stage = "Beta", default = true }
    /// ```
    pub REWRITTEN_HISTORY: Error, "specs of released versions were changed"
}

pub static PASS: Pass = Pass { rules: &[&REWRITTEN_HISTORY], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(baseline), Some(binary)) = (cx.baseline, cx.binary) else { return };
    let binary = released_before(binary, baseline.features());
    let released = |specs: &[SpecDecl]| -> Vec<SpecDecl> {
        specs.iter().filter(|s| s.version.as_ref().is_some_and(|v| v.major_minor() < binary)).cloned().collect()
    };
    for (idx, feature) in cx.decls.features().iter().enumerate() {
        let Some(old) = baseline.features().iter().find(|f| f.name == feature.name) else { continue };
        if super::unversioned(cx.decls, &feature.name) || super::unversioned(baseline, &old.name) {
            // One spec for every version, changed in place to promote.
            continue;
        }
        let (before, now) = (released(&old.specs), released(&feature.specs));
        if before == now {
            continue;
        }
        let first_difference = before.iter().zip(&now).position(|(a, b)| a != b).unwrap_or(before.len().min(now.len()));
        let at: Option<Version> = before
            .get(first_difference)
            .or(now.get(first_difference))
            .and_then(|s| s.version.as_ref())
            .map(|v| v.major_minor());
        out.push(
            REWRITTEN_HISTORY
                .diag(
                    format!(
                        "feature {} changes specs of released versions (below {binary}){}",
                        feature.name,
                        at.map(|v| format!(", first at {v}")).unwrap_or_default()
                    ),
                    cx.decls.locate(
                        idx,
                        Some(first_difference.min(feature.specs.len().saturating_sub(1))),
                        Field::Spec,
                    ),
                )
                .with_subject(feature.name.clone())
                .with_notes(vec!["add a spec at the binary version instead of editing released ones".to_owned()])
                .with_labels(released_as(baseline, old, before.get(first_difference))),
        );
    }
}

/// The first version not yet released: the binary version, or the baseline's
/// newest spec version when that is lower (a baseline from a development
/// branch has not released its newest version yet).
fn released_before(binary: Version, baseline: &[FeatureDecl]) -> Version {
    let newest =
        baseline.iter().flat_map(|f| &f.specs).filter_map(|s| s.version.as_ref()).map(|v| v.major_minor()).max();
    newest.map_or(binary, |n| n.min(binary))
}

/// The baseline's spec as it was released, or the baseline's declaration
/// when the spec was added.
fn released_as(baseline: &kompat_project::Decls, old: &FeatureDecl, spec: Option<&SpecDecl>) -> Option<Label> {
    let decl = baseline.features().iter().position(|f| f.name == old.name)?;
    let (spec_idx, field, message) = match spec.and_then(|s| old.specs.iter().position(|o| o == s)) {
        Some(i) => (Some(i), Field::Spec, "released as this in the baseline"),
        None => (None, Field::Feature, "the baseline declares the feature here"),
    };
    Some(Label { location: baseline.locate(decl, spec_idx, field)?, message: message.to_owned() })
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn rewritten_history() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- baseline/baseline.toml
[[feature]]
name = "Edited"
specs = [
  { version = "1.34", stage = "Alpha", default = false },
  { version = "1.36", stage = "Beta", default = true },
]

# Taken while 1.37 was developed: everything below 1.37 was released.
[[feature]]
name = "Newest"
specs = [{ version = "1.37", stage = "Alpha", default = false }]
//- features.toml
[[feature]]
name = "Edited"
specs = [
  { version = "1.34", stage = "Alpha", default = false },
  { version = "1.35", stage = "Beta", default = true },
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rewritten-history]: feature Edited changes specs of released versions (below 1.37), first at 1.36
]

[[feature]]
name = "Newest"
specs = [{ version = "1.37", stage = "Alpha", default = false }]
"##,
        );
    }

    /// A baseline taken on a development branch: its newest version (1.36)
    /// was not released yet, so its specs may still change; older ones not.
    #[test]
    fn unreleased_specs_of_a_development_baseline_may_change() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- baseline/baseline.toml
[[feature]]
name = "InDevelopment"
specs = [
  { version = "1.34", stage = "Alpha", default = false },
  { version = "1.36", stage = "Beta", default = false },
]
//- features.toml
[[feature]]
name = "InDevelopment"
specs = [
  { version = "1.34", stage = "Alpha", default = false },
  { version = "1.36", stage = "Beta", default = true },
]
"##,
        );
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- baseline/baseline.toml
[[feature]]
name = "InDevelopment"
specs = [
  { version = "1.34", stage = "Alpha", default = false },
  { version = "1.36", stage = "Beta", default = false },
]
//- features.toml
[[feature]]
name = "InDevelopment"
specs = [
  { version = "1.33", stage = "Alpha", default = false },
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[rewritten-history]: feature InDevelopment changes specs of released versions (below 1.36), first at 1.34
  { version = "1.36", stage = "Beta", default = false },
]
"##,
        );
    }
}
