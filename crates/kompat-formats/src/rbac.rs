//! RBAC roles: the `Role` and `ClusterRole` objects
//! (`rbac.authorization.k8s.io`, any version) of a YAML stream or JSON
//! document, with their policy rules, each resource located by its scalar.
//!
//! Objects are found as [`crate::manifest`] finds them (a `List`'s items in
//! its place, recursively). A rule's lists are read as the apiserver decodes
//! them: string items (a null item is `""`, the core group), other items
//! left out; a rule without `apiGroups` or `resources` grants no resource
//! (a `nonResourceURLs` rule). An `aggregationRule` is noted: the
//! ClusterRole aggregation controller fills such a role's rules, so the
//! rules written are not all it grants.

use crate::yaml::{Node, ScalarKind};
use kompat_span::Span;

/// The group of RBAC's kinds.
pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// A `Role` or `ClusterRole`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Role<L = Span> {
    /// `Role` or `ClusterRole`.
    pub kind: String,
    /// `metadata.name`, when a string.
    pub name: Option<String>,
    /// Where the role is named: its `metadata.name` value, else its
    /// `apiVersion` value.
    pub location: L,
    /// Has an `aggregationRule`: its rules are the aggregation
    /// controller's, the ones written are not all it grants.
    pub aggregated: bool,
    pub rules: Vec<PolicyRule<L>>,
}

/// One entry of a role's `rules`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyRule<L = Span> {
    /// `""` is the core group, `*` every group.
    pub api_groups: Vec<String>,
    /// Each resource with where it is written: `ingresses`,
    /// `deployments/scale`, `*`, `*/scale`.
    pub resources: Vec<Located<L>>,
    pub verbs: Vec<String>,
    /// Empty: every object of the resources.
    pub resource_names: Vec<String>,
}

/// A string and where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<L = Span> {
    pub value: String,
    pub location: L,
}

impl<L> Role<L> {
    /// The same role with every location mapped (a span to a file
    /// position).
    pub fn map_location<M>(self, mut f: impl FnMut(L) -> M) -> Role<M> {
        let location = f(self.location);
        let rules = self
            .rules
            .into_iter()
            .map(|r| PolicyRule {
                api_groups: r.api_groups,
                resources: r
                    .resources
                    .into_iter()
                    .map(|x| Located { value: x.value, location: f(x.location) })
                    .collect(),
                verbs: r.verbs,
                resource_names: r.resource_names,
            })
            .collect();
        Role { kind: self.kind, name: self.name, location, aggregated: self.aggregated, rules }
    }
}

/// Every `Role` and `ClusterRole` of parsed documents
/// ([`crate::yaml::parse_documents`]), in order.
pub fn roles_in(docs: &[Node]) -> Vec<Role> {
    let mut out = Vec::new();
    for doc in docs {
        collect(doc, &mut out);
    }
    out
}

fn collect(node: &Node, out: &mut Vec<Role>) {
    let (Some(api_version), Some(kind)) = (node.get("apiVersion"), node.get("kind").and_then(Node::as_str)) else {
        return;
    };
    let Some(group_version) = api_version.as_str() else { return };
    if kind.ends_with("List") {
        if let Some(items) = node.get("items").and_then(Node::as_seq) {
            for item in items {
                collect(item, out);
            }
            return;
        }
    }
    let group = group_version.split_once('/').map_or("", |(group, _)| group);
    if group != RBAC_GROUP || !matches!(kind, "Role" | "ClusterRole") {
        return;
    }
    let name = node.get("metadata").and_then(|m| m.get("name"));
    let location = name.filter(|n| n.as_str().is_some()).map_or_else(|| api_version.span(), Node::span);
    let aggregated = node.get("aggregationRule").is_some_and(|a| !a.is_null());
    let rules = node.get("rules").and_then(Node::as_seq).unwrap_or_default().iter().map(rule).collect();
    out.push(Role {
        kind: kind.to_owned(),
        name: name.and_then(Node::as_str).map(str::to_owned),
        location,
        aggregated,
        rules,
    });
}

