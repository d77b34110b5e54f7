//! `removed-gate`: a gate of the baseline that is gone, checked against
//! Kubernetes' removal rules (`verifyFeatureRemoval`).

use kompat_engine::Field;
use kompat_runtime::{Stage, Version};

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

/// Gates locked at or before this version may be removed at once under the
/// Kubernetes profile (`verifyFeatureRemoval`'s grandfathering).
const GRANDFATHERED_UNTIL: Version = Version::new(1, 31);

declare_rule! {
    /// ### What it does
    ///
    /// Compares the declarations with the baseline (the previously released set) and checks every removed gate against Kubernetes' removal rules: an Alpha gate may go; a Beta gate may not; a GA or Deprecated gate only once it is locked to its default, and only three releases after it was locked, so that every emulated version still knows it. A gate the baseline declares only in an unversioned Go `FeatureSpec` map is not judged: Kubernetes applied these rules to versioned gates only.
    ///
    /// ### Why is this bad?
    ///
    /// A binary emulating an older version must answer exactly as that release did. Removing a gate early makes `--emulation-version` give different defaults than the real release (kubernetes#128036), and rejects `--feature-gates` settings that the older release accepted.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # baseline: WidgetCache is GA, locked in 1.35; binary 1.37
    /// # current:  WidgetCache deleted
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # keep WidgetCache until 1.38 (locked 1.35 + 3)
    /// ```
    pub REMOVED_GATE: Error, "a gate was removed before Kubernetes' rules allow it"
}

pub static PASS: Pass = Pass { rules: &[&REMOVED_GATE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(baseline) = cx.baseline else { return };
    for (idx, old) in baseline.features().iter().enumerate() {
        if cx.decls.features().iter().any(|f| f.name == old.name) || super::unversioned(baseline, &old.name) {
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
            out.push(
                REMOVED_GATE
                    .diag(message, baseline.locate(idx, None, Field::Feature))
                    .with_subject(name.clone())
                    .with_notes(
                        vec!["the baseline declares it here; the current declarations no longer do".to_owned()],
                    ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn removed_gate() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- baseline/baseline.toml
[[feature]]
name = "Kept"
specs = [
  { version = "1.36", stage = "Alpha", default = false },
]

[[feature]]
name = "BetaGone"
#      ^^^^^^^^^^ error[removed-gate]: feature BetaGone cannot be removed while in beta
specs = [
  { version = "1.34", stage = "Beta", default = true },
]
//- features.toml
[[feature]]
name = "Kept"
specs = [
  { version = "1.36", stage = "Alpha", default = false },
]
"##,
        );
    }
}
