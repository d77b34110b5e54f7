//! `locked-gate-cleanup`: gates locked to their default for five releases or
//! more (Kubernetes' `hack/verify-featuregates-cleanup.sh`).

use kompat_engine::Field;

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Reports gates whose default has been locked for at least five releases at the binary version. Like Kubernetes' script, it cannot count releases across a major-version change and says so for every gate locked in an earlier major version. A Go gate declared only in an unversioned `FeatureSpec` map has no version it was locked at and is not judged (the script reads only versioned lists).
    ///
    /// ### Why is this bad?
    ///
    /// A gate locked at X.Y is needed until the X.Y+3 cycle ends, which is only certain during X.Y+5. After that it is dead code: every emulated version has it locked, and the flag can only be set to its default.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # binary 1.37
    /// { version = "1.31", stage = "GA", default = true, lockToDefault = true }
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # delete the gate and the code paths behind it
    /// ```
    pub LOCKED_GATE_CLEANUP: Warning, "a gate has been locked to its default for five releases or more"
}

pub static PASS: Pass = Pass { rules: &[&LOCKED_GATE_CLEANUP], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(binary) = cx.binary else { return };
    for (idx, feature) in cx.decls.features().iter().enumerate() {
        if super::unversioned(cx.decls, &feature.name) {
            continue;
        }
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
        out.push(
            LOCKED_GATE_CLEANUP
                .diag(message, cx.decls.locate(idx, Some(spec_idx), Field::LockToDefault))
                .with_subject(feature.name.clone()),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn locked_gate_cleanup() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- features.toml
[[feature]]
name = "Ancient"
specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.32", stage = "GA", default = true, lockToDefault = true },
#                                                                   ^^^^ warning[locked-gate-cleanup]: feature Ancient has been locked to default since 1.32 (5 releases) and should be cleaned up
]
"##,
        );
    }

    #[test]
    fn nothing_is_reported_about_reference_inputs() {
        // The same locked gate in a reference input (a list the project does
        // not own) resolves the settings and is not reported.
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- reference/versioned_feature_list.yaml
- name: Ancient
  versionedSpecs:
  - default: true
    lockToDefault: false
    preRelease: GA
    version: "1.0"
  - default: true
    lockToDefault: true
    preRelease: GA
    version: "1.32"
//- deploy/kubelet.yaml
kind: KubeletConfiguration
featureGates:
  Ancient: false
# ^^^^^^^ error[locked-gate-setting]: a 1.37 component rejects this setting: cannot set feature gate Ancient to false, feature is locked to true
"##,
        );
    }
}
