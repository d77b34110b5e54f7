//! Gate settings in deployment material that components at the target
//! binary version reject: `removed-gate-setting`, `unknown-gate-setting`,
//! `locked-gate-setting`, `prealpha-gate-setting`.

use std::sync::Arc;

use kompat_core::{FeatureGate, Stage};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const REMOVED: &str = "removed-gate-setting";
pub const UNKNOWN: &str = "unknown-gate-setting";
pub const LOCKED: &str = "locked-gate-setting";
pub const PRE_ALPHA: &str = "prealpha-gate-setting";

const WHY: &str = "Kubernetes components refuse to start when `--feature-gates` or `featureGates:` names a gate they do not accept: the upgrade that ships the new binary takes the node or control plane down.";

pub fn rules() -> Vec<Rule> {
    vec![
        Rule {
            code: REMOVED,
            severity: Severity::Error,
            summary: "deployment material sets a gate the target version removed".to_owned(),
            doc: doc(
                "Checks `--feature-gates` flags (YAML, shell, Dockerfiles, Markdown) and `featureGates:` maps (kubelet, kind, kubeadm) against the target binary version, and reports settings of gates that the baseline has and the target no longer declares, pointing at the tombstone.",
                WHY,
                "# kubelet-config.yaml, upgrading to a release without LegacyPolling\nfeatureGates:\n  LegacyPolling: true",
                "featureGates: {}",
            ),
        },
        Rule {
            code: UNKNOWN,
            severity: Severity::Error,
            summary: "deployment material sets a gate no declaration knows".to_owned(),
            doc: doc(
                "Reports gate settings whose name is declared nowhere (`unrecognized feature gate: X`).",
                WHY,
                "--feature-gates=WidgetCahce=true",
                "--feature-gates=WidgetCache=true",
            ),
        },
        Rule {
            code: LOCKED,
            severity: Severity::Error,
            summary: "deployment material sets a locked gate to the other value".to_owned(),
            doc: doc(
                "Reports settings of a gate that is locked to its default at the target version to the other value.",
                WHY,
                "--feature-gates=LegacyWidgetPolling=true   # locked to false at the target version",
                "# drop the setting",
            ),
        },
        Rule {
            code: PRE_ALPHA,
            severity: Severity::Error,
            summary: "deployment material sets a gate that does not exist yet at the target version".to_owned(),
            doc: doc(
                "Reports settings of a gate whose first spec is after the target version (PreAlpha there).",
                WHY,
                "--feature-gates=GadgetSharding=true   # introduced in 1.35, target 1.34",
                "# set it only on components of 1.35 and later",
            ),
        },
    ]
}

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
        let (code, labels) = match set.index_of(&setting.gate) {
            Some(idx) if gate.state(idx).spec.stage == Stage::PreAlpha => (PRE_ALPHA, Vec::new()),
            Some(_) => (LOCKED, Vec::new()),
            None => match super::tombstone(cx, &setting.gate) {
                Some(tomb) => (REMOVED, vec![tomb]),
                None => (UNKNOWN, Vec::new()),
            },
        };
        out.push(Diagnostic {
            code,
            severity: Severity::Error,
            message: format!("a {binary} component rejects this setting: {message}"),
            location: Some(setting.location.clone()),
            subject: Some(setting.gate.clone()),
            notes: Vec::new(),
            labels,
        });
    }
}
