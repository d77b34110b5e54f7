//! Gate settings in deployment material that components at the target
//! binary version reject: `removed-gate-setting`, `unknown-gate-setting`,
//! `locked-gate-setting`, `prealpha-gate-setting`.

use std::sync::Arc;

use kompat_core::{FeatureGate, Stage};

use super::Pass;
use crate::{Context, Diagnostic};
use kompat_diag::declare_rule;

declare_rule! {
    /// ### What it does
    ///
    /// Checks `--feature-gates` flags (YAML, shell, Dockerfiles, Markdown) and `featureGates:` maps (kubelet, kind, kubeadm) against the target binary version, and reports settings of gates that the baseline has and the target no longer declares, pointing at the tombstone.
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
    pub REMOVED_GATE_SETTING, "removed-gate-setting", Error, "deployment material sets a gate the target version removed"
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
    pub UNKNOWN_GATE_SETTING, "unknown-gate-setting", Error, "deployment material sets a gate no declaration knows"
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
    pub LOCKED_GATE_SETTING, "locked-gate-setting", Error, "deployment material sets a locked gate to the other value"
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
    pub PREALPHA_GATE_SETTING, "prealpha-gate-setting", Error, "deployment material sets a gate that does not exist yet at the target version"
}

pub static PASS: Pass = Pass {
    rules: &[&REMOVED_GATE_SETTING, &UNKNOWN_GATE_SETTING, &LOCKED_GATE_SETTING, &PREALPHA_GATE_SETTING],
    check: Some(check),
};

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if cx.settings.is_empty() {
        return;
    }
    let Some(binary) = cx.binary else { return };
    let set = Arc::new(cx.validated.set.clone());
    let gate = FeatureGate::new(set.clone(), binary, None);
    for setting in cx.settings {
        let mut probe = gate.clone();
        let Err(err) = probe.set(&format!("{}={}", setting.gate, setting.value)) else { continue };
        let message = err.to_string();
        let (rule, labels) = match set.index_of(&setting.gate) {
            Some(idx) if gate.state(idx).spec.stage == Stage::PreAlpha => (&PREALPHA_GATE_SETTING, Vec::new()),
            Some(_) => (&LOCKED_GATE_SETTING, Vec::new()),
            None => match super::tombstone(cx, &setting.gate) {
                Some(tomb) => (&REMOVED_GATE_SETTING, vec![tomb]),
                None => (&UNKNOWN_GATE_SETTING, Vec::new()),
            },
        };
        out.push(
            rule.diag(format!("a {binary} component rejects this setting: {message}"), Some(setting.location.clone()))
                .with_subject(setting.gate.clone())
                .with_labels(labels),
        );
    }
}
