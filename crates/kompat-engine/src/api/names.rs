//! Group/version/kind/resource names, printed the way Kubernetes prints them
//! where they appear in its messages.

use std::fmt;

use kompat_runtime::api::names::GroupVersion;

/// A group, version and resource. Displays as Go's
/// `schema.GroupVersionResource.String()` (`apps/v1, Resource=deployments`),
/// because Kubernetes' serving errors print it that way.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupVersionResource {
    pub group: String,
    pub version: String,
    pub resource: String,
}

impl GroupVersionResource {
    pub fn new(group: &str, version: &str, resource: &str) -> GroupVersionResource {
        GroupVersionResource { group: group.to_owned(), version: version.to_owned(), resource: resource.to_owned() }
    }

    /// The resource `resource` in the group-version `gv`.
    pub fn of(gv: &GroupVersion, resource: &str) -> GroupVersionResource {
        GroupVersionResource::new(&gv.group, &gv.version, resource)
    }

    pub fn group_version(&self) -> GroupVersion {
        GroupVersion::new(&self.group, &self.version)
    }
}

impl fmt::Display for GroupVersionResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Resource={}", self.group, self.version, self.resource)
    }
}

/// A group and resource. Displays as Go's `schema.GroupResource.String()`:
/// `deployments.apps`, and just `pods` for the core group.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupResource {
    pub group: String,
    pub resource: String,
}

impl GroupResource {
    pub fn new(group: &str, resource: &str) -> GroupResource {
        GroupResource { group: group.to_owned(), resource: resource.to_owned() }
    }

    /// Parses a storage-override key: `GROUP/RESOURCE`, `/RESOURCE` or a bare
    /// `RESOURCE` (both core). `None` for more than one `/` or an empty resource.
    pub fn parse_key(key: &str) -> Option<GroupResource> {
        let (group, resource) = match key.split_once('/') {
            Some((g, r)) => (g, r),
            None => ("", key),
        };
        if resource.is_empty() || resource.contains('/') {
            return None;
        }
        Some(GroupResource::new(group, resource))
    }

    /// The StorageVersion object name: `<group>.<resource>`, with the core
    /// group spelled `core`.
    pub fn storage_version_name(&self) -> String {
        let group = if self.group.is_empty() { "core" } else { &self.group };
        format!("{group}.{}", self.resource)
    }
}

impl fmt::Display for GroupResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.resource)
        } else {
            write!(f, "{}.{}", self.resource, self.group)
        }
    }
}

/// kube-derive's default resource name for a kind: its simple pluralizer
/// (no special cases) on the lower-case kind, e.g. `Ingress` → `ingresses`,
/// `NetworkPolicy` → `networkpolicies`. Irregular plurals (`Endpoints`) must
/// be written out, as kube-derive asks for them with `plural = "..."`.
pub fn kube_plural(kind: &str) -> String {
    let word = kind.to_ascii_lowercase();
    if word.ends_with(['s', 'x', 'z']) || word.ends_with("ch") || word.ends_with("sh") {
        return format!("{word}es");
    }
    if let Some(stem) = word.strip_suffix('y') {
        if stem.chars().last().is_some_and(|c| !matches!(c, 'a' | 'e' | 'i' | 'o' | 'u')) {
            return format!("{stem}ies");
        }
    }
    format!("{word}s")
}

#[cfg(test)]
mod tests {
    use super::kube_plural;

    #[test]
    fn kube_derive_plurals() {
        let check = |kind: &str, expected: &str| assert_eq!(kube_plural(kind), expected, "{kind}");
        check("Widget", "widgets");
        check("NetworkPolicy", "networkpolicies");
        check("Gateway", "gateways");
        check("IngressClass", "ingressclasses");
        check("box", "boxes");
        check("match", "matches");
        check("Mesh", "meshes");
        check("quiz", "quizes");
        check("y", "ys");
        check("Endpoints", "endpointses");
    }
}
