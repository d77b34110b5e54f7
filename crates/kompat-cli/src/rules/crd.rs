//! CRD versioning checks from `kompat-crd`: single manifests, old -> new
//! pairs (`--baseline old.yaml new.yaml`) and conversions files
//! (`<name>.conversions.toml` next to a manifest).

use kompat_crd::{check_conversions, check_crd, check_upgrade, Conversions, Crd, Finding};
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
}

pub static PASS: Pass = Pass { rules: kompat_crd::CrdRule::RULES, check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for input in cx.crds {
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
    diag.subject = finding.subject;
    diag
}
