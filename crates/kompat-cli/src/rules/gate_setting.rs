//! Gate settings in deployment material that components at the target
//! binary version reject: `removed-gate-setting`, `unknown-gate-setting`,
//! `locked-gate-setting`, `prealpha-gate-setting`.

use std::collections::BTreeMap;
use std::sync::Arc;

use kompat_runtime::{FeatureGate, Stage};

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Checks `--feature-gates` flags (YAML, shell, Dockerfiles, Markdown) and `featureGates:` maps (kubelet, kind, kubeadm) against the target binary version, and reports settings of gates that the baseline has and the target no longer declares, pointing at the tombstone. Checked against Kubernetes' own gates (no features declared), a gate an earlier Kubernetes release removed is reported with that release and the gate's last state.
    ///
    /// ### Why is this bad?
    ///
    /// Kubernetes components refuse to start when `--feature-gates` or `featureGates:` names a gate they do not accept: the upgrade that ships the new binary takes the node or control plane down.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # kubelet-config.yaml, upgrading to a release without LegacyPolling
    /// featureGates:
    ///   LegacyPolling: true
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// featureGates: {}
    /// ```
    pub REMOVED_GATE_SETTING: Error, "deployment material sets a gate the target version removed"
}

declare_rule! {
    /// ### What it does
    ///
    /// Reports gate settings whose name is declared nowhere (`unrecognized feature gate: X`).
    ///
    /// ### Why is this bad?
    ///
    /// Kubernetes components refuse to start when `--feature-gates` or `featureGates:` names a gate they do not accept: the upgrade that ships the new binary takes the node or control plane down.
    ///
    /// ### Example
    ///
    /// ```toml
    /// --feature-gates=WidgetCahce=true
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// --feature-gates=WidgetCache=true
    /// ```
    pub UNKNOWN_GATE_SETTING: Error, "deployment material sets a gate no declaration knows"
}

declare_rule! {
    /// ### What it does
    ///
    /// Reports settings of a gate that is locked to its default at the target version to the other value.
    ///
    /// ### Why is this bad?
    ///
    /// Kubernetes components refuse to start when `--feature-gates` or `featureGates:` names a gate they do not accept: the upgrade that ships the new binary takes the node or control plane down.
    ///
    /// ### Example
    ///
    /// ```toml
    /// --feature-gates=LegacyWidgetPolling=true   # locked to false at the target version
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # drop the setting
    /// ```
    pub LOCKED_GATE_SETTING: Error, "deployment material sets a locked gate to the other value"
}

declare_rule! {
    /// ### What it does
    ///
    /// Reports settings of a gate whose first spec is after the target version (PreAlpha there).
    ///
    /// ### Why is this bad?
    ///
    /// Kubernetes components refuse to start when `--feature-gates` or `featureGates:` names a gate they do not accept: the upgrade that ships the new binary takes the node or control plane down.
    ///
    /// ### Example
    ///
    /// ```toml
    /// --feature-gates=GadgetSharding=true   # introduced in 1.35, target 1.34
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # set it only on components of 1.35 and later
    /// ```
    pub PREALPHA_GATE_SETTING: Error, "deployment material sets a gate that does not exist yet at the target version"
}

pub static PASS: Pass = Pass {
    rules: &[&REMOVED_GATE_SETTING, &UNKNOWN_GATE_SETTING, &LOCKED_GATE_SETTING, &PREALPHA_GATE_SETTING],
    check: Some(check),
};

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for group in cx.setting_groups() {
        judge(cx, &group, out);
    }
}

