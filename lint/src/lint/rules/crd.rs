//! CRD versioning checks from `kompat-crd`: single manifests, old -> new
//! pairs (`--baseline old.yaml new.yaml`) and conversions files
//! (`<name>.conversions.toml` next to a manifest).

use kompat_crd::{check_conversions, check_crd, check_upgrade, Conversions, Crd, Finding};
use kompat_project::SourceFile;

use crate::lint::{Context, Diagnostic, Rule, Severity};

/// One CRD manifest file with what it is checked against.
pub struct CrdInput {
    pub source: SourceFile,
    pub crds: Vec<Crd>,
    /// The same CRDs as previously released, when a baseline names them.
    pub baseline: Vec<Crd>,
    pub conversions: Option<(SourceFile, Conversions)>,
}

pub fn rules() -> Vec<Rule> {
    kompat_crd::rules()
        .iter()
        .map(|r| Rule {
            code: r.code,
            severity: severity(r.severity),
            summary: r.summary.to_owned(),
            doc: r.doc.to_owned(),
        })
        .collect()
}

fn severity(s: kompat_crd::Severity) -> Severity {
    match s {
        kompat_crd::Severity::Error => Severity::Error,
        kompat_crd::Severity::Warning => Severity::Warning,
        kompat_crd::Severity::Note => Severity::Note,
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for input in cx.crds {
        let conversions = input.conversions.as_ref().map(|(_, c)| c);
        for crd in &input.crds {
            let mut findings = check_crd(crd, conversions);
            let old = input
                .baseline
                .iter()
                .find(|o| o.id() == crd.id())
                .or_else(|| input.baseline.iter().find(|o| o.kind.value == crd.kind.value));
            if let Some(old) = old {
                findings.extend(check_upgrade(old, crd, conversions));
            }
            out.extend(findings.into_iter().map(|f| diagnostic(&input.source, f)));
            if let Some((source, conversions)) = &input.conversions {
                out.extend(check_conversions(crd, conversions).into_iter().map(|f| diagnostic(source, f)));
            }
        }
    }
}

fn diagnostic(source: &SourceFile, finding: Finding) -> Diagnostic {
    Diagnostic {
        code: finding.code,
        severity: severity(finding.severity),
        message: finding.message,
        location: Some(match finding.span {
            Some(span) => source.locate(span.start, span.end),
            None => source.whole(),
        }),
        subject: finding.subject,
        notes: finding.notes,
        labels: Vec::new(),
    }
}
