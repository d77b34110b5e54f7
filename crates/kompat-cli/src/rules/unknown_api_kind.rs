//! `unknown-api-kind`: a manifest object of one of Kubernetes' built-in
//! groups whose version or kind no Kubernetes release of the data serves
//! (a typo such as `apps/v1 Deploymnet`, a kind its group-version never had
//! such as `apps/v1beta1 ReplicaSet`), with Kubernetes' own message and a
//! did-you-mean for the kind or the version. Objects of custom groups are
//! left alone unless a CRD among the inputs or installed in the cluster
//! defines their group and kind: then a version the CRD lacks is unknown
//! too. Versions that were served and are gone are `removed-api-version`'s.

use super::Pass;
use crate::sources::manifests::no_matches_for;
use crate::sources::manifests::{against_crds, CrdVerdict};
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;
use kompat_engine::api::{Api, ApiSet};
use kompat_runtime::GroupVersion;
use kompat_runtime::Version;
use kompat_runtime::suggest::did_you_mean;

declare_rule! {
    /// ### What it does
    ///
    /// Checks every object of the Kubernetes manifests linted whose `apiVersion` names one of Kubernetes' built-in groups (`apps`, `batch`, `rbac.authorization.k8s.io`, the core group, ...) and reports those whose version, or whose kind in that version, no Kubernetes release serves: Kubernetes' `no matches for kind "K" in version "G/V"`, with the version that serves the kind at the target (`use apps/v1 ReplicaSet`), or the closest kind or version (`did you mean`). The built-in kinds are those of `k8s.io/api` at every release tag the data was generated from. Objects of other groups (custom resources) are checked against their CRD when one among the inputs, or in `crds = [...]` / `--crds` (CRDs installed in the cluster), defines their group and kind: a version the CRD does not have is this error, naming the versions it serves. Lists (`List`, `*List`), kubeconfig files (`v1 Config`) and the configurations of kustomize's built-in plugins (`apiVersion: builtin`) are not checked; a version that was served and is gone is `removed-api-version`.
    ///
    /// ### Why is this bad?
    ///
    /// `kubectl apply` and Helm fail on the object with `no matches for kind`, on every cluster: a typo in a kind, or a kind looked up in the wrong version of its group, is found only at deploy time.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # kompat lint deploy.yaml --kubernetes-version 1.35
    /// apiVersion: apps/v1
    /// kind: Deploymnet
    /// ---
    /// apiVersion: apps/v1beta1
    /// kind: ReplicaSet
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// apiVersion: apps/v1
    /// kind: Deployment
    /// ---
    /// apiVersion: apps/v1
    /// kind: ReplicaSet
    /// ```
    pub UNKNOWN_API_KIND: Error, "a manifest uses a kind or version of a built-in API group that Kubernetes does not have"
}

pub static PASS: Pass = Pass { rules: &[&UNKNOWN_API_KIND], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(manifests) = cx.manifests else { return };
    let set = kompat_k8s::apis();
    let at = manifests.emulation();
    for object in &manifests.unknown {
        let (group, version, kind) = (&object.group, &object.version, &object.kind);
        let message = format!(
            "{} on {}: {}",
            no_matches_for(group, version, kind),
            manifests.target(),
            why(set, group, version, kind, at)
        );
        out.push(
            UNKNOWN_API_KIND
                .diag(message, Some(object.location.clone()))
                .with_subject(format!("{group}/{version}/{kind}")),
        );
    }
    for (object, verdict) in against_crds(manifests, &super::crd::known_crds(cx)) {
        if let CrdVerdict::Unknown(message) = verdict {
            out.push(
                UNKNOWN_API_KIND
                    .diag(message, Some(object.location.clone()))
                    .with_subject(format!("{}/{}/{}", object.group, object.version, object.kind)),
            );
        }
    }
}

