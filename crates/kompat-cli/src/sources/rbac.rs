//! RBAC roles (`Role`, `ClusterRole`, read by `kompat_formats::rbac`)
//! against Kubernetes' built-in API table (`kompat_k8s::apis()`): the grants
//! of group-resources that no version of their group serves at the target
//! any more, each with the group-resource that replaces it and what of the
//! grant the role lacks on it. `rbac-removed-resource` and
//! `rbac-missing-replacement` only read the answers.
//!
//! RBAC names a group and a resource, never a version: a group-resource
//! exists at a release when some version of the group defines the resource
//! there (introduced, not removed), served by default or not (the
//! authorizer does not ask whether a version is enabled). One that existed
//! once and no longer does is removed; a group-resource the table never had
//! (a custom resource, a subresource's typo) is not judged.

use std::collections::BTreeSet;

use kompat_diag::Location;
use kompat_engine::api::{Api, ApiSet};
use kompat_formats::rbac::{Located, PolicyRule, Role};
use kompat_runtime::Version;

/// A group and a resource (`deployments/scale` with its subresource).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct GroupResource {
    pub group: String,
    pub resource: String,
}

impl GroupResource {
    /// `` `extensions` `ingresses` ``, as messages name it.
    pub fn quoted(&self) -> String {
        format!("`{}` `{}`", self.group, self.resource)
    }

    /// `extensions/ingresses`, as subjects name it.
    pub fn subject(&self) -> String {
        format!("{}/{}", self.group, self.resource)
    }
}

/// Why a group-resource is not served at the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removal {
    /// The release from which no version of the group serves it.
    pub since: Version,
    /// The group-resource that replaces it at the target (its removed
    /// versions' `replacement`, followed while the replacement is gone too).
    pub replacement: Option<GroupResource>,
    /// The last replacement of the chain when it is gone too, with the
    /// release that removed it (`extensions` `podsecuritypolicies` was
    /// replaced by `policy` `podsecuritypolicies`, removed in 1.25).
    pub gone_replacement: Option<(GroupResource, Version)>,
}

/// One grant of a removed group-resource: a group of a rule's `apiGroups`
/// with one of its `resources`.
#[derive(Debug, Clone)]
pub struct RemovedGrant<'a> {
    pub role: &'a Role<Location>,
    pub rule: &'a PolicyRule<Location>,
    /// The group-resource as granted (with its subresource).
    pub granted: GroupResource,
    /// The resource's scalar.
    pub resource: &'a Located<Location>,
    pub removal: Removal,
    /// The replacement to grant, with the grant's subresource, when there is
    /// one.
    pub replacement: Option<GroupResource>,
    /// The rule's verbs the role does not grant on the replacement (for the
    /// rule's `resourceNames`, when it has some), in the rule's order; empty
    /// when it grants them all, or when there is no replacement.
    pub missing_verbs: Vec<String>,
    /// The rule's `resourceNames` for which one of those verbs is not
    /// granted on the replacement (empty when the rule has none).
    pub missing_names: Vec<String>,
}

/// Every grant of a group-resource of Kubernetes' built-in table that is
/// removed at `at`, role by role, rule by rule. Wildcards (`*` groups or
/// resources, `*/scale`) grant what exists and are skipped.
pub fn removed_grants(roles: &[Role<Location>], at: Version) -> Vec<RemovedGrant<'_>> {
    let set = kompat_k8s::apis();
    let mut out = Vec::new();
    // Roles grant the same few group-resources over and over: each one's
    // removal is looked up once. Hashed with foldhash, seeded per process
    // (as std's SipHash is): the keys are the input's text.
    let mut removals: foldhash::HashMap<(&str, &str), Option<Removal>> = foldhash::HashMap::default();
    for role in roles {
        for rule in &role.rules {
            let mut seen = BTreeSet::new();
            for group in &rule.api_groups {
                if group == "*" {
                    continue;
                }
                for resource in &rule.resources {
                    let (base, sub) = match resource.value.split_once('/') {
                        Some((base, sub)) => (base, Some(sub)),
                        None => (resource.value.as_str(), None),
                    };
                    if base == "*" || !seen.insert((group.as_str(), resource.value.as_str())) {
                        continue;
                    }
                    let found = removals.entry((group.as_str(), base)).or_insert_with(|| removal(set, group, base, at));
                    let Some(removal) = found.clone() else { continue };
                    let with_sub = |r: &GroupResource| GroupResource {
                        group: r.group.clone(),
                        resource: sub.map_or_else(|| r.resource.clone(), |sub| format!("{}/{sub}", r.resource)),
                    };
                    let replacement = removal.replacement.as_ref().map(with_sub);
                    let (missing_verbs, missing_names) = match &replacement {
                        Some(r) => {
                            let verbs: Vec<String> = rule
                                .verbs
                                .iter()
                                .filter(|v| !grants(role, r, v, &rule.resource_names))
                                .cloned()
                                .collect();
                            let names = rule
                                .resource_names
                                .iter()
                                .filter(|n| verbs.iter().any(|v| !grants(role, r, v, std::slice::from_ref(*n))))
                                .cloned()
                                .collect();
                            (verbs, names)
                        }
                        None => (Vec::new(), Vec::new()),
                    };
                    out.push(RemovedGrant {
                        role,
                        rule,
                        granted: GroupResource { group: group.clone(), resource: resource.value.clone() },
                        resource,
                        removal,
                        replacement,
                        missing_verbs,
                        missing_names,
                    });
                }
            }
        }
    }
    out
}

/// ``the ClusterRole `manager-role` ``, as messages name a role.
pub fn role_name(role: &Role<Location>) -> String {
    match &role.name {
        Some(name) => format!("the {} `{name}`", role.kind),
        None => format!("an unnamed {}", role.kind),
    }
}

