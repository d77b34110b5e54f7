//! `removed-gate`: a gate of the baseline that is gone, checked against
//! Kubernetes' removal rules (`verifyFeatureRemoval`).

use kompat_core::{Field, Stage, Version};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "removed-gate";

/// Gates locked at or before this version may be removed at once under the
/// Kubernetes profile (`verifyFeatureRemoval`'s grandfathering).
const GRANDFATHERED_UNTIL: Version = Version::new(1, 31);

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "a gate was removed before Kubernetes' rules allow it".to_owned(),
        doc: doc(
            "Compares the declarations with the baseline (the previously released set) and checks every removed gate against Kubernetes' removal rules: an Alpha gate may go; a Beta gate may not; a GA or Deprecated gate only once it is locked to its default, and only three releases after it was locked, so that every emulated version still knows it.",
            "A binary emulating an older version must answer exactly as that release did. Removing a gate early makes `--emulation-version` give different defaults than the real release (kubernetes#128036), and rejects `--feature-gates` settings that the older release accepted.",
            "# baseline: WidgetCache is GA, locked in 1.35; binary 1.37\n# current:  WidgetCache deleted",
            "# keep WidgetCache until 1.38 (locked 1.35 + 3)",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(baseline) = cx.baseline else { return };
    for (idx, old) in baseline.features().iter().enumerate() {
        if cx.decls.features().iter().any(|f| f.name == old.name) {
            continue;
        }
        let name = &old.name;
        let message = match old.specs.last() {
            None => Some(format!("feature {name} has no version specs")),
            Some(last) => match last.stage {
                Stage::Alpha | Stage::PreAlpha => None,
                Stage::Beta => Some(format!("feature {name} cannot be removed while in beta")),
                Stage::GA | Stage::Deprecated if !last.lock_to_default => Some(format!(
                    "feature {name} cannot be removed because it is in GA or Deprecated state and is not locked to default"
                )),
                Stage::GA | Stage::Deprecated => {
                    let locked_at = last.version.as_ref().map(|v| v.major_minor()).unwrap_or(Version::new(0, 0));
                    // Kubernetes' `thresholdVersion`: a fixed 1.31, whatever
                    // the window's floor, and only under its profile.
                    let grandfathered = cx.window.floor.is_some() && locked_at <= GRANDFATHERED_UNTIL;
                    let until = locked_at.add_minor(3);
                    match cx.binary {
                        Some(binary) if !grandfathered && binary < until => Some(format!(
                            "feature {name} cannot be removed until version {until} (required for emulation support)"
                        )),
                        _ => None,
                    }
                }
            },
        };
        if let Some(message) = message {
            out.push(Diagnostic {
                code: CODE,
                severity: Severity::Error,
                message,
                location: baseline.locate(idx, None, Field::Feature),
                subject: Some(name.clone()),
                notes: vec!["the baseline declares it here; the current declarations no longer do".to_owned()],
                labels: Vec::new(),
            });
        }
    }
}
