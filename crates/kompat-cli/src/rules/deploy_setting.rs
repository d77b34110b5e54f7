//! What deployment material says besides gates the target version accepts
//! or refuses by name (`gate_setting.rs`): values the component cannot
//! parse (`invalid-gate-setting`), gates Kubernetes warns about when set
//! (`deprecated-gate-setting`, `ga-gate-setting`), `--runtime-config` and
//! kind's `runtimeConfig` that kube-apiserver refuses
//! (`invalid-runtime-config`), and what kompat could not read
//! (`unread-deployment-setting`). The scanning is `kompat_formats::deploy`'s.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use kompat_diag::declare_rule;
use kompat_engine::api::{served_apis, RuntimeConfig, ServeOptions};
use kompat_runtime::{FeatureGate, Stage, Version};
use kompat_formats::deploy::{GateSetting, SettingKind};

use super::Pass;
use crate::Context;
use kompat_diag::{Diagnostic, Location};

declare_rule! {
    /// ### What it does
    ///
    /// Reports gate settings a Kubernetes component cannot parse, with its own message: a `--feature-gates` item whose value is not one of Go's `strconv.ParseBool` spellings (`1 t T TRUE true True 0 f F FALSE false False`) or that has no `=`; a `featureGates:` value of a kind, kubelet or kube-proxy configuration that does not decode as a boolean (these files go through `sigs.k8s.io/yaml`, so YAML 1.1's `yes`, `on` and `n` are booleans, but a quoted `"true"` is a string); a `featureGates:` map in a `KubeSchedulerConfiguration`, which has no such field.
    ///
    /// ### Why is this bad?
    ///
    /// The component refuses to start: `invalid value of NodeSwap=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax`.
    ///
    /// ### Example
    ///
    /// ```toml
    /// kube-apiserver --feature-gates=NodeSwap=maybe,KMSv1=ture
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// kube-apiserver --feature-gates=NodeSwap=true,KMSv1=true
    /// ```
    pub INVALID_GATE_SETTING: Error, "deployment material sets a gate to a value the component cannot parse"
}

declare_rule! {
    /// ### What it does
    ///
    /// Reports settings of a gate that is Deprecated at the target version, with the warning Kubernetes logs when it starts (`Setting deprecated feature gate X=true. It will be removed in a future release.`).
    ///
    /// ### Why is this bad?
    ///
    /// A Deprecated gate is removed in a later release, and a component that is still given the setting then refuses to start (`unrecognized feature gate`). Dropping it now keeps the next upgrade safe.
    ///
    /// ### Example
    ///
    /// ```toml
    /// --feature-gates=KMSv1=true   # Deprecated since 1.28
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # migrate off the deprecated behaviour and drop the setting
    /// ```
    pub DEPRECATED_GATE_SETTING: Warning, "deployment material sets a deprecated gate"
}

declare_rule! {
    /// ### What it does
    ///
    /// Reports settings of a gate that is GA at the target version (and not locked to the other value, which `locked-gate-setting` reports), with the warning Kubernetes logs when it starts (`Setting GA feature gate X=true. It will be removed in a future release.`).
    ///
    /// ### Why is this bad?
    ///
    /// A GA gate is removed a few releases later, and a component that is still given the setting then refuses to start (`unrecognized feature gate`).
    ///
    /// ### Example
    ///
    /// ```toml
    /// --feature-gates=NodeSwap=true   # GA since 1.34
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # drop the setting: the feature is on by default
    /// ```
    pub GA_GATE_SETTING: Warning, "deployment material sets a GA gate"
}

declare_rule! {
    /// ### What it does
    ///
    /// Checks `--runtime-config` flags, kubeadm's `runtime-config` argument and kind's `runtimeConfig` against Kubernetes' built-in APIs, as kube-apiserver validates and merges them: unknown API groups (`unknown api groups foo.example.com`), versions a known group does not have (`group version batch/v2 that has not been registered`), values that are not booleans, malformed keys, `api/all=false` alone. With `--binary-version` (or `--emulation-version`) the check is at that Kubernetes version, emulation and forward-compatibility flags included; without one, at the newest Kubernetes release kompat knows.
    ///
    /// ### Why is this bad?
    ///
    /// kube-apiserver refuses to start, and with it the cluster.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # kind.yaml
    /// runtimeConfig:
    ///   batch/v2: "true"
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// runtimeConfig:
    ///   batch/v1: "true"
    /// ```
    pub INVALID_RUNTIME_CONFIG: Error, "runtime-config that kube-apiserver refuses"
}

declare_rule! {
    /// ### What it does
    ///
    /// Reports settings in deployment material that kompat cannot read, so they are not checked: a templated or variable value (`--feature-gates=$GATES`, `{{ .Values.gates }}`), YAML that does not parse where it would hold `featureGates:` maps, a kubeadm patch that does not parse, JSON 6902 patches, kubeadm's own `featureGates`, and values whose meaning depends on a program kompat does not know.
    ///
    /// ### Why is this bad?
    ///
    /// A linter that passes what it did not read gives false confidence: these settings may still stop a component from starting.
    ///
    /// ### Example
    ///
    /// ```toml
    /// exec kube-apiserver --feature-gates="$FEATURE_GATES"
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # lint the rendered material (`helm template ... | kompat lint -`),
    /// # or allow the finding for this file once it is checked another way
    /// ```
    pub UNREAD_DEPLOYMENT_SETTING: Warning, "deployment material kompat cannot read"
}