/// Whether `group`-`resource` (no subresource) exists at `at`: some
/// version of the group defines it, introduced and not removed.
fn exists(set: &ApiSet, group: &str, resource: &str, at: Version) -> bool {
    set.with_resource(resource).any(|a| is(a, group, resource) && a.lifecycle.introduced <= at && a.served_at(at))
}

fn is(api: &Api, group: &str, resource: &str) -> bool {
    api.group() == group && api.resource == resource
}

/// The version of `group`-`resource` removed last at or before `at`.
fn last_removed<'a>(set: &'a ApiSet, group: &str, resource: &str, at: Version) -> Option<(&'a Api, Version)> {
    set.with_resource(resource)
        .filter(|a| is(a, group, resource))
        .filter_map(|a| a.lifecycle.removed.filter(|r| *r <= at).map(|r| (a, r)))
        .max_by_key(|(_, removed)| *removed)
}

/// Why `group`-`resource` is not served at `at` although it was before;
/// `None` when it exists there, or never did before `at`.
pub fn removal(set: &ApiSet, group: &str, resource: &str, at: Version) -> Option<Removal> {
    if exists(set, group, resource, at) {
        return None;
    }
    let (mut api, since) = last_removed(set, group, resource, at)?;
    let mut seen = BTreeSet::from([(group.to_owned(), resource.to_owned())]);
    let mut gone_replacement = None;
    let replacement = loop {
        let Some(next) = api.replacement.as_ref().and_then(|r| set.find_kind(&r.group, &r.version, &r.kind)) else {
            break None;
        };
        let gr = GroupResource { group: next.group().to_owned(), resource: next.resource.clone() };
        if !seen.insert((gr.group.clone(), gr.resource.clone())) {
            break None;
        }
        if exists(set, &gr.group, &gr.resource, at) {
            break Some(gr);
        }
        let Some((last, removed)) = last_removed(set, &gr.group, &gr.resource, at) else { break None };
        gone_replacement = Some((gr, removed));
        api = last;
    };
    let gone_replacement = if replacement.is_some() { None } else { gone_replacement };
    Some(Removal { since, replacement, gone_replacement })
}

/// Whether some rule of `role` grants `verb` on `target` (a group and a
/// resource, with its subresource) for every object of `names` (every
/// object when empty), as the RBAC authorizer matches rules: `*` groups,
/// resources and verbs, `*/subresource`, `resourceNames`.
fn grants(role: &Role<Location>, target: &GroupResource, verb: &str, names: &[String]) -> bool {
    let matches = |rule: &PolicyRule<Location>, name: Option<&str>| {
        rule.api_groups.iter().any(|g| g == "*" || *g == target.group)
            && resource_matches(rule, &target.resource)
            && rule.verbs.iter().any(|v| v == "*" || v == verb)
            && (rule.resource_names.is_empty() || name.is_some_and(|n| rule.resource_names.iter().any(|r| r == n)))
    };
    if names.is_empty() {
        role.rules.iter().any(|rule| matches(rule, None))
    } else {
        names.iter().all(|n| role.rules.iter().any(|rule| matches(rule, Some(n))))
    }
}

/// RBAC's `ResourceMatches`: `*`, the resource itself, or `*/sub` for a
/// subresource.
fn resource_matches(rule: &PolicyRule<Location>, resource: &str) -> bool {
    let sub = resource.split_once('/').map(|(_, sub)| sub);
    rule.resources.iter().any(|r| {
        r.value == "*" || r.value == resource || sub.is_some_and(|sub| r.value.strip_prefix("*/") == Some(sub))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `removal` of `group`-`resource` at `at` as `since -> replacement`
    /// (`gone G R in V` when the chain ends in a removed one), `-` when not
    /// removed.
    fn check(group: &str, resource: &str, at: (u32, u32), expected: &str) {
        let at = Version::new(at.0, at.1);
        let actual = match removal(kompat_k8s::apis(), group, resource, at) {
            None => "-".to_owned(),
            Some(r) => {
                let to = r.replacement.map_or_else(|| "none".to_owned(), |g| g.subject());
                let gone =
                    r.gone_replacement.map(|(g, v)| format!(" (gone {} in {v})", g.subject())).unwrap_or_default();
                format!("{} -> {to}{gone}", r.since)
            }
        };
        assert_eq!(actual, expected, "{group} {resource} at {at}");
    }

    #[test]
    fn removals_and_replacements() {
        check("extensions", "ingresses", (1, 21), "-");
        check("extensions", "ingresses", (1, 22), "1.22 -> networking.k8s.io/ingresses");
        check("extensions", "ingresses", (1, 35), "1.22 -> networking.k8s.io/ingresses");
        check("extensions", "deployments", (1, 16), "1.16 -> apps/deployments");
        check("extensions", "podsecuritypolicies", (1, 20), "1.16 -> policy/podsecuritypolicies");
        check("extensions", "podsecuritypolicies", (1, 25), "1.16 -> none (gone policy/podsecuritypolicies in 1.25)");
        check("policy", "podsecuritypolicies", (1, 24), "-");
        check("policy", "podsecuritypolicies", (1, 25), "1.25 -> none");
        // A version removed while another of the group serves the resource.
        check("batch", "cronjobs", (1, 25), "-");
        check("policy", "poddisruptionbudgets", (1, 30), "-");
        // Never in the table (custom groups, typos), or not yet introduced.
        check("example.com", "widgets", (1, 30), "-");
        check("apps", "deploymnets", (1, 30), "-");
        check("", "pods", (1, 30), "-");
    }
}
