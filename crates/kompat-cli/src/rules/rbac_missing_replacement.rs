//! `rbac-missing-replacement`: a `Role` or `ClusterRole` that grants a
//! group-resource removed at the target (`extensions` `ingresses` from
//! 1.22) but not the group-resource that replaces it, with the verbs (and
//! `resourceNames`) of the old grant: the rule to add, one finding per
//! replacement. Judged role by role (`sources::rbac`); aggregated
//! ClusterRoles, whose rules the aggregation controller fills in, are not.

use super::Pass;
use crate::sources::rbac::{removed_grants, role_name, GroupResource, RemovedGrant};
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::{Diagnostic, Label};

declare_rule! {
    /// ### What it does
    ///
    /// Reports a `Role` or `ClusterRole` among the Kubernetes manifests linted that grants a group-resource removed at the target version (as `rbac-removed-resource` finds them: `extensions` `ingresses` from 1.22) but does not grant the group-resource that replaces it (`networking.k8s.io` `ingresses`) with the same verbs, for the same `resourceNames`: the finding, at the role's name, names exactly the rule to add (`{apiGroups: ["networking.k8s.io"], resources: ["ingresses"], verbs: ["get", "list", "watch"]}`, with the old grant's subresource, and only the verbs and `resourceNames` for which no rule of the role grants the replacement), with a label at each old grant. Rules match as the RBAC authorizer matches them (`*` groups, resources and verbs, `*/subresource`). Each role is judged alone (not the set of roles bound to the same subject, which kompat does not see whole); an aggregated ClusterRole (`aggregationRule`) is not judged, since the aggregation controller fills its rules in. A group-resource removed without replacement (`policy` `podsecuritypolicies`) has no rule to add: `rbac-removed-resource` says so. The subject is the replacement, `group/resource`.
    ///
    /// ### Why is this bad?
    ///
    /// The old grant kept the controller working on older clusters; on the target it grants nothing, and the controller is refused (`forbidden`) every request on the objects it now reads through the replacement API: Ingresses are `networking.k8s.io` objects from 1.22, whatever the role says about `extensions`.
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
    pub RBAC_MISSING_REPLACEMENT: Warning, "an RBAC role grants a removed resource but not its replacement"
}

pub static PASS: Pass = Pass { rules: &[&RBAC_MISSING_REPLACEMENT], check: Some(check) };

/// The rule a role lacks: the replacement, for the old grants' names it
/// lacks, and the verbs it lacks.
struct Missing<'a> {
    replacement: GroupResource,
    names: Vec<String>,
    /// The old grants: the first is named in the message, each labelled.
    grants: Vec<RemovedGrant<'a>>,
    /// Every verb the old grants have, in order.
    verbs: Vec<String>,
    /// Those no rule grants on the replacement.
    missing: Vec<String>,
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(manifests) = cx.manifests else { return };
    let at = manifests.emulation();
    let grants = removed_grants(cx.roles, at);
    for role in cx.roles.iter().filter(|r| !r.aggregated) {
        let mut lacking: Vec<Missing<'_>> = Vec::new();
        for grant in grants.iter().filter(|g| std::ptr::eq(g.role, role)) {
            let Some(replacement) = &grant.replacement else { continue };
            if grant.missing_verbs.is_empty() {
                continue;
            }
            let mut names = grant.missing_names.clone();
            names.sort();
            names.dedup();
            let at = match lacking.iter().position(|m| m.replacement == *replacement && m.names == names) {
                Some(i) => i,
                None => {
                    lacking.push(Missing {
                        replacement: replacement.clone(),
                        names,
                        grants: Vec::new(),
                        verbs: Vec::new(),
                        missing: Vec::new(),
                    });
                    lacking.len() - 1
                }
            };
            let m = &mut lacking[at];
            m.grants.push(grant.clone());
            for v in &grant.rule.verbs {
                if !m.verbs.contains(v) {
                    m.verbs.push(v.clone());
                }
            }
            for v in &grant.missing_verbs {
                if !m.missing.contains(v) {
                    m.missing.push(v.clone());
                }
            }
        }
        for m in lacking {
            let first = &m.grants[0];
            let partly = if m.missing.len() < m.verbs.len() {
                format!(" for {}", m.missing.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", "))
            } else {
                String::new()
            };
            let message = format!(
                "{} grants {} (not served since {}) but not its replacement {}{partly}: add `{}`",
                role_name(role),
                first.granted.quoted(),
                first.removal.since,
                m.replacement.quoted(),
                rule_to_add(&m.replacement, &m.missing, &m.names)
            );
            let labels = m.grants.iter().map(|g| Label {
                location: g.resource.location.clone(),
                message: format!("grants {} here", g.granted.quoted()),
            });
            out.push(
                RBAC_MISSING_REPLACEMENT
                    .diag(message, Some(role.location.clone()))
                    .with_subject(m.replacement.subject())
                    .with_labels(labels),
            );
        }
    }
}