/// Why `group`/`version` `kind` is unknown, with the way out: the version
/// of the group that serves the kind at `at`, else the closest kind or
/// version.
fn why(set: &ApiSet, group: &str, version: &str, kind: &str, at: Version) -> String {
    let gv = GroupVersion { group: group.to_owned(), version: version.to_owned() };
    let versions = set.prioritized_versions(group);
    // The kind in another version of the group, served at the target,
    // most preferred first.
    let serving = versions.iter().filter_map(|v| set.find_kind(group, v, kind)).find(|a| serves(a, at));
    let use_instead = |api: &Api| format!("; use {} {}", api.group_version(), api.kind());
    if versions.iter().any(|v| v == version) {
        let what = format!("{gv} has no kind {kind}");
        if let Some(api) = serving {
            return format!("{what}{}", use_instead(api));
        }
        // A kind of this group-version, else of another version of the group.
        let here = did_you_mean(kind, set.apis_in(group, version).map(Api::kind));
        let hint = match here {
            Some(k) => Some(format!("`{k}`")),
            None => {
                let elsewhere = set.apis().iter().filter(|a| a.group() == group && serves(a, at));
                let near = did_you_mean(kind, elsewhere.clone().map(Api::kind));
                near.and_then(|k| elsewhere.clone().find(|a| a.kind() == k))
                    .map(|a| format!("`{} {}`", a.group_version(), a.kind()))
            }
        };
        return format!("{what}{}", hint.map(|h| format!(" (did you mean {h}?)")).unwrap_or_default());
    }
    let name = if group.is_empty() { "the core group".to_owned() } else { group.to_owned() };
    let what = format!("{name} has no version {version}");
    if let Some(api) = serving {
        return format!("{what}{}", use_instead(api));
    }
    // A version the target serves, else any version of the group.
    let served = versions.iter().filter(|v| set.apis_in(group, v).any(|a| serves(a, at)));
    let near = did_you_mean(version, served.map(String::as_str))
        .or_else(|| did_you_mean(version, versions.iter().map(String::as_str)));
    let hint = near.map(|v| {
        let gv = GroupVersion { group: group.to_owned(), version: v.to_owned() };
        format!(" (did you mean `{gv}`?)")
    });
    format!("{what}{}", hint.unwrap_or_default())
}

/// Served by a server of version `at`: introduced and not removed.
fn serves(api: &Api, at: Version) -> bool {
    api.lifecycle.introduced <= at && api.served_at(at)
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn unknown_kinds_and_versions_of_builtin_groups() {
        check(
            r##"
//- kompat.toml
binary_version = "1.35"
[kubernetes]
version = "1.35"
//- deploy/apps.yaml
apiVersion: apps/v1
#           ^^^^^^^ error[unknown-api-kind]: no matches for kind "Deploymnet" in version "apps/v1" on Kubernetes 1.35: apps/v1 has no kind Deploymnet (did you mean `Deployment`?)
kind: Deploymnet
---
apiVersion: apps/v1beta1
#           ^^^^^^^^^^^^ error[unknown-api-kind]: no matches for kind "ReplicaSet" in version "apps/v1beta1" on Kubernetes 1.35: apps/v1beta1 has no kind ReplicaSet; use apps/v1 ReplicaSet
kind: ReplicaSet
---
apiVersion: apps/v1beta1
#           ^^^^^^^^^^^^ error[unknown-api-kind]: no matches for kind "DaemonSt" in version "apps/v1beta1" on Kubernetes 1.35: apps/v1beta1 has no kind DaemonSt (did you mean `apps/v1 DaemonSet`?)
kind: DaemonSt
---
apiVersion: apps/v2
#           ^^^^^^^ error[unknown-api-kind]: no matches for kind "Deployment" in version "apps/v2" on Kubernetes 1.35: apps has no version v2; use apps/v1 Deployment
kind: Deployment
---
apiVersion: apps/v1beta9
#           ^^^^^^^^^^^^ error[unknown-api-kind]: no matches for kind "Gadget" in version "apps/v1beta9" on Kubernetes 1.35: apps has no version v1beta9 (did you mean `apps/v1beta1`?)
kind: Gadget
---
apiVersion: apps/v11
#           ^^^^^^^^ error[unknown-api-kind]: no matches for kind "Gadget" in version "apps/v11" on Kubernetes 1.35: apps has no version v11 (did you mean `apps/v1`?)
kind: Gadget
---
apiVersion: batch/v1beta3
#           ^^^^^^^^^^^^^ error[unknown-api-kind]: no matches for kind "Gadget" in version "batch/v1beta3" on Kubernetes 1.35: batch has no version v1beta3 (did you mean `batch/v1beta1`?)
kind: Gadget
---
apiVersion: v2
#           ^^ error[unknown-api-kind]: no matches for kind "Pod" in version "v2" on Kubernetes 1.35: the core group has no version v2; use v1 Pod
kind: Pod
---
apiVersion: v1
#           ^^ error[unknown-api-kind]: no matches for kind "ConfgMap" in version "v1" on Kubernetes 1.35: v1 has no kind ConfgMap (did you mean `ConfigMap`?)
kind: ConfgMap
"##,
        );
    }

    #[test]
    fn known_kinds_lists_and_custom_groups_are_left_alone() {
        check(
            r##"
//- kompat.toml
binary_version = "1.35"
[kubernetes]
version = "1.35"
//- deploy/ok.yaml
apiVersion: apps/v1
kind: Deployment
---
apiVersion: v1
kind: ConfigMap
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
---
apiVersion: v1
kind: PodList
---
apiVersion: example.com/v1alpha1
kind: Deploymnet
---
apiVersion: cert-manager.io/v1
kind: Certificate
//- kubeconfig.yaml
apiVersion: v1
kind: Config
clusters: []
//- config/default/prefix_transformer.yaml
apiVersion: builtin
kind: PrefixSuffixTransformer
metadata:
  name: prefix
prefix: widget-
"##,
        );
    }

    #[test]
    fn a_removed_version_is_removed_not_unknown() {
        // rbac.authorization.k8s.io/v1alpha1 was served (off by default)
        // until 1.22.
        check(
            r##"
//- kompat.toml
binary_version = "1.22"
[kubernetes]
version = "1.22"
//- rbac.yaml
apiVersion: rbac.authorization.k8s.io/v1alpha1
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "ClusterRole" in version "rbac.authorization.k8s.io/v1alpha1" on Kubernetes 1.22: removed in 1.22
kind: ClusterRole
"##,
        );
    }
}