fn rule(node: &Node) -> PolicyRule {
    let list = |key: &str| strings(node.get(key));
    PolicyRule {
        api_groups: list("apiGroups").into_iter().map(|l| l.value).collect(),
        resources: list("resources"),
        verbs: list("verbs").into_iter().map(|l| l.value).collect(),
        resource_names: list("resourceNames").into_iter().map(|l| l.value).collect(),
    }
}

/// The string items of a sequence (a null item is `""`).
fn strings(node: Option<&Node>) -> Vec<Located> {
    let items = node.and_then(Node::as_seq).unwrap_or_default();
    items
        .iter()
        .filter_map(|item| match item {
            Node::Scalar(s) if s.kind == ScalarKind::String => {
                Some(Located { value: s.value.to_string(), location: s.span })
            }
            Node::Scalar(s) if s.kind == ScalarKind::Null => Some(Located { value: String::new(), location: s.span }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse_documents;

    /// Each role as `Kind name@located [aggregated]` and its rules as
    /// `groups|resource@text,...|verbs|names`.
    fn check(text: &str, expected: &[&str]) {
        let docs = parse_documents(text).unwrap_or_else(|err| panic!("{err:?}"));
        let at = |span: Span| &text[span.start..span.end];
        let mut actual = Vec::new();
        for role in roles_in(&docs) {
            let aggregated = if role.aggregated { " aggregated" } else { "" };
            actual.push(format!(
                "{} {}@{}{aggregated}",
                role.kind,
                role.name.as_deref().unwrap_or("-"),
                at(role.location)
            ));
            for r in &role.rules {
                let resources: Vec<String> =
                    r.resources.iter().map(|x| format!("{}@{}", x.value, at(x.location))).collect();
                actual.push(format!(
                    "  {}|{}|{}|{}",
                    r.api_groups.join(","),
                    resources.join(","),
                    r.verbs.join(","),
                    r.resource_names.join(",")
                ));
            }
        }
        assert_eq!(actual, expected, "{text}");
    }

    #[test]
    fn roles_and_their_rules() {
        check(
            "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: manager\nrules:\n- apiGroups: [\"\", extensions]\n  resources: [pods, \"ingresses/status\"]\n  verbs: [get]\n  resourceNames: [a]\n- nonResourceURLs: [/healthz]\n  verbs: [get]\n",
            &["ClusterRole manager@manager", "  ,extensions|pods@pods,ingresses/status@\"ingresses/status\"|get|a", "  ||get|"],
        );
        check(
            "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: Role\nmetadata: {name: r, namespace: ns}\nrules:\n- apiGroups:\n  -\n  resources:\n  - 3\n  - services\n  verbs: ['*']\n",
            &["Role r@r", "  |services@services|*|"],
        );
    }

    #[test]
    fn lists_aggregation_and_other_objects() {
        check(
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: rbac.authorization.k8s.io/v1\n  kind: ClusterRole\n  metadata: {name: view}\n  aggregationRule:\n    clusterRoleSelectors: [{matchLabels: {a: b}}]\n- apiVersion: rbac.authorization.k8s.io/v1\n  kind: RoleBinding\n  metadata: {name: b}\n---\napiVersion: example.com/v1\nkind: Role\nrules: []\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nrules: [{apiGroups: [apps], resources: [deployments], verbs: [list]}]\n",
            &["ClusterRole view@view aggregated", "Role -@rbac.authorization.k8s.io/v1", "  apps|deployments@deployments|list|"],
        );
        check(
            r#"{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "x"}, "aggregationRule": null, "rules": [{"apiGroups": ["policy"], "resources": ["podsecuritypolicies"], "verbs": ["use"]}]}"#,
            &["ClusterRole x@\"x\"", "  policy|podsecuritypolicies@\"podsecuritypolicies\"|use|"],
        );
        check("replicas: 3\n", &[]);
    }
}