/// The policy rule as a YAML flow mapping, an item of `rules:` as it
/// stands.
fn rule_to_add(target: &GroupResource, verbs: &[String], names: &[String]) -> String {
    let list = |items: &[String]| items.iter().map(|i| format!("{i:?}")).collect::<Vec<_>>().join(", ");
    let names = if names.is_empty() { String::new() } else { format!(", resourceNames: [{}]", list(names)) };
    format!(
        "{{apiGroups: [{:?}], resources: [{:?}], verbs: [{}]{names}}}",
        target.group,
        target.resource,
        list(verbs)
    )
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn a_removed_grant_without_its_replacement() {
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
#       ^^^^^^^^^^^^^^^^^^ warning[rbac-missing-replacement]: the ClusterRole `ingress-controller` grants `extensions` `ingresses` (not served since 1.22) but not its replacement `networking.k8s.io` `ingresses`: add `{apiGroups: ["networking.k8s.io"], resources: ["ingresses"], verbs: ["get", "list", "watch"]}`
rules:
- apiGroups: ["extensions"]
  resources: ["ingresses"]
#             ^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; grant `networking.k8s.io` `ingresses`
  verbs: ["get", "list", "watch"]
"##,
        );
    }

    #[test]
    fn the_replacement_in_the_same_role() {
        // Granted in another rule: nothing to add.
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
- apiGroups: [extensions]
  resources: [ingresses]
#             ^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; the ClusterRole grants its replacement `networking.k8s.io` `ingresses` already
  verbs: [get, list, watch]
- apiGroups: [networking.k8s.io]
  resources: [ingresses]
  verbs: [get, list, watch, update]
"##,
        );
    }

    #[test]
    fn partly_granted_and_by_name() {
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.22"
//- role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: ingress-writer
#       ^^^^^^^^^^^^^^ warning[rbac-missing-replacement]: the Role `ingress-writer` grants `extensions` `ingresses/status` (not served since 1.22) but not its replacement `networking.k8s.io` `ingresses/status` for `update`: add `{apiGroups: ["networking.k8s.io"], resources: ["ingresses/status"], verbs: ["update"]}`
#       ^^^^^^^^^^^^^^ warning[rbac-missing-replacement]: the Role `ingress-writer` grants `extensions` `ingresses` (not served since 1.22) but not its replacement `networking.k8s.io` `ingresses` for `update`: add `{apiGroups: ["networking.k8s.io"], resources: ["ingresses"], verbs: ["update"]}`
#       ^^^^^^^^^^^^^^ warning[rbac-missing-replacement]: the Role `ingress-writer` grants `extensions` `ingresses` (not served since 1.22) but not its replacement `networking.k8s.io` `ingresses`: add `{apiGroups: ["networking.k8s.io"], resources: ["ingresses"], verbs: ["patch"], resourceNames: ["api"]}`
  namespace: web
rules:
- apiGroups: [extensions]
  resources: [ingresses, ingresses/status]
#             ^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; grant `networking.k8s.io` `ingresses`
#                        ^^^^^^^^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses/status` is not served since 1.22: this grants nothing; grant `networking.k8s.io` `ingresses/status`
  verbs: [get, update]
- apiGroups: [networking.k8s.io]
  resources: [ingresses]
  verbs: [get]
- apiGroups: [extensions]
  resources: [ingresses]
#             ^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; grant `networking.k8s.io` `ingresses`
  resourceNames: [web, api]
  verbs: [patch]
- apiGroups: [networking.k8s.io]
  resources: [ingresses]
  resourceNames: [web]
  verbs: [patch]
- apiGroups: ["*"]
  resources: ["*/status"]
  verbs: [get]
"##,
        );
    }

    #[test]
    fn each_role_alone_and_aggregated_ones_not_at_all() {
        // The replacement granted by another role bound to the same
        // subject does not count; an aggregated ClusterRole's rules are
        // the aggregation controller's.
        check(
            r##"
//- kompat.toml
[kubernetes]
version = "1.22"
//- roles.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: old
#       ^^^ warning[rbac-missing-replacement]: the ClusterRole `old` grants `extensions` `ingresses` (not served since 1.22) but not its replacement `networking.k8s.io` `ingresses`: add `{apiGroups: ["networking.k8s.io"], resources: ["ingresses"], verbs: ["list"]}`
rules:
- apiGroups: [extensions]
  resources: [ingresses]
#             ^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; grant `networking.k8s.io` `ingresses`
  verbs: [list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: new
rules:
- apiGroups: [networking.k8s.io]
  resources: [ingresses]
  verbs: [list]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: aggregated
aggregationRule:
  clusterRoleSelectors: [{matchLabels: {aggregate: "true"}}]
rules:
- apiGroups: [extensions]
  resources: [ingresses]
#             ^^^^^^^^^ warning[rbac-removed-resource]: `extensions` `ingresses` is not served since 1.22: this grants nothing; grant `networking.k8s.io` `ingresses`
  verbs: [list]
"##,
        );
    }

    #[test]
    fn not_before_the_removal_and_not_without_a_version() {
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
- apiGroups: [extensions]
  resources: [ingresses]
  verbs: [get]
"##,
        );
        check(
            r##"
//- role.yaml
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ingress-controller
rules:
- apiGroups: [extensions]
  resources: [ingresses]
  verbs: [get]
#!! note[missing-input]: no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml): Kubernetes manifests are not checked; `deprecated-api-version`, `rbac-missing-replacement`, `rbac-removed-resource`, `removed-api-version`, `unknown-api-kind`, `unserved-api-version` did not run
"##,
        );
    }
}
