//! `storage-version-without-kind`: at some point of the window the storage
//! version falls back to the group's top version, which lacks the kind.

use kompat_engine::api::ApiField;

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Computes the storage version of every resource at every emulation and min-compatibility version in the window, and reports a resource whose storage version falls back to the group's top version while that version does not have the resource's kind.
    ///
    /// ### Why is this bad?
    ///
    /// When every version of a kind was introduced after the emulation version, kube-apiserver falls back to the group's preferred version; if that version lacks the kind, building the resource's storage fails its codec check and the server does not start (kubernetes#141148).
    ///
    /// ### Example
    ///
    /// ```toml
    /// # WidgetPool exists only in v1beta1 (introduced 1.37); the group's top version v1 has no WidgetPool
    /// # emulating 1.36 falls back to widgets.example.io/v1
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # pin the storage version while emulating older releases:
    /// [storage_overrides]
    /// "widgets.example.io/widgetpools" = "v1beta1"
    /// ```
    pub STORAGE_VERSION_WITHOUT_KIND: Error, "the storage version of a resource lacks its kind at some emulation version"
}

pub static PASS: Pass = Pass { rules: &[&STORAGE_VERSION_WITHOUT_KIND], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    let mut reported = std::collections::BTreeSet::new();
    // CRDs are not among them: a CRD's storage version is its manifest's,
    // not kube-apiserver's choice.
    for point in cx.server_storage {
        let (emu, mc) = (point.emulation, point.min_compatibility);
        for storage in &point.resources {
            if storage.kind_in_storage_version || !reported.insert(storage.group_resource()) {
                continue;
            }
            let api = set.apis().iter().find(|a| a.group() == storage.group && a.resource == storage.resource);
            out.push(STORAGE_VERSION_WITHOUT_KIND.diag(format!(
                    "at emulation version {emu} (min-compatibility {mc}) {} would be stored as {}, which has no kind {}",
                    storage.group_resource(),
                    storage.encoding_version(),
                    storage.kind
                ), api.and_then(|a| cx.decls.locate_api(a.index, ApiField::Introduced))).with_subject(storage.group_resource().to_string()).with_notes(vec!["kube-apiserver would fail to build this resource's storage (kubernetes#141148)".to_owned()]));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn storage_version_without_kind() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
[[api]]
group = "g.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"

[[api]]
group = "g.example.io"
version = "v1beta1"
kind = "Gadget"
resource = "gadgets"
introduced = "1.38"            # after the binary: every emulation version falls back
#            ^^^^^^ error[storage-version-without-kind]: at emulation version 1.34 (min-compatibility 1.34) gadgets.g.example.io would be stored as g.example.io/v1, which has no kind Gadget
deprecated = "1.41"
removed = "1.44"
"##,
        );
    }

    /// The same Gadget as a CRD (its manifest among the inputs): stored in
    /// the manifest's `storage: true` version, whatever kube-apiserver would
    /// choose for a built-in resource.
    #[test]
    fn crds_store_their_storage_version() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
[[api]]
group = "g.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"

[[api]]
group = "g.example.io"
version = "v1beta1"
kind = "Gadget"
resource = "gadgets"
introduced = "1.38"
deprecated = "1.41"
removed = "1.44"
//- gadgets.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.g.example.io
spec:
  group: g.example.io
  names:
    kind: Gadget
    plural: gadgets
  scope: Namespaced
  versions:
  - name: v1beta1
    served: true
#           ^^^^ error[crd-lifecycle-mismatch]: version `v1beta1` of CRD `gadgets.g.example.io` is served, but its lifecycle introduces it in 1.38 (binary version 1.37)
    storage: true
#            ^^^^ error[crd-lifecycle-mismatch]: storage version `v1beta1` of CRD `gadgets.g.example.io` is not a version its lifecycle has at binary version 1.37
    schema:
      openAPIV3Schema: {type: object}
"##,
        );
    }
}