pub static PASS: Pass = Pass {
    rules: &[
        &INVALID_GATE_SETTING,
        &DEPRECATED_GATE_SETTING,
        &GA_GATE_SETTING,
        &INVALID_RUNTIME_CONFIG,
        &UNREAD_DEPLOYMENT_SETTING,
    ],
    check: Some(check),
};

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    // Other components' settings are not judged (`missing-input` says so).
    for setting in cx.settings.iter().filter(|s| !crate::is_other_component(s)) {
        match &setting.kind {
            SettingKind::Invalid { subject, message } => out.push(
                INVALID_GATE_SETTING
                    .diag(format!("the component refuses to start: {message}"), Some(setting.location.clone()))
                    .with_subject(subject.clone()),
            ),
            SettingKind::Unread { subject, message } => out.push(
                UNREAD_DEPLOYMENT_SETTING
                    .diag(format!("not checked: {message}"), Some(setting.location.clone()))
                    .with_subject(subject.clone()),
            ),
            SettingKind::Gate { .. } | SettingKind::RuntimeConfig { .. } => (),
        }
    }
    retiring_gates(cx, out);
    runtime_config(cx, out);
}

/// Settings Kubernetes warns about at start-up: gates that are Deprecated or
/// GA at the target version, set to a value the gate accepts.
fn retiring_gates(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for group in cx.setting_groups() {
        let binary = group.binary;
        let set = Arc::new(group.gates.set.clone());
        let gate = FeatureGate::new(set.clone(), binary, None);
        for setting in &group.settings {
            let Some((name, value)) = setting.gate() else { continue };
            let Some(idx) = set.index_of(name) else { continue };
            let rule = match gate.state(idx).spec.stage {
                Stage::Deprecated => &DEPRECATED_GATE_SETTING,
                Stage::GA => &GA_GATE_SETTING,
                _ => continue,
            };
            let mut probe = gate.clone();
            let Ok(warnings) = probe.set_from_map(&BTreeMap::from([(name.to_owned(), value)])) else { continue };
            for warning in warnings {
                out.push(
                    rule.diag(format!("a {binary} component logs \"{warning}\""), Some(setting.location.clone()))
                        .with_subject(name.to_owned()),
                );
            }
        }
    }
}

type Entry<'a> = (&'a GateSetting<Location>, &'a str, &'a str);

/// Each `--runtime-config` flag or `runtimeConfig` map, validated and merged
/// as kube-apiserver does with Kubernetes' built-in APIs. Every entry that
/// fails on its own is reported at the entry; an error only the entries
/// together cause (`api/all=false` alone) at the first of them.
fn runtime_config<'a>(cx: &'a Context<'_>, out: &mut Vec<Diagnostic>) {
    let mut groups: BTreeMap<(&std::path::Path, usize), Vec<Entry<'a>>> = BTreeMap::new();
    for setting in cx.settings.iter().filter(|s| !crate::is_other_component(s)) {
        if let SettingKind::RuntimeConfig { key, value, group } = &setting.kind {
            groups.entry((setting.location.path(), *group)).or_default().push((setting, key, value));
        }
    }
    if groups.is_empty() {
        return;
    }
    let (base, target) = match cx.serve {
        Some(serve) => (serve.clone(), target(serve)),
        None => {
            let newest = newest_kubernetes();
            (ServeOptions::new(newest), format!("Kubernetes {newest}, the newest kompat knows"))
        }
    };
    let apis = kompat_k8s::apis();
    // Many files write the same entries (a kind configuration per test
    // cluster): each list of entries is served once.
    let mut served: HashMap<Vec<(&'a str, &'a str)>, Option<String>> = HashMap::new();
    let mut check = |entries: &[Entry<'a>]| {
        let pairs: Vec<(&str, &str)> = entries.iter().map(|&(_, key, value)| (key, value)).collect();
        served
            .entry(pairs)
            .or_insert_with_key(|pairs| {
                let mut config = RuntimeConfig::new();
                for (key, value) in pairs {
                    config.insert(key, value);
                }
                served_apis(apis, &ServeOptions { runtime_config: config, ..base.clone() }).err().map(|e| e.to_string())
            })
            .clone()
    };
    for entries in groups.values() {
        let Some(err) = check(entries) else { continue };
        let mut found = false;
        for entry in entries {
            if let Some(err) = check(std::slice::from_ref(entry)) {
                found = true;
                out.push(runtime_config_finding(entry, &err, &target));
            }
        }
        if !found {
            out.push(runtime_config_finding(&entries[0], &err, &target));
        }
    }
}