#[cfg(test)]
mod custom_resources {
    use crate::test_support::check;

    /// A CRD in two editions among the inputs (Gateway API's standard and
    /// experimental channels): an object is judged by the edition that
    /// serves it, since the cluster may run either.
    #[test]
    fn a_crd_in_two_editions_serves_what_either_serves() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.35"
//- crds/standard/tcproutes.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: tcproutes.gateway.networking.k8s.io
spec:
  group: gateway.networking.k8s.io
  names:
    kind: TCPRoute
    plural: tcproutes
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
  - name: v1alpha2
    served: false
    storage: false
    schema:
      openAPIV3Schema:
        type: object
//- crds/experimental/tcproutes.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: tcproutes.gateway.networking.k8s.io
spec:
  group: gateway.networking.k8s.io
  names:
    kind: TCPRoute
    plural: tcproutes
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
  - name: v1alpha2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
//- examples/route.yaml
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
---
apiVersion: gateway.networking.k8s.io/v1alpha1
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-api-kind]: no matches for kind "TCPRoute" in version "gateway.networking.k8s.io/v1alpha1": the CRD tcproutes.gateway.networking.k8s.io has no version v1alpha1; it serves gateway.networking.k8s.io/v1
kind: TCPRoute
"##,
        );
    }

    #[test]
    fn custom_resources_are_judged_against_their_crds() {
        check(
            r##"
//- kompat.toml
binary_version = "1.35"
[kubernetes]
version = "1.35"
//- crds/certificates.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.cert-manager.io
spec:
  group: cert-manager.io
  names:
    kind: Certificate
    plural: certificates
  scope: Namespaced
  conversion:
    strategy: Webhook
#             ^^^^^^^ note[conversion-checks-skipped]: `missing-preserve-unknown-fields` and `undeclared-conversion` did not run between its versions: a conversion webhook converts
#             ^^^^^^^ warning[conversion-webhook]: `spec.conversion.strategy: Webhook` makes every request depend on a conversion webhook
  versions:
  - name: v1
#         ^^ error[missing-schema]: version `v1` has no `schema.openAPIV3Schema`
    served: true
    storage: true
  - name: v1beta1
#         ^^^^^^^ error[missing-schema]: version `v1beta1` has no `schema.openAPIV3Schema`
    served: true
    storage: false
    deprecated: true
    deprecationWarning: "cert-manager.io/v1beta1 Certificate is deprecated; use cert-manager.io/v1"
  - name: v1alpha3
#         ^^^^^^^^ error[missing-schema]: version `v1alpha3` has no `schema.openAPIV3Schema`
    served: true
    storage: false
    deprecated: true
#               ^^^^ warning[deprecated-without-warning]: deprecated version `v1alpha3` has no `deprecationWarning`
  - name: v1alpha2
#         ^^^^^^^^ error[missing-schema]: version `v1alpha2` has no `schema.openAPIV3Schema`
    served: false
    storage: false
//- deploy/certs.yaml
apiVersion: cert-manager.io/v1
kind: Certificate
---
apiVersion: cert-manager.io/v1alpha1
#           ^^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-api-kind]: no matches for kind "Certificate" in version "cert-manager.io/v1alpha1": the CRD certificates.cert-manager.io has no version v1alpha1; it serves cert-manager.io/v1, cert-manager.io/v1beta1, cert-manager.io/v1alpha3
kind: Certificate
---
apiVersion: cert-manager.io/v1alpha2
#           ^^^^^^^^^^^^^^^^^^^^^^^^ error[unserved-api-version]: no matches for kind "Certificate" in version "cert-manager.io/v1alpha2": version v1alpha2 of the CRD certificates.cert-manager.io is not served (`served: false`); it serves cert-manager.io/v1, cert-manager.io/v1beta1, cert-manager.io/v1alpha3
kind: Certificate
---
apiVersion: cert-manager.io/v1beta1
#           ^^^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-api-version]: cert-manager.io/v1beta1 Certificate is deprecated; use cert-manager.io/v1
kind: Certificate
---
apiVersion: cert-manager.io/v1alpha3
#           ^^^^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-api-version]: cert-manager.io/v1alpha3 Certificate is deprecated; use cert-manager.io/v1 Certificate
kind: Certificate
---
apiVersion: cert-manager.io/v1alpha1
kind: Issuer
---
apiVersion: example.com/v9
kind: Certificate
"##,
        );
    }
}
