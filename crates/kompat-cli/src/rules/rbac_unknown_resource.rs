//! `rbac-unknown-resource`: a rule of a `Role` or `ClusterRole` that names a
//! resource of a custom group whose CRDs are among the inputs (or installed
//! in the cluster: `crds = [...]`, `--crds`) although none of them defines
//! it: a kind or singular written for the plural, or a typo. Groups without
//! a CRD among the inputs, and Kubernetes' own groups, are not judged.

use super::Pass;
use crate::sources::rbac::GroupResource;
use crate::Context;
use kompat_crd::Crd;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;
use kompat_runtime::suggest::did_you_mean;

declare_rule! {
    /// ### What it does
    ///
    /// Checks the rules of every `Role` and `ClusterRole` among the Kubernetes manifests linted against the CustomResourceDefinitions among the inputs and those installed in the cluster (`crds = [...]` in kompat.toml, `--crds`), and reports each resource that, in one of the rule's `apiGroups`, names a group some of those CRDs define, but a resource none of them defines (`spec.names.plural`; a subresource such as `guestbooks/status` is judged by its resource). The message says when the kind or singular was written for the plural (RBAC names resources by their plural), suggests the closest plural, or lists those the CRDs define. Groups without a CRD among the inputs are not judged (kompat cannot know their resources), nor are Kubernetes' own groups (`rbac-removed-resource` judges those), wildcards and `nonResourceURLs`. No Kubernetes version is needed. The subject is `group/resource`.
    ///
    /// ### Why is this bad?
    ///
    /// The authorizer does not check that a rule names something that exists: a role granting `guestbook` instead of `guestbooks` is accepted and grants nothing, and the controller is refused (`forbidden`) the first time it lists its own objects.
    ///
    /// ### Example
    ///
    /// ```yaml
    /// # config/crd/bases/webapp.example.com_guestbooks.yaml defines guestbooks
    /// apiVersion: rbac.authorization.k8s.io/v1
    /// kind: ClusterRole
    /// metadata:
    ///   name: manager-role
    /// rules:
    /// - apiGroups: ["webapp.example.com"]
    ///   resources: ["guestbook"]
    ///   verbs: ["get", "list", "watch"]
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```yaml
    /// rules:
    /// - apiGroups: ["webapp.example.com"]
    ///   resources: ["guestbooks"]
    ///   verbs: ["get", "list", "watch"]
    /// ```
    pub RBAC_UNKNOWN_RESOURCE: Warning, "an RBAC rule grants a resource no CRD of its group defines"
}

pub static PASS: Pass = Pass { rules: &[&RBAC_UNKNOWN_RESOURCE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    if cx.roles.is_empty() {
        return;
    }
    let crds = super::crd::known_crds(cx);
    let builtin = kompat_k8s::apis();
    for rule in cx.roles.iter().flat_map(|r| &r.rules) {
        let mut seen = std::collections::BTreeSet::new();
        for group in rule.api_groups.iter().filter(|g| *g != "*" && !builtin.is_group_registered(g)) {
            let of_group: Vec<&Crd> = crds.iter().copied().filter(|c| c.group.value == *group).collect();
            if of_group.is_empty() {
                continue;
            }
            for resource in &rule.resources {
                let base = resource.value.split_once('/').map_or(resource.value.as_str(), |(base, _)| base);
                let known = of_group.iter().any(|c| c.plural.value == base);
                if base == "*" || known || !seen.insert((group, &resource.value)) {
                    continue;
                }
                let granted = GroupResource { group: group.clone(), resource: resource.value.clone() };
                let message = format!(
                    "no CRD of `{group}` among the inputs defines the resource `{base}`{}",
                    hint(&of_group, base)
                );
                out.push(
                    RBAC_UNKNOWN_RESOURCE
                        .diag(message, Some(resource.location.clone()))
                        .with_subject(granted.subject()),
                );
            }
        }
    }
}

/// The way out: the plural of the CRD whose kind or singular `base` is,
/// else the closest plural, else every plural of the group.
fn hint(crds: &[&Crd], base: &str) -> String {
    let names = |c: &Crd| {
        let singular = c.singular.as_ref().map(|s| s.value.clone());
        [Some(c.kind.value.clone()), Some(c.kind.value.to_lowercase()), singular]
    };
    if let Some(crd) = crds.iter().find(|c| names(c).iter().flatten().any(|n| n == base)) {
        return format!(": RBAC names resources by their plural, `{}`", crd.plural.value);
    }
    let mut plurals: Vec<&str> = crds.iter().map(|c| c.plural.value.as_str()).collect();
    plurals.sort_unstable();
    plurals.dedup();
    match did_you_mean(base, plurals.iter().copied()) {
        Some(near) => format!(" (did you mean `{near}`?)"),
        None => format!("; the CRDs of the group define {}", plurals.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn resources_no_crd_of_the_group_defines() {
        check(
            r##"
//- crds/guestbooks.yaml
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: guestbooks.webapp.example.com
spec:
  group: webapp.example.com
  names:
    kind: Guestbook
    plural: guestbooks
    singular: guestbook
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
//- config/rbac/role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups: [webapp.example.com]
  resources: [guestbooks, guestbooks/status, guestbooks/finalizers, guestbook, Guestbook, guestboks, widgets, "*"]
#                                                                   ^^^^^^^^^ warning[rbac-unknown-resource]: no CRD of `webapp.example.com` among the inputs defines the resource `guestbook`: RBAC names resources by their plural, `guestbooks`
#                                                                              ^^^^^^^^^ warning[rbac-unknown-resource]: no CRD of `webapp.example.com` among the inputs defines the resource `Guestbook`: RBAC names resources by their plural, `guestbooks`
#                                                                                         ^^^^^^^^^ warning[rbac-unknown-resource]: no CRD of `webapp.example.com` among the inputs defines the resource `guestboks` (did you mean `guestbooks`?)
#                                                                                                    ^^^^^^^ warning[rbac-unknown-resource]: no CRD of `webapp.example.com` among the inputs defines the resource `widgets`; the CRDs of the group define `guestbooks`
  verbs: [get, list, watch]
- apiGroups: [other.example.com, "*", apps]
  resources: [guestbook, deploymnets]
  verbs: [get]
"##,
        );
    }
}
