//! CRD versioning checks from `kompat-crd`: single manifests, old -> new
//! pairs (`--baseline old.yaml new.yaml`), CRDs of the baseline missing from
//! the new manifests, and conversions files (`<name>.conversions.toml` next
//! to `<name>.yaml`), including those that belong to no manifest.

use kompat_crd::{check_conversions, check_crd, check_removed, check_upgrade, Conversions, Crd, Finding};
use kompat_project::SourceFile;

use super::Pass;
use crate::Context;
use kompat_diag::Diagnostic;

/// One CRD manifest file with what it is checked against.
pub struct CrdInput {
    pub source: SourceFile,
    pub crds: Vec<Crd>,
    /// The same CRDs as previously released, when a baseline names them.
    pub baseline: Vec<Crd>,
    pub conversions: Option<(SourceFile, Conversions)>,
    /// For a baseline file (`crds` is then empty): its CRDs, reported where
    /// no linted manifest holds them (`crd-removed`, located in it).
    pub removed_from: Vec<Crd>,
    /// For a conversions file that belongs to no manifest among the inputs
    /// (`source` is that file, `crds` empty): the `orphan-conversions-file`
    /// finding.
    pub orphan: Option<Finding>,
}

impl CrdInput {
    /// A linted CRD manifest.
    pub fn manifest(
        source: SourceFile,
        crds: Vec<Crd>,
        baseline: Vec<Crd>,
        conversions: Option<(SourceFile, Conversions)>,
    ) -> CrdInput {
        CrdInput { source, crds, baseline, conversions, removed_from: Vec::new(), orphan: None }
    }
}

pub static PASS: Pass = Pass { rules: kompat_crd::CrdRule::RULES, check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let linted: Vec<&Crd> = cx.crds.iter().flat_map(|i| &i.crds).collect();
    for input in cx.crds {
        if !input.removed_from.is_empty() {
            out.extend(check_removed(&input.removed_from, &linted).into_iter().map(|f| diagnostic(&input.source, f)));
        }
        if let Some(orphan) = &input.orphan {
            out.push(diagnostic(&input.source, orphan.clone()));
        }
        let conversions = input.conversions.as_ref().map(|(_, c)| c);
        for crd in &input.crds {
            let mut findings = check_crd(crd, conversions);
            let baseline: Vec<&Crd> = input.baseline.iter().collect();
            if let Some(old) = pair(&baseline, crd) {
                findings.extend(check_upgrade(old, crd, conversions));
            }
            out.extend(findings.into_iter().map(|f| diagnostic(&input.source, f)));
            if let Some((source, conversions)) = &input.conversions {
                out.extend(check_conversions(crd, conversions).into_iter().map(|f| diagnostic(source, f)));
            }
        }
    }
}

/// The CRDs custom resources are judged against: those of the CRD
/// manifests among the inputs, then those installed in the cluster
/// (`crds` in kompat.toml, `--crds`).
pub fn known_crds<'a>(cx: &Context<'a>) -> Vec<&'a Crd> {
    cx.crds.iter().flat_map(|i| &i.crds).chain(cx.cluster_crds).collect()
}

/// The baseline CRD `new` is an upgrade of: the one with its name
/// (`<plural>.<group>`), else the one with its kind (so that a renamed group or
/// plural is reported as such).
pub fn pair<'a>(baseline: &[&'a Crd], new: &Crd) -> Option<&'a Crd> {
    baseline
        .iter()
        .find(|o| o.id() == new.id())
        .or_else(|| baseline.iter().find(|o| o.kind.value == new.kind.value))
        .copied()
}

fn diagnostic(source: &SourceFile, finding: Finding) -> Diagnostic {
    let location = match finding.span {
        Some(span) => source.locate(span.start, span.end),
        None => source.whole(),
    };
    let mut diag = finding.rule.rule().diag(finding.message, location).with_notes(finding.notes);
    diag.subject = finding.subject.map(Into::into);
    diag
}
