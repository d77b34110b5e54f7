//! `rewritten-history`: specs of released versions that differ from the
//! baseline.

use kompat_core::{FeatureDecl, Field, SpecDecl, Version};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, SecondaryLabel, Severity};

pub const CODE: &str = "rewritten-history";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "specs of released versions were changed".to_owned(),
        doc: doc(
            "Compares every gate with the baseline and checks that the specs of versions already released are unchanged: those below the binary version and below the baseline's newest version. The baseline is the list committed before the change, taken on a development branch: its newest version is the release then under development, so specs at or above it were not released yet and may still change.",
            "Emulating a released version must reproduce that release. Changing what a gate was in 1.35 after 1.35 shipped makes `--emulation-version=1.35` disagree with the real 1.35, which is exactly what emulation promises not to do.",
            "# baseline: { version = \"1.35\", stage = \"Beta\", default = false }\n# current:  { version = \"1.35\", stage = \"Beta\", default = true }   (binary 1.37)",
            "# leave 1.35 as it was, add a new spec:\n{ version = \"1.37\", stage = \"Beta\", default = true }",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(baseline), Some(binary)) = (cx.baseline, cx.binary) else { return };
    let binary = released_before(binary, &baseline.features);
    let released = |specs: &[SpecDecl]| -> Vec<SpecDecl> {
        specs.iter().filter(|s| s.version.as_ref().is_some_and(|v| v.major_minor() < binary)).cloned().collect()
    };
    for (idx, feature) in cx.decls.features.iter().enumerate() {
        let Some(old) = baseline.features.iter().find(|f| f.name == feature.name) else { continue };
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
        out.push(Diagnostic {
            code: CODE,
            severity: Severity::Error,
            message: format!(
                "feature {} changes specs of released versions (below {binary}){}",
                feature.name,
                at.map(|v| format!(", first at {v}")).unwrap_or_default()
            ),
            location: cx.decls.locate(
                idx,
                Some(first_difference.min(feature.specs.len().saturating_sub(1))),
                Field::Spec,
            ),
            subject: Some(feature.name.clone()),
            notes: vec!["add a spec at the binary version instead of editing released ones".to_owned()],
            labels: released_as(baseline, old, before.get(first_difference)).into_iter().collect(),
        });
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
fn released_as(baseline: &kompat_project::Decls, old: &FeatureDecl, spec: Option<&SpecDecl>) -> Option<SecondaryLabel> {
    let decl = baseline.features.iter().position(|f| f.name == old.name)?;
    let (spec_idx, field, message) = match spec.and_then(|s| old.specs.iter().position(|o| o == s)) {
        Some(i) => (Some(i), Field::Spec, "released as this in the baseline"),
        None => (None, Field::Feature, "the baseline declares the feature here"),
    };
    Some(SecondaryLabel { location: baseline.locate(decl, spec_idx, field)?, message: message.to_owned() })
}
