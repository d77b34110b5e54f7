//! `deprecated-api-version`: a manifest object of an API version the target
//! server still serves but has deprecated, or a custom resource of a version
//! its CRD marks `deprecated: true`, with the CRD's `deprecationWarning`.

use kompat_runtime::is_deprecated;

use super::Pass;
use crate::sources::manifests::replacement;
use crate::sources::manifests::{against_crds, CrdVerdict, PerApi};
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::{Diagnostic, Text};

declare_rule! {
    /// ### What it does
    ///
    /// Reports objects of the Kubernetes manifests linted whose `apiVersion` the target version (`--emulation-version`, else the binary version) still serves but has deprecated, with Kubernetes' own deprecation warning: the release that deprecated it, the release that removes it, and the replacement. A custom resource whose CRD (among the inputs, or in `crds = [...]` / `--crds`) marks its version `deprecated: true` gets the apiserver's warning for it, the CRD's `deprecationWarning` or else `<group>/<version> <Kind> is deprecated`, with a note naming the version the CRD stores and its conversion strategy when that is another version. On an upgrade path (`--kubernetes-version A..B`, or `[kubernetes] version = "A..B"`) the objects are checked at every release of the path, and the message names the releases the finding appears at (`(from Kubernetes 1.32 on the path 1.30..1.34)`).
    ///
    /// ### Why is this bad?
    ///
    /// The API server answers every request for it with a deprecation warning, and a later upgrade removes it: manifests still using it then fail to apply.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # kompat lint fc.yaml --binary-version 1.30
    /// apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
    /// kind: FlowSchema
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// apiVersion: flowcontrol.apiserver.k8s.io/v1
    /// kind: FlowSchema
    /// ```
    pub DEPRECATED_API_VERSION: Warning, "a manifest uses an API version the target version has deprecated"
}

pub static PASS: Pass = Pass { rules: &[&DEPRECATED_API_VERSION], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(manifests) = cx.manifests else { return };
    let emulation = manifests.emulation();
    let mut said = PerApi::new();
    for c in &manifests.checked {
        if !c.served || !is_deprecated(c.api.lifecycle.deprecated, emulation) {
            continue;
        }
        // Kubernetes' `deprecation.WarningMessage`.
        let Some((message, subject)) = said.get(&c.api, || {
            let warning =
                kompat_runtime::warning_message(&c.api.gvk, c.api.lifecycle.deprecated, c.api.lifecycle.removed, None)?;
            Some((Text::from(format!("{warning}{}", replacement(&c.api))), Text::from(c.api.gvk.to_string())))
        }) else {
            continue;
        };
        out.push(DEPRECATED_API_VERSION.diag(message, Some(c.object.location.clone())).with_subject(subject));
    }
    for (object, verdict) in against_crds(manifests, &super::crd::known_crds(cx)) {
        if let CrdVerdict::Deprecated(message, stored) = verdict {
            out.push(
                DEPRECATED_API_VERSION
                    .diag(message, Some(object.location.clone()))
                    .with_notes(stored)
                    .with_subject(format!("{}/{}/{}", object.group, object.version, object.kind)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn deprecated_api_version() {
        check(
            r##"
//- kompat.toml
binary_version = "1.30"
[kubernetes]
version = "1.30"
//- deploy/fc.yaml
kind: PriorityLevelConfiguration
apiVersion: "flowcontrol.apiserver.k8s.io/v1beta3"
#           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[deprecated-api-version]: flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
"##,
        );
    }

    #[test]
    fn not_before_the_deprecation() {
        check(
            r##"
//- kompat.toml
binary_version = "1.28"
[kubernetes]
version = "1.28"
//- deploy/fc.yaml
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
"##,
        );
    }
}
