//! `rbac-removed-resource`: a rule of a `Role` or `ClusterRole` that grants
//! a group-resource of Kubernetes' built-in API table that no version of its
//! group serves at the target any more (`extensions` `ingresses` from 1.22):
//! it grants nothing there. The message names the release that removed it
//! and the group-resource that replaces it (`sources::rbac`).

use super::Pass;
use crate::sources::rbac::{removed_grants, RemovedGrant};
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Checks the rules of every `Role` and `ClusterRole` among the Kubernetes manifests linted (`rbac.authorization.k8s.io`, any version; `kind: List` items too) against Kubernetes' built-in API table at the target version (`--kubernetes-version`, `[kubernetes] version`; the emulation version when one is given), and reports each resource of a rule that, in one of the rule's `apiGroups`, names a group-resource no version of the group serves there any more, although one did before: `extensions` `ingresses` from 1.22, `policy` `podsecuritypolicies` from 1.25. RBAC names a group and a resource, not a version: a group-resource exists at a release when any version of the group defines the resource there (introduced and not removed), enabled by default or not. The message names the release that removed it and the group-resource that replaces it (the removed versions' replacement, with the rule's subresource: `deployments/scale`), or says that none does; when the role grants the replacement too, it says so. Wildcards (`*` in `apiGroups` or `resources`, `*/scale`), `nonResourceURLs`, the core group's resources (never removed) and groups that are not Kubernetes' own (custom resources) are not judged. The rules an aggregated ClusterRole (`aggregationRule`) lists are judged; those the aggregation controller fills in are not known. The subject is `group/resource`.
    ///
    /// ### Why is this bad?
    ///
    /// The authorizer does not check that a rule names something that exists: the rule keeps being accepted and grants nothing. A controller whose ClusterRole still grants `extensions` `ingresses` on 1.22 has no access to the Ingresses it watches (`networking.k8s.io`), and fails with `forbidden` after the cluster upgrade, not before.
    ///
    /// ### Example
    ///
    /// ```yaml
    /// # kompat lint config/rbac/role.yaml --kubernetes-version 1.22
    /// apiVersion: rbac.authorization.k8s.io/v1
    /// kind: ClusterRole
    /// metadata:
    ///   name: manager-role
    /// rules:
    /// - apiGroups: ["extensions"]
    ///   resources: ["ingresses"]
    ///   verbs: ["get", "list", "watch"]
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```yaml
    /// rules:
    /// - apiGroups: ["networking.k8s.io"]
    ///   resources: ["ingresses"]
    ///   verbs: ["get", "list", "watch"]
    /// ```
    pub RBAC_REMOVED_RESOURCE: Warning, "an RBAC rule grants a resource its API group no longer serves"
}

pub static PASS: Pass = Pass { rules: &[&RBAC_REMOVED_RESOURCE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(manifests) = cx.manifests else { return };
    let at = manifests.emulation();
    for grant in removed_grants(cx.roles, at) {
        let message = format!(
            "{} is not served since {}: this grants nothing; {}",
            grant.granted.quoted(),
            grant.removal.since,
            instead(&grant, at)
        );
        out.push(
            RBAC_REMOVED_RESOURCE
                .diag(message, Some(grant.resource.location.clone()))
                .with_subject(grant.granted.subject()),
        );
    }
}

/// What to grant instead: the replacement, or that the role grants it
/// already, or that nothing replaces the group-resource at `at`.
fn instead(grant: &RemovedGrant<'_>, at: kompat_runtime::Version) -> String {
    match (&grant.replacement, &grant.removal.gone_replacement) {
        (Some(replacement), _) => {
            let granted = !grant.role.aggregated && !grant.rule.verbs.is_empty() && grant.missing_verbs.is_empty();
            if granted {
                format!("the {} grants its replacement {} already", grant.role.kind, replacement.quoted())
            } else {
                format!("grant {}", replacement.quoted())
            }
        }
        (None, Some((gone, removed))) => {
            format!("no API replaces it on Kubernetes {at}: its replacement {} is not served since {removed} either", gone.quoted())
        }
        (None, None) => "no API replaces it".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn served_before_the_removal_removed_after() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.21"
//- role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ingress-controller
rules:
- apiGroups: ["extensions", "networking.k8s.io"]
  resources: ["ingresses"]
  verbs: ["get", "list", "watch"]
"##,
        );
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.22"
//- role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ingress-controller
rules:
- apiGroups: ["extensions", "networking.k8s.io"]
  resources: ["ingresses"]
#             ^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; the ClusterRole grants its replacement `networking.k8s.io` `ingresses` already
  verbs: ["get", "list", "watch"]
"##,
        );
    }

    #[test]
    fn removed_without_replacement() {
        // policy/v1beta1 PodSecurityPolicy is removed in 1.25 and nothing
        // replaces it; extensions' was replaced by policy's, gone too.
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.25"
//- psp.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: psp-user
rules:
- apiGroups: [policy, extensions]
  resources: [podsecuritypolicies]
#             ^^^^^^^^^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `podsecuritypolicies` is not served since 1.16: this grants nothing; no API replaces it on Kubernetes 1.25: its replacement `policy` `podsecuritypolicies` is not served since 1.25 either
#             ^^^^^^^^^^^^^^^^^^^ warning[rbac-removed-resource]: `policy` `podsecuritypolicies` is not served since 1.25: this grants nothing; no API replaces it
  verbs: [use]
  resourceNames: [restricted]
"##,
        );
    }

    #[test]
    fn subresources_and_wildcards() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.16"
