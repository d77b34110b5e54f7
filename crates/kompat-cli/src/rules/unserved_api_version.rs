//! `unserved-api-version`: a manifest object of an API version the target
//! server does not serve yet: introduced after the emulation version, or
//! off by default (or turned off) under `--runtime-config`, per KEP-4330's
//! serving rules (`kompat_engine::api::served_apis`); or a custom resource
//! of a version its CRD has with `served: false`.

use super::Pass;
use crate::sources::manifests::no_matches;
use crate::sources::manifests::{against_crds, CrdVerdict, PerApi};
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::{Diagnostic, Text};

declare_rule! {
    /// ### What it does
    ///
    /// Reports objects of the Kubernetes manifests linted whose `apiVersion` the target server does not serve although the version is not removed: it is introduced after the emulation version (a 1.37 binary emulating 1.35 serves what 1.35 served, unless `--emulation-forward-compatible` lets it serve newer versions of APIs enabled at 1.35), or it is an alpha or beta API that is off by default and not enabled with `--runtime-config`, or `--runtime-config` turns it off. The rules are kube-apiserver's, as `kompat apis --kubernetes` prints them. A custom resource whose CRD (among the inputs, or in `crds = [...]` / `--crds`) has its version with `served: false` is reported too.
    ///
    /// ### Why is this bad?
    ///
    /// `kubectl apply` fails with `no matches for kind`: the manifest needs an API the cluster does not have yet. During an upgrade with `--emulation-version`, the new binary keeps serving the old release's APIs until the emulation version is raised.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # kompat lint policy.yaml --binary-version 1.37 --emulation-version 1.35
    /// apiVersion: admissionregistration.k8s.io/v1   # introduced in 1.36
    /// kind: MutatingAdmissionPolicy
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # apply it once the emulation version is 1.36, or use a version 1.35
    /// # serves (with --runtime-config=admissionregistration.k8s.io/v1beta1=true)
    /// apiVersion: admissionregistration.k8s.io/v1beta1
    /// kind: MutatingAdmissionPolicy
    /// ```
    pub UNSERVED_API_VERSION: Error, "a manifest uses an API version the target server does not serve yet"
}

pub static PASS: Pass = Pass { rules: &[&UNSERVED_API_VERSION], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(manifests) = cx.manifests else { return };
    let emulation = manifests.emulation();
    let mut said = PerApi::new();
    for c in &manifests.checked {
        if c.served || !c.api.served_at(emulation) {
            continue;
        }
        let (message, subject) = said.get(&c.api, || {
            let introduced = c.api.lifecycle.introduced;
            let why = if introduced > emulation {
                format!("introduced in {introduced}")
            } else if !c.api.enabled_by_default {
                format!("off by default; enable it with --runtime-config={}=true", c.api.group_version())
            } else {
                "turned off by --runtime-config".to_owned()
            };
            (Text::from(format!("{} on {}: {why}", no_matches(c), manifests.target())), Text::from(c.api.gvk.to_string()))
        });
        out.push(UNSERVED_API_VERSION.diag(message, Some(c.object.location.clone())).with_subject(subject));
    }
    for (object, verdict) in against_crds(manifests, &super::crd::known_crds(cx)) {
        if let CrdVerdict::Unserved(message) = verdict {
            out.push(
                UNSERVED_API_VERSION
                    .diag(message, Some(object.location.clone()))
                    .with_subject(format!("{}/{}/{}", object.group, object.version, object.kind)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn introduced_after_the_emulation_version() {
        check(
            r##"
//- kompat.toml
binary_version = "1.33"
[kubernetes]
version = "1.33"
//- claim.yaml
apiVersion: resource.k8s.io/v1
#           ^^^^^^^^^^^^^^^^^^ error[unserved-api-version]: no matches for kind "ResourceClaim" in version "resource.k8s.io/v1" on Kubernetes 1.33: introduced in 1.34
kind: ResourceClaim
"##,
        );
    }

    #[test]
    fn off_by_default() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
[kubernetes]
version = "1.37"
//- claim.yaml
apiVersion: resource.k8s.io/v1beta2
#           ^^^^^^^^^^^^^^^^^^^^^^^ error[unserved-api-version]: no matches for kind "ResourceClaim" in version "resource.k8s.io/v1beta2" on Kubernetes 1.37: off by default; enable it with --runtime-config=resource.k8s.io/v1beta2=true
kind: ResourceClaim
"##,
        );
    }
}