fn runtime_config_finding(entry: &Entry<'_>, message: &str, target: &str) -> Diagnostic {
    let (setting, key, value) = entry;
    INVALID_RUNTIME_CONFIG
        .diag(format!("kube-apiserver ({target}) refuses to start: {message}"), Some(setting.location.clone()))
        .with_subject(format!("{key}={value}"))
}

fn target(serve: &ServeOptions) -> String {
    match serve.binary {
        Some(binary) if binary != serve.emulation => format!("Kubernetes {binary} emulating {}", serve.emulation),
        _ => format!("Kubernetes {}", serve.emulation),
    }
}

/// The newest Kubernetes release in the built-in API table: the newest that
/// introduced an API (deprecations and removals may be planned for later
/// releases).
fn newest_kubernetes() -> Version {
    kompat_k8s::apis().apis().iter().map(|a| a.lifecycle.introduced).max().unwrap_or(Version::new(1, 0))
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn invalid_gate_setting() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- deploy/start.sh
exec kube-apiserver --feature-gates=Kept=maybe,Kept=ture
#                                        ^^^^^ error[invalid-gate-setting]: the component refuses to start: invalid value of Kept=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax
#                                                   ^^^^ error[invalid-gate-setting]: the component refuses to start: invalid value of Kept=ture, err: strconv.ParseBool: parsing "ture": invalid syntax
//- deploy/kubelet.yaml
kind: KubeletConfiguration
featureGates:
  Kept: "true"
#       ^^^^^^ error[invalid-gate-setting]: the component refuses to start: json: cannot unmarshal string into Go struct field KubeletConfiguration.featureGates of type bool
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
    fn deprecated_and_ga_gate_settings() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- deploy/kubelet.yaml
kind: KubeletConfiguration
featureGates:
  Old: yes
# ^^^ warning[deprecated-gate-setting]: a 1.37 component logs "Setting deprecated feature gate Old=true. It will be removed in a future release."
  Done: on
# ^^^^ warning[ga-gate-setting]: a 1.37 component logs "Setting GA feature gate Done=true. It will be removed in a future release."
  New: true
//- features.toml
[[feature]]
name = "Old"
specs = [
  { version = "1.30", stage = "Beta", default = true },
  { version = "1.36", stage = "Deprecated", default = true },
]

[[feature]]
name = "Done"
specs = [
  { version = "1.30", stage = "Beta", default = true },
  { version = "1.36", stage = "GA", default = true },
]

[[feature]]
name = "New"
specs = [
  { version = "1.36", stage = "Beta", default = true },
]
"##,
        );
    }

    #[test]
    fn invalid_runtime_config() {
        check(
            r##"
//- kompat.toml
binary_version = "1.33"
[kubernetes]
version = "1.33"
//- deploy/kind.yaml
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
runtimeConfig:
  api/alpha: "false"
  batch/v2: "true"
# ^^^^^^^^^^^^^^^^ error[invalid-runtime-config]: kube-apiserver (Kubernetes 1.33) refuses to start: group version batch/v2 that has not been registered
  widgets.example.com/v1: "true"
# ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[invalid-runtime-config]: kube-apiserver (Kubernetes 1.33) refuses to start: unknown api groups widgets.example.com
"##,
        );
    }

    #[test]
    fn runtime_config_repeated_in_many_files() {
        // The same entries in several files are found in each; other
        // entries are judged as themselves.
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.33"
//- deploy/a.yaml
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
runtimeConfig:
  batch/v2: "true"
# ^^^^^^^^^^^^^^^^ error[invalid-runtime-config]: kube-apiserver (Kubernetes 1.33) refuses to start: group version batch/v2 that has not been registered
//- deploy/b.yaml
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
runtimeConfig:
  batch/v2: "true"
# ^^^^^^^^^^^^^^^^ error[invalid-runtime-config]: kube-apiserver (Kubernetes 1.33) refuses to start: group version batch/v2 that has not been registered
//- deploy/c.yaml
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
runtimeConfig:
  api/alpha: "true"
//- deploy/d.yaml
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
runtimeConfig:
  api/alpha: "false"
  batch/v2: "true"
# ^^^^^^^^^^^^^^^^ error[invalid-runtime-config]: kube-apiserver (Kubernetes 1.33) refuses to start: group version batch/v2 that has not been registered
"##,
        );
    }

    #[test]
    fn invalid_runtime_config_without_a_version() {
        // Without a Kubernetes version: the newest release of the table. An
        // error only the entries together cause is at the first entry.
        check(
            r##"
//- deploy/kubeadm.yaml
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
apiServer:
  extraArgs:
    runtime-config: api/all=false
#                   ^^^^^^^^^^^^^ error[invalid-runtime-config]: kube-apiserver (Kubernetes 1.36, the newest kompat knows) refuses to start: invalid key with only api/all=false
"##,
        );
    }

    #[test]
    fn unread_deployment_setting() {
        check(
            r##"
//- deploy/start.sh
exec kube-apiserver --feature-gates="$FEATURE_GATES"
#                                    ^^^^^^^^^^^^^^ warning[unread-deployment-setting]: not checked: the value of `--feature-gates` is not literal (`$FEATURE_GATES`)
"##,
        );
    }
}
