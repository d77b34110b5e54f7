//! `removed-api-version`: a manifest object of a built-in (or declared) API
//! version the target server no longer serves, because it was removed.

use super::Pass;
use crate::sources::manifests::{no_matches, replacement, Checked, PerApi};
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::{Diagnostic, Text};

declare_rule! {
    /// ### What it does
    ///
    /// Checks every object of the Kubernetes manifests linted (YAML and JSON files, `kind: List` items, `helm template` output on standard input) against Kubernetes' built-in API lifecycles, and reports objects whose `apiVersion` was removed at or before the target version (`--emulation-version`, else the binary version), with the release that removed it and the replacement. The CustomResourceDefinitions of CRD manifests are objects too: an `apiextensions.k8s.io/v1beta1` CRD is served up to 1.21 and reported from 1.22. Configuration that names the code this had once, `removed-crd-api-version`, applies to this one. On an upgrade path (`--kubernetes-version A..B`, or `[kubernetes] version = "A..B"`) the objects are checked at every release of the path, and the message names the releases the finding appears at (`(from Kubernetes 1.32 on the path 1.30..1.34)`).
    ///
    /// ### Why is this bad?
    ///
    /// The API server does not serve a removed version at all: `kubectl apply` fails with `no matches for kind`, and a Helm upgrade stops half-way. The manifest must be migrated before the cluster is upgraded.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # kompat lint ingress.yaml --binary-version 1.37
    /// apiVersion: extensions/v1beta1
    /// kind: Ingress
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// apiVersion: networking.k8s.io/v1
    /// kind: Ingress
    /// ```
    pub REMOVED_API_VERSION: Error, "a manifest uses an API version the target version no longer serves"
}

pub static PASS: Pass = Pass { rules: &[&REMOVED_API_VERSION], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(manifests) = cx.manifests else { return };
    let emulation = manifests.emulation();
    let removed_in = |c: &Checked<'_>| c.api.lifecycle.removed.filter(|_| !c.api.served_at(emulation));
    // Room for every finding at once: grown by doubling, the findings of a
    // large manifest would be held twice while they are moved.
    out.reserve(manifests.checked.iter().filter(|c| removed_in(c).is_some()).count());
    let mut said = PerApi::new();
    for c in &manifests.checked {
        let Some(removed) = removed_in(c) else { continue };
        let (message, subject) = said.get(&c.api, || {
            let message =
                format!("{} on {}: removed in {removed}{}", no_matches(c), manifests.target(), replacement(&c.api));
            (Text::from(message), Text::from(c.api.gvk.to_string()))
        });
        out.push(REMOVED_API_VERSION.diag(message, Some(c.object.location.clone())).with_subject(subject));
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn removed_api_version() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
[kubernetes]
version = "1.37"
//- deploy/ingress.yaml
apiVersion: extensions/v1beta1
#           ^^^^^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "Ingress" in version "extensions/v1beta1" on Kubernetes 1.37: removed in 1.22; use networking.k8s.io/v1 Ingress
kind: Ingress
---
apiVersion: networking.k8s.io/v1
kind: Ingress
---
apiVersion: example.com/v1alpha1
kind: Widget
//- deploy/psp.json
{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "policy/v1beta1", "kind": "PodSecurityPolicy"}
#                ^^^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "PodSecurityPolicy" in version "policy/v1beta1" on Kubernetes 1.37: removed in 1.25
]}
"##,
        );
    }

    #[test]
    fn removed_at_the_emulation_version() {
        // flowcontrol v1beta3 is removed in 1.32: a 1.37 binary emulating
        // 1.31 still serves it (deprecated), emulating 1.32 it does not.
        check(
            r##"
//- kompat.toml
binary_version = "1.31"
[kubernetes]
version = "1.31"
//- fc.yaml
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-api-version]: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema
kind: FlowSchema
"##,
        );
        check(
            r##"
//- kompat.toml
binary_version = "1.32"
[kubernetes]
version = "1.32"
//- fc.yaml
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "FlowSchema" in version "flowcontrol.apiserver.k8s.io/v1beta3" on Kubernetes 1.32: removed in 1.32; use flowcontrol.apiserver.k8s.io/v1 FlowSchema
kind: FlowSchema
"##,
        );
    }

    #[test]
    fn v1beta1_crds_at_the_target() {
        // apiextensions.k8s.io/v1beta1 is served (deprecated) up to 1.21 and
        // removed in 1.22: the CRD is a manifest object like any other.
        check(
            r##"
//- kompat.toml
binary_version = "1.21"
[kubernetes]
version = "1.21"
//- crds/gadget.yaml
apiVersion: apiextensions.k8s.io/v1beta1
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-api-version]: apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated in v1.16+, unavailable in v1.22+; use apiextensions.k8s.io/v1 CustomResourceDefinition
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.io
spec:
  group: example.io
  version: v1
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
"##,
        );
        check(
            r##"
//- kompat.toml
binary_version = "1.22"
[kubernetes]
version = "1.22"
//- crds/gadget.yaml
apiVersion: apiextensions.k8s.io/v1beta1
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[removed-api-version]: no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1" on Kubernetes 1.22: removed in 1.22; use apiextensions.k8s.io/v1 CustomResourceDefinition
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.io
spec:
  group: example.io
  version: v1
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
"##,
        );
    }

    #[test]
    fn the_old_crd_code_is_an_alias() {
        // `removed-crd-api-version` in configuration applies to
        // `removed-api-version`: levels, allowances and inline allowances.
        check(
            r##"
//- kompat.toml
binary_version = "1.22"
[lint.levels]
removed-crd-api-version = "warn"
[kubernetes]
version = "1.22"
//- crds/gadget.yaml
apiVersion: apiextensions.k8s.io/v1beta1
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[removed-api-version]: no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1" on Kubernetes 1.22: removed in 1.22; use apiextensions.k8s.io/v1 CustomResourceDefinition
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.io
spec:
  group: example.io
  version: v1
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
"##,
        );
        check(
            r##"
//- kompat.toml
binary_version = "1.22"
[[lint.allow]]
code = "removed-crd-api-version"
reason = "the chart supports 1.21 clusters until March"
[kubernetes]
version = "1.22"
//- crds/gadget.yaml
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.io
spec:
  group: example.io
  version: v1
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
"##,
        );
        check(
            r##"
//- kompat.toml
binary_version = "1.22"
[kubernetes]
version = "1.22"
//- crds/gadget.yaml
# kompat:allow(removed-crd-api-version) installed on 1.21 clusters only
apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.io
spec:
  group: example.io
  version: v1
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
"##,
        );
    }
}