//- autoscaler.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: autoscaler
rules:
- apiGroups: [extensions, apps]
  resources: [deployments/scale, replicasets/scale]
#             ^^^^^^^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `deployments/scale` is not served since 1.16: this grants nothing; the ClusterRole grants its replacement `apps` `deployments/scale` already
#                                ^^^^^^^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `replicasets/scale` is not served since 1.16: this grants nothing; the ClusterRole grants its replacement `apps` `replicasets/scale` already
  verbs: [get, update]
- apiGroups: [extensions]
  resources: ["*", "*/scale"]
  verbs: [get]
- apiGroups: ["*"]
  resources: [ingresses, podsecuritypolicies]
  verbs: [get]
- nonResourceURLs: [/metrics]
  verbs: [get]
"##,
        );
    }

    #[test]
    fn core_custom_and_unknown_resources_are_not_judged() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.37"
//- role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: reader
  namespace: apps
rules:
- apiGroups: [""]
  resources: [pods, pods/log, componentstatuses]
  verbs: [get, list]
- apiGroups: [example.com, cert-manager.io]
  resources: [widgets, certificates]
  verbs: [get]
- apiGroups: [apps, batch]
  resources: [deploymnets, cronjobs]
  verbs: [get]
"##,
        );
    }

    #[test]
    fn aggregated_cluster_roles_and_lists() {
        // The listed rules of an aggregated ClusterRole are judged; roles
        // are read out of a `List`, in JSON too, whatever their version.
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.22"
//- aggregate.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: monitoring
aggregationRule:
  clusterRoleSelectors:
  - matchLabels:
      rbac.example.com/aggregate-to-monitoring: "true"
rules:
- apiGroups: [extensions]
  resources: [ingresses]
#             ^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; grant `networking.k8s.io` `ingresses`
  verbs: [get]
//- roles.yaml
apiVersion: v1
kind: List
items:
- apiVersion: rbac.authorization.k8s.io/v1
  kind: Role
  metadata: {name: web, namespace: web}
  rules:
  - apiGroups: [extensions, networking.k8s.io]
    resources: [ingresses, networkpolicies]
#               ^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; the Role grants its replacement `networking.k8s.io` `ingresses` already
#                          ^^^^^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `networkpolicies` is not served since 1.16: this grants nothing; the Role grants its replacement `networking.k8s.io` `networkpolicies` already
    verbs: [get, list]
- apiVersion: rbac.authorization.k8s.io/v1
  kind: RoleBinding
  metadata: {name: web, namespace: web}
  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: web}
//- roles.json
{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "j"},
   "rules": [{"apiGroups": ["extensions", "networking.k8s.io"], "resources": ["ingresses"], "verbs": ["*"]}]}
#                                                                             ^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; the ClusterRole grants its replacement `networking.k8s.io` `ingresses` already
]}
"##,
        );
    }

    #[test]
    fn allowed_in_place() {
        // A chart that still supports 1.21 clusters keeps the old grant.
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.22"
//- role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ingress-controller
rules:
# kompat:allow(rbac-removed-resource) the chart installs on 1.21 clusters until March
- apiGroups: ["extensions", "networking.k8s.io"]
  resources: ["ingresses"]
  verbs: ["get", "list", "watch"]
"##,
        );
    }
}
