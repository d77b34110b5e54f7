//! `crd-lifecycle-mismatch`: an API lifecycle declared for a CRD's kind (a
//! kube-rs `#[derive(CustomResource, ApiLifecycle)]` type, or an `[[api]]`
//! entry) that disagrees with the CRD manifest among the inputs: versions,
//! served flags, deprecation and the storage version.
//!
//! Also the one answer to "is this API a CRD" ([`CrdKinds`]): a kube-rs
//! custom resource, or a group and kind that a CRD manifest among the inputs
//! defines. CRDs follow CRD semantics, not kube-apiserver's built-in rules:
//! their storage version is the manifest's `storage: true` version and every
//! served version is decodable through conversion, so the built-in storage
//! rules skip them.

use std::collections::BTreeSet;

use kompat_crd::Crd;
use kompat_diag::declare_rule;
use kompat_engine::api::{Api, ApiField};
use kompat_runtime::Version;
use kompat_project::Decls;

use super::crd::CrdInput;
use super::Pass;
use crate::Context;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Compares the lifecycle declared for a CRD's kind (`#[derive(CustomResource, ApiLifecycle)]` types, or `[[api]]` entries of the same group and kind) with the CRD manifest among the inputs (the one kube-rs' `merge_crds` writes, checked in): every version of the manifest must be declared, every version the lifecycle has at the binary version must be in the manifest and served, no version the lifecycle has removed (or not yet introduced) may be served, a served version is marked `deprecated` exactly when the lifecycle deprecates it at the binary version (either way the finding points at the declaration that disagrees: the lifecycle's `deprecated` release, or kube-rs' `#[kube(deprecated)]`, and quotes the CRD's `deprecationWarning`), and the `storage: true` version must be one the lifecycle has.
    ///
    /// ### Why is this bad?
    ///
    /// The manifest is what the API server serves and stores; the lifecycle is what the code, the generated tables and the other rules believe. When they disagree, clients are told a version exists that the cluster does not serve, or objects are stored in a version the code considers gone.
    ///
    /// ### Example
    ///
    /// ```text
    /// // v1alpha1 removed in 1.36 by its lifecycle; binary version 1.37
    /// #[derive(CustomResource, ApiLifecycle)]
    /// #[kube(group = "example.io", version = "v1alpha1", kind = "Widget")]
    /// #[kompat(api(introduced = "1.30", removed = "1.36"))]
    /// pub struct WidgetSpec {}
    /// // crd.yaml still has `- name: v1alpha1` with `served: true`
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```yaml
    /// # regenerate the CRD without v1alpha1 (or with `served: false`), or fix the lifecycle
    /// ```
    pub CRD_LIFECYCLE_MISMATCH: Error, "a CRD's declared lifecycle disagrees with its manifest"
}

pub static PASS: Pass = Pass { rules: &[&CRD_LIFECYCLE_MISMATCH], check: Some(check) };

/// The kinds that are CRDs: the declarations' ([`Decls::is_crd`]) and those
/// of the CRD manifests linted.
pub struct CrdKinds<'a> {
    manifests: BTreeSet<(String, String)>,
    decls: &'a Decls,
}

