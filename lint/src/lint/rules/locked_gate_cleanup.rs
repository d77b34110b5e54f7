//! `locked-gate-cleanup`: gates locked to their default for five releases or
//! more (Kubernetes' `hack/verify-featuregates-cleanup.sh`).

use kompat_core::Field;

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "locked-gate-cleanup";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Warning,
        summary: "a gate has been locked to its default for five releases or more".to_owned(),
        doc: doc(
            "Reports gates whose default has been locked for at least five releases at the binary version. Like Kubernetes' script, it cannot count releases across a major-version change and says so for every gate locked in an earlier major version.",
            "A gate locked at X.Y is needed until the X.Y+3 cycle ends, which is only certain during X.Y+5. After that it is dead code: every emulated version has it locked, and the flag can only be set to its default.",
            "# binary 1.37\n{ version = \"1.31\", stage = \"GA\", default = true, lockToDefault = true }",
            "# delete the gate and the code paths behind it",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(binary) = cx.binary else { return };
    for (idx, feature) in cx.decls.features().iter().enumerate() {
        let Some((spec_idx, locked_at)) = feature
            .specs
            .iter()
            .enumerate()
            .find(|(_, s)| s.lock_to_default)
            .and_then(|(i, s)| Some((i, s.version.as_ref()?.major_minor())))
        else {
            continue;
        };
        let message = if locked_at.major != binary.major {
            // The script has no rule for a major-version change and fails.
            format!(
                "feature {}: can't verify feature gate cleanup across major versions ({locked_at} vs {binary})",
                feature.name
            )
        } else if binary.minor >= locked_at.minor + 5 {
            format!(
                "feature {} has been locked to default since {locked_at} ({} releases) and should be cleaned up",
                feature.name,
                binary.minor - locked_at.minor
            )
        } else {
            continue;
        };
        out.push(Diagnostic {
            code: CODE,
            severity: Severity::Warning,
            message,
            location: cx.decls.locate(idx, Some(spec_idx), Field::LockToDefault),
            subject: Some(feature.name.clone()),
            notes: Vec::new(),
            labels: Vec::new(),
        });
    }
}