fn judge(cx: &Context<'_>, group: &crate::SettingGroup<'_>, out: &mut Vec<Diagnostic>) {
    let binary = group.binary;
    let set = Arc::new(group.gates.set.clone());
    let gate = FeatureGate::new(set.clone(), binary, None);
    // The closest known name of each unknown gate, found once per name (a
    // Levenshtein distance to every gate the set has).
    let mut suggestions: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
    for setting in &group.settings {
        let Some((name, value)) = setting.gate() else { continue };
        let mut probe = gate.clone();
        let Err(err) = probe.set_from_map(&BTreeMap::from([(name.to_owned(), value)])) else { continue };
        let mut message = err.to_string();
        let mut removed = None;
        // The baseline's tombstones are the project's gates.
        let tomb = if group.builtin && !cx.builtin_gates { None } else { super::tombstone(cx, name) };
        let (rule, labels) = match set.index_of(name) {
            Some(idx) if gate.state(idx).spec.stage == Stage::PreAlpha => (&PREALPHA_GATE_SETTING, Vec::new()),
            Some(_) => (&LOCKED_GATE_SETTING, Vec::new()),
            None => match tomb {
                Some(tomb) => (&REMOVED_GATE_SETTING, vec![tomb]),
                // Kubernetes' own gates: one an earlier release had.
                None => match group.builtin.then(|| kompat_k8s::removed_feature(name)).flatten() {
                    Some(gone) => {
                        removed = Some(gone);
                        (&REMOVED_GATE_SETTING, Vec::new())
                    }
                    None => {
                        let hint = suggestions.entry(name).or_insert_with(|| super::hint(set.suggest(name)));
                        message.push_str(hint);
                        (&UNKNOWN_GATE_SETTING, Vec::new())
                    }
                },
            },
        };
        let rejects = format!("a {binary} component rejects this setting: {message}");
        let message = match removed {
            Some(gone) => format!("{gone}; {rejects}"),
            None => rejects,
        };
        out.push(rule.diag(message, Some(setting.location.clone())).with_subject(name.to_owned()).with_labels(labels));
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn locked_gate_setting() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- deploy/Dockerfile
FROM scratch
ENTRYPOINT ["widgetd", "--feature-gates=Locked=false"]
#                                       ^^^^^^^^^^^^ error[locked-gate-setting]: a 1.37 component rejects this setting: cannot set feature gate Locked to false, feature is locked to true
//- features.toml
[[feature]]
name = "Locked"
specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.36", stage = "GA", default = true, lockToDefault = true },
]
"##,
        );
    }

    #[test]
    fn prealpha_gate_setting() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- deploy/README.md
Run with `--feature-gates=Later=true`.
#                         ^^^^^^^^^^ error[prealpha-gate-setting]: a 1.37 component rejects this setting: cannot set feature gate Later to true, feature is PreAlpha at emulated version 1.37, min compatibility version 1.36
//- features.toml
[[feature]]
name = "Later"
specs = [
  { version = "1.38", stage = "Alpha", default = false },
]
"##,
        );
    }

    #[test]
    fn removed_gate_setting() {
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
name = "Gone"
specs = [
  { version = "1.30", stage = "Alpha", default = false },
]
//- deploy/kubelet.yaml
kind: KubeletConfiguration
featureGates:
  Gone: true
# ^^^^ error[removed-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: Gone
//- features.toml
[[feature]]
name = "Kept"
specs = [
  { version = "1.36", stage = "Alpha", default = false },
]
"##,
        );
    }

    #[test]
    fn unknown_gate_setting() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- deploy/run.sh
exec widgetd --feature-gates=Kept=true,Typo=true,kept=false
#                                      ^^^^^^^^^ error[unknown-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: Typo
#                                                ^^^^^^^^^^ error[unknown-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: kept (did you mean `Kept`?)
//- features.toml
[[feature]]
name = "Kept"
specs = [
  { version = "1.36", stage = "Alpha", default = false },
]
"##,
        );
    }

    /// Kubernetes' own gates (nothing declared): a gate Kubernetes removed
    /// is reported as removed, with its release and last state, at and after
    /// that release; before it, the release still knows the gate.
    #[test]
    fn builtin_removed_gate_setting() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.37"
//- kind.yaml
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
featureGates:
  PodDisruptionConditions: true
# ^^^^^^^^^^^^^^^^^^^^^^^ error[removed-gate-setting]: feature gate "PodDisruptionConditions" was removed in Kubernetes 1.34 (last: GA, locked to true since 1.31); a 1.37 component rejects this setting: unrecognized feature gate: PodDisruptionConditions
  NoSuchGate: true
# ^^^^^^^^^^ error[unknown-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: NoSuchGate
"##,
        );
        // `[kubernetes] version` is the release settings of Kubernetes' own
        // gates are checked at: 1.33 still has the gate, locked to true.
        check(
            r##"
//- kompat.toml
binary_version = "2.0"
[kubernetes]
version = "1.33"
//- kind.yaml
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
featureGates:
  PodDisruptionConditions: true
# ^^^^^^^^^^^^^^^^^^^^^^^ warning[ga-gate-setting]: a 1.33 component logs "Setting GA feature gate PodDisruptionConditions=true. It will be removed in a future release."
  AppArmor: true
# ^^^^^^^^ error[removed-gate-setting]: feature gate "AppArmor" was removed in Kubernetes 1.33 (last: GA, locked to true since 1.31); a 1.33 component rejects this setting: unrecognized feature gate: AppArmor
  CronJobsScheduledAnnotation: false
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[locked-gate-setting]: a 1.33 component rejects this setting: cannot set feature gate CronJobsScheduledAnnotation to false, feature is locked to true
"##,
        );
    }
}