impl<'a> CrdKinds<'a> {
    /// The kube-rs custom resources of the Rust sources and the kinds the
    /// CRD manifests among the inputs define.
    pub fn new(decls: &'a Decls, crds: &[CrdInput]) -> CrdKinds<'a> {
        let kinds = crds.iter().flat_map(|i| &i.crds).map(|c| (c.group.value.clone(), c.kind.value.clone()));
        CrdKinds { manifests: kinds.collect(), decls }
    }

    pub fn is_crd(&self, group: &str, kind: &str) -> bool {
        self.manifests.iter().any(|(g, k)| g == group && k == kind) || self.decls.is_crd(group, kind)
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    for input in cx.crds {
        for crd in input.crds.iter().filter(|c| c.is_v1()) {
            let declared: Vec<&Api> =
                set.apis().iter().filter(|a| a.group() == crd.group.value && a.kind() == crd.kind.value).collect();
            if declared.is_empty() {
                continue;
            }
            compare(cx, input, crd, &declared, out);
        }
    }
}

/// Whether the lifecycle has the version at `binary`: introduced at or
/// before it and not removed.
fn available(api: &Api, binary: Version) -> bool {
    api.lifecycle.introduced <= binary && api.served_at(binary)
}

fn compare(cx: &Context<'_>, input: &CrdInput, crd: &Crd, declared: &[&Api], out: &mut Vec<Diagnostic>) {
    let at = |span: kompat_span::Span| input.source.locate(span.start, span.end);
    let id = crd.id();
    let file = input.source.path.display();
    let declared_where = |api: &Api| cx.decls.locate_api(api.index, ApiField::Version);
    for version in &crd.versions {
        let name = &version.name.value;
        let subject = crd.subject(name);
        let Some(api) = declared.iter().find(|a| a.version() == name) else {
            out.push(
                CRD_LIFECYCLE_MISMATCH
                    .diag(
                        format!("version `{name}` of CRD `{id}` has no lifecycle declaration for {}", crd.kind.value),
                        at(version.name.span),
                    )
                    .with_subject(subject)
                    .with_note(format!(
                        "declare it (`#[derive(ApiLifecycle)]` on its kube-rs type, or an `[[api]]` entry for `{}/{name}/{}`), or drop it from the CRD",
                        crd.group.value, crd.kind.value
                    )),
            );
            continue;
        };
        let Some(binary) = cx.binary else { continue };
        let lifecycle = &api.lifecycle;
        if version.served.value && !available(api, binary) {
            let why = match lifecycle.removed.filter(|r| *r <= binary) {
                Some(removed) => format!("its lifecycle removes it in {removed}"),
                None => format!("its lifecycle introduces it in {}", lifecycle.introduced),
            };
            out.push(
                CRD_LIFECYCLE_MISMATCH
                    .diag(
                        format!("version `{name}` of CRD `{id}` is served, but {why} (binary version {binary})"),
                        at(version.served.span),
                    )
                    .with_subject(subject.clone())
                    .with_label(declared_where(api).unwrap_or_else(|| input.source.whole()), "the lifecycle"),
            );
        } else if !version.served.value && available(api, binary) {
            out.push(
                CRD_LIFECYCLE_MISMATCH
                    .diag(
                        format!(
                            "version `{name}` of CRD `{id}` is not served, but its lifecycle serves it from {} (binary version {binary})",
                            lifecycle.introduced
                        ),
                        at(version.served.span),
                    )
                    .with_subject(subject.clone())
                    .with_label(declared_where(api).unwrap_or_else(|| input.source.whole()), "the lifecycle"),
            );
        }
        if version.served.value && available(api, binary) {
            deprecation(cx, input, crd, version, api, binary, out);
        }
        if version.storage.value && !available(api, binary) && crd.storage_version().is_some() {
            out.push(
                CRD_LIFECYCLE_MISMATCH
                    .diag(
                        format!(
                            "storage version `{name}` of CRD `{id}` is not a version its lifecycle has at binary version {binary}"
                        ),
                        at(version.storage.span),
                    )
                    .with_subject(subject)
                    .with_note("objects are written in the storage version: make it one the lifecycle serves (kube-rs: the version named in `merge_crds`)")
                    .with_label(declared_where(api).unwrap_or_else(|| input.source.whole()), "the lifecycle"),
            );
        }
    }
    for api in declared {
        let name = api.version();
        if crd.version(name).is_some() {
            continue;
        }
        // A version the lifecycle no longer (or not yet) has may be absent.
        let expected = match cx.binary {
            Some(binary) => available(api, binary),
            None => api.lifecycle.removed.is_none(),
        };
        if !expected {
            continue;
        }
        out.push(
            CRD_LIFECYCLE_MISMATCH
                .diag(
                    format!("{} is declared, but CRD `{id}` in {file} has no version `{name}`", api.gvk),
                    declared_where(api),
                )
                .with_subject(crd.subject(name))
                .with_label(at(crd.versions_span), "the CRD's versions")
                .with_note("regenerate the CRD from the types (kube-rs: `merge_crds` of every version's `crd()`), or fix the lifecycle"),
        );
    }
}

/// A served version the lifecycle deprecates at `binary` and the CRD does
/// not mark `deprecated`, or the reverse; located at the declaration that
/// disagrees with the CRD (the lifecycle's `deprecated` release, kube-rs'
/// `#[kube(deprecated)]`), the CRD's version as a label.
fn deprecation(
    cx: &Context<'_>,
    input: &CrdInput,
    crd: &Crd,
    version: &kompat_crd::CrdVersion,
    api: &Api,
    binary: Version,
    out: &mut Vec<Diagnostic>,
) {
    let at = |span: kompat_span::Span| input.source.locate(span.start, span.end);
    let name = &version.name.value;
    let id = crd.id();
    let deprecates = api.lifecycle.deprecated.filter(|d| *d <= binary);
    let lifecycle_deprecated = cx.decls.locate_api(api.index, ApiField::Deprecated);
    let declared = || cx.decls.locate_api(api.index, ApiField::Version);
    let warning = version.deprecation_warning.as_ref().map(|w| &w.value);
    match (deprecates, version.is_deprecated()) {
        (Some(since), false) => {
            let mut diag = CRD_LIFECYCLE_MISMATCH
                .diag(
                    format!(
                        "{} is deprecated by its lifecycle from {since} (binary version {binary}), but version `{name}` of CRD `{id}` is not marked `deprecated`",
                        api.gvk
                    ),
                    lifecycle_deprecated.or_else(declared),
                )
                .with_subject(crd.subject(name))
                .with_label(at(version.name.span), "the CRD's version, not deprecated")
                .with_note("clients of a deprecated CRD version get apiextensions-apiserver's warning: mark it (kube-rs: `#[kube(deprecated = \"...\")]` on the type), or fix the lifecycle");
            if let Some(warning) = warning {
                diag = diag.with_note(format!(
                    "its `deprecationWarning` \"{warning}\" is shown only with `deprecated: true`"
                ));
            }
            out.push(diag);
        }
        (None, true) => {
            let rust = cx.decls.rust().and_then(|rust| {
                rust.custom_resources
                    .iter()
                    .find(|c| c.group == crd.group.value && c.kind == crd.kind.value && c.version == *name)
            });
            let location = rust.and_then(|c| c.deprecated.clone()).or(lifecycle_deprecated).or_else(declared);
            let keeps = match api.lifecycle.deprecated {
                Some(later) => format!("its lifecycle deprecates it only from {later}"),
                None => "its lifecycle does not deprecate it".to_owned(),
            };
            let warns = match warning {
                Some(w) => format!("clients are warned \"{w}\""),
                None => "without a `deprecationWarning`".to_owned(),
            };
            let mut diag = CRD_LIFECYCLE_MISMATCH
                .diag(
                    format!(
                        "version `{name}` of CRD `{id}` is marked `deprecated` ({warns}), but {keeps} (binary version {binary})"
                    ),
                    location,
                )
                .with_subject(crd.subject(name))
                .with_note("deprecate the version in its lifecycle, or drop `deprecated` from the CRD (kube-rs: from `#[kube(...)]`)");
            if let Some(flag) = &version.deprecated {
                diag = diag.with_label(at(flag.span), "the CRD marks it deprecated");
            }
            out.push(diag);
        }
        _ => (),
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn crd_lifecycle_mismatch() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- src/lib.rs
use kompat::ApiLifecycle;
use kube::CustomResource;

pub mod v1alpha1 {
    use super::*;
    #[derive(CustomResource, ApiLifecycle)]
    #[kube(group = "example.io", version = "v1alpha1", kind = "Widget", namespaced)]
    #[kompat(api(introduced = "1.30", deprecated = "1.33", removed = "1.36"))]
    pub struct WidgetSpec {}
}

pub mod v1beta1 {
    use super::*;
    #[derive(CustomResource, ApiLifecycle)]
    #[kube(group = "example.io", version = "v1beta1", kind = "Widget", namespaced)]
    #[kompat(api(introduced = "1.33", deprecated = "1.36", removed = "1.40", replacement = "example.io/v1/Widget"))]
    pub struct WidgetSpec {}
}

pub mod v1 {
    use super::*;
    #[derive(CustomResource, ApiLifecycle)]
    #[kube(group = "example.io", version = "v1", kind = "Widget", namespaced)]
    #[kompat(api(introduced = "1.36"))]
    pub struct WidgetSpec {}
}

pub mod v2 {
    use super::*;
    #[derive(CustomResource, ApiLifecycle)]
    #[kube(group = "example.io", version = "v2", kind = "Widget", namespaced)]
    //                                     ^^^^ error[crd-lifecycle-mismatch]: example.io/v2/Widget is declared, but CRD `widgets.example.io` in crds/widget.yaml has no version `v2`
    #[kompat(api(introduced = "1.37"))]
    pub struct WidgetSpec {}
}
//- crds/widget.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.io
spec:
  group: example.io
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
#           ^^^^ error[crd-lifecycle-mismatch]: version `v1alpha1` of CRD `widgets.example.io` is served, but its lifecycle removes it in 1.36 (binary version 1.37)
    storage: true
#            ^^^^ error[crd-lifecycle-mismatch]: storage version `v1alpha1` of CRD `widgets.example.io` is not a version its lifecycle has at binary version 1.37
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    deprecationWarning: example.io/v1beta1 Widget is deprecated; use example.io/v1 Widget
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1
    served: false
#           ^^^^^ error[crd-lifecycle-mismatch]: version `v1` of CRD `widgets.example.io` is not served, but its lifecycle serves it from 1.36 (binary version 1.37)
    storage: false
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v3
#         ^^ error[crd-lifecycle-mismatch]: version `v3` of CRD `widgets.example.io` has no lifecycle declaration for Widget
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
"##,
        );
    }
    /// Deprecation both ways: a version the lifecycle deprecates that the
    /// CRD does not mark (at the lifecycle's `deprecated`), and
    /// `#[kube(deprecated)]` on a version the lifecycle keeps (at kube's
    /// `deprecated`, the CRD's warning quoted).
    #[test]
    fn deprecation_disagrees_with_the_crd() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- src/lib.rs
pub mod v1beta1 {
    #[derive(kube::CustomResource, kompat::ApiLifecycle)]
    #[kube(group = "example.io", version = "v1beta1", kind = "Gadget", namespaced)]
    #[kompat(api(introduced = "1.33", deprecated = "1.36", replacement = "example.io/v1/Gadget"))]
//                            ^^^^^^ note[api-default-lifecycle]: example.io/v1beta1/Gadget relies on the default removal in 1.39
//                                                 ^^^^^^ error[crd-lifecycle-mismatch]: example.io/v1beta1/Gadget is deprecated by its lifecycle from 1.36 (binary version 1.37), but version `v1beta1` of CRD `gadgets.example.io` is not marked `deprecated`
    pub struct GadgetSpec {}
}

pub mod v1 {
    #[derive(kube::CustomResource, kompat::ApiLifecycle)]
    #[kube(group = "example.io", version = "v1", kind = "Gadget", namespaced, deprecated = "example.io/v1 Gadget is going away")]
//                                                                            ^^^^^^^^^^ error[crd-lifecycle-mismatch]: version `v1` of CRD `gadgets.example.io` is marked `deprecated` (clients are warned "example.io/v1 Gadget is going away"), but its lifecycle does not deprecate it (binary version 1.37)
    #[kompat(api(introduced = "1.36"))]
    pub struct GadgetSpec {}
}

pub mod v2 {
    #[derive(kube::CustomResource, kompat::ApiLifecycle)]
    #[kube(group = "example.io", version = "v2", kind = "Gadget", namespaced)]
    #[kompat(api(introduced = "1.37", deprecated = "1.39"))]
//                                                 ^^^^^^ error[crd-lifecycle-mismatch]: version `v2` of CRD `gadgets.example.io` is marked `deprecated` (without a `deprecationWarning`), but its lifecycle deprecates it only from 1.39 (binary version 1.37)
    pub struct GadgetSpec {}
}
//- crds/gadget.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.io
spec:
  group: example.io
  names:
    kind: Gadget
    plural: gadgets
  scope: Namespaced
  versions:
  - name: v1beta1
    served: true
    storage: false
    deprecationWarning: example.io/v1beta1 Gadget is old
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1
    served: true
    storage: true
    deprecated: true
    deprecationWarning: example.io/v1 Gadget is going away
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v2
    served: true
    storage: false
    deprecated: true
#               ^^^^ warning[deprecated-without-warning]: deprecated version `v2` has no `deprecationWarning`
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
"##,
        );
    }

    /// The same with `[[api]]` lifecycles: the finding is at the TOML value;
    /// versions that agree (deprecated both, or neither) say nothing.
    #[test]
    fn deprecation_of_toml_lifecycles() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
[[api]]
group = "example.io"
version = "v1beta1"
kind = "Gadget"
resource = "gadgets"
introduced = "1.33"
#            ^^^^^^ note[api-default-lifecycle]: example.io/v1beta1/Gadget relies on the default removal in 1.39
deprecated = "1.36"
replacement = "example.io/v1/Gadget"

[[api]]
group = "example.io"
version = "v1"
kind = "Gadget"
resource = "gadgets"
introduced = "1.34"

[[api]]
group = "example.io"
version = "v2"
kind = "Gadget"
resource = "gadgets"
introduced = "1.35"
deprecated = "1.37"
#            ^^^^^^ error[crd-lifecycle-mismatch]: example.io/v2/Gadget is deprecated by its lifecycle from 1.37 (binary version 1.37), but version `v2` of CRD `gadgets.example.io` is not marked `deprecated`
replacement = "example.io/v1/Gadget"
//- crds/gadget.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.io
spec:
  group: example.io
  names:
    kind: Gadget
    plural: gadgets
  scope: Namespaced
  versions:
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
#               ^^^^ warning[deprecated-without-warning]: deprecated version `v1beta1` has no `deprecationWarning`
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
"##,
        );
    }
}
